//! LLVM FileCheck's command line, parsed the way LLVM's option library
//! parses it, so that command lines written for LLVM's FileCheck work
//! unchanged: long options with one or two dashes (`-check-prefix=X`,
//! `--check-prefix X`), `=value` or a separate value, booleans with an
//! optional `=true|false|1|0`, lists that accumulate (`-check-prefix`,
//! `-implicit-check-not`, `-D`), `-dump-input` / `-dump-input-filter` where
//! the value with the highest precedence wins, `-dump-input-context` where
//! the largest wins, and single-valued options that may be given only once.
//! [`tokenize`] splits the `FILECHECK_OPTS` environment variable.
//!
//! The one parser of these options: `pfir filecheck`, the language
//! server's tests on save and the editor's CHECK prefixes all use it.

use crate::{DumpInput, DumpInputFilter, FileCheckOptions};
use std::io::IsTerminal;

/// The program names under which a RUN line calls FileCheck: LLVM's and
/// the names pfir's checker answers to (`pfir filecheck` is a subcommand
/// of its own: [`command_args`]).
pub const PROGRAM_NAMES: [&str; 3] = ["FileCheck", "filecheck", "pfir-filecheck"];

/// Whether `program` is one of [`PROGRAM_NAMES`].
pub fn is_program_name(program: &str) -> bool {
    PROGRAM_NAMES.contains(&program)
}

/// FileCheck's arguments when the command `argv` (program name first) runs
/// FileCheck: `FileCheck ARGS` under one of [`PROGRAM_NAMES`], or `pfir
/// filecheck ARGS`; `None` for any other command.
pub fn command_args(argv: &[String]) -> Option<&[String]> {
    match argv {
        [program, args @ ..] if is_program_name(program) => Some(args),
        [pfir, sub, args @ ..] if pfir == "pfir" && sub == "filecheck" => Some(args),
        _ => None,
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub check_file: Option<String>,
    pub input_file: Option<String>,
    pub opts: FileCheckOptions,
    pub help: bool,
    pub version: bool,
}

/// A malformed command line (LLVM's wording, without the program name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Opt {
    CheckPrefix,
    CheckPrefixes,
    CommentPrefixes,
    InputFile,
    ImplicitCheckNot,
    DumpInput,
    DumpInputFilter,
    DumpInputContext,
    Bool(BoolOpt),
    Help,
    Version,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum BoolOpt {
    MatchFullLines,
    StrictWhitespace,
    IgnoreCase,
    AllowEmpty,
    AllowUnusedPrefixes,
    AllowDeprecatedDagOverlap,
    EnableVarScope,
    Color,
    V,
    Vv,
    RejectMisspelledSuffixes,
    CodespanReport,
}

fn lookup(name: &str) -> Option<Opt> {
    use BoolOpt as B;
    Some(match name {
        "check-prefix" => Opt::CheckPrefix,
        "check-prefixes" => Opt::CheckPrefixes,
        "comment-prefixes" => Opt::CommentPrefixes,
        "input-file" => Opt::InputFile,
        "implicit-check-not" => Opt::ImplicitCheckNot,
        "dump-input" => Opt::DumpInput,
        "dump-input-filter" => Opt::DumpInputFilter,
        "dump-input-context" => Opt::DumpInputContext,
        "match-full-lines" => Opt::Bool(B::MatchFullLines),
        "strict-whitespace" => Opt::Bool(B::StrictWhitespace),
        "ignore-case" => Opt::Bool(B::IgnoreCase),
        "allow-empty" => Opt::Bool(B::AllowEmpty),
        "allow-unused-prefixes" => Opt::Bool(B::AllowUnusedPrefixes),
        "allow-deprecated-dag-overlap" => Opt::Bool(B::AllowDeprecatedDagOverlap),
        "enable-var-scope" => Opt::Bool(B::EnableVarScope),
        "color" => Opt::Bool(B::Color),
        "v" => Opt::Bool(B::V),
        "vv" => Opt::Bool(B::Vv),
        // pfir's own options (not LLVM's).
        "reject-misspelled-suffixes" => Opt::Bool(B::RejectMisspelledSuffixes),
        "codespan-report" => Opt::Bool(B::CodespanReport),
        "h" | "help" | "help-hidden" | "help-list" | "help-list-hidden" => Opt::Help,
        "version" => Opt::Version,
        _ => return None,
    })
}

fn long_name(arg_name: &str) -> String {
    if arg_name.len() == 1 {
        format!("-{arg_name}")
    } else {
        format!("--{arg_name}")
    }
}

/// Splits `FILECHECK_OPTS` like a POSIX shell word list (LLVM's GNU
/// tokenizer): whitespace separates, quotes group, backslash escapes.
pub fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_token = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cur.extend(chars.next());
                in_token = true;
            }
            '\'' | '"' => {
                in_token = true;
                while let Some(q) = chars.next() {
                    if q == c {
                        break;
                    }
                    if q == '\\' && c == '"' {
                        cur.extend(chars.next());
                    } else {
                        cur.push(q);
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_token {
                    out.push(std::mem::take(&mut cur));
                    in_token = false;
                }
            }
            c => {
                cur.push(c);
                in_token = true;
            }
        }
    }
    if in_token {
        out.push(cur);
    }
    out
}

