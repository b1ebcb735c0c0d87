//! Mutation testing of generated blocks: single-point mutants of the emitted Verilog, each run
//! through the block's own self-checking testbench (the `cosim` machinery); a mutant the
//! testbench passes is handed to Yosys, which proves it equivalent to the original or shows the
//! inputs that tell them apart (a gap in the testbench).
//!
//! - [`tokens`]: a small Verilog tokenizer (the mutants are made on the text, independent of
//!   the RTL representation);
//! - [`sites`]: where each operator applies;
//! - [`report`]: the per-block and per-family tables.
//!
//! A surviving mutant is classified, strongest first: **equivalent** (Yosys' `equiv_make`,
//! `equiv_simple`, `equiv_induct` match the two by signal names and prove every output equal
//! from any state in which the registers agree); for hashers and converters, **equivalent
//! within the contract** (`rtl-gen prove` still proves it equal to the independent reference:
//! it differs only outside the domain, such as an index at or above `w`); otherwise **not
//! equivalent**, with the counterexample (for the D²MA blocks, a bounded search from reset);
//! **undecided** when the solver finds neither.

pub mod report;
pub mod sites;
pub mod tokens;

use crate::cosim;
use crate::prove::{self, yosys, BlockUnderProof, Plan, Referee};
use crate::Error;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use sites::{Operator, Site};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How a mutation run is set up.
#[derive(Debug, Clone)]
pub struct Options {
    /// Simulator of the testbenches (`iverilog` or `verilator`).
    pub simulator: String,
    /// Most mutants per block; sites beyond it are sampled, every operator in turn.
    pub max_per_block: usize,
    /// Seed of the sampling.
    pub seed: u64,
    /// The operators to apply.
    pub operators: Vec<Operator>,
    /// Cycles of the search from reset for a survivor without a reference (D²MA blocks).
    pub steps: u32,
    /// Seconds each SAT problem may take.
    pub timeout_s: u32,
    /// Folder for the mutants' copies (each removed when done).
    pub work: PathBuf,
}

/// What happened to one mutant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// The testbench failed it (mismatches, or a run that ended without passing).
    Caught {
        /// How.
        how: String,
    },
    /// It does not build (the simulator refused it): not counted.
    Stillborn {
        /// The simulator's first error line.
        why: String,
    },
    /// The testbench passed it and Yosys proved it equivalent to the original.
    Equivalent,
    /// The testbench passed it; it differs from the original, but only outside the block's
    /// contract: `rtl-gen prove` still proves it equal to the reference.
    EquivalentInContract,
    /// The testbench passed it and it is not equivalent: a gap in the testbench.
    NotEquivalent {
        /// Inputs that tell it apart.
        counterexample: String,
    },
    /// The testbench passed it and the solver decided nothing.
    Undecided {
        /// Why.
        why: String,
    },
}

impl Verdict {
    /// The short name used in tables.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Caught { .. } => "caught",
            Verdict::Stillborn { .. } => "stillborn",
            Verdict::Equivalent => "equivalent",
            Verdict::EquivalentInContract => "equivalent-in-contract",
            Verdict::NotEquivalent { .. } => "not-equivalent",
            Verdict::Undecided { .. } => "undecided",
        }
    }

    /// Whether the testbench passed it while it is not proved harmless.
    pub fn is_gap(&self) -> bool {
        matches!(
            self,
            Verdict::NotEquivalent { .. } | Verdict::Undecided { .. }
        )
    }
}

/// One mutant and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mutant {
    /// The operator.
    pub operator: Operator,
    /// The file mutated, relative to the block folder.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// The line before.
    pub before: String,
    /// The line after.
    pub after: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Seconds spent on it (simulation and proofs).
    pub seconds: f64,
}

/// The mutants of one block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockMutants {
    /// The top module.
    pub block: String,
    /// The family (`hash`, `rap`, `d2ma`) and kind in words (the referee's description, else
    /// the manifest's family and kind).
    pub family: String,
    /// Sites found per operator.
    pub sites: BTreeMap<Operator, usize>,
    /// The mutants run.
    pub mutants: Vec<Mutant>,
}

/// A mutant to run: file index, file name and site.
struct Planned {
    file: usize,
    name: String,
    site: Site,
}

