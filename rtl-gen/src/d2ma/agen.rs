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

use super::controller::entry_field;
use super::{D2maDesign, CHUNK_BYTES_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::entry::{field, ENTRY_BITS};
use std::ops::{Add, Mul, Not, Shl, Shr, Sub};

/// Bits of the walk's row and column counters (a walked row or column is at most
/// 255 + 2 x 65535 elements).
pub const WALK_BITS: u32 = 18;

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
        "The buffer-management-table entry to walk.",
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

    // Decode the entry for loading.
    let size_in = entry_field(&entry, "size");
    let two_d = m.wire_of("in_two_d", entry_field(&entry, "two_d"));
    let mode = m.wire_of("in_mode", entry_field(&entry, "mode"));
    let count = m.wire_of("in_count", entry_field(&entry, "count"));
    let stride = m.wire_of("in_stride", entry_field(&entry, "stride"));
    let region = m.wire_of("in_region", entry_field(&entry, "region"));
    let halo_in = m.wire_of("in_halo", mode.expr().eq(Expr::constant(1, 2)));
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
    let hr_in = m.wire_of(
        "in_hr",
        Expr::mux(
            halo_in.expr(),
            entry_field(&entry, "halo_rows").zext(wb),
            z(wb),
        ),
    );
    let hc_in = m.wire_of(
        "in_hc",
        Expr::mux(
            halo_in.expr(),
            entry_field(&entry, "halo_cols").zext(wb),
            z(wb),
        ),
    );
    let one = Expr::constant(1, 1);
    let row_end_in = m.wire_of("in_row_end", hr_in.expr().add(rows));
    let col_end_in = m.wire_of("in_col_end", hc_in.expr().add(cols));
    let ld = Expr::mux(two_d.expr(), stride.expr(), z(16));
    let ldb_in = ld.clone().zext(19).shl(size_in.clone());
    let back = hr_in
        .slice(15, 0)
        .zext(36)
        .mul(ld.zext(36))
        .add(hc_in.slice(15, 0).zext(36))
        .shl(size_in.clone());
    // Modulo 2^gb, as the addresses are: narrower than the 36-bit product, keep its low bits.
    let back = if gb >= 36 {
        back.zext(gb)
    } else {
        let wide = m.wire_of("in_back", back);
        m.sink_unused("in_back_high", wide.slice(35, gb));
        wide.slice(gb - 1, 0)
    };
    let base = global_base(&mut m, &entry, gb);
    let origin = m.wire_of("in_origin", base.sub(back));
    let region_is = |rs: &[u64]| {
        rs.iter()
            .map(|&r| region.expr().eq(Expr::constant(r, 8)))
            .reduce(|a, b| a.or(b))
            .unwrap_or_else(|| Expr::constant(0, 1))
            .and(halo_in.expr())
    };
    let borders_in = Expr::concat(vec![
        region_is(&[1, 2, 3]),
        region_is(&[3, 4, 5]),
        region_is(&[5, 6, 7]),
        region_is(&[7, 8, 1]),
    ]);

    // State.
    let (busy, busy_d) = m.state("busy", 1, 0);
    let load = m.wire_of("load", start.expr().and(busy.expr().not()));
    let latched = |m: &mut Module, name: &str, value: Expr| -> Signal {
        let (q, d) = m.state(name, value.width(), 0);
        m.assign(&d, Expr::mux(load.expr(), value, q.expr()));
        q
    };
    let size = latched(&mut m, "size", size_in);
    let unit = latched(
        &mut m,
        "unit",
        two_d.expr().or(stride.expr().eq(Expr::constant(1, 16))),
    );
    let estride = latched(&mut m, "estride", stride.expr());
    let ldb = latched(&mut m, "ldb", ldb_in);
    let bank = latched(&mut m, "bank", mode.expr().eq(Expr::constant(2, 2)));
    let run_n = latched(&mut m, "run_n", entry_field(&entry, "halo_cols"));
    let hr = latched(&mut m, "hr", hr_in.expr());
    let hc = latched(&mut m, "hc", hc_in.expr());
    let row_end = latched(&mut m, "tile_row_end", row_end_in.expr());
    let col_end = latched(&mut m, "tile_col_end", col_end_in.expr());
    let walk_rows = latched(&mut m, "walk_rows", row_end_in.expr().add(hr_in.expr()));
    let walk_cols = latched(&mut m, "walk_cols", col_end_in.expr().add(hc_in.expr()));
    let borders = latched(&mut m, "borders", borders_in);
    let halo_const = latched(&mut m, "halo_const", entry_field(&entry, "halo_const"));
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
    let fire = m.wire_of(
        "fire",
        busy.expr().and(need_req.expr().not().or(mem_ready.expr())),
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

    // Next state.
    let hold = |q: &Signal| q.expr();
    m.assign(
        &busy_d,
        select3(
            &load,
            Expr::constant(1, 1),
            &fire,
            done.expr().not(),
            hold(&busy),
        ),
    );
    let zero_wb = Expr::zeros(wb);
    m.assign(
        &i_d,
        select3(
            &load,
            zero_wb.clone(),
            &fire,
            Expr::mux(at_row_end.expr(), i_next.expr(), i.expr()),
            hold(&i),
        ),
    );
    m.assign(
        &j_d,
        select3(
            &load,
            zero_wb.clone(),
            &fire,
            Expr::mux(at_row_end.expr(), zero_wb, j_next.expr()),
            hold(&j),
        ),
    );
    m.assign(
        &row_d,
        select3(
            &load,
            origin.expr(),
            &fire,
            Expr::mux(at_row_end.expr(), next_row.expr(), row.expr()),
            hold(&row),
        ),
    );
    m.assign(
        &g_d,
        select3(
            &load,
            origin.expr(),
            &fire,
            Expr::mux(
                at_row_end.expr(),
                next_row.expr(),
                g.expr().add(step.zext(gb)),
            ),
            hold(&g),
        ),
    );
    m.assign(
        &s_d,
        select3(
            &load,
            entry_field(&entry, "shared"),
            &fire,
            s.expr().add(s_step),
            hold(&s),
        ),
    );
    m.assign(
        &run_d,
        select3(
            &load,
            Expr::zeros(16),
            &fire,
            Expr::mux(
                pad.expr().or(bank.expr().not()),
                Expr::zeros(16),
                run_next.expr(),
            ),
            hold(&run),
        ),
    );
    let req = m.wire_of("req", fire.expr().and(need_req.expr()));
    m.assign(&last_d, Expr::mux(req.expr(), segment.expr(), last.expr()));
    m.assign(
        &last_valid_d,
        select3(
            &load,
            Expr::constant(0, 1),
            &req,
            one.clone(),
            hold(&last_valid),
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

/// `a ? x : (b ? y : otherwise)`.
fn select3(a: &Signal, x: Expr, b: &Signal, y: Expr, otherwise: Expr) -> Expr {
    Expr::mux(a.expr(), x, Expr::mux(b.expr(), y, otherwise))
}
