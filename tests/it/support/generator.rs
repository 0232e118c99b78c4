//! A proptest generator of valid `.pfir` programs for the dependency tests.
//!
//! A [`Program`] is a tree of abstract choices ([`GStmt`]); [`render`] turns
//! it into text, resolving every "pick a variable" choice modulo the
//! variables in scope at that point, so any tree renders to a valid program
//! and proptest can shrink trees freely. The shapes cover what
//! `expand-manual-phase-fence` compresses and what it must leave alone:
//! `manual`/`auto` scopes (nested both ways), `range`/`parallel`/`unroll`
//! loops with constant (incl. zero, empty and negative-step) and dynamic trip
//! counts, nested loops, iter-args carrying arrays (updated through the
//! alias, or yielding any array in scope: the iter-arg, an alias, a
//! foreign array, a copy, an `if` or loop result), loop results used as
//! dependency arrays, `array.update_element` on
//! an array or its alias, double-buffering copies `b = a`, scalar, mixed,
//! multi-array and `array.get_element` partial deps, several arrays (literal
//! and dynamic sizes), `if` (constant and unknown conditions, with and
//! without results), `while`, `break`/`continue`, user `system.task_dummy`
//! barriers, and kernels with `in`/`out`/`inout` parameters and results.

use proptest::prelude::*;

/// A dependency entry.
#[derive(Clone, Debug)]
pub enum GDep {
    Array(u8),
    Task(u8),
    None,
}

/// An integer used as an index.
#[derive(Clone, Debug)]
pub enum GIndex {
    Const(i64),
    /// The innermost induction variable (a constant 0 outside loops).
    Induction,
    /// The dynamic parameter `n`.
    Dynamic,
}

/// Loop bounds.
#[derive(Clone, Debug)]
pub enum GBounds {
    Const(i64, i64, i64),
    /// `range(n)`.
    Dynamic,
    /// `range(0, n, 2)`.
    DynamicStep,
    /// `range(i)` over the innermost induction variable.
    FromInduction,
}

#[derive(Clone, Debug)]
pub enum GCond {
    Flag,
    True,
    False,
    /// `i == k` over the innermost induction variable.
    InductionIs(i64),
}

#[derive(Clone, Debug)]
pub enum GStmt {
    Submit {
        kernel: u8,
        deps: Vec<GDep>,
    },
    CreateArray {
        size: Option<u8>,
    },
    /// `array.update_element(arr, index, task)`, discarded or bound.
    Update {
        arr: u8,
        index: GIndex,
        task: u8,
        bind: bool,
    },
    /// `b = a`.
    Copy {
        arr: u8,
    },
    GetElement {
        arr: u8,
        index: GIndex,
    },
    Dummy {
        deps: Vec<GDep>,
    },
    /// `if cond { break }` or `continue` (only rendered inside loops).
    Exit {
        brk: bool,
        cond: GCond,
    },
    /// `x = if cond { yield a } else { yield b }` over tasks.
    Select {
        cond: GCond,
        a: u8,
        b: u8,
    },
    Scope {
        manual: bool,
        body: Vec<GStmt>,
    },
    Loop {
        kind: u8,
        bounds: GBounds,
        /// An iter-arg initialised from this array (and a result binding).
        carry: Option<u8>,
        /// When carrying, what the loop yields into its iter-arg.
        yields: GYield,
        body: Vec<GStmt>,
    },
    If {
        cond: GCond,
        then_body: Vec<GStmt>,
        else_body: Option<Vec<GStmt>>,
    },
    While {
        bounded: bool,
        body: Vec<GStmt>,
    },
}

/// What a loop carrying an array yields back into its iter-arg.
#[derive(Clone, Debug)]
pub enum GYield {
    /// A bound update of the iter-arg (`u = array.update_element(acc, ...)`).
    Update,
    /// The iter-arg itself (after an unbound update).
    Itself,
    /// Any array in scope (the iter-arg, an alias, a foreign array, a copy,
    /// an update, `if` or loop result), picked like any other variable.
    Any(u8),
    /// A copy of the iter-arg made at the end of the body.
    Copy,
    /// `if flag { yield acc } else { yield <any array> }`, then its result.
    Select(u8),
}

