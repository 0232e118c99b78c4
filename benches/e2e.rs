//! End-to-end benchmark on the wide shape of `docs/benchmarks.md`: one
//! orchestration function whose `manual` scope holds 100,000
//! `for pK in parallel(4)` loops of 8 `submit`s each (about 1.1M lines).
//!
//! `cargo bench --bench e2e` reports, for pfir in process:
//! - MB/s per phase: lex, parse+lower, pass (`expand-manual-phase-fence`
//!   with `--verify-each`, as `pfir opt` runs it), print (to a sink);
//! - peak heap per input byte (a counting global allocator: the highest
//!   number of live heap bytes during the pipeline, the input text excluded)
//!   and the number of allocations per statement of the input;
//!
//! then runs the `pfir` binary (`pfir opt FILE --passes=... > /dev/null`)
//! and, when `mlir-opt-16` is on `PATH`, `mlir-opt-16` on the MLIR twin of
//! the same shape, taking turns (`--runs N`: N pairs; the best of each and
//! the median of the pairs' ratios), with wall time, CPU time and peak RSS
//! (from `/usr/bin/time` when it is installed). With `--one-core`, both
//! run pinned to the same core (`taskset -c 0`) and are compared by CPU
//! time (user + system), the figure `docs/benchmarks.md` leads with.
//! Without `mlir-opt-16` it reports pfir alone. Install it on
//! Debian/Ubuntu with `apt-get install mlir-16-tools`.
//!
//! Options (after `--`): `--scale N` (or `PFIR_BENCH_SCALE=N`) multiplies
//! the number of loops (10 gives the 10x input), `--runs N` takes the best
//! of N process runs (default 1), `--one-core` pins them to core 0 and
//! compares CPU time, `--deep` also times the 10,000-deep nest
//! printed to `/dev/null`, `--in-process` stops after the in-process
//! phases (no process runs). Lexing is timed as the best of
//! [`LEX_RUNS`] runs. Inputs are written to `target/bench-inputs/`.
//! No test asserts any of these times.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Counts allocations and live heap bytes, remembering the peak.
struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn note_alloc(size: usize) {
    ALLOCS.fetch_add(1, Relaxed);
    let live = LIVE.fetch_add(size, Relaxed) + size;
    PEAK.fetch_max(live, Relaxed);
}

