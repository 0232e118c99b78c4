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
//!   it finally names is replaced; the link itself stays a link. A link the
//!   kernel would not follow under `fs.protected_symlinks` (owned by
//!   another user than the writer and than its directory's owner, in a
//!   sticky world-writable directory such as `/tmp`) is refused, whatever
//!   the sysctl says: the rename onto its target would otherwise bypass it;
//! - a file **changed since it was read** ([`Snapshot`]: its inode, size or
//!   modification time differ, checked just before the rename) is not
//!   replaced when the caller passes what it read
//!   ([`write_atomically_checked`]): the error says so and the other
//!   writer's change is kept;
//! - the temporary file's name stays within `NAME_MAX` (the target's name
//!   is shortened in it), and errors name the target's directory, never
//!   the temporary file the user never sees;
//! - a **device or pipe** (`-o /dev/null`, a FIFO) is written directly, as
//!   it cannot be renamed over;
//! - a path naming one of the process's own **streams** (`/dev/stdout`,
//!   `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, directly or through
//!   symlinks) writes to that stream as it was opened: appending where it
//!   was opened for append (`>> log`), never replacing the file behind it
//!   ([`names_own_stream`]). Atomic replacement is for regular files named
//!   by path only;
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

/// The longest file name (`NAME_MAX` on Linux and the BSDs), in bytes.
const NAME_MAX: usize = 255;

/// What the temporary file's name adds to the target's: `.` before it,
/// `.` and six random characters after it, then [`TEMP_SUFFIX`].
const TEMP_SUFFIX: &str = ".pfir-tmp";
const TEMP_EXTRA: usize = 1 + 1 + 6 + TEMP_SUFFIX.len();

/// What a file was when it was read: its identity (device and inode), size
/// and modification time. A rewrite compares it with the file just before
/// replacing it, so that an edit made in the meantime is not overwritten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Snapshot {
    fn of_metadata(meta: &std::fs::Metadata) -> Snapshot {
        #[cfg(unix)]
        let (dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (dev, ino) = (0, 0);
        Snapshot {
            dev,
            ino,
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }

    /// The snapshot of the file `path` names (through symlinks), which a
    /// rewrite in place will replace. Anything but a regular file is
    /// refused with a message saying what it is: a pipe (`/dev/stdin`, a
    /// FIFO, which reading would block on or consume), a device, a
    /// directory.
    pub fn of_regular_file(path: &Path) -> std::io::Result<Snapshot> {
        let meta = std::fs::metadata(path)?;
        if meta.is_file() {
            return Ok(Snapshot::of_metadata(&meta));
        }
        let what = describe_file_type(&meta);
        Err(error(
            std::io::ErrorKind::InvalidInput,
            format!("it is {what}, not a regular file, so it cannot be rewritten in place"),
        ))
    }

    /// The snapshot of `path` when it names a regular file, else `None`.
    pub fn of(path: &Path) -> Option<Snapshot> {
        std::fs::metadata(path)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| Snapshot::of_metadata(&m))
    }

    /// Whether `other` is the same file (device and inode), whatever its
    /// contents.
    pub fn same_file(&self, other: &Snapshot) -> bool {
        cfg!(unix) && (self.dev, self.ino) == (other.dev, other.ino)
    }
}

/// "a pipe", "a character device", ... for a message.
fn describe_file_type(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a pipe";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Writes `contents` to `path` atomically (see the module documentation).
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |f| f.write_all(contents))
}

fn error(kind: std::io::ErrorKind, message: String) -> std::io::Error {
    std::io::Error::new(kind, message)
}

/// Whether the kernel would follow the symlink at `link` (with metadata
/// `meta`) for this process under `fs.protected_symlinks`: a link in a
/// sticky world-writable directory is followed only by its owner or when
/// it belongs to the directory's owner.
#[cfg(unix)]
fn may_follow(link: &Path, meta: &std::fs::Metadata) -> std::io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    if meta.uid() == rustix::process::geteuid().as_raw() {
        return Ok(true);
    }
    let dir = match link.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = std::fs::metadata(dir)?;
    let sticky_and_world_writable = dir.mode() & 0o1002 == 0o1002;
    Ok(!sticky_and_world_writable || dir.uid() == meta.uid())
}

