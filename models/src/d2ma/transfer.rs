//! The transfer of one configured buffer, as the AGEN of the paper's section 4.2 walks it: the
//! global segment requests in order, the shared address of every element, the halo constant
//! stores, and the bookkeeping that says when the transfer is complete.
//!
//! The walk visits the tile row by row (halo rows and columns included in halo mode) and
//! produces one [`Chunk`] per cycle: the longest run of elements from the current one that
//! - stays in one global segment (32, 64 or 128 B) and, unless the global stride is one
//!   element, is a single element (Fig. 5c: strided data advance one element a cycle);
//! - stays in one row and on one side of the halo's column boundaries (halo mode);
//! - stays in one bank run (bank-conflict mode: a blank slot follows every `n` elements).
//!
//! A chunk of global data issues a request for its segment only when that segment differs
//! from the one requested last (the mask-and-compare of Fig. 5c), so unit-stride data issue one
//! request a cycle (Fig. 5b) and strided data skip the segments that hold no element. A chunk
//! in an exterior halo (the tile's region touches that border) is a constant store and issues
//! no request. Shared addresses are dense from the shared base, in walk order, plus the blank
//! slots of bank mode.

use super::entry::{region_borders, BufferEntry, Mode};
use crate::Error;

/// Segment sizes a request may have (NVIDIA's 32, 64 and 128 B; footnote 8).
pub const SEGMENT_BYTES: [u32; 3] = [32, 64, 128];

/// What the AGEN produces in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Chunk {
    /// Global byte address of the chunk's first element (for a constant store, the address the
    /// element would have had: it only bounds the chunk).
    pub global: u64,
    /// Shared byte address of the chunk's first element.
    pub shared: u16,
    /// Elements in the chunk (contiguous in global memory when more than one).
    pub elements: u32,
    /// Bytes the chunk writes to shared memory (`elements` x element size).
    pub bytes: u32,
    /// A halo constant store instead of global data.
    pub constant: bool,
    /// The segment address requested this cycle, when the chunk starts a new segment.
    pub request: Option<u64>,
}

/// The validated walk of one buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    /// The entry.
    pub entry: BufferEntry,
    /// The segment size in bytes.
    pub segment_bytes: u32,
    /// One chunk per AGEN cycle, in order.
    pub chunks: Vec<Chunk>,
}

impl Transfer {
    /// Validates `entry` and `segment_bytes` and walks the transfer.
    pub fn new(entry: &BufferEntry, segment_bytes: u32) -> Result<Self, Error> {
        if !SEGMENT_BYTES.contains(&segment_bytes) {
            return Err(Error::OutOfRange {
                name: "segment_bytes".into(),
                value: segment_bytes.to_string(),
                allowed: "32, 64 or 128".into(),
            });
        }
        entry.validate()?;
        Ok(Self {
            entry: *entry,
            segment_bytes,
            chunks: walk(entry, segment_bytes),
        })
    }

    /// The segment requests in issue order.
    pub fn requests(&self) -> Vec<u64> {
        self.chunks.iter().filter_map(|c| c.request).collect()
    }

    /// Every element's `(global address or None for a halo constant, shared address)`, in walk
    /// order.
    pub fn elements(&self) -> Vec<(Option<u64>, u16)> {
        let size = 1u64 << self.entry.size;
        let stride = self.entry.shape().elem_stride * size;
        self.chunks
            .iter()
            .flat_map(|c| {
                (0..u64::from(c.elements)).map(move |e| {
                    let global = (!c.constant).then(|| c.global.wrapping_add(e * stride));
                    (global, c.shared.wrapping_add((e * size) as u16))
                })
            })
            .collect()
    }

    /// The halo constant stores as `(shared address, bytes)`, in order.
    pub fn constant_stores(&self) -> Vec<(u16, u32)> {
        self.chunks
            .iter()
            .filter(|c| c.constant)
            .map(|c| (c.shared, c.bytes))
            .collect()
    }
}

