//! The data-path engine in a system: the D²MA engine with its data path
//! ([`engine::build_with`] and a [`DataPath`]), a banked shared memory from `rtl-gen smem`
//! behind the fill port, a global-memory model that answers requests after 4 to 35 cycles and
//! out of order, and a warp that reads every tile through the RAW check.
//!
//! [`System`] holds the sizes, [`phases`] the directed transfers (sgemv's vector, a halo tile
//! in each of the nine regions, strided, transposed and out-of-bounds tiles, mixed element
//! sizes, SAXPY), and [`testbench`] the self-checking Verilog testbench that runs them: every
//! word a warp reads is compared with `models::d2ma::data::shared_image` (global byte `a`
//! holds [`pattern`]`(a)`, the same function in the testbench's memory model); a warp load
//! presents its address to the engine's RAW check every cycle until it may go, so no warp
//! reads before its buffer's data is written; probes of addresses outside their CTA's
//! in-flight buffers are presented while warps wait, and must never wait. The testbench prints
//! `P passed, F failed` and stops with `$fatal` on a mismatch, a probe that waited, or a phase
//! that does not finish.

use super::engine;
use super::writeback::DataPath;
use super::{D2maDesign, Storage, Unit};
use crate::rtl::Module;
use models::d2ma::data::{shared_image, Extent};
use models::d2ma::entry::Part;
use models::d2ma::BufferEntry;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A global byte that names its address.
pub fn pattern(a: u64) -> u8 {
    (a ^ (a >> 8) ^ (a >> 16)) as u8
}

/// One buffer of a phase: its table entry and optional out-of-bounds extent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    /// The CTA whose controller holds it.
    pub cta: u32,
    /// The buffer within the CTA.
    pub buf: u32,
    /// The transfer.
    pub entry: BufferEntry,
    /// The global extent past which the transfer's elements are zero (configuration part 3).
    pub extent: Option<Extent>,
}

/// The sizes of one system: engine, data path, shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct System {
    /// Resident CTAs, one controller each.
    pub ctas: u32,
    /// Buffers per CTA.
    pub buffers: u32,
    /// Global-memory segment bytes (32, 64 or 128).
    pub segment: u32,
    /// Global address bits.
    pub global_bits: u32,
    /// The shared memory's lanes, also the fill port's words per beat.
    pub lanes: u32,
    /// The shared memory's banks.
    pub banks: u32,
    /// Words per bank.
    pub depth: u32,
    /// Outstanding segment requests (MSHRs).
    pub mshrs: u32,
    /// Chunks queued between the AGEN and the writer.
    pub chunks: u32,
    /// The controller array's and the MSHR buffers' storage.
    pub storage: Storage,
}

impl System {
    /// Bits of a shared-memory word address: `log2(banks x depth)`.
    pub fn addr_bits(&self) -> u32 {
        (self.banks * self.depth).trailing_zeros()
    }

    /// The engine's data path into the shared memory's fill port (4-byte words, a beat of
    /// `lanes` words).
    pub fn data_path(&self) -> DataPath {
        DataPath {
            fill_words: self.lanes,
            word_bytes: 4,
            addr_bits: self.addr_bits(),
            mshrs: self.mshrs,
            chunks: self.chunks,
        }
    }

    /// The engine's design.
    ///
    /// # Panics
    /// If the engine's sizes are not valid ones (`D2maDesign::new`).
    pub fn design(&self) -> D2maDesign {
        D2maDesign::new(Unit::Engine, self.ctas, self.buffers, self.segment)
            .and_then(|d| d.with_global_bits(self.global_bits))
            .unwrap()
            .with_storage(self.storage)
    }
}

impl System {
    /// The paper's size: 8 CTAs x 4 buffers, 128 B segments (Table 3), 32-bit global
    /// addresses; 32 banks of 512 words (64 KB, the entry's shared space), 8 lanes and 8-word
    /// fill beats; 4 MSHRs and 8 queued chunks; flip-flop storage.
    pub const PAPER: System = System {
        ctas: 8,
        buffers: 4,
        segment: 128,
        global_bits: 32,
        lanes: 8,
        banks: 32,
        depth: 512,
        mshrs: 4,
        chunks: 8,
        storage: Storage::FlipFlop,
    };

