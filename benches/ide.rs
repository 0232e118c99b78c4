//! `pfir::ide` on a 5,000-line document: building an `Analysis` (split,
//! lex, parse, lower, index), the first pass decision (the pass with
//! remarks, run once per document version), then the queries an editor
//! sends on every keystroke or cursor move. Run with
//! `cargo bench --bench ide` (`-- --lines N` for another size); figures are
//! recorded in docs/benchmarks.md. Each figure is the median of the runs.

use pfir::ide::Analysis;
use std::time::{Duration, Instant};

/// A document of about `lines` lines: a kernel, then orchestration
/// functions with manual scopes, loops the pass compresses and loops it
/// keeps direct, iter-args, `if`, comments and CHECK lines.
fn generate(lines: usize) -> String {
    let mut s = String::from(
        "// RUN: pfir opt %s --passes=expand-manual-phase-fence | FileCheck %s\n\
         func kernel(x: index) -> task_id {\n  return system.task_invalid()\n}\n\n",
    );
    let mut i = 0;
    let mut count = s.lines().count();
    while count < lines {
        let function = format!(
            "// CHECK-LABEL: orchestration func phase{i}
// Ünïcödé comment before the function.
orchestration func phase{i}(n: i64) -> task_id {{
  manual \"stage{i}\" {{
    tids = array.create(8, task_id)
    for p in parallel(8) {{
      a, a_tid = submit kernel(p, deps=[tids])
      b, b_tid = submit kernel(p, deps=[tids])
    }}
    acc = for q in range(0, n, 2) iter(slot = tids) {{
      if q > 4 and n != 3 {{
        c, c_tid = submit kernel(q, deps=[slot])
      }}
      y = q * 2 + 1
      yield slot
    }}
  }}
  return system.task_invalid()
}}

"
        );
        count += function.matches('\n').count();
        s.push_str(&function);
        i += 1;
    }
    s
}

/// A query, returning something so that it is not optimised away.
type Query<'a> = Box<dyn Fn() -> usize + 'a>;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                let result = std::hint::black_box(f());
                let elapsed = t.elapsed();
                drop(result);
                elapsed
            })
            .collect(),
    )
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lines = args
        .iter()
        .position(|a| a == "--lines")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(5_000);
    let src = generate(lines);
    let runs = 21;
    println!(
        "document: {} lines, {} bytes, {} functions",
        src.lines().count(),
        src.len(),
        src.matches("func ").count()
    );
    let front_end = time(runs, || pfir::parse(&src).into_parts().0.is_some());
    println!("{:<40} {}", "front end alone (pfir::parse)", ms(front_end));
    let build = time(runs, || Analysis::new(&src));
    println!("{:<40} {}", "Analysis::new", ms(build));
    let a = Analysis::new(&src);
    let mid = src.len() / 2;
    let use_ = src[mid..].find("deps=[tids]").map_or(mid, |i| mid + i + 6);
    let header = src[mid..].find("for p").map_or(mid, |i| mid + i);
    let body = src[mid..].find("y = q").map_or(mid, |i| mid + i);
    let queries: [(&str, Query); 9] = [
        (
            "definition",
            Box::new(|| a.definition(use_).map_or(0, |r| r.start)),
        ),
        ("references", Box::new(|| a.references(use_, true).len())),
        (
            "hover (variable)",
            Box::new(|| a.hover(use_).map_or(0, |h| h.markdown.len())),
        ),
        (
            "hover (pass decision)",
            Box::new(|| a.hover(header).map_or(0, |h| h.markdown.len())),
        ),
        ("completions", Box::new(|| a.completions(body).len())),
        ("document_symbols", Box::new(|| a.document_symbols().len())),
        ("folding_ranges", Box::new(|| a.folding_ranges().len())),
        ("semantic_tokens", Box::new(|| a.semantic_tokens().len())),
        (
            "inlay_hints (whole document)",
            Box::new(|| a.inlay_hints(0..src.len()).len()),
        ),
    ];
    // The first decision runs the pass (once per document version).
    let first_decision = median(
        (0..runs)
            .map(|_| {
                let fresh = Analysis::new(&src);
                let t = Instant::now();
                std::hint::black_box(fresh.hover(header));
                t.elapsed()
            })
            .collect(),
    );
    println!(
        "{:<40} {}",
        "first pass decision (runs the pass)",
        ms(first_decision)
    );
    for (name, q) in queries {
        println!("{:<40} {}", name, ms(time(runs, q)));
    }
}
