//! The bank side: `<top>_bank_port`, which turns a pass into one bank's request, and the bank
//! storage `<top>_bank`.
//!
//! **Bank port** (combinational, one instance per bank, its index tied to a constant): the
//! lanes the pass serves in this bank (`served & bank == index`) all ask for one word; the
//! row is theirs, the bank is enabled when any is, and for a write each byte comes from the one
//! served lane whose (effective) byte enable is set: the conflict stage already cleared the
//! enables a higher lane overrides, so at most one lane drives each byte and the crossbar is an
//! AND-OR: a mux per lane (row) or per lane and byte (data), and a balanced OR tree across the
//! lanes, all in lane-major vectors (no per-bit gathers, which made Verilator's C++ ten times
//! larger).
//!
//! **Storage**: a single-port synchronous RAM, `depth` words of `word_bytes` bytes. Port list
//! (also the documented port list of an SRAM macro, `--sram-macro NAME`):
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk_i` | in | 1 | clock; inputs are sampled at its rising edge |
//! | `ce_i` | in | 1 | chip enable: the edge performs an access |
//! | `we_i` | in | 1 | write (else read) |
//! | `addr_i` | in | `log2 depth` | row |
//! | `wdata_i` | in | `8 word_bytes` | data written |
//! | `be_i` | in | `word_bytes` | byte write enables |
//! | `rdata_o` | out | `8 word_bytes` | the word read, after the edge; held until the next read |
//!
//! `rdata_o` must hold while no read happens (writes and disabled cycles leave it alone): the
//! pipeline reads it one cycle after the access, or later when the response is back-pressured.
//! By default `<top>_bank` is a behavioural array (Yosys infers a memory, Verilator simulates
//! it). With a macro named only, `<top>_bank` instantiates module `NAME` with exactly the ports
//! above, and `NAME.v` is a behavioural model for simulation marked `(* blackbox *)`, so
//! synthesis leaves the macro as a black box (no area, and no timing without its liberty file).
//! With an OpenRAM macro (`crate::sram`), `<top>_bank` adapts the ports to OpenRAM's (`clk0`,
//! `csb0` and `web0` active low, `wmask0`, `addr0`, `din0`, `dout0`) and keeps the word read in a
//! register, since OpenRAM's `dout0` is valid only from the falling edge after the read to the
//! next rising edge; the model `<cell>.v` has OpenRAM's ports and timing, and the macro's
//! liberty file (copied into the block folder) gives OpenSTA its timing and `stat` its area.

use super::design::SmemDesign;
use crate::block::Header;
use crate::rtl::wiring::{gather, or_tree, plane};
use crate::rtl::{Expr, Module};
use crate::sram::OpenRamMacro;
use std::fmt::Write;

/// Builds `<top>_bank_port` (combinational).
pub fn port(design: &SmemDesign, header: Vec<String>) -> Module {
    let shape = design.shape();
    let (lanes, m, r) = (shape.lanes(), shape.bank_bits(), shape.row_bits());
    let (w, bytes) = (shape.word_bits(), shape.word_bytes());
    let mut module = Module::new(format!("{}_bank_port", design.name())).with_header(header);
    let index = module.input("index_i", m, "This bank's index (a constant).");
    let served = module.input("served_i", lanes, "Lanes the pass serves.");
    let write = module.input("write_i", 1, "The pass writes.");
    let bank = module.input(
        "bank_i",
        lanes * m,
        "Bank of each lane, lane 0 in the low bits.",
    );
    let row = module.input("row_i", lanes * r, "Row of each lane.");
    let wdata = module.input("wdata_i", lanes * w, "Data of each lane.");
    let be = module.input(
        "be_i",
        lanes * bytes,
        "Effective byte enables of each lane.",
    );
    let en_o = module.output("en_o", 1, "The pass uses this bank.");
    let we_o = module.output("we_o", 1, "It writes.");
    let addr_o = module.output("addr_o", r, "Row.");
    let wdata_o = module.output("wdata_o", w, "Data written.");
    let be_o = module.output("be_o", bytes, "Byte write enables.");
    let hit = module.wire("hit", lanes);
    for i in 0..lanes {
        let lane_bank = bank.slice((i + 1) * m - 1, i * m);
        module.assign_bit(&hit, i, lane_bank.eq(index.expr()));
    }
    let take = module.wire_of("take", served.expr().and(hit.expr()));
    module.assign(&en_o, take.expr().ne(Expr::zeros(lanes)));
    module.assign(&we_o, en_o.expr().and(write.expr()));
    // The served lanes of this bank share one row: the OR of theirs.
    let rows = (0..lanes)
        .map(|i| {
            Expr::mux(
                take.bit(i),
                row.slice((i + 1) * r - 1, i * r),
                Expr::zeros(r),
            )
        })
        .collect();
    let row_or = or_tree(&mut module, "row_any", rows);
    module.assign(&addr_o, row_or.expr());
    for k in 0..bytes {
        let enables = gather(&mut module, &format!("be_plane{k}"), plane(&be, bytes, k));
        let takes = module.wire_of(&format!("take_byte{k}"), take.expr().and(enables.expr()));
        module.assign_bit(&be_o, k, takes.expr().ne(Expr::zeros(lanes)));
        // At most one served lane enables this byte: the OR of the bytes they write.
        let data = (0..lanes)
            .map(|i| {
                let lsb = i * w + 8 * k;
                Expr::mux(takes.bit(i), wdata.slice(lsb + 7, lsb), Expr::zeros(8))
            })
            .collect();
        let byte = or_tree(&mut module, &format!("byte{k}"), data);
        module.assign_range(&wdata_o, 8 * k + 7, 8 * k, byte.expr());
    }
    module
}

/// The ports of the storage `<top>_bank`, as a module to instantiate (its text is
/// [`storage_text`]).
pub fn storage_interface(design: &SmemDesign) -> Module {
    let shape = design.shape();
    let mut module = Module::new(format!("{}_bank", design.name()));
    module.add_clock();
    for (name, width, doc) in storage_ports(design) {
        if name.ends_with("_o") {
            module.output(name, width, doc);
        } else {
            module.input(name, width, doc);
        }
    }
    debug_assert_eq!(module.ports().len(), 8, "{:?}", shape);
    module
}

/// The storage's data ports (without the clock): name, width, meaning.
fn storage_ports(design: &SmemDesign) -> [(&'static str, u32, &'static str); 6] {
    let shape = design.shape();
    [
        (
            "ce_i",
            1,
            "Chip enable: the rising edge performs an access.",
        ),
        ("we_i", 1, "Write (else read)."),
        ("addr_i", shape.row_bits(), "Row."),
        ("wdata_i", shape.word_bits(), "Data written."),
        ("be_i", shape.word_bytes(), "Byte write enables."),
        (
            "rdata_o",
            shape.word_bits(),
            "The word read, after the edge; held until the next read.",
        ),
    ]
}

/// `[msb:0] ` padded as the emitter pads a declaration's range.
fn range(width: u32) -> String {
    format!("{:<7}", format!("[{}:0] ", width - 1))
}

/// The port list of a storage module, clock first, with or without the reset.
fn port_list(design: &SmemDesign, reset: bool) -> String {
    let mut ports = vec![("input ", 1, "clk_i", "Clock.")];
    if reset {
        ports.push(("input ", 1, "rst_ni", "Asynchronous reset, active low."));
    }
    for (name, width, doc) in storage_ports(design) {
        let dir = if name.ends_with("_o") {
            "output"
        } else {
            "input "
        };
        ports.push((dir, width, name, doc));
    }
    let last = ports.len() - 1;
    let mut out = String::new();
    for (i, (dir, width, name, doc)) in ports.into_iter().enumerate() {
        let range = if name == "clk_i" || name == "rst_ni" {
            "       ".to_string()
        } else {
            range(width)
        };
        let comma = if i == last { "" } else { "," };
        let _ = writeln!(out, "  /// {doc}\n  {dir} wire {range}{name}{comma}");
    }
    out
}

/// The array, its byte writes and its read register; `reset` gives the read register an
/// asynchronous reset (the behavioural bank has one, a macro has none).
fn storage_body(design: &SmemDesign, reset: bool) -> String {
    let shape = design.shape();
    let w = shape.word_bits();
    let mut out = format!(
        "\n  reg  {}mem [0:{}];\n  reg  {}rdata_q;\n",
        range(w),
        shape.depth() - 1,
        range(w)
    );
    out.push_str("\n  // Writes: every enabled byte of the addressed word.\n");
    out.push_str("  always @(posedge clk_i) begin\n    if (ce_i & we_i) begin\n");
    for k in 0..shape.word_bytes() {
        let (msb, lsb) = (8 * k + 7, 8 * k);
        let _ = write!(
            out,
            "      if (be_i[{k}]) begin\n        mem[addr_i][{msb}:{lsb}] <= wdata_i[{msb}:{lsb}];\n      end\n"
        );
    }
    out.push_str("    end\n  end\n");
    out.push_str("\n  // Reads: the word shows after the edge and holds until the next read.\n");
    if reset {
        let _ = write!(
            out,
            "  always @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n      \
             rdata_q <= {w}'h{zero};\n    end else if (ce_i & ~we_i) begin\n      \
             rdata_q <= mem[addr_i];\n    end\n  end\n",
            zero = "0".repeat(w.div_ceil(4) as usize)
        );
    } else {
        out.push_str(
            "  always @(posedge clk_i) begin\n    if (ce_i & ~we_i) begin\n      \
             rdata_q <= mem[addr_i];\n    end\n  end\n",
        );
    }
    out.push_str("\n  assign rdata_o = rdata_q;\n");
    out
}

/// The text of `<top>_bank`: the behavioural array, or the wrapper around the SRAM macro.
pub fn storage_text(design: &SmemDesign, header: &[String]) -> String {
    let name = format!("{}_bank", design.name());
    let mut out = comment(header);
    let _ = write!(out, "\nmodule {name} (\n{});\n", port_list(design, true));
    match (design.openram_macro(), design.sram_macro()) {
        (Some(m), _) => out.push_str(&openram_wrapper(design, &m.cell)),
        (None, None) => out.push_str(&storage_body(design, true)),
        (None, Some(sram)) => {
            out.push_str("\n  // The macro has no reset.\n  wire unused_rst_n;\n");
            out.push_str("  assign unused_rst_n = rst_ni;\n");
            let conns: Vec<String> = std::iter::once("clk_i")
                .chain(storage_ports(design).iter().map(|p| p.0))
                .map(|p| format!(".{p}({p})"))
                .collect();
            let _ = write!(
                out,
                "\n  {sram} u_sram (\n    {}\n  );\n",
                conns.join(",\n    ")
            );
        }
    }
    out.push_str("\nendmodule\n");
    out
}

/// The body of `<top>_bank` around the OpenRAM macro `cell`: its ports from the bank's (chip
/// select and write enable active low, the byte enables as its write mask), and a register that
/// keeps the word read, since the macro shows it only from the falling edge after the access to
/// the next rising edge.
fn openram_wrapper(design: &SmemDesign, cell: &str) -> String {
    let w = design.shape().word_bits();
    format!(
        "\n  // OpenRAM's read data, valid from the falling edge after a read to the next rising \
         edge.\n  wire {r}dout;\n  // The last access was a read; the word it read, kept.\n  \
         reg         read_q;\n  reg  {r}rdata_q;\n\n  {cell} u_sram (\n    .clk0(clk_i),\n    \
         .csb0(~ce_i),\n    .web0(~we_i),\n    .wmask0(be_i),\n    .addr0(addr_i),\n    \
         .din0(wdata_i),\n    .dout0(dout)\n  );\n\n  \
         always @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n      \
         read_q <= 1'b0;\n    end else begin\n      read_q <= ce_i & ~we_i;\n    end\n  end\n\n  \
         always @(posedge clk_i) begin\n    if (read_q) begin\n      rdata_q <= dout;\n    \
         end\n  end\n\n  // The word shows after the edge of its read and holds until the next \
         read.\n  assign rdata_o = read_q ? dout : rdata_q;\n",
        r = range(w),
    )
}

/// The text of `<cell>.v`: a behavioural model of the OpenRAM macro `m` for simulation, with
/// OpenRAM's ports and timing (inputs sampled at the rising edge; the write done, and the word
/// read shown, at the falling edge after it; `dout0` unknown, `x`, from the next rising edge, as
/// OpenRAM's own model has it), marked `(* blackbox *)` so that synthesis keeps it a black box
/// and OpenSTA times it from its liberty file.
pub fn openram_model_text(m: &OpenRamMacro, header: &Header) -> String {
    let (a, w) = (m.addr_bits, m.word_bits);
    let bytes = w / 8;
    let about = vec![
        format!(
            "Behavioural model of the OpenRAM single-port SRAM macro {}: {} words of {w} bits, for",
            m.cell,
            1u64 << a
        ),
        "simulation: inputs sampled at the rising clock edge; the write done, and the word read".into(),
        "shown on dout0, at the falling edge after it; dout0 unknown from the next rising edge on.".into(),
        format!(
            "Marked (* blackbox *): synthesis keeps the macro a black box, OpenSTA times it with {}.",
            m.liberty_file()
        ),
    ];
    let mut out = comment(&header.lines(about, &[]));
    let _ = write!(
        out,
        "\n(* blackbox *)\nmodule {cell} (\n  input  wire        clk0,\n  \
         input  wire        csb0,\n  input  wire        web0,\n  input  wire {mr}wmask0,\n  \
         input  wire {ar}addr0,\n  input  wire {wr}din0,\n  output wire {wr}dout0\n);\n\n  \
         reg  {wr}mem [0:{last}];\n  reg         csb0_q;\n  reg         web0_q;\n  \
         reg  {mr}wmask0_q;\n  reg  {ar}addr0_q;\n  reg  {wr}din0_q;\n  \
         // The word read; shown while shown_q differs from hidden_q (from its falling edge to the\n  \
         // next rising edge).\n  reg  {wr}word_q;\n  reg         shown_q;\n  \
         reg         hidden_q;\n\n  \
         // A model's power-up state (the macro has no reset): no word shown.\n  \
         initial begin\n    shown_q = 1'b0;\n    hidden_q = 1'b0;\n  end\n\n  \
         always @(posedge clk0) begin\n    csb0_q <= csb0;\n    web0_q <= web0;\n    \
         wmask0_q <= wmask0;\n    addr0_q <= addr0;\n    din0_q <= din0;\n    \
         hidden_q <= shown_q;\n  end\n\n  \
         always @(negedge clk0) begin\n    if (!csb0_q && !web0_q) begin\n",
        cell = m.cell,
        mr = range(bytes),
        ar = range(a),
        wr = range(w),
        last = (1u64 << a) - 1,
    );
    for k in 0..bytes {
        let (msb, lsb) = (8 * k + 7, 8 * k);
        let _ = write!(
            out,
            "      if (wmask0_q[{k}]) begin\n        mem[addr0_q][{msb}:{lsb}] <= din0_q[{msb}:{lsb}];\n      end\n"
        );
    }
    let _ = write!(
        out,
        "    end\n    if (!csb0_q && web0_q) begin\n      word_q <= mem[addr0_q];\n      \
         shown_q <= ~hidden_q;\n    end\n  end\n\n  \
         assign dout0 = (shown_q != hidden_q) ? word_q : {w}'bx;\nendmodule\n"
    );
    out
}

/// The text of `NAME.v`, the behavioural model of the SRAM macro `NAME` for simulation.
pub fn macro_model_text(design: &SmemDesign, sram: &str, header: &Header) -> String {
    let shape = design.shape();
    let about = vec![
        format!(
            "Behavioural model of the single-port SRAM macro {sram}: {} words of {} bytes, for simulation.",
            shape.depth(),
            shape.word_bytes()
        ),
        "Marked (* blackbox *): synthesis keeps the macro as a black box; put the real macro's".into(),
        "files in its place (same port list, rdata_o held until the next read).".into(),
    ];
    let mut out = comment(&header.lines(about, &[]));
    let _ = write!(
        out,
        "\n(* blackbox *)\nmodule {sram} (\n{});\n{}\nendmodule\n",
        port_list(design, false),
        storage_body(design, false)
    );
    out
}

/// Header lines as `//` comments.
fn comment(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| {
            if l.is_empty() {
                "//\n".to_string()
            } else {
                format!("// {l}\n")
            }
        })
        .collect()
}
