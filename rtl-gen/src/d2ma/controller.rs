//! The controller array of the paper's section 4.1: `ctas x buffers` buffer-management-table
//! entries (173 bits each, layout in `models::d2ma::entry`), written by configuration commands,
//! ignited by the engine and released on completion.
//!
//! Per entry the array keeps the 173 bits, which of the three parts have been written, `busy`
//! (fully configured, not complete), `started` (taken by the AGEN) and the guard's end for the
//! RAW check, computed once on the configuration path by a single span unit shared by all
//! entries, pipelined over [`SPAN_LATENCY`] register stages. Rules, each applied at the rising
//! edge from the state before it:
//! - a command writes its part of entry (`cfg_cta_i`, `cfg_buf_i`) unless all three parts of
//!   the entry are written (it is busy, or turning busy: the paper's later configuration of a
//!   busy entry is ignored) or the part code is 3;
//! - the entry becomes busy [`SPAN_LATENCY`] edges after the edge that wrote its last part,
//!   when the span unit writes its guard end;
//! - `ignite` marks a busy, not yet started entry as started; `ready_o` = busy and not started;
//! - `done` frees a busy entry and forgets its global base, so writing a new global base alone
//!   restarts the same shape (`dma_execute` in the paper's Fig. 8); software reconfiguring a
//!   completed entry therefore writes the global base last. A completion wins over an
//!   ignition of the same entry in the same cycle.

