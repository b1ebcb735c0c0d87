//! The engine's data path into shared memory (`<engine>_writeback`): it streams every response
//! straight from the response port into the shared memory's fill port, and writes every halo
//! constant and out-of-bounds fill, with no copy of a segment's data.
//!
//! - **Chunk stage**: a chunk is registered in the cycle after the AGEN emits it, so that the
//!   AGEN's address logic and the extent's walk position (`stage_*_o` feed `<engine>_extent`,
//!   whose in-extent bytes come back as `chunk_keep_i`) are in different cycles. The walk-wide
//!   fields (`chunk_size_i` and the walk slot) are taken as the chunk leaves the stage: the
//!   engine ignites the next walk only when the stage is free.
//! - **Request records** (`mshrs` of them, any free one taken, lowest index first): a chunk
//!   leaves the stage into a free record. A chunk with bytes inside the extent (not a halo
//!   constant) requests its segment in that cycle, tagged with the record's index, and the
//!   record keeps what the response must be written as: shared address, offset in the
//!   segment, bytes, bytes inside the extent, element size and walk slot. One request per
//!   chunk: the shader's L1 merges requests to one segment in its MSHRs (GPGPU-Sim's GTX480
//!   has 32 MSHRs of 8 merged requests each), as it merges the warps' own. A chunk with no
//!   byte inside the extent, or a halo constant, takes a record that is ready at once (no
//!   request): the writer writes it from the record alone.
//! - **Writer**: one record at a time, in beats of up to `fill_words` consecutive shared words
//!   (word `k` of beat `c` is shared word `first + c x fill_words + k`, its bytes rotated out
//!   of the segment), records ready without data first, then the response on the port. The
//!   memory holds a response (`mem_resp_valid_i`, its tag and data) until the beat that ends
//!   its record is taken: `mem_resp_ready_o` is high in that cycle only. So the data path
//!   keeps no segment: the response's data goes from the response port through one byte
//!   rotator into the fill port (the back-pressure a response needs: `ceil((bytes + shared %
//!   word) / (fill_words x word_bytes))` beats, one more pass per two words of a beat in one
//!   bank, and the cycles the warp port takes the shared memory).
//! - **Completion counts bytes**, as an mbarrier's transaction count does: each walk holds one
//!   of two walk slots, which counts the bytes its chunks will write (added as a chunk leaves
//!   the stage) and the bytes written (taken off as a record's last beat is taken); a walk
//!   completes when its last chunk has left the stage and its count is zero, one completion a
//!   cycle, the bytes it wrote on `done_bytes_o`. Records are written in the order responses
//!   return, not in walk order.
//!
//! `chunk_ready_o` says a chunk may be produced this cycle if `mem_req_ready_i` is high (the
//! stage is empty or a record is free); it depends on registers only.

use super::packed::Packed;
use super::{D2maDesign, Storage, SHARED_BITS};
use crate::rtl::ir::bits_for;
use crate::rtl::{Expr, Module, Signal};
use serde::Serialize;
use std::ops::{Add, Not, Sub};

/// Bits of a chunk's byte count and of its in-extent byte count.
pub const BYTES_BITS: u32 = 8;

/// Bits of a walk's byte count: a walk writes at most the 64 KB shared space.
pub const WALK_BYTES_BITS: u32 = SHARED_BITS + 1;

/// Walks whose data may be in flight at once: the one the AGEN walks and one draining.
pub const WALK_SLOTS: u32 = 2;

/// The shared memory the data path writes and the records it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DataPath {
    /// Words per fill beat (the shared memory's `--fill-words`).
    pub fill_words: u32,
    /// Bytes per shared-memory word (4 or 8, its `--word-bytes`).
    pub word_bytes: u32,
    /// Bits of a shared-memory word address (`log2(banks * depth)`).
    pub addr_bits: u32,
    /// Request records (MSHRs): requests in flight and chunks waiting to be written, a power
    /// of two from 2 to 16.
    pub mshrs: u32,
}

impl DataPath {
    /// Bits of a record's index (a request's tag).
    pub fn tag_bits(&self) -> u32 {
        bits_for(u64::from(self.mshrs))
    }
}

/// The chunk as the stage registers it (the AGEN's outputs).
fn staged_layout(design: &D2maDesign) -> Packed {
    let seg_lg = design.segment_bytes.trailing_zeros();
    Packed::new([
        ("const", 1),
        ("last", 1),
        ("shared", SHARED_BITS),
        ("offset", seg_lg),
        ("bytes", BYTES_BITS),
        ("value", SHARED_BITS),
        ("xor", tensor_bits(design, 3)),
    ])
}

/// `bits`, in an engine with tensor slots; 0 (no field) otherwise.
fn tensor_bits(design: &D2maDesign, bits: u32) -> u32 {
    if design.tensor_slots > 0 {
        bits
    } else {
        0
    }
}

