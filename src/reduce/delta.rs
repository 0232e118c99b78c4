//! Delta debugging over one kind of element at a time, as llvm-reduce's
//! `Delta.cpp` does it.
//!
//! The elements of the kind are numbered in the current program and cut
//! into chunks, first one chunk of all of them. Each chunk is tried in
//! turn: the candidate is the round's starting program with that chunk
//! and every chunk already accepted in the round reduced. When no chunk of
//! a round is accepted, the chunks are halved; the kind is done when a
//! round of single elements changes nothing, so no single element of the
//! kind can be reduced any more.
//!
//! Candidates are independent, so the next chunks are tried in parallel
//! (through [`fsutil::parallel`], one per job), and the first accepted
//! chunk *in order* wins: what comes after it was tried against an older
//! program and is tried again. The result does not depend on the number
//! of jobs or on timing: the same input gives the same output.

use std::time::Instant;

/// What the engine needs of a program under reduction.
pub trait State: Clone + Send + Sync {
    /// The text written out and tested.
    fn text(&self) -> &str;
}

/// Makes a candidate: from the round's program, with the elements marked
/// `true` reduced, when it is valid, smaller than the best text (the third
/// argument) and interesting.
pub type Attempt<'a, S> = dyn Fn(&S, &[bool], &str) -> Option<S> + Sync + 'a;

/// Where a reduction stands, shared by every kind of a run.
pub struct Run<'a, S> {
    /// The best program so far.
    pub best: S,
    /// How many candidates run at once.
    pub jobs: usize,
    /// When to stop, keeping the best so far.
    pub deadline: Option<Instant>,
    /// Called with each accepted program (to write it out); an `Err`
    /// stops the run.
    pub on_accept: &'a mut dyn FnMut(&S) -> Result<(), String>,
    /// How many candidates were made.
    pub tried: usize,
    /// Whether the deadline stopped the run.
    pub timed_out: bool,
}

impl<S: State> Run<'_, S> {
    fn out_of_time(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
        }
        self.timed_out
    }

    /// Reduces the elements of one kind until no single element can be
    /// reduced. `count` numbers the elements of a program; `attempt` makes
    /// the candidate with the elements marked `true` reduced and returns
    /// it when it is valid, smaller than the best text (its third
    /// argument, [`super::program::smaller`]) and interesting. Returns
    /// whether the best program changed.
    pub fn reduce_kind(
        &mut self,
        count: &(dyn Fn(&S) -> usize + Sync),
        attempt: &Attempt<'_, S>,
    ) -> Result<bool, String> {
        let mut changed = false;
        let mut size = usize::MAX;
        loop {
            let n = count(&self.best);
            if n == 0 || self.out_of_time() {
                return Ok(changed);
            }
            size = size.min(n);
            let chunks: Vec<(usize, usize)> = (0..n)
                .step_by(size)
                .map(|start| (start, (start + size).min(n)))
                .collect();
            let base = self.best.clone();
            let mut reduced = vec![false; n];
            let mut found = false;
            let mut next = 0;
            while next < chunks.len() {
                if self.out_of_time() {
                    return Ok(changed || found);
                }
                let batch = &chunks[next..(next + self.jobs.max(1)).min(chunks.len())];
                let masks: Vec<Vec<bool>> = batch
                    .iter()
                    .map(|&(a, b)| {
                        let mut mask = reduced.clone();
                        mask[a..b].iter_mut().for_each(|m| *m = true);
                        mask
                    })
                    .collect();
                self.tried += masks.len();
                let best = self.best.text();
                let results =
                    fsutil::parallel::map(&masks, self.jobs, |mask| attempt(&base, mask, best));
                match results
                    .into_iter()
                    .enumerate()
                    .find_map(|(i, r)| Some((i, r?)))
                {
                    Some((i, program)) => {
                        let (a, b) = batch[i];
                        reduced[a..b].iter_mut().for_each(|m| *m = true);
                        (self.on_accept)(&program)?;
                        self.best = program;
                        found = true;
                        next += i + 1;
                    }
                    None => next += batch.len(),
                }
            }
            if found {
                changed = true;
            } else if size == 1 {
                return Ok(changed);
            } else {
                size = size.div_ceil(2);
            }
        }
    }
}
