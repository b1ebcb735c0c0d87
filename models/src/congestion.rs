//! The DMM congestion of one warp access (the RAP paper's definition).
//!
//! Requests to the same address merge (one word is read once and broadcast), so the congestion
//! is the largest number of *distinct* addresses that fall into one bank. A conflict-free access
//! has congestion 1; `c` means the access takes `c` bank cycles (`c - 1` replays).

/// Congestion of one warp access: the largest number of distinct addresses mapped to one bank by
/// `bank_of`. An empty access has congestion 0.
pub fn congestion(addresses: &[u64], bank_of: impl Fn(u64) -> u64) -> u32 {
    congestion_in_place(addresses.to_vec(), bank_of)
}

/// [`congestion`] of addresses it may reorder and overwrite: the distinct addresses (sorted,
/// deduplicated) become their banks, sorted again, and the longest run of one bank is the
/// congestion. Two sorts of at most a warp's words and no map: the wavefront and wide-word
/// models call this once per thread group of every warp access.
fn congestion_in_place(mut words: Vec<u64>, bank_of: impl Fn(u64) -> u64) -> u32 {
    words.sort_unstable();
    words.dedup();
    for word in &mut words {
        *word = bank_of(*word);
    }
    words.sort_unstable();
    words
        .chunk_by(|a, b| a == b)
        .map(|run| run.len() as u32)
        .max()
        .unwrap_or(0)
}

/// How the shared memory serves a warp access of words wider than its 4-byte banks (8-byte
/// `double`s, say): each word covers `word_bytes / 4` consecutive 4-byte bank words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WideModel {
    /// The whole warp at once: the congestion is the largest number of distinct 4-byte words
    /// that fall into one bank (for 8-byte words at least 2 when 32 threads read distinct words).
    Warp,
    /// The warp in groups of `banks * 4 / word_bytes` threads (half-warps for 8-byte words), each
    /// group served on its own: the congestion is the sum of the groups' [`WideModel::Warp`]
    /// congestions.
    Groups,
    /// [`WideModel::Groups`], except that an access whose whole warp touches at most one 4-byte
    /// word per bank (a [`WideModel::Warp`] congestion of 1) takes one pass: the groups merge.
    /// An H100 serves 8-byte loads so, and 8-byte stores as [`WideModel::Groups`]
    /// (docs/GPU.md, 308 patterns each).
    LoadGroups,
}

impl WideModel {
    /// Both models, in the order the reports list them.
    pub const ALL: [WideModel; 3] = [WideModel::Warp, WideModel::Groups, WideModel::LoadGroups];

    /// `warp`, `groups` or `load-groups`.
    pub fn name(self) -> &'static str {
        match self {
            WideModel::Warp => "warp",
            WideModel::Groups => "groups",
            WideModel::LoadGroups => "load-groups",
        }
    }
}

/// Congestion of one warp access to words of `word_bytes` bytes (a multiple of 4) in `banks`
/// 4-byte banks; `indices` are the threads' word indices, thread 0 first. For 4-byte words both
/// models equal [`congestion`] with `bank = index mod banks`.
pub fn wide_congestion(indices: &[u64], word_bytes: u64, banks: u64, model: WideModel) -> u32 {
    let threads: Vec<Option<u64>> = indices.iter().copied().map(Some).collect();
    wide_congestion_of_threads(&threads, word_bytes, banks, model)
}

