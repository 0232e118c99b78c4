//! Unclosed and mismatched brackets, found before parsing and repaired so
//! that the parser sees balanced `()`, `[]` and `{}` (rustc's approach).
//!
//! A first, cheap pass matches brackets with a stack. Only when it finds a
//! problem does the guided pass run: it uses the line structure to decide
//! *which* bracket was left open, as a person reading the indentation
//! would, reports one error per missing or stray bracket (naming it, with a
//! label on the bracket that is never closed and one where the problem
//! showed), and repairs the token stream:
//!
//! - a `}` first on its line that is indented like an *outer* open `{`'s
//!   line closes that one; the `{`s opened after it are unclosed;
//! - a line that starts at or left of the line of an open `(` or `[` that
//!   was opened on an earlier line (and does not start with its closer)
//!   ends that bracket: it is unclosed;
//! - `func` first on its line ends every open bracket, and a `{` every
//!   open `(` and `[` (no block is ever inside them);
//! - a closer that matches no open bracket is stray and dropped;
//! - a closer of the wrong kind on the line of the open bracket is a typo
//!   for the right one (`f(a}`); on another line, the brackets opened after
//!   the one it matches are unclosed;
//! - a whole function header on one line without its `{`, followed by a
//!   line that does not start a function, misses its body's `{`;
//! - at the end of the file every open bracket is unclosed.
//!
//! When a closer matches nothing after a `}` that closed a `{` on a line
//! indented less than it, that `}` was most likely the extra one: the pass
//! runs again with it dropped instead.
//!
//! An unclosed `{` alone on its line is dropped (a stray brace); any other
//! unclosed bracket gets a closer inserted where the problem showed.
//! Brackets after an unterminated string (which runs to the end of the
//! file) are closed silently: the string is the mistake.

use super::layout::Layout;
use crate::diagnostics::{Applicability, Code, Diagnostic};
use crate::lexer::{Spanned, Tok};
use crate::span::Span;

/// The three bracket kinds, as an index.
const PAREN: usize = 0;
const BRACKET: usize = 1;
const BRACE: usize = 2;
const OPEN: [&str; 3] = ["(", "[", "{"];
const CLOSE: [&str; 3] = [")", "]", "}"];

/// How many open brackets a `}` looks through for the `{` indented like it
/// (a bound, so that a deep nest of misindented braces stays linear).
const MAX_INDENT_SEARCH: usize = 256;

fn opener(t: &Tok<'_>) -> Option<usize> {
    match t {
        Tok::LParen => Some(PAREN),
        Tok::LBracket => Some(BRACKET),
        Tok::LBrace => Some(BRACE),
        _ => None,
    }
}

fn closer(t: &Tok<'_>) -> Option<usize> {
    match t {
        Tok::RParen => Some(PAREN),
        Tok::RBracket => Some(BRACKET),
        Tok::RBrace => Some(BRACE),
        _ => None,
    }
}

fn closer_token(kind: usize) -> Tok<'static> {
    [Tok::RParen, Tok::RBracket, Tok::RBrace][kind].clone()
}

