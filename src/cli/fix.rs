//! `pfir fix FILE [-i]`: apply the machine-applicable suggestions of the
//! file's diagnostics, print the fixed text (or, with `-i`, replace the file
//! atomically), and report what is left.
//!
//! Fixes are applied in rounds (a fix can let the parser see further) until
//! none is left, at most [`MAX_ROUNDS`] times. Within a round, suggestions
//! are applied from the start of the file on; one that overlaps an earlier
//! one waits for the next round.

use super::opt::{DiagnosticArgs, io_error, read_input};
use crate::diagnostics::{Applicability, Code, Diagnostic, SourceFile, Suggestion, has_errors};
use crate::io::write_atomically_checked;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// The most rounds of fixes `pfir fix` applies.
pub const MAX_ROUNDS: usize = 16;

#[derive(Args, Debug, Clone)]
pub struct FixArgs {
    /// The file to fix (`-` reads standard input; not with `-i`).
    pub input: PathBuf,

    /// Replace the file with the fixed text (atomically) instead of printing it.
    #[arg(short = 'i', long = "in-place")]
    pub in_place: bool,

    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

/// Applies the machine-applicable suggestions of `diags` to `text`; returns
/// the new text and how many were applied.
pub fn apply_fixes(text: &str, diags: &[Diagnostic]) -> (String, usize) {
    let mut fixes: Vec<&Suggestion> = diags
        .iter()
        .flat_map(|d| &d.suggestions)
        .filter(|s| s.applicability == Applicability::MachineApplicable)
        .filter(|s| {
            s.span.start() <= s.span.end()
                && s.span.end() <= text.len()
                && text.is_char_boundary(s.span.start())
                && text.is_char_boundary(s.span.end())
        })
        .collect();
    fixes.sort_by_key(|s| (s.span.start(), s.span.end()));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut applied = 0;
    for s in fixes {
        if s.span.start() < at
            || (s.span.start() == at && applied > 0 && s.span.start() == s.span.end())
        {
            continue;
        }
        out.push_str(&text[at..s.span.start()]);
        out.push_str(&s.replacement);
        at = s.span.end();
        applied += 1;
    }
    out.push_str(&text[at..]);
    (out, applied)
}

/// Fixes `text` in rounds; returns the fixed text, the number of fixes and
/// the diagnostics of the fixed text.
pub fn fix_text(text: &str) -> (String, usize, Vec<Diagnostic>) {
    let mut text = text.to_string();
    let mut total = 0;
    for _ in 0..MAX_ROUNDS {
        let diags = crate::frontend::read_module(&text, crate::frontend::ReadOptions::at(0))
            .into_parts()
            .1;
        let (fixed, applied) = apply_fixes(&text, &diags);
        if applied == 0 {
            return (text, total, diags);
        }
        text = fixed;
        total += applied;
    }
    let diags = crate::frontend::read_module(&text, crate::frontend::ReadOptions::at(0))
        .into_parts()
        .1;
    (text, total, diags)
}

pub fn run(args: FixArgs) -> u8 {
    if args.in_place && args.input.as_os_str() == "-" {
        args.diagnostics.report_plain(
            &Diagnostic::error(
                "`-i` cannot replace standard input",
                crate::span::Span::default(),
            )
            .with_code(Code::Usage),
            None,
        );
        return 2;
    }
    // `-i` rewrites regular files only (reading a pipe would block or
    // consume it), and not one changed since it was read.
    let read = match args.in_place {
        true => match crate::io::Snapshot::of_regular_file(&args.input) {
            Ok(s) => Some(s),
            Err(e) => {
                let name = args.input.display().to_string();
                args.diagnostics.report_plain(
                    &io_error(format!("cannot rewrite '{name}': {e}")),
                    Some(&name),
                );
                return 1;
            }
        },
        false => None,
    };
    let (name, text) = match read_input(Some(&args.input), crate::io::read::MAX_INPUT_BYTES) {
        Ok((file, None)) => (file.name, file.text),
        Ok((file, Some(offset))) => return args.diagnostics.report_not_utf8(&file, offset),
        Err(e) => return args.diagnostics.report_read_error(e, Some(&args.input)),
    };
    let (fixed, applied, diags) = fix_text(&text);
    let file = SourceFile::new(name.clone(), fixed);
    args.diagnostics.report(&diags, &file);
    if args.in_place {
        if applied > 0
            && let Err(e) = write_atomically_checked(&args.input, read.as_ref(), |f| {
                f.write_all(file.text.as_bytes())
            })
        {
            args.diagnostics.report_plain(
                &io_error(format!("cannot write '{name}': {e}")),
                Some(&name),
            );
            return 1;
        }
    } else {
        let mut out = std::io::stdout().lock();
        if let Err(e) = out
            .write_all(file.text.as_bytes())
            .and_then(|()| out.flush())
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            args.diagnostics
                .report_plain(&io_error(format!("cannot write the output: {e}")), None);
            return 1;
        }
    }
    u8::from(has_errors(&diags))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    fn fix(span: Span, replacement: &str, applicability: Applicability) -> Diagnostic {
        Diagnostic::error("e", span).with_suggestion(span, replacement, "m", applicability)
    }

    #[test]
    fn applies_machine_applicable_fixes_in_order_skipping_overlaps() {
        let text = "abcdef";
        let diags = [
            fix(Span::new(4, 5), "E", Applicability::MachineApplicable),
            fix(Span::new(0, 2), "X", Applicability::MachineApplicable),
            fix(Span::new(1, 3), "Y", Applicability::MachineApplicable),
            fix(Span::new(5, 6), "?", Applicability::MaybeIncorrect),
            fix(Span::new(5, 6), "?", Applicability::HasPlaceholders),
            fix(
                Span::new(3, 90),
                "out of the file",
                Applicability::MachineApplicable,
            ),
        ];
        assert_eq!(apply_fixes(text, &diags), ("XcdEf".to_string(), 2));
    }
}
