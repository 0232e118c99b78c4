//! A candidate program of an IR-level reduction: its module, with its
//! comments attached, and the text that is written out and tested.
//!
//! The text is the canonical printed form with the comments that belong
//! to what remains (the formatter's printer, one statement per line, no
//! width-based breaking), after the file's `// RUN:` lines, which are
//! kept whatever is removed. In the [`Layout::Compact`] layout each
//! function without a comment inside is joined onto one line (newlines
//! only separate tokens) and blank lines go. A candidate is valid when its text reads back
//! (lexes, parses, lowers and verifies) without error, and the module kept
//! is the one read back, so the next round numbers the elements of what
//! was written.

use crate::format::notes::ModuleNotes;
use crate::format::print::{Keep, Printer};
use crate::ir::{Comment, Module};
use fsutil::lines::LineIndex;

/// How a program's text is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// As `pfir fmt` prints it: one statement per line, with comments.
    #[default]
    Formatted,
    /// Each function that holds no comment on one line, no blank lines
    /// (the RUN lines and the comments outside functions on their own).
    Compact,
}

/// A valid program: its text and the module it reads back to.
#[derive(Clone, Debug)]
pub struct Program {
    pub text: String,
    pub module: Module,
    /// The file's `// RUN:` lines, printed first.
    pub run_lines: Vec<Comment>,
    /// How [`Program::text`] is laid out.
    pub layout: Layout,
}

impl Program {
    /// Reads `text`: `None` unless it reads without error. Its RUN lines
    /// are taken out of the comment tables (they are printed first).
    pub fn read(text: &str) -> Option<Program> {
        let lines = LineIndex::new(text);
        let (module, diags) = crate::format::read_with_comments(text, &lines, 0, text);
        let mut module = module?;
        if crate::diagnostics::has_errors(&diags) {
            return None;
        }
        let run_lines = take_run_lines(&mut module);
        Some(Program {
            text: text.to_string(),
            module,
            run_lines,
            layout: Layout::Formatted,
        })
    }

    /// The program `module` prints as in `layout`, after `run_lines`:
    /// `None` when that text does not read back without error.
    pub fn of(module: &Module, run_lines: &[Comment], layout: Layout) -> Option<Program> {
        let mut text = render(module, run_lines);
        if layout == Layout::Compact {
            text = compact(&text);
        }
        let mut program = Program::read(&text)?;
        program.run_lines = run_lines.to_vec();
        program.layout = layout;
        Some(program)
    }

    /// This program with `edit` applied to a copy of its module, when the
    /// result is valid.
    pub fn edited(&self, edit: impl FnOnce(&mut Module)) -> Option<Program> {
        let mut module = self.module.clone();
        edit(&mut module);
        Program::of(&module, &self.run_lines, self.layout)
    }
}

/// `module` printed with its comments, after `run_lines` and a blank line.
pub fn render(module: &Module, run_lines: &[Comment]) -> String {
    let mut out = String::new();
    for c in run_lines {
        out.push_str(&c.text);
        out.push('\n');
    }
    if !run_lines.is_empty() {
        out.push('\n');
    }
    let mut printer = Printer::new(Keep::All);
    let printed = crate::format::printed_lines(module);
    printer.module(module, &printed, &ModuleNotes::of_ir(module), &|_| 0);
    let (parts, _) = printer.finish();
    out.push_str(&String::from_utf8_lossy(&parts));
    out
}

/// `text` (as [`render`] writes it) in the [`Layout::Compact`] layout:
/// the lines of each function (from a line that starts a header at the
/// first column to the `}` that closes it there) joined with spaces
/// unless one holds `//`, and no blank lines.
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut function: Vec<&str> = Vec::new();
    let flush = |function: &mut Vec<&str>, out: &mut String| {
        if function.iter().any(|l| l.contains("//")) {
            function.iter().for_each(|l| {
                out.push_str(l);
                out.push('\n');
            });
        } else if !function.is_empty() {
            let joined: Vec<&str> = function
                .iter()
                .map(|l| l.trim())
                .filter(|l| !l.is_empty())
                .collect();
            out.push_str(&joined.join(" "));
            out.push('\n');
        }
        function.clear();
    };
    for line in text.lines() {
        let inside = !function.is_empty();
        if line.trim().is_empty() && !inside {
            continue;
        }
        if !inside && line.starts_with("//") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        function.push(line);
        if line == "}" {
            flush(&mut function, &mut out);
        }
    }
    flush(&mut function, &mut out);
    out
}

/// Removes the `// RUN:` comments (lit's rule, [`lit::has_run_lines`])
/// from `module`'s comment tables and returns them in source order.
fn take_run_lines(module: &mut Module) -> Vec<Comment> {
    let is_run = |c: &Comment| lit::has_run_lines(&c.text);
    let mut found = Vec::new();
    let take = |list: &mut Vec<Comment>, found: &mut Vec<Comment>| {
        found.extend(list.iter().filter(|c| is_run(c)).cloned());
        list.retain(|c| !is_run(c));
    };
    for f in module.functions_mut() {
        for attached in f.comments.by_anchor.values_mut() {
            take(&mut attached.leading, &mut found);
            if attached.trailing.as_ref().is_some_and(is_run) {
                found.extend(attached.trailing.take());
            }
        }
    }
    take(&mut module.end_comments, &mut found);
    found.sort_by_key(|c| c.line);
    found
}

/// How big a text is, for deciding that a candidate is smaller: lines,
/// then bytes, then the text itself, so that every accepted step goes
/// down a strict total order and the reduction ends.
pub fn smaller(candidate: &str, current: &str) -> bool {
    let key = |t: &str| (fsutil::lines::lines(t).count(), t.len());
    match key(candidate).cmp(&key(current)) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Equal => candidate < current,
        std::cmp::Ordering::Greater => false,
    }
}
