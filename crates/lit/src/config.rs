//! Per-directory configuration (`lit.toml`) and per-test directives
//! (`XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:`), in the manner of
//! LLVM's lit.
//!
//! A `lit.toml` applies to the tests in its directory and below. Every
//! `lit.toml` from the file system root down to the test's directory is
//! read, the nearer one adding to (and overriding) the farther:
//!
//! ```toml
//! # Feature names, for REQUIRES / UNSUPPORTED / XFAIL.
//! features = ["slow", "has-llvm"]
//!
//! # `%{name}` substitutions in RUN lines (the text may use %s, %t, ...).
//! [substitutions]
//! check = "FileCheck %s --match-full-lines"
//! ```
//!
//! The feature `unix` (or `windows`) and the operating system's name
//! (`linux`, `macos`, ...) are always present.

use std::path::{Path, PathBuf};

/// The name of the per-directory configuration file.
pub const CONFIG_FILE: &str = "lit.toml";

/// The names of the directives a test file gives the runner in its
/// comments (`// NAME: ...`): the one list the runner reads them by, and
/// the one an editor recognises them by.
pub mod directive {
    /// A command line to run ([`crate::run_line`]).
    pub const RUN: &str = "RUN";
    /// The test is expected to fail (when the listed features hold).
    pub const XFAIL: &str = "XFAIL";
    /// The test runs only when the listed features hold.
    pub const REQUIRES: &str = "REQUIRES";
    /// The test does not run when the listed features hold.
    pub const UNSUPPORTED: &str = "UNSUPPORTED";
    /// A failing test is run again up to this many times.
    pub const ALLOW_RETRIES: &str = "ALLOW_RETRIES";
    /// A `%{name}` substitution for the RUN lines after it ([`crate::define`]).
    pub const DEFINE: &str = "DEFINE";
    /// A new value of a `%{name}` substitution defined before.
    pub const REDEFINE: &str = "REDEFINE";
    /// Every directive name.
    pub const ALL: [&str; 7] = [
        RUN,
        XFAIL,
        REQUIRES,
        UNSUPPORTED,
        ALLOW_RETRIES,
        DEFINE,
        REDEFINE,
    ];
}

/// What the `lit.toml` files above a test say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LitConfig {
    pub features: Vec<String>,
    /// `%{name}` substitutions, farthest file first (later entries win).
    pub substitutions: Vec<(String, String)>,
    /// The files read, nearest last.
    pub files: Vec<PathBuf>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    features: Vec<String>,
    #[serde(default)]
    substitutions: std::collections::BTreeMap<String, String>,
}

impl LitConfig {
    /// The configuration for the test `test`.
    pub fn for_test(test: &Path) -> Result<LitConfig, String> {
        let dir = match test.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let mut config = LitConfig {
            features: builtin_features(),
            ..LitConfig::default()
        };
        let mut chain: Vec<PathBuf> = dir
            .ancestors()
            .map(|d| d.join(CONFIG_FILE))
            .filter(|f| f.is_file())
            .collect();
        chain.reverse();
        for file in chain {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read '{}': {e}", file.display()))?;
            let parsed: ConfigFile = toml::from_str(&text)
                .map_err(|e| format!("'{}': {}", file.display(), e.message()))?;
            for f in parsed.features {
                if !valid_feature(&f) {
                    return Err(format!(
                        "'{}': `{f}` is not a feature name (letters, digits, `-`, `_`, `.`, `+`)",
                        file.display()
                    ));
                }
                config.features.push(f);
            }
            config.substitutions.extend(parsed.substitutions);
            config.files.push(file);
        }
        Ok(config)
    }

    pub fn has(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }
}

fn builtin_features() -> Vec<String> {
    let family = if cfg!(unix) { "unix" } else { "windows" };
    vec![family.to_string(), std::env::consts::OS.to_string()]
}

