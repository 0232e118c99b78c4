//! Go to definition, find references, document highlight and rename.
//!
//! All of them start from the occurrence under the cursor in the chunk's
//! index (a binary search) and read the occurrences of its target (a scan
//! of the chunk). Names resolve within their `// -----` chunk only, as
//! `pfir opt --split-input-file` reads them.
//!
//! Rename refuses, with a message saying why: a new name that is not an
//! identifier, a keyword or a type name, or `_`; a variable whose new name
//! is already visible anywhere the variable is (it would capture or be
//! captured); a function whose new name another function of the chunk has;
//! op names (built in, not defined in the file) and calls of functions the
//! file does not define (their definition, and their other callers, are
//! elsewhere).

use crate::ide::builtins;
use crate::ide::document::{Chunk, Document, LexClass};
use crate::ide::index::{Occurrence, Target};
use std::fmt;
use std::ops::Range;

/// How an occurrence touches its variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// A use.
    Read,
    /// A definition, an `out` / `inout` argument, or the array an
    /// `array.update_element` updates.
    Write,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub range: Range<usize>,
    pub access: Access,
}

/// Why a rename was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameError {
    pub message: String,
}

impl RenameError {
    fn new(message: impl Into<String>) -> RenameError {
        RenameError {
            message: message.into(),
        }
    }
}

impl fmt::Display for RenameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RenameError {}

fn at(doc: &Document, offset: usize) -> Option<(&Chunk, &Occurrence)> {
    let chunk = doc.chunk_at(offset)?;
    Some((chunk, chunk.index.occurrence_at(offset)?))
}

fn def_range(chunk: &Chunk, target: Target) -> Option<Range<usize>> {
    match target {
        Target::Var(v) => chunk
            .index
            .vars
            .get(v as usize)
            .map(|v| v.name_range.clone()),
        Target::Function(f) => chunk
            .index
            .functions
            .get(f as usize)
            .map(|f| f.name_range.clone()),
    }
}

pub fn definition(doc: &Document, offset: usize) -> Option<Range<usize>> {
    let (chunk, occ) = at(doc, offset)?;
    def_range(chunk, occ.target)
}

pub fn references(doc: &Document, offset: usize, include_declaration: bool) -> Vec<Range<usize>> {
    let Some((chunk, occ)) = at(doc, offset) else {
        return Vec::new();
    };
    chunk
        .index
        .occurrences_of(occ.target)
        .filter(|o| include_declaration || !o.is_def)
        .map(|o| o.range.clone())
        .collect()
}

pub fn highlights(doc: &Document, offset: usize) -> Vec<Highlight> {
    let Some((chunk, occ)) = at(doc, offset) else {
        return Vec::new();
    };
    chunk
        .index
        .occurrences_of(occ.target)
        .map(|o| Highlight {
            range: o.range.clone(),
            access: o.access,
        })
        .collect()
}

/// The line number (from 1) of `offset`, for messages.
fn line_of(doc: &Document, offset: usize) -> usize {
    fsutil::lines::line_col(&doc.text, offset).0
}

/// Why the token at `offset` (which is no known name) cannot be renamed.
fn refusal(doc: &Document, offset: usize) -> RenameError {
    let Some(chunk) = doc.chunk_at(offset) else {
        return RenameError::new("there is no name to rename here");
    };
    if doc.comment_at(offset).is_some() {
        return RenameError::new("names inside comments are not renamed");
    }
    let i = chunk
        .tokens()
        .partition_point(|t| t.range().start <= offset);
    let Some(tok) = i
        .checked_sub(1)
        .and_then(|j| chunk.tokens().get(j))
        .filter(|t| offset <= t.range().end)
    else {
        return RenameError::new("there is no name to rename here");
    };
    let word = doc.text.get(tok.range()).unwrap_or("");
    match tok.class {
        LexClass::Keyword => RenameError::new(format!("`{word}` is a keyword")),
        LexClass::Type => RenameError::new(format!("`{word}` is a type name")),
        LexClass::OpName => RenameError::new(format!(
            "`{word}` is an op, not a function of this file: op names cannot be renamed"
        )),
        LexClass::Ident if word == "_" => {
            RenameError::new("`_` is the discard binding: it names nothing")
        }
        LexClass::Ident => {
            let next = chunk.tokens().get(i).map(|t| t.class);
            let prev = i
                .checked_sub(2)
                .and_then(|j| chunk.tokens().get(j))
                .map(|t| t.keyword(&doc.text));
            if next == Some(LexClass::Open(b'(')) || prev == Some("submit") {
                RenameError::new(format!(
                    "`{word}` is not a function of this file: its definition and its other \
                     callers are elsewhere, so renaming this call alone would break it"
                ))
            } else {
                RenameError::new(format!(
                    "`{word}` does not name a variable or function here (is it defined?)"
                ))
            }
        }
        _ => RenameError::new("there is no name to rename here"),
    }
}

pub fn prepare_rename(doc: &Document, offset: usize) -> Result<Range<usize>, RenameError> {
    match at(doc, offset) {
        Some((_, occ)) => Ok(occ.range.clone()),
        None => Err(refusal(doc, offset)),
    }
}

/// Why `name` cannot be a variable or function name, if it cannot.
fn invalid_name(name: &str) -> Option<String> {
    let mut bytes = name.bytes();
    let first_ok = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
    if !first_ok || !bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Some(format!(
            "`{name}` is not an identifier (a letter or `_`, then letters, digits or `_`)"
        ));
    }
    if name == "_" {
        return Some("`_` is the discard binding, not a name".into());
    }
    if builtins::type_names().any(|t| t == name) {
        return Some(format!("`{name}` is a type name"));
    }
    if builtins::is_reserved(name) {
        return Some(format!("`{name}` is a keyword"));
    }
    None
}

pub fn rename(
    doc: &Document,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(Range<usize>, String)>, RenameError> {
    let Some((chunk, occ)) = at(doc, offset) else {
        return Err(refusal(doc, offset));
    };
    if let Some(why) = invalid_name(new_name) {
        return Err(RenameError::new(why));
    }
    let ix = &chunk.index;
    match occ.target {
        Target::Var(v) => {
            let Some(var) = ix.vars.get(v as usize) else {
                return Err(RenameError::new("there is no name to rename here"));
            };
            if var.name == new_name {
                return Ok(Vec::new());
            }
            let clash = ix.vars.iter().enumerate().find(|(i, w)| {
                *i != v as usize
                    && w.func == var.func
                    && w.name == new_name
                    && w.visible.start < var.visible.end
                    && var.visible.start < w.visible.end
            });
            if let Some((_, w)) = clash {
                return Err(RenameError::new(format!(
                    "`{new_name}` is already defined where `{}` is visible (the {} at line {}); \
                     renaming would change what one of them refers to",
                    var.name,
                    w.kind.describe(),
                    line_of(doc, w.name_range.start)
                )));
            }
        }
        Target::Function(f) => {
            if ix
                .functions
                .get(f as usize)
                .is_some_and(|f| f.name == new_name)
            {
                return Ok(Vec::new());
            }
            if let Some(other) = ix.function_named(new_name) {
                return Err(RenameError::new(format!(
                    "a function named `{new_name}` already exists (line {})",
                    line_of(doc, ix.functions[other].name_range.start)
                )));
            }
        }
    }
    Ok(ix
        .occurrences_of(occ.target)
        .map(|o| (o.range.clone(), new_name.to_string()))
        .collect())
}
