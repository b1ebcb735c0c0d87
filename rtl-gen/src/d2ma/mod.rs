//! The D²MA engine's blocks (Jamshidi, Samadi, Mahlke, PACT'14): a validated design
//! ([`D2maDesign`]), one module builder per block, their cycle-level interface models and
//! the block folders.
//!
//! - [`raw_check`]: the read-after-write check (Fig. 7), combinational;
//! - [`controller`]: the controller array, `ctas x buffers` buffer-management-table entries;
//! - [`agen`]: the address generation unit (Fig. 5), one chunk a cycle;
//! - [`engine`]: the engine around them (Fig. 4): arbitration, memory ports, completion;
//! - [`cycle`]: the cycle-accurate models of the blocks' interfaces, built on `models::d2ma`;
//! - [`vectors`]: the directed and random stimulus;
//! - [`system`]: the engine with its data path in a system with a shared memory, a
//!   global-memory model and a warp, and that system's testbench.
//!
//! [`D2maDesign`] is the family's [`Block`]: one design per unit, the engine's modules
//! including its three units'.

pub mod agen;
pub mod controller;
pub mod cycle;
pub mod engine;
pub mod extent;
pub mod fields;
pub mod packed;
pub mod raw_check;
pub mod reference;
pub mod sweep;
pub mod system;
pub mod tensor_agen;
pub mod tensors;
pub mod vectors;
pub mod writeback;

use crate::block::{Block, Header, Identity, PortFields, Stimulus};
use crate::manifest::{ManifestField, ManifestWord, ManifestWritePort};
use crate::rtl::ir::bits_for;
use crate::rtl::{Expr, Module, Signal};
use crate::Error;
use models::d2ma::entry::{Part, ENTRY_BITS, FIELDS};
use serde::Serialize;
use std::collections::BTreeMap;
use testbenches::Timing;
use vectors::D2maPlan;

/// Which unit of the engine a design is (the `rtl-gen d2ma` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// Address generation (one chunk a cycle).
    Agen,
    /// The controller array of buffer-management-table entries.
    Controller,
    /// The read-after-write check.
    RawCheck,
    /// The engine: the three units above, arbitration, memory ports and completion.
    Engine,
}

impl Unit {
    /// The unit's name on the command line and in module names (`raw-check` -> `raw_check`).
    pub fn name(self) -> &'static str {
        match self {
            Unit::Agen => "agen",
            Unit::Controller => "controller",
            Unit::RawCheck => "raw-check",
            Unit::Engine => "engine",
        }
    }
}

/// How the controller array holds its table (the entries' fields and guard ends). Only the
/// valid bits (the written-part mask, busy, started) have a reset in every style: a field is
/// written before it is read, and the array's outputs are zero for an entry that is not busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Storage {
    /// Flip-flops without reset, each loading its configuration part under a write enable
    /// (one enable multiplexer a bit).
    #[default]
    FlipFlop,
    /// Flip-flops without reset on a gated clock, one clock gate per entry and part: no
    /// enable multiplexer.
    ClockGated,
    /// Latches open in the high phase of a gated clock, written from one shared flip-flop
    /// stage holding the command's data (the latch register file of lowRISC Ibex).
    Latch,
}

