//! Cleaning up when pfir is interrupted: files, directories and process
//! groups to remove or kill when SIGINT, SIGTERM or SIGHUP arrives.
//!
//! Whoever creates something that must not outlive an interrupted run (the
//! temporary file of `-o`, a `pfir test` scratch directory, the process
//! group of a RUN-line pipeline) registers it here and keeps the returned
//! [`Registration`]; dropping it unregisters the item (it does not remove
//! it: the owner does that on the normal path).
//!
//! The first registration installs the handler: a thread that waits for
//! one of the three signals (through `signal-hook`, so nothing runs in
//! signal context), kills every registered process group, removes every
//! registered file and directory, and then ends the process the way the
//! signal would have (its default action), so the parent still sees "killed
//! by SIGINT". Creation and registration happen under one lock
//! ([`register_with`]), so an item is never created but unknown to the
//! handler. Programs that register nothing keep the default signal actions.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// Something to clean up on a signal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A file to remove.
    File(PathBuf),
    /// A directory to remove with everything in it.
    Dir(PathBuf),
    /// A process group to kill (by its id).
    ProcessGroup(u32),
}

struct Registry {
    next: u64,
    items: BTreeMap<u64, Item>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next: 0,
    items: BTreeMap::new(),
});

fn lock() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Keeps an [`Item`] registered while it lives.
#[derive(Debug)]
#[must_use = "dropping the registration unregisters the item at once"]
pub struct Registration {
    id: u64,
}

impl Drop for Registration {
    fn drop(&mut self) {
        lock().items.remove(&self.id);
    }
}

/// Registers `item` for cleanup on a signal.
pub fn register(item: Item) -> Registration {
    install();
    let mut registry = lock();
    insert(&mut registry, item)
}

fn insert(registry: &mut Registry, item: Item) -> Registration {
    let id = registry.next;
    registry.next += 1;
    registry.items.insert(id, item);
    Registration { id }
}

/// Creates something with `create` and registers what `item_of` says about
/// it, with no signal cleanup in between (a signal that arrives meanwhile is
/// handled after the registration, so the new item is cleaned up too).
pub fn register_with<T, E>(
    create: impl FnOnce() -> Result<T, E>,
    item_of: impl FnOnce(&T) -> Item,
) -> Result<(T, Registration), E> {
    install();
    let mut registry = lock();
    let value = create()?;
    let registration = insert(&mut registry, item_of(&value));
    Ok((value, registration))
}

/// Runs `f` with no signal cleanup happening meanwhile (e.g. the rename that
/// puts a temporary file in place: the handler then sees either the
/// temporary file or nothing, never a half-finished state).
pub fn without_cleanup<T>(f: impl FnOnce() -> T) -> T {
    let _registry = lock();
    f()
}

/// What is registered now (for tests and diagnostics).
pub fn registered() -> Vec<Item> {
    lock().items.values().cloned().collect()
}

#[cfg(unix)]
fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("pfir-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    clean_up_everything();
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
    });
}

#[cfg(not(unix))]
fn install() {}

/// Kills every registered process group, then removes every registered
/// file and directory. Holds the lock to the end: nothing new is created
/// and registered meanwhile, and the process is ended right after.
#[cfg(unix)]
fn clean_up_everything() {
    let registry = lock();
    for item in registry.items.values() {
        if let Item::ProcessGroup(id) = item {
            kill_process_group(*id);
        }
    }
    for item in registry.items.values() {
        match item {
            Item::File(path) => {
                let _ = std::fs::remove_file(path);
            }
            Item::Dir(path) => {
                let _ = std::fs::remove_dir_all(path);
            }
            Item::ProcessGroup(_) => {}
        }
    }
    // Keep the lock: the process ends right after, with no half-created items.
    std::mem::forget(registry);
}

/// Sends SIGKILL to every process of the group `id` (ignoring a group that
/// no longer exists).
#[cfg(unix)]
pub fn kill_process_group(id: u32) {
    let Ok(raw) = i32::try_from(id) else { return };
    if let Some(pid) = rustix::process::Pid::from_raw(raw) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// Without process groups there is nothing to kill.
#[cfg(not(unix))]
pub fn kill_process_group(_id: u32) {}

/// Limits the data memory (heap and private writable mappings,
/// `RLIMIT_DATA`) of process `pid` to `bytes`, soft and hard limit, so
/// that an allocation past it fails; its children inherit the limit. A
/// process whose hard limit is lower keeps it. Linux only (elsewhere it
/// does nothing).
#[cfg(target_os = "linux")]
pub fn limit_memory(pid: u32, bytes: u64) {
    use rustix::process::{Resource, Rlimit, prlimit};
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return;
    };
    let limit = Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    // EPERM: its hard limit is lower already; ESRCH: it has ended.
    let _ = prlimit(Some(pid), Resource::Data, limit);
}

/// See the Linux version: not enforced elsewhere.
#[cfg(not(target_os = "linux"))]
pub fn limit_memory(_pid: u32, _bytes: u64) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registrations_come_and_go() {
        let path = PathBuf::from("/nonexistent/pfir-cleanup-unit-test");
        let r = register(Item::File(path.clone()));
        assert!(registered().contains(&Item::File(path.clone())));
        drop(r);
        assert!(!registered().contains(&Item::File(path.clone())));
        let (value, r) = register_with(|| Ok::<_, ()>(7), |_| Item::Dir(path.clone())).unwrap();
        assert_eq!(value, 7);
        assert!(registered().contains(&Item::Dir(path.clone())));
        drop(r);
        // A failed creation registers nothing.
        let failed = register_with(|| Err::<u8, _>("no"), |_| Item::Dir(path.clone()));
        assert!(failed.is_err());
        assert!(!registered().contains(&Item::Dir(path)));
    }
}
