//! The server's settings, as the client sends them in
//! `initializationOptions` and in `workspace/didChangeConfiguration`
//! (either the object itself or the object under a `pfir` key):
//!
//! ```json
//! { "diagnostics": { "onType": true }, "remarks": false, "testsOnSave": true }
//! ```
//!
//! A missing or mistyped field keeps its current value, so a client may
//! send only what changed.

use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Re-verify on every change (debounced); off: on open and save only.
    pub diagnostics_on_type: bool,
    /// Publish the pass's remarks as information diagnostics.
    pub remarks: bool,
    /// Run the file's RUN lines on save.
    pub tests_on_save: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            diagnostics_on_type: true,
            remarks: false,
            tests_on_save: true,
        }
    }
}

impl Settings {
    /// Applies what `value` sets (see the module doc) on top of `self`.
    pub fn update(&mut self, value: &Value) {
        let value = value.get("pfir").unwrap_or(value);
        let flag = |v: Option<&Value>| v.and_then(Value::as_bool);
        if let Some(b) = flag(value.pointer("/diagnostics/onType")) {
            self.diagnostics_on_type = b;
        }
        if let Some(b) = flag(value.get("remarks")) {
            self.remarks = b;
        }
        if let Some(b) = flag(value.get("testsOnSave")) {
            self.tests_on_save = b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_apply_alone_and_under_the_pfir_key() {
        let mut s = Settings::default();
        s.update(&json!({ "remarks": true }));
        assert!(s.remarks && s.diagnostics_on_type && s.tests_on_save);
        s.update(&json!({ "pfir": { "diagnostics": { "onType": false }, "testsOnSave": false } }));
        assert!(s.remarks && !s.diagnostics_on_type && !s.tests_on_save);
        // Mistyped values are ignored.
        s.update(&json!({ "remarks": "no" }));
        assert!(s.remarks);
    }
}
