//! Python's tokens, as far as PyPTO's DSL uses them: names, numbers,
//! strings, operators, and the `NEWLINE` / `INDENT` / `DEDENT` tokens of
//! Python's layout rules (lines join inside brackets and after `\`; blank
//! and comment-only lines are ignored). Comments are skipped: the
//! canonical `.pfir` written from the DSL has none, as `pfir opt`'s
//! output has none. Byte offsets throughout; a character Python would not accept is an error
//! token the parser reports.

use crate::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Name(String),
    Int(String),
    Float(f64),
    Str(String),
    /// An operator or delimiter: `(`, `**`, `->`, `+=`, ...
    Op(&'static str),
    Newline,
    Indent,
    Dedent,
    /// A character or literal that is not a Python token (the message).
    Error(String),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Longest first, so that `**=` wins over `**` and `*`.
const OPS: [&str; 47] = [
    "**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", ":=",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "(", ")", "[", "]", "{", "}", ",", ":",
    ".", ";", "+", "-", "*", "/", "%", "&", "|", "^", "~", "<", ">", "=", "@",
];

/// Splits `text` into tokens (ending with `Eof`).
pub fn lex(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut indents: Vec<usize> = vec![0];
    let mut depth = 0usize;
    let mut i = 0;
    let mut at_line_start = true;
    let span = |a: usize, b: usize| Span::new(a, b);
    while i < bytes.len() {
        if at_line_start && depth == 0 {
            // Measure the indentation; blank and comment lines do not count.
            let start = i;
            let mut width = 0;
            while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t' || bytes[i] == b'\x0c')
            {
                width = if bytes[i] == b'\t' {
                    (width / 8 + 1) * 8
                } else {
                    width + 1
                };
                i += 1;
            }
            if i >= bytes.len() {
                break;
            }
            match bytes[i] {
                b'\n' | b'\r' => {
                    i += 1;
                    continue;
                }
                b'#' => {
                    i = line_end(bytes, i);
                    continue;
                }
                _ => {}
            }
            at_line_start = false;
            let current = *indents.last().unwrap_or(&0);
            if width > current {
                indents.push(width);
                toks.push(Token {
                    tok: Tok::Indent,
                    span: span(start, i),
                });
            } else {
                while width < *indents.last().unwrap_or(&0) {
                    indents.pop();
                    toks.push(Token {
                        tok: Tok::Dedent,
                        span: span(i, i),
                    });
                }
                if width != *indents.last().unwrap_or(&0) {
                    toks.push(Token {
                        tok: Tok::Error(
                            "unindent does not match any outer indentation level".into(),
                        ),
                        span: span(start, i),
                    });
                }
            }
            continue;
        }
        at_line_start = false;
        let c = bytes[i];
        match c {
            b' ' | b'\t' | b'\x0c' => i += 1,
            b'\\' if matches!(bytes.get(i + 1), Some(b'\n') | Some(b'\r')) => {
                i += 2;
                if bytes.get(i - 1) == Some(&b'\r') && bytes.get(i) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' | b'\r' => {
                if depth == 0 {
                    toks.push(Token {
                        tok: Tok::Newline,
                        span: span(i, i + 1),
                    });
                    at_line_start = true;
                }
                i += 1;
            }
            b'#' => i = line_end(bytes, i),
            b'"' | b'\'' => {
                let (tok, end) = string(text, i);
                toks.push(Token {
                    tok,
                    span: span(i, end),
                });
                i = end;
            }
            b'0'..=b'9' => {
                let (tok, end) = number(text, i);
                toks.push(Token {
                    tok,
                    span: span(i, end),
                });
                i = end;
            }
            b'.' if matches!(bytes.get(i + 1), Some(b'0'..=b'9')) => {
                let (tok, end) = number(text, i);
                toks.push(Token {
                    tok,
                    span: span(i, end),
                });
                i = end;
            }
            c if c == b'_' || c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && (bytes[i] == b'_' || bytes[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                toks.push(Token {
                    tok: Tok::Name(text[start..i].to_string()),
                    span: span(start, i),
                });
            }
            _ => {
                if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(**op)) {
                    match *op {
                        "(" | "[" | "{" => depth += 1,
                        ")" | "]" | "}" => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    toks.push(Token {
                        tok: Tok::Op(op),
                        span: span(i, i + op.len()),
                    });
                    i += op.len();
                } else {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    toks.push(Token {
                        tok: Tok::Error(format!("unexpected character `{ch}`")),
                        span: span(i, i + ch.len_utf8()),
                    });
                    i += ch.len_utf8();
                }
            }
        }
    }
    let end = bytes.len();
    if !at_line_start {
        toks.push(Token {
            tok: Tok::Newline,
            span: span(end, end),
        });
    }
    for _ in 1..indents.len() {
        toks.push(Token {
            tok: Tok::Dedent,
            span: span(end, end),
        });
    }
    toks.push(Token {
        tok: Tok::Eof,
        span: span(end, end),
    });
    toks
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|b| *b == b'\n' || *b == b'\r')
        .map_or(bytes.len(), |p| from + p)
}

/// A string literal from its opening quote (one line, or triple-quoted):
/// its value with `\\`, `\"`, `\'` and `\n` unescaped.
fn string(text: &str, start: usize) -> (Tok, usize) {
    let bytes = text.as_bytes();
    let q = bytes[start];
    let triple = bytes.get(start + 1) == Some(&q) && bytes.get(start + 2) == Some(&q);
    let mut i = start + if triple { 3 } else { 1 };
    let mut value = String::new();
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\\' && i + 1 < bytes.len() {
            let next = text[i + 1..].chars().next().unwrap_or('\\');
            value.push(match next {
                'n' => '\n',
                't' => '\t',
                other => other,
            });
            i += 1 + next.len_utf8();
            continue;
        }
        if c == q && (!triple || (bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q))) {
            let end = i + if triple { 3 } else { 1 };
            return (Tok::Str(value), end);
        }
        if !triple && (c == b'\n' || c == b'\r') {
            break;
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        value.push(ch);
        i += ch.len_utf8();
    }
    (
        Tok::Error("unterminated string literal".into()),
        i.min(text.len()),
    )
}

/// A decimal integer or a float (`1.0`, `.5`, `1e-3`, `1_000`).
fn number(text: &str, start: usize) -> (Tok, usize) {
    let bytes = text.as_bytes();
    let mut i = start;
    let digits = |i: &mut usize| {
        while *i < bytes.len() && (bytes[*i].is_ascii_digit() || bytes[*i] == b'_') {
            *i += 1;
        }
    };
    digits(&mut i);
    let mut float = false;
    if bytes.get(i) == Some(&b'.') {
        float = true;
        i += 1;
        digits(&mut i);
    }
    if matches!(bytes.get(i), Some(b'e') | Some(b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+') | Some(b'-')) {
            j += 1;
        }
        if matches!(bytes.get(j), Some(b'0'..=b'9')) {
            float = true;
            i = j;
            digits(&mut i);
        }
    }
    if i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        // `0x10`, `1j`, `1abc`: not a literal the DSL uses.
        let mut end = i;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
            end += 1;
        }
        return (Tok::Error(format!("number `{}`", &text[start..end])), end);
    }
    let written: String = text[start..i].chars().filter(|c| *c != '_').collect();
    if float {
        match written.parse::<f64>() {
            Ok(v) => (Tok::Float(v), i),
            Err(_) => (Tok::Error(format!("number `{written}`")), i),
        }
    } else {
        (Tok::Int(written), i)
    }
}
