//! The one definition of a line, as the Language Server Protocol has it: a
//! line ends at `\n`, at `\r\n` or at a lone `\r`. pfir's lexer,
//! diagnostics, formatter and editor positions (through
//! `pfir::span::line_starts`) and the test runner's RUN lines all read lines
//! with it, so a line break that an editor shows is one for every reader.
//! (`str::lines` differs: it does not end a line at a lone `\r`.)

/// The byte offsets where a line starts after a line break, in order (the
/// first line's start, 0, is not included).
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().filter_map(move |(i, &b)| match b {
        b'\n' => Some(i + 1),
        b'\r' if bytes.get(i + 1) != Some(&b'\n') => Some(i + 1),
        _ => None,
    })
}

/// The lines of `text`, each with its line break (the last one may have
/// none); like `str::split_inclusive('\n')` but for every line break. An
/// empty text has no lines.
pub fn lines_inclusive(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut start = 0;
    line_starts(text)
        .chain(std::iter::once(text.len()))
        .filter_map(move |end| {
            let line = (end > start).then(|| &text[start..end]);
            start = end;
            line
        })
}

/// The lines of `text` without their line breaks; like `str::lines` but
/// for every line break.
pub fn lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    lines_inclusive(text).map(strip_line_break)
}

/// `line` without its line break (`\r\n`, `\n` or `\r`).
pub fn strip_line_break(line: &str) -> &str {
    line.strip_suffix("\r\n")
        .or_else(|| line.strip_suffix('\n'))
        .or_else(|| line.strip_suffix('\r'))
        .unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_break_ends_a_line() {
        let text = "a\nb\r\nc\rd\r\re";
        assert_eq!(line_starts(text).collect::<Vec<_>>(), [2, 5, 7, 9, 10]);
        assert_eq!(
            lines_inclusive(text).collect::<Vec<_>>(),
            ["a\n", "b\r\n", "c\r", "d\r", "\r", "e"]
        );
        assert_eq!(
            lines(text).collect::<Vec<_>>(),
            ["a", "b", "c", "d", "", "e"]
        );
    }

    #[test]
    fn like_str_lines_where_it_is_right() {
        for text in ["", "\n", "a", "a\n", "a\n\nb", "a\r\nb\r\n", "\r\n\r\n"] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
            assert_eq!(lines_inclusive(text).collect::<String>(), text, "{text:?}");
        }
        // Where it is not: a lone `\r`.
        assert_eq!(lines("a\rb").count(), 2);
        assert_eq!("a\rb".lines().count(), 1);
    }
}
