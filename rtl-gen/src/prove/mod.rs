//! Proofs that a generated block equals an independent reference, by Yosys' SAT solver: where
//! a testbench samples, a proof covers every input.
//!
//! - [`block`]: the manifest adapter (the only place that knows the manifest's keys);
//! - [`reference`]: the reference netlists, written from the golden models and the families'
//!   definitions, never from the generators' code;
//! - [`yosys`]: the miter, the SAT run and its counterexample.
//!
//! What is proved per block ([`prove`]):
//!
//! | block | reference | check |
//! |---|---|---|
//! | fixed hasher | the configuration's GF(2) matrix (`models::HashConfig::to_matrix`) | every address |
//! | configurable hasher | the family's formula on the manifest's `cfg_i` fields | every in-range configuration and every address |
//! | baked RAP / RAS / 3P | the manifest's tables, `(col + shift) mod w` | every element |
//! | loadable converter | a register file reset to the manifest's tables | every input sequence from reset (induction with a table lemma); bounded (`--steps`) where asked or where the induction does not close |
//! | pipelined variants | the same behind an output register reset to 0 | 1-induction from any state |

pub mod block;
pub mod reference;
pub mod yosys;

pub use crate::error::ProveError;
pub use block::{BlockUnderProof, Family};

use crate::Error;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use yosys::{Answer, Check, Design, Trace};

/// The work folder inside a block folder: the reference, the Yosys scripts and their logs.
pub const PROVE_DIR: &str = "prove";

/// The most cycles a bounded proof may unroll.
pub const MAX_STEPS: u32 = 1000;

/// The most state bits times cycles a bounded proof may unroll (a loadable converter's table
/// bits times its steps): about a minute of SAT solving on a laptop core at the limit.
pub const MAX_UNROLLED_BITS: u64 = 40_000;

/// How a proof is run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Cycles of a bounded proof (loadable converters); `None` for the default, every entry
    /// loaded plus two cycles.
    pub steps: Option<u32>,
    /// Seconds each SAT problem may take before the proof is undecided.
    pub timeout_s: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            steps: None,
            timeout_s: 600,
        }
    }
}

/// One cycle of a counterexample: inputs, the reference's outputs and the block's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cycle {
    /// Cycle number, from 1.
    pub cycle: u32,
    /// Input values (hex), the clock left out.
    pub inputs: BTreeMap<String, String>,
    /// The reference's outputs.
    pub expected: BTreeMap<String, String>,
    /// The block's outputs.
    pub got: BTreeMap<String, String>,
    /// Whether the outputs differ in this cycle.
    pub mismatch: bool,
}

/// Inputs that make the block and its reference differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counterexample {
    /// One line: the inputs (with the configuration's fields), expected and got.
    pub summary: String,
    /// Every cycle Yosys reported.
    pub cycles: Vec<Cycle>,
}

/// The verdict of one proof.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Outcome {
    /// The claim holds.
    Proved,
    /// It does not: why, and the inputs that show it when the solver found some.
    Disproved {
        /// In words.
        reason: String,
        /// The solver's counterexample.
        #[serde(skip_serializing_if = "Option::is_none")]
        counterexample: Option<Counterexample>,
    },
    /// The solver gave up.
    Undecided {
        /// Why.
        reason: String,
    },
}

/// One proof about one block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proof {
    /// The block's top module.
    pub block: String,
    /// What is compared: `matrix`, `family`, `table` or `loaded-tables`.
    pub name: String,
    /// What the proof establishes when it holds.
    pub claim: String,
    /// The verdict.
    pub outcome: Outcome,
    /// Wall-clock seconds Yosys took.
    pub seconds: f64,
    /// CPU seconds Yosys reported.
    pub cpu_seconds: Option<f64>,
    /// The Yosys script (`yosys -s <script>` reruns it).
    pub script: PathBuf,
}

