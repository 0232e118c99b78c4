//! RUN lines: finding them in a test file, substituting `%` variables, and
//! parsing each into pipelines of commands (no shell is involved).
//!
//! The accepted syntax is a small, shell-like subset:
//!
//! - words separated by blanks; `'...'` quotes literally, `"..."` quotes with
//!   `\"` and `\\` escapes, an unquoted `\` escapes the next character;
//! - `a | b` pipes `a`'s standard output into `b`;
//! - `a && b` runs `b` only when `a` passed (every part must pass);
//! - `not cmd` inverts the exit status: `cmd` must exit with a non-zero
//!   status (a crash by a signal is never a pass); `not --crash cmd`
//!   expects a crash (a signal, or exit status 101: a Rust panic);
//! - `cd DIR` (a builtin of the runner, as in lit) moves the
//!   later commands of the test;
//! - redirections, as lit's internal shell has them: `< file`, `> file`,
//!   `>> file`, `1> file`, `2> file`, `2>> file`, `&> file` and `&>> file`
//!   (both streams), `2>&1` (stderr where stdout goes), `>&2` and `1>&2`
//!   (stdout where stderr goes), applied left to right (`2>&1 > f` sends
//!   stderr into the pipe, stdout to `f`). Anything else that looks like a
//!   redirection (`3>&1`, `<&0`, `<<EOF`, `<>`, `|&`) is named in an error;
//!   a lone `&` is a background job, also unsupported;
//! - substitutions `%s` (the test file), `%S` (its directory), `%t` (a
//!   per-test temporary path), `%T` (the directory of `%t`), `%%` (a `%`).
//!   They apply inside quotes too; any other `%x` is left as written;
//! - named substitutions `%{name}`: `%{pfir}` (the `pfir` under test) and
//!   those of the test's `lit.toml` ([`super::config`]). They are replaced as
//!   text before the line is parsed (so a value may hold several words and
//!   `%s`-style substitutions); an unknown name is an error.
//!
//! A RUN line that ends with `\` continues on the next RUN line.

use std::path::{Path, PathBuf};

/// One logical RUN line of a test file (continuations joined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunLine {
    /// 1-based line number of its first `// RUN:` line.
    pub line: usize,
    /// The command text as written, continuations joined by a space.
    pub text: String,
}

/// The values the `%` substitutions expand to.
#[derive(Clone, Debug)]
pub struct Substitutions {
    /// `%s`: the test file.
    pub source: PathBuf,
    /// `%t`: a temporary path private to this test (not created).
    pub temp: PathBuf,
    /// `%{name}` substitutions (from `lit.toml`): (name, replacement text).
    pub custom: Vec<(String, String)>,
}

impl Substitutions {
    /// `%S`: the directory of the test file (`.` when it has none).
    pub fn source_dir(&self) -> PathBuf {
        parent_or_dot(&self.source)
    }

    /// `%T`: the directory of `%t`.
    pub fn temp_dir(&self) -> PathBuf {
        parent_or_dot(&self.temp)
    }

    fn lookup(&self, c: char) -> Option<String> {
        let path = match c {
            's' => self.source.clone(),
            'S' | 'p' => self.source_dir(),
            't' => self.temp.clone(),
            'T' => self.temp_dir(),
            '%' => return Some("%".into()),
            _ => return None,
        };
        Some(path.display().to_string())
    }
}

fn parent_or_dot(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Where a command's standard output goes (after its redirections,
/// applied left to right).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum StdoutTarget {
    /// Into the next command of the pipeline, or captured for the last.
    #[default]
    Pipe,
    /// Into the stage's captured standard error (`>&2` while standard
    /// error is still captured).
    ToStderr,
    /// `> file` / `>> file` (the flag: append).
    File(PathBuf, bool),
}

/// Where a command's standard error goes (after its redirections, applied
/// left to right).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum StderrTarget {
    /// Captured and shown in the failure report.
    #[default]
    Capture,
    /// Into the stage's standard output pipe (`2>&1` while standard output
    /// still goes to the pipe).
    ToStdout,
    /// `2> file` / `2>> file` (the flag: append).
    File(PathBuf, bool),
}

/// One redirection as written, for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirection {
    /// `<`, `>`, `>>`, `2>`, `2>>`, `&>`, `&>>`, `2>&1`, `>&2`, ...
    pub op: String,
    /// Its file, for those that name one.
    pub target: Option<PathBuf>,
}