use super::fields::{
    entry_field, mode_is, narrowing, Narrowing, MODE_BANK, MODE_HALO, RUN_CODE_BITS, TILE_DIM_BITS,
};
use super::raw_check::END_BITS;
use super::{D2maDesign, Storage, CFG_DATA_BITS, PART_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::entry::{field, Part, ENTRY_BITS, FIELDS, SHARED_SPACE};
use std::collections::BTreeMap;
use std::ops::{Add, Mul, Not, Shl, Shr, Sub};

/// Bits of a 2-D walk's rows and columns in the span unit: a valid halo is at most the tile,
/// so a walked dimension is at most 3 x 255 = 765 (a halo column count with bits above the
/// low byte saturates the guard instead).
const DIM_BITS: u32 = 10;

/// Bits of the element count less one: the product of two [`DIM_BITS`] dimensions.
const COUNT_BITS: u32 = 2 * DIM_BITS;

/// An element count above `2^SATURATED_BITS` gives a guard end at the end of the shared space
/// whatever the bank pads, the element size and the shared base: the span unit's last steps
/// saturate it there and work on 17 bits.
const SATURATED_BITS: u32 = SHARED_BITS;

/// Bits of the span in slots (elements and bank pads) after saturation.
const SLOT_BITS: u32 = SATURATED_BITS + 1;

/// Bits of the guard's unclamped end: the shared base plus the slots shifted by up to 3 for
/// the element size.
const END_FULL_BITS: u32 = SLOT_BITS + 4;

/// The controller array's outputs checked only in part (see `Block::dont_cares`), with the
/// output whose bits qualify them: an entry's guard (`start_o`, `end_o`) while its `busy_o`
/// bit is 0, and the read port (`rd_entry_o`) while a command that completes an entry takes
/// it for the span unit (`rd_valid_o` low). The table is not reset and an entry that holds no transfer keeps
/// whatever it last stored (`x` before its first write), so its guard is undefined; the RAW
/// check masks every guard with its busy bit, and not zeroing the guards saves 32 x 33 gates
/// at the paper's size. The read port in such a command's cycle shows that entry, with its
/// last part not yet written.
pub const DONT_CARES: [(&str, &str); 3] = [
    ("start_o", "busy_o"),
    ("end_o", "busy_o"),
    ("rd_entry_o", "rd_valid_o"),
];

/// Cycles from a command that completes an entry to the entry turning busy: the span unit's
/// register stages after the command's cycle (see [`SpanUnit`]).
pub const SPAN_LATENCY: u32 = 4;

/// The span unit: the guard end `min(shared + span, 0x10000)` of an entry just completed (see
/// `models::d2ma::raw::Guard` and `cycle::hw_guard_end`), in five steps with a register stage
/// after each of the first four, so that no step holds more than one wide operation:
/// 1. the command's cycle: the entry's span fields (the addressed entry with the command's
///    part replaced), into `span1_*`;
/// 2. the walked rows and columns (halo included; 10 bits each for a 2-D tile, the count for
///    a 1-D one) and the bank run's log2, into `span2_*`;
/// 3. the element count less one, `rows x cols - 1` (10 x 10 bits) or `count - 1`, into
///    `span3_*`;
/// 4. that plus the bank pads `(n - 1) >> log2(run)` plus one (the carry into the adder), or
///    `2^16` when the count is above `2^16` (the end is then the end of the shared space),
///    into `span4_*`: the slots;
/// 5. shifted by the element size, added to the shared base and clamped: the end, written into
///    the entry's guard-end cells at the edge that makes the entry busy.
///
/// Each stage carries the entry's (CTA, buffer) and a reset valid bit; the data registers
/// have no reset.
struct SpanUnit {
    /// The last stage holds a completed entry this cycle.
    valid: Signal,
    cta: Signal,
    buf: Signal,
    /// The guard end of that entry.
    end: Signal,
}

/// One register stage of the span unit: `span<k>_<name>` for each value, no reset.
fn span_stage<const N: usize>(m: &mut Module, k: u32, values: [(&str, Expr); N]) -> [Signal; N] {
    values.map(|(name, v)| m.register_unreset(&format!("span{k}_{name}_q"), v, None, None))
}

impl SpanUnit {
    /// Builds the unit inside `m`, fed by the entry `written` (the addressed entry with the
    /// command's part replaced, as the table holds it: a coded run's code in its low bits), the
    /// completing command `fin` and its (CTA, buffer).
    fn build(m: &mut Module, written: &Signal, fin: Expr, cta: &Signal, buf: &Signal) -> Self {
        // Step 1: the span fields.
        let f = |name: &str| entry_field(written, name);
        // The table keeps the halo rows' low byte (`NARROWED`).
        let (hr_bits, t) = (TILE_DIM_BITS, TILE_DIM_BITS);
        let hr_field = field("halo_rows");
        // The halo columns or bank run as the table holds it (its code), decoded in step 2:
        // the command's cycle reads the table through a multiplexer already.
        let hc_field = field("halo_cols");
        let hc_code = written.slice(hc_field.lsb + RUN_CODE_BITS - 1, hc_field.lsb);
        let valid1 = m.register("span1_valid_q", fin, 0);
        let mode = m.wire_of("span_mode", f("mode"));
        let [cta1, buf1, count, two_d, halo, bank1, hr, hc, size1, shared1] = span_stage(
            m,
            1,
            [
                ("cta", cta.expr()),
                ("buf", buf.expr()),
                ("count", f("count")),
                ("two_d", f("two_d")),
                ("halo", mode_is(&mode, MODE_HALO)),
                ("bank", mode_is(&mode, MODE_BANK)),
                (
                    "halo_rows",
                    written.slice(hr_field.lsb + hr_bits - 1, hr_field.lsb),
                ),
                ("halo_cols_code", hc_code),
                ("size", f("size")),
                ("shared", f("shared")),
            ],
        );
        // Step 2: the walked extent and the bank run's log2. A 2-D tile's walked rows and
        // columns are the tile's plus twice the halo's (halo mode), on 10 bits; a halo column
        // count above the low byte (never valid) saturates the guard. A 1-D tile is one row
        // of `count` columns.
        let hc = m.wire_of("span_halo_cols", decode_run(&hc, hc_field.width));
        let dim = |x: Expr| x.zext(DIM_BITS);
        let in_halo = |x: Expr| Expr::mux(halo.expr(), x.clone(), Expr::zeros(x.width()));
        let twice = |x: Expr| dim(in_halo(x)).shl(Expr::constant(1, 1));
        let rows = dim(count.slice(2 * t - 1, t)).add(twice(hr.expr()));
        let cols = dim(count.slice(t - 1, 0)).add(twice(hc.slice(t - 1, 0)));
        let cols = Expr::mux(two_d.expr(), cols.zext(SHARED_BITS), count.expr());
        let rows = Expr::mux(two_d.expr(), rows, Expr::constant(1, DIM_BITS));
        let wide = two_d
            .expr()
            .and(in_halo(hc.slice(hc.width() - 1, t)).reduce_or());
        let valid2 = m.register("span2_valid_q", valid1.expr(), 0);
        let [cta2, buf2, rows2, cols2, two_d2, wide2, lg2, bank2, size2, shared2] = span_stage(
            m,
            2,
            [
                ("cta", cta1.expr()),
                ("buf", buf1.expr()),
                ("rows", rows),
                ("cols", cols),
                ("two_d", two_d.expr()),
                ("wide", wide),
                ("lg", or_log2(&hc)),
                ("bank", bank1.expr()),
                ("size", size1.expr()),
                ("shared", shared1.expr()),
            ],
        );
        // Step 3: the element count less one (a count of zero wraps to all ones, and
        // saturates).
        let valid3 = m.register("span3_valid_q", valid2.expr(), 0);
        let one = Expr::constant(1, COUNT_BITS);
        let product = rows2
            .expr()
            .zext(COUNT_BITS)
            .mul(cols2.slice(DIM_BITS - 1, 0).zext(COUNT_BITS));
        let last = Expr::mux(
            two_d2.expr(),
            product.sub(one.clone()),
            cols2.expr().zext(COUNT_BITS).sub(one),
        );
        let [cta3, buf3, last3, wide3, lg3, bank3, size3, shared3] = span_stage(
            m,
            3,
            [
                ("cta", cta2.expr()),
                ("buf", buf2.expr()),
                ("last", last),
                ("wide", wide2.expr()),
                ("lg", lg2.expr()),
                ("bank", bank2.expr()),
                ("size", size2.expr()),
                ("shared", shared2.expr()),
            ],
        );
        // Step 4: the slots, `last + pads + 1`, on the low 16 bits of `last`; a count above
        // 2^16 is replaced by 2^16 beside the arithmetic rather than before it. The one is
        // the adder's carry in: a low bit set in both operands.
        let big = wide3
            .expr()
            .or(last3.slice(COUNT_BITS - 1, SATURATED_BITS).reduce_or());
        let low = last3.slice(SATURATED_BITS - 1, 0);
        let pads = Expr::mux(
            bank3.expr(),
            low.clone().shr(lg3.expr()),
            Expr::zeros(SATURATED_BITS),
        );
        let carry_in = |x: Expr| Expr::concat(vec![x.zext(SLOT_BITS), Expr::constant(1, 1)]);
        let sum = m.wire_of("span_slots_sum", carry_in(low).add(carry_in(pads)));
        let sat = Expr::constant(1 << SATURATED_BITS, SLOT_BITS);
        let valid4 = m.register("span4_valid_q", valid3.expr(), 0);
        let [cta4, buf4, slots, size4, shared4] = span_stage(
            m,
            4,
            [
                ("cta", cta3.expr()),
                ("buf", buf3.expr()),
                ("slots", Expr::mux(big, sat, sum.slice(SLOT_BITS, 1))),
                ("size", size3.expr()),
                ("shared", shared3.expr()),
            ],
        );
        m.sink_unused("span_slots_sum", sum.bit(0));
        // Step 5: in bytes from the shared base, clamped to the shared space.
        let bytes = slots.expr().zext(END_FULL_BITS).shl(size4.expr());
        let end = m.wire_of(
            "span_end_full",
            shared4.expr().zext(END_FULL_BITS).add(bytes),
        );
        let limit = Expr::constant(SHARED_SPACE, END_FULL_BITS);
        let end = m.wire_of(
            "span_end",
            Expr::mux(
                limit.lt(end.expr()),
                Expr::constant(SHARED_SPACE, END_BITS),
                end.slice(END_BITS - 1, 0),
            ),
        );
        Self {
            valid: valid4,
            cta: cta4,
            buf: buf4,
            end,
        }
    }
}

/// Builds the controller array of `design`.
pub fn build(design: &D2maDesign, header: Vec<String>) -> Module {
    let mut m = Module::new(design.name()).with_header(header);
    m.add_clock();
    let (cb, bb, e) = (design.cta_bits(), design.buf_bits(), design.entries());
    let cfg_valid = m.input("cfg_valid_i", 1, "A configuration command.");
    let cfg_cta = m.input("cfg_cta_i", cb, "The command's CTA.");
    let cfg_buf = m.input("cfg_buf_i", bb, "The command's buffer.");
    let cfg_part = m.input(
        "cfg_part_i",
        PART_BITS,
        "Part written: 0 global base, 1 shape, 2 halo; 3 is ignored.",
    );
    let cfg_data = m.input(
        "cfg_data_i",
        CFG_DATA_BITS,
        "The part's bits, least significant first.",
    );
    let ign_valid = m.input("ignite_valid_i", 1, "The engine starts a ready entry.");
    let ign_cta = m.input("ignite_cta_i", cb, "The ignited entry's CTA.");
    let ign_buf = m.input("ignite_buf_i", bb, "The ignited entry's buffer.");
    let done_valid = m.input("done_valid_i", 1, "A busy entry's transfer completed.");
    let done_cta = m.input("done_cta_i", cb, "The completed entry's CTA.");
    let done_buf = m.input("done_buf_i", bb, "The completed entry's buffer.");
    let rd_cta = m.input("rd_cta_i", cb, "Entry read on rd_entry_o: CTA.");
    let rd_buf = m.input("rd_buf_i", bb, "Entry read on rd_entry_o: buffer.");
    let ready = m.output(
        "ready_o",
        e,
        "Per entry (cta * buffers + buf): ready for ignition.",
    );
    let busy = m.output(
        "busy_o",
        e,
        "Per entry: fully configured and not complete (busy, or turning busy).",
    );
    let start = m.output(
        "start_o",
        SHARED_BITS * e,
        "Per entry: shared base (RAW guard start); undefined while its busy_o bit is 0.",
    );
    let end = m.output(
        "end_o",
        END_BITS * e,
        "Per entry: RAW guard end, min(shared base + span, 0x10000); undefined while its busy_o bit is 0.",
    );
    let rd_entry = m.output(
        "rd_entry_o",
        ENTRY_BITS,
        "The entry selected by rd_cta_i, rd_buf_i (zeros if not busy); undefined while rd_valid_o is 0.",
    );
    let rd_valid = m.output(
        "rd_valid_o",
        1,
        "rd_entry_o shows its entry: no command completes an entry this cycle (the span unit takes the read port).",
    );

    let at = |cta: &Signal, buf: &Signal, i: u32| {
        cta.expr()
            .eq(Expr::constant(u64::from(i / design.buffers), cb))
            .and(
                buf.expr()
                    .eq(Expr::constant(u64::from(i % design.buffers), bb)),
            )
    };
    let part_is = |p: u64| cfg_part.expr().eq(Expr::constant(p, 2));
    let part_ok = part_is(3).not();
    // The valid bits, reset; the table's fields and guard ends are declared per style below.
    // An entry whose three parts are written takes no command: it is busy, or its guard end
    // is in the span unit.
    let mut valid = Vec::new();
    for i in 0..e {
        let (mask_q, mask_d) = m.state(&format!("mask{i}"), 3, 0);
        let (busy_q, busy_d) = m.state(&format!("busy{i}"), 1, 0);
        let (started_q, started_d) = m.state(&format!("started{i}"), 1, 0);
        let holds = m.wire_of(&format!("holds{i}"), mask_q.expr().eq(Expr::constant(7, 3)));
        let wr = m.wire_of(
            &format!("wr{i}"),
            cfg_valid
                .expr()
                .and(at(&cfg_cta, &cfg_buf, i))
                .and(holds.expr().not())
                .and(part_ok.clone()),
        );
        valid.push((
            wr, holds, mask_q, mask_d, busy_q, busy_d, started_q, started_d,
        ));
    }
    let gb = design.global_bits;
    let mut store = TableStore::new(&mut m, design.storage, gb, &cfg_data);
    let mut entries = Vec::new();
    for (i, (wr, ..)) in valid.iter().enumerate() {
        let parts: Vec<Expr> = Part::ALL
            .iter()
            .rev()
            .enumerate()
            .map(|(k, &part)| {
                let code = (Part::ALL.len() - 1 - k) as u64;
                let enable = wr.expr().and(part_is(code));
                store.part(
                    &mut m,
                    &format!("entry{i}_{}", part_name(part)),
                    part,
                    enable,
                )
            })
            .collect();
        entries.push(m.wire_of(&format!("entry{i}"), Expr::concat(parts)));
    }
    let onehot = m.wire_of(
        "cfg_onehot",
        Expr::select(
            vec![
                (part_is(0), Expr::constant(1, 3)),
                (part_is(1), Expr::constant(2, 3)),
                (part_is(2), Expr::constant(4, 3)),
            ],
            Expr::constant(0, 3),
        ),
    );
    let new_masks: Vec<Signal> = valid
        .iter()
        .enumerate()
        .map(|(i, (_, _, mask_q, ..))| {
            m.wire_of(&format!("new_mask{i}"), mask_q.expr().or(onehot.expr()))
        })
        .collect();
    // The command that completes an entry (`fin<i>`): the span unit reads that entry.
    let fins: Vec<Signal> = valid
        .iter()
        .zip(&new_masks)
        .enumerate()
        .map(|(i, ((wr, ..), new_mask))| {
            m.wire_of(
                &format!("fin{i}"),
                wr.expr().and(new_mask.expr().eq(Expr::constant(7, 3))),
            )
        })
        .collect();
    let fin = m.wire_of(
        "cfg_fin",
        fins.iter()
            .map(Signal::expr)
            .reduce(|a, b| a.or(b))
            .unwrap_or_else(|| Expr::constant(0, 1)),
    );
    // The entries hold a coded run field's code in its low bits (`entry<i>`, raw): the read
    // port selects raw entries and decodes once, after the selection. One port serves the span
    // unit and the AGEN: in a cycle with a command that completes an entry it shows that entry
    // (the span unit reads the fields of its guard end, the command's part replaced),
    // otherwise the entry at `rd_cta_i`, `rd_buf_i` if busy (`rd_entry_o`, valid while
    // `rd_valid_o`). It is a one-hot select: its conditions decode distinct (CTA, buffer)
    // pairs, so at most one holds, and synthesis balances its OR into a tree.
    let port = m.wire_of(
        "rd_raw",
        Expr::one_hot_select(
            valid
                .iter()
                .enumerate()
                .map(|(i, (.., busy_q, _, _, _))| {
                    let i = i as u32;
                    let read = at(&rd_cta, &rd_buf, i)
                        .and(busy_q.expr())
                        .and(fin.expr().not());
                    let selected = fins[i as usize].expr().or(read);
                    (selected, entries[i as usize].expr())
                })
                .collect(),
            ENTRY_BITS,
        ),
    );
    let current = &port;
    let replaced = |m: &mut Module, part: Part| {
        let (lsb, width) = part.bits();
        let mut parts = Vec::new();
        if lsb + width < ENTRY_BITS {
            parts.push(current.slice(ENTRY_BITS - 1, lsb + width));
        }
        parts.push(stored_view(part, gb, |run| {
            raw_value(m, &format!("cfg_{}", part_name(part)), &cfg_data, run)
        }));
        if lsb > 0 {
            parts.push(current.slice(lsb - 1, 0));
        }
        Expr::concat(parts)
    };
    let [global, shape, halo] = Part::ALL.map(|part| replaced(&mut m, part));
    let written = m.wire_of(
        "cfg_written",
        Expr::select(vec![(part_is(0), global), (part_is(1), shape)], halo),
    );
    let span = SpanUnit::build(&mut m, &written, fin.expr(), &cfg_cta, &cfg_buf);
    // The fields no guard end depends on: the global base, the stride, the region and the
    // halo constant; and the halo rows' upper bits and the run code's unused ones, which the
    // table does not store.
    let [stride, region, halo_const, halo_rows, halo_cols] =
        ["stride", "region", "halo_const", "halo_rows", "halo_cols"].map(field);
    m.sink_unused(
        "cfg_written",
        Expr::concat(vec![
            written.slice(halo_const.lsb + halo_const.width - 1, region.lsb),
            written.slice(
                halo_cols.lsb + halo_cols.width - 1,
                halo_cols.lsb + RUN_CODE_BITS,
            ),
            written.slice(
                halo_rows.lsb + halo_rows.width - 1,
                halo_rows.lsb + TILE_DIM_BITS,
            ),
            written.slice(stride.lsb + stride.width - 1, stride.lsb),
            written.slice(CFG_DATA_BITS - 1, 0),
        ]),
    );
    store.set_end_data(&mut m, &span.end);

    for (i, (wr, holds, mask_q, mask_d, busy_q, busy_d, started_q, started_d)) in
        valid.into_iter().enumerate()
    {
        let i = i as u32;
        let arm = m.wire_of(
            &format!("arm{i}"),
            span.valid.expr().and(at(&span.cta, &span.buf, i)),
        );
        let end_q = store.end(&mut m, &format!("end{i}"), arm.expr());
        let dn = m.wire_of(
            &format!("dn{i}"),
            done_valid
                .expr()
                .and(at(&done_cta, &done_buf, i))
                .and(busy_q.expr()),
        );
        let ig = ign_valid
            .expr()
            .and(at(&ign_cta, &ign_buf, i))
            .and(busy_q.expr())
            .and(started_q.expr().not());
        let new_mask = &new_masks[i as usize];
        m.assign(
            &mask_d,
            Expr::select(
                vec![
                    (dn.expr(), mask_q.expr().and(Expr::constant(6, 3))),
                    (wr.expr(), new_mask.expr()),
                ],
                mask_q.expr(),
            ),
        );
        m.assign(
            &busy_d,
            Expr::select(
                vec![
                    (dn.expr(), Expr::constant(0, 1)),
                    (arm.expr(), Expr::constant(1, 1)),
                ],
                busy_q.expr(),
            ),
        );
        m.assign(
            &started_d,
            Expr::select(
                vec![
                    (dn.expr(), Expr::constant(0, 1)),
                    (ig, Expr::constant(1, 1)),
                ],
                started_q.expr(),
            ),
        );
        m.assign_bit(&ready, i, busy_q.expr().and(started_q.expr().not()));
        // The RAW guard: an entry whose parts are all written guards from its shared base; to
        // its end once busy, to the end of the shared space while the span unit computes the
        // end (a load right after the configuration waits). Other entries' guards are
        // don't-cares ([`DONT_CARES`]): the RAW check masks every guard with its busy bit.
        m.assign_bit(&busy, i, holds.expr());
        let f = field("shared");
        m.assign_range(
            &start,
            16 * i + 15,
            16 * i,
            entries[i as usize].slice(f.lsb + 15, f.lsb),
        );
        m.assign_range(
            &end,
            END_BITS * (i + 1) - 1,
            END_BITS * i,
            Expr::mux(
                busy_q.expr(),
                end_q.expr(),
                Expr::constant(SHARED_SPACE, END_BITS),
            ),
        );
    }
    let shown = decoded(&mut m, "rd_shown", &port, gb);
    m.assign(&rd_entry, shown.expr());
    m.assign(&rd_valid, fin.expr().not());
    m
}

/// The name of a configuration part in signal names.
fn part_name(part: Part) -> &'static str {
    match part {
        Part::Global => "global",
        Part::Shape => "shape",
        Part::Halo => "halo",
    }
}

