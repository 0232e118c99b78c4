//! `pfir fmt` and `pfir opt --keep-comments`: the command line (stdout,
//! `-i`, `--check`, unreadable input left alone), random programs with
//! random comments (kept, idempotent, same IR), and every `.pfir` test
//! giving the same result after formatting.

use pfir::ir::equality::modules_equal;
use proptest::prelude::*;
use std::path::Path;

/// `pfir::format`, with the diagnostics of an error.
fn format_text(text: &str) -> Result<String, Vec<pfir::diagnostics::Diagnostic>> {
    pfir::format(text).map_err(|e| e.diagnostics)
}

/// `pfir::format_with_width`, with the diagnostics of an error.
fn format_text_with(
    text: &str,
    width: usize,
) -> Result<String, Vec<pfir::diagnostics::Diagnostic>> {
    pfir::format_with_width(text, width).map_err(|e| e.diagnostics)
}

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut pfir = std::process::Command::new(PFIR);
    crate::support::run_with_input(pfir.args(args), stdin.as_bytes())
}

const MESSY: &str = "// note\nfunc f() {\n    a = 1   // one\n}\n";
const TIDY: &str = "// note\nfunc f() {\n  a = 1 // one\n}\n";

#[test]
fn stdin_to_stdout() {
    let (code, out, _) = run(&["fmt"], MESSY);
    assert_eq!((code, out.as_str()), (0, TIDY));
    let (code, out, _) = run(&["fmt", "-"], MESSY);
    assert_eq!((code, out.as_str()), (0, TIDY));
}

#[test]
fn in_place_rewrites_and_keeps_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.pfir");
    std::fs::write(&path, MESSY).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let (code, out, _) = run(&["fmt", "-i", path.to_str().unwrap()], "");
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TIDY);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn check_prints_a_diff_and_fails_only_when_a_file_would_change() {
    let dir = tempfile::tempdir().unwrap();
    let messy = dir.path().join("messy.pfir");
    let tidy = dir.path().join("tidy.pfir");
    std::fs::write(&messy, MESSY).unwrap();
    std::fs::write(&tidy, TIDY).unwrap();
    let (code, out, _) = run(&["fmt", "--check", tidy.to_str().unwrap()], "");
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = run(
        &[
            "fmt",
            "--check",
            tidy.to_str().unwrap(),
            messy.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("-    a = 1   // one\n+  a = 1 // one\n"),
        "{out}"
    );
    assert!(!out.contains("tidy.pfir"), "{out}");
    // --check writes nothing.
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), MESSY);
}

#[test]
fn unreadable_input_is_reported_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pfir");
    let good = dir.path().join("good.pfir");
    let broken = "// keep me\nfunc f( {\n    a = 1\n}\n";
    std::fs::write(&bad, broken).unwrap();
    std::fs::write(&good, MESSY).unwrap();
    let (code, out, err) = run(&["fmt", bad.to_str().unwrap()], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("bad.pfir:2:"), "{err}");
    let (code, _, _) = run(
        &["fmt", "-i", bad.to_str().unwrap(), good.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 1);
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), broken);
    // The good file is still formatted.
    assert_eq!(std::fs::read_to_string(&good).unwrap(), TIDY);
}

/// A file with semantic errors but no syntax error is formatted silently
/// (its errors are `pfir check`'s business): what was written is printed,
/// unknown names and callees included.
#[test]
fn semantic_errors_do_not_stop_formatting() {
    let (code, out, err) = run(
        &["fmt"],
        "func f() {\n  a =   b\n  t = submit nope(a,\n    deps=[a])\n}\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "func f() {\n  a = b\n  t = submit nope(a, deps=[a])\n}\n"
    );
    assert_eq!(err, "");
    // `pfir check` still reports both errors on the output.
    let (code, _, err) = run(&["check", "-"], &out);
    assert_eq!(code, 1);
    assert!(err.contains("unknown variable `b`"), "{err}");
    assert!(err.contains("unknown function `nope`"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["fmt", "a.pfir", "b.pfir"], "").0, 2);
    assert_eq!(run(&["fmt", "-i"], "").0, 2);
    assert_eq!(run(&["fmt", "-i", "--check", "x.pfir"], "").0, 2);
}

const WITH_DIRECTIVES: &str = "// RUN: pfir opt %s
// CHECK: func
func k() {
}

