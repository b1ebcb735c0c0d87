//! How many shared-memory wavefronts (passes over the 32 banks) a warp access takes on an H100,
//! for 4-, 8- and 16-byte vectors and `ldmatrix`; measured with Nsight Compute
//! (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st`, docs/SWIZZLE.md).
//!
//! - **4 bytes**: the whole warp at once; a pass per distinct word in the fullest bank
//!   (identical words merge: a broadcast).
//! - **8 and 16 bytes**: the warp is served in groups of `128 / width` threads (half-warps,
//!   quarter-warps), each group as many passes as its fullest bank needs (a `w`-byte vector
//!   fills `w / 4` consecutive banks; identical vectors in a group merge). Stores always.
//! - **Loads merge pairs**: when every pair of neighbouring threads `(2i, 2i + 1)` of the warp
//!   reads one vector, a load is served in groups twice as large (the whole warp for 8 bytes,
//!   half-warps for 16): a pass then delivers 256 bytes. No other sharing merges groups: a warp
//!   whose half-warps read the same 8-byte words, each thread its own, still takes two passes.
//! - **`ldmatrix.x4`** (and `.trans`): its four 8x8 matrices (threads `8j..8j+7` give the rows
//!   of matrix `j`) are served apart, each as a quarter-warp of 16-byte rows; never merged.
//!
//! The pair rule replaces `WideModel::LoadGroups`'s "a load whose whole warp touches at most
//! one word per bank takes one pass": both fit the 678 launches of docs/GPU.md, but
//! `LoadGroups` mispredicts the randomly shared 8-byte loads measured for this model.

use super::access::{AccessSet, WarpAccess};
use super::map::AddressMap;
use crate::congestion::{congestion, wide_congestion, WideModel};

/// What the threads' addresses are used by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Instruction {
    /// `ld.shared` of the vector width.
    Load,
    /// `st.shared` of the vector width.
    Store,
    /// `ldmatrix.x4` (16-byte rows).
    Ldmatrix,
}

impl Instruction {
    /// `load`, `store` or `ldmatrix`.
    pub fn name(self) -> &'static str {
        match self {
            Instruction::Load => "load",
            Instruction::Store => "store",
            Instruction::Ldmatrix => "ldmatrix",
        }
    }
}

/// The threads served together: `128 / width` (the whole warp for 4-byte words), doubled for a
/// load whose neighbouring threads read the same vector in pairs.
pub fn group_size(starts: &[u64], width: u32, instruction: Instruction) -> usize {
    if width == 4 {
        return starts.len().max(1);
    }
    let group = 128 / width as usize;
    let paired = instruction == Instruction::Load
        && starts.len().is_multiple_of(2)
        && starts.chunks(2).all(|p| p[0] == p[1]);
    if paired {
        2 * group
    } else {
        group
    }
}

/// Wavefronts of one warp access whose threads' vectors start at the `physical` byte offsets
/// (thread 0 first).
pub fn warp_wavefronts(physical: &[u64], width: u32, instruction: Instruction) -> u32 {
    if width == 4 {
        return congestion(physical, |x| (x / 4) % 32);
    }
    let w = u64::from(width);
    let words: Vec<u64> = physical.iter().map(|x| x / w).collect();
    words
        .chunks(group_size(physical, width, instruction))
        .map(|g| wide_congestion(g, w, 32, WideModel::Warp))
        .sum()
}

/// The fewest wavefronts any layout could give the same access: every group in as few passes
/// as its distinct words need.
pub fn ideal_wavefronts(logical: &[u64], width: u32, instruction: Instruction) -> u32 {
    let w = u64::from(width);
    let passes = |threads: &[u64]| -> u32 {
        let mut v: Vec<u64> = threads.iter().map(|x| x / w).collect();
        v.sort_unstable();
        v.dedup();
        (v.len() as u64 * w / 4).div_ceil(32) as u32
    };
    logical
        .chunks(group_size(logical, width, instruction))
        .map(passes)
        .sum()
}

/// Wavefronts of an access set under a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SetCost {
    /// Warp accesses.
    pub warps: u64,
    /// Wavefronts of the loads (or `ldmatrix`) of every warp access.
    pub load: u64,
    /// Wavefronts of the stores (0 for `ldmatrix`).
    pub store: u64,
    /// The least the loads could take.
    pub ideal_load: u64,
    /// The least the stores could take.
    pub ideal_store: u64,
    /// The most wavefronts one warp access's load takes.
    pub worst_load: u32,
}

impl SetCost {
    /// Wavefronts above the ideal, loads and stores together.
    pub fn excess(&self) -> u64 {
        self.load + self.store - self.ideal_load - self.ideal_store
    }
}

/// The physical offsets of a warp access, or why the layout cannot serve it (a vector split).
pub fn physical(map: &AddressMap, access: &WarpAccess, width: u32) -> Vec<u64> {
    debug_assert!(map.contiguous_bytes() >= u64::from(width));
    access.offsets.iter().map(|&x| map.apply(x)).collect()
}

/// The wavefronts of every warp access of `set` under `map`. The map must keep the set's
/// vectors whole (`contiguous_bytes() >= width`); the caller checks.
pub fn set_cost(set: &AccessSet, map: &AddressMap) -> SetCost {
    let (load_op, store) = if set.is_ldmatrix() {
        (Instruction::Ldmatrix, false)
    } else {
        (Instruction::Load, true)
    };
    let mut cost = SetCost::default();
    for access in &set.warps {
        let p = physical(map, access, set.width);
        let load = warp_wavefronts(&p, set.width, load_op);
        cost.warps += 1;
        cost.load += u64::from(load);
        cost.worst_load = cost.worst_load.max(load);
        cost.ideal_load += u64::from(ideal_wavefronts(&access.offsets, set.width, load_op));
        if store {
            cost.store += u64::from(warp_wavefronts(&p, set.width, Instruction::Store));
            cost.ideal_store += u64::from(ideal_wavefronts(
                &access.offsets,
                set.width,
                Instruction::Store,
            ));
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_passes_per_width() {
        let linear: Vec<u64> = (0..32).map(|t| t * 16).collect();
        assert_eq!(warp_wavefronts(&linear, 16, Instruction::Load), 4);
        assert_eq!(ideal_wavefronts(&linear, 16, Instruction::Load), 4);
        // A column of 128-byte rows: every 16-byte vector in banks 0..3.
        let column: Vec<u64> = (0..32).map(|t| t * 128).collect();
        assert_eq!(warp_wavefronts(&column, 16, Instruction::Store), 32);
        assert_eq!(warp_wavefronts(&column, 4, Instruction::Load), 32);
        // One word read by every thread: a broadcast, merged in pairs for wide loads.
        assert_eq!(warp_wavefronts(&[64; 32], 4, Instruction::Load), 1);
        assert_eq!(warp_wavefronts(&[64; 32], 8, Instruction::Load), 1);
        assert_eq!(warp_wavefronts(&[64; 32], 8, Instruction::Store), 2);
        assert_eq!(warp_wavefronts(&[64; 32], 16, Instruction::Load), 2);
        assert_eq!(warp_wavefronts(&[64; 32], 16, Instruction::Ldmatrix), 4);
        // Quarter-warps reading the same 8 vectors, each thread its own: no merge.
        let quarters: Vec<u64> = (0..32).map(|t| (t % 8) * 16).collect();
        assert_eq!(warp_wavefronts(&quarters, 16, Instruction::Load), 4);
        assert_eq!(ideal_wavefronts(&column, 8, Instruction::Store), 2);
    }
}
