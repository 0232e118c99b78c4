//! `pfir opt`: read a `.pfir` file, verify it, run passes, print it.

use crate::diagnostics::{self, Code, Diagnostic, DiagnosticFormat, SourceFile};
use crate::driver;
use crate::passes::PipelineOptions;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone, Default)]
pub struct OptArgs {
    /// The input file; `-` or nothing reads standard input.
    pub input: Option<PathBuf>,

    /// Write the output here (atomically: the file is replaced only when
    /// writing succeeded) instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,

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
    pub pipeline: PipelineArgs,

    /// The largest input read, in bytes (for tests; see
    /// `crate::io::read::MAX_INPUT_BYTES`).
    #[arg(long = "input-size-limit", value_name = "BYTES", hide = true,
          default_value_t = crate::io::read::MAX_INPUT_BYTES)]
    pub input_size_limit: u64,
}

/// The pass pipeline's flags; [`PipelineArgs::options`] turns them into the
/// plain [`PipelineOptions`] the pass manager takes.
#[derive(Args, Debug, Clone, Default)]
pub struct PipelineArgs {
    /// Passes to run, in order, separated by commas.
    #[arg(long = "passes", value_name = "NAME,...", value_delimiter = ',')]
    pub passes: Vec<String>,

    /// Verify, after each pass, the properties it claims to produce (default).
    #[arg(long = "verify-each", overrides_with = "no_verify_each")]
    pub verify_each: bool,

    /// Skip the verification after each pass.
    #[arg(long = "no-verify-each", overrides_with = "verify_each")]
    pub no_verify_each: bool,

    /// Print the IR to stderr after every pass.
    #[arg(long = "print-ir-after-all")]
    pub print_ir_after_all: bool,

    /// Print the IR to stderr after the named passes.
    #[arg(
        long = "print-ir-after",
        value_name = "NAME,...",
        value_delimiter = ','
    )]
    pub print_ir_after: Vec<String>,

    /// Report each pass's wall time on stderr.
    #[arg(long = "timing")]
    pub timing: bool,

    /// Emit optimisation remarks: of every pass, or (`--remarks=NAME,...`)
    /// of the named passes.
    #[arg(
        long = "remarks",
        value_name = "NAME,...",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        value_delimiter = ','
    )]
    pub remarks: Option<Vec<String>>,

    /// Report pass statistics on stderr, per function.
    #[arg(long = "stats")]
    pub stats: bool,

    /// After the pipeline, check that every original task still waits for
    /// exactly the same original tasks (barriers aside), by expanding the
    /// task graph before and after; a lost or added dependency is an error.
    /// When a budget stops it short, a warning says so (exit status 0).
    #[arg(long = "verify-deps")]
    pub verify_deps: bool,
}

impl PipelineArgs {
    /// The plain options these flags stand for.
    pub fn options(&self) -> PipelineOptions {
        PipelineOptions {
            passes: self.passes.clone(),
            verify_each: !self.no_verify_each,
            print_ir_after_all: self.print_ir_after_all,
            print_ir_after: self.print_ir_after.clone(),
            timing: self.timing,
            remarks: self.remarks.clone(),
            stats: self.stats,
            verify_deps: self.verify_deps,
        }
    }
}

/// How diagnostics are written: the options every command that reads
/// `.pfir` files shares.
#[derive(Args, Debug, Clone, Copy)]
pub struct DiagnosticArgs {
    /// How diagnostics are written: `human` (source snippets), `short`
    /// (`file:line:col: error[E0010]: message`) or `json` (one object per line).
    #[arg(long = "diagnostic-format", value_enum, default_value_t = DiagnosticFormat::Human)]
    pub diagnostic_format: DiagnosticFormat,

    /// Colour `human` diagnostics: `auto` (on a terminal, unless `NO_COLOR`
    /// is set), `always` or `never`.
    #[arg(long = "color", value_enum, default_value_t = diagnostics::ColorChoice::Auto)]
    pub color: diagnostics::ColorChoice,

    /// Show at most this many errors per file (then a note counts the
    /// rest); 0 shows them all.
    #[arg(long = "error-limit", value_name = "N", default_value_t = diagnostics::render::DEFAULT_ERROR_LIMIT)]
    pub error_limit: usize,
}

impl Default for DiagnosticArgs {
    fn default() -> DiagnosticArgs {
        DiagnosticArgs {
            diagnostic_format: DiagnosticFormat::default(),
            color: diagnostics::ColorChoice::default(),
            error_limit: diagnostics::render::DEFAULT_ERROR_LIMIT,
        }
    }
}

impl DiagnosticArgs {
    /// These options with `--color auto` decided for this thread's
    /// standard error, for reports rendered on other threads.
    pub fn resolved(self) -> DiagnosticArgs {
        let color = if self.color() {
            diagnostics::ColorChoice::Always
        } else {
            diagnostics::ColorChoice::Never
        };
        DiagnosticArgs { color, ..self }
    }

