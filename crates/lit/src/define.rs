//! lit's `DEFINE:` and `REDEFINE:` directives: `// DEFINE: %{name} = value`
//! defines a `%{name}` substitution for the RUN lines after it, `//
//! REDEFINE: %{name} = value` changes it from there on. A line ending in
//! `\` continues on the next line of the same directive.
//!
//! As in lit, a name is `%{` a letter or `_`, then letters, digits, `-`,
//! `_` and `:`, and `}`; `DEFINE` of a name that is already defined (by an
//! earlier `DEFINE`, by a `lit.toml`, or `%{pfir}`) and `REDEFINE` of one
//! that is not are errors with lit's messages. A value may use substitutions
//! defined before it: a RUN line is expanded with the newest definition
//! first, each applied once, so `REDEFINE: %{x} = ...` changes every
//! definition that uses `%{x}` from there on (lit's order). What remains
//! (`lit.toml` names, `%s`, ...) is expanded as in [`crate::run_line`].

/// The substitutions in force: (`%{name}` pattern, value), oldest first.
pub type Defines = Vec<(String, String)>;

struct Pending {
    keyword: &'static str,
    start: usize,
    end: usize,
    body: String,
}

fn directive(line: &str) -> Option<(&'static str, &str)> {
    let rest = line.trim_start().strip_prefix("//")?.trim_start();
    if let Some(r) = rest.strip_prefix("REDEFINE:") {
        return Some(("REDEFINE:", r));
    }
    rest.strip_prefix("DEFINE:").map(|r| ("DEFINE:", r))
}

fn valid_name(name: &str) -> bool {
    let Some(inner) = name.strip_prefix("%{").and_then(|n| n.strip_suffix('}')) else {
        return false;
    };
    let mut chars = inner.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-_:".contains(c))
}

fn location(p: &Pending) -> String {
    if p.start == p.end {
        format!("at line {}", p.start)
    } else {
        format!("from line {} to {}", p.start, p.end)
    }
}

/// Applies a complete directive to `defines`; `predefined` are the
/// `%{name}` patterns defined outside the file.
fn apply(p: &Pending, defines: &mut Defines, predefined: &[String]) -> Result<(), String> {
    let Some((name, value)) = p.body.split_once('=') else {
        return Err("Substitution's definition does not contain '='".into());
    };
    let (name, value) = (name.trim(), value.trim());
    if !valid_name(name) {
        return Err(format!(
            "Substitution name '{name}' is malformed as it must start with '%{{', it must end \
             with '}}', and the rest must start with a letter or underscore and contain only \
             alphanumeric characters, hyphens, underscores, and colons"
        ));
    }
    let existing: Vec<&str> = predefined
        .iter()
        .map(String::as_str)
        .chain(defines.iter().map(|(n, _)| n.as_str()))
        .filter(|pattern| pattern.contains(name))
        .collect();
    let existing_text: String = existing
        .iter()
        .map(|e| format!("\nExisting pattern: {e}"))
        .collect();
    let keyword = p.keyword;
    if keyword == "DEFINE:" {
        if !existing.is_empty() {
            return Err(format!(
                "Substitution whose pattern contains '{name}' is already defined before \
                 '{keyword}' directive {}{existing_text}",
                location(p)
            ));
        }
        defines.push((name.to_string(), value.to_string()));
        return Ok(());
    }
    match existing.as_slice() {
        [] => Err(format!(
            "No substitution for '{name}' is defined before '{keyword}' directive {}",
            location(p)
        )),
        [one] if *one == name => {
            match defines.iter_mut().find(|(n, _)| n == name) {
                Some(d) => d.1 = value.to_string(),
                // A `lit.toml` substitution: the file's own definition
                // comes first from here on.
                None => defines.push((name.to_string(), value.to_string())),
            }
            Ok(())
        }
        [_] => Err(format!(
            "Existing substitution whose pattern contains '{name}' does not have the pattern \
             specified by '{keyword}' directive {}\nExpected pattern: {name}{existing_text}",
            location(p)
        )),
        _ => Err(format!(
            "Multiple substitutions whose patterns contain '{name}' are defined before \
             '{keyword}' directive {}{existing_text}",
            location(p)
        )),
    }
}