/// Every site of the block's files, and the ones chosen: all when there are at most `max`,
/// otherwise `max` drawn operator by operator in turn, each operator's sites in a seeded random
/// order.
fn plan(
    texts: &[(String, String)],
    options: &Options,
    block: &str,
) -> (BTreeMap<Operator, usize>, Vec<Planned>) {
    let mut by_operator: BTreeMap<Operator, Vec<Planned>> = BTreeMap::new();
    for (file, (name, text)) in texts.iter().enumerate() {
        for site in sites::sites(text) {
            if options.operators.contains(&site.operator) {
                by_operator.entry(site.operator).or_default().push(Planned {
                    file,
                    name: name.clone(),
                    site,
                });
            }
        }
    }
    let counts = by_operator.iter().map(|(o, v)| (*o, v.len())).collect();
    let block_seed = block.bytes().fold(options.seed, |h, b| {
        h.wrapping_mul(0x100_0000_01b3).wrapping_add(u64::from(b))
    });
    let mut rng = ChaCha8Rng::seed_from_u64(block_seed);
    let mut queues: Vec<Vec<Planned>> = by_operator
        .into_values()
        .map(|mut v| {
            v.shuffle(&mut rng);
            v.reverse();
            v
        })
        .collect();
    let mut chosen = Vec::new();
    while chosen.len() < options.max_per_block && queues.iter().any(|q| !q.is_empty()) {
        for q in queues.iter_mut() {
            if chosen.len() < options.max_per_block {
                if let Some(p) = q.pop() {
                    chosen.push(p);
                }
            }
        }
    }
    chosen.sort_by_key(|p| (p.file, p.site.edits[0].0.start));
    (counts, chosen)
}

/// Copies the block folder `from` to `to`, leaving out the work folders of `cosim`, `prove`
/// and `synth`.
fn copy_block(from: &Path, to: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(to).map_err(Error::io(to))?;
    for entry in std::fs::read_dir(from).map_err(Error::io(from))? {
        let entry = entry.map_err(Error::io(from))?;
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            if !["build", prove::PROVE_DIR, crate::qor::SYNTH_DIR]
                .iter()
                .any(|d| entry.file_name() == *d)
            {
                copy_block(&path, &target)?;
            }
        } else {
            std::fs::copy(&path, &target).map_err(Error::io(&path))?;
        }
    }
    Ok(())
}

/// The verdict of the testbench on the block copy in `dir`.
fn simulate(dir: &Path, simulator: &str) -> Result<Option<Verdict>, Error> {
    match cosim::run(dir, simulator) {
        Ok((_, report)) if report.failed > 0 => Ok(Some(Verdict::Caught {
            how: format!("{} of {} vectors failed", report.failed, report.vectors),
        })),
        Ok(_) => Ok(None),
        Err(Error::Testbench(testbenches::Error::NoSummary { reason, .. })) => {
            Ok(Some(Verdict::Caught {
                how: format!("the simulation did not pass ({reason})"),
            }))
        }
        Err(Error::Testbench(testbenches::Error::Tool(hdl_util::Error::ToolFailed {
            output,
            ..
        }))) => Ok(Some(Verdict::Stillborn {
            why: output.lines().next().unwrap_or("build failed").to_string(),
        })),
        Err(e) => Err(e),
    }
}

