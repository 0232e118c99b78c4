//! The project's one stack strategy (docs/decisions.md): deep input
//! recurses deeply, so the work runs on a worker thread with a large stack
//! ([`with_large_stack`]), and helper threads that walk the same module ask
//! for the same size ([`worker_stack_bytes`]). Depends only on the lexer's
//! nesting limit, so every layer can use it.

/// The stack the worker thread asks for first: enough for
/// [`crate::lexer::MAX_NESTING`] levels in every recursive walk. Only the
/// pages touched are committed.
pub const LARGE_STACK_BYTES: usize = crate::lexer::NESTING_STACK_BYTES;

/// The smallest worker stack tried before running on the calling thread.
pub const MIN_WORKER_STACK_BYTES: usize = 16 << 20;

/// The stack size the worker threads use: [`LARGE_STACK_BYTES`] when the
/// address space allows it, else what [`with_large_stack`] could get (a
/// quarter of `ulimit -v` at most, halved until a thread starts). Helper
/// threads that walk the same module ask for the same size.
static WORKER_STACK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The size to ask for: the one that last worked, or the first choice.
pub fn worker_stack_bytes() -> usize {
    match WORKER_STACK.load(std::sync::atomic::Ordering::Relaxed) {
        0 => first_stack_choice(),
        n => n,
    }
}

/// [`LARGE_STACK_BYTES`], or a quarter of the address-space limit when
/// one is set (`ulimit -v`), so that the heap keeps the rest.
fn first_stack_choice() -> usize {
    #[cfg(unix)]
    {
        let limit = rustix::process::getrlimit(rustix::process::Resource::As).current;
        if let Some(bytes) = limit.and_then(|b| usize::try_from(b).ok()) {
            return (bytes / 4).clamp(MIN_WORKER_STACK_BYTES, LARGE_STACK_BYTES);
        }
    }
    LARGE_STACK_BYTES
}

/// Runs `f` on a thread with the worker stack and returns its result.
///
/// The stack is sized for [`crate::lexer::MAX_NESTING`] levels of
/// recursion ([`LARGE_STACK_BYTES`]); when the address space does not
/// allow that (`ulimit -v`), a smaller one is used and the nesting limit
/// in effect is lowered to what it holds ([`crate::lexer::nesting_limit`]),
/// so deeper input is refused with a diagnostic that says why. When no
/// thread can be started at all, `f` runs on this thread with a limit for
/// its default stack. Never panics for want of a thread.
pub fn with_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    // Already at the top of a thread with such a stack: run here (once;
    // a nested call gets a thread of its own again).
    if FRESH_LARGE_STACK.with(|c| c.replace(false)) {
        struct Restore;
        impl Drop for Restore {
            fn drop(&mut self) {
                FRESH_LARGE_STACK.with(|c| c.set(true));
            }
        }
        let _restore = Restore;
        return f();
    }
    // The worker writes where the calling thread writes (an in-process
    // command's buffers, `crate::io::stdio`).
    let streams = crate::io::stdio::Redirect::current();
    let f = move || crate::io::stdio::Redirect::scope(streams, f);
    let job = std::sync::Mutex::new(Some(f));
    let take = || job.lock().ok().and_then(|mut f| f.take());
    let mut size = worker_stack_bytes();
    loop {
        // The limit must hold before the walks start.
        if size < LARGE_STACK_BYTES {
            crate::lexer::lower_nesting_limit(size);
        }
        let outcome = std::thread::scope(|s| {
            let spawned = std::thread::Builder::new()
                .name("pfir-worker".into())
                .stack_size(size)
                .spawn_scoped(s, || take().map(|f| f()));
            spawned.map(|handle| match handle.join() {
                Ok(v) => v,
                Err(panic) => std::panic::resume_unwind(panic),
            })
        });
        if let Ok(result) = outcome {
            WORKER_STACK.store(size, std::sync::atomic::Ordering::Relaxed);
            if let Some(v) = result {
                return v;
            }
        }
        if size <= MIN_WORKER_STACK_BYTES {
            break;
        }
        size /= 2;
    }
    // No thread at all: the calling thread, whose stack is 8 MiB or so
    // (the main thread's default); half of it for the walks.
    crate::lexer::lower_nesting_limit(4 << 20);
    match take() {
        Some(f) => f(),
        // A thread that started took the job and returned above.
        None => unreachable!("the job ran on a thread that returned"),
    }
}

thread_local! {
    static FRESH_LARGE_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, telling [`with_large_stack`] that this thread was spawned with
/// a [`worker_stack_bytes`] stack of which little is used, so it runs its
/// work here instead of on a new thread (the test runner's threads, which
/// run `pfir` commands in-process, `crate::testing::in_process`).
pub fn on_fresh_large_stack<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            FRESH_LARGE_STACK.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FRESH_LARGE_STACK.with(|c| c.replace(true)));
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_large_stack_runs_the_work_in_place_once() {
        let here = std::thread::current().id();
        let id = || std::thread::current().id();
        // Not marked: a thread of its own.
        assert_ne!(with_large_stack(id), here);
        on_fresh_large_stack(|| {
            // Marked: here; a nested call gets its own thread again.
            let (outer, inner) = with_large_stack(|| (id(), with_large_stack(id)));
            assert_eq!(outer, here);
            assert_ne!(inner, here);
            // The mark is back for the next command on this thread.
            assert_eq!(with_large_stack(id), here);
        });
        assert_ne!(with_large_stack(id), here);
    }
}
