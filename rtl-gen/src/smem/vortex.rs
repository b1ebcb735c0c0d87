//! The Vortex interface (`rtl-gen smem --interface vortex`): the top `<name>` presents the
//! memory with the ports of Vortex's `VX_local_mem` (one request and one response channel per
//! lane, `VX_mem_bus_if`), flattened to Verilog-2005, around the pipeline `<name>_pipe`
//! (`super::top`). The timing contract is `models::smem::lanes`.
//!
//! - **Gather**: in a cycle where the pipeline takes an access, the valid lanes whose write flag
//!   is the lowest valid lane's are taken as one warp access (`req_ready_o` set for exactly
//!   those lanes); the others wait (a partial grant).
//! - **Responses**: the pipeline carries each access's reading lanes and tags (`req_meta_i`) to
//!   its response; each reading lane shows its word and tag until its `rsp_ready_i`, and the
//!   pipeline moves on once every reading lane has taken its own (`done_q` holds the lanes
//!   that have). A write answers nothing.
//! - **Configuration**: a configurable hash's register is loaded 32 bits at a time by DCR
//!   writes to `DCR_BASE + i`; like Vortex's own DCRs it has no reset (it is written while
//!   Vortex holds its reset, and kept through the reset of every launch).
//! - **Counters** (`cnt_*_o`, wrapping): Vortex's `lmem_perf` (reads, writes, bank stalls,
//!   response stalls) counted as `VX_local_mem` counts them, and ours (accesses, bank cycles,
//!   conflict cycles, broadcast reads).

use super::design::{SmemDesign, DCR_ADDR_BITS, DCR_BASE, DCR_DATA_BITS};
use crate::block::Header;
use crate::rtl::vortex_wrapper::{self, ports, Counter, LocalMem, Sizes};
use crate::rtl::wiring::{gather, popcount};
use crate::rtl::{Expr, Module, Signal};

/// The SystemVerilog wrapper's file in the block folder.
pub const WRAPPER_FILE: &str = vortex_wrapper::FILE;

/// The order of the counters in the statistics line (`rtl-gen lmem: reads=R writes=W ...`):
/// the keys the issue names first, then the others.
const STATS_ORDER: [&str; 8] = [
    "reads",
    "writes",
    "bank_stalls",
    "bank_cycles",
    "conflict_cycles",
    "broadcast_reads",
    "crsp_stalls",
    "accesses",
];

/// The fields of Vortex's `lmem_perf_t` and the counters that drive them.
const PERF_FIELDS: [&str; 4] = ["reads", "writes", "bank_stalls", "crsp_stalls"];

/// The counters, in port order: name (`cnt_<name>_o`) and what it counts.
pub const COUNTERS: [(&str, &str); 8] = [
    ("reads", "Read lanes taken, an edge late (lmem_perf.reads)."),
    (
        "writes",
        "Write lanes taken, an edge late (lmem_perf.writes).",
    ),
    (
        "bank_stalls",
        "Lanes' collisions in their banks, an edge late (lmem_perf.bank_stalls).",
    ),
    (
        "crsp_stalls",
        "Lane responses shown and not taken (lmem_perf.crsp_stalls).",
    ),
    ("accesses", "Warp accesses served."),
    ("bank_cycles", "Passes that used the banks."),
    (
        "conflict_cycles",
        "Passes after the first of an access: cycles lost to bank conflicts.",
    ),
    (
        "broadcast_reads",
        "Read lanes served by another lane's bank read of their word.",
    ),
];

/// The top's ports.
struct Ports {
    valid: Signal,
    ready: Signal,
    rw: Signal,
    addr: Signal,
    data: Signal,
    byteen: Signal,
    tag: Signal,
    rsp_valid: Signal,
    rsp_data: Signal,
    rsp_tag: Signal,
    rsp_ready: Signal,
    dcr: Option<[Signal; 3]>,
    counters: Vec<Signal>,
}

