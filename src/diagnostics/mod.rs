//! Diagnostics: the one error/warning/note/remark type every layer reports
//! with, and the renderers that write them for people and for tools.
//!
//! A [`Diagnostic`] points into a [`SourceFile`] by byte [`Span`]s. Layers
//! never print; they return diagnostics, and the CLI renders them in the
//! format the user chose ([`render`]).

pub mod codes;
pub mod render;
pub mod source;
pub mod suggest;

pub use codes::Code;

pub use crate::span::Span;
pub use render::{
    ColorChoice, DiagnosticFormat, render_all, render_to_string, render_without_source,
    stderr_color,
};
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

/// How sure a [`Suggestion`] is, as in rustc: only `MachineApplicable`
/// edits are applied by `pfir fix`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Applicability {
    /// The edit is certainly what was meant and leaves valid text.
    MachineApplicable,
    /// The edit is a likely fix, but a person should look at it.
    MaybeIncorrect,
    /// The replacement contains a placeholder (`<name>`) to fill in.
    HasPlaceholders,
}

impl Applicability {
    /// The name used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Applicability::MachineApplicable => "machine-applicable",
            Applicability::MaybeIncorrect => "maybe-incorrect",
            Applicability::HasPlaceholders => "has-placeholders",
        }
    }
}

/// A proposed edit: replace the text at `span` by `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub span: Span,
    pub replacement: String,
    /// What the edit does, in the user's words (`did you mean `abc`?`).
    pub message: String,
    pub applicability: Applicability,
}

impl Suggestion {
    /// The help line people see: the message, followed by the replacement
    /// text when the message does not already show it (and it is not blank:
    /// a deletion or a space says so in its message).
    pub fn help_text(&self) -> String {
        let shown = format!("`{}`", self.replacement);
        let text = self.replacement.trim();
        if text.is_empty() || self.message.contains(&shown) || self.message.contains(text) {
            self.message.clone()
        } else {
            format!("{}: {shown}", self.message)
        }
    }
}

/// What a [`Note`] line is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// More about the problem (`note: ...`).
    Note,
    /// What to do about it (`help: ...`).
    Help,
}

impl NoteKind {
    /// The word that starts the line, and the `kind` of a JSON note.
    pub fn name(self) -> &'static str {
        match self {
            NoteKind::Note => "note",
            NoteKind::Help => "help",
        }
    }
}

/// A line shown after a diagnostic's source snippet: `note: ...` or
/// `help: ...` (its [`Display`](std::fmt::Display) form).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub kind: NoteKind,
    pub message: String,
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The stable error code (`E0010`); every error pfir reports has one.
    pub code: Option<Code>,
    pub message: String,
    /// The offending text. Every diagnostic about source code has one.
    pub primary: Label,
    /// A boxed slice, like `suggestions`, to keep diagnostics small.
    pub secondary: Box<[Label]>,
    /// Extra lines: `note: ...`, `help: ...`.
    pub notes: Vec<Note>,
    /// Proposed edits, shown as `help:` lines after the notes. (A boxed
    /// slice, not a `Vec`: diagnostics travel in `Result`s, and this keeps
    /// them at 128 bytes.)
    pub suggestions: Box<[Suggestion]>,
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
            secondary: Box::default(),
            notes: Vec::new(),
            suggestions: Box::default(),
            code: None,
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
        let mut all = std::mem::take(&mut self.secondary).into_vec();
        all.push(Label {
            span,
            message: message.into(),
        });
        self.secondary = all.into_boxed_slice();
        self
    }

    /// Adds a `note: ...` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(Note {
            kind: NoteKind::Note,
            message: note.into(),
        });
        self
    }

    /// Adds a `help: ...` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.notes.push(Note {
            kind: NoteKind::Help,
            message: help.into(),
        });
        self
    }

    /// Sets the error code.
    pub fn with_code(mut self, code: Code) -> Diagnostic {
        self.code = Some(code);
        self
    }

    /// Adds a proposed edit: replace `span` by `replacement`.
    pub fn with_suggestion(
        mut self,
        span: Span,
        replacement: impl Into<String>,
        message: impl Into<String>,
        applicability: Applicability,
    ) -> Diagnostic {
        let mut all = std::mem::take(&mut self.suggestions).into_vec();
        all.push(Suggestion {
            span,
            replacement: replacement.into(),
            message: message.into(),
            applicability,
        });
        self.suggestions = all.into_boxed_slice();
        self
    }

    /// The notes followed by one `help:` line per suggestion, as people see them.
    pub fn note_lines(&self) -> Vec<String> {
        let help = self.suggestions.iter().map(|s| Note {
            kind: NoteKind::Help,
            message: s.help_text(),
        });
        self.notes
            .iter()
            .cloned()
            .chain(help)
            .map(|n| n.to_string())
            .collect()
    }

    /// `error[E0010]` (or just `error` without a code).
    pub fn header_word(&self) -> String {
        match self.code {
            Some(code) => format!("{}[{}]", self.severity.name(), code.as_str()),
            None => self.severity.name().to_string(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `1 consumer`, `2 consumers`: a number with its noun in the right number.
pub fn count(n: impl Into<u128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Whether any of `diags` is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
