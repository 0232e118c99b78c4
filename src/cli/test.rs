//! `pfir test`: the lit-style runner (in progress).

use clap::Args;

#[derive(Args, Debug)]
pub struct TestArgs {
    /// Files or directories to search for `.pfir` tests.
    pub paths: Vec<std::path::PathBuf>,
}

pub fn run(_args: TestArgs) -> u8 {
    eprintln!("pfir test: not available yet");
    2
}
