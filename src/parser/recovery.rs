//! Syntax-error recovery that resynchronises: one mistake, one error.
//!
//! The file is read in stages, each repairing what it understands so that
//! the next one sees the text as its author meant it:
//!
//! 1. `tidy`: characters whose intent is clear (`#` comments, curly quotes,
//!    look-alikes, `;`) are reported and replaced;
//! 2. `delimiters`: brackets are matched, using indentation to find the one
//!    left open, and repaired;
//! 3. the balanced tokens are cut into *items* at every `}` that closes a
//!    top-level block, and each item is parsed on its own, so a mistake in
//!    one function never disturbs the next;
//! 4. an item that does not parse is repaired and parsed again (at most
//!    [`MAX_REPAIRS`] times): where the intent is clear the fix is applied
//!    and the error says so (a misspelt keyword, `=` in a condition, `:`
//!    opening an indented block, `elif`, `def`); otherwise the statement
//!    holding the error is dropped, whole, at its bracket depth: the logical
//!    line (a line, plus the lines its brackets span), never past the `}`
//!    of the enclosing block.
//!
//! A function with a syntax error is reported for its syntax only: its
//! semantic errors, which the repair may have caused, are not
//! ([`Parsed::broken`]).

use super::ast;
use super::build::SyntaxError;
use super::layout::Layout;
use super::{closest_expected_word, delimiters, grammar, parse_error_diagnostic, tidy};
use crate::diagnostics::{Applicability, Diagnostic};
use crate::lexer::{self, Spanned, Tok};
use crate::span::Span;
use lalrpop_util::ParseError;
use logos::Logos;

/// How many times one item is repaired and parsed again; past it, the
/// item's remaining errors are not reported (this keeps parsing linear).
pub const MAX_REPAIRS: usize = 8;

/// The result of parsing a file (or a `// -----` chunk of it).
#[derive(Debug, Default)]
pub struct Parsed<'input> {
    pub module: ast::Module<'input>,
    /// The syntax errors, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// The file ranges of the items (functions) that had a syntax error.
    pub broken: Vec<Span>,
    /// Functions whose header could not be read, so that they are not in
    /// `module` (`None`: the name could not be read either): calls to them
    /// are not reported as unknown.
    pub lost_functions: Vec<Option<&'input str>>,
}

/// Parses `text`, which starts at byte `base` of its file, building the
/// tree in `arena`.
///
/// A file without syntax errors (the common case) is parsed in one pass,
/// the parser pulling tokens from the lexer as it goes (`parse_clean`);
/// only a file with a syntax error is read again through the stages above,
/// which hold its tokens in memory.
pub fn parse_module<'i>(text: &'i str, base: usize, arena: &'i ast::Arena) -> Parsed<'i> {
    match parse_clean(text, base, arena) {
        Some(parsed) => parsed,
        None => parse_in_stages(text, base, arena),
    }
}

