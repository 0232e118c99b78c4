//! A test's private scratch directory (`%T`, the directory of `%t`).
//!
//! Its name is chosen before the test's RUN lines are parsed (they need
//! `%t`), and the directory is created only when one of them uses it
//! ([`Planned`]): most tests never write a file, and creating and removing
//! a directory per test was a large part of what a small test costs.
//!
//! The directory is private: created exclusively (`mkdir`, which fails
//! when the name exists, even as a symbolic link) under an unpredictable
//! name (`pfir-lit-` and ten random letters and digits, in the system
//! temporary directory), with mode 0700, so no other user can plant files
//! in it, read what the test writes or guess its name in advance; a clash
//! picks a new name. It is registered with [`fsutil::cleanup`] as it is
//! created, so SIGINT, SIGTERM or SIGHUP removes it, and it is removed when
//! its [`ScratchDir`] is dropped unless [`ScratchDir::keep`] was called.

use crate::run_line::{Pipeline, StderrTarget, StdoutTarget};
use std::path::{Path, PathBuf};

/// How many names [`ScratchDir::create`] tries before giving up on clashes.
const ATTEMPTS: usize = 64;

/// The name of a scratch directory that is not created yet.
#[derive(Clone, Debug)]
pub struct Planned {
    dir: PathBuf,
    /// The random part of the name: what only a `%t` / `%T` puts in a
    /// command line.
    token: String,
    /// `%t`: a path in the directory named after the test file (not created).
    pub temp: PathBuf,
}

impl Planned {
    /// A fresh name in the system temporary directory for the test `test`.
    pub fn new(test: &Path) -> Planned {
        Planned::in_dir(&std::env::temp_dir(), test)
    }

    fn in_dir(parent: &Path, test: &Path) -> Planned {
        let token = format!("pfir-lit-{}", random_letters());
        let dir = parent.join(&token);
        let name = test
            .file_name()
            .map_or_else(|| "test".into(), |n| n.to_string_lossy().into_owned());
        let temp = dir.join(format!("{name}.tmp"));
        Planned { dir, token, temp }
    }

    /// The directory (`%T`).
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Whether `pipeline` names the directory or a path in it: the name is
    /// unpredictable, so only the `%t` / `%T` substitutions put it there.
    pub fn used_by(&self, pipeline: &Pipeline) -> bool {
        let path_uses = |p: &Path| p.to_string_lossy().contains(&self.token);
        pipeline.stages.iter().any(|s| {
            s.argv.iter().any(|a| a.contains(&self.token))
                || s.stdin.as_deref().is_some_and(path_uses)
                || matches!(&s.stdout, StdoutTarget::File(p, _) if path_uses(p))
                || matches!(&s.stderr, StderrTarget::File(p, _) if path_uses(p))
        })
    }

    /// Creates the directory, exclusively: an error of kind
    /// [`std::io::ErrorKind::AlreadyExists`] when the name is taken (plan
    /// another one then).
    pub fn create(self) -> std::io::Result<ScratchDir> {
        let (_, registration) = fsutil::cleanup::register_with(
            || {
                let mut builder = std::fs::DirBuilder::new();
                #[cfg(unix)]
                {
                    use std::os::unix::fs::DirBuilderExt;
                    builder.mode(0o700);
                }
                builder.create(&self.dir)
            },
            |_| fsutil::cleanup::Item::Dir(self.dir.clone()),
        )?;
        Ok(ScratchDir {
            dir: Some(self.dir),
            _registration: registration,
            temp: self.temp,
        })
    }
}

/// A created scratch directory: removed when dropped, and on SIGINT,
/// SIGTERM or SIGHUP while it exists, unless [`ScratchDir::keep`] was
/// called.
#[derive(Debug)]
pub struct ScratchDir {
    /// `None` once kept.
    dir: Option<PathBuf>,
    _registration: fsutil::cleanup::Registration,
    /// `%t`: a path in the directory named after the test file (not created).
    pub temp: PathBuf,
}

impl ScratchDir {
    /// Creates a scratch directory for the test `test` now, under a new
    /// name when the first ones are taken.
    pub fn create(test: &Path) -> std::io::Result<ScratchDir> {
        create_in(&std::env::temp_dir(), test)
    }

