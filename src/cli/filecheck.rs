//! `pfir filecheck`: the command-line front of the FileCheck-compatible
//! checker in [`crate::testing::filecheck`].

use crate::testing::filecheck::{self, DumpInput, FailureKind, FileCheckOptions};
use clap::Args;
use std::io::Read;
use std::path::PathBuf;

/// Match text (stdin, or `--input-file`) against CHECK directives.
#[derive(Args, Debug)]
pub struct FileCheckArgs {
    /// The file holding the CHECK directives.
    pub check_file: PathBuf,

    /// Read the text to check from this file instead of stdin (`-` = stdin).
    #[arg(long, value_name = "FILE")]
    pub input_file: Option<PathBuf>,

    /// A check prefix to look for instead of CHECK (repeatable).
    #[arg(long = "check-prefix", value_name = "PREFIX")]
    pub check_prefix: Vec<String>,

    /// Comma-separated check prefixes (repeatable).
    #[arg(
        long = "check-prefixes",
        value_name = "PREFIXES",
        value_delimiter = ','
    )]
    pub check_prefixes: Vec<String>,

    /// Comma-separated comment prefixes (default: COM,RUN).
    #[arg(
        long = "comment-prefixes",
        value_name = "PREFIXES",
        value_delimiter = ','
    )]
    pub comment_prefixes: Option<Vec<String>>,

    /// Fail if this pattern occurs between (or around) the matches (repeatable).
    #[arg(long = "implicit-check-not", value_name = "PATTERN")]
    pub implicit_check_not: Vec<String>,

    /// Match horizontal whitespace exactly instead of collapsing runs.
    #[arg(long)]
    pub strict_whitespace: bool,

    /// Require positive directives to match whole lines.
    #[arg(long)]
    pub match_full_lines: bool,

    /// Match case-insensitively.
    #[arg(long)]
    pub ignore_case: bool,

    /// Accept an empty input.
    #[arg(long)]
    pub allow_empty: bool,

    /// Do not fail when some check prefix has no directives.
    #[arg(long)]
    pub allow_unused_prefixes: bool,

    /// Forget variables (except `$`-prefixed ones) at each CHECK-LABEL.
    #[arg(long)]
    pub enable_var_scope: bool,

    /// Define a string variable: `-D NAME=VALUE` (repeatable).
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = parse_define)]
    pub define: Vec<(String, String)>,

    /// When to print the annotated input dump.
    #[arg(long, value_enum, default_value_t = DumpInput::Fail, value_name = "WHEN")]
    pub dump_input: DumpInput,

    /// Verbose output (accepted for compatibility; ignored).
    #[arg(short = 'v', action = clap::ArgAction::Count)]
    pub verbose: u8,
}

fn parse_define(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("'{s}' is not of the form NAME=VALUE")),
    }
}

fn read_text(path: &std::path::Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Runs `pfir filecheck`; returns the exit status (0 match, 1 mismatch or
/// malformed check file, 2 usage or I/O error).
pub fn run(args: FileCheckArgs) -> u8 {
    if args.dump_input == DumpInput::Help {
        print!("{}", filecheck::dump_input_help());
        return 0;
    }
    let check_name = args.check_file.display().to_string();
    let check_text = match read_text(&args.check_file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read check file '{check_name}': {e}");
            return 2;
        }
    };
    let (input_name, input) = match &args.input_file {
        Some(p) if p.as_os_str() != "-" => match read_text(p) {
            Ok(t) => (p.display().to_string(), t),
            Err(e) => {
                eprintln!("error: cannot read input file '{}': {e}", p.display());
                return 2;
            }
        },
        _ => {
            let mut bytes = Vec::new();
            if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
                eprintln!("error: cannot read stdin: {e}");
                return 2;
            }
            (
                "<stdin>".to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            )
        }
    };
    let mut check_prefixes = args.check_prefix;
    check_prefixes.extend(args.check_prefixes);
    let opts = FileCheckOptions {
        check_prefixes,
        comment_prefixes: args.comment_prefixes,
        implicit_check_not: args.implicit_check_not,
        strict_whitespace: args.strict_whitespace,
        match_full_lines: args.match_full_lines,
        ignore_case: args.ignore_case,
        allow_empty: args.allow_empty,
        allow_unused_prefixes: args.allow_unused_prefixes,
        enable_var_scope: args.enable_var_scope,
        defines: args.define,
        dump_input: args.dump_input,
    };
    let outcome = filecheck::check_detailed(&check_text, &check_name, &input, &input_name, &opts);
    if let Some(dump) = outcome.dump {
        eprint!("{dump}");
    }
    match outcome.result {
        Ok(()) => 0,
        Err(f) => {
            eprint!("{}", f.report());
            if f.kind == FailureKind::Usage { 2 } else { 1 }
        }
    }
}
