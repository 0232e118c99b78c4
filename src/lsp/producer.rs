//! Running the commands of a document's RUN lines for the editor: the part
//! of a RUN line before its FileCheck stage (the "producer"), on the text
//! in the editor.
//!
//! A producer that is one `pfir opt ... %s` stage (the common case) runs
//! in-process on the document's text, through the same driver and
//! renderer as the `pfir opt` command, so unsaved text is seen. Any other
//! command runs through the lit runner ([`lit::execute`], with
//! [`crate::testing::lit_tools`]) on the file as saved, under the
//! request's [`RunPolicy`] (its timeout and cancellation; what may run at
//! all is decided before, by [`super::trust`]). Its output is kept up to
//! [`EDITOR_CAPTURE_LIMIT`]; [`Produced::dropped`] says when it was more.

use super::commands::{PfirCommand, ReadCommand};
use super::trust::{self, RunPolicy};
use crate::diagnostics::{self, Diagnostic, SourceFile};
use crate::driver;
use lit::Tools;
use lit::run_line::{self, Pipeline, Stage, StderrTarget, StdoutTarget, Substitutions};
use std::path::{Path, PathBuf};

/// What a producer printed, and whether it did what its RUN line expects.
#[derive(Clone, Debug, Default)]
pub struct Produced {
    pub stdout: String,
    pub stderr: String,
    /// The pipeline's status as lit judges it (`not` inverts).
    pub passed: bool,
    /// The command, substitutions applied (for messages).
    pub command: String,
    /// How the failing stages ended (`exit status 1`, `timed out ...`),
    /// when they ran as processes.
    pub status: String,
    /// Bytes of standard output dropped beyond [`EDITOR_CAPTURE_LIMIT`]
    /// (0 when `stdout` is whole).
    pub dropped: u64,
}

/// The most output of a command the server keeps (head and tail when
/// more; see [`lit::execute::capture`]). `pfir test` pipes a producer into
/// FileCheck whole; a test whose output is larger is not judged in the
/// editor (the RUN line says so) rather than judged on part of it.
pub const EDITOR_CAPTURE_LIMIT: usize = 64 << 20;

/// Names under which RUN lines call FileCheck.
pub fn is_filecheck(program: &str) -> bool {
    filecheck::args::is_program_name(program)
}

/// A RUN line with its pipelines, or why they do not parse.
pub type ParsedRunLine = (run_line::RunLine, Result<Vec<Pipeline>, String>);

/// The RUN lines of `text`, each with the `DEFINE:`/`REDEFINE:`
/// substitutions in force at it expanded (as the runner reads them, so the
/// consent checks see what runs) and parsed into pipelines with `subs`. A
/// RUN line that does not parse is returned as its error.
pub fn parsed_run_lines(text: &str, subs: &Substitutions) -> Result<Vec<ParsedRunLine>, String> {
    Ok(lit::define::expanded_run_lines(text, &subs.custom)?
        .into_iter()
        .map(|(r, expanded)| {
            let parsed = run_line::parse(&expanded, subs);
            let r = run_line::RunLine {
                line: r.line,
                text: expanded,
            };
            (r, parsed)
        })
        .collect())
}

/// The substitutions for the document at `source` (with the `lit.toml`
/// substitutions of its directory when there is one) and a scratch path.
pub fn substitutions(source: &Path, temp: PathBuf) -> Substitutions {
    let custom = lit::config::LitConfig::for_test(source)
        .map(|c| c.substitutions)
        .unwrap_or_default();
    Substitutions {
        source: source.to_path_buf(),
        temp,
        custom,
    }
}

/// The runner's tools: `pfir` is this executable; the timeout and
/// cancellation of `policy`; output kept up to [`EDITOR_CAPTURE_LIMIT`].
/// and the policy's reader of `pfir` command lines.
pub fn runner(policy: &RunPolicy) -> Runner {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("pfir"));
    Runner {
        tools: Tools {
            timeout: Some(policy.timeout),
            cancel: policy.cancel.clone(),
            capture_limit: EDITOR_CAPTURE_LIMIT,
            ..crate::testing::lit_tools(exe)
        },
        read_command: policy.read_command,
    }
}

