//! Tensor maps in the D²MA engine: the engine's second front end, beside the paper's 173-bit
//! entry. A load of a [`TensorMap`] box (`cp.async.bulk.tensor`) is a **tensor slot** (the map
//! and the load's signed coordinates, in [`SLOT_WORDS`] 64-bit words that configuration commands
//! write) and a table entry in tensor mode ([`MODE_TENSOR`]) that names the slot and gives the
//! box's shared address.
//!
//! **What the slot holds.** What the engine's walk reads: the map's global address, element
//! size, swizzle and fill, per dimension its size, elements loaded, element stride and byte
//! stride, and the load's coordinates; and values the encoder derives from the map alone, as
//! `cuTensorMapEncodeTiled` fills an opaque `CUtensorMap` for Hopper's TMA: a row's bytes and
//! pitch, per dimension `i >= 1` the rewind of its coordinate `(n_i - 1) x element_stride_i` and
//! the step of the row address when it advances (`delta_i`, below). The coordinates are the
//! load's; the engine turns them into the box's first address itself (a multiply of each
//! coordinate by its stride, one bit a cycle) and tracks every dimension's coordinate to fill the
//! rows and elements outside the tensor.
//!
//! **The entry.** Mode 3, the box's shared address, the slot's index in `stride`, and a 1-D span
//! of 4-byte elements covering the box's footprint (`count = footprint / 4`), so that the RAW
//! check guards `[shared, shared + footprint)` as it guards any buffer. The global field and the
//! halo fields are unused (written zero).
//!
//! **The engine's walk** ([`engine_chunks`]): the rows of [`crate::tma::load`]'s walk in its
//! order, each row cut into chunks at the global segments' boundaries and where the row enters
//! the tensor in dimension 0 (a chunk is then all fill, or global data followed by fill where it
//! leaves the tensor: `keep` bytes read, the rest filled). A chunk carries its linear shared
//! address and the swizzle's XOR for its row (`(shared >> 7) & (span / 16 - 1)`, constant over a
//! row, since a swizzled row lies in one 128-byte line), which the engine applies to the word
//! addresses it writes.

use super::entry::BufferEntry;
use crate::tma::{chunks, BoxLayout, DataType, Load, OobFill, Swizzle, TensorMap};
use crate::Error;

/// The `mode` field's value of a tensor load's entry.
pub const MODE_TENSOR: u8 = 3;

/// Words of a tensor slot, each the data of one configuration command.
pub const SLOT_WORDS: u32 = 17;

/// Dimensions past the first (`1..=4`), each with its own words.
pub const OUTER_DIMS: usize = 4;

/// Bits of a dimension's size (1 to 2^32).
pub const DIM_BITS: u32 = 33;

/// Bits of a coordinate (signed).
pub const COORD_BITS: u32 = 32;

/// Bits of a row's bytes and pitch (at most 256 x 8 = 2048).
pub const ROW_BITS: u32 = 12;

/// Bits of a dimension's loaded elements less one (`n - 1`, at most 255).
pub const COUNT_BITS: u32 = 8;

/// Bits of an element stride (1 to 8).
pub const ESTRIDE_BITS: u32 = 4;

/// Bits of a coordinate's rewind (`(n - 1) x element_stride`, at most 2040).
pub const REWIND_BITS: u32 = 11;

/// One field of a tensor slot: its word, least significant bit there, width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotField {
    /// The field's name (`dim1`, `delta3`...).
    pub name: &'static str,
    /// Its word (the configuration part less 4).
    pub word: u32,
    /// Its least significant bit in the word.
    pub lsb: u32,
    /// Its width.
    pub width: u32,
    /// What it holds.
    pub description: &'static str,
}

const fn f(name: &'static str, word: u32, lsb: u32, width: u32, d: &'static str) -> SlotField {
    SlotField {
        name,
        word,
        lsb,
        width,
        description: d,
    }
}

