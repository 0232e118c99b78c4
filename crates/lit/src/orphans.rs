//! Catching the processes that leave a pipeline's process group.
//!
//! Killing a pipeline's process group ([`super::execute`]) misses a
//! process that moved to a group or session of its own (`setsid sleep
//! 1000 &`, a daemon's double fork). On Linux the runner can catch those
//! too: a program that calls [`adopt_orphans`] becomes a *child
//! subreaper* (`prctl(PR_SET_CHILD_SUBREAPER)`), so a process whose parent
//! dies is re-parented to the runner instead of to init. Every stage of a
//! pipeline runs with the environment variable [`MARKER`] set to the
//! pipeline's own id, which its descendants inherit; when the pipeline
//! ends (its stages exited, timed out or were cancelled), [`sweep`] kills
//! each adopted child that carries that id, round after round (killing
//! one re-parents its own children to the runner), until none is left and
//! the pipeline's process group is empty. Adopted children that exited on
//! their own are reaped, so none stays a zombie.
//!
//! Processes of other pipelines running at the same time carry another id
//! and are left alone. A process that clears its environment before it
//! leaves the group is not recognised (if it holds a captured stream open,
//! [`super::execute`] stops reading it once the commands have ended); a
//! process that stays in the group is killed with the group anyway.
//!
//! Children the runner spawns itself are waited for by their
//! [`std::process::Child`]; so that a sweep never reaps one of those
//! behind its back, they are spawned through [`spawn_tracked`] and
//! forgotten with [`untrack`] once waited for.

use std::collections::HashSet;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, RwLock};

/// The environment variable that names a stage's pipeline.
pub const MARKER: &str = "PFIR_LIT_PIPELINE";

static ADOPTING: AtomicBool = AtomicBool::new(false);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
/// Pids of the children spawned here and not yet waited for.
static SPAWNED: Mutex<Option<HashSet<u32>>> = Mutex::new(None);
/// Held (shared) while spawning and recording a child, (exclusive) while
/// sweeping: spawns run concurrently, and a sweep never sees a child that
/// is spawned but not yet recorded.
static SPAWNING: RwLock<()> = RwLock::new(());

fn spawned() -> MutexGuard<'static, Option<HashSet<u32>>> {
    SPAWNED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes this process a child subreaper, so that [`sweep`] can catch the
/// processes that leave a pipeline's process group. Returns whether it is
/// one (always `false` off Linux). Meant for a program whose children are
/// all started by this crate (`pfir test`, `pfir lsp`): a subreaper reaps
/// the adopted processes that exit.
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    {
        if ADOPTING.load(Ordering::SeqCst) {
            return true;
        }
        let ok = rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok();
        ADOPTING.store(ok, Ordering::SeqCst);
        ok
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Whether [`adopt_orphans`] succeeded in this process.
pub fn adopting() -> bool {
    ADOPTING.load(Ordering::SeqCst)
}

/// A fresh id for a pipeline (the value of [`MARKER`]).
pub fn new_pipeline_id() -> String {
    format!(
        "{}-{}",
        std::process::id(),
        NEXT_ID.fetch_add(1, Ordering::Relaxed)
    )
}

/// Spawns through `spawn` and records the child's pid, so that a
/// concurrent [`sweep`] never takes it for an adopted process.
pub fn spawn_tracked<T>(
    cmd: &mut Command,
    spawn: impl FnOnce(&mut Command) -> std::io::Result<T>,
    pid: impl Fn(&T) -> u32,
) -> std::io::Result<T> {
    let _spawning = SPAWNING.read().unwrap_or_else(|e| e.into_inner());
    let result = spawn(cmd);
    if let Ok(v) = &result {
        spawned().get_or_insert_with(HashSet::new).insert(pid(v));
    }
    result
}

/// Forgets `child` once it has been waited for.
pub fn untrack(child: &Child) {
    if let Some(set) = spawned().as_mut() {
        set.remove(&child.id());
    }
}

/// Kills every adopted process of the pipeline `id` (see the module doc)
/// and reaps adopted processes that exited, until the pipeline has left
/// nothing behind: no adopted process carries `id` and the process group
/// `group` (if any) is empty. Bounded: it gives up after about two seconds
/// of a process that does not die. Does nothing unless [`adopting`].
pub fn sweep(id: &str, group: Option<u32>) {
    if !adopting() {
        return;
    }
    #[cfg(target_os = "linux")]
    linux::sweep(id, group);
    #[cfg(not(target_os = "linux"))]
    let _ = (id, group);
}

#[cfg(target_os = "linux")]
mod linux {
    use rustix::process::{Pid, Signal, WaitOptions};
    use std::time::Duration;

    const ROUNDS: usize = 400;
    const PAUSE: Duration = Duration::from_millis(5);

    pub fn sweep(id: &str, group: Option<u32>) {
        let wanted = format!("{}={id}", super::MARKER);
        for _ in 0..ROUNDS {
            let mut left = false;
            {
                let _sweeping = super::SPAWNING.write().unwrap_or_else(|e| e.into_inner());
                let registry = super::spawned();
                for pid in children() {
                    if registry.as_ref().is_some_and(|s| s.contains(&pid)) {
                        continue;
                    }
                    let Some(raw) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
                        continue;
                    };
                    match state(pid) {
                        Some('Z') | Some('X') => {
                            let _ = rustix::process::waitpid(Some(raw), WaitOptions::NOHANG);
                        }
                        Some(_) if carries(pid, &wanted) => {
                            let _ = rustix::process::kill_process(raw, Signal::KILL);
                            left = true;
                        }
                        _ => {}
                    }
                }
            }
            let group_alive = group
                .and_then(|g| i32::try_from(g).ok())
                .and_then(Pid::from_raw)
                .is_some_and(|g| rustix::process::test_kill_process_group(g).is_ok());
            if group_alive {
                if let Some(g) = group {
                    fsutil::cleanup::kill_process_group(g);
                }
                left = true;
            }
            if !left {
                return;
            }
            std::thread::sleep(PAUSE);
        }
    }

    /// This process's children (its own and the adopted ones).
    fn children() -> Vec<u32> {
        let mut pids = Vec::new();
        let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
            return pids;
        };
        let mut read_any = false;
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                read_any = true;
                pids.extend(
                    text.split_whitespace()
                        .filter_map(|p| p.parse::<u32>().ok()),
                );
            }
        }
        if !read_any {
            // A kernel without /proc/PID/task/TID/children: scan /proc.
            let me = std::process::id();
            if let Ok(entries) = std::fs::read_dir("/proc") {
                for e in entries.flatten() {
                    let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok())
                    else {
                        continue;
                    };
                    if stat_fields(pid).is_some_and(|(_, ppid)| ppid == me) {
                        pids.push(pid);
                    }
                }
            }
        }
        pids
    }

    /// The state letter and parent pid in `/proc/PID/stat`.
    fn stat_fields(pid: u32) -> Option<(char, u32)> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name is in parentheses and may hold anything.
        let rest = &stat[stat.rfind(')')? + 1..];
        let mut fields = rest.split_whitespace();
        let state = fields.next()?.chars().next()?;
        let ppid = fields.next()?.parse().ok()?;
        Some((state, ppid))
    }

    fn state(pid: u32) -> Option<char> {
        stat_fields(pid).map(|(s, _)| s)
    }

    /// Whether the environment of `pid` holds the entry `wanted`.
    fn carries(pid: u32, wanted: &str) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|&b| b == 0).any(|e| e == wanted.as_bytes()))
    }
}
