//! Pure parsers of the text Yosys 0.23 and its ABC print: `stat`, `ltp`, ABC's
//! `stime -p`, `ERROR:` lines and the version banner. No I/O; each takes the text of
//! one report and returns `None` when the expected lines are not there.

use std::collections::BTreeMap;

use crate::report::CriticalPath;

/// The numbers of one `stat` report (one module, or the design hierarchy total).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stat {
    /// Cell counts by type (the indented lines under `Number of cells:`).
    pub cells: BTreeMap<String, u64>,
    /// `Number of cells:`.
    pub cell_count: u64,
    /// `Estimated number of transistors:` (present with `stat -tech cmos`).
    pub transistors: Option<Transistors>,
    /// `Chip area for module '...':` or `Chip area for top module '...':` (present with
    /// `stat -liberty`).
    pub area: Option<f64>,
}

/// A transistor estimate as `stat -tech cmos` prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transistors {
    /// The printed number.
    pub count: u64,
    /// Yosys appended `+`: some cells have no entry in its CMOS cost table and were
    /// counted as zero.
    pub partial: bool,
}

/// Parses a `stat` report. Picks the `design hierarchy` section when the design kept
/// hierarchy (it holds the totals), else the section of module `top`, else the last one.
pub fn parse_stat(text: &str, top: &str) -> Option<Stat> {
    let mut sections: Vec<(String, Stat)> = Vec::new();
    let mut in_cells = false;
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("=== ").and_then(|r| r.strip_suffix(" ===")) {
            sections.push((name.to_string(), Stat::default()));
            in_cells = false;
            continue;
        }
        let Some((_, stat)) = sections.last_mut() else {
            continue;
        };
        if t.is_empty() {
            in_cells = false;
        } else if let Some(n) = t.strip_prefix("Number of cells:") {
            stat.cell_count = n.trim().parse().ok()?;
            in_cells = true;
        } else if let Some(n) = t.strip_prefix("Estimated number of transistors:") {
            let n = n.trim();
            let (digits, partial) = match n.strip_suffix('+') {
                Some(d) => (d, true),
                None => (n, false),
            };
            stat.transistors = Some(Transistors {
                count: digits.trim().parse().ok()?,
                partial,
            });
            in_cells = false;
        } else if t.starts_with("Chip area for ") {
            let value = t.rsplit(':').next()?.trim();
            stat.area = Some(value.parse().ok()?);
            in_cells = false;
        } else if in_cells {
            let mut parts = t.split_whitespace();
            let (Some(ty), Some(n), None) = (parts.next(), parts.next(), parts.next()) else {
                in_cells = false;
                continue;
            };
            match n.parse::<u64>() {
                Ok(n) => *stat.cells.entry(ty.to_string()).or_insert(0) += n,
                Err(_) => in_cells = false,
            }
        }
    }
    let top = top.trim_start_matches('\\');
    let pick = sections
        .iter()
        .position(|(n, _)| n == "design hierarchy")
        .or_else(|| {
            sections
                .iter()
                .position(|(n, _)| n.trim_start_matches('\\') == top)
        })
        .or_else(|| sections.len().checked_sub(1))?;
    Some(sections.swap_remove(pick).1)
}

/// Parses the document of `stat -json` (with `-tech cmos`, the transistor estimate too): the
/// `design` totals, else module `top`. Yosys 0.23 puts no chip area in it (`stat -liberty`
/// prints that only as text, for [`parse_stat`]), so `area` is `None`.
pub fn parse_stat_json(text: &str, top: &str) -> Option<Stat> {
    let doc: serde_json::Value = serde_json::from_str(text).ok()?;
    let top = top.trim_start_matches('\\');
    let section = doc.get("design").or_else(|| {
        let modules = doc.get("modules")?.as_object()?;
        modules
            .iter()
            .find(|(name, _)| name.trim_start_matches('\\') == top)
            .map(|(_, m)| m)
    })?;
    let cells = section
        .get("num_cells_by_type")?
        .as_object()?
        .iter()
        .map(|(ty, n)| Some((ty.clone(), n.as_u64()?)))
        .collect::<Option<BTreeMap<_, _>>>()?;
    // Printed as a string, with a `+` when some cells had no cost.
    let transistors = match section.get("estimated_num_transistors") {
        None => None,
        Some(n) => {
            let n = n.as_str()?.trim();
            let (digits, partial) = match n.strip_suffix('+') {
                Some(d) => (d, true),
                None => (n, false),
            };
            Some(Transistors {
                count: digits.trim().parse().ok()?,
                partial,
            })
        }
    };
    Some(Stat {
        cells,
        cell_count: section.get("num_cells")?.as_u64()?,
        transistors,
        area: None,
    })
}

