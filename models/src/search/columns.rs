//! The candidate bank bits of the bitwise heuristics: single address bits (bitwise
//! permutation) or, through the XOR paper's Table 3, all `n(n+1)/2` XORs of two address bits
//! (bitwise XOR).
//!
//! Candidates are listed in a fixed order, single bits before pairs and lower bits first
//! (`0, 1, ..., n-1, 0^1, 0^2, ..., 0^(n-1), 1^2, ...`); the heuristics break ties in favour of
//! the candidate listed first.

/// One candidate bank bit: `addr[a] ^ addr[b]`, or the single bit `addr[a]` when `a == b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column {
    /// The lower address bit.
    pub a: u32,
    /// The higher address bit (`a` for a single bit).
    pub b: u32,
}

impl Column {
    /// The value of this bank bit for `addr`, 0 or 1.
    pub fn value(self, addr: u64) -> u64 {
        let bit = |i: u32| (addr >> i) & 1;
        if self.a == self.b {
            bit(self.a)
        } else {
            bit(self.a) ^ bit(self.b)
        }
    }

    /// The address bits this bank bit reads, as a GF(2) row.
    pub fn row(self) -> u64 {
        (1u64 << self.a) | (1u64 << self.b)
    }
}

/// The `n` single address bits (the bitwise permutation's candidates).
pub fn single_bits(n: u32) -> Vec<Column> {
    (0..n).map(|a| Column { a, b: a }).collect()
}

/// The `n(n+1)/2` single bits and pairs (the bitwise XOR's candidates).
pub fn bit_pairs(n: u32) -> Vec<Column> {
    let mut all = single_bits(n);
    all.extend((0..n).flat_map(|a| (a + 1..n).map(move |b| Column { a, b })));
    all
}

/// Rows selected so far, kept reduced so that dependence is one pass: a new bank bit must be
/// linearly independent of the chosen ones, or some banks would never be reached.
#[derive(Debug, Clone, Default)]
pub struct Independence {
    basis: Vec<u64>,
}

impl Independence {
    /// Whether `row` is independent of the rows added so far.
    pub fn admits(&self, row: u64) -> bool {
        self.reduce(row) != 0
    }

    /// Adds `row` (which must be admitted).
    pub fn add(&mut self, row: u64) {
        let r = self.reduce(row);
        debug_assert!(r != 0);
        self.basis.push(r);
        self.basis.sort_unstable_by(|x, y| y.cmp(x));
    }

    fn reduce(&self, row: u64) -> u64 {
        self.basis.iter().fold(row, |r, b| r.min(r ^ b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 3: a 4-bit vector has 4 * 5 / 2 = 10 combinations.
    #[test]
    fn pairs_follow_table_3() {
        let p = bit_pairs(4);
        assert_eq!(p.len(), 10);
        assert_eq!(p[4], Column { a: 0, b: 1 });
        assert_eq!(p[9], Column { a: 2, b: 3 });
        assert_eq!(bit_pairs(14).len(), 105);
        assert_eq!(Column { a: 1, b: 3 }.value(0b1010), 0);
        assert_eq!(Column { a: 1, b: 3 }.value(0b0010), 1);
    }

    #[test]
    fn independence_refuses_a_combination() {
        let mut ind = Independence::default();
        ind.add(Column { a: 0, b: 1 }.row());
        ind.add(Column { a: 1, b: 2 }.row());
        assert!(!ind.admits(Column { a: 0, b: 2 }.row()));
        assert!(ind.admits(Column { a: 2, b: 2 }.row()));
    }
}
