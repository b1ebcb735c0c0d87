//! Static timing of a mapped netlist with OpenSTA (`sta`, Debian's `opensta`).
//!
//! The liberty flows write the netlist OpenSTA reads (`netlist.v`: cells named after the
//! registers they drive, nets split into bits, no concatenated `assign`, which OpenSTA 2.0.17's
//! Verilog reader rejects), the constraints ([`crate::sdc`]) and `sta.tcl`
//! (`scripts/sta.tcl`), and run `sta -no_splash -exit sta.tcl` in the work folder. The script
//! writes `sta.txt`: OpenSTA's own `report_checks` of the worst path, of the worst path from each
//! input port, from the registers (flip-flops and latches) and from the macros, its
//! `report_check_types -min_period -min_pulse_width`, the worst slack at each clock period it
//! tried while looking for the smallest period with no negative slack, and the static inputs'
//! paths with their false paths lifted. This module reads that file back; every number in a
//! [`StaReport`] is one OpenSTA printed.
//!
//! What OpenSTA 2.0.17 does not do, and this crate does instead (see
//! [`crate::macros::macro_liberty`]): it ignores a clock pin's `minimum_period` and `min_pulse_width` timing groups, which is how
//! OpenRAM's `.lib` states a macro's limits, and reads only the pin attributes `min_period`,
//! `min_pulse_width_high` and `min_pulse_width_low`; the working copy of a macro's liberty file
//! gets those attributes, so that OpenSTA checks the limits itself.
//!
//! Any line OpenSTA prints that starts with `Error:` is a failure ([`Error::Sta`]): OpenSTA
//! reports a bad netlist statement or an unknown object that way and still exits 0.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde::{Deserialize, Serialize};

use crate::drive::{Stronger, FANOUT_LIMIT};
use crate::error::Error;
use crate::macros::{macro_liberty, MacroLiberty};
use crate::sdc::{Constraints, WireLoad, SDC_FILE};

/// `scripts/sta.tcl`: the OpenSTA script, filled in by [`script`].
pub const STA_TCL: &str = include_str!("../scripts/sta.tcl");
/// `scripts/sta_size.tcl`: the register sizing of the timing-driven flow ([`crate::drive`]),
/// filled in by `size_registers` and put into [`STA_TCL`].
pub const STA_SIZE_TCL: &str = include_str!("../scripts/sta_size.tcl");
/// The script's file name in the work folder.
pub const SCRIPT_FILE: &str = "sta.tcl";
/// OpenSTA's reports, which [`parse_report`] reads.
pub const REPORT_FILE: &str = "sta.txt";
/// What OpenSTA printed while it ran.
pub const LOG_FILE: &str = "sta.log";
/// The netlist OpenSTA timed, where it gave registers their next drive strength
/// ([`crate::drive`]).
pub const SIZED_NETLIST: &str = "netlist_sized.v";
/// The environment variable that overrides where `sta` is found.
pub const STA_ENV: &str = "STA";
/// Digits after the point in OpenSTA's reports (0.1 ps at a `1ns` time unit).
const DIGITS: u32 = 4;
/// How many clock periods the search for the smallest one tries at most.
const MAX_TRIES: u32 = 12;
/// When the search stops: the worst slack within this many ps of zero.
const TOLERANCE_PS: f64 = 0.05;

/// An OpenSTA binary that answered `-version`.
#[derive(Debug, Clone)]
pub(crate) struct Sta {
    program: PathBuf,
    /// `OpenSTA <version>`.
    pub version: String,
}

/// Finds OpenSTA: `$STA`, else `sta` on `PATH`, which must print its version for `-version`.
pub(crate) fn find_sta() -> Result<Sta, Error> {
    let tool =
        hdl_util::ExternalTool::find("sta", STA_ENV, "opensta").map_err(|e| Error::StaMissing {
            detail: e.to_string(),
        })?;
    let out = hdl_util::children::output(tool.command().arg("-version").stdin(Stdio::null()))
        .map_err(|e| Error::StaMissing {
            detail: format!("{} does not run: {e}", tool.path.display()),
        })?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let looks_like_one = !version.is_empty()
        && version.len() < 40
        && version.chars().all(|c| c.is_ascii_digit() || c == '.');
    if !(out.status.success() && looks_like_one) {
        return Err(Error::StaMissing {
            detail: format!(
                "{} did not answer `-version` with a version number",
                tool.path.display()
            ),
        });
    }
    Ok(Sta {
        program: tool.path,
        version: format!("OpenSTA {version}"),
    })
}

