//! Matching check strings against the input, with LLVM FileCheck's
//! algorithm: CHECK-LABEL partitions the input into blocks first; within a
//! block each check string matches its CHECK-DAG group(s) (no two DAG matches
//! of a group may overlap), then its positive pattern (`count` times), and
//! then verifies CHECK-NEXT / CHECK-SAME / CHECK-EMPTY line constraints and
//! that no CHECK-NOT pattern occurs in the skipped region.
//!
//! The outcome is a list of [`Event`]s (matches and failures) that the report
//! module turns into diagnostics and an annotated input dump.

use super::directives::{CheckString, Directive};
use std::collections::{BTreeSet, HashMap};
use std::ops::{Bound, Range};

use super::pattern::{CheckKind, MatchError, Value, Vars};

/// What happened to one directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EventKind {
    /// The directive matched `start..end`.
    Match,
    /// No match in the scanned region `start..end`.
    NotFound,
    /// A CHECK-NOT pattern matched `start..end`.
    Excluded,
    /// A NEXT / SAME / EMPTY match at `start..end` is on the wrong line;
    /// `prev_end` is where the previous match ended.
    WrongLine { prev_end: usize, message: String },
    /// The search could not be run (e.g. undefined variables) in the
    /// region `start..end`.
    Error(String),
    /// `-vv`: the CHECK-DAG match just recorded overlaps the earlier match
    /// of its group at `start..end`, and is discarded (always `extra`).
    Discarded,
}

/// One match or failure, with input offsets in the canonical input.
#[derive(Debug, Clone)]
pub(crate) struct Event<'a> {
    pub dir: &'a Directive,
    /// 1-based repetition for CHECK-COUNT.
    pub nth: usize,
    pub kind: EventKind,
    pub start: usize,
    pub end: usize,
    /// The pattern's substitutions and their values at the time (LLVM's
    /// `with "V" equal to "..."` notes): kept for failures, and for
    /// matches when `Matcher::verbose`.
    pub subst: Vec<(String, String)>,
    /// The variables a match defined, where each was captured, in input
    /// order (LLVM's `captured var` notes): kept for excluded matches,
    /// and for matches when `Matcher::verbose`.
    pub captures: Vec<(String, Range<usize>)>,
    /// Only for LLVM's verbose report (`-v`, `-vv`): a CHECK-LABEL's match
    /// while the input is cut into blocks, the end-of-input match of
    /// trailing CHECK-DAG/NOTs, a CHECK-NOT not found (a `NotFound` that
    /// is no error). Other reports leave these out.
    pub extra: bool,
}

impl Event<'_> {
    pub fn is_error(&self) -> bool {
        self.kind != EventKind::Match && !self.extra
    }
}

/// The matcher's state for one run.
pub(crate) struct Matcher<'a> {
    input: &'a str,
    vars: Vars,
    enable_var_scope: bool,
    /// `--allow-deprecated-dag-overlap`: DAG matches may overlap.
    pub allow_dag_overlap: bool,
    /// `-v`: keep the substitutions of successful matches too, and the
    /// matches of CHECK-LABELs while cutting the input into blocks.
    pub verbose: bool,
    /// `-vv`: also record CHECK-NOTs not found and end-of-input matches.
    pub very_verbose: bool,
    pub events: Vec<Event<'a>>,
    /// The captures of the last successful search (see `Event::captures`).
    captured: Vec<(String, Range<usize>)>,
}

/// Counts line breaks in `s` (`\n`, `\r`, `\r\n` and `\n\r` each count once).
fn count_newlines(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\n' || b[i] == b'\r' {
            n += 1;
            if i + 1 < b.len() && (b[i + 1] == b'\n' || b[i + 1] == b'\r') && b[i + 1] != b[i] {
                i += 1;
            }
        }
        i += 1;
    }
    n
}

impl<'a> Matcher<'a> {
    pub fn new(input: &'a str, vars: Vars, enable_var_scope: bool) -> Self {
        Matcher {
            input,
            vars,
            enable_var_scope,
            allow_dag_overlap: false,
            verbose: false,
            very_verbose: false,
            events: Vec::new(),
            captured: Vec::new(),
        }
    }

