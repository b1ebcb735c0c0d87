//! The default end-to-end flow: the paper's Fermi case (14 address bits, 32 banks) for every
//! hash kind, fixed and configurable, generated, co-simulated against the golden models and
//! synthesized with Yosys, summarised in one table.

use crate::block;
use crate::hash::vectors::VectorPlan;
use crate::hash::HashDesign;
use crate::qor::{self, BlockSynth};
use crate::Error;
use models::HashConfigObject;
use serde::Serialize;
use std::path::Path;
use testbenches::CosimReport;

/// The fixed configurations of the flow, one per kind, as configuration-object JSON: the
/// paper's Fig. 5 bit-vector XOR, the fixed XOR of its reference \[17\] (`addr[0..4] ^
/// addr[5..9]`) as bitwise XOR, and simple full-rank choices for the others.
pub const FERMI_CONFIGS: [&str; 6] = [
    r#"{"kind":"modulo","addr_bits":14,"banks":32}"#,
    r#"{"kind":"bitvector-perm","addr_bits":14,"banks":32,"k":2}"#,
    r#"{"kind":"bitvector-xor","addr_bits":14,"banks":32,"k1":2,"k2":8,"mask":7}"#,
    r#"{"kind":"bitwise-perm","addr_bits":14,"banks":32,"bits":[0,3,4,8,9]}"#,
    r#"{"kind":"bitwise-xor","addr_bits":14,"banks":32,"pairs":[[0,5],[1,6],[2,7],[3,8],[4,9]]}"#,
    r#"{"kind":"xor-matrix","addr_bits":14,"banks":32,"rows":["0x421","0x842","0x1084","0x2108","0x210"]}"#,
];

/// One design's outcome in the flow.
#[derive(Debug, Serialize)]
pub struct FlowRow {
    /// The block's folder.
    pub dir: std::path::PathBuf,
    /// The co-simulation verdict.
    pub cosim: CosimReport,
    /// The synthesis result.
    pub synth: BlockSynth,
}

/// The designs of the flow: every kind fixed, every configurable kind configurable.
pub fn designs() -> Vec<HashDesign> {
    let mut out = Vec::new();
    for text in FERMI_CONFIGS {
        let object = HashConfigObject::from_json(text).unwrap_or_else(|e| unreachable!("{e}"));
        let fixed =
            HashDesign::new(&object, false, false, false).unwrap_or_else(|e| unreachable!("{e}"));
        out.push(fixed);
        if object.kind != models::HashKind::Modulo {
            let bare = HashConfigObject::new(object.kind, object.addr_bits, object.banks);
            out.push(
                HashDesign::new(&bare, true, false, false).unwrap_or_else(|e| unreachable!("{e}")),
            );
        }
    }
    out
}

/// Runs the flow into `out_dir`; `progress` is called with each design's name before it runs.
pub fn run(
    out_dir: &Path,
    simulator: &str,
    liberty: Option<&Path>,
    command: &str,
    mut progress: impl FnMut(&str),
) -> Result<Vec<FlowRow>, Error> {
    // Every input is checked before the first block is written.
    testbenches::simulator_by_name(simulator)?;
    if let Some(lib) = liberty {
        synth::check_liberty(lib)?;
    }
    let designs = designs();
    for design in &designs {
        crate::output::Staging::check(out_dir, &design.name())?;
    }
    let mut rows = Vec::new();
    for design in designs {
        progress(&design.name());
        let dir = block::write(&design, &VectorPlan::default(), command, out_dir)?;
        let (_, cosim) = crate::cosim::run(&dir, simulator)?;
        let synth = qor::synthesize_block(&dir, liberty, command)?;
        rows.push(FlowRow { dir, cosim, synth });
    }
    Ok(rows)
}

/// The flow's summary table for a terminal.
pub fn render(rows: &[FlowRow]) -> String {
    let liberty = rows
        .first()
        .is_some_and(|r| r.synth.report.area_um2.is_some());
    let mut out = format!(
        "{:<26} {:<12} {:>9} {:>7} {:>6} {:>12} {:>10}\n",
        "block",
        "variant",
        "vectors",
        "failed",
        "cells",
        if liberty { "area um2" } else { "transistors" },
        if liberty { "delay ps" } else { "depth" },
    );
    for r in rows {
        let s = &r.synth.report;
        let (size, speed) = if liberty {
            (
                s.area_um2.map_or("-".into(), |a| format!("{a:.1}")),
                s.delay_ps.map_or("-".into(), |d| format!("{d:.0}")),
            )
        } else {
            (
                s.transistors.map_or("-".into(), |t| t.to_string()),
                s.depth_gates.map_or("-".into(), |d| d.to_string()),
            )
        };
        out.push_str(&format!(
            "{:<26} {:<12} {:>9} {:>7} {:>6} {:>12} {:>10}\n",
            r.synth.top,
            r.synth.variant,
            r.cosim.vectors,
            r.cosim.failed,
            s.cell_count,
            size,
            speed
        ));
    }
    out
}
