//! NormalizedStmtStructure: statement lists in the shape passes expect.
//!
//! The property holds when all of the following hold:
//!
//! 1. **Flat blocks.** Every body is one [`Block`](crate::ir::Block): a flat
//!    list of statement ids of the function's arena; every statement reached
//!    from the function body appears in exactly one block, once.
//! 2. **Nothing after a terminator.** In every block, a `return`, `yield`,
//!    `break` or `continue` is the last statement.
//! 3. **Yields only where values leave a body.** A `yield` appears only as
//!    the last statement directly in the body of a `for`/`while` with
//!    iter-args or of an `if` with results (both branches), and its arity is
//!    the statement's result count. Conversely such a body ends with one.
//! 4. **Loops carry matching values.** A `for`/`while` has as many results
//!    as iter-args (none without bindings); an `if` with results has an
//!    `else` branch.
//! 5. **Jumps inside loops.** `break` and `continue` appear only inside the
//!    body of a `for` or `while` (through `if` and scopes).

use super::Violation;
use crate::diagnostics::count;
use crate::ir::walk::{Site, block_of};
use crate::ir::{ArenaId, Function, StmtId, StmtKind};

/// How many values the body `which` of `kind` must yield (`None`: it yields nothing).
fn expected_yield(f: &Function, kind: &StmtKind) -> Option<usize> {
    match kind {
        StmtKind::For(_) | StmtKind::While(_) | StmtKind::If(_) => {
            let n = f.results(kind).len();
            (n > 0).then_some(n)
        }
        _ => None,
    }
}

/// The property's checks on one function, fed by the verifiers' shared
/// statement walk ([`super::verify_all`]): [`Checker::enter`] and
/// [`Checker::exit`] around each statement, [`Checker::finish`] after the
/// walk.
pub(super) struct Checker<'f> {
    f: &'f Function,
    seen: Vec<bool>,
    loop_depth: usize,
    bad_id: bool,
}

impl<'f> Checker<'f> {
    pub(super) fn new(f: &'f Function) -> Self {
        Checker {
            f,
            seen: vec![false; f.stmts.len()],
            loop_depth: 0,
            bad_id: false,
        }
    }

    /// A body that must end with a yield of `want` values, checked when entered.
    fn check_body(&self, owner: StmtId, which: u8, want: usize, out: &mut Vec<Violation>) {
        let f = self.f;
        let block = block_of(f, Some(owner), which);
        match f.block_stmts(block).last().map(|&s| &f.stmts[s].kind) {
            Some(StmtKind::Yield(_)) => {}
            _ => out.push(Violation::new(
                block.span,
                format!(
                    "this body must end with a `yield` of {} for the statement's results",
                    count(want as u64, "value", "values")
                ),
            )),
        }
    }

    /// Statement `s` at `site`, before anything nested in it. Returns
    /// false when `s` is not in the function's arena (reported once, by
    /// [`Checker::finish`]).
    pub(super) fn enter(&mut self, s: StmtId, site: Site, out: &mut Vec<Violation>) -> bool {
        let f = self.f;
        let nstmts = f.stmts.len();
        if s.index() >= nstmts {
            self.bad_id = true;
            return false;
        }
        let stmt = &f.stmts[s];
        if std::mem::replace(&mut self.seen[s.index()], true) {
            out.push(Violation::new(
                stmt.span,
                "statement appears in more than one block",
            ));
        }
        let terminator = match &stmt.kind {
            StmtKind::Return(_) => Some("return"),
            StmtKind::Yield(_) => Some("yield"),
            StmtKind::Break => Some("break"),
            StmtKind::Continue => Some("continue"),
            _ => None,
        };
        if let Some(word) = terminator {
            let block = f.block_stmts(block_of(f, site.owner, site.block));
            if site.index + 1 != block.len() {
                let next = block[site.index + 1];
                let span = if next.index() < nstmts {
                    f.stmts[next].span
                } else {
                    stmt.span
                };
                out.push(Violation::new(
                    span,
                    format!("statement after `{word}` in the same block"),
                ));
            }
        }
        match &stmt.kind {
            StmtKind::Yield(values) => {
                let values = f.list(*values);
                let owner_kind = site.owner.map(|o| &f.stmts[o].kind);
                let want = owner_kind.and_then(|k| match k {
                    StmtKind::Scope { .. } => None,
                    k => expected_yield(f, k),
                });
                match want {
                    None => out.push(Violation::new(
                        stmt.span,
                        "`yield` outside the body of a loop or `if` with results",
                    )),
                    Some(n) if n != values.len() => out.push(Violation::new(
                        stmt.span,
                        format!(
                            "`yield` of {} where {n} {} expected",
                            count(values.len() as u64, "value", "values"),
                            if n == 1 { "is" } else { "are" }
                        ),
                    )),
                    Some(_) => {}
                }
            }
            StmtKind::Break | StmtKind::Continue if self.loop_depth == 0 => {
                out.push(Violation::new(stmt.span, "jump outside a loop"));
            }
            StmtKind::For(_) | StmtKind::While(_) => {
                let (results, iter_args) = (f.results(&stmt.kind), f.iter_args(&stmt.kind));
                if results.len() != iter_args.len() {
                    out.push(Violation::new(
                        stmt.span,
                        format!(
                            "loop has {} but {}",
                            count(results.len() as u64, "result", "results"),
                            count(iter_args.len() as u64, "iter-arg", "iter-args")
                        ),
                    ));
                }
                if !results.is_empty() {
                    self.check_body(s, 0, results.len(), out);
                }
            }
            StmtKind::If(i) if !f.results(&stmt.kind).is_empty() => {
                let results = f.results(&stmt.kind);
                let else_body = &f.ifs[*i].else_body;
                self.check_body(s, 0, results.len(), out);
                if else_body.is_none() {
                    out.push(Violation::new(
                        stmt.span,
                        "an `if` with results has no `else` branch",
                    ));
                } else {
                    self.check_body(s, 1, results.len(), out);
                }
            }
            _ => {}
        }
        if matches!(stmt.kind, StmtKind::For { .. } | StmtKind::While { .. }) {
            self.loop_depth += 1;
        }
        true
    }

    /// Statement `s`, after everything nested in it.
    pub(super) fn exit(&mut self, s: StmtId) {
        let f = self.f;
        if s.index() < f.stmts.len()
            && matches!(
                f.stmts[s].kind,
                StmtKind::For { .. } | StmtKind::While { .. }
            )
        {
            self.loop_depth -= 1;
        }
    }

    /// After the walk.
    pub(super) fn finish(self, out: &mut Vec<Violation>) {
        if self.bad_id {
            out.push(Violation::new(
                self.f.span,
                "a block names a statement that is not in the function's arena",
            ));
        }
    }
}
