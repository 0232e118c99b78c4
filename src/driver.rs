//! The driver: source text to IR, through the pass pipeline, back to text.
//!
//! [`read_module`] is the front end in one call (lex, parse, lower, verify).
//! [`run_opt`] is what `pfir opt` does for a whole file, including
//! `--split-input-file`. Deep inputs recurse deeply, so callers run these on
//! a thread with a large stack ([`with_large_stack`]).

use crate::diagnostics::{Diagnostic, SourceFile, has_errors};
use crate::ir::Module;

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

/// Parses and lowers `text` (which starts at byte `base` of its file).
/// Returns the module when there were no errors, and all diagnostics.
pub fn read_module(text: &str, base: usize) -> (Option<Module>, Vec<Diagnostic>) {
    let (module, diags) = read_module_anyway(text, base);
    if has_errors(&diags) {
        (None, diags)
    } else {
        (Some(module), diags)
    }
}

/// [`read_module`], returning the module even when there are errors (for
/// tools that index a file being edited); it is only meaningful where no
/// error points.
///
/// Functions are lowered even when another has a syntax error, so that
/// their semantic errors are reported too; a function with a syntax error
/// is reported for its syntax only (its semantic errors may be caused by
/// the parser's repair).
pub fn read_module_anyway(text: &str, base: usize) -> (Module, Vec<Diagnostic>) {
    let (module, diags, _) = read_module_whole(text, base);
    (module, diags)
}

/// [`read_module_anyway`], also saying whether the text has a syntax
/// error. Without one, the module holds everything that was written, also
/// where there are semantic errors (unknown names and callees, wrong
/// argument counts: lowering keeps them as nodes of their own), so it
/// prints back what was written; that is what `pfir fmt` formats.
pub fn read_module_whole(text: &str, base: usize) -> (Module, Vec<Diagnostic>, bool) {
    if let Some(hole) = crate::parser::split::plan(text, base)
        && let Some((module, diags)) = read_module_split(text, base, hole)
    {
        // The split read only succeeds on text without syntax errors.
        return (module, diags, false);
    }
    read_on_one_thread(text, base)
}

/// [`read_module_anyway`] with the text cut at `hole` and read on two
/// threads (`crate::parser::split`): this thread reads the chunk while a
/// second one parses the rest and lowers the module. A chunk of statements
/// (a hole at depth 1 or more) is handed over in pieces and lowered as they
/// come, so that lowering overlaps the reading; a chunk of functions (depth
/// 0) is handed over whole, when the parser reaches it. `None` when the
/// split read does not apply (a syntax error, or a cut the checks refuse):
/// the caller reads the text on one thread, which reports the errors. The
/// module and diagnostics are exactly those of
/// [`read_module_on_one_thread`].
pub fn read_module_split(
    text: &str,
    base: usize,
    hole: crate::lexer::Hole,
) -> Option<(Module, Vec<Diagnostic>)> {
    use crate::parser::ast::{self, Spliced, Streamed};
    use crate::parser::split;
    let chunk_len = hole.span.range().len().min(text.len());
    let chunk_arena = ast::arena_for(chunk_len);
    let rest_len = text.len() - chunk_len;
    let read = std::thread::scope(|s| {
        let rest = if hole.depth == 0 {
            let (send, receive) = std::sync::mpsc::sync_channel(1);
            let rest = spawn_parser(s, move || {
                let arena = ast::arena_for(rest_len);
                let functions = move || receive.recv().ok().flatten();
                let read = split::parse_around(text, base, &arena, hole, functions)
                    .map(crate::lower::lower);
                drop_in_background(arena);
                read
            })?;
            // The other thread may have given up already: then nobody receives.
            let _ = send.send(split::parse_functions(text, base, &chunk_arena, hole));
            rest
        } else {
            let (send, receive) = std::sync::mpsc::channel();
            let rest = spawn_parser(s, move || {
                let pieces = Pieces {
                    receive: std::sync::Mutex::new(receive),
                    done: std::sync::atomic::AtomicBool::new(false),
                };
                let arena = ast::arena_for(rest_len);
                let run: &Streamed<'_> = arena.alloc(Streamed {
                    source: &pieces,
                    span: hole.span,
                });
                let statements = move || Some(Spliced::Streamed(run));
                let read = split::parse_around(text, base, &arena, hole, statements)
                    .map(crate::lower::lower)
                    .filter(|_| pieces.done.load(std::sync::atomic::Ordering::Relaxed));
                drop_in_background(arena);
                read
            })?;
            split::stream_statements(text, base, &chunk_arena, hole, |piece| {
                // The other thread may have given up already.
                let _ = send.send(piece);
            });
            rest
        };
        match rest.join() {
            Ok(read) => read,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    drop_in_background(chunk_arena);
    read
}

/// Starts the thread of [`read_module_split`] that parses the rest and
/// lowers, with the stack every walk needs; `None` when it cannot start.
fn spawn_parser<'scope, T: Send + 'scope>(
    s: &'scope std::thread::Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> Option<std::thread::ScopedJoinHandle<'scope, T>> {
    std::thread::Builder::new()
        .name("pfir-parse".into())
        .stack_size(worker_stack_bytes())
        .spawn_scoped(s, f)
        .ok()
}

/// The pieces of a streamed chunk as lowering takes them: lowering has
/// them all only when the last one says the run is done.
struct Pieces<'m> {
    receive: std::sync::Mutex<std::sync::mpsc::Receiver<crate::parser::ast::Piece<'m>>>,
    done: std::sync::atomic::AtomicBool,
}

impl crate::parser::ast::PieceSource for Pieces<'_> {
    fn next_piece(&self) -> crate::parser::ast::Piece<'_> {
        use crate::parser::ast::Piece;
        let piece = match self.receive.lock() {
            Ok(receive) => receive.recv().unwrap_or(Piece::Failed),
            Err(_) => Piece::Failed,
        };
        self.done.store(
            matches!(piece, Piece::Done),
            std::sync::atomic::Ordering::Relaxed,
        );
        piece
    }
}

