//! Canonicalized text: the check file and the input as the matcher sees them.
//!
//! Like LLVM FileCheck, both buffers are canonicalized before anything is
//! parsed or matched: `\r\n` becomes `\n`, and (unless `--strict-whitespace`)
//! every run of spaces and tabs becomes a single space. This module owns that
//! transformation and the map from canonical offsets back to the original
//! text, so reports can point at what the user actually wrote.

/// A buffer after canonicalization, with the way back to the original.
#[derive(Debug, Clone)]
pub(crate) struct Canon {
    /// The text the matcher works on.
    pub text: String,
    /// `map[i]` is the original byte offset of canonical byte `i`; it has one
    /// extra entry for the end of the text.
    map: Vec<usize>,
}

impl Canon {
    /// Canonicalizes `orig`; `strict` keeps horizontal whitespace as is.
    pub fn new(orig: &str, strict: bool) -> Canon {
        let bytes = orig.as_bytes();
        let mut text = Vec::with_capacity(bytes.len());
        let mut map = Vec::with_capacity(bytes.len() + 1);
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
                continue;
            }
            if strict || (b != b' ' && b != b'\t') {
                text.push(b);
                map.push(i);
                i += 1;
                continue;
            }
            text.push(b' ');
            map.push(i);
            while i + 1 < bytes.len() && (bytes[i + 1] == b' ' || bytes[i + 1] == b'\t') {
                i += 1;
            }
            i += 1;
        }
        map.push(bytes.len());
        // Only ASCII bytes were dropped or replaced, so this stays UTF-8.
        let text = String::from_utf8(text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Canon { text, map }
    }

    /// The original byte offset of canonical offset `c`.
    pub fn orig(&self, c: usize) -> usize {
        self.map[c.min(self.map.len() - 1)]
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The largest char boundary of `text` not after `offset`.
pub(crate) fn floor_boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_runs_and_maps_back() {
        let c = Canon::new("a \t b\r\nc", false);
        assert_eq!(c.text, "a b\nc");
        assert_eq!(c.orig(2), 4);
        assert_eq!(c.orig(4), 7);
        assert_eq!(c.orig(5), 8);
    }

    #[test]
    fn strict_keeps_whitespace() {
        let c = Canon::new("a \t b\r\n", true);
        assert_eq!(c.text, "a \t b\n");
    }

    #[test]
    fn line_col_counts_chars() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("ab", 0), (1, 1));
    }
}
