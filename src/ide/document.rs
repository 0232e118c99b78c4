//! One document version: its `// -----` chunks, each read once by pfir's
//! front end, and the tables every query reads.
//!
//! A chunk is parsed with its offset in the document as base, so every span
//! is already a document offset. Lowering runs even when the parser
//! recovered from errors (its IR is consistent whatever the diagnostics);
//! the pass only runs on a chunk with no error at all, as in `pfir opt`.
//! The whole build runs on the caller's thread (deep input grows the stack
//! where it recurses, `crate::stack`); if it fails the document is treated
//! as empty rather than letting the failure reach the caller.

use crate::diagnostics::{Diagnostic, has_errors};
use crate::ide::decisions::{self, Decisions};
use crate::ide::directives;
use crate::ide::index::{self, ChunkIndex};
use crate::ir::Module;
use crate::lexer::Tok;
use crate::split_input::split_chunks;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

/// What a token is, for colouring, folding and completion.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LexClass {
    Ident,
    OpName,
    Number,
    String,
    /// A keyword other than a type name (`func`, `for`, `true`, ...).
    Keyword,
    /// A type name: a scalar type, `array`, `tensor`.
    Type,
    /// `+ - * / % == != < <= > >= = ->`.
    Operator,
    Open(u8),
    Close(u8),
    /// `, : .`
    Punct,
    Error,
}

/// One token of a chunk, in 12 bytes (a document holds one per token:
/// offsets as `u32`s, which every accepted source fits; a keyword's text is
/// the document's text at its range).
#[derive(Clone, Debug)]
pub struct LexToken {
    start: u32,
    end: u32,
    pub class: LexClass,
}

impl LexToken {
    /// The token's byte range in the document.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The text of a keyword (`""` for other tokens), from the
    /// document's `text`.
    pub fn keyword<'t>(&self, text: &'t str) -> &'t str {
        match self.class {
            LexClass::Keyword => text.get(self.range()).unwrap_or(""),
            _ => "",
        }
    }
}

#[derive(Debug)]
pub struct Chunk {
    /// The chunk's text in the document (marker lines excluded).
    pub range: Range<usize>,
    /// The document's text (shared, not a copy).
    text: Arc<str>,
    /// The lexer's tokens, read the first time they are asked for (the
    /// diagnostics need none).
    tokens: OnceLock<Vec<LexToken>>,
    /// Every `// ...` comment, from `//` to the end of its line.
    pub comments: Vec<Range<usize>>,
    pub index: ChunkIndex,
    /// What `pfir opt`'s front end (`crate::frontend::read_module`) reports
    /// for this chunk (the module is kept for the index even when there
    /// are errors: `ReadOptions::keep_on_error`).
    pub front_end: Vec<Diagnostic>,
    /// Whether the front end reported an error in this chunk.
    pub has_errors: bool,
    /// The IR, kept (when there is no error) until the pass takes it.
    module: Mutex<Option<Module>>,
    decisions: OnceLock<Decisions>,
}

impl Chunk {
    /// The chunk's tokens in order (lexed on first use, up to a token the
    /// lexer refuses).
    pub fn tokens(&self) -> &[LexToken] {
        self.tokens.get_or_init(|| {
            let chunk = self.text.get(self.range.clone()).unwrap_or("");
            crate::lexer::tokens(chunk, self.range.start)
                .map_while(Result::ok)
                .map(|(start, tok, end)| classify(start..end, &tok))
                .collect()
        })
    }

    /// The pass's decisions, computed the first time they are asked for.
    pub fn decisions(&self) -> &Decisions {
        self.decisions.get_or_init(|| {
            if self.has_errors {
                return Decisions::not_run(
                    "this chunk has errors; fix them to see the pass's decisions",
                );
            }
            let module = self.module.lock().ok().and_then(|mut m| m.take());
            match module {
                Some(mut m) => or_failed(
                    || decisions::run(&mut m, &self.index.loops),
                    || Decisions::not_run("the pass failed"),
                ),
                None => Decisions::not_run("the pass failed"),
            }
        })
    }
}

/// Runs `f` on this thread; `failed` if it panics (a bug must not take
/// the editor's session down with it).
fn or_failed<T>(f: impl FnOnce() -> T, failed: impl FnOnce() -> T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| failed())
}

#[derive(Debug)]
pub struct Document {
    /// The text, shared with whoever holds the document (the language
    /// server's copy is this one).
    pub text: Arc<str>,
    pub chunks: Vec<Chunk>,
    /// The `// -----` lines (without their newline).
    pub markers: Vec<Range<usize>>,
    /// The FileCheck prefixes of the RUN lines (`CHECK` and any
    /// `--check-prefix(es)=`).
    pub check_prefixes: Vec<String>,
}

impl Document {
    pub fn build(text: impl Into<Arc<str>>) -> Document {
        let text = text.into();
        if text.len() > crate::span::MAX_SOURCE_BYTES {
            return Document::empty(text);
        }
        or_failed(
            || build_here(text.clone()),
            || Document::empty(text.clone()),
        )
    }

    fn empty(text: Arc<str>) -> Document {
        Document {
            text,
            chunks: Vec::new(),
            markers: Vec::new(),
            check_prefixes: vec!["CHECK".into()],
        }
    }

