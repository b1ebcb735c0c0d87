//! The reference netlists the generated modules are proved against, written as Verilog by a
//! writer of their own: from the golden models (`models::HashConfig::to_matrix`, the RAP
//! tables) and the families' definitions (docs/HASH.md, docs/RAP.md), never from the
//! generators' RTL code.
//!
//! Each reference has the block's interface and carries its domain as `assume` statements
//! (field values in range, indices below `w`, loaded shifts below `w`): the proof covers every
//! input the assumptions allow.

use super::block::{CfgField, HashBlock, HashForm, Port, RapBlock, RawCheckBlock, WritePort};
use models::HashKind;
use std::fmt::Write;

/// The module name of every reference (unlikely to collide with a generated module).
pub const MODULE: &str = "rtl_gen_prove_reference";

/// A reference module and what proving the block equal to it establishes.
#[derive(Debug, Clone)]
pub struct Reference {
    /// Verilog-2005 with `assume` statements (read with `read_verilog -formal`).
    pub verilog: String,
    /// The ports, as the block must have them.
    pub ports: Vec<Port>,
    /// What equality with it means, in words.
    pub claim: String,
    /// Whether it holds state other than an output register (the loadable converter's tables).
    pub stateful: bool,
}

/// Bits to hold every value `0..=max` (at least 1).
pub fn bits_to_hold(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

fn input(name: &str, width: u32) -> Port {
    Port {
        name: name.into(),
        input: true,
        width,
    }
}

fn output(name: &str, width: u32) -> Port {
    Port {
        name: name.into(),
        input: false,
        width,
    }
}

/// The text of one module: ports, then body lines; the outputs are driven by `<name>_d` wires
/// the body assigns, directly or (latency 1) through a register reset to zero.
struct ModuleText {
    /// Every port, `clk_i` and `rst_ni` first when clocked.
    ports: Vec<Port>,
    body: String,
    assumptions: Vec<String>,
}

impl ModuleText {
    /// A module with `ports`, and `clk_i` and `rst_ni` before them when `clocked`.
    fn new(ports: Vec<Port>, clocked: bool) -> Self {
        let clock = [input("clk_i", 1), input("rst_ni", 1)];
        Self {
            ports: clock.into_iter().filter(|_| clocked).chain(ports).collect(),
            body: String::new(),
            assumptions: Vec::new(),
        }
    }

    fn line(&mut self, text: impl AsRef<str>) {
        self.body.push_str("  ");
        self.body.push_str(text.as_ref());
        self.body.push('\n');
    }

    fn assume(&mut self, condition: String) {
        self.assumptions.push(condition);
    }

    /// The module text; `registered` puts an output register (reset to 0) behind every output.
    fn finish(mut self, registered: bool) -> String {
        let decls: Vec<String> = self
            .ports
            .iter()
            .map(|p| {
                format!(
                    "  {} wire [{}:0] {}",
                    if p.input { "input " } else { "output" },
                    p.width - 1,
                    p.name
                )
            })
            .collect();
        let mut text = format!("module {MODULE} (\n{}\n);\n", decls.join(",\n"));
        text.push_str(&self.body);
        for p in self.ports.iter().filter(|p| !p.input) {
            let (name, msb) = (&p.name, p.width - 1);
            if !registered {
                let _ = writeln!(text, "  assign {name} = {name}_d;");
            } else {
                let _ = writeln!(
                    text,
                    "  reg [{msb}:0] {name}_q;\n  \
                     always @(posedge clk_i or negedge rst_ni)\n    \
                     if (!rst_ni) {name}_q <= {w}'d0;\n    else {name}_q <= {name}_d;\n  \
                     assign {name} = {name}_q;",
                    w = p.width
                );
            }
        }
        if !self.assumptions.is_empty() {
            text.push_str("  always @* begin\n");
            for a in self.assumptions.drain(..) {
                let _ = writeln!(text, "    assume ({a});");
            }
            text.push_str("  end\n");
        }
        text.push_str("endmodule\n");
        text
    }
}

/// The reference of a hasher: for a fixed one its GF(2) matrix, one XOR of selected address
/// bits per bank bit; for a configurable one the family's formula on the manifest's `cfg_i`
/// fields, each assumed within its legal range. Latency 1 adds an output register reset to 0.
///
/// Errors name a field the family needs that the layout lacks or cannot hold.
pub fn hash(h: &HashBlock, cfg_width: u32, latency: u32) -> Result<Reference, String> {
    let (n, m) = (h.addr_bits, h.bank_bits);
    let mut ports = vec![input("addr_i", n)];
    if matches!(h.form, HashForm::Configurable(_)) {
        ports.push(input("cfg_i", cfg_width));
    }
    ports.push(output("bank_o", m));
    let mut t = ModuleText::new(ports, latency > 0);
    t.line(format!("wire [{}:0] bank_o_d;", m - 1));
    let claim = match &h.form {
        HashForm::Fixed(config) => {
            let matrix = config.to_matrix();
            for (i, row) in matrix.rows().iter().enumerate() {
                let terms: Vec<String> = (0..n)
                    .filter(|b| row >> b & 1 == 1)
                    .map(|b| format!("addr_i[{b}]"))
                    .collect();
                let expr = if terms.is_empty() {
                    "1'b0".to_string()
                } else {
                    terms.join(" ^ ")
                };
                t.line(format!("assign bank_o_d[{i}] = {expr};"));
            }
            format!(
                "bank_o = the configuration's GF(2) matrix times addr_i, for all 2^{n} addresses"
            )
        }
        HashForm::Configurable(fields) => {
            let space = configurable_hash(&mut t, h, fields, cfg_width)?;
            format!(
                "bank_o = the {} formula for all 2^{n} addresses and every cfg_i whose fields \
                 are in range ({space})",
                h.kind
            )
        }
    };
    Ok(Reference {
        ports: t.ports.clone(),
        verilog: t.finish(latency > 0),
        claim: with_latency(claim, "bank_o", latency),
        stateful: false,
    })
}

fn with_latency(claim: String, outputs: &str, latency: u32) -> String {
    if latency == 0 {
        claim
    } else {
        format!(
            "{claim}; registered: {outputs} in cycle t+1 is that of cycle t's inputs, and 0 while \
             rst_ni is low (asynchronous), for every input sequence from any state, from the \
             second cycle on (1-induction)"
        )
    }
}

/// The body of a configurable hasher's reference; returns the configuration space in words.
fn configurable_hash(
    t: &mut ModuleText,
    h: &HashBlock,
    fields: &[CfgField],
    cfg_width: u32,
) -> Result<String, String> {
    let (n, m) = (h.addr_bits, h.bank_bits);
    // Every field of the family with its largest legal value (docs/HASH.md).
    let wanted: Vec<(String, u64)> = match h.kind {
        HashKind::Modulo => return Err("modulo has nothing to configure".into()),
        HashKind::BitvectorPerm => vec![("k".into(), u64::from(n - m))],
        HashKind::BitvectorXor => vec![
            ("k1".into(), u64::from(n - m)),
            ("k2".into(), u64::from(n - 1)),
            ("mask".into(), (1u64 << m) - 1),
        ],
        HashKind::BitwisePerm => (0..m)
            .map(|i| (format!("bit{i}"), u64::from(n - 1)))
            .collect(),
        HashKind::BitwiseXor => (0..m)
            .flat_map(|i| [format!("pair{i}a"), format!("pair{i}b")])
            .map(|name| (name, u64::from(n - 1)))
            .collect(),
        HashKind::XorMatrix => (0..m)
            .map(|i| (format!("row{i}"), models::geometry::low_mask(n)))
            .collect(),
    };
    for (i, a) in fields.iter().enumerate() {
        if let Some(b) = fields[..i]
            .iter()
            .find(|b| a.lsb < b.lsb + b.width && b.lsb < a.lsb + a.width)
        {
            return Err(format!(
                "fields `{}` and `{}` of cfg_i overlap",
                b.name, a.name
            ));
        }
    }
    let mut legal = 0f64;
    for (name, max) in &wanted {
        let f = fields
            .iter()
            .find(|f| &f.name == name)
            .ok_or_else(|| format!("the cfg_i layout has no field `{name}`"))?;
        if f.width == 0 || f.lsb + f.width > cfg_width {
            return Err(format!(
                "field `{name}` (lsb {}, width {}) does not fit cfg_i's {cfg_width} bits",
                f.lsb, f.width
            ));
        }
        if bits_to_hold(*max) > f.width {
            return Err(format!(
                "field `{name}` is {} bits wide and cannot hold {max}",
                f.width
            ));
        }
        t.line(format!(
            "wire [{}:0] f_{name} = cfg_i[{}:{}];",
            f.width - 1,
            f.lsb + f.width - 1,
            f.lsb
        ));
        if f.width < 64 && *max < (1u64 << f.width) - 1 {
            t.assume(format!("f_{name} <= {}'d{max}", f.width));
        }
        legal += ((*max as f64) + 1.0).log2();
    }
    let field = |name: &str| format!("f_{name}");
    match h.kind {
        HashKind::Modulo => unreachable!("refused above"),
        HashKind::BitvectorPerm | HashKind::BitvectorXor => {
            // Address bits at or above n read as zero: index a zero-extended copy.
            t.line(format!("wire [{}:0] ext = {{{m}'d0, addr_i}};", n + m - 1));
            for i in 0..m {
                let expr = if h.kind == HashKind::BitvectorPerm {
                    format!("ext[f_k + {i}]")
                } else {
                    format!("ext[f_k1 + {i}] ^ (ext[f_k2 + {i}] & f_mask[{i}])")
                };
                t.line(format!("assign bank_o_d[{i}] = {expr};"));
            }
        }
        HashKind::BitwisePerm | HashKind::BitwiseXor => {
            // Each bank bit's row of the matrix, one or two one-hot address bits; a pair
            // (a, a) is the single bit a.
            for i in 0..m {
                let row = if h.kind == HashKind::BitwisePerm {
                    format!("({n}'d1 << {})", field(&format!("bit{i}")))
                } else {
                    format!(
                        "(({n}'d1 << {}) | ({n}'d1 << {}))",
                        field(&format!("pair{i}a")),
                        field(&format!("pair{i}b"))
                    )
                };
                t.line(format!("assign bank_o_d[{i}] = ^(addr_i & {row});"));
            }
        }
        HashKind::XorMatrix => {
            for i in 0..m {
                t.line(format!(
                    "assign bank_o_d[{i}] = ^(addr_i & {}[{}:0]);",
                    field(&format!("row{i}")),
                    n - 1
                ));
            }
        }
    }
    // Ranges in words, runs of fields with one range written once (`bit0..bit4 0..63`).
    let mut ranges: Vec<(String, String, u64)> = Vec::new();
    for (name, max) in &wanted {
        match ranges.last_mut() {
            Some((_, last, m)) if m == max => *last = name.clone(),
            _ => ranges.push((name.clone(), name.clone(), *max)),
        }
    }
    let ranges: Vec<String> = ranges
        .iter()
        .map(|(first, last, max)| {
            let names = if first == last {
                first.clone()
            } else {
                format!("{first}..{last}")
            };
            format!("{names} 0..{max}")
        })
        .collect();
    let free = f64::from(cfg_width - fields.iter().map(|f| f.width).sum::<u32>());
    Ok(format!(
        "{}: 2^{:.1} of the 2^{cfg_width} values",
        ranges.join(", "),
        legal + free
    ))
}

/// The port names of a converter's index inputs: `row_i`, `col_i`; or `i_i` .. `l_i` for 3P.
fn index_inputs(dims: u32) -> &'static [&'static str] {
    if dims == 2 {
        &["row_i", "col_i"]
    } else {
        &["i_i", "j_i", "k_i", "l_i"]
    }
}