/// Reads a block folder and checks that it has a reference and that its proof fits the
/// bounds: the step that can refuse, run for every block before any proof starts.
pub fn load(dir: &Path, options: &Options) -> Result<BlockUnderProof, Error> {
    let block = BlockUnderProof::load(dir)?;
    crate::output::OutputFolder::check(&block.dir.join(PROVE_DIR))?;
    match &block.family {
        Family::Other(family) => Err(ProveError::NoReference {
            path: dir.to_path_buf(),
            family: family.clone(),
            covered: "the hash and rap families and the d2ma raw-check",
        }
        .into()),
        Family::Rap(r) if r.write.is_some() => {
            steps(r, block.latency, options)?;
            Ok(block)
        }
        _ => Ok(block),
    }
}

/// The bounded length of a loadable converter's proof, checked against the limits.
fn steps(r: &block::RapBlock, latency: u32, options: &Options) -> Result<u32, Error> {
    let default = reference::load_cycles(r) + 2 + latency;
    let steps = options.steps.unwrap_or(default);
    let state_bits = u64::from(r.w)
        * u64::from(reference::bits_to_hold(u64::from(r.w - 1)))
        * r.tables.len() as u64;
    let unrolled = state_bits * u64::from(steps);
    if !(2..=MAX_STEPS).contains(&steps) || unrolled > MAX_UNROLLED_BITS {
        let flag = if options.steps.is_some() {
            "--steps"
        } else {
            "--steps (default: every entry loaded plus 2)"
        };
        return Err(ProveError::Bound {
            flag,
            value: steps.to_string(),
            allowed: format!(
                "2 to {MAX_STEPS} cycles, and at most {MAX_UNROLLED_BITS} table bits x cycles \
                 ({state_bits} table bits here: at most {} cycles); prove a smaller w, or give \
                 fewer --steps for a weaker bound",
                MAX_UNROLLED_BITS / state_bits
            ),
        }
        .into());
    }
    Ok(steps)
}

/// The reference of `block`, or why the block cannot match any (a layout that cannot hold a
/// legal configuration).
fn reference_of(block: &BlockUnderProof) -> Result<(&'static str, reference::Reference), String> {
    match &block.family {
        Family::Hash(h) => {
            let name = match h.form {
                block::HashForm::Fixed(_) => "matrix",
                block::HashForm::Configurable(_) => "family",
            };
            let cfg_width = block.port("cfg_i").map_or(0, |p| p.width);
            reference::hash(h, cfg_width, block.latency).map(|r| (name, r))
        }
        Family::Rap(r) => {
            let name = if r.write.is_some() {
                "loaded-tables"
            } else {
                "table"
            };
            Ok((name, reference::rap(r, block.latency)))
        }
        Family::RawCheck(r) => Ok(("raw-check", reference::raw_check(r))),
        Family::Other(f) => Err(format!("no reference for a {f} block")),
    }
}

/// How the block's interface differs from the reference's, if it does.
fn interface_difference(block: &BlockUnderProof, reference: &[block::Port]) -> Option<String> {
    let describe = |p: &block::Port| {
        format!(
            "{} {}[{}]",
            if p.input { "input" } else { "output" },
            p.name,
            p.width
        )
    };
    let mut differences = Vec::new();
    for p in reference {
        match block.port(&p.name) {
            None => differences.push(format!("no {}", describe(p))),
            Some(q) if q != p => {
                differences.push(format!("{} instead of {}", describe(q), describe(p)))
            }
            Some(_) => {}
        }
    }
    for q in &block.ports {
        if !reference.iter().any(|p| p.name == q.name) {
            differences.push(format!("an extra {}", describe(q)));
        }
    }
    (!differences.is_empty()).then(|| format!("the interface differs: {}", differences.join("; ")))
}

/// The lemma that makes a loadable converter's induction close: bit `k` of entry `i` of each
/// table, the reference's register `<table>_<i>` and the block's bit plane
/// `<table>_bit<k>_q[i]`, equal; and, when `w` is not a power of two, every entry below `w`. Only a hint to the solver: it is proved with the outputs, so a block
/// that stores its tables otherwise fails the induction (and gets the bounded proof), never a
/// wrong verdict.
fn table_lemma(r: &block::RapBlock) -> Vec<(String, String)> {
    let bits = reference::bits_to_hold(u64::from(r.w - 1));
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
        lemma.push((format!("gold.{}", reference::TABLES_IN_RANGE), "1'1".into()));
    }
    lemma
}

