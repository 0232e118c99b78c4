//! The one way pfir and its test tooling run independent work in
//! parallel: test files, files given to one command, reduction candidates.
//! Work inside one file never runs here; it stays on the calling thread.
//!
//! [`run_indexed`] hands out the indices `0..count` to up to `jobs`
//! threads and gives each result to the calling thread as it is done, so
//! reporting stays on one thread. With one job (or one item) nothing is
//! spawned: the work runs on the calling thread. A panic in the work is
//! passed on to the caller once the other threads have stopped.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One job per available core (1 when that cannot be known).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work(i)` for every `i` in `0..count` on up to `jobs` threads,
/// handing each result to `done(i, result)` on the calling thread in
/// completion order. Items are taken in increasing order. When `done`
/// returns [`ControlFlow::Break`], no further item is started (those
/// already running finish, and their results are dropped). Returns how many
/// results `done` was given.
pub fn run_indexed<T: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    mut done: impl FnMut(usize, T) -> ControlFlow<()>,
) -> usize {
    let threads = jobs.max(1).min(count);
    if threads <= 1 {
        let mut given = 0;
        for i in 0..count {
            given += 1;
            if done(i, work(i)).is_break() {
                break;
            }
        }
        return given;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    let mut given = 0;
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, work) = (&next, &stop, &work);
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    if tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, result) in rx.iter() {
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            given += 1;
            if done(i, result).is_break() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    given
}

/// `work` applied to every item on up to `jobs` threads, the results in
/// the items' order.
pub fn map<I: Sync, T: Send>(items: &[I], jobs: usize, work: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let mut slots: Vec<Option<T>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    run_indexed(
        items.len(),
        jobs,
        |i| work(&items[i]),
        |i, result| {
            slots[i] = Some(result);
            ControlFlow::Continue(())
        },
    );
    slots
        .into_iter()
        .map(|slot| slot.expect("run_indexed gives every result when never stopped"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn map_keeps_the_order_of_the_items_at_any_job_count() {
        let items: Vec<u64> = (0..200).collect();
        for jobs in [0, 1, 2, 3, 8, 500] {
            let squares = map(&items, jobs, |&x| x * x);
            assert_eq!(squares, items.iter().map(|x| x * x).collect::<Vec<_>>());
        }
    }

    #[test]
    fn every_index_runs_once_and_results_reach_the_calling_thread() {
        let caller = std::thread::current().id();
        let ran = Mutex::new(Vec::new());
        let mut seen = Vec::new();
        let given = run_indexed(
            50,
            4,
            |i| {
                ran.lock().unwrap().push(i);
                i * 2
            },
            |i, r| {
                assert_eq!(std::thread::current().id(), caller);
                assert_eq!(r, i * 2);
                seen.push(i);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(given, 50);
        let mut ran = ran.into_inner().unwrap();
        ran.sort();
        seen.sort();
        assert_eq!(ran, (0..50).collect::<Vec<_>>());
        assert_eq!(seen, ran);
    }

    #[test]
    fn one_job_runs_on_the_calling_thread() {
        let caller = std::thread::current().id();
        let threads = map(&[1, 2, 3], 1, |_| std::thread::current().id());
        assert!(threads.iter().all(|&t| t == caller));
    }

    #[test]
    fn several_jobs_run_on_several_threads() {
        // Each item waits until two distinct threads have arrived, so the
        // run can only end if the work really is spread.
        let arrived = Mutex::new(std::collections::HashSet::new());
        let ready = std::sync::Condvar::new();
        map(&[0, 1], 2, |_| {
            let mut set = arrived.lock().unwrap();
            set.insert(std::thread::current().id());
            ready.notify_all();
            while set.len() < 2 {
                set = ready.wait(set).unwrap();
            }
        });
    }

    #[test]
    fn break_stops_handing_out_items() {
        for jobs in [1, 2] {
            let started = AtomicUsize::new(0);
            let given = run_indexed(
                1000,
                jobs,
                |_| {
                    started.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(1));
                },
                |i, ()| {
                    if i >= 3 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            assert!(given < 100, "jobs {jobs}: given {given}");
            assert!(started.load(Ordering::Relaxed) < 100, "jobs {jobs}");
        }
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller() {
        let outcome = std::panic::catch_unwind(|| map(&[1, 2, 3, 4], 2, |&x| assert_ne!(x, 3)));
        assert!(outcome.is_err());
    }
}