fn declare(module: &mut Module, design: &SmemDesign, tag_bits: u32) -> Ports {
    let s = design.shape();
    let (lanes, n, w, bytes) = (s.lanes(), s.addr_bits(), s.word_bits(), s.word_bytes());
    let per_lane = |what: &str, w: u32| format!("{what}, lane i in bits [i*{w} +: {w}].");
    let valid = module.input(ports::REQ_VALID, lanes, "Each lane presents a request.");
    let ready = module.output(
        ports::REQ_READY,
        lanes,
        "Each lane's request is taken at the rising edge.",
    );
    let rw = module.input(
        ports::REQ_RW,
        lanes,
        "Each lane's request writes (else reads).",
    );
    let addr = module.input(ports::REQ_ADDR, lanes * n, &per_lane("Word addresses", n));
    let data = module.input(ports::REQ_DATA, lanes * w, &per_lane("Data written", w));
    let byteen = module.input(
        ports::REQ_BYTEEN,
        lanes * bytes,
        &per_lane("Byte enables", bytes),
    );
    let tag = module.input(
        ports::REQ_TAG,
        lanes * tag_bits,
        &per_lane("Tags", tag_bits),
    );
    let rsp_valid = module.output(
        ports::RSP_VALID,
        lanes,
        "Each lane shows a read's response.",
    );
    let rsp_data = module.output(ports::RSP_DATA, lanes * w, &per_lane("Words read", w));
    let rsp_tag = module.output(
        ports::RSP_TAG,
        lanes * tag_bits,
        &per_lane("Tags of the reads", tag_bits),
    );
    let rsp_ready = module.input(
        ports::RSP_READY,
        lanes,
        "Each lane's response is taken at the rising edge.",
    );
    let dcr = (design.dcr_words() > 0).then(|| {
        [
            module.input(ports::DCR_VALID, 1, "A Vortex DCR write."),
            module.input(ports::DCR_ADDR, DCR_ADDR_BITS, "Its DCR address."),
            module.input(
                ports::DCR_DATA,
                DCR_DATA_BITS,
                "Its data: a 32-bit word of the map's configuration.",
            ),
        ]
    });
    let cb = design.counter_bits();
    let counters = COUNTERS
        .iter()
        .map(|(name, doc)| module.output(&format!("cnt_{name}_o"), cb, doc))
        .collect();
    Ports {
        valid,
        ready,
        rw,
        addr,
        data,
        byteen,
        tag,
        rsp_valid,
        rsp_data,
        rsp_tag,
        rsp_ready,
        dcr,
        counters,
    }
}

/// The counters in the statistics line's order, with their `lmem_perf` fields.
fn counters() -> Vec<Counter> {
    STATS_ORDER
        .iter()
        .map(|key| Counter {
            port: format!("cnt_{key}_o"),
            key: (*key).into(),
            perf: PERF_FIELDS.contains(key).then(|| (*key).into()),
        })
        .collect()
}

/// The sizes Vortex's parameters describe.
fn sizes(design: &SmemDesign) -> Sizes {
    let s = design.shape();
    Sizes {
        lanes: s.lanes(),
        banks: s.banks(),
        depth: s.depth(),
        word_bytes: s.word_bytes(),
        tag_bits: design
            .vortex_tag_bits()
            .unwrap_or_else(|| unreachable!("the wrapper of a Vortex design")),
    }
}

/// The text of `VX_local_mem.sv` around `core` (the top [`build`] gives).
pub fn wrapper(design: &SmemDesign, core: &Module, header: &Header) -> String {
    let about = vec![
        format!("VX_local_mem around {}:", design.name()),
        "Vortex's VX_local_mem (hw/rtl/mem/VX_local_mem.sv at Vortex 31e4765), the same".into(),
        "parameters and ports, plus Vortex's DCR bus (docs/SMEM.md, Vortex interface).".into(),
        "Defines: PERF_ENABLE (lmem_perf), RTLGEN_LMEM_STATS (one line of counters at the end),"
            .into(),
        "RTLGEN_LMEM_TRACE (+rtlgen_lmem_trace=<path>: every warp access, docs/TRACE_FORMAT.md)."
            .into(),
    ];
    let text = vortex_wrapper::local_mem(&LocalMem {
        core,
        header: &header.lines(about, &[]),
        sizes: sizes(design),
        counters: &counters(),
    });
    crate::block::with_timescale(&text)
}

/// A module `name` with the core's ports that drives `VX_local_mem.sv` through Vortex's
/// interfaces ([`vortex_wrapper::flat_shim`]): the core's testbench pointed at it runs through
/// the wrapper.
pub fn shim(design: &SmemDesign, name: &str) -> String {
    let core = design.top_module();
    let text = vortex_wrapper::flat_shim(
        &LocalMem {
            core: &core,
            header: &[],
            sizes: sizes(design),
            counters: &counters(),
        },
        name,
    );
    crate::block::with_timescale(&text)
}

/// `value` resized to `width` bits: zero-extended, or its low bits.
fn resize(value: &Signal, width: u32) -> Expr {
    if value.width() > width {
        value.slice(width - 1, 0)
    } else {
        value.expr().zext(width)
    }
}