/// [`parse_module`] through the recovery stages, whatever the input.
fn parse_in_stages<'i>(text: &'i str, base: usize, arena: &'i ast::Arena) -> Parsed<'i> {
    let tokens = match lexer::lex(text, base) {
        Ok(tokens) => tokens,
        Err(too_deep) => {
            return Parsed {
                diagnostics: vec![too_deep],
                broken: vec![Span::new(base, base + text.len())],
                ..Parsed::default()
            };
        }
    };
    let layout = Layout::new(text, base);
    let eof = base + text.len();
    let (mut tokens, mut char_diags) = tidy::fix_characters(tokens, text, base, &layout);
    char_diags.extend(colons_with_kept_braces(&mut tokens, &layout));
    let (tokens, delimiter_diags) = delimiters::balance(tokens, &layout);
    let ctx = Ctx {
        text,
        base,
        eof,
        layout: &layout,
        arena,
    };
    let mut parsed = Parsed::default();
    let mut start = base;
    // The character and bracket errors, in file order, handed out to the
    // items they fall in (each list is walked once).
    let by_start = |mut v: Vec<Diagnostic>| {
        v.sort_by_key(|d| d.primary.span.start());
        v.into_iter().peekable()
    };
    let mut char_diags = by_start(char_diags);
    let mut delimiter_diags = by_start(delimiter_diags);
    let items = items(&tokens);
    let count = items.len();
    for (i, item) in items.into_iter().enumerate() {
        let last = i + 1 == count;
        let end = if last {
            usize::MAX
        } else {
            item.last().map_or(start, |t| t.2)
        };
        let range = Span::new(start, end.min(eof));
        start = end;
        let take = |diags: &mut std::iter::Peekable<std::vec::IntoIter<Diagnostic>>| {
            let mut out = Vec::new();
            while let Some(d) = diags.next_if(|d| d.primary.span.start() < end) {
                out.push(d);
            }
            out
        };
        let mut char_errors = take(&mut char_diags);
        let delimiter_errors = take(&mut delimiter_diags);
        let mut outcome = if delimiter_errors.is_empty() {
            parse_item(item.to_vec(), &ctx)
        } else {
            parse_bracket_repaired(item, &ctx)
        };
        if delimiter_errors.is_empty() {
            rejected_curly_strings(&mut char_errors, &mut outcome.diagnostics);
        }
        let broken = !outcome.diagnostics.is_empty()
            || !delimiter_errors.is_empty()
            || !char_errors.is_empty()
            || !outcome.lost.is_empty();
        if broken {
            parsed.broken.push(range);
        }
        parsed.diagnostics.extend(char_errors);
        // After a bracket repair, the parser's errors are most likely its
        // consequences: the bracket error is the one reported.
        if delimiter_errors.is_empty() {
            parsed.diagnostics.extend(outcome.diagnostics);
        } else {
            parsed.diagnostics.extend(delimiter_errors);
        }
        parsed.lost_functions.extend(outcome.lost);
        parsed.module.functions.extend(outcome.module.functions);
    }
    parsed.module.source = ast::Source { text, base };
    parsed
        .diagnostics
        .sort_by_key(|d| (d.primary.span.start(), d.primary.span.end()));
    parsed
}

/// The whole of `text` parsed in one pass, streaming tokens from the lexer;
/// `None` when it has a syntax error (or brackets nested too deeply).
///
/// On such input the stages of [`parse_module`] change nothing: no token is
/// an error token (the grammar has no production for one), so `tidy` keeps
/// every token; the brackets match and no `func` header starts inside one,
/// so `delimiters` keeps them; and the items, each a whole function, parse
/// to the functions the whole file parses to. The result is the same
/// module with no diagnostic.
fn parse_clean<'i>(text: &'i str, base: usize, arena: &'i ast::Arena) -> Option<Parsed<'i>> {
    let mut recovered = Vec::new();
    let mut scratch = ast::Scratch::default();
    let mut module = grammar::ModuleParser::new()
        .parse(
            arena,
            &mut scratch,
            &mut recovered,
            lexer::tokens(text, base),
        )
        .ok()?;
    if !recovered.is_empty() {
        return None;
    }
    module.source = ast::Source { text, base };
    Some(Parsed {
        module,
        ..Parsed::default()
    })
}

/// Everything the repairs read besides the tokens.
struct Ctx<'a, 't> {
    text: &'t str,
    base: usize,
    eof: usize,
    layout: &'a Layout<'t>,
    /// Where the items' trees are built.
    arena: &'t ast::Arena,
}

/// The items of a balanced token stream: each ends with a `}` that brings
/// the bracket depth back to 0 (what follows the last one is an item too).
fn items<'s, 'i>(tokens: &'s [Spanned<'i>]) -> Vec<&'s [Spanned<'i>]> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, (_, t, _)) in tokens.iter().enumerate() {
        match t {
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket => depth = depth.saturating_sub(1),
            Tok::RBrace => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(&tokens[start..=i]);
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
    if start < tokens.len() || out.is_empty() {
        out.push(&tokens[start..]);
    }
    out
}

struct ItemOutcome<'i> {
    module: ast::Module<'i>,
    diagnostics: Vec<Diagnostic>,
    lost: Vec<Option<&'i str>>,
}

type Error<'i> = ParseError<usize, Tok<'i>, SyntaxError>;

