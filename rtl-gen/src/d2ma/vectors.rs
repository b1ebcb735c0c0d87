//! Stimulus and expected outputs for the D²MA blocks: directed cases from the paper, then
//! seeded random ones, with every expected value from the cycle models of [`super::cycle`].
//!
//! - RAW check (combinational): the SAXPY guards of Fig. 12, loads on every guard's edges,
//!   then random guards and loads near their edges.
//! - Controller array (one vector a cycle): random configuration commands of valid entries
//!   (parts in any order, writes to busy entries, part code 3), ignitions, completions and
//!   reads, so `dma_execute` restarts (a new global base after completion) occur too.
//! - AGEN (one vector a cycle): the directed transfers (the sgemv vector of Fig. 8, strided
//!   and transposed reads, a 2-D tile, halos in all nine regions, bank-conflict padding, any
//!   given with `--transfer`), then random valid entries, with `mem_ready_i` low at random,
//!   idle gaps, and starts while busy (ignored).
//! - Engine (one vector a cycle): SAXPY on two CTAs (Fig. 12: x and y buffered at once, loads
//!   that alias them waiting, then released), then random whole-entry configurations and
//!   `dma_execute` restarts, loads, memory back-pressure and responses returned in random
//!   order, drained until every buffer has completed.

use super::cycle::{
    self, AgenIn, AgenModel, ControllerIn, ControllerModel, EngineIn, EngineModel, RawIn,
};
use super::raw_check::END_BITS;
use super::{D2maDesign, Unit, CFG_DATA_BITS, CHUNK_BYTES_BITS, PART_BITS, SHARED_BITS};
use hdl_util::Bits;
use models::d2ma::entry::{ENTRY_BITS, FIELDS, SHARED_SPACE};
use models::d2ma::{BufferEntry, Guard, Part};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use testbenches::Vector;

/// How many random vectors or transfers to draw and from which seed, and the extra directed
/// transfers of an AGEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct D2maPlan {
    /// Seed of the ChaCha8 generator.
    pub seed: u64,
    /// Random cycles (controller, engine), random guard sets (RAW check) or random transfers
    /// (AGEN) after the directed ones.
    pub random: usize,
    /// Extra directed AGEN transfers (`--transfer`), validated by the caller; run after the
    /// built-in ones.
    pub transfers: Vec<BufferEntry>,
}

impl Default for D2maPlan {
    fn default() -> Self {
        Self {
            seed: 1,
            random: 2000,
            transfers: Vec::new(),
        }
    }
}

/// The entry as the 173 bits of an `entry_i` / `rd_entry_o` port.
pub fn entry_bits(e: &BufferEntry) -> Bits {
    let mut b = Bits::zero(ENTRY_BITS as usize);
    for f in &FIELDS {
        b.set_field(f.lsb as usize, f.width as usize, e.get(f));
    }
    b
}

fn bit(v: bool) -> Bits {
    Bits::from_u64(u64::from(v), 1)
}

fn num(v: u64, w: u32) -> Bits {
    Bits::from_u64(v, w as usize)
}

/// `values[i]` at bits `i*w +: w`.
fn packed(values: impl Iterator<Item = u64>, count: u32, w: u32) -> Bits {
    let mut b = Bits::zero((count * w) as usize);
    for (i, v) in values.enumerate() {
        b.set_field(i * w as usize, w as usize, v);
    }
    b
}

