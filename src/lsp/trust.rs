//! Consent before execution: which RUN-line commands the server runs
//! without the user's explicit permission.
//!
//! A document (or a `lit.toml` next to it) is untrusted input: opening or
//! saving it must not run what it says. Without the `allowRunningCommands`
//! setting ([`super::settings`]) the server runs only pfir itself, on
//! every path that runs RUN lines (tests on save, `pfir/viewOutput`,
//! "Update CHECK lines"):
//!
//! - stages whose program is `pfir` (this executable) or FileCheck
//!   (`filecheck::args::PROGRAM_NAMES`), `not` included; but not
//!   `pfir test` (it runs other files' RUN lines) or `pfir lsp`, and not a
//!   `pfir` command that writes a file (`-o`, `-i`) outside the test's
//!   private scratch directory (`%t`, `%T`) or `/dev/null`;
//! - redirections that write only there too.
//!
//! Any other program (`sh`, `touch`, ...) needs consent, and so does a RUN
//! line that uses a `%{name}` substitution from a `lit.toml` (the file
//! being edited never shows that command). Such a RUN line is not run; the
//! caller reports [`Blocked::message`] on it. `pfir test` on the command
//! line is not concerned: running a suite is consent, as with lit.

use super::commands::{PfirCommand, ReadCommand};
use super::producer::is_filecheck;
use lit::run_line::{Pipeline, Stage, StderrTarget, StdoutTarget};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The setting that gives consent (for messages).
pub const CONSENT_SETTING: &str = "allowRunningCommands";

/// How RUN-line commands may run for one request or test run.
#[derive(Clone, Debug)]
pub struct RunPolicy {
    /// The user allowed any command (`allowRunningCommands`).
    pub allow_commands: bool,
    /// How long one pipeline may run before it is killed.
    pub timeout: Duration,
    /// Set to stop the run (a newer save, `didClose`, `shutdown`).
    pub cancel: Option<Arc<AtomicBool>>,
    /// How a `pfir` command line is read ([`super::ServerOptions::read_command`]).
    pub read_command: ReadCommand,
}

impl RunPolicy {
    /// The policy of the current settings, not cancellable.
    pub fn from_settings(
        settings: &super::settings::Settings,
        read_command: ReadCommand,
    ) -> RunPolicy {
        RunPolicy {
            read_command,
            allow_commands: settings.allow_running_commands,
            timeout: settings.test_timeout,
            cancel: None,
        }
    }
}

/// Why a RUN line is not run without consent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub reason: String,
}

impl Blocked {
    /// The message for the RUN line: why, and how to allow it.
    pub fn message(&self) -> String {
        format!(
            "not run: {}. The language server runs only pfir's own commands (`pfir`, FileCheck, `not`) \
             unless the setting `{CONSENT_SETTING}` is true (in VS Code, `pfir.{CONSENT_SETTING}`, \
             honoured in a trusted workspace only); `pfir test` on the command line runs it",
            self.reason
        )
    }
}

/// Whether the RUN line `text` (as written) may run under `policy`, given
/// the `lit.toml` substitutions `custom` and its parsed `pipelines` (with
/// the scratch directory `scratch`, where `%t` lives).
pub fn check_run_line(
    text: &str,
    custom: &[(String, String)],
    pipelines: &[Pipeline],
    scratch: &Path,
    policy: &RunPolicy,
) -> Result<(), Blocked> {
    check_substitutions(text, custom, policy)?;
    for pipeline in pipelines {
        check_stages(&pipeline.stages, scratch, policy)?;
    }
    Ok(())
}

/// Whether the RUN-line text `text` may use the `lit.toml` substitutions
/// `custom` under `policy`: not without consent.
pub fn check_substitutions(
    text: &str,
    custom: &[(String, String)],
    policy: &RunPolicy,
) -> Result<(), Blocked> {
    if policy.allow_commands {
        return Ok(());
    }
    match custom
        .iter()
        .rev()
        .find(|(name, _)| text.contains(&format!("%{{{name}}}")))
    {
        Some((name, value)) => Err(Blocked {
            reason: format!("it uses `%{{{name}}}`, a substitution from a lit.toml (`{value}`)"),
        }),
        None => Ok(()),
    }
}

/// Whether `stages` may run under `policy` (see the module doc).
pub fn check_stages(stages: &[Stage], scratch: &Path, policy: &RunPolicy) -> Result<(), Blocked> {
    if policy.allow_commands {
        return Ok(());
    }
    stages
        .iter()
        .try_for_each(|s| check_stage(s, scratch, policy.read_command))
}

