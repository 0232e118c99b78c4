//! The repository's `.pfir` files, for the test crates that go over all
//! of them (`tests/it`, and `tests/needs_tools` in the `lit` harness).

/// Every `.pfir` file of the repository's `examples/` and `tests/`, in
/// that order, each directory sorted.
pub fn repository_pfir_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    pfir_files(&root.join("examples"), &mut files);
    pfir_files(&root.join("tests"), &mut files);
    files
}

/// Every `.pfir` file under `dir`, recursively, in sorted order.
pub fn pfir_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            pfir_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "pfir") {
            out.push(p);
        }
    }
}
