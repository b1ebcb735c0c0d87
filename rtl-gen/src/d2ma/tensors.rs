//! The tensor slots (`<engine>_tensors`): the engine's table of tensor maps, each slot a map and
//! one load's coordinates (`models::d2ma::tensor`), written through the configuration port and
//! read by the tensor AGEN at the slot it walks.
//!
//! - **Writes**: configuration part `4 + w` writes word `w` of the slot addressed by the
//!   command's `{cfg_cta_i, cfg_buf_i}` (slot `s` is CTA `s / 2^buf_bits`, buffer
//!   `s % 2^buf_bits`). A slot stores each field at the width the engine uses: addresses and
//!   strides without their 4 low bits (multiples of 16), addresses and address steps at the
//!   engine's global width, strides below 2^40, a row's bytes and pitch over 16. Writes are not
//!   held off while a walk reads the slot: software rewrites a slot only when no entry naming it
//!   is in flight, as CUDA asks of a tensor map in use.
//! - **Storage**: the engine's style, one cell per slot and word (a latch slot takes the
//!   command's data from a write-data stage of flip-flops, as the controller array's table
//!   does); nothing is reset (a slot is written before an entry names it).
//! - **Read**: the slot `rd_slot_i` names, every field packed ([`slot_layout`]).

use super::packed::Packed;
use super::{D2maDesign, Storage, CFG_DATA_BITS};
use crate::manifest::{ManifestField, ManifestWord};
use crate::rtl::ir::bits_for;
use crate::rtl::{Expr, Module};
use models::d2ma::tensor::{SLOT_FIELDS, SLOT_WORDS};

/// The configuration part that writes a slot's word 0 (word `w` is part `4 + w`).
pub const PART_SLOT: u64 = 4;

/// Bits of a configuration command's part code in an engine with tensor slots (parts 0 to 20).
pub const TENSOR_PART_BITS: u32 = 5;

/// The most tensor slots an engine may have.
pub const MAX_TENSOR_SLOTS: u32 = 8;

/// How a slot stores one field: the bits `lsb + width - 1 ..= lsb` of its word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The field's name (`models::d2ma::tensor::SLOT_FIELDS`).
    pub name: &'static str,
    /// Its word.
    pub word: u32,
    /// The lowest bit of the word stored.
    pub lsb: u32,
    /// Bits stored.
    pub width: u32,
}

/// The fields a slot of `design` stores, in `SLOT_FIELDS`' order.
pub fn stored(design: &D2maDesign) -> Vec<Stored> {
    let g = design.global_bits;
    SLOT_FIELDS
        .iter()
        .map(|f| {
            let (lsb, width) = match f.name {
                "base" | "delta1" | "delta2" | "delta3" | "delta4" => (4, g - 4),
                "stride1" | "stride2" | "stride3" | "stride4" => (4, g.min(40) - 4),
                "row_bytes" | "pitch" => (f.lsb + 4, f.width - 4),
                _ => (f.lsb, f.width),
            };
            Stored {
                name: f.name,
                word: f.word,
                lsb,
                width,
            }
        })
        .collect()
}

/// The packed layout of a slot as the table shows it.
pub fn slot_layout(design: &D2maDesign) -> Packed {
    Packed::new(stored(design).into_iter().map(|s| (s.name, s.width)))
}

/// Bits of a slot's index.
pub fn slot_bits(design: &D2maDesign) -> u32 {
    bits_for(u64::from(design.tensor_slots))
}

