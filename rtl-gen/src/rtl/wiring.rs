//! Wiring that a wide, many-lane block needs (the shared memory's, the bank-conflict
//! counter's): buses gathered from many parts in pieces that keep every line readable, OR and
//! sum trees, wide constants, and registers split into parts of at most 64 bits (a reset
//! literal wider than that would not fit a line). It lives beside the emitter because it
//! knows how long the emitter's lines are.

use super::ir::ExprKind;
use super::layout::WIDTH;
use super::{Expr, Module, Signal};
use testbenches::Bits;

/// The longest line the pieces of a gathered bus may take, in characters: ten under the
/// emitter's [`WIDTH`].
const LINE_LIMIT: usize = WIDTH - 10;

/// The emitter's line limit, for lines whose length is estimated from above.
const HARD_LIMIT: usize = WIDTH;

fn digits(v: u32) -> usize {
    v.to_string().len()
}

/// An upper estimate of how long `e` prints (exact for whole signals, selects and constants).
fn printed_len(e: &Expr) -> usize {
    match e.kind() {
        ExprKind::Ref(name) => name.len(),
        ExprKind::Slice { signal, msb, lsb } if msb == lsb => signal.len() + digits(*msb) + 2,
        ExprKind::Slice { signal, msb, lsb } => signal.len() + digits(*msb) + digits(*lsb) + 3,
        ExprKind::Index { signal, index } => signal.len() + printed_len(index) + 2,
        ExprKind::Read { memory, address } => memory.len() + printed_len(address) + 2,
        ExprKind::Const(_) => e.width().div_ceil(4) as usize + digits(e.width()) + 2,
        ExprKind::Concat(parts) => parts.iter().map(|p| printed_len(p) + 2).sum::<usize>() + 2,
        ExprKind::Unary(_, a) => printed_len(a) + 3,
        ExprKind::Binary(_, a, b) => printed_len(a) + printed_len(b) + 8,
        ExprKind::Mux {
            sel,
            then,
            otherwise,
        } => printed_len(sel) + printed_len(then) + printed_len(otherwise) + 12,
        ExprKind::Select { arms, default } => {
            arms.iter()
                .map(|(c, v)| printed_len(c) + printed_len(v) + 6)
                .sum::<usize>()
                + printed_len(default)
        }
    }
}

/// Declares wire `name` made of `parts`, part 0 in the low bits, and assigns it in pieces of
/// consecutive parts whose lines stay under the line limit.
pub fn gather(module: &mut Module, name: &str, parts: Vec<Expr>) -> Signal {
    let width = parts.iter().map(Expr::width).sum();
    let wire = module.wire(name, width);
    let overhead = "  assign ".len() + name.len() + "[9999:9999] = {};".len();
    let mut lsb = 0;
    let mut piece: Vec<Expr> = Vec::new();
    let mut length = overhead;
    let flush = |module: &mut Module, piece: &mut Vec<Expr>, lsb: &mut u32| {
        if piece.is_empty() {
            return;
        }
        let w: u32 = piece.iter().map(Expr::width).sum();
        let value = Expr::concat(piece.drain(..).rev().collect());
        if w == width {
            module.assign(&wire, value);
        } else {
            module.assign_range(&wire, *lsb + w - 1, *lsb, value);
        }
        *lsb += w;
    };
    for part in parts {
        let len = printed_len(&part) + 2;
        if !piece.is_empty() && length + len > LINE_LIMIT {
            flush(module, &mut piece, &mut lsb);
            length = overhead;
        }
        length += len;
        piece.push(part);
    }
    flush(module, &mut piece, &mut lsb);
    wire
}

/// Bits `bits` of `signal` (ascending), as parts for [`gather`] with runs of consecutive bits
/// merged into part selects.
pub fn bit_runs(signal: &Signal, bits: &[u32]) -> Vec<Expr> {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < bits.len() {
        let mut j = i;
        while j + 1 < bits.len() && bits[j + 1] == bits[j] + 1 {
            j += 1;
        }
        parts.push(signal.slice(bits[j], bits[i]));
        i = j + 1;
    }
    parts
}

/// Bit `bit` of every `stride`-bit field of `signal` (field 0 first): one bit plane of a
/// lane-major bus.
pub fn plane(signal: &Signal, stride: u32, bit: u32) -> Vec<Expr> {
    (0..signal.width() / stride)
        .map(|field| signal.bit(field * stride + bit))
        .collect()
}

/// The OR of `terms` (all of one width) as a balanced tree of wires `<name>_t<level>_<k>`,
/// the root named `name`: one short line per OR, and a depth of `ceil(log2(terms))` whatever
/// the synthesis tool does with it.
pub fn or_tree(module: &mut Module, name: &str, terms: Vec<Expr>) -> Signal {
    tree(module, name, terms, Expr::or)
}

/// The number of set bits of `bits`, `bits_for(width + 1)` bits wide, as a balanced tree of
/// sums (wires as [`or_tree`]'s).
pub fn popcount(module: &mut Module, name: &str, bits: &Signal) -> Signal {
    let width = crate::rtl::ir::bits_for(u64::from(bits.width()) + 1);
    let terms = (0..bits.width()).map(|i| bits.bit(i).zext(width)).collect();
    tree(module, name, terms, |a, b| a + b)
}

/// The largest of `terms` (unsigned, all of one width) as a balanced tree of wires (named as
/// [`or_tree`]'s).
pub fn max_tree(module: &mut Module, name: &str, terms: Vec<Expr>) -> Signal {
    tree(module, name, terms, |a, b| {
        Expr::mux(a.clone().lt(b.clone()), b, a)
    })
}