/// What Yosys says about a mutant (in `dir`, a copy of `block`) the testbench passed; `site`
/// is its change, `plan` the block's proof plan where its family has a reference.
fn classify_survivor(
    block: &BlockUnderProof,
    plan: Option<&Plan>,
    dir: &Path,
    site: &Site,
    options: &Options,
) -> Result<Verdict, Error> {
    let mutant = BlockUnderProof::load(dir)?;
    let work = dir.join(prove::PROVE_DIR);
    let original = yosys::Design {
        files: block.rtl_files.clone(),
        top: block.top.clone(),
    };
    let changed = yosys::Design {
        files: mutant.rtl_files.clone(),
        top: mutant.top.clone(),
    };
    let sequential = block.port("clk_i").is_some();
    // First a difference, if there is one: against the reference where the family has one,
    // otherwise from reset within the bound (or over every input, when combinational).
    let has_reference = plan.is_some();
    if let Some(plan) = plan {
        let proof = prove::prove(
            &mutant,
            plan,
            &prove::Options {
                steps: None,
                timeout_s: options.timeout_s,
            },
        )?;
        match proof.outcome {
            prove::Outcome::Proved => {}
            prove::Outcome::Disproved { reason, .. } => {
                return Ok(Verdict::NotEquivalent {
                    counterexample: reason,
                })
            }
            prove::Outcome::Undecided { reason } => return Ok(Verdict::Undecided { why: reason }),
        }
    } else {
        let check = if sequential {
            yosys::Check::FromReset {
                steps: options.steps,
            }
        } else {
            yosys::Check::Combinational
        };
        let run = yosys::miter(
            &work,
            "search",
            &original,
            &changed,
            check,
            options.timeout_s,
        )?;
        match run.answer {
            yosys::Answer::Fails(trace) => {
                return Ok(Verdict::NotEquivalent {
                    counterexample: prove::counterexample(block, &trace, 0).summary,
                })
            }
            yosys::Answer::Holds if !sequential => return Ok(Verdict::Equivalent),
            yosys::Answer::Holds => {}
            yosys::Answer::Undecided(why) | yosys::Answer::Mismatch(why) => {
                return Ok(Verdict::Undecided { why })
            }
        }
    }
    // Then equivalence for every input sequence: the same output and next-state logic, which
    // decides only when the mutant leaves the resets alone.
    let same = !site.touches_reset
        && yosys::same_next_state(&work, "equivalence", &original, &changed, options.timeout_s)?
            .answer
            == yosys::Answer::Holds;
    Ok(match (same, has_reference) {
        (true, _) => Verdict::Equivalent,
        (false, true) => Verdict::EquivalentInContract,
        (false, false) => Verdict::Undecided {
            why: format!(
                "no difference within {} cycles from reset; {}",
                options.steps,
                if site.touches_reset {
                    "a changed reset is not compared beyond that"
                } else {
                    "the next-state logic differs in states the search did not reach"
                }
            ),
        },
    })
}

/// Runs one mutant in its own copy of the block.
fn run_mutant(
    block: &BlockUnderProof,
    plan: Option<&Plan>,
    texts: &[(String, String)],
    planned: &Planned,
    options: &Options,
) -> Result<Mutant, Error> {
    let start = Instant::now();
    let scratch = tempfile::Builder::new()
        .prefix("mutant.")
        .tempdir_in(&options.work)
        .map_err(Error::io(&options.work))?;
    let name = block.dir.file_name().unwrap_or_default();
    let dir = scratch.path().join(name);
    copy_block(&block.dir, &dir)?;
    let (file, text) = &texts[planned.file];
    let mutated = planned.site.apply(text);
    std::fs::write(dir.join(file), &mutated).map_err(Error::io(dir.join(file)))?;
    let verdict = match simulate(&dir, &options.simulator)? {
        Some(v) => v,
        None => match classify_survivor(block, plan, &dir, &planned.site, options) {
            // Yosys gave no verdict (its SAT solver cannot import a latch, as in the clock
            // gates of the D²MA's latch storage): the mutant is undecided, the run goes on.
            Err(Error::Prove(prove::ProveError::Yosys { reason, .. })) => Verdict::Undecided {
                why: format!("Yosys gave no verdict: {reason}"),
            },
            other => other?,
        },
    };
    let (before, after) = planned.site.describe(text);
    Ok(Mutant {
        operator: planned.site.operator,
        file: planned.name.clone(),
        line: planned.site.line,
        before,
        after,
        verdict,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Mutates the block in `dir`, calling `progress` after each mutant with its index and count;
/// a survivor of a block one of `referees` covers is also proved against its reference.
pub fn mutate_block(
    dir: &Path,
    options: &Options,
    referees: &[&dyn Referee],
    progress: &(dyn Fn(&str, usize, usize, &Mutant) + Sync),
) -> Result<BlockMutants, Error> {
    let block = BlockUnderProof::load(dir)?;
    let proof_plan = prove::plan_of(&block, referees)?;
    let texts = block
        .rtl_files
        .iter()
        .map(|f| {
            let name = f
                .strip_prefix(&block.dir)
                .unwrap_or(f)
                .display()
                .to_string();
            std::fs::read_to_string(f)
                .map(|t| (name, t))
                .map_err(Error::io(f))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (sites, planned) = plan(&texts, options, &block.top);
    let done = std::sync::atomic::AtomicUsize::new(0);
    // The mutants run on the current rayon pool (the caller's `--jobs`).
    let mutants = planned
        .par_iter()
        .map(|p| {
            let m = run_mutant(&block, proof_plan.as_ref(), &texts, p, options)?;
            let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            progress(&block.top, n, planned.len(), &m);
            Ok(m)
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(BlockMutants {
        block: block.top.clone(),
        family: proof_plan.map_or_else(
            || format!("{} {}", block.family, block.kind),
            |p| p.description,
        ),
        sites,
        mutants,
    })
}
