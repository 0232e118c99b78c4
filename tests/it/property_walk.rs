//! The property verifiers' shared walk (`properties::verify_all`): each
//! property's violations are the same whichever other properties share the
//! walk, in whatever order they are asked for ([`agree`]); and every way of
//! damaging the IR that breaks a property is found by that property, at the
//! damaged code, with its message ([`Broken`]). Checked on every valid
//! `.pfir` input of the repository (before and after the pass), on
//! generated programs, and on IR damaged at random (nested calls, wrong
//! directions, manual edges on plain calls, shuffled, duplicated or cut
//! blocks, stray jumps and yields).

use pfir::ir::walk::{block_of_mut, for_each_expr, walk_stmts};
use pfir::ir::{ArenaId, Direction, ExprId, ExprKind, Module, StmtId, StmtKind};
use pfir::passes::properties::{Property, Violation, verify_all};
use pfir::span::Span;
use proptest::prelude::*;

/// Checks that every set of properties, in any order, gives for each the
/// violations it gives alone; returns the number of violations found (all
/// properties).
fn agree(m: &Module, what: &str) -> usize {
    let expected: Vec<Vec<Violation>> = Property::ALL.iter().map(|&p| p.verify(m)).collect();
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
        for (base, chunk) in pfir::split_input(&text) {
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

/// A violation that a damage certainly causes: the property it breaks,
/// the span of the violation and a piece of its message.
#[derive(Debug)]
struct Broken {
    property: Property,
    span: Span,
    message: &'static str,
}

impl Broken {
    fn new(property: Property, span: Span, message: &'static str) -> Option<Broken> {
        Some(Broken {
            property,
            span,
            message,
        })
    }

    /// Whether `m` shows the violation to its property.
    fn is_found(&self, m: &Module) -> bool {
        self.property
            .verify(m)
            .iter()
            .any(|v| v.span == self.span && v.message.contains(self.message))
    }
}

/// Damages `m` once, at random: a call nested into another call or a
/// `submit`, wrong argument directions, manual edges on a plain call or a
/// barrier flag dropped, a block shuffled, cut or given a duplicate, or a
/// stray `break`, `yield` or `return` inserted. Returns the violation it
/// certainly causes, if any (in a module whose every statement and
/// expression is reached from its function's body, as lowering leaves it).
fn damage(m: &mut Module, rng: &mut Rng) -> Option<Broken> {
    let nf = m.functions().len();
    if nf == 0 {
        return None;
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
            let mut twice = None;
            edit_block(f, owner, which, |stmts| match rng.below(3) {
                0 => stmts.reverse(),
                1 => {
                    stmts.pop();
                }
                _ if !stmts.is_empty() => {
                    let s = stmts[rng.below(stmts.len())];
                    let at = rng.below(stmts.len() + 1);
                    stmts.insert(at, s);
                    twice = Some(s);
                }
                _ => {}
            });
            twice.and_then(|s| in_two_blocks(f, s))
        }
        // A statement of another block moved or copied here.
        5 if f.stmts.len() > 1 => {
            let (owner, which) = blocks[rng.below(blocks.len())];
            let s = StmtId::from_index(rng.below(f.stmts.len()));
            // Never into its own body: the walk would not end.
            if owner.is_some_and(|o| o == s) || f.nested_block(&f.stmts[s].kind, 0).is_some() {
                return None;
            }
            edit_block(f, owner, which, |stmts| {
                let at = rng.below(stmts.len() + 1);
                stmts.insert(at, s);
            });
            in_two_blocks(f, s)
        }
        // A stray jump, yield or return.
        _ => {
            let (owner, which) = blocks[rng.below(blocks.len())];
            let values: Vec<ExprId> = (0..rng.below(3)).filter_map(|_| any_expr(f, rng)).collect();
            let mut b = pfir::ir::builder::Builder::edit(f);
            let (s, word) = match rng.below(4) {
                0 => (b.stmt(StmtKind::Break), "statement after `break`"),
                1 => (b.stmt(StmtKind::Continue), "statement after `continue`"),
                2 => (b.yield_(values), "statement after `yield`"),
                _ => (b.ret(values), "statement after `return`"),
            };
            let mut next = None;
            edit_block(f, owner, which, |stmts| {
                let at = rng.below(stmts.len() + 1);
                stmts.insert(at, s);
                next = stmts.get(at + 1).copied();
            });
            // A statement after it in its block.
            next.and_then(|n| Broken::new(Property::NormalizedStmtStructure, f.stmts[n].span, word))
        }
    }
}

/// `s`, now in a second place: a statement in more than one block.
fn in_two_blocks(f: &pfir::ir::Function, s: StmtId) -> Option<Broken> {
    Broken::new(
        Property::NormalizedStmtStructure,
        f.stmts[s].span,
        "statement appears in more than one block",
    )
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
) -> Option<Broken> {
    let e = if calls.is_empty() || rng.below(4) == 0 {
        any_expr(f, rng)?
    } else {
        calls[rng.below(calls.len())]
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
    nested(f, e)
}

/// `e`, now among the arguments of a call or `submit`: a nested call if it
/// is one.
fn nested(f: &pfir::ir::Function, e: ExprId) -> Option<Broken> {
    let ExprKind::Call(_) = f.exprs[e].kind else {
        return None;
    };
    Broken::new(
        Property::NoNestedCalls,
        f.exprs[e].span,
        "nested in the arguments of",
    )
}

/// A call among another call's arguments.
fn nest_in_a_call(f: &mut pfir::ir::Function, rng: &mut Rng, calls: &[ExprId]) -> Option<Broken> {
    let inner = calls[rng.below(calls.len())];
    let outer_expr = calls[rng.below(calls.len())];
    if reaches(f, inner, outer_expr) {
        return None; // would make the expression tree a cycle
    }
    let ExprKind::Call(outer) = f.exprs[outer_expr].kind else {
        unreachable!()
    };
    let mut args = f.calls[outer].args;
    f.push_list(&mut args, inner);
    f.calls[outer].args = args;
    nested(f, inner)
}

/// Wrong directions on a submit or a call (certainly wrong when there is
/// not one per argument).
fn wrong_directions(
    f: &mut pfir::ir::Function,
    rng: &mut Rng,
    calls: &[ExprId],
    submits: &[StmtId],
) -> Option<Broken> {
    // The submit or call, where it is, and its arguments.
    let (target, span, args) = if !submits.is_empty() && rng.below(2) == 0 {
        let stmt = submits[rng.below(submits.len())];
        let StmtKind::Submit(s) = f.stmts[stmt].kind else {
            unreachable!()
        };
        (Ok(s), f.stmts[stmt].span, f.submits[s].args)
    } else if let Some(&call) = calls.get(rng.below(calls.len())) {
        let ExprKind::Call(c) = f.exprs[call].kind else {
            unreachable!()
        };
        (Err(c), f.exprs[call].span, f.calls[c].args)
    } else {
        return None;
    };
    let n = f.list(args).len();
    let dirs = random_dirs(rng, n);
    let wrong_count = dirs.len() != n;
    let dirs = f.new_directions(dirs);
    match target {
        Ok(s) => f.submits[s].arg_directions = dirs,
        Err(c) => f.calls[c].arg_directions = dirs,
    }
    wrong_count.then_some(())?;
    Broken::new(
        Property::CallDirectionsResolved,
        span,
        "positional argument",
    )
}

/// Manual edges on a call, or a barrier's flag dropped: a plain call with
/// manual edges (when it has some after it).
fn manual_edges_on_a_call(
    f: &mut pfir::ir::Function,
    rng: &mut Rng,
    calls: &[ExprId],
) -> Option<Broken> {
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
    let plain = !f.calls[c].dummy_task && !f.calls[c].manual_dep_edges.is_empty();
    plain.then_some(())?;
    Broken::new(
        Property::ManualDepsOnSubmitOnly,
        f.exprs[call].span,
        "carries manual dependency edges",
    )
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

/// One damage at a time to a valid module: the property it breaks reports
/// it, at the damaged code; every property is broken this way.
#[test]
fn each_damage_is_found_by_the_property_it_breaks() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut found = [0usize; 4];
    for (name, m) in &corpus() {
        for round in 0..8 {
            let mut m = m.clone();
            let Some(broken) = damage(&mut m, &mut rng) else {
                continue;
            };
            assert!(
                broken.is_found(&m),
                "{name}, damage {round}: {broken:?} not among {:?}",
                broken.property.verify(&m)
            );
            found[broken.property as usize] += 1;
        }
    }
    assert!(found.iter().all(|&n| n > 0), "{found:?}");
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
