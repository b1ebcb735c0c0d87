//! One kernel run on a built simulator: the host program runs in its own folder with the
//! simulator first on the library path, its output goes to `run.log`, and the result is read
//! from it: `PASSED!` (the host program's check against its reference) and exit status 0, the
//! cycles and instructions (`VORTEX_PROFILING=2`), Vortex's `lmem_perf` counters, and a
//! generated memory's own line (`rtl-gen lmem: reads=... broadcast_reads=...`). A run is kept
//! with its key (`run.key`): the same simulator, binaries, arguments and DCR writes again read
//! the kept result instead of simulating again.

use super::kernels::Built;
use super::rtlsim::Rtlsim;
use super::VortexError;
use crate::Error;
use serde::Serialize;
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A kernel launch: the built kernel, its arguments, the simulator and what to set.
pub struct Launch<'a> {
    /// A name for errors (`sgemm2 -n32 on modulo`).
    pub what: String,
    /// The built kernel.
    pub built: &'a Built,
    /// The host program's arguments.
    pub args: &'a [String],
    /// The simulator.
    pub rtlsim: &'a Rtlsim,
    /// The folder of the runtime front end (`libvortex.so`).
    pub runtime: PathBuf,
    /// The run's folder (made; its `run.log` is the output).
    pub dir: PathBuf,
    /// Device configuration writes before any launch (`RTLGEN_DCR_WRITES`).
    pub dcr_writes: Vec<(u32, u32)>,
    /// Plusargs for the RTL (`RTLGEN_PLUSARGS`).
    pub plusargs: Vec<String>,
    /// How long the run may take.
    pub timeout: Duration,
}

/// Vortex's counters as the host prints them (summed over cores).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Instructions.
    pub instrs: Option<u64>,
    /// Cycles (the slowest core's).
    pub cycles: Option<u64>,
    /// `lmem_perf.reads`.
    pub lmem_reads: Option<u64>,
    /// `lmem_perf.writes`.
    pub lmem_writes: Option<u64>,
    /// `lmem_perf.bank_stalls`.
    pub bank_stalls: Option<u64>,
}

/// A generated local memory's own statistics (`rtl-gen lmem: key=value ...`, summed over
/// cores).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LmemStats {
    /// Read lanes.
    pub reads: u64,
    /// Write lanes.
    pub writes: u64,
    /// Bank stalls, counted as Vortex counts them.
    pub bank_stalls: u64,
    /// Passes that used the banks.
    pub bank_cycles: u64,
    /// Passes after the first of an access: cycles lost to bank conflicts.
    pub conflict_cycles: u64,
    /// Read lanes served by another lane's read of their word.
    pub broadcast_reads: u64,
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// `PASSED!` printed and exit status 0.
    pub passed: bool,
    /// The host program's exit status (`None`: killed by a signal).
    pub status: Option<i32>,
    /// Vortex's counters.
    pub counters: Counters,
    /// The generated memory's statistics, when it printed them.
    pub lmem: Option<LmemStats>,
    /// The run's output.
    pub log: PathBuf,
}

/// The file beside a run's `run.log` that keeps its key and exit status.
const KEY_FILE: &str = "run.key";

