//! The `pfir` binary: everything lives in the library (its private
//! `cli` module), entered through `pfir::run_command_line`.

fn main() -> std::process::ExitCode {
    pfir::run_command_line(std::env::args_os())
}
