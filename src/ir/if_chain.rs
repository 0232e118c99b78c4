//! How a nest of `if` statements reads as one chain
//! `if a { } else if b { } else { }`: the rule the printer, the formatter
//! and anything else that walks printed lines must agree on.

use super::{Block, Function, IfStmt, StmtId, StmtKind};

/// The `if` of an `else` branch that prints as `} else if`: the branch holds
/// exactly one statement, an `if` without results.
pub fn else_if(f: &Function, else_body: &Block) -> Option<StmtId> {
    match f.block_stmts(else_body) {
        [only] => match &f.stmts[*only].kind {
            StmtKind::If(i) if f.ifs[*i].results.is_empty() => Some(*only),
            _ => None,
        },
        _ => None,
    }
}

/// What follows a link's `then` block.
pub enum ElseArm<'ir> {
    /// No `else`: the chain ends with the `then` block's `}`.
    None,
    /// `} else if`: the chain continues with this `if` statement.
    ElseIf(StmtId),
    /// `} else {`: this block, then the chain's `}`.
    Else(&'ir Block),
}

/// One `if` of a chain: its statement, `then` block and what follows.
pub struct IfLink<'ir> {
    pub stmt: StmtId,
    pub then_body: &'ir Block,
    pub else_arm: ElseArm<'ir>,
}

/// The links of the chain that starts at `s`, in source order (none when
/// `s` is not an `if`). Iterative: a chain of any length costs no stack.
pub fn if_chain(f: &Function, s: StmtId) -> impl Iterator<Item = IfLink<'_>> {
    let mut current = Some(s);
    std::iter::from_fn(move || {
        let stmt = current.take()?;
        let StmtKind::If(i) = f.stmts[stmt].kind else {
            return None;
        };
        let IfStmt {
            then_body,
            else_body,
            ..
        } = &f.ifs[i];
        let else_arm = match else_body {
            None => ElseArm::None,
            Some(b) => match else_if(f, b) {
                Some(next) => {
                    current = Some(next);
                    ElseArm::ElseIf(next)
                }
                None => ElseArm::Else(b),
            },
        };
        Some(IfLink {
            stmt,
            then_body,
            else_arm,
        })
    })
}
