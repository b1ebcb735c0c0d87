//! [`CodeWriter`]: the text builder every emitter writes through, one line at a time at the
//! current indentation, with an indent guard so a nested block can never forget to close its
//! indentation (Amaranth's back ends are built the same way).
//!
//! ```
//! use hdl_util::CodeWriter;
//! let mut w = CodeWriter::new("  ");
//! w.line("initial begin");
//! {
//!     let mut body = w.indent();
//!     body.line("x = 1'b0;");
//!     body.blank();
//!     body.line("$finish;");
//! }
//! w.line("end");
//! assert_eq!(w.finish(), "initial begin\n  x = 1'b0;\n\n  $finish;\nend\n");
//! ```

use std::ops::{Deref, DerefMut};

/// Lines of text at a current indentation depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeWriter {
    text: String,
    unit: &'static str,
    depth: usize,
}

impl CodeWriter {
    /// An empty writer indenting by `unit` (two spaces, say) per level.
    pub fn new(unit: &'static str) -> Self {
        Self {
            text: String::new(),
            unit,
            depth: 0,
        }
    }

    /// Writes `line` at the current indentation and ends it; an empty line gets no indentation.
    /// A `line` holding newlines is written as several lines, each indented.
    pub fn line(&mut self, line: impl AsRef<str>) {
        for part in line.as_ref().split('\n') {
            if !part.is_empty() {
                for _ in 0..self.depth {
                    self.text.push_str(self.unit);
                }
                self.text.push_str(part);
            }
            self.text.push('\n');
        }
    }

    /// The width in columns of the current indentation (what a line breaker needs to keep
    /// lines within a limit).
    pub fn indentation(&self) -> usize {
        self.depth * self.unit.len()
    }

    /// Writes an empty line.
    pub fn blank(&mut self) {
        self.text.push('\n');
    }

    /// One level deeper until the returned guard is dropped; write through the guard.
    pub fn indent(&mut self) -> Indented<'_> {
        self.depth += 1;
        Indented { writer: self }
    }

    /// Writes `open`, then what `body` writes one level deeper, then `close`: a `begin`/`end`
    /// block in one call.
    pub fn block(
        &mut self,
        open: impl AsRef<str>,
        close: impl AsRef<str>,
        body: impl FnOnce(&mut Self),
    ) {
        self.line(open);
        body(&mut self.indent());
        self.line(close);
    }

    /// The text written so far.
    pub fn finish(self) -> String {
        self.text
    }
}

/// A [`CodeWriter`] one level deeper, until dropped (see [`CodeWriter::indent`]).
#[derive(Debug)]
pub struct Indented<'a> {
    writer: &'a mut CodeWriter,
}

impl Deref for Indented<'_> {
    type Target = CodeWriter;

    fn deref(&self) -> &CodeWriter {
        self.writer
    }
}

impl DerefMut for Indented<'_> {
    fn deref_mut(&mut self) -> &mut CodeWriter {
        self.writer
    }
}

impl Drop for Indented<'_> {
    fn drop(&mut self) {
        self.writer.depth -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guards_nest_and_restore_the_depth() {
        let mut w = CodeWriter::new("  ");
        w.line("a");
        {
            let mut b = w.indent();
            assert_eq!(b.indentation(), 2);
            b.line("b");
            b.block("if (x) begin", "end", |c| c.line("c;\nd;"));
            b.blank();
        }
        assert_eq!(w.indentation(), 0);
        w.line("e");
        assert_eq!(
            w.finish(),
            "a\n  b\n  if (x) begin\n    c;\n    d;\n  end\n\ne\n"
        );
    }

    #[test]
    fn empty_lines_carry_no_indentation() {
        let mut w = CodeWriter::new("\t");
        let mut i = w.indent();
        i.line("");
        i.line("x\n\ny");
        drop(i);
        assert_eq!(w.finish(), "\n\tx\n\n\ty\n");
    }
}