/// Proves `block` (from [`load`]) equal to its reference.
pub fn prove(block: &BlockUnderProof, options: &Options) -> Result<Proof, Error> {
    let work = block.dir.join(PROVE_DIR);
    let script = work.join("proof.ys");
    let disproof = |name: &str, claim: String, reason: String| Proof {
        block: block.top.clone(),
        name: name.to_string(),
        claim,
        outcome: Outcome::Disproved {
            reason,
            counterexample: None,
        },
        seconds: 0.0,
        cpu_seconds: None,
        script: script.clone(),
    };
    let (name, reference) = match reference_of(block) {
        Ok(r) => r,
        Err(reason) => return Ok(disproof("family", String::new(), reason)),
    };
    if let Some(reason) = interface_difference(block, &reference.ports) {
        return Ok(disproof(name, reference.claim, reason));
    }
    let check = match &block.family {
        Family::Rap(r) if reference.stateful => Check::FromReset {
            steps: steps(r, block.latency, options)?,
        },
        _ if block.latency > 0 => Check::Induction,
        _ => Check::Combinational,
    };
    let claim = match check {
        Check::FromReset { steps } => {
            let writes = match &block.family {
                Family::Rap(r) => reference::load_cycles(r),
                _ => 0,
            };
            format!(
                "{}: from reset (asserted in cycle 1), every input sequence of {steps} cycles \
                 (reads, writes of in-range shifts to any index, further resets) gives the same \
                 outputs; loading every entry takes {writes} write{}",
                reference.claim,
                if writes == 1 { "" } else { "s" }
            )
        }
        _ => reference.claim.clone(),
    };
    crate::output::OutputFolder::open(&work)?;
    let reference_file = work.join("reference.v");
    let verilog = format!(
        "// Generated by {}: the reference of {} (rtl-gen prove)\n{}",
        crate::manifest::generator(),
        block.top,
        reference.verilog
    );
    crate::output::write_file(&reference_file, verilog.as_bytes())?;
    let gold = Design {
        files: vec![reference_file],
        top: reference::MODULE.to_string(),
    };
    let gate = Design {
        files: block.rtl_files.clone(),
        top: block.top.clone(),
    };
    // A loadable converter without a bound asked for: first the unbounded proof (induction
    // with the table lemma); the bounded one only where the induction does not close.
    if let (Family::Rap(r), Check::FromReset { .. }, None) = (&block.family, check, options.steps) {
        let run = yosys::miter_with_lemma(
            &work,
            "induction",
            &gold,
            &gate,
            &table_lemma(r),
            options.timeout_s,
        )?;
        if run.answer == Answer::Holds {
            return Ok(Proof {
                block: block.top.clone(),
                name: name.to_string(),
                claim: format!(
                    "{}: from reset (asserted in cycle 1), every input sequence of any length \
                     (reads, writes of in-range shifts to any index, further resets) gives the \
                     same outputs (temporal induction; lemma: the block's table registers hold \
                     the reference's entries, proved with the outputs)",
                    reference.claim
                ),
                outcome: Outcome::Proved,
                seconds: run.seconds,
                cpu_seconds: run.cpu_seconds,
                script: run.script,
            });
        }
    }
    let run = match &block.family {
        // The RAW check's selection by the load's CTA is proved one value of `load_cta_i` at
        // a time, every value of the port (those at or above `ctas` assumed away): one SAT
        // problem over every input did not finish in 10 minutes at 8 x 4 entries, one per
        // value takes a fraction of a second (docs/VERIFICATION.md).
        Family::RawCheck(r) => yosys::miter_per_value(
            &work,
            "proof",
            &gold,
            &gate,
            reference::RAW_CTA_PORT,
            reference::bits_to_hold(u64::from(r.ctas - 1)),
            1 << reference::bits_to_hold(u64::from(r.ctas - 1)),
            options.timeout_s,
        )?,
        _ => yosys::miter(&work, "proof", &gold, &gate, check, options.timeout_s)?,
    };
    let outcome = match run.answer {
        Answer::Holds => Outcome::Proved,
        Answer::Mismatch(reason) => Outcome::Disproved {
            reason,
            counterexample: None,
        },
        Answer::Undecided(reason) => Outcome::Undecided { reason },
        Answer::Fails(trace) => {
            let skip = u32::from(check == Check::Induction);
            let counterexample = counterexample(block, &trace, skip);
            Outcome::Disproved {
                reason: format!("counterexample: {}", counterexample.summary),
                counterexample: Some(counterexample),
            }
        }
    };
    Ok(Proof {
        block: block.top.clone(),
        name: name.to_string(),
        claim,
        outcome,
        seconds: run.seconds,
        cpu_seconds: run.cpu_seconds,
        script: run.script,
    })
}

