//! The phase-fence pass on generated programs: right answers at every
//! shape and size, including 100,000 nested loops (no timing assertions;
//! the benchmark measures time).

use pfir::passes::expand_manual_phase_fence::run_on_function;
use pfir::passes::synth;

fn run(mut m: pfir::ir::Module) -> (u64, u64) {
    let f = m.functions_mut().last_mut().unwrap();
    let o = run_on_function(f, false);
    (o.barriers_inserted, o.consumers_rewritten)
}

/// (barriers inserted, consumers rewritten) on each generated shape: flat
/// loops get a barrier each, a wide body one, many arrays one per array,
/// 100,000 nested loops one at the top, and updates stay direct.
#[test]
fn generated_shapes_get_their_barriers() {
    let gets = |m, counts: (u64, u64)| assert_eq!(run(m), counts);
    gets(synth::flat(10, 4), (10, 40));
    gets(synth::wide(10_000), (1, 10_000));
    gets(synth::many_arrays(500, 2), (500, 1000));
    gets(synth::deep(100_000), (1, 100_000));
    gets(synth::deep_many_arrays(2_000, 200), (0, 0));
}

#[test]
fn deep_nesting_remarks_are_output_bound() {
    let mut m = synth::deep(20_000);
    let f = m.functions_mut().last_mut().unwrap();
    let o = run_on_function(f, true);
    assert_eq!(o.barriers_inserted, 1);
    // One remark: the top loop; every loop below sees no candidate.
    let remarks = o.remarks();
    assert_eq!(remarks.len(), 1, "{:?}", remarks.first());
    assert!(remarks[0].message.contains("saturated"));
}

#[test]
fn idempotent_on_generated_shapes() {
    for m in [
        synth::flat(5, 3),
        synth::deep(300),
        synth::many_arrays(7, 3),
    ] {
        let mut once = m.clone();
        let f = once.functions_mut().last_mut().unwrap();
        run_on_function(f, false);
        let mut twice = once.clone();
        let f2 = twice.functions_mut().last_mut().unwrap();
        let o = run_on_function(f2, false);
        assert_eq!((o.barriers_inserted, o.consumers_rewritten), (0, 0));
        assert_eq!(
            format!("{:?}", once.functions().last().unwrap().body),
            format!("{:?}", twice.functions().last().unwrap().body)
        );
    }
}
