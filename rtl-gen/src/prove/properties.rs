//! Safety and liveness properties of whole blocks, proved formally (`rtl-gen prove
//! --properties`): where [`super::prove`] compares a block with a reference, this checks what
//! the block must never do (lose or duplicate a response, return a byte nobody wrote) and what
//! it must always do within a bound (accept a request, answer an access, finish a transfer).
//!
//! A family takes part through [`Properties`]: for one of its blocks it writes a [`Harness`], a
//! property module that instantiates the block, drives nothing (every input stays free, so the
//! proof covers every input sequence the assumptions allow), keeps the bookkeeping a property
//! needs (a shadow of one symbolic word, a counter of outstanding accesses, the age of a tagged
//! access) and states each [`Property`] as `assert` statements behind a `define` of its own,
//! with its assumptions (`assume`) behind others. Replacement modules (a bank that stores one
//! symbolic row exactly and returns anything elsewhere, an over-approximation of the real bank)
//! and probes (the harness's undriven wires connected by the script to named registers of the
//! block, for the lemmas) complete it.
//!
//! Each property is proved in its own run, by the engine it names ([`Engine`]):
//!
//! - **PDR** (property-directed reachability, ABC's `pdr` on the harness as an AIGER
//!   netlist, `yosys-abc` from Yosys' package): proves the property for every reachable state
//!   by finding an inductive invariant itself, or finds the shortest failing trace;
//! - **k-induction** (Yosys' `sat -tempinduct`): base cases from reset up to `k` cycles and
//!   the induction step; when the step does not close within its maximum, the base cases give a
//!   **bounded** verdict: no failure within that many cycles from reset;
//! - **BMC** (`sat -seq`): every input sequence of a given length from reset.
//!
//! A property may assume others already proved ([`Property::assumes`]): proved as invariants
//! of every reachable state, they restrict the proof to a superset of the reachable states, so
//! the result is sound (assume-guarantee). A property whose assumptions were not proved is not
//! run (its verdict says which one failed).
//!
//! Yosys passes some file names of these scripts (`write_aiger -map`, `sim -r`) without
//! removing quotes: the work folder's path must hold no spaces.

use super::block::BlockUnderProof;
use super::yosys::no_verdict;
use super::ProveError;
use crate::Error;
use hdl_util::ExternalTool;
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

/// The work folder of the property proofs, inside the block folder.
pub const PROPERTIES_DIR: &str = "prove/properties";

/// A family's part in the property proofs.
pub trait Properties: Sync {
    /// The family whose blocks it reads (`smem`).
    fn family(&self) -> &'static str;

    /// The harness of `block` for the environment `options` describes; `Ok(None)` when the
    /// family has no properties for the block's kind.
    ///
    /// # Errors
    /// A manifest it cannot read, naming the key.
    fn harness(
        &self,
        block: &BlockUnderProof,
        options: &Options,
    ) -> Result<Option<Harness>, ProveError>;
}

/// The environment and the effort of the property proofs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Cycles within which a consumer takes what a block shows it (a response, a fill beat's
    /// acceptance): the fairness assumption of every bound.
    pub stall: u32,
    /// Seconds each engine run may take before the property is undecided.
    pub timeout_s: u32,
    /// The properties to prove, by name (with the properties they assume); empty: all.
    pub only: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            stall: 2,
            timeout_s: 600,
            only: Vec::new(),
        }
    }
}

/// The largest `--stall`.
pub const MAX_STALL: u32 = 64;

/// How a property is proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "engine", rename_all = "kebab-case")]
pub enum Engine {
    /// ABC's property-directed reachability on the AIGER netlist.
    Pdr,
    /// Yosys' temporal induction, at most `max_steps` long; bounded by its base cases when the
    /// step does not close.
    KInduction {
        /// The longest induction tried.
        max_steps: u32,
    },
    /// Yosys' bounded model check of `steps` cycles from reset.
    Bmc {
        /// Cycles, reset included.
        steps: u32,
    },
}

impl Engine {
    /// The engine in a word, for the report (`pdr`, `k-induction`, `bmc`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Pdr => "pdr",
            Engine::KInduction { .. } => "k-induction",
            Engine::Bmc { .. } => "bmc",
        }
    }
}

