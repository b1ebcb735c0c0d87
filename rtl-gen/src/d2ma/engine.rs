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
//!   requests in flight (16 bits); it completes when its walk has ended and the count is zero.
//!   One completion a cycle (lowest index first) frees the entry and releases the CTA.
//! - With a bound on a buffer's requests in flight ([`D2maDesign::in_flight_bound`]), the counts
//!   are as wide as the bound needs and the walk waits while its buffer is at the bound.

use super::writeback::DataPath;
use super::{agen, controller, extent, fields, raw_check, tensor_agen, tensors, writeback};
use super::{D2maDesign, Unit};
use super::{CFG_DATA_BITS, CHUNK_BYTES_BITS, PART_BITS, SHARED_BITS};
use crate::rtl::ir::bits_for;
use crate::rtl::{Expr, Module, Signal};
use std::collections::BTreeMap;
use std::ops::Not;

/// Bits of an entry's count of requests in flight. A request carries at least one element, so
/// a valid 1-D transfer issues at most 65 535 (its 16-bit count); a 2-D walk issues at most
/// one request per segment its row touches, `bytes / 32 + 2` per row, and its bytes fit the
/// 64 KB shared space: at most `65536 / 32 + 2 x 765` requests. 16 bits hold either.
pub const INFLIGHT_BITS: u32 = 16;

/// The most requests a valid entry issues, the default bound on a buffer's requests in flight:
/// at it the engine needs no stall (its counts are [`INFLIGHT_BITS`] wide).
pub const MAX_IN_FLIGHT: u32 = (1 << INFLIGHT_BITS) - 1;

/// Whether `bound` is the default, [`MAX_IN_FLIGHT`]: no walk waits on it.
pub fn unbounded(bound: &u32) -> bool {
    *bound >= MAX_IN_FLIGHT
}

/// Bits of a buffer's count of requests in flight under `design`'s bound: enough for the
/// bound itself.
pub fn in_flight_bits(design: &D2maDesign) -> u32 {
    bits_for(u64::from(design.max_in_flight) + 1)
}

/// The sub-designs the engine instantiates: AGEN, controller array, RAW check.
pub fn parts(design: &D2maDesign) -> [D2maDesign; 3] {
    [Unit::Agen, Unit::Controller, Unit::RawCheck].map(|block| D2maDesign {
        block,
        max_in_flight: MAX_IN_FLIGHT,
        ..*design
    })
}

/// Builds the engine of `design`; `sub_header` gives the leading comment lines of each
/// sub-module, which are built here too and returned after the engine.
pub fn build(
    design: &D2maDesign,
    header: Vec<String>,
    sub_header: &dyn Fn(&D2maDesign) -> Vec<String>,
) -> (Module, Vec<Module>) {
    build_with(design, None, header, sub_header)
}

/// The name of the engine of `design` with the data path `data`: the engine's, then
/// `_w<fill words>x<word bytes>_a<address bits>_m<records>`.
pub fn data_name(design: &D2maDesign, data: &DataPath) -> String {
    format!(
        "{}_w{}x{}_a{}_m{}",
        design.name(),
        data.fill_words,
        data.word_bytes,
        data.addr_bits,
        data.mshrs
    )
}

