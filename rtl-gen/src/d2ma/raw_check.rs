//! The read-after-write check of the paper's Fig. 7: the load's CTA selects its buffers'
//! guards, two comparators per buffer against `[start, end)` of an in-flight one, the wait
//! signal back to the issue stage, and the release of a CTA's waiting warps when one of its
//! buffers completes. Combinational.
//!
//! Ports (entry `e = cta * buffers + buf`, entry `e`'s field at bits `e*w +: w`):
//! - `load_valid_i`, `load_cta_i`, `load_addr_i[15:0]`: a shared load at the issue stage;
//! - `busy_i[E-1:0]`, `start_i[16E-1:0]`, `end_i[17E-1:0]`: each entry's guard (in flight,
//!   first byte, one past the last byte saturated at 0x10000), as the controller array gives it;
//! - `done_valid_i`, `done_cta_i`: a buffer of that CTA completed this cycle;
//! - `wait_o`: the load hits an in-flight buffer of its own CTA and must wait;
//! - `release_o[CTAS-1:0]`: one-hot, the CTA whose waiting warps are released.

use super::{D2maDesign, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use std::ops::Not;

/// Width of a guard's end: one past a shared address.
pub const END_BITS: u32 = SHARED_BITS + 1;

/// Builds the RAW check of `design`.
pub fn build(design: &D2maDesign, header: Vec<String>) -> Module {
    let mut m = Module::new(design.name()).with_header(header);
    let e = design.entries();
    let cb = design.cta_bits();
    let load_valid = m.input("load_valid_i", 1, "A shared load is at the issue stage.");
    let load_cta = m.input("load_cta_i", cb, "The load's CTA.");
    let load_addr = m.input(
        "load_addr_i",
        SHARED_BITS,
        "The load's shared byte address.",
    );
    let busy = m.input(
        "busy_i",
        e,
        "Per entry (cta * buffers + buf): fully configured and not complete.",
    );
    let start = m.input(
        "start_i",
        SHARED_BITS * e,
        "Per entry: first shared byte of the buffer.",
    );
    let end = m.input(
        "end_i",
        END_BITS * e,
        "Per entry: one past the buffer's last shared byte, at most 0x10000.",
    );
    let done_valid = m.input("done_valid_i", 1, "A buffer completed this cycle.");
    let done_cta = m.input("done_cta_i", cb, "The CTA of the completed buffer.");
    let wait = m.output(
        "wait_o",
        1,
        "The load aliases an in-flight buffer of its CTA: squash it and make its warp wait.",
    );
    let release = m.output(
        "release_o",
        design.ctas,
        "One-hot: release the waiting warps of this CTA.",
    );

    // The load's CTA selects its buffers' guards (busy bit, start, end), and only those are
    // compared: `buffers` comparator pairs instead of one per entry. The selection is an
    // AND-OR over the CTA decoded one-hot; a CTA number at or above `ctas` selects nothing.
    let addr = load_addr.expr().zext(END_BITS);
    let cta_is: Vec<Signal> = (0..design.ctas)
        .map(|c| {
            m.wire_of(
                &format!("cta_is{c}"),
                load_cta.expr().eq(Expr::constant(u64::from(c), cb)),
            )
        })
        .collect();
    let mut hits = Vec::new();
    for b in 0..design.buffers {
        let of_cta = |field: &dyn Fn(u32) -> Expr, width: u32| {
            Expr::one_hot_select(
                cta_is
                    .iter()
                    .enumerate()
                    .map(|(c, is)| (is.expr(), field(c as u32 * design.buffers + b)))
                    .collect(),
                width,
            )
        };
        let sel_busy = m.wire_of(&format!("sel_busy{b}"), of_cta(&|i| busy.bit(i), 1));
        let sel_start = m.wire_of(
            &format!("sel_start{b}"),
            of_cta(&|i| start.slice(16 * i + 15, 16 * i), 16),
        );
        let sel_end = m.wire_of(
            &format!("sel_end{b}"),
            of_cta(
                &|i| end.slice(END_BITS * i + END_BITS - 1, END_BITS * i),
                END_BITS,
            ),
        );
        let inside = addr
            .clone()
            .lt(sel_start.expr().zext(END_BITS))
            .not()
            .and(addr.clone().lt(sel_end.expr()));
        hits.push(m.wire_of(&format!("hit{b}"), sel_busy.expr().and(inside)));
    }
    let any = hits
        .iter()
        .map(|h| h.expr())
        .reduce(|a, b| a.or(b))
        .unwrap_or_else(|| Expr::constant(0, 1));
    m.assign(&wait, load_valid.expr().and(any));
    for c in 0..design.ctas {
        m.assign_bit(
            &release,
            c,
            done_valid
                .expr()
                .and(done_cta.expr().eq(Expr::constant(u64::from(c), cb))),
        );
    }
    m
}
