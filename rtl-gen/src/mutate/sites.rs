//! Where a Verilog file can be mutated, and how: a linear scan over its tokens marks each as
//! part of a declaration, an assignment's left side, an expression (an assignment's right side
//! or an `if`/`case` condition) or a sensitivity list, and single-point mutants are drawn from
//! the expressions (and the sensitivity lists, for the reset edge). Left sides and declarations
//! are never touched, so a mutant changes behaviour, not the netlist's shape.

use super::tokens::{tokenize, Kind, Sized, Token};
use serde::Serialize;
use std::ops::Range;

/// The mutation operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operator {
    /// `&` to `|`, `|` to `&`, `^` to `|`, `&&` to `||`, `||` to `&&` (binary and reduction).
    LogicOp,
    /// `+` to `-`, `-` to `+`, `<<` to `>>`, `>>` to `<<`.
    ArithOp,
    /// An `if` or `?:` condition negated, or a comparison inverted (`==` to `!=`, `<` to `>=`).
    Condition,
    /// A sized constant one higher (one lower when all ones).
    Constant,
    /// A constant bit or part select moved by one bit (`a[3]` to `a[2]`).
    Select,
    /// Two neighbouring elements of a concatenation swapped.
    Swap,
    /// An asynchronous reset made synchronous (`or negedge rst_ni` dropped).
    ResetEdge,
    /// A register's reset value one higher (one lower when all ones).
    ResetValue,
}

impl Operator {
    /// Every operator, in the order the tables list them.
    pub const ALL: [Operator; 8] = [
        Operator::LogicOp,
        Operator::ArithOp,
        Operator::Condition,
        Operator::Constant,
        Operator::Select,
        Operator::Swap,
        Operator::ResetEdge,
        Operator::ResetValue,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Operator::LogicOp => "logic-op",
            Operator::ArithOp => "arith-op",
            Operator::Condition => "condition",
            Operator::Constant => "constant",
            Operator::Select => "select",
            Operator::Swap => "swap",
            Operator::ResetEdge => "reset-edge",
            Operator::ResetValue => "reset-value",
        }
    }
}

/// One single-point mutant of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The operator.
    pub operator: Operator,
    /// 1-based line of the change.
    pub line: u32,
    /// Byte ranges of the original text and their replacements, in order, not overlapping.
    pub edits: Vec<(Range<usize>, String)>,
    /// Whether it changes how a register resets (its reset edge, value or condition): the
    /// registers of mutant and original then differ in more than their next-state logic.
    pub touches_reset: bool,
}

impl Site {
    /// The mutated text.
    pub fn apply(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 8);
        let mut at = 0;
        for (range, replacement) in &self.edits {
            out.push_str(&text[at..range.start]);
            out.push_str(replacement);
            at = range.end;
        }
        out.push_str(&text[at..]);
        out
    }

    /// The changed line before and after, trimmed and shortened around the change.
    pub fn describe(&self, text: &str) -> (String, String) {
        let mutated = self.apply(text);
        let start = self.edits[0].0.start;
        let column = start - text[..start].rfind('\n').map_or(0, |n| n + 1);
        (
            excerpt(text, start, column),
            excerpt(&mutated, start, column),
        )
    }
}

/// The line holding byte `at`, trimmed, at most about 100 characters around `column`.
fn excerpt(text: &str, at: usize, column: usize) -> String {
    let begin = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let line: Vec<char> = text[begin..end].chars().collect();
    let (from, to) = if line.len() <= 100 {
        (0, line.len())
    } else {
        let from = column.saturating_sub(50).min(line.len() - 100);
        (from, from + 100)
    };
    let mut s: String = line[from..to].iter().collect();
    s = s.trim().to_string();
    if from > 0 {
        s.insert_str(0, "...");
    }
    if to < line.len() {
        s.push_str("...");
    }
    s
}

/// What a token is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Module header, declarations, keywords, labels.
    Other,
    /// The left side of an assignment.
    Lhs,
    /// An expression: an assignment's right side.
    Rhs,
    /// An `if` or `case` condition (the parentheses included).
    Cond,
    /// A sensitivity list.
    Sens,
}

