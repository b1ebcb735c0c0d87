//! Modules, ports, wires, registers and width-checked expressions.
//!
//! Width rules (checked when an expression is built; a violation is a generator bug and panics):
//! - bitwise `and`/`or`/`xor` take two operands of the same width and keep it;
//! - `not` keeps the width; `reduce_xor` gives 1 bit; `ne` compares equal widths and gives 1 bit;
//! - `shr` and `shl` keep the width of the shifted operand (bits shifted past either end are
//!   lost), the amount may have any width;
//! - a constant has an explicit width and must fit in it; a concatenation's width is the sum;
//! - a part-select or a variable bit-select applies only to a named signal, never to an
//!   expression (Verilog-2005 has no part-select of an expression);
//! - arithmetic `add`/`sub`/`mul` take two operands of the same width and keep it: the result is
//!   taken modulo `2^width` (widen the operands with [`Expr::zext`] to keep a carry);
//! - the unsigned comparisons `eq`/`lt`/`ge` compare equal widths and give 1 bit;
//! - `mux(sel, a, b)` takes a 1-bit select and two arms of the same width, and keeps it.
//!
//! Because every operator of an expression tree has operands of equal width, and every target
//! has the width of its value, Verilog's context-determined expression width equals the width
//! the representation computed: no operator is ever evaluated wider or narrower than declared
//! (an `a + b` never gains the carry bit a wider context would give it).

use std::fmt;

/// The direction of a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Driven from outside.
    Input,
    /// Driven by the module.
    Output,
}

/// A named signal with a width: a port, a wire or a register, as expressions refer to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signal {
    name: String,
    width: u32,
}

impl Signal {
    /// The signal's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The signal's width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The whole signal as an expression.
    pub fn expr(&self) -> Expr {
        Expr::new(ExprKind::Ref(self.name.clone()), self.width)
    }

    /// Bits `msb` down to `lsb` (a single bit when equal).
    pub fn slice(&self, msb: u32, lsb: u32) -> Expr {
        assert!(
            lsb <= msb && msb < self.width,
            "slice [{msb}:{lsb}] of {}[{}:0]",
            self.name,
            self.width - 1
        );
        Expr::new(
            ExprKind::Slice {
                signal: self.name.clone(),
                msb,
                lsb,
            },
            msb - lsb + 1,
        )
    }

    /// Bit `i`.
    pub fn bit(&self, i: u32) -> Expr {
        self.slice(i, i)
    }

    /// The bit selected at run time by `index`, whose width must be `index_width(self.width)`.
    pub fn index(&self, index: Expr) -> Expr {
        assert_eq!(
            index.width,
            index_width(self.width),
            "index of {} must have {} bits",
            self.name,
            index_width(self.width)
        );
        Expr::new(
            ExprKind::Index {
                signal: self.name.clone(),
                index: Box::new(index),
            },
            1,
        )
    }
}

/// Bits needed to index any bit of a `width`-bit signal (at least 1, as Verilator requires).
pub fn index_width(width: u32) -> u32 {
    bits_for(u64::from(width))
}

/// Bits needed to hold every value `0..count` (at least 1): `max(1, ceil(log2(count)))`.
pub fn bits_for(count: u64) -> u32 {
    if count <= 2 {
        1
    } else {
        64 - (count - 1).leading_zeros()
    }
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// Bitwise complement `~`, same width.
    Not,
    /// Reduction XOR `^`, 1 bit.
    ReduceXor,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// Bitwise `&`.
    And,
    /// Bitwise `|`.
    Or,
    /// Bitwise `^`.
    Xor,
    /// Inequality `!=`, 1 bit.
    Ne,
    /// Logical right shift `>>`, width of the left operand.
    Shr,
    /// Left shift `<<`, width of the left operand.
    Shl,
    /// Addition `+` modulo `2^width`, equal widths.
    Add,
    /// Subtraction `-` modulo `2^width`, equal widths.
    Sub,
    /// Multiplication `*` modulo `2^width`, equal widths.
    Mul,
    /// Equality `==`, 1 bit.
    Eq,
    /// Unsigned less-than `<`, 1 bit.
    Lt,
    /// Unsigned greater-or-equal `>=`, 1 bit.
    Ge,
}

