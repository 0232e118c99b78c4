//! `pfir explain E0010`: the long explanation of an error code, with an
//! input that produces it and the same input fixed.

use super::opt::DiagnosticArgs;
use crate::diagnostics::{Code, Diagnostic, codes};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// The code, as shown in brackets after `error` (`E0010`).
    pub code: String,
}

pub fn run(args: ExplainArgs) -> u8 {
    match Code::parse(&args.code) {
        Some(code) => {
            print!("{}", codes::explain(code));
            0
        }
        None => {
            let last = codes::CODES[codes::CODES.len() - 1].code;
            DiagnosticArgs::default().report_plain(
                &Diagnostic::error(
                    format!("no error code `{}`", args.code),
                    crate::span::Span::default(),
                )
                .with_code(Code::Usage)
                .with_note(format!(
                    "codes run from E0001 to {last}; docs/diagnostics.md lists them"
                )),
                None,
            );
            2
        }
    }
}
