//! Sweeps that scale out on existing engines: `rtl-gen sweep <family> --emit make|ninja|slurm`
//! writes the sweep's plan and a job file ([`super::job_files`]) instead of running it; each job
//! is one `rtl-gen sweep point DIR POINT`, which generates and synthesizes that point exactly as
//! the in-process sweep does ([`sweep::run_point`]) and leaves a small record,
//! `points/<point>.json`; `rtl-gen sweep collect DIR` merges the records into the in-process
//! sweep's `results.csv`, `results.json` and plots ([`sweep::results_of`], [`sweep::write_outputs`]).
//!
//! An emitted sweep's folder holds, besides what the points write (`blocks/`):
//! `sweep.json` ([`EmittedSweep`]: the plan and its points), `points.txt` (one point name a
//! line: the Slurm array's list, or input for `xargs`), the job file, `points/` and, for Slurm,
//! `logs/`. Emitting again into the folder starts the sweep over: the earlier records go.

use super::job_files::{self, JobSpec};
pub use super::job_files::{JobFormat, LOGS_DIR, POINTS_DIR, POINT_LIST};
use super::sweep::{self, PointResult, Settings, SweepResults, SweepSpace};
use crate::manifest::generator;
use crate::output::{self, ownership, OutputFolder};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the layout of `sweep.json` and of the point records: 3 names the `family` and
/// holds its `plan` (2 was the hashers' own).
pub const FORMAT_VERSION: u32 = 3;
/// The plan file in an emitted sweep's folder.
pub const PLAN_FILE: &str = "sweep.json";
/// How many missing points an error names before it says how many more there are.
const NAMED_MISSING: usize = 10;

/// What `sweep.json` holds: everything `sweep point` and `sweep collect` need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmittedSweep {
    /// Generator name and version (first, so that the file is recognisably rtl-gen's).
    pub generator: String,
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The `rtl-gen sweep ... --emit` command that wrote it.
    pub command: String,
    /// The job file's format.
    pub format: JobFormat,
    /// The `rtl-gen` binary the job file runs.
    pub rtl_gen: PathBuf,
    /// The family swept.
    pub family: String,
    /// The family's plan ([`SweepSpace::plan`]).
    pub plan: serde_json::Value,
    /// The synthesis (its `out` is the folder the plan is read from).
    pub settings: Settings,
    /// The points' names, in point order.
    pub points: Vec<String>,
}

/// How a command builds a family's sweep space from an emitted sweep's family and plan (the
/// registry's `crate::families::sweep_space`).
pub type Rebuild = dyn Fn(&str, &serde_json::Value) -> Result<Box<dyn SweepSpace>, Error>;

/// One point's record, `points/<point>.json`, written by `rtl-gen sweep point`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointRecord {
    /// Generator name and version.
    pub generator: String,
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The point's name.
    pub point: String,
    /// Its result, as the in-process sweep records it.
    pub result: PointResult,
}

/// What [`emit`] wrote.
#[derive(Debug, Clone, Serialize)]
pub struct Emitted {
    /// The sweep's folder, absolute.
    pub dir: PathBuf,
    /// The job file's format.
    pub format: JobFormat,
    /// The job file.
    pub job_file: PathBuf,
    /// How many points (jobs).
    pub points: usize,
    /// The command that runs the job file.
    pub run: String,
    /// The command that merges the points' records.
    pub collect: String,
    /// Every file written.
    pub files: Vec<PathBuf>,
}

/// Whether a job file can name `path` as it is: letters, digits and `/ . _ - + @` only (make
/// and Ninja split on spaces and treat `$ : % # =` specially).
fn job_safe(path: &Path) -> bool {
    path.to_str().is_some_and(|s| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+@".contains(c))
    })
}

/// `path` made absolute against the current folder (it need not exist).
fn absolute(path: &Path, flag: &'static str) -> Result<PathBuf, Error> {
    std::path::absolute(path).map_err(|e| Error::BadFlag {
        flag,
        value: path.display().to_string(),
        message: format!("cannot be made absolute: {e}"),
    })
}

