//! The editor support in `editors/vscode/`: the TextMate grammar against the
//! language's reserved words (no Node needed). Its own tests and the
//! extension's, run through `npm test`, are in `tests/needs_tools/npm.rs`.

use pfir::lexer::{Tok, lex};
use std::path::{Path, PathBuf};

fn vscode_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode")
}

/// The reserved words of `docs/language.md` (the table under "Reserved
/// words"), each checked to be a keyword for the lexer.
pub(crate) fn reserved_words() -> Vec<String> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md"))
            .expect("docs/language.md");
    let table = doc
        .split("### Reserved words")
        .nth(1)
        .expect("a Reserved words section")
        .split("\n\n")
        .find(|block| block.trim_start().starts_with('|'))
        .expect("the reserved-word table");
    let mut words = Vec::new();
    for row in table.lines().skip(2) {
        let Some(cell) = row.split('|').nth(2) else {
            continue;
        };
        for word in cell.split('`').skip(1).step_by(2) {
            words.push(word.to_string());
        }
    }
    words
}

#[test]
fn grammar_highlights_every_reserved_word_as_such() {
    let words = reserved_words();
    assert_eq!(words.len(), 31 + 17, "the table changed: {words:?}");
    let grammar: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vscode_dir().join("syntaxes/pfir.tmLanguage.json")).unwrap(),
    )
    .expect("the grammar is valid JSON");
    let repo = &grammar["repository"];
    // Every `match` regex of the rules that scope reserved words.
    let mut regexes = String::new();
    for rule in ["keywords", "types", "constants", "submit"] {
        collect_matches(&repo[rule], &mut regexes);
    }
    // Lookaheads that exclude reserved words from names do not count.
    let regexes = without_negative_lookaheads(&regexes);
    for word in &words {
        let tokens = lex(word, 0).expect("a reserved word lexes");
        assert!(
            tokens.len() == 1 && !matches!(tokens[0].1, Tok::Ident(_)),
            "`{word}` is not a keyword for the lexer"
        );
        let alternative = regexes.split(['(', ')', '|', ':', '?', '\n']).any(|alt| {
            let alt = alt.trim_start_matches("\\b").trim_end_matches("\\b");
            alt == word
        });
        assert!(
            alternative,
            "the grammar does not scope the reserved word `{word}`"
        );
    }
}

/// `text` without its `(?!...)` groups (nested parentheses included).
fn without_negative_lookaheads(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("(?!") {
        out.push_str(&rest[..start]);
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn negative_lookaheads_are_removed_whole() {
    assert_eq!(
        without_negative_lookaheads(r"\b(submit)(?:\s+(?!(?:in|out)\b)x)?"),
        r"\b(submit)(?:\s+x)?"
    );
}

fn collect_matches(rule: &serde_json::Value, out: &mut String) {
    if let Some(m) = rule["match"].as_str() {
        out.push_str(m);
        out.push('\n');
    }
    if let Some(m) = rule["begin"].as_str() {
        out.push_str(m);
        out.push('\n');
    }
    if let Some(patterns) = rule["patterns"].as_array() {
        for p in patterns {
            collect_matches(p, out);
        }
    }
}