/// A random valid entry: small tiles so a testbench stays short, every mode and shape.
pub fn random_entry(rng: &mut ChaCha8Rng) -> BufferEntry {
    loop {
        let two_d = rng.gen_bool(0.5);
        let size: u8 = rng.gen_range(0..4);
        let mode = if two_d {
            rng.gen_range(0..3)
        } else {
            [0, 2][rng.gen_range(0..2)]
        };
        let global = if rng.gen_bool(0.1) {
            u64::MAX - rng.gen_range(0..4096)
        } else {
            rng.gen::<u64>() >> rng.gen_range(0..40)
        };
        let mut e = BufferEntry {
            global: global & !((1u64 << size) - 1),
            size,
            two_d,
            mode,
            region: rng.gen_range(1..=9),
            halo_const: rng.gen(),
            ..BufferEntry::default()
        };
        if two_d {
            let (rows, cols) = (rng.gen_range(1..=6u16), rng.gen_range(1..=24u16));
            e.count = rows << 8 | cols;
            if mode == 1 {
                e.halo_rows = rng.gen_range(0..=rows.min(2));
                e.halo_cols = rng.gen_range(0..=cols.min(3));
            }
            e.stride = cols + 2 * e.halo_cols + rng.gen_range(0..40);
        } else {
            e.count = rng.gen_range(1..=96);
            e.stride = [1, 1, 1, 2, 3, 7, 32, 33, 100][rng.gen_range(0..9)];
        }
        if mode == 2 {
            e.halo_cols = 1 << rng.gen_range(0..6);
        }
        let span = e.shared_span();
        if span >= SHARED_SPACE {
            continue;
        }
        e.shared = (rng.gen_range(0..=SHARED_SPACE - span) & !((1u64 << size) - 1)) as u16;
        if e.validate().is_ok() {
            return e;
        }
    }
}

/// The directed transfers, named: Fig. 8's sgemv vector (256 floats, aligned and not), a
/// strided vector, a transposed column, a 2-D tile, halos in all nine regions and bank padding.
pub fn directed_transfers() -> Vec<(String, BufferEntry)> {
    let sgemv = BufferEntry {
        global: 0x8000,
        shared: 0,
        count: 256,
        size: 2,
        stride: 1,
        ..BufferEntry::default()
    };
    let tile = BufferEntry {
        count: 8 << 8 | 16,
        two_d: true,
        stride: 1024,
        ..sgemv
    };
    let mut out = vec![
        ("sgemv 256 floats, unit stride (Fig. 8)".to_string(), sgemv),
        (
            "sgemv 256 floats, base 16 B past a segment".to_string(),
            BufferEntry {
                global: 0x8010,
                ..sgemv
            },
        ),
        (
            "16 floats, stride 8 (strided)".to_string(),
            BufferEntry {
                count: 16,
                stride: 8,
                ..sgemv
            },
        ),
        (
            "32 floats, stride 1024 (transposed column)".to_string(),
            BufferEntry {
                count: 32,
                stride: 1024,
                ..sgemv
            },
        ),
        ("2-D 8 x 16 floats, ld 1024".to_string(), tile),
    ];
    for region in 1..=9 {
        out.push((
            format!("2-D 4 x 4 floats, 1 x 1 halo, region {region}"),
            BufferEntry {
                count: 4 << 8 | 4,
                stride: 64,
                mode: 1,
                halo_rows: 1,
                halo_cols: 1,
                region,
                halo_const: 0x7f,
                ..tile
            },
        ));
    }
    out.push((
        "2-D 6 x 8 floats, 2 x 3 halo, region 5".to_string(),
        BufferEntry {
            count: 6 << 8 | 8,
            stride: 64,
            mode: 1,
            halo_rows: 2,
            halo_cols: 3,
            region: 5,
            halo_const: 0xbeef,
            ..tile
        },
    ));
    out.push((
        "2-D 8 x 32 floats, bank mode, blank every 32".to_string(),
        BufferEntry {
            count: 8 << 8 | 32,
            stride: 32,
            mode: 2,
            halo_cols: 32,
            ..tile
        },
    ));
    out
}

/// The vectors for `design` under `plan`.
pub fn vectors(design: &D2maDesign, plan: &D2maPlan) -> Vec<Vector> {
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    match design.block {
        Unit::RawCheck => raw_vectors(design, plan, &mut rng),
        Unit::Controller => controller_vectors(design, plan, &mut rng),
        Unit::Agen => agen_vectors(design, plan, &mut rng),
        Unit::Engine => engine_vectors(design, plan, &mut rng).0,
    }
}

fn raw_vector(design: &D2maDesign, input: &RawIn) -> Vector {
    let e = design.entries();
    let (wait, release) = cycle::raw_check(design, input);
    Vector {
        inputs: vec![
            bit(input.load_valid),
            num(u64::from(input.load_cta), design.cta_bits()),
            num(u64::from(input.load_addr), SHARED_BITS),
            packed(input.guards.iter().map(|g| u64::from(g.in_flight)), e, 1),
            packed(
                input.guards.iter().map(|g| u64::from(g.start)),
                e,
                SHARED_BITS,
            ),
            packed(input.guards.iter().map(|g| u64::from(g.end)), e, END_BITS),
            bit(input.done.is_some()),
            num(u64::from(input.done.unwrap_or(0)), design.cta_bits()),
        ],
        expected: vec![bit(wait), num(release, design.ctas)],
    }
}

