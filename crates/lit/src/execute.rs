//! Running parsed pipelines as processes, without a shell.
//!
//! Every stage is spawned before anything is waited for; the stages are
//! connected by OS pipes, and every captured stream is drained by its own
//! thread, so no stage can block on a full pipe while the runner waits for
//! another one. A captured stream keeps at most [`Tools::capture_limit`]
//! bytes (its head and its tail, with a line saying how much was dropped in
//! between), so `// RUN: yes` cannot exhaust memory.
//!
//! On Unix, all the stages of a pipeline run in one process group of their
//! own. When the pipeline times out, or once its stages have exited, the
//! whole group is killed: processes the commands started (`sh -c 'sleep
//! 30'`, a background job holding a pipe open) die with them, and the group
//! is registered with [`fsutil::cleanup`] so an interrupted run kills it
//! too. Processes that leave the group (`setsid`, a double fork) are
//! caught as well in a program that called [`super::orphans::adopt_orphans`]
//! (see [`super::orphans`]); a stream still held open by a process that
//! escaped is read no further once the commands have ended and it has been
//! quiet a while (`DRAIN_QUIET`). A pipeline can also be cancelled from another
//! thread ([`Tools::cancel`]); it then ends as on a timeout.
//!
//! Which executable a program name in a RUN line stands for (`pfir`,
//! `FileCheck`, ...) is not known here: the embedding program says so
//! through [`Tools::programs`].

use super::run_line::{Pipeline, Stage, StderrTarget, StdoutTarget};
use fsutil::cleanup;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the commands of RUN lines are run.
#[derive(Clone, Debug)]
pub struct Tools {
    /// Program names that stand for something else (the embedding program's
    /// own executable, a subcommand of it); any other name is run as
    /// written, found through `PATH`.
    pub programs: Vec<Program>,
    /// How long one pipeline may run before its processes are killed.
    pub timeout: Option<Duration>,
    /// The most bytes kept of each captured stream (half from its start,
    /// half from its end).
    pub capture_limit: usize,
    /// Set from another thread to stop the pipeline: its processes are
    /// killed as on a timeout and its stages report "cancelled".
    pub cancel: Option<Arc<AtomicBool>>,
    /// Runs pipelines made only of the embedding program's own commands
    /// inside this process ([`crate::in_process`]); `None` spawns always.
    pub in_process: Option<std::sync::Arc<dyn crate::in_process::InProcess>>,
    /// The most data memory each stage run as a process may allocate
    /// (`RLIMIT_DATA`, on Linux; inherited by what it starts); `None`:
    /// no limit.
    pub memory_limit: Option<u64>,
}

/// The default [`Tools::memory_limit`]: 4 GiB per process.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// A program name of RUN lines and what it runs: `executable` with `args`
/// before the arguments written in the RUN line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub name: String,
    pub executable: PathBuf,
    pub args: Vec<String>,
}

/// How a stage of a cancelled pipeline ([`Tools::cancel`]) is reported.
pub const CANCELLED: &str = "cancelled: killed before it finished";

/// How a stage of a pipeline that ran longer than `timeout` is reported.
pub(crate) fn timed_out(timeout: Duration) -> String {
    format!("timed out after {}s and was killed", timeout.as_secs_f64())
}

/// The default [`Tools::capture_limit`]: 2 MiB per stream.
pub const DEFAULT_CAPTURE_LIMIT: usize = 2 << 20;

impl Default for Tools {
    fn default() -> Tools {
        Tools::new()
    }
}

impl Tools {
    /// Tools that run every program as written, without a timeout.
    pub fn new() -> Tools {
        Tools {
            programs: Vec::new(),
            timeout: None,
            capture_limit: DEFAULT_CAPTURE_LIMIT,
            cancel: None,
            in_process: None,
            memory_limit: Some(DEFAULT_MEMORY_LIMIT),
        }
    }

    /// These tools with `name` in RUN lines standing for `executable`
    /// preceded by `args` (a later entry for the same name wins).
    pub fn with_program(
        mut self,
        name: impl Into<String>,
        executable: impl Into<PathBuf>,
        args: &[&str],
    ) -> Tools {
        let name = name.into();
        self.programs.retain(|p| p.name != name);
        self.programs.push(Program {
            name,
            executable: executable.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
        });
        self
    }

