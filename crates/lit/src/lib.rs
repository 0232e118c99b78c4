//! A lit-style test runner (the one behind `pfir test` and pfir's `cargo
//! test` harness).
//!
//! A test is a `.pfir` file with `// RUN:` lines ([`run_line`] describes
//! their syntax). Each RUN line is run in order, without a shell
//! ([`execute`]); the test passes when every one of them passes. Files run
//! in parallel ([`run_all`]); [`report`] formats what happened;
//! [`orphans`] catches the processes that leave a pipeline's process group. Directives
//! (`XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:`) and the
//! per-directory `lit.toml` are read by [`config`]; a test's outcome is one
//! of lit's ([`Outcome`]).
//!
//! **Boundary:** this crate knows nothing of pfir's compiler. It depends
//! only on `fsutil` of the workspace (never on the `pfir` package, which a
//! test in pfir's `tests/it/crate_boundaries.rs` checks); what it needs from
//! the program that embeds it is injected through the [`Config`]:
//!
//! - which executable a program name of a RUN line stands for
//!   ([`Tools::programs`]: pfir maps `pfir` to its own binary and
//!   `FileCheck` to its `filecheck` subcommand);
//! - how to regenerate a test's CHECK lines before running it (`--update`),
//!   through the [`UpdateChecks`] trait (pfir's implementation reads the
//!   command's output with pfir's lexer).

pub mod boolean_expr;
pub mod config;
pub mod define;
pub mod discover;
pub mod execute;
pub mod in_process;
pub mod orphans;
pub mod report;
pub mod run_line;
pub mod scratch;

pub use discover::{Discovery, discover, discover_all, has_run_lines};
pub use execute::{Program, Tools};
pub use report::XunitCase;
pub use scratch::ScratchDir;

use execute::PipelineResult;
use run_line::{RunLine, Substitutions};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use std::time::{Duration, Instant};

/// How tests are run.
#[derive(Clone, Debug)]
pub struct Config {
    pub tools: Tools,
    /// How many test files run at once (at least 1).
    pub jobs: usize,
    /// Only paths this matches are run.
    pub filter: Option<regex::Regex>,
    /// Paths this matches are not run (lit's `--filter-out`).
    pub filter_out: Option<regex::Regex>,
    /// Stop starting tests after this many have failed (lit's
    /// `--max-failures`); the ones not started are counted as skipped.
    pub max_failures: Option<usize>,
    /// Regenerate CHECK lines before running, with this (`--update`);
    /// `None` runs the tests as written.
    pub update: Option<Arc<dyn UpdateChecks>>,
    /// How long one test (all its RUN lines) may run; its running commands
    /// are killed when the time is up. `tools.timeout` bounds each pipeline.
    pub test_timeout: Option<Duration>,
    /// Features the embedding program adds to every test's (beside the
    /// `lit.toml` ones and the built-in `unix`/OS name), for `REQUIRES:`
    /// and `UNSUPPORTED:`; pfir adds `testkit` when built with its
    /// test-only passes.
    pub features: Vec<String>,
}

impl Config {
    /// A configuration that runs commands with `tools`, with one job per
    /// available core, no filter, no update and no timeout.
    pub fn new(tools: Tools) -> Config {
        Config {
            tools,
            jobs: default_jobs(),
            filter: None,
            filter_out: None,
            max_failures: None,
            update: None,
            test_timeout: None,
            features: Vec::new(),
        }
    }
}

/// Regenerates the CHECK lines of a test file before it runs (`--update`):
/// the part of updating that knows the language under test, supplied by
/// the program that embeds the runner.
pub trait UpdateChecks: Send + Sync + std::fmt::Debug {
    /// Updates the test `path`, running its commands with `tools`. `Ok`
    /// carries a remark for the test's result line (such as "checks
    /// updated"), if any; `Err` why nothing was updated, which the runner
    /// reports as "checks not updated: ..." before running the test as
    /// written.
    fn update(&self, path: &Path, tools: &Tools) -> Result<Option<String>, String>;
}

pub use fsutil::parallel::default_jobs;

/// One RUN-line pipeline that was run.
#[derive(Debug)]
pub struct Step {
    /// The RUN line it came from.
    pub run_line: RunLine,
    /// The pipeline, substitutions applied.
    pub command: String,
    pub result: PipelineResult,
}

