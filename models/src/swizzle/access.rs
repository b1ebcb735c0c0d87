//! The warp accesses a tile is read and written with: rows, columns and `ldmatrix` fragments,
//! each thread moving a vector of 4, 8 or 16 bytes, or any trace.
//!
//! A thread's vector is `width` consecutive bytes of one row, starting at a `width`-aligned
//! logical offset. A tile is cut into such chunks; the accesses walk them:
//!
//! - **rows**: the chunks in row-major order, 32 to a warp access (a coalesced copy);
//! - **cols**: the chunks in column-major order, 32 to a warp access (thread `t` one row below
//!   thread `t - 1`: a transposed read);
//! - **ldmatrix**: the 16-byte rows of `ldmatrix.x4`: per 16-row x 32-byte block, thread `t`
//!   gives row `t % 16` and 16-byte column `t / 16` (the four 8x8 matrices of an `mma.m16n8k16`
//!   A fragment; `.trans` reads the same addresses).

use super::tile::Tile;
use std::fmt;

/// Threads in a warp.
pub const WARP: usize = 32;
/// Vector widths a thread may move, in bytes.
pub const WIDTHS: [u32; 3] = [4, 8, 16];

/// How a tile is walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    /// Row-major chunks.
    Rows,
    /// Column-major chunks.
    Cols,
    /// `ldmatrix.x4` fragments (16-byte rows; the instruction, not `ld.shared`).
    Ldmatrix,
    /// Lines of a trace file.
    Trace,
}

impl AccessKind {
    /// `rows`, `cols`, `ldmatrix` or `trace`.
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Rows => "rows",
            AccessKind::Cols => "cols",
            AccessKind::Ldmatrix => "ldmatrix",
            AccessKind::Trace => "trace",
        }
    }
}

impl fmt::Display for AccessKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One warp access: the logical byte offset where each thread's vector starts, thread 0 first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpAccess {
    /// Where it comes from (`rows[3]`, a trace label).
    pub label: String,
    /// Logical byte offsets, one per active thread.
    pub offsets: Vec<u64>,
}

/// All warp accesses of one kind and width over a tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessSet {
    /// How the tile is walked.
    pub kind: AccessKind,
    /// Bytes per thread.
    pub width: u32,
    /// The warp accesses, in order.
    pub warps: Vec<WarpAccess>,
}

impl AccessSet {
    /// `rows@16`, `ldmatrix`.
    pub fn name(&self) -> String {
        match self.kind {
            AccessKind::Ldmatrix => "ldmatrix".into(),
            k => format!("{k}@{}", self.width),
        }
    }

    /// Whether the threads use `ldmatrix` rather than `ld.shared`/`st.shared`.
    pub fn is_ldmatrix(&self) -> bool {
        self.kind == AccessKind::Ldmatrix
    }

    /// The accesses of `kind` with `width`-byte vectors over `tile` (`ldmatrix` is always 16
    /// bytes). Refuses a tile too small for a full warp, or rows narrower than a vector.
    pub fn generate(kind: AccessKind, width: u32, tile: &Tile) -> Result<Self, String> {
        let width = if kind == AccessKind::Ldmatrix {
            16
        } else {
            width
        };
        if !WIDTHS.contains(&width) {
            return Err(format!("vector width {width}: allowed 4, 8 or 16 bytes"));
        }
        let w = u64::from(width);
        let row_bytes = tile.row_bytes();
        let chunks = tile.bytes() / w;
        let per_row = row_bytes / w;
        if tile.bytes() < WARP as u64 * w {
            return Err(format!(
                "a {tile} tile holds {} bytes: fewer than one warp of {width}-byte vectors ({})",
                tile.bytes(),
                WARP as u64 * w
            ));
        }
        if per_row == 0 {
            return Err(format!(
                "rows of {row_bytes} bytes are narrower than a {width}-byte vector"
            ));
        }
        let warps: Vec<WarpAccess> = match kind {
            AccessKind::Rows => (0..chunks / WARP as u64)
                .map(|j| WarpAccess {
                    label: format!("rows[{j}]"),
                    offsets: (0..WARP as u64)
                        .map(|t| (j * WARP as u64 + t) * w)
                        .collect(),
                })
                .collect(),
            AccessKind::Cols => (0..chunks / WARP as u64)
                .map(|j| WarpAccess {
                    label: format!("cols[{j}]"),
                    offsets: (0..WARP as u64)
                        .map(|t| {
                            let q = j * WARP as u64 + t;
                            (q % tile.rows()) * row_bytes + (q / tile.rows()) * w
                        })
                        .collect(),
                })
                .collect(),
            AccessKind::Ldmatrix => {
                if tile.rows() < 16 || row_bytes < 32 {
                    return Err(format!(
                        "ldmatrix reads 16-row x 32-byte blocks: a {tile} tile has {} rows of {row_bytes} bytes",
                        tile.rows()
                    ));
                }
                let across = row_bytes / 32;
                (0..(tile.rows() / 16) * across)
                    .map(|b| {
                        let (br, bc) = (b / across, b % across);
                        WarpAccess {
                            label: format!("ldmatrix[{b}]"),
                            offsets: (0..WARP as u64)
                                .map(|t| (br * 16 + t % 16) * row_bytes + bc * 32 + (t / 16) * 16)
                                .collect(),
                        }
                    })
                    .collect()
            }
            AccessKind::Trace => {
                return Err("trace accesses come from a trace file (AccessSet::from_trace)".into())
            }
        };
        Ok(Self { kind, width, warps })
    }

