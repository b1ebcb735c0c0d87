//! The counter's vectors: directed accesses (no lane, one lane, every lane on one address, a
//! unit stride, a stride of the bank count, the lanes on distinct addresses of one bank), then
//! seeded random ones of three kinds (any addresses; addresses from a small pool, so that lanes
//! repeat; addresses whose low bits take one or two values, few banks under modulo), expected
//! bank cycles from the golden model (`models::congestion::congestion` over the valid lanes).

use super::ConflictDesign;
use hdl_util::Bits;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use testbenches::Vector;

/// How the vectors are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConflictPlan {
    /// Seed of the ChaCha8 generator.
    pub seed: u64,
    /// Random accesses after the directed ones.
    pub random: usize,
}

impl Default for ConflictPlan {
    fn default() -> Self {
        Self {
            seed: 1,
            random: 2000,
        }
    }
}

/// One access: a valid bit and an address per lane.
type Access = Vec<Option<u64>>;

/// The vectors of `design` under `plan`, and their coverage in words.
pub fn vectors(design: &ConflictDesign, plan: &ConflictPlan) -> (Vec<Vector>, String) {
    let lanes = design.lanes() as usize;
    let geometry = design.hash().geometry;
    let (n, banks) = (geometry.addr_bits(), geometry.banks());
    let mask = models::geometry::low_mask(n);
    let config = design.config();
    // Addresses of one bank: the first `lanes` addresses the map sends to bank 0 (fewer when
    // the address space has fewer).
    let bank0: Vec<u64> = (0..=mask)
        .filter(|&a| config.bank(a) == 0)
        .take(lanes)
        .collect();
    let mut directed: Vec<Access> = vec![
        vec![None; lanes],
        std::iter::once(Some(0))
            .chain(vec![None; lanes - 1])
            .collect(),
        vec![Some(mask); lanes],
        (0..lanes).map(|i| Some(i as u64 & mask)).collect(),
        (0..lanes)
            .map(|i| Some((i as u64 * banks) & mask))
            .collect(),
    ];
    directed.push((0..lanes).map(|i| bank0.get(i).copied()).collect());
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let random = (0..plan.random).map(|r| {
        let pool: Vec<u64> = (0..4).map(|_| rng.gen::<u64>() & mask).collect();
        let few_banks = rng.gen_range(1..=2u64);
        (0..lanes)
            .map(|_| {
                let addr = match r % 3 {
                    0 => rng.gen::<u64>() & mask,
                    1 => pool[rng.gen_range(0..pool.len())],
                    _ => (rng.gen::<u64>() & mask & !(banks - 1)) | rng.gen_range(0..few_banks),
                };
                rng.gen_bool(0.9).then_some(addr)
            })
            .collect::<Access>()
    });
    let accesses: Vec<Access> = directed
        .into_iter()
        .chain(random.collect::<Vec<_>>())
        .collect();
    let vectors = accesses
        .iter()
        .map(|access| {
            let valid: Vec<u64> = access.iter().flatten().copied().collect();
            let cycles = models::congestion::congestion(&valid, |a| config.bank(a));
            let mut addr = Bits::zero(lanes * n as usize);
            let mut bits = Bits::zero(lanes);
            for (i, lane) in access.iter().enumerate() {
                if let Some(a) = lane {
                    bits.set_field(i, 1, 1);
                    addr.set_field(i * n as usize, n as usize, *a);
                }
            }
            Vector {
                inputs: vec![bits, addr],
                expected: vec![Bits::from_u64(
                    u64::from(cycles),
                    design.count_bits() as usize,
                )],
            }
        })
        .collect();
    let coverage = format!(
        "6 directed accesses (none, one lane, one address, unit and bank strides, one bank), \
         then {} random ones (any addresses, repeated addresses, few low-bit values)",
        plan.random
    );
    (vectors, coverage)
}
