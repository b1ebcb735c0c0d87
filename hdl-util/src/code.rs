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

/// The longest line an emitter prints (the project's readability bar).
pub const LINE_WIDTH: usize = 100;

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

    /// Writes `text` as comment lines that end by column [`LINE_WIDTH`]: each starts with
    /// `prefix` (`// `), and a line broken at a space continues with `prefix` and two more
    /// spaces of indentation (on top of the text's own leading spaces). A word longer than a
    /// line (a JSON configuration, a permutation table) breaks after its commas; a piece with
    /// no comma to break at stays whole. An empty `text` writes the bare prefix.
    pub fn comment(&mut self, prefix: &str, text: &str) {
        for line in comment_lines(self.indentation(), prefix, text) {
            self.line(line);
        }
    }

    /// Writes `open`, the `items` joined by `separator` and a space, then `close`: on one line
    /// when it ends by column [`LINE_WIDTH`], otherwise packed onto lines with each
    /// continuation aligned after `open` (a long Verilog concatenation or port list).
    pub fn fill(&mut self, open: &str, items: &[&str], separator: &str, close: &str) {
        let margin = self.indentation();
        let align = " ".repeat(open.len());
        let mut lines = vec![open.to_string()];
        for (i, item) in items.iter().enumerate() {
            let tail = if i + 1 == items.len() {
                close
            } else {
                separator
            };
            let line = lines.last_mut().unwrap_or_else(|| unreachable!());
            let glue = if i == 0 { "" } else { " " };
            if i > 0 && margin + line.len() + glue.len() + item.len() + tail.len() > LINE_WIDTH {
                lines.push(format!("{align}{item}{tail}"));
            } else {
                line.push_str(glue);
                line.push_str(item);
                line.push_str(tail);
            }
        }
        if items.is_empty() {
            lines[0].push_str(close);
        }
        for line in lines {
            self.line(line);
        }
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

/// `text` as comment lines that end by column [`LINE_WIDTH`] when written `margin` columns
/// in (see [`CodeWriter::comment`]; the margin is not included).
pub fn comment_lines(margin: usize, prefix: &str, text: &str) -> Vec<String> {
    if text.is_empty() {
        return vec![prefix.trim_end().to_string()];
    }
    let lead = text.len() - text.trim_start().len();
    let continuation = format!("{prefix}{}  ", " ".repeat(lead));
    let width = LINE_WIDTH.saturating_sub(margin);
    let room = width.saturating_sub(continuation.len());
    let mut lines = vec![format!("{prefix}{}", &text[..lead])];
    let mut first_piece = true;
    for word in text.split_whitespace() {
        for (i, piece) in comma_pieces(word, room).into_iter().enumerate() {
            let line = lines.last_mut().unwrap_or_else(|| unreachable!());
            let glue = if i == 0 { " " } else { "" };
            if first_piece {
                line.push_str(piece);
                first_piece = false;
            } else if line.len() + glue.len() + piece.len() <= width {
                line.push_str(glue);
                line.push_str(piece);
            } else {
                lines.push(format!("{continuation}{piece}"));
            }
        }
    }
    lines
}

/// `word` whole when it fits in `room` columns, else cut after each of its commas.
fn comma_pieces(word: &str, room: usize) -> Vec<&str> {
    if word.len() <= room {
        return vec![word];
    }
    word.split_inclusive(',').collect()
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
    fn comments_wrap_at_words_and_long_words_after_commas() {
        let long = format!("  cfg_i fields {}", "word ".repeat(40));
        let lines = comment_lines(0, "// ", long.trim_end());
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.len() <= LINE_WIDTH));
        assert!(lines[0].starts_with("//   cfg_i fields word"));
        assert!(lines[1].starts_with("//     word"));
        assert_eq!(comment_lines(0, "// ", ""), ["//"]);
        let table: Vec<String> = (0..64).map(|i| i.to_string()).collect();
        let text = format!("Table 0: {}", table.join(","));
        let mut w = CodeWriter::new("  ");
        w.indent().comment("// ", &text);
        let out = w.finish();
        assert!(out.lines().count() > 1);
        assert!(out.lines().all(|l| l.len() <= LINE_WIDTH), "{out}");
        let rejoined: String = out
            .lines()
            .map(|l| l.trim_start()[3..].trim_start())
            .collect();
        assert_eq!(rejoined, text);
    }

    #[test]
    fn fill_packs_items_within_the_width() {
        let mut w = CodeWriter::new("  ");
        w.fill("assign y = {", &["a", "b"], ",", "};");
        assert_eq!(w.finish(), "assign y = {a, b};\n");
        let names: Vec<String> = (0..40).map(|i| format!("signal_{i}_o")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut w = CodeWriter::new("  ");
        w.indent().fill("assign y = {", &names, ",", "};");
        let out = w.finish();
        assert!(out.lines().count() > 1);
        assert!(out.lines().all(|l| l.len() <= LINE_WIDTH), "{out}");
        assert!(
            out.lines()
                .nth(1)
                .unwrap()
                .starts_with("              signal_"),
            "{out}"
        );
        let flat: Vec<&str> = out.lines().map(str::trim).collect();
        assert_eq!(
            flat.join(" "),
            format!("assign y = {{{}}};", names.join(", "))
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
