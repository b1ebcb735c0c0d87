//! Test vectors for a converter, computed by the golden model ([`ConverterMap`]).
//!
//! A baked converter is checked exhaustively (every element) when `w^dims` fits the vector
//! budget, otherwise on every entry of every table (each row coordinate taking every value, the
//! others random, at columns 0 and `w - 1`) and then random elements. A loadable converter is
//! checked cycle by cycle against a model of its register file, each vector's outputs coming
//! from the tables before that vector's clock edge: every entry after reset (with `perm_we_i`
//! low but the other write inputs busy), whole new tables written in random order (entry by
//! entry, or packed word by word with random bits in the unused top of each word) while random
//! elements are read, every entry again, rewrites read back the cycle they are written and the
//! cycle after, writes that must change nothing (an index beyond the rows; for 3P table select
//! 3), then random elements up to the budget.

use super::{ConverterMap, RapDesign};
use hdl_util::Bits;
use models::rap::packed::{pack, packing, unpack_word};
use models::rap::{LayoutKind, Permutation};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use testbenches::Vector;

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

/// One cycle of a loadable converter: the element read and the write applied at its edge.
#[derive(Debug, Clone)]
struct Step {
    index: Vec<u32>,
    we: bool,
    sel: u32,
    idx: u32,
    val: u32,
}

/// The `(table, entry, value)` writes a step applies at its edge.
fn effect(design: &RapDesign, step: &Step) -> Vec<(usize, u32, u32)> {
    let tables = design.table_names().len() as u32;
    if !step.we || step.sel >= tables || step.idx >= design.write_rows() {
        return Vec::new();
    }
    let table = step.sel as usize;
    if design.packed() {
        unpack_word(design.w(), step.idx, step.val)
            .into_iter()
            .map(|(row, value)| (table, row, value))
            .collect()
    } else {
        vec![(table, step.idx, step.val)]
    }
}

/// Draws the stimulus of a loadable converter's cycles.
struct Stimulus<'a> {
    design: &'a RapDesign,
    rng: ChaCha8Rng,
}

impl Stimulus<'_> {
    /// A read of a random element whose coordinate `axis` is `value` (any other coordinate
    /// random), with the write inputs busy but `perm_we_i` low.
    fn read(&mut self, axis: Option<(usize, u32)>) -> Step {
        let w = self.design.w();
        let mut index: Vec<u32> = (0..self.design.index_ports().len())
            .map(|_| self.rng.gen_range(0..w))
            .collect();
        if let Some((axis, value)) = axis {
            index[axis] = value;
        }
        let sel_space = 1u32 << self.design.table_select_bits();
        Step {
            index,
            we: false,
            sel: self.rng.gen_range(0..sel_space),
            idx: self
                .rng
                .gen_range(0..1u32 << self.design.write_index_bits()),
            val: self.value(),
        }
    }

    /// A value for `perm_val_i` whose fields are legal shifts (packed: random unused bits).
    fn value(&mut self) -> u32 {
        let w = self.design.w();
        if self.design.packed() {
            let fields: Vec<u32> = (0..packing(w).1.min(w))
                .map(|_| self.rng.gen_range(0..w))
                .collect();
            self.packed(&fields)
        } else {
            self.rng.gen_range(0..w)
        }
    }

    /// `fields` packed into a word, the bits above them random.
    fn packed(&mut self, fields: &[u32]) -> u32 {
        let w = self.design.w();
        let (bits, per) = packing(w);
        let used = bits * per.min(w);
        let padding = if used >= 32 {
            0
        } else {
            self.rng.gen::<u32>() << used
        };
        let word = fields
            .iter()
            .enumerate()
            .fold(0u32, |v, (s, &f)| v | f << (bits * s as u32));
        word | padding
    }

    /// A write of `val` to row `idx` of table `table`, reading an element the write affects.
    fn write(&mut self, table: usize, idx: u32, val: u32, probe: u32) -> Step {
        let mut s = self.read(Some((table, probe)));
        (s.we, s.sel, s.idx, s.val) = (true, table as u32, idx, val);
        s
    }

    /// The writes that turn table `table` from `old` into `new`, in random order, each with a
    /// row it changes: an entry a write (unpacked), or a packed word a write.
    fn rewrite(&mut self, table: usize, old: &[u32], new: &[u32]) -> Vec<(Step, u32)> {
        let mut writes = Vec::new();
        if self.design.packed() {
            let per = packing(self.design.w()).1 as usize;
            let (old_words, new_words) = (pack(old), pack(new));
            for q in 0..new_words.len() {
                if old_words[q] != new_words[q] {
                    let rows = &new[q * per..new.len().min((q + 1) * per)];
                    let val = self.packed(rows);
                    let probe = (q * per) as u32 + self.rng.gen_range(0..rows.len() as u32);
                    writes.push((self.write(table, q as u32, val, probe), probe));
                }
            }
        } else {
            for (i, (&o, &n)) in old.iter().zip(new).enumerate() {
                if o != n {
                    writes.push((self.write(table, i as u32, n, i as u32), i as u32));
                }
            }
        }
        writes.shuffle(&mut self.rng);
        writes
    }

    /// A fresh table for `table`: a permutation (RAP, 3P) or uniform values (RAS).
    fn table(&mut self) -> Vec<u32> {
        let w = self.design.w();
        match self.design.kind() {
            LayoutKind::Ras => (0..w).map(|_| self.rng.gen_range(0..w)).collect(),
            _ => Permutation::random(w, &mut self.rng).as_slice().to_vec(),
        }
    }
}

