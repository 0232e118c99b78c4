//! Trip counts of `for` loops with constant bounds: the one definition
//! used by `expand-manual-phase-fence` (`passes::phase_fence`) and by the
//! dependency evaluator (`analysis::task_graph`), so both count alike.
//! Counts saturate at `i64::MAX`, as the pass spec says.

use crate::ir::{ExprId, ExprKind, Function, UnaryOp};

/// Where a trip count saturates: `i64::MAX`.
pub const CAP: u64 = i64::MAX as u64;

/// The value of a constant bound: an integer literal or `-` applied to one.
pub fn const_int(f: &Function, e: ExprId) -> Option<i64> {
    match &f.exprs[e].kind {
        ExprKind::Int(v) => Some(v.get()),
        ExprKind::Unary(UnaryOp::Neg, inner) => match &f.exprs[*inner].kind {
            ExprKind::Int(v) => v.get().checked_neg(),
            _ => None,
        },
        _ => None,
    }
}

/// The number of values in `range(start, stop, step)` (Python semantics),
/// for positive and negative steps; 0 for a zero step or an empty range.
/// Exact up to `i64::MAX`, where it saturates.
pub fn range_len(start: i64, stop: i64, step: i64) -> u64 {
    let (start, stop, step) = (i128::from(start), i128::from(stop), i128::from(step));
    let n = if step > 0 && stop > start {
        (stop - start - 1) / step + 1
    } else if step < 0 && start > stop {
        (start - stop - 1) / (-step) + 1
    } else {
        0
    };
    u64::try_from(n).unwrap_or(CAP).min(CAP)
}

/// The trip count of a loop whose bounds are `start`, `stop`, `step`, when
/// all three are constant.
pub fn trip_count(f: &Function, start: ExprId, stop: ExprId, step: ExprId) -> Option<u64> {
    Some(range_len(
        const_int(f, start)?,
        const_int(f, stop)?,
        const_int(f, step)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_and_negative_steps() {
        assert_eq!(range_len(0, 4, 1), 4);
        assert_eq!(range_len(0, 10, 3), 4);
        assert_eq!(range_len(10, 0, -3), 4);
        assert_eq!(range_len(4, 0, -1), 4);
        assert_eq!(range_len(0, 0, 1), 0);
        assert_eq!(range_len(0, 4, -1), 0);
        assert_eq!(range_len(4, 0, 1), 0);
        assert_eq!(range_len(0, 4, 0), 0);
        assert_eq!(range_len(-3, 3, 2), 3);
    }

    #[test]
    fn saturates_without_overflow() {
        assert_eq!(range_len(-i64::MAX, i64::MAX, 1), CAP);
        assert_eq!(range_len(i64::MAX, -i64::MAX, -1), CAP);
        assert_eq!(range_len(i64::MIN, i64::MAX, i64::MAX), 3);
        assert_eq!(range_len(i64::MAX, i64::MIN, i64::MIN), 2);
        assert_eq!(range_len(0, i64::MAX, 1), CAP);
        assert_eq!(range_len(0, i64::MAX, 2), (CAP - 1) / 2 + 1);
    }
}
