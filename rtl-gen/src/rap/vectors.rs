//! Test vectors for a converter, computed by the golden model ([`ShiftLayout`]).
//!
//! A baked converter is checked exhaustively (every `(row, col)`) when `w^2` fits the vector
//! budget, otherwise on every row at columns 0 and `w - 1` (so every shift is read) and then
//! random elements. A loadable converter is checked cycle by cycle against a model of its
//! register file, each vector's outputs coming from the table before that vector's clock edge:
//! every row after reset (with `perm_we_i` low but `perm_idx_i`/`perm_val_i` busy), a whole new
//! table written in random order while random elements are read, every row again, single-entry
//! rewrites read back the cycle they are written and the cycle after (and, for a `w` that is not
//! a power of two, a write to an entry above `w - 1`, which must change nothing), then random
//! elements up to the budget.

use super::RapDesign;
use models::rap::{LayoutKind, Permutation, ShiftLayout};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use testbenches::{Bits, Harness, PortSpec, Timing, Vector};

/// How many vectors to draw and from which seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorPlan {
    /// Seed of the ChaCha8 generator for elements and loaded tables.
    pub seed: u64,
    /// Vector budget (a loadable converter's fixed sequence may exceed it).
    pub vectors: usize,
}

impl Default for VectorPlan {
    fn default() -> Self {
        Self {
            seed: 1,
            vectors: 100_000,
        }
    }
}

/// The testbench's view of `design`'s ports.
pub fn harness(design: &RapDesign) -> Harness {
    let m = design.index_bits() as usize;
    let mut inputs = vec![PortSpec::new("row_i", m), PortSpec::new("col_i", m)];
    if design.loadable {
        inputs.push(PortSpec::new("perm_we_i", 1));
        inputs.push(PortSpec::new("perm_idx_i", m));
        inputs.push(PortSpec::new("perm_val_i", m));
    }
    Harness {
        dut: design.name(),
        inputs,
        outputs: vec![
            PortSpec::new("addr_o", design.addr_bits() as usize),
            PortSpec::new("bank_o", m),
        ],
        timing: if design.pipeline {
            Timing::Pipelined {
                latency: design.latency(),
            }
        } else if design.loadable {
            Timing::Clocked
        } else {
            Timing::Combinational
        },
    }
}

/// One cycle of a loadable converter: the element read and the write applied at its edge.
#[derive(Debug, Clone, Copy)]
struct Step {
    row: u32,
    col: u32,
    we: bool,
    idx: u32,
    val: u32,
}

