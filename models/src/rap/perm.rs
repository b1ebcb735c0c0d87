//! Permutations of `0..w` and the shift table of the RAW, RAS and RAP layouts of a `w x w`
//! matrix: the golden model of the RAP address converter.
//!
//! Element `(row, col)` of a `w x w` matrix lives at address `row * w + ((col + shift[row]) mod
//! w)`, in bank `(col + shift[row]) mod w`. RAW has every shift 0; RAS draws each shift
//! independently from `0..w`; RAP draws the shifts as a random permutation of `0..w`, which
//! makes every row access and every column access conflict-free (the paper's Theorem 2).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Smallest matrix width the layouts accept.
pub const MIN_W: u32 = 2;

/// Why a list is not a permutation of `0..w`: the first repeated value, the values out of
/// range and the missing ones (the first few of each), and the list's length when it is not `w`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct NotAPermutation {
    /// The `w` the list was checked against.
    pub w: u32,
    /// The number of entries given.
    pub len: usize,
    /// The first value given more than once, with its count.
    pub repeated: Option<(u64, usize)>,
    /// Values `>= w` (at most three).
    pub out_of_range: Vec<u64>,
    /// Values of `0..w` not given (at most three).
    pub missing: Vec<u32>,
}

impl fmt::Display for NotAPermutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = self.w.saturating_sub(1);
        let mut parts = Vec::new();
        if self.len != self.w as usize {
            parts.push(format!("{} entries where {} are needed", self.len, self.w));
        }
        if let Some((value, count)) = self.repeated {
            let times = if count == 2 {
                "twice".to_string()
            } else {
                format!("{count} times")
            };
            parts.push(format!("{value} appears {times}"));
        }
        for value in &self.out_of_range {
            parts.push(format!("{value} is out of range"));
        }
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        match self.missing.len() {
            0 => {}
            1 => parts.push(format!("{} is missing", self.missing[0])),
            _ => parts.push(format!("{} are missing", list(&self.missing))),
        }
        write!(
            f,
            "not a permutation of 0..{max}: {} (each of 0 to {max} must appear exactly once)",
            parts.join(", ")
        )
    }
}

/// A permutation of `0..w` (`w >= 2`): `r_0, ..., r_{w-1}` distinct in `0..w`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Permutation(Vec<u32>);

impl Permutation {
    /// Checks that `values` is a permutation of `0..w`; the error names the repeated, out of
    /// range and missing values.
    pub fn new(w: u32, values: &[u64]) -> Result<Self, NotAPermutation> {
        let mut count = vec![0usize; w as usize];
        let mut repeated = None;
        let mut out_of_range = Vec::new();
        for &v in values {
            if v >= u64::from(w) {
                if out_of_range.len() < 3 && !out_of_range.contains(&v) {
                    out_of_range.push(v);
                }
                continue;
            }
            count[v as usize] += 1;
        }
        for &v in values {
            if v < u64::from(w) && count[v as usize] > 1 {
                repeated = Some((v, count[v as usize]));
                break;
            }
        }
        let missing: Vec<u32> = (0..w).filter(|&v| count[v as usize] == 0).take(3).collect();
        if w < MIN_W
            || values.len() != w as usize
            || repeated.is_some()
            || !out_of_range.is_empty()
            || !missing.is_empty()
        {
            return Err(NotAPermutation {
                w,
                len: values.len(),
                repeated,
                out_of_range,
                missing,
            });
        }
        Ok(Self(values.iter().map(|&v| v as u32).collect()))
    }

    /// The identity `0, 1, ..., w - 1`.
    pub fn identity(w: u32) -> Self {
        Self((0..w).collect())
    }

    /// A uniformly random permutation of `0..w` (Fisher-Yates).
    pub fn random(w: u32, rng: &mut impl Rng) -> Self {
        let mut v: Vec<u32> = (0..w).collect();
        v.shuffle(rng);
        Self(v)
    }

    /// A uniformly random permutation of `0..w` (`w` even) whose two halves each hold every
    /// residue mod `w / 2` once: as RAP shifts it keeps columns conflict-free for words of two
    /// banks (8-byte words in 4-byte banks), whose half-warps see `w / 2` bank pairs.
    pub fn random_wide(w: u32, rng: &mut impl Rng) -> Self {
        assert!(
            w >= 2 && w.is_multiple_of(2),
            "a wide permutation needs an even w, not {w}"
        );
        let half = w / 2;
        let mut low: Vec<u32> = (0..half).collect();
        let mut high: Vec<u32> = (0..half).collect();
        low.shuffle(rng);
        high.shuffle(rng);
        let upper: Vec<bool> = (0..half).map(|_| rng.gen()).collect();
        let first = low
            .iter()
            .map(|&v| v + if upper[v as usize] { half } else { 0 });
        let second = high
            .iter()
            .map(|&v| v + if upper[v as usize] { 0 } else { half });
        Self(first.chain(second).collect())
    }

