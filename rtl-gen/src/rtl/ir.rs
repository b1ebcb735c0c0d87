//! Signals and width-checked expressions, folded as they are built.
//!
//! Width rules (checked when an expression is built; a violation is a generator bug and panics;
//! each operator's doc comment repeats its own rule):
//! - bitwise `and`/`or`/`xor` take two operands of the same width and keep it;
//! - `not` keeps the width; the reductions `reduce_xor`/`reduce_or`/`reduce_and` give 1 bit;
//! - `eq`/`ne` and the unsigned comparisons `lt`/`ge` compare equal widths and give 1 bit;
//! - `shr` and `shl` keep the width of the shifted operand (bits shifted past either end are
//!   lost), the amount may have any width;
//! - arithmetic `add`/`sub`/`mul` take two operands of the same width and keep it: the result is
//!   taken modulo `2^width` (widen the operands with [`Expr::zext`] to keep a carry);
//! - a constant has an explicit width (any width) and must fit in it; a concatenation's width is
//!   the sum of its parts';
//! - a part-select or a variable bit-select applies only to a named signal, never to an
//!   expression (Verilog-2005 has no part-select of an expression); a memory read applies only
//!   to a memory and has its word width;
//! - `mux(sel, a, b)` takes a 1-bit select and two arms of the same width, and keeps it; a
//!   priority select ([`Expr::select`]) takes 1-bit conditions and values of the default's width.
//!
//! Because every operator of an expression tree has operands of equal width, and every target
//! has the width of its value, Verilog's context-determined expression width equals the width
//! the representation computed: no operator is ever evaluated wider or narrower than declared
//! (an `a + b` never gains the carry bit a wider context would give it).
//!
//! Constant folding: the builders never build an operator whose result they already know.
//! `x & 0` is `0`, `x & 1..1`, `x | 0` and `x ^ 0` are `x`, `mux(1, a, b)` is `a` and
//! `mux(s, a, a)` is `a`, an operator of constants is a constant, adjacent constants of a
//! concatenation are one constant, a priority select drops the arms that can never be taken. So
//! the emitted Verilog has no `1'b0 &` or `| 1'b0` for a reader to fold by hand.

use hdl_util::Bits;

/// A named signal with a width: a port, a wire or a register, as expressions refer to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signal {
    name: String,
    width: u32,
}

impl Signal {
    /// A signal named `name` of `width` bits (the module declares it; see [`super::Module`]).
    pub(super) fn new(name: &str, width: u32) -> Self {
        assert!(width > 0, "zero-width signal {name}");
        Self {
            name: name.into(),
            width,
        }
    }

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

    /// Bits `msb` down to `lsb` (a single bit when equal); `lsb <= msb < width`.
    pub fn slice(&self, msb: u32, lsb: u32) -> Expr {
        assert!(
            lsb <= msb && msb < self.width,
            "slice [{msb}:{lsb}] of {}[{}:0]",
            self.name,
            self.width - 1
        );
        if lsb == 0 && msb + 1 == self.width {
            return self.expr();
        }
        Expr::new(
            ExprKind::Slice {
                signal: self.name.clone(),
                msb,
                lsb,
            },
            msb - lsb + 1,
        )
    }

    /// Bit `i`, 1 bit wide.
    pub fn bit(&self, i: u32) -> Expr {
        self.slice(i, i)
    }