/// The shape of an expression (see [`Expr`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    /// A whole signal.
    Ref(String),
    /// A constant part-select of a named signal.
    Slice {
        /// The signal.
        signal: String,
        /// Most significant bit selected.
        msb: u32,
        /// Least significant bit selected.
        lsb: u32,
    },
    /// A bit of a named signal selected at run time.
    Index {
        /// The signal.
        signal: String,
        /// The bit index.
        index: Box<Expr>,
    },
    /// A sized constant.
    Const(u64),
    /// A concatenation, most significant part first.
    Concat(Vec<Expr>),
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `sel ? then : otherwise` with a 1-bit select.
    Mux {
        /// The 1-bit select.
        sel: Box<Expr>,
        /// The value when `sel` is 1.
        then: Box<Expr>,
        /// The value when `sel` is 0.
        otherwise: Box<Expr>,
    },
}

/// An expression and its width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    kind: ExprKind,
    width: u32,
}

impl Expr {
    fn new(kind: ExprKind, width: u32) -> Self {
        assert!(width > 0, "zero-width expression {kind:?}");
        Self { kind, width }
    }

    /// The constant `value` of `width` bits (`width` up to 64).
    pub fn constant(value: u64, width: u32) -> Self {
        assert!(
            width <= 64 && (width == 64 || value >> width == 0),
            "{value:#x} does not fit {width} bits"
        );
        Self::new(ExprKind::Const(value), width)
    }

    /// `{parts[0], parts[1], ...}`: the first part is the most significant.
    pub fn concat(parts: Vec<Expr>) -> Self {
        assert!(!parts.is_empty(), "empty concatenation");
        if parts.len() == 1 {
            return parts.into_iter().next().unwrap_or_else(|| unreachable!());
        }
        let width = parts.iter().map(|p| p.width).sum();
        Self::new(ExprKind::Concat(parts), width)
    }

    /// The XOR of all `terms` (each 1 bit wide), or the constant 0 when there are none.
    pub fn xor_all(terms: Vec<Expr>) -> Self {
        terms
            .into_iter()
            .reduce(|acc, t| acc.xor(t))
            .unwrap_or_else(|| Expr::constant(0, 1))
    }

    /// The width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The shape.
    pub fn kind(&self) -> &ExprKind {
        &self.kind
    }

    fn binary(self, op: BinaryOp, rhs: Expr) -> Self {
        let width = match op {
            BinaryOp::Shr | BinaryOp::Shl => self.width,
            BinaryOp::Ne | BinaryOp::Eq | BinaryOp::Lt | BinaryOp::Ge => {
                assert_eq!(self.width, rhs.width, "{op:?} of different widths");
                1
            }
            BinaryOp::And
            | BinaryOp::Or
            | BinaryOp::Xor
            | BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul => {
                assert_eq!(self.width, rhs.width, "{op:?} of different widths");
                self.width
            }
        };
        Self::new(ExprKind::Binary(op, Box::new(self), Box::new(rhs)), width)
    }