    /// Checks the property [`Permutation::random_wide`] draws: `w` is even and each half of the
    /// permutation holds every residue mod `w / 2` once. The error names the first residue a half
    /// repeats and the two rows that share it.
    pub fn check_wide(&self) -> Result<(), String> {
        let w = self.w();
        if !w.is_multiple_of(2) {
            return Err(format!(
                "w = {w} is odd: a wide permutation needs an even w"
            ));
        }
        let half = w / 2;
        for (h, rows) in [(0, 0..half), (1, half..w)] {
            let mut first = vec![None; half as usize];
            for row in rows {
                let residue = self.0[row as usize] % half;
                if let Some(other) = first[residue as usize] {
                    return Err(format!(
                        "rows {other} and {row} of the {} half both have a shift = {residue} mod {half}                          (r_{other} = {}, r_{row} = {}): each half must hold every residue mod {half} once",
                        ["first", "second"][h],
                        self.0[other as usize],
                        self.0[row as usize]
                    ));
                }
                first[residue as usize] = Some(row);
            }
        }
        Ok(())
    }

    /// The permutation `--rap-seed seed` names: [`Permutation::random`] from a ChaCha8 generator
    /// seeded with `seed`.
    pub fn from_seed(w: u32, seed: u64) -> Self {
        Self::random(w, &mut ChaCha8Rng::seed_from_u64(seed))
    }

    /// `w`.
    pub fn w(&self) -> u32 {
        self.0.len() as u32
    }

    /// The entries `r_0, ..., r_{w-1}`.
    pub fn as_slice(&self) -> &[u32] {
        &self.0
    }
}

/// Which layout a [`ShiftLayout`] implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LayoutKind {
    /// Row-major, no shift.
    Raw,
    /// Random address shift: independent shifts.
    Ras,
    /// Random address permute-shift: the shifts are a permutation.
    Rap,
}

impl LayoutKind {
    /// `raw`, `ras` or `rap`.
    pub fn name(self) -> &'static str {
        match self {
            LayoutKind::Raw => "raw",
            LayoutKind::Ras => "ras",
            LayoutKind::Rap => "rap",
        }
    }
}

/// The address map of a `w x w` matrix under RAW, RAS or RAP: one shift per row.
///
/// This is the golden model of the RAP (and RAS) address converter:
/// `address(row, col) = row * w + ((col + shift[row]) mod w)` and
/// `bank(row, col) = (col + shift[row]) mod w`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShiftLayout {
    kind: LayoutKind,
    shifts: Vec<u32>,
}

impl ShiftLayout {
    /// RAW: every shift 0.
    pub fn raw(w: u32) -> Self {
        Self {
            kind: LayoutKind::Raw,
            shifts: vec![0; w as usize],
        }
    }

    /// RAS with the given shifts (each in `0..w`, repeats allowed). Panics on a shift `>= w`
    /// (callers validate user input first).
    pub fn ras(shifts: Vec<u32>) -> Self {
        let w = shifts.len() as u32;
        assert!(shifts.iter().all(|&s| s < w), "RAS shift out of 0..{w}");
        Self {
            kind: LayoutKind::Ras,
            shifts,
        }
    }

    /// RAS with `w` independent uniform shifts from `rng`.
    pub fn ras_random(w: u32, rng: &mut impl Rng) -> Self {
        Self::ras((0..w).map(|_| rng.gen_range(0..w)).collect())
    }

    /// RAP with the permutation `perm` as its shifts.
    pub fn rap(perm: &Permutation) -> Self {
        Self {
            kind: LayoutKind::Rap,
            shifts: perm.as_slice().to_vec(),
        }
    }

    /// Which layout this is.
    pub fn kind(&self) -> LayoutKind {
        self.kind
    }

    /// The matrix width `w` (and bank count).
    pub fn w(&self) -> u32 {
        self.shifts.len() as u32
    }

    /// The shift of every row.
    pub fn shifts(&self) -> &[u32] {
        &self.shifts
    }

    /// The bank of element `(row, col)`: `(col + shift[row]) mod w`. Panics when `row` or
    /// `col` is not below `w`.
    pub fn bank(&self, row: u32, col: u32) -> u32 {
        let w = self.w();
        assert!(
            row < w && col < w,
            "element ({row}, {col}) of a {w} x {w} matrix"
        );
        let s = col + self.shifts[row as usize];
        if s >= w {
            s - w
        } else {
            s
        }
    }

