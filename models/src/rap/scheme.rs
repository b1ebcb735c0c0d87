//! The layouts the congestion simulator compares, as the random shift each row of an array gets.
//!
//! A `w x w` matrix (`dims = 2`) or a `w x w x w x w` array (`dims = 4`, the paper's section VII)
//! is stored so that element `a[i][j][k][l]` sits in bank `(l + f(i, j, k)) mod w`: the last
//! index is the column, the others name a *row* of `w` elements, and a scheme is the random
//! function `f` of the row. Rows are written right-aligned as `[i, j, k]`, so a matrix row is
//! `[0, 0, k]`.
//!
//! Each scheme says which random quantities `f` adds (its [`Form`]): entries of uniformly random
//! permutations of `0..w` ([`Term::Perm`]) or independent uniform values in `0..w`
//! ([`Term::Uniform`]). Two rows with the same form always get the same shift; the malicious
//! search builds on that.

use crate::Error;
use std::fmt;
use std::str::FromStr;

/// Largest `w` for a `w x w` matrix.
pub const MAX_W_2D: u32 = 4096;
/// Largest `w` for a `w^4` array (the simulator keeps a table of `w^3` entries per thread).
pub const MAX_W_4D: u32 = 64;

/// A validated array shape: `dims` (2 or 4) indices, each in `0..w`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    dims: u32,
    w: u32,
}

impl Shape {
    /// Validates `dims` (2 or 4) and `w` (2 to 4096 for 2, 2 to 64 for 4).
    pub fn new(dims: u32, w: u32) -> Result<Self, Error> {
        let max = match dims {
            2 => MAX_W_2D,
            4 => MAX_W_4D,
            _ => {
                return Err(Error::OutOfRange {
                    name: "dims".into(),
                    value: dims.to_string(),
                    allowed: "2 (a w x w matrix) or 4 (a w^4 array)".into(),
                })
            }
        };
        if !(2..=max).contains(&w) {
            return Err(Error::OutOfRange {
                name: "w".into(),
                value: w.to_string(),
                allowed: format!("2 to {max} for {dims} dimensions"),
            });
        }
        Ok(Self { dims, w })
    }

    /// Number of indices.
    pub fn dims(self) -> u32 {
        self.dims
    }

    /// Width of each index, the warp size and the bank count.
    pub fn w(self) -> u32 {
        self.w
    }

    /// Number of rows, `w^(dims-1)`.
    pub fn rows(self) -> u64 {
        u64::from(self.w).pow(self.dims - 1)
    }

    /// Number of elements, `w^dims`.
    pub fn elements(self) -> u64 {
        u64::from(self.w).pow(self.dims)
    }

    /// The linear index of a row, `(i * w + j) * w + k` (always `k` for a matrix).
    pub fn row_index(self, row: Row) -> u64 {
        let w = u64::from(self.w);
        (u64::from(row[0]) * w + u64::from(row[1])) * w + u64::from(row[2])
    }

    /// Every row in lexicographic order.
    pub fn all_rows(self) -> impl Iterator<Item = Row> {
        let w = self.w;
        let outer = if self.dims == 4 { w } else { 1 };
        (0..outer).flat_map(move |i| (0..outer).flat_map(move |j| (0..w).map(move |k| [i, j, k])))
    }
}

/// A row's indices `[i, j, k]`, right-aligned: a matrix row is `[0, 0, k]`.
pub type Row = [u32; 3];

/// One random quantity a row's shift adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// Entry `index` of the uniformly random permutation number `group`.
    Perm {
        /// Which permutation.
        group: u32,
        /// Which entry of it.
        index: u32,
    },
    /// The independent uniform value number `key`.
    Uniform {
        /// Which value.
        key: u32,
    },
}

/// The random quantities a row's shift is the sum of (mod `w`); see [`Form::canonical`] to
/// compare two forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Form {
    terms: [Term; 3],
    len: u8,
}

impl Form {
    #[inline]
    fn new(terms: [Term; 3], len: u8) -> Self {
        Self { terms, len }
    }