/// Builds `<engine>_tensors` for `design` (its `tensor_slots` slots).
pub fn build(design: &D2maDesign, name: &str, header: Vec<String>) -> Module {
    let mut m = Module::new(name).with_header(header);
    m.add_clock();
    let (cb, bb, sb) = (design.cta_bits(), design.buf_bits(), slot_bits(design));
    let valid = m.input("cfg_valid_i", 1, "A configuration command.");
    let cta = m.input("cfg_cta_i", cb, "The command's CTA: the slot's high bits.");
    let buf = m.input(
        "cfg_buf_i",
        bb,
        "The command's buffer: the slot's low bits.",
    );
    let part = m.input(
        "cfg_part_i",
        TENSOR_PART_BITS,
        "Part: 4 + w writes word w of the slot.",
    );
    let data = m.input("cfg_data_i", CFG_DATA_BITS, "The word.");
    let rd_slot = m.input("rd_slot_i", sb, "The slot to show.");
    let layout = slot_layout(design);
    let slot_o = m.output("slot_o", layout.width(), "The slot's fields, packed.");
    let fields = stored(design);
    let wdata = match design.storage {
        Storage::Latch => m.register_unreset("wdata_q", data.expr(), None, None),
        Storage::FlipFlop | Storage::ClockGated => data.clone(),
    };
    // Per word, the bits its fields store (highest field first).
    let words: Vec<_> = (0..SLOT_WORDS)
        .map(|w| {
            let parts: Vec<Expr> = fields
                .iter()
                .filter(|f| f.word == w)
                .rev()
                .map(|f| wdata.slice(f.lsb + f.width - 1, f.lsb))
                .collect();
            m.wire_of(&format!("word{w}_data"), Expr::concat(parts))
        })
        .collect();
    let unused: Vec<Expr> = unused_bits(&fields)
        .into_iter()
        .map(|(msb, lsb)| wdata.slice(msb, lsb))
        .collect();
    if !unused.is_empty() {
        m.sink_unused("wdata", Expr::concat(unused));
    }
    let address = Expr::concat(vec![cta.expr(), buf.expr()]);
    let mut arms = Vec::new();
    for s in 0..design.tensor_slots {
        let mut cells = Vec::new();
        for (w, word) in words.iter().enumerate() {
            let enable = valid
                .expr()
                .and(
                    part.expr()
                        .eq(Expr::constant(PART_SLOT + w as u64, TENSOR_PART_BITS)),
                )
                .and(address.clone().eq(Expr::constant(u64::from(s), cb + bb)));
            cells.push(
                design
                    .storage
                    .cell(&mut m, &format!("slot{s}_w{w}"), word, enable),
            );
        }
        // The cells hold each word's fields highest first; the slot packs them in field order.
        let value = layout.pack(|name| {
            let f = fields
                .iter()
                .find(|f| f.name == name)
                .expect("a stored field");
            let below: u32 = fields
                .iter()
                .filter(|g| g.word == f.word && g.lsb < f.lsb)
                .map(|g| g.width)
                .sum();
            cells[f.word as usize].slice(below + f.width - 1, below)
        });
        arms.push((rd_slot.expr().eq(Expr::constant(u64::from(s), sb)), value));
    }
    m.assign(&slot_o, Expr::one_hot_select(arms, layout.width()));
    // Nothing is reset: a slot is written before an entry names it.
    let reset = m
        .reset()
        .cloned()
        .unwrap_or_else(|| unreachable!("a clocked module"));
    m.sink_unused("reset", reset.expr());
    m
}

/// The `(msb, lsb)` runs of a command's 64 data bits that no word stores.
fn unused_bits(fields: &[Stored]) -> Vec<(u32, u32)> {
    let mut used = [false; CFG_DATA_BITS as usize];
    for f in fields {
        for b in f.lsb..f.lsb + f.width {
            used[b as usize] = true;
        }
    }
    let mut runs = Vec::new();
    let mut b = 0;
    while b < CFG_DATA_BITS {
        if used[b as usize] {
            b += 1;
            continue;
        }
        let lsb = b;
        while b < CFG_DATA_BITS && !used[b as usize] {
            b += 1;
        }
        runs.push((b - 1, lsb));
    }
    runs.reverse();
    runs
}

/// The configuration words that write a tensor slot, as the manifest (and so the SystemRDL)
/// lists them: part `4 + w` is word `w` of the slot `{cfg_cta_i, cfg_buf_i}` names.
pub fn manifest_words() -> Vec<ManifestWord> {
    (0..SLOT_WORDS)
        .map(|w| ManifestWord {
            name: format!("slot_word{w}"),
            description: format!(
                "word {w} of the tensor slot {{cfg_cta_i, cfg_buf_i}} names (a tensor map and \
                 one load's coordinates, models::d2ma::tensor)"
            ),
            select: Some(PART_SLOT + u64::from(w)),
            fields: SLOT_FIELDS
                .iter()
                .filter(|f| f.word == w)
                .map(|f| ManifestField {
                    name: f.name.into(),
                    lsb: f.lsb,
                    width: f.width,
                    description: f.description.into(),
                })
                .collect(),
        })
        .collect()
}
