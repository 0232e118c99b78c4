//! Go to definition, references and highlights.

use super::{FIRST, at, lines, nth, texts};
use pfir::ide::{Access, Analysis};

/// Where the definition of the name at `offset` starts.
fn definition_start(a: &Analysis, offset: usize) -> Option<usize> {
    a.definition(offset).map(|r| r.start)
}

#[test]
fn definition_of_a_use_after_non_ascii_text() {
    let a = Analysis::new(FIRST);
    let use_ = nth(FIRST, "tids", 1);
    let def = a.definition(use_ + 2).expect("a definition");
    assert_eq!(def.start, at(FIRST, "tids ="));
    assert_eq!(&FIRST[def], "tids");
    // The cursor just after the name still finds it.
    assert_eq!(definition_start(&a, use_ + 4), Some(at(FIRST, "tids =")));
}

const SHADOW: &str = "func f(n: i64, out t: tensor<[4], f32>) -> i64 {
  x = n
  x = x + 1
  y = x * 2
  r = for i in range(n) iter(acc = y) {
    acc2 = acc + i
    yield acc2
  }
  w = while r < 10 iter(v = r) {
    yield v + 1
  }
  z = g(t)
  return w
}

func g(inout t: tensor<[4], f32>) -> i64 {
  return 0
}
";

#[test]
fn shadowing_resolves_each_use_to_the_innermost_earlier_definition() {
    let a = Analysis::new(SHADOW);
    // `x = x + 1`: the right-hand `x` is the first `x`.
    let rhs = nth(SHADOW, "x + 1", 0);
    assert_eq!(definition_start(&a, rhs), Some(at(SHADOW, "x = n")));
    // `y = x * 2`: the second `x`.
    let later = at(SHADOW, "x * 2");
    assert_eq!(definition_start(&a, later), Some(at(SHADOW, "x = x + 1")));
    // Each `x` has its own references.
    let first = a.references(at(SHADOW, "x = n"), true);
    assert_eq!(lines(SHADOW, &first), [2, 3]);
    let second = a.references(later, false);
    assert_eq!(
        second,
        vec![std::ops::Range {
            start: later,
            end: later + 1
        }]
    );
}

#[test]
fn iter_args_loop_variables_and_parameters() {
    let a = Analysis::new(SHADOW);
    let acc_use = at(SHADOW, "acc + i");
    let acc_def = at(SHADOW, "acc = y");
    assert_eq!(a.definition(acc_use), Some(acc_def..acc_def + 3));
    let i_use = at(SHADOW, "i\n");
    assert_eq!(definition_start(&a, i_use), Some(at(SHADOW, "i in range")));
    // A parameter's definition is its name, not its direction or type.
    let t_use = at(SHADOW, "t)\n");
    let t_def = at(SHADOW, "t: tensor");
    assert_eq!(a.definition(t_use), Some(t_def..t_def + 1));
    // The `while` condition sees... the enclosing `r`; its body the iter-arg.
    let v_use = at(SHADOW, "v + 1");
    assert_eq!(definition_start(&a, v_use), Some(at(SHADOW, "v = r")));
    let n_uses = a.references(at(SHADOW, "n: i64"), false);
    assert_eq!(lines(SHADOW, &n_uses), [2, 5]);
}

#[test]
fn functions_and_callees() {
    let a = Analysis::new(FIRST);
    let callee = nth(FIRST, "kernel", 1);
    let def = at(FIRST, "kernel()");
    assert_eq!(a.definition(callee), Some(def..def + 6));
    let refs = a.references(def, true);
    assert_eq!(lines(FIRST, &refs), [2, 10, 11]);
    assert_eq!(texts(FIRST, &refs), ["kernel"; 3]);
    let calls = a.references(def, false);
    assert_eq!(lines(FIRST, &calls), [10, 11]);
    // A plain call resolves too.
    let b = Analysis::new(SHADOW);
    assert_eq!(
        b.definition(at(SHADOW, "g(t)")).map(|r| r.start),
        Some(at(SHADOW, "g(inout"))
    );
}

#[test]
fn highlights_mark_definitions_and_out_arguments_as_writes() {
    let a = Analysis::new(SHADOW);
    let t = a.highlights(at(SHADOW, "t: tensor"));
    let kinds: Vec<(usize, Access)> = t
        .iter()
        .map(|h| (SHADOW[..h.range.start].matches('\n').count() + 1, h.access))
        .collect();
    // Defined on line 1; passed to an `inout` parameter on line 12.
    assert_eq!(kinds, [(1, Access::Write), (12, Access::Write)]);
    let y = a.highlights(at(SHADOW, "y = x"));
    let kinds: Vec<Access> = y.iter().map(|h| h.access).collect();
    assert_eq!(kinds, [Access::Write, Access::Read]);
}

#[test]
fn nothing_on_keywords_literals_comments_and_out_of_range_offsets() {
    let a = Analysis::new(FIRST);
    assert_eq!(a.definition(at(FIRST, "manual")), None);
    assert_eq!(a.definition(at(FIRST, "4, task_id")), None);
    assert_eq!(a.definition(3), None, "inside a comment");
    assert_eq!(a.definition(FIRST.len() + 10), None);
    // Inside a multi-byte character.
    assert_eq!(a.definition(at(FIRST, "Ü") + 1), None);
    assert!(a.references(usize::MAX, true).is_empty());
}

const SPLIT: &str = "func k() {
}

orchestration func main() {
  x = 1
  y = x
}
// -----
func k() {
}

orchestration func main() {
  x = 2
  y = x
}
";

#[test]
fn split_chunks_resolve_separately_with_document_offsets() {
    let a = Analysis::new(SPLIT);
    let second_use = nth(SPLIT, "y = x", 1) + 4;
    assert_eq!(
        definition_start(&a, second_use),
        Some(nth(SPLIT, "x = ", 1))
    );
    let refs = a.references(nth(SPLIT, "x = ", 0), true);
    assert_eq!(lines(SPLIT, &refs), [5, 6]);
    // The marker line belongs to no chunk.
    assert_eq!(a.definition(at(SPLIT, "// -----") + 3), None);
}

#[test]
fn functions_with_errors_still_resolve_what_lowers() {
    // An unknown variable is an error, but the rest of the function lowers.
    let src = "func f(n: i64) -> i64 {\n  a = n + missing\n  return a\n}\n";
    let a = Analysis::new(src);
    assert_eq!(definition_start(&a, at(src, "a\n}")), Some(at(src, "a =")));
    assert_eq!(a.definition(at(src, "missing")), None);
    // A syntax error in another statement: the parser recovers.
    let src = "func f(n: i64) -> i64 {\n  a = n ) 1\n  b = n\n  return b\n}\n";
    let a = Analysis::new(src);
    assert_eq!(definition_start(&a, at(src, "b\n}")), Some(at(src, "b =")));
}