    /// The terms, in the scheme's order.
    #[inline]
    pub fn terms(&self) -> &[Term] {
        &self.terms[..self.len as usize]
    }

    /// The same form with its terms sorted and the unused slots cleared: equal canonical forms
    /// mean equal shifts whatever the random draw (`r_0 + r_1` and `r_1 + r_0` compare equal).
    pub fn canonical(mut self) -> Self {
        let len = self.len as usize;
        self.terms[..len].sort_unstable();
        for t in &mut self.terms[len..] {
            *t = Term::Uniform { key: 0 };
        }
        self
    }
}

/// A layout of the array: the random row shift `f`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    /// RAW: `f = 0`, the conventional row-major layout.
    Raw,
    /// RAS: an independent uniform shift per row (`w^(dims-1)` random numbers).
    Ras,
    /// RAP on a matrix: `f(k) = r_k` for a random permutation `r`.
    Rap,
    /// 1P: `f(i, j, k) = r_k`.
    OneP,
    /// R1P: `f(i, j, k) = r_i + r_j + r_k` with one permutation `r`.
    R1p,
    /// 3P: `f(i, j, k) = r_i + s_j + t_k` with three independent permutations.
    ThreeP,
    /// w²P: `f(i, j, k) = r^(i*w+j)_k` with `w^2` independent permutations.
    W2p,
    /// 1Pw²R: `f(i, j, k) = s_(i*w+j) + r_k`, one permutation and `w^2` uniform values.
    OnePW2r,
}

impl Scheme {
    /// Every scheme, matrix schemes first.
    pub const ALL: [Scheme; 8] = [
        Scheme::Raw,
        Scheme::Ras,
        Scheme::Rap,
        Scheme::OneP,
        Scheme::R1p,
        Scheme::ThreeP,
        Scheme::W2p,
        Scheme::OnePW2r,
    ];
    /// The columns of the paper's Table II.
    pub const TABLE_II: [Scheme; 3] = [Scheme::Raw, Scheme::Ras, Scheme::Rap];
    /// The columns of the paper's Table IV.
    pub const TABLE_IV: [Scheme; 7] = [
        Scheme::Raw,
        Scheme::Ras,
        Scheme::OneP,
        Scheme::R1p,
        Scheme::ThreeP,
        Scheme::W2p,
        Scheme::OnePW2r,
    ];