/// Cycles a loadable converter needs to write every entry of every table once.
pub fn load_cycles(r: &RapBlock) -> u32 {
    let per_table = match r.write {
        Some(WritePort::Packed) => models::rap::packed::packed_words(r.w),
        _ => r.w,
    };
    per_table * r.tables.len() as u32
}

/// The reference's wire that is 1 when every entry of a loadable converter's tables is below
/// `w` (written only when `w` is not a power of two): part of the induction's lemma.
pub const TABLES_IN_RANGE: &str = "tables_in_range";

/// The reference of a RAP, RAS or 3P converter: the tables (a `case` per table, or one
/// register per entry reset to the manifest's table and written as docs/RAP.md says), then
/// `bank = (col + shift) mod w` and `addr = row * w + bank` (3P: `bank = (l + r[i] + s[j] +
/// t[k]) mod w`, `addr = ((i*w + j)*w + k)*w + bank`). Indices are assumed below `w`, and so are
/// the shifts written. Latency 1 adds output registers reset to 0.
pub fn rap(r: &RapBlock, latency: u32) -> Reference {
    let w = r.w;
    let b = bits_to_hold(u64::from(w - 1));
    let elements = u64::from(w).pow(r.dims);
    let a = bits_to_hold(elements - 1);
    let loadable = r.write.is_some();
    let names = index_inputs(r.dims);
    let mut ports: Vec<Port> = names.iter().map(|n| input(n, b)).collect();
    let (idx_count, val_bits) = match r.write {
        Some(WritePort::Packed) => (
            models::rap::packed::packed_words(w),
            models::rap::packed::WORD_BITS,
        ),
        _ => (w, b),
    };
    if loadable {
        ports.push(input("perm_we_i", 1));
        if r.dims == 4 {
            ports.push(input("perm_sel_i", 2));
        }
        ports.push(input("perm_idx_i", bits_to_hold(u64::from(idx_count - 1))));
        ports.push(input("perm_val_i", val_bits));
    }
    ports.push(output("addr_o", a));
    ports.push(output("bank_o", b));
    let mut t = ModuleText::new(ports, loadable || latency > 0);
    let width = |x: u32| format!("{b}'d{x}");
    for name in names {
        if !w.is_power_of_two() {
            t.assume(format!("{name} < {}", width(w)));
        }
    }
    // Which index input reads each table: row_i; or i_i, j_i, k_i.
    for (n, (table, entries)) in r.tables.iter().enumerate() {
        let index = names[n];
        t.line(format!("reg [{}:0] {table};", b - 1));
        if loadable {
            let (bits, per) = models::rap::packed::packing(w);
            for (e, &reset) in entries.iter().enumerate() {
                let e = e as u32;
                let (word, value) = match r.write {
                    Some(WritePort::Packed) => {
                        (e / per, format!("perm_val_i[{}+:{bits}]", bits * (e % per)))
                    }
                    _ => (e, "perm_val_i".to_string()),
                };
                let sel = if r.dims == 4 {
                    format!(" && perm_sel_i == 2'd{n}")
                } else {
                    String::new()
                };
                let write = format!("perm_we_i{sel} && perm_idx_i == {word}");
                t.line(format!("reg [{}:0] {table}_{e};", b - 1));
                t.line(format!(
                    "always @(posedge clk_i or negedge rst_ni)\n    if (!rst_ni) {table}_{e} <= {};\n    \
                     else if ({write}) {table}_{e} <= {value};",
                    width(reset)
                ));
                if !w.is_power_of_two() {
                    t.assume(format!("!({write}) || {value} < {}", width(w)));
                }
            }
        }
        t.line(format!("always @* case ({index})"));
        for (e, &v) in entries.iter().enumerate() {
            let value = if loadable {
                format!("{table}_{e}")
            } else {
                width(v)
            };
            t.line(format!("  {e}: {table} = {value};"));
        }
        t.line(format!("  default: {table} = {};", width(0)));
        t.line("endcase");
    }
    if loadable && !w.is_power_of_two() {
        // Every entry below w: what the assumed writes keep true, stated for the induction.
        let in_range: Vec<String> = r
            .tables
            .iter()
            .flat_map(|(table, entries)| {
                (0..entries.len()).map(move |e| format!("({table}_{e} < {})", width(w)))
            })
            .collect();
        t.line(format!(
            "(* keep *) wire {TABLES_IN_RANGE} = {};",
            in_range.join(" && ")
        ));
    }
    let wide = b + 2;
    let term = |x: &str| format!("{{2'd0, {x}}}");
    let sum = if r.dims == 2 {
        format!("{} + {}", term("col_i"), term("shift"))
    } else {
        ["l_i", "r", "s", "t"].map(term).join(" + ")
    };
    t.line(format!("wire [{}:0] sum = {sum};", wide - 1));
    t.line(format!(
        "wire [{}:0] bank_full = sum % {wide}'d{w};",
        wide - 1
    ));
    t.line(format!(
        "wire [{}:0] bank_o_d = bank_full[{}:0];",
        b - 1,
        b - 1
    ));
    // The index of the element's row in row-major order, in 64 bits.
    let wide64 = |x: &str| format!("{{{}'d0, {x}}}", 64 - b);
    let row_major = if r.dims == 2 {
        wide64("row_i")
    } else {
        format!(
            "(({} * 64'd{w} + {}) * 64'd{w} + {})",
            wide64("i_i"),
            wide64("j_i"),
            wide64("k_i")
        )
    };
    t.line(format!(
        "wire [63:0] addr_full = {row_major} * 64'd{w} + {};",
        wide64("bank_o_d")
    ));
    t.line(format!(
        "wire [{}:0] addr_o_d = addr_full[{}:0];",
        a - 1,
        a - 1
    ));
    let formula = if r.dims == 2 {
        "bank_o = (col_i + shift[row_i]) mod w, addr_o = row_i * w + bank_o"
    } else {
        "bank_o = (l_i + r[i_i] + s[j_i] + t[k_i]) mod w, addr_o = ((i_i*w + j_i)*w + k_i)*w + bank_o"
    };
    let domain = format!("for all {elements} elements (every index below w = {w})");
    let claim = if loadable {
        format!(
            "{formula} with the tables as a register file reset to the manifest's tables and \
             written as docs/RAP.md says"
        )
    } else {
        format!("{formula} with the manifest's tables, {domain}")
    };
    let claim = match (loadable, latency) {
        (false, _) => with_latency(claim, "addr_o and bank_o", latency),
        (true, 0) => claim,
        (true, _) => format!("{claim}; outputs registered (one cycle, reset to 0)"),
    };
    Reference {
        ports: t.ports.clone(),
        verilog: t.finish(latency > 0),
        claim,
        stateful: loadable,
    }
}