/// log2 of the power of two held in `x`: bit `k` is the OR of `x`'s bits whose index has bit
/// `k` (for other values, the OR of the set bits' indices).
fn or_log2(x: &Signal) -> Expr {
    let bits = x.width();
    Expr::concat(
        (0..bits.next_power_of_two().trailing_zeros())
            .rev()
            .map(|k| {
                (0..bits)
                    .filter(|i| i >> k & 1 == 1)
                    .map(|i| x.bit(i))
                    .reduce(|a, b| a.or(b))
                    .unwrap_or_else(|| Expr::constant(0, 1))
            })
            .collect(),
    )
}

/// A run of a part's bits that the array stores: the part's bits `lsb..lsb + width` held in
/// `stored` cells, as they are or coded ([`Narrowing::Run`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    lsb: u32,
    width: u32,
    stored: u32,
    coded: bool,
}

/// The runs of `part`'s bits (counted from the part's first bit) that the array of a design
/// with `global_bits` global address bits stores, lowest first: whole fields, the low bits of
/// a [`Narrowing::Low`] field, a coded run field.
fn stored_runs(part: Part, global_bits: u32) -> Vec<Run> {
    let (first, width) = part.bits();
    let mut runs: Vec<Run> = Vec::new();
    for f in FIELDS
        .iter()
        .filter(|f| (first..first + width).contains(&f.lsb))
    {
        let lsb = f.lsb - first;
        let run = match narrowing(f.name, global_bits) {
            None => Run {
                lsb,
                width: f.width,
                stored: f.width,
                coded: false,
            },
            Some(Narrowing::Low(bits)) => Run {
                lsb,
                width: bits,
                stored: bits,
                coded: false,
            },
            Some(Narrowing::Run) => Run {
                lsb,
                width: f.width,
                stored: RUN_CODE_BITS,
                coded: true,
            },
        };
        match runs.last_mut() {
            Some(last) if !last.coded && !run.coded && last.lsb + last.width == lsb => {
                last.width += run.width;
                last.stored += run.stored;
            }
            _ => runs.push(run),
        }
    }
    runs
}

