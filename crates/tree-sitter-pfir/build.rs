//! Compiles the generated parser of `editors/tree-sitter-pfir` and its
//! external scanner (the zero-width token that ends a comment).

use std::path::Path;

fn main() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../editors/tree-sitter-pfir/src");
    let parser = src.join("parser.c");
    let scanner = src.join("scanner.c");
    println!("cargo:rerun-if-changed={}", parser.display());
    println!("cargo:rerun-if-changed={}", scanner.display());
    cc::Build::new()
        .std("c11")
        .include(&src)
        .file(&parser)
        .file(&scanner)
        .warnings(false)
        .compile("tree-sitter-pfir");
}
