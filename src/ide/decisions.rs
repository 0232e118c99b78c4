//! The `expand-manual-phase-fence` decision for each loop, as `pfir opt
//! --passes=expand-manual-phase-fence --remarks` reports it.
//!
//! The pass runs through the pass manager (its requirements verified first)
//! on a chunk that lowered without error, once, the first time a decision
//! or the document's diagnostics are asked for (the language server asks
//! for the diagnostics right after reading each version), not while the
//! document is read: navigation, completion and colouring never wait for
//! it. Everything the pass reports is kept: it is the pass's part of the
//! document's diagnostics ([`crate::ide::Analysis::diagnostics`]). Each of
//! the pass's typed decisions ([`crate::passes::phase_fence::remark`]) is
//! attached to the loop whose header it names (a loop's header starts where
//! the loop statement starts), and its remark rendered from it; a decision
//! that inserted a barrier names the barrier and the array, which the inlay
//! hints show as the statement the pass would add. No remark text is read
//! back.

use crate::diagnostics::{Diagnostic, Severity, SourceFile, has_errors};
use crate::ide::index::LoopInfo;
use crate::ir::Module;
use crate::passes::PipelineOptions;
use crate::passes::expand_manual_phase_fence::NAME;
use hashbrown::HashMap;

/// What the pass says about one loop.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopDecision {
    /// The remarks' messages, in the pass's order (one per candidate array).
    pub remarks: Vec<String>,
    /// The barriers inserted before the loop.
    pub barriers: Vec<Barrier>,
}

/// `name = system.task_dummy(deps=[array])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Barrier {
    pub name: String,
    pub array: String,
}

impl Barrier {
    /// The statement the pass inserts.
    pub fn statement(&self) -> String {
        format!(
            "{} = {}(deps=[{}])",
            self.name,
            crate::ir::BuiltinOp::TaskDummy.name(),
            self.array
        )
    }
}

/// Whether the pass could be asked about a chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PassStatus {
    Ran,
    /// Why it was not run.
    NotRun(String),
}

/// What the pass said about every loop of a chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decisions {
    pub status: PassStatus,
    /// One per loop of the chunk's index, in its order.
    pub per_loop: Vec<Option<LoopDecision>>,
    /// Everything the pipeline reported (remarks included): what `pfir
    /// opt --passes=expand-manual-phase-fence --remarks` adds to the front
    /// end's diagnostics for the chunk. Empty when the pass did not run.
    pub diagnostics: Vec<Diagnostic>,
}

impl Decisions {
    pub fn not_run(why: impl Into<String>) -> Decisions {
        Decisions {
            status: PassStatus::NotRun(why.into()),
            per_loop: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The decision for loop number `l` of the index.
    pub fn of(&self, l: usize) -> Option<&LoopDecision> {
        self.per_loop.get(l).and_then(Option::as_ref)
    }
}

/// Runs the pass over `module` (it is rewritten), attaches its remarks to
/// `loops` and keeps everything it reported.
pub fn run(module: &mut Module, loops: &[LoopInfo]) -> Decisions {
    let opts = PipelineOptions {
        passes: vec![NAME.to_string()],
        remarks: Some(vec![NAME.to_string()]),
        ..PipelineOptions::default()
    };
    // The pipeline renders nothing: it needs no text.
    let file = SourceFile::new("<editor>", "");
    let result = crate::passes::run_pipeline(module, &file, &opts);
    if has_errors(&result.diagnostics) {
        let why = result
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone())
            .unwrap_or_default();
        return Decisions {
            diagnostics: result.diagnostics,
            ..Decisions::not_run(format!("the pass's requirements do not hold: {why}"))
        };
    }
    let by_start: HashMap<usize, usize> = loops
        .iter()
        .enumerate()
        .filter(|(_, l)| l.is_for)
        .map(|(i, l)| (l.stmt.start, i))
        .collect();
    let mut per_loop: Vec<Option<LoopDecision>> = vec![None; loops.len()];
    for d in &result.phase_fence_decisions {
        let Some(&l) = by_start.get(&d.loop_header.start()) else {
            continue;
        };
        let decision = per_loop[l].get_or_insert_with(LoopDecision::default);
        if let Some((name, array)) = d.barrier() {
            decision.barriers.push(Barrier {
                name: name.to_string(),
                array: array.to_string(),
            });
        }
        let remark = d.remark();
        let mut message = remark.message;
        for note in &remark.notes {
            message.push_str(&format!(" ({note})"));
        }
        decision.remarks.push(message);
    }
    Decisions {
        status: PassStatus::Ran,
        per_loop,
        diagnostics: result.diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::Barrier;

    #[test]
    fn a_barrier_is_the_statement_the_pass_inserts() {
        let b = Barrier {
            name: "phase_fence_barrier_0_tid".to_string(),
            array: "tids".to_string(),
        };
        assert_eq!(
            b.statement(),
            "phase_fence_barrier_0_tid = system.task_dummy(deps=[tids])"
        );
    }
}
