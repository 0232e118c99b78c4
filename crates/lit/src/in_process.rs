//! Running a pipeline's stages inside the runner's process, without
//! spawning any, when the embedding program can run every one of them
//! itself ([`InProcess`], set in [`Tools::in_process`]).
//!
//! Spawning a process per stage is nearly all the time a small test takes;
//! pfir's commands (`pfir opt`, `pfir filecheck`, ...) run in well under a
//! millisecond on such tests. A pipeline runs in-process only when the hook
//! takes every stage and every stage is [`isolable`]: it behaves here
//! exactly as in a process of its own (it names none of a process's own
//! streams, no device or FIFO, nothing under `/dev` or `/proc` but
//! `/dev/null`, and at most [`INPUT_BUDGET`] bytes of input), and no `cd`
//! moved the commands. Anything else runs as processes
//! ([`crate::execute::run_pipeline`]).
//!
//! The results are those of the same pipeline run as processes: the stages
//! run in order, each reading the previous one's standard output; the
//! redirections apply left to right and go where they would (a file
//! redirection is opened, and truncated, before the stage runs, as a shell
//! does; two streams sent to one opening share it); `not`, `not --crash`
//! and the capture limits apply alike; a panic is exit status 101, as a
//! Rust program that panics.
//!
//! The stages run on the caller's thread under a [`fsutil::cancel::Token`]
//! holding [`Tools::cancel`] and the deadline of [`Tools::timeout`]; the
//! embedding program's commands call [`fsutil::cancel::checkpoint`] in
//! their loops, so a stage whose time is up or which is cancelled unwinds
//! there, dropping all it held, and nothing it produced is used or
//! written. It is reported as a process pipeline would be ("timed out
//! after Ns and was killed", or "cancelled", for the stage running then
//! and the ones after it).

use crate::execute::{
    CANCELLED, Captured, PipelineResult, StageResult, Tools, capture, open_out, timed_out,
};
use crate::run_line::{Pipeline, Stage, StderrTarget, StdoutTarget};
use fsutil::cancel::{self, Token};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A captured stream of an in-process stage; two streams sent to the same
/// place (`2>&1`) share one.
pub type Sink = Arc<Mutex<Vec<u8>>>;

/// The standard streams of one in-process stage.
#[derive(Debug, Clone)]
pub struct StageStreams {
    pub stdin: Vec<u8>,
    pub stdout: Sink,
    pub stderr: Sink,
}

/// What the embedding program runs itself: pfir runs its own commands
/// (`crate::testing::in_process` in pfir).
pub trait InProcess: Send + Sync + std::fmt::Debug {
    /// Whether the stage running `executable` (what its program name
    /// resolves to, [`Tools::resolve`]) with `args` (the resolved leading
    /// arguments first) can run in-process.
    fn handles(&self, executable: &Path, args: &[String]) -> bool;

    /// Runs the stage with `streams`; returns its exit status.
    fn run(&self, executable: &Path, args: &[String], streams: StageStreams) -> i32;
}

struct Planned {
    executable: PathBuf,
    args: Vec<String>,
}

