//! Every program up to a size, for bounded-exhaustive testing of
//! `expand-manual-phase-fence` (the small-scope hypothesis: most bugs show
//! on some small input, so check every small input).
//!
//! [`for_each_program`] calls back with the text of every program of an
//! exact size, over the constructs the pass reads, for one [`Extent`]: the
//! size of every dependency array of the program. Every program has the
//! same frame: a kernel `k`, and `main(n: i64, c: bool)` that fills
//! `tids: array<task_id, E>` with E producer tasks `p0`, `p1`, ... (two for
//! the extent `n`, which the pass cannot know) and then holds one `manual`
//! scope whose body is the enumerated statement list:
//!
//! - `tK = submit k(deps=[...])` with deps on one array in scope (the
//!   dependency array, an iter-arg, an update result, a copy, ...), on one
//!   task in scope (a submit's task or an element), `none`, or a mix (the
//!   first array in scope and the latest task);
//! - `uK = array.update_element(A, 0, t)` on each array in scope (`t` the
//!   latest task in scope, the producer `p0` before there is one);
//! - `eK = array.get_element(A, 0)`, a copy `bK = A` and
//!   `cK = array.create(E, task_id)`;
//! - `for` loops of each kind (`range`, `parallel`, `unroll`) with trip
//!   counts 0, 1, 2, 3 and unknown (`n`), and `while c`: without iter-args,
//!   or with one iter-arg initialised from an array in scope (the
//!   dependency array, another iter-arg, ...) or from
//!   `array.create(E, task_id)`, whose body ends with `yield` of each array
//!   in scope there, and whose result is a new array `rK`;
//! - `if c { } else { }` (the `else` optional) and
//!   `xK = if c { ... yield A } else { ... yield B }`;
//! - `manual { }` and `auto { }` scopes (so `auto` inside `manual`,
//!   `manual` inside `auto`, nested).
//!
//! **Size** counts statements: every statement is 1, a `yield` is 1 (a loop
//! with an iter-arg costs one more than without; the two yields of an `if`
//! with a result count 1 together), and a compound statement's size
//! includes its bodies. A body of a loop without iter-args, of a plain `if`
//! branch or of a scope is never empty (an empty one changes nothing the
//! pass or the evaluator can see); the body of a loop with an iter-arg or
//! of a branch of an `if` with a result may be (its `yield` is there).
//!
//! Every array of a program has the one extent E, the frame's `tids` and
//! every `array.create(E, task_id)` alike, so a `yield` never mixes two
//! sizes. Each extent enumerates the same choices: the count per size is
//! the same for every extent.
//!
//! Programs are canonical by construction: every variable gets the next
//! number of its kind in definition order (alpha-renaming: `t0`, `t1`,
//! ...), and every choice writes different text, so two distinct choice
//! sequences give two distinct programs. (Callers still deduplicate by the
//! printed canonical text; the count per size in `docs/testing.md` is the
//! number of distinct programs.)

pub mod oracle;

use std::fmt::Write;

/// The size of every dependency array of an enumerated program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Extent {
    /// A literal size: the pass knows N.
    Known(u8),
    /// `n`, the function's parameter: a dynamic extent, whose producer
    /// count the pass cannot know (N = 0).
    Unknown,
}

/// The extents enumerated: sizes 1 to 4 and the unknown `n`.
pub const EXTENTS: [Extent; 5] = [
    Extent::Known(1),
    Extent::Known(2),
    Extent::Known(3),
    Extent::Known(4),
    Extent::Unknown,
];

impl Extent {
    /// How many producer tasks the frame puts into `tids`: the extent, or
    /// two for the unknown one.
    fn filled(self) -> u8 {
        match self {
            Extent::Known(k) => k,
            Extent::Unknown => 2,
        }
    }

    /// `1` ... `4`, or `n`: how the extent is written.
    pub fn parse(text: &str) -> Option<Extent> {
        match text {
            "n" => Some(Extent::Unknown),
            k => k.parse().ok().filter(|&k| k > 0).map(Extent::Known),
        }
    }
}

impl std::fmt::Display for Extent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Extent::Known(k) => write!(f, "{k}"),
            Extent::Unknown => f.write_str("n"),
        }
    }
}

/// `array.create(E, task_id)`: a fresh array of the program's extent.
fn create(extent: Extent) -> String {
    format!(
        "{}({extent}, task_id)",
        crate::ir::BuiltinOp::ArrayCreate.name()
    )
}

