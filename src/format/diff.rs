//! A unified diff for `pfir fmt --check`, and the changed line regions the
//! editor's range formatting applies: both from the `similar` crate's
//! patience diff (unique lines as anchors, Myers' algorithm between them).
//!
//! The diff is bounded in time: past [`DIFF_TIMEOUT`] `similar` finishes
//! with a coarser (still correct) diff, so a pathological pair of large
//! texts cannot stall `--check`. Hunks have three lines of context;
//! changes closer than six lines share a hunk.

use similar::{Algorithm, DiffTag, TextDiff};
use std::time::Duration;

const CONTEXT: usize = 3;

/// How long the diff may search for a minimal result before it settles
/// for a coarser one.
pub const DIFF_TIMEOUT: Duration = Duration::from_secs(2);

/// The changed regions between the lines `a` and `b`, in order, as
/// `(a_start, a_end, b_start, b_end)`: lines `a[a_start..a_end]` became
/// `b[b_start..b_end]`; the lines between regions are equal. (The editor's
/// range formatting applies the regions that touch the range.)
pub fn line_changes(a: &[&str], b: &[&str]) -> Vec<(usize, usize, usize, usize)> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(DIFF_TIMEOUT)
        .diff_slices(a, b);
    let mut changes: Vec<(usize, usize, usize, usize)> = Vec::new();
    for op in diff.ops() {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (old, new) = (op.old_range(), op.new_range());
        match changes.last_mut() {
            // Adjacent edits (a delete then an insert) make one region.
            Some(last) if last.1 == old.start && last.3 == new.start => {
                last.1 = old.end;
                last.3 = new.end;
            }
            _ => changes.push((old.start, old.end, new.start, new.end)),
        }
    }
    changes
}

/// The unified diff from `old` to `new` (empty when they are equal), with
/// `---`/`+++` headers naming `path`.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(DIFF_TIMEOUT)
        .diff_lines(old, new);
    diff.unified_diff()
        .context_radius(CONTEXT)
        .header(path, &format!("{path} (formatted)"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::{line_changes, unified};

    /// Whole diffs, each case named: (name, old, new, the diff).
    #[test]
    fn exact_diffs() {
        let cases = [
            (
                "one hunk with context",
                "a\nb\nc\nd\ne\nf\ng\nh\n",
                "a\nb\nc\nd\nE\nf\ng\nh\n",
                "--- x\n+++ x (formatted)\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n",
            ),
            (
                "joined lines and moved comment",
                "func f() {\n  x = a +\n    1\n  y = 2\n}\n",
                "func f() {\n  x = a + 1\n  y = 2\n}\n",
                "--- x\n+++ x (formatted)\n@@ -1,5 +1,4 @@\n func f() {\n-  x = a +\n-    1\n+  x = a + 1\n   y = 2\n }\n",
            ),
            // A one-line range is written `-N` (GNU diff's form), not `-N,1`.
            (
                "a one-line hunk is a valid unified diff",
                "a\n",
                "b\n",
                "--- x\n+++ x (formatted)\n@@ -1 +1 @@\n-a\n+b\n",
            ),
            ("equal texts, no diff", "a\n", "a\n", ""),
        ];
        for (name, old, new, expected) in cases {
            assert_eq!(unified("x", old, new), expected, "{name}");
        }
    }

    #[test]
    fn distant_changes_make_separate_hunks_and_unchanged_lines_stay_context() {
        let old: String = (0..30).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l2\n", "L2\n").replace("l25\n", "L25\n");
        let d = unified("x", &old, &new);
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        for hunk in [
            "@@ -1,6 +1,6 @@\n l0\n l1\n-l2\n+L2\n l3\n",
            "@@ -23,7 +23,7 @@\n l22\n l23\n l24\n-l25\n+L25\n",
        ] {
            assert!(d.contains(hunk), "{d}");
        }
        assert!(!d.contains("-l10"), "{d}");
    }

    #[test]
    fn line_changes_are_the_regions_between_equal_lines() {
        let a = ["f {\n", "  x = 1 +\n", "    2\n", "  y\n", "}\n", "z\n"];
        let b = ["f {\n", "  x = 1 + 2\n", "  y\n", "}\n", "w\n", "z\n"];
        assert_eq!(line_changes(&a, &b), vec![(1, 3, 1, 2), (5, 5, 4, 5)]);
        assert!(line_changes(&a, &a).is_empty());
    }

    #[test]
    fn missing_final_newline_is_marked() {
        let d = unified("x", "a", "a\n");
        assert!(d.contains("-a\n\\ No newline at end of file\n+a\n"), "{d}");
    }
}
