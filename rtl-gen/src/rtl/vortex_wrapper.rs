//! The SystemVerilog wrapper `VX_local_mem.sv`: a generated Verilog-2005 core with one request
//! and one response channel per lane, flattened ([`ports`]), presented under the name,
//! parameters and ports of Vortex's `VX_local_mem` (`hw/rtl/mem/VX_local_mem.sv` at Vortex
//! 31e4765) plus Vortex's DCR bus. The wrapper holds no logic: it unpacks the `VX_mem_bus_if`
//! array, the DCR bus and the `lmem_perf` struct into the core's ports, checks at elaboration
//! that the parameters Vortex passes are the generated ones, and, in simulation only, prints
//! the core's counters (`RTLGEN_LMEM_STATS`) and traces every warp access
//! (`RTLGEN_LMEM_TRACE`).
//!
//! [`flat_shim`] is its inverse, for tests: a module with the core's own ports that drives the
//! wrapper through Vortex's interfaces, so the core's testbench can run through the wrapper.

use super::{Direction, Module};

/// The core's ports the wrapper connects (each lane's field in bits `[i*W +: W]` of its bus).
pub mod ports {
    /// Clock.
    pub const CLOCK: &str = "clk_i";
    /// Asynchronous reset, active low.
    pub const RESET: &str = "rst_ni";
    /// Per lane: a request is presented.
    pub const REQ_VALID: &str = "req_valid_i";
    /// Per lane: the request is taken.
    pub const REQ_READY: &str = "req_ready_o";
    /// Per lane: the request writes.
    pub const REQ_RW: &str = "req_rw_i";
    /// Per lane: the word address.
    pub const REQ_ADDR: &str = "req_addr_i";
    /// Per lane: the data written.
    pub const REQ_DATA: &str = "req_data_i";
    /// Per lane: the byte enables.
    pub const REQ_BYTEEN: &str = "req_byteen_i";
    /// Per lane: the tag.
    pub const REQ_TAG: &str = "req_tag_i";
    /// Per lane: a response shows.
    pub const RSP_VALID: &str = "rsp_valid_o";
    /// Per lane: the word read.
    pub const RSP_DATA: &str = "rsp_data_o";
    /// Per lane: the read's tag.
    pub const RSP_TAG: &str = "rsp_tag_o";
    /// Per lane: the response is taken.
    pub const RSP_READY: &str = "rsp_ready_i";
    /// A DCR write (only for a core with a map to program).
    pub const DCR_VALID: &str = "dcr_valid_i";
    /// Its address.
    pub const DCR_ADDR: &str = "dcr_addr_i";
    /// Its data.
    pub const DCR_DATA: &str = "dcr_data_i";
}

/// A counter of the core: its output port, its key in the statistics line and, for Vortex's own
/// counters, its field of `lmem_perf`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// The core's output port (`cnt_reads_o`).
    pub port: String,
    /// The key in `rtl-gen lmem: key=value ...` (`reads`).
    pub key: String,
    /// Its field of `lmem_perf_t` (`reads`), if Vortex has it.
    pub perf: Option<String>,
}

/// The generated memory as Vortex's parameters describe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Lanes (`NUM_REQS`).
    pub lanes: u32,
    /// Banks (`NUM_BANKS`).
    pub banks: u32,
    /// Words per bank.
    pub depth: u32,
    /// Bytes per word (`WORD_SIZE`).
    pub word_bytes: u32,
    /// Bits of a tag (`TAG_WIDTH`).
    pub tag_bits: u32,
}

impl Sizes {
    /// `SIZE`: bytes in the memory.
    pub fn size_bytes(self) -> u64 {
        u64::from(self.banks) * u64::from(self.depth) * u64::from(self.word_bytes)
    }

    /// `ADDR_WIDTH`: bits of a word address.
    pub fn addr_bits(self) -> u32 {
        (u64::from(self.banks) * u64::from(self.depth)).trailing_zeros()
    }
}

