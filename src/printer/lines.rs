//! The printed lines of a function, in output order: what the canonical
//! printer ([`super::stmt`]), the output-size count and the formatter
//! (`crate::format`: comment attachment and printing) share.
//!
//! [`Lines`] yields the header, each statement (or statement head, up to
//! its `{`), the `} else {` / `} else if c {` lines and the closing braces.
//! It is a thin layer over [`crate::ir::walk::Walk`]'s events, with no walk
//! of its own: a statement's line comes from [`Event::Enter`], a `} else`
//! line or a `}` from the [`Event::LeaveBlock`] of the branch or body it
//! ends. An `else` branch that prints as `} else if` (see
//! [`crate::ir::if_chain`]) adds no indentation and no lines of its own.
//! Nesting depth costs heap (the walk's stack), not call stack. Each
//! [`Line`] carries the byte range of the source it was read from, so that
//! comments can be attached to it by position and `expected-*@+N` offsets
//! mapped. [`line_text`] writes a line's text.

use super::expr::write_expr;
use crate::ir::if_chain::{else_body, else_if, else_if_arm};
use crate::ir::walk::{Event, Walk};
use crate::ir::{Anchor, Block, Function, Module, StmtId, StmtKind};

/// One printed line.
#[derive(Copy, Clone, Debug)]
pub struct Line {
    pub anchor: Anchor,
    /// Indentation level of the line itself.
    pub depth: usize,
    /// The source bytes it was read from: `start..end`.
    pub start: usize,
    pub end: usize,
}

/// The byte just past a block's `{`, and the offset of its `}`.
fn open_end(b: &Block) -> usize {
    b.span.start() + 1
}
fn close_start(b: &Block) -> usize {
    b.span.end().saturating_sub(1)
}

/// An iterator over printed lines (see the module documentation).
pub struct Lines<'ir> {
    f: &'ir Function,
    walk: Walk<'ir>,
    /// A line to yield before the walk's next event.
    ahead: Option<Line>,
    /// Whether the walk's outermost block is the function body, whose
    /// events give the header's and the closing `}`'s lines.
    whole: bool,
    /// The indentation of the outermost block's statements.
    base: usize,
    /// The `} else if` branches open around the walk's position: blocks
    /// the walk counts in its depth that indent nothing.
    flat: usize,
}

impl<'ir> Lines<'ir> {
    /// Every line of `f`: its header, its body and its closing `}`.
    pub fn of(f: &'ir Function) -> Lines<'ir> {
        let head = Line {
            anchor: Anchor::Head,
            depth: 0,
            start: f.span.start(),
            end: open_end(&f.body).max(f.span.start()),
        };
        Lines {
            f,
            walk: Walk::new(f),
            ahead: Some(head),
            whole: true,
            base: 1,
            flat: 0,
        }
    }

    /// The indentation of a statement of the walk's current block (at a
    /// block event: of the block's statements).
    fn depth(&self) -> usize {
        (self.walk.depth() + self.base).saturating_sub(1 + self.flat)
    }

    /// The line an event of the walk prints, if any.
    fn line_of(&mut self, event: Event<'ir>) -> Option<Line> {
        let f = self.f;
        match event {
            Event::Enter(s, site) => {
                if site.block == 1 && else_if_arm(f, site.owner, 1) == Some(s) {
                    // Printed as part of the `} else if` line.
                    return None;
                }
                let stmt = &f.stmts[s];
                let start = stmt.span.start();
                let end = match &stmt.kind {
                    StmtKind::If(i) => open_end(&f.ifs[*i].then_body),
                    kind @ (StmtKind::For(_) | StmtKind::While(_) | StmtKind::Scope(_)) => {
                        f.nested_block(kind, 0).map_or(stmt.span.end(), open_end)
                    }
                    _ => stmt.span.end(),
                };
                Some(Line {
                    anchor: Anchor::Stmt(s),
                    depth: self.depth(),
                    start,
                    end: end.max(start),
                })
            }
            Event::EnterBlock { owner, which, .. } => {
                if else_if_arm(f, owner, which).is_some() {
                    self.flat += 1;
                }
                None
            }
            Event::LeaveBlock {
                owner,
                which,
                block,
            } => self.block_end(owner, which, block),
            Event::Leave(_) => None,
        }
    }

    /// The line that ends block `which` of `owner`: `}`, `} else {` or
    /// `} else if c {` (none for a `} else if` branch, whose last link
    /// printed it, nor for a part's outermost block).
    fn block_end(&mut self, owner: Option<StmtId>, which: u8, block: &Block) -> Option<Line> {
        let f = self.f;
        if self.walk.depth() == 1 && !self.whole {
            return None;
        }
        if else_if_arm(f, owner, which).is_some() {
            self.flat -= 1;
            return None;
        }
        let depth = self.depth().saturating_sub(1);
        let start = close_start(block);
        let Some(s) = owner else {
            return Some(Line {
                anchor: Anchor::Close(None),
                depth: 0,
                start,
                end: block.span.end(),
            });
        };
        let is_if = matches!(f.stmts[s].kind, StmtKind::If(_));
        let (anchor, end) = match else_body(f, s) {
            Some(other) if which == 0 => {
                let end = match else_if(f, other).map(|n| &f.stmts[n].kind) {
                    Some(StmtKind::If(i)) => open_end(&f.ifs[*i].then_body),
                    _ => open_end(other),
                };
                (Anchor::Else(s), end)
            }
            _ if is_if => (Anchor::Close(Some(self.chain_head(s))), block.span.end()),
            _ => (Anchor::Close(Some(s)), block.span.end()),
        };
        Some(Line {
            anchor,
            depth,
            start,
            end: end.max(start),
        })
    }

    /// The first `if` of the chain whose link `s` is: up the walk's
    /// owners while each is the `} else if` of the next.
    fn chain_head(&self, s: StmtId) -> StmtId {
        let mut head = s;
        for owner in self.walk.owners() {
            if owner == head {
                continue;
            }
            if else_if_arm(self.f, Some(owner), 1) != Some(head) {
                break;
            }
            head = owner;
        }
        head
    }
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if let Some(line) = self.ahead.take() {
            return Some(line);
        }
        loop {
            let event = self.walk.next()?;
            if let Some(line) = self.line_of(event) {
                return Some(line);
            }
        }
    }
}