/// How producers run: the lit runner's tools for commands run as
/// processes, and the reader that tells a `pfir opt` run in-process.
pub struct Runner {
    /// The lit runner's tools.
    pub tools: Tools,
    /// Reads a `pfir` command line ([`RunPolicy::read_command`]).
    pub read_command: ReadCommand,
}

/// Runs `stages` with the document `text` standing for the file `source`.
pub fn run(stages: &[Stage], text: &str, source: &Path, runner: &Runner) -> Produced {
    let command = Pipeline {
        stages: stages.to_vec(),
    }
    .display();
    if let [stage] = stages
        && let Some(produced) = run_opt_in_process(stage, text, source, runner.read_command)
    {
        return Produced {
            command,
            ..produced
        };
    }
    let result = lit::execute::run_pipeline(
        &Pipeline {
            stages: stages.to_vec(),
        },
        &runner.tools,
        None,
    );
    Produced {
        stdout: String::from_utf8_lossy(&result.stdout).into_owned(),
        stderr: result
            .stages
            .iter()
            .map(|s| String::from_utf8_lossy(&s.stderr).into_owned())
            .collect(),
        passed: result.passed(),
        command,
        status: result
            .stages
            .iter()
            .filter(|s| !s.passed())
            .map(|s| s.describe_status())
            .collect::<Vec<_>>()
            .join("; "),
        dropped: result.stdout_dropped,
    }
}

/// `pfir opt` on the document's text, when `stage` is a `pfir opt` reading
/// `source` and writing to the pipe; `None` otherwise.
fn run_opt_in_process(
    stage: &Stage,
    text: &str,
    source: &Path,
    read: ReadCommand,
) -> Option<Produced> {
    if stage.argv.first().map(String::as_str) != Some("pfir")
        || stage.stdin.is_some()
        || stage.stdout != StdoutTarget::Pipe
        || !matches!(stage.stderr, StderrTarget::Capture | StderrTarget::ToStdout)
    {
        return None;
    }
    let PfirCommand::Opt(args) = read(&stage.argv) else {
        return None;
    };
    if args.input.as_deref() != Some(source) || args.output.is_some() {
        return None;
    }
    crate::passes::check_pipeline(&args.options.pipeline).ok()?;
    let file = SourceFile::new(source.display().to_string(), text);
    let outcome = driver::run_opt(&file, &args.options);
    let format = args.diagnostic_format;
    let (reported, failed) = if args.verify_diagnostics {
        let report = crate::testing::verify_diagnostics::verify(&file, &outcome.diagnostics);
        let failed = !report.is_empty();
        (report, failed)
    } else {
        let failed = outcome.diagnostics.iter().any(Diagnostic::is_error);
        (outcome.diagnostics.clone(), failed)
    };
    let mut rendered = Vec::new();
    let _ = diagnostics::render::write_all(
        &mut rendered,
        &reported,
        &file,
        format,
        false,
        args.error_limit,
    );
    let mut stderr = String::from_utf8_lossy(&rendered).into_owned();
    stderr.push_str(&outcome.stderr);
    let mut stdout = outcome.output();
    if stage.stderr == StderrTarget::ToStdout {
        stdout = stderr.clone() + &stdout;
        stderr.clear();
    }
    Some(Produced {
        stdout,
        stderr,
        passed: failed == stage.invert,
        command: String::new(),
        status: String::new(),
        dropped: 0,
    })
}

