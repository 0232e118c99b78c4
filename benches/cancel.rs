//! How long an in-process test stage runs on past its deadline
//! (`fsutil::cancel`, issue 32): the worst cases within the in-process
//! input budget (1 MiB).
//!
//! `cargo bench --bench cancel` runs each workload once without a deadline
//! (what a stage that is not stopped costs, capped), then under deadlines
//! spread over its run, and prints the time from each deadline to the
//! return of `fsutil::cancel::run` (the work unwound, everything it held
//! dropped): the worst and the median, and the process's peak RSS after
//! each workload (the in-process memory of the worst stage). Pin it (`taskset -c 0`) on a
//! loaded machine.

use fsutil::cancel::{self, Token};
use std::time::{Duration, Instant};

#[path = "../tests/common/cancel_program.rs"]
mod cancel_program;

/// As many functions of [`cancel_program::program`] as fit in `bytes`.
fn program_within(bytes: usize) -> String {
    let header = cancel_program::program(0).len();
    let per_function = cancel_program::program(1).len() - header;
    cancel_program::program((bytes - header) / per_function)
}

/// `pfir opt --passes=expand-manual-phase-fence --verify-deps`, in-process.
fn opt_verify_deps(text: &str) -> usize {
    let parsed = pfir::parse(text);
    let mut module = parsed.module.expect("the program reads");
    let options = pfir::PipelineOptions {
        verify_deps: true,
        ..pfir::PipelineOptions::with_passes(&["expand-manual-phase-fence"])
    };
    pfir::run_passes(&mut module, &options).expect("the pass runs");
    pfir::print(&module).len()
}

/// FileCheck with `n` regex CHECK-DAG lines on `n` matching lines.
fn check_dag(checks: &str, input: &str) -> usize {
    let opts = filecheck::FileCheckOptions::default();
    usize::from(filecheck::check(checks, "checks", input, "input", &opts).is_ok())
}

fn measure(name: &str, work: &dyn Fn() -> usize) {
    const CAP: Duration = Duration::from_secs(10);
    let start = Instant::now();
    let token = Token::new().with_deadline(start + CAP);
    let full = match cancel::run(&token, work) {
        Ok(_) => format!("{:.0} ms", start.elapsed().as_secs_f64() * 1e3),
        Err(_) => format!("more than {} s (stopped there)", CAP.as_secs()),
    };
    let whole = start.elapsed().min(CAP);
    let mut late = Vec::new();
    for k in 1..=10 {
        let after = whole.mul_f64(k as f64 / 11.0).min(Duration::from_secs(3));
        let deadline = Instant::now() + after;
        let token = Token::new().with_deadline(deadline);
        if cancel::run(&token, work).is_err() {
            late.push(Instant::now().saturating_duration_since(deadline));
        }
    }
    late.sort();
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
    println!(
        "{name}: uncancelled {full}; {} deadlines hit, from deadline to return: worst {}, median {}",
        late.len(),
        late.last().map_or("-".into(), |d| ms(*d)),
        late.get(late.len() / 2).map_or("-".into(), |d| ms(*d)),
    );
    println!("  peak RSS of the bench process so far: {}", peak_rss());
}

/// The process's peak resident set (`VmHWM` of `/proc/self/status`, Linux).
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown (no /proc)".into())
}

fn main() {
    let text = program_within(1 << 20);
    println!("pfir opt --verify-deps input: {} bytes", text.len());
    measure("pfir opt --verify-deps on 1 MiB", &|| {
        opt_verify_deps(&text)
    });
    // Check file and input within 1 MiB together.
    let n = 43_000;
    let checks = "// CHECK-DAG: {{[a]}}\n".repeat(n);
    let input = "a\n".repeat(n);
    println!(
        "FileCheck CHECK-DAG input: {} bytes of checks, {} of input",
        checks.len(),
        input.len()
    );
    measure("FileCheck, n regex CHECK-DAG on n lines", &|| {
        check_dag(&checks, &input)
    });
}
