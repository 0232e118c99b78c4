//! The editor's fixed vocabulary agrees with the language and the command
//! line: reserved words with docs/language.md's table, RUN-line options
//! with `pfir opt`'s, built-in ops with lowering.

use clap::CommandFactory;
use pfir::ide::Analysis;
use pfir::ide::builtins::{BUILTIN_OPS, OPT_OPTIONS, is_reserved};

#[test]
fn reserved_words_are_those_of_the_language() {
    let words = crate::editor_grammar::reserved_words();
    for w in &words {
        assert!(is_reserved(w), "`{w}` is reserved in docs/language.md");
    }
    let ours: Vec<&str> = pfir::ide::builtins::KEYWORDS
        .iter()
        .chain(pfir::ide::builtins::KEYWORD_OPERATORS.iter())
        .copied()
        .chain(pfir::ide::builtins::type_names())
        .chain(pfir::ide::builtins::LOOP_KINDS.iter().map(|k| k.keyword()))
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
fn run_line_options_are_those_of_pfir_opt() {
    let cli = pfir::cli::Cli::command();
    let opt = cli.find_subcommand("opt").expect("pfir opt");
    let longs: Vec<String> = opt
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    let listed: Vec<&str> = OPT_OPTIONS
        .iter()
        .map(|(o, _)| o.trim_end_matches('='))
        .filter(|o| o.starts_with("--"))
        .collect();
    for l in &longs {
        if l == "--help" || l == "--output" {
            continue; // `-o` is listed by its short form.
        }
        assert!(
            listed.contains(&l.as_str()),
            "`{l}` is missing from OPT_OPTIONS"
        );
    }
    for l in listed {
        assert!(
            longs.iter().any(|x| x == l),
            "`{l}` is not an option of pfir opt"
        );
    }
    assert!(opt.get_arguments().any(|a| a.get_short() == Some('o')));
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
    for op in BUILTIN_OPS {
        assert!(
            src.contains(&format!("{}(", op.name())),
            "{} is not tried",
            op.name()
        );
        assert!(op.signature().starts_with(op.name()));
        assert!(op.usage().starts_with(op.name()));
    }
}
