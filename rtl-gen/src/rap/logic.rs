//! The converter's logic in the RTL representation.
//!
//! Each shift table is stored bit-sliced: wire (or register-backed wire) `<table>_bit<b>` holds
//! bit `b` of every entry, entry 0 in bit 0, so `<table>[b] = <table>_bit<b>[index]` is one
//! `w:1` bit-select per shift bit: a ROM for a baked table, a read port for a loadable one. A
//! loadable table is the `ceil(log2 w)` registers `<table>_bit<b>_q` of `w` bits each (reset to
//! the design's table). A rising edge with `perm_we_i` set (and, for 3P, `perm_sel_i` naming the
//! table: 0 `r`, 1 `s`, 2 `t`) writes
//! - unpacked: bit `b` of `perm_val_i` into bit `perm_idx_i` of `<table>_bit<b>_q`;
//! - packed (the paper's Fig. 7): the fields of the 32-bit `perm_val_i` into the entries of word
//!   `perm_idx_i`, entry `per * q + s` from bits `bits * s ..` (`models::rap::packed`).
//!
//! (One register per entry, `w` of them with a comparator each, is the same hardware but took
//! Verilator minutes and gigabytes to build at `w = 1024`.)
//!
//! The shifts read and the column are added modulo `w`: for a power-of-two `w` an adder that
//! wraps, and the address is the concatenation of the row coordinates and the bank; for any
//! other `w` each addition is one bit wider and brought back below `w` by a compare-and-subtract,
//! and the address is `((i * w + j) * w + k) * w + bank` (`row * w + bank` for a matrix).

use super::RapDesign;
use crate::rtl::{Expr, Module, Signal};
use hdl_util::Bits;
use models::rap::packed::packing;
use std::ops::{Add, Mul, Not, Shl, Sub};

/// Bit `b` of every entry of `table`, entry 0 in bit 0.
fn bit_column(table: &[u32], b: u32) -> Bits {
    let mut bits = Bits::zero(table.len());
    for (entry, &shift) in table.iter().enumerate() {
        bits.set_bit(entry, shift >> b & 1 == 1);
    }
    bits
}

/// The write port of a loadable converter.
struct WritePort {
    we: Signal,
    sel: Option<Signal>,
    idx: Signal,
    val: Signal,
}

impl WritePort {
    fn declare(module: &mut Module, design: &RapDesign) -> Self {
        let w = design.w();
        let rows = design.write_rows();
        let what = if design.packed() {
            "Packed word"
        } else {
            "Entry"
        };
        let we = module.input(
            "perm_we_i",
            1,
            if design.packed() {
                "Write enable of the shift tables: a rising edge with it set loads the packed word perm_val_i into word perm_idx_i."
            } else {
                "Write enable of the shift tables: a rising edge with it set loads perm_val_i into entry perm_idx_i."
            },
        );
        let sel = (design.table_select_bits() > 0).then(|| {
            module.input(
                "perm_sel_i",
                design.table_select_bits(),
                "Table written: 0 r (indexed by i_i), 1 s (j_i), 2 t (k_i); 3 writes nothing.",
            )
        });
        let idx_doc = if rows.is_power_of_two() {
            format!("{what} written, 0 to {}.", rows - 1)
        } else {
            format!(
                "{what} written, 0 to {}; larger values write nothing.",
                rows - 1
            )
        };
        let idx = module.input("perm_idx_i", design.write_index_bits(), &idx_doc);
        let val_doc = if design.packed() {
            let (bits, per) = packing(w);
            format!(
                "Packed word (Fig. 7): entry {per}q + s from bits {bits}s up, each 0 to {}; bits above {} ignored.",
                w - 1,
                bits * per - 1
            )
        } else {
            format!("Shift written, 0 to {}.", w - 1)
        };
        let val = module.input("perm_val_i", design.write_value_bits(), &val_doc);
        Self { we, sel, idx, val }
    }