fn check_stage(stage: &Stage, scratch: &Path, read: ReadCommand) -> Result<(), Blocked> {
    let program = stage.argv.first().map(String::as_str).unwrap_or("");
    if let StdoutTarget::File(path, _) = &stage.stdout {
        writable(path, scratch)?;
    }
    if let StderrTarget::File(path, _) = &stage.stderr {
        writable(path, scratch)?;
    }
    if is_filecheck(program) {
        return Ok(());
    }
    if program != "pfir" {
        return Err(Blocked {
            reason: format!("it runs `{program}`, a program other than pfir"),
        });
    }
    match read(&stage.argv) {
        // A command line pfir rejects runs nothing (pfir prints a usage error).
        PfirCommand::Rejected | PfirCommand::ReadOnly => Ok(()),
        PfirCommand::Test => Err(Blocked {
            reason: "it runs `pfir test`, which runs the RUN lines of other files".into(),
        }),
        PfirCommand::Lsp => Err(Blocked {
            reason: "it runs `pfir lsp`".into(),
        }),
        PfirCommand::Opt(args) => args
            .output
            .as_deref()
            .map_or(Ok(()), |p| writable(p, scratch)),
        PfirCommand::Graph { output } => output.as_deref().map_or(Ok(()), |p| writable(p, scratch)),
        PfirCommand::Fmt { in_place: true } => Err(Blocked {
            reason: "it rewrites files (`pfir fmt -i`)".into(),
        }),
        PfirCommand::Fix { in_place: true } => Err(Blocked {
            reason: "it rewrites files (`pfir fix -i`)".into(),
        }),
        PfirCommand::Fmt { .. } | PfirCommand::Fix { .. } => Ok(()),
    }
}

/// Whether a command may write `path`: standard output, `/dev/null`, or a
/// path in the scratch directory without `..`.
fn writable(path: &Path, scratch: &Path) -> Result<(), Blocked> {
    let inside =
        path.starts_with(scratch) && !path.components().any(|c| matches!(c, Component::ParentDir));
    if path == Path::new("-") || path == Path::new("/dev/null") || inside {
        return Ok(());
    }
    Err(Blocked {
        reason: format!(
            "it writes '{}', outside the test's scratch directory (%t, %T)",
            path.display()
        ),
    })
}

/// The scratch directory of `%t` (`%T`).
pub fn scratch_dir(temp: &Path) -> PathBuf {
    temp.parent().map_or_else(PathBuf::new, Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lit::run_line::{Substitutions, parse};

    fn policy(allow: bool) -> RunPolicy {
        RunPolicy {
            allow_commands: allow,
            timeout: Duration::from_secs(1),
            cancel: None,
            read_command: crate::cli::lsp::read_command,
        }
    }

    fn verdict(line: &str, custom: &[(&str, &str)]) -> Result<(), Blocked> {
        let subs = Substitutions {
            source: PathBuf::from("/w/t.pfir"),
            temp: PathBuf::from("/tmp/pfir-lit-x/t.pfir.tmp"),
            custom: custom
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        };
        let pipelines = parse(line, &subs).unwrap();
        let scratch = scratch_dir(&subs.temp);
        let strict = check_run_line(line, &subs.custom, &pipelines, &scratch, &policy(false));
        // With consent, everything runs.
        assert_eq!(
            check_run_line(line, &subs.custom, &pipelines, &scratch, &policy(true)),
            Ok(())
        );
        strict
    }

    #[test]
    fn pfir_and_filecheck_run_without_consent() {
        for line in [
            "pfir opt %s --passes=expand-manual-phase-fence | FileCheck %s",
            "not pfir check %s 2>&1 | FileCheck %s --check-prefix=ERR",
            "pfir opt %s -o %t && pfir-filecheck %s --input-file %t",
            "pfir fmt %s > %t.fmt",
            "pfir opt %s > /dev/null",
            "%{pfir} check %s",
            "pfir no-such-subcommand",
        ] {
            assert_eq!(verdict(line, &[]), Ok(()), "{line}");
        }
    }

    #[test]
    fn other_programs_and_writes_elsewhere_need_consent() {
        for (line, why) in [
            ("touch pwned", "runs `touch`"),
            ("sh -c 'id > pwned2'", "runs `sh`"),
            ("pfir opt %s | sh", "runs `sh`"),
            (
                "pfir opt %s > /home/u/.profile",
                "writes '/home/u/.profile'",
            ),
            ("pfir opt %s -o %S/out.pfir", "writes '/w/out.pfir'"),
            ("pfir opt %s -o %t/../../x", "writes"),
            ("pfir fmt -i %s", "rewrites files"),
            ("pfir fix %s --in-place", "rewrites files"),
            ("pfir test %S", "pfir test"),
            ("pfir graph %s -o /tmp/g.svg", "writes '/tmp/g.svg'"),
            ("FileCheck %s 2> /etc/x", "writes '/etc/x'"),
        ] {
            let e = verdict(line, &[]).expect_err(line);
            assert!(e.reason.contains(why), "{line}: {}", e.reason);
            assert!(e.message().contains("allowRunningCommands"));
        }
    }

    #[test]
    fn lit_toml_substitutions_need_consent() {
        let e = verdict("%{check} | FileCheck %s", &[("check", "pfir opt %s")]).unwrap_err();
        assert!(e.reason.contains("`%{check}`"), "{}", e.reason);
        assert!(e.reason.contains("lit.toml"));
    }
}