/// The worst path of one group, as OpenSTA reported it (times in ps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StaPath {
    /// The group: an input port's name (`addr_i`), `flip-flops` (every register, latches
    /// included) or `macros` (every macro instance); for the design's worst path, the group it
    /// belongs to (`worst` if none).
    pub from: String,
    /// Where the path starts: an input port bit (`addr_i[9]`), a register, named after the net
    /// it drives where the RTL named it (`bank_q[2]`; else its instance, as in `sta.txt`), or a
    /// macro instance (`u_bank0.u_sram`).
    pub start: String,
    /// Where it ends: an output port bit or a register or macro instance.
    pub end: String,
    /// OpenSTA's path group: the clock's name, or `**async_default**` for a path into an
    /// asynchronous reset (a recovery check).
    pub path_group: String,
    /// Required time minus arrival: negative when the path does not fit the clock.
    pub slack_ps: f64,
    /// When the data arrives at the end, from time 0 (the launching clock edge's time included:
    /// a macro's read data launched by the falling edge starts at half the period).
    pub arrival_ps: f64,
    /// When it must arrive: the capturing edge less the end's setup.
    pub required_ps: f64,
    /// The path's own delay: `arrival_ps` less its launching edge's time, clock-to-Q included.
    pub delay_ps: f64,
    /// The start register's or macro's clock-to-output delay, when the path starts at one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_to_q_ps: Option<f64>,
    /// The end's setup (or recovery) time, or the output's external delay.
    pub setup_ps: f64,
    /// Cells along the path, the start and end registers not counted.
    pub cells: u32,
    /// True for a static input's group: its false path lifted to report it; never counted in
    /// the worst slack or the achievable clock.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub false_path: bool,
}

/// A register given its next drive strength.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resized {
    /// The instance.
    pub instance: String,
    /// The cell mapping chose.
    pub from: String,
    /// The cell it now is.
    pub to: String,
}

/// A clock pin's own check (a macro's minimum period or pulse width).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClockPinCheck {
    /// The clock pin (`u_bank0.u_sram/clk0`).
    pub pin: String,
    /// `min_period` or `min_pulse_width`.
    pub check: String,
    /// What the pin needs: the period, or the pulse width, in ps.
    pub required_ps: f64,
    /// What the clock gives it at the constrained period.
    pub actual_ps: f64,
    /// `actual_ps - required_ps`.
    pub slack_ps: f64,
    /// The smallest clock period that passes the check, in ps.
    pub min_period_ps: f64,
}

/// What OpenSTA found, with what reproduces it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StaReport {
    /// `OpenSTA <version>`.
    pub tool: String,
    /// The clock's name: its port's, or `virtual_clk` for a block without one.
    pub clock: String,
    /// The clock period the constraints give, in ps.
    pub period_ps: f64,
    /// How the wires were estimated.
    pub wire_load: WireLoad,
    /// The worst slack at that period, static inputs' paths excluded; `None` when no path is
    /// constrained.
    pub worst_slack_ps: Option<f64>,
    /// The worst path.
    pub critical_path: Option<StaPath>,
    /// The smallest clock period with no negative slack and every clock-pin check met, in ps:
    /// what the netlist can be clocked at, clock-to-Q and setup included (`None` without a
    /// constrained path). OpenSTA itself retimes the netlist at each period tried.
    pub min_period_ps: Option<f64>,
    /// `1e6 / min_period_ps`.
    pub fmax_mhz: Option<f64>,
    /// Whether the period is met: no negative slack and every clock-pin check met.
    pub meets: bool,
    /// The worst path from each input port, from the registers, from the macros, then from
    /// each static input (`false_path`).
    pub groups: Vec<StaPath>,
    /// The clock pins' own checks, the worst of each kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clock_pin_checks: Vec<ClockPinCheck>,
    /// The registers OpenSTA gave their next drive strength before timing ([`crate::drive`];
    /// the timing-driven flow only), in the netlist [`SIZED_NETLIST`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resized: Vec<Resized>,
    /// Cells no liberty file defines (a macro given without its `.lib`): OpenSTA keeps their
    /// instances as black boxes, and no path into or out of them is timed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub black_boxes: Vec<String>,
    /// The constraints OpenSTA read.
    pub sdc: PathBuf,
    /// OpenSTA's reports.
    pub report: PathBuf,
    /// The shell command that reruns OpenSTA and rewrites the reports.
    pub command: String,
}

