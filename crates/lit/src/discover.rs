//! Finding test files.

use std::path::{Path, PathBuf};

/// Directories never searched: hidden ones, build output, and `Inputs`
/// (lit's convention for files that tests use but that are not tests).
fn skipped_dir(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "Inputs"
}

/// Whether `text` has at least one `// RUN:` line.
pub fn has_run_lines(text: &str) -> bool {
    fsutil::lines::lines(text).any(|l| crate::run_line::run_directive(l).is_some())
}

/// What [`discover_all`] found.
#[derive(Debug, Default)]
pub struct Discovery {
    /// The tests, sorted and without duplicates.
    pub tests: Vec<PathBuf>,
    /// A message per path that could not be read (a missing path, an
    /// unreadable directory); the rest of the search went on.
    pub errors: Vec<String>,
}

/// The tests under `paths`: a file is always taken as a test; a directory
/// is searched recursively for `*.pfir` files that carry `// RUN:` lines
/// (skipping hidden directories, `target` and `Inputs`). Directory symlinks
/// are followed, but each directory (by its canonical path) is searched
/// once, so a symlink loop ends. A directory that cannot be read is
/// reported in [`Discovery::errors`] and the search goes on.
pub fn discover_all(paths: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    let mut visited = std::collections::HashSet::new();
    for path in paths {
        match std::fs::metadata(path) {
            Err(e) => found
                .errors
                .push(format!("cannot read '{}': {e}", path.display())),
            Ok(meta) if meta.is_dir() => walk(path, &mut visited, &mut found),
            Ok(_) => found.tests.push(path.clone()),
        }
    }
    found.tests.sort();
    found.tests.dedup();
    found
}

/// Like [`discover_all`], but any path that cannot be read is an error.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let found = discover_all(paths);
    match found.errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(found.tests),
    }
}

/// Searches `dir` with an explicit stack (no recursion as deep as the tree).
fn walk(dir: &Path, visited: &mut std::collections::HashSet<PathBuf>, found: &mut Discovery) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let canonical = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
        if !visited.insert(canonical) {
            continue;
        }
        let cannot_read = |e: std::io::Error| format!("cannot read '{}': {e}", dir.display());
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                found.errors.push(cannot_read(e));
                continue;
            }
        };
        let mut subdirs = Vec::new();
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    found.errors.push(cannot_read(e));
                    break;
                }
            };
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
                    subdirs.push(path);
                }
            } else if name.ends_with(".pfir")
                && std::fs::read_to_string(&path).is_ok_and(|t| has_run_lines(&t))
            {
                found.tests.push(path);
            }
        }
        // Sorted, so which path of a directory reached twice is used does
        // not depend on the order the file system lists entries in.
        subdirs.sort();
        stack.extend(subdirs.into_iter().rev());
    }
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

    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_searched_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/t.pfir"), "// RUN: true\n").unwrap();
        // `sub/up -> ..` and a self-loop `sub/self -> .`.
        std::os::unix::fs::symlink("..", root.join("sub/up")).unwrap();
        std::os::unix::fs::symlink(".", root.join("sub/self")).unwrap();
        let found = discover_all(&[root.to_path_buf()]);
        assert_eq!(found.tests, vec![root.join("sub/t.pfir")]);
        assert!(found.errors.is_empty(), "{:?}", found.errors);
    }

    #[test]
    fn a_missing_path_does_not_stop_the_others() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.pfir"), "// RUN: true\n").unwrap();
        let found = discover_all(&[dir.path().join("missing"), dir.path().to_path_buf()]);
        assert_eq!(found.tests, vec![dir.path().join("a.pfir")]);
        assert_eq!(found.errors.len(), 1);
        assert!(found.errors[0].contains("missing"));
    }
}