/// One property of a block.
#[derive(Debug, Clone)]
pub struct Property {
    /// Its name (`response-count`).
    pub name: &'static str,
    /// What holds when it is proved, in words.
    pub claim: String,
    /// What the proof assumes of the environment, in words ("" when nothing).
    pub assumption: String,
    /// The defines that turn its assertions and its environment's assumptions on.
    pub defines: Vec<String>,
    /// Properties proved before it that it assumes (their `ASSUME_` defines are set).
    pub assumes: Vec<&'static str>,
    /// How it is proved.
    pub engine: Engine,
    /// Proved when no `--property` is named; a property too slow for every run (its cost is in
    /// docs/VERIFICATION.md) is proved only when named.
    pub by_default: bool,
}

/// A probe: a connection the script makes in the flattened design between a wire of the
/// property module and a wire inside the block (or a replacement module), for a lemma or to
/// steer a replacement. Verilog 2005 has no hierarchical names for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The harness's wire, with a bit range when only part of it is connected
    /// (`probe_word[31:0]`).
    pub wire: String,
    /// The flattened design's wire (`dut.u_bank0.word_q`).
    pub source: String,
    /// The harness's wire drives the inner one (an undriven input of a replacement module);
    /// otherwise the inner one drives the harness's undriven wire.
    pub drive: bool,
    /// The properties whose proofs connect it (empty: every property's), so that a property
    /// that needs no lemma does not depend on the names of the block's registers.
    pub only_for: Vec<&'static str>,
}

/// A block's property module and what it needs.
#[derive(Debug, Clone)]
pub struct Harness {
    /// The property module's name.
    pub top: String,
    /// The block's files read with it (a replaced module's file left out).
    pub files: Vec<PathBuf>,
    /// Files written for the proof: the property module and replacement modules (name, text).
    pub generated: Vec<(String, String)>,
    /// Probes the script connects.
    pub probes: Vec<Probe>,
    /// The reset port, active low, asserted in the first cycle.
    pub reset: String,
    /// The clock port.
    pub clock: String,
    /// The properties, in the order they are proved (a property's assumptions come first).
    pub properties: Vec<Property>,
}

impl Harness {
    /// Keeps the properties named in `only` and those they assume (those proved by default
    /// when `only` is empty).
    ///
    /// # Errors
    /// A name that is none of the block's properties, naming `--property` and the allowed ones.
    pub fn select(mut self, only: &[String]) -> Result<Harness, ProveError> {
        if only.is_empty() {
            self.properties.retain(|p| p.by_default);
            return Ok(self);
        }
        let names: Vec<&str> = self.properties.iter().map(|p| p.name).collect();
        if let Some(bad) = only.iter().find(|o| !names.contains(&o.as_str())) {
            return Err(ProveError::Bound {
                flag: "--property",
                value: bad.clone(),
                allowed: format!(
                    "one of {} (the properties of {})",
                    names.join(", "),
                    self.top
                ),
            });
        }
        let mut keep: Vec<&str> = only.iter().map(String::as_str).collect();
        // A property's assumptions come before it: one pass from the last one closes the set.
        for p in self.properties.iter().rev() {
            if keep.contains(&p.name) {
                keep.extend(p.assumes.iter().copied());
            }
        }
        self.properties.retain(|p| keep.contains(&p.name));
        Ok(self)
    }
}

/// The verdict of one property.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Verdict {
    /// It holds in every reachable state.
    Proved,
    /// No input sequence from reset breaks it within `depth` cycles; beyond, not proved.
    Bounded {
        /// Cycles from reset, reset included.
        depth: u32,
        /// Why it is not proved beyond.
        reason: String,
    },
    /// It fails: the shortest failing input sequence from reset.
    Failed {
        /// The cycle (from reset, reset = 1) in which it fails.
        cycle: u32,
        /// The trace, a VCD file of the property module's signals.
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<PathBuf>,
    },
    /// The engine gave up (time, or an assumption not proved).
    Undecided {
        /// Why.
        reason: String,
    },
}

