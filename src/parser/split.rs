//! Parsing a large file on two threads.
//!
//! A file of [`MIN_SPLIT_BYTES`] or more is cut in two ([`plan`]): a
//! *chunk*, a run of whole statements of one block (or of whole functions)
//! from about the middle of the file, and the rest. One thread reads the
//! chunk ([`parse_chunk`]) while another reads the rest ([`parse_around`]):
//! the rest's token stream ([`crate::lexer::tokens_around`]) holds one
//! [`Tok::Spliced`] token where the chunk is, and when the grammar reduces
//! it (`Stmts` or `Items`), it takes the chunk's statements or functions,
//! waiting for the other thread if it has not finished.
//!
//! The result is the module that parsing the whole file in one go gives,
//! node for node and count for count, or nothing:
//!
//! - **The tokens are the file's.** The rest's lexer checks that a token
//!   starts exactly where the chunk starts, at the bracket depth the cut
//!   was planned for; the chunk's lexer, started there, checks that its
//!   last token is the `}` that ends the chunk. No token can extend past a
//!   `}` that ends a token stream (a string or comment that did would not
//!   have ended with it), so both streams together are the file's stream.
//! - **The tree is the file's.** Each side must parse without a syntax
//!   error, and the rest must take the spliced token in a list of
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

use super::ast::{self, Arena, Scratch, Spliced};
use super::grammar;
use crate::lexer::{self, Hole, Tok};
use crate::span::Span;

/// Files shorter than this are read by one thread: starting a second one
/// would cost more than it saves.
pub const MIN_SPLIT_BYTES: usize = 1 << 20;

/// The chunk that [`plan`] gives is at least this part of the file
/// (1/`MIN_CHUNK_PART`); a smaller one is not worth a thread.
const MIN_CHUNK_PART: usize = 8;

/// Where to cut `text` (a file, or a `// -----` chunk of one, starting at
/// byte `base`): the chunk for the second thread, from a statement (or
/// function) that starts at or after the middle of the text to the end of
/// the last statement of its block that ends with a `}`. `None` for a
/// short text, or when no such run is large enough.
pub fn plan(text: &str, base: usize) -> Option<Hole> {
    if text.len() < MIN_SPLIT_BYTES {
        return None;
    }
    let hole = plan_at(text, base, text.len() / 2)?;
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
            Some(b'/') if bytes.get(at + 1) == Some(&b'/') => {
                at = memchr_newline(bytes, at);
            }
            _ => return at,
        }
    }
}

/// The offset of the next `\n` at or after `at` (the end when there is none).
fn memchr_newline(bytes: &[u8], at: usize) -> usize {
    bytes[at..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(bytes.len(), |i| at + i)
}

/// A brace found by [`Scan`]: an opening one, or a closing one with the
/// offset after it.
enum Brace {
    Open,
    Close(usize),
}

/// A byte scan for the braces of a text outside its `//` comments and
/// string literals, keeping the brace depth.
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
        while let Some(&c) = bytes.get(self.at) {
            self.at += 1;
            match c {
                b'{' => {
                    self.depth += 1;
                    return Some(Brace::Open);
                }
                b'}' => {
                    self.underflow |= self.depth == 0;
                    self.depth = self.depth.saturating_sub(1);
                    return Some(Brace::Close(self.at));
                }
                b'/' if bytes.get(self.at) == Some(&b'/') => {
                    self.at = memchr_newline(bytes, self.at);
                }
                b'"' => {
                    // To the closing quote; `\"` and `\\` do not close it.
                    while let Some(&s) = bytes.get(self.at) {
                        self.at += 1;
                        match s {
                            b'"' => break,
                            b'\\' => self.at += 1,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// Reads the chunk of `text` (a file or `// -----` chunk starting at byte
/// `base`) that `hole` covers, in `arena`: the statements it holds (for a
/// hole at depth 0, the functions), or `None` when it is not a run of whole
/// statements (or functions) without a syntax error that ends with the `}`
/// at the hole's end.
pub fn parse_chunk<'i>(
    text: &'i str,
    base: usize,
    arena: &'i Arena,
    hole: Hole,
) -> Option<Spliced<'i>> {
    let (start, end) = (hole.span.start(), hole.span.end());
    let chunk = text.get(start.checked_sub(base)?..end.checked_sub(base)?)?;
    let mut last = None;
    let tokens = lexer::tokens_at_depth(chunk, start, hole.depth).inspect(|t| {
        if let Ok((_, tok, r)) = t {
            last = Some((matches!(tok, Tok::RBrace), *r));
        }
    });
    let mut scratch = Scratch::default();
    let mut recovered = Vec::new();
    let spliced = if hole.depth == 0 {
        let module = grammar::ModuleParser::new()
            .parse(arena, &mut scratch, &mut recovered, tokens)
            .ok()?;
        Spliced::Functions(module.functions)
    } else {
        let list = grammar::StmtsParser::new()
            .parse(arena, &mut scratch, &mut recovered, tokens)
            .ok()?;
        Spliced::Stmts {
            stmts: scratch.finish(arena, list),
            counts: scratch.counted(),
        }
    };
    (recovered.is_empty() && last == Some((true, end))).then_some(spliced)
}

/// Reads `text` (a file or `// -----` chunk starting at byte `base`) but
/// for the part `hole` covers, in `arena`; what the hole holds comes from
/// `chunk`, called once when the parser reaches it (so it may wait for the
/// thread running [`parse_chunk`]). `None` when the text has a syntax
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