impl Storage {
    /// The style's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Storage::FlipFlop => "flip-flop",
            Storage::ClockGated => "clock-gated",
            Storage::Latch => "latch",
        }
    }

    /// The suffix of module names: none for flip-flops, `_cg`, `_lat`.
    fn suffix(self) -> &'static str {
        match self {
            Storage::FlipFlop => "",
            Storage::ClockGated => "_cg",
            Storage::Latch => "_lat",
        }
    }

    /// One unreset storage cell named `name` in this style, taking `data` on the clock edges
    /// where `enable` is 1: a flip-flop under a write enable (`<name>_q`), a flip-flop on a
    /// gated clock (`<name>_gclk`, `<name>_q`), or a latch open while its gated clock is high
    /// (`<name>_l`), which shows the data in the same cycle as a flip-flop would; a latch's
    /// `data` must then hold still while that clock is high (a write-data flip-flop's output).
    pub(crate) fn cell(self, m: &mut Module, name: &str, data: &Signal, enable: Expr) -> Signal {
        match self {
            Storage::FlipFlop => {
                m.register_unreset(&format!("{name}_q"), data.expr(), Some(enable), None)
            }
            Storage::ClockGated => {
                let clock = m.clock_gate(&format!("{name}_gclk"), enable);
                m.register_unreset(&format!("{name}_q"), data.expr(), None, Some(&clock))
            }
            Storage::Latch => {
                let clock = m.clock_gate(&format!("{name}_gclk"), enable);
                m.latch(&format!("{name}_l"), data, &clock, false)
            }
        }
    }
}

/// Bits of a shared-memory byte address (the entry's `shared` field, a load's address, a
/// chunk's shared address).
pub const SHARED_BITS: u32 = 16;
/// Bits of a configuration command's data: one part of an entry.
pub const CFG_DATA_BITS: u32 = 64;
/// Bits of a configuration command's part code (0 global base, 1 shape, 2 halo).
pub const PART_BITS: u32 = 2;
/// Bits of a chunk's byte count (at most one 128-byte segment).
pub const CHUNK_BYTES_BITS: u32 = 8;

/// Largest number of CTAs per shader a design may have.
pub const MAX_CTAS: u32 = 32;
/// Largest number of buffers per CTA a design may have.
pub const MAX_BUFFERS: u32 = 8;

/// A D²MA block to generate, sized at run time and validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct D2maDesign {
    /// The unit.
    pub block: Unit,
    /// Resident CTAs per shader (one controller each); the paper has 8.
    pub ctas: u32,
    /// Buffers per CTA (table entries per controller); the paper has 4.
    pub buffers: u32,
    /// Global segment size in bytes: 32, 64 or 128.
    pub segment_bytes: u32,
    /// Bits of the global addresses the AGEN computes and the engine requests (the paper's
    /// 64 by default), and of the global base the controller array stores. Configuration
    /// commands and the read port keep the paper's 64-bit global field, whose bits above these
    /// are ignored (read as zeros): addresses wrap modulo `2^global_bits`.
    pub global_bits: u32,
    /// How the controller array holds its table (controller and engine).
    pub storage: Storage,
    /// The engine's bound on one buffer's requests in flight: the AGEN holds its walk while
    /// the walked buffer has this many (credits, as a memory interface bounds its outstanding
    /// requests). The default, [`engine::MAX_IN_FLIGHT`], is the most a valid entry issues, so
    /// no walk ever waits on it and the engine has no stall for it.
    #[serde(skip_serializing_if = "engine::unbounded")]
    pub max_in_flight: u32,
    /// Tensor slots of an engine with a data path (0: the paper's entries only): each holds a
    /// tensor map and one load's coordinates, which a table entry in tensor mode names.
    #[serde(skip_serializing_if = "is_zero")]
    pub tensor_slots: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Fewest global address bits a design may have: every step between consecutive chunks is below
/// 2^20 bytes, so with at least 21 bits the mask-and-compare of consecutive segments sees the
/// same segments on wrapped addresses as on full ones.
pub const MIN_GLOBAL_BITS: u32 = 24;
/// Most global address bits: the entry's field.
pub const MAX_GLOBAL_BITS: u32 = 64;

