//! Test vectors for a hasher, computed by the golden model in `models`.
//!
//! The stimulus itself (which configurations, which addresses, in which order) is
//! [`models::hash_stimulus`], shared with the DPI-C golden model so that the file-based and
//! the in-simulation testbenches check the same vectors: fixed hashers with `n <= 16` are
//! checked exhaustively, wider ones on `vectors` addresses (corners, then random ones);
//! configurable hashers over at least `configs` configurations (the one given with the request
//! first, then random valid ones), see [`configurable_split`].

use super::{HashDesign, Variant};
use hdl_util::Bits;
use models::hash_stimulus::HashStimulus;
pub use models::hash_stimulus::{configurable_split, VectorPlan, EXHAUSTIVE_MAX_ADDR_BITS};
use testbenches::Vector;

/// The stimulus stream of `design` under `plan`.
pub fn stimulus(design: &HashDesign, plan: &VectorPlan) -> HashStimulus {
    match &design.variant {
        Variant::Fixed(config) => HashStimulus::fixed(config.clone(), plan),
        Variant::Configurable { program, .. } => {
            HashStimulus::configurable(design.kind, design.geometry, program.clone(), plan)
        }
    }
}

/// The vectors for `design` under `plan`, expected values from the golden model.
pub fn vectors(design: &HashDesign, plan: &VectorPlan) -> Vec<Vector> {
    let n = design.geometry.addr_bits() as usize;
    let m = design.geometry.bank_bits() as usize;
    let layout = design.cfg_layout();
    let mut stream = stimulus(design, plan);
    let mut out = Vec::with_capacity(usize::try_from(stream.len()).unwrap_or(0));
    let mut cfg = None;
    while let Some(step) = stream.next_step() {
        let config = stream.config();
        if step.new_config {
            cfg = layout.map(|l| l.encode(config));
        }
        out.push(Vector {
            inputs: std::iter::once(Bits::from_u64(step.addr, n))
                .chain(cfg.clone())
                .collect(),
            expected: vec![Bits::from_u64(config.bank(step.addr), m)],
        });
    }
    out
}
