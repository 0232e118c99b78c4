//! Rename and prepare-rename, with every refusal and its message.

use super::{FIRST, at, lines, nth};
use pfir::ide::Analysis;

/// Applies `edits` to `src`.
fn apply(src: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = src.to_string();
    for (r, t) in edits {
        out.replace_range(r, &t);
    }
    out
}

fn refusal(a: &Analysis, offset: usize, name: &str) -> String {
    a.rename(offset, name).expect_err("refused").message
}

#[test]
fn renames_a_variable_everywhere_it_is_used_and_the_result_still_lowers() {
    let a = Analysis::new(FIRST);
    let edits = a.rename(nth(FIRST, "tids", 2), "slots").unwrap();
    assert_eq!(
        lines(
            FIRST,
            &edits.iter().map(|e| e.0.clone()).collect::<Vec<_>>()
        ),
        [8, 10, 11]
    );
    let renamed = apply(FIRST, edits);
    assert!(renamed.contains("slots = array.create(4, task_id)"));
    assert!(renamed.contains("deps=[slots])\n      b, b_tid = submit kernel(deps=[slots])"));
    assert!(pfir::parse(&renamed).into_parts().0.is_some());
    assert_eq!(
        a.prepare_rename(nth(FIRST, "tids", 1)),
        Ok(nth(FIRST, "tids", 1)..nth(FIRST, "tids", 1) + 4)
    );
}

#[test]
fn renames_a_function_and_its_callees() {
    let a = Analysis::new(FIRST);
    let renamed = apply(FIRST, a.rename(nth(FIRST, "kernel", 2), "work").unwrap());
    assert_eq!(renamed.matches("work").count(), 3);
    assert!(!renamed.contains("kernel"));
    assert!(pfir::parse(&renamed).into_parts().0.is_some());
}

#[test]
fn renaming_one_of_two_shadowing_variables_keeps_the_other() {
    let src = "func f(n: i64) -> i64 {\n  x = n\n  x = x + 1\n  return x\n}\n";
    let a = Analysis::new(src);
    let renamed = apply(src, a.rename(at(src, "x = n"), "first").unwrap());
    assert_eq!(
        renamed,
        "func f(n: i64) -> i64 {\n  first = n\n  x = first + 1\n  return x\n}\n"
    );
    // The canonical forms agree: the program means the same.
    let before = pfir::parse(src).module.map(|m| pfir::print(&m)).unwrap();
    let after = pfir::parse(&renamed)
        .module
        .map(|m| pfir::print(&m))
        .unwrap();
    assert_eq!(
        before
            .replace("x = n", "first = n")
            .replace("x = x", "x = first"),
        after
    );
}

#[test]
fn refuses_keywords_type_names_and_invalid_identifiers() {
    let a = Analysis::new(FIRST);
    let tids = at(FIRST, "tids");
    let not_an_identifier = "is not an identifier (a letter or `_`, then letters, digits or `_`)";
    for (name, why) in [
        ("for", "is a keyword"),
        ("parallel", "is a keyword"),
        ("task_id", "is a type name"),
        ("array", "is a type name"),
        ("2x", not_an_identifier),
        ("a.b", not_an_identifier),
        ("_", "is the discard binding, not a name"),
        ("ü", not_an_identifier),
    ] {
        assert_eq!(refusal(&a, tids, name), format!("`{name}` {why}"));
    }
}

#[test]
fn refuses_names_already_visible_where_the_variable_is() {
    let a = Analysis::new(FIRST);
    // `n` (the parameter) is visible in the whole body.
    assert_eq!(
        refusal(&a, at(FIRST, "tids"), "n"),
        "`n` is already defined where `tids` is visible (the parameter at line 6); \
         renaming would change what one of them refers to"
    );
    // `a` is defined in the loop body, where `tids` is used.
    assert!(refusal(&a, at(FIRST, "tids"), "a").starts_with("`a` is already defined"));
    // `b_tid` is defined in the body where the loop variable `p` is visible.
    assert!(refusal(&a, at(FIRST, "p in"), "b_tid").contains("(the binding at line 11)"));
    // Another function's variables never clash.
    let src = "func f(x: i64) {\n}\n\nfunc g(y: i64) {\n}\n";
    let b = Analysis::new(src);
    assert!(b.rename(at(src, "y"), "x").is_ok());
}