/// What the wrapper presents: the core, the header lines, the sizes and the counters (in the
/// statistics line's order).
#[derive(Debug, Clone)]
pub struct LocalMem<'a> {
    /// The core module (its name and ports are read).
    pub core: &'a Module,
    /// The leading comment's lines.
    pub header: &'a [String],
    /// The sizes.
    pub sizes: Sizes,
    /// The counters.
    pub counters: &'a [Counter],
}

/// The module Vortex instantiates.
pub const MODULE: &str = "VX_local_mem";

/// The wrapper's file, named after its module so that a folder first on Verilator's include
/// path replaces Vortex's own.
pub const FILE: &str = "VX_local_mem.sv";

impl LocalMem<'_> {
    fn width(&self, port: &str) -> u32 {
        self.core
            .ports()
            .iter()
            .find(|p| p.signal().name() == port)
            .map(|p| p.signal().width())
            .unwrap_or_else(|| panic!("{} has no port {port}", self.core.name()))
    }

    fn has(&self, port: &str) -> bool {
        self.core.ports().iter().any(|p| p.signal().name() == port)
    }

    /// The parameter checks: `(parameter, generated value, what it is, the flag that changes
    /// it, the flag's value that fits the parameter as a SystemVerilog expression)`.
    fn checks(&self) -> Vec<(&'static str, u64, String, &'static str, String)> {
        let s = self.sizes;
        let per_bank = u64::from(s.banks) * u64::from(s.word_bytes);
        vec![
            (
                "SIZE",
                s.size_bytes(),
                format!(
                    "bytes: --banks {} x --depth {} x --word-bytes {}",
                    s.banks, s.depth, s.word_bytes
                ),
                "--depth ",
                format!("SIZE / {per_bank}"),
            ),
            (
                "NUM_REQS",
                u64::from(s.lanes),
                "lanes".into(),
                "--lanes ",
                "NUM_REQS".into(),
            ),
            (
                "NUM_BANKS",
                u64::from(s.banks),
                "banks".into(),
                "--banks ",
                "NUM_BANKS".into(),
            ),
            (
                "WORD_SIZE",
                u64::from(s.word_bytes),
                "bytes a word".into(),
                "--word-bytes ",
                "WORD_SIZE".into(),
            ),
            (
                "ADDR_WIDTH",
                u64::from(s.addr_bits()),
                "bits of a word address: log2(--banks x --depth)".into(),
                "--banks x --depth = 2^",
                "ADDR_WIDTH".into(),
            ),
            (
                "TAG_WIDTH",
                u64::from(s.tag_bits),
                "bits of a tag".into(),
                "--tag-bits ",
                "TAG_WIDTH".into(),
            ),
        ]
    }
}

/// A `// ` comment line for each of `lines`.
fn comment(out: &mut Vec<String>, lines: &[String]) {
    out.extend(
        lines
            .iter()
            .map(|l| format!("// {l}").trim_end().to_string()),
    );
}

