//! Helpers shared by the integration tests: reading modules, naming tasks,
//! finding the repository's `.pfir` files.

pub mod generator;

use pfir::analysis::{Limits, NodeKind, TaskGraph, task_graph};
use pfir::ir::{Module, StmtKind};

/// Parses and lowers `src`, panicking with the diagnostics when it is rejected.
pub fn module(src: &str) -> Module {
    let (m, diags) = pfir::driver::read_module(src, 0);
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

/// The pass under test, run through the pipeline once it is registered.
pub const PASS: &str = "expand-manual-phase-fence";

pub fn pass_available() -> bool {
    pfir::passes::known_passes().contains(&PASS)
}

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

/// Every `.pfir` file of the repository's `examples/` and `tests/`, in
/// that order, each directory sorted.
pub fn repository_pfir_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    pfir_files(&root.join("examples"), &mut files);
    pfir_files(&root.join("tests"), &mut files);
    files
}

/// Every `.pfir` file under `dir`, recursively, in sorted order.
pub fn pfir_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            pfir_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "pfir") {
            out.push(p);
        }
    }
}

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
