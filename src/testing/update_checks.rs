//! Check generation (`pfir test --update`, which `PFIR_UPDATE_CHECKS=1` asks
//! the cargo harness for): rewrite the CHECK lines of a test from the current
//! output of its command, in the style of MLIR's `generate-test-checks.py`.
//!
//! The command is the first RUN line that pipes into FileCheck, up to the
//! FileCheck stage. Its output is cut into functions; each becomes
//!
//! ```text
//! // CHECK-LABEL: orchestration func main(n: i64) -> task_id {
//! // CHECK-NEXT:    manual {
//! // CHECK-NEXT:    }
//! // CHECK-NEXT:  }
//! ```
//!
//! (a blank output line gives `// CHECK-EMPTY:`), placed directly above the
//! input function of the same name; with `--split-input-file` the output is
//! matched chunk by chunk. An output function with no input function of its
//! name is appended at the end of its chunk. Every existing directive line
//! of the check prefix (`CHECK`, `CHECK-NEXT`, ..., or the prefix given by
//! `--check-prefix`) is removed first; RUN lines, other comments and the
//! input itself are left as they are. The file is written atomically, and
//! only when its text changes.

use crate::split_input::is_split_marker;
use lit::Tools;
use lit::execute;
use lit::run_line::{self, Pipeline, Stage, Substitutions};
use regex::Regex;
use std::path::Path;
use std::sync::LazyLock;

/// What an update did to a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateOutcome {
    /// The CHECK lines were rewritten.
    Updated,
    /// The generated CHECK lines were already there; the file was not touched.
    Unchanged,
    /// The file has nothing to update (no RUN line pipes into FileCheck).
    Skipped(String),
}

impl UpdateOutcome {
    /// A remark for the runner's result line (`None` when unchanged).
    pub fn note(&self) -> Option<String> {
        match self {
            UpdateOutcome::Updated => Some("checks updated".into()),
            UpdateOutcome::Unchanged => None,
            UpdateOutcome::Skipped(why) => Some(format!("checks not updated: {why}")),
        }
    }
}

/// The check prefix a FileCheck command line uses: the first one given
/// (`--check-prefix`, `--check-prefixes`), read by FileCheck's own option
/// parser (`filecheck::args`); `CHECK` when none is given or the command
/// line is one FileCheck would refuse.
pub fn check_prefix(filecheck_argv: &[String]) -> String {
    filecheck::args::command_args(filecheck_argv)
        .and_then(|args| filecheck::args::parse_args_with_color(args, || false).ok())
        .and_then(|parsed| parsed.opts.check_prefixes.into_iter().next())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "CHECK".to_string())
}

/// The command whose output the checks describe.
#[derive(Clone, Debug)]
pub struct Producer {
    /// The stages before FileCheck.
    pub pipeline: Pipeline,
    /// The check prefix FileCheck is given.
    pub prefix: String,
    /// Whether the command splits its input (`--split-input-file`).
    pub split: bool,
}

/// Finds the first RUN line with a FileCheck stage that checks printed IR
/// (not `not ...` or `... 2>&1`, which check diagnostics) and returns what
/// precedes it.
pub fn find_producer(text: &str, subs: &Substitutions) -> Result<Option<Producer>, String> {
    // With `DEFINE:`/`REDEFINE:` expanded, as the runner reads them.
    for (run, expanded) in lit::define::expanded_run_lines(text, &subs.custom)? {
        let pipelines = run_line::parse(&expanded, subs)
            .map_err(|e| format!("line {}: cannot parse the RUN line: {e}", run.line))?;
        for pipeline in pipelines {
            let Some(fc) = pipeline
                .stages
                .iter()
                .position(|s| filecheck::args::is_program_name(&s.argv[0]))
            else {
                continue;
            };
            if fc == 0 {
                return Err(format!(
                    "line {}: FileCheck reads no command's output on this RUN line",
                    run.line
                ));
            }
            // A producer that is expected to fail (`not`) or whose stderr is
            // merged in (`2>&1`) checks diagnostics, which are written by
            // hand: its checks are left alone.
            let checks_diagnostics = pipeline.stages[..fc]
                .iter()
                .any(|s| s.invert || s.stderr == run_line::StderrTarget::ToStdout);
            if checks_diagnostics {
                continue;
            }
            let stages: Vec<Stage> = pipeline.stages[..fc].to_vec();
            let split = stages
                .iter()
                .any(|s| s.argv.iter().any(|a| a == "--split-input-file"));
            return Ok(Some(Producer {
                prefix: check_prefix(&pipeline.stages[fc].argv),
                pipeline: Pipeline { stages },
                split,
            }));
        }
    }
    Ok(None)
}

