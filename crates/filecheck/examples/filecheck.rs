//! The FileCheck library alone as a program (`cargo run -p filecheck
//! --example filecheck -- CHECKS < INPUT`): LLVM FileCheck's options, its
//! report on standard error and its exit status, without the rest of pfir.
//! For profiling the library (`perf record`) apart from pfir's start-up.

use filecheck::args::parse_args_with_color;
use filecheck::{FailureKind, check_detailed};
use std::io::{Read, Write};

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let code = match parse_args_with_color(&words, || false) {
        Err(e) => {
            eprintln!("filecheck: {}", e.0);
            1
        }
        Ok(p) => run(p),
    };
    std::process::exit(code);
}

fn run(p: filecheck::args::Parsed) -> i32 {
    let Some(check_file) = p.check_file else {
        eprintln!("<check-file> not specified");
        return 2;
    };
    let Ok(check) = std::fs::read_to_string(&check_file) else {
        eprintln!("cannot read {check_file}");
        return 2;
    };
    let mut input = String::new();
    let name = match p.input_file.as_deref() {
        Some(path) if path != "-" => {
            input = std::fs::read_to_string(path).unwrap_or_default();
            path.to_string()
        }
        _ => {
            let _ = std::io::stdin().read_to_string(&mut input);
            "<stdin>".to_string()
        }
    };
    let mut opts = p.opts;
    opts.directive_results = false;
    let outcome = check_detailed(&check, &check_file, &input, &name, &opts);
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(outcome.remarks.as_bytes());
    if let Some(dump) = &outcome.dump {
        let _ = err.write_all(dump.as_bytes());
    }
    match outcome.result {
        Ok(()) => 0,
        Err(f) => {
            let _ = err.write_all(f.report().as_bytes());
            match f.kind {
                FailureKind::Mismatch => 1,
                _ => 2,
            }
        }
    }
}