/// Builds the engine of `design`, with the data path into a shared memory's fill port when
/// `data` is given (module [`data_name`], its `_writeback` and `_extent` sub-modules built here
/// too): then responses carry the segment's data and a record tag and are held by the memory
/// until `mem_resp_ready_o`, part 3 of a configuration command is the extent of the
/// out-of-bounds fill, each chunk with bytes inside that extent requests its segment (one
/// cycle after the AGEN's chunk, from the writeback's stage), and a buffer completes when the
/// bytes of its chunks are all written to shared memory (`complete_bytes_o`: how many).
pub fn build_with(
    design: &D2maDesign,
    data: Option<&DataPath>,
    header: Vec<String>,
    sub_header: &dyn Fn(&D2maDesign) -> Vec<String>,
) -> (Module, Vec<Module>) {
    assert!(
        data.is_none() || design.in_flight_bound().is_none(),
        "the data path's MSHRs bound its requests: no bound on requests in flight there"
    );
    let [agen_d, ctrl_d, raw_d] = parts(design);
    let agen_m = agen::build(&agen_d, sub_header(&agen_d));
    let ctrl_m = controller::build(&ctrl_d, sub_header(&ctrl_d));
    let raw_m = raw_check::build(&raw_d, sub_header(&raw_d));
    let name = data.map_or_else(|| design.name(), |dp| data_name(design, dp));
    let mut m = Module::new(name.clone()).with_header(header.clone());
    m.add_clock();
    let (cb, bb, e) = (design.cta_bits(), design.buf_bits(), design.entries());
    let seg_lg = design.segment_bytes.trailing_zeros();
    let cfg_valid = m.input("cfg_valid_i", 1, "A configuration command.");
    let cfg_cta = m.input("cfg_cta_i", cb, "The command's CTA.");
    let cfg_buf = m.input("cfg_buf_i", bb, "The command's buffer.");
    let tensor = design.tensor_slots > 0;
    assert!(!tensor || data.is_some(), "tensor maps need the data path");
    let cfg_part = if tensor {
        m.input(
            "cfg_part_i",
            tensors::TENSOR_PART_BITS,
            "Part: 0 global base, 1 shape, 2 halo, 3 extent, 4 + w word w of a tensor slot.",
        )
    } else {
        m.input(
            "cfg_part_i",
            PART_BITS,
            "Part: 0 global base, 1 shape, 2 halo.",
        )
    };
    let cfg_data = m.input("cfg_data_i", CFG_DATA_BITS, "The part's bits.");
    let load_valid = m.input("load_valid_i", 1, "A shared load at the issue stage.");
    let load_cta = m.input("load_cta_i", cb, "The load's CTA.");
    let load_addr = m.input("load_addr_i", SHARED_BITS, "The load's shared address.");
    let req_ready = m.input("mem_req_ready_i", 1, "The memory port takes a request.");
    let resp_valid = m.input("mem_resp_valid_i", 1, "A response returns.");
    let resp = match data {
        None => Response::Tagged {
            cta: m.input("mem_resp_cta_i", cb, "The response's CTA."),
            buf: m.input("mem_resp_buf_i", bb, "The response's buffer."),
        },
        Some(dp) => Response::Data {
            tag: m.input("mem_resp_tag_i", dp.tag_bits(), "The response's MSHR."),
            data: m.input(
                "mem_resp_data_i",
                design.segment_bytes * 8,
                "The segment's data, byte 0 lowest.",
            ),
            fill_ready: m.input("fill_ready_i", 1, "The shared memory takes the beat."),
        },
    };
    let resp_ready_o = data.map(|_| {
        m.output(
            "mem_resp_ready_o",
            1,
            "The response's data is written: the memory may drop it.",
        )
    });
    let req_valid_o = m.output("mem_req_valid_o", 1, "A segment request.");
    let req_addr_o = m.output(
        "mem_req_addr_o",
        design.global_bits,
        "The segment's address.",
    );
    let chunk_ports = data
        .is_none()
        .then(|| ChunkPorts::declare(&mut m, cb, bb, seg_lg));
    let fill_ports = data.map(|dp| FillPorts::declare(&mut m, dp));
    let complete_valid_o = m.output("complete_valid_o", 1, "A buffer completed.");
    let complete_cta_o = m.output("complete_cta_o", cb, "The completed buffer's CTA.");
    let complete_buf_o = m.output("complete_buf_o", bb, "The completed buffer.");
    let complete_bytes_o = data.map(|_| {
        m.output(
            "complete_bytes_o",
            writeback::WALK_BYTES_BITS,
            "The bytes the completed buffer's transfer wrote (its transaction count).",
        )
    });
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
    // An ignited entry is pending (`agen_pending`) and starts in the AGEN in the first cycle
    // after its ignition in which the controller's read port shows it (`agen_start`, on
    // `rd_valid_o`: a command that completes an entry takes the port for the span unit), read
    // at the registered `cur_*`
    // (no arbiter on the AGEN's paths).
    let (agen_pending, agen_pending_d) = m.state("agen_pending", 1, 0);
    let agen_start = m.wire("agen_start", 1);
    // With the data path, an entry is ignited only once the previous walk's last chunk leaves
    // the writeback's stage (it may wait there for the memory port), since the stage takes the
    // walk's slot and element size as it leaves, and when a walk slot is free.
    let stage_free = data.map(|_| m.wire("stage_free", 1));
    let launch = any_ready
        .expr()
        .and(agen_busy.expr().not())
        .and(agen_pending.expr().not());
    let launch = match &stage_free {
        Some(free) => launch.and(free.expr()),
        None => launch,
    };
    let launch = m.wire_of("launch", launch);
    let ((complete, done_cta, done_buf), can) = match data {
        None => {
            let can = m.wire("can_complete", e);
            let done = first(&mut m, "done", &can);
            (done, Some(can))
        }
        Some(_) => (
            (
                m.wire("done_any", 1),
                m.wire("done_cta", cb),
                m.wire("done_buf", bb),
            ),
            None,
        ),
    };
    // The controller's read port shows the AGEN the entry it walks (read in place), from the
    // cycle after its ignition.
    let (cur_cta, cur_cta_d) = m.state("cur_cta", cb, 0);
    let (cur_buf, cur_buf_d) = m.state("cur_buf", bb, 0);

    // The configuration command goes to the controller array and to the extent registers;
    // with tensor slots, parts 4 and up go to the slots instead.
    let (entry_valid, entry_part) = if tensor {
        let valid = cfg_valid.expr().and(
            cfg_part
                .slice(tensors::TENSOR_PART_BITS - 1, PART_BITS)
                .eq(Expr::zeros(tensors::TENSOR_PART_BITS - PART_BITS)),
        );
        (
            m.wire_of("cfg_entry_valid", valid),
            cfg_part.slice(PART_BITS - 1, 0),
        )
    } else {
        (cfg_valid.clone(), cfg_part.expr())
    };
    let cfg_ports = vec![
        ("cfg_valid_i", entry_valid.expr()),
        ("cfg_cta_i", cfg_cta.expr()),
        ("cfg_buf_i", cfg_buf.expr()),
        ("cfg_part_i", entry_part),
        ("cfg_data_i", cfg_data.expr()),
    ];
    let ctrl_ports = [
        ("ignite_valid_i", launch.expr()),
        ("ignite_cta_i", grant_cta.expr()),
        ("ignite_buf_i", grant_buf.expr()),
        ("done_valid_i", complete.expr()),
        ("done_cta_i", done_cta.expr()),
        ("done_buf_i", done_buf.expr()),
        ("rd_cta_i", cur_cta.expr()),
        ("rd_buf_i", cur_buf.expr()),
    ];
    let ctrl = m.instantiate(
        &ctrl_m,
        "ctrl",
        cfg_ports.iter().cloned().chain(ctrl_ports).collect(),
    );
    m.assign(&ready, ctrl["ready_o"].expr());
    let port_free = ctrl["rd_valid_o"].expr();
    m.assign(&agen_start, agen_pending.expr().and(port_free.clone()));
    m.assign(
        &agen_pending_d,
        launch.expr().or(agen_pending.expr().and(port_free.not())),
    );
    m.assign(&busy, ctrl["busy_o"].expr());
    // With the data path, the AGEN also waits for room in the writeback's queue and MSHRs.
    let chunk_room = data.map(|_| m.wire("chunk_room", 1));
    // Under a bound on requests in flight, the walk also waits while its buffer is at it.
    let walk_full = design
        .in_flight_bound()
        .filter(|_| data.is_none())
        .map(|_| m.wire("walk_full", 1));
    let agen_ready = match (&chunk_room, &walk_full) {
        (None, None) => req_ready.clone(),
        (Some(room), _) => m.wire_of("agen_ready", req_ready.expr().and(room.expr())),
        (None, Some(full)) => m.wire_of("agen_ready", req_ready.expr().and(full.expr().not())),
    };
    // An entry in tensor mode starts the tensor AGEN instead of the paper's.
    let entry_tensor = tensor.then(|| {
        let mode = fields::entry_field(&ctrl["rd_entry_o"], "mode");
        let code = u64::from(models::d2ma::tensor::MODE_TENSOR);
        m.wire_of("entry_tensor", mode.eq(Expr::constant(code, 2)))
    });
    let paper_start = match &entry_tensor {
        Some(t) => m.wire_of("paper_start", agen_start.expr().and(t.expr().not())),
        None => agen_start.clone(),
    };
    let ag = m.instantiate(
        &agen_m,
        "agen",
        vec![
            ("start_i", paper_start.expr()),
            ("entry_i", ctrl["rd_entry_o"].expr()),
            ("mem_ready_i", agen_ready.expr()),
        ],
    );
    let front = entry_tensor.map(|t| {
        let cfg = [&cfg_valid, &cfg_cta, &cfg_buf, &cfg_part, &cfg_data];
        TensorFront::build(
            &mut m,
            design,
            (&name, &header),
            cfg,
            (&agen_start, &t, &ctrl["rd_entry_o"], &agen_ready),
        )
    });
    match &front {
        Some(t) => m.assign(&agen_busy, ag["busy_o"].expr().or(t.agen["busy_o"].expr())),
        None => m.assign(&agen_busy, ag["busy_o"].expr()),
    }
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
    if data.is_none() {
        m.assign(&req_valid_o, ag["req_valid_o"].expr());
        m.assign(&req_addr_o, ag["req_addr_o"].expr());
    }
    let mut subs = vec![agen_m, ctrl_m, raw_m];
    match (resp, chunk_ports, fill_ports, can, chunk_room) {
        (Response::Tagged { cta, buf }, Some(ports), None, Some(can), None) => {
            let walk = Walk {
                cta: &cur_cta,
                buf: &cur_buf,
                launch: &launch,
                full: walk_full.as_ref(),
            };
            count_responses(
                &mut m,
                design,
                &ag,
                &walk,
                (&resp_valid, &cta, &buf),
                &busy,
                &can,
            );
            ports.assign(&mut m, design, &ag, &cur_cta, &cur_buf);
        }
        (
            Response::Data {
                tag,
                data: segment,
                fill_ready,
            },
            None,
            Some(ports),
            None,
            Some(room),
        ) => {
            let dp = data.unwrap_or_else(|| unreachable!());
            let wb_m = writeback::build(design, dp, &format!("{name}_writeback"), header.clone());
            let x_m = extent::build(design, &format!("{name}_extent"), header);
            // The extent counts the chunk arriving in the writeback's stage.
            let stage_arrived = m.wire("stage_arrived", 1);
            let stage_bytes = m.wire("stage_bytes", writeback::BYTES_BITS);
            let x = m.instantiate(
                &x_m,
                "extent",
                cfg_ports
                    .into_iter()
                    .chain([
                        ("busy_i", busy.expr()),
                        ("start_i", agen_start.expr()),
                        ("cur_cta_i", cur_cta.expr()),
                        ("cur_buf_i", cur_buf.expr()),
                        ("entry_i", ctrl["rd_entry_o"].expr()),
                        ("chunk_valid_i", stage_arrived.expr()),
                        ("chunk_bytes_i", stage_bytes.expr()),
                    ])
                    .collect(),
            );
            let sources = chunk_sources(&mut m, design, &ag, &x, front.as_ref());
            let w = m.instantiate(
                &wb_m,
                "wb",
                sources
                    .into_iter()
                    .chain([
                        ("walk_start_i", agen_start.expr()),
                        ("walk_cta_i", cur_cta.expr()),
                        ("walk_buf_i", cur_buf.expr()),
                        ("mem_resp_valid_i", resp_valid.expr()),
                        ("mem_resp_tag_i", tag.expr()),
                        ("mem_resp_data_i", segment.expr()),
                        ("fill_ready_i", fill_ready.expr()),
                        ("mem_req_ready_i", req_ready.expr()),
                    ])
                    .collect(),
            );
            m.assign(&room, w["chunk_ready_o"].expr());
            m.assign(&stage_arrived, w["stage_arrived_o"].expr());
            if let Some(free) = &stage_free {
                m.assign(free, w["stage_free_o"].expr().and(w["walk_free_o"].expr()));
            }
            if let Some(ready) = &resp_ready_o {
                m.assign(ready, w["mem_resp_ready_o"].expr());
            }
            if let Some(bytes) = &complete_bytes_o {
                m.assign(bytes, w["done_bytes_o"].expr());
            }
            m.assign(&req_valid_o, w["req_valid_o"].expr());
            m.assign(&req_addr_o, w["req_addr_o"].expr());
            // The writeback issues the requests (from its stage, a chunk inside the extent).
            m.sink_unused(
                "agen_req",
                Expr::concat(vec![ag["req_valid_o"].expr(), ag["req_addr_o"].expr()]),
            );
            m.assign(&stage_bytes, w["stage_bytes_o"].expr());
            m.assign(&complete, w["done_valid_o"].expr());
            m.assign(&done_cta, w["done_cta_o"].expr());
            m.assign(&done_buf, w["done_buf_o"].expr());
            ports.assign(&mut m, &w);
            subs.push(x_m);
            subs.push(wb_m);
            if let Some(t) = front {
                subs.extend(t.modules);
            }
        }
        _ => unreachable!("the engine's ports follow its data path"),
    }
    m.assign(&complete_valid_o, complete.expr());
    m.assign(&complete_cta_o, gate(complete.expr(), done_cta.expr()));
    m.assign(&complete_buf_o, gate(complete.expr(), done_buf.expr()));
    m.assign(&wait_o, raw["wait_o"].expr());
    m.assign(&release_o, raw["release_o"].expr());
    (m, subs)
}