    /// Bitwise AND.
    pub fn and(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::And, rhs)
    }

    /// Bitwise OR.
    pub fn or(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Or, rhs)
    }

    /// Bitwise XOR.
    pub fn xor(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Xor, rhs)
    }

    /// 1 when the operands differ.
    pub fn ne(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Ne, rhs)
    }

    /// Whether the expression is built from constants only.
    pub fn is_constant(&self) -> bool {
        match &self.kind {
            ExprKind::Const(_) => true,
            ExprKind::Concat(parts) => parts.iter().all(Expr::is_constant),
            _ => false,
        }
    }

    /// 1 when the operands are equal.
    pub fn eq(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Eq, rhs)
    }

    /// 1 when `self < rhs` (unsigned).
    pub fn lt(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Lt, rhs)
    }

    /// 1 when `self >= rhs` (unsigned).
    pub fn ge(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Ge, rhs)
    }

    /// `sel ? then : otherwise`: `sel` is 1 bit, the arms have equal widths.
    pub fn mux(sel: Expr, then: Expr, otherwise: Expr) -> Self {
        assert_eq!(sel.width, 1, "a mux select must be 1 bit");
        assert_eq!(then.width, otherwise.width, "mux arms of different widths");
        let width = then.width;
        Self::new(
            ExprKind::Mux {
                sel: Box::new(sel),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            },
            width,
        )
    }

    /// Zero-extended to `width` bits (`{zeros, self}`; `self` when already that wide).
    pub fn zext(self, width: u32) -> Self {
        assert!(
            width >= self.width,
            "zext of {} bits to {width}",
            self.width
        );
        if width == self.width {
            return self;
        }
        Expr::concat(vec![Expr::zeros(width - self.width), self])
    }

    /// `width` zero bits, of any width (constants of up to 64 bits, concatenated).
    pub fn zeros(width: u32) -> Self {
        assert!(width > 0, "zero-width zeros");
        let mut parts = vec![Expr::constant(0, (width - 1) % 64 + 1)];
        parts.extend((0..(width - 1) / 64).map(|_| Expr::constant(0, 64)));
        Expr::concat(parts)
    }

    /// XOR of all bits.
    pub fn reduce_xor(self) -> Self {
        Self::new(ExprKind::Unary(UnaryOp::ReduceXor, Box::new(self)), 1)
    }
}

/// The arithmetic and shift operators of the representation, as Rust operators (`a + b`,
/// `a >> k`, `!a`), with the width rules stated at the top of this module.
macro_rules! binary_operator {
    ($trait:ident, $method:ident, $op:expr, $doc:literal) => {
        impl std::ops::$trait for Expr {
            type Output = Expr;
            #[doc = $doc]
            fn $method(self, rhs: Expr) -> Expr {
                self.binary($op, rhs)
            }
        }
    };
}

binary_operator!(
    Shr,
    shr,
    BinaryOp::Shr,
    "Logical right shift, width of the left operand."
);
binary_operator!(
    Shl,
    shl,
    BinaryOp::Shl,
    "Left shift keeping the width (bits past the top are lost)."
);
binary_operator!(
    Add,
    add,
    BinaryOp::Add,
    "Sum modulo `2^width` (equal widths)."
);
binary_operator!(
    Sub,
    sub,
    BinaryOp::Sub,
    "Difference modulo `2^width` (equal widths)."
);
binary_operator!(
    Mul,
    mul,
    BinaryOp::Mul,
    "Product modulo `2^width` (equal widths)."
);

impl std::ops::Not for Expr {
    type Output = Expr;
    /// Bitwise complement, same width.
    fn not(self) -> Expr {
        let w = self.width;
        Expr::new(ExprKind::Unary(UnaryOp::Not, Box::new(self)), w)
    }
}

/// A port of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// The port as a signal.
    pub signal: Signal,
    /// Its direction.
    pub direction: Direction,
    /// What it carries, for the module header and the manifest.
    pub doc: String,
}

/// The target of a continuous assignment: a whole signal or a constant part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The signal driven.
    pub signal: Signal,
    /// `Some((msb, lsb))` to drive only those bits.
    pub range: Option<(u32, u32)>,
}

impl Target {
    fn width(&self) -> u32 {
        self.range
            .map_or(self.signal.width, |(msb, lsb)| msb - lsb + 1)
    }
}

/// A flip-flop stage clocked by `clk_i` with asynchronous active-low reset `rst_ni`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Register {
    /// The register's output (`*_q`).
    pub q: Signal,
    /// Its next value (`*_d`).
    pub d: Expr,
    /// Value under reset.
    pub reset: u64,
    /// A 1-bit write enable: the register loads `d` only on edges where it is 1 (`None`: every
    /// edge).
    pub enable: Option<Expr>,
    /// For registers wider than 64 bits: the reset value as a constant expression (constants
    /// and concatenations of them), used instead of `reset`.
    pub wide_reset: Option<Expr>,
}

