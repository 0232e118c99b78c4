//! Text-level reduction, for inputs that do not read as a valid program
//! (a predicate about a syntax or lowering error): deleting lines.
//!
//! The elements are the lines of the text other than its `// RUN:` lines,
//! which are kept. No candidate is read or checked here: only the
//! predicate judges it.

use fsutil::lines::lines_inclusive;

/// A text under reduction.
#[derive(Clone, Debug)]
pub struct Text(pub String);

impl super::delta::State for Text {
    fn text(&self) -> &str {
        &self.0
    }
}

/// The lines that may go (all but RUN lines), by position.
fn removable(text: &str) -> Vec<usize> {
    lines_inclusive(text)
        .enumerate()
        .filter(|(_, l)| !lit::has_run_lines(l))
        .map(|(i, _)| i)
        .collect()
}

pub fn count(t: &Text) -> usize {
    removable(&t.0).len()
}

/// `t` without the chosen lines.
pub fn apply(t: &Text, chosen: &[bool]) -> Text {
    let gone: Vec<usize> = removable(&t.0)
        .into_iter()
        .zip(chosen)
        .filter(|(_, c)| **c)
        .map(|(i, _)| i)
        .collect();
    let mut out = String::with_capacity(t.0.len());
    let mut next = gone.iter().peekable();
    for (i, line) in lines_inclusive(&t.0).enumerate() {
        if next.next_if(|&&g| g == i).is_none() {
            out.push_str(line);
        }
    }
    Text(out)
}
