//! The editor support in `editors/vscode/`: the TextMate grammar's own tests
//! (vscode-tmgrammar-test assertions and snapshots) and the extension's unit
//! tests run through `npm test` when `node`, `npm` and the installed
//! `node_modules` (`npm ci` in `editors/vscode`, done by `.ci/run`) are
//! present, and are reported as ignored otherwise.

use std::path::Path;
use std::process::Command;

/// Why the npm tests cannot run here, if they cannot.
fn npm_unavailable(dir: &Path) -> Option<String> {
    for tool in ["node", "npm"] {
        match Command::new(tool).arg("--version").output() {
            Ok(out) if out.status.success() => {}
            _ => return Some(format!("`{tool}` is not installed")),
        }
    }
    for bin in ["vscode-tmgrammar-test", "vscode-tmgrammar-snap", "esbuild"] {
        if !dir.join("node_modules/.bin").join(bin).exists() {
            return Some(format!(
                "{bin} is not installed (run `npm ci` in editors/vscode)"
            ));
        }
    }
    None
}

fn grammar_and_extension_npm_tests_pass() -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode");
    if let Some(why) = npm_unavailable(&dir) {
        return Some(why);
    }
    let out = Command::new("npm")
        .args(["test", "--silent"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("npm runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "`npm test` in editors/vscode failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    // The runners name every file they checked; make sure none was skipped.
    for file in [
        "test/assertions/code.tmtest",
        "test/assertions/directives.tmtest",
        "test/snapshots/every_construct.tmtest",
    ] {
        assert!(stdout.contains(file), "{file} was not run:\n{stdout}");
    }
    // The bundle's tests ran on the bundle `npm run bundle` just wrote.
    assert!(
        stdout.contains("the bundle loads and exports activate and deactivate"),
        "the bundle tests did not run:\n{stdout}"
    );
    None
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    vec![super::needs_tool(
        "editor_grammar::grammar_and_extension_npm_tests_pass",
        grammar_and_extension_npm_tests_pass,
    )]
}
