//! Running parsed pipelines as processes, without a shell.
//!
//! Every stage is spawned before anything is waited for; the stages are
//! connected by OS pipes, and every captured stream is drained by its own
//! thread, so no stage can block on a full pipe while the runner waits for
//! another one.

use super::run_line::{Pipeline, Stage, StderrTarget};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the commands of RUN lines are run.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The `pfir` executable: `pfir` runs it, and `FileCheck`, `filecheck`
    /// and `pfir-filecheck` run its `filecheck` subcommand.
    pub pfir: PathBuf,
    /// How long one pipeline may run before its processes are killed.
    pub timeout: Option<Duration>,
}

impl Tools {
    /// Tools that run `pfir` for `pfir` and `FileCheck`, without a timeout.
    pub fn new(pfir: impl Into<PathBuf>) -> Tools {
        Tools {
            pfir: pfir.into(),
            timeout: None,
        }
    }

    /// The executable and leading arguments `program` stands for.
    pub fn resolve(&self, program: &str) -> (PathBuf, Vec<String>) {
        match program {
            "pfir" => (self.pfir.clone(), Vec::new()),
            "FileCheck" | "filecheck" | "pfir-filecheck" => {
                (self.pfir.clone(), vec!["filecheck".to_string()])
            }
            other => (PathBuf::from(other), Vec::new()),
        }
    }
}

/// What one stage of a pipeline did.
#[derive(Debug)]
pub struct StageResult {
    /// The stage as written (after substitution).
    pub command: String,
    pub invert: bool,
    /// `None` when it could not be started (see `error`).
    pub status: Option<ExitStatus>,
    /// Why it could not be started or waited for.
    pub error: Option<String>,
    /// Its captured standard error (empty when redirected).
    pub stderr: Vec<u8>,
}

impl StageResult {
    /// Whether the stage passed, `not` taken into account. A process killed
    /// by a signal never passes, with or without `not`.
    pub fn passed(&self) -> bool {
        match self.status {
            None => false,
            Some(s) => match s.code() {
                None => false,
                Some(code) => (code == 0) != self.invert,
            },
        }
    }

    /// A readable account of how it ended.
    pub fn describe_status(&self) -> String {
        if let Some(e) = &self.error {
            return e.clone();
        }
        let Some(status) = self.status else {
            return "not run".into();
        };
        let base = match status.code() {
            Some(code) => format!("exit status {code}"),
            None => {
                #[cfg(unix)]
                {
                    use std::os::unix::process::ExitStatusExt;
                    match status.signal() {
                        Some(sig) => format!("killed by signal {sig}"),
                        None => status.to_string(),
                    }
                }
                #[cfg(not(unix))]
                {
                    status.to_string()
                }
            }
        };
        if self.invert {
            format!("{base} (under `not`: a non-zero exit status was expected)")
        } else {
            base
        }
    }
}

/// What a pipeline did.
#[derive(Debug)]
pub struct PipelineResult {
    pub stages: Vec<StageResult>,
    /// The last stage's captured standard output (empty when redirected).
    pub stdout: Vec<u8>,
}

impl PipelineResult {
    /// Whether every stage passed (lit's `pipefail`).
    pub fn passed(&self) -> bool {
        self.stages.iter().all(StageResult::passed)
    }
}

fn open_out(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .append(append)
        .truncate(!append)
        .open(path)
}

fn drain(mut reader: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = reader.read_to_end(&mut buf);
        buf
    })
}

/// The standard streams of one stage, set up before it is spawned.
struct StageIo {
    stdin: Stdio,
    stdout: Stdio,
    stderr: Stdio,
    /// The reader of this stage's stdout pipe, for the next stage.
    next_stdin: Option<std::io::PipeReader>,
    stdout_drain: Option<JoinHandle<Vec<u8>>>,
    stderr_drain: Option<JoinHandle<Vec<u8>>>,
}

