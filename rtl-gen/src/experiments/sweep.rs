//! Sweeps: many blocks of one family generated and synthesized in parallel, tabulated and
//! plotted, for any family that gives its points through a [`SweepSpace`].
//!
//! A point is one block: the family lists the points with their values (the table's columns:
//! a hasher's kind, address width and bank count; a shared memory's lanes, banks and map) and
//! writes each one's block into `<out>/blocks/<name>/` (with a tiny testbench: a sweep
//! measures, it does not simulate). The block is synthesized there as `rtl-gen synth` would,
//! so `rtl-gen synth <out>/blocks/<name> ...` reproduces any point alone. A point that fails is
//! recorded with its error and the sweep goes on; a point the family has nothing to generate
//! for (a configurable modulo hasher, more banks than words) is recorded as skipped.

use crate::plot::{line_chart, push, Axes, Marker};
use crate::qor::{self, BlockSynth};
use crate::Error;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Version of the `results.json` layout: 3 names the `family` and holds its `plan` and each
/// point's values (2 was the hashers' own layout).
pub const FORMAT_VERSION: u32 = 3;
/// Folder of the generated blocks inside a sweep's output folder.
pub const BLOCKS_DIR: &str = "blocks";

/// A sweep's plan as JSON: recorded in the results and in an emitted sweep's `sweep.json`,
/// from which the registry builds the space again (`crate::families::sweep_space`); every
/// serializable plan has it.
pub trait PlanJson {
    /// The plan as JSON.
    fn plan(&self) -> Value;
}

impl<T: Serialize> PlanJson for T {
    fn plan(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|e| unreachable!("a plan serializes: {e}"))
    }
}

/// A family's sweep: its points and how to write each point's block.
pub trait SweepSpace: PlanJson + Sync {
    /// The family (`hash`): the `rtl-gen sweep <family>` command, `family` in the results.
    fn family(&self) -> &'static str;

    /// The axes, in the order of the table's columns, each with its values: the points are
    /// every combination, the first axis major ([`grid`]).
    fn axes(&self) -> Vec<(&'static str, Vec<Value>)>;

    /// The name of the point with `values`: distinct for distinct points, made of letters,
    /// digits and `-` (make and Ninja take it as it is).
    fn point_name(&self, values: &BTreeMap<String, Value>) -> String;

    /// The names of a point's values, in the order of the table's columns.
    fn columns(&self) -> Vec<&'static str> {
        self.axes().into_iter().map(|(name, _)| name).collect()
    }

    /// The points, in order.
    fn points(&self) -> Vec<Point> {
        grid(&self.axes(), |values| self.point_name(values))
    }

    /// How many points there are, without listing them.
    fn point_count(&self) -> u64 {
        self.axes()
            .iter()
            .map(|(_, values)| values.len() as u64)
            .fold(1, u64::saturating_mul)
    }

    /// Writes the block of `point` into the folder `blocks` (`<blocks>/<top>/`).
    fn generate(&self, point: &Point, blocks: &Path) -> Result<Generated, Error>;

    /// The column the plots have on their x axis (a power of two: a log2 axis); the bank
    /// count by default.
    fn x_axis(&self) -> &'static str {
        "banks"
    }

    /// The line a point belongs to in the plots (one colour and marker a line, in the order
    /// the lines first appear); by default its values but the x axis's.
    fn series(&self, point: &PointResult) -> String {
        let x = self.x_axis();
        let values: Vec<String> = self
            .columns()
            .into_iter()
            .filter(|&c| c != x)
            .map(|c| format!("{c}={}", point.value(c)))
            .collect();
        values.join(" ")
    }

    /// The plots' title, before the library (`configurable hashers, n = 14`).
    fn title(&self) -> String;
}

/// One point of a sweep: its name and values.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// `<value>-<value>...` (`bitvector-xor-n14-b32`).
    pub name: String,
    /// The values, by column.
    pub values: BTreeMap<String, Value>,
}

