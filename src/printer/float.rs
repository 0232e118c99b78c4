//! Float literals in their shortest round-tripping form (spec section 9).
//!
//! Rust's `{:?}` for `f64` already prints the shortest decimal that reads back
//! to the same value and always includes a `.` or an exponent (`1.0`, `0.001`,
//! `1e-7`, `1e100`, `1.5e16`), which is exactly what the lexer's float token
//! `[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+` accepts. This
//! module only adds the cases `{:?}` spells differently: infinities (which a
//! too-large literal such as `1e400` parses to) and NaN (which no literal
//! produces).

/// The literal text for `value`.
///
/// A negative value keeps its sign (`-1.5`); lowering never produces one
/// (negation is a unary operator), so callers treat such text like a unary
/// minus for parenthesisation.
pub fn format_float(value: f64) -> String {
    if value.is_nan() {
        // No literal reads back as NaN; this text at least names the value.
        return "NaN".to_string();
    }
    if value.is_infinite() {
        // The shortest literal that overflows to infinity when read back.
        return if value > 0.0 { "1e309" } else { "-1e309" }.to_string();
    }
    format!("{value:?}")
}

#[cfg(test)]
mod tests {
    use super::format_float;

    /// The lexer's float regex, checked by hand so this test needs no regex.
    fn lexes_as_float(s: &str) -> bool {
        let s = s.strip_prefix('-').unwrap_or(s);
        let (mantissa, exponent) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let mantissa_ok = match mantissa.split_once('.') {
            Some((int, frac)) => digits(int) && digits(frac),
            None => digits(mantissa) && exponent.is_some(),
        };
        let exponent_ok = match exponent {
            None => true,
            Some(e) => digits(e.strip_prefix(['+', '-']).unwrap_or(e)),
        };
        mantissa_ok && exponent_ok
    }

    #[test]
    fn shortest_forms() {
        assert_eq!(format_float(1.0), "1.0");
        assert_eq!(format_float(0.5), "0.5");
        assert_eq!(format_float(0.001), "0.001");
        assert_eq!(format_float(1e-7), "1e-7");
        assert_eq!(format_float(1e100), "1e100");
        assert_eq!(format_float(2.5e4), "25000.0");
        assert_eq!(format_float(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(format_float(0.0), "0.0");
        assert_eq!(format_float(f64::INFINITY), "1e309");
    }

    #[test]
    fn always_lexes_and_round_trips() {
        let samples = [
            0.0,
            1.0,
            0.1,
            1.0 / 3.0,
            123456789.0,
            1e15,
            1e16,
            1.5e16,
            1e-4,
            1e-5,
            2.5e-300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            9007199254740993.0,
        ];
        for x in samples {
            let s = format_float(x);
            assert!(lexes_as_float(&s), "{s} does not lex as a float");
            assert_eq!(s.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{s}");
        }
        assert_eq!("1e309".parse::<f64>().unwrap(), f64::INFINITY);
    }
}
