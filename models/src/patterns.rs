//! The access-pattern classes of the XOR paper's section 3.1 as warp-access generators.
//!
//! Thread `t` of a warp (0-based) issues one word address; every class below is a special case
//! of the paper's linearised notation `s = S1*ty + S2*tx + o` with `tx = t mod width`,
//! `ty = t / width` (Eqs. 4-8). Addresses wrap to the `n`-bit address space.

use crate::geometry::low_mask;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One of the paper's four access-pattern classes, with its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessPattern {
    /// Consecutive words: `s = offset + t` (Eq. 5).
    Linear {
        /// Address of thread 0.
        offset: u64,
    },
    /// A constant stride: `s = offset + stride * t` (Eq. 6).
    Stride {
        /// Address of thread 0.
        offset: u64,
        /// Distance between consecutive threads.
        stride: u64,
    },
    /// A 2-D thread block: `s = offset + stride_y * ty + stride_x * tx`, `width` threads per row
    /// (Eq. 7 with blockDim.x = `width`).
    Block {
        /// Address of thread 0.
        offset: u64,
        /// Threads per row (blockDim.x), at least 1.
        width: u64,
        /// Distance between threads of consecutive `tx`.
        stride_x: u64,
        /// Distance between threads of consecutive `ty`.
        stride_y: u64,
    },
    /// Independent uniformly random addresses from a seeded generator (Eq. 8).
    Random {
        /// Seed of the ChaCha8 generator; the same seed gives the same access.
        seed: u64,
    },
}

impl AccessPattern {
    /// The word addresses of a warp of `threads` threads in an `addr_bits`-bit space.
    pub fn addresses(&self, threads: usize, addr_bits: u32) -> Vec<u64> {
        let mask = low_mask(addr_bits);
        let t = 0..threads as u64;
        let raw: Vec<u64> = match *self {
            AccessPattern::Linear { offset } => t.map(|t| offset.wrapping_add(t)).collect(),
            AccessPattern::Stride { offset, stride } => t
                .map(|t| offset.wrapping_add(stride.wrapping_mul(t)))
                .collect(),
            AccessPattern::Block {
                offset,
                width,
                stride_x,
                stride_y,
            } => {
                let width = width.max(1);
                t.map(|t| {
                    offset
                        .wrapping_add(stride_y.wrapping_mul(t / width))
                        .wrapping_add(stride_x.wrapping_mul(t % width))
                })
                .collect()
            }
            AccessPattern::Random { seed } => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                t.map(|_| rng.gen::<u64>()).collect()
            }
        };
        raw.into_iter().map(|a| a & mask).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_generate_the_papers_examples() {
        let linear = AccessPattern::Linear { offset: 3 }.addresses(4, 14);
        assert_eq!(linear, vec![3, 4, 5, 6]);
        let stride = AccessPattern::Stride {
            offset: 0,
            stride: 2,
        }
        .addresses(4, 14);
        assert_eq!(stride, vec![0, 2, 4, 6]);
        // Section 3.2.1: transpose loading, TILE_DIM = 16: 0..15, 16..31.
        let block = AccessPattern::Block {
            offset: 0,
            width: 16,
            stride_x: 1,
            stride_y: 16,
        }
        .addresses(32, 14);
        assert_eq!(block, (0..32).collect::<Vec<u64>>());
        // Eq. 10: the Fast Walsh transform, s = 32*ty + tx, tx < 8.
        let fwt = AccessPattern::Block {
            offset: 0,
            width: 8,
            stride_x: 1,
            stride_y: 32,
        }
        .addresses(32, 14);
        assert_eq!(&fwt[6..10], &[6, 7, 32, 33]);
    }

    #[test]
    fn addresses_wrap_and_random_is_reproducible() {
        let s = AccessPattern::Stride {
            offset: 14,
            stride: 1,
        }
        .addresses(3, 4);
        assert_eq!(s, vec![14, 15, 0]);
        let a = AccessPattern::Random { seed: 9 }.addresses(32, 10);
        assert_eq!(a, AccessPattern::Random { seed: 9 }.addresses(32, 10));
        assert!(a.iter().all(|&x| x < 1024));
        assert_ne!(a, AccessPattern::Random { seed: 10 }.addresses(32, 10));
    }
}
