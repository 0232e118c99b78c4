//! The driver: source text to IR, through the pass pipeline, back to text.
//!
//! [`run_opt`] is what `pfir opt` does for a whole file, including
//! `--split-input-file`, on the calling thread.

use crate::diagnostics::{Diagnostic, SourceFile, has_errors};
use crate::frontend::ReadOptions;
use crate::ir::Module;
use crate::split_input::{SPLIT_MARKER, split_chunks};

/// What `pfir opt` produced for one file.
#[derive(Debug, Default)]
pub struct OptOutcome {
    /// The module of every chunk that was read and transformed without
    /// error, in order: what is printed.
    pub modules: Vec<Module>,
    pub diagnostics: Vec<Diagnostic>,
    /// Other reports for stderr (IR dumps, timing, statistics).
    pub stderr: String,
    /// Print the comments the modules carry (`--keep-comments`).
    pub keep_comments: bool,
}

impl OptOutcome {
    /// Prints the modules into `out` as they render, chunks joined by
    /// `// -----` lines.
    pub fn write_output<W: std::io::Write>(&self, mut out: W) -> std::io::Result<()> {
        if self.keep_comments {
            let text = crate::format::print_modules_keeping_comments(&self.modules);
            out.write_all(text.as_bytes())?;
            return out.flush();
        }
        for (i, m) in self.modules.iter().enumerate() {
            if i > 0 {
                writeln!(out, "{SPLIT_MARKER}")?;
            }
            crate::printer::write_module(m, &mut out)?;
        }
        out.flush()
    }

    /// The printed output as a string.
    pub fn output(&self) -> String {
        let mut bytes = Vec::new();
        let _ = self.write_output(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// What [`crate::opt`] does, as plain data: the command line (`cli::opt`)
/// fills it in, and the driver knows nothing of how it was parsed.
#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    /// Treat each `// -----` separated chunk as its own input.
    pub split_input_file: bool,
    /// Read the comments and print them with the output (`--keep-comments`).
    pub keep_comments: bool,
    /// The passes and pass flags.
    pub pipeline: crate::passes::PipelineOptions,
}

/// Everything `pfir opt` does after reading the file.
pub fn run_opt(file: &SourceFile, args: &OptOptions) -> OptOutcome {
    let chunks = if args.split_input_file {
        split_chunks(&file.text)
    } else {
        vec![(0, file.text.as_str())]
    };
    let mut outcome = OptOutcome {
        keep_comments: args.keep_comments,
        ..OptOutcome::default()
    };
    let lines = args
        .keep_comments
        .then(|| fsutil::lines::LineIndex::new(&file.text));
    for (base, chunk) in chunks {
        let (module, diags) = match &lines {
            Some(lines) => crate::format::read_with_comments(&file.text, lines, base, chunk),
            None => crate::frontend::read_module(chunk, ReadOptions::at(base)).into_parts(),
        };
        outcome.diagnostics.extend(diags);
        let Some(mut module) = module else { continue };
        let result = crate::passes::run_pipeline(&mut module, file, &args.pipeline);
        let failed = has_errors(&result.diagnostics);
        outcome.diagnostics.extend(result.diagnostics);
        outcome.stderr.push_str(&result.stderr);
        if !failed {
            outcome.modules.push(module);
        }
    }
    // Nothing is printed when the output would pass its bound.
    let size = if args.keep_comments {
        crate::format::check_output_size_keeping_comments(&outcome.modules)
    } else {
        crate::printer::check_output_size(&outcome.modules)
    };
    if let Err(d) = size {
        outcome.diagnostics.push(d);
        outcome.modules.clear();
    }
    outcome
}
