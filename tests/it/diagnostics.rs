//! The diagnostic model seen from the command line: error codes and
//! `pfir explain` (every example runs), `docs/diagnostics.md` against the
//! code table, JSON output against `docs/diagnostics.schema.json`, usage and
//! I/O errors as JSON, `--color` and `NO_COLOR`, `pfir check`, `pfir fix`.

use pfir::diagnostics::codes::{CODES, Code, Example, explain, markdown_table};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn pfir_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pfir"));
    cmd.args(args).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (status, stdout, stderr) = crate::support::run_with_input(&mut cmd, stdin);
    Run {
        status,
        stdout,
        stderr,
    }
}

fn pfir(args: &[&str]) -> Run {
    pfir_env(args, b"", &[])
}

/// `pfir ARGS`, which must exit with status 2 (a usage error): its stderr.
fn usage_error(args: &[&str]) -> String {
    let run = pfir(args);
    assert_eq!(run.status, 2, "{}", run.stderr);
    run.stderr
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// Runs `pfir opt --diagnostic-format=json ARGS FILE` on `example`.
fn run_example(dir: &Path, name: &str, e: &Example) -> Run {
    let path = dir.join(format!("{name}.pfir"));
    std::fs::write(&path, e.text).unwrap();
    let mut args = vec!["opt", "--diagnostic-format=json", "-o", "/dev/null"];
    args.extend_from_slice(e.args);
    args.push(path.to_str().unwrap());
    pfir(&args)
}

fn codes_of(run: &Run) -> Vec<String> {
    json_lines(&run.stderr)
        .iter()
        .filter_map(|v| v["code"].as_str().map(str::to_string))
        .collect()
}

/// For every code: the wrong example produces exactly that code (and fails),
/// the right one is accepted; `pfir explain` shows both. The codes whose
/// input cannot be a small file are produced here by other means.
#[test]
fn every_code_has_examples_that_produce_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut without_examples = Vec::new();
    for info in &CODES {
        let code = info.code.as_str();
        let wrong = match &info.wrong {
            Some(e) => run_example(dir.path(), &format!("{code}-wrong"), e),
            None => {
                without_examples.push(code);
                match info.code {
                    Code::TooDeep => {
                        let text = format!(
                            "func main() {{\n  x = {}1\n}}\n",
                            "(".repeat(pfir::limits::MAX_NESTING + 1)
                        );
                        let e = Example {
                            args: &[],
                            text: Box::leak(text.into_bytes().into_boxed_slice()),
                        };
                        run_example(dir.path(), "deep", &e)
                    }
                    Code::Io => pfir(&[
                        "opt",
                        "--diagnostic-format=json",
                        "/nonexistent/pfir/input.pfir",
                    ]),
                    // A `pfir translate` error: a scope name PyPTO cannot say.
                    Code::NoTranslation => {
                        let path = dir.path().join("scope-name.pfir");
                        std::fs::write(&path, "func main() {\n  manual \"s\" {\n  }\n}\n").unwrap();
                        pfir(&[
                            "translate",
                            "--to=pypto",
                            "--diagnostic-format=json",
                            path.to_str().unwrap(),
                        ])
                    }
                    // 4 GiB of input: covered by a unit test of the size check.
                    _ => continue,
                }
            }
        };
        let codes = codes_of(&wrong);
        assert!(
            // The first error is the cause (syntax errors may still be
            // followed by a second one until the parser resynchronises).
            wrong.status != 0 && codes.first().map(String::as_str) == Some(code),
            "{code}: the wrong example gave status {} and codes {codes:?}: {}",
            wrong.status,
            wrong.stderr
        );
        if let Some(right) = &info.right {
            let run = run_example(dir.path(), &format!("{code}-right"), right);
            assert!(
                run.status == 0 && run.stderr.is_empty(),
                "{code}: the right example was rejected: {}",
                run.stderr
            );
        }
        let shown = pfir(&["explain", code]);
        assert_eq!(shown.status, 0, "{code}");
        assert_eq!(shown.stdout, explain(info.code));
        assert!(shown.stdout.starts_with(&format!("{code}: {}", info.title)));
    }
    assert_eq!(without_examples, ["E0006", "E0009", "E0024", "E0029"]);
    let stderr = usage_error(&["explain", "E0999"]);
    assert!(stderr.contains("no error code `E0999`"), "{stderr}");
}

#[test]
fn docs_list_every_code() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diagnostics.md"))
            .unwrap();
    let start = doc.find("<!-- codes:begin").expect("begin marker");
    let start = start + doc[start..].find('\n').unwrap() + 1;
    let end = doc.find("<!-- codes:end -->").expect("end marker");
    assert_eq!(
        &doc[start..end],
        markdown_table(),
        "docs/diagnostics.md is out of date; its table must be:\n{}",
        markdown_table()
    );
}

