//! Rendering diagnostics: `human` (codespan-reporting's rich form), `short`
//! (`file:line:col: severity: message`, one line each, for editors' problem
//! matchers) and `json` (one object per line, for tools).

use super::{Diagnostic, Severity, SourceFile};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files as cs_files;
use codespan_reporting::term::{self, termcolor};
use std::borrow::Cow;

/// Whether `c` must not reach a terminal as it is: control characters
/// (terminal escape sequences start with ESC, U+001B), except newline and
/// tab, and the bidirectional formatting characters that can make text
/// display in another order than it is read ("Trojan Source").
fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every character of `needs_escape` written as `\u{1b}`
/// (a carriage return just before a newline, as in CRLF files, is kept).
pub fn escape_for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if needs_escape(c) && !(c == '\r' && chars.peek() == Some(&'\n')) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Source lines longer than this many bytes are shown cut to windows around
/// the labels on them (rustc does the same), so that a diagnostic on a
/// 200 KB line is not 200 KB long.
pub const MAX_SHOWN_LINE: usize = 160;
/// Bytes shown on each side of a label's start and end on a cut line.
const LINE_WINDOW: usize = 40;
/// Lines kept on each side of a label's first and last line: codespan shows
/// up to three lines after a multi-line label's start and one before its
/// end, and a single line between two shown ones.
const SNIPPET_LINES: usize = 4;
/// What stands for the text left out of a cut line.
const ELLIPSIS: &str = "...";

/// One stretch of [`SnippetView`]'s text and the original text it shows:
/// the same bytes, or an escaped character or an elided run shown as
/// something else.
#[derive(Clone, Copy, Debug)]
struct Piece {
    orig: (usize, usize),
    shown: (usize, usize),
    verbatim: bool,
}

/// The lines one diagnostic shows, as codespan reads them: only the lines
/// around its labels, each cut to windows around the labels when it is
/// long, and characters of [`needs_escape`] written visibly (`\u{1b}`), so
/// that carets stay under the text they point at. Line numbers and the
/// `file:line:col` header are the real file's. Building it costs the shown
/// lines, not the file.
struct SnippetView<'a> {
    original: &'a SourceFile,
    text: String,
    /// Per shown line: its 0-based line in the file and where it starts in
    /// `text`, in file order.
    lines: Vec<(usize, usize)>,
    /// In file order; together they cover `text`.
    pieces: Vec<Piece>,
}

