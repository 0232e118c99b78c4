//! How a nest of `if` statements reads as one chain
//! `if a { } else if b { } else { }`: the rule the printer, the formatter
//! and anything else that walks printed lines must agree on.

use super::{Block, Function, StmtId, StmtKind};

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

/// The `else` branch of `if` statement `s` (`None` when `s` is not an `if`
/// or has no `else`).
pub fn else_body(f: &Function, s: StmtId) -> Option<&Block> {
    match &f.stmts.get(s)?.kind {
        StmtKind::If(i) => f.ifs[*i].else_body.as_ref(),
        _ => None,
    }
}

/// When block `which` of `owner` (as [`crate::ir::walk`] names blocks) is
/// an `else` branch that prints as `} else if`, the `if` it holds: the next
/// link of the chain, printed at the depth of the chain's first `if`.
pub fn else_if_arm(f: &Function, owner: Option<StmtId>, which: u8) -> Option<StmtId> {
    match (owner, which) {
        (Some(s), 1) => else_body(f, s).and_then(|b| else_if(f, b)),
        _ => None,
    }
}
