//! The controller array of the paper's section 4.1: `ctas x buffers` buffer-management-table
//! entries (173 bits each, layout in `models::d2ma::entry`), written by configuration commands,
//! ignited by the engine and released on completion.
//!
//! Per entry the array keeps the 173 bits, which of the three parts have been written, `busy`
//! (fully configured, not complete), `started` (taken by the AGEN) and the guard's end for the
//! RAW check, computed once on the configuration path by a single span unit shared by all
//! entries. Rules, each applied at the rising edge from the state before it:
//! - a command writes its part of entry (`cfg_cta_i`, `cfg_buf_i`) unless the entry is busy
//!   (the paper's later configuration of a busy entry is ignored) or the part code is 3;
//!   the entry becomes busy when all three parts have been written;
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

/// Bits of the guard's unclamped end: the shared base plus the elements and their bank pads,
/// shifted by up to 3 for the element size.
const END_FULL_BITS: u32 = ELEMENT_BITS + 4;

/// Builds, inside `m`, the span unit: the guard end `min(shared + span, 0x10000)` of the entry
/// held in `entry` (see `models::d2ma::raw::Guard`), as a 17-bit wire named `<prefix>_end`.
pub fn span_end(m: &mut Module, prefix: &str, entry: &Signal) -> Signal {
    let count = entry_field(entry, "count");
    let count_w = m.wire_of(&format!("{prefix}_count"), count);
    let two_d = entry_field(entry, "two_d");
    let mode = m.wire_of(&format!("{prefix}_mode"), entry_field(entry, "mode"));
    let halo = mode_is(&mode, MODE_HALO);
    let bank = mode_is(&mode, MODE_BANK);
    let (rows, cols) = tile_extent(two_d, &count_w);
    let hr = entry_field(entry, "halo_rows").zext(WALK_BITS);
    let hc_sig = m.wire_of(&format!("{prefix}_hc"), entry_field(entry, "halo_cols"));
    let one = Expr::constant(1, 1);
    let twice = |x: Expr| {
        Expr::mux(
            halo.clone(),
            x.shl(one.clone()),
            Expr::constant(0, WALK_BITS),
        )
    };
    let walk_rows = m.wire_of(&format!("{prefix}_walk_rows"), rows.add(twice(hr)));
    let walk_cols = m.wire_of(
        &format!("{prefix}_walk_cols"),
        cols.add(twice(hc_sig.expr().zext(WALK_BITS))),
    );
    let n = m.wire_of(
        &format!("{prefix}_elements"),
        walk_rows
            .expr()
            .zext(ELEMENT_BITS)
            .mul(walk_cols.expr().zext(ELEMENT_BITS)),
    );
    // log2 of the (power-of-two) bank run: bit k is the OR of the run's bits whose index has k.
    let run_bits = hc_sig.width();
    let lg_bits: Vec<Expr> = (0..run_bits.trailing_zeros())
        .rev()
        .map(|k| {
            (0..run_bits)
                .filter(|i| i >> k & 1 == 1)
                .map(|i| hc_sig.bit(i))
                .reduce(|a, b| a.or(b))
                .unwrap_or_else(|| Expr::constant(0, 1))
        })
        .collect();
    let lg = Expr::concat(lg_bits);
    let pads = Expr::mux(
        bank,
        n.expr().sub(Expr::constant(1, ELEMENT_BITS)).shr(lg),
        Expr::constant(0, ELEMENT_BITS),
    );
    let slots = n.expr().add(pads).zext(END_FULL_BITS);
    let bytes = slots.shl(entry_field(entry, "size"));
    let end = m.wire_of(
        &format!("{prefix}_end_full"),
        entry_field(entry, "shared").zext(END_FULL_BITS).add(bytes),
    );
    let limit = Expr::constant(SHARED_SPACE, END_FULL_BITS);
    m.wire_of(
        &format!("{prefix}_end"),
        Expr::mux(
            limit.lt(end.expr()),
            Expr::constant(SHARED_SPACE, END_BITS),
            end.slice(END_BITS - 1, 0),
        ),
    )
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
    let busy = m.output("busy_o", e, "Per entry: fully configured and not complete.");
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
    let mut valid = Vec::new();
    for i in 0..e {
        let (mask_q, mask_d) = m.state(&format!("mask{i}"), 3, 0);
        let (busy_q, busy_d) = m.state(&format!("busy{i}"), 1, 0);
        let (started_q, started_d) = m.state(&format!("started{i}"), 1, 0);
        let wr = m.wire_of(
            &format!("wr{i}"),
            cfg_valid
                .expr()
                .and(at(&cfg_cta, &cfg_buf, i))
                .and(busy_q.expr().not())
                .and(part_ok.clone()),
        );
        valid.push((wr, mask_q, mask_d, busy_q, busy_d, started_q, started_d));
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
    let cfg_end = span_end(&mut m, "cfg", &written);
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
    store.set_end_data(&mut m, &cfg_end);
    let mut busy_bits = Vec::new();

    for (i, (wr, mask_q, mask_d, busy_q, busy_d, started_q, started_d)) in
        valid.into_iter().enumerate()
    {
        let i = i as u32;
        let end_q = store.end(&mut m, &format!("end{i}"), wr.expr());
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
        let new_mask = m.wire_of(&format!("new_mask{i}"), mask_q.expr().or(onehot.expr()));
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
        let full = new_mask.expr().eq(Expr::constant(7, 3));
        m.assign(
            &busy_d,
            Expr::select(
                vec![
                    (dn.expr(), Expr::constant(0, 1)),
                    (wr.expr().and(full), Expr::constant(1, 1)),
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
        m.assign_bit(&busy, i, busy_q.expr());
        // A busy entry's fields have all been written; an idle one shows zeros.
        let f = field("shared");
        let shown = |v: Expr| {
            let w = v.width();
            Expr::mux(busy_q.expr(), v, Expr::zeros(w))
        };
        m.assign_range(
            &start,
            16 * i + 15,
            16 * i,
            shown(entries[i as usize].slice(f.lsb + 15, f.lsb)),
        );
        m.assign_range(
            &end,
            END_BITS * (i + 1) - 1,
            END_BITS * i,
            shown(end_q.expr()),
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