    /// The executable and leading arguments `program` stands for.
    pub fn resolve(&self, program: &str) -> (PathBuf, Vec<String>) {
        match self.programs.iter().find(|p| p.name == program) {
            Some(p) => (p.executable.clone(), p.args.clone()),
            None => (PathBuf::from(program), Vec::new()),
        }
    }
}

/// What one stage of a pipeline did.
#[derive(Debug)]
pub struct StageResult {
    /// The stage as written (after substitution).
    pub command: String,
    pub invert: bool,
    /// `not --crash`: it must crash ([`StageResult::crashed`]).
    pub crash: bool,
    /// `None` when it could not be started (see `error`).
    pub status: Option<ExitStatus>,
    /// Why it could not be started or waited for.
    pub error: Option<String>,
    /// Its captured standard error (empty when redirected; see
    /// [`Captured`] for what a long one keeps).
    pub stderr: Vec<u8>,
    /// How many bytes of its standard error were dropped (see [`Captured`]).
    pub stderr_dropped: u64,
}

/// The exit status with which a Rust program ends when it panics.
pub const RUST_PANIC_STATUS: i32 = 101;

impl StageResult {
    /// Whether the stage passed, `not` taken into account. A crash never
    /// passes, with or without `not`: a process killed by a signal, or one
    /// that exited with status 101 (a Rust panic).
    pub fn passed(&self) -> bool {
        if self.crash {
            return self.crashed() != self.invert;
        }
        match self.status {
            None => false,
            Some(s) => match s.code() {
                None => false,
                Some(RUST_PANIC_STATUS) if self.invert => false,
                Some(code) => (code == 0) != self.invert,
            },
        }
    }

    /// Whether it crashed: killed by a signal, or a Rust panic (exit status
    /// 101). A stage that could not start did not crash.
    pub fn crashed(&self) -> bool {
        self.status
            .is_some_and(|s| matches!(s.code(), None | Some(RUST_PANIC_STATUS)))
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
        if self.crash {
            return match (self.crashed(), self.invert) {
                (false, false) => format!("{base} (under `not --crash`: a crash was expected)"),
                (true, true) => format!("{base} (a crash, under `not not --crash`)"),
                _ => base,
            };
        }
        match status.code() {
            Some(RUST_PANIC_STATUS) if self.invert => {
                format!("{base}, a Rust panic (a crash never passes, even under `not`)")
            }
            None if self.invert => format!("{base} (a crash never passes, even under `not`)"),
            _ if self.invert => {
                format!("{base} (under `not`: a non-zero exit status was expected)")
            }
            _ => base,
        }
    }
}

/// What a pipeline did.
#[derive(Debug)]
pub struct PipelineResult {
    pub stages: Vec<StageResult>,
    /// The last stage's captured standard output (empty when redirected).
    pub stdout: Vec<u8>,
    /// How many bytes of it were dropped (see [`Captured`]).
    pub stdout_dropped: u64,
}

impl PipelineResult {
    /// Whether every stage passed (lit's `pipefail`).
    pub fn passed(&self) -> bool {
        self.stages.iter().all(StageResult::passed)
    }
}

/// Opens a redirection's file for writing (`append`: `>>`); the error
/// names the file.
pub(crate) fn open_out(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .map_err(open_error(path))
}

/// What was kept of a captured stream.
#[derive(Debug, Default)]
pub struct Captured {
    /// The whole stream when it fit in the limit; otherwise its first half
    /// limit, a line `[... N bytes dropped ...]`, and its last half limit.
    pub bytes: Vec<u8>,
    /// How many bytes were dropped (0 when the stream fit).
    pub dropped: u64,
}

/// A stream being captured: its head, and a tail buffer of up to twice
/// the tail's limit, cut back when full (amortised constant work per byte).
#[derive(Debug, Default)]
struct Capturing {
    head: Vec<u8>,
    tail: Vec<u8>,
    total: u64,
    head_limit: usize,
    tail_limit: usize,
    /// Set when the runner stopped waiting for the stream: reading stops.
    abandoned: bool,
}

impl Capturing {
    fn new(limit: usize) -> Capturing {
        let head_limit = limit / 2;
        Capturing {
            head_limit,
            tail_limit: limit - head_limit,
            ..Capturing::default()
        }
    }