/// Why a test did not pass.
#[derive(Debug)]
pub enum Failure {
    /// The file could not be read or has no RUN lines.
    Unresolved(String),
    /// A RUN line could not be parsed.
    BadRunLine { line: usize, message: String },
    /// The last of the test's steps failed.
    Failed,
    /// The test is marked `XFAIL` but passed.
    UnexpectedPass,
    /// The whole test ran longer than `--timeout`.
    TimedOut(Duration),
}

/// What running one test file gave.
#[derive(Debug)]
pub struct TestResult {
    pub path: PathBuf,
    /// `None` when the test passed.
    pub failure: Option<Failure>,
    /// The pipelines run, in order (the failing one last).
    pub steps: Vec<Step>,
    /// Remarks for the result line, such as "checks updated".
    pub notes: Vec<String>,
    /// The test's private temporary directory (`%T`), kept when it failed.
    pub temp_dir: PathBuf,
    pub duration: Duration,
    /// Why it was not run (`REQUIRES:` / `UNSUPPORTED:`), if so.
    pub unsupported: Option<String>,
    /// Whether it is expected to fail (`XFAIL:`); its failure then passes.
    pub expected_failure: bool,
}

/// How a test ended, in lit's words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
    /// Failed as its `XFAIL:` said (counts as a success).
    XFail,
    /// Passed although marked `XFAIL:` (a failure).
    XPass,
    /// Not run: `REQUIRES:` / `UNSUPPORTED:`.
    Unsupported,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::XFail => "XFAIL",
            Outcome::XPass => "XPASS",
            Outcome::Unsupported => "UNSUPPORTED",
        }
    }

    /// Whether it counts as a success.
    pub fn ok(self) -> bool {
        matches!(self, Outcome::Pass | Outcome::XFail | Outcome::Unsupported)
    }
}

impl TestResult {
    pub fn outcome(&self) -> Outcome {
        match (&self.failure, self.expected_failure) {
            _ if self.unsupported.is_some() => Outcome::Unsupported,
            (None, _) => Outcome::Pass,
            (Some(Failure::UnexpectedPass), _) => Outcome::XPass,
            (Some(Failure::Failed | Failure::TimedOut(_)), true) => Outcome::XFail,
            (Some(_), _) => Outcome::Fail,
        }
    }

    /// Whether the test counts as a success (PASS, XFAIL, UNSUPPORTED).
    pub fn passed(&self) -> bool {
        self.outcome().ok()
    }
}

/// Runs the RUN lines of one test file, in order, stopping at the first
/// failure.
pub fn run_test(path: &Path, config: &Config) -> TestResult {
    run_test_with(path, config, &Configs::default())
}

/// The `lit.toml` configuration of each directory (with the embedding
/// program's features), read once per run: every test of a directory has
/// the same.
#[derive(Default)]
struct Configs(std::sync::Mutex<HashMap<PathBuf, Arc<Result<config::LitConfig, String>>>>);

impl Configs {
    fn for_test(&self, path: &Path, config: &Config) -> Arc<Result<config::LitConfig, String>> {
        let lock = || self.0.lock().unwrap_or_else(|e| e.into_inner());
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        if let Some(known) = lock().get(&dir) {
            return known.clone();
        }
        let read = Arc::new(config::LitConfig::for_test(path).map(|mut lit_config| {
            lit_config.features.extend(config.features.iter().cloned());
            lit_config
        }));
        lock().entry(dir).or_insert(read).clone()
    }
}

