//! `rtl-gen vortex run` and `rtl-gen vortex trace`: every kernel on every map at one
//! configuration, one record per run, and the table of them.
//!
//! The simulator of each map is built once (cached by content, [`super::rtlsim`]); a generated
//! memory is written by `rtl-gen smem --interface vortex`'s generator into
//! `<work>/lmem/<config>/<map>/` and built with its statistics line and its access trace
//! compiled in. The kernels are built once in the baseline tree (their binaries do not depend on
//! the local memory). The runs of one map go `setup.jobs` at a time, each in
//! `<work>/runs/<config>/<map>/<kernel>/` with its `run.log`.
//!
//! `best` first traces each kernel on the modulo memory (`<work>/traces/<config>/`), searches
//! the best hash for that trace (`rtl-gen search`'s whole plan, every family) and programs it
//! into the configurable build through the DCRs before the kernel's launch.

use super::config::VxConfig;
use super::kernels::{self, Built, KernelSpec};
use super::maps::{self, Generated, MapChoice};
use super::rtlsim::{self, LmemFolder, Rtlsim};
use super::run::Launch;
use super::tree::{Flavour, Tree};
use super::{Digest, Progress, Setup};
use crate::smem::SmemDesign;
use crate::Error;
use models::search::Trace;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// What `rtl-gen vortex run` runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The GPU's configuration.
    pub config: VxConfig,
    /// The local memories, in order.
    pub maps: Vec<MapChoice>,
    /// The kernels, in order.
    pub kernels: Vec<KernelSpec>,
    /// How long one run may take.
    pub timeout: Duration,
}

/// One run's record (`--json` prints one per run).
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// The kernel and its arguments (`sgemm2 -n32`).
    pub kernel: String,
    /// The map (`vortex`, `modulo`, `hash:best.json`, `best`, `modulo/no-broadcast`, ...).
    pub map: String,
    /// The configuration (`4x4t-4b`: warps x threads, banks).
    pub config: String,
    /// The host program's check passed (`PASSED!`, exit status 0).
    pub passed: bool,
    /// Cycles of the run (Vortex's `mcycle`).
    pub cycles: Option<u64>,
    /// Instructions.
    pub instrs: Option<u64>,
    /// Local-memory read lanes (`lmem_perf.reads`).
    pub lmem_reads: Option<u64>,
    /// Local-memory write lanes (`lmem_perf.writes`).
    pub lmem_writes: Option<u64>,
    /// Bank stalls (`lmem_perf.bank_stalls`).
    pub bank_stalls: Option<u64>,
    /// Passes that used the banks (a generated memory only).
    pub bank_cycles: Option<u64>,
    /// Cycles lost to bank conflicts (a generated memory only).
    pub conflict_cycles: Option<u64>,
    /// Read lanes served by broadcast (a generated memory only).
    pub broadcast_reads: Option<u64>,
    /// The hash programmed through the DCRs (`best`): family and configuration.
    pub programmed: Option<String>,
    /// Vortex's own memory's cycles over this run's, for the same kernel and configuration.
    pub speedup: Option<f64>,
    /// The run's output.
    pub log: PathBuf,
}

/// A folder name for a kernel with its arguments: `sgemm2_-n32`.
fn folder_name(kernel: &KernelSpec) -> String {
    kernel
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The Verilator defines of every generated memory's build: its statistics line and its
/// access trace (written only where a plusarg names a file).
const LMEM_DEFINES: [&str; 2] = ["-DRTLGEN_LMEM_STATS", "-DRTLGEN_LMEM_TRACE"];

/// What one configuration's runs share: the trees, the kernels built, the simulators built.
pub struct Session<'a> {
    setup: &'a Setup,
    config: &'a VxConfig,
    progress: &'a dyn Progress,
    timeout: Duration,
    base: Tree,
    lmem: Option<Tree>,
    built: HashMap<String, Built>,
    simulators: HashMap<String, (Rtlsim, Option<SmemDesign>)>,
}

