//! A unified diff for `pfir fmt --check`.
//!
//! Linear: the lines the two texts share at their start and end are
//! trimmed, and what differs in between is one hunk (with up to three lines
//! of context on each side). A formatter's changes are usually spread out,
//! so the hunk may hold unchanged lines as `-`/`+` pairs; it is still a
//! valid diff that `patch` applies.

/// The unified diff from `old` to `new` (empty when they are equal), with
/// `---`/`+++` headers naming `path`.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max_suffix)
        .take_while(|(x, y)| x == y)
        .count();
    const CONTEXT: usize = 3;
    let start = prefix.saturating_sub(CONTEXT);
    let a_end = (a.len() - suffix + CONTEXT).min(a.len());
    let b_end = (b.len() - suffix + CONTEXT).min(b.len());
    let mut out = format!("--- {path}\n+++ {path} (formatted)\n");
    let range = |from: usize, to: usize| {
        let n = to - from;
        let first = if n == 0 { from } else { from + 1 };
        format!("{first},{n}")
    };
    out.push_str(&format!(
        "@@ -{} +{} @@\n",
        range(start, a_end),
        range(start, b_end)
    ));
    let mut push = |sign: char, line: &str| {
        out.push(sign);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    };
    for line in &a[start..prefix] {
        push(' ', line);
    }
    for line in &a[prefix..a.len() - suffix] {
        push('-', line);
    }
    for line in &b[prefix..b.len() - suffix] {
        push('+', line);
    }
    for line in &a[a.len() - suffix..a_end] {
        push(' ', line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn one_hunk_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assert_eq!(
            unified("x", old, new),
            "--- x\n+++ x (formatted)\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
    }

    #[test]
    fn equal_texts_no_diff() {
        assert_eq!(unified("x", "a\n", "a\n"), "");
    }

    #[test]
    fn missing_final_newline_is_marked() {
        let d = unified("x", "a", "a\n");
        assert!(d.contains("-a\n\\ No newline at end of file\n+a\n"), "{d}");
    }
}
