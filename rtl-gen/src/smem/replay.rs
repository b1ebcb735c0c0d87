//! A kernel's warp accesses run through the RTL, cycles counted by the RTL itself, beside the
//! cycle model's prediction.
//!
//! The replay testbench (`tb_<top>_replay`) is closed-loop: it fills every word the traces
//! touch through the fill port, then for each kernel presents its accesses back to back as
//! loads (a trace's label is not interpreted; lane `i` takes the line's `i`-th address),
//! holding each until `req_ready_o` takes it, waits for every response (checking each one's
//! data), and writes the kernel's cycles (from presenting its first access to its last
//! response, both included) and the growth of the bank-cycle and conflict-cycle counters.
//! Nothing in it comes from the model but the expected data: when the RTL is ready, and how
//! many passes it takes, is the RTL's. The model runs the same protocol on
//! `models::smem::cycle` for its prediction.

use super::design::{MapSpec, SmemDesign};
use super::vectors::SmemPlan;
use crate::block::Written;
use crate::hash::search;
use crate::limits;
use crate::manifest::Manifest;
use crate::output::{write_file, Staging};
use crate::Error;
use models::search::Trace;
use models::smem::cycle::{CycleModel, Inputs, Outputs};
use models::smem::{Access, Lane, Map};
use models::software::SoftwareIndex;
use models::Geometry;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use testbenches::{simulator_by_name, Bits, Testbench};

/// One kernel to replay: its name, its trace, and optionally a map to program before it
/// (with the `cfg_i` value that programs it).
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The kernel's name (the trace file's stem).
    pub name: String,
    /// Its warp accesses.
    pub trace: Trace,
    /// A map written into the configuration register before the kernel.
    pub program: Option<(Map, Bits)>,
}

/// What one kernel took, measured and predicted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The kernel.
    pub kernel: String,
    /// Warp accesses.
    pub accesses: u64,
    /// Cycles from presenting the first access to the last response, both included: the RTL's.
    pub rtl_cycles: u64,
    /// The same, predicted by the cycle model.
    pub model_cycles: u64,
    /// Growth of the RTL's bank-cycle counter.
    pub rtl_bank_cycles: u64,
    /// Sum of the accesses' passes (the congestion model).
    pub model_bank_cycles: u64,
    /// Growth of the RTL's conflict-cycle counter.
    pub rtl_conflict_cycles: u64,
    /// Predicted conflict cycles.
    pub model_conflict_cycles: u64,
}

impl Row {
    /// Whether the RTL's numbers equal the model's.
    pub fn matches(&self) -> bool {
        self.rtl_cycles == self.model_cycles
            && self.rtl_bank_cycles == self.model_bank_cycles
            && self.rtl_conflict_cycles == self.model_conflict_cycles
    }
}

/// Idle cycles between the last fill beat and the first kernel: the pipeline's depth and one,
/// so that no beat is left in it (or still to be counted) when a kernel starts.
const SETTLE: u32 = 4;

/// A deterministic word for address `addr` (SplitMix64), so a read shows which word it got.
fn word_of(addr: u64, mask: u64) -> u64 {
    let mut z = addr.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) & mask
}

/// The stimulus of a replay: fill beats, the kernels' accesses, the expected data and the
/// model's prediction.
struct Plan {
    fills: Vec<Access>,
    kernels: Vec<Vec<Access>>,
    expected: Vec<Vec<u64>>,
    predicted: Vec<(u64, u64, u64)>,
    cycles: u64,
}

