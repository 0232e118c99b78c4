//! `pfir fmt`: the canonical printed form plus every comment.
//!
//! The pipeline: the front end reads the file (it must parse and lower
//! without error: the canonical form is printed from the IR), the lexer's
//! comment trivia ([`crate::lexer::comments`]) are attached to the printed
//! lines ([`attach`], rules in `docs/formatting.md`), the printer writes
//! the lines with their comments ([`print`](mod@print)), and `expected-*` offsets are
//! rewritten to follow the code ([`offsets`]). Files with `// -----`
//! separators are formatted chunk by chunk (each chunk must read without
//! error), separators kept. CRLF files stay CRLF.
//!
//! For a file without comments or blank lines between statements the
//! output is exactly `pfir opt`'s.

pub mod attach;
pub mod config;
pub mod diff;
mod doc;
pub mod layout;
pub mod notes;
pub mod offsets;
pub mod print;

use crate::diagnostics::Diagnostic;
use crate::frontend::{ReadOptions, read_module};
use crate::ir::{Function, Module};
use crate::printer::lines::{Line, Lines};
use crate::split_input::{SPLIT_MARKER, split_chunks};
use fsutil::lines::LineIndex;
use notes::ModuleNotes;
use print::{Keep, Printer};

/// Reads `text[base..]` chunk `chunk` into a module with its comments
/// attached (`lines` indexes the whole `text`).
pub fn read_with_comments(
    text: &str,
    lines: &LineIndex,
    base: usize,
    chunk: &str,
) -> (Option<Module>, Vec<Diagnostic>) {
    let (module, diags) = read_module(chunk, ReadOptions::at(base)).into_parts();
    let module = module.map(|mut m| {
        let comments = crate::lexer::comments(chunk, base);
        let chunk = (base, base + chunk.len());
        attach::attach(&printed_lines(&m), text, lines, &comments, chunk).store(&mut m);
        m
    });
    (module, diags)
}

/// The printed lines of each function of `m` ([`Lines::of`]), collected
/// once for the formatter's steps that each go through them.
pub fn printed_lines(m: &Module) -> Vec<Vec<Line>> {
    m.functions()
        .iter()
        .map(|f: &Function| Lines::of(f).collect())
        .collect()
}

/// A chunk read for formatting: the module, the printed lines of its
/// functions ([`printed_lines`]) and their comments.
pub struct ReadChunk<'t> {
    pub module: Module,
    pub printed: Vec<Vec<Line>>,
    pub notes: ModuleNotes<'t>,
}

/// Reads `text[base..]` chunk `chunk` for formatting: the module and its
/// comments (`comments`, the chunk's comment spans, which the notes
/// borrow) when the chunk has no syntax error (semantic errors do not
/// matter: the module prints back what was written), else the chunk's
/// diagnostics.
#[cfg(test)]
pub fn read_for_format<'t>(
    text: &'t str,
    lines: &'t LineIndex,
    base: usize,
    chunk: &str,
    comments: &'t [crate::span::Span],
) -> Result<ReadChunk<'t>, Vec<Diagnostic>> {
    let read = read_module(chunk, ReadOptions::at(base).keeping_on_error());
    with_notes(text, lines, (base, chunk), comments, read)
}

/// The module of [`read_for_format`] from `read`, what
/// [`read_module`] returned for `chunk` (at byte `base` of `text`), kept on
/// error.
fn with_notes<'t>(
    text: &'t str,
    lines: &'t LineIndex,
    (base, chunk): (usize, &str),
    comments: &'t [crate::span::Span],
    read: crate::frontend::ModuleRead,
) -> Result<ReadChunk<'t>, Vec<Diagnostic>> {
    let module = match read.module {
        Some(module) if !read.syntax_error => module,
        _ => return Err(read.diagnostics),
    };
    let printed = printed_lines(&module);
    let chunk = (base, base + chunk.len());
    let notes = attach::attach(&printed, text, lines, comments, chunk);
    Ok(ReadChunk {
        module,
        printed,
        notes,
    })
}

/// Whether `text` ends its lines with `\r\n` (judged by its first line end).
pub fn uses_crlf(text: &str) -> bool {
    text.find('\n')
        .is_some_and(|i| i > 0 && text.as_bytes()[i - 1] == b'\r')
}

/// Formats `text` at the default line width
/// ([`layout::DEFAULT_LINE_WIDTH`]). Errors are the diagnostics of the
/// chunk(s) that do not parse; nothing is formatted then.
pub fn format_text(text: &str) -> Result<String, Vec<Diagnostic>> {
    format_text_with(text, layout::DEFAULT_LINE_WIDTH)
}

/// [`format_text`] with statements laid out within `width` columns.
pub fn format_text_with(text: &str, width: usize) -> Result<String, Vec<Diagnostic>> {
    format_text_in(text, width, print::WINDOW_LINES)
}

