//! Reading a buffer-management-table entry held in a signal (layout in
//! `models::d2ma::entry`): its fields, its addressing mode and its tile's extent, shared by the
//! AGEN and the controller array's span unit, and which fields the array stores narrower.

use crate::rtl::{Expr, Signal};
use models::d2ma::entry::field;

/// Bits of the walk's row and column counters (a walked row or column is at most
/// 255 + 2 x 65535 elements).
pub const WALK_BITS: u32 = 18;

/// Bits of each dimension of a 2-D count: rows in the high byte, columns in the low one.
pub const TILE_DIM_BITS: u32 = 8;

/// The `mode` field's code for a tile with a halo.
pub const MODE_HALO: u64 = 1;

/// The `mode` field's code for bank-conflict resolution.
pub const MODE_BANK: u64 = 2;

/// The entry field `name` of the entry held in `entry`.
pub fn entry_field(entry: &Signal, name: &str) -> Expr {
    let f = field(name);
    entry.slice(f.lsb + f.width - 1, f.lsb)
}

/// Whether the `mode` field held in `mode` is `code` ([`MODE_HALO`], [`MODE_BANK`]).
pub fn mode_is(mode: &Signal, code: u64) -> Expr {
    mode.expr().eq(Expr::constant(code, mode.width()))
}

/// The tile's rows and columns, `row_bits` and `col_bits` wide (at least 8 and the count's
/// width), of the `count` field held in `count`: a 2-D count has its rows in the high byte and
/// its columns in the low one, a 1-D count is one row of `count` columns.
pub fn tile_extent(two_d: Expr, count: &Signal, row_bits: u32, col_bits: u32) -> (Expr, Expr) {
    let t = TILE_DIM_BITS;
    let rows = Expr::mux(
        two_d.clone(),
        count.slice(2 * t - 1, t).zext(row_bits),
        Expr::constant(1, row_bits),
    );
    let cols = Expr::mux(
        two_d,
        count.slice(t - 1, 0).zext(col_bits),
        count.expr().zext(col_bits),
    );
    (rows, cols)
}

/// How the controller array stores an entry field narrower than the entry's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Narrowing {
    /// Only the field's low bits; the others read as zeros.
    Low(u32),
    /// A halo column count (at most 255) or a power-of-two bank run (up to 2^15) in
    /// [`RUN_CODE_BITS`] bits: below 256 the value itself, else a flag and the value's log2.
    Run,
}

/// Bits of a [`Narrowing::Run`] field as stored: a flag and 8 bits.
pub const RUN_CODE_BITS: u32 = TILE_DIM_BITS + 1;

/// The entry fields the controller array stores narrower than the entry's format: a valid halo
/// is at most the tile (255 rows and columns), a valid bank run a power of two, a valid
/// region 1..9. Only a halo-mode walk reads the halo rows, columns and region, only a
/// bank-mode one the bank run; the read port shows the fields as stored.
pub const NARROWED: [(&str, Narrowing); 3] = [
    ("halo_rows", Narrowing::Low(TILE_DIM_BITS)),
    ("halo_cols", Narrowing::Run),
    ("region", Narrowing::Low(4)),
];

/// How the array of a design with `global_bits` global address bits stores the field `name`,
/// if narrower than the entry's format: the fields of [`NARROWED`], and the global base's low
/// `global_bits` bits when they are fewer than the field's 64 (the AGEN and the engine wrap
/// global addresses modulo `2^global_bits`, so the bits above are never read).
pub fn narrowing(name: &str, global_bits: u32) -> Option<Narrowing> {
    if name == "global" && global_bits < field(name).width {
        return Some(Narrowing::Low(global_bits));
    }
    NARROWED.iter().find(|&&(n, _)| n == name).map(|&(_, k)| k)
}
