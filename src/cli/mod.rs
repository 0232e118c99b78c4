//! The `pfir` command line: one subcommand per file.
//!
//! Exit status: 0 on success, 1 when an error diagnostic was emitted (or a
//! test / check failed), 2 on usage errors (clap's own convention).

pub mod check;
pub mod explain;
pub mod filecheck;
pub mod fix;
pub mod fmt;
pub mod graph;
pub mod lsp;
pub mod opt;
pub mod reduce;
pub mod test;
pub mod translate;
mod value_enums;

use crate::diagnostics::{Code, Diagnostic, DiagnosticFormat};
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "pfir",
    version,
    about = "A toolchain for the .pfir orchestration IR",
    long_about = "pfir reads .pfir files (a textual form of PyPTO-style orchestration IR), \
verifies them, runs passes such as expand-manual-phase-fence, and prints the result in \
canonical form. It also carries the tools its golden tests need: a FileCheck-compatible \
checker and a lit-style test runner."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse, verify, run passes and print a .pfir file (like mlir-opt).
    #[command(after_help = crate::passes::passes_help())]
    Opt(opt::OptArgs),
    /// Parse and verify .pfir files; print nothing when they are valid.
    Check(check::CheckArgs),
    /// Apply the machine-applicable fixes that diagnostics suggest.
    Fix(fix::FixArgs),
    /// Explain an error code (`pfir explain E0010`), with examples.
    Explain(explain::ExplainArgs),
    /// Print .pfir files in canonical form, keeping every comment (like clang-format).
    Fmt(fmt::FmtArgs),
    /// Draw the task graph of orchestration functions, before and after
    /// passes (DOT, SVG or an HTML page).
    Graph(graph::GraphArgs),
    /// Run the language server over stdio (for editors; see docs/editors.md).
    Lsp(lsp::LspArgs),
    /// Run .pfir tests that carry `// RUN:` lines (like lit).
    Test(test::TestArgs),
    /// Shrink a program while it keeps a property (like llvm-reduce).
    Reduce(reduce::ReduceArgs),
    /// Translate .pfir to PyPTO's Python DSL (--to=pypto) or back (--from=pypto).
    Translate(translate::TranslateArgs),
    /// Match text against CHECK directives (like LLVM FileCheck).
    #[command(after_help = filecheck::HELP)]
    Filecheck(filecheck::FileCheckArgs),
}

/// Runs the command line `args` (including the program name) and returns
/// the process exit status.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    // The test runner and the language server run pfir's own commands
    // in-process through this command line (a lower layer cannot name it).
    crate::testing::in_process::register_command_line(in_process_status);
    ExitCode::from(at_exit(true, || status(args)))
}

/// [`status`] for an argument vector (what the in-process runner calls):
/// the process goes on after it, so it frees what it used.
fn in_process_status(args: Vec<String>) -> u8 {
    at_exit(false, || status(args))
}

/// Runs `work` on every one of `inputs`, files independent of each other,
/// in parallel across them (`fsutil::parallel`, one thread per core), and
/// gives each result to `report` on this thread in the inputs' order, each
/// as soon as those before it were reported. When an input is standard
/// input (`-`), everything runs on this thread: only it reads this
/// thread's standard streams (`crate::io::stdio`).
pub(crate) fn each_input<T: Send>(
    inputs: &[std::path::PathBuf],
    work: impl Fn(&std::path::PathBuf) -> T + Sync,
    mut report: impl FnMut(T),
) {
    let reads_stdin = inputs.iter().any(|p| p.as_os_str() == "-");
    let jobs = if reads_stdin {
        1
    } else {
        fsutil::parallel::default_jobs()
    };
    let mut waiting = std::collections::BTreeMap::new();
    let mut next = 0;
    fsutil::parallel::run_indexed(
        inputs.len(),
        jobs,
        |i| work(&inputs[i]),
        |i, result| {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&next) {
                report(result);
                next += 1;
            }
            std::ops::ControlFlow::Continue(())
        },
    );
}

thread_local! {
    /// Whether the command running on this thread is the process's last
    /// work (see [`release`]).
    static AT_EXIT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with [`release`] freeing (`exit` false) or leaving memory to
/// the process's exit (`exit` true), then restores what was set before.
fn at_exit<T>(exit: bool, f: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            AT_EXIT.set(self.0);
        }
    }
    let _restore = Restore(AT_EXIT.replace(exit));
    f()
}