/// The slot's fields, word by word.
pub const SLOT_FIELDS: [SlotField; 36] = [
    f(
        "base",
        0,
        0,
        64,
        "global address of the tensor's element 0 (bytes, 16-aligned)",
    ),
    f(
        "coord0",
        1,
        0,
        32,
        "the load's coordinate in dimension 0 (signed)",
    ),
    f(
        "coord1",
        1,
        32,
        32,
        "the load's coordinate in dimension 1 (signed)",
    ),
    f(
        "coord2",
        2,
        0,
        32,
        "the load's coordinate in dimension 2 (signed)",
    ),
    f(
        "coord3",
        2,
        32,
        32,
        "the load's coordinate in dimension 3 (signed)",
    ),
    f(
        "coord4",
        3,
        0,
        32,
        "the load's coordinate in dimension 4 (signed)",
    ),
    f(
        "row_bytes",
        3,
        32,
        ROW_BITS,
        "bytes of a box row: box_dim[0] x element bytes",
    ),
    f(
        "pitch",
        3,
        44,
        ROW_BITS,
        "bytes between rows in shared memory",
    ),
    f("elem_log2", 3, 56, 2, "element bytes, log2"),
    f("swizzle", 3, 58, 2, "0 none, 1 32B, 2 64B, 3 128B"),
    f(
        "nan",
        3,
        60,
        1,
        "out-of-bounds elements hold NaN (0x7ff7 repeated), else zeros",
    ),
    f("dim0", 4, 0, DIM_BITS, "elements in dimension 0"),
    f(
        "dim1",
        5,
        0,
        DIM_BITS,
        "elements in dimension 1 (1 past the rank)",
    ),
    f(
        "count1",
        5,
        33,
        COUNT_BITS,
        "elements the box loads in dimension 1, less one",
    ),
    f(
        "estride1",
        5,
        41,
        ESTRIDE_BITS,
        "element stride of dimension 1",
    ),
    f("rewind1", 5, 45, REWIND_BITS, "count1 x estride1"),
    f(
        "dim2",
        6,
        0,
        DIM_BITS,
        "elements in dimension 2 (1 past the rank)",
    ),
    f(
        "count2",
        6,
        33,
        COUNT_BITS,
        "elements the box loads in dimension 2, less one",
    ),
    f(
        "estride2",
        6,
        41,
        ESTRIDE_BITS,
        "element stride of dimension 2",
    ),
    f("rewind2", 6, 45, REWIND_BITS, "count2 x estride2"),
    f(
        "dim3",
        7,
        0,
        DIM_BITS,
        "elements in dimension 3 (1 past the rank)",
    ),
    f(
        "count3",
        7,
        33,
        COUNT_BITS,
        "elements the box loads in dimension 3, less one",
    ),
    f(
        "estride3",
        7,
        41,
        ESTRIDE_BITS,
        "element stride of dimension 3",
    ),
    f("rewind3", 7, 45, REWIND_BITS, "count3 x estride3"),
    f(
        "dim4",
        8,
        0,
        DIM_BITS,
        "elements in dimension 4 (1 past the rank)",
    ),
    f(
        "count4",
        8,
        33,
        COUNT_BITS,
        "elements the box loads in dimension 4, less one",
    ),
    f(
        "estride4",
        8,
        41,
        ESTRIDE_BITS,
        "element stride of dimension 4",
    ),
    f("rewind4", 8, 45, REWIND_BITS, "count4 x estride4"),
    f(
        "stride1",
        9,
        0,
        64,
        "byte stride of dimension 1 (0 past the rank)",
    ),
    f("stride2", 10, 0, 64, "byte stride of dimension 2"),
    f("stride3", 11, 0, 64, "byte stride of dimension 3"),
    f("stride4", 12, 0, 64, "byte stride of dimension 4"),
    f(
        "delta1",
        13,
        0,
        64,
        "row address step when dimension 1 advances: estride1 x stride1",
    ),
    f(
        "delta2",
        14,
        0,
        64,
        "row address step when dimension 2 advances, dimension 1 wrapping",
    ),
    f(
        "delta3",
        15,
        0,
        64,
        "row address step when dimension 3 advances, those below wrapping",
    ),
    f(
        "delta4",
        16,
        0,
        64,
        "row address step when dimension 4 advances, those below wrapping",
    ),
];

/// The field named `name`.
pub fn slot_field(name: &str) -> SlotField {
    *SLOT_FIELDS
        .iter()
        .find(|field| field.name == name)
        .unwrap_or_else(|| panic!("no slot field {name}"))
}

/// Checks a load for the engine: `models::tma`'s rules for the map and the load, then the
/// engine's: the element types it copies (not TF32, whose loads round), and a box that ends
/// within the `shared_bytes` of the shared memory it writes. Returns the box's layout.
pub fn check(map: &TensorMap, load: &Load, shared_bytes: u64) -> Result<BoxLayout, Error> {
    let layout = crate::tma::load::check(map, load)?;
    if matches!(map.data_type, DataType::Tf32 | DataType::Tf32Ftz) {
        return Err(Error::OutOfRange {
            name: "data_type".into(),
            value: map.data_type.to_string(),
            allowed: "a type the engine copies as it is (TF32 loads round their elements; the \
                      engine has no rounding)"
                .into(),
        });
    }
    let end = u64::from(load.shared_address) + layout.footprint();
    if end > shared_bytes {
        return Err(Error::OutOfRange {
            name: "shared_address".into(),
            value: format!("{:#x}", load.shared_address),
            allowed: format!(
                "an address where the box's {} bytes end within the engine's {shared_bytes} \
                 bytes of shared memory",
                layout.footprint()
            ),
        });
    }
    Ok(layout)
}

