//! A run of the congestion simulator: its cells (the paper's tables by default), and what
//! `rtl-gen congestion` (and the Python package) print and draw from the results: the text
//! table (one block per scheme, patterns down, `w` across, as the paper's Table II), the
//! comparison with the paper, the JSON lines and the SVG plot.

use crate::plot::{line_chart, push, Axes, Marker};
use crate::Error;
use models::rap::{paper, Cell, CellResult, Pattern, Scheme};
use std::fmt::Write;

/// The cells of a run at `dims` (2: a `w x w` matrix, 4: a `w^4` array): every scheme of
/// `kinds` with every pattern of `patterns` (names as spelled for `dims`) at every `w` of
/// `banks`; each list left out is the paper's (Table II for 2, Table IV at `w = 32` for 4). A
/// scheme or pattern `dims` does not have is refused, naming what it has.
pub fn cells(
    dims: u32,
    banks: Option<&[u32]>,
    kinds: Option<&[Scheme]>,
    patterns: Option<&[String]>,
) -> Result<Vec<Cell>, Error> {
    let ws = banks.map_or_else(
        || {
            if dims == 4 {
                vec![32]
            } else {
                paper::TABLE_II_W.to_vec()
            }
        },
        <[u32]>::to_vec,
    );
    let schemes: Vec<Scheme> = match kinds {
        Some(list) => list.to_vec(),
        None if dims == 4 => Scheme::TABLE_IV.to_vec(),
        None => Scheme::TABLE_II.to_vec(),
    };
    let patterns: Vec<Pattern> = match patterns {
        Some(names) => names
            .iter()
            .map(|name| Pattern::parse_for(name, dims))
            .collect::<Result<_, _>>()?,
        None if dims == 4 => Pattern::TABLE_IV.to_vec(),
        None => Pattern::TABLE_II.to_vec(),
    };
    let mut cells = Vec::new();
    for &scheme in &schemes {
        for &pattern in &patterns {
            for &w in &ws {
                cells.push(Cell::new(dims, w, scheme, pattern)?);
            }
        }
    }
    Ok(cells)
}

/// The scheme as the paper writes it: RAW, RAS, RAP, 1P, R1P, 3P, w2P, 1Pw2R.
pub fn label(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::Raw => "RAW",
        Scheme::Ras => "RAS",
        Scheme::Rap => "RAP",
        Scheme::OneP => "1P",
        Scheme::R1p => "R1P",
        Scheme::ThreeP => "3P",
        Scheme::W2p => "w2P",
        Scheme::OnePW2r => "1Pw2R",
    }
}

