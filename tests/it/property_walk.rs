//! The property verifiers' shared walk (`properties::verify_all`) reports,
//! for every property, exactly what the property's own verifier reported
//! when each had a walk of its own: the same violations, messages and
//! order. The reference is [`oracle`], the verifiers as they were before
//! the walks were fused (one statement walk per property), kept here
//! unchanged in logic. Checked on every valid `.pfir` input of the
//! repository (before and after the pass), on generated programs, and on
//! IR damaged at random in ways that break each property (nested calls,
//! wrong directions, manual edges on plain calls, shuffled, duplicated or
//! cut blocks, stray jumps and yields).

use pfir::ir::walk::{block_of_mut, for_each_expr, walk_stmts};
use pfir::ir::{ArenaId, Direction, ExprId, ExprKind, Module, StmtId, StmtKind};
use pfir::passes::properties::{Property, Violation, verify_all};
use proptest::prelude::*;

/// The verifiers with a walk each, as they were before `verify_all`.
mod oracle {
    use pfir::diagnostics::count;
    use pfir::ir::walk::{block_of, expr_children, for_each_expr, own_exprs, walk_stmts};
    use pfir::ir::{
        ArenaId, Callee, Direction, Directions, ExprId, ExprKind, FuncId, Function, Module, StmtId,
        StmtKind,
    };
    use pfir::passes::properties::{Property, Violation};
    use pfir::span::Span;

    pub fn verify(p: Property, m: &Module) -> Vec<Violation> {
        let mut out = Vec::new();
        match p {
            Property::CallDirectionsResolved => call_directions(m, &mut out),
            _ => {
                for f in m.functions() {
                    match p {
                        Property::NoNestedCalls => no_nested_calls(m, f, &mut out),
                        Property::NormalizedStmtStructure => structure(f, &mut out),
                        Property::ManualDepsOnSubmitOnly => manual_deps(m, f, &mut out),
                        Property::CallDirectionsResolved => unreachable!(),
                    }
                }
            }
        }
        out
    }

    fn no_nested_calls(module: &Module, f: &Function, out: &mut Vec<Violation>) {
        let mut roots = Vec::new();
        let mut work: Vec<(ExprId, Option<&str>)> = Vec::new();
        let mut kids = Vec::new();
        walk_stmts(
            f,
            |s, _| {
                let kind = &f.stmts[s].kind;
                roots.clear();
                own_exprs(f, kind, &mut roots);
                work.clear();
                let submit = match kind {
                    StmtKind::Submit(sub) => Some(f.callee_name(module, f.submits[*sub].callee)),
                    _ => None,
                };
                let core_args = match kind {
                    StmtKind::Submit(_) => roots.len(),
                    _ => 0,
                };
                for (i, &r) in roots.iter().enumerate().rev() {
                    work.push((r, if i < core_args { submit } else { None }));
                }
                while let Some((e, inside)) = work.pop() {
                    let node = &f.exprs[e];
                    if let ExprKind::Call(c) = node.kind {
                        let c = &f.calls[c];
                        if let Some(outer) = inside {
                            out.push(Violation::new(
                                node.span,
                                format!(
                                    "call to `{}` nested in the arguments of `{outer}`",
                                    f.callee_name(module, c.callee)
                                ),
                            ));
                        }
                        kids.clear();
                        expr_children(f, &node.kind, &mut kids);
                        let name = f.callee_name(module, c.callee);
                        for &k in kids.iter().rev() {
                            work.push((k, Some(name)));
                        }
                    } else {
                        kids.clear();
                        expr_children(f, &node.kind, &mut kids);
                        for &k in kids.iter().rev() {
                            work.push((k, inside));
                        }
                    }
                }
            },
            |_| {},
        );
    }