/// The response port: a tag naming the buffer (no data), or the data path's MSHR tag, the
/// segment's data, and the shared memory's fill handshake.
enum Response {
    Tagged {
        cta: Signal,
        buf: Signal,
    },
    Data {
        tag: Signal,
        data: Signal,
        fill_ready: Signal,
    },
}

/// The chunk ports of the engine without a data path: the AGEN's chunk, tagged, for the MSHR.
struct ChunkPorts {
    tag_cta: Signal,
    tag_buf: Signal,
    valid: Signal,
    constant: Signal,
    shared: Signal,
    offset: Signal,
    bytes: Signal,
    value: Signal,
}

impl ChunkPorts {
    fn declare(m: &mut Module, cb: u32, bb: u32, seg_lg: u32) -> Self {
        Self {
            tag_cta: m.output("tag_cta_o", cb, "CTA of the request and chunk."),
            tag_buf: m.output("tag_buf_o", bb, "Buffer of the request and chunk."),
            valid: m.output("chunk_valid_o", 1, "A chunk this cycle."),
            constant: m.output("chunk_const_o", 1, "The chunk is a halo constant store."),
            shared: m.output("chunk_shared_o", SHARED_BITS, "The chunk's shared address."),
            offset: m.output(
                "chunk_offset_o",
                seg_lg,
                "The chunk's offset in its segment.",
            ),
            bytes: m.output("chunk_bytes_o", CHUNK_BYTES_BITS, "The chunk's bytes."),
            value: m.output(
                "const_o",
                SHARED_BITS,
                "The halo constant of a constant chunk.",
            ),
        }
    }