/// `part`'s bits as the array of a design with `global_bits` global address bits stores them:
/// each run's value from `value` (its `width` bits), zeros in the [`Narrowing::Low`] fields'
/// upper bits.
fn stored_view(part: Part, global_bits: u32, mut value: impl FnMut(&Run) -> Expr) -> Expr {
    let (_, width) = part.bits();
    let mut pieces = Vec::new();
    let mut next = 0;
    for run in stored_runs(part, global_bits) {
        if run.lsb > next {
            pieces.push(Expr::zeros(run.lsb - next));
        }
        pieces.push(value(&run));
        next = run.lsb + run.width;
    }
    if width > next {
        pieces.push(Expr::zeros(width - next));
    }
    pieces.reverse();
    Expr::concat(pieces)
}

/// The code of the halo column count or bank run in `x` (16 bits): below 256 the value with a
/// clear flag, else the flag set and the value's log2 ([`or_log2`]).
fn encode_run(m: &mut Module, name: &str, x: &Signal) -> Expr {
    let t = TILE_DIM_BITS;
    let high = m.wire_of(
        &format!("{name}_run_high"),
        x.slice(x.width() - 1, t).reduce_or(),
    );
    Expr::concat(vec![
        high.expr(),
        Expr::mux(high.expr(), or_log2(x).zext(t), x.slice(t - 1, 0)),
    ])
}