fn raw_vectors(design: &D2maDesign, plan: &D2maPlan, rng: &mut ChaCha8Rng) -> Vec<Vector> {
    let e = design.entries() as usize;
    let b = design.buffers as usize;
    let idle = Guard {
        start: 0,
        end: 0,
        in_flight: false,
    };
    // SAXPY (Fig. 12): CTAs 0 and 1 each buffer x and y, 256 floats apiece, in their own
    // quarter of shared memory.
    let mut saxpy = vec![idle; e];
    for cta in 0..design.ctas.min(2) as usize {
        for buf in 0..b.min(2) {
            let shared = (cta * 0x800 + buf * 0x400) as u16;
            let vector = BufferEntry {
                global: 0x10_0000,
                shared,
                count: 256,
                size: 2,
                stride: 1,
                ..BufferEntry::default()
            };
            saxpy[cta * b + buf] = Guard::of(&vector, true);
        }
    }
    let mut out = Vec::new();
    let mut load = |guards: &[Guard], cta: u32, addr: u16, done: Option<u32>| {
        out.push(raw_vector(
            design,
            &RawIn {
                load_valid: true,
                load_cta: cta,
                load_addr: addr,
                guards: guards.to_vec(),
                done,
            },
        ));
    };
    for cta in 0..design.ctas.min(2) {
        for addr in [
            0u16, 0x3fc, 0x400, 0x7fc, 0x800, 0xbfc, 0xc00, 0xffc, 0x1000, 0xffff,
        ] {
            load(&saxpy, cta, addr, None);
        }
    }
    // x of CTA 0 completes: its warps are released, its loads go, y's still wait.
    let mut after = saxpy.clone();
    after[0].in_flight = false;
    load(&after, 0, 0x10, Some(0));
    load(&after, 0, 0x410, None);
    // Random guards, loads on and beside their edges, and random completions.
    for _ in 0..plan.random {
        let guards: Vec<Guard> = (0..e)
            .map(|_| {
                let start = rng.gen_range(0..SHARED_SPACE as u32);
                let end = (start + rng.gen_range(0..4096)).min(SHARED_SPACE as u32);
                Guard {
                    start,
                    end,
                    in_flight: rng.gen_bool(0.6),
                }
            })
            .collect();
        let g = guards[rng.gen_range(0..e)];
        let addr = match rng.gen_range(0..5) {
            0 => g.start.wrapping_sub(1),
            1 => g.start,
            2 => g.end.wrapping_sub(1),
            3 => g.end,
            _ => rng.gen_range(0..SHARED_SPACE as u32),
        } as u16;
        let input = RawIn {
            load_valid: rng.gen_bool(0.9),
            load_cta: rng.gen_range(0..1 << design.cta_bits()),
            load_addr: addr,
            guards,
            done: rng.gen_bool(0.3).then(|| rng.gen_range(0..design.ctas)),
        };
        out.push(raw_vector(design, &input));
    }
    out
}