/// The map's configuration as the pipeline takes it, for a configurable hash: one register per
/// DCR word (`cfg_w<i>_q`, loaded by a DCR write to `DCR_BASE + i`). Like Vortex's own DCRs
/// (`VX_dcr_data`) they have no reset: the host writes them before a launch while Vortex holds
/// its reset, and they keep their value through the reset of every launch.
fn configuration(module: &mut Module, design: &SmemDesign, p: &Ports) -> Inputs {
    let Some([dcr_valid, dcr_addr, dcr_data]) = &p.dcr else {
        return Vec::new();
    };
    let width = design.cfg_width();
    let words: Vec<Expr> = (0..design.dcr_words())
        .map(|k| {
            let w = (width - k * DCR_DATA_BITS).min(DCR_DATA_BITS);
            let at = Expr::constant(u64::from(DCR_BASE + k), DCR_ADDR_BITS);
            let hit = dcr_valid.expr().and(dcr_addr.expr().eq(at));
            let d = dcr_data.slice(w - 1, 0);
            module
                .register_unreset(&format!("cfg_w{k}_q"), d, Some(hit), None)
                .expr()
        })
        .collect();
    if width < DCR_DATA_BITS {
        module.sink_unused("dcr_data", dcr_data.slice(DCR_DATA_BITS - 1, width));
    }
    let cfg = gather(module, "cfg", words);
    vec![("cfg_i".to_string(), cfg.expr())]
}

type Inputs = Vec<(String, Expr)>;

