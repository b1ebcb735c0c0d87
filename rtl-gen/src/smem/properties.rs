//! The shared memory's properties (`rtl-gen prove --properties`): its property module, written
//! from the manifest and the semantics of docs/SMEM.md, never from the generator's code.
//!
//! The module instantiates the memory with every input free and keeps:
//!
//! - the **outstanding count**: warp accesses accepted and not yet answered;
//! - a **tagged access**: a symbolic choice (`pick_i`) among the accesses accepted, with its
//!   place in the response order, its age and what it must return;
//! - the **shadow of one symbolic physical word** (`bank_q`, `row_q`, constant): the bytes the
//!   accepted warp writes and fill beats define there, in the order they are accepted (each
//!   byte from the highest lane, or the highest beat word, that enables it), with a flag per
//!   byte once defined. Lane addresses are mapped by instances of the memory's own map module
//!   (`<top>_map`, proved against its reference by `rtl-gen prove`), programmed as the memory's
//!   (the configuration register, or the same RAP table writes), so a map written at run time
//!   is followed;
//! - the waits of each port.
//!
//! The banks are replaced by a bank that holds the symbolic row exactly and returns anything
//! for any other row: every behaviour of the real bank is one of its behaviours, so what holds
//! with it holds with the real bank, at any depth (the 32 x 32 x 512-word memory is proved
//! with 32 words of bank state, not 512 Kbit).
//!
//! The bounds, for `L` lanes, fill beats of `F` words and a consumer that takes each response
//! within `S` cycles of its showing:
//!
//! - a request waits at most `L + F - 1 + 2 (S - 1)` cycles, whatever the other port does: the
//!   access or beat in the grant stage (at most `L` passes, `F` for a beat; its last pass frees
//!   the stage), then at most one turn of the other port (round robin), each pass delayed by at
//!   most `S - 1` cycles of back-pressure from at most two responses ahead;
//! - an accepted access is answered within `L + 1 + 3 (S - 1)` cycles: its passes, the pass
//!   and response registers, and the back-pressure of the two responses ahead and its own.

use crate::prove::block::BlockUnderProof;
use crate::prove::properties::{self, define_name, Engine, Harness, Options, Probe, Property};
use crate::prove::ProveError;
use std::fmt::Write;

/// The shared memory's property set (the registry lists it).
pub struct Properties;

impl properties::Properties for Properties {
    fn family(&self) -> &'static str {
        "smem"
    }

    fn harness(
        &self,
        block: &BlockUnderProof,
        options: &Options,
    ) -> Result<Option<Harness>, ProveError> {
        Shape::read(block).map(|shape| Some(shape.harness(block, options)))
    }
}

/// What the property module needs to know of a memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Lanes `L`.
    pub lanes: u32,
    /// Banks.
    pub banks: u32,
    /// Word address bits `n`.
    pub addr_bits: u32,
    /// Bits of a bank's row.
    pub row_bits: u32,
    /// Bits of the bank index.
    pub bank_bits: u32,
    /// Bytes of a word.
    pub word_bytes: u32,
    /// Words of a fill beat `F`.
    pub fill_words: u32,
    /// The map has a configuration register (`cfg_we_i`, `cfg_i`).
    pub configurable: bool,
    /// The map is a loadable RAP converter (`perm_we_i`, `perm_idx_i`, `perm_val_i`).
    pub loadable: bool,
}

/// `ceil(log2(x))`, at least 1.
fn bits_for(x: u32) -> u32 {
    (32 - x.saturating_sub(1).leading_zeros()).max(1)
}

