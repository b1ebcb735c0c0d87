//! The banked shared memory: its shape, the map in front of its banks, what a warp access does
//! to it and how many bank cycles the access takes.
//!
//! A warp access carries up to `lanes` word addresses (inactive lanes carry none), a read or
//! write flag, and per lane a word of data with byte enables. The map sends every address to a
//! bank and a row of that bank ([`Map`]: a bijection of the address space, so that the memory
//! can be keyed by its physical location). Identical words merge: one bank read serves every
//! lane that asked for the word (a broadcast); for a write, every byte of a word takes the value
//! of the highest active lane that writes that byte (CUDA leaves it undefined). The access takes
//! [`passes`] bank cycles: the DMM congestion of its physical words, which
//! [`crate::congestion`] computes; for 8-byte words the half-warp rule measured on an H100
//! (docs/GPU.md): loads as [`WideModel::LoadGroups`], stores as [`WideModel::Groups`].
//!
//! Without the broadcast (`rtl-gen smem --broadcast off`, Vortex's own behaviour) every active
//! lane is a bank access of its own: an access takes [`serial_passes`] bank cycles.
//!
//! - [`cycle`]: the cycle model of the generated RTL, on top of [`passes`] and [`Memory`];
//! - [`lanes`]: the per-lane front end of `--interface vortex` (Vortex's `VX_mem_bus_if`) on
//!   top of [`cycle`].

pub mod cycle;
pub mod lanes;

use crate::congestion::{wide_congestion_of_threads, WideModel};
use crate::rap::ShiftLayout;
use crate::software::SoftwareIndex;
use crate::Error;

/// Largest number of lanes (addresses per warp access).
pub const MAX_LANES: u32 = 64;
/// Largest number of banks.
pub const MAX_BANKS: u32 = 128;
/// Largest number of rows per bank.
pub const MAX_DEPTH: u32 = 1 << 16;

/// A validated memory shape: `lanes` addresses per access, `banks` banks of `depth` words of
/// `word_bytes` bytes each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    lanes: u32,
    banks: u32,
    depth: u32,
    word_bytes: u32,
}

fn out_of_range(name: &str, value: u32, allowed: String) -> Error {
    Error::OutOfRange {
        name: name.into(),
        value: value.to_string(),
        allowed,
    }
}

fn power_of_two_in(name: &str, value: u32, low: u32, high: u32) -> Result<(), Error> {
    if (low..=high).contains(&value) && value.is_power_of_two() {
        Ok(())
    } else {
        Err(out_of_range(
            name,
            value,
            format!("a power of two from {low} to {high}"),
        ))
    }
}

impl Shape {
    /// Validates a shape: lanes a power of two from 2 to [`MAX_LANES`], banks a power of two
    /// from 2 to [`MAX_BANKS`], depth a power of two from 2 to [`MAX_DEPTH`] (so that every
    /// address bit is mapped), words of 4 or 8 bytes.
    pub fn new(lanes: u32, banks: u32, depth: u32, word_bytes: u32) -> Result<Self, Error> {
        power_of_two_in("lanes", lanes, 2, MAX_LANES)?;
        power_of_two_in("banks", banks, 2, MAX_BANKS)?;
        power_of_two_in("depth", depth, 2, MAX_DEPTH)?;
        if word_bytes != 4 && word_bytes != 8 {
            return Err(out_of_range("word_bytes", word_bytes, "4 or 8".into()));
        }
        Ok(Self {
            lanes,
            banks,
            depth,
            word_bytes,
        })
    }

    /// Addresses per warp access.
    pub fn lanes(self) -> u32 {
        self.lanes
    }

    /// Banks.
    pub fn banks(self) -> u32 {
        self.banks
    }

    /// Rows per bank.
    pub fn depth(self) -> u32 {
        self.depth
    }

    /// Bytes per word (and per bank row).
    pub fn word_bytes(self) -> u32 {
        self.word_bytes
    }

    /// Bits of a word.
    pub fn word_bits(self) -> u32 {
        self.word_bytes * 8
    }

    /// Bank-index bits `m`.
    pub fn bank_bits(self) -> u32 {
        self.banks.trailing_zeros()
    }

    /// Row bits: `log2(depth)`.
    pub fn row_bits(self) -> u32 {
        self.depth.trailing_zeros()
    }