    /// The register file of table `n` (`prefix` names its wires): one register per shift bit,
    /// reset to `reset`; returns the bit columns.
    fn table(
        &self,
        module: &mut Module,
        design: &RapDesign,
        n: usize,
        prefix: &str,
        reset: &[u32],
    ) -> Vec<Signal> {
        let w = design.w();
        let m = design.index_bits();
        let rows = design.write_rows();
        let enable = match &self.sel {
            Some(sel) => self
                .we
                .expr()
                .and(sel.expr().eq(Expr::constant(n as u64, sel.width()))),
            None => self.we.expr(),
        };
        // One-hot on the row (entry or packed word) written: all zeros without a write, or for
        // an index at or above the rows, shifted out of the top.
        let one_hot = if rows > 1 {
            Expr::concat(vec![Expr::zeros(rows - 1), enable])
        } else {
            enable
        };
        let sel = module.wire_of(&format!("{prefix}write_sel"), one_hot.shl(self.idx.expr()));
        let (bits, per) = packing(w);
        // Packed: which entries the word written covers, and where each takes its bits from.
        let entry_sel = design.packed().then(|| {
            let spread = (0..w).rev().map(|r| sel.bit(r / per)).collect();
            module.wire_of(&format!("{prefix}entry_sel"), Expr::concat(spread))
        });
        (0..m)
            .map(|b| {
                let column = module.wire(&format!("{prefix}bit{b}"), w);
                let d = match &entry_sel {
                    Some(entry_sel) => {
                        let data = (0..w)
                            .rev()
                            .map(|r| self.val.bit(bits * (r % per) + b))
                            .collect();
                        let data =
                            module.wire_of(&format!("{prefix}data_bit{b}"), Expr::concat(data));
                        column
                            .expr()
                            .and(entry_sel.expr().not())
                            .or(data.expr().and(entry_sel.expr()))
                    }
                    None => Expr::mux(
                        self.val.bit(b),
                        column.expr().or(sel.expr()),
                        column.expr().and(sel.expr().not()),
                    ),
                };
                let q =
                    module.register_reset_to(&format!("{prefix}bit{b}_q"), d, bit_column(reset, b));
                module.assign(&column, q.expr());
                column
            })
            .collect()
    }

    /// Sinks the bits of a packed word no field uses (above the `per` fields, or above the
    /// `w` fields of a table that fits one word).
    fn sink_padding(&self, module: &mut Module, design: &RapDesign) {
        let (bits, per) = packing(design.w());
        let used = bits * per.min(design.w());
        if design.packed() && used < self.val.width() {
            module.sink_unused("perm_val", self.val.slice(self.val.width() - 1, used));
        }
    }
}

/// `(a + b) mod w` for `a`, `b` below `w`, as wire `name` (`m` bits).
fn add_mod(module: &mut Module, name: &str, a: Expr, b: Expr, w: u32, m: u32) -> Signal {
    if w.is_power_of_two() {
        return module.wire_of(name, a.add(b));
    }
    let wide = |v: u64| Expr::constant(v, m + 1);
    let sum = module.wire_of(&format!("{name}_sum"), a.zext(m + 1).add(b.zext(m + 1)));
    let wrapped = Expr::mux(
        sum.expr().ge(wide(u64::from(w))),
        sum.expr().sub(wide(u64::from(w))),
        sum.expr(),
    );
    let reduced = module.wire_of(&format!("{name}_wide"), wrapped);
    // Below 2w - 1 before the subtraction and below w after it: the top bit is always 0.
    module.sink_unused(&format!("{name}_wide"), reduced.bit(m));
    module.wire_of(name, reduced.slice(m - 1, 0))
}