impl<'a> Session<'a> {
    /// Prepares the baseline tree (and the generated memories' tree when `generated`).
    pub fn new(
        setup: &'a Setup,
        config: &'a VxConfig,
        generated: bool,
        timeout: Duration,
        progress: &'a dyn Progress,
    ) -> Result<Self, Error> {
        let base = Tree::prepare(setup, Flavour::Base, progress)?;
        let lmem = if generated {
            Some(Tree::prepare(setup, Flavour::Lmem, progress)?)
        } else {
            None
        };
        Ok(Self {
            setup,
            config,
            progress,
            timeout,
            base,
            lmem,
            built: HashMap::new(),
            simulators: HashMap::new(),
        })
    }

    /// Builds `kernel` (once per name).
    pub fn build_kernel(&mut self, kernel: &KernelSpec) -> Result<Built, Error> {
        if let Some(built) = self.built.get(&kernel.name) {
            return Ok(built.clone());
        }
        let built = kernels::build(&self.base, kernel, self.progress)?;
        self.built.insert(kernel.name.clone(), built.clone());
        Ok(built)
    }

    /// The simulator of `map` (built once), with the generated memory's design.
    pub fn simulator(&mut self, map: &MapChoice) -> Result<(Rtlsim, Option<SmemDesign>), Error> {
        let label = map.label();
        if let Some(sim) = self.simulators.get(&label) {
            return Ok(sim.clone());
        }
        let design = map.design(self.config)?;
        let sim = match &design {
            None => rtlsim::Build {
                tree: &self.base,
                config: self.config,
                lmem: None,
                defines: Vec::new(),
                label: map.folder(),
            }
            .run(self.setup, self.progress)?,
            Some(design) => {
                let tree = self.lmem.as_ref().unwrap_or_else(|| {
                    unreachable!("a session with generated maps has their tree")
                });
                let folder = self.write_lmem(map, design)?;
                rtlsim::Build {
                    tree,
                    config: self.config,
                    lmem: Some(&folder),
                    defines: LMEM_DEFINES.iter().map(|d| d.to_string()).collect(),
                    label: map.folder(),
                }
                .run(self.setup, self.progress)?
            }
        };
        self.simulators.insert(label, (sim.clone(), design.clone()));
        Ok((sim, design))
    }

    /// Writes the generated memory of `map` (`rtl-gen smem --interface vortex`'s block).
    fn write_lmem(&self, map: &MapChoice, design: &SmemDesign) -> Result<LmemFolder, Error> {
        let out = self
            .setup
            .work
            .join("lmem")
            .join(self.config.label())
            .join(map.folder());
        super::fresh_folder(&out)?;
        let command = format!("rtl-gen vortex run --map {} ({})", map.label(), self.config);
        let written = crate::block::generate(
            design,
            &crate::smem::vectors::SmemPlan::default(),
            &command,
            &out,
        )?;
        Ok(LmemFolder {
            filelist: format!("{}.f", design.name()),
            dir: written.dir,
        })
    }

    /// Runs `kernel` on `map`'s simulator in `dir`, with `dcr_writes` before the launch and the
    /// access trace written to `trace` when given.
    fn launch(
        &self,
        kernel: &KernelSpec,
        map: &MapChoice,
        sim: &Rtlsim,
        dir: PathBuf,
        dcr_writes: Vec<(u32, u32)>,
        trace: Option<&Path>,
    ) -> Result<super::run::Outcome, Error> {
        let built = self
            .built
            .get(&kernel.name)
            .unwrap_or_else(|| unreachable!("kernels are built before they run"));
        let plusargs = trace
            .map(|t| vec![format!("+rtlgen_lmem_trace={}", t.display())])
            .unwrap_or_default();
        Launch {
            what: format!("{kernel} on {}", map.label()),
            built,
            args: &kernel.args,
            rtlsim: sim,
            runtime: self.base.runtime(),
            dir,
            dcr_writes,
            plusargs,
            timeout: self.timeout,
        }
        .run()
    }

