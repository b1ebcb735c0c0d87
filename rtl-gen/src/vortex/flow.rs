//! `rtl-gen vortex run`: every kernel on every map at one configuration, one record per run,
//! and the table of them.
//!
//! The simulator of each map is built once (cached by content, [`super::rtlsim`]); the kernels
//! are built once in the baseline tree (their binaries do not depend on the local memory); the
//! runs of one map go `setup.jobs` at a time, each in
//! `<work>/runs/<config>/<map>/<kernel>/` with its `run.log`.

use super::config::VxConfig;
use super::kernels::{self, KernelSpec};
use super::rtlsim::{self, Rtlsim};
use super::run::Launch;
use super::tree::{Flavour, Tree};
use super::{Progress, Setup};
use crate::Error;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// A local memory to run on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapChoice {
    /// Vortex's own `VX_local_mem` (low-bit bank select, no broadcast): the baseline.
    Vortex,
}

/// The names `--map` takes.
pub const MAP_NAMES: [&str; 1] = ["vortex"];

impl MapChoice {
    /// Parses one `--map` item; the error names `--map`, the value and the maps allowed.
    pub fn parse(item: &str) -> Result<Self, Error> {
        match item {
            "vortex" => Ok(MapChoice::Vortex),
            _ => Err(Error::BadFlag {
                flag: "--map",
                value: item.to_string(),
                message: format!(
                    "unknown map; the maps are {} (vortex: Vortex's own local memory)",
                    MAP_NAMES.join(", ")
                ),
            }),
        }
    }

    /// Its name in tables and folders.
    pub fn label(&self) -> String {
        match self {
            MapChoice::Vortex => "vortex".to_string(),
        }
    }
}

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
    /// The map (`vortex`, `modulo`, `hash:best.json`, ...).
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

/// Runs `plan`: builds what it needs, runs every kernel on every map, and returns one record
/// per run (maps outer, kernels inner).
pub fn run(setup: &Setup, plan: &Plan, progress: &dyn Progress) -> Result<Vec<Record>, Error> {
    let base = Tree::prepare(setup, Flavour::Base, progress)?;
    // A kernel run with several argument lists is built once.
    let mut built: Vec<kernels::Built> = Vec::new();
    for (i, kernel) in plan.kernels.iter().enumerate() {
        let earlier = plan.kernels[..i].iter().position(|k| k.name == kernel.name);
        built.push(match earlier {
            Some(j) => built[j].clone(),
            None => kernels::build(&base, kernel, progress)?,
        });
    }
    let mut records = Vec::new();
    for map in &plan.maps {
        let sim = simulator(setup, &base, plan, map, progress)?;
        let pool = crate::experiments::pool::thread_pool(setup.jobs.max(1))?;
        let runs: Vec<Result<Record, Error>> = pool.install(|| {
            plan.kernels
                .par_iter()
                .zip(&built)
                .map(|(kernel, built)| {
                    let what = format!("{kernel} on {}", map.label());
                    progress.step(&format!("running {what}"));
                    let launch = Launch {
                        what,
                        built,
                        args: &kernel.args,
                        rtlsim: &sim,
                        runtime: base.runtime(),
                        dir: setup
                            .work
                            .join("runs")
                            .join(plan.config.label())
                            .join(map.label())
                            .join(folder_name(kernel)),
                        dcr_writes: Vec::new(),
                        plusargs: Vec::new(),
                        timeout: plan.timeout,
                    };
                    let outcome = launch.run()?;
                    let lmem = outcome.lmem.as_ref();
                    Ok(Record {
                        kernel: kernel.to_string(),
                        map: map.label(),
                        config: plan.config.label(),
                        passed: outcome.passed,
                        cycles: outcome.counters.cycles,
                        instrs: outcome.counters.instrs,
                        lmem_reads: outcome.counters.lmem_reads,
                        lmem_writes: outcome.counters.lmem_writes,
                        bank_stalls: outcome.counters.bank_stalls,
                        bank_cycles: lmem.map(|s| s.bank_cycles),
                        conflict_cycles: lmem.map(|s| s.conflict_cycles),
                        broadcast_reads: lmem.map(|s| s.broadcast_reads),
                        speedup: None,
                        log: outcome.log,
                    })
                })
                .collect()
        });
        for run in runs {
            records.push(run?);
        }
    }
    set_speedups(&mut records);
    Ok(records)
}

/// The simulator of `map` at the plan's configuration.
fn simulator(
    setup: &Setup,
    base: &Tree,
    plan: &Plan,
    map: &MapChoice,
    progress: &dyn Progress,
) -> Result<Rtlsim, Error> {
    match map {
        MapChoice::Vortex => rtlsim::Build {
            tree: base,
            config: &plan.config,
            lmem: None,
            defines: Vec::new(),
            label: map.label(),
        }
        .run(setup, progress),
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
