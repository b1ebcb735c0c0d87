//! The data-path engine in a system: the D²MA engine with its data path
//! ([`engine::build_with`] and a [`DataPath`]), a banked shared memory from `rtl-gen smem`
//! behind the fill port, a global-memory model that answers requests after 4 to 35 cycles and
//! out of order, and a warp that reads every tile through the RAW check.
//!
//! [`System`] holds the sizes, [`phases`] the directed transfers (sgemv's vector, a halo tile
//! in each of the nine regions, strided, transposed and out-of-bounds tiles, mixed element
//! sizes, SAXPY; with tensor slots, the directed tensor loads of [`tensor_loads`]), and
//! [`testbench`] the self-checking Verilog testbench that runs them: every word a warp reads is
//! compared with `models::d2ma::data::shared_image`, or `models::tma::image` for a tensor load
//! (global byte `a` holds [`pattern`]`(a)`, the same function in the testbench's memory model),
//! and every completion's byte count with the model's; a warp load presents its address to the
//! engine's RAW check every cycle until it may go, so no warp reads before its buffer's data is
//! written; probes of addresses outside their CTA's in-flight buffers are presented while warps
//! wait (from the sixth cycle after the phase's last command, when every guard is exact), and
//! must never wait. The testbench reads
//! its tables from two files ([`Bench`]), prints `<name>: P passed, F failed` over its loads (a
//! load fails on a byte that differs, or when a probe waited while it waited) and stops with
//! `$fatal` on a failure or a phase that does not finish.
//!
//! [`SystemDesign`] validates a system for `rtl-gen d2ma system` and writes its folder: the
//! engine's and the shared memory's modules, the testbench, a filelist and a manifest, which
//! `rtl-gen cosim` reads as any block's.

use super::engine;
use super::tensors::PART_SLOT;
use super::writeback::DataPath;
use super::{D2maDesign, Storage, Unit};
use crate::block::{Block, Header};
use crate::manifest::{
    generator, Manifest, ManifestReset, ManifestTestbench, ManifestTiming, FORMAT_VERSION,
};
use crate::output::Staging;
use crate::rtl::Module;
use crate::smem::vectors::SmemPlan;
use crate::smem::{MapSpec, SmemDesign};
use crate::Error;
use models::d2ma::data::{elements, shared_image, Extent, Source};
use models::d2ma::entry::Part;
use models::d2ma::tensor;
use models::d2ma::BufferEntry;
use models::smem::Shape;
use models::tma::{image, silicon, BoxLayout, Load, TensorMap};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use testbenches::Timing;

/// A global byte that names its address.
pub fn pattern(a: u64) -> u8 {
    (a ^ (a >> 8) ^ (a >> 16)) as u8
}

/// One buffer of a phase: its table entry and optional out-of-bounds extent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    /// The CTA whose controller holds it.
    pub cta: u32,
    /// The buffer within the CTA.
    pub buf: u32,
    /// The transfer.
    pub entry: BufferEntry,
    /// The global extent past which the transfer's elements are zero (configuration part 3).
    pub extent: Option<Extent>,
    /// A tensor load instead of the paper's transfer: `entry` is then its entry in tensor mode.
    pub tensor: Option<TensorLoad>,
}

/// A tensor load of the system: the slot that holds it, the map and the load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorLoad {
    /// The tensor slot.
    pub slot: u32,
    /// The tensor map.
    pub map: TensorMap,
    /// The load (coordinates, shared address).
    pub load: Load,
}

impl Buffer {
    /// A tensor load into CTA `cta`'s buffer `buf` through slot `slot`, checked for an engine
    /// writing `shared_bytes` of shared memory.
    pub fn tensor(
        (cta, buf, slot): (u32, u32, u32),
        map: TensorMap,
        load: Load,
        shared_bytes: u64,
    ) -> Result<Self, models::Error> {
        let layout = tensor::check(&map, &load, shared_bytes)?;
        Ok(Self {
            cta,
            buf,
            entry: tensor::entry(&load, &layout, slot as u16),
            extent: None,
            tensor: Some(TensorLoad { slot, map, load }),
        })
    }
}

/// What a buffer's transfer writes and reads: its configuration commands (part, CTA, buffer,
/// value), the shared image it leaves (byte address to byte), the segments it may request
/// (global address over the segment size), the bytes its completion counts.
struct Moves {
    commands: Vec<(u64, u32, u32, u64)>,
    image: BTreeMap<u32, u8>,
    segments: Vec<u64>,
    bytes: u64,
}

impl Moves {
    /// The moves of `b` in the engine `d` (global byte `a` holds [`pattern`]`(a)`).
    fn of(b: &Buffer, d: &D2maDesign) -> Self {
        let seg = u64::from(d.segment_bytes);
        let global = |a: u64| pattern(d.wrap_global(a));
        // Shape, halo, extent (or none: the extent outlives completion), then the global base
        // (last: it makes the entry ready).
        let mut commands = vec![
            (1, b.cta, b.buf, b.entry.part_value(Part::Shape)),
            (2, b.cta, b.buf, b.entry.part_value(Part::Halo)),
            (
                3,
                b.cta,
                b.buf,
                b.extent.map_or(0, |x| x.field(b.entry.two_d)),
            ),
            (
                0,
                b.cta,
                b.buf,
                d.wrap_global(b.entry.part_value(Part::Global)),
            ),
        ];
        if let Some(t) = &b.tensor {
            let layout = BoxLayout::of(&t.map);
            let words = tensor::slot_words(&t.map, &t.load, &layout);
            let (cta, buf) = (t.slot >> d.buf_bits(), t.slot & ((1 << d.buf_bits()) - 1));
            let slot_commands = words
                .iter()
                .enumerate()
                .map(|(w, &v)| (PART_SLOT + w as u64, cta, buf, v));
            commands.splice(0..0, slot_commands);
            let img = image(&t.map, &t.load, &global).unwrap_or_else(|e| unreachable!("{e}"));
            let image = img
                .bytes
                .iter()
                .enumerate()
                .filter_map(|(k, v)| v.map(|v| (img.start + k as u32, v)))
                .collect();
            let segments = tensor::segments(&t.map, &t.load, d.segment_bytes, d.global_bits)
                .unwrap_or_else(|e| unreachable!("{e}"));
            return Self {
                commands,
                image,
                segments,
                bytes: layout.transaction_bytes(),
            };
        }
        let mut segments = std::collections::BTreeSet::new();
        for e in elements(&b.entry, b.extent).unwrap_or_else(|e| unreachable!("{e}")) {
            if let Source::Global(g) = e.source {
                for a in [g, g + u64::from(e.bytes) - 1] {
                    segments.insert(d.wrap_global(a) / seg);
                }
            }
        }
        let image: BTreeMap<u32, u8> = shared_image(&b.entry, b.extent, global)
            .unwrap_or_else(|e| unreachable!("{e}"))
            .into_iter()
            .map(|(a, v)| (u32::from(a), v))
            .collect();
        Self {
            bytes: image.len() as u64,
            commands,
            image,
            segments: segments.into_iter().collect(),
        }
    }
}

/// The sizes of one system: engine, data path, shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct System {
    /// Resident CTAs, one controller each.
    pub ctas: u32,
    /// Buffers per CTA.
    pub buffers: u32,
    /// Global-memory segment bytes (32, 64 or 128).
    pub segment: u32,
    /// Global address bits.
    pub global_bits: u32,
    /// The shared memory's lanes, also the fill port's words per beat.
    pub lanes: u32,
    /// The shared memory's banks.
    pub banks: u32,
    /// Words per bank.
    pub depth: u32,
    /// Request records (MSHRs): requests in flight and chunks waiting to be written.
    pub mshrs: u32,
    /// The controller array's and the MSHR buffers' storage.
    pub storage: Storage,
    /// Tensor slots (0: the paper's entries only); with some, the phases include tensor loads.
    pub tensor_slots: u32,
}

impl System {
    /// Bytes of the shared memory: `banks x depth` words of 4 bytes.
    pub fn shared_bytes(&self) -> u64 {
        u64::from(self.banks) * u64::from(self.depth) * 4
    }

