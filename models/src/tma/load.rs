//! A tensor load (`cp.async.bulk.tensor`, global to shared): the box of a [`TensorMap`] at
//! signed coordinates, walked 16 bytes at a time, and the shared-memory image it leaves.
//!
//! **The box in shared memory.** Dimension `i` loads `n_i = ceil(box_dim[i] / element_strides[i])`
//! elements at coordinates `coords[i] + k * element_strides[i]`; dimension 0 loads all
//! `box_dim[0]` elements at unit step (the driver API: "the first element of this array is
//! ignored", with interleave none). A *row* is the `n_0` elements of one index `(k_1, ..., k_4)`:
//! `n_0 x elem_bytes` bytes, a multiple of 16. Rows are stored in row-major order of
//! `(k_4, ..., k_1)`, `k_1` fastest, one *pitch* apart: the row's bytes without a swizzle, the
//! swizzle span with one (narrower rows leave the rest of the span untouched, measured in
//! docs/SWIZZLE.md). Byte `b` of row `r` goes to `shared_address + r x pitch + b`, then the
//! swizzle moves its 16-byte chunk: `a ^ (((a >> 7) & (span / 16 - 1)) << 4)` on the shared
//! address `a` itself (so the pattern repeats every 1024 bytes of shared memory, whatever the
//! box's start).
//!
//! **Out of bounds.** An element whose coordinate in any dimension is negative or at least
//! `global_dim` there is not read: it holds zeros, or the NaN of its type under `oob_fill` nan
//! ([`DataType::fill_bits`]). Every byte of the box is written, in bounds or not, so a box wholly
//! outside the tensor is all fill, and the transaction (the bytes an mbarrier's `complete_tx`
//! counts) is always `n_0 x ... x n_4 x elem_bytes`.
//!
//! **The walk** ([`chunks`]): rows in the order above, each row's 16-byte chunks from its
//! start. A chunk holds `16 / elem_bytes` whole elements, consecutive in dimension 0, so it is
//! one 16-byte run of global memory where all of it is in bounds, all fill where none is, and
//! mixed only where the row crosses either end of dimension 0 ([`Chunk::in_bounds`], one bit per
//! element). Dimensions 1 and up decide bounds for the whole row. Swizzling moves whole chunks,
//! so an address generator can issue chunks in this order and write each one whole.

use super::descriptor::{TensorMap, MAX_RANK};
use crate::Error;
use serde::{Deserialize, Serialize};

/// Shared addresses of a box start on this many bytes (the alignment PTX and CUTLASS use for
/// tensor copies; the silicon check used multiples of it).
pub const SHARED_ALIGN: u32 = 128;
/// The most shared memory a CTA of an H100 can have, in bytes (227 KiB): no box ends past it.
pub const SHARED_LIMIT: u32 = 232_448;

/// One `cp.async.bulk.tensor` load: the box's first coordinate in each dimension (signed, may lie
/// outside the tensor) and the shared address its image starts at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    /// The box's first coordinate per dimension, dimension 0 first (`tensorCoords`).
    pub coords: Vec<i32>,
    /// The shared-memory byte address of the box's first row.
    #[serde(default)]
    pub shared_address: u32,
}

/// How a map's box lies in shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxLayout {
    /// Dimensions.
    pub rank: usize,
    /// Elements loaded per dimension (`n_i`; 1 past the rank).
    pub counts: [u32; MAX_RANK],
    /// Bytes per element.
    pub elem_bytes: u32,
    /// Bytes of one row (`n_0 x elem_bytes`).
    pub row_bytes: u32,
    /// Bytes between consecutive rows in shared memory.
    pub pitch: u32,
    /// Rows (`n_1 x ... x n_4`).
    pub rows: u64,
}

impl BoxLayout {
    /// The layout of a valid map's box.
    pub fn of(map: &TensorMap) -> Self {
        let mut counts = [1u32; MAX_RANK];
        for (i, c) in counts.iter_mut().enumerate().take(map.rank()) {
            *c = map.box_dim[i].div_ceil(step(map, i) as u32);
        }
        let elem_bytes = map.elem_bytes();
        let row_bytes = counts[0] * elem_bytes;
        let pitch = map
            .swizzle
            .mode()
            .map_or(row_bytes, |m| row_bytes.max(m.span() as u32));
        Self {
            rank: map.rank(),
            counts,
            elem_bytes,
            row_bytes,
            pitch,
            rows: counts[1..].iter().map(|&c| u64::from(c)).product(),
        }
    }