/// A request record: what the writer needs of a chunk.
fn record_layout(design: &D2maDesign) -> Packed {
    let seg_lg = design.segment_bytes.trailing_zeros();
    Packed::new([
        ("const", 1),
        ("shared", SHARED_BITS),
        ("base", seg_lg),
        ("end", REL_BITS),
        ("kend", REL_BITS),
        ("size", 2),
        ("value", SHARED_BITS),
        ("slot", bits_for(u64::from(WALK_SLOTS))),
        ("xor", tensor_bits(design, 3)),
        ("nan", tensor_bits(design, 1)),
    ])
}

/// The ports of the writeback.
struct Ports {
    push: Signal,
    c_const: Signal,
    c_last: Signal,
    c_shared: Signal,
    c_offset: Signal,
    c_segment: Signal,
    c_bytes: Signal,
    c_value: Signal,
    c_keep: Signal,
    c_size: Signal,
    tensor: Option<TensorPorts>,
    walk_start: Signal,
    walk_cta: Signal,
    walk_buf: Signal,
    req_ready: Signal,
    resp_valid: Signal,
    resp_tag: Signal,
    resp_data: Signal,
    fill_ready: Signal,
}

/// The ports of a tensor load's chunk: the swizzle's XOR, and the walk's fill.
struct TensorPorts {
    xor: Signal,
    nan: Signal,
}

impl Ports {
    fn tensor(&self) -> &TensorPorts {
        self.tensor
            .as_ref()
            .unwrap_or_else(|| unreachable!("tensor fields in an engine with tensor slots"))
    }

    fn declare(m: &mut Module, design: &D2maDesign, dp: &DataPath) -> Self {
        let seg_lg = design.segment_bytes.trailing_zeros();
        Self {
            push: m.input("chunk_valid_i", 1, "A chunk this cycle."),
            c_const: m.input("chunk_const_i", 1, "The chunk is a halo constant store."),
            c_last: m.input("chunk_last_i", 1, "The walk's last chunk."),
            c_shared: m.input("chunk_shared_i", SHARED_BITS, "Shared byte address."),
            c_offset: m.input("chunk_offset_i", seg_lg, "Offset in the segment."),
            c_segment: m.input(
                "chunk_segment_i",
                design.global_bits - seg_lg,
                "The chunk's segment (its global address over the segment size).",
            ),
            c_bytes: m.input("chunk_bytes_i", BYTES_BITS, "Bytes of the chunk."),
            c_value: m.input(
                "const_i",
                SHARED_BITS,
                "The halo constant, with chunk_const_i.",
            ),
            c_keep: m.input(
                "chunk_keep_i",
                BYTES_BITS,
                "Bytes of the staged chunk inside the global extent.",
            ),
            c_size: m.input("chunk_size_i", 2, "The walk's element size (log2 bytes)."),
            tensor: (design.tensor_slots > 0).then(|| TensorPorts {
                xor: m.input(
                    "chunk_xor_i",
                    3,
                    "The swizzle's XOR on the chunk's address bits 6:4 (a tensor load's).",
                ),
                nan: m.input(
                    "chunk_nan_i",
                    1,
                    "The walk fills with NaN (0x7ff7 repeated), else zeros.",
                ),
            }),
            walk_start: m.input("walk_start_i", 1, "A walk starts (the AGEN's start)."),
            walk_cta: m.input("walk_cta_i", design.cta_bits(), "The walk's CTA."),
            walk_buf: m.input("walk_buf_i", design.buf_bits(), "The walk's buffer."),
            req_ready: m.input("mem_req_ready_i", 1, "The memory port takes a request."),
            resp_valid: m.input("mem_resp_valid_i", 1, "A response is presented."),
            resp_tag: m.input(
                "mem_resp_tag_i",
                dp.tag_bits(),
                "The response's record (its request's tag).",
            ),
            resp_data: m.input(
                "mem_resp_data_i",
                design.segment_bytes * 8,
                "The segment, byte 0 lowest; held until mem_resp_ready_o.",
            ),
            fill_ready: m.input("fill_ready_i", 1, "The shared memory takes the beat."),
        }
    }
}

/// Builds `<engine>_writeback` for the engine `design` and the shared memory `dp`.
pub fn build(design: &D2maDesign, dp: &DataPath, name: &str, header: Vec<String>) -> Module {
    let mut m = Module::new(name).with_header(header);
    m.add_clock();
    let p = Ports::declare(&mut m, design, dp);
    let stage = Stage::build(&mut m, design, &p);
    let records = Records::declare(&mut m, design, dp);
    let walks = Walks::declare(&mut m, design);
    let leave = dispatch(&mut m, design, dp, &p, &stage, &records);
    let written = writer(&mut m, design, dp, &p, &records);
    records.update(&mut m, (design, dp), &p, &stage, &leave, &written, &walks);
    walks.update(&mut m, design, &p, &stage, &leave, &written, &records);
    m
}

/// The chunk stage: the AGEN's chunk of the last cycle, or the held copy of one that waits.
struct Stage {
    /// A chunk arrived this cycle (the AGEN's of the last), and its fields.
    arrived_valid: Signal,
    arrived: Signal,
    /// A chunk is in the stage.
    staged: Signal,
    /// The staged chunk's fields ([`Layout::staged`]), its segment and in-extent bytes.
    chunk: Signal,
    segment: Signal,
    keep: Signal,
    /// The chunk is a halo constant, or has no byte inside the extent: no request.
    no_data: Signal,
    /// The held copy's valid bit, whose next value [`dispatch`] gives.
    held_d: Signal,
}