// The only `unsafe` of the project: a global allocator must implement an
// unsafe trait. It forwards every call to the system allocator unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size());
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size());
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        if new_size >= layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
            PEAK.fetch_max(live, Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many times lexing alone is timed (the best run is reported).
const LEX_RUNS: usize = 5;

/// Submits per loop.
const SUBMITS: usize = 8;

/// The `.pfir` program: `loops` parallel loops of [`SUBMITS`] submits.
fn generate_pfir(loops: usize) -> String {
    let mut s = String::with_capacity(loops * 500 + 256);
    s.push_str("func kernel() -> task_id {\n  return system.task_invalid()\n}\n\n");
    s.push_str("orchestration func main(tids: array<task_id, 4>) -> task_id {\n  manual {\n");
    for k in 0..loops {
        let _ = writeln!(s, "    for p{k} in parallel(4) {{");
        for j in 0..SUBMITS {
            let _ = writeln!(s, "      a{k}_{j}, t{k}_{j} = submit kernel(deps=[tids])");
        }
        s.push_str("    }\n");
    }
    s.push_str("  }\n  return system.task_invalid()\n}\n");
    s
}

/// The MLIR twin: `scf.parallel` loops of `func.call`s, same shape.
fn generate_mlir(loops: usize) -> String {
    let mut s = String::with_capacity(loops * 700 + 512);
    s.push_str("func.func private @kernel(memref<4xindex>) -> index\n");
    s.push_str("func.func @main(%tids: memref<4xindex>) -> index {\n");
    s.push_str("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c4 = arith.constant 4 : index\n");
    for k in 0..loops {
        let _ = writeln!(s, "  scf.parallel (%p{k}) = (%c0) to (%c4) step (%c1) {{");
        for j in 0..SUBMITS {
            let _ = writeln!(
                s,
                "    %a{k}_{j} = func.call @kernel(%tids) : (memref<4xindex>) -> index"
            );
        }
        s.push_str("    scf.yield\n  }\n");
    }
    s.push_str("  return %c0 : index\n}\n");
    s
}

/// `depth` nested `for` loops with a submit at the bottom.
fn generate_deep(depth: usize) -> String {
    let mut s = String::from("func k() -> task_id {\n  return system.task_invalid()\n}\n");
    s.push_str("orchestration func main() {\n  manual {\n    tids = array.create(4, task_id)\n");
    for i in 0..depth {
        let _ = writeln!(s, "for v{i} in range(2) {{");
    }
    s.push_str("a, t = submit k(deps=[tids])\n");
    for _ in 0..depth {
        s.push_str("}\n");
    }
    s.push_str("  }\n}\n");
    s
}

struct Phase {
    name: &'static str,
    time: Duration,
    /// CPU time of the process (user + system, every thread: a large
    /// file is read on two), when `/proc` tells it.
    cpu: Option<Duration>,
    allocs: usize,
}

/// The CPU time (user + system) the process has used, all threads, from
/// `/proc/self/stat` (in clock ticks of 10 ms): on a loaded machine it is
/// steadier than wall time.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the line.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// Runs `f`, returning its result, its time and its allocation count.
fn measure<T>(name: &'static str, f: impl FnOnce() -> T) -> (T, Phase) {
    let a0 = ALLOCS.load(Relaxed);
    let c0 = thread_cpu();
    let t = Instant::now();
    let v = f();
    let time = t.elapsed();
    let cpu = match (c0, thread_cpu()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let allocs = ALLOCS.load(Relaxed) - a0;
    (
        v,
        Phase {
            name,
            time,
            cpu,
            allocs,
        },
    )
}

/// The pipeline in process, phase by phase.
fn in_process(src: &str) {
    let mb = src.len() as f64 / 1e6;
    // Statements of the input: one per line of a loop body, plus the loops.
    let statements = src.matches(" = submit ").count() + src.matches(" in parallel(").count();
    let file = pfir::diagnostics::SourceFile::new("bench.pfir".to_string(), src.to_string());
    let text = file.text.as_str();
    let base_live = LIVE.load(Relaxed);
    PEAK.store(base_live, Relaxed);
    // Lexing is short (a tenth of a second) and allocates nothing, so one
    // run on a loaded machine mostly measures the scheduler: the best of
    // LEX_RUNS runs is reported.
    let mut lex: Option<Phase> = None;
    for _ in 0..LEX_RUNS {
        let (tokens, run) = measure("lex", || {
            pfir::lexer::tokens(text, 0).filter(Result::is_ok).count()
        });
        std::hint::black_box(tokens);
        if lex.as_ref().is_none_or(|best| run.time < best.time) {
            lex = Some(run);
        }
    }
    let lex = lex.expect("LEX_RUNS > 0");
    let ((module, phases), peak) = run_pipeline_phases(text, &file);
    let mut phases = phases;
    phases.insert(0, lex);
    drop(module);
    println!("in process ({} bytes, {statements} statements):", src.len());
    println!(
        "  {:<12} {:>10} {:>10} {:>10} {:>12} {:>14}",
        "phase", "wall ms", "MB/s", "cpu ms", "MB/cpu-s", "allocs/stmt"
    );
    let mut total_allocs = 0;
    for p in &phases {
        if p.name != "lex" {
            total_allocs += p.allocs;
        }
        let cpu = p.cpu.unwrap_or_default().as_secs_f64();
        println!(
            "  {:<12} {:>10.1} {:>10.1} {:>10.0} {:>12.1} {:>14.2}",
            p.name,
            p.time.as_secs_f64() * 1e3,
            mb / p.time.as_secs_f64(),
            cpu * 1e3,
            if cpu > 0.0 { mb / cpu } else { f64::NAN },
            p.allocs as f64 / statements as f64
        );
    }
    println!(
        "  peak heap {:.1} MB = {:.2} bytes per input byte (input text excluded); \
         {:.2} allocations per statement (parse to print)",
        (peak - base_live) as f64 / 1e6,
        (peak - base_live) as f64 / src.len() as f64,
        total_allocs as f64 / statements as f64
    );
}

/// parse+lower, pass, print; returns the module, the phases and the peak
/// of live heap bytes.
#[allow(clippy::type_complexity)]
fn run_pipeline_phases(
    text: &str,
    file: &pfir::diagnostics::SourceFile,
) -> ((Option<pfir::ir::Module>, Vec<Phase>), usize) {
    let mut phases = Vec::new();
    let ((module, diags), p) = measure("parse+lower", || pfir::parse(text).into_parts());
    phases.push(p);
    assert!(diags.is_empty(), "the generated program is valid");
    let mut module = module.expect("valid");
    let opts = pfir::passes::PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
    let (result, p) = measure("pass", || {
        pfir::passes::run_pipeline(&mut module, file, &opts)
    });
    phases.push(p);
    assert!(result.diagnostics.is_empty(), "the pass succeeds");
    let (printed, p) = measure("print", || pfir::print(&module));
    phases.push(p);
    assert!(!printed.is_empty(), "printing writes the module");
    let peak = PEAK.load(Relaxed);
    ((Some(module), phases), peak)
}

/// One run of a process.
#[derive(Clone, Copy)]
struct Run {
    wall: Duration,
    /// User + system CPU time, when `/usr/bin/time` is there.
    cpu: Option<Duration>,
    /// Peak RSS in kB, when `/usr/bin/time` is there.
    rss: Option<u64>,
}

/// Wall time, CPU time and peak RSS (kB; both when `/usr/bin/time` is
/// there) of a command with stdout to `/dev/null`, pinned to core 0 when
/// `one_core` (and `taskset` is there); the best of `runs`.
fn run_process(program: &Path, args: &[&str], runs: usize, one_core: bool) -> Option<Run> {
    let gnu_time = Path::new("/usr/bin/time").exists();
    let mut best: Option<Run> = None;
    for _ in 0..runs.max(1) {
        let mut words: Vec<std::ffi::OsString> = Vec::new();
        if gnu_time {
            words.extend(["/usr/bin/time", "-f", "PFIR-BENCH-RSS %M %U %S"].map(Into::into));
        }
        if one_core && find_on_path("taskset").is_some() {
            words.extend(["taskset", "-c", "0"].map(Into::into));
        }
        words.push(program.into());
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..]);
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let t = Instant::now();
        let out = cmd.output().ok()?;
        let wall = t.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            eprintln!("{} failed: {stderr}", program.display());
            return None;
        }
        let fields: Vec<&str> = stderr
            .lines()
            .find_map(|l| l.strip_prefix("PFIR-BENCH-RSS "))
            .map(|v| v.split_whitespace().collect())
            .unwrap_or_default();
        let rss = fields.first().and_then(|v| v.parse().ok());
        let cpu = match (fields.get(1), fields.get(2)) {
            (Some(u), Some(s)) => match (u.parse::<f64>(), s.parse::<f64>()) {
                (Ok(u), Ok(s)) => Some(Duration::from_secs_f64(u + s)),
                _ => None,
            },
            _ => None,
        };
        let key = |r: &Run| {
            if one_core {
                r.cpu.unwrap_or(r.wall)
            } else {
                r.wall
            }
        };
        let run = Run { wall, cpu, rss };
        if best.as_ref().is_none_or(|b| key(&run) < key(b)) {
            best = Some(run);
        }
    }
    best
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