impl D2maDesign {
    /// Validates a request: 1..=32 CTAs, 1..=8 buffers, 32/64/128-byte segments.
    pub fn new(block: Unit, ctas: u32, buffers: u32, segment_bytes: u32) -> Result<Self, Error> {
        let range = |name: &str, value: u32, allowed: &str| {
            Error::Model(models::Error::OutOfRange {
                name: name.into(),
                value: value.to_string(),
                allowed: allowed.into(),
            })
        };
        if !(1..=MAX_CTAS).contains(&ctas) {
            return Err(range("ctas", ctas, "1..=32"));
        }
        if !(1..=MAX_BUFFERS).contains(&buffers) {
            return Err(range("buffers", buffers, "1..=8"));
        }
        if !models::d2ma::SEGMENT_BYTES.contains(&segment_bytes) {
            return Err(range("segment_bytes", segment_bytes, "32, 64 or 128"));
        }
        Ok(Self {
            block,
            ctas,
            buffers,
            segment_bytes,
            global_bits: MAX_GLOBAL_BITS,
            storage: Storage::default(),
            max_in_flight: engine::MAX_IN_FLIGHT,
            tensor_slots: 0,
        })
    }

    /// The same engine with `slots` tensor slots (0 to 8, at most its `ctas x buffers`
    /// entries: a slot is addressed by a command's CTA and buffer).
    pub fn with_tensor_slots(self, slots: u32) -> Result<Self, Error> {
        let most = tensors::MAX_TENSOR_SLOTS.min(self.entries());
        if slots > most {
            return Err(Error::Model(models::Error::OutOfRange {
                name: "tensor_slots".into(),
                value: slots.to_string(),
                allowed: format!(
                    "0 to {most} (at most 8, and at most the {} entries, whose CTA and buffer \
                     address a slot)",
                    self.entries()
                ),
            }));
        }
        Ok(Self {
            tensor_slots: slots,
            ..self
        })
    }

    /// The same design with at most `bound` requests in flight per buffer (1 to
    /// [`engine::MAX_IN_FLIGHT`]; the engine's counts get the bits `bound` needs).
    pub fn with_max_in_flight(self, bound: u32) -> Result<Self, Error> {
        if !(1..=engine::MAX_IN_FLIGHT).contains(&bound) {
            return Err(Error::Model(models::Error::OutOfRange {
                name: "max_in_flight".into(),
                value: bound.to_string(),
                allowed: format!("1 to {}", engine::MAX_IN_FLIGHT),
            }));
        }
        Ok(Self {
            max_in_flight: bound,
            ..self
        })
    }

    /// The engine's bound on a buffer's requests in flight, when it is below what a valid
    /// entry can issue (the walk then waits on it).
    pub fn in_flight_bound(&self) -> Option<u32> {
        (self.block == Unit::Engine && !engine::unbounded(&self.max_in_flight))
            .then_some(self.max_in_flight)
    }

    /// The same design with the controller's table held in `storage`.
    pub fn with_storage(self, storage: Storage) -> Self {
        Self { storage, ..self }
    }

    /// The same design with `bits` global address bits (24 to 64).
    pub fn with_global_bits(self, bits: u32) -> Result<Self, Error> {
        if !(MIN_GLOBAL_BITS..=MAX_GLOBAL_BITS).contains(&bits) {
            return Err(Error::Model(models::Error::OutOfRange {
                name: "global_bits".into(),
                value: bits.to_string(),
                allowed: format!("{MIN_GLOBAL_BITS} to {MAX_GLOBAL_BITS}"),
            }));
        }
        Ok(Self {
            global_bits: bits,
            ..self
        })
    }

    /// `addr` as the design holds it: its low `global_bits` bits.
    pub fn wrap_global(&self, addr: u64) -> u64 {
        if self.global_bits >= 64 {
            addr
        } else {
            addr & ((1u64 << self.global_bits) - 1)
        }
    }

