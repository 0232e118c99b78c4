//! The fixed vocabulary an editor offers and explains: keywords, loop
//! kinds, the built-in ops (docs/language.md section 6) with what each does,
//! and the command-line options of RUN lines.
//!
//! The keyword and type lists come from the lexer's own vocabulary
//! ([`crate::vocab`]); the op table is checked against the lowering by
//! `tests/it/ide`, the option table against `pfir opt`'s by `src/cli`'s
//! unit tests.

pub use crate::vocab::BuiltinOp;

/// The built-in ops, in the order an editor offers them.
pub const BUILTIN_OPS: [BuiltinOp; 5] = BuiltinOp::ALL;

pub fn builtin_op(name: &str) -> Option<BuiltinOp> {
    BuiltinOp::from_name(name)
}

pub use crate::vocab::{KEYWORD_OPERATORS, KEYWORDS, LOOP_KINDS, is_reserved, type_names};

/// What a keyword means, for hover.
pub fn keyword_doc(word: &str) -> Option<&'static str> {
    Some(match word {
        "manual" => {
            "A manual runtime scope: every dependency inside is written by hand in `deps=[...]`. \
             `expand-manual-phase-fence` only rewrites loops inside these. It opens no name scope."
        }
        "auto" => {
            "An automatic runtime scope: switches `expand-manual-phase-fence` off for what it \
             contains. It opens no name scope."
        }
        "submit" => {
            "Launches a task running a function of the module; binds the callee's results, then \
             the task's `task_id`."
        }
        "range" => {
            "A sequential loop: `range(stop)`, `range(start, stop)` or `range(start, stop, step)`."
        }
        "parallel" => "A parallel loop; takes the same bounds as `range`.",
        "unroll" => "An unrolled loop; takes the same bounds as `range`.",
        "iter" => {
            "Loop-carried values: `iter(x = init)`; the body's final `yield` gives the next value."
        }
        "yield" => {
            "Ends a loop or `if` body, passing values to the next iteration or the bindings."
        }
        _ => return None,
    })
}

/// The `pfir opt` options a RUN line may use (kept equal to the command
/// line's by `tests/it/ide`), with a short description.
pub const OPT_OPTIONS: [(&str, &str); 18] = [
    ("--passes=", "the passes to run, comma-separated"),
    (
        "--split-input-file",
        "treat each `// -----` chunk as its own input",
    ),
    (
        "--verify-diagnostics",
        "check the `expected-*` comments against the diagnostics",
    ),
    ("--remarks", "emit the passes' optimisation remarks"),
    ("--stats", "report pass statistics on stderr"),
    ("--timing", "report each pass's wall time on stderr"),
    (
        "--verify-each",
        "verify each pass's produced properties (the default)",
    ),
    ("--no-verify-each", "skip the verification after each pass"),
    (
        "--verify-deps",
        "check that every task waits for the same tasks after the pipeline",
    ),
    (
        "--print-ir-after-all",
        "print the IR to stderr after every pass",
    ),
    (
        "--print-ir-after=",
        "print the IR to stderr after the named passes",
    ),
    (
        "--keep-comments",
        "print the source comments with the output",
    ),
    ("--diagnostic-format=", "human, short or json"),
    ("--color=", "auto, always or never"),
    (
        "--error-limit=",
        "errors shown per file (default 50, 0: all)",
    ),
    ("-o", "write the output to a file"),
    ("%s", "this file"),
    ("%t", "a temporary file for this test"),
];

/// What a test directive means, for hover: `RUN`, a FileCheck suffix
/// (`""` for the plain prefix, `NEXT`, `COUNT-3`, ...), `expected-*` or a
/// runner directive.
pub fn directive_doc(directive: &str) -> Option<String> {
    use lit::config::directive::{
        ALLOW_RETRIES, DEFINE, REDEFINE, REQUIRES, RUN, UNSUPPORTED, XFAIL,
    };
    let doc = match directive {
        RUN => "A command line the test runner (`pfir test`) runs; `%s` is this file, `%t` a \
                  temporary file. The test passes when every RUN line succeeds."
            .to_string(),
        super::directives::COMMENT_DIRECTIVE => "A comment FileCheck ignores.".to_string(),
        XFAIL => "The test is expected to fail (when the listed features hold).".to_string(),
        REQUIRES => "The test runs only when the listed features hold.".to_string(),
        UNSUPPORTED => "The test does not run when the listed features hold.".to_string(),
        ALLOW_RETRIES => "The test is run up to this many more times before failing.".to_string(),
        DEFINE => "Defines a `%{name}` substitution for the RUN lines after it: \
                     `DEFINE: %{name} = value`."
            .to_string(),
        REDEFINE => "Changes a `%{name}` substitution defined before, for the RUN lines \
                       after it."
            .to_string(),
        "" => "FileCheck: the pattern must match after the previous match.".to_string(),
        "NEXT" => "FileCheck: the pattern must match on the line right after the previous match."
            .to_string(),
        "SAME" => {
            "FileCheck: the pattern must match on the same line as the previous match.".to_string()
        }
        "NOT" => "FileCheck: the pattern must not match between the matches around it.".to_string(),
        "DAG" => "FileCheck: the pattern must match, in any order with the adjacent `-DAG` lines."
            .to_string(),
        "LABEL" => "FileCheck: splits the output into blocks at this match; the lines between \
                    two labels are matched within their block."
            .to_string(),
        "EMPTY" => "FileCheck: the next line must be empty.".to_string(),
        other => {
            if let Some(n) = other.strip_prefix("COUNT-") {
                format!("FileCheck: the pattern must match {n} times, on consecutive lines.")
            } else if let Some(kind) = other.strip_prefix("expected-") {
                format!(
                    "`--verify-diagnostics` expects {} {kind} whose message contains the \
                     `{{{{text}}}}` on this comment's line (`@+N`: N lines below, `@-N`: N lines \
                     above); every diagnostic must be expected.",
                    if kind == "error" { "an" } else { "a" }
                )
            } else {
                return None;
            }
        }
    };
    Some(doc)
}
