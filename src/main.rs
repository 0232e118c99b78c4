//! The `pfir` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    pfir::cli::run(std::env::args_os())
}