impl Stage {
    /// The stage takes the AGEN's outputs every cycle with no enable, so that no multiplexer
    /// follows the AGEN's deepest logic; a chunk that cannot leave is copied into
    /// `stage_held*_q` (register to register) the cycle after it arrived, and the stage then
    /// shows the held copy. The AGEN emits nothing while a chunk waits, so at most one of the
    /// two is valid.
    fn build(m: &mut Module, design: &D2maDesign, p: &Ports) -> Self {
        let layout = staged_layout(design);
        let arrived_valid = m.register("stage_valid_q", p.push.expr(), 0);
        let (held_valid, held_d) = m.state("stage_held_valid", 1, 0);
        let staged = m.wire_of("staged", arrived_valid.expr().or(held_valid.expr()));
        let chunk = layout.pack(|name| match name {
            "const" => p.c_const.expr(),
            "last" => p.c_last.expr(),
            "shared" => p.c_shared.expr(),
            "offset" => p.c_offset.expr(),
            "bytes" => p.c_bytes.expr(),
            "value" => p.c_value.expr(),
            "xor" => p.tensor().xor.expr(),
            other => unreachable!("{other} is not a staged field"),
        });
        let arrived = m.register_unreset("stage_q", chunk, None, None);
        let arrived_segment = m.register_unreset("stage_segment_q", p.c_segment.expr(), None, None);
        let hold = |m: &mut Module, name: &str, arrived: &Signal| {
            let held = m.register_unreset(
                &format!("{name}_q"),
                arrived.expr(),
                Some(arrived_valid.expr()),
                None,
            );
            m.wire_of(
                &format!("{name}_now"),
                Expr::mux(held_valid.expr(), held.expr(), arrived.expr()),
            )
        };
        let chunk = hold(m, "stage_held", &arrived);
        let segment = hold(m, "stage_held_segment", &arrived_segment);
        // The extent counts a chunk as it arrives, from the stage's registers alone; its
        // in-extent bytes are held with it.
        let keep = hold(m, "stage_held_keep", &p.c_keep);
        let no_data = m.wire_of(
            "stage_no_data",
            layout
                .field(&chunk, "const")
                .or(keep.expr().eq(Expr::zeros(BYTES_BITS))),
        );
        Self {
            arrived_valid,
            arrived,
            staged,
            chunk,
            segment,
            keep,
            no_data,
            held_d,
        }
    }

    fn field(&self, design: &D2maDesign, name: &str) -> Expr {
        staged_layout(design).field(&self.chunk, name)
    }

    /// Bits `msb..=lsb` of the staged chunk's field `name`.
    fn chunk_field(&self, design: &D2maDesign, name: &str, msb: u32, lsb: u32) -> Expr {
        let (top, at) = staged_layout(design).range(name);
        assert!(at + msb <= top, "bits {msb}..{lsb} of field {name}");
        self.chunk.slice(at + msb, at + lsb)
    }
}

/// What leaves the stage this cycle: `fire` (into record `index`).
struct Leave {
    fire: Signal,
    index: Signal,
}

/// The request records: busy and ready bits (reset), the fields (unreset cells).
struct Records {
    busy: Signal,
    busy_d: Signal,
    ready: Signal,
    ready_d: Signal,
    cells: Vec<Signal>,
    layout: Packed,
}

impl Records {
    fn declare(m: &mut Module, design: &D2maDesign, dp: &DataPath) -> Self {
        let (busy, busy_d) = m.state("rec_busy", dp.mshrs, 0);
        let (ready, ready_d) = m.state("rec_ready", dp.mshrs, 0);
        let layout = record_layout(design);
        let cells = (0..dp.mshrs)
            .map(|i| m.wire(&format!("rec{i}"), layout.width()))
            .collect();
        Self {
            busy,
            busy_d,
            ready,
            ready_d,
            cells,
            layout,
        }
    }

    /// The lowest index set in `bits`, and whether any is set.
    fn lowest(m: &mut Module, name: &str, bits: &Signal, tb: u32) -> (Signal, Signal) {
        let any = m.wire_of(&format!("{name}_any"), bits.expr().reduce_or());
        let arms = (0..bits.width())
            .map(|i| (bits.bit(i), Expr::constant(u64::from(i), tb)))
            .collect();
        let index = m.wire_of(
            &format!("{name}_index"),
            Expr::select(arms, Expr::zeros(tb)),
        );
        (index, any)
    }

