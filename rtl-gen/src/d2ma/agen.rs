//! The address generation unit of the paper's section 4.2 (Fig. 5): it starts walking the
//! table entry on `entry_i` on `start_i` and then produces one chunk a cycle, exactly the walk
//! of `models::d2ma::transfer` (read that module for what a chunk is).
//!
//! The AGEN reads the entry in place: `entry_i` must show the walked entry from the `start_i`
//! cycle until `done_o` (the engine keeps the controller array's read port on it), so the AGEN
//! holds no copy of the entry, only the walk: the position (row and column counters, which end
//! the transfer like the paper's byte counter), the current and row-start global addresses,
//! the shared address beside them (Fig. 5d), the last requested segment for the
//! mask-and-compare (Fig. 5c) and the bank-run counter of bank-conflict resolution.
//!
//! A halo tile's walk starts `halo_rows` rows above and `halo_cols` columns left of the tile's
//! base. The AGEN has no multiplier for that origin: it steps the row-start address back one
//! leading dimension a cycle, `halo_rows` cycles between `start_i` and the first chunk.
//!
//! Every chunk waits while `mem_ready_i` is low (the shader's memory unit has priority on the
//! shared port, which constant stores use too; the engine's data path holds it low while its
//! chunk queue or MSHRs are full). Outputs are combinational from the
//! state, `entry_i` and `mem_ready_i`, and zero when not valid. A transfer takes one cycle to
//! start (plus the halo rows): the first chunk appears the cycle after `start_i`.