/// Runs `pipeline` in-process when `tools` has a hook that takes every
/// stage (and no working directory is imposed); `None` otherwise.
pub fn try_run(pipeline: &Pipeline, tools: &Tools, cwd: Option<&Path>) -> Option<PipelineResult> {
    let hook = tools.in_process.as_ref()?;
    if cwd.is_some() || pipeline.stages.is_empty() || !cfg!(unix) {
        return None;
    }
    let mut planned = Vec::new();
    for stage in &pipeline.stages {
        let (executable, mut args) = tools.resolve(stage.argv.first()?);
        args.extend(stage.argv[1..].iter().cloned());
        if !hook.handles(&executable, &args) || !isolable(stage, &args) {
            return None;
        }
        planned.push(Planned { executable, args });
    }
    // The stages stop themselves at their next checkpoint when the
    // pipeline's time is up or it is cancelled (`fsutil::cancel`): no
    // thread is started, and nothing a stage held outlives it.
    let mut token = match &tools.cancel {
        Some(flag) => Token::with_flag(flag.clone()),
        None => Token::new(),
    };
    if let Some(timeout) = tools.timeout {
        token = token.with_deadline(Instant::now() + timeout);
    }
    let mut stages = Vec::new();
    let stdout = run_stages(
        &**hook,
        pipeline,
        &planned,
        tools.capture_limit,
        &token,
        &mut stages,
    );
    if stages.len() < pipeline.stages.len() {
        // Stopped: the running stage and the ones after it are reported
        // as a process pipeline's would be.
        let why = match tools.timeout {
            Some(t) if token.timed_out() => timed_out(t),
            _ => CANCELLED.to_string(),
        };
        for stage in &pipeline.stages[stages.len()..] {
            stages.push(StageResult {
                command: stage.display(),
                invert: stage.invert,
                crash: stage.crash,
                status: None,
                error: Some(why.clone()),
                stderr: Vec::new(),
                stderr_dropped: 0,
            });
        }
        return Some(PipelineResult {
            stages,
            stdout: Vec::new(),
            stdout_dropped: 0,
        });
    }
    Some(PipelineResult {
        stages,
        stdout: stdout.bytes,
        stdout_dropped: stdout.dropped,
    })
}

/// The most bytes of named input files (and of a `<` file) one stage may
/// have to run in-process: 1 MiB. pfir's commands are linear, so what an
/// in-process stage holds is bounded by it (docs/testing.md, "Budgets:
/// memory"); a stage with more input runs as a process, held to
/// [`Tools::memory_limit`].
pub const INPUT_BUDGET: u64 = 1 << 20;

/// Whether `stage` (running with `args`, the resolved ones) behaves in
/// this process exactly as it would in its own: no argument and no `<`
/// names a process's own streams (`/dev/stdin`, `/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`, ... which in here would be the
/// runner's), a device, a FIFO or a socket, or anything under `/dev` or
/// `/proc` but `/dev/null`; and the regular files named hold at most
/// [`INPUT_BUDGET`] bytes together. An argument counts as a path when it
/// names an existing file or a file in an existing directory, whole or
/// after the `=` of an `--option=value`.
pub fn isolable(stage: &Stage, args: &[String]) -> bool {
    let mut total = 0u64;
    let mut check = |word: &str| -> bool {
        match plain_input(Path::new(word)) {
            Some(bytes) => {
                total = total.saturating_add(bytes);
                total <= INPUT_BUDGET
            }
            None => false,
        }
    };
    if let Some(path) = &stage.stdin
        && !check(&path.to_string_lossy())
    {
        return false;
    }
    for arg in args {
        if !check(arg) {
            return false;
        }
        if arg.starts_with('-')
            && let Some((_, value)) = arg.split_once('=')
            && !check(value)
        {
            return false;
        }
    }
    true
}

/// Whether `path` is under `/dev` or `/proc` (but `/dev/null`), as
/// written or once resolved (`exists`: the path itself; else its
/// directory). An existing path that cannot be resolved counts as such.
fn under_dev_or_proc(path: &Path, exists: bool) -> bool {
    let special =
        |p: &Path| (p.starts_with("/dev") || p.starts_with("/proc")) && p != Path::new("/dev/null");
    if special(path) {
        return true;
    }
    let resolved = if exists {
        std::fs::canonicalize(path).ok()
    } else {
        path.parent()
            .filter(|d| !d.as_os_str().is_empty())
            .and_then(|d| std::fs::canonicalize(d).ok())
            .map(|d| d.join(path.file_name().unwrap_or_default()))
    };
    resolved.map_or(exists, |p| special(&p))
}