/// The walk of a validated entry (see the module documentation).
fn walk(entry: &BufferEntry, segment_bytes: u32) -> Vec<Chunk> {
    let s = entry.shape();
    let mode = entry.mode().unwrap_or(Mode::None);
    let size = s.elem_bytes;
    let seg = u64::from(segment_bytes);
    let (rows, cols) = (s.walk_rows(), s.walk_cols());
    let (hr, hc) = (s.halo_rows, s.halo_cols);
    let borders = match mode {
        Mode::Halo => region_borders(entry.region).unwrap_or([false; 4]),
        _ => [false; 4],
    };
    let bank_run = (mode == Mode::Bank).then(|| entry.bank_run());
    // Virtual global address of walk position (0, 0): the halo's top-left corner.
    let origin = entry
        .global
        .wrapping_sub((hr * s.row_stride + hc * s.elem_stride) * size);
    let mut chunks = Vec::new();
    let (mut slot, mut in_run) = (0u64, 0u64);
    let mut last_segment = None;
    for i in 0..rows {
        let row = origin.wrapping_add(i * s.row_stride * size);
        let mut j = 0;
        while j < cols {
            let global = row.wrapping_add(j * s.elem_stride * size);
            let boundary = if mode != Mode::Halo || j >= hc + s.cols {
                cols
            } else if j < hc {
                hc
            } else {
                hc + s.cols
            };
            let mut len = boundary - j;
            if s.elem_stride == 1 {
                len = len.min((seg - global % seg) / size);
            } else {
                len = 1;
            }
            if let Some(n) = bank_run {
                len = len.min(n - in_run);
            }
            let constant = (borders[0] && i < hr)
                || (borders[2] && i >= hr + s.rows)
                || (borders[3] && j < hc)
                || (borders[1] && j >= hc + s.cols);
            let segment = global & !(seg - 1);
            let request = (!constant && last_segment != Some(segment)).then_some(segment);
            if request.is_some() {
                last_segment = request;
            }
            chunks.push(Chunk {
                global,
                shared: (u64::from(entry.shared) + slot * size) as u16,
                elements: len as u32,
                bytes: (len * size) as u32,
                constant,
                request,
            });
            slot += len;
            if let Some(n) = bank_run {
                in_run += len;
                if in_run == n {
                    in_run = 0;
                    slot += 1;
                }
            }
            j += len;
        }
    }
    chunks
}

/// The completion bookkeeping of one buffer: it completes when its walk has ended and every
/// request it issued has had its response (responses may return in any order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// Requests issued and not yet answered.
    pub outstanding: u32,
    /// The walk has produced its last chunk.
    pub walked: bool,
}