impl Shape {
    /// Reads the memory's shape from its manifest's ports and configuration.
    pub fn read(block: &BlockUnderProof) -> Result<Shape, ProveError> {
        let root = block.root();
        let port = |name: &str| {
            block
                .port(name)
                .map(|p| p.width)
                .ok_or_else(|| root.get("ports").bad(&format!("a port `{name}`")))
        };
        let lanes = port("req_mask_i")?;
        let fill_words = port("fill_mask_i")?;
        let c = root.get("configuration");
        let power = |key: &str| {
            let field = c.get(key);
            field
                .u32()
                .ok()
                .filter(|v| v.is_power_of_two() && *v >= 2)
                .ok_or_else(|| field.bad("a power of two, at least 2"))
        };
        let (banks, depth) = (power("banks")?, power("depth")?);
        let word_bytes = port("req_be_i")? / lanes.max(1);
        let addr_bits = port("req_addr_i")? / lanes.max(1);
        if lanes == 0 || port("req_wdata_i")? != lanes * word_bytes * 8 {
            return Err(root
                .get("ports")
                .bad("req_wdata_i of 8 bits per byte enable of each lane"));
        }
        Ok(Shape {
            lanes,
            banks,
            addr_bits,
            row_bits: depth.trailing_zeros(),
            bank_bits: banks.trailing_zeros(),
            word_bytes,
            fill_words,
            configurable: block.port("cfg_we_i").is_some(),
            loadable: block.port("perm_we_i").is_some(),
        })
    }

    /// The longest wait of a request on either port ([`self`] module docs).
    pub fn wait_bound(&self, stall: u32) -> u32 {
        self.lanes + self.fill_words - 1 + 2 * (stall - 1)
    }

    /// The most cycles from an access's acceptance to its response being taken.
    pub fn response_bound(&self, stall: u32) -> u32 {
        self.lanes + 1 + 3 * (stall - 1)
    }

    /// Bits of a lane's entry in the grant stage (`{be, wdata, row, bank}`).
    fn lane_entry_bits(&self) -> u32 {
        self.bank_bits + self.row_bits + 9 * self.word_bytes
    }

    /// The harness: property module, bank replacement, probes and the properties.
    pub fn harness(&self, block: &BlockUnderProof, options: &Options) -> Harness {
        let top = format!("{}_props", block.top);
        let bank_file = format!("{}_bank.v", block.top);
        let files = block
            .rtl_files
            .iter()
            .filter(|f| !f.ends_with(&bank_file))
            .cloned()
            .collect();
        // The data properties' probes of the banks and the grant stage; the map's configuration
        // for every property (the harness's map instances follow it).
        let data = vec!["data-lemma", "read-data"];
        let mut probes = vec![];
        for k in 0..self.banks {
            probes.push(Probe {
                wire: "row_q".into(),
                source: format!("dut.u_bank{k}.track_row"),
                drive: true,
                only_for: data.clone(),
            });
            let w = 8 * self.word_bytes;
            probes.push(Probe {
                wire: format!("probe_word[{}:{}]", (k + 1) * w - 1, k * w),
                source: format!("dut.u_bank{k}.word_q"),
                drive: false,
                only_for: data.clone(),
            });
        }
        let e = self.lane_entry_bits();
        for i in 0..self.lanes {
            probes.push(Probe {
                wire: format!("probe_c_lanes[{}:{}]", (i + 1) * e - 1, i * e),
                source: format!("dut.c_lane{i}_q"),
                drive: false,
                only_for: data.clone(),
            });
        }
        for r in [
            "c_valid",
            "c_write",
            "c_pending",
            "c_same_bank",
            "c_same_word",
        ] {
            probes.push(Probe {
                wire: format!("probe_{r}"),
                source: format!("dut.{r}_q"),
                drive: false,
                only_for: data.clone(),
            });
        }
        if self.configurable {
            probes.push(Probe {
                wire: "probe_cfg".into(),
                source: "dut.cfg_q".into(),
                drive: false,
                only_for: vec![],
            });
        }
        Harness {
            top: top.clone(),
            files,
            generated: vec![
                (
                    format!("{top}.v"),
                    self.property_module(block, &top, options.stall),
                ),
                (
                    format!("{}_bank_abstract.v", block.top),
                    self.abstract_bank(&block.top),
                ),
            ],
            probes,
            reset: "rst_ni".into(),
            clock: "clk_i".into(),
            properties: self.properties(options),
        }
    }