/// Frees `value`, the large data of a command's one file (module, text,
/// output), unless the command is the `pfir` process's last work
/// ([`run`], not a command the test runner runs in-process): then the exit
/// returns the memory, as clang's `-disable-free` does, and freeing it
/// piece by piece would only cost time. The library never skips freeing.
pub(crate) fn release<T>(value: T) {
    if AT_EXIT.get() {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

/// [`run`], returning the exit status as a number (for commands run
/// in-process by the test runner, `crate::testing::in_process`).
pub fn status<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    // `pfir filecheck` parses its arguments as LLVM's FileCheck does, `--`
    // included (clap would take the first `--` itself).
    if args.get(1).is_some_and(|a| a == "filecheck") {
        return filecheck::run(filecheck::FileCheckArgs {
            args: args[2..].to_vec(),
        });
    }
    let cli = match parse(&args) {
        Ok(cli) => cli,
        Err(e) => {
            if e.use_stderr()
                && let Some(format) = requested_format(&args)
            {
                usage_error_args(format).report_plain(&usage_diagnostic(&e), None);
            } else if crate::io::stdio::is_redirected() {
                // Not a terminal: clap's plain rendering, where it prints it.
                let text = e.render().to_string();
                if e.use_stderr() {
                    crate::io::stdio::write_stderr(text.as_bytes());
                } else {
                    let _ = crate::io::stdio::write_stdout(text.as_bytes());
                }
            } else {
                let _ = e.print();
            }
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Fix(args) => fix::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Opt(args) => opt::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Test(args) => test::run(args),
        Command::Reduce(args) => reduce::run(args),
        Command::Translate(args) => translate::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Filecheck(args) => filecheck::run(args),
    }
}

thread_local! {
    /// The command line's clap definition, built once per thread: its
    /// derive builds it anew on each parse, and the test runner parses a
    /// command line per in-process stage.
    static DEFINITION: std::cell::RefCell<Option<clap::Command>> =
        const { std::cell::RefCell::new(None) };
}

/// `Cli::try_parse_from(args)`, with the thread's [`DEFINITION`].
fn parse(args: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    DEFINITION.with(|definition| {
        let mut definition = definition.borrow_mut();
        let command = definition.get_or_insert_with(Cli::command);
        let mut matches = command.try_get_matches_from_mut(args)?;
        Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(command))
    })
}

/// The `--diagnostic-format` asked for on a command line that did not parse
/// (so that usage errors come out as JSON when JSON was asked for).
fn requested_format(args: &[std::ffi::OsString]) -> Option<DiagnosticFormat> {
    let mut format = None;
    let mut iter = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        let value = if let Some(v) = arg.strip_prefix("--diagnostic-format=") {
            v.to_string()
        } else if arg == "--diagnostic-format" {
            match iter.next() {
                Some(v) => v.to_string(),
                None => break,
            }
        } else {
            continue;
        };
        if let Ok(f) = <DiagnosticFormat as clap::ValueEnum>::from_str(&value, false) {
            format = Some(f);
        }
    }
    format
}

fn usage_error_args(format: DiagnosticFormat) -> opt::DiagnosticArgs {
    opt::DiagnosticArgs {
        diagnostic_format: format,
        ..opt::DiagnosticArgs::default()
    }
}

/// A clap error as a diagnostic: its first line is the message, the rest
/// (usage, tips) become notes.
fn usage_diagnostic(e: &clap::Error) -> Diagnostic {
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("invalid command line");
    let message = first.strip_prefix("error: ").unwrap_or(first);
    let mut d = Diagnostic::error(message, crate::span::Span::default()).with_code(Code::Usage);
    for line in lines {
        d = match line.strip_prefix("tip: ") {
            Some(tip) => d.with_help(tip),
            None => d.with_note(line),
        };
    }
    d
}

#[cfg(test)]
mod tests {
    /// `release` frees unless the command is the process's last work, and
    /// an in-process command inside frees again.
    #[test]
    fn release_frees_except_at_the_process_exit() {
        use std::rc::Rc;
        let freed = |exit: bool| {
            let value = Rc::new(());
            let watch = Rc::clone(&value);
            super::at_exit(exit, || super::release(value));
            Rc::strong_count(&watch) == 1
        };
        assert!(freed(false));
        assert!(!freed(true));
        let inner = super::at_exit(true, || super::at_exit(false, || freed(false)));
        assert!(inner);
        // Restored after the scope: the default is to free.
        assert!(freed(false) && !super::AT_EXIT.get());
    }

    use super::*;
    use crate::ide::builtins::OPT_OPTIONS;
    use clap::CommandFactory;

    /// The options the editor completes and explains in RUN lines are
    /// exactly `pfir opt`'s.
    #[test]
    fn run_line_options_are_those_of_pfir_opt() {
        let cli = Cli::command();
        let opt = cli.find_subcommand("opt").expect("pfir opt");
        let longs: Vec<String> = opt
            .get_arguments()
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        let listed: Vec<&str> = OPT_OPTIONS
            .iter()
            .map(|(o, _)| o.trim_end_matches('='))
            .filter(|o| o.starts_with("--"))
            .collect();
        for l in &longs {
            if l == "--help" || l == "--output" {
                continue; // `-o` is listed by its short form.
            }
            assert!(
                listed.contains(&l.as_str()),
                "`{l}` is missing from OPT_OPTIONS"
            );
        }
        for l in listed {
            assert!(
                longs.iter().any(|x| x == l),
                "`{l}` is not an option of pfir opt"
            );
        }
        assert!(opt.get_arguments().any(|a| a.get_short() == Some('o')));
    }
}
