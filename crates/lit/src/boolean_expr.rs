//! lit's boolean feature expressions, as `REQUIRES:`, `UNSUPPORTED:` and
//! `XFAIL:` take them (lit's `BooleanExpression`):
//!
//! ```text
//! expr  :: or
//! or    :: and ('||' and)*
//! and   :: not ('&&' not)*
//! not   :: '!' not | '(' or ')' | match
//! match :: (identifier | '{{' regex '}}')+    one word, no spaces
//! identifier :: [-+=._a-zA-Z0-9]+
//! ```
//!
//! An identifier is true when it is one of the features (`true` always
//! is); a word with `{{regex}}` parts is true when some feature matches the
//! whole word, each regex part matching its part. Errors carry lit's
//! wording, ending with `in expression: '...'`.

/// A token: `(`, `)`, `&&`, `||`, `!` or a match word.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Op(&'static str),
    Word(String),
    End,
}

fn quote(t: &Token) -> String {
    match t {
        Token::End => "<end of expression>".into(),
        Token::Op(o) => format!("'{o}'"),
        Token::Word(w) => format!("'{w}'"),
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-+=._".contains(c)
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches([' ', '\t']);
        if rest.is_empty() {
            tokens.push(Token::End);
            return Ok(tokens);
        }
        if let Some(op) = ["&&", "||", "(", ")", "!"]
            .into_iter()
            .find(|o| rest.starts_with(o))
        {
            tokens.push(Token::Op(op));
            rest = &rest[op.len()..];
            continue;
        }
        // A word: identifier characters and `{{...}}` parts, back to back.
        let mut end = 0;
        loop {
            let tail = &rest[end..];
            if let Some(c) = tail.chars().next().filter(|&c| is_ident_char(c)) {
                end += c.len_utf8();
            } else if let Some(inner) = tail.strip_prefix("{{")
                && let Some(close) = inner.get(1..).and_then(|s| s.find("}}"))
            {
                // lit's `\{\{.+?\}\}`: at least one character inside.
                end += 2 + 1 + close + 2;
            } else {
                break;
            }
        }
        if end == 0 {
            return Err(format!("couldn't parse text: '{rest}'"));
        }
        tokens.push(Token::Word(rest[..end].to_string()));
        rest = &rest[end..];
    }
}

struct Parser<'a> {
    tokens: Vec<Token>,
    pos: usize,
    features: &'a [String],
}

/// The deepest nesting of parentheses and `!` evaluated (deeper is an
/// error, so that no input overflows the stack).
const MAX_DEPTH: usize = 200;

impl Parser<'_> {
    fn token(&self) -> &Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn accept(&mut self, op: &'static str) -> bool {
        if *self.token() == Token::Op(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, want: Token) -> Result<(), String> {
        if *self.token() == want {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!(
                "expected: {}\nhave: {}",
                quote(&want),
                quote(self.token())
            ))
        }
    }

    fn or(&mut self, depth: usize) -> Result<bool, String> {
        let mut value = self.and(depth)?;
        while self.accept("||") {
            let right = self.and(depth)?;
            value = value || right;
        }
        Ok(value)
    }

    fn and(&mut self, depth: usize) -> Result<bool, String> {
        let mut value = self.not(depth)?;
        while self.accept("&&") {
            let right = self.not(depth)?;
            value = value && right;
        }
        Ok(value)
    }

    fn not(&mut self, depth: usize) -> Result<bool, String> {
        if depth > MAX_DEPTH {
            return Err(format!("nested more than {MAX_DEPTH} levels deep"));
        }
        if self.accept("!") {
            return Ok(!self.not(depth + 1)?);
        }
        if self.accept("(") {
            let value = self.or(depth + 1)?;
            self.expect(Token::Op(")"))?;
            return Ok(value);
        }
        match self.token().clone() {
            Token::Word(w) => {
                self.pos += 1;
                self.matches(&w)
            }
            other => Err(format!(
                "expected: '!', '(', '{{{{', or identifier\nhave: {}",
                quote(&other)
            )),
        }
    }

    fn matches(&self, word: &str) -> Result<bool, String> {
        if word == "true" {
            return Ok(true);
        }
        if !word.contains("{{") {
            return Ok(self.features.iter().any(|f| f == word));
        }
        // Literal parts escaped, `{{...}}` parts as regexes, whole match.
        let mut pattern = String::from("^(?:");
        let mut rest = word;
        while !rest.is_empty() {
            match rest.find("{{") {
                Some(0) => {
                    let close = rest[3..].find("}}").map(|c| c + 3).unwrap_or(rest.len());
                    pattern.push_str("(?:");
                    pattern.push_str(&rest[2..close]);
                    pattern.push(')');
                    rest = rest.get(close + 2..).unwrap_or("");
                }
                Some(n) => {
                    pattern.push_str(&regex::escape(&rest[..n]));
                    rest = &rest[n..];
                }
                None => {
                    pattern.push_str(&regex::escape(rest));
                    rest = "";
                }
            }
        }
        pattern.push_str(")$");
        let re = regex::RegexBuilder::new(&pattern)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| format!("invalid regex in '{word}': {e}"))?;
        // lit counts `true` among the variables a regex may match.
        Ok(self.features.iter().any(|f| re.is_match(f)) || re.is_match("true"))
    }
}

