//! `pfir reduce FILE PREDICATE [-o OUT]`: shrink a program while it keeps
//! a property (`crate::reduce`). The input is never written; the result
//! goes to `-o` (default `FILE.reduced.pfir`), replaced atomically after
//! each improvement, so an interrupted run leaves the best program found.
//! On a terminal a progress line shows the step, the size and the best so
//! far.

use super::opt::{DiagnosticArgs, PipelineArgs, io_error, read_input};
use crate::diagnostics::Code;
use crate::reduce::predicate::{Oracle, Predicate};
use crate::reduce::program::Layout;
use crate::reduce::{Observer, ReduceError, Settings};
use clap::{ArgGroup, Args};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug, Clone)]
#[command(group(ArgGroup::new("predicate").required(true).args(
    ["test", "error", "remark", "verify_deps_fails", "differs_from", "filecheck"]
)))]
pub struct ReduceArgs {
    /// The program to reduce (never modified).
    pub input: PathBuf,

    /// Where the result goes (default: FILE.reduced.pfir), rewritten
    /// atomically after each improvement.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Interesting when `CMD ARGS... CANDIDATE` exits 0 (as llvm-reduce's
    /// --test). Everything after --test is the command.
    #[arg(long = "test", value_name = "CMD", num_args = 1.., allow_hyphen_values = true)]
    pub test: Option<Vec<String>>,

    /// Interesting when a diagnostic with this code (E0010) is reported,
    /// reading the file or running the passes.
    #[arg(long = "error", value_name = "CODE")]
    pub error: Option<String>,

    /// Interesting when a remark of the passes matches REGEX.
    #[arg(long = "remark", value_name = "REGEX")]
    pub remark: Option<String>,

    /// Interesting when --verify-deps reports a lost or added dependency.
    #[arg(long = "verify-deps-fails")]
    pub verify_deps_fails: bool,

    /// Interesting when the printed output differs from the standard
    /// output of `CMD CANDIDATE` (CMD split at spaces; it must exit 0).
    #[arg(long = "differs-from", value_name = "CMD")]
    pub differs_from: Option<String>,

    /// Interesting when the printed output passes the checks of CHECKS
    /// (with --expect-fail: when it fails them).
    #[arg(long = "filecheck", value_name = "CHECKS")]
    pub filecheck: Option<PathBuf>,

    /// With --filecheck: interesting when the checks fail.
    #[arg(long = "expect-fail", requires = "filecheck")]
    pub expect_fail: bool,

    /// Seconds the whole reduction may run, and so each test: after them
    /// no candidate starts, a test command still running is killed (and
    /// counts as not interesting), and the best program so far is kept.
    /// The built-in predicates run in-process and are not killed: the
    /// time is checked between candidates. For a shorter limit on each
    /// test, put it in the command (`timeout 10 ./test.sh`). Default: no
    /// limit.
    #[arg(long = "timeout", value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// Write each function that holds no comment on one line, with no
    /// blank lines (newlines only separate tokens; `pfir fmt` lays the
    /// result out again). The candidates the predicate sees are laid out
    /// so too. Default: as `pfir fmt` prints, one statement per line.
    #[arg(long = "compact")]
    pub compact: bool,

    /// Candidates tested at once (default: one per core).
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    pub jobs: Option<usize>,

    /// The passes and pass flags the built-in predicates run (default:
    /// --passes=expand-manual-phase-fence).
    #[command(flatten)]
    pub pipeline: PipelineArgs,

    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

/// `FILE.reduced.pfir` for `FILE.pfir` (or `FILE`).
pub fn default_output(input: &Path) -> PathBuf {
    let name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".pfir").unwrap_or(&name);
    input.with_file_name(format!("{stem}.reduced.pfir"))
}

fn seconds(s: Option<f64>) -> Result<Option<Duration>, String> {
    match s {
        None => Ok(None),
        Some(s) => Duration::try_from_secs_f64(s)
            .map(Some)
            .map_err(|_| format!("not a number of seconds: {s}")),
    }
}

fn predicate(args: &ReduceArgs) -> Result<Predicate, String> {
    if let Some(argv) = &args.test {
        return Ok(Predicate::Test(argv.clone()));
    }
    if let Some(code) = &args.error {
        return Code::parse(code)
            .map(Predicate::Error)
            .ok_or_else(|| format!("unknown error code '{code}' (see pfir explain)"));
    }
    if let Some(re) = &args.remark {
        return regex::Regex::new(re)
            .map(Predicate::Remark)
            .map_err(|e| format!("invalid --remark regex: {e}"));
    }
    if args.verify_deps_fails {
        return Ok(Predicate::VerifyDepsFails);
    }
    if let Some(cmd) = &args.differs_from {
        let argv: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
        if argv.is_empty() {
            return Err("--differs-from needs a command".into());
        }
        return Ok(Predicate::DiffersFrom(argv));
    }
    let path = args.filecheck.as_ref().ok_or("no predicate")?;
    let checks = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(Predicate::FileCheck {
        checks,
        name: path.display().to_string(),
        expect_fail: args.expect_fail,
    })
}

