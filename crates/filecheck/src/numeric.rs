//! Numeric substitution blocks `[[#...]]`, as in LLVM's FileCheck manual:
//! `[[#%<fmt>,<NAME>: <constraint> <expr>]]` with every part optional.
//!
//! - Formats: `%u` (default), `%d`, `%x`, `%X`, with a precision (`%.8X`:
//!   at least 8 digits, zero-padded) and the alternate form `%#x` (`0x`).
//! - Expressions: decimal or `0x` literals (a literal may be negative),
//!   variables, `@LINE`, parentheses, `+` and `-`, and the functions
//!   `add sub mul div min max`.
//! - Values are integers of any size, as in LLVM 17 and later (LLVM 14
//!   kept them in -2^63 ..= 2^64-1); dividing by zero, or printing a
//!   negative value in an unsigned or hex format, is an "overflow error"
//!   when the block is substituted. So that no input makes pfir run for
//!   hours, a value is limited to [`MAX_BITS`] bits (about 19,700 decimal
//!   digits): beyond it, an overflow error too, and a matched value that
//!   long is "unable to represent numeric value".
//! - An expression without an explicit format takes its variables' format
//!   (implicit format inference); two different formats are an error.
//!
//! Parsing reports LLVM's messages with an offset into the block text.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::collections::HashMap;
use std::fmt;

/// A numeric value.
pub(crate) type Num = BigInt;

/// The most bits a value may have (its magnitude), see the module docs.
pub(crate) const MAX_BITS: u64 = 1 << 16;

fn representable(v: &Num) -> bool {
    v.bits() <= MAX_BITS
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Radix {
    Unsigned,
    Signed,
    HexLower,
    HexUpper,
}

/// A numeric format: `%u`, `%.3d`, `%#x`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    pub radix: Radix,
    pub precision: usize,
    pub alt: bool,
}

impl Format {
    pub const UNSIGNED: Format = Format {
        radix: Radix::Unsigned,
        precision: 0,
        alt: false,
    };

    /// The regex matching any value of this format (LLVM's wildcard).
    pub fn wildcard(&self) -> String {
        let (sign, first, digits) = match self.radix {
            Radix::Unsigned => ("", "[1-9]", "[0-9]"),
            Radix::Signed => ("-?", "[1-9]", "[0-9]"),
            Radix::HexLower => ("", "[1-9a-f]", "[0-9a-f]"),
            Radix::HexUpper => ("", "[1-9A-F]", "[0-9A-F]"),
        };
        let prefix = if self.alt { "0x" } else { "" };
        if self.precision > 0 {
            format!(
                "{sign}{prefix}(?:{first}{digits}*)?{digits}{{{}}}",
                self.precision
            )
        } else {
            format!("{sign}{prefix}{digits}+")
        }
    }

    /// `value` as this format prints it; `None` when it cannot be printed
    /// (a negative value in an unsigned format, or out of range).
    pub fn print(&self, value: &Num) -> Option<String> {
        let neg = value.is_negative();
        if neg && self.radix != Radix::Signed {
            return None;
        }
        let abs = value.abs();
        let digits = match self.radix {
            Radix::Unsigned | Radix::Signed => abs.to_str_radix(10),
            Radix::HexLower => abs.to_str_radix(16),
            Radix::HexUpper => abs.to_str_radix(16).to_ascii_uppercase(),
        };
        let pad = self.precision.saturating_sub(digits.len());
        let mut s = String::new();
        if neg {
            s.push('-');
        }
        if self.alt {
            s.push_str("0x");
        }
        s.extend(std::iter::repeat_n('0', pad));
        s.push_str(&digits);
        Some(s)
    }