impl Point {
    /// The text value of column `column` (empty when it is not text).
    pub fn text(&self, column: &str) -> &str {
        self.values
            .get(column)
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The number in column `column` (0 when it is not a number).
    pub fn number(&self, column: &str) -> u64 {
        self.values.get(column).and_then(Value::as_u64).unwrap_or(0)
    }
}

/// Every combination of the values of `axes`, the first axis major, each point named by
/// `name` from its values.
pub fn grid(
    axes: &[(&'static str, Vec<Value>)],
    name: impl Fn(&BTreeMap<String, Value>) -> String,
) -> Vec<Point> {
    let mut combinations = vec![BTreeMap::new()];
    for (column, values) in axes {
        combinations = combinations
            .into_iter()
            .flat_map(|partial| {
                values.iter().map(move |v| {
                    let mut next = partial.clone();
                    next.insert(column.to_string(), v.clone());
                    next
                })
            })
            .collect();
    }
    combinations
        .into_iter()
        .map(|values| Point {
            name: name(&values),
            values,
        })
        .collect()
}

/// What the family made of a point.
#[derive(Debug, Clone, PartialEq)]
pub enum Generated {
    /// A block folder (its manifest records the `rtl-gen` command that writes it alone) and
    /// its top module.
    Block {
        /// The folder.
        dir: PathBuf,
        /// Its top module.
        top: String,
    },
    /// Nothing to generate, and why.
    Skipped(String),
}

/// Where a sweep writes and how it synthesizes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Liberty file; `None` for the generic flow.
    pub liberty: Option<PathBuf>,
    /// Output folder (not recorded in an emitted sweep: its folder is where the plan is).
    #[serde(skip)]
    pub out: PathBuf,
}

/// One point's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    /// The point's name.
    pub point: String,
    /// The point's values, by column.
    #[serde(flatten)]
    pub values: BTreeMap<String, Value>,
    /// The block's module name, when it was generated.
    pub top: Option<String>,
    /// The block folder relative to the sweep's output folder.
    pub block: Option<String>,
    /// `ok`, `skipped` (nothing to generate), `failed`, or `missing` (a point of an emitted
    /// sweep collected without its record, `sweep collect --allow-missing`).
    pub status: String,
    /// Why the point failed or was skipped.
    pub error: Option<String>,
    /// The synthesis result (also in the block's `synth.json`).
    pub synth: Option<BlockSynth>,
}

impl PointResult {
    /// The result of `point` before it runs: `status`, with nothing yet.
    fn of(point: &Point, status: &str, error: Option<String>) -> Self {
        PointResult {
            point: point.name.clone(),
            values: point.values.clone(),
            top: None,
            block: None,
            status: status.into(),
            error,
            synth: None,
        }
    }

    /// The result of a point of an emitted sweep that has no record.
    pub fn missing(point: &Point, why: String) -> Self {
        Self::of(point, "missing", Some(why))
    }

    /// True when the point has numbers.
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }

    /// The point's value in column `column`, as the table writes it.
    pub fn value(&self, column: &str) -> String {
        match self.values.get(column) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        }
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
    /// The family swept.
    pub family: String,
    /// `generic` or `liberty`.
    pub mode: String,
    /// The Yosys version every point ran with (from the first successful point).
    pub yosys_version: Option<String>,
    /// The liberty file as given.
    pub liberty: Option<String>,
    /// The family's plan ([`SweepSpace::plan`]).
    pub plan: Value,
    /// The columns of the points' values, in order.
    pub columns: Vec<String>,
    /// One entry per point, in point order.
    pub points: Vec<PointResult>,
}

/// Refuses a sweep of more points than [`crate::limits::MAX_SWEEP_POINTS`]: the product of
/// the lengths of `lists`, named together by `flag` (`--kinds x --addr-bits x --banks`).
pub fn bounded(flag: &'static str, lists: &[usize]) -> Result<(), Error> {
    let points = lists.iter().map(|&n| n as u64).fold(1, u64::saturating_mul);
    crate::limits::check(
        flag,
        points,
        crate::limits::MAX_SWEEP_POINTS,
        "points of one sweep, each a block folder and a Yosys run",
    )
}

/// Refuses a value given twice in the list of `flag`: each point of a sweep is one block
/// folder (and one job of an emitted sweep).
pub fn once<T: PartialEq + std::fmt::Display>(
    flag: &'static str,
    values: &[T],
) -> Result<(), Error> {
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            return Err(Error::BadFlag {
                flag,
                value: v.to_string(),
                message: "given twice: each point of a sweep is one block (and one job)".into(),
            });
        }
    }
    Ok(())
}

/// Generates and synthesizes one point into `<out>/blocks/<name>/`: the work of one point,
/// whether the in-process sweep ([`run`]) or an emitted job (`rtl-gen sweep point`) runs it.
pub fn run_point(space: &dyn SweepSpace, settings: &Settings, point: &Point) -> PointResult {
    let mut result = PointResult::of(point, "failed", None);
    let blocks = settings.out.join(BLOCKS_DIR);
    let outcome = (|| -> Result<Option<BlockSynth>, Error> {
        let (dir, top) = match space.generate(point, &blocks)? {
            Generated::Skipped(why) => {
                result.status = "skipped".into();
                result.error = Some(why);
                return Ok(None);
            }
            Generated::Block { dir, top } => (dir, top),
        };
        result.block = Some(format!("{BLOCKS_DIR}/{top}"));
        result.top = Some(top);
        let mut synth_command = format!("rtl-gen synth {}", dir.display());
        if let Some(lib) = &settings.liberty {
            let _ = write!(synth_command, " --liberty {}", lib.display());
        }
        qor::synthesize_block(&dir, settings.liberty.as_deref(), &synth_command).map(Some)
    })();
    match outcome {
        Ok(Some(s)) => {
            result.status = "ok".into();
            result.synth = Some(s);
        }
        Ok(None) => {}
        Err(e) => result.error = Some(e.to_string()),
    }
    result
}

