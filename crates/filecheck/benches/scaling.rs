//! FileCheck's growth on its worst known shapes (issue 25): prints the time
//! of one `filecheck::check` per size, and the time per unit, which stays
//! flat when the growth is linear (or n log n).
//!
//! ```text
//! cargo bench -p filecheck --bench scaling                # every case
//! cargo bench -p filecheck --bench scaling -- subst 50000 100000 200000
//! cargo bench -p filecheck --bench scaling -- dag 10000 50000 100000
//! ```
//!
//! Cases:
//! - `subst`: `CHECK: [[X:ab]]`, then one `CHECK:` line of N uses `[[X]] `
//!   against an input line of N `ab `;
//! - `subst-regex`: the same with a `{{ }}` regex at the end of the long
//!   line, so that the line needs the regex engine after its literal lead;
//! - `dag`: N lines `CHECK-DAG: x` against N lines `x`.

use std::time::Instant;

fn subst(n: usize, regex_tail: bool) -> (String, String) {
    let tail = if regex_tail { "{{[0-9]+}}" } else { "" };
    let check = format!("CHECK: [[X:ab]]\nCHECK: {}{tail}\n", "[[X]] ".repeat(n));
    let digits = if regex_tail { "42" } else { "" };
    let input = format!("ab\n{}{digits}\n", "ab ".repeat(n));
    (check, input)
}

fn dag(n: usize) -> (String, String) {
    ("CHECK-DAG: x\n".repeat(n), "x\n".repeat(n))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let cases: Vec<(&str, Vec<usize>)> = match args.first().map(String::as_str) {
        Some(case) => {
            let sizes: Vec<usize> = args[1..]
                .iter()
                .map(|s| s.parse().expect("sizes are numbers"))
                .collect();
            vec![(case, sizes)]
        }
        None => vec![
            ("subst", vec![50_000, 100_000, 200_000]),
            ("subst-regex", vec![50_000, 100_000, 200_000]),
            ("dag", vec![10_000, 50_000, 100_000]),
        ],
    };
    let opts = filecheck::FileCheckOptions::default();
    println!("| case | n | check file | seconds | ns per n |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (case, sizes) in cases {
        for n in sizes {
            let (check, input) = match case {
                "subst" => subst(n, false),
                "subst-regex" => subst(n, true),
                "dag" => dag(n),
                other => panic!("unknown case {other}: subst, subst-regex or dag"),
            };
            let t = Instant::now();
            let result = filecheck::check(&check, "bench.check", &input, "bench.input", &opts);
            let secs = t.elapsed().as_secs_f64();
            if let Err(f) = result {
                panic!("{case} at {n} failed:\n{}", f.report());
            }
            println!(
                "| {case} | {n} | {} KB | {secs:.3} | {:.0} |",
                check.len() >> 10,
                secs * 1e9 / n as f64
            );
        }
    }
}
