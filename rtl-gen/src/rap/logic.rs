//! The converter's logic in the RTL representation.
//!
//! The shift table is stored bit-sliced: wire (or register-backed wire) `shift_bit<b>` holds bit
//! `b` of every row's shift, row 0 in bit 0, so `shift[b] = shift_bit<b>[row_i]` is one `w:1`
//! bit-select per shift bit: a ROM for a baked table, a read port for a loadable one. A loadable
//! table is the `ceil(log2 w)` registers `shift_bit<b>_q` of `w` bits each (reset to the
//! design's shifts); a rising edge with `perm_we_i` set writes bit `b` of `perm_val_i` into bit
//! `perm_idx_i` of `shift_bit<b>_q`. (One register per entry, `w` of them with a comparator each,
//! is the same hardware but took Verilator minutes and gigabytes to build at `w = 1024`.)
//!
//! For a power-of-two `w` the rotated column is `col_i + shift` modulo `2^m` and the address is
//! the concatenation `{row_i, bank}`. For any other `w` the sum is one bit wider and brought back
//! below `w` by a compare-and-subtract, and the address is `row_i * w + bank`.

use super::RapDesign;
use crate::rtl::{Expr, Module, Signal};
use std::ops::{Add, Mul, Not, Shl, Sub};

/// A constant of `bits.len()` bits (bit 0 first in `bits`), as 64-bit chunks for wide ones.
fn wide_constant(bits: &[bool]) -> Expr {
    let chunks: Vec<Expr> = bits
        .chunks(64)
        .rev()
        .map(|chunk| {
            let value = chunk
                .iter()
                .enumerate()
                .fold(0u64, |v, (i, &b)| v | (u64::from(b) << i));
            Expr::constant(value, chunk.len() as u32)
        })
        .collect();
    Expr::concat(chunks)
}

/// Builds the module of `design`.
pub fn build(design: &RapDesign, header: Vec<String>) -> Module {
    let w = design.w();
    let m = design.index_bits();
    let a = design.addr_bits();
    let shifts = design.layout().shifts();
    let mut module = Module::new(design.name());
    module.header = header;
    if design.clocked() {
        module.add_clock();
    }
    let row = module.input("row_i", m, &format!("Row index, 0 to {}.", w - 1));
    let col = module.input("col_i", m, &format!("Column index, 0 to {}.", w - 1));
    let columns: Vec<Signal> = if design.loadable {
        let we = module.input(
            "perm_we_i",
            1,
            "Write enable of the shift table: a rising edge with it set loads perm_val_i into entry perm_idx_i.",
        );
        let idx = module.input(
            "perm_idx_i",
            m,
            &if w.is_power_of_two() {
                "Entry (row) written.".to_string()
            } else {
                format!("Entry (row) written; values above {} write nothing.", w - 1)
            },
        );
        let val = module.input("perm_val_i", m, &format!("Shift written, 0 to {}.", w - 1));
        // One w-bit register per shift bit; `write_sel` is one-hot on the entry written (all
        // zeros without perm_we_i, or for an index at or above w, shifted out of the top).
        let sel = module.wire_of(
            "write_sel",
            Expr::concat(vec![wide_constant(&vec![false; w as usize - 1]), we.expr()])
                .shl(idx.expr()),
        );
        (0..m)
            .map(|b| {
                let column = module.wire(&format!("shift_bit{b}"), w);
                let d = Expr::mux(
                    val.bit(b),
                    column.expr().or(sel.expr()),
                    column.expr().and(sel.expr().not()),
                );
                let bits: Vec<bool> = shifts.iter().map(|&s| s >> b & 1 == 1).collect();
                let q = module.register_wide(&format!("shift_bit{b}_q"), d, wide_constant(&bits));
                module.assign(&column, q.expr());
                column
            })
            .collect()
    } else {
        (0..m)
            .map(|b| {
                let bits: Vec<bool> = shifts.iter().map(|&s| s >> b & 1 == 1).collect();
                module.wire_of(&format!("shift_bit{b}"), wide_constant(&bits))
            })
            .collect()
    };
    let addr_o = module.output(
        "addr_o",
        a,
        if design.pipeline {
            "Converted address row_i * w + ((col_i + shift[row_i]) mod w), registered: one cycle after the inputs."
        } else {
            "Converted address row_i * w + ((col_i + shift[row_i]) mod w)."
        },
    );
    let bank_o = module.output(
        "bank_o",
        m,
        if design.pipeline {
            "Bank (col_i + shift[row_i]) mod w, registered."
        } else {
            "Bank (col_i + shift[row_i]) mod w."
        },
    );
    let shift_bits = columns.iter().rev().map(|c| c.index(row.expr())).collect();
    let shift = module.wire_of("shift", Expr::concat(shift_bits));
    let (bank, addr) = if w.is_power_of_two() {
        let bank = module.wire_of("bank", col.expr().add(shift.expr()));
        let addr = Expr::concat(vec![row.expr(), bank.expr()]);
        (bank, addr)
    } else {
        let wide = |v: u64| Expr::constant(v, m + 1);
        let sum = module.wire_of("sum", col.expr().zext(m + 1).add(shift.expr().zext(m + 1)));
        let wrapped = Expr::mux(
            sum.expr().ge(wide(u64::from(w))),
            sum.expr().sub(wide(u64::from(w))),
            sum.expr(),
        );
        let bank_wide = module.wire_of("bank_wide", wrapped);
        // Below 2w - 1 before the subtraction and below w after it: the top bit is always 0.
        module.sink_unused("bank_wide", bank_wide.bit(m));
        let bank = module.wire_of("bank", bank_wide.slice(m - 1, 0));
        let addr = row
            .expr()
            .zext(a)
            .mul(Expr::constant(u64::from(w), a))
            .add(bank.expr().zext(a));
        (bank, addr)
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
