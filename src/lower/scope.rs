//! Name resolution environment (spec section 7).
//!
//! Each name maps to the innermost variable it names; every definition is an
//! entry that remembers the entry it shadows, and a scope records where its
//! entries start, so that closing it restores exactly the names it defined.
//! Lookup and definition are O(1) whatever the nesting depth, and names are
//! borrowed from the source text (no allocation per definition).
//!
//! Definitions whose scope closed are only logged, as the variable and its
//! scope (8 bytes each, no name: the IR has it): the index by name that
//! "not visible after the loop" messages need is built by the first such
//! query (an error path), so a valid program never hashes them.

use crate::ir::VarId;
use crate::span::Span;
use hashbrown::HashMap;

struct Entry<'a> {
    name: &'a str,
    var: VarId,
    /// The entry this definition shadows, if any.
    shadowed: Option<u32>,
}

pub struct Scopes<'a> {
    /// Each visible name's innermost entry.
    names: HashMap<&'a str, u32>,
    entries: Vec<Entry<'a>>,
    /// For each open scope, the length of `entries` when it opened and
    /// what the scope is (`the loop`, `the \`if\` branch`) and the span of
    /// the statement that opened it.
    frames: Vec<(usize, &'static str, Span)>,
    /// Every definition whose scope closed, in closing order, with the
    /// index of that scope in `closed`.
    gone: Vec<(VarId, u32)>,
    /// Each closed scope: what it was and the statement that opened it.
    closed: Vec<(&'static str, Span)>,
    /// `gone` by name (each name's latest entry): built by the first
    /// [`Scopes::out_of_scope`] query, kept up to date after it.
    gone_index: Option<HashMap<Box<str>, u32>>,
}

impl<'a> Scopes<'a> {
    pub fn new() -> Scopes<'a> {
        Scopes {
            names: HashMap::new(),
            entries: Vec::new(),
            frames: Vec::new(),
            gone: Vec::new(),
            closed: Vec::new(),
            gone_index: None,
        }
    }

    /// Opens a scope; `what` names it in diagnostics (`the loop`), `span`
    /// is the statement that opens it.
    pub fn push(&mut self, what: &'static str, span: Span) {
        self.frames.push((self.entries.len(), what, span));
    }

    pub fn pop(&mut self) {
        let Some((mark, what, span)) = self.frames.pop() else {
            return;
        };
        // Saturating like `define`: no source file has u32::MAX scopes.
        let scope = u32::try_from(self.closed.len()).unwrap_or(u32::MAX);
        self.closed.push((what, span));
        while self.entries.len() > mark {
            let Some(e) = self.entries.pop() else { break };
            if let Some(index) = &mut self.gone_index {
                index.insert(
                    e.name.into(),
                    u32::try_from(self.gone.len()).unwrap_or(u32::MAX),
                );
            }
            self.gone.push((e.var, scope));
            match e.shadowed {
                Some(prev) => {
                    self.names.insert(e.name, prev);
                }
                None => {
                    self.names.remove(e.name);
                }
            }
        }
    }

    /// Makes `name` refer to `var` until the current scope closes.
    pub fn define(&mut self, name: &'a str, var: VarId) {
        // More than u32::MAX definitions cannot come from a source file
        // smaller than 4 GiB; saturate rather than wrap.
        let index = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        let shadowed = self.names.insert(name, index);
        self.entries.push(Entry {
            name,
            var,
            shadowed,
        });
    }

    pub fn lookup(&self, name: &str) -> Option<VarId> {
        self.names
            .get(name)
            .and_then(|&i| self.entries.get(i as usize))
            .map(|e| e.var)
    }

    /// The definition of a name that is no longer visible because the scope
    /// that defined it closed (its latest such definition), with what that
    /// scope was and the statement that opened it. `var_name` names a
    /// variable (the first query indexes every closed definition by name).
    pub fn out_of_scope<'n>(
        &mut self,
        name: &str,
        var_name: impl Fn(VarId) -> &'n str,
    ) -> Option<(VarId, &'static str, Span)> {
        let gone = &self.gone;
        let index = self.gone_index.get_or_insert_with(|| {
            let mut index = HashMap::with_capacity(gone.len());
            for (i, &(var, _)) in gone.iter().enumerate() {
                index.insert(var_name(var).into(), u32::try_from(i).unwrap_or(u32::MAX));
            }
            index
        });
        let &(var, scope) = gone.get(*index.get(name)? as usize)?;
        let &(what, span) = self.closed.get(scope as usize)?;
        Some((var, what, span))
    }

    /// Every name currently visible (for "did you mean" suggestions).
    pub fn visible_names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::Scopes;
    use crate::ir::{ArenaId, VarId};

    /// The names of the tests' variables, by index.
    const NAMES: [&str; 4] = ["x", "x", "y", "x"];

    fn name(v: VarId) -> &'static str {
        NAMES[v.index()]
    }

    #[test]
    fn closing_a_scope_restores_shadowed_names() {
        let v = |i| VarId::from_index(i);
        let mut s = Scopes::new();
        s.define("x", v(0));
        s.push("the loop", crate::span::Span::new(1, 2));
        s.define("x", v(1));
        s.define("y", v(2));
        s.define("x", v(3));
        assert_eq!((s.lookup("x"), s.lookup("y")), (Some(v(3)), Some(v(2))));
        s.pop();
        assert_eq!((s.lookup("x"), s.lookup("y")), (Some(v(0)), None));
        let mut names: Vec<&str> = s.visible_names().collect();
        names.sort();
        assert_eq!(names, ["x"]);
        assert_eq!(
            s.out_of_scope("y", name),
            Some((v(2), "the loop", crate::span::Span::new(1, 2)))
        );
        assert_eq!(
            s.out_of_scope("x", name),
            Some((v(1), "the loop", crate::span::Span::new(1, 2)))
        );
        assert_eq!(s.out_of_scope("z", name), None);
    }

    #[test]
    fn the_out_of_scope_index_follows_scopes_closed_after_the_first_query() {
        let v = |i| VarId::from_index(i);
        let name = |v: VarId| ["a", "a", "b"][v.index()];
        let (loop_span, if_span) = (crate::span::Span::new(1, 2), crate::span::Span::new(5, 6));
        let mut s = Scopes::new();
        s.push("the loop", loop_span);
        s.define("a", v(0));
        s.pop();
        assert_eq!(
            s.out_of_scope("a", name),
            Some((v(0), "the loop", loop_span))
        );
        s.push("the `if` branch", if_span);
        s.define("a", v(1));
        s.define("b", v(2));
        s.pop();
        assert_eq!(
            s.out_of_scope("a", name),
            Some((v(1), "the `if` branch", if_span))
        );
        assert_eq!(
            s.out_of_scope("b", name),
            Some((v(2), "the `if` branch", if_span))
        );
    }
}
