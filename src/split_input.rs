//! The `// -----` line of `--split-input-file` (as `mlir-opt` has it): a
//! line that is exactly `// -----`, trailing spaces allowed, cuts a file
//! into chunks that are read as separate inputs. The one definition of a
//! marker line: `pfir opt`/`check` (the front end's `split_chunks`), the
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
}
