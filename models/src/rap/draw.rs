//! Bounded random draws in bulk for the simulator's matrix path: independent uniform values
//! below `n` and uniformly random permutations, exact (no modulo bias) and frugal with random
//! bits, since drawing dominated the simulator once the counting was cheap.
//!
//! A range that is a power of two `2^k` takes the low `k` bits of a byte, a 16-bit or a 32-bit
//! piece of a 64-bit output per value (eight shifts of `w = 16` from one output, four random
//! elements of a `256 x 256` matrix). Any other range takes 16 bits per value by Lemire's multiply-and-reject
//! method with the exact rejection threshold (four values per output, a retry with probability
//! below `n / 2^16`); ranges above `2^16` take 32.

use super::rng::TrialRng;
use super::sampler::below;
use rand::RngCore;

/// 16-bit pieces of 64-bit outputs, low piece first.
struct Pieces16 {
    word: u64,
    left: u32,
}

impl Pieces16 {
    fn new() -> Self {
        Self { word: 0, left: 0 }
    }

    #[inline(always)]
    fn next(&mut self, rng: &mut TrialRng) -> u32 {
        if self.left == 0 {
            self.word = rng.next_u64();
            self.left = 4;
        }
        let v = self.word as u16;
        self.word >>= 16;
        self.left -= 1;
        u32::from(v)
    }

    /// A uniform value in `0..n` (`1 <= n <= 2^16`): Lemire's method on 16-bit pieces.
    #[inline(always)]
    fn below(&mut self, rng: &mut TrialRng, n: u32) -> u32 {
        debug_assert!((1..=1 << 16).contains(&n));
        let mut m = self.next(rng) * n;
        if m & 0xffff < n {
            let threshold = (1 << 16) % n;
            while m & 0xffff < threshold {
                m = self.next(rng) * n;
            }
        }
        m >> 16
    }
}

/// One uniform value in `0..n` (`n >= 1`).
#[inline]
pub(crate) fn one_below(rng: &mut TrialRng, n: u32) -> u32 {
    if n.is_power_of_two() {
        (rng.next_u64() & u64::from(n - 1)) as u32
    } else {
        below(rng, n)
    }
}

/// Fills `out` with independent uniform values in `0..n` (`n >= 1`). Inlined into its caller,
/// so that the matrix path's AVX2 copy gets an AVX2 copy of it.
#[inline(always)]
pub(crate) fn fill_below(rng: &mut TrialRng, n: u32, out: &mut [u32]) {
    if n.is_power_of_two() {
        // The low k bits of each byte, 16-bit or 32-bit piece: whole pieces keep the loop free
        // of variable shifts, at the price of unused bits when k is below the piece's width.
        let mask = n - 1;
        match n.trailing_zeros() {
            0 => out.fill(0),
            1..=8 => fill_pieces::<8>(rng, mask, out),
            9..=16 => fill_pieces::<4>(rng, mask, out),
            _ => fill_pieces::<2>(rng, mask, out),
        }
    } else if n <= 1 << 16 {
        let mut pieces = Pieces16::new();
        for v in out {
            *v = pieces.below(rng, n);
        }
    } else {
        for v in out {
            *v = below(rng, n);
        }
    }
}