fn run_test_with(path: &Path, config: &Config, configs: &Configs) -> TestResult {
    let start = Instant::now();
    let mut result = TestResult {
        path: path.to_path_buf(),
        failure: None,
        steps: Vec::new(),
        notes: Vec::new(),
        temp_dir: PathBuf::new(),
        duration: Duration::ZERO,
        unsupported: None,
        expected_failure: false,
    };
    let lit_config = configs.for_test(path, config);
    let prepared = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))
        .and_then(|text| {
            let directives = config::Directives::parse(&text)?;
            let lit_config = lit_config.as_ref().as_ref().map_err(Clone::clone)?;
            Ok((text, directives, lit_config))
        });
    let (mut text, directives, lit_config) = match prepared {
        Ok(v) => v,
        Err(e) => {
            result.failure = Some(Failure::Unresolved(e));
            result.duration = start.elapsed();
            return result;
        }
    };
    if let Some(why) = directives.unsupported_because(lit_config) {
        result.unsupported = Some(why.clone());
        result.notes.push(why);
        result.duration = start.elapsed();
        return result;
    }
    result.expected_failure = directives.expected_to_fail(lit_config);
    if let Some(updater) = &config.update {
        match updater.update(path, &config.tools) {
            Ok(note) => result.notes.extend(note),
            Err(e) => result.notes.push(format!("checks not updated: {e}")),
        }
        // The RUN lines as updated.
        match std::fs::read_to_string(path) {
            Ok(updated) => text = updated,
            Err(e) => {
                result.failure = Some(Failure::Unresolved(format!(
                    "cannot read '{}': {e}",
                    path.display()
                )));
                result.duration = start.elapsed();
                return result;
            }
        }
    }
    let deadline = config.test_timeout.map(|t| (start + t, t));
    let attempts = directives.allow_retries.saturating_add(1);
    for attempt in 1..=attempts {
        // Created only when a RUN line uses `%t` / `%T`.
        let mut scratch = Scratch {
            planned: scratch::Planned::new(path),
            created: None,
        };
        result.steps.clear();
        result.failure = run_steps(
            path,
            &text,
            config,
            &lit_config.substitutions,
            deadline,
            &mut scratch,
            &mut result.steps,
        )
        .err();
        result.temp_dir = scratch.planned.path().to_path_buf();
        let failed = matches!(result.failure, Some(Failure::Failed));
        let last = attempt == attempts || !failed;
        if last
            && result.failure.is_some()
            && let Some(dir) = scratch.created.take_if(|d| !d.is_empty())
        {
            dir.keep();
        }
        if last {
            if attempt > 1 {
                result
                    .notes
                    .push(format!("attempt {attempt} of {attempts}"));
            }
            break;
        }
    }
    if result.expected_failure && result.failure.is_none() {
        result.failure = Some(Failure::UnexpectedPass);
    }
    result.duration = start.elapsed();
    result
}

/// A test's scratch directory: its name, planned before the RUN lines are
/// parsed, and the directory once one of them uses it.
struct Scratch {
    planned: scratch::Planned,
    created: Option<ScratchDir>,
}

/// The RUN lines of one test, each with its pipelines.
type Parsed = Vec<(RunLine, Vec<run_line::Pipeline>)>;

fn run_steps(
    path: &Path,
    text: &str,
    config: &Config,
    custom: &[(String, String)],
    deadline: Option<(Instant, Duration)>,
    scratch: &mut Scratch,
    steps: &mut Vec<Step>,
) -> Result<(), Failure> {
    let parsed = parse_run_lines(path, text, custom, scratch)?;
    // Where `cd` has moved the commands (for the rest of the test, as in
    // lit, whose RUN lines are one script).
    let mut cwd: Option<PathBuf> = None;
    for (run_line, pipelines) in parsed {
        for pipeline in pipelines {
            let result = match builtin_cd(&pipeline, &mut cwd) {
                Some(result) => result,
                None => {
                    // A copy of the tools only when the test's deadline bounds them.
                    let mut tools = std::borrow::Cow::Borrowed(&config.tools);
                    if let Some((deadline, limit)) = deadline {
                        let left = deadline.saturating_duration_since(Instant::now());
                        if left.is_zero() {
                            return Err(Failure::TimedOut(limit));
                        }
                        let timeout = Some(tools.timeout.map_or(left, |t| t.min(left)));
                        tools.to_mut().timeout = timeout;
                    }
                    execute::run_pipeline(&pipeline, &tools, cwd.as_deref())
                }
            };
            let passed = result.passed();
            if !passed
                && let Some((deadline, limit)) = deadline
                && Instant::now() >= deadline
            {
                steps.push(Step {
                    run_line: run_line.clone(),
                    command: pipeline.display(),
                    result,
                });
                return Err(Failure::TimedOut(limit));
            }
            steps.push(Step {
                run_line: run_line.clone(),
                command: pipeline.display(),
                result,
            });
            if !passed {
                return Err(Failure::Failed);
            }
        }
    }
    Ok(())
}