fn controller_vectors(design: &D2maDesign, plan: &D2maPlan, rng: &mut ChaCha8Rng) -> Vec<Vector> {
    let (cb, bb, e) = (design.cta_bits(), design.buf_bits(), design.entries());
    let mut model = ControllerModel::new(design);
    let pool: Vec<BufferEntry> = (0..16).map(|_| random_entry(rng)).collect();
    let mut out = Vec::with_capacity(plan.random);
    for _ in 0..plan.random {
        let pick = |rng: &mut ChaCha8Rng| {
            (
                rng.gen_range(0..design.ctas),
                rng.gen_range(0..design.buffers),
            )
        };
        let cfg = rng.gen_bool(0.6).then(|| {
            let (c, b) = pick(rng);
            let part = if rng.gen_bool(0.05) {
                3
            } else {
                rng.gen_range(0..3)
            };
            let data = Part::ALL.get(part as usize).map_or(rng.gen(), |&p| {
                pool[rng.gen_range(0..pool.len())].part_value(p)
            });
            (c, b, part, data)
        });
        let ignite = rng.gen_bool(0.3).then(|| pick(rng));
        let done = rng.gen_bool(0.2).then(|| pick(rng));
        let input = ControllerIn {
            cfg,
            ignite,
            done,
            read: pick(rng),
        };
        let o = model.step(&input);
        let (cc, cbuf, cpart, cdata) = cfg.unwrap_or((0, 0, 0, 0));
        let (ic, ib) = ignite.unwrap_or((0, 0));
        let (dc, db) = done.unwrap_or((0, 0));
        out.push(Vector {
            inputs: vec![
                bit(cfg.is_some()),
                num(cc.into(), cb),
                num(cbuf.into(), bb),
                num(cpart.into(), PART_BITS),
                num(cdata, CFG_DATA_BITS),
                bit(ignite.is_some()),
                num(ic.into(), cb),
                num(ib.into(), bb),
                bit(done.is_some()),
                num(dc.into(), cb),
                num(db.into(), bb),
                num(input.read.0.into(), cb),
                num(input.read.1.into(), bb),
            ],
            expected: vec![
                packed(o.ready.iter().map(|&v| u64::from(v)), e, 1),
                packed(o.busy.iter().map(|&v| u64::from(v)), e, 1),
                packed(o.start.iter().map(|&v| u64::from(v)), e, SHARED_BITS),
                packed(o.end.iter().map(|&v| u64::from(v)), e, END_BITS),
                entry_bits(&o.read),
            ],
        });
    }
    out
}

/// One AGEN cycle of `design` as a vector, stepping `model` (global addresses wrapped to the
/// design's bits).
pub fn agen_vector(design: &D2maDesign, model: &mut AgenModel, input: &AgenIn) -> Vector {
    let g = design.global_bits;
    let o = model.step(input);
    let c = o.chunk.unwrap_or(models::d2ma::Chunk {
        global: 0,
        shared: 0,
        elements: 0,
        bytes: 0,
        constant: false,
        request: None,
    });
    Vector {
        inputs: vec![
            bit(input.start.is_some()),
            entry_bits(&input.start.unwrap_or_default()),
            bit(input.mem_ready),
        ],
        expected: vec![
            bit(o.busy),
            bit(o.chunk.is_some()),
            bit(c.constant),
            num(design.wrap_global(c.global), g),
            num(u64::from(c.shared), SHARED_BITS),
            num(u64::from(c.bytes), CHUNK_BYTES_BITS),
            bit(c.request.is_some()),
            num(design.wrap_global(c.request.unwrap_or(0)), g),
            num(u64::from(o.constant), SHARED_BITS),
            bit(o.done),
        ],
    }
}

fn agen_vectors(design: &D2maDesign, plan: &D2maPlan, rng: &mut ChaCha8Rng) -> Vec<Vector> {
    let mut model = AgenModel::new(design);
    let mut out = Vec::new();
    let mut queue: Vec<BufferEntry> = directed_transfers().into_iter().map(|(_, e)| e).collect();
    queue.extend_from_slice(&plan.transfers);
    queue.extend((0..plan.random).map(|_| random_entry(rng)));
    let directed = queue.len() - plan.random;
    for (n, entry) in queue.into_iter().enumerate() {
        // Directed transfers run with the memory port always free; random ones see it busy
        // a quarter of the time and start after an idle gap.
        let random = n >= directed;
        for _ in 0..if random { rng.gen_range(0..3) } else { 0 } {
            out.push(agen_vector(
                design,
                &mut model,
                &AgenIn {
                    start: None,
                    mem_ready: rng.gen_bool(0.5),
                },
            ));
        }
        out.push(agen_vector(
            design,
            &mut model,
            &AgenIn {
                start: Some(entry),
                mem_ready: true,
            },
        ));
        loop {
            let start = (random && rng.gen_bool(0.05)).then(|| random_entry(rng));
            let mem_ready = !random || rng.gen_bool(0.75);
            let v = agen_vector(design, &mut model, &AgenIn { start, mem_ready });
            let done = v.expected[9].bit(0);
            out.push(v);
            if done {
                break;
            }
        }
    }
    out
}