/// One property proof.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PropertyProof {
    /// The block's top module.
    pub block: String,
    /// The property.
    pub property: String,
    /// What holds when it is proved.
    pub claim: String,
    /// What the proof assumes of the environment.
    pub assumption: String,
    /// The engine, with its bound.
    pub engine: Engine,
    /// The verdict.
    pub verdict: Verdict,
    /// The induction length or the invariant's frame where the engine reports one.
    pub depth: Option<u32>,
    /// Wall-clock seconds of the engine's tools.
    pub seconds: f64,
    /// CPU seconds the tools reported (Yosys' and ABC's own accounting where they print it).
    pub cpu_seconds: Option<f64>,
    /// The script that reruns it (`yosys -s`).
    pub script: PathBuf,
}

impl PropertyProof {
    /// One line: block, verdict, property, engine and depth, what holds (or where it fails),
    /// seconds.
    pub fn line(&self) -> String {
        let depth = self.depth.map_or(String::new(), |d| format!(", depth {d}"));
        let how = format!("{}{depth}", self.engine.name());
        let (verdict, detail) = match &self.verdict {
            Verdict::Proved => ("PROVED", self.claim.clone()),
            Verdict::Bounded { depth, reason } => (
                "BOUNDED",
                format!(
                    "no failure within {depth} cycles from reset ({reason}): {}",
                    self.claim
                ),
            ),
            Verdict::Failed { cycle, trace } => (
                "FAILED",
                format!(
                    "fails in cycle {cycle} from reset{}: {}",
                    trace
                        .as_ref()
                        .map_or(String::new(), |t| format!(" (trace {})", t.display())),
                    self.claim
                ),
            ),
            Verdict::Undecided { reason } => ("UNDECIDED", reason.clone()),
        };
        let cpu = self
            .cpu_seconds
            .map_or(String::new(), |c| format!(", {c:.2} s CPU"));
        format!(
            "{}: {verdict} {} ({how}): {detail} ({:.2} s{cpu})",
            self.block, self.property, self.seconds
        )
    }
}

/// How many properties ended each way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Proved for every reachable state.
    pub proved: usize,
    /// Proved to a depth only.
    pub bounded: usize,
    /// Failed.
    pub failed: usize,
    /// Undecided.
    pub undecided: usize,
}

impl Summary {
    /// The counts of `proofs`.
    pub fn of(proofs: &[PropertyProof]) -> Summary {
        let count = |f: fn(&Verdict) -> bool| proofs.iter().filter(|p| f(&p.verdict)).count();
        Summary {
            proved: count(|v| matches!(v, Verdict::Proved)),
            bounded: count(|v| matches!(v, Verdict::Bounded { .. })),
            failed: count(|v| matches!(v, Verdict::Failed { .. })),
            undecided: count(|v| matches!(v, Verdict::Undecided { .. })),
        }
    }

    /// Whether nothing failed and nothing is undecided (bounded verdicts state their depth).
    pub fn holds(&self) -> bool {
        self.failed == 0 && self.undecided == 0
    }
}

/// Reads the block in `dir` and its harness: the step that can refuse, run for every block
/// before any proof starts.
pub fn load(
    dir: &Path,
    families: &[&dyn Properties],
    options: &Options,
) -> Result<(BlockUnderProof, Harness), Error> {
    if !(1..=MAX_STALL).contains(&options.stall) {
        return Err(ProveError::Bound {
            flag: "--stall",
            value: options.stall.to_string(),
            allowed: format!("1 to {MAX_STALL} cycles"),
        }
        .into());
    }
    let block = BlockUnderProof::load(dir)?;
    crate::output::OutputFolder::check(&block.dir.join(super::PROVE_DIR))?;
    for family in families.iter().filter(|f| f.family() == block.family) {
        if let Some(harness) = family.harness(&block, options)? {
            let harness = harness.select(&options.only)?;
            return Ok((block, harness));
        }
    }
    let covered: Vec<&str> = families.iter().map(|f| f.family()).collect();
    Err(ProveError::NoReference {
        path: dir.to_path_buf(),
        family: format!("{} {}", block.family, block.kind),
        covered: if covered.is_empty() {
            "no family".into()
        } else {
            format!("with --properties: the {} blocks", covered.join(" and "))
        },
    }
    .into())
}

