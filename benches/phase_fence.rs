//! Benchmark of `expand-manual-phase-fence` on generated programs.
//!
//! `cargo bench --bench phase_fence` prints, per shape and size, the time
//! of the pass alone and the time per statement. `-- --full` also times
//! print + parse + lower + pass + print for the smaller sizes;
//! `-- --quick` stops at the middle sizes.

use pfir::ir::Module;
use pfir::passes::Pass;
use pfir::passes::expand_manual_phase_fence::ExpandManualPhaseFence;
use pfir::passes::synth;
use std::time::{Duration, Instant};

fn time_pass(module: &Module, min_runs: usize) -> Duration {
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    let mut runs = 0;
    while runs < min_runs || (total < Duration::from_millis(300) && runs < 50) {
        let mut m = module.clone();
        let mut ctx = pfir::passes::PassContext::default();
        let start = Instant::now();
        ExpandManualPhaseFence.run(&mut m, &mut ctx);
        let d = start.elapsed();
        std::hint::black_box(&m);
        best = best.min(d);
        total += d;
        runs += 1;
    }
    best
}

fn time_full(module: &Module) -> Option<Duration> {
    {
        let text = pfir::print(module);
        let start = Instant::now();
        let (parsed, _) = pfir::parse(&text).into_parts();
        let mut parsed = parsed?;
        let mut ctx = pfir::passes::PassContext::default();
        ExpandManualPhaseFence.run(&mut parsed, &mut ctx);
        let out = pfir::print(&parsed);
        std::hint::black_box(out);
        Some(start.elapsed())
    }
}

fn report(shape: &str, size: &str, module: &Module, full: bool) {
    let n = synth::statement_count(module).max(1);
    let d = time_pass(module, 3);
    let per = d.as_secs_f64() * 1e9 / n as f64;
    print!(
        "{shape:<18} {size:>16} {n:>10} stmts  pass {:>10.3} ms  {per:>8.1} ns/stmt",
        d.as_secs_f64() * 1e3
    );
    if full && n <= 200_000 {
        match time_full(module) {
            Some(t) => print!(
                "  full {:>9.3} ms  {:>8.1} ns/stmt",
                t.as_secs_f64() * 1e3,
                t.as_secs_f64() * 1e9 / n as f64
            ),
            None => print!("  full: (printed text did not read back)"),
        }
    }
    println!();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let full = args.iter().any(|a| a == "--full");
    let quick = args.iter().any(|a| a == "--quick");
    let sizes: &[usize] = if quick {
        &[1_000, 10_000, 100_000]
    } else {
        &[1_000, 10_000, 100_000, 1_000_000]
    };
    println!("expand-manual-phase-fence, pass alone (best of several runs)");
    for &n in sizes {
        report(
            "flat",
            &format!("{}x4", n / 4),
            &synth::flat(n / 5, 4),
            full,
        );
    }
    for &n in sizes {
        report("wide", &format!("{n}"), &synth::wide(n), full);
    }
    for &n in sizes {
        report(
            "many-arrays",
            &format!("{}x4", n / 4),
            &synth::many_arrays(n / 4, 4),
            full,
        );
    }
    for &d in &[1_000usize, 10_000, 100_000] {
        if quick && d > 10_000 {
            continue;
        }
        report("deep", &format!("{d}"), &synth::deep(d), full);
    }
    for &(d, a) in &[(1_000usize, 1_000usize), (10_000, 1_000), (10_000, 10_000)] {
        if quick && d * a > 10_000_000 {
            continue;
        }
        report(
            "deep-many-arrays",
            &format!("{d}x{a}"),
            &synth::deep_many_arrays(d, a),
            full,
        );
    }
}