const DECLARATIONS: [&str; 10] = [
    "wire",
    "reg",
    "input",
    "output",
    "inout",
    "integer",
    "localparam",
    "parameter",
    "genvar",
    "logic",
];

const STRUCTURE: [&str; 10] = [
    "begin",
    "end",
    "else",
    "endcase",
    "endmodule",
    "generate",
    "endgenerate",
    "always",
    "initial",
    "default",
];

/// Roles of the code tokens (comments dropped), and for each the reset branch it is in.
struct Scan<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    roles: Vec<Role>,
    in_reset: Vec<bool>,
    /// Token ranges of `if` conditions, parentheses included, and whether each names a reset.
    if_conditions: Vec<(Range<usize>, bool)>,
}

impl<'a> Scan<'a> {
    fn new(text: &'a str) -> Self {
        let tokens: Vec<Token> = tokenize(text)
            .into_iter()
            .filter(|t| t.kind != Kind::Comment)
            .collect();
        let mut scan = Scan {
            text,
            roles: vec![Role::Other; tokens.len()],
            in_reset: vec![false; tokens.len()],
            tokens,
            if_conditions: Vec::new(),
        };
        scan.assign_roles();
        scan
    }

    fn text(&self, i: usize) -> &'a str {
        &self.text[self.tokens[i].span.clone()]
    }

    /// The index of the token closing the bracket opened at `open`.
    fn matching(&self, open: usize) -> Option<usize> {
        let (o, c) = match self.text(open) {
            "(" => ("(", ")"),
            "[" => ("[", "]"),
            "{" => ("{", "}"),
            _ => return None,
        };
        let mut depth = 0;
        for i in open..self.tokens.len() {
            match self.text(i) {
                t if t == o => depth += 1,
                t if t == c => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn assign_roles(&mut self) {
        #[derive(PartialEq)]
        enum State {
            Start,
            Header,
            Decl,
            Lhs,
            Rhs,
        }
        let mut state = State::Start;
        // Whether the statement assigns an `unused_*` sink: its value is never read (the
        // lowRISC idiom for inputs a block ignores), so its right side is not mutated.
        let mut sink = false;
        let mut depth = 0i32;
        let mut i = 0;
        // The end of a reset branch: a token index, or a `begin` nesting level to close.
        let mut reset_until: Option<usize> = None;
        while i < self.tokens.len() {
            let t = self.text(i);
            if let Some(end) = reset_until {
                if i <= end {
                    self.in_reset[i] = true;
                } else {
                    reset_until = None;
                }
            }
            match state {
                State::Start => {
                    if t == "module" {
                        state = State::Header;
                    } else if DECLARATIONS.contains(&t) {
                        state = State::Decl;
                    } else if t == "assign" {
                        state = State::Lhs;
                        sink = self
                            .tokens
                            .get(i + 1)
                            .is_some_and(|_| self.text(i + 1).starts_with("unused"));
                    } else if t == "@" {
                        if let Some(close) =
                            self.matching(i + 1).filter(|_| self.text(i + 1) == "(")
                        {
                            self.roles[i + 1..=close].fill(Role::Sens);
                            i = close;
                        }
                    } else if ["if", "case", "casez", "casex", "for", "while"].contains(&t) {
                        if let Some(close) =
                            self.matching(i + 1).filter(|_| self.text(i + 1) == "(")
                        {
                            if t != "for" && t != "while" {
                                self.roles[i + 1..=close].fill(Role::Cond);
                            }
                            if t == "if" {
                                let resets = (i + 1..close).any(|j| {
                                    self.tokens[j].kind == Kind::Ident
                                        && self.text(j).contains("rst")
                                });
                                self.if_conditions.push((i + 1..close + 1, resets));
                                if resets {
                                    reset_until = self.branch_end(close + 1);
                                }
                            }
                            i = close;
                        }
                    } else if !(STRUCTURE.contains(&t) || t == ";" || t == ":") {
                        state = State::Lhs;
                        sink = t.starts_with("unused");
                        self.roles[i] = Role::Lhs;
                    }
                }
                State::Header | State::Decl => match t {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    ";" if depth == 0 => state = State::Start,
                    "=" if depth == 0 && state == State::Decl => state = State::Rhs,
                    _ => {}
                },
                State::Lhs => match t {
                    "(" | "[" | "{" => {
                        depth += 1;
                        self.roles[i] = Role::Lhs;
                    }
                    ")" | "]" | "}" => {
                        depth -= 1;
                        self.roles[i] = Role::Lhs;
                    }
                    "=" | "<=" if depth == 0 => state = State::Rhs,
                    ":" | ";" if depth == 0 => state = State::Start,
                    _ => self.roles[i] = Role::Lhs,
                },
                State::Rhs => {
                    match t {
                        "(" | "[" | "{" => depth += 1,
                        ")" | "]" | "}" => depth -= 1,
                        _ => {}
                    }
                    if t == ";" && depth == 0 {
                        state = State::Start;
                    } else if !sink {
                        self.roles[i] = Role::Rhs;
                    }
                }
            }
            i += 1;
        }
    }

    /// The last token of the statement starting at `i`: a `begin ... end` block or one
    /// statement up to its `;`.
    fn branch_end(&self, i: usize) -> Option<usize> {
        if i >= self.tokens.len() {
            return None;
        }
        if self.text(i) == "begin" {
            let mut depth = 0;
            for j in i..self.tokens.len() {
                match self.text(j) {
                    "begin" => depth += 1,
                    "end" => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j);
                        }
                    }
                    _ => {}
                }
            }
            None
        } else {
            (i..self.tokens.len()).find(|&j| self.text(j) == ";")
        }
    }

    fn span(&self, i: usize) -> Range<usize> {
        self.tokens[i].span.clone()
    }

    fn site(&self, operator: Operator, i: usize, edits: Vec<(Range<usize>, String)>) -> Site {
        Site {
            operator,
            line: self.tokens[i].line,
            edits,
            touches_reset: matches!(operator, Operator::ResetEdge | Operator::ResetValue),
        }
    }

    fn replace(&self, operator: Operator, i: usize, with: &str) -> Site {
        self.site(operator, i, vec![(self.span(i), with.to_string())])
    }

    /// The first token of the condition of the `?` at `q`: back over the expression at the
    /// same nesting level to an assignment, an opening bracket, a `,`, `?` or `:`.
    fn condition_start(&self, q: usize) -> usize {
        let mut depth = 0;
        let mut j = q;
        while j > 0 {
            let t = self.text(j - 1);
            match t {
                ")" | "]" | "}" => depth += 1,
                "(" | "[" | "{" if depth == 0 => break,
                "(" | "[" | "{" => depth -= 1,
                "?" | ":" | "," | "=" | "<=" if depth == 0 => break,
                _ => {}
            }
            if depth == 0 && self.roles[j - 1] != Role::Rhs && self.roles[j - 1] != Role::Cond {
                break;
            }
            j -= 1;
        }
        j
    }

    /// Every mutant of the file.
    fn sites(&self) -> Vec<Site> {
        let mut sites = Vec::new();
        for i in 0..self.tokens.len() {
            let t = self.text(i);
            let role = self.roles[i];
            if role == Role::Sens {
                if (t == "negedge" || t == "posedge") && i >= 2 && self.text(i - 1) != "(" {
                    // `posedge clk_i or negedge rst_ni`: drop from the end of `clk_i`.
                    let from = self.tokens[i - 2].span.end;
                    let to = self.tokens[i + 1].span.end;
                    if self.text(i + 1).contains("rst") {
                        sites.push(self.site(
                            Operator::ResetEdge,
                            i,
                            vec![(from..to, String::new())],
                        ));
                    }
                }
                continue;
            }
            if role != Role::Rhs && role != Role::Cond {
                continue;
            }
            let flip = match t {
                "&" => Some((Operator::LogicOp, "|")),
                "|" => Some((Operator::LogicOp, "&")),
                "^" => Some((Operator::LogicOp, "|")),
                "&&" => Some((Operator::LogicOp, "||")),
                "||" => Some((Operator::LogicOp, "&&")),
                "+" => Some((Operator::ArithOp, "-")),
                "-" => Some((Operator::ArithOp, "+")),
                "<<" => Some((Operator::ArithOp, ">>")),
                ">>" => Some((Operator::ArithOp, "<<")),
                "==" => Some((Operator::Condition, "!=")),
                "!=" => Some((Operator::Condition, "==")),
                "<" => Some((Operator::Condition, ">=")),
                ">=" => Some((Operator::Condition, "<")),
                ">" => Some((Operator::Condition, "<=")),
                "<=" => Some((Operator::Condition, ">")),
                _ => None,
            };
            if let Some((operator, with)) = flip {
                sites.push(self.replace(operator, i, with));
            }
            if t == "?" && role == Role::Rhs {
                let start = self.condition_start(i);
                if start < i {
                    let (a, b) = (self.span(start).start, self.span(i - 1).end);
                    sites.push(self.site(
                        Operator::Condition,
                        i,
                        vec![(a..a, "!(".into()), (b..b, ")".into())],
                    ));
                }
            }
            if self.tokens[i].kind == Kind::Number {
                if let Some(literal) = Sized::parse(t) {
                    let operator = if self.in_reset[i] {
                        Operator::ResetValue
                    } else {
                        Operator::Constant
                    };
                    sites.push(self.replace(operator, i, &literal.off_by_one().render()));
                }
            }
            if t == "[" {
                sites.extend(self.select(i));
            }
            if t == "{" {
                sites.extend(self.swaps(i));
            }
        }
        for (condition, resets) in &self.if_conditions {
            let (open, close) = (condition.start, condition.end - 1);
            let (a, b) = (self.span(open).end, self.span(close).start);
            let mut site = self.site(
                Operator::Condition,
                open,
                vec![(a..a, "!(".into()), (b..b, ")".into())],
            );
            site.touches_reset = *resets;
            sites.push(site);
        }
        sites.sort_by_key(|s| s.edits[0].0.start);
        sites
    }

    /// `[N]` to `[N-1]` (`[1]` when N is 0); `[M:L]` to `[M-1:L-1]` (`[M+1:L+1]` when L is 0).
    fn select(&self, open: usize) -> Option<Site> {
        let close = self.matching(open)?;
        let number = |j: usize| -> Option<u64> {
            (self.tokens[j].kind == Kind::Number)
                .then(|| self.text(j).replace('_', "").parse().ok())
                .flatten()
        };
        let shift = |v: u64, down: bool| if down { v - 1 } else { v + 1 };
        match close - open {
            2 => {
                let v = number(open + 1)?;
                Some(self.replace(Operator::Select, open + 1, &shift(v, v > 0).to_string()))
            }
            4 if self.text(open + 2) == ":" => {
                let (m, l) = (number(open + 1)?, number(open + 3)?);
                let down = l > 0;
                let span = self.span(open + 1).start..self.span(open + 3).end;
                Some(self.site(
                    Operator::Select,
                    open,
                    vec![(span, format!("{}:{}", shift(m, down), shift(l, down)))],
                ))
            }
            _ => None,
        }
    }

    /// One mutant per pair of neighbouring, different elements of the concatenation at `open`
    /// (a replication `{N{x}}` has none).
    fn swaps(&self, open: usize) -> Vec<Site> {
        let Some(close) = self.matching(open) else {
            return Vec::new();
        };
        if self
            .tokens
            .get(open + 2)
            .is_some_and(|_| self.text(open + 2) == "{")
        {
            return Vec::new();
        }
        let mut elements: Vec<Range<usize>> = Vec::new();
        let mut depth = 0;
        let mut start = open + 1;
        for j in open + 1..=close {
            match self.text(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" => depth -= 1,
                "}" if depth > 0 => depth -= 1,
                "," | "}" if depth == 0 => {
                    elements.push(self.span(start).start..self.span(j - 1).end);
                    start = j + 1;
                }
                _ => {}
            }
        }
        elements
            .windows(2)
            .filter(|pair| self.text[pair[0].clone()] != self.text[pair[1].clone()])
            .map(|pair| {
                let (a, b) = (&self.text[pair[0].clone()], &self.text[pair[1].clone()]);
                self.site(
                    Operator::Swap,
                    open,
                    vec![
                        (pair[0].clone(), b.to_string()),
                        (pair[1].clone(), a.to_string()),
                    ],
                )
            })
            .collect()
    }
}

