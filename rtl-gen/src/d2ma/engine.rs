//! The D²MA engine of the paper's Fig. 4: the controller array, the AGEN and the RAW check as
//! instances, and around them the arbitration among ready buffers, the request and chunk ports
//! towards the memory system, the response port, per-buffer completion, and the release of a
//! CTA's waiting warps.
//!
//! - Arbitration: when the AGEN is idle, the ready entry with the lowest index
//!   (`cta * buffers + buf`) is ignited and started in the AGEN, which then reads it in place
//!   through the controller array's read port until its walk ends; its first chunk appears the
//!   next cycle (after the halo rows' rewind steps for a halo tile).
//! - `mem_req_*`: one segment request a cycle at most, tagged with its CTA and buffer;
//!   `mem_req_ready_i` low (the memory unit has the port) holds it. `chunk_*`: the AGEN's chunk
//!   (shared address, offset in the segment, bytes, halo constant) with the same tag, for the
//!   MSHR's shared-address field and the halo constant stores.
//! - `mem_resp_*`: a response for a tagged request, in any order. Each entry counts its
//!   requests in flight (20 bits); it completes when its walk has ended and the count is zero.
//!   One completion a cycle (lowest index first) frees the entry and releases the CTA.

use super::{agen, controller, raw_check, D2maDesign, Unit};
use super::{CFG_DATA_BITS, CHUNK_BYTES_BITS, PART_BITS, SHARED_BITS};
use crate::rtl::{Expr, Module, Signal};
use std::ops::{Add, Not, Sub};

/// Bits of an entry's count of requests in flight.
pub const INFLIGHT_BITS: u32 = 20;

/// The sub-designs the engine instantiates: AGEN, controller array, RAW check.
pub fn parts(design: &D2maDesign) -> [D2maDesign; 3] {
    [Unit::Agen, Unit::Controller, Unit::RawCheck].map(|block| D2maDesign { block, ..*design })
}