    /// The bytes the load writes, which an mbarrier's transaction count expects.
    pub fn transaction_bytes(&self) -> u64 {
        self.rows * u64::from(self.row_bytes)
    }

    /// The bytes of shared memory from the box's start to its end (rows x pitch).
    pub fn footprint(&self) -> u64 {
        self.rows * u64::from(self.pitch)
    }

    /// 16-byte chunks per row.
    pub fn chunks_per_row(&self) -> u32 {
        self.row_bytes / 16
    }

    /// The box index `(0, k_1, ..., k_4)` of row `r`.
    pub fn row_index(&self, mut r: u64) -> [u32; MAX_RANK] {
        let mut k = [0u32; MAX_RANK];
        for (k, &n) in k.iter_mut().zip(&self.counts).skip(1) {
            *k = (r % u64::from(n)) as u32;
            r /= u64::from(n);
        }
        k
    }
}

/// The coordinate step of dimension `i`: its element stride, except dimension 0 (ignored).
fn step(map: &TensorMap, i: usize) -> i64 {
    if i == 0 {
        1
    } else {
        i64::from(map.element_stride(i))
    }
}

/// Sixteen bytes of one box row, as the walk produces them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    /// The row (in the walk's row order).
    pub row: u64,
    /// The box index of its first element (`k_0` a multiple of `16 / elem_bytes`).
    pub index: [u32; MAX_RANK],
    /// The tensor coordinates of its first element (0 past the rank).
    pub coords: [i64; MAX_RANK],
    /// The shared address its 16 bytes go to, swizzled.
    pub shared: u32,
    /// The global byte address of its first element (meaningful where it is in bounds: element
    /// `e` of the chunk lies at `global + e x elem_bytes`).
    pub global: u64,
    /// Elements in the chunk (`16 / elem_bytes`).
    pub elements: u32,
    /// Bit `e` set: element `e` is inside the tensor and read; clear: it is filled.
    pub in_bounds: u16,
}

impl Chunk {
    /// Every element in bounds: one 16-byte global read.
    pub fn whole(&self) -> bool {
        u32::from(self.in_bounds) == (1u32 << self.elements) - 1
    }

    /// No element in bounds: all fill, no global read.
    pub fn fill(&self) -> bool {
        self.in_bounds == 0
    }
}

/// Checks `load` against a valid `map`: one coordinate per dimension, an aligned shared address,
/// a box that fits an H100's shared memory. Returns the box's layout.
pub fn check(map: &TensorMap, load: &Load) -> Result<BoxLayout, Error> {
    map.validate()?;
    let refuse = |name: &str, value: String, allowed: String| Error::OutOfRange {
        name: name.into(),
        value,
        allowed,
    };
    if load.coords.len() != map.rank() {
        return Err(refuse(
            "coords",
            format!("{} entries", load.coords.len()),
            format!("{} (one per dimension of the tensor map)", map.rank()),
        ));
    }
    let first_byte = i64::from(load.coords[0]) * i64::from(map.elem_bytes());
    if first_byte % 16 != 0 {
        return Err(refuse(
            "coords[0]",
            load.coords[0].to_string(),
            format!(
                "a multiple of {} (coords[0] x {} bytes must be a multiple of 16: an H100 \
                 traps with an illegal instruction otherwise, measured)",
                16 / map.elem_bytes(),
                map.elem_bytes()
            ),
        ));
    }
    if !load.shared_address.is_multiple_of(SHARED_ALIGN) {
        return Err(refuse(
            "shared_address",
            format!("{:#x}", load.shared_address),
            "a multiple of 128 bytes".into(),
        ));
    }
    let layout = BoxLayout::of(map);
    if u64::from(load.shared_address) + layout.footprint() > u64::from(SHARED_LIMIT) {
        return Err(refuse(
            "shared_address",
            format!("{:#x}", load.shared_address),
            format!(
                "an address where the box's {} bytes end within the {SHARED_LIMIT} bytes \
                 (227 KiB) of shared memory an H100 CTA can have",
                layout.footprint()
            ),
        ));
    }
    Ok(layout)
}

/// The walk of a load: every 16-byte chunk of the box in order (see the module documentation).
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    map: &'a TensorMap,
    load: &'a Load,
    layout: BoxLayout,
    next: u64,
}

/// The walk of `load` over `map`, after [`check`].
pub fn chunks<'a>(map: &'a TensorMap, load: &'a Load) -> Result<Walk<'a>, Error> {
    let layout = check(map, load)?;
    Ok(Walk {
        map,
        load,
        layout,
        next: 0,
    })
}

