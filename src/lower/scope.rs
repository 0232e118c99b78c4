//! Name resolution environment (spec section 7).
//!
//! Each name maps to a stack of the variables it has named; a scope records
//! the names it defined so that closing it pops exactly those. Lookup and
//! definition are O(1) whatever the nesting depth.

use crate::ir::VarId;
use std::collections::HashMap;

#[derive(Default)]
pub struct Scopes {
    names: HashMap<String, Vec<VarId>>,
    /// For each open scope, the names defined in it (in order).
    frames: Vec<Vec<String>>,
}

impl Scopes {
    pub fn new() -> Scopes {
        Scopes {
            names: HashMap::new(),
            frames: vec![Vec::new()],
        }
    }

    pub fn push(&mut self) {
        self.frames.push(Vec::new());
    }

    pub fn pop(&mut self) {
        if let Some(frame) = self.frames.pop() {
            for name in frame {
                if let Some(stack) = self.names.get_mut(&name) {
                    stack.pop();
                    if stack.is_empty() {
                        self.names.remove(&name);
                    }
                }
            }
        }
    }

    /// Makes `name` refer to `var` until the current scope closes.
    pub fn define(&mut self, name: &str, var: VarId) {
        self.names.entry(name.to_string()).or_default().push(var);
        if let Some(frame) = self.frames.last_mut() {
            frame.push(name.to_string());
        }
    }

    pub fn lookup(&self, name: &str) -> Option<VarId> {
        self.names.get(name).and_then(|s| s.last().copied())
    }

    /// Every name currently visible (for "did you mean" suggestions).
    pub fn visible_names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }
}