/// The value of the run `run` of `part` held in `data` (the part's bits, least significant
/// first) as the table holds it (raw): the bits, or a coded run's code in its low bits.
fn raw_value(m: &mut Module, name: &str, data: &Signal, run: &Run) -> Expr {
    let bits = data.slice(run.lsb + run.width - 1, run.lsb);
    if !run.coded {
        return bits;
    }
    let value = m.wire_of(&format!("{name}_run"), bits);
    encode_run(m, name, &value).zext(run.width)
}

/// The entry held raw in `raw` (a coded run field's code in its low bits) as the array shows
/// it: each coded field decoded, `1 << log2` when the code's flag is set, else its low byte.
fn decoded(m: &mut Module, name: &str, raw: &Signal, global_bits: u32) -> Signal {
    let mut pieces = Vec::new();
    for f in FIELDS.iter() {
        let bits = raw.slice(f.lsb + f.width - 1, f.lsb);
        pieces.push(match narrowing(f.name, global_bits) {
            Some(Narrowing::Run) => {
                let code = m.wire_of(&format!("{name}_{}_code", f.name), bits);
                m.sink_unused(
                    &format!("{name}_{}_code", f.name),
                    code.slice(f.width - 1, RUN_CODE_BITS),
                );
                decode_run(&code, f.width)
            }
            _ => bits,
        });
    }
    pieces.reverse();
    m.wire_of(name, Expr::concat(pieces))
}