    fn event(&mut self, dir: &'a Directive, nth: usize, kind: EventKind, start: usize, end: usize) {
        let subst = if self.verbose || kind != EventKind::Match {
            dir.pat.substitutions(&self.vars)
        } else {
            Vec::new()
        };
        self.events.push(Event {
            dir,
            nth,
            kind,
            start,
            end,
            subst,
            captures: Vec::new(),
            extra: false,
        });
    }

    /// Records a match (or an excluded one) and the variables it captured.
    fn match_event(
        &mut self,
        dir: &'a Directive,
        nth: usize,
        kind: EventKind,
        (start, end): (usize, usize),
        captures: Vec<(String, Range<usize>)>,
    ) {
        self.event(dir, nth, kind, start, end);
        self.events.last_mut().expect("just pushed").captures = captures;
    }

    /// Records an event only LLVM's verbose report shows.
    fn extra_event(
        &mut self,
        dir: &'a Directive,
        nth: usize,
        kind: EventKind,
        start: usize,
        end: usize,
    ) {
        self.event(dir, nth, kind, start, end);
        self.events.last_mut().expect("just pushed").extra = true;
    }

    /// Searches for `dir` in `from..to`; records variable definitions.
    fn find(
        &mut self,
        dir: &'a Directive,
        from: usize,
        to: usize,
    ) -> Result<Option<(usize, usize)>, MatchError> {
        // Every search of every loop (labels, CHECK-DAG, CHECK-NOT, counts)
        // comes here: a cancelled run stops before the next one.
        fsutil::cancel::checkpoint();
        let found = dir.pat.find(&self.input[from..to], &self.vars)?;
        Ok(found.map(|f| {
            self.captured.clear();
            if self.verbose || dir.pat.kind == CheckKind::Not {
                for ((k, _), span) in f.defs.iter().zip(&f.spans) {
                    if let Some(r) = span {
                        self.captured
                            .push((k.clone(), from + r.start..from + r.end));
                    }
                }
                self.captured.sort_by_key(|(_, r)| r.start);
            }
            for (k, v) in f.defs {
                match v {
                    Value::Str(s) => {
                        self.vars.strs.insert(k, s);
                    }
                    Value::Num(n) => {
                        self.vars.nums.insert(k, n);
                    }
                }
            }
            (from + f.start, from + f.end)
        }))
    }

    fn match_error(&mut self, dir: &'a Directive, nth: usize, e: MatchError, at: usize, to: usize) {
        let msg = match e {
            // One error per variable, in LLVM's words (14 and 19).
            MatchError::UndefinedVariables(v) => {
                for name in v {
                    let msg = format!("undefined variable: {name}");
                    self.event(dir, nth, EventKind::Error(msg), at, to);
                }
                return;
            }
            MatchError::InvalidRegex(m) => format!("invalid regex after substitution: {m}"),
            MatchError::BacktrackLimit => format!(
                "regex with back-references gave up after {} backtracking steps (pfir's limit)",
                super::pattern::BACKTRACK_LIMIT
            ),
            MatchError::Overflow => {
                "unable to substitute variable or numeric expression: overflow error".into()
            }
            MatchError::TooLarge => format!(
                "unable to substitute variables: the substituted values exceed {} MiB",
                super::pattern::MAX_SUBSTITUTED >> 20
            ),
            MatchError::Unrepresentable(t) => format!("unable to represent numeric value '{t}'"),
        };
        self.event(dir, nth, EventKind::Error(msg), at, to);
    }