    /// Parses text matched by [`Format::wildcard`].
    pub fn parse(&self, text: &str) -> Option<Num> {
        let (neg, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let rest = if self.alt {
            rest.strip_prefix("0x").unwrap_or(rest)
        } else {
            rest
        };
        let radix = match self.radix {
            Radix::Unsigned | Radix::Signed => 10,
            Radix::HexLower | Radix::HexUpper => 16,
        };
        // More digits than MAX_BITS can hold: refused before any work.
        let bits_per_digit = if radix == 16 { 4 } else { 3 };
        if rest.is_empty() || (rest.len() as u64 - 1) * bits_per_digit > MAX_BITS {
            return None;
        }
        let v = BigInt::parse_bytes(rest.as_bytes(), radix)?;
        let v = if neg { -v } else { v };
        representable(&v).then_some(v)
    }
}

impl Format {
    /// The conversion alone (`%x`), as LLVM names a format in messages.
    fn conversion(&self) -> &'static str {
        match self.radix {
            Radix::Unsigned => "%u",
            Radix::Signed => "%d",
            Radix::HexLower => "%x",
            Radix::HexUpper => "%X",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("%")?;
        if self.alt {
            f.write_str("#")?;
        }
        if self.precision > 0 {
            write!(f, ".{}", self.precision)?;
        }
        f.write_str(match self.radix {
            Radix::Unsigned => "u",
            Radix::Signed => "d",
            Radix::HexLower => "x",
            Radix::HexUpper => "X",
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
}

/// A numeric expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    Lit(Num),
    Var(String),
    Bin(Op, Box<Expr>, Box<Expr>),
}

/// Why an expression could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EvalError {
    Undefined(Vec<String>),
    Overflow,
}

fn check(v: Num) -> Result<Num, EvalError> {
    if representable(&v) {
        Ok(v)
    } else {
        Err(EvalError::Overflow)
    }
}

impl Expr {
    /// Evaluates with the numeric variables `nums`.
    pub fn eval(&self, nums: &HashMap<String, Num>) -> Result<Num, EvalError> {
        let mut undefined = Vec::new();
        self.undefined(nums, &mut undefined);
        if !undefined.is_empty() {
            return Err(EvalError::Undefined(undefined));
        }
        self.eval_defined(nums)
    }

    fn undefined(&self, nums: &HashMap<String, Num>, out: &mut Vec<String>) {
        match self {
            Expr::Lit(_) => {}
            Expr::Var(v) => {
                if !nums.contains_key(v) && !out.contains(v) {
                    out.push(v.clone());
                }
            }
            Expr::Bin(_, a, b) => {
                a.undefined(nums, out);
                b.undefined(nums, out);
            }
        }
    }

    fn eval_defined(&self, nums: &HashMap<String, Num>) -> Result<Num, EvalError> {
        match self {
            Expr::Lit(v) => Ok(v.clone()),
            Expr::Var(v) => Ok(nums[v].clone()),
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval_defined(nums)?, b.eval_defined(nums)?);
                check(match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    // Both are at most MAX_BITS: the product at most twice.
                    Op::Mul => a * b,
                    Op::Div if b.is_zero() => return Err(EvalError::Overflow),
                    // Truncating towards zero, as LLVM's `sdiv`.
                    Op::Div => a / b,
                    Op::Min => a.min(b),
                    Op::Max => a.max(b),
                })
            }
        }
    }
}

/// What a name denotes while the check file is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VarKind {
    Str,
    /// A numeric variable and its format (when known).
    Num(Option<Format>),
}

/// Every variable name seen so far (command line first, then the check
/// file in order); string and numeric variables share one namespace.
pub(crate) type VarTable = HashMap<String, VarKind>;

/// A parsed `[[#...]]` block.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// The variable it defines.
    pub def: Option<String>,
    /// The expression (the constraint, for a definition).
    pub expr: Option<Expr>,
    /// The effective format (explicit, implied, or `%u`).
    pub format: Format,
}

/// A parse error: offset into the block text, message.
pub(crate) type BlockError = (usize, String);