// The main job.
orchestration func main() {
  manual {
    tids = array.create(4, task_id)
    // expected-remark@+1 {{whatever}}
    for p in parallel(4) { // producers
      a = submit k(deps=[tids]) // first consumer
      b = submit k(deps=[tids])
    }
  }
}
";

#[test]
fn opt_drops_comments_by_default_and_keeps_the_non_directives_on_request() {
    let (code, plain, _) = run(&["opt", "-"], WITH_DIRECTIVES);
    assert_eq!(code, 0);
    assert!(!plain.contains("//"), "{plain}");
    let (code, kept, _) = run(&["opt", "-", "--keep-comments"], WITH_DIRECTIVES);
    assert_eq!(code, 0);
    assert!(
        kept.contains("// The main job.\norchestration func main() {"),
        "{kept}"
    );
    assert!(
        kept.contains("for p in parallel(4) { // producers"),
        "{kept}"
    );
    for directive in ["RUN:", "CHECK:", "expected-remark"] {
        assert!(!kept.contains(directive), "{kept}");
    }
    // Without the comments, the text is the plain output.
    let stripped: String = kept
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{}\n", l.split(" //").next().unwrap()))
        .collect();
    assert_eq!(stripped, plain);
}

#[test]
fn comments_survive_the_pass_and_the_barrier_has_none() {
    let src = "func k() {\n}\n\norchestration func main() {\n  manual {\n    tids = array.create(4, task_id)\n    for p in parallel(4) {\n      // the producer\n      t = submit k()\n      tids2 = array.update_element(tids, p, t)\n    }\n    // the consumers\n    for c in parallel(8) { // eight of them\n      a = submit k(deps=[tids]) // reads tids\n    }\n  }\n}\n";
    let (code, out, err) = run(
        &[
            "opt",
            "-",
            "--keep-comments",
            "--passes=expand-manual-phase-fence",
        ],
        src,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("phase_fence_barrier_0_tid = system.task_dummy"),
        "{out}"
    );
    let barrier = out
        .lines()
        .find(|l| l.contains("phase_fence_barrier_0_tid = system.task_dummy"))
        .unwrap();
    assert!(!barrier.contains("//"), "{barrier}");
    for c in [
        "// the producer",
        "// the consumers",
        "for c in parallel(8) { // eight of them",
        "// reads tids",
    ] {
        assert!(out.contains(c), "{c} lost:\n{out}");
    }
    let rewritten = out.lines().find(|l| l.contains("// reads tids")).unwrap();
    assert!(
        rewritten.contains("deps=[phase_fence_barrier_0_tid]"),
        "{out}"
    );
}

/// The comments of `text`, trimmed of trailing spaces, sorted.
fn comment_texts(text: &str) -> Vec<String> {
    let mut v: Vec<String> = pfir::lexer::comments(text, 0)
        .into_iter()
        .map(|s| text[s.range()].trim_end().to_string())
        .collect();
    v.sort();
    v
}

