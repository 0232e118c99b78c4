//! `pfir graph`: draw the task graph of orchestration functions, before
//! and after a pass pipeline, as DOT, SVG or a self-contained HTML page.
//! The drawing lives in `src/graph/`; the picture is described in
//! `docs/graph.md`.

use super::opt::{DiagnosticArgs, io_error, read_input};
use crate::diagnostics::{Code, Diagnostic, Severity, SourceFile};
use crate::graph::html::Decision;
use crate::graph::{self as picture, Options, Show};
use crate::io::atomic_write::write_atomically;
use crate::passes::PipelineOptions;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShowArg {
    Before,
    After,
    Both,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Graphviz DOT text (render with `dot -Tsvg`).
    Dot,
    /// An SVG picture, laid out by pfir itself.
    Svg,
    /// One self-contained HTML page: the SVG and the pass's decisions.
    Html,
}

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Nodes: one per `submit` and `system.task_dummy` statement, in clusters \
per loop (kind and trip count) and per manual/auto scope. Edges: one per `deps` entry, \
labelled with the runtime edges it stands for (the count of `pfir opt --stats`). \
With --passes, --show defaults to both: before and after side by side, inserted barriers \
and rewritten dependencies highlighted. See docs/graph.md."
)]
pub struct GraphArgs {
    /// The input file; `-` or nothing reads standard input.
    pub input: Option<PathBuf>,

    /// Write here instead of standard output (atomically). Without
    /// --format, the extension chooses it (.svg, .html/.htm, else DOT).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Passes to run for the "after" picture, separated by commas.
    #[arg(long = "passes", value_name = "NAME,...", value_delimiter = ',')]
    pub passes: Vec<String>,

    /// Which version to draw [default: both with --passes, else before].
    #[arg(long = "show", value_enum)]
    pub show: Option<ShowArg>,

    /// Output format [default: from the -o extension, else dot].
    #[arg(long = "format", value_enum)]
    pub format: Option<Format>,

    /// Draw only this function (of any kind) instead of every
    /// orchestration function.
    #[arg(long = "function", value_name = "NAME")]
    pub function: Option<String>,

    /// Draw task instances (loops with known trip counts unrolled) instead
    /// of statements.
    #[arg(long = "expand")]
    pub expand: bool,

    /// Node budget per side: larger graphs are summarised (clusters
    /// collapsed) or, expanded, cut with a note saying what was left out.
    #[arg(long = "max-nodes", value_name = "N", default_value_t = picture::DEFAULT_MAX_NODES as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_nodes: u32,

    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

impl GraphArgs {
    fn format(&self) -> Format {
        if let Some(f) = self.format {
            return f;
        }
        let ext = self
            .output
            .as_ref()
            .and_then(|p| p.extension())
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("svg") => Format::Svg,
            Some("html" | "htm") => Format::Html,
            _ => Format::Dot,
        }
    }

    fn show(&self) -> Show {
        match self.show {
            Some(ShowArg::Before) => Show::Before,
            Some(ShowArg::After) => Show::After,
            Some(ShowArg::Both) => Show::Both,
            None if self.passes.is_empty() => Show::Before,
            None => Show::Both,
        }
    }
}

pub fn run(args: GraphArgs) -> u8 {
    let report = &args.diagnostics;
    let pipeline = PipelineOptions {
        remarks: Some(Vec::new()),
        ..PipelineOptions::with_passes(&args.passes.iter().map(String::as_str).collect::<Vec<_>>())
    };
    if let Err(message) = crate::passes::check_pipeline(&pipeline) {
        report.report_plain(
            &Diagnostic::error(message.to_string(), crate::span::Span::default())
                .with_code(Code::UnknownPass)
                .with_help("`pfir graph --help` lists the passes"),
            None,
        );
        return 2;
    }
    let (file, bad_byte) = match read_input(args.input.as_ref(), crate::io::read::MAX_INPUT_BYTES) {
        Ok(v) => v,
        Err(e) => return report.report_read_error(e, args.input.as_ref()),
    };
    if let Some(offset) = bad_byte {
        return report.report_not_utf8(&file, offset);
    }
    let result = draw(&file, &args, &pipeline);
    let (diags, output) = match result {
        Ok(v) => v,
        Err(Failure::Diagnostics(diags)) => (diags, None),
        Err(Failure::Message(message)) => {
            report.report_plain(
                &Diagnostic::error(message, crate::span::Span::default()).with_code(Code::Usage),
                Some(&file.name),
            );
            return 1;
        }
    };
    let errors: Vec<Diagnostic> = diags.into_iter().filter(|d| d.is_error()).collect();
    report.report(&errors, &file);
    let Some(output) = output else {
        return 1;
    };
    if !errors.is_empty() {
        return 1;
    }
    match &args.output {
        Some(path) => {
            if let Err(e) = write_atomically(path, output.as_bytes()) {
                report.report_plain(
                    &io_error(format!("cannot write '{}': {e}", path.display())),
                    None,
                );
                return 1;
            }
        }
        None => {
            let mut out = crate::io::stdio::stdout();
            if let Err(e) = out.write_all(output.as_bytes()).and_then(|_| out.flush())
                && e.kind() != std::io::ErrorKind::BrokenPipe
            {
                report.report_plain(&io_error(format!("cannot write the output: {e}")), None);
                return 1;
            }
        }
    }
    0
}

