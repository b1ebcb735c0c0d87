//! The access-pattern classes of the XOR paper's section 3.1, recognised in a warp access.
//!
//! Thread `t`'s address is compared with the paper's linearised forms: `s = o + t` (linear),
//! `s = o + S*t` (stride), `s = o + S2*ty + S1*tx` with `tx = t mod w`, `ty = t / w` (block);
//! anything else is random. Strides may be negative (a warp walking down, as in
//! Needleman-Wunsch's anti-diagonals) or zero (a broadcast).

use crate::search::trace::Access;
use std::fmt;

/// The class of one warp access, with the parameters that define it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessClass {
    /// Consecutive addresses (Eq. 5); also a single active thread.
    Linear,
    /// A constant distance `stride` between consecutive threads (Eq. 6), not 1.
    Stride {
        /// Distance between consecutive threads.
        stride: i64,
    },
    /// A 2-D block (Eq. 7): `width` threads per row `stride_x` apart, rows `stride_y` apart.
    Block {
        /// Threads per row (the first `t` where the distance changes).
        width: usize,
        /// Distance between threads of consecutive `tx`.
        stride_x: i64,
        /// Distance between rows (consecutive `ty`).
        stride_y: i64,
    },
    /// None of the above (Eq. 8).
    Random,
}

impl fmt::Display for AccessClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessClass::Linear => f.write_str("linear"),
            AccessClass::Stride { stride } => write!(f, "stride {stride}"),
            AccessClass::Block {
                width,
                stride_x,
                stride_y,
            } => write!(f, "block {width} x {stride_x}, {stride_y}"),
            AccessClass::Random => f.write_str("random"),
        }
    }
}

/// One stride of an access with the number of threads it spans: what the bit-vector search's
/// pruning (section 5.1) needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrideSpan {
    /// The stride `S = S0 * 2^k`, non-zero.
    pub stride: i64,
    /// Threads along the stride (`t` in `MSB = floor(log2((t - 1) * S))`).
    pub threads: usize,
}

impl StrideSpan {
    /// `k`: the power of two in the stride.
    pub fn k(self) -> u32 {
        self.stride.unsigned_abs().trailing_zeros()
    }

    /// `MSB = floor(log2((t - 1) * |S|))`, the highest address bit the stride reaches; `None`
    /// for a single thread.
    pub fn msb(self) -> Option<u32> {
        let reach = (self.threads as u64 - 1).checked_mul(self.stride.unsigned_abs())?;
        (reach > 0).then(|| 63 - reach.leading_zeros())
    }
}

impl AccessClass {
    /// The strides of the class with their thread counts (none for random accesses and
    /// broadcasts), for an access of `threads` threads.
    pub fn strides(self, threads: usize) -> Vec<StrideSpan> {
        let span = |stride: i64, threads: usize| StrideSpan { stride, threads };
        match self {
            AccessClass::Linear if threads > 1 => vec![span(1, threads)],
            AccessClass::Linear | AccessClass::Random => vec![],
            AccessClass::Stride { stride } if stride != 0 => vec![span(stride, threads)],
            AccessClass::Stride { .. } => vec![],
            AccessClass::Block {
                width,
                stride_x,
                stride_y,
            } => [(stride_x, width), (stride_y, threads.div_ceil(width))]
                .into_iter()
                .filter(|&(s, _)| s != 0)
                .map(|(s, t)| span(s, t))
                .collect(),
        }
    }
}

/// Classifies one access from its addresses in thread order.
pub fn classify(access: &Access) -> AccessClass {
    let a: Vec<i64> = access.addresses.iter().map(|&x| x as i64).collect();
    if a.len() < 2 {
        return AccessClass::Linear;
    }
    let stride_x = a[1].wrapping_sub(a[0]);
    let Some(width) = (1..a.len()).find(|&i| a[i].wrapping_sub(a[i - 1]) != stride_x) else {
        return match stride_x {
            1 => AccessClass::Linear,
            stride => AccessClass::Stride { stride },
        };
    };
    let stride_y = a[width].wrapping_sub(a[0]);
    let fits = a.iter().enumerate().all(|(t, &s)| {
        let (ty, tx) = ((t / width) as i64, (t % width) as i64);
        s == a[0]
            .wrapping_add(stride_y.wrapping_mul(ty))
            .wrapping_add(stride_x.wrapping_mul(tx))
    });
    if fits {
        AccessClass::Block {
            width,
            stride_x,
            stride_y,
        }
    } else {
        AccessClass::Random
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(addresses: Vec<u64>) -> AccessClass {
        classify(&Access {
            label: "x".into(),
            addresses,
        })
    }

    /// The paper's section 3.2 examples.
    #[test]
    fn classifies_the_papers_examples() {
        assert_eq!(class((0..32).collect()), AccessClass::Linear);
        // Reduction, S = 2: stride 2*S = 4.
        assert_eq!(
            class((0..32).map(|t| 4 * t).collect()),
            AccessClass::Stride { stride: 4 }
        );
        // Transpose store, TILE_DIM = 16: 0, 16, ..., 240, 1, 17, ...
        assert_eq!(
            class((0..32).map(|t| (t % 16) * 16 + t / 16).collect()),
            AccessClass::Block {
                width: 16,
                stride_x: 16,
                stride_y: 1
            }
        );
        // Fast Walsh transform, stride 8: s = 32*ty + tx, tx < 8 (Eq. 10).
        assert_eq!(
            class((0..32).map(|t| 32 * (t / 8) + t % 8).collect()),
            AccessClass::Block {
                width: 8,
                stride_x: 1,
                stride_y: 32
            }
        );
        assert_eq!(class(vec![3, 9, 4, 4]), AccessClass::Random);
        assert_eq!(class(vec![7]), AccessClass::Linear);
        assert_eq!(class(vec![7, 7, 7]), AccessClass::Stride { stride: 0 });
        assert_eq!(
            class(vec![48, 32, 16, 0]),
            AccessClass::Stride { stride: -16 }
        );
    }

    /// Section 5.1's example: strides 4 and 6 over 32 threads have k = 2 and 1 and MSBs
    /// floor(log2(124)) = 6 and floor(log2(186)) = 7.
    #[test]
    fn stride_spans_give_k_and_msb() {
        let s4 = AccessClass::Stride { stride: 4 }.strides(32)[0];
        let s6 = AccessClass::Stride { stride: 6 }.strides(32)[0];
        assert_eq!((s4.k(), s4.msb()), (2, Some(6)));
        assert_eq!((s6.k(), s6.msb()), (1, Some(7)));
        let block = AccessClass::Block {
            width: 8,
            stride_x: 1,
            stride_y: 32,
        };
        let spans = block.strides(32);
        assert_eq!(spans.len(), 2);
        assert_eq!((spans[1].k(), spans[1].msb()), (5, Some(6)));
        assert!(AccessClass::Random.strides(32).is_empty());
        assert!(AccessClass::Stride { stride: 0 }.strides(32).is_empty());
    }
}