    /// The cells written as a chunk leaves the stage, and the busy and ready bits.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &self,
        m: &mut Module,
        (design, dp): (&D2maDesign, &DataPath),
        p: &Ports,
        stage: &Stage,
        leave: &Leave,
        written: &Written,
        walks: &Walks,
    ) {
        let tb = leave.index.width();
        let word = m.wire_of(
            "rec_wdata",
            self.layout.pack(|name| match name {
                "base" => rotation_base(design, dp, stage),
                "end" => lead_plus(design, dp, stage, stage.field(design, "bytes")),
                "kend" => lead_plus(design, dp, stage, stage.keep.expr()),
                "size" => p.c_size.expr(),
                "slot" => walks.current.expr(),
                "nan" => p.tensor().nan.expr(),
                _ => stage.field(design, name),
            }),
        );
        let storage = match design.storage {
            Storage::FlipFlop => Storage::FlipFlop,
            Storage::ClockGated | Storage::Latch => Storage::ClockGated,
        };
        let (mut busy, mut ready) = (vec![], vec![]);
        for (i, cell) in self.cells.iter().enumerate() {
            let at = |x: &Signal| x.expr().eq(Expr::constant(i as u64, tb));
            let take = m.wire_of(
                &format!("rec{i}_take"),
                leave.fire.expr().and(at(&leave.index)),
            );
            let q = storage.cell(m, &format!("rec{i}"), &word, take.expr());
            m.assign(cell, q.expr());
            let done = written.done.expr().and(written.sel.bit(i as u32));
            busy.push(
                take.expr()
                    .or(self.busy.bit(i as u32).and(done.clone().not())),
            );
            ready.push(
                take.expr()
                    .and(stage.no_data.expr())
                    .or(self.ready.bit(i as u32).and(done.not())),
            );
        }
        busy.reverse();
        ready.reverse();
        m.assign(&self.busy_d, Expr::concat(busy));
        m.assign(&self.ready_d, Expr::concat(ready));
    }
}

/// The stage's chunk leaves into the lowest free record: with a request when it needs data
/// (then only while the memory port takes it), at once otherwise. The stage waits otherwise,
/// and the AGEN may emit only when the stage is empty or a record is free.
fn dispatch(
    m: &mut Module,
    design: &D2maDesign,
    dp: &DataPath,
    p: &Ports,
    stage: &Stage,
    records: &Records,
) -> Leave {
    let tb = dp.tag_bits();
    let seg_lg = design.segment_bytes.trailing_zeros();
    let free = m.wire_of("rec_free", records.busy.expr().not());
    let (index, any_free) = Records::lowest(m, "alloc", &free, tb);
    let fire = m.wire_of(
        "stage_fire",
        stage
            .staged
            .expr()
            .and(any_free.expr())
            .and(p.req_ready.expr().or(stage.no_data.expr())),
    );
    let request = m.wire_of("request", fire.expr().and(stage.no_data.expr().not()));
    m.assign(&stage.held_d, stage.staged.expr().and(fire.expr().not()));
    let stage_free_o = m.output(
        "stage_free_o",
        1,
        "No chunk stays in the stage after this cycle.",
    );
    m.assign(&stage_free_o, stage.staged.expr().not().or(fire.expr()));
    let arrived_o = m.output(
        "stage_arrived_o",
        1,
        "A chunk arrives in the stage (the AGEN's chunk of the last cycle).",
    );
    m.assign(&arrived_o, stage.arrived_valid.expr());
    let bytes_o = m.output("stage_bytes_o", BYTES_BITS, "The arriving chunk's bytes.");
    let arrived_bytes = staged_layout(design).field(&stage.arrived, "bytes");
    m.assign(&bytes_o, arrived_bytes);
    let req_valid_o = m.output("req_valid_o", 1, "A segment request.");
    let req_addr_o = m.output(
        "req_addr_o",
        design.global_bits,
        "The requested segment's address.",
    );
    let tag_o = m.output("req_tag_o", tb, "The request's record.");
    m.assign(&req_valid_o, request.expr());
    m.assign(
        &req_addr_o,
        Expr::mux(
            request.expr(),
            Expr::concat(vec![stage.segment.expr(), Expr::zeros(seg_lg)]),
            Expr::zeros(design.global_bits),
        ),
    );
    m.assign(
        &tag_o,
        Expr::mux(request.expr(), index.expr(), Expr::zeros(tb)),
    );
    let ready_o = m.output(
        "chunk_ready_o",
        1,
        "A chunk may be produced this cycle (with mem_req_ready_i).",
    );
    m.assign(&ready_o, stage.staged.expr().not().or(any_free.expr()));
    Leave { fire, index }
}

/// The segment byte that a record's first beat starts with: its offset in the segment less
/// its shared address's place in its word (the writer adds the beat's offset).
fn rotation_base(design: &D2maDesign, dp: &DataPath, stage: &Stage) -> Expr {
    let seg_lg = design.segment_bytes.trailing_zeros();
    let wlg = dp.word_bytes.trailing_zeros();
    let lead = stage.chunk_field(design, "shared", wlg - 1, 0);
    stage.field(design, "offset").sub(lead.zext(seg_lg))
}

/// `bytes` plus the staged chunk's lead in its first shared word, in [`REL_BITS`] bits: where
/// the record's bytes end, counted from that word's first byte.
fn lead_plus(design: &D2maDesign, dp: &DataPath, stage: &Stage, bytes: Expr) -> Expr {
    let wlg = dp.word_bytes.trailing_zeros();
    let lead = stage.chunk_field(design, "shared", wlg - 1, 0);
    bytes.zext(REL_BITS).add(lead.zext(REL_BITS))
}

