//! Rendering diagnostics: `human` (codespan-reporting's rich form), `short`
//! (`file:line:col: severity: message`, one line each, for editors' problem
//! matchers) and `json` (one object per line, for tools).

use super::{Diagnostic, Severity, SourceFile};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};

/// The `--diagnostic-format` choices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiagnosticFormat {
    /// Source snippets with underlined spans (colour only on a terminal).
    #[default]
    Human,
    /// One line per diagnostic: `file:line:col: error: message`.
    Short,
    /// One JSON object per line.
    Json,
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
    cs::Diagnostic::new(severity)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(
            d.notes
                .iter()
                .map(|n| {
                    n.split_once(": ")
                        .map_or(n.clone(), |(k, v)| format!("{k}: {v}"))
                })
                .collect(),
        )
}

/// Clamps every span of `d` into the file so rendering can never fail.
fn clamp(d: &Diagnostic, file: &SourceFile) -> Diagnostic {
    let len = file.text.len();
    let fix = |s: crate::span::Span| {
        let mut start = s.start.min(len);
        let mut end = s.end.min(len).max(start);
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
    d
}

fn render_codespan(
    d: &Diagnostic,
    file: &SourceFile,
    style: term::DisplayStyle,
    color: bool,
) -> String {
    let d = clamp(d, file);
    let files = SimpleFile::new(file.name.as_str(), file.text.as_str());
    let config = term::Config {
        display_style: style,
        ..term::Config::default()
    };
    let mut buffer = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    let diag = to_codespan(&d);
    if term::emit_to_write_style(&mut buffer, &config, &files, &diag).is_err() {
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

fn render_short(d: &Diagnostic, file: &SourceFile) -> String {
    let (line, col) = file.line_col(d.primary.span.start);
    let mut s = format!(
        "{}:{}:{}: {}: {}\n",
        file.name,
        line,
        col,
        d.severity.name(),
        d.message
    );
    for n in &d.notes {
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
    let (sl, sc) = file.line_col(span.start);
    let (el, ec) = file.line_col(span.end);
    // Byte offsets are the file's (they differ from the text's only when
    // the input was not UTF-8 and was decoded lossily for display).
    let value = serde_json::json!({
        "start": file.file_offset(span.start),
        "end": file.file_offset(span.end),
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
    let mut map = json_position(file, d.primary.span);
    map.insert("severity".into(), d.severity.name().into());
    map.insert("message".into(), d.message.clone().into());
    map.insert("file".into(), file.name.clone().into());
    map.insert("labels".into(), labels.into());
    map.insert("notes".into(), d.notes.clone().into());
    format!("{}\n", serde_json::Value::Object(map))
}

/// Renders one diagnostic in `format` (`color` only affects `human`).
pub fn render_to_string(
    d: &Diagnostic,
    file: &SourceFile,
    format: DiagnosticFormat,
    color: bool,
) -> String {
    match format {
        DiagnosticFormat::Human => render_codespan(d, file, term::DisplayStyle::Rich, color),
        DiagnosticFormat::Short => render_short(&clamp(d, file), file),
        DiagnosticFormat::Json => render_json(d, file),
    }
}

/// Renders all diagnostics, in order, into one string.
pub fn render_all(
    diags: &[Diagnostic],
    file: &SourceFile,
    format: DiagnosticFormat,
    color: bool,
) -> String {
    diags
        .iter()
        .map(|d| render_to_string(d, file, format, color))
        .collect()
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
}
