//! The tokens of `.pfir` (spec section 2), recognised by a logos lexer.

use logos::Logos;
use std::fmt;

/// A lexing failure; the parser sees it as an error token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LexError {
    #[default]
    UnexpectedCharacter,
    UnterminatedString,
}

#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum Tok<'input> {
    /// A comment: ends where its line does (`crate::span::line_starts`), at
    /// `\n` or `\r`, so a lone `\r` ends it as it ends the line in an
    /// editor. A token, not a logos skip: the token stream drops it in a
    /// loop (`crate::lexer::tokens`), where logos would recurse once per
    /// skipped comment; the parser never sees it.
    #[regex(r"//[^\n\r]*", allow_greedy = true)]
    Comment,
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    Ident(&'input str),
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+", |lex| lex.slice())]
    OpName(&'input str),
    #[regex(r"[0-9]+", |lex| lex.slice())]
    Int(&'input str),
    #[regex(r"[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+", |lex| lex.slice())]
    Float(&'input str),
    #[regex(r#""([^"\\]|\\["\\])*""#, |lex| lex.slice(), priority = 10)]
    Str(&'input str),
    /// A closed string with an escape other than `\"` and `\\` (`"a\nb"`).
    /// Without this token the lexer would stop the string at the bad
    /// escape and report it as unterminated, then read its rest as code.
    #[regex(r#""([^"\\]|\\[^\n])*""#, |lex| lex.slice(), priority = 5)]
    BadEscapeStr(&'input str),
    /// A `"` that starts a string never closed.
    #[regex(r#""([^"\\]|\\["\\])*"#, priority = 1)]
    UnterminatedStr,

    #[token("_", priority = 3)]
    Underscore,
    #[token("func")]
    Func,
    #[token("orchestration")]
    Orchestration,
    #[token("incore")]
    InCore,
    #[token("aic")]
    Aic,
    #[token("aiv")]
    Aiv,
    #[token("group")]
    Group,
    #[token("opaque")]
    Opaque,
    #[token("in")]
    In,
    #[token("out")]
    Out,
    #[token("inout")]
    InOut,
    #[token("for")]
    For,
    #[token("range")]
    Range,
    #[token("parallel")]
    Parallel,
    #[token("unroll")]
    Unroll,
    #[token("iter")]
    Iter,
    #[token("while")]
    While,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("manual")]
    Manual,
    #[token("auto")]
    Auto,
    #[token("yield")]
    Yield,
    #[token("return")]
    Return,
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("submit")]
    Submit,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("none")]
    None,
    #[token("and")]
    And,
    #[token("or")]
    Or,
    #[token("not")]
    Not,
    #[token("array")]
    Array,
    #[token("tensor")]
    Tensor,
    /// `i8` ... `task_id`: a scalar type name.
    #[token("i8", |_| crate::vocab::ScalarType::I8)]
    #[token("i16", |_| crate::vocab::ScalarType::I16)]
    #[token("i32", |_| crate::vocab::ScalarType::I32)]
    #[token("i64", |_| crate::vocab::ScalarType::I64)]
    #[token("u8", |_| crate::vocab::ScalarType::U8)]
    #[token("u16", |_| crate::vocab::ScalarType::U16)]
    #[token("u32", |_| crate::vocab::ScalarType::U32)]
    #[token("u64", |_| crate::vocab::ScalarType::U64)]
    #[token("index", |_| crate::vocab::ScalarType::Index)]
    #[token("bool", |_| crate::vocab::ScalarType::Bool)]
    #[token("f16", |_| crate::vocab::ScalarType::F16)]
    #[token("bf16", |_| crate::vocab::ScalarType::BF16)]
    #[token("f32", |_| crate::vocab::ScalarType::F32)]
    #[token("f64", |_| crate::vocab::ScalarType::F64)]
    #[token("task_id", |_| crate::vocab::ScalarType::TaskId)]
    Scalar(crate::vocab::ScalarType),

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("=")]
    Assign,
    #[token("->")]
    Arrow,
    #[token(".")]
    Dot,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,

    /// Not produced by logos: what the token stream yields for a lexing
    /// error, so that the parser can report it and recover.
    Error(LexError),
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) | Tok::OpName(s) | Tok::Int(s) | Tok::Float(s) | Tok::Str(s) => {
                write!(f, "`{s}`")
            }
            Tok::UnterminatedStr => f.write_str("an unterminated string"),
            Tok::BadEscapeStr(_) => f.write_str("a string with an invalid escape"),
            Tok::Scalar(s) => write!(f, "`{}`", s.name()),
            Tok::Error(_) => f.write_str("an unexpected character"),
            Tok::Comment => f.write_str("a comment"),
            other => write!(f, "`{}`", other.keyword_text()),
        }
    }
}

impl Tok<'_> {
    /// The arithmetic operators and `==`, `!=`: symbols that are binary
    /// operators and nothing else (`<` and `>` also bracket type arguments,
    /// `-` also negates).
    pub fn is_arithmetic_or_equality(&self) -> bool {
        matches!(
            self,
            Tok::Plus | Tok::Minus | Tok::Star | Tok::Slash | Tok::Percent | Tok::EqEq | Tok::NotEq
        )
    }

    /// The fixed spelling of a keyword or punctuation token.
    pub fn keyword_text(&self) -> &'static str {
        match self {
            Tok::Underscore => "_",
            Tok::Func => "func",
            Tok::Orchestration => "orchestration",
            Tok::InCore => "incore",
            Tok::Aic => "aic",
            Tok::Aiv => "aiv",
            Tok::Group => "group",
            Tok::Opaque => "opaque",
            Tok::In => "in",
            Tok::Out => "out",
            Tok::InOut => "inout",
            Tok::For => "for",
            Tok::Range => "range",
            Tok::Parallel => "parallel",
            Tok::Unroll => "unroll",
            Tok::Iter => "iter",
            Tok::While => "while",
            Tok::If => "if",
            Tok::Else => "else",
            Tok::Manual => "manual",
            Tok::Auto => "auto",
            Tok::Yield => "yield",
            Tok::Return => "return",
            Tok::Break => "break",
            Tok::Continue => "continue",
            Tok::Submit => "submit",
            Tok::True => "true",
            Tok::False => "false",
            Tok::None => "none",
            Tok::And => "and",
            Tok::Or => "or",
            Tok::Not => "not",
            Tok::Array => "array",
            Tok::Tensor => "tensor",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Assign => "=",
            Tok::Arrow => "->",
            Tok::Dot => ".",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            _ => "",
        }
    }
}