/// A small JSON Schema checker: `type` (a name or a list), `required`,
/// `properties`, `additionalProperties: false`, `items`, `enum`, `pattern`
/// (only the `^E[0-9]{4}$` form the schema uses) and `minimum`.
fn check_schema(schema: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ok = types.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "integer" => v.is_u64() || v.is_i64(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            _ => false,
        });
        if !ok {
            errors.push(format!("{path}: {v} is not of type {t}"));
            return;
        }
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array)
        && !values.contains(v)
    {
        errors.push(format!("{path}: {v} is not one of {values:?}"));
    }
    if let (Some(p), Some(s)) = (schema.get("pattern").and_then(Value::as_str), v.as_str()) {
        assert_eq!(p, "^E[0-9]{4}$", "the checker knows only this pattern");
        if !(s.len() == 5 && s.starts_with('E') && s[1..].bytes().all(|b| b.is_ascii_digit())) {
            errors.push(format!("{path}: {s} does not match {p}"));
        }
    }
    if let (Some(min), Some(n)) = (schema.get("minimum").and_then(Value::as_u64), v.as_u64())
        && n < min
    {
        errors.push(format!("{path}: {n} < {min}"));
    }
    if let Some(obj) = v.as_object() {
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !obj.contains_key(key.as_str().unwrap()) {
                errors.push(format!("{path}: missing {key}"));
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (key, value) in obj {
            match props.and_then(|p| p.get(key)) {
                Some(s) => check_schema(s, value, &format!("{path}.{key}"), errors),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{path}: unexpected property {key}"))
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, item) in arr.iter().enumerate() {
            check_schema(items, item, &format!("{path}[{i}]"), errors);
        }
    }
}

/// Real output (syntax, semantic, pass and verify-deps errors, fixes,
/// secondary labels, remarks, I/O and usage errors) against the schema.
#[test]
fn json_output_follows_the_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("docs/diagnostics.schema.json")).unwrap(),
    )
    .unwrap();
    let mut outputs = Vec::new();
    for dir in ["tests/lit/frontend", "tests/diagnostics"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let p = path.to_str().unwrap();
            outputs
                .push(pfir(&["check", "--split-input-file", "--diagnostic-format=json", p]).stderr);
        }
    }
    let pass = root.join("tests/passes/spec_example.pfir");
    outputs.push(
        pfir(&[
            "opt",
            "--diagnostic-format=json",
            "--passes=expand-manual-phase-fence",
            "--remarks",
            "-o",
            "/dev/null",
            pass.to_str().unwrap(),
        ])
        .stderr,
    );
    outputs.push(pfir(&["opt", "--diagnostic-format=json", "/nonexistent.pfir"]).stderr);
    outputs.push(pfir(&["opt", "--diagnostic-format=json", "--no-such-flag"]).stderr);
    outputs.push(pfir(&["check", "--diagnostic-format", "json"]).stderr);
    let mut errors = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for out in &outputs {
        for v in json_lines(out) {
            seen.insert(v["severity"].as_str().unwrap_or("").to_string());
            if !v["fixes"].as_array().is_none_or(Vec::is_empty) {
                seen.insert("fix".into());
            }
            check_schema(&schema, &v, "$", &mut errors);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    for kind in ["error", "remark", "fix"] {
        assert!(seen.contains(kind), "no {kind} was checked: {seen:?}");
    }
}

#[test]
fn usage_and_io_errors_are_json_when_asked() {
    let v = &json_lines(&usage_error(&[
        "opt",
        "--bogus",
        "--diagnostic-format=json",
    ]))[0];
    assert_eq!(v["code"], "E0025");
    assert_eq!(v["message"], "unexpected argument '--bogus' found");
    assert!(v["line"].is_null() && v["file"].is_null());
    let stderr = usage_error(&["opt", "--passes=nope", "--diagnostic-format", "json", "-"]);
    assert_eq!(json_lines(&stderr)[0]["code"], "E0023");
    let run = pfir(&["check", "--diagnostic-format=json", "/nonexistent/x.pfir"]);
    assert_eq!(run.status, 1);
    let v = &json_lines(&run.stderr)[0];
    assert_eq!(v["code"], "E0024");
    assert_eq!(v["file"], "/nonexistent/x.pfir");
    // Without JSON, usage errors stay clap's own text.
    let stderr = usage_error(&["opt", "--bogus"]);
    assert!(stderr.starts_with("error: unexpected argument"), "{stderr}");
    let run = pfir(&["opt", "--diagnostic-format=short", "/nonexistent/x.pfir"]);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "/nonexistent/x.pfir: error[E0024]: cannot read '/nonexistent/x.pfir': No such file or directory (os error 2)"
    );
}