/// Proves every property of `harness`, in order, calling `report` as each ends.
pub fn prove(
    block: &BlockUnderProof,
    harness: &Harness,
    options: &Options,
    mut report: impl FnMut(&PropertyProof),
) -> Result<Vec<PropertyProof>, Error> {
    let work = block.dir.join(PROPERTIES_DIR);
    crate::output::OutputFolder::open(&block.dir.join(super::PROVE_DIR))?;
    crate::output::OutputFolder::open(&work)?;
    let mut files = harness.files.clone();
    for (name, text) in &harness.generated {
        let path = work.join(name);
        let text = format!(
            "// Generated by {}: the property harness of {} (rtl-gen prove --properties)\n{text}",
            crate::manifest::generator(),
            block.top
        );
        crate::output::write_file(&path, text.as_bytes())?;
        files.push(path);
    }
    let mut proofs: Vec<PropertyProof> = Vec::new();
    for property in &harness.properties {
        let unproved = property.assumes.iter().find(|a| {
            !proofs
                .iter()
                .any(|p| p.property == **a && p.verdict == Verdict::Proved)
        });
        let proof = match unproved {
            Some(a) => PropertyProof {
                block: block.top.clone(),
                property: property.name.to_string(),
                claim: property.claim.clone(),
                assumption: property.assumption.clone(),
                engine: property.engine,
                verdict: Verdict::Undecided {
                    reason: format!("it assumes `{a}`, which was not proved"),
                },
                depth: None,
                seconds: 0.0,
                cpu_seconds: None,
                script: work.join(format!("{}.ys", property.name)),
            },
            None => run_property(&work, block, harness, &files, property, options)?,
        };
        report(&proof);
        proofs.push(proof);
    }
    Ok(proofs)
}

/// The script lines that read the harness with `property`'s defines, flatten it, connect the
/// probes and model the asynchronous reset for the solver.
fn elaborate(harness: &Harness, files: &[PathBuf], property: &Property, pdr: bool) -> String {
    let mut defines: Vec<String> = property.defines.clone();
    defines.extend(
        property
            .assumes
            .iter()
            .map(|a| format!("ASSUME_{}", define_name(a))),
    );
    if pdr {
        defines.push("INIT_RESET".into());
    }
    let flags: String = defines.iter().map(|d| format!(" -D{d}")).collect();
    let mut s = String::new();
    for f in files {
        let _ = writeln!(s, "read_verilog -formal{flags} \"{}\"", f.display());
    }
    let _ = writeln!(
        s,
        "hierarchy -top {top}\nproc\nflatten\ncd {top}",
        top = harness.top
    );
    let probes = harness
        .probes
        .iter()
        .filter(|p| p.only_for.is_empty() || p.only_for.contains(&property.name));
    for (i, probe) in probes.enumerate() {
        // `connect` reads no dotted names: the source is renamed first.
        let (to, from) = if probe.drive {
            (format!("probe_source_{i}"), probe.wire.clone())
        } else {
            (probe.wire.clone(), format!("probe_source_{i}"))
        };
        let _ = writeln!(
            s,
            "rename {} probe_source_{i}\nconnect -set {to} {from}",
            probe.source
        );
    }
    // `opt_clean` drops what the connections left dangling: without it the induction of the
    // shared memory's data lemma does not close (Yosys 0.23).
    s.push_str("cd ..\nsetundef -undriven -anyseq\nasync2sync\nopt_clean\n");
    s
}

/// The name of a property as a Verilog define (`response-count` -> `RESPONSE_COUNT`).
pub fn define_name(property: &str) -> String {
    property.replace('-', "_").to_ascii_uppercase()
}