/// pfir's CHECK-line regeneration, as the lit runner's `--update` hook
/// (the runner knows nothing of `.pfir`; pfir injects this through
/// [`lit::Config::update`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckUpdater;

impl lit::UpdateChecks for CheckUpdater {
    fn update(&self, path: &Path, tools: &Tools) -> Result<Option<String>, String> {
        update_file(path, tools).map(|outcome| outcome.note())
    }
}

/// Regenerates the CHECK lines of the test `path`, running its command with `tools`.
pub fn update_file(path: &Path, tools: &Tools) -> Result<UpdateOutcome, String> {
    // What the file was when read: an edit made while the command runs
    // is not overwritten.
    let read = crate::io::Snapshot::of_regular_file(path)
        .map_err(|e| format!("cannot update '{}': {e}", path.display()))?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let scratch = lit::ScratchDir::create(path)
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let lit_config = lit::config::LitConfig::for_test(path)?;
    let subs = Substitutions {
        source: path.to_path_buf(),
        temp: scratch.temp.clone(),
        custom: lit_config.substitutions,
    };
    let Some(producer) = find_producer(&text, &subs)? else {
        return Ok(UpdateOutcome::Skipped(
            "no RUN line pipes into FileCheck".into(),
        ));
    };
    // The output is needed whole to generate checks from it.
    let tools = Tools {
        capture_limit: UPDATE_CAPTURE_LIMIT,
        ..tools.clone()
    };
    let result = execute::run_pipeline(&producer.pipeline, &tools, None);
    drop(scratch);
    if !result.passed() {
        // Only the status: the test's own run shows the command's stderr,
        // so the runner's report does not show it twice.
        let mut why = format!("`{}` failed", producer.pipeline.display());
        for stage in result.stages.iter().filter(|s| !s.passed()) {
            why.push_str(&format!(": {}", stage.describe_status()));
        }
        return Err(why);
    }
    if result.stdout_dropped > 0 {
        return Err(format!(
            "the output of `{}` is larger than {}",
            producer.pipeline.display(),
            crate::io::read::describe_size(UPDATE_CAPTURE_LIMIT as u64)
        ));
    }
    let output = String::from_utf8(result.stdout)
        .map_err(|_| format!("`{}` printed invalid UTF-8", producer.pipeline.display()))?;
    if let Some(line) = unattributed_line(&output, producer.split) {
        let what = if line.is_empty() {
            "is empty".to_string()
        } else {
            format!("has text outside functions ({line:?})")
        };
        return Ok(UpdateOutcome::Skipped(format!(
            "the output of `{}` {what}, so its checks are left as written",
            producer.pipeline.display()
        )));
    }
    let new_text = generate(&text, &output, &producer.prefix, producer.split);
    if new_text == text {
        return Ok(UpdateOutcome::Unchanged);
    }
    crate::io::write_atomically_checked(path, Some(&read), |f| {
        std::io::Write::write_all(f, new_text.as_bytes())
    })
    .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    Ok(UpdateOutcome::Updated)
}

/// The most output an update reads from its command: 256 MiB.
pub const UPDATE_CAPTURE_LIMIT: usize = 256 << 20;