/// Parses one item, repairing it after each error.
fn parse_item<'i>(mut tokens: Vec<Spanned<'i>>, ctx: &Ctx<'_, 'i>) -> ItemOutcome<'i> {
    let mut outcome = ItemOutcome {
        module: ast::Module::default(),
        diagnostics: Vec::new(),
        lost: Vec::new(),
    };
    let mut scratch = ast::Scratch::default();
    for round in 0..=MAX_REPAIRS {
        let mut recovered = Vec::new();
        let result = grammar::ModuleParser::new().parse(
            ctx.arena,
            &mut scratch,
            &mut recovered,
            tokens.iter().cloned().map(Ok),
        );
        let (first, module) = match (recovered.into_iter().next(), result) {
            (None, Ok(module)) => {
                outcome.module = module;
                return outcome;
            }
            (Some(r), result) => (r.error, result.ok()),
            (None, Err(e)) => (e, None),
        };
        outcome.module = module.unwrap_or_default();
        if round == MAX_REPAIRS {
            break;
        }
        let (diag, repaired) = repair(first, &mut tokens, ctx, &mut outcome.lost);
        // A repair that did not move the error on: report it once.
        if outcome
            .diagnostics
            .last()
            .is_some_and(|d| d.primary.span == diag.primary.span && d.message == diag.message)
        {
            break;
        }
        outcome.diagnostics.push(diag);
        if !repaired {
            break;
        }
    }
    outcome
}

/// How much work (tokens times bracket depth) parsing an item whose
/// brackets were repaired may cost. The parser's own error recovery (at
/// item level) scans its whole stack for every token it drops after an
/// error, so an error deep inside brackets costs the item's depth times its
/// length: 30,000 unclosed `(` would take minutes.
pub const RECOVERY_WORK: usize = 1 << 22;

/// Parses an item whose brackets were repaired. Its parser errors are not
/// reported (the bracket error is), so only its function's header matters
/// (calls to it are checked against it): an item over [`RECOVERY_WORK`] is
/// parsed with an empty body, and one whose header alone is over it is
/// only named, as a function that could not be read.
fn parse_bracket_repaired<'i>(item: &[Spanned<'i>], ctx: &Ctx<'_, 'i>) -> ItemOutcome<'i> {
    let work = |tokens: &[Spanned<'_>]| {
        let (mut depth, mut deepest) = (0usize, 0usize);
        for (_, t, _) in tokens {
            match t {
                Tok::LParen | Tok::LBracket | Tok::LBrace => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        deepest.saturating_mul(tokens.len())
    };
    if work(item) <= RECOVERY_WORK {
        return parse_item(item.to_vec(), ctx);
    }
    // The header, through the body's `{` (the first one outside brackets),
    // and the body's `}`.
    let mut depth = 0usize;
    let body = item.iter().position(|(_, t, _)| match t {
        Tok::LParen | Tok::LBracket => {
            depth += 1;
            false
        }
        Tok::RParen | Tok::RBracket => {
            depth = depth.saturating_sub(1);
            false
        }
        Tok::LBrace => depth == 0,
        _ => false,
    });
    if let (Some(open), Some(close @ (_, Tok::RBrace, _))) = (body, item.last())
        && open + 1 < item.len()
        && work(&item[..=open]) <= RECOVERY_WORK
    {
        let mut header = item[..=open].to_vec();
        header.push(close.clone());
        return parse_item(header, ctx);
    }
    ItemOutcome {
        module: ast::Module::default(),
        diagnostics: Vec::new(),
        lost: vec![function_name(item)],
    }
}

/// Reports `error` and repairs `tokens` so that parsing can go on past it;
/// `false` (after which the item is given up) when no repair applies.
fn repair<'i>(
    error: Error<'i>,
    tokens: &mut Vec<Spanned<'i>>,
    ctx: &Ctx<'_, 'i>,
    lost: &mut Vec<Option<&'i str>>,
) -> (Diagnostic, bool) {
    let mut diag = None;
    let repaired = repair_into(error, tokens, ctx, lost, &mut diag);
    (
        diag.unwrap_or_else(|| Diagnostic::error("syntax error", Span::default())),
        repaired.is_some(),
    )
}

