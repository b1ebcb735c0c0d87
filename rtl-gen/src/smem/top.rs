//! The top module: ports, the pipeline and the instances.
//!
//! | stage | what | registers |
//! |---|---|---|
//! | accept | warp or fill port (round robin), every lane through `<top>_map`, the pairwise comparison of `<top>_conflict` | grant stage (`c_*`) |
//! | grant | `<top>_grant` picks the lanes of one pass; `<top>_bank_port` turns it into each bank's request | the SRAM's input (`<top>_bank`), pass register (`p_*`) |
//! | bank | the banks read or write | the SRAM's read data |
//! | return | each served lane takes its bank's word | response (`r_*`) |
//!
//! The grant stage issues one pass a cycle and takes the next access at the edge of its last
//! pass ("the next pass is the last" is registered, computed by `<top>_grant` from the lanes
//! left), so conflict-free accesses flow at one a cycle with a latency of three. A response
//! shown and not taken stalls every stage but the empty grant stage's intake. The timing
//! contract is `models::smem::cycle`.
//!
//! Behind the Vortex interface (`super::vortex`) this module is `<top>_pipe`: its
//! configuration `cfg_i` is the live value (the front end holds the register), an access
//! carries `req_meta_i` to its response (`resp_meta_o`), and it shows the comparisons of the
//! access presented (`same_bank_o`, `repeat_o`) for the front end's counters.

use super::conflict::column;
use super::design::SmemDesign;
use crate::rtl::wiring::{self, gather};
use crate::rtl::{Expr, Module, Signal};

/// The sub-modules the top instantiates.
pub struct Subs<'a> {
    /// `<top>_map`.
    pub map: &'a Module,
    /// `<top>_conflict`.
    pub conflict: &'a Module,
    /// `<top>_grant`.
    pub grant: &'a Module,
    /// `<top>_bank_port`.
    pub bank_port: &'a Module,
    /// `<top>_bank` (its ports).
    pub storage: &'a Module,
}

/// The lane-major field `i` (`width` bits) of `bus`.
fn lane(bus: &Signal, width: u32, i: u32) -> Expr {
    bus.slice((i + 1) * width - 1, i * width)
}

/// The top module's ports and the signals the pipeline uses.
struct Ports {
    req_valid: Signal,
    req_ready: Signal,
    req_write: Signal,
    req_mask: Signal,
    req_addr: Signal,
    req_wdata: Signal,
    req_be: Signal,
    fill_valid: Signal,
    fill_ready: Signal,
    fill_mask: Signal,
    fill_addr: Signal,
    fill_data: Signal,
    fill_be: Signal,
    resp_valid: Signal,
    resp_ready: Signal,
    resp_write: Signal,
    resp_rdata: Signal,
    /// The map's configuration: the write enable of the register and the value written, or
    /// (behind the Vortex interface) no enable and the live value.
    cfg: Option<(Option<Signal>, Signal)>,
    perm: Vec<(String, Signal)>,
    counters: [Signal; 4],
    /// `req_meta_i` and `resp_meta_o`.
    meta: Option<(Signal, Signal)>,
    /// `same_bank_o` and, with the broadcast, `repeat_o`.
    probes: Option<(Signal, Option<Signal>)>,
}

