//! Hover and inlay hints.
//!
//! Hover, most specific first: a variable (its type and what introduced it),
//! a function name or callee (its signature), an op (a built-in op's
//! signature and what it does; any other op has an unknown result type), a
//! loop header (the `expand-manual-phase-fence` decision for it: the
//! pass's own remarks, see [`crate::ide::decisions`]), a keyword with a
//! meaning of its own (`manual`, `auto`, `submit`, loop kinds, ...); in a
//! comment, a test directive (`RUN:`, `CHECK-NEXT:`, `expected-error@+1`).
//!
//! Inlay hints: `: type` after every binding and iter-arg written without a
//! type (skipping `_` and values of unknown type), and before each loop the
//! pass would rewrite, the barrier statement it would insert.

use crate::ide::builtins;
use crate::ide::decisions::PassStatus;
use crate::ide::directives::{CommentKind, PieceKind, scan_comment};
use crate::ide::document::{Chunk, Document, LexClass};
use crate::ide::index::{LoopInfo, Target, VarKind};
use crate::vocab::FuncKind;
use std::ops::Range;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverInfo {
    /// What the hover is about.
    pub range: Range<usize>,
    pub markdown: String,
}

impl HoverInfo {
    /// The hover as plain text, for a client that shows no Markdown: code
    /// blocks without their fences, inline code without its backticks,
    /// bold text without its asterisks.
    pub fn plain_text(&self) -> String {
        let mut out = String::with_capacity(self.markdown.len());
        for (i, line) in self.markdown.split('\n').enumerate() {
            if line.starts_with("```") {
                continue;
            }
            if i > 0 && !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&line.replace("**", "").replace('`', ""));
        }
        out
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InlayHintKind {
    /// `: i64` after a binding.
    Type,
    /// The barrier statement the pass would insert before a loop.
    Barrier,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// Where the hint is shown (before the character at this offset).
    pub offset: usize,
    pub label: String,
    pub kind: InlayHintKind,
    pub tooltip: Option<String>,
}

fn code(text: &str) -> String {
    format!("```pfir\n{text}\n```")
}

pub fn hover(doc: &Document, offset: usize) -> Option<HoverInfo> {
    let chunk = doc.chunk_at(offset)?;
    if let Some(comment) = doc.comment_at(offset) {
        return directive_hover(doc, comment, offset);
    }
    let ix = &chunk.index;
    if let Some(occ) = ix.occurrence_at(offset) {
        let markdown = match occ.target {
            Target::Var(v) => {
                let v = ix.vars.get(v as usize)?;
                let mut md = code(&format!("{}: {}", v.name, v.ty));
                md.push_str(&format!("\n\n{}", v.kind.describe()));
                if v.kind == VarKind::Binding && !v.annotated {
                    md.push_str(" (type inferred)");
                }
                md
            }
            Target::Function(f) => {
                let f = ix.functions.get(f as usize)?;
                code(&f.signature)
            }
        };
        return Some(HoverInfo {
            range: occ.range.clone(),
            markdown,
        });
    }
    let i = chunk
        .tokens()
        .partition_point(|t| t.range().start <= offset);
    let tok = i
        .checked_sub(1)
        .and_then(|j| chunk.tokens().get(j))
        .filter(|t| offset <= t.range().end);
    if let Some(t) = tok
        && t.class == LexClass::OpName
    {
        let name = doc.text.get(t.range()).unwrap_or("");
        let markdown = match builtins::builtin_op(name) {
            Some(op) => format!("{}\n\n{}", code(op.signature()), op.doc()),
            None => format!(
                "{}\n\nAn op pfir does not know: its result type is unknown unless the binding \
                 is annotated (`t: tensor<[64], f32> = {name}(...)`).",
                code(&format!("{name}(...)"))
            ),
        };
        return Some(HoverInfo {
            range: t.range(),
            markdown,
        });
    }
    if let Some(l) = loop_at(chunk, offset) {
        return Some(HoverInfo {
            range: l.header.clone(),
            markdown: decision_markdown(chunk, l),
        });
    }
    let t = tok?;
    let word = doc.text.get(t.range())?;
    let doc_text = builtins::keyword_doc(word)?;
    Some(HoverInfo {
        range: t.range(),
        markdown: format!("`{word}`: {doc_text}"),
    })
}

/// What the test directive under `offset` means.
fn directive_hover(doc: &Document, comment: Range<usize>, offset: usize) -> Option<HoverInfo> {
    let (kind, pieces) = scan_comment(&doc.text, comment, &doc.check_prefixes);
    let (range, _) = pieces
        .into_iter()
        .find(|(r, k)| *k == PieceKind::Directive && r.start <= offset && offset <= r.end)?;
    let word = doc.text.get(range.clone())?.trim_end_matches(':');
    let key = match kind {
        CommentKind::Check => doc
            .check_prefixes
            .iter()
            .filter(|p| word.starts_with(p.as_str()))
            .max_by_key(|p| p.len())
            .map(|p| word[p.len()..].trim_start_matches('-'))?,
        CommentKind::Expected => word.split('@').next()?,
        _ => word,
    };
    Some(HoverInfo {
        markdown: format!("`{word}`: {}", builtins::directive_doc(key)?),
        range,
    })
}

/// The innermost loop whose header holds `offset`.
fn loop_at(chunk: &Chunk, offset: usize) -> Option<&LoopInfo> {
    chunk
        .index
        .loops
        .iter()
        .filter(|l| l.header.start <= offset && offset < l.header.end)
        .max_by_key(|l| l.header.start)
}

const PASS: &str = "**expand-manual-phase-fence**";

/// The pass's decision for loop `l`, in Markdown.
pub fn decision_markdown(chunk: &Chunk, l: &LoopInfo) -> String {
    let kind = chunk.index.functions.get(l.func as usize).map(|f| f.kind);
    if !l.is_for {
        return format!("{PASS}: `while` loops are never rewritten (only `for` loops are).");
    }
    if kind != Some(FuncKind::Orchestration) {
        return format!(
            "{PASS}: not considered: the pass only rewrites loops of `orchestration` functions."
        );
    }
    let decisions = chunk.decisions();
    if let PassStatus::NotRun(why) = &decisions.status {
        return format!("{PASS}: no decision: {why}.");
    }
    let number = chunk.index.loops.iter().position(|x| std::ptr::eq(x, l));
    let Some(d) = number.and_then(|n| decisions.of(n)) else {
        return if l.manual {
            format!(
                "{PASS}: nothing to decide here: no `submit` of this loop depends on exactly one \
                 `array<task_id, N>` of its own (or an enclosing loop already compresses them)."
            )
        } else {
            format!("{PASS}: not considered: the loop is not inside a `manual` scope.")
        };
    };
    let verdict = if d.barriers.is_empty() {
        "stays direct"
    } else {
        "compressed"
    };
    let mut md = format!("{PASS}: {verdict}\n");
    for r in &d.remarks {
        md.push_str(&format!("\n- {r}"));
    }
    for b in &d.barriers {
        md.push_str(&format!(
            "\n\ninserts before the loop:\n{}",
            code(&b.statement())
        ));
    }
    md
}

pub fn inlay_hints(doc: &Document, range: Range<usize>) -> Vec<InlayHint> {
    let mut out = Vec::new();
    let inside = |o: usize| range.start <= o && o <= range.end;
    for chunk in &doc.chunks {
        if chunk.range.end < range.start || chunk.range.start > range.end {
            continue;
        }
        for v in &chunk.index.vars {
            let shows = matches!(v.kind, VarKind::Binding | VarKind::IterArg)
                && !v.annotated
                && v.ty_known
                && v.name != "_"
                && !v.name_range.is_empty()
                && inside(v.name_range.end);
            if shows {
                out.push(InlayHint {
                    offset: v.name_range.end,
                    label: format!(": {}", v.ty),
                    kind: InlayHintKind::Type,
                    tooltip: None,
                });
            }
        }
        let decisions = chunk.decisions();
        for (n, l) in chunk.index.loops.iter().enumerate() {
            let Some(d) = decisions.of(n) else { continue };
            if !inside(l.stmt.start) {
                continue;
            }
            for (b, remark) in d.barriers.iter().zip(
                d.remarks
                    .iter()
                    .filter(|r| r.starts_with("inserted phase fence barrier")),
            ) {
                out.push(InlayHint {
                    offset: l.stmt.start,
                    label: b.statement(),
                    kind: InlayHintKind::Barrier,
                    tooltip: Some(remark.clone()),
                });
            }
        }
    }
    out.sort_by_key(|h| h.offset);
    out
}
