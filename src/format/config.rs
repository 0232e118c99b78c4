//! `pfir fmt`'s settings file: the nearest `pfir.toml` in a file's
//! directory or above it (as rustfmt finds `rustfmt.toml`), read by the
//! command line and the language server alike.
//!
//! ```toml
//! [fmt]
//! line-width = 80
//! ```

use std::path::Path;

/// The settings file's name.
pub const CONFIG_FILE: &str = "pfir.toml";

/// `[fmt] line-width` of the nearest [`CONFIG_FILE`] in `dir` or above it
/// (`None`: no such file, or it sets no width). A file that is not valid
/// TOML, or a width that is not a number from 1 to 65535, is an error
/// (the message names the file).
pub fn line_width(dir: &Path) -> Result<Option<usize>, String> {
    #[derive(serde::Deserialize, Default)]
    struct Config {
        #[serde(default)]
        fmt: FmtConfig,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(rename_all = "kebab-case")]
    struct FmtConfig {
        line_width: Option<u16>,
    }
    let Some(path) = dir
        .ancestors()
        .map(|d| d.join(CONFIG_FILE))
        .find(|p| p.is_file())
    else {
        return Ok(None);
    };
    let bad = |message: String| format!("{}: {message}", path.display());
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let config: Config = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    match config.fmt.line_width {
        Some(0) => Err(bad("`[fmt] line-width` must be at least 1".to_string())),
        w => Ok(w.map(usize::from)),
    }
}