/// The text before the enumerated body: the frame, up to and including the
/// line that opens its `manual` scope.
pub fn prelude(extent: Extent) -> String {
    let mut s = String::from("func k() {\n}\n\norchestration func main(n: i64, c: bool) {\n");
    let filled = extent.filled();
    for p in 0..filled {
        let _ = writeln!(s, "  p{p} = submit k()");
    }
    let _ = writeln!(s, "  s0 = {}", create(extent));
    for p in 0..filled {
        let into = if p + 1 == filled {
            "tids".to_string()
        } else {
            format!("s{}", p + 1)
        };
        let _ = writeln!(s, "  {into} = array.update_element(s{p}, {p}, p{p})");
    }
    s.push_str(MANUAL);
    s
}

/// The line that opens the frame's `manual` scope, the last of the prelude.
const MANUAL: &str = "  manual {\n";

/// The text after the enumerated body.
pub const EPILOGUE: &str = "  }\n}\n";

/// The indentation of the body's statements (inside `main` and `manual`).
const BODY_DEPTH: usize = 2;

/// A variable of an enumerated program: a prefix and a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Name {
    kind: Kind,
    n: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Tids,
    Task,
    Element,
    Update,
    Copy,
    Create,
    Result,
    IfResult,
    IterArg,
    LoopVar,
}

const KINDS: usize = 10;

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Tids => "tids",
            Kind::Task => "t",
            Kind::Element => "e",
            Kind::Update => "u",
            Kind::Copy => "b",
            Kind::Create => "c",
            Kind::Result => "r",
            Kind::IfResult => "x",
            Kind::IterArg => "a",
            Kind::LoopVar => "i",
        }
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            Kind::Tids => f.write_str("tids"),
            k => write!(f, "{}{}", k.prefix(), self.n),
        }
    }
}

/// The loop headers: every `for` kind with every trip count, then `while`.
const LOOP_HEADS: [&str; 16] = [
    "range(0)",
    "range(1)",
    "range(2)",
    "range(3)",
    "range(n)",
    "parallel(0)",
    "parallel(1)",
    "parallel(2)",
    "parallel(3)",
    "parallel(n)",
    "unroll(0)",
    "unroll(1)",
    "unroll(2)",
    "unroll(3)",
    "unroll(n)",
    "while",
];

/// What is undone when a choice is taken back.
#[derive(Clone, Copy)]
struct Mark {
    buf: usize,
    arrays: usize,
    tasks: usize,
    next: [u32; KINDS],
}

/// Where a body starts: its statement's depth, and how many arrays and
/// tasks were in scope before it (what goes out of scope at its end).
#[derive(Clone, Copy)]
struct Opened {
    depth: usize,
    outer_a: usize,
    outer_t: usize,
}

type Cont<'k> = &'k mut dyn FnMut(&mut Gen);
type StmtCont<'k> = &'k mut dyn FnMut(&mut Gen, usize);

struct Gen {
    buf: String,
    /// `array.create(E, task_id)`, E the program's extent.
    create: String,
    arrays: Vec<Name>,
    tasks: Vec<Name>,
    next: [u32; KINDS],
}

impl Gen {
    fn mark(&self) -> Mark {
        Mark {
            buf: self.buf.len(),
            arrays: self.arrays.len(),
            tasks: self.tasks.len(),
            next: self.next,
        }
    }

    fn reset(&mut self, m: Mark) {
        self.buf.truncate(m.buf);
        self.arrays.truncate(m.arrays);
        self.tasks.truncate(m.tasks);
        self.next = m.next;
    }