/// Runs the replay protocol on the cycle model.
fn plan(design: &SmemDesign, kernels: &[Kernel]) -> Plan {
    let shape = design.shape();
    let reads: Vec<Vec<Access>> = kernels
        .iter()
        .map(|k| {
            k.trace
                .accesses
                .iter()
                .map(|a| Access::read(&a.addresses))
                .collect()
        })
        .collect();
    let mut touched: Vec<u64> = reads
        .iter()
        .flatten()
        .flat_map(|a| a.lanes.iter().flatten().map(|l| l.addr))
        .collect();
    touched.sort_unstable();
    touched.dedup();
    let be = (models::geometry::low_mask(shape.word_bytes()) & 0xff) as u8;
    let fills: Vec<Access> = touched
        .chunks(design.fill_words() as usize)
        .map(|chunk| Access {
            write: true,
            lanes: chunk
                .iter()
                .map(|&addr| {
                    Some(Lane {
                        addr,
                        data: word_of(addr, shape.word_mask()),
                        be,
                    })
                })
                .collect(),
        })
        .collect();
    let mut model = design.cycle_model();
    let mut cycle = 0u64;
    // One cycle of the protocol: `resp_ready_i` is always high; returns the cycle's number.
    let mut step = |model: &mut CycleModel, input: Inputs| -> (u64, Outputs) {
        let at = cycle;
        cycle += 1;
        let out = model.step(&Inputs {
            resp_ready: true,
            ..input
        });
        (at, out)
    };
    for beat in &fills {
        let fill = Some(beat.clone());
        while !step(
            &mut model,
            Inputs {
                fill: fill.clone(),
                ..Inputs::default()
            },
        )
        .1
        .fill_ready
        {}
    }
    for _ in 0..SETTLE {
        step(&mut model, Inputs::default());
    }
    let mut expected = Vec::new();
    let mut predicted = Vec::new();
    let mut total = 0usize;
    for (kernel, accesses) in kernels.iter().zip(&reads) {
        if let Some((map, _)) = &kernel.program {
            let new_map = Some(map.clone());
            step(
                &mut model,
                Inputs {
                    new_map,
                    ..Inputs::default()
                },
            );
        }
        total += accesses.len();
        let mut first: Option<(u64, u64, u64)> = None;
        let mut last = (0, 0, 0);
        let mut observe = |(at, out): (u64, Outputs), expected: &mut Vec<Vec<u64>>| {
            let c = out.counters;
            first.get_or_insert((at, c.bank_cycles, c.conflict_cycles));
            if let Some(r) = out.response {
                expected.push(r.data);
                last = (at, c.bank_cycles, c.conflict_cycles);
            }
            out.req_ready
        };
        for access in accesses {
            let request = Some(access.clone());
            while !observe(
                step(
                    &mut model,
                    Inputs {
                        request: request.clone(),
                        ..Inputs::default()
                    },
                ),
                &mut expected,
            ) {}
        }
        while expected.len() < total {
            observe(step(&mut model, Inputs::default()), &mut expected);
        }
        let (start, bank, conflict) = first.unwrap_or_else(|| unreachable!("a trace has accesses"));
        predicted.push((last.0 - start + 1, last.1 - bank, last.2 - conflict));
    }
    Plan {
        fills,
        kernels: reads,
        expected,
        predicted,
        cycles: cycle,
    }
}

/// The ports of `top` but its clock and reset (the testbench drives those itself).
fn data_ports(top: &crate::rtl::Module) -> impl Iterator<Item = &crate::rtl::Port> {
    top.ports()
        .iter()
        .filter(|p| p.role() == crate::rtl::PortRole::Data)
}

/// `{N{1'b0}}`.
fn zeros(width: u32) -> String {
    format!("{{{width}{{1'b0}}}}")
}

