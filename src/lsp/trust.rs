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
    /// The cancellation token of one pipeline run now: [`Self::cancel`]
    /// and a deadline [`Self::timeout`] from now (see
    /// [`fsutil::cancel`]).
    pub fn token(&self) -> fsutil::cancel::Token {
        let token = match &self.cancel {
            Some(flag) => fsutil::cancel::Token::with_flag(flag.clone()),
            None => fsutil::cancel::Token::new(),
        };
        token.with_deadline(std::time::Instant::now() + self.timeout)
    }

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
    /// Whether consent would let it run (else it never runs in the server).
    pub consent_helps: bool,
}

impl Blocked {
    /// The message for the RUN line: why, and how to allow it.
    pub fn message(&self) -> String {
        if !self.consent_helps {
            return format!(
                "not run: {}. The language server never lets a RUN line read or write its own \
                 streams, a device or a FIFO; `pfir test` on the command line runs it",
                self.reason
            );
        }
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
    for pipeline in pipelines {
        pipeline.stages.iter().try_for_each(check_own_streams)?;
    }
    check_substitutions(text, custom, policy)?;
    for pipeline in pipelines {
        check_stages(&pipeline.stages, scratch, policy)?;
    }
    Ok(())
}

/// Options that lift one of pfir's limits: not taken without consent.
pub const LIMIT_LIFTING_OPTIONS: [&str; 2] = ["--input-size-limit", "--max-nodes"];

/// Whether a redirection of `stage` (which the server itself opens) reads
/// or writes the server's own streams (`< /dev/stdin`, `> /dev/stdout`:
/// its JSON-RPC channel), a device or a FIFO: never, consent or not.
/// `/dev/null` is fine.
fn check_own_streams(stage: &Stage) -> Result<(), Blocked> {
    let outputs = [
        match &stage.stdout {
            StdoutTarget::File(p, _) => Some(p),
            _ => None,
        },
        match &stage.stderr {
            StderrTarget::File(p, _) => Some(p),
            _ => None,
        },
    ];
    let special = |p: &Path| lit::in_process::names_stream_or_device(p);
    if let Some(p) = stage.stdin.as_deref().filter(|p| special(p)) {
        return Err(Blocked {
            reason: format!(
                "it reads '{}' with `<`, not a regular file (the server's own input, a device or a FIFO)",
                p.display()
            ),
            consent_helps: false,
        });
    }
    if let Some(p) = outputs.into_iter().flatten().find(|p| special(p)) {
        return Err(Blocked {
            reason: format!(
                "it writes '{}' with `>`, not a regular file (the server's own output, a device or a FIFO)",
                p.display()
            ),
            consent_helps: false,
        });
    }
    Ok(())
}

/// Whether the arguments of `stage` name a stream, a device or a FIFO, or
/// lift a limit: not without consent.
fn check_arguments(stage: &Stage) -> Result<(), Blocked> {
    let split = |arg: &'_ str| -> (String, Option<String>) {
        match arg.split_once('=') {
            Some((o, v)) if o.starts_with('-') => (o.to_string(), Some(v.to_string())),
            _ => (arg.to_string(), None),
        }
    };
    if let Some(option) = stage.argv[1..]
        .iter()
        .map(|a| split(a).0)
        .find(|o| LIMIT_LIFTING_OPTIONS.contains(&o.as_str()))
    {
        return Err(Blocked {
            reason: format!("it lifts a limit (`{option}`)"),
            consent_helps: true,
        });
    }
    for arg in &stage.argv[1..] {
        let value = split(arg).1;
        let special = |w: &str| lit::in_process::names_stream_or_device(Path::new(w));
        if let Some(w) = std::iter::once(arg.as_str())
            .chain(value.as_deref())
            .find(|w| special(w))
        {
            return Err(Blocked {
                reason: format!("it reads or writes '{w}', a stream, a device or a FIFO"),
                consent_helps: true,
            });
        }
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
            consent_helps: true,
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
    if is_filecheck(program) || program == "pfir" {
        check_arguments(stage)?;
    }
    if is_filecheck(program) {
        return Ok(());
    }
    if program != "pfir" {
        return Err(Blocked {
            reason: format!("it runs `{program}`, a program other than pfir"),
            consent_helps: true,
        });
    }
    match read(&stage.argv) {
        // A command line pfir rejects runs nothing (pfir prints a usage error).
        PfirCommand::Rejected | PfirCommand::ReadOnly => Ok(()),
        PfirCommand::Test => Err(Blocked {
            reason: "it runs `pfir test`, which runs the RUN lines of other files".into(),
            consent_helps: true,
        }),
        PfirCommand::Lsp => Err(Blocked {
            reason: "it runs `pfir lsp`".into(),
            consent_helps: true,
        }),
        PfirCommand::Opt(args) => args
            .output
            .as_deref()
            .map_or(Ok(()), |p| writable(p, scratch)),
        PfirCommand::Graph { output } => output.as_deref().map_or(Ok(()), |p| writable(p, scratch)),
        PfirCommand::Fmt { in_place: true } => Err(Blocked {
            reason: "it rewrites files (`pfir fmt -i`)".into(),
            consent_helps: true,
        }),
        PfirCommand::Fix { in_place: true } => Err(Blocked {
            reason: "it rewrites files (`pfir fix -i`)".into(),
            consent_helps: true,
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
        consent_helps: true,
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
