//! Reading a buffer-management-table entry held in a signal (layout in
//! `models::d2ma::entry`): its fields, its addressing mode and its tile's extent, shared by the
//! AGEN and the controller array's span unit.

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

/// The tile's rows and columns, [`WALK_BITS`] wide, of the `count` field held in `count`: a
/// 2-D count has its rows in the high byte and its columns in the low one, a 1-D count is one
/// row of `count` columns.
pub fn tile_extent(two_d: Expr, count: &Signal) -> (Expr, Expr) {
    let (t, wb) = (TILE_DIM_BITS, WALK_BITS);
    let rows = Expr::mux(
        two_d.clone(),
        count.slice(2 * t - 1, t).zext(wb),
        Expr::constant(1, wb),
    );
    let cols = Expr::mux(two_d, count.slice(t - 1, 0).zext(wb), count.expr().zext(wb));
    (rows, cols)
}