impl Launch<'_> {
    /// What the run's result depends on: the simulator (its folder is named by its content),
    /// the runtime, the kernel and host binaries, the arguments and the DCR writes.
    fn key(&self) -> Result<String, Error> {
        let mut digest = super::Digest::default();
        digest.add("rtlsim", self.rtlsim.dir.to_string_lossy().as_bytes());
        let runtime = self.runtime.join("libvortex.so");
        for file in [&runtime, &self.built.binary, &self.built.host] {
            digest.add("file", &fs::read(file).map_err(Error::io(file))?);
        }
        digest.add("args", self.args.join(" ").as_bytes());
        for (addr, value) in &self.dcr_writes {
            digest.add("dcr", format!("{addr:#x}={value:#x}").as_bytes());
        }
        digest.add("plusargs", self.plusargs.join(" ").as_bytes());
        Ok(digest.to_string())
    }

    /// The outcome of the same run made before (its key file names this key), if any.
    fn cached(&self, key: &str) -> Option<Outcome> {
        let kept = fs::read_to_string(self.dir.join(KEY_FILE)).ok()?;
        let (kept_key, status) = kept.trim().split_once(' ')?;
        if kept_key != key {
            return None;
        }
        let status: Option<i32> = status.parse().ok();
        let log = self.dir.join("run.log");
        let text = fs::read_to_string(&log).ok()?;
        Some(Outcome {
            passed: status == Some(0) && text.lines().any(|l| l.trim() == "PASSED!"),
            status,
            counters: counters(&text),
            lmem: lmem_stats(&text),
            log,
        })
    }

    /// Runs the kernel and reads its result. A run without plusargs (a trace's are kept by
    /// their own key) is kept in its folder: the same run again reads the kept result.
    pub fn run(&self) -> Result<Outcome, Error> {
        let key = if self.plusargs.is_empty() {
            Some(self.key()?)
        } else {
            None
        };
        if let Some(outcome) = key.as_deref().and_then(|k| self.cached(k)) {
            return Ok(outcome);
        }
        super::fresh_folder(&self.dir)?;
        let binary = self.dir.join("kernel.vxbin");
        fs::copy(&self.built.binary, &binary).map_err(Error::io(&self.built.binary))?;
        let log = self.dir.join("run.log");
        let out = fs::File::create(&log).map_err(Error::io(&log))?;
        let err = out.try_clone().map_err(Error::io(&log))?;
        // The simulator and the runtime first, then the caller's path, entry by entry (cargo
        // sets several; one entry holding a `:` would make `join_paths` refuse them all).
        let inherited = std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default();
        let library_path = std::env::join_paths(
            [self.rtlsim.dir.clone(), self.runtime.clone()]
                .into_iter()
                .chain(std::env::split_paths(&inherited)),
        )
        .map_err(|e| Error::BadFlag {
            flag: "LD_LIBRARY_PATH",
            value: inherited.to_string_lossy().into_owned(),
            message: format!("cannot be extended with the simulator's folders: {e}"),
        })?;
        let dcr: Vec<String> = self
            .dcr_writes
            .iter()
            .map(|(a, v)| format!("{a:#x}={v:#x}"))
            .collect();
        let mut command = Command::new(&self.built.host);
        command
            .args(self.args)
            .current_dir(&self.dir)
            .env("LD_LIBRARY_PATH", library_path)
            .env("VORTEX_DRIVER", "rtlsim")
            .env("VORTEX_PROFILING", "2")
            .env("RTLGEN_DCR_WRITES", dcr.join(" "))
            .env("RTLGEN_PLUSARGS", self.plusargs.join(" "))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err);
        let mut child = command.spawn().map_err(Error::io(&self.built.host))?;
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(Error::io(&self.built.host))? {
                break status;
            }
            if start.elapsed() > self.timeout {
                let _ = child.kill();
                let _ = child.wait();
                return Err(VortexError::Timeout {
                    what: self.what.clone(),
                    seconds: self.timeout.as_secs(),
                    log,
                }
                .into());
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let text = fs::read_to_string(&log).map_err(Error::io(&log))?;
        if let (Some(key), Some(code)) = (&key, status.code()) {
            let file = self.dir.join(KEY_FILE);
            fs::write(&file, format!("{key} {code}\n")).map_err(Error::io(&file))?;
        }
        Ok(Outcome {
            passed: status.success() && text.lines().any(|l| l.trim() == "PASSED!"),
            status: status.code(),
            counters: counters(&text),
            lmem: lmem_stats(&text),
            log,
        })
    }
}

