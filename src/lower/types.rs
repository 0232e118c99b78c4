//! Type expressions to IR types, and the signatures lowering checks calls with.

use super::Lowerer;
use crate::diagnostics::Code;
use crate::diagnostics::Diagnostic;
use crate::ir::{Direction, Extent, FuncId, Type};
use crate::parser::ast::{ExtentExpr, TypeExpr, TypeExprKind};
use crate::span::Span;

/// A function's signature, as calls and `submit`s see it.
#[derive(Clone, Debug)]
pub struct Signature {
    /// The function's id in the lowered module.
    pub id: FuncId,
    pub params: Vec<(String, Direction, Type)>,
    /// Where each parameter is declared (for labels on wrong arguments).
    pub param_spans: Vec<Span>,
    pub results: Vec<Type>,
    /// The span of the function's header (name to `{`).
    pub span: Span,
}

impl Signature {
    /// The type a call of this function has: one result as itself, several
    /// as a tuple, none as the empty tuple.
    pub fn call_type(&self) -> Type {
        match self.results.as_slice() {
            [one] => one.clone(),
            many => Type::Tuple(many.to_vec()),
        }
    }
}

/// The result list that `-> T` declares: a tuple type means several results.
pub fn result_list(ty: Type) -> Vec<Type> {
    match ty {
        Type::Tuple(ts) => ts,
        t => vec![t],
    }
}

impl Lowerer<'_> {
    fn lower_extent(
        &mut self,
        e: &ExtentExpr<'_>,
        check_name: &mut dyn FnMut(&str) -> bool,
    ) -> Extent {
        match e {
            ExtentExpr::Int(text, span) => match text.parse::<i64>() {
                Ok(n) => Extent::Const(n),
                Err(_) => {
                    self.error(
                        Diagnostic::error("integer literal out of range", *span)
                            .with_code(Code::LiteralOutOfRange)
                            .with_label(format!("does not fit in i64 (at most {})", i64::MAX)),
                    );
                    // Kept as written (a module with errors prints back
                    // what was written; it is never analysed).
                    Extent::Dynamic(Some(text.to_string()))
                }
            },
            ExtentExpr::Name(id) => {
                let name = self.text(*id);
                if !check_name(name) {
                    self.error(
                        Diagnostic::error(
                            format!("dynamic extent `{name}` is not an integer value in scope"),
                            id.span(),
                        )
                        .with_code(Code::TypeMismatch)
                        .with_label("not an integer value in scope"),
                    );
                }
                Extent::Dynamic(Some(name.to_string()))
            }
        }
    }

    /// Lowers a written type; `check_name` says whether a dynamic extent's
    /// name is an integer value in scope.
    pub(super) fn lower_type(
        &mut self,
        t: &TypeExpr<'_>,
        check_name: &mut dyn FnMut(&str) -> bool,
    ) -> Type {
        crate::stack::ensure(|| self.lower_type_here(t, check_name))
    }

    /// [`Self::lower_type`], on the stack [`crate::stack::ensure`] left.
    fn lower_type_here(
        &mut self,
        t: &TypeExpr<'_>,
        check_name: &mut dyn FnMut(&str) -> bool,
    ) -> Type {
        match &t.kind {
            TypeExprKind::Scalar(s) => Type::Scalar(*s),
            TypeExprKind::Array(elem, extent) => Type::Array {
                elem: *elem,
                extent: self.lower_extent(extent, check_name),
            },
            TypeExprKind::Tensor(dims, elem) => Type::Tensor {
                dims: dims
                    .iter()
                    .map(|d| self.lower_extent(d, check_name))
                    .collect(),
                elem: *elem,
            },
            TypeExprKind::Tuple(ts) => {
                Type::Tuple(ts.iter().map(|t| self.lower_type(t, check_name)).collect())
            }
        }
    }
}
