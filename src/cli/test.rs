//! `pfir test`: the lit-style runner (see `docs/testing.md`).

use crate::testing::lit::{self, report};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TestArgs {
    /// Files or directories to search for `.pfir` tests (default: the
    /// current directory). Directories are searched recursively for `*.pfir`
    /// files with `// RUN:` lines, skipping hidden directories, `target` and
    /// `Inputs`; a file named explicitly is always run.
    pub paths: Vec<PathBuf>,

    /// How many test files run at once (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,

    /// Only run tests whose path matches this regular expression.
    #[arg(long = "filter", value_name = "REGEX")]
    pub filter: Option<regex::Regex>,

    /// Do not run tests whose path matches this regular expression.
    #[arg(long = "filter-out", value_name = "REGEX")]
    pub filter_out: Option<regex::Regex>,

    /// Stop starting tests once this many have failed; the rest are
    /// counted as skipped.
    #[arg(long = "max-failures", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_failures: Option<u32>,

    /// Run the tests in a random order.
    #[arg(long = "shuffle")]
    pub shuffle: bool,

    /// Also list the commands of passing tests.
    #[arg(short = 'v', long = "verbose")]
    pub verbose: bool,

    /// Only print failures and the summary.
    #[arg(short = 'q', long = "quiet", conflicts_with = "verbose")]
    pub quiet: bool,

    /// Rewrite each test's CHECK lines from the current output of its
    /// command (the first RUN line that pipes into FileCheck, up to
    /// FileCheck), then run it.
    #[arg(long = "update")]
    pub update: bool,

    /// Fail a test that runs longer than this many seconds (all its RUN
    /// lines together), killing its running commands. Default: no limit.
    #[arg(long = "timeout", value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// The most data memory, in MiB, each stage run as a process may
    /// allocate (Linux, `RLIMIT_DATA`; 0: no limit). Default: 4096.
    #[arg(long = "memory-limit", value_name = "MIB")]
    pub memory_limit: Option<u64>,

    /// Also write the results as JUnit-style XML (for CI systems) to FILE.
    #[arg(long = "xunit-xml-output", value_name = "FILE")]
    pub xunit_xml_output: Option<PathBuf>,

    /// Spawn a process for every stage of every RUN line, even for pfir's
    /// own commands (`pfir opt|check|fmt|graph|filecheck`, `FileCheck`),
    /// which otherwise run inside this process when a pipeline is made only
    /// of them.
    #[arg(long = "no-in-process")]
    pub no_in_process: bool,

    /// The executable that `pfir`, `%{pfir}` and `FileCheck` in RUN lines
    /// stand for (default: this program); `tools/pypto-opt` runs the tests
    /// against PyPTO's own pass (docs/pypto.md).
    #[arg(long = "pfir-exe", value_name = "PATH")]
    pub pfir_exe: Option<PathBuf>,
}

pub fn run(args: TestArgs) -> u8 {
    let config = match config(&args) {
        Ok(config) => config,
        Err(status) => return status,
    };
    let selection = match select(&args, &config) {
        Ok(selection) => selection,
        Err(status) => return status,
    };
    let start = std::time::Instant::now();
    let (mut summary, xunit) = run_selected(&args, &config, &selection.tests);
    summary.excluded = selection.found - selection.tests.len();
    let xunit_written = write_xunit(&args, xunit, start.elapsed());
    // A closed stdout (`pfir test | head`) must not panic.
    let mut out = std::io::stdout().lock();
    let _ = write!(
        out,
        "{}",
        report::summary(&summary, start.elapsed(), args.quiet)
    );
    let _ = out.flush();
    let unreadable = selection.unreadable;
    if unreadable > 0 {
        let _ = writeln!(
            out,
            "{unreadable} path{} could not be read (see the errors above)",
            if unreadable == 1 { "" } else { "s" }
        );
    }
    if summary.failed.is_empty() && unreadable == 0 && xunit_written {
        0
    } else {
        1
    }
}

/// The runner's configuration for `args`, or the exit status of a usage
/// error.
fn config(args: &TestArgs) -> Result<lit::Config, u8> {
    let exe = match args.pfir_exe.clone().map_or_else(std::env::current_exe, Ok) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot find the pfir executable: {e}");
            return Err(1);
        }
    };
    let mut config = crate::testing::lit_config(exe);
    // Processes that leave a RUN line's process group (`setsid`, a double
    // fork) are re-parented to this process and killed with the pipeline.
    lit::orphans::adopt_orphans();
    if args.no_in_process {
        config.tools.in_process = None;
    }
    if let Some(j) = args.jobs {
        config.jobs = j as usize;
    }
    config.filter = args.filter.clone();
    config.filter_out = args.filter_out.clone();
    config.max_failures = args.max_failures.map(|n| n as usize);
    if let Some(secs) = args.timeout {
        match std::time::Duration::try_from_secs_f64(secs) {
            Ok(d) if secs > 0.0 => config.test_timeout = Some(d),
            _ => {
                eprintln!("error: --timeout needs a positive number of seconds");
                return Err(2);
            }
        }
    }
    if let Some(mib) = args.memory_limit {
        config.tools.memory_limit = (mib > 0).then(|| mib.saturating_mul(1 << 20));
    }
    if args.update {
        config.update = Some(std::sync::Arc::new(
            crate::testing::update_checks::CheckUpdater,
        ));
    }
    Ok(config)
}

/// The tests to run, in order, out of those found.
struct Selection {
    tests: Vec<PathBuf>,
    /// How many tests were found (selected or not).
    found: usize,
    /// How many paths could not be read (each reported on stderr).
    unreadable: usize,
}

