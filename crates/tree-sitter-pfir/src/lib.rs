//! The tree-sitter grammar of `.pfir`, for Rust code: its [`LANGUAGE`] and
//! its queries. The grammar itself (`grammar.js`, the generated
//! `src/parser.c`, the queries and the corpus) lives in
//! `editors/tree-sitter-pfir`, where editors take it from; this crate only
//! compiles the parser, so that pfir's tests can parse with the
//! `tree-sitter` crate (tests/it/tree_sitter_grammar.rs). Like the test tooling, it
//! knows nothing of pfir's compiler.

// The one foreign function: the parser's entry point, generated C.
#![allow(unsafe_code)]

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_pfir() -> *const ();
}

/// The language, for `tree_sitter::Parser::set_language(&LANGUAGE.into())`.
// SAFETY: `tree_sitter_pfir` is the generated parser's constructor, which
// returns a pointer to a static `TSLanguage`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_pfir) };

/// The node types, as the generator described them.
pub const NODE_TYPES: &str = include_str!("../../../editors/tree-sitter-pfir/src/node-types.json");

/// `queries/highlights.scm`.
pub const HIGHLIGHTS_QUERY: &str =
    include_str!("../../../editors/tree-sitter-pfir/queries/highlights.scm");
/// `queries/folds.scm`.
pub const FOLDS_QUERY: &str = include_str!("../../../editors/tree-sitter-pfir/queries/folds.scm");
/// `queries/indents.scm`.
pub const INDENTS_QUERY: &str =
    include_str!("../../../editors/tree-sitter-pfir/queries/indents.scm");
/// `queries/locals.scm`.
pub const LOCALS_QUERY: &str = include_str!("../../../editors/tree-sitter-pfir/queries/locals.scm");