/// The closed-loop testbench `tb_<top>_replay` (Verilog-2005; lint-clean under Verilator
/// `-Wall`).
fn testbench(design: &SmemDesign, top: &crate::rtl::Module, plan: &Plan, program: bool) -> String {
    use crate::rtl::Direction;
    let s = design.shape();
    let name = top.name();
    let (lanes, n, w) = (s.lanes(), s.addr_bits(), s.word_bits());
    let f = design.fill_words();
    let fill_w = f * (1 + n + w + s.word_bytes());
    let acc_w = 32 + lanes + lanes * n;
    let cb = design.counter_bits();
    let cfg_w = design.cfg_width();
    let limit = 2 * plan.cycles + 1000;
    let mut v = String::new();
    let _ = writeln!(
        v,
        "// Replay testbench for `{name}`: fills every word the kernels read through the fill\n\
         // port, then presents each kernel's accesses back to back, checks every response's data\n\
         // and writes per kernel its cycles and counter growth to {name}.replay.txt.\n\
         // Generated by {}; do not edit.\n\
         `timescale 1ns/1ps\n\n\
         module tb_{name}_replay;\n\
         \x20 localparam integer N_FILL = {};\n\
         \x20 localparam integer N_ACC = {};\n\
         \x20 localparam integer N_KERNELS = {};\n\
         \x20 localparam integer LIMIT = {limit};\n\n\
         \x20 reg [{}:0] fill_mem [0:N_FILL-1];\n\
         \x20 reg [{}:0] acc_mem [0:N_ACC-1];\n\
         \x20 reg [{}:0] exp_mem [0:N_ACC-1];",
        crate::manifest::generator(),
        plan.fills.len(),
        plan.expected.len(),
        plan.kernels.len(),
        fill_w - 1,
        acc_w - 1,
        lanes * w - 1,
    );
    if program {
        let _ = writeln!(v, "  reg [{}:0] cfg_mem [0:N_KERNELS-1];", cfg_w - 1);
    }
    v.push_str("\n  reg tb_clk = 1'b0;\n  reg tb_rst_n = 1'b0;\n");
    for p in data_ports(top) {
        let kind = if p.direction() == Direction::Input {
            "reg "
        } else {
            "wire"
        };
        let _ = writeln!(
            v,
            "  {kind} [{}:0] {};",
            p.signal().width() - 1,
            p.signal().name()
        );
    }
    let _ = writeln!(
        v,
        "  wire unused_outputs = ^{{resp_write_o, cnt_accesses_o, cnt_fills_o}};\n\n\
         \x20 integer tb_cycle = 0;\n\
         \x20 integer tb_resp = 0;\n\
         \x20 integer tb_passed = 0;\n\
         \x20 integer tb_failed = 0;\n\
         \x20 integer tb_last = 0;\n\
         \x20 integer tb_start;\n\
         \x20 integer tb_i;\n\
         \x20 integer tb_k;\n\
         \x20 integer tb_file;\n\
         \x20 reg [31:0] unused_kernel;\n\
         \x20 reg [{cb1}:0] tb_bank0;\n\
         \x20 reg [{cb1}:0] tb_conflict0;\n\
         \x20 reg [{cb1}:0] tb_bank_grew;\n\
         \x20 reg [{cb1}:0] tb_conflict_grew;\n",
        cb1 = cb - 1
    );
    let conns: Vec<String> = [
        "    .clk_i(tb_clk)".to_string(),
        "    .rst_ni(tb_rst_n)".into(),
    ]
    .into_iter()
    .chain(data_ports(top).map(|p| format!("    .{0}({0})", p.signal().name())))
    .collect();
    let _ = writeln!(v, "  {name} u_dut (\n{}\n  );\n", conns.join(",\n"));
    let _ = writeln!(
        v,
        "  initial forever #5 tb_clk = ~tb_clk;\n\n\
         \x20 always @(posedge tb_clk) begin\n\
         \x20   tb_cycle <= tb_cycle + 1;\n\
         \x20   if (tb_cycle > LIMIT) begin\n\
         \x20     $display(\"ERROR: tb_{name}_replay: no progress after %0d cycles\", LIMIT);\n\
         \x20     $finish;\n\
         \x20   end\n\
         \x20 end\n\n\
         \x20 // Every response, checked between the edges.\n\
         \x20 always @(negedge tb_clk) begin\n\
         \x20   if (resp_valid_o) begin\n\
         \x20     if (tb_resp >= N_ACC || resp_rdata_o !== exp_mem[tb_resp]) begin\n\
         \x20       tb_failed <= tb_failed + 1;\n\
         \x20       if (tb_failed < 10) begin\n\
         \x20         $display(\"MISMATCH response %0d got=%h\", tb_resp, resp_rdata_o);\n\
         \x20       end\n\
         \x20     end else begin\n\
         \x20       tb_passed <= tb_passed + 1;\n\
         \x20     end\n\
         \x20     tb_last <= tb_cycle;\n\
         \x20     tb_resp <= tb_resp + 1;\n\
         \x20   end\n\
         \x20 end\n"
    );
    v.push_str("  initial begin\n");
    for p in data_ports(top).filter(|p| p.direction() == Direction::Input) {
        let _ = writeln!(
            v,
            "    {} = {};",
            p.signal().name(),
            zeros(p.signal().width())
        );
    }
    let _ = writeln!(
        v,
        "    resp_ready_i = 1'b1;\n\
         \x20   $readmemh(\"{name}.fill.hex\", fill_mem);\n\
         \x20   $readmemh(\"{name}.access.hex\", acc_mem);\n\
         \x20   $readmemh(\"{name}.expect.hex\", exp_mem);"
    );
    if program {
        let _ = writeln!(v, "    $readmemh(\"{name}.cfg.hex\", cfg_mem);");
    }
    let _ = writeln!(
        v,
        "    tb_file = $fopen(\"{name}.replay.txt\", \"w\");\n\
         \x20   repeat (2) @(negedge tb_clk);\n\
         \x20   tb_rst_n = 1'b1;\n\
         \x20   // The words the kernels read, through the fill port.\n\
         \x20   fill_valid_i = 1'b1;\n\
         \x20   for (tb_i = 0; tb_i < N_FILL; tb_i = tb_i + 1) begin\n\
         \x20     {{fill_mask_i, fill_addr_i, fill_data_i, fill_be_i}} = fill_mem[tb_i];\n\
         \x20     #1;\n\
         \x20     while (!fill_ready_o) begin\n\
         \x20       @(negedge tb_clk);\n\
         \x20       #1;\n\
         \x20     end\n\
         \x20     @(negedge tb_clk);\n\
         \x20   end\n\
         \x20   fill_valid_i = 1'b0;\n\
         \x20   // Idle until the last beat has left the pipeline (and the counters).\n\
         \x20   repeat ({settle}) @(negedge tb_clk);\n\
         \x20   tb_i = 0;\n\
         \x20   for (tb_k = 0; tb_k < N_KERNELS; tb_k = tb_k + 1) begin",
        settle = SETTLE,
    );
    if program {
        v.push_str(
            "      cfg_we_i = 1'b1;\n      cfg_i = cfg_mem[tb_k];\n      @(negedge tb_clk);\n      cfg_we_i = 1'b0;\n",
        );
    }
    let _ = writeln!(
        v,
        "      tb_start = tb_cycle;\n\
         \x20     tb_bank0 = cnt_bank_cycles_o;\n\
         \x20     tb_conflict0 = cnt_conflict_cycles_o;\n\
         \x20     req_valid_i = 1'b1;\n\
         \x20     while (tb_i < N_ACC && acc_mem[tb_i][{k_msb}:{k_lsb}] == tb_k) begin\n\
         \x20       {{unused_kernel, req_mask_i, req_addr_i}} = acc_mem[tb_i];\n\
         \x20       #1;\n\
         \x20       if (req_ready_o) begin\n\
         \x20         tb_i = tb_i + 1;\n\
         \x20       end\n\
         \x20       @(negedge tb_clk);\n\
         \x20     end\n\
         \x20     req_valid_i = 1'b0;\n\
         \x20     while (tb_resp < tb_i) begin\n\
         \x20       @(negedge tb_clk);\n\
         \x20     end\n\
         \x20     tb_bank_grew = cnt_bank_cycles_o - tb_bank0;\n\
         \x20     tb_conflict_grew = cnt_conflict_cycles_o - tb_conflict0;\n\
         \x20     $fdisplay(tb_file, \"kernel %0d cycles %0d bank_cycles %0d conflict_cycles %0d\",\n\
         \x20               tb_k, tb_last - tb_start + 1, tb_bank_grew, tb_conflict_grew);\n\
         \x20   end\n\
         \x20   $fclose(tb_file);\n\
         \x20   $display(\"{name}_replay: %0d passed, %0d failed\", tb_passed, tb_failed);\n\
         \x20   if (tb_failed != 0) begin\n\
         \x20     $fatal(1, \"tb_{name}_replay: %0d responses differ from the model\", tb_failed);\n\
         \x20   end\n\
         \x20   $finish;\n\
         \x20 end\n\
         endmodule",
        k_msb = acc_w - 1,
        k_lsb = acc_w - 32,
    );
    v
}