/// Whether the expression `expr` (or `*`) holds with `config`'s features
/// (its syntax was checked when the directive was read).
fn holds(expr: &str, config: &LitConfig) -> bool {
    expr == "*" || crate::boolean_expr::evaluate(expr, &config.features).unwrap_or(false)
}

fn valid_feature(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
}

/// The lit directives of a test file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Directives {
    /// `// XFAIL: a, b` (or `*`): the test is expected to fail when any of
    /// these features is present (`*`: always).
    pub xfail: Vec<String>,
    /// `// REQUIRES: a, b`: every one must be present, or the test is
    /// unsupported (several lines add up).
    pub requires: Vec<String>,
    /// `// UNSUPPORTED: a, b`: the test is unsupported when any is present.
    pub unsupported: Vec<String>,
    /// `// ALLOW_RETRIES: N`: a failing test is run again up to N times.
    pub allow_retries: u32,
}

impl Directives {
    /// Reads the directives of `text`; a malformed one is an error naming
    /// its line.
    pub fn parse(text: &str) -> Result<Directives, String> {
        let mut d = Directives::default();
        let mut retries_seen = false;
        for (index, line) in fsutil::lines::lines(text).enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("//") else {
                continue;
            };
            let rest = rest.trim_start();
            let Some((name, value)) = rest.split_once(':') else {
                continue;
            };
            // Boolean expressions separated by commas (as lit: empty
            // items are dropped), each checked for syntax here.
            let list = |value: &str| -> Result<Vec<String>, String> {
                let items: Vec<String> = value
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                if items.is_empty() {
                    return Err(format!(
                        "line {}: `{name}:` needs a feature expression",
                        index + 1
                    ));
                }
                for item in items.iter().filter(|s| s.as_str() != "*") {
                    crate::boolean_expr::evaluate(item, &[])
                        .map_err(|e| format!("line {}: `{name}:`: {e}", index + 1))?;
                }
                Ok(items)
            };
            match name {
                directive::XFAIL => d.xfail.extend(list(value)?),
                directive::REQUIRES => d.requires.extend(list(value)?),
                directive::UNSUPPORTED => d.unsupported.extend(list(value)?),
                directive::ALLOW_RETRIES => {
                    if retries_seen {
                        return Err(format!("line {}: a second `ALLOW_RETRIES:`", index + 1));
                    }
                    retries_seen = true;
                    d.allow_retries = value.trim().parse().map_err(|_| {
                        format!(
                            "line {}: `ALLOW_RETRIES:` takes a number of retries, not `{}`",
                            index + 1,
                            value.trim()
                        )
                    })?;
                }
                _ => {}
            }
        }
        Ok(d)
    }

    /// Why the test cannot run with `config` (`None`: it can).
    pub fn unsupported_because(&self, config: &LitConfig) -> Option<String> {
        let missing: Vec<&str> = self
            .requires
            .iter()
            .filter(|f| !holds(f, config))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Some(format!("requires {}", missing.join(", ")));
        }
        self.unsupported
            .iter()
            .find(|f| holds(f, config))
            .map(|f| format!("unsupported with {f}"))
    }

    /// Whether the test is expected to fail with `config`.
    pub fn expected_to_fail(&self, config: &LitConfig) -> bool {
        self.xfail.iter().any(|f| holds(f, config))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives() {
        let text = "// RUN: x\n// XFAIL: *\n// REQUIRES: a, b\n//REQUIRES: c\n// UNSUPPORTED: win\n// ALLOW_RETRIES: 3\n// CHECK: REQUIRES: not this\n";
        let d = Directives::parse(text).unwrap();
        assert_eq!(d.xfail, vec!["*"]);
        assert_eq!(d.requires, vec!["a", "b", "c"]);
        assert_eq!(d.unsupported, vec!["win"]);
        assert_eq!(d.allow_retries, 3);
        assert!(
            Directives::parse("// ALLOW_RETRIES: many\n")
                .unwrap_err()
                .contains("line 1")
        );
        assert!(Directives::parse("// ALLOW_RETRIES: 1\n// ALLOW_RETRIES: 2\n").is_err());
        assert_eq!(
            Directives::parse("// RUN: x\n// REQUIRES: a b\n").unwrap_err(),
            "line 2: `REQUIRES:`: expected: <end of expression>\nhave: 'b'\nin expression: 'a b'"
        );
        assert!(Directives::parse("// XFAIL: a && (b\n").is_err());
        assert!(Directives::parse("// UNSUPPORTED:\n").is_err());
        // A lone `\r` ends a line, as for RUN lines: the code after it is
        // no part of the directive, and line numbers agree.
        let cr = Directives::parse("// REQUIRES: a\rx = 1\n").unwrap();
        assert_eq!(cr.requires, vec!["a"]);
        assert!(
            Directives::parse("// RUN: x\r// ALLOW_RETRIES: many\n")
                .unwrap_err()
                .contains("line 2")
        );
        let config = LitConfig {
            features: vec!["a".into(), "b".into()],
            ..LitConfig::default()
        };
        assert_eq!(d.unsupported_because(&config), Some("requires c".into()));
        let ok = Directives::parse("// REQUIRES: a\n// UNSUPPORTED: z\n// XFAIL: b\n").unwrap();
        assert_eq!(ok.unsupported_because(&config), None);
        assert!(ok.expected_to_fail(&config));
        let not = Directives::parse("// UNSUPPORTED: b\n// XFAIL: z\n").unwrap();
        assert_eq!(
            not.unsupported_because(&config),
            Some("unsupported with b".into())
        );
        assert!(!not.expected_to_fail(&config));
        // Boolean expressions, as lit reads them.
        let expr = Directives::parse(
            "// REQUIRES: a && !z, b || z\n// UNSUPPORTED: a && z\n// XFAIL: (z || b) && !{{x.*}}\n",
        )
        .unwrap();
        assert_eq!(expr.unsupported_because(&config), None);
        assert!(expr.expected_to_fail(&config));
        let expr =
            Directives::parse("// REQUIRES: a, !b\n// UNSUPPORTED: !z && {{[ab]}}\n").unwrap();
        assert_eq!(
            expr.unsupported_because(&config),
            Some("requires !b".into())
        );
        let expr = Directives::parse("// UNSUPPORTED: !z && {{[ab]}}\n").unwrap();
        assert_eq!(
            expr.unsupported_because(&config),
            Some("unsupported with !z && {{[ab]}}".into())
        );
    }

    #[test]
    fn config_files_nest() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(
            root.join("lit.toml"),
            "features = [\"outer\"]\n[substitutions]\ncheck = \"FileCheck %s\"\nx = \"1\"\n",
        )
        .unwrap();
        std::fs::write(
            root.join("sub/lit.toml"),
            "features = [\"inner\"]\n[substitutions]\nx = \"2\"\n",
        )
        .unwrap();
        let c = LitConfig::for_test(&root.join("sub/t.pfir")).unwrap();
        assert!(c.has("outer") && c.has("inner") && c.has("unix"));
        let x: Vec<_> = c.substitutions.iter().filter(|(n, _)| n == "x").collect();
        assert_eq!(x.last().unwrap().1, "2", "the nearer file wins");
        let outer = LitConfig::for_test(&root.join("t.pfir")).unwrap();
        assert!(!outer.has("inner"));
        std::fs::write(root.join("sub/lit.toml"), "featurez = []\n").unwrap();
        let e = LitConfig::for_test(&root.join("sub/t.pfir")).unwrap_err();
        assert!(e.contains("featurez"), "{e}");
        std::fs::write(root.join("sub/lit.toml"), "features = [\"a b\"]\n").unwrap();
        assert!(LitConfig::for_test(&root.join("sub/t.pfir")).is_err());
    }
}
