//! `pfir fmt` against `pfir opt` on a 10 MB file with comments.
//!
//! `cargo bench --bench fmt` writes `target/bench-inputs/fmt-10mb.pfir`:
//! one orchestration function holding `manual` scopes of parallel loops of
//! `submit`s, with a leading comment above every loop, a trailing comment on
//! every other statement, blank lines, and a statement written over three
//! lines with a comment inside it every few loops (about 10 MB, a third of
//! its lines comments). It then runs the release binary
//! `pfir opt FILE > /dev/null`, `pfir fmt FILE > /dev/null` (the default
//! width, 100: no statement of the input is that long, so nothing wraps)
//! and `pfir fmt --line-width 30 FILE > /dev/null` (every `submit` is
//! broken over several lines by `pretty`), best of `--runs N` (default 3):
//! each round runs the three one after the other, so that a slow spell of
//! the machine falls on all three alike. It prints the wall times and the
//! ratios to `opt` (the goal: fmt within 1.5x of opt, with and without
//! wrapping). No test asserts any of these times.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TARGET_BYTES: usize = 10 << 20;

fn input() -> String {
    let mut s = String::with_capacity(TARGET_BYTES + 4096);
    s.push_str("// A generated benchmark input for `pfir fmt`.\n\nfunc k(x: i64) -> task_id {\n  return system.task_invalid() // nothing to do\n}\n\n");
    s.push_str("// The main job.\norchestration func main(n: i64) {\n  manual {\n    tids = array.create(4, task_id)\n");
    let mut i = 0usize;
    while s.len() < TARGET_BYTES {
        let _ = write!(
            s,
            "\n    // Phase {i}: four producers, then consumers.\n    for p{i} in parallel(4) {{ // producers\n      a{i}, t{i} = submit k(p{i}, deps=[tids])\n      b{i} = n +   // the width\n        {i} *\n        2\n      c{i}, v{i} = submit k(b{i}, deps=[tids]) // second\n      // done with loop {i}\n    }}\n"
        );
        i += 1;
    }
    s.push_str("  }\n}\n// end of the benchmark input\n");
    s
}

fn time(bin: &Path, args: &[&str]) -> Duration {
    let start = Instant::now();
    let status = Command::new(bin)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("running pfir");
    assert!(status.success(), "pfir {args:?} failed");
    start.elapsed()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-inputs");
    std::fs::create_dir_all(&dir).expect("creating target/bench-inputs");
    let path = dir.join("fmt-10mb.pfir");
    let text = input();
    std::fs::write(&path, &text).expect("writing the input");
    let file = path.to_str().expect("UTF-8 path");
    let bin = Path::new(env!("CARGO_BIN_EXE_pfir"));
    let commands: [&[&str]; 3] = [
        &["opt", file],
        &["fmt", file],
        &["fmt", "--line-width", "30", file],
    ];
    let mut best = [Duration::MAX; 3];
    for _ in 0..runs.max(1) {
        for (best, args) in best.iter_mut().zip(commands) {
            *best = (*best).min(time(bin, args));
        }
    }
    let [opt, fmt, wrapped] = best;
    let mb = text.len() as f64 / 1e6;
    println!(
        "input: {mb:.1} MB, {} lines; best of {runs}",
        text.lines().count()
    );
    println!("pfir opt: {:>8.3} s", opt.as_secs_f64());
    println!("pfir fmt: {:>8.3} s", fmt.as_secs_f64());
    println!("pfir fmt --line-width 30: {:>8.3} s", wrapped.as_secs_f64());
    println!(
        "fmt / opt: {:.2}x, wrapped / opt: {:.2}x (goal: at most 1.5x)",
        fmt.as_secs_f64() / opt.as_secs_f64(),
        wrapped.as_secs_f64() / opt.as_secs_f64()
    );
}
