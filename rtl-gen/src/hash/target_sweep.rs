//! The XOR paper's Fig. 4b in our flow: the area of each configurable hasher against the delay
//! target it is synthesized for.
//!
//! A point is one kind at one target (or the default flow, which has none). Its block is
//! generated into `<out>/blocks/<target>/<name>/` and synthesized there with the timing-driven
//! flow of `rtl-gen synth --target-ps`, so `rtl-gen synth <that folder> --liberty L
//! --target-ps T` reproduces any point alone. Each point records the area, the address-to-bank
//! and configuration-to-bank delays ([`qor::HasherPaths`]); a point that fails is recorded with
//! its error and the sweep goes on.

use crate::block;
use crate::hash::vectors::VectorPlan;
use crate::hash::HashDesign;
use crate::manifest::generator;
use crate::plot::{line_chart, push, Axes, Marker};
use crate::qor::{self, BlockSynth};
use crate::Error;
use models::{HashConfigObject, HashKind};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the `results.json` layout.
pub const FORMAT_VERSION: u32 = 1;

/// The vectors each point's block carries: the fewest the generator allows (a sweep measures,
/// it does not simulate).
const VECTORS: VectorPlan = VectorPlan {
    seed: 1,
    vectors: 16,
    configs: 1,
};

/// What to sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetPlan {
    /// Configurable kinds (modulo has nothing to configure and is refused by the caller).
    pub kinds: Vec<HashKind>,
    /// Word-address bits.
    pub addr_bits: u32,
    /// Bank count.
    pub banks: u64,
    /// Delay targets in ps; the default flow (no target) is always run as well.
    pub targets: Vec<f64>,
    /// The liberty file.
    pub liberty: PathBuf,
    /// Output folder.
    pub out: PathBuf,
}

impl TargetPlan {
    /// Every point: per kind the default flow (`None`) and then each target.
    pub fn points(&self) -> Vec<(HashKind, Option<f64>)> {
        self.kinds
            .iter()
            .flat_map(|&k| {
                std::iter::once(None)
                    .chain(self.targets.iter().map(|&t| Some(t)))
                    .map(move |t| (k, t))
            })
            .collect()
    }
}

/// One synthesized point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetPoint {
    /// The kind's CLI name.
    pub kind: String,
    /// The delay target in ps (`None`: the default flow).
    pub target_ps: Option<f64>,
    /// The block folder, relative to the output folder.
    pub block: String,
    /// The error, when the point failed.
    pub error: Option<String>,
    /// The synthesis result (its `hasher_paths` has the two delays).
    pub synth: Option<BlockSynth>,
}

impl TargetPoint {
    /// Area in um².
    pub fn area_um2(&self) -> Option<f64> {
        self.synth.as_ref()?.report.area_um2
    }

    /// The address-to-bank delay in ps.
    pub fn address_ps(&self) -> Option<f64> {
        Some(
            self.synth
                .as_ref()?
                .hasher_paths
                .as_ref()?
                .address_to_bank_ps,
        )
    }

    /// The configuration-to-bank delay in ps.
    pub fn config_ps(&self) -> Option<f64> {
        self.synth
            .as_ref()?
            .hasher_paths
            .as_ref()?
            .config_to_bank_ps
    }
}

/// The sweep's results, as `results.json` holds them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetResults {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Generator name and version.
    pub generator: String,
    /// The `rtl-gen sweep targets` command that reproduces the whole sweep.
    pub command: String,
    /// The Yosys version (from the first successful point).
    pub yosys_version: Option<String>,
    /// The library name and file.
    pub liberty: Option<String>,
    /// Word-address bits.
    pub addr_bits: u32,
    /// Bank count.
    pub banks: u64,
    /// One entry per point, kind-major, the default flow first.
    pub points: Vec<TargetPoint>,
}

/// `default`, or `t150` for a 150 ps target (`t137.5` for a fractional one).
fn target_tag(target: Option<f64>) -> String {
    target.map_or_else(|| "default".to_string(), |t| format!("t{t}"))
}

