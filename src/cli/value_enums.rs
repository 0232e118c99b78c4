//! How the command line spells the plain option enums of the layers below
//! (`--diagnostic-format`, `--color`): clap's `ValueEnum` for them lives
//! here, so `src/diagnostics/` does not know clap.

use crate::diagnostics::{ColorChoice, DiagnosticFormat};
use clap::ValueEnum;
use clap::builder::PossibleValue;

impl ValueEnum for DiagnosticFormat {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            DiagnosticFormat::Human,
            DiagnosticFormat::Short,
            DiagnosticFormat::Json,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            DiagnosticFormat::Human => PossibleValue::new("human")
                .help("Source snippets with underlined spans (colour only on a terminal)"),
            DiagnosticFormat::Short => PossibleValue::new("short")
                .help("One line per diagnostic: `file:line:col: error: message`"),
            DiagnosticFormat::Json => PossibleValue::new("json").help("One JSON object per line"),
        })
    }
}

impl ValueEnum for ColorChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &[ColorChoice::Auto, ColorChoice::Always, ColorChoice::Never]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            ColorChoice::Auto => PossibleValue::new("auto")
                .help("Colour when stderr is a terminal and `NO_COLOR` is unset or empty"),
            ColorChoice::Always => {
                PossibleValue::new("always").help("Always colour (overrides `NO_COLOR`)")
            }
            ColorChoice::Never => PossibleValue::new("never").help("Never colour"),
        })
    }
}