/// [`format_text_with`], printing `window_lines` lines at a time (their
/// statements laid out together; any number gives the same bytes, tests
/// choose others than [`print::WINDOW_LINES`]).
pub(crate) fn format_text_in(
    text: &str,
    width: usize,
    window_lines: usize,
) -> Result<String, Vec<Diagnostic>> {
    let split = crate::split_input::has_split_marker(text);
    let chunks = |whole: bool| {
        if whole {
            vec![(0, text)]
        } else {
            split_chunks(text)
        }
    };
    let result = format_chunks(text, chunks(!split), width, window_lines);
    let out = match result {
        // A separator line that is only a comment of a file read whole.
        Err(diags) if split => {
            format_chunks(text, chunks(true), width, window_lines).map_err(|_| diags)?
        }
        other => other?,
    };
    let out = if uses_crlf(text) {
        out.replace('\n', "\r\n")
    } else {
        out
    };
    // A byte order mark stays.
    Ok(if text.starts_with('\u{feff}') {
        format!("\u{feff}{out}")
    } else {
        out
    })
}

fn format_chunks(
    text: &str,
    chunks: Vec<(usize, &str)>,
    width: usize,
    window_lines: usize,
) -> Result<String, Vec<Diagnostic>> {
    let reads: Vec<_> = chunks
        .iter()
        .map(|&(base, chunk)| read_module(chunk, ReadOptions::at(base).keeping_on_error()))
        .collect();
    let lines = LineIndex::new(text);
    let spans: Vec<Vec<crate::span::Span>> = chunks
        .iter()
        .map(|&(base, chunk)| crate::lexer::comments(chunk, base))
        .collect();
    let mut modules = Vec::with_capacity(chunks.len());
    let mut errors = Vec::new();
    for ((read, &chunk), spans) in reads.into_iter().zip(&chunks).zip(&spans) {
        match with_notes(text, &lines, chunk, spans, read) {
            Ok(m) => modules.push(m),
            Err(diags) => errors.extend(diags),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let reads = modules
        .iter()
        .map(|r| (&r.module, &r.printed[..], &r.notes));
    check_output_size(reads, Keep::All).map_err(|d| vec![d])?;
    let mut printer = Printer::new(Keep::All)
        .line_width(width)
        .window_lines(window_lines);
    if text.contains("expected-") {
        printer = printer.tracking(text, lines.line_count());
    }
    let line_of = |offset: usize| lines.line_of(offset);
    let last = chunks.len().saturating_sub(1);
    for (i, (read, &(base, chunk))) in modules.iter().zip(&chunks).enumerate() {
        if i > 0 {
            // The separator line sits just before the chunk.
            let marker_line = lines.line_of(base.saturating_sub(1));
            printer.raw_line(SPLIT_MARKER, Some(marker_line));
            if chunk
                .trim_start_matches([' ', '\t', '\r'])
                .starts_with('\n')
                && !is_blank(chunk)
            {
                printer.blank();
            }
        }
        printer.module(&read.module, &read.printed, &read.notes, &line_of);
        let trailing_ws = &chunk[chunk.trim_end().len()..];
        if i < last && crate::span::line_break_count(trailing_ws) >= 2 {
            printer.blank();
        }
    }
    drop(modules);
    let (bytes, tracking) = printer.finish();
    let text = text_of(bytes);
    Ok(match tracking {
        Some(t) => offsets::rewrite(text, &t),
        None => text,
    })
}

/// Printed bytes as text (the printer writes only text).
fn text_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`crate::printer::check_output_size`] for printing with comments: the
/// comment lines printed at depth (the `keep` ones) count too. Returns
/// what was counted.
fn check_output_size<'a, 't: 'a>(
    modules: impl IntoIterator<Item = (&'a Module, &'a [Vec<Line>], &'a ModuleNotes<'t>)>,
    keep: Keep,
) -> Result<crate::printer::OutputBudget, Diagnostic> {
    let mut budget = crate::printer::OutputBudget::default();
    let none = notes::FunctionNotes::default();
    for (module, printed, notes) in modules {
        for (i, (f, lines)) in module.functions().iter().zip(printed).enumerate() {
            let notes = notes.functions.get(i).unwrap_or(&none);
            let mut with_notes = notes.lines().iter().peekable();
            let mut index = 0;
            budget.add(f, lines.iter().copied(), |line| {
                let c = with_notes.next_if(|l| l.index == index);
                index += 1;
                c.map_or(0, |l| {
                    print::comment_indentation(line, &notes.comments(l), keep)
                })
            })?;
        }
    }
    Ok(budget)
}

/// [`crate::printer::check_output_size`] for `pfir opt --keep-comments`:
/// the comment lines `modules` carry count too.
pub fn check_output_size_keeping_comments(modules: &[Module]) -> Result<(), Diagnostic> {
    let printed: Vec<Vec<Vec<Line>>> = modules.iter().map(printed_lines).collect();
    let notes: Vec<ModuleNotes> = modules.iter().map(ModuleNotes::of_ir).collect();
    let modules = modules.iter().zip(&printed).zip(&notes);
    check_output_size(
        modules.map(|((m, p), n)| (m, &p[..], n)),
        Keep::NotDirectives,
    )
    .map(|_| ())
}

fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// Prints `modules` (chunks joined by `// -----`) with their attached
/// comments, test directives left out: `pfir opt --keep-comments`.
pub fn print_modules_keeping_comments(modules: &[Module]) -> String {
    let mut printer = Printer::new(Keep::NotDirectives);
    for (i, m) in modules.iter().enumerate() {
        if i > 0 {
            printer.raw_line(SPLIT_MARKER, None);
        }
        printer.module(m, &printed_lines(m), &ModuleNotes::of_ir(m), &|_| 0);
    }
    text_of(printer.finish().0)
}

#[cfg(test)]
mod tests;
