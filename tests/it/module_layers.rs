//! The layers inside the `pfir` package (ARCHITECTURE.md): every module of
//! `src/` has a layer ([`LAYERS`]) and names (`crate::x`) only modules of
//! lower layers; no clap outside `src/cli/` (every other layer takes plain
//! options structs); the IR never calls the printer, the lexer and parser
//! never import the IR. Checked on the source text, comments left out, and
//! test code (`tests.rs` files, and a file from its `#[cfg(test)]` line on)
//! left out too: a module's tests may drive it through higher layers.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("reading src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of the `.rs` files under `src/<dir>` (comments dropped) that
/// mention `needle`.
fn offending_lines(dir: &str, needle: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = Vec::new();
    if root.is_dir() {
        rust_files(&root, &mut files);
    } else {
        files.push(root.with_extension("rs"));
    }
    assert!(!files.is_empty(), "src/{dir} has Rust files");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("reading a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains(needle) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

/// The modules of `src/` (directories and files), each with its layer,
/// lowest first. A module names only modules of strictly lower layers, so
/// modules of one layer are independent of each other and there are no
/// cycles.
const LAYERS: &[(&str, u32)] = &[
    ("span", 0),
    ("split_input", 0),
    ("vocab", 0),
    ("io", 0),
    ("diagnostics", 1),
    ("ir", 1),
    ("lexer", 2),
    ("stack", 0),
    ("parser", 3),
    ("lower", 4),
    ("printer", 4),
    ("analysis", 4),
    ("passes", 5),
    ("frontend", 5),
    ("format", 6),
    ("graph", 6),
    ("driver", 7),
    ("api", 8),
    ("ide", 8),
    ("testing", 8),
    ("reduce", 8),
    ("translate", 8),
    ("lsp", 9),
    ("cli", 10),
];

/// The top-level modules of `src/`, from the file system (`lib.rs` and
/// `main.rs` are the roots, not modules).
fn modules_on_disk() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut names: Vec<String> = std::fs::read_dir(&src)
        .expect("reading src/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|n| n != "lib" && n != "main")
        .collect();
    names.sort();
    names
}

/// The non-test lines of `text` (a `tests.rs` file has none; elsewhere
/// the lines before `#[cfg(test)]`), comments dropped, numbered from 1.
fn code_lines(file: &Path, text: &str) -> Vec<(usize, String)> {
    if file.file_name().is_some_and(|n| n == "tests.rs") {
        return Vec::new();
    }
    text.lines()
        .enumerate()
        .take_while(|(_, l)| !l.trim_start().starts_with("#[cfg(test)]"))
        .map(|(n, l)| (n + 1, l.split("//").next().unwrap_or("").to_string()))
        .collect()
}

/// The modules of `src/` that `code` names: `crate::x` and the names in
/// `crate::{x, y::z}`.
fn named_modules(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
        } else {
            names.push(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
    }
    names
}

/// Each `file:line: module -> named` where a module of `src/` names a
/// module of its own layer or above.
fn upward_references() -> Vec<String> {
    let layer = |m: &str| LAYERS.iter().find(|(n, _)| *n == m).map(|&(_, l)| l);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for (module, own) in LAYERS {
        let mut files = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        } else {
            files.push(src.join(format!("{module}.rs")));
        }
        for file in files {
            let text = std::fs::read_to_string(&file).expect("reading a source file");
            for (n, code) in code_lines(&file, &text) {
                for named in named_modules(&code) {
                    if named != *module && layer(&named).is_some_and(|l| l >= *own) {
                        found.push(format!(
                            "{}:{n}: {module} (layer {own}) -> {named} (layer {})",
                            file.display(),
                            layer(&named).unwrap_or(0)
                        ));
                    }
                }
            }
        }
    }
    found
}

#[test]
fn every_module_has_a_layer() {
    let mut listed: Vec<String> = LAYERS.iter().map(|(m, _)| m.to_string()).collect();
    listed.sort();
    assert_eq!(
        listed,
        modules_on_disk(),
        "LAYERS must list exactly the modules of src/"
    );
}

#[test]
fn no_layer_reaches_up() {
    let found = upward_references();
    assert!(
        found.is_empty(),
        "a module names a module of its own layer or above:\n{}",
        found.join("\n")
    );
}

/// The scan sees `crate::x` and `crate::{x, y}` (so that the test above
/// can fail).
#[test]
fn the_reference_scan_finds_paths_and_groups() {
    assert_eq!(
        named_modules("use crate::cli::Cli; use crate::{driver::x, format};"),
        ["cli", "driver", "format"]
    );
}

#[test]
fn no_clap_below_the_command_line() {
    for (dir, _) in LAYERS.iter().filter(|(m, _)| *m != "cli") {
        let lines = offending_lines(dir, "clap");
        assert!(lines.is_empty(), "clap in src/{dir}:\n{}", lines.join("\n"));
    }
}

#[test]
fn the_ir_never_calls_the_printer() {
    let lines = offending_lines("ir", "printer::");
    assert!(
        lines.is_empty(),
        "src/ir uses the printer:\n{}",
        lines.join("\n")
    );
}

#[test]
fn lexer_and_parser_never_import_the_ir() {
    for dir in ["lexer", "parser"] {
        let lines = offending_lines(dir, "crate::ir");
        assert!(
            lines.is_empty(),
            "src/{dir} imports the IR:\n{}",
            lines.join("\n")
        );
    }
}

/// The check itself finds what it looks for (a file that does mention the
/// needle is reported).
#[test]
fn the_scan_finds_a_mention() {
    assert!(!offending_lines("cli", "clap").is_empty());
}

/// The modules `src/lib.rs` makes public. The command line, the language
/// server, the test tooling and the stages of the pipeline (parser,
/// lowering, printer, formatter, driver) are the binary's internals
/// (`pub(crate)`), reached through the facade (`api`); widening one, or
/// making a new module public, is a decision to take here on purpose
/// (ARCHITECTURE.md, "What is public"). (`limits`, re-exports of the
/// documented limits, and `testkit`, public only with the feature of that
/// name, are declared inline.)
const PUBLIC: &[&str] = &[
    "analysis",
    "api",
    "diagnostics",
    "graph",
    "ide",
    "io",
    "ir",
    "lexer",
    "passes",
    "span",
    "translate",
    "vocab",
];

/// The modules `text` (a module's source) declares with `pub mod`, and
/// those it declares otherwise (`mod`, `pub(crate) mod`): (public, private).
fn declared_modules(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut public, mut private) = (Vec::new(), Vec::new());
    for line in text.lines().map(str::trim) {
        let Some(name) = line.strip_suffix(';').and_then(|l| l.split("mod ").nth(1)) else {
            continue;
        };
        if line.starts_with("pub mod ") {
            public.push(name.to_string());
        } else if line.starts_with("mod ") || line.starts_with("pub(crate) mod ") {
            private.push(name.to_string());
        }
    }
    (public, private)
}

