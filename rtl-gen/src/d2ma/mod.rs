//! The D²MA engine's blocks (Jamshidi, Samadi, Mahlke, PACT'14): a validated design
//! ([`D2maDesign`]), one module builder per block, their cycle-level interface models and
//! the block folders.
//!
//! - [`raw_check`]: the read-after-write check (Fig. 7), combinational;
//! - [`controller`]: the controller array, `ctas x buffers` buffer-management-table entries;
//! - [`agen`]: the address generation unit (Fig. 5), one chunk a cycle;
//! - [`engine`]: the engine around them (Fig. 4): arbitration, memory ports, completion;
//! - [`cycle`]: the cycle-accurate models of the blocks' interfaces, built on `models::d2ma`;
//! - [`vectors`]: the directed and random stimulus and the testbench harnesses;
//! - [`block`]: the block folder (Verilog, manifest, filelist, core, testbench).

pub mod agen;
pub mod block;
pub mod controller;
pub mod cycle;
pub mod engine;
pub mod raw_check;
pub mod vectors;

use crate::rtl::ir::bits_for;
use crate::rtl::Module;
use crate::Error;
use serde::Serialize;

/// Which block of the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Block {
    /// The address generation unit.
    Agen,
    /// The controller array.
    Controller,
    /// The read-after-write check.
    RawCheck,
    /// The engine: the three blocks above, arbitration, memory ports and completion.
    Engine,
}

impl Block {
    /// The block's name on the command line and in module names (`raw-check` -> `raw_check`).
    pub fn name(self) -> &'static str {
        match self {
            Block::Agen => "agen",
            Block::Controller => "controller",
            Block::RawCheck => "raw-check",
            Block::Engine => "engine",
        }
    }
}

/// Largest number of CTAs per shader a design may have.
pub const MAX_CTAS: u32 = 32;
/// Largest number of buffers per CTA a design may have.
pub const MAX_BUFFERS: u32 = 8;

/// A D²MA block to generate, sized at run time and validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct D2maDesign {
    /// The block.
    pub block: Block,
    /// Resident CTAs per shader (one controller each); the paper has 8.
    pub ctas: u32,
    /// Buffers per CTA (table entries per controller); the paper has 4.
    pub buffers: u32,
    /// Global segment size in bytes: 32, 64 or 128.
    pub segment_bytes: u32,
    /// Bits of the global addresses the AGEN computes and the engine requests (the paper's
    /// 64 by default). The table entry keeps the paper's 64-bit global field, whose bits above
    /// these are ignored: addresses wrap modulo `2^global_bits`.
    pub global_bits: u32,
}

/// Fewest global address bits a design may have: every step between consecutive chunks is below
/// 2^20 bytes, so with at least 21 bits the mask-and-compare of consecutive segments sees the
/// same segments on wrapped addresses as on full ones.
pub const MIN_GLOBAL_BITS: u32 = 24;
/// Most global address bits: the entry's field.
pub const MAX_GLOBAL_BITS: u32 = 64;

impl D2maDesign {
    /// Validates a request: 1..=32 CTAs, 1..=8 buffers, 32/64/128-byte segments.
    pub fn new(block: Block, ctas: u32, buffers: u32, segment_bytes: u32) -> Result<Self, Error> {
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
        })
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
    /// `_s<segment>` for segments other than 128 bytes), then `_g<bits>` for an AGEN or engine
    /// with fewer than 64 global address bits.
    pub fn name(&self) -> String {
        let base = self.base_name();
        let global = matches!(self.block, Block::Agen | Block::Engine);
        if global && self.global_bits < MAX_GLOBAL_BITS {
            format!("{base}_g{}", self.global_bits)
        } else {
            base
        }
    }

    fn base_name(&self) -> String {
        match self.block {
            Block::Agen => format!("d2ma_agen_s{}", self.segment_bytes),
            Block::Controller => format!("d2ma_controller_c{}_b{}", self.ctas, self.buffers),
            Block::RawCheck => format!("d2ma_raw_check_c{}_b{}", self.ctas, self.buffers),
            Block::Engine if self.segment_bytes == 128 => {
                format!("d2ma_engine_c{}_b{}", self.ctas, self.buffers)
            }
            Block::Engine => format!(
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

    /// The Verilog modules, top first (the engine's sub-modules after it); `header` gives
    /// each module's leading comment lines.
    pub fn modules(&self, header: &dyn Fn(&D2maDesign) -> Vec<String>) -> Vec<Module> {
        match self.block {
            Block::Agen => vec![agen::build(self, header(self))],
            Block::Controller => vec![controller::build(self, header(self))],
            Block::RawCheck => vec![raw_check::build(self, header(self))],
            Block::Engine => {
                let (top, subs) = engine::build(self, header(self), header);
                std::iter::once(top).chain(subs).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_limits() {
        let d = D2maDesign::new(Block::Controller, 8, 4, 128).unwrap();
        assert_eq!(d.name(), "d2ma_controller_c8_b4");
        assert_eq!((d.entries(), d.cta_bits(), d.buf_bits()), (32, 3, 2));
        assert_eq!(
            D2maDesign::new(Block::Agen, 8, 4, 64).unwrap().name(),
            "d2ma_agen_s64"
        );
        assert_eq!(
            D2maDesign::new(Block::Engine, 8, 4, 128).unwrap().name(),
            "d2ma_engine_c8_b4"
        );
        assert_eq!(
            D2maDesign::new(Block::Engine, 2, 1, 32).unwrap().name(),
            "d2ma_engine_c2_b1_s32"
        );
        let g = D2maDesign::new(Block::Engine, 8, 4, 128)
            .unwrap()
            .with_global_bits(32)
            .unwrap();
        assert_eq!(g.name(), "d2ma_engine_c8_b4_g32");
        assert_eq!(g.wrap_global(0x1_2345_6789), 0x2345_6789);
        let c = D2maDesign::new(Block::Controller, 8, 4, 128).unwrap();
        assert_eq!(
            c.with_global_bits(32).unwrap().name(),
            "d2ma_controller_c8_b4"
        );
        let msg = c.with_global_bits(16).unwrap_err().to_string();
        assert_eq!(msg, "global_bits = 16 is out of range: allowed 24 to 64");
        assert!(D2maDesign::new(Block::RawCheck, 0, 4, 128).is_err());
        assert!(D2maDesign::new(Block::RawCheck, 8, 9, 128).is_err());
        let msg = D2maDesign::new(Block::Agen, 8, 4, 96)
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "segment_bytes = 96 is out of range: allowed 32, 64 or 128"
        );
    }
}