fn with_comments(src: &str, picks: &[(usize, bool)]) -> String {
    let tokens = pfir::lexer::lex(src, 0).expect("lexes");
    let mut cuts: Vec<(usize, usize, bool)> = picks
        .iter()
        .enumerate()
        .map(|(i, &(at, own_line))| (tokens[at % tokens.len()].2, i, own_line))
        .collect();
    cuts.sort();
    let mut out = String::new();
    let mut last = 0;
    for (at, i, own_line) in cuts {
        out.push_str(&src[last..at]);
        if own_line {
            out.push_str(&format!("\n// own {i}\n"));
        } else {
            out.push_str(&format!(" // trailing {i}\n"));
        }
        last = at;
    }
    out.push_str(&src[last..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fmt_keeps_comments_is_idempotent_and_keeps_the_ir(
        program in crate::support::generator::program(),
        picks in proptest::collection::vec((0usize..10_000, any::<bool>()), 0..12),
    ) {
        let src = crate::support::generator::render(&program);
        let commented = with_comments(&src, &picks);
        let formatted = format_text(&commented)
            .unwrap_or_else(|d| panic!("{commented}\n{d:?}"));
        prop_assert_eq!(comment_texts(&formatted), comment_texts(&commented));
        let again = format_text(&formatted).unwrap();
        prop_assert_eq!(&again, &formatted);
        let before = crate::support::module(&src);
        let after = crate::support::module(&formatted);
        if let Err(e) = modules_equal(&before, &after) {
            panic!("{e}\n{commented}\n{formatted}");
        }
    }

    /// At any line width, the result is a fixpoint at that width, keeps
    /// the comments, reads back to the same IR, and `pfir opt` prints it
    /// exactly as the original.
    #[test]
    fn layout_by_width_keeps_the_ir_and_is_a_fixpoint(
        program in crate::support::generator::program(),
        picks in proptest::collection::vec((0usize..10_000, any::<bool>()), 0..6),
        width in 10usize..120,
    ) {
        let src = crate::support::generator::render(&program);
        let commented = with_comments(&src, &picks);
        let formatted = format_text_with(&commented, width)
            .unwrap_or_else(|d| panic!("{commented}\n{d:?}"));
        prop_assert_eq!(comment_texts(&formatted), comment_texts(&commented));
        let again = format_text_with(&formatted, width).unwrap();
        prop_assert_eq!(&again, &formatted, "not a fixpoint at width {}", width);
        let before = crate::support::module(&src);
        let after = crate::support::module(&formatted);
        if let Err(e) = modules_equal(&before, &after) {
            panic!("{e}\n{commented}\n{formatted}");
        }
        prop_assert_eq!(
            pfir::parse(&formatted).module.map(|m| pfir::print(&m)).unwrap(),
            pfir::parse(&src).module.map(|m| pfir::print(&m)).unwrap()
        );
    }
}

use crate::support::pfir_files;

/// `tests/` and every `.pfir` file under it, in order.
fn test_files() -> (std::path::PathBuf, Vec<std::path::PathBuf>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    pfir_files(&root, &mut files);
    files.sort();
    (root, files)
}

/// Every `.pfir` test under `tests/`, formatted (when it reads), passes or
/// fails exactly as it did before (run by the lit runner from copies of the
/// tree; the non-canonical roundtrip tests are formatted too).
#[test]
fn formatting_every_test_keeps_its_result() {
    let (root, files) = test_files();
    // The tests are formatted; their `Inputs/` stay as they are.
    let tests = lit::discover(std::slice::from_ref(&root)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (before, after) = (tmp.path().join("before"), tmp.path().join("after"));
    let mut formatted = 0;
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap();
        let text = std::fs::read_to_string(f).unwrap();
        // Diagnostics tests whose CHECK lines name the line and column
        // of their mistake, a line that formatting splits in two.
        let pinned = rel.ends_with("diagnostics/suggest-submit-keyword.pfir")
            || rel.ends_with("diagnostics/suggest-submit-keyword-deps.pfir");
        let is_test = tests.iter().any(|t| t == f) && !pinned;
        let new = is_test.then(|| format_text(&text).ok()).flatten();
        formatted += usize::from(new.is_some());
        for (dir, contents) in [(&before, &text), (&after, new.as_ref().unwrap_or(&text))] {
            let p = dir.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, contents).unwrap();
        }
    }
    assert!(formatted > 30, "only {formatted} files formatted");
    // Both trees through `pfir test`, each test's verdict compared.
    let (before_verdicts, _) = verdicts(&before);
    let (after_verdicts, after_report) = verdicts(&after);
    assert!(before_verdicts.len() > 30);
    assert_eq!(
        before_verdicts.keys().collect::<Vec<_>>(),
        after_verdicts.keys().collect::<Vec<_>>()
    );
    let differ: Vec<String> = before_verdicts
        .iter()
        .filter(|(rel, verdict)| after_verdicts[*rel] != **verdict)
        .map(|(rel, verdict)| format!("{rel}: before {verdict} after {}", after_verdicts[rel]))
        .collect();
    assert!(differ.is_empty(), "{}\n{after_report}", differ.join("\n"));
}

/// Each test's verdict (`PASS`, `FAIL`, `UNSUPPORTED`, ...) by its path
/// under `dir`, from the result lines of `pfir test DIR`, and its whole
/// report.
fn verdicts(dir: &Path) -> (std::collections::BTreeMap<String, String>, String) {
    let prefix = format!("{}/", dir.display());
    let (_, stdout, stderr) = run(&["test", &dir.display().to_string()], "");
    let verdicts = stdout
        .lines()
        .filter_map(|line| {
            let (verdict, rest) = line.split_once(": ")?;
            if !verdict.bytes().all(|b| b.is_ascii_uppercase()) {
                return None;
            }
            let path = rest.strip_prefix(&prefix)?;
            let path = path.split(" (").next().unwrap_or(path);
            Some((path.to_string(), verdict.to_string()))
        })
        .collect();
    (verdicts, stdout + &stderr)
}

/// The repository's own `.pfir` files are formatted, except those in
/// `.ci/fmt-skip.txt`; every file listed there exists and really needs the
/// exclusion: it has a syntax error and its reason says so, or it formats
/// (its reason does not claim a syntax error) but formatting would change
/// its deliberate spelling.
#[test]
fn repository_files_are_formatted_and_the_skip_list_is_exact() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list = std::fs::read_to_string(root.join(".ci/fmt-skip.txt")).unwrap();
    let entries: Vec<(&str, &str)> = list
        .lines()
        .filter_map(|l| {
            let (path, reason) = l.split_once('#').unwrap_or((l, ""));
            let path = path.trim();
            (!path.is_empty()).then_some((path, reason))
        })
        .collect();
    let skip: Vec<&str> = entries.iter().map(|e| e.0).collect();
    let mut files = Vec::new();
    pfir_files(&root.join("tests"), &mut files);
    pfir_files(&root.join("examples"), &mut files);
    let mut problems = Vec::new();
    for &(s, reason) in &entries {
        let text = std::fs::read_to_string(root.join(s));
        let says_syntax = reason.contains("syntax error");
        match text.map(|t| (format_text(&t), t)) {
            Err(_) => problems.push(format!("{s}: listed but missing")),
            Ok((Ok(f), t)) if f == t => problems.push(format!("{s}: listed but already formatted")),
            Ok((Ok(_), _)) if says_syntax => {
                problems.push(format!("{s}: listed for a syntax error, but it formats"))
            }
            Ok((Err(_), _)) if !says_syntax => problems.push(format!(
                "{s}: does not format, but its reason in .ci/fmt-skip.txt names no syntax error"
            )),
            Ok(_) => {}
        }
    }
    for f in &files {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if skip.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        match format_text(&text) {
            Ok(new) if new == text => {}
            Ok(_) => problems.push(format!("{rel}: not formatted (run `pfir fmt -i {rel}`)")),
            Err(_) => problems.push(format!(
                "{rel}: does not read and is not in .ci/fmt-skip.txt"
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A lone `\r` ends a line, and so a `//` comment, as it does in an
/// editor: the code after it is compiled (the issue's repro hid a function
/// with an error behind a comment), reported on the line an editor shows,
/// and formatted with its comments where they were (line ends become `\n`).
#[test]
fn a_lone_carriage_return_ends_a_comment_and_a_line() {
    let hidden = "// RUN: touch x\rfunc k() -> task_id {\r return nope\r}\r";
    let (code, out, err) = run(&["check", "-", "--diagnostic-format=short"], hidden);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains(":3:9: error[E0010]"), "{err}");
    let (code, _, err) = run(&["check", "-"], hidden);
    assert_eq!(code, 1);
    assert!(
        err.contains("3 │  return nope"),
        "the snippet shows line 3: {err}"
    );

    let src = "// c\rfunc k() -> task_id { // t\r  return system.task_invalid()\r}\r// end\r";
    let tidy = "// c\nfunc k() -> task_id { // t\n  return system.task_invalid()\n}\n// end\n";
    let (code, out, err) = run(&["fmt", "-"], src);
    assert_eq!((code, out.as_str()), (0, tidy), "{err}");
    let (code, out, err) = run(&["opt", "-", "--keep-comments"], src);
    assert_eq!((code, out.as_str()), (0, tidy), "{err}");
    let (code, out, _) = run(&["opt", "-"], src);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "func k() -> task_id {\n  return system.task_invalid()\n}\n"
        )
    );
}

/// Valid files whose tokens the property below mutates.
const MUTATION_SEEDS: &[&str] = &[
    include_str!("../../examples/first.pfir"),
    include_str!("../../examples/chained_phases.pfir"),
    include_str!("../../examples/every_construct.pfir"),
    include_str!("../../examples/fan_in.pfir"),
];

/// What a mutation may put in a name's or literal's place, or insert as
/// an argument: names (known and not), callees, keyword arguments,
/// literals (one out of range) and, rarely, punctuation.
const MUTATION_TOKENS: &[&str] = &[
    "x",
    "nope",
    "kernel",
    "tids",
    "produce",
    "consume",
    "submit",
    "deps=[x]",
    "k=1",
    "deps=x",
    "1",
    "99999999999999999999",
    "true",
    "none",
    "task_id",
    "nope(1)",
    "array.create",
    "system.task_dummy",
    "main",
    ",",
    "=",
];

/// Whether a token is a name, an op name or a number (not a keyword: the
/// language's one list, `pfir::vocab`).
fn is_word(token: &str) -> bool {
    use pfir::vocab::{KEYWORD_OPERATORS, KEYWORDS, LOOP_KINDS};
    token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        && !KEYWORDS.contains(&token)
        && !KEYWORD_OPERATORS.contains(&token)
        && !LOOP_KINDS.iter().any(|k| k.keyword() == token)
}

/// The error codes `text` reports, sorted (with repeats).
fn error_codes(text: &str) -> Vec<String> {
    let (_, diags) = pfir::parse(text).into_parts();
    let mut codes: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code.map_or("none".to_string(), |c| format!("{c:?}")))
        .collect();
    codes.sort();
    codes
}

/// `text` with token-level edits. Each `(index, kind, token)` picks the
/// token at `index` (modulo the number of tokens) and, by `kind`: replaces
/// it with `token` when it is a name or number (0, 1), inserts `token, `
/// as a first argument after it when it is `(` (2), deletes it when it is
/// a name or number with its `,` (3), or deletes or duplicates it
/// whatever it is (4, 5; mostly syntax errors).
fn mutate(text: &str, edits: &[(usize, u8, &str)]) -> String {
    let mut src = text.to_string();
    for &(at, kind, token) in edits {
        let tokens = pfir::lexer::lex(&src, 0).unwrap_or_default();
        if tokens.is_empty() {
            break;
        }
        let i = at % tokens.len();
        let (l, _, r) = tokens[i];
        let old = src[l..r].to_string();
        let next = tokens.get(i + 1).map(|t| &src[t.0..t.2]);
        let (range, new) = match kind {
            0 | 1 if is_word(&old) => (l..r, token.to_string()),
            2 if old == "(" => (r..r, format!("{token}, ")),
            3 if is_word(&old) && next == Some(",") => (l..tokens[i + 1].2, String::new()),
            4 => (l..r, String::new()),
            5 => (l..r, format!("{old} {old}")),
            _ => continue,
        };
        src.replace_range(range, &new);
    }
    src
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    })]

    /// Whenever `pfir fmt` formats a mutated valid file (semantic errors
    /// allowed, syntax errors refused), formatting is idempotent, keeps the
    /// multiset of comments, and the file reports the same error codes
    /// before and after.
    #[test]
    fn fmt_formats_every_mutant_that_parses(
        seed in 0..MUTATION_SEEDS.len(),
        edits in proptest::collection::vec(
            (0usize..100_000, 0u8..6, proptest::sample::select(MUTATION_TOKENS)),
            1..4,
        ),
        picks in proptest::collection::vec((0usize..10_000, any::<bool>()), 0..4),
    ) {
        let src = with_comments(&mutate(MUTATION_SEEDS[seed], &edits), &picks);
        // What does not parse is not formatted (`fmt`'s own error tests).
        let formatted = format_text(&src);
        prop_assume!(formatted.is_ok());
        let formatted = formatted.unwrap();
        prop_assert_eq!(format_text(&formatted).unwrap(), formatted.clone(), "not idempotent:\n{}", src);
        prop_assert_eq!(comment_texts(&formatted), comment_texts(&src));
        prop_assert_eq!(error_codes(&formatted), error_codes(&src), "{}\n-- formatted --\n{}", src, formatted);
    }
}