    /// Bits of a shared-memory word address: `log2(banks x depth)`.
    pub fn addr_bits(&self) -> u32 {
        (self.banks * self.depth).trailing_zeros()
    }

    /// The engine's data path into the shared memory's fill port (4-byte words, a beat of
    /// `lanes` words).
    pub fn data_path(&self) -> DataPath {
        DataPath {
            fill_words: self.lanes,
            word_bytes: 4,
            addr_bits: self.addr_bits(),
            mshrs: self.mshrs,
        }
    }

    /// The engine's design.
    ///
    /// # Panics
    /// If the engine's sizes are not valid ones (`D2maDesign::new`).
    pub fn design(&self) -> D2maDesign {
        D2maDesign::new(Unit::Engine, self.ctas, self.buffers, self.segment)
            .and_then(|d| d.with_global_bits(self.global_bits))
            .and_then(|d| d.with_tensor_slots(self.tensor_slots))
            .unwrap()
            .with_storage(self.storage)
    }
}

impl System {
    /// The paper's size: 8 CTAs x 4 buffers, 128 B segments (Table 3), 32-bit global
    /// addresses; 32 banks of 512 words (64 KB, the entry's shared space), 8 lanes and 8-word
    /// fill beats; 4 MSHRs; flip-flop storage.
    pub const PAPER: System = System {
        ctas: 8,
        buffers: 4,
        segment: 128,
        global_bits: 32,
        lanes: 8,
        banks: 32,
        depth: 512,
        mshrs: 4,
        storage: Storage::FlipFlop,
        tensor_slots: 0,
    };

    /// A small size: 2 CTAs x 2 buffers, 32 B segments, 24-bit global addresses, 8 banks of
    /// 256 words (8 KB), 4 lanes, 2 MSHRs (so requests wait for one often).
    pub const SMALL: System = System {
        ctas: 2,
        buffers: 2,
        segment: 32,
        global_bits: 24,
        lanes: 4,
        banks: 8,
        depth: 256,
        mshrs: 2,
        storage: Storage::FlipFlop,
        tensor_slots: 0,
    };
}

fn floats(global: u64, shared: u16, count: u16, stride: u16) -> BufferEntry {
    BufferEntry {
        global,
        shared,
        count,
        size: 2,
        stride,
        ..Default::default()
    }
}

fn tile(global: u64, shared: u16, rows: u16, cols: u16, ld: u16) -> BufferEntry {
    BufferEntry {
        two_d: true,
        count: rows << 8 | cols,
        ..floats(global, shared, 0, ld)
    }
}

/// The phases: sgemv's vector (Fig. 8); a 4 x 4 tile with a 1 x 1 halo in each of the nine
/// regions; strided, transposed and out-of-bounds tiles; 1-, 2- and 4-byte elements side by
/// side; SAXPY's x and y for every CTA (Fig. 12). `n` is the vector length; phases hold at most `ctas x buffers` buffers.
pub fn phases(s: &System, n: u16) -> Vec<Vec<Buffer>> {
    let slots: Vec<(u32, u32)> = (0..s.ctas)
        .flat_map(|c| (0..s.buffers).map(move |b| (c, b)))
        .collect();
    let place = |entries: Vec<(BufferEntry, Option<Extent>)>| -> Vec<Vec<Buffer>> {
        entries
            .chunks(slots.len())
            .map(|group| {
                group
                    .iter()
                    .zip(&slots)
                    .map(|(&(entry, extent), &(cta, buf))| Buffer {
                        cta,
                        buf,
                        entry,
                        extent,
                        tensor: None,
                    })
                    .collect()
            })
            .collect()
    };
    let mut out = Vec::new();
    out.extend(place(vec![(floats(0x8000, 0x100, n, 1), None)]));
    let halos = (1..=9u8)
        .map(|region| {
            let e = BufferEntry {
                mode: 1,
                halo_rows: 1,
                halo_cols: 1,
                region,
                halo_const: 0x1234 + u16::from(region),
                ..tile(
                    0x10000 + 0x40 * u64::from(region),
                    160 * u16::from(region),
                    4,
                    4,
                    64,
                )
            };
            (e, None)
        })
        .collect();
    out.extend(place(halos));
    let odd = vec![
        (floats(0x4000, 0x40, 16, 8), None),
        (floats(0x20000, 0x200, 32, 1024), None),
        (
            floats(0x6004, 0x400, 16, 1),
            Some(Extent { rows: 1, cols: 10 }),
        ),
        (
            BufferEntry {
                mode: 1,
                halo_rows: 1,
                halo_cols: 1,
                region: 9,
                ..tile(0x30000, 0x600, 4, 4, 64)
            },
            Some(Extent { rows: 3, cols: 2 }),
        ),
    ];
    out.extend(place(odd));
    // Element sizes side by side: a vector of floats, halfword tiles with halo constants and a
    // strided byte vector, walked around each other's completions (a chunk's element size is
    // the walked entry's, not what the controller's shared read port shows for a completing
    // one; this schedule does not place a constant chunk exactly in such a cycle).
    let halfword_tile = |global: u64, shared: u16, region: u8, halo_const: u16| BufferEntry {
        size: 1,
        mode: 1,
        halo_rows: 2,
        halo_cols: 2,
        region,
        halo_const,
        ..tile(global, shared, 4, 6, 64)
    };
    let sizes = vec![
        (floats(0x50000, 0x100, 12, 1), None),
        (halfword_tile(0x58000, 0x400, 1, 0xbeef), None),
        (
            BufferEntry {
                size: 0,
                ..floats(0x5c001, 0x800, 40, 3)
            },
            None,
        ),
        (halfword_tile(0x5a000, 0xa00, 5, 0x5a), None),
    ];
    out.extend(place(sizes));
    let saxpy = (0..s.ctas.min(4))
        .flat_map(|c| {
            let base = 0x100 + 2 * u64::from(c) * u64::from(n) * 4;
            let x = floats(0x40000 + u64::from(c) * u64::from(n) * 4, base as u16, n, 1);
            let y = floats(
                0x80000 + u64::from(c) * u64::from(n) * 4,
                (base + u64::from(n) * 4) as u16,
                n,
                1,
            );
            [(x, None), (y, None)]
        })
        .collect::<Vec<_>>();
    // SAXPY: CTA c's x and y in its buffers 0 and 1, all concurrent.
    let mut sax = Vec::new();
    for (k, (e, x)) in saxpy.into_iter().enumerate() {
        sax.push(Buffer {
            cta: k as u32 / 2,
            buf: k as u32 % 2,
            entry: e,
            extent: x,
            tensor: None,
        });
    }
    out.push(sax);
    out.extend(tensor_phases(s, &tensor_loads()));
    out
}

