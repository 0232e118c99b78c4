//! The types of IR values (spec section 4) and the category check of section 6.

pub use crate::vocab::ScalarType;
use std::fmt;

/// An array extent or tensor dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Extent {
    /// A literal size: `array<task_id, 4>`.
    Const(i64),
    /// A size held by a named integer value: `array<task_id, n>`. The name is
    /// `None` when the size came from an expression that is not a variable
    /// (`array.create(n * 2, task_id)`); such a type is never printed.
    Dynamic(Option<String>),
}

/// The type of an IR value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Scalar(ScalarType),
    /// `array<elem, extent>`.
    Array {
        elem: ScalarType,
        extent: Extent,
    },
    /// `tensor<[dims], elem>`.
    Tensor {
        dims: Vec<Extent>,
        elem: ScalarType,
    },
    /// `(T1, T2, ...)`: the results of a call with several results.
    Tuple(Vec<Type>),
    /// The type of a dtype used as a value (`task_id` in `array.create(4, task_id)`).
    /// It cannot be written in source.
    Dtype,
    /// The result of an op the IR does not know; accepted anywhere.
    Unknown,
}

/// The category used for type checking (spec section 6): integer widths and
/// tensor shapes are not compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Category {
    Integer,
    Float,
    Bool,
    TaskId,
    Array(ScalarType),
    Tensor(ScalarType),
    Tuple(Vec<Category>),
    Dtype,
    Unknown,
}

impl Type {
    pub const TASK_ID: Type = Type::Scalar(ScalarType::TaskId);
    pub const BOOL: Type = Type::Scalar(ScalarType::Bool);
    pub const I64: Type = Type::Scalar(ScalarType::I64);
    pub const INDEX: Type = Type::Scalar(ScalarType::Index);
    pub const F32: Type = Type::Scalar(ScalarType::F32);

    pub fn category(&self) -> Category {
        match self {
            Type::Scalar(s) if s.is_integer() => Category::Integer,
            Type::Scalar(s) if s.is_float() => Category::Float,
            Type::Scalar(ScalarType::Bool) => Category::Bool,
            Type::Scalar(_) => Category::TaskId,
            Type::Array { elem, .. } => Category::Array(*elem),
            Type::Tensor { elem, .. } => Category::Tensor(*elem),
            Type::Tuple(ts) => Category::Tuple(ts.iter().map(Type::category).collect()),
            Type::Dtype => Category::Dtype,
            Type::Unknown => Category::Unknown,
        }
    }

    /// Whether a value of type `self` is accepted where `expected` is wanted:
    /// same category, or either side unknown.
    pub fn accepts(&self, expected: &Type) -> bool {
        fn cat_ok(a: &Category, b: &Category) -> bool {
            match (a, b) {
                (Category::Unknown, _) | (_, Category::Unknown) => true,
                (Category::Tuple(x), Category::Tuple(y)) => {
                    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| cat_ok(a, b))
                }
                _ => a == b,
            }
        }
        // The common cases build no category: scalars of one type, arrays
        // of one element type.
        let same = match (self, expected) {
            (Type::Scalar(a), Type::Scalar(b)) => a == b,
            (Type::Array { elem: a, .. }, Type::Array { elem: b, .. }) => a == b,
            _ => false,
        };
        same || cat_ok(&self.category(), &expected.category())
    }

    pub fn is_task_id(&self) -> bool {
        matches!(self, Type::Scalar(ScalarType::TaskId))
    }

    /// `array<task_id, _>`.
    pub fn is_task_id_array(&self) -> bool {
        matches!(
            self,
            Type::Array {
                elem: ScalarType::TaskId,
                ..
            }
        )
    }

    /// The literal extent of an array type, if any.
    pub fn array_extent(&self) -> Option<i64> {
        match self {
            Type::Array {
                extent: Extent::Const(n),
                ..
            } => Some(*n),
            _ => None,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Scalar(s) if s.is_integer())
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self, Type::Unknown)
    }
}

impl fmt::Display for Extent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Extent::Const(n) => write!(f, "{n}"),
            Extent::Dynamic(Some(name)) => f.write_str(name),
            Extent::Dynamic(None) => f.write_str("?"),
        }
    }
}

/// Types print in their source syntax (`array<task_id, 4>`); this is what the
/// printer writes for annotations and what diagnostics show.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Scalar(s) => f.write_str(s.name()),
            Type::Array { elem, extent } => write!(f, "array<{}, {}>", elem.name(), extent),
            Type::Tensor { dims, elem } => {
                f.write_str("tensor<[")?;
                for (i, d) in dims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{d}")?;
                }
                write!(f, "], {}>", elem.name())
            }
            Type::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
            Type::Dtype => f.write_str("dtype"),
            Type::Unknown => f.write_str("unknown"),
        }
    }
}

crate::define_id!(
    /// A type of a function's [`TypeTable`].
    TypeId
);

