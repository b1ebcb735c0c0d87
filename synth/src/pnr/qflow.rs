//! The ASIC flow: qflow 1.3 (Debian's `qflow`) on its OSU 0.18 um standard cells: Yosys
//! synthesis, graywolf placement, qrouter routing and vesta's static timing with the routed
//! wires' delays (`qflow synthesize place route sta backanno -T osu018`).
//!
//! Debian's qflow runs Debian's Yosys 0.23, whose `dfflibmap` maps flip-flops but no latches:
//! qflow would drop a latch-based design's storage without a word and still "succeed". So the
//! project's `project_vars.sh` replaces qflow's `synth` step by a script ([`LATCH_MAP`]) that
//! counts the design's latches and maps them to the OSU `LATCH` cell (a positive-enable latch;
//! an active-low one gets an inverter on its enable), and [`run`] refuses a placed design with
//! fewer latch cells than that count ([`Error::LostLatches`]).
//!
//! Figures come from qflow's own files: cells and die from the routed DEF, their area from the
//! OSU LEF's cell sizes (the placement log prints it to three digits only), the wirelength from
//! the routed DEF's wires ([`super::def`]; qflow prints none), routing success from
//! `log/route.log` (`Final: No failed routes!`), and timing from `log/post_sta.log`: vesta's
//! slowest register-to-register path with the extracted wire delays, clock-to-Q, setup and
//! clock skew included, and the maximum clock it implies. graywolf places on one thread: about
//! 3 minutes for 4 000 cells, half an hour for 15 000 on a loaded 2-core machine.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::def;
use super::tools::{qflow, run_tool};
use super::wrapper::Wrapper;
use super::{make_dir, read, remove, write, Error, PnrRequest, Progress};

/// Version of the [`QflowReport`] layout.
pub const FORMAT_VERSION: u32 = 1;

/// The technology qflow runs with.
pub const TECHNOLOGY: &str = "osu018";

/// The OSU 0.18 um technology folder of Debian's qflow.
const TECH_DIR: &str = "/usr/share/qflow/tech/osu018";

/// Yosys' generic latches on the OSU cells (`LATCH`: D, CLK, Q, transparent while CLK is high;
/// `INVX1`: A, Y).
pub const LATCH_MAP: &str = "\
// Written by rtl-gen synth --flow qflow: generic latches on the OSU 0.18 um LATCH cell.
module \\$_DLATCH_P_ (input E, input D, output Q);
  LATCH _TECHMAP_REPLACE_ (.CLK(E), .D(D), .Q(Q));
endmodule
module \\$_DLATCH_N_ (input E, input D, output Q);
  wire en;
  INVX1 inv (.A(E), .Y(en));
  LATCH _TECHMAP_REPLACE_ (.CLK(en), .D(D), .Q(Q));
endmodule
";

/// The OSU cells that hold state.
const FLOP_CELLS: [&str; 3] = ["DFFPOSX1", "DFFNEGX1", "DFFSR"];

/// What qflow found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QflowReport {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// [`TECHNOLOGY`].
    pub technology: String,
    /// qflow's version line.
    pub qflow_version: String,
    /// The register wrapper placed around the block.
    pub wrapper: Wrapper,
    /// Placed cells by type, fill cells left out.
    pub cells: BTreeMap<String, u64>,
    /// Placed cells, fill left out.
    pub cell_count: u64,
    /// Their area in um² (the LEF's width x height of each), the wrapper's flip-flops included.
    pub cell_area_um2: f64,
    /// The area of the wrapper's flip-flops (`DFFPOSX1`) in um².
    pub wrapper_area_um2: f64,
    /// The die qflow placed into, width x height in um.
    pub die_um: (f64, f64),
    /// Flip-flops of the block, the wrapper's left out.
    pub block_flops: u64,
    /// Latch bits in the design after Yosys' `synth`.
    pub latches_expected: u64,
    /// `LATCH` cells placed (never fewer than expected: [`Error::LostLatches`]).
    pub latches: u64,
    /// Total routed length of the signal nets in um.
    pub wirelength_um: f64,
    /// Whether qrouter routed every net.
    pub routed: bool,
    /// Nets qrouter could not route (0 when `routed`).
    pub failed_routes: u64,
    /// The slowest register-to-register path after routing, in ps (vesta, with the routed
    /// wires' delays, clock-to-Q, setup and skew); `None` when routing or vesta failed.
    pub critical_path_ps: Option<f64>,
    /// Its start and end (`DFFPOSX1_23/CLK`, `DFFSR_4/D`).
    pub critical_path: Option<(String, String)>,
    /// The maximum clock the routed design runs at, in MHz (1e6 / `critical_path_ps`).
    pub max_clock_mhz: Option<f64>,
    /// Why the routed design has no timing when routing succeeded: vesta's error line.
    pub timing_error: Option<String>,
    /// The clock period the slack is taken against, in ps, when one was given.
    pub clock_ps: Option<f64>,
    /// `clock_ps - critical_path_ps`: negative when the routed design misses the clock.
    pub slack_ps: Option<f64>,
    /// Wall time of the qflow run in s.
    pub seconds: f64,
    /// The qflow command, run in the work folder.
    pub command: String,
}

