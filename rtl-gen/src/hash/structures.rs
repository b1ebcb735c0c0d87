//! The structure experiment: every configurable hasher built with each [`Structure`]
//! alternative that could decide its depth, checked (Verilator lint, Yosys check, and optionally
//! co-simulation against the golden model) and synthesized with each library, so that the
//! default in [`crate::hash::logic`] is the one that measures best.
//!
//! Each alternative is a complete block folder `<out>/<tag>-<label>/<name>/` whose `<name>.v`
//! is the alternative (same module name and ports as the default, so the block's testbench
//! checks it unchanged); its synthesis work folders are `synth-<library>/` inside it.

use crate::block;
use crate::hash::logic::{self, Structure};
use crate::hash::vectors::VectorPlan;
use crate::hash::HashDesign;
use crate::manifest::generator;
use crate::rtl::verilog;
use crate::Error;
use models::{HashConfigObject, HashKind};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Version of the `structures.json` layout.
pub const FORMAT_VERSION: u32 = 1;

/// The vectors each alternative is co-simulated with: 50 random legal configurations of 100
/// addresses each.
pub const COSIM_PLAN: VectorPlan = VectorPlan {
    seed: 7,
    vectors: 5000,
    configs: 50,
};

/// One alternative's numbers with one library.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    /// `generic`, or the liberty library's name.
    pub library: String,
    /// The synthesis report.
    pub report: synth::SynthReport,
}

/// One alternative of one kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// The hash kind.
    pub kind: String,
    /// The alternative's label (`shifter`, `mux-tree`, ...).
    pub label: String,
    /// Whether it is [`Structure::DEFAULT`] for this kind.
    pub default: bool,
    /// The block folder, relative to the output folder.
    pub block: String,
    /// Verilator `--lint-only -Wall` and Yosys `check -assert` both passed.
    pub lint_clean: bool,
    /// Co-simulation: vectors passed and failed (`None` without `--cosim`).
    pub cosim: Option<(usize, usize)>,
    /// What went wrong, if anything did.
    pub error: Option<String>,
    /// One entry per library, generic first.
    pub measures: Vec<Measure>,
}

/// What `structures.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StructureResults {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Generator name and version.
    pub generator: String,
    /// The command that reproduces the experiment.
    pub command: String,
    /// Word-address bits.
    pub addr_bits: u32,
    /// Bank count.
    pub banks: u64,
    /// Yosys version.
    pub yosys_version: Option<String>,
    /// Liberty libraries, as `name (path)`.
    pub libraries: Vec<String>,
    /// Every alternative, kind by kind, defaults first.
    pub alternatives: Vec<Alternative>,
}

/// The work-folder name of a library: `generic` or the liberty file's name without `.lib.gz`.
fn lib_tag(liberty: Option<&Path>) -> String {
    liberty.map_or_else(
        || "generic".to_string(),
        |l| {
            let name = l
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            name.trim_end_matches(".gz")
                .trim_end_matches(".lib")
                .to_string()
        },
    )
}

/// What every alternative of one experiment shares.
struct Setup<'a> {
    addr_bits: u32,
    banks: u64,
    libraries: &'a [PathBuf],
    out: &'a Path,
    cosim: bool,
    command: &'a str,
}

fn run_one(setup: &Setup, kind: HashKind, label: &str, structure: Structure) -> Alternative {
    let Setup {
        addr_bits,
        banks,
        libraries,
        out,
        cosim,
        command,
    } = *setup;
    let mut alt = Alternative {
        kind: kind.name().into(),
        label: label.into(),
        default: Structure::alternatives(kind)
            .first()
            .is_some_and(|(l, _)| *l == label),
        block: String::new(),
        lint_clean: false,
        cosim: None,
        error: None,
        measures: Vec::new(),
    };
    let outcome = (|| -> Result<(), Error> {
        let object = HashConfigObject::new(kind, addr_bits, banks);
        let design = HashDesign::new(&object, true, false, false)?;
        let name = design.name();
        let parent = out.join(format!("{}-{label}", kind.tag()));
        let plan = if cosim {
            COSIM_PLAN
        } else {
            VectorPlan {
                seed: 1,
                vectors: 16,
                configs: 1,
            }
        };
        let dir = block::write(&design, &plan, command, &parent)?;
        alt.block = format!("{}-{label}/{name}", kind.tag());
        let rtl = dir.join(format!("{name}.v"));
        let text = std::fs::read_to_string(&rtl).map_err(Error::io(&rtl))?;
        let mut header: Vec<String> = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .map(|l| l.trim_start_matches("//").trim_start().to_string())
            .collect();
        header.push(format!(
            "Structure experiment: {label} ({structure:?}); the default is {:?}.",
            Structure::DEFAULT
        ));
        let module = logic::build_with(&design, header, structure);
        std::fs::write(&rtl, verilog::emit(&module)).map_err(Error::io(&rtl))?;

        testbenches::lint::verilator_lint(std::slice::from_ref(&rtl), &name)?;
        synth::check(std::slice::from_ref(&rtl), &name)?;
        alt.lint_clean = true;
        if cosim {
            let (_, report) = crate::cosim::run(&dir, "verilator")?;
            alt.cosim = Some((report.passed, report.failed));
        }
        let libs = std::iter::once(None).chain(libraries.iter().map(|l| Some(l.as_path())));
        for lib in libs {
            let report = synth::synthesize(&synth::SynthRequest {
                files: vec![rtl.clone()],
                top: name.clone(),
                liberty: lib.map(Path::to_path_buf),
                work_dir: dir.join(format!("synth-{}", lib_tag(lib))),
                macros: Vec::new(),
            })?;
            let library = report
                .liberty
                .as_deref()
                .map_or("generic", |l| l.split(" (").next().unwrap_or(l))
                .to_string();
            alt.measures.push(Measure { library, report });
        }
        Ok(())
    })();
    alt.error = outcome.err().map(|e| e.to_string());
    alt
}

