//! The front end in one call (lex, parse, lower, verify: [`read_module`]
//! and its variants), the `// -----` chunks of `--split-input-file`
//! ([`split_chunks`]). Deep input recurses deeply: callers run these on
//! the worker stack ([`crate::stack::with_large_stack`]). Below the driver
//! and the formatter, which both read modules through it.

use crate::diagnostics::{Diagnostic, has_errors};
use crate::ir::Module;
use crate::stack::worker_stack_bytes;

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
    read_module_whole_meanwhile(text, base, || ()).0
}

/// [`read_module_whole`], also running `meanwhile` once on this thread, at
/// the time it would wait: once its share of a split read is done, while
/// the other thread still lowers (the longer part); after the read when it
/// is read on one thread.
pub fn read_module_whole_meanwhile<T>(
    text: &str,
    base: usize,
    mut meanwhile: impl FnMut() -> T,
) -> ((Module, Vec<Diagnostic>, bool), T) {
    let mut done = None;
    let read = crate::parser::split::plan(text, base).and_then(|hole| {
        read_module_split_meanwhile(text, base, hole, &mut || done = Some(meanwhile()))
    });
    let read = match read {
        // The split read only succeeds on text without syntax errors.
        Some((module, diags)) => (module, diags, false),
        None => read_on_one_thread(text, base),
    };
    let done = match done {
        Some(done) => done,
        None => meanwhile(),
    };
    (read, done)
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
    read_module_split_meanwhile(text, base, hole, &mut || ())
}

/// [`read_module_split`], calling `meanwhile` on this thread once it has
/// handed its chunk over, before it waits for the other thread.
fn read_module_split_meanwhile(
    text: &str,
    base: usize,
    hole: crate::lexer::Hole,
    meanwhile: &mut dyn FnMut(),
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
        meanwhile();
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

/// The line that separates chunks under `--split-input-file`.
pub use crate::split_input::SPLIT_MARKER;

/// Splits `text` at lines that are exactly `// -----` (trailing spaces
/// allowed; lines end at `\n`, `\r\n` or a lone `\r`, `fsutil::lines`).
/// Returns `(offset, chunk)` pairs; the marker lines belong to no chunk.
pub fn split_chunks(text: &str) -> Vec<(usize, &str)> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in fsutil::lines::lines_inclusive(text) {
        let line_end = offset + line.len();
        if crate::split_input::is_split_marker(line) {
            chunks.push((start, &text[start..offset]));
            start = line_end;
        }
        offset = line_end;
    }
    chunks.push((start, &text[start..]));
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

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