    /// Runs all check strings over the input; returns whether all passed.
    pub fn run(&mut self, strings: &'a [CheckString]) -> bool {
        let mut failed = false;
        let (mut i, mut j) = (0, 0);
        let mut buf_start = 0;
        let end = self.input.len();
        loop {
            let (region_start, mut region_end) = (buf_start, end);
            if j < strings.len() {
                if strings[j].main.pat.kind != CheckKind::Label {
                    j += 1;
                    continue;
                }
                let Some((pos, len)) = self.check(&strings[j], buf_start, end, true) else {
                    return false;
                };
                region_end = pos + len;
                buf_start = pos + len;
                j += 1;
            }
            if i != 0 && self.enable_var_scope {
                self.vars.strs.retain(|k, _| k.starts_with('$'));
                self.vars.nums.retain(|k, _| k.starts_with('$'));
            }
            let mut cur = region_start;
            while i != j {
                match self.check(&strings[i], cur, region_end, false) {
                    Some((pos, len)) => cur = pos + len,
                    None => {
                        failed = true;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            if j == strings.len() {
                break;
            }
        }
        !failed
    }

    /// Matches one check string in `start..end`; returns the absolute match
    /// position and length (LLVM's FileCheckString::Check).
    fn check(
        &mut self,
        cs: &'a CheckString,
        start: usize,
        end: usize,
        label_scan: bool,
    ) -> Option<(usize, usize)> {
        let mut last_pos = start;
        let mut nots: Vec<&'a Directive> = Vec::new();
        if !label_scan {
            last_pos = self.check_dag(cs, start, end, &mut nots)?;
        }
        let dir = &cs.main;
        let mut last_end = last_pos;
        let mut first = last_pos;
        let mut matches = Vec::new();
        for nth in 1..=dir.pat.count {
            let found = self.find(dir, last_end, end);
            if !matches!(found, Ok(Some(_))) && !label_scan {
                // LLVM reports the repetitions found before the one that
                // is not.
                for (k, s, e, caps) in std::mem::take(&mut matches) {
                    self.match_event(dir, k, EventKind::Match, (s, e), caps);
                }
            }
            match found {
                Err(e) => {
                    self.match_error(dir, nth, e, last_end, end);
                    return None;
                }
                Ok(None) => {
                    self.event(dir, nth, EventKind::NotFound, last_end, end);
                    return None;
                }
                Ok(Some((s, e))) => {
                    if nth == 1 {
                        first = s;
                    }
                    matches.push((nth, s, e, std::mem::take(&mut self.captured)));
                    last_end = e;
                }
            }
        }
        let len = last_end - first;
        if label_scan && self.verbose {
            for (nth, s, e, caps) in std::mem::take(&mut matches) {
                self.match_event(dir, nth, EventKind::Match, (s, e), caps);
                self.events.last_mut().expect("just pushed").extra = true;
            }
        }
        if !label_scan {
            let skipped = &self.input[last_pos..first];
            let kind = dir.pat.kind;
            let wrong = match kind {
                CheckKind::Next | CheckKind::Empty => {
                    let what = if kind == CheckKind::Next {
                        "NEXT"
                    } else {
                        "EMPTY"
                    };
                    match count_newlines(skipped) {
                        0 => Some(format!(
                            "{}-{what}: is on the same line as previous match",
                            dir.prefix
                        )),
                        1 => None,
                        _ => Some(format!(
                            "{}-{what}: is not on the line after the previous match",
                            dir.prefix
                        )),
                    }
                }
                CheckKind::Same if count_newlines(skipped) != 0 => Some(format!(
                    "{}-SAME: is not on the same line as the previous match",
                    dir.prefix
                )),
                _ => None,
            };
            if let Some(message) = wrong {
                self.event(
                    dir,
                    1,
                    EventKind::WrongLine {
                        prev_end: last_pos,
                        message,
                    },
                    first,
                    last_end,
                );
                return None;
            }
            if kind != CheckKind::Eof {
                for (nth, s, e, caps) in matches {
                    self.match_event(dir, nth, EventKind::Match, (s, e), caps);
                }
            } else if self.very_verbose {
                self.extra_event(dir, 1, EventKind::Match, first, last_end);
            }
            if self.check_not(&nots, last_pos, first) {
                return None;
            }
        }
        Some((first, len))
    }

    /// Returns true when some CHECK-NOT pattern matched in `start..end`.
    fn check_not(&mut self, nots: &[&'a Directive], start: usize, end: usize) -> bool {
        let mut failed = false;
        for &d in nots {
            match self.find(d, start, end) {
                Ok(None) if self.very_verbose => {
                    self.extra_event(d, 1, EventKind::NotFound, start, end);
                }
                Ok(None) => {}
                Ok(Some(m)) => {
                    let caps = std::mem::take(&mut self.captured);
                    self.match_event(d, 1, EventKind::Excluded, m, caps);
                    failed = true;
                }
                Err(e) => {
                    self.match_error(d, 1, e, start, end);
                    failed = true;
                }
            }
        }
        failed
    }

    /// Matches the CHECK-DAG groups of `cs`, collecting trailing CHECK-NOTs
    /// into `nots`; returns where the main pattern's search starts.
    fn check_dag(
        &mut self,
        cs: &'a CheckString,
        start: usize,
        end: usize,
        nots: &mut Vec<&'a Directive>,
    ) -> Option<usize> {
        if cs.dag_nots.is_empty() {
            return Some(start);
        }
        let mut start_pos = start;
        // The match ranges of the current DAG group, as (start, end): sorted
        // and non-overlapping (an empty range may share a start with
        // another), so the ends are sorted too and each overlap test or
        // insertion costs O(log n).
        let mut ranges: BTreeSet<(usize, usize)> = BTreeSet::new();
        // Per literal pattern, where its last match in this group ended. A
        // literal's occurrences all have its length, so the search from the
        // group start skips exactly the occurrences that overlap a range
        // (one range at a time); every occurrence before the last match's
        // end overlaps the ranges it skipped or that match. Starting there
        // gives the same match without skipping them again, which made
        // n identical CHECK-DAG lines cost n^2. Under `-vv` every discarded
        // match is reported, as LLVM does, so each search starts at the
        // group start.
        let mut resume: HashMap<&'a str, usize> = HashMap::new();
        let n = cs.dag_nots.len();
        for (idx, d) in cs.dag_nots.iter().enumerate() {
            if d.pat.kind == CheckKind::Not {
                nots.push(d);
                continue;
            }
            let literal = d
                .pat
                .literal()
                .filter(|_| !self.allow_dag_overlap && !self.very_verbose);
            let mut pos = literal
                .and_then(|l| resume.get(l).copied())
                .map_or(start_pos, |p| p.max(start_pos));
            loop {
                #[cfg(test)]
                DAG_SEARCHES.with(|c| c.set(c.get() + 1));
                let (s, e) = match self.find(d, pos, end) {
                    Err(e) => {
                        self.match_error(d, 1, e, pos, end);
                        return None;
                    }
                    Ok(None) => {
                        self.event(d, 1, EventKind::NotFound, pos, end);
                        return None;
                    }
                    Ok(Some(m)) => m,
                };
                let caps = std::mem::take(&mut self.captured);
                // `-vv`: every match is reported as found, then those
                // discarded as such (LLVM's order).
                let caps = if self.very_verbose {
                    self.match_event(d, 1, EventKind::Match, (s, e), caps);
                    None
                } else {
                    Some(caps)
                };
                if self.allow_dag_overlap {
                    // One range spanning the whole group, as LLVM keeps.
                    let merged = match ranges.pop_first() {
                        Some((rs, re)) => (rs.min(s), re.max(e)),
                        None => (s, e),
                    };
                    ranges.insert(merged);
                    if let Some(caps) = caps {
                        self.match_event(d, 1, EventKind::Match, (s, e), caps);
                    }
                    break;
                }
                // The first range ending after `s`: the last one starting
                // at or before `s` if it reaches past it, else the next one.
                let first_after = match ranges.range(..=(s, usize::MAX)).next_back() {
                    Some(&(rs, re)) if re > s => Some((rs, re)),
                    _ => ranges
                        .range((Bound::Excluded((s, usize::MAX)), Bound::Unbounded))
                        .next()
                        .copied(),
                };
                match first_after {
                    Some((rs, re)) if rs < e => {
                        if caps.is_none() {
                            // The match just recorded is not the directive's.
                            self.events.last_mut().expect("just pushed").extra = true;
                            self.extra_event(d, 1, EventKind::Discarded, rs, re);
                        }
                        pos = re;
                    }
                    _ => {
                        ranges.insert((s, e));
                        if let Some(l) = literal {
                            resume.insert(l, e);
                        }
                        if let Some(caps) = caps {
                            self.match_event(d, 1, EventKind::Match, (s, e), caps);
                        }
                        break;
                    }
                }
            }
            let group_ends = idx + 1 == n || cs.dag_nots[idx + 1].pat.kind == CheckKind::Not;
            if group_ends {
                if !nots.is_empty() {
                    let first = ranges.first().expect("group matched").0;
                    if self.check_not(nots, start_pos, first) {
                        return None;
                    }
                    nots.clear();
                }
                start_pos = ranges.last().expect("group matched").1;
                ranges.clear();
                resume.clear();
            }
        }
        Some(start_pos)
    }
}

#[cfg(test)]
thread_local! {
    /// Searches made for CHECK-DAG directives on this thread (tests check
    /// that they grow linearly with the directives).
    static DAG_SEARCHES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::super::directives::{ParseConfig, parse};
    use super::*;

    fn passes(check: &str, input: &str) -> bool {
        let strings = parse_check(check);
        Matcher::new(input, Vars::default(), false).run(&strings)
    }

    fn parse_check(check: &str) -> Vec<CheckString> {
        let prefixes = vec!["CHECK".to_string()];
        parse(check, &ParseConfig::defaults(&prefixes, &[])).unwrap()
    }

    #[test]
    fn next_same_empty() {
        assert!(passes("CHECK: a\nCHECK-NEXT: b\n", "a\nb\n"));
        assert!(!passes("CHECK: a\nCHECK-NEXT: b\n", "a\nx\nb\n"));
        assert!(!passes("CHECK: a\nCHECK-NEXT: b\n", "a b\n"));
        assert!(passes("CHECK: a\nCHECK-SAME: b\n", "a b\n"));
        assert!(!passes("CHECK: a\nCHECK-SAME: b\n", "a\nb\n"));
        assert!(passes(
            "CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n",
            "a\n\nb\n"
        ));
        assert!(!passes("CHECK: a\nCHECK-EMPTY:\n", "a\nx\n\n"));
    }

    #[test]
    fn dag_groups_do_not_overlap() {
        // Out-of-order matches land between earlier ones in the range set.
        assert!(passes(
            "CHECK-DAG: c\nCHECK-DAG: a\nCHECK-DAG: b\n",
            "a b c\n"
        ));
        assert!(passes(&"CHECK-DAG: x\n".repeat(300), &"x\n".repeat(300)));
        assert!(!passes(&"CHECK-DAG: x\n".repeat(301), &"x\n".repeat(300)));
        assert!(passes("CHECK-DAG: a\nCHECK-DAG: a\n", "a a\n"));
        assert!(!passes("CHECK-DAG: a\nCHECK-DAG: a\n", "a\n"));
        assert!(passes("CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", "a b c\n"));
        assert!(!passes(
            "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n",
            "a x b\n"
        ));
        assert!(passes(
            "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n",
            "x a b\n"
        ));
    }

    #[test]
    fn identical_dag_lines_search_once_each() {
        // Each search used to start at the group start and skip every
        // earlier match: n (n + 1) / 2 searches.
        let searches = |check: &str, input: &str, pass: bool| {
            DAG_SEARCHES.with(|c| c.set(0));
            assert_eq!(passes(check, input), pass);
            DAG_SEARCHES.with(|c| c.get())
        };
        let n = 2000;
        let dag = "CHECK-DAG: x\n".repeat(n);
        assert_eq!(searches(&dag, &"x\n".repeat(n), true), n);
        // Two literals taking turns, and a group after a CHECK-NOT.
        let two = "CHECK-DAG: a\nCHECK-DAG: b\n".repeat(n);
        assert_eq!(searches(&two, &"b\na\n".repeat(n), true), 2 * n);
        let groups = format!("{dag}CHECK-NOT: y\n{dag}");
        assert_eq!(searches(&groups, &"x\n".repeat(2 * n), true), 2 * n);
        // One more than there are: the last search finds nothing.
        let more = format!("{dag}CHECK-DAG: x\n");
        assert_eq!(searches(&more, &"x\n".repeat(n), false), n + 1);
        // The resumed search still skips the other patterns' matches.
        assert!(passes(
            "CHECK-DAG: x y\nCHECK-DAG: x\nCHECK-DAG: y\nCHECK-DAG: x\n",
            "x y x\ny x\n"
        ));
        assert!(!passes(
            "CHECK-DAG: x y\nCHECK-DAG: x\nCHECK-DAG: x\n",
            "x y x\n"
        ));
        // With overlaps allowed every identical line matches the first one.
        let mut m = Matcher::new("x\n", Vars::default(), false);
        m.allow_dag_overlap = true;
        let strings = parse_check("CHECK-DAG: x\nCHECK-DAG: x\n");
        assert!(m.run(&strings));
    }

    #[test]
    fn not_and_labels_and_count() {
        assert!(!passes("CHECK: a\nCHECK-NOT: b\nCHECK: c\n", "a b c\n"));
        assert!(passes("CHECK: a\nCHECK-NOT: b\nCHECK: c\n", "a c b\n"));
        assert!(passes("CHECK-COUNT-3: x\n", "x x\nx\n"));
        assert!(!passes("CHECK-COUNT-3: x\n", "x x\n"));
        assert!(passes(
            "CHECK-LABEL: f:\nCHECK: a\nCHECK-LABEL: g:\nCHECK: b\n",
            "f:\na\ng:\nb\n"
        ));
        assert!(!passes(
            "CHECK-LABEL: f:\nCHECK: b\nCHECK-LABEL: g:\n",
            "f:\na\ng:\nb\n"
        ));
    }

    #[test]
    fn variables() {
        assert!(passes(
            "CHECK: v=[[V:[0-9]+]]\nCHECK: use [[V]]\n",
            "v=12\nuse 12\n"
        ));
        assert!(!passes(
            "CHECK: v=[[V:[0-9]+]]\nCHECK: use [[V]]\n",
            "v=12\nuse 13\n"
        ));
        assert!(passes("CHECK: [[X:[a-z]+]]-[[X]]\n", "ab-cd cd-cd\n"));
    }

    #[test]
    fn empty_substitution_never_matches() {
        // LLVM: a pattern that substitution leaves empty matches nothing.
        assert!(!passes("CHECK: [[V:.*]]\nCHECK-DAG: [[V]]\n", "a\n\nb\n"));
        assert!(!passes("CHECK: x[[V:.*]]\nCHECK: [[V]]\n", "x\nb\n"));
        assert!(passes("CHECK: [[V:.*]]\nCHECK-NOT: [[V]]\n", "a\n\nb\n"));
        assert!(passes("CHECK: x[[V:.*]]\nCHECK-DAG: a[[V]]\n", "x\nab\n"));
    }

    #[test]
    fn use_inside_literal_brackets() {
        assert!(passes("CHECK: [[R:r]]\nCHECK: [[[R]]]\n", "r\n[r]\n"));
        assert!(!passes("CHECK: [[R:r]]\nCHECK: [[[R]]]\n", "r\nr]\n"));
    }

    #[test]
    fn numeric_variables() {
        assert!(passes(
            "CHECK: v=[[#N:]]\nCHECK: w=[[#N+1]]\n",
            "v=41\nw=42\n"
        ));
        assert!(!passes(
            "CHECK: v=[[#N:]]\nCHECK: w=[[#N+1]]\n",
            "v=41\nw=43\n"
        ));
        assert!(passes(
            "CHECK: [[#%.4X,N:]]\nCHECK: [[#N+1]]\n",
            "00FF\n0100\n"
        ));
        assert!(passes("CHECK: [[#%d,N:]]\nCHECK: [[#N-2]]\n", "1\n-1\n"));
        // Unsigned by default: a negative result is an overflow error.
        assert!(!passes("CHECK: [[#N:]]\nCHECK: [[#N-2]]\n", "1\n-1\n"));
        // A constraint: the definition must equal the expression.
        assert!(passes(
            "CHECK: [[#N:]]\nCHECK: [[#M:N+1]]\nCHECK: [[#M]]\n",
            "1\n2\n2\n"
        ));
        assert!(!passes("CHECK: [[#N:]]\nCHECK: [[#M:N+1]]\n", "1\n3\n"));
        // Any size (LLVM 17 and later), up to MAX_BITS bits.
        assert!(passes(
            "CHECK: [[#N:]]\nCHECK: [[#N+1]]\n",
            "99999999999999999999\n100000000000000000000\n"
        ));
        let long = "9".repeat(30_000);
        assert!(!passes("CHECK: [[#N:]]\n", &format!("{long}\n")));
    }

    #[test]
    fn newline_counting() {
        assert_eq!(count_newlines("a\r\nb\n\nc"), 3);
    }
}
