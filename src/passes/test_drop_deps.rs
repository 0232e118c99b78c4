//! `test-drop-deps`: a deliberately wrong pass, for testing the checkers.
//!
//! It empties the `deps` of every `submit` in orchestration functions,
//! losing every manual dependency. It exists so that `--verify-deps` (and
//! anything else that must catch a broken rewrite) can be shown to fail, in
//! the way MLIR keeps `-test-*` passes. Never use it on real programs.

use super::{Pass, PassContext, Property};
use crate::ir::{FuncKind, Module, StmtKind};

pub struct TestDropDeps;

impl Pass for TestDropDeps {
    fn name(&self) -> &'static str {
        "test-drop-deps"
    }

    fn description(&self) -> &'static str {
        "(testing only) drops every submit's deps, to show that --verify-deps catches lost dependencies"
    }

    fn produced(&self) -> &'static [Property] {
        &[Property::ManualDepsOnSubmitOnly]
    }

    fn run(&self, module: &mut Module, _ctx: &mut PassContext) {
        for f in module.functions_mut() {
            if f.kind != FuncKind::Orchestration {
                continue;
            }
            for (_, s) in f.stmts.iter() {
                if let StmtKind::Submit(s) = s.kind {
                    let mut deps = f.submits[s].deps;
                    deps.clear(&mut f.lists.exprs);
                    f.submits[s].deps = deps;
                }
            }
        }
    }
}