    /// The kernel's local-memory accesses, one line per warp access (docs/TRACE_FORMAT.md), as
    /// the generated memory of `map` sees them (the addresses are the kernel's; the order of
    /// different warps' accesses may differ between maps): run once and kept in
    /// `<work>/traces/<config>/<map>/` while the kernel, its arguments and the memory are
    /// unchanged. Returns the file and the trace.
    pub fn trace(
        &mut self,
        kernel: &KernelSpec,
        map: &MapChoice,
    ) -> Result<(PathBuf, Trace), Error> {
        if *map == MapChoice::Vortex {
            return Err(Error::BadFlag {
                flag: "--map",
                value: map.label(),
                message: "Vortex's own memory writes no trace: trace on a generated one \
                          (modulo, xor, hash:FILE, rap)"
                    .to_string(),
            });
        }
        let built = self.build_kernel(kernel)?;
        let (sim, _) = self.simulator(map)?;
        let shape = maps::shape(self.config)?;
        let mut digest = Digest::default();
        digest.add("rtlsim", sim.dir.to_string_lossy().as_bytes());
        digest.add("args", kernel.to_string().as_bytes());
        for file in [&built.binary, &built.host] {
            digest.add("binary", &std::fs::read(file).map_err(Error::io(file))?);
        }
        let dir = self
            .setup
            .work
            .join("traces")
            .join(self.config.label())
            .join(map.folder());
        std::fs::create_dir_all(&dir).map_err(Error::io(&dir))?;
        let name = folder_name(kernel);
        let path = dir.join(format!("{name}.trace"));
        let key_file = dir.join(format!("{name}.key"));
        let key = digest.to_string();
        let cached = std::fs::read_to_string(&key_file).is_ok_and(|k| k.trim() == key);
        if !cached {
            self.progress.step(&format!("tracing {kernel}"));
            crate::output::cleanup::remove(&path).map_err(Error::io(&path))?;
            let outcome = self.launch(
                kernel,
                map,
                &sim,
                dir.join(format!("{name}.run")),
                Vec::new(),
                Some(&path),
            )?;
            if !outcome.passed {
                return Err(super::VortexError::Failed {
                    what: format!("tracing {kernel}"),
                    log: outcome.log,
                }
                .into());
            }
            if !path.is_file() {
                std::fs::write(&path, "").map_err(Error::io(&path))?;
            }
            std::fs::write(&key_file, format!("{key}\n")).map_err(Error::io(&key_file))?;
        }
        let raw = std::fs::read_to_string(&path).map_err(Error::io(&path))?;
        let text = after_first_reset(&raw);
        if text != raw {
            std::fs::write(&path, &text).map_err(Error::io(&path))?;
        }
        // A kernel without local-memory accesses leaves comment lines only.
        let accesses = text
            .lines()
            .any(|l| !l.trim().is_empty() && !l.starts_with('#'));
        let trace = if !accesses {
            Trace {
                accesses: Vec::new(),
            }
        } else {
            crate::trace::read(&path, shape.addr_bits(), shape.lanes() as usize)?
        };
        Ok((path, trace))
    }
}

/// A memory's raw trace without the accesses before its first `# reset` line: rtlsim runs the
/// RTL before it first resets it, and the lanes it takes then come from X-initialised state
/// (docs/SMEM.md, Vortex interface). A trace without a reset line is kept whole.
fn after_first_reset(raw: &str) -> String {
    let Some(start) = raw.lines().position(|l| l.starts_with("# reset")) else {
        return raw.to_string();
    };
    raw.lines()
        .skip(start)
        .fold(String::new(), |mut out, line| {
            out.push_str(line);
            out.push('\n');
            out
        })
}

/// The memory `best` traces its kernels on.
const MODULO: MapChoice = MapChoice::Generated {
    map: Generated::Modulo,
    broadcast: true,
};

/// What `best` programs for one kernel.
#[derive(Debug, Clone)]
struct Program {
    /// The hash's family and configuration, in words.
    text: String,
    /// The DCR writes that program it into the generated memory.
    dcr_writes: Vec<(u32, u32)>,
}

