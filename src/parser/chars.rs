//! Naming an unexpected character: which one it is, its code point when it
//! is invisible or looks like ASCII, and the ASCII text it was probably
//! meant to be (spec section 2 allows only ASCII outside comments and
//! strings).

use crate::diagnostics::{Applicability, Code, Diagnostic};
use crate::span::Span;

/// What pfir knows about a character that is not part of any token.
struct Known {
    /// Its Unicode name, in lower case.
    name: &'static str,
    /// The ASCII text it stands for (`""`: it should simply go).
    replacement: &'static str,
    /// Whether the replacement is certainly right.
    certain: bool,
}

const fn known(name: &'static str, replacement: &'static str, certain: bool) -> Option<Known> {
    Some(Known {
        name,
        replacement,
        certain,
    })
}

fn lookup(c: char) -> Option<Known> {
    match c {
        '\u{00A0}' => known("no-break space", " ", true),
        '\u{2007}' => known("figure space", " ", true),
        '\u{202F}' => known("narrow no-break space", " ", true),
        '\u{3000}' => known("ideographic space", " ", true),
        '\u{200B}' => known("zero-width space", "", true),
        '\u{200C}' => known("zero-width non-joiner", "", true),
        '\u{200D}' => known("zero-width joiner", "", true),
        '\u{2060}' => known("word joiner", "", true),
        '\u{FEFF}' => known("zero-width no-break space (byte order mark)", "", true),
        '\u{201C}' => known("left double quotation mark", "\"", true),
        '\u{201D}' => known("right double quotation mark", "\"", true),
        '\u{201E}' => known("double low-9 quotation mark", "\"", true),
        '\u{2018}' => known("left single quotation mark", "\"", false),
        '\u{2019}' => known("right single quotation mark", "\"", false),
        '\u{2013}' => known("en dash", "-", false),
        '\u{2014}' => known("em dash", "-", false),
        '\u{2212}' => known("minus sign", "-", true),
        '\u{2192}' => known("rightwards arrow", "->", true),
        '`' => known("backtick", "", false),
        '\u{FF01}'..='\u{FF5E}' => known("fullwidth form", "", true),
        _ => None,
    }
}

/// The ASCII character a fullwidth form (U+FF01..U+FF5E) stands for.
fn fullwidth_ascii(c: char) -> Option<char> {
    let cp = c as u32;
    (0xFF01..=0xFF5E)
        .contains(&cp)
        .then(|| char::from_u32(cp - 0xFF01 + 0x21))
        .flatten()
}

/// The ASCII text the unexpected character `c` stands for (`""`: it should
/// simply go), when pfir knows it; `;` goes too.
pub fn ascii_replacement(c: char) -> Option<String> {
    if c == ';' {
        return Some(String::new());
    }
    let k = lookup(c)?;
    Some(match fullwidth_ascii(c) {
        Some(ascii) => ascii.to_string(),
        None => k.replacement.to_string(),
    })
}

/// Whether `c` is a curly quotation mark (one that `"` replaces).
pub fn is_curly_quote(c: char) -> bool {
    matches!(
        c,
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2018}' | '\u{2019}'
    )
}

