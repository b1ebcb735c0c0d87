//! The tile a layout arranges: `rows x cols` elements of `elem_bytes` bytes, row-major when
//! unswizzled (element `(r, c)` at logical byte offset `(r * cols + c) * elem_bytes`).

use std::fmt;
use std::str::FromStr;

/// Largest tile: 256 KiB, more than one SM's shared memory (228 KiB on an H100).
pub const MAX_TILE_BYTES: u64 = 1 << 18;
/// Smallest tile: one pass over the 32 banks, 128 bytes.
pub const MIN_TILE_BYTES: u64 = 128;
/// Element sizes a tile may hold.
pub const ELEM_BYTES: [u32; 5] = [1, 2, 4, 8, 16];

/// A validated tile shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tile {
    rows: u64,
    cols: u64,
    elem_bytes: u32,
}

/// The rows and columns of a tile as written on the command line, `64x64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileShape {
    /// Rows.
    pub rows: u64,
    /// Columns (elements per row).
    pub cols: u64,
}

impl FromStr for TileShape {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}` is not ROWSxCOLS with both powers of two, e.g. 64x64");
        let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let rows: u64 = r.trim().parse().map_err(|_| bad())?;
        let cols: u64 = c.trim().parse().map_err(|_| bad())?;
        if !rows.is_power_of_two() || !cols.is_power_of_two() {
            return Err(bad());
        }
        Ok(Self { rows, cols })
    }
}

impl fmt::Display for TileShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl Tile {
    /// A tile of `shape` with elements of `elem_bytes` bytes; its size must be a power of two
    /// from [`MIN_TILE_BYTES`] to [`MAX_TILE_BYTES`].
    pub fn new(shape: TileShape, elem_bytes: u32) -> Result<Self, String> {
        if !ELEM_BYTES.contains(&elem_bytes) {
            return Err(format!(
                "element size {elem_bytes}: allowed 1, 2, 4, 8 or 16 bytes"
            ));
        }
        let bytes = shape
            .rows
            .checked_mul(shape.cols)
            .and_then(|e| e.checked_mul(u64::from(elem_bytes)));
        match bytes {
            Some(b) if (MIN_TILE_BYTES..=MAX_TILE_BYTES).contains(&b) => Ok(Self {
                rows: shape.rows,
                cols: shape.cols,
                elem_bytes,
            }),
            _ => Err(format!(
                "a {shape} tile of {elem_bytes}-byte elements holds {} bytes: allowed {MIN_TILE_BYTES} to {MAX_TILE_BYTES}",
                bytes.map_or_else(|| "too many".to_string(), |b| b.to_string())
            )),
        }
    }

    /// Rows.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Elements per row.
    pub fn cols(&self) -> u64 {
        self.cols
    }

    /// Bytes per element.
    pub fn elem_bytes(&self) -> u32 {
        self.elem_bytes
    }

    /// The shape, `rows x cols`.
    pub fn shape(&self) -> TileShape {
        TileShape {
            rows: self.rows,
            cols: self.cols,
        }
    }

    /// Elements in the tile.
    pub fn elements(&self) -> u64 {
        self.rows * self.cols
    }

    /// Bytes per row.
    pub fn row_bytes(&self) -> u64 {
        self.cols * u64::from(self.elem_bytes)
    }

    /// Bytes in the tile.
    pub fn bytes(&self) -> u64 {
        self.elements() * u64::from(self.elem_bytes)
    }

    /// Byte-offset bits `n`.
    pub fn offset_bits(&self) -> u32 {
        self.bytes().trailing_zeros()
    }

    /// `log2(elem_bytes)`: the low byte-offset bits inside one element.
    pub fn elem_shift(&self) -> u32 {
        self.elem_bytes.trailing_zeros()
    }

    /// Element-offset bits: `log2(rows * cols)`.
    pub fn element_bits(&self) -> u32 {
        self.elements().trailing_zeros()
    }

    /// Column bits `log2(cols)`.
    pub fn col_bits(&self) -> u32 {
        self.cols.trailing_zeros()
    }

    /// The logical byte offset of element `(row, col)`.
    pub fn offset(&self, row: u64, col: u64) -> u64 {
        (row * self.cols + col) * u64::from(self.elem_bytes)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} x {} B", self.rows, self.cols, self.elem_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_bounds_tiles() {
        let s: TileShape = "64x64".parse().unwrap();
        let t = Tile::new(s, 2).unwrap();
        assert_eq!(
            (t.bytes(), t.offset_bits(), t.element_bits()),
            (8192, 13, 12)
        );
        assert_eq!(t.offset(1, 3), 134);
        assert!("64x63".parse::<TileShape>().is_err());
        assert!("64".parse::<TileShape>().is_err());
        assert!(Tile::new("4x4".parse().unwrap(), 2).is_err());
        assert!(Tile::new("1024x1024".parse().unwrap(), 4).is_err());
        assert!(Tile::new(s, 3).is_err());
    }
}
