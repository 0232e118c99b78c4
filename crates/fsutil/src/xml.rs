//! The one XML escaper of the workspace, for XML 1.0 character data and
//! attribute values: `pfir graph`'s SVG and HTML and `pfir test`'s JUnit
//! report both write through it.
//!
//! - The five markup characters become `&amp;`, `&lt;`, `&gt;`, `&quot;`
//!   and `&apos;` (so one function serves text and attributes, quoted
//!   either way).
//! - A carriage return becomes `&#13;`: written as itself, a parser's
//!   end-of-line handling would turn it (and a following line feed) into
//!   one line feed. In attribute values, tab and line feed also become
//!   `&#9;` and `&#10;`, which attribute-value normalization would
//!   otherwise turn into spaces; in text they stay as they are.
//! - Characters XML 1.0 cannot hold at all, even as references (the C0
//!   controls other than tab, line feed and carriage return, and the
//!   noncharacters U+FFFE and U+FFFF), are written as the visible text
//!   `\u{..}` (`\u{1}`), so a report still shows what was there.
//!   Everything else, other noncharacters included, is allowed and kept.

/// `s` made safe as XML 1.0 character data (element content).
pub fn escape_text(s: &str) -> String {
    escape(s, false)
}

/// `s` made safe as an XML 1.0 attribute value, in double or single
/// quotes, that reads back exactly as `s` (tabs and line breaks included).
pub fn escape_attribute(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\r' => out.push_str("&#13;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {
                out.extend(c.escape_unicode());
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{escape_attribute, escape_text};

    #[test]
    fn markup_characters_are_escaped_in_both() {
        for escape in [escape_text, escape_attribute] {
            assert_eq!(
                escape("a<b>&\"c\"'d"),
                "a&lt;b&gt;&amp;&quot;c&quot;&apos;d"
            );
            assert_eq!(escape("plain é 漢 🦀"), "plain é 漢 🦀");
        }
    }

    /// The awkward characters: line ends, tabs, controls, noncharacters.
    #[test]
    fn awkward_characters() {
        let s = "a\tb\nc\rd\r\ne\u{0}\u{1}\u{1b}\u{7f}\u{fffe}\u{ffff}\u{fffd}\u{fdd0}\u{10ffff}";
        assert_eq!(
            escape_text(s),
            "a\tb\nc&#13;d&#13;\ne\\u{0}\\u{1}\\u{1b}\u{7f}\\u{fffe}\\u{ffff}\u{fffd}\u{fdd0}\u{10ffff}"
        );
        assert_eq!(
            escape_attribute(s),
            "a&#9;b&#10;c&#13;d&#13;&#10;e\\u{0}\\u{1}\\u{1b}\u{7f}\\u{fffe}\\u{ffff}\u{fffd}\u{fdd0}\u{10ffff}"
        );
    }

    /// No character XML 1.0 forbids is left, and nothing is escaped twice.
    #[test]
    fn output_holds_only_xml_characters() {
        let all: String = (0u32..0x11_0000).filter_map(char::from_u32).collect();
        for out in [escape_text(&all), escape_attribute(&all)] {
            let bad = out.chars().find(|&c| {
                let n = c as u32;
                !(matches!(n, 0x9 | 0xA | 0x20..=0xD7FF | 0x1_0000..=0x10_FFFF)
                    || (0xE000..=0xFFFD).contains(&n))
            });
            assert_eq!(bad, None);
            assert!(!out.contains('\r'));
        }
        assert_eq!(escape_text("&amp;"), "&amp;amp;");
    }
}