/// The hex lines of a replay's stimulus files.
fn hex(lines: impl Iterator<Item = Bits>) -> String {
    lines.map(|b| b.to_hex() + "\n").collect()
}

/// Fields `values[i]` of `width` bits at `i * width`.
fn packed(values: impl Iterator<Item = u64>, count: u32, width: u32) -> Bits {
    let mut b = Bits::zero((count * width) as usize);
    for (i, v) in values.enumerate() {
        b.set_field(i * width as usize, width as usize, v);
    }
    b
}

/// What `rtl-gen smem --replay` asks for: the trace files, whether to program each kernel's
/// best map first, and the simulator.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Kernel traces (docs/TRACE_FORMAT.md); none: no replay.
    pub traces: &'a [PathBuf],
    /// Before each trace, program the best configuration `rtl-gen search` finds for it, of the
    /// map's kind (a `--configurable` hash map only).
    pub search: bool,
    /// The simulator's name (`verilator`, `iverilog`).
    pub simulator: &'a str,
}

/// Generates the memory's block folder under `out` and, when `request` names traces, replays
/// them through it: one row per kernel. Every input (the flags, the traces, the size of any
/// search) is checked before anything is written.
pub fn generate(
    design: &SmemDesign,
    plan: &SmemPlan,
    command: &str,
    out: &Path,
    request: &Request,
) -> Result<(Written, Vec<Row>), Error> {
    let refuse = |message: &str| Error::BadFlag {
        flag: "--replay-search",
        value: "given".into(),
        message: message.into(),
    };
    if request.search && !design.configurable() {
        return Err(refuse(
            "programs a --configurable hash map: add --map hash --configurable",
        ));
    }
    if request.search && request.traces.is_empty() {
        return Err(refuse("needs --replay TRACE"));
    }
    if design.vortex_tag_bits().is_some() && !request.traces.is_empty() {
        return Err(Error::BadFlag {
            flag: "--replay",
            value: "given".into(),
            message: "replays through the native interface: leave out --interface vortex".into(),
        });
    }
    Staging::check(out, &design.name())?;
    let kernels = kernels(design, request.traces, request.search)?;
    let written = crate::block::generate(design, plan, command, out)?;
    if kernels.is_empty() {
        return Ok((written, Vec::new()));
    }
    let rows = run(design, &kernels, &written.dir, request.simulator)?;
    Ok((written, rows))
}