/// Whether token `i` starts a function: `func name(`, or a function kind
/// before it, first on its line.
fn starts_function(tokens: &[Spanned<'_>], i: usize, layout: &Layout<'_>) -> bool {
    let first_on_line = i == 0 || layout.line(tokens[i - 1].2) != layout.line(tokens[i].0);
    let func_at = match tokens[i].1 {
        Tok::Func => i,
        Tok::Orchestration | Tok::InCore | Tok::Aic | Tok::Aiv | Tok::Group | Tok::Opaque => i + 1,
        _ => return false,
    };
    // `func name(`: not a misplaced `func` (`func = 1`).
    first_on_line
        && matches!(
            (
                tokens.get(func_at),
                tokens.get(func_at + 1),
                tokens.get(func_at + 2)
            ),
            (
                Some((_, Tok::Func, _)),
                Some((_, Tok::Ident(_), _)),
                Some((_, Tok::LParen, _))
            )
        )
}

/// Whether the brackets of `tokens` match, with no `func` inside brackets.
fn balanced(tokens: &[Spanned<'_>], layout: &Layout<'_>) -> bool {
    let mut stack = Vec::new();
    for (i, (_, t, _)) in tokens.iter().enumerate() {
        if let Some(k) = opener(t) {
            if k == BRACE && stack.last().is_some_and(|&top| top != BRACE) {
                return false;
            }
            stack.push(k);
        } else if let Some(k) = closer(t) {
            if stack.pop() != Some(k) {
                return false;
            }
        } else if matches!(t, Tok::UnterminatedStr) {
            return stack.is_empty();
        } else if !stack.is_empty() && starts_function(tokens, i, layout) {
            return false;
        }
    }
    stack.is_empty()
}

/// Returns `tokens` with balanced brackets and one diagnostic per bracket
/// that was missing or stray (none when they already matched).
pub fn balance<'i>(
    tokens: Vec<Spanned<'i>>,
    layout: &Layout<'_>,
) -> (Vec<Spanned<'i>>, Vec<Diagnostic>) {
    if balanced(&tokens, layout) {
        return (tokens, Vec::new());
    }
    let first = guided(&tokens, layout, None);
    // A `}` with nothing open, after a `}` indented deeper than the line it
    // closed: that earlier `}` was most likely the extra one. Run again
    // with it dropped.
    if let (Some(stray), Some(deeper)) = (first.first_stray, first.deeper_close)
        && deeper < stray
    {
        let second = guided(&tokens, layout, Some(deeper));
        return (second.out.into_iter().flatten().collect(), second.diags);
    }
    (first.out.into_iter().flatten().collect(), first.diags)
}

/// One guided pass over `tokens`, dropping the closer at `drop` (reported
/// as stray) when given.
fn guided<'l, 't, 'i>(
    tokens: &[Spanned<'i>],
    layout: &'l Layout<'t>,
    drop: Option<usize>,
) -> Guided<'l, 't, 'i> {
    let mut pass = Guided {
        layout,
        out: Vec::with_capacity(tokens.len() + 4),
        stack: Vec::new(),
        open_count: [0; 3],
        diags: Vec::new(),
        drop,
        first_stray: None,
        deeper_close: None,
    };
    let mut silent_from = None;
    for (i, tok) in tokens.iter().enumerate() {
        if silent_from.is_some() {
            pass.out.push(Some(tok.clone()));
            continue;
        }
        pass.step(tokens, i);
        if matches!(tok.1, Tok::UnterminatedStr) {
            silent_from = Some(tok.2);
        }
    }
    let eof = tokens.last().map_or(0, |t| t.2);
    while let Some(open) = pass.stack.pop() {
        let kind = pass.kind_of(open);
        pass.open_count[kind] -= 1;
        if silent_from.is_none() {
            let at = Span::new(eof, eof);
            pass.unclosed(open, kind, at, "the input ends here".to_string());
        }
        if pass.out[open].is_some() {
            pass.out.push(Some((eof, closer_token(kind), eof)));
        }
    }
    pass
}

struct Guided<'l, 't, 'i> {
    layout: &'l Layout<'t>,
    /// The repaired tokens; `None` for a dropped one.
    out: Vec<Option<Spanned<'i>>>,
    /// Indices into `out` of the open brackets.
    stack: Vec<usize>,
    /// How many brackets of each kind `stack` holds.
    open_count: [usize; 3],
    diags: Vec<Diagnostic>,
    /// The index of a closer to drop as stray (see [`balance`]).
    drop: Option<usize>,
    /// The index of the first closer that matched nothing.
    first_stray: Option<usize>,
    /// The index of the last `}` first on its line that closed a `{` whose
    /// line is indented less than it.
    deeper_close: Option<usize>,
}

impl<'i> Guided<'_, '_, 'i> {
    fn kind_of(&self, open: usize) -> usize {
        self.out[open]
            .as_ref()
            .and_then(|t| opener(&t.1))
            .unwrap_or(BRACE)
    }

    fn span_of(&self, open: usize) -> Span {
        self.out[open]
            .as_ref()
            .map_or(Span::default(), |t| Span::new(t.0, t.2))
    }

    fn line_indent(&self, offset: usize) -> usize {
        self.layout.indent_at(offset)
    }

    /// Reports the bracket at `open` as never closed, noticed at `at`. A
    /// `{` alone on its line is dropped; otherwise the caller inserts the
    /// closer.
    fn unclosed(&mut self, open: usize, kind: usize, at: Span, noticed: String) {
        let span = self.span_of(open);
        let alone = kind == BRACE && {
            let line = self.layout.line(span.start());
            let before = self.out[..open]
                .iter()
                .rev()
                .flatten()
                .next()
                .is_none_or(|t| self.layout.line(t.2) != line);
            let line_end = self.layout.line_end(span.start());
            let after = self.layout.slice(span.end(), line_end).trim();
            before && (after.is_empty() || after.starts_with("//"))
        };
        let name = OPEN[kind];
        let mut d = Diagnostic::error(format!("unclosed delimiter `{name}`"), span)
            .with_code(Code::UnclosedDelimiter)
            .with_label(format!("this `{name}` is never closed"))
            .with_secondary(at, noticed);
        if alone {
            d = d.with_suggestion(
                span,
                "",
                "remove this `{`: a block cannot stand on its own",
                Applicability::MaybeIncorrect,
            );
            self.out[open] = None;
        } else {
            d = d.with_help(format!("add the missing `{}`", CLOSE[kind]));
        }
        self.diags.push(d);
    }