/// [`wide_congestion`] of a warp in which some threads are inactive (`None`): the groups of
/// [`WideModel::Groups`] are taken by thread position (threads `0..g`, `g..2g`, ... as a GPU's
/// half-warps are), and an inactive thread touches nothing. With every thread active this is
/// [`wide_congestion`].
pub fn wide_congestion_of_threads(
    threads: &[Option<u64>],
    word_bytes: u64,
    banks: u64,
    model: WideModel,
) -> u32 {
    assert!(
        word_bytes >= 4 && word_bytes.is_multiple_of(4),
        "word size {word_bytes} is not a multiple of 4 bytes"
    );
    let sub = word_bytes / 4;
    let warp = |threads: &[Option<u64>]| {
        let words: Vec<u64> = threads
            .iter()
            .flatten()
            .flat_map(|&x| (0..sub).map(move |s| x * sub + s))
            .collect();
        congestion_in_place(words, |w| w % banks)
    };
    let groups = || {
        let group = (banks / sub).max(1) as usize;
        threads.chunks(group).map(warp).sum()
    };
    match model {
        WideModel::Warp => warp(threads),
        WideModel::Groups => groups(),
        WideModel::LoadGroups if warp(threads) <= 1 => warp(threads),
        WideModel::LoadGroups => groups(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_words_take_two_banks() {
        let linear: Vec<u64> = (0..32).collect();
        for model in WideModel::ALL {
            assert_eq!(wide_congestion(&linear, 4, 32, model), 1);
            assert_eq!(wide_congestion(&linear, 8, 32, model), 2);
        }
        // A column of a 32 x 32 double matrix: every double in banks 0 and 1.
        let column: Vec<u64> = (0..32).map(|r| r * 32).collect();
        assert_eq!(wide_congestion(&column, 8, 32, WideModel::Warp), 32);
        assert_eq!(wide_congestion(&column, 8, 32, WideModel::Groups), 32);
        // Both half-warps read the same 16 doubles: one pass over the banks, or one per half.
        let twice: Vec<u64> = (0..32).map(|t| t % 16).collect();
        assert_eq!(wide_congestion(&twice, 8, 32, WideModel::Warp), 1);
        assert_eq!(wide_congestion(&twice, 8, 32, WideModel::Groups), 2);
        assert_eq!(wide_congestion(&twice, 8, 32, WideModel::LoadGroups), 1);
    }

    /// Inactive threads keep their place: the half-warps are threads 0-15 and 16-31 whichever
    /// threads are active.
    #[test]
    fn inactive_threads_keep_the_half_warps_in_place() {
        // Threads 0 and 16 read doubles 0 and 16 (both in bank pair 0): one per half-warp.
        let mut threads = vec![None; 32];
        threads[0] = Some(0);
        threads[16] = Some(16);
        assert_eq!(
            wide_congestion_of_threads(&threads, 8, 32, WideModel::Warp),
            2
        );
        assert_eq!(
            wide_congestion_of_threads(&threads, 8, 32, WideModel::Groups),
            2
        );
        // Compacted, the two threads would form one group: 2 passes in it, the same count here.
        assert_eq!(wide_congestion(&[0, 16], 8, 32, WideModel::Groups), 2);
        // Threads 15 and 16 in different halves with distinct pairs: one pass each under Groups,
        // one pass in all under LoadGroups (the warp touches each 4-byte bank once).
        let mut threads = vec![None; 32];
        threads[15] = Some(15);
        threads[16] = Some(1);
        assert_eq!(
            wide_congestion_of_threads(&threads, 8, 32, WideModel::Groups),
            2
        );
        assert_eq!(
            wide_congestion_of_threads(&threads, 8, 32, WideModel::LoadGroups),
            1
        );
        assert_eq!(wide_congestion(&[15, 1], 8, 32, WideModel::Groups), 1);
        let none = vec![None; 32];
        assert_eq!(
            wide_congestion_of_threads(&none, 8, 32, WideModel::LoadGroups),
            0
        );
    }

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

    proptest::proptest! {
        /// The congestion is the definition counted another way: for each bank, the distinct
        /// addresses that fall into it, by pairwise comparison (no sort, no map).
        #[test]
        fn congestion_is_the_most_distinct_addresses_in_one_bank(
            addresses in proptest::collection::vec(0u64..96, 0..40),
            banks in 1u64..9,
        ) {
            let distinct_in = |bank: u64| {
                addresses
                    .iter()
                    .enumerate()
                    .filter(|&(i, &a)| a % banks == bank && !addresses[..i].contains(&a))
                    .count() as u32
            };
            let expected = (0..banks).map(distinct_in).max().unwrap_or(0);
            proptest::prop_assert_eq!(congestion(&addresses, |a| a % banks), expected);
        }
    }
}