impl StaReport {
    /// The worst path of group `from` (an input port, `flip-flops`, `macros`).
    pub fn group(&self, from: &str) -> Option<&StaPath> {
        self.groups.iter().find(|p| p.from == from)
    }
}

/// Times `<work>/netlist.v` (top module `top`) with OpenSTA against `constraints`: the
/// standard cells of `liberty` (plain or gzip) and the macros of the liberty files `macros`
/// (their working copies written into `work`). Writes `constraints.sdc`, `sta.tcl`, `sta.txt`
/// and `sta.log` into `work`.
///
/// Errors: [`Error::StaMissing`], [`Error::Liberty`], [`Error::WorkDir`], [`Error::Sta`] (an
/// `Error:` line), [`Error::Parse`].
pub fn time_netlist(
    work: &Path,
    top: &str,
    liberty: &Path,
    macros: &[PathBuf],
    constraints: &Constraints,
) -> Result<StaReport, Error> {
    let sta = find_sta()?;
    let macros = macros
        .iter()
        .map(|m| macro_liberty(m, work))
        .collect::<Result<Vec<_>, _>>()?;
    run(
        &sta,
        &StaRun {
            work,
            top,
            liberty,
            ps_per_unit: crate::liberty::time_unit_ps(liberty)?,
            macros: &macros,
            constraints,
            stronger: &[],
        },
    )
}

/// What one OpenSTA run needs.
pub(crate) struct StaRun<'a> {
    /// The work folder with `netlist.v`.
    pub work: &'a Path,
    /// The top module.
    pub top: &'a str,
    /// The standard cells' liberty file.
    pub liberty: &'a Path,
    /// The picoseconds in the library's time unit.
    pub ps_per_unit: f64,
    /// The macros' working copies.
    pub macros: &'a [MacroLiberty],
    /// The constraints.
    pub constraints: &'a Constraints,
    /// The register cells OpenSTA may give their next drive strength ([`crate::drive`]):
    /// empty outside the timing-driven flow.
    pub stronger: &'a [Stronger],
}

/// Quotes a path for Tcl (braces keep spaces and brackets literal).
fn tcl_path(path: &Path) -> String {
    format!("{{{}}}", path.display())
}

/// Fills `scripts/sta.tcl` for `run`.
pub(crate) fn script(run: &StaRun) -> String {
    let c = run.constraints;
    let mut read = format!("read_liberty {}", tcl_path(run.liberty));
    for m in run.macros {
        read.push_str(&format!("\nread_liberty {}", tcl_path(&m.plain)));
    }
    let macro_cells: Vec<&str> = run
        .macros
        .iter()
        .flat_map(|m| m.cells.keys().map(String::as_str))
        .collect();
    let unit = run.ps_per_unit;
    STA_TCL
        .replace("{{READ_LIBERTY}}", &read)
        .replace("{{TOP}}", run.top)
        .replace("{{CLOCK_AT_PERIOD}}", &c.create_clock("$p"))
        .replace("{{CLOCK_PORTS}}", c.clock_port.as_deref().unwrap_or(""))
        .replace("{{MACRO_CELLS}}", &macro_cells.join(" "))
        .replace("{{DIGITS}}", &DIGITS.to_string())
        .replace("{{STATIC_INPUTS}}", &c.static_inputs.join(" "))
        .replace("{{SIZE_REGISTERS}}", &size_registers(run.stronger))
        .replace("{{PERIOD}}", &format!("{}", c.period_ps / unit))
        .replace("{{MAX_TRIES}}", &MAX_TRIES.to_string())
        .replace("{{TOLERANCE}}", &format!("{}", TOLERANCE_PS / unit))
}