fn parse_bool(name: &str, v: &str) -> Result<bool, UsageError> {
    match v {
        "true" | "TRUE" | "True" | "1" => Ok(true),
        "false" | "FALSE" | "False" | "0" => Ok(false),
        _ => Err(UsageError(format!(
            "for the {} option: '{v}' is invalid value for boolean argument! Try 0 or 1",
            long_name(name)
        ))),
    }
}

/// The values of `--dump-input`.
const DUMP_INPUT: [(&str, DumpInput); 4] = {
    use DumpInput::*;
    [
        ("help", Help),
        ("always", Always),
        ("fail", Fail),
        ("never", Never),
    ]
};

/// The values of `--dump-input-filter`.
const DUMP_INPUT_FILTER: [(&str, DumpInputFilter); 4] = {
    use DumpInputFilter::*;
    [
        ("all", All),
        ("annotation-full", AnnotationFull),
        ("annotation", Annotation),
        ("error", Error),
    ]
};

/// The value `v` of `option` among `choices` (LLVM's message otherwise).
fn choice<T: Copy>(option: &str, v: &str, choices: &[(&str, T)]) -> Result<T, UsageError> {
    choices
        .iter()
        .find(|(name, _)| *name == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            UsageError(format!(
                "for the {option} option: Cannot find option named '{v}'!"
            ))
        })
}

/// Parses FileCheck's arguments (`FILECHECK_OPTS` words first).
pub fn parse_args(args: &[String]) -> Result<Parsed, UsageError> {
    parse_args_with_color(args, || std::io::stderr().is_terminal())
}

/// [`parse_args`], with the colour used when no `--color` is given decided
/// by `default_color` (an embedding program whose stderr is a buffer says
/// no).
pub fn parse_args_with_color(
    args: &[String],
    default_color: impl FnOnce() -> bool,
) -> Result<Parsed, UsageError> {
    let mut given = Given::default();
    let mut i = 0;
    let mut only_positional = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_positional || arg == "-" || !arg.starts_with('-') {
            given.positional.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_positional = true;
            continue;
        }
        let body = arg.strip_prefix("--").unwrap_or_else(|| &arg[1..]);
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let Some(opt) = lookup(name) else {
            // `-D` takes everything after the `D` as its value.
            if let Some(def) = body.strip_prefix('D') {
                if def.is_empty() {
                    return Err(UsageError("for the -D option: requires a value!".into()));
                }
                given.p.opts.defines.push(def.to_string());
                continue;
            }
            return Err(UsageError(format!(
                "Unknown command line argument '{arg}'.  Try: 'pfir filecheck --help'"
            )));
        };
        let value = || -> Result<String, UsageError> {
            if let Some(v) = inline {
                return Ok(v.to_string());
            }
            match args.get(i) {
                Some(v) => {
                    i += 1;
                    Ok(v.clone())
                }
                None => Err(UsageError(format!(
                    "for the {} option: requires a value!",
                    long_name(name)
                ))),
            }
        };
        given.apply(opt, name, inline, value)?;
    }
    given.settle(default_color)
}