/// The writer's outcome, registered: record `done_sel` (one-hot) was written out in the last
/// cycle, with its bytes and walk slot (the walk's count takes them off a cycle later).
struct Written {
    /// This cycle: the job's record (one-hot) and whether its last beat is taken.
    sel: Signal,
    done: Signal,
    /// Registered: a record was written out in the last cycle, its bytes and walk slot.
    done_q: Signal,
    bytes_q: Signal,
    slot_q: Signal,
}

/// The lowest bit set in `bits`, one-hot.
fn lowest_one_hot(m: &mut Module, name: &str, bits: &Signal) -> Signal {
    let mut below = Expr::constant(0, 1);
    let mut out = vec![];
    for i in 0..bits.width() {
        out.push(bits.bit(i).and(below.clone().not()));
        below = below.or(bits.bit(i));
    }
    out.reverse();
    m.wire_of(name, Expr::concat(out))
}

/// The writer: a job is a record, continued from the last cycle (`job_sel_q`, one-hot) or
/// chosen now (the lowest record ready without data, else the presented response's); its
/// beats go to the fill port.
fn writer(
    m: &mut Module,
    design: &D2maDesign,
    dp: &DataPath,
    p: &Ports,
    records: &Records,
) -> Written {
    let (n, tb) = (dp.mshrs, dp.tag_bits());
    let (job, job_d) = m.state("job_sel", n, 0);
    let (job_data, job_data_d) = m.state("job_data", 1, 0);
    let active = m.wire_of("job_active", job.expr().reduce_or());
    let nodata = lowest_one_hot(m, "nodata_sel", &records.ready);
    let any_nodata = m.wire_of("nodata_any", records.ready.expr().reduce_or());
    let resp = (0..n)
        .rev()
        .map(|i| {
            p.resp_valid
                .expr()
                .and(p.resp_tag.expr().eq(Expr::constant(u64::from(i), tb)))
        })
        .collect();
    let resp = m.wire_of("resp_sel", Expr::concat(resp));
    let sel = m.wire_of(
        "job_now",
        Expr::select(
            vec![
                (active.expr(), job.expr()),
                (any_nodata.expr(), nodata.expr()),
            ],
            resp.expr(),
        ),
    );
    let data = m.wire_of(
        "job_now_data",
        Expr::mux(active.expr(), job_data.expr(), any_nodata.expr().not()),
    );
    let valid = m.wire_of("job_valid", sel.expr().reduce_or());
    let arms = (0..n)
        .map(|i| (sel.bit(i), records.cells[i as usize].expr()))
        .collect();
    let rec = m.wire_of("job", Expr::one_hot_select(arms, records.layout.width()));
    let beat = Beat::build(m, design, dp, p, records, &rec);
    let taken = m.wire_of("beat_taken", valid.expr().and(p.fill_ready.expr()));
    let done = m.wire_of("job_done", taken.expr().and(beat.last.expr()));
    let fill_valid_o = m.output("fill_valid_o", 1, "A fill beat.");
    m.assign(&fill_valid_o, valid.expr());
    let f = dp.fill_words;
    let mask_o = m.output("fill_mask_o", f, "Words of the beat written.");
    m.assign(
        &mask_o,
        Expr::mux(valid.expr(), beat.mask.expr(), Expr::zeros(f)),
    );
    let resp_ready_o = m.output(
        "mem_resp_ready_o",
        1,
        "The response's data is written: the memory may drop it.",
    );
    m.assign(&resp_ready_o, done.expr().and(data.expr()));
    m.assign(
        &job_d,
        Expr::mux(
            taken.expr(),
            Expr::mux(beat.last.expr(), Expr::zeros(n), sel.expr()),
            job.expr(),
        ),
    );
    m.assign(&job_data_d, data.expr());
    m.assign(
        &beat.offset_d,
        Expr::mux(
            taken.expr(),
            Expr::mux(
                beat.last.expr(),
                Expr::zeros(beat.offset_d.width()),
                beat.next_offset.clone(),
            ),
            beat.offset.expr(),
        ),
    );
    let done_q = m.register("done_q", done.expr(), 0);
    // The record's bytes: its end less its lead.
    let wlg = dp.word_bytes.trailing_zeros();
    let (_, at) = records.layout.range("shared");
    let bytes = records
        .layout
        .field(&rec, "end")
        .sub(rec.slice(at + wlg - 1, at).zext(REL_BITS));
    let bytes_q = m.register_unreset("done_bytes_q", bytes, None, None);
    let slot_q = m.register_unreset(
        "done_slot_q",
        records.layout.field(&rec, "slot"),
        None,
        None,
    );
    Written {
        sel,
        done,
        done_q,
        bytes_q,
        slot_q,
    }
}

/// Bits of a byte's place in a record, counted from its first word's first byte: a chunk's
/// bytes (8 bits) plus its lead in that word.
const REL_BITS: u32 = BYTES_BITS + 1;

