//! Line breaking for the emitter: an expression as a tree of lists that print on one line when
//! they fit in [`WIDTH`] columns and otherwise break between their items, each continuation
//! aligned after the list's opening text (Wadler's pretty printer, cut down to what Verilog
//! expressions need). Comments wrap through [`hdl_util::CodeWriter::comment`].
//!
//! Breaking only ever happens between the tokens of an expression, so the text parses to the
//! same expression tree on one line or on many.

/// The longest line the emitter prints: the workspace's one limit.
pub const WIDTH: usize = hdl_util::LINE_WIDTH;

/// Text that may be broken over lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Doc {
    /// Text that is never broken.
    Text(String),
    /// `open`, the items (each followed by its separator), `close`. On one line when it fits;
    /// otherwise every item starts a line aligned after `open` (`fill`: as many items as fit
    /// share a line).
    List {
        /// Printed before the first item.
        open: String,
        /// The items with the separator printed after each (none after the last).
        items: Vec<(Doc, &'static str)>,
        /// Printed after the last item.
        close: String,
        /// Pack items onto lines rather than one a line.
        fill: bool,
    },
}

impl Doc {
    /// The text on one line.
    pub fn flat(&self) -> String {
        let mut out = String::new();
        self.write_flat(&mut out);
        out
    }

    fn write_flat(&self, out: &mut String) {
        match self {
            Doc::Text(text) => out.push_str(text),
            Doc::List {
                open, items, close, ..
            } => {
                out.push_str(open);
                for (i, (item, separator)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    item.write_flat(out);
                    if i + 1 < items.len() {
                        out.push_str(separator);
                    }
                }
                out.push_str(close);
            }
        }
    }

    /// The same text with `prefix` in front (an operator, an opening parenthesis).
    pub fn prefixed(self, prefix: &str) -> Doc {
        match self {
            Doc::Text(text) => Doc::Text(format!("{prefix}{text}")),
            Doc::List {
                open,
                items,
                close,
                fill,
            } => Doc::List {
                open: format!("{prefix}{open}"),
                items,
                close,
                fill,
            },
        }
    }

    /// The lines of the text when it starts at column `col` and `trail` more characters
    /// follow its last line. The first line has no indentation (it continues the caller's
    /// line); the others carry theirs.
    pub fn lines(&self, col: usize, trail: usize) -> Vec<String> {
        let flat = self.flat();
        let (open, items, close, fill) = match self {
            Doc::List {
                open,
                items,
                close,
                fill,
            } if col + flat.len() + trail > WIDTH => (open, items, close, *fill),
            _ => return vec![flat],
        };
        let indent = col + open.len();
        let mut out = vec![open.clone()];
        for (i, (item, separator)) in items.iter().enumerate() {
            let last = i + 1 == items.len();
            let tail = if last {
                close.len() + trail
            } else {
                separator.len()
            };
            let current = out.len() - 1;
            let end = if current == 0 {
                col + out[0].len()
            } else {
                out[current].len()
            };
            let shares_line = i == 0 || (fill && end + 1 + item.flat().len() + tail <= WIDTH);
            if shares_line {
                let start = if i == 0 { end } else { end + 1 };
                let sub = item.lines(start, tail);
                if i > 0 {
                    out[current].push(' ');
                }
                out[current].push_str(&sub[0]);
                out.extend(sub.into_iter().skip(1));
            } else {
                let sub = item.lines(indent, tail);
                out.push(format!("{}{}", " ".repeat(indent), sub[0]));
                out.extend(sub.into_iter().skip(1));
            }
            let end_text = if last { close.as_str() } else { separator };
            if let Some(line) = out.last_mut() {
                line.push_str(end_text);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Doc {
        Doc::Text(s.into())
    }

    fn chain(n: usize, fill: bool) -> Doc {
        Doc::List {
            open: String::new(),
            items: (0..n)
                .map(|i| (text(&format!("addr_i[{i}]")), " ^"))
                .collect(),
            close: String::new(),
            fill,
        }
    }

    #[test]
    fn short_lists_stay_on_one_line() {
        assert_eq!(
            chain(3, true).lines(10, 1),
            ["addr_i[0] ^ addr_i[1] ^ addr_i[2]"]
        );
    }

    #[test]
    fn long_lists_break_between_items_within_the_width() {
        let lines = chain(40, true).lines(20, 1);
        assert!(lines.len() > 1);
        assert!(lines[0].len() + 20 <= WIDTH);
        for line in &lines[1..] {
            assert!(line.len() <= WIDTH, "{line}");
            assert!(line.starts_with(&" ".repeat(20)), "{line}");
        }
        let joined: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
        assert_eq!(joined.join(" "), chain(40, true).flat());
        let one_a_line = chain(40, false).lines(20, 1);
        assert_eq!(one_a_line.len(), 40);
        assert_eq!(one_a_line[1], format!("{}addr_i[1] ^", " ".repeat(20)));
    }
}