/// [`repair`]'s body: sets `out` to the diagnostic, and returns `None` when
/// no repair applies.
fn repair_into<'i>(
    error: Error<'i>,
    tokens: &mut Vec<Spanned<'i>>,
    ctx: &Ctx<'_, 'i>,
    lost: &mut Vec<Option<&'i str>>,
    out: &mut Option<Diagnostic>,
) -> Option<()> {
    let diag = parse_error_diagnostic(error.clone(), ctx.eof, ctx.text, ctx.base);
    *out = Some(diag.clone());
    let (at, tok, expected) = match &error {
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => (
            find(tokens, *l, tok, *r)?,
            Some(tok.clone()),
            expected.as_slice(),
        ),
        ParseError::UnrecognizedEof { expected, .. } => (tokens.len(), None, expected.as_slice()),
        ParseError::ExtraToken { token: (l, tok, r) } => {
            (find(tokens, *l, tok, *r)?, Some(tok.clone()), &[][..])
        }
        ParseError::InvalidToken { .. } | ParseError::User { .. } => return None,
    };
    let span = tok.as_ref().map(|_| Span::new(tokens[at].0, tokens[at].2));
    let repaired = match span {
        Some(span) => repair_token(&diag, tokens, at, span, expected, ctx),
        None => None,
    }
    .or_else(|| repair_elif(tokens, at))
    .or_else(|| repair_statement_keyword(tokens, at, ctx));
    if let Some(d) = repaired {
        *out = Some(d);
        return Some(());
    }
    let diag = match (&tok, span) {
        (Some(Tok::LBrace), Some(_)) if first_on_line(tokens, at, ctx) => diag.with_help(
            "a `{` opens a block only after `for`, `while`, `if`, `else`, `manual` or `auto`",
        ),
        _ => diag,
    };
    *out = Some(diag);
    let (from, to, item_level) = culprit(tokens, at, ctx)?;
    let dropped = &tokens[from..to];
    if item_level && dropped.iter().any(|t| matches!(t.1, Tok::LBrace)) {
        lost.push(function_name(dropped));
    }
    tokens.drain(from..to);
    Some(())
}

/// An `UnexpectedToken` error at `span` repaired by reading `replacement`
/// there: labelled, the fix suggested (`help`) and noted.
fn read_instead(
    message: impl Into<String>,
    span: Span,
    label: &str,
    replacement: &str,
    help: impl Into<String>,
    applicability: Applicability,
) -> Diagnostic {
    Diagnostic::error(message, span)
        .with_code(crate::diagnostics::Code::UnexpectedToken)
        .with_label(label)
        .with_suggestion(span, replacement, help, applicability)
        .with_note(format!("read as `{replacement}`"))
}

/// Repairs of the offending token `tokens[at]` itself (at `span`; the
/// parser's `diag` about it): a string with a bad escape kept, `def` read
/// as `func`, a missing `func`, a misspelt keyword, `=` in a condition, a
/// `:` before a block. The diagnostic when one applied.
fn repair_token<'i>(
    diag: &Diagnostic,
    tokens: &mut Vec<Spanned<'i>>,
    at: usize,
    span: Span,
    expected: &[String],
    ctx: &Ctx<'_, 'i>,
) -> Option<Diagnostic> {
    let expects = |t: &str| expected.iter().any(|e| e.trim_matches('"') == t);
    match tokens[at].1.clone() {
        Tok::BadEscapeStr(s) => {
            tokens[at].1 = Tok::Str(s);
            Some(diag.clone())
        }
        Tok::Ident("def" | "fn" | "function" | "fun") if expects("func") => {
            tokens[at].1 = Tok::Func;
            let word = ctx.layout.slice(span.start(), span.end());
            Some(read_instead(
                format!("functions are declared with `func`, not `{word}`"),
                span,
                "not a keyword of .pfir",
                "func",
                "write `func`",
                Applicability::MachineApplicable,
            ))
        }
        Tok::Ident(name)
            if expects("func") && matches!(tokens.get(at + 1), Some((_, Tok::LParen, _))) =>
        {
            let (l, _, _) = tokens[at];
            tokens.insert(at, (l, Tok::Func, l));
            let here = Span::new(l, l);
            Some(
                Diagnostic::error(format!("missing `func` before `{name}`"), span)
                    .with_code(crate::diagnostics::Code::UnexpectedToken)
                    .with_label("a function starts with `func`")
                    .with_suggestion(here, "func ", "add `func`", Applicability::MaybeIncorrect)
                    .with_note(format!("read as `func {name}`")),
            )
        }
        Tok::Ident(word) => {
            let k = closest_expected_word(word, expected)?;
            let t = keyword_token(&k)?;
            tokens[at].1 = t;
            Some(diag.clone().with_note(format!("read as `{k}`")))
        }
        Tok::Assign if expects("==") && in_condition(tokens, at, ctx) => {
            tokens[at].1 = Tok::EqEq;
            Some(read_instead(
                "`=` in a condition",
                span,
                "this would assign; comparison is `==`",
                "==",
                "compare with `==`",
                Applicability::MachineApplicable,
            ))
        }
        Tok::Colon if expects("{") => Some(colon_block(tokens, at, span, ctx)),
        _ => None,
    }
}