    enum What<'a> {
        Submit(&'a str),
        Call(&'a str),
    }

    impl std::fmt::Display for What<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                What::Submit(name) => write!(f, "submit of `{name}`"),
                What::Call(name) => write!(f, "call of `{name}`"),
            }
        }
    }

    fn call_directions(module: &Module, out: &mut Vec<Violation>) {
        let signatures: Vec<Vec<Direction>> = module
            .functions()
            .iter()
            .map(|f| f.params.iter().map(|p| p.direction).collect())
            .collect();
        let check = |what: What<'_>,
                     callee: Option<FuncId>,
                     nargs: usize,
                     dirs: Directions<'_>,
                     span: Span,
                     out: &mut Vec<Violation>| {
            if dirs.len() != nargs {
                out.push(Violation::new(
                    span,
                    format!(
                        "{what} has {} but {}",
                        count(nargs as u64, "positional argument", "positional arguments"),
                        count(
                            dirs.len() as u64,
                            "resolved direction",
                            "resolved directions"
                        )
                    ),
                ));
                return;
            }
            match callee {
                Some(id) => match signatures.get(id.index()) {
                    None => out.push(Violation::new(
                        span,
                        format!("{what}: {id:?} is not a function of the module"),
                    )),
                    Some(params) if !dirs.iter().eq(params.iter().copied()) => {
                        out.push(Violation::new(
                            span,
                            format!(
                                "{what}: argument directions ({}) do not match the parameters of `{}` ({})",
                                spell(dirs.iter()),
                                module.func_name(id),
                                spell(params.iter().copied())
                            ),
                        ))
                    }
                    Some(_) => {}
                },
                None => {
                    if let Some(d) = dirs.iter().find(|d| *d != Direction::In) {
                        out.push(Violation::new(
                            span,
                            format!("{what}: an op argument has direction `{}`", d.keyword()),
                        ));
                    }
                }
            }
        };
        for f in module.functions() {
            let mut roots = Vec::new();
            let mut work = Vec::new();
            walk_stmts(
                f,
                |s, _| {
                    let stmt = &f.stmts[s];
                    if let StmtKind::Submit(sub) = stmt.kind {
                        let sub = &f.submits[sub];
                        check(
                            What::Submit(f.callee_name(module, sub.callee)),
                            sub.callee.function(),
                            f.list(sub.args).len(),
                            f.directions(sub.arg_directions),
                            stmt.span,
                            out,
                        );
                    }
                    roots.clear();
                    own_exprs(f, &stmt.kind, &mut roots);
                    for &r in &roots {
                        for_each_expr(f, r, &mut work, |e| {
                            let node = &f.exprs[e];
                            if let Some(c) = f.call(e) {
                                let callee = match c.callee {
                                    Callee::Function(id) => Some(id),
                                    Callee::Op(_) | Callee::Unresolved(_) => None,
                                };
                                check(
                                    What::Call(f.callee_name(module, c.callee)),
                                    callee,
                                    f.list(c.args).len(),
                                    f.directions(c.arg_directions),
                                    node.span,
                                    out,
                                );
                            }
                        });
                    }
                },
                |_| {},
            );
        }
    }

    fn spell(dirs: impl Iterator<Item = Direction>) -> String {
        let words: Vec<&str> = dirs.map(|d| d.keyword()).collect();
        if words.is_empty() {
            return "none".into();
        }
        words.join(", ")
    }

    fn manual_deps(module: &Module, f: &Function, out: &mut Vec<Violation>) {
        let mut roots = Vec::new();
        let mut work = Vec::new();
        walk_stmts(
            f,
            |s, _| {
                roots.clear();
                own_exprs(f, &f.stmts[s].kind, &mut roots);
                for &r in &roots {
                    for_each_expr(f, r, &mut work, |e| {
                        let node = &f.exprs[e];
                        if let Some(c) = f.call(e) {
                            let barrier =
                                c.dummy_task && f.op_name(c.callee) == Some("system.task_dummy");
                            if !c.manual_dep_edges.is_empty() && !barrier {
                                out.push(Violation::new(
                                    node.span,
                                    format!(
                                        "plain call to `{}` carries manual dependency edges; only `submit` and `system.task_dummy` barriers may",
                                        f.callee_name(module, c.callee)
                                    ),
                                ));
                            }
                        }
                    });
                }
            },
            |_| {},
        );
    }

    fn expected_yield(f: &Function, kind: &StmtKind) -> Option<usize> {
        match kind {
            StmtKind::For(_) | StmtKind::While(_) | StmtKind::If(_) => {
                let n = f.results(kind).len();
                (n > 0).then_some(n)
            }
            _ => None,
        }
    }

    fn structure(f: &Function, out: &mut Vec<Violation>) {
        let nstmts = f.stmts.len();
        let mut seen = vec![false; nstmts];
        let loop_depth = std::cell::Cell::new(0usize);
        let check_body = |owner: StmtId, which: u8, want: usize, out: &mut Vec<Violation>| {
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
        };
        let mut bad_id = false;
        walk_stmts(
            f,
            |s, site| {
                if s.index() >= nstmts {
                    bad_id = true;
                    return;
                }
                let stmt = &f.stmts[s];
                if std::mem::replace(&mut seen[s.index()], true) {
                    out.push(Violation::new(
                        stmt.span,
                        "statement appears in more than one block",
                    ));
                }
                let block = block_of(f, site.owner, site.block);
                statement_after_terminator(f, s, f.block_stmts(block), site.index, out);
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
                    StmtKind::Break | StmtKind::Continue if loop_depth.get() == 0 => {
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
                            check_body(s, 0, results.len(), out);
                        }
                    }
                    StmtKind::If(i) if !f.results(&stmt.kind).is_empty() => {
                        let results = f.results(&stmt.kind);
                        let else_body = &f.ifs[*i].else_body;
                        check_body(s, 0, results.len(), out);
                        if else_body.is_none() {
                            out.push(Violation::new(
                                stmt.span,
                                "an `if` with results has no `else` branch",
                            ));
                        } else {
                            check_body(s, 1, results.len(), out);
                        }
                    }
                    _ => {}
                }
                if matches!(stmt.kind, StmtKind::For { .. } | StmtKind::While { .. }) {
                    loop_depth.set(loop_depth.get() + 1);
                }
            },
            |s| {
                if s.index() < nstmts
                    && matches!(
                        f.stmts[s].kind,
                        StmtKind::For { .. } | StmtKind::While { .. }
                    )
                {
                    loop_depth.set(loop_depth.get() - 1);
                }
            },
        );
        if bad_id {
            out.push(Violation::new(
                f.span,
                "a block names a statement that is not in the function's arena",
            ));
        }
    }

    /// `s`, at `index` in `block`, is a `return`, `yield`, `break` or
    /// `continue` that is not last.
    fn statement_after_terminator(
        f: &Function,
        s: StmtId,
        block: &[StmtId],
        index: usize,
        out: &mut Vec<Violation>,
    ) {
        let nstmts = f.stmts.len();
        let stmt = &f.stmts[s];
        let is_last = index + 1 == block.len();
        let terminator = match &stmt.kind {
            StmtKind::Return(_) => Some("return"),
            StmtKind::Yield(_) => Some("yield"),
            StmtKind::Break => Some("break"),
            StmtKind::Continue => Some("continue"),
            _ => None,
        };
        if let Some(word) = terminator
            && !is_last
        {
            let next = block[index + 1];
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
}

/// Checks that every way of asking gives the oracle's answer; returns the
/// number of violations found (all properties).
fn agree(m: &Module, what: &str) -> usize {
    let expected: Vec<Vec<Violation>> = Property::ALL
        .iter()
        .map(|&p| oracle::verify(p, m))
        .collect();
    for (i, &p) in Property::ALL.iter().enumerate() {
        assert_eq!(p.verify(m), expected[i], "{what}: {p} alone");
    }
    assert_eq!(
        verify_all(&Property::ALL, m),
        expected,
        "{what}: all at once"
    );
    // Other subsets and orders, as the manager asks for them.
    let subsets: [&[Property]; 4] = [
        &[
            Property::ManualDepsOnSubmitOnly,
            Property::CallDirectionsResolved,
            Property::NormalizedStmtStructure,
            Property::NoNestedCalls,
        ],
        &[
            Property::NoNestedCalls,
            Property::NormalizedStmtStructure,
            Property::CallDirectionsResolved,
        ],
        &[Property::CallDirectionsResolved, Property::NoNestedCalls],
        &[],
    ];
    for props in subsets {
        let got = verify_all(props, m);
        assert_eq!(got.len(), props.len());
        for (p, v) in props.iter().zip(got) {
            assert_eq!(v, expected[*p as usize], "{what}: {p} in {props:?}");
        }
    }
    expected.iter().map(Vec::len).sum()
}

use crate::support::repository_pfir_files;

/// Every valid module of the repository's `.pfir` files (examples and tests).
fn corpus() -> Vec<(String, Module)> {
    let files = repository_pfir_files();
    let mut out = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (base, chunk) in pfir::driver::split_chunks(&text) {
            if let (Some(m), _) = pfir::parse(chunk).into_parts() {
                out.push((format!("{}@{base}", path.display()), m));
            }
        }
    }
    assert!(out.len() >= 20, "only {} valid inputs found", out.len());
    out
}

