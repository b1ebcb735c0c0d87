//! The random address permute-shift (RAP) of Nakano, Matsumae and Ito in hardware, and the
//! presentation of its congestion simulator.
//!
//! The converter maps element `(row_i, col_i)` of a `w x w` matrix to address
//! `row_i * w + ((col_i + shift[row_i]) mod w)` in bank `(col_i + shift[row_i]) mod w`: the
//! circuit the paper proposes to embed in a GPU (section I). RAP's shifts are a permutation of
//! `0..w`, RAS's independent values; either is baked in or held in a register file loaded at run
//! time, and the outputs may be registered. Any `w` from 2 to 1024 (a power of two needs no
//! arithmetic beyond one adder).
//!
//! - [`design`]: the validated request ([`RapDesign`]), the family's [`Block`] below;
//! - [`logic`]: its module in the RTL representation;
//! - [`vectors`]: test vectors from the golden model, `models::rap::ShiftLayout`;
//! - [`congestion`]: tables, JSON lines and plots of `rtl-gen congestion`.

pub mod congestion;
pub mod design;
pub mod logic;
pub mod reference;
pub mod sweep;
pub mod vectors;

use crate::block::{Block, Header, Identity, Stimulus};
use crate::manifest::{ManifestField, ManifestWord, ManifestWritePort};
use crate::rtl::Module;
pub use design::{ConverterMap, RapConfig, RapDesign, Storage, MAX_W};
use models::rap::packed::packing;
use std::collections::BTreeMap;
use testbenches::Timing;
use vectors::VectorPlan;

impl Block for RapDesign {
    type Plan = VectorPlan;

    fn identity(&self) -> Identity {
        Identity::new(self.name(), "rap", self.kind_name(), self.storage().name())
    }

    fn summary(&self) -> String {
        format!(
            "{} {} converter, w = {}{}, {}{}",
            self.storage().name(),
            self.kind_name().to_uppercase(),
            self.w(),
            if self.dims() == 4 { ", w^4 array" } else { "" },
            match self.storage() {
                Storage::Baked => "tables baked in",
                Storage::Loadable => "register file",
                Storage::Packed => "register file loaded a packed word at a time",
            },
            if self.pipeline {
                ", registered outputs"
            } else {
                ""
            }
        )
    }

    fn about(&self) -> Vec<String> {
        let w = self.w();
        let kind = self.kind_name().to_uppercase();
        let storage = match self.storage() {
            Storage::Packed => "the tables are a register file written a packed 32-bit word at a time (Fig. 7) through perm_we_i/perm_idx_i/perm_val_i, reset to the tables below",
            Storage::Loadable => "the tables are a register file written through perm_we_i/perm_idx_i/perm_val_i, reset to the tables below",
            Storage::Baked => "the tables are baked in",
        };
        let function = if self.dims() == 2 {
            format!("{kind} address converter for a {w} x {w} matrix: addr_o = row_i * {w} + ((col_i + shift[row_i]) mod {w}), bank_o = (col_i + shift[row_i]) mod {w};")
        } else {
            format!("3P address converter for a {w}^4 array: addr_o = ((i_i * {w} + j_i) * {w} + k_i) * {w} + ((l_i + r[i_i] + s[j_i] + t[k_i]) mod {w}), bank_o = that bank;")
        };
        let mut about = vec![
            function,
            format!(
                "{storage}; {}.",
                if self.pipeline {
                    "outputs registered, one cycle of latency"
                } else {
                    "outputs combinational"
                }
            ),
        ];
        if self.wide() {
            about.push(
                "Wide: each half of the permutation holds every residue mod w/2 once, so columns of 8-byte words are conflict-free too.".into(),
            );
        }
        for (table, values) in &self.config().tables {
            let values: Vec<String> = values.iter().map(u32::to_string).collect();
            about.push(format!(
                "Table {table} (entry 0 first): {}",
                values.join(",")
            ));
        }
        about
    }

    fn parameters(&self) -> BTreeMap<String, u64> {
        let mut parameters = BTreeMap::from([
            ("DIMS".to_string(), u64::from(self.dims())),
            ("W".to_string(), u64::from(self.w())),
            ("INDEX_BITS".to_string(), u64::from(self.index_bits())),
            ("ADDR_BITS".to_string(), u64::from(self.addr_bits())),
            ("BANK_BITS".to_string(), u64::from(self.index_bits())),
            ("BANKS".to_string(), u64::from(self.w())),
            ("LATENCY".to_string(), u64::from(self.latency())),
        ]);
        if self.loadable {
            parameters.insert("WRITE_ROWS".into(), u64::from(self.write_rows()));
            parameters.insert(
                "WRITE_VALUE_BITS".into(),
                u64::from(self.write_value_bits()),
            );
        }
        parameters
    }

    fn configuration(&self) -> serde_json::Value {
        serde_json::to_value(self.config()).unwrap_or_else(|e| unreachable!("{e}"))
    }

    fn timing(&self) -> Timing {
        if self.pipeline {
            Timing::Pipelined {
                latency: self.latency(),
            }
        } else if self.loadable {
            Timing::Clocked
        } else {
            Timing::Combinational
        }
    }

    fn write_ports(&self) -> Vec<ManifestWritePort> {
        if !self.loadable {
            return Vec::new();
        }
        let (address, tables) = if self.table_select_bits() > 0 {
            (
                vec!["perm_sel_i".into(), "perm_idx_i".into()],
                "table perm_sel_i (0 r, 1 s, 2 t; 3 writes nothing)",
            )
        } else {
            (vec!["perm_idx_i".into()], "the table")
        };
        let rows = self.write_rows();
        let (description, fields) = if self.packed() {
            let (bits, per) = packing(self.w());
            let fields = (0..per.min(self.w()))
                .map(|s| ManifestField {
                    name: format!("shift{s}"),
                    lsb: bits * s,
                    width: bits,
                    description: format!("the shift of row {per}q + {s} of word q"),
                })
                .collect();
            (
                format!(
                    "words 0 to {} of {tables}, {per} rows a word (Fig. 7)",
                    rows - 1
                ),
                fields,
            )
        } else {
            let field = ManifestField {
                name: "shift".into(),
                lsb: 0,
                width: self.index_bits(),
                description: format!("the row's shift, 0 to {}", self.w() - 1),
            };
            (format!("row 0 to {} of {tables}", rows - 1), vec![field])
        };
        vec![ManifestWritePort {
            name: "perm".into(),
            description: "the shift tables, written a word at a time".into(),
            strobe: "perm_we_i".into(),
            address,
            data: "perm_val_i".into(),
            words: vec![ManifestWord {
                name: "shifts".into(),
                description,
                select: None,
                fields,
            }],
        }]
    }

    fn modules(&self, header: &Header) -> Vec<Module> {
        vec![logic::build(self, header.of(self))]
    }

    fn stimulus(&self, plan: &VectorPlan) -> Stimulus {
        let (vectors, coverage) = vectors::vectors(self, plan);
        Stimulus {
            vectors,
            seed: plan.seed,
            coverage,
        }
    }
}