/// Python's `elif`: the error is on the token after it.
fn repair_elif(tokens: &mut Vec<Spanned<'_>>, at: usize) -> Option<Diagnostic> {
    if at < 2
        || !matches!(tokens[at - 1].1, Tok::Ident("elif"))
        || !matches!(tokens[at - 2].1, Tok::RBrace)
    {
        return None;
    }
    let (l, _, r) = tokens[at - 1];
    let span = Span::new(l, r);
    tokens.splice(at - 1..at, [(l, Tok::Else, r), (l, Tok::If, r)]);
    Some(read_instead(
        "`elif` is written `else if`",
        span,
        "not a keyword of .pfir",
        "else if",
        "write `else if`",
        Applicability::MachineApplicable,
    ))
}

/// A misspelt statement keyword (`retrun x`, `fro i in ...`): a name
/// first on its line that the next token cannot follow.
fn repair_statement_keyword<'i>(
    tokens: &mut [Spanned<'i>],
    at: usize,
    ctx: &Ctx<'_, 'i>,
) -> Option<Diagnostic> {
    if at >= 1
        && let Tok::Ident(word) = tokens[at - 1].1
        && first_on_line(tokens, at - 1, ctx)
        && !first_on_line(tokens, at, ctx)
        && let Some(k) = crate::diagnostics::suggest::closest(word, STATEMENT_KEYWORDS.into_iter())
        && let Some(t) = keyword_token(k)
    {
        let (l, _, r) = tokens[at - 1];
        let span = Span::new(l, r);
        tokens[at - 1].1 = t;
        return Some(read_instead(
            format!("unknown statement `{word}`"),
            span,
            "not a keyword",
            k,
            format!("did you mean `{k}`?"),
            Applicability::MaybeIncorrect,
        ));
    }
    None
}

/// The index of the token `(l, tok, r)` in `tokens` (sorted by start).
fn find(tokens: &[Spanned<'_>], l: usize, tok: &Tok<'_>, r: usize) -> Option<usize> {
    let from = tokens.partition_point(|t| t.0 < l);
    (from..tokens.len())
        .take_while(|&i| tokens[i].0 == l)
        .find(|&i| tokens[i].2 == r && &tokens[i].1 == tok)
}

/// The keyword or type token spelt `word` (not a plain name).
fn keyword_token(word: &str) -> Option<Tok<'static>> {
    let word: &'static str = crate::vocab::reserved_words().find(|k| *k == word)?;
    let mut lexer = Tok::lexer(word);
    match (lexer.next(), lexer.next()) {
        (Some(Ok(t)), None) if !matches!(t, Tok::Ident(_)) => Some(t),
        _ => None,
    }
}

/// The keywords a statement starts with.
const STATEMENT_KEYWORDS: [&str; 9] = [
    "for", "while", "if", "manual", "auto", "yield", "return", "break", "continue",
];

