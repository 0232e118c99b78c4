//! The server's settings, as the client sends them in
//! `initializationOptions` and in `workspace/didChangeConfiguration`
//! (either the object itself or the object under a `pfir` key):
//!
//! ```json
//! { "diagnostics": { "onType": true }, "remarks": false, "testsOnSave": true,
//!   "allowRunningCommands": false, "testTimeout": 10 }
//! ```
//!
//! A missing field keeps its current value, so a client may send only what
//! changed. Every value is validated: an unknown key (a misspelling) or a
//! value of the wrong type is reported back ([`Settings::update`] returns
//! the messages, which the server shows with `window/showMessage`) and
//! never enables anything: a setting that allows something falls back to
//! its safe value (`allowRunningCommands` and `testsOnSave` to off), the
//! others keep their current value. `docs/editors.md` documents each one.

use serde_json::Value;
use std::time::Duration;

/// The default [`Settings::test_timeout`].
pub const DEFAULT_TEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest `testTimeout` accepted, in seconds.
pub const MAX_TEST_TIMEOUT_SECS: f64 = 3600.0;

/// The keys the server knows, for messages.
const KNOWN: &str =
    "`diagnostics.onType`, `remarks`, `testsOnSave`, `allowRunningCommands`, `testTimeout`";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Re-verify on every change (debounced); off: on open and save only.
    pub diagnostics_on_type: bool,
    /// Publish the pass's remarks as information diagnostics.
    pub remarks: bool,
    /// Run the file's RUN lines on save (only what pfir runs itself unless
    /// [`Settings::allow_running_commands`]).
    pub tests_on_save: bool,
    /// Consent to run RUN-line programs other than pfir's own (`pfir`,
    /// FileCheck, `not`) and `lit.toml` substitutions, from any request
    /// (tests on save, `pfir/viewOutput`, "Update CHECK lines").
    pub allow_running_commands: bool,
    /// How long a RUN-line pipeline the server runs may take before its
    /// processes are killed.
    pub test_timeout: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            diagnostics_on_type: true,
            remarks: false,
            tests_on_save: true,
            allow_running_commands: false,
            test_timeout: DEFAULT_TEST_TIMEOUT,
        }
    }
}

fn describe(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(40).collect();
        format!("{cut}...")
    } else {
        text
    }
}

impl Settings {
    /// Applies what `value` sets (see the module doc) on top of `self`;
    /// returns a message for each key or value that was not accepted.
    pub fn update(&mut self, value: &Value) -> Vec<String> {
        let mut problems = Vec::new();
        let value = match value {
            // No settings at all (`initializationOptions: null`).
            Value::Null => return problems,
            Value::Object(map) => match map.get("pfir") {
                Some(inner @ Value::Object(_)) => inner,
                Some(Value::Null) => return problems,
                Some(other) => {
                    problems.push(format!(
                        "setting `pfir` must be an object, not {}; ignored",
                        describe(other)
                    ));
                    return problems;
                }
                None => value,
            },
            other => {
                problems.push(format!(
                    "settings must be a JSON object, not {}; ignored",
                    describe(other)
                ));
                return problems;
            }
        };
        let Value::Object(map) = value else {
            return problems;
        };
        for (key, v) in map {
            match key.as_str() {
                "diagnostics" => match v {
                    Value::Object(d) => {
                        for (sub, v) in d {
                            if sub == "onType" {
                                bool_setting(
                                    "diagnostics.onType",
                                    v,
                                    &mut self.diagnostics_on_type,
                                    None,
                                    &mut problems,
                                );
                            } else {
                                problems.push(format!(
                                    "unknown setting `diagnostics.{sub}` (known: {KNOWN}); ignored"
                                ));
                            }
                        }
                    }
                    other => problems.push(format!(
                        "setting `diagnostics` must be an object such as {{\"onType\": true}}, not {}; ignored",
                        describe(other)
                    )),
                },
                "remarks" => bool_setting("remarks", v, &mut self.remarks, None, &mut problems),
                "testsOnSave" => bool_setting(
                    "testsOnSave",
                    v,
                    &mut self.tests_on_save,
                    Some("tests on save are off"),
                    &mut problems,
                ),
                "allowRunningCommands" => bool_setting(
                    "allowRunningCommands",
                    v,
                    &mut self.allow_running_commands,
                    Some("running commands stays disallowed"),
                    &mut problems,
                ),
                "testTimeout" => match v.as_f64() {
                    Some(secs) if secs > 0.0 && secs <= MAX_TEST_TIMEOUT_SECS => {
                        self.test_timeout = Duration::from_secs_f64(secs);
                    }
                    _ => problems.push(format!(
                        "setting `testTimeout` must be a number of seconds above 0 and at most {MAX_TEST_TIMEOUT_SECS}, not {}; it stays {}s",
                        describe(v),
                        self.test_timeout.as_secs_f64()
                    )),
                },
                other => problems.push(format!(
                    "unknown setting `{other}` (known: {KNOWN}); ignored"
                )),
            }
        }
        problems
    }
}