    /// The bit selected at run time by `index`, whose width must be `index_width(self.width)`;
    /// 1 bit wide (a constant index is a constant bit-select).
    pub fn index(&self, index: Expr) -> Expr {
        assert_eq!(
            index.width,
            index_width(self.width),
            "index of {} must have {} bits",
            self.name,
            index_width(self.width)
        );
        if let Some(i) = index.as_u64() {
            if i < u64::from(self.width) {
                return self.bit(i as u32);
            }
        }
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
    /// Reduction OR `|`, 1 bit: whether any bit is set.
    ReduceOr,
    /// Reduction AND `&`, 1 bit: whether every bit is set.
    ReduceAnd,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// Bitwise `&`, equal widths.
    And,
    /// Bitwise `|`, equal widths.
    Or,
    /// Bitwise `^`, equal widths.
    Xor,
    /// Inequality `!=` of equal widths, 1 bit.
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
    /// Equality `==` of equal widths, 1 bit.
    Eq,
    /// Unsigned less-than `<` of equal widths, 1 bit.
    Lt,
    /// Unsigned greater-or-equal `>=` of equal widths, 1 bit.
    Ge,
}

impl BinaryOp {
    /// Whether `(a op b) op c` equals `a op (b op c)`, so a chain prints without parentheses.
    pub fn is_associative(self) -> bool {
        matches!(
            self,
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Add | BinaryOp::Mul
        )
    }
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
    /// The word of a memory at a run-time address (an asynchronous read port).
    Read {
        /// The memory.
        memory: String,
        /// The word address.
        address: Box<Expr>,
    },
    /// A sized constant of any width.
    Const(Bits),
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
    /// A priority select: the value of the first arm whose 1-bit condition holds, else the
    /// default (`c0 ? v0 : c1 ? v1 : default`).
    Select {
        /// `(condition, value)` pairs, the first holding condition wins; at least one.
        arms: Vec<(Expr, Expr)>,
        /// The value when no condition holds.
        default: Box<Expr>,
    },
}

/// An expression and its width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    kind: ExprKind,
    width: u32,
}

/// The bits of `a` and `b` (equal widths) combined bit by bit by `f`.
fn bitwise(a: &Bits, b: &Bits, f: impl Fn(bool, bool) -> bool) -> Bits {
    let mut out = Bits::zero(a.width());
    for i in 0..a.width() {
        out.set_bit(i, f(a.bit(i), b.bit(i)));
    }
    out
}

/// Whether every bit of `bits` is `value`.
fn all(bits: &Bits, value: bool) -> bool {
    (0..bits.width()).all(|i| bits.bit(i) == value)
}

/// A mask of the low `width` bits (`width` <= 64).
fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

impl Expr {
    fn new(kind: ExprKind, width: u32) -> Self {
        assert!(width > 0, "zero-width expression {kind:?}");
        Self { kind, width }
    }

    /// The constant `value` of `width` bits (any width; `value` must fit).
    pub fn constant(value: u64, width: u32) -> Self {
        assert!(
            width >= 64 || value >> width == 0,
            "{value:#x} does not fit {width} bits"
        );
        Self::bits(Bits::from_u64(value, width as usize))
    }

    /// The constant `bits`, of their width.
    pub fn bits(bits: Bits) -> Self {
        let width = bits.width() as u32;
        Self::new(ExprKind::Const(bits), width)
    }

    /// The `width`-bit constant whose bit `i` is `bits[i]`.
    pub fn from_bools(bits: &[bool]) -> Self {
        let mut value = Bits::zero(bits.len());
        for (i, &b) in bits.iter().enumerate() {
            value.set_bit(i, b);
        }
        Self::bits(value)
    }

    /// `width` zero bits, one constant of any width.
    pub fn zeros(width: u32) -> Self {
        Self::bits(Bits::zero(width as usize))
    }

    /// `width` one bits.
    pub fn ones(width: u32) -> Self {
        !Self::zeros(width)
    }

    /// The value of a constant expression.
    pub fn as_constant(&self) -> Option<&Bits> {
        match &self.kind {
            ExprKind::Const(bits) => Some(bits),
            _ => None,
        }
    }

    /// The value of a constant of up to 64 bits.
    fn as_u64(&self) -> Option<u64> {
        self.as_constant()
            .filter(|b| b.width() <= 64)
            .map(|b| b.field(0, b.width()))
    }

    /// Whether the expression is a constant.
    pub fn is_constant(&self) -> bool {
        self.as_constant().is_some()
    }

    /// Whether the expression is the constant 0 (of any width).
    pub fn is_zero(&self) -> bool {
        self.is_all(false)
    }

    /// Whether the expression is the constant with every bit `value`.
    fn is_all(&self, value: bool) -> bool {
        self.as_constant().is_some_and(|b| all(b, value))
    }

