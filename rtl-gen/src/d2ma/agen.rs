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
//! A chunk that needs a request waits while `mem_ready_i` is low (the shader's memory unit has
//! priority on the shared port); other chunks never wait. Outputs are combinational from the
//! state, `entry_i` and `mem_ready_i`, and zero when not valid. A transfer takes one cycle to
//! start (plus the halo rows): the first chunk appears the cycle after `start_i`.

use super::fields::{entry_field, WALK_BITS};
use super::{D2maDesign, CHUNK_BYTES_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::entry::{field, ENTRY_BITS};
use std::ops::{Add, Not, Shl, Shr, Sub};

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

/// Builds the AGEN of `design` (only its segment size and global address bits matter).
pub fn build(design: &D2maDesign, header: Vec<String>) -> Module {
    let mut m = Module::new(design.name()).with_header(header);
    m.add_clock();
    let seg = u64::from(design.segment_bytes);
    let seg_lg = design.segment_bytes.trailing_zeros();
    let gb = design.global_bits;
    let wb = WALK_BITS;
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
        "The memory port takes a request this cycle (low while the memory unit has it).",
    );
    let busy_o = m.output("busy_o", 1, "A transfer is being walked.");
    let chunk_valid_o = m.output("chunk_valid_o", 1, "A chunk is produced this cycle.");
    let chunk_const_o = m.output("chunk_const_o", 1, "The chunk is a halo constant store.");
    let chunk_global_o = m.output("chunk_global_o", gb, "Global byte address of the chunk.");
    let chunk_shared_o = m.output(
        "chunk_shared_o",
        SHARED_BITS,
        "Shared byte address of the chunk.",
    );
    let chunk_bytes_o = m.output(
        "chunk_bytes_o",
        CHUNK_BYTES_BITS,
        "Bytes the chunk writes to shared memory.",
    );
    let req_valid_o = m.output("req_valid_o", 1, "A segment request is issued this cycle.");
    let req_addr_o = m.output("req_addr_o", gb, "The requested segment's address.");
    let const_o = m.output(
        "const_o",
        SHARED_BITS,
        "The halo constant, with chunk_const_o.",
    );
    let done_o = m.output("done_o", 1, "This cycle's chunk is the transfer's last.");

    // Decode the entry, read in place every cycle.
    let size = m.wire_of("size", entry_field(&entry, "size"));
    let two_d = m.wire_of("two_d", entry_field(&entry, "two_d"));
    let mode = m.wire_of("mode", entry_field(&entry, "mode"));
    let count = m.wire_of("count", entry_field(&entry, "count"));
    let estride = m.wire_of("estride", entry_field(&entry, "stride"));
    let region = m.wire_of("region", entry_field(&entry, "region"));
    let halo = m.wire_of("halo", mode.expr().eq(Expr::constant(1, 2)));
    let bank = m.wire_of("bank", mode.expr().eq(Expr::constant(2, 2)));
    let run_n = m.wire_of("run_n", entry_field(&entry, "halo_cols"));
    let halo_const = m.wire_of("halo_const", entry_field(&entry, "halo_const"));
    let z = |w| Expr::zeros(w);
    let rows = Expr::mux(
        two_d.expr(),
        count.slice(15, 8).zext(wb),
        Expr::constant(1, wb),
    );
    let cols = Expr::mux(
        two_d.expr(),
        count.slice(7, 0).zext(wb),
        count.expr().zext(wb),
    );
    let hr = m.wire_of(
        "hr",
        Expr::mux(
            halo.expr(),
            entry_field(&entry, "halo_rows").zext(wb),
            z(wb),
        ),
    );
    let hc = m.wire_of(
        "hc",
        Expr::mux(
            halo.expr(),
            entry_field(&entry, "halo_cols").zext(wb),
            z(wb),
        ),
    );
    let one = Expr::constant(1, 1);
    let row_end = m.wire_of("tile_row_end", hr.expr().add(rows));
    let col_end = m.wire_of("tile_col_end", hc.expr().add(cols));
    let walk_rows = m.wire_of("walk_rows", row_end.expr().add(hr.expr()));
    let walk_cols = m.wire_of("walk_cols", col_end.expr().add(hc.expr()));
    let ld = Expr::mux(two_d.expr(), estride.expr(), z(16));
    let ldb = m.wire_of("ldb", ld.zext(19).shl(size.expr()));
    let unit = m.wire_of(
        "unit",
        two_d.expr().or(estride.expr().eq(Expr::constant(1, 16))),
    );
    let left = hc.slice(15, 0).zext(19).shl(size.expr()).zext(gb);
    let base = global_base(&mut m, &entry, gb);
    // The walk's first row starts halo_cols elements left of the base; the halo rows above
    // are stepped back one leading dimension a cycle before the first chunk.
    let first_row = m.wire_of("first_row", base.sub(left));
    let region_is = |rs: &[u64]| {
        rs.iter()
            .map(|&r| region.expr().eq(Expr::constant(r, 8)))
            .reduce(|a, b| a.or(b))
            .unwrap_or_else(|| Expr::constant(0, 1))
            .and(halo.expr())
    };
    // {top, right, bottom, left}: the sides of the tile that are the grid's border.
    let borders = m.wire_of(
        "borders",
        Expr::concat(vec![
            region_is(&[1, 2, 3]),
            region_is(&[3, 4, 5]),
            region_is(&[5, 6, 7]),
            region_is(&[7, 8, 1]),
        ]),
    );

    // State: the walk only.
    let (busy, busy_d) = m.state("busy", 1, 0);
    let (rewind, rewind_d) = m.state("rewind", 1, 0);
    let load = m.wire_of("load", start.expr().and(busy.expr().not()));
    let (i, i_d) = m.state("row", wb, 0);
    let (j, j_d) = m.state("col", wb, 0);
    let (g, g_d) = m.state("gaddr", gb, 0);
    let (row, row_d) = m.state("row_base", gb, 0);
    let (s, s_d) = m.state("saddr", 16, 0);
    let (run, run_d) = m.state("run", 16, 0);
    let (last, last_d) = m.state("last_seg", gb - seg_lg, 0);
    let (last_valid, last_valid_d) = m.state("last_valid", 1, 0);

    // This cycle's chunk.
    let in_left = j.expr().lt(hc.expr());
    let in_tile = j.expr().lt(col_end.expr());
    let boundary = Expr::mux(
        in_left.clone(),
        hc.expr(),
        Expr::mux(in_tile.clone(), col_end.expr(), walk_cols.expr()),
    );
    let len_col = m.wire_of("len_col", boundary.sub(j.expr()));
    let seg_rem = Expr::constant(seg, 8)
        .sub(g.slice(seg_lg - 1, 0).zext(8))
        .shr(size.expr());
    let len_seg = Expr::mux(
        unit.expr(),
        min(len_col.expr(), seg_rem.zext(wb)),
        Expr::constant(1, wb),
    );
    let len_seg = m.wire_of("len_seg", len_seg);
    let bank_rem = run_n.expr().sub(run.expr()).zext(wb);
    let len = m.wire_of(
        "len",
        Expr::mux(bank.expr(), min(len_seg.expr(), bank_rem), len_seg.expr()),
    );
    let bytes = m.wire_of("bytes", len.slice(7, 0).shl(size.expr()));
    let constant = m.wire_of(
        "constant",
        // borders_q: {top, right, bottom, left}.
        (borders.bit(3).and(i.expr().lt(hr.expr())))
            .or(borders.bit(1).and(i.expr().lt(row_end.expr()).not()))
            .or(borders.bit(0).and(in_left))
            .or(borders.bit(2).and(in_tile.not())),
    );
    let segment = m.wire_of("segment", g.slice(gb - 1, seg_lg));
    let need_req = m.wire_of(
        "need_req",
        constant
            .expr()
            .not()
            .and(last_valid.expr().not().or(segment.expr().ne(last.expr()))),
    );
    let walking = m.wire_of("walking", busy.expr().and(rewind.expr().not()));
    let fire = m.wire_of(
        "fire",
        walking
            .expr()
            .and(need_req.expr().not().or(mem_ready.expr())),
    );
    let j_next = m.wire_of("col_next", j.expr().add(len.expr()));
    let at_row_end = m.wire_of("at_row_end", j_next.expr().eq(walk_cols.expr()));
    let i_next = m.wire_of("row_next", i.expr().add(Expr::constant(1, wb)));
    let done = m.wire_of(
        "done",
        fire.expr()
            .and(at_row_end.expr())
            .and(i_next.expr().eq(walk_rows.expr())),
    );
    let next_row = m.wire_of("next_row_base", row.expr().add(ldb.expr().zext(gb)));
    let prev_row = m.wire_of("prev_row_base", row.expr().sub(ldb.expr().zext(gb)));
    // The last rewind step: the row counter has counted the halo rows stepped back.
    let rewound = m.wire_of("rewound", rewind.expr().and(i_next.expr().eq(hr.expr())));
    let step = Expr::mux(
        unit.expr(),
        bytes.expr().zext(19),
        estride.expr().zext(19).shl(size.expr()),
    );
    let run_next = m.wire_of("run_next", run.expr().add(len.slice(15, 0)));
    let pad = m.wire_of("pad", bank.expr().and(run_next.expr().eq(run_n.expr())));
    let elem = Expr::constant(1, 16).shl(size.expr());
    let s_step = bytes
        .expr()
        .zext(16)
        .add(Expr::mux(pad.expr(), elem, Expr::zeros(16)));

    // Next state: start, a rewind step (busy in the halo rows), a chunk, or hold.
    let rewinding = m.wire_of("rewinding", busy.expr().and(rewind.expr()));
    let next = |on_load: Expr, on_rewind: Expr, on_fire: Expr, q: &Signal| {
        Expr::select(
            vec![
                (load.expr(), on_load),
                (rewinding.expr(), on_rewind),
                (fire.expr(), on_fire),
            ],
            q.expr(),
        )
    };
    let has_halo_rows = hr.expr().ne(Expr::zeros(wb));
    m.assign(
        &busy_d,
        next(one.clone(), one.clone(), done.expr().not(), &busy),
    );
    m.assign(
        &rewind_d,
        next(
            has_halo_rows,
            rewound.expr().not(),
            Expr::constant(0, 1),
            &rewind,
        ),
    );
    let zero_wb = Expr::zeros(wb);
    let stepped = Expr::mux(rewound.expr(), zero_wb.clone(), i_next.expr());
    m.assign(
        &i_d,
        next(
            zero_wb.clone(),
            stepped,
            Expr::mux(at_row_end.expr(), i_next.expr(), i.expr()),
            &i,
        ),
    );
    m.assign(
        &j_d,
        next(
            zero_wb.clone(),
            j.expr(),
            Expr::mux(at_row_end.expr(), zero_wb, j_next.expr()),
            &j,
        ),
    );
    m.assign(
        &row_d,
        next(
            first_row.expr(),
            prev_row.expr(),
            Expr::mux(at_row_end.expr(), next_row.expr(), row.expr()),
            &row,
        ),
    );
    m.assign(
        &g_d,
        next(
            first_row.expr(),
            prev_row.expr(),
            Expr::mux(
                at_row_end.expr(),
                next_row.expr(),
                g.expr().add(step.zext(gb)),
            ),
            &g,
        ),
    );
    m.assign(
        &s_d,
        next(
            entry_field(&entry, "shared"),
            s.expr(),
            s.expr().add(s_step),
            &s,
        ),
    );
    m.assign(
        &run_d,
        next(
            Expr::zeros(16),
            run.expr(),
            Expr::mux(
                pad.expr().or(bank.expr().not()),
                Expr::zeros(16),
                run_next.expr(),
            ),
            &run,
        ),
    );
    let req = m.wire_of("req", fire.expr().and(need_req.expr()));
    m.assign(&last_d, Expr::mux(req.expr(), segment.expr(), last.expr()));
    m.assign(
        &last_valid_d,
        Expr::select(
            vec![(load.expr(), Expr::constant(0, 1)), (req.expr(), one)],
            last_valid.expr(),
        ),
    );

    // Outputs, zero when not valid.
    let gate = |valid: &Signal, v: Expr| {
        let w = v.width();
        Expr::mux(valid.expr(), v, Expr::zeros(w))
    };
    m.assign(&busy_o, busy.expr());
    m.assign(&chunk_valid_o, fire.expr());
    m.assign(&chunk_const_o, fire.expr().and(constant.expr()));
    m.assign(&chunk_global_o, gate(&fire, g.expr()));
    m.assign(&chunk_shared_o, gate(&fire, s.expr()));
    m.assign(&chunk_bytes_o, gate(&fire, bytes.expr()));
    m.assign(&req_valid_o, req.expr());
    m.assign(
        &req_addr_o,
        gate(
            &req,
            Expr::concat(vec![segment.expr(), Expr::zeros(seg_lg)]),
        ),
    );
    let const_store = m.wire_of("const_store", fire.expr().and(constant.expr()));
    m.assign(&const_o, gate(&const_store, halo_const.expr()));
    m.assign(&done_o, done.expr());
    m
}