use super::fields::{entry_field, mode_is, tile_extent, MODE_BANK, MODE_HALO, WALK_BITS};
use super::{D2maDesign, CHUNK_BYTES_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::entry::{field, ENTRY_BITS};
use std::ops::{Add, Not, Shl, Shr, Sub};

/// Bits of the leading dimension (and of a strided step) in bytes: 16-bit elements shifted by
/// up to 3.
const LD_BYTES_BITS: u32 = 19;

/// Bits of the bytes left in the current segment (at most 128).
const SEGMENT_LEFT_BITS: u32 = 8;

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

/// Builds the AGEN of `design` (only its segment size and global address bits matter): its
/// ports, the entry decoded in place, the walk's state, this cycle's chunk, the next state and
/// the outputs, in that order.
pub fn build(design: &D2maDesign, header: Vec<String>) -> Module {
    let mut m = Module::new(design.name()).with_header(header);
    m.add_clock();
    let gb = design.global_bits;
    let ports = Ports::declare(&mut m, gb);
    let entry = Decoded::of(&mut m, &ports.entry, gb);
    let walk = Walk::declare(&mut m, design, &ports.start, &entry);
    let chunk = Chunk::of(&mut m, design, &entry, &walk, &ports.mem_ready);
    let req = next_state(&mut m, &entry, &walk, &chunk, &ports.entry);
    outputs(&mut m, design, &ports, &entry, &walk, &chunk, &req);
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
            "The buffer-management-table entry to walk, held from start_i until done_o.",
        );
        let mem_ready = m.input(
            "mem_ready_i",
            1,
            "The memory port takes a request and the chunk this cycle (low: every chunk waits).",
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

/// The entry on `entry_i`, decoded in place every cycle (the AGEN holds no copy of it).
struct Decoded {
    /// Log2 of the element's bytes.
    size: Signal,
    /// The element stride of a 1-D transfer (the leading dimension of a 2-D one).
    estride: Signal,
    /// Bank-conflict resolution, and its run length in elements.
    bank: Signal,
    run_n: Signal,
    halo_const: Signal,
    /// Halo rows above and columns left of the tile (zero without a halo).
    hr: Signal,
    hc: Signal,
    /// Where the tile's rows and columns end in the walk, and where the walk's end.
    row_end: Signal,
    col_end: Signal,
    walk_rows: Signal,
    walk_cols: Signal,
    /// The leading dimension in bytes (zero for 1-D).
    ldb: Signal,
    /// Elements are contiguous: a chunk may cover several.
    unit: Signal,
    /// The global address of the walk's first row (the halo rows above are stepped back).
    first_row: Signal,
    /// `{top, right, bottom, left}`: the sides of the tile that are the grid's border.
    borders: Signal,
}

impl Decoded {
    /// Decodes `entry` for global addresses of `gb` bits.
    fn of(m: &mut Module, entry: &Signal, gb: u32) -> Self {
        let wb = WALK_BITS;
        let z = |w| Expr::zeros(w);
        let size = m.wire_of("size", entry_field(entry, "size"));
        let two_d = m.wire_of("two_d", entry_field(entry, "two_d"));
        let mode = m.wire_of("mode", entry_field(entry, "mode"));
        let count = m.wire_of("count", entry_field(entry, "count"));
        let estride = m.wire_of("estride", entry_field(entry, "stride"));
        let region = m.wire_of("region", entry_field(entry, "region"));
        let halo = m.wire_of("halo", mode_is(&mode, MODE_HALO));
        let bank = m.wire_of("bank", mode_is(&mode, MODE_BANK));
        let run_n = m.wire_of("run_n", entry_field(entry, "halo_cols"));
        let halo_const = m.wire_of("halo_const", entry_field(entry, "halo_const"));
        let (rows, cols) = tile_extent(two_d.expr(), &count);
        let halo_dim =
            |name: &str| Expr::mux(halo.expr(), entry_field(entry, name).zext(wb), z(wb));
        let hr = m.wire_of("hr", halo_dim("halo_rows"));
        let hc = m.wire_of("hc", halo_dim("halo_cols"));
        let row_end = m.wire_of("tile_row_end", hr.expr().add(rows));
        let col_end = m.wire_of("tile_col_end", hc.expr().add(cols));
        let walk_rows = m.wire_of("walk_rows", row_end.expr().add(hr.expr()));
        let walk_cols = m.wire_of("walk_cols", col_end.expr().add(hc.expr()));
        let stride_bits = estride.width();
        let ld = Expr::mux(two_d.expr(), estride.expr(), z(stride_bits));
        let ldb = m.wire_of("ldb", ld.zext(LD_BYTES_BITS).shl(size.expr()));
        let unit = m.wire_of(
            "unit",
            two_d
                .expr()
                .or(estride.expr().eq(Expr::constant(1, stride_bits))),
        );
        let left = hc
            .slice(run_n.width() - 1, 0)
            .zext(LD_BYTES_BITS)
            .shl(size.expr())
            .zext(gb);
        let base = global_base(m, entry, gb);
        // The walk's first row starts halo_cols elements left of the base; the halo rows above
        // are stepped back one leading dimension a cycle before the first chunk.
        let first_row = m.wire_of("first_row", base.sub(left));
        let region_bits = region.width();
        let region_is = |rs: &[u64]| {
            rs.iter()
                .map(|&r| region.expr().eq(Expr::constant(r, region_bits)))
                .reduce(|a, b| a.or(b))
                .unwrap_or_else(|| Expr::constant(0, 1))
                .and(halo.expr())
        };
        let borders = m.wire_of(
            "borders",
            Expr::concat(vec![
                region_is(&[1, 2, 3]),
                region_is(&[3, 4, 5]),
                region_is(&[5, 6, 7]),
                region_is(&[7, 8, 1]),
            ]),
        );
        Self {
            size,
            estride,
            bank,
            run_n,
            halo_const,
            hr,
            hc,
            row_end,
            col_end,
            walk_rows,
            walk_cols,
            ldb,
            unit,
            first_row,
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
    /// Declares the register `base`, `width` bits, reset to zero.
    fn declare(m: &mut Module, base: &str, width: u32) -> Self {
        let (q, d) = m.state(base, width, 0);
        Self { q, d }
    }
}

/// The walk's state, and nothing of the entry.
struct Walk {
    busy: State,
    /// Stepping the row-start address back over the halo rows, before the first chunk.
    rewind: State,
    /// A transfer starts this cycle: `start_i` while idle.
    load: Signal,
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
    /// Declares the state of `design`'s walk, loading on `start`.
    fn declare(m: &mut Module, design: &D2maDesign, start: &Signal, entry: &Decoded) -> Self {
        let (wb, gb) = (WALK_BITS, design.global_bits);
        let seg_lg = design.segment_bytes.trailing_zeros();
        let busy = State::declare(m, "busy", 1);
        let rewind = State::declare(m, "rewind", 1);
        let load = m.wire_of("load", start.expr().and(busy.q.expr().not()));
        Self {
            i: State::declare(m, "row", wb),
            j: State::declare(m, "col", wb),
            g: State::declare(m, "gaddr", gb),
            row: State::declare(m, "row_base", gb),
            s: State::declare(m, "saddr", SHARED_BITS),
            run: State::declare(m, "run", entry.run_n.width()),
            last: State::declare(m, "last_seg", gb - seg_lg),
            last_valid: State::declare(m, "last_valid", 1),
            busy,
            rewind,
            load,
        }
    }
}

/// This cycle's chunk: its length, bytes and kind, whether it needs a segment request and
/// goes (`fire`), and where the walk goes after it (or after a rewind step).
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
    prev_row: Signal,
    /// The last rewind step: the row counter has counted the halo rows stepped back.
    rewound: Signal,
    step: Expr,
    pad: Signal,
    run_next: Signal,
    s_step: Expr,
}

impl Chunk {
    fn of(m: &mut Module, design: &D2maDesign, e: &Decoded, w: &Walk, mem_ready: &Signal) -> Self {
        let (wb, gb) = (WALK_BITS, design.global_bits);
        let seg = u64::from(design.segment_bytes);
        let seg_lg = design.segment_bytes.trailing_zeros();
        let (i, j, g) = (&w.i.q, &w.j.q, &w.g.q);
        let in_left = j.expr().lt(e.hc.expr());
        let in_tile = j.expr().lt(e.col_end.expr());
        let boundary = Expr::mux(
            in_left.clone(),
            e.hc.expr(),
            Expr::mux(in_tile.clone(), e.col_end.expr(), e.walk_cols.expr()),
        );
        let len_col = m.wire_of("len_col", boundary.sub(j.expr()));
        let seg_rem = Expr::constant(seg, SEGMENT_LEFT_BITS)
            .sub(g.slice(seg_lg - 1, 0).zext(SEGMENT_LEFT_BITS))
            .shr(e.size.expr());
        let len_seg = Expr::mux(
            e.unit.expr(),
            min(len_col.expr(), seg_rem.zext(wb)),
            Expr::constant(1, wb),
        );
        let len_seg = m.wire_of("len_seg", len_seg);
        let bank_rem = e.run_n.expr().sub(w.run.q.expr()).zext(wb);
        let len = m.wire_of(
            "len",
            Expr::mux(e.bank.expr(), min(len_seg.expr(), bank_rem), len_seg.expr()),
        );
        let bytes = m.wire_of(
            "bytes",
            len.slice(CHUNK_BYTES_BITS - 1, 0).shl(e.size.expr()),
        );
        let constant = m.wire_of(
            "constant",
            // borders_q: {top, right, bottom, left}.
            (e.borders.bit(3).and(i.expr().lt(e.hr.expr())))
                .or(e.borders.bit(1).and(i.expr().lt(e.row_end.expr()).not()))
                .or(e.borders.bit(0).and(in_left))
                .or(e.borders.bit(2).and(in_tile.not())),
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
        let walking = m.wire_of("walking", w.busy.q.expr().and(w.rewind.q.expr().not()));
        let fire = m.wire_of("fire", walking.expr().and(mem_ready.expr()));
        let j_next = m.wire_of("col_next", j.expr().add(len.expr()));
        let at_row_end = m.wire_of("at_row_end", j_next.expr().eq(e.walk_cols.expr()));
        let i_next = m.wire_of("row_next", i.expr().add(Expr::constant(1, wb)));
        let done = m.wire_of(
            "done",
            fire.expr()
                .and(at_row_end.expr())
                .and(i_next.expr().eq(e.walk_rows.expr())),
        );
        let ldb = e.ldb.expr().zext(gb);
        let next_row = m.wire_of("next_row_base", w.row.q.expr().add(ldb.clone()));
        let prev_row = m.wire_of("prev_row_base", w.row.q.expr().sub(ldb));
        let rewound = m.wire_of(
            "rewound",
            w.rewind.q.expr().and(i_next.expr().eq(e.hr.expr())),
        );
        let step = Expr::mux(
            e.unit.expr(),
            bytes.expr().zext(LD_BYTES_BITS),
            e.estride.expr().zext(LD_BYTES_BITS).shl(e.size.expr()),
        );
        let run_bits = w.run.q.width();
        let run_next = m.wire_of("run_next", w.run.q.expr().add(len.slice(run_bits - 1, 0)));
        let pad = m.wire_of("pad", e.bank.expr().and(run_next.expr().eq(e.run_n.expr())));
        let elem = Expr::constant(1, SHARED_BITS).shl(e.size.expr());
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
            prev_row,
            rewound,
            step,
            pad,
            run_next,
            s_step,
        }
    }
}

/// What moves a register this cycle, in priority order: a start, a rewind step (busy in the
/// halo rows), a chunk that fires; otherwise it holds.
struct Advance {
    load: Signal,
    rewinding: Signal,
    fire: Signal,
}

impl Advance {
    /// The next value of `q`: `on_load`, `on_rewind`, `on_fire` or held.
    fn next(&self, on_load: Expr, on_rewind: Expr, on_fire: Expr, q: &Signal) -> Expr {
        Expr::select(
            vec![
                (self.load.expr(), on_load),
                (self.rewinding.expr(), on_rewind),
                (self.fire.expr(), on_fire),
            ],
            q.expr(),
        )
    }
}

/// Assigns every register's next value. Returns the wire that says a segment request goes out
/// this cycle.
fn next_state(m: &mut Module, e: &Decoded, w: &Walk, c: &Chunk, entry: &Signal) -> Signal {
    let one = Expr::constant(1, 1);
    let rewinding = m.wire_of("rewinding", w.busy.q.expr().and(w.rewind.q.expr()));
    let adv = Advance {
        load: w.load.clone(),
        rewinding,
        fire: c.fire.clone(),
    };
    let has_halo_rows = e.hr.expr().ne(Expr::zeros(WALK_BITS));
    m.assign(
        &w.busy.d,
        adv.next(one.clone(), one.clone(), c.done.expr().not(), &w.busy.q),
    );
    m.assign(
        &w.rewind.d,
        adv.next(
            has_halo_rows,
            c.rewound.expr().not(),
            Expr::constant(0, 1),
            &w.rewind.q,
        ),
    );
    let zero_wb = Expr::zeros(WALK_BITS);
    let stepped = Expr::mux(c.rewound.expr(), zero_wb.clone(), c.i_next.expr());
    m.assign(
        &w.i.d,
        adv.next(
            zero_wb.clone(),
            stepped,
            Expr::mux(c.at_row_end.expr(), c.i_next.expr(), w.i.q.expr()),
            &w.i.q,
        ),
    );
    m.assign(
        &w.j.d,
        adv.next(
            zero_wb.clone(),
            w.j.q.expr(),
            Expr::mux(c.at_row_end.expr(), zero_wb, c.j_next.expr()),
            &w.j.q,
        ),
    );
    m.assign(
        &w.row.d,
        adv.next(
            e.first_row.expr(),
            c.prev_row.expr(),
            Expr::mux(c.at_row_end.expr(), c.next_row.expr(), w.row.q.expr()),
            &w.row.q,
        ),
    );
    let gb = w.g.q.width();
    m.assign(
        &w.g.d,
        adv.next(
            e.first_row.expr(),
            c.prev_row.expr(),
            Expr::mux(
                c.at_row_end.expr(),
                c.next_row.expr(),
                w.g.q.expr().add(c.step.clone().zext(gb)),
            ),
            &w.g.q,
        ),
    );
    m.assign(
        &w.s.d,
        adv.next(
            entry_field(entry, "shared"),
            w.s.q.expr(),
            w.s.q.expr().add(c.s_step.clone()),
            &w.s.q,
        ),
    );
    let run_bits = w.run.q.width();
    m.assign(
        &w.run.d,
        adv.next(
            Expr::zeros(run_bits),
            w.run.q.expr(),
            Expr::mux(
                c.pad.expr().or(e.bank.expr().not()),
                Expr::zeros(run_bits),
                c.run_next.expr(),
            ),
            &w.run.q,
        ),
    );
    let req = m.wire_of("req", c.fire.expr().and(c.need_req.expr()));
    m.assign(
        &w.last.d,
        Expr::mux(req.expr(), c.segment.expr(), w.last.q.expr()),
    );
    m.assign(
        &w.last_valid.d,
        Expr::select(
            vec![(w.load.expr(), Expr::constant(0, 1)), (req.expr(), one)],
            w.last_valid.q.expr(),
        ),
    );
    req
}

/// Drives the outputs, each zero when its valid is low.
fn outputs(
    m: &mut Module,
    design: &D2maDesign,
    p: &Ports,
    e: &Decoded,
    w: &Walk,
    c: &Chunk,
    req: &Signal,
) {
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
    m.assign(&p.const_o, gate(&const_store, e.halo_const.expr()));
    m.assign(&p.done_o, c.done.expr());
}