/// One engine cycle as a vector, stepping `model`.
fn engine_vector(
    design: &D2maDesign,
    model: &mut EngineModel,
    input: &EngineIn,
) -> (Vector, cycle::EngineOut) {
    let (cb, bb) = (design.cta_bits(), design.buf_bits());
    let o = model.step(input);
    let (c, tc, tb) = o.chunk.unwrap_or_default();
    let (cc, cbuf, cpart, cdata) = input.cfg.unwrap_or((0, 0, 0, 0));
    let (lc, la) = input.load.unwrap_or((0, 0));
    let (rc, rb) = input.resp.unwrap_or((0, 0));
    let (dc, db) = o.complete.unwrap_or((0, 0));
    let seg = design.segment_bytes;
    let v = Vector {
        inputs: vec![
            bit(input.cfg.is_some()),
            num(cc.into(), cb),
            num(cbuf.into(), bb),
            num(cpart.into(), PART_BITS),
            num(cdata, CFG_DATA_BITS),
            bit(input.load.is_some()),
            num(lc.into(), cb),
            num(la.into(), SHARED_BITS),
            bit(input.req_ready),
            bit(input.resp.is_some()),
            num(rc.into(), cb),
            num(rb.into(), bb),
        ],
        expected: vec![
            bit(c.request.is_some()),
            num(
                design.wrap_global(c.request.unwrap_or(0)),
                design.global_bits,
            ),
            num(tc.into(), cb),
            num(tb.into(), bb),
            bit(o.chunk.is_some()),
            bit(c.constant),
            num(c.shared.into(), SHARED_BITS),
            num(c.global % u64::from(seg), seg.trailing_zeros()),
            num(c.bytes.into(), CHUNK_BYTES_BITS),
            num(o.constant.into(), SHARED_BITS),
            bit(o.complete.is_some()),
            num(dc.into(), cb),
            num(db.into(), bb),
            bit(o.wait),
            num(o.release, design.ctas),
        ],
    };
    (v, o)
}

/// What an engine run measured, for docs/D2MA.md: cycles from the last configuration command
/// of the first SAXPY buffer to its first request, and the SAXPY phase's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineRun {
    /// Cycles from the cycle of the first buffer's last configuration command to its first
    /// request.
    pub config_to_first_request: usize,
    /// Cycles until both CTAs' x and y buffers completed.
    pub saxpy_cycles: usize,
}

