//! Finding test files.

use std::path::{Path, PathBuf};

/// Directories never searched: hidden ones, build output, and `Inputs`
/// (lit's convention for files that tests use but that are not tests).
fn skipped_dir(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "Inputs"
}

/// Whether `text` has at least one `// RUN:` line.
pub fn has_run_lines(text: &str) -> bool {
    text.lines().any(|l| {
        l.trim_start()
            .strip_prefix("//")
            .is_some_and(|r| r.trim_start().starts_with("RUN:"))
    })
}

/// The tests under `paths`: a file is always taken as a test; a directory
/// is searched recursively for `*.pfir` files that carry `// RUN:` lines
/// (skipping hidden directories, `target` and `Inputs`). The result is
/// sorted and without duplicates.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        if meta.is_dir() {
            walk(path, &mut found)?;
        } else {
            found.push(path.clone());
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let is_dir = if kind.is_symlink() {
            path.is_dir()
        } else {
            kind.is_dir()
        };
        if is_dir {
            if !skipped_dir(&name) {
                walk(&path, found)?;
            }
        } else if name.ends_with(".pfir")
            && std::fs::read_to_string(&path).is_ok_and(|t| has_run_lines(&t))
        {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_pfir_files_with_run_lines() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        write("a.pfir", "// RUN: pfir opt %s\n");
        write("sub/b.pfir", "  //RUN: pfir opt %s\n");
        write("sub/no_run.pfir", "func f() {}\n");
        write("sub/c.txt", "// RUN: pfir opt %s\n");
        write("Inputs/d.pfir", "// RUN: pfir opt %s\n");
        write(".hidden/e.pfir", "// RUN: pfir opt %s\n");
        write("target/f.pfir", "// RUN: pfir opt %s\n");
        let found = discover(&[root.to_path_buf()]).unwrap();
        assert_eq!(found, vec![root.join("a.pfir"), root.join("sub/b.pfir")]);
        // A file named explicitly is taken even without RUN lines.
        let explicit = discover(&[root.join("sub/no_run.pfir"), root.join("a.pfir")]).unwrap();
        assert_eq!(
            explicit,
            vec![root.join("a.pfir"), root.join("sub/no_run.pfir")]
        );
        assert!(discover(&[root.join("missing")]).is_err());
    }
}
