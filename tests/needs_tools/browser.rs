//! `pfir graph`'s SVG and HTML pages, drawn by a headless Chromium (when
//! one is installed; ignored otherwise): both render to a PNG that is not
//! blank.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A headless Chromium, if one is installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn svg_and_html_render_in_headless_chromium() -> Option<String> {
    let Some(browser) = chromium() else {
        return Some("chromium is not installed (apt-get install chromium)".into());
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for name in ["fan_in.svg", "fan_in.html"] {
        let out = dir.path().join(name);
        let st = Command::new(env!("CARGO_BIN_EXE_pfir"))
            .args(["graph", "--passes", "expand-manual-phase-fence", "-o"])
            .arg(&out)
            .arg(root.join("examples/fan_in.pfir"))
            .status()
            .unwrap();
        assert!(st.success());
        let png = dir.path().join(format!("{name}.png"));
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(&browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1200,800",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--screenshot={}", png.display()))
            .arg(format!("file://{}", out.display()))
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(dir.path().join(format!("{name}.log"))).unwrap())
            .spawn()
            .unwrap();
        // A guard against a browser that never exits, not a timing check.
        let mut waited = 0;
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break st;
            }
            if waited >= 3000 {
                let _ = child.kill();
                panic!("{name}: chromium did not exit within 300 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
            waited += 1;
        };
        let stderr =
            std::fs::read_to_string(dir.path().join(format!("{name}.log"))).unwrap_or_default();
        assert!(status.success(), "{name}: {stderr}");
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name}: not a PNG");
        // A blank 1200x800 page compresses to a few KB; the drawing does not.
        assert!(bytes.len() > 15_000, "{name}: {} bytes", bytes.len());
    }
    None
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    vec![super::needs_tool(
        "graph::svg_and_html_render_in_headless_chromium",
        svg_and_html_render_in_headless_chromium,
    )]
}