/// The best hash `rtl-gen search` finds for `trace` (every family, ties to the simpler family:
/// modulo first), and how to program it into `design` (a configurable GF(2) matrix).
fn searched(design: &SmemDesign, trace: &Trace) -> Result<Program, Error> {
    use crate::hash::search::full_plan;
    use crate::hash::search_report::config_text;
    use models::search::{best, search};
    use models::{HashConfig, HashFunction};
    let shape = design.shape();
    let geometry = models::Geometry::new(shape.addr_bits(), u64::from(shape.banks()))?;
    let family = if trace.accesses.is_empty() {
        HashConfig::new(geometry, HashFunction::Modulo)?
    } else {
        let report = search(trace, geometry, &full_plan());
        best(&report.found)
            .map(|f| f.candidate.config.clone())
            .unwrap_or_else(|| unreachable!("every family is searched"))
    };
    let matrix = HashConfig::new(
        geometry,
        HashFunction::XorMatrix {
            rows: family.to_matrix().rows().to_vec(),
        },
    )?;
    let index = models::software::SoftwareIndex::new(&matrix)?;
    let cfg = design.cfg_value(&index);
    let text = format!("{} {}", family.kind(), config_text(&family));
    Ok(Program {
        text: text.trim_end_matches(" -").to_string(),
        dcr_writes: maps::dcr_writes(crate::smem::design::DCR_BASE, &cfg),
    })
}

/// Runs `plan`: builds what it needs, runs every kernel on every map, and returns one record
/// per run (maps outer, kernels inner).
pub fn run(setup: &Setup, plan: &Plan, progress: &dyn Progress) -> Result<Vec<Record>, Error> {
    let generated = plan.maps.iter().any(|m| *m != MapChoice::Vortex);
    // Every generated map is checked against the configuration before anything is built.
    for map in &plan.maps {
        map.design(&plan.config)?;
    }
    let mut session = Session::new(setup, &plan.config, generated, plan.timeout, progress)?;
    for kernel in &plan.kernels {
        session.build_kernel(kernel)?;
    }
    let mut records = Vec::new();
    for map in &plan.maps {
        let (sim, design) = session.simulator(map)?;
        // The searched hash of each kernel, before the runs.
        let mut programs: Vec<Option<Program>> = Vec::new();
        for kernel in &plan.kernels {
            programs.push(match (&design, map.searched()) {
                (Some(design), true) => {
                    let (_, trace) = session.trace(kernel, &MODULO)?;
                    progress.step(&format!("searching the best hash for {kernel}"));
                    Some(searched(design, &trace)?)
                }
                _ => None,
            });
        }
        let pool = crate::experiments::pool::thread_pool(setup.jobs.max(1))?;
        let session_ref = &session;
        let sim_ref = &sim;
        let failures = Mutex::new(Vec::new());
        let runs: Vec<Option<Record>> = pool.install(|| {
            plan.kernels
                .par_iter()
                .zip(&programs)
                .map(|(kernel, program)| {
                    progress.step(&format!("running {kernel} on {}", map.label()));
                    let dir = setup
                        .work
                        .join("runs")
                        .join(plan.config.label())
                        .join(map.folder())
                        .join(folder_name(kernel));
                    let dcr = program
                        .as_ref()
                        .map(|p| p.dcr_writes.clone())
                        .unwrap_or_default();
                    match session_ref.launch(kernel, map, sim_ref, dir, dcr, None) {
                        Ok(outcome) => Some(record(kernel, map, &plan.config, outcome, program)),
                        Err(e) => {
                            failures.lock().unwrap_or_else(|p| p.into_inner()).push(e);
                            None
                        }
                    }
                })
                .collect()
        });
        if let Some(e) = failures
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .pop()
        {
            return Err(e);
        }
        records.extend(runs.into_iter().flatten());
    }
    set_speedups(&mut records);
    Ok(records)
}

fn record(
    kernel: &KernelSpec,
    map: &MapChoice,
    config: &VxConfig,
    outcome: super::run::Outcome,
    program: &Option<Program>,
) -> Record {
    let lmem = outcome.lmem.as_ref();
    Record {
        kernel: kernel.to_string(),
        map: map.label(),
        config: config.label(),
        passed: outcome.passed,
        cycles: outcome.counters.cycles,
        instrs: outcome.counters.instrs,
        lmem_reads: outcome.counters.lmem_reads,
        lmem_writes: outcome.counters.lmem_writes,
        bank_stalls: outcome.counters.bank_stalls,
        bank_cycles: lmem.map(|s| s.bank_cycles),
        conflict_cycles: lmem.map(|s| s.conflict_cycles),
        broadcast_reads: lmem.map(|s| s.broadcast_reads),
        programmed: program.as_ref().map(|p| p.text.clone()),
        speedup: None,
        log: outcome.log,
    }
}