/// The vectors for `design` under `plan`, and how they were chosen, in words.
pub fn vectors(design: &RapDesign, plan: &VectorPlan) -> (Vec<Vector>, String) {
    let w = design.w();
    let m = design.index_bits() as usize;
    let a = design.addr_bits() as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let expect = |layout: &ShiftLayout, row: u32, col: u32| {
        vec![
            Bits::from_u64(layout.address(row, col), a),
            Bits::from_u64(u64::from(layout.bank(row, col)), m),
        ]
    };
    if !design.loadable {
        let layout = design.layout();
        let space = u64::from(w) * u64::from(w);
        let (elements, coverage): (Vec<(u32, u32)>, String) = if space <= plan.vectors as u64 {
            let all = (0..w).flat_map(|r| (0..w).map(move |c| (r, c))).collect();
            (all, format!("exhaustive: all {space} elements"))
        } else {
            let mut e: Vec<(u32, u32)> = (0..w).flat_map(|r| [(r, 0), (r, w - 1)]).collect();
            while e.len() < plan.vectors {
                e.push((rng.gen_range(0..w), rng.gen_range(0..w)));
            }
            let n = e.len();
            (
                e,
                format!("every row at columns 0 and w-1, then random elements: {n} in all"),
            )
        };
        let vectors = elements
            .into_iter()
            .map(|(r, c)| Vector {
                inputs: vec![
                    Bits::from_u64(u64::from(r), m),
                    Bits::from_u64(u64::from(c), m),
                ],
                expected: expect(layout, r, c),
            })
            .collect();
        return (vectors, coverage);
    }

    // Loadable: a cycle-by-cycle sequence against a model of the register file.
    let idx_space = 1u32 << m;
    let mut steps: Vec<Step> = Vec::new();
    let read = |rng: &mut ChaCha8Rng, row: u32| Step {
        row,
        col: rng.gen_range(0..w),
        we: false,
        idx: rng.gen_range(0..idx_space),
        val: rng.gen_range(0..w),
    };
    for r in 0..w {
        steps.push(read(&mut rng, r));
    }
    let table: Vec<u32> = match design.kind() {
        LayoutKind::Ras => (0..w).map(|_| rng.gen_range(0..w)).collect(),
        _ => Permutation::random(w, &mut rng).as_slice().to_vec(),
    };
    let mut order: Vec<u32> = (0..w).collect();
    order.shuffle(&mut rng);
    for &i in &order {
        let row = rng.gen_range(0..w);
        let mut s = read(&mut rng, row);
        (s.we, s.idx, s.val) = (true, i, table[i as usize]);
        steps.push(s);
    }
    for r in 0..w {
        steps.push(read(&mut rng, r));
    }
    // Rewrites: RAP swaps two entries (two writes), RAS sets one; each entry written is read on
    // the cycle of the write (old value) and the cycle after (new value).
    let mut current = table.clone();
    for _ in 0..(w / 4).clamp(2, 64) {
        let i = rng.gen_range(0..w);
        let writes: Vec<(u32, u32)> = match design.kind() {
            LayoutKind::Ras => vec![(i, rng.gen_range(0..w))],
            _ => {
                let j = rng.gen_range(0..w);
                vec![(i, current[j as usize]), (j, current[i as usize])]
            }
        };
        for (idx, val) in writes {
            let mut s = read(&mut rng, idx);
            (s.we, s.idx, s.val) = (true, idx, val);
            steps.push(s);
            current[idx as usize] = val;
            steps.push(read(&mut rng, idx));
        }
    }
    if !w.is_power_of_two() {
        let mut s = read(&mut rng, w - 1);
        (s.we, s.idx, s.val) = (
            true,
            w + rng.gen_range(0..idx_space - w),
            rng.gen_range(0..w),
        );
        steps.push(s);
        steps.push(read(&mut rng, w - 1));
    }
    let fixed = steps.len();
    while steps.len() < plan.vectors {
        let row = rng.gen_range(0..w);
        steps.push(read(&mut rng, row));
    }

    let mut layout = design.layout().clone();
    let vectors = steps
        .iter()
        .map(|s| {
            let v = Vector {
                inputs: vec![
                    Bits::from_u64(u64::from(s.row), m),
                    Bits::from_u64(u64::from(s.col), m),
                    Bits::from_u64(u64::from(s.we), 1),
                    Bits::from_u64(u64::from(s.idx), m),
                    Bits::from_u64(u64::from(s.val), m),
                ],
                expected: expect(&layout, s.row, s.col),
            };
            if s.we && s.idx < w {
                let mut shifts = layout.shifts().to_vec();
                shifts[s.idx as usize] = s.val;
                // A RAP table passes through non-permutations while it is loaded; the address
                // function is the same for any shifts, so the model holds them as RAS.
                layout = ShiftLayout::ras(shifts);
            }
            v
        })
        .collect::<Vec<_>>();
    let coverage = format!(
        "{} cycles: every row after reset, a new table loaded in random order under random reads, \
         every row again, rewrites read back{}; then {} random reads",
        vectors.len(),
        if w.is_power_of_two() {
            ""
        } else {
            ", a write above w-1 that must change nothing"
        },
        vectors.len() - fixed
    );
    (vectors, coverage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baked_vectors_are_exhaustive_when_small() {
        let d = RapDesign::rap(&Permutation::new(4, &[2, 0, 3, 1]).unwrap(), false, false).unwrap();
        let (v, coverage) = vectors(&d, &VectorPlan::default());
        assert_eq!(v.len(), 16);
        assert_eq!(coverage, "exhaustive: all 16 elements");
        // Element (2, 2) -> address 9, bank 1 (the paper's Fig. 6).
        assert_eq!(
            v[10].expected,
            vec![Bits::from_u64(9, 4), Bits::from_u64(1, 2)]
        );
        let big = RapDesign::from_seed(LayoutKind::Rap, 1024, 3, false, false).unwrap();
        let (v, _) = vectors(
            &big,
            &VectorPlan {
                seed: 1,
                vectors: 3000,
            },
        );
        assert_eq!(v.len(), 3000);
    }

    #[test]
    fn loadable_vectors_follow_the_register_file() {
        let d = RapDesign::from_seed(LayoutKind::Rap, 6, 3, true, false).unwrap();
        let (v, coverage) = vectors(
            &d,
            &VectorPlan {
                seed: 2,
                vectors: 10,
            },
        );
        assert!(v.len() > 6 * 3, "{}", v.len());
        assert!(coverage.contains("above w-1"), "{coverage}");
        assert_eq!(harness(&d).timing, Timing::Clocked);
        // The first rows read the reset table.
        let reset = d.layout();
        for (r, vec) in v.iter().take(6).enumerate() {
            let col = vec.inputs[1].field(0, 3) as u32;
            assert_eq!(
                vec.expected[1].field(0, 3) as u32,
                reset.bank(r as u32, col)
            );
        }
    }
}