/// `terms` (all of one width) combined by `op` as a balanced tree of wires
/// `<name>_t<level>_<k>`, the root named `name`.
fn tree(module: &mut Module, name: &str, terms: Vec<Expr>, op: fn(Expr, Expr) -> Expr) -> Signal {
    assert!(!terms.is_empty(), "a tree of nothing");
    let fits = |a: &Expr, b: &Expr| {
        "  assign ".len() + name.len() + "_t99_99 = ;".len() + printed_len(a) + printed_len(b) + 3
            <= HARD_LIMIT
    };
    let mut level = terms;
    let mut depth = 0;
    while level.len() > 1 {
        depth += 1;
        let last = level.len() <= 2;
        let mut next = Vec::new();
        let mut items = level.into_iter().enumerate();
        while let Some((k, mut a)) = items.next() {
            let Some((_, mut b)) = items.next() else {
                next.push(a);
                continue;
            };
            if !fits(&a, &b) {
                a = module.wire_of(&format!("{name}_in{depth}_{k}"), a).expr();
                b = module
                    .wire_of(&format!("{name}_in{depth}_{}", k + 1), b)
                    .expr();
            }
            let wire = if last {
                name.to_string()
            } else {
                format!("{name}_t{depth}_{}", k / 2)
            };
            next.push(module.wire_of(&wire, op(a, b)).expr());
        }
        level = next;
    }
    let root = level.pop().unwrap_or_else(|| unreachable!("one term left"));
    if depth == 0 {
        return module.wire_of(name, root);
    }
    module
        .wires()
        .iter()
        .find(|w| w.name() == name)
        .cloned()
        .unwrap_or_else(|| unreachable!("the root wire was declared"))
}

/// `value` as a constant expression, in 64-bit pieces (most significant first).
pub fn constant(value: &Bits) -> Expr {
    let width = value.width();
    let pieces: Vec<Expr> = (0..width.div_ceil(64))
        .rev()
        .map(|k| {
            let w = (width - 64 * k).min(64);
            Expr::constant(value.field(64 * k, w), w as u32)
        })
        .collect();
    Expr::concat(pieces)
}

/// A register loading `d` on the edges where `enable` is 1, reset to 0: `<name>_q` when `d` has
/// at most 64 bits, otherwise parts `<name>_p<k>_q` of 64 bits gathered into wire `<name>_all`.
/// Returns the register's value.
pub fn register(module: &mut Module, name: &str, d: &Signal, enable: Expr) -> Signal {
    let width = d.width();
    if width <= 64 {
        return module.register_enabled(&format!("{name}_q"), d.expr(), 0, enable);
    }
    let parts: Vec<Expr> = (0..width.div_ceil(64))
        .map(|k| {
            let msb = (64 * k + 63).min(width - 1);
            module
                .register_enabled(
                    &format!("{name}_p{k}_q"),
                    d.slice(msb, 64 * k),
                    0,
                    enable.clone(),
                )
                .expr()
        })
        .collect();
    gather(module, &format!("{name}_all"), parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rtl::verilog::emit;

    #[test]
    fn gathered_buses_keep_lines_short_and_bits_in_order() {
        let mut m = Module::new("demo");
        let a = m.input("a_long_input_name_i", 512, "");
        let y = m.output("y_o", 512, "");
        let parts = plane(&a, 16, 3)
            .into_iter()
            .chain((0..16).flat_map(|b| plane(&a, 16, b)))
            .collect::<Vec<_>>();
        assert_eq!(parts.len(), 32 + 512);
        let wire = gather(&mut m, "spread", parts[32..].to_vec());
        m.assign(&y, wire.expr());
        let text = emit(&m);
        assert!(text.lines().all(|l| l.len() <= WIDTH), "{text}");
        // Bit 0 of the wire is bit 0 of field 0; bit 32 is bit 0 of field... b = 1, field 0.
        assert!(
            text.contains("a_long_input_name_i[16], a_long_input_name_i[0]};"),
            "{text}"
        );
        assert_eq!(
            bit_runs(&a, &[0, 1, 2, 5, 7, 8]).len(),
            3,
            "runs 0..2, 5, 7..8"
        );
    }

    #[test]
    fn or_trees_are_balanced() {
        let mut m = Module::new("demo");
        let a = m.input("a_i", 5 * 4, "");
        let terms = (0..5).map(|i| a.slice(4 * i + 3, 4 * i)).collect();
        let root = or_tree(&mut m, "any", terms);
        assert_eq!((root.name(), root.width()), ("any", 4));
        let text = emit(&m);
        assert!(
            text.contains("assign any_t1_0 = a_i[3:0] | a_i[7:4];"),
            "{text}"
        );
        assert!(
            text.contains("assign any_t2_0 = any_t1_0 | any_t1_1;"),
            "{text}"
        );
        assert!(
            text.contains("assign any = any_t2_0 | a_i[19:16];"),
            "{text}"
        );
        let one = or_tree(&mut m, "alone", vec![a.slice(3, 0)]);
        assert_eq!(one.name(), "alone");
    }

    #[test]
    fn wide_constants_and_registers_split_at_64_bits() {
        let mut v = Bits::zero(100);
        v.set_field(60, 8, 0xa5);
        let c = constant(&v);
        assert_eq!(c.width(), 100);
        let mut m = Module::new("demo");
        m.add_clock();
        let d = m.input("d_i", 100, "");
        let en = m.input("en_i", 1, "");
        let q = register(&mut m, "wide", &d, en.expr());
        assert_eq!((q.name(), q.width()), ("wide_all", 100));
        let narrow = register(&mut m, "narrow", &en, en.expr());
        assert_eq!(narrow.name(), "narrow_q");
        let text = emit(&m);
        assert!(text.contains("wide_p1_q <= d_i[99:64];"), "{text}");
    }
}
