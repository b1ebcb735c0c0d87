//! An address map: an invertible matrix over GF(2) on the byte-offset bits of a tile.
//!
//! Every XOR swizzle (CuTe's `Swizzle<B,M,S>`, TMA's 32/64/128-byte modes, Triton's swizzled and
//! linear shared layouts, our own hashes completed to a bijection) sends the byte offset an
//! element would have in the plain row-major tile (its *logical* offset) to the byte offset where
//! it is stored (its *physical* offset), and does so linearly: physical = `F · logical` over
//! GF(2). The bank of a byte is bits 2..7 of its physical offset (32 banks of 4 bytes).

use crate::software::insert;
use std::fmt;

/// A bijection of the `bits`-bit byte offsets, linear over GF(2).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AddressMap {
    bits: u32,
    /// `columns[j]`: the physical offset of the logical offset `1 << j`.
    columns: Vec<u64>,
}

/// Why a list of columns or rows is not an address map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapError {
    /// Not one entry per bit.
    WrongLength {
        /// Entries given.
        given: usize,
        /// Bits of the offset.
        bits: u32,
    },
    /// An entry with a bit at or above `bits`.
    TooWide {
        /// The entry.
        value: u64,
        /// Bits of the offset.
        bits: u32,
    },
    /// Not invertible: two logical offsets would share a physical one.
    Singular {
        /// The rank over GF(2).
        rank: u32,
        /// Bits of the offset.
        bits: u32,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::WrongLength { given, bits } => {
                write!(f, "{given} entries: expected {bits}, one per offset bit")
            }
            MapError::TooWide { value, bits } => {
                write!(
                    f,
                    "{value:#x} has a bit at or above bit {bits} of the offset"
                )
            }
            MapError::Singular { rank, bits } => write!(
                f,
                "the matrix has GF(2) rank {rank} below {bits}: two offsets would share one place"
            ),
        }
    }
}

/// The rank over GF(2) of a list of vectors.
pub fn rank(vectors: impl IntoIterator<Item = u64>) -> u32 {
    crate::XorMatrix::new(64, vectors.into_iter().collect()).rank()
}

/// Transposes a square list of bit vectors (`bits` of them, `bits` bits each).
fn transpose(bits: u32, vectors: &[u64]) -> Vec<u64> {
    (0..bits)
        .map(|i| {
            vectors
                .iter()
                .enumerate()
                .fold(0, |acc, (j, v)| acc | ((v >> i) & 1) << j)
        })
        .collect()
}

fn low_mask(bits: u32) -> u64 {
    crate::geometry::low_mask(bits)
}

impl AddressMap {
    /// The identity: the plain row-major tile.
    pub fn identity(bits: u32) -> Self {
        Self {
            bits,
            columns: (0..bits).map(|j| 1 << j).collect(),
        }
    }

    /// The map whose column `j` is the physical offset of logical offset `1 << j`.
    pub fn from_columns(bits: u32, columns: Vec<u64>) -> Result<Self, MapError> {
        if columns.len() != bits as usize {
            return Err(MapError::WrongLength {
                given: columns.len(),
                bits,
            });
        }
        if let Some(&value) = columns.iter().find(|c| **c & !low_mask(bits) != 0) {
            return Err(MapError::TooWide { value, bits });
        }
        let r = rank(columns.iter().copied());
        if r != bits {
            return Err(MapError::Singular { rank: r, bits });
        }
        Ok(Self { bits, columns })
    }

    /// The map whose row `i` selects the logical bits XORed into physical bit `i`.
    pub fn from_rows(bits: u32, rows: &[u64]) -> Result<Self, MapError> {
        if rows.len() != bits as usize {
            return Err(MapError::WrongLength {
                given: rows.len(),
                bits,
            });
        }
        if let Some(&value) = rows.iter().find(|r| **r & !low_mask(bits) != 0) {
            return Err(MapError::TooWide { value, bits });
        }
        Self::from_columns(bits, transpose(bits, rows))
    }

    /// The map of a function known to be linear, read off the images of the unit vectors.
    pub fn from_fn(bits: u32, f: impl Fn(u64) -> u64) -> Result<Self, MapError> {
        Self::from_columns(bits, (0..bits).map(|j| f(1 << j)).collect())
    }

    /// Completes `fixed` rows (physical bit, row) to an invertible map: the other physical bits
    /// copy logical bits, each bit `i` keeping logical bit `i` where it can, otherwise the lowest
    /// logical bit still independent. `None` when the fixed rows are dependent.
    pub fn complete(bits: u32, fixed: &[(u32, u64)]) -> Option<Self> {
        let mut basis = Vec::new();
        let mut rows = vec![None; bits as usize];
        for &(i, row) in fixed {
            if i >= bits || rows[i as usize].is_some() || !insert(&mut basis, row) {
                return None;
            }
            rows[i as usize] = Some(row);
        }
        for i in 0..bits {
            if rows[i as usize].is_some() {
                continue;
            }
            let bit = std::iter::once(i)
                .chain(0..bits)
                .find(|&b| insert(&mut basis, 1 << b))?;
            rows[i as usize] = Some(1 << bit);
        }
        let rows: Vec<u64> = rows.into_iter().map(|r| r.unwrap_or(0)).collect();
        Self::from_rows(bits, &rows).ok()
    }