    /// The module name: `d2ma_agen_s<segment>`, `d2ma_controller_c<ctas>_b<buffers>`,
    /// `d2ma_raw_check_c<ctas>_b<buffers>`, `d2ma_engine_c<ctas>_b<buffers>` (with
    /// `_s<segment>` for segments other than 128 bytes), then `_g<bits>` for an AGEN,
    /// controller or engine with fewer than 64 global address bits, then `_out<bound>` for an
    /// engine with a bound on a buffer's requests in flight, then `_cg` or `_lat` for a
    /// controller or engine whose table is clock-gated or latches.
    pub fn name(&self) -> String {
        let mut name = self.base_name();
        let global = matches!(self.block, Unit::Agen | Unit::Controller | Unit::Engine);
        if global && self.global_bits < MAX_GLOBAL_BITS {
            name.push_str(&format!("_g{}", self.global_bits));
        }
        if let Some(bound) = self.in_flight_bound() {
            name.push_str(&format!("_out{bound}"));
        }
        if matches!(self.block, Unit::Controller | Unit::Engine) {
            name.push_str(self.storage.suffix());
        }
        if self.block == Unit::Engine && self.tensor_slots > 0 {
            name.push_str(&format!("_t{}", self.tensor_slots));
        }
        name
    }

    fn base_name(&self) -> String {
        match self.block {
            Unit::Agen => format!("d2ma_agen_s{}", self.segment_bytes),
            Unit::Controller => format!("d2ma_controller_c{}_b{}", self.ctas, self.buffers),
            Unit::RawCheck => format!("d2ma_raw_check_c{}_b{}", self.ctas, self.buffers),
            Unit::Engine if self.segment_bytes == 128 => {
                format!("d2ma_engine_c{}_b{}", self.ctas, self.buffers)
            }
            Unit::Engine => format!(
                "d2ma_engine_c{}_b{}_s{}",
                self.ctas, self.buffers, self.segment_bytes
            ),
        }
    }

    /// Table entries: `ctas x buffers`.
    pub fn entries(&self) -> u32 {
        self.ctas * self.buffers
    }

    /// Bits of a CTA number.
    pub fn cta_bits(&self) -> u32 {
        bits_for(u64::from(self.ctas))
    }

    /// Bits of a buffer number.
    pub fn buf_bits(&self) -> u32 {
        bits_for(u64::from(self.buffers))
    }

    /// The entry port a unit carries table entries on, if any.
    fn entry_port(&self) -> Option<&'static str> {
        match self.block {
            Unit::Agen => Some("entry_i"),
            Unit::Controller => Some("rd_entry_o"),
            Unit::RawCheck | Unit::Engine => None,
        }
    }

    /// `8 CTAs x 4 buffers`, `128-byte segments`, `64-bit global addresses`: the sizes that
    /// shape this unit.
    fn sizes(&self) -> Vec<String> {
        let table = format!("{} CTAs x {} buffers", self.ctas, self.buffers);
        let segments = format!("{}-byte segments", self.segment_bytes);
        let global = format!("{}-bit global addresses", self.global_bits);
        match self.block {
            Unit::Agen => vec![segments, global],
            Unit::Controller => vec![table, global, format!("{} storage", self.storage.name())],
            Unit::RawCheck => vec![table],
            Unit::Engine => {
                let mut sizes = vec![
                    table,
                    segments,
                    global,
                    format!("{} storage", self.storage.name()),
                ];
                if let Some(bound) = self.in_flight_bound() {
                    sizes.push(format!("a bound of {bound} requests in flight per buffer"));
                }
                sizes
            }
        }
    }
}

impl Block for D2maDesign {
    type Plan = D2maPlan;

    fn identity(&self) -> Identity {
        Identity::new(
            self.name(),
            "d2ma",
            self.block.name(),
            self.sizes().join(", "),
        )
    }

    fn summary(&self) -> String {
        format!("D2MA {}, {}", self.block.name(), self.sizes().join(", "))
    }