fn run_point(plan: &TargetPlan, kind: HashKind, target: Option<f64>) -> TargetPoint {
    let mut point = TargetPoint {
        kind: kind.name().into(),
        target_ps: target,
        block: String::new(),
        error: None,
        synth: None,
    };
    let outcome = (|| -> Result<BlockSynth, Error> {
        let object = HashConfigObject::new(kind, plan.addr_bits, plan.banks);
        let design = HashDesign::new(&object, true, false, false)?;
        let parent = plan
            .out
            .join(crate::experiments::sweep::BLOCKS_DIR)
            .join(target_tag(target));
        let gen_command = format!(
            "rtl-gen hash --kind {} --addr-bits {} --banks {} --configurable --vectors {} \
             --configs {} --out {}",
            kind.name(),
            plan.addr_bits,
            plan.banks,
            VECTORS.vectors,
            VECTORS.configs,
            parent.display()
        );
        let dir = block::write(&design, &VECTORS, &gen_command, &parent)?;
        point.block = dir
            .strip_prefix(&plan.out)
            .unwrap_or(&dir)
            .display()
            .to_string();
        let mut synth_command = format!(
            "rtl-gen synth {} --liberty {}",
            dir.display(),
            plan.liberty.display()
        );
        if let Some(t) = target {
            synth_command.push_str(&format!(" --target-ps {t}"));
        }
        let options = qor::SynthOptions {
            target_ps: target,
            ..Default::default()
        };
        qor::synthesize_block_with(&dir, Some(&plan.liberty), &options, &synth_command)
    })();
    match outcome {
        Ok(s) => point.synth = Some(s),
        Err(e) => point.error = Some(e.to_string()),
    }
    point
}

/// Runs every point of `plan` on `jobs` threads (0: one per core), calling `done` as each
/// point finishes, and returns the results in point order.
pub fn run(
    plan: &TargetPlan,
    command: &str,
    jobs: usize,
    done: &(dyn Fn(&TargetPoint) + Sync),
) -> Result<TargetResults, Error> {
    crate::output::OutputFolder::open(&plan.out)?;
    let pool = crate::experiments::pool::thread_pool(jobs)?;
    let points: Vec<TargetPoint> = pool.install(|| {
        plan.points()
            .par_iter()
            .map(|&(kind, target)| {
                let p = run_point(plan, kind, target);
                done(&p);
                p
            })
            .collect()
    });
    let first = points.iter().find_map(|p| p.synth.as_ref());
    Ok(TargetResults {
        format_version: FORMAT_VERSION,
        generator: generator(),
        command: command.to_string(),
        yosys_version: first.map(|s| s.report.yosys_version.clone()),
        liberty: first.and_then(|s| s.report.liberty.clone()),
        addr_bits: plan.addr_bits,
        banks: plan.banks,
        points,
    })
}

/// The CSV columns of [`to_csv`].
pub const CSV_HEADER: &str =
    "kind,target_ps,area_um2,address_ps,config_ps,delay_ps,cells,block,reproduce,error";

