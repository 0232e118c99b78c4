//! Front-end throughput over generated programs: parse + lower, print, at
//! several sizes. Run with `cargo bench --bench frontend`.
//!
//! It also writes the largest input to `target/bench-inputs/frontend_10mb.pfir`
//! so the whole process can be measured too:
//! `/usr/bin/time -v target/release/pfir opt target/bench-inputs/frontend_10mb.pfir > /dev/null`.

use std::time::Instant;

/// A program of roughly `bytes` bytes: many orchestration functions mixing
/// every common statement shape.
fn generate(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str("func kernel(x: index, inout t: tensor<[64], f32>) -> task_id {\n  return system.task_invalid()\n}\n\n");
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&format!(
            "orchestration func phase{i}(n: i64, t: tensor<[64], f32>) -> task_id {{
  manual \"stage\" {{
    tids = array.create(8, task_id)
    acc = for p in parallel(8) iter(slot = tids) {{
      a, a_tid = submit kernel(p, t, deps=[tids])
      y = p * 2 + 1
      slot2 = array.update_element(slot, p, a_tid)
      yield slot2
    }}
    for q in range(0, n, 2) {{
      if q > 4 and n != 3 {{
        b, b_tid = submit kernel(q, t, deps=[acc], core_num=4)
      }} else {{
        c = tensor.load(t, mode=1)
      }}
    }}
  }}
  return system.task_invalid()
}}

"
        ));
        i += 1;
    }
    s
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let sizes: &[usize] = if quick {
        &[100_000]
    } else {
        &[100_000, 1_000_000, 10_000_000]
    };
    println!(
        "{:>12} {:>12} {:>14} {:>12} {:>14}",
        "bytes", "parse+lower", "MB/s", "print", "MB/s"
    );
    for &size in sizes {
        let src = generate(size);
        let mb = src.len() as f64 / 1e6;
        let (module, t_read) = {
            let t = Instant::now();
            let (m, diags) = pfir::parse(&src).into_parts();
            let elapsed = t.elapsed();
            assert!(
                diags.is_empty(),
                "generated program is valid: {:?}",
                diags.first()
            );
            (m.expect("valid"), elapsed)
        };
        let t = Instant::now();
        let printed = pfir::print(&module);
        let t_print = t.elapsed();
        std::hint::black_box(&printed);
        println!(
            "{:>12} {:>10.1}ms {:>14.1} {:>10.1}ms {:>14.1}",
            src.len(),
            t_read.as_secs_f64() * 1e3,
            mb / t_read.as_secs_f64(),
            t_print.as_secs_f64() * 1e3,
            mb / t_print.as_secs_f64()
        );
        if size == 10_000_000 {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-inputs");
            let _ = std::fs::create_dir_all(&dir);
            let _ = std::fs::write(dir.join("frontend_10mb.pfir"), &src);
        }
    }
}
