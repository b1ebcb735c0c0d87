//! What `rtl-gen search` writes: the text table, the JSON report, the configuration files, the
//! heat map of bank loads and the suite summary.

use crate::plot::heatmap::{self, Labels, Panel};
use models::search::{best, best_per_kind, Detail, Found, Report, Trace};
use models::{Geometry, HashConfig, HashConfigObject, HashFunction};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Version of the JSON report's layout.
pub const FORMAT_VERSION: u32 = 1;

/// The configuration in the flags' words: `k1=2 k2=8 mask=7`, `bits=0,3,4`, `pairs=0:5,1:6`.
pub fn config_text(config: &HashConfig) -> String {
    let join = |items: Vec<String>| items.join(",");
    match config.function() {
        HashFunction::Modulo => "-".into(),
        HashFunction::BitvectorPerm { k } => format!("k={k}"),
        HashFunction::BitvectorXor { k1, k2, mask } => format!("k1={k1} k2={k2} mask={mask}"),
        HashFunction::BitwisePerm { bits } => {
            format!("bits={}", join(bits.iter().map(u32::to_string).collect()))
        }
        HashFunction::BitwiseXor { pairs } => format!(
            "pairs={}",
            join(pairs.iter().map(|(a, b)| format!("{a}:{b}")).collect())
        ),
        HashFunction::XorMatrix { rows } => {
            format!(
                "rows={}",
                join(rows.iter().map(|r| format!("{r:#x}")).collect())
            )
        }
    }
}

/// The file a result's configuration is written to: `bitwise-xor-mih.json`.
pub fn file_name(found: &Found) -> String {
    format!("{}-{}.json", found.kind(), found.heuristic)
}

/// The configuration object as pretty JSON, as `rtl-gen hash --config` reads it.
pub fn config_json(config: &HashConfig) -> String {
    let object = HashConfigObject::from_config(config);
    serde_json::to_string_pretty(&object)
        .unwrap_or_else(|e| unreachable!("a configuration object serializes: {e}"))
        + "\n"
}

fn class_counts(report: &Report) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for c in &report.classes {
        let name = match c {
            models::search::classify::AccessClass::Linear => "linear",
            models::search::classify::AccessClass::Stride { .. } => "stride",
            models::search::classify::AccessClass::Block { .. } => "block",
            models::search::classify::AccessClass::Random => "random",
        };
        *counts.entry(name).or_insert(0) += 1;
    }
    counts
}

fn detail_text(found: &Found) -> String {
    match &found.detail {
        Detail::None => String::new(),
        Detail::Pruned {
            full_space,
            pruned_space,
            pruned,
        } => format!(
            "pruned: {pruned_space} of {full_space} configurations, {} ({} replays)",
            if pruned.cost.replays <= found.candidate.cost.replays {
                "as good"
            } else {
                "worse"
            },
            pruned.cost.replays
        ),
        Detail::Gf2 {
            affine_sets,
            sets,
            exact,
            optimal,
        } => format!(
            "{affine_sets} of {sets} distinct accesses affine, exact search {exact:?}{}",
            if *optimal { ", optimal" } else { "" }
        ),
    }
}

/// The text report of one trace.
pub fn text(name: &str, report: &Report) -> String {
    let mut out = String::new();
    let w = &report.workload;
    let classes: Vec<String> = class_counts(report)
        .into_iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect();
    let _ = writeln!(
        out,
        "{name}: {} warp accesses ({} distinct); {}",
        w.accesses(),
        w.sets().len(),
        classes.join(", ")
    );
    let _ = writeln!(
        out,
        "before (modulo): {} replays, mean congestion {:.3}; lower bound {} replays",
        report.before.replays,
        report.before.mean_congestion(),
        report.lower_bound.replays
    );
    let _ = writeln!(
        out,
        "{:<15} {:<10} {:>8} {:>6} {:>8}  configuration",
        "kind", "heuristic", "replays", "mean", "removed"
    );
    for f in &report.found {
        let c = &f.candidate.cost;
        let detail = detail_text(f);
        let _ = writeln!(
            out,
            "{:<15} {:<10} {:>8} {:>6.3} {:>7.1}%  {}{}",
            f.kind().name(),
            f.heuristic.name(),
            c.replays,
            c.mean_congestion(),
            c.removed_percent(&report.before),
            config_text(&f.candidate.config),
            if detail.is_empty() {
                String::new()
            } else {
                format!("  [{detail}]")
            }
        );
    }
    if let Some(b) = best(&report.found) {
        let _ = writeln!(out, "best: {} {}", b.kind(), b.heuristic);
    }
    out
}