impl<'a> SnippetView<'a> {
    /// The view of the lines `d`'s labels (already clamped into the file) need.
    fn new(original: &'a SourceFile, d: &Diagnostic) -> SnippetView<'a> {
        let spans: Vec<crate::span::Span> = std::iter::once(d.primary.span)
            .chain(d.secondary.iter().map(|l| l.span))
            .collect();
        let last_line = original.line_count().saturating_sub(1);
        let mut wanted = Vec::new();
        for span in &spans {
            for at in [span.start(), span.end()] {
                let line = original.line_index(at);
                wanted.extend(
                    line.saturating_sub(SNIPPET_LINES)..=(line + SNIPPET_LINES).min(last_line),
                );
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        let mut view = SnippetView {
            original,
            text: String::new(),
            lines: Vec::with_capacity(wanted.len()),
            pieces: Vec::new(),
        };
        for line in wanted {
            let start = original.line_start(line);
            let end = original.line_start(line + 1);
            view.lines.push((line, view.text.len()));
            // A line ends at `\n`, `\r\n` or a lone `\r` (`crate::span::line_starts`).
            let line_text = &original.text[start..end];
            let body_end = if line_text.ends_with('\n') || line_text.ends_with('\r') {
                end - 1
            } else {
                end
            };
            if body_end - start <= MAX_SHOWN_LINE {
                view.push_text(start, end);
                continue;
            }
            // A long line: windows around every label end on it.
            let mut windows: Vec<(usize, usize)> = Vec::new();
            for span in &spans {
                for at in [span.start(), span.end()] {
                    if (start..=body_end).contains(&at) {
                        windows.push((
                            floor_boundary(
                                &original.text,
                                at.saturating_sub(LINE_WINDOW).max(start),
                            ),
                            ceil_boundary(&original.text, (at + LINE_WINDOW).min(body_end)),
                        ));
                    }
                }
            }
            if windows.is_empty() {
                windows.push((
                    start,
                    ceil_boundary(&original.text, start + 2 * LINE_WINDOW),
                ));
            }
            windows.sort_unstable();
            let mut at = start;
            for (from, to) in windows {
                let from = from.max(at);
                if to <= from {
                    continue;
                }
                if from > at {
                    view.push_elided(at, from);
                }
                view.push_text(from, to);
                at = to;
            }
            if at < body_end {
                view.push_elided(at, body_end);
            }
            view.push_text(body_end, end);
        }
        view
    }

    /// Shows the original `from..to`, escaping what must be.
    fn push_text(&mut self, from: usize, to: usize) {
        let source = &self.original.text[from..to];
        let mut run = from;
        let mut iter = source.char_indices().peekable();
        while let Some((i, c)) = iter.next() {
            let crlf = c == '\r' && iter.peek().is_some_and(|(_, n)| *n == '\n');
            if c == '\r' && !crlf {
                // A lone `\r` ends a line: shown as the line break it is,
                // one byte for one.
                self.push_verbatim(run, from + i);
                let shown = self.text.len();
                self.text.push('\n');
                self.pieces.push(Piece {
                    orig: (from + i, from + i + 1),
                    shown: (shown, self.text.len()),
                    verbatim: false,
                });
                run = from + i + 1;
            } else if needs_escape(c) && !crlf {
                self.push_verbatim(run, from + i);
                let shown = self.text.len();
                self.text.push_str(&c.escape_unicode().to_string());
                self.pieces.push(Piece {
                    orig: (from + i, from + i + c.len_utf8()),
                    shown: (shown, self.text.len()),
                    verbatim: false,
                });
                run = from + i + c.len_utf8();
            }
        }
        self.push_verbatim(run, to);
    }

    fn push_verbatim(&mut self, from: usize, to: usize) {
        if from < to {
            let shown = self.text.len();
            self.text.push_str(&self.original.text[from..to]);
            self.pieces.push(Piece {
                orig: (from, to),
                shown: (shown, self.text.len()),
                verbatim: true,
            });
        }
    }

    fn push_elided(&mut self, from: usize, to: usize) {
        let shown = self.text.len();
        self.text.push_str(ELLIPSIS);
        self.pieces.push(Piece {
            orig: (from, to),
            shown: (shown, self.text.len()),
            verbatim: false,
        });
    }

    /// The offset in `text` that shows original offset `offset`: inside an
    /// escaped character or an elided run, the end of what stands for it.
    fn to_shown(&self, offset: usize) -> usize {
        self.translate(offset, |p| p.orig, |p| p.shown)
    }

    /// The original offset that offset `offset` of `text` shows.
    fn to_original(&self, offset: usize) -> usize {
        self.translate(offset, |p| p.shown, |p| p.orig)
    }

    /// `offset` on the `from` side of the pieces, on their `to` side: a
    /// verbatim piece maps byte for byte; inside any other, the end of what
    /// stands for it.
    fn translate(
        &self,
        offset: usize,
        from: impl Fn(&Piece) -> (usize, usize),
        to: impl Fn(&Piece) -> (usize, usize),
    ) -> usize {
        let k = self.pieces.partition_point(|p| from(p).0 <= offset);
        let Some(p) = k.checked_sub(1).map(|i| &self.pieces[i]) else {
            return 0;
        };
        let ((from_start, from_end), (to_start, to_end)) = (from(p), to(p));
        if p.verbatim && offset <= from_end {
            to_start + (offset - from_start)
        } else if offset == from_start {
            to_start
        } else {
            to_end
        }
    }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

impl<'f> cs_files::Files<'f> for SnippetView<'_> {
    type FileId = ();
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, (): ()) -> Result<&'f str, cs_files::Error> {
        Ok(self.original.name.as_str())
    }

    fn source(&'f self, (): ()) -> Result<&'f str, cs_files::Error> {
        Ok(self.text.as_str())
    }

    /// The file's line that shown offset `byte_index` is on.
    fn line_index(&'f self, (): (), byte_index: usize) -> Result<usize, cs_files::Error> {
        let k = self.lines.partition_point(|l| l.1 <= byte_index);
        Ok(k.checked_sub(1).map_or(0, |i| self.lines[i].0))
    }

    /// A file's line not shown is empty (codespan asks for the lines inside
    /// a multi-line label, and shows only a few of them).
    fn line_range(
        &'f self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, cs_files::Error> {
        let k = self.lines.partition_point(|l| l.0 < line_index);
        match self.lines.get(k) {
            Some(&(line, start)) if line == line_index => {
                let end = self.lines.get(k + 1).map_or(self.text.len(), |l| l.1);
                Ok(start..end)
            }
            _ => Ok(self.text.len()..self.text.len()),
        }
    }

    /// The position in the real file, not in the shown text.
    fn location(
        &'f self,
        (): (),
        byte_index: usize,
    ) -> Result<cs_files::Location, cs_files::Error> {
        let (line_number, column_number) = self.original.line_col(self.to_original(byte_index));
        Ok(cs_files::Location {
            line_number,
            column_number,
        })
    }
}

/// The `--diagnostic-format` choices (spelt on the command line by
/// `crate::cli`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DiagnosticFormat {
    /// Source snippets with underlined spans (colour only on a terminal).
    #[default]
    Human,
    /// One line per diagnostic: `file:line:col: error: message`.
    Short,
    /// One JSON object per line.
    Json,
}

/// The `--color` choices (spelt on the command line by `crate::cli`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour when stderr is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Always colour (overrides `NO_COLOR`).
    Always,
    /// Never colour.
    Never,
}