/// One Verilog module under construction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// Module name (also the file name).
    pub name: String,
    /// Comment lines printed above the module.
    pub header: Vec<String>,
    /// Whether the module has `clk_i` and `rst_ni`.
    pub clocked: bool,
    /// Data ports in declaration order (`clk_i`/`rst_ni` come first when `clocked`).
    pub ports: Vec<Port>,
    /// Internal wires in declaration order.
    pub wires: Vec<Signal>,
    /// Continuous assignments in order.
    pub assigns: Vec<(Target, Expr)>,
    /// Registers in order.
    pub registers: Vec<Register>,
    /// Instances of other modules, in order.
    pub instances: Vec<Instance>,
}

/// An instance of another generated module (its file goes beside the parent's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The instantiated module's name.
    pub module: String,
    /// The instance name (`u_<what>`).
    pub name: String,
    /// Whether `clk_i` and `rst_ni` are connected through.
    pub clocked: bool,
    /// Every port of the instantiated module, in its declaration order, and what drives it
    /// (inputs) or the wire it drives (outputs, a whole-wire reference).
    pub connections: Vec<(String, Expr)>,
}

/// Verilog-2005 and SystemVerilog keywords a generated name must not take.
const KEYWORDS: &[&str] = &[
    "always",
    "and",
    "assign",
    "begin",
    "buf",
    "case",
    "default",
    "else",
    "end",
    "endcase",
    "endmodule",
    "for",
    "function",
    "generate",
    "if",
    "initial",
    "inout",
    "input",
    "integer",
    "logic",
    "module",
    "nand",
    "nor",
    "not",
    "or",
    "output",
    "parameter",
    "reg",
    "signed",
    "wire",
    "xnor",
    "xor",
    "bit",
    "byte",
    "int",
];

