//! Matrices over GF(2) mapping `n` address bits to `m` bank bits: the `xor-matrix` family.
//!
//! Row `i` is a mask over the address bits; bank bit `i` is the parity (XOR) of the address
//! bits the mask selects. Every XOR-based hash of the paper (modulo, bit-vector and bitwise
//! permutation and XOR) is such a matrix, which is why [`crate::HashConfig::to_matrix`] exists.

/// An `m x n` matrix over GF(2): `rows[i]` selects the address bits XORed into bank bit `i`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct XorMatrix {
    addr_bits: u32,
    rows: Vec<u64>,
}

impl XorMatrix {
    /// A matrix with one row per bank bit; bits of a row at or above `addr_bits` must be clear
    /// (the caller validates; see [`crate::HashConfig::new`]).
    pub fn new(addr_bits: u32, rows: Vec<u64>) -> Self {
        debug_assert!(rows
            .iter()
            .all(|r| *r & !crate::geometry::low_mask(addr_bits) == 0));
        Self { addr_bits, rows }
    }

    /// The rows, bank bit 0 first.
    pub fn rows(&self) -> &[u64] {
        &self.rows
    }

    /// Address bits `n` (columns).
    pub fn addr_bits(&self) -> u32 {
        self.addr_bits
    }

    /// The bank of `addr`: bit `i` is the parity of `addr & rows[i]`.
    pub fn apply(&self, addr: u64) -> u64 {
        self.rows.iter().enumerate().fold(0, |bank, (i, row)| {
            bank | (u64::from((addr & row).count_ones() & 1) << i)
        })
    }

    /// The rank over GF(2): `2^rank` banks are reachable.
    pub fn rank(&self) -> u32 {
        let mut basis: Vec<u64> = Vec::with_capacity(self.rows.len());
        for &row in &self.rows {
            let reduced = basis.iter().fold(row, |r, b| r.min(r ^ b));
            if reduced != 0 {
                basis.push(reduced);
                basis.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        basis.len() as u32
    }

    /// The address bits no row uses: a hasher built from this matrix ignores them.
    pub fn unused_columns(&self) -> u64 {
        let used = self.rows.iter().fold(0, |acc, r| acc | r);
        !used & crate::geometry::low_mask(self.addr_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_rows_as_parities() {
        // b0 = a0 ^ a2, b1 = a1
        let m = XorMatrix::new(3, vec![0b101, 0b010]);
        assert_eq!(m.apply(0b000), 0b00);
        assert_eq!(m.apply(0b001), 0b01);
        assert_eq!(m.apply(0b100), 0b01);
        assert_eq!(m.apply(0b101), 0b00);
        assert_eq!(m.apply(0b010), 0b10);
        assert_eq!(m.unused_columns(), 0);
    }

    #[test]
    fn rank_counts_independent_rows() {
        assert_eq!(XorMatrix::new(4, vec![0b0011, 0b0110, 0b0101]).rank(), 2);
        assert_eq!(XorMatrix::new(4, vec![0b0001, 0b0010, 0b0100]).rank(), 3);
        assert_eq!(XorMatrix::new(4, vec![0, 0b1000]).rank(), 1);
        assert_eq!(XorMatrix::new(64, vec![u64::MAX, 1 << 63]).rank(), 2);
    }
}