#[cfg(not(unix))]
fn may_follow(_: &Path, _: &std::fs::Metadata) -> std::io::Result<bool> {
    Ok(true)
}

/// The file `path` finally names, following symlinks (a dangling link
/// names the file it would create). A link the kernel would not follow
/// under `fs.protected_symlinks` is an error.
pub fn resolve_symlinks(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                if !may_follow(&current, &m)? {
                    return Err(error(
                        std::io::ErrorKind::PermissionDenied,
                        format!(
                            "'{}' is a symbolic link owned by another user in a sticky \
                             world-writable directory; it is not followed (as the kernel's \
                             fs.protected_symlinks would not)",
                            current.display()
                        ),
                    ));
                }
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

/// The file descriptor `path` names when it names one of this process's
/// own streams (`/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/self/fd/N`, `/proc/thread-self/fd/N`, `/proc/PID/fd/N` with
/// this process's PID), as written or through symlinks; `None` otherwise.
pub fn names_own_stream(path: &Path) -> std::io::Result<Option<u32>> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINKS {
        if let Some(fd) = stream_fd(&current) {
            return Ok(Some(fd));
        }
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// The descriptor a stream path names, as written (see [`names_own_stream`]).
fn stream_fd(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let pid = format!("/proc/{}/fd/", std::process::id());
    [
        "/dev/fd/",
        "/proc/self/fd/",
        "/proc/thread-self/fd/",
        pid.as_str(),
    ]
    .iter()
    .find_map(|prefix| text.strip_prefix(prefix))
    .and_then(|n| n.trim_end_matches('/').parse().ok())
}

/// A file writing to this process's descriptor `fd` as it was opened:
/// standard input, output and error are the descriptors themselves (so a
/// file opened for append is appended to, at its current offset); another
/// descriptor is opened again through `/proc/self/fd`, in append mode when
/// it was opened so, from its current offset.
fn open_own_stream(fd: u32) -> std::io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let own = match fd {
            0 => Some(std::io::stdin().as_fd().try_clone_to_owned()?),
            1 => Some(std::io::stdout().as_fd().try_clone_to_owned()?),
            2 => Some(std::io::stderr().as_fd().try_clone_to_owned()?),
            _ => None,
        };
        if let Some(own) = own {
            return Ok(File::from(own));
        }
    }
    let not_open = |e: std::io::Error| {
        error(
            e.kind(),
            format!("file descriptor {fd} is not open in this process"),
        )
    };
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).map_err(not_open)?;
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .unwrap_or("0")
            .to_string()
    };
    const O_APPEND: u32 = 0o2000;
    let append = u32::from_str_radix(&field("flags:"), 8).unwrap_or(0) & O_APPEND != 0;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .append(append)
        .open(format!("/proc/self/fd/{fd}"))
        .map_err(not_open)?;
    if !append
        && let Ok(pos) = field("pos:").parse::<u64>()
        && pos > 0
    {
        use std::io::Seek;
        // A pipe or terminal cannot seek; it has no offset to keep.
        let _ = file.seek(std::io::SeekFrom::Start(pos));
    }
    Ok(file)
}

/// Like [`write_atomically`], with the contents streamed by `write`: the
/// target is replaced only when `write` and the flush to disk succeeded.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_atomically_checked(path, None, write)
}

/// The error for a file that changed since it was read.
fn changed_error() -> std::io::Error {
    error(
        std::io::ErrorKind::Other,
        "it changed since it was read (its size, modification time or inode differ), so it \
         was left as it is now: run again on the new contents"
            .into(),
    )
}

