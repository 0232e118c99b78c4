//! Diagnostics: the one error/warning/note/remark type every layer reports
//! with, and the renderers that write them for people and for tools.
//!
//! A [`Diagnostic`] points into a [`SourceFile`] by byte [`Span`]s. Layers
//! never print; they return diagnostics, and the CLI renders them in the
//! format the user chose ([`render`]).

pub mod render;
pub mod source;

pub use crate::span::Span;
pub use render::{DiagnosticFormat, render_all, render_to_string};
pub use source::SourceFile;

/// How serious a diagnostic is. `Remark` explains an optimisation decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// A span with a message. The primary label of a diagnostic underlines the
/// offending text; secondary labels point at related code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// The offending text. Every diagnostic about source code has one.
    pub primary: Label,
    pub secondary: Vec<Label>,
    /// Extra lines: `note: ...`, `help: ...` (stored with their prefix word).
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity,
            message: message.into(),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Error, message, span)
    }

    pub fn warning(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Warning, message, span)
    }

    pub fn remark(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Remark, message, span)
    }

    /// Sets the primary label's message.
    pub fn with_label(mut self, message: impl Into<String>) -> Diagnostic {
        self.primary.message = message.into();
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a `note: ...` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("note: {}", note.into()));
        self
    }

    /// Adds a `help: ...` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("help: {}", help.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Whether any of `diags` is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
