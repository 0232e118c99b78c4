//! The program the cancellation tests and `benches/cancel.rs` run through
//! `pfir opt --verify-deps`: a shape the pass and the evaluator work on.

/// `functions` orchestration functions with loops, submits and barriers
/// (what the pass and `--verify-deps` work on).
pub fn program(functions: usize) -> String {
    let mut s = String::from(
        "func produce(out dst: tensor<[64], f32>) -> task_id {\n  return system.task_invalid()\n}\n\
         func consume(src: tensor<[64], f32>, out dst: tensor<[64], f32>) -> task_id {\n  \
         return system.task_invalid()\n}\n",
    );
    for i in 0..functions {
        s.push_str(&format!(
            "orchestration func orch{i}(x: tensor<[64], f32>, y: tensor<[64], f32>) -> task_id {{
  manual \"m\" {{
    empty = array.create(8, task_id)
    tids = for p in parallel(8) iter(acc = empty) {{
      r, r_tid = submit produce(x)
      acc2 = array.update_element(acc, p, r_tid)
      yield acc2
    }}
    for c in parallel(32) {{
      s, s_tid = submit consume(x, y, deps=[tids])
    }}
  }}
  return system.task_invalid()
}}
"
        ));
    }
    s
}