/// Every single-point mutant of a Verilog file's text, in text order.
pub fn sites(text: &str) -> Vec<Site> {
    Scan::new(text).sites()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "\
module m (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [3:0]  a_i,
  output wire [3:0]  q_o
);
  wire [3:0] d;
  reg  [3:0] q;
  assign d = (a_i[0] == 1'b1) ? {a_i[1], a_i[3:2], 1'b0} : a_i & 4'h3;
  assign q_o = q;
  assign unused_a = {a_i[3], a_i[0] & 1'b1};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q <= 4'h0;
    end else begin
      q <= d + 4'h1;
    end
  end
endmodule
";

    fn mutated(op: Operator) -> Vec<String> {
        sites(MODULE)
            .iter()
            .filter(|s| s.operator == op)
            .map(|s| s.describe(MODULE).1)
            .collect()
    }

    #[test]
    fn finds_every_operator_in_expressions_only() {
        assert_eq!(
            mutated(Operator::LogicOp),
            ["assign d = (a_i[0] == 1'b1) ? {a_i[1], a_i[3:2], 1'b0} : a_i | 4'h3;"]
        );
        assert_eq!(mutated(Operator::ArithOp), ["q <= d - 4'h1;"]);
        assert_eq!(
            mutated(Operator::Condition),
            [
                "assign d = !((a_i[0] == 1'b1)) ? {a_i[1], a_i[3:2], 1'b0} : a_i & 4'h3;",
                "assign d = (a_i[0] != 1'b1) ? {a_i[1], a_i[3:2], 1'b0} : a_i & 4'h3;",
                "if (!(!rst_ni)) begin",
            ]
        );
        assert_eq!(
            mutated(Operator::Constant),
            [
                "assign d = (a_i[0] == 1'b0) ? {a_i[1], a_i[3:2], 1'b0} : a_i & 4'h3;",
                "assign d = (a_i[0] == 1'b1) ? {a_i[1], a_i[3:2], 1'b1} : a_i & 4'h3;",
                "assign d = (a_i[0] == 1'b1) ? {a_i[1], a_i[3:2], 1'b0} : a_i & 4'h4;",
                "q <= d + 4'h2;",
            ]
        );
        assert_eq!(mutated(Operator::ResetValue), ["q <= 4'h1;"]);
        assert_eq!(
            mutated(Operator::Select),
            [
                "assign d = (a_i[1] == 1'b1) ? {a_i[1], a_i[3:2], 1'b0} : a_i & 4'h3;",
                "assign d = (a_i[0] == 1'b1) ? {a_i[0], a_i[3:2], 1'b0} : a_i & 4'h3;",
                "assign d = (a_i[0] == 1'b1) ? {a_i[1], a_i[2:1], 1'b0} : a_i & 4'h3;",
            ]
        );
        assert_eq!(
            mutated(Operator::Swap),
            [
                "assign d = (a_i[0] == 1'b1) ? {a_i[3:2], a_i[1], 1'b0} : a_i & 4'h3;",
                "assign d = (a_i[0] == 1'b1) ? {a_i[1], 1'b0, a_i[3:2]} : a_i & 4'h3;",
            ]
        );
        assert_eq!(
            mutated(Operator::ResetEdge),
            ["always @(posedge clk_i) begin"]
        );
    }

    #[test]
    fn a_mutant_changes_only_its_site() {
        for site in sites(MODULE) {
            let text = site.apply(MODULE);
            assert_ne!(text, MODULE);
            let (before, after) = site.describe(MODULE);
            assert_ne!(before, after);
            // Everything outside the changed line is untouched.
            let changed: Vec<_> = MODULE
                .lines()
                .zip(text.lines())
                .filter(|(a, b)| a != b)
                .collect();
            assert_eq!(changed.len(), 1, "{site:?}");
        }
    }
}
