//! Proofs that a generated block equals an independent reference, by Yosys' SAT solver: where
//! a testbench samples, a proof covers every input. The machinery is the same for every
//! family; a family takes part through its [`Referee`], which reads its blocks' manifests and
//! writes their references (the registry, `crate::families`, lists them):
//!
//! - [`block`]: the manifest adapter ([`BlockUnderProof`], and [`block::Field`] for a referee's
//!   reading of its configuration, with refusals that name the key);
//! - [`reference`]: the writer of reference netlists;
//! - [`yosys`]: the miter, the SAT run and its counterexample.
//!
//! What the families' referees prove is in docs/VERIFICATION.md (today: every hasher, every RAP,
//! RAS and 3P converter, the D²MA RAW check); how ([`Strategy`]): outputs equal for every input
//! (1-induction from any state behind an output register), every input sequence from reset
//! (induction with the referee's lemma, bounded by `--steps` where asked or where the induction
//! does not close), or one SAT problem per value of an input port.

pub mod block;
pub mod properties;
pub mod reference;
pub mod yosys;

pub use crate::error::ProveError;
pub use block::BlockUnderProof;

use crate::Error;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use yosys::{Answer, Check, Design, Trace};

/// A family's part in the proofs: it recognises its blocks and gives each one's proof plan.
pub trait Referee: Sync {
    /// The family whose blocks it reads, as manifests name it (`hash`).
    fn family(&self) -> &'static str;

    /// What it proves, in words, for the refusal of a block no referee covers.
    fn covers(&self) -> String {
        format!("the {} family", self.family())
    }

    /// The plan of a proof of `block`, a block of its family; `Ok(None)` when it has no
    /// reference for the block's kind.
    ///
    /// # Errors
    /// A manifest of one of its blocks it cannot read (naming the key, [`block::Field::bad`]).
    fn plan(&self, block: &BlockUnderProof) -> Result<Option<Plan>, ProveError>;
}

/// How a block is proved equal to its reference.
#[derive(Debug, Clone)]
pub struct Plan {
    /// What is compared (`matrix`, `family`, `table`, `loaded-tables`, `raw-check`).
    pub name: &'static str,
    /// The reference; or why no reference can match this block (a layout that cannot hold a
    /// legal configuration): the proof is then disproved without a run.
    pub reference: Result<reference::Reference, String>,
    /// How the two are compared.
    pub strategy: Strategy,
    /// The block's family and kind in words, for the mutation tables (`rap 2-d loadable`).
    pub description: String,
}

/// How the outputs are compared.
#[derive(Debug, Clone, PartialEq)]
pub enum Strategy {
    /// Equal for every input (combinational), or from any state from the second cycle on
    /// behind an output register (1-induction).
    Outputs,
    /// Equal from reset for every input sequence: first by temporal induction with `lemma`
    /// (pairs of reference and block signals held equal), then, where that does not close or
    /// `--steps` is given, for `default_steps` cycles.
    FromReset {
        /// Cycles of the bounded proof without `--steps`.
        default_steps: u32,
        /// The state bits the bounded proof unrolls (its size is bounded).
        state_bits: u64,
        /// Writes that load every entry, for the claim.
        writes: u32,
        /// The induction's lemma.
        lemma: Vec<(String, String)>,
    },
    /// One SAT problem per value of the input port `port` (`bits` wide), values at or above
    /// `values` assumed away by the reference.
    PerValue {
        /// The port.
        port: &'static str,
        /// Its width.
        bits: u32,
        /// The values proved.
        values: u64,
    },
}

/// A block read for a proof: the block and its plan.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The block.
    pub block: BlockUnderProof,
    /// Its plan.
    pub plan: Plan,
}

/// The plan of `block` from the first referee that knows it; `None` when none does.
pub fn plan_of(
    block: &BlockUnderProof,
    referees: &[&dyn Referee],
) -> Result<Option<Plan>, ProveError> {
    for referee in referees.iter().filter(|r| r.family() == block.family) {
        if let Some(plan) = referee.plan(block)? {
            return Ok(Some(plan));
        }
    }
    Ok(None)
}

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

