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

/// `text` with every character of [`needs_escape`] written as `\u{1b}`
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

/// A source file as the human renderer shows it: characters of
/// [`needs_escape`] written visibly (`\u{1b}`), so that carets stay under
/// the text they point at, while the `file:line:col` header still gives the
/// position in the real file.
struct EscapedFile<'a> {
    original: &'a SourceFile,
    text: String,
    line_starts: Vec<usize>,
    /// Per escaped character: (its offset in the original, in `text`, its
    /// length in the original, in `text`).
    escapes: Vec<(usize, usize, usize, usize)>,
}

impl<'a> EscapedFile<'a> {
    /// `None` when nothing needs escaping.
    fn new(original: &'a SourceFile) -> Option<EscapedFile<'a>> {
        let source = original.text.as_str();
        if !source.chars().any(needs_escape) {
            return None;
        }
        let mut text = String::with_capacity(source.len() + 16);
        let mut escapes = Vec::new();
        let mut iter = source.char_indices().peekable();
        while let Some((at, c)) = iter.next() {
            if needs_escape(c) && !(c == '\r' && iter.peek().is_some_and(|(_, n)| *n == '\n')) {
                let shown = c.escape_unicode().to_string();
                escapes.push((at, text.len(), c.len_utf8(), shown.len()));
                text.push_str(&shown);
            } else {
                text.push(c);
            }
        }
        let line_starts = cs_files::line_starts(&text).collect();
        Some(EscapedFile {
            original,
            text,
            line_starts,
            escapes,
        })
    }

    /// The offset in `text` of original offset `offset` (a char boundary).
    fn to_escaped(&self, offset: usize) -> usize {
        let k = self.escapes.partition_point(|e| e.0 < offset);
        match k.checked_sub(1).map(|i| self.escapes[i]) {
            None => offset,
            Some((orig, esc, orig_len, esc_len)) => {
                offset.max(orig + orig_len) - (orig + orig_len) + esc + esc_len
            }
        }
    }

    /// The original offset of offset `offset` in `text`.
    fn to_original(&self, offset: usize) -> usize {
        let k = self.escapes.partition_point(|e| e.1 < offset);
        match k.checked_sub(1).map(|i| self.escapes[i]) {
            None => offset,
            Some((orig, esc, orig_len, esc_len)) => {
                offset.max(esc + esc_len) - (esc + esc_len) + orig + orig_len
            }
        }
    }
}

impl<'f> cs_files::Files<'f> for EscapedFile<'_> {
    type FileId = ();
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, (): ()) -> Result<&'f str, cs_files::Error> {
        Ok(self.original.name.as_str())
    }

    fn source(&'f self, (): ()) -> Result<&'f str, cs_files::Error> {
        Ok(self.text.as_str())
    }

    fn line_index(&'f self, (): (), byte_index: usize) -> Result<usize, cs_files::Error> {
        Ok(self
            .line_starts
            .binary_search(&byte_index)
            .unwrap_or_else(|next| next - 1))
    }

    fn line_range(
        &'f self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, cs_files::Error> {
        let start = *self
            .line_starts
            .get(line_index)
            .ok_or(cs_files::Error::LineTooLarge {
                given: line_index,
                max: self.line_starts.len() - 1,
            })?;
        let end = self
            .line_starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(self.text.len());
        Ok(start..end)
    }

    /// The position in the real file, not in the escaped text.
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

/// The file as codespan reads it, built once per file (its line table costs
/// a pass over the text: once per diagnostic would be quadratic).
enum Prepared<'a> {
    Plain(&'a SourceFile),
    Escaped(EscapedFile<'a>),
}

impl<'a> Prepared<'a> {
    fn new(file: &'a SourceFile) -> Prepared<'a> {
        match EscapedFile::new(file) {
            None => Prepared::Plain(file),
            Some(escaped) => Prepared::Escaped(escaped),
        }
    }
}

fn render_codespan(
    d: &Diagnostic,
    file: &SourceFile,
    prepared: &Prepared<'_>,
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
    let emitted = match prepared {
        Prepared::Plain(files) => {
            term::emit_to_write_style(&mut buffer, &config, *files, &to_codespan(&d))
        }
        Prepared::Escaped(escaped) => {
            let mut shown = d.clone();
            let map = |s: crate::span::Span| {
                crate::span::Span::new(escaped.to_escaped(s.start()), escaped.to_escaped(s.end()))
            };
            shown.primary.span = map(shown.primary.span);
            for l in &mut shown.secondary {
                l.span = map(l.span);
            }
            term::emit_to_write_style(&mut buffer, &config, escaped, &to_codespan(&shown))
        }
    };
    if emitted.is_err() {
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
        *n = escape_for_terminal(n).into_owned();
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
        .map(|n| {
            let (kind, message) = n.split_once(": ").unwrap_or(("note", n));
            serde_json::json!({ "kind": kind, "message": message })
        })
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
    match format {
        // No diagnostics, no scan of the file for characters to escape.
        DiagnosticFormat::Human if diags.is_empty() => String::new(),
        DiagnosticFormat::Human => {
            let prepared = Prepared::new(file);
            diags
                .iter()
                .map(|d| render_codespan(d, file, &prepared, term::DisplayStyle::Rich, color))
                .collect()
        }
        DiagnosticFormat::Short => diags
            .iter()
            .map(|d| render_short(&escape_texts(&clamp(d, file)), file))
            .collect(),
        DiagnosticFormat::Json => diags.iter().map(|d| render_json(d, file)).collect(),
    }
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

    #[test]
    fn spans_outside_the_file_are_clamped_not_fatal() {
        let d = Diagnostic::error("late", Span::new(500, 900))
            .with_secondary(Span::new(2, 1000), "here");
        for format in [
            DiagnosticFormat::Human,
            DiagnosticFormat::Short,
            DiagnosticFormat::Json,
        ] {
            assert!(render_to_string(&d, &file(), format, false).contains("late"));
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