/// The slowest path and the maximum clock of vesta's log.
fn parse_sta(text: &str) -> Option<(f64, String, String, f64)> {
    // Path DFFPOSX1_23/CLK to DFFSR_4/D delay 1235.77 ps
    let after = text.split("maximum delay paths:").nth(1)?;
    let line = after.lines().find(|l| l.starts_with("Path "))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let delay = words.iter().position(|w| *w == "delay")?;
    let ps: f64 = words.get(delay + 1)?.parse().ok()?;
    let mhz: f64 = text
        .lines()
        .find_map(|l| {
            l.split("Computed maximum clock frequency (zero margin) = ")
                .nth(1)
        })?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some((
        ps,
        words.get(1)?.to_string(),
        words.get(3)?.to_string(),
        mhz,
    ))
}

/// The bits of generic latches in a Yosys `stat` report (`$_DLATCH_N_   32` in Yosys 0.23,
/// the count first in later versions).
fn latch_bits(stat: &str) -> u64 {
    stat.lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [cell, n] if cell.starts_with("$_DLATCH") => n.parse::<u64>().ok(),
            [n, cell] if cell.starts_with("$_DLATCH") => n.parse::<u64>().ok(),
            _ => None,
        })
        .sum()
}

/// Each OSU cell's area in um² (LEF `SIZE w BY h`).
fn cell_areas(lef: &str) -> BTreeMap<String, f64> {
    let mut areas = BTreeMap::new();
    let mut cell: Option<&str> = None;
    for line in lef.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["MACRO", name] => cell = Some(name),
            ["SIZE", w, "BY", h, ..] => {
                if let (Some(c), Ok(w), Ok(h)) = (cell.take(), w.parse::<f64>(), h.parse::<f64>()) {
                    areas.insert(c.to_string(), w * h);
                }
            }
            _ => {}
        }
    }
    areas
}