/// Reads `traces` as kernels, refusing more accesses in all than
/// [`limits::MAX_REPLAY_ACCESSES`] and, with `search`, a search past its limit; then searches
/// each kernel's best map when asked.
pub fn kernels(
    design: &SmemDesign,
    traces: &[PathBuf],
    search: bool,
) -> Result<Vec<Kernel>, Error> {
    let shape = design.shape();
    let traces = traces
        .iter()
        .map(|path| {
            crate::trace::read(path, shape.addr_bits(), shape.lanes() as usize)
                .map(|t| (crate::trace::name(path), t))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let accesses = traces
        .iter()
        .map(|(_, t)| t.accesses.len() as u64)
        .fold(0, u64::saturating_add);
    limits::check(
        "--replay",
        accesses,
        limits::MAX_REPLAY_ACCESSES,
        "warp accesses replayed in all",
    )?;
    let geometry = Geometry::new(shape.addr_bits(), u64::from(shape.banks()))?;
    if search {
        search::check_space(
            &traces,
            geometry,
            &search::full_plan(),
            &search::SearchSizeFlag {
                flag: "--depth",
                value: shape.depth().to_string(),
                remedy: "lower --depth or --banks (the address bits), or replay fewer or shorter \
                         traces",
            },
        )?;
    }
    Ok(traces
        .into_iter()
        .map(|(name, trace)| {
            let program = search.then(|| searched(design, geometry, &trace));
            Kernel {
                name,
                trace,
                program,
            }
        })
        .collect())
}

/// The best configuration `rtl-gen search` finds for `trace`, as a map of `design`'s kind, and
/// the `cfg_i` value that programs it.
fn searched(design: &SmemDesign, geometry: Geometry, trace: &Trace) -> (Map, Bits) {
    let MapSpec::Hash { config, .. } = design.map() else {
        unreachable!("--replay-search needs a configurable hash")
    };
    let config = search::best_config(trace, geometry, config.kind());
    let index = SoftwareIndex::new(&config).unwrap_or_else(|e| unreachable!("searched: {e}"));
    let bits = design.cfg_value(&index);
    (Map::Hash(index), bits)
}

/// The replay's rows as a Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "| kernel | accesses | RTL cycles | model cycles | RTL bank cycles | model bank cycles \
         | RTL conflict cycles | model conflict cycles | equal |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.kernel,
            r.accesses,
            r.rtl_cycles,
            r.model_cycles,
            r.rtl_bank_cycles,
            r.model_bank_cycles,
            r.rtl_conflict_cycles,
            r.model_conflict_cycles,
            if r.matches() { "yes" } else { "NO" }
        );
    }
    out
}