#[test]
fn color_follows_the_flag_and_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.pfir");
    std::fs::write(&path, "func main() {\n  y = x\n}\n").unwrap();
    let p = path.to_str().unwrap();
    let colored = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec!["check", p];
        all.extend_from_slice(args);
        let run = pfir_env(&all, b"", env);
        assert_eq!(run.status, 1);
        run.stderr.contains('\x1b')
    };
    assert!(colored(&["--color=always"], &[]));
    assert!(colored(&["--color=always"], &[("NO_COLOR", "1")]));
    assert!(!colored(&["--color=never"], &[]));
    // stderr is a pipe here, so `auto` does not colour.
    assert!(!colored(&["--color=auto"], &[]));
    assert!(!colored(
        &["--color=always", "--diagnostic-format=short"],
        &[]
    ));
    use pfir::diagnostics::render::{ColorChoice, DiagnosticFormat, use_color};
    let human = DiagnosticFormat::Human;
    let on = Some(std::ffi::OsStr::new("1"));
    let empty = Some(std::ffi::OsStr::new(""));
    assert!(use_color(ColorChoice::Auto, human, true, None));
    assert!(use_color(ColorChoice::Auto, human, true, empty));
    assert!(!use_color(ColorChoice::Auto, human, true, on));
    assert!(!use_color(ColorChoice::Auto, human, false, None));
    assert!(use_color(ColorChoice::Always, human, false, on));
    assert!(!use_color(ColorChoice::Never, human, true, None));
    assert!(!use_color(
        ColorChoice::Always,
        DiagnosticFormat::Json,
        true,
        None
    ));
}

#[test]
fn check_is_silent_on_success_and_fails_on_any_error() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pfir");
    let bad = dir.path().join("bad.pfir");
    std::fs::write(&good, "func main() {\n  x = 1\n}\n").unwrap();
    std::fs::write(&bad, "func main() {\n  y = x\n}\n").unwrap();
    let (g, b) = (good.to_str().unwrap(), bad.to_str().unwrap());
    let run = pfir(&["check", g, g]);
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
    let run = pfir(&["check", g, b, "--diagnostic-format=short"]);
    assert_eq!(run.status, 1);
    assert!(run.stdout.is_empty());
    assert_eq!(
        run.stderr,
        format!("{b}:2:7: error[E0010]: unknown variable `x`\n")
    );
    let run = pfir(&["check"]);
    assert_eq!(run.status, 2, "at least one file is required");
}

#[test]
fn fix_applies_only_certain_fixes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pasted.pfir");
    // A no-break space, curly quotes and a trailing `;` (all certain), and
    // a misspelt name (only likely: left alone).
    let text = "func main() {\n  manual \u{201C}a\u{201D} {\n    x\u{a0}= 1;\n    y = xx\n  }\n}\n";
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let run = pfir(&["fix", p, "--diagnostic-format=short"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "func main() {\n  manual \"a\" {\n    x = 1\n    y = xx\n  }\n}\n"
    );
    assert!(
        run.stderr.contains("error[E0010]: unknown variable `xx`"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "untouched without -i"
    );
    let run = pfir(&["fix", "-i", p]);
    assert_eq!(run.status, 1);
    assert!(run.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "func main() {\n  manual \"a\" {\n    x = 1\n    y = xx\n  }\n}\n"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    // Fixed by hand, the file is clean and `fix` has nothing to do.
    std::fs::write(&path, "func main() {\n  x = 1\n}\n").unwrap();
    let run = pfir(&["fix", "-i", p]);
    assert_eq!((run.status, run.stderr.as_str()), (0, ""));
    let run = pfir(&["fix", "-i", "-"]);
    assert_eq!(run.status, 2);
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let text = "\u{FEFF}func main() {\n  y = x\n}\n";
    let (_, diags) = pfir::parse(text).into_parts();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(&text[diags[0].primary.span.range()], "x");
    assert!(
        pfir::parse("\u{FEFF}func main() {\n}\n")
            .into_parts()
            .0
            .is_some()
    );
    // Anywhere else it is an invisible character.
    let (_, diags) = pfir::parse("func main() {\n  x = 1\u{FEFF}\n}\n").into_parts();
    assert_eq!(diags[0].code, Some(Code::UnexpectedCharacter));
    assert!(diags[0].message.contains("U+FEFF"), "{}", diags[0].message);
}