    /// The chunk whose text contains `offset` (its end included).
    pub fn chunk_at(&self, offset: usize) -> Option<&Chunk> {
        if !self.text.is_char_boundary(offset) {
            return None;
        }
        let i = self.chunks.partition_point(|c| c.range.start <= offset);
        let c = self.chunks.get(i.checked_sub(1)?)?;
        (offset <= c.range.end).then_some(c)
    }

    /// The comment containing `offset` (its end included), if any.
    pub fn comment_at(&self, offset: usize) -> Option<Range<usize>> {
        let chunk = self.chunk_at(offset)?;
        let i = chunk.comments.partition_point(|c| c.start <= offset);
        let c = chunk.comments.get(i.checked_sub(1)?)?;
        (offset <= c.end && offset > c.start).then(|| c.clone())
    }

    /// The start of the line holding `offset`.
    pub fn line_start(&self, offset: usize) -> usize {
        fsutil::lines::line_start_of(&self.text, offset)
    }
}

fn build_here(text: Arc<str>) -> Document {
    let mut markers = Vec::new();
    let mut offset = 0;
    for line in fsutil::lines::lines_inclusive(&text) {
        if crate::split_input::is_split_marker(line) {
            let content = line.trim_end_matches(['\n', '\r']);
            markers.push(offset..offset + content.len());
        }
        offset += line.len();
    }
    let chunks = split_chunks(&text)
        .into_iter()
        .map(|(base, chunk)| build_chunk(&text, base, chunk))
        .collect();
    Document {
        check_prefixes: directives::check_prefixes(&text),
        text,
        chunks,
        markers,
    }
}

fn build_chunk(text: &Arc<str>, base: usize, chunk: &str) -> Chunk {
    let comments = crate::lexer::comments(chunk, base)
        .into_iter()
        .map(|s| s.range())
        .collect();
    let options = crate::frontend::ReadOptions::at(base).keeping_on_error();
    let read = crate::frontend::read_module(chunk, options);
    let (module, front_end) = (read.module.unwrap_or_default(), read.diagnostics);
    let has_errors = has_errors(&front_end);
    let index = index::build(text, &module);
    Chunk {
        range: base..base + chunk.len(),
        text: text.clone(),
        tokens: OnceLock::new(),
        comments,
        index,
        front_end,
        has_errors,
        module: Mutex::new((!has_errors).then_some(module)),
        decisions: OnceLock::new(),
    }
}

/// An offset as a `u32` (the document is at most
/// [`crate::span::MAX_SOURCE_BYTES`] long, so every offset fits).
fn narrow(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

fn classify(range: Range<usize>, tok: &Tok<'_>) -> LexToken {
    let class = match tok {
        Tok::Ident(_) | Tok::Underscore => LexClass::Ident,
        Tok::OpName(_) => LexClass::OpName,
        Tok::Int(_) | Tok::Float(_) => LexClass::Number,
        Tok::Str(_) | Tok::BadEscapeStr(_) | Tok::UnterminatedStr => LexClass::String,
        Tok::Scalar(_) | Tok::Array | Tok::Tensor => LexClass::Type,
        Tok::LParen => LexClass::Open(b'('),
        Tok::LBracket => LexClass::Open(b'['),
        Tok::LBrace => LexClass::Open(b'{'),
        Tok::RParen => LexClass::Close(b')'),
        Tok::RBracket => LexClass::Close(b']'),
        Tok::RBrace => LexClass::Close(b'}'),
        Tok::Comma | Tok::Colon | Tok::Dot => LexClass::Punct,
        Tok::Lt
        | Tok::Gt
        | Tok::Assign
        | Tok::Arrow
        | Tok::Plus
        | Tok::Minus
        | Tok::Star
        | Tok::Slash
        | Tok::Percent
        | Tok::EqEq
        | Tok::NotEq
        | Tok::Le
        | Tok::Ge => LexClass::Operator,
        Tok::Error(_) => LexClass::Error,
        _ => LexClass::Keyword,
    };
    LexToken {
        start: narrow(range.start),
        end: narrow(range.end),
        class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document holds one of these per token: keep them small.
    #[test]
    fn a_token_is_12_bytes_and_lexed_on_first_use() {
        assert_eq!(std::mem::size_of::<LexToken>(), 12);
        let doc = Document::build("func k() {\n}\n");
        let chunk = &doc.chunks[0];
        assert!(
            chunk.tokens.get().is_none(),
            "not lexed before it is asked for"
        );
        let keywords: Vec<&str> = chunk
            .tokens()
            .iter()
            .map(|t| t.keyword(&doc.text))
            .collect();
        assert_eq!(keywords, ["func", "", "", "", "", ""]);
        assert_eq!(chunk.tokens()[1].range(), 5..6);
    }

    /// The analysis keeps the text it is given, not a copy of it.
    #[test]
    fn the_text_is_shared() {
        let text: Arc<str> = "func k() {\n}\n".into();
        let analysis = crate::ide::Analysis::shared(text.clone());
        assert!(Arc::ptr_eq(&analysis.doc.text, &text));
        assert!(Arc::ptr_eq(&analysis.doc.chunks[0].text, &text));
    }
}
