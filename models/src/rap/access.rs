//! The warp accesses of the paper's Tables II and IV: which `w` elements the `w` threads of a
//! warp touch.

use super::scheme::{Row, Shape};
use std::fmt;

/// An element: its row (right-aligned `[i, j, k]`) and its column `l`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Element {
    /// The row indices.
    pub row: Row,
    /// The column (last index).
    pub col: u32,
}

impl Element {
    /// The element's row-major index (its RAW address), `row_index * w + col`.
    pub fn index(&self, shape: Shape) -> u64 {
        shape.row_index(self.row) * u64::from(shape.w()) + u64::from(self.col)
    }
}

/// A warp access pattern. Thread `t` of the warp (`0..w`) touches one element; the indices a
/// pattern holds fixed (which row, which column) are drawn uniformly for every trial, so a
/// trial is one warp of the whole access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pattern {
    /// Contiguous: one row, `a[i][j][k][t]` (`a[k][t]` in a matrix).
    Contiguous,
    /// Stride along index `dims - 1 - axis`: `stride1` is `a[i][j][t][l]` (a matrix's
    /// `stride`, `a[t][l]`), `stride2` is `a[i][t][k][l]`, `stride3` is `a[t][j][k][l]`.
    Stride(u8),
    /// Diagonal (matrices only): `a[t][(c + t) mod w]`.
    Diagonal,
    /// Random: every thread an independent uniformly random element; threads that pick the same
    /// element merge.
    Random,
    /// Malicious: the worst case the scheme's structure allows (see `malicious`).
    Malicious,
}

impl Pattern {
    /// The columns of the paper's Table II.
    pub const TABLE_II: [Pattern; 4] = [
        Pattern::Contiguous,
        Pattern::Stride(1),
        Pattern::Diagonal,
        Pattern::Random,
    ];
    /// The rows of the paper's Table IV.
    pub const TABLE_IV: [Pattern; 6] = [
        Pattern::Contiguous,
        Pattern::Stride(1),
        Pattern::Stride(2),
        Pattern::Stride(3),
        Pattern::Random,
        Pattern::Malicious,
    ];

    /// The name for `dims` dimensions: `contiguous`, `stride` (matrix) or `stride1`..`stride3`,
    /// `diagonal`, `random`, `malicious`.
    pub fn name(self, dims: u32) -> String {
        match self {
            Pattern::Contiguous => "contiguous".into(),
            Pattern::Stride(1) if dims == 2 => "stride".into(),
            Pattern::Stride(a) => format!("stride{a}"),
            Pattern::Diagonal => "diagonal".into(),
            Pattern::Random => "random".into(),
            Pattern::Malicious => "malicious".into(),
        }
    }

    /// Every name [`Pattern::parse`] takes.
    pub const NAMES: [&'static str; 8] = [
        "contiguous",
        "stride",
        "stride1",
        "stride2",
        "stride3",
        "diagonal",
        "random",
        "malicious",
    ];

    /// Parses a name (`stride` is `stride1`).
    pub fn parse(s: &str) -> Result<Pattern, String> {
        let key = s.trim().to_ascii_lowercase();
        Ok(match key.as_str() {
            "contiguous" => Pattern::Contiguous,
            "stride" | "stride1" => Pattern::Stride(1),
            "stride2" => Pattern::Stride(2),
            "stride3" => Pattern::Stride(3),
            "diagonal" => Pattern::Diagonal,
            "random" => Pattern::Random,
            "malicious" => Pattern::Malicious,
            _ => {
                return Err(format!(
                    "unknown pattern `{s}`: expected one of {}",
                    Pattern::NAMES.join(", ")
                ))
            }
        })
    }

    /// Every pattern, in the order the names are listed.
    pub const ALL: [Pattern; 7] = [
        Pattern::Contiguous,
        Pattern::Stride(1),
        Pattern::Stride(2),
        Pattern::Stride(3),
        Pattern::Diagonal,
        Pattern::Random,
        Pattern::Malicious,
    ];

    /// The names of the patterns of `dims` dimensions, as [`Pattern::name`] spells them.
    pub fn names_for(dims: u32) -> Vec<String> {
        Pattern::ALL
            .into_iter()
            .filter(|p| p.supports(dims))
            .map(|p| p.name(dims))
            .collect()
    }

    /// Parses a name as it is spelled for `dims` dimensions: `stride` for a matrix (`--dims
    /// 2`), `stride1` to `stride3` for a w^4 array (`--dims 4`); a name of the other shape, or
    /// a pattern `dims` does not have, is refused with the names it does have.
    pub fn parse_for(s: &str, dims: u32) -> Result<Pattern, crate::Error> {
        let key = s.trim().to_ascii_lowercase();
        Pattern::ALL
            .into_iter()
            .find(|p| p.supports(dims) && p.name(dims) == key)
            .ok_or_else(|| crate::Error::OutOfRange {
                name: "pattern".into(),
                value: s.into(),
                allowed: format!("{} for --dims {dims}", Pattern::names_for(dims).join(", ")),
            })
    }

    /// Whether the pattern is defined for `dims` dimensions.
    pub fn supports(self, dims: u32) -> bool {
        match self {
            Pattern::Stride(a) => u32::from(a) < dims,
            Pattern::Diagonal => dims == 2,
            _ => true,
        }
    }

    /// Whether two threads may touch the same element (only [`Pattern::Random`]).
    pub fn may_repeat(self) -> bool {
        self == Pattern::Random
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name(4))
    }
}

impl std::str::FromStr for Pattern {
    type Err = String;

    /// [`Pattern::parse`].
    fn from_str(s: &str) -> Result<Self, String> {
        Pattern::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_spelled_for_their_dimensions() {
        assert_eq!(Pattern::parse_for("stride", 2), Ok(Pattern::Stride(1)));
        assert_eq!(Pattern::parse_for("stride1", 4), Ok(Pattern::Stride(1)));
        assert_eq!(Pattern::parse_for("Stride3", 4), Ok(Pattern::Stride(3)));
        for (name, dims) in [
            ("stride", 4),
            ("stride1", 2),
            ("stride2", 2),
            ("diagonal", 4),
        ] {
            let e = Pattern::parse_for(name, dims).unwrap_err().to_string();
            assert!(
                e.contains(name) && e.contains(&format!("--dims {dims}")),
                "{e}"
            );
        }
        for dims in [2, 4] {
            for name in Pattern::names_for(dims) {
                assert_eq!(Pattern::parse_for(&name, dims).unwrap().name(dims), name);
            }
        }
    }
}
