//! The per-lane map `<top>_map`: word address to (bank, row), a bijection of the address space.
//!
//! The bank comes from an instance of the hasher (`rtl-gen hash`'s module) or of the RAP
//! converter (`rtl-gen rap`'s module); the row is the rest of the address:
//! - a fixed hash keeps the address bits its software index keeps (`models::software`): wires;
//! - a configurable hash takes row bit `j` from address bit `j + row<j>`, the offsets held in
//!   the configuration register beside the hasher's fields (kept bits ascend, so bit `j` of the
//!   row is one of address bits `j ..= j + m`: an `(m + 1):1` mux per row bit);
//! - RAP converts the low `2m` bits (row within the tile, then column) into the bank; the row
//!   is the address above the column (tile, then row within the tile).

use super::design::{MapSpec, SmemDesign};
use crate::block::{Block, Header};
use crate::rtl::wiring::{bit_runs, gather};
use crate::rtl::Module;

/// The sub-module that computes the bank: the hasher or the RAP converter, as that block
/// emits it (its own header under `header`).
pub fn bank_module(design: &SmemDesign, header: &Header) -> Module {
    let mut modules = match design.map() {
        MapSpec::Hash { .. } => design
            .hash_design()
            .unwrap_or_else(|| unreachable!("a hash map has a hasher"))
            .modules(header),
        MapSpec::Rap(rap) => rap.modules(header),
    };
    assert_eq!(modules.len(), 1, "a hasher or converter is one module");
    modules.swap_remove(0)
}

/// Builds `<top>_map` around `bank`, the module of [`bank_module`].
pub fn build(design: &SmemDesign, bank: &Module, header: Vec<String>) -> Module {
    let shape = design.shape();
    let (n, m, r) = (shape.addr_bits(), shape.bank_bits(), shape.row_bits());
    let mut module = Module::new(format!("{}_map", design.name())).with_header(header);
    if design.loadable() {
        module.add_clock();
    }
    let addr = module.input("addr_i", n, "Word address.");
    let cfg = design.configurable().then(|| {
        module.input(
            "cfg_i",
            design.cfg_width(),
            "Map configuration: the hasher's fields, then the row offsets (see the manifest).",
        )
    });
    let perm: Vec<(&str, crate::rtl::Signal)> = if design.loadable() {
        bank.ports()
            .iter()
            .filter(|p| p.signal().name().starts_with("perm_"))
            .map(|p| {
                (
                    p.signal().name(),
                    module.input(p.signal().name(), p.signal().width(), p.doc()),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let bank_o = module.output("bank_o", m, "Bank.");
    let row_o = module.output("row_o", r, "Row within the bank.");
    match design.map() {
        MapSpec::Hash { .. } => {
            let mut inputs = vec![("addr_i", addr.expr())];
            let hash_width = bank
                .ports()
                .iter()
                .find(|p| p.signal().name() == "cfg_i")
                .map(|p| p.signal().width());
            if let (Some(cfg), Some(w)) = (&cfg, hash_width) {
                inputs.push(("cfg_i", cfg.slice(w - 1, 0)));
            }
            let out = module.instantiate(bank, "hash", inputs);
            module.assign(&bank_o, out["bank_o"].expr());
            match (&cfg, hash_width) {
                (Some(cfg), Some(hash_width)) => {
                    let w = design.row_offset_bits();
                    for j in 0..r {
                        let window = module.wire_of(&format!("window{j}"), addr.slice(j + m, j));
                        let lsb = hash_width + j * w;
                        let picked = window.index(cfg.slice(lsb + w - 1, lsb));
                        module.assign_bit(&row_o, j, picked);
                    }
                }
                _ => {
                    let index = design
                        .software_index()
                        .unwrap_or_else(|| unreachable!("a hash map"));
                    let kept = gather(&mut module, "kept", bit_runs(&addr, index.kept_bits()));
                    module.assign(&row_o, kept.expr());
                }
            }
        }
        MapSpec::Rap(_) => {
            let mut inputs = vec![
                ("row_i", addr.slice(2 * m - 1, m)),
                ("col_i", addr.slice(m - 1, 0)),
            ];
            inputs.extend(perm.iter().map(|(name, s)| (*name, s.expr())));
            let out = module.instantiate(bank, "rap", inputs);
            module.assign(&bank_o, out["bank_o"].expr());
            module.sink_unused("rap_addr", out["addr_o"].expr());
            module.assign(&row_o, addr.slice(n - 1, m));
        }
    }
    module
}
