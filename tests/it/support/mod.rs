//! Helpers shared by the integration tests: reading modules, naming tasks,
//! finding the repository's `.pfir` files.

pub mod generator;

use pfir::analysis::{Limits, NodeKind, TaskGraph, task_graph};
use pfir::ir::{Module, StmtKind};

/// Parses and lowers `src`, panicking with the diagnostics when it is rejected.
pub fn module(src: &str) -> Module {
    let (m, diags) = pfir::parse(src).into_parts();
    match m {
        Some(m) => m,
        None => panic!("rejected:\n{src}\n{diags:#?}"),
    }
}

/// The graph of `main` with default limits.
pub fn graph(m: &Module) -> TaskGraph {
    task_graph(m, "main", &Limits::default())
}

/// A short name for node `i`: the bound task id's name, then `@` and the
/// iteration vector when inside loops (`t@1,0`).
pub fn name(m: &Module, g: &TaskGraph, i: usize) -> String {
    let f = m.function(&g.function).unwrap();
    let n = &g.nodes[i];
    let kind = &f.stmts[n.stmt].kind;
    let var = match kind {
        StmtKind::Submit(_) => f.results(kind).last().copied(),
        k => f.results(k).first().copied(),
    };
    let base = var
        .map(|v| f.var_name(v).to_string())
        .unwrap_or_else(|| "_".into());
    let base = if n.key.kind == NodeKind::Barrier {
        format!("barrier:{base}")
    } else {
        base
    };
    if n.key.iterations.is_empty() {
        base
    } else {
        let its: Vec<String> = n.key.iterations.iter().map(u32::to_string).collect();
        format!("{base}@{}", its.join(","))
    }
}

/// Every task as `name <- producers` (transitive, barriers seen through),
/// in creation order.
pub fn waits(m: &Module, g: &TaskGraph) -> Vec<String> {
    g.tasks()
        .map(|i| {
            let ps: Vec<String> = g.waits_for(i).into_iter().map(|p| name(m, g, p)).collect();
            format!("{} <- [{}]", name(m, g, i), ps.join(" "))
        })
        .collect()
}

/// `waits` of `main` of `src`.
pub fn waits_of(src: &str) -> Vec<String> {
    let m = module(src);
    let g = graph(&m);
    waits(&m, &g)
}

/// The pass under test.
pub const PASS: &str = "expand-manual-phase-fence";

/// Runs the pass over `m` (read from `src`) through the pipeline of
/// `pfir::passes`, returning the error diagnostics when it fails.
pub fn run_pass(m: &mut Module, src: &str) -> Result<(), Vec<pfir::diagnostics::Diagnostic>> {
    let file = pfir::diagnostics::SourceFile::new("gen.pfir", src);
    // Built from `default()` so that options added later keep compiling.
    #[allow(clippy::field_reassign_with_default)]
    let opts = {
        let mut o = pfir::passes::PipelineOptions::default();
        o.passes = vec![PASS.to_string()];
        o
    };
    let r = pfir::passes::run_pipeline(m, &file, &opts);
    if pfir::diagnostics::has_errors(&r.diagnostics) {
        Err(r.diagnostics)
    } else {
        Ok(())
    }
}

#[path = "../../common/repository_files.rs"]
mod repository_files;
pub use repository_files::{pfir_files, repository_pfir_files};

/// Waits (polling every 10 ms) until `cond` holds; false if it did not
/// within a minute.
pub fn eventually(mut cond: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(60) {
        if cond() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    false
}

/// Whether process `pid` has ended (gone, or a zombie nobody reaped yet).
pub fn process_ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Sends SIGKILL to `pid`, saying nothing when it has ended already (the
/// `kill` program would print `kill: (N): No such process` into the test
/// output).
pub fn kill_quietly(pid: u32) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// One edit of a mutation test: where in the text (an index into its
/// bytes), how many bytes it replaces, and with what.
pub type Edit = (proptest::sample::Index, usize, &'static str);

/// From `count.start` to `count.end - 1` edits, each replacing fewer than
/// `max_len` bytes with one of `pieces`.
pub fn random_edits(
    pieces: impl Into<std::borrow::Cow<'static, [&'static str]>>,
    max_len: usize,
    count: std::ops::Range<usize>,
) -> impl proptest::strategy::Strategy<Value = Vec<Edit>> {
    use proptest::prelude::*;
    proptest::collection::vec(
        (
            any::<proptest::sample::Index>(),
            0usize..max_len,
            proptest::sample::select(pieces),
        ),
        count,
    )
}

/// `src` with `edits` applied one after the other, each widened to
/// character boundaries.
pub fn apply_edits(mut src: String, edits: &[Edit]) -> String {
    for &(at, len, insert) in edits {
        let mut start = at.index(src.len() + 1);
        while !src.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + len).min(src.len());
        while !src.is_char_boundary(end) {
            end += 1;
        }
        src.replace_range(start..end, insert);
    }
    src
}

/// The first example of `docs/language.md` (section 1), before the pass.
/// A macro so that a test can `concat!` text before it.
macro_rules! section1_example {
    () => {
        "func kernel() -> task_id {
  return system.task_invalid()
}

orchestration func main(n: i64) -> task_id {
  manual {
    tids = array.create(4, task_id)
    for p in parallel(4) {
      a, a_tid = submit kernel(deps=[tids])
      b, b_tid = submit kernel(deps=[tids])
    }
  }
  return system.task_invalid()
}
"
    };
}
pub(crate) use section1_example;

/// The first example of `docs/language.md` (section 1), before the pass.
pub const SECTION1_BEFORE: &str = section1_example!();

/// The same example after the pass: one barrier before the loop, and the
/// submits depend on it.
pub fn section1_after() -> String {
    SECTION1_BEFORE
        .replace("deps=[tids])\n", "deps=[phase_fence_barrier_0_tid])\n")
        .replace(
            "    for p",
            "    phase_fence_barrier_0_tid = system.task_dummy(deps=[tids])\n    for p",
        )
}

/// Runs `cmd` with `stdin` written to its standard input: (exit status, -1
/// when killed by a signal; standard output; standard error).
pub fn run_with_input(cmd: &mut std::process::Command, stdin: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running pfir");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    outcome(child.wait_with_output().unwrap())
}

/// What an ended command gave: (exit status, -1 when killed by a signal;
/// standard output; standard error).
pub fn outcome(out: std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `pfir ARGS` with `stdin` as its input: (status, stdout, stderr).
pub fn pfir_with_input(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    run_with_input(
        std::process::Command::new(env!("CARGO_BIN_EXE_pfir")).args(args),
        stdin,
    )
}

/// Writes `contents` to `dir/name`, creating the directories between.
pub fn write_file(dir: &std::path::Path, name: &str, contents: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, contents).unwrap();
    p
}

/// `depth` nested `for v{i} in range(2) {` loops (one a line, unindented)
/// around `inner`, and their closing braces.
pub fn nested_for_loops(depth: usize, inner: &str) -> String {
    let mut s = String::new();
    for i in 0..depth {
        s.push_str(&format!("for v{i} in range(2) {{\n"));
    }
    s.push_str(inner);
    s.push_str(&"}\n".repeat(depth));
    s
}
