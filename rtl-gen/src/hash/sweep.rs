//! Sweeps: generate and synthesize many hasher configurations in parallel, and tabulate and
//! plot the results.
//!
//! A sweep point is one kind at one address width and one bank count. Its block is generated into
//! `<out>/blocks/<name>/` (with a tiny testbench: a sweep measures, it does not simulate) and
//! synthesized there as `rtl-gen synth` would, so `rtl-gen synth <out>/blocks/<name> ...`
//! reproduces any point alone. A point that fails is recorded with its error and the sweep
//! goes on; a point whose bank count does not fit its address width (more banks than words) is
//! recorded as skipped, as a configurable modulo is.
//!
//! Fixed hashers need a configuration; the sweep uses [`fixed_config`], a deterministic
//! full-rank one per kind.

use crate::block;
use crate::hash::vectors::VectorPlan;
use crate::hash::HashDesign;
use crate::manifest::generator;
use crate::plot::{line_chart, push, Axes, Marker};
use crate::qor::{self, BlockSynth};
use crate::Error;
use models::{Geometry, HashConfig, HashConfigObject, HashFunction, HashKind};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Version of the `results.json` layout.
pub const FORMAT_VERSION: u32 = 2;
/// Folder of the generated blocks inside a sweep's output folder.
pub const BLOCKS_DIR: &str = "blocks";

/// The vectors a sweep's blocks carry: the fewest the generator allows (fixed hashers up to
/// 16 address bits are still checked exhaustively by their testbench).
const SWEEP_VECTORS: VectorPlan = VectorPlan {
    seed: 1,
    vectors: 16,
    configs: 1,
};

/// The deterministic full-rank configuration a sweep gives a fixed hasher of `kind`:
///
/// - `bitvector-perm`: `k = 0` (the low bits; every offset is wires only);
/// - `bitvector-xor`: `k1 = 0`, `k2 = min(m, n - 1)`, mask all ones, so bank bit `i` is
///   `addr[i] ^ addr[i + k2]` wherever that bit exists (mask 0 when `n = 1`);
/// - `bitwise-perm`: bank bit `i` = `addr[i]` (wires only, like any choice of bits);
/// - `bitwise-xor`: pairs `(i, i + m)`, or `(i, i)` where `i + m >= n`: the same function as
///   the bit-vector XOR above;
/// - `xor-matrix`: row `i` = bit `i` plus every address bit from `m` up, the densest matrix
///   with an identity part: every upper bit folded into every bank bit (`n - m + 1` inputs
///   per XOR), an upper bound for fixed matrices of full rank.
pub fn fixed_config(kind: HashKind, geometry: Geometry) -> HashConfig {
    let n = geometry.addr_bits();
    let m = geometry.bank_bits();
    let function = match kind {
        HashKind::Modulo => HashFunction::Modulo,
        HashKind::BitvectorPerm => HashFunction::BitvectorPerm { k: 0 },
        HashKind::BitvectorXor => {
            let k2 = m.min(n - 1);
            HashFunction::BitvectorXor {
                k1: 0,
                k2,
                mask: if k2 > 0 { geometry.bank_mask() } else { 0 },
            }
        }
        HashKind::BitwisePerm => HashFunction::BitwisePerm {
            bits: (0..m).collect(),
        },
        HashKind::BitwiseXor => HashFunction::BitwiseXor {
            pairs: (0..m)
                .map(|i| if i + m < n { (i, i + m) } else { (i, i) })
                .collect(),
        },
        HashKind::XorMatrix => {
            let upper = models::geometry::low_mask(n) & !geometry.bank_mask();
            HashFunction::XorMatrix {
                rows: (0..m).map(|i| (1u64 << i) | upper).collect(),
            }
        }
    };
    let config = HashConfig::new(geometry, function)
        .unwrap_or_else(|e| unreachable!("sweep configuration of {kind} refused: {e}"));
    debug_assert!(config.check_full_rank().is_ok());
    config
}

