//! Rendering a layout document to text without trailing whitespace.
//!
//! `pretty` writes a line's indentation before it knows what follows, so an
//! empty line inside a `nest` would carry spaces. [`TrimWriter`] holds spaces
//! back until something other than a newline follows them, so no line of
//! the output ends in a space. Lines are never wrapped: documents render at
//! an unbounded width.

use pretty::{Render, RenderAnnotated};

/// Renders `doc` with no width limit and no trailing spaces.
pub fn render(doc: &super::stmt::Doc<'_>) -> String {
    let mut writer = TrimWriter::default();
    let result: Result<(), std::convert::Infallible> = doc.render_raw(usize::MAX, &mut writer);
    match result {
        Ok(()) => writer.out,
        Err(never) => match never {},
    }
}

/// A [`Render`] target that drops spaces at the end of lines (and of the text).
#[derive(Default)]
pub struct TrimWriter {
    out: String,
    /// Spaces seen but not yet written: they are written only when more
    /// text follows on the same line.
    pending_spaces: usize,
}

impl TrimWriter {
    fn push(&mut self, s: &str) {
        // Indentation arrives as runs of spaces: just count them.
        if s.bytes().all(|b| b == b' ') {
            self.pending_spaces += s.len();
            return;
        }
        for piece in s.split_inclusive('\n') {
            let (line, newline) = match piece.strip_suffix('\n') {
                Some(line) => (line, true),
                None => (piece, false),
            };
            let content = line.trim_end_matches(' ');
            if !content.is_empty() {
                self.flush_spaces();
                self.out.push_str(content);
            }
            self.pending_spaces += line.len() - content.len();
            if newline {
                self.pending_spaces = 0;
                self.out.push('\n');
            }
        }
    }
}

impl TrimWriter {
    fn flush_spaces(&mut self) {
        const SPACES: &str = match std::str::from_utf8(&[b' '; 1024]) {
            Ok(s) => s,
            Err(_) => panic!("spaces are UTF-8"),
        };
        while self.pending_spaces > 0 {
            let n = self.pending_spaces.min(SPACES.len());
            self.out.push_str(&SPACES[..n]);
            self.pending_spaces -= n;
        }
    }
}

impl Render for TrimWriter {
    type Error = std::convert::Infallible;

    fn write_str(&mut self, s: &str) -> Result<usize, Self::Error> {
        self.push(s);
        Ok(s.len())
    }

    fn write_str_all(&mut self, s: &str) -> Result<(), Self::Error> {
        self.push(s);
        Ok(())
    }

    fn fail_doc(&self) -> Self::Error {
        unreachable!("the printer builds no failing documents")
    }
}

impl<A> RenderAnnotated<'_, A> for TrimWriter {
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
        let mut w = TrimWriter::default();
        for s in [
            "a", "\n", "    ", "\n", "  ", "b c  ", "\n", "  ", "d", "   ",
        ] {
            w.push(s);
        }
        assert_eq!(w.out, "a\n\n  b c\n  d");
    }
}
