//! `pfir filecheck`: the command-line front of the FileCheck-compatible
//! checker in [`crate::testing::filecheck`].
//!
//! The arguments are parsed the way LLVM's option library parses
//! FileCheck's, not by clap, by [`filecheck::args`] (where the option
//! syntax is described). Options in the `FILECHECK_OPTS` environment
//! variable come first (so the command line adds to or overrides them).
//!
//! Exit status, as LLVM's FileCheck: 0 match, 1 mismatch (or a malformed
//! command line, as LLVM's option library does), 2 malformed check file,
//! "no check strings found", empty input or unreadable files.

use crate::testing::filecheck::args::{UsageError, parse_args_with_color, tokenize};
use crate::testing::filecheck::{self, DumpInput, FailureKind, ReportStyle};
use clap::Args;
use std::ffi::OsString;
use std::io::Read;
use std::path::PathBuf;

/// The help text of `pfir filecheck --help`.
pub const HELP: &str = "\
Match text (stdin, or --input-file) against CHECK directives, like LLVM's FileCheck.

USAGE: pfir filecheck [options] <check-file>

Options take one or two dashes (-check-prefix=X, --check-prefix X). Options are
read from the environment variable FILECHECK_OPTS first, then from the command line.

OPTIONS:
  --check-prefix=<prefix>        Prefix to look for instead of CHECK (repeatable)
  --check-prefixes=<a,b,...>     Comma-separated check prefixes (repeatable)
  --comment-prefixes=<a,b,...>   Comment prefixes (default: COM,RUN)
  --input-file=<file>            File to check (default: stdin)
  --implicit-check-not=<pattern> Add an implicit CHECK-NOT around every match (repeatable)
  --match-full-lines             Positive matches must cover whole lines
  --strict-whitespace            Do not collapse horizontal whitespace
  --ignore-case                  Match case-insensitively
  --allow-empty                  Accept an empty input
  --allow-unused-prefixes        Do not fail when a check prefix has no directive
  --allow-deprecated-dag-overlap Let matches of consecutive CHECK-DAGs overlap
  --enable-var-scope             Forget variables not starting with $ at each CHECK-LABEL
  -D<NAME>=<VALUE>               Define a string variable (repeatable)
  -D#[%<fmt>,]<NAME>=<EXPR>      Define a numeric variable (repeatable)
  --dump-input=<help|always|fail|never>
                                 When to dump the annotated input (default: fail;
                                 when repeated, the earliest in this list wins)
  --dump-input-filter=<all|annotation-full|annotation|error>
                                 Which input lines the dump shows (default: error with
                                 --dump-input=fail, all with always; earliest wins)
  --dump-input-context=<N>       Context lines around filtered lines (default 5; largest wins)
  --color[=<bool>]               Colour the report (default: when stderr is a terminal)
  -v, --vv                       Verbose: annotate successful matches too
  --version                      Print the version
  -h, --help                     Print this help

Boolean options accept =true, =false, =1 or =0. Exit status: 0 match, 1 mismatch
or malformed command line, 2 malformed check file, no check strings, empty input.
";

/// Match text (stdin, or `--input-file`) against CHECK directives (like
/// LLVM's FileCheck; `pfir filecheck --help` lists the options).
#[derive(Args, Debug)]
#[command(disable_help_flag = true, disable_version_flag = true)]
pub struct FileCheckArgs {
    /// Options and the check file, parsed like LLVM's FileCheck.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..,
        value_name = "ARGS"
    )]
    pub args: Vec<OsString>,
}

fn read_text(path: &std::path::Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(into_string(bytes))
}

/// UTF-8 text without a second copy when the bytes are valid.
fn into_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A line on standard error (or its in-process buffer).
fn stderr(line: &str) {
    crate::io::stdio::write_stderr(format!("{line}\n").as_bytes());
}

fn stderr_raw(text: &str) {
    crate::io::stdio::write_stderr(text.as_bytes());
}

fn stdout(line: &str) {
    let _ = crate::io::stdio::write_stdout(format!("{line}\n").as_bytes());
}

fn stdout_raw(text: &str) {
    let _ = crate::io::stdio::write_stdout(text.as_bytes());
}

/// Runs `pfir filecheck`; returns the exit status (see the module docs).
pub fn run(args: FileCheckArgs) -> u8 {
    let mut words: Vec<String> = std::env::var("FILECHECK_OPTS")
        .map(|s| tokenize(&s))
        .unwrap_or_default();
    words.extend(args.args.iter().map(|a| a.to_string_lossy().into_owned()));
    let parsed = match parse_args_with_color(&words, crate::io::stdio::stderr_is_terminal) {
        Ok(p) => p,
        Err(UsageError(m)) => {
            // As LLVM names itself (its program name): `filecheck:`.
            stderr(&format!("filecheck: {m}"));
            return 1;
        }
    };
    if parsed.help {
        stdout_raw(HELP);
        return 0;
    }
    if parsed.version {
        stdout(&format!("pfir {}", env!("CARGO_PKG_VERSION")));
        return 0;
    }
    if parsed.opts.dump_input == DumpInput::Help {
        stdout_raw(&filecheck::dump_input_help(parsed.opts.color));
        return 0;
    }
    let Some(check_file) = parsed.check_file else {
        stderr("<check-file> not specified");
        return 2;
    };
    let check_path = PathBuf::from(&check_file);
    let check_text = match read_text(&check_path) {
        Ok(t) => t,
        Err(e) => {
            stderr(&format!(
                "error: cannot read check file '{check_file}': {e}"
            ));
            return 2;
        }
    };
    let (input_name, input) = match parsed.input_file.as_deref() {
        Some(p) if p != "-" => match read_text(std::path::Path::new(p)) {
            Ok(t) => (p.to_string(), t),
            Err(e) => {
                stderr(&format!("error: cannot read input file '{p}': {e}"));
                return 2;
            }
        },
        _ => {
            let mut bytes = Vec::new();
            if let Err(e) = crate::io::stdio::stdin().read_to_end(&mut bytes) {
                stderr(&format!("error: cannot read stdin: {e}"));
                return 2;
            }
            ("<stdin>".to_string(), into_string(bytes))
        }
    };
    let mut opts = parsed.opts;
    // Only the report is printed here.
    opts.directive_results = false;
    let outcome = filecheck::check_detailed(&check_text, &check_file, &input, &input_name, &opts);
    stderr_raw(&outcome.remarks);
    if let Some(dump) = outcome.dump {
        stderr_raw(&dump);
    }
    match outcome.result {
        Ok(()) => 0,
        Err(f) => {
            stderr_raw(f.report());
            if f.kind == FailureKind::EmptyInput && opts.report_style == ReportStyle::Llvm {
                // LLVM follows its message with the command line (its
                // `DumpCommandLine`: each word after a space).
                let mut line = String::from("FileCheck command line: ");
                let program = std::env::args().next().unwrap_or_else(|| "pfir".into());
                for w in [program, "filecheck".into()]
                    .into_iter()
                    .chain(args.args.iter().map(|a| a.to_string_lossy().into_owned()))
                {
                    line.push(' ');
                    line.push_str(&w);
                }
                stderr(&line);
            }
            match f.kind {
                FailureKind::Mismatch => 1,
                FailureKind::CheckFile | FailureKind::EmptyInput | FailureKind::Usage => 2,
            }
        }
    }
}