/// What to sweep (also the plan an emitted sweep's `sweep.json` records, without its folder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPlan {
    /// Hash kinds, one line per kind in the plots.
    pub kinds: Vec<HashKind>,
    /// Bank counts, the x axis.
    pub banks: Vec<u64>,
    /// Word-address widths n, one series per width in the plots when there are several.
    pub addr_bits: Vec<u32>,
    /// Configurable (configuration on `cfg_i`) instead of fixed hashers.
    pub configurable: bool,
    /// Register the output.
    pub pipeline: bool,
    /// Liberty file; `None` for the generic flow.
    pub liberty: Option<PathBuf>,
    /// Output folder (not recorded in an emitted sweep's plan: its folder is where the plan is).
    #[serde(skip)]
    pub out: PathBuf,
}

impl SweepPlan {
    /// The points, kind-major, then address width, then bank count, in the order given.
    pub fn points(&self) -> Vec<SweepPoint> {
        let mut points = Vec::new();
        for &kind in &self.kinds {
            for &addr_bits in &self.addr_bits {
                for &banks in &self.banks {
                    points.push(SweepPoint {
                        kind,
                        addr_bits,
                        banks,
                    });
                }
            }
        }
        points
    }

    /// How many points [`SweepPlan::points`] lists, without listing them (for the limit).
    pub fn point_count(&self) -> u64 {
        [self.kinds.len(), self.addr_bits.len(), self.banks.len()]
            .iter()
            .map(|&n| n as u64)
            .product()
    }
}

/// One point of a sweep: a kind at an address width and a bank count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepPoint {
    /// The hash kind.
    pub kind: HashKind,
    /// Word-address bits n.
    pub addr_bits: u32,
    /// Bank count.
    pub banks: u64,
}

impl SweepPoint {
    /// The point's name in job files and records: `<kind>-n<addr_bits>-b<banks>`
    /// (`bitvector-xor-n14-b32`): letters, digits and `-` only, so make and Ninja take it as is.
    pub fn name(&self) -> String {
        format!("{}-n{}-b{}", self.kind.name(), self.addr_bits, self.banks)
    }

    /// The point's result before it runs: failed, with nothing yet.
    fn result(&self, status: &str, error: Option<String>) -> PointResult {
        PointResult {
            kind: self.kind.name().into(),
            addr_bits: self.addr_bits,
            banks: self.banks,
            top: None,
            block: None,
            status: status.into(),
            error,
            synth: None,
        }
    }

    /// The result of a point of an emitted sweep that has no record.
    pub fn missing(&self, why: String) -> PointResult {
        self.result("missing", Some(why))
    }
}

/// One point's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    /// The hash kind.
    pub kind: String,
    /// Word-address bits n.
    pub addr_bits: u32,
    /// Bank count.
    pub banks: u64,
    /// The block's module name, when the design was valid.
    pub top: Option<String>,
    /// The block folder relative to the sweep's output folder.
    pub block: Option<String>,
    /// `ok`, `skipped` (nothing to generate: a configurable modulo, or more banks than the
    /// address width has words), `failed`, or `missing` (a
    /// point of an emitted sweep collected without its record, `sweep collect --allow-missing`).
    pub status: String,
    /// Why the point failed or was skipped.
    pub error: Option<String>,
    /// The synthesis result (also in the block's `synth.json`).
    pub synth: Option<BlockSynth>,
}

impl PointResult {
    /// True when the point has numbers.
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// Everything a sweep wrote to `results.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepResults {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Generator name and version.
    pub generator: String,
    /// The `rtl-gen sweep` command that reproduces the whole sweep.
    pub command: String,
    /// `generic` or `liberty`.
    pub mode: String,
    /// The Yosys version every point ran with (from the first successful point).
    pub yosys_version: Option<String>,
    /// The liberty file as given.
    pub liberty: Option<String>,
    /// Word-address widths, in the plan's order.
    pub addr_bits: Vec<u32>,
    /// Configurable or fixed hashers.
    pub configurable: bool,
    /// Registered outputs.
    pub pipeline: bool,
    /// One entry per point, kind-major.
    pub points: Vec<PointResult>,
}

