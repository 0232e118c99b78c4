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
pub mod layout;
pub mod lines;
pub mod offsets;
pub mod print;

use crate::diagnostics::Diagnostic;
use crate::frontend::{SPLIT_MARKER, read_module, split_chunks};
use crate::ir::Module;
use attach::LineIndex;
use print::{Keep, Printer};

/// Reads `text[base..]` chunk `chunk` into a module with its comments
/// attached (`lines` indexes the whole `text`).
pub fn read_with_comments(
    text: &str,
    lines: &LineIndex,
    base: usize,
    chunk: &str,
) -> (Option<Module>, Vec<Diagnostic>) {
    let (module, diags) = read_module(chunk, base);
    let module = module.map(|mut m| {
        let comments = crate::lexer::comments(chunk, base);
        attach::attach(&mut m, text, lines, &comments, base, base + chunk.len());
        m
    });
    (module, diags)
}

/// Reads `text[base..]` chunk `chunk` for formatting: the module with its
/// comments attached when the chunk has no syntax error (semantic errors do
/// not matter: the module prints back what was written), else the
/// chunk's diagnostics.
pub fn read_for_format(
    text: &str,
    lines: &LineIndex,
    base: usize,
    chunk: &str,
) -> Result<Module, Vec<Diagnostic>> {
    let (mut module, diags, syntax_error) = crate::frontend::read_module_whole(chunk, base);
    if syntax_error {
        return Err(diags);
    }
    let comments = crate::lexer::comments(chunk, base);
    attach::attach(
        &mut module,
        text,
        lines,
        &comments,
        base,
        base + chunk.len(),
    );
    Ok(module)
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
    format_text_parallel_from(text, width, print::PARALLEL_MIN_LINES)
}

/// [`format_text_with`], printing functions of at least `parallel` lines on
/// two threads (a parameter for the tests).
fn format_text_parallel_from(
    text: &str,
    width: usize,
    parallel: usize,
) -> Result<String, Vec<Diagnostic>> {
    let split = fsutil::lines::lines(text).any(|l| l.trim_end() == SPLIT_MARKER);
    let result = if split {
        format_chunks(text, split_chunks(text), width, parallel)
    } else {
        format_chunks(text, vec![(0, text)], width, parallel)
    };
    let out = match result {
        // A separator line that is only a comment of a file read whole.
        Err(diags) if split => {
            format_chunks(text, vec![(0, text)], width, parallel).map_err(|_| diags)?
        }
        other => other?,
    };
    let out = if uses_crlf(text) {
        out.replace('\n', "\r\n")
    } else {
        out
    };
    // A byte order mark stays.
    Ok(match text.starts_with('\u{feff}') {
        true => format!("\u{feff}{out}"),
        false => out,
    })
}

fn format_chunks(
    text: &str,
    chunks: Vec<(usize, &str)>,
    width: usize,
    parallel: usize,
) -> Result<String, Vec<Diagnostic>> {
    let lines = LineIndex::new(text);
    let mut modules = Vec::with_capacity(chunks.len());
    let mut errors = Vec::new();
    for &(base, chunk) in &chunks {
        match read_for_format(text, &lines, base, chunk) {
            Ok(m) => modules.push(m),
            Err(diags) => errors.extend(diags),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    crate::printer::check_output_size(&modules).map_err(|d| vec![d])?;
    let track = text.contains("expected-");
    let mut printer = Printer::new(Keep::All)
        .line_width(width)
        .parallel_from(parallel);
    if track {
        printer = printer.tracking(lines.len());
    }
    let line_of = |offset: usize| lines.line(offset);
    let last = chunks.len().saturating_sub(1);
    for (i, (m, &(base, chunk))) in modules.iter().zip(&chunks).enumerate() {
        if i > 0 {
            // The separator line sits just before the chunk.
            let marker_line = lines.line(base.saturating_sub(1));
            printer.raw_line(SPLIT_MARKER, Some(marker_line));
            if chunk
                .trim_start_matches([' ', '\t', '\r'])
                .starts_with('\n')
                && !is_blank(chunk)
            {
                printer.blank();
            }
        }
        printer.module(m, &line_of);
        let trailing_ws = &chunk[chunk.trim_end().len()..];
        if i < last && crate::span::line_break_count(trailing_ws) >= 2 {
            printer.blank();
        }
    }
    let (bytes, tracking) = printer.finish();
    let out = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok(match tracking {
        Some(t) => offsets::rewrite(out, &t),
        None => out,
    })
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
        printer.module(m, &|_| 0);
    }
    let (bytes, _) = printer.finish();
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests;
