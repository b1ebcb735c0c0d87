//! The converters' referee for `rtl-gen prove` and `rtl-gen mutate`: a RAP, RAS or 3P
//! converter read through its manifest (its tables checked against the golden model's draw),
//! and its reference written from the tables and the family's definition (docs/RAP.md), never
//! from the generator's RTL code: a `case` per table, or one register per entry reset to the
//! manifest's table and written as docs/RAP.md says, then `(col + shift) mod w`.

use crate::prove::block::{BlockUnderProof, Field, Port};
use crate::prove::reference::{bits_to_hold, input, output, with_latency, ModuleText, Reference};
use crate::prove::{Plan, ProveError, Strategy};
use crate::rap::MAX_W;
use serde_json::Value;

/// The converters' referee.
pub struct Referee;

impl crate::prove::Referee for Referee {
    fn family(&self) -> &'static str {
        "rap"
    }

    fn plan(&self, block: &BlockUnderProof) -> Result<Option<Plan>, ProveError> {
        block.check_latency(1)?;
        let r = read(block)?;
        let reference = rap(&r, block.latency);
        let description = format!(
            "rap {}{}",
            if r.dims == 4 { "3p" } else { "2-d" },
            match r.write {
                None => " baked",
                Some(WritePort::Entry) => " loadable",
                Some(WritePort::Packed) => " loadable packed",
            }
        );
        let (name, strategy) = if reference.stateful {
            let state_bits = u64::from(r.w)
                * u64::from(bits_to_hold(u64::from(r.w - 1)))
                * r.tables.len() as u64;
            let strategy = Strategy::FromReset {
                default_steps: load_cycles(&r) + 2 + block.latency,
                state_bits,
                writes: load_cycles(&r),
                lemma: table_lemma(&r),
            };
            ("loaded-tables", strategy)
        } else {
            ("table", Strategy::Outputs)
        };
        Ok(Some(Plan {
            name,
            reference: Ok(reference),
            strategy,
            description,
        }))
    }
}

/// How a loadable RAP converter's tables are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritePort {
    /// One entry a write (`perm_idx_i` names the entry).
    Entry,
    /// One 32-bit word of packed shifts a write (`perm_idx_i` names the word).
    Packed,
}

/// A RAP, RAS or 3P address converter as the prover sees it.
#[derive(Debug, Clone)]
pub struct RapBlock {
    /// 2 (a `w x w` matrix) or 4 (a `w^4` array, 3P).
    pub dims: u32,
    /// The matrix side.
    pub w: u32,
    /// The tables with their names (`shift`; or `r`, `s`, `t`), each `w` entries below `w`;
    /// the baked contents, or the reset contents of a loadable converter.
    pub tables: Vec<(String, Vec<u32>)>,
    /// `None` when baked.
    pub write: Option<WritePort>,
}

/// Reads a converter's block through its manifest: `dims`, `w`, the tables, `loadable` and
/// `packed`; a seeded RAP table must be the golden model's draw.
pub fn read(block: &BlockUnderProof) -> Result<RapBlock, ProveError> {
    let c = block.root().get("configuration");
    let dims_field = c.get("dims");
    let dims = dims_field.u32()?;
    if dims != 2 && dims != 4 {
        return Err(dims_field.bad("2 (a w x w matrix) or 4 (3P, a w^4 array)"));
    }
    let w_field = c.get("w");
    let w = w_field.u32()?;
    if !(2..=MAX_W).contains(&w) {
        return Err(w_field.bad(&format!("2 to {MAX_W}")));
    }
    let names: &[&str] = if dims == 2 {
        &["shift"]
    } else {
        &["r", "s", "t"]
    };
    let tables = names
        .iter()
        .map(|&name| {
            let table = c.get("tables").get(name);
            let entries = table
                .items()?
                .iter()
                .map(|e| e.u32().ok().filter(|&v| v < w))
                .collect::<Option<Vec<u32>>>()
                .filter(|t| t.len() == w as usize)
                .ok_or_else(|| table.bad(&format!("{w} entries, each 0 to {}", w - 1)))?;
            Ok((name.to_string(), entries))
        })
        .collect::<Result<Vec<_>, ProveError>>()?;
    let kind = c.get("kind");
    if kind.str()? == "rap" && !c.get("wide").bool_or(false)? {
        check_against_model(&c, w, &tables[0].1)?;
    }
    let write = match (
        c.get("loadable").bool_or(false)?,
        c.get("packed").bool_or(false)?,
    ) {
        (false, _) => None,
        (true, false) => Some(WritePort::Entry),
        (true, true) => Some(WritePort::Packed),
    };
    Ok(RapBlock {
        dims,
        w,
        tables,
        write,
    })
}

/// A RAP table must be a permutation, and one drawn from a seed must be the golden model's
/// `Permutation::from_seed` draw.
fn check_against_model(c: &Field<'_>, w: u32, table: &[u32]) -> Result<(), ProveError> {
    let values: Vec<u64> = table.iter().map(|&v| u64::from(v)).collect();
    let field = c.get("tables").get("shift");
    models::rap::Permutation::new(w, &values).map_err(|e| field.bad(&e.to_string()))?;
    let seed = c.get("seed");
    if let Some(seed) = seed.value.and_then(Value::as_u64) {
        let model = models::rap::Permutation::from_seed(w, seed);
        if model.as_slice() != table {
            return Err(field.bad(&format!(
                "the golden model's permutation for seed {seed} (models::rap::Permutation::from_seed)"
            )));
        }
    }
    Ok(())
}

/// The lemma that makes a loadable converter's induction close: bit `k` of entry `i` of each
/// table, the reference's register `<table>_<i>` and the block's bit plane
/// `<table>_bit<k>_q[i]`, equal; and, when `w` is not a power of two, every entry below `w`.
/// Only a hint to the solver: it is proved with the outputs, so a block that stores its tables otherwise fails the induction (and gets the bounded proof), never a
/// wrong verdict.
fn table_lemma(r: &RapBlock) -> Vec<(String, String)> {
    let bits = bits_to_hold(u64::from(r.w - 1));
    let mut lemma = Vec::new();
    for (table, _) in &r.tables {
        for i in 0..r.w {
            for k in 0..bits {
                lemma.push((
                    format!("gold.{table}_{i}[{k}]"),
                    format!("gate.{table}_bit{k}_q[{i}]"),
                ));
            }
        }
    }
    if !r.w.is_power_of_two() {
        // Entries at or above w are unreachable, and the modulo differs on them.
        lemma.push((format!("gold.{}", TABLES_IN_RANGE), "1'1".into()));
    }
    lemma
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