fn first_on_line(tokens: &[Spanned<'_>], i: usize, ctx: &Ctx<'_, '_>) -> bool {
    i == 0 || i >= tokens.len() || ctx.layout.line(tokens[i - 1].2) != ctx.layout.line(tokens[i].0)
}

/// Whether the token at `at` follows an `if` or `while` on its line.
fn in_condition(tokens: &[Spanned<'_>], at: usize, ctx: &Ctx<'_, '_>) -> bool {
    let line = ctx.layout.line(tokens[at].0);
    tokens[..at]
        .iter()
        .rev()
        .take_while(|t| ctx.layout.line(t.0) == line)
        .any(|t| matches!(t.1, Tok::If | Tok::While))
}

/// A string in curly quotes where no string may stand (`x = “hello”`):
/// one mistake, so one error, the parser's (a string only names a scope,
/// in any quotes); the curly quotes become a note of it rather than an
/// error of their own.
fn rejected_curly_strings(char_errors: &mut Vec<Diagnostic>, syntax_errors: &mut [Diagnostic]) {
    const CURLY: &str = "read as a string in straight quotes";
    char_errors.retain(|c| {
        let rejected = c.notes.iter().any(|n| n.message.ends_with(CURLY))
            && syntax_errors
                .iter_mut()
                .find(|d| d.primary.span.start() == c.primary.span.start())
                .map(|d| {
                    d.notes.push(crate::diagnostics::Note {
                        kind: crate::diagnostics::NoteKind::Note,
                        message: "a string, in curly quotes here; a string is written in \
                                  straight quotes, and only as a scope's name \
                                  (`manual \"phase\" {`)"
                            .to_string(),
                    })
                })
                .is_some();
        !rejected
    });
}

/// `for i in range(n):` with the body's `}` kept (a Python habit half
/// undone): the `:` ends a loop's or `if`'s header line, the next line is
/// indented deeper, and the first line back at the header's indentation
/// starts with `}`. The `:` is read as `{` (one error, at the `:`, with the
/// certain fix), before brackets are balanced: otherwise the `}` would be
/// blamed lines later, as a stray closer. Each `:` scans its own body.
fn colons_with_kept_braces(tokens: &mut [Spanned<'_>], layout: &Layout<'_>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let on_new_line = |tokens: &[Spanned<'_>], i: usize| {
        i == 0 || layout.line(tokens[i - 1].2) != layout.line(tokens[i].0)
    };
    for at in 0..tokens.len() {
        if !matches!(tokens[at].1, Tok::Colon)
            || at + 1 >= tokens.len()
            || !on_new_line(tokens, at + 1)
        {
            continue;
        }
        let Some(next) = tokens.get(at + 1) else {
            continue;
        };
        let first = (0..=at)
            .rev()
            .find(|&i| on_new_line(tokens, i))
            .unwrap_or(0);
        if !tokens[first..at]
            .iter()
            .any(|t| matches!(t.1, Tok::For | Tok::While | Tok::If | Tok::Else))
        {
            continue;
        }
        let indent = layout.indent_at(tokens[first].0);
        if layout.indent_at(next.0) <= indent {
            continue;
        }
        let back = (at + 1..tokens.len())
            .find(|&k| on_new_line(tokens, k) && layout.indent_at(tokens[k].0) <= indent);
        let Some(back) = back else { continue };
        if !matches!(tokens[back].1, Tok::RBrace) || layout.indent_at(tokens[back].0) != indent {
            continue;
        }
        let span = Span::new(tokens[at].0, tokens[at].2);
        // `range(n):` becomes `range(n) {`.
        let brace = if at > 0 && tokens[at - 1].2 == span.start() {
            " {"
        } else {
            "{"
        };
        tokens[at].1 = Tok::LBrace;
        diags.push(
            Diagnostic::error("unexpected `:`", span)
                .with_code(crate::diagnostics::Code::UnexpectedToken)
                .with_label("blocks are written in braces, not after `:`")
                .with_suggestion(
                    span,
                    brace,
                    "write `{` for the `:` (the block's `}` is there)",
                    Applicability::MachineApplicable,
                ),
        );
    }
    diags
}

/// `:` where a block's `{` was expected. Followed by `{`, the `:` is
/// dropped; otherwise it opens a Python-style block: read as `{`, with a
/// `}` after the lines indented deeper than the header.
fn colon_block(
    tokens: &mut Vec<Spanned<'_>>,
    at: usize,
    span: Span,
    ctx: &Ctx<'_, '_>,
) -> Diagnostic {
    let d = Diagnostic::error("unexpected `:`", span)
        .with_code(crate::diagnostics::Code::UnexpectedToken);
    if matches!(tokens.get(at + 1), Some((_, Tok::LBrace, _))) {
        tokens.remove(at);
        return d
            .with_label("a block starts with `{` alone")
            .with_suggestion(span, "", "remove the `:`", Applicability::MachineApplicable);
    }
    let header_indent = ctx.layout.indent_at(span.start());
    let mut depth = 0usize;
    let mut end = tokens.len();
    for j in at + 1..tokens.len() {
        let t = &tokens[j].1;
        if depth == 0
            && first_on_line(tokens, j, ctx)
            && ctx.layout.indent_at(tokens[j].0) <= header_indent
        {
            end = j;
            break;
        }
        match t {
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                if depth == 0 {
                    end = j;
                    break;
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    let close_at = if end > at + 1 {
        tokens[end - 1].2
    } else {
        span.end()
    };
    tokens[at].1 = Tok::LBrace;
    tokens.insert(end, (close_at, Tok::RBrace, close_at));
    d.with_label("blocks are written in braces, not after `:`")
        .with_suggestion(
            span,
            "{",
            "write `{` here, and a `}` after the indented lines",
            Applicability::MaybeIncorrect,
        )
        .with_note("read as if the indented lines below were in braces")
}

/// The partner of every bracket (`usize::MAX` for other tokens and for
/// unmatched brackets).
fn partners(tokens: &[Spanned<'_>]) -> Vec<usize> {
    let mut out = vec![usize::MAX; tokens.len()];
    let mut stack = Vec::new();
    for (i, (_, t, _)) in tokens.iter().enumerate() {
        match t {
            Tok::LParen | Tok::LBracket | Tok::LBrace => stack.push(i),
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                if let Some(o) = stack.pop() {
                    out[o] = i;
                    out[i] = o;
                }
            }
            _ => {}
        }
    }
    out
}

/// The end (exclusive) of the logical line starting at `head`: up to the
/// next token that starts a line outside the brackets opened since `head`
/// (an `else` after a block continues it), or the closer of the enclosing
/// block.
fn logical_line_end(
    tokens: &[Spanned<'_>],
    partner: &[usize],
    head: usize,
    ctx: &Ctx<'_, '_>,
) -> usize {
    let mut i = head;
    while i < tokens.len() {
        let t = &tokens[i].1;
        if matches!(t, Tok::RParen | Tok::RBracket | Tok::RBrace) {
            return i;
        }
        if matches!(t, Tok::LParen | Tok::LBracket | Tok::LBrace) && partner[i] != usize::MAX {
            i = partner[i] + 1;
        } else {
            i += 1;
        }
        if i < tokens.len() && first_on_line(tokens, i, ctx) && !matches!(tokens[i].1, Tok::Else) {
            return i;
        }
    }
    tokens.len()
}

/// Tokens that cannot end a statement: a line ending with one continues on
/// the next.
fn continues(t: &Tok<'_>) -> bool {
    t.is_arithmetic_or_equality()
        || matches!(
            t,
            Tok::Assign
                | Tok::Comma
                | Tok::Dot
                | Tok::Lt
                | Tok::Le
                | Tok::Ge
                | Tok::And
                | Tok::Or
                | Tok::Not
                | Tok::Arrow
                | Tok::Colon
                | Tok::In
                | Tok::For
                | Tok::While
                | Tok::If
                | Tok::Else
                | Tok::Submit
                | Tok::Func
        )
}

/// Tokens a statement (or the `}` of its block) can start with.
fn starts_statement(t: &Tok<'_>) -> bool {
    matches!(
        t,
        Tok::Ident(_)
            | Tok::OpName(_)
            | Tok::Underscore
            | Tok::For
            | Tok::While
            | Tok::If
            | Tok::Manual
            | Tok::Auto
            | Tok::Yield
            | Tok::Return
            | Tok::Break
            | Tok::Continue
            | Tok::RBrace
            | Tok::Func
            | Tok::Orchestration
            | Tok::InCore
            | Tok::Aic
            | Tok::Aiv
            | Tok::Group
            | Tok::Opaque
    )
}

/// The token range to drop for an error at `at`: the logical line holding
/// it; the one before when the error is on the first token of a line that
/// could start a statement (the line before was left incomplete); extended
/// back over lines that end in a token that cannot end a statement.
/// Also says whether the range is at item level (outside every block).
fn culprit(tokens: &[Spanned<'_>], at: usize, ctx: &Ctx<'_, '_>) -> Option<(usize, usize, bool)> {
    let partner = partners(tokens);
    // The innermost `{` holding `at` (a `}` belongs to the block it closes).
    let mut braces = Vec::new();
    for (i, (_, t, _)) in tokens.iter().enumerate().take(at) {
        match t {
            Tok::LBrace => braces.push(i),
            Tok::RBrace => {
                braces.pop();
            }
            _ => {}
        }
    }
    let block_start = braces.last().map_or(0, |&o| o + 1);
    let mut lines: Vec<(usize, usize)> = Vec::new();
    let mut i = block_start;
    let mut holding = None;
    while i < tokens.len() {
        if matches!(tokens[i].1, Tok::RParen | Tok::RBracket | Tok::RBrace) {
            break;
        }
        let end = logical_line_end(tokens, &partner, i, ctx).max(i + 1);
        lines.push((i, end));
        if at < end {
            holding = Some(lines.len() - 1);
            break;
        }
        i = end;
    }
    let mut first = match holding {
        Some(h) if at == lines[h].0 && h > 0 && starts_statement(&tokens[at].1) => h - 1,
        Some(h) => h,
        None => lines.len().checked_sub(1)?,
    };
    let last = first;
    while first > 0 && continues(&tokens[lines[first - 1].1 - 1].1) {
        first -= 1;
    }
    Some((lines[first].0, lines[last].1, braces.is_empty()))
}

/// The name of the function a dropped item-level range declares: the name
/// after `func`, or else the first name followed by `(`.
fn function_name<'i>(tokens: &[Spanned<'i>]) -> Option<&'i str> {
    let after_func = tokens.windows(2).find_map(|w| match (&w[0].1, &w[1].1) {
        (Tok::Func, Tok::Ident(name)) => Some(*name),
        _ => None,
    });
    after_func.or_else(|| {
        tokens.windows(2).find_map(|w| match (&w[0].1, &w[1].1) {
            (Tok::Ident(name), Tok::LParen) => Some(*name),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{parse_clean, parse_in_stages};
    use crate::parser::ast::Arena;
    use std::path::Path;

    /// Every valid chunk of the examples and round-trip tests.
    fn valid_chunks() -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["examples", "tests/lit/frontend", "tests/passes"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "pfir") {
                    files.push(e.path());
                }
            }
        }
        files.sort();
        let mut chunks = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("reading a test input");
            for (_, chunk) in crate::split_input::split_chunks(&text) {
                chunks.push(chunk.to_string());
            }
        }
        chunks
    }

    #[test]
    fn the_one_pass_parse_equals_the_staged_parse_on_valid_input() {
        let mut clean = 0;
        for chunk in valid_chunks() {
            let (a, b) = (Arena::new(), Arena::new());
            let Some(fast) = parse_clean(&chunk, 7, &a) else {
                continue;
            };
            clean += 1;
            let staged = parse_in_stages(&chunk, 7, &b);
            assert_eq!(format!("{fast:?}"), format!("{staged:?}"), "{chunk}");
            assert!(fast.diagnostics.is_empty() && fast.broken.is_empty());
        }
        assert!(clean > 50, "only {clean} valid chunks were compared");
    }

    /// 30,000 unclosed `(`: every one is reported, and the item is parsed
    /// within [`super::RECOVERY_WORK`] (its header only), not through the
    /// parser's recovery, which would scan the 30,000-deep stack for every
    /// token it drops. Without the bound the function is not even kept.
    #[test]
    fn deep_unclosed_brackets_keep_recovery_within_its_work_bound() {
        let n = 30_000;
        let text = format!(
            "func f(a: i64) -> i64 {{\n  x = {}\n  return a\n}}\n",
            "(".repeat(n)
        );
        let arena = Arena::new();
        let parsed = parse_in_stages(&text, 0, &arena);
        assert_eq!(parsed.diagnostics.len(), n);
        assert_eq!(parsed.module.functions.len(), 1, "the header is kept");
        let f = parsed.module.functions[0];
        assert_eq!((f.params.len(), f.body.stmts.len()), (1, 0));
        // A shallow one is parsed whole, as before.
        let text = "func f(a: i64) -> i64 {\n  x = ((\n  return a\n}\n";
        let parsed = parse_in_stages(text, 0, &arena);
        assert_eq!(parsed.diagnostics.len(), 2);
        let bodies: Vec<usize> = parsed
            .module
            .functions
            .iter()
            .map(|f| f.body.stmts.len())
            .collect();
        assert_eq!(bodies, [1], "the repaired body is parsed");
    }

    #[test]
    fn the_one_pass_parse_gives_way_on_a_syntax_error() {
        let arena = Arena::new();
        for text in [
            "func f( {\n}\n",
            "func f() {\n  x = 1 +\n}\n",
            "func f() {\n  x = #1\n}\n",
            "func f() {\n  s = \"a\\q\"\n}\n",
        ] {
            assert!(parse_clean(text, 0, &arena).is_none(), "{text}");
            assert!(!super::parse_module(text, 0, &arena).diagnostics.is_empty());
        }
    }
}