impl Module {
    /// An empty module.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            header: Vec::new(),
            clocked: false,
            ports: Vec::new(),
            wires: Vec::new(),
            assigns: Vec::new(),
            registers: Vec::new(),
            instances: Vec::new(),
        }
    }

    /// The module's name (also its file's name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the module has a clock and reset.
    pub fn is_clocked(&self) -> bool {
        self.clocked
    }

    fn check_name(&self, name: &str) {
        let fresh = !self.ports.iter().any(|p| p.signal.name == name)
            && !self.wires.iter().any(|w| w.name == name)
            && !self.registers.iter().any(|r| r.q.name == name)
            && !matches!(name, "clk_i" | "rst_ni");
        assert!(fresh, "{name} declared twice in {}", self.name);
        assert!(!KEYWORDS.contains(&name), "{name} is a keyword");
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && name.starts_with(|c: char| c.is_ascii_lowercase()),
            "{name} is not a lower_snake_case identifier"
        );
    }

    /// Adds `clk_i` and `rst_ni`.
    pub fn add_clock(&mut self) {
        self.clocked = true;
    }

    /// Adds an input port.
    pub fn input(&mut self, name: &str, width: u32, doc: &str) -> Signal {
        self.port(name, width, Direction::Input, doc)
    }

    /// Adds an output port.
    pub fn output(&mut self, name: &str, width: u32, doc: &str) -> Signal {
        self.port(name, width, Direction::Output, doc)
    }

    fn port(&mut self, name: &str, width: u32, direction: Direction, doc: &str) -> Signal {
        self.check_name(name);
        let signal = Signal {
            name: name.into(),
            width,
        };
        assert!(width > 0, "zero-width port {name}");
        self.ports.push(Port {
            signal: signal.clone(),
            direction,
            doc: doc.into(),
        });
        signal
    }

    /// Declares a wire.
    pub fn wire(&mut self, name: &str, width: u32) -> Signal {
        self.check_name(name);
        assert!(width > 0, "zero-width wire {name}");
        let signal = Signal {
            name: name.into(),
            width,
        };
        self.wires.push(signal.clone());
        signal
    }

    /// Declares a wire driven by `value`.
    pub fn wire_of(&mut self, name: &str, value: Expr) -> Signal {
        let signal = self.wire(name, value.width());
        self.assign(&signal, value);
        signal
    }

    /// `assign signal = value;` (widths must match).
    pub fn assign(&mut self, signal: &Signal, value: Expr) {
        self.assign_target(
            Target {
                signal: signal.clone(),
                range: None,
            },
            value,
        );
    }

    /// `assign signal[bit] = value;` for a 1-bit value.
    pub fn assign_bit(&mut self, signal: &Signal, bit: u32, value: Expr) {
        assert!(bit < signal.width, "bit {bit} of {}", signal.name);
        self.assign_target(
            Target {
                signal: signal.clone(),
                range: Some((bit, bit)),
            },
            value,
        );
    }

    /// `assign signal[msb:lsb] = value;` for a value of `msb - lsb + 1` bits.
    pub fn assign_range(&mut self, signal: &Signal, msb: u32, lsb: u32, value: Expr) {
        assert!(
            lsb <= msb && msb < signal.width,
            "[{msb}:{lsb}] of {}",
            signal.name
        );
        self.assign_target(
            Target {
                signal: signal.clone(),
                range: Some((msb, lsb)),
            },
            value,
        );
    }

    fn assign_target(&mut self, target: Target, value: Expr) {
        assert_eq!(
            target.width(),
            value.width(),
            "assignment to {} of a {}-bit value",
            target.signal.name,
            value.width()
        );
        self.assigns.push((target, value));
    }

    /// Declares register `name` (clocked by `clk_i`, reset to `reset`) loading `d` every cycle.
    pub fn register(&mut self, name: &str, d: Expr, reset: u64) -> Signal {
        assert!(self.clocked, "register {name} in an unclocked module");
        self.check_name(name);
        let q = Signal {
            name: name.into(),
            width: d.width(),
        };
        self.registers.push(Register {
            q: q.clone(),
            d,
            reset,
            enable: None,
            wide_reset: None,
        });
        q
    }

    /// Declares register `name` loading `d` every edge, reset to the constant expression
    /// `reset` (of `d`'s width, any width: for registers wider than 64 bits).
    pub fn register_wide(&mut self, name: &str, d: Expr, reset: Expr) -> Signal {
        assert!(
            reset.is_constant(),
            "the reset value of {name} must be constant"
        );
        assert_eq!(
            reset.width(),
            d.width(),
            "reset value of {name} of another width"
        );
        let q = self.register(name, d, 0);
        if let Some(r) = self.registers.last_mut() {
            r.wide_reset = Some(reset);
        }
        q
    }

    /// Declares register `name` (clocked by `clk_i`, reset to `reset`) loading `d` on the edges
    /// where the 1-bit `enable` is 1 and holding its value otherwise.
    pub fn register_enabled(&mut self, name: &str, d: Expr, reset: u64, enable: Expr) -> Signal {
        assert_eq!(enable.width(), 1, "the enable of {name} must be 1 bit");
        let q = self.register(name, d, reset);
        if let Some(r) = self.registers.last_mut() {
            r.enable = Some(enable);
        }
        q
    }

    /// Instantiates `sub` as `u_<prefix>`: `inputs` drive its input ports (every one, with
    /// matching widths), and each output port `<port>_o` drives a new wire `<prefix>_<port>`;
    /// returns those wires by port name. A clocked `sub` needs a clocked parent.
    pub fn instantiate(
        &mut self,
        sub: &Module,
        prefix: &str,
        inputs: Vec<(&str, Expr)>,
    ) -> std::collections::BTreeMap<String, Signal> {
        assert!(
            !sub.clocked || self.clocked,
            "clocked {} in an unclocked module",
            sub.name
        );
        let mut given: std::collections::BTreeMap<&str, Expr> = inputs.into_iter().collect();
        let mut outputs = std::collections::BTreeMap::new();
        let mut connections = Vec::new();
        for port in &sub.ports {
            let name = port.signal.name();
            let value = match port.direction {
                Direction::Input => {
                    let value = given
                        .remove(name)
                        .unwrap_or_else(|| panic!("{}.{name} is not connected", sub.name));
                    assert_eq!(
                        value.width(),
                        port.signal.width(),
                        "{}.{name} connected to a {}-bit value",
                        sub.name,
                        value.width()
                    );
                    value
                }
                Direction::Output => {
                    let base = name.strip_suffix("_o").unwrap_or(name);
                    let wire = self.wire(&format!("{prefix}_{base}"), port.signal.width());
                    outputs.insert(name.to_string(), wire.clone());
                    wire.expr()
                }
            };
            connections.push((name.to_string(), value));
        }
        assert!(
            given.is_empty(),
            "{} has no ports {:?}",
            sub.name,
            given.keys()
        );
        self.instances.push(Instance {
            module: sub.name.clone(),
            name: format!("u_{prefix}"),
            clocked: sub.clocked,
            connections,
        });
        outputs
    }

    /// A register `<base>_q` whose next value is the wire `<base>_d`, returned as
    /// `(q, d)`: assign `d` later, so the next value may depend on `q` itself (feedback).
    pub fn state(&mut self, base: &str, width: u32, reset: u64) -> (Signal, Signal) {
        let d = self.wire(&format!("{base}_d"), width);
        let q = self.register(&format!("{base}_q"), d.expr(), reset);
        (q, d)
    }

    /// Sinks `value` into a wire named `unused_<what>`: the lowRISC idiom for inputs a block
    /// ignores, which Verilator's default `--unused-regexp` honours.
    pub fn sink_unused(&mut self, what: &str, value: Expr) {
        self.wire_of(&format!("unused_{what}"), value);
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Input => "input",
            Direction::Output => "output",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_zeros_and_state_registers() {
        let mut m = Module::new("m");
        m.add_clock();
        let a = m.input("a_i", 8, "");
        assert_eq!(a.expr().zext(173).width(), 173);
        assert_eq!(Expr::zeros(129).width(), 129);
        let (q, d) = m.state("count", 4, 0);
        m.assign(&d, q.expr().add(Expr::constant(1, 4)));
        assert_eq!(m.registers[0].q.name(), "count_q");
        assert_eq!(m.wires[0].name(), "count_d");
    }
    use std::ops::{Add, Mul, Shl, Sub};

    #[test]
    fn bits_for_counts() {
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(14), 4);
        assert_eq!(bits_for(16), 4);
        assert_eq!(bits_for(17), 5);
        assert_eq!(index_width(64), 6);
        assert_eq!(index_width(1), 1);
    }

    #[test]
    #[should_panic(expected = "Xor of different widths")]
    fn width_mismatch_is_refused() {
        let mut m = Module::new("m");
        let a = m.input("a_i", 4, "");
        let b = m.input("b_i", 3, "");
        let _ = a.expr().xor(b.expr());
    }

    #[test]
    fn arithmetic_keeps_the_operand_width() {
        let mut m = Module::new("m");
        let a = m.input("a_i", 4, "");
        let b = m.input("b_i", 4, "");
        assert_eq!(a.expr().add(b.expr()).width(), 4);
        assert_eq!(a.expr().zext(5).add(b.expr().zext(5)).width(), 5);
        assert_eq!(a.expr().mul(Expr::constant(3, 4)).width(), 4);
        assert_eq!(a.expr().ge(b.expr()).width(), 1);
        assert_eq!(a.expr().eq(b.expr()).width(), 1);
        let sel = a.expr().lt(b.expr());
        assert_eq!(Expr::mux(sel, a.expr(), b.expr().sub(a.expr())).width(), 4);
        assert_eq!(a.expr().zext(4), a.expr());
        assert_eq!(a.expr().shl(b.bit(0)).width(), 4);
        assert!(Expr::concat(vec![Expr::constant(1, 64), Expr::constant(0, 8)]).is_constant());
        assert!(!a.expr().is_constant());
    }

    #[test]
    #[should_panic(expected = "Add of different widths")]
    fn arithmetic_width_mismatch_is_refused() {
        let mut m = Module::new("m");
        let a = m.input("a_i", 4, "");
        let b = m.input("b_i", 5, "");
        let _ = a.expr().add(b.expr());
    }

    #[test]
    #[should_panic(expected = "mux arms of different widths")]
    fn mux_arms_must_match() {
        let mut m = Module::new("m");
        let a = m.input("a_i", 4, "");
        let b = m.input("b_i", 5, "");
        let _ = Expr::mux(a.bit(0), a.expr(), b.expr());
    }

    #[test]
    #[should_panic(expected = "declared twice")]
    fn duplicate_names_are_refused() {
        let mut m = Module::new("m");
        m.input("a_i", 4, "");
        m.wire("a_i", 4);
    }
}