impl Walk<'_> {
    /// The box's layout.
    pub fn layout(&self) -> BoxLayout {
        self.layout
    }

    fn chunk(&self, n: u64) -> Chunk {
        let (map, l) = (self.map, &self.layout);
        let per_row = u64::from(l.chunks_per_row());
        let (row, j) = (n / per_row, (n % per_row) as u32);
        let elements = 16 / l.elem_bytes;
        let mut index = l.row_index(row);
        index[0] = j * elements;
        let mut coords = [0i64; MAX_RANK];
        let mut global = map.global_address;
        let mut row_inside = true;
        for i in 0..l.rank {
            coords[i] = i64::from(self.load.coords[i]) + i64::from(index[i]) * step(map, i);
            global = global.wrapping_add((coords[i] as u64).wrapping_mul(map.global_stride(i)));
            if i > 0 {
                row_inside &= (0..map.global_dim[i] as i64).contains(&coords[i]);
            }
        }
        let mut in_bounds = 0u16;
        if row_inside {
            for e in 0..elements {
                if (0..map.global_dim[0] as i64).contains(&(coords[0] + i64::from(e))) {
                    in_bounds |= 1 << e;
                }
            }
        }
        let linear =
            u64::from(self.load.shared_address) + row * u64::from(l.pitch) + 16 * u64::from(j);
        let shared = map.swizzle.mode().map_or(linear, |m| m.apply(linear)) as u32;
        Chunk {
            row,
            index,
            coords,
            shared,
            global,
            elements,
            in_bounds,
        }
    }
}

impl Iterator for Walk<'_> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        let total = self.layout.rows * u64::from(self.layout.chunks_per_row());
        (self.next < total).then(|| {
            self.next += 1;
            self.chunk(self.next - 1)
        })
    }
}

/// Global memory as a load reads it.
pub trait GlobalMemory {
    /// The byte at `address`.
    fn byte(&self, address: u64) -> u8;
}

impl<F: Fn(u64) -> u8> GlobalMemory for F {
    fn byte(&self, address: u64) -> u8 {
        self(address)
    }
}

/// The 16 bytes a chunk writes: global bytes where in bounds, the fill elsewhere.
/// ([`super::DataType::load_bits`] converts each in-bounds element.)
pub fn chunk_bytes(map: &TensorMap, chunk: &Chunk, global: &impl GlobalMemory) -> [u8; 16] {
    let size = 16 / chunk.elements as usize;
    let fill = map.data_type.fill_bits(map.oob_fill);
    let mut out = [0u8; 16];
    for (e, element) in out.chunks_mut(size).enumerate() {
        let bits = if chunk.in_bounds & (1 << e) != 0 {
            let at = chunk.global.wrapping_add((e * size) as u64);
            let raw = (0..size).fold(0u64, |v, b| {
                v | u64::from(global.byte(at.wrapping_add(b as u64))) << (8 * b)
            });
            map.data_type.load_bits(raw)
        } else {
            fill
        };
        element.copy_from_slice(&bits.to_le_bytes()[..size]);
    }
    out
}

/// The shared-memory image of a load: the bytes from the box's start for its footprint, `None`
/// where the load leaves a byte untouched (a swizzled row narrower than its span).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// The shared address of `bytes[0]`.
    pub start: u32,
    /// The box's layout.
    pub layout: BoxLayout,
    /// One entry per byte of the footprint.
    pub bytes: Vec<Option<u8>>,
}

impl Image {
    /// Writes the image over `shared` (indexed by shared address), leaving untouched bytes as
    /// they are. `shared` must reach the end of the footprint.
    pub fn apply(&self, shared: &mut [u8]) {
        let start = self.start as usize;
        for (s, b) in shared[start..start + self.bytes.len()]
            .iter_mut()
            .zip(&self.bytes)
        {
            if let Some(b) = b {
                *s = *b;
            }
        }
    }
}

