//! The group syntax of liberty files, read into a tree: just enough structure to find a
//! library's latch cells ([`crate::latches`]) and a macro's clock-pin limits and cell areas
//! ([`crate::opensta::macro_liberty`]).
//!
//! Liberty is nested groups (`name (args) { ... }`), simple attributes (`name : value ;`) and
//! complex attributes (`name (args) ;`), with `/* */` comments, quoted strings and `\` line
//! continuations. [`parse`] keeps every library-level group and attribute but drops the body of
//! each `cell` group whose name `keep_cell` refuses, so a 13 MB library costs only the cells a
//! netlist uses.

/// One group: `name (args) { attributes and groups }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Group {
    /// The group's keyword (`cell`, `pin`, `timing`, `cell_rise`, ...).
    pub name: String,
    /// Its arguments, unquoted (`MUX2_X1`, `del_1_7_7`; empty for `timing ()`).
    pub args: Vec<String>,
    /// `name : value ;` attributes, value unquoted, in file order.
    pub simple: Vec<(String, String)>,
    /// `name (args) ;` attributes, each argument unquoted, in file order.
    pub complex: Vec<(String, Vec<String>)>,
    /// Nested groups in file order.
    pub groups: Vec<Group>,
}

impl Group {
    /// The first simple attribute called `name`.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.simple
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The arguments of the first complex attribute called `name`.
    pub fn complex_attr(&self, name: &str) -> Option<&[String]> {
        self.complex
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_slice())
    }

    /// The nested groups called `name`.
    pub fn children<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Group> + 'a {
        self.groups.iter().filter(move |g| g.name == name)
    }

    /// The first nested group called `name`.
    pub fn child(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }
}

/// A token of liberty text.
#[derive(Debug, Clone, PartialEq)]
enum Token<'a> {
    /// A word or number, or a string with its quotes removed.
    Word(&'a str),
    /// One of `{ } ( ) : ; ,`.
    Punct(char),
}

/// Splits liberty text into tokens, dropping comments, whitespace and line continuations.
fn tokenize(text: &str) -> Result<Vec<Token<'_>>, String> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() || c == b'\\' {
            i += 1;
        } else if text[i..].starts_with("/*") {
            let end = text[i + 2..]
                .find("*/")
                .ok_or_else(|| format!("comment opened at byte {i} is not closed"))?;
            i += end + 4;
        } else if text[i..].starts_with("//") {
            i += text[i..].find('\n').unwrap_or(text.len() - i);
        } else if c == b'"' {
            let end = text[i + 1..]
                .find('"')
                .ok_or_else(|| format!("string opened at byte {i} is not closed"))?;
            tokens.push(Token::Word(&text[i + 1..i + 1 + end]));
            i += end + 2;
        } else if b"{}():;,".contains(&c) {
            tokens.push(Token::Punct(c as char));
            i += 1;
        } else {
            let start = i;
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && !b"{}():;,\"\\".contains(&bytes[i])
            {
                i += 1;
            }
            tokens.push(Token::Word(&text[start..i]));
        }
    }
    Ok(tokens)
}

/// Parses liberty text into its top-level group (normally `library (...)`), keeping the bodies
/// of only those `cell` groups for which `keep_cell(name)` is true.
///
/// Errors name what was expected and the token index where it was not found.
pub fn parse(text: &str, keep_cell: &dyn Fn(&str) -> bool) -> Result<Group, String> {
    let tokens = tokenize(text)?;
    let mut parser = Parser {
        tokens: &tokens,
        pos: 0,
        keep_cell,
    };
    let root = parser.item()?;
    match root {
        Item::Group(g) => Ok(g),
        _ => Err("the file does not start with a group such as `library (name) {`".into()),
    }
}

/// One parsed statement.
enum Item {
    Simple(String, String),
    Complex(String, Vec<String>),
    Group(Group),
}

