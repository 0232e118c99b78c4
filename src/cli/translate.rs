//! `pfir translate --to=pypto FILE.pfir` / `--from=pypto FILE.py`: `.pfir`
//! to PyPTO's Python DSL and back (`crate::translate`, `docs/pypto.md`).
//! The translation goes to standard output; diagnostics, at positions of
//! the input, to standard error (exit status 1 on an error).

use super::opt::{DiagnosticArgs, read_input};
use crate::diagnostics::has_errors;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// The languages `pfir translate` knows besides `.pfir`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// PyPTO's Python DSL (`import pypto.language as pl`).
    Pypto,
}

#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("direction").required(true).args(["to", "from"])))]
pub struct TranslateArgs {
    /// The file to translate (`-` reads standard input).
    pub input: PathBuf,

    /// Translate `.pfir` into this language.
    #[arg(long, value_enum)]
    pub to: Option<Language>,

    /// Translate this language into canonical `.pfir`.
    #[arg(long, value_enum)]
    pub from: Option<Language>,

    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

pub fn run(args: TranslateArgs) -> u8 {
    let file = match read_input(Some(&args.input), crate::io::read::MAX_INPUT_BYTES) {
        Ok((file, None)) => file,
        Ok((file, Some(offset))) => return args.diagnostics.report_not_utf8(&file, offset),
        Err(e) => return args.diagnostics.report_read_error(e, Some(&args.input)),
    };
    let result = if args.to.is_some() {
        crate::translate::to_pypto(&file.text)
    } else {
        crate::translate::from_pypto(&file.text)
    };
    args.diagnostics.report(&result.diagnostics, &file);
    if let Some(out) = &result.output {
        let _ = crate::io::stdio::write_stdout(out.as_bytes());
    }
    u8::from(has_errors(&result.diagnostics) || result.output.is_none())
}
