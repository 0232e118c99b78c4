//! `pfir lsp` end to end: the real binary, driven over stdio by a scripted
//! client ([`client`]) that speaks like VS Code (UTF-16 positions).
//! One module per concern.

mod client;
mod diagnostics;
mod editing;
mod framing;
mod navigation;
mod protocol;
mod sync;
mod tests_on_save;
mod trust;

/// A valid document: non-ASCII text first, a callee, and a `manual` loop
/// that the pass compresses (4 producers x 8 consumers).
pub const DOC: &str = "// h\u{e9}llo \u{1F600} w\u{f6}rld
func k() {
}

orchestration func main(n: i64) {
  manual \"ph\u{e4}se \u{1F600}\" {
    tids = array.create(4, task_id)
    for i in parallel(4) {
      a = submit k(deps=[tids])
      b = submit k(deps=[tids])
    }
  }
}
";
