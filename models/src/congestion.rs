//! The DMM congestion of one warp access (the RAP paper's definition).
//!
//! Requests to the same address merge (one word is read once and broadcast), so the congestion
//! is the largest number of *distinct* addresses that fall into one bank. A conflict-free access
//! has congestion 1; `c` means the access takes `c` bank cycles (`c - 1` replays).

use std::collections::HashMap;

/// Congestion of one warp access: the largest number of distinct addresses mapped to one bank by
/// `bank_of`. An empty access has congestion 0.
pub fn congestion(addresses: &[u64], bank_of: impl Fn(u64) -> u64) -> u32 {
    let mut distinct: Vec<u64> = addresses.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut per_bank: HashMap<u64, u32> = HashMap::new();
    distinct
        .into_iter()
        .map(|a| {
            let load = per_bank.entry(bank_of(a)).or_insert(0);
            *load += 1;
            *load
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_addresses_merge() {
        assert_eq!(congestion(&[5, 5, 5, 5], |a| a % 4), 1);
        assert_eq!(congestion(&[], |a| a % 4), 0);
    }

    /// The XOR paper's section 3.2.2: transpose storing with TILE_DIM = 16 and 32 banks reads
    /// 0, 16, ..., 240, 1, 17, ..., 241: an 8-way bank conflict.
    #[test]
    fn transpose_store_tile_16_is_eight_way() {
        let addrs: Vec<u64> = (0..32u64).map(|t| (t % 16) * 16 + t / 16).collect();
        assert_eq!(congestion(&addrs, |a| a % 32), 8);
    }

    /// Section 3.2.4: the Fast Walsh transform with stride 8 gives a 4-way bank conflict.
    #[test]
    fn fast_walsh_stride_8_is_four_way() {
        let addrs: Vec<u64> = (0..32u64)
            .map(|pos| ((pos - pos % 8) << 2) + pos % 8)
            .collect();
        assert_eq!(&addrs[..10], &[0, 1, 2, 3, 4, 5, 6, 7, 32, 33]);
        assert_eq!(congestion(&addrs, |a| a % 32), 4);
    }
}