/// `--line-width` wins; without it, `[fmt] line-width` of the nearest
/// `pfir.toml` in the file's directory or above; else 100. A bad setting
/// is a usage error.
#[test]
fn line_width_comes_from_the_flag_or_the_nearest_pfir_toml() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("a").join("b");
    std::fs::create_dir_all(&sub).unwrap();
    let file = sub.join("wide.pfir");
    let src = "func k(a: i64, b: i64) {\n}\n\nfunc main() {\n  k(1111111111, 2222222222)\n}\n";
    std::fs::write(&file, src).unwrap();
    let path = file.to_str().unwrap();
    let broken = "func k(\n  a: i64,\n  b: i64\n) {\n}\n\nfunc main() {\n  k(\n    1111111111,\n    2222222222\n  )\n}\n";
    // Default 100: fits.
    let (code, out, err) = run(&["fmt", path], "");
    assert_eq!((code, out.as_str()), (0, src), "{err}");
    // The flag.
    let (_, out, _) = run(&["fmt", "--line-width", "20", path], "");
    assert_eq!(out, broken);
    // The nearest pfir.toml above the file, and the flag over it.
    std::fs::write(dir.path().join("pfir.toml"), "[fmt]\nline-width = 20\n").unwrap();
    let (_, out, _) = run(&["fmt", path], "");
    assert_eq!(out, broken);
    let (_, out, _) = run(&["fmt", "--line-width", "100", path], "");
    assert_eq!(out, src);
    // A nearer one wins.
    std::fs::write(sub.join("pfir.toml"), "[fmt]\nline-width = 120\n").unwrap();
    let (_, out, _) = run(&["fmt", path], "");
    assert_eq!(out, src);
    // Bad settings are usage errors, and nothing is printed.
    for bad in [
        "[fmt]\nline-width = 0\n",
        "[fmt]\nline-width = \"x\"\n",
        "[fmt\n",
    ] {
        std::fs::write(sub.join("pfir.toml"), bad).unwrap();
        let (code, out, err) = run(&["fmt", path], "");
        assert_eq!((code, out.as_str()), (2, ""), "{bad}");
        assert!(err.contains("pfir.toml"), "{err}");
    }
    let (code, _, _) = run(&["fmt", "--line-width", "0", path], "");
    assert_eq!(code, 2);
}

