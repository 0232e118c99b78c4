//! `pfir check FILE...`: parse and verify each file, report its
//! diagnostics, print nothing when every file is valid (for editors and
//! pre-commit hooks). Exit status 1 when any file has an error.

use super::opt::{DiagnosticArgs, ReadError, read_input};
use crate::diagnostics::{SourceFile, has_errors};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// The files to check (`-` reads standard input).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// Check each `// -----` separated chunk as its own input.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,

    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

pub fn run(args: CheckArgs) -> u8 {
    let report = &args.diagnostics;
    let split = args.split_input_file;
    let mut status = 0;
    let work = |input: &PathBuf| {
        let (file, bad_byte) = read_input(Some(input), crate::io::read::MAX_INPUT_BYTES)
            .map_err(|e| (e, input.clone()))?;
        let diags = match bad_byte {
            Some(offset) => vec![super::opt::not_utf8_diagnostic(offset)],
            None => check_file(&file, split),
        };
        Ok((file, diags))
    };
    super::each_input(
        &args.inputs,
        work,
        |checked: Result<_, (ReadError, PathBuf)>| match checked {
            Ok((file, diags)) => {
                report.report(&diags, &file);
                if has_errors(&diags) {
                    status = 1;
                }
            }
            Err((e, input)) => status = report.report_read_error(e, Some(&input)),
        },
    );
    status
}

/// Every diagnostic of reading `file` (each chunk on its own under `split`).
pub fn check_file(file: &SourceFile, split: bool) -> Vec<crate::diagnostics::Diagnostic> {
    let chunks = if split {
        crate::split_input::split_chunks(&file.text)
    } else {
        vec![(0, file.text.as_str())]
    };
    chunks
        .into_iter()
        .flat_map(|(base, chunk)| {
            crate::frontend::read_module(chunk, crate::frontend::ReadOptions::at(base))
                .into_parts()
                .1
        })
        .collect()
}