/// Builds the engine of `design`; `sub_header` gives the leading comment lines of each
/// sub-module, which are built here too and returned after the engine.
pub fn build(
    design: &D2maDesign,
    header: Vec<String>,
    sub_header: &dyn Fn(&D2maDesign) -> Vec<String>,
) -> (Module, Vec<Module>) {
    let [agen_d, ctrl_d, raw_d] = parts(design);
    let agen_m = agen::build(&agen_d, sub_header(&agen_d));
    let ctrl_m = controller::build(&ctrl_d, sub_header(&ctrl_d));
    let raw_m = raw_check::build(&raw_d, sub_header(&raw_d));
    let mut m = Module::new(design.name()).with_header(header);
    m.add_clock();
    let (cb, bb, e) = (design.cta_bits(), design.buf_bits(), design.entries());
    let seg_lg = design.segment_bytes.trailing_zeros();
    let cfg_valid = m.input("cfg_valid_i", 1, "A configuration command.");
    let cfg_cta = m.input("cfg_cta_i", cb, "The command's CTA.");
    let cfg_buf = m.input("cfg_buf_i", bb, "The command's buffer.");
    let cfg_part = m.input(
        "cfg_part_i",
        PART_BITS,
        "Part: 0 global base, 1 shape, 2 halo.",
    );
    let cfg_data = m.input("cfg_data_i", CFG_DATA_BITS, "The part's bits.");
    let load_valid = m.input("load_valid_i", 1, "A shared load at the issue stage.");
    let load_cta = m.input("load_cta_i", cb, "The load's CTA.");
    let load_addr = m.input("load_addr_i", SHARED_BITS, "The load's shared address.");
    let req_ready = m.input("mem_req_ready_i", 1, "The memory port takes a request.");
    let resp_valid = m.input("mem_resp_valid_i", 1, "A response returns.");
    let resp_cta = m.input("mem_resp_cta_i", cb, "The response's CTA.");
    let resp_buf = m.input("mem_resp_buf_i", bb, "The response's buffer.");
    let req_valid_o = m.output("mem_req_valid_o", 1, "A segment request.");
    let req_addr_o = m.output(
        "mem_req_addr_o",
        design.global_bits,
        "The segment's address.",
    );
    let tag_cta_o = m.output("tag_cta_o", cb, "CTA of the request and chunk.");
    let tag_buf_o = m.output("tag_buf_o", bb, "Buffer of the request and chunk.");
    let chunk_valid_o = m.output("chunk_valid_o", 1, "A chunk this cycle.");
    let chunk_const_o = m.output("chunk_const_o", 1, "The chunk is a halo constant store.");
    let chunk_shared_o = m.output("chunk_shared_o", SHARED_BITS, "The chunk's shared address.");
    let chunk_offset_o = m.output(
        "chunk_offset_o",
        seg_lg,
        "The chunk's offset in its segment.",
    );
    let chunk_bytes_o = m.output("chunk_bytes_o", CHUNK_BYTES_BITS, "The chunk's bytes.");
    let const_o = m.output(
        "const_o",
        SHARED_BITS,
        "The halo constant of a constant chunk.",
    );
    let complete_valid_o = m.output("complete_valid_o", 1, "A buffer completed.");
    let complete_cta_o = m.output("complete_cta_o", cb, "The completed buffer's CTA.");
    let complete_buf_o = m.output("complete_buf_o", bb, "The completed buffer.");
    let wait_o = m.output("wait_o", 1, "The load must wait (RAW).");
    let release_o = m.output(
        "release_o",
        design.ctas,
        "Release the waiting warps of a CTA.",
    );

    let cta_of = |i: u32| Expr::constant(u64::from(i / design.buffers), cb);
    let buf_of = |i: u32| Expr::constant(u64::from(i % design.buffers), bb);
    // The controller's outputs are declared first so the arbiter can use them.
    let ready = m.wire("ready_all", e);
    let busy = m.wire("busy_all", e);
    let first = |m: &mut Module, name: &str, v: &Signal| -> (Signal, Signal, Signal) {
        let any = m.wire_of(&format!("{name}_any"), v.expr().reduce_or());
        let arms = |f: &dyn Fn(u32) -> Expr| {
            Expr::select((0..e).map(|i| (v.bit(i), f(i))).collect(), f(0))
        };
        let cta = m.wire_of(&format!("{name}_cta"), arms(&cta_of));
        let buf = m.wire_of(&format!("{name}_buf"), arms(&buf_of));
        (any, cta, buf)
    };
    let (any_ready, grant_cta, grant_buf) = first(&mut m, "grant", &ready);
    let agen_busy = m.wire("agen_busy_now", 1);
    let launch = m.wire_of("launch", any_ready.expr().and(agen_busy.expr().not()));
    let can = m.wire("can_complete", e);
    let (complete, done_cta, done_buf) = first(&mut m, "done", &can);
    // The controller's read port shows the AGEN the entry it walks (read in place), and the
    // granted entry while the AGEN is idle.
    let (cur_cta, cur_cta_d) = m.state("cur_cta", cb, 0);
    let (cur_buf, cur_buf_d) = m.state("cur_buf", bb, 0);
    let rd_cta = m.wire_of(
        "rd_cta",
        Expr::mux(agen_busy.expr(), cur_cta.expr(), grant_cta.expr()),
    );
    let rd_buf = m.wire_of(
        "rd_buf",
        Expr::mux(agen_busy.expr(), cur_buf.expr(), grant_buf.expr()),
    );

    let ctrl = m.instantiate(
        &ctrl_m,
        "ctrl",
        vec![
            ("cfg_valid_i", cfg_valid.expr()),
            ("cfg_cta_i", cfg_cta.expr()),
            ("cfg_buf_i", cfg_buf.expr()),
            ("cfg_part_i", cfg_part.expr()),
            ("cfg_data_i", cfg_data.expr()),
            ("ignite_valid_i", launch.expr()),
            ("ignite_cta_i", grant_cta.expr()),
            ("ignite_buf_i", grant_buf.expr()),
            ("done_valid_i", complete.expr()),
            ("done_cta_i", done_cta.expr()),
            ("done_buf_i", done_buf.expr()),
            ("rd_cta_i", rd_cta.expr()),
            ("rd_buf_i", rd_buf.expr()),
        ],
    );
    m.assign(&ready, ctrl["ready_o"].expr());
    m.assign(&busy, ctrl["busy_o"].expr());
    let ag = m.instantiate(
        &agen_m,
        "agen",
        vec![
            ("start_i", launch.expr()),
            ("entry_i", ctrl["rd_entry_o"].expr()),
            ("mem_ready_i", req_ready.expr()),
        ],
    );
    m.assign(&agen_busy, ag["busy_o"].expr());
    let raw = m.instantiate(
        &raw_m,
        "raw",
        vec![
            ("load_valid_i", load_valid.expr()),
            ("load_cta_i", load_cta.expr()),
            ("load_addr_i", load_addr.expr()),
            ("busy_i", busy.expr()),
            ("start_i", ctrl["start_o"].expr()),
            ("end_i", ctrl["end_o"].expr()),
            ("done_valid_i", complete.expr()),
            ("done_cta_i", done_cta.expr()),
        ],
    );

    // The entry the AGEN walks, and per entry its requests in flight and end of walk.
    m.assign(
        &cur_cta_d,
        Expr::mux(launch.expr(), grant_cta.expr(), cur_cta.expr()),
    );
    m.assign(
        &cur_buf_d,
        Expr::mux(launch.expr(), grant_buf.expr(), cur_buf.expr()),
    );
    let at = |c: &Signal, b: &Signal, i: u32| c.expr().eq(cta_of(i)).and(b.expr().eq(buf_of(i)));
    let mut below = Expr::constant(0, 1);
    for i in 0..e {
        let (cnt, cnt_d) = m.state(&format!("inflight{i}"), INFLIGHT_BITS, 0);
        let (walked, walked_d) = m.state(&format!("walked{i}"), 1, 0);
        let mine = m.wire_of(&format!("walking{i}"), at(&cur_cta, &cur_buf, i));
        let inc = ag["req_valid_o"]
            .expr()
            .and(mine.expr())
            .zext(INFLIGHT_BITS);
        let dec = resp_valid
            .expr()
            .and(at(&resp_cta, &resp_buf, i))
            .zext(INFLIGHT_BITS);
        m.assign(&cnt_d, cnt.expr().add(inc).sub(dec));
        let fin = m.wire_of(
            &format!("can{i}"),
            busy.bit(i)
                .and(walked.expr())
                .and(cnt.expr().eq(Expr::zeros(INFLIGHT_BITS))),
        );
        m.assign_bit(&can, i, fin.expr());
        let freed = fin.expr().and(below.clone().not());
        below = below.or(fin.expr());
        m.assign(
            &walked_d,
            Expr::mux(
                freed,
                Expr::constant(0, 1),
                ag["done_o"].expr().and(mine.expr()).or(walked.expr()),
            ),
        );
    }

    let gate = |valid: Expr, v: Expr| {
        let w = v.width();
        Expr::mux(valid, v, Expr::zeros(w))
    };
    let chunk = ag["chunk_valid_o"].expr();
    m.assign(&req_valid_o, ag["req_valid_o"].expr());
    m.assign(&req_addr_o, ag["req_addr_o"].expr());
    m.assign(&tag_cta_o, gate(chunk.clone(), cur_cta.expr()));
    m.assign(&tag_buf_o, gate(chunk.clone(), cur_buf.expr()));
    m.assign(&chunk_valid_o, chunk);
    m.assign(&chunk_const_o, ag["chunk_const_o"].expr());
    m.assign(&chunk_shared_o, ag["chunk_shared_o"].expr());
    m.assign(&chunk_offset_o, ag["chunk_global_o"].slice(seg_lg - 1, 0));
    m.sink_unused(
        "chunk_global",
        ag["chunk_global_o"].slice(design.global_bits - 1, seg_lg),
    );
    m.assign(&chunk_bytes_o, ag["chunk_bytes_o"].expr());
    m.assign(&const_o, ag["const_o"].expr());
    m.assign(&complete_valid_o, complete.expr());
    m.assign(&complete_cta_o, gate(complete.expr(), done_cta.expr()));
    m.assign(&complete_buf_o, gate(complete.expr(), done_buf.expr()));
    m.assign(&wait_o, raw["wait_o"].expr());
    m.assign(&release_o, raw["release_o"].expr());
    (m, vec![agen_m, ctrl_m, raw_m])
}