/// True for Yosys' fine-grained flip-flop cell types (`$_DFF_P_`, `$_DFFE_PN0P_`,
/// `$_SDFF_PP0_`, `$_DFFSR_PNN_`, `$_ALDFF_PP_`, `$_FF_`, ...), each one bit wide.
/// Latches (`$_DLATCH_*`, `$_SR_*`) are not flip-flops.
pub fn is_flip_flop(cell_type: &str) -> bool {
    ["$_DFF", "$_SDFF", "$_ALDFF", "$_FF_"]
        .iter()
        .any(|p| cell_type.starts_with(p))
}

/// Flip-flop bits in a cell-count map of generic Yosys cells (see [`is_flip_flop`]).
pub fn count_flip_flops(cells: &BTreeMap<String, u64>) -> u64 {
    cells
        .iter()
        .filter(|(t, _)| is_flip_flop(t))
        .map(|(_, n)| n)
        .sum()
}

/// The longest `Longest topological path in <module> (length=N):` of an `ltp` report,
/// over all modules; a module without any wire prints `-1`, read as 0.
pub fn parse_ltp(text: &str) -> Option<u32> {
    text.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("Longest topological path in ")?;
            let len = rest.split("(length=").nth(1)?.split(')').next()?;
            len.trim().parse::<i64>().ok()
        })
        .max()
        .map(|n| u32::try_from(n.max(0)).unwrap_or(u32::MAX))
}

/// What ABC's `stime -p` reported, or zero when Yosys had no logic to give ABC.
#[derive(Debug, Clone, PartialEq)]
pub struct AbcTiming {
    /// `Delay =` of the `WireLoad` summary line, converted to ps.
    pub delay_ps: f64,
    /// Start and end point and the cells of the printed critical path.
    pub path: Option<CriticalPath>,
}

/// Parses the output of Yosys' `abc` pass whose ABC script ends in `stime -p`.
///
/// Reads the `WireLoad = ... Delay = X ps` summary, counts the non-`pi` `Path N --`
/// lines and takes the `Start-point = ... End-point = ...` names. When ABC ran more than
/// once (a design that kept hierarchy) the slowest run wins. `Don't call ABC as there is
/// nothing to map.` counts as a run with zero delay.
pub fn parse_abc_timing(text: &str) -> Option<AbcTiming> {
    let mut runs: Vec<AbcTiming> = Vec::new();
    let mut cells = 0u32;
    for line in text.lines() {
        let t = line.trim();
        let t = t.strip_prefix("ABC:").map(str::trim).unwrap_or(t);
        if t.starts_with("Don't call ABC as there is nothing to map") {
            runs.push(AbcTiming {
                delay_ps: 0.0,
                path: None,
            });
        } else if t.starts_with("WireLoad =") {
            let rest = t.split("Delay =").nth(1)?;
            let mut it = rest.split_whitespace();
            let value: f64 = it.next()?.parse().ok()?;
            let scale = match it.next()? {
                "ps" => 1.0,
                "ns" => 1000.0,
                _ => return None,
            };
            runs.push(AbcTiming {
                delay_ps: value * scale,
                path: None,
            });
            cells = 0;
        } else if t.starts_with("Path ") && t.contains("--") {
            // `Path  1 --       9 : 3    1 MUX2_X1 A = ...`: the gate follows the fanin
            // and fanout counts after the colon; the start point's gate is `pi`.
            let gate = t.split(':').nth(1)?.split_whitespace().nth(2)?;
            if gate != "pi" {
                cells += 1;
            }
        } else if let Some(rest) = t.strip_prefix("Start-point = ") {
            let (from, to) = rest.split_once("End-point = ")?;
            let from = point_name(from.trim_end().trim_end_matches('.'));
            let to = point_name(to.trim_end().trim_end_matches('.'));
            if let Some(run) = runs.last_mut() {
                run.path = Some(CriticalPath { from, to, cells });
            }
        }
    }
    runs.into_iter()
        .reduce(|a, b| if b.delay_ps > a.delay_ps { b } else { a })
}

