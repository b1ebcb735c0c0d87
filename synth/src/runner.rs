//! Running Yosys on a request and turning its reports into a [`SynthReport`].

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::abc_constr;
use crate::closure::{self, ClosureTry};
use crate::drive;
use crate::error::Error;
use crate::latches;
use crate::liberty::{self, Liberty};
use crate::macros::{self, MacroLiberty};
use crate::opensta::{self, Resized, Sta, StaRun};
use crate::parse;
use crate::report::{Mode, SynthReport, SynthRequest, Timing, FORMAT_VERSION};
use crate::script;
use crate::sdc::{Constraints, WireLoad, SDC_FILE};
use crate::tool::{self, Yosys};

/// The Yosys log file in the work folder.
pub const LOG_FILE: &str = "synth.log";
/// The JSON report written next to the script.
pub const REPORT_FILE: &str = "report.json";
/// `stat -json` after `synth`, before mapping: the flip-flop count comes from it.
const STAT_PRE_FILE: &str = "stat_pre.json";
/// `stat -json -tech cmos` of the mapped netlist (generic mode).
const STAT_FILE: &str = "stat.json";
/// `stat -liberty` of the mapped netlist (liberty mode): text, since the chip area is not in
/// Yosys 0.23's `stat -json`.
const STAT_LIBERTY_FILE: &str = "stat.txt";
/// `ltp -noff` of the mapped netlist (generic mode).
const LTP_FILE: &str = "ltp.txt";
/// The `abc` pass output with ABC's `stime -p` (liberty mode).
const ABC_OUT_FILE: &str = "abc.txt";
/// The mapped netlist as Verilog, which OpenSTA reads in liberty mode.
const NETLIST_VERILOG: &str = "netlist.v";
/// The folder under the work folder that holds a closure run's mappings.
pub const CLOSURE_DIR: &str = "closure";
/// Outputs of an earlier run that must not be mistaken for this run's (`netlist.json` is an
/// older version's).
const OUTPUTS: [&str; 16] = [
    LOG_FILE,
    REPORT_FILE,
    STAT_PRE_FILE,
    STAT_FILE,
    STAT_LIBERTY_FILE,
    LTP_FILE,
    ABC_OUT_FILE,
    "abc_static.txt",
    NETLIST_VERILOG,
    opensta::SIZED_NETLIST,
    "netlist.json",
    SDC_FILE,
    opensta::SCRIPT_FILE,
    opensta::REPORT_FILE,
    opensta::LOG_FILE,
    abc_constr::CONSTR_FILE,
];

/// Runs the generic flow (no liberty) or the default liberty flow on `req` and returns the
/// parsed report; the script, log, Yosys reports, mapped `netlist.v` and `report.json`
/// stay in `req.work_dir`. Same as [`synthesize_with`] with no target and no static input.
///
/// Errors: [`Error::YosysMissing`], [`Error::Liberty`] (naming the path),
/// [`Error::Rejected`] (with Yosys' `ERROR:` line), [`Error::Input`],
/// [`Error::InvalidRequest`], [`Error::WorkDir`], [`Error::Unmapped`], [`Error::Parse`],
/// [`Error::Timing`].
pub fn synthesize(req: &SynthRequest) -> Result<SynthReport, Error> {
    synthesize_with(req, &Timing::default())
}

/// Checks a timing request: a positive finite target, which needs a liberty file, and
/// static inputs named like Verilog ports.
fn check_timing(timing: &Timing, liberty: bool) -> Result<(), Error> {
    if let Some(t) = timing.target_ps {
        if !(t.is_finite() && t > 0.0) {
            return Err(Error::InvalidRequest(format!(
                "delay target {t} ps is not a positive number"
            )));
        }
        if !liberty {
            return Err(Error::InvalidRequest(
                "a delay target needs a liberty file (the generic flow has no delays)".into(),
            ));
        }
    }
    if let Some(t) = timing.clock_ps {
        if !(t.is_finite() && t > 0.0) {
            return Err(Error::InvalidRequest(format!(
                "clock period {t} ps is not a positive number"
            )));
        }
    }
    if timing.closure && timing.target_ps.is_none() {
        return Err(Error::InvalidRequest(
            "timing closure needs a delay target (it keeps the best mapping for one)".into(),
        ));
    }
    for p in timing.static_inputs.iter().chain(&timing.clock) {
        let mut chars = p.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            return Err(Error::InvalidRequest(format!(
                "port {p:?} is not a port name (letters, digits, `_`, `$`)"
            )));
        }
    }
    Ok(())
}

