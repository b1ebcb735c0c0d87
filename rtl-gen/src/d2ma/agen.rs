//! The address generation unit of the paper's section 4.2 (Fig. 5): it loads a table entry on
//! `start_i` and then produces one chunk a cycle, exactly the walk of
//! `models::d2ma::transfer` (read that module for what a chunk is).
//!
//! Hardware per Fig. 5: the walk position (row and column counters, which end the transfer
//! like the paper's byte counter), the current and row-start global addresses, the shared
//! address beside them (Fig. 5d), the mask-and-compare of the current segment against the
//! last requested one (Fig. 5c), the bank-run counter of bank-conflict resolution and the
//! halo region test. A chunk that needs a request waits while `mem_ready_i` is low (the
//! shader's memory unit has priority on the shared port); other chunks never wait.
//!
//! Outputs are combinational from the state and `mem_ready_i`, and zero when not valid. A
//! transfer takes one cycle to load: the first chunk appears the cycle after `start_i`.

use super::fields::{entry_field, mode_is, tile_extent, MODE_BANK, MODE_HALO, WALK_BITS};
use super::{D2maDesign, CHUNK_BYTES_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::entry::{field, ENTRY_BITS};
use std::ops::{Add, Mul, Not, Shl, Shr, Sub};

/// The smaller of two equal-width values.
fn min(a: Expr, b: Expr) -> Expr {
    Expr::mux(a.clone().lt(b.clone()), a, b)
}

/// The low `bits` bits of the entry's global base; the bits above are sunk (ignored).
fn global_base(m: &mut Module, entry: &Signal, bits: u32) -> Expr {
    let f = field("global");
    if bits < f.width {
        m.sink_unused(
            "global_high",
            entry.slice(f.lsb + f.width - 1, f.lsb + bits),
        );
    }
    entry.slice(f.lsb + bits - 1, f.lsb)
}

/// Bits of the leading dimension in bytes: 16-bit elements shifted by up to 3.
const LD_BYTES_BITS: u32 = 19;

/// Bits of the halo's back offset `(halo_rows x ld + halo_cols) << size`: two 16-bit factors,
/// a 16-bit addend and a shift by up to 3 fit in 36 bits.
const BACK_BITS: u32 = 36;

/// Bits of the bytes left in the current segment (at most 128) and of a chunk's byte count.
const SEGMENT_LEFT_BITS: u32 = 8;

/// Builds the AGEN of `design` (only its segment size and global address bits matter): its
/// ports, the entry decoded for loading, the walk's state, this cycle's chunk, the next state
/// and the outputs, in that order.
pub fn build(design: &D2maDesign, header: Vec<String>) -> Module {
    let mut m = Module::new(design.name()).with_header(header);
    m.add_clock();
    let gb = design.global_bits;
    let ports = Ports::declare(&mut m, gb);
    let decoded = Decoded::of(&mut m, &ports.entry, gb);
    let walk = Walk::declare(&mut m, design, &ports, &decoded);
    let chunk = Chunk::of(&mut m, design, &walk, &ports.mem_ready);
    let req = next_state(&mut m, &walk, &chunk, &decoded, &ports.entry);
    outputs(&mut m, design, &ports, &walk, &chunk, &req);
    m
}

/// The AGEN's ports.
struct Ports {
    start: Signal,
    entry: Signal,
    mem_ready: Signal,
    busy_o: Signal,
    chunk_valid_o: Signal,
    chunk_const_o: Signal,
    chunk_global_o: Signal,
    chunk_shared_o: Signal,
    chunk_bytes_o: Signal,
    req_valid_o: Signal,
    req_addr_o: Signal,
    const_o: Signal,
    done_o: Signal,
}

impl Ports {
    /// Declares the ports, global addresses `gb` bits wide.
    fn declare(m: &mut Module, gb: u32) -> Self {
        let start = m.input(
            "start_i",
            1,
            "Load entry_i and start its transfer (when idle).",
        );
        let entry = m.input(
            "entry_i",
            ENTRY_BITS,
            "The buffer-management-table entry to walk.",
        );
        let mem_ready = m.input(
            "mem_ready_i",
            1,
            "The memory port takes a request this cycle (low while the memory unit has it).",
        );
        Self {
            start,
            entry,
            mem_ready,
            busy_o: m.output("busy_o", 1, "A transfer is being walked."),
            chunk_valid_o: m.output("chunk_valid_o", 1, "A chunk is produced this cycle."),
            chunk_const_o: m.output("chunk_const_o", 1, "The chunk is a halo constant store."),
            chunk_global_o: m.output("chunk_global_o", gb, "Global byte address of the chunk."),
            chunk_shared_o: m.output(
                "chunk_shared_o",
                SHARED_BITS,
                "Shared byte address of the chunk.",
            ),
            chunk_bytes_o: m.output(
                "chunk_bytes_o",
                CHUNK_BYTES_BITS,
                "Bytes the chunk writes to shared memory.",
            ),
            req_valid_o: m.output("req_valid_o", 1, "A segment request is issued this cycle."),
            req_addr_o: m.output("req_addr_o", gb, "The requested segment's address."),
            const_o: m.output(
                "const_o",
                SHARED_BITS,
                "The halo constant, with chunk_const_o.",
            ),
            done_o: m.output("done_o", 1, "This cycle's chunk is the transfer's last."),
        }
    }
}

/// The entry on `entry_i`, decoded into what the walk latches when it loads.
struct Decoded {
    size: Expr,
    two_d: Signal,
    mode: Signal,
    stride: Signal,
    hr: Signal,
    hc: Signal,
    row_end: Signal,
    col_end: Signal,
    ldb: Expr,
    origin: Signal,
    /// `{top, right, bottom, left}`: the halo borders of the tile's region.
    borders: Expr,
}

impl Decoded {
    /// Decodes `entry` for global addresses of `gb` bits: the walk's extent with its halo, the
    /// leading dimension in bytes, the origin (the global address of the halo's first
    /// element) and the region's borders.
    fn of(m: &mut Module, entry: &Signal, gb: u32) -> Self {
        let wb = WALK_BITS;
        let size = entry_field(entry, "size");
        let two_d = m.wire_of("in_two_d", entry_field(entry, "two_d"));
        let mode = m.wire_of("in_mode", entry_field(entry, "mode"));
        let count = m.wire_of("in_count", entry_field(entry, "count"));
        let stride = m.wire_of("in_stride", entry_field(entry, "stride"));
        let region = m.wire_of("in_region", entry_field(entry, "region"));
        let halo = m.wire_of("in_halo", mode_is(&mode, MODE_HALO));
        let z = |w| Expr::zeros(w);
        let (rows, cols) = tile_extent(two_d.expr(), &count);
        let hr = m.wire_of(
            "in_hr",
            Expr::mux(halo.expr(), entry_field(entry, "halo_rows").zext(wb), z(wb)),
        );
        let hc = m.wire_of(
            "in_hc",
            Expr::mux(halo.expr(), entry_field(entry, "halo_cols").zext(wb), z(wb)),
        );
        let row_end = m.wire_of("in_row_end", hr.expr().add(rows));
        let col_end = m.wire_of("in_col_end", hc.expr().add(cols));
        let stride_bits = stride.width();
        let ld = Expr::mux(two_d.expr(), stride.expr(), z(stride_bits));
        let ldb = ld.clone().zext(LD_BYTES_BITS).shl(size.clone());
        let back = hr
            .slice(stride_bits - 1, 0)
            .zext(BACK_BITS)
            .mul(ld.zext(BACK_BITS))
            .add(hc.slice(stride_bits - 1, 0).zext(BACK_BITS))
            .shl(size.clone());
        // Modulo 2^gb, as the addresses are: narrower than the product, keep its low bits.
        let back = if gb >= BACK_BITS {
            back.zext(gb)
        } else {
            let wide = m.wire_of("in_back", back);
            m.sink_unused("in_back_high", wide.slice(BACK_BITS - 1, gb));
            wide.slice(gb - 1, 0)
        };
        let base = global_base(m, entry, gb);
        let origin = m.wire_of("in_origin", base.sub(back));
        let region_bits = region.width();
        let region_is = |rs: &[u64]| {
            rs.iter()
                .map(|&r| region.expr().eq(Expr::constant(r, region_bits)))
                .reduce(|a, b| a.or(b))
                .unwrap_or_else(|| Expr::constant(0, 1))
                .and(halo.expr())
        };
        let borders = Expr::concat(vec![
            region_is(&[1, 2, 3]),
            region_is(&[3, 4, 5]),
            region_is(&[5, 6, 7]),
            region_is(&[7, 8, 1]),
        ]);
        Self {
            size,
            two_d,
            mode,
            stride,
            hr,
            hc,
            row_end,
            col_end,
            ldb,
            origin,
            borders,
        }
    }
}

/// A register's output `q` and its next value `d`.
struct State {
    q: Signal,
    d: Signal,
}

impl State {
    fn declare(m: &mut Module, base: &str, width: u32) -> Self {
        let (q, d) = m.state(base, width, 0);
        Self { q, d }
    }
}

/// The walk's state: what it latched on load, and the position it advances each chunk.
struct Walk {
    busy: State,
    load: Signal,
    size: Signal,
    unit: Signal,
    estride: Signal,
    ldb: Signal,
    bank: Signal,
    run_n: Signal,
    hr: Signal,
    hc: Signal,
    row_end: Signal,
    col_end: Signal,
    walk_rows: Signal,
    walk_cols: Signal,
    borders: Signal,
    halo_const: Signal,
    /// Row and column of the walk.
    i: State,
    j: State,
    /// The current and the row-start global addresses.
    g: State,
    row: State,
    /// The shared address.
    s: State,
    /// Elements into the current bank run.
    run: State,
    /// The last segment requested, and whether there is one.
    last: State,
    last_valid: State,
}

impl Walk {
    /// Declares the state: a transfer loads on `start_i` while idle.
    fn declare(m: &mut Module, design: &D2maDesign, ports: &Ports, decoded: &Decoded) -> Self {
        let (wb, gb) = (WALK_BITS, design.global_bits);
        let seg_lg = design.segment_bytes.trailing_zeros();
        let busy = State::declare(m, "busy", 1);
        let load = m.wire_of("load", ports.start.expr().and(busy.q.expr().not()));
        let latched = |m: &mut Module, name: &str, value: Expr| -> Signal {
            let (q, d) = m.state(name, value.width(), 0);
            m.assign(&d, Expr::mux(load.expr(), value, q.expr()));
            q
        };
        let entry = &ports.entry;
        let stride = &decoded.stride;
        let (hr_in, hc_in) = (&decoded.hr, &decoded.hc);
        let size = latched(m, "size", decoded.size.clone());
        let unit = latched(
            m,
            "unit",
            decoded
                .two_d
                .expr()
                .or(stride.expr().eq(Expr::constant(1, stride.width()))),
        );
        let estride = latched(m, "estride", stride.expr());
        let ldb = latched(m, "ldb", decoded.ldb.clone());
        let bank = latched(m, "bank", mode_is(&decoded.mode, MODE_BANK));
        let run_n = latched(m, "run_n", entry_field(entry, "halo_cols"));
        let hr = latched(m, "hr", hr_in.expr());
        let hc = latched(m, "hc", hc_in.expr());
        let row_end = latched(m, "tile_row_end", decoded.row_end.expr());
        let col_end = latched(m, "tile_col_end", decoded.col_end.expr());
        let walk_rows = latched(m, "walk_rows", decoded.row_end.expr().add(hr_in.expr()));
        let walk_cols = latched(m, "walk_cols", decoded.col_end.expr().add(hc_in.expr()));
        let borders = latched(m, "borders", decoded.borders.clone());
        let halo_const = latched(m, "halo_const", entry_field(entry, "halo_const"));
        let run_bits = run_n.width();
        Self {
            i: State::declare(m, "row", wb),
            j: State::declare(m, "col", wb),
            g: State::declare(m, "gaddr", gb),
            row: State::declare(m, "row_base", gb),
            s: State::declare(m, "saddr", SHARED_BITS),
            run: State::declare(m, "run", run_bits),
            last: State::declare(m, "last_seg", gb - seg_lg),
            last_valid: State::declare(m, "last_valid", 1),
            busy,
            load,
            size,
            unit,
            estride,
            ldb,
            bank,
            run_n,
            hr,
            hc,
            row_end,
            col_end,
            walk_rows,
            walk_cols,
            borders,
            halo_const,
        }
    }
}

/// This cycle's chunk: its length, bytes and kind, whether it needs a segment request and
/// goes (`fire`), and where the walk goes after it.
struct Chunk {
    bytes: Signal,
    constant: Signal,
    segment: Signal,
    need_req: Signal,
    fire: Signal,
    j_next: Signal,
    at_row_end: Signal,
    i_next: Signal,
    done: Signal,
    next_row: Signal,
    step: Expr,
    pad: Signal,
    run_next: Signal,
    s_step: Expr,
}

impl Chunk {
    fn of(m: &mut Module, design: &D2maDesign, w: &Walk, mem_ready: &Signal) -> Self {
        let (wb, gb) = (WALK_BITS, design.global_bits);
        let seg = u64::from(design.segment_bytes);
        let seg_lg = design.segment_bytes.trailing_zeros();
        let (i, j, g) = (&w.i.q, &w.j.q, &w.g.q);
        let in_left = j.expr().lt(w.hc.expr());
        let in_tile = j.expr().lt(w.col_end.expr());
        let boundary = Expr::mux(
            in_left.clone(),
            w.hc.expr(),
            Expr::mux(in_tile.clone(), w.col_end.expr(), w.walk_cols.expr()),
        );
        let len_col = m.wire_of("len_col", boundary.sub(j.expr()));
        let seg_rem = Expr::constant(seg, SEGMENT_LEFT_BITS)
            .sub(g.slice(seg_lg - 1, 0).zext(SEGMENT_LEFT_BITS))
            .shr(w.size.expr());
        let len_seg = Expr::mux(
            w.unit.expr(),
            min(len_col.expr(), seg_rem.zext(wb)),
            Expr::constant(1, wb),
        );
        let len_seg = m.wire_of("len_seg", len_seg);
        let bank_rem = w.run_n.expr().sub(w.run.q.expr()).zext(wb);
        let len = m.wire_of(
            "len",
            Expr::mux(w.bank.expr(), min(len_seg.expr(), bank_rem), len_seg.expr()),
        );
        let bytes = m.wire_of(
            "bytes",
            len.slice(CHUNK_BYTES_BITS - 1, 0).shl(w.size.expr()),
        );
        let constant = m.wire_of(
            "constant",
            // borders_q: {top, right, bottom, left}.
            (w.borders.bit(3).and(i.expr().lt(w.hr.expr())))
                .or(w.borders.bit(1).and(i.expr().lt(w.row_end.expr()).not()))
                .or(w.borders.bit(0).and(in_left))
                .or(w.borders.bit(2).and(in_tile.not())),
        );
        let segment = m.wire_of("segment", g.slice(gb - 1, seg_lg));
        let need_req = m.wire_of(
            "need_req",
            constant.expr().not().and(
                w.last_valid
                    .q
                    .expr()
                    .not()
                    .or(segment.expr().ne(w.last.q.expr())),
            ),
        );
        let fire = m.wire_of(
            "fire",
            w.busy
                .q
                .expr()
                .and(need_req.expr().not().or(mem_ready.expr())),
        );
        let j_next = m.wire_of("col_next", j.expr().add(len.expr()));
        let at_row_end = m.wire_of("at_row_end", j_next.expr().eq(w.walk_cols.expr()));
        let i_next = m.wire_of("row_next", i.expr().add(Expr::constant(1, wb)));
        let done = m.wire_of(
            "done",
            fire.expr()
                .and(at_row_end.expr())
                .and(i_next.expr().eq(w.walk_rows.expr())),
        );
        let next_row = m.wire_of("next_row_base", w.row.q.expr().add(w.ldb.expr().zext(gb)));
        let step = Expr::mux(
            w.unit.expr(),
            bytes.expr().zext(LD_BYTES_BITS),
            w.estride.expr().zext(LD_BYTES_BITS).shl(w.size.expr()),
        );
        let run_bits = w.run.q.width();
        let run_next = m.wire_of("run_next", w.run.q.expr().add(len.slice(run_bits - 1, 0)));
        let pad = m.wire_of("pad", w.bank.expr().and(run_next.expr().eq(w.run_n.expr())));
        let elem = Expr::constant(1, SHARED_BITS).shl(w.size.expr());
        let s_step = bytes.expr().zext(SHARED_BITS).add(Expr::mux(
            pad.expr(),
            elem,
            Expr::zeros(SHARED_BITS),
        ));
        Self {
            bytes,
            constant,
            segment,
            need_req,
            fire,
            j_next,
            at_row_end,
            i_next,
            done,
            next_row,
            step,
            pad,
            run_next,
            s_step,
        }
    }
}

/// Assigns every register's next value: loaded on `load`, advanced when the chunk fires, held
/// otherwise. Returns the wire that says a segment request goes out this cycle.
fn next_state(m: &mut Module, w: &Walk, c: &Chunk, decoded: &Decoded, entry: &Signal) -> Signal {
    let wb = WALK_BITS;
    let (load, fire) = (&w.load, &c.fire);
    let hold = |state: &State| state.q.expr();
    m.assign(
        &w.busy.d,
        select3(
            load,
            Expr::constant(1, 1),
            fire,
            c.done.expr().not(),
            hold(&w.busy),
        ),
    );
    let zero_wb = Expr::zeros(wb);
    m.assign(
        &w.i.d,
        select3(
            load,
            zero_wb.clone(),
            fire,
            Expr::mux(c.at_row_end.expr(), c.i_next.expr(), w.i.q.expr()),
            hold(&w.i),
        ),
    );
    m.assign(
        &w.j.d,
        select3(
            load,
            zero_wb.clone(),
            fire,
            Expr::mux(c.at_row_end.expr(), zero_wb, c.j_next.expr()),
            hold(&w.j),
        ),
    );
    m.assign(
        &w.row.d,
        select3(
            load,
            decoded.origin.expr(),
            fire,
            Expr::mux(c.at_row_end.expr(), c.next_row.expr(), w.row.q.expr()),
            hold(&w.row),
        ),
    );
    let gb = w.g.q.width();
    m.assign(
        &w.g.d,
        select3(
            load,
            decoded.origin.expr(),
            fire,
            Expr::mux(
                c.at_row_end.expr(),
                c.next_row.expr(),
                w.g.q.expr().add(c.step.clone().zext(gb)),
            ),
            hold(&w.g),
        ),
    );
    m.assign(
        &w.s.d,
        select3(
            load,
            entry_field(entry, "shared"),
            fire,
            w.s.q.expr().add(c.s_step.clone()),
            hold(&w.s),
        ),
    );
    let run_bits = w.run.q.width();
    m.assign(
        &w.run.d,
        select3(
            load,
            Expr::zeros(run_bits),
            fire,
            Expr::mux(
                c.pad.expr().or(w.bank.expr().not()),
                Expr::zeros(run_bits),
                c.run_next.expr(),
            ),
            hold(&w.run),
        ),
    );
    let req = m.wire_of("req", fire.expr().and(c.need_req.expr()));
    m.assign(
        &w.last.d,
        Expr::mux(req.expr(), c.segment.expr(), w.last.q.expr()),
    );
    m.assign(
        &w.last_valid.d,
        select3(
            load,
            Expr::constant(0, 1),
            &req,
            Expr::constant(1, 1),
            hold(&w.last_valid),
        ),
    );
    req
}

/// Drives the outputs, each zero when its valid is low.
fn outputs(m: &mut Module, design: &D2maDesign, p: &Ports, w: &Walk, c: &Chunk, req: &Signal) {
    let seg_lg = design.segment_bytes.trailing_zeros();
    let gate = |valid: &Signal, v: Expr| {
        let width = v.width();
        Expr::mux(valid.expr(), v, Expr::zeros(width))
    };
    let fire = &c.fire;
    m.assign(&p.busy_o, w.busy.q.expr());
    m.assign(&p.chunk_valid_o, fire.expr());
    m.assign(&p.chunk_const_o, fire.expr().and(c.constant.expr()));
    m.assign(&p.chunk_global_o, gate(fire, w.g.q.expr()));
    m.assign(&p.chunk_shared_o, gate(fire, w.s.q.expr()));
    m.assign(&p.chunk_bytes_o, gate(fire, c.bytes.expr()));
    m.assign(&p.req_valid_o, req.expr());
    m.assign(
        &p.req_addr_o,
        gate(
            req,
            Expr::concat(vec![c.segment.expr(), Expr::zeros(seg_lg)]),
        ),
    );
    let const_store = m.wire_of("const_store", fire.expr().and(c.constant.expr()));
    m.assign(&p.const_o, gate(&const_store, w.halo_const.expr()));
    m.assign(&p.done_o, c.done.expr());
}

/// `a ? x : (b ? y : otherwise)`.
fn select3(a: &Signal, x: Expr, b: &Signal, y: Expr, otherwise: Expr) -> Expr {
    Expr::mux(a.expr(), x, Expr::mux(b.expr(), y, otherwise))
}
