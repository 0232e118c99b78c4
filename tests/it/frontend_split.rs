//! Reading a file on two threads (`pfir::parser::split`) gives exactly what
//! reading it on one does, or gives up: at every cut of every `.pfir` file
//! of the repository and of generated programs, with the cut at its
//! planned place or moved where it is wrong (inside a string, a comment or
//! a token, at the wrong depth, past the end), and on large files with and
//! without errors through `read_module_anyway`, which cuts them by itself.

use pfir::driver::{
    read_module_anyway, read_module_on_one_thread, read_module_split, read_module_whole,
    read_module_whole_meanwhile,
};
use pfir::lexer::Hole;
use pfir::parser::split::{MIN_SPLIT_BYTES, plan, plan_at};
use pfir::span::Span;
use proptest::prelude::*;

use crate::support::generator::{program, render};
use crate::support::repository_pfir_files;

/// The module (its whole `Debug` form: every node, id, type and span) and
/// the diagnostics of a read. Hash maps are left out: they are indexes of
/// vectors that are there (the functions by name, the interned types), and
/// print in an order of their own.
fn outcome(read: (pfir::ir::Module, Vec<pfir::diagnostics::Diagnostic>)) -> String {
    let text = format!("{:#?}\n{:#?}", read.0, read.1);
    let mut out = String::with_capacity(text.len());
    let mut skipping: Option<String> = None;
    for line in text.lines() {
        if let Some(indent) = &skipping {
            let trimmed = line.trim_start();
            if line.len() - trimmed.len() == indent.len() && trimmed.starts_with('}') {
                skipping = None;
            }
            continue;
        }
        let trimmed = line.trim_start();
        let is_map = trimmed.ends_with(": {")
            && trimmed[..trimmed.len() - 3]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if is_map {
            skipping = Some(line[..line.len() - trimmed.len()].to_string());
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every cut [`plan_at`] finds in `text` (one per `}` it could follow), in
/// order, without repeats.
fn cuts(text: &str, base: usize) -> Vec<Hole> {
    let mut out: Vec<Hole> = Vec::new();
    for (i, _) in text.match_indices('}') {
        if let Some(hole) = plan_at(text, base, i)
            && !out.contains(&hole)
        {
            out.push(hole);
        }
    }
    out
}

/// Reads `text` split at `hole`: `Some(true)` when the split read gave the
/// one-thread result, `None` when it gave up; panics with both when it
/// gave something else.
fn agrees(what: &str, text: &str, base: usize, hole: Hole) -> Option<bool> {
    let split = read_module_split(text, base, hole)?;
    let one = outcome(read_module_on_one_thread(text, base));
    let two = outcome(split);
    assert!(
        one == two,
        "{what}: reading split at {hole:?} differs from reading on one thread"
    );
    Some(true)
}

#[test]
fn every_cut_of_every_file_reads_as_one_thread_does() {
    let files = repository_pfir_files();
    let (mut split, mut refused, mut at_functions) = (0, 0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (base, chunk) in pfir::driver::split_chunks(&text) {
            for hole in cuts(chunk, base) {
                match agrees(&path.display().to_string(), chunk, base, hole) {
                    Some(_) if hole.depth == 0 => at_functions += 1,
                    Some(_) => split += 1,
                    None => refused += 1,
                }
            }
        }
    }
    // Most cuts of valid files are read split (the others fall in files
    // with errors): this test is not vacuous.
    assert!(
        split > 50 && at_functions > 50 && refused > 0,
        "{split} cuts in blocks and {at_functions} between functions read split, {refused} refused"
    );
}

/// A valid program with a run of loops in a `manual` scope, functions
/// around it, a comment holding a brace.
const PROGRAM: &str = r#"func kernel() -> task_id {
  return system.task_invalid()
}

// A brace in a comment: }
orchestration func main(n: i64) -> task_id {
  manual "a b" {
    tids = array.create(4, task_id)
    for p in parallel(4) {
      a, a_tid = submit kernel(deps=[tids])
    }
    if n > 0 {
      b, b_tid = submit kernel(deps=[tids])
    } else {
      c, c_tid = submit kernel(deps=[tids])
    }
    for q in range(2) {
      d, d_tid = submit kernel(deps=[tids])
    }
    x = n + 1
  }
  return system.task_invalid()
}

func other() -> task_id {
  return system.task_invalid()
}
"#;

fn hole(text: &str, from: &str, to: &str, depth: usize) -> Hole {
    let start = text.find(from).unwrap();
    let end = text.find(to).unwrap() + to.len();
    Hole {
        span: Span::new(start, end),
        depth,
    }
}

#[test]
fn the_planner_cuts_after_a_statement_at_the_shallowest_depth() {
    // After the first loop: the `if` and the second loop (the `}` that
    // ends the `if` is not followed by `else`; `x = n + 1` ends without a
    // brace, so the chunk stops before it).
    let after_loop = PROGRAM.find("    if n > 0").unwrap();
    let got = plan_at(PROGRAM, 0, after_loop - 1).unwrap();
    let start = PROGRAM.find("if n > 0").unwrap();
    let end = PROGRAM
        .find("d_tid = submit kernel(deps=[tids])\n    }")
        .unwrap()
        + "d_tid = submit kernel(deps=[tids])\n    }".len();
    assert_eq!(
        got,
        Hole {
            span: Span::new(start, end),
            depth: 2
        }
    );
    // Not between `}` and `else`: the next cut is after the whole `if`.
    let in_if = PROGRAM.find("b, b_tid").unwrap();
    let got = plan_at(PROGRAM, 0, in_if).unwrap();
    assert_eq!(got.span.start(), PROGRAM.find("for q in").unwrap());
    // Between functions when one ends in the window: depth 0, to the end.
    let got = plan_at(PROGRAM, 0, 0).unwrap();
    // (The comment before the function is left to the rest: the chunk
    // starts at a token.)
    assert_eq!(got.depth, 0);
    assert_eq!(
        got.span.start(),
        PROGRAM.find("orchestration func").unwrap()
    );
    assert_eq!(got.span.end(), PROGRAM.trim_end().len());
    // Offsets are the file's.
    let shifted = plan_at(PROGRAM, 100, after_loop - 1).unwrap();
    assert_eq!(shifted.span.start(), start + 100);
    // A short text is never cut.
    assert_eq!(plan(PROGRAM, 0), None);
}

#[test]
fn planned_cuts_read_as_one_thread_does() {
    let mut read = 0;
    for hole in cuts(PROGRAM, 0) {
        read += usize::from(agrees("PROGRAM", PROGRAM, 0, hole).is_some());
    }
    assert!(read >= 4, "only {read} cuts were read split");
    // And at a base offset, as a `// -----` chunk is.
    let text = format!("// -----\n{PROGRAM}");
    let base = "// -----\n".len();
    let hole = plan_at(&text[base..], base, 0).unwrap();
    assert_eq!(agrees("chunk", &text[base..], base, hole), Some(true));
}

#[test]
fn a_brace_in_a_string_misleads_the_planner_to_no_wrong_read() {
    // The planner's scan does not see strings: the `}` in the name hint
    // counts, so its cuts after it are at the wrong depth, and refused.
    let text = PROGRAM.replace("manual \"a b\"", "manual \"a } b\"");
    let (mut read, mut refused) = (0, 0);
    for hole in cuts(&text, 0) {
        match agrees("brace in a string", &text, 0, hole) {
            Some(_) => read += 1,
            None => refused += 1,
        }
    }
    assert!(
        read > 0 && refused > 0,
        "{read} read split, {refused} refused"
    );
}

#[test]
fn a_cut_in_the_wrong_place_is_refused() {
    let p = PROGRAM;
    let right = hole(
        p,
        "if n > 0",
        "d_tid = submit kernel(deps=[tids])\n    }",
        2,
    );
    assert_eq!(agrees("right", p, 0, right), Some(true));
    let wrong = [
        // At the wrong depth.
        Hole { depth: 1, ..right },
        // Starting inside a token, or in white space before one.
        Hole {
            span: Span::new(right.span.start() + 1, right.span.end()),
            ..right
        },
        Hole {
            span: Span::new(right.span.start() - 1, right.span.end()),
            ..right
        },
        // Not ending with a `}`, or ending inside a statement.
        Hole {
            span: Span::new(right.span.start(), right.span.end() - 1),
            ..right
        },
        hole(p, "if n > 0", "d, d_tid", 2),
        // Not whole statements: a branch of the `if` without the `if`.
        hole(
            p,
            "b, b_tid",
            "c_tid = submit kernel(deps=[tids])\n    }",
            3,
        ),
        // Inside a string (the `}` in the scope's name) and a comment.
        hole(p, "b\" {", "d_tid = submit kernel(deps=[tids])\n    }", 2),
        hole(
            p,
            "}\norchestration",
            "return system.task_invalid()\n}\n\nfunc other",
            0,
        ),
        // Past the end of the text.
        Hole {
            span: Span::new(p.len(), p.len()),
            depth: 0,
        },
    ];
    for hole in wrong {
        assert!(
            read_module_split(p, 0, hole).is_none(),
            "{hole:?} was read split"
        );
    }
}

#[test]
fn a_chunk_or_rest_with_an_error_is_read_on_one_thread() {
    let right = hole(
        PROGRAM,
        "if n > 0",
        "d_tid = submit kernel(deps=[tids])\n    }",
        2,
    );
    // A syntax error inside the chunk, and one in the rest.
    for bad in [
        PROGRAM.replace("c, c_tid = submit", "c, c_tid = = submit"),
        PROGRAM.replace("a, a_tid = submit", "a, a_tid = = submit"),
    ] {
        let shift = bad.len() - PROGRAM.len();
        let moved = if bad.find("= =").unwrap() < right.span.start() {
            Hole {
                span: Span::new(right.span.start() + shift, right.span.end() + shift),
                ..right
            }
        } else {
            Hole {
                span: Span::new(right.span.start(), right.span.end() + shift),
                ..right
            }
        };
        assert!(read_module_split(&bad, 0, moved).is_none());
    }
    // A semantic error is no reason to give up: both reads report it.
    let unknown = PROGRAM.replace("deps=[tids])\n    }\n    x", "deps=[tidz])\n    }\n    x");
    let (_, diags) = read_module_on_one_thread(&unknown, 0);
    assert!(!diags.is_empty());
    assert_eq!(agrees("unknown", &unknown, 0, right), Some(true));
}

/// A program of `loops` loops of `submit`s in one `manual` scope, with a
/// helper function after it.
fn large(loops: usize) -> String {
    let mut s = String::from(
        "func kernel() -> task_id {\n  return system.task_invalid()\n}\n\n\
         orchestration func main(tids: array<task_id, 4>) -> task_id {\n  manual {\n",
    );
    for k in 0..loops {
        s.push_str(&format!(
            "    for p{k} in parallel(4) {{\n      a{k}, t{k} = submit kernel(deps=[tids])\n      \
             b{k}, s{k} = submit kernel(deps=[t{k}])\n    }}\n"
        ));
    }
    s.push_str("  }\n  return system.task_invalid()\n}\n");
    s
}

/// What a read printed and reported: much cheaper than [`outcome`] on a
/// large module.
fn printed(read: (pfir::ir::Module, Vec<pfir::diagnostics::Diagnostic>)) -> String {
    format!("{}\n{:#?}", pfir::printer::print_module(&read.0), read.1)
}

/// `read_module_whole_meanwhile` runs its work once, on the calling
/// thread, and reads what `read_module_whole` reads: a file read on two
/// threads, one read on one (too short to cut) and one with a syntax error
/// (read on one thread after the cut read gives up).
#[test]
fn work_done_meanwhile_runs_once_on_the_reading_thread() {
    let large = large(MIN_SPLIT_BYTES / 100);
    let broken = large.replacen("submit kernel(deps=[t", "submit kernel(deps=[[t", 1);
    let texts = [
        large.as_str(),
        "func f() -> i64 {\n  return 1\n}\n",
        broken.as_str(),
    ];
    assert!(plan(texts[0], 0).is_some() && plan(texts[2], 0).is_some());
    for (i, text) in texts.into_iter().enumerate() {
        let mut runs = 0;
        let here = std::thread::current().id();
        let (read, ran_here) = read_module_whole_meanwhile(text, 0, || {
            runs += 1;
            std::thread::current().id() == here
        });
        assert_eq!((runs, ran_here), (1, true), "text {i}");
        let (module, diags, syntax_error) = read;
        let (one, one_diags, one_syntax_error) = read_module_whole(text, 0);
        assert_eq!(syntax_error, one_syntax_error, "text {i}");
        assert_eq!(syntax_error, i == 2, "text {i}");
        assert_eq!(
            printed((module, diags)),
            printed((one, one_diags)),
            "text {i}"
        );
    }
}

#[test]
fn a_large_file_is_cut_and_read_as_one_thread_reads_it() {
    let text = large(MIN_SPLIT_BYTES / 100);
    assert!(text.len() >= MIN_SPLIT_BYTES);
    let hole = plan(&text, 0).expect("a large file is cut");
    assert!(hole.span.start() >= text.len() / 4 && hole.depth == 2);
    let split = read_module_split(&text, 0, hole).expect("the cut is read split");
    let one = read_module_on_one_thread(&text, 0);
    // (The smaller tests compare every node and span; here the printed
    // form, the structure and the diagnostics.)
    pfir::ir::equality::modules_equal(&split.0, &one.0).unwrap();
    let expected = printed(one);
    assert_eq!(printed(split), expected);
    // `read_module_anyway` cuts it by itself.
    assert_eq!(printed(read_module_anyway(&text, 0)), expected);
    // With a syntax error (in the chunk: a syntax error anywhere is read
    // on one thread, see `a_chunk_or_rest_with_an_error_is_read_on_one_thread`)
    // and with a semantic error: the same diagnostics.
    let last = text.rfind("submit kernel").unwrap();
    let deps = text.rfind("deps=[t").unwrap() + "deps=[".len();
    for (at, insert) in [(last, "= "), (deps, "nope, ")] {
        let mut bad = text.clone();
        bad.insert_str(at, insert);
        let one = read_module_on_one_thread(&bad, 0).1;
        assert!(
            pfir::diagnostics::has_errors(&one),
            "{insert} at {at} is an error"
        );
        assert_eq!(
            format!("{:?}", read_module_anyway(&bad, 0).1),
            format!("{one:?}")
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_programs_read_split_as_on_one_thread(p in program(), at in 0.0f64..1.0) {
        let src = render(&p);
        let target = (src.len() as f64 * at) as usize;
        if let Some(hole) = plan_at(&src, 0, target) {
            agrees("generated", &src, 0, hole);
        }
    }
}