/// The first non-blank line of `output` that is not inside a printed
/// function (nor a `// -----` separator under `--split-input-file`): checks
/// generated per function could not describe it, so hand-written checks
/// are kept instead (`// RUN: echo hello | FileCheck %s`).
pub fn unattributed_line(output: &str, split: bool) -> Option<String> {
    let mut inside = false;
    for line in output.lines() {
        let trimmed = line.trim_end();
        if inside {
            if trimmed == "}" {
                inside = false;
            }
        } else if trimmed.is_empty() || (split && is_split_marker(trimmed)) {
        } else if line.starts_with(|c: char| !c.is_whitespace()) && FUNC_HEADER.is_match(line) {
            inside = !trimmed.ends_with('}');
        } else {
            return Some(trimmed.chars().take(60).collect());
        }
    }
    if output.trim().is_empty() {
        return Some(String::new());
    }
    None
}

static FUNC_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:(?:orchestration|incore|aic|aiv|group|opaque)\s+)?func\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(",
    )
    .expect("valid regex")
});

/// A function of the command's output and the check lines that describe it.
struct OutputFunction {
    name: String,
    checks: Vec<String>,
}

/// Escapes text that FileCheck would read as a regex or a variable.
fn escape_check(text: &str) -> String {
    text.replace("{{", "\u{0}")
        .replace("[[", "\u{1}")
        .replace('\u{0}', r"{{\{\{}}")
        .replace('\u{1}', r"{{\[\[}}")
}

fn output_functions(chunk: &str, prefix: &str) -> Vec<OutputFunction> {
    let mut functions = Vec::new();
    let mut current: Option<OutputFunction> = None;
    for line in chunk.lines() {
        if let Some(f) = current.as_mut() {
            let line = line.trim_end();
            if line.is_empty() {
                f.checks.push(format!("// {prefix}-EMPTY:"));
            } else {
                f.checks
                    .push(format!("// {prefix}-NEXT: {}", escape_check(line)));
            }
            if line == "}" {
                functions.extend(current.take());
            }
        } else if line.starts_with(|c: char| !c.is_whitespace())
            && let Some(caps) = FUNC_HEADER.captures(line)
        {
            current = Some(OutputFunction {
                name: caps[1].to_string(),
                checks: vec![format!(
                    "// {prefix}-LABEL: {}",
                    escape_check(line.trim_end())
                )],
            });
        }
    }
    // An unterminated function (truncated output) is still checked.
    functions.extend(current);
    functions
}

/// Whether `rest` (the text right after a prefix) makes a directive:
/// `:`, `-NEXT:`, `-COUNT-3:`, ... (`filecheck::is_directive_suffix`).
fn directive_suffix(rest: &str) -> bool {
    if rest.starts_with(':') {
        return true;
    }
    rest.strip_prefix('-')
        .and_then(|r| r.split_once(':'))
        .is_some_and(|(word, _)| filecheck::is_directive_suffix(word))
}