    fn assign(&self, m: &mut Module, design: &D2maDesign, ag: &Ports, cta: &Signal, buf: &Signal) {
        let seg_lg = self.offset.width();
        let chunk = ag["chunk_valid_o"].expr();
        m.assign(&self.tag_cta, gate(chunk.clone(), cta.expr()));
        m.assign(&self.tag_buf, gate(chunk.clone(), buf.expr()));
        m.assign(&self.valid, chunk);
        m.assign(&self.constant, ag["chunk_const_o"].expr());
        m.assign(&self.shared, ag["chunk_shared_o"].expr());
        m.assign(&self.offset, ag["chunk_global_o"].slice(seg_lg - 1, 0));
        m.sink_unused(
            "chunk_global",
            ag["chunk_global_o"].slice(design.global_bits - 1, seg_lg),
        );
        m.assign(&self.bytes, ag["chunk_bytes_o"].expr());
        m.assign(&self.value, ag["const_o"].expr());
    }
}

/// The ports of the engine with a data path: the request's MSHR tag and the fill port.
struct FillPorts {
    req_tag: Signal,
    valid: Signal,
    mask: Signal,
    addr: Signal,
    data: Signal,
    be: Signal,
}

impl FillPorts {
    fn declare(m: &mut Module, dp: &DataPath) -> Self {
        let (f, wb) = (dp.fill_words, dp.word_bytes);
        Self {
            req_tag: m.output("mem_req_tag_o", dp.tag_bits(), "The request's MSHR."),
            valid: m.output("fill_valid_o", 1, "A fill beat to shared memory."),
            mask: m.output("fill_mask_o", f, "Words of the beat written."),
            addr: m.output("fill_addr_o", f * dp.addr_bits, "Word addresses."),
            data: m.output("fill_data_o", f * wb * 8, "Word data."),
            be: m.output("fill_be_o", f * wb, "Byte enables."),
        }
    }