#[test]
fn only_the_library_modules_are_public() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("reading src/lib.rs");
    let (mut public, mut private) = declared_modules(&lib);
    public.sort();
    private.sort();
    assert_eq!(public, PUBLIC, "the public modules of src/lib.rs");
    assert_eq!(
        private,
        [
            "cli",
            "driver",
            "format",
            "frontend",
            "lower",
            "lsp",
            "parser",
            "printer",
            "reduce",
            "split_input",
            "stack",
            "testing"
        ],
        "the private modules"
    );
    // `ide` is public through `Analysis` and the types its methods
    // return, re-exported at its root; its modules are private.
    let ide = std::fs::read_to_string(src.join("ide/mod.rs")).expect("reading src/ide/mod.rs");
    let (public, private) = declared_modules(&ide);
    assert!(public.is_empty(), "public modules in src/ide: {public:?}");
    assert!(private.len() > 5, "{private:?}");
}

/// The declaration scan tells `pub mod` from `pub(crate) mod` and `mod`.
#[test]
fn the_declaration_scan_tells_public_from_private() {
    let (public, private) =
        declared_modules("pub mod a;\npub(crate) mod b;\nmod c;\n#[cfg(x)]\npub mod d {\n");
    assert_eq!(
        (public, private),
        (
            vec!["a".to_string()],
            vec!["b".to_string(), "c".to_string()]
        )
    );
}