    fn fresh(&mut self, kind: Kind) -> Name {
        let n = self.next[kind as usize];
        self.next[kind as usize] += 1;
        Name { kind, n }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.buf.push_str("  ");
        }
    }

    /// Every statement list of exactly `size` at `depth`, then `k`.
    fn block(&mut self, size: usize, depth: usize, k: Cont) {
        if size == 0 {
            k(self);
            return;
        }
        self.stmt(size, depth, &mut |g: &mut Gen, cost: usize| {
            g.block(size - cost, depth, k)
        });
    }

    /// Every statement of size at most `budget` at `depth`, then `k` with
    /// its size.
    fn stmt(&mut self, budget: usize, depth: usize, k: StmtCont) {
        self.simple(depth, k);
        if budget >= 2 {
            self.loops(budget, depth, k);
            self.ifs(budget, depth, k);
            self.scopes(budget, depth, k);
        }
    }

    /// The statements of size 1.
    fn simple(&mut self, depth: usize, k: StmtCont) {
        // `submit`: each dependency shape.
        let arrays = self.arrays.len();
        let tasks = self.tasks.len();
        let mut deps: Vec<String> = Vec::with_capacity(arrays + tasks + 2);
        deps.extend(self.arrays.iter().map(|a| a.to_string()));
        deps.extend(self.tasks.iter().map(|t| t.to_string()));
        deps.push("none".into());
        if let (Some(a), Some(t)) = (self.arrays.first(), self.tasks.last()) {
            deps.push(format!("{a}, {t}"));
        }
        for d in &deps {
            self.binding(depth, Kind::Task, &format!("submit k(deps=[{d}])"), k);
        }
        // `array.update_element` on each array, with the latest task (the
        // producer `p0` before there is one).
        let t = self
            .tasks
            .last()
            .map_or("p0".to_string(), |t| t.to_string());
        for a in 0..arrays {
            let arr = self.arrays[a];
            let rhs = format!("array.update_element({arr}, 0, {t})");
            self.binding(depth, Kind::Update, &rhs, k);
        }
        // `array.get_element` of each array.
        for a in 0..arrays {
            let arr = self.arrays[a];
            let rhs = format!("array.get_element({arr}, 0)");
            self.binding(depth, Kind::Element, &rhs, k);
        }
        // A copy of each array.
        for a in 0..arrays {
            let arr = self.arrays[a].to_string();
            self.binding(depth, Kind::Copy, &arr, k);
        }
        // A fresh array.
        let create = self.create.clone();
        self.binding(depth, Kind::Create, &create, k);
    }

    /// One statement `NAME = RHS` at `depth`, `NAME` a fresh name of
    /// `kind` added to the arrays (updates, copies, creations) or the
    /// tasks (submits, elements); then `k`, and all of it undone.
    fn binding(&mut self, depth: usize, kind: Kind, rhs: &str, k: StmtCont) {
        let m = self.mark();
        let name = self.fresh(kind);
        self.indent(depth);
        let _ = writeln!(self.buf, "{name} = {rhs}");
        if matches!(kind, Kind::Update | Kind::Copy | Kind::Create) {
            self.arrays.push(name);
        } else {
            self.tasks.push(name);
        }
        k(self, 1);
        self.reset(m);
    }

    /// `for` and `while` loops, with and without an iter-arg.
    fn loops(&mut self, budget: usize, depth: usize, k: StmtCont) {
        let inits = self.arrays.len() + 1;
        for head in LOOP_HEADS {
            // Without an iter-arg: a body of 1 ..= budget - 1.
            for body in 1..budget {
                let m = self.mark();
                self.indent(depth);
                if head == "while" {
                    self.buf.push_str("while c {\n");
                } else {
                    let i = self.fresh(Kind::LoopVar);
                    let _ = writeln!(self.buf, "for {i} in {head} {{");
                }
                let open = self.opened(depth);
                let cost = body + 1;
                self.block(body, depth + 1, &mut |g: &mut Gen| {
                    g.close(open, None, cost, k)
                });
                self.reset(m);
            }
            // With an iter-arg: a body of 0 ..= budget - 2, then a yield.
            for init in 0..inits {
                for body in 0..budget - 1 {
                    let m = self.mark();
                    let r = self.fresh(Kind::Result);
                    let acc = self.fresh(Kind::IterArg);
                    let init_text = match self.arrays.get(init) {
                        Some(a) => a.to_string(),
                        None => self.create.clone(),
                    };
                    self.indent(depth);
                    if head == "while" {
                        let _ = writeln!(self.buf, "{r} = while c iter({acc} = {init_text}) {{");
                    } else {
                        let i = self.fresh(Kind::LoopVar);
                        let _ = writeln!(
                            self.buf,
                            "{r} = for {i} in {head} iter({acc} = {init_text}) {{"
                        );
                    }
                    let open = self.opened(depth);
                    self.arrays.push(acc);
                    let cost = body + 2;
                    self.block(body, depth + 1, &mut |g: &mut Gen| {
                        g.yield_each_then_close(open, Some(r), cost, k)
                    });
                    self.reset(m);
                }
            }
        }
    }

    /// A body opened at `depth` now, with the arrays and tasks in scope so
    /// far.
    fn opened(&self, depth: usize) -> Opened {
        Opened {
            depth,
            outer_a: self.arrays.len(),
            outer_t: self.tasks.len(),
        }
    }

    /// Closes a body opened at `depth`: `}`, the body's variables out of
    /// scope, `result` (if any) bound, then `k`; everything restored after.
    fn close(&mut self, open: Opened, result: Option<Name>, cost: usize, k: StmtCont) {
        let Opened {
            depth,
            outer_a,
            outer_t,
        } = open;
        let m = self.mark();
        self.indent(depth);
        self.buf.push_str("}\n");
        let inner_a: Vec<Name> = self.arrays.drain(outer_a..).collect();
        let inner_t: Vec<Name> = self.tasks.drain(outer_t..).collect();
        if let Some(r) = result {
            self.arrays.push(r);
        }
        k(self, cost);
        self.arrays.truncate(outer_a);
        self.arrays.extend(inner_a);
        self.tasks.extend(inner_t);
        self.reset(m);
    }

    /// `yield V` for each array `V` in scope, each then closed as
    /// [`Gen::close`] does; restored after each.
    fn yield_each_then_close(
        &mut self,
        open: Opened,
        result: Option<Name>,
        cost: usize,
        k: StmtCont,
    ) {
        for y in 0..self.arrays.len() {
            let m = self.mark();
            let v = self.arrays[y];
            self.indent(open.depth + 1);
            let _ = writeln!(self.buf, "yield {v}");
            self.close(open, result, cost, k);
            self.reset(m);
        }
    }

    /// `} else {` after a then-branch opened at `depth`, then every else
    /// branch of `size` statements (the then-branch's variables out of
    /// scope), then `k`; the variables restored after.
    fn else_branch(&mut self, open: Opened, size: usize, k: Cont) {
        let Opened {
            depth,
            outer_a,
            outer_t,
        } = open;
        self.indent(depth);
        self.buf.push_str("} else {\n");
        let inner_a: Vec<Name> = self.arrays.drain(outer_a..).collect();
        let inner_t: Vec<Name> = self.tasks.drain(outer_t..).collect();
        self.block(size, depth + 1, k);
        self.arrays.truncate(outer_a);
        self.tasks.truncate(outer_t);
        self.arrays.extend(inner_a);
        self.tasks.extend(inner_t);
    }

    /// `if c { } else { }` and `x = if c { yield A } else { yield B }`.
    fn ifs(&mut self, budget: usize, depth: usize, k: StmtCont) {
        // Without results: then 1.., else 0 (absent) or 1...
        for then in 1..budget {
            for els in 0..budget - then {
                let m = self.mark();
                self.indent(depth);
                self.buf.push_str("if c {\n");
                let open = self.opened(depth);
                let cost = 1 + then + els;
                self.block(then, depth + 1, &mut |g: &mut Gen| {
                    if els == 0 {
                        g.close(open, None, cost, k);
                        return;
                    }
                    let m = g.mark();
                    g.else_branch(open, els, &mut |g: &mut Gen| g.close(open, None, cost, k));
                    g.reset(m);
                });
                self.reset(m);
            }
        }
        // With an array result: bodies 0.., the two yields count 1.
        for then in 0..budget - 1 {
            for els in 0..budget - 1 - then {
                let m = self.mark();
                let x = self.fresh(Kind::IfResult);
                self.indent(depth);
                let _ = writeln!(self.buf, "{x} = if c {{");
                let open = self.opened(depth);
                let cost = 2 + then + els;
                self.block(then, depth + 1, &mut |g: &mut Gen| {
                    for y in 0..g.arrays.len() {
                        let m = g.mark();
                        let v = g.arrays[y];
                        g.indent(depth + 1);
                        let _ = writeln!(g.buf, "yield {v}");
                        g.else_branch(open, els, &mut |g: &mut Gen| {
                            g.yield_each_then_close(open, Some(x), cost, k)
                        });
                        g.reset(m);
                    }
                });
                self.reset(m);
            }
        }
    }

    /// `manual { }` and `auto { }` (not scopes for names).
    fn scopes(&mut self, budget: usize, depth: usize, k: StmtCont) {
        for kw in ["manual", "auto"] {
            for body in 1..budget {
                let m = self.mark();
                self.indent(depth);
                let _ = writeln!(self.buf, "{kw} {{");
                let cost = body + 1;
                self.block(body, depth + 1, &mut |g: &mut Gen| {
                    let m = g.mark();
                    g.indent(depth);
                    g.buf.push_str("}\n");
                    k(g, cost);
                    g.reset(m);
                });
                self.reset(m);
            }
        }
    }
}