    /// Word-address bits `n = log2(banks * depth)`.
    pub fn addr_bits(self) -> u32 {
        self.bank_bits() + self.row_bits()
    }

    /// Words in the memory.
    pub fn words(self) -> u64 {
        u64::from(self.banks) * u64::from(self.depth)
    }

    /// The lanes served together under the half-warp rule: `banks` lanes for 8-byte words (a
    /// warp of 32 lanes over 16 banks of 8 bytes, a GPU's 32 4-byte banks, is served a half-warp
    /// at a time), every lane for 4-byte words.
    pub fn group_lanes(self) -> u32 {
        if self.word_bytes == 8 {
            self.banks.min(self.lanes)
        } else {
            self.lanes
        }
    }

    /// A mask of the word's bits.
    pub fn word_mask(self) -> u64 {
        crate::geometry::low_mask(self.word_bits())
    }
}

/// The map in front of the banks: a bijection from word addresses to physical locations, the
/// index `row * banks + bank`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Map {
    /// A bank hash (modulo included) and the address bits its row keeps: the software index of
    /// `models::software`, whose low bits are the bank and whose high bits are the row.
    Hash(SoftwareIndex),
    /// RAP (or RAS) on `w x w` tiles, `w = banks`: address bits `[m-1:0]` are the column, the
    /// next `m` bits the row within the tile, the rest the tile; the bank is
    /// `(col + shift[row]) mod w` and the physical row is the address above the column.
    Shift(ShiftLayout),
}

impl Map {
    /// The physical index of word address `addr` in a memory of `banks` banks:
    /// `row * banks + bank`.
    pub fn index(&self, addr: u64, banks: u32) -> u64 {
        match self {
            Map::Hash(index) => index.index(addr),
            Map::Shift(layout) => {
                let m = banks.trailing_zeros();
                let w = u64::from(banks);
                let col = (addr % w) as u32;
                let row = ((addr >> m) % w) as u32;
                let tile = addr >> (2 * m);
                tile * w * w + layout.address(row, col)
            }
        }
    }
}

/// One lane of an access: its word address, and for writes its data and byte enables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lane {
    /// Word address.
    pub addr: u64,
    /// Data written (ignored by reads).
    pub data: u64,
    /// Byte enables, bit `k` for byte `k` (ignored by reads).
    pub be: u8,
}

/// A warp access, or a beat of the fill port (a write whose lanes are the port's words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    /// A write (else a read).
    pub write: bool,
    /// One entry per lane, `None` for an inactive lane.
    pub lanes: Vec<Option<Lane>>,
}

impl Access {
    /// A read whose lane `i` asks for `addrs[i]` (every lane active).
    pub fn read(addrs: &[u64]) -> Self {
        Access {
            write: false,
            lanes: addrs
                .iter()
                .map(|&addr| {
                    Some(Lane {
                        addr,
                        ..Lane::default()
                    })
                })
                .collect(),
        }
    }
}

/// How many bank cycles `access` takes under `map`: the congestion of its physical words
/// ([`wide_congestion_of_threads`]; for 4-byte words the DMM congestion, for 8-byte words the
/// half-warp rule of docs/GPU.md, loads as `LoadGroups` and stores as `Groups`). An access with
/// no active lane takes 0.
pub fn passes(shape: Shape, map: &Map, access: &Access) -> u32 {
    let threads: Vec<Option<u64>> = access
        .lanes
        .iter()
        .map(|lane| lane.map(|l| map.index(l.addr, shape.banks())))
        .collect();
    let model = match (shape.word_bytes(), access.write) {
        (4, _) => WideModel::Warp,
        (_, false) => WideModel::LoadGroups,
        (_, true) => WideModel::Groups,
    };
    let word_bytes = u64::from(shape.word_bytes());
    let gpu_banks = u64::from(shape.banks()) * word_bytes / 4;
    wide_congestion_of_threads(&threads, word_bytes, gpu_banks, model)
}

/// How many bank cycles `access` takes without the broadcast: every active lane is a bank
/// access of its own, so the most active lanes that ask one bank, whatever their words. An
/// access with no active lane takes 0.
///
/// # Panics
/// If the shape serves its lanes in several groups (8-byte words over fewer banks than lanes,
/// the half-warp rule): a memory without the broadcast has one group.
pub fn serial_passes(shape: Shape, map: &Map, access: &Access) -> u32 {
    assert_eq!(
        shape.group_lanes(),
        shape.lanes(),
        "a memory without the broadcast serves its lanes as one group"
    );
    let banks = u64::from(shape.banks());
    let mut per_bank = std::collections::HashMap::<u64, u32>::new();
    for lane in access.lanes.iter().flatten() {
        *per_bank
            .entry(map.index(lane.addr, shape.banks()) % banks)
            .or_insert(0) += 1;
    }
    per_bank.into_values().max().unwrap_or(0)
}