/// Runs one property's engine.
fn run_property(
    work: &Path,
    block: &BlockUnderProof,
    harness: &Harness,
    files: &[PathBuf],
    property: &Property,
    options: &Options,
) -> Result<PropertyProof, Error> {
    let name = property.name;
    let pdr = property.engine == Engine::Pdr;
    let mut script = elaborate(harness, files, property, pdr);
    let (verdict, depth, seconds, cpu, script_path) = match property.engine {
        Engine::Pdr => {
            let aig = work.join(format!("{name}.aig"));
            let aim = work.join(format!("{name}.aim"));
            let _ = writeln!(
                script,
                "chformal -assume -early\nopt -fast -nosdff -nodffe\ntechmap\ndffunmap\n\
                 abc -g AND -fast\nopt_clean\nwrite_aiger -I -B -zinit -map {} \"{}\"",
                aim.display(),
                aig.display()
            );
            let (log, yosys_seconds, yosys_log) = super::yosys::run(work, name, &script)?;
            if !aig.is_file() {
                return Err(no_verdict(name, &log, &yosys_log));
            }
            let cex = work.join(format!("{name}.aiw"));
            let _ = std::fs::remove_file(&cex);
            let (abc_log, abc_seconds) = run_abc(work, name, &aig, &cex, options.timeout_s)?;
            let (verdict, depth) = read_pdr(&abc_log);
            let verdict = match verdict {
                Verdict::Failed { cycle, .. } => Verdict::Failed {
                    cycle,
                    trace: replay(work, name, harness, &script, &aim, &cex, cycle),
                },
                other => other,
            };
            // ABC prints its own CPU time on its verdict line (ABC's own accounting); without
            // one (no verdict), its wall-clock time stands in.
            let abc_cpu = abc_seconds_reported(&abc_log).unwrap_or(abc_seconds);
            let cpu = super::yosys::cpu_seconds(&log).map(|c| c + abc_cpu);
            (
                verdict,
                depth,
                yosys_seconds + abc_seconds,
                cpu,
                work.join(format!("{name}.ys")),
            )
        }
        Engine::KInduction { max_steps } => {
            let vcd = work.join(format!("{name}.vcd"));
            let _ = writeln!(
                script,
                "sat -tempinduct -maxsteps {max_steps} -prove-asserts -set-assumes \
                 -set-at 1 {reset} 0 -timeout {timeout} -dump_vcd \"{vcd}\" {top}",
                reset = harness.reset,
                timeout = options.timeout_s,
                vcd = vcd.display(),
                top = harness.top
            );
            let (log, seconds, yosys_log) = super::yosys::run(work, name, &script)?;
            let (verdict, depth) = read_sat(&log, max_steps, &vcd)
                .ok_or_else(|| no_verdict(name, &log, &yosys_log))?;
            (
                verdict,
                depth,
                seconds,
                super::yosys::cpu_seconds(&log),
                work.join(format!("{name}.ys")),
            )
        }
        Engine::Bmc { steps } => {
            let vcd = work.join(format!("{name}.vcd"));
            let _ = writeln!(
                script,
                "sat -seq {steps} -prove-asserts -set-assumes -set-at 1 {reset} 0 \
                 -timeout {timeout} -dump_vcd \"{vcd}\" {top}",
                reset = harness.reset,
                timeout = options.timeout_s,
                vcd = vcd.display(),
                top = harness.top
            );
            let (log, seconds, yosys_log) = super::yosys::run(work, name, &script)?;
            let (verdict, depth) =
                read_sat(&log, steps, &vcd).ok_or_else(|| no_verdict(name, &log, &yosys_log))?;
            (
                verdict,
                depth,
                seconds,
                super::yosys::cpu_seconds(&log),
                work.join(format!("{name}.ys")),
            )
        }
    };
    Ok(PropertyProof {
        block: block.top.clone(),
        property: name.to_string(),
        claim: property.claim.clone(),
        assumption: property.assumption.clone(),
        engine: property.engine,
        verdict,
        depth,
        seconds,
        cpu_seconds: cpu,
        script: script_path,
    })
}

/// Finds ABC as Yosys ships it (`$YOSYS_ABC`, else `yosys-abc` on `PATH`).
fn yosys_abc() -> Result<ExternalTool, Error> {
    Ok(ExternalTool::find("yosys-abc", "YOSYS_ABC", "yosys").map_err(testbenches::Error::from)?)
}

