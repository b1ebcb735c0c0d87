//! The hashers' sweep: every kind at every address width and bank count, fixed or
//! configurable, generated and synthesized by the generic engine
//! (`crate::experiments::sweep`, `rtl-gen sweep hash`).
//!
//! Fixed hashers need a configuration; the sweep uses [`fixed_config`], a deterministic
//! full-rank one per kind.

use crate::block;
use crate::experiments::sweep::{bounded, once, Generated, Point, PointResult, SweepSpace};
use crate::hash::vectors::VectorPlan;
use crate::hash::HashDesign;
use crate::Error;
use models::{Geometry, HashConfig, HashConfigObject, HashFunction, HashKind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The vectors a sweep's blocks carry: the fewest the generator allows (fixed hashers up to
/// 16 address bits are still checked exhaustively by their testbench).
const SWEEP_VECTORS: VectorPlan = VectorPlan {
    seed: 1,
    vectors: 16,
    configs: 1,
};

/// The deterministic full-rank configuration a sweep gives a fixed hasher of `kind`:
///
/// - `bitvector-perm`: `k = 0` (the low bits; every offset is wires only);
/// - `bitvector-xor`: `k1 = 0`, `k2 = min(m, n - 1)`, mask all ones, so bank bit `i` is
///   `addr[i] ^ addr[i + k2]` wherever that bit exists (mask 0 when `n = 1`);
/// - `bitwise-perm`: bank bit `i` = `addr[i]` (wires only, like any choice of bits);
/// - `bitwise-xor`: pairs `(i, i + m)`, or `(i, i)` where `i + m >= n`: the same function as
///   the bit-vector XOR above;
/// - `xor-matrix`: row `i` = bit `i` plus every address bit from `m` up, the densest matrix
///   with an identity part: every upper bit folded into every bank bit (`n - m + 1` inputs
///   per XOR), an upper bound for fixed matrices of full rank.
pub fn fixed_config(kind: HashKind, geometry: Geometry) -> HashConfig {
    let n = geometry.addr_bits();
    let m = geometry.bank_bits();
    let function = match kind {
        HashKind::Modulo => HashFunction::Modulo,
        HashKind::BitvectorPerm => HashFunction::BitvectorPerm { k: 0 },
        HashKind::BitvectorXor => {
            let k2 = m.min(n - 1);
            HashFunction::BitvectorXor {
                k1: 0,
                k2,
                mask: if k2 > 0 { geometry.bank_mask() } else { 0 },
            }
        }
        HashKind::BitwisePerm => HashFunction::BitwisePerm {
            bits: (0..m).collect(),
        },
        HashKind::BitwiseXor => HashFunction::BitwiseXor {
            pairs: (0..m)
                .map(|i| if i + m < n { (i, i + m) } else { (i, i) })
                .collect(),
        },
        HashKind::XorMatrix => {
            let upper = models::geometry::low_mask(n) & !geometry.bank_mask();
            HashFunction::XorMatrix {
                rows: (0..m).map(|i| (1u64 << i) | upper).collect(),
            }
        }
    };
    let config = HashConfig::new(geometry, function)
        .unwrap_or_else(|e| unreachable!("sweep configuration of {kind} refused: {e}"));
    debug_assert!(config.check_full_rank().is_ok());
    config
}

/// What to sweep: the plan `results.json` and an emitted sweep's `sweep.json` record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPlan {
    /// Hash kinds, one line per kind in the plots.
    pub kinds: Vec<HashKind>,
    /// Bank counts, the x axis.
    pub banks: Vec<u64>,
    /// Word-address widths n, one series per width in the plots when there are several.
    pub addr_bits: Vec<u32>,
    /// Configurable (configuration on `cfg_i`) instead of fixed hashers.
    pub configurable: bool,
    /// Register the output.
    pub pipeline: bool,
}

impl SweepPlan {
    /// The plan, its lists refused where they repeat a value (`--banks 4,4`).
    pub fn new(
        kinds: Vec<HashKind>,
        banks: Vec<u64>,
        addr_bits: Vec<u32>,
        configurable: bool,
        pipeline: bool,
    ) -> Result<Self, Error> {
        let lists = [kinds.len(), addr_bits.len(), banks.len()];
        bounded("--kinds x --addr-bits x --banks", &lists)?;
        once("--kinds", &kinds)?;
        once("--banks", &banks)?;
        once("--addr-bits", &addr_bits)?;
        Ok(Self {
            kinds,
            banks,
            addr_bits,
            configurable,
            pipeline,
        })
    }

    /// `fixed` or `configurable`.
    fn variant(&self) -> &'static str {
        if self.configurable {
            "configurable"
        } else {
            "fixed"
        }
    }
}

/// The point's values: `(kind, addr_bits, banks)`.
fn values_of(point: &Point) -> (HashKind, u32, u64) {
    let kind = point
        .text("kind")
        .parse()
        .unwrap_or_else(|_| unreachable!("a hash point has a kind"));
    (
        kind,
        point.number("addr_bits") as u32,
        point.number("banks"),
    )
}