/// The `width`-bit value of the run code in the low bits of `code` ([`encode_run`]): bit `k`
/// is the flag and a log2 of `k`, or the low byte's bit `k` (a decoder per bit, not a shifter:
/// two gates deep).
fn decode_run(code: &Signal, width: u32) -> Expr {
    let t = TILE_DIM_BITS;
    let lg = code.slice(3, 0);
    let bits: Vec<Expr> = (0..width)
        .rev()
        .map(|k| {
            let low = if k < t {
                code.bit(k)
            } else {
                Expr::constant(0, 1)
            };
            Expr::mux(code.bit(t), lg.clone().eq(Expr::constant(k.into(), 4)), low)
        })
        .collect();
    Expr::concat(bits)
}

/// The table's storage in one of the [`Storage`] styles: each entry's configuration parts
/// and its guard end, none of them reset.
struct TableStore {
    storage: Storage,
    /// Bits of the global base the table stores.
    global_bits: u32,
    /// The command's data as the parts' cells take it: `cfg_data_i` itself, or (latches) its
    /// copy in the shared write-data flip-flops, stable while a gated clock is high.
    data: Signal,
    /// `cfg_data_i`, before any write-data flip-flop.
    command: Signal,
    /// The guard end as the cells take it (set by [`TableStore::set_end_data`]).
    end_data: Option<Signal>,
    /// The codes of the coded runs in the command's data, by the run's first bit.
    codes: BTreeMap<u32, Signal>,
}