/// The types of one function, each stored once: expressions and variables
/// refer to them by [`TypeId`] (4 bytes) instead of holding a [`Type`]
/// each. Ids of two functions are not comparable; compare the types.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    types: Vec<Type>,
    ids: hashbrown::HashMap<Type, TypeId>,
    /// The ids of the scalar types interned so far, by
    /// [`ScalarType::ALL`] position: most types are scalars, and these
    /// are found without hashing.
    scalars: [Option<TypeId>; ScalarType::ALL.len()],
}

impl TypeTable {
    /// The id of `ty`, adding it when it is new.
    pub fn intern(&mut self, ty: Type) -> TypeId {
        let scalar = match ty {
            Type::Scalar(s) => Some(s as usize),
            _ => None,
        };
        if let Some(i) = scalar
            && let Some(id) = self.scalars[i]
        {
            return id;
        }
        if let Some(&id) = self.ids.get(&ty) {
            return id;
        }
        if let Some(i) = scalar {
            self.scalars[i] = Some(<TypeId as crate::ir::ArenaId>::from_index(self.types.len()));
        }
        let id = <TypeId as crate::ir::ArenaId>::from_index(self.types.len());
        self.types.push(ty.clone());
        self.ids.insert(ty, id);
        id
    }

    /// How many distinct types the table holds.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}

impl std::ops::Index<TypeId> for TypeTable {
    type Output = Type;
    fn index(&self, id: TypeId) -> &Type {
        &self.types[<TypeId as crate::ir::ArenaId>::index(id)]
    }
}

#[cfg(test)]
mod tests {
    use super::{Extent, ScalarType, Type, TypeTable};

    /// `accepts` compares categories (spec section 6): integer widths and
    /// array extents do not matter, element types and categories do, and
    /// `Unknown` goes anywhere.
    #[test]
    fn acceptance_is_by_category() {
        use ScalarType::{Bool, F16, F32, I32, I64, Index, TaskId};
        let array = |elem, n| Type::Array {
            elem,
            extent: Extent::Const(n),
        };
        let tuple = |ts: &[Type]| Type::Tuple(ts.to_vec());
        let accepted = [
            (Type::Scalar(I32), Type::Scalar(I64)),
            (Type::Scalar(Index), Type::Scalar(I32)),
            (Type::Scalar(F16), Type::Scalar(F32)),
            (Type::TASK_ID, Type::TASK_ID),
            (array(TaskId, 4), array(TaskId, 8)),
            (
                array(TaskId, 4),
                Type::Array {
                    elem: TaskId,
                    extent: Extent::Dynamic(None),
                },
            ),
            (Type::Unknown, Type::TASK_ID),
            (Type::BOOL, Type::Unknown),
            (
                tuple(&[Type::Scalar(I32), Type::TASK_ID]),
                tuple(&[Type::Scalar(I64), Type::TASK_ID]),
            ),
        ];
        for (found, expected) in &accepted {
            assert!(
                found.accepts(expected),
                "{found:?} where {expected:?} is wanted"
            );
        }
        let rejected = [
            (Type::Scalar(I32), Type::Scalar(F32)),
            (Type::Scalar(Bool), Type::Scalar(I32)),
            (Type::TASK_ID, Type::Scalar(I64)),
            (array(TaskId, 4), array(I32, 4)),
            (array(TaskId, 4), Type::TASK_ID),
            (Type::Dtype, Type::TASK_ID),
            (
                tuple(&[Type::TASK_ID]),
                tuple(&[Type::TASK_ID, Type::TASK_ID]),
            ),
            (tuple(&[Type::BOOL]), tuple(&[Type::TASK_ID])),
        ];
        for (found, expected) in &rejected {
            assert!(
                !found.accepts(expected),
                "{found:?} where {expected:?} is wanted"
            );
        }
    }

    /// Equal types get one id; different ones different ids.
    #[test]
    fn types_are_stored_once() {
        let mut t = TypeTable::default();
        let array = || Type::Array {
            elem: ScalarType::TaskId,
            extent: Extent::Const(4),
        };
        let a = t.intern(array());
        let b = t.intern(Type::TASK_ID);
        assert_eq!(t.intern(array()), a);
        assert_ne!(a, b);
        assert_eq!(t.len(), 2);
        assert_eq!(t[a], array());
        assert_eq!(t[b], Type::TASK_ID);
    }

    #[test]
    fn scalars_are_interned_like_other_types() {
        // The scalar shortcut indexes by declaration order.
        for (i, s) in ScalarType::ALL.into_iter().enumerate() {
            assert_eq!(s as usize, i);
        }
        let array = || Type::Array {
            elem: ScalarType::TaskId,
            extent: Extent::Const(4),
        };
        let mut t = TypeTable::default();
        let a = t.intern(array());
        let ids: Vec<_> = ScalarType::ALL
            .into_iter()
            .map(|s| t.intern(Type::Scalar(s)))
            .collect();
        for (s, id) in ScalarType::ALL.into_iter().zip(&ids) {
            assert_eq!(t.intern(Type::Scalar(s)), *id);
            assert_eq!(t[*id], Type::Scalar(s));
        }
        assert_eq!(t.intern(array()), a);
        assert_eq!(t.len(), 1 + ScalarType::ALL.len());
    }
}
