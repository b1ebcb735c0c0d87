//! The engine's data path into shared memory (`d2ma_writeback`): it keeps, per outstanding
//! segment request, the chunks the response must be scattered into, holds the responses'
//! data, and writes every chunk (and every halo constant and out-of-bounds zero) into the
//! shared memory's fill port at its shared address; the shared memory maps each word itself
//! (modulo, hash or RAP), so a tile lands in the layout the warps read.
//!
//! - **Chunk queue** (`chunks` entries, in walk order): every chunk the AGEN emits, with its
//!   shared address, offset in its segment, bytes, bytes inside the global extent, element
//!   size, halo constant, its request's MSHR, whether it starts a request, whether it ends the
//!   walk, and its buffer's tag. One segment response may feed many chunks (a strided transfer
//!   of 4-byte elements at stride 2 has 16 chunks in one 128 B segment): they are consecutive
//!   entries of the queue naming the same MSHR, so no per-MSHR list is needed.
//! - **MSHRs** (`mshrs` segment buffers, allocated and freed in order): each segment the walk
//!   starts takes the next MSHR, whose index is its request's tag (a segment with no element
//!   inside the extent takes one too, never requested); a response (any order) writes the
//!   segment's data there. An MSHR is freed when the queue's head moves past its last chunk:
//!   when the next chunk that starts a segment, or the walk's last chunk, is written. The
//!   segment buffers take the engine's storage style: a flip-flop memory, clock-gated
//!   flip-flops, or latches written from a flip-flop stage holding the response (the same
//!   cells as the controller array's table).
//! - **Writer**: the head chunk is written when its data is there (a constant or zero chunk at
//!   once), in beats of up to `fill_words` consecutive shared words: word `k` of a beat is
//!   shared word `first + cursor + k`, its bytes rotated out of the segment (`offset - shared`
//!   plus the word's position), replaced by the halo constant or zero where that applies, and
//!   enabled only inside the chunk.
//! - **Completion**: chunks are written in walk order, so a walk's data is all in shared
//!   memory when the beat that ends its last chunk is taken: `done_valid_o` with the buffer's
//!   tag in that cycle (the fill port writes a beat, for every later warp access, at the edge
//!   that takes it).
//!
//! - **Chunk stage**: a chunk is registered in the cycle after the AGEN emits it (with the MSHR
//!   its segment took then) and written into the queue from there, so that the AGEN's address
//!   logic and the extent's walk position (`stage_*_o` feed `d2ma_extent`, whose in-extent
//!   bytes, `chunk_keep_i`, enter the queue with the chunk) are in different cycles. The
//!   walk-wide fields (`chunk_size_i`, `chunk_cta_i`, `chunk_buf_i`) are taken as the chunk
//!   leaves the stage: the engine ignites the next walk only when the stage is free.
//! - **Requests inside the extent only**: the segment request leaves from the stage, for a
//!   chunk with bytes inside the extent: the AGEN marks the chunks that start a segment, each
//!   taking the next MSHR, and a segment whose first chunks lie outside is requested by its
//!   first chunk inside, so no memory outside a declared extent is read. A chunk that may
//!   request waits in the stage while `mem_req_ready_i` is low.
//!
//! `chunk_ready_o` says a chunk may be produced this cycle if `mem_req_ready_i` is high (a free
//! queue entry, counting the one in the stage, and a free MSHR); it depends on registers only.

use super::{D2maDesign, Storage, SHARED_BITS};
use crate::rtl::ir::bits_for;
use crate::rtl::{Expr, Memory, Module, Signal};
use serde::Serialize;
use std::ops::{Add, Not, Sub};

/// Bits of a chunk's byte count and of its in-extent byte count.
pub const BYTES_BITS: u32 = 8;