    fn assign(&self, m: &mut Module, w: &Ports) {
        m.assign(&self.req_tag, w["req_tag_o"].expr());
        m.assign(&self.valid, w["fill_valid_o"].expr());
        m.assign(&self.mask, w["fill_mask_o"].expr());
        m.assign(&self.addr, w["fill_addr_o"].expr());
        m.assign(&self.data, w["fill_data_o"].expr());
        m.assign(&self.be, w["fill_be_o"].expr());
    }
}

/// An instance's output wires by port name.
type Ports = BTreeMap<String, Signal>;

/// `v` where `valid`, else zero.
fn gate(valid: Expr, v: Expr) -> Expr {
    let w = v.width();
    Expr::mux(valid, v, Expr::zeros(w))
}

/// The walk as the counts see it: the walked entry (`cur_*`), the ignition that moves it, and
/// the wire `walk_full` that holds the AGEN when the engine has a bound on requests in flight.
struct Walk<'a> {
    cta: &'a Signal,
    buf: &'a Signal,
    launch: &'a Signal,
    full: Option<&'a Signal>,
}

/// Completion without a data path: per entry its requests in flight (up on a request, down on
/// a response) and its end of walk; an entry can complete when both say so. Under a bound,
/// `walk_count` follows the walked entry's count (cleared at an ignition: an ignited entry has
/// none in flight) so that `walk_full` comes from registers through one comparison.
fn count_responses(
    m: &mut Module,
    design: &D2maDesign,
    ag: &Ports,
    walk: &Walk,
    (resp_valid, resp_cta, resp_buf): (&Signal, &Signal, &Signal),
    busy: &Signal,
    can: &Signal,
) {
    let (cb, bb, e) = (design.cta_bits(), design.buf_bits(), design.entries());
    let bits = in_flight_bits(design);
    let cta_of = |i: u32| Expr::constant(u64::from(i / design.buffers), cb);
    let buf_of = |i: u32| Expr::constant(u64::from(i % design.buffers), bb);
    let at = |c: &Signal, b: &Signal, i: u32| c.expr().eq(cta_of(i)).and(b.expr().eq(buf_of(i)));
    let mut below = Expr::constant(0, 1);
    for i in 0..e {
        let (cnt, cnt_d) = m.state(&format!("inflight{i}"), bits, 0);
        let (walked, walked_d) = m.state(&format!("walked{i}"), 1, 0);
        let mine = m.wire_of(&format!("walking{i}"), at(walk.cta, walk.buf, i));
        let inc = ag["req_valid_o"].expr().and(mine.expr());
        let dec = resp_valid.expr().and(at(resp_cta, resp_buf, i));
        let up = m.wire_of(
            &format!("inflight{i}_up"),
            inc.clone().and(dec.clone().not()),
        );
        let down = m.wire_of(&format!("inflight{i}_down"), dec.and(inc.not()));
        m.assign(&cnt_d, up_down(&cnt, &up, &down));
        let fin = m.wire_of(
            &format!("can{i}"),
            busy.bit(i)
                .and(walked.expr())
                .and(cnt.expr().eq(Expr::zeros(bits))),
        );
        m.assign_bit(can, i, fin.expr());
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
    if let Some(full) = walk.full {
        let (cnt, cnt_d) = m.state("walk_count", bits, 0);
        let inc = ag["req_valid_o"].expr();
        let dec = resp_valid
            .expr()
            .and(resp_cta.expr().eq(walk.cta.expr()))
            .and(resp_buf.expr().eq(walk.buf.expr()));
        let up = m.wire_of("walk_count_up", inc.clone().and(dec.clone().not()));
        let down = m.wire_of("walk_count_down", dec.and(inc.not()));
        m.assign(
            &cnt_d,
            Expr::mux(
                walk.launch.expr(),
                Expr::zeros(bits),
                up_down(&cnt, &up, &down),
            ),
        );
        let bound = u64::from(design.max_in_flight);
        m.assign(full, cnt.expr().eq(Expr::constant(bound, bits)));
    }
}

/// `q + up - down` for one-bit `up` and `down` that are never both set, as a counter: bit `k`
/// toggles when counting up over ones or down over zeros in bits `k-1..0` (no adder).
fn up_down(q: &Signal, up: &Signal, down: &Signal) -> Expr {
    let bits = (0..q.width())
        .map(|k| {
            let toggle = if k == 0 {
                up.expr().or(down.expr())
            } else {
                let low = q.slice(k - 1, 0);
                let zeros = low.clone().reduce_or().not();
                up.expr().and(low.reduce_and()).or(down.expr().and(zeros))
            };
            q.bit(k).xor(toggle)
        })
        .rev()
        .collect();
    Expr::concat(bits)
}

/// The tensor front end of an engine with tensor slots: the slots and the tensor AGEN, as
/// instances, and their modules.
struct TensorFront {
    agen: Ports,
    /// Registered with the stage: a tensor walk's chunk (`walk_tensor_q`), the tensor AGEN's
    /// keep of the chunk arriving in the writeback's stage.
    walking: Signal,
    keep: Signal,
    modules: Vec<Module>,
}

impl TensorFront {
    /// The slots take the configuration commands (parts 4 and up); the tensor AGEN starts on
    /// an entry in tensor mode, with its shared address and the slot its `stride` names.
    fn build(
        m: &mut Module,
        design: &D2maDesign,
        (name, header): (&str, &[String]),
        [valid, cta, buf, part, data]: [&Signal; 5],
        (start, tensor, entry, ready): (&Signal, &Signal, &Signal, &Signal),
    ) -> Self {
        let table_m = tensors::build(design, &format!("{name}_tensors"), header.to_vec());
        let agen_m = tensor_agen::build(design, &format!("{name}_tensor_agen"), header.to_vec());
        let sb = tensors::slot_bits(design);
        let walked = m.wire("tensor_walked_slot", sb);
        let table = m.instantiate(
            &table_m,
            "tensors",
            vec![
                ("cfg_valid_i", valid.expr()),
                ("cfg_cta_i", cta.expr()),
                ("cfg_buf_i", buf.expr()),
                ("cfg_part_i", part.expr()),
                ("cfg_data_i", data.expr()),
                ("rd_slot_i", walked.expr()),
            ],
        );
        let stride = fields::entry_field(entry, "stride");
        let slot = m.wire_of("entry_slot", stride);
        m.sink_unused("entry_slot", slot.slice(15, sb));
        let agen = m.instantiate(
            &agen_m,
            "tagen",
            vec![
                ("start_i", start.expr().and(tensor.expr())),
                ("shared_i", fields::entry_field(entry, "shared")),
                ("slot_sel_i", slot.slice(sb - 1, 0)),
                ("slot_i", table["slot_o"].expr()),
                ("mem_ready_i", ready.expr()),
            ],
        );
        m.assign(&walked, agen["slot_o"].expr());
        let walking = m.register_enabled("walk_tensor_q", tensor.expr(), 0, start.expr());
        let keep = m.register_unreset("tensor_keep_q", agen["chunk_keep_o"].expr(), None, None);
        Self {
            agen,
            walking,
            keep,
            modules: vec![agen_m, table_m],
        }
    }
}

/// The chunk the writeback stages, from the paper's AGEN or the tensor AGEN (whose outputs are
/// zero when they have no chunk, so they are ORed), with its in-extent bytes (the extent's for
/// a paper entry, the tensor AGEN's for a tensor load) and the walk's element size.
fn chunk_sources(
    m: &mut Module,
    design: &D2maDesign,
    ag: &Ports,
    x: &Ports,
    front: Option<&TensorFront>,
) -> Vec<(&'static str, Expr)> {
    let seg_lg = design.segment_bytes.trailing_zeros();
    let g = design.global_bits;
    let either = |m: &mut Module, name: &str, port: &str| -> Signal {
        let paper = ag[port].expr();
        let value = match front {
            Some(t) => paper.or(t.agen[port].expr()),
            None => paper,
        };
        m.wire_of(name, value)
    };
    let global = either(m, "chunk_global", "chunk_global_o");
    let mut out = vec![
        (
            "chunk_valid_i",
            either(m, "chunk_valid", "chunk_valid_o").expr(),
        ),
        ("chunk_const_i", ag["chunk_const_o"].expr()),
        ("chunk_last_i", either(m, "chunk_last", "done_o").expr()),
        (
            "chunk_shared_i",
            either(m, "chunk_shared", "chunk_shared_o").expr(),
        ),
        ("chunk_offset_i", global.slice(seg_lg - 1, 0)),
        ("chunk_segment_i", global.slice(g - 1, seg_lg)),
        (
            "chunk_bytes_i",
            either(m, "chunk_bytes", "chunk_bytes_o").expr(),
        ),
        ("const_i", ag["const_o"].expr()),
    ];
    match front {
        None => out.extend([
            ("chunk_keep_i", x["keep_o"].expr()),
            ("chunk_size_i", x["size_o"].expr()),
        ]),
        Some(t) => {
            let walking = t.walking.expr();
            out.extend([
                (
                    "chunk_keep_i",
                    Expr::mux(walking.clone(), t.keep.expr(), x["keep_o"].expr()),
                ),
                (
                    "chunk_size_i",
                    Expr::mux(walking.clone(), t.agen["size_o"].expr(), x["size_o"].expr()),
                ),
                ("chunk_xor_i", t.agen["chunk_xor_o"].expr()),
                ("chunk_nan_i", walking.and(t.agen["nan_o"].expr())),
            ]);
        }
    }
    out
}