impl TableStore {
    /// The storage of a design with `global_bits` global address bits, its cells written from
    /// `cfg_data`. The command's data bits above every stored run (a global base narrower than
    /// the halo part's 56 bits leaves its upper bits unread) are sunk, and no write-data
    /// flip-flop holds them.
    fn new(m: &mut Module, storage: Storage, global_bits: u32, cfg_data: &Signal) -> Self {
        let read = Part::ALL
            .iter()
            .filter_map(|&part| {
                stored_runs(part, global_bits)
                    .last()
                    .map(|r| r.lsb + r.width)
            })
            .max()
            .unwrap_or(CFG_DATA_BITS);
        let used = if read < cfg_data.width() {
            m.sink_unused("cfg_data_high", cfg_data.slice(cfg_data.width() - 1, read));
            cfg_data.slice(read - 1, 0)
        } else {
            cfg_data.expr()
        };
        let data = match storage {
            Storage::FlipFlop | Storage::ClockGated => cfg_data.clone(),
            Storage::Latch => m.register_unreset("wdata_q", used, None, None),
        };
        Self {
            storage,
            global_bits,
            data,
            command: cfg_data.clone(),
            end_data: None,
            codes: BTreeMap::new(),
        }
    }

    /// The cells of one entry's `part` (its stored runs, packed; a coded run's code), written
    /// from the command's data under `enable`; the part's bits as [`stored_view`] shows them,
    /// raw (a coded run's code in its low bits).
    fn part(&mut self, m: &mut Module, name: &str, part: Part, enable: Expr) -> Expr {
        let runs = stored_runs(part, self.global_bits);
        let data = if runs.len() == 1 && runs[0].stored == self.data.width() {
            self.data.clone()
        } else {
            let packed = runs
                .iter()
                .rev()
                .map(|run| {
                    let bits = self.data.slice(run.lsb + run.width - 1, run.lsb);
                    if run.coded {
                        self.code(m, part, run)
                    } else {
                        bits
                    }
                })
                .collect();
            m.wire_of(&format!("{name}_data"), Expr::concat(packed))
        };
        let q = self.storage.cell(m, name, &data, enable);
        let mut packed = 0;
        stored_view(part, self.global_bits, |run| {
            packed += run.stored;
            q.slice(packed - 1, packed - run.stored).zext(run.width)
        })
    }