/// [`synthesize`] with a [`Timing`] request: with `target_ps` the liberty flow is the
/// timing-driven one (`scripts/timing.ys`), and the logic that only `static_inputs` reach is
/// mapped apart, for area. Both liberty flows have OpenSTA time the mapped netlist at the clock
/// of `timing` ([`SynthReport::sta`]: worst slack, the smallest period, the worst path from
/// each input port).
///
/// With [`Timing::closure`] the timing-driven flow runs once per [`closure::VARIANTS`] entry,
/// each in `<work_dir>/closure/<variant>/`, and the report is the kept mapping's ([`closure`]
/// says which), with every mapping listed in [`SynthReport::closure`]; its `netlist.v` is
/// copied into the work folder.
pub fn synthesize_with(req: &SynthRequest, timing: &Timing) -> Result<SynthReport, Error> {
    check_top(&req.top)?;
    check_timing(timing, req.liberty.is_some())?;
    if req.files.is_empty() {
        return Err(Error::InvalidRequest("no Verilog files given".into()));
    }
    match timing.target_ps {
        Some(target) if timing.closure => synthesize_closure(req, timing, target),
        _ => synthesize_once(req, timing, true),
    }
}

/// The timing-driven flow mapped with every [`closure::VARIANTS`] entry, as many at once as
/// rayon's pool has threads (one per core), keeping the mapping [`closure::choose`] picks by
/// OpenSTA's smallest clock period against the clock.
fn synthesize_closure(
    req: &SynthRequest,
    timing: &Timing,
    target_ps: f64,
) -> Result<SynthReport, Error> {
    if let Some(lib) = &req.liberty {
        liberty::check_liberty(lib)?;
    }
    tool::find_yosys()?;
    let work = prepare_work_dir(req)?;
    let folder = |variant: &closure::Variant| work.join(CLOSURE_DIR).join(variant.name);
    let reports = closure::VARIANTS
        .par_iter()
        .map(|variant| {
            let request = SynthRequest {
                work_dir: folder(variant),
                ..req.clone()
            };
            let variant_timing = Timing {
                target_ps: Some(target_ps * variant.target_scale),
                clock_ps: Some(timing.period_ps()),
                closure: false,
                ..timing.clone()
            };
            synthesize_once(&request, &variant_timing, variant.dc2)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let period = |r: &SynthReport| r.sta.as_ref().and_then(|s| s.min_period_ps).unwrap_or(0.0);
    let figures: Vec<(f64, f64)> = reports
        .iter()
        .map(|r| (r.area_um2.unwrap_or(0.0), period(r)))
        .collect();
    let kept = closure::choose(timing.period_ps(), &figures).expect("there is a variant");
    let tries = closure::VARIANTS
        .iter()
        .zip(&reports)
        .enumerate()
        .map(|(i, (variant, r))| ClosureTry {
            variant: variant.name.to_string(),
            dc2: variant.dc2,
            abc_target_ps: target_ps * variant.target_scale,
            area_um2: r.area_um2.unwrap_or(0.0),
            delay_ps: r.delay_ps.unwrap_or(0.0),
            min_period_ps: period(r),
            kept: i == kept,
            work_dir: folder(variant),
        })
        .collect();
    let mut report = reports.into_iter().nth(kept).expect("kept is an index");
    let from = folder(&closure::VARIANTS[kept]).join(NETLIST_VERILOG);
    std::fs::copy(&from, work.join(NETLIST_VERILOG)).map_err(|source| Error::WorkDir {
        path: from.clone(),
        source,
    })?;
    let sized = from.with_file_name(opensta::SIZED_NETLIST);
    if sized.exists() {
        std::fs::copy(&sized, work.join(opensta::SIZED_NETLIST)).map_err(|source| {
            Error::WorkDir {
                path: sized.clone(),
                source,
            }
        })?;
    }
    report.target_ps = Some(target_ps);
    report.closure = tries;
    write_report(&work, &report)?;
    Ok(report)
}

/// Creates the work folder, removes the outputs of an earlier run from it, and returns its
/// canonical path.
fn prepare_work_dir(req: &SynthRequest) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(&req.work_dir).map_err(|source| Error::WorkDir {
        path: req.work_dir.clone(),
        source,
    })?;
    let work = std::fs::canonicalize(&req.work_dir).map_err(|source| Error::WorkDir {
        path: req.work_dir.clone(),
        source,
    })?;
    for f in OUTPUTS {
        let _ = std::fs::remove_file(work.join(f));
    }
    Ok(work)
}

/// Writes `report` as `report.json` in `work`.
fn write_report(work: &Path, report: &SynthReport) -> Result<(), Error> {
    let mut json = serde_json::to_string_pretty(report).expect("a report always serializes");
    json.push('\n');
    write(&work.join(REPORT_FILE), &json)
}

/// One run of the flow `timing` asks for, the timing-driven ABC script with or without `dc2`.
fn synthesize_once(req: &SynthRequest, timing: &Timing, dc2: bool) -> Result<SynthReport, Error> {
    let files = req
        .files
        .iter()
        .map(|f| {
            std::fs::canonicalize(f).map_err(|source| Error::Input {
                path: f.clone(),
                source,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;

    // Refuse a bad liberty file or a missing Yosys or OpenSTA before the work folder is
    // created.
    if let Some(lib) = &req.liberty {
        liberty::check_liberty(lib)?;
        if let WireLoad::Model(model) = &timing.wire_load {
            let models = liberty::wire_load_models(lib)?;
            if !models.contains(model) {
                return Err(Error::WireLoad {
                    model: model.clone(),
                    liberty: lib.clone(),
                    models,
                });
            }
        }
    } else if !req.macros.is_empty() {
        return Err(Error::InvalidRequest(
            "macro liberty files need a liberty file for the standard cells".into(),
        ));
    }
    for m in &req.macros {
        liberty::check_liberty(m)?;
    }
    tool::find_yosys()?;
    let sta: Option<Sta> = req
        .liberty
        .as_ref()
        .map(|_| opensta::find_sta())
        .transpose()?;
    let work = prepare_work_dir(req)?;
    let lib = match &req.liberty {
        Some(p) => Some(liberty::prepare(p, &work)?),
        None => None,
    };
    let macros = req
        .macros
        .iter()
        .map(|m| macros::macro_liberty(m, &work))
        .collect::<Result<Vec<_>, _>>()?;
    let macro_plain: Vec<PathBuf> = macros.iter().map(|m| m.plain.clone()).collect();
    let yosys = tool::find_yosys()?;
    // The liberty working copy's text: the latch map, and ABC's boundary constraints.
    let lib_text = match &lib {
        Some(l) => Some(
            std::fs::read_to_string(&l.plain).map_err(|e| Error::Liberty {
                path: l.given.clone(),
                reason: e.to_string(),
            })?,
        ),
        None => None,
    };
    if let (Some(l), Some(text)) = (&lib, &lib_text) {
        let map = latches::techmap(text).map_err(|reason| Error::Liberty {
            path: l.given.clone(),
            reason,
        })?;
        write(&work.join(latches::LATCH_MAP_FILE), &map)?;
    }

    let script_text = match (&lib, timing.target_ps) {
        (None, _) => script::generic(&files, &req.top),
        (Some(l), None) => {
            write(&work.join(script::ABC_FILE), script::LIBERTY_ABC)?;
            script::liberty(&files, &req.top, &l.plain, &macro_plain, script::ABC_FILE)
        }
        (Some(l), Some(target)) => {
            write(&work.join(script::ABC_FILE), script::LIBERTY_ABC)?;
            // ABC buffers and sizes with the wire-load model OpenSTA times with.
            let constr = match timing.wire_load {
                WireLoad::None => None,
                WireLoad::Library | WireLoad::Model(_) => {
                    let text = lib_text.as_deref().unwrap_or_default();
                    let constr =
                        abc_constr::constraints(text).map_err(|reason| Error::Liberty {
                            path: l.given.clone(),
                            reason,
                        })?;
                    let path = work.join(abc_constr::CONSTR_FILE);
                    write(&path, &constr)?;
                    Some(path)
                }
            };
            let abc = script::timing_abc(target, dc2, constr.as_deref());
            write(&work.join(script::TIMING_ABC_FILE), &abc)?;
            let cone = script::static_cone(&timing.static_inputs, &l.plain);
            script::timing(
                &files,
                &req.top,
                &l.plain,
                &macro_plain,
                script::TIMING_ABC_FILE,
                &cone,
            )
        }
    };
    let script_path = work.join(script::SCRIPT_FILE);
    write(&script_path, &script_text)?;

    run_yosys(&yosys, &work, &req.top)?;
    let mut report = collect(req, &work, &yosys, lib.as_ref(), &macros, script_path)?;
    report.target_ps = timing.target_ps;
    report.static_inputs = timing.static_inputs.clone();
    if let (Some(l), Some(sta)) = (&lib, &sta) {
        let constraints = Constraints {
            clock_port: timing.clock.clone(),
            period_ps: timing.period_ps(),
            static_inputs: timing.static_inputs.clone(),
            wire_load: timing.wire_load.clone(),
        };
        // The timing-driven flow gives registers with a large fanout a stronger cell.
        let stronger = match (timing.target_ps, &lib_text) {
            (Some(_), Some(text)) => {
                drive::stronger_registers(text).map_err(|reason| Error::Liberty {
                    path: l.given.clone(),
                    reason,
                })?
            }
            _ => Vec::new(),
        };
        let run = StaRun {
            work: &work,
            top: &req.top,
            liberty: &l.plain,
            ps_per_unit: liberty::time_unit_ps(&l.plain)?,
            macros: &macros,
            constraints: &constraints,
            stronger: &stronger,
        };
        let sta = opensta::run(sta, &run)?;
        count_resized(&mut report, &sta.resized, &stronger);
        report.sta = Some(sta);
    }
    write_report(&work, &report)?;
    Ok(report)
}

/// Counts the registers OpenSTA gave a stronger cell ([`drive`]) in the report's cells and
/// area, as Yosys counted the netlist before.
fn count_resized(report: &mut SynthReport, resized: &[Resized], stronger: &[drive::Stronger]) {
    for r in resized {
        let Some(s) = stronger
            .iter()
            .find(|s| s.cell == r.from && s.stronger == r.to)
        else {
            continue;
        };
        if let Some(n) = report.cells.get_mut(&r.from) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                report.cells.remove(&r.from);
            }
        }
        *report.cells.entry(r.to.clone()).or_insert(0) += 1;
        if let Some(area) = &mut report.area_um2 {
            *area += s.stronger_area - s.cell_area;
        }
    }
}

/// Refuses top names that would break the script (whitespace, `;`, quotes, `#`).
pub(crate) fn check_top(top: &str) -> Result<(), Error> {
    if top.is_empty() {
        return Err(Error::InvalidRequest("empty top module name".into()));
    }
    if top
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, ';' | '"' | '#'))
    {
        return Err(Error::InvalidRequest(format!(
            "top module name {top:?} contains whitespace, `;`, `\"` or `#`"
        )));
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|source| Error::WorkDir {
        path: path.to_path_buf(),
        source,
    })
}

/// Shell-quotes `s` when it holds anything beyond a conservative safe set.
pub(crate) fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./+=:,@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The arguments Yosys runs with, relative to the work folder.
const YOSYS_ARGS: [&str; 5] = ["-q", "-l", LOG_FILE, "-s", script::SCRIPT_FILE];

/// The shell command that reproduces the run.
fn command_line(yosys: &Yosys, work: &Path) -> String {
    format!(
        "cd {} && {} {}",
        shell_quote(&work.to_string_lossy()),
        shell_quote(&yosys.program.to_string_lossy()),
        YOSYS_ARGS.join(" ")
    )
}

fn run_yosys(yosys: &Yosys, work: &Path, top: &str) -> Result<(), Error> {
    let out = hdl_util::children::output(yosys.command().args(YOSYS_ARGS).current_dir(work))
        .map_err(|e| Error::YosysMissing {
            detail: format!("{} does not run: {e}", yosys.program.display()),
        })?;
    if out.status.success() {
        return Ok(());
    }
    let log = work.join(LOG_FILE);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let message = parse::parse_yosys_error(&stderr)
        .or_else(|| parse::parse_yosys_error(&std::fs::read_to_string(&log).ok()?))
        .unwrap_or_else(|| {
            let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            format!("Yosys exited with {}: {}", out.status, tail.join(" | "))
        });
    Err(Error::Rejected {
        top: top.to_string(),
        message,
        log,
    })
}

/// Reads a report file Yosys wrote; a missing one is a parse error naming it.
fn read_report(work: &Path, name: &str) -> Result<(String, PathBuf), Error> {
    let path = work.join(name);
    let text = std::fs::read_to_string(&path).map_err(|_| Error::Parse {
        what: format!("{name} (not written)"),
        file: path.clone(),
    })?;
    Ok((text, path))
}

fn collect(
    req: &SynthRequest,
    work: &Path,
    yosys: &Yosys,
    lib: Option<&Liberty>,
    macros: &[MacroLiberty],
    script: PathBuf,
) -> Result<SynthReport, Error> {
    let parse_err = |what: &str, file: &Path| Error::Parse {
        what: what.to_string(),
        file: file.to_path_buf(),
    };

    let (pre, pre_path) = read_report(work, STAT_PRE_FILE)?;
    let pre = parse::parse_stat_json(&pre, &req.top).ok_or_else(|| parse_err("stat", &pre_path))?;
    let registers = parse::count_flip_flops(&pre.cells);

    let (stat, stat_path) = if lib.is_some() {
        let (text, path) = read_report(work, STAT_LIBERTY_FILE)?;
        let stat = parse::parse_stat(&text, &req.top).ok_or_else(|| parse_err("stat", &path))?;
        (stat, path)
    } else {
        let (text, path) = read_report(work, STAT_FILE)?;
        let stat =
            parse::parse_stat_json(&text, &req.top).ok_or_else(|| parse_err("stat", &path))?;
        (stat, path)
    };

    let mut report = SynthReport {
        format_version: FORMAT_VERSION,
        top: req.top.clone(),
        mode: if lib.is_some() {
            Mode::Liberty
        } else {
            Mode::Generic
        },
        yosys_version: yosys.version.clone(),
        liberty: lib.map(|l| format!("{} ({})", l.library, l.given.display())),
        script,
        command: command_line(yosys, work),
        cells: stat.cells.clone(),
        cell_count: stat.cell_count,
        transistors: None,
        transistors_partial: false,
        depth_gates: None,
        area_um2: None,
        macro_area_um2: None,
        delay_ps: None,
        registers,
        reg_delay_ps: None,
        fmax_mhz: None,
        critical_path: None,
        target_ps: None,
        static_inputs: Vec::new(),
        sta: None,
        closure: Vec::new(),
    };

    match lib {
        None => {
            let t = stat
                .transistors
                .ok_or_else(|| parse_err("Estimated number of transistors", &stat_path))?;
            report.transistors = Some(t.count);
            report.transistors_partial = t.partial;
            let (ltp, ltp_path) = read_report(work, LTP_FILE)?;
            report.depth_gates =
                Some(parse::parse_ltp(&ltp).ok_or_else(|| parse_err("ltp length", &ltp_path))?);
        }
        Some(_) => {
            let unmapped: Vec<String> = stat
                .cells
                .iter()
                .filter(|(t, _)| t.starts_with('$'))
                .map(|(t, n)| format!("{t} x{n}"))
                .collect();
            if !unmapped.is_empty() {
                return Err(Error::Unmapped {
                    cells: unmapped.join(", "),
                    log: work.join(LOG_FILE),
                });
            }
            report.area_um2 = Some(stat.area.unwrap_or(0.0));
            if stat.area.is_none() && stat.cell_count > 0 {
                return Err(parse_err("Chip area", &stat_path));
            }
            if !macros.is_empty() {
                let area = |cell: &str| macros.iter().find_map(|m| m.cells.get(cell).copied());
                report.macro_area_um2 = Some(
                    stat.cells
                        .iter()
                        .filter_map(|(t, n)| Some(area(t)? * *n as f64))
                        .sum(),
                );
            }
            let (abc, abc_path) = read_report(work, ABC_OUT_FILE)?;
            let timing = parse::parse_abc_timing(&abc)
                .ok_or_else(|| parse_err("ABC stime Delay", &abc_path))?;
            report.delay_ps = Some(timing.delay_ps);
            report.depth_gates = Some(timing.path.as_ref().map_or(0, |p| p.cells));
            report.critical_path = timing.path;
            if registers > 0 {
                report.reg_delay_ps = Some(timing.delay_ps);
                if timing.delay_ps > 0.0 {
                    report.fmax_mhz = Some(1e6 / timing.delay_ps);
                }
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("/usr/bin/yosys"), "/usr/bin/yosys");
        assert_eq!(shell_quote("/tmp/a b"), "'/tmp/a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn timing_requests() {
        let t = |target_ps, inputs: &[&str]| Timing {
            target_ps,
            static_inputs: inputs.iter().map(|s| s.to_string()).collect(),
            ..Timing::default()
        };
        assert!(check_timing(&t(Some(150.0), &["cfg_i", "_a$1"]), true).is_ok());
        assert!(check_timing(&t(None, &[]), false).is_ok());
        for (bad, liberty, says) in [
            (t(Some(0.0), &[]), true, "not a positive number"),
            (t(Some(-5.0), &[]), true, "not a positive number"),
            (t(Some(f64::NAN), &[]), true, "not a positive number"),
            (t(Some(150.0), &[]), false, "needs a liberty file"),
            (t(None, &["cfg i"]), true, "not a port name"),
            (t(None, &["1x"]), true, "not a port name"),
            (t(None, &["a;b"]), true, "not a port name"),
            (
                Timing {
                    clock: Some("clk i".into()),
                    ..t(None, &[])
                },
                true,
                "not a port name",
            ),
            (
                Timing {
                    clock_ps: Some(0.0),
                    ..t(None, &[])
                },
                true,
                "clock period 0 ps",
            ),
            (
                Timing {
                    closure: true,
                    ..t(None, &[])
                },
                true,
                "closure needs a delay target",
            ),
        ] {
            let e = check_timing(&bad, liberty).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
        }
    }

    #[test]
    fn top_names() {
        assert!(check_top("bank_hash").is_ok());
        assert!(check_top("\\escaped$name").is_ok());
        for bad in ["", "a b", "a;b", "a\"", "a#b", "a\nb"] {
            assert!(
                matches!(check_top(bad), Err(Error::InvalidRequest(_))),
                "{bad:?}"
            );
        }
    }
}
