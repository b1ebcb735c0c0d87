//! The generator of one Monte Carlo trial: trial `t` of a run reads its own stretch of the run's
//! SplitMix64 sequence.
//!
//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
//! 2014; the generator of Java's `SplittableRandom`) outputs `mix(x_n)` for the Weyl sequence
//! `x_n = x_0 + n * gamma (mod 2^64)` and passes BigCrush. Its state is a counter, so any
//! position is one multiply away: trial `t` starts at position `t * 2^20` ([`TRIAL_STRIDE`]) of
//! the sequence of the run's seed. Trials therefore never share an output (a trial draws far
//! fewer than `2^20` 64-bit values, and a cell runs at most [`MAX_TRIALS`] trials), and a trial's
//! draws depend on nothing but the seed and the trial's index: not on the thread that runs it
//! nor on the trials before it. Starting a trial costs one multiply and no mixing, which matters
//! when a trial of `w = 16` draws only a handful of 64-bit values (the xoshiro256++ generator
//! this replaced spent four SplitMix64 outputs filling its state for every trial), and the
//! outputs of one trial are independent of each other, so the processor computes several at
//! once. Each seed has its own `x_0` and its own odd `gamma` (derived as `SplittableRandom`
//! derives a split generator's), so two seeds give two different sequences. Not cryptographic,
//! which a simulation does not need.

use rand::RngCore;

/// SplitMix64's output function: a bijective 64-bit mix (Stafford's variant 13).
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The golden-ratio increment of the reference SplitMix64.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// Output `n` (from 0) of the reference SplitMix64 (Vigna's `splitmix64.c`) seeded with `seed`:
/// any position of the stream in one multiply, which is what lets a CUDA program and the models
/// fill the same bytes without sharing a file (`crate::tma::silicon`).
pub fn splitmix64(seed: u64, n: u64) -> u64 {
    mix(seed.wrapping_add(n.wrapping_add(1).wrapping_mul(GOLDEN)))
}

/// Positions of the sequence each trial owns: `2^20` 64-bit outputs.
pub const TRIAL_STRIDE: u64 = 1 << 20;

/// The most trials of one cell: `2^44`, so that the trials' stretches of `2^20` positions tile
/// the `2^64` positions of the sequence without overlapping.
pub const MAX_TRIALS: u64 = 1 << 44;

/// The sequence of one seed: its start and its increment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunStreams {
    start: u64,
    gamma: u64,
}

impl RunStreams {
    /// The sequence of seed `seed`.
    pub fn new(seed: u64) -> Self {
        // SplittableRandom's mixGamma: an odd increment with enough bit transitions that the
        // Weyl sequence changes many bits from one position to the next.
        let mut gamma = mix(seed ^ 0x5851_f42d_4c95_7f2d) | 1;
        if (gamma ^ (gamma >> 1)).count_ones() < 24 {
            gamma ^= 0xaaaa_aaaa_aaaa_aaaa;
        }
        Self {
            start: mix(seed.wrapping_add(GOLDEN)),
            gamma,
        }
    }

    /// The generator of trial `trial` (below [`MAX_TRIALS`]).
    #[inline]
    pub fn trial(&self, trial: u64) -> TrialRng {
        debug_assert!(trial < MAX_TRIALS);
        TrialRng {
            x: self
                .start
                .wrapping_add(trial.wrapping_mul(TRIAL_STRIDE).wrapping_mul(self.gamma)),
            gamma: self.gamma,
            spare: None,
        }
    }
}

/// SplitMix64 positioned at the start of one trial's stretch.
#[derive(Debug, Clone)]
pub struct TrialRng {
    x: u64,
    gamma: u64,
    spare: Option<u32>,
}

impl TrialRng {
    /// The generator of trial `trial` of a run seeded with `seed` (see [`RunStreams`], which
    /// derives the seed's sequence once for many trials).
    pub fn new(seed: u64, trial: u64) -> Self {
        RunStreams::new(seed).trial(trial)
    }
}

impl RngCore for TrialRng {
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.x = self.x.wrapping_add(self.gamma);
        mix(self.x)
    }

    #[inline]
    fn next_u32(&mut self) -> u32 {
        match self.spare.take() {
            Some(v) => v,
            None => {
                let v = self.next_u64();
                self.spare = Some(v as u32);
                (v >> 32) as u32
            }
        }
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_output_of_splitmix64() {
        // The reference implementation (Vigna's splitmix64.c) seeded with 1234567.
        let mut r = TrialRng {
            x: 1_234_567,
            gamma: GOLDEN,
            spare: None,
        };
        let got: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        let direct: Vec<u64> = (0..3).map(|n| splitmix64(1_234_567, n)).collect();
        assert_eq!(got, direct);
        assert_eq!(
            got,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    #[test]
    fn a_trial_starts_where_its_stretch_of_the_sequence_starts() {
        let run = RunStreams::new(9);
        let mut first = run.trial(0);
        for _ in 0..TRIAL_STRIDE {
            first.next_u64();
        }
        // Trial 0's output 2^20 + 1 is trial 1's first.
        assert_eq!(first.next_u64(), run.trial(1).next_u64());
    }

    #[test]
    fn trials_and_seeds_get_different_streams() {
        let first = |seed, trial| TrialRng::new(seed, trial).next_u64();
        assert_eq!(first(1, 7), first(1, 7));
        let mut seen: Vec<u64> = (0..1000).map(|t| first(1, t)).collect();
        seen.extend((0..1000).map(|s| first(s + 2, 0)));
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 2000);
        assert_ne!(RunStreams::new(1).gamma, RunStreams::new(2).gamma);
        assert!((0..100).all(|s| RunStreams::new(s).gamma % 2 == 1));
        // Both halves of a 64-bit output are used, high half first.
        let mut r = TrialRng::new(3, 4);
        let v = TrialRng::new(3, 4).next_u64();
        assert_eq!((r.next_u32(), r.next_u32()), ((v >> 32) as u32, v as u32));
    }
}
