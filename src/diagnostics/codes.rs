//! Stable error codes (`E0001`...) and their explanations.
//!
//! Every error pfir reports carries one [`Code`]; `pfir explain E0010`
//! prints the [`CodeInfo`] of a code: what it means, a file that produces
//! it and the same file fixed. `docs/diagnostics.md` lists the table; a test
//! checks the page against [`CODES`] and runs every example, so the codes,
//! the page and the examples cannot drift apart. Codes are never renumbered:
//! a retired code keeps its number unused.

/// An error code. The discriminant order is the table order of [`CODES`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    UnexpectedToken,
    UnexpectedEof,
    UnexpectedCharacter,
    UnterminatedString,
    InvalidEscape,
    TooDeep,
    ReservedWord,
    NotUtf8,
    TooLarge,
    UnknownVariable,
    UnknownFunction,
    DuplicateFunction,
    TypeMismatch,
    LiteralOutOfRange,
    ArgumentCount,
    ValueCount,
    MisplacedControl,
    KeywordArgument,
    DepsMisuse,
    IfNeedsElse,
    PassRequirement,
    DependencyChanged,
    UnknownPass,
    Io,
    Usage,
    ExpectationMismatch,
    UnclosedDelimiter,
    MismatchedDelimiter,
    NoTranslation,
}

/// An example input for [`CodeInfo`]: the file text and the `pfir opt`
/// flags it is run with.
#[derive(Copy, Clone, Debug)]
pub struct Example {
    pub args: &'static [&'static str],
    pub text: &'static [u8],
}

/// One row of the code table.
#[derive(Copy, Clone, Debug)]
pub struct CodeInfo {
    pub code: Code,
    /// One line: what kind of error this is.
    pub title: &'static str,
    /// A paragraph: why it is an error and how to fix it.
    pub explanation: &'static str,
    /// An input that produces this code (`None` when no file content can:
    /// the input itself cannot be read).
    pub wrong: Option<Example>,
    /// The same input, fixed: accepted without errors.
    pub right: Option<Example>,
}

impl Code {
    /// `E0001`...
    pub fn as_str(self) -> &'static str {
        CODE_STRINGS[self as usize]
    }

    /// The table row of this code.
    pub fn info(self) -> &'static CodeInfo {
        &CODES[self as usize]
    }

    /// The code written as `E0010` (case-insensitive; `10` and `E10` too).
    pub fn parse(text: &str) -> Option<Code> {
        let t = text.trim();
        let digits = t
            .strip_prefix('E')
            .or_else(|| t.strip_prefix('e'))
            .unwrap_or(t);
        let n: usize = digits.parse().ok()?;
        CODES.get(n.checked_sub(1)?).map(|i| i.code)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

const CODE_STRINGS: [&str; 29] = [
    "E0001", "E0002", "E0003", "E0004", "E0005", "E0006", "E0007", "E0008", "E0009", "E0010",
    "E0011", "E0012", "E0013", "E0014", "E0015", "E0016", "E0017", "E0018", "E0019", "E0020",
    "E0021", "E0022", "E0023", "E0024", "E0025", "E0026", "E0027", "E0028", "E0029",
];

const fn ex(text: &'static str) -> Option<Example> {
    Some(Example {
        args: &[],
        text: text.as_bytes(),
    })
}

const fn ex_args(args: &'static [&'static str], text: &'static str) -> Option<Example> {
    Some(Example {
        args,
        text: text.as_bytes(),
    })
}

const PHASE_FENCE: &[&str] = &["--passes=expand-manual-phase-fence"];