    pub fn color(&self) -> bool {
        diagnostics::stderr_color(self.color, self.diagnostic_format)
    }

    /// `--error-limit` (0: none).
    pub fn error_limit(&self) -> Option<usize> {
        (self.error_limit > 0).then_some(self.error_limit)
    }

    /// Writes `diags` (about `file`) to stderr, each as it is rendered, up
    /// to `--error-limit` errors.
    pub fn report(&self, diags: &[Diagnostic], file: &SourceFile) {
        let _ = diagnostics::render::write_all(
            &mut crate::io::stdio::stderr(),
            diags,
            file,
            self.diagnostic_format,
            self.color(),
            self.error_limit(),
        );
    }

    /// Writes a diagnostic that points into no text (I/O, usage) to stderr.
    pub fn report_plain(&self, d: &Diagnostic, file: Option<&str>) {
        write_stderr(&diagnostics::render_without_source(
            d,
            file,
            self.diagnostic_format,
            self.color(),
        ));
    }

    /// Reports why the input could not be read; returns the exit status (1).
    pub fn report_read_error(&self, error: ReadError, path: Option<&PathBuf>) -> u8 {
        let name = path
            .filter(|p| p.as_os_str() != "-")
            .map(|p| p.display().to_string());
        let d = match &error {
            ReadError::Io(_) => io_error(error.to_string()),
            ReadError::TooLarge { .. } => {
                Diagnostic::error(error.to_string(), crate::span::Span::default())
                    .with_code(Code::TooLarge)
            }
        };
        self.report_plain(&d, name.as_deref());
        1
    }

    /// Reports input that is not UTF-8 at its first bad byte; returns 1.
    pub fn report_not_utf8(&self, file: &SourceFile, offset: usize) -> u8 {
        self.report(&[not_utf8_diagnostic(offset)], file);
        1
    }
}

/// An I/O error as a diagnostic (no source text to point into).
pub fn io_error(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(message, crate::span::Span::default()).with_code(Code::Io)
}

pub use crate::io::read::ReadError;

/// Reads the input named by `path` (`-` or none: stdin), at most `limit`
/// bytes (and never more than spans can address). Input that is not UTF-8
/// (spec section 2: source is UTF-8) is still returned, decoded lossily,
/// with the offset of its first bad byte: it is reported as a diagnostic
/// there, with a line and column like every other rejected input (spec
/// section 8), in the requested `--diagnostic-format`.
pub fn read_input(
    path: Option<&PathBuf>,
    limit: u64,
) -> Result<(SourceFile, Option<usize>), ReadError> {
    let limit = limit.min(crate::span::MAX_SOURCE_BYTES as u64);
    let (name, bytes) = crate::io::read::read_limited(path.map(PathBuf::as_path), limit)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok((SourceFile::new(name, text), None)),
        Err(e) => Ok(SourceFile::from_bytes_lossy(name, e.as_bytes())),
    }
}

/// The diagnostic for input that is not UTF-8: at the first bad byte (the
/// U+FFFD that replaced it in the lossy text).
pub(crate) fn not_utf8_diagnostic(offset: usize) -> Diagnostic {
    let span = crate::span::Span::new(offset, offset + char::REPLACEMENT_CHARACTER.len_utf8());
    Diagnostic::error("input is not valid UTF-8", span)
        .with_code(Code::NotUtf8)
        .with_label(format!("invalid byte at offset {offset}"))
        .with_note(".pfir source text must be UTF-8")
}

fn output_is_stdout(output: Option<&PathBuf>) -> bool {
    output.is_none_or(|p| p.as_os_str() == "-")
}

/// Whether standard output was closed when pfir started (`pfir opt f >&-`).
/// The Rust runtime reopens a closed standard stream on `/dev/null` for
/// reading and writing before `main`, so output written there would be lost
/// without an error; a shell's `> /dev/null` opens it for writing only.
#[cfg(unix)]
fn stdout_was_closed() -> bool {
    use rustix::fs::{FileType, OFlags};
    if crate::io::stdio::is_redirected() {
        return false;
    }
    let out = std::io::stdout();
    let Ok(stat) = rustix::fs::fstat(&out) else {
        return true;
    };
    let Ok(dev_null) = rustix::fs::stat("/dev/null") else {
        return false;
    };
    let is_dev_null = FileType::from_raw_mode(stat.st_mode) == FileType::CharacterDevice
        && stat.st_rdev == dev_null.st_rdev;
    is_dev_null && rustix::fs::fcntl_getfl(&out).is_ok_and(|f| f & OFlags::RWMODE == OFlags::RDWR)
}

#[cfg(not(unix))]
fn stdout_was_closed() -> bool {
    false
}