    /// `{parts[0], parts[1], ...}`: the first part is the most significant; the width is the
    /// sum of the parts'. Adjacent constants are merged into one.
    pub fn concat(parts: Vec<Expr>) -> Self {
        assert!(!parts.is_empty(), "empty concatenation");
        let mut merged: Vec<Expr> = Vec::with_capacity(parts.len());
        for part in parts {
            let part = match part.kind {
                ExprKind::Concat(inner) => inner,
                _ => vec![part],
            };
            for p in part {
                match (merged.last_mut(), p.as_constant()) {
                    (Some(last), Some(low)) if last.is_constant() => {
                        let high = last
                            .as_constant()
                            .cloned()
                            .unwrap_or_else(|| unreachable!());
                        *last = Expr::bits(Bits::concat(&[high, low.clone()]));
                    }
                    _ => merged.push(p),
                }
            }
        }
        if merged.len() == 1 {
            return merged.pop().unwrap_or_else(|| unreachable!());
        }
        let width = merged.iter().map(|p| p.width).sum();
        Self::new(ExprKind::Concat(merged), width)
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

    /// The folded value of `self op rhs` when the operands decide it.
    fn fold(&self, op: BinaryOp, rhs: &Expr) -> Option<Expr> {
        let (a, b) = (self.as_constant(), rhs.as_constant());
        let width = self.width;
        if let (Some(a), Some(b)) = (a, b) {
            let f: Option<fn(bool, bool) -> bool> = match op {
                BinaryOp::And => Some(|x, y| x & y),
                BinaryOp::Or => Some(|x, y| x | y),
                BinaryOp::Xor => Some(|x, y| x ^ y),
                _ => None,
            };
            if let Some(f) = f {
                return Some(Expr::bits(bitwise(a, b, f)));
            }
        }
        match op {
            BinaryOp::And => {
                if self.is_all(false) || rhs.is_all(true) {
                    Some(self.clone())
                } else if rhs.is_all(false) || self.is_all(true) {
                    Some(rhs.clone())
                } else {
                    None
                }
            }
            BinaryOp::Or => {
                if self.is_all(true) || rhs.is_all(false) {
                    Some(self.clone())
                } else if rhs.is_all(true) || self.is_all(false) {
                    Some(rhs.clone())
                } else {
                    None
                }
            }
            BinaryOp::Xor if rhs.is_all(false) => Some(self.clone()),
            BinaryOp::Xor if self.is_all(false) => Some(rhs.clone()),
            BinaryOp::Eq | BinaryOp::Ne => {
                let (a, b) = (a?, b?);
                let equal = a == b;
                Some(Expr::constant(u64::from(equal == (op == BinaryOp::Eq)), 1))
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Shr | BinaryOp::Shl if rhs.is_all(false) => {
                Some(self.clone())
            }
            BinaryOp::Add if self.is_all(false) => Some(rhs.clone()),
            BinaryOp::Mul if rhs.is_all(false) => Some(rhs.clone()),
            BinaryOp::Shr | BinaryOp::Shl | BinaryOp::Mul if self.is_all(false) => {
                Some(self.clone())
            }
            _ => {
                let (a, b) = (self.as_u64()?, rhs.as_u64()?);
                let value = match op {
                    BinaryOp::Add => a.wrapping_add(b),
                    BinaryOp::Sub => a.wrapping_sub(b),
                    BinaryOp::Mul => a.wrapping_mul(b),
                    BinaryOp::Shr => a.checked_shr(u32::try_from(b).ok()?).unwrap_or(0),
                    BinaryOp::Shl => a.checked_shl(u32::try_from(b).ok()?).unwrap_or(0),
                    BinaryOp::Lt => return Some(Expr::constant(u64::from(a < b), 1)),
                    BinaryOp::Ge => return Some(Expr::constant(u64::from(a >= b), 1)),
                    _ => return None,
                };
                Some(Expr::constant(value & mask(width), width))
            }
        }
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
        if let Some(folded) = self.fold(op, &rhs) {
            return folded;
        }
        Self::new(ExprKind::Binary(op, Box::new(self), Box::new(rhs)), width)
    }

    /// Bitwise AND of two operands of equal width, that width.
    pub fn and(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::And, rhs)
    }

    /// Bitwise OR of two operands of equal width, that width.
    pub fn or(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Or, rhs)
    }