/// One command of a pipeline.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Stage {
    /// Whether `not` (an odd number of them, `--crash` aside) preceded the
    /// command.
    pub invert: bool,
    /// `not --crash`: the command must crash (be killed by a signal, or
    /// panic: exit status 101).
    pub crash: bool,
    /// The program and its arguments, substitutions applied.
    pub argv: Vec<String>,
    /// `< file`.
    pub stdin: Option<PathBuf>,
    pub stdout: StdoutTarget,
    pub stderr: StderrTarget,
    /// Whether standard output and standard error go to one file opened
    /// once (`&> f`, `> f 2>&1`, `2> f >&2`), not to two openings of it.
    pub shared_file: bool,
    /// The redirections in the order written (they apply in that order,
    /// as in lit and sh; only the last one of a stream opens its file).
    pub redirections: Vec<Redirection>,
}

impl Stage {
    /// The command as a readable shell-like string, redirections in the
    /// order written.
    pub fn display(&self) -> String {
        let mut parts = Vec::new();
        if self.invert {
            parts.push("not".to_string());
        }
        if self.crash {
            parts.push("not --crash".to_string());
        }
        parts.extend(self.argv.iter().map(|a| quote(a)));
        for r in &self.redirections {
            match &r.target {
                Some(p) => parts.push(format!("{} {}", r.op, quote(&p.display().to_string()))),
                None => parts.push(r.op.clone()),
            }
        }
        parts.join(" ")
    }

    /// Applies the redirection `op` (a token) with its file `target`, after
    /// those before it.
    fn redirect(&mut self, op: &Token, target: Option<PathBuf>) {
        let shown = match op {
            Token::In => "<".to_string(),
            Token::Out(fd, append) => {
                format!(
                    "{}{}",
                    if *fd == 2 { "2" } else { "" },
                    if *append { ">>" } else { ">" }
                )
            }
            Token::Both(append) => if *append { "&>>" } else { "&>" }.to_string(),
            Token::Dup(from, to) => {
                format!("{}>&{to}", if *from == 2 { "2" } else { "" })
            }
            _ => return,
        };
        self.redirections.push(Redirection {
            op: shown,
            target: target.clone(),
        });
        match (op, target) {
            (Token::In, Some(t)) => self.stdin = Some(t),
            (Token::Out(2, append), Some(t)) => {
                self.stderr = StderrTarget::File(t, *append);
                self.shared_file = false;
            }
            (Token::Out(_, append), Some(t)) => {
                self.stdout = StdoutTarget::File(t, *append);
                self.shared_file = false;
            }
            (Token::Both(append), Some(t)) => {
                self.stdout = StdoutTarget::File(t.clone(), *append);
                self.stderr = StderrTarget::File(t, *append);
                self.shared_file = true;
            }
            // `2>&1`: standard error goes where standard output goes now.
            (Token::Dup(2, 1), _) => {
                self.stderr = match &self.stdout {
                    StdoutTarget::Pipe => StderrTarget::ToStdout,
                    StdoutTarget::ToStderr => StderrTarget::Capture,
                    StdoutTarget::File(p, a) => StderrTarget::File(p.clone(), *a),
                };
                self.shared_file = matches!(self.stdout, StdoutTarget::File(..));
            }
            // `>&2`: standard output goes where standard error goes now.
            (Token::Dup(1, 2), _) => {
                self.stdout = match &self.stderr {
                    StderrTarget::Capture => StdoutTarget::ToStderr,
                    StderrTarget::ToStdout => StdoutTarget::Pipe,
                    StderrTarget::File(p, a) => StdoutTarget::File(p.clone(), *a),
                };
                self.shared_file = matches!(self.stderr, StderrTarget::File(..));
            }
            // `1>&1`, `2>&2`: nothing changes.
            _ => {}
        }
    }
}

/// Commands joined by `|`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pipeline {
    pub stages: Vec<Stage>,
}