/// Sets `target` from a JSON boolean; anything else is reported, and sets
/// `target` to false when `safe` says so (a setting that allows something),
/// or leaves it as it is.
fn bool_setting(
    name: &str,
    v: &Value,
    target: &mut bool,
    safe: Option<&str>,
    problems: &mut Vec<String>,
) {
    match v {
        Value::Bool(b) => *target = *b,
        other => {
            let outcome = match safe {
                Some(what) => {
                    *target = false;
                    what.to_string()
                }
                None => format!("it stays {target}"),
            };
            problems.push(format!(
                "setting `{name}` must be true or false, not {}; {outcome}",
                describe(other)
            ));
        }
    }
}

/// Shows each of `problems` to the user (`window/showMessage`, warning).
pub fn report(out: &crossbeam_channel::Sender<lsp_server::Message>, problems: &[String]) {
    for problem in problems {
        let params = lsp_types::ShowMessageParams {
            typ: lsp_types::MessageType::WARNING,
            message: format!("pfir: settings: {problem}"),
        };
        let n = lsp_server::Notification::new("window/showMessage".to_string(), params);
        let _ = out.send(n.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_apply_alone_and_under_the_pfir_key() {
        let mut s = Settings::default();
        assert!(s.update(&json!({ "remarks": true })).is_empty());
        assert!(s.remarks && s.diagnostics_on_type && s.tests_on_save);
        let problems = s.update(
            &json!({ "pfir": { "diagnostics": { "onType": false }, "testsOnSave": false, "testTimeout": 2.5 } }),
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert!(s.remarks && !s.diagnostics_on_type && !s.tests_on_save);
        assert_eq!(s.test_timeout, Duration::from_millis(2500));
        // A mistyped harmless value is reported and keeps its value.
        let problems = s.update(&json!({ "remarks": "no" }));
        assert!(s.remarks);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("`remarks` must be true or false, not \"no\""));
    }

    #[test]
    fn running_commands_is_off_by_default_and_fails_closed() {
        assert!(!Settings::default().allow_running_commands);
        for bad in [json!("true"), json!(1), json!(null), json!("on"), json!({})] {
            let mut s = Settings {
                allow_running_commands: true,
                tests_on_save: true,
                ..Settings::default()
            };
            let problems = s.update(&json!({ "allowRunningCommands": bad, "testsOnSave": bad }));
            assert!(!s.allow_running_commands, "{bad}");
            assert!(!s.tests_on_save, "{bad}");
            assert_eq!(problems.len(), 2, "{problems:?}");
        }
        let mut s = Settings::default();
        assert!(
            s.update(&json!({ "allowRunningCommands": true }))
                .is_empty()
        );
        assert!(s.allow_running_commands);
    }

    #[test]
    fn unknown_keys_and_bad_shapes_are_reported_and_enable_nothing() {
        let mut s = Settings::default();
        let problems = s.update(&json!({
            "allowRunningCommand": true,
            "pfir.allowRunningCommands": true,
            "diagnostics": { "onTyp": false },
        }));
        assert_eq!(s, Settings::default());
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("unknown setting `allowRunningCommand`"));
        for bad in [json!(5), json!("x"), json!([true])] {
            assert_eq!(s.update(&bad).len(), 1);
            assert_eq!(s.update(&json!({ "pfir": bad })).len(), 1);
        }
        assert!(s.update(&Value::Null).is_empty());
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn test_timeout_must_be_a_positive_bounded_number() {
        let mut s = Settings::default();
        for bad in [json!(0), json!(-1), json!("10"), json!(1e9), json!(null)] {
            assert_eq!(s.update(&json!({ "testTimeout": bad })).len(), 1, "{bad}");
            assert_eq!(s.test_timeout, DEFAULT_TEST_TIMEOUT);
        }
        assert!(s.update(&json!({ "testTimeout": 30 })).is_empty());
        assert_eq!(s.test_timeout, Duration::from_secs(30));
    }
}
