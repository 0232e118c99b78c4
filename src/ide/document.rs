//! One document version: its `// -----` chunks, each read once by pfir's
//! front end, and the tables every query reads.
//!
//! A chunk is parsed with its offset in the document as base, so every span
//! is already a document offset. Lowering runs even when the parser
//! recovered from errors (its IR is consistent whatever the diagnostics);
//! the pass only runs on a chunk with no error at all, as in `pfir opt`.
//! The whole build runs on a thread with pfir's large stack (deep inputs
//! recurse in the parser's actions and in lowering); if that thread cannot
//! be started it runs on the caller's, and if it fails the document is
//! treated as empty rather than letting the failure reach the caller.

use crate::diagnostics::{Diagnostic, has_errors};
use crate::driver::split_chunks;
use crate::ide::decisions::{self, Decisions};
use crate::ide::directives;
use crate::ide::index::{self, ChunkIndex};
use crate::ir::Module;
use crate::lexer::Tok;
use std::ops::Range;
use std::sync::{Mutex, OnceLock};

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

#[derive(Clone, Debug)]
pub struct LexToken {
    pub range: Range<usize>,
    pub class: LexClass,
    /// The fixed text of a keyword (`""` for other tokens).
    pub keyword: &'static str,
}

#[derive(Debug)]
pub struct Chunk {
    /// The chunk's text in the document (marker lines excluded).
    pub range: Range<usize>,
    pub tokens: Vec<LexToken>,
    /// Every `// ...` comment, from `//` to the end of its line.
    pub comments: Vec<Range<usize>>,
    pub index: ChunkIndex,
    /// What `pfir opt`'s front end ([`crate::driver::read_module`]) reports
    /// for this chunk (the module is kept for the index even when there
    /// are errors: [`crate::driver::read_module_anyway`]).
    pub front_end: Vec<Diagnostic>,
    /// Whether the front end reported an error in this chunk.
    pub has_errors: bool,
    /// The IR, kept (when there is no error) until the pass takes it.
    module: Mutex<Option<Module>>,
    decisions: OnceLock<Decisions>,
}

impl Chunk {
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
                Some(mut m) => on_large_stack(
                    || decisions::run(&mut m, &self.index.loops),
                    || Decisions::not_run("the pass failed"),
                ),
                None => Decisions::not_run("the pass failed"),
            }
        })
    }
}

/// Runs `f` on a thread with pfir's large stack (on this one if no thread
/// can be started); `failed` if it panics.
fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send, failed: impl FnOnce() -> T) -> T {
    let job = Mutex::new(Some(f));
    let take = || job.lock().ok().and_then(|mut f| f.take());
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("pfir-ide".into())
            .stack_size(crate::stack::worker_stack_bytes())
            .spawn_scoped(s, || take().map(|f| f()));
        match spawned {
            Ok(handle) => handle.join().ok().flatten().unwrap_or_else(failed),
            Err(_) => match take() {
                Some(f) => f(),
                None => failed(),
            },
        }
    })
}

#[derive(Debug)]
pub struct Document {
    pub text: String,
    pub chunks: Vec<Chunk>,
    /// The `// -----` lines (without their newline).
    pub markers: Vec<Range<usize>>,
    /// The FileCheck prefixes of the RUN lines (`CHECK` and any
    /// `--check-prefix(es)=`).
    pub check_prefixes: Vec<String>,
}

impl Document {
    pub fn build(text: &str) -> Document {
        if text.len() > crate::span::MAX_SOURCE_BYTES {
            return Document::empty(text);
        }
        on_large_stack(|| build_here(text), || Document::empty(text))
    }

    fn empty(text: &str) -> Document {
        Document {
            text: text.to_string(),
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
        self.text
            .get(..offset)
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1)
    }
}

fn build_here(text: &str) -> Document {
    let mut markers = Vec::new();
    let mut offset = 0;
    for line in fsutil::lines::lines_inclusive(text) {
        if line.trim_end() == crate::driver::SPLIT_MARKER {
            let content = line.trim_end_matches(['\n', '\r']);
            markers.push(offset..offset + content.len());
        }
        offset += line.len();
    }
    let chunks = split_chunks(text)
        .into_iter()
        .map(|(base, chunk)| build_chunk(text, base, chunk))
        .collect();
    Document {
        text: text.to_string(),
        chunks,
        markers,
        check_prefixes: directives::check_prefixes(text),
    }
}

fn build_chunk(text: &str, base: usize, chunk: &str) -> Chunk {
    let mut tokens = Vec::new();
    for t in crate::lexer::tokens(chunk, base) {
        let Ok((start, tok, end)) = t else { break };
        tokens.push(classify(start..end, &tok));
    }
    let comments = crate::lexer::comments(chunk, base)
        .into_iter()
        .map(|s| s.range())
        .collect();
    let (module, front_end) = crate::driver::read_module_anyway(chunk, base);
    let has_errors = has_errors(&front_end);
    let index = index::build(text, &module);
    Chunk {
        range: base..base + chunk.len(),
        tokens,
        comments,
        index,
        front_end,
        has_errors,
        module: Mutex::new((!has_errors).then_some(module)),
        decisions: OnceLock::new(),
    }
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
    let keyword = if class == LexClass::Keyword {
        tok.keyword_text()
    } else {
        ""
    };
    LexToken {
        range,
        class,
        keyword,
    }
}
