//! Stimulus and expected outputs for the D²MA blocks: directed cases from the paper, then
//! seeded random ones, with every expected value from the cycle models of [`super::cycle`].
//!
//! - RAW check (combinational): the SAXPY guards of Fig. 12, loads on every guard's edges,
//!   then random guards and loads near their edges.
//! - Controller array (one vector a cycle): random configuration commands of valid entries
//!   (parts in any order, writes to busy entries, part code 3), ignitions, completions and
//!   reads, so `dma_execute` restarts (a new global base after completion) occur too.
//! - AGEN (one vector a cycle): the directed transfers (the sgemv vector of Fig. 8, strided
//!   and transposed reads, a 2-D tile, halos in all nine regions, bank-conflict padding, a
//!   transfer starting inside the segment the previous one last requested, any given with
//!   `--transfer`), then random valid entries, with `mem_ready_i` low at random,
//!   idle gaps, and starts while busy (ignored).
//! - Engine (one vector a cycle): SAXPY on two CTAs (Fig. 12: x and y buffered at once, loads
//!   that alias them waiting, then released), then random whole-entry configurations and
//!   `dma_execute` restarts, loads, memory back-pressure and responses returned in random
//!   order, drained until every buffer has completed.

//!
//! One module per concern: [`transfers`] (the directed transfers and random valid entries every
//! generator draws from), then one generator per block: [`raw`], [`controller`], [`agen`]
//! (with the directed transfers' rates) and [`engine`] (with what a run measured).

pub mod agen;
pub mod controller;
pub mod engine;
pub mod raw;
pub mod transfers;

pub use agen::{agen_rates, agen_vector, AgenRate};
pub use engine::{engine_vectors, EngineRun};
pub use transfers::{directed_transfers, random_entry, saxpy_buffer};

use super::{D2maDesign, Unit};
use hdl_util::Bits;
use models::d2ma::entry::{ENTRY_BITS, FIELDS};
use models::d2ma::BufferEntry;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use testbenches::Vector;

/// How many random vectors or transfers to draw and from which seed, and the extra directed
/// transfers of an AGEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct D2maPlan {
    /// Seed of the ChaCha8 generator.
    pub seed: u64,
    /// Random cycles (controller, engine), random guard sets (RAW check) or random transfers
    /// (AGEN) after the directed ones.
    pub random: usize,
    /// Extra directed AGEN transfers (`--transfer`), validated by the caller; run after the
    /// built-in ones.
    pub transfers: Vec<BufferEntry>,
}

impl Default for D2maPlan {
    fn default() -> Self {
        Self {
            seed: 1,
            random: 2000,
            transfers: Vec::new(),
        }
    }
}

/// The vectors for `design` under `plan`.
pub fn vectors(design: &D2maDesign, plan: &D2maPlan) -> Vec<Vector> {
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    match design.block {
        Unit::RawCheck => raw::vectors(design, plan, &mut rng),
        Unit::Controller => controller::vectors(design, plan, &mut rng),
        Unit::Agen => agen::vectors(design, plan, &mut rng),
        Unit::Engine => engine::engine_vectors(design, plan, &mut rng).0,
    }
}

/// The entry as the 173 bits of an `entry_i` / `rd_entry_o` port.
pub fn entry_bits(e: &BufferEntry) -> Bits {
    let mut b = Bits::zero(ENTRY_BITS as usize);
    for f in &FIELDS {
        b.set_field(f.lsb as usize, f.width as usize, e.get(f));
    }
    b
}

/// One bit.
pub(super) fn bit(v: bool) -> Bits {
    Bits::from_u64(u64::from(v), 1)
}

/// `v` in `w` bits.
pub(super) fn num(v: u64, w: u32) -> Bits {
    Bits::from_u64(v, w as usize)
}

/// `values[i]` at bits `i*w +: w`.
pub(super) fn packed(values: impl Iterator<Item = u64>, count: u32, w: u32) -> Bits {
    let mut b = Bits::zero((count * w) as usize);
    for (i, v) in values.enumerate() {
        b.set_field(i * w as usize, w as usize, v);
    }
    b
}