/// Appends the text of `line` (a line of `f`) to `out`, as the canonical
/// printer writes it.
pub fn line_text(m: &Module, f: &Function, line: &Line, out: &mut String) {
    match line.anchor {
        Anchor::Head => super::write_function_head(f, out),
        Anchor::Stmt(s) => super::stmt::stmt_head_into(m, f, s, out),
        Anchor::Close(_) => out.push('}'),
        Anchor::Else(s) => {
            out.push_str("} else ");
            match else_if_arm(f, Some(s), 1).map(|n| f.stmts[n].kind) {
                Some(StmtKind::If(i)) => {
                    out.push_str("if ");
                    write_expr(m, f, f.ifs[i].cond, out);
                    out.push_str(" {");
                }
                _ => out.push('{'),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line as `depth anchor`, the statement named by its first word.
    fn lines(text: &str) -> Vec<String> {
        let (m, diags) = crate::frontend::read_module(text, Default::default()).into_parts();
        assert!(diags.is_empty(), "{diags:?}");
        let m = m.expect("a module");
        let f = &m.functions()[0];
        let word = |s: StmtId| {
            let mut head = String::new();
            super::super::stmt::stmt_head_into(&m, f, s, &mut head);
            head.split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        };
        Lines::of(f)
            .map(|line| {
                let anchor = match line.anchor {
                    Anchor::Head => "head".to_string(),
                    Anchor::Stmt(s) => format!("stmt {}", word(s)),
                    Anchor::Else(s) => format!("else of {}", word(s)),
                    Anchor::Close(None) => "close".to_string(),
                    Anchor::Close(Some(s)) => format!("close {}", word(s)),
                };
                format!("{} {anchor}", line.depth)
            })
            .collect()
    }

    #[test]
    fn an_else_if_chain_is_flat_and_closed_by_its_first_if() {
        let text = "func main(n: i64) {
  for i in range(n) {
    if n > 1 {
      a = n
    } else if n > 2 {
      b = n
    } else if n > 3 {
      if n > 4 {
        c = n
      }
    } else {
      d = n
    }
  }
}
";
        let expected = [
            "0 head",
            "1 stmt for i",
            "2 stmt if n",
            "3 stmt a =",
            "2 else of if n",
            "3 stmt b =",
            "2 else of if n",
            "3 stmt if n",
            "4 stmt c =",
            "3 close if n",
            "2 else of if n",
            "3 stmt d =",
            "2 close if n",
            "1 close for i",
            "0 close",
        ];
        assert_eq!(lines(text), expected);
    }

    #[test]
    fn the_close_of_a_chain_names_its_first_if() {
        let text = "func main(n: i64) {
  if n > 1 {
    a = n
  } else if n > 2 {
    b = n
  }
}
";
        let (m, _) = crate::frontend::read_module(text, Default::default()).into_parts();
        let m = m.expect("a module");
        let f = &m.functions()[0];
        let first = f.block_stmts(&f.body)[0];
        let anchors: Vec<Anchor> = Lines::of(f).map(|l| l.anchor).collect();
        assert!(
            matches!(anchors[5], Anchor::Close(Some(s)) if s == first),
            "{anchors:?}"
        );
        assert!(
            matches!(anchors[3], Anchor::Else(s) if s == first),
            "{anchors:?}"
        );
    }
}
