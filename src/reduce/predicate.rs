//! What makes a candidate interesting: a command of the user's, or one of
//! the built-in predicates, which run pfir's own pipeline in-process.
//!
//! `--test CMD ARGS...` runs `CMD ARGS... FILE` on the candidate written
//! to a file of a private scratch directory (as `llvm-reduce --test`
//! does); the candidate is interesting when it exits 0 before the run's
//! deadline (a command still running then is killed). The built-in
//! predicates read the candidate, run the passes of [`Oracle::pipeline`]
//! and look at what `pfir opt` would report or print.

use crate::diagnostics::{Code, Diagnostic, SourceFile, has_errors};
use crate::ir::Module;
use crate::passes::PipelineOptions;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The property a reduction keeps.
#[derive(Clone, Debug)]
pub enum Predicate {
    /// `--test CMD ARGS...`: the command exits 0 with the file last.
    Test(Vec<String>),
    /// `--error CODE`: reading or the passes report a diagnostic with the code.
    Error(Code),
    /// `--remark REGEX`: a remark of the passes matches.
    Remark(regex::Regex),
    /// `--verify-deps-fails`: `--verify-deps` reports a changed dependency.
    VerifyDepsFails,
    /// `--differs-from CMD`: the passes' printed output differs from the
    /// standard output of `CMD FILE` (which must exit 0).
    DiffersFrom(Vec<String>),
    /// `--filecheck CHECKS [--expect-fail]`: the printed output passes the
    /// checks (or, `expect_fail`, fails them).
    FileCheck {
        checks: String,
        name: String,
        expect_fail: bool,
    },
}

/// A predicate ready to judge candidates.
pub struct Oracle {
    pub predicate: Predicate,
    /// The passes the built-in predicates run.
    pub pipeline: PipelineOptions,
    /// When the whole run ends: a command still running then is killed
    /// (and counts as not interesting), and none starts after it.
    pub deadline: Option<Instant>,
    /// The file name candidates are written under (the input's).
    pub file_name: String,
    scratch: Option<lit::ScratchDir>,
    next: AtomicUsize,
}

impl Oracle {
    /// An oracle for `predicate`; a scratch directory is made when it runs
    /// commands.
    pub fn new(
        predicate: Predicate,
        pipeline: PipelineOptions,
        file_name: &str,
    ) -> std::io::Result<Oracle> {
        let runs_commands = matches!(predicate, Predicate::Test(_) | Predicate::DiffersFrom(_));
        let scratch = if runs_commands {
            Some(lit::ScratchDir::create(std::path::Path::new("reduce"))?)
        } else {
            None
        };
        Ok(Oracle {
            predicate,
            pipeline,
            deadline: None,
            file_name: file_name.to_string(),
            scratch,
            next: AtomicUsize::new(0),
        })
    }

    /// Whether `text` (read already as `module` when it is a valid
    /// program) has the property.
    pub fn interesting(&self, text: &str, module: Option<&Module>) -> bool {
        match &self.predicate {
            Predicate::Test(argv) => self.run(argv, text).is_some_and(|(ok, _)| ok),
            Predicate::Error(code) => {
                let (diags, _) = self.pass_outcome(text, module, &self.pipeline);
                diags.iter().any(|d| d.code == Some(*code))
            }
            Predicate::Remark(re) => {
                let mut opts = self.pipeline.clone();
                opts.remarks.get_or_insert_with(Vec::new);
                let (diags, _) = self.pass_outcome(text, module, &opts);
                diags.iter().any(|d| {
                    d.severity == crate::diagnostics::Severity::Remark && re.is_match(&d.message)
                })
            }
            Predicate::VerifyDepsFails => {
                let mut opts = self.pipeline.clone();
                opts.verify_deps = true;
                let (diags, _) = self.pass_outcome(text, module, &opts);
                diags
                    .iter()
                    .any(|d| d.code == Some(Code::DependencyChanged))
            }
            Predicate::DiffersFrom(argv) => {
                let (_, ours) = self.pass_outcome(text, module, &self.pipeline);
                match self.run(argv, text) {
                    Some((true, theirs)) => theirs != ours.into_bytes(),
                    _ => false,
                }
            }
            Predicate::FileCheck {
                checks,
                name,
                expect_fail,
            } => {
                let (_, output) = self.pass_outcome(text, module, &self.pipeline);
                let opts = filecheck::FileCheckOptions::default();
                let passed = filecheck::check(checks, name, &output, "<stdin>", &opts).is_ok();
                passed != *expect_fail
            }
        }
    }

    /// The diagnostics of reading `text` (or of `module`, already read)
    /// and running `opts` over it, and what `pfir opt` prints (nothing
    /// when there is an error).
    fn pass_outcome(
        &self,
        text: &str,
        module: Option<&Module>,
        opts: &PipelineOptions,
    ) -> (Vec<Diagnostic>, String) {
        {
            let (module, mut diags) = match module {
                Some(m) => (Some(m.clone()), Vec::new()),
                None => crate::frontend::read_module(text, crate::frontend::ReadOptions::at(0))
                    .into_parts(),
            };
            let Some(mut module) = module else {
                return (diags, String::new());
            };
            let file = SourceFile::new(&self.file_name, text);
            let result = crate::passes::run_pipeline(&mut module, &file, opts);
            diags.extend(result.diagnostics);
            let output = if has_errors(&diags) {
                String::new()
            } else {
                crate::printer::print_module(&module)
            };
            (diags, output)
        }
    }

    /// Runs `argv` with the candidate's file last: whether it exited 0,
    /// and its standard output. `None` when the file cannot be written.
    fn run(&self, argv: &[String], text: &str) -> Option<(bool, Vec<u8>)> {
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|left| left.is_zero()) {
            return Some((false, Vec::new()));
        }
        let dir = self.scratch.as_ref()?.path();
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let sub: PathBuf = dir.join(n.to_string());
        std::fs::create_dir(&sub).ok()?;
        let path = sub.join(&self.file_name);
        std::fs::write(&path, text).ok()?;
        let mut argv = argv.to_vec();
        argv.push(path.to_string_lossy().into_owned());
        let stage = lit::run_line::Stage {
            argv,
            ..lit::run_line::Stage::default()
        };
        let pipeline = lit::run_line::Pipeline {
            stages: vec![stage],
        };
        let mut tools = lit::Tools::new();
        tools.timeout = left;
        let result = lit::execute::run_pipeline(&pipeline, &tools, None);
        let _ = std::fs::remove_dir_all(&sub);
        Some((result.passed(), result.stdout))
    }
}