/// Builds the top module around the pipeline `pipe` (`<name>_pipe`).
pub fn build(design: &SmemDesign, pipe: &Module, header: Vec<String>) -> Module {
    let s = design.shape();
    let (lanes, n, w, bytes) = (s.lanes(), s.addr_bits(), s.word_bits(), s.word_bytes());
    let tag_bits = design
        .vortex_tag_bits()
        .unwrap_or_else(|| unreachable!("the Vortex top of a Vortex design"));
    let mut module = Module::new(design.name()).with_header(header);
    module.add_clock();
    let p = declare(&mut module, design, tag_bits);
    let cfg = configuration(&mut module, design, &p);

    // Gather: the valid lanes of the lowest valid lane's kind.
    let lowest = module.wire_of(
        "lowest",
        p.valid
            .expr()
            .and(!p.valid.expr() + Expr::constant(1, lanes)),
    );
    let write = module.wire_of("write", lowest.expr().and(p.rw.expr()).reduce_or());
    let kind = Expr::mux(write.expr(), p.rw.expr(), !p.rw.expr());
    let take = module.wire_of("take", p.valid.expr().and(kind));
    let reading = Expr::mux(write.expr(), Expr::zeros(lanes), take.expr());

    // The response: each reading lane until it takes its own.
    let (done, done_d) = module.state("done", lanes, 0);
    let resp_valid = module.wire("resp_valid", 1);
    let resp_meta = module.wire("resp_meta", design.meta_bits());
    let owed = module.wire_of(
        "owed",
        Expr::mux(
            resp_valid.expr(),
            resp_meta.slice(lanes - 1, 0).and(!done.expr()),
            Expr::zeros(lanes),
        ),
    );
    let resp_ready = module.wire_of(
        "resp_ready",
        owed.expr().and(!p.rsp_ready.expr()).eq(Expr::zeros(lanes)),
    );
    let waits = module.wire_of("waits", resp_valid.expr().and(!resp_ready.expr()));
    let taken_now = done.expr().or(owed.expr().and(p.rsp_ready.expr()));
    let taken_now = module.wire_of("done_now", taken_now);
    module.assign(
        &done_d,
        Expr::mux(waits.expr(), taken_now.expr(), Expr::zeros(lanes)),
    );

    // The pipeline.
    let mut inputs: Vec<(String, Expr)> = vec![
        ("req_valid_i".into(), p.valid.expr().reduce_or()),
        ("req_write_i".into(), write.expr()),
        ("req_mask_i".into(), take.expr()),
        ("req_addr_i".into(), p.addr.expr()),
        ("req_wdata_i".into(), p.data.expr()),
        ("req_be_i".into(), p.byteen.expr()),
        ("fill_valid_i".into(), Expr::zeros(1)),
        ("fill_mask_i".into(), Expr::zeros(1)),
        ("fill_addr_i".into(), Expr::zeros(n)),
        ("fill_data_i".into(), Expr::zeros(w)),
        ("fill_be_i".into(), Expr::zeros(bytes)),
        ("resp_ready_i".into(), resp_ready.expr()),
        (
            "req_meta_i".into(),
            Expr::concat(vec![p.tag.expr(), reading]),
        ),
    ];
    inputs.extend(cfg);
    let out = module.instantiate(
        pipe,
        "pipe",
        inputs
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect(),
    );
    let free = out["req_ready_o"].expr();
    module.assign(&resp_valid, out["resp_valid_o"].expr());
    module.assign(&resp_meta, out["resp_meta_o"].expr());
    module.sink_unused(
        "pipe",
        Expr::concat(vec![
            out["fill_ready_o"].expr(),
            out["resp_write_o"].expr(),
            out["cnt_fills_o"].expr(),
        ]),
    );
    let ready = module.wire_of(
        "taken",
        Expr::mux(free.clone(), take.expr(), Expr::zeros(lanes)),
    );
    module.assign(&p.ready, ready.expr());
    module.assign(&p.rsp_valid, owed.expr());
    module.assign(&p.rsp_data, out["resp_rdata_o"].expr());
    module.assign(&p.rsp_tag, resp_meta.slice(design.meta_bits() - 1, lanes));

    // Vortex's counts, registered before they add (VX_local_mem's and VX_stream_xbar's BUFFER).
    let reads_q = module.register("reads_q", ready.expr().and(!p.rw.expr()), 0);
    let writes_q = module.register("writes_q", ready.expr().and(p.rw.expr()), 0);
    let same_bank = &out["same_bank_o"];
    let collides: Vec<Expr> = (0..lanes)
        .map(|i| {
            if i + 1 == lanes {
                return Expr::constant(0, 1);
            }
            let pairs: Vec<Expr> = (i + 1..lanes)
                .map(|j| same_bank.bit(SmemDesign::pair(i, j)))
                .collect();
            let above = gather(&mut module, &format!("same_bank_above{i}"), pairs);
            // The higher lanes of lane i's bank, valid, lane i or they taken.
            let either = Expr::mux(
                ready.bit(i),
                Expr::ones(lanes - 1 - i),
                ready.slice(lanes - 1, i + 1),
            );
            let either = module.wire_of(&format!("either{i}"), either);
            let rivals = above
                .expr()
                .and(p.valid.slice(lanes - 1, i + 1))
                .and(either.expr());
            let rivals = module.wire_of(&format!("rivals{i}"), rivals);
            p.valid
                .bit(i)
                .and(rivals.expr().ne(Expr::zeros(lanes - 1 - i)))
        })
        .collect();
    let collisions = gather(&mut module, "collisions", collides);
    let collisions_q = module.register("collisions_q", collisions.expr(), 0);
    let stalled = module.wire_of("crsp_stalled", owed.expr().and(!p.rsp_ready.expr()));
    let repeats = match out.get("repeat_o") {
        Some(repeat) => {
            let accept = free.and(p.valid.expr().reduce_or()).and(!write.expr());
            let shown = Expr::mux(accept, repeat.expr(), Expr::zeros(lanes));
            Some(module.wire_of("repeats", shown))
        }
        None => None,
    };

    let cb = design.counter_bits();
    let add = |module: &mut Module, name: &str, bits: &Signal| -> Expr {
        let count = popcount(module, &format!("{name}_count"), bits);
        module
            .wire_of(&format!("{name}_inc"), resize(&count, cb))
            .expr()
    };
    let increments: Vec<Option<Expr>> = vec![
        Some(add(&mut module, "reads", &reads_q)),
        Some(add(&mut module, "writes", &writes_q)),
        Some(add(&mut module, "bank_stalls", &collisions_q)),
        Some(add(&mut module, "crsp_stalls", &stalled)),
        None,
        None,
        None,
        repeats
            .as_ref()
            .map(|r| add(&mut module, "broadcast_reads", r)),
    ];
    for (((name, _), port), increment) in COUNTERS.iter().zip(&p.counters).zip(increments) {
        let value = match (*name, increment) {
            ("accesses" | "bank_cycles" | "conflict_cycles", _) => {
                out[&format!("cnt_{name}_o")].expr()
            }
            (_, None) => Expr::zeros(cb),
            (_, Some(increment)) => {
                let (q, d) = module.state(&format!("cnt_{name}"), cb, 0);
                module.assign(&d, q.expr() + increment);
                q.expr()
            }
        };
        module.assign(port, value);
    }
    module
}