/// The script's register sizing ([`crate::drive`]): nothing without stronger cells; else every
/// register whose output drives more than [`FANOUT_LIMIT`] pins replaced by its next drive
/// strength, each change listed after `@resized` (instance, cell, new cell), and the netlist
/// OpenSTA then times written to [`SIZED_NETLIST`].
fn size_registers(stronger: &[Stronger]) -> String {
    if stronger.is_empty() {
        return String::new();
    }
    let pairs: Vec<String> = stronger
        .iter()
        .map(|s| format!("{} {}", s.cell, s.stronger))
        .collect();
    STA_SIZE_TCL
        .replace("{{FANOUT_LIMIT}}", &FANOUT_LIMIT.to_string())
        .replace("{{SIZED_NETLIST}}", SIZED_NETLIST)
        .replace("{{STRONGER}}", &pairs.join(" "))
}

/// Writes the constraints and the script, runs OpenSTA and reads its reports.
pub(crate) fn run(sta: &Sta, run: &StaRun) -> Result<StaReport, Error> {
    let work = run.work;
    let write = |name: &str, text: &str| {
        let path = work.join(name);
        std::fs::write(&path, text).map_err(|source| Error::WorkDir {
            path: path.clone(),
            source,
        })
    };
    for f in [REPORT_FILE, LOG_FILE] {
        let _ = std::fs::remove_file(work.join(f));
    }
    write(SDC_FILE, &run.constraints.sdc(run.ps_per_unit))?;
    write(SCRIPT_FILE, &script(run))?;
    let log_path = work.join(LOG_FILE);
    let out = hdl_util::children::output(
        std::process::Command::new(&sta.program)
            .args(["-no_splash", "-exit", SCRIPT_FILE])
            .current_dir(work)
            .stdin(Stdio::null()),
    )
    .map_err(|e| Error::StaMissing {
        detail: format!("{} does not run: {e}", sta.program.display()),
    })?;
    let log =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    write(LOG_FILE, &log)?;
    if let Some(line) = log.lines().find(|l| l.trim_start().starts_with("Error:")) {
        return Err(Error::Sta {
            message: line.trim().to_string(),
            log: log_path,
        });
    }
    if !out.status.success() {
        return Err(Error::Sta {
            message: format!("OpenSTA exited with {}", out.status),
            log: log_path,
        });
    }
    let report_path = work.join(REPORT_FILE);
    let text = std::fs::read_to_string(&report_path).map_err(|_| Error::Parse {
        what: format!("{REPORT_FILE} (not written)"),
        file: report_path.clone(),
    })?;
    let parsed = parse_report(&text, run.ps_per_unit).map_err(|reason| Error::Parse {
        what: reason,
        file: report_path.clone(),
    })?;
    let mut parsed = parsed;
    parsed.black_boxes = black_boxes(&log);
    Ok(parsed.into_report(
        sta,
        run.constraints,
        work.join(SDC_FILE),
        report_path,
        format!(
            "cd {} && {} -no_splash -exit {SCRIPT_FILE}",
            crate::runner::shell_quote(&work.to_string_lossy()),
            crate::runner::shell_quote(&sta.program.to_string_lossy())
        ),
    ))
}

/// What `sta.txt` holds, in ps.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Parsed {
    worst: Option<StaPath>,
    groups: Vec<StaPath>,
    checks: Vec<ClockPinCheck>,
    /// (period, worst slack) of every try, the constrained period first.
    tries: Vec<(f64, f64)>,
    /// Cells OpenSTA made black boxes of.
    black_boxes: Vec<String>,
    /// Registers given their next drive strength.
    resized: Vec<Resized>,
}