struct P<'a> {
    s: &'a str,
    pos: usize,
    line: usize,
    table: &'a VarTable,
    /// Variables defined earlier in the same directive.
    same_line: &'a [String],
    /// The implicit format of the operand or expression parsed last
    /// (LLVM's `getImplicitFormat`: a variable's, or its operands' where
    /// they agree; a literal has none).
    implied: Option<Format>,
    conflict: Option<BlockError>,
    /// Operands parsed so far (bounded, so that evaluation and dropping
    /// the tree cannot exhaust the stack).
    operands: usize,
    /// Parentheses and calls currently open.
    depth: usize,
}

/// The deepest nesting of parentheses and calls in one numeric block.
pub(crate) const MAX_NESTING: usize = 64;

/// The most operands one numeric block may hold.
pub(crate) const MAX_OPERANDS: usize = 1000;

/// The largest precision a format may ask for.
pub(crate) const MAX_PRECISION: usize = 4096;

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl P<'_> {
    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    fn ws(&mut self) {
        let n = self.rest().len() - self.rest().trim_start().len();
        self.pos += n;
    }

    fn err<T>(&self, at: usize, m: impl Into<String>) -> Result<T, BlockError> {
        Err((at, m.into()))
    }

    /// A name (with an optional `$`), returned with its start.
    fn name(&mut self) -> Option<(usize, String)> {
        let start = self.pos;
        let b = self.rest().as_bytes();
        let mut i = usize::from(b.first() == Some(&b'$'));
        if !b.get(i).copied().is_some_and(is_name_start) {
            return None;
        }
        while b.get(i).copied().is_some_and(is_name) {
            i += 1;
        }
        let n = self.rest()[..i].to_string();
        self.pos += i;
        Some((start, n))
    }

    fn expr(&mut self) -> Result<Expr, BlockError> {
        self.ws();
        let start = self.pos;
        let mut lhs = self.operand()?;
        let mut lhs_end = self.pos;
        let mut format = self.implied;
        loop {
            self.ws();
            let Some(c) = self.rest().chars().next() else {
                self.implied = format;
                return Ok(lhs);
            };
            if c == ')' || c == ',' {
                self.implied = format;
                return Ok(lhs);
            }
            let op = match c {
                '+' => Op::Add,
                '-' => Op::Sub,
                _ => return self.err(self.pos, format!("unsupported operation '{c}'")),
            };
            self.pos += 1;
            self.ws();
            if self.rest().is_empty() {
                return self.err(self.pos, "missing operand in expression");
            }
            let rhs_start = self.pos;
            let rhs = self.operand()?;
            format = self.join(
                start,
                (start..lhs_end, format),
                (rhs_start..self.pos, self.implied),
            );
            lhs_end = self.pos;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
    }

    /// The implicit format of a binary operation whose text starts at
    /// `at`, from its operands' (text, format): LLVM's rule, and its error,
    /// located at the operation and naming both operands, when they differ.
    fn join(
        &mut self,
        at: usize,
        (lhs, f): (std::ops::Range<usize>, Option<Format>),
        (rhs, g): (std::ops::Range<usize>, Option<Format>),
    ) -> Option<Format> {
        match (f, g) {
            (Some(f), Some(g)) if f != g => {
                if self.conflict.is_none() {
                    let (l, r) = (self.s[lhs].trim_end(), self.s[rhs].trim_end());
                    let (f, g) = (f.conversion(), g.conversion());
                    self.conflict = Some((
                        at,
                        format!(
                            "implicit format conflict between '{l}' ({f}) and '{r}' ({g}), \
                             need an explicit format specifier"
                        ),
                    ));
                }
                Some(f)
            }
            (Some(f), _) => Some(f),
            (None, g) => g,
        }
    }

    fn operand(&mut self) -> Result<Expr, BlockError> {
        self.ws();
        let start = self.pos;
        self.operands += 1;
        if self.operands > MAX_OPERANDS {
            return self.err(
                start,
                format!("numeric expression has more than {MAX_OPERANDS} operands"),
            );
        }
        if self.rest().starts_with('(') {
            self.pos += 1;
            self.nest(start)?;
            let e = self.expr()?;
            self.depth -= 1;
            self.ws();
            if !self.rest().starts_with(')') {
                return self.err(self.pos, "missing ')' at end of nested expression");
            }
            self.pos += 1;
            return Ok(e);
        }
        if let Some(r) = self.rest().strip_prefix('@') {
            let n = r.bytes().take_while(|b| is_name(*b)).count();
            let name = &r[..n];
            if name != "LINE" {
                return self.err(start, format!("invalid pseudo numeric variable '@{name}'"));
            }
            self.pos += 1 + n;
            self.implied = None;
            return Ok(Expr::Lit(Num::from(self.line)));
        }
        if let Some((at, name)) = self.name() {
            let save = self.pos;
            self.ws();
            if self.rest().starts_with('(') && !name.starts_with('$') {
                return self.call(at, &name);
            }
            self.pos = save;
            if self.same_line.contains(&name) {
                return self.err(
                    at,
                    format!(
                        "numeric variable '{name}' defined earlier in the same CHECK directive"
                    ),
                );
            }
            self.implied = match self.table.get(&name) {
                Some(VarKind::Num(Some(f))) => Some(*f),
                _ => None,
            };
            return Ok(Expr::Var(name));
        }
        // A literal: decimal or 0x hex, optionally negative.
        let r = self.rest();
        let (neg, body) = match r.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, r),
        };
        // LLVM's radix auto-sensing: 0x hex, 0b binary, 0o or a leading 0 octal.
        let bb = body.as_bytes();
        let (radix, digits_at) = match (bb.first(), bb.get(1).map(u8::to_ascii_lowercase)) {
            (Some(b'0'), Some(b'x')) => (16, 2),
            (Some(b'0'), Some(b'b')) => (2, 2),
            (Some(b'0'), Some(b'o')) => (8, 2),
            (Some(b'0'), Some(d)) if d.is_ascii_digit() => (8, 1),
            _ => (10, 0),
        };
        let n = body[digits_at..]
            .bytes()
            .take_while(|b| (*b as char).is_digit(radix))
            .count();
        let bad = || self.err(start, "invalid matching constraint or operand format");
        if n == 0 {
            return bad();
        }
        // Any size, as LLVM 17 and later; bounded like every value.
        let digits = &body[digits_at..digits_at + n];
        // Each digit after the first adds at least this many bits: a
        // literal too long is refused before it is converted.
        let min_bits_per_digit = match radix {
            2 => 1,
            16 => 4,
            _ => 3,
        };
        let v = ((n as u64 - 1) * min_bits_per_digit <= MAX_BITS)
            .then(|| BigInt::parse_bytes(digits.as_bytes(), radix))
            .flatten()
            .filter(representable);
        let Some(v) = v else {
            return self.err(start, "unable to represent numeric value");
        };
        let v = if neg { -v } else { v };
        self.pos += usize::from(neg) + digits_at + n;
        self.implied = None;
        Ok(Expr::Lit(v))
    }

    fn call(&mut self, at: usize, name: &str) -> Result<Expr, BlockError> {
        let op = match name {
            "add" => Op::Add,
            "sub" => Op::Sub,
            "mul" => Op::Mul,
            "div" => Op::Div,
            "min" => Op::Min,
            "max" => Op::Max,
            _ => return self.err(at, format!("call to undefined function '{name}'")),
        };
        self.pos += 1; // '('
        self.nest(at)?;
        let mut args = Vec::new();
        let mut formats = Vec::new();
        self.ws();
        if !self.rest().starts_with(')') {
            loop {
                self.ws();
                // An empty argument (`add(,1)`, `add(1,)`): LLVM's message.
                if self.rest().starts_with(',')
                    || (!args.is_empty() && self.rest().starts_with(')'))
                {
                    return self.err(self.pos, "missing argument");
                }
                let arg_start = self.pos;
                args.push(self.expr()?);
                formats.push((arg_start..self.pos, self.implied));
                self.ws();
                if self.rest().starts_with(',') {
                    self.pos += 1;
                    continue;
                }
                break;
            }
        }
        if !self.rest().starts_with(')') {
            return self.err(self.pos, "missing ')' at end of call expression");
        }
        self.pos += 1;
        self.depth -= 1;
        if args.len() != 2 {
            return self.err(
                at,
                format!(
                    "function '{name}' takes 2 arguments but {} given",
                    args.len()
                ),
            );
        }
        let g = formats.pop().expect("two");
        let f = formats.pop().expect("two");
        self.implied = self.join(at, f, g);
        let b = args.pop().expect("two");
        let a = args.pop().expect("two");
        Ok(Expr::Bin(op, Box::new(a), Box::new(b)))
    }

    fn nest(&mut self, at: usize) -> Result<(), BlockError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.err(
                at,
                format!("numeric expression nested deeper than {MAX_NESTING} levels"),
            );
        }
        Ok(())
    }
}