    /// The accesses of a trace whose addresses are logical **element** offsets in the tile
    /// (each line a warp access, docs/TRACE_FORMAT.md), every thread moving `width` bytes.
    pub fn from_trace(
        trace: &crate::search::Trace,
        width: u32,
        tile: &Tile,
    ) -> Result<Self, String> {
        if !WIDTHS.contains(&width) {
            return Err(format!("vector width {width}: allowed 4, 8 or 16 bytes"));
        }
        let eb = u64::from(tile.elem_bytes());
        let mut warps = Vec::with_capacity(trace.accesses.len());
        for (i, a) in trace.accesses.iter().enumerate() {
            let mut offsets = Vec::with_capacity(a.addresses.len());
            for &e in &a.addresses {
                let offset = e * eb;
                let problem = if e >= tile.elements() {
                    format!("is outside the {} elements of the tile", tile.elements())
                } else if offset % u64::from(width) != 0 {
                    format!("starts at byte {offset}, not on a {width}-byte vector")
                } else {
                    String::new()
                };
                if !problem.is_empty() {
                    return Err(format!(
                        "access {} (`{}`): element {e} {problem}",
                        i + 1,
                        a.label
                    ));
                }
                offsets.push(offset);
            }
            warps.push(WarpAccess {
                label: a.label.clone(),
                offsets,
            });
        }
        Ok(Self {
            kind: AccessKind::Trace,
            width,
            warps,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swizzle::tile::TileShape;

    fn tile(shape: &str, eb: u32) -> Tile {
        Tile::new(shape.parse::<TileShape>().unwrap(), eb).unwrap()
    }

    #[test]
    fn walks_rows_columns_and_fragments() {
        let t = tile("64x64", 2);
        let rows = AccessSet::generate(AccessKind::Rows, 16, &t).unwrap();
        assert_eq!(rows.warps.len(), 16);
        assert_eq!(rows.warps[1].offsets[0], 512);
        let cols = AccessSet::generate(AccessKind::Cols, 4, &t).unwrap();
        assert_eq!(cols.warps.len(), 64);
        // Warp 1 continues down the first column: rows 32..63.
        assert_eq!(cols.warps[1].offsets[..2], [32 * 128, 33 * 128]);
        assert_eq!(cols.warps[2].offsets[0], 4);
        let ld = AccessSet::generate(AccessKind::Ldmatrix, 4, &t).unwrap();
        assert_eq!((ld.width, ld.warps.len()), (16, 16));
        assert_eq!(ld.warps[0].offsets[..2], [0, 128]);
        assert_eq!(ld.warps[0].offsets[16], 16);
        assert_eq!(ld.warps[1].offsets[0], 32);
        assert!(AccessSet::generate(AccessKind::Rows, 16, &tile("8x8", 2)).is_err());
        assert!(AccessSet::generate(AccessKind::Rows, 12, &t).is_err());
    }

    #[test]
    fn reads_element_offsets_from_a_trace() {
        let t = tile("64x64", 2);
        let trace = crate::search::Trace::parse("a 0 8 16\n", 12, 32).unwrap();
        let set = AccessSet::from_trace(&trace, 16, &t).unwrap();
        assert_eq!(set.warps[0].offsets, [0, 16, 32]);
        let odd = crate::search::Trace::parse("a 4\n", 12, 32).unwrap();
        assert!(AccessSet::from_trace(&odd, 16, &t)
            .unwrap_err()
            .contains("element 4"));
    }
}