/// The image `load` leaves in shared memory, reading `global`.
pub fn image(map: &TensorMap, load: &Load, global: &impl GlobalMemory) -> Result<Image, Error> {
    let walk = chunks(map, load)?;
    let layout = walk.layout();
    let start = load.shared_address;
    let mut bytes = vec![None; layout.footprint() as usize];
    for chunk in walk {
        let data = chunk_bytes(map, &chunk, global);
        let at = (chunk.shared - start) as usize;
        for (slot, b) in bytes[at..at + 16].iter_mut().zip(data) {
            *slot = Some(b);
        }
    }
    Ok(Image {
        start,
        layout,
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::super::descriptor::tests::halves;
    use super::super::descriptor::{DataType, OobFill, Swizzle};
    use super::*;

    /// Global memory whose 2-byte element at byte address `a` holds the element's index
    /// `(a - 0x1000) / 2` (low byte first): every element names itself.
    fn numbered(a: u64) -> u8 {
        let i = (a - 0x1000) / 2;
        if a.is_multiple_of(2) {
            i as u8
        } else {
            (i >> 8) as u8
        }
    }

    fn element(img: &Image, offset: usize) -> Option<u16> {
        Some(u16::from_le_bytes([
            img.bytes[offset]?,
            img.bytes[offset + 1]?,
        ]))
    }

    /// The 100 x 40 tensor of halves (rows 256 bytes = 128 elements apart), a 64 x 8 box with
    /// the 128-byte swizzle, inside: row r, element c of the box is tensor element
    /// (y + r, x + c) = index (y + r) * 128 + x + c, at the chunk the swizzle names.
    #[test]
    fn an_inside_box_is_the_swizzled_tile() {
        let map = halves();
        let load = Load {
            coords: vec![8, 3],
            shared_address: 0,
        };
        let img = image(&map, &load, &numbered).unwrap();
        assert_eq!(img.layout.transaction_bytes(), 1024);
        assert_eq!(img.bytes.len(), 1024);
        for r in 0..8usize {
            for c in 0..64usize {
                let linear = r * 128 + c * 2;
                // Hand-computed 128-byte swizzle: chunk (bits 4..6) ^= row (bits 7..9).
                let chunk = (linear >> 4) & 7;
                let swizzled = (linear & !0x70) | ((chunk ^ (r & 7)) << 4);
                let expect = ((3 + r) * 128 + 8 + c) as u16;
                assert_eq!(element(&img, swizzled), Some(expect), "r{r} c{c}");
            }
        }
    }

    /// The same box hanging over the tensor's right (x = 80: columns 100..143 are outside) and
    /// top (y = -2: two rows outside) edges, without a swizzle: those elements are zero.
    #[test]
    fn out_of_bounds_elements_are_zero_or_nan() {
        let map = TensorMap {
            swizzle: Swizzle::None,
            ..halves()
        };
        let load = Load {
            coords: vec![80, -2],
            shared_address: 256,
        };
        let img = image(&map, &load, &numbered).unwrap();
        assert_eq!(img.start, 256);
        for r in 0..8i64 {
            for c in 0..64i64 {
                let (y, x) = (r - 2, 80 + c);
                let inside = y >= 0 && x < 100;
                let expect = if inside { (y * 128 + x) as u16 } else { 0 };
                assert_eq!(element(&img, (r * 128 + c * 2) as usize), Some(expect));
            }
        }
        // NaN fill: 0x7ff7 in every outside element, the same data inside.
        let nan = TensorMap {
            oob_fill: OobFill::Nan,
            ..map.clone()
        };
        let img2 = image(&nan, &load, &numbered).unwrap();
        for k in 0..512usize {
            let (r, c) = (k / 64, k % 64);
            let a = element(&img, 2 * k);
            let b = element(&img2, 2 * k);
            if r < 2 || c >= 20 {
                assert_eq!(b, Some(0x7ff7));
            } else {
                assert_eq!(a, b);
            }
        }
        // Wholly outside: every byte is fill, none read.
        let far = Load {
            coords: vec![-1000, 50],
            shared_address: 0,
        };
        assert!(chunks(&map, &far).unwrap().all(|c| c.fill()));
        let img3 = image(&map, &far, &|_| panic!("no global read")).unwrap();
        assert!(img3.bytes.iter().all(|&b| b == Some(0)));
    }

    /// A box starts on a 16-byte boundary of dimension 0 (coords[0] x elem_bytes is a multiple
    /// of 16), so only a tensor whose dimension 0 ends inside a chunk makes a mixed chunk: at
    /// x = 96 the 100-element rows leave 4 of the first chunk's 8 halves in bounds.
    #[test]
    fn chunks_at_the_edge_are_mixed() {
        let map = TensorMap {
            swizzle: Swizzle::None,
            ..halves()
        };
        let load = Load {
            coords: vec![96, -1],
            shared_address: 0,
        };
        let first: Vec<Chunk> = chunks(&map, &load).unwrap().take(9).collect();
        // Row 0 is tensor row -1: all fill. Row 1 starts at chunk 8, one 128-byte row later.
        assert!(first[..8].iter().all(Chunk::fill));
        assert_eq!(first[8].in_bounds, 0b0000_1111);
        assert!(!first[8].whole() && !first[8].fill());
        assert_eq!((first[8].row, first[8].shared), (1, 128));
        assert_eq!(first[8].coords[..2], [96, 0]);
        assert_eq!(first[8].global, 0x1000 + 2 * 96);
        let inside = Load {
            coords: vec![8, 0],
            shared_address: 0,
        };
        assert!(chunks(&map, &inside).unwrap().all(|c| c.whole()));
    }

    /// Element strides: a 4-D box of floats, box 8 x 5 x 3 x 2 with strides (ignored) x 2 x 3
    /// x 1, loads 8 x 3 x 1 x 2 elements; the rows follow (k_3, k_2, k_1), k_1 fastest.
    #[test]
    fn element_strides_skip_coordinates() {
        let map = TensorMap {
            data_type: DataType::F32,
            global_address: 0,
            global_dim: vec![8, 10, 10, 10],
            global_strides: vec![32, 320, 3200],
            box_dim: vec![8, 5, 3, 2],
            element_strides: vec![4, 2, 3, 1],
            swizzle: Swizzle::None,
            ..halves()
        };
        let load = Load {
            coords: vec![0, 1, 2, 3],
            shared_address: 0,
        };
        let layout = BoxLayout::of(&map);
        assert_eq!(layout.counts, [8, 3, 1, 2, 1]);
        assert_eq!(layout.transaction_bytes(), 8 * 3 * 2 * 4);
        let rows: Vec<[i64; 5]> = chunks(&map, &load)
            .unwrap()
            .step_by(2)
            .map(|c| c.coords)
            .collect();
        assert_eq!(
            rows,
            [
                [0, 1, 2, 3, 0],
                [0, 3, 2, 3, 0],
                [0, 5, 2, 3, 0],
                [0, 1, 2, 4, 0],
                [0, 3, 2, 4, 0],
                [0, 5, 2, 4, 0],
            ]
        );
        let c = chunks(&map, &load).unwrap().nth(2).unwrap();
        assert_eq!(c.global, 3 * 32 + 2 * 320 + 3 * 3200);
        assert_eq!(c.shared, 32);
    }

    /// Rows narrower than the span sit one span apart; the swizzle acts on the shared address,
    /// so a box starting at 128 (row 1 of the pattern) XORs its first row's chunks with 1.
    #[test]
    fn narrow_rows_use_a_span_and_the_swizzle_follows_the_address() {
        let map = TensorMap {
            box_dim: vec![32, 4],
            ..halves()
        };
        let load = Load {
            coords: vec![0, 0],
            shared_address: 128,
        };
        let img = image(&map, &load, &numbered).unwrap();
        assert_eq!(img.layout.pitch, 128);
        assert_eq!(img.bytes.len(), 512);
        // Row 0 (address 128): chunks 0..3 land at chunks 1, 0, 3, 2; chunks 4..7 untouched.
        assert_eq!(element(&img, 16), Some(0));
        assert_eq!(element(&img, 0), Some(8));
        assert!(img.bytes[64..128].iter().all(Option::is_none));
        // Row 3 (address 512: pattern row 4): chunk 0 at chunk 4.
        assert_eq!(element(&img, 3 * 128 + 64), Some(3 * 128));
    }

    #[test]
    fn bad_loads_are_refused() {
        let map = halves();
        let e = |l: Load| check(&map, &l).unwrap_err().to_string();
        let msg = e(Load {
            coords: vec![0],
            shared_address: 0,
        });
        assert!(
            msg.starts_with("coords = 1 entries is out of range: allowed 2"),
            "{msg}"
        );
        let msg = e(Load {
            coords: vec![-3, 0],
            shared_address: 0,
        });
        assert!(
            msg.starts_with(
                "coords[0] = -3 is out of range: allowed a multiple of 8 (coords[0] x 2"
            ),
            "{msg}"
        );
        let msg = e(Load {
            coords: vec![0, 0],
            shared_address: 64,
        });
        assert!(msg.contains("shared_address = 0x40 is out of range: allowed a multiple of 128"));
        let msg = e(Load {
            coords: vec![0, 0],
            shared_address: SHARED_LIMIT - 512,
        });
        assert!(
            msg.contains("the box's 1024 bytes end within the 232448 bytes"),
            "{msg}"
        );
    }
}