/// Replays `kernels` through the RTL of `design`, the block folder `block_dir` just written,
/// under `simulator` (the testbench and its files in `block_dir/replay`, the build in
/// `block_dir/replay/build`), and returns one row per kernel.
pub fn run(
    design: &SmemDesign,
    kernels: &[Kernel],
    block_dir: &Path,
    simulator: &str,
) -> Result<Vec<Row>, Error> {
    let s = design.shape();
    let (lanes, n, w, bytes) = (s.lanes(), s.addr_bits(), s.word_bits(), s.word_bytes());
    let plan = plan(design, kernels);
    let top = design.top_module();
    let name = top.name().to_string();
    let (manifest, _) = Manifest::load(block_dir)?;
    let rtl: Vec<PathBuf> = manifest
        .rtl_files
        .iter()
        .map(|f| block_dir.join(f))
        .collect();
    let dir = block_dir.join("replay");
    std::fs::create_dir_all(&dir).map_err(Error::io(&dir))?;
    let program = kernels.iter().any(|k| k.program.is_some());
    let f = design.fill_words();
    let fill_lines = plan.fills.iter().map(|beat| {
        let lane = |i: u32| beat.lanes.get(i as usize).copied().flatten();
        Bits::concat(&[
            packed((0..f).map(|i| u64::from(lane(i).is_some())), f, 1),
            packed((0..f).map(|i| lane(i).map_or(0, |l| l.addr)), f, n),
            packed((0..f).map(|i| lane(i).map_or(0, |l| l.data)), f, w),
            packed(
                (0..f).map(|i| lane(i).map_or(0, |l| u64::from(l.be))),
                f,
                bytes,
            ),
        ])
    });
    let access_lines = plan.kernels.iter().enumerate().flat_map(|(k, accesses)| {
        accesses.iter().map(move |a| {
            let lane = |i: u32| a.lanes.get(i as usize).copied().flatten();
            Bits::concat(&[
                Bits::from_u64(k as u64, 32),
                packed((0..lanes).map(|i| u64::from(lane(i).is_some())), lanes, 1),
                packed((0..lanes).map(|i| lane(i).map_or(0, |l| l.addr)), lanes, n),
            ])
        })
    });
    let expect_lines = plan
        .expected
        .iter()
        .map(|data| packed(data.iter().copied(), lanes, w));
    let mut outputs = vec![
        (format!("{name}.fill.hex"), hex(fill_lines)),
        (format!("{name}.access.hex"), hex(access_lines)),
        (format!("{name}.expect.hex"), hex(expect_lines)),
        (
            format!("tb_{name}_replay.v"),
            testbench(design, &top, &plan, program),
        ),
    ];
    if program {
        let cfg = kernels.iter().map(|k| {
            k.program.as_ref().map_or_else(
                || Bits::zero(design.cfg_width() as usize),
                |(_, bits)| bits.clone(),
            )
        });
        outputs.push((format!("{name}.cfg.hex"), hex(cfg)));
    }
    for (file, text) in &outputs {
        write_file(&dir.join(file), text.as_bytes())?;
    }
    let tb = Testbench {
        top: format!("tb_{name}_replay"),
        source: std::path::absolute(dir.join(format!("tb_{name}_replay.v")))
            .map_err(Error::io(&dir))?,
        stimulus: dir.join(format!("{name}.access.hex")),
        expected: dir.join(format!("{name}.expect.hex")),
        vectors: plan.expected.len(),
    };
    let report = simulator_by_name(simulator)?.run(&rtl, &tb, &dir.join("build"))?;
    if report.failed > 0 {
        return Err(Error::BadFlag {
            flag: "--replay",
            value: name,
            message: format!(
                "{} of {} responses differ from the model: {:?}",
                report.failed, report.vectors, report.mismatches
            ),
        });
    }
    let results = dir.join(format!("{name}.replay.txt"));
    let text = std::fs::read_to_string(&results).map_err(Error::io(&results))?;
    let measured: Vec<[u64; 3]> = text
        .lines()
        .filter_map(|line| {
            let t: Vec<&str> = line.split_whitespace().collect();
            match t.as_slice() {
                ["kernel", _, "cycles", c, "bank_cycles", b, "conflict_cycles", x] => {
                    Some([c.parse().ok()?, b.parse().ok()?, x.parse().ok()?])
                }
                _ => None,
            }
        })
        .collect();
    if measured.len() != kernels.len() {
        return Err(Error::NotABlock {
            path: results,
            message: format!(
                "{} kernel lines for {} kernels",
                measured.len(),
                kernels.len()
            ),
        });
    }
    Ok(kernels
        .iter()
        .zip(&plan.predicted)
        .zip(measured)
        .map(|((k, &(cycles, bank, conflict)), [c, b, x])| Row {
            kernel: k.name.clone(),
            accesses: k.trace.accesses.len() as u64,
            rtl_cycles: c,
            model_cycles: cycles,
            rtl_bank_cycles: b,
            model_bank_cycles: bank,
            rtl_conflict_cycles: x,
            model_conflict_cycles: conflict,
        })
        .collect())
}