    fn about(&self) -> Vec<String> {
        let what = match self.block {
            Unit::Agen => format!(
                "D2MA address generation, {}-byte segments, one chunk a cycle.",
                self.segment_bytes
            ),
            Unit::Controller => format!(
                "D2MA controller array, {} CTAs x {} buffers of {ENTRY_BITS}-bit entries.",
                self.ctas, self.buffers
            ),
            Unit::RawCheck => format!(
                "D2MA read-after-write check, {} CTAs x {} buffers, combinational.",
                self.ctas, self.buffers
            ),
            Unit::Engine => format!(
                "D2MA engine, {} CTAs x {} buffers, {}-byte segments.",
                self.ctas, self.buffers, self.segment_bytes
            ),
        };
        vec![what, format!("Configuration: {}", self.configuration())]
    }

    fn parameters(&self) -> BTreeMap<String, u64> {
        let mut p = BTreeMap::from([
            ("CTAS".to_string(), u64::from(self.ctas)),
            ("BUFFERS".to_string(), u64::from(self.buffers)),
            ("SEGMENT_BYTES".to_string(), u64::from(self.segment_bytes)),
            ("GLOBAL_BITS".to_string(), u64::from(self.global_bits)),
            ("ENTRY_BITS".to_string(), u64::from(ENTRY_BITS)),
        ]);
        if let Some(bound) = self.in_flight_bound() {
            p.insert("MAX_IN_FLIGHT".to_string(), u64::from(bound));
        }
        p
    }

    fn configuration(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_else(|e| unreachable!("{e}"))
    }

    fn fields(&self) -> Vec<PortFields> {
        self.entry_port()
            .map(|port| PortFields {
                port: port.into(),
                fields: FIELDS
                    .iter()
                    .map(|f| ManifestField {
                        name: f.name.into(),
                        lsb: f.lsb,
                        width: f.width,
                        description: f.description.into(),
                    })
                    .collect(),
                program: None,
            })
            .into_iter()
            .collect()
    }

    fn write_ports(&self) -> Vec<ManifestWritePort> {
        if !matches!(self.block, Unit::Controller | Unit::Engine) {
            return Vec::new();
        }
        let words = Part::ALL
            .iter()
            .map(|&part| {
                let (lsb, width) = part.bits();
                let (name, what) = match part {
                    Part::Global => ("global", "the global base"),
                    Part::Shape => ("shape", "shared base, count, size, stride, 2-D, mode"),
                    Part::Halo => (
                        "halo",
                        "halo rows and columns (or bank run), region, constant",
                    ),
                };
                ManifestWord {
                    name: name.into(),
                    description: format!(
                        "entry bits {}:{lsb}, {what}, of CTA cfg_cta_i's buffer cfg_buf_i",
                        lsb + width - 1
                    ),
                    select: Some(part as u64),
                    fields: FIELDS
                        .iter()
                        .filter(|f| f.lsb >= lsb && f.lsb + f.width <= lsb + width)
                        .map(|f| ManifestField {
                            name: f.name.into(),
                            lsb: f.lsb - lsb,
                            width: f.width,
                            description: f.description.into(),
                        })
                        .collect(),
                }
            })
            .collect();
        vec![ManifestWritePort {
            name: "cfg".into(),
            description: "the configuration commands: each writes one part of a \
                          buffer-management-table entry (ignored while the buffer is busy)"
                .into(),
            strobe: "cfg_valid_i".into(),
            address: vec!["cfg_part_i".into(), "cfg_cta_i".into(), "cfg_buf_i".into()],
            data: "cfg_data_i".into(),
            words,
        }]
    }

    fn timing(&self) -> Timing {
        match self.block {
            Unit::RawCheck => Timing::Combinational,
            Unit::Agen | Unit::Controller | Unit::Engine => Timing::Clocked,
        }
    }

    fn dont_cares(&self) -> Vec<(&'static str, &'static str)> {
        match self.block {
            Unit::Controller => controller::DONT_CARES.to_vec(),
            Unit::Agen | Unit::RawCheck | Unit::Engine => Vec::new(),
        }
    }