/// Calls `emit` with the text of every program of exactly `size`
/// statements whose arrays have `extent`, in a fixed order.
pub fn for_each_program(extent: Extent, size: usize, emit: &mut dyn FnMut(&str)) {
    let mut g = Gen {
        buf: prelude(extent),
        create: create(extent),
        arrays: vec![Name {
            kind: Kind::Tids,
            n: 0,
        }],
        tasks: Vec::new(),
        next: [0; KINDS],
    };
    g.block(size, BODY_DEPTH, &mut |g: &mut Gen| {
        let m = g.mark();
        g.buf.push_str(EPILOGUE);
        emit(&g.buf);
        g.reset(m);
    });
}

/// The number of programs of exactly `size` statements (the same for
/// every extent).
pub fn count_programs(size: usize) -> u64 {
    let mut n = 0u64;
    for_each_program(Extent::Known(3), size, &mut |_| n += 1);
    n
}

/// The enumerated body of `program` (the statements inside its `manual`
/// scope), dedented: what `docs/pass-rule-coverage.md` shows.
pub fn body_of(program: &str) -> String {
    let body = program
        .split_once(MANUAL)
        .and_then(|(_, b)| b.strip_suffix(EPILOGUE))
        .unwrap_or(program);
    body.lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_one_programs_are_the_simple_statements() {
        let mut all = Vec::new();
        for_each_program(Extent::Known(2), 1, &mut |p| all.push(body_of(p)));
        // submit on tids / none; update, get_element, copy, create of tids.
        assert_eq!(
            all,
            [
                "t0 = submit k(deps=[tids])",
                "t0 = submit k(deps=[none])",
                "u0 = array.update_element(tids, 0, p0)",
                "e0 = array.get_element(tids, 0)",
                "b0 = tids",
                "c0 = array.create(2, task_id)",
            ]
        );
    }

    /// The frame fills `tids` with as many producers as it has slots (two
    /// for `n`), and every array made in the body has the same extent.
    #[test]
    fn the_extent_sizes_the_frame_and_every_created_array() {
        assert_eq!(
            prelude(Extent::Known(1)),
            "func k() {\n}\n\norchestration func main(n: i64, c: bool) {\n  p0 = submit k()\n  \
             s0 = array.create(1, task_id)\n  tids = array.update_element(s0, 0, p0)\n  manual {\n"
        );
        assert_eq!(
            prelude(Extent::Unknown),
            "func k() {\n}\n\norchestration func main(n: i64, c: bool) {\n  p0 = submit k()\n  \
             p1 = submit k()\n  s0 = array.create(n, task_id)\n  \
             s1 = array.update_element(s0, 0, p0)\n  tids = array.update_element(s1, 1, p1)\n  \
             manual {\n"
        );
        for extent in EXTENTS {
            assert_eq!(Extent::parse(&extent.to_string()), Some(extent));
            let mut creates = 0;
            for_each_program(extent, 2, &mut |p| {
                let body = body_of(p);
                for (at, _) in body.match_indices("array.create(") {
                    creates += 1;
                    assert!(body[at..].starts_with(&create(extent)), "{body}");
                }
            });
            assert!(creates > 0, "no array.create at extent {extent}");
        }
        assert_eq!(Extent::parse("0"), None);
        assert_eq!(Extent::parse("m"), None);
    }

    #[test]
    fn programs_are_distinct_and_closed() {
        for extent in EXTENTS {
            let prelude = prelude(extent);
            for size in 1..=3 {
                let mut seen = std::collections::HashSet::new();
                for_each_program(extent, size, &mut |p| {
                    assert!(p.starts_with(&prelude) && p.ends_with(EPILOGUE));
                    assert!(seen.insert(p.to_string()), "twice:\n{p}");
                });
                assert_eq!(seen.len() as u64, count_programs(size));
            }
        }
        // The counts docs/testing.md gives.
        let counts: Vec<u64> = (1..=3).map(count_programs).collect();
        assert_eq!(counts, [6, 233, 8_949]);
    }
}