/// Places and routes the wrapped block with qflow on OSU 0.18 um, in `req.work_dir`;
/// `clock_ps`, when given, is the period the slack is taken against.
pub fn run(
    req: &PnrRequest,
    clock_ps: Option<f64>,
    progress: Progress,
) -> Result<QflowReport, Error> {
    let qflow = qflow()?;
    let qflow_version = qflow.version(&["-v"])?;
    let work = make_dir(&req.work_dir)?;
    for old in [
        "source",
        "synthesis",
        "layout",
        "log",
        "project_vars.sh",
        "qflow_vars.sh",
    ] {
        remove(&work.join(old))?;
    }
    for dir in ["source", "synthesis", "layout"] {
        make_dir(&work.join(dir))?;
    }
    let wrapper = req.wrapper.wrapper();
    let top = wrapper.module.clone();
    // qflow reads source/<top>.v: the block's files, then the wrapper, in one file.
    let mut source = String::new();
    for f in &req.files {
        source.push_str(&read(f)?);
        source.push('\n');
    }
    source.push_str(&wrapper.text);
    write(&work.join("source").join(format!("{top}.v")), &source)?;
    write(&work.join("latches.v"), LATCH_MAP)?;
    write(
        &work.join("synth_latches.ys"),
        &format!(
            "# Written by rtl-gen synth --flow qflow: qflow's synthesis, latches mapped.\n\
             synth -flatten -top {top}\n\
             tee -q -o {stat} stat\n\
             techmap -map {map}\n",
            stat = work.join("latch_stat.txt").display(),
            map = work.join("latches.v").display(),
        ),
    )?;
    write(
        &work.join("project_vars.sh"),
        &format!(
            "#!/usr/bin/tcsh -f\n# Written by rtl-gen synth --flow qflow.\nset yosys_script = {}\n",
            work.join("synth_latches.ys").display()
        ),
    )?;
    let steps = ["synthesize", "place", "route", "sta", "backanno"];
    progress(
        "qflow: synthesize, place, route, time (OSU 0.18 um; graywolf places on one thread: \
         minutes for thousands of cells)",
    );
    let mut args: Vec<String> = steps.map(str::to_string).to_vec();
    args.extend(["-T".to_string(), TECHNOLOGY.to_string(), top.clone()]);
    let seconds = run_tool(&qflow, &args, &work, "qflow.log", "placing and routing")?;

    let stat_path = work.join("latch_stat.txt");
    let latches_expected = latch_bits(&read(&stat_path)?);
    let def_path = work.join("layout").join(format!("{top}.def"));
    let summary = def::summarize(&read(&def_path)?).ok_or_else(|| Error::Parse {
        what: "the routed layout (units, die, components, nets)".into(),
        file: def_path.clone(),
    })?;
    let cells: BTreeMap<String, u64> = summary
        .cells
        .into_iter()
        .filter(|(c, _)| !c.starts_with("FILL"))
        .collect();
    let count = |c: &str| cells.get(c).copied().unwrap_or(0);
    let latches = count("LATCH");
    if latches < latches_expected {
        return Err(Error::LostLatches {
            expected: latches_expected,
            found: latches,
            log: def_path,
        });
    }
    let areas = cell_areas(&read(&Path::new(TECH_DIR).join("osu018_stdcells.lef"))?);
    let cell_area_um2 = cells
        .iter()
        .map(|(c, n)| areas.get(c).copied().unwrap_or(0.0) * *n as f64)
        .sum();
    let route_log = read(&work.join("log").join("route.log"))?;
    let routed = route_log.contains("Final: No failed routes!");
    let failed_routes = route_log
        .lines()
        .rev()
        .find_map(|l| {
            let n = l.trim().strip_prefix("Final: ")?;
            n.split_whitespace().next()?.parse().ok()
        })
        .unwrap_or(0);
    let sta_path = work.join("log").join("post_sta.log");
    let sta_log = if routed {
        read(&sta_path)?
    } else {
        String::new()
    };
    let sta = parse_sta(&sta_log);
    // vesta stops on some netlists ("ERROR: Net ... not found in hash table"): the layout is
    // still reported, with vesta's error in place of the timing.
    let timing_error = match (&sta, routed) {
        (None, true) => Some(
            sta_log
                .lines()
                .find(|l| l.contains("ERROR"))
                .unwrap_or("vesta printed no slowest path or maximum clock")
                .trim()
                .to_string(),
        ),
        _ => None,
    };
    let flops: u64 = FLOP_CELLS.iter().map(|c| count(c)).sum();
    Ok(QflowReport {
        format_version: FORMAT_VERSION,
        technology: TECHNOLOGY.into(),
        qflow_version,
        cell_count: cells.values().sum(),
        cell_area_um2,
        wrapper_area_um2: areas.get("DFFPOSX1").copied().unwrap_or(0.0) * wrapper.flops as f64,
        die_um: summary.die_um,
        block_flops: flops.saturating_sub(wrapper.flops),
        latches_expected,
        latches,
        wirelength_um: summary.wirelength_um,
        routed,
        failed_routes: if routed { 0 } else { failed_routes.max(1) },
        critical_path_ps: sta.as_ref().map(|s| s.0),
        critical_path: sta.as_ref().map(|s| (s.1.clone(), s.2.clone())),
        max_clock_mhz: sta.as_ref().map(|s| s.3),
        clock_ps,
        slack_ps: sta.as_ref().and_then(|s| clock_ps.map(|c| c - s.0)),
        timing_error,
        seconds,
        command: format!(
            "cd {} && qflow {} -T {TECHNOLOGY} {top}",
            work.display(),
            steps.join(" ")
        ),
        cells,
        wrapper,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vesta_slowest_path_and_clock() {
        let log = "Number of paths analyzed:  15\n\nTop 15 maximum delay paths:\n\
                   Path DFFPOSX1_23/CLK to DFFSR_4/D delay 1235.77 ps\n      2.4 ps  clk\n\
                   Path DFFPOSX1_2/CLK to DFFSR_3/D delay 1230.47 ps\n\n\
                   Computed maximum clock frequency (zero margin) = 809.21 MHz\n";
        let (ps, from, to, mhz) = parse_sta(log).unwrap();
        assert_eq!(
            (ps, from.as_str(), to.as_str(), mhz),
            (1235.77, "DFFPOSX1_23/CLK", "DFFSR_4/D", 809.21)
        );
        assert_eq!(parse_sta("no paths"), None);
    }

    #[test]
    fn latches_in_a_stat_report() {
        // Yosys 0.23's layout (name, count), then a later one's (count, name).
        let stat = "     Number of cells:                 12\n       $_DFF_P_  4\n\
                    $_DLATCH_N_                    32\n     $_DLATCH_P_  3\n     $_AND_  5\n\
                    7   $_DLATCH_PN0_\n";
        assert_eq!(latch_bits(stat), 42);
        assert_eq!(latch_bits("     $_DFF_P_  4\n"), 0);
    }

    #[test]
    fn cell_sizes_from_the_lef() {
        let lef = "MACRO DFFPOSX1\n  CLASS  CORE ;\n  SIZE 9.600 BY 10.000 ;\nEND DFFPOSX1\n\
                   MACRO INVX1\n  SIZE 1.600 BY 10.000 ;\n";
        let a = cell_areas(lef);
        assert_eq!(a["DFFPOSX1"], 96.0);
        assert_eq!(a["INVX1"], 16.0);
    }
}
