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

use super::fields::{entry_field, mode_is, tile_extent, MODE_BANK, MODE_HALO, WALK_BITS};
use super::raw_check::END_BITS;
use super::{D2maDesign, Storage, CFG_DATA_BITS, PART_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::entry::{field, Part, ENTRY_BITS, SHARED_SPACE};
use std::ops::{Add, Mul, Not, Shl, Shr, Sub};

/// Bits of a walk's element count: rows times columns, each [`WALK_BITS`] wide.
const ELEMENT_BITS: u32 = 2 * WALK_BITS + 1;

/// An element count at or above `2^SATURATED_BITS` gives a guard end at the end of the shared
/// space whatever the bank pads, the element size and the shared base: the span unit's last
/// steps saturate it there and work on 17 bits.
const SATURATED_BITS: u32 = SHARED_BITS;

/// Bits of the span in slots (elements and bank pads) after saturation.
const SLOT_BITS: u32 = SATURATED_BITS + 2;

/// Bits of the guard's unclamped end: the shared base plus the slots shifted by up to 3 for
/// the element size.
const END_FULL_BITS: u32 = SLOT_BITS + 4;

/// Cycles from a command that completes an entry to the entry turning busy: the span unit's
/// register stages after the command's cycle (see [`SpanUnit`]).
pub const SPAN_LATENCY: u32 = 4;

/// The span unit: the guard end `min(shared + span, 0x10000)` of an entry just completed (see
/// `models::d2ma::raw::Guard` and `cycle::hw_guard_end`), in five steps with a register stage
/// after each of the first four, so that no step holds more than one wide operation (the
/// multiplier alone is about one 1 GHz cycle at NanGate45):
/// 1. the command's cycle: the entry's span fields (the addressed entry with the command's
///    part replaced), into `span1_*`;
/// 2. the walked rows and columns (halo included) and the bank run's log2, into `span2_*`;
/// 3. the element count `rows x cols`, into `span3_*`;
/// 4. the count plus the bank pads `(n - 1) >> log2(run)` (a count at or above `2^16`
///    saturated at `2^16`: the end is then the end of the shared space), into `span4_*`;
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
    values.map(|(name, v)| m.register_unreset(&format!("span{k}_{name}"), v, None, None))
}