/// Generates and synthesizes one point into `<out>/blocks/<name>/`: the work of one point,
/// whether the in-process sweep ([`run`]) or an emitted job (`rtl-gen sweep point`) runs it.
pub fn run_point(plan: &SweepPlan, point: SweepPoint) -> PointResult {
    let SweepPoint {
        kind,
        addr_bits,
        banks,
    } = point;
    if plan.configurable && kind == HashKind::Modulo {
        return point.result("skipped", Some(Error::NothingToConfigure(kind).to_string()));
    }
    // The plan's widths and bank counts were checked alone; a pair that does not fit is skipped.
    let geometry = match Geometry::new(addr_bits, banks) {
        Ok(g) => g,
        Err(e) => return point.result("skipped", Some(e.to_string())),
    };
    let mut result = point.result("failed", None);
    let outcome = (|| -> Result<BlockSynth, Error> {
        let object = if plan.configurable {
            HashConfigObject::new(kind, addr_bits, banks)
        } else {
            HashConfigObject::from_config(&fixed_config(kind, geometry))
        };
        let design = HashDesign::new(&object, plan.configurable, plan.pipeline, false)?;
        result.top = Some(design.name());
        let blocks = plan.out.join(BLOCKS_DIR);
        let gen_command = hash_command(plan, &object);
        let dir = block::write(&design, &SWEEP_VECTORS, &gen_command, &blocks)?;
        result.block = Some(format!("{BLOCKS_DIR}/{}", design.name()));
        let mut synth_command = format!("rtl-gen synth {}", dir.display());
        if let Some(lib) = &plan.liberty {
            let _ = write!(synth_command, " --liberty {}", lib.display());
        }
        qor::synthesize_block(&dir, plan.liberty.as_deref(), &synth_command)
    })();
    match outcome {
        Ok(s) => {
            result.status = "ok".into();
            result.synth = Some(s);
        }
        Err(e) => result.error = Some(e.to_string()),
    }
    result
}

/// The `rtl-gen hash` command that generates a sweep point's block.
fn hash_command(plan: &SweepPlan, object: &HashConfigObject) -> String {
    let mut c = format!(
        "rtl-gen hash --kind {} --addr-bits {} --banks {}",
        object.kind, object.addr_bits, object.banks
    );
    if plan.configurable {
        c.push_str(" --configurable");
    } else {
        let o = object;
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        if let Some(k) = o.k {
            let _ = write!(c, " --k {k}");
        }
        if let (Some(k1), Some(k2), Some(mask)) = (o.k1, o.k2, o.mask) {
            let _ = write!(c, " --k1 {k1} --k2 {k2} --mask {mask:#x}");
        }
        if let Some(bits) = &o.bits {
            let _ = write!(c, " --bits {}", list(bits));
        }
        if let Some(pairs) = &o.pairs {
            let p: Vec<String> = pairs.iter().map(|[a, b]| format!("{a}:{b}")).collect();
            let _ = write!(c, " --pairs {}", p.join(","));
        }
        if let Some(rows) = &o.rows {
            let r: Vec<String> = rows.iter().map(|r| format!("{:#x}", r.0)).collect();
            let _ = write!(c, " --rows {}", r.join(","));
        }
    }
    if plan.pipeline {
        c.push_str(" --pipeline");
    }
    let _ = write!(
        c,
        " --vectors {} --configs {} --out {}",
        SWEEP_VECTORS.vectors,
        SWEEP_VECTORS.configs,
        plan.out.join(BLOCKS_DIR).display()
    );
    c
}

/// The worker threads of a sweep (and of any command's `--jobs`): `jobs` of them (0: one per
/// core); `--jobs` names the flag.
pub fn thread_pool(jobs: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::BadFlag {
            flag: "--jobs",
            value: jobs.to_string(),
            message: e.to_string(),
        })
}

