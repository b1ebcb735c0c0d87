//! The data a transfer moves: for every element of a buffer, where it lands in shared memory and
//! what it holds (a global element, a halo constant, or the zero of an out-of-bounds fill), and
//! the image of shared memory after the transfer.
//!
//! This model is written from the entry's fields alone (row-major over the walked tile, halo
//! included), not from the AGEN's chunks ([`super::transfer`]), so that the chunk walk and the
//! engine's data path are both checked against an independent statement of the result.
//!
//! - **Halo constants**: an element of an exterior halo (the tile's region touches that border,
//!   [`region_borders`]) holds `halo_const` zero-extended to the element size (little-endian: a
//!   1-byte element holds its low byte).
//! - **Out-of-bounds fill** ([`Extent`], the engine's optional fourth configuration command,
//!   part 3): the global tensor ends `rows x cols` elements from the tile's base (1-D: `cols`
//!   elements). A global element at tile row `r >= rows` or column `c >= cols` (walk position
//!   minus the halo) lies past the end and is stored as zero, as the out-of-bounds fill of
//!   Hopper's TMA does; halo constants stay constants. Elements before the base (a halo's top
//!   or left side) are inside: the end is the only bound, as for TMA's box starting at a
//!   non-negative coordinate.

use super::entry::{region_borders, BufferEntry, Mode};
use crate::Error;
use std::collections::BTreeMap;

/// Bits of the extent field carried by the fourth configuration command: the extent (16 bits,
/// encoded as the entry's `count`) and an enable bit above it.
pub const EXTENT_FIELD_BITS: u32 = 17;

/// The global extent past the tile's base: elements beyond it are filled with zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// Rows of the tensor from the tile's first row (1 for a 1-D transfer).
    pub rows: u32,
    /// Columns of the tensor from the tile's first column (1-D: elements from the base).
    pub cols: u32,
}

impl Extent {
    /// Checks that the extent fits the entry's encoding: 1-D, one row and at most 65535
    /// elements; 2-D, at most 255 rows and 255 columns (the `count` field's halves); none zero.
    pub fn validate(&self, entry: &BufferEntry) -> Result<(), Error> {
        let bad = |name: &str, value: u32, allowed: &str| {
            Err(Error::OutOfRange {
                name: name.into(),
                value: value.to_string(),
                allowed: allowed.into(),
            })
        };
        let (max_rows, max_cols) = if entry.two_d { (255, 255) } else { (1, 65535) };
        if self.rows == 0 || self.rows > max_rows {
            let allowed = if entry.two_d {
                "1 to 255 rows (2-D)"
            } else {
                "1 (a 1-D extent has one row)"
            };
            return bad("extent_rows", self.rows, allowed);
        }
        if self.cols == 0 || self.cols > max_cols {
            let allowed = if entry.two_d {
                "1 to 255 columns (2-D)"
            } else {
                "1 to 65535 elements (1-D)"
            };
            return bad("extent_cols", self.cols, allowed);
        }
        Ok(())
    }

    /// The 17-bit configuration value of part 3: bit 16 enables the fill, bits 15:0 hold the
    /// extent as the entry's `count` holds a shape (2-D: rows in 15:8, columns in 7:0).
    pub fn field(&self, two_d: bool) -> u64 {
        let extent = if two_d {
            (self.rows << 8) | self.cols
        } else {
            self.cols
        };
        1 << 16 | u64::from(extent)
    }

    /// Whether the element at tile row `r`, column `c` (signed: a halo is before the base)
    /// lies past the end.
    pub fn outside(&self, r: i64, c: i64) -> bool {
        r >= i64::from(self.rows) || c >= i64::from(self.cols)
    }
}

/// What one element holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The element at this global byte address.
    Global(u64),
    /// A halo constant (already zero-extended to the element).
    Constant(u64),
    /// Zero: the element lies past the global extent.
    Zero,
}

/// One element of a transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    /// Shared byte address of its first byte.
    pub shared: u16,
    /// Its size in bytes.
    pub bytes: u32,
    /// What it holds.
    pub source: Source,
}