/// The schemes of `results` in order of first appearance, with their dims.
fn schemes(results: &[CellResult]) -> Vec<(u32, Scheme)> {
    let mut out: Vec<(u32, Scheme)> = Vec::new();
    for r in results {
        let key = (r.cell.shape.dims(), r.cell.scheme);
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

fn distinct<T: PartialEq + Copy>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The text table: one block per scheme with a row per pattern and a column per `w`; each cell
/// is the mean congestion, followed by the paper's Table II value in parentheses when
/// `compare` is set and the paper has the cell.
pub fn table(results: &[CellResult], compare: bool) -> String {
    let mut out = String::new();
    let Some(first) = results.first() else {
        return out;
    };
    for (dims, scheme) in schemes(results) {
        let rows: Vec<&CellResult> = results
            .iter()
            .filter(|r| r.cell.shape.dims() == dims && r.cell.scheme == scheme)
            .collect();
        let ws = distinct(rows.iter().map(|r| r.cell.shape.w()));
        let patterns = distinct(rows.iter().map(|r| r.cell.pattern));
        let shape = if dims == 2 {
            "w x w matrix"
        } else {
            "w^4 array"
        };
        let _ = writeln!(
            out,
            "{} ({shape}, {} trials, seed {}): mean congestion{}",
            label(scheme),
            first.trials,
            first.seed,
            if compare { " (paper's Table II)" } else { "" }
        );
        let width = if compare { 15 } else { 8 };
        let _ = write!(out, "{:<12}", "pattern");
        for w in &ws {
            let _ = write!(out, "{:>width$}", format!("w={w}"));
        }
        out.push('\n');
        for p in &patterns {
            let _ = write!(out, "{:<12}", p.name(dims));
            for &w in &ws {
                let cell = rows
                    .iter()
                    .find(|r| r.cell.shape.w() == w && r.cell.pattern == *p);
                let text = match cell {
                    None => "-".to_string(),
                    Some(r) => {
                        let paper = (compare && dims == 2)
                            .then(|| paper::table_ii(scheme, *p, w))
                            .flatten();
                        match paper {
                            Some(v) => format!("{:.3} ({v:.2})", r.mean()),
                            None if compare => format!("{:.3}", r.mean()),
                            None => format!("{:.2}", r.mean()),
                        }
                    }
                };
                let _ = write!(out, "{text:>width$}");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// The largest difference from the paper's Table II over the cells the paper has: `(cells
/// compared, cells within `tolerance`, largest difference, where)`.
pub fn paper_agreement(results: &[CellResult], tolerance: f64) -> (usize, usize, f64, String) {
    let mut compared = 0;
    let mut within = 0;
    let mut worst = (0.0f64, String::new());
    for r in results.iter().filter(|r| r.cell.shape.dims() == 2) {
        let Some(v) = paper::table_ii(r.cell.scheme, r.cell.pattern, r.cell.shape.w()) else {
            continue;
        };
        compared += 1;
        let d = (r.mean() - v).abs();
        if d <= tolerance {
            within += 1;
        }
        if d >= worst.0 {
            worst = (
                d,
                format!(
                    "{} {} w={}: {:.4} vs {v:.2}",
                    r.cell.scheme,
                    r.cell.pattern.name(2),
                    r.cell.shape.w(),
                    r.mean()
                ),
            );
        }
    }
    (compared, within, worst.0, worst.1)
}

/// Version of the `--json` document's layout.
pub const FORMAT_VERSION: u32 = 1;

/// The `--json` document: `format_version` and `cells`, one object per cell as in
/// [`json_lines`].
pub fn json_document(results: &[CellResult]) -> String {
    let cells: Vec<_> = results.iter().map(CellResult::record).collect();
    let doc = serde_json::json!({ "format_version": FORMAT_VERSION, "cells": cells });
    let mut text = serde_json::to_string_pretty(&doc)
        .unwrap_or_else(|e| unreachable!("records serialise: {e}"));
    text.push('\n');
    text
}

/// One JSON object per cell, one per line (`--json-lines`).
pub fn json_lines(results: &[CellResult]) -> String {
    results
        .iter()
        .map(|r| {
            let mut line = serde_json::to_string(&r.record())
                .unwrap_or_else(|e| unreachable!("a record serialises: {e}"));
            line.push('\n');
            line
        })
        .collect()
}

/// An SVG of the mean congestion against `w` (both axes logarithmic): one line per scheme and
/// pattern, a colour per scheme and a marker per pattern (so every line has its own pair).
pub fn plot(results: &[CellResult]) -> String {
    let mut series = Vec::new();
    let scheme_list = schemes(results);
    for r in results {
        let dims = r.cell.shape.dims();
        let colour = scheme_list
            .iter()
            .position(|&(d, s)| d == dims && s == r.cell.scheme)
            .unwrap_or(0);
        let marker = match r.cell.pattern {
            Pattern::Contiguous => Marker::Dot,
            Pattern::Stride(1) => Marker::Triangle,
            Pattern::Stride(2) => Marker::Square,
            Pattern::Stride(_) => Marker::Diamond,
            Pattern::Diagonal => Marker::Cross,
            Pattern::Random => Marker::Ring,
            Pattern::Malicious => Marker::OpenTriangle,
        };
        let label = format!("{} {}", label(r.cell.scheme), r.cell.pattern.name(dims));
        let point = (f64::from(r.cell.shape.w()).log2(), r.mean().max(1.0));
        push(&mut series, &label, colour, marker, point);
    }
    let trials = results.first().map_or(0, |r| r.trials);
    let title = format!("Mean warp congestion against w ({trials} trials per point)");
    let axes = Axes {
        title: &title,
        size: (800, 560),
        x_desc: "w (banks = threads per warp)",
        y_desc: "mean congestion",
        log_y: true,
        x_log2: true,
    };
    line_chart(&axes, &series)
}

#[cfg(test)]
mod tests {
    use super::*;
    use models::rap::{simulate, Cell};

    fn results() -> Vec<CellResult> {
        let mut cells = Vec::new();
        for s in Scheme::TABLE_II {
            for p in [Pattern::Contiguous, Pattern::Stride(1)] {
                for w in [16, 32] {
                    cells.push(Cell::new(2, w, s, p).unwrap());
                }
            }
        }
        simulate(&cells, 200, 1, &|_| {})
    }

    #[test]
    fn table_has_a_block_per_scheme() {
        let text = table(&results(), false);
        assert!(
            text.contains("RAP (w x w matrix, 200 trials, seed 1): mean congestion"),
            "{text}"
        );
        assert!(text.contains("stride          1.00    1.00"), "{text}");
        assert!(text.contains("stride         16.00   32.00"), "{text}");
        let text = table(&results(), true);
        assert!(text.contains("32.000 (32.00)"), "{text}");
    }

    #[test]
    fn json_and_plot_and_agreement() {
        let r = results();
        let lines = json_lines(&r);
        assert_eq!(lines.lines().count(), r.len());
        let doc: serde_json::Value = serde_json::from_str(&json_document(&r)).unwrap();
        assert_eq!(doc["format_version"], 1);
        assert_eq!(doc["cells"].as_array().unwrap().len(), r.len());
        assert_eq!(
            doc["cells"][0],
            serde_json::from_str::<serde_json::Value>(lines.lines().next().unwrap()).unwrap()
        );
        let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
        for key in ["w", "scheme", "pattern", "trials", "seed", "mean", "max"] {
            assert!(first.get(key).is_some(), "{key} in {first}");
        }
        let svg = plot(&r);
        assert!(
            svg.contains("<svg") && svg.contains("RAP stride"),
            "{}",
            &svg[..200]
        );
        // 200 trials: the exact cells agree exactly, RAS stride within its noise.
        let (compared, within, worst, at) = paper_agreement(&r, 0.03);
        assert_eq!(compared, 12);
        assert!(within >= 10 && worst < 0.3, "{within} {worst} {at}");
    }
}