impl Pipeline {
    pub fn display(&self) -> String {
        self.stages
            .iter()
            .map(Stage::display)
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// Quotes `s` for display when it holds characters the parser treats specially.
pub fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%{}[]*^$?()".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Finds the RUN lines of a test file: comment lines of the form
/// `// RUN: command`. A line ending in `\` continues on the next RUN line.
pub fn find_run_lines(text: &str) -> Result<Vec<RunLine>, String> {
    let mut out: Vec<RunLine> = Vec::new();
    let mut pending: Option<RunLine> = None;
    for (index, line) in fsutil::lines::lines(text).enumerate() {
        let Some(command) = run_directive(line) else {
            if let Some(p) = &pending {
                return Err(format!(
                    "line {}: the RUN line ends with `\\` but the next line is not a RUN line",
                    p.line
                ));
            }
            continue;
        };
        let command = command.trim();
        let (command, continues) = match command.strip_suffix('\\') {
            Some(c) => (c.trim_end(), true),
            None => (command, false),
        };
        let current = match pending.take() {
            Some(mut p) => {
                if !command.is_empty() {
                    if !p.text.is_empty() {
                        p.text.push(' ');
                    }
                    p.text.push_str(command);
                }
                p
            }
            None => RunLine {
                line: index + 1,
                text: command.to_string(),
            },
        };
        if continues {
            pending = Some(current);
        } else {
            out.push(current);
        }
    }
    if let Some(p) = pending {
        return Err(format!(
            "line {}: the last RUN line ends with `\\` but nothing follows",
            p.line
        ));
    }
    Ok(out)
}

/// The command of a `// RUN:` line, or `None` for any other line.
pub(crate) fn run_directive(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("//")?;
    rest.trim_start().strip_prefix("RUN:")
}

/// A lexed piece of a RUN line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Pipe,
    AndAnd,
    /// `<`
    In,
    /// `>`, `>>`, `2>`, `2>>`: (fd, append)
    Out(u8, bool),
    /// `N>&M` for N, M in {1, 2}: (N, M)
    Dup(u8, u8),
    /// `&>`, `&>>`: both streams to a file (append)
    Both(bool),
}

fn tokenize(text: &str, subs: &Substitutions) -> Result<Vec<Token>, String> {
    Tokenizer {
        chars: text.chars().collect(),
        i: 0,
        subs,
        tokens: Vec::new(),
        word: String::new(),
        in_word: false,
        digits_only: true,
        size: text.len(),
    }
    .run()
}

/// The state of [`tokenize`]: the position in the line and the word being
/// built.
struct Tokenizer<'s> {
    chars: Vec<char>,
    i: usize,
    subs: &'s Substitutions,
    tokens: Vec<Token>,
    word: String,
    /// Whether a word is being built (a quoted empty string is still a word).
    in_word: bool,
    /// Whether the current word is exactly an unquoted fd number so far.
    digits_only: bool,
    /// The line's length with the substitutions made so far (for
    /// [`MAX_EXPANDED`]).
    size: usize,
}

