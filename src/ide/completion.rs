//! Completion: what may be typed at an offset.
//!
//! In code: after `submit`, the functions of the chunk; after `for x in`,
//! the loop kinds; after `:`, `->`, `<` or `,` inside a type, the type
//! names; elsewhere keywords (a few as snippets), type names, built-in ops,
//! functions with their parameters as a snippet, and the variables visible
//! at the cursor (the innermost of each name, as lowering resolves it).
//!
//! In a comment: as its first word, the directives (`RUN:`, every check
//! prefix with each suffix, `COM:`, `expected-*` with a `{{...}}` snippet);
//! in a `RUN:` line, the `pfir opt` options, the tools, and pass names after
//! `--passes=` / `--remarks=` / `--print-ir-after=`.
//!
//! The client filters by what is typed; every item says which range it
//! replaces (the word before the cursor).

use crate::ide::builtins::{self, BUILTIN_OPS, KEYWORDS, OPT_OPTIONS};
use crate::ide::directives::{CommentKind, EXPECTED_KINDS, scan_comment};
use crate::ide::document::{Chunk, Document, LexClass};
use crate::ide::index::VarKind;
use std::ops::Range;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Keyword,
    Type,
    LoopKind,
    Op,
    Function,
    Variable,
    Parameter,
    /// A RUN / CHECK / `expected-*` directive.
    Directive,
    /// A command-line option or tool of a RUN line.
    Option,
    Pass,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    pub insert_text: String,
    /// `insert_text` is a snippet (`${1:x}` placeholders).
    pub is_snippet: bool,
    /// The text the item replaces (the word before the cursor).
    pub replace: Range<usize>,
}

fn item(
    label: impl Into<String>,
    kind: CompletionKind,
    detail: Option<String>,
    replace: &Range<usize>,
) -> Completion {
    let label = label.into();
    Completion {
        insert_text: label.clone(),
        label,
        kind,
        detail,
        is_snippet: false,
        replace: replace.clone(),
    }
}

fn snippet(mut c: Completion, text: impl Into<String>) -> Completion {
    c.insert_text = text.into();
    c.is_snippet = true;
    c
}

/// The start of the word ending at `offset`: bytes for which `part` holds.
fn word_start(text: &str, offset: usize, part: impl Fn(u8) -> bool) -> usize {
    let bytes = text.as_bytes();
    let mut i = offset;
    while i > 0 && part(bytes[i - 1]) {
        i -= 1;
    }
    i
}

pub fn completions(doc: &Document, offset: usize) -> Vec<Completion> {
    let text = &*doc.text;
    if offset > text.len() || !text.is_char_boundary(offset) {
        return Vec::new();
    }
    if let Some(comment) = doc.comment_at(offset) {
        return in_comment(doc, comment, offset);
    }
    match doc.chunk_at(offset) {
        Some(chunk) => in_code(doc, chunk, offset),
        None => Vec::new(),
    }
}

fn in_comment(doc: &Document, comment: Range<usize>, offset: usize) -> Vec<Completion> {
    let text = &*doc.text;
    let start = word_start(text, offset, |b| !b.is_ascii_whitespace());
    let replace = start..offset;
    let before = text.get(comment.start..start).unwrap_or("");
    let mut out = Vec::new();
    if before.trim_end() == "//" || before == "//" {
        let run = format!("{}:", lit::config::directive::RUN);
        out.push(item(run, CompletionKind::Directive, None, &replace));
        out.push(item(
            format!("{}:", crate::ide::directives::COMMENT_DIRECTIVE),
            CompletionKind::Directive,
            Some("a comment FileCheck ignores".into()),
            &replace,
        ));
        for p in &doc.check_prefixes {
            out.push(item(
                format!("{p}:"),
                CompletionKind::Directive,
                None,
                &replace,
            ));
            for s in filecheck::DIRECTIVE_SUFFIXES {
                out.push(item(
                    format!("{p}-{s}:"),
                    CompletionKind::Directive,
                    None,
                    &replace,
                ));
            }
            let count = item(
                format!("{p}-COUNT-"),
                CompletionKind::Directive,
                None,
                &replace,
            );
            out.push(snippet(count, format!("{p}-COUNT-${{1:n}}: $0")));
        }
        for k in EXPECTED_KINDS {
            let c = item(
                format!("expected-{k}"),
                CompletionKind::Directive,
                Some(format!(
                    "a {k} `--verify-diagnostics` expects (`@+N`: N lines below)"
                )),
                &replace,
            );
            out.push(snippet(c, format!("expected-{k} {{{{${{1:message}}}}}}")));
        }
        return out;
    }
    let (kind, pieces) = scan_comment(text, comment, &doc.check_prefixes);
    let after_directive = pieces.first().is_some_and(|(r, _)| r.end <= start);
    if kind != CommentKind::Run || !after_directive {
        return out;
    }
    let word = text.get(start..offset).unwrap_or("");
    for key in ["--passes=", "--remarks=", "--print-ir-after="] {
        if word.starts_with(key) {
            let from = word.rfind([',', '=']).map_or(start, |i| start + i + 1);
            let replace = from..offset;
            for p in crate::passes::known_passes() {
                out.push(item(p, CompletionKind::Pass, None, &replace));
            }
            return out;
        }
    }
    for (opt, what) in OPT_OPTIONS {
        out.push(item(
            opt,
            CompletionKind::Option,
            Some(what.into()),
            &replace,
        ));
    }
    for (tool, what) in [
        ("pfir", "the pfir binary"),
        ("opt", "pfir's `opt` subcommand"),
        ("fmt", "pfir's `fmt` subcommand"),
        (
            "FileCheck",
            "match the output against this file's CHECK lines",
        ),
        ("not", "expect the command to fail"),
    ] {
        out.push(item(
            tool,
            CompletionKind::Option,
            Some(what.into()),
            &replace,
        ));
    }
    out
}

