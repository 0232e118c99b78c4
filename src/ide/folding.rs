//! Folding ranges, from the token stream and the comments, so that they
//! exist even where the document does not parse: every `{ ... }` spanning
//! lines (a function's when it opens a function body), runs of two or more
//! comment lines (runs of CHECK lines apart), and each `// -----` chunk of a
//! split document.

use crate::ide::directives::{CommentKind, scan_comment};
use crate::ide::document::{Document, LexClass};
use std::ops::Range;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Chunk,
    Function,
    Block,
    Comment,
    /// A run of FileCheck directive lines.
    CheckLines,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    /// From the construct's start (`{` for a block, the function's first
    /// token for a function) to the end of its last line's text.
    pub range: Range<usize>,
    pub kind: FoldKind,
}

fn spans_lines(text: &str, range: &Range<usize>) -> bool {
    text.get(range.clone()).is_some_and(|t| t.contains('\n'))
}

pub fn folding_ranges(doc: &Document) -> Vec<Fold> {
    let text = &*doc.text;
    let mut out = Vec::new();
    for chunk in &doc.chunks {
        let mut open: Vec<usize> = Vec::new();
        for t in chunk.tokens() {
            match t.class {
                LexClass::Open(b'{') => open.push(t.range().start),
                LexClass::Close(b'}') => {
                    let Some(start) = open.pop() else { continue };
                    let block = start..t.range().end;
                    if !spans_lines(text, &block) {
                        continue;
                    }
                    // Functions are in source order: a binary search.
                    let functions = &chunk.index.functions;
                    let function = functions
                        .get(functions.partition_point(|f| f.body.start < start))
                        .filter(|f| f.body.start == start);
                    out.push(match function {
                        Some(f) => Fold {
                            range: f.range.start.min(start)..t.range().end,
                            kind: FoldKind::Function,
                        },
                        None => Fold {
                            range: block,
                            kind: FoldKind::Block,
                        },
                    });
                }
                _ => {}
            }
        }
        // Runs of whole-line comments, CHECK lines apart from the others.
        let mut run: Option<(Range<usize>, bool, usize)> = None;
        let flush = |run: &mut Option<(Range<usize>, bool, usize)>, out: &mut Vec<Fold>| {
            if let Some((range, checks, lines)) = run.take()
                && lines >= 2
            {
                out.push(Fold {
                    range,
                    kind: if checks {
                        FoldKind::CheckLines
                    } else {
                        FoldKind::Comment
                    },
                });
            }
        };
        let mut prev_line_end = None;
        for c in &chunk.comments {
            let line_start = doc.line_start(c.start);
            let whole_line = text
                .get(line_start..c.start)
                .is_some_and(|p| p.trim().is_empty());
            if !whole_line {
                flush(&mut run, &mut out);
                prev_line_end = None;
                continue;
            }
            let (kind, _) = scan_comment(text, c.clone(), &doc.check_prefixes);
            let checks = kind == CommentKind::Check;
            // The comment continues the run when it is on the next line.
            let adjacent = prev_line_end.is_some_and(|end: usize| {
                // One line break (`\n`, `\r\n` or a lone `\r`) between them.
                text.get(end..line_start).is_some_and(|gap| {
                    !gap.is_empty() && fsutil::lines::strip_line_break(gap).is_empty()
                })
            });
            match &mut run {
                Some((range, run_checks, lines)) if adjacent && *run_checks == checks => {
                    range.end = c.end;
                    *lines += 1;
                }
                _ => {
                    flush(&mut run, &mut out);
                    run = Some((c.clone(), checks, 1));
                }
            }
            prev_line_end = Some(c.end);
        }
        flush(&mut run, &mut out);
        if doc.chunks.len() > 1 {
            let body = text.get(chunk.range.clone()).unwrap_or("");
            let trimmed = body.trim_end();
            let lead = trimmed.len() - trimmed.trim_start().len();
            let range = chunk.range.start + lead..chunk.range.start + trimmed.len();
            if spans_lines(text, &range) {
                out.push(Fold {
                    range,
                    kind: FoldKind::Chunk,
                });
            }
        }
    }
    out.sort_by_key(|f| (f.range.start, std::cmp::Reverse(f.range.end), f.kind as u8));
    out
}