/// One beat of the record a job writes: shared words `first + beat x fill_words + k`.
struct Beat {
    /// The beat's number in the job, and its next value.
    offset: Signal,
    offset_d: Signal,
    next_offset: Expr,
    /// The beat ends the record; the words it writes.
    last: Signal,
    mask: Signal,
}

/// Whether `{hi, q}` (a beat number above a constant byte place `q` of `low` bits) is below
/// `limit`, for every `q`: the high parts compared once, the low ones as a thermometer.
fn below_each(m: &mut Module, name: &str, hi: &Signal, low: u32, limit: &Signal) -> Vec<Expr> {
    let lh = m.wire_of(&format!("{name}_hi"), limit.slice(REL_BITS - 1, low));
    let lt = m.wire_of(&format!("{name}_lt"), hi.expr().lt(lh.expr()));
    let eq = m.wire_of(&format!("{name}_eq"), hi.expr().eq(lh.expr()));
    (0..1u64 << low)
        .map(|q| {
            if q + 1 == 1 << low {
                // Nothing of `low` bits is above the largest place.
                return lt.expr();
            }
            let q_below = Expr::constant(q, low).lt(limit.slice(low - 1, 0));
            lt.expr().or(eq.expr().and(q_below))
        })
        .collect()
}

impl Beat {
    /// The fill port's addresses, data and byte enables for record `rec` at beat `beat`: byte
    /// `q` of the beat is the record's byte `rel = beat x beat_bytes + q` from its first word,
    /// written where `lead <= rel < end`, fetched from the segment rotated by the record's base
    /// plus the beat's offset where `rel < kept_end`, else the fill; a halo constant's bytes
    /// are the constant's, zero-extended to the element.
    fn build(
        m: &mut Module,
        design: &D2maDesign,
        dp: &DataPath,
        p: &Ports,
        records: &Records,
        rec: &Signal,
    ) -> Self {
        let (f, wb, ab) = (dp.fill_words, dp.word_bytes, dp.addr_bits);
        let wlg = wb.trailing_zeros();
        let seg = design.segment_bytes;
        let seg_lg = seg.trailing_zeros();
        let field = |name: &str| records.layout.field(rec, name);
        let beat_bytes = f * wb;
        let low = beat_bytes.trailing_zeros();
        let bb = REL_BITS - low.min(REL_BITS - 1);
        let (beat, beat_d) = m.state("job_beat", bb, 0);
        let shared = m.wire_of("job_shared", field("shared"));
        let end = m.wire_of("job_end", field("end"));
        let kend = m.wire_of("job_kept_end", field("kend"));
        let inside = below_each(m, "beat_end", &beat, low, &end);
        let kept = below_each(m, "beat_kept", &beat, low, &kend);
        // The beat is the last when the record ends within it: end <= (beat + 1) x beat_bytes.
        let next = m.wire_of("job_beat_next", beat.expr().add(Expr::constant(1, bb)));
        let last = m.wire_of(
            "beat_last",
            end.slice(REL_BITS - 1, low).lt(next.expr()).or(end
                .slice(REL_BITS - 1, low)
                .eq(next.expr())
                .and(end.slice(low - 1, 0).eq(Expr::zeros(low)))),
        );
        let first_beat = m.wire_of("first_beat", beat.expr().eq(Expr::zeros(bb)));
        let lead = shared.slice(wlg - 1, 0);
        let base = m.wire_of("beat_base", field("base").add(shifted(&beat, low, seg_lg)));
        let rot = rotate(m, &p.resp_data, &base, beat_bytes.min(seg));
        // Word addresses as the shared memory takes them: the low `addr_bits` of the shared
        // byte address over the word size.
        let aw = ab.min(SHARED_BITS - wlg);
        if aw + wlg < SHARED_BITS {
            m.sink_unused("job_shared", shared.slice(SHARED_BITS - 1, aw + wlg));
        }
        let first = m.wire_of(
            "job_first",
            shared
                .slice(aw + wlg - 1, wlg)
                .add(shifted(&beat, low - wlg, aw)),
        );
        let size = field("size");
        let value = m.wire_of("job_value", field("value"));
        let constant = field("const");
        let tensor = design.tensor_slots > 0;
        let swizzle = tensor.then(|| {
            let at = 4 - wlg;
            assert!(aw >= at + 3, "word addresses reach the swizzle's bits");
            let xor = Expr::concat(vec![field("xor"), Expr::zeros(at)]);
            xor.zext(aw)
        });
        let nan = tensor.then(|| field("nan"));
        let (mut addrs, mut datas, mut bes, mut mask) = (vec![], vec![], vec![], vec![]);
        for k in 0..f {
            let word = m.wire_of(
                &format!("w{k}_addr"),
                first.expr().add(Expr::constant(u64::from(k), aw)),
            );
            let word_addr = match &swizzle {
                // A tensor load's swizzle moves the word's 16-byte chunk by its row's XOR.
                Some(xor) => word.expr().xor(xor.clone()),
                None => word.expr(),
            };
            addrs.push(word_addr.zext(ab));
            mask.push(inside[(k * wb) as usize].clone());
            let (mut bytes, mut enables) = (vec![], vec![]);
            for j in 0..wb {
                let q = (k * wb + j) as usize;
                // Only the first word of the first beat has bytes before the record's lead.
                let after_lead = if k > 0 {
                    Expr::constant(1, 1)
                } else {
                    first_beat.expr().not().or(lead
                        .clone()
                        .zext(wlg + 1)
                        .lt(Expr::constant(u64::from(j) + 1, wlg + 1)))
                };
                // The byte's place in its element: its address's low 3 bits under the size.
                let lane = if wlg >= 3 {
                    Expr::constant(u64::from(j & 7), 3)
                } else {
                    Expr::concat(vec![word.bit(0), Expr::constant(u64::from(j), wlg)])
                };
                let in_element = Expr::case(
                    &size,
                    (0..4u64)
                        .map(|s| (s, lane.clone().and(Expr::constant((1 << s) - 1, 3))))
                        .collect(),
                    Expr::zeros(3),
                );
                let cbyte = Expr::case(
                    &in_element,
                    vec![(0, value.slice(7, 0)), (1, value.slice(15, 8))],
                    Expr::zeros(8),
                );
                // Outside the tensor or the extent: zeros, or a tensor map's NaN (the halfword
                // 0x7ff7 repeated, little-endian: 0xf7 at even addresses).
                let fill = match &nan {
                    Some(nan) => Expr::mux(
                        nan.clone(),
                        Expr::constant(if j % 2 == 1 { 0x7f } else { 0xf7 }, 8),
                        Expr::zeros(8),
                    ),
                    None => Expr::zeros(8),
                };
                let fetched = Expr::mux(kept[q].clone(), rot[q % seg as usize].clone(), fill);
                bytes.push(Expr::mux(constant.clone(), cbyte, fetched));
                enables.push(inside[q].clone().and(after_lead));
            }
            bytes.reverse();
            enables.reverse();
            datas.push(Expr::concat(bytes));
            bes.push(Expr::concat(enables));
        }
        for v in [&mut addrs, &mut datas, &mut bes, &mut mask] {
            v.reverse();
        }
        let addr_o = m.output("fill_addr_o", f * ab, "Word addresses.");
        let data_o = m.output("fill_data_o", f * wb * 8, "Word data.");
        let be_o = m.output("fill_be_o", f * wb, "Byte enables.");
        m.assign(&addr_o, Expr::concat(addrs));
        m.assign(&data_o, Expr::concat(datas));
        m.assign(&be_o, Expr::concat(bes));
        let mask = m.wire_of("beat_mask", Expr::concat(mask));
        Self {
            offset: beat,
            offset_d: beat_d,
            next_offset: next.expr(),
            last,
            mask,
        }
    }
}