/// Bits of a shared byte address (the D²MA RAW check's `load_addr_i`, a guard's start).
const SHARED_BITS: u32 = 16;

/// The RAW check's port of the load's CTA, on which its proof splits into cases.
pub const RAW_CTA_PORT: &str = "load_cta_i";

/// The reference of the D²MA RAW check, from `models::d2ma::raw`: a load waits when it is valid
/// and some guard of its own CTA (entry `e = cta * buffers + buf`) is in flight with
/// `start <= addr < end` (`Guard::blocks`, `must_wait`); `release_o` is one-hot in the CTA of a
/// completed buffer. CTA numbers at or above `ctas` are assumed away. `start <= addr` is written
/// `!(addr < start)`: the same function, in the form whose comparator the solver matches with
/// the block's at once (a `<=` against a `<` takes it minutes at 2 x 2 entries).
pub fn raw_check(r: &RawCheckBlock) -> Reference {
    let e = r.ctas * r.buffers;
    let cb = bits_to_hold(u64::from(r.ctas - 1));
    let ports = vec![
        input("load_valid_i", 1),
        input(RAW_CTA_PORT, cb),
        input("load_addr_i", SHARED_BITS),
        input("busy_i", e),
        input("start_i", SHARED_BITS * e),
        input("end_i", (SHARED_BITS + 1) * e),
        input("done_valid_i", 1),
        input("done_cta_i", cb),
        output("wait_o", 1),
        output("release_o", r.ctas),
    ];
    let mut t = ModuleText::new(ports.clone(), false);
    if !r.ctas.is_power_of_two() {
        t.assume(format!("load_cta_i < {cb}'d{}", r.ctas));
        t.assume(format!("done_cta_i < {cb}'d{}", r.ctas));
    }
    t.line("wire [0:0] wait_o_d;");
    t.line(format!("wire [{}:0] release_o_d;", r.ctas - 1));
    t.line(format!("wire [{}:0] blocks;", e - 1));
    t.line("wire [16:0] addr = {1'b0, load_addr_i};");
    for entry in 0..e {
        let cta = entry / r.buffers;
        t.line(format!(
            "assign blocks[{entry}] = busy_i[{entry}] && load_cta_i == {cb}'d{cta} && \
             !(addr < {{1'b0, start_i[{}+:16]}}) && addr < end_i[{}+:17];",
            16 * entry,
            17 * entry
        ));
    }
    t.line("assign wait_o_d = load_valid_i && (|blocks);");
    for c in 0..r.ctas {
        t.line(format!(
            "assign release_o_d[{c}] = done_valid_i && done_cta_i == {cb}'d{c};"
        ));
    }
    Reference {
        verilog: t.finish(false),
        ports,
        claim: format!(
            "wait_o and release_o = the RAW check of models::d2ma::raw (Guard::blocks over the \
             load's CTA, {} CTAs x {} buffers) for every load, guard and completion (one SAT \
             problem per value of {RAW_CTA_PORT})",
            r.ctas, r.buffers
        ),
        stateful: false,
    }
}