/// Sets each record's speed-up over Vortex's own memory's run of the same kernel and
/// configuration (when that run passed and both have cycles).
pub fn set_speedups(records: &mut [Record]) {
    let baseline: Vec<(String, String, u64)> = records
        .iter()
        .filter(|r| r.map == "vortex" && r.passed)
        .filter_map(|r| Some((r.kernel.clone(), r.config.clone(), r.cycles?)))
        .collect();
    for record in records.iter_mut() {
        let base = baseline
            .iter()
            .find(|(k, c, _)| *k == record.kernel && *c == record.config)
            .map(|(_, _, cycles)| *cycles);
        record.speedup = match (base, record.cycles) {
            (Some(b), Some(c)) if record.passed && c > 0 => Some(b as f64 / c as f64),
            _ => None,
        };
    }
}

/// The records as an aligned text table: kernel, map, PASSED, cycles, bank stalls, bank
/// cycles, conflict cycles, speed-up (`-` where a memory has no such counter).
pub fn table(records: &[Record]) -> String {
    let header = [
        "kernel",
        "map",
        "PASSED",
        "cycles",
        "bank stalls",
        "bank cycles",
        "conflict cycles",
        "speed-up",
    ];
    let num = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    let rows: Vec<[String; 8]> = records
        .iter()
        .map(|r| {
            [
                r.kernel.clone(),
                r.map.clone(),
                if r.passed { "yes" } else { "NO" }.to_string(),
                num(r.cycles),
                num(r.bank_stalls),
                num(r.bank_cycles),
                num(r.conflict_cycles),
                r.speedup.map_or("-".to_string(), |s| format!("{s:.3}")),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].len())
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let text: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if i < 3 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", text.join("  ").trim_end());
    };
    line(&header);
    for row in &rows {
        line(&row.iter().map(String::as_str).collect::<Vec<_>>());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes taken before the first reset go; those between later resets stay.
    #[test]
    fn a_trace_starts_at_its_first_reset() {
        let raw = "st 357\nld 461 3522\n# reset core0\nst 4 5 6 7\n# reset core0\nld 0 4\n";
        assert_eq!(
            after_first_reset(raw),
            "# reset core0\nst 4 5 6 7\n# reset core0\nld 0 4\n"
        );
        assert_eq!(after_first_reset("ld 1 2\n"), "ld 1 2\n");
        assert_eq!(after_first_reset(""), "");
    }

    fn record(kernel: &str, map: &str, passed: bool, cycles: u64) -> Record {
        Record {
            kernel: kernel.into(),
            map: map.into(),
            config: "4x4t-4b".into(),
            passed,
            cycles: Some(cycles),
            instrs: None,
            lmem_reads: None,
            lmem_writes: None,
            bank_stalls: Some(10),
            bank_cycles: None,
            conflict_cycles: None,
            broadcast_reads: None,
            programmed: None,
            speedup: None,
            log: PathBuf::new(),
        }
    }

    /// The speed-up is the baseline's cycles over the run's, for the same kernel; a failed run
    /// has none.
    #[test]
    fn speedups_are_over_vortex_own() {
        let mut records = vec![
            record("sgemm2 -n16", "vortex", true, 1000),
            record("sgemm2 -n16", "modulo", true, 800),
            record("sgemm2 -n16", "rap", false, 500),
            record("vecadd", "modulo", true, 100),
        ];
        set_speedups(&mut records);
        let s: Vec<Option<f64>> = records.iter().map(|r| r.speedup).collect();
        assert_eq!(s, [Some(1.0), Some(1.25), None, None]);
        let t = table(&records);
        assert!(t.lines().nth(2).unwrap().ends_with("1.250"), "{t}");
        assert!(t.lines().nth(3).unwrap().contains(" NO "), "{t}");
    }
}