/// Runs `pipeline` when it is lit's builtin `cd DIR` (relative to where
/// an earlier `cd` moved), changing `cwd`; `None` for any other pipeline.
/// As in lit, `cd` always succeeds (a directory that does not exist makes
/// the commands after it fail), takes one argument, and is no stage of a
/// pipeline of several.
fn builtin_cd(pipeline: &run_line::Pipeline, cwd: &mut Option<PathBuf>) -> Option<PipelineResult> {
    let at = pipeline.stages.iter().position(|s| s.argv[0] == "cd")?;
    let stage = &pipeline.stages[at];
    let error = if pipeline.stages.len() > 1 {
        Some("`cd` cannot be part of a pipeline".to_string())
    } else if stage.argv.len() != 2 {
        Some("`cd` takes exactly one argument".to_string())
    } else {
        let base = match cwd.clone() {
            Some(dir) => dir,
            None => std::env::current_dir().unwrap_or_default(),
        };
        *cwd = Some(base.join(&stage.argv[1]));
        None
    };
    let stages = pipeline
        .stages
        .iter()
        .map(|s| execute::StageResult {
            command: s.display(),
            invert: s.invert,
            crash: s.crash,
            status: error.is_none().then(|| in_process::exit_status(0)),
            error: error.clone(),
            stderr: Vec::new(),
            stderr_dropped: 0,
        })
        .collect();
    Some(PipelineResult {
        stages,
        stdout: Vec::new(),
        stdout_dropped: 0,
    })
}

/// Parses every RUN line of `text` (a syntax error anywhere fails before
/// anything runs), with `%t` in `scratch`'s planned directory, and creates
/// that directory when a pipeline uses it (under a new name, parsing again,
/// when the planned one is taken).
fn parse_run_lines(
    path: &Path,
    text: &str,
    custom: &[(String, String)],
    scratch: &mut Scratch,
) -> Result<Parsed, Failure> {
    // `DEFINE:` / `REDEFINE:` in force at each RUN line, expanded.
    let (run_lines, expanded): (Vec<_>, Vec<String>) = define::expanded_run_lines(text, custom)
        .map_err(Failure::Unresolved)?
        .into_iter()
        .unzip();
    if run_lines.is_empty() {
        return Err(Failure::Unresolved(
            "the file has no `// RUN:` lines".into(),
        ));
    }
    let mut clashes = 0;
    loop {
        let subs = Substitutions {
            source: path.to_path_buf(),
            temp: scratch.planned.temp.clone(),
            custom: custom.to_vec(),
        };
        let mut parsed = Vec::with_capacity(run_lines.len());
        for (run_line, text) in run_lines.iter().zip(&expanded) {
            let pipelines =
                run_line::parse(text, &subs).map_err(|message| Failure::BadRunLine {
                    line: run_line.line,
                    message,
                })?;
            parsed.push((run_line.clone(), pipelines));
        }
        let used = parsed
            .iter()
            .flat_map(|(_, pipelines)| pipelines)
            .any(|p| scratch.planned.used_by(p));
        if !used {
            return Ok(parsed);
        }
        match scratch.planned.clone().create() {
            Ok(dir) => {
                scratch.created = Some(dir);
                return Ok(parsed);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && clashes < 64 => {
                clashes += 1;
                scratch.planned = scratch::Planned::new(path);
            }
            Err(e) => {
                return Err(Failure::Unresolved(format!(
                    "cannot create a temporary directory: {e}"
                )));
            }
        }
    }
}

/// Totals of a run.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    /// PASS and XFAIL.
    pub passed: usize,
    /// FAIL and XPASS.
    pub failed: Vec<PathBuf>,
    /// Of `passed`: the XFAIL ones.
    pub expected_failures: usize,
    /// Not run (UNSUPPORTED); not in `passed`.
    pub unsupported: usize,
    /// Of `failed`: the XPASS ones.
    pub unexpected_passes: usize,
    /// Not started because `--max-failures` was reached.
    pub skipped: usize,
    /// Found but left out by `--filter` / `--filter-out` (set by the caller).
    pub excluded: usize,
}

impl Summary {
    /// The tests run or skipped (not the excluded ones).
    pub fn total(&self) -> usize {
        self.passed + self.failed.len() + self.unsupported + self.skipped
    }
}

/// Whether `path` passes `config.filter` and not `config.filter_out`.
pub fn selected(path: &Path, config: &Config) -> bool {
    let text = path.to_string_lossy();
    config.filter.as_ref().is_none_or(|re| re.is_match(&text))
        && !config
            .filter_out
            .as_ref()
            .is_some_and(|re| re.is_match(&text))
}