/// Runs ABC's PDR on `aig` with a time limit, writing a counterexample to `cex`; returns its
/// output and the seconds it took.
fn run_abc(
    work: &Path,
    name: &str,
    aig: &Path,
    cex: &Path,
    timeout_s: u32,
) -> Result<(String, f64), Error> {
    let log = work.join(format!("{name}.abc.log"));
    // ABC's command line takes no quoted paths: it runs in the work folder, on file names.
    let file = |p: &Path| {
        p.file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let commands = format!(
        "read_aiger {}; fold; strash; pdr -T {timeout_s}; write_cex -a {}",
        file(aig),
        file(cex)
    );
    let start = Instant::now();
    let mut abc = yosys_abc()?.command();
    let out = std::fs::File::create(&log).map_err(Error::io(&log))?;
    let err = out.try_clone().map_err(Error::io(&log))?;
    abc.current_dir(work)
        .arg("-c")
        .arg(&commands)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err);
    hdl_util::children::spawn(&mut abc)
        .and_then(|mut running| running.child().wait())
        .map_err(Error::io(&log))?;
    let seconds = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    Ok((text, seconds))
}

/// ABC's PDR verdict: proved (with the frame of its invariant), failed in a frame (0-based
/// there, counted from 1 here), or undecided.
fn read_pdr(log: &str) -> (Verdict, Option<u32>) {
    if log.contains("Property proved") {
        let frame = log
            .lines()
            .find_map(|l| l.trim().strip_prefix("Invariant F["))
            .and_then(|rest| rest.split(']').next())
            .and_then(|n| n.parse().ok());
        return (Verdict::Proved, frame);
    }
    if let Some(frame) = log.lines().find_map(|l| {
        let rest = l.split("was asserted in frame ").nth(1)?;
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse::<u32>()
            .ok()
    }) {
        return (
            Verdict::Failed {
                cycle: frame + 1,
                trace: None,
            },
            None,
        );
    }
    let reason = if log.contains("timeout") || log.contains("Reached timeout") {
        "PDR ran out of time (--timeout)".to_string()
    } else {
        format!(
            "PDR gave no verdict: {}",
            log.lines().last().unwrap_or("no output").trim()
        )
    };
    (Verdict::Undecided { reason }, None)
}

/// The seconds ABC reports on its verdict line (`Property proved.  Time =     0.24 sec`).
fn abc_seconds_reported(log: &str) -> Option<f64> {
    let line = log
        .lines()
        .find(|l| l.contains("Property proved") || l.contains("was asserted in frame"))?;
    let rest = line.split("Time =").nth(1)?;
    rest.split_whitespace().next()?.parse().ok()
}

/// Replays ABC's counterexample in Yosys' simulator and writes it as a VCD file; `None` when
/// the replay fails (the verdict stands; the trace is a convenience).
fn replay(
    work: &Path,
    name: &str,
    harness: &Harness,
    script: &str,
    aim: &Path,
    cex: &Path,
    cycles: u32,
) -> Option<PathBuf> {
    let vcd = work.join(format!("{name}.vcd"));
    // The netlist the counterexample refers to, rebuilt without writing it again.
    let rebuilt: String = script
        .lines()
        .filter(|l| !l.starts_with("write_aiger"))
        .map(|l| format!("{l}\n"))
        .collect();
    let replay = format!(
        "{rebuilt}sim -clock {} -r {} -map {} -scope {} -n {} -vcd {}\n",
        harness.clock,
        cex.display(),
        aim.display(),
        harness.top,
        cycles + 1,
        vcd.display()
    );
    super::yosys::run(work, &format!("{name}.replay"), &replay).ok()?;
    vcd.is_file().then_some(vcd)
}