fn stage_io(
    stage: &Stage,
    prev: Option<std::io::PipeReader>,
    last: bool,
) -> std::io::Result<StageIo> {
    let stdin = match (&stage.stdin, prev) {
        (Some(path), _) => Stdio::from(std::fs::File::open(path).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot open '{}': {e}", path.display()))
        })?),
        (None, Some(reader)) => Stdio::from(reader),
        (None, None) => Stdio::null(),
    };
    let mut next_stdin = None;
    let mut stdout_drain = None;
    // The stdout target, and a second handle to it for `2>&1`.
    let (stdout, stdout_dup): (Stdio, Option<Stdio>) = match &stage.stdout {
        Some((path, append)) => {
            let f = open_out(path, *append).map_err(|e| {
                std::io::Error::new(e.kind(), format!("cannot open '{}': {e}", path.display()))
            })?;
            let dup = match stage.stderr {
                StderrTarget::ToStdout => Some(Stdio::from(f.try_clone()?)),
                _ => None,
            };
            (Stdio::from(f), dup)
        }
        None => {
            let (reader, writer) = std::io::pipe()?;
            let dup = match stage.stderr {
                StderrTarget::ToStdout => Some(Stdio::from(writer.try_clone()?)),
                _ => None,
            };
            if last {
                stdout_drain = Some(drain(reader));
            } else {
                next_stdin = Some(reader);
            }
            (Stdio::from(writer), dup)
        }
    };
    let mut stderr_drain = None;
    let stderr = match &stage.stderr {
        StderrTarget::ToStdout => stdout_dup.expect("set up above"),
        StderrTarget::File(path, append) => Stdio::from(open_out(path, *append).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot open '{}': {e}", path.display()))
        })?),
        StderrTarget::Capture => {
            let (reader, writer) = std::io::pipe()?;
            stderr_drain = Some(drain(reader));
            Stdio::from(writer)
        }
    };
    Ok(StageIo {
        stdin,
        stdout,
        stderr,
        next_stdin,
        stdout_drain,
        stderr_drain,
    })
}

struct Running {
    child: Option<std::process::Child>,
    error: Option<String>,
    stderr_drain: Option<JoinHandle<Vec<u8>>>,
}