/// Drops `value` on a thread of its own: returning the memory of a large
/// file's arenas or module to the system takes tens of milliseconds that
/// the caller need not wait for. When no thread can be started, `spawn`
/// drops the closure, and `value` with it, here.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("pfir-free".into())
        .spawn(move || drop(value));
}

/// [`read_module_anyway`] on the calling thread alone.
pub fn read_module_on_one_thread(text: &str, base: usize) -> (Module, Vec<Diagnostic>) {
    let (module, diags, _) = read_on_one_thread(text, base);
    (module, diags)
}

/// [`read_module_on_one_thread`], also saying whether the text has a
/// syntax error.
fn read_on_one_thread(text: &str, base: usize) -> (Module, Vec<Diagnostic>, bool) {
    let arena = crate::parser::ast::arena_for(text.len());
    let parsed = crate::parser::parse(text, base, &arena);
    let syntax_error = has_errors(&parsed.diagnostics);
    let mut diags = parsed.diagnostics;
    let broken = parsed.broken;
    let lost = parsed.lost_functions;
    let (module, lower_diags) = crate::lower::lower(parsed.module);
    let in_broken = |d: &Diagnostic| {
        let at = d.primary.span.start();
        broken.iter().any(|r| r.start() <= at && at < r.end())
    };
    // A call of a function whose header could not be read (or of any
    // function, when a lost header's name could not be read either).
    let names_lost = |d: &Diagnostic| {
        let range =
            d.primary.span.start().saturating_sub(base)..d.primary.span.end().saturating_sub(base);
        d.code == Some(crate::diagnostics::Code::UnknownFunction)
            && d.message.starts_with("unknown function")
            && (lost.contains(&None)
                || text
                    .get(range)
                    .is_some_and(|name| lost.contains(&Some(name))))
    };
    diags.extend(
        lower_diags
            .into_iter()
            .filter(|d| !in_broken(d) && !names_lost(d)),
    );
    (module, diags, syntax_error)
}

/// Parses, lowers and prints `text` (no passes): the canonical form.
pub fn canonicalize(text: &str) -> Result<String, Vec<Diagnostic>> {
    match read_module(text, 0) {
        (Some(m), _) => Ok(crate::printer::print_module(&m)),
        (None, diags) => Err(diags),
    }
}

/// The line that separates chunks under `--split-input-file`.
pub const SPLIT_MARKER: &str = "// -----";