fn encode(design: &RapDesign, map: &ConverterMap, index: &[u32], write: Option<&Step>) -> Vector {
    let m = design.index_bits() as usize;
    let mut inputs: Vec<Bits> = index
        .iter()
        .map(|&x| Bits::from_u64(u64::from(x), m))
        .collect();
    if let Some(s) = write {
        inputs.push(Bits::from_u64(u64::from(s.we), 1));
        if design.table_select_bits() > 0 {
            inputs.push(Bits::from_u64(
                u64::from(s.sel),
                design.table_select_bits() as usize,
            ));
        }
        inputs.push(Bits::from_u64(
            u64::from(s.idx),
            design.write_index_bits() as usize,
        ));
        inputs.push(Bits::from_u64(
            u64::from(s.val),
            design.write_value_bits() as usize,
        ));
    }
    let (address, bank) = map.convert(index);
    Vector {
        inputs,
        expected: vec![
            Bits::from_u64(address, design.addr_bits() as usize),
            Bits::from_u64(u64::from(bank), m),
        ],
    }
}

/// The vectors for `design` under `plan`, and how they were chosen, in words.
pub fn vectors(design: &RapDesign, plan: &VectorPlan) -> (Vec<Vector>, String) {
    if design.loadable {
        loadable_vectors(design, plan)
    } else {
        baked_vectors(design, plan)
    }
}

fn baked_vectors(design: &RapDesign, plan: &VectorPlan) -> (Vec<Vector>, String) {
    let w = design.w();
    let coords = design.index_ports().len();
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let space = u64::from(w).pow(coords as u32);
    let (elements, coverage): (Vec<Vec<u32>>, String) = if space <= plan.vectors as u64 {
        let all = (0..space)
            .map(|mut e| {
                let mut index = vec![0; coords];
                for x in index.iter_mut().rev() {
                    *x = (e % u64::from(w)) as u32;
                    e /= u64::from(w);
                }
                index
            })
            .collect();
        (all, format!("exhaustive: all {space} elements"))
    } else {
        let mut e = Vec::new();
        for axis in 0..coords - 1 {
            for r in 0..w {
                for col in [0, w - 1] {
                    let mut index: Vec<u32> = (0..coords).map(|_| rng.gen_range(0..w)).collect();
                    index[axis] = r;
                    index[coords - 1] = col;
                    e.push(index);
                }
            }
        }
        while e.len() < plan.vectors {
            e.push((0..coords).map(|_| rng.gen_range(0..w)).collect());
        }
        let n = e.len();
        (
            e,
            format!("every table entry at columns 0 and w-1, then random elements: {n} in all"),
        )
    };
    let vectors = elements
        .iter()
        .map(|index| encode(design, design.map(), index, None))
        .collect();
    (vectors, coverage)
}

