//! The tensor AGEN (`<engine>_tensor_agen`): the walk of a tensor load (`models::d2ma::tensor`,
//! [`models::d2ma::tensor::engine_chunks`]), one chunk a cycle, from a slot it reads in place.
//!
//! - **Start** (`start_i`): the walked slot and the box's shared address are taken; the slot is
//!   read through the table's read port at the slot taken (`slot_o`) from the next cycle on.
//! - **Setup** (one cycle): the row address starts at the tensor's base plus `coord0` elements;
//!   the bounds of a row in dimension 0, `lo0 = clamp(-coord0, 0, n0)` and
//!   `hi0 = clamp(dim0 - coord0, 0, n0)` elements, in bytes; each outer dimension's coordinate
//!   and elements left.
//! - **Multiply**: `coord_i x stride_i` is added to the row address for `i = 1 .. 4`, one bit of
//!   the coordinate a cycle from its least significant, until what is left of it is all sign
//!   (0, or -1: the shifted stride is subtracted once): as many cycles as each coordinate has
//!   significant bits, none for a zero one.
//! - **Walk**: a row from byte `p = 0` to `row_bytes`, a chunk ending at the next global
//!   segment's boundary, at `lo0` when it starts before it, or at the row's end; it keeps
//!   `min(bytes, hi0 - p)` bytes when the row lies inside the tensor in every outer dimension
//!   (each coordinate `0 <= c < dim`) and `p >= lo0`, none otherwise. At a row's end the lowest
//!   outer dimension with elements left advances (its coordinate by its element stride, the row
//!   address by its `delta`), the ones below it rewind, and the shared row address moves by the
//!   pitch; the walk ends with the last row. Every chunk waits while `mem_ready_i` is low.
//!
//! A chunk's shared address is linear; `chunk_xor_o` is the swizzle's XOR on its address bits
//! 6:4 (`(row address >> 7) & (span / 16 - 1)`), which the writer applies. Outputs are zero when
//! no chunk is valid, so the engine ORs them with the paper AGEN's.