/// Runs the experiment at `addr_bits` and `banks` for every configurable kind with
/// alternatives, on `jobs` threads (0: one per core).
#[allow(clippy::too_many_arguments)]
pub fn run(
    addr_bits: u32,
    banks: u64,
    libraries: &[PathBuf],
    out: &Path,
    cosim: bool,
    jobs: usize,
    command: &str,
    done: &(dyn Fn(&Alternative) + Sync),
) -> Result<StructureResults, Error> {
    crate::output::OutputFolder::open(out)?;
    let pool = crate::experiments::pool::thread_pool(jobs)?;
    let setup = Setup {
        addr_bits,
        banks,
        libraries,
        out,
        cosim,
        command,
    };
    let work: Vec<(HashKind, &'static str, Structure)> = HashKind::ALL
        .iter()
        .flat_map(|&k| {
            Structure::alternatives(k)
                .into_iter()
                .map(move |(l, s)| (k, l, s))
        })
        .collect();
    let alternatives: Vec<Alternative> = pool.install(|| {
        work.par_iter()
            .map(|&(kind, label, structure)| {
                let a = run_one(&setup, kind, label, structure);
                done(&a);
                a
            })
            .collect()
    });
    let first = alternatives.iter().flat_map(|a| a.measures.iter());
    let yosys_version = first.clone().next().map(|m| m.report.yosys_version.clone());
    let mut libs: Vec<String> = Vec::new();
    for m in first {
        if let Some(l) = &m.report.liberty {
            if !libs.contains(l) {
                libs.push(l.clone());
            }
        }
    }
    Ok(StructureResults {
        format_version: FORMAT_VERSION,
        generator: generator(),
        command: command.to_string(),
        addr_bits,
        banks,
        yosys_version,
        libraries: libs,
        alternatives,
    })
}

/// A Markdown table: one row per alternative; per library, transistors/depth (generic) or
/// area/delay (liberty); the default marked.
pub fn to_markdown(results: &StructureResults) -> String {
    let mut libraries: Vec<String> = Vec::new();
    for a in &results.alternatives {
        for m in &a.measures {
            if !libraries.contains(&m.library) {
                libraries.push(m.library.clone());
            }
        }
    }
    let mut out = String::from("| kind | structure | checked |");
    let mut rule = String::from("|---|---|---|");
    for l in &libraries {
        if l == "generic" {
            out.push_str(" generic transistors | generic depth |");
            rule.push_str("---:|---:|");
        } else {
            let _ = write!(out, " {l} area (um²) | {l} delay (ps) |");
            rule.push_str("---:|---:|");
        }
    }
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    for a in &results.alternatives {
        let checked = match (&a.error, a.cosim) {
            (Some(_), _) => "**failed**".to_string(),
            (None, Some((p, 0))) => format!("lint, cosim {p}/{p}"),
            (None, Some((p, f))) => format!("**cosim {f} of {} failed**", p + f),
            (None, None) => "lint".to_string(),
        };
        let label = if a.default {
            format!("**{}** (default)", a.label)
        } else {
            a.label.clone()
        };
        let _ = write!(out, "| {} | {label} | {checked} |", a.kind);
        for l in &libraries {
            match a.measures.iter().find(|m| &m.library == l) {
                Some(m) if l == "generic" => {
                    let r = &m.report;
                    let t = r.transistors.map_or("-".into(), |t| t.to_string());
                    let d = r.depth_gates.map_or("-".into(), |d| d.to_string());
                    let _ = write!(out, " {t} | {d} |");
                }
                Some(m) => {
                    let r = &m.report;
                    let a = r.area_um2.map_or("-".into(), |a| format!("{a:.1}"));
                    let d = r.delay_ps.map_or("-".into(), |d| format!("{d:.1}"));
                    let _ = write!(out, " {a} | {d} |");
                }
                None => out.push_str(" - | - |"),
            }
        }
        out.push('\n');
    }
    out
}

/// Writes `structures.json` and `structures.md` into `out`; returns their paths.
pub fn write_outputs(results: &StructureResults, out: &Path) -> Result<Vec<PathBuf>, Error> {
    let json = out.join("structures.json");
    let mut text = serde_json::to_string_pretty(results).unwrap_or_else(|e| unreachable!("{e}"));
    text.push('\n');
    crate::output::write_file(&json, text.as_bytes())?;
    let md = out.join("structures.md");
    crate::output::write_file(&md, to_markdown(results).as_bytes())?;
    Ok(vec![json, md])
}