/// `value << shift` in `width` bits (the bits shifted past `width` dropped).
fn shifted(value: &Signal, shift: u32, width: u32) -> Expr {
    if shift >= width {
        return Expr::zeros(width);
    }
    let bits = value.width().min(width - shift);
    Expr::concat(vec![value.slice(bits - 1, 0), Expr::zeros(shift)]).zext(width)
}

/// The first `n` bytes of `data` (a segment) rotated right by `base` bytes (`base` bits wide):
/// a logarithmic rotator taking the largest step first, so that each stage keeps only the
/// bytes the smaller steps after it still read (`n + 2^s - 1` after the step of `2^s` bytes).
fn rotate(m: &mut Module, data: &Signal, base: &Signal, n: u32) -> Vec<Expr> {
    let seg = data.width() / 8;
    let byte = |v: &Signal, i: u32| v.slice(i * 8 + 7, i * 8);
    let mut rot = data.clone();
    let mut width = seg;
    for s in (0..base.width()).rev() {
        let step = 1u32 << s;
        let keep = (n + step - 1).min(seg);
        let bytes = (0..keep)
            .rev()
            .map(|i| {
                // A whole segment is still circular; a kept prefix holds every byte read.
                let from = if width == seg {
                    (i + step) % seg
                } else {
                    i + step
                };
                assert!(from < width, "the rotator keeps byte {from}");
                let moved = byte(&rot, from);
                Expr::mux(base.bit(s), moved, byte(&rot, i))
            })
            .collect();
        rot = m.wire_of(&format!("rot{s}"), Expr::concat(bytes));
        width = keep;
    }
    (0..n).map(|q| byte(&rot, q)).collect()
}

/// The walk slots: per slot its buffer, whether its last chunk has left the stage, and the
/// bytes it has still to write and has written in all.
struct Walks {
    /// The slot of the walk whose chunks enter the stage.
    current: Signal,
    current_d: Signal,
    active: Signal,
    active_d: Signal,
}

impl Walks {
    fn declare(m: &mut Module, _design: &D2maDesign) -> Self {
        let sb = bits_for(u64::from(WALK_SLOTS));
        let (current, current_d) = m.state("walk_current", sb, 0);
        let (active, active_d) = m.state("walk_active", WALK_SLOTS, 0);
        Self {
            current,
            current_d,
            active,
            active_d,
        }
    }

