//! Writing printed lines without trailing whitespace.
//!
//! [`TrimWriter`] takes indented lines and holds spaces back until something
//! other than a newline follows them, so no line of the output ends in a
//! space (even when a string literal spans several lines). Indentation is
//! written in bulk from a fixed buffer of spaces.

use std::io::{self, Write};

/// Bytes written into memory, at most `limit` of them: a write that would
/// pass the limit fails and writes nothing. For printed text that must not
/// grow without bound in memory (deeply nested code prints quadratically):
/// IR dumps, and the half of a block the printer renders ahead.
pub struct BoundedBuffer {
    bytes: Vec<u8>,
    limit: usize,
}

impl BoundedBuffer {
    pub fn new(limit: usize) -> BoundedBuffer {
        BoundedBuffer {
            bytes: Vec::new(),
            limit,
        }
    }

    /// What was written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl Write for BoundedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() > self.limit - self.bytes.len() {
            return Err(io::Error::other("printed text over its memory limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

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

    /// Flushes everything written and returns the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    fn push(&mut self, s: &str) -> io::Result<()> {
        let mut rest = s;
        loop {
            let (line, newline) = match memchr::memchr(b'\n', rest.as_bytes()) {
                Some(i) => (&rest[..i], Some(i)),
                None => (rest, None),
            };
            // Spaces at the end are held back (indentation arrives as a
            // run of spaces: it is only counted).
            let content = line.trim_end_matches(' ');
            if !content.is_empty() {
                self.flush_spaces()?;
                self.out.write_all(content.as_bytes())?;
            }
            self.pending_spaces += line.len() - content.len();
            let Some(i) = newline else {
                return Ok(());
            };
            self.pending_spaces = 0;
            self.out.write_all(b"\n")?;
            rest = &rest[i + 1..];
        }
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
    use super::{BoundedBuffer, TrimWriter};
    use std::io::Write;

    #[test]
    fn a_bounded_buffer_refuses_what_passes_its_limit() {
        let mut b = BoundedBuffer::new(5);
        b.write_all(b"abc").unwrap();
        assert!(b.write_all(b"def").is_err());
        b.write_all(b"de").unwrap();
        assert!(b.write_all(b"f").is_err());
        assert_eq!(b.into_bytes(), b"abcde");
    }

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
