//! The `pfir/viewOutput` request and the `pfir-output:` virtual documents
//! (the contract with the VS Code client, `editors/README.md`).
//!
//! - Request `pfir/viewOutput`, params `{ textDocument: { uri }, run?: N }`,
//!   result `{ text }`: without `run`, the output of the document's pass
//!   pipeline; with `run`, the output of the command of RUN line `N`
//!   (0-based) before its FileCheck stage. Both on the text in the editor
//!   ([`super::producer`]). When the command fails, its diagnostics follow
//!   the output as `//` comments. A RUN line whose command needs consent
//!   ([`super::trust`]) is not run: the request fails saying why.
//! - URIs `pfir-output:<source path>.out?source=<encoded source URI>[&run=N]`
//!   name those texts; go to definition on a CHECK line answers one.

use super::producer::{self, Produced};
use super::trust::RunPolicy;
use lsp_types::{TextDocumentIdentifier, Url};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The method name of the request.
pub const VIEW_OUTPUT: &str = "pfir/viewOutput";

/// The URI scheme of output documents.
pub const OUTPUT_SCHEME: &str = "pfir-output";

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewOutputParams {
    pub text_document: TextDocumentIdentifier,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<usize>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct ViewOutputResult {
    pub text: String,
}

/// The file path a document URI stands for (a made-up one in the current
/// directory for URIs that are not files, such as `untitled:`).
pub fn source_path(uri: &Url) -> PathBuf {
    uri.to_file_path().unwrap_or_else(|()| {
        let name = uri
            .path_segments()
            .and_then(|mut s| s.next_back())
            .filter(|s| !s.is_empty())
            .unwrap_or("untitled.pfir");
        PathBuf::from(name)
    })
}

/// The output text for `params` on the document `text`; a RUN line's
/// command runs under `policy` (consent, timeout).
pub fn view_output(
    text: &str,
    source: &Path,
    run: Option<usize>,
    policy: &RunPolicy,
) -> Result<String, String> {
    let produced = match run {
        None => producer::pipeline_output(text, source, policy.read_command),
        Some(index) => producer::run_line_output(text, source, index, policy)?,
    };
    Ok(render(&produced))
}

fn render(p: &Produced) -> String {
    let mut text = p.stdout.clone();
    if p.dropped > 0 {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!(
            "// the output was cut: {} bytes were dropped (the middle part)\n",
            p.dropped
        ));
    }
    if !p.passed || (text.is_empty() && !p.stderr.is_empty()) {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("// `{}` failed:\n", p.command));
        for line in fsutil::lines::lines(&p.stderr) {
            text.push_str("// ");
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}

/// The `pfir-output:` URI of the output of RUN line `run` (or of the pass
/// pipeline) of the document `source`.
pub fn output_uri(source: &Url, run: Option<usize>) -> Option<Url> {
    let path = source_path(source);
    let mut uri = format!(
        "{OUTPUT_SCHEME}:{}.out?source={}",
        encode_path(&path.to_string_lossy()),
        encode_component(source.as_str())
    );
    if let Some(run) = run {
        uri.push_str(&format!("&run={run}"));
    }
    Url::parse(&uri).ok()
}

/// JavaScript's `encodeURIComponent`: what the client decodes.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn encode_path(s: &str) -> String {
    s.split('/')
        .map(encode_component)
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of a failing command's standard error is a comment in
    /// the output document, also a line a lone `\r` ends (the editor shows
    /// it as a line of its own).
    #[test]
    fn each_line_of_stderr_is_commented_lone_cr_included() {
        let produced = Produced {
            stdout: String::new(),
            stderr: "first\rsecond\r\nthird\n".into(),
            passed: false,
            command: "cmd".into(),
            status: String::new(),
            dropped: 0,
        };
        assert_eq!(
            render(&produced),
            "// `cmd` failed:\n// first\n// second\n// third\n"
        );
    }

    #[test]
    fn output_uris_carry_the_encoded_source_and_run() {
        let source = Url::parse("file:///tmp/a%20b/t.pfir").unwrap();
        let uri = output_uri(&source, Some(2)).unwrap();
        assert_eq!(uri.scheme(), OUTPUT_SCHEME);
        assert_eq!(uri.path(), "/tmp/a%20b/t.pfir.out");
        assert_eq!(
            uri.query(),
            Some("source=file%3A%2F%2F%2Ftmp%2Fa%2520b%2Ft.pfir&run=2")
        );
    }
}
