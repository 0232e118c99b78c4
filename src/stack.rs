//! The project's one stack strategy: every function that recurses once
//! per nesting level of the input (lowering, the printer's and the
//! formatter's expressions, the verifier, the evaluator) calls [`ensure`]
//! where it recurses, which grows the stack onto the heap when little of it
//! is left (`stacker::maybe_grow`, as rustc's `ensure_sufficient_stack`).
//! The other walks iterate with explicit heap stacks (`ir::walk`). So the
//! work runs on the calling thread, whatever its stack, up to
//! [`crate::lexer::MAX_NESTING`] levels.

/// The stack left below which [`ensure`] moves onto a new piece: more than
/// any work between two [`ensure`] calls takes (a level of the deepest
/// recursion, or the leaf work under it, in a debug build).
pub const RED_ZONE_BYTES: usize = 256 << 10;

/// The size of each new piece of stack [`ensure`] allocates.
pub const NEW_STACK_BYTES: usize = 4 << 20;

/// Runs `f`, first moving onto a new piece of stack allocated on the heap
/// when less than [`RED_ZONE_BYTES`] of this one is left.
#[inline]
pub fn ensure<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE_BYTES, NEW_STACK_BYTES, f)
}

#[cfg(test)]
mod tests {
    /// Recursion far deeper than a 256 KiB thread holds runs to the end
    /// when each level goes through `ensure`.
    #[test]
    fn ensure_lets_recursion_outgrow_a_small_thread_stack() {
        fn down(n: u64) -> u64 {
            // A frame that takes room, as a debug build's frames do.
            let pad = std::hint::black_box([n; 64]);
            if n == 0 {
                return 0;
            }
            super::ensure(|| down(n - 1) + pad[7] / n.max(1))
        }
        let depth = 100_000;
        let thread = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || down(depth))
            .expect("a thread");
        assert_eq!(thread.join().expect("no overflow"), depth);
    }
}
