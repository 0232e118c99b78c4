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

/// The semantic tokens of `src`, checked sorted and disjoint.
fn checked_tokens(src: &str) -> Vec<SemanticToken> {
    let tokens = Analysis::new(src).semantic_tokens();
    sorted_and_disjoint(src, &tokens);
    tokens
}

#[test]
fn code_tokens_know_definitions_uses_parameters_and_functions() {
    let tokens = checked_tokens(FIRST);
    let kind = |o: usize| (token_at(&tokens, o).kind, token_at(&tokens, o).modifiers);
    // (text, which occurrence of it, kind, modifiers)
    use pfir::ide::{TokenKind as K, TokenModifiers as M};
    for (needle, n, k, m) in [
        ("func", 0, K::Keyword, M::NONE),
        ("task_id", 0, K::Type, M::NONE),
        ("kernel", 0, K::Function, M::DECLARATION),
        ("kernel", 1, K::Function, M::NONE),
        ("n: i64", 0, K::Parameter, M::DECLARATION),
        ("tids", 0, K::Variable, M::DECLARATION),
        ("tids", 1, K::Variable, M::NONE),
        ("array.create", 0, K::Function, M::DEFAULT_LIBRARY),
        ("4,", 0, K::Number, M::NONE),
        ("deps", 0, K::Property, M::NONE),
        ("= array", 0, K::Operator, M::NONE),
    ] {
        assert_eq!(kind(nth(FIRST, needle, n)), (k, m), "{needle} #{n}");
    }
    assert_eq!(kind(0), (TokenKind::Comment, TokenModifiers::NONE));
    assert_eq!(
        &FIRST[token_at(&tokens, 0).range.clone()],
        "// Ünïcödé — ✓ before everything"
    );
}

#[test]
fn comment_directives_and_their_parts() {
    let src = "// RUN: pfir opt %s | FileCheck %s\n// CHECK-NEXT: x = {{.*}} [[V:a]]\n// expected-error@+1 {{unknown}}\nfunc f() {\n}\n// -----\n";
    let tokens = checked_tokens(src);
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
    let tokens = checked_tokens(src);
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

/// On every example and test file: every byte of every comment is
/// coloured (as a comment or one of its directive parts), and every name
/// coloured as resolved has a definition, its own range when it is marked
/// as one (tokens, comments and the index's occurrences are merged in one
/// walk; nothing is lost or paired with the wrong occurrence).
#[test]
fn every_comment_is_coloured_and_every_resolved_name_has_its_definition() {
    for src in super::robustness::seeds() {
        let a = Analysis::new(src);
        let tokens = a.semantic_tokens();
        sorted_and_disjoint(src, &tokens);
        let covered = |offset: usize| {
            let i = tokens.partition_point(|t| t.range.end <= offset);
            tokens.get(i).is_some_and(|t| t.range.start <= offset)
        };
        for c in pfir::lexer::comments(src, 0) {
            for offset in c.range() {
                assert!(
                    covered(offset),
                    "byte {offset} of a comment is not coloured"
                );
            }
        }
        for t in &tokens {
            let named = matches!(
                t.kind,
                TokenKind::Variable | TokenKind::Parameter | TokenKind::Function
            );
            if !named
                || t.modifiers.contains(TokenModifiers::UNRESOLVED)
                || t.modifiers.contains(TokenModifiers::DEFAULT_LIBRARY)
                || &src[t.range.clone()] == "_"
            {
                continue;
            }
            let definition = a.definition(t.range.start);
            if t.modifiers.contains(TokenModifiers::DECLARATION) && t.kind != TokenKind::Function {
                assert_eq!(definition, Some(t.range.clone()), "{t:?}");
            } else if t.kind != TokenKind::Function {
                assert!(definition.is_some(), "{t:?} has no definition");
            }
        }
    }
}

/// A range gets exactly the tokens of the whole document that overlap it,
/// on every example and test file, for ranges that start and end anywhere
/// (inside tokens, comments, `// -----` lines, or past the end).
#[test]
fn a_range_gets_the_whole_documents_tokens_that_overlap_it() {
    let mut compared = 0;
    for src in super::robustness::seeds() {
        let a = Analysis::new(src);
        let all = a.semantic_tokens();
        let step = (src.len() / 7).max(1);
        for start in (0..src.len()).step_by(step) {
            for len in [0, 1, 17, step, src.len()] {
                let range = start..start + len;
                let expected: Vec<SemanticToken> = all
                    .iter()
                    .filter(|t| t.range.end > range.start && t.range.start < range.end)
                    .cloned()
                    .collect();
                assert_eq!(a.semantic_tokens_in(range.clone()), expected, "{range:?}");
                compared += expected.len();
            }
        }
    }
    assert!(compared > 1000, "only {compared} tokens compared");
}