/// The cells of OpenSTA's `module X not found.  Creating black box for ...` warnings.
fn black_boxes(log: &str) -> Vec<String> {
    let mut cells: Vec<String> = log
        .lines()
        .filter(|l| l.contains("Creating black box"))
        .filter_map(|l| l.split("module ").nth(1)?.split(" not found").next())
        .map(str::to_string)
        .collect();
    cells.sort();
    cells.dedup();
    cells
}

/// Slack OpenSTA reports when nothing is constrained (it says 1e30 in its own units).
const NO_PATH: f64 = 1e29;

impl Parsed {
    /// The smallest period tried whose worst slack is not negative, or 0 when the paths have no
    /// delay at all (the search stopped at a period of 0); `None` without constrained paths.
    fn achievable(&self) -> Option<f64> {
        let &(first_period, first_slack) = self.tries.first()?;
        if first_slack.abs() >= NO_PATH {
            return None;
        }
        let feasible = self
            .tries
            .iter()
            .filter(|(_, s)| *s >= -TOLERANCE_PS)
            .map(|(p, _)| *p)
            .fold(f64::INFINITY, f64::min);
        let last = self.tries.last().expect("one try at least");
        if last.1.abs() > TOLERANCE_PS && last.0 - last.1 <= TOLERANCE_PS {
            // The search stopped because the next period would be 0 or less.
            return Some(0.0);
        }
        Some(if feasible.is_finite() {
            feasible
        } else {
            first_period - first_slack
        })
    }

    fn into_report(
        self,
        sta: &Sta,
        c: &Constraints,
        sdc: PathBuf,
        report: PathBuf,
        command: String,
    ) -> StaReport {
        let achievable = self.achievable();
        let pins = self
            .checks
            .iter()
            .map(|k| k.min_period_ps)
            .fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))));
        let min_period = match (achievable, pins) {
            (Some(a), Some(p)) => Some(a.max(p)),
            (a, p) => a.or(p),
        };
        let worst_slack = self
            .worst
            .as_ref()
            .map(|p| p.slack_ps)
            .filter(|s| s.abs() < NO_PATH);
        let meets =
            worst_slack.is_none_or(|s| s >= 0.0) && self.checks.iter().all(|k| k.slack_ps >= 0.0);
        StaReport {
            tool: sta.version.clone(),
            clock: c.clock_name().to_string(),
            period_ps: c.period_ps,
            wire_load: c.wire_load.clone(),
            worst_slack_ps: worst_slack,
            critical_path: self.worst,
            fmax_mhz: min_period.filter(|p| *p > 0.0).map(|p| in_ps(1e6 / p, 1.0)),
            min_period_ps: min_period,
            meets,
            groups: self.groups,
            clock_pin_checks: self.checks,
            resized: self.resized,
            black_boxes: self.black_boxes,
            sdc,
            report,
            command,
        }
    }
}