/// Every element of the transfer of a valid `entry`, in walk order (row-major over the tile and
/// its halo), with the out-of-bounds fill of `extent`. Refuses an invalid entry or an extent
/// that does not fit the entry.
pub fn elements(entry: &BufferEntry, extent: Option<Extent>) -> Result<Vec<Element>, Error> {
    let s = entry.validate()?;
    if let Some(x) = &extent {
        x.validate(entry)?;
    }
    let borders = match entry.mode() {
        Some(Mode::Halo) => region_borders(entry.region).unwrap_or([false; 4]),
        _ => [false; 4],
    };
    let size = s.elem_bytes;
    let constant = u64::from(entry.halo_const) & mask(size);
    let (hr, hc) = (s.halo_rows as i64, s.halo_cols as i64);
    let mut out = Vec::new();
    for i in 0..s.walk_rows() as i64 {
        for j in 0..s.walk_cols() as i64 {
            let (r, c) = (i - hr, j - hc);
            let k = (i * s.walk_cols() as i64 + j) as u64;
            let exterior = (borders[0] && r < 0)
                || (borders[2] && r >= s.rows as i64)
                || (borders[3] && c < 0)
                || (borders[1] && c >= s.cols as i64);
            let source = if exterior {
                Source::Constant(constant)
            } else if extent.is_some_and(|x| x.outside(r, c)) {
                Source::Zero
            } else {
                let offset = (r * s.row_stride as i64 + c * s.elem_stride as i64) * size as i64;
                Source::Global(entry.global.wrapping_add(offset as u64))
            };
            out.push(Element {
                shared: (u64::from(entry.shared) + entry.slot(k) * size) as u16,
                bytes: size as u32,
                source,
            });
        }
    }
    Ok(out)
}

/// The bytes the transfer writes to shared memory (byte address -> value), reading global
/// memory through `global` (one byte per address). Blank bank slots are not written.
pub fn shared_image(
    entry: &BufferEntry,
    extent: Option<Extent>,
    global: impl Fn(u64) -> u8,
) -> Result<BTreeMap<u16, u8>, Error> {
    let mut image = BTreeMap::new();
    for e in elements(entry, extent)? {
        for b in 0..e.bytes {
            let value = match e.source {
                Source::Global(g) => global(g.wrapping_add(u64::from(b))),
                Source::Constant(v) => (v >> (8 * b)) as u8,
                Source::Zero => 0,
            };
            image.insert(e.shared.wrapping_add(b as u16), value);
        }
    }
    Ok(image)
}