/// Line numbers in refusals count lines as editors do: a lone `\r` and a
/// `\r\n` each end one.
#[test]
fn refusals_count_lone_carriage_returns_as_line_ends() {
    let src = "func f(x: i64) {\r}\r\n\rfunc g(y: i64) {\r}\r";
    let a = Analysis::new(src);
    assert_eq!(
        refusal(&a, at(src, "f("), "g"),
        "a function named `g` already exists (line 4)"
    );
}

#[test]
fn refuses_function_clashes_ops_and_callees_defined_elsewhere() {
    let a = Analysis::new(FIRST);
    assert_eq!(
        refusal(&a, at(FIRST, "kernel"), "main"),
        "a function named `main` already exists (line 6)"
    );
    assert_eq!(
        a.prepare_rename(at(FIRST, "array.create"))
            .unwrap_err()
            .message,
        "`array.create` is an op, not a function of this file: op names cannot be renamed"
    );
    assert_eq!(
        refusal(&a, at(FIRST, "manual"), "x"),
        "`manual` is a keyword"
    );
    assert_eq!(
        refusal(&a, at(FIRST, "task_id)"), "x"),
        "`task_id` is a type name"
    );
    let src = "func f() {\n  a = submit elsewhere()\n  b = other(1)\n  c = nothing\n}\n";
    let b = Analysis::new(src);
    for callee in ["elsewhere", "other"] {
        assert_eq!(
            b.prepare_rename(at(src, callee)).unwrap_err().message,
            format!(
                "`{callee}` is not a function of this file: its definition and its other \
                 callers are elsewhere, so renaming this call alone would break it"
            )
        );
    }
    assert_eq!(
        b.prepare_rename(at(src, "nothing")).unwrap_err().message,
        "`nothing` does not name a variable or function here (is it defined?)"
    );
    assert_eq!(
        a.prepare_rename(2).unwrap_err().message,
        "names inside comments are not renamed"
    );
    let src = "func f() {\n  _ = 1\n}\n";
    assert_eq!(
        Analysis::new(src)
            .prepare_rename(at(src, "_"))
            .unwrap_err()
            .message,
        "`_` is the discard binding: it names nothing"
    );
}

#[test]
fn renaming_to_the_same_name_changes_nothing() {
    let a = Analysis::new(FIRST);
    assert_eq!(a.rename(at(FIRST, "tids"), "tids"), Ok(Vec::new()));
    assert_eq!(a.rename(at(FIRST, "kernel"), "kernel"), Ok(Vec::new()));
}

#[test]
fn rename_stays_in_its_split_chunk() {
    let src = "func k() {\n}\n// -----\nfunc k() {\n}\n\nfunc m() {\n  a = submit k()\n}\n";
    let a = Analysis::new(src);
    let edits = a.rename(nth(src, "k()", 2), "kk").unwrap();
    let ranges: Vec<_> = edits.iter().map(|e| e.0.clone()).collect();
    assert_eq!(lines(src, &ranges), [4, 8]);
}

#[test]
fn names_written_as_dynamic_extents_are_uses_too() {
    let src = "func f(n: i64, t: array<task_id, n>) -> array<task_id, n> {\n  m = n\n  u: array<task_id, m> = t\n  return u\n}\n";
    let a = Analysis::new(src);
    let refs = a.references(at(src, "n: i64"), true);
    assert_eq!(super::texts(src, &refs), ["n"; 4]);
    assert_eq!(
        a.definition(at(src, "m> =")).map(|r| r.start),
        Some(at(src, "m = n"))
    );
    let renamed = apply(src, a.rename(at(src, "n: i64"), "count").unwrap());
    assert_eq!(
        renamed,
        "func f(count: i64, t: array<task_id, count>) -> array<task_id, count> {\n  m = count\n  u: array<task_id, m> = t\n  return u\n}\n"
    );
    assert!(pfir::parse(&renamed).into_parts().0.is_some());
}