/// `pi2 (\s [0])` -> `\s [0]`; a point without a parenthesised name is kept whole.
fn point_name(point: &str) -> String {
    match point.split_once(" (") {
        Some((_, name)) => name.strip_suffix(')').unwrap_or(name).to_string(),
        None => point.to_string(),
    }
}

/// The first line with Yosys' `ERROR:` marker, trimmed (it keeps a `file:line:` prefix).
pub fn parse_yosys_error(text: &str) -> Option<String> {
    text.lines()
        .find(|l| l.contains("ERROR:"))
        .map(|l| l.trim().to_string())
}

/// The version banner of `yosys -V`, e.g. `Yosys 0.23 (git sha1 7ce5011c24b)`.
pub fn parse_yosys_version(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("Yosys "))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT_GENERIC_REG: &str = include_str!("../tests/data/stat_generic_regx.txt");
    const STAT_LIBERTY_MUX4: &str = include_str!("../tests/data/stat_liberty_mux4.txt");
    const STAT_HIERARCHY: &str = include_str!("../tests/data/stat_hierarchy.txt");
    const LTP_REG: &str = include_str!("../tests/data/ltp_regx.txt");
    const ABC_MUX4: &str = include_str!("../tests/data/abc_mux4_nangate45.txt");
    const ABC_NOTHING: &str = include_str!("../tests/data/abc_nothing_to_map.txt");

    /// What Yosys 0.23 wrote for `stat -json -tech cmos` of two XORs into two flip-flops.
    const STAT_JSON: &str = r#"{
   "creator": "Yosys 0.23 (git sha1 7ce5011c24b)",
   "invocation": "stat -json -tech cmos ",
   "modules": {
      "\\t": {
         "num_wires":         10,
         "num_cells":         4,
         "num_cells_by_type": {
            "$_DFF_P_": 2,
            "$_XOR_": 2
         },
         "estimated_num_transistors": "56"
      }
   },
      "design": {
         "num_wires":         10,
         "num_cells":         4,
         "num_cells_by_type": {
            "$_DFF_P_": 2,
            "$_XOR_": 2
         },
         "estimated_num_transistors": "56"
      }
}
"#;

    #[test]
    fn stat_json_cells_and_transistors() {
        let s = parse_stat_json(STAT_JSON, "t").unwrap();
        assert_eq!(s.cell_count, 4);
        assert_eq!(s.cells["$_XOR_"], 2);
        assert_eq!(count_flip_flops(&s.cells), 2);
        let whole = Transistors {
            count: 56,
            partial: false,
        };
        assert_eq!(s.transistors, Some(whole));
        assert_eq!(s.area, None);
        // Without the design totals, module `top`; a `+` marks a partial estimate.
        let only_module = STAT_JSON
            .split("\n      \"design\"")
            .next()
            .unwrap()
            .replace("\"56\"", "\"12+\"")
            .trim_end()
            .trim_end_matches(',')
            .to_string()
            + "\n}";
        let s = parse_stat_json(&only_module, "t").unwrap();
        assert_eq!(
            s.transistors,
            Some(Transistors {
                count: 12,
                partial: true
            })
        );
        assert_eq!(parse_stat_json(&only_module, "other"), None);
        assert_eq!(parse_stat_json("Number of cells: 4", "t"), None);
    }

    #[test]
    fn stat_generic_with_partial_transistors() {
        let s = parse_stat(STAT_GENERIC_REG, "regx").unwrap();
        assert_eq!(s.cell_count, 2);
        assert_eq!(s.cells["$_XOR_"], 1);
        assert_eq!(s.cells["$_DFF_PN0_"], 1);
        // XOR costs 12 in the CMOS table; the async-reset flop has no entry: "12+".
        assert_eq!(
            s.transistors,
            Some(Transistors {
                count: 12,
                partial: true
            })
        );
        assert_eq!(s.area, None);
        assert_eq!(count_flip_flops(&s.cells), 1);
    }

    #[test]
    fn stat_liberty_area() {
        let s = parse_stat(STAT_LIBERTY_MUX4, "mux4").unwrap();
        assert_eq!(s.cell_count, 3);
        assert_eq!(s.cells.len(), 1);
        assert_eq!(s.cells["MUX2_X1"], 3);
        // 3 x MUX2_X1 (1.862 um^2 in NanGate45).
        assert!((s.area.unwrap() - 3.0 * 1.862).abs() < 1e-9);
        assert_eq!(s.transistors, None);
    }

    #[test]
    fn stat_hierarchy_uses_totals() {
        // Two kept `leaf` instances of one XOR each: the hierarchy section sums them,
        // and its module-instance lines (`hier 1`, `leaf 2`) are not cells.
        let s = parse_stat(STAT_HIERARCHY, "hier").unwrap();
        assert_eq!(s.cell_count, 2);
        assert_eq!(s.cells.len(), 1);
        assert_eq!(s.cells["$_XOR_"], 2);
        assert_eq!(s.transistors.unwrap().count, 24);
        assert!(!s.transistors.unwrap().partial);
    }

    #[test]
    fn stat_missing_is_none() {
        assert_eq!(parse_stat("nothing here\n", "x"), None);
    }

    #[test]
    fn flip_flop_types() {
        for ff in [
            "$_DFF_P_",
            "$_DFF_PN0_",
            "$_DFFE_PP_",
            "$_SDFFE_PN0P_",
            "$_DFFSR_PNN_",
        ] {
            assert!(is_flip_flop(ff), "{ff}");
        }
        for other in ["$_XOR_", "$_DLATCH_P_", "$_SR_PP_", "DFF_X1", "$_MUX_"] {
            assert!(!is_flip_flop(other), "{other}");
        }
    }

    #[test]
    fn ltp_length() {
        assert_eq!(parse_ltp(LTP_REG), Some(1));
        let two = "Longest topological path in a (length=3):\n\
                   Longest topological path in b (length=5):\n";
        assert_eq!(parse_ltp(two), Some(5));
        assert_eq!(
            parse_ltp("Longest topological path in e (length=-1):"),
            Some(0)
        );
        assert_eq!(parse_ltp("no path"), None);
    }

    #[test]
    fn abc_stime() {
        let t = parse_abc_timing(ABC_MUX4).unwrap();
        assert_eq!(t.delay_ps, 105.0);
        let p = t.path.unwrap();
        assert_eq!(p.from, "\\s [0]");
        assert_eq!(p.to, "\\y");
        assert_eq!(p.cells, 2);
    }

    #[test]
    fn abc_nothing_to_map_is_zero() {
        let t = parse_abc_timing(ABC_NOTHING).unwrap();
        assert_eq!(t.delay_ps, 0.0);
        assert_eq!(t.path, None);
    }

    #[test]
    fn abc_ns_unit_and_register_end_point() {
        let text =
            "ABC: WireLoad = \"none\"  Gates =      1 (  0.0 %)   Cap =  1.5 ff (  0.0 %)   \
                    Area =        1.60 (100.0 %)   Delay =    0.05 ns  (100.0 %)\n\
                    ABC: Path  0 --       2 : 0    1 pi      A =   0.00  Df =   0.0   -0.0 ps\n\
                    ABC: Path  1 --       4 : 2    1 XOR2_X1 A =   1.60  Df =  47.7  -13.0 ps\n\
                    ABC: Start-point = pi1 (\\a).  End-point = po0 ($0\\q[0:0]).\n";
        let t = parse_abc_timing(text).unwrap();
        assert!((t.delay_ps - 50.0).abs() < 1e-9);
        let p = t.path.unwrap();
        assert_eq!(
            (p.from.as_str(), p.to.as_str(), p.cells),
            ("\\a", "$0\\q[0:0]", 1)
        );
        assert_eq!(parse_abc_timing("ABC: + strash\n"), None);
    }

    #[test]
    fn yosys_error_and_version() {
        let log = "1. Executing Verilog-2005 frontend: bad.v\n\
                   Parsing Verilog input from `bad.v' to AST representation.\n\
                   bad.v:2: ERROR: syntax error, unexpected ';'\n";
        assert_eq!(
            parse_yosys_error(log).as_deref(),
            Some("bad.v:2: ERROR: syntax error, unexpected ';'")
        );
        assert_eq!(parse_yosys_error("all fine\n"), None);
        assert_eq!(
            parse_yosys_version("Yosys 0.23 (git sha1 7ce5011c24b)\n").as_deref(),
            Some("Yosys 0.23 (git sha1 7ce5011c24b)")
        );
    }
}