    fn push(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.head.len() < self.head_limit {
            let take = data.len().min(self.head_limit - self.head.len());
            self.head.extend_from_slice(&data[..take]);
            data = &data[take..];
        }
        self.tail.extend_from_slice(data);
        if self.tail.len() > 2 * self.tail_limit.max(1) {
            self.tail.drain(..self.tail.len() - self.tail_limit);
        }
    }

    fn finish(&mut self) -> Captured {
        let mut tail = std::mem::take(&mut self.tail);
        if tail.len() > self.tail_limit {
            tail.drain(..tail.len() - self.tail_limit);
        }
        let mut bytes = std::mem::take(&mut self.head);
        let dropped = self.total - (bytes.len() + tail.len()) as u64;
        if dropped > 0 {
            if !bytes.ends_with(b"\n") {
                bytes.push(b'\n');
            }
            bytes.extend_from_slice(format!("[... {dropped} bytes dropped ...]\n").as_bytes());
        }
        bytes.extend_from_slice(&tail);
        Captured { bytes, dropped }
    }
}

/// Reads `reader` to its end, keeping at most `limit` bytes (see [`Captured`]).
pub fn capture(reader: impl Read, limit: usize) -> Captured {
    let state = Mutex::new(Capturing::new(limit));
    read_into(reader, &state);
    lock(&state).finish()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads `reader` into `state` until its end or until it is abandoned.
fn read_into(mut reader: impl Read, state: &Mutex<Capturing>) {
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut state = lock(state);
        if state.abandoned {
            break;
        }
        state.push(&chunk[..n]);
    }
}

/// A stream captured by a thread of its own.
struct Drain {
    state: Arc<Mutex<Capturing>>,
    thread: JoinHandle<()>,
}

/// Once a pipeline's processes are gone, how long a captured stream may go
/// without new data, and how long in all, before the runner stops reading
/// it: a process that escaped the kill (see [`super::orphans`]) may hold
/// it open forever.
const DRAIN_QUIET: Duration = Duration::from_secs(2);
const DRAIN_MAX: Duration = Duration::from_secs(10);