fn declare(module: &mut Module, design: &SmemDesign, map: &Module) -> Ports {
    let s = design.shape();
    let (lanes, n, w, bytes) = (s.lanes(), s.addr_bits(), s.word_bits(), s.word_bytes());
    let f = design.fill_words();
    let req_valid = module.input("req_valid_i", 1, "A warp access is presented.");
    let req_ready = module.output(
        "req_ready_o",
        1,
        "The access is taken at the rising edge (depends on fill_valid_i, not on req_valid_i).",
    );
    let req_write = module.input("req_write_i", 1, "The access writes (else reads).");
    let req_mask = module.input("req_mask_i", lanes, "Active lanes, lane 0 in bit 0.");
    let req_addr = module.input("req_addr_i", lanes * n, "Word address of each lane.");
    let req_wdata = module.input("req_wdata_i", lanes * w, "Data of each lane (writes).");
    let req_be = module.input(
        "req_be_i",
        lanes * bytes,
        "Byte enables of each lane (writes).",
    );
    let fill_valid = module.input("fill_valid_i", 1, "A fill beat (a write) is presented.");
    let fill_ready = module.output(
        "fill_ready_o",
        1,
        "The beat is taken at the rising edge (depends on req_valid_i, not on fill_valid_i).",
    );
    let fill_mask = module.input("fill_mask_i", f, "Words of the beat written.");
    let fill_addr = module.input("fill_addr_i", f * n, "Word address of each word.");
    let fill_data = module.input("fill_data_i", f * w, "Data of each word.");
    let fill_be = module.input("fill_be_i", f * bytes, "Byte enables of each word.");
    let resp_valid = module.output(
        "resp_valid_o",
        1,
        "A response: the warp accesses' in order, one each.",
    );
    let resp_ready = module.input(
        "resp_ready_i",
        1,
        "The response is taken at the rising edge.",
    );
    let resp_write = module.output("resp_write_o", 1, "The response acknowledges a write.");
    let resp_rdata = module.output(
        "resp_rdata_o",
        lanes * w,
        "Data read by each lane (zero for inactive lanes, writes and while no response shows).",
    );
    let vortex = design.vortex_tag_bits().is_some();
    let cfg = design.configurable().then(|| {
        if vortex {
            let live = "The map configuration (the front end's register): the hasher's fields, \
                        then the row offsets.";
            return (None, module.input("cfg_i", design.cfg_width(), live));
        }
        (
            Some(module.input(
                "cfg_we_i",
                1,
                "Write the map configuration: it maps the accesses taken after this edge.",
            )),
            module.input(
                "cfg_i",
                design.cfg_width(),
                "Map configuration: the hasher's fields, then the row offsets (see the manifest).",
            ),
        )
    });
    let perm = map
        .ports()
        .iter()
        .filter(|p| p.signal().name().starts_with("perm_"))
        .map(|p| {
            let name = p.signal().name().to_string();
            let doc = match name.as_str() {
                "perm_we_i" => {
                    "Write entry perm_idx_i of the RAP table (in every lane's map): \
                                it maps the accesses taken after this edge."
                }
                "perm_idx_i" => "Table entry written: a row within the tile.",
                _ => "Shift written, 0 to banks - 1.",
            };
            let signal = module.input(&name, p.signal().width(), doc);
            (name, signal)
        })
        .collect();
    let cb = design.counter_bits();
    let counters = [
        ("cnt_accesses_o", "Warp accesses served (wraps)."),
        ("cnt_fills_o", "Fill beats served (wraps)."),
        ("cnt_bank_cycles_o", "Passes that used the banks (wraps)."),
        (
            "cnt_conflict_cycles_o",
            "Passes after the first of an access: cycles lost to bank conflicts (wraps).",
        ),
    ]
    .map(|(name, doc)| module.output(name, cb, doc));
    let meta = vortex.then(|| {
        let bits = design.meta_bits();
        (
            module.input(
                "req_meta_i",
                bits,
                "Carried with the access to its response (the front end's lanes and tags).",
            ),
            module.output(
                "resp_meta_o",
                bits,
                "req_meta_i of the access whose response shows (held otherwise).",
            ),
        )
    });
    let probes = vortex.then(|| {
        let same_bank = module.output(
            "same_bank_o",
            design.pairs(),
            "Per lane pair of the access presented (any mask), same bank under the map.",
        );
        let repeat = design.broadcast().then(|| {
            module.output(
                "repeat_o",
                lanes,
                "Active lanes of the access presented whose word a lower active lane asks for.",
            )
        });
        (same_bank, repeat)
    });
    Ports {
        req_valid,
        req_ready,
        req_write,
        req_mask,
        req_addr,
        req_wdata,
        req_be,
        fill_valid,
        fill_ready,
        fill_mask,
        fill_addr,
        fill_data,
        fill_be,
        resp_valid,
        resp_ready,
        resp_write,
        resp_rdata,
        cfg,
        perm,
        counters,
        meta,
        probes,
    }
}

/// `req` as the lanes see it: the fill port's fields (`fill`) in the low lanes when
/// `sel_fill`, the warp port's otherwise; the lanes above the fill port's take `upper`.
fn lanes_in(
    module: &mut Module,
    name: &str,
    sel_fill: &Signal,
    (fill, req): (&Signal, &Signal),
    upper: impl FnOnce() -> Expr,
) -> Signal {
    let low = fill.width();
    let wire = module.wire(name, req.width());
    let picked = Expr::mux(sel_fill.expr(), fill.expr(), req.slice(low - 1, 0));
    if low == req.width() {
        module.assign(&wire, picked);
    } else {
        module.assign_range(&wire, low - 1, 0, picked);
        module.assign_range(&wire, req.width() - 1, low, upper());
    }
    wire
}