pub fn run(args: OptArgs) -> u8 {
    let pipeline = args.pipeline.options();
    if let Err(message) = crate::passes::check_pipeline(&pipeline) {
        args.diagnostics.report_plain(
            &Diagnostic::error(message.to_string(), crate::span::Span::default())
                .with_code(Code::UnknownPass)
                .with_help("`pfir opt --help` lists the passes"),
            None,
        );
        return 2;
    }
    if output_is_stdout(args.output.as_ref()) && stdout_was_closed() {
        args.diagnostics.report_plain(
            &io_error("standard output is closed; nowhere to write the output (use -o FILE)"),
            None,
        );
        return 1;
    }
    // Spans are 32-bit offsets: no limit lets a larger input through.
    let limit = args
        .input_size_limit
        .min(crate::span::MAX_SOURCE_BYTES as u64);
    // What the input was when read, for `-o` onto the input itself.
    let read = args
        .input
        .as_ref()
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| crate::io::Snapshot::of(p));
    let (file, bad_byte) = match read_input(args.input.as_ref(), limit) {
        Ok(v) => v,
        Err(e) => return args.diagnostics.report_read_error(e, args.input.as_ref()),
    };
    if let Some(offset) = bad_byte {
        return args.diagnostics.report_not_utf8(&file, offset);
    }
    // Everything runs on this thread, printing included; the output is
    // streamed, never held whole.
    let options = driver::OptOptions {
        split_input_file: args.split_input_file,
        keep_comments: args.keep_comments,
        pipeline,
    };
    report_and_print(&file, &args, read, driver::run_opt(&file, &options))
}

/// Writes to stderr, ignoring failure (a closed stderr must not panic).
pub fn write_stderr(text: &str) {
    crate::io::stdio::write_stderr(text.as_bytes());
}

fn report_and_print(
    file: &SourceFile,
    args: &OptArgs,
    read: Option<crate::io::Snapshot>,
    outcome: driver::OptOutcome,
) -> u8 {
    let mut status = 0u8;
    if args.verify_diagnostics {
        let report = crate::testing::verify_diagnostics::verify(file, &outcome.diagnostics);
        if !report.is_empty() {
            args.diagnostics.report(&report, file);
            status = 1;
        }
    } else {
        args.diagnostics.report(&outcome.diagnostics, file);
        if outcome.diagnostics.iter().any(Diagnostic::is_error) {
            status = 1;
        }
    }
    write_stderr(&outcome.stderr);
    match args.output.as_ref().filter(|p| p.as_os_str() != "-") {
        // Like mlir-opt, a failed run leaves the output file as it was.
        Some(_) if status != 0 => {}
        Some(path) => {
            // `-o` onto the input: refused if the input changed meanwhile.
            let same =
                read.filter(|r| crate::io::Snapshot::of(path).is_some_and(|now| now.same_file(r)));
            if let Err(e) = crate::io::write_atomically_checked(path, same.as_ref(), |f| {
                outcome.write_output(f)
            }) {
                args.diagnostics.report_plain(
                    &io_error(format!("cannot write '{}': {e}", path.display())),
                    Some(&path.display().to_string()),
                );
                return 1;
            }
        }
        None => {
            let out = crate::io::stdio::stdout();
            if let Err(e) = outcome.write_output(out) {
                // A closed pipe (`pfir opt x | head`) is not an error of ours.
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    args.diagnostics
                        .report_plain(&io_error(format!("cannot write the output: {e}")), None);
                    return 1;
                }
            }
        }
    }
    super::release(outcome);
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::check_pipeline;

    const NAME: &str = crate::passes::expand_manual_phase_fence::NAME;

    /// The pipeline options `pfir opt ARGS` stands for.
    fn opts(args: &[&str]) -> PipelineOptions {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            p: PipelineArgs,
        }
        let argv = std::iter::once("pfir").chain(args.iter().copied());
        Cli::try_parse_from(argv)
            .expect("options parse")
            .p
            .options()
    }

    #[test]
    fn pipeline_flags_become_options() {
        let o = opts(&[]);
        assert!(o.verify_each() && o.remarks.is_none());
        assert!(!opts(&["--no-verify-each"]).verify_each());
        assert!(opts(&["--no-verify-each", "--verify-each"]).verify_each());
        let o = opts(&["--remarks"]);
        assert!(o.remarks_for(NAME));
        let o = opts(&[&format!("--remarks={NAME}")]);
        assert!(o.remarks_for(NAME) && !o.remarks_for("other"));
        let o = opts(&[
            "--passes",
            &format!("{NAME},{NAME}"),
            "--print-ir-after",
            NAME,
        ]);
        assert_eq!(o.passes.len(), 2);
        assert!(o.print_after(NAME));
    }

    #[test]
    fn unknown_pass_names_in_flags_are_usage_errors() {
        assert!(check_pipeline(&opts(&["--print-ir-after=nope"])).is_err());
        assert!(check_pipeline(&opts(&["--remarks=nope"])).is_err());
        assert!(check_pipeline(&opts(&["--passes", NAME, "--remarks", "--stats"])).is_ok());
    }
}