/// The engine's vectors and what they measured.
pub fn engine_vectors(
    design: &D2maDesign,
    plan: &D2maPlan,
    rng: &mut ChaCha8Rng,
) -> (Vec<Vector>, EngineRun) {
    let mut model = EngineModel::new(design);
    let mut out = Vec::new();
    let mut run = EngineRun::default();
    let mut outstanding: Vec<(u32, u32)> = Vec::new();
    let mut script: VecDeque<(u32, u32, u32, u64)> = VecDeque::new();
    let b = design.buffers;
    // SAXPY: x and y of CTAs 0 and 1, 256 floats each, configured back to back.
    let mut saxpy = Vec::new();
    for cta in 0..design.ctas.min(2) {
        for buf in 0..b.min(2) {
            let e = BufferEntry {
                global: 0x10_0000 + u64::from(cta * 2 + buf) * 0x1000,
                shared: (cta * 0x800 + buf * 0x400) as u16,
                count: 256,
                size: 2,
                stride: 1,
                ..BufferEntry::default()
            };
            for part in [Part::Shape, Part::Halo, Part::Global] {
                script.push_back((cta, buf, part as u32, e.part_value(part)));
            }
            saxpy.push((cta, buf));
        }
    }
    let first_config = 2;
    let mut cycle = 0usize;
    let mut first_request = None;
    loop {
        assert!(cycle < 1_000_000, "the engine model did not drain");
        let saxpy_phase = run.saxpy_cycles == 0;
        let random_phase = !saxpy_phase && cycle < run.saxpy_cycles + plan.random;
        let idle = model.ctrl.entries.iter().all(|s| !s.busy) && script.is_empty();
        if !saxpy_phase && !random_phase && idle && outstanding.is_empty() {
            break;
        }
        if random_phase && script.is_empty() && rng.gen_bool(0.1) {
            let cta = rng.gen_range(0..design.ctas);
            let buf = rng.gen_range(0..b);
            let s = model.ctrl.entries[(cta * b + buf) as usize];
            if !s.busy {
                if s.mask == 0b110 && rng.gen_bool(0.4) {
                    // dma_execute: a new global base restarts the same shape.
                    script.push_back((cta, buf, 0, s.entry.global.wrapping_add(0x1000)));
                } else {
                    // Shape and halo in either order, the global base last: an entry that
                    // completed keeps its shape, so the global base alone would restart it.
                    let e = random_entry(rng);
                    let mut parts = vec![Part::Shape, Part::Halo];
                    if rng.gen_bool(0.5) {
                        parts.reverse();
                    }
                    parts.push(Part::Global);
                    for p in parts {
                        script.push_back((cta, buf, p as u32, e.part_value(p)));
                    }
                }
            }
        }
        let resp = (!outstanding.is_empty() && rng.gen_bool(0.5))
            .then(|| outstanding.swap_remove(rng.gen_range(0..outstanding.len())));
        let guards: Vec<(u32, u16, u32)> = model
            .ctrl
            .entries
            .iter()
            .enumerate()
            .filter(|(_, s)| s.busy)
            .map(|(i, s)| (i as u32 / b, s.entry.shared, s.end))
            .collect();
        let load =
            rng.gen_bool(0.5)
                .then(|| match guards.get(rng.gen_range(0..guards.len().max(1))) {
                    Some(&(cta, start, end)) if rng.gen_bool(0.8) => {
                        let addr = match rng.gen_range(0..4) {
                            0 => u32::from(start).wrapping_sub(1),
                            1 => u32::from(start),
                            2 => end.wrapping_sub(1),
                            _ => end,
                        };
                        (cta, addr as u16)
                    }
                    _ => (rng.gen_range(0..design.ctas), rng.gen()),
                });
        let input = EngineIn {
            cfg: if cycle >= first_config {
                script.pop_front()
            } else {
                None
            },
            load,
            req_ready: saxpy_phase || rng.gen_bool(0.8),
            resp,
        };
        let (v, o) = engine_vector(design, &mut model, &input);
        out.push(v);
        if let Some((c, tc, tb)) = o.chunk {
            if c.request.is_some() {
                outstanding.push((tc, tb));
                if first_request.is_none() {
                    first_request = Some(cycle);
                }
            }
        }
        cycle += 1;
        if saxpy_phase
            && cycle > first_config
            && script.is_empty()
            && outstanding.is_empty()
            && model.ctrl.entries.iter().all(|s| !s.busy)
        {
            run.saxpy_cycles = cycle;
        }
    }
    // The first buffer's last command went in at cycle first_config + 2.
    run.config_to_first_request = first_request.map_or(0, |r| r - (first_config + 2));
    (out, run)
}

/// What one directed AGEN transfer takes with the memory port always free: the cycle model's
/// count, which the co-simulation checks cycle by cycle against the RTL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgenRate {
    /// The transfer's name.
    pub name: String,
    /// Elements stored to shared memory (halo included).
    pub elements: usize,
    /// Cycles from `start_i` to `done_o`, both included (one load cycle, then one per chunk).
    pub cycles: usize,
    /// Segment requests issued.
    pub requests: usize,
    /// Halo constant stores.
    pub constant_stores: usize,
}

/// The [`AgenRate`] of every directed transfer and of `extra` ones.
pub fn agen_rates(design: &D2maDesign, extra: &[BufferEntry]) -> Vec<AgenRate> {
    let named = directed_transfers()
        .into_iter()
        .chain(extra.iter().map(|e| ("--transfer".to_string(), *e)));
    named
        .map(|(name, entry)| {
            let mut model = AgenModel::new(design);
            let mut input = AgenIn {
                start: Some(entry),
                mem_ready: true,
            };
            let (mut cycles, mut requests, mut constant_stores, mut elements) = (0, 0, 0, 0);
            loop {
                let o = model.step(&input);
                input.start = None;
                cycles += 1;
                if let Some(c) = o.chunk {
                    requests += usize::from(c.request.is_some());
                    constant_stores += usize::from(c.constant);
                    elements += c.elements as usize;
                }
                if o.done {
                    break;
                }
            }
            AgenRate {
                name,
                elements,
                cycles,
                requests,
                constant_stores,
            }
        })
        .collect()
}
