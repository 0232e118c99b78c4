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

    /// Print the source's comments with the output (test directives, that
    /// is RUN / CHECK-like lines and `expected-*`, are left out).
    #[arg(long = "keep-comments")]
    pub keep_comments: bool,

    #[command(flatten)]
    pub pipeline: PipelineOptions,
}

/// Why the input could not be read.
pub(crate) enum ReadError {
    /// The file or stdin could not be read at all: there is no text to point into.
    Io(String),
    /// The input is not UTF-8 (spec section 2: source is UTF-8). It is still
    /// reported as a diagnostic at the first bad byte, with a line and column
    /// like every other rejected input (spec section 8), in the requested
    /// `--diagnostic-format`. `text` is the input with invalid bytes replaced
    /// by U+FFFD, so the prefix up to `offset` is byte-for-byte the input.
    NotUtf8 {
        name: String,
        text: String,
        offset: usize,
    },
    /// The input is larger than spans can address.
    TooLarge {
        name: String,
        diagnostic: Box<Diagnostic>,
    },
}

/// Inputs of more than [`crate::span::MAX_SOURCE_BYTES`] are rejected before
/// lexing: span offsets are 32-bit.
fn check_size(len: u64) -> Result<(), Diagnostic> {
    let max = crate::span::MAX_SOURCE_BYTES as u64;
    if len <= max {
        return Ok(());
    }
    Err(Diagnostic::error(
        format!("input is too large: {len} bytes"),
        crate::span::Span::new(0, 0),
    )
    .with_label("this file")
    .with_note(format!(
        "pfir reads source files of at most {max} bytes (4 GiB)"
    )))
}

/// Reads the input named by `path` (`-` or none: stdin).
pub(crate) fn read_input(path: Option<&PathBuf>) -> Result<(String, String), ReadError> {
    let (name, bytes) = match path {
        Some(p) if p.as_os_str() != "-" => {
            if let Ok(meta) = std::fs::metadata(p)
                && let Err(diagnostic) = check_size(meta.len())
            {
                let name = p.display().to_string();
                return Err(ReadError::TooLarge {
                    name,
                    diagnostic: Box::new(diagnostic),
                });
            }
            let bytes = std::fs::read(p)
                .map_err(|e| ReadError::Io(format!("cannot read '{}': {e}", p.display())))?;
            (p.display().to_string(), bytes)
        }
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| ReadError::Io(format!("cannot read standard input: {e}")))?;
            ("<stdin>".to_string(), bytes)
        }
    };
    if let Err(diagnostic) = check_size(bytes.len() as u64) {
        return Err(ReadError::TooLarge {
            name,
            diagnostic: Box::new(diagnostic),
        });
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            Err(ReadError::NotUtf8 { name, text, offset })
        }
    }
}

/// The diagnostic for input that is not UTF-8: at the first bad byte (the
/// U+FFFD that replaced it in the lossy text).
pub(crate) fn not_utf8_diagnostic(offset: usize) -> Diagnostic {
    let span = crate::span::Span::new(offset, offset + char::REPLACEMENT_CHARACTER.len_utf8());
    Diagnostic::error("input is not valid UTF-8", span)
        .with_label(format!("invalid byte at offset {offset}"))
        .with_note(".pfir source text must be UTF-8")
}

/// Writes `contents` to `path` atomically: a temporary file in the same
/// directory, then a rename over the target.
pub fn write_atomically(path: &std::path::Path, contents: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |f| f.write_all(contents))
}

/// Like [`write_atomically`], with the contents streamed by `write`: the
/// target is replaced only when `write` and the flush to disk succeeded.
pub fn write_atomically_with(
    path: &std::path::Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    // Devices and pipes (`-o /dev/null`, a FIFO) cannot be replaced by a
    // rename: write to them directly, as LLVM's tools do.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
        return write(&mut f);
    }
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
        write(&mut f)?;
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
        Err(ReadError::Io(message)) => {
            eprintln!("error: {message}");
            return 1;
        }
        Err(ReadError::NotUtf8 { name, text, offset }) => {
            let file = SourceFile::new(name, text);
            write_stderr(&diagnostics::render_all(
                &[not_utf8_diagnostic(offset)],
                &file,
                args.diagnostic_format,
                args.diagnostic_format == DiagnosticFormat::Human
                    && std::io::stderr().is_terminal(),
            ));
            return 1;
        }
        Err(ReadError::TooLarge { name, diagnostic }) => {
            let file = SourceFile::new(name, String::new());
            write_stderr(&diagnostics::render_all(
                &[*diagnostic],
                &file,
                args.diagnostic_format,
                false,
            ));
            return 1;
        }
    };
    let file = SourceFile::new(name, text);
    // Everything that walks the IR runs on the large-stack worker, printing
    // included; the output is streamed, never held whole.
    let options = driver::OptOptions {
        split_input_file: args.split_input_file,
        keep_comments: args.keep_comments,
        pipeline: args.pipeline.clone(),
    };
    driver::with_large_stack(|| report_and_print(&file, &args, driver::run_opt(&file, &options)))
}

/// Writes to stderr, ignoring failure (a closed stderr must not panic).
fn write_stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

fn report_and_print(file: &SourceFile, args: &OptArgs, outcome: driver::OptOutcome) -> u8 {
    let color =
        args.diagnostic_format == DiagnosticFormat::Human && std::io::stderr().is_terminal();
    let mut status = 0u8;
    if args.verify_diagnostics {
        let report = crate::testing::verify_diagnostics::verify(file, &outcome.diagnostics);
        if !report.is_empty() {
            write_stderr(&diagnostics::render_all(
                &report,
                file,
                args.diagnostic_format,
                color,
            ));
            status = 1;
        }
    } else {
        write_stderr(&diagnostics::render_all(
            &outcome.diagnostics,
            file,
            args.diagnostic_format,
            color,
        ));
        if outcome.diagnostics.iter().any(Diagnostic::is_error) {
            status = 1;
        }
    }
    write_stderr(&outcome.stderr);
    match &args.output {
        // Like mlir-opt, a failed run leaves the output file as it was.
        Some(_) if status != 0 => {}
        Some(path) => {
            if let Err(e) = write_atomically_with(path, |f| outcome.write_output(f)) {
                eprintln!("error: cannot write '{}': {e}", path.display());
                return 1;
            }
        }
        None => {
            let out = std::io::stdout().lock();
            if let Err(e) = outcome.write_output(out) {
                // A closed pipe (`pfir opt x | head`) is not an error of ours.
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("error: cannot write the output: {e}");
                    return 1;
                }
            }
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::check_size;
    use crate::span::MAX_SOURCE_BYTES;

    #[test]
    fn inputs_past_4_gib_get_a_diagnostic() {
        assert!(check_size(MAX_SOURCE_BYTES as u64).is_ok());
        let d = check_size(MAX_SOURCE_BYTES as u64 + 1).unwrap_err();
        assert!(d.is_error());
        assert_eq!(d.message, "input is too large: 4294967296 bytes");
    }
}