    /// The code of the coded run `run` of `part` in the command's data, computed once for all
    /// entries. Latches take it from a write-data flip-flop of its own, coded from
    /// `cfg_data_i` before the edge: they are written in the half cycle after the edge (their
    /// gated clock is high), which leaves no time for the coding between a flip-flop and
    /// them (OpenSTA: 917 ps into a 454 ps window at 1 GHz, docs/QOR.md).
    fn code(&mut self, m: &mut Module, part: Part, run: &Run) -> Expr {
        let name = format!("wdata_{}", part_name(part));
        let bits = |from: &Signal| from.slice(run.lsb + run.width - 1, run.lsb);
        self.codes
            .entry(run.lsb)
            .or_insert_with(|| match self.storage {
                Storage::Latch => {
                    let next = format!("{name}_next");
                    let value = m.wire_of(&format!("{next}_run"), bits(&self.command));
                    let code = encode_run(m, &next, &value);
                    m.register_unreset(&format!("{name}_run_code_q"), code, None, None)
                }
                Storage::FlipFlop | Storage::ClockGated => {
                    let value = m.wire_of(&format!("{name}_run"), bits(&self.data));
                    let code = encode_run(m, &name, &value);
                    m.wire_of(&format!("{name}_run_code"), code)
                }
            })
            .expr()
    }

    /// Sets the guard end the entries' end cells take: `cfg_end` (computed from the command
    /// and the table), through a write-data flip-flop stage (`wend_q`) for latches and
    /// clock-gated flip-flops, so that the span unit's last step loads one flip-flop per bit
    /// instead of every entry's gated cells.
    fn set_end_data(&mut self, m: &mut Module, cfg_end: &Signal) {
        self.end_data = Some(match self.storage {
            Storage::FlipFlop => cfg_end.clone(),
            Storage::ClockGated | Storage::Latch => {
                m.register_unreset("wend_q", cfg_end.expr(), None, None)
            }
        });
    }

    /// An entry's guard end as the array shows it, written under `enable` at the edge that
    /// makes the entry busy. Latches take `wend_q` while their gated clock is high, after that
    /// edge; clock-gated flip-flops take it at the next edge (`<name>_fresh`, reset), and the
    /// entry shows `wend_q` itself in the cycle between, so every style shows the end in the
    /// same cycle.
    fn end(&self, m: &mut Module, name: &str, enable: Expr) -> Signal {
        let data = self
            .end_data
            .clone()
            .unwrap_or_else(|| unreachable!("set_end_data before end"));
        match self.storage {
            Storage::FlipFlop | Storage::Latch => self.storage.cell(m, name, &data, enable),
            Storage::ClockGated => {
                let fresh = m.register(&format!("{name}_fresh_q"), enable, 0);
                let q = self.storage.cell(m, name, &data, fresh.expr());
                m.wire_of(
                    &format!("{name}_shown"),
                    Expr::mux(fresh.expr(), data.expr(), q.expr()),
                )
            }
        }
    }
}
