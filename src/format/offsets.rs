//! Rewriting `expected-*@+N` / `@-N` / `@N` offsets after formatting.
//!
//! Each `expected-*` directive names a source line (its own, or one `@+N`
//! lines away, or line `N`). After formatting, that line's code is on
//! another output line (a statement written over three lines became one, a
//! blank line was dropped, a comment inside an expression moved above the
//! statement), so the offset is recomputed from the line map the printer
//! recorded: `--verify-diagnostics` then expects every diagnostic on the
//! same code as before. A directive whose target line holds no code or
//! comment (a blank line) is left as written.

use super::print::Tracking;
use regex::Regex;
use std::sync::LazyLock;

static DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"expected-(?:error|warning|note|remark)(@[^\s{]*)?").expect("valid regex")
});

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
/// `out_line`) with their offsets recomputed.
pub fn rewrite_comment(
    comment: &str,
    source_line: usize,
    out_line: usize,
    out_of: &[u32],
) -> String {
    DIRECTIVE
        .replace_all(comment, |caps: &regex::Captures<'_>| {
            let whole = &caps[0];
            let suffix = caps.get(1).map_or("", |m| m.as_str());
            let head = &whole[..whole.len() - suffix.len()];
            let Some((target, absolute)) = target_line(suffix, source_line) else {
                return whole.to_string();
            };
            let Some(&out) = out_of.get(target) else {
                return whole.to_string();
            };
            if out == u32::MAX {
                return whole.to_string();
            }
            let out = out as usize;
            if absolute {
                return format!("{head}@{}", out + 1);
            }
            let delta = out as i64 - out_line as i64;
            let old = target as i64 - source_line as i64;
            if delta == old {
                return whole.to_string();
            }
            match delta {
                0 => head.to_string(),
                d if d > 0 => format!("{head}@+{d}"),
                d => format!("{head}@-{}", -d),
            }
        })
        .into_owned()
}

/// The 0-based source line an `@...` suffix names, and whether it is absolute.
fn target_line(suffix: &str, line: usize) -> Option<(usize, bool)> {
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    let Some(rest) = suffix.strip_prefix('@') else {
        return suffix.is_empty().then_some((line, false));
    };
    if let Some(n) = rest.strip_prefix('+') {
        Some((line.checked_add(number(n)?)?, false))
    } else if let Some(n) = rest.strip_prefix('-') {
        Some((line.checked_sub(number(n)?)?, false))
    } else {
        Some((number(rest)?.checked_sub(1)?, true))
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite_comment;

    #[test]
    fn offsets_follow_the_code() {
        // Source line 5 went to output line 2; the comment (line 3) to line 1.
        let mut out_of = vec![u32::MAX; 8];
        out_of[5] = 2;
        assert_eq!(
            rewrite_comment("// expected-error@+2 {{x}}", 3, 1, &out_of),
            "// expected-error@+1 {{x}}"
        );
        assert_eq!(
            rewrite_comment("// expected-note@6 {{x}}", 0, 1, &out_of),
            "// expected-note@3 {{x}}"
        );
        // Unchanged distance, unknown target: untouched.
        assert_eq!(
            rewrite_comment("// expected-error@+1 {{x}}", 1, 1, &out_of),
            "// expected-error@+1 {{x}}"
        );
        // A moved comment whose target was its own line gains an offset.
        assert_eq!(
            rewrite_comment("// expected-remark {{x}}", 5, 1, &out_of),
            "// expected-remark@+1 {{x}}"
        );
        assert_eq!(
            rewrite_comment("// expected-remark@-1 {{x}}", 6, 2, &out_of),
            "// expected-remark {{x}}"
        );
    }
}