/// Whether `human` diagnostics on stderr are coloured under `choice`.
/// `no_color` is the value of the `NO_COLOR` variable; colour is only ever
/// used by the `human` format.
pub fn use_color(
    choice: ColorChoice,
    format: DiagnosticFormat,
    stderr_is_terminal: bool,
    no_color: Option<&std::ffi::OsStr>,
) -> bool {
    if format != DiagnosticFormat::Human {
        return false;
    }
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => stderr_is_terminal && no_color.is_none_or(|v| v.is_empty()),
    }
}

/// [`use_color`] for this process's stderr and environment.
pub fn stderr_color(choice: ColorChoice, format: DiagnosticFormat) -> bool {
    use_color(
        choice,
        format,
        crate::io::stdio::stderr_is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    )
}

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<()> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        // codespan has no remark severity; the header word is patched below.
        Severity::Note | Severity::Remark => cs::Severity::Note,
    };
    let mut labels =
        vec![cs::Label::primary((), d.primary.span.range()).with_message(&d.primary.message)];
    labels.extend(
        d.secondary
            .iter()
            .map(|l| cs::Label::secondary((), l.span.range()).with_message(&l.message)),
    );
    let diag = cs::Diagnostic::new(severity)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(d.note_lines());
    match d.code {
        Some(code) => diag.with_code(code.as_str()),
        None => diag,
    }
}

/// Clamps every span of `d` into the file so rendering can never fail.
fn clamp(d: &Diagnostic, file: &SourceFile) -> Diagnostic {
    let len = file.text.len();
    let fix = |s: crate::span::Span| {
        let mut start = s.start().min(len);
        let mut end = s.end().min(len).max(start);
        while !file.text.is_char_boundary(start) {
            start -= 1;
        }
        while !file.text.is_char_boundary(end) {
            end += 1;
        }
        crate::span::Span::new(start, end)
    };
    let mut d = d.clone();
    d.primary.span = fix(d.primary.span);
    for l in &mut d.secondary {
        l.span = fix(l.span);
    }
    for s in &mut d.suggestions {
        s.span = fix(s.span);
    }
    d
}

fn render_codespan(
    d: &Diagnostic,
    file: &SourceFile,
    style: term::DisplayStyle,
    color: bool,
) -> String {
    let d = escape_texts(&clamp(d, file));
    let config = term::Config {
        display_style: style,
        ..term::Config::default()
    };
    let mut buffer = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    let view = SnippetView::new(file, &d);
    let mut shown = d.clone();
    let map = |s: crate::span::Span| {
        crate::span::Span::new(view.to_shown(s.start()), view.to_shown(s.end()))
    };
    shown.primary.span = map(shown.primary.span);
    for l in &mut shown.secondary {
        l.span = map(l.span);
    }
    if term::emit_to_write_style(&mut buffer, &config, &view, &to_codespan(&shown)).is_err() {
        // Spans were clamped, so this cannot happen; fall back to the short form.
        return render_short(&d, file);
    }
    let mut text = String::from_utf8_lossy(buffer.as_slice()).into_owned();
    if d.severity == Severity::Remark
        && let Some(pos) = text.find("note")
    {
        text.replace_range(pos..pos + 4, "remark");
    }
    text
}