/// The number after `key` in `line` (`key` ends with `=`), up to the next non-digit.
fn number_after(line: &str, key: &str) -> Option<u64> {
    let rest = &line[line.find(key)? + key.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Vortex's counters from the host program's output.
pub fn counters(text: &str) -> Counters {
    let mut c = Counters::default();
    let add = |total: &mut Option<u64>, v: Option<u64>| {
        if let Some(v) = v {
            *total = Some(total.unwrap_or(0) + v);
        }
    };
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("PERF: ") else {
            continue;
        };
        if rest.starts_with("instrs=") {
            c.instrs = number_after(rest, "instrs=");
            c.cycles = number_after(rest, "cycles=");
            continue;
        }
        // Per-core lines: `core<N>: lmem reads=...`.
        let Some((_, per_core)) = rest.split_once(": ") else {
            continue;
        };
        add(
            &mut c.lmem_reads,
            per_core
                .strip_prefix("lmem reads=")
                .and_then(|_| number_after(per_core, "reads=")),
        );
        add(
            &mut c.lmem_writes,
            per_core
                .strip_prefix("lmem writes=")
                .and_then(|_| number_after(per_core, "writes=")),
        );
        add(
            &mut c.bank_stalls,
            per_core
                .strip_prefix("lmem bank stalls=")
                .and_then(|_| number_after(per_core, "stalls=")),
        );
    }
    c
}

/// The generated memory's statistics: every `rtl-gen lmem:` line (one per core), keys read by
/// name and summed; `None` when there is none.
pub fn lmem_stats(text: &str) -> Option<LmemStats> {
    let mut total: Option<LmemStats> = None;
    for line in text.lines() {
        let Some(rest) = line.split_once("rtl-gen lmem:").map(|(_, r)| r) else {
            continue;
        };
        let s = total.get_or_insert_with(LmemStats::default);
        for pair in rest.split_whitespace() {
            let Some((key, value)) = pair.split_once('=') else {
                continue;
            };
            let Ok(value) = value.parse::<u64>() else {
                continue;
            };
            let field = match key {
                "reads" => &mut s.reads,
                "writes" => &mut s.writes,
                "bank_stalls" => &mut s.bank_stalls,
                "bank_cycles" => &mut s.bank_cycles,
                "conflict_cycles" => &mut s.conflict_cycles,
                "broadcast_reads" => &mut s.broadcast_reads,
                _ => continue,
            };
            *field += value;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counters of a real sgemm2 -n16 run on Vortex's own memory (its output's PERF lines,
    /// by hand from run.log).
    #[test]
    fn counters_of_a_real_run() {
        let text = "\
verify result
PERF: core0: lmem reads=8192
PERF: core0: lmem writes=2048
PERF: core0: lmem bank stalls=6528 (utilization=61%)
PERF: core0: icache reads=16262
PERF: core0: dcache bank stalls=0 (utilization=100%)
PERF: memory bank stalls=0 (utilization=100%)
PERF: instrs=64009, cycles=88106, IPC=0.726500
PASSED!
";
        let c = counters(text);
        assert_eq!(
            c,
            Counters {
                instrs: Some(64009),
                cycles: Some(88106),
                lmem_reads: Some(8192),
                lmem_writes: Some(2048),
                bank_stalls: Some(6528),
            }
        );
        assert_eq!(lmem_stats(text), None);
    }

    /// The generated memory's line is read by key, in any order, summed over cores.
    #[test]
    fn lmem_lines_are_read_by_key() {
        let text = "\
rtl-gen lmem: writes=2 reads=10 bank_stalls=3 bank_cycles=7 conflict_cycles=1 broadcast_reads=4
#0: rtl-gen lmem: reads=1 writes=1 bank_stalls=0 bank_cycles=1 conflict_cycles=0 broadcast_reads=0 extra=9
";
        let s = lmem_stats(text).unwrap();
        assert_eq!(
            s,
            LmemStats {
                reads: 11,
                writes: 3,
                bank_stalls: 3,
                bank_cycles: 8,
                conflict_cycles: 1,
                broadcast_reads: 4,
            }
        );
    }
}