    /// Bitwise XOR of two operands of equal width, that width.
    pub fn xor(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Xor, rhs)
    }

    /// 1 bit: 1 when the operands (of equal width) differ.
    pub fn ne(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Ne, rhs)
    }

    /// 1 bit: 1 when the operands (of equal width) are equal.
    pub fn eq(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Eq, rhs)
    }

    /// 1 bit: 1 when `self < rhs` (unsigned, equal widths).
    pub fn lt(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Lt, rhs)
    }

    /// 1 bit: 1 when `self >= rhs` (unsigned, equal widths).
    pub fn ge(self, rhs: Expr) -> Self {
        self.binary(BinaryOp::Ge, rhs)
    }

    /// `sel ? then : otherwise`: `sel` is 1 bit, the arms have equal widths, which the result
    /// keeps. A constant select picks its arm; equal arms need no select.
    pub fn mux(sel: Expr, then: Expr, otherwise: Expr) -> Self {
        assert_eq!(sel.width, 1, "a mux select must be 1 bit");
        assert_eq!(then.width, otherwise.width, "mux arms of different widths");
        if then == otherwise {
            return then;
        }
        match sel.as_u64() {
            Some(1) => return then,
            Some(_) => return otherwise,
            None => {}
        }
        let width = then.width;
        if width == 1 && then.is_all(true) && otherwise.is_all(false) {
            return sel;
        }
        Self::new(
            ExprKind::Mux {
                sel: Box::new(sel),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            },
            width,
        )
    }

    /// A priority select: the value of the first `(condition, value)` arm whose 1-bit
    /// condition holds, else `default`; every value has the default's width, which the result
    /// keeps. Arms after a constant-1 condition and arms with a constant-0 condition are
    /// dropped, and so are trailing arms whose value is the default; one arm left is a mux.
    pub fn select(arms: Vec<(Expr, Expr)>, default: Expr) -> Self {
        let mut kept: Vec<(Expr, Expr)> = Vec::with_capacity(arms.len());
        let mut default = default;
        for (condition, value) in arms {
            assert_eq!(condition.width, 1, "a select condition must be 1 bit");
            assert_eq!(
                value.width, default.width,
                "select values of different widths"
            );
            match condition.as_u64() {
                Some(0) => continue,
                Some(_) => {
                    default = value;
                    break;
                }
                None => kept.push((condition, value)),
            }
        }
        while kept.last().is_some_and(|(_, v)| *v == default) {
            kept.pop();
        }
        match kept.len() {
            0 => default,
            1 => {
                let (condition, value) = kept.pop().unwrap_or_else(|| unreachable!());
                Expr::mux(condition, value, default)
            }
            _ => {
                let width = default.width;
                Self::new(
                    ExprKind::Select {
                        arms: kept,
                        default: Box::new(default),
                    },
                    width,
                )
            }
        }
    }

    /// A one-hot select of `width` bits: the OR of the values whose 1-bit conditions hold, zero
    /// when none does. It equals [`Expr::select`] over the same arms with a zero default when at
    /// most one condition holds at a time (a decoded address, say), and costs less than that
    /// priority chain: each value is gated by its own condition and synthesis balances the OR
    /// into a tree, where a chain of `?:` must be kept in order (a 32-entry read port: about
    /// 10 um² a bit less at NanGate45, and the depth of a tree instead of a chain).
    pub fn one_hot_select(arms: Vec<(Expr, Expr)>, width: u32) -> Self {
        arms.into_iter()
            .map(|(condition, value)| {
                assert_eq!(
                    value.width, width,
                    "one-hot select values of different widths"
                );
                Expr::mux(condition, value, Expr::zeros(width))
            })
            .reduce(|a, b| a.or(b))
            .unwrap_or_else(|| Expr::zeros(width))
    }

    /// `values[k]` for the `k` that `selector` holds, `default` for any other value: a priority
    /// select over `selector == k` (a case statement without overlapping items).
    pub fn case(selector: &Expr, values: Vec<(u64, Expr)>, default: Expr) -> Self {
        let arms = values
            .into_iter()
            .map(|(k, v)| {
                let k = Expr::constant(k, selector.width);
                (selector.clone().eq(k), v)
            })
            .collect();
        Self::select(arms, default)
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

    fn unary(self, op: UnaryOp) -> Self {
        let width = match op {
            UnaryOp::Not => self.width,
            UnaryOp::ReduceXor | UnaryOp::ReduceOr | UnaryOp::ReduceAnd => 1,
        };
        if let Some(bits) = self.as_constant() {
            let folded = match op {
                UnaryOp::Not => {
                    let mut out = bits.clone();
                    for i in 0..bits.width() {
                        out.set_bit(i, !bits.bit(i));
                    }
                    out
                }
                UnaryOp::ReduceXor => {
                    let ones = (0..bits.width()).filter(|&i| bits.bit(i)).count();
                    Bits::from_u64((ones % 2) as u64, 1)
                }
                UnaryOp::ReduceOr => Bits::from_u64(u64::from(!all(bits, false)), 1),
                UnaryOp::ReduceAnd => Bits::from_u64(u64::from(all(bits, true)), 1),
            };
            return Expr::bits(folded);
        }
        if self.width == 1 && op != UnaryOp::Not {
            return self;
        }
        if let (UnaryOp::Not, ExprKind::Unary(UnaryOp::Not, inner)) = (op, &self.kind) {
            return (**inner).clone();
        }
        Self::new(ExprKind::Unary(op, Box::new(self)), width)
    }

    /// 1 bit: the XOR of all bits (parity).
    pub fn reduce_xor(self) -> Self {
        self.unary(UnaryOp::ReduceXor)
    }

    /// 1 bit: 1 when any bit is set.
    pub fn reduce_or(self) -> Self {
        self.unary(UnaryOp::ReduceOr)
    }

    /// 1 bit: 1 when every bit is set.
    pub fn reduce_and(self) -> Self {
        self.unary(UnaryOp::ReduceAnd)
    }

    /// A memory word read at `address` (see [`super::module::Memory::read`]).
    pub(super) fn read(memory: &str, address: Expr, width: u32) -> Self {
        Self::new(
            ExprKind::Read {
                memory: memory.into(),
                address: Box::new(address),
            },
            width,
        )
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
        self.unary(UnaryOp::Not)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::{Add, Mul, Not, Shl, Sub};

    fn sig(name: &str, width: u32) -> Signal {
        Signal::new(name, width)
    }

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
        let _ = sig("a_i", 4).expr().xor(sig("b_i", 3).expr());
    }

    #[test]
    fn arithmetic_keeps_the_operand_width() {
        let (a, b) = (sig("a_i", 4), sig("b_i", 4));
        assert_eq!(a.expr().add(b.expr()).width(), 4);
        assert_eq!(a.expr().zext(5).add(b.expr().zext(5)).width(), 5);
        assert_eq!(a.expr().mul(Expr::constant(3, 4)).width(), 4);
        assert_eq!(a.expr().ge(b.expr()).width(), 1);
        assert_eq!(a.expr().eq(b.expr()).width(), 1);
        let sel = a.expr().lt(b.expr());
        assert_eq!(Expr::mux(sel, a.expr(), b.expr().sub(a.expr())).width(), 4);
        assert_eq!(a.expr().zext(4), a.expr());
        assert_eq!(a.expr().shl(b.bit(0)).width(), 4);
        assert_eq!(a.expr().zext(173).width(), 173);
        assert!(!a.expr().is_constant());
    }

    #[test]
    fn constants_have_any_width_and_concatenate_into_one() {
        let wide = Expr::concat(vec![Expr::constant(1, 8), Expr::constant(u64::MAX, 64)]);
        assert_eq!(wide.width(), 72);
        let bits = wide.as_constant().unwrap();
        assert_eq!(bits.to_hex(), "01ffffffffffffffff");
        assert_eq!(Expr::zeros(173).width(), 173);
        assert!(Expr::ones(130).is_all(true));
        let a = sig("a_i", 4);
        let mixed = Expr::concat(vec![
            Expr::zeros(2),
            Expr::constant(1, 1),
            a.expr(),
            Expr::zeros(3),
        ]);
        match mixed.kind() {
            ExprKind::Concat(parts) => {
                assert_eq!(parts.len(), 3);
                assert_eq!(parts[0], Expr::constant(1, 3));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(Expr::from_bools(&[true, false, true]), Expr::constant(5, 3));
    }

    #[test]
    fn one_hot_select_ors_the_gated_values() {
        let (a, b, s, t) = (sig("a_i", 4), sig("b_i", 4), sig("s_i", 1), sig("t_i", 1));
        let picked = Expr::one_hot_select(vec![(s.expr(), a.expr()), (t.expr(), b.expr())], 4);
        let gated = |c: &Signal, v: &Signal| Expr::mux(c.expr(), v.expr(), Expr::zeros(4));
        assert_eq!(picked, gated(&s, &a).or(gated(&t, &b)));
        assert_eq!(Expr::one_hot_select(vec![], 4), Expr::zeros(4));
        // A constant-0 condition drops its arm, a constant-1 one keeps its value.
        let one = Expr::constant(1, 1);
        let zero = Expr::constant(0, 1);
        assert_eq!(
            Expr::one_hot_select(vec![(zero, a.expr()), (one, b.expr())], 4),
            b.expr()
        );
    }

    #[test]
    fn builders_fold_what_they_know() {
        let (a, s) = (sig("a_i", 4), sig("s_i", 1));
        let zero = Expr::zeros(4);
        let ones = Expr::ones(4);
        assert_eq!(a.expr().and(zero.clone()), zero);
        assert_eq!(zero.clone().and(a.expr()), zero);
        assert_eq!(a.expr().and(ones.clone()), a.expr());
        assert_eq!(a.expr().or(zero.clone()), a.expr());
        assert_eq!(a.expr().or(ones.clone()), ones);
        assert_eq!(a.expr().xor(zero.clone()), a.expr());
        assert_eq!(zero.clone().xor(a.expr()), a.expr());
        assert_eq!(Expr::mux(s.expr(), a.expr(), a.expr()), a.expr());
        assert_eq!(
            Expr::mux(Expr::constant(1, 1), a.expr(), zero.clone()),
            a.expr()
        );
        assert_eq!(
            Expr::mux(Expr::constant(0, 1), a.expr(), zero.clone()),
            zero
        );
        assert_eq!(
            Expr::mux(s.expr(), Expr::constant(1, 1), Expr::constant(0, 1)),
            s.expr()
        );
        assert_eq!(a.expr().not().not(), a.expr());
        assert_eq!(zero.clone().not(), ones);
        assert_eq!(
            Expr::constant(3, 4).add(Expr::constant(14, 4)),
            Expr::constant(1, 4)
        );
        assert_eq!(a.expr().add(zero.clone()), a.expr());
        assert_eq!(a.expr().shl(Expr::zeros(2)), a.expr());
        assert_eq!(
            Expr::constant(3, 4).eq(Expr::constant(3, 4)),
            Expr::constant(1, 1)
        );
        assert_eq!(Expr::constant(6, 4).reduce_xor(), Expr::constant(0, 1));
        assert_eq!(Expr::constant(6, 4).reduce_or(), Expr::constant(1, 1));
        assert_eq!(Expr::constant(6, 4).reduce_and(), Expr::constant(0, 1));
        assert_eq!(s.expr().reduce_or(), s.expr());
        assert_eq!(a.index(Expr::constant(2, 2)), a.bit(2));
        assert_eq!(a.slice(3, 0), a.expr());
    }

    #[test]
    fn priority_selects_drop_arms_never_taken() {
        let (a, b, c) = (sig("a_i", 1), sig("b_i", 1), sig("c_i", 1));
        let v = |k| Expr::constant(k, 2);
        let s = Expr::select(
            vec![
                (Expr::constant(0, 1), v(3)),
                (a.expr(), v(1)),
                (b.expr(), v(2)),
                (c.expr(), v(0)),
            ],
            v(0),
        );
        match s.kind() {
            ExprKind::Select { arms, default } => {
                assert_eq!(arms.len(), 2);
                assert_eq!(**default, v(0));
            }
            other => panic!("{other:?}"),
        }
        let first = Expr::select(vec![(Expr::constant(1, 1), v(1)), (a.expr(), v(2))], v(0));
        assert_eq!(first, v(1));
        let one = Expr::select(vec![(a.expr(), v(1))], v(0));
        assert_eq!(one, Expr::mux(a.expr(), v(1), v(0)));
        let sel = sig("k_i", 2);
        let case = Expr::case(&sel.expr(), vec![(0, v(2)), (1, v(3))], v(0));
        assert_eq!(case.width(), 2);
    }

    #[test]
    #[should_panic(expected = "Add of different widths")]
    fn arithmetic_width_mismatch_is_refused() {
        let _ = sig("a_i", 4).expr().add(sig("b_i", 5).expr());
    }

    #[test]
    #[should_panic(expected = "mux arms of different widths")]
    fn mux_arms_must_match() {
        let (a, b) = (sig("a_i", 4), sig("b_i", 5));
        let _ = Expr::mux(a.bit(0), a.expr(), b.expr());
    }
}
