//! Bounded-exhaustive verification of `expand-manual-phase-fence` at sizes
//! `cargo test` cannot afford (docs/testing.md, "Every small program").
//!
//! `cargo bench --bench exhaustive -- --size K [--from J] [--extent E,...] [--jobs N] [--shard I/N] [--fail-fast] [--coverage]`
//! checks every program of sizes J (default 1) to K (default 4) at each
//! extent E (the size of its dependency arrays: `1` to `4` and the unknown
//! `n`, default all five) with the three checks of
//! `pfir::testkit::exhaustive`, and prints per size and extent the number
//! of distinct programs, wall and CPU time, programs per second and the
//! failures of each check (with the first failing program). With
//! `--coverage` it also prints, per rule of the pass page, the smallest
//! program that exercised it (the table of docs/pass-rule-coverage.md).
//! `--shard I/N` checks only the programs whose enumeration index is I
//! modulo N (a size too large for one sitting, in N runs); `--fail-fast`
//! stops at the first failing program.
//! Exits 1 when any program fails.

use pfir::passes::exhaustive::{EXTENTS, Extent, body_of};
use pfir::testkit::exhaustive::{RunOptions, run_size};
use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

/// User + system CPU time of this process, from /proc (Linux), in seconds.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the name).
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| -> Option<usize> {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
    };
    let size = value("--size").unwrap_or(4);
    let from = value("--from").unwrap_or(1);
    let jobs = value("--jobs").unwrap_or_else(fsutil::parallel::default_jobs);
    let coverage = args.iter().any(|a| a == "--coverage");
    let text = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let shard = text("--shard")
        .and_then(|v| v.split_once('/'))
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .unwrap_or((0, 1));
    let extents: Vec<Extent> = match text("--extent") {
        Some(list) => list
            .split(',')
            .map(|e| {
                Extent::parse(e.trim()).unwrap_or_else(|| {
                    eprintln!("--extent: `{e}` is not 1 to 4 or n");
                    std::process::exit(2)
                })
            })
            .collect(),
        None => EXTENTS.to_vec(),
    };
    let opts = RunOptions {
        jobs,
        fail_fast: args.iter().any(|a| a == "--fail-fast"),
        shard,
    };
    let mut seen = HashSet::new();
    let mut firsts: BTreeMap<_, (usize, Extent, String)> = BTreeMap::new();
    let mut failed = 0;
    let mut total = 0;
    println!(
        "{:>4} {:>6} {:>12} {:>10} {:>9} {:>9} {:>12}  checks (dependencies, idempotence + round trip, decisions)",
        "size", "extent", "programs", "cumulative", "wall s", "cpu s", "programs/s"
    );
    'sizes: for k in from..=size {
        for &extent in &extents {
            let (t, c) = (Instant::now(), cpu_seconds());
            let r = run_size(extent, k, opts, &mut seen);
            let wall = t.elapsed().as_secs_f64();
            let cpu = match (c, cpu_seconds()) {
                (Some(a), Some(b)) => format!("{:.1}", b - a),
                _ => "-".into(),
            };
            total += r.programs;
            let result = if r.failures.is_empty() {
                "all clean".to_string()
            } else {
                r.failures
                    .iter()
                    .map(|(check, (n, _, _))| format!("{check}: {n} failed"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            println!(
                "{k:>4} {extent:>6} {:>12} {total:>10} {wall:>9.1} {cpu:>9} {:>12.0}  {result}",
                r.programs,
                r.programs as f64 / wall.max(1e-9)
            );
            for (check, (_, program, failure)) in &r.failures {
                println!("first program failing `{check}`:\n{program}{failure:#?}\n");
                failed += 1;
            }
            if opts.fail_fast && failed > 0 {
                break 'sizes;
            }
            for (rule, text) in r.first_for_rule {
                firsts.entry(rule).or_insert((k, extent, text));
            }
        }
    }
    if coverage {
        println!(
            "\n| # | oracle rule | size | extent | smallest program (the body of its `manual` scope) |"
        );
        println!("| --- | --- | --- | --- | --- |");
        for (rule, (k, extent, text)) in &firsts {
            // Line ends mean nothing in `.pfir`: one line per program.
            let body = body_of(text)
                .lines()
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ");
            println!(
                "| {} | `{rule:?}` | {k} | {extent} | `{body}` |",
                rule.doc_ids()
            );
        }
    }
    if failed > 0 {
        std::process::exit(1);
    }
}
