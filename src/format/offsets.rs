//! Rewriting `expected-*@+N` / `@-N` / `@N` offsets after formatting.
//!
//! Each `expected-*` directive names a source line (its own, or one `@+N`
//! lines away, or line `N`). After formatting, that line's code is on
//! another output line (a statement written over three lines became one, a
//! blank line was dropped, a comment inside an expression moved above the
//! statement), so the offset is recomputed from the line map the printer
//! recorded: `--verify-diagnostics` then expects every diagnostic on the
//! same code as before. A directive whose target line holds no code or
//! comment (a blank line) is left as written. Directives are read by the
//! one reader, [`crate::testing::expected`].

use super::print::Tracking;
use crate::lexer::expected::{Found, Line, Problem, scan};

/// Rewrites the offsets in `output` (the formatted text, `\n` line ends).
pub fn rewrite(output: String, tracking: &Tracking) -> String {
    if tracking.directives.is_empty() {
        return output;
    }
    let mut lines: Vec<String> = output.split('\n').map(str::to_string).collect();
    for d in &tracking.directives {
        let Some(line) = lines.get(d.out_line) else {
            continue;
        };
        let Some(start) = crate::lexer::line_comment_start(line) else {
            continue;
        };
        let (code, comment) = line.split_at(start);
        let rewritten = rewrite_comment(comment, d.source_line, d.out_line, &tracking.out_of);
        if rewritten != comment {
            lines[d.out_line] = format!("{code}{rewritten}");
        }
    }
    lines.join("\n")
}

/// The directives of `comment` (read from `source_line`, printed on
/// `out_line`) with their offsets recomputed. Directives are those of
/// [`crate::testing::expected`]; one with a malformed line is left alone.
pub fn rewrite_comment(
    comment: &str,
    source_line: usize,
    out_line: usize,
    out_of: &[u32],
) -> String {
    let mut out = String::with_capacity(comment.len());
    let mut copied = 0;
    for found in scan(comment) {
        let Found::Directive(d) = found else { continue };
        if d.problem == Some(Problem::BadLine) {
            continue;
        }
        let Some(target) = d.line.target(source_line) else {
            continue;
        };
        let Some(&out_target) = out_of.get(target) else {
            continue;
        };
        if out_target == u32::MAX {
            continue;
        }
        let out_target = out_target as usize;
        let suffix = if let Line::Absolute(_) = d.line {
            format!("@{}", out_target + 1)
        } else {
            let delta = out_target as i64 - out_line as i64;
            let old = target as i64 - source_line as i64;
            if delta == old {
                continue;
            }
            match delta {
                0 => String::new(),
                d if d > 0 => format!("@+{d}"),
                d => format!("@-{}", -d),
            }
        };
        out.push_str(&comment[copied..d.suffix.start]);
        out.push_str(&suffix);
        copied = d.suffix.end;
    }
    out.push_str(&comment[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::rewrite_comment;

    #[test]
    fn offsets_follow_the_code() {
        // Source line 5 went to output line 2; the comment (line 3) to line 1.
        let mut out_of = vec![u32::MAX; 8];
        out_of[5] = 2;
        // (comment, its source line, its output line, the comment written)
        let cases = [
            (
                "// expected-error@+2 {{x}}",
                3,
                1,
                "// expected-error@+1 {{x}}",
            ),
            ("// expected-note@6 {{x}}", 0, 1, "// expected-note@3 {{x}}"),
            // Unchanged distance, unknown target: untouched.
            (
                "// expected-error@+1 {{x}}",
                1,
                1,
                "// expected-error@+1 {{x}}",
            ),
            // A moved comment whose target was its own line gains an offset.
            (
                "// expected-remark {{x}}",
                5,
                1,
                "// expected-remark@+1 {{x}}",
            ),
            (
                "// expected-remark@-1 {{x}}",
                6,
                2,
                "// expected-remark {{x}}",
            ),
        ];
        for (comment, source_line, out_line, want) in cases {
            assert_eq!(
                rewrite_comment(comment, source_line, out_line, &out_of),
                want,
                "{comment}"
            );
        }
    }
}
