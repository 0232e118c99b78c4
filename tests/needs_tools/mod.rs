//! Tests that need a tool which may be missing here: LLVM's `FileCheck-NN`
//! (`filecheck_agreement`), Neovim and Emacs (`editor_setups`), Node and npm
//! (`npm`), Chromium (`browser`), PyPTO (`pypto`), LLVM's lit (`llvm_lit`), and facilities of the system: `ulimit -v`,
//! `mkfifo`, root (`facilities`), `/proc` (`lsp_memory`). They run in the `lit` harness
//! (libtest-mimic) instead of `tests/it`, so that one whose tool is missing
//! is reported as `ignored`, with the reason, and counted as ignored in
//! `cargo test`'s summary, never as passed.

use libtest_mimic::{Completion, Trial};

mod browser;
mod editor_setups;
mod facilities;
mod filecheck_agreement;
mod isolation;
mod llvm_lit;
mod lsp_memory;
mod npm;
mod pypto;

/// A test that needs a tool: it returns `Some(why)` when it could not run
/// here (reported as ignored), `None` when it ran; it panics on a failure.
fn needs_tool(name: &str, test: impl FnOnce() -> Option<String> + Send + 'static) -> Trial {
    Trial::ignorable_test(name, move || {
        Ok(match test() {
            None => Completion::Completed,
            Some(why) => Completion::ignored_with(why),
        })
    })
}

/// A test of the same module that needs no tool.
fn plain(name: &str, test: fn()) -> Trial {
    Trial::test(name, move || {
        test();
        Ok(())
    })
}

/// Every test of this directory.
pub fn trials() -> Vec<Trial> {
    let mut trials = filecheck_agreement::trials();
    trials.extend(editor_setups::trials());
    trials.extend(npm::trials());
    trials.extend(browser::trials());
    trials.extend(facilities::trials());
    trials.extend(lsp_memory::trials());
    trials.extend(pypto::trials());
    trials.extend(llvm_lit::trials());
    trials.extend(isolation::trials());
    trials
}