/// Yosys `sat`'s verdict for a run of at most `steps` cycles.
fn read_sat(log: &str, steps: u32, vcd: &Path) -> Option<(Verdict, Option<u32>)> {
    let trace = || vcd.is_file().then(|| vcd.to_path_buf());
    if log.contains("Interrupted SAT solver: TIMEOUT!") {
        let base = last_base_case(log);
        return Some(match base {
            Some(depth) if depth > 0 => (
                Verdict::Bounded {
                    depth,
                    reason: "the solver ran out of time (--timeout) beyond it".into(),
                },
                Some(depth),
            ),
            _ => (
                Verdict::Undecided {
                    reason: "the SAT solver ran out of time (--timeout)".into(),
                },
                None,
            ),
        });
    }
    if log.contains("Induction step proven: SUCCESS!") {
        let length = log
            .lines()
            .rev()
            .filter_map(|l| l.trim().strip_prefix("** Trying induction with length "))
            .find_map(|r| r.split_whitespace().next()?.parse().ok());
        return Some((Verdict::Proved, length));
    }
    if log.contains("Reached maximum number of time steps") {
        return Some((
            Verdict::Bounded {
                depth: steps,
                reason: format!("the induction did not close within {steps} cycles"),
            },
            Some(steps),
        ));
    }
    if log.contains("SAT proof finished - no model found: SUCCESS!") {
        return Some((
            Verdict::Bounded {
                depth: steps,
                reason: "bounded model check".into(),
            },
            Some(steps),
        ));
    }
    if log.contains("FAIL!") {
        let cycle = failing_cycle(log).unwrap_or(steps);
        return Some((
            Verdict::Failed {
                cycle,
                trace: trace(),
            },
            None,
        ));
    }
    None
}

/// The longest induction whose base case was proven.
fn last_base_case(log: &str) -> Option<u32> {
    log.lines()
        .rev()
        .filter_map(|l| l.trim().strip_prefix("Base case for induction length "))
        .find_map(|r| r.split_whitespace().next()?.parse().ok())
}

/// The last time step of a `sat` counterexample table (the cycle in which an assertion
/// fails).
fn failing_cycle(log: &str) -> Option<u32> {
    let start = log.find("Signal Name")?;
    log[start..]
        .lines()
        .skip(2)
        .map_while(|l| {
            let first = l.split_whitespace().next()?;
            if first.starts_with("--") || first == "init" {
                Some(None)
            } else {
                first.parse::<u32>().ok().map(Some)
            }
        })
        .flatten()
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pdr_verdicts() {
        let proved = "Invariant F[4] : 40 clauses with 13 flops (out of 40)\n\
                      Property proved.  Time =     0.03 sec\n";
        assert_eq!(read_pdr(proved), (Verdict::Proved, Some(4)));
        let failed = "Output 0 of miter \"x\" was asserted in frame 14.  Time =     0.19 sec\n";
        assert_eq!(
            read_pdr(failed),
            (
                Verdict::Failed {
                    cycle: 15,
                    trace: None
                },
                None
            )
        );
        assert!(matches!(read_pdr("").0, Verdict::Undecided { .. }));
        assert_eq!(abc_seconds_reported(proved), Some(0.03));
        assert_eq!(abc_seconds_reported(failed), Some(0.19));
        assert_eq!(abc_seconds_reported(""), None);
    }

    #[test]
    fn reads_sat_verdicts() {
        let vcd = Path::new("/nonexistent.vcd");
        let closed = "** Trying induction with length 1 **\n** Trying induction with length 2 **\n\
                      Induction step proven: SUCCESS!\n";
        assert_eq!(read_sat(closed, 8, vcd), Some((Verdict::Proved, Some(2))));
        let open = "Base case for induction length 8 proven.\n\
                    Reached maximum number of time steps -> proof failed.\n";
        assert!(matches!(
            read_sat(open, 8, vcd),
            Some((Verdict::Bounded { depth: 8, .. }, Some(8)))
        ));
        let bmc = "SAT proof finished - no model found: SUCCESS!\n";
        assert!(matches!(
            read_sat(bmc, 12, vcd),
            Some((Verdict::Bounded { depth: 12, .. }, _))
        ));
        let failed =
            "model found: FAIL!\n  Time Signal Name  Dec Hex Bin\n  ---- ---- --- --- ---\n\
                      \x20 init \\q  0 0 0\n  ---- ---- --- --- ---\n     1 \\a  0 0 0\n\
                      \x20    2 \\a  1 1 1\n\nEnd";
        assert_eq!(
            read_sat(failed, 12, vcd),
            Some((
                Verdict::Failed {
                    cycle: 2,
                    trace: None
                },
                None
            ))
        );
        assert_eq!(read_sat("nothing", 3, vcd), None);
        assert_eq!(define_name("response-count"), "RESPONSE_COUNT");
    }
}