/// One line per point under [`CSV_HEADER`] (`default` in `target_ps` for the default flow);
/// empty fields where a failed point has no number.
pub fn to_csv(results: &TargetResults) -> String {
    let mut out = format!("{CSV_HEADER}\n");
    let num = |v: Option<f64>, digits: usize| v.map_or(String::new(), |v| format!("{v:.digits$}"));
    for p in &results.points {
        let report = p.synth.as_ref().map(|s| &s.report);
        let fields = [
            p.kind.clone(),
            p.target_ps
                .map_or_else(|| "default".to_string(), |t| t.to_string()),
            num(p.area_um2(), 3),
            num(p.address_ps(), 2),
            num(p.config_ps(), 2),
            num(report.and_then(|r| r.delay_ps), 2),
            report.map_or(String::new(), |r| r.cell_count.to_string()),
            p.block.clone(),
            p.synth
                .as_ref()
                .map_or(String::new(), |s| s.command.clone()),
            p.error.clone().unwrap_or_default(),
        ];
        let fields: Vec<String> = fields
            .iter()
            .map(|f| crate::experiments::sweep::csv_field(f))
            .collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// The chart files [`write_outputs`] writes.
pub const AREA_SVG: &str = "area_vs_target.svg";
/// The achieved address-path delay against the target.
pub const DELAY_SVG: &str = "address_delay_vs_target.svg";

/// An SVG of `value` against the target, one line per kind (targeted points only); with
/// `diagonal`, a grey line where the value equals the target (points under it met it).
pub fn plot(
    results: &TargetResults,
    y_desc: &str,
    value: fn(&TargetPoint) -> Option<f64>,
    diagonal: bool,
) -> String {
    let mut series = Vec::new();
    if diagonal {
        let mut targets: Vec<f64> = results.points.iter().filter_map(|p| p.target_ps).collect();
        targets.sort_by(f64::total_cmp);
        targets.dedup();
        for t in targets {
            push(&mut series, "target (met below)", 0, Marker::Cross, (t, t));
        }
    }
    for p in &results.points {
        let (Some(t), Some(v)) = (p.target_ps, value(p)) else {
            continue;
        };
        let colour = HashKind::ALL
            .iter()
            .position(|k| k.name() == p.kind)
            .unwrap_or(0);
        let marker = Marker::ALL[colour % Marker::ALL.len()];
        push(&mut series, &p.kind, colour, marker, (t, v));
    }
    let library = results
        .liberty
        .as_deref()
        .map_or("", |l| l.split(" (").next().unwrap_or(l));
    let title = format!(
        "configurable hashers, n = {}, {} banks: {library}",
        results.addr_bits, results.banks
    );
    let axes = Axes {
        title: &title,
        size: (720, 480),
        x_desc: "delay target (ps)",
        y_desc,
        log_y: false,
        x_log2: false,
    };
    line_chart(&axes, &series)
}

/// The files [`write_outputs`] writes into `out`, so they can be checked before the sweep runs.
pub fn output_files(out: &Path) -> Vec<PathBuf> {
    ["results.csv", "results.json", AREA_SVG, DELAY_SVG]
        .iter()
        .map(|f| out.join(f))
        .collect()
}

/// Writes `results.csv`, `results.json` and the two charts into `out`; returns their paths.
pub fn write_outputs(results: &TargetResults, out: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut json = serde_json::to_string_pretty(results).unwrap_or_else(|e| unreachable!("{e}"));
    json.push('\n');
    let files = [
        ("results.csv", to_csv(results)),
        ("results.json", json),
        (
            AREA_SVG,
            plot(results, "area (um^2)", TargetPoint::area_um2, false),
        ),
        (
            DELAY_SVG,
            plot(
                results,
                "address-to-bank delay (ps)",
                TargetPoint::address_ps,
                true,
            ),
        ),
    ];
    let mut written = Vec::new();
    for (name, text) in files {
        let path = out.join(name);
        crate::output::write_file(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_put_the_default_flow_first_for_each_kind() {
        let plan = TargetPlan {
            kinds: vec![HashKind::BitvectorPerm, HashKind::BitwiseXor],
            addr_bits: 14,
            banks: 32,
            targets: vec![150.0, 200.0],
            liberty: "lib".into(),
            out: "out".into(),
        };
        let k = |k: HashKind, t| (k, t);
        assert_eq!(
            plan.points(),
            [
                k(HashKind::BitvectorPerm, None),
                k(HashKind::BitvectorPerm, Some(150.0)),
                k(HashKind::BitvectorPerm, Some(200.0)),
                k(HashKind::BitwiseXor, None),
                k(HashKind::BitwiseXor, Some(150.0)),
                k(HashKind::BitwiseXor, Some(200.0)),
            ]
        );
        assert_eq!(target_tag(None), "default");
        assert_eq!(target_tag(Some(150.0)), "t150");
        assert_eq!(target_tag(Some(137.5)), "t137.5");
    }

    #[test]
    fn csv_of_a_failed_point_keeps_its_columns() {
        let results = TargetResults {
            format_version: FORMAT_VERSION,
            generator: "g".into(),
            command: "c".into(),
            yosys_version: None,
            liberty: None,
            addr_bits: 14,
            banks: 32,
            points: vec![TargetPoint {
                kind: "bitvector-xor".into(),
                target_ps: Some(150.0),
                block: "blocks/t150/x".into(),
                error: Some("no Yosys, at all".into()),
                synth: None,
            }],
        };
        let csv = to_csv(&results);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], CSV_HEADER);
        assert_eq!(
            lines[1],
            "bitvector-xor,150,,,,,,blocks/t150/x,,\"no Yosys, at all\""
        );
    }
}
