//! `pfir fmt`: print `.pfir` files in canonical form with their comments
//! (see `crate::format` and `docs/formatting.md`).
//!
//! - `pfir fmt FILE` / `pfir fmt` / `pfir fmt -`: the formatted text on stdout
//!   (one input only).
//! - `-i` / `--in-place`: each file rewritten atomically (mode kept), only
//!   when it changes.
//! - `--check`: a unified diff per file that would change; exit 1 if any.
//!
//! A file that does not read (syntax or semantic errors) is reported with
//! its diagnostics and left untouched; nothing is printed for it and the
//! exit status is 1.

use super::opt::{DiagnosticArgs, io_error, read_input};
use crate::diagnostics::{Code, Diagnostic};
use crate::io::stdio::{Redirect, Sink};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone, Default)]
pub struct FmtArgs {
    /// The input files; `-` or nothing reads standard input.
    pub inputs: Vec<PathBuf>,

    /// Rewrite the files in place (atomically) instead of printing them.
    #[arg(short = 'i', long = "in-place", conflicts_with = "check")]
    pub in_place: bool,

    /// Print a unified diff for every file that is not formatted and exit
    /// with status 1 if there is one; write nothing.
    #[arg(long = "check")]
    pub check: bool,

    /// Break statements longer than N columns (argument lists, `deps=`,
    /// `iter(...)`, bindings). Default: `[fmt] line-width` of the nearest
    /// `pfir.toml` above the file (or the current directory, for standard
    /// input), else 100.
    #[arg(long = "line-width", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub line_width: Option<u16>,

    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

pub fn run(args: FmtArgs) -> u8 {
    let inputs: Vec<Option<PathBuf>> = if args.inputs.is_empty() {
        vec![None]
    } else {
        args.inputs.iter().cloned().map(Some).collect()
    };
    let usage = |message: &str| {
        let d = Diagnostic::error(message, crate::span::Span::default()).with_code(Code::Usage);
        args.diagnostics.report_plain(&d, None);
        2
    };
    if !args.in_place && !args.check && inputs.len() > 1 {
        return usage("printing to standard output takes one input; use -i or --check for several");
    }
    let stdin_count = inputs
        .iter()
        .filter(|p| p.as_ref().is_none_or(|p| p.as_os_str() == "-"))
        .count();
    if args.in_place && stdin_count > 0 {
        return usage("-i cannot rewrite standard input");
    }
    if let [input] = &inputs[..] {
        return one(&args, input.as_ref(), true);
    }
    // Several files, in parallel: each one's output and diagnostics are
    // captured and written in the inputs' order (a terminal is this
    // thread's: colour is decided here).
    let args = FmtArgs {
        diagnostics: args.diagnostics.resolved(),
        ..args
    };
    let paths: Vec<PathBuf> = args.inputs.clone();
    let mut status = 0;
    let work = |path: &PathBuf| {
        let (out, err) = (Sink::default(), Sink::default());
        let streams = Redirect::new(Vec::new(), out.clone(), err.clone());
        let run = || one(&args, Some(path), false);
        // Standard input is read on this thread (`each_input`), writing
        // where it writes.
        let status = if path.as_os_str() == "-" {
            run()
        } else {
            Redirect::scope(Some(streams), run)
        };
        (status, out, err)
    };
    super::each_input(&paths, work, |(one_status, out, err)| {
        let take =
            |sink: Sink| std::mem::take(&mut *sink.lock().unwrap_or_else(|e| e.into_inner()));
        let _ = crate::io::stdio::write_stdout(&take(out));
        crate::io::stdio::write_stderr(&take(err));
        status = status.max(one_status);
    });
    status
}

/// Formats one input (`single`: the command's only one, whose memory
/// [`super::release`] may leave to the exit); returns the exit status.
fn one(args: &FmtArgs, input: Option<&PathBuf>, single: bool) -> u8 {
    let limit = crate::io::read::MAX_INPUT_BYTES.min(crate::span::MAX_SOURCE_BYTES as u64);
    let report = &args.diagnostics;
    // `-i` rewrites regular files only (`/dev/stdin` or a FIFO would block
    // or be consumed), and not one changed since it was read.
    let read = match (args.in_place, input) {
        (true, Some(path)) => match crate::io::Snapshot::of_regular_file(path) {
            Ok(s) => Some(s),
            Err(e) => {
                let name = path.display().to_string();
                report.report_plain(
                    &io_error(format!("cannot rewrite '{name}': {e}")),
                    Some(&name),
                );
                return 1;
            }
        },
        _ => None,
    };
    let (file, bad_byte) = match read_input(input, limit) {
        Ok(v) => v,
        Err(e) => return report.report_read_error(e, input),
    };
    if let Some(offset) = bad_byte {
        return report.report_not_utf8(&file, offset);
    }
    let (name, text) = (file.name.clone(), file.text.as_str());
    let width = match args.line_width {
        Some(n) => usize::from(n),
        None => match configured_width(input.filter(|p| p.as_os_str() != "-")) {
            Ok(n) => n.unwrap_or(crate::format::layout::DEFAULT_LINE_WIDTH),
            Err(d) => {
                report.report_plain(&d, None);
                return 2;
            }
        },
    };
    let formatted = match crate::format::format_text_with(text, width) {
        Ok(f) => f,
        Err(diags) => {
            report.report(&diags, &file);
            return 1;
        }
    };
    let unchanged = formatted == text;
    if args.check {
        if unchanged {
            return 0;
        }
        let diff = crate::format::diff::unified(&name, text, &formatted);
        let _ = crate::io::stdio::write_stdout(diff.as_bytes());
        return 1;
    }
    if args.in_place {
        if unchanged {
            return 0;
        }
        let Some(path) = input else { return 2 };
        // The project's atomic write keeps the file's permission bits.
        if let Err(e) = crate::io::write_atomically_checked(path, read.as_ref(), |f| {
            f.write_all(formatted.as_bytes())
        }) {
            report.report_plain(
                &io_error(format!("cannot write '{}': {e}", path.display())),
                None,
            );
            return 1;
        }
        return 0;
    }
    let mut out = crate::io::stdio::stdout();
    let status = match out
        .write_all(formatted.as_bytes())
        .and_then(|()| out.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            report.report_plain(&io_error(format!("cannot write the output: {e}")), None);
            1
        }
        _ => 0,
    };
    if single {
        super::release((formatted, file));
    }
    status
}

/// `[fmt] line-width` of the nearest `pfir.toml` above `input` (the
/// current directory for standard input; [`crate::format::config`]); a
/// file that does not read is a usage error.
fn configured_width(input: Option<&PathBuf>) -> Result<Option<usize>, Diagnostic> {
    let start = match input {
        Some(p) => std::path::absolute(p)
            .ok()
            .and_then(|p| p.parent().map(PathBuf::from)),
        None => std::env::current_dir().ok(),
    };
    let Some(start) = start else {
        return Ok(None);
    };
    crate::format::config::line_width(&start).map_err(|message| {
        Diagnostic::error(message, crate::span::Span::default()).with_code(Code::Usage)
    })
}