impl SpanUnit {
    /// Builds the unit inside `m`, fed by the entry `written` (the addressed entry with the
    /// command's part replaced), the completing command `fin` and its (CTA, buffer).
    fn build(m: &mut Module, written: &Signal, fin: Expr, cta: &Signal, buf: &Signal) -> Self {
        // Step 1: the span fields.
        let f = |name: &str| entry_field(written, name);
        let valid1 = m.register("span1_valid", fin, 0);
        let [cta1, buf1, count, two_d, mode, hr, hc, size1, shared1] = span_stage(
            m,
            1,
            [
                ("cta", cta.expr()),
                ("buf", buf.expr()),
                ("count", f("count")),
                ("two_d", f("two_d")),
                ("mode", f("mode")),
                ("halo_rows", f("halo_rows")),
                ("halo_cols", f("halo_cols")),
                ("size", f("size")),
                ("shared", f("shared")),
            ],
        );
        // Step 2: the walked extent and the bank run's log2.
        let halo = mode_is(&mode, MODE_HALO);
        let (rows, cols) = tile_extent(two_d.expr(), &count);
        let one = Expr::constant(1, 1);
        let twice = |x: &Signal| {
            Expr::mux(
                halo.clone(),
                x.expr().zext(WALK_BITS).shl(one.clone()),
                Expr::constant(0, WALK_BITS),
            )
        };
        // log2 of the (power-of-two) bank run: bit k is the OR of the run's bits whose index
        // has k.
        let run_bits = hc.width();
        let lg_bits: Vec<Expr> = (0..run_bits.trailing_zeros())
            .rev()
            .map(|k| {
                (0..run_bits)
                    .filter(|i| i >> k & 1 == 1)
                    .map(|i| hc.bit(i))
                    .reduce(|a, b| a.or(b))
                    .unwrap_or_else(|| Expr::constant(0, 1))
            })
            .collect();
        let valid2 = m.register("span2_valid", valid1.expr(), 0);
        let [cta2, buf2, rows2, cols2, lg2, bank2, size2, shared2] = span_stage(
            m,
            2,
            [
                ("cta", cta1.expr()),
                ("buf", buf1.expr()),
                ("rows", rows.add(twice(&hr))),
                ("cols", cols.add(twice(&hc))),
                ("lg", Expr::concat(lg_bits)),
                ("bank", mode_is(&mode, MODE_BANK)),
                ("size", size1.expr()),
                ("shared", shared1.expr()),
            ],
        );
        // Step 3: the element count.
        let valid3 = m.register("span3_valid", valid2.expr(), 0);
        let elements = rows2
            .expr()
            .zext(ELEMENT_BITS)
            .mul(cols2.expr().zext(ELEMENT_BITS));
        let [cta3, buf3, n, lg3, bank3, size3, shared3] = span_stage(
            m,
            3,
            [
                ("cta", cta2.expr()),
                ("buf", buf2.expr()),
                ("elements", elements),
                ("lg", lg2.expr()),
                ("bank", bank2.expr()),
                ("size", size2.expr()),
                ("shared", shared2.expr()),
            ],
        );
        // Step 4: the count plus the bank pads, on the count's low 16 bits; a count at or
        // above 2^16 is replaced by 2^16 at the end, beside the arithmetic rather than before.
        let sat = Expr::constant(1 << SATURATED_BITS, SLOT_BITS);
        let big = n.slice(ELEMENT_BITS - 1, SATURATED_BITS).reduce_or();
        let low = m.wire_of(
            "span_elements_low",
            n.slice(SATURATED_BITS - 1, 0).zext(SLOT_BITS),
        );
        let pads = Expr::mux(
            bank3.expr(),
            low.expr().sub(Expr::constant(1, SLOT_BITS)).shr(lg3.expr()),
            Expr::zeros(SLOT_BITS),
        );
        let valid4 = m.register("span4_valid", valid3.expr(), 0);
        let [cta4, buf4, slots, size4, shared4] = span_stage(
            m,
            4,
            [
                ("cta", cta3.expr()),
                ("buf", buf3.expr()),
                ("slots", Expr::mux(big, sat, low.expr().add(pads))),
                ("size", size3.expr()),
                ("shared", shared3.expr()),
            ],
        );
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
        "Per entry: shared base (RAW guard start).",
    );
    let end = m.output(
        "end_o",
        END_BITS * e,
        "Per entry: RAW guard end, min(shared base + span, 0x10000).",
    );
    let rd_entry = m.output(
        "rd_entry_o",
        ENTRY_BITS,
        "The entry selected by rd_cta_i, rd_buf_i.",
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
    let mut store = TableStore::new(&mut m, design.storage, &cfg_data);
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
    // The addressed entry with the command's part replaced: only the span unit reads it (the
    // fields of the guard end), so synthesis keeps only those columns of this read port.
    let current = m.wire_of(
        "cfg_current",
        Expr::select(
            (0..e)
                .map(|i| (at(&cfg_cta, &cfg_buf, i), entries[i as usize].expr()))
                .collect(),
            Expr::zeros(ENTRY_BITS),
        ),
    );
    let replaced = |part: Part| {
        let (lsb, width) = part.bits();
        let mut parts = Vec::new();
        if lsb + width < ENTRY_BITS {
            parts.push(current.slice(ENTRY_BITS - 1, lsb + width));
        }
        parts.push(cfg_data.slice(width - 1, 0));
        if lsb > 0 {
            parts.push(current.slice(lsb - 1, 0));
        }
        Expr::concat(parts)
    };
    let written = m.wire_of(
        "cfg_written",
        Expr::select(
            vec![
                (part_is(0), replaced(Part::Global)),
                (part_is(1), replaced(Part::Shape)),
            ],
            replaced(Part::Halo),
        ),
    );
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
    let fin = m.wire_of(
        "cfg_fin",
        valid
            .iter()
            .zip(&new_masks)
            .map(|((wr, ..), new_mask)| wr.expr().and(new_mask.expr().eq(Expr::constant(7, 3))))
            .reduce(|a, b| a.or(b))
            .unwrap_or_else(|| Expr::constant(0, 1)),
    );
    let span = SpanUnit::build(&mut m, &written, fin.expr(), &cfg_cta, &cfg_buf);
    // The fields no guard end depends on: the global base, the stride, the region and the
    // halo constant.
    let [stride, region, halo_const] = ["stride", "region", "halo_const"].map(field);
    m.sink_unused(
        "cfg_written",
        Expr::concat(vec![
            written.slice(halo_const.lsb + halo_const.width - 1, region.lsb),
            written.slice(stride.lsb + stride.width - 1, stride.lsb),
            written.slice(CFG_DATA_BITS - 1, 0),
        ]),
    );
    store.set_end_data(&mut m, &span.end);
    let mut busy_bits = Vec::new();

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
        // end (a load right after the configuration waits). Other entries show zeros.
        m.assign_bit(&busy, i, holds.expr());
        let f = field("shared");
        m.assign_range(
            &start,
            16 * i + 15,
            16 * i,
            Expr::mux(
                holds.expr(),
                entries[i as usize].slice(f.lsb + 15, f.lsb),
                Expr::zeros(SHARED_BITS),
            ),
        );
        m.assign_range(
            &end,
            END_BITS * (i + 1) - 1,
            END_BITS * i,
            Expr::select(
                vec![
                    (busy_q.expr(), end_q.expr()),
                    (holds.expr(), Expr::constant(SHARED_SPACE, END_BITS)),
                ],
                Expr::zeros(END_BITS),
            ),
        );
        busy_bits.push(busy_q);
    }
    m.assign(
        &rd_entry,
        Expr::select(
            (0..e)
                .map(|i| {
                    let shown = at(&rd_cta, &rd_buf, i).and(busy_bits[i as usize].expr());
                    (shown, entries[i as usize].expr())
                })
                .collect(),
            Expr::zeros(ENTRY_BITS),
        ),
    );
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

/// The table's storage in one of the [`Storage`] styles: each entry's configuration parts
/// and its guard end, none of them reset.
struct TableStore {
    storage: Storage,
    /// The command's data as the parts' cells take it: `cfg_data_i` itself, or (latches) its
    /// copy in the shared write-data flip-flops, stable while a gated clock is high.
    data: Signal,
    /// The guard end as the cells take it (set by [`TableStore::set_end_data`]).
    end_data: Option<Signal>,
}

impl TableStore {
    fn new(m: &mut Module, storage: Storage, cfg_data: &Signal) -> Self {
        let data = match storage {
            Storage::FlipFlop | Storage::ClockGated => cfg_data.clone(),
            Storage::Latch => m.register_unreset("wdata_q", cfg_data.expr(), None, None),
        };
        Self {
            storage,
            data,
            end_data: None,
        }
    }