/// Writes each accepted program to the output and shows progress.
struct Progress {
    output: PathBuf,
    bar: indicatif::ProgressBar,
    original: usize,
    best: usize,
    step: String,
    accepted: usize,
}

impl Progress {
    fn show(&self) {
        self.bar.set_message(format!(
            "{}: {} lines (from {}), {} improvements",
            self.step, self.best, self.original, self.accepted
        ));
    }
}

impl Observer for Progress {
    fn step(&mut self, name: &str) {
        self.step = name.to_string();
        self.show();
    }

    fn accepted(&mut self, text: &str) -> Result<(), String> {
        crate::io::atomic_write::write_atomically(&self.output, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", self.output.display()))?;
        self.best = fsutil::lines::lines(text).count();
        self.accepted += 1;
        self.show();
        Ok(())
    }
}

pub fn run(args: ReduceArgs) -> u8 {
    let report = |message: String| {
        args.diagnostics.report_plain(&io_error(message), None);
        1
    };
    let usage = |message: String| {
        let d = crate::diagnostics::Diagnostic::error(message, crate::span::Span::default())
            .with_code(Code::Usage);
        args.diagnostics.report_plain(&d, None);
        2
    };
    let predicate = match predicate(&args) {
        Ok(p) => p,
        Err(e) => return usage(e),
    };
    let timeout = match seconds(args.timeout) {
        Ok(t) => t,
        Err(e) => return usage(e),
    };
    let mut pipeline = args.pipeline.options();
    if pipeline.passes.is_empty() {
        pipeline.passes = vec!["expand-manual-phase-fence".to_string()];
    }
    if let Err(e) = crate::passes::check_pipeline(&pipeline) {
        return usage(e.to_string());
    }
    let file = match read_input(Some(&args.input), crate::io::read::MAX_INPUT_BYTES) {
        Ok((file, None)) => file,
        Ok((file, Some(offset))) => return args.diagnostics.report_not_utf8(&file, offset),
        Err(e) => return args.diagnostics.report_read_error(e, Some(&args.input)),
    };
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| default_output(&args.input));
    let same = |a: &Path, b: &Path| matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y);
    if same(&args.input, &output) {
        return usage(format!(
            "-o {} is the input: pfir reduce never writes its input",
            output.display()
        ));
    }
    let name = args
        .input
        .file_name()
        .map_or("input.pfir".into(), |n| n.to_string_lossy().into_owned());
    // A limit too far to reach is no limit (rather than an overflow).
    let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
    let mut oracle = match Oracle::new(predicate, pipeline, &name) {
        Ok(o) => o,
        Err(e) => return report(format!("cannot create a scratch directory: {e}")),
    };
    oracle.deadline = deadline;
    let settings = Settings {
        jobs: args
            .jobs
            .unwrap_or_else(fsutil::parallel::default_jobs)
            .max(1),
        deadline,
        layout: if args.compact {
            Layout::Compact
        } else {
            Layout::Formatted
        },
    };
    // Drawn only when stderr is a terminal, redrawn at each step and
    // improvement (no ticking thread).
    let bar = indicatif::ProgressBar::new_spinner();
    let mut progress = Progress {
        output: output.clone(),
        bar,
        original: fsutil::lines::lines(&file.text).count(),
        best: fsutil::lines::lines(&file.text).count(),
        step: "start".into(),
        accepted: 0,
    };
    let result = crate::reduce::reduce(&file.text, &oracle, &settings, &mut progress);
    progress.bar.finish_and_clear();
    match result {
        Ok(outcome) => {
            let how = if outcome.on_ir {
                "on the IR"
            } else {
                "by lines"
            };
            let stop = if outcome.timed_out {
                " (stopped by --timeout)"
            } else {
                ""
            };
            crate::io::stdio::write_stderr(
                format!(
                    "reduced {} lines to {} ({how}, {} candidates){stop}: {}\n",
                    progress.original,
                    fsutil::lines::lines(&outcome.text).count(),
                    outcome.tried,
                    output.display()
                )
                .as_bytes(),
            );
            0
        }
        Err(ReduceError::NotInteresting) => report(format!(
            "{} is not interesting: the predicate does not hold for the input itself",
            args.input.display()
        )),
        Err(ReduceError::TimedOut) => report(format!(
            "--timeout ran out before the test of {} itself ended",
            args.input.display()
        )),
        Err(ReduceError::Output(e)) => report(e),
    }
}