/// What the options said so far, settled into a [`Parsed`] at the end
/// (where the last, the highest precedence or the largest value wins).
#[derive(Default)]
struct Given {
    p: Parsed,
    dump_inputs: Vec<DumpInput>,
    filters: Vec<DumpInputFilter>,
    contexts: Vec<usize>,
    color: Option<bool>,
    verbose: bool,
    very_verbose: bool,
    positional: Vec<String>,
}

impl Given {
    /// Applies `opt`, written as `name` (with `=inline` if given); `value`
    /// reads the value of an option that takes one.
    fn apply(
        &mut self,
        opt: Opt,
        name: &str,
        inline: Option<&str>,
        value: impl FnOnce() -> Result<String, UsageError>,
    ) -> Result<(), UsageError> {
        let o = &mut self.p.opts;
        match opt {
            Opt::CheckPrefix => o.check_prefixes.push(value()?),
            Opt::CheckPrefixes => o
                .check_prefixes
                .extend(value()?.split(',').map(String::from)),
            Opt::CommentPrefixes => o
                .comment_prefixes
                .get_or_insert_with(Vec::new)
                .extend(value()?.split(',').map(String::from)),
            Opt::ImplicitCheckNot => o.implicit_check_not.push(value()?),
            Opt::InputFile => {
                // As every option since LLVM 15: given again, the last wins.
                self.p.input_file = Some(value()?);
            }
            Opt::DumpInput => {
                let v = choice("--dump-input", &value()?, &DUMP_INPUT)?;
                self.dump_inputs.push(v);
            }
            Opt::DumpInputFilter => {
                let v = choice("--dump-input-filter", &value()?, &DUMP_INPUT_FILTER)?;
                self.filters.push(v);
            }
            Opt::DumpInputContext => {
                let v = value()?;
                let n = v.parse::<u32>().map_err(|_| {
                    UsageError(format!(
                        "for the --dump-input-context option: '{v}' value invalid for uint argument!"
                    ))
                })?;
                self.contexts.push(n as usize);
            }
            Opt::Bool(b) => {
                let v = match inline {
                    Some(v) => parse_bool(name, v)?,
                    None => true,
                };
                // Since LLVM 15 every option may be repeated; the last wins
                // (LLVM 14 accepted most booleans only once).
                match b {
                    BoolOpt::MatchFullLines => o.match_full_lines = v,
                    BoolOpt::StrictWhitespace => o.strict_whitespace = v,
                    BoolOpt::IgnoreCase => o.ignore_case = v,
                    BoolOpt::AllowEmpty => o.allow_empty = v,
                    BoolOpt::AllowUnusedPrefixes => o.allow_unused_prefixes = v,
                    BoolOpt::AllowDeprecatedDagOverlap => o.allow_deprecated_dag_overlap = v,
                    BoolOpt::EnableVarScope => o.enable_var_scope = v,
                    BoolOpt::Color => self.color = Some(v),
                    BoolOpt::V => self.verbose = v,
                    BoolOpt::Vv => self.very_verbose = v,
                    BoolOpt::RejectMisspelledSuffixes => o.reject_misspelled_suffixes = v,
                    BoolOpt::CodespanReport => {
                        o.report_style = if v {
                            crate::ReportStyle::Codespan
                        } else {
                            crate::ReportStyle::Llvm
                        }
                    }
                }
            }
            Opt::Help => self.p.help = true,
            Opt::Version => self.p.version = true,
        }
        Ok(())
    }