/// Where FileCheck would see a `prefix` directive in `line` (anywhere in
/// it, as FileCheck reads them, not only at the start of a comment): the
/// byte offset of the prefix. A RUN line is never a check line.
fn directive_at(line: &str, prefix: &str) -> Option<usize> {
    if line.contains("RUN:") || prefix.is_empty() {
        return None;
    }
    line.match_indices(prefix).map(|(i, _)| i).find(|&i| {
        let before_ok = line[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_'));
        before_ok && directive_suffix(&line[i + prefix.len()..])
    })
}

/// What becomes of an input line when the `prefix` checks are removed:
/// `None` keeps it; `Some(None)` drops it (a comment holding a directive,
/// `// CHECK: x` or `// text // CHECK: x`); `Some(Some(code))` keeps the
/// code before the comment that holds a directive (`x = 1 // CHECK: y`).
fn strip_checks(line: &str, prefix: &str) -> Option<Option<String>> {
    let at = directive_at(line, prefix)?;
    if line.trim_start().starts_with("//") {
        return Some(None);
    }
    let cut = line[..at].find("//")?;
    let eol = &line[fsutil::lines::strip_line_break(line).len()..];
    Some(Some(format!("{}{eol}", line[..cut].trim_end())))
}

/// Whether `line` is a FileCheck directive of `prefix` (wherever in the
/// line FileCheck would find it).
#[cfg(test)]
fn is_check_line(line: &str, prefix: &str) -> bool {
    strip_checks(line, prefix).is_some()
}

/// Rewrites the `prefix` checks of the test `input` from the command
/// output `output` (split into chunks when `split`). Pure: see the module
/// documentation for the rules.
pub fn generate(input: &str, output: &str, prefix: &str, split: bool) -> String {
    // The input's lines without the old checks, cut into chunks.
    let mut chunks: Vec<Vec<String>> = vec![Vec::new()];
    let mut markers: Vec<String> = Vec::new();
    let eol = if input.contains("\r\n") { "\r\n" } else { "\n" };
    // Lines as the compiler and editors read them: a lone `\r` ends one,
    // so a check comment never takes the code after it along.
    // Check lines removed since the last line kept: a blank line after
    // them that would follow a blank line is dropped (the blank lines that
    // stood around a hand-written block do not become a double one).
    let mut removed = false;
    for line in fsutil::lines::lines_inclusive(input) {
        let line = match strip_checks(line, prefix) {
            None => line.to_string(),
            Some(None) => {
                removed = true;
                continue;
            }
            Some(Some(code)) => code,
        };
        let line = line.as_str();
        if split && is_split_marker(line) {
            markers.push(line.to_string());
            chunks.push(Vec::new());
        } else {
            let chunk = chunks.last_mut().expect("never empty");
            let blank = line.trim().is_empty();
            if !(blank && removed && chunk.last().is_some_and(|l| l.trim().is_empty())) {
                chunk.push(line.to_string());
            }
        }
        removed = false;
    }

    // The output's functions, per chunk.
    let output_chunks: Vec<Vec<OutputFunction>> = if split {
        crate::split_input::split_chunks(output)
            .into_iter()
            .map(|(_, c)| output_functions(c, prefix))
            .collect()
    } else {
        vec![output_functions(output, prefix)]
    };

    // Which input chunk each output chunk belongs to.
    let assignment = assign_chunks(&chunks, &output_chunks);
    let mut per_input: Vec<Vec<OutputFunction>> = chunks.iter().map(|_| Vec::new()).collect();
    for (functions, target) in output_chunks.into_iter().zip(assignment) {
        per_input[target].extend(functions);
    }

    let mut out = String::new();
    for (i, (lines, functions)) in chunks.iter().zip(per_input).enumerate() {
        out.push_str(&place_checks(lines, functions, eol));
        if let Some(marker) = markers.get(i) {
            out.push_str(marker);
        }
    }
    out
}

/// The functions of an input chunk, in order: the line where each header
/// starts (its qualifier, such as `orchestration`, or `func`) and its name.
/// Read with the lexer, so headers spread over several lines, and `func`
/// in comments, are handled as the parser sees them.
fn input_headers(lines: &[String]) -> Vec<(usize, String)> {
    use crate::lexer::Tok;
    let text: String = lines.concat();
    let mut line_starts = Vec::with_capacity(lines.len());
    let mut offset = 0;
    for l in lines {
        line_starts.push(offset);
        offset += l.len();
    }
    let line_of = |at: usize| line_starts.partition_point(|&s| s <= at).saturating_sub(1);
    let Ok(tokens) = crate::lexer::lex(&text, 0) else {
        return Vec::new();
    };
    let mut headers = Vec::new();
    for (i, (start, tok, _)) in tokens.iter().enumerate() {
        if !matches!(tok, Tok::Func) {
            continue;
        }
        let Some((_, Tok::Ident(name), _)) = tokens.get(i + 1) else {
            continue;
        };
        let qualified = i > 0
            && matches!(
                tokens[i - 1].1,
                Tok::Orchestration | Tok::InCore | Tok::Aic | Tok::Aiv | Tok::Group | Tok::Opaque
            );
        let at = if qualified { tokens[i - 1].0 } else { *start };
        headers.push((line_of(at), name.to_string()));
    }
    headers
}

fn input_function_names(lines: &[String]) -> Vec<String> {
    input_headers(lines).into_iter().map(|(_, n)| n).collect()
}

/// Matches output chunks to input chunks: one to one when the counts agree;
/// otherwise (the driver prints nothing for a chunk with errors) each output
/// chunk goes to the next input chunk that defines its first function.
fn assign_chunks(inputs: &[Vec<String>], outputs: &[Vec<OutputFunction>]) -> Vec<usize> {
    if inputs.len() == outputs.len() {
        return (0..outputs.len()).collect();
    }
    let names: Vec<Vec<String>> = inputs.iter().map(|l| input_function_names(l)).collect();
    let mut next = 0;
    outputs
        .iter()
        .map(|functions| {
            let found = functions
                .first()
                .and_then(|f| (next..inputs.len()).find(|&i| names[i].contains(&f.name)));
            let target = found.unwrap_or(next.min(inputs.len() - 1));
            next = (target + 1).min(inputs.len() - 1).max(next);
            target
        })
        .collect()
}

/// Inserts each function's checks above the input function of its name.
/// Functions are matched in order (the printer keeps the input's order), so
/// the blocks always appear in the order of the output, which CHECK-LABEL
/// needs: an output function with no input function of its name after the
/// previous match goes with the next matched one, or at the end.
fn place_checks(lines: &[String], functions: Vec<OutputFunction>, eol: &str) -> String {
    let headers = input_headers(lines);
    let mut above: Vec<Vec<String>> = vec![Vec::new(); lines.len()];
    let mut next_header = 0;
    let mut pending: Vec<String> = Vec::new();
    for f in functions {
        let found = headers[next_header..]
            .iter()
            .position(|(_, name)| *name == f.name)
            .map(|k| next_header + k);
        match found {
            Some(h) => {
                next_header = h + 1;
                let line = headers[h].0;
                above[line].append(&mut pending);
                above[line].extend(f.checks);
            }
            None => pending.extend(f.checks),
        }
    }
    let mut out = String::new();
    for (line, checks) in lines.iter().zip(above) {
        for c in checks {
            out.push_str(&c);
            out.push_str(eol);
        }
        out.push_str(line);
    }
    if !pending.is_empty() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        for c in pending {
            out.push_str(&c);
            out.push_str(eol);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "\
// RUN: pfir opt %s | FileCheck %s

// A comment that stays.
func kernel() -> task_id {
  return system.task_invalid()
}

// CHECK-LABEL: stale
// CHECK: stale too
orchestration func main(n: i64) -> task_id {
  return   system.task_invalid()
}
";

    const OUTPUT: &str = "\
func kernel() -> task_id {
  return system.task_invalid()
}

orchestration func main(n: i64) -> task_id {
  x = f(deps=[[a]], {{b}})

  return system.task_invalid()
}
";

    const EXPECTED: &str = "\
// RUN: pfir opt %s | FileCheck %s

// A comment that stays.
// CHECK-LABEL: func kernel() -> task_id {
// CHECK-NEXT:   return system.task_invalid()
// CHECK-NEXT: }
func kernel() -> task_id {
  return system.task_invalid()
}

// CHECK-LABEL: orchestration func main(n: i64) -> task_id {
// CHECK-NEXT:   x = f(deps={{\\[\\[}}a]], {{\\{\\{}}b}})
// CHECK-EMPTY:
// CHECK-NEXT:   return system.task_invalid()
// CHECK-NEXT: }
orchestration func main(n: i64) -> task_id {
  return   system.task_invalid()
}
";

    #[test]
    fn generates_label_next_blocks_above_functions() {
        let got = generate(INPUT, OUTPUT, "CHECK", false);
        assert_eq!(got, EXPECTED);
    }

    #[test]
    fn a_lone_cr_ends_the_check_line_it_ends() {
        // The code after the `\r` is a line of its own for the lexer and
        // editors: removing the old check keeps it.
        let input = "// RUN: x\n// CHECK: old\rfunc f() {\r}\n";
        let got = generate(input, "func f() {\n}\n", "CHECK", false);
        assert!(!got.contains("old"), "{got:?}");
        assert!(got.contains("func f() {\r}\n"), "{got:?}");
        assert!(got.contains("// CHECK-LABEL: func f() {"), "{got:?}");
        // Code before a check comment keeps its lone `\r`.
        assert_eq!(
            strip_checks("x = 1 // CHECK: y\r", "CHECK"),
            Some(Some("x = 1\r".to_string()))
        );
    }

    #[test]
    fn idempotent() {
        let once = generate(INPUT, OUTPUT, "CHECK", false);
        let twice = generate(&once, OUTPUT, "CHECK", false);
        assert_eq!(once, twice);
    }

    /// The output of a file holding `func f() {\n}\n`.
    const F: &str = "func f() {\n}\n";

    /// Inputs around `f`, and what `generate` makes of them with the
    /// prefix `CHECK`: (what it shows, input, result).
    const AROUND_F: [(&str, &str, &str); 5] = [
        (
            "other prefixes and comments stay",
            "// RUN: x\n// OTHER: keep\n// CHECK-SAME: go\n// CHECKER: keep\n// CHECK-COUNT-2: go\n// CHECK-NOT: go\nfunc f() {\n}\n",
            "// RUN: x\n// OTHER: keep\n// CHECKER: keep\n// CHECK-LABEL: func f() {\n// CHECK-NEXT: }\nfunc f() {\n}\n",
        ),
        (
            "directives anywhere in a line are removed",
            "// RUN: x\n// a note // CHECK: stale\nfunc f() { // CHECK-NEXT: stale\n}\n// CHECKER: kept\n// RUN: y --check-prefix=CHECK:\n",
            "// RUN: x\n// CHECK-LABEL: func f() {\n// CHECK-NEXT: }\nfunc f() {\n}\n// CHECKER: kept\n// RUN: y --check-prefix=CHECK:\n",
        ),
        (
            "CRLF files stay CRLF",
            "// RUN: x\r\n// CHECK: old\r\nfunc f() {\r\n}\r\n",
            "// RUN: x\r\n// CHECK-LABEL: func f() {\r\n// CHECK-NEXT: }\r\nfunc f() {\r\n}\r\n",
        ),
        (
            "a block between two blank lines leaves one blank line, not two",
            "// RUN: x\n\n// CHECK: old\n// CHECK: older\n\nfunc f() {\n}\n",
            "// RUN: x\n\n// CHECK-LABEL: func f() {\n// CHECK-NEXT: }\nfunc f() {\n}\n",
        ),
        (
            "blank lines no check stood between stay",
            "// RUN: x\n\n\nfunc f() {\n}\n",
            "// RUN: x\n\n\n// CHECK-LABEL: func f() {\n// CHECK-NEXT: }\nfunc f() {\n}\n",
        ),
    ];

    #[test]
    fn checks_around_f_are_regenerated() {
        for (what, input, expected) in AROUND_F {
            assert_eq!(generate(input, F, "CHECK", false), expected, "{what}");
        }
        // Directives stand anywhere in a line.
        assert!(is_check_line("x // CHECK-COUNT-2: y", "CHECK"));
        assert!(!is_check_line("// MYCHECK: y", "CHECK"));
    }

    #[test]
    fn other_prefixes_and_comments_stay() {
        // With another prefix, CHECK lines are someone else's.
        let got = generate(AROUND_F[0].1, F, "OTHER", false);
        assert!(got.contains("// CHECK-SAME: go"));
        assert!(got.contains("// OTHER-LABEL: func f() {"));
        assert!(!got.contains("// OTHER: keep"));
    }

    #[test]
    fn unknown_output_functions_go_to_the_end() {
        let got = generate("func f() {\n}", "func g() {\n}\n", "CHECK", false);
        assert_eq!(
            got,
            "func f() {\n}\n// CHECK-LABEL: func g() {\n// CHECK-NEXT: }\n"
        );
    }

    #[test]
    fn split_input_file_per_chunk() {
        let input = "// RUN: pfir opt --split-input-file %s | FileCheck %s\nfunc f() {\n}\n\n// -----\n\nfunc f() {\n}\n// -----\nfunc g() {\n}\n";
        // The middle chunk failed, so the driver printed nothing for it.
        let output = "func f() {\n  a = 1\n}\n// -----\nfunc g() {\n}\n";
        let got = generate(input, output, "CHECK", true);
        let expected = "// RUN: pfir opt --split-input-file %s | FileCheck %s\n// CHECK-LABEL: func f() {\n// CHECK-NEXT:   a = 1\n// CHECK-NEXT: }\nfunc f() {\n}\n\n// -----\n\nfunc f() {\n}\n// -----\n// CHECK-LABEL: func g() {\n// CHECK-NEXT: }\nfunc g() {\n}\n";
        assert_eq!(got, expected);
        assert_eq!(generate(&got, output, "CHECK", true), got);

        // Same number of chunks: matched by position, even with equal names.
        let output = "func f() {\n}\n// -----\nfunc f() {\n  b = 2\n}\n// -----\nfunc g() {\n}\n";
        let got = generate(input, output, "CHECK", true);
        assert!(got.contains("// -----\n\n// CHECK-LABEL: func f() {\n// CHECK-NEXT:   b = 2\n"));
    }

    #[test]
    fn prefixes_from_filecheck_arguments() {
        let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(check_prefix(&argv("FileCheck %s")), "CHECK");
        assert_eq!(
            check_prefix(&argv("FileCheck --check-prefix=FOO %s")),
            "FOO"
        );
        assert_eq!(check_prefix(&argv("FileCheck -check-prefix BAR %s")), "BAR");
        assert_eq!(
            check_prefix(&argv("FileCheck --check-prefixes=A,B %s")),
            "A"
        );
        // As FileCheck reads its command line: `pfir filecheck`, and an
        // option after the input file.
        assert_eq!(
            check_prefix(&argv("pfir filecheck %s -check-prefixes B,C")),
            "B"
        );
        // A command line FileCheck refuses names no prefix.
        assert_eq!(
            check_prefix(&argv("FileCheck --check-prefix=X --bogus %s")),
            "CHECK"
        );
    }

    #[test]
    fn producer_is_the_part_before_filecheck() {
        let subs = Substitutions {
            source: "t.pfir".into(),
            temp: "t.tmp".into(),
            custom: Vec::new(),
        };
        let text = "// RUN: not pfir opt --verify-diagnostics %s\n// RUN: pfir opt --split-input-file %s | pfir opt | FileCheck %s --check-prefix=X\n";
        let p = find_producer(text, &subs).unwrap().unwrap();
        assert_eq!(
            p.pipeline.display(),
            "pfir opt --split-input-file t.pfir | pfir opt"
        );
        assert_eq!(p.prefix, "X");
        assert!(p.split);
        assert!(
            find_producer("// RUN: pfir opt %s\n", &subs)
                .unwrap()
                .is_none()
        );
        assert!(find_producer("// RUN: FileCheck %s\n", &subs).is_err());
    }

    #[test]
    fn producer_reads_define_as_the_runner_does() {
        let subs = Substitutions {
            source: "t.pfir".into(),
            temp: "t.tmp".into(),
            custom: vec![("opts".into(), "--keep-comments".into())],
        };
        let text = "// DEFINE: %{fc} = FileCheck %s --check-prefix=A\n\
                    // DEFINE: %{run} = pfir opt %s %{opts} | %{fc}\n\
                    // REDEFINE: %{fc} = FileCheck %s --check-prefix=B\n\
                    // RUN: %{run}\n";
        let p = find_producer(text, &subs).unwrap().unwrap();
        assert_eq!(p.pipeline.display(), "pfir opt t.pfir --keep-comments");
        assert_eq!(p.prefix, "B");
        // The runner's errors are its errors.
        let err = find_producer("// REDEFINE: %{x} = 1\n// RUN: %{x}\n", &subs).unwrap_err();
        assert!(err.contains("No substitution for '%{x}'"), "{err}");
    }

    #[test]
    fn diagnostic_checks_are_not_producers() {
        let subs = Substitutions {
            source: "t.pfir".into(),
            temp: "t.tmp".into(),
            custom: Vec::new(),
        };
        let text = "// RUN: not pfir opt %s 2>&1 | FileCheck %s --check-prefix=ERR\n\
                    // RUN: pfir opt %s --remarks 2>&1 | FileCheck %s --check-prefix=REM\n\
                    // RUN: pfir opt %s | FileCheck %s\n";
        let p = find_producer(text, &subs).unwrap().unwrap();
        assert_eq!(p.prefix, "CHECK");
        assert_eq!(p.pipeline.display(), "pfir opt t.pfir");
    }

    #[test]
    fn multi_line_headers_keep_the_output_order() {
        // `f`'s header spans lines: its block goes above it, before `g`'s.
        let input = "// RUN: x\norchestration\nfunc f\n(a: i64) {\n}\nfunc g() {\n}\n";
        let output = "orchestration func f(a: i64) {\n}\nfunc g() {\n}\n";
        let got = generate(input, output, "CHECK", false);
        assert_eq!(
            got,
            "// RUN: x\n// CHECK-LABEL: orchestration func f(a: i64) {\n// CHECK-NEXT: }\norchestration\nfunc f\n(a: i64) {\n}\n// CHECK-LABEL: func g() {\n// CHECK-NEXT: }\nfunc g() {\n}\n"
        );
        // `func` in a comment is not a header.
        let input = "// func g() is below\nfunc g() {\n}\n";
        let got = generate(input, "func g() {\n}\n", "CHECK", false);
        assert!(
            got.starts_with("// func g() is below\n// CHECK-LABEL: func g() {\n"),
            "{got}"
        );
    }

    #[test]
    fn unknown_functions_keep_their_place_in_the_order() {
        // `h` has no input function: its block goes before `g`'s, as printed.
        let got = generate(
            "func f() {\n}\nfunc g() {\n}\n",
            "func f() {\n}\nfunc h() {\n}\nfunc g() {\n}\n",
            "CHECK",
            false,
        );
        let h = got.find("func h").unwrap();
        let g = got.find("// CHECK-LABEL: func g").unwrap();
        assert!(h < g, "{got}");
    }

    #[test]
    fn crlf_files_have_no_bare_lf() {
        let got = generate(AROUND_F[2].1, F, "CHECK", false);
        assert!(!got.replace("\r\n", "").contains('\n'), "no bare LF");
    }

    #[test]
    fn output_outside_functions_is_not_attributed() {
        assert_eq!(unattributed_line("hello\n", false), Some("hello".into()));
        assert_eq!(unattributed_line("", false), Some(String::new()));
        assert_eq!(
            unattributed_line("func f() {\n  x\n}\n\nfunc g() {}\n", false),
            None
        );
        assert_eq!(
            unattributed_line("func f() {\n}\n// -----\nfunc g() {\n}\n", true),
            None
        );
        assert_eq!(
            unattributed_line("func f() {\n}\ntrailing\n", false),
            Some("trailing".into())
        );
    }

    /// Text made of up to `max` of `pieces`.
    fn soup(
        pieces: &'static [&'static str],
        max: usize,
    ) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        proptest::collection::vec(proptest::sample::select(pieces), 0..max).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        #![proptest_config(crate::testing::never_panics_config())]

        /// The test and the output are user input: whatever they hold,
        /// generating checks never panics.
        #[test]
        fn generation_never_panics(
            input in soup(&["a", "b", " ", "\t", "\n", "\r\n", "{{", "[[", "é", "x = 1", "CHECK:", ""], 30),
            output in soup(&["func f() {\n", "}\n", "  x\n", "// -----\n", "\n", "{{"], 20),
            split in proptest::prelude::any::<bool>(),
        ) {
            let _ = generate(&input, &output, "CHECK", split);
        }
    }
}