/// Runs every point of `plan` on `jobs` threads (0: one per core), calling `done` as each
/// point finishes (from the worker threads), and returns the results in point order.
pub fn run(
    plan: &SweepPlan,
    command: &str,
    jobs: usize,
    done: &(dyn Fn(&PointResult) + Sync),
) -> Result<SweepResults, Error> {
    crate::output::OutputFolder::open(&plan.out)?;
    let pool = thread_pool(jobs)?;
    let points = plan.points();
    let results: Vec<PointResult> = pool.install(|| {
        points
            .par_iter()
            .map(|&point| {
                let r = run_point(plan, point);
                done(&r);
                r
            })
            .collect()
    });
    Ok(results_of(plan, command, results))
}

/// The sweep's results from its points' results in point order: what [`run`] returns and what
/// `rtl-gen sweep collect` builds from an emitted sweep's point records.
pub fn results_of(plan: &SweepPlan, command: &str, points: Vec<PointResult>) -> SweepResults {
    let first = points.iter().find_map(|r| r.synth.as_ref());
    SweepResults {
        format_version: FORMAT_VERSION,
        generator: generator(),
        command: command.to_string(),
        mode: if plan.liberty.is_some() {
            "liberty"
        } else {
            "generic"
        }
        .into(),
        yosys_version: first.map(|s| s.report.yosys_version.clone()),
        liberty: first
            .and_then(|s| s.report.liberty.clone())
            .or_else(|| plan.liberty.as_ref().map(|l| l.display().to_string())),
        addr_bits: plan.addr_bits.clone(),
        configurable: plan.configurable,
        pipeline: plan.pipeline,
        points,
    }
}

/// The CSV columns of [`to_csv`].
pub const CSV_HEADER: &str = "kind,variant,pipeline,addr_bits,banks,top,status,cells,registers,transistors,depth_gates,area_um2,delay_ps,fmax_mhz,yosys,liberty,reproduce,error";