/// Discovers the tests under `args.paths` and keeps those the filters
/// select (shuffled with `--shuffle`); the exit status when there is
/// nothing to run.
fn select(args: &TestArgs, config: &lit::Config) -> Result<Selection, u8> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    // An unreadable path is reported, and the tests found elsewhere still run.
    let discovery = lit::discover_all(&paths);
    for e in &discovery.errors {
        eprintln!("error: {e}");
    }
    let files = discovery.tests;
    if files.is_empty() && discovery.errors.is_empty() {
        eprintln!(
            "error: no tests found (looked for *.pfir files with `// RUN:` lines under {})",
            paths
                .iter()
                .map(|p| format!("'{}'", p.display()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Err(1);
    }
    let found = files.len();
    let mut tests: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| lit::selected(f, config))
        .collect();
    if args.shuffle {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        lit::shuffle(&mut tests, seed);
    }
    if tests.is_empty() {
        if discovery.errors.is_empty() {
            let _ = writeln!(std::io::stdout(), "no tests match the filter");
            return Err(0);
        }
        return Err(1);
    }
    Ok(Selection {
        tests,
        found,
        unreadable: discovery.errors.len(),
    })
}

/// Runs `tests`, printing each result as it comes (with a progress line on
/// a terminal); the summary and, with `--xunit-xml-output`, each test's
/// JUnit case.
fn run_selected(
    args: &TestArgs,
    config: &lit::Config,
    tests: &[PathBuf],
) -> (lit::Summary, Vec<report::XunitCase>) {
    let mut xunit = Vec::new();
    let mut progress = Progress::new(tests.len(), args.quiet);
    let summary = lit::run_all(tests, config, |r| {
        if args.xunit_xml_output.is_some() {
            xunit.push(report::XunitCase::from_result(r));
        }
        progress.clear();
        let mut out = std::io::stdout().lock();
        if r.passed() {
            if !args.quiet {
                let _ = writeln!(out, "{}", report::result_line(r));
                if args.verbose {
                    for line in report::command_log(r).lines() {
                        let _ = writeln!(out, "  {line}");
                    }
                }
            }
        } else {
            let _ = writeln!(out, "{}", report::result_line(r));
            for line in report::failure_report(r).lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        let _ = out.flush();
        progress.advance();
    });
    progress.clear();
    (summary, xunit)
}

/// Writes the JUnit file `--xunit-xml-output` asks for (atomically);
/// whether that went well (true when none was asked for).
fn write_xunit(
    args: &TestArgs,
    mut xunit: Vec<report::XunitCase>,
    elapsed: std::time::Duration,
) -> bool {
    let Some(path) = &args.xunit_xml_output else {
        return true;
    };
    xunit.sort_by(|a, b| a.path.cmp(&b.path));
    let xml = report::xunit_xml(&xunit, elapsed);
    if let Err(e) = crate::io::write_atomically(path, xml.as_bytes()) {
        eprintln!("error: cannot write '{}': {e}", path.display());
        return false;
    }
    true
}

/// A progress line (`Testing: 12/400`) on standard error, only when it is
/// a terminal: cleared before each result is printed and drawn again after,
/// never after the last test.
struct Progress<W: Write> {
    total: usize,
    done: usize,
    /// Where the line is drawn; `None` draws nothing.
    out: Option<W>,
}

impl Progress<std::io::Stderr> {
    fn new(total: usize, quiet: bool) -> Self {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        Progress::to(std::io::stderr(), !quiet && terminal, total)
    }
}

impl<W: Write> Progress<W> {
    /// Draws on `out` when `enabled` and there is more than one test.
    fn to(out: W, enabled: bool, total: usize) -> Self {
        Progress {
            total,
            done: 0,
            out: (enabled && total > 1).then_some(out),
        }
    }

    /// The line after `done` of `total` tests: none once all are done.
    fn line(done: usize, total: usize) -> Option<String> {
        (done < total).then(|| format!("Testing: {done}/{total}"))
    }

    fn clear(&mut self) {
        if let Some(out) = self.out.as_mut()
            && Self::line(self.done, self.total).is_some()
            && self.done > 0
        {
            let _ = write!(out, "\r\x1b[K");
        }
    }

    fn advance(&mut self) {
        self.done += 1;
        if let Some(out) = self.out.as_mut()
            && let Some(line) = Self::line(self.done, self.total)
        {
            let _ = write!(out, "{line}");
            let _ = out.flush();
        }
    }
}

#[cfg(test)]
mod progress_tests {
    use super::Progress;

    /// What a run of `total` tests draws: the line after each test but the
    /// last, each cleared before the next result is printed.
    fn drawn(total: usize, enabled: bool) -> String {
        let mut p = Progress::to(Vec::new(), enabled, total);
        for _ in 0..total {
            p.clear();
            p.advance();
        }
        p.clear();
        String::from_utf8(p.out.unwrap_or_default()).unwrap()
    }

    #[test]
    fn the_line_counts_tests_and_is_cleared_before_each_result() {
        assert_eq!(drawn(3, true), "Testing: 1/3\r\x1b[KTesting: 2/3\r\x1b[K");
        assert_eq!(
            Progress::<Vec<u8>>::line(12, 400).as_deref(),
            Some("Testing: 12/400")
        );
        assert_eq!(Progress::<Vec<u8>>::line(400, 400), None);
    }

    #[test]
    fn nothing_is_drawn_off_a_terminal_or_for_one_test() {
        assert_eq!(drawn(3, false), "");
        assert_eq!(drawn(1, true), "");
        assert_eq!(drawn(0, true), "");
    }
}