    /// The slots' counts and completion: a walk starts in the lowest free slot; a chunk
    /// leaving the stage adds its bytes to its walk's slot (and ends the walk when it is the
    /// last), a record written out takes its bytes off its own; a slot whose walk has ended
    /// with nothing left to write completes (the lowest first) and is freed.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &self,
        m: &mut Module,
        design: &D2maDesign,
        p: &Ports,
        stage: &Stage,
        leave: &Leave,
        written: &Written,
        _records: &Records,
    ) {
        let sb = self.current.width();
        let nb = WALK_BYTES_BITS;
        let free = m.wire_of("walk_free", self.active.expr().not());
        let (free_slot, any_free) = Records::lowest(m, "walk_alloc", &free, sb);
        let free_o = m.output("walk_free_o", 1, "A walk slot is free: a walk may start.");
        m.assign(&free_o, any_free.expr());
        m.assign(
            &self.current_d,
            Expr::mux(p.walk_start.expr(), free_slot.expr(), self.current.expr()),
        );
        // A chunk that leaves the stage counts in its walk's slot a cycle later (its bytes,
        // and the walk's end with its last chunk), off the stage's timing paths; its record is
        // written out a cycle later at the earliest, and taken off a cycle after that.
        let left = m.register("left_q", leave.fire.expr(), 0);
        let left_slot = m.register_unreset("left_slot_q", self.current.expr(), None, None);
        let left_bytes =
            m.register_unreset("left_bytes_q", stage.field(design, "bytes"), None, None);
        let left_last = m.register_unreset("left_last_q", stage.field(design, "last"), None, None);
        let staged_bytes = left_bytes.expr().zext(nb);
        let staged_last = left_last.expr();
        let (mut completes, mut arms_cta, mut arms_buf, mut arms_bytes) =
            (vec![], vec![], vec![], vec![]);
        let mut active = vec![];
        let mut earlier = Expr::constant(0, 1);
        for s in 0..WALK_SLOTS {
            let is = |x: &Signal| x.expr().eq(Expr::constant(u64::from(s), sb));
            let start = m.wire_of(
                &format!("walk{s}_start"),
                p.walk_start.expr().and(is(&free_slot)),
            );
            let cta = m.register_unreset(
                &format!("walk{s}_cta_q"),
                p.walk_cta.expr(),
                Some(start.expr()),
                None,
            );
            let buf = m.register_unreset(
                &format!("walk{s}_buf_q"),
                p.walk_buf.expr(),
                Some(start.expr()),
                None,
            );
            let mine = left.expr().and(is(&left_slot));
            let add = Expr::mux(mine.clone(), staged_bytes.clone(), Expr::zeros(nb));
            let sub = Expr::mux(
                written.done_q.expr().and(is(&written.slot_q)),
                written.bytes_q.expr().zext(nb),
                Expr::zeros(nb),
            );
            let (pending, pending_d) = m.state(&format!("walk{s}_pending"), nb, 0);
            let (total, total_d) = m.state(&format!("walk{s}_total"), nb, 0);
            let (ended, ended_d) = m.state(&format!("walk{s}_ended"), 1, 0);
            m.assign(
                &pending_d,
                Expr::mux(
                    start.expr(),
                    Expr::zeros(nb),
                    pending.expr().add(add.clone()).sub(sub),
                ),
            );
            m.assign(
                &total_d,
                Expr::mux(start.expr(), Expr::zeros(nb), total.expr().add(add)),
            );
            m.assign(
                &ended_d,
                Expr::mux(
                    start.expr(),
                    Expr::constant(0, 1),
                    ended.expr().or(mine.and(staged_last.clone())),
                ),
            );
            let complete = m.wire_of(
                &format!("walk{s}_complete"),
                self.active
                    .bit(s)
                    .and(ended.expr())
                    .and(pending.expr().eq(Expr::zeros(nb))),
            );
            let chosen = complete.expr().and(earlier.clone().not());
            earlier = earlier.or(complete.expr());
            active.push(
                start
                    .expr()
                    .or(self.active.bit(s).and(chosen.clone().not())),
            );
            completes.push(complete.expr());
            arms_cta.push((chosen.clone(), cta.expr()));
            arms_buf.push((chosen.clone(), buf.expr()));
            arms_bytes.push((chosen, total.expr()));
        }
        active.reverse();
        m.assign(&self.active_d, Expr::concat(active));
        let done = m.output("done_valid_o", 1, "A buffer's data is all written.");
        let done_cta = m.output(
            "done_cta_o",
            design.cta_bits(),
            "The completed buffer's CTA.",
        );
        let done_buf = m.output("done_buf_o", design.buf_bits(), "The completed buffer.");
        let done_bytes = m.output(
            "done_bytes_o",
            nb,
            "The bytes the completed buffer's walk wrote (its transaction count).",
        );
        m.assign(&done, earlier);
        let _ = completes;
        m.assign(&done_cta, Expr::one_hot_select(arms_cta, design.cta_bits()));
        m.assign(&done_buf, Expr::one_hot_select(arms_buf, design.buf_bits()));
        m.assign(&done_bytes, Expr::one_hot_select(arms_bytes, nb));
    }
}