use super::packed::Packed;
use super::tensors::{slot_bits, slot_layout};
use super::{D2maDesign, CHUNK_BYTES_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::tensor::{COORD_BITS, DIM_BITS, OUTER_DIMS};
use std::ops::{Add, Not, Shl, Shr, Sub};

/// Bits of a tracked coordinate: a 32-bit coordinate plus at most `255 x 8`, signed.
const C_BITS: u32 = COORD_BITS + 2;

/// Bits of a byte position in a row (rows of at most 2048 bytes).
const P_BITS: u32 = 12;

/// Walk phases.
const SETUP: u64 = 1;
const MULTIPLY: u64 = 2;
const WALK: u64 = 3;

/// Builds `<engine>_tensor_agen` for `design`.
pub fn build(design: &D2maDesign, name: &str, header: Vec<String>) -> Module {
    let mut m = Module::new(name).with_header(header);
    m.add_clock();
    let p = Ports::declare(&mut m, design);
    let slot = Slot::new(design, &p.slot);
    let st = State::declare(&mut m, design);
    let chunk = chunk(&mut m, design, &slot, &st, &p);
    next_state(&mut m, design, &slot, &st, &p, &chunk);
    m
}

/// The tensor AGEN's ports.
struct Ports {
    start: Signal,
    shared: Signal,
    slot_sel: Signal,
    slot: Signal,
    mem_ready: Signal,
}

impl Ports {
    fn declare(m: &mut Module, design: &D2maDesign) -> Self {
        let sb = slot_bits(design);
        Self {
            start: m.input(
                "start_i",
                1,
                "Take slot_sel_i and shared_i and walk the slot.",
            ),
            shared: m.input("shared_i", SHARED_BITS, "The box's shared address."),
            slot_sel: m.input("slot_sel_i", sb, "The slot to walk, with start_i."),
            slot: m.input(
                "slot_i",
                slot_layout(design).width(),
                "The fields of the slot on slot_o (the table's read port).",
            ),
            mem_ready: m.input(
                "mem_ready_i",
                1,
                "The memory port takes a request and the chunk this cycle.",
            ),
        }
    }
}

/// The slot's fields, as signals.
struct Slot {
    layout: Packed,
    word: Signal,
}

impl Slot {
    fn new(design: &D2maDesign, port: &Signal) -> Self {
        Self {
            layout: slot_layout(design),
            word: port.clone(),
        }
    }

    fn get(&self, name: &str) -> Expr {
        self.layout.field(&self.word, name)
    }
}

/// The walk's registers.
struct State {
    phase: (Signal, Signal),
    slot: (Signal, Signal),
    srow: (Signal, Signal),
    row: (Signal, Signal),
    cur: (Signal, Signal),
    pos: (Signal, Signal),
    lo0: (Signal, Signal),
    hi0: (Signal, Signal),
    md: (Signal, Signal),
    rem: (Signal, Signal),
    sh: (Signal, Signal),
    c: Vec<(Signal, Signal)>,
    k: Vec<(Signal, Signal)>,
}

impl State {
    fn declare(m: &mut Module, design: &D2maDesign) -> Self {
        let g = design.global_bits;
        let unreset = |m: &mut Module, name: &str, w: u32| {
            let d = m.wire(&format!("{name}_d"), w);
            let q = m.register_unreset(&format!("{name}_q"), d.expr(), None, None);
            (q, d)
        };
        Self {
            phase: m.state("phase", 2, 0),
            slot: unreset(m, "slot", slot_bits(design)),
            srow: unreset(m, "srow", SHARED_BITS),
            row: unreset(m, "row", g),
            cur: unreset(m, "cur", g),
            pos: unreset(m, "pos", P_BITS),
            lo0: unreset(m, "lo0", P_BITS),
            hi0: unreset(m, "hi0", P_BITS),
            md: unreset(m, "md", 3),
            rem: unreset(m, "rem", COORD_BITS + 1),
            sh: unreset(m, "sh", g),
            c: (1..=OUTER_DIMS)
                .map(|i| unreset(m, &format!("c{i}"), C_BITS))
                .collect(),
            k: (1..=OUTER_DIMS)
                .map(|i| unreset(m, &format!("k{i}"), 8))
                .collect(),
        }
    }

    fn in_phase(&self, phase: u64) -> Expr {
        self.phase.0.expr().eq(Expr::constant(phase, 2))
    }
}

/// A stored field shifted back up by its 4 dropped low bits, `width` bits wide.
fn restore(e: Expr, width: u32) -> Expr {
    Expr::concat(vec![e, Expr::zeros(4)]).zext(width)
}

/// This cycle's chunk.
struct Chunk {
    valid: Signal,
    bytes: Signal,
    end_row: Signal,
    last: Signal,
}

fn chunk(m: &mut Module, design: &D2maDesign, slot: &Slot, st: &State, p: &Ports) -> Chunk {
    let g = design.global_bits;
    let seg = design.segment_bytes;
    let seg_lg = seg.trailing_zeros();
    let pos = &st.pos.0;
    let row_bytes = m.wire_of("row_bytes", restore(slot.get("row_bytes"), P_BITS));
    let walking = m.wire_of("walking", st.in_phase(WALK));
    let valid = m.wire_of("chunk_valid", walking.expr().and(p.mem_ready.expr()));
    // The chunk's length: to the segment's end, to lo0 when before it, else to the row's end.
    let seg_left =
        Expr::constant(u64::from(seg), P_BITS).sub(st.cur.0.slice(seg_lg - 1, 0).zext(P_BITS));
    let seg_left = m.wire_of("seg_left", seg_left);
    let before = m.wire_of("before_lo0", pos.expr().lt(st.lo0.0.expr()));
    let limit = Expr::mux(before.expr(), st.lo0.0.expr(), row_bytes.expr());
    let to_limit = m.wire_of("to_limit", limit.sub(pos.expr()));
    let bytes = m.wire_of(
        "bytes",
        Expr::mux(
            seg_left.expr().lt(to_limit.expr()),
            seg_left.expr(),
            to_limit.expr(),
        ),
    );
    // Inside the tensor: every outer coordinate within its dimension, and past lo0.
    let mut inside = before.expr().not();
    for (i, (c, _)) in st.c.iter().enumerate() {
        let dim = slot.get(&format!("dim{}", i + 1));
        let c_low = c.slice(DIM_BITS - 1, 0);
        let sign = c.bit(C_BITS - 1);
        inside = inside.and(sign.not()).and(c_low.lt(dim));
    }
    let inside = m.wire_of("row_inside", inside);
    let room = m.wire_of("hi0_room", st.hi0.0.expr().sub(pos.expr()));
    let past = st
        .hi0
        .0
        .expr()
        .lt(pos.expr().add(Expr::constant(1, P_BITS)));
    let keep = Expr::select(
        vec![
            (inside.expr().not().or(past), Expr::zeros(P_BITS)),
            (room.expr().lt(bytes.expr()), room.expr()),
        ],
        bytes.expr(),
    );
    let keep = m.wire_of("keep", keep);
    let end_row = m.wire_of("end_row", pos.expr().add(bytes.expr()).eq(row_bytes.expr()));
    let all_done = st.k.iter().fold(Expr::constant(1, 1), |a, (k, _)| {
        a.and(k.expr().eq(Expr::zeros(8)))
    });
    let last = m.wire_of("last", end_row.expr().and(all_done));
    // The swizzle's XOR for the row: the 128-byte line's number under the span's mask.
    let code = slot.get("swizzle");
    let mask = Expr::case(
        &code,
        vec![
            (1, Expr::constant(1, 3)),
            (2, Expr::constant(3, 3)),
            (3, Expr::constant(7, 3)),
        ],
        Expr::zeros(3),
    );
    let xor = st.srow.0.slice(9, 7).and(mask);
    let gate = |e: Expr| {
        let w = e.width();
        Expr::mux(valid.expr(), e, Expr::zeros(w))
    };
    let outs: [(&str, u32, Expr, &str); 7] = [
        (
            "chunk_valid_o",
            1,
            valid.expr(),
            "A chunk is produced this cycle.",
        ),
        (
            "chunk_global_o",
            g,
            gate(st.cur.0.expr()),
            "Global byte address of the chunk.",
        ),
        (
            "chunk_shared_o",
            SHARED_BITS,
            gate(st.srow.0.expr().add(pos.expr().zext(SHARED_BITS))),
            "Linear shared byte address of the chunk.",
        ),
        (
            "chunk_bytes_o",
            CHUNK_BYTES_BITS,
            gate(bytes.slice(CHUNK_BYTES_BITS - 1, 0)),
            "Bytes of the chunk.",
        ),
        (
            "chunk_keep_o",
            CHUNK_BYTES_BITS,
            gate(keep.slice(CHUNK_BYTES_BITS - 1, 0)),
            "Bytes of the chunk read from global memory, from its first; the rest are filled.",
        ),
        (
            "chunk_xor_o",
            3,
            gate(xor),
            "The swizzle's XOR on the chunk's address bits 6:4.",
        ),
        (
            "done_o",
            1,
            gate(last.expr()),
            "This cycle's chunk is the walk's last.",
        ),
    ];
    for (name, width, value, doc) in outs {
        let o = m.output(name, width, doc);
        m.assign(&o, value);
    }
    // A chunk is at most a segment: the high bits of the lengths are zero.
    m.sink_unused(
        "lengths",
        Expr::concat(vec![
            bytes.slice(P_BITS - 1, CHUNK_BYTES_BITS),
            keep.slice(P_BITS - 1, CHUNK_BYTES_BITS),
        ]),
    );
    let busy_o = m.output("busy_o", 1, "A load is being walked.");
    m.assign(&busy_o, st.phase.0.expr().ne(Expr::zeros(2)));
    let walked = m.output(
        "slot_o",
        st.slot.0.width(),
        "The walked slot (to the table).",
    );
    m.assign(&walked, st.slot.0.expr());
    let size_o = m.output("size_o", 2, "The walk's element size (log2 bytes).");
    m.assign(&size_o, slot.get("elem_log2"));
    let nan_o = m.output("nan_o", 1, "The walk fills with NaN (else zeros).");
    m.assign(&nan_o, slot.get("nan"));
    Chunk {
        valid,
        bytes,
        end_row,
        last,
    }
}

/// `signal` sign-extended or cut to `width` bits.
fn resize_signed(signal: &Signal, width: u32) -> Expr {
    let w = signal.width();
    if width <= w {
        return signal.slice(width - 1, 0);
    }
    let sign = signal.bit(w - 1);
    Expr::concat(vec![
        Expr::concat(vec![sign; (width - w) as usize]),
        signal.expr(),
    ])
}

/// The next state: the start, the setup, the multiply and the walk.
fn next_state(
    m: &mut Module,
    design: &D2maDesign,
    slot: &Slot,
    st: &State,
    p: &Ports,
    chunk: &Chunk,
) {
    let g = design.global_bits;
    let idle = st.phase.0.expr().eq(Expr::zeros(2));
    let start = m.wire_of("start", p.start.expr().and(idle));
    m.assign(
        &st.slot.1,
        Expr::mux(start.expr(), p.slot_sel.expr(), st.slot.0.expr()),
    );
    // The setup: the origin in dimension 0, and its bounds there.
    let eb = m.wire_of("elem_log2", slot.get("elem_log2"));
    let coord =
        |m: &mut Module, i: usize| m.wire_of(&format!("coord{i}"), slot.get(&format!("coord{i}")));
    let c0 = coord(m, 0);
    let base = restore(slot.get("base"), g);
    let origin = m.wire_of("origin", base.add(resize_signed(&c0, g).shl(eb.expr())));
    let n0 = slot
        .get("row_bytes")
        .zext(P_BITS)
        .shl(Expr::constant(4, 3))
        .shr(eb.expr());
    let n0 = m.wire_of("n0", n0);
    let cw = C_BITS + 1;
    let bound = |m: &mut Module, name: &str, v: Expr| {
        // clamp(v, 0, n0) << elem_log2, for a signed v.
        let v = m.wire_of(&format!("{name}_raw"), v);
        let negative = v.bit(cw - 1);
        let over = v.expr().ge(n0.expr().zext(cw));
        let clamped = Expr::select(
            vec![(negative, Expr::zeros(P_BITS)), (over, n0.expr())],
            v.slice(P_BITS - 1, 0),
        );
        m.wire_of(name, clamped.shl(eb.expr()))
    };
    let c0w = resize_signed(&c0, cw);
    let lo0 = bound(m, "lo0_set", Expr::zeros(cw).sub(c0w.clone()));
    let hi0 = bound(m, "hi0_set", slot.get("dim0").zext(cw).sub(c0w));
    let setup = m.wire_of("in_setup", st.in_phase(SETUP));
    m.assign(
        &st.lo0.1,
        Expr::mux(setup.expr(), lo0.expr(), st.lo0.0.expr()),
    );
    m.assign(
        &st.hi0.1,
        Expr::mux(setup.expr(), hi0.expr(), st.hi0.0.expr()),
    );
    let coords: Vec<Signal> = (1..=OUTER_DIMS).map(|i| coord(m, i)).collect();
    let strides: Vec<Expr> = (1..=OUTER_DIMS)
        .map(|i| restore(slot.get(&format!("stride{i}")), g))
        .collect();
    let walk = Walk {
        start,
        setup,
        origin,
        coords,
        strides,
        shared: p.shared.clone(),
    };
    let mult = multiply(m, st, &walk);
    advance(m, design, slot, st, chunk, &walk, &mult);
}

/// What the start and the setup give the multiply and the walk.
struct Walk {
    start: Signal,
    setup: Signal,
    origin: Signal,
    coords: Vec<Signal>,
    strides: Vec<Expr>,
    /// The box's shared address (`shared_i`), taken at the start.
    shared: Signal,
}

/// The multiply: `md_q` names the dimension whose coordinate `rem_q` (what is left of it) is
/// multiplied by `sh_q` (its stride, shifted); the row address accumulates.
fn multiply(m: &mut Module, st: &State, w: &Walk) -> Mult {
    let rb = st.rem.0.width();
    let rem = &st.rem.0;
    let zero = rem.expr().eq(Expr::zeros(rb));
    let ones = rem.expr().eq(Expr::ones(rb));
    let next_dim = m.wire_of("next_dim", zero.or(ones.clone()));
    let md = &st.md.0;
    let at = |d: u64| md.expr().eq(Expr::constant(d, 3));
    // The next dimension's coordinate and stride (past the fourth: nothing).
    let pick = |values: Vec<Expr>, width: u32| {
        Expr::select(
            (1..OUTER_DIMS as u64)
                .map(|d| (at(d), values[d as usize].clone()))
                .collect(),
            Expr::zeros(width),
        )
    };
    let next_rem = pick(w.coords.iter().map(|c| resize_signed(c, rb)).collect(), rb);
    let gw = st.sh.0.width();
    let next_sh = pick(w.strides.clone(), gw);
    let sh = &st.sh.0;
    let addend = Expr::select(
        vec![
            (ones.clone(), Expr::zeros(gw).sub(sh.expr())),
            (rem.bit(0), sh.expr()),
        ],
        Expr::zeros(gw),
    );
    let multiplying = m.wire_of("in_multiply", st.in_phase(MULTIPLY));
    let product = m.wire_of("row_product", st.row.0.expr().add(addend));
    let shifted = Expr::concat(vec![rem.bit(rb - 1), rem.slice(rb - 1, 1)]);
    m.assign(
        &st.rem.1,
        Expr::select(
            vec![
                (w.setup.expr(), resize_signed(&w.coords[0], rb)),
                (next_dim.expr(), next_rem),
            ],
            shifted,
        ),
    );
    m.assign(
        &st.sh.1,
        Expr::select(
            vec![
                (w.setup.expr(), w.strides[0].clone()),
                (next_dim.expr(), next_sh),
            ],
            sh.expr().shl(Expr::constant(1, 1)),
        ),
    );
    m.assign(
        &st.md.1,
        Expr::select(
            vec![
                (w.setup.expr(), Expr::constant(1, 3)),
                (next_dim.expr(), md.expr().add(Expr::constant(1, 3))),
            ],
            md.expr(),
        ),
    );
    let done = m.wire_of(
        "multiplied",
        multiplying
            .expr()
            .and(next_dim.expr())
            .and(at(OUTER_DIMS as u64)),
    );
    Mult {
        multiplying,
        product,
        done,
    }
}

/// The multiply's outcome: in the multiply phase, the row address's next value, and the last
/// dimension multiplied.
struct Mult {
    multiplying: Signal,
    product: Signal,
    done: Signal,
}

/// The walk's next state, and the row address through every phase.
fn advance(
    m: &mut Module,
    design: &D2maDesign,
    slot: &Slot,
    st: &State,
    chunk: &Chunk,
    w: &Walk,
    mult: &Mult,
) {
    let g = design.global_bits;
    let fire = chunk.valid.expr();
    let within = m.wire_of("within_row", fire.clone().and(chunk.end_row.expr().not()));
    let step = m.wire_of(
        "step_row",
        fire.clone()
            .and(chunk.end_row.expr())
            .and(chunk.last.expr().not()),
    );
    // The lowest outer dimension with elements left advances; those below it rewind.
    let left: Vec<Expr> =
        st.k.iter()
            .map(|(k, _)| k.expr().ne(Expr::zeros(8)))
            .collect();
    let mut below = Expr::constant(0, 1);
    let mut adv = Vec::new();
    for l in &left {
        adv.push(m.wire_of(
            &format!("adv{}", adv.len() + 1),
            l.clone().and(below.clone().not()),
        ));
        below = below.or(l.clone());
    }
    let deltas = (0..OUTER_DIMS)
        .map(|i| {
            (
                adv[i].expr(),
                restore(slot.get(&format!("delta{}", i + 1)), g),
            )
        })
        .collect();
    let next_row = m.wire_of(
        "next_row",
        st.row.0.expr().add(Expr::one_hot_select(deltas, g)),
    );
    let bytes = chunk.bytes.expr();
    m.assign(
        &st.row.1,
        Expr::select(
            vec![
                (w.setup.expr(), w.origin.expr()),
                (mult.multiplying.expr(), mult.product.expr()),
                (step.expr(), next_row.expr()),
            ],
            st.row.0.expr(),
        ),
    );
    m.assign(
        &st.cur.1,
        Expr::select(
            vec![
                (mult.multiplying.expr(), mult.product.expr()),
                (step.expr(), next_row.expr()),
                (within.expr(), st.cur.0.expr().add(bytes.clone().zext(g))),
            ],
            st.cur.0.expr(),
        ),
    );
    m.assign(
        &st.pos.1,
        Expr::select(
            vec![
                (w.setup.expr().or(step.expr()), Expr::zeros(P_BITS)),
                (within.expr(), st.pos.0.expr().add(bytes)),
            ],
            st.pos.0.expr(),
        ),
    );
    let pitch = restore(slot.get("pitch"), SHARED_BITS);
    m.assign(
        &st.srow.1,
        Expr::select(
            vec![
                (w.start.expr(), w.shared.expr()),
                (step.expr(), st.srow.0.expr().add(pitch)),
            ],
            st.srow.0.expr(),
        ),
    );
    for i in 0..OUTER_DIMS {
        let d = i + 1;
        let wrap = m.wire_of(
            &format!("wrap{d}"),
            left[i].clone().not().and(
                adv[i + 1..]
                    .iter()
                    .fold(Expr::constant(0, 1), |a, x| a.or(x.expr())),
            ),
        );
        let count = slot.get(&format!("count{d}"));
        let (c, c_d) = &st.c[i];
        let (k, k_d) = &st.k[i];
        let es = slot.get(&format!("estride{d}")).zext(C_BITS);
        let rewind = slot.get(&format!("rewind{d}")).zext(C_BITS);
        let moves = step.expr().and(adv[i].expr());
        let rewinds = step.expr().and(wrap.expr());
        m.assign(
            c_d,
            Expr::select(
                vec![
                    (w.setup.expr(), resize_signed(&w.coords[i], C_BITS)),
                    (moves.clone(), c.expr().add(es)),
                    (rewinds.clone(), c.expr().sub(rewind)),
                ],
                c.expr(),
            ),
        );
        m.assign(
            k_d,
            Expr::select(
                vec![
                    (w.setup.expr().or(rewinds), count),
                    (moves, k.expr().sub(Expr::constant(1, 8))),
                ],
                k.expr(),
            ),
        );
    }
    let phase = |v: u64| Expr::constant(v, 2);
    m.assign(
        &st.phase.1,
        Expr::select(
            vec![
                (w.start.expr(), phase(SETUP)),
                (w.setup.expr(), phase(MULTIPLY)),
                (mult.done.expr(), phase(WALK)),
                (fire.and(chunk.last.expr()), phase(0)),
            ],
            st.phase.0.expr(),
        ),
    );
}
