//! The `// -----` line of `--split-input-file` (as `mlir-opt` has it): a
//! line that is exactly `// -----`, trailing spaces allowed, cuts a file
//! into chunks that are read as separate inputs. The one definition of a
//! marker line: `pfir opt`/`check` ([`split_chunks`]), the
//! formatter, the editor's documents and diagnostics, and check
//! generation all ask it. Lines end at `\n`, `\r\n` or a lone `\r`
//! (`fsutil::lines`).

/// The line that separates chunks under `--split-input-file`.
pub const SPLIT_MARKER: &str = "// -----";

/// Whether `line` (with or without its line break) is a marker line.
pub fn is_split_marker(line: &str) -> bool {
    line.trim_end() == SPLIT_MARKER
}

/// Whether `text` has a marker line (and so is read chunk by chunk under
/// `--split-input-file`).
pub fn has_split_marker(text: &str) -> bool {
    text.contains(SPLIT_MARKER) && fsutil::lines::lines(text).any(is_split_marker)
}

/// Splits `text` at lines that are exactly `// -----` (trailing spaces
/// allowed; lines end at `\n`, `\r\n` or a lone `\r`, `fsutil::lines`).
/// Returns `(offset, chunk)` pairs; the marker lines belong to no chunk.
pub fn split_chunks(text: &str) -> Vec<(usize, &str)> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in fsutil::lines::lines_inclusive(text) {
        let line_end = offset + line.len();
        if is_split_marker(line) {
            chunks.push((start, &text[start..offset]));
            start = line_end;
        }
        offset = line_end;
    }
    chunks.push((start, &text[start..]));
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_is_alone_on_its_line() {
        for line in [
            "// -----",
            "// -----  ",
            "// -----\n",
            "// -----\r\n",
            "// -----\t\r",
        ] {
            assert!(is_split_marker(line), "{line:?}");
        }
        for line in [
            "// ----- x",
            "x // -----",
            " // -----",
            "// ----",
            "//-----",
        ] {
            assert!(!is_split_marker(line), "{line:?}");
        }
        for br in ["\n", "\r\n", "\r"] {
            assert!(has_split_marker(&format!("a{br}// -----{br}b")), "{br:?}");
        }
        assert!(!has_split_marker("a // -----\rb"));
        assert!(!has_split_marker("func a() {}\n"));
    }

    #[test]
    fn every_line_break_ends_a_split_marker_line() {
        // `\n`, `\r\n` and a lone `\r` each end the marker line; the chunk
        // after it starts right past the line break.
        for br in ["\n", "\r\n", "\r"] {
            let text = format!("func a() {{}}{br}// -----  {br}func b() {{}}{br}");
            let chunks = split_chunks(&text);
            assert_eq!(chunks.len(), 2, "{br:?}");
            assert_eq!(chunks[0], (0, &*format!("func a() {{}}{br}")));
            let b = text.find("func b").unwrap();
            assert_eq!(chunks[1], (b, &*format!("func b() {{}}{br}")));
        }
        // A marker that is not alone on its line splits nothing.
        assert_eq!(split_chunks("// ----- x\rfunc a() {}\r").len(), 1);
        assert_eq!(split_chunks("func a() {} // -----\r").len(), 1);
    }
}