    /// A small size: 2 CTAs x 2 buffers, 32 B segments, 24-bit global addresses, 8 banks of
    /// 256 words (8 KB), 4 lanes, 2 MSHRs (so requests wait for one often), 4 queued chunks.
    pub const SMALL: System = System {
        ctas: 2,
        buffers: 2,
        segment: 32,
        global_bits: 24,
        lanes: 4,
        banks: 8,
        depth: 256,
        mshrs: 2,
        chunks: 4,
        storage: Storage::FlipFlop,
    };
}

fn floats(global: u64, shared: u16, count: u16, stride: u16) -> BufferEntry {
    BufferEntry {
        global,
        shared,
        count,
        size: 2,
        stride,
        ..Default::default()
    }
}

fn tile(global: u64, shared: u16, rows: u16, cols: u16, ld: u16) -> BufferEntry {
    BufferEntry {
        two_d: true,
        count: rows << 8 | cols,
        ..floats(global, shared, 0, ld)
    }
}

/// The phases: sgemv's vector (Fig. 8); a 4 x 4 tile with a 1 x 1 halo in each of the nine
/// regions; strided, transposed and out-of-bounds tiles; 1-, 2- and 4-byte elements side by
/// side; SAXPY's x and y for every CTA (Fig. 12). `n` is the vector length; phases hold at most `ctas x buffers` buffers.
pub fn phases(s: &System, n: u16) -> Vec<Vec<Buffer>> {
    let slots: Vec<(u32, u32)> = (0..s.ctas)
        .flat_map(|c| (0..s.buffers).map(move |b| (c, b)))
        .collect();
    let place = |entries: Vec<(BufferEntry, Option<Extent>)>| -> Vec<Vec<Buffer>> {
        entries
            .chunks(slots.len())
            .map(|group| {
                group
                    .iter()
                    .zip(&slots)
                    .map(|(&(entry, extent), &(cta, buf))| Buffer {
                        cta,
                        buf,
                        entry,
                        extent,
                    })
                    .collect()
            })
            .collect()
    };
    let mut out = Vec::new();
    out.extend(place(vec![(floats(0x8000, 0x100, n, 1), None)]));
    let halos = (1..=9u8)
        .map(|region| {
            let e = BufferEntry {
                mode: 1,
                halo_rows: 1,
                halo_cols: 1,
                region,
                halo_const: 0x1234 + u16::from(region),
                ..tile(
                    0x10000 + 0x40 * u64::from(region),
                    160 * u16::from(region),
                    4,
                    4,
                    64,
                )
            };
            (e, None)
        })
        .collect();
    out.extend(place(halos));
    let odd = vec![
        (floats(0x4000, 0x40, 16, 8), None),
        (floats(0x20000, 0x200, 32, 1024), None),
        (
            floats(0x6004, 0x400, 16, 1),
            Some(Extent { rows: 1, cols: 10 }),
        ),
        (
            BufferEntry {
                mode: 1,
                halo_rows: 1,
                halo_cols: 1,
                region: 9,
                ..tile(0x30000, 0x600, 4, 4, 64)
            },
            Some(Extent { rows: 3, cols: 2 }),
        ),
    ];
    out.extend(place(odd));
    // Element sizes side by side: a vector of floats, halfword tiles with halo constants and a
    // strided byte vector, walked around each other's completions (a chunk's element size is
    // the walked entry's, not what the controller's shared read port shows for a completing
    // one; this schedule does not place a constant chunk exactly in such a cycle).
    let halfword_tile = |global: u64, shared: u16, region: u8, halo_const: u16| BufferEntry {
        size: 1,
        mode: 1,
        halo_rows: 2,
        halo_cols: 2,
        region,
        halo_const,
        ..tile(global, shared, 4, 6, 64)
    };
    let sizes = vec![
        (floats(0x50000, 0x100, 12, 1), None),
        (halfword_tile(0x58000, 0x400, 1, 0xbeef), None),
        (
            BufferEntry {
                size: 0,
                ..floats(0x5c001, 0x800, 40, 3)
            },
            None,
        ),
        (halfword_tile(0x5a000, 0xa00, 5, 0x5a), None),
    ];
    out.extend(place(sizes));
    let saxpy = (0..s.ctas.min(4))
        .flat_map(|c| {
            let base = 0x100 + 2 * u64::from(c) * u64::from(n) * 4;
            let x = floats(0x40000 + u64::from(c) * u64::from(n) * 4, base as u16, n, 1);
            let y = floats(
                0x80000 + u64::from(c) * u64::from(n) * 4,
                (base + u64::from(n) * 4) as u16,
                n,
                1,
            );
            [(x, None), (y, None)]
        })
        .collect::<Vec<_>>();
    // SAXPY: CTA c's x and y in its buffers 0 and 1, all concurrent.
    let mut sax = Vec::new();
    for (k, (e, x)) in saxpy.into_iter().enumerate() {
        sax.push(Buffer {
            cta: k as u32 / 2,
            buf: k as u32 % 2,
            entry: e,
            extent: x,
        });
    }
    out.push(sax);
    out
}