impl Tokenizer<'_> {
    fn run(mut self) -> Result<Vec<Token>, String> {
        while let Some(&c) = self.chars.get(self.i) {
            match c {
                ' ' | '\t' => {
                    self.flush();
                    self.i += 1;
                }
                '\'' | '"' => self.quoted(c)?,
                '\\' => self.backslash(),
                '|' => self.pipe()?,
                '&' => self.ampersand()?,
                ';' => return Err("`;` is not supported; use `&&` or another RUN line".into()),
                '<' => self.input()?,
                '>' => self.output()?,
                '%' => {
                    self.in_word = true;
                    self.digits_only = false;
                    self.substitute()?;
                }
                c => {
                    self.in_word = true;
                    if !c.is_ascii_digit() {
                        self.digits_only = false;
                    }
                    self.word.push(c);
                    self.i += 1;
                }
            }
        }
        self.flush();
        Ok(self.tokens)
    }

    fn flush(&mut self) {
        if self.in_word {
            self.tokens
                .push(Token::Word(std::mem::take(&mut self.word)));
            self.in_word = false;
        }
        self.digits_only = true;
    }

    /// `%x` at `i`: its value, or the `%` as written.
    fn substitute(&mut self) -> Result<(), String> {
        let next = self.chars.get(self.i + 1).copied();
        match next.and_then(|c| self.subs.lookup(c).map(|v| (c, v))) {
            Some((c, v)) => {
                within_limit(self.size, v.len(), &format!("%{c}"))?;
                self.size += v.len();
                self.word.push_str(&v);
                self.i += 2;
            }
            None => {
                self.word.push('%');
                self.i += 1;
            }
        }
        Ok(())
    }

    /// A `'...'` or `"..."` quote at `i` (`close` is its quote character):
    /// substitutions apply in both, `\"` and `\\` escape in the second.
    fn quoted(&mut self, close: char) -> Result<(), String> {
        self.in_word = true;
        self.digits_only = false;
        self.i += 1;
        loop {
            match self.chars.get(self.i) {
                None => return Err(format!("unterminated {close}...{close} quote")),
                Some(&c) if c == close => {
                    self.i += 1;
                    return Ok(());
                }
                Some('\\')
                    if close == '"' && matches!(self.chars.get(self.i + 1), Some('"' | '\\')) =>
                {
                    self.word.push(self.chars[self.i + 1]);
                    self.i += 2;
                }
                Some('%') => self.substitute()?,
                Some(&c) => {
                    self.word.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// An unquoted `\` escapes the next character.
    fn backslash(&mut self) {
        self.in_word = true;
        self.digits_only = false;
        match self.chars.get(self.i + 1) {
            Some(&n) => {
                self.word.push(n);
                self.i += 2;
            }
            None => {
                self.word.push('\\');
                self.i += 1;
            }
        }
    }

    /// An operator token `len` characters long ends the word before it.
    fn operator(&mut self, token: Token, len: usize) {
        self.flush();
        self.tokens.push(token);
        self.i += len;
    }

    fn pipe(&mut self) -> Result<(), String> {
        match self.chars.get(self.i + 1) {
            Some('|') => return Err("`||` is not supported".into()),
            Some('&') => return Err("`|&` is not supported; write `2>&1 |`".into()),
            _ => {}
        }
        self.operator(Token::Pipe, 1);
        Ok(())
    }

    /// `&&`, `&>`, `&>>`.
    fn ampersand(&mut self) -> Result<(), String> {
        match self.chars.get(self.i + 1) {
            Some('&') => self.operator(Token::AndAnd, 2),
            Some('>') => {
                let append = self.chars.get(self.i + 2) == Some(&'>');
                self.operator(Token::Both(append), if append { 3 } else { 2 });
            }
            _ => {
                return Err("`&` (running a command in the background) is not supported".into());
            }
        }
        Ok(())
    }

    /// `<`, and the input redirections that are not supported.
    fn input(&mut self) -> Result<(), String> {
        if self.in_word && self.digits_only {
            return Err(format!(
                "`{}<`: redirecting the input of file descriptor {} is not supported",
                self.word, self.word
            ));
        }
        match self.chars.get(self.i + 1) {
            Some('<') => {
                return Err("`<<` (here-documents) is not supported; use `< file`".into());
            }
            Some('&') => return Err("`<&` (duplicating an input) is not supported".into()),
            Some('>') => {
                return Err("`<>` (opening for reading and writing) is not supported".into());
            }
            _ => {}
        }
        self.operator(Token::In, 1);
        Ok(())
    }

    /// `>`, `>>`, `N>`, `N>>` and `N>&M` (a word of digits before `>` is
    /// its file descriptor).
    fn output(&mut self) -> Result<(), String> {
        let fd = if self.in_word && self.digits_only {
            let fd = match self.word.as_str() {
                "1" => 1,
                "2" => 2,
                other => {
                    return Err(format!(
                        "`{other}>`: only standard output (1) and standard error (2) \
                         can be redirected"
                    ));
                }
            };
            self.word.clear();
            self.in_word = false;
            fd
        } else {
            self.flush();
            1
        };
        self.digits_only = true;
        self.i += 1;
        let chars = &self.chars;
        let i = self.i;
        if chars.get(i) == Some(&'&') {
            let to = match chars.get(i + 1) {
                Some('1') => 1,
                Some('2') => 2,
                Some(c) if c.is_ascii_digit() => {
                    return Err(format!(
                        "`{fd}>&{c}`: only standard output (1) and standard error (2) \
                         can be redirected"
                    ));
                }
                Some('-') => {
                    return Err(format!("`{fd}>&-` (closing a stream) is not supported"));
                }
                _ => {
                    return Err(format!(
                        "`{fd}>&` must be followed by 1 or 2 (`>& file` is not supported; \
                         write `&> file`)"
                    ));
                }
            };
            if chars.get(i + 2).is_some_and(|c| c.is_ascii_digit()) {
                return Err(format!(
                    "`{fd}>&{to}{}...`: only standard output (1) and standard error (2) \
                     can be redirected",
                    chars[i + 2]
                ));
            }
            self.tokens.push(Token::Dup(fd, to));
            self.i += 2;
            return Ok(());
        }
        if chars.get(i) == Some(&'|') {
            return Err(format!("`{fd}>|` (overriding noclobber) is not supported"));
        }
        let append = chars.get(i) == Some(&'>');
        if append {
            self.i += 1;
        }
        self.tokens.push(Token::Out(fd, append));
        Ok(())
    }
}

/// The most bytes a RUN line may grow to through its substitutions
/// (`DEFINE:`, `%{name}`, `%s`...): a large value used many times is
/// refused before it is built, instead of exhausting memory. A command line
/// that the kernel runs is far shorter anyway (a few MiB on Linux).
pub const MAX_EXPANDED: usize = 16 << 20;

/// Checks that `len` more bytes on a RUN line already `so_far` long stay
/// within [`MAX_EXPANDED`]; the error names the substitution.
pub(crate) fn within_limit(so_far: usize, len: usize, what: &str) -> Result<(), String> {
    if so_far.saturating_add(len) <= MAX_EXPANDED {
        return Ok(());
    }
    Err(format!(
        "substituting `{what}` ({len} bytes) makes the RUN line longer than {} MiB; \
         use a smaller value or fewer uses",
        MAX_EXPANDED >> 20
    ))
}

/// Replaces the `%{name}` substitutions of `text` (see the module
/// documentation). Replacements are not scanned again for `%{`.
pub fn expand_named(text: &str, subs: &Substitutions) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("%{") {
        // `%%{` is a literal `%` then `{`: leave it to the tokenizer.
        let escaped = rest[..at].chars().rev().take_while(|&c| c == '%').count() % 2 == 1;
        out.push_str(&rest[..at]);
        if escaped {
            out.push_str("%{");
            rest = &rest[at + 2..];
            continue;
        }
        let Some(len) = rest[at + 2..].find('}') else {
            return Err("`%{` without a closing `}`".into());
        };
        let name = &rest[at + 2..at + 2 + len];
        let value = if name == "pfir" {
            Some("pfir")
        } else {
            subs.custom
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        match value {
            Some(v) => {
                within_limit(out.len(), v.len(), &format!("%{{{name}}}"))?;
                out.push_str(v);
            }
            None => {
                return Err(format!(
                    "unknown substitution `%{{{name}}}` (define it under [substitutions] in a lit.toml)"
                ));
            }
        }
        rest = &rest[at + 2 + len + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Parses one RUN line into the pipelines its `&&` separates, applying the
/// substitutions.
pub fn parse(text: &str, subs: &Substitutions) -> Result<Vec<Pipeline>, String> {
    let text = expand_named(text, subs)?;
    let tokens = tokenize(&text, subs)?;
    let mut pipelines = Vec::new();
    let mut pipeline = Pipeline::default();
    let mut stage = Stage::default();
    // Whether `not` may still be read as a prefix of the current stage.
    let mut at_start = true;
    let mut iter = tokens.into_iter().peekable();
    let finish_stage = |stage: &mut Stage, what: &str| -> Result<Stage, String> {
        if stage.argv.is_empty() {
            return Err(format!("missing command {what}"));
        }
        Ok(std::mem::take(stage))
    };
    while let Some(tok) = iter.next() {
        match tok {
            Token::Word(w) => {
                if at_start && w == "not" {
                    stage.invert = !stage.invert;
                    if matches!(iter.peek(), Some(Token::Word(c)) if c == "--crash") {
                        // `not --crash`: the `not` asks for a crash
                        // (the `not`s before it invert that).
                        iter.next();
                        stage.invert = !stage.invert;
                        stage.crash = true;
                        at_start = false;
                    }
                } else {
                    at_start = false;
                    stage.argv.push(w);
                }
            }
            Token::Pipe => {
                pipeline
                    .stages
                    .push(finish_stage(&mut stage, "before `|`")?);
                at_start = true;
            }
            Token::AndAnd => {
                pipeline
                    .stages
                    .push(finish_stage(&mut stage, "before `&&`")?);
                pipelines.push(std::mem::take(&mut pipeline));
                at_start = true;
            }
            Token::Dup(..) => stage.redirect(&tok, None),
            Token::In | Token::Out(..) | Token::Both(_) => {
                let Some(Token::Word(target)) = iter.next() else {
                    return Err("a redirection needs a file name after it".into());
                };
                stage.redirect(&tok, Some(PathBuf::from(target)));
            }
        }
    }
    if stage.argv.is_empty() && pipeline.stages.is_empty() && pipelines.is_empty() {
        return Err("empty RUN line".into());
    }
    pipeline
        .stages
        .push(finish_stage(&mut stage, "at the end")?);
    pipelines.push(pipeline);
    Ok(pipelines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subs() -> Substitutions {
        Substitutions {
            source: PathBuf::from("dir/a b.pfir"),
            temp: PathBuf::from("/tmp/x/a.tmp"),
            custom: Vec::new(),
        }
    }

    fn argvs(text: &str) -> Vec<Vec<Vec<String>>> {
        parse(text, &subs())
            .unwrap()
            .into_iter()
            .map(|p| p.stages.into_iter().map(|s| s.argv).collect())
            .collect()
    }

    #[test]
    fn finds_run_lines_and_joins_continuations() {
        let text = "// RUN: pfir opt %s \\\n//RUN:   --passes=x \\\n  // RUN: | FileCheck %s\nfunc f() {}\n// RUN: not pfir opt %s\n// CHECK: RUN: no\n";
        let lines = find_run_lines(text).unwrap();
        assert_eq!(
            lines,
            vec![
                RunLine {
                    line: 1,
                    text: "pfir opt %s --passes=x | FileCheck %s".into()
                },
                RunLine {
                    line: 5,
                    text: "not pfir opt %s".into()
                }
            ]
        );
    }

    #[test]
    fn a_lone_carriage_return_ends_a_run_line() {
        // As editors show it: the RUN line, then code, then a CHECK line.
        let text = "// RUN: pfir opt %s\rfunc k() -> task_id {\r return nope\r}\r// RUN: not x\r\n";
        let lines = find_run_lines(text).unwrap();
        assert_eq!(
            lines,
            vec![
                RunLine {
                    line: 1,
                    text: "pfir opt %s".into()
                },
                RunLine {
                    line: 5,
                    text: "not x".into()
                }
            ]
        );
        // A continuation must be followed by a RUN line on the next line.
        assert!(find_run_lines("// RUN: a \\\rfunc f() {}\r").is_err());
        assert!(crate::discover::has_run_lines("func f() {}\r// RUN: x\r"));
        assert!(!crate::discover::has_run_lines("func f() {}\r//x RUN: y\r"));
    }

    #[test]
    fn dangling_continuation_is_an_error() {
        assert!(find_run_lines("// RUN: a \\\nfunc f() {}\n").is_err());
        assert!(find_run_lines("// RUN: a \\\n").is_err());
        assert!(find_run_lines("func f() {}\n").unwrap().is_empty());
    }

    #[test]
    fn substitutions() {
        assert_eq!(
            argvs("pfir %s %S %t %T 100%% %x"),
            vec![vec![vec![
                "pfir",
                "dir/a b.pfir",
                "dir",
                "/tmp/x/a.tmp",
                "/tmp/x",
                "100%",
                "%x"
            ]]]
        );
        // Inside quotes too; the path with a space stays one word.
        assert_eq!(
            argvs("a '%s' \"%%s\""),
            vec![vec![vec!["a", "dir/a b.pfir", "%s"]]]
        );
        let no_dir = Substitutions {
            source: PathBuf::from("x.pfir"),
            temp: PathBuf::from("t"),
            custom: Vec::new(),
        };
        assert_eq!(parse("a %S", &no_dir).unwrap()[0].stages[0].argv[1], ".");
    }

    #[test]
    fn quoting() {
        assert_eq!(
            argvs(r#"echo 'a | b' "c \"d\" \\ e" f\ g '' "$x""#),
            vec![vec![vec!["echo", "a | b", r#"c "d" \ e"#, "f g", "", "$x"]]]
        );
        assert!(parse("echo 'abc", &subs()).is_err());
        assert!(parse("echo \"abc", &subs()).is_err());
    }

    #[test]
    fn pipelines_and_not() {
        let p = parse("not pfir opt %s | not not FileCheck --x=not %s", &subs()).unwrap();
        assert_eq!(p.len(), 1);
        let s = &p[0].stages;
        assert_eq!(s.len(), 2);
        assert!(s[0].invert);
        assert_eq!(s[0].argv, vec!["pfir", "opt", "dir/a b.pfir"]);
        assert!(!s[1].invert);
        assert_eq!(s[1].argv, vec!["FileCheck", "--x=not", "dir/a b.pfir"]);
        // `not` is only a prefix: later it is an ordinary argument.
        assert_eq!(argvs("echo not"), vec![vec![vec!["echo", "not"]]]);
    }

    #[test]
    fn and_and() {
        assert_eq!(
            argvs("a x && b|c"),
            vec![vec![vec!["a", "x"]], vec![vec!["b"], vec!["c"]]]
        );
    }

    #[test]
    fn redirections() {
        let p = parse("a 2>&1 > out < in | b 2> err >> log 2>>e2", &subs()).unwrap();
        let s = &p[0].stages;
        assert_eq!(s[0].argv, vec!["a"]);
        assert_eq!(s[0].stderr, StderrTarget::ToStdout);
        assert_eq!(s[0].stdout, StdoutTarget::File(PathBuf::from("out"), false));
        assert_eq!(s[0].stdin, Some(PathBuf::from("in")));
        assert_eq!(s[1].stdout, StdoutTarget::File(PathBuf::from("log"), true));
        assert_eq!(s[1].stderr, StderrTarget::File(PathBuf::from("e2"), true));
        // `2>&1` glued to a word, and `>` glued to its target.
        let p = parse("a x2>&1", &subs());
        assert_eq!(
            p.unwrap()[0].stages[0].argv,
            vec!["a", "x2"],
            "x2>&1 is `x2 >&1`"
        );
        let p = parse("a 2>&1|b >%t", &subs()).unwrap();
        assert_eq!(p[0].stages[0].stderr, StderrTarget::ToStdout);
        assert_eq!(
            p[0].stages[1].stdout,
            StdoutTarget::File(PathBuf::from("/tmp/x/a.tmp"), false)
        );
        // A quoted "2" is a word, not a file descriptor.
        let p = parse("a '2'>f", &subs()).unwrap();
        assert_eq!(p[0].stages[0].argv, vec!["a", "2"]);
    }

    #[test]
    fn named_substitutions() {
        let mut s = subs();
        s.custom = vec![
            ("check".into(), "FileCheck %s --match-full-lines".into()),
            ("x".into(), "%{check}".into()),
        ];
        let p = parse("%{pfir} opt %s | %{check}", &s).unwrap();
        assert_eq!(p[0].stages[0].argv, vec!["pfir", "opt", "dir/a b.pfir"]);
        assert_eq!(
            p[0].stages[1].argv,
            vec!["FileCheck", "dir/a b.pfir", "--match-full-lines"]
        );
        // Not expanded twice; `%%{` is literal; unknown names are errors.
        assert_eq!(
            parse("echo %{x}", &s).unwrap()[0].stages[0].argv,
            vec!["echo", "%{check}"]
        );
        assert_eq!(
            parse("echo %%{x}", &s).unwrap()[0].stages[0].argv,
            vec!["echo", "%{x}"]
        );
        assert!(
            parse("echo %{nope}", &s)
                .unwrap_err()
                .contains("unknown substitution `%{nope}`")
        );
        assert!(parse("echo %{open", &s).is_err());
    }

    #[test]
    fn substitutions_are_capped_by_size() {
        // 10 MB used 1,000 times would be 10 GB: refused at the second use,
        // before the line passes the limit.
        let mut s = subs();
        s.custom = vec![("big".into(), "b".repeat(10 << 20))];
        let e = parse(&"%{big} ".repeat(1000), &s).unwrap_err();
        assert!(e.contains("substituting `%{big}` (10485760 bytes)"), "{e}");
        assert!(e.contains("longer than 16 MiB"), "{e}");
        // Up to the limit it is substituted.
        s.custom = vec![("big".into(), "b".repeat(MAX_EXPANDED / 2 - 8))];
        let p = parse("echo %{big} %{big}", &s).unwrap();
        assert_eq!(p[0].stages[0].argv[2].len(), MAX_EXPANDED / 2 - 8);
        assert!(parse("echo %{big} %{big} %{big}", &s).is_err());
        // `%s` on a long line: its path, many times over.
        s.source = PathBuf::from("d".repeat(4000));
        let line = format!("echo {}", "%s".repeat(MAX_EXPANDED / 4000 / 2));
        assert!(parse(&line, &s).is_ok());
        let e = parse(&"%s".repeat(MAX_EXPANDED / 4000 + 1), &s).unwrap_err();
        assert!(e.contains("substituting `%s` (4000 bytes)"), "{e}");
    }

    #[test]
    fn lit_redirections() {
        let stage = |text: &str| parse(text, &subs()).unwrap()[0].stages[0].clone();
        assert_eq!(stage("a >&2").stdout, StdoutTarget::ToStderr);
        assert_eq!(stage("a 1>&2").stdout, StdoutTarget::ToStderr);
        assert_eq!(stage("a 1>f").stdout, StdoutTarget::File("f".into(), false));
        let both = stage("a &>f");
        assert_eq!(both.stdout, StdoutTarget::File("f".into(), false));
        assert_eq!(both.stderr, StderrTarget::File("f".into(), false));
        assert!(both.shared_file);
        let both = stage("a &>> f");
        assert_eq!(both.stdout, StdoutTarget::File("f".into(), true));
        let same = stage("a 2>&2");
        assert_eq!(
            (same.stdout, same.stderr),
            (StdoutTarget::Pipe, StderrTarget::Capture)
        );
        // Shown the way it is read.
        assert_eq!(stage("a >&2 2> e").display(), "a >&2 2> e");
    }

    #[test]
    fn unsupported_redirections_are_named() {
        let err = |text: &str| parse(text, &subs()).unwrap_err();
        for (text, needle) in [
            ("a 3>&1", "`3>`"),
            ("a 2>&3", "`2>&3`"),
            ("a >&-", "closing a stream"),
            ("a >& f", "`&> file`"),
            ("a 0< f", "file descriptor 0"),
            ("a << EOF", "here-documents"),
            ("a <&3", "`<&`"),
            ("a <> f", "`<>`"),
            ("a |& b", "`|&`"),
            ("a & b", "background"),
            ("a >| f", "noclobber"),
        ] {
            let e = err(text);
            assert!(e.contains(needle), "{text:?}: {e}");
        }
    }

    /// Redirections apply left to right, as in sh and lit: `2>&1` sends
    /// standard error where standard output goes at that point.
    #[test]
    fn redirections_apply_left_to_right() {
        let stage = |text: &str| parse(text, &subs()).unwrap()[0].stages[0].clone();
        let s = stage("a 2>&1 > f");
        assert_eq!(s.stderr, StderrTarget::ToStdout, "to the pipe");
        assert_eq!(s.stdout, StdoutTarget::File("f".into(), false));
        assert!(!s.shared_file);
        let s = stage("a > f 2>&1");
        assert_eq!(s.stderr, StderrTarget::File("f".into(), false));
        assert!(s.shared_file, "one opening of f");
        let s = stage("a > f 2>&1 > g");
        assert_eq!(s.stderr, StderrTarget::File("f".into(), false));
        assert_eq!(s.stdout, StdoutTarget::File("g".into(), false));
        assert!(!s.shared_file);
        // `>&2 2>&1`: both into standard error, as in sh.
        let s = stage("a >&2 2>&1");
        assert_eq!(
            (s.stdout, s.stderr),
            (StdoutTarget::ToStderr, StderrTarget::Capture)
        );
        // `2>&1 >&2`: both into the pipe.
        let s = stage("a 2>&1 >&2");
        assert_eq!(
            (s.stdout, s.stderr),
            (StdoutTarget::Pipe, StderrTarget::ToStdout)
        );
        let s = stage("a 2> e >&2");
        assert_eq!(s.stdout, StdoutTarget::File("e".into(), false));
        assert!(s.shared_file);
        // Shown as written, and read back the same.
        for text in [
            "a 2>&1 > f",
            "a > f 2>&1",
            "a < i 2> e >> o",
            "a &>> f 2>&1",
        ] {
            let s = stage(text);
            assert_eq!(s.display(), text);
            assert_eq!(stage(&s.display()), s);
        }
    }

    #[test]
    fn not_crash() {
        let stage = |text: &str| parse(text, &subs()).unwrap()[0].stages[0].clone();
        let s = stage("not --crash pfir opt");
        assert!(s.crash && !s.invert);
        assert_eq!(s.argv, vec!["pfir", "opt"]);
        assert_eq!(s.display(), "not --crash pfir opt");
        let s = stage("not not --crash x");
        assert!(s.crash && s.invert);
        // `--crash` only right after `not`.
        let s = stage("x --crash");
        assert!(!s.crash);
        assert_eq!(s.argv, vec!["x", "--crash"]);
        assert!(parse("not --crash", &subs()).is_err());
    }

    #[test]
    fn syntax_errors() {
        for bad in [
            "", "a |", "| a", "a | | b", "a &&", "a >", "a ; b", "a & b", "a || b",
        ] {
            assert!(parse(bad, &subs()).is_err(), "{bad:?} should be rejected");
        }
        assert!(parse("not", &subs()).is_err());
    }

    #[test]
    fn display_round_trips() {
        let text = "not pfir opt 'a b' 2>&1 | FileCheck %s";
        let p = parse(text, &subs()).unwrap();
        let shown = p[0].display();
        assert_eq!(shown, "not pfir opt 'a b' 2>&1 | FileCheck 'dir/a b.pfir'");
        assert_eq!(parse(&shown, &subs()).unwrap(), p);
    }
}