fn report_process(label: &str, bytes: usize, r: Option<Run>) {
    match r {
        Some(Run { wall, cpu, rss }) => println!(
            "  {label:<10} wall {:>8.3} s  {:>8.1} MB/s  cpu {}  peak RSS {}",
            wall.as_secs_f64(),
            bytes as f64 / 1e6 / wall.as_secs_f64(),
            cpu.map_or("n/a".to_string(), |c| format!("{:.2} s", c.as_secs_f64())),
            rss.map_or("n/a (no /usr/bin/time)".to_string(), |kb| format!(
                "{:.1} MB",
                kb as f64 / 1e3
            )),
        ),
        None => println!("  {label:<10} failed"),
    }
}

fn arg_value(args: &[String], name: &str) -> Option<usize> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scale = arg_value(&args, "--scale")
        .or_else(|| std::env::var("PFIR_BENCH_SCALE").ok()?.parse().ok())
        .unwrap_or(1)
        .max(1);
    let runs = arg_value(&args, "--runs").unwrap_or(1);
    let one_core = args.iter().any(|a| a == "--one-core");
    let loops = 100_000 * scale;

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-inputs");
    let _ = std::fs::create_dir_all(&dir);
    let pfir_path = dir.join(format!("wide_{scale}x.pfir"));
    let mlir_path = dir.join(format!("wide_{scale}x.mlir"));

    let src = generate_pfir(loops);
    println!(
        "wide shape: {loops} parallel loops of {SUBMITS} submits, {} lines, {:.1} MB",
        src.lines().count(),
        src.len() as f64 / 1e6
    );
    std::fs::write(&pfir_path, &src).expect("writing the bench input");
    {
        let mlir = generate_mlir(loops);
        std::fs::write(&mlir_path, &mlir).expect("writing the MLIR twin");
    }

    in_process(&src);
    let bytes = src.len();
    drop(src);
    if args.iter().any(|a| a == "--in-process") {
        return;
    }

    println!(
        "processes, taking turns (stdout to /dev/null, best of {runs}; with mlir-opt-16, one run of each per pair):"
    );
    let pfir_bin = Path::new(env!("CARGO_BIN_EXE_pfir"));
    let pfir_args = [
        "opt",
        pfir_path.to_str().expect("UTF-8 path"),
        "--passes=expand-manual-phase-fence",
    ];
    let mlir_opt = find_on_path("mlir-opt-16");
    let mlir_args = [mlir_path.to_str().expect("UTF-8 path")];
    // Taking turns, so that a slow spell of a shared machine slows both.
    let (mut pfir_runs, mut mlir_runs) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        pfir_runs.push(run_process(pfir_bin, &pfir_args, 1, one_core));
        if let Some(mlir_opt) = &mlir_opt {
            mlir_runs.push(run_process(mlir_opt, &mlir_args, 1, one_core));
        }
    }
    // Pinned to one core, runs are compared by CPU time; else by wall time.
    let measure_of = |r: &Run| {
        if one_core {
            r.cpu.unwrap_or(r.wall)
        } else {
            r.wall
        }
    };
    let best = |v: &[Option<Run>]| v.iter().flatten().min_by_key(|r| measure_of(r)).copied();
    if one_core {
        println!("  pinned to core 0 (taskset -c 0); CPU time (user + system) of each run:");
        for (i, (p, m)) in pfir_runs
            .iter()
            .zip(mlir_runs.iter().map(Some).chain(std::iter::repeat(None)))
            .enumerate()
        {
            let cpu = |r: Option<&Run>| {
                r.and_then(|r| r.cpu)
                    .map_or("n/a".to_string(), |c| format!("{:.2} s", c.as_secs_f64()))
            };
            let rss = |r: Option<&Run>| {
                r.and_then(|r| r.rss)
                    .map_or("n/a".to_string(), |kb| format!("{:.0} MB", kb as f64 / 1e3))
            };
            let m = m.and_then(Option::as_ref);
            let ratio = match (p.as_ref().and_then(|r| r.cpu), m.and_then(|r| r.cpu)) {
                (Some(a), Some(b)) if b > Duration::ZERO => {
                    format!("  pfir/mlir-opt {:.2}", a.as_secs_f64() / b.as_secs_f64())
                }
                _ => String::new(),
            };
            println!(
                "    run {}: pfir {} ({}), mlir-opt-16 {} ({}){ratio}",
                i + 1,
                cpu(p.as_ref()),
                rss(p.as_ref()),
                cpu(m),
                rss(m),
            );
        }
    }
    let pfir = best(&pfir_runs);
    report_process("pfir", bytes, pfir);
    match mlir_opt {
        Some(_) => {
            let mlir_bytes = std::fs::metadata(&mlir_path).map_or(0, |m| m.len() as usize);
            let mlir = best(&mlir_runs);
            report_process("mlir-opt", mlir_bytes, mlir);
            if let (Some(p), Some(m)) = (pfir, mlir) {
                let cpu_ratio = match (p.cpu, m.cpu) {
                    (Some(a), Some(b)) if a > Duration::ZERO => {
                        format!(" ({:.2}x in CPU time)", b.as_secs_f64() / a.as_secs_f64())
                    }
                    _ => String::new(),
                };
                let (what, ratio) = if one_core {
                    (
                        "CPU time on one core",
                        measure_of(&m).as_secs_f64() / measure_of(&p).as_secs_f64(),
                    )
                } else {
                    ("wall time", m.wall.as_secs_f64() / p.wall.as_secs_f64())
                };
                let cpu_ratio = if one_core { String::new() } else { cpu_ratio };
                println!(
                    "  pfir is {ratio:.2}x faster than mlir-opt-16 in {what}, best against best{cpu_ratio}{}",
                    match (p.rss, m.rss) {
                        (Some(a), Some(b)) => {
                            format!(", with {:.2}x its peak RSS", a as f64 / b as f64)
                        }
                        _ => String::new(),
                    }
                );
            }
            let mut pairs: Vec<f64> = pfir_runs
                .iter()
                .zip(&mlir_runs)
                .filter_map(|(p, m)| {
                    Some(
                        measure_of(m.as_ref()?).as_secs_f64()
                            / measure_of(p.as_ref()?).as_secs_f64(),
                    )
                })
                .collect();
            pairs.sort_by(f64::total_cmp);
            if pairs.len() > 1 {
                println!(
                    "  per pair: median {:.2}x, lowest {:.2}x, highest {:.2}x ({} pairs)",
                    pairs[pairs.len() / 2],
                    pairs[0],
                    pairs[pairs.len() - 1],
                    pairs.len()
                );
            }
        }
        None => println!(
            "  mlir-opt-16 not found: pfir alone (install with `apt-get install mlir-16-tools`)"
        ),
    }

    if args.iter().any(|a| a == "--deep") {
        let deep_path = dir.join("deep_10000.pfir");
        std::fs::write(&deep_path, generate_deep(10_000)).expect("writing the deep input");
        let deep = run_process(
            pfir_bin,
            &["opt", deep_path.to_str().expect("UTF-8 path")],
            runs,
            one_core,
        );
        report_process("deep 10k", 0, deep);
    }
}
