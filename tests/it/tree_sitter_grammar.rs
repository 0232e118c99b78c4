//! The tree-sitter grammar (`editors/tree-sitter-pfir`, compiled by
//! `crates/tree-sitter-pfir`), with the `tree-sitter` crate only (no
//! tree-sitter CLI):
//!
//! - its corpus (`test/corpus/*.txt`, what `tree-sitter test` runs): each
//!   input parses to exactly the tree written under it, and the ones marked
//!   `:error` have an error;
//! - every `.pfir` file of the repository parses without an ERROR or
//!   MISSING node unless pfir's own parser reports a syntax error in it (a
//!   file meant to be invalid), and every file pfir finds a syntax error in
//!   has one for tree-sitter too (except a reserved word used as a name,
//!   which tree-sitter's ABI 14 parsers cannot refuse);
//! - the queries compile against the grammar, and the highlights mark the
//!   test directives inside comments.

use pfir::diagnostics::Code;
use std::path::{Path, PathBuf};
use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator, Tree};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn grammar_dir() -> PathBuf {
    root().join("editors/tree-sitter-pfir")
}

fn language() -> tree_sitter::Language {
    tree_sitter_pfir::LANGUAGE.into()
}

fn parse(text: &[u8]) -> Tree {
    let mut parser = Parser::new();
    parser.set_language(&language()).unwrap();
    parser
        .parse(text, None)
        .expect("tree-sitter returned no tree")
}