/// The low `bytes` bytes set.
fn mask(bytes: u64) -> u64 {
    if bytes >= 8 {
        u64::MAX
    } else {
        (1 << (8 * bytes)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::super::transfer::tests::{halo_tile, sgemv};
    use super::*;

    /// A byte of global memory that names its address.
    fn pattern(addr: u64) -> u8 {
        (addr ^ (addr >> 8) ^ (addr >> 16)) as u8
    }

    /// Fig. 8's vector: 256 floats land densely from the shared base, byte for byte.
    #[test]
    fn sgemv_vector_lands_densely() {
        let image = shared_image(&sgemv(256), None, pattern).unwrap();
        assert_eq!(image.len(), 1024);
        for b in 0..1024u64 {
            assert_eq!(image[&(0x100 + b as u16)], pattern(0x8000 + b));
        }
    }

    /// A 1-D extent of 10 elements zeroes elements 10 and beyond.
    #[test]
    fn one_d_out_of_bounds_fill() {
        let x = Extent { rows: 1, cols: 10 };
        let el = elements(&sgemv(16), Some(x)).unwrap();
        assert_eq!(el[9].source, Source::Global(0x8000 + 36));
        assert!(el[10..].iter().all(|e| e.source == Source::Zero));
        // An extent at or past the end fills nothing.
        let el = elements(&sgemv(16), Some(Extent { rows: 1, cols: 16 })).unwrap();
        assert!(el.iter().all(|e| matches!(e.source, Source::Global(_))));
    }

    /// A 4 x 4 tile with a 1 x 1 halo in region 9 (interior, no constants) whose tensor ends
    /// 3 rows and 2 columns from the base: halo row 4 and column 4 and tile rows 3, columns 2
    /// and 3 are past the end; the top-left halo (before the base) is fetched.
    #[test]
    fn two_d_halo_out_of_bounds_fill() {
        let e = halo_tile(9);
        let el = elements(&e, Some(Extent { rows: 3, cols: 2 })).unwrap();
        assert_eq!(el.len(), 36);
        for (k, x) in el.iter().enumerate() {
            let (r, c) = (k as i64 / 6 - 1, k as i64 % 6 - 1);
            let zero = r >= 3 || c >= 2;
            assert_eq!(x.source == Source::Zero, zero, "({r},{c})");
            if !zero {
                let g = 0x10000 + (r * 64 + c) * 4;
                assert_eq!(x.source, Source::Global(g as u64));
            }
        }
        // Region 5 (bottom-right): the exterior halo stays the constant, even past the end.
        let el = elements(
            &BufferEntry { region: 5, ..e },
            Some(Extent { rows: 3, cols: 2 }),
        )
        .unwrap();
        assert_eq!(el[35].source, Source::Constant(0x7f));
        assert_eq!(el[4 * 6 + 3].source, Source::Zero);
    }

    /// Halo constants are zero-extended to the element: 0xbeef in a 1-byte element is 0xef.
    #[test]
    fn halo_constant_takes_the_element_size() {
        let e = BufferEntry {
            global: 0x10000,
            shared: 0,
            count: 2 << 8 | 2,
            size: 0,
            stride: 64,
            two_d: true,
            mode: 1,
            halo_rows: 1,
            halo_cols: 1,
            region: 1,
            halo_const: 0xbeef,
        };
        let image = shared_image(&e, None, pattern).unwrap();
        assert_eq!(image[&0], 0xef);
        let e8 = BufferEntry { size: 3, ..e };
        let image = shared_image(&e8, None, pattern).unwrap();
        assert_eq!((image[&0], image[&1], image[&2]), (0xef, 0xbe, 0));
    }

    /// Bank mode leaves the blank slot unwritten.
    #[test]
    fn bank_mode_skips_blank_slots() {
        let e = BufferEntry {
            count: 2 << 8 | 4,
            two_d: true,
            stride: 4,
            mode: 2,
            halo_cols: 4,
            shared: 0,
            ..sgemv(0)
        };
        let image = shared_image(&e, None, pattern).unwrap();
        assert_eq!(image.len(), 32);
        assert!(!image.contains_key(&16));
        assert_eq!(image[&20], pattern(0x8000 + 16));
    }

    /// The chunk walk and this model agree on every element's addresses.
    #[test]
    fn agrees_with_the_chunk_walk() {
        let e = BufferEntry {
            global: 0x10000,
            shared: 0x40,
            count: 6 << 8 | 8,
            size: 2,
            stride: 256,
            two_d: true,
            mode: 1,
            halo_rows: 2,
            halo_cols: 3,
            region: 4,
            halo_const: 5,
        };
        let walk = super::super::Transfer::new(&e, 128).unwrap().elements();
        let el = elements(&e, None).unwrap();
        assert_eq!(walk.len(), el.len());
        for (w, x) in walk.iter().zip(&el) {
            assert_eq!(w.1, x.shared);
            match x.source {
                Source::Global(g) => assert_eq!(w.0, Some(g)),
                _ => assert_eq!(w.0, None),
            }
        }
    }

    #[test]
    fn extents_that_do_not_fit_are_refused() {
        let two_d = BufferEntry {
            count: 4 << 8 | 4,
            two_d: true,
            stride: 64,
            ..sgemv(0)
        };
        let msg = elements(&two_d, Some(Extent { rows: 256, cols: 1 }))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("extent_rows = 256"), "{msg}");
        let msg = elements(&sgemv(4), Some(Extent { rows: 2, cols: 1 }))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("extent_rows = 2"), "{msg}");
        let msg = elements(&sgemv(4), Some(Extent { rows: 1, cols: 0 }))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("extent_cols = 0"), "{msg}");
        assert_eq!(Extent { rows: 3, cols: 2 }.field(true), 0x1_0302);
    }
}
