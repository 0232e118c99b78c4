//! The linear-time regex engine of patterns: regex-automata's meta regex,
//! configured without its fully compiled DFA.
//!
//! The `regex` crate builds a full DFA for every small regex when
//! regex-automata's `dfa` feature is on (fancy-regex turns it on). Most of
//! a check file's regexes are searched once, so that determinization was
//! most of pfir's time on MLIR's tests; the lazy DFA searches as fast on
//! one pass. Captures and matches come back in the shape the rest of
//! `pattern` used from the `regex` crate.
//!
//! Like LLVM's POSIX regex, a regex works on bytes: `.` and `[^x]` match
//! one byte, and a non-ASCII character in a pattern stands for its UTF-8
//! bytes. Haystacks are text, so a match whose edge falls inside a
//! multi-byte character is widened to take in the whole character.

use regex_automata::util::captures::Captures as RaCaptures;
use regex_automata::util::syntax;
use regex_automata::{Input, meta};

/// How a regex is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Flags {
    /// ASCII letters only, as LLVM's `REG_ICASE`.
    pub ignore_case: bool,
}

impl Flags {
    pub fn of(set: crate::pattern::ParseSettings) -> Flags {
        Flags {
            ignore_case: set.ignore_case,
        }
    }
}

/// `start..end` widened to the character boundaries of `hay`.
fn widen(hay: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    while !hay.is_char_boundary(start) {
        start -= 1;
    }
    while !hay.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// A compiled regex (multi-line; optionally case-insensitive).
#[derive(Debug, Clone)]
pub(crate) struct Regex {
    /// Shared by the copies the cache hands out (with its search caches).
    re: std::sync::Arc<meta::Regex>,
}

/// One match in a haystack.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Match<'h> {
    hay: &'h str,
    start: usize,
    end: usize,
}

impl<'h> Match<'h> {
    fn new(hay: &'h str, start: usize, end: usize) -> Match<'h> {
        let (start, end) = widen(hay, start, end);
        Match { hay, start, end }
    }

    pub fn start(&self) -> usize {
        self.start
    }

    pub fn end(&self) -> usize {
        self.end
    }

    pub fn as_str(&self) -> &'h str {
        &self.hay[self.start..self.end]
    }
}

/// The groups of one match.
#[derive(Debug)]
pub(crate) struct Captures<'h> {
    hay: &'h str,
    caps: RaCaptures,
}

impl<'h> Captures<'h> {
    pub fn get(&self, i: usize) -> Option<Match<'h>> {
        self.caps
            .get_group(i)
            .map(|s| Match::new(self.hay, s.start, s.end))
    }

    pub fn name(&self, name: &str) -> Option<Match<'h>> {
        self.caps
            .get_group_by_name(name)
            .map(|s| Match::new(self.hay, s.start, s.end))
    }
}

/// Checks the syntax of `src` as [`Regex::build`] would, compiling nothing.
pub(crate) fn validate(src: &str, flags: Flags) -> Result<(), String> {
    may_match_newline(src, flags).map(drop)
}

/// Checks the syntax of `src` as [`validate`] does, and says whether a
/// match of it may hold a line break (a `\n` in a literal or a class:
/// `[^x]`, `\s`; `.` holds none). A source found valid earlier in the run
/// is not parsed again (check files repeat their lines and blocks;
/// parsing was most of the time of reading a large check file).
pub(crate) fn may_match_newline(src: &str, flags: Flags) -> Result<bool, String> {
    let key = (src.to_string(), flags);
    if let Some(multi) = VALID.with(|v| v.borrow().get(&key).copied()) {
        return Ok(multi);
    }
    let hir = syntax::parse_with(src, &syntax_config(flags)).map_err(|e| e.to_string())?;
    let multi = holds_newline(&hir);
    VALID.with(|v| {
        let mut v = v.borrow_mut();
        if v.len() >= CACHE_ENTRIES {
            v.clear();
        }
        v.insert(key, multi);
    });
    Ok(multi)
}