/// The testbench of `s` running `phases`: the engine, the shared memory (module `smem_top`,
/// generated by `rtl-gen smem` with `lanes` fill words), the memory model, the command and
/// load tables. Returns its text and the number of loads it checks.
pub fn testbench(s: &System, smem_top: &str, phases: &[Vec<Buffer>]) -> (String, usize) {
    let d = s.design();
    let dp = s.data_path();
    let (cb, bb, tb) = (d.cta_bits(), d.buf_bits(), dp.tag_bits());
    let (l, n) = (s.lanes, s.addr_bits());
    let seg = s.segment;
    // Commands: shape, halo, extent (or none), then the global base (last: it makes the entry
    // ready).
    let mut cmds = Vec::new();
    // Loads: (phase, cta, shared byte address, first word, expected words, masks).
    let mut loads = Vec::new();
    let mut probes = Vec::new();
    let mut completions = Vec::new();
    for (p, phase) in phases.iter().enumerate() {
        completions.push(phase.len());
        for b in phase {
            let mut parts = vec![
                (1, b.entry.part_value(Part::Shape)),
                (2, b.entry.part_value(Part::Halo)),
            ];
            // The extent outlives completion: a buffer without one turns the fill off.
            parts.push((3, b.extent.map_or(0, |x| x.field(b.entry.two_d))));
            parts.push((0, d.wrap_global(b.entry.part_value(Part::Global))));
            for (part, value) in parts {
                cmds.push((p, b.cta, b.buf, part, value));
            }
            let image = shared_image(&b.entry, b.extent, |a| pattern(d.wrap_global(a))).unwrap();
            let mut words: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
            for (&addr, &v) in &image {
                let w = words.entry(u32::from(addr) / 4).or_default();
                let byte = u32::from(addr) % 4;
                w.0 |= u32::from(v) << (8 * byte);
                w.1 |= 1 << byte;
            }
            let first = *words.keys().next().unwrap();
            let last = *words.keys().last().unwrap();
            let mut w0 = first;
            while w0 <= last {
                let lanes: Vec<(u32, u32)> = (0..l)
                    .map(|k| words.get(&(w0 + k)).copied().unwrap_or((0, 0)))
                    .collect();
                loads.push((p, b.cta, (w0 * 4).max(u32::from(b.entry.shared)), w0, lanes));
                w0 += l;
            }
        }
        // Probes: every CTA, just below and above each of its buffers, and inside the buffers of
        // the other CTAs.
        for c in 0..s.ctas {
            for b in phase {
                let start = u32::from(b.entry.shared);
                let end = start + b.entry.shared_span() as u32;
                let mine = |a: u32| {
                    phase.iter().any(|o| {
                        let st = u32::from(o.entry.shared);
                        o.cta == c && a >= st && a < st + o.entry.shared_span() as u32
                    })
                };
                for a in [start.wrapping_sub(4), end, start] {
                    if a < 0x10000 && !mine(a) {
                        probes.push((p, c, a));
                    }
                }
            }
        }
    }
    let mut v = String::new();
    let w = &mut v;
    let fw = dp.fill_words;
    writeln!(
        w,
        "// End-to-end testbench: {} with {smem_top}.",
        engine::data_name(&d, &dp)
    )
    .unwrap();
    writeln!(w, "module tb;").unwrap();
    writeln!(
        w,
        "  reg clk = 1'b0;\n  reg rst_n = 1'b0;\n  integer cycle = 0;"
    )
    .unwrap();
    writeln!(w, "  localparam NC = {};\n  localparam NL = {};\n  localparam NP = {};\n  localparam NPH = {};",
        cmds.len(), loads.len(), probes.len(), phases.len()).unwrap();
    writeln!(
        w,
        "  reg [1:0] c_part [0:NC-1];\n  reg [63:0] c_data [0:NC-1];\n  reg [31:0] c_cta [0:NC-1];"
    )
    .unwrap();
    writeln!(
        w,
        "  reg [31:0] c_buf [0:NC-1];\n  reg [31:0] c_phase [0:NC-1];"
    )
    .unwrap();
    writeln!(w, "  reg [31:0] l_phase [0:NL-1];\n  reg [31:0] l_cta [0:NL-1];\n  reg [15:0] l_addr [0:NL-1];").unwrap();
    writeln!(w, "  reg [{}:0] l_word [0:NL-1];\n  reg [{}:0] l_exp [0:NL-1];\n  reg [{}:0] l_mask [0:NL-1];",
        n - 1, 32 * l - 1, 4 * l - 1).unwrap();
    writeln!(w, "  reg [31:0] p_phase [0:NP-1];\n  reg [31:0] p_cta [0:NP-1];\n  reg [15:0] p_addr [0:NP-1];").unwrap();
    writeln!(w, "  reg [31:0] ph_done [0:NPH-1];").unwrap();
    writeln!(w, "  initial begin").unwrap();
    for (i, (p, c, b, part, value)) in cmds.iter().enumerate() {
        writeln!(w, "    c_phase[{i}] = {p}; c_cta[{i}] = {c}; c_buf[{i}] = {b}; c_part[{i}] = {part}; c_data[{i}] = 64'h{value:x};").unwrap();
    }
    for (i, (p, c, a, w0, lanes)) in loads.iter().enumerate() {
        let exp: String = lanes.iter().rev().map(|x| format!("{:08x}", x.0)).collect();
        let mask: String = lanes.iter().rev().map(|x| format!("{:x}", x.1)).collect();
        writeln!(w, "    l_phase[{i}] = {p}; l_cta[{i}] = {c}; l_addr[{i}] = 16'h{a:x}; l_word[{i}] = {w0};").unwrap();
        writeln!(
            w,
            "    l_exp[{i}] = {}'h{exp};\n    l_mask[{i}] = {}'h{mask};",
            32 * l,
            4 * l
        )
        .unwrap();
    }
    for (i, (p, c, a)) in probes.iter().enumerate() {
        writeln!(
            w,
            "    p_phase[{i}] = {p}; p_cta[{i}] = {c}; p_addr[{i}] = 16'h{a:x};"
        )
        .unwrap();
    }
    for (i, k) in completions.iter().enumerate() {
        writeln!(w, "    ph_done[{i}] = {k};").unwrap();
    }
    writeln!(w, "  end").unwrap();
    let gb = s.global_bits;
    write!(
        w,
        r#"
  // Engine ports.
  reg cfg_valid; reg [{cm}:0] cfg_cta; reg [{bm}:0] cfg_buf; reg [1:0] cfg_part; reg [63:0] cfg_data;
  reg load_valid; reg [{cm}:0] load_cta; reg [15:0] load_addr;
  reg resp_valid; reg [{tm}:0] resp_tag; reg [{sm}:0] resp_data;
  wire req_valid; wire [{gm}:0] req_addr; wire [{tm}:0] req_tag;
  wire fill_valid; wire fill_ready; wire [{fm}:0] fill_mask; wire [{fam}:0] fill_addr;
  wire [{fdm}:0] fill_data; wire [{fbm}:0] fill_be;
  wire complete_valid; wire [{cm}:0] complete_cta; wire [{bm}:0] complete_buf;
  wire wait_o; wire [{ctm}:0] release_o;
  {engine} u_engine (
    .clk_i(clk), .rst_ni(rst_n), .cfg_valid_i(cfg_valid), .cfg_cta_i(cfg_cta), .cfg_buf_i(cfg_buf),
    .cfg_part_i(cfg_part), .cfg_data_i(cfg_data), .load_valid_i(load_valid), .load_cta_i(load_cta),
    .load_addr_i(load_addr), .mem_req_ready_i(1'b1), .mem_resp_valid_i(resp_valid),
    .mem_resp_tag_i(resp_tag), .mem_resp_data_i(resp_data), .fill_ready_i(fill_ready),
    .mem_req_valid_o(req_valid), .mem_req_addr_o(req_addr), .mem_req_tag_o(req_tag),
    .fill_valid_o(fill_valid), .fill_mask_o(fill_mask), .fill_addr_o(fill_addr), .fill_data_o(fill_data),
    .fill_be_o(fill_be), .complete_valid_o(complete_valid), .complete_cta_o(complete_cta),
    .complete_buf_o(complete_buf), .wait_o(wait_o), .release_o(release_o));

  // Shared memory ports (warp side).
  reg req_v; reg [{lam}:0] req_a; wire req_ready; wire resp_v; wire resp_w; wire [{ldm}:0] resp_d;
  wire [31:0] cnt_a; wire [31:0] cnt_f; wire [31:0] cnt_b; wire [31:0] cnt_c;
  {smem} u_smem (
    .clk_i(clk), .rst_ni(rst_n), .req_valid_i(req_v), .req_ready_o(req_ready), .req_write_i(1'b0),
    .req_mask_i({{{l}{{1'b1}}}}), .req_addr_i(req_a), .req_wdata_i({{{lw}{{1'b0}}}}), .req_be_i({{{lb}{{1'b0}}}}),
    .fill_valid_i(fill_valid), .fill_ready_o(fill_ready), .fill_mask_i(fill_mask), .fill_addr_i(fill_addr),
    .fill_data_i(fill_data), .fill_be_i(fill_be), .resp_valid_o(resp_v), .resp_ready_i(1'b1),
    .resp_write_o(resp_w), .resp_rdata_o(resp_d), .cnt_accesses_o(cnt_a), .cnt_fills_o(cnt_f),
    .cnt_bank_cycles_o(cnt_b), .cnt_conflict_cycles_o(cnt_c));

  // Global memory: 16 requests in flight, each answered 4 to 35 cycles after it was taken,
  // the lowest slot due first (so out of order).
  reg [31:0] lfsr;
  reg m_valid [0:15]; reg [63:0] m_addr [0:15]; reg [{tm}:0] m_tag [0:15]; integer m_due [0:15];
  integer i, k, free_slot, due_slot;
  function [7:0] gbyte(input [63:0] a);
    gbyte = a[7:0] ^ a[15:8] ^ a[23:16];
  endfunction

  // The warp (0 idle, 1 load presented to the RAW check, 2 read presented, 3 awaiting data).
  integer phase = 0, ci = 0, li = 0, pi = 0, done_in_phase = 0, waits = 0, probes = 0;
  integer passed = 0, failed = 0, state = 0, phase_start = 0;
  reg probe_turn = 1'b0;
  reg [{ldm}:0] got;

  always #5 clk = ~clk;
  initial #22 rst_n = 1'b1;

  always @(posedge clk) if (!rst_n) begin
    for (i = 0; i < 16; i = i + 1) m_valid[i] = 1'b0;
    lfsr <= 32'h1;
    cfg_valid <= 1'b0; load_valid <= 1'b0; resp_valid <= 1'b0; req_v <= 1'b0;
    cfg_cta <= 0; cfg_buf <= 0; cfg_part <= 0; cfg_data <= 0; load_cta <= 0; load_addr <= 0;
    resp_tag <= 0; resp_data <= 0; req_a <= 0;
  end else begin
    cycle = cycle + 1;
    lfsr <= {{lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]}};
    // Memory: take a request, answer one that is due.
    if (req_valid) begin
      free_slot = -1;
      for (i = 15; i >= 0; i = i - 1) if (!m_valid[i]) free_slot = i;
      if (free_slot < 0) begin $display("FAIL more than 16 requests in flight"); $fatal(1); end
      m_valid[free_slot] = 1'b1; m_addr[free_slot] = {{{ga}'b0, req_addr}}; m_tag[free_slot] = req_tag;
      m_due[free_slot] = cycle + 4 + {{27'b0, lfsr[4:0]}};
    end
    due_slot = -1;
    for (i = 15; i >= 0; i = i - 1) if (m_valid[i] && m_due[i] <= cycle) due_slot = i;
    resp_valid <= due_slot >= 0;
    if (due_slot >= 0) begin
      m_valid[due_slot] = 1'b0;
      resp_tag <= m_tag[due_slot];
      for (k = 0; k < {seg}; k = k + 1) resp_data[8*k +: 8] <= gbyte(m_addr[due_slot] + {{32'b0, k}});
    end
    if (complete_valid) done_in_phase = done_in_phase + 1;
    // Configuration commands of this phase, one a cycle.
    cfg_valid <= 1'b0;
    if (ci < NC && c_phase[ci] == phase) begin
      cfg_valid <= 1'b1; cfg_cta <= c_cta[ci][{cm}:0]; cfg_buf <= c_buf[ci][{bm}:0];
      cfg_part <= c_part[ci]; cfg_data <= c_data[ci]; ci = ci + 1;
    end
    load_valid <= 1'b0;
    if (state == 1 && probe_turn) begin
      // A probe outside its CTA's in-flight buffers must not wait; then the load again.
      if (wait_o) begin
        $display("FAIL probe of CTA %0d at %h waited (cycle %0d)", load_cta, load_addr, cycle);
        failed = failed + 1;
      end
      probe_turn = 1'b0; load_valid <= 1'b1; load_cta <= l_cta[li][{cm}:0]; load_addr <= l_addr[li];
    end else if (state == 1 && wait_o) begin
      // The load waits for its buffer; a probe takes the port next cycle if one is left.
      waits = waits + 1;
      if (pi < NP && p_phase[pi] == phase) begin
        probe_turn = 1'b1; load_valid <= 1'b1; load_cta <= p_cta[pi][{cm}:0]; load_addr <= p_addr[pi];
        pi = pi + 1; probes = probes + 1;
      end else begin
        load_valid <= 1'b1; load_cta <= l_cta[li][{cm}:0]; load_addr <= l_addr[li];
      end
    end else if (state == 1) begin
      // The RAW check lets it go: read the words.
      state = 2; req_v <= 1'b1;
      for (k = 0; k < {l}; k = k + 1) req_a[{n}*k +: {n}] <= l_word[li] + k[{nm}:0];
    end else if (state == 2 && req_ready) begin
      state = 3; req_v <= 1'b0;
    end else if (state == 3 && resp_v && !resp_w) begin
      got = resp_d;
      for (k = 0; k < {l4}; k = k + 1)
        if (l_mask[li][k] && got[8*k +: 8] !== l_exp[li][8*k +: 8]) begin
          if (failed < 10)
            $display("MISMATCH load %0d byte %0d: got %h, model %h", li, k, got[8*k +: 8], l_exp[li][8*k +: 8]);
          failed = failed + 1;
        end
      passed = passed + 1; li = li + 1; state = 0;
    end else if (state == 0 && li < NL && l_phase[li] == phase && (ci == NC || c_phase[ci] != phase)
               && !cfg_valid) begin
      // Warps load once every command of the phase has been taken.
      state = 1; load_valid <= 1'b1; load_cta <= l_cta[li][{cm}:0]; load_addr <= l_addr[li];
    end else if (state == 0 && (li == NL || l_phase[li] != phase) && done_in_phase == ph_done[phase]) begin
      // The phase ends when its loads are read and its buffers completed.
      $display("phase %0d: %0d cycles from its first command to its last load's data", phase, cycle - phase_start);
      phase = phase + 1; done_in_phase = 0; phase_start = cycle;
      while (pi < NP && p_phase[pi] < phase) pi = pi + 1;
    end
    if (phase == NPH) begin
      $display("%0d passed, %0d failed (%0d cycles, %0d waits, %0d probes)", passed, failed, cycle, waits, probes);
      if (failed != 0) $fatal(1);
      $finish;
    end
    if (cycle > 200000) begin $display("FAIL timeout in phase %0d", phase); $fatal(1); end
  end
endmodule
"#,
        cm = cb - 1,
        bm = bb - 1,
        tm = tb - 1,
        sm = seg * 8 - 1,
        gm = gb - 1,
        fm = fw - 1,
        fam = fw * n - 1,
        fdm = fw * 32 - 1,
        fbm = fw * 4 - 1,
        ctm = s.ctas - 1,
        engine = engine::data_name(&d, &dp),
        smem = smem_top,
        lam = l * n - 1,
        ldm = l * 32 - 1,
        lw = l * 32,
        lb = l * 4,
        l4 = l * 4,
        nm = n - 1,
        ga = 64 - gb,
    )
    .unwrap();
    (v, loads.len())
}

/// The engine's modules with its data path, sub-modules first and the top last; `header` is
/// the leading comment of the top module (and of its data path's modules), `sub_header` that
/// of each of its units.
pub fn engine_modules(
    s: &System,
    header: Vec<String>,
    sub_header: &dyn Fn(&D2maDesign) -> Vec<String>,
) -> Vec<Module> {
    let (top, subs) = engine::build_with(&s.design(), Some(&s.data_path()), header, sub_header);
    subs.into_iter().chain(std::iter::once(top)).collect()
}