/// Waits until every child has exited or `deadline` passes; then kills
/// the ones still running and records why.
fn wait_or_kill(running: &mut [Running], deadline: Instant, timeout: Duration) {
    loop {
        let mut all_done = true;
        for r in running.iter_mut() {
            if let Some(child) = r.child.as_mut()
                && !matches!(child.try_wait(), Ok(Some(_)))
            {
                all_done = false;
            }
        }
        if all_done {
            return;
        }
        if Instant::now() >= deadline {
            for r in running.iter_mut() {
                if let Some(child) = r.child.as_mut()
                    && matches!(child.try_wait(), Ok(None))
                {
                    let _ = child.kill();
                    r.error = Some(format!(
                        "timed out after {}s and was killed",
                        timeout.as_secs_f64()
                    ));
                }
            }
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `pipeline` in `cwd` and waits for all of its stages (at most
/// `tools.timeout`).
pub fn run_pipeline(pipeline: &Pipeline, tools: &Tools, cwd: Option<&Path>) -> PipelineResult {
    let mut running = Vec::new();
    let mut prev: Option<std::io::PipeReader> = None;
    let mut stdout_drain = None;
    let count = pipeline.stages.len();
    for (i, stage) in pipeline.stages.iter().enumerate() {
        let last = i + 1 == count;
        let io = match stage_io(stage, prev.take(), last) {
            Ok(io) => io,
            Err(e) => {
                running.push(Running {
                    child: None,
                    error: Some(format!("cannot set up its input/output: {e}")),
                    stderr_drain: None,
                });
                continue;
            }
        };
        prev = io.next_stdin;
        if io.stdout_drain.is_some() {
            stdout_drain = io.stdout_drain;
        }
        let (program, lead) = tools.resolve(&stage.argv[0]);
        let mut cmd = Command::new(&program);
        cmd.args(&lead)
            .args(&stage.argv[1..])
            .stdin(io.stdin)
            .stdout(io.stdout)
            .stderr(io.stderr);
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        let spawned = cmd.spawn();
        // Dropping the command closes this process's copies of the pipe
        // ends, so readers see end-of-file when the children exit.
        drop(cmd);
        match spawned {
            Ok(child) => running.push(Running {
                child: Some(child),
                error: None,
                stderr_drain: io.stderr_drain,
            }),
            Err(e) => running.push(Running {
                child: None,
                error: Some(format!("cannot run '{}': {e}", program.display())),
                stderr_drain: io.stderr_drain,
            }),
        }
    }
    drop(prev);
    if let Some(timeout) = tools.timeout {
        wait_or_kill(&mut running, Instant::now() + timeout, timeout);
    }
    let mut stages = Vec::new();
    for (stage, r) in pipeline.stages.iter().zip(running) {
        let mut error = r.error;
        let status = match r.child {
            Some(mut child) => match child.wait() {
                Ok(s) => Some(s),
                Err(e) => {
                    error = Some(format!("cannot wait for it: {e}"));
                    None
                }
            },
            None => None,
        };
        let stderr = r
            .stderr_drain
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default();
        stages.push(StageResult {
            command: stage.display(),
            invert: stage.invert,
            status,
            error,
            stderr,
        });
    }
    let stdout = stdout_drain
        .map(|h| h.join().unwrap_or_default())
        .unwrap_or_default();
    PipelineResult { stages, stdout }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::testing::lit::run_line::{Substitutions, parse};

    fn run(text: &str) -> PipelineResult {
        let subs = Substitutions {
            source: PathBuf::from("/dev/null"),
            temp: std::env::temp_dir().join(format!("pfir-exec-test-{}", std::process::id())),
        };
        let p = parse(text, &subs).unwrap();
        assert_eq!(p.len(), 1);
        let tools = Tools {
            pfir: PathBuf::from("/bin/false"),
            timeout: Some(Duration::from_secs(60)),
        };
        run_pipeline(&p[0], &tools, None)
    }

    #[test]
    fn timeout_kills() {
        let p = parse(
            "sleep 30 | cat",
            &Substitutions {
                source: PathBuf::from("x"),
                temp: PathBuf::from("t"),
            },
        )
        .unwrap();
        let tools = Tools {
            pfir: PathBuf::from("/bin/false"),
            timeout: Some(Duration::from_millis(200)),
        };
        let start = Instant::now();
        let r = run_pipeline(&p[0], &tools, None);
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(!r.passed());
        assert!(r.stages[0].describe_status().contains("timed out"));
    }

    #[test]
    fn pipes_and_status() {
        let r = run("echo hello world | tr a-z A-Z");
        assert!(r.passed());
        assert_eq!(String::from_utf8_lossy(&r.stdout), "HELLO WORLD\n");

        let r = run("not false");
        assert!(r.passed());
        let r = run("not true");
        assert!(!r.passed());
        assert!(r.stages[0].describe_status().contains("under `not`"));
        // pipefail: a failing first stage fails the pipeline.
        let r = run("false | cat");
        assert!(!r.passed());
        // `pfir` maps to the configured executable (here /bin/false).
        assert!(run("not pfir opt").passed());
    }

    #[test]
    fn stderr_capture_and_merge() {
        let r = run("sh -c 'echo out; echo err >&2'");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "out\n");
        assert_eq!(String::from_utf8_lossy(&r.stages[0].stderr), "err\n");
        let r = run("sh -c 'echo err >&2' 2>&1 | tr a-z A-Z");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "ERR\n");
        assert!(r.stages[0].stderr.is_empty());
    }

    #[test]
    fn large_outputs_do_not_deadlock() {
        // Far more than a pipe buffer on both streams of every stage.
        let r = run("sh -c 'yes abcdefgh | head -c 2000000; yes x | head -c 1000000 >&2' | cat");
        assert!(r.passed());
        assert_eq!(r.stdout.len(), 2_000_000);
        assert_eq!(r.stages[0].stderr.len(), 1_000_000);
    }

    #[test]
    fn missing_program() {
        let r = run("definitely-not-a-program-pfir | cat");
        assert!(!r.passed());
        assert!(r.stages[0].describe_status().contains("cannot run"));
        assert!(r.stages[1].passed());
    }

    #[test]
    fn file_redirections() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("o.txt");
        let text = format!("echo one > {}", f.display());
        assert!(run(&text).passed());
        let text = format!("echo two >> {}", f.display());
        assert!(run(&text).passed());
        let r = run(&format!("cat < {}", f.display()));
        assert_eq!(String::from_utf8_lossy(&r.stdout), "one\ntwo\n");
        let r = run("cat < /nonexistent/pfir/file");
        assert!(!r.passed());
        assert!(r.stages[0].describe_status().contains("cannot open"));
    }
}
