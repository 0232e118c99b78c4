//! The editor support in `editors/vscode/`: the TextMate grammar's own tests
//! (vscode-tmgrammar-test assertions and snapshots) and the extension's unit
//! tests run through `npm test` when `node`, `npm` and the installed
//! `node_modules` (`npm ci` in `editors/vscode`, done by `.ci/run`) are
//! present, and are reported as skipped otherwise. The reserved-word check
//! below needs no Node.

use pfir::lexer::{Tok, lex};
use std::path::{Path, PathBuf};
use std::process::Command;

fn vscode_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode")
}

/// Why the npm tests cannot run here, if they cannot.
fn npm_unavailable(dir: &Path) -> Option<String> {
    for tool in ["node", "npm"] {
        match Command::new(tool).arg("--version").output() {
            Ok(out) if out.status.success() => {}
            _ => return Some(format!("`{tool}` is not installed")),
        }
    }
    for bin in ["vscode-tmgrammar-test", "vscode-tmgrammar-snap", "esbuild"] {
        if !dir.join("node_modules/.bin").join(bin).exists() {
            return Some(format!(
                "{bin} is not installed (run `npm ci` in editors/vscode)"
            ));
        }
    }
    None
}

#[test]
fn grammar_and_extension_npm_tests_pass() {
    let dir = vscode_dir();
    if let Some(why) = npm_unavailable(&dir) {
        crate::support::skipped("editor_grammar::grammar_and_extension_npm_tests_pass", &why);
        return;
    }
    let out = Command::new("npm")
        .args(["test", "--silent"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("npm runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "`npm test` in editors/vscode failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    // The runners name every file they checked; make sure none was skipped.
    for file in [
        "test/assertions/code.tmtest",
        "test/assertions/directives.tmtest",
        "test/snapshots/every_construct.tmtest",
    ] {
        assert!(stdout.contains(file), "{file} was not run:\n{stdout}");
    }
    // The bundle's tests ran on the bundle `npm run bundle` just wrote.
    assert!(
        stdout.contains("the bundle loads and exports activate and deactivate"),
        "the bundle tests did not run:\n{stdout}"
    );
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