/// Every code, in order (`CODES[i].code as usize == i`).
pub static CODES: [CodeInfo; 29] = [
    CodeInfo {
        code: Code::UnexpectedToken,
        title: "a token where the grammar does not allow it",
        explanation: "The parser met a token that cannot continue the text read so far. \
The note lists the tokens that could have come next. Common causes: a missing \
bracket or comma, a Python habit such as `:` after a loop header, or a chained \
comparison `a < b < c` (write `a < b and b < c`).",
        wrong: ex("func main() {\n  x = 1 +\n}\n"),
        right: ex("func main() {\n  x = 1 + 2\n}\n"),
    },
    CodeInfo {
        code: Code::UnexpectedEof,
        title: "the file ends in the middle of a construct",
        explanation: "The file ended in the middle of a construct that has no bracket \
open, for example after a function's header, before its body. (A bracket left \
open is reported as E0027, at the bracket.)",
        wrong: ex("func main()\n"),
        right: ex("func main() {\n}\n"),
    },
    CodeInfo {
        code: Code::UnexpectedCharacter,
        title: "a character that is not part of any token",
        explanation: "Source text may only contain the characters of .pfir tokens, spaces, \
tabs and newlines (and anything inside comments and strings). Text pasted from \
documents often carries look-alike characters: a no-break space (U+00A0), curly \
quotes (U+201C, U+201D), an en dash (U+2013) or a zero-width space (U+200B). The \
error names the character and its code point, and suggests the ASCII character \
it was probably meant to be.",
        wrong: ex("func main() {\n  x = 1 \u{2013} 2\n}\n"),
        right: ex("func main() {\n  x = 1 - 2\n}\n"),
    },
    CodeInfo {
        code: Code::UnterminatedString,
        title: "a string literal that is never closed",
        explanation: "A string literal starts with `\"` and must end with `\"` on the same \
line. Only the escapes `\\\"` and `\\\\` are allowed inside.",
        wrong: ex("func main() {\n  manual \"phase {\n  }\n}\n"),
        right: ex("func main() {\n  manual \"phase\" {\n  }\n}\n"),
    },
    CodeInfo {
        code: Code::InvalidEscape,
        title: "an escape other than `\\\"` or `\\\\` in a string literal",
        explanation: "String literals (the names of `manual` and `auto` scopes) know only \
two escapes: `\\\"` for a quote and `\\\\` for a backslash.",
        wrong: ex("func main() {\n  manual \"a\\nb\" {\n  }\n}\n"),
        right: ex("func main() {\n  manual \"a b\" {\n  }\n}\n"),
    },
    CodeInfo {
        code: Code::TooDeep,
        title: "brackets, operators or `else if` chains nested too deeply",
        explanation: "pfir bounds the nesting of brackets, operator chains and `else if` \
chains (at most 200 000 levels) so that no input can exhaust its stack. Split the expression into several \
bindings, or the chain into several `if` statements. The canonical form indents every line two spaces \
per level, so its size grows with the square of the nesting: `pfir opt` and `pfir fmt` refuse, before \
writing anything, output that would hold more than 512 MiB of indentation (10 000 nested blocks print \
200 MB); move the deepest blocks into functions of their own.",
        // 200 001 brackets do not belong in the binary; the test builds them.
        wrong: None,
        right: ex("func main() {\n  x = ((1))\n}\n"),
    },
    CodeInfo {
        code: Code::ReservedWord,
        title: "a keyword or type name where a name is expected",
        explanation: "Keywords (`for`, `range`, `manual`, ...) and type names (`i8`, `index`, \
`task_id`, `tensor`, ...) are reserved: they cannot name a variable, parameter or \
function. Rename it, for example by adding a suffix.",
        wrong: ex("func main() {\n  i8 = 1\n}\n"),
        right: ex("func main() {\n  i8_value = 1\n}\n"),
    },
    CodeInfo {
        code: Code::NotUtf8,
        title: "the input is not valid UTF-8",
        explanation: ".pfir source text is UTF-8. The error points at the first byte that \
is not; re-save the file as UTF-8.",
        wrong: Some(Example {
            args: &[],
            text: b"func main() {\n  x = \xff\n}\n",
        }),
        right: ex("func main() {\n  x = 1\n}\n"),
    },
    CodeInfo {
        code: Code::TooLarge,
        title: "the input is larger than the input size limit",
        explanation: "pfir refuses inputs over 1 GiB before reading them whole (and source \
positions are 32-bit byte offsets, so no input may exceed 4 GiB). Split the input \
into several files.",
        wrong: None,
        right: None,
    },
    CodeInfo {
        code: Code::UnknownVariable,
        title: "a name that no visible definition binds",
        explanation: "A variable must be defined (by a parameter, a binding, a loop variable \
or an iter-arg) before it is used, and is visible only inside the block that \
defines it and the blocks nested in it: a name defined inside a loop or `if` \
body is not visible after it. To use a value after a loop, carry it out with \
`iter(...)` and `yield`.",
        wrong: ex("func main() {\n  abc = 1\n  y = abd + 1\n}\n"),
        right: ex("func main() {\n  abc = 1\n  y = abc + 1\n}\n"),
    },
    CodeInfo {
        code: Code::UnknownFunction,
        title: "a call or `submit` of something that is not a function of the module",
        explanation: "Plain calls and `submit` name a function defined in the same file \
(in any order). Built-in ops (`array.create`, `system.task_dummy`, ...) are called \
directly, never launched with `submit`.",
        wrong: ex("func kernel() {\n}\nfunc main() {\n  t = submit kernl()\n}\n"),
        right: ex("func kernel() {\n}\nfunc main() {\n  t = submit kernel()\n}\n"),
    },
    CodeInfo {
        code: Code::DuplicateFunction,
        title: "two functions with the same name",
        explanation: "Function names are unique in a file. The error points at the second \
definition and labels the first; rename or remove one of them.",
        wrong: ex("func k() {\n}\nfunc k() {\n}\n"),
        right: ex("func k() {\n}\nfunc k2() {\n}\n"),
    },
    CodeInfo {
        code: Code::TypeMismatch,
        title: "a value of the wrong type",
        explanation: "Every operand, argument, condition, loop bound, `deps=` entry, \
annotation and yielded value has a required type; the value given has another. \
pfir does not convert between types implicitly.",
        wrong: ex("func main(n: i64) {\n  if n {\n  }\n}\n"),
        right: ex("func main(n: i64) {\n  if n > 0 {\n  }\n}\n"),
    },
    CodeInfo {
        code: Code::LiteralOutOfRange,
        title: "a number literal that does not fit its type",
        explanation: "Integer literals must fit in `i64` (at most 9223372036854775807) and \
float literals in `f64`.",
        wrong: ex("func main() {\n  x = 9223372036854775808\n}\n"),
        right: ex("func main() {\n  x = 9223372036854775807\n}\n"),
    },
    CodeInfo {
        code: Code::ArgumentCount,
        title: "a call with the wrong number of arguments",
        explanation: "A call passes exactly one positional argument per parameter of the \
callee (or per operand of a built-in op); `range`, `parallel` and `unroll` take \
one to three bounds.",
        wrong: ex("func k(a: i64) {\n}\nfunc main() {\n  k(1, 2)\n}\n"),
        right: ex("func k(a: i64) {\n}\nfunc main() {\n  k(1)\n}\n"),
    },
    CodeInfo {
        code: Code::ValueCount,
        title: "the number of bindings, results or yielded values does not match",
        explanation: "A binding names one variable per value: a call binds the callee's \
results, `submit` binds the results and then the task id, a loop or `if` binds \
its iter-args or yielded values. `return` and `yield` give exactly as many values \
as the function or body produces. A `submit` that binds only the callee's \
results misses the task id; the fix adds a binding for it \
(`a, a_tid = submit kernel(...)`), which `pfir fix` applies.",
        wrong: ex(
            "func kernel() -> task_id {\n  return system.task_invalid()\n}\nfunc main() {\n  a = submit kernel()\n}\n",
        ),
        right: ex(
            "func kernel() -> task_id {\n  return system.task_invalid()\n}\nfunc main() {\n  a, a_tid = submit kernel()\n}\n",
        ),
    },
    CodeInfo {
        code: Code::MisplacedControl,
        title: "`yield`, `break` or `continue` where it cannot go",
        explanation: "`break` and `continue` belong inside a `for` or `while` body; `yield` \
is the last statement of a loop or `if` body that produces values, and such a \
body must end with one.",
        wrong: ex("func main() {\n  break\n}\n"),
        right: ex("func main() {\n  for i in range(4) {\n    break\n  }\n}\n"),
    },
    CodeInfo {
        code: Code::KeywordArgument,
        title: "a keyword argument that is unknown, repeated or misplaced",
        explanation: "Calls of functions accept only `deps=` (and only under `submit`); \
`system.task_dummy` accepts only `deps=`; most ops accept none. A keyword may be \
given once, and positional arguments come before keyword arguments.",
        wrong: ex("func k() {\n}\nfunc main() {\n  t = submit k(deps=[], deps=[])\n}\n"),
        right: ex("func k() {\n}\nfunc main() {\n  t = submit k(deps=[])\n}\n"),
    },
    CodeInfo {
        code: Code::DepsMisuse,
        title: "`deps=` on something that is not a task launch, or not a list",
        explanation: "Manual dependency edges belong to task launches: `submit f(..., \
deps=[...])` and the barrier `system.task_dummy(deps=[...])`. A plain call runs \
inline and cannot wait on tasks. The value of `deps=` is a list.",
        wrong: ex(
            "func k() {\n}\nfunc main() {\n  a = array.create(2, task_id)\n  k(deps=[a])\n}\n",
        ),
        right: ex(
            "func k() {\n}\nfunc main() {\n  a = array.create(2, task_id)\n  t = submit k(deps=[a])\n}\n",
        ),
    },
    CodeInfo {
        code: Code::IfNeedsElse,
        title: "an `if` that binds values without a plain `else` branch",
        explanation: "When an `if` produces values (`x = if c { yield 1 } else { yield 2 }`), \
both branches must yield them, so it needs an `else` branch, and that branch \
cannot be another `else if`: nest the second `if` inside the `else` block.",
        wrong: ex("func main(c: bool) {\n  x = if c {\n    yield 1\n  }\n}\n"),
        right: ex(
            "func main(c: bool) {\n  x = if c {\n    yield 1\n  } else {\n    yield 2\n  }\n}\n",
        ),
    },
    CodeInfo {
        code: Code::PassRequirement,
        title: "the input is not in the form a pass requires",
        explanation: "Some passes need a simpler form of the program than the language \
allows; for example `expand-manual-phase-fence` needs every call argument to be a \
variable or literal. The error says what to change, e.g. bind the inner call to a \
variable first.",
        wrong: ex_args(
            PHASE_FENCE,
            "func k(x: i64) {\n}\nfunc f(x: i64) -> i64 {\n  return x\n}\norchestration func main(x: i64) {\n  t = submit k(f(x))\n}\n",
        ),
        right: ex_args(
            PHASE_FENCE,
            "func k(x: i64) {\n}\nfunc f(x: i64) -> i64 {\n  return x\n}\norchestration func main(x: i64) {\n  y = f(x)\n  t = submit k(y)\n}\n",
        ),
    },
    CodeInfo {
        code: Code::DependencyChanged,
        title: "`--verify-deps`: the passes lost or added a task dependency",
        explanation: "Under `--verify-deps`, pfir expands the task graph before and after \
the passes and reports the first dependency that was lost or added. This is a bug \
in a pass, not in the input. The wrong example below uses `test-drop-deps`, a pass \
that drops dependencies on purpose; it exists only in builds with the `testkit` \
feature (pfir's own tests), so a released `pfir` reports it as an unknown pass.",
        wrong: ex_args(
            &["--passes=test-drop-deps", "--verify-deps"],
            "func k() {\n}\norchestration func main() {\n  manual {\n    ta = submit k()\n    tb = submit k(deps=[ta])\n  }\n}\n",
        ),
        right: ex_args(
            &["--passes=expand-manual-phase-fence", "--verify-deps"],
            "func k() {\n}\norchestration func main() {\n  manual {\n    ta = submit k()\n    tb = submit k(deps=[ta])\n  }\n}\n",
        ),
    },
    CodeInfo {
        code: Code::UnknownPass,
        title: "`--passes` names a pass that does not exist",
        explanation: "`pfir opt --help` lists the passes. Names are separated by commas.",
        wrong: ex_args(
            &["--passes=expand-manual-phase-fense"],
            "func main() {\n}\n",
        ),
        right: ex_args(
            &["--passes=expand-manual-phase-fence"],
            "func main() {\n}\n",
        ),
    },
    CodeInfo {
        code: Code::Io,
        title: "a file cannot be read or written",
        explanation: "The input does not exist or cannot be read, or the output cannot be \
written. The message carries the operating system's reason.",
        wrong: None,
        right: None,
    },
    CodeInfo {
        code: Code::Usage,
        title: "the command line is not valid",
        explanation: "An unknown flag, a missing value or a bad value. `pfir help` and \
`pfir <command> --help` list what each command accepts. The exit status is 2.",
        wrong: ex_args(&["--no-such-flag"], "func main() {\n}\n"),
        right: ex_args(&["--split-input-file"], "func main() {\n}\n"),
    },
    CodeInfo {
        code: Code::ExpectationMismatch,
        title: "`--verify-diagnostics`: an expected diagnostic was not produced, or an unexpected one was",
        explanation: "Under `--verify-diagnostics`, every `expected-error {{...}}` comment \
must be met by a diagnostic on its line whose message contains the text, and \
every diagnostic must meet an expectation. Directives are spelled \
`expected-error`, `expected-warning`, `expected-note` and `expected-remark`.",
        wrong: ex_args(
            &["--verify-diagnostics"],
            "func main() {\n  y = abd // expected-error {{unknown function}}\n}\n",
        ),
        right: ex_args(
            &["--verify-diagnostics"],
            "func main() {\n  y = abd // expected-error {{unknown variable}}\n}\n",
        ),
    },
    CodeInfo {
        code: Code::UnclosedDelimiter,
        title: "a `(`, `[` or `{` that is never closed",
        explanation: "Every bracket must be closed by its partner. pfir uses the \
indentation to find the bracket that was left open: a `}` closes the `{` on the \
line indented like it, and a line starting at or left of an open `(` ends it. \
The error points at the bracket never closed and at the place where the \
problem showed; the rest of the file is read as if the closer were there.",
        wrong: ex("func main() {\n  for i in range(4) {\n    x = 1\n}\n"),
        right: ex("func main() {\n  for i in range(4) {\n    x = 1\n  }\n}\n"),
    },
    CodeInfo {
        code: Code::MismatchedDelimiter,
        title: "a closing bracket that does not match the open one, or matches none",
        explanation: "A `)`, `]` or `}` must close the innermost open bracket of its \
kind. A closer of the wrong kind (`f(a}`) is read as the right one, and a closer \
with nothing open is dropped, so that the rest of the file is still checked.",
        wrong: ex("func main() {\n  x = (1 + 2}\n}\n"),
        right: ex("func main() {\n  x = (1 + 2)\n}\n"),
    },
    CodeInfo {
        code: Code::NoTranslation,
        title: "`pfir translate`: a construct with no form in the other language",
        explanation: "`pfir translate` carries every construct across or says why not. \
Reading PyPTO's DSL (`--from=pypto`), a construct `.pfir` has no form for (an op \
outside the DSL's `pl.` namespace, `**`, a chained comparison, a `pl.spmd` scope, a \
tuple that is not unpacked) is an error at its Python line and column. Writing the \
DSL (`--to=pypto`), a `.pfir` construct PyPTO has no form for (a scope name, an \
`unroll` loop with iter-args, `f64`, `none` as a value, a name that is a Python \
keyword) is an error at its `.pfir` position. `docs/pypto.md` lists both sets.",
        wrong: None,
        right: None,
    },
];