/// Parses a format specifier (`%u`, `%.8X`, `%#x`).
fn parse_format(spec: &str) -> Result<Format, (usize, String)> {
    let bad = |o: usize| Err((o, "invalid format specifier in expression".to_string()));
    let mut s = spec.trim_end();
    let Some(r) = s.strip_prefix('%') else {
        return bad(0);
    };
    s = r;
    let alt = s.starts_with('#');
    if alt {
        s = &s[1..];
    }
    let mut precision = 0;
    if let Some(r) = s.strip_prefix('.') {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        let Ok(p) = r[..n].parse::<usize>() else {
            return Err((
                spec.len() - s.len(),
                "invalid precision in format specifier".into(),
            ));
        };
        if p > MAX_PRECISION {
            return Err((
                spec.len() - s.len(),
                format!("precision larger than {MAX_PRECISION} in format specifier"),
            ));
        }
        precision = p;
        s = &r[n..];
    }
    let radix = match s {
        // `%.8,` and `%,`: the conversion defaults to unsigned.
        "" | "u" => Radix::Unsigned,
        "d" => Radix::Signed,
        "x" => Radix::HexLower,
        "X" => Radix::HexUpper,
        _ => return bad(spec.len() - s.len()),
    };
    if alt && !matches!(radix, Radix::HexLower | Radix::HexUpper) {
        // At the `#`, as LLVM locates it.
        return Err((1, "alternate form only supported for hex values".into()));
    }
    Ok(Format {
        radix,
        precision,
        alt,
    })
}

