//! Cooperative cancellation of work that runs on the caller's thread: the
//! one mechanism by which a timed-out or cancelled in-process test stage
//! (`pfir test`, the language server's tests on save) stops using CPU and
//! memory.
//!
//! [`run`] runs a closure under a [`Token`] (a flag another thread may set,
//! and an optional deadline). The loops of the work that can be long call
//! [`checkpoint`]: while no token is installed on the thread (every
//! ordinary caller of the library) it is one thread-local read; under a
//! token that is cancelled or past its deadline it unwinds the work with
//! the [`Cancelled`] payload (`std::panic::resume_unwind`, which calls no
//! panic hook and prints nothing), dropping everything the work holds,
//! and [`run`] returns `Err(Cancelled)`. A token already cancelled makes
//! [`run`] return `Err(Cancelled)` without running the closure at all.
//!
//! So the library's API stays what it is for callers that do not cancel,
//! and no thread is started: the work stops itself at its next checkpoint.
//! A checkpoint must never be called from a `Drop` implementation (an
//! unwind there would abort); the work between two checkpoints should be
//! at most a few milliseconds.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// When work must stop: when its flag is set (from any thread) or its
/// deadline has passed.
#[derive(Clone, Debug, Default)]
pub struct Token {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Token {
    /// A token that stops the work only when [`Token::cancel`] is called.
    pub fn new() -> Token {
        Token::default()
    }

    /// A token that stops the work when `flag` is set.
    pub fn with_flag(flag: Arc<AtomicBool>) -> Token {
        Token {
            flag,
            deadline: None,
        }
    }

    /// This token, also stopping the work at `deadline` (the earlier of
    /// two deadlines holds).
    pub fn with_deadline(mut self, deadline: Instant) -> Token {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }

    /// Stops the work running under this token (or a clone of it), from any
    /// thread: it unwinds at its next [`checkpoint`].
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether the flag is set or the deadline has passed.
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the deadline (not the flag) is what stopped the work.
    pub fn timed_out(&self) -> bool {
        !self.flag.load(Ordering::Relaxed) && self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The payload of the unwind by which cancelled work stops, and the error
/// [`run`] returns for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cancelled")
    }
}

impl std::error::Error for Cancelled {}

thread_local! {
    /// Whether a token is installed on this thread (the fast path of
    /// [`checkpoint`]).
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    /// The token installed on this thread by [`run`].
    static CURRENT: RefCell<Option<Token>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread under `token`: `Err(Cancelled)` when the
/// token is cancelled before it starts (then `work` does not run) or at
/// one of its [`checkpoint`]s (then everything it held is dropped). A
/// panic of `work` that is not a cancellation goes on unwinding. Inside
/// `work`, a nested `run` installs its own token until it returns.
pub fn run<R>(token: &Token, work: impl FnOnce() -> R) -> Result<R, Cancelled> {
    if token.is_cancelled() {
        return Err(Cancelled);
    }
    struct Restore(Option<Token>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            let (previous, active) = (self.0.take(), self.1);
            CURRENT.with(|c| *c.borrow_mut() = previous);
            ACTIVE.with(|a| a.set(active));
        }
    }
    let previous = CURRENT.with(|c| c.borrow_mut().replace(token.clone()));
    let _restore = Restore(previous, ACTIVE.with(|a| a.replace(true)));
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(r) => Ok(r),
        Err(payload) if payload.is::<Cancelled>() => Err(Cancelled),
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// Where long work may stop: unwinds with [`Cancelled`] when the token
/// [`run`] installed on this thread is cancelled or past its deadline;
/// does nothing (one thread-local read) when no token is installed.
#[inline]
pub fn checkpoint() {
    if ACTIVE.with(Cell::get) {
        check_current();
    }
}

/// Whether work on this thread runs under a token that is now cancelled
/// (for loops that end on their own rather than unwind).
pub fn is_cancelled() -> bool {
    ACTIVE.with(Cell::get) && CURRENT.with(|c| c.borrow().as_ref().is_some_and(Token::is_cancelled))
}

#[cold]
#[inline(never)]
fn check_current() {
    if is_cancelled() {
        std::panic::resume_unwind(Box::new(Cancelled));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_token_cancelled_before_the_work_starts_runs_nothing() {
        let token = Token::new();
        token.cancel();
        let mut ran = false;
        assert_eq!(run(&token, || ran = true), Err(Cancelled));
        assert!(!ran);
        // A deadline already passed alike.
        let past = Token::new().with_deadline(Instant::now());
        assert_eq!(run(&past, || ran = true), Err(Cancelled));
        assert!(!ran);
        assert!(past.timed_out());
    }

    #[test]
    fn work_stops_at_the_first_checkpoint_after_the_cancel() {
        let token = Token::new();
        let mut reached = 0;
        let dropped = Arc::new(AtomicBool::new(false));
        struct Held(Arc<AtomicBool>);
        impl Drop for Held {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let r = run(&token, || {
            let _held = Held(dropped.clone());
            for i in 0..10 {
                checkpoint();
                reached = i;
                if i == 3 {
                    token.cancel();
                }
            }
        });
        assert_eq!(r, Err(Cancelled));
        assert_eq!(reached, 3);
        // What the work held was dropped, and the thread is as before.
        assert!(dropped.load(Ordering::SeqCst));
        assert!(!ACTIVE.with(Cell::get));
        checkpoint();
    }

    #[test]
    fn a_deadline_stops_the_work_without_anyone_setting_the_flag() {
        let token = Token::new().with_deadline(Instant::now() + Duration::from_millis(20));
        let r = run(&token, || {
            loop {
                checkpoint();
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        assert_eq!(r, Err(Cancelled));
        assert!(token.timed_out());
    }

    #[test]
    fn without_a_token_checkpoints_do_nothing_and_other_panics_go_on() {
        checkpoint();
        assert!(!is_cancelled());
        assert_eq!(run(&Token::new(), || 7), Ok(7));
        let panicked = std::panic::catch_unwind(|| run(&Token::new(), || panic!("boom")));
        assert!(panicked.is_err());
        assert!(!ACTIVE.with(Cell::get));
    }

    #[test]
    fn a_nested_run_restores_the_outer_token() {
        let outer = Token::new();
        let r = run(&outer, || {
            assert_eq!(run(&Token::new(), || 1), Ok(1));
            outer.cancel();
            checkpoint();
            unreachable!("the outer token is installed again");
        });
        assert_eq!(r, Err(Cancelled));
    }
}