/// Whether `path` names a stream (`/dev/stdin`, `/proc/self/fd/N`, ...),
/// a device, a FIFO, a socket or anything under `/dev` or `/proc` but
/// `/dev/null`: what an in-process stage, or the language server, must
/// never open itself.
pub fn names_stream_or_device(path: &Path) -> bool {
    plain_input(path).is_none()
}

/// The size of the regular file `path` names (0 when it names nothing,
/// or a directory); `None` when it names a stream, a device, a FIFO, a
/// socket, or anything under `/dev` or `/proc` but `/dev/null`.
fn plain_input(path: &Path) -> Option<u64> {
    if path.as_os_str().is_empty() || path == Path::new("-") || path == Path::new("/dev/null") {
        return Some(0);
    }
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() || meta.is_dir() => {
            if under_dev_or_proc(path, true) {
                return None;
            }
            Some(if meta.is_file() { meta.len() } else { 0 })
        }
        Ok(_) => None,
        // Not a file: an argument that is no path, or a file the command
        // may create (then only where it would create it).
        Err(_) => (!under_dev_or_proc(path, false)).then_some(0),
    }
}

/// What a capture keeps of `bytes` (see [`capture`]): all of them when
/// they fit, without copying.
fn keep(bytes: Vec<u8>, limit: usize) -> Captured {
    if bytes.len() <= limit {
        Captured { bytes, dropped: 0 }
    } else {
        capture(&bytes[..], limit)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A stage's output destination, opened before it runs; two streams sent
/// to the same place share one.
#[derive(Clone)]
enum Dest {
    /// Captured (or piped on).
    Buffer(Sink),
    /// A file, written when the stage has ended.
    File(Arc<std::fs::File>, Sink),
}

impl Dest {
    fn sink(&self) -> Sink {
        match self {
            Dest::Buffer(s) | Dest::File(_, s) => s.clone(),
        }
    }
}

#[cfg(unix)]
pub(crate) fn exit_status(code: i32) -> std::process::ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    std::process::ExitStatus::from_raw((code & 0xff) << 8)
}

#[cfg(not(unix))]
pub(crate) fn exit_status(_code: i32) -> std::process::ExitStatus {
    unreachable!("in-process stages run on Unix only")
}

/// Runs the stages in order under `token`, pushing each one's result on
/// `done`; returns the last stage's captured output. A stage that `token`
/// stops (before or while it runs) ends the run: its result and the later
/// ones are not pushed.
fn run_stages(
    hook: &dyn InProcess,
    pipeline: &Pipeline,
    planned: &[Planned],
    limit: usize,
    token: &Token,
    done: &mut Vec<StageResult>,
) -> Captured {
    let mut piped: Vec<u8> = Vec::new();
    let count = pipeline.stages.len();
    for (i, (stage, plan)) in pipeline.stages.iter().zip(planned).enumerate() {
        let last = i + 1 == count;
        let input = std::mem::take(&mut piped);
        let mut result = StageResult {
            command: stage.display(),
            invert: stage.invert,
            crash: stage.crash,
            status: None,
            error: None,
            stderr: Vec::new(),
            stderr_dropped: 0,
        };
        let pipe = Sink::default();
        let capture = Sink::default();
        let setup = (|| -> std::io::Result<(Vec<u8>, Dest, Dest)> {
            let stdin = match &stage.stdin {
                Some(path) => std::fs::read(path).map_err(|e| {
                    std::io::Error::new(e.kind(), format!("cannot open '{}': {e}", path.display()))
                })?,
                None => input,
            };
            // The stage's pipe and captured stderr, and its files (one
            // opening for both streams when they share it).
            let out_file = match &stage.stdout {
                StdoutTarget::File(path, append) => Some(Dest::File(
                    Arc::new(open_out(path, *append)?),
                    Sink::default(),
                )),
                _ => None,
            };
            let err_file = match (&stage.stderr, &out_file) {
                (StderrTarget::File(..), Some(Dest::File(f, s))) if stage.shared_file => {
                    Some(Dest::File(f.clone(), s.clone()))
                }
                (StderrTarget::File(path, append), _) => Some(Dest::File(
                    Arc::new(open_out(path, *append)?),
                    Sink::default(),
                )),
                _ => None,
            };
            let (pipe, capture) = (Dest::Buffer(pipe.clone()), Dest::Buffer(capture.clone()));
            let out = match &stage.stdout {
                StdoutTarget::Pipe => pipe.clone(),
                StdoutTarget::ToStderr => capture.clone(),
                StdoutTarget::File(..) => out_file.clone().expect("opened above"),
            };
            let err = match &stage.stderr {
                StderrTarget::ToStdout => pipe.clone(),
                StderrTarget::Capture => capture.clone(),
                StderrTarget::File(..) => err_file.expect("opened above"),
            };
            Ok((stdin, out, err))
        })();
        let (stdin, out, err) = match setup {
            Ok(s) => s,
            Err(e) => {
                result.error = Some(format!("cannot set up its input/output: {e}"));
                done.push(result);
                continue;
            }
        };
        let (out_sink, err_sink) = (out.sink(), err.sink());
        let streams = StageStreams {
            stdin,
            stdout: out_sink.clone(),
            stderr: err_sink.clone(),
        };
        let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            cancel::run(token, || hook.run(&plan.executable, &plan.args, streams))
        })) {
            Ok(Ok(code)) => code,
            Ok(Err(cancel::Cancelled)) => return Captured::default(),
            Err(_) => crate::execute::RUST_PANIC_STATUS,
        };
        result.status = Some(exit_status(code));
        let files = match (&out, &err) {
            (Dest::File(a, _), Dest::File(b, _)) if Arc::ptr_eq(a, b) => vec![&out],
            _ => vec![&out, &err],
        };
        for dest in files {
            if let Dest::File(file, s) = dest {
                use std::io::Write;
                let mut file: &std::fs::File = file;
                if let Err(e) = file.write_all(&lock(s)) {
                    result
                        .error
                        .get_or_insert(format!("cannot write its output: {e}"));
                }
            }
        }
        let c = keep(std::mem::take(&mut *lock(&capture)), limit);
        result.stderr = c.bytes;
        result.stderr_dropped = c.dropped;
        let bytes = std::mem::take(&mut *lock(&pipe));
        done.push(result);
        if last {
            return keep(bytes, limit);
        }
        piped = bytes;
    }
    Captured::default()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::run_line::{Substitutions, parse};
    use std::time::Duration;

    /// A hook that runs `echo WORDS`, `rev` (reverses its input), `fail`
    /// (prints to stderr, exits 1), `boom` (panics) and `spin` (loops
    /// forever, at a checkpoint every millisecond, holding 16 MiB), as if
    /// they were programs of its own; it counts the stages it started.
    #[derive(Debug, Default)]
    struct Toy {
        /// Raised by `spin` after its 50th checkpoint: the run's cancel
        /// arriving while a stage runs (as the language server's newer
        /// save does).
        raise_while_spinning: Option<Arc<std::sync::atomic::AtomicBool>>,
        started: std::sync::atomic::AtomicUsize,
        /// Stages running now (a guard of each stage counts it).
        running: Arc<std::sync::atomic::AtomicUsize>,
    }

    /// Counts a running stage until it is dropped.
    struct Running(Arc<std::sync::atomic::AtomicUsize>);

    impl Drop for Running {
        fn drop(&mut self) {
            self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    impl InProcess for Toy {
        fn handles(&self, executable: &Path, _args: &[String]) -> bool {
            matches!(
                executable.to_str(),
                Some("echo" | "rev" | "fail" | "boom" | "spin")
            )
        }
        fn run(&self, executable: &Path, args: &[String], s: StageStreams) -> i32 {
            self.started
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            self.running
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let _running = Running(self.running.clone());
            match executable.to_str().unwrap() {
                "echo" => {
                    s.stdout
                        .lock()
                        .unwrap()
                        .extend(format!("{}\n", args.join(" ")).bytes());
                    0
                }
                "rev" => {
                    let mut v = s.stdin.clone();
                    v.reverse();
                    s.stdout.lock().unwrap().extend(v);
                    0
                }
                "fail" => {
                    s.stderr.lock().unwrap().extend(b"bad\n");
                    s.stdout.lock().unwrap().extend(b"out\n");
                    1
                }
                "spin" => {
                    let held = vec![1u8; 16 << 20];
                    for spins in 0.. {
                        if spins == 50
                            && let Some(flag) = &self.raise_while_spinning
                        {
                            flag.store(true, std::sync::atomic::Ordering::SeqCst);
                        }
                        cancel::checkpoint();
                        std::thread::sleep(Duration::from_millis(1));
                        std::hint::black_box(&held);
                    }
                    unreachable!("spins until stopped")
                }
                _ => panic!("boom"),
            }
        }
    }

    fn run(text: &str, timeout: Option<Duration>) -> Option<PipelineResult> {
        run_with(text, timeout, None, Arc::default())
    }

    fn run_with(
        text: &str,
        timeout: Option<Duration>,
        cancel: Option<Arc<std::sync::atomic::AtomicBool>>,
        toy: Arc<Toy>,
    ) -> Option<PipelineResult> {
        let subs = Substitutions {
            source: PathBuf::from("/dev/null"),
            temp: PathBuf::from("/tmp/x"),
            custom: Vec::new(),
        };
        let p = parse(text, &subs).unwrap();
        let tools = Tools {
            timeout,
            cancel,
            in_process: Some(toy),
            ..Tools::new()
        };
        try_run(&p[0], &tools, None)
    }

    #[test]
    fn stages_naming_streams_devices_or_large_inputs_run_as_processes() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        std::fs::write(&small, "x").unwrap();
        let large = dir.path().join("large");
        std::fs::File::create(&large)
            .unwrap()
            .set_len(INPUT_BUDGET + 1)
            .unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/dev/stdin", &link).unwrap();
        let s = |p: &Path| p.display().to_string();
        for (words, expected) in [
            (
                vec![
                    "echo".to_string(),
                    s(&small),
                    "-".into(),
                    "/dev/null".into(),
                ],
                true,
            ),
            (vec!["echo".into(), s(&dir.path().join("new-file"))], true),
            (vec!["echo".into(), "/dev/stdin".into()], false),
            (vec!["echo".into(), "/dev/fd/0".into()], false),
            (vec!["echo".into(), "/proc/self/fd/1".into()], false),
            (vec!["echo".into(), "--input-file=/dev/stdin".into()], false),
            (
                vec!["echo".into(), "-o".into(), "/dev/stdout".into()],
                false,
            ),
            (vec!["echo".into(), "/dev/zero".into()], false),
            (vec!["echo".into(), s(&link)], false),
            (vec!["echo".into(), s(&large)], false),
        ] {
            let stage = Stage {
                argv: words.clone(),
                ..Stage::default()
            };
            assert_eq!(isolable(&stage, &words), expected, "{words:?}");
        }
        // `<` from a device or a large file too.
        for (from, expected) in [
            (s(&small), true),
            ("/dev/zero".into(), false),
            (s(&large), false),
        ] {
            let stage = Stage {
                argv: vec!["echo".into()],
                stdin: Some(PathBuf::from(&from)),
                ..Stage::default()
            };
            assert_eq!(isolable(&stage, &stage.argv), expected, "< {from}");
        }
        assert!(run("echo /dev/stdin", None).is_none());
    }

    #[test]
    fn only_pipelines_the_hook_takes_entirely() {
        assert!(run("echo a | rev", None).is_some());
        assert!(run("echo a | cat", None).is_none());
        assert!(run("echo a", None).is_some());
    }

    #[test]
    fn pipes_statuses_and_not() {
        let r = run("echo abc | rev", None).unwrap();
        assert!(r.passed());
        assert_eq!(r.stdout, b"\ncba");
        let r = run("not fail", None).unwrap();
        assert!(r.passed());
        assert_eq!(r.stages[0].stderr, b"bad\n");
        assert_eq!(r.stages[0].status.unwrap().code(), Some(1));
        // pipefail; the failing stage's stdout still flows on.
        let r = run("fail | rev", None).unwrap();
        assert!(!r.passed() && r.stages[1].passed());
        assert_eq!(r.stdout, b"\ntuo");
    }

    #[test]
    fn a_panic_is_status_101_and_never_passes() {
        let r = run("not boom", None).unwrap();
        assert_eq!(r.stages[0].status.unwrap().code(), Some(101));
        assert!(!r.passed());
    }

    #[test]
    fn redirections() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("o");
        let r = run(&format!("not fail &> {}", f.display()), None).unwrap();
        assert!(r.passed() && r.stdout.is_empty() && r.stages[0].stderr.is_empty());
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "bad\nout\n");
        let r = run(&format!("echo more >> {}", f.display()), None).unwrap();
        assert!(r.passed());
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "bad\nout\nmore\n");
        let r = run(&format!("rev < {}", f.display()), None).unwrap();
        assert_eq!(r.stdout, b"\nerom\ntuo\ndab");
        let r = run("not fail 2>&1", None).unwrap();
        assert_eq!(r.stdout, b"bad\nout\n");
        let r = run("rev < /nonexistent/pfir", None).unwrap();
        assert!(!r.passed());
        assert!(r.stages[0].describe_status().contains("cannot open"));
    }

    /// A stage that never ends by itself stops at the deadline (the call
    /// returns at all), on the caller's thread; it and the stages after it
    /// are reported timed out, and the ones after it never start.
    #[test]
    fn timeout_stops_the_running_stage_and_reports_it_and_the_rest() {
        let toy = Arc::<Toy>::default();
        let r = run_with(
            "echo a | spin | rev",
            Some(Duration::from_millis(100)),
            None,
            toy.clone(),
        )
        .unwrap();
        assert!(!r.passed());
        assert_eq!(r.stages.len(), 3);
        assert!(r.stages[0].passed());
        for s in &r.stages[1..] {
            assert!(s.describe_status().contains("timed out"), "{s:?}");
        }
        assert_eq!(toy.started.load(std::sync::atomic::Ordering::SeqCst), 2);
        // The stage has stopped (and dropped what it held) when the
        // pipeline's result is there: nothing runs on in the background.
        assert_eq!(toy.running.load(std::sync::atomic::Ordering::SeqCst), 0);
    }

    /// A pipeline cancelled before it starts runs none of its stages.
    #[test]
    fn a_pipeline_already_cancelled_runs_no_stage() {
        let toy = Arc::<Toy>::default();
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let r = run_with("echo a | rev", None, Some(flag), toy.clone()).unwrap();
        assert_eq!(toy.started.load(std::sync::atomic::Ordering::SeqCst), 0);
        assert_eq!(r.stages.len(), 2);
        for s in &r.stages {
            assert_eq!(s.describe_status(), CANCELLED, "{s:?}");
        }
    }

    /// A cancel raised while a stage runs (the language server's newer
    /// save) stops it at its next checkpoint; without the cancel it would
    /// never end.
    #[test]
    fn a_cancel_raised_while_a_stage_runs_stops_it() {
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let toy = Arc::new(Toy {
            raise_while_spinning: Some(flag.clone()),
            ..Toy::default()
        });
        let r = run_with("spin", None, Some(flag), toy.clone()).unwrap();
        assert_eq!(r.stages[0].describe_status(), CANCELLED);
        assert_eq!(toy.started.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}