/// [`write_atomically_with`], refusing to replace the target when
/// `read` (what it was when it was read) is given and the target is no
/// longer that file with that size and modification time, checked before
/// writing and again just before the rename.
pub fn write_atomically_checked(
    path: &Path,
    read: Option<&Snapshot>,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if let Some(fd) = names_own_stream(path)? {
        return write(&mut open_own_stream(fd)?);
    }
    let target = resolve_symlinks(path)?;
    let existing = match std::fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let unchanged = |now: Option<&std::fs::Metadata>| match (read, now) {
        (None, _) => true,
        (Some(read), Some(now)) => *read == Snapshot::of_metadata(now),
        (Some(_), None) => false,
    };
    if !unchanged(existing.as_ref()) {
        return Err(changed_error());
    }
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
    let prefix = format!(".{}.", shorten(&name, NAME_MAX - TEMP_EXTRA));
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    if existing.is_none() {
        // A new file gets what `File::create` would give it: 0666 less the umask.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let (mut tmp, registration) = cleanup::register_with(
        || builder.tempfile_in(&dir),
        |t| Item::File(t.path().to_path_buf()),
    )
    .map_err(|e| {
        // tempfile's message names the temporary file; the user's is the
        // directory it could not be created in.
        let cause = e.raw_os_error().map_or_else(
            || e.kind().to_string(),
            |code| std::io::Error::from_raw_os_error(code).to_string(),
        );
        error(
            e.kind(),
            format!(
                "cannot create a file in its directory '{}': {cause}",
                dir.display()
            ),
        )
    })?;
    write(tmp.as_file_mut())?;
    if let Some(meta) = &existing {
        copy_metadata(tmp.as_file(), meta)?;
    }
    tmp.as_file().sync_all()?;
    // Dropping `tmp` removes the temporary file.
    let now = match std::fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if !unchanged(now.as_ref()) {
        return Err(changed_error());
    }
    // Dropping `tmp` on an error removes the temporary file.
    let persisted = cleanup::without_cleanup(|| tmp.persist(&target).map(drop));
    drop(registration);
    persisted.map_err(|e| e.error)
}