/// Puts `files` in a random order (lit's `--shuffle`), seeded by `seed`.
pub fn shuffle(files: &mut [PathBuf], seed: u64) {
    // xorshift64*: enough to mix an order; not for anything secret.
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for i in (1..files.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        files.swap(i, j);
    }
}

/// Runs `files` on `config.jobs` threads (`fsutil::parallel`), calling
/// `on_result` (on the calling thread) as each finishes, in completion
/// order; no test starts once `config.max_failures` have failed.
pub fn run_all(
    files: &[PathBuf],
    config: &Config,
    mut on_result: impl FnMut(&TestResult),
) -> Summary {
    let configs = Configs::default();
    let mut summary = Summary::default();
    let received = fsutil::parallel::run_indexed(
        files.len(),
        config.jobs,
        |i| run_test_with(&files[i], config, &configs),
        |_, result| {
            on_result(&result);
            match result.outcome() {
                Outcome::Unsupported => summary.unsupported += 1,
                Outcome::XFail => {
                    summary.passed += 1;
                    summary.expected_failures += 1;
                }
                Outcome::Pass => summary.passed += 1,
                Outcome::XPass => {
                    summary.unexpected_passes += 1;
                    summary.failed.push(result.path.clone());
                }
                Outcome::Fail => summary.failed.push(result.path.clone()),
            }
            match config.max_failures {
                Some(m) if summary.failed.len() >= m => std::ops::ControlFlow::Break(()),
                _ => std::ops::ControlFlow::Continue(()),
            }
        },
    );
    summary.skipped = files.len() - received;
    summary.failed.sort();
    summary
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch_for(test: &Path) -> Scratch {
        Scratch {
            planned: scratch::Planned::new(test),
            created: None,
        }
    }

    #[test]
    fn the_scratch_directory_is_created_only_for_a_run_line_that_uses_it() {
        let test = Path::new("dir/a.pfir");
        for text in ["// RUN: true\n", "// RUN: echo %s %S | cat\n"] {
            let mut scratch = scratch_for(test);
            parse_run_lines(test, text, &[], &mut scratch).unwrap();
            assert!(scratch.created.is_none(), "{text}");
            assert!(!scratch.planned.path().exists(), "{text}");
        }
        // Through a `lit.toml` substitution and a `DEFINE:` too.
        let custom = [("out".to_string(), "%t.out".to_string())];
        for text in [
            "// RUN: true\n// RUN: cat < %t\n",
            "// RUN: ls %T\n",
            "// RUN: echo %{out}\n",
            "// DEFINE: %{log} = %T/log\n// RUN: echo x > %{log}\n",
        ] {
            let mut scratch = scratch_for(test);
            parse_run_lines(test, text, &custom, &mut scratch).unwrap();
            let created = scratch.created.as_ref().expect(text);
            assert_eq!(created.path(), scratch.planned.path(), "{text}");
            assert!(created.path().is_dir(), "{text}");
        }
    }

    #[test]
    fn a_taken_name_is_never_shared() {
        let test = Path::new("a.pfir");
        let mut scratch = scratch_for(test);
        // Someone else made the planned directory first.
        let taken = scratch.planned.clone().create().unwrap();
        let parsed = parse_run_lines(test, "// RUN: echo %t\n", &[], &mut scratch).unwrap();
        let created = scratch.created.as_ref().unwrap();
        assert_ne!(created.path(), taken.path());
        assert_eq!(created.temp, scratch.planned.temp);
        // The command names the directory actually created.
        assert_eq!(
            parsed[0].1[0].stages[0].argv[1],
            created.temp.display().to_string()
        );
    }

    #[test]
    fn a_failure_keeps_what_it_wrote_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        let config = Config::new(Tools::new());
        let wrote = write("wrote.pfir", "// RUN: sh -c 'echo x > %t'\n// RUN: false\n");
        let r = run_test(&wrote, &config);
        assert!(!r.passed());
        assert!(r.temp_dir.join("wrote.pfir.tmp").is_file(), "kept");
        std::fs::remove_dir_all(&r.temp_dir).unwrap();
        let passed = write("passed.pfir", "// RUN: sh -c 'echo x > %t'\n");
        let r = run_test(&passed, &config);
        assert!(r.passed());
        assert!(!r.temp_dir.exists(), "removed after a pass");
        let no_t = write("no_t.pfir", "// RUN: false\n");
        let r = run_test(&no_t, &config);
        assert!(!r.passed());
        assert!(!r.temp_dir.exists());
    }
}
