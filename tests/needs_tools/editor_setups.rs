//! The Neovim and Emacs setups of `editors/README.md`, run as printed: each
//! snippet marked `<!-- editor-test: EDITOR VERSIONS -->` is taken from the
//! README (never copied here), written as the editor's init file, and run
//! in a headless Neovim (`nvim --headless -u init.lua`) or a batch Emacs
//! (`emacs --batch -l init.el`) on a small `.pfir` file with an unknown
//! variable, with `pfir` (this build) on `PATH`. A driver script then waits
//! for the diagnostic to arrive through the editor's own LSP client and asks
//! for hover on a variable; the test checks both. A snippet whose editor is
//! not installed, or whose version range does not include the installed
//! version, is reported as ignored (with the reason) by the `lit` harness.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A snippet of the README: which editor, which versions, its text.
struct Snippet {
    editor: String,
    versions: String,
    text: String,
}

fn readme() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/README.md")
}

/// Every marked snippet: the marker line, then a fenced code block.
fn snippets() -> Vec<Snippet> {
    let text = std::fs::read_to_string(readme()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(marker) = line
            .trim()
            .strip_prefix("<!-- editor-test:")
            .and_then(|m| m.strip_suffix("-->"))
        else {
            continue;
        };
        let mut words = marker.split_whitespace();
        let (Some(editor), Some(versions)) = (words.next(), words.next()) else {
            panic!(
                "editors/README.md:{}: marker without editor and versions",
                i + 1
            );
        };
        assert!(
            lines.get(i + 1).is_some_and(|l| l.starts_with("```")),
            "editors/README.md:{}: the marker must be followed by a code block",
            i + 1
        );
        let body: Vec<&str> = lines[i + 2..]
            .iter()
            .take_while(|l| !l.starts_with("```"))
            .copied()
            .collect();
        out.push(Snippet {
            editor: editor.to_string(),
            versions: versions.to_string(),
            text: body.join("\n") + "\n",
        });
    }
    out
}

/// `(major, minor)` of `0.7.2`, `28.2`, `0.11`.
fn version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().map_or(Some(0), |m| m.parse().ok())?;
    Some((major, minor))
}

/// Whether `installed` is in `range`: `0.7-0.9`, `0.10`, `0.11+`, `28+`.
fn in_range(installed: (u32, u32), range: &str) -> bool {
    if let Some(min) = range.strip_suffix('+') {
        return version(min).is_some_and(|min| installed >= min);
    }
    if let Some((lo, hi)) = range.split_once('-') {
        return matches!((version(lo), version(hi)), (Some(lo), Some(hi)) if lo <= installed && installed <= hi);
    }
    version(range) == Some(installed)
}

/// The installed editor's version, from `nvim --version` (`NVIM v0.7.2`)
/// or `emacs --version` (`GNU Emacs 28.2`).
fn installed(editor: &str) -> Result<(u32, u32), String> {
    let program = match editor {
        "nvim" => "nvim",
        "emacs" => "emacs",
        other => panic!("editors/README.md: unknown editor `{other}` in a marker"),
    };
    let out = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|_| format!("`{program}` is not installed"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or("");
    first
        .split_whitespace()
        .filter_map(|w| version(w.trim_start_matches('v')))
        .next()
        .ok_or_else(|| format!("cannot read the version of `{program}`: {first:?}"))
}

/// The file the editors open: an unknown variable (`z`) on line 3, and `x`
/// to hover on (line 3, column 7).
const SAMPLE: &str = "func main() {\n  x = 1\n  y = x + z\n}\n";

const NVIM_DRIVER: &str = r#"
local out = assert(io.open(os.getenv('PFIR_EDITOR_TEST_OUT'), 'w'))
local function say(s) out:write(s .. '\n') out:flush() end
local buf = vim.api.nvim_get_current_buf()
say('filetype ' .. vim.bo[buf].filetype)
vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  say('diagnostic ' .. (d.lnum + 1) .. ' ' .. d.message:gsub('\n', ' '))
end
local clients = (vim.lsp.get_clients or vim.lsp.get_active_clients)()
for _, c in pairs(clients) do
  if c.name == 'pfir' then
    say('debounce ' .. tostring((c.config.flags or {}).debounce_text_changes))
  end
end
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 2, character = 6 } }
local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 30000)
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then
    say('hover ' .. vim.inspect(r.result.contents):gsub('\n', ' '))
  end
end
out:close()
vim.cmd('qa!')
"#;