    /// The address of element `(row, col)`: `row * w + bank(row, col)`.
    pub fn address(&self, row: u32, col: u32) -> u64 {
        u64::from(row) * u64::from(self.w()) + u64::from(self.bank(row, col))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::congestion::congestion;

    #[test]
    fn figure_6_example() {
        // The paper's Fig. 6: w = 4, r = (2, 0, 3, 1); a[2][2] = address 10 moves to 9.
        let perm = Permutation::new(4, &[2, 0, 3, 1]).unwrap();
        let rap = ShiftLayout::rap(&perm);
        assert_eq!(rap.address(2, 2), 9);
        assert_eq!(rap.bank(2, 2), 1);
        let rows: Vec<Vec<u64>> = (0..4)
            .map(|r| (0..4).map(|c| rap.address(r, c)).collect())
            .collect();
        // Row 0 is stored as 2 3 0 1 in banks 0..3: element c sits in bank (c + 2) mod 4.
        assert_eq!(rows[0], vec![2, 3, 0, 1]);
        assert_eq!(rows[3], vec![13, 14, 15, 12]);
    }

    #[test]
    fn rows_and_columns_are_conflict_free_under_rap() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for w in [2, 3, 16, 32, 100] {
            let rap = ShiftLayout::rap(&Permutation::random(w, &mut rng));
            for x in 0..w {
                let row: Vec<u64> = (0..w).map(|c| rap.address(x, c)).collect();
                let col: Vec<u64> = (0..w).map(|r| rap.address(r, x)).collect();
                assert_eq!(congestion(&row, |a| a % u64::from(w)), 1);
                assert_eq!(congestion(&col, |a| a % u64::from(w)), 1);
            }
            let raw = ShiftLayout::raw(w);
            let col: Vec<u64> = (0..w).map(|r| raw.address(r, 0)).collect();
            assert_eq!(congestion(&col, |a| a % u64::from(w)), w);
        }
    }

    #[test]
    fn wide_permutations_keep_double_columns_conflict_free() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..50 {
            let p = Permutation::random_wide(32, &mut rng);
            let values: Vec<u64> = p.as_slice().iter().map(|&v| u64::from(v)).collect();
            assert!(Permutation::new(32, &values).is_ok());
            assert_eq!(p.check_wide(), Ok(()));
            let rap = ShiftLayout::rap(&p);
            for c in 0..32 {
                let col: Vec<u64> = (0..32).map(|r| rap.address(r, c)).collect();
                let groups = crate::congestion::WideModel::Groups;
                assert_eq!(crate::congestion::wide_congestion(&col, 8, 32, groups), 2);
            }
        }
    }

    #[test]
    fn check_wide_names_the_shared_residue() {
        assert_eq!(Permutation::identity(8).check_wide(), Ok(()));
        let p = Permutation::new(8, &[0, 4, 1, 2, 3, 5, 6, 7]).unwrap();
        let err = p.check_wide().unwrap_err();
        assert!(
            err.starts_with("rows 0 and 1 of the first half both have a shift = 0 mod 4"),
            "{err}"
        );
        let odd = Permutation::identity(5).check_wide().unwrap_err();
        assert!(odd.contains("w = 5 is odd"), "{odd}");
        // A plain random permutation of 32 is almost never wide.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!(Permutation::random(32, &mut rng).check_wide().is_err());
    }

    #[test]
    fn not_a_permutation_names_the_culprits() {
        let err = Permutation::new(4, &[2, 0, 2, 1]).unwrap_err().to_string();
        assert_eq!(
            err,
            "not a permutation of 0..3: 2 appears twice, 3 is missing (each of 0 to 3 must appear exactly once)"
        );
        let err = Permutation::new(4, &[2, 0, 7, 1]).unwrap_err().to_string();
        assert!(err.contains("7 is out of range, 3 is missing"), "{err}");
        let err = Permutation::new(4, &[2, 0, 1]).unwrap_err().to_string();
        assert!(
            err.contains("3 entries where 4 are needed, 3 is missing"),
            "{err}"
        );
        let err = Permutation::new(3, &[0, 0, 0]).unwrap_err().to_string();
        assert!(err.contains("0 appears 3 times, 1, 2 are missing"), "{err}");
        assert!(Permutation::new(1, &[0]).is_err());
        assert_eq!(Permutation::new(2, &[1, 0]).unwrap().as_slice(), &[1, 0]);
    }

    #[test]
    fn seeded_permutations_are_reproducible_permutations() {
        let p = Permutation::from_seed(32, 7);
        assert_eq!(p, Permutation::from_seed(32, 7));
        assert_ne!(p, Permutation::from_seed(32, 8));
        let values: Vec<u64> = p.as_slice().iter().map(|&v| u64::from(v)).collect();
        assert!(Permutation::new(32, &values).is_ok());
    }
}
