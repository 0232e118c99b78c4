//! The editor's fixed vocabulary agrees with the language: reserved words
//! with docs/language.md's table, built-in ops with lowering. (Its RUN-line
//! options are checked against `pfir opt`'s by a unit test of `src/cli`.)

use pfir::ide::Analysis;
use pfir::vocab::{BuiltinOp, is_reserved};

#[test]
fn reserved_words_are_those_of_the_language() {
    let words = crate::editor_grammar::reserved_words();
    for w in &words {
        assert!(is_reserved(w), "`{w}` is reserved in docs/language.md");
    }
    let ours: Vec<&str> = pfir::vocab::KEYWORDS
        .iter()
        .chain(pfir::vocab::KEYWORD_OPERATORS.iter())
        .copied()
        .chain(pfir::vocab::type_names())
        .chain(pfir::vocab::LOOP_KINDS.iter().map(|k| k.keyword()))
        .collect();
    for w in ours {
        assert!(words.iter().any(|x| x == w), "`{w}` is not a reserved word");
    }
}

/// The one list the parser's recovery reads misspellings as, the editor
/// completes and hovers, and rename refuses: exactly the language's table.
#[test]
fn the_shared_reserved_words_are_exactly_the_table() {
    let mut table = crate::editor_grammar::reserved_words();
    table.sort();
    let mut ours: Vec<String> = pfir::vocab::reserved_words().map(String::from).collect();
    ours.sort();
    assert_eq!(ours, table);
}

#[test]
fn built_in_ops_have_known_result_types_and_others_do_not() {
    let src = "func f() {
  t = array.create(4, task_id)
  e = array.get_element(t, 0)
  u = array.update_element(t, 0, e)
  i = system.task_invalid()
  d = system.task_dummy(deps=[t])
  x = tensor.load(1)
}
";
    let a = Analysis::new(src);
    let ty = |name: &str| {
        let md = a
            .hover(src.find(&format!("{name} =")).unwrap())
            .unwrap()
            .markdown;
        md.lines().nth(1).unwrap().to_string()
    };
    assert_eq!(ty("t"), "t: array<task_id, 4>");
    assert_eq!(ty("e"), "e: task_id");
    assert_eq!(ty("u"), "u: array<task_id, 4>");
    assert_eq!(ty("i"), "i: task_id");
    assert_eq!(ty("d"), "d: task_id");
    assert_eq!(ty("x"), "x: unknown");
    for op in BuiltinOp::ALL {
        assert!(
            src.contains(&format!("{}(", op.name())),
            "{} is not tried",
            op.name()
        );
        assert!(op.signature().starts_with(op.name()));
        assert!(op.usage().starts_with(op.name()));
    }
}