fn loadable_vectors(design: &RapDesign, plan: &VectorPlan) -> (Vec<Vector>, String) {
    let w = design.w();
    let tables = design.table_names().len();
    let mut stim = Stimulus {
        design,
        rng: ChaCha8Rng::seed_from_u64(plan.seed),
    };
    let mut steps: Vec<Step> = Vec::new();
    let read_all = |stim: &mut Stimulus, steps: &mut Vec<Step>| {
        for t in 0..tables {
            for r in 0..w {
                steps.push(stim.read(Some((t, r))));
            }
        }
    };
    read_all(&mut stim, &mut steps);
    // New tables, every write interleaved in random order.
    let loaded: Vec<Vec<u32>> = (0..tables).map(|_| stim.table()).collect();
    let mut writes: Vec<Step> = Vec::new();
    // Every entry differs from u32::MAX, so every entry (or word) is written.
    let unset = vec![u32::MAX; w as usize];
    for (t, table) in loaded.iter().enumerate() {
        writes.extend(stim.rewrite(t, &unset, table).into_iter().map(|(s, _)| s));
    }
    writes.shuffle(&mut stim.rng);
    steps.extend(writes);
    read_all(&mut stim, &mut steps);
    // Rewrites: RAP swaps two entries of a table, RAS sets one; every write is read back the
    // cycle it is written (old value) and the cycle after (new value).
    let mut current = loaded.clone();
    for _ in 0..(w / 4).clamp(2, 64) {
        let t = stim.rng.gen_range(0..tables);
        let mut next = current[t].clone();
        let i = stim.rng.gen_range(0..w) as usize;
        match design.kind() {
            LayoutKind::Ras => next[i] = stim.rng.gen_range(0..w),
            _ => next.swap(i, stim.rng.gen_range(0..w) as usize),
        }
        for (step, probe) in stim.rewrite(t, &current[t], &next) {
            steps.push(step);
            steps.push(stim.read(Some((t, probe))));
        }
        current[t] = next;
    }
    // Writes that must change nothing.
    let mut idle = Vec::new();
    let idx_space = 1u32 << design.write_index_bits();
    if design.write_rows() < idx_space {
        let idx = stim.rng.gen_range(design.write_rows()..idx_space);
        let val = stim.value();
        idle.push(stim.write(0, idx, val, w - 1));
    }
    if design.table_select_bits() > 0 {
        let val = stim.value();
        let mut s = stim.write(0, 0, val, 0);
        s.sel = 3;
        idle.push(s);
    }
    let with_idle = !idle.is_empty();
    for s in idle {
        let probe = s.index.clone();
        steps.push(s);
        let mut after = stim.read(None);
        after.index = probe;
        steps.push(after);
    }
    let fixed = steps.len();
    while steps.len() < plan.vectors {
        steps.push(stim.read(None));
    }

    let mut map = design.map().clone();
    let vectors = steps
        .iter()
        .map(|s| {
            let v = encode(design, &map, &s.index, Some(s));
            for (table, row, value) in effect(design, s) {
                map = map.with_entry(table, row, value);
            }
            v
        })
        .collect::<Vec<_>>();
    let coverage = format!(
        "{} cycles: every entry after reset, new tables loaded in random order{} under random reads, \
         every entry again, rewrites read back{}; then {} random reads",
        vectors.len(),
        if design.packed() { " (packed words)" } else { "" },
        if with_idle {
            ", writes that must change nothing"
        } else {
            ""
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
        assert!(coverage.contains("change nothing"), "{coverage}");
        assert_eq!(
            crate::block::Block::timing(&d),
            testbenches::Timing::Clocked
        );
        // The first rows read the reset table.
        let reset = d.map();
        for (r, vec) in v.iter().take(6).enumerate() {
            let col = vec.inputs[1].field(0, 3) as u32;
            assert_eq!(
                vec.expected[1].field(0, 3) as u32,
                reset.convert(&[r as u32, col]).1
            );
        }
    }
}