#[test]
fn one_walk_agrees_with_each_property_alone_on_the_corpus() {
    {
        for (name, mut m) in corpus() {
            agree(&m, &name);
            let file = pfir::diagnostics::SourceFile::new("t.pfir", "");
            let opts = pfir::passes::PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
            let _ = pfir::passes::run_pipeline(&mut m, &file, &opts);
            agree(&m, &format!("{name}, after the pass"));
        }
    };
}

#[test]
fn one_walk_agrees_on_synthesised_programs() {
    use pfir::passes::synth;
    for m in [
        synth::flat(3, 4),
        synth::wide(10),
        synth::deep(30),
        synth::deep_many_arrays(6, 3),
        synth::many_arrays(4, 3),
    ] {
        assert_eq!(agree(&m, "synth"), 0);
    }
}

/// A small deterministic generator for the damage below.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Damages `m` once, at random: a call nested into another call or a
/// `submit`, wrong argument directions, manual edges on a plain call or a
/// barrier flag dropped, a block shuffled, cut or given a duplicate, or a
/// stray `break`, `yield` or `return` inserted.
fn damage(m: &mut Module, rng: &mut Rng) {
    let nf = m.functions().len();
    if nf == 0 {
        return;
    }
    let f = &mut m.functions_mut()[rng.below(nf)];
    let calls = ids_where(f.exprs.iter(), |e| matches!(e.kind, ExprKind::Call(_)));
    let submits = ids_where(f.stmts.iter(), |s| matches!(s.kind, StmtKind::Submit(_)));
    let mut blocks: Vec<(Option<StmtId>, u8)> = vec![(None, 0)];
    walk_stmts(
        f,
        |s, _| {
            for which in [0u8, 1] {
                if f.nested_block(&f.stmts[s].kind, which).is_some() {
                    blocks.push((Some(s), which));
                }
            }
        },
        |_| {},
    );
    match rng.below(7) {
        // A call (or any expression) among a submit's arguments or deps.
        0 if !submits.is_empty() => nest_in_a_submit(f, rng, &calls, &submits),
        // A call among another call's arguments or manual edges.
        1 if !calls.is_empty() => nest_in_a_call(f, rng, &calls),
        // Wrong directions on a submit or a call.
        2 => wrong_directions(f, rng, &calls, &submits),
        // Manual edges on a call, or a barrier's flag dropped.
        3 if !calls.is_empty() => manual_edges_on_a_call(f, rng, &calls),
        // A block reversed, cut or given a duplicate.
        4 => {
            let (owner, which) = blocks[rng.below(blocks.len())];
            edit_block(f, owner, which, |stmts| match rng.below(3) {
                0 => stmts.reverse(),
                1 => {
                    stmts.pop();
                }
                _ if !stmts.is_empty() => {
                    let s = stmts[rng.below(stmts.len())];
                    let at = rng.below(stmts.len() + 1);
                    stmts.insert(at, s);
                }
                _ => {}
            });
        }
        // A statement of another block moved or copied here.
        5 if f.stmts.len() > 1 => {
            let (owner, which) = blocks[rng.below(blocks.len())];
            let s = StmtId::from_index(rng.below(f.stmts.len()));
            // Never into its own body: the walk would not end.
            if owner.is_some_and(|o| o == s) || f.nested_block(&f.stmts[s].kind, 0).is_some() {
                return;
            }
            edit_block(f, owner, which, |stmts| {
                let at = rng.below(stmts.len() + 1);
                stmts.insert(at, s);
            });
        }
        // A stray jump, yield or return.
        _ => {
            let (owner, which) = blocks[rng.below(blocks.len())];
            let values: Vec<ExprId> = (0..rng.below(3)).filter_map(|_| any_expr(f, rng)).collect();
            let mut b = pfir::ir::builder::Builder::edit(f);
            let s = match rng.below(4) {
                0 => b.stmt(StmtKind::Break),
                1 => b.stmt(StmtKind::Continue),
                2 => b.yield_(values),
                _ => b.ret(values),
            };
            edit_block(f, owner, which, |stmts| {
                let at = rng.below(stmts.len() + 1);
                stmts.insert(at, s);
            });
        }
    }
}