/// Quotes a CSV field when it holds a comma, quote or newline.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One line per point under [`CSV_HEADER`]; empty fields where a mode has no such number.
pub fn to_csv(results: &SweepResults) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    let variant = if results.configurable {
        "configurable"
    } else {
        "fixed"
    };
    for p in &results.points {
        let r = p.synth.as_ref().map(|s| &s.report);
        let num = |v: Option<String>| v.unwrap_or_default();
        let fields = [
            p.kind.clone(),
            variant.into(),
            results.pipeline.to_string(),
            p.addr_bits.to_string(),
            p.banks.to_string(),
            p.top.clone().unwrap_or_default(),
            p.status.clone(),
            num(r.map(|r| r.cell_count.to_string())),
            num(r.map(|r| r.registers.to_string())),
            num(r.and_then(|r| r.transistors).map(|t| t.to_string())),
            num(r.and_then(|r| r.depth_gates).map(|d| d.to_string())),
            num(r.and_then(|r| r.area_um2).map(|a| format!("{a:.3}"))),
            num(r.and_then(|r| r.delay_ps).map(|d| format!("{d:.2}"))),
            num(r.and_then(|r| r.fmax_mhz).map(|f| format!("{f:.1}"))),
            num(r.map(|r| r.yosys_version.clone())),
            num(r.and_then(|r| r.liberty.clone())),
            num(p.synth.as_ref().map(|s| s.command.clone())),
            p.error.clone().unwrap_or_default(),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// The two quantities a sweep plots: (file stem, axis label, value) for area-like and
/// delay-like numbers of the sweep's mode.
type Metric = (
    &'static str,
    &'static str,
    fn(&synth::SynthReport) -> Option<f64>,
);

fn metrics(liberty: bool) -> [Metric; 2] {
    if liberty {
        [
            ("area_um2", "area (um²)", |r| r.area_um2),
            ("delay_ps", "critical-path delay (ps)", |r| r.delay_ps),
        ]
    } else {
        [
            ("transistors", "transistors (stat -tech cmos)", |r| {
                r.transistors.map(|t| t as f64)
            }),
            ("depth_gates", "logic depth (gates)", |r| {
                r.depth_gates.map(f64::from)
            }),
        ]
    }
}

/// The files [`write_outputs`] writes for `plan`, so they can be checked before the sweep runs.
pub fn output_files(plan: &SweepPlan) -> Vec<PathBuf> {
    let mut files = vec![plan.out.join("results.csv"), plan.out.join("results.json")];
    files.extend(
        metrics(plan.liberty.is_some())
            .into_iter()
            .map(|(stem, _, _)| plan.out.join(format!("{stem}_vs_banks.svg"))),
    );
    files
}

/// Writes `results.csv`, `results.json` and one SVG plot per metric into `out`; returns the
/// files written.
pub fn write_outputs(results: &SweepResults, out: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut written = Vec::new();
    let csv = out.join("results.csv");
    crate::output::write_file(&csv, to_csv(results).as_bytes())?;
    written.push(csv);
    let json = out.join("results.json");
    let mut text = serde_json::to_string_pretty(results).unwrap_or_else(|e| unreachable!("{e}"));
    text.push('\n');
    crate::output::write_file(&json, text.as_bytes())?;
    written.push(json);
    for (stem, label, value) in metrics(results.mode == "liberty") {
        let path = out.join(format!("{stem}_vs_banks.svg"));
        let svg = plot(results, label, value);
        crate::output::write_file(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// An SVG of `value` against the bank count (log2 axis), one line per kind (a colour per kind, in
/// [`HashKind::ALL`] order), and with several address widths one per kind and width (`<kind>
/// n=<bits>`, a marker per width).
pub fn plot(
    results: &SweepResults,
    label: &str,
    value: fn(&synth::SynthReport) -> Option<f64>,
) -> String {
    let mut series = Vec::new();
    let widths = &results.addr_bits;
    for p in results.points.iter().filter(|p| p.ok()) {
        let Some(v) = p.synth.as_ref().and_then(|s| value(&s.report)) else {
            continue;
        };
        let colour = HashKind::ALL
            .iter()
            .position(|k| k.name() == p.kind)
            .unwrap_or(0);
        let point = ((p.banks as f64).log2(), v);
        let (label, shape) = match widths.len() {
            1 => (p.kind.clone(), colour),
            _ => (
                format!("{} n={}", p.kind, p.addr_bits),
                widths.iter().position(|&n| n == p.addr_bits).unwrap_or(0),
            ),
        };
        let marker = Marker::ALL[shape % Marker::ALL.len()];
        push(&mut series, &label, colour, marker, point);
    }
    let variant = if results.configurable {
        "configurable"
    } else {
        "fixed"
    };
    let library = results
        .liberty
        .as_deref()
        .map_or("Yosys generic gates", |l| l.split(" (").next().unwrap_or(l));
    let width = match widths.as_slice() {
        [n] => format!("n = {n}"),
        _ => format!("{} address widths", widths.len()),
    };
    let title = format!(
        "{variant} hashers, {width}{}: {library}",
        if results.pipeline { ", registered" } else { "" }
    );
    let axes = Axes {
        title: &title,
        size: (720, 480),
        x_desc: "banks",
        y_desc: label,
        log_y: false,
        x_log2: true,
    };
    line_chart(&axes, &series)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_configs_are_valid_and_full_rank_at_every_sweep_shape() {
        for kind in HashKind::ALL {
            for (n, banks) in [(14, 4), (14, 32), (14, 256), (8, 256), (1, 2), (64, 65536)] {
                let g = Geometry::new(n, banks).unwrap();
                let c = fixed_config(kind, g);
                assert!(c.check_full_rank().is_ok(), "{kind} n={n} banks={banks}");
            }
        }
    }

    #[test]
    fn csv_quotes_fields_with_commas() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain text"), "plain text");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("a\"b,"), "\"a\"\"b,\"");
    }
}
