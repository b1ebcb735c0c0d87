//! Lazily drawn random tables: a scheme's permutations and uniform values, drawn entry by entry
//! as a trial first needs them.
//!
//! Drawing on demand has the same distribution as drawing every table up front (a permutation's
//! next entry is uniform over the values not yet taken), but a trial that touches `w` rows pays
//! for `w` entries, not for the `w^3` a w²P layout of a `w^4` array holds. Every entry carries
//! the number of the trial (the *epoch*) that wrote it, so nothing is cleared between trials and
//! a trial's draws depend only on its own generator: results do not depend on which thread ran
//! which trials before.

use super::scheme::{Form, Term};
use rand::RngCore;

/// A uniform integer in `0..n` (`n >= 1`) by Lemire's multiply-and-reject method with the exact
/// rejection threshold: unbiased, one 32-bit draw almost always (a retry has probability
/// `(2^32 mod n) / 2^32`), no division unless the low product falls below `n`. `rand` 0.8's
/// `gen_range` uses a conservative threshold that rejects up to half the draws for ranges at or
/// just above a power of two (every `w` of Table II), which made it the simulator's hot spot.
#[inline]
pub fn below(rng: &mut impl RngCore, n: u32) -> u32 {
    debug_assert!(n >= 1);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Permutations of `0..w` drawn entry by entry (a partial Fisher-Yates shuffle per permutation
/// whose pool reads as the identity until written in the current epoch).
#[derive(Debug, Clone)]
struct LazyPerms {
    w: u32,
    /// `(epoch, value)` of every entry of every permutation.
    entry: Vec<(u32, u32)>,
    /// `(epoch, value)` of every pool slot; a slot not written this epoch holds its own index.
    pool: Vec<(u32, u32)>,
    /// `(epoch, entries drawn)` of every permutation.
    drawn: Vec<(u32, u32)>,
}

impl LazyPerms {
    fn new(w: u32, groups: u32) -> Self {
        let n = groups as usize * w as usize;
        Self {
            w,
            entry: vec![(0, 0); n],
            pool: vec![(0, 0); n],
            drawn: vec![(0, 0); groups as usize],
        }
    }

    fn clear(&mut self) {
        self.entry.fill((0, 0));
        self.pool.fill((0, 0));
        self.drawn.fill((0, 0));
    }

    #[inline]
    fn get(&mut self, rng: &mut impl RngCore, epoch: u32, group: u32, index: u32) -> u32 {
        let w = self.w as usize;
        let e = group as usize * w + index as usize;
        if self.entry[e].0 == epoch {
            return self.entry[e].1;
        }
        let g = group as usize;
        let d = if self.drawn[g].0 == epoch {
            self.drawn[g].1
        } else {
            0
        };
        let pick = d + below(rng, self.w - d);
        let base = g * w;
        let read = |pool: &[(u32, u32)], slot: u32| {
            let (stamp, value) = pool[base + slot as usize];
            if stamp == epoch {
                value
            } else {
                slot
            }
        };
        let chosen = read(&self.pool, pick);
        let displaced = read(&self.pool, d);
        self.pool[base + pick as usize] = (epoch, displaced);
        self.pool[base + d as usize] = (epoch, chosen);
        self.drawn[g] = (epoch, d + 1);
        self.entry[e] = (epoch, chosen);
        chosen
    }
}

/// Independent uniform values in `0..w`, drawn on first use.
#[derive(Debug, Clone)]
struct LazyUniform {
    w: u32,
    entry: Vec<(u32, u32)>,
}

impl LazyUniform {
    #[inline]
    fn get(&mut self, rng: &mut impl RngCore, epoch: u32, key: u32) -> u32 {
        let slot = &mut self.entry[key as usize];
        if slot.0 != epoch {
            *slot = (epoch, below(rng, self.w));
        }
        slot.1
    }
}

/// The random tables of one scheme for one trial at a time.
#[derive(Debug, Clone)]
pub(crate) struct Sampler {
    w: u32,
    epoch: u32,
    perms: LazyPerms,
    uniform: LazyUniform,
}

impl Sampler {
    /// Tables for `permutations` permutations of `0..w` and `uniform` uniform values.
    pub(crate) fn new(w: u32, permutations: u32, uniform: u32) -> Self {
        Self {
            w,
            epoch: 0,
            perms: LazyPerms::new(w, permutations),
            uniform: LazyUniform {
                w,
                entry: vec![(0, 0); uniform as usize],
            },
        }
    }

    /// Forgets every drawn value: the next trial draws afresh.
    pub(crate) fn next_trial(&mut self) {
        if self.epoch == u32::MAX {
            self.perms.clear();
            self.uniform.entry.fill((0, 0));
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// The shift of a row of form `form`, `sum of its terms mod w`, drawing what is missing.
    #[inline(always)]
    pub(crate) fn shift(&mut self, rng: &mut impl RngCore, form: &Form) -> u32 {
        let mut s = 0;
        for term in form.terms() {
            let v = match *term {
                Term::Perm { group, index } => self.perms.get(rng, self.epoch, group, index),
                Term::Uniform { key } => self.uniform.get(rng, self.epoch, key),
            };
            s += v;
            if s >= self.w {
                s -= self.w;
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn lazy_permutations_are_permutations_every_trial() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut perms = LazyPerms::new(7, 2);
        for epoch in 1..200 {
            let mut order: Vec<u32> = (0..7).collect();
            // Ask in a scrambled order, some entries twice.
            order.rotate_left(epoch as usize % 7);
            let mut got = vec![u32::MAX; 7];
            for &i in order.iter().chain(&order[..3]) {
                let v = perms.get(&mut rng, epoch, 1, i);
                assert!(got[i as usize] == u32::MAX || got[i as usize] == v);
                got[i as usize] = v;
            }
            let mut sorted = got.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..7).collect::<Vec<_>>(), "epoch {epoch}: {got:?}");
        }
    }

    #[test]
    fn below_is_uniform_and_in_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for n in [1u32, 2, 3, 7, 32, 129, 256, u32::MAX] {
            for _ in 0..1000 {
                assert!(below(&mut rng, n) < n);
            }
        }
        let mut hits = [0u32; 3];
        for _ in 0..30_000 {
            hits[below(&mut rng, 3) as usize] += 1;
        }
        assert!(
            hits.iter().all(|&h| (9_500..10_500).contains(&h)),
            "{hits:?}"
        );
    }

    #[test]
    fn first_entries_are_uniform() {
        // r_3 of a fresh permutation of 0..4 over 40 000 trials: each value near 1/4.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut s = Sampler::new(4, 1, 0);
        let mut hits = [0u32; 4];
        let form = super::super::scheme::Scheme::Rap
            .form(super::super::scheme::Shape::new(2, 4).unwrap(), [0, 0, 3]);
        for _ in 0..40_000 {
            s.next_trial();
            s.shift(&mut rng, &form);
            hits[s.shift(&mut rng, &form) as usize] += 1;
        }
        for h in hits {
            assert!((9_400..10_600).contains(&h), "{hits:?}");
        }
    }
}