/// A dimension's parameters as the slot holds them (1 element past the rank).
struct Dim {
    dim: u64,
    count: u32,
    estride: u32,
    stride: u64,
    coord: i32,
}

fn dims(map: &TensorMap, load: &Load, layout: &BoxLayout) -> Vec<Dim> {
    (0..=OUTER_DIMS)
        .map(|i| {
            let inside = i < map.rank();
            Dim {
                dim: if inside { map.global_dim[i] } else { 1 },
                count: layout.counts[i],
                estride: if inside { map.element_stride(i) } else { 1 },
                stride: if inside { map.global_stride(i) } else { 0 },
                coord: if inside { load.coords[i] } else { 0 },
            }
        })
        .collect()
}

/// The swizzle's code in the slot.
fn swizzle_code(s: Swizzle) -> u64 {
    match s {
        Swizzle::None => 0,
        Swizzle::B32 => 1,
        Swizzle::B64 => 2,
        Swizzle::B128 => 3,
    }
}

/// The slot words of `load` over `map`, after [`check`].
pub fn slot_words(map: &TensorMap, load: &Load, layout: &BoxLayout) -> [u64; SLOT_WORDS as usize] {
    let d = dims(map, load, layout);
    let mut words = [0u64; SLOT_WORDS as usize];
    let mut put = |name: &str, value: u64| {
        let field = slot_field(name);
        let mask = if field.width == 64 {
            u64::MAX
        } else {
            (1u64 << field.width) - 1
        };
        assert!(value & !mask == 0, "{name} = {value:#x} does not fit");
        words[field.word as usize] |= value << field.lsb;
    };
    put("base", map.global_address);
    for (i, dim) in d.iter().enumerate() {
        put(&format!("coord{i}"), u64::from(dim.coord as u32));
    }
    put("row_bytes", u64::from(layout.row_bytes));
    put("pitch", u64::from(layout.pitch));
    put("elem_log2", u64::from(layout.elem_bytes.trailing_zeros()));
    put("swizzle", swizzle_code(map.swizzle));
    put("nan", u64::from(map.oob_fill == OobFill::Nan));
    put("dim0", d[0].dim);
    // The row address steps by `estride_j x stride_j` when dimension j advances, less what the
    // dimensions below it advanced since they last wrapped.
    let mut behind = 0u64;
    for (j, dim) in d.iter().enumerate().skip(1) {
        let rewind = u64::from(dim.count - 1) * u64::from(dim.estride);
        put(&format!("dim{j}"), dim.dim);
        put(&format!("count{j}"), u64::from(dim.count - 1));
        put(&format!("estride{j}"), u64::from(dim.estride));
        put(&format!("rewind{j}"), rewind);
        put(&format!("stride{j}"), dim.stride);
        let step = u64::from(dim.estride).wrapping_mul(dim.stride);
        put(&format!("delta{j}"), step.wrapping_sub(behind));
        behind = behind.wrapping_add(rewind.wrapping_mul(dim.stride));
    }
    words
}

/// The table entry of a tensor load in slot `slot`: mode 3, the box's shared address, the slot
/// in `stride`, and a 1-D span of `footprint / 4` 4-byte elements (the RAW check's guard).
pub fn entry(load: &Load, layout: &BoxLayout, slot: u16) -> BufferEntry {
    BufferEntry {
        global: 0,
        shared: load.shared_address as u16,
        count: (layout.footprint() / 4) as u16,
        size: 2,
        stride: slot,
        mode: MODE_TENSOR,
        ..BufferEntry::default()
    }
}

/// One chunk of the engine's walk of a tensor load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineChunk {
    /// Linear shared byte address (before the swizzle).
    pub shared: u32,
    /// The swizzle's XOR on address bits 6:4 for the chunk's row.
    pub xor: u32,
    /// Global byte address of its first byte (meaningful where `keep > 0`).
    pub global: u64,
    /// Bytes.
    pub bytes: u32,
    /// Bytes read from global memory, from the first; the rest are filled.
    pub keep: u32,
    /// The walk's last chunk.
    pub last: bool,
}