/// The substitutions defined in `text` in force at each line that
/// `at_lines` names (1-based, in increasing order, the first line of each
/// RUN line); `predefined` are the patterns defined outside the file
/// (`%{pfir}`, the `lit.toml` ones). An error names the directive's line.
pub fn defines_at(
    text: &str,
    at_lines: &[usize],
    predefined: &[String],
) -> Result<Vec<Defines>, String> {
    let mut defines = Defines::new();
    let mut pending: Option<Pending> = None;
    let mut out = Vec::new();
    let mut next = at_lines.iter().peekable();
    for (index, line) in fsutil::lines::lines(text).enumerate() {
        let number = index + 1;
        while next.peek().is_some_and(|&&l| l == number) {
            out.push(defines.clone());
            next.next();
        }
        let found = directive(line);
        if let Some(p) = pending.as_mut() {
            match found {
                Some((keyword, body)) if keyword == p.keyword => {
                    if body.trim().is_empty() {
                        return Err(format!(
                            "line {number}: Substitution's continuation is empty"
                        ));
                    }
                    let kept = p.body.trim_end();
                    let kept = kept.strip_suffix('\\').unwrap_or(kept).trim_end();
                    p.body = format!("{kept} {}", body.trim_start());
                    p.end = number;
                }
                _ => {
                    return Err(format!(
                        "line {}: the '{}' directive ends with `\\` but the next line does not continue it",
                        p.start, p.keyword
                    ));
                }
            }
        } else if let Some((keyword, body)) = found {
            pending = Some(Pending {
                keyword,
                start: number,
                end: number,
                body: body.to_string(),
            });
        }
        if let Some(p) = pending.take_if(|p| !p.body.trim_end().ends_with('\\')) {
            apply(&p, &mut defines, predefined).map_err(|e| format!("line {}: {e}", p.start))?;
        }
    }
    if let Some(p) = pending {
        return Err(format!(
            "line {}: the last '{}' directive ends with `\\` but nothing follows",
            p.start, p.keyword
        ));
    }
    while next.next().is_some() {
        out.push(defines.clone());
    }
    Ok(out)
}

/// The `%{name}` patterns defined outside a test file: `%{pfir}` and the
/// `lit.toml` substitutions `custom`.
pub fn predefined(custom: &[(String, String)]) -> Vec<String> {
    std::iter::once("pfir")
        .chain(custom.iter().map(|(n, _)| n.as_str()))
        .map(|n| format!("%{{{n}}}"))
        .collect()
}

/// The RUN lines of `text` as written, each with its text with the
/// `DEFINE:`/`REDEFINE:` substitutions in force at it expanded (the other
/// substitutions are left to [`crate::run_line::parse`]): the one reader of
/// a test's commands for the runner, `pfir test --update` and the editor,
/// so that `%{name}` means the same in all three. `custom` are the
/// `lit.toml` substitutions.
pub fn expanded_run_lines(
    text: &str,
    custom: &[(String, String)],
) -> Result<Vec<(crate::run_line::RunLine, String)>, String> {
    let run_lines = crate::run_line::find_run_lines(text)?;
    let lines: Vec<usize> = run_lines.iter().map(|r| r.line).collect();
    let defines = defines_at(text, &lines, &predefined(custom))?;
    run_lines
        .into_iter()
        .zip(&defines)
        .map(|(run_line, defines)| {
            let expanded = expand(&run_line.text, defines)
                .map_err(|e| format!("RUN line {}: {e}", run_line.line))?;
            Ok((run_line, expanded))
        })
        .collect()
}