/// Builds the module of `design`.
pub fn build(design: &RapDesign, header: Vec<String>) -> Module {
    let w = design.w();
    let m = design.index_bits();
    let a = design.addr_bits();
    let mut module = Module::new(design.name()).with_header(header);
    if design.clocked() {
        module.add_clock();
    }
    let ports = design.index_ports();
    let (row_ports, col_port) = ports.split_at(ports.len() - 1);
    let table_names = design.table_names();
    let rows: Vec<Signal> = row_ports
        .iter()
        .zip(table_names)
        .map(|(port, table)| {
            let doc = if row_ports.len() == 1 {
                format!("Row index, 0 to {}.", w - 1)
            } else {
                format!("Index {}, 0 to {}; reads table {table}.", &port[..1], w - 1)
            };
            module.input(port, m, &doc)
        })
        .collect();
    let col_doc = if row_ports.len() == 1 {
        format!("Column index, 0 to {}.", w - 1)
    } else {
        format!("Index l (the last, contiguous dimension), 0 to {}.", w - 1)
    };
    let col = module.input(col_port[0], m, &col_doc);
    let port = design
        .loadable
        .then(|| WritePort::declare(&mut module, design));
    let tables = design.map().tables();
    let mut shifts = Vec::new();
    for (n, (name, table)) in table_names.iter().zip(&tables).enumerate() {
        let prefix = format!("{name}_");
        let columns: Vec<Signal> = match &port {
            Some(port) => port.table(&mut module, design, n, &prefix, table),
            None => (0..m)
                .map(|b| {
                    module.wire_of(&format!("{prefix}bit{b}"), Expr::bits(bit_column(table, b)))
                })
                .collect(),
        };
        let bits = columns
            .iter()
            .rev()
            .map(|c| c.index(rows[n].expr()))
            .collect();
        shifts.push(module.wire_of(name, Expr::concat(bits)));
    }
    if let Some(port) = &port {
        port.sink_padding(&mut module, design);
    }
    let doc_shift = if tables.len() == 1 {
        "shift[row_i]"
    } else {
        "r[i_i] + s[j_i] + t[k_i]"
    };
    let (addr_doc, bank_doc) = if tables.len() == 1 {
        (
            format!("Converted address row_i * w + ((col_i + {doc_shift}) mod w)"),
            format!("Bank (col_i + {doc_shift}) mod w"),
        )
    } else {
        (
            format!(
                "Converted address ((i_i * w + j_i) * w + k_i) * w + ((l_i + {doc_shift}) mod w)"
            ),
            format!("Bank (l_i + {doc_shift}) mod w"),
        )
    };
    let registered = if design.pipeline {
        ", registered: one cycle after the inputs."
    } else {
        "."
    };
    let addr_o = module.output("addr_o", a, &format!("{addr_doc}{registered}"));
    let bank_o = module.output("bank_o", m, &format!("{bank_doc}{registered}"));
    // The row shift (3P: the sum of the three tables' shifts), then the bank.
    let mut total = shifts[0].clone();
    for (n, shift) in shifts.iter().enumerate().skip(1) {
        let name = if n + 1 == shifts.len() {
            "shift".to_string()
        } else {
            format!("shift{n}")
        };
        total = add_mod(&mut module, &name, total.expr(), shift.expr(), w, m);
    }
    let bank = add_mod(&mut module, "bank", col.expr(), total.expr(), w, m);
    let addr = if w.is_power_of_two() {
        let mut parts: Vec<Expr> = rows.iter().map(Signal::expr).collect();
        parts.push(bank.expr());
        Expr::concat(parts)
    } else {
        let width = Expr::constant(u64::from(w), a);
        rows.iter()
            .map(|r| r.expr().zext(a))
            .chain([bank.expr().zext(a)])
            .reduce(|acc, x| acc.mul(width.clone()).add(x))
            .unwrap_or_else(|| unreachable!("a converter has index ports"))
    };
    if design.pipeline {
        let addr_q = module.register("addr_q", addr, 0);
        let bank_q = module.register("bank_q", bank.expr(), 0);
        module.assign(&addr_o, addr_q.expr());
        module.assign(&bank_o, bank_q.expr());
    } else {
        module.assign(&addr_o, addr);
        module.assign(&bank_o, bank.expr());
    }
    module
}