impl Drain {
    /// What was captured: the whole stream, or (see [`DRAIN_QUIET`]) what
    /// was read of it, with a line saying it was still open.
    fn collect(self) -> Captured {
        let start = Instant::now();
        let mut last = (lock(&self.state).total, Instant::now());
        while !self.thread.is_finished() {
            let total = lock(&self.state).total;
            if total != last.0 {
                last = (total, Instant::now());
            }
            if last.1.elapsed() >= DRAIN_QUIET || start.elapsed() >= DRAIN_MAX {
                let mut state = lock(&self.state);
                state.abandoned = true;
                let mut captured = state.finish();
                if !captured.bytes.is_empty() && !captured.bytes.ends_with(b"\n") {
                    captured.bytes.push(b'\n');
                }
                captured.bytes.extend_from_slice(
                    b"[... still open after the commands ended (held by a process that escaped); not read further ...]\n",
                );
                return captured;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.thread.join();
        lock(&self.state).finish()
    }
}

fn drain(reader: impl Read + Send + 'static, limit: usize) -> Drain {
    let state = Arc::new(Mutex::new(Capturing::new(limit)));
    let shared = state.clone();
    let thread = std::thread::spawn(move || read_into(reader, &shared));
    Drain { state, thread }
}

/// The standard streams of one stage, set up before it is spawned.
struct StageIo {
    stdin: Stdio,
    stdout: Stdio,
    stderr: Stdio,
    /// The reader of this stage's stdout pipe, for the next stage.
    next_stdin: Option<std::io::PipeReader>,
    stdout_drain: Option<Drain>,
    stderr_drain: Option<Drain>,
}

fn open_error(path: &Path) -> impl FnOnce(std::io::Error) -> std::io::Error + '_ {
    move |e| std::io::Error::new(e.kind(), format!("cannot open '{}': {e}", path.display()))
}

fn stage_io(
    stage: &Stage,
    prev: Option<std::io::PipeReader>,
    last: bool,
    limit: usize,
    cwd: Option<&Path>,
) -> std::io::Result<StageIo> {
    let stdin = match (&stage.stdin, prev) {
        (Some(path), _) => {
            let path = in_dir(cwd, path);
            Stdio::from(std::fs::File::open(&path).map_err(open_error(&path))?)
        }
        (None, Some(reader)) => Stdio::from(reader),
        (None, None) => Stdio::null(),
    };
    let mut next_stdin = None;
    let mut stdout_drain = None;
    let mut stderr_drain = None;
    // The stage's own pipe (to the next stage, or captured) and its
    // captured stderr, each made when one of the streams goes there.
    let uses_pipe = stage.stdout == StdoutTarget::Pipe || stage.stderr == StderrTarget::ToStdout;
    let uses_capture =
        stage.stderr == StderrTarget::Capture || stage.stdout == StdoutTarget::ToStderr;
    let pipe: Option<std::os::fd::OwnedFd> = if uses_pipe {
        let (reader, writer) = std::io::pipe()?;
        if last {
            stdout_drain = Some(drain(reader, limit));
        } else {
            next_stdin = Some(reader);
        }
        Some(writer.into())
    } else {
        None
    };
    let capture: Option<std::os::fd::OwnedFd> = if uses_capture {
        let (reader, writer) = std::io::pipe()?;
        stderr_drain = Some(drain(reader, limit));
        Some(writer.into())
    } else {
        None
    };
    let stdout_file: Option<std::os::fd::OwnedFd> = match &stage.stdout {
        StdoutTarget::File(path, append) => Some(open_out(&in_dir(cwd, path), *append)?.into()),
        _ => None,
    };
    let stderr_file: Option<std::os::fd::OwnedFd> = match (&stage.stderr, &stdout_file) {
        (StderrTarget::File(..), Some(shared)) if stage.shared_file => Some(shared.try_clone()?),
        (StderrTarget::File(path, append), _) => {
            Some(open_out(&in_dir(cwd, path), *append)?.into())
        }
        _ => None,
    };
    let clone = |fd: &Option<std::os::fd::OwnedFd>| -> std::io::Result<std::os::fd::OwnedFd> {
        fd.as_ref()
            .ok_or_else(|| std::io::Error::other("a redirection without its stream"))?
            .try_clone()
    };
    let stdout = match &stage.stdout {
        StdoutTarget::Pipe => clone(&pipe)?,
        StdoutTarget::ToStderr => clone(&capture)?,
        StdoutTarget::File(..) => clone(&stdout_file)?,
    };
    let stderr = match &stage.stderr {
        StderrTarget::ToStdout => clone(&pipe)?,
        StderrTarget::Capture => clone(&capture)?,
        StderrTarget::File(..) => clone(&stderr_file)?,
    };
    Ok(StageIo {
        stdin,
        stdout: Stdio::from(stdout),
        stderr: Stdio::from(stderr),
        next_stdin,
        stdout_drain,
        stderr_drain,
    })
}

/// `path` as the commands of a pipeline run in `cwd` see it.
pub(crate) fn in_dir(cwd: Option<&Path>, path: &Path) -> PathBuf {
    match cwd {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

struct Running {
    child: Option<std::process::Child>,
    error: Option<String>,
    stderr_drain: Option<Drain>,
}

/// Waits until every child has exited, `deadline` passes or `cancel` is
/// set; then kills the ones still running (their whole process group) and
/// records why.
fn wait_or_kill(
    running: &mut [Running],
    group: Option<u32>,
    deadline: Option<Instant>,
    timeout: Option<Duration>,
    cancel: Option<&AtomicBool>,
) {
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
        let cancelled = cancel.is_some_and(|c| c.load(Ordering::SeqCst));
        if cancelled || deadline.is_some_and(|d| Instant::now() >= d) {
            let why = match timeout {
                Some(t) if !cancelled => timed_out(t),
                _ => CANCELLED.to_string(),
            };
            for r in running.iter_mut() {
                if let Some(child) = r.child.as_mut()
                    && matches!(child.try_wait(), Ok(None))
                {
                    if let Some(group) = group {
                        cleanup::kill_process_group(group);
                    }
                    let _ = child.kill();
                    r.error = Some(why.clone());
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
    if let Some(result) = crate::in_process::try_run(pipeline, tools, cwd) {
        return result;
    }
    let mut running = Vec::new();
    let mut prev: Option<std::io::PipeReader> = None;
    let mut stdout_drain = None;
    // The pipeline's process group (the first stage's pid) and its
    // registration for cleanup on a signal.
    let mut group: Option<(u32, cleanup::Registration)> = None;
    let marker = super::orphans::new_pipeline_id();
    let count = pipeline.stages.len();
    for (i, stage) in pipeline.stages.iter().enumerate() {
        let last = i + 1 == count;
        let io = match stage_io(stage, prev.take(), last, tools.capture_limit, cwd) {
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
        let (program, spawned) = spawn_stage(
            stage,
            (io.stdin, io.stdout, io.stderr),
            tools,
            cwd,
            &mut group,
            &marker,
        );
        running.push(match spawned {
            Ok(child) => Running {
                child: Some(child),
                error: None,
                stderr_drain: io.stderr_drain,
            },
            Err(e) => Running {
                child: None,
                error: Some(format!("cannot run '{}': {e}", program.display())),
                stderr_drain: io.stderr_drain,
            },
        });
    }
    drop(prev);
    let group_id = group.as_ref().map(|(id, _)| *id);
    if tools.timeout.is_some() || tools.cancel.is_some() {
        wait_or_kill(
            &mut running,
            group_id,
            tools.timeout.map(|t| Instant::now() + t),
            tools.timeout,
            tools.cancel.as_deref(),
        );
    }
    let statuses = wait_all(&mut running);
    // Every stage has exited: whatever they left running in their group
    // (a background job holding a pipe open), or adopted after it left the
    // group, is killed, so the drains end.
    if let Some(id) = group_id {
        cleanup::kill_process_group(id);
    }
    super::orphans::sweep(&marker, group_id);
    drop(group);
    collect(pipeline, running, statuses, stdout_drain)
}

/// Spawns `stage` with its streams in the pipeline's process group (the
/// first stage starts it, in `group`); returns the program it resolved to
/// and the child. The command is dropped on return, which closes this
/// process's copies of the pipe ends, so readers see end-of-file when the
/// children exit.
fn spawn_stage(
    stage: &Stage,
    (stdin, stdout, stderr): (Stdio, Stdio, Stdio),
    tools: &Tools,
    cwd: Option<&Path>,
    group: &mut Option<(u32, cleanup::Registration)>,
    marker: &str,
) -> (PathBuf, std::io::Result<std::process::Child>) {
    let (program, lead) = tools.resolve(&stage.argv[0]);
    let mut cmd = Command::new(&program);
    cmd.args(&lead)
        .args(&stage.argv[1..])
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .env(super::orphans::MARKER, marker);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let id = group.as_ref().map_or(0, |(id, _)| *id);
        cmd.process_group(i32::try_from(id).unwrap_or(0));
    }
    let spawned = match group {
        Some(_) => super::orphans::spawn_tracked(&mut cmd, |c| c.spawn(), |c| c.id()),
        // The first process: spawned and registered with no signal
        // cleanup in between, so an interrupted run never misses it.
        None => super::orphans::spawn_tracked(
            &mut cmd,
            |c| {
                cleanup::register_with(
                    || c.spawn(),
                    |child| cleanup::Item::ProcessGroup(child.id()),
                )
            },
            |(child, _)| child.id(),
        )
        .map(|(child, registration)| {
            *group = Some((child.id(), registration));
            child
        }),
    };
    if let (Ok(child), Some(limit)) = (&spawned, tools.memory_limit) {
        cleanup::limit_memory(child.id(), limit);
    }
    (program, spawned)
}

/// Waits for every child that was started; `None` for a stage that never
/// ran or could not be waited for (with its error recorded).
fn wait_all(running: &mut [Running]) -> Vec<Option<ExitStatus>> {
    let mut statuses = Vec::new();
    for r in running.iter_mut() {
        statuses.push(match r.child.as_mut() {
            Some(child) => {
                let status = child.wait();
                super::orphans::untrack(child);
                match status {
                    Ok(s) => Some(s),
                    Err(e) => {
                        r.error = Some(format!("cannot wait for it: {e}"));
                        None
                    }
                }
            }
            None => None,
        });
    }
    statuses
}

/// The result of a pipeline whose stages have all ended: each stage's
/// status and captured standard error, and the last one's output.
fn collect(
    pipeline: &Pipeline,
    running: Vec<Running>,
    statuses: Vec<Option<ExitStatus>>,
    stdout_drain: Option<Drain>,
) -> PipelineResult {
    let mut stages = Vec::new();
    for ((stage, r), status) in pipeline.stages.iter().zip(running).zip(statuses) {
        let stderr = r.stderr_drain.map(Drain::collect).unwrap_or_default();
        stages.push(StageResult {
            command: stage.display(),
            invert: stage.invert,
            crash: stage.crash,
            status,
            error: r.error,
            stderr: stderr.bytes,
            stderr_dropped: stderr.dropped,
        });
    }
    let stdout = stdout_drain.map(Drain::collect).unwrap_or_default();
    PipelineResult {
        stages,
        stdout: stdout.bytes,
        stdout_dropped: stdout.dropped,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::run_line::{Substitutions, parse};

    /// The one pipeline of `text`.
    fn pipeline(text: &str) -> Pipeline {
        let subs = Substitutions {
            source: PathBuf::from("/dev/null"),
            temp: std::env::temp_dir().join(format!("pfir-exec-test-{}", std::process::id())),
            custom: Vec::new(),
        };
        let mut p = parse(text, &subs).unwrap();
        assert_eq!(p.len(), 1);
        p.remove(0)
    }

    fn run(text: &str) -> PipelineResult {
        let p = pipeline(text);
        let tools = Tools {
            timeout: Some(Duration::from_secs(60)),
            ..Tools::new().with_program("pfir", "/bin/false", &[])
        };
        run_pipeline(&p, &tools, None)
    }

    #[test]
    fn programs_resolve_to_their_executable_and_leading_arguments() {
        let tools = Tools::new()
            .with_program("tool", "/bin/a", &[])
            .with_program("Check", "/bin/a", &["check", "-q"])
            .with_program("tool", "/bin/b", &["x"]);
        assert_eq!(
            tools.resolve("tool"),
            (PathBuf::from("/bin/b"), vec!["x".to_string()])
        );
        assert_eq!(
            tools.resolve("Check"),
            (
                PathBuf::from("/bin/a"),
                vec!["check".to_string(), "-q".to_string()]
            )
        );
        assert_eq!(tools.resolve("cat"), (PathBuf::from("cat"), Vec::new()));
        assert_eq!(tools.programs.len(), 2);
    }

    #[test]
    fn timeout_kills() {
        let p = pipeline("sleep 30 | cat");
        let tools = Tools {
            timeout: Some(Duration::from_millis(200)),
            ..Tools::new().with_program("pfir", "/bin/false", &[])
        };
        let start = Instant::now();
        let r = run_pipeline(&p, &tools, None);
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(!r.passed());
        assert!(r.stages[0].describe_status().contains("timed out"));
    }

    #[test]
    fn cancel_kills() {
        let p = pipeline("sleep 30 | cat");
        let cancel = Arc::new(AtomicBool::new(false));
        let tools = Tools {
            cancel: Some(cancel.clone()),
            ..Tools::new()
        };
        let setter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            cancel.store(true, Ordering::SeqCst);
        });
        let r = run_pipeline(&p, &tools, None);
        setter.join().unwrap();
        assert!(!r.passed());
        assert!(
            r.stages[0].describe_status().starts_with("cancelled"),
            "{}",
            r.stages[0].describe_status()
        );
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
        // An unconfigured name runs as written.
        assert!(!run("not echo").passed());
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
    fn stdout_to_stderr_and_both_to_a_file() {
        let r = run("sh -c 'echo out; echo err >&2' >&2");
        assert!(r.stdout.is_empty());
        assert_eq!(String::from_utf8_lossy(&r.stages[0].stderr), "out\nerr\n");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("both");
        assert!(
            run(&format!(
                "sh -c 'echo out; echo err >&2' &> {}",
                f.display()
            ))
            .passed()
        );
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "out\nerr\n");
        assert!(run(&format!("echo more &>> {}", f.display())).passed());
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "out\nerr\nmore\n");
    }

    #[test]
    fn capture_keeps_head_and_tail() {
        let data: Vec<u8> = (0..10_000u32)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let c = capture(&data[..], 100);
        assert_eq!(c.dropped, data.len() as u64 - 100);
        let shown = String::from_utf8(c.bytes).unwrap();
        assert!(shown.starts_with("0\n1\n2\n"));
        assert!(shown.ends_with("9998\n9999\n"));
        assert!(shown.contains(&format!("[... {} bytes dropped ...]", c.dropped)));
        let small = capture(&b"short"[..], 100);
        assert_eq!((small.bytes.as_slice(), small.dropped), (&b"short"[..], 0));
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