/// The engine's walk of `load` over `map` with `segment_bytes` segments and `global_bits`
/// address bits (module documentation), after [`check`].
pub fn engine_chunks(
    map: &TensorMap,
    load: &Load,
    layout: &BoxLayout,
    segment_bytes: u32,
    global_bits: u32,
) -> Vec<EngineChunk> {
    let d = dims(map, load, layout);
    let wrap = |a: u64| {
        if global_bits >= 64 {
            a
        } else {
            a & ((1u64 << global_bits) - 1)
        }
    };
    let eb = i64::from(layout.elem_bytes);
    let n0 = i64::from(layout.counts[0]);
    let c0 = i64::from(d[0].coord);
    let lo0 = ((-c0).clamp(0, n0) * eb) as u32;
    let hi0 = ((d[0].dim as i64 - c0).clamp(0, n0) * eb) as u32;
    let mask = map.swizzle.mode().map_or(0, |m| m.span() as u32 / 16 - 1);
    let mut out = Vec::new();
    for r in 0..layout.rows {
        let k = layout.row_index(r);
        let mut row = map.global_address.wrapping_add((c0 * eb) as u64);
        let mut inside = true;
        for (i, dim) in d.iter().enumerate().skip(1) {
            let c = i64::from(dim.coord) + i64::from(k[i]) * i64::from(dim.estride);
            inside &= (0..dim.dim as i64).contains(&c);
            row = row.wrapping_add((c as u64).wrapping_mul(dim.stride));
        }
        let srow = load.shared_address + (r as u32) * layout.pitch;
        let mut p = 0u32;
        while p < layout.row_bytes {
            let global = wrap(row.wrapping_add(u64::from(p)));
            let seg_left = segment_bytes - (global % u64::from(segment_bytes)) as u32;
            let limit = if p < lo0 { lo0 } else { layout.row_bytes };
            let bytes = seg_left.min(limit - p);
            let keep = if inside && p >= lo0 {
                hi0.saturating_sub(p).min(bytes)
            } else {
                0
            };
            out.push(EngineChunk {
                shared: srow + p,
                xor: (srow >> 7) & mask,
                global,
                bytes,
                keep,
                last: r + 1 == layout.rows && p + bytes == layout.row_bytes,
            });
            p += bytes;
        }
    }
    out
}