    /// The name on the command line and in JSON: `raw`, `ras`, `rap`, `1p`, `r1p`, `3p`,
    /// `w2p`, `1pw2r`.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Raw => "raw",
            Scheme::Ras => "ras",
            Scheme::Rap => "rap",
            Scheme::OneP => "1p",
            Scheme::R1p => "r1p",
            Scheme::ThreeP => "3p",
            Scheme::W2p => "w2p",
            Scheme::OnePW2r => "1pw2r",
        }
    }

    /// Whether the scheme is defined for `dims` dimensions: RAW and RAS for both, RAP for
    /// matrices, the section VII schemes for `w^4` arrays.
    pub fn supports(self, dims: u32) -> bool {
        match self {
            Scheme::Raw | Scheme::Ras => true,
            Scheme::Rap => dims == 2,
            _ => dims == 4,
        }
    }

    /// The random numbers the scheme stores (Table IV's last row; a matrix's RAS and RAP: `w`).
    pub fn random_numbers(self, shape: Shape) -> u64 {
        let w = u64::from(shape.w());
        match self {
            Scheme::Raw => 0,
            Scheme::Ras => shape.rows(),
            Scheme::Rap | Scheme::OneP | Scheme::R1p => w,
            Scheme::ThreeP => 3 * w,
            Scheme::W2p => w * w * w,
            Scheme::OnePW2r => w * w + w,
        }
    }

    /// How many independent permutations of `0..w` the scheme draws.
    pub fn permutations(self, shape: Shape) -> u32 {
        match self {
            Scheme::Raw | Scheme::Ras => 0,
            Scheme::Rap | Scheme::OneP | Scheme::R1p | Scheme::OnePW2r => 1,
            Scheme::ThreeP => 3,
            Scheme::W2p => shape.w() * shape.w(),
        }
    }

    /// How many independent uniform values the scheme draws.
    pub fn uniform_values(self, shape: Shape) -> u32 {
        match self {
            Scheme::Ras => shape.rows() as u32,
            Scheme::OnePW2r => shape.w() * shape.w(),
            _ => 0,
        }
    }

    /// The random quantities row `row`'s shift is the sum of.
    #[inline]
    pub fn form(self, shape: Shape, row: Row) -> Form {
        let [i, j, k] = row;
        let w = shape.w();
        let p = |group, index| Term::Perm { group, index };
        let none = Term::Uniform { key: 0 };
        match self {
            Scheme::Raw => Form::new([none; 3], 0),
            Scheme::Ras => Form::new(
                [
                    Term::Uniform {
                        key: shape.row_index(row) as u32,
                    },
                    none,
                    none,
                ],
                1,
            ),
            Scheme::Rap | Scheme::OneP => Form::new([p(0, k), none, none], 1),
            Scheme::R1p => Form::new([p(0, i), p(0, j), p(0, k)], 3),
            Scheme::ThreeP => Form::new([p(0, i), p(1, j), p(2, k)], 3),
            Scheme::W2p => Form::new([p(i * w + j, k), none, none], 1),
            Scheme::OnePW2r => Form::new([Term::Uniform { key: i * w + j }, p(0, k), none], 2),
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scheme {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let all = Scheme::ALL;
        let key = s.trim().to_ascii_lowercase().replace(['^', '²'], "2");
        let key = key.replace("w22", "w2");
        all.into_iter().find(|x| x.name() == key).ok_or_else(|| {
            format!(
                "unknown scheme `{s}`: expected one of {}",
                all.map(Scheme::name).join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_validated() {
        assert_eq!(Shape::new(4, 32).unwrap().rows(), 32 * 32 * 32);
        assert_eq!(Shape::new(2, 16).unwrap().elements(), 256);
        assert!(Shape::new(3, 16).is_err());
        assert!(Shape::new(2, 1).is_err());
        let err = Shape::new(4, 128).unwrap_err().to_string();
        assert!(err.contains("w = 128") && err.contains("2 to 64"), "{err}");
        assert_eq!(Shape::new(2, 4).unwrap().all_rows().count(), 4);
        assert_eq!(Shape::new(4, 3).unwrap().all_rows().nth(4), Some([0, 1, 1]));
    }

    #[test]
    fn names_round_trip_and_table_iv_counts_random_numbers() {
        for s in Scheme::TABLE_IV.into_iter().chain([Scheme::Rap]) {
            assert_eq!(s.name().parse::<Scheme>().unwrap(), s);
        }
        assert_eq!("w^2P".parse::<Scheme>().unwrap(), Scheme::W2p);
        assert_eq!("1Pw^2R".parse::<Scheme>().unwrap(), Scheme::OnePW2r);
        assert!("4p"
            .parse::<Scheme>()
            .unwrap_err()
            .contains("raw, ras, rap"));
        let s = Shape::new(4, 32).unwrap();
        let w = 32u64;
        let counts: Vec<u64> = Scheme::TABLE_IV
            .iter()
            .map(|x| x.random_numbers(s))
            .collect();
        assert_eq!(
            counts,
            vec![0, w * w * w, w, w, 3 * w, w * w * w, w * w + w]
        );
    }

    #[test]
    fn r1p_forms_ignore_the_order_of_the_indices() {
        let s = Shape::new(4, 8).unwrap();
        let f = Scheme::R1p.form(s, [0, 1, 2]).canonical();
        assert_eq!(f, Scheme::R1p.form(s, [2, 1, 0]).canonical());
        assert_ne!(
            Scheme::ThreeP.form(s, [0, 1, 2]).canonical(),
            Scheme::ThreeP.form(s, [2, 1, 0]).canonical()
        );
        assert_eq!(Scheme::Raw.form(s, [1, 2, 3]).terms(), &[]);
    }
}
