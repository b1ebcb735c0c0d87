//! The out-of-bounds fill (`d2ma_extent`): per table entry the global extent of the fourth
//! configuration command (part 3; model: `models::d2ma::data::Extent`), and for every chunk of
//! the walk how many of its bytes lie inside it, the rest being written as zero.
//!
//! - **Extent registers**: 17 bits per entry, written by a part-3 command to an entry that is
//!   not busy (the controller ignores part 3; commands to a busy entry are ignored, as for the
//!   other parts). Bit 16 enables the fill (reset to 0: no fill), bits 15:0 hold the extent as
//!   the `count` field holds a shape (2-D: rows in 15:8, columns in 7:0). It outlives
//!   completion, as the shape does.
//! - **Walk position**: the row and column of the walk (halo included) of the chunk arriving in
//!   the writeback's stage (the AGEN's chunk a cycle later), counted from its elements
//!   (`bytes >> size`) and reset when a walk starts (two cycles after the previous walk's last
//!   chunk at the earliest, so after it has arrived): the AGEN walks row by row and never
//!   splits a chunk over two rows. The writeback holds a chunk's in-extent bytes with it if the
//!   chunk waits in the stage.
//! - **Element size**: the walk's, held from its start, for the writeback's queue (the
//!   controller's read port shows the walked entry only in the start's cycle).
//! - **Keep**: a chunk at walk row `i`, column `j` with `n` elements keeps
//!   `min(n, cols + halo_cols - j)` elements (none when `i >= rows + halo_rows`, or
//!   `j >= cols + halo_cols`): past the end are tile rows `>= rows`, tile columns `>= cols`.
//!   The fill switch and the two limits (`rows + halo_rows`, `cols + halo_cols`, from the
//!   walked entry's extent) are registered the cycle after the start, from registers, so a
//!   chunk's keep is computed from registers alone: the walked entry's extent is no longer
//!   selected in the chunk's cycle, a path that limited the engine with its data path to
//!   1 269 ps.

use super::fields::{entry_field, mode_is, tile_extent, MODE_HALO, WALK_BITS};
use super::writeback::BYTES_BITS;
use super::{D2maDesign, Storage, CFG_DATA_BITS, PART_BITS};
use crate::rtl::{Expr, Module};
use models::d2ma::data::EXTENT_FIELD_BITS;
use models::d2ma::ENTRY_BITS;
use std::ops::{Add, Not, Shl, Shr, Sub};

/// The part code of the extent command.
pub const PART_EXTENT: u64 = 3;