/// Builds the top module.
pub fn build(design: &SmemDesign, subs: &Subs, header: Vec<String>) -> Module {
    let s = design.shape();
    let (lanes, m, r) = (s.lanes(), s.bank_bits(), s.row_bits());
    let (n, w, bytes) = (s.addr_bits(), s.word_bits(), s.word_bytes());
    let mut module = Module::new(design.pipeline_name()).with_header(header);
    module.add_clock();
    let p = declare(&mut module, design, subs.map);

    // Handshakes and stalls.
    let (c_valid, c_valid_d) = module.state("c_valid", 1, 0);
    let (c_first, c_first_d) = module.state("c_first", 1, 0);
    let (c_last, c_last_d) = module.state("c_last", 1, 0);
    let (c_pending, c_pending_d) = module.state("c_pending", lanes, 0);
    let (r_valid, r_valid_d) = module.state("r_valid", 1, 0);
    let (last_warp, last_warp_d) = module.state("last_warp", 1, 0);
    let stall = module.wire_of("stall", r_valid.expr().and(!p.resp_ready.expr()));
    let issue = module.wire_of("issue", c_valid.expr().and(!stall.expr()));
    let free = module.wire_of(
        "grant_free",
        (!c_valid.expr()).or(c_last.expr().and(!stall.expr())),
    );
    let fill_first = p.fill_valid.expr().and(last_warp.expr());
    module.assign(&p.req_ready, free.expr().and(!fill_first));
    let warp_first = p.req_valid.expr().and(!last_warp.expr());
    module.assign(&p.fill_ready, free.expr().and(!warp_first.clone()));
    let take_req = module.wire_of("take_req", p.req_valid.expr().and(p.req_ready.expr()));
    let take_fill = module.wire_of("take_fill", p.fill_valid.expr().and(p.fill_ready.expr()));
    let accept = module.wire_of("accept", take_req.expr().or(take_fill.expr()));
    let sel_fill = module.wire_of("sel_fill", p.fill_valid.expr().and(!warp_first));
    module.assign(
        &last_warp_d,
        Expr::mux(accept.expr(), take_req.expr(), last_warp.expr()),
    );

    // The lanes of the access presented: the fill port's words in the low lanes.
    let f = design.fill_words();
    let above = |bus: &Signal, width: u32| bus.slice(lanes * width - 1, f * width);
    let in_mask = lanes_in(
        &mut module,
        "in_mask",
        &sel_fill,
        (&p.fill_mask, &p.req_mask),
        || {
            Expr::mux(
                sel_fill.expr(),
                Expr::zeros(lanes - f),
                above(&p.req_mask, 1),
            )
        },
    );
    let in_addr = lanes_in(
        &mut module,
        "in_addr",
        &sel_fill,
        (&p.fill_addr, &p.req_addr),
        || above(&p.req_addr, n),
    );
    let in_wdata = lanes_in(
        &mut module,
        "in_wdata",
        &sel_fill,
        (&p.fill_data, &p.req_wdata),
        || above(&p.req_wdata, w),
    );
    let in_be = lanes_in(
        &mut module,
        "in_be",
        &sel_fill,
        (&p.fill_be, &p.req_be),
        || above(&p.req_be, bytes),
    );
    let in_write = module.wire_of("in_write", sel_fill.expr().or(p.req_write.expr()));

    // The map configuration register.
    let cfg_q = p.cfg.as_ref().map(|(we, value)| {
        let Some(we) = we else {
            return value.clone();
        };
        let d = module.wire("cfg_d", value.width());
        let index = design
            .software_index()
            .unwrap_or_else(|| unreachable!("a configurable map is a hash"));
        let q = module.register_reset_to("cfg_q", d.expr(), design.cfg_value(&index));
        module.assign(&d, Expr::mux(we.expr(), value.expr(), q.expr()));
        q
    });

    // Every lane through the map.
    let mut banks = Vec::new();
    let mut rows = Vec::new();
    for i in 0..lanes {
        let mut inputs = vec![("addr_i", lane(&in_addr, n, i))];
        if let Some(cfg) = &cfg_q {
            inputs.push(("cfg_i", cfg.expr()));
        }
        inputs.extend(p.perm.iter().map(|(name, s)| (name.as_str(), s.expr())));
        let out = module.instantiate(subs.map, &format!("map{i}"), inputs);
        banks.push(out["bank_o"].clone());
        rows.push(out["row_o"].clone());
    }
    let in_bank = gather(
        &mut module,
        "in_bank",
        banks.iter().map(Signal::expr).collect(),
    );
    let in_row = gather(
        &mut module,
        "in_row",
        rows.iter().map(Signal::expr).collect(),
    );
    let cf = module.instantiate(
        subs.conflict,
        "conflict",
        vec![
            ("mask_i", in_mask.expr()),
            ("bank_i", in_bank.expr()),
            ("row_i", in_row.expr()),
            ("be_i", in_be.expr()),
        ],
    );
    if let Some((same_bank, repeat)) = &p.probes {
        module.assign(same_bank, cf["same_bank_o"].expr());
        if let Some(repeat) = repeat {
            module.assign_bit(repeat, 0, Expr::constant(0, 1));
            for j in 1..lanes {
                let lower = in_mask.slice(j - 1, 0).and(column(&cf["same_word_o"], j));
                let value = in_mask.bit(j).and(lower.ne(Expr::zeros(j)));
                module.assign_bit(repeat, j, value);
            }
        }
    }
    if !design.broadcast() {
        module.sink_unused("same_word", cf["same_word_o"].expr());
    }
    let groups = design.groups() > 1;
    let in_merge = groups.then(|| {
        module.wire_of(
            "in_merge",
            (!in_write.expr()).and(cf["clash_free_o"].expr()),
        )
    });
    let in_last = match &in_merge {
        Some(merge) => cf["one_pass_o"].expr().or(merge.expr()),
        None => {
            module.sink_unused("clash_free", cf["clash_free_o"].expr());
            cf["one_pass_o"].expr()
        }
    };

    // The grant stage: the accepted access, its pairwise comparisons and its pending lanes.
    let c_write = module.register_enabled("c_write_q", in_write.expr(), 0, accept.expr());
    let c_fill = module.register_enabled("c_fill_q", sel_fill.expr(), 0, accept.expr());
    let c_merge = in_merge
        .as_ref()
        .map(|merge| module.register_enabled("c_merge_q", merge.expr(), 0, accept.expr()));
    let lane_regs: Vec<Signal> = (0..lanes)
        .map(|i| {
            let d = Expr::concat(vec![
                lane(&cf["be_o"], bytes, i),
                lane(&in_wdata, w, i),
                rows[i as usize].expr(),
                banks[i as usize].expr(),
            ]);
            module.register_enabled(&format!("c_lane{i}_q"), d, 0, accept.expr())
        })
        .collect();
    let field = |lo: u32, width: u32| -> Vec<Expr> {
        lane_regs
            .iter()
            .map(|q| q.slice(lo + width - 1, lo))
            .collect()
    };
    let c_bank = gather(&mut module, "c_bank", field(0, m));
    let c_row = gather(&mut module, "c_row", field(m, r));
    let c_wdata = gather(&mut module, "c_wdata", field(m + r, w));
    let c_be = gather(&mut module, "c_be", field(m + r + w, bytes));
    let c_same_bank = wiring::register(
        &mut module,
        "c_same_bank",
        &cf["same_bank_o"],
        accept.expr(),
    );
    let mut grant_inputs = vec![("pending_i", c_pending.expr())];
    if let Some(merge) = &c_merge {
        grant_inputs.push(("merge_i", merge.expr()));
    }
    grant_inputs.push(("same_bank_i", c_same_bank.expr()));
    if design.broadcast() {
        let c_same_word = wiring::register(
            &mut module,
            "c_same_word",
            &cf["same_word_o"],
            accept.expr(),
        );
        grant_inputs.push(("same_word_i", c_same_word.expr()));
    }
    let g = module.instantiate(subs.grant, "grant", grant_inputs);
    let served = &g["served_o"];
    module.assign(
        &c_valid_d,
        accept
            .expr()
            .or(c_valid.expr().and(!(issue.expr().and(c_last.expr())))),
    );
    module.assign(
        &c_first_d,
        accept.expr().or(c_first.expr().and(!issue.expr())),
    );
    let next_last = Expr::mux(issue.expr(), g["rest_one_pass_o"].expr(), c_last.expr());
    module.assign(&c_last_d, Expr::mux(accept.expr(), in_last, next_last));
    let left = Expr::mux(
        issue.expr(),
        c_pending.expr().and(!served.expr()),
        c_pending.expr(),
    );
    module.assign(&c_pending_d, Expr::mux(accept.expr(), in_mask.expr(), left));

    // The banks.
    let mut rdata = Vec::new();
    for b in 0..s.banks() {
        let port = module.instantiate(
            subs.bank_port,
            &format!("port{b}"),
            vec![
                ("index_i", Expr::constant(u64::from(b), m)),
                ("served_i", served.expr()),
                ("write_i", c_write.expr()),
                ("bank_i", c_bank.expr()),
                ("row_i", c_row.expr()),
                ("wdata_i", c_wdata.expr()),
                ("be_i", c_be.expr()),
            ],
        );
        let bank = module.instantiate(
            subs.storage,
            &format!("bank{b}"),
            vec![
                ("ce_i", port["en_o"].expr().and(issue.expr())),
                ("we_i", port["we_o"].expr()),
                ("addr_i", port["addr_o"].expr()),
                ("wdata_i", port["wdata_o"].expr()),
                ("be_i", port["be_o"].expr()),
            ],
        );
        rdata.push(bank["rdata_o"].expr());
    }

    // The pass register.
    let go = !stall.expr();
    let reg =
        |module: &mut Module, name: &str, d: Expr| module.register_enabled(name, d, 0, go.clone());
    let p_valid = reg(&mut module, "p_valid_q", c_valid.expr());
    let p_first = reg(&mut module, "p_first_q", c_first.expr());
    let p_last = reg(&mut module, "p_last_q", c_last.expr());
    let p_write = reg(&mut module, "p_write_q", c_write.expr());
    let p_fill = reg(&mut module, "p_fill_q", c_fill.expr());
    let p_any = reg(&mut module, "p_any_q", g["any_o"].expr());
    let p_served = reg(&mut module, "p_served_q", served.expr());
    let p_bank = wiring::register(&mut module, "p_bank", &c_bank, go.clone());

    // The return crossbar and the response.
    let all_rdata = gather(&mut module, "bank_rdata", rdata);
    let retire = module.wire_of("retire", go.clone().and(p_valid.expr()));

    // The access's meta data, carried to its response.
    if let Some((req_meta, resp_meta)) = &p.meta {
        let c_meta = wiring::register(&mut module, "c_meta", req_meta, accept.expr());
        let p_meta = wiring::register(&mut module, "p_meta", &c_meta, go.clone());
        let load = retire.expr().and(p_last.expr());
        let r_meta = wiring::register(&mut module, "r_meta", &p_meta, load);
        module.assign(resp_meta, r_meta.expr());
    }
    let log_w = w.trailing_zeros();
    for i in 0..lanes {
        let amount = Expr::concat(vec![lane(&p_bank, m, i), Expr::zeros(log_w)]);
        let shifted = module.wire_of(&format!("lane{i}_rdata"), all_rdata.expr() >> amount);
        let reads = p_served.bit(i).and(!p_write.expr());
        let d = Expr::mux(reads, shifted.slice(w - 1, 0), Expr::zeros(w));
        let enable = retire.expr().and(p_first.expr().or(p_served.bit(i)));
        module.sink_unused(
            &format!("lane{i}_rdata"),
            shifted.slice(s.banks() * w - 1, w),
        );
        let q = module.register_enabled(&format!("r_data{i}_q"), d, 0, enable);
        let shown = Expr::mux(r_valid.expr(), q.expr(), Expr::zeros(w));
        module.assign_range(&p.resp_rdata, (i + 1) * w - 1, i * w, shown);
    }
    let completes = p_valid.expr().and(p_last.expr()).and(!p_fill.expr());
    module.assign(&r_valid_d, stall.expr().or(completes));
    let r_write = module.register_enabled(
        "r_write_q",
        p_write.expr(),
        0,
        retire.expr().and(p_last.expr()),
    );
    module.assign(&p.resp_valid, r_valid.expr());
    module.assign(&p.resp_write, r_valid.expr().and(r_write.expr()));

    // The counters, as slots leave the pass register.
    let cb = design.counter_bits();
    let counts = [
        ("cnt_accesses", p_first.expr().and(!p_fill.expr())),
        ("cnt_fills", p_first.expr().and(p_fill.expr())),
        ("cnt_bank_cycles", p_any.expr()),
        ("cnt_conflict_cycles", !p_first.expr()),
    ];
    for ((name, when), out) in counts.into_iter().zip(&p.counters) {
        let d = module.wire(&format!("{name}_d"), cb);
        let q = module.register_enabled(&format!("{name}_q"), d.expr(), 0, retire.expr().and(when));
        module.assign(&d, q.expr() + Expr::constant(1, cb));
        module.assign(out, q.expr());
    }
    module
}