/// A whole program: the body of `main`, and whether it is wrapped in `manual`.
#[derive(Clone, Debug)]
pub struct Program {
    pub manual: bool,
    pub body: Vec<GStmt>,
}

fn dep() -> impl Strategy<Value = GDep> {
    prop_oneof![
        4 => any::<u8>().prop_map(GDep::Array),
        2 => any::<u8>().prop_map(GDep::Task),
        1 => Just(GDep::None),
    ]
}

fn deps() -> impl Strategy<Value = Vec<GDep>> {
    prop_oneof![
        // The consumer shape: exactly one array.
        4 => any::<u8>().prop_map(|a| vec![GDep::Array(a)]),
        1 => any::<u8>().prop_map(|a| vec![GDep::Array(a), GDep::None]),
        2 => proptest::collection::vec(dep(), 0..4),
    ]
}

fn index() -> impl Strategy<Value = GIndex> {
    prop_oneof![
        2 => (-1i64..6).prop_map(GIndex::Const),
        3 => Just(GIndex::Induction),
        1 => Just(GIndex::Dynamic),
    ]
}

fn cond() -> impl Strategy<Value = GCond> {
    prop_oneof![
        3 => Just(GCond::Flag),
        1 => Just(GCond::True),
        1 => Just(GCond::False),
        2 => (0i64..4).prop_map(GCond::InductionIs),
    ]
}

fn bounds() -> impl Strategy<Value = GBounds> {
    prop_oneof![
        4 => (0i64..5).prop_map(|n| GBounds::Const(0, n, 1)),
        1 => (-3i64..6, -3i64..6, -3i64..4).prop_map(|(a, b, c)| GBounds::Const(a, b, c)),
        1 => (1i64..4).prop_map(|n| GBounds::Const(n + 2, 0, -1)),
        2 => Just(GBounds::Dynamic),
        1 => Just(GBounds::DynamicStep),
        1 => Just(GBounds::FromInduction),
    ]
}

fn yields() -> impl Strategy<Value = GYield> {
    prop_oneof![
        3 => Just(GYield::Update),
        2 => Just(GYield::Itself),
        4 => any::<u8>().prop_map(GYield::Any),
        1 => Just(GYield::Copy),
        1 => any::<u8>().prop_map(GYield::Select),
    ]
}

fn leaf() -> impl Strategy<Value = GStmt> {
    prop_oneof![
        6 => (any::<u8>(), deps()).prop_map(|(kernel, deps)| GStmt::Submit { kernel, deps }),
        2 => proptest::option::weighted(0.8, 1u8..6).prop_map(|size| GStmt::CreateArray { size }),
        3 => (any::<u8>(), index(), any::<u8>(), any::<bool>())
            .prop_map(|(arr, index, task, bind)| GStmt::Update { arr, index, task, bind }),
        1 => any::<u8>().prop_map(|arr| GStmt::Copy { arr }),
        1 => (any::<u8>(), index()).prop_map(|(arr, index)| GStmt::GetElement { arr, index }),
        1 => deps().prop_map(|deps| GStmt::Dummy { deps }),
        1 => (any::<bool>(), cond()).prop_map(|(brk, cond)| GStmt::Exit { brk, cond }),
        1 => (cond(), any::<u8>(), any::<u8>()).prop_map(|(cond, a, b)| GStmt::Select { cond, a, b }),
    ]
}

fn stmt() -> impl Strategy<Value = GStmt> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        let body = proptest::collection::vec(inner, 0..6);
        prop_oneof![
            1 => (any::<bool>(), body.clone()).prop_map(|(manual, body)| GStmt::Scope { manual, body }),
            4 => (0u8..3, bounds(), proptest::option::weighted(0.35, any::<u8>()), yields(), body.clone())
                .prop_map(|(kind, bounds, carry, yields, body)| GStmt::Loop { kind, bounds, carry, yields, body }),
            2 => (cond(), body.clone(), proptest::option::of(body.clone()))
                .prop_map(|(cond, then_body, else_body)| GStmt::If { cond, then_body, else_body }),
            1 => (any::<bool>(), body).prop_map(|(bounded, body)| GStmt::While { bounded, body }),
        ]
    })
}