/// The pass pipeline's output for the document: the producer of its
/// first RUN line that pipes `pfir opt` into FileCheck, or else `pfir opt
/// --passes=expand-manual-phase-fence` (split into chunks when the document
/// has `// -----` lines), run in-process on `text`.
pub fn pipeline_output(text: &str, source: &Path, read: ReadCommand) -> Produced {
    // Only a `pfir opt` stage is used here, in process, so `%t` is never
    // written; it still must expand to something.
    let subs = substitutions(source, source.with_extension("pfir-lsp.tmp"));
    if let Ok(Some(producer)) = crate::testing::update_checks::find_producer(text, &subs)
        && let [stage] = producer.pipeline.stages.as_slice()
        && let Some(produced) = run_opt_in_process(stage, text, source, read)
    {
        return Produced {
            command: producer.pipeline.display(),
            ..produced
        };
    }
    let mut argv = vec![
        "pfir".to_string(),
        "opt".to_string(),
        source.display().to_string(),
        format!("--passes={}", super::diagnostics::EDITOR_PASSES.join(",")),
    ];
    if crate::split_input::has_split_marker(text) {
        argv.push("--split-input-file".into());
    }
    let stage = Stage {
        argv,
        ..Stage::default()
    };
    let command = Pipeline {
        stages: vec![stage.clone()],
    }
    .display();
    let produced = run_opt_in_process(&stage, text, source, read).unwrap_or_default();
    Produced {
        command,
        ..produced
    }
}

/// The producer of RUN line `index` (0-based) of the document: its first
/// pipeline up to the FileCheck stage (the whole pipeline when it has
/// none), run on `text` under `policy` (a command that needs consent it
/// lacks is an error saying so).
pub fn run_line_output(
    text: &str,
    source: &Path,
    index: usize,
    policy: &RunPolicy,
) -> Result<Produced, String> {
    let scratch = lit::ScratchDir::create(source)
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let subs = substitutions(source, scratch.temp.clone());
    let lines = parsed_run_lines(text, &subs)?;
    let count = lines.len();
    let (run_line, parsed) = lines.into_iter().nth(index).ok_or_else(|| {
        format!("the document has {count} RUN line(s); there is no RUN line {index}")
    })?;
    let pipelines = parsed.map_err(|e| format!("line {}: {e}", run_line.line))?;
    trust::check_run_line(
        &run_line.text,
        &subs.custom,
        &pipelines,
        &trust::scratch_dir(&subs.temp),
        policy,
    )
    .map_err(|b| format!("line {}: {}", run_line.line, b.message()))?;
    let pipeline = pipelines
        .into_iter()
        .next()
        .ok_or_else(|| format!("line {}: the RUN line is empty", run_line.line))?;
    let end = pipeline
        .stages
        .iter()
        .position(|s| is_filecheck(&s.argv[0]))
        .unwrap_or(pipeline.stages.len());
    if end == 0 {
        return Err(format!(
            "line {}: FileCheck reads no command's output on this RUN line",
            run_line.line
        ));
    }
    Ok(run(&pipeline.stages[..end], text, source, &runner(policy)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lines_are_read_with_define_as_the_runner_reads_them() {
        let subs = Substitutions {
            source: "t.pfir".into(),
            temp: "t.tmp".into(),
            custom: Vec::new(),
        };
        let text = "// DEFINE: %{opt} = pfir opt %s\n// RUN: %{opt} | FileCheck %s\n\
                    // REDEFINE: %{opt} = pfir check %s\n// RUN: %{opt}\n";
        let lines = parsed_run_lines(text, &subs).unwrap();
        let got: Vec<(usize, String, String)> = lines
            .into_iter()
            .map(|(r, p)| (r.line, r.text, p.unwrap()[0].display()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    2,
                    "pfir opt %s | FileCheck %s".to_string(),
                    "pfir opt t.pfir | FileCheck t.pfir".to_string()
                ),
                (
                    4,
                    "pfir check %s".to_string(),
                    "pfir check t.pfir".to_string()
                )
            ]
        );
        assert!(parsed_run_lines("// DEFINE: %{x}\n// RUN: a\n", &subs).is_err());
    }
}