/// The directed tensor loads: swizzles of 128, 64 and 32 bytes and none; boxes crossing the
/// tensor's low and high ends in two dimensions, one wholly outside, NaN and zero fill;
/// element strides of 2 and 3; ranks 2, 3 and 5; elements of 1, 2, 4 and 8 bytes; 256-byte rows
/// across segments; shared addresses that are multiples of 128 but not of 1024 (the swizzle
/// acts on the shared address).
pub fn tensor_loads() -> Vec<(TensorMap, Load)> {
    let map = |json: &str| -> TensorMap {
        serde_json::from_str(json).unwrap_or_else(|e| unreachable!("a directed map: {e}"))
    };
    let halves = map(
        r#"{"data_type": "f16", "global_address": 262144, "global_dim": [100, 40],
            "global_strides": [256], "box_dim": [64, 8], "element_strides": [1, 2],
            "swizzle": "128B", "oob_fill": "nan"}"#,
    );
    let rank3 = map(
        r#"{"data_type": "u32", "global_address": 327680, "global_dim": [20, 7, 5],
            "global_strides": [96, 1024], "box_dim": [16, 4, 3], "element_strides": [1, 2, 2],
            "swizzle": "64B"}"#,
    );
    let floats = map(
        r#"{"data_type": "f32", "global_address": 331776, "global_dim": [40, 9, 6],
            "global_strides": [176, 1600], "box_dim": [32, 3, 2], "element_strides": [1, 1, 2],
            "swizzle": "128B", "oob_fill": "nan"}"#,
    );
    let doubles = map(
        r#"{"data_type": "f64", "global_address": 344064, "global_dim": [9, 30],
            "global_strides": [80], "box_dim": [4, 6], "element_strides": [1, 3],
            "swizzle": "32B"}"#,
    );
    let bytes = map(
        r#"{"data_type": "u8", "global_address": 393232, "global_dim": [300, 10],
            "global_strides": [320], "box_dim": [256, 3]}"#,
    );
    let rank5 = map(
        r#"{"data_type": "bf16", "global_address": 458752, "global_dim": [24, 3, 2, 2, 3],
            "global_strides": [64, 192, 384, 768], "box_dim": [8, 2, 2, 2, 3],
            "element_strides": [1, 1, 1, 1, 2], "oob_fill": "nan"}"#,
    );
    let load = |coords: &[i32], shared_address: u32| Load {
        coords: coords.to_vec(),
        shared_address,
    };
    vec![
        (halves.clone(), load(&[-8, 3], 0x480)),
        (halves.clone(), load(&[48, 36], 0x800)),
        (halves, load(&[-64, -20], 0xc00)),
        (rank3.clone(), load(&[-4, -2, 1], 0x1000)),
        (floats, load(&[16, 7, 3], 0x80)),
        (doubles, load(&[6, -5], 0x1200)),
        (bytes, load(&[-16, 8], 0x1300)),
        (rank5, load(&[16, 2, 1, 0, 1], 0x1680)),
        (rank3, load(&[8, 5, 0], 0x1800)),
    ]
}

/// Phases of `loads`, as many at once as the system has tensor slots: load `k` of a phase in
/// slot `k`, CTA `k / buffers`'s buffer `k % buffers`.
pub fn tensor_phases(s: &System, loads: &[(TensorMap, Load)]) -> Vec<Vec<Buffer>> {
    if s.tensor_slots == 0 {
        return Vec::new();
    }
    loads
        .chunks(s.tensor_slots as usize)
        .map(|group| {
            group
                .iter()
                .zip(0u32..)
                .map(|((map, load), k)| {
                    let at = (k / s.buffers, k % s.buffers, k);
                    Buffer::tensor(at, map.clone(), load.clone(), s.shared_bytes())
                        .unwrap_or_else(|e| unreachable!("a directed tensor load: {e}"))
                })
                .collect()
        })
        .collect()
}

/// The system testbench's files: its Verilog and its two tables, which it reads with
/// `$readmemh` from its working directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bench {
    /// The testbench module `tb_<name>`.
    pub source: String,
    /// `<name>.stim.hex`: one 160-bit record a line (configuration commands, loads, probes,
    /// phase ends; [`RECORD_LAYOUT`]).
    pub stimulus: String,
    /// `<name>.expect.hex`: per load, its byte mask (4 bits a lane) above its words (32 bits a
    /// lane, lane 0 lowest), from `models::d2ma::data::shared_image`.
    pub expected: String,
    /// The loads the testbench checks, each a vector of its `P passed, F failed` line.
    pub loads: usize,
}

/// The fields of a stimulus record, most significant first: kind (1 a configuration command,
/// 2 a load, 3 a probe, 4 a phase's end, 5 a segment the phase may request, 6 a buffer's
/// transaction bytes), phase, CTA, buffer, part, shared byte address, word address, data (a
/// command's value; a phase's number of completions; a segment's global address over the
/// segment size; the bytes a buffer's completion counts).
pub const RECORD_LAYOUT: [(&str, u32); 8] = [
    ("kind", 4),
    ("phase", 16),
    ("cta", 8),
    ("buf", 8),
    ("part", 8),
    ("addr", 16),
    ("word", 36),
    ("data", 64),
];

/// One stimulus record as a hex line ([`RECORD_LAYOUT`]).
fn record(fields: [u64; 8]) -> String {
    let mut line: String = RECORD_LAYOUT
        .iter()
        .zip(fields)
        .map(|(&(_, bits), value)| format!("{value:0width$x}", width = bits.div_ceil(4) as usize))
        .collect();
    line.push('\n');
    line
}

