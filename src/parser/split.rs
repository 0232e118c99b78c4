//! Parsing a large file on two threads.
//!
//! A file of [`MIN_SPLIT_BYTES`] or more is cut in two ([`plan`]): a
//! *chunk*, a run of whole statements of one block from about 3/10 of the
//! file on (or, between functions, a run of whole functions from about
//! the middle), and the rest. The calling thread reads the chunk while
//! another reads the rest ([`parse_around`]): the rest's token stream
//! ([`crate::lexer::tokens_around`]) holds one
//! [`crate::lexer::Tok::Spliced`] token where the chunk is, which the
//! grammar takes in `Stmts` or `Items`. A chunk of statements is read in
//! pieces of about [`PIECE_BYTES`] ([`stream_statements`]), each handed
//! over as soon as it is read: the rest holds one
//! [`ast::StmtKind::Streamed`] statement for them, and lowering lowers the
//! pieces in their place as they come, so that it overlaps the reading. A
//! chunk of functions is read whole ([`parse_functions`]) and the parser
//! of the rest waits for it (lowering needs every signature first).
//!
//! The result is the module that parsing the whole file in one go gives,
//! node for node, or nothing (only the node counts that size the IR are
//! estimated for a streamed chunk, see [`Scratch::count_like_so_far`]):
//!
//! - **The tokens are the file's.** The rest's lexer checks that a token
//!   starts exactly where the chunk starts, at the bracket depth the cut
//!   was planned for; the last statement (or function) of the chunk, and
//!   of each piece, must end exactly where it does, with its `}` (no other
//!   token ends with that character). No token can extend past a `}` that ends a token
//!   stream (a string or comment that did would not have ended with it), so
//!   both streams together are the file's stream.
//! - **The tree is the file's.** Each side (each piece) must parse without
//!   a syntax error, and the rest must take the spliced token in a list of
//!   statements (or of functions). Replacing the token by the chunk's
//!   derivation then gives a derivation of the file's tokens, and the
//!   grammar is LR(1), hence unambiguous: it is the one the whole-file
//!   parse builds.
//!
//! Whenever a check fails (a syntax error on either side, a chunk that is
//! not whole statements, a cut inside a comment or string), the split
//! parse gives `None` and the caller reads the file on one thread as
//! before, so diagnostics and recovery never depend on the split. [`plan`]
//! finds the cut with a byte scan that has to be right only to be useful,
//! never to be correct.

use super::ast::{self, Arena, Piece, Scratch, Spliced};
use super::grammar;
use crate::lexer::{self, Hole};
use crate::span::Span;

/// Files shorter than this are read by one thread: starting a second one
/// would cost more than it saves.
pub const MIN_SPLIT_BYTES: usize = 1 << 20;

/// The chunk that [`plan`] gives is at least this part of the file
/// (1/`MIN_CHUNK_PART`); a smaller one is not worth a thread.
const MIN_CHUNK_PART: usize = 8;

/// Where to cut `text` (a file, or a `// -----` chunk of one, starting at
/// byte `base`): the chunk, from a statement that starts at or after 3/10
/// of the text (a function at or after the middle, when the shallowest
/// start there is between functions) to the end of the last statement of
/// its block that ends with a `}`. `None` for a short text, or when no
/// such run is an eighth of the text. Why 3/10: the other thread parses
/// what comes before and then lowers everything; lowering costs about
/// two fifths of parsing, so both threads finish together near there.
pub fn plan(text: &str, base: usize) -> Option<Hole> {
    if text.len() < MIN_SPLIT_BYTES {
        return None;
    }
    let mut hole = plan_at(text, base, text.len() * 3 / 10)?;
    if hole.depth == 0 {
        hole = plan_at(text, base, text.len() / 2)?;
    }
    (hole.span.range().len() >= text.len() / MIN_CHUNK_PART).then_some(hole)
}

/// The cut whose chunk starts at the first statement (or function) that
/// starts at or after `target` (a byte offset of `text`) and that begins
/// after a statement ending with `}`, preferring the shallowest such start
/// within an eighth of the text after `target`. Any length; `None` when
/// there is no such statement.
pub fn plan_at(text: &str, base: usize, target: usize) -> Option<Hole> {
    let bytes = text.as_bytes();
    let window_end = target.saturating_add(text.len() / MIN_CHUNK_PART);
    let mut scan = Scan::new(bytes);
    // The best start so far: (its offset, the depth there).
    let mut best: Option<(usize, usize)> = None;
    while let Some(event) = scan.next_brace() {
        let Brace::Close(after) = event else {
            continue;
        };
        if after < target {
            continue;
        }
        if best.is_some() && after > window_end {
            break;
        }
        let depth = scan.depth;
        if best.is_some_and(|(_, d)| d <= depth) {
            continue;
        }
        if let Some(start) = statement_after(bytes, after) {
            best = Some((start, depth));
            if depth == 0 {
                break;
            }
        }
    }
    let (start, depth) = best?;
    let end = chunk_end(bytes, start, depth)?;
    Some(Hole {
        span: Span::new(base + start, base + end),
        depth,
    })
}