/// The shared memory the data path writes and the sizes of its queues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DataPath {
    /// Words per fill beat (the shared memory's `--fill-words`).
    pub fill_words: u32,
    /// Bytes per shared-memory word (4 or 8, its `--word-bytes`).
    pub word_bytes: u32,
    /// Bits of a shared-memory word address (`log2(banks * depth)`).
    pub addr_bits: u32,
    /// Outstanding segment requests (MSHRs), a power of two from 2 to 16.
    pub mshrs: u32,
    /// Chunks queued between the AGEN and the writer, a power of two from 2 to 64.
    pub chunks: u32,
}

impl DataPath {
    /// Bits of an MSHR index (a request's tag).
    pub fn tag_bits(&self) -> u32 {
        bits_for(u64::from(self.mshrs))
    }
}

/// The fields of a queued chunk that are the chunk's own, registered in the chunk stage; the
/// others (`keep`, `size`, `cta`, `buf`) are added as the chunk leaves the stage.
const STAGED: [&str; 8] = [
    "req", "const", "last", "shared", "offset", "bytes", "value", "mshr",
];

/// The fields of a queued chunk, least significant first, with their widths.
struct QueueLayout {
    fields: Vec<(&'static str, u32)>,
}

impl QueueLayout {
    fn new(design: &D2maDesign, dp: &DataPath) -> Self {
        let seg_lg = design.segment_bytes.trailing_zeros();
        Self {
            fields: vec![
                ("req", 1),
                ("const", 1),
                ("last", 1),
                ("shared", SHARED_BITS),
                ("offset", seg_lg),
                ("bytes", BYTES_BITS),
                ("keep", BYTES_BITS),
                ("size", 2),
                ("value", SHARED_BITS),
                ("mshr", dp.tag_bits()),
                ("cta", design.cta_bits()),
                ("buf", design.buf_bits()),
            ],
        }
    }

    /// The fields held in the chunk stage, in the same order.
    fn staged(&self) -> Self {
        Self {
            fields: self
                .fields
                .iter()
                .filter(|f| STAGED.contains(&f.0))
                .copied()
                .collect(),
        }
    }

    fn width(&self) -> u32 {
        self.fields.iter().map(|f| f.1).sum()
    }

    /// The fields' values `value(name)` packed into one word.
    fn pack(&self, value: impl Fn(&str) -> Expr) -> Expr {
        Expr::concat(self.fields.iter().rev().map(|f| value(f.0)).collect())
    }

    /// Field `name` of the packed word `word`.
    fn field(&self, word: &crate::rtl::Signal, name: &str) -> Expr {
        let (msb, lsb) = self.range(name);
        word.slice(msb, lsb)
    }

    /// `(msb, lsb)` of a field.
    fn range(&self, name: &str) -> (u32, u32) {
        let mut lsb = 0;
        for &(n, w) in &self.fields {
            if n == name {
                return (lsb + w - 1, lsb);
            }
            lsb += w;
        }
        unreachable!("no queue field {name}")
    }
}

/// The MSHRs' segment buffers in the engine's storage style, each written whole by a response.
/// Flip-flops are a memory (an array a synthesis tool may map to a RAM); clock-gated flip-flops
/// and latches are one cell per buffer on its own gated clock, the latches written from a
/// flip-flop stage holding the response's data, as the controller array's table
/// ([`Storage::cell`]), so that a buffer shows its data in the cycle after the response in
/// every style.
enum SegmentBuffers {
    Memory(Memory),
    Cells(Vec<Signal>),
}

impl SegmentBuffers {
    /// `mshrs` buffers of `data`'s width, buffer `tag` written where `valid` is 1.
    fn build(
        m: &mut Module,
        storage: Storage,
        mshrs: u32,
        valid: &Signal,
        tag: &Signal,
        data: &Signal,
    ) -> Self {
        let cells = match storage {
            Storage::FlipFlop => {
                let memory = m.memory("segments", data.width(), mshrs, None);
                m.write(&memory, valid.expr(), tag.expr(), data.expr());
                return Self::Memory(memory);
            }
            Storage::ClockGated => data.clone(),
            Storage::Latch => m.register_unreset("segment_wdata_q", data.expr(), None, None),
        };
        Self::Cells(
            (0..mshrs)
                .map(|i| {
                    let write = valid
                        .expr()
                        .and(tag.expr().eq(Expr::constant(u64::from(i), tag.width())));
                    storage.cell(m, &format!("segment{i}"), &cells, write)
                })
                .collect(),
        )
    }