fn in_code(doc: &Document, chunk: &Chunk, offset: usize) -> Vec<Completion> {
    let text = &*doc.text;
    let start = word_start(text, offset, |b| {
        b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
    });
    let replace = start..offset;
    // The tokens before the word being typed.
    let i = chunk.tokens().partition_point(|t| t.range().end <= start);
    let prev = |back: usize| i.checked_sub(back).and_then(|j| chunk.tokens().get(j));
    let prev_kw = prev(1).map(|t| t.keyword(text));
    let prev_text = prev(1).and_then(|t| text.get(t.range()));
    let mut out = Vec::new();
    let ix = &chunk.index;
    let functions = |out: &mut Vec<Completion>| {
        for f in &ix.functions {
            let args: Vec<String> = f
                .param_names
                .iter()
                .enumerate()
                .map(|(n, p)| format!("${{{}:{p}}}", n + 1))
                .collect();
            let c = item(
                f.name.clone(),
                CompletionKind::Function,
                Some(f.signature.clone()),
                &replace,
            );
            out.push(snippet(c, format!("{}({})", f.name, args.join(", "))));
        }
    };
    if prev_kw == Some("submit") {
        functions(&mut out);
        return out;
    }
    if prev_kw == Some("in") && prev(3).map(|t| t.keyword(text)) == Some("for") {
        for k in builtins::LOOP_KINDS {
            let c = item(k.keyword(), CompletionKind::LoopKind, None, &replace);
            out.push(snippet(c, format!("{}(${{1:n}})", k.keyword())));
        }
        return out;
    }
    let in_type = matches!(prev_text, Some(":" | "->" | "<"))
        || (prev_text == Some(",") && inside_angle(text, chunk, i));
    if in_type {
        for t in builtins::type_names() {
            out.push(item(t, CompletionKind::Type, None, &replace));
        }
        if prev_text != Some("<") {
            return out;
        }
    }
    for k in KEYWORDS.iter().chain(builtins::KEYWORD_OPERATORS.iter()) {
        let c = item(*k, CompletionKind::Keyword, None, &replace);
        out.push(match *k {
            "for" => snippet(
                c,
                "for ${1:i} in ${2|range,parallel,unroll|}(${3:n}) {\n\t$0\n}",
            ),
            "while" => snippet(c, "while ${1:cond} {\n\t$0\n}"),
            "if" => snippet(c, "if ${1:cond} {\n\t$0\n}"),
            "manual" => snippet(c, "manual {\n\t$0\n}"),
            "iter" => snippet(c, "iter(${1:x} = ${2:init})"),
            _ => c,
        });
    }
    if !in_type {
        for t in builtins::type_names() {
            out.push(item(t, CompletionKind::Type, None, &replace));
        }
    }
    for op in BUILTIN_OPS {
        let c = item(
            op.name(),
            CompletionKind::Op,
            Some(op.signature().into()),
            &replace,
        );
        out.push(snippet(c, op.snippet()));
    }
    functions(&mut out);
    out.extend(variables_at(chunk, offset, &replace));
    out
}

/// Whether the tokens before index `i` are inside a type's `<...>`: a `<`
/// comes before any `>` or bracket, looking back a few tokens.
fn inside_angle(text: &str, chunk: &Chunk, i: usize) -> bool {
    for j in (i.saturating_sub(16)..i).rev() {
        let Some(t) = chunk.tokens().get(j) else {
            break;
        };
        match (t.class, text.get(t.range())) {
            (_, Some("<")) => return true,
            (_, Some(">")) | (LexClass::Open(_) | LexClass::Close(_), _) => return false,
            _ => {}
        }
    }
    false
}

/// The variables visible at `offset`: the innermost definition of each name
/// of the function around it.
fn variables_at(chunk: &Chunk, offset: usize, replace: &Range<usize>) -> Vec<Completion> {
    let ix = &chunk.index;
    let Some(f) = ix.function_at(offset) else {
        return Vec::new();
    };
    let mut best: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    for (i, v) in ix.vars.iter().enumerate() {
        let visible = v.func == f as u32
            && v.name != "_"
            && v.visible.start <= offset
            && offset < v.visible.end;
        if !visible {
            continue;
        }
        let e = best.entry(v.name.as_str()).or_insert(i);
        if ix.vars[*e].name_range.start < v.name_range.start {
            *e = i;
        }
    }
    let mut picked: Vec<usize> = best.into_values().collect();
    picked.sort_by_key(|&i| ix.vars[i].name_range.start);
    picked
        .into_iter()
        .map(|i| {
            let v = &ix.vars[i];
            let kind = if v.kind == VarKind::Parameter {
                CompletionKind::Parameter
            } else {
                CompletionKind::Variable
            };
            item(
                v.name.clone(),
                kind,
                Some(format!("{} ({})", v.ty, v.kind.describe())),
                replace,
            )
        })
        .collect()
}