/// Parses the text of a `[[#...]]` block (without `#`). `same_line` holds
/// the numeric variables defined earlier in the same directive.
pub(crate) fn parse_block(
    text: &str,
    line: usize,
    table: &VarTable,
    same_line: &[String],
) -> Result<Block, BlockError> {
    let mut explicit = None;
    let mut body_at = 0;
    let lead = text.len() - text.trim_start().len();
    // LLVM: a `,` before any `(` ends a format specifier, which must
    // start with `%`.
    let comma = text
        .find(',')
        .filter(|&c| text.find('(').is_none_or(|p| c < p));
    if let Some(comma) = comma.filter(|&c| !text[lead.min(c)..c].starts_with('%')) {
        return Err((
            lead.min(comma),
            "invalid matching format specification in expression".into(),
        ));
    }
    if text[lead..].starts_with('%') {
        let Some(comma) = comma else {
            // LLVM parses a definition's name first.
            let message = if text.contains(':') {
                "invalid variable name"
            } else {
                "invalid matching constraint or operand format"
            };
            return Err((lead, message.into()));
        };
        explicit = Some(parse_format(&text[lead..comma]).map_err(|(o, m)| (lead + o, m))?);
        body_at = comma + 1;
    }
    let mut p = P {
        s: text,
        pos: body_at,
        line,
        table,
        same_line,
        implied: None,
        conflict: None,
        operands: 0,
        depth: 0,
    };
    // A definition `NAME:` (the colon must follow the name).
    let mut def = None;
    if let Some(colon) = text[body_at..].find(':').map(|c| body_at + c) {
        p.ws();
        let at = p.pos;
        if p.rest().starts_with('@') {
            return Err((
                at,
                "definition of pseudo numeric variable unsupported".into(),
            ));
        }
        let Some((_, name)) = p.name() else {
            return Err((at, "invalid variable name".into()));
        };
        p.ws();
        if p.pos != colon {
            return Err((
                p.pos,
                "unexpected characters after numeric variable name".into(),
            ));
        }
        p.pos = colon + 1;
        def = Some(name);
    }
    p.ws();
    // The matching constraint: `==` is the only one.
    let constraint = p.rest().starts_with("==");
    if constraint {
        p.pos += 2;
        p.ws();
    }
    let expr = if p.rest().is_empty() {
        if constraint {
            return Err((
                p.pos,
                "empty numeric expression should not have a constraint".into(),
            ));
        }
        None
    } else {
        let e = p.expr()?;
        p.ws();
        if let Some(c) = p.rest().chars().next() {
            return Err((p.pos, format!("unsupported operation '{c}'")));
        }
        Some(e)
    };
    if explicit.is_none()
        && let Some(c) = p.conflict
    {
        return Err(c);
    }
    let format = explicit
        .or(expr.as_ref().and(p.implied))
        .unwrap_or(Format::UNSIGNED);
    Ok(Block { def, expr, format })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(s: &str) -> Result<Block, BlockError> {
        let mut t = VarTable::new();
        t.insert("H".into(), VarKind::Num(Some(parse_format("%x").unwrap())));
        t.insert("D".into(), VarKind::Num(Some(parse_format("%d").unwrap())));
        parse_block(s, 7, &t, &[])
    }

    fn val(s: &str) -> Result<i128, EvalError> {
        let nums = HashMap::from([
            ("H".to_string(), Num::from(255)),
            ("D".to_string(), Num::from(-3)),
        ]);
        let v = block(s).unwrap().expr.unwrap().eval(&nums)?;
        Ok(i128::try_from(v).expect("small in these tests"))
    }

    fn big(s: &str) -> Num {
        Num::parse_bytes(s.as_bytes(), 10).unwrap()
    }

    #[test]
    fn formats_print_parse_and_match() {
        let f = parse_format("%.4X").unwrap();
        assert_eq!(f.print(&Num::from(255)).unwrap(), "00FF");
        assert_eq!(f.print(&Num::from(0x12345)).unwrap(), "12345");
        assert_eq!(f.parse("00FF"), Some(Num::from(255)));
        assert_eq!(f.wildcard(), "(?:[1-9A-F][0-9A-F]*)?[0-9A-F]{4}");
        let d = parse_format("%.3d").unwrap();
        assert_eq!(d.print(&Num::from(-3)).unwrap(), "-003");
        assert_eq!(Format::UNSIGNED.print(&Num::from(-1)), None);
        assert_eq!(parse_format("%x").unwrap().print(&Num::from(-1)), None);
        assert_eq!(
            parse_format("%#x").unwrap().print(&Num::from(255)).unwrap(),
            "0xff"
        );
        assert_eq!(
            parse_format("%#u").unwrap_err(),
            (
                1,
                "alternate form only supported for hex values".to_string()
            )
        );
        // Any size, as LLVM 17 and later.
        assert_eq!(
            Format::UNSIGNED.parse("18446744073709551616"),
            Some(big("18446744073709551616"))
        );
        assert_eq!(
            parse_format("%d").unwrap().parse("-18446744073709551616"),
            Some(-big("18446744073709551616"))
        );
        assert_eq!(
            parse_format("%X")
                .unwrap()
                .print(&big("18446744073709551616"))
                .unwrap(),
            "10000000000000000"
        );
        // Up to MAX_BITS bits.
        let most = "9".repeat(19_000);
        assert!(Format::UNSIGNED.parse(&most).is_some());
        assert_eq!(Format::UNSIGNED.parse(&"9".repeat(20_000)), None);
        assert_eq!(Format::UNSIGNED.parse(&"9".repeat(10_000_000)), None);
        assert!(parse_format("%#u").is_err());
        assert!(parse_format("%z").is_err());
        assert_eq!(parse_format("%X").unwrap().to_string(), "%X");
    }

    #[test]
    fn expressions() {
        assert_eq!(val("H+1"), Ok(256));
        assert_eq!(val(" ( H - 5 ) "), Ok(250));
        assert_eq!(val("add(1,2)"), Ok(3));
        assert_eq!(val("sub (1, 2)"), Ok(-1));
        assert_eq!(val("mul(3,4)"), Ok(12));
        assert_eq!(val("div(7,2)"), Ok(3));
        assert_eq!(val("min(D,4)"), Ok(-3));
        assert_eq!(val("max(D,4)"), Ok(4));
        assert_eq!(val("@LINE+1"), Ok(8));
        assert_eq!(val("0xff"), Ok(255));
        assert_eq!(val("010"), Ok(8));
        assert_eq!(val("0b101"), Ok(5));
        assert_eq!(val("0"), Ok(0));
        assert_eq!(val("div(1,0)"), Err(EvalError::Overflow));
        assert_eq!(val("18446744073709551615+1"), Ok(18446744073709551616));
        assert_eq!(val("mul(4294967296,4294967296)"), Ok(18446744073709551616));
        assert_eq!(val("div(-7,2)"), Ok(-3));
        assert_eq!(
            val("-0x8000000000000000-0x8000000000000000"),
            Ok(-(1 << 64))
        );
        // Past MAX_BITS: an overflow, however it is reached.
        let huge = format!("0x{}", "f".repeat(5000));
        let square = format!("mul({huge},{huge})");
        let e = block(&format!("mul({square},{square})"))
            .unwrap()
            .expr
            .unwrap();
        assert_eq!(e.eval(&HashMap::new()), Err(EvalError::Overflow));
        assert_eq!(
            block("X+Y").unwrap().expr.unwrap().eval(&HashMap::new()),
            Err(EvalError::Undefined(vec!["X".into(), "Y".into()]))
        );
    }

    #[test]
    fn definitions_and_implicit_formats() {
        let b = block("%x,N:").unwrap();
        assert_eq!(b.def.as_deref(), Some("N"));
        assert_eq!(b.format.to_string(), "%x");
        let b = block(" M : == H + 1 ").unwrap();
        assert_eq!(b.def.as_deref(), Some("M"));
        assert_eq!(b.format.to_string(), "%x");
        assert!(block("").unwrap().expr.is_none());
        assert_eq!(block("==H").unwrap().format.to_string(), "%x");
        assert_eq!(block(" == H ").unwrap().expr, Some(Expr::Var("H".into())));
        assert_eq!(block("%.8,N:").unwrap().format.to_string(), "%.8u");
        assert_eq!(block("%,N:").unwrap().format.to_string(), "%u");
        assert_eq!(block("%u,H+D").unwrap().format.to_string(), "%u");
        let err = |s: &str| block(s).unwrap_err().1;
        assert_eq!(
            err("H+D"),
            "implicit format conflict between 'H' (%x) and 'D' (%d), need an explicit format specifier"
        );
        // As LLVM: at the operation's start, naming its operands' text.
        assert_eq!(
            block(" H + H2 + D").unwrap_err(),
            (
                1,
                "implicit format conflict between 'H + H2' (%x) and 'D' (%d), need an explicit format specifier"
                    .to_string()
            )
        );
        assert_eq!(block("1 + H + 2").unwrap().format.to_string(), "%x");
        // Formats are named by their conversion, precision aside (LLVM).
        let mut t = VarTable::new();
        t.insert(
            "A".into(),
            VarKind::Num(Some(parse_format("%.2x").unwrap())),
        );
        t.insert(
            "B".into(),
            VarKind::Num(Some(parse_format("%.3x").unwrap())),
        );
        assert_eq!(
            parse_block("A + B", 1, &t, &[]).unwrap_err().1,
            "implicit format conflict between 'A' (%x) and 'B' (%x), need an explicit format specifier"
        );
        assert_eq!(
            block("1 + add(H, D)").unwrap_err(),
            (
                4,
                "implicit format conflict between 'H' (%x) and 'D' (%d), need an explicit format specifier"
                    .to_string()
            )
        );
        assert_eq!(err("N*2"), "unsupported operation '*'");
        assert_eq!(err("N-"), "missing operand in expression");
        assert_eq!(err("-N"), "invalid matching constraint or operand format");
        assert_eq!(err("foo(1)"), "call to undefined function 'foo'");
        assert_eq!(
            err("add(1)"),
            "function 'add' takes 2 arguments but 1 given"
        );
        assert_eq!(err("add(1,2"), "missing ')' at end of call expression");
        assert_eq!(
            block("add(1, )").unwrap_err(),
            (7, "missing argument".to_string())
        );
        assert_eq!(
            block("add(,1)").unwrap_err(),
            (4, "missing argument".to_string())
        );
        assert_eq!(
            err("@LINE:"),
            "definition of pseudo numeric variable unsupported"
        );
        assert_eq!(err("1N:"), "invalid variable name");
        // A `,` before any `(` ends a format, which must start with `%`;
        // a definition's name parses, the text after it is the error.
        let format = "invalid matching format specification in expression";
        let after_name = "unexpected characters after numeric variable name";
        for (text, at, message) in [
            (",N:", 0, format),
            (" x ,N:", 1, format),
            ("  ,N:", 2, format),
            ("N+2:", 1, after_name),
            ("N 2:", 2, after_name),
            (" N x:", 3, after_name),
        ] {
            assert_eq!(
                parse_block(text, 1, &VarTable::new(), &[]).err(),
                Some((at, message.into())),
                "{text}"
            );
        }
        assert!(block("add(1,2)").is_ok());
        assert_eq!(err("%x N:"), "invalid variable name");
        assert_eq!(err("%x N"), "invalid matching constraint or operand format");
        assert_eq!(err("%z,N:"), "invalid format specifier in expression");
        assert!(block("99999999999999999999").is_ok());
        assert_eq!(
            err(&"9".repeat(30_000)),
            "unable to represent numeric value"
        );
        assert_eq!(err("@FOO"), "invalid pseudo numeric variable '@FOO'");
        // Bounded: deep nesting and long chains are errors, not a stack
        // overflow; so is a precision that would print gigabytes.
        let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(err(&deep).contains("nested deeper than 64 levels"));
        let long = vec!["1"; 100_000].join("+");
        assert!(err(&long).contains("more than 1000 operands"));
        let calls = format!("{}1{}", "add(1,".repeat(50_000), ")".repeat(50_000));
        assert!(err(&calls).contains("nested deeper than 64 levels"));
        let wide = vec!["add(1,1)"; 600].join("+");
        assert!(err(&wide).contains("more than 1000 operands"));
        let e = block(&vec!["1"; 1000].join("+")).unwrap().expr.unwrap();
        assert_eq!(e.eval(&HashMap::new()), Ok(Num::from(1000)));
        assert!(err("%.99999999999u,5").contains("precision larger than 4096"));
        assert_eq!(
            err(" =="),
            "empty numeric expression should not have a constraint"
        );
        assert_eq!(
            err("V: =="),
            "empty numeric expression should not have a constraint"
        );
        let e = parse_block("N+1", 1, &VarTable::new(), &["N".to_string()]).unwrap_err();
        assert_eq!(
            e.1,
            "numeric variable 'N' defined earlier in the same CHECK directive"
        );
    }
}