    /// The data of buffer `index`.
    fn read(&self, index: Expr) -> Expr {
        match self {
            Self::Memory(memory) => memory.read(index),
            Self::Cells(buffers) => {
                let (last, others) = buffers.split_last().expect("at least two MSHRs");
                let width = index.width();
                Expr::select(
                    others
                        .iter()
                        .enumerate()
                        .map(|(i, b)| (index.clone().eq(Expr::constant(i as u64, width)), b.expr()))
                        .collect(),
                    last.expr(),
                )
            }
        }
    }
}

/// Builds `d2ma_writeback` for the engine `design` and the shared memory `dp`.
pub fn build(design: &D2maDesign, dp: &DataPath, name: &str, header: Vec<String>) -> Module {
    let mut m = Module::new(name).with_header(header);
    m.add_clock();
    let seg = design.segment_bytes;
    let seg_lg = seg.trailing_zeros();
    let (cb, bb, tb) = (design.cta_bits(), design.buf_bits(), dp.tag_bits());
    let layout = QueueLayout::new(design, dp);
    let push = m.input("chunk_valid_i", 1, "A chunk this cycle.");
    let c_req = m.input("chunk_req_i", 1, "The chunk starts a segment request.");
    let c_const = m.input("chunk_const_i", 1, "The chunk is a halo constant store.");
    let c_last = m.input("chunk_last_i", 1, "The walk's last chunk.");
    let c_shared = m.input("chunk_shared_i", SHARED_BITS, "Shared byte address.");
    let c_offset = m.input("chunk_offset_i", seg_lg, "Offset in the segment.");
    let c_bytes = m.input("chunk_bytes_i", BYTES_BITS, "Bytes of the chunk.");
    let c_keep = m.input(
        "chunk_keep_i",
        BYTES_BITS,
        "Bytes of the arriving chunk inside the global extent.",
    );
    let c_size = m.input("chunk_size_i", 2, "The walk's element size (log2 bytes).");
    let c_value = m.input(
        "const_i",
        SHARED_BITS,
        "The halo constant, with chunk_const_i.",
    );
    let c_segment = m.input(
        "chunk_segment_i",
        design.global_bits - seg_lg,
        "The chunk's segment (its global address over the segment size).",
    );
    let c_cta = m.input("chunk_cta_i", cb, "The walk's CTA.");
    let c_buf = m.input("chunk_buf_i", bb, "The walk's buffer.");
    let resp_valid = m.input("mem_resp_valid_i", 1, "A segment's data returns.");
    let resp_tag = m.input(
        "mem_resp_tag_i",
        tb,
        "The response's MSHR (its request's tag).",
    );
    let resp_data = m.input("mem_resp_data_i", seg * 8, "The segment, byte 0 lowest.");
    let fill_ready = m.input("fill_ready_i", 1, "The shared memory takes the beat.");
    let req_ready = m.input("mem_req_ready_i", 1, "The memory port takes a request.");
    let ready_o = m.output(
        "chunk_ready_o",
        1,
        "A chunk may be produced this cycle (with mem_req_ready_i).",
    );
    let stage_free_o = m.output(
        "stage_free_o",
        1,
        "No chunk stays in the stage after this cycle.",
    );
    let arrived_o = m.output(
        "stage_arrived_o",
        1,
        "A chunk arrives in the stage (the AGEN's chunk of the last cycle).",
    );
    let stage_bytes_o = m.output("stage_bytes_o", BYTES_BITS, "The arriving chunk's bytes.");
    let req_valid_o = m.output("req_valid_o", 1, "A segment request.");
    let req_addr_o = m.output(
        "req_addr_o",
        design.global_bits,
        "The requested segment's address.",
    );
    let tag_o = m.output("req_tag_o", tb, "The request's MSHR.");
    let f = dp.fill_words;
    let (wb, ab) = (dp.word_bytes, dp.addr_bits);
    let wlg = wb.trailing_zeros();
    let fill_valid_o = m.output("fill_valid_o", 1, "A fill beat.");
    let fill_mask_o = m.output("fill_mask_o", f, "Words of the beat written.");
    let fill_addr_o = m.output("fill_addr_o", f * ab, "Word addresses.");
    let fill_data_o = m.output("fill_data_o", f * wb * 8, "Word data.");
    let fill_be_o = m.output("fill_be_o", f * wb, "Byte enables.");
    let done_o = m.output("done_valid_o", 1, "A buffer's data is all written.");
    let done_cta_o = m.output("done_cta_o", cb, "The completed buffer's CTA.");
    let done_buf_o = m.output("done_buf_o", bb, "The completed buffer.");

    // The chunk queue.
    let qd = dp.chunks;
    let qb = bits_for(u64::from(qd));
    let (wr, wr_d) = m.state("q_wr", qb + 1, 0);
    let (rd, rd_d) = m.state("q_rd", qb + 1, 0);
    let used = m.wire_of("q_used", wr.expr().sub(rd.expr()));
    let queue = m.memory("queue", layout.width(), qd, None);
    // The MSHRs.
    let (alloc, alloc_d) = m.state("mshr_alloc", tb + 1, 0);
    let (freed, freed_d) = m.state("mshr_freed", tb + 1, 0);
    let (held, held_d) = m.state("mshr_held", 1, 0);
    let (have, have_d) = m.state("mshr_data", dp.mshrs, 0);
    let in_use = m.wire_of("mshr_in_use", alloc.expr().sub(freed.expr()));
    let segments = SegmentBuffers::build(
        &mut m,
        design.storage,
        dp.mshrs,
        &resp_valid,
        &resp_tag,
        &resp_data,
    );

    // The chunk stage: what the AGEN emits, with the MSHR of its request, a cycle later.
    let cur_tag = alloc.slice(tb - 1, 0);
    let mshr = Expr::mux(
        c_req.expr(),
        cur_tag.clone(),
        cur_tag.clone().sub(Expr::constant(1, tb)),
    );
    // The stage takes the AGEN's outputs every cycle with no enable, so that no multiplexer
    // follows the AGEN's deepest logic; a chunk that waits for the memory port is copied into
    // `stage_held` (register to register) the cycle after it arrived, and the stage then shows
    // the held copy. The AGEN emits nothing while a chunk waits (mem_req_ready_i is low then),
    // so at most one of the two is valid.
    let arrived_valid = m.register("stage_valid_q", push.expr(), 0);
    let (held_valid, held_valid_d) = m.state("stage_held_valid", 1, 0);
    let staged = m.wire_of("staged", arrived_valid.expr().or(held_valid.expr()));
    let stage_layout = layout.staged();
    let chunk = stage_layout.pack(|name| match name {
        "req" => c_req.expr(),
        "const" => c_const.expr(),
        "last" => c_last.expr(),
        "shared" => c_shared.expr(),
        "offset" => c_offset.expr(),
        "bytes" => c_bytes.expr(),
        "value" => c_value.expr(),
        "mshr" => mshr.clone(),
        other => unreachable!("{other} is not a staged field"),
    });
    let arrived = m.register_unreset("stage_q", chunk, None, None);
    let arrived_segment = m.register_unreset("stage_segment_q", c_segment.expr(), None, None);
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
    let stage = hold(&mut m, "stage_held", &arrived);
    let stage_segment = hold(&mut m, "stage_held_segment", &arrived_segment);
    // The extent counts a chunk as it arrives, from the stage's registers alone, and its
    // in-extent bytes are held with it.
    m.assign(&arrived_o, arrived_valid.expr());
    m.assign(&stage_bytes_o, stage_layout.field(&arrived, "bytes"));
    let keep = hold(&mut m, "stage_held_keep", &c_keep);

    // The segment request, issued from the stage: only for a chunk with bytes inside the
    // extent (`chunk_keep_i`, from the extent's walk position of the staged chunk), so a walk
    // past the end of its extent reads no memory outside it. The AGEN marks the chunks that
    // start a segment (`req`), each taking the next MSHR; a segment whose first chunks lie
    // outside is requested by its first chunk inside (`run_requested_q` says whether the MSHR
    // of the current segment has been requested), so rows that share a segment, the first
    // ending past the extent, still get their data.
    let s_req = stage_layout.field(&stage, "req");
    let s_const = stage_layout.field(&stage, "const");
    let (requested, requested_d) = m.state("run_requested", 1, 0);
    let maybe = m.wire_of(
        "stage_may_request",
        s_const
            .clone()
            .not()
            .and(s_req.clone().or(requested.expr().not())),
    );
    // The stage waits for the memory port whenever its chunk may request, whether or not it
    // is inside: its leaving then depends on registers and mem_req_ready_i alone.
    let fire = m.wire_of(
        "stage_fire",
        staged.expr().and(req_ready.expr().or(maybe.expr().not())),
    );
    let needs_data = m.wire_of(
        "stage_needs_data",
        s_const.not().and(keep.expr().ne(Expr::zeros(BYTES_BITS))),
    );
    let request = m.wire_of(
        "request",
        fire.expr().and(maybe.expr()).and(needs_data.expr()),
    );
    m.assign(
        &requested_d,
        Expr::mux(
            fire.expr(),
            needs_data.expr().or(requested.expr().and(s_req.not())),
            requested.expr(),
        ),
    );
    m.assign(&held_valid_d, staged.expr().and(fire.expr().not()));
    m.assign(&stage_free_o, staged.expr().not().or(fire.expr()));
    m.assign(&req_valid_o, request.expr());
    m.assign(
        &req_addr_o,
        Expr::mux(
            request.expr(),
            Expr::concat(vec![stage_segment.expr(), Expr::zeros(seg_lg)]),
            Expr::zeros(design.global_bits),
        ),
    );
    m.assign(
        &tag_o,
        Expr::mux(
            request.expr(),
            stage_layout.field(&stage, "mshr"),
            Expr::zeros(tb),
        ),
    );

    let ready = m.wire_of(
        "ready",
        used.expr()
            .add(staged.expr().zext(qb + 1))
            .ne(Expr::constant(u64::from(qd), qb + 1))
            .and(
                in_use
                    .expr()
                    .ne(Expr::constant(u64::from(dp.mshrs), tb + 1)),
            ),
    );
    m.assign(&ready_o, ready.expr());
    let entry = layout.pack(|name| match name {
        "keep" => keep.expr(),
        "size" => c_size.expr(),
        "cta" => c_cta.expr(),
        "buf" => c_buf.expr(),
        _ => stage_layout.field(&stage, name),
    });
    m.write(&queue, fire.expr(), wr.slice(qb - 1, 0), entry);
    m.assign(&wr_d, wr.expr().add(fire.expr().zext(qb + 1)));
    m.assign(
        &alloc_d,
        alloc.expr().add(push.expr().and(c_req.expr()).zext(tb + 1)),
    );

    // The head chunk.
    let head = m.wire_of("head", queue.read(rd.slice(qb - 1, 0)));
    let field = |name: &str| {
        let (msb, lsb) = layout.range(name);
        head.slice(msb, lsb)
    };
    let h_req = field("req");
    let h_const = field("const");
    let h_last = field("last");
    let h_mshr = m.wire_of("head_mshr", field("mshr"));
    let h_shared = m.wire_of("head_shared", field("shared"));
    let h_bytes = m.wire_of("head_bytes", field("bytes").zext(SHARED_BITS));
    let h_keep = m.wire_of("head_keep", field("keep").zext(SHARED_BITS));
    let h_size = m.wire_of("head_size", field("size"));
    let h_value = m.wire_of("head_value", field("value"));
    let nonempty = m.wire_of("head_valid", used.expr().ne(Expr::zeros(qb + 1)));
    let arrived = Expr::select(
        (0..dp.mshrs)
            .map(|i| {
                (
                    h_mshr.expr().eq(Expr::constant(u64::from(i), tb)),
                    have.bit(i),
                )
            })
            .collect(),
        Expr::constant(0, 1),
    );
    // A chunk with no byte inside the extent needs no data: its MSHR may never be requested.
    let no_data = h_const
        .clone()
        .or(h_keep.expr().eq(Expr::zeros(SHARED_BITS)));
    let can_write = m.wire_of("can_write", nonempty.expr().and(no_data.or(arrived)));

    // Beats: words `first + cursor + k` of the chunk's words `first ..= last`.
    let wab = SHARED_BITS - wlg;
    let cursor_bits = bits_for(u64::from(seg / wb + 2)) + 1;
    let (cursor, cursor_d) = m.state("cursor", cursor_bits, 0);
    let first = m.wire_of("first_word", h_shared.slice(SHARED_BITS - 1, wlg));
    let end_byte = h_shared
        .expr()
        .add(h_bytes.expr())
        .sub(Expr::constant(1, SHARED_BITS));
    let end_byte = m.wire_of("end_byte", end_byte);
    m.sink_unused("end_byte", end_byte.slice(wlg - 1, 0));
    let span = m.wire_of(
        "span_words",
        end_byte.slice(SHARED_BITS - 1, wlg).sub(first.expr()),
    );
    let beat_word = m.wire_of("beat_word", first.expr().add(cursor.expr().zext(wab)));
    // The segment rotated so that its byte for beat byte 0 comes first.
    let beat_base = m.wire_of(
        "beat_base",
        Expr::concat(vec![beat_word.slice(seg_lg - wlg - 1, 0), Expr::zeros(wlg)])
            .add(field("offset"))
            .sub(h_shared.slice(seg_lg - 1, 0)),
    );
    let mut rot = m.wire_of("rot0", segments.read(h_mshr.expr()));
    for s in 0..seg_lg {
        let r = (1u32 << s) * 8;
        let w = seg * 8;
        let shifted = Expr::concat(vec![rot.slice(r - 1, 0), rot.slice(w - 1, r)]);
        rot = m.wire_of(
            &format!("rot{}", s + 1),
            Expr::mux(beat_base.bit(s), shifted, rot.expr()),
        );
    }
    if f * wb < seg {
        // Beats narrower than a segment use its first bytes only.
        m.sink_unused("rot", rot.slice(seg * 8 - 1, f * wb * 8));
    }
    let size_mask = m.wire_of(
        "size_mask",
        Expr::case(
            &h_size.expr(),
            (0..4)
                .map(|s| (s, Expr::constant((1 << s) - 1, 3)))
                .collect(),
            Expr::zeros(3),
        ),
    );
    let (mut addrs, mut datas, mut bes, mut mask) = (vec![], vec![], vec![], vec![]);
    for k in 0..f {
        let kk = Expr::constant(u64::from(k), cursor_bits);
        let active = m.wire_of(
            &format!("w{k}_active"),
            cursor
                .expr()
                .add(kk.clone())
                .zext(wab.max(cursor_bits))
                .lt(span
                    .expr()
                    .zext(wab.max(cursor_bits))
                    .add(Expr::constant(1, wab.max(cursor_bits)))),
        );
        let word = m.wire_of(
            &format!("w{k}_addr"),
            beat_word.expr().add(Expr::constant(u64::from(k), wab)),
        );
        addrs.push(word.slice(ab.min(wab) - 1, 0).zext(ab));
        mask.push(active.expr());
        let (mut bytes, mut enables) = (vec![], vec![]);
        for j in 0..wb {
            let p = k * wb + j;
            let addr = Expr::concat(vec![word.expr(), Expr::constant(u64::from(j), wlg)]);
            let rel = m.wire_of(&format!("b{p}_rel"), addr.clone().sub(h_shared.expr()));
            let inside = rel.expr().lt(h_bytes.expr()).and(active.expr());
            let kept = rel.expr().lt(h_keep.expr());
            let lane = Expr::constant(u64::from(j), 3).and(size_mask.expr());
            let constant = Expr::case(
                &lane,
                vec![(0, h_value.slice(7, 0)), (1, h_value.slice(15, 8))],
                Expr::zeros(8),
            );
            let q = (p % seg) * 8;
            let fetched = Expr::mux(kept, rot.slice(q + 7, q), Expr::zeros(8));
            let byte = Expr::mux(h_const.clone(), constant, fetched);
            bytes.push(m.wire_of(
                &format!("b{p}_data"),
                Expr::mux(inside.clone(), byte, Expr::zeros(8)),
            ));
            enables.push(inside);
        }
        bytes.reverse();
        enables.reverse();
        datas.push(Expr::concat(bytes.into_iter().map(|b| b.expr()).collect()));
        bes.push(Expr::concat(enables));
    }
    for v in [&mut addrs, &mut datas, &mut bes, &mut mask] {
        v.reverse();
    }
    m.assign(&fill_valid_o, can_write.expr());
    m.assign(&fill_addr_o, Expr::concat(addrs));
    m.assign(&fill_data_o, Expr::concat(datas));
    m.assign(&fill_be_o, Expr::concat(bes));
    m.assign(
        &fill_mask_o,
        Expr::mux(can_write.expr(), Expr::concat(mask), Expr::zeros(f)),
    );
    let taken = m.wire_of("beat_taken", can_write.expr().and(fill_ready.expr()));
    let next_cursor = cursor.expr().add(Expr::constant(u64::from(f), cursor_bits));
    let last_beat = m.wire_of(
        "last_beat",
        next_cursor.clone().zext(wab.max(cursor_bits)).ge(span
            .expr()
            .zext(wab.max(cursor_bits))
            .add(Expr::constant(1, wab.max(cursor_bits)))),
    );
    let pop = m.wire_of("pop", taken.expr().and(last_beat.expr()));
    m.assign(
        &cursor_d,
        Expr::mux(
            pop.expr(),
            Expr::zeros(cursor_bits),
            Expr::mux(taken.expr(), next_cursor, cursor.expr()),
        ),
    );
    m.assign(&rd_d, rd.expr().add(pop.expr().zext(qb + 1)));

    // Freeing: the MSHR held by the writer is freed when the next request's first chunk or
    // the walk's last chunk is written (two in one cycle when that chunk is both).
    let f1 = m.wire_of("free_prev", pop.expr().and(h_req.clone()).and(held.expr()));
    let f2 = m.wire_of(
        "free_last",
        pop.expr()
            .and(h_last.clone())
            .and(held.expr().or(h_req.clone())),
    );
    let n_freed = f1.expr().zext(tb + 1).add(f2.expr().zext(tb + 1));
    m.assign(&freed_d, freed.expr().add(n_freed));
    m.assign(
        &held_d,
        Expr::mux(
            pop.expr(),
            held.expr().or(h_req.clone()).and(h_last.clone().not()),
            held.expr(),
        ),
    );
    let oldest = freed.slice(tb - 1, 0);
    let second = oldest.clone().add(Expr::constant(1, tb));
    let have_next = (0..dp.mshrs)
        .map(|i| {
            let at = |x: &Expr| x.clone().eq(Expr::constant(u64::from(i), tb));
            let clear = f1
                .expr()
                .or(f2.expr())
                .and(at(&oldest))
                .or(f1.expr().and(f2.expr()).and(at(&second)));
            let set = resp_valid.expr().and(at(&resp_tag.expr()));
            set.or(have.bit(i).and(clear.not()))
        })
        .rev()
        .collect();
    m.assign(&have_d, Expr::concat(have_next));

    let done = pop.expr().and(h_last);
    m.assign(&done_o, done.clone());
    m.assign(
        &done_cta_o,
        Expr::mux(done.clone(), field("cta"), Expr::zeros(cb)),
    );
    m.assign(&done_buf_o, Expr::mux(done, field("buf"), Expr::zeros(bb)));
    m
}