/// The JSON report of one trace.
pub fn json(name: &str, report: &Report) -> Value {
    let cost = |c: &models::search::Cost| json!({"replays": c.replays, "mean_congestion": c.mean_congestion()});
    let results: Vec<Value> = report
        .found
        .iter()
        .map(|f| {
            let mut v = json!({
                "kind": f.kind().name(),
                "heuristic": f.heuristic.name(),
                "configuration": HashConfigObject::from_config(&f.candidate.config),
                "replays": f.candidate.cost.replays,
                "mean_congestion": f.candidate.cost.mean_congestion(),
                "removed_percent": f.candidate.cost.removed_percent(&report.before),
                "file": file_name(f),
            });
            match &f.detail {
                Detail::None => {}
                Detail::Pruned {
                    full_space,
                    pruned_space,
                    pruned,
                } => {
                    v["pruned"] = json!({
                        "space": pruned_space,
                        "full_space": full_space,
                        "configuration": HashConfigObject::from_config(&pruned.config),
                        "replays": pruned.cost.replays,
                        "as_good": pruned.cost.replays <= f.candidate.cost.replays,
                    })
                }
                Detail::Gf2 {
                    affine_sets,
                    sets,
                    exact,
                    optimal,
                } => {
                    v["gf2"] = json!({
                        "affine_sets": affine_sets,
                        "sets": sets,
                        "exact": format!("{exact:?}"),
                        "optimal": optimal,
                    })
                }
            }
            v
        })
        .collect();
    json!({
        "format_version": FORMAT_VERSION,
        "trace": name,
        "addr_bits": report.workload.geometry().addr_bits(),
        "banks": report.workload.geometry().banks(),
        "warp_accesses": report.workload.accesses(),
        "distinct_accesses": report.workload.sets().len(),
        "classes": class_counts(report),
        "before": cost(&report.before),
        "lower_bound": cost(&report.lower_bound),
        "results": results,
        "best": best(&report.found).map(|b| json!({"kind": b.kind().name(), "heuristic": b.heuristic.name()})),
    })
}

/// The files of one trace's search: name and contents, in a fixed order.
pub fn files(name: &str, trace: &Trace, report: &Report) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = report
        .found
        .iter()
        .map(|f| (file_name(f), config_json(&f.candidate.config)))
        .collect();
    for b in best_per_kind(&report.found) {
        files.push((
            format!("best-{}.json", b.kind()),
            config_json(&b.candidate.config),
        ));
    }
    if let Some(b) = best(&report.found) {
        files.push(("best.json".into(), config_json(&b.candidate.config)));
        files.push((
            "heatmap.svg".into(),
            heatmap(name, trace, &b.candidate.config),
        ));
    }
    let report_json = serde_json::to_string_pretty(&json(name, report))
        .unwrap_or_else(|e| unreachable!("the report serializes: {e}"));
    files.push(("search.json".into(), report_json + "\n"));
    files
}

/// Warp accesses drawn in the heat map at most.
pub const HEATMAP_ROWS: usize = 256;

/// An SVG heat map of the bank loads (distinct addresses per bank) of each warp access, under
/// modulo on the left and under `after` on the right; one row per access (the first
/// [`HEATMAP_ROWS`]), one column per bank.
pub fn heatmap(name: &str, trace: &Trace, after: &HashConfig) -> String {
    let g: Geometry = after.geometry();
    let banks = g.banks() as usize;
    let rows = trace.accesses.len().min(HEATMAP_ROWS);
    let loads = |bank_of: &dyn Fn(u64) -> u64| -> Vec<Vec<u32>> {
        trace.accesses[..rows]
            .iter()
            .map(|a| {
                let mut distinct = a.addresses.clone();
                distinct.sort_unstable();
                distinct.dedup();
                let mut l = vec![0u32; banks];
                for x in distinct {
                    l[bank_of(x) as usize] += 1;
                }
                l
            })
            .collect()
    };
    let bank_mask = g.bank_mask();
    let panels = [
        Panel {
            title: "before: modulo".to_string(),
            cells: loads(&|a| a & bank_mask),
        },
        Panel {
            title: format!("after: {} {}", after.kind(), config_text(after)),
            cells: loads(&|a| after.bank(a)),
        },
    ];
    let title = format!(
        "{name}: bank loads of the first {rows} of {} warp accesses",
        trace.accesses.len()
    );
    let labels = Labels {
        title: &title,
        x_desc: "bank",
        y_desc: "warp access",
        count_desc: "distinct addresses per bank",
    };
    heatmap::svg(&labels, &panels)
}

/// The suite summary: per kernel, the percentage of the modulo baseline's replays each
/// (family, heuristic) removes, their averages over kernels with conflicts, and how often the
/// pruned bit-vector search is as good as the full one.
pub fn summary(reports: &[(String, Report)]) -> String {
    let Some((_, first)) = reports.first() else {
        return String::new();
    };
    let columns: Vec<String> = first
        .found
        .iter()
        .map(|f| format!("{} {}", f.kind(), f.heuristic))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| kernel | replays (modulo) | {} |",
        columns.join(" | ")
    );
    let _ = writeln!(out, "|---|---:|{}", "---:|".repeat(columns.len()));
    let mut sums = vec![0.0; columns.len()];
    let mut counted = 0;
    let (mut pruned_good, mut pruned_total) = (0, 0);
    for (name, r) in reports {
        let cells: Vec<String> = r
            .found
            .iter()
            .map(|f| format!("{:.0}%", f.candidate.cost.removed_percent(&r.before)))
            .collect();
        let _ = writeln!(
            out,
            "| {name} | {} | {} |",
            r.before.replays,
            cells.join(" | ")
        );
        if r.before.replays > 0 {
            counted += 1;
            for (s, f) in sums.iter_mut().zip(&r.found) {
                *s += f.candidate.cost.removed_percent(&r.before);
            }
        }
        for f in &r.found {
            if let Detail::Pruned { pruned, .. } = &f.detail {
                pruned_total += 1;
                pruned_good += usize::from(pruned.cost.replays <= f.candidate.cost.replays);
            }
        }
    }
    let averages: Vec<String> = sums
        .iter()
        .map(|s| format!("**{:.0}%**", s / counted.max(1) as f64))
        .collect();
    let _ = writeln!(
        out,
        "| average of {counted} kernels | | {} |",
        averages.join(" | ")
    );
    if pruned_total > 0 {
        let _ = writeln!(
            out,
            "\nPruned bit-vector XOR search as good as the full one on {pruned_good} of {pruned_total} kernels."
        );
    }
    out
}
