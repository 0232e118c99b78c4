//! The vocabulary shared by the lexer, the AST and the IR: scalar types,
//! operators, function kinds, parameter directions, loop kinds and the
//! reserved words. It depends on nothing else in the crate, so the front end
//! can name these without importing the IR (the IR re-exports them).

/// A scalar element type: `i8` ... `f64`, `bool`, `index`, `task_id`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Index,
    Bool,
    F16,
    BF16,
    F32,
    F64,
    TaskId,
}

impl ScalarType {
    pub const ALL: [ScalarType; 15] = [
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::U8,
        ScalarType::U16,
        ScalarType::U32,
        ScalarType::U64,
        ScalarType::Index,
        ScalarType::Bool,
        ScalarType::F16,
        ScalarType::BF16,
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::TaskId,
    ];

    /// The keyword that spells this type.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::U8 => "u8",
            ScalarType::U16 => "u16",
            ScalarType::U32 => "u32",
            ScalarType::U64 => "u64",
            ScalarType::Index => "index",
            ScalarType::Bool => "bool",
            ScalarType::F16 => "f16",
            ScalarType::BF16 => "bf16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
            ScalarType::TaskId => "task_id",
        }
    }

    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            ScalarType::I8
                | ScalarType::I16
                | ScalarType::I32
                | ScalarType::I64
                | ScalarType::U8
                | ScalarType::U16
                | ScalarType::U32
                | ScalarType::U64
                | ScalarType::Index
        )
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::F16 | ScalarType::BF16 | ScalarType::F32 | ScalarType::F64
        )
    }
}

/// `orchestration`, `incore`, ...; `opaque` when none is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FuncKind {
    Orchestration,
    InCore,
    Aic,
    Aiv,
    Group,
    Opaque,
}

impl FuncKind {
    pub fn keyword(self) -> &'static str {
        match self {
            FuncKind::Orchestration => "orchestration",
            FuncKind::InCore => "incore",
            FuncKind::Aic => "aic",
            FuncKind::Aiv => "aiv",
            FuncKind::Group => "group",
            FuncKind::Opaque => "opaque",
        }
    }
}

/// A parameter's (and so a call argument's) direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    In,
    Out,
    InOut,
}

impl Direction {
    pub fn keyword(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::InOut => "inout",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

/// `for NAME in KIND(start, stop, step)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LoopKind {
    Range,
    Parallel,
    Unroll,
}

impl LoopKind {
    pub fn keyword(self) -> &'static str {
        match self {
            LoopKind::Range => "range",
            LoopKind::Parallel => "parallel",
            LoopKind::Unroll => "unroll",
        }
    }
}

/// Keywords that start statements or function headers, and the literals.
pub const KEYWORDS: [&str; 26] = [
    "func",
    "orchestration",
    "incore",
    "aic",
    "aiv",
    "group",
    "opaque",
    "in",
    "out",
    "inout",
    "for",
    "iter",
    "while",
    "if",
    "else",
    "manual",
    "auto",
    "yield",
    "return",
    "break",
    "continue",
    "submit",
    "true",
    "false",
    "none",
    "not",
];

/// Binary keyword operators.
pub const KEYWORD_OPERATORS: [&str; 2] = ["and", "or"];

/// Type names: the scalars, `array`, `tensor`.
pub fn type_names() -> impl Iterator<Item = &'static str> {
    ScalarType::ALL
        .into_iter()
        .map(|s| s.name())
        .chain(["array", "tensor"])
}

/// The keyword arguments of `submit`, in the order the canonical form
/// prints them: the one place their names are spelled.
pub const KWARG_DEPS: &str = "deps";
pub const KWARG_CORE_NUM: &str = "core_num";
pub const KWARG_SYNC_START: &str = "sync_start";
pub const KWARG_ALLOW_EARLY_RESOLVE: &str = "allow_early_resolve";
pub const KWARG_PREDICATE: &str = "predicate";
pub const SUBMIT_KWARGS: [&str; 5] = [
    KWARG_DEPS,
    KWARG_CORE_NUM,
    KWARG_SYNC_START,
    KWARG_ALLOW_EARLY_RESOLVE,
    KWARG_PREDICATE,
];

pub const LOOP_KINDS: [LoopKind; 3] = [LoopKind::Range, LoopKind::Parallel, LoopKind::Unroll];

/// Whether `name` is a reserved word (a keyword or a type name).
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name)
        || KEYWORD_OPERATORS.contains(&name)
        || type_names().any(|t| t == name)
        || LOOP_KINDS.iter().any(|k| k.keyword() == name)
}

/// Every reserved word: the keywords, the keyword operators, the type names
/// and the loop kinds (the table of `docs/language.md`, "Reserved words").
pub fn reserved_words() -> impl Iterator<Item = &'static str> {
    KEYWORDS
        .into_iter()
        .chain(KEYWORD_OPERATORS)
        .chain(type_names())
        .chain(LOOP_KINDS.iter().map(|k| k.keyword()))
}

