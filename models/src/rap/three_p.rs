//! The 3P layout of section VII as a fixed address map: the golden model of the 3P converter.
//!
//! Element `a[i][j][k][l]` of a `w x w x w x w` array is stored at
//! `((i * w + j) * w + k) * w + ((l + r_i + s_j + t_k) mod w)`, in bank
//! `(l + r_i + s_j + t_k) mod w`, for three permutations `r`, `s`, `t` of `0..w` (the paper's
//! "three random permutations"). Contiguous accesses and strided accesses along any of `i`, `j`,
//! `k` are then conflict-free (Table IV). The map is a bijection for any three tables of values
//! below `w`, which is what a loadable converter holds while its tables are rewritten, so the
//! model accepts any such tables.

use super::Permutation;

/// The 3P map of a `w^4` array: three shift tables indexed by `i`, `j` and `k`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreePLayout {
    tables: [Vec<u32>; 3],
}

impl ThreePLayout {
    /// 3P with the permutations `r`, `s`, `t` (of the same `w`).
    pub fn new(r: &Permutation, s: &Permutation, t: &Permutation) -> Self {
        Self::from_tables([r, s, t].map(|p| p.as_slice().to_vec()))
    }

    /// The map of three tables of equal length `w`, each value below `w` (panics otherwise:
    /// callers validate user input first).
    pub fn from_tables(tables: [Vec<u32>; 3]) -> Self {
        let w = tables[0].len();
        assert!(
            tables
                .iter()
                .all(|t| t.len() == w && t.iter().all(|&v| (v as usize) < w)),
            "3P tables must have {w} entries below {w}"
        );
        Self { tables }
    }

    /// `w`: the extent of every dimension and the bank count.
    pub fn w(&self) -> u32 {
        self.tables[0].len() as u32
    }

    /// Table `n` (0: `r`, indexed by `i`; 1: `s`, by `j`; 2: `t`, by `k`).
    pub fn table(&self, n: usize) -> &[u32] {
        &self.tables[n]
    }

    /// The shift of row `(i, j, k)`: `(r_i + s_j + t_k) mod w`.
    pub fn shift(&self, i: u32, j: u32, k: u32) -> u32 {
        let sum: u64 = [i, j, k]
            .iter()
            .zip(&self.tables)
            .map(|(&x, t)| u64::from(t[x as usize]))
            .sum();
        (sum % u64::from(self.w())) as u32
    }

    /// The bank of `a[i][j][k][l]`: `(l + r_i + s_j + t_k) mod w`. Panics on an index not below
    /// `w`.
    pub fn bank(&self, i: u32, j: u32, k: u32, l: u32) -> u32 {
        let w = self.w();
        assert!(l < w, "index {l} of a dimension of {w}");
        (self.shift(i, j, k) + l) % w
    }

    /// The address of `a[i][j][k][l]`: `((i * w + j) * w + k) * w + bank`.
    pub fn address(&self, i: u32, j: u32, k: u32, l: u32) -> u64 {
        let w = u64::from(self.w());
        ((u64::from(i) * w + u64::from(j)) * w + u64::from(k)) * w
            + u64::from(self.bank(i, j, k, l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::congestion::congestion;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn by_hand_and_conflict_free_where_table_iv_says() {
        let r = Permutation::new(4, &[2, 0, 3, 1]).unwrap();
        let s = Permutation::new(4, &[1, 3, 0, 2]).unwrap();
        let t = Permutation::new(4, &[3, 2, 1, 0]).unwrap();
        let p = ThreePLayout::new(&r, &s, &t);
        // a[1][2][3][1]: 1 + r_1 + s_2 + t_3 = 1 + 0 + 0 + 0 = 1; (1*4+2)*4+3 = 27 -> 27*4 + 1.
        assert_eq!(p.bank(1, 2, 3, 1), 1);
        assert_eq!(p.address(1, 2, 3, 1), 109);
        // a[3][1][0][2]: 2 + 1 + 3 + 3 = 9 = 1 mod 4.
        assert_eq!(p.bank(3, 1, 0, 2), 1);
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let w = 16;
        let perms: Vec<Permutation> = (0..3).map(|_| Permutation::random(w, &mut rng)).collect();
        let p = ThreePLayout::new(&perms[0], &perms[1], &perms[2]);
        let bank = |a: u64| a % u64::from(w);
        for (i, j, k, l) in [(0, 1, 2, 3), (5, 5, 5, 5), (15, 0, 7, 9)] {
            let access = |f: &dyn Fn(u32) -> u64| (0..w).map(f).collect::<Vec<u64>>();
            assert_eq!(congestion(&access(&|x| p.address(i, j, k, x)), bank), 1);
            assert_eq!(congestion(&access(&|x| p.address(i, j, x, l)), bank), 1);
            assert_eq!(congestion(&access(&|x| p.address(i, x, k, l)), bank), 1);
            assert_eq!(congestion(&access(&|x| p.address(x, j, k, l)), bank), 1);
        }
        // A bijection: w^4 distinct addresses below w^4.
        let mut seen = vec![false; (w as usize).pow(4)];
        for i in 0..w {
            for j in 0..w {
                for k in 0..w {
                    for l in 0..w {
                        let a = p.address(i, j, k, l) as usize;
                        assert!(!seen[a]);
                        seen[a] = true;
                    }
                }
            }
        }
    }
}
