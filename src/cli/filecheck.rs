//! `pfir filecheck`: the FileCheck-compatible checker (in progress).

use clap::Args;

#[derive(Args, Debug)]
pub struct FileCheckArgs {
    /// The file holding the CHECK directives.
    pub check_file: std::path::PathBuf,
}

pub fn run(_args: FileCheckArgs) -> u8 {
    eprintln!("pfir filecheck: not available yet");
    2
}
