//! A plain-text table of reports for terminals.

use crate::report::SynthReport;

/// Column headers, in order.
const HEADERS: [&str; 12] = [
    "top",
    "mode",
    "library",
    "cells",
    "regs",
    "transistors",
    "depth",
    "area_um2",
    "delay_ps",
    "fmax_mhz",
    "sta_slack_ps",
    "sta_fmax_mhz",
];

/// Columns from `cells` on hold numbers and are right-aligned.
const FIRST_NUMERIC: usize = 3;

fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| "-".to_string())
}

/// One row per report: top, mode, library name, cells, flip-flop bits, transistor
/// estimate (`N+` when partial), depth in gates, area (um², 3 decimals), ABC's delay (ps, 1
/// decimal) and fmax (MHz, 1 decimal), OpenSTA's worst slack at the clock (ps) and its fmax
/// (clock-to-Q and setup included); `-` where a mode has no such number. Columns are
/// padded to a common width and separated by two spaces; every line ends in `\n`.
pub fn render_table(reports: &[SynthReport]) -> String {
    let rows: Vec<[String; 12]> = reports
        .iter()
        .map(|r| {
            [
                r.top.clone(),
                r.mode.as_str().to_string(),
                opt(r.liberty.as_deref(), |l| {
                    l.split(" (").next().unwrap_or(l).to_string()
                }),
                r.cell_count.to_string(),
                r.registers.to_string(),
                opt(r.transistors, |t| {
                    format!("{t}{}", if r.transistors_partial { "+" } else { "" })
                }),
                opt(r.depth_gates, |d| d.to_string()),
                opt(r.area_um2, |a| format!("{a:.3}")),
                opt(r.delay_ps, |d| format!("{d:.1}")),
                opt(r.fmax_mhz, |f| format!("{f:.1}")),
                opt(r.sta.as_ref().and_then(|s| s.worst_slack_ps), |s| {
                    format!("{s:.1}")
                }),
                opt(r.sta.as_ref().and_then(|s| s.fmax_mhz), |f| {
                    format!("{f:.1}")
                }),
            ]
        })
        .collect();
    let mut widths = HEADERS.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i >= FIRST_NUMERIC {
                    format!("{c:>w$}", w = widths[i])
                } else {
                    format!("{c:<w$}", w = widths[i])
                }
            })
            .collect();
        let mut s = parts.join("  ").trim_end().to_string();
        s.push('\n');
        s
    };
    let mut out = line(&HEADERS.map(String::from));
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Mode, FORMAT_VERSION};
    use std::collections::BTreeMap;

    fn report(top: &str, mode: Mode) -> SynthReport {
        SynthReport {
            format_version: FORMAT_VERSION,
            top: top.into(),
            mode,
            yosys_version: "Yosys 0.23".into(),
            liberty: None,
            script: "synth.ys".into(),
            command: "yosys -q -l synth.log -s synth.ys".into(),
            cells: BTreeMap::new(),
            cell_count: 1,
            transistors: None,
            transistors_partial: false,
            depth_gates: Some(1),
            area_um2: None,
            macro_area_um2: None,
            delay_ps: None,
            registers: 0,
            reg_delay_ps: None,
            fmax_mhz: None,
            critical_path: None,
            target_ps: None,
            static_inputs: vec![],
            sta: None,
            closure: vec![],
        }
    }

    #[test]
    fn aligned_rows_with_dashes() {
        let mut g = report("xor2", Mode::Generic);
        g.transistors = Some(12);
        let mut l = report("regx", Mode::Liberty);
        l.liberty = Some("NangateOpenCellLibrary (/pdk/nangate45_typ.lib.gz)".into());
        l.cell_count = 2;
        l.registers = 1;
        l.area_um2 = Some(6.916);
        l.delay_ps = Some(47.72);
        l.fmax_mhz = Some(1e6 / 47.72);
        let t = render_table(&[g, l]);
        let expected = "\
top   mode     library                 cells  regs  transistors  depth  area_um2  delay_ps  fmax_mhz  sta_slack_ps  sta_fmax_mhz
xor2  generic  -                           1     0           12      1         -         -         -             -             -
regx  liberty  NangateOpenCellLibrary      2     1            -      1     6.916      47.7   20955.6             -             -
";
        assert_eq!(t, expected);
    }

    #[test]
    fn partial_transistor_count_is_marked() {
        let mut g = report("regx", Mode::Generic);
        g.transistors = Some(12);
        g.transistors_partial = true;
        assert!(render_table(&[g]).contains(" 12+ "));
    }

    #[test]
    fn empty_input_gives_header_only() {
        assert_eq!(render_table(&[]).lines().count(), 1);
    }
}