/// A built-in op (docs/language.md section 6). Lowering resolves an op's
/// name to one of these once ([`crate::ir::Call::builtin`]); everything
/// after matches on the variant. This is the one place the op names are
/// spelt.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinOp {
    /// `array.create(n, dtype)`.
    ArrayCreate,
    /// `array.get_element(a, i)`.
    ArrayGetElement,
    /// `array.update_element(a, i, v)`.
    ArrayUpdateElement,
    /// `system.task_invalid()`.
    TaskInvalid,
    /// `system.task_dummy(deps=[...])`.
    TaskDummy,
}

impl BuiltinOp {
    pub const ALL: [BuiltinOp; 5] = [
        BuiltinOp::ArrayCreate,
        BuiltinOp::ArrayGetElement,
        BuiltinOp::ArrayUpdateElement,
        BuiltinOp::TaskInvalid,
        BuiltinOp::TaskDummy,
    ];

    /// The name the op is called by.
    pub fn name(self) -> &'static str {
        match self {
            BuiltinOp::ArrayCreate => "array.create",
            BuiltinOp::ArrayGetElement => "array.get_element",
            BuiltinOp::ArrayUpdateElement => "array.update_element",
            BuiltinOp::TaskInvalid => "system.task_invalid",
            BuiltinOp::TaskDummy => "system.task_dummy",
        }
    }

    pub fn from_name(name: &str) -> Option<BuiltinOp> {
        BuiltinOp::ALL.into_iter().find(|op| op.name() == name)
    }

    /// The number of positional arguments the op takes.
    pub fn arity(self) -> usize {
        match self {
            BuiltinOp::ArrayCreate | BuiltinOp::ArrayGetElement => 2,
            BuiltinOp::ArrayUpdateElement => 3,
            BuiltinOp::TaskInvalid | BuiltinOp::TaskDummy => 0,
        }
    }

    /// How the op is called: `array.create(n, dtype)`.
    pub fn usage(self) -> &'static str {
        match self {
            BuiltinOp::ArrayCreate => "array.create(n, dtype)",
            BuiltinOp::ArrayGetElement => "array.get_element(a, i)",
            BuiltinOp::ArrayUpdateElement => "array.update_element(a, i, v)",
            BuiltinOp::TaskInvalid => "system.task_invalid()",
            BuiltinOp::TaskDummy => "system.task_dummy(deps=[...])",
        }
    }

    /// How the op is called and what it gives:
    /// `array.create(n, dtype) -> array<dtype, n>`.
    pub fn signature(self) -> &'static str {
        match self {
            BuiltinOp::ArrayCreate => "array.create(n, dtype) -> array<dtype, n>",
            BuiltinOp::ArrayGetElement => "array.get_element(a, i) -> element type",
            BuiltinOp::ArrayUpdateElement => "array.update_element(a, i, v) -> type of a",
            BuiltinOp::TaskInvalid => "system.task_invalid() -> task_id",
            BuiltinOp::TaskDummy => "system.task_dummy(deps=[...]) -> task_id",
        }
    }

    /// What the op does (an editor's hover).
    pub fn doc(self) -> &'static str {
        match self {
            BuiltinOp::ArrayCreate => {
                "Creates an array of `n` elements of the scalar type `dtype`. Its extent is `n` \
                 when `n` is a literal, else dynamic; an `array<task_id, N>` has N producers for \
                 `expand-manual-phase-fence`."
            }
            BuiltinOp::ArrayGetElement => "Reads element `i` (an integer) of the array `a`.",
            BuiltinOp::ArrayUpdateElement => {
                "Writes `v` into element `i` of `a` and returns the array. It updates `a`'s \
                 storage: a loop that updates an array (or an iter-arg aliasing it) keeps that \
                 array's dependencies direct."
            }
            BuiltinOp::TaskInvalid => "The invalid task id (the value `none` also stands for).",
            BuiltinOp::TaskDummy => {
                "A dependency-only barrier: submits no kernel; its task id is a fan-in point for \
                 the tasks in `deps`. `expand-manual-phase-fence` inserts these before loops it \
                 compresses."
            }
        }
    }

    /// The completion snippet.
    pub fn snippet(self) -> &'static str {
        match self {
            BuiltinOp::ArrayCreate => "array.create(${1:n}, ${2:task_id})",
            BuiltinOp::ArrayGetElement => "array.get_element(${1:a}, ${2:i})",
            BuiltinOp::ArrayUpdateElement => "array.update_element(${1:a}, ${2:i}, ${3:v})",
            BuiltinOp::TaskInvalid => "system.task_invalid()",
            BuiltinOp::TaskDummy => "system.task_dummy(deps=[${1}])",
        }
    }
}
