//! Replacing a file safely: what `pfir opt -o FILE` and `pfir test --update`
//! use to write their results.
//!
//! [`write_atomically_with`] writes the new contents to a temporary file
//! created exclusively (`O_EXCL`, never following a planted symlink) under
//! a random name in the target's directory, flushes it to disk, gives it
//! the target's permission bits (and owner and group where the user may set
//! them), and renames it over the target, so readers see the old file or
//! the new one, never a mixture, and a failed run leaves the target as it
//! was. More precisely:
//!
//! - a **symlink** is followed (to any depth, at most 40 links) and the file
//!   it finally names is replaced; the link itself stays a link;
//! - a **device or pipe** (`-o /dev/null`, a FIFO) is written directly, as
//!   it cannot be renamed over;
//! - a file the user could **not write in place** is not replaced: the
//!   error says so and the file is untouched. A file without any write
//!   permission bit (e.g. mode 0444) counts as such even for root, who
//!   could write it: someone protected it on purpose;
//! - a **new file** gets mode 0666 less the umask, as with any tool;
//! - **hard links**: the rename gives this name a new file; other names of
//!   the old file keep the old contents (as with editors' atomic saves and
//!   `sed -i`). This is documented in `docs/decisions.md`.
//!
//! While the temporary file exists it is registered with
//! [`super::cleanup`], so SIGINT, SIGTERM or SIGHUP remove it.

use super::cleanup::{self, Item};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How many symlinks are followed before giving up (Linux's own limit).
const MAX_SYMLINKS: usize = 40;

/// Writes `contents` to `path` atomically (see the module documentation).
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |f| f.write_all(contents))
}

fn error(kind: std::io::ErrorKind, message: String) -> std::io::Error {
    std::io::Error::new(kind, message)
}

/// The file `path` finally names, following symlinks (a dangling link
/// names the file it would create).
pub fn resolve_symlinks(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(error(
        std::io::ErrorKind::InvalidInput,
        format!("more than {MAX_SYMLINKS} levels of symbolic links"),
    ))
}

/// Like [`write_atomically`], with the contents streamed by `write`: the
/// target is replaced only when `write` and the flush to disk succeeded.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let target = resolve_symlinks(path)?;
    let existing = match std::fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(meta) = &existing {
        if meta.is_dir() {
            return Err(error(
                std::io::ErrorKind::IsADirectory,
                "it is a directory".into(),
            ));
        }
        if !meta.is_file() {
            // Devices and pipes (`-o /dev/null`, a FIFO) cannot be replaced
            // by a rename: write to them directly, as LLVM's tools do.
            let mut f = std::fs::OpenOptions::new().write(true).open(&target)?;
            return write(&mut f);
        }
        // Opening for writing (without truncating) changes nothing and asks
        // the kernel the real question: could the user write it in place?
        // A file with no write bit at all is write-protected even for root.
        let opened = std::fs::OpenOptions::new().write(true).open(&target);
        let denied = match &opened {
            Err(e) => e.kind() == std::io::ErrorKind::PermissionDenied,
            Ok(_) => meta.permissions().readonly(),
        };
        if denied {
            return Err(error(
                std::io::ErrorKind::PermissionDenied,
                "the file is write-protected (it could not be written in place); it was \
                 left untouched: make it writable to replace it"
                    .into(),
            ));
        }
        opened?;
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".pfir-tmp");
    #[cfg(unix)]
    if existing.is_none() {
        // A new file gets what `File::create` would give it: 0666 less the umask.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let (mut tmp, registration) = cleanup::register_with(
        || builder.tempfile_in(&dir),
        |t| Item::File(t.path().to_path_buf()),
    )?;
    write(tmp.as_file_mut())?;
    if let Some(meta) = &existing {
        copy_metadata(tmp.as_file(), meta)?;
    }
    tmp.as_file().sync_all()?;
    // Dropping `tmp` on an error removes the temporary file.
    let persisted = cleanup::without_cleanup(|| tmp.persist(&target).map(drop));
    drop(registration);
    persisted.map_err(|e| e.error)
}

/// Gives `file` the owner, group and permission bits of `meta`, as far as
/// the user may: a group or owner that cannot be set is left as created
/// (the file then belongs to the user, with the original permission bits).
#[cfg(unix)]
fn copy_metadata(file: &File, meta: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_err() {
        let _ = std::os::unix::fs::fchown(file, None, Some(meta.gid()));
    }
    // After the owner: changing the owner may clear set-id bits.
    file.set_permissions(meta.permissions())
}

#[cfg(not(unix))]
fn copy_metadata(file: &File, meta: &std::fs::Metadata) -> std::io::Result<()> {
    file.set_permissions(meta.permissions())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("pfir-tmp"))
            .collect()
    }

    #[test]
    fn replaces_contents_and_keeps_the_mode() {
        let dir = tempfile::tempdir().unwrap();
        for m in [0o600, 0o755, 0o640] {
            let p = dir.path().join(format!("f{m:o}"));
            std::fs::write(&p, "old").unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(m)).unwrap();
            write_atomically(&p, b"new").unwrap();
            assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
            assert_eq!(mode(&p), m, "mode {m:o} kept");
        }
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn new_files_get_the_usual_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("new");
        write_atomically(&p, b"x").unwrap();
        let reference = dir.path().join("reference");
        std::fs::File::create(&reference).unwrap();
        assert_eq!(mode(&p), mode(&reference));
    }

    #[test]
    fn writes_through_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.pfir");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.pfir");
        std::os::unix::fs::symlink("real.pfir", &link).unwrap();
        let link2 = dir.path().join("link2.pfir");
        std::os::unix::fs::symlink(&link, &link2).unwrap();
        write_atomically(&link2, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            std::fs::symlink_metadata(&link2)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A dangling link creates the file it names.
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("created", &dangling).unwrap();
        write_atomically(&dangling, b"c").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("created")).unwrap(),
            "c"
        );
        // A loop is an error, not a hang.
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert!(write_atomically(&a, b"x").is_err());
    }

    #[test]
    fn write_protected_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ro");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444)).unwrap();
        let e = write_atomically(&p, b"new").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
        assert!(e.to_string().contains("write-protected"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(mode(&p), 0o444);
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn hard_links_keep_the_old_contents() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p");
        std::fs::write(&p, "old").unwrap();
        let other = dir.path().join("other");
        std::fs::hard_link(&p, &other).unwrap();
        write_atomically(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "old");
    }

    /// The old code wrote `.NAME.pfir-tmp-<pid>` with `File::create`, which
    /// follows a symlink planted under that name.
    #[test]
    fn a_planted_temporary_name_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let target = dir.path().join("out.pfir");
        let planted = dir
            .path()
            .join(format!(".out.pfir.pfir-tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        write_atomically(&target, b"result").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "result");
        assert!(
            std::fs::symlink_metadata(&planted)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_failed_write_leaves_the_target_and_no_debris() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p");
        std::fs::write(&p, "old").unwrap();
        let r = write_atomically_with(&p, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("boom"))
        });
        assert!(r.is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert!(leftovers(dir.path()).is_empty());
        assert!(write_atomically(dir.path(), b"x").is_err(), "a directory");
    }

    #[test]
    fn devices_are_written_directly() {
        write_atomically(Path::new("/dev/null"), b"discarded").unwrap();
    }
}