/// `d` with its message, label messages and notes escaped for a terminal.
fn escape_texts(d: &Diagnostic) -> Diagnostic {
    let mut d = d.clone();
    d.message = escape_for_terminal(&d.message).into_owned();
    d.primary.message = escape_for_terminal(&d.primary.message).into_owned();
    for l in &mut d.secondary {
        l.message = escape_for_terminal(&l.message).into_owned();
    }
    for n in &mut d.notes {
        n.message = escape_for_terminal(&n.message).into_owned();
    }
    for f in &mut d.suggestions {
        f.message = escape_for_terminal(&f.message).into_owned();
        f.replacement = escape_for_terminal(&f.replacement).into_owned();
    }
    d
}

fn render_short(d: &Diagnostic, file: &SourceFile) -> String {
    let (line, col) = file.line_col(d.primary.span.start());
    let mut s = format!(
        "{}:{}:{}: {}: {}\n",
        file.name,
        line,
        col,
        d.header_word(),
        d.message
    );
    for n in &d.note_lines() {
        s.push_str(&format!("{}:{}:{}: {}\n", file.name, line, col, n));
    }
    s
}

/// The position fields every JSON location carries: byte `start`/`end` and
/// 1-based `line`/`column`/`end_line`/`end_column`.
fn json_position(
    file: &SourceFile,
    span: crate::span::Span,
) -> serde_json::Map<String, serde_json::Value> {
    let (sl, sc) = file.line_col(span.start());
    let (el, ec) = file.line_col(span.end());
    // Byte offsets are the file's (they differ from the text's only when
    // the input was not UTF-8 and was decoded lossily for display).
    let value = serde_json::json!({
        "start": file.file_offset(span.start()),
        "end": file.file_offset(span.end()),
        "line": sl,
        "column": sc,
        "end_line": el,
        "end_column": ec,
    });
    match value {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

fn json_label(
    file: &SourceFile,
    span: crate::span::Span,
    message: &str,
    primary: bool,
) -> serde_json::Value {
    let mut map = json_position(file, span);
    map.insert("primary".into(), primary.into());
    map.insert("message".into(), message.into());
    serde_json::Value::Object(map)
}

fn render_json(d: &Diagnostic, file: &SourceFile) -> String {
    let d = clamp(d, file);
    let mut labels = vec![json_label(file, d.primary.span, &d.primary.message, true)];
    labels.extend(
        d.secondary
            .iter()
            .map(|l| json_label(file, l.span, &l.message, false)),
    );
    let fixes: Vec<serde_json::Value> = d
        .suggestions
        .iter()
        .map(|s| {
            let mut map = json_position(file, s.span);
            map.insert("replacement".into(), s.replacement.clone().into());
            map.insert("message".into(), s.message.clone().into());
            map.insert("applicability".into(), s.applicability.name().into());
            serde_json::Value::Object(map)
        })
        .collect();
    let mut map = json_position(file, d.primary.span);
    map.insert("file".into(), file.name.clone().into());
    json_common(&d, &mut map);
    map.insert("labels".into(), labels.into());
    map.insert("fixes".into(), fixes.into());
    format!("{}\n", serde_json::Value::Object(map))
}

/// The fields every JSON diagnostic carries whether or not it points into a file.
fn json_common(d: &Diagnostic, map: &mut serde_json::Map<String, serde_json::Value>) {
    map.insert(
        "code".into(),
        d.code
            .map_or(serde_json::Value::Null, |c| c.as_str().into()),
    );
    map.insert("severity".into(), d.severity.name().into());
    map.insert("message".into(), d.message.clone().into());
    let notes: Vec<serde_json::Value> = d
        .notes
        .iter()
        .map(|n| serde_json::json!({ "kind": n.kind.name(), "message": n.message }))
        .collect();
    map.insert("notes".into(), notes.into());
}

/// Renders a diagnostic that is about no source text (an unreadable file, a
/// bad command line): its spans are ignored. `file` names the input when
/// there is one. In JSON, the position fields are `null` and there are no
/// labels or fixes.
pub fn render_without_source(
    d: &Diagnostic,
    file: Option<&str>,
    format: DiagnosticFormat,
    color: bool,
) -> String {
    match format {
        DiagnosticFormat::Json => {
            let mut map = serde_json::Map::new();
            for key in ["start", "end", "line", "column", "end_line", "end_column"] {
                map.insert(key.into(), serde_json::Value::Null);
            }
            map.insert(
                "file".into(),
                file.map_or(serde_json::Value::Null, Into::into),
            );
            json_common(d, &mut map);
            map.insert("labels".into(), serde_json::Value::Array(Vec::new()));
            map.insert("fixes".into(), serde_json::Value::Array(Vec::new()));
            format!("{}\n", serde_json::Value::Object(map))
        }
        DiagnosticFormat::Short => {
            let prefix = file.map_or(String::new(), |f| format!("{f}: "));
            let mut s = format!("{prefix}{}: {}\n", d.header_word(), d.message);
            for n in &d.note_lines() {
                s.push_str(&format!("{prefix}{n}\n"));
            }
            s
        }
        DiagnosticFormat::Human => {
            let (bold, reset) = if color {
                ("\x1b[1m\x1b[31m", "\x1b[0m")
            } else {
                ("", "")
            };
            let mut s = format!("{bold}{}{reset}: {}\n", d.header_word(), d.message);
            for n in &d.note_lines() {
                s.push_str(&format!("  = {n}\n"));
            }
            s
        }
    }
}

/// Renders one diagnostic in `format` (`color` only affects `human`).
pub fn render_to_string(
    d: &Diagnostic,
    file: &SourceFile,
    format: DiagnosticFormat,
    color: bool,
) -> String {
    render_all(std::slice::from_ref(d), file, format, color)
}

/// Renders all diagnostics, in order, into one string.
pub fn render_all(
    diags: &[Diagnostic],
    file: &SourceFile,
    format: DiagnosticFormat,
    color: bool,
) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write_all(&mut out, diags, file, format, color, None);
    String::from_utf8_lossy(&out).into_owned()
}

/// How many errors of one file are shown by default (`--error-limit`);
/// clang stops at 20, this is a little more generous.
pub const DEFAULT_ERROR_LIMIT: usize = 50;

/// One diagnostic in `format`.
fn render_one(d: &Diagnostic, file: &SourceFile, format: DiagnosticFormat, color: bool) -> String {
    match format {
        DiagnosticFormat::Human => render_codespan(d, file, term::DisplayStyle::Rich, color),
        DiagnosticFormat::Short => render_short(&escape_texts(&clamp(d, file)), file),
        DiagnosticFormat::Json => render_json(d, file),
    }
}

/// Writes `diags` to `out` in order, each as soon as it is rendered. With
/// `error_limit` `Some(n)`, stops at the `n`th error and ends with a note
/// saying how many errors were left out (and nothing after them is
/// written): the output stays bounded whatever the input.
pub fn write_all(
    out: &mut dyn std::io::Write,
    diags: &[Diagnostic],
    file: &SourceFile,
    format: DiagnosticFormat,
    color: bool,
    error_limit: Option<usize>,
) -> std::io::Result<()> {
    let mut errors = 0usize;
    for (i, d) in diags.iter().enumerate() {
        out.write_all(render_one(d, file, format, color).as_bytes())?;
        errors += usize::from(d.is_error());
        if error_limit.is_some_and(|limit| errors >= limit) {
            let left = diags[i + 1..].iter().filter(|d| d.is_error()).count();
            if left > 0 {
                let note = Diagnostic::new(
                    Severity::Note,
                    format!(
                        "{} not shown: the limit is {errors} per file (`--error-limit=N` changes it, 0 shows all)",
                        super::count(left as u64, "more error", "more errors")
                    ),
                    crate::span::Span::default(),
                );
                let text = render_without_source(&note, Some(&file.name), format, color);
                out.write_all(text.as_bytes())?;
            }
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    fn file() -> SourceFile {
        SourceFile::new("f.pfir", "func f() {\n  x = 1\n}\n")
    }

    #[test]
    fn remarks_render_as_remarks_in_every_format() {
        let d = Diagnostic::remark("kept `x`", Span::new(13, 18)).with_note("because");
        let human = render_to_string(&d, &file(), DiagnosticFormat::Human, false);
        assert!(human.starts_with("remark: kept `x`\n"), "{human}");
        assert!(human.contains("┌─ f.pfir:2:3"), "{human}");
        let short = render_to_string(&d, &file(), DiagnosticFormat::Short, false);
        assert_eq!(
            short,
            "f.pfir:2:3: remark: kept `x`\nf.pfir:2:3: note: because\n"
        );
        let json: serde_json::Value = serde_json::from_str(&render_to_string(
            &d,
            &file(),
            DiagnosticFormat::Json,
            false,
        ))
        .unwrap();
        assert_eq!(json["severity"], "remark");
        assert_eq!(
            (json["line"].as_u64(), json["column"].as_u64()),
            (Some(2), Some(3))
        );
        assert_eq!(
            (json["end_line"].as_u64(), json["end_column"].as_u64()),
            (Some(2), Some(8))
        );
    }

    /// A span past the end of the file points at its end (line 4, column
    /// 1 of the three-line file), in every format.
    #[test]
    fn spans_outside_the_file_are_clamped_not_fatal() {
        let d = Diagnostic::error("late", Span::new(500, 900))
            .with_secondary(Span::new(2, 1000), "here");
        let end = file().text.len() as u64;
        let render = |format| render_to_string(&d, &file(), format, false);
        assert_eq!(render(DiagnosticFormat::Short), "f.pfir:4:1: error: late\n");
        let human = render(DiagnosticFormat::Human);
        assert!(human.starts_with("error: late\n"), "{human}");
        assert!(
            human.contains("f.pfir:4:1") && human.contains("here"),
            "{human}"
        );
        let json: serde_json::Value =
            serde_json::from_str(&render(DiagnosticFormat::Json)).unwrap();
        // start, end, line, column of the diagnostic and of its labels.
        let at = |v: &serde_json::Value| {
            ["start", "end", "line", "column"].map(|k| v[k].as_u64().unwrap_or(u64::MAX))
        };
        assert_eq!(at(&json), [end, end, 4, 1]);
        assert_eq!(at(&json["labels"][0]), [end, end, 4, 1]);
        assert_eq!(at(&json["labels"][1]), [2, end, 1, 3]);
    }

    /// A diagnostic on a 200 KB line shows windows of it around its labels,
    /// with the real line and column, and carets under the text.
    #[test]
    fn long_lines_are_cut_around_the_labels() {
        let line = "nope + ".repeat(30_000);
        let text = format!("func f() {{\n  x = {line}\n}}\n");
        let f = SourceFile::new("f.pfir", text.as_str());
        let at = text.len() / 2;
        let at = at - (at - text.find("nope").unwrap()) % 7;
        let d = Diagnostic::error("unknown variable `nope`", Span::new(at, at + 4))
            .with_secondary(Span::new(13, 14), "bound here");
        let human = render_to_string(&d, &f, DiagnosticFormat::Human, false);
        assert!(
            human.len() < 2 * (MAX_SHOWN_LINE + 4 * LINE_WINDOW) + 400,
            "{human}"
        );
        assert!(
            human.lines().all(|l| l.len() < 2 * MAX_SHOWN_LINE),
            "{human}"
        );
        let (line_no, col) = f.line_col(at);
        assert!(
            human.contains(&format!("f.pfir:{line_no}:{col}")),
            "{human}"
        );
        let shown = human.lines().find(|l| l.starts_with("2 │")).unwrap();
        let carets = human.lines().find(|l| l.contains("^^^^")).unwrap();
        let c = carets.chars().position(|c| c == '^').unwrap();
        let word: String = shown.chars().skip(c).take(4).collect();
        assert_eq!(word, "nope", "{human}");
        assert!(shown.contains(ELLIPSIS), "{shown}");
        // The secondary label at the line's start is shown too.
        assert!(shown.contains("  x = nope"), "{shown}");
        // A short line is shown whole.
        let short = render_to_string(
            &Diagnostic::error("e", Span::new(13, 14)),
            &file(),
            DiagnosticFormat::Human,
            false,
        );
        assert!(short.contains("2 │   x = 1\n"), "{short}");
    }

    /// With a limit, the `n`th error is the last thing written, then a note
    /// counts the errors left out; without one, everything is written.
    #[test]
    fn the_error_limit_stops_after_n_errors() {
        let f = file();
        let diags: Vec<Diagnostic> = (0..10)
            .flat_map(|i| {
                [
                    Diagnostic::error(format!("e{i}"), Span::new(13, 14)),
                    Diagnostic::warning(format!("w{i}"), Span::new(13, 14)),
                ]
            })
            .collect();
        for format in [
            DiagnosticFormat::Human,
            DiagnosticFormat::Short,
            DiagnosticFormat::Json,
        ] {
            let mut out = Vec::new();
            write_all(&mut out, &diags, &f, format, false, Some(3)).unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(out.contains("e2") && !out.contains("e3"), "{out}");
            assert!(out.contains("w1") && !out.contains("w2"), "{out}");
            assert!(out.contains("7 more errors not shown"), "{out}");
            let all = render_all(&diags, &f, format, false);
            assert!(all.contains("e9") && !all.contains("not shown"), "{all}");
            // Exactly at the limit: no note.
            let mut out = Vec::new();
            write_all(&mut out, &diags[..5], &f, format, false, Some(3)).unwrap();
            assert!(!String::from_utf8(out).unwrap().contains("not shown"));
        }
    }

    #[test]
    fn colour_only_when_asked() {
        let d = Diagnostic::error("bad", Span::new(13, 14));
        assert!(!render_to_string(&d, &file(), DiagnosticFormat::Human, false).contains('\x1b'));
        assert!(render_to_string(&d, &file(), DiagnosticFormat::Human, true).contains('\x1b'));
    }

    #[test]
    fn terminal_escapes_in_the_source_are_shown_escaped() {
        // ESC [ 2 J clears a terminal; ESC ] ... sets its title.
        let text = "func f() {\n  x = \u{1b}[2J\u{1b}]0;owned\u{7} y\n}\n";
        let f = SourceFile::new("f.pfir", text);
        let at = text.find('y').unwrap();
        let d = Diagnostic::error("unknown variable `y`", Span::new(at, at + 1))
            .with_secondary(Span::new(15, 16), "here \u{1b}[31m");
        for format in [DiagnosticFormat::Human, DiagnosticFormat::Short] {
            for color in [false, true] {
                let out = render_to_string(&d, &f, format, color);
                let raw: Vec<char> = out
                    .chars()
                    .filter(|&c| c.is_control() && c != '\n')
                    .collect();
                // Colour codes are the renderer's own; none come from the source.
                assert!(color || raw.is_empty(), "{format:?}: {out:?}");
                assert!(
                    !out.contains("\u{1b}[2J") && !out.contains("\u{1b}]0;"),
                    "{out:?}"
                );
            }
        }
        let human = render_to_string(&d, &f, DiagnosticFormat::Human, false);
        assert!(
            human.contains(r"x = \u{1b}[2J\u{1b}]0;owned\u{7} y"),
            "{human}"
        );
        // The header is the real position (line 2, column 20 counting
        // characters of the file), and the caret is under `y` as shown.
        let (line, col) = f.line_col(at);
        assert!(human.contains(&format!("f.pfir:{line}:{col}")), "{human}");
        let shown = human.lines().find(|l| l.contains("owned")).unwrap();
        let caret = human
            .lines()
            .skip_while(|l| !l.contains("owned"))
            .nth(1)
            .unwrap();
        let y_col = shown.chars().position(|c| c == 'y').unwrap();
        assert_eq!(caret.chars().position(|c| c == '^'), Some(y_col), "{human}");
        // Bidirectional overrides, C1 controls and DEL too; CRLF stays.
        assert_eq!(
            escape_for_terminal("a\u{202e}b\u{85}\u{7f}\r\n"),
            r"a\u{202e}b\u{85}\u{7f}".to_string() + "\r\n"
        );
    }
}