/// Builds `d2ma_extent` for `design`.
pub fn build(design: &D2maDesign, name: &str, header: Vec<String>) -> Module {
    let mut m = Module::new(name).with_header(header);
    m.add_clock();
    let (cb, bb, e) = (design.cta_bits(), design.buf_bits(), design.entries());
    let cfg_valid = m.input("cfg_valid_i", 1, "A configuration command.");
    let cfg_cta = m.input("cfg_cta_i", cb, "The command's CTA.");
    let cfg_buf = m.input("cfg_buf_i", bb, "The command's buffer.");
    let cfg_part = m.input("cfg_part_i", PART_BITS, "Part: 3 is the extent.");
    let cfg_data = m.input("cfg_data_i", CFG_DATA_BITS, "The part's bits.");
    let busy = m.input("busy_i", e, "Per entry: busy (commands are ignored).");
    let start = m.input("start_i", 1, "A walk starts (the AGEN's start).");
    let cur_cta = m.input("cur_cta_i", cb, "The CTA of the entry walked.");
    let cur_buf = m.input("cur_buf_i", bb, "The buffer of the entry walked.");
    let entry = m.input("entry_i", ENTRY_BITS, "The entry walked.");
    let chunk = m.input(
        "chunk_valid_i",
        1,
        "A chunk arrives in the writeback's stage.",
    );
    let bytes = m.input("chunk_bytes_i", BYTES_BITS, "Its bytes.");
    let keep_o = m.output(
        "keep_o",
        BYTES_BITS,
        "Bytes of the chunk inside the extent.",
    );
    let size_o = m.output("size_o", 2, "The walk's element size (log2 bytes).");
    // The walk needs the shape only: size, count, 2-D, mode, halo rows and columns.
    let bits = |name: &str| {
        let f = models::d2ma::entry::field(name);
        (f.lsb + f.width - 1, f.lsb)
    };
    let (shared_msb, _) = bits("shared");
    let (stride_msb, stride_lsb) = bits("stride");
    let (_, region_lsb) = bits("region");
    m.sink_unused(
        "entry",
        Expr::concat(vec![
            entry.slice(ENTRY_BITS - 1, region_lsb),
            entry.slice(stride_msb, stride_lsb),
            entry.slice(shared_msb, 0),
        ]),
    );
    m.sink_unused(
        "cfg_data",
        cfg_data.slice(CFG_DATA_BITS - 1, EXTENT_FIELD_BITS),
    );
    let xb = EXTENT_FIELD_BITS;
    let write_part = cfg_valid
        .expr()
        .and(cfg_part.expr().eq(Expr::constant(PART_EXTENT, PART_BITS)));
    // The extents are flip-flops in every storage style: a latch here is read (into the walk's
    // registered limits) in the half cycle it may be written, which static timing sees as a
    // path through the latch (OpenSTA: 1 813.0 ps for the latch engine, 1 255.3 ps with
    // flip-flops, docs/QOR.md); 544 bits at 8 x 4, about 1 860 um².
    let wdata = m.wire_of("extent_wdata", cfg_data.slice(xb - 2, 0));
    let mut arms = Vec::new();
    for i in 0..e {
        let (c, b) = (i / design.buffers, i % design.buffers);
        let hit = |cta: &crate::rtl::Signal, buf: &crate::rtl::Signal| {
            cta.expr()
                .eq(Expr::constant(u64::from(c), cb))
                .and(buf.expr().eq(Expr::constant(u64::from(b), bb)))
        };
        let we = write_part
            .clone()
            .and(hit(&cfg_cta, &cfg_buf))
            .and(busy.bit(i).not());
        // The enable is written out twice: a gated clock's enable is a net of its own.
        let en = m.register_enabled(
            &format!("fill_en{i}_q"),
            cfg_data.bit(xb - 1),
            0,
            we.clone(),
        );
        let ext = Storage::FlipFlop.cell(&mut m, &format!("extent{i}"), &wdata, we);
        arms.push((
            hit(&cur_cta, &cur_buf),
            Expr::concat(vec![en.expr(), ext.expr()]),
        ));
    }
    let cur = m.wire_of("cur_extent", Expr::select(arms, Expr::zeros(xb)));

    // The walk position of this cycle's chunk. The walk's shape is held from its start:
    // `entry_i` shows the walked entry in the start's cycle only (the span unit takes the
    // controller's read port during the walk).
    let wb = WALK_BITS;
    let held = |m: &mut Module, name: &str| {
        m.register_unreset(
            &format!("{name}_q"),
            entry_field(&entry, name),
            Some(start.expr()),
            None,
        )
    };
    let size = held(&mut m, "size");
    m.assign(&size_o, size.expr());
    let two_d = held(&mut m, "two_d").expr();
    let count = held(&mut m, "count");
    let mode = held(&mut m, "mode");
    let halo = mode_is(&mode, MODE_HALO);
    let field = |m: &mut Module, name: &str| {
        let f = held(m, name);
        Expr::mux(halo.clone(), f.expr().zext(wb), Expr::zeros(wb))
    };
    let hr = field(&mut m, "halo_rows");
    let hr = m.wire_of("hr", hr);
    let hc = field(&mut m, "halo_cols");
    let hc = m.wire_of("hc", hc);
    let (_, cols) = tile_extent(two_d.clone(), &count, wb, wb);
    let walk_cols = m.wire_of("walk_cols", cols.add(hc.expr().shl(Expr::constant(1, 1))));
    let (row, row_d) = m.state("row", wb, 0);
    let (col, col_d) = m.state("col", wb, 0);
    let n = m.wire_of("elements", bytes.expr().zext(wb).shr(size.expr()));
    let col_next = m.wire_of("col_next", col.expr().add(n.expr()));
    let wrap = m.wire_of("row_end", col_next.expr().eq(walk_cols.expr()));
    m.assign(
        &col_d,
        Expr::select(
            vec![
                (start.expr(), Expr::zeros(wb)),
                (
                    chunk.expr(),
                    Expr::mux(wrap.expr(), Expr::zeros(wb), col_next.expr()),
                ),
            ],
            col.expr(),
        ),
    );
    m.assign(
        &row_d,
        Expr::select(
            vec![
                (start.expr(), Expr::zeros(wb)),
                (
                    chunk.expr().and(wrap.expr()),
                    row.expr().add(Expr::constant(1, wb)),
                ),
            ],
            row.expr(),
        ),
    );

    // Keep: the chunk's elements before the extent's end. The fill switch and the walk's
    // limits are registered the cycle after the start, from registers only (the walked entry's
    // extent and the held shape): the first chunk is in the stage two cycles after the start at
    // the earliest, and the chunks' path no longer runs through the extent select.
    let limits = m.register("load_limits_q", start.expr(), 0);
    let ext = cur.slice(xb - 2, 0);
    let (xrows, xcols) = tile_extent(two_d, &m.wire_of("ext", ext), wb, wb);
    let hold_limit = |m: &mut Module, name: &str, d: Expr| {
        m.register_unreset(name, d, Some(limits.expr()), None)
    };
    let fill = hold_limit(&mut m, "fill_q", cur.bit(xb - 1));
    let row_end = hold_limit(&mut m, "row_limit_q", xrows.add(hr.expr()));
    let col_end = hold_limit(&mut m, "col_limit_q", xcols.add(hc.expr()));
    let past = row
        .expr()
        .ge(row_end.expr())
        .or(col.expr().ge(col_end.expr()));
    let room = m.wire_of("room", col_end.expr().sub(col.expr()));
    let kept = Expr::select(
        vec![
            (past, Expr::zeros(wb)),
            (room.expr().lt(n.expr()), room.expr()),
        ],
        n.expr(),
    );
    let kept = m.wire_of("kept", kept.shl(size.expr()));
    m.assign(
        &keep_o,
        Expr::mux(fill.expr(), kept.slice(BYTES_BITS - 1, 0), bytes.expr()),
    );
    // A chunk has at most 128 bytes: the kept bytes fit the chunk's byte count.
    m.sink_unused("kept", kept.slice(wb - 1, BYTES_BITS));
    m
}

/// The configuration word that writes an entry's extent (part 3), as the manifest lists it.
pub fn manifest_word() -> crate::manifest::ManifestWord {
    use crate::manifest::{ManifestField, ManifestWord};
    let bits = EXTENT_FIELD_BITS - 1;
    ManifestWord {
        name: "extent".into(),
        description: "the out-of-bounds fill's extent of CTA cfg_cta_i's buffer cfg_buf_i \
                      (models::d2ma::data::Extent)"
            .into(),
        select: Some(PART_EXTENT),
        fields: vec![
            ManifestField {
                name: "extent".into(),
                lsb: 0,
                width: bits,
                description: "1-D: elements from the base; 2-D: rows in 15:8, columns in 7:0"
                    .into(),
            },
            ManifestField {
                name: "fill".into(),
                lsb: bits,
                width: 1,
                description: "elements past the extent are written as zero".into(),
            },
        ],
    }
}
