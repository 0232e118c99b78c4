//! Fuzzes the whole front end: lex, parse, lower, verify, print, re-read.
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run front_end -- -max_total_time=600`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let (module, diags) = pfir::parse(src).into_parts();
    for d in &diags {
        assert!(d.primary.span.start() <= d.primary.span.end() && d.primary.span.end() <= src.len());
    }
    match module {
        None => assert!(diags.iter().any(|d| d.is_error()), "rejected without an error"),
        Some(m) => {
            let printed = pfir::printer::print_module(&m);
            let again = pfir::parse(&printed).module.map(|m| pfir::print(&m)).expect("printed output reads back");
            assert_eq!(again, printed, "printing is a fixpoint");
        }
    }
    let file = pfir::diagnostics::SourceFile::new("fuzz.pfir", src);
    let _ = pfir::diagnostics::render_all(&diags, &file, pfir::diagnostics::DiagnosticFormat::Human, false);
});