impl SweepSpace for SweepPlan {
    fn family(&self) -> &'static str {
        "hash"
    }

    /// Kind-major, then address width, then bank count, in the order given.
    fn axes(&self) -> Vec<(&'static str, Vec<Value>)> {
        vec![
            ("kind", self.kinds.iter().map(|k| json!(k.name())).collect()),
            ("variant", vec![json!(self.variant())]),
            ("pipeline", vec![json!(self.pipeline)]),
            (
                "addr_bits",
                self.addr_bits.iter().map(|&n| json!(n)).collect(),
            ),
            ("banks", self.banks.iter().map(|&b| json!(b)).collect()),
        ]
    }

    /// `<kind>-n<addr_bits>-b<banks>` (`bitvector-xor-n14-b32`).
    fn point_name(&self, v: &BTreeMap<String, Value>) -> String {
        let kind = v["kind"].as_str().unwrap_or("");
        format!("{kind}-n{}-b{}", v["addr_bits"], v["banks"])
    }

    fn generate(&self, point: &Point, blocks: &Path) -> Result<Generated, Error> {
        let (kind, addr_bits, banks) = values_of(point);
        if self.configurable && kind == HashKind::Modulo {
            return Ok(Generated::Skipped(
                Error::NothingToConfigure(kind).to_string(),
            ));
        }
        // The plan's widths and bank counts were checked alone; a pair that does not fit is
        // skipped.
        let geometry = match Geometry::new(addr_bits, banks) {
            Ok(g) => g,
            Err(e) => return Ok(Generated::Skipped(e.to_string())),
        };
        let object = if self.configurable {
            HashConfigObject::new(kind, addr_bits, banks)
        } else {
            HashConfigObject::from_config(&fixed_config(kind, geometry))
        };
        let design = HashDesign::new(&object, self.configurable, self.pipeline, false)?;
        let command = hash_command(self, &object, blocks);
        let dir = block::write(&design, &SWEEP_VECTORS, &command, blocks)?;
        Ok(Generated::Block {
            dir,
            top: design.name(),
        })
    }

    /// A line per kind; with several address widths a line per kind and width (`<kind>
    /// n=<bits>`).
    fn series(&self, point: &PointResult) -> String {
        match self.addr_bits.as_slice() {
            [_] => point.value("kind"),
            _ => format!("{} n={}", point.value("kind"), point.value("addr_bits")),
        }
    }

    fn title(&self) -> String {
        let width = match self.addr_bits.as_slice() {
            [n] => format!("n = {n}"),
            widths => format!("{} address widths", widths.len()),
        };
        format!(
            "{} hashers, {width}{}",
            self.variant(),
            if self.pipeline { ", registered" } else { "" }
        )
    }
}

/// The `rtl-gen hash` command that generates a sweep point's block.
fn hash_command(plan: &SweepPlan, object: &HashConfigObject, blocks: &Path) -> String {
    let mut c = format!("rtl-gen hash {}", config_flags(object, !plan.configurable));
    if plan.configurable {
        c.push_str(" --configurable");
    }
    if plan.pipeline {
        c.push_str(" --pipeline");
    }
    let _ = write!(
        c,
        " --vectors {} --configs {} --out {}",
        SWEEP_VECTORS.vectors,
        SWEEP_VECTORS.configs,
        blocks.display()
    );
    c
}

/// The flags of `rtl-gen hash` (and of the commands that flatten its flag group) that name
/// `object`: `--kind`, `--addr-bits`, `--banks` and, with `fields`, the fixed fields (`--k1 2
/// --k2 8 --mask 0x7`).
pub fn config_flags(object: &HashConfigObject, fields: bool) -> String {
    let o = object;
    let mut c = format!(
        "--kind {} --addr-bits {} --banks {}",
        o.kind, o.addr_bits, o.banks
    );
    if !fields {
        return c;
    }
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    if let Some(k) = o.k {
        let _ = write!(c, " --k {k}");
    }
    if let (Some(k1), Some(k2), Some(mask)) = (o.k1, o.k2, o.mask) {
        let _ = write!(c, " --k1 {k1} --k2 {k2} --mask {mask:#x}");
    }
    if let Some(bits) = &o.bits {
        let _ = write!(c, " --bits {}", list(bits));
    }
    if let Some(pairs) = &o.pairs {
        let p: Vec<String> = pairs.iter().map(|[a, b]| format!("{a}:{b}")).collect();
        let _ = write!(c, " --pairs {}", p.join(","));
    }
    if let Some(rows) = &o.rows {
        let r: Vec<String> = rows.iter().map(|r| format!("{:#x}", r.0)).collect();
        let _ = write!(c, " --rows {}", r.join(","));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_configs_are_valid_and_full_rank_at_every_sweep_shape() {
        for kind in HashKind::ALL {
            for (n, banks) in [(14, 4), (14, 32), (14, 256), (8, 256), (1, 2), (64, 65536)] {
                let g = Geometry::new(n, banks).unwrap();
                let c = fixed_config(kind, g);
                assert!(c.check_full_rank().is_ok(), "{kind} n={n} banks={banks}");
            }
        }
    }
}
