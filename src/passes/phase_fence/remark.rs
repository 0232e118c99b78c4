//! The decisions of `expand-manual-phase-fence` as data: one [`Decision`]
//! per (loop, candidate array), and the English remark `--remarks` prints,
//! rendered from it ([`Decision::remark`]). Readers of the decisions (the
//! editor's inlay hints and hovers) take the fields, never the text.

use crate::diagnostics::Diagnostic;
use crate::span::Span;

/// What the pass decided for one array in one loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The header of the loop the decision is about.
    pub loop_header: Span,
    /// The array's name.
    pub array: String,
    pub kind: DecisionKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// A barrier named `barrier` was inserted before the loop, waiting on
    /// the array's `producers`, and the loop's `consumers` wait on it.
    Inserted {
        barrier: String,
        producers: u64,
        consumers: u64,
    },
    /// The array stays a direct dependency of the loop's consumers.
    Kept(Reason),
}

/// Why an array stayed direct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The loop is outside any `manual` scope.
    NotManual,
    /// The loop's trip count rules it out (the sentence says how).
    TripCount(&'static str),
    /// The array is an iter-arg of the loop (declared at `at`).
    IterArg { at: Span },
    /// The array is defined inside the loop body (at `at`).
    DefinedInside { at: Span },
    /// The array's storage is updated inside the loop body, by the
    /// statement at `at` (`what`: "updates `a`", ...); `alias` explains
    /// how the updated variable aliases the array.
    Updated {
        at: Span,
        what: String,
        alias: Option<String>,
    },
    /// The array has zero producers (its type, printed).
    ZeroProducers { ty: String },
    /// The producer count is unknown (why).
    UnknownProducers { why: String },
    /// N*M - (N+M) < 1.
    NotProfitable { producers: u64, consumers: u64 },
}

/// `4 producers x 3 consumers, 12 dependency edges -> 7`.
fn edge_numbers(n: u64, m: u64) -> String {
    let (n128, m128) = (u128::from(n), u128::from(m));
    let saturated = if m >= super::CAP {
        " (the consumer count saturated at i64::MAX)"
    } else {
        ""
    };
    use crate::diagnostics::count;
    format!(
        "{} x {}, {} -> {}{saturated}",
        count(n128, "producer", "producers"),
        count(m128, "consumer", "consumers"),
        count(n128 * m128, "dependency edge", "dependency edges"),
        n128 + m128
    )
}

impl Decision {
    /// The barrier inserted, if any: `(barrier, array)`.
    pub fn barrier(&self) -> Option<(&str, &str)> {
        match &self.kind {
            DecisionKind::Inserted { barrier, .. } => Some((barrier, &self.array)),
            DecisionKind::Kept(_) => None,
        }
    }

    /// The remark `--remarks` prints for this decision.
    pub fn remark(&self) -> Diagnostic {
        let header = self.loop_header;
        let array = &self.array;
        let reason = match &self.kind {
            DecisionKind::Inserted {
                barrier,
                producers,
                consumers,
            } => {
                return Diagnostic::remark(
                    format!(
                        "inserted phase fence barrier `{barrier}` for `{array}`: {}",
                        edge_numbers(*producers, *consumers)
                    ),
                    header,
                );
            }
            DecisionKind::Kept(reason) => reason,
        };
        let kept = format!("kept `{array}` as a direct dependency");
        match reason {
            Reason::NotManual => Diagnostic::remark(
                format!("{kept}: the loop is not inside a `manual` scope"),
                header,
            )
            .with_label("outside any `manual` scope")
            .with_note(
                "the pass only rewrites loops inside `manual { ... }` scopes, where every edge \
                 is written by hand",
            ),
            Reason::TripCount(why) => Diagnostic::remark(format!("{kept}: {why}"), header),
            Reason::IterArg { at } => {
                Diagnostic::remark(format!("{kept}: it is an iter-arg of the loop"), *at)
                    .with_label("iter-arg of the loop")
                    .with_secondary(header, "in this loop")
            }
            Reason::DefinedInside { at } => {
                Diagnostic::remark(format!("{kept}: it is defined inside the loop body"), *at)
                    .with_label("defined inside the loop")
                    .with_secondary(header, "in this loop")
            }
            Reason::Updated { at, what, alias } => {
                let d = Diagnostic::remark(
                    format!("{kept}: its storage is updated inside the loop body"),
                    *at,
                )
                .with_label(what.clone())
                .with_secondary(header, "in this loop");
                match alias {
                    Some(note) => d.with_note(note.clone()),
                    None => d,
                }
            }
            Reason::ZeroProducers { ty } => Diagnostic::remark(
                format!("{kept}: its producer count is zero (type `{ty}`): nothing to wait for"),
                header,
            ),
            Reason::UnknownProducers { why } => Diagnostic::remark(
                format!("{kept}: its producer count is unknown ({why})"),
                header,
            ),
            Reason::NotProfitable {
                producers,
                consumers,
            } => Diagnostic::remark(
                format!(
                    "{kept}: not profitable: {}",
                    edge_numbers(*producers, *consumers)
                ),
                header,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(kind: DecisionKind) -> Decision {
        Decision {
            loop_header: Span::new(10, 20),
            array: "tids".to_string(),
            kind,
        }
    }

    #[test]
    fn only_an_inserted_decision_names_a_barrier() {
        let d = decision(DecisionKind::Inserted {
            barrier: "phase_fence_barrier_0_tid".to_string(),
            producers: 4,
            consumers: 3,
        });
        assert_eq!(d.barrier(), Some(("phase_fence_barrier_0_tid", "tids")));
        let r = d.remark();
        assert_eq!(
            r.message,
            "inserted phase fence barrier `phase_fence_barrier_0_tid` for `tids`: \
             4 producers x 3 consumers, 12 dependency edges -> 7"
        );
        assert_eq!(r.primary.span, Span::new(10, 20));
        let kept = decision(DecisionKind::Kept(Reason::NotProfitable {
            producers: 1,
            consumers: 2,
        }));
        assert_eq!(kept.barrier(), None);
        assert_eq!(
            kept.remark().message,
            "kept `tids` as a direct dependency: not profitable: \
             1 producer x 2 consumers, 2 dependency edges -> 3"
        );
    }

    #[test]
    fn a_reason_at_another_node_points_back_at_the_loop() {
        let d = decision(DecisionKind::Kept(Reason::IterArg {
            at: Span::new(2, 6),
        }));
        let r = d.remark();
        assert_eq!(r.primary.span, Span::new(2, 6));
        assert_eq!(r.secondary.len(), 1);
        assert_eq!(r.secondary[0].span, Span::new(10, 20));
    }
}
