//! The address generation unit of the paper's section 4.2 (Fig. 5): it starts walking the
//! table entry on `entry_i` on `start_i` and then produces one chunk a cycle, exactly the walk
//! of `models::d2ma::transfer` (read that module for what a chunk is).
//!
//! The AGEN holds no copy of the entry: at `start_i` it loads the walk's origin from
//! `entry_i` and, in a decode stage of registers on one gated clock, the walk's bounds and
//! steps (halo rows and columns, the tile's columns, where its rows end, the walk's rows, the
//! leading dimension and the strided step in bytes, the element size, the modes, the bank
//! run and the halo constant). It reads `entry_i` in the `start_i` cycle only, so the
//! controller array's read port is free for the span unit during the walk. The walk
//! itself is the position (the row counter; the row's section, left
//! halo, tile or right halo, and the elements left in it, counted down), the current and
//! row-start global addresses, the shared address beside them (Fig. 5d), the last requested
//! segment for the mask-and-compare (Fig. 5c) and the elements left in the bank run. Counting
//! down to the section's end makes a chunk's length the minimum of three values compared side
//! by side (section, segment, bank run), and the row's end the section's count being the
//! smallest. For 1 GHz at NanGate45 no adder waits for that outcome: every next value (the
//! address at the segment's end, the section's end, the run's end or a strided step on; the
//! counts left; the shared address) is computed for each candidate from registers in
//! parallel and the comparisons choose one. The global addresses are held split at bit 20
//! ([`LOW_BITS`]): a step adds into the low part, and its carry (or the rewind's borrow) into
//! the high part is applied in the next cycle, from registers; the outputs show the exact
//! address. The mask-and-compare reads the low part only (consecutive requests are less than
//! 1 MB apart).
//!
//! A halo tile's walk starts `halo_rows` rows above and `halo_cols` columns left of the tile's
//! base. The AGEN has no multiplier for that origin: it steps the row-start address back one
//! leading dimension a cycle, `halo_rows` cycles between `start_i` and the first chunk.
//!
//! Every chunk waits while `mem_ready_i` is low (the shader's memory unit has priority on the
//! shared port, which constant stores use too; the engine's data path holds it low while its
//! chunk queue or MSHRs are full). Outputs are combinational from the state and `mem_ready_i`,
//! and zero when not valid. A transfer takes one cycle to start (plus
//! the halo rows): the first chunk appears the cycle after `start_i`.