/// Reads `sta.txt` (times in units of `ps_per_unit` ps).
pub(crate) fn parse_report(text: &str, ps_per_unit: f64) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    let mut checks = "";
    let mut registers: BTreeMap<&str, &str> = BTreeMap::new();
    for section in text.split("\n@").map(|s| s.trim_start_matches('@')) {
        let (head, body) = section.split_once('\n').unwrap_or((section, ""));
        let head = head.trim();
        if head == "registers" {
            for (inst, net) in body.lines().filter_map(|l| l.split_once('\t')) {
                let named = !(net.starts_with('_') && net.ends_with('_'));
                if named {
                    registers.entry(inst).or_insert(net);
                }
            }
        } else if head == "worst" {
            parsed.worst = worst_of(parse_paths(body, ps_per_unit, "worst")?);
        } else if let Some(group) = head.strip_prefix("group ") {
            parsed
                .groups
                .extend(worst_of(parse_paths(body, ps_per_unit, group)?));
        } else if let Some(port) = head.strip_prefix("static ") {
            if let Some(mut p) = worst_of(parse_paths(body, ps_per_unit, port)?) {
                p.false_path = true;
                parsed.groups.push(p);
            }
        } else if head == "resized" {
            for line in body.lines().filter(|l| !l.trim().is_empty()) {
                let [instance, from, to] = line.split('\t').collect::<Vec<_>>()[..] else {
                    return Err(format!("resized line {line:?}"));
                };
                parsed.resized.push(Resized {
                    instance: instance.into(),
                    from: from.into(),
                    to: to.into(),
                });
            }
        } else if head == "clock-pin checks" {
            checks = body;
        } else if head == "period" {
            let nums: Vec<f64> = body
                .split_whitespace()
                .map(|t| {
                    t.parse::<f64>()
                        .map_err(|_| format!("period line {body:?}"))
                })
                .collect::<Result<_, _>>()?;
            let [period, slack] = nums[..] else {
                return Err(format!("period line {body:?}"));
            };
            parsed
                .tries
                .push((in_ps(period, ps_per_unit), in_ps(slack, ps_per_unit)));
        }
    }
    let Some(&(period_ps, _)) = parsed.tries.first() else {
        return Err("the clock period search (`@period` lines)".into());
    };
    parsed.checks = parse_clock_pin_checks(checks, ps_per_unit, period_ps)?;
    // The worst path is labelled with the group it belongs to.
    if let Some(w) = &mut parsed.worst {
        let same = |g: &&StaPath| g.start == w.start && g.end == w.end && g.slack_ps == w.slack_ps;
        if let Some(g) = parsed.groups.iter().find(same) {
            w.from = g.from.clone();
        }
    }
    // A register is known by the net it drives, where the RTL named it.
    for p in parsed.worst.iter_mut().chain(parsed.groups.iter_mut()) {
        for name in [&mut p.start, &mut p.end] {
            if let Some(net) = registers.get(name.as_str()) {
                *name = net.to_string();
            }
        }
    }
    Ok(parsed)
}

/// `value` in units of `ps_per_unit` ps, in ps rounded to 0.001 ps (OpenSTA prints 0.1 ps at a
/// `1ns` unit; the rounding keeps the figures exact through JSON).
fn in_ps(value: f64, ps_per_unit: f64) -> f64 {
    (value * ps_per_unit * 1000.0).round() / 1000.0 + 0.0
}

/// The path with the least slack.
fn worst_of(paths: Vec<StaPath>) -> Option<StaPath> {
    paths
        .into_iter()
        .min_by(|a, b| a.slack_ps.total_cmp(&b.slack_ps))
}

/// A report row: `delay time [^|v] description`, or `time description`.
struct Row<'a> {
    delay: Option<f64>,
    time: f64,
    text: &'a str,
}

fn row(line: &str) -> Option<Row<'_>> {
    let line = line.trim();
    let (first, rest) = line.split_once(char::is_whitespace)?;
    let first: f64 = first.parse().ok()?;
    let rest = rest.trim_start();
    let (second, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (delay, time, text) = match second.parse::<f64>() {
        Ok(t) => (Some(first), t, after.trim_start()),
        Err(_) => (None, first, rest),
    };
    let text = text
        .strip_prefix("^ ")
        .or_else(|| text.strip_prefix("v "))
        .unwrap_or(text);
    Some(Row {
        delay,
        time,
        text: text.trim(),
    })
}

/// `name (what)` -> `name`.
fn object(text: &str) -> &str {
    text.rsplit_once(" (").map_or(text, |(n, _)| n).trim()
}

/// The instance of a pin `inst/pin`; `None` for a port.
fn instance(pin: &str) -> Option<&str> {
    pin.rsplit_once('/').map(|(i, _)| i)
}