/// Evaluates `expr` with `features` present; an error is lit's message
/// followed by `in expression: '...'`.
pub fn evaluate(expr: &str, features: &[String]) -> Result<bool, String> {
    let run = || -> Result<bool, String> {
        let mut p = Parser {
            tokens: tokenize(expr)?,
            pos: 0,
            features,
        };
        let value = p.or(0)?;
        p.expect(Token::End)?;
        Ok(value)
    };
    run().map_err(|e| format!("{e}\nin expression: '{expr}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(expr: &str) -> Result<bool, String> {
        let features: Vec<String> = ["linux", "x86_64", "asserts", "target=x86_64-linux"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        evaluate(expr, &features)
    }

    #[test]
    fn operators_and_precedence() {
        assert_eq!(eval("linux"), Ok(true));
        assert_eq!(eval("windows"), Ok(false));
        assert_eq!(eval("true"), Ok(true));
        assert_eq!(eval("!windows"), Ok(true));
        assert_eq!(eval("!!linux"), Ok(true));
        assert_eq!(eval("linux && windows"), Ok(false));
        assert_eq!(eval("linux && !windows"), Ok(true));
        // && binds tighter than ||.
        assert_eq!(eval("windows && linux || asserts"), Ok(true));
        assert_eq!(eval("windows && (linux || asserts)"), Ok(false));
        assert_eq!(eval("asserts || windows && nothing"), Ok(true));
        assert_eq!(eval("(windows||linux)&&!(nothing)"), Ok(true));
    }

    #[test]
    fn regex_words() {
        assert_eq!(eval("{{x86.*}}"), Ok(true));
        assert_eq!(eval("{{x86}}"), Ok(false), "the whole feature must match");
        assert_eq!(eval("target={{.*}}-linux"), Ok(true));
        assert_eq!(eval("target={{arm.*}}"), Ok(false));
        assert_eq!(eval("!{{win.*}}"), Ok(true));
    }

    #[test]
    fn errors_use_lits_wording() {
        assert_eq!(
            eval("linux &&"),
            Err("expected: '!', '(', '{{', or identifier\nhave: <end of expression>\nin expression: 'linux &&'".into())
        );
        assert_eq!(
            eval("(linux"),
            Err("expected: ')'\nhave: <end of expression>\nin expression: '(linux'".into())
        );
        assert_eq!(
            eval("linux windows"),
            Err(
                "expected: <end of expression>\nhave: 'windows'\nin expression: 'linux windows'"
                    .into()
            )
        );
        assert_eq!(
            eval("linux @ x"),
            Err("couldn't parse text: '@ x'\nin expression: 'linux @ x'".into())
        );
        assert_eq!(
            eval("&& linux"),
            Err(
                "expected: '!', '(', '{{', or identifier\nhave: '&&'\nin expression: '&& linux'"
                    .into()
            )
        );
        assert!(eval("{{(}}").unwrap_err().contains("invalid regex"));
        let deep = "(".repeat(100_000) + "linux" + &")".repeat(100_000);
        assert!(eval(&deep).unwrap_err().contains("nested more than"));
        let nots = "!".repeat(100_000) + "linux";
        assert!(eval(&nots).is_err());
    }
}