use super::fields::{entry_field, mode_is, tile_extent, MODE_BANK, MODE_HALO, TILE_DIM_BITS};
use super::{D2maDesign, CHUNK_BYTES_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use models::d2ma::entry::{field, ENTRY_BITS};
use std::ops::{Add, Not, Shl, Shr, Sub};

/// Bits of the leading dimension (and of a strided step) in bytes: 16-bit elements shifted by
/// up to 3.
const LD_BYTES_BITS: u32 = 19;

/// Bits of the bytes left in the current segment (at most 128).
const SEGMENT_LEFT_BITS: u32 = 8;

/// Bits of the row counter and the row bounds: a valid entry's walk has at most
/// 255 + 2 x 255 = 765 rows (a 2-D tile has at most 255 rows, a halo at most the tile's; a
/// 1-D walk is one row).
const ROW_BITS: u32 = 10;

/// Bits of the column counts: a 1-D row has at most 65 535 elements (the 16-bit count), a
/// 2-D walked row at most 765.
const COL_BITS: u32 = 16;

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
    let busy = State::declare(&mut m, "busy", 1);
    let load = m.wire_of("load", ports.start.expr().and(busy.q.expr().not()));
    let entry = Decoded::of(&mut m, &ports.entry, gb, &load);
    let walk = Walk::declare(&mut m, design, busy, load, &entry);
    let chunk = Chunk::of(&mut m, design, &entry, &walk, &ports.mem_ready);
    let req = next_state(&mut m, &entry, &walk, &chunk);
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
            "The buffer-management-table entry to walk, read in the start_i cycle only.",
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

/// The entry on `entry_i`, decoded: what a start loads (the walk's origin) straight from the
/// port, and the walk's bounds and steps held from the start in registers without reset (the
/// decode stage), so that no walk path goes through the read port and the decoding adders.
struct Decoded {
    /// Log2 of the element's bytes.
    size: Signal,
    /// The stride field times the element size, in bytes: a 2-D walk's step from one row to
    /// the next (the leading dimension) and a strided 1-D walk's step from one element to the
    /// next. A 1-D walk is one row, so its row step is taken only with its last chunk, after
    /// which nothing reads the addresses: one register serves both.
    step: Signal,
    /// Bank-conflict resolution, and its run length in elements.
    bank: Signal,
    run_n: Signal,
    halo_const: Signal,
    /// Halo rows above and columns left of the tile (zero without a halo).
    hr: Signal,
    hc: Signal,
    /// The entry has halo rows (for the start: read from the port).
    has_halo_rows: Signal,
    /// The halo columns in bytes: the step left from the base to the walk's first column.
    left: Signal,
    /// Where the tile's rows end in the walk, and where the walk's end.
    row_end: Signal,
    walk_rows: Signal,
    /// The tile's columns, and whether there are halo columns.
    cols: Signal,
    has_hc: Signal,
    /// For the start, from the port: whether there are halo columns, the length of a row's
    /// first section and the bank run.
    has_hc_now: Signal,
    first_len_now: Expr,
    run_n_now: Signal,
    /// Elements are contiguous: a chunk may cover several.
    unit: Signal,
    /// The global base, where the start puts the row-start address (the halo columns and rows
    /// are stepped back from it), and the shared base (for the start: read from the port).
    first_row: Signal,
    shared: Expr,
    /// `{top, right, bottom, left}`: the sides of the tile that are the grid's border.
    borders: Signal,
}

impl Decoded {
    /// Decodes `entry` for global addresses of `gb` bits, the walk's bounds loaded on `load`.
    fn of(m: &mut Module, entry: &Signal, gb: u32, load: &Signal) -> Self {
        let t = TILE_DIM_BITS;
        let z = |w| Expr::zeros(w);
        // One clock gate for the whole decode stage: its registers need no enable multiplexer.
        let gclk = m.clock_gate("decode_gclk", load.expr());
        let hold = |m: &mut Module, name: &str, v: Expr| {
            m.register_unreset(&format!("{name}_q"), v, None, Some(&gclk))
        };
        let size = m.wire_of("size", entry_field(entry, "size"));
        let two_d = m.wire_of("two_d", entry_field(entry, "two_d"));
        let mode = m.wire_of("mode", entry_field(entry, "mode"));
        let count = m.wire_of("count", entry_field(entry, "count"));
        let estride = m.wire_of("estride", entry_field(entry, "stride"));
        let region = m.wire_of("region", entry_field(entry, "region"));
        let halo = m.wire_of("halo", mode_is(&mode, MODE_HALO));
        let run_n = m.wire_of("run_n", entry_field(entry, "halo_cols"));
        let halo_const = m.wire_of("halo_const", entry_field(entry, "halo_const"));
        let (rows, cols) = tile_extent(two_d.expr(), &count, ROW_BITS, COL_BITS);
        // A valid halo is at most the tile: its rows and columns are in the fields' low byte
        // (the halo columns' other bits are the bank run's).
        let halo_dim = |name: &str| {
            let f = field(name);
            Expr::mux(halo.expr(), entry.slice(f.lsb + t - 1, f.lsb), z(t))
        };
        let hr = m.wire_of("hr", halo_dim("halo_rows"));
        let hc = m.wire_of("hc", halo_dim("halo_cols"));
        let hr_field = field("halo_rows");
        m.sink_unused(
            "halo_rows_high",
            entry.slice(hr_field.lsb + hr_field.width - 1, hr_field.lsb + t),
        );
        let hr_rows = hr.expr().zext(ROW_BITS);
        let row_end = m.wire_of("tile_row_end", hr_rows.clone().add(rows.clone()));
        // rows + 2 hr: one adder, not two after each other.
        let walk_rows = rows.add(hr_rows.shl(Expr::constant(1, 1)));
        let cols = m.wire_of("cols", cols);
        let stride_bits = estride.width();
        let step = estride.expr().zext(LD_BYTES_BITS).shl(size.expr());
        let unit = two_d
            .expr()
            .or(estride.expr().eq(Expr::constant(1, stride_bits)));
        let left = hc.expr().zext(LD_BYTES_BITS).shl(size.expr());
        // The walk's first row starts halo_cols elements left of the base and halo_rows rows
        // above it: the start loads the base, and the AGEN steps left once (when there are
        // halo columns), then back one leading dimension a cycle, before the first chunk.
        let base = global_base(m, entry, gb);
        let first_row = m.wire_of("first_row", base);
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
        let has_halo_rows = m.wire_of("has_halo_rows", hr.expr().ne(z(t)));
        let has_hc_now = m.wire_of("has_hc", hc.expr().ne(z(t)));
        let first_len_now = Expr::mux(has_hc_now.expr(), hc.expr().zext(COL_BITS), cols.expr());
        Self {
            size: hold(m, "size", size.expr()),
            step: hold(m, "step", step),
            bank: hold(m, "bank", mode_is(&mode, MODE_BANK)),
            run_n: hold(m, "run_n", run_n.expr()),
            halo_const: hold(m, "halo_const", halo_const.expr()),
            hr: hold(m, "hr", hr.expr()),
            hc: hold(m, "hc", hc.expr()),
            has_halo_rows,
            left: hold(m, "left_bytes", left),
            row_end: hold(m, "row_end", row_end.expr()),
            walk_rows: hold(m, "walk_rows", walk_rows),
            cols: hold(m, "cols", cols.expr()),
            has_hc: hold(m, "has_hc", has_hc_now.expr()),
            has_hc_now,
            first_len_now,
            run_n_now: run_n.clone(),
            unit: hold(m, "unit", unit),
            first_row,
            shared: entry_field(entry, "shared"),
            borders: hold(m, "borders", borders),
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

    /// Declares the register `base`, `width` bits, without reset: walk state that a start
    /// loads before `busy` (reset) lets anything read it.
    fn unreset(m: &mut Module, base: &str, width: u32) -> Self {
        let d = m.wire(&format!("{base}_d"), width);
        let q = m.register_unreset(&format!("{base}_q"), d.expr(), None, None);
        Self { q, d }
    }
}

/// A row's sections, in walk order: the left halo columns, the tile's columns, the right halo
/// columns (the halos only in halo mode, and only when it has halo columns).
const SEC_LEFT: u64 = 0;
const SEC_TILE: u64 = 1;
const SEC_RIGHT: u64 = 2;
/// Bits of a section number.
const SEC_BITS: u32 = 2;

/// Bits of a global address's low part. Every step the walk takes at once (a leading
/// dimension, a strided step, the halo columns, a chunk) is below `2^LD_BYTES_BITS` bytes, so
/// a step carries (or borrows) at most one into the high part.
const LOW_BITS: u32 = LD_BYTES_BITS + 1;

/// A global address held in two parts so that no walk path holds a carry chain over the whole
/// address: the low [`LOW_BITS`] bits, the high part, and a pending carry (or borrow) from the
/// low part's last step, added to the high part in the next cycle (from registers, in parallel
/// with the low part's arithmetic). The address is `(hi + carry - borrow) << LOW_BITS | lo`;
/// every edge resolves the pending carry into the high part.
struct SplitAddr {
    hi: State,
    lo: State,
    carry: State,
    borrow: State,
}

impl SplitAddr {
    /// Declares the registers `{base}_hi`, `{base}_lo`, `{base}_carry` and `{base}_borrow` of a
    /// `gb`-bit address.
    fn declare(m: &mut Module, base: &str, gb: u32) -> Self {
        Self {
            hi: State::unreset(m, &format!("{base}_hi"), gb - LOW_BITS),
            lo: State::unreset(m, &format!("{base}_lo"), LOW_BITS),
            carry: State::unreset(m, &format!("{base}_carry"), 1),
            borrow: State::unreset(m, &format!("{base}_borrow"), 1),
        }
    }

    /// The exact high part (the pending carry or borrow applied), as the wire `name`.
    fn exact_hi(&self, m: &mut Module, name: &str) -> Signal {
        let hi = self.hi.q.expr();
        let one = Expr::constant(1, hi.width());
        m.wire_of(
            name,
            Expr::select(
                vec![
                    (self.carry.q.expr(), hi.clone().add(one.clone())),
                    (self.borrow.q.expr(), hi.clone().sub(one)),
                ],
                hi,
            ),
        )
    }

    /// Assigns the next value: the high part `hi` (an exact one), and the low part with its
    /// pending carry `on_load`, `on_rewind`, `on_fire`, or the low part held and nothing
    /// pending (see [`Advance`]).
    fn advance(&self, m: &mut Module, adv: &Advance, hi: Expr, arms: [Low; 3]) {
        m.assign(&self.hi.d, hi);
        let [load, rewind, fire] = arms;
        m.assign(
            &self.lo.d,
            adv.next(load.lo, rewind.lo, fire.lo, &self.lo.q),
        );
        let pending = |on_load: Expr, on_rewind: Expr, on_fire: Expr| {
            adv.or_else(on_load, on_rewind, on_fire, Expr::constant(0, 1))
        };
        m.assign(&self.carry.d, pending(load.carry, rewind.carry, fire.carry));
        m.assign(
            &self.borrow.d,
            pending(load.borrow, rewind.borrow, fire.borrow),
        );
    }
}

/// The next low part of a [`SplitAddr`] and its pending carry or borrow.
#[derive(Clone)]
struct Low {
    lo: Expr,
    carry: Expr,
    borrow: Expr,
}

impl Low {
    /// `lo`, nothing pending.
    fn exact(lo: Expr) -> Self {
        Self {
            lo,
            carry: Expr::constant(0, 1),
            borrow: Expr::constant(0, 1),
        }
    }

    /// `lo + step`: the sum (the wire `name`), its carry pending (`step` below
    /// `2^LOW_BITS`).
    fn plus(m: &mut Module, name: &str, lo: Expr, step: Expr) -> Self {
        let sum = m.wire_of(name, lo.zext(LOW_BITS + 1).add(step.zext(LOW_BITS + 1)));
        Self {
            lo: sum.slice(LOW_BITS - 1, 0),
            carry: sum.slice(LOW_BITS, LOW_BITS),
            borrow: Expr::constant(0, 1),
        }
    }

    /// `lo - step`: the difference (the wire `name`), its borrow pending.
    fn minus(m: &mut Module, name: &str, lo: Expr, step: Expr) -> Self {
        let diff = m.wire_of(name, lo.zext(LOW_BITS + 1).sub(step.zext(LOW_BITS + 1)));
        Self {
            lo: diff.slice(LOW_BITS - 1, 0),
            carry: Expr::constant(0, 1),
            borrow: diff.slice(LOW_BITS, LOW_BITS),
        }
    }

    /// `cond ? self : other`, part by part.
    fn or_else(self, cond: Expr, other: Low) -> Low {
        Low {
            lo: Expr::mux(cond.clone(), self.lo, other.lo),
            carry: Expr::mux(cond.clone(), self.carry, other.carry),
            borrow: Expr::mux(cond, self.borrow, other.borrow),
        }
    }
}

/// The walk's state, and nothing of the entry.
struct Walk {
    busy: State,
    /// Stepping the row-start address back over the halo columns and rows, before the first
    /// chunk; `left`: the step over the halo columns is next (the first).
    rewind: State,
    left: State,
    /// A transfer starts this cycle: `start_i` while idle.
    load: Signal,
    /// Row of the walk (during the rewind: halo rows stepped back).
    i: State,
    /// The row is a halo row above the tile, or below it (kept beside the row counter so
    /// that whether a chunk is a constant store needs no comparison of rows).
    top: State,
    bottom: State,
    /// The row's section ([`SEC_LEFT`], [`SEC_TILE`], [`SEC_RIGHT`]) and the elements left in
    /// it: the column counted down to the section's end, so a chunk's length needs no
    /// subtraction and the row's end no comparison of column numbers.
    sec: State,
    col_left: State,
    /// The current and the row-start global addresses, split.
    g: SplitAddr,
    row: SplitAddr,
    /// The shared address.
    s: State,
    /// Elements left in the current bank run.
    run_left: State,
    /// The low part of the last segment requested (see [`Chunk::of`]'s `need_req`), and
    /// whether there is one.
    last: State,
    last_valid: State,
}

impl Walk {
    /// Declares the state of `design`'s walk besides `busy`, loading on `load`.
    fn declare(
        m: &mut Module,
        design: &D2maDesign,
        busy: State,
        load: Signal,
        entry: &Decoded,
    ) -> Self {
        let gb = design.global_bits;
        let seg_lg = design.segment_bytes.trailing_zeros();
        let rewind = State::unreset(m, "rewind", 1);
        let left = State::unreset(m, "left", 1);
        Self {
            left,
            i: State::unreset(m, "row", ROW_BITS),
            top: State::unreset(m, "in_top_halo", 1),
            bottom: State::unreset(m, "in_bottom_halo", 1),
            sec: State::unreset(m, "sec", SEC_BITS),
            col_left: State::unreset(m, "col_left", COL_BITS),
            g: SplitAddr::declare(m, "gaddr", gb),
            row: SplitAddr::declare(m, "row_base", gb),
            s: State::unreset(m, "saddr", SHARED_BITS),
            run_left: State::unreset(m, "run_left", entry.run_n.width()),
            last: State::unreset(m, "last_seg", LOW_BITS - seg_lg),
            // Reset, though a start clears it: the one walk bit whose reset costs nothing
            // measurable, kept so that a start that failed to clear it (the mutant of
            // `reset_mutants.rs`) shows only where the testbench aims at it.
            last_valid: State::declare(m, "last_valid", 1),
            busy,
            rewind,
            load,
        }
    }
}

/// This cycle's chunk: its length, bytes and kind, whether it needs a segment request and
/// goes (`fire`), and where the walk goes after it (or after a rewind step).
///
/// A chunk's length is the smallest of three candidates (the elements left in the section,
/// in the segment, in the bank run), and every next value is computed for each candidate
/// from registers in parallel and chosen by the outcome of their comparisons, so that no
/// adder waits for the length.
struct Chunk {
    bytes: Signal,
    constant: Signal,
    /// The exact high parts of the current and the row-start addresses.
    g_hi: Signal,
    row_hi: Signal,
    /// The current address, exact, and its segment.
    global: Signal,
    segment: Signal,
    need_req: Signal,
    fire: Signal,
    /// The chunk ends its section (the section's elements are the smallest candidate), and
    /// its row.
    sec_end: Signal,
    at_row_end: Signal,
    i_next: Signal,
    done: Signal,
    /// The row-start address one leading dimension on, and one step back (the rewind's).
    next_row: Low,
    prev_row: Low,
    /// The current address after the chunk, within the row.
    g_next: Low,
    /// The last rewind step: the row counter has counted the halo rows stepped back.
    rewound: Signal,
    /// The section after this one in the row, and its length.
    sec_next: Expr,
    sec_next_len: Expr,
    /// A row's first section and its length.
    row_sec: Expr,
    row_len: Expr,
    col_rest: Expr,
    pad: Signal,
    s_next: Expr,
    run_rest: Expr,
}

impl Chunk {
    fn of(m: &mut Module, design: &D2maDesign, e: &Decoded, w: &Walk, mem_ready: &Signal) -> Self {
        let seg = u64::from(design.segment_bytes);
        let seg_lg = design.segment_bytes.trailing_zeros();
        let i = &w.i.q;
        let g_lo = &w.g.lo.q;
        let g_hi = w.g.exact_hi(m, "gaddr_hi_exact");
        let row_hi = w.row.exact_hi(m, "row_base_hi_exact");
        let global = m.wire_of("gaddr", Expr::concat(vec![g_hi.expr(), g_lo.expr()]));
        let sec_is = |k: u64| w.sec.q.expr().eq(Expr::constant(k, SEC_BITS));
        let seg_rem = Expr::constant(seg, SEGMENT_LEFT_BITS)
            .sub(g_lo.slice(seg_lg - 1, 0).zext(SEGMENT_LEFT_BITS))
            .shr(e.size.expr());
        // A strided walk moves one element a cycle; a unit one to the nearest of the
        // section's end, the segment's end and (bank mode) the run's end.
        let by_col = w.col_left.q.expr();
        let by_seg8 = m.wire_of(
            "by_seg",
            Expr::mux(e.unit.expr(), seg_rem, Expr::constant(1, SEGMENT_LEFT_BITS)),
        );
        let cw = COL_BITS;
        let by_seg = by_seg8.expr().zext(cw);
        let by_run = Expr::mux(e.bank.expr(), w.run_left.q.expr().zext(cw), Expr::ones(cw));
        let lt = |m: &mut Module, name: &str, a: &Expr, b: &Expr| {
            m.wire_of(name, a.clone().lt(b.clone()))
        };
        let seg_lt_col = lt(m, "seg_lt_col", &by_seg, &by_col);
        let run_lt_col = lt(m, "run_lt_col", &by_run, &by_col);
        let col_lt_seg = lt(m, "col_lt_seg", &by_col, &by_seg);
        let run_lt_seg = lt(m, "run_lt_seg", &by_run, &by_seg);
        let seg_lt_run = lt(m, "seg_lt_run", &by_seg, &by_run);
        let col_lt_run = lt(m, "col_lt_run", &by_col, &by_run);
        let sec_end = m.wire_of(
            "sec_end",
            seg_lt_col.expr().not().and(run_lt_col.expr().not()),
        );
        let seg_end = m.wire_of(
            "seg_end",
            col_lt_seg.expr().not().and(run_lt_seg.expr().not()),
        );
        // The chunk's length (its low bits: a chunk covers at most one segment).
        let cb = CHUNK_BYTES_BITS;
        let len = Expr::select(
            vec![
                (sec_end.expr(), w.col_left.q.slice(cb - 1, 0)),
                (seg_lt_run.expr(), by_seg8.expr()),
            ],
            w.run_left.q.slice(cb - 1, 0),
        );
        let bytes = m.wire_of("bytes", len.shl(e.size.expr()));
        let constant = m.wire_of(
            "constant",
            // borders_q: {top, right, bottom, left}.
            (e.borders.bit(3).and(w.top.q.expr()))
                .or(e.borders.bit(1).and(w.bottom.q.expr()))
                .or(e.borders.bit(0).and(sec_is(SEC_LEFT)))
                .or(e.borders.bit(2).and(sec_is(SEC_RIGHT))),
        );
        let gb = design.global_bits;
        let segment = m.wire_of("segment", global.slice(gb - 1, seg_lg));
        // The low parts suffice: consecutive requested segments are less than 2^LOW_BITS
        // bytes apart (a leading dimension or a strided step is below 2^LD_BYTES_BITS bytes, a
        // walked row at most 765 elements of 8 bytes, and between two requests the walk only
        // moves within a segment, over constant halo chunks or to the next row), so two of
        // them with the same low part are the same segment.
        let same = g_lo.slice(LOW_BITS - 1, seg_lg).eq(w.last.q.expr());
        let need_req = m.wire_of(
            "need_req",
            constant
                .expr()
                .not()
                .and(w.last_valid.q.expr().not().or(same.not())),
        );
        let walking = m.wire_of("walking", w.busy.q.expr().and(w.rewind.q.expr().not()));
        let fire = m.wire_of("fire", walking.expr().and(mem_ready.expr()));
        let last_sec = sec_is(SEC_RIGHT).or(sec_is(SEC_TILE).and(e.has_hc.expr().not()));
        let at_row_end = m.wire_of("at_row_end", sec_end.expr().and(last_sec));
        let i_next = m.wire_of("row_next", i.expr().add(Expr::constant(1, ROW_BITS)));
        let done = m.wire_of(
            "done",
            fire.expr()
                .and(at_row_end.expr())
                .and(i_next.expr().eq(e.walk_rows.expr())),
        );
        let row_lo = w.row.lo.q.expr();
        let next_row = Low::plus(m, "next_row_lo", row_lo.clone(), e.step.expr());
        let back = Expr::mux(w.left.q.expr(), e.left.expr(), e.step.expr());
        let prev_row = Low::minus(m, "prev_row_lo", row_lo, back);
        let rewound = m.wire_of(
            "rewound",
            w.rewind.q.expr().and(Expr::mux(
                w.left.q.expr(),
                e.hr.expr().eq(Expr::zeros(TILE_DIM_BITS)),
                i_next.expr().eq(e.hr.expr().zext(ROW_BITS)),
            )),
        );
        // Within the row, a unit walk's next address is the segment's end (the segment's
        // elements are the fewest), or within the segment by the section's or the bank run's
        // elements; a strided walk's is one strided step on.
        let up = g_lo.slice(LOW_BITS - 1, seg_lg);
        let up_bits = LOW_BITS - seg_lg;
        let up_next = m.wire_of(
            "next_segment",
            up.clone()
                .zext(up_bits + 1)
                .add(Expr::constant(1, up_bits + 1)),
        );
        let in_seg = |count: &Signal| {
            g_lo.slice(seg_lg - 1, 0)
                .add(count.slice(seg_lg - 1, 0).shl(e.size.expr()))
        };
        let within = Expr::mux(sec_end.expr(), in_seg(&w.col_left.q), in_seg(&w.run_left.q));
        let unit_next = Low {
            lo: Expr::mux(
                seg_end.expr(),
                Expr::concat(vec![up_next.slice(up_bits - 1, 0), Expr::zeros(seg_lg)]),
                Expr::concat(vec![up, within]),
            ),
            carry: seg_end.expr().and(up_next.slice(up_bits, up_bits)),
            borrow: Expr::constant(0, 1),
        };
        let strided_next = Low::plus(m, "strided_lo", g_lo.expr(), e.step.expr());
        let g_next = unit_next.or_else(e.unit.expr(), strided_next);
        let run_bits = w.run_left.q.width();
        let run = w.run_left.q.expr();
        // In bank mode the run's elements are at least the length: the chunk ends the run
        // when they are the fewest.
        let pad = m.wire_of(
            "pad",
            e.bank
                .expr()
                .and(col_lt_run.expr().not())
                .and(seg_lt_run.expr().not()),
        );
        let run_rest = Expr::mux(
            sec_end.expr(),
            run.clone().sub(w.col_left.q.slice(run_bits - 1, 0)),
            run.clone().sub(by_seg8.expr().zext(run_bits)),
        );
        // The shared address moves by the chunk's bytes, plus one element after a bank run.
        let s = w.s.q.expr();
        let s_plus = |count: Expr| {
            s.clone().add(
                count
                    .zext(CHUNK_BYTES_BITS + 1)
                    .shl(e.size.expr())
                    .zext(SHARED_BITS),
            )
        };
        let run_and_pad = w
            .run_left
            .q
            .slice(CHUNK_BYTES_BITS - 1, 0)
            .zext(CHUNK_BYTES_BITS + 1)
            .add(Expr::constant(1, CHUNK_BYTES_BITS + 1));
        let s_next = Expr::select(
            vec![
                (
                    pad.expr(),
                    s.clone()
                        .add(run_and_pad.shl(e.size.expr()).zext(SHARED_BITS)),
                ),
                (
                    sec_end.expr(),
                    s_plus(w.col_left.q.slice(CHUNK_BYTES_BITS - 1, 0)),
                ),
            ],
            s_plus(by_seg8.expr()),
        );
        let col_rest = Expr::mux(
            seg_lt_run.expr(),
            by_col.clone().sub(by_seg),
            by_col.sub(by_run),
        );
        Self {
            bytes,
            constant,
            g_hi,
            row_hi,
            global,
            segment,
            need_req,
            fire,
            sec_end,
            at_row_end,
            i_next,
            done,
            next_row,
            prev_row,
            g_next,
            rewound,
            sec_next: Expr::mux(
                sec_is(SEC_LEFT),
                Expr::constant(SEC_TILE, SEC_BITS),
                Expr::constant(SEC_RIGHT, SEC_BITS),
            ),
            sec_next_len: Expr::mux(sec_is(SEC_LEFT), e.cols.expr(), e.hc.expr().zext(cw)),
            row_sec: first_section(e.has_hc.expr()),
            row_len: Expr::mux(e.has_hc.expr(), e.hc.expr().zext(cw), e.cols.expr()),
            col_rest,
            pad,
            s_next,
            run_rest,
        }
    }
}

/// A row's first section: the left halo if there are halo columns, else the tile.
fn first_section(has_hc: Expr) -> Expr {
    Expr::mux(
        has_hc,
        Expr::constant(SEC_LEFT, SEC_BITS),
        Expr::constant(SEC_TILE, SEC_BITS),
    )
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
        self.or_else(on_load, on_rewind, on_fire, q.expr())
    }

    /// `on_load`, `on_rewind`, `on_fire`, or `otherwise` when nothing moves.
    fn or_else(&self, on_load: Expr, on_rewind: Expr, on_fire: Expr, otherwise: Expr) -> Expr {
        Expr::select(
            vec![
                (self.load.expr(), on_load),
                (self.rewinding.expr(), on_rewind),
                (self.fire.expr(), on_fire),
            ],
            otherwise,
        )
    }
}

/// Assigns every register's next value. Returns the wire that says a segment request goes out
/// this cycle.
fn next_state(m: &mut Module, e: &Decoded, w: &Walk, c: &Chunk) -> Signal {
    let one = Expr::constant(1, 1);
    let rewinding = m.wire_of("rewinding", w.busy.q.expr().and(w.rewind.q.expr()));
    let adv = Advance {
        load: w.load.clone(),
        rewinding,
        fire: c.fire.clone(),
    };
    m.assign(
        &w.busy.d,
        adv.next(one.clone(), one.clone(), c.done.expr().not(), &w.busy.q),
    );
    m.assign(
        &w.rewind.d,
        adv.next(
            e.has_halo_rows.expr().or(e.has_hc_now.expr()),
            c.rewound.expr().not(),
            Expr::constant(0, 1),
            &w.rewind.q,
        ),
    );
    let zero = Expr::constant(0, 1);
    m.assign(
        &w.left.d,
        adv.next(e.has_hc_now.expr(), zero.clone(), zero, &w.left.q),
    );
    let zero_wb = Expr::zeros(ROW_BITS);
    // The step left does not count as a halo row.
    let stepped = Expr::mux(
        c.rewound.expr().or(w.left.q.expr()),
        zero_wb.clone(),
        c.i_next.expr(),
    );
    // The walk starts in row 0 (after the rewind, if any): a top halo row if there are halo
    // rows; a row's end moves to the next.
    let at_next_row = |flag: Expr, q: &Signal| Expr::mux(c.at_row_end.expr(), flag, q.expr());
    m.assign(
        &w.top.d,
        adv.next(
            e.has_halo_rows.expr(),
            e.hr.expr().ne(Expr::zeros(TILE_DIM_BITS)),
            at_next_row(c.i_next.expr().lt(e.hr.expr().zext(ROW_BITS)), &w.top.q),
            &w.top.q,
        ),
    );
    m.assign(
        &w.bottom.d,
        adv.next(
            Expr::constant(0, 1),
            Expr::constant(0, 1),
            at_next_row(c.i_next.expr().ge(e.row_end.expr()), &w.bottom.q),
            &w.bottom.q,
        ),
    );
    m.assign(
        &w.i.d,
        adv.next(
            zero_wb,
            stepped,
            Expr::mux(c.at_row_end.expr(), c.i_next.expr(), w.i.q.expr()),
            &w.i.q,
        ),
    );
    // After a chunk: the same section with fewer elements, the row's next section, or the
    // next row's first.
    let after = |row_start: Expr, next: Expr, rest: Expr| {
        Expr::select(
            vec![(c.at_row_end.expr(), row_start), (c.sec_end.expr(), next)],
            rest,
        )
    };
    m.assign(
        &w.sec.d,
        adv.next(
            first_section(e.has_hc_now.expr()),
            w.sec.q.expr(),
            after(c.row_sec.clone(), c.sec_next.clone(), w.sec.q.expr()),
            &w.sec.q,
        ),
    );
    m.assign(
        &w.col_left.d,
        adv.next(
            e.first_len_now.clone(),
            w.col_left.q.expr(),
            after(
                c.row_len.clone(),
                c.sec_next_len.clone(),
                c.col_rest.clone(),
            ),
            &w.col_left.q,
        ),
    );
    let gb = e.first_row.width();
    let start = Low::exact(e.first_row.slice(LOW_BITS - 1, 0));
    let base_hi = e.first_row.slice(gb - 1, LOW_BITS);
    // The row-start address moves on a rewind step and at a row's end; the current address
    // then takes its new value, else moves within the row.
    let new_row = m.wire_of(
        "new_row",
        adv.rewinding
            .expr()
            .or(adv.fire.expr().and(c.at_row_end.expr())),
    );
    let row_hi = c.row_hi.expr();
    w.row.advance(
        m,
        &adv,
        Expr::mux(w.load.expr(), base_hi.clone(), row_hi.clone()),
        [
            start.clone(),
            c.prev_row.clone(),
            c.next_row
                .clone()
                .or_else(c.at_row_end.expr(), Low::exact(w.row.lo.q.expr())),
        ],
    );
    w.g.advance(
        m,
        &adv,
        Expr::select(
            vec![(w.load.expr(), base_hi), (new_row.expr(), row_hi)],
            c.g_hi.expr(),
        ),
        [
            start,
            c.prev_row.clone(),
            c.next_row
                .clone()
                .or_else(c.at_row_end.expr(), c.g_next.clone()),
        ],
    );
    m.assign(
        &w.s.d,
        adv.next(e.shared.clone(), w.s.q.expr(), c.s_next.clone(), &w.s.q),
    );
    m.assign(
        &w.run_left.d,
        adv.next(
            e.run_n_now.expr(),
            w.run_left.q.expr(),
            Expr::mux(
                c.pad.expr().or(e.bank.expr().not()),
                e.run_n.expr(),
                c.run_rest.clone(),
            ),
            &w.run_left.q,
        ),
    );
    let req = m.wire_of("req", c.fire.expr().and(c.need_req.expr()));
    // Every chunk that reads global memory records its segment: the requested one, or the
    // last one again (so that the comparison is not in front of the register's select).
    let reads = m.wire_of("reads", c.fire.expr().and(c.constant.expr().not()));
    let seg_lg = LOW_BITS - w.last.q.width();
    m.assign(
        &w.last.d,
        Expr::mux(
            reads.expr(),
            w.g.lo.q.slice(LOW_BITS - 1, seg_lg),
            w.last.q.expr(),
        ),
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
    m.assign(&p.chunk_global_o, gate(fire, c.global.expr()));
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