    pub fn path(&self) -> &Path {
        self.dir.as_deref().unwrap_or(Path::new(""))
    }

    /// Leaves the directory on disk (a failed test's files, for the report).
    pub fn keep(mut self) -> PathBuf {
        self.dir.take().unwrap_or_default()
    }

    /// Whether nothing was written in it.
    pub fn is_empty(&self) -> bool {
        std::fs::read_dir(self.path()).is_ok_and(|mut d| d.next().is_none())
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        // Removed before the registration goes (a signal meanwhile removes
        // what is left).
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn create_in(parent: &Path, test: &Path) -> std::io::Result<ScratchDir> {
    let mut last = None;
    for _ in 0..ATTEMPTS {
        match Planned::in_dir(parent, test).create() {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            done => return done,
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no name left")))
}

/// Ten random letters and digits. The standard library's `RandomState`
/// keys SipHash with random bits from the operating system, so its hash of
/// a counter and the time is not predictable by another user.
fn random_letters() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    hasher.write_u32(std::process::id());
    let mut bits = hasher.finish();
    // 62^10 < 2^64: ten letters use the hash's bits once.
    (0..10)
        .map(|_| {
            let c = ALPHABET[(bits % 62) as usize];
            bits /= 62;
            char::from(c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_line::{Substitutions, parse};

    fn parsed(text: &str, planned: &Planned) -> Pipeline {
        let subs = Substitutions {
            source: PathBuf::from("dir/a.pfir"),
            temp: planned.temp.clone(),
            custom: vec![("out".into(), "%t.out".into())],
        };
        parse(text, &subs).unwrap().remove(0)
    }

    #[test]
    fn only_a_use_of_t_or_big_t_asks_for_the_directory() {
        let planned = Planned::new(Path::new("dir/a.pfir"));
        assert!(!planned.path().exists(), "planning creates nothing");
        for text in ["pfir opt %s | FileCheck %s", "echo %S %p %% t T"] {
            assert!(!planned.used_by(&parsed(text, &planned)), "{text}");
        }
        for text in [
            "pfir opt %s -o %t",
            "ls %T",
            "cat < %t",
            "echo > %t.x",
            "echo 2>> %T/log",
            "echo %{out}",
            "echo a | cat > %t",
        ] {
            assert!(planned.used_by(&parsed(text, &planned)), "{text}");
        }
    }

    #[test]
    fn created_exclusively_private_and_removed_on_drop() {
        let parent = tempfile::tempdir().unwrap();
        let planned = Planned::in_dir(parent.path(), Path::new("a.pfir"));
        let again = planned.clone();
        let dir = planned.clone().create().unwrap();
        assert_eq!(dir.path(), planned.path());
        assert_eq!(dir.temp, planned.path().join("a.pfir.tmp"));
        assert!(dir.is_empty());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        assert!(
            fsutil::cleanup::registered()
                .contains(&fsutil::cleanup::Item::Dir(planned.path().into()))
        );
        // The same name again: refused, never shared.
        let clash = again.create().unwrap_err();
        assert_eq!(clash.kind(), std::io::ErrorKind::AlreadyExists);
        drop(dir);
        assert!(!planned.path().exists());
        assert!(
            !fsutil::cleanup::registered()
                .contains(&fsutil::cleanup::Item::Dir(planned.path().into()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_is_a_clash() {
        let parent = tempfile::tempdir().unwrap();
        let planned = Planned::in_dir(parent.path(), Path::new("a.pfir"));
        std::os::unix::fs::symlink(parent.path(), planned.path()).unwrap();
        let e = planned.create().unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
    }

    #[test]
    fn kept_directories_stay() {
        let parent = tempfile::tempdir().unwrap();
        let dir = create_in(parent.path(), Path::new("a.pfir")).unwrap();
        std::fs::write(&dir.temp, "x").unwrap();
        assert!(!dir.is_empty());
        let kept = dir.keep();
        assert!(kept.join("a.pfir.tmp").is_file());
    }

    #[test]
    fn names_are_fresh() {
        let names: std::collections::HashSet<String> = (0..1000)
            .map(|_| Planned::new(Path::new("a")).token)
            .collect();
        assert_eq!(names.len(), 1000);
        assert!(names.iter().all(|n| n.len() == "pfir-lit-".len() + 10));
    }
}
