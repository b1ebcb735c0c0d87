//! A RAP (or RAS) address converter to generate: `w`, the shift table, and the variant.

use crate::rtl::ir::bits_for;
use crate::rtl::Module;
use crate::Error;
use models::rap::{LayoutKind, Permutation, ShiftLayout};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Largest `w` the converter generator accepts.
pub const MAX_W: u32 = 1024;

/// The configuration a converter records in its manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RapConfig {
    /// `rap` or `ras`.
    pub kind: String,
    /// Matrix width, bank count.
    pub w: u32,
    /// The shift of every row: baked in, or the register file's reset contents.
    pub shifts: Vec<u32>,
    /// The seed the shifts were drawn from, when they were not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Whether the shifts live in a register file loaded at run time.
    pub loadable: bool,
    /// Whether `addr_o` and `bank_o` are registered.
    pub pipeline: bool,
}

/// A validated converter: `addr_o = row_i * w + ((col_i + shift[row_i]) mod w)`,
/// `bank_o = (col_i + shift[row_i]) mod w`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RapDesign {
    layout: ShiftLayout,
    seed: Option<u64>,
    /// Shifts held in a register file written through `perm_we_i`, `perm_idx_i`, `perm_val_i`
    /// (reset to the layout's shifts) instead of baked into logic.
    pub loadable: bool,
    /// One output register on `addr_o` and `bank_o`.
    pub pipeline: bool,
}

fn check_w(w: u32) -> Result<(), Error> {
    if (2..=MAX_W).contains(&w) {
        Ok(())
    } else {
        Err(Error::Model(models::Error::OutOfRange {
            name: "w".into(),
            value: w.to_string(),
            allowed: format!("2 to {MAX_W}"),
        }))
    }
}

impl RapDesign {
    /// A RAP converter with the permutation `perm`.
    pub fn rap(perm: &Permutation, loadable: bool, pipeline: bool) -> Result<Self, Error> {
        check_w(perm.w())?;
        Ok(Self {
            layout: ShiftLayout::rap(perm),
            seed: None,
            loadable,
            pipeline,
        })
    }

    /// A RAS converter with the shifts `shifts` (each below `w = shifts.len()`, repeats
    /// allowed); the error names the first shift out of range.
    pub fn ras(shifts: Vec<u32>, loadable: bool, pipeline: bool) -> Result<Self, Error> {
        let w = shifts.len() as u32;
        check_w(w)?;
        if let Some(bad) = shifts.iter().find(|&&s| s >= w) {
            return Err(Error::Model(models::Error::OutOfRange {
                name: "shift".into(),
                value: bad.to_string(),
                allowed: format!("0 to {} for w = {w}", w - 1),
            }));
        }
        Ok(Self {
            layout: ShiftLayout::ras(shifts),
            seed: None,
            loadable,
            pipeline,
        })
    }

    /// A converter of `kind` (RAP or RAS) whose shifts are drawn from `seed`: RAP takes
    /// [`Permutation::from_seed`], RAS `w` uniform values from a ChaCha8 generator seeded with
    /// `seed`.
    pub fn from_seed(
        kind: LayoutKind,
        w: u32,
        seed: u64,
        loadable: bool,
        pipeline: bool,
    ) -> Result<Self, Error> {
        check_w(w)?;
        let mut design = match kind {
            LayoutKind::Ras => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                Self::ras(
                    (0..w).map(|_| rng.gen_range(0..w)).collect(),
                    loadable,
                    pipeline,
                )?
            }
            _ => Self::rap(&Permutation::from_seed(w, seed), loadable, pipeline)?,
        };
        design.seed = Some(seed);
        Ok(design)
    }

    /// RAP or RAS.
    pub fn kind(&self) -> LayoutKind {
        self.layout.kind()
    }

    /// The matrix width `w` (and bank count).
    pub fn w(&self) -> u32 {
        self.layout.w()
    }

    /// The golden model: the layout with the baked (or reset) shifts.
    pub fn layout(&self) -> &ShiftLayout {
        &self.layout
    }

    /// Bits of `row_i`, `col_i`, `bank_o`, `perm_idx_i`, `perm_val_i`: `ceil(log2 w)`.
    pub fn index_bits(&self) -> u32 {
        bits_for(u64::from(self.w()))
    }

    /// Bits of `addr_o`: `ceil(log2 w^2)`.
    pub fn addr_bits(&self) -> u32 {
        bits_for(u64::from(self.w()) * u64::from(self.w()))
    }

    /// Output latency in clock cycles.
    pub fn latency(&self) -> u32 {
        u32::from(self.pipeline)
    }

    /// Whether the module has `clk_i` and `rst_ni`.
    pub fn clocked(&self) -> bool {
        self.loadable || self.pipeline
    }

    /// `rap_w32`, then `_load` for a loadable and `_pipe` for a pipelined converter
    /// (`ras_w32_load_pipe`).
    pub fn name(&self) -> String {
        let mut name = format!("{}_w{}", self.kind().name(), self.w());
        if self.loadable {
            name.push_str("_load");
        }
        if self.pipeline {
            name.push_str("_pipe");
        }
        name
    }

    /// What the manifest records.
    pub fn config(&self) -> RapConfig {
        RapConfig {
            kind: self.kind().name().into(),
            w: self.w(),
            shifts: self.layout.shifts().to_vec(),
            seed: self.seed,
            loadable: self.loadable,
            pipeline: self.pipeline,
        }
    }

    /// The Verilog module, with `header` as its leading comment lines.
    pub fn module(&self, header: Vec<String>) -> Module {
        super::logic::build(self, header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_widths_and_ranges() {
        let d = RapDesign::from_seed(LayoutKind::Rap, 32, 7, false, false).unwrap();
        assert_eq!(d.name(), "rap_w32");
        assert_eq!((d.index_bits(), d.addr_bits()), (5, 10));
        assert_eq!(
            d.layout().shifts(),
            Permutation::from_seed(32, 7).as_slice()
        );
        let d = RapDesign::from_seed(LayoutKind::Ras, 24, 7, true, true).unwrap();
        assert_eq!(d.name(), "ras_w24_load_pipe");
        assert_eq!((d.index_bits(), d.addr_bits()), (5, 10));
        assert!(d.clocked());
        let err = RapDesign::from_seed(LayoutKind::Rap, 2048, 1, false, false)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "w = 2048 is out of range: allowed 2 to 1024");
        let err = RapDesign::ras(vec![0, 4, 1, 2], false, false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("shift = 4") && err.contains("0 to 3"), "{err}");
    }
}