/// Fills `out` with `PER` pieces of `64 / PER` bits of each 64-bit output, masked with `mask`.
#[inline(always)]
fn fill_pieces<const PER: usize>(rng: &mut TrialRng, mask: u32, out: &mut [u32]) {
    let bits = 64 / PER;
    let mut chunks = out.chunks_exact_mut(PER);
    for chunk in &mut chunks {
        let x = rng.next_u64();
        for (i, v) in chunk.iter_mut().enumerate() {
            *v = (x >> (bits * i)) as u32 & mask;
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let x = rng.next_u64();
        for (i, v) in rest.iter_mut().enumerate() {
            *v = (x >> (bits * i)) as u32 & mask;
        }
    }
}

/// The offset of a pick whose piece was rejected.
const REDRAW: u16 = u16::MAX;

/// Uniformly random permutations of `0..n` (`1 <= n < 2^16`) by Fisher-Yates "inside-out" (Knuth,
/// TAOCP vol. 2, 3.4.2, as Durstenfeld's shuffle built up from empty): step `i` draws a uniform
/// pick `j` in `0..=i`, moves entry `j` to place `i` and puts `i` at place `j`, so that the
/// first `i + 1` entries are a uniformly random permutation of `0..=i`. It needs no starting
/// array and costs one load and two stores a step. The picks are drawn in bulk: one 16-bit
/// piece each, multiplied by its range (Lemire's method) in one pass the compiler vectorises;
/// the rare rejected ones (probability below `(i + 1) / 2^16` each) are drawn again afterwards,
/// in order, from the pieces that follow.
#[derive(Debug, Clone)]
pub(crate) struct Shuffler {
    /// `i + 1`, the range of step `i`'s pick, and `2^16 mod (i + 1)`, its rejection threshold.
    ranges: Vec<u16>,
    thresholds: Vec<u16>,
    /// The random outputs of one shuffle, cut into a 16-bit piece for each pick, and the picks.
    words: Vec<u64>,
    pieces: Vec<u16>,
    picks: Vec<u16>,
}

impl Shuffler {
    /// A shuffler of `n` entries.
    pub(crate) fn new(n: u32) -> Self {
        debug_assert!((1..1 << 16).contains(&n));
        let ranges: Vec<u16> = (1..=n).map(|r| r as u16).collect();
        let thresholds = ranges
            .iter()
            .map(|&r| ((1u32 << 16) % u32::from(r)) as u16)
            .collect();
        Self {
            ranges,
            thresholds,
            words: vec![0; (n as usize).div_ceil(4)],
            pieces: vec![0; (n as usize).div_ceil(4) * 4],
            picks: vec![0; n as usize],
        }
    }

    /// Fills the first `n` entries of `perm` (whose length is a power of two, at least `n`)
    /// with a uniformly random permutation of `0..n`.
    #[inline(always)]
    pub(crate) fn shuffle(&mut self, rng: &mut TrialRng, perm: &mut [u32]) {
        let n = self.picks.len();
        for word in &mut self.words {
            *word = rng.next_u64();
        }
        for (pieces, &word) in self.pieces.chunks_exact_mut(4).zip(&self.words) {
            for (i, piece) in pieces.iter_mut().enumerate() {
                *piece = (word >> (16 * i)) as u16;
            }
        }
        // A rejected piece leaves the pick REDRAW (picks are below 2^16 - 1), drawn again in a
        // second pass, from the pieces that follow, when there is one.
        let (picks, pieces) = (&mut self.picks[..n], &self.pieces[..n]);
        let (ranges, thresholds) = (&self.ranges[..n], &self.thresholds[..n]);
        let mut rejected = false;
        for i in 0..n {
            let m = u32::from(pieces[i]) * u32::from(ranges[i]);
            let reject = (m as u16) < thresholds[i];
            picks[i] = if reject { REDRAW } else { (m >> 16) as u16 };
            rejected |= reject;
        }
        if rejected {
            let mut more = Pieces16::new();
            for (pick, &range) in picks.iter_mut().zip(ranges) {
                if *pick == REDRAW {
                    *pick = more.below(rng, u32::from(range)) as u16;
                }
            }
        }
        debug_assert!(perm.len().is_power_of_two() && perm.len() >= n);
        // Every index is below n: the mask changes none, and spares the bounds checks.
        let mask = perm.len() - 1;
        let perm = &mut perm[..=mask];
        for (i, &pick) in picks.iter().enumerate() {
            let j = usize::from(pick) & mask;
            perm[i & mask] = perm[j];
            perm[j] = i as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pearson's chi-square statistic of `counts` against equal expected counts.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    fn values_below_n_are_in_range_and_uniform() {
        for n in [
            1u32,
            2,
            3,
            5,
            16,
            17,
            32,
            100,
            256,
            4096,
            65535,
            65536,
            65537,
            1 << 24,
        ] {
            let mut rng = TrialRng::new(1, u64::from(n));
            let mut out = vec![0u32; 3001];
            let mut counts = vec![0u64; n.min(64) as usize];
            for _ in 0..20 {
                fill_below(&mut rng, n, &mut out);
                for &v in &out {
                    assert!(v < n, "{v} >= {n}");
                    if n <= 64 {
                        counts[v as usize] += 1;
                    }
                }
            }
            if (2..=64).contains(&n) {
                // 60 020 draws; the 0.1% point of chi-square with 63 degrees of freedom is
                // about 104.
                assert!(chi_square(&counts) < 110.0, "n = {n}: {counts:?}");
            }
            assert!(one_below(&mut rng, n) < n);
        }
    }

    #[test]
    fn shuffles_are_uniform_permutations() {
        // All 24 permutations of 4 elements, about equally often.
        let mut counts = std::collections::HashMap::new();
        let mut rng = TrialRng::new(2, 0);
        let mut shuffler = Shuffler::new(4);
        for _ in 0..48_000 {
            let mut p = vec![0; 4];
            shuffler.shuffle(&mut rng, &mut p);
            *counts.entry(p).or_insert(0u64) += 1;
        }
        assert_eq!(counts.len(), 24);
        let counts: Vec<u64> = counts.into_values().collect();
        // 23 degrees of freedom: the 0.1% point is about 49.7.
        assert!(chi_square(&counts) < 50.0, "{counts:?}");
        // A long one is a permutation, and position 0 takes every value.
        let mut first = vec![0u64; 200];
        let mut shuffler = Shuffler::new(200);
        for _ in 0..5000 {
            let mut p = vec![0; 256];
            shuffler.shuffle(&mut rng, &mut p);
            p.truncate(200);
            first[p[0] as usize] += 1;
            p.sort_unstable();
            assert!(p.iter().enumerate().all(|(i, &v)| v as usize == i));
        }
        assert!(chi_square(&first) < 280.0, "{first:?}");
    }

    #[test]
    fn rejected_picks_are_drawn_again() {
        // Step 0 of 40 000 entries rejects 39% of its pieces (2^16 mod 40 000 = 25 536).
        let n = 40_000;
        let mut shuffler = Shuffler::new(n);
        let mut rng = TrialRng::new(3, 0);
        for _ in 0..20 {
            let mut p = vec![0; n.next_power_of_two() as usize];
            shuffler.shuffle(&mut rng, &mut p);
            p.truncate(n as usize);
            p.sort_unstable();
            assert!(p.iter().enumerate().all(|(i, &v)| v as usize == i));
        }
    }
}