type Drawn = (Vec<Diagnostic>, Option<String>);

/// Why nothing can be drawn.
enum Failure {
    /// Errors in the input or the pipeline.
    Diagnostics(Vec<Diagnostic>),
    /// A request that does not fit the input (no such function).
    Message(String),
}

/// Reads, runs the pipeline, draws.
fn draw(file: &SourceFile, args: &GraphArgs, pipeline: &PipelineOptions) -> Result<Drawn, Failure> {
    let (module, mut diags) =
        crate::frontend::read_module(&file.text, crate::frontend::ReadOptions::at(0)).into_parts();
    let Some(before) = module else {
        return Err(Failure::Diagnostics(diags));
    };
    let opts = Options {
        show: args.show(),
        expand: args.expand,
        max_nodes: args.max_nodes as usize,
        function: args.function.clone(),
    };
    if let Some(name) = &args.function
        && before.function(name).is_none()
    {
        let known: Vec<&str> = before.functions().iter().map(|f| f.name.as_str()).collect();
        return Err(Failure::Message(format!(
            "no function named `{name}` in {}; {}",
            file.name,
            if known.is_empty() {
                "it defines no function".to_string()
            } else {
                format!("its functions: {}", known.join(", "))
            }
        )));
    }
    let mut after = None;
    let mut decisions = Vec::new();
    if !args.passes.is_empty() {
        let mut m = before.clone();
        let result = crate::passes::run_pipeline(&mut m, file, pipeline);
        if crate::diagnostics::has_errors(&result.diagnostics) {
            diags.extend(result.diagnostics);
            return Err(Failure::Diagnostics(diags));
        }
        decisions = result
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Remark)
            .map(|d| decision(file, &before, d))
            .collect();
        after = Some(m);
    }
    let mut title = file.name.clone();
    if !args.passes.is_empty() {
        title.push_str(&format!(" --passes={}", args.passes.join(",")));
    }
    if args.expand {
        title.push_str(" --expand");
    }
    let p = picture::build(title, &before, after.as_ref(), &opts);
    if p.functions.is_empty() {
        args.diagnostics.report_plain(
            &Diagnostic::warning(
                format!("{} has no orchestration function to draw", file.name),
                crate::span::Span::default(),
            ),
            Some(&file.name),
        );
    }
    let text = match args.format() {
        Format::Dot => picture::dot::write_dot(&p),
        Format::Svg => picture::svg::write_svg(&p),
        Format::Html => picture::html::write_html(&p, &decisions, &args.passes),
    };
    Ok((diags, Some(text)))
}

/// A remark as a row of the HTML page's table.
fn decision(file: &SourceFile, module: &crate::ir::Module, d: &Diagnostic) -> Decision {
    let at = d.primary.span.start();
    let (line, column) = file.line_col(at);
    let start = file.line_start(line - 1);
    let end = file.line_start(line);
    let source = file.text[start..end.max(start)].trim().to_string();
    let function = module
        .functions()
        .iter()
        .find(|f| f.span.start() <= at && at < f.span.end())
        .map(|f| f.name.clone())
        .unwrap_or_default();
    let mut message = d.message.clone();
    for n in &d.notes {
        message.push_str("; ");
        message.push_str(&n.to_string());
    }
    Decision {
        function,
        line,
        column,
        source,
        message,
    }
}