/// Where the statement after a `}` that ends at `after` starts: the next
/// token, unless there is none, it is the `}` that closes the block, or it
/// is `else` (the `}` ended the first branch of an `if`, not a statement).
fn statement_after(bytes: &[u8], after: usize) -> Option<usize> {
    let start = skip_trivia(bytes, after);
    let rest = bytes.get(start..).filter(|r| !r.is_empty())?;
    let is_else = rest.starts_with(b"else")
        && !rest
            .get(4)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_');
    (rest[0] != b'}' && !is_else).then_some(start)
}

/// From `start` (at bracket depth `depth`), the end of the last `}` that
/// brings the depth back to `depth` before the block closes (for depth 0,
/// before the end of the text); `None` when there is none.
fn chunk_end(bytes: &[u8], start: usize, depth: usize) -> Option<usize> {
    let mut scan = Scan::new(bytes);
    scan.at = start;
    scan.depth = depth;
    let mut end = None;
    while let Some(event) = scan.next_brace() {
        match event {
            Brace::Close(after) if scan.depth == depth => end = Some(after),
            Brace::Close(_) if scan.depth < depth || scan.underflow => break,
            _ => {}
        }
    }
    end
}

/// White space and `//` comments from `at` on: the offset after them.
fn skip_trivia(bytes: &[u8], mut at: usize) -> usize {
    loop {
        match bytes.get(at) {
            Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0c') => at += 1,
            Some(b'/') if bytes.get(at + 1) == Some(&b'/') => at = line_end(bytes, at),
            _ => return at,
        }
    }
}

/// The offset of the next `\n` at or after `at` (the end when there is none).
fn line_end(bytes: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i)
}

/// A brace found by [`Scan`]: an opening one, or a closing one with the
/// offset after it.
enum Brace {
    Open,
    Close(usize),
}

/// A fast byte scan for the braces of a text outside its `//` comments,
/// keeping the brace depth. String literals are not recognised (they are
/// rare, and only name hints): a brace or `//` in one misleads the scan,
/// which then plans a cut that the checks refuse or none at all, so the
/// file is read on one thread.
struct Scan<'b> {
    bytes: &'b [u8],
    at: usize,
    depth: usize,
    /// A `}` was found at depth 0.
    underflow: bool,
}

impl<'b> Scan<'b> {
    fn new(bytes: &'b [u8]) -> Self {
        Scan {
            bytes,
            at: 0,
            depth: 0,
            underflow: false,
        }
    }

    fn next_brace(&mut self) -> Option<Brace> {
        let bytes = self.bytes;
        while let Some(i) = memchr::memchr3(b'{', b'}', b'/', bytes.get(self.at..)?) {
            let at = self.at + i;
            self.at = at + 1;
            match bytes[at] {
                b'{' => {
                    self.depth += 1;
                    return Some(Brace::Open);
                }
                b'}' => {
                    self.underflow |= self.depth == 0;
                    self.depth = self.depth.saturating_sub(1);
                    return Some(Brace::Close(self.at));
                }
                _ if bytes.get(self.at) == Some(&b'/') => self.at = line_end(bytes, self.at),
                _ => {}
            }
        }
        self.at = bytes.len();
        None
    }
}

/// Reads the chunk of `text` (a file or `// -----` chunk starting at byte
/// `base`) that a `hole` at depth 0 covers, in `arena`: the functions it
/// holds, or `None` when it is not a run of whole functions without a
/// syntax error that ends with the `}` at the hole's end.
pub fn parse_functions<'i>(
    text: &'i str,
    base: usize,
    arena: &'i Arena,
    hole: Hole,
) -> Option<Spliced<'i>> {
    let (start, end) = (hole.span.start(), hole.span.end());
    let chunk = text.get(start.checked_sub(base)?..end.checked_sub(base)?)?;
    let tokens = lexer::tokens_at_depth(chunk, start, 0);
    let mut scratch = Scratch::default();
    let mut recovered = Vec::new();
    let module = grammar::ModuleParser::new()
        .parse(arena, &mut scratch, &mut recovered, tokens)
        .ok()?;
    // The last token must end where the chunk does: then it is the `}`
    // there (no other token ends with that character), not a comment.
    let last_end = module.functions.last().map(|f| f.span.end());
    (recovered.is_empty() && last_end == Some(end)).then_some(Spliced::Functions(module.functions))
}