    fn parts(&self) -> Vec<Identity> {
        match self.block {
            Unit::Engine => engine::parts(self).iter().map(Block::identity).collect(),
            Unit::Agen | Unit::Controller | Unit::RawCheck => Vec::new(),
        }
    }

    fn modules(&self, header: &Header) -> Vec<Module> {
        let top = header.of(self);
        match self.block {
            Unit::Agen => vec![agen::build(self, top)],
            Unit::Controller => vec![controller::build(self, top)],
            Unit::RawCheck => vec![raw_check::build(self, top)],
            Unit::Engine => {
                let (top, parts) = engine::build(self, top, &|part| header.of(part));
                std::iter::once(top).chain(parts).collect()
            }
        }
    }

    fn stimulus(&self, plan: &D2maPlan) -> Stimulus {
        let vectors = vectors::vectors(self, plan);
        let coverage = match self.block {
            Unit::RawCheck => format!(
                "SAXPY guards of Fig. 12 and a completion, then {} random guard sets with loads on their edges",
                plan.random
            ),
            Unit::Controller => format!(
                "{} random cycles of configuration commands, ignitions, completions and reads",
                plan.random
            ),
            Unit::Agen => format!(
                "{} directed transfers (sgemv, strided, transposed, 2-D, halo in 9 regions, bank, one starting in the last requested segment), then {} random transfers with memory back-pressure; {} cycles",
                vectors::directed_transfers().len() + plan.transfers.len(),
                plan.random,
                vectors.len()
            ),
            Unit::Engine => format!(
                "SAXPY on two CTAs (Fig. 12), then {} cycles of random configurations, restarts, loads, back-pressure and out-of-order responses, drained; {} cycles",
                plan.random,
                vectors.len()
            ),
        };
        Stimulus {
            vectors,
            seed: plan.seed,
            coverage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_limits() {
        let d = D2maDesign::new(Unit::Controller, 8, 4, 128).unwrap();
        assert_eq!(d.name(), "d2ma_controller_c8_b4");
        assert_eq!((d.entries(), d.cta_bits(), d.buf_bits()), (32, 3, 2));
        assert_eq!(
            D2maDesign::new(Unit::Agen, 8, 4, 64).unwrap().name(),
            "d2ma_agen_s64"
        );
        assert_eq!(
            D2maDesign::new(Unit::Engine, 8, 4, 128).unwrap().name(),
            "d2ma_engine_c8_b4"
        );
        assert_eq!(
            D2maDesign::new(Unit::Engine, 2, 1, 32).unwrap().name(),
            "d2ma_engine_c2_b1_s32"
        );
        let g = D2maDesign::new(Unit::Engine, 8, 4, 128)
            .unwrap()
            .with_global_bits(32)
            .unwrap();
        assert_eq!(g.name(), "d2ma_engine_c8_b4_g32");
        assert_eq!(g.wrap_global(0x1_2345_6789), 0x2345_6789);
        let c = D2maDesign::new(Unit::Controller, 8, 4, 128).unwrap();
        assert_eq!(
            c.with_global_bits(32).unwrap().name(),
            "d2ma_controller_c8_b4_g32"
        );
        assert_eq!(
            c.with_storage(Storage::Latch).name(),
            "d2ma_controller_c8_b4_lat"
        );
        assert_eq!(
            g.with_storage(Storage::ClockGated).name(),
            "d2ma_engine_c8_b4_g32_cg"
        );
        let msg = c.with_global_bits(16).unwrap_err().to_string();
        assert_eq!(msg, "global_bits = 16 is out of range: allowed 24 to 64");
        assert!(D2maDesign::new(Unit::RawCheck, 0, 4, 128).is_err());
        assert!(D2maDesign::new(Unit::RawCheck, 8, 9, 128).is_err());
        let msg = D2maDesign::new(Unit::Agen, 8, 4, 96)
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "segment_bytes = 96 is out of range: allowed 32, 64 or 128"
        );
    }
}
