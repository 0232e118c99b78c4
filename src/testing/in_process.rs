//! pfir's commands as in-process stages for the lit runner
//! ([`lit::in_process`]): a RUN-line stage that runs `pfir opt`, `pfir
//! check`, `pfir fmt`, `pfir graph` or `pfir filecheck` (which `FileCheck`
//! stands for) runs inside the runner, through the same command-line code
//! (registered by the CLI, the layer above: [`register_command_line`])
//! with its standard streams redirected to the
//! stage's ([`crate::io::stdio`]), instead of spawning the `pfir`
//! executable. Any other command (`pfir test`, `pfir lsp`, other programs)
//! still runs as a process.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How the command line runs an argument vector (program name first) and
/// returns the exit status: registered by `pfir`'s CLI at start-up, so
/// that this layer never names the one above it. Without it (the library
/// embedded elsewhere), every stage runs as a process.
static COMMAND_LINE: std::sync::OnceLock<fn(Vec<String>) -> u8> = std::sync::OnceLock::new();

/// Registers the command line that in-process stages run (see
/// `COMMAND_LINE`); the first registration holds.
pub fn register_command_line(run: fn(Vec<String>) -> u8) {
    let _ = COMMAND_LINE.set(run);
}

/// Whether a command line is registered (in the `pfir` binary).
pub fn has_command_line() -> bool {
    COMMAND_LINE.get().is_some()
}

/// The subcommands that run in-process.
pub const SUBCOMMANDS: [&str; 5] = ["opt", "check", "fmt", "graph", "filecheck"];

/// Runs `pfir` subcommands in-process for stages that resolve to `exe`.
#[derive(Debug)]
pub struct PfirInProcess {
    exe: PathBuf,
}

impl lit::in_process::InProcess for PfirInProcess {
    fn handles(&self, executable: &Path, args: &[String]) -> bool {
        has_command_line()
            && executable == self.exe
            && args
                .first()
                .is_some_and(|a| SUBCOMMANDS.contains(&a.as_str()))
    }

    fn run(&self, _executable: &Path, args: &[String], s: lit::in_process::StageStreams) -> i32 {
        let redirect = crate::io::stdio::Redirect::new(s.stdin, s.stdout, s.stderr);
        let Some(command_line) = COMMAND_LINE.get().copied() else {
            // `enable` requires a registered command line.
            return 127;
        };
        let argv: Vec<String> = std::iter::once("pfir".to_string())
            .chain(args.iter().cloned())
            .collect();
        let run = || crate::io::stdio::Redirect::scope(Some(redirect), || command_line(argv));
        i32::from(run())
    }
}

/// `tools` with the stages that run `exe` (which must be a build of this
/// same program) taken in-process.
pub fn enable(tools: &mut lit::Tools, exe: impl Into<PathBuf>) {
    tools.in_process = Some(Arc::new(PfirInProcess { exe: exe.into() }));
}

/// Whether `exe` is the running program (then running its commands
/// in-process gives what spawning it would).
pub fn is_this_program(exe: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    std::env::current_exe()
        .ok()
        .and_then(|c| canonical(&c))
        .is_some_and(|c| canonical(exe) == Some(c))
}
