//! Rendering a layout document to text without trailing whitespace.
//!
//! `pretty` writes a line's indentation before it knows what follows, so an
//! empty line inside a `nest` would carry spaces. [`TrimWriter`] holds spaces
//! back until something other than a newline follows them, so no line of
//! the output ends in a space. Lines are never wrapped: documents render at
//! an unbounded width.

use pretty::{Render, RenderAnnotated};
use std::io::{self, Write};

/// Renders `doc` with no width limit and no trailing spaces.
pub fn render(doc: &super::stmt::Doc<'_>) -> String {
    let mut bytes = Vec::new();
    // Writing to a `Vec` cannot fail.
    let _ = render_to(doc, &mut bytes);
    // Every piece written is a `&str`, so the bytes are UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Renders `doc` into `out` as it goes (no copy of the whole text is held),
/// with no width limit and no trailing spaces.
pub fn render_to<W: Write>(doc: &super::stmt::Doc<'_>, out: W) -> io::Result<()> {
    let mut writer = TrimWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    doc.render_raw(usize::MAX, &mut writer)?;
    writer.out.flush()
}

/// A [`Render`] target that drops spaces at the end of lines (and of the text).
pub struct TrimWriter<W: Write> {
    out: W,
    /// Spaces seen but not yet written: they are written only when more
    /// text follows on the same line.
    pending_spaces: usize,
}

impl<W: Write> TrimWriter<W> {
    pub fn new(out: W) -> TrimWriter<W> {
        TrimWriter {
            out,
            pending_spaces: 0,
        }
    }

    fn push(&mut self, s: &str) -> io::Result<()> {
        // Indentation arrives as runs of spaces: just count them.
        if s.bytes().all(|b| b == b' ') {
            self.pending_spaces += s.len();
            return Ok(());
        }
        for piece in s.split_inclusive('\n') {
            let (line, newline) = match piece.strip_suffix('\n') {
                Some(line) => (line, true),
                None => (piece, false),
            };
            let content = line.trim_end_matches(' ');
            if !content.is_empty() {
                self.flush_spaces()?;
                self.out.write_all(content.as_bytes())?;
            }
            self.pending_spaces += line.len() - content.len();
            if newline {
                self.pending_spaces = 0;
                self.out.write_all(b"\n")?;
            }
        }
        Ok(())
    }

    fn flush_spaces(&mut self) -> io::Result<()> {
        const SPACES: [u8; 1024] = [b' '; 1024];
        while self.pending_spaces > 0 {
            let n = self.pending_spaces.min(SPACES.len());
            self.out.write_all(&SPACES[..n])?;
            self.pending_spaces -= n;
        }
        Ok(())
    }
}

impl<W: Write> Render for TrimWriter<W> {
    type Error = io::Error;

    fn write_str(&mut self, s: &str) -> Result<usize, Self::Error> {
        self.push(s)?;
        Ok(s.len())
    }

    fn write_str_all(&mut self, s: &str) -> Result<(), Self::Error> {
        self.push(s)
    }

    fn fail_doc(&self) -> Self::Error {
        io::Error::other("the printer builds no failing documents")
    }
}

impl<A, W: Write> RenderAnnotated<'_, A> for TrimWriter<W> {
    fn push_annotation(&mut self, _: &A) -> Result<(), Self::Error> {
        Ok(())
    }

    fn pop_annotation(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::TrimWriter;

    #[test]
    fn drops_trailing_spaces_only() {
        let mut w = TrimWriter::new(Vec::new());
        for s in [
            "a", "\n", "    ", "\n", "  ", "b c  ", "\n", "  ", "d", "   ",
        ] {
            w.push(s).unwrap();
        }
        assert_eq!(w.out, b"a\n\n  b c\n  d");
    }
}
