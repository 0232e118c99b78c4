//! `--format=html`: one self-contained page (no scripts, no external
//! files): the SVG, then a table of the pass's decisions per loop (the
//! text of its remarks, as `--remarks` prints them).

use super::Picture;
use super::svg::{escape, write_svg};
use std::fmt::Write;

/// One decision of a pass, from one remark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The function holding the loop.
    pub function: String,
    /// 1-based line and column of the remark's location.
    pub line: usize,
    pub column: usize,
    /// The source line there (trimmed): usually the loop's header.
    pub source: String,
    /// The remark's message, then its notes.
    pub message: String,
}

/// The page of `p` with `decisions`.
pub fn write_html(p: &Picture, decisions: &[Decision], passes: &[String]) -> String {
    let mut out = String::new();
    let title = format!("pfir graph {}", p.title);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape(&title));
    out.push_str(
        "<style>\n\
         body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 24px; color: #222; }\n\
         h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }\n\
         .picture { overflow: auto; border: 1px solid #ddd; }\n\
         table { border-collapse: collapse; font-size: 13px; }\n\
         th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }\n\
         th { background: #f0f0f0; }\n\
         code { font-family: DejaVu Sans Mono, Menlo, Consolas, monospace; }\n\
         </style>\n</head>\n<body>\n",
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(&title));
    if passes.is_empty() {
        out.push_str("<p>No passes were run: the picture shows the program as read.</p>\n");
    } else {
        let _ = writeln!(
            out,
            "<p>Passes: <code>{}</code>. Each number on an edge is the count of runtime \
             dependency edges it stands for; the totals are those of \
             <code>pfir opt --stats</code>.</p>",
            escape(&passes.join(","))
        );
    }
    out.push_str("<div class=\"picture\">\n");
    out.push_str(&write_svg(p));
    out.push_str("</div>\n<h2>Decisions of the passes, per loop</h2>\n");
    if decisions.is_empty() {
        out.push_str("<p>The passes reported no decision (no remark).</p>\n");
    } else {
        out.push_str(
            "<table>\n<tr><th>function</th><th>line:col</th><th>loop</th><th>decision</th></tr>\n",
        );
        for d in decisions {
            let _ = writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}:{}</td><td><code>{}</code></td><td>{}</td></tr>",
                escape(&d.function),
                d.line,
                d.column,
                escape(&d.source),
                escape(&d.message)
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}