/// Whether some match of `hir` holds a `\n`.
fn holds_newline(hir: &regex_syntax::hir::Hir) -> bool {
    use regex_syntax::hir::{Class, HirKind};
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(l) => l.0.contains(&b'\n'),
        HirKind::Class(Class::Bytes(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= b'\n' && b'\n' <= r.end()),
        HirKind::Class(Class::Unicode(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= '\n' && '\n' <= r.end()),
        HirKind::Repetition(r) => holds_newline(&r.sub),
        HirKind::Capture(c) => holds_newline(&c.sub),
        HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().any(holds_newline),
    }
}

fn syntax_config(flags: Flags) -> syntax::Config {
    syntax::Config::new()
        .multi_line(true)
        .case_insensitive(flags.ignore_case)
        .unicode(false)
        .utf8(false)
}

/// How many compiled regexes [`Regex::build`] keeps for reuse.
const CACHE_ENTRIES: usize = 4096;

thread_local! {
    /// The regexes compiled during this thread's current check run, by
    /// source: a check file repeats its patterns (`{{.*}}`, the same line
    /// for every function), and compiling costs far more than matching a
    /// line. Emptied by [`clear_cache`] at the start of each run, and when
    /// full.
    static CACHE: std::cell::RefCell<std::collections::HashMap<(String, Flags, usize, bool), Regex>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

thread_local! {
    /// The sources [`may_match_newline`] found valid during this thread's
    /// current run, and its answer. Emptied by [`clear_cache`], and when full.
    static VALID: std::cell::RefCell<std::collections::HashMap<(String, Flags), bool>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Forgets the regexes of the previous run on this thread.
pub(crate) fn clear_cache() {
    CACHE.with(|c| c.borrow_mut().clear());
    VALID.with(|v| v.borrow_mut().clear());
}

impl Regex {
    /// Compiles `src` (or reuses the regex compiled from it earlier in this
    /// run); an NFA over `size_limit` bytes is refused with the `regex`
    /// crate's message.
    pub fn build(src: &str, flags: Flags, size_limit: usize) -> Result<Regex, String> {
        Self::build_as(src, flags, size_limit, false)
    }

    /// Compiles `src` for searches of a line or two ([`Regex::captures_in`]
    /// on short ranges): without the lazy DFA, its reverse NFA and
    /// caches, which cost more to build than such a search.
    pub fn build_for_lines(src: &str, flags: Flags, size_limit: usize) -> Result<Regex, String> {
        Self::build_as(src, flags, size_limit, true)
    }

    fn build_as(src: &str, flags: Flags, size_limit: usize, lines: bool) -> Result<Regex, String> {
        let key = (src.to_string(), flags, size_limit, lines);
        if let Some(re) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
            return Ok(re);
        }
        let re = Self::compile(src, flags, size_limit, lines)?;
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= CACHE_ENTRIES {
                c.clear();
            }
            c.insert(key, re.clone());
        });
        Ok(re)
    }

    fn compile(src: &str, flags: Flags, size_limit: usize, lines: bool) -> Result<Regex, String> {
        let config = meta::Config::new()
            .utf8_empty(false)
            .nfa_size_limit(Some(size_limit))
            .onepass_size_limit(Some(size_limit))
            .dfa(false);
        let config = if lines {
            config.hybrid(false).onepass(false).auto_prefilter(false)
        } else {
            config
        };
        meta::Regex::builder()
            .syntax(syntax_config(flags))
            .configure(config)
            .build(src)
            .map(|re| Regex {
                re: std::sync::Arc::new(re),
            })
            .map_err(|e| match (e.syntax_error(), e.size_limit()) {
                (Some(s), _) => s.to_string(),
                (None, Some(limit)) => {
                    format!("Compiled regex exceeds size limit of {limit} bytes.")
                }
                (None, None) => e.to_string(),
            })
    }

    pub fn find<'h>(&self, hay: &'h str) -> Option<Match<'h>> {
        self.re
            .find(hay)
            .map(|m| Match::new(hay, m.start(), m.end()))
    }

    pub fn captures<'h>(&self, hay: &'h str) -> Option<Captures<'h>> {
        self.captures_at(hay, 0)
    }

    /// Captures of the match starting exactly at `start`, if any (the
    /// text before `start` still counts for `^` and word boundaries).
    pub fn captures_anchored_at<'h>(&self, hay: &'h str, start: usize) -> Option<Captures<'h>> {
        let mut caps = self.re.create_captures();
        let input = Input::new(hay)
            .range(start..)
            .anchored(regex_automata::Anchored::Yes);
        self.re.search_captures(&input, &mut caps);
        caps.is_match().then_some(Captures { hay, caps })
    }

    /// Captures of the leftmost match within `range` (the text around it
    /// still counts for `^`, `$` and word boundaries).
    pub fn captures_in<'h>(
        &self,
        hay: &'h str,
        range: std::ops::Range<usize>,
    ) -> Option<Captures<'h>> {
        let mut caps = self.re.create_captures();
        self.re
            .search_captures(&Input::new(hay).range(range), &mut caps);
        caps.is_match().then_some(Captures { hay, caps })
    }

    /// Captures of the leftmost match starting at or after `start` (the
    /// text before `start` still counts for `^` and word boundaries).
    pub fn captures_at<'h>(&self, hay: &'h str, start: usize) -> Option<Captures<'h>> {
        let mut caps = self.re.create_captures();
        self.re
            .search_captures(&Input::new(hay).range(start..), &mut caps);
        caps.is_match().then_some(Captures { hay, caps })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Flags = Flags { ignore_case: false };

    #[test]
    fn finds_and_captures_like_the_regex_crate() {
        let re = Regex::build(r"(?P<v>[0-9]+)$", PLAIN, 1 << 20).unwrap();
        let c = re.captures("a 12\nb 34\n").unwrap();
        assert_eq!(c.name("v").unwrap().as_str(), "12");
        assert_eq!(c.get(0).unwrap().start(), 2);
        let c = re.captures_at("a 12\nb 34\n", 5).unwrap();
        assert_eq!(c.name("v").unwrap().as_str(), "34");
        assert!(re.find("none").is_none());
        let c = re.captures_anchored_at("a 12\nb 34\n", 7).unwrap();
        assert_eq!(c.get(0).unwrap().start(), 7);
        assert!(re.captures_anchored_at("a 12\nb 34\n", 6).is_none());
        let ic = Regex::build("a.c", Flags { ignore_case: true }, 1 << 20).unwrap();
        assert_eq!(ic.find("xAbC").map(|m| m.start()), Some(1));
        // Case is folded for ASCII letters only, as in LLVM.
        assert!(
            Regex::build("\u{e9}", Flags { ignore_case: true }, 1 << 20)
                .unwrap()
                .find("\u{c9}")
                .is_none()
        );
    }

    #[test]
    fn regexes_match_bytes_as_llvms() {
        // `.` is one byte: a two-byte character is two.
        let dot = Regex::build("^a.c$", PLAIN, 1 << 20).unwrap();
        assert!(dot.find("a\u{e9}c").is_none());
        let two = Regex::build("^a..c$", PLAIN, 1 << 20).unwrap();
        assert!(two.find("a\u{e9}c").is_some());
        let not_x = Regex::build("^a[^x][^x]c$", PLAIN, 1 << 20).unwrap();
        assert!(not_x.find("a\u{e9}c").is_some());
        // A match ending inside a character takes in all of it.
        let m = Regex::build("b.", PLAIN, 1 << 20)
            .unwrap()
            .find("ab\u{e9}c")
            .unwrap();
        assert_eq!((m.start(), m.end(), m.as_str()), (1, 4, "b\u{e9}"));
        let c = Regex::build("(.)c", PLAIN, 1 << 20)
            .unwrap()
            .captures("\u{e9}c")
            .unwrap();
        assert_eq!(c.get(1).unwrap().as_str(), "\u{e9}");
    }

    #[test]
    fn a_source_is_compiled_once_per_run() {
        clear_cache();
        let a = Regex::build("x[0-9]+", PLAIN, 1 << 20).unwrap();
        let b = Regex::build("x[0-9]+", PLAIN, 1 << 20).unwrap();
        assert!(std::sync::Arc::ptr_eq(&a.re, &b.re));
        let c = Regex::build("x[0-9]+", Flags { ignore_case: true }, 1 << 20).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&a.re, &c.re));
        clear_cache();
        let d = Regex::build("x[0-9]+", PLAIN, 1 << 20).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&a.re, &d.re));
    }

    #[test]
    fn errors_read_as_the_regex_crates() {
        let e = Regex::build("(a{100}){100}", PLAIN, 1 << 10).unwrap_err();
        assert_eq!(e, "Compiled regex exceeds size limit of 1024 bytes.");
        let e = Regex::build("(", PLAIN, 1 << 20).unwrap_err();
        let open = String::from("(");
        assert_eq!(e, regex::Regex::new(&open).unwrap_err().to_string());
        assert_eq!(validate("(", PLAIN).unwrap_err(), e);
        assert!(validate("a(b)", PLAIN).is_ok());
    }
}
