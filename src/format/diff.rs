//! A unified diff for `pfir fmt --check`.
//!
//! A one-level patience diff, O(n log n): lines that occur exactly once in
//! each text are candidate anchors, the longest run of them in the same
//! order in both (a longest increasing subsequence) is matched, and between
//! two anchors the common first and last lines are matched too. Everything
//! else is a change. Changes closer than six lines share a hunk; each hunk
//! has up to three lines of context.

use std::collections::HashMap;

const CONTEXT: usize = 3;

/// The changed regions between the lines `a` and `b`, in order, as
/// `(a_start, a_end, b_start, b_end)`: lines `a[a_start..a_end]` became
/// `b[b_start..b_end]`; the lines between regions are equal. (The editor's
/// range formatting applies the regions that touch the range.)
pub fn line_changes(a: &[&str], b: &[&str]) -> Vec<(usize, usize, usize, usize)> {
    let pairs = matches(a, b);
    let mut changes = Vec::new();
    let (mut i, mut j) = (0, 0);
    for &(pi, pj) in pairs.iter().chain(std::iter::once(&(a.len(), b.len()))) {
        if pi > i || pj > j {
            changes.push((i, pi, j, pj));
        }
        i = pi + 1;
        j = pj + 1;
    }
    changes
}

/// The unified diff from `old` to `new` (empty when they are equal), with
/// `---`/`+++` headers naming `path`.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let changes = line_changes(&a, &b);
    let mut out = format!("--- {path}\n+++ {path} (formatted)\n");
    let mut k = 0;
    while k < changes.len() {
        // Group changes whose context would touch.
        let mut end = k;
        while end + 1 < changes.len() && changes[end + 1].0 - changes[end].1 <= 2 * CONTEXT {
            end += 1;
        }
        let (a0, _, b0, _) = changes[k];
        let (_, a1, _, b1) = changes[end];
        let ctx_before = a0.min(CONTEXT).min(b0);
        let ctx_after = (a.len() - a1).min(CONTEXT).min(b.len() - b1);
        let (ha, hb) = (a0 - ctx_before, b0 - ctx_before);
        let (na, nb) = (a1 + ctx_after - ha, b1 + ctx_after - hb);
        let range = |start: usize, n: usize| {
            let first = if n == 0 { start } else { start + 1 };
            format!("{first},{n}")
        };
        out.push_str(&format!("@@ -{} +{} @@\n", range(ha, na), range(hb, nb)));
        let mut ai = ha;
        for &(c_a0, c_a1, c_b0, c_b1) in &changes[k..=end] {
            for line in &a[ai..c_a0] {
                push(&mut out, ' ', line);
            }
            for line in &a[c_a0..c_a1] {
                push(&mut out, '-', line);
            }
            for line in &b[c_b0..c_b1] {
                push(&mut out, '+', line);
            }
            ai = c_a1;
        }
        for line in &a[ai..a1 + ctx_after] {
            push(&mut out, ' ', line);
        }
        k = end + 1;
    }
    out
}

fn push(out: &mut String, sign: char, line: &str) {
    out.push(sign);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

/// Matched line pairs `(i, j)`, increasing in both.
fn matches(a: &[&str], b: &[&str]) -> Vec<(usize, usize)> {
    // Lines unique in both texts, in the order of `a`.
    let mut seen: HashMap<&str, (usize, usize, usize, usize)> = HashMap::new();
    for (i, l) in a.iter().enumerate() {
        let e = seen.entry(l).or_insert((0, 0, i, 0));
        e.0 += 1;
    }
    for (j, l) in b.iter().enumerate() {
        if let Some(e) = seen.get_mut(l) {
            e.1 += 1;
            e.3 = j;
        }
    }
    let mut candidates: Vec<(usize, usize)> = seen
        .values()
        .filter(|e| e.0 == 1 && e.1 == 1)
        .map(|e| (e.2, e.3))
        .collect();
    candidates.sort_unstable();
    let anchors = longest_increasing(&candidates);
    // Between anchors (and before the first, after the last), match the
    // common first and last lines.
    let mut pairs = Vec::new();
    let (mut i, mut j) = (0, 0);
    for &(ai, bj) in anchors.iter().chain(std::iter::once(&(a.len(), b.len()))) {
        let mut x = i;
        let mut y = j;
        while x < ai && y < bj && a[x] == b[y] {
            pairs.push((x, y));
            x += 1;
            y += 1;
        }
        let mut tail = Vec::new();
        let (mut xe, mut ye) = (ai, bj);
        while xe > x && ye > y && a[xe - 1] == b[ye - 1] {
            xe -= 1;
            ye -= 1;
            tail.push((xe, ye));
        }
        pairs.extend(tail.into_iter().rev());
        if ai < a.len() {
            pairs.push((ai, bj));
        }
        i = ai + 1;
        j = bj + 1;
    }
    pairs
}

/// The longest subsequence of `pairs` (sorted by `.0`) increasing in `.1`
/// (patience sorting, n log n).
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut tails: Vec<usize> = Vec::new(); // index into pairs
    let mut prev: Vec<Option<usize>> = vec![None; pairs.len()];
    for (k, &(_, y)) in pairs.iter().enumerate() {
        let pos = tails.partition_point(|&t| pairs[t].1 < y);
        if pos > 0 {
            prev[k] = Some(tails[pos - 1]);
        }
        if pos == tails.len() {
            tails.push(k);
        } else {
            tails[pos] = k;
        }
    }
    let mut out = Vec::new();
    let mut cur = tails.last().copied();
    while let Some(k) = cur {
        out.push(pairs[k]);
        cur = prev[k];
    }
    out.reverse();
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
    fn distant_changes_make_separate_hunks_and_unchanged_lines_stay_context() {
        let old: String = (0..30).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l2\n", "L2\n").replace("l25\n", "L25\n");
        let d = unified("x", &old, &new);
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        assert!(
            d.contains("@@ -1,6 +1,6 @@\n l0\n l1\n-l2\n+L2\n l3\n"),
            "{d}"
        );
        assert!(
            d.contains("@@ -23,7 +23,7 @@\n l22\n l23\n l24\n-l25\n+L25\n"),
            "{d}"
        );
        assert!(!d.contains("-l10"), "{d}");
    }

    #[test]
    fn joined_lines_and_moved_comment() {
        let old = "func f() {\n  x = a +\n    1\n  y = 2\n}\n";
        let new = "func f() {\n  x = a + 1\n  y = 2\n}\n";
        assert_eq!(
            unified("x", old, new),
            "--- x\n+++ x (formatted)\n@@ -1,5 +1,4 @@\n func f() {\n-  x = a +\n-    1\n+  x = a + 1\n   y = 2\n }\n"
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