/// `name` cut to at most `max` bytes, at a character boundary.
fn shorten(name: &str, max: usize) -> &str {
    let mut end = name.len().min(max);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
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

    #[test]
    fn stream_paths_name_their_descriptor() {
        let pid = std::process::id();
        for (path, fd) in [
            ("/dev/stdin".to_string(), Some(0)),
            ("/dev/stdout".into(), Some(1)),
            ("/dev/stderr".into(), Some(2)),
            ("/dev/fd/7".into(), Some(7)),
            ("/proc/self/fd/3".into(), Some(3)),
            ("/proc/thread-self/fd/4".into(), Some(4)),
            (format!("/proc/{pid}/fd/5"), Some(5)),
            ("/proc/1/fd/5".into(), None),
            ("/dev/null".into(), None),
            ("/tmp/dev/stdout".into(), None),
        ] {
            assert_eq!(stream_fd(Path::new(&path)), fd, "{path}");
        }
        // Through a symlink too.
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("out");
        std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
        assert_eq!(names_own_stream(&link).unwrap(), Some(1));
        assert_eq!(names_own_stream(dir.path()).unwrap(), None);
    }

    #[test]
    fn writing_to_a_descriptor_keeps_its_append_mode() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        std::fs::write(&log, "earlier\n").unwrap();
        let file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        use std::os::fd::AsRawFd;
        let path = format!("/dev/fd/{}", file.as_raw_fd());
        write_atomically(Path::new(&path), b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "earlier\nnew\n");
        drop(file);
        assert!(write_atomically(Path::new("/dev/fd/999"), b"x").is_err());
    }
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

    /// `dir/name`, written with `text`.
    fn file_in(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn is_symlink(p: &Path) -> bool {
        std::fs::symlink_metadata(p)
            .unwrap()
            .file_type()
            .is_symlink()
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
        let real = file_in(&dir, "real.pfir", "old");
        let link = dir.path().join("link.pfir");
        std::os::unix::fs::symlink("real.pfir", &link).unwrap();
        let link2 = dir.path().join("link2.pfir");
        std::os::unix::fs::symlink(&link, &link2).unwrap();
        write_atomically(&link2, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert!(is_symlink(&link));
        assert!(is_symlink(&link2));
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
        let p = file_in(&dir, "ro", "old");
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
        let p = file_in(&dir, "p", "old");
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
        let victim = file_in(&dir, "victim", "precious");
        let target = dir.path().join("out.pfir");
        let planted = dir
            .path()
            .join(format!(".out.pfir.pfir-tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        write_atomically(&target, b"result").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "result");
        assert!(is_symlink(&planted));
    }

    #[test]
    fn a_failed_write_leaves_the_target_and_no_debris() {
        let dir = tempfile::tempdir().unwrap();
        let p = file_in(&dir, "p", "old");
        let r = write_atomically_with(&p, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("boom"))
        });
        assert!(r.is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert!(leftovers(dir.path()).is_empty());
        assert!(write_atomically(dir.path(), b"x").is_err(), "a directory");
    }

    /// Another writer's edit between the read and the rename (here made
    /// while the new contents are written) is kept, and the rewrite fails
    /// saying so; an unchanged file is replaced.
    #[test]
    fn a_file_changed_since_it_was_read_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let p = file_in(&dir, "p", "old");
        let read = Snapshot::of_regular_file(&p).unwrap();
        let e = write_atomically_checked(&p, Some(&read), |f| {
            let mut other = std::fs::OpenOptions::new().append(true).open(&p)?;
            other.write_all(b" and an edit")?;
            f.write_all(b"new")
        })
        .unwrap_err();
        assert!(e.to_string().contains("changed since it was read"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old and an edit");
        assert!(leftovers(dir.path()).is_empty());
        // Replaced by another file with the same contents (a new inode:
        // the old one is kept aside, so it cannot be reused).
        let read = Snapshot::of_regular_file(&p).unwrap();
        std::fs::rename(&p, dir.path().join("aside")).unwrap();
        std::fs::write(&p, "old and an edit").unwrap();
        assert!(write_atomically_checked(&p, Some(&read), |f| f.write_all(b"new")).is_err());
        let read = Snapshot::of_regular_file(&p).unwrap();
        write_atomically_checked(&p, Some(&read), |f| f.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
    }

    /// Devices are not rewritten in place; the message says what they
    /// are (a FIFO, which needs `mkfifo`: `tests/needs_tools/facilities.rs`).
    #[test]
    fn only_regular_files_have_a_snapshot() {
        let e = Snapshot::of_regular_file(Path::new("/dev/null")).unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        assert!(Snapshot::of_regular_file(dir.path()).is_err());
    }

    /// A 250-byte name (the temporary name would pass NAME_MAX) is
    /// written, and a directory the temporary file cannot be created in is
    /// named in the error, never the temporary file.
    #[test]
    fn long_names_and_errors_name_the_users_files() {
        let dir = tempfile::tempdir().unwrap();
        let long = dir.path().join(format!("{}.pfir", "é".repeat(120)));
        assert!(long.file_name().unwrap().len() > NAME_MAX - TEMP_EXTRA);
        std::fs::write(&long, "old").unwrap();
        write_atomically(&long, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&long).unwrap(), "new");
        assert!(leftovers(dir.path()).is_empty());
        let e = write_atomically(&dir.path().join("missing/x"), b"x").unwrap_err();
        assert!(!e.to_string().contains("pfir-tmp"), "{e}");
        assert!(e.to_string().contains("missing"), "{e}");
    }

    #[test]
    fn devices_are_written_directly() {
        write_atomically(Path::new("/dev/null"), b"discarded").unwrap();
    }
}