const EMACS_DRIVER: &str = r#";; -*- lexical-binding: t -*-
(let ((out (getenv "PFIR_EDITOR_TEST_OUT"))
      (lines nil))
  (find-file "sample.pfir")
  (push (format "filetype %s" major-mode) lines)
  ;; What the command loop does after the command that visited the file:
  ;; `eglot-ensure' connects from `post-command-hook'.
  (run-hooks 'post-command-hook)
  (let ((deadline (+ (float-time) 30)))
    (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
      (accept-process-output nil 0.1)))
  (dolist (d (flymake-diagnostics))
    (push (format "diagnostic %d %s"
                  (line-number-at-pos (flymake-diagnostic-beg d))
                  (replace-regexp-in-string "\n" " " (flymake-diagnostic-text d)))
          lines))
  (goto-char (point-min))
  (forward-line 2)
  (forward-char 6)
  (let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                (eglot--TextDocumentPositionParams))))
    (push (replace-regexp-in-string "\n" " " (format "hover %S" (plist-get hover :contents)))
          lines))
  (with-temp-file out (insert (mapconcat #'identity (nreverse lines) "\n") "\n"))
  (kill-emacs 0))
"#;

/// Runs `cmd` for at most `limit`, killing it after.
fn run_with_limit(mut cmd: Command, limit: Duration) -> Result<String, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(_) => break,
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let out = child.wait_with_output().map_err(|e| e.to_string())?;
                return Err(format!(
                    "timed out after {limit:?}:\n{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            None => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok(format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// Runs one snippet in its editor; the driver's report lines.
fn run_snippet(s: &Snippet) -> (Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("sample.pfir"), SAMPLE).unwrap();
    let home = d.join("home");
    std::fs::create_dir(&home).unwrap();
    let report = d.join("report.txt");
    let pfir = Path::new(env!("CARGO_BIN_EXE_pfir"));
    let path = std::env::join_paths(std::iter::once(pfir.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut cmd = match s.editor.as_str() {
        "nvim" => {
            std::fs::write(d.join("init.lua"), &s.text).unwrap();
            std::fs::write(d.join("driver.lua"), NVIM_DRIVER).unwrap();
            let mut c = Command::new("nvim");
            c.args([
                "--headless",
                "-i",
                "NONE",
                "-u",
                "init.lua",
                "sample.pfir",
                "-c",
                "luafile driver.lua",
            ]);
            c
        }
        _ => {
            std::fs::write(d.join("init.el"), &s.text).unwrap();
            std::fs::write(d.join("driver.el"), EMACS_DRIVER).unwrap();
            let mut c = Command::new("emacs");
            c.args(["--batch", "-l", "init.el", "-l", "driver.el"]);
            c
        }
    };
    cmd.current_dir(d)
        .env("PATH", path)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("PFIR_EDITOR_TEST_OUT", &report);
    let output = run_with_limit(cmd, Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("{} {}: {e}", s.editor, s.versions));
    let lines = std::fs::read_to_string(&report)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    (lines, output)
}

/// The marked snippets are the setups the README documents; a marker lost
/// in an edit is a setup no longer tested.
fn readme_marks_every_setup() {
    let names: Vec<String> = snippets()
        .iter()
        .map(|s| format!("{} {}", s.editor, s.versions))
        .collect();
    assert_eq!(
        names,
        ["nvim 0.11+", "nvim 0.10", "nvim 0.7-0.9", "emacs 28+"],
        "the marked snippets of editors/README.md"
    );
}

/// Runs one snippet; `Some(why)` when its editor, at a version in its
/// range, is not installed here.
fn snippet_gives_diagnostics_and_hover(s: &Snippet) -> Option<String> {
    let name = format!("{} {}", s.editor, s.versions);
    let have = match installed(&s.editor) {
        Ok(v) => v,
        Err(why) => return Some(why),
    };
    if !in_range(have, &s.versions) {
        return Some(format!(
            "the installed {} is version {}.{}",
            s.editor, have.0, have.1
        ));
    }
    let (report, output) = run_snippet(s);
    let context = format!(
        "{name} (installed {}.{}): report {report:#?}\neditor output:\n{output}",
        have.0, have.1
    );
    assert!(
        report
            .iter()
            .any(|l| l == "filetype pfir" || l == "filetype pfir-mode"),
        "{context}"
    );
    assert!(
        report
            .iter()
            .any(|l| l.starts_with("diagnostic 3 ") && l.contains("unknown variable `z`")),
        "no diagnostic for `z` on line 3: {context}"
    );
    assert!(
        report
            .iter()
            .any(|l| l.starts_with("hover ") && l.contains("x: i64")),
        "no hover on `x`: {context}"
    );
    if s.editor == "nvim" {
        assert!(
            report.iter().any(|l| l == "debounce 0"),
            "the client holds changes back: {context}"
        );
    }
    None
}

/// Every Neovim snippet sets the client's debounce to 0: Neovim's default
/// (150 ms) comes on top of the server's own, and typing feels slow.
fn nvim_snippets_send_changes_at_once() {
    let nvim: Vec<Snippet> = snippets()
        .into_iter()
        .filter(|s| s.editor == "nvim")
        .collect();
    assert!(!nvim.is_empty());
    for s in nvim {
        let set = s.text.lines().any(|l| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            l.starts_with("flags={debounce_text_changes=0}")
        });
        assert!(
            set,
            "nvim {}: no `flags = {{ debounce_text_changes = 0 }}`",
            s.versions
        );
    }
}

fn version_ranges() {
    assert!(in_range((0, 7), "0.7-0.9"));
    assert!(in_range((0, 9), "0.7-0.9"));
    assert!(!in_range((0, 10), "0.7-0.9"));
    assert!(in_range((0, 10), "0.10"));
    assert!(!in_range((0, 11), "0.10"));
    assert!(in_range((0, 12), "0.11+"));
    assert!(!in_range((0, 10), "0.11+"));
    assert!(in_range((28, 2), "28+"));
    assert!(in_range((30, 1), "28+"));
    assert!(!in_range((27, 1), "28+"));
    assert_eq!(version("0.7.2"), Some((0, 7)));
    assert_eq!(version("28.2"), Some((28, 2)));
}

/// One trial per marked snippet (`editor_setups::nvim 0.7-0.9`), ignored
/// where its editor or version is not installed, and the two checks that
/// need no editor.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let mut trials = vec![
        super::plain(
            "editor_setups::readme_marks_every_setup",
            readme_marks_every_setup,
        ),
        super::plain("editor_setups::version_ranges", version_ranges),
        super::plain(
            "editor_setups::nvim_snippets_send_changes_at_once",
            nvim_snippets_send_changes_at_once,
        ),
    ];
    for s in snippets() {
        let name = format!("editor_setups::{} {}", s.editor, s.versions);
        trials.push(super::needs_tool(&name, move || {
            snippet_gives_diagnostics_and_hover(&s)
        }));
    }
    trials
}
