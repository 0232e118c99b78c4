//! Every bundled example and every valid `.pfir` test input prints to a
//! fixpoint: `print(parse(print(parse(x)))) == print(parse(x))` byte for
//! byte, and the re-read IR is structurally equal to the first.

use crate::support::repository_pfir_files;

#[test]
fn every_valid_input_prints_to_a_fixpoint() {
    let files = repository_pfir_files();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (_, chunk) in pfir::split_input(&text) {
            let (Some(first), _) = pfir::parse(chunk).into_parts() else {
                continue;
            };
            let printed = pfir::print(&first);
            let (second, diags) = pfir::parse(&printed).into_parts();
            let Some(second) = second else {
                failures.push(format!(
                    "{}: printed form does not read back: {diags:?}\n{printed}",
                    path.display()
                ));
                continue;
            };
            let reprinted = pfir::print(&second);
            if reprinted != printed {
                failures.push(format!(
                    "{}: not a fixpoint:\n{printed}\n---\n{reprinted}",
                    path.display()
                ));
            }
            if let Err(e) = pfir::ir::equality::modules_equal(&first, &second) {
                failures.push(format!("{}: re-read IR differs: {e}", path.display()));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked >= 3, "only {checked} valid inputs found");
    eprintln!("{checked} valid inputs print to a fixpoint");
}
