//! Iter-arg alias classes of `array<task_id, _>` variables.
//!
//! An iter-arg of type `array<task_id, _>` whose initial value is a
//! variable of type `array<task_id, _>` shares that variable's storage. Each
//! iter-arg has one initial value, so the relation is a forest: every
//! variable has at most one alias parent, and its class is its root. Built
//! from every `for` and `while` loop of the function, wherever it stands.

use crate::ir::{Function, SecondaryMap, VarId};

#[derive(Debug, Clone)]
pub struct AliasForest {
    parent: SecondaryMap<VarId, Option<VarId>>,
    root: SecondaryMap<VarId, VarId>,
}

impl AliasForest {
    /// A forest where every variable is its own class.
    pub fn new(f: &Function) -> AliasForest {
        AliasForest {
            parent: f.vars.secondary(None),
            root: SecondaryMap::from_fn(f.vars.len(), |v| v),
        }
    }

    /// Records that iter-arg `var` is initialised from `init`. Must be
    /// called after `init`'s own link (definitions come before uses).
    pub fn link(&mut self, var: VarId, init: VarId) {
        if var == init || self.root[init] == var {
            return;
        }
        self.parent[var] = Some(init);
        self.root[var] = self.root[init];
    }

    /// The class (root variable) of `v`.
    pub fn class(&self, v: VarId) -> VarId {
        self.root[v]
    }

    pub fn parent(&self, v: VarId) -> Option<VarId> {
        self.parent[v]
    }

    /// The chain of variables from `v` up to its root, `v` first.
    pub fn chain(&self, v: VarId) -> Vec<VarId> {
        let mut out = vec![v];
        let mut cur = v;
        while let Some(p) = self.parent(cur) {
            out.push(p);
            cur = p;
        }
        out
    }

    /// Explains how `from` (an updated variable) and `to` share storage:
    /// "`t2` is an iter-arg initialised from `t1`, which is initialised from
    /// `tids`". Long chains are shortened in the middle.
    pub fn explain(&self, f: &Function, from: VarId, to: VarId) -> String {
        let up_from = self.chain(from);
        let up_to = self.chain(to);
        // The lowest common ancestor of the two chains.
        let in_to: hashbrown::HashSet<VarId> = up_to.iter().copied().collect();
        let meet = up_from.iter().copied().find(|v| in_to.contains(v));
        let Some(meet) = meet else {
            return format!(
                "`{}` and `{}` share storage",
                f.var_name(from),
                f.var_name(to)
            );
        };
        let name = |v: VarId| format!("`{}`", f.var_name(v));
        let describe = |chain: &[VarId]| -> String {
            // chain: from a variable up to the meeting point, inclusive.
            let mut parts = Vec::new();
            const MAX: usize = 8;
            for (i, w) in chain.windows(2).enumerate() {
                if chain.len() > MAX + 1 && i == MAX / 2 {
                    parts.push(format!(
                        "... ({} more iter-arg links) ...",
                        chain.len() - 1 - MAX
                    ));
                }
                if chain.len() > MAX + 1 && i >= MAX / 2 && i < chain.len() - 1 - MAX / 2 {
                    continue;
                }
                if i == 0 {
                    parts.push(format!(
                        "{} is an iter-arg initialised from {}",
                        name(w[0]),
                        name(w[1])
                    ));
                } else {
                    parts.push(format!("which is initialised from {}", name(w[1])));
                }
            }
            parts.join(", ")
        };
        // A chain up to (and with) the meeting point.
        let up_to_meet = |up: &[VarId]| -> Vec<VarId> {
            up.iter()
                .copied()
                .take_while(|v| *v != meet)
                .chain([meet])
                .collect()
        };
        let (from_part, to_part) = (up_to_meet(up_from.as_slice()), up_to_meet(up_to.as_slice()));
        match (from_part.len() > 1, to_part.len() > 1) {
            (true, false) => describe(&from_part),
            (false, true) => describe(&to_part),
            (true, true) => format!("{}; {}", describe(&from_part), describe(&to_part)),
            (false, false) => format!("{} is {}", name(from), name(to)),
        }
    }
}