/// Random programs.
pub fn program() -> impl Strategy<Value = Program> {
    (
        proptest::bool::weighted(0.85),
        proptest::collection::vec(stmt(), 1..8),
    )
        .prop_map(|(manual, body)| Program { manual, body })
}

const KERNELS: &str = "func k0() {
}

incore func k1(x: i64, inout buf: tensor<[16], f32>, out res: tensor<[16], f32>) {
}

func k2(a: i64) -> i64 {
  return a
}

";

#[derive(Default)]
struct Frame {
    arrays: Vec<String>,
    tasks: Vec<String>,
}

struct Renderer {
    out: String,
    indent: usize,
    next: u32,
    frames: Vec<Frame>,
    inductions: Vec<String>,
    loops: usize,
    /// Whether the innermost loop is a `while` (whose counter a `continue`
    /// would skip, looping forever): exits there are `break`s.
    in_while: Vec<bool>,
}

impl Renderer {
    fn fresh(&mut self, base: &str) -> String {
        self.next += 1;
        format!("{base}{}", self.next)
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn visible(&self, arrays: bool) -> Vec<&String> {
        self.frames
            .iter()
            .flat_map(|f| if arrays { &f.arrays } else { &f.tasks })
            .collect()
    }

    fn pick(&self, arrays: bool, k: u8) -> Option<String> {
        let v = self.visible(arrays);
        if v.is_empty() {
            None
        } else {
            // Prefer recent variables a little: pick from the end.
            Some(v[v.len() - 1 - (k as usize % v.len())].clone())
        }
    }

    fn task(&self, k: u8) -> String {
        self.pick(false, k).unwrap_or_else(|| "none".into())
    }

    fn define(&mut self, arrays: bool, name: String) {
        let f = self.frames.last_mut().unwrap();
        if arrays {
            f.arrays.push(name);
        } else {
            f.tasks.push(name);
        }
    }

    fn index(&self, i: &GIndex) -> String {
        match i {
            GIndex::Const(c) => c.to_string(),
            GIndex::Induction => self
                .inductions
                .last()
                .cloned()
                .unwrap_or_else(|| "0".into()),
            GIndex::Dynamic => "n".into(),
        }
    }

    fn cond(&self, c: &GCond) -> String {
        match c {
            GCond::Flag => "flag".into(),
            GCond::True => "true".into(),
            GCond::False => "false".into(),
            GCond::InductionIs(k) => match self.inductions.last() {
                Some(i) => format!("{i} == {k}"),
                None => format!("n == {k}"),
            },
        }
    }

    fn deps(&self, deps: &[GDep]) -> String {
        let items: Vec<String> = deps
            .iter()
            .map(|d| match d {
                GDep::Array(k) => self.pick(true, *k).unwrap_or_else(|| "none".into()),
                GDep::Task(k) => self.task(*k),
                GDep::None => "none".into(),
            })
            .collect();
        if items.is_empty() {
            String::new()
        } else {
            format!("deps=[{}]", items.join(", "))
        }
    }

    fn block(&mut self, body: &[GStmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    /// Renders `body` in a new scope; returns the arrays it defined.
    fn scoped(&mut self, body: &[GStmt], extra: Frame) -> Frame {
        self.frames.push(extra);
        self.indent += 1;
        self.block(body);
        self.indent -= 1;
        self.frames.pop().unwrap()
    }

    fn stmt(&mut self, s: &GStmt) {
        match s {
            GStmt::Submit { kernel, deps } => {
                let tid = self.fresh("t");
                let d = self.deps(deps);
                let sep = if d.is_empty() { "" } else { ", " };
                let text = match kernel % 3 {
                    0 => format!("{tid} = submit k0({d})"),
                    1 => format!("{tid} = submit k1(n, buf, res{sep}{d})"),
                    _ => {
                        let v = self.fresh("v");
                        format!("{v}, {tid} = submit k2(n{sep}{d})")
                    }
                };
                self.line(&text);
                self.define(false, tid);
            }
            GStmt::CreateArray { size } => {
                let a = self.fresh("arr");
                let size = size.map(|s| s.to_string()).unwrap_or_else(|| "n".into());
                self.line(&format!("{a} = array.create({size}, task_id)"));
                self.define(true, a);
            }
            GStmt::Update {
                arr,
                index,
                task,
                bind,
            } => {
                let Some(a) = self.pick(true, *arr) else {
                    return;
                };
                let call = format!(
                    "array.update_element({a}, {}, {})",
                    self.index(index),
                    self.task(*task)
                );
                if *bind {
                    let r = self.fresh("upd");
                    self.line(&format!("{r} = {call}"));
                    self.define(true, r);
                } else {
                    self.line(&format!("_ = {call}"));
                }
            }
            GStmt::Copy { arr } => {
                let Some(a) = self.pick(true, *arr) else {
                    return;
                };
                let b = self.fresh("buf");
                self.line(&format!("{b} = {a}"));
                self.define(true, b);
            }
            GStmt::GetElement { arr, index } => {
                let Some(a) = self.pick(true, *arr) else {
                    return;
                };
                let t = self.fresh("el");
                self.line(&format!(
                    "{t} = array.get_element({a}, {})",
                    self.index(index)
                ));
                self.define(false, t);
            }
            GStmt::Dummy { deps } => {
                let t = self.fresh("fence");
                let d = self.deps(deps);
                self.line(&format!("{t} = system.task_dummy({d})"));
                self.define(false, t);
            }
            GStmt::Exit { brk, cond } => {
                if self.loops == 0 {
                    return;
                }
                self.line(&format!("if {} {{", self.cond(cond)));
                self.indent += 1;
                let brk = *brk || self.in_while.last() == Some(&true);
                self.line(if brk { "break" } else { "continue" });
                self.indent -= 1;
                self.line("}");
            }
            GStmt::Select { cond, a, b } => self.select(cond, *a, *b),
            GStmt::Scope { manual, body } => {
                // No new scope: what is defined stays visible.
                self.line(if *manual { "manual {" } else { "auto {" });
                self.indent += 1;
                self.block(body);
                self.indent -= 1;
                self.line("}");
            }
            GStmt::Loop {
                kind,
                bounds,
                carry,
                yields,
                body,
            } => self.for_loop(*kind, bounds, *carry, yields, body),
            GStmt::If {
                cond,
                then_body,
                else_body,
            } => {
                self.line(&format!("if {} {{", self.cond(cond)));
                self.scoped(then_body, Frame::default());
                if let Some(e) = else_body {
                    self.line("} else {");
                    self.scoped(e, Frame::default());
                }
                self.line("}");
            }
            GStmt::While { bounded, body } => self.while_loop(*bounded, body),
        }
    }

    /// A `for` loop, with an iter-arg carried from an array when `carry`
    /// picks one (then bound to a result).
    fn for_loop(
        &mut self,
        kind: u8,
        bounds: &GBounds,
        carry: Option<u8>,
        yields: &GYield,
        body: &[GStmt],
    ) {
        let kw = ["range", "parallel", "unroll"][kind as usize % 3];
        let i = self.fresh("ix");
        let b = match bounds {
            GBounds::Const(a, b, c) => format!("{a}, {b}, {c}"),
            GBounds::Dynamic => "n".into(),
            GBounds::DynamicStep => "0, n, 2".into(),
            GBounds::FromInduction => self
                .inductions
                .last()
                .cloned()
                .unwrap_or_else(|| "3".into()),
        };
        let carried = carry.and_then(|k| self.pick(true, k));
        let mut frame = Frame::default();
        let head = match &carried {
            Some(src) => {
                let acc = self.fresh("acc");
                let r = self.fresh("res");
                frame.arrays.push(acc.clone());
                let h = format!("{r} = for {i} in {kw}({b}) iter({acc} = {src}) {{");
                Some((h, acc, r))
            }
            None => None,
        };
        match &head {
            Some((h, _, _)) => self.line(h),
            None => self.line(&format!("for {i} in {kw}({b}) {{")),
        }
        self.inductions.push(i);
        self.loops += 1;
        self.in_while.push(false);
        let acc = head.as_ref().map(|(_, acc, _)| acc.clone());
        // The loop's own update of its iter-arg, so carrying matters.
        let mut body = body.to_vec();
        if acc.is_some() {
            body.push(GStmt::Submit {
                kernel: 0,
                deps: vec![],
            });
        }
        self.frames.push(frame);
        self.indent += 1;
        self.block(&body);
        if let Some(acc) = &acc {
            self.loop_yield(acc, yields);
        }
        self.indent -= 1;
        self.frames.pop();
        self.loops -= 1;
        self.in_while.pop();
        self.inductions.pop();
        self.line("}");
        if let Some((_, _, r)) = head {
            self.define(true, r);
        }
    }

    /// The end of a loop body that carries `acc`: what `yields` says it
    /// yields into it.
    fn loop_yield(&mut self, acc: &str, yields: &GYield) {
        let t = self.task(0);
        let ix = self.index(&GIndex::Induction);
        match yields {
            GYield::Update => {
                let u = self.fresh("upd");
                self.line(&format!("{u} = array.update_element({acc}, {ix}, {t})"));
                self.line(&format!("yield {u}"));
            }
            GYield::Itself => {
                self.line(&format!("_ = array.update_element({acc}, {ix}, {t})"));
                self.line(&format!("yield {acc}"));
            }
            GYield::Any(k) => {
                let v = self.pick(true, *k).unwrap_or_else(|| acc.to_string());
                self.line(&format!("yield {v}"));
            }
            GYield::Copy => {
                let c = self.fresh("buf");
                self.line(&format!("{c} = {acc}"));
                self.line(&format!("yield {c}"));
            }
            GYield::Select(k) => {
                let v = self.pick(true, *k).unwrap_or_else(|| acc.to_string());
                let x = self.fresh("sel");
                self.line(&format!("{x} = if flag {{"));
                self.line(&format!("  yield {acc}"));
                self.line("} else {");
                self.line(&format!("  yield {v}"));
                self.line("}");
                self.line(&format!("yield {x}"));
            }
        }
    }

    /// A `while` loop counting in an iter-arg, bounded (`c < 3`) or not.
    fn while_loop(&mut self, bounded: bool, body: &[GStmt]) {
        let c = self.fresh("c");
        let r = self.fresh("w");
        let cond = if bounded {
            format!("{c} < 3")
        } else {
            "flag".into()
        };
        self.line(&format!("{r} = while {cond} iter({c} = 0) {{"));
        self.loops += 1;
        self.in_while.push(true);
        self.scoped(body, Frame::default());
        self.in_while.pop();
        self.indent += 1;
        let c2 = self.fresh("c");
        self.line(&format!("{c2} = {c} + 1"));
        self.line(&format!("yield {c2}"));
        self.indent -= 1;
        self.loops -= 1;
        self.line("}");
    }

    /// A task bound by an `if` that yields one task or another.
    fn select(&mut self, cond: &GCond, a: u8, b: u8) {
        let x = self.fresh("sel");
        let (a, b) = (self.task(a), self.task(b));
        self.line(&format!("{x} = if {} {{", self.cond(cond)));
        self.indent += 1;
        self.line(&format!("yield {a}"));
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.line(&format!("yield {b}"));
        self.indent -= 1;
        self.line("}");
        self.define(false, x);
    }
}

/// The text of `p`.
pub fn render(p: &Program) -> String {
    let mut r = Renderer {
        out: String::from(KERNELS),
        indent: 0,
        next: 0,
        frames: vec![Frame::default()],
        inductions: Vec::new(),
        loops: 0,
        in_while: Vec::new(),
    };
    r.line("orchestration func main(n: i64, flag: bool, buf: tensor<[16], f32>, res: tensor<[16], f32>) {");
    r.indent += 1;
    // Every program starts with a filled array, so deps have something to name.
    r.line("tids = array.create(4, task_id)");
    r.line("for i0 in range(4) {");
    r.line("  p0 = submit k0()");
    r.line("  _ = array.update_element(tids, i0, p0)");
    r.line("}");
    r.define(true, "tids".into());
    if p.manual {
        r.line("manual {");
        r.indent += 1;
    }
    r.block(&p.body);
    if p.manual {
        r.indent -= 1;
        r.line("}");
    }
    r.indent -= 1;
    r.line("}");
    r.out
}