    /// The options as they stand after the whole command line.
    fn settle(mut self, default_color: impl FnOnce() -> bool) -> Result<Parsed, UsageError> {
        if self.positional.len() > 1 {
            return Err(UsageError(
                "Too many positional arguments specified!\nCan specify at most 1 positional \
                 arguments: See: pfir filecheck --help"
                    .into(),
            ));
        }
        let mut p = self.p;
        p.check_file = self.positional.pop();
        p.opts.verbose = if self.very_verbose {
            2
        } else {
            u8::from(self.verbose)
        };
        p.opts.dump_input = self.dump_inputs.into_iter().min().unwrap_or_default();
        p.opts.dump_input_filter = self.filters.into_iter().min();
        p.opts.dump_input_context = self.contexts.into_iter().max().unwrap_or(5);
        p.opts.color = self.color.unwrap_or_else(default_color);
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filecheck_commands_and_their_arguments() {
        let argv = |s: &str| -> Vec<String> { s.split(' ').map(String::from).collect() };
        for name in PROGRAM_NAMES {
            assert!(is_program_name(name));
            let v = argv(&format!("{name} %s --check-prefix=A"));
            assert_eq!(command_args(&v), Some(&v[1..]));
        }
        let v = argv("pfir filecheck %s -check-prefix A");
        assert_eq!(command_args(&v), Some(&v[2..]));
        assert_eq!(command_args(&argv("FileCheck")), Some(&[][..]));
        for other in [
            "pfir opt %s",
            "FileCheck-19 %s",
            "filecheck2 x",
            "pfir",
            "not FileCheck %s",
        ] {
            assert!(command_args(&argv(other)).is_none(), "{other}");
        }
        assert!(!is_program_name("pfir") && !is_program_name("Filecheck"));
    }

    fn parse(s: &str) -> Result<Parsed, UsageError> {
        parse_args(&tokenize(s))
    }

    fn err(s: &str) -> String {
        parse(s).unwrap_err().0
    }

    #[test]
    fn long_options_take_one_or_two_dashes_and_both_value_forms() {
        let p = parse("c -check-prefix=A --check-prefix B -check-prefixes=C,D --input-file in")
            .unwrap();
        assert_eq!(p.opts.check_prefixes, ["A", "B", "C", "D"]);
        assert_eq!(p.input_file.as_deref(), Some("in"));
        assert_eq!(p.check_file.as_deref(), Some("c"));
        let p = parse("-implicit-check-not foo -implicit-check-not=bar c").unwrap();
        assert_eq!(p.opts.implicit_check_not, ["foo", "bar"]);
        let p = parse("-comment-prefixes=X,Y --comment-prefixes Z c").unwrap();
        assert_eq!(p.opts.comment_prefixes.unwrap(), ["X", "Y", "Z"]);
    }

    #[test]
    fn booleans_take_values_and_may_occur_once() {
        let p = parse("c -match-full-lines=false --strict-whitespace=1 -ignore-case=TRUE").unwrap();
        assert!(!p.opts.match_full_lines && p.opts.strict_whitespace && p.opts.ignore_case);
        let p = parse("c --allow-empty -allow-unused-prefixes=true -enable-var-scope").unwrap();
        assert!(p.opts.allow_empty && p.opts.allow_unused_prefixes && p.opts.enable_var_scope);
        assert!(
            parse("c -allow-deprecated-dag-overlap")
                .unwrap()
                .opts
                .allow_deprecated_dag_overlap
        );
        assert_eq!(
            err("c -match-full-lines=yes"),
            "for the --match-full-lines option: 'yes' is invalid value for boolean argument! Try 0 or 1"
        );
        // Repeated, the last value wins (LLVM 15 and later).
        assert!(
            !parse("c -strict-whitespace --strict-whitespace=0")
                .unwrap()
                .opts
                .strict_whitespace
        );
        assert!(parse("c -color=0 -color").unwrap().opts.color);
        // A boolean never takes the next word: `true` is a second positional.
        assert!(err("c -match-full-lines true").starts_with("Too many positional"));
        assert_eq!(parse("c -v").unwrap().opts.verbose, 1);
        assert_eq!(parse("c -vv -v").unwrap().opts.verbose, 2);
        assert_eq!(parse("c -v -v=false").unwrap().opts.verbose, 0);
        // The three booleans LLVM lets repeat: the last value wins.
        let p = parse("c --allow-unused-prefixes=false --allow-unused-prefixes=true").unwrap();
        assert!(p.opts.allow_unused_prefixes);
        let p = parse("c --allow-unused-prefixes --allow-unused-prefixes=0").unwrap();
        assert!(!p.opts.allow_unused_prefixes);
        assert!(parse("c -color").unwrap().opts.color);
        assert!(!parse("c --color=false").unwrap().opts.color);
    }

    #[test]
    fn repeated_options_follow_llvm() {
        // -dump-input / -dump-input-filter: the earliest value in the help
        // text's list wins; -dump-input-context: the largest.
        let p = parse("c -dump-input=never -dump-input=fail --dump-input always").unwrap();
        assert_eq!(p.opts.dump_input, DumpInput::Always);
        let p = parse("c -dump-input-filter=error -dump-input-filter=annotation").unwrap();
        assert_eq!(p.opts.dump_input_filter, Some(DumpInputFilter::Annotation));
        let p =
            parse("c -dump-input-context=3 --dump-input-context 9 -dump-input-context=1").unwrap();
        assert_eq!(p.opts.dump_input_context, 9);
        assert_eq!(parse("c").unwrap().opts.dump_input_context, 5);
        let p = parse("c -input-file=a -input-file=b").unwrap();
        assert_eq!(p.input_file.as_deref(), Some("b"));
        assert_eq!(
            err("c -dump-input=bad"),
            "for the --dump-input option: Cannot find option named 'bad'!"
        );
        assert_eq!(
            err("c -dump-input-context=x"),
            "for the --dump-input-context option: 'x' value invalid for uint argument!"
        );
        assert_eq!(
            err("c -dump-input-filter=some"),
            "for the --dump-input-filter option: Cannot find option named 'some'!"
        );
    }

    #[test]
    fn defines_and_errors() {
        let p = parse("c -DX=1 -D#N=2 -D#%x,M=3 -D=1").unwrap();
        assert_eq!(p.opts.defines, ["X=1", "#N=2", "#%x,M=3", "=1"]);
        assert_eq!(err("c -D"), "for the -D option: requires a value!");
        assert_eq!(
            err("c -check-prefix"),
            "for the --check-prefix option: requires a value!"
        );
        assert!(err("c -foo").starts_with("Unknown command line argument '-foo'."));
        assert!(err("a b").starts_with("Too many positional arguments"));
        let p = parse("-- -c").unwrap();
        assert_eq!(p.check_file.as_deref(), Some("-c"));
        assert!(parse("-h").unwrap().help);
        assert!(parse("--help").unwrap().help);
        assert!(parse("-version").unwrap().version);
        assert_eq!(
            parse("-dump-input=help").unwrap().opts.dump_input,
            DumpInput::Help
        );
    }

    #[test]
    fn filecheck_opts_tokenizer() {
        assert_eq!(
            tokenize("  -a 'b c'  \"d\\\"e\" f\\ g "),
            ["-a", "b c", "d\"e", "f g"]
        );
        assert_eq!(
            tokenize("'-check-prefix=CH'\"ECK\""),
            ["-check-prefix=CHECK"]
        );
        assert!(tokenize("   ").is_empty());
    }
}
