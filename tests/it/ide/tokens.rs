//! Semantic tokens.

use super::{FIRST, at, nth};
use pfir::ide::{Analysis, SemanticToken, TokenKind, TokenModifiers};

fn token_at(tokens: &[SemanticToken], offset: usize) -> &SemanticToken {
    tokens
        .iter()
        .find(|t| t.range.start == offset)
        .unwrap_or_else(|| panic!("no token at {offset}"))
}

fn sorted_and_disjoint(src: &str, tokens: &[SemanticToken]) {
    for w in tokens.windows(2) {
        assert!(w[0].range.end <= w[1].range.start, "{:?} {:?}", w[0], w[1]);
    }
    for t in tokens {
        assert!(t.range.start < t.range.end && src.get(t.range.clone()).is_some());
    }
}

#[test]
fn code_tokens_know_definitions_uses_parameters_and_functions() {
    let a = Analysis::new(FIRST);
    let tokens = a.semantic_tokens();
    sorted_and_disjoint(FIRST, &tokens);
    let kind = |o: usize| (token_at(&tokens, o).kind, token_at(&tokens, o).modifiers);
    assert_eq!(
        kind(at(FIRST, "func")),
        (TokenKind::Keyword, TokenModifiers::NONE)
    );
    assert_eq!(
        kind(at(FIRST, "task_id")),
        (TokenKind::Type, TokenModifiers::NONE)
    );
    assert_eq!(
        kind(at(FIRST, "kernel")),
        (TokenKind::Function, TokenModifiers::DECLARATION)
    );
    assert_eq!(
        kind(nth(FIRST, "kernel", 1)),
        (TokenKind::Function, TokenModifiers::NONE)
    );
    assert_eq!(
        kind(at(FIRST, "n: i64")),
        (TokenKind::Parameter, TokenModifiers::DECLARATION)
    );
    assert_eq!(
        kind(at(FIRST, "tids")),
        (TokenKind::Variable, TokenModifiers::DECLARATION)
    );
    assert_eq!(
        kind(nth(FIRST, "tids", 1)),
        (TokenKind::Variable, TokenModifiers::NONE)
    );
    assert_eq!(
        kind(at(FIRST, "array.create")),
        (TokenKind::Function, TokenModifiers::DEFAULT_LIBRARY)
    );
    assert_eq!(
        kind(at(FIRST, "4,")),
        (TokenKind::Number, TokenModifiers::NONE)
    );
    assert_eq!(
        kind(at(FIRST, "deps")),
        (TokenKind::Property, TokenModifiers::NONE)
    );
    assert_eq!(
        kind(at(FIRST, "= array")),
        (TokenKind::Operator, TokenModifiers::NONE)
    );
    assert_eq!(kind(0), (TokenKind::Comment, TokenModifiers::NONE));
    assert_eq!(
        &FIRST[token_at(&tokens, 0).range.clone()],
        "// Ünïcödé — ✓ before everything"
    );
}

#[test]
fn comment_directives_and_their_parts() {
    let src = "// RUN: pfir opt %s | FileCheck %s\n// CHECK-NEXT: x = {{.*}} [[V:a]]\n// expected-error@+1 {{unknown}}\nfunc f() {\n}\n// -----\n";
    let a = Analysis::new(src);
    let tokens = a.semantic_tokens();
    sorted_and_disjoint(src, &tokens);
    let parts: Vec<(&str, TokenKind)> = tokens
        .iter()
        .filter(|t| t.range.end <= at(src, "func"))
        .map(|t| (&src[t.range.clone()], t.kind))
        .collect();
    assert_eq!(
        parts,
        [
            ("// ", TokenKind::Comment),
            ("RUN:", TokenKind::Directive),
            (" pfir opt %s | FileCheck %s", TokenKind::Comment),
            ("// ", TokenKind::Comment),
            ("CHECK-NEXT:", TokenKind::Directive),
            (" x = ", TokenKind::Comment),
            ("{{.*}}", TokenKind::RegexPart),
            (" ", TokenKind::Comment),
            ("[[V:a]]", TokenKind::VarPart),
            ("// ", TokenKind::Comment),
            ("expected-error@+1", TokenKind::Directive),
            (" ", TokenKind::Comment),
            ("{{unknown}}", TokenKind::String),
        ]
    );
    let marker = token_at(&tokens, at(src, "// -----"));
    assert_eq!(
        (marker.kind, &src[marker.range.clone()]),
        (TokenKind::Directive, "// -----")
    );
}

#[test]
fn documents_that_do_not_parse_are_still_coloured() {
    let src = "func f( {\n  x = = 1 \"s\"\n  y = z(1)\n}\n";
    let a = Analysis::new(src);
    let tokens = a.semantic_tokens();
    sorted_and_disjoint(src, &tokens);
    assert_eq!(token_at(&tokens, at(src, "func")).kind, TokenKind::Keyword);
    assert_eq!(token_at(&tokens, at(src, "\"s\"")).kind, TokenKind::String);
    let z = token_at(&tokens, at(src, "z("));
    assert_eq!(
        (z.kind, z.modifiers),
        (TokenKind::Function, TokenModifiers::UNRESOLVED)
    );
}

#[test]
fn legends_list_every_kind_and_modifier_in_index_order() {
    for (i, k) in TokenKind::ALL.iter().enumerate() {
        assert_eq!(k.index(), i);
    }
    for (i, (m, _)) in TokenModifiers::ALL.iter().enumerate() {
        assert_eq!(m.0, 1 << i);
    }
}
