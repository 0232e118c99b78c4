//! Canonicalized text: the check file and the input as the matcher sees them.
//!
//! Like LLVM FileCheck, both buffers are canonicalized before anything is
//! parsed or matched: `\r\n` becomes `\n`, and (unless `--strict-whitespace`)
//! every run of spaces and tabs becomes a single space. This module owns that
//! transformation and the map from canonical offsets back to the original
//! text, so reports can point at what the user actually wrote.

/// How many canonical bytes lie between two recorded original offsets.
const STEP: usize = 64;

/// A buffer after canonicalization, with the way back to the original.
///
/// The way back costs one offset per [`STEP`] canonical bytes (not one per
/// byte), so a run holds the input about twice, not ten times: an offset
/// between two checkpoints is found by replaying the canonicalization from
/// the checkpoint before it.
#[derive(Debug, Clone)]
pub(crate) struct Canon<'a> {
    /// The text the matcher works on.
    pub text: String,
    src: &'a str,
    strict: bool,
    /// `checkpoints[k]` is the original offset of canonical byte `k * STEP`.
    checkpoints: Vec<usize>,
}

impl<'a> Canon<'a> {
    /// Canonicalizes `orig`; `strict` keeps horizontal whitespace as is.
    pub fn new(orig: &'a str, strict: bool) -> Canon<'a> {
        let bytes = orig.as_bytes();
        let mut text = Vec::with_capacity(bytes.len());
        let mut checkpoints = Vec::with_capacity(bytes.len() / STEP + 1);
        let mut special = Special::new(bytes, strict);
        let mut i = skip_cr(bytes, 0);
        while i < bytes.len() {
            // The bytes up to the next one that may change are copied as
            // they are, in one piece, with the checkpoints that fall in it.
            let run = special.next(i) - i;
            if run > 0 {
                fsutil::cancel::checkpoint();
                let c0 = text.len();
                let mut c = c0.next_multiple_of(STEP);
                while c < c0 + run {
                    checkpoints.push(i + (c - c0));
                    c += STEP;
                }
                text.extend_from_slice(&bytes[i..i + run]);
                i = skip_cr(bytes, i + run);
                continue;
            }
            if text.len() % STEP == 0 {
                fsutil::cancel::checkpoint();
                checkpoints.push(i);
            }
            let b = bytes[i];
            let collapse = !strict && (b == b' ' || b == b'\t');
            text.push(if collapse { b' ' } else { b });
            i = next(bytes, i, strict);
        }
        // Only ASCII bytes were dropped or replaced, so this stays UTF-8.
        let text = String::from_utf8(text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Canon {
            text,
            src: orig,
            strict,
            checkpoints,
        }
    }

    /// The original byte offset of canonical offset `c`.
    pub fn orig(&self, c: usize) -> usize {
        if c >= self.text.len() {
            return self.src.len();
        }
        let k = c / STEP;
        let mut o = self.checkpoints[k];
        for _ in k * STEP..c {
            o = next(self.src.as_bytes(), o, self.strict);
        }
        o
    }
}

/// Where the next byte that canonicalization may change is: a `\r`, and
/// unless `strict` a tab or the first of two blanks (a single space
/// between other bytes stays as it is). Each search's answer is kept
/// until the scan passes it, so the input is searched once.
struct Special<'b> {
    bytes: &'b [u8],
    strict: bool,
    /// The next `\r` (or tab) at or after the last asked position.
    cr_tab: usize,
    /// The next two spaces at or after the last asked position.
    spaces: usize,
}

impl<'b> Special<'b> {
    fn new(bytes: &'b [u8], strict: bool) -> Self {
        Special {
            bytes,
            strict,
            cr_tab: 0,
            spaces: 0,
        }
    }

    /// The first position at or after `i` whose byte may change (or the
    /// end).
    fn next(&mut self, i: usize) -> usize {
        let b = self.bytes;
        let find = |pos: usize, f: &dyn Fn(&[u8]) -> Option<usize>| {
            f(&b[pos..]).map_or(b.len(), |k| pos + k)
        };
        if self.cr_tab < i {
            self.cr_tab = if self.strict {
                find(i, &|h| memchr::memchr(b'\r', h))
            } else {
                find(i, &|h| memchr::memchr2(b'\r', b'\t', h))
            };
        }
        if self.strict {
            return self.cr_tab;
        }
        if self.spaces < i {
            self.spaces = find(i, &|h| memchr::memmem::find(h, b"  "));
        }
        let mut at = self.cr_tab.min(self.spaces);
        // A space before a tab starts the blank run the tab is in.
        if at > i && at < b.len() && b[at] == b'\t' && b[at - 1] == b' ' {
            at -= 1;
        }
        at
    }
}

/// Skips a `\r` that starts a `\r\n` at `i` (it has no canonical byte).
fn skip_cr(bytes: &[u8], i: usize) -> usize {
    if bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) == Some(&b'\n') {
        i + 1
    } else {
        i
    }
}

/// The original offset of the canonical byte after the one at `i`.
fn next(bytes: &[u8], mut i: usize, strict: bool) -> usize {
    let b = bytes[i];
    i += 1;
    if !strict && (b == b' ' || b == b'\t') {
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
    }
    skip_cr(bytes, i)
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
    fn offsets_map_back_across_checkpoints() {
        // Compare with a per-byte replay over inputs longer than STEP.
        let pieces = [
            "ab  \t c\r\nd \r\n\r\n",
            "a b \tc\t d \r e\r\r\n \r\n",
            " x\ty  z \n\t\t \n",
        ];
        for (orig, strict) in pieces
            .iter()
            .map(|p| p.repeat(40))
            .flat_map(|o| [(o.clone(), false), (o, true)])
        {
            let c = Canon::new(&orig, strict);
            let mut expect = Vec::new();
            let b = orig.as_bytes();
            let mut i = skip_cr(b, 0);
            while i < b.len() {
                expect.push(i);
                i = next(b, i, strict);
            }
            let blank = |x: u8| !strict && (x == b' ' || x == b'\t');
            let want: Vec<u8> = expect
                .iter()
                .map(|&i| if blank(b[i]) { b' ' } else { b[i] })
                .collect();
            assert_eq!(c.text.as_bytes(), want, "{orig:?}");
            for (k, e) in expect.iter().enumerate() {
                assert_eq!(c.orig(k), *e, "offset {k}");
            }
            assert_eq!(c.orig(c.text.len()), orig.len());
        }
        let c = Canon::new("\r\nx", false);
        assert_eq!((c.text.as_str(), c.orig(0), c.orig(1)), ("\nx", 1, 2));
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