struct Parser<'t, 'a> {
    tokens: &'t [Token<'a>],
    pos: usize,
    keep_cell: &'t dyn Fn(&str) -> bool,
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<&Token<'_>> {
        self.tokens.get(self.pos)
    }

    fn error(&self, expected: &str) -> String {
        match self.peek() {
            Some(t) => format!("expected {expected} at token {}, found {t:?}", self.pos),
            None => format!("expected {expected}, found the end of the file"),
        }
    }

    fn word(&mut self) -> Result<String, String> {
        match self.peek() {
            Some(Token::Word(w)) => {
                let w = w.to_string();
                self.pos += 1;
                Ok(w)
            }
            _ => Err(self.error("a name")),
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Token::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// `name : value ;`, `name (args) ;` or `name (args) { ... }`.
    fn item(&mut self) -> Result<Item, String> {
        let name = self.word()?;
        if self.eat(':') {
            let mut words = Vec::new();
            while let Some(Token::Word(w)) = self.peek() {
                words.push(w.to_string());
                self.pos += 1;
            }
            // The `;` is optional before a `}` in the libraries that exist.
            self.eat(';');
            return Ok(Item::Simple(name, words.join(" ")));
        }
        if !self.eat('(') {
            return Err(self.error(&format!("`:` or `(` after `{name}`")));
        }
        let mut args = Vec::new();
        loop {
            match self.peek() {
                Some(Token::Word(w)) => {
                    args.push(w.to_string());
                    self.pos += 1;
                }
                Some(Token::Punct(',')) => self.pos += 1,
                // A bus range, `pin (dout0[31:0])`: one argument.
                Some(Token::Punct(':')) if !args.is_empty() => {
                    self.pos += 1;
                    let tail = self.word()?;
                    let last = args.last_mut().expect("not empty");
                    last.push(':');
                    last.push_str(&tail);
                }
                Some(Token::Punct(')')) => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.error(&format!("`)` closing the arguments of `{name}`"))),
            }
        }
        if !self.eat('{') {
            self.eat(';');
            return Ok(Item::Complex(name, args));
        }
        let mut group = Group {
            name,
            args,
            ..Group::default()
        };
        if group.name == "cell" && !group.args.first().is_some_and(|a| (self.keep_cell)(a)) {
            self.skip_body()?;
            return Ok(Item::Group(group));
        }
        while !self.eat('}') {
            if self.peek().is_none() {
                return Err(self.error(&format!("`}}` closing group `{}`", group.name)));
            }
            match self.item()? {
                Item::Simple(k, v) => group.simple.push((k, v)),
                Item::Complex(k, v) => group.complex.push((k, v)),
                Item::Group(g) => group.groups.push(g),
            }
        }
        Ok(Item::Group(group))
    }

    /// Skips to the `}` that closes the group whose `{` was just read.
    fn skip_body(&mut self) -> Result<(), String> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                Some(Token::Punct('{')) => depth += 1,
                Some(Token::Punct('}')) => depth -= 1,
                Some(_) => {}
                None => return Err(self.error("`}` closing a skipped cell")),
            }
            self.pos += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = r#"/* header */
library (demo) {
  time_unit : "1ns" ;
  capacitive_load_unit (1, ff) ;
  lu_table_template (t2) { variable_1 : input_net_transition ; index_1 ("1, 2") ; }
  cell (KEEP) {
    area : 1.5 ;
    pin (A) { direction : input ; capacitance : 0.5 ; }
    pin ("Y") {
      direction : output ;
      timing () {
        related_pin : "A" ;
        values ("0.1, 0.2", \
                "0.3, 0.4") ;
      }
    }
  }
  cell (DROP) { area : 9 ; pin (A) { direction : input ; } }
}
"#;

    #[test]
    fn groups_attributes_and_skipped_cells() {
        let lib = parse(LIB, &|c| c == "KEEP").unwrap();
        assert_eq!(
            (lib.name.as_str(), lib.args.as_slice()),
            ("library", &["demo".to_string()][..])
        );
        assert_eq!(lib.attr("time_unit"), Some("1ns"));
        assert_eq!(
            lib.complex_attr("capacitive_load_unit").unwrap(),
            ["1", "ff"]
        );
        let t = lib.child("lu_table_template").unwrap();
        assert_eq!(t.args, ["t2"]);
        assert_eq!(t.complex_attr("index_1").unwrap(), ["1, 2"]);
        let cells: Vec<&Group> = lib.children("cell").collect();
        assert_eq!(cells.len(), 2);
        assert_eq!(cells[0].attr("area"), Some("1.5"));
        let y = cells[0].children("pin").nth(1).unwrap();
        assert_eq!(y.args, ["Y"]);
        let timing = y.child("timing").unwrap();
        assert!(timing.args.is_empty());
        assert_eq!(timing.attr("related_pin"), Some("A"));
        assert_eq!(
            timing.complex_attr("values").unwrap(),
            ["0.1, 0.2", "0.3, 0.4"]
        );
        // The refused cell keeps its name but not its body.
        assert_eq!(cells[1].args, ["DROP"]);
        assert!(cells[1].simple.is_empty() && cells[1].groups.is_empty());
    }

    #[test]
    fn a_bus_range_is_one_argument() {
        let lib = parse(
            "library (x) { cell (m) { bus (d) { pin (d[31:0]) { direction : input ; } } } }",
            &|_| true,
        )
        .unwrap();
        let pin = lib
            .child("cell")
            .unwrap()
            .child("bus")
            .unwrap()
            .child("pin")
            .unwrap();
        assert_eq!(pin.args, ["d[31:0]"]);
    }

    #[test]
    fn malformed_text_names_what_is_missing() {
        let e = parse("library (x) { a : 1 ;", &|_| true).unwrap_err();
        assert!(e.contains("`}` closing group `library`"), "{e}");
        let e = parse("library (x) { /* open", &|_| true).unwrap_err();
        assert!(e.contains("not closed"), "{e}");
        let e = parse("a : 1 ;", &|_| true).unwrap_err();
        assert!(e.contains("does not start with a group"), "{e}");
    }
}