/// The testbench `tb_<name>` of `s` running `phases`: the engine, the shared memory (module
/// `smem_top`, generated by `rtl-gen smem` with `lanes` fill words), the memory model, the
/// command and load tables. `header` is its leading comment.
pub fn testbench(
    s: &System,
    name: &str,
    smem_top: &str,
    phases: &[Vec<Buffer>],
    header: &[String],
) -> Bench {
    let d = s.design();
    let dp = s.data_path();
    let (cb, bb, tb) = (d.cta_bits(), d.buf_bits(), dp.tag_bits());
    let part_bits = if d.tensor_slots > 0 {
        super::tensors::TENSOR_PART_BITS
    } else {
        super::PART_BITS
    };
    let (l, n) = (s.lanes, s.addr_bits());
    let seg = s.segment;
    // Commands: shape, halo, extent (or none), then the global base (last: it makes the entry
    // ready).
    let mut cmds = Vec::new();
    // Loads: (phase, cta, shared byte address, first word, expected words, masks).
    let mut loads = Vec::new();
    let mut probes = Vec::new();
    let mut completions = Vec::new();
    // Per buffer the bytes its transfer writes: its completion's transaction count.
    let mut transactions = Vec::new();
    // The segments each phase may request: those holding an element inside its extent (the
    // model's `Source::Global` elements), so the memory model fails a read outside.
    let mut segments = std::collections::BTreeSet::new();
    for (p, phase) in phases.iter().enumerate() {
        completions.push(phase.len());
        for b in phase {
            let moves = Moves::of(b, &d);
            segments.extend(moves.segments.iter().map(|&g| (p, g)));
            for &(part, cta, buf, value) in &moves.commands {
                cmds.push((p, cta, buf, part, value));
            }
            transactions.push((p, b.cta, b.buf, moves.bytes));
            let mut words: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
            for (&addr, &v) in &moves.image {
                let w = words.entry(addr / 4).or_default();
                let byte = addr % 4;
                w.0 |= u32::from(v) << (8 * byte);
                w.1 |= 1 << byte;
            }
            let first = *words.keys().next().unwrap();
            let last = *words.keys().last().unwrap();
            let mut w0 = first;
            while w0 <= last {
                let lanes: Vec<(u32, u32)> = (0..l)
                    .map(|k| words.get(&(w0 + k)).copied().unwrap_or((0, 0)))
                    .collect();
                // A window of bytes the transfer leaves untouched (a swizzled row narrower than
                // its span) is not read.
                if lanes.iter().any(|lane| lane.1 != 0) {
                    loads.push((p, b.cta, (w0 * 4).max(u32::from(b.entry.shared)), w0, lanes));
                }
                w0 += l;
            }
        }
        // Probes: every CTA, just below and above each of its buffers, and inside the buffers of
        // the other CTAs.
        for c in 0..s.ctas {
            for b in phase {
                let start = u32::from(b.entry.shared);
                let end = start + b.entry.shared_span() as u32;
                let mine = |a: u32| {
                    phase.iter().any(|o| {
                        let st = u32::from(o.entry.shared);
                        o.cta == c && a >= st && a < st + o.entry.shared_span() as u32
                    })
                };
                for a in [start.wrapping_sub(4), end, start] {
                    if a < 0x10000 && !mine(a) {
                        probes.push((p, c, a));
                    }
                }
            }
        }
    }
    let mut stimulus = String::new();
    for &(p, c, b, part, value) in &cmds {
        let (c, b) = (u64::from(c), u64::from(b));
        stimulus.push_str(&record([1, p as u64, c, b, part, 0, 0, value]));
    }
    for (p, c, a, w0, _) in &loads {
        stimulus.push_str(&record([
            2,
            *p as u64,
            u64::from(*c),
            0,
            0,
            u64::from(*a),
            u64::from(*w0),
            0,
        ]));
    }
    for &(p, c, a) in &probes {
        stimulus.push_str(&record([
            3,
            p as u64,
            u64::from(c),
            0,
            0,
            u64::from(a),
            0,
            0,
        ]));
    }
    for (p, &k) in completions.iter().enumerate() {
        stimulus.push_str(&record([4, p as u64, 0, 0, 0, 0, 0, k as u64]));
    }
    for &(p, segment) in &segments {
        stimulus.push_str(&record([5, p as u64, 0, 0, 0, 0, 0, segment]));
    }
    for &(p, c, b, bytes) in &transactions {
        let (c, b) = (u64::from(c), u64::from(b));
        stimulus.push_str(&record([6, p as u64, c, b, 0, 0, 0, bytes]));
    }
    let expected: String = loads
        .iter()
        .map(|(_, _, _, _, lanes)| {
            let mask: String = lanes.iter().rev().map(|x| format!("{:x}", x.1)).collect();
            let exp: String = lanes.iter().rev().map(|x| format!("{:08x}", x.0)).collect();
            format!("{mask}{exp}\n")
        })
        .collect();
    let records = cmds.len()
        + loads.len()
        + probes.len()
        + completions.len()
        + segments.len()
        + transactions.len();
    let mut v = String::new();
    let w = &mut v;
    let fw = dp.fill_words;
    for line in header {
        writeln!(w, "// {line}").unwrap();
    }
    writeln!(w, "{}", testbenches::TIMESCALE).unwrap();
    let gb = s.global_bits;
    write!(
        w,
        r#"module tb_{name};
  reg clk = 1'b0;
  reg rst_n = 1'b0;
  integer cycle = 0;
  localparam NR = {records};
  localparam NC = {nc};
  localparam NL = {nl};
  localparam NP = {np};
  localparam NPH = {nph};
  localparam NA = {na};
  localparam NT = {nt};
  localparam TIMEOUT = 200000 + 1000 * NL;

  // The tables: configuration commands, loads with their expected words, probes, phase ends.
  reg [{pm}:0] c_part [0:NC-1]; reg [63:0] c_data [0:NC-1]; reg [31:0] c_cta [0:NC-1];
  reg [31:0] c_buf [0:NC-1]; reg [31:0] c_phase [0:NC-1];
  reg [31:0] l_phase [0:NL-1]; reg [31:0] l_cta [0:NL-1]; reg [15:0] l_addr [0:NL-1];
  reg [{nm}:0] l_word [0:NL-1];
  // A load's byte mask (4 bits a lane) above its words (32 bits a lane).
  reg [{lem}:0] l_expect [0:NL-1];
  reg [31:0] p_phase [0:NP-1]; reg [31:0] p_cta [0:NP-1]; reg [15:0] p_addr [0:NP-1];
  reg [31:0] ph_done [0:NPH-1];
  // The segments each phase may request (global address over the segment size).
  reg [31:0] a_phase [0:NA-1]; reg [63:0] a_seg [0:NA-1];
  // Per buffer the bytes its transfer writes, which its completion must count.
  reg [31:0] t_phase [0:NT-1]; reg [31:0] t_cta [0:NT-1]; reg [31:0] t_buf [0:NT-1];
  reg [31:0] t_bytes [0:NT-1];
  // Stimulus records: kind 159:156, phase 155:140, CTA 139:132, buffer 131:124, part 123:116,
  // shared byte address 115:100, word address 99:64, data 63:0.
  reg [159:0] stim [0:NR-1];
  reg loaded = 1'b1;
  integer r, nc = 0, nl = 0, np = 0, nph = 0, na = 0, nt = 0;
  initial begin
    // A file that does not reach its last line leaves it zero: no record has kind 0, no load a
    // zero mask. A 4-state simulator leaves it X, which the kind's case and the parity catch.
    stim[NR-1] = 160'b0;
    $readmemh("{stim_file}", stim, 0, NR-1);
    l_expect[NL-1] = {{{lew}{{1'b0}}}};
    $readmemh("{expect_file}", l_expect, 0, NL-1);
    for (r = 0; r < NL; r = r + 1)
      if (l_expect[r][{lem}:{lw}] == {l4}'b0 || ((^l_expect[r]) !== 1'b0 && (^l_expect[r]) !== 1'b1))
        loaded = 1'b0;
    for (r = 0; r < NR; r = r + 1)
      case (stim[r][159:156])
        4'd1: begin
          c_phase[nc] = {{16'b0, stim[r][155:140]}}; c_cta[nc] = {{24'b0, stim[r][139:132]}};
          c_buf[nc] = {{24'b0, stim[r][131:124]}}; c_part[nc] = stim[r][{pt}:116]; c_data[nc] = stim[r][63:0];
          nc = nc + 1;
        end
        4'd2: begin
          l_phase[nl] = {{16'b0, stim[r][155:140]}}; l_cta[nl] = {{24'b0, stim[r][139:132]}};
          l_addr[nl] = stim[r][115:100]; l_word[nl] = stim[r][{wm}:64];
          nl = nl + 1;
        end
        4'd3: begin
          p_phase[np] = {{16'b0, stim[r][155:140]}}; p_cta[np] = {{24'b0, stim[r][139:132]}};
          p_addr[np] = stim[r][115:100];
          np = np + 1;
        end
        4'd4: begin
          ph_done[nph] = stim[r][31:0];
          nph = nph + 1;
        end
        4'd5: begin
          a_phase[na] = {{16'b0, stim[r][155:140]}}; a_seg[na] = stim[r][63:0];
          na = na + 1;
        end
        4'd6: begin
          t_phase[nt] = {{16'b0, stim[r][155:140]}}; t_cta[nt] = {{24'b0, stim[r][139:132]}};
          t_buf[nt] = {{24'b0, stim[r][131:124]}}; t_bytes[nt] = stim[r][31:0];
          nt = nt + 1;
        end
        default: loaded = 1'b0;
      endcase
    if (!loaded || nc != NC || nl != NL || np != NP || nph != NPH || na != NA || nt != NT) begin
      $display("FAIL the tables did not load whole from the working folder:");
      $display("  {stim_file}");
      $display("  {expect_file}");
      $fatal(1);
    end
  end

  // Engine ports.
  reg cfg_valid; reg [{cm}:0] cfg_cta; reg [{bm}:0] cfg_buf; reg [{pm}:0] cfg_part; reg [63:0] cfg_data;
  reg load_valid; reg [{cm}:0] load_cta; reg [15:0] load_addr;
  reg resp_valid; reg [{tm}:0] resp_tag; reg [{sm}:0] resp_data; reg mem_ready;
  wire req_valid; wire [{gm}:0] req_addr; wire [{tm}:0] req_tag;
  wire fill_valid; wire fill_ready; wire [{fm}:0] fill_mask; wire [{fam}:0] fill_addr;
  wire [{fdm}:0] fill_data; wire [{fbm}:0] fill_be;
  wire complete_valid; wire [{cm}:0] complete_cta; wire [{bm}:0] complete_buf;
  wire [16:0] complete_bytes; wire resp_ready;
  wire wait_o; wire [{ctm}:0] release_o;
  {engine} u_engine (
    .clk_i(clk), .rst_ni(rst_n), .cfg_valid_i(cfg_valid), .cfg_cta_i(cfg_cta), .cfg_buf_i(cfg_buf),
    .cfg_part_i(cfg_part), .cfg_data_i(cfg_data), .load_valid_i(load_valid), .load_cta_i(load_cta),
    .load_addr_i(load_addr), .mem_req_ready_i(mem_ready), .mem_resp_valid_i(resp_valid),
    .mem_resp_tag_i(resp_tag), .mem_resp_data_i(resp_data), .fill_ready_i(fill_ready),
    .mem_resp_ready_o(resp_ready), .complete_bytes_o(complete_bytes),
    .mem_req_valid_o(req_valid), .mem_req_addr_o(req_addr), .mem_req_tag_o(req_tag),
    .fill_valid_o(fill_valid), .fill_mask_o(fill_mask), .fill_addr_o(fill_addr), .fill_data_o(fill_data),
    .fill_be_o(fill_be), .complete_valid_o(complete_valid), .complete_cta_o(complete_cta),
    .complete_buf_o(complete_buf), .wait_o(wait_o), .release_o(release_o));

  // Shared memory ports (warp side).
  reg req_v; reg [{lam}:0] req_a; wire req_ready; wire resp_v; wire resp_w; wire [{ldm}:0] resp_d;
  wire [31:0] cnt_a; wire [31:0] cnt_f; wire [31:0] cnt_b; wire [31:0] cnt_c;
  {smem} u_smem (
    .clk_i(clk), .rst_ni(rst_n), .req_valid_i(req_v), .req_ready_o(req_ready), .req_write_i(1'b0),
    .req_mask_i({{{l}{{1'b1}}}}), .req_addr_i(req_a), .req_wdata_i({{{lw}{{1'b0}}}}), .req_be_i({{{lb}{{1'b0}}}}),
    .fill_valid_i(fill_valid), .fill_ready_o(fill_ready), .fill_mask_i(fill_mask), .fill_addr_i(fill_addr),
    .fill_data_i(fill_data), .fill_be_i(fill_be), .resp_valid_o(resp_v), .resp_ready_i(1'b1),
    .resp_write_o(resp_w), .resp_rdata_o(resp_d), .cnt_accesses_o(cnt_a), .cnt_fills_o(cnt_f),
    .cnt_bank_cycles_o(cnt_b), .cnt_conflict_cycles_o(cnt_c));
  wire unused_outputs = &{{1'b0, cnt_a, cnt_f, cnt_b, cnt_c, release_o, complete_cta, complete_buf, req_addr}};

  // Global memory: 16 requests in flight, each answered 4 to 35 cycles after it was taken,
  // the lowest slot due first (so out of order), its response held until the engine takes it
  // (mem_resp_ready_o); it takes no request a quarter of the cycles (mem_ready low), and fails
  // a request for a segment with no element of the phase's buffers inside their extents.
  reg [31:0] lfsr;
  integer requests = 0, allowed;
  reg m_valid [0:15]; reg [23:0] m_addr [0:15]; reg [{tm}:0] m_tag [0:15]; integer m_due [0:15];
  integer i, k, free_slot, due_slot, found;
  function [7:0] gbyte(input [23:0] a);
    gbyte = a[7:0] ^ a[15:8] ^ a[23:16];
  endfunction

  // The warp (0 idle, 1 load presented to the RAW check, 2 read presented, 3 awaiting data).
  integer phase = 0, ci = 0, li = 0, pi = 0, done_in_phase = 0, waits = 0, probes = 0;
  // Cycles since the last configuration command: an entry's RAW guard is exact once the span
  // unit's four steps have passed (before, it guards to the end of the shared space).
  integer settled = 0;
  integer passed = 0, failed = 0, reports = 0, state = 0, phase_start = 0;
  reg probe_turn = 1'b0;
  reg bad = 1'b0;
  reg [{ldm}:0] got;

  // Ends the run with the loads not yet read counted as failed.
  task fail_rest;
    begin
      $display("{name}: %0d passed, %0d failed",
        passed, NL - passed);
      $fatal(1);
    end
  endtask

  // The inputs of the engine and the shared memory for the next cycle: computed just before a
  // rising edge from what the outputs show, applied just after it (as non-blocking assignments
  // in a clocked process would be).
  reg [31:0] lfsr_d;
  reg cfg_valid_d; reg [{cm}:0] cfg_cta_d; reg [{bm}:0] cfg_buf_d; reg [{pm}:0] cfg_part_d; reg [63:0] cfg_data_d;
  reg load_valid_d; reg [{cm}:0] load_cta_d; reg [15:0] load_addr_d;
  reg resp_valid_d; reg [{tm}:0] resp_tag_d; reg [{sm}:0] resp_data_d; reg req_v_d; reg [{lam}:0] req_a_d;
  reg mem_ready_d;

  initial begin
    for (i = 0; i < 16; i = i + 1) m_valid[i] = 1'b0;
    lfsr = 32'h1;
    cfg_valid = 1'b0; load_valid = 1'b0; resp_valid = 1'b0; req_v = 1'b0; mem_ready = 1'b1;
    cfg_cta = 0; cfg_buf = 0; cfg_part = 0; cfg_data = 0; load_cta = 0; load_addr = 0;
    resp_tag = 0; resp_data = 0; req_a = 0;
    // In reset over two rising edges; the first cycle's edge is at 25 ns.
    #5 clk = 1'b1; #5 clk = 1'b0; #5 clk = 1'b1; #5 clk = 1'b0;
    #2 rst_n = 1'b1;
    #2;
    forever begin
      cycle = cycle + 1;
      lfsr_d = lfsr; cfg_valid_d = cfg_valid; cfg_cta_d = cfg_cta; cfg_buf_d = cfg_buf; cfg_part_d = cfg_part;
      cfg_data_d = cfg_data; load_valid_d = load_valid; load_cta_d = load_cta; load_addr_d = load_addr;
      resp_valid_d = resp_valid; resp_tag_d = resp_tag; resp_data_d = resp_data; req_v_d = req_v; req_a_d = req_a;
      lfsr_d = {{lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]}};
      // Memory: take a request, answer one that is due.
      // The engine offers a request only in a cycle the port takes it (mem_req_ready_i).
      if (req_valid && !mem_ready) begin $display("FAIL request while the port is busy"); fail_rest; end
      if (req_valid) begin
        requests = requests + 1;
        allowed = 0;
        for (i = 0; i < NA; i = i + 1)
          if (a_phase[i] == phase && a_seg[i] == {{{segpad}'b0, req_addr[{gm}:{seglg}]}}) allowed = 1;
        if (allowed == 0) begin
          $display("FAIL request for segment %h outside the extent of phase %0d (cycle %0d)",
            req_addr, phase, cycle);
          fail_rest;
        end
        free_slot = -1;
        for (i = 15; i >= 0; i = i - 1) if (!m_valid[i]) free_slot = i;
        if (free_slot < 0) begin $display("FAIL more than 16 requests in flight"); fail_rest; end
        m_valid[free_slot] = 1'b1; m_addr[free_slot] = req_addr[23:0]; m_tag[free_slot] = req_tag;
        m_due[free_slot] = cycle + 4 + {{27'b0, lfsr[4:0]}};
      end
      // A presented response stays until the engine takes it; then the next due one.
      if (!resp_valid || resp_ready) begin
        due_slot = -1;
        for (i = 15; i >= 0; i = i - 1) if (m_valid[i] && m_due[i] <= cycle) due_slot = i;
        resp_valid_d = due_slot >= 0;
        if (due_slot >= 0) begin
          m_valid[due_slot] = 1'b0;
          resp_tag_d = m_tag[due_slot];
          for (k = 0; k < {seg}; k = k + 1) resp_data_d[8*k +: 8] = gbyte(m_addr[due_slot] + k[23:0]);
        end
      end
      mem_ready_d = lfsr[9:8] != 2'b00;
      if (complete_valid) begin
        // The completion counts the bytes its transfer wrote, as an mbarrier's transaction.
        done_in_phase = done_in_phase + 1;
        found = 0;
        for (i = 0; i < NT; i = i + 1)
          if (t_phase[i] == phase && t_cta[i][{cm}:0] == complete_cta && t_buf[i][{bm}:0] == complete_buf) begin
            found = 1;
            if ({{15'b0, complete_bytes}} != t_bytes[i]) begin
              $display("FAIL buffer %0d of CTA %0d completed with %0d bytes, the model's %0d (cycle %0d)",
                complete_buf, complete_cta, complete_bytes, t_bytes[i], cycle);
              fail_rest;
            end
          end
        if (found == 0) begin
          $display("FAIL completion of buffer %0d of CTA %0d, not in phase %0d", complete_buf,
            complete_cta, phase);
          fail_rest;
        end
      end
      // Configuration commands of this phase, one a cycle.
      settled = cfg_valid ? 0 : settled + 1;
      cfg_valid_d = 1'b0;
      if (ci < NC && c_phase[ci] == phase) begin
        cfg_valid_d = 1'b1; cfg_cta_d = c_cta[ci][{cm}:0]; cfg_buf_d = c_buf[ci][{bm}:0];
        cfg_part_d = c_part[ci]; cfg_data_d = c_data[ci]; ci = ci + 1;
      end
      load_valid_d = 1'b0;
      if (state == 1 && probe_turn) begin
        // A probe outside its CTA's in-flight buffers must not wait; then the load again.
        if (wait_o) begin
          $display("FAIL probe of CTA %0d at %h waited (cycle %0d)", load_cta, load_addr, cycle);
          bad = 1'b1;
        end
        probe_turn = 1'b0; load_valid_d = 1'b1; load_cta_d = l_cta[li][{cm}:0]; load_addr_d = l_addr[li];
      end else if (state == 1 && wait_o) begin
        // The load waits for its buffer; a probe takes the port next cycle if one is left.
        waits = waits + 1;
        if (pi < NP && p_phase[pi] == phase && settled > 5) begin
          probe_turn = 1'b1; load_valid_d = 1'b1; load_cta_d = p_cta[pi][{cm}:0]; load_addr_d = p_addr[pi];
          pi = pi + 1; probes = probes + 1;
        end else begin
          load_valid_d = 1'b1; load_cta_d = l_cta[li][{cm}:0]; load_addr_d = l_addr[li];
        end
      end else if (state == 1) begin
        // The RAW check lets it go: read the words.
        state = 2; req_v_d = 1'b1;
        for (k = 0; k < {l}; k = k + 1) req_a_d[{n}*k +: {n}] = l_word[li] + k[{nm}:0];
      end else if (state == 2 && req_ready) begin
        state = 3; req_v_d = 1'b0;
      end else if (state == 3 && resp_v && !resp_w) begin
        got = resp_d;
        for (k = 0; k < {l4}; k = k + 1)
          if (l_expect[li][{lw} + k] && got[8*k +: 8] !== l_expect[li][8*k +: 8]) begin
            if (reports < 10)
              $display("MISMATCH load %0d byte %0d: got %h, model %h", li, k, got[8*k +: 8],
                l_expect[li][8*k +: 8]);
            reports = reports + 1; bad = 1'b1;
          end
        if (bad) failed = failed + 1; else passed = passed + 1;
        bad = 1'b0; li = li + 1; state = 0;
      end else if (state == 0 && li < NL && l_phase[li] == phase && (ci == NC || c_phase[ci] != phase)
                 && !cfg_valid) begin
        // Warps load once every command of the phase has been taken.
        state = 1; load_valid_d = 1'b1; load_cta_d = l_cta[li][{cm}:0]; load_addr_d = l_addr[li];
      end else if (state == 0 && (li == NL || l_phase[li] != phase) && done_in_phase == ph_done[phase]) begin
        // The phase ends when its loads are read and its buffers completed.
        $display("phase %0d: %0d cycles from its first command to its last load's data", phase,
          cycle - phase_start);
        phase = phase + 1; done_in_phase = 0; phase_start = cycle;
        while (pi < NP && p_phase[pi] < phase) pi = pi + 1;
      end
      if (phase == NPH) begin
        $display("{name}: %0d passed, %0d failed",
          passed, failed);
        $display("{name}: %0d cycles, %0d waits, %0d probes, %0d requests",
          cycle, waits, probes, requests);
        if (failed != 0) $fatal(1);
        $finish;
      end
      if (cycle > TIMEOUT) begin $display("FAIL timeout in phase %0d", phase); fail_rest; end
      #1 clk = 1'b1;
      #1;
      lfsr = lfsr_d; cfg_valid = cfg_valid_d; cfg_cta = cfg_cta_d; cfg_buf = cfg_buf_d; cfg_part = cfg_part_d;
      cfg_data = cfg_data_d; load_valid = load_valid_d; load_cta = load_cta_d; load_addr = load_addr_d;
      resp_valid = resp_valid_d; resp_tag = resp_tag_d; resp_data = resp_data_d; req_v = req_v_d; req_a = req_a_d;
      mem_ready = mem_ready_d;
      #4 clk = 1'b0;
      #4;
    end
  end
endmodule
"#,
        cm = cb - 1,
        bm = bb - 1,
        pm = part_bits - 1,
        pt = 115 + part_bits,
        tm = tb - 1,
        sm = seg * 8 - 1,
        gm = gb - 1,
        fm = fw - 1,
        fam = fw * n - 1,
        fdm = fw * 32 - 1,
        fbm = fw * 4 - 1,
        ctm = s.ctas - 1,
        engine = engine::data_name(&d, &dp),
        smem = smem_top,
        lam = l * n - 1,
        ldm = l * 32 - 1,
        lw = l * 32,
        lb = l * 4,
        l4 = l * 4,
        nm = n - 1,
        nc = cmds.len(),
        nl = loads.len(),
        np = probes.len(),
        nph = completions.len(),
        na = segments.len(),
        nt = transactions.len(),
        seglg = seg.trailing_zeros(),
        segpad = 64 - (gb - seg.trailing_zeros()),
        lem = 36 * l - 1,
        lew = 36 * l,
        wm = 64 + n - 1,
        stim_file = testbenches::testbench::stimulus_file_name(name),
        expect_file = testbenches::testbench::expected_file_name(name),
    )
    .unwrap();
    Bench {
        source: v,
        stimulus,
        expected,
        loads: loads.len(),
    }
}

/// The engine's modules with its data path, sub-modules first and the top last; `header` is
/// the leading comment of the top module (and of its data path's modules), `sub_header` that
/// of each of its units.
pub fn engine_modules(
    s: &System,
    header: Vec<String>,
    sub_header: &dyn Fn(&D2maDesign) -> Vec<String>,
) -> Vec<Module> {
    let (top, subs) = engine::build_with(&s.design(), Some(&s.data_path()), header, sub_header);
    subs.into_iter().chain(std::iter::once(top)).collect()
}

/// The most elements [`SystemDesign::new`] takes for sgemv's vector and SAXPY's x and y.
pub const MAX_VECTOR_LENGTH: u32 = 1024;

/// The elements of sgemv's vector and SAXPY's x and y unless asked otherwise (the folder's
/// name then has no `_v<length>`).
pub const DEFAULT_VECTOR_LENGTH: u32 = 256;

/// A system to generate, validated ([`SystemDesign::new`]): its sizes, the shared memory the
/// engine writes into, and the length of the vectors its phases move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemDesign {
    system: System,
    smem: SmemDesign,
    vector_length: u16,
    /// Phases of tensor loads after the directed ones (`--tensor-loads`, silicon cases).
    extra: Vec<Vec<Buffer>>,
}

/// One load of `--tensor-loads`: a tensor map (docs/TMA.md) and a load of its box.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorLoadSpec {
    /// The tensor map.
    pub map: TensorMap,
    /// The box's first coordinate per dimension (signed).
    pub coords: Vec<i32>,
    /// The shared address of the box (a multiple of 128).
    #[serde(default)]
    pub shared_address: u32,
}

fn bad(flag: &'static str, value: impl ToString, message: String) -> Error {
    Error::BadFlag {
        flag,
        value: value.to_string(),
        message,
    }
}

impl SystemDesign {
    /// Validates `system` with `map` in front of the shared memory's banks and
    /// `vector_length`-element vectors: an engine `D2maDesign` takes, at least 2 buffers a CTA
    /// (SAXPY's x and y), 2, 4, 8 or 16 MSHRs (the memory model holds 16 requests), a shared
    /// memory `rtl-gen smem` takes of at most 64 KB (the
    /// entry's 16-bit shared addresses) with a fixed map (the testbench programs none), and
    /// phases that fit it.
    pub fn new(system: System, map: MapSpec, vector_length: u32) -> Result<Self, Error> {
        let s = system;
        D2maDesign::new(Unit::Engine, s.ctas, s.buffers, s.segment)?
            .with_global_bits(s.global_bits)?
            .with_tensor_slots(s.tensor_slots)
            .map_err(|e| bad("--tensor-slots", s.tensor_slots, e.to_string()))?;
        if s.tensor_slots > 0 {
            for (map, load) in tensor_loads() {
                tensor::check(&map, &load, s.shared_bytes()).map_err(|e| {
                    bad(
                        "--depth",
                        s.depth,
                        format!("a directed tensor load does not fit: {e}"),
                    )
                })?;
            }
        }
        if s.buffers < 2 {
            return Err(bad(
                "--buffers",
                s.buffers,
                "the system needs 2 to 8 (SAXPY's x and y in buffers 0 and 1)".into(),
            ));
        }
        if !s.mshrs.is_power_of_two() || !(2..=16).contains(&s.mshrs) {
            return Err(bad(
                "--mshrs",
                s.mshrs,
                "2, 4, 8 or 16 (the global-memory model holds 16 requests)".into(),
            ));
        }
        let shape = Shape::new(s.lanes, s.banks, s.depth, 4)?;
        let bytes = u64::from(s.banks) * u64::from(s.depth) * 4;
        if bytes > 0x10000 {
            return Err(bad(
                "--depth",
                s.depth,
                format!(
                    "{} banks x {} words x 4 bytes is over 64 KB, the entry's shared space: at \
                     most {} words",
                    s.banks,
                    s.depth,
                    0x4000 / s.banks
                ),
            ));
        }
        let smem = SmemDesign::new(shape, map, s.lanes, None, 32)?;
        if smem.configurable() || smem.loadable() {
            return Err(bad(
                "--map",
                "a configurable or loadable map",
                "the system's testbench programs no map: a fixed hash or a baked RAP table".into(),
            ));
        }
        if !(1..=MAX_VECTOR_LENGTH).contains(&vector_length) {
            return Err(bad(
                "--vector-length",
                vector_length,
                format!("1 to {MAX_VECTOR_LENGTH} elements"),
            ));
        }
        let design = Self {
            system,
            smem,
            vector_length: vector_length as u16,
            extra: Vec::new(),
        };
        // The paper's transfers (the tensor loads are checked above).
        for b in design
            .phases()
            .iter()
            .flatten()
            .filter(|b| b.tensor.is_none())
        {
            shared_image(&b.entry, b.extent, pattern).map_err(|e| {
                bad(
                    "--vector-length",
                    vector_length,
                    format!("a phase's transfer: {e}"),
                )
            })?;
            let end = u64::from(b.entry.shared) + b.entry.shared_span();
            if end > bytes {
                return Err(bad(
                    "--depth",
                    s.depth,
                    format!(
                        "the phases (vectors of {vector_length} elements) reach shared byte \
                         {end:#x}, past the {bytes} bytes of {} banks x {} words: raise --depth \
                         or lower --vector-length",
                        s.banks, s.depth
                    ),
                ));
            }
        }
        Ok(design)
    }

    /// The sizes.
    pub fn system(&self) -> &System {
        &self.system
    }

    /// The shared memory.
    pub fn smem(&self) -> &SmemDesign {
        &self.smem
    }

    /// The directed phases ([`phases`]).
    pub fn phases(&self) -> Vec<Vec<Buffer>> {
        let mut all = phases(&self.system, self.vector_length);
        all.extend(self.extra.iter().cloned());
        all
    }

    /// The same system with `loads` after its phases, as many at once as it has tensor slots
    /// (load `k` of a phase in slot `k`); each checked with `models::tma`'s rules and the
    /// engine's, and the loads of one phase must not overlap in shared memory. A refusal names
    /// `flag`, the load (from 0) and the rule.
    pub fn with_tensor_loads(
        mut self,
        loads: &[TensorLoadSpec],
        flag: &'static str,
    ) -> Result<Self, Error> {
        let s = self.system;
        if s.tensor_slots == 0 {
            return Err(bad(flag, "given", "needs --tensor-slots 1 or more".into()));
        }
        let mut placed = Vec::new();
        for (k, spec) in loads.iter().enumerate() {
            let load = Load {
                coords: spec.coords.clone(),
                shared_address: spec.shared_address,
            };
            let layout = tensor::check(&spec.map, &load, s.shared_bytes())
                .map_err(|e| bad(flag, format!("load {k}"), e.to_string()))?;
            let start = u64::from(load.shared_address);
            placed.push((spec.map.clone(), load, start..start + layout.footprint()));
        }
        for (n, group) in placed.chunks(s.tensor_slots as usize).enumerate() {
            for (i, a) in group.iter().enumerate() {
                for (j, b) in group.iter().enumerate().skip(i + 1) {
                    if a.2.start < b.2.end && b.2.start < a.2.end {
                        let first = n * s.tensor_slots as usize;
                        return Err(bad(
                            flag,
                            format!("loads {} and {}", first + i, first + j),
                            format!(
                                "they run at once ({} tensor slots) and overlap in shared \
                                 memory ({:#x}..{:#x} and {:#x}..{:#x})",
                                s.tensor_slots, a.2.start, a.2.end, b.2.start, b.2.end
                            ),
                        ));
                    }
                }
            }
        }
        let loads: Vec<(TensorMap, Load)> = placed.into_iter().map(|(m, l, _)| (m, l)).collect();
        self.extra.extend(tensor_phases(&s, &loads));
        Ok(self)
    }

    /// The same system with the H100 load cases of `records` that fit the engine (TF32 loads,
    /// loads the model refuses and boxes past the shared memory are left out) after its phases,
    /// each moved to its own 1024-byte aligned region of shared memory (the swizzle repeats
    /// every 1024 bytes, so the case's offset within 1024 is kept), as many at once as the
    /// system has tensor slots and the shared memory holds. Returns it and the cases taken.
    pub fn with_silicon_cases(mut self, records: &[silicon::Record]) -> (Self, usize) {
        let s = self.system;
        let mut phases: Vec<Vec<(TensorMap, Load)>> = Vec::new();
        let (mut next, mut taken) = (0u64, 0);
        for record in records {
            let silicon::Record::Load(case, _) = record else {
                continue;
            };
            let Ok(layout) = tensor::check(&case.map, &case.load, u64::from(u32::MAX)) else {
                continue;
            };
            let offset = u64::from(case.load.shared_address % 1024);
            let size = offset + layout.footprint();
            if size > s.shared_bytes() {
                continue;
            }
            let full = phases
                .last()
                .is_none_or(|p| p.len() == s.tensor_slots as usize);
            if full || next + size > s.shared_bytes() {
                phases.push(Vec::new());
                next = 0;
            }
            let load = Load {
                coords: case.load.coords.clone(),
                shared_address: (next + offset) as u32,
            };
            next = (next + size).div_ceil(1024) * 1024;
            phases
                .last_mut()
                .unwrap_or_else(|| unreachable!())
                .push((case.map.clone(), load));
            taken += 1;
        }
        for phase in phases {
            self.extra.extend(tensor_phases(&s, &phase));
        }
        (self, taken)
    }

    /// Tensor loads in the phases after the directed ones.
    pub fn extra_loads(&self) -> usize {
        self.extra.iter().map(Vec::len).sum()
    }

    /// The folder's name: the engine's (`d2ma_system_c<ctas>_b<buffers>...`), `_m<MSHRs>`,
    /// the shared memory's without its `smem` (`_l<lanes>_b<banks>_d<depth>`, the
    /// map, `_f<lanes>`), and `_v<length>` for vectors other than [`DEFAULT_VECTOR_LENGTH`] elements.
    pub fn name(&self) -> String {
        let s = &self.system;
        let engine = s.design().name().replacen("d2ma_engine", "d2ma_system", 1);
        let smem = self.smem.name();
        let mut name = format!(
            "{engine}_m{}{}",
            s.mshrs,
            smem.strip_prefix("smem").unwrap_or(&smem)
        );
        if u32::from(self.vector_length) != DEFAULT_VECTOR_LENGTH {
            name.push_str(&format!("_v{}", self.vector_length));
        }
        if self.extra_loads() > 0 {
            name.push_str(&format!("_x{}", self.extra_loads()));
        }
        name
    }

    /// The map in front of the shared memory's banks: the hash kind (`modulo`, `xor-matrix`...)
    /// or `rap`.
    pub fn map_label(&self) -> String {
        match self.smem.map() {
            MapSpec::Hash { config, .. } => config.kind().to_string(),
            MapSpec::Rap(rap) => rap.kind_name().to_string(),
        }
    }

    /// What the system is, in a few words.
    pub fn summary(&self) -> String {
        let s = &self.system;
        format!(
            "D²MA engine ({} CTAs x {} buffers, {} B segments, {} MSHRs) writing a {}-lane x \
             {}-bank x {}-word shared memory ({}), with a global-memory model and a warp",
            s.ctas,
            s.buffers,
            s.segment,
            s.mshrs,
            s.lanes,
            s.banks,
            s.depth,
            self.map_label()
        )
    }

    /// Everything the system's folder holds, as `command` produced it (pure: no files):
    /// `(file name, text)` of the shared memory's modules, the engine's modules, the
    /// testbench and its two tables under `tb/`, then the manifest.
    pub fn render(&self, command: &str) -> (Vec<(String, String)>, Manifest) {
        let s = &self.system;
        let name = self.name();
        let design = s.design();
        let header = Header::new(command);
        let mut about = design.about();
        about.push(format!(
            "Data path into a shared memory's fill port: {} words of 4 bytes a beat, {} address \
             bits, {} MSHRs.",
            s.lanes,
            s.addr_bits(),
            s.mshrs
        ));
        let engine = engine_modules(s, header.lines(about, &[]), &|part| header.of(part));
        let engine_top = engine.last().unwrap_or_else(|| unreachable!("an engine"));
        let ports = crate::block::interface(engine_top)
            .into_iter()
            .map(|p| p.port)
            .collect();
        let smem = crate::block::render(&self.smem, &SmemPlan { seed: 1, random: 0 }, command);
        let mut files: Vec<(String, String)> = smem
            .manifest
            .rtl_files
            .iter()
            .filter_map(|f| smem.files.iter().find(|(n, _)| n == f).cloned())
            .collect();
        files.extend(engine.iter().map(|m| {
            let text = crate::block::with_timescale(&crate::rtl::verilog::emit(m));
            (format!("{}.v", m.name()), text)
        }));
        let rtl_files = files.iter().map(|(f, _)| f.clone()).collect();
        let tb_header = header.lines(
            vec![
                format!("The end-to-end testbench of {name}: the D²MA engine"),
                format!(
                    "{} with its data path writing the shared memory",
                    engine_top.name()
                ),
                format!("{} ({}),", self.smem.name(), self.map_label()),
                "a global-memory model answering out of order, and a warp reading every tile."
                    .into(),
            ],
            &[],
        );
        let bench = testbench(s, &name, &self.smem.name(), &self.phases(), &tb_header);
        let testbench = ManifestTestbench::for_block(
            &name,
            bench.loads,
            1,
            format!(
                "{} phases of directed transfers (sgemv's vector of {} floats, a halo tile in \
                 each of the nine regions, strided, transposed and out-of-bounds tiles, mixed \
                 element sizes, SAXPY{}){}; every word a warp reads and every completion's \
                 bytes checked against the model, probes outside in-flight buffers must not wait",
                self.phases().len(),
                self.vector_length,
                if s.tensor_slots > 0 {
                    format!(", {} tensor loads", tensor_loads().len())
                } else {
                    String::new()
                },
                if self.extra_loads() > 0 {
                    format!(" and {} more tensor loads", self.extra_loads())
                } else {
                    String::new()
                }
            ),
        );
        files.push((testbench.source.clone(), bench.source));
        files.push((testbench.stimulus.clone(), bench.stimulus));
        files.push((testbench.expected.clone(), bench.expected));
        let parameters = [
            ("CTAS", s.ctas),
            ("BUFFERS", s.buffers),
            ("SEGMENT_BYTES", s.segment),
            ("GLOBAL_BITS", s.global_bits),
            ("LANES", s.lanes),
            ("BANKS", s.banks),
            ("DEPTH", s.depth),
            ("ADDR_BITS", s.addr_bits()),
            ("MSHRS", s.mshrs),
            ("VECTOR_LENGTH", u32::from(self.vector_length)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), u64::from(v)))
        .collect();
        let mut structure = BTreeMap::new();
        if s.storage != Storage::default() {
            structure.insert("storage".to_string(), s.storage.name().to_string());
        }
        let manifest = Manifest {
            format_version: FORMAT_VERSION,
            generator: generator(),
            command: command.to_string(),
            family: "d2ma".into(),
            top: engine_top.name().to_string(),
            kind: "system".into(),
            variant: format!(
                "{} CTAs x {} buffers, {} lanes x {} banks x {} words",
                s.ctas, s.buffers, s.lanes, s.banks, s.depth
            ),
            summary: self.summary(),
            timing: ManifestTiming {
                timing: Timing::Clocked,
                static_inputs: Vec::new(),
                clock: Some("clk_i".into()),
                reset: Some(ManifestReset {
                    port: "rst_ni".into(),
                    asynchronous: true,
                    active_low: true,
                }),
            },
            parameters,
            configuration: serde_json::json!({
                "engine": design.configuration(),
                "data_path": s.data_path(),
                "smem": self.smem.config(),
                "vector_length": self.vector_length,
            }),
            ports,
            fields: BTreeMap::new(),
            program: BTreeMap::new(),
            write_ports: self.write_ports(&design),
            structure,
            rtl_files,
            parts: Vec::new(),
            macros: Vec::new(),
            testbench,
        };
        (files, manifest)
    }

    /// The engine's configuration port as the manifest (and the SystemRDL) describes it: the
    /// entries' three parts, the extent (part 3) and, with tensor slots, the slots' words.
    fn write_ports(&self, design: &D2maDesign) -> Vec<crate::manifest::ManifestWritePort> {
        let mut ports = design.write_ports();
        for port in &mut ports {
            port.words.push(super::extent::manifest_word());
            if design.tensor_slots > 0 {
                port.words.extend(super::tensors::manifest_words());
                port.description.push_str(
                    "; parts 4 to 20 write a tensor slot's words (software rewrites a slot only while no \
                     entry naming it is in flight)",
                );
            }
        }
        ports
    }

    /// Writes the system's folder `<out_dir>/<name>` atomically ([`Staging`]): the modules,
    /// the manifest `<name>.json` (its `top` is the engine, its testbench the system's), the
    /// filelist `<name>.f`, the testbench under `tb/`, the SystemRDL of the engine's
    /// configuration port `<engine>.rdl`, and the FuseSoC core `<engine>.core`
    /// with its synthesis script ([`crate::fusesoc`]: lint, both simulators on the system's
    /// testbench, and Yosys on the engine). Returns its path and the manifest.
    pub fn write(&self, command: &str, out_dir: &Path) -> Result<(PathBuf, Manifest), Error> {
        let name = self.name();
        Staging::check(out_dir, &name)?;
        let (files, manifest) = self.render(command);
        let staging = crate::block::stage_folder(out_dir, &name, &files, &manifest)?;
        for (file, text) in crate::fusesoc::files(&manifest) {
            staging.write(&file, &text)?;
        }
        // The engine's configuration port, named after the engine (the manifest's top).
        if let Some(rdl) = crate::rdl::description(&manifest) {
            staging.write(&format!("{}.rdl", manifest.top), &rdl)?;
        }
        if let Some(waivers) = crate::rdl::regblock_lint_waivers(&manifest) {
            let regs = crate::rdl::addrmap_name(&manifest.top);
            staging.write(&format!("{regs}.vlt"), &waivers)?;
        }
        Ok((staging.commit()?, manifest))
    }
}