/// Writes the plan of `space` (whose inputs the caller has checked), its point list and the
/// job file of `format` into `settings.out`, which then holds an emitted sweep; nothing runs.
/// `rtl_gen` is the binary the jobs run. Refuses, before writing anything, a path a job file
/// cannot name, and files or a `points/` folder rtl-gen did not write.
pub fn emit(
    space: &dyn SweepSpace,
    settings: &Settings,
    format: JobFormat,
    command: &str,
    rtl_gen: &Path,
) -> Result<Emitted, Error> {
    let dir = absolute(&settings.out, "--out")?;
    let points: Vec<String> = space.points().into_iter().map(|p| p.name).collect();
    let unsafe_path = |flag: &'static str, path: &Path, what: &str| Error::BadFlag {
        flag,
        value: path.display().to_string(),
        message: format!(
            "{what} cannot be named in a job file (allowed: letters, digits and / . _ - + @)"
        ),
    };
    if !job_safe(&dir) {
        return Err(unsafe_path("--out", &dir, "this folder"));
    }
    if !job_safe(rtl_gen) {
        return Err(unsafe_path("--emit", rtl_gen, "the rtl-gen binary's path"));
    }
    let mut recorded = settings.clone();
    if let Some(lib) = &settings.liberty {
        // The jobs may run anywhere: the library by its absolute path.
        recorded.liberty = Some(lib.canonicalize().map_err(Error::io(lib))?);
    }
    let files: Vec<PathBuf> = [PLAN_FILE, POINT_LIST, format.file_name()]
        .iter()
        .map(|f| dir.join(f))
        .collect();
    OutputFolder::check(&dir)?;
    OutputFolder::check_files(files.iter().map(PathBuf::as_path))?;
    let records = dir.join(POINTS_DIR);
    ownership::check_replaceable(&records, &ownership::folder_state(&records))?;

    OutputFolder::open(&dir)?;
    output::cleanup::remove(&records).map_err(Error::io(&records))?;
    OutputFolder::open(&records)?;
    if format == JobFormat::Slurm {
        OutputFolder::open(&dir.join(LOGS_DIR))?;
    }
    let emitted = EmittedSweep {
        generator: generator(),
        format_version: FORMAT_VERSION,
        command: command.to_string(),
        format,
        rtl_gen: rtl_gen.to_path_buf(),
        family: space.family().to_string(),
        plan: space.plan(),
        settings: recorded,
        points,
    };
    let spec = JobSpec {
        dir: &dir,
        rtl_gen,
        points: &emitted.points,
        command,
    };
    let mut list = emitted.points.join("\n");
    list.push('\n');
    let contents = [to_json(&emitted), list, job_files::render(format, &spec)];
    for (file, text) in files.iter().zip(&contents) {
        output::write_file(file, text.as_bytes())?;
    }
    Ok(Emitted {
        collect: format!("rtl-gen sweep collect {}", dir.display()),
        job_file: dir.join(format.file_name()),
        run: format.run_command(&dir),
        dir,
        format,
        points: emitted.points.len(),
        files,
    })
}

/// Pretty JSON with a final newline.
fn to_json<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|e| unreachable!("{e}"));
    s.push('\n');
    s
}

/// The refusal of a folder that is not an emitted sweep.
fn not_a_sweep(dir: &Path, why: String) -> Error {
    Error::NotASweep {
        path: dir.to_path_buf(),
        message: format!(
            "{why}: not a sweep emitted by `rtl-gen sweep <family> --emit make|ninja|slurm`"
        ),
    }
}

/// Reads the emitted sweep in `dir` (its plan's `out` set to `dir`), or refuses a folder that
/// is not one.
pub fn load(dir: &Path) -> Result<EmittedSweep, Error> {
    let path = dir.join(PLAN_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| not_a_sweep(dir, format!("no readable {PLAN_FILE} ({e})")))?;
    let mut emitted: EmittedSweep = serde_json::from_str(&text)
        .map_err(|e| not_a_sweep(dir, format!("{PLAN_FILE} is not a sweep plan ({e})")))?;
    if !emitted.generator.starts_with("rtl-gen") || emitted.format_version != FORMAT_VERSION {
        return Err(not_a_sweep(
            dir,
            format!(
                "{PLAN_FILE} is from {} layout {} (this rtl-gen reads layout {FORMAT_VERSION})",
                emitted.generator, emitted.format_version
            ),
        ));
    }
    emitted.settings.out = dir.to_path_buf();
    Ok(emitted)
}

