//! Name resolution environment (spec section 7).
//!
//! Each name maps to the innermost variable it names; every definition is an
//! entry that remembers the entry it shadows, and a scope records where its
//! entries start, so that closing it restores exactly the names it defined.
//! Lookup and definition are O(1) whatever the nesting depth, and names are
//! borrowed from the source text (no allocation per definition).

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
    /// Each name whose latest definition went out of scope: that
    /// definition and the scope it was in (for "not visible after it").
    gone: HashMap<&'a str, (VarId, &'static str, Span)>,
}

impl<'a> Scopes<'a> {
    pub fn new() -> Scopes<'a> {
        Scopes {
            names: HashMap::new(),
            entries: Vec::new(),
            frames: Vec::new(),
            gone: HashMap::new(),
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
        while self.entries.len() > mark {
            let Some(e) = self.entries.pop() else { break };
            self.gone.insert(e.name, (e.var, what, span));
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
    /// scope was and the statement that opened it.
    pub fn out_of_scope(&self, name: &str) -> Option<(VarId, &'static str, Span)> {
        self.gone.get(name).copied()
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
            s.out_of_scope("y"),
            Some((v(2), "the loop", crate::span::Span::new(1, 2)))
        );
        assert_eq!(
            s.out_of_scope("x"),
            Some((v(1), "the loop", crate::span::Span::new(1, 2)))
        );
        assert_eq!(s.out_of_scope("z"), None);
    }
}
