//! The standard streams the commands read and write: the process's own, or,
//! while a command runs in-process for the test runner
//! (`crate::testing::in_process`), buffers that stand for them.
//!
//! The redirection is per thread ([`Redirect::current`]), so commands
//! running at once on different threads never see each other's streams. Captured streams are never a
//! terminal.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

/// A captured output stream; two streams sent to the same place (`2>&1`)
/// share one.
pub type Sink = Arc<Mutex<Vec<u8>>>;

/// The streams of one command run in-process.
#[derive(Clone, Debug)]
pub struct Redirect {
    pub stdin: Arc<Mutex<std::io::Cursor<Vec<u8>>>>,
    pub stdout: Sink,
    pub stderr: Sink,
}

thread_local! {
    static CURRENT: RefCell<Option<Redirect>> = const { RefCell::new(None) };
}

impl Redirect {
    /// Standard input `stdin`, the outputs into `stdout` and `stderr`.
    pub fn new(stdin: Vec<u8>, stdout: Sink, stderr: Sink) -> Redirect {
        Redirect {
            stdin: Arc::new(Mutex::new(std::io::Cursor::new(stdin))),
            stdout,
            stderr,
        }
    }

    /// The redirection in force on this thread, if any.
    pub fn current() -> Option<Redirect> {
        CURRENT.with(|c| c.borrow().clone())
    }

    /// Runs `f` with `redirect` (or the process's streams, for `None`) as
    /// this thread's standard streams.
    pub fn scope<T>(redirect: Option<Redirect>, f: impl FnOnce() -> T) -> T {
        struct Restore(Option<Redirect>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = previous);
            }
        }
        let previous = CURRENT.with(|c| std::mem::replace(&mut *c.borrow_mut(), redirect));
        let _restore = Restore(previous);
        f()
    }
}

/// Whether this thread's standard output is redirected to a buffer.
pub fn is_redirected() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

fn lock(sink: &Sink) -> std::sync::MutexGuard<'_, Vec<u8>> {
    sink.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes `bytes` to standard output (or its buffer).
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    match Redirect::current() {
        Some(r) => {
            lock(&r.stdout).extend_from_slice(bytes);
            Ok(())
        }
        None => std::io::stdout().lock().write_all(bytes),
    }
}

/// Writes `bytes` to standard error (or its buffer), ignoring failure (a
/// closed stderr must not panic).
pub fn write_stderr(bytes: &[u8]) {
    match Redirect::current() {
        Some(r) => lock(&r.stderr).extend_from_slice(bytes),
        None => {
            let _ = std::io::stderr().lock().write_all(bytes);
        }
    }
}

/// A writer to standard output (or its buffer), for streaming output.
pub fn stdout() -> Box<dyn Write> {
    match Redirect::current() {
        Some(r) => Box::new(SinkWriter(r.stdout)),
        None => Box::new(std::io::stdout().lock()),
    }
}

/// A writer to standard error (or its buffer), for diagnostics written as
/// they are rendered.
pub fn stderr() -> Box<dyn Write> {
    match Redirect::current() {
        Some(r) => Box::new(SinkWriter(r.stderr)),
        None => Box::new(std::io::stderr().lock()),
    }
}

struct SinkWriter(Sink);

impl Write for SinkWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        lock(&self.0).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Standard input (or its buffer), for reading.
pub fn stdin() -> Box<dyn Read> {
    match Redirect::current() {
        Some(r) => Box::new(SourceReader(r.stdin)),
        None => Box::new(std::io::stdin().lock()),
    }
}

struct SourceReader(Arc<Mutex<std::io::Cursor<Vec<u8>>>>);

impl Read for SourceReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).read(buf)
    }
}

/// Whether standard error is a terminal (a buffer never is).
pub fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal;
    !is_redirected() && std::io::stderr().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirection_is_scoped_to_the_thread_and_restored() {
        let out: Sink = Default::default();
        let err: Sink = Default::default();
        let r = Redirect::new(b"in".to_vec(), out.clone(), err.clone());
        Redirect::scope(Some(r), || {
            write_stdout(b"o").unwrap();
            write_stderr(b"e");
            let mut s = String::new();
            stdin().read_to_string(&mut s).unwrap();
            assert_eq!(s, "in");
            assert!(is_redirected() && !stderr_is_terminal());
            // Another thread has its own (none).
            assert!(!std::thread::spawn(is_redirected).join().unwrap());
        });
        assert!(!is_redirected());
        assert_eq!((&lock(&out)[..], &lock(&err)[..]), (&b"o"[..], &b"e"[..]));
    }
}