/// The record file of point `name` in `dir`.
fn record_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(POINTS_DIR).join(format!("{name}.json"))
}

/// Runs point `name` of the emitted sweep in `dir` (generation and synthesis, as the in-process
/// sweep does) and writes its record. A point that fails is recorded as failed, like the
/// in-process sweep records it; only a folder or point that is not the sweep's is an error.
pub fn run_point(dir: &Path, name: &str, rebuild: &Rebuild) -> Result<PointRecord, Error> {
    let emitted = load(dir)?;
    let space = rebuild(&emitted.family, &emitted.plan)?;
    let Some(point) = space.points().into_iter().find(|p| p.name == name) else {
        return Err(Error::BadFlag {
            flag: "<POINT>",
            value: name.to_string(),
            message: format!(
                "not a point of {} (its points are listed in {POINT_LIST}, e.g. {})",
                dir.display(),
                emitted.points.first().map_or("none", String::as_str)
            ),
        });
    };
    let record = PointRecord {
        generator: generator(),
        format_version: FORMAT_VERSION,
        point: name.to_string(),
        result: sweep::run_point(space.as_ref(), &emitted.settings, &point),
    };
    output::write_file(&record_path(dir, name), to_json(&record).as_bytes())?;
    Ok(record)
}

/// What [`collect`] found.
pub struct Collected {
    /// The sweep's results, as the in-process sweep would have written them; a missing point
    /// (only with `allow_missing`) has status `missing`.
    pub results: SweepResults,
    /// The family's sweep space.
    pub space: Box<dyn SweepSpace>,
    /// The synthesis (its `out` is the sweep's folder).
    pub settings: Settings,
    /// The points without a record.
    pub missing: Vec<String>,
}

/// Reads the record of point `name` (`None` when there is none).
fn read_record(dir: &Path, name: &str) -> Result<Option<PointRecord>, Error> {
    let path = record_path(dir, name);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path)(e)),
    };
    let bad = |message: String| Error::ConfigFile {
        path: path.clone(),
        message,
    };
    let record: PointRecord =
        serde_json::from_str(&text).map_err(|e| bad(format!("not a point record: {e}")))?;
    if record.format_version != FORMAT_VERSION || record.point != name {
        return Err(bad(format!(
            "a record of point {} in layout {}, expected point {name} in layout {FORMAT_VERSION}",
            record.point, record.format_version
        )));
    }
    Ok(Some(record))
}

/// Merges the records of the emitted sweep in `dir` into its results, in point order, through
/// the same [`sweep::results_of`] as the in-process sweep. Refuses a folder that is not an
/// emitted sweep, and, unless `allow_missing`, a sweep with points that have no record (naming
/// them); with `allow_missing` they are in the results with status `missing`.
pub fn collect(dir: &Path, allow_missing: bool, rebuild: &Rebuild) -> Result<Collected, Error> {
    let emitted = load(dir)?;
    let space = rebuild(&emitted.family, &emitted.plan)?;
    let mut points = Vec::new();
    let mut missing = Vec::new();
    for point in space.points() {
        let name = point.name.clone();
        match read_record(dir, &name)? {
            Some(r) => points.push(r.result),
            None => {
                points.push(PointResult::missing(
                    &point,
                    format!(
                    "no record {POINTS_DIR}/{name}.json: the point did not run or did not finish"
                ),
                ));
                missing.push(name);
            }
        }
    }
    if !missing.is_empty() && !allow_missing {
        let mut names = missing[..missing.len().min(NAMED_MISSING)].join(", ");
        if missing.len() > NAMED_MISSING {
            names.push_str(&format!(" and {} more", missing.len() - NAMED_MISSING));
        }
        return Err(Error::IncompleteSweep {
            path: dir.to_path_buf(),
            missing: missing.len(),
            total: points.len(),
            names,
        });
    }
    Ok(Collected {
        results: sweep::results_of(space.as_ref(), &emitted.settings, &emitted.command, points),
        space,
        settings: emitted.settings,
        missing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_files_name_only_plain_paths() {
        assert!(job_safe(Path::new("/work/out/sweep-1_a+b@c.d")));
        for bad in ["/a b", "/a$b", "/a:b", "/a%b", "/a#b", "/a=b", "/a'b"] {
            assert!(!job_safe(Path::new(bad)), "{bad}");
        }
    }
}