    /// Closes every open bracket above stack height `keep`, each reported
    /// as unclosed, with closers inserted at `at_offset`.
    fn close_above(&mut self, keep: usize, at: Span, noticed: &dyn Fn(&Self) -> String) {
        while self.stack.len() > keep {
            let open = self.stack.pop().unwrap_or_default();
            let kind = self.kind_of(open);
            self.open_count[kind] -= 1;
            let text = noticed(self);
            self.unclosed(open, kind, at, text);
            if self.out[open].is_some() {
                let p = self.insert_point(at.start());
                self.out.push(Some((p, closer_token(kind), p)));
            }
        }
    }

    /// Where a closer inserted before the token at `offset` sits: just after
    /// the last kept token, so that it stays on that token's line.
    fn insert_point(&self, offset: usize) -> usize {
        self.out
            .iter()
            .rev()
            .flatten()
            .next()
            .map_or(offset, |t| t.2.min(offset))
    }

    /// When the line before token `i` (first on its line, outside every
    /// bracket) is a whole function header that does not end with `{`, and
    /// token `i` does not start a function, the body's `{` is missing:
    /// reported, and inserted at the end of the header line.
    fn missing_body_brace(&mut self, tokens: &[Spanned<'i>], i: usize) {
        let header_end = tokens[i - 1].2;
        let line = self.layout.line(header_end);
        let mut first = i - 1;
        while first > 0 && self.layout.line(tokens[first - 1].2) == line {
            first -= 1;
        }
        if matches!(tokens[i - 1].1, Tok::LBrace | Tok::RBrace)
            || !starts_function(tokens, first, self.layout)
            || starts_function(tokens, i, self.layout)
            || matches!(tokens[i].1, Tok::LBrace)
        {
            return;
        }
        let at = Span::new(header_end, header_end);
        let name = tokens[first..i]
            .iter()
            .find_map(|t| match t.1 {
                Tok::Ident(n) => Some(n),
                _ => None,
            })
            .unwrap_or("the function");
        self.diags.push(
            Diagnostic::error(format!("missing `{{` after the header of `{name}`"), at)
                .with_code(Code::UnclosedDelimiter)
                .with_label("the body's `{` belongs here")
                .with_suggestion(at, " {", "add `{`", Applicability::MaybeIncorrect),
        );
        self.stack.push(self.out.len());
        self.open_count[BRACE] += 1;
        self.out.push(Some((header_end, Tok::LBrace, header_end)));
    }

    fn step(&mut self, tokens: &[Spanned<'i>], i: usize) {
        let (l, tok, r) = &tokens[i];
        let (l, r) = (*l, *r);
        let here = Span::new(l, r);
        let first_on_line = i == 0 || self.layout.line(tokens[i - 1].2) != self.layout.line(l);
        self.line_start(tokens, i, first_on_line);
        if let Some(kind) = opener(tok) {
            self.open(tokens, i, kind);
            return;
        }
        let Some(kind) = closer(tok) else {
            self.out.push(Some(tokens[i].clone()));
            return;
        };
        // Nothing of its kind is open: a stray closer, dropped.
        let open = self.stack.last().filter(|_| self.open_count[kind] > 0);
        let Some(&top) = open.filter(|_| self.drop != Some(i)) else {
            self.first_stray.get_or_insert(i);
            self.diags.push(closer_error(
                format!("unexpected closing delimiter `{}`", CLOSE[kind]),
                here,
                format!("no `{}` is open here", OPEN[kind]),
                "",
                format!("remove this `{}`", CLOSE[kind]),
            ));
            return;
        };
        let top_kind = self.kind_of(top);
        if top_kind == kind {
            self.close_matching(tokens, i, top, first_on_line);
            return;
        }
        let top_span = self.span_of(top);
        let same_line = self.layout.line(top_span.start()) == self.layout.line(l);
        if same_line && top_kind != BRACE {
            // A typo for the right closer: read as it.
            self.diags.push(
                closer_error(
                    format!("mismatched closing delimiter `{}`", CLOSE[kind]),
                    here,
                    format!("does not close the `{}`", OPEN[top_kind]),
                    CLOSE[top_kind],
                    format!("close it with `{}`", CLOSE[top_kind]),
                )
                .with_secondary(top_span, format!("this `{}` is still open", OPEN[top_kind])),
            );
            self.stack.pop();
            self.open_count[top_kind] -= 1;
            self.out.push(Some((l, closer_token(top_kind), r)));
            return;
        }
        // It closes an outer bracket: the ones opened after it are unclosed.
        let depth = self
            .stack
            .iter()
            .rposition(|&o| self.kind_of(o) == kind)
            .unwrap_or_default();
        let close = CLOSE[kind];
        self.close_above(depth + 1, here, &|_| {
            format!("this `{close}` is read as closing an outer bracket")
        });
        self.stack.pop();
        self.open_count[kind] -= 1;
        self.out.push(Some(tokens[i].clone()));
    }

    /// Before token `i`: what a new function or a new line closes, and a
    /// function header's missing `{`.
    fn line_start(&mut self, tokens: &[Spanned<'i>], i: usize, first_on_line: bool) {
        let (l, tok, r) = &tokens[i];
        let here = Span::new(*l, *r);
        // `func` first on its line: every bracket still open is unclosed.
        if !self.stack.is_empty() && starts_function(tokens, i, self.layout) {
            self.close_above(0, here, &|_| "the next function starts here".to_string());
        }
        // A function header line without its `{`, followed by the body.
        if first_on_line && self.stack.is_empty() && i > 0 {
            self.missing_body_brace(tokens, i);
        }
        // A line starting at or left of an open `(`/`[` that was opened on
        // an earlier line ends it (unless the line starts with its closer).
        if first_on_line {
            while let Some(&open) = self.stack.last() {
                let kind = self.kind_of(open);
                let open_span = self.span_of(open);
                let earlier = self.layout.line(open_span.start()) < self.layout.line(*l);
                if kind == BRACE
                    || !earlier
                    || closer(tok) == Some(kind)
                    || self.line_indent(*l) > self.line_indent(open_span.start())
                {
                    break;
                }
                let keep = self.stack.len() - 1;
                self.close_above(keep, here, &|_| {
                    "the next statement starts here".to_string()
                });
            }
        }
    }

    /// Token `i` opens a bracket of `kind`.
    fn open(&mut self, tokens: &[Spanned<'i>], i: usize, kind: usize) {
        let here = Span::new(tokens[i].0, tokens[i].2);
        // No block is ever inside `(` or `[`: those are unclosed.
        if kind == BRACE {
            let keep = self
                .stack
                .iter()
                .rposition(|&o| self.kind_of(o) == BRACE)
                .map_or(0, |d| d + 1);
            self.close_above(keep, here, &|_| {
                "a block cannot start inside brackets".to_string()
            });
        }
        self.stack.push(self.out.len());
        self.open_count[kind] += 1;
        self.out.push(Some(tokens[i].clone()));
    }

    /// Token `i` closes `top`, the innermost open bracket, of its kind.
    fn close_matching(
        &mut self,
        tokens: &[Spanned<'i>],
        i: usize,
        top: usize,
        first_on_line: bool,
    ) {
        let (l, r) = (tokens[i].0, tokens[i].2);
        let here = Span::new(l, r);
        let kind = self.kind_of(top);
        // A `}` first on its line indented like an outer `{`'s line
        // closes that one: the `{`s opened after it are unclosed.
        if kind == BRACE && first_on_line {
            let indent = self.line_indent(l);
            if indent < self.line_indent(self.span_of(top).start())
                && let Some(depth) = self
                    .stack
                    .iter()
                    .enumerate()
                    .rev()
                    .take(MAX_INDENT_SEARCH)
                    .find(|&(_, &o)| {
                        self.kind_of(o) == BRACE
                            && self.line_indent(self.span_of(o).start()) == indent
                    })
                    .map(|(d, _)| d)
            {
                let noticed = |s: &Self| {
                    let line = s.layout.line_number(s.span_of(s.stack[depth]).start());
                    format!(
                        "this `}}` is indented like line {line}, so it probably closes the `{{` there"
                    )
                };
                self.close_above(depth + 1, here, &noticed);
            }
        }
        if kind == BRACE
            && first_on_line
            && self.line_indent(l) > self.line_indent(self.span_of(top).start())
        {
            self.deeper_close = Some(i);
        }
        self.stack.pop();
        self.open_count[kind] -= 1;
        self.out.push(Some(tokens[i].clone()));
    }
}

/// A closing delimiter that closes nothing it should (`message`, `label`
/// at `here`), with the fix: replace it by `replacement`.
fn closer_error(
    message: String,
    here: Span,
    label: String,
    replacement: &str,
    help: String,
) -> Diagnostic {
    Diagnostic::error(message, here)
        .with_code(Code::MismatchedDelimiter)
        .with_label(label)
        .with_suggestion(here, replacement, help, Applicability::MaybeIncorrect)
}