/// Statements of a streamed chunk are read and handed over in pieces of
/// about this many bytes of source.
pub const PIECE_BYTES: usize = 1 << 16;

/// Reads the statements of the chunk of `text` (a file or `// -----` chunk
/// starting at byte `base`) that a `hole` at depth 1 or more covers, in
/// `arena`, handing them to `send` as they are read: a piece of whole
/// statements (parsed on its own) every [`PIECE_BYTES`] or so, then
/// [`Piece::Done`]; or [`Piece::Failed`] as soon as a piece does not parse
/// without a syntax error or does not end with the `}` it was cut at (the
/// pieces sent before it are then worthless).
pub fn stream_statements<'i>(
    text: &'i str,
    base: usize,
    arena: &'i Arena,
    hole: Hole,
    mut send: impl FnMut(Piece<'i>),
) {
    let last = match stream_pieces(text, base, arena, hole, &mut send) {
        Some(()) => Piece::Done,
        None => Piece::Failed,
    };
    send(last);
}

fn stream_pieces<'i>(
    text: &'i str,
    base: usize,
    arena: &'i Arena,
    hole: Hole,
    send: &mut impl FnMut(Piece<'i>),
) -> Option<()> {
    let (mut start, end) = (hole.span.start(), hole.span.end());
    let mut scratch = Scratch::default();
    let mut recovered = Vec::new();
    while start < end {
        let stop = piece_end(text.as_bytes(), start - base, end - base, hole.depth)? + base;
        let piece = text.get(start.checked_sub(base)?..stop.checked_sub(base)?)?;
        let tokens = lexer::tokens_at_depth(piece, start, hole.depth);
        let list = grammar::StmtsParser::new()
            .parse(arena, &mut scratch, &mut recovered, tokens)
            .ok()?;
        let stmts = scratch.finish(arena, list);
        // The last token must end where the piece does: then it is the `}`
        // there (no other token ends with that character), not a comment.
        if !recovered.is_empty() || stmts.last().map(|s| s.span().end()) != Some(stop) {
            return None;
        }
        send(Piece::Stmts(stmts));
        start = stop;
    }
    Some(())
}

/// Where the piece of a chunk that starts at `start` (offsets into
/// `bytes`, at brace depth `depth`) ends: at the first statement end (a
/// `}` back at `depth`, not followed by `else`) [`PIECE_BYTES`] or more
/// after `start`, or at the chunk's `end`.
fn piece_end(bytes: &[u8], start: usize, end: usize, depth: usize) -> Option<usize> {
    let mut scan = Scan::new(bytes);
    scan.at = start;
    scan.depth = depth;
    while let Some(event) = scan.next_brace() {
        let Brace::Close(after) = event else {
            continue;
        };
        if after >= end || scan.depth < depth {
            break;
        }
        if scan.depth == depth
            && after >= start + PIECE_BYTES
            && statement_after(bytes, after).is_some()
        {
            return Some(after);
        }
    }
    (start < end).then_some(end)
}

/// Reads `text` (a file or `// -----` chunk starting at byte `base`) but
/// for the part `hole` covers, in `arena`; what the hole holds comes from
/// `chunk`, called once when the parser reaches it (so it may wait for the
/// thread running [`parse_functions`]; for a streamed run it gives the
/// [`ast::Streamed`] at once). `None` when the text has a syntax
/// error, the hole is not where a run of statements (or functions) can
/// stand, or `chunk` gives nothing.
pub fn parse_around<'i>(
    text: &'i str,
    base: usize,
    arena: &'i Arena,
    hole: Hole,
    chunk: impl FnOnce() -> Option<Spliced<'i>> + 'i,
) -> Option<ast::Module<'i>> {
    let mut scratch = Scratch::default();
    scratch.splice_from(chunk);
    let mut recovered = Vec::new();
    let mut module = grammar::ModuleParser::new()
        .parse(
            arena,
            &mut scratch,
            &mut recovered,
            lexer::tokens_around(text, base, hole),
        )
        .ok()?;
    // The chunk must have been taken: a hole past the last token would
    // otherwise leave it out.
    if !recovered.is_empty() || scratch.splice_pending() {
        return None;
    }
    module.source = ast::Source { text, base };
    Some(module)
}