/// An S-expression with its whitespace normalised and without field names
/// (`name:`), as `tree-sitter test` compares them when the corpus shows no
/// fields.
fn normalise(sexp: &str) -> String {
    let mut out = String::new();
    let is_field = |w: &str| {
        w.len() > 1
            && w.ends_with(':')
            && w[..w.len() - 1]
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_')
    };
    for word in sexp.split_whitespace().filter(|w| !is_field(w)) {
        if !out.is_empty() && !out.ends_with('(') && !word.starts_with(')') {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// One corpus entry: its name, input, expected tree, and whether it is
/// marked `:error`.
struct Entry {
    file: String,
    name: String,
    input: String,
    expected: String,
    error: bool,
}

/// Reads the corpus files in tree-sitter's format: a `===` line, the name
/// (and attributes such as `:error`), a `===` line, the input, a `---` line,
/// the expected tree.
fn corpus() -> Vec<Entry> {
    let dir = grammar_dir().join("test/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    let is_rule = |l: &str, c: char| l.len() >= 3 && l.chars().all(|x| x == c);
    let mut entries = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            if !is_rule(lines[i], '=') {
                i += 1;
                continue;
            }
            let mut header = Vec::new();
            i += 1;
            while i < lines.len() && !is_rule(lines[i], '=') {
                header.push(lines[i]);
                i += 1;
            }
            i += 1;
            let start = i;
            while i < lines.len() && !is_rule(lines[i], '-') {
                i += 1;
            }
            let input = lines[start..i.min(lines.len())].join("\n");
            i += 1;
            let start = i;
            while i < lines.len() && !is_rule(lines[i], '=') {
                i += 1;
            }
            entries.push(Entry {
                file: path.file_name().unwrap().to_string_lossy().into_owned(),
                name: header.first().copied().unwrap_or("").trim().to_string(),
                input: input.trim_end().to_string() + "\n",
                expected: lines[start..i].join("\n"),
                error: header.iter().any(|h| h.trim() == ":error"),
            });
        }
    }
    entries
}

#[test]
fn corpus_inputs_parse_to_their_trees() {
    let entries = corpus();
    let mut failures = Vec::new();
    for e in &entries {
        let tree = parse(e.input.as_bytes());
        let root_node = tree.root_node();
        if e.error {
            if !root_node.has_error() {
                failures.push(format!(
                    "{} / {}: marked :error but parses cleanly: {}",
                    e.file,
                    e.name,
                    root_node.to_sexp()
                ));
            }
            continue;
        }
        let got = normalise(&root_node.to_sexp());
        let want = normalise(&e.expected);
        if got != want {
            failures.push(format!(
                "{} / {}:\n  expected {want}\n  got      {got}",
                e.file, e.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every construct of the reference has its entry (see the corpus files).
    assert!(entries.len() >= 30, "only {} corpus entries", entries.len());
}

/// The codes of pfir's syntax errors in `text` (semantic errors are not
/// tree-sitter's business).
fn syntax_errors(text: &[u8]) -> Vec<Code> {
    let Ok(text) = std::str::from_utf8(text) else {
        return vec![Code::NotUtf8];
    };
    let (_, diags) = pfir::parse(text).into_parts();
    diags
        .iter()
        .filter_map(|d| d.code)
        .filter(|c| {
            matches!(
                c,
                Code::UnexpectedToken
                    | Code::UnexpectedEof
                    | Code::UnexpectedCharacter
                    | Code::UnterminatedString
                    | Code::InvalidEscape
                    | Code::TooDeep
                    | Code::ReservedWord
                    | Code::NotUtf8
                    | Code::UnclosedDelimiter
                    | Code::MismatchedDelimiter
            )
        })
        .collect()
}

/// Every `.pfir` file of the repository: examples, tests, the fuzz corpus.
fn repository_files() -> Vec<PathBuf> {
    let mut files = super::support::repository_pfir_files();
    super::support::pfir_files(&root().join("fuzz/corpus"), &mut files);
    files
}

#[test]
fn every_repository_file_parses_as_pfir_does() {
    let files = repository_files();
    assert!(files.len() > 100, "{} files", files.len());
    let mut failures = Vec::new();
    let mut invalid = 0;
    let mut reserved_only = 0;
    for path in &files {
        let text = std::fs::read(path).unwrap();
        let tree = parse(&text);
        let rel = path.strip_prefix(root()).unwrap_or(path).display();
        let errors = syntax_errors(&text);
        let root_node = tree.root_node();
        if errors.iter().all(|c| *c == Code::ReservedWord) && !errors.is_empty() {
            // A reserved word where only a name can go: tree-sitter reads
            // it as the name (its reserved words need ABI 15, which editors
            // before Neovim 0.11 cannot load; see editors/README.md).
            reserved_only += 1;
        } else if !errors.is_empty() {
            invalid += 1;
            if !root_node.has_error() {
                failures.push(format!(
                    "{rel}: pfir reports a syntax error ({errors:?}), tree-sitter none"
                ));
            }
        } else if root_node.has_error() {
            failures.push(format!("{rel}: {}", first_error(&tree, &text)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The corpus of mistakes is there: the check above ran both ways.
    assert!(invalid > 20, "only {invalid} files with syntax errors");
    assert!(reserved_only < 10, "{reserved_only} files skipped");
}

/// Where the first ERROR or MISSING node is, and its text.
fn first_error(tree: &Tree, text: &[u8]) -> String {
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            let p = node.start_position();
            let end = node.end_byte().min(node.start_byte() + 60);
            return format!(
                "{} at {}:{}: {:?}",
                if node.is_missing() {
                    "MISSING"
                } else {
                    "ERROR"
                },
                p.row + 1,
                p.column + 1,
                String::from_utf8_lossy(&text[node.start_byte()..end])
            );
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return "no error node found".into();
            }
        }
    }
}

#[test]
fn queries_compile_against_the_grammar() {
    for (name, source) in [
        ("highlights", tree_sitter_pfir::HIGHLIGHTS_QUERY),
        ("folds", tree_sitter_pfir::FOLDS_QUERY),
        ("indents", tree_sitter_pfir::INDENTS_QUERY),
        ("locals", tree_sitter_pfir::LOCALS_QUERY),
    ] {
        if let Err(e) = Query::new(&language(), source) {
            panic!("queries/{name}.scm: {e}");
        }
    }
}

/// The highlight captures of `text`, as (captured text, capture name).
fn highlights(text: &str) -> Vec<(String, String)> {
    let query = Query::new(&language(), tree_sitter_pfir::HIGHLIGHTS_QUERY).unwrap();
    let tree = parse(text.as_bytes());
    let mut cursor = QueryCursor::new();
    let mut out = Vec::new();
    let mut captures = cursor.captures(&query, tree.root_node(), text.as_bytes());
    while let Some((m, i)) = captures.next() {
        let c = m.captures[*i];
        out.push((
            c.node.utf8_text(text.as_bytes()).unwrap().to_string(),
            query.capture_names()[c.index as usize].to_string(),
        ));
    }
    out
}

#[test]
fn highlights_mark_test_directives_and_code() {
    let text = "// RUN: pfir opt %s | FileCheck %s\n\
                // CHECK-NEXT: manual {\n\
                // ERR-LABEL: x\n\
                // -----\n\
                // ------\n\
                // Note: prose\n\
                orchestration func main(in n: i64) -> task_id {\n  \
                a = 1 // expected-error@+1 {{unknown `m`}}\n  \
                t = submit k(deps=[a])\n  \
                return system.task_invalid()\n\
                }\n";
    let got = highlights(text);
    let has = |text: &str, capture: &str| {
        got.iter()
            .any(|(t, c)| t.trim() == text && c.as_str() == capture)
    };
    for (t, c) in [
        ("RUN:", "keyword.directive"),
        ("CHECK-NEXT:", "keyword.directive"),
        ("ERR-LABEL:", "keyword.directive"),
        ("-----", "keyword.directive"),
        ("expected-error@+1", "keyword.directive"),
        ("{{unknown `m`}}", "string.special"),
        ("orchestration", "keyword.modifier"),
        ("in", "keyword.modifier"),
        ("func", "keyword.function"),
        ("main", "function"),
        ("n", "variable.parameter"),
        ("task_id", "type.builtin"),
        ("submit", "keyword"),
        ("k", "function.call"),
        ("deps", "property"),
        ("system.task_invalid", "function.builtin"),
        ("return", "keyword.return"),
        ("1", "constant.numeric"),
    ] {
        assert!(has(t, c), "`{t}` is not highlighted as {c}: {got:?}");
    }
    // Prose and a longer dash line are plain comments.
    for t in ["------", "Note:"] {
        assert!(
            !got.iter()
                .any(|(x, c)| x.trim() == t && c == "keyword.directive"),
            "`{t}` is highlighted as a directive: {got:?}"
        );
    }
}

/// Every reserved word of docs/language.md is a token of the grammar, so
/// that the highlights can mark it: an anonymous node (`func`), or a named
/// node that is only that word (`true`; `break` is `break_statement`).
#[test]
fn every_reserved_word_is_a_keyword_of_the_grammar() {
    let lang = language();
    let words = super::editor_grammar::reserved_words();
    assert_eq!(words.len(), 48, "{words:?}");
    for w in &words {
        let known = lang.id_for_node_kind(w, false) != 0
            || lang.id_for_node_kind(w, true) != 0
            || lang.id_for_node_kind(&format!("{w}_statement"), true) != 0;
        assert!(known, "`{w}` is not a keyword of the tree-sitter grammar");
    }
}