/// The active lanes of `access` that ask for a word a lower active lane asks for: the lanes the
/// broadcast serves without a bank access of their own (reads), or whose bytes merge into a
/// lower lane's word (writes).
pub fn repeated_words(shape: Shape, map: &Map, access: &Access) -> u32 {
    let mut seen = std::collections::HashSet::new();
    let active = access.lanes.iter().flatten();
    active
        .filter(|lane| !seen.insert(map.index(lane.addr, shape.banks())))
        .count() as u32
}

/// The contents of the memory, keyed by physical index. A word never written reads as 0.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    words: std::collections::HashMap<u64, u64>,
}

impl Memory {
    /// Applies `access` under `map` and returns what each lane reads: the word at its address
    /// for an active lane of a read, 0 for inactive lanes and for every lane of a write. A write
    /// sets each enabled byte of a word to the value of the highest lane that enables it.
    pub fn apply(&mut self, shape: Shape, map: &Map, access: &Access) -> Vec<u64> {
        let index = |lane: &Lane| map.index(lane.addr, shape.banks());
        if !access.write {
            return access
                .lanes
                .iter()
                .map(|lane| lane.as_ref().map_or(0, |l| self.read(index(l))))
                .collect();
        }
        for lane in access.lanes.iter().flatten() {
            let word = self.words.entry(index(lane)).or_insert(0);
            for byte in 0..shape.word_bytes() {
                if lane.be >> byte & 1 == 1 {
                    let mask = 0xffu64 << (8 * byte);
                    *word = (*word & !mask) | (lane.data & mask);
                }
            }
        }
        vec![0; access.lanes.len()]
    }

    /// The word at physical index `index`.
    pub fn read(&self, index: u64) -> u64 {
        self.words.get(&index).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rap::Permutation;
    use crate::{Geometry, HashConfig, HashFunction};

    fn modulo(shape: Shape) -> Map {
        let g = Geometry::new(shape.addr_bits(), u64::from(shape.banks())).unwrap();
        Map::Hash(SoftwareIndex::new(&HashConfig::new(g, HashFunction::Modulo).unwrap()).unwrap())
    }

    #[test]
    fn shapes_are_validated_naming_the_value() {
        let s = Shape::new(32, 32, 512, 4).unwrap();
        assert_eq!((s.addr_bits(), s.row_bits(), s.words()), (14, 9, 16384));
        assert_eq!(s.group_lanes(), 32);
        assert_eq!(Shape::new(32, 16, 512, 8).unwrap().group_lanes(), 16);
        for (args, what) in [
            (
                (24, 32, 512, 4),
                "lanes = 24 is out of range: allowed a power of two from 2 to 64",
            ),
            ((32, 256, 512, 4), "banks = 256"),
            ((32, 32, 500, 4), "depth = 500"),
            ((32, 32, 1, 4), "depth = 1"),
            (
                (32, 32, 512, 2),
                "word_bytes = 2 is out of range: allowed 4 or 8",
            ),
        ] {
            let err = Shape::new(args.0, args.1, args.2, args.3)
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(what), "{err}");
        }
    }

    /// Worked by hand: the XOR paper's transpose store (TILE_DIM 16) is 8-way under modulo; a
    /// broadcast costs one pass; an empty access none.
    #[test]
    fn passes_are_the_congestion_of_the_physical_words() {
        let shape = Shape::new(32, 32, 512, 4).unwrap();
        let map = modulo(shape);
        let store: Vec<u64> = (0..32u64).map(|t| (t % 16) * 16 + t / 16).collect();
        assert_eq!(passes(shape, &map, &Access::read(&store)), 8);
        assert_eq!(passes(shape, &map, &Access::read(&[7; 32])), 1);
        let empty = Access {
            write: false,
            lanes: vec![None; 32],
        };
        assert_eq!(passes(shape, &map, &empty), 0);
    }