/// The text of `VX_local_mem.sv` for `w`.
pub fn local_mem(w: &LocalMem) -> String {
    let s = w.sizes;
    let mut out = Vec::new();
    comment(&mut out, w.header);
    out.push(String::new());
    out.push(format!("module {MODULE} import VX_gpu_pkg::*; #("));
    out.push("  parameter string INSTANCE_ID = \"\",".into());
    for (name, value) in [
        ("SIZE", s.size_bytes()),
        ("NUM_REQS", u64::from(s.lanes)),
        ("NUM_BANKS", u64::from(s.banks)),
        ("ADDR_WIDTH", u64::from(s.addr_bits())),
        ("WORD_SIZE", u64::from(s.word_bytes)),
        ("TAG_WIDTH", u64::from(s.tag_bits)),
    ] {
        out.push(format!("  parameter {name} = {value},"));
    }
    out.extend(
        [
            "  parameter OUT_BUF = 0",
            ") (",
            "  input wire clk,",
            "  input wire reset,",
            "`ifdef PERF_ENABLE",
            "  output lmem_perf_t lmem_perf,",
            "`endif",
            "  VX_mem_bus_if.slave mem_bus_if [NUM_REQS],",
            "  VX_dcr_bus_if.slave dcr_bus_if",
            ");",
            "",
            "  // The parameters Vortex passes must be the generated memory's. A wrong one stops the",
            "  // elaboration: $error says why, and a zero replication stops it too where $error",
            "  // is only a warning (under Verilator's -Wno-fatal, which Vortex's rtlsim needs).",
        ]
        .map(String::from),
    );
    for (name, value, what, flag, fix) in w.checks() {
        out.push(format!(
            "  if ({name} != {value}) begin : g_check_{}",
            name.to_lowercase()
        ));
        out.push(
            "    $error(\"VX_local_mem: %s = %0d, but rtl-gen generated %0d (%s): generate it \
             with %s%0d\","
                .into(),
        );
        out.push(format!("           \"{name}\", {name}, {value},"));
        out.push(format!("           \"{what}\","));
        out.push(format!("           \"{flag}\", {fix});"));
        out.push("    wire unused_stop = {0{1'b0}};".into());
        out.push("  end".into());
    }
    lanes(&mut out);
    instance(&mut out, w);
    tail(&mut out, w);
    out.push("endmodule".into());
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The flattened lanes and the loop that unpacks the interface array.
fn lanes(out: &mut Vec<String>) {
    out.extend(
        [
            "",
            "  // The lanes, flattened: lane i in bits [i*W +: W] of each bus.",
            "  wire [NUM_REQS-1:0] req_valid, req_ready, req_rw, rsp_valid, rsp_ready;",
            "  wire [NUM_REQS*ADDR_WIDTH-1:0] req_addr;",
            "  wire [NUM_REQS*WORD_SIZE*8-1:0] req_data, rsp_data;",
            "  wire [NUM_REQS*WORD_SIZE-1:0] req_byteen;",
            "  wire [NUM_REQS*TAG_WIDTH-1:0] req_tag, rsp_tag;",
            "  for (genvar i = 0; i < NUM_REQS; ++i) begin : g_lane",
            "    assign req_valid[i] = mem_bus_if[i].req_valid;",
            "    assign req_rw[i] = mem_bus_if[i].req_data.rw;",
            "    assign req_addr[i*ADDR_WIDTH +: ADDR_WIDTH] =",
            "        mem_bus_if[i].req_data.addr[ADDR_WIDTH-1:0];",
            "    assign req_data[i*WORD_SIZE*8 +: WORD_SIZE*8] = mem_bus_if[i].req_data.data;",
            "    assign req_byteen[i*WORD_SIZE +: WORD_SIZE] = mem_bus_if[i].req_data.byteen;",
            "    assign req_tag[i*TAG_WIDTH +: TAG_WIDTH] = mem_bus_if[i].req_data.tag;",
            "    assign mem_bus_if[i].req_ready = req_ready[i];",
            "    assign mem_bus_if[i].rsp_valid = rsp_valid[i];",
            "    assign mem_bus_if[i].rsp_data.data = rsp_data[i*WORD_SIZE*8 +: WORD_SIZE*8];",
            "    assign mem_bus_if[i].rsp_data.tag = rsp_tag[i*TAG_WIDTH +: TAG_WIDTH];",
            "    assign rsp_ready[i] = mem_bus_if[i].rsp_ready;",
            "    // The memory ignores the flags and the address bits above ADDR_WIDTH.",
            "    wire unused_req = ^{mem_bus_if[i].req_data.flags, mem_bus_if[i].req_data.addr};",
            "  end",
        ]
        .map(String::from),
    );
}

/// The counters' wires and the core's instance.
fn instance(out: &mut Vec<String>, w: &LocalMem) {
    use ports::*;
    out.push(String::new());
    for c in w.counters {
        out.push(format!(
            "  wire [{}:0] {};",
            w.width(&c.port) - 1,
            counter_wire(c)
        ));
    }
    let mut connections: Vec<(String, String)> = [
        (CLOCK, "clk"),
        (RESET, "~reset"),
        (REQ_VALID, "req_valid"),
        (REQ_READY, "req_ready"),
        (REQ_RW, "req_rw"),
        (REQ_ADDR, "req_addr"),
        (REQ_DATA, "req_data"),
        (REQ_BYTEEN, "req_byteen"),
        (REQ_TAG, "req_tag"),
        (RSP_VALID, "rsp_valid"),
        (RSP_DATA, "rsp_data"),
        (RSP_TAG, "rsp_tag"),
        (RSP_READY, "rsp_ready"),
    ]
    .map(|(p, v)| (p.to_string(), v.to_string()))
    .to_vec();
    let dcr = w.has(DCR_VALID);
    if dcr {
        connections.extend(
            [
                (DCR_VALID, "dcr_bus_if.write_valid"),
                (DCR_ADDR, "dcr_bus_if.write_addr"),
                (DCR_DATA, "dcr_bus_if.write_data"),
            ]
            .map(|(p, v)| (p.to_string(), v.to_string())),
        );
    }
    connections.extend(w.counters.iter().map(|c| (c.port.clone(), counter_wire(c))));
    out.push(format!("  {} u_core (", w.core.name()));
    let last = connections.len() - 1;
    for (k, (port, value)) in connections.iter().enumerate() {
        let comma = if k == last { "" } else { "," };
        out.push(format!("    .{port}({value}){comma}"));
    }
    out.push("  );".into());
    if !dcr {
        out.extend(
            [
                "  // A fixed map: nothing to program through the DCR bus.",
                "  wire unused_dcr =",
                "      ^{dcr_bus_if.write_valid, dcr_bus_if.write_addr, dcr_bus_if.write_data};",
            ]
            .map(String::from),
        );
    }
}

/// The wire that carries counter `c` out of the core.
fn counter_wire(c: &Counter) -> String {
    format!("cnt_{}", c.key)
}

/// Vortex's counters, the unused parameters, the statistics line and the trace.
fn tail(out: &mut Vec<String>, w: &LocalMem) {
    out.push(String::new());
    out.push("`ifdef PERF_ENABLE".into());
    for c in w.counters {
        if let Some(field) = &c.perf {
            out.push(format!(
                "  assign lmem_perf.{field} = PERF_CTR_BITS'({});",
                counter_wire(c)
            ));
        }
    }
    out.push("`endif".into());
    out.push("  // Read only by lmem_perf and the statistics line.".into());
    let all: Vec<String> = w.counters.iter().map(counter_wire).collect();
    out.push("  wire unused_counters = ^{".into());
    let mut line = String::from("   ");
    for (k, wire) in all.iter().enumerate() {
        let item = if k + 1 == all.len() {
            format!(" {wire}")
        } else {
            format!(" {wire},")
        };
        if line.len() + item.len() > 100 {
            out.push(std::mem::replace(&mut line, String::from("   ")));
        }
        line.push_str(&item);
    }
    out.push(line);
    out.push("  };".into());
    out.extend(
        [
            "  // Accepted, unused: the core registers its responses whatever OUT_BUF asks.",
            "  wire unused_params = (INSTANCE_ID == \"\") && (OUT_BUF != 0);",
            "",
            "`ifdef RTLGEN_LMEM_STATS",
            "  // One line when the simulation ends (docs/SMEM.md, Vortex interface).",
            "  final begin",
            "    $write(\"rtl-gen lmem:\");",
        ]
        .map(String::from),
    );
    for c in w.counters {
        out.push(format!(
            "    $write(\" {}=%0d\", {});",
            c.key,
            counter_wire(c)
        ));
    }
    out.extend(
        [
            "    $write(\" instance=%s\\n\", INSTANCE_ID);",
            "  end",
            "`endif",
            "",
            "`ifdef RTLGEN_LMEM_TRACE",
            "  // Every warp access (the lanes the core takes in one cycle) appended as one line to",
            "  // the file +rtlgen_lmem_trace=<path> names: ld or st, then the word address of each",
            "  // lane taken, in lane order (docs/TRACE_FORMAT.md); a comment line after each reset.",
            "  integer trace_fd = 0;",
            "  logic trace_in_reset_q = 1'b0;",
            "  initial begin : trace_open",
            "    string path;",
            "    if ($value$plusargs(\"rtlgen_lmem_trace=%s\", path)) begin",
            "      trace_fd = $fopen(path, \"a\");",
            "      if (trace_fd == 0) begin",
            "        $fatal(1, \"VX_local_mem: cannot open the trace %s\", path);",
            "      end",
            "    end",
            "  end",
            "  always @(posedge clk) begin",
            "    trace_in_reset_q <= reset;",
            "    if (trace_fd != 0 && trace_in_reset_q && !reset) begin",
            "      $fwrite(trace_fd, \"# reset %s\\n\", INSTANCE_ID);",
            "    end",
            "    if (!reset && trace_fd != 0 && req_ready != '0) begin",
            "      $fwrite(trace_fd, \"%s\", (req_ready & req_rw) != '0 ? \"st\" : \"ld\");",
            "      for (int i = 0; i < NUM_REQS; ++i) begin",
            "        if (req_ready[i]) begin",
            "          $fwrite(trace_fd, \" %0d\", req_addr[i*ADDR_WIDTH +: ADDR_WIDTH]);",
            "        end",
            "      end",
            "      $fwrite(trace_fd, \"\\n\");",
            "    end",
            "  end",
            "  final begin",
            "    if (trace_fd != 0) begin",
            "      $fclose(trace_fd);",
            "    end",
            "  end",
            "`endif",
            "",
        ]
        .map(String::from),
    );
}

/// The `INSTANCE_ID` [`flat_shim`] gives `VX_local_mem`.
pub const SHIM_INSTANCE: &str = "shim-lmem";

/// A module named `name` with the core's ports that drives `VX_local_mem` through Vortex's
/// interfaces: the core's testbench, pointed at it, runs through the wrapper. The counters
/// Vortex has come from `lmem_perf` under `PERF_ENABLE` (hierarchical references to the core
/// otherwise, as do ours); each lane's address carries two set bits above `ADDR_WIDTH` and
/// every flag set, which the memory must ignore.
pub fn flat_shim(w: &LocalMem, name: &str) -> String {
    use ports::*;
    let s = w.sizes;
    let (lanes, n, wb, t) = (s.lanes, s.addr_bits(), s.word_bytes * 8, s.tag_bits);
    let mut out = vec![
        format!(
            "// Drives {MODULE} through Vortex's interfaces with the ports of {}: a test",
            w.core.name()
        ),
        "// fixture (rtl-gen, rtl::vortex_wrapper::flat_shim).".to_string(),
        String::new(),
        format!("module {name} import VX_gpu_pkg::*; ("),
    ];
    let ports = w.core.ports();
    for (k, p) in ports.iter().enumerate() {
        let dir = match p.direction() {
            Direction::Input => "input ",
            Direction::Output => "output",
        };
        let comma = if k + 1 == ports.len() { "" } else { "," };
        let width = p.signal().width();
        out.push(format!(
            "  {dir} wire [{}:0] {}{comma}",
            width - 1,
            p.signal().name()
        ));
    }
    out.push(");".into());
    out.push(format!(
        "  VX_mem_bus_if #(.DATA_SIZE({}), .TAG_WIDTH({t}), .ADDR_WIDTH({})) mem_bus_if [{lanes}] ();",
        s.word_bytes,
        n + 2
    ));
    out.push("  VX_dcr_bus_if dcr_bus_if ();".into());
    out.extend(
        [
            "`ifdef PERF_ENABLE",
            "  lmem_perf_t lmem_perf;",
            "`endif",
            &format!("  for (genvar i = 0; i < {lanes}; ++i) begin : g_lane"),
            &format!("    assign mem_bus_if[i].req_valid = {REQ_VALID}[i];"),
            &format!("    assign mem_bus_if[i].req_data.rw = {REQ_RW}[i];"),
            &format!(
                "    assign mem_bus_if[i].req_data.addr = {{2'b11, {REQ_ADDR}[i*{n} +: {n}]}};"
            ),
            &format!("    assign mem_bus_if[i].req_data.data = {REQ_DATA}[i*{wb} +: {wb}];"),
            &format!(
                "    assign mem_bus_if[i].req_data.byteen = {REQ_BYTEEN}[i*{} +: {}];",
                s.word_bytes, s.word_bytes
            ),
            "    assign mem_bus_if[i].req_data.flags = '1;",
            &format!("    assign mem_bus_if[i].req_data.tag = {REQ_TAG}[i*{t} +: {t}];"),
            &format!("    assign {REQ_READY}[i] = mem_bus_if[i].req_ready;"),
            &format!("    assign {RSP_VALID}[i] = mem_bus_if[i].rsp_valid;"),
            &format!("    assign {RSP_DATA}[i*{wb} +: {wb}] = mem_bus_if[i].rsp_data.data;"),
            &format!("    assign {RSP_TAG}[i*{t} +: {t}] = mem_bus_if[i].rsp_data.tag;"),
            &format!("    assign mem_bus_if[i].rsp_ready = {RSP_READY}[i];"),
            "  end",
        ]
        .map(String::from),
    );
    if w.has(DCR_VALID) {
        out.push(format!("  assign dcr_bus_if.write_valid = {DCR_VALID};"));
        out.push(format!("  assign dcr_bus_if.write_addr = {DCR_ADDR};"));
        out.push(format!("  assign dcr_bus_if.write_data = {DCR_DATA};"));
    } else {
        out.push("  assign dcr_bus_if.write_valid = 1'b0;".into());
        out.push("  assign dcr_bus_if.write_addr = '0;".into());
        out.push("  assign dcr_bus_if.write_data = '0;".into());
    }
    // The parameters as Vortex's VX_mem_unit passes them.
    out.push(format!("  {MODULE} #("));
    out.push(format!("    .INSTANCE_ID(\"{SHIM_INSTANCE}\"),"));
    for (param, value) in [
        ("SIZE", s.size_bytes()),
        ("NUM_REQS", u64::from(s.lanes)),
        ("NUM_BANKS", u64::from(s.banks)),
        ("WORD_SIZE", u64::from(s.word_bytes)),
        ("ADDR_WIDTH", u64::from(n)),
        ("TAG_WIDTH", u64::from(t)),
    ] {
        out.push(format!("    .{param}({value}),"));
    }
    out.push("    .OUT_BUF(3)".into());
    out.push("  ) u_local_mem (".into());
    out.extend(
        [
            &format!("    .clk({CLOCK}),"),
            &format!("    .reset(~{RESET}),"),
            "`ifdef PERF_ENABLE",
            "    .lmem_perf(lmem_perf),",
            "`endif",
            "    .mem_bus_if(mem_bus_if),",
            "    .dcr_bus_if(dcr_bus_if)",
            "  );",
        ]
        .map(String::from),
    );
    let mut perf_high = Vec::new();
    for c in w.counters {
        let width = w.width(&c.port);
        let inner = format!("u_local_mem.u_core.{}", c.port);
        match &c.perf {
            Some(field) => {
                out.push("`ifdef PERF_ENABLE".into());
                out.push(format!(
                    "  assign {} = lmem_perf.{field}[{}:0];",
                    c.port,
                    width - 1
                ));
                perf_high.push(format!("lmem_perf.{field}[PERF_CTR_BITS-1:{width}]"));
                out.push("`else".into());
                out.push(format!("  assign {} = {inner};", c.port));
                out.push("`endif".into());
            }
            None => out.push(format!("  assign {} = {inner};", c.port)),
        }
    }
    if !perf_high.is_empty() {
        out.push("`ifdef PERF_ENABLE".into());
        out.push(format!(
            "  wire unused_perf = ^{{{}}};",
            perf_high.join(", ")
        ));
        out.push("`endif".into());
    }
    out.push("endmodule".into());
    let mut text = out.join("\n");
    text.push('\n');
    text
}