    /// Offset bits `n`: the tile holds `2^n` bytes.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The physical offsets of the logical unit offsets, bit 0 first.
    pub fn columns(&self) -> &[u64] {
        &self.columns
    }

    /// Row `i`: the logical bits whose XOR is physical bit `i`.
    pub fn rows(&self) -> Vec<u64> {
        transpose(self.bits, &self.columns)
    }

    /// The physical byte offset of logical byte offset `x` (bits above `n` ignored).
    pub fn apply(&self, x: u64) -> u64 {
        self.columns
            .iter()
            .enumerate()
            .filter(|(j, _)| x >> j & 1 == 1)
            .fold(0, |acc, (_, c)| acc ^ c)
    }

    /// The inverse map: logical offset of a physical one.
    pub fn inverse(&self) -> Self {
        // Gauss-Jordan on [F | I] by columns: solve F x = e_i for every i.
        let n = self.bits as usize;
        let mut rows: Vec<(u64, u64)> = self
            .rows()
            .into_iter()
            .enumerate()
            .map(|(i, r)| (r, 1u64 << i))
            .collect();
        for col in 0..n {
            let pivot = (col..n)
                .find(|&r| rows[r].0 >> col & 1 == 1)
                .unwrap_or_else(|| unreachable!("an address map is invertible"));
            rows.swap(col, pivot);
            let (pr, pi) = rows[col];
            for (r, row) in rows.iter_mut().enumerate() {
                if r != col && row.0 >> col & 1 == 1 {
                    row.0 ^= pr;
                    row.1 ^= pi;
                }
            }
        }
        // Now row `col` reads: logical bit col = parity(physical & rows[col].1).
        let inverse_rows: Vec<u64> = rows.into_iter().map(|(_, i)| i).collect();
        Self::from_rows(self.bits, &inverse_rows)
            .unwrap_or_else(|e| unreachable!("the inverse of a bijection: {e}"))
    }

    /// `other` after `self`: logical offset `x` goes to `other.apply(self.apply(x))`.
    pub fn then(&self, other: &AddressMap) -> Self {
        debug_assert_eq!(self.bits, other.bits);
        Self {
            bits: self.bits,
            columns: self.columns.iter().map(|&c| other.apply(c)).collect(),
        }
    }

    /// The largest run of bytes the map keeps together: `2^k` for the largest `k` such that every
    /// `2^k`-aligned block of logical bytes lands, in order, on a `2^k`-aligned physical block.
    pub fn contiguous_bytes(&self) -> u64 {
        let k = (0..=self.bits)
            .take_while(|&k| {
                let low = low_mask(k);
                (0..k).all(|j| self.columns[j as usize] == 1 << j)
                    && self.columns[k as usize..].iter().all(|c| c & low == 0)
            })
            .last()
            .unwrap_or(0);
        1 << k
    }

    /// Whether the map is the identity.
    pub fn is_identity(&self) -> bool {
        *self == Self::identity(self.bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_the_map() {
        // Physical bit 4 = logical bits 4 ^ 7, the rest the identity: Swizzle<1,4,3> on 8 bits.
        let f = AddressMap::from_fn(8, |x| x ^ ((x >> 3) & 0x10)).unwrap();
        let g = f.inverse();
        for x in 0..256 {
            assert_eq!(g.apply(f.apply(x)), x);
        }
        assert!(f.then(&g).is_identity());
        assert_eq!(f.contiguous_bytes(), 16);
        assert_eq!(AddressMap::identity(8).contiguous_bytes(), 256);
    }

    #[test]
    fn refuses_singular_and_wide_matrices() {
        assert_eq!(
            AddressMap::from_columns(2, vec![1, 1]),
            Err(MapError::Singular { rank: 1, bits: 2 })
        );
        assert!(matches!(
            AddressMap::from_rows(2, &[1, 4]),
            Err(MapError::TooWide { value: 4, bits: 2 })
        ));
        assert!(matches!(
            AddressMap::from_rows(2, &[1]),
            Err(MapError::WrongLength { given: 1, bits: 2 })
        ));
    }

    #[test]
    fn completion_keeps_free_bits_in_place() {
        // Physical bit 2 = logical 2 ^ 5: the others copy their own bit.
        let f = AddressMap::complete(6, &[(2, 0b100100)]).unwrap();
        assert_eq!(f.rows(), vec![1, 2, 0b100100, 8, 16, 32]);
        // Physical bit 0 = logical bit 3: bit 3 then takes the lowest free bit, 0.
        let g = AddressMap::complete(4, &[(0, 8)]).unwrap();
        assert_eq!(g.rows(), vec![8, 2, 4, 1]);
        assert!(AddressMap::complete(4, &[(0, 3), (1, 3)]).is_none());
    }
}