/// Expands `defines` in `text`, newest first, each once (lit's order); a
/// `%%{` is left alone. A line that would grow past
/// [`crate::run_line::MAX_EXPANDED`] is refused.
pub fn expand(text: &str, defines: &Defines) -> Result<String, String> {
    let mut text = text.to_string();
    for (name, value) in defines.iter().rev() {
        if !text.contains(name.as_str()) {
            continue;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find(name.as_str()) {
            let escaped = rest[..at].chars().rev().take_while(|&c| c == '%').count() % 2 == 1;
            out.push_str(&rest[..at]);
            let with = if escaped { name } else { value };
            crate::run_line::within_limit(out.len() + rest.len() - at, with.len(), name)?;
            out.push_str(with);
            rest = &rest[at + name.len()..];
        }
        out.push_str(rest);
        text = out;
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, lines: &[usize]) -> Result<Vec<Defines>, String> {
        defines_at(
            text,
            lines,
            &["%{pfir}".to_string(), "%{check}".to_string()],
        )
    }

    #[test]
    fn define_redefine_and_order() {
        let text = "// DEFINE: %{x} = one\n\
                    // DEFINE: %{run} = echo %{x} \\\n\
                    // DEFINE:   and more\n\
                    // RUN: %{run}\n\
                    // REDEFINE: %{x}=two\n\
                    // RUN: %{run}\n\
                    // REDEFINE: %{check} = mine\n\
                    // RUN: %{check}\n";
        let d = at(text, &[4, 6, 8]).unwrap();
        assert_eq!(expand("%{run}", &d[0]).unwrap(), "echo one and more");
        assert_eq!(
            expand("%{run} %%{x}", &d[1]).unwrap(),
            "echo two and more %%{x}"
        );
        assert_eq!(expand("%{check}", &d[2]).unwrap(), "mine");
        assert!(at("// RUN: x\n", &[1]).unwrap()[0].is_empty());
    }

    #[test]
    fn run_lines_come_expanded() {
        let text = "// DEFINE: %{fc} = FileCheck %s --check-prefix=A\n\
                    // RUN: pfir opt %s \\\n\
                    // RUN:   | %{fc}\n\
                    // REDEFINE: %{fc} = %{check}\n\
                    // RUN: %{fc} %{pfir}\n";
        let custom = [("check".to_string(), "x".to_string())];
        let lines = expanded_run_lines(text, &custom).unwrap();
        let got: Vec<(usize, &str)> = lines.iter().map(|(r, e)| (r.line, e.as_str())).collect();
        assert_eq!(
            got,
            [
                (2, "pfir opt %s | FileCheck %s --check-prefix=A"),
                (5, "%{check} %{pfir}")
            ]
        );
        assert_eq!(lines[1].0.text, "%{fc} %{pfir}");
        // A directive error is the file's error, as for the runner.
        assert!(
            expanded_run_lines("// REDEFINE: %{x} = 1\n// RUN: a\n", &[])
                .unwrap_err()
                .contains("No substitution for '%{x}'")
        );
        // `lit.toml` names are defined before the file's directives.
        assert!(
            expanded_run_lines("// DEFINE: %{check} = 1\n// RUN: a\n", &custom)
                .unwrap_err()
                .contains("already defined")
        );
    }

    #[test]
    fn expansion_is_capped_by_size() {
        // Each definition doubles the last: 2^40 bytes if nothing stopped it.
        let mut text = String::from("// DEFINE: %{d0} = xx\n");
        for i in 1..=40 {
            let p = i - 1;
            text += &format!("// DEFINE: %{{d{i}}} = %{{d{p}}}%{{d{p}}}\n");
        }
        text += "// RUN: %{d40}\n";
        let d = at(&text, &[42]).unwrap();
        let e = expand("%{d40}", &d[0]).unwrap_err();
        assert!(e.contains("makes the RUN line longer than 16 MiB"), "{e}");
        // 2^22 bytes (4 MiB) is within the limit.
        assert_eq!(expand("%{d21}", &d[0]).unwrap().len(), 2 << 21);
    }

    #[test]
    fn lines_end_at_a_lone_cr_as_run_lines_do() {
        // The RUN line is line 3 for `run_line` (`fsutil::lines`), so the
        // definition on line 2 must be in force there.
        let text = "// DEFINE: %{x} = one\r// REDEFINE: %{x} = two\r// RUN: %{x}\n";
        let d = at(text, &[2, 3]).unwrap();
        assert_eq!(expand("%{x}", &d[0]).unwrap(), "one");
        assert_eq!(expand("%{x}", &d[1]).unwrap(), "two");
    }

    #[test]
    fn errors_use_lits_wording() {
        let err = |t: &str| at(t, &[]).unwrap_err();
        assert_eq!(
            err("// DEFINE: %{x} = 1\n// DEFINE: %{x} = 2\n"),
            "line 2: Substitution whose pattern contains '%{x}' is already defined before \
             'DEFINE:' directive at line 2\nExisting pattern: %{x}"
        );
        assert_eq!(
            err("// REDEFINE: %{y} = 1\n"),
            "line 1: No substitution for '%{y}' is defined before 'REDEFINE:' directive at line 1"
        );
        assert!(err("// DEFINE: %{pfir} = x\n").contains("already defined"));
        assert_eq!(
            err("// DEFINE: %{x}\n"),
            "line 1: Substitution's definition does not contain '='"
        );
        assert!(err("// DEFINE: %{1x} = 2\n").contains("is malformed"));
        assert!(err("// DEFINE: x = 2\n").contains("is malformed"));
        assert!(err("// DEFINE: %{x} = \\\n").contains("nothing follows"));
        assert!(err("// DEFINE: %{x} = \\\n// DEFINE:\n").contains("continuation is empty"));
        assert!(err("// DEFINE: %{x} = \\\n// RUN: y\n").contains("does not continue"));
        assert!(
            err("// DEFINE: %{x} = \\\n// DEFINE: 1 \\\n// DEFINE: 2\n// DEFINE: %{x} = 3\n")
                .contains("directive at line 4")
        );
        // REDEFINE of a name that only contains another's.
        assert!(err("// DEFINE: %{a:b} = 1\n// REDEFINE: %{b} = 2\n").contains("No substitution"));
    }
}
