//! `pfir opt`: read a `.pfir` file, verify it, run passes, print it.

use crate::diagnostics::{self, Diagnostic, DiagnosticFormat, SourceFile};
use crate::driver;
use crate::passes::PipelineOptions;
use clap::Args;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

#[derive(Args, Debug, Clone, Default)]
pub struct OptArgs {
    /// The input file; `-` or nothing reads standard input.
    pub input: Option<PathBuf>,

    /// Write the output here (atomically: the file is replaced only when
    /// writing succeeded) instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// How diagnostics are written.
    #[arg(long = "diagnostic-format", value_enum, default_value_t = DiagnosticFormat::Human)]
    pub diagnostic_format: DiagnosticFormat,

    /// Treat each `// -----` separated chunk as its own input; outputs are
    /// joined by `// -----`.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,

    /// Check diagnostics against `expected-*` comments instead of printing them.
    #[arg(long = "verify-diagnostics")]
    pub verify_diagnostics: bool,

    #[command(flatten)]
    pub pipeline: PipelineOptions,
}

/// Reads the input named by `path` (`-` or none: stdin).
fn read_input(path: Option<&PathBuf>) -> Result<(String, String), String> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => {
            let bytes =
                std::fs::read(p).map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                format!(
                    "'{}' is not valid UTF-8 (first bad byte at offset {})",
                    p.display(),
                    e.utf8_error().valid_up_to()
                )
            })?;
            Ok((p.display().to_string(), text))
        }
    }
}

fn read_stdin() -> Result<(String, String), String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "standard input is not valid UTF-8 (first bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(("<stdin>".to_string(), text))
}

/// Writes `contents` to `path` atomically: a temporary file in the same
/// directory, then a rename over the target.
pub fn write_atomically(path: &std::path::Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.pfir-tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

pub fn run(args: OptArgs) -> u8 {
    if let Err(message) = crate::passes::check_pipeline(&args.pipeline) {
        eprintln!("error: {message}");
        return 2;
    }
    let (name, text) = match read_input(args.input.as_ref()) {
        Ok(v) => v,
        Err(message) => {
            eprintln!("error: {message}");
            return 1;
        }
    };
    let file = SourceFile::new(name, text);
    let outcome = driver::with_large_stack(|| driver::run_opt(&file, &args));
    let color =
        args.diagnostic_format == DiagnosticFormat::Human && std::io::stderr().is_terminal();

    let mut status = 0u8;
    if args.verify_diagnostics {
        let report = crate::testing::verify_diagnostics::verify(&file, &outcome.diagnostics);
        if !report.is_empty() {
            eprint!(
                "{}",
                diagnostics::render_all(&report, &file, args.diagnostic_format, color)
            );
            status = 1;
        }
    } else {
        eprint!(
            "{}",
            diagnostics::render_all(&outcome.diagnostics, &file, args.diagnostic_format, color)
        );
        if outcome.diagnostics.iter().any(Diagnostic::is_error) {
            status = 1;
        }
    }
    eprint!("{}", outcome.stderr);
    match &args.output {
        Some(path) => {
            if let Err(e) = write_atomically(path, outcome.output.as_bytes()) {
                eprintln!("error: cannot write '{}': {e}", path.display());
                return 1;
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            if out
                .write_all(outcome.output.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                return 1;
            }
        }
    }
    status
}