    /// The properties, with their bounds for `options.stall`.
    fn properties(&self, options: &Options) -> Vec<Property> {
        let s = options.stall;
        let fair = format!(
            "the consumer takes each response within {s} cycle{} of its showing (resp_ready_i \
             low at most {} cycles in a row while resp_valid_o); reset in the first cycle; \
             every other input free",
            if s == 1 { "" } else { "s" },
            s - 1
        );
        let free = "reset in the first cycle; every input free afterwards (any warp \
                    accesses, fill beats, map writes and back-pressure)"
            .to_string();
        let (wait, answer) = (self.wait_bound(s), self.response_bound(s));
        let property = |name: &'static str, claim: String, assumption: &String, fairness| {
            let mut defines = vec![format!("PROP_{}", define_name(name))];
            if fairness {
                defines.push("FAIR".into());
            }
            Property {
                name,
                claim,
                assumption: assumption.clone(),
                defines,
                assumes: vec![],
                engine: Engine::Pdr,
                by_default: true,
            }
        };
        let mut list = vec![
            property(
                "response-count",
                "no response without an accepted warp access and none twice: the responses \
                 never outnumber the accesses, and at most 3 are outstanding"
                    .into(),
                &free,
                false,
            ),
            property(
                "response-bound",
                format!(
                    "every accepted warp access (read or write) is answered, its response \
                     taken within {answer} cycles of its acceptance (L + 1 + 3 (S - 1))"
                ),
                &fair,
                true,
            ),
            property(
                "request-wait",
                format!(
                    "a warp access presented is accepted within {wait} cycles (L + F - 1 + \
                     2 (S - 1)) whatever the fill port does"
                ),
                &fair,
                true,
            ),
            property(
                "fill-wait",
                format!(
                    "a fill beat presented is accepted within {wait} cycles whatever the warp \
                     port does"
                ),
                &fair,
                true,
            ),
            property(
                "full-rate",
                "after a conflict-free warp access is accepted, the next is accepted in the \
                 next cycle whenever the response port is ready and no fill beat is presented \
                 (one conflict-free access a cycle)"
                    .into(),
                &free,
                false,
            ),
        ];
        let mut lemma = property(
            "data-lemma",
            "the symbolic word as the banks and the grant stage's pending writes hold it \
             equals the bytes the accepted writes and beats defined (a lemma of read-data)"
                .into(),
            &free,
            false,
        );
        lemma.engine = Engine::KInduction { max_steps: 8 };
        lemma.by_default = false;
        list.push(lemma);
        let mut data = property(
            "read-data",
            "every accepted read returns in each active lane the bytes the warp writes and \
             fill beats accepted before it defined at its word, inactive lanes and writes \
             return 0, and a write's response says so"
                .into(),
            &free,
            false,
        );
        data.assumes = vec!["data-lemma"];
        data.by_default = false;
        data.engine = Engine::KInduction {
            max_steps: answer + 4,
        };
        list.push(data);
        list
    }

    /// The property module.
    fn property_module(&self, block: &BlockUnderProof, top: &str, stall: u32) -> String {
        let Shape {
            lanes: l,
            addr_bits: n,
            row_bits: r,
            bank_bits: bb,
            word_bytes: by,
            fill_words: f,
            ..
        } = *self;
        let w = 8 * by;
        let lb = bits_for(l);
        // The bounds, as defines a run may override (to show a bound one lower fails).
        let mut v = String::new();
        for (name, value) in [
            ("STALL_LIMIT", stall - 1),
            ("WAIT_LIMIT", self.wait_bound(stall)),
            ("ANSWER_LIMIT", self.response_bound(stall)),
        ] {
            let _ = writeln!(v, "`ifndef {name}\n`define {name} {value}\n`endif");
        }
        let inputs: Vec<&crate::prove::block::Port> =
            block.ports.iter().filter(|p| p.input).collect();
        let _ = writeln!(v, "module {top} (");
        for p in &inputs {
            let _ = writeln!(v, "  input  wire [{}:0] {},", p.width - 1, p.name);
        }
        let _ = writeln!(
            v,
            "  // Tags the warp access accepted in this cycle (a free choice).\n  \
             input  wire pick_i\n);"
        );
        for p in block.ports.iter().filter(|p| !p.input) {
            let _ = writeln!(v, "  wire [{}:0] {};", p.width - 1, p.name);
        }
        let _ = writeln!(v, "  {} dut (", block.top);
        let connections: Vec<String> = block
            .ports
            .iter()
            .map(|p| format!("    .{0}({0})", p.name))
            .collect();
        let _ = writeln!(v, "{}\n  );", connections.join(",\n"));
        let map_extra = |v: &mut String| {
            if self.configurable {
                v.push_str(", .cfg_i(probe_cfg)");
            }
            if self.loadable {
                v.push_str(
                    ", .clk_i(clk_i), .rst_ni(rst_ni), .perm_we_i(perm_we_i), \
                     .perm_idx_i(perm_idx_i), .perm_val_i(perm_val_i)",
                );
            }
        };
        let cfg_width = block.port("cfg_i").map_or(1, |p| p.width);
        let _ = writeln!(
            v,
            "  wire acc_req = req_valid_i & req_ready_o;\n  \
             wire acc_fill = fill_valid_i & fill_ready_o;\n  \
             wire resp_take = resp_valid_o & resp_ready_i;\n  \
             // The configuration register, probed (a configurable map's lanes use it).\n  \
             wire [{}:0] probe_cfg;\n  \
             // The symbolic lane and physical word (bank, row), constant.\n  \
             (* anyconst *) wire [{}:0] lane_q;\n  \
             (* anyconst *) wire [{}:0] bank_q;\n  \
             (* anyconst *) wire [{}:0] row_q;",
            cfg_width - 1,
            lb - 1,
            bb - 1,
            r - 1
        );
        if !l.is_power_of_two() {
            let _ = writeln!(v, "  always @* assume(lane_q < {lb}'d{l});");
        }
        // Every lane's (bank, row), and each fill word's, through the memory's map.
        let _ = writeln!(
            v,
            "  wire [{}:0] lane_bank;\n  wire [{}:0] lane_row;\n  \
             wire [{}:0] fill_bank;\n  wire [{}:0] fill_row;",
            l * bb - 1,
            l * r - 1,
            f * bb - 1,
            f * r - 1
        );
        for (port, prefix, count) in [("req_addr_i", "lane", l), ("fill_addr_i", "fill", f)] {
            for i in 0..count {
                let _ = write!(
                    v,
                    "  {}_map u_{prefix}{i} (.addr_i({port}[{}:{}]), .bank_o({prefix}_bank[{}:{}]), \
                     .row_o({prefix}_row[{}:{}])",
                    block.top,
                    (i + 1) * n - 1,
                    i * n,
                    (i + 1) * bb - 1,
                    i * bb,
                    (i + 1) * r - 1,
                    i * r
                );
                map_extra(&mut v);
                v.push_str(");\n");
            }
        }
        let at = |prefix: &str, i: u32| {
            format!(
                "({prefix}_bank[{}:{}] == bank_q) & ({prefix}_row[{}:{}] == row_q)",
                (i + 1) * bb - 1,
                i * bb,
                (i + 1) * r - 1,
                i * r
            )
        };
        // Fairness of the response port.
        let _ = writeln!(
            v,
            "  reg [7:0] hold_q;\n  \
             always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) hold_q <= 8'd0;\n    \
             else hold_q <= (resp_valid_o & ~resp_ready_i) ? hold_q + 8'd1 : 8'd0;\n\
             `ifdef FAIR\n  \
             always @* assume(!(resp_valid_o && !resp_ready_i && hold_q >= 8'd`STALL_LIMIT));\n\
             `endif\n\
             `ifdef INIT_RESET\n  \
             reg past_init_q = 1'b0;\n  \
             always @(posedge clk_i) past_init_q <= 1'b1;\n  \
             always @* if (!past_init_q) assume(!rst_ni);\n\
             `endif\n  \
             reg started_q;\n  \
             always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) started_q <= 1'b0;\n    \
             else started_q <= 1'b1;"
        );
        // The shadow of the symbolic word.
        let _ = writeln!(
            v,
            "  reg [{0}:0] shadow_q;\n  reg [{1}:0] def_q;\n  \
             wire [{0}:0] wr_data;\n  wire [{1}:0] wr_hit;",
            w - 1,
            by - 1
        );
        for b in 0..by {
            let mut data = format!("shadow_q[{}:{}]", 8 * b + 7, 8 * b);
            let mut hits = Vec::new();
            for i in 0..l {
                let hit = format!("hit_w{i}_{b}");
                let _ = writeln!(
                    v,
                    "  wire {hit} = acc_req & req_write_i & req_mask_i[{i}] & req_be_i[{}] &\n    \
                     {};",
                    i * by + b,
                    at("lane", i)
                );
                data = format!(
                    "{hit} ? req_wdata_i[{}:{}] :\n    {data}",
                    i * w + 8 * b + 7,
                    i * w + 8 * b
                );
                hits.push(hit);
            }
            for k in 0..f {
                let hit = format!("hit_f{k}_{b}");
                let _ = writeln!(
                    v,
                    "  wire {hit} = acc_fill & fill_mask_i[{k}] & fill_be_i[{}] &\n    {};",
                    k * by + b,
                    at("fill", k)
                );
                data = format!(
                    "{hit} ? fill_data_i[{}:{}] :\n    {data}",
                    k * w + 8 * b + 7,
                    k * w + 8 * b
                );
                hits.push(hit);
            }
            let _ = writeln!(
                v,
                "  assign wr_data[{}:{}] =\n    {data};\n  assign wr_hit[{b}] = {};",
                8 * b + 7,
                8 * b,
                hits.join(" | ")
            );
        }
        let _ = writeln!(
            v,
            "  always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) begin\n      def_q <= {by}'d0;\n      shadow_q <= {w}'d0;\n    \
             end else begin\n      def_q <= def_q | wr_hit;\n      shadow_q <= wr_data;\n    \
             end"
        );
        // Outstanding accesses and the tagged one.
        let _ = writeln!(
            v,
            "  reg [3:0] out_q;\n  \
             always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) out_q <= 4'd0;\n    \
             else out_q <= out_q + {{3'd0, acc_req}} - {{3'd0, resp_take}};\n  \
             wire lane_active = req_mask_i[lane_q];\n  \
             wire [{bb1}:0] tagged_bank = lane_bank >> (lane_q * {bb});\n  \
             wire [{r1}:0] tagged_row = lane_row >> (lane_q * {r});\n  \
             wire [{w1}:0] lane_rdata = resp_rdata_o >> (lane_q * {w});\n  \
             reg tag_v, tag_write, tag_active, tag_hit;\n  reg [3:0] tag_pos;\n  \
             reg [{w1}:0] tag_exp;\n  reg [{by1}:0] tag_def;\n  reg [15:0] tag_age;\n  \
             wire tag_now = acc_req & ~tag_v & pick_i;\n  \
             wire tag_resp = tag_v & resp_take & (tag_pos == 4'd0);\n  \
             always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) begin\n      \
             tag_v <= 1'b0;\n      tag_pos <= 4'd0;\n      tag_write <= 1'b0;\n      \
             tag_active <= 1'b0;\n      tag_hit <= 1'b0;\n      tag_exp <= {w}'d0;\n      \
             tag_def <= {by}'d0;\n      tag_age <= 16'd0;\n    \
             end else if (tag_now) begin\n      \
             tag_v <= 1'b1;\n      tag_pos <= out_q - {{3'd0, resp_take}};\n      \
             tag_write <= req_write_i;\n      tag_active <= lane_active;\n      \
             tag_hit <= (tagged_bank == bank_q) & (tagged_row == row_q);\n      \
             tag_exp <= shadow_q;\n      tag_def <= def_q;\n      tag_age <= 16'd0;\n    \
             end else if (tag_v) begin\n      \
             tag_age <= tag_age + 16'd1;\n      \
             if (resp_take) begin\n        \
             if (tag_pos == 4'd0) tag_v <= 1'b0;\n        \
             else tag_pos <= tag_pos - 4'd1;\n      end\n    end",
            bb1 = bb - 1,
            r1 = r - 1,
            w1 = w - 1,
            by1 = by - 1
        );
        // Waits of each port.
        let _ = writeln!(
            v,
            "  reg [15:0] req_wait_q, fill_wait_q;\n  \
             always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) begin\n      req_wait_q <= 16'd0;\n      fill_wait_q <= 16'd0;\n    \
             end else begin\n      \
             req_wait_q <= (req_valid_i & ~req_ready_o) ? req_wait_q + 16'd1 : 16'd0;\n      \
             fill_wait_q <= (fill_valid_i & ~fill_ready_o) ? fill_wait_q + 16'd1 : 16'd0;\n    \
             end"
        );
        // One pass: no two active lanes ask one bank for two words (and, for 8-byte words
        // with lanes in several groups of `banks`, a store's active lanes in one group).
        let mut conflicts = Vec::new();
        for i in 0..l {
            for j in i + 1..l {
                conflicts.push(format!(
                    "req_mask_i[{i}] & req_mask_i[{j}] & (lane_bank[{}:{}] == lane_bank[{}:{}]) & \
                     (lane_row[{}:{}] != lane_row[{}:{}])",
                    (i + 1) * bb - 1,
                    i * bb,
                    (j + 1) * bb - 1,
                    j * bb,
                    (i + 1) * r - 1,
                    i * r,
                    (j + 1) * r - 1,
                    j * r
                ));
            }
        }
        if by == 8 && l > self.banks {
            let groups = l / self.banks;
            let active: Vec<String> = (0..groups)
                .map(|g| {
                    format!(
                        "(|req_mask_i[{}:{}])",
                        (g + 1) * self.banks - 1,
                        g * self.banks
                    )
                })
                .collect();
            for a in 0..active.len() {
                for b2 in a + 1..active.len() {
                    conflicts.push(format!("req_write_i & {} & {}", active[a], active[b2]));
                }
            }
        }
        let conflict = if conflicts.is_empty() {
            "1'b0".to_string()
        } else {
            conflicts
                .iter()
                .map(|c| format!("({c})"))
                .collect::<Vec<_>>()
                .join(" |\n    ")
        };
        let _ = writeln!(
            v,
            "  wire conflict =\n    {conflict};\n  reg one_pass_q;\n  \
             always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) one_pass_q <= 1'b0;\n    \
             else one_pass_q <= acc_req & ~conflict;"
        );
        // The lemma's view of the word: the bank's, or a pending write's bytes.
        let e = self.lane_entry_bits();
        let _ = writeln!(
            v,
            "  // Probes of the grant stage and the banks, connected by the proof script.\n  \
             wire probe_c_valid, probe_c_write;\n  wire [{}:0] probe_c_pending;\n  \
             wire [{pairs}:0] probe_c_same_bank, probe_c_same_word;\n  \
             wire [{}:0] probe_c_lanes;\n  wire [{}:0] probe_word;\n  \
             wire [{w1}:0] word_at = probe_word >> (bank_q * {w});\n  wire [{w1}:0] held;",
            l - 1,
            l * e - 1,
            self.banks * w - 1,
            w1 = w - 1,
            pairs = (l * (l - 1) / 2).max(1) - 1
        );
        for i in 0..l {
            let base = i * e;
            let _ = writeln!(
                v,
                "  wire pend{i} = probe_c_valid & probe_c_write & probe_c_pending[{i}] &\n    \
                 (probe_c_lanes[{}:{}] == bank_q) & (probe_c_lanes[{}:{}] == row_q);",
                base + bb - 1,
                base,
                base + bb + r - 1,
                base + bb
            );
        }
        for b in 0..by {
            let mut e_expr = format!("word_at[{}:{}]", 8 * b + 7, 8 * b);
            for i in 0..l {
                let base = i * e;
                e_expr = format!(
                    "(pend{i} & probe_c_lanes[{}]) ? probe_c_lanes[{}:{}] :\n    {e_expr}",
                    base + bb + r + w + b,
                    base + bb + r + 8 * b + 7,
                    base + bb + r + 8 * b
                );
            }
            let _ = writeln!(v, "  assign held[{}:{}] =\n    {e_expr};", 8 * b + 7, 8 * b);
        }
        // The properties.
        let _ = writeln!(v, "  always @* begin\n    if (started_q) begin");
        let guard = |v: &mut String, name: &str, body: &str| {
            let d = define_name(name);
            let _ = writeln!(v, "`ifdef PROP_{d}\n{body}`endif");
            let assumed = body.replace("assert(", "assume(");
            let _ = writeln!(v, "`ifdef ASSUME_{d}\n{assumed}`endif");
        };
        guard(
            &mut v,
            "response-count",
            "      assert(out_q <= 4'd3);\n      assert(!resp_valid_o || out_q != 4'd0);\n",
        );
        guard(
            &mut v,
            "response-bound",
            "      assert(!tag_v || tag_age <= 16'd`ANSWER_LIMIT);\n",
        );
        guard(
            &mut v,
            "request-wait",
            "      assert(req_wait_q <= 16'd`WAIT_LIMIT);\n",
        );
        guard(
            &mut v,
            "fill-wait",
            "      assert(fill_wait_q <= 16'd`WAIT_LIMIT);\n",
        );
        guard(
            &mut v,
            "full-rate",
            "      if (one_pass_q && resp_ready_i && !fill_valid_i) assert(req_ready_o);\n",
        );
        // The grant stage's pair vectors and byte enables are consistent with its lanes (pair
        // (i, j), i < j, at bit j (j - 1) / 2 + i): the lemma's strengthening, so that the
        // induction needs no flushing of the stage (and no fairness).
        let mut lemma = String::new();
        let field = |i: u32, lo: u32, width: u32| {
            format!("probe_c_lanes[{}:{}]", i * e + lo + width - 1, i * e + lo)
        };
        for j in 0..l {
            for i in 0..j {
                let k = j * (j - 1) / 2 + i;
                let same_bank = format!("({} == {})", field(i, 0, bb), field(j, 0, bb));
                let same_word = format!(
                    "({same_bank} && {} == {})",
                    field(i, bb, r),
                    field(j, bb, r)
                );
                let _ = writeln!(
                    lemma,
                    "      if (probe_c_valid && probe_c_pending[{i}] && probe_c_pending[{j}]) begin\n        \
                     assert(probe_c_same_bank[{k}] == {same_bank});\n        \
                     assert(probe_c_same_word[{k}] == {same_word});\n        \
                     if (probe_c_write && {same_word})\n          \
                     assert(({} & {}) == {by}'d0);\n      end",
                    field(i, bb + r + w, by),
                    field(j, bb + r + w, by)
                );
            }
        }
        let mut data = String::from(
            "      if (tag_resp) begin\n        assert(resp_write_o == tag_write);\n        \
             if (tag_write || !tag_active) assert(lane_rdata == 0);\n",
        );
        for b in 0..by {
            let (hi, lo) = (8 * b + 7, 8 * b);
            let _ = writeln!(
                lemma,
                "      if (def_q[{b}]) assert(held[{hi}:{lo}] == shadow_q[{hi}:{lo}]);"
            );
            let _ = writeln!(
                data,
                "        if (!tag_write && tag_active && tag_hit && tag_def[{b}])\n          \
                 assert(lane_rdata[{hi}:{lo}] == tag_exp[{hi}:{lo}]);"
            );
        }
        data.push_str("      end\n");
        guard(&mut v, "data-lemma", &lemma);
        guard(&mut v, "read-data", &data);
        v.push_str("    end\n  end\nendmodule\n");
        v
    }

    /// The bank replacement: the symbolic row exactly, anything elsewhere.
    fn abstract_bank(&self, top: &str) -> String {
        let (r, by) = (self.row_bits, self.word_bytes);
        let w = 8 * by;
        let mut v = format!(
            "// Holds row `track_row` (driven by the proof script) exactly and returns anything\n\
             // for any other row: an over-approximation of {top}_bank.\n\
             module {top}_bank (\n  input  wire clk_i,\n  input  wire rst_ni,\n  \
             input  wire [0:0] ce_i,\n  input  wire [0:0] we_i,\n  \
             input  wire [{r1}:0] addr_i,\n  input  wire [{w1}:0] wdata_i,\n  \
             input  wire [{by1}:0] be_i,\n  output wire [{w1}:0] rdata_o\n);\n  \
             wire [{r1}:0] track_row;\n  wire [{w1}:0] other;\n  reg [{w1}:0] word_q;\n  \
             reg [{w1}:0] rdata_q;\n",
            r1 = r - 1,
            w1 = w - 1,
            by1 = by - 1
        );
        for b in 0..by {
            let _ = writeln!(
                v,
                "  always @(posedge clk_i)\n    \
                 if (ce_i & we_i & (addr_i == track_row) & be_i[{b}])\n      \
                 word_q[{}:{}] <= wdata_i[{}:{}];",
                8 * b + 7,
                8 * b,
                8 * b + 7,
                8 * b
            );
        }
        let _ = writeln!(
            v,
            "  always @(posedge clk_i or negedge rst_ni)\n    \
             if (!rst_ni) rdata_q <= {w}'d0;\n    \
             else if (ce_i & ~we_i) rdata_q <= (addr_i == track_row) ? word_q : other;\n  \
             assign rdata_o = rdata_q;\nendmodule"
        );
        v
    }
}