    /// 8-byte words over 16 banks of 8 bytes (a GPU's 32 4-byte banks): a linear read of 32
    /// doubles takes the two half-warps apart (2 passes); a column of a 16-wide matrix 32; a
    /// broadcast of 16 distinct doubles that each half-warp reads whole is one pass for a load
    /// and two for a store (docs/GPU.md).
    #[test]
    fn eight_byte_words_follow_the_half_warp_rule() {
        let shape = Shape::new(32, 16, 64, 8).unwrap();
        let map = modulo(shape);
        let linear: Vec<u64> = (0..32).collect();
        assert_eq!(passes(shape, &map, &Access::read(&linear)), 2);
        let column: Vec<u64> = (0..32).map(|r| r * 16).collect();
        assert_eq!(passes(shape, &map, &Access::read(&column)), 32);
        let twice: Vec<u64> = (0..32).map(|t| t % 16).collect();
        assert_eq!(passes(shape, &map, &Access::read(&twice)), 1);
        let store = Access {
            write: true,
            ..Access::read(&twice)
        };
        assert_eq!(passes(shape, &map, &store), 2);
    }

    /// Without the broadcast every lane counts: a broadcast of one word by 32 lanes takes 32
    /// passes, the transpose store still 8 (its words are distinct), linear words 1.
    #[test]
    fn serial_passes_count_lanes_not_words() {
        let shape = Shape::new(32, 32, 512, 4).unwrap();
        let map = modulo(shape);
        assert_eq!(serial_passes(shape, &map, &Access::read(&[7; 32])), 32);
        let store: Vec<u64> = (0..32u64).map(|t| (t % 16) * 16 + t / 16).collect();
        assert_eq!(serial_passes(shape, &map, &Access::read(&store)), 8);
        let linear: Vec<u64> = (0..32).collect();
        assert_eq!(serial_passes(shape, &map, &Access::read(&linear)), 1);
        let pairs: Vec<u64> = (0..32).map(|t| t / 2).collect();
        assert_eq!(serial_passes(shape, &map, &Access::read(&pairs)), 2);
        assert_eq!(passes(shape, &map, &Access::read(&pairs)), 1);
        assert_eq!(repeated_words(shape, &map, &Access::read(&pairs)), 16);
        assert_eq!(repeated_words(shape, &map, &Access::read(&[7; 32])), 31);
        assert_eq!(repeated_words(shape, &map, &Access::read(&linear)), 0);
    }

    #[test]
    fn rap_tiles_keep_rows_and_columns_conflict_free() {
        let shape = Shape::new(32, 32, 64, 4).unwrap();
        let map = Map::Shift(ShiftLayout::rap(&Permutation::from_seed(32, 1)));
        let mut seen = std::collections::HashSet::new();
        for a in 0..shape.words() {
            assert!(seen.insert(map.index(a, 32)), "index of {a} twice");
        }
        for tile in 0..2u64 {
            let base = tile * 1024;
            let column: Vec<u64> = (0..32).map(|r| base + r * 32 + 5).collect();
            let row: Vec<u64> = (0..32).map(|c| base + 7 * 32 + c).collect();
            assert_eq!(passes(shape, &map, &Access::read(&column)), 1);
            assert_eq!(passes(shape, &map, &Access::read(&row)), 1);
        }
        let raw = modulo(shape);
        let column: Vec<u64> = (0..32).map(|r| r * 32 + 5).collect();
        assert_eq!(passes(shape, &raw, &Access::read(&column)), 32);
    }

    /// The highest lane wins each byte it enables; other bytes keep older values.
    #[test]
    fn writes_merge_bytes_highest_lane_first() {
        let shape = Shape::new(4, 4, 4, 4).unwrap();
        let map = modulo(shape);
        let mut mem = Memory::default();
        let lane = |addr, data, be| Some(Lane { addr, data, be });
        let w = Access {
            write: true,
            lanes: vec![
                lane(3, 0x1111_1111, 0xf),
                lane(3, 0x2222_2222, 0x3),
                None,
                lane(3, 0x3333_3333, 0x1),
            ],
        };
        assert_eq!(mem.apply(shape, &map, &w), vec![0; 4]);
        let r = Access::read(&[3, 3, 2, 9]);
        assert_eq!(
            mem.apply(shape, &map, &r),
            vec![0x1111_2233, 0x1111_2233, 0, 0]
        );
    }
}