/// The diagnostic for the unexpected character at `span` (file offsets);
/// `text` is the parsed text, which starts at byte `base` of the file.
pub fn unexpected_character(
    text: &str,
    base: usize,
    span: Span,
    expected_note: String,
) -> Diagnostic {
    let at = span.start().saturating_sub(base);
    let Some(c) = text.get(at..).and_then(|t| t.chars().next()) else {
        return Diagnostic::error("unexpected character", span)
            .with_code(Code::UnexpectedCharacter)
            .with_label("not part of any token")
            .with_note(expected_note);
    };
    let span = Span::new(span.start(), span.start() + c.len_utf8());
    let cp = format!("U+{:04X}", c as u32);
    if c == ';' {
        // Statements end at the end of the line.
        let rest = &text[at + 1..];
        let line_rest = rest.split('\n').next().unwrap_or("");
        let trailing = line_rest.trim().is_empty() || line_rest.trim_start().starts_with("//");
        let d = Diagnostic::error("unexpected character `;`", span)
            .with_code(Code::UnexpectedCharacter)
            .with_label("statements end at the end of the line")
            .with_note("pfir has no `;`: write one statement per line");
        return if trailing {
            d.with_suggestion(span, "", "remove the `;`", Applicability::MachineApplicable)
        } else {
            d.with_suggestion(
                span,
                "\n",
                "put the next statement on its own line",
                Applicability::MaybeIncorrect,
            )
        };
    }
    let Some(k) = lookup(c) else {
        let message = if c.is_ascii() {
            format!("unexpected character `{c}`")
        } else {
            format!("unexpected character `{c}` ({cp})")
        };
        let note = if c.is_ascii() {
            expected_note
        } else {
            "outside comments and strings, .pfir source is ASCII".to_string()
        };
        return Diagnostic::error(message, span)
            .with_code(Code::UnexpectedCharacter)
            .with_label("not part of any token")
            .with_note(note);
    };
    let (name, replacement) = match fullwidth_ascii(c) {
        Some(ascii) => (format!("fullwidth `{ascii}`"), ascii.to_string()),
        None => (k.name.to_string(), k.replacement.to_string()),
    };
    let invisible = (replacement.is_empty() && c != '`') || replacement == " ";
    let message = if c == '`' {
        "unexpected character `` ` `` (backtick)".to_string()
    } else if invisible {
        format!("unexpected character {cp} ({name})")
    } else {
        format!("unexpected character `{c}` ({cp}, {name})")
    };
    let (label, help) = if c == '`' {
        (
            "pfir does not quote names with backticks".to_string(),
            "remove the backtick".to_string(),
        )
    } else if replacement.is_empty() {
        (
            "an invisible character".to_string(),
            format!("remove the {name}"),
        )
    } else if replacement == " " {
        (
            "looks like a space, but is not one".to_string(),
            "replace it with a space".to_string(),
        )
    } else {
        (
            format!("looks like `{replacement}`"),
            format!("replace it with `{replacement}`"),
        )
    };
    let applicability = if k.certain {
        Applicability::MachineApplicable
    } else {
        Applicability::MaybeIncorrect
    };
    Diagnostic::error(message, span)
        .with_code(Code::UnexpectedCharacter)
        .with_label(label)
        .with_suggestion(span, replacement, help, applicability)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(text: &str) -> Diagnostic {
        let at = text
            .find(|c: char| {
                !c.is_ascii_alphanumeric() && c != ' ' && c != '='
                    || c == ';'
                    || c == '`'
                    || c == '\u{a0}'
            })
            .unwrap();
        unexpected_character(text, 0, Span::new(at, at + 1), "expected x".into())
    }

    /// The first suggestion's replacement and how sure it is.
    fn fix(d: &Diagnostic) -> (&str, Applicability) {
        let s = &d.suggestions[0];
        (&s.replacement, s.applicability)
    }

    #[test]
    fn names_look_alikes_with_code_point_and_ascii() {
        let d = diag("x = \u{201C}a\u{201D}");
        assert_eq!(
            d.message,
            "unexpected character `\u{201C}` (U+201C, left double quotation mark)"
        );
        assert_eq!(fix(&d), ("\"", Applicability::MachineApplicable));
        assert_eq!(d.primary.span.range(), 4..7);
        let d = diag("x = 1 \u{2013} 2");
        assert_eq!(
            d.message,
            "unexpected character `\u{2013}` (U+2013, en dash)"
        );
        assert_eq!(fix(&d).1, Applicability::MaybeIncorrect);
        let d = diag("x =\u{a0}1");
        assert_eq!(d.message, "unexpected character U+00A0 (no-break space)");
        assert_eq!(d.suggestions[0].replacement, " ");
        let d = diag("x = 1\u{200B}");
        assert_eq!(d.message, "unexpected character U+200B (zero-width space)");
        assert_eq!(d.suggestions[0].replacement, "");
        let d = diag("f\u{FF08}");
        assert_eq!(
            d.message,
            "unexpected character `\u{FF08}` (U+FF08, fullwidth `(`)"
        );
        assert_eq!(d.suggestions[0].replacement, "(");
        let d = diag("x = `a`");
        assert_eq!(d.message, "unexpected character `` ` `` (backtick)");
        assert_eq!(fix(&d).1, Applicability::MaybeIncorrect);
    }

    #[test]
    fn semicolons_are_removed_only_at_the_end_of_a_line() {
        let d = diag("x = 1;  // c\n");
        assert_eq!(fix(&d), ("", Applicability::MachineApplicable));
        let d = diag("x = 1; y = 2\n");
        assert_eq!(fix(&d), ("\n", Applicability::MaybeIncorrect));
    }

    #[test]
    fn other_characters_are_named_too() {
        let d = diag("x = 1 $");
        assert_eq!(d.message, "unexpected character `$`");
        assert!(d.suggestions.is_empty());
        let d = diag("\u{e9}");
        assert_eq!(d.message, "unexpected character `\u{e9}` (U+00E9)");
    }
}