    /// One cell of `width` bits named `name`, taking `data` on the edges where `enable` is 1.
    fn cell(&self, m: &mut Module, name: &str, data: &Signal, enable: Expr) -> Signal {
        match self.storage {
            Storage::FlipFlop => {
                m.register_unreset(&format!("{name}_q"), data.expr(), Some(enable), None)
            }
            Storage::ClockGated => {
                let clock = m.clock_gate(&format!("{name}_gclk"), enable);
                m.register_unreset(&format!("{name}_q"), data.expr(), None, Some(&clock))
            }
            Storage::Latch => {
                let clock = m.clock_gate(&format!("{name}_gclk"), enable);
                m.latch(&format!("{name}_l"), data, &clock, false)
            }
        }
    }

    /// The cells of one entry's `part`, written from the command's data under `enable`.
    fn part(&mut self, m: &mut Module, name: &str, part: Part, enable: Expr) -> Expr {
        let (_, width) = part.bits();
        let data = if width == self.data.width() {
            self.data.clone()
        } else {
            let slice = self.data.slice(width - 1, 0);
            m.wire_of(&format!("{name}_data"), slice)
        };
        self.cell(m, name, &data, enable).expr()
    }

    /// Sets the guard end the entries' end cells take: `cfg_end` (computed from the command
    /// and the table), through a write-data flip-flop stage for latches.
    fn set_end_data(&mut self, m: &mut Module, cfg_end: &Signal) {
        self.end_data = Some(match self.storage {
            Storage::FlipFlop | Storage::ClockGated => cfg_end.clone(),
            Storage::Latch => m.register_unreset("wend_q", cfg_end.expr(), None, None),
        });
    }

    /// An entry's guard-end cells, written under `enable`.
    fn end(&self, m: &mut Module, name: &str, enable: Expr) -> Signal {
        let data = self
            .end_data
            .clone()
            .unwrap_or_else(|| unreachable!("set_end_data before end"));
        self.cell(m, name, &data, enable)
    }
}