/// Splits `text` at lines that are exactly `// -----` (trailing spaces
/// allowed; lines end at `\n`, `\r\n` or a lone `\r`, `fsutil::lines`). Returns `(offset, chunk)` pairs; the marker lines belong to no chunk.
pub fn split_chunks(text: &str) -> Vec<(usize, &str)> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in fsutil::lines::lines_inclusive(text) {
        let line_end = offset + line.len();
        if line.trim_end() == SPLIT_MARKER {
            chunks.push((start, &text[start..offset]));
            start = line_end;
        }
        offset = line_end;
    }
    chunks.push((start, &text[start..]));
    chunks
}

/// What `pfir opt` produced for one file.
#[derive(Debug, Default)]
pub struct OptOutcome {
    /// The module of every chunk that was read and transformed without
    /// error, in order: what is printed.
    pub modules: Vec<Module>,
    pub diagnostics: Vec<Diagnostic>,
    /// Other reports for stderr (IR dumps, timing, statistics).
    pub stderr: String,
    /// Print the comments the modules carry (`--keep-comments`).
    pub keep_comments: bool,
}

impl OptOutcome {
    /// Prints the modules into `out` as they render, chunks joined by
    /// `// -----` lines.
    pub fn write_output<W: std::io::Write>(&self, mut out: W) -> std::io::Result<()> {
        if self.keep_comments {
            let text = crate::format::print_modules_keeping_comments(&self.modules);
            out.write_all(text.as_bytes())?;
            return out.flush();
        }
        for (i, m) in self.modules.iter().enumerate() {
            if i > 0 {
                writeln!(out, "{SPLIT_MARKER}")?;
            }
            crate::printer::write_module(m, &mut out)?;
        }
        out.flush()
    }

    /// The printed output as a string.
    pub fn output(&self) -> String {
        let mut bytes = Vec::new();
        let _ = self.write_output(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// What [`run_opt`] does, as plain data: the command line (`cli::opt`)
/// fills it in, and the driver knows nothing of how it was parsed.
#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    /// Treat each `// -----` separated chunk as its own input.
    pub split_input_file: bool,
    /// Read the comments and print them with the output (`--keep-comments`).
    pub keep_comments: bool,
    /// The passes and pass flags.
    pub pipeline: crate::passes::PipelineOptions,
}

/// Everything `pfir opt` does after reading the file.
pub fn run_opt(file: &SourceFile, args: &OptOptions) -> OptOutcome {
    let chunks = if args.split_input_file {
        split_chunks(&file.text)
    } else {
        vec![(0, file.text.as_str())]
    };
    let mut outcome = OptOutcome {
        keep_comments: args.keep_comments,
        ..OptOutcome::default()
    };
    let lines = args
        .keep_comments
        .then(|| crate::format::attach::LineIndex::new(&file.text));
    for (base, chunk) in chunks {
        let (module, diags) = match &lines {
            Some(lines) => crate::format::read_with_comments(&file.text, lines, base, chunk),
            None => read_module(chunk, base),
        };
        outcome.diagnostics.extend(diags);
        let Some(mut module) = module else { continue };
        let result = crate::passes::run_pipeline(&mut module, file, &args.pipeline);
        let failed = has_errors(&result.diagnostics);
        outcome.diagnostics.extend(result.diagnostics);
        outcome.stderr.push_str(&result.stderr);
        if !failed {
            outcome.modules.push(module);
        }
    }
    // Nothing is printed when the output would pass its bound.
    if let Err(d) = crate::printer::check_output_size(&outcome.modules) {
        outcome.diagnostics.push(d);
        outcome.modules.clear();
    }
    outcome
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

    #[test]
    fn every_line_break_ends_a_split_marker_line() {
        // `\n`, `\r\n` and a lone `\r` each end the marker line; the chunk
        // after it starts right past the line break.
        for br in ["\n", "\r\n", "\r"] {
            let text = format!("func a() {{}}{br}// -----  {br}func b() {{}}{br}");
            let chunks = split_chunks(&text);
            assert_eq!(chunks.len(), 2, "{br:?}");
            assert_eq!(chunks[0], (0, &*format!("func a() {{}}{br}")));
            let b = text.find("func b").unwrap();
            assert_eq!(chunks[1], (b, &*format!("func b() {{}}{br}")));
        }
        // A marker that is not alone on its line splits nothing.
        assert_eq!(split_chunks("// ----- x\rfunc a() {}\r").len(), 1);
        assert_eq!(split_chunks("func a() {} // -----\r").len(), 1);
    }
}