/// Reads a block folder, finds its plan among `referees` and checks that the proof fits the
/// bounds: the step that can refuse, run for every block before any proof starts.
pub fn load(dir: &Path, options: &Options, referees: &[&dyn Referee]) -> Result<Loaded, Error> {
    let block = BlockUnderProof::load(dir)?;
    crate::output::OutputFolder::check(&block.dir.join(PROVE_DIR))?;
    let Some(plan) = plan_of(&block, referees)? else {
        let covered: Vec<String> = referees.iter().map(|r| r.covers()).collect();
        return Err(ProveError::NoReference {
            path: dir.to_path_buf(),
            family: format!("{} {}", block.family, block.kind),
            covered: covered.join(", "),
        }
        .into());
    };
    steps(&plan.strategy, options)?;
    Ok(Loaded { block, plan })
}

/// The bounded length of a proof from reset, checked against the limits; `None` for the other
/// strategies.
fn steps(strategy: &Strategy, options: &Options) -> Result<Option<u32>, Error> {
    let Strategy::FromReset {
        default_steps,
        state_bits,
        ..
    } = strategy
    else {
        return Ok(None);
    };
    let steps = options.steps.unwrap_or(*default_steps);
    let unrolled = *state_bits * u64::from(steps);
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
                MAX_UNROLLED_BITS / (*state_bits).max(1)
            ),
        }
        .into());
    }
    Ok(Some(steps))
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

/// Proves `block` equal to its reference as `plan` says (both from [`load`]; a mutant of a
/// block is proved under the original's plan).
pub fn prove(block: &BlockUnderProof, plan: &Plan, options: &Options) -> Result<Proof, Error> {
    let work = block.dir.join(PROVE_DIR);
    let script = work.join("proof.ys");
    let name = plan.name;
    let disproof = |claim: String, reason: String| Proof {
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
    let reference = match &plan.reference {
        Ok(r) => r,
        Err(reason) => return Ok(disproof(String::new(), reason.clone())),
    };
    if let Some(reason) = interface_difference(block, &reference.ports) {
        return Ok(disproof(reference.claim.clone(), reason));
    }
    let check = match steps(&plan.strategy, options)? {
        Some(steps) => Check::FromReset { steps },
        None if block.latency > 0 => Check::Induction,
        None => Check::Combinational,
    };
    let claim = match (&plan.strategy, check) {
        (Strategy::FromReset { writes, .. }, Check::FromReset { steps }) => format!(
            "{}: from reset (asserted in cycle 1), every input sequence of {steps} cycles \
             (reads, writes of in-range shifts to any index, further resets) gives the same \
             outputs; loading every entry takes {writes} write{}",
            reference.claim,
            if *writes == 1 { "" } else { "s" }
        ),
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
    // A proof from reset without a bound asked for: first the unbounded proof (induction with
    // the referee's lemma); the bounded one only where the induction does not close.
    if let (Strategy::FromReset { lemma, .. }, None) = (&plan.strategy, options.steps) {
        let run =
            yosys::miter_with_lemma(&work, "induction", &gold, &gate, lemma, options.timeout_s)?;
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
    let run = match plan.strategy {
        Strategy::PerValue { port, bits, values } => yosys::miter_per_value(
            &work,
            "proof",
            &gold,
            &gate,
            port,
            bits,
            values,
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

/// The inputs of one cycle, each packed port (a configurable hasher's `cfg_i`) split into its
/// fields.
fn describe_inputs(block: &BlockUnderProof, inputs: &BTreeMap<String, String>) -> String {
    let mut parts = Vec::new();
    for (name, value) in inputs {
        let mut text = format!("{name}={value}");
        if let Some(fields) = block.fields.get(name) {
            text.push_str(&format!(" ({})", decode_fields(fields, value)));
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
