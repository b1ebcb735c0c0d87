//! The hashers' logic in the RTL representation.
//!
//! Fixed hashers of every kind are built from the configuration's GF(2) matrix: one XOR of
//! address bits per bank bit, nothing else. Configurable hashers are built per kind from
//! `cfg_i`'s fields: shifters for the bit-vector kinds, one `n:1` bit-select per chosen bit for
//! the bitwise kinds, an AND-and-parity per row for the xor-matrix.

use super::{CfgLayout, HashDesign, Variant};
use crate::rtl::{Expr, Module, Signal};
use models::{HashKind, XorMatrix};

/// Builds the module of `design`.
pub fn build(design: &HashDesign, header: Vec<String>) -> Module {
    let n = design.geometry.addr_bits();
    let m = design.geometry.bank_bits();
    let mut module = Module::new(design.name());
    module.header = header;
    if design.pipeline {
        module.add_clock();
    }
    let addr = module.input("addr_i", n, "Word address.");
    let cfg = design.cfg_layout().map(|layout| {
        module.input(
            "cfg_i",
            layout.width(),
            "Hash configuration; the manifest lists its fields.",
        )
    });
    let bank_o = module.output(
        "bank_o",
        m,
        if design.pipeline {
            "Bank index, registered: one cycle after addr_i."
        } else {
            "Bank index."
        },
    );
    let bank = if design.pipeline {
        module.wire("bank_d", m)
    } else {
        bank_o.clone()
    };
    match &design.variant {
        Variant::Fixed(config) => fixed(&mut module, &addr, &bank, &config.to_matrix()),
        Variant::Configurable { layout, .. } => {
            let cfg = cfg.unwrap_or_else(|| unreachable!("configurable hasher without cfg_i"));
            configurable(&mut module, design.kind, layout, &addr, &cfg, &bank);
        }
    }
    if design.pipeline {
        let q = module.register("bank_q", bank.expr(), 0);
        module.assign(&bank_o, q.expr());
    }
    module
}

/// One XOR per bank bit over the address bits its matrix row selects; unused bits are sunk.
fn fixed(module: &mut Module, addr: &Signal, bank: &Signal, matrix: &XorMatrix) {
    for (i, row) in matrix.rows().iter().enumerate() {
        let terms = (0..addr.width())
            .filter(|b| row >> b & 1 == 1)
            .map(|b| addr.bit(b))
            .collect();
        module.assign_bit(bank, i as u32, Expr::xor_all(terms));
    }
    let unused = matrix.unused_columns();
    if unused != 0 {
        let bits = (0..addr.width())
            .rev()
            .filter(|b| unused >> b & 1 == 1)
            .map(|b| addr.bit(b))
            .collect();
        module.sink_unused("addr", Expr::concat(bits));
    }
}

/// The wires `cfg_<field>` carved out of `cfg_i`, in layout order.
fn fields(module: &mut Module, layout: &CfgLayout, cfg: &Signal) -> Vec<Signal> {
    layout
        .fields
        .iter()
        .map(|f| {
            module.wire_of(
                &format!("cfg_{}", f.name),
                cfg.slice(f.lsb + f.width - 1, f.lsb),
            )
        })
        .collect()
}

/// `addr >> amount` into a wire named `name`; its bits above the bank bits are sunk.
fn shifted(module: &mut Module, name: &str, addr: &Signal, amount: &Signal, m: u32) -> Expr {
    let wire = module.wire_of(name, addr.expr().shr(amount.expr()));
    if wire.width() > m {
        module.sink_unused(name, wire.slice(wire.width() - 1, m));
    }
    wire.slice(m - 1, 0)
}

fn configurable(
    module: &mut Module,
    kind: HashKind,
    layout: &CfgLayout,
    addr: &Signal,
    cfg: &Signal,
    bank: &Signal,
) {
    let m = bank.width();
    let f = fields(module, layout, cfg);
    match kind {
        HashKind::Modulo => unreachable!("modulo has no configurable variant"),
        HashKind::BitvectorPerm => {
            let v = shifted(module, "vec_k", addr, &f[0], m);
            module.assign(bank, v);
        }
        HashKind::BitvectorXor => {
            let v1 = shifted(module, "vec_k1", addr, &f[0], m);
            let v2 = shifted(module, "vec_k2", addr, &f[1], m);
            module.assign(bank, v1.xor(v2.and(f[2].expr())));
        }
        HashKind::BitwisePerm => {
            for (i, sel) in f.iter().enumerate() {
                module.assign_bit(bank, i as u32, addr.index(sel.expr()));
            }
        }
        HashKind::BitwiseXor => {
            for (i, pair) in f.chunks(2).enumerate() {
                let (a, b) = (&pair[0], &pair[1]);
                let second = addr.index(b.expr()).and(a.expr().ne(b.expr()));
                module.assign_bit(bank, i as u32, addr.index(a.expr()).xor(second));
            }
        }
        HashKind::XorMatrix => {
            for (i, row) in f.iter().enumerate() {
                module.assign_bit(bank, i as u32, addr.expr().and(row.expr()).reduce_xor());
            }
        }
    }
}