/// The segments (global address over `segment_bytes`, wrapped to `global_bits`) that hold an
/// element of the load inside the tensor: those the engine may request.
pub fn segments(
    map: &TensorMap,
    load: &Load,
    segment_bytes: u32,
    global_bits: u32,
) -> Result<Vec<u64>, Error> {
    let eb = u64::from(map.elem_bytes());
    let wrap = |a: u64| {
        if global_bits >= 64 {
            a
        } else {
            a & ((1u64 << global_bits) - 1)
        }
    };
    let mut out = std::collections::BTreeSet::new();
    for c in chunks(map, load)? {
        for e in 0..u64::from(c.elements) {
            if c.in_bounds >> e & 1 == 1 {
                for b in [e * eb, e * eb + eb - 1] {
                    out.insert(wrap(c.global.wrapping_add(b)) / u64::from(segment_bytes));
                }
            }
        }
    }
    Ok(out.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tma::{image, silicon};

    fn map(json: &str) -> TensorMap {
        serde_json::from_str(json).unwrap()
    }

    /// The image the engine's chunks write, with the model's bytes where they keep and its fill
    /// elsewhere, swizzled as the engine swizzles: equal to `models::tma::image`.
    fn image_of_engine_chunks(m: &TensorMap, l: &Load, global: &dyn Fn(u64) -> u8) {
        let layout = check(m, l, 1 << 20).unwrap();
        let want = image(m, l, &|a| global(a)).unwrap();
        let mut got = vec![None; want.bytes.len()];
        let fill = m.data_type.fill_bits(m.oob_fill).to_le_bytes();
        let eb = layout.elem_bytes as usize;
        let mut requested = std::collections::BTreeSet::new();
        for c in engine_chunks(m, l, &layout, 128, 64) {
            assert!(c.bytes <= 128 && c.bytes > 0 && c.keep <= c.bytes);
            if c.keep > 0 {
                requested.insert(c.global / 128);
                assert_eq!((c.global + u64::from(c.keep) - 1) / 128, c.global / 128);
            }
            for b in 0..c.bytes {
                let linear = c.shared + b;
                let a = linear ^ (c.xor << 4);
                let v = if b < c.keep {
                    global(c.global + u64::from(b))
                } else {
                    fill[(linear as usize) % eb]
                };
                got[(a - l.shared_address) as usize] = Some(v);
            }
        }
        assert_eq!(got, want.bytes, "{m:?} {l:?}");
        let allowed = segments(m, l, 128, 64).unwrap();
        assert!(requested.iter().all(|s| allowed.contains(s)));
    }

    #[test]
    fn the_engine_walk_writes_the_models_image() {
        let pattern = |a: u64| (a ^ (a >> 8) ^ (a >> 16)) as u8;
        let halves = map(
            r#"{"data_type": "f16", "global_dim": [100, 40], "global_strides": [256],
                "box_dim": [64, 8], "element_strides": [1, 2], "swizzle": "128B",
                "oob_fill": "nan"}"#,
        );
        for coords in [[-8, 3], [0, 0], [48, 36], [-64, -20], [96, -1]] {
            let l = Load {
                coords: coords.to_vec(),
                shared_address: 0x480,
            };
            image_of_engine_chunks(&halves, &l, &pattern);
        }
        let rank3 = map(
            r#"{"data_type": "u32", "global_address": 4096, "global_dim": [20, 7, 5],
                "global_strides": [96, 1024], "box_dim": [8, 4, 3], "element_strides": [1, 2, 2],
                "swizzle": "64B"}"#,
        );
        for coords in [[-4, -2, -1], [16, 5, 4], [4, 0, 0]] {
            let l = Load {
                coords: coords.to_vec(),
                shared_address: 0x100,
            };
            image_of_engine_chunks(&rank3, &l, &pattern);
        }
    }

    /// Every stored H100 load of a type the engine copies, replayed through the engine's walk
    /// with the silicon's own tensor bytes: the image is the model's (and so the H100's).
    #[test]
    fn the_engine_walk_writes_every_silicon_loads_image() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../gpu/results/");
        let mut checked = 0;
        for file in ["tma_h100c.txt.gz"] {
            let raw = std::fs::read(format!("{root}{file}")).unwrap();
            let mut text = String::new();
            std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&raw[..]), &mut text)
                .unwrap();
            for record in silicon::parse(&text).unwrap() {
                let silicon::Record::Load(case, _) = record else {
                    continue;
                };
                if check(&case.map, &case.load, 1 << 20).is_err() {
                    continue;
                }
                let seed = case.seed;
                image_of_engine_chunks(&case.map, &case.load, &|a| silicon::global_byte(seed, a));
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn slot_words_and_entry() {
        let m = map(
            r#"{"data_type": "f32", "global_address": 4096, "global_dim": [20, 7, 5],
                "global_strides": [96, 1024], "box_dim": [8, 4, 3], "element_strides": [1, 2, 2]}"#,
        );
        let l = Load {
            coords: vec![-4, -2, 1],
            shared_address: 0x100,
        };
        let layout = check(&m, &l, 0x10000).unwrap();
        let w = slot_words(&m, &l, &layout);
        assert_eq!(w[0], 4096);
        assert_eq!(
            w[1],
            u64::from(-4i32 as u32) | u64::from(-2i32 as u32) << 32
        );
        assert_eq!(w[2], 1);
        // Row of 32 bytes, pitch 32, 4-byte elements, no swizzle, zero fill.
        assert_eq!(w[3], 32 << 32 | 32 << 44 | 2 << 56);
        assert_eq!(w[4], 20);
        // Dimension 1: 7 elements, 2 loaded (4 / 2), stride 2, rewind 2.
        assert_eq!(w[5], 7 | 1 << 33 | 2 << 41 | 2 << 45);
        assert_eq!(w[6], 5 | 1 << 33 | 2 << 41 | 2 << 45);
        assert_eq!(w[7], 1 | 1 << 41);
        assert_eq!((w[9], w[10], w[11]), (96, 1024, 0));
        // delta1 = 2 x 96; delta2 = 2 x 1024 - 2 x 96; delta3 = 0 - (2 x 96 + 2 x 1024).
        assert_eq!((w[13], w[14]), (192, 2048 - 192));
        assert_eq!(w[15], 0u64.wrapping_sub(192 + 2048));
        let e = entry(&l, &layout, 3);
        assert_eq!(
            (e.mode, e.shared, e.count, e.size, e.stride),
            (3, 0x100, 32, 2, 3)
        );
        assert_eq!(e.shared_span(), layout.footprint());
        let tf32 = TensorMap {
            data_type: DataType::Tf32,
            ..m.clone()
        };
        let msg = check(&tf32, &l, 0x10000).unwrap_err().to_string();
        assert!(msg.starts_with("data_type = tf32 is out of range"), "{msg}");
        // The box's 128 bytes end at 0x180, past a 320-byte shared memory.
        let msg = check(&m, &l, 0x140).unwrap_err().to_string();
        assert!(msg.starts_with("shared_address = 0x100"), "{msg}");
        assert!(check(&m, &l, 0x180).is_ok());
    }
}