/// The counterexample in the block's terms; cycles up to `skip` are not checked by the proof.
pub fn counterexample(block: &BlockUnderProof, trace: &Trace, skip: u32) -> Counterexample {
    let cycles: Vec<Cycle> = trace
        .cycles
        .iter()
        .map(|(cycle, signals)| {
            let mut c = Cycle {
                cycle: *cycle,
                inputs: BTreeMap::new(),
                expected: BTreeMap::new(),
                got: BTreeMap::new(),
                mismatch: false,
            };
            for (name, bits) in signals {
                let value = yosys::hex(bits);
                if let Some(port) = name.strip_prefix("in_") {
                    if port != "clk_i" {
                        c.inputs.insert(port.to_string(), value);
                    }
                } else if let Some(port) = name.strip_prefix("gold_") {
                    c.expected.insert(port.to_string(), value);
                } else if let Some(port) = name.strip_prefix("gate_") {
                    c.got.insert(port.to_string(), value);
                } else if name == "trigger" {
                    c.mismatch = bits == "1";
                }
            }
            c
        })
        .collect();
    let failing = cycles
        .iter()
        .find(|c| c.mismatch && c.cycle > skip)
        .or_else(|| cycles.iter().find(|c| c.mismatch));
    let summary = match failing {
        None => "the solver reported no differing cycle".to_string(),
        Some(c) => {
            let inputs = describe_inputs(block, &c.inputs);
            let outputs = |m: &BTreeMap<String, String>| {
                m.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let when = if cycles.len() > 1 {
                let from = if skip == 0 {
                    "from reset"
                } else {
                    "from any state"
                };
                format!(
                    "cycle {} of {} ({from}; all cycles in --json): ",
                    c.cycle,
                    cycles.len()
                )
            } else {
                String::new()
            };
            format!(
                "{when}{inputs}: expected {}, got {}",
                outputs(&c.expected),
                outputs(&c.got)
            )
        }
    };
    Counterexample { summary, cycles }
}

/// The inputs of one cycle, with a configurable hasher's `cfg_i` split into its fields.
fn describe_inputs(block: &BlockUnderProof, inputs: &BTreeMap<String, String>) -> String {
    let mut parts = Vec::new();
    for (name, value) in inputs {
        let mut text = format!("{name}={value}");
        if let (Family::Hash(h), "cfg_i") = (&block.family, name.as_str()) {
            if let block::HashForm::Configurable(fields) = &h.form {
                text.push_str(&format!(" ({})", decode_fields(fields, value)));
            }
        }
        parts.push(text);
    }
    parts.join(" ")
}

/// `k1=4 k2=15 mask=0x1d` from a `cfg_i` value in hex.
fn decode_fields(fields: &[block::CfgField], hex: &str) -> String {
    let Some(digits) = hex.strip_prefix("0x") else {
        return hex.to_string();
    };
    let bits: Vec<bool> = digits
        .chars()
        .rev()
        .flat_map(|c| {
            let v = c.to_digit(16).unwrap_or(0);
            (0..4).map(move |i| v >> i & 1 == 1)
        })
        .collect();
    fields
        .iter()
        .map(|f| {
            let value: u128 = (0..f.width.min(128))
                .map(|i| u128::from(*bits.get((f.lsb + i) as usize).unwrap_or(&false)) << i)
                .sum();
            if f.width > 8 {
                format!("{}={value:#x}", f.name)
            } else {
                format!("{}={value}", f.name)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
