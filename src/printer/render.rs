//! Writing printed lines without trailing whitespace.
//!
//! [`TrimWriter`] takes indented lines and holds spaces back until something
//! other than a newline follows them, so no line of the output ends in a
//! space (even when a string literal spans several lines). Indentation is
//! written in bulk from a fixed buffer of spaces.

use std::io::{self, Write};

/// A writer of lines that drops spaces at the end of lines (and of the text).
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

    /// Writes `text` indented by `depth` levels (two spaces each); the
    /// line is ended by [`TrimWriter::newline`].
    pub fn line(&mut self, depth: usize, text: &str) -> io::Result<()> {
        self.pending_spaces += 2 * depth;
        self.push(text)
    }

    /// Ends the current line.
    pub fn newline(&mut self) -> io::Result<()> {
        self.pending_spaces = 0;
        self.out.write_all(b"\n")
    }

    /// Writes `lines`, text that another [`TrimWriter`] wrote and that
    /// starts with a newline (which drops the spaces held back here).
    pub fn lines(&mut self, lines: &[u8]) -> io::Result<()> {
        self.pending_spaces = 0;
        self.out.write_all(lines)
    }

    /// Flushes everything written and returns the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
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