/// Every path of a `report_checks -format full` text, labelled `from`.
fn parse_paths(text: &str, ps: f64, from: &str) -> Result<Vec<StaPath>, String> {
    let mut paths = Vec::new();
    for block in text.split("Startpoint: ").skip(1) {
        let mut lines = block.lines();
        let start = object(lines.next().unwrap_or("")).to_string();
        let field = |prefix: &str| {
            block
                .lines()
                .find_map(|l| l.trim().strip_prefix(prefix).map(str::trim))
        };
        let end = object(field("Endpoint:").ok_or("a path without `Endpoint:`")?).to_string();
        let path_group = field("Path Group:").unwrap_or("").to_string();
        let mut data: Vec<Row> = Vec::new();
        let (mut arrival, mut required, mut slack) = (None, None, None);
        let (mut capture, mut setup) = (None, 0.0);
        for line in lines {
            let Some(r) = row(line) else { continue };
            match (arrival.is_some(), r.text) {
                (false, "data arrival time") => arrival = Some(r.time),
                (false, _) => data.push(r),
                (true, "data required time") if required.is_none() => required = Some(r.time),
                (true, t) if t.starts_with("slack") => slack = Some(r.time),
                (true, t) if t.starts_with("clock ") && capture.is_none() => capture = Some(r.time),
                (
                    true,
                    "library setup time" | "library recovery time" | "output external delay",
                ) => {
                    // (0 - x: a zero delay gives 0, not -0.)
                    setup = 0.0 - r.delay.unwrap_or(0.0);
                }
                _ => {}
            }
        }
        let (Some(arrival), Some(required), Some(slack)) = (arrival, required, slack) else {
            return Err(format!("the path from {start} to {end}"));
        };
        let launch = data
            .iter()
            .find(|r| r.text.starts_with("clock "))
            .map_or(0.0, |r| r.time);
        let own: Vec<&Row> = data
            .iter()
            .filter(|r| instance(object(r.text)) == Some(start.as_str()))
            .collect();
        let clock_to_q = (own.len() >= 2).then(|| own[1].time - own[0].time);
        let body = &data[..data.len().saturating_sub(1)];
        let cells = body
            .iter()
            .filter(|r| {
                let pin = object(r.text);
                r.text.ends_with(')')
                    && !r.text.ends_with("(in)")
                    && !r.text.ends_with("(out)")
                    && instance(pin).is_some_and(|i| i != start)
            })
            .count() as u32;
        paths.push(StaPath {
            from: from.to_string(),
            start,
            end,
            path_group,
            slack_ps: in_ps(slack, ps),
            arrival_ps: in_ps(arrival, ps),
            required_ps: in_ps(required, ps),
            delay_ps: in_ps(arrival - launch, ps),
            clock_to_q_ps: clock_to_q.map(|t| in_ps(t, ps)),
            setup_ps: in_ps(setup, ps),
            cells,
            false_path: false,
        });
    }
    Ok(paths)
}

/// The `report_check_types -min_period -min_pulse_width -verbose` text (each block opens with
/// `Pin: <pin>`), reported at the clock period `period_ps`.
fn parse_clock_pin_checks(
    text: &str,
    ps: f64,
    period_ps: f64,
) -> Result<Vec<ClockPinCheck>, String> {
    let mut checks = Vec::new();
    for block in text.split("Pin: ").skip(1) {
        let pin = block.lines().next().unwrap_or("").trim().to_string();
        let value = |label: &str| {
            block
                .lines()
                .filter_map(row)
                .find(|r| r.text.starts_with(label))
                .map(|r| r.time)
        };
        let slack = value("slack").ok_or_else(|| format!("the slack of the check on {pin}"))?;
        let check = if let Some(required) = value("required pulse width") {
            let actual =
                value("actual pulse width").ok_or_else(|| format!("the pulse width on {pin}"))?;
            // The pulse scales with the period: it is just wide enough at this period.
            ClockPinCheck {
                pin,
                check: "min_pulse_width".into(),
                required_ps: in_ps(required, ps),
                actual_ps: in_ps(actual, ps),
                slack_ps: in_ps(slack, ps),
                min_period_ps: in_ps(period_ps * required / actual, 1.0),
            }
        } else if let Some(min) = value("min_period") {
            let period = value("Period").ok_or_else(|| format!("the period on {pin}"))?;
            ClockPinCheck {
                pin,
                check: "min_period".into(),
                required_ps: in_ps(-min, ps),
                actual_ps: in_ps(period, ps),
                slack_ps: in_ps(slack, ps),
                min_period_ps: in_ps(-min, ps),
            }
        } else {
            return Err(format!("the check on {pin}"));
        };
        checks.push(check);
    }
    Ok(checks)
}