/// Runs every point of `space` on `jobs` threads (0: one per core), calling `done` as each
/// point finishes (from the worker threads), and returns the results in point order.
pub fn run(
    space: &dyn SweepSpace,
    settings: &Settings,
    command: &str,
    jobs: usize,
    done: &(dyn Fn(&PointResult) + Sync),
) -> Result<SweepResults, Error> {
    crate::output::OutputFolder::open(&settings.out)?;
    let pool = super::pool::thread_pool(jobs)?;
    let points = space.points();
    let results: Vec<PointResult> = pool.install(|| {
        points
            .par_iter()
            .map(|point| {
                let r = run_point(space, settings, point);
                done(&r);
                r
            })
            .collect()
    });
    Ok(results_of(space, settings, command, results))
}

/// The sweep's results from its points' results in point order: what [`run`] returns and what
/// `rtl-gen sweep collect` builds from an emitted sweep's point records.
pub fn results_of(
    space: &dyn SweepSpace,
    settings: &Settings,
    command: &str,
    points: Vec<PointResult>,
) -> SweepResults {
    let first = points.iter().find_map(|r| r.synth.as_ref());
    SweepResults {
        format_version: FORMAT_VERSION,
        generator: crate::manifest::generator(),
        command: command.to_string(),
        family: space.family().to_string(),
        mode: if settings.liberty.is_some() {
            "liberty"
        } else {
            "generic"
        }
        .into(),
        yosys_version: first.map(|s| s.report.yosys_version.clone()),
        liberty: first
            .and_then(|s| s.report.liberty.clone())
            .or_else(|| settings.liberty.as_ref().map(|l| l.display().to_string())),
        plan: space.plan(),
        columns: space.columns().into_iter().map(String::from).collect(),
        points,
    }
}

/// The CSV columns after a point's values.
pub const CSV_COLUMNS: &str = "top,status,cells,registers,transistors,depth_gates,area_um2,delay_ps,fmax_mhz,yosys,liberty,reproduce,error";

/// Quotes a CSV field when it holds a comma, quote or newline.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One line per point: its values, then [`CSV_COLUMNS`]; empty fields where a mode has no
/// such number.
pub fn to_csv(results: &SweepResults) -> String {
    let mut out = results.columns.join(",");
    out.push(',');
    out.push_str(CSV_COLUMNS);
    out.push('\n');
    for p in &results.points {
        let r = p.synth.as_ref().map(|s| &s.report);
        let num = |v: Option<String>| v.unwrap_or_default();
        let mut fields: Vec<String> = results.columns.iter().map(|c| p.value(c)).collect();
        fields.extend([
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
        ]);
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

/// The files [`write_outputs`] writes, so they can be checked before the sweep runs.
pub fn output_files(space: &dyn SweepSpace, settings: &Settings) -> Vec<PathBuf> {
    let out = &settings.out;
    let mut files = vec![out.join("results.csv"), out.join("results.json")];
    files.extend(
        metrics(settings.liberty.is_some())
            .into_iter()
            .map(|(stem, _, _)| out.join(format!("{stem}_vs_{}.svg", space.x_axis()))),
    );
    files
}

/// Writes `results.csv`, `results.json` and one SVG plot per metric into `out`; returns the
/// files written.
pub fn write_outputs(
    results: &SweepResults,
    space: &dyn SweepSpace,
    out: &Path,
) -> Result<Vec<PathBuf>, Error> {
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
        let path = out.join(format!("{stem}_vs_{}.svg", space.x_axis()));
        let svg = plot(results, space, label, value);
        crate::output::write_file(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// An SVG of `value` against the space's x axis (log2), one line per series of the space.
pub fn plot(
    results: &SweepResults,
    space: &dyn SweepSpace,
    label: &str,
    value: fn(&synth::SynthReport) -> Option<f64>,
) -> String {
    let x_axis = space.x_axis();
    let mut series = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for p in results.points.iter().filter(|p| p.ok()) {
        let Some(v) = p.synth.as_ref().and_then(|s| value(&s.report)) else {
            continue;
        };
        let Some(x) = p.values.get(x_axis).and_then(Value::as_f64) else {
            continue;
        };
        let name = space.series(p);
        let line = match lines.iter().position(|l| *l == name) {
            Some(i) => i,
            None => {
                lines.push(name.clone());
                lines.len() - 1
            }
        };
        let marker = Marker::ALL[line % Marker::ALL.len()];
        push(&mut series, &name, line, marker, (x.log2(), v));
    }
    let library = results
        .liberty
        .as_deref()
        .map_or("Yosys generic gates", |l| l.split(" (").next().unwrap_or(l));
    let title = format!("{}: {library}", space.title());
    let axes = Axes {
        title: &title,
        size: (720, 480),
        x_desc: x_axis,
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
    fn csv_quotes_fields_with_commas() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain text"), "plain text");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("a\"b,"), "\"a\"\"b,\"");
    }

    #[test]
    fn a_value_given_twice_is_refused_naming_it() {
        assert!(once("--banks", &[4, 8]).is_ok());
        let e = once("--banks", &[4, 8, 4]).unwrap_err().to_string();
        assert!(e.starts_with("--banks 4: given twice"), "{e}");
    }
}