/// The `pfir` arguments of `text`'s first RUN line that verifies
/// diagnostics (`%s` left for the file), else `opt --verify-diagnostics`
/// (with `--split-input-file` when the file has `// -----` lines).
fn verify_arguments(text: &str) -> Vec<String> {
    let run = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("// RUN:"))
        .find(|r| r.contains("--verify-diagnostics") && r.contains("%s"));
    if let Some(run) = run {
        let words = run
            .split_whitespace()
            .skip_while(|w| *w == "not")
            .skip(1)
            .take_while(|w| !["|", "&&", ">", "2>", "2>&1"].contains(w));
        return words.map(str::to_string).collect();
    }
    let mut args = vec![
        "opt".to_string(),
        "%s".into(),
        "--verify-diagnostics".into(),
    ];
    if text.lines().any(|l| l.trim_end() == "// -----") {
        args.push("--split-input-file".into());
    }
    args
}

/// Whether `--verify-diagnostics` passes on `path` (run with `args`; `%t`
/// is a file in `scratch`).
fn verifies(args: &[String], path: &Path, scratch: &Path) -> (bool, String) {
    let out = scratch.join("out").display().to_string();
    let path = path.display().to_string();
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("%s", &path).replace("%t", &out))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, stderr) = run(&args, "");
    (code == 0, stderr)
}

/// For every `.pfir` under `tests/` with `expected-*` lines that formats,
/// `--verify-diagnostics` gives the same verdict before and after `pfir
/// fmt` at widths 30, 60 and 100: an `expected-*` comment after a
/// statement that the width breaks still names the statement's line.
#[test]
fn expected_directives_keep_their_verdict_at_every_width() {
    let (_, files) = test_files();
    let tmp = tempfile::tempdir().unwrap();
    let (mut checked, mut differ) = (0, Vec::new());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        if !text.contains("expected-") || text.contains("\r") {
            continue;
        }
        let args = verify_arguments(&text);
        let (before, _) = verifies(&args, f, tmp.path());
        for width in [30, 60, 100] {
            let Ok(formatted) = format_text_with(&text, width) else {
                continue;
            };
            let p = tmp.path().join(f.file_name().unwrap());
            std::fs::write(&p, &formatted).unwrap();
            let (after, stderr) = verifies(&args, &p, tmp.path());
            checked += 1;
            if after != before {
                differ.push(format!(
                    "{} at width {width}: before {before}, after {after}\n{stderr}",
                    f.display()
                ));
            }
        }
    }
    assert!(checked > 150, "only {checked} formatted files checked");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