/// The text `pfir explain CODE` prints.
pub fn explain(code: Code) -> String {
    let info = code.info();
    let mut s = format!("{}: {}\n\n{}\n", code, info.title, wrap(info.explanation));
    let show = |s: &mut String, what: &str, e: &Option<Example>| {
        if let Some(e) = e {
            let args = if e.args.is_empty() {
                String::new()
            } else {
                format!(" (with `pfir opt {}`)", e.args.join(" "))
            };
            s.push_str(&format!("\n{what}{args}:\n\n"));
            for line in String::from_utf8_lossy(e.text).lines() {
                s.push_str(&format!("    {line}\n"));
            }
        }
    };
    show(&mut s, "Wrong", &info.wrong);
    show(&mut s, "Right", &info.right);
    s
}

/// Wraps a paragraph at 80 columns.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut col = 0;
    for word in text.split_whitespace() {
        if col > 0 && col + 1 + word.len() > 80 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.len();
    }
    out
}

/// The table of `docs/diagnostics.md` (between its markers), generated
/// from [`CODES`].
pub fn markdown_table() -> String {
    let mut s = String::from("| code | meaning |\n| --- | --- |\n");
    for info in &CODES {
        s.push_str(&format!(
            "| `{}` | {} |\n",
            info.code,
            info.title.replace('|', "\\|")
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_matches_the_codes() {
        for (i, info) in CODES.iter().enumerate() {
            assert_eq!(info.code as usize, i);
            assert_eq!(info.code.as_str(), format!("E{:04}", i + 1));
            assert_eq!(Code::parse(info.code.as_str()), Some(info.code));
        }
        assert_eq!(Code::parse("e10"), Some(Code::UnknownVariable));
        assert_eq!(Code::parse("E0000"), None);
        assert_eq!(Code::parse("E9999"), None);
        assert_eq!(Code::parse("x"), None);
    }

    #[test]
    fn explain_shows_both_examples() {
        let text = explain(Code::UnknownVariable);
        assert!(text.starts_with("E0010: "), "{text}");
        assert!(text.contains("Wrong:\n\n    func main() {"), "{text}");
        assert!(text.contains("Right:\n\n"), "{text}");
    }
}