impl Progress {
    /// Whether the transfer is complete.
    pub fn complete(&self) -> bool {
        self.walked && self.outstanding == 0
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Fig. 8's sgemv vector of `elements` floats (also `data`'s tests' fixture).
    pub(in crate::d2ma) fn sgemv(elements: u16) -> BufferEntry {
        BufferEntry {
            global: 0x8000,
            shared: 0x100,
            count: elements,
            size: 2,
            stride: 1,
            ..Default::default()
        }
    }

    /// A 4 x 4 tile of floats at 0x10000 (leading dimension 64) with a 1 x 1 halo in `region`
    /// and halo constant 0x7f (also `data`'s tests' fixture).
    pub(in crate::d2ma) fn halo_tile(region: u8) -> BufferEntry {
        BufferEntry {
            global: 0x10000,
            shared: 0,
            count: 4 << 8 | 4,
            size: 2,
            stride: 64,
            two_d: true,
            mode: 1,
            halo_rows: 1,
            halo_cols: 1,
            region,
            halo_const: 0x7f,
        }
    }

    /// Fig. 8's sgemv vector: unit stride, one 128 B request per cycle, dense shared addresses.
    #[test]
    fn sgemv_unit_stride_is_one_request_a_cycle() {
        let t = Transfer::new(&sgemv(256), 128).unwrap();
        assert_eq!(t.chunks.len(), 8);
        assert!(t
            .chunks
            .iter()
            .all(|c| c.request.is_some() && c.bytes == 128));
        assert_eq!(
            t.requests(),
            (0..8).map(|s| 0x8000 + 128 * s).collect::<Vec<_>>()
        );
        let el = t.elements();
        assert_eq!(el.len(), 256);
        for (i, &(g, s)) in el.iter().enumerate() {
            assert_eq!(g, Some(0x8000 + 4 * i as u64));
            assert_eq!(u64::from(s), 0x100 + 4 * i as u64);
        }
        // 32 B segments: four times the requests, still one a cycle.
        assert_eq!(Transfer::new(&sgemv(256), 32).unwrap().requests().len(), 32);
        // A misaligned base splits the first and last segment.
        let t = Transfer::new(
            &BufferEntry {
                global: 0x8010,
                ..sgemv(256)
            },
            128,
        )
        .unwrap();
        assert_eq!(t.requests().len(), 9);
        assert_eq!((t.chunks[0].bytes, t.chunks[8].bytes), (112, 16));
    }

    /// A strided transfer takes one element a cycle and requests only segments holding one.
    #[test]
    fn strided_skips_empty_segments() {
        // Stride 48 floats = 192 B: every element in its own segment, segments in between skipped.
        let t = Transfer::new(
            &BufferEntry {
                count: 8,
                stride: 48,
                ..sgemv(0)
            },
            128,
        )
        .unwrap();
        assert_eq!(t.chunks.len(), 8);
        let req = t.requests();
        assert_eq!(req.len(), 8);
        assert_eq!(req[1] - req[0], 128);
        assert_eq!(req[2] - req[0], 384);
        // Stride 8 floats = 32 B: four elements per 128 B segment, one request per four cycles.
        let t = Transfer::new(
            &BufferEntry {
                count: 16,
                stride: 8,
                ..sgemv(0)
            },
            128,
        )
        .unwrap();
        assert_eq!(t.chunks.len(), 16);
        assert_eq!(t.requests(), vec![0x8000, 0x8080, 0x8100, 0x8180]);
        assert_eq!(t.elements()[5].1, 0x100 + 20);
    }

    /// A transposed read: one column of a 64 x 64 float matrix is a 1-D transfer with stride 64.
    #[test]
    fn transposed_column() {
        let t = Transfer::new(
            &BufferEntry {
                count: 64,
                stride: 64,
                ..sgemv(0)
            },
            128,
        )
        .unwrap();
        assert_eq!(t.requests().len(), 64);
        assert!(t.requests().windows(2).all(|w| w[1] - w[0] == 256));
    }

    /// A 2-D 16 x 16 float tile of a matrix with leading dimension 1024: 64 B per row, so two
    /// rows never share a 128 B segment and each row is one chunk.
    #[test]
    fn two_d_tile() {
        let e = BufferEntry {
            count: 16 << 8 | 16,
            two_d: true,
            stride: 1024,
            ..sgemv(0)
        };
        let t = Transfer::new(&e, 128).unwrap();
        assert_eq!(t.chunks.len(), 16);
        assert_eq!(t.requests()[1], 0x8000 + 4096);
        // With 32 B segments each row takes two.
        assert_eq!(Transfer::new(&e, 32).unwrap().chunks.len(), 32);
    }

    /// Halos in all nine regions of a 4 x 4 tile with one halo row and column: the exterior
    /// halo is constant, the rest comes from global memory at the neighbours' addresses.
    #[test]
    fn halo_in_every_region() {
        for region in 1..=9u8 {
            let e = halo_tile(region);
            let t = Transfer::new(&e, 128).unwrap();
            let el = t.elements();
            assert_eq!(el.len(), 36, "region {region}");
            let [top, right, bottom, left] = region_borders(region).unwrap();
            for (k, &(g, s)) in el.iter().enumerate() {
                let (i, j) = (k as i64 / 6, k as i64 % 6);
                assert_eq!(u64::from(s), 4 * k as u64);
                let exterior =
                    (top && i == 0) || (bottom && i == 5) || (left && j == 0) || (right && j == 5);
                let expect = 0x10000 + ((i - 1) * 64 + (j - 1)) * 4;
                assert_eq!(
                    g,
                    (!exterior).then_some(expect as u64),
                    "region {region} ({i},{j})"
                );
            }
            let constants: u32 = t.constant_stores().iter().map(|c| c.1).sum();
            let exterior_rows = u32::from(top) + u32::from(bottom);
            let exterior_cols = u32::from(left) + u32::from(right);
            let cells = exterior_rows * 6 + exterior_cols * 6 - exterior_rows * exterior_cols;
            assert_eq!(constants, 4 * cells, "region {region}");
            // Every row is split at the halo's column boundaries: left, tile, right.
            assert_eq!(t.chunks.len(), 18);
        }
    }

    /// Bank-conflict resolution: a blank slot after every 32 floats, and chunks split there.
    #[test]
    fn bank_mode_pads_every_run() {
        let e = BufferEntry {
            count: 32 << 8 | 32,
            two_d: true,
            stride: 32,
            mode: 2,
            halo_cols: 32,
            shared: 0,
            ..sgemv(0)
        };
        let t = Transfer::new(&e, 128).unwrap();
        let el = t.elements();
        assert_eq!(el[31].1, 124);
        assert_eq!(el[32].1, 132);
        assert_eq!(el[1023].1, ((1023 + 31) * 4) as u16);
        assert_eq!(t.requests().len(), 32);
        assert_eq!(t.chunks.len(), 32);
        // A run of 16 splits every 128 B segment into two chunks, still one request each.
        let t = Transfer::new(&BufferEntry { halo_cols: 16, ..e }, 128).unwrap();
        assert_eq!((t.chunks.len(), t.requests().len()), (64, 32));
    }

    #[test]
    fn bad_segment_sizes_are_refused() {
        let msg = Transfer::new(&sgemv(8), 96).unwrap_err().to_string();
        assert!(msg.contains("segment_bytes = 96"), "{msg}");
    }

    #[test]
    fn progress_completes_after_walk_and_responses() {
        let mut p = Progress {
            outstanding: 2,
            walked: false,
        };
        assert!(!p.complete());
        p.walked = true;
        p.outstanding = 0;
        assert!(p.complete());
    }
}