/// The ids of the items `keep` picks, in order.
fn ids_where<'a, Id, T: 'a>(
    items: impl Iterator<Item = (Id, &'a T)>,
    keep: impl Fn(&T) -> bool,
) -> Vec<Id> {
    items.filter(|(_, x)| keep(x)).map(|(id, _)| id).collect()
}

/// Any expression of `f`, at random (none when it has none).
fn any_expr(f: &pfir::ir::Function, rng: &mut Rng) -> Option<ExprId> {
    (!f.exprs.is_empty()).then(|| ExprId::from_index(rng.below(f.exprs.len())))
}

/// `n` directions, or one more or one fewer, at random.
fn random_dirs(rng: &mut Rng, n: usize) -> Vec<Direction> {
    let n = match rng.below(3) {
        0 => n,
        1 => n + 1,
        _ => n.saturating_sub(1),
    };
    (0..n)
        .map(|_| match rng.below(4) {
            0 => Direction::Out,
            1 => Direction::InOut,
            _ => Direction::In,
        })
        .collect()
}

/// Block `which` of `owner` (the body when `None`) after `edit`.
fn edit_block(
    f: &mut pfir::ir::Function,
    owner: Option<StmtId>,
    which: u8,
    edit: impl FnOnce(&mut Vec<StmtId>),
) {
    let handle = block_of_mut(f, owner, which).stmts;
    let mut stmts = f.list(handle).to_vec();
    edit(&mut stmts);
    let new = f.replace_list(handle, &stmts);
    block_of_mut(f, owner, which).stmts = new;
}

/// A call (or any expression) among a submit's arguments or deps.
fn nest_in_a_submit(
    f: &mut pfir::ir::Function,
    rng: &mut Rng,
    calls: &[ExprId],
    submits: &[StmtId],
) {
    let Some(e) = (if calls.is_empty() || rng.below(4) == 0 {
        any_expr(f, rng)
    } else {
        Some(calls[rng.below(calls.len())])
    }) else {
        return;
    };
    let StmtKind::Submit(s) = f.stmts[submits[rng.below(submits.len())]].kind else {
        unreachable!()
    };
    if rng.below(2) == 0 {
        let mut deps = f.submits[s].deps;
        f.push_list(&mut deps, e);
        f.submits[s].deps = deps;
    } else {
        let mut args = f.submits[s].args;
        f.push_list(&mut args, e);
        f.submits[s].args = args;
        let mut dirs = f.directions(f.submits[s].arg_directions).to_vec();
        dirs.push(Direction::In);
        f.submits[s].arg_directions = f.new_directions(dirs);
    }
}

/// A call among another call's arguments.
fn nest_in_a_call(f: &mut pfir::ir::Function, rng: &mut Rng, calls: &[ExprId]) {
    let inner = calls[rng.below(calls.len())];
    let outer_expr = calls[rng.below(calls.len())];
    if reaches(f, inner, outer_expr) {
        return; // would make the expression tree a cycle
    }
    let ExprKind::Call(outer) = f.exprs[outer_expr].kind else {
        unreachable!()
    };
    let mut args = f.calls[outer].args;
    f.push_list(&mut args, inner);
    f.calls[outer].args = args;
}

/// Wrong directions on a submit or a call.
fn wrong_directions(
    f: &mut pfir::ir::Function,
    rng: &mut Rng,
    calls: &[ExprId],
    submits: &[StmtId],
) {
    if !submits.is_empty() && rng.below(2) == 0 {
        let StmtKind::Submit(s) = f.stmts[submits[rng.below(submits.len())]].kind else {
            unreachable!()
        };
        let n = f.list(f.submits[s].args).len();
        let dirs = random_dirs(rng, n);
        f.submits[s].arg_directions = f.new_directions(dirs);
    } else if !calls.is_empty() {
        let ExprKind::Call(c) = f.exprs[calls[rng.below(calls.len())]].kind else {
            unreachable!()
        };
        let n = f.list(f.calls[c].args).len();
        let dirs = random_dirs(rng, n);
        f.calls[c].arg_directions = f.new_directions(dirs);
    }
}

/// Manual edges on a call, or a barrier's flag dropped.
fn manual_edges_on_a_call(f: &mut pfir::ir::Function, rng: &mut Rng, calls: &[ExprId]) {
    let call = calls[rng.below(calls.len())];
    let ExprKind::Call(c) = f.exprs[call].kind else {
        unreachable!()
    };
    if f.calls[c].dummy_task && rng.below(2) == 0 {
        f.calls[c].dummy_task = false;
    } else if let Some(e) = any_expr(f, rng)
        && !reaches(f, e, call)
    {
        let mut edges = f.calls[c].manual_dep_edges;
        f.push_list(&mut edges, e);
        f.calls[c].manual_dep_edges = edges;
    }
}

/// Whether `to` is in the expression tree under `from`.
fn reaches(f: &pfir::ir::Function, from: ExprId, to: ExprId) -> bool {
    let mut found = false;
    for_each_expr(f, from, &mut Vec::new(), |e| found |= e == to);
    found
}

#[test]
fn one_walk_agrees_on_damaged_ir() {
    {
        let corpus = corpus();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut found = [0usize; 4];
        for (name, m) in &corpus {
            for round in 0..6 {
                let mut m = m.clone();
                for _ in 0..=round {
                    damage(&mut m, &mut rng);
                }
                agree(&m, &format!("{name}, damaged ({round})"));
                for p in Property::ALL {
                    found[p as usize] += p.verify(&m).len();
                }
            }
        }
        // Every property was broken somewhere, so every check was compared.
        assert!(found.iter().all(|&n| n > 0), "{found:?}");
    };
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn one_walk_agrees_on_generated_and_damaged_programs(
        program in crate::support::generator::program(),
        seed in any::<u64>(),
        rounds in 0usize..4,
    ) {
        let src = crate::support::generator::render(&program);
        let mut m = crate::support::module(&src);
        agree(&m, "generated");
        let mut rng = Rng(seed | 1);
        for _ in 0..rounds {
            damage(&mut m, &mut rng);
        }
        agree(&m, "generated, damaged");
    }
}
