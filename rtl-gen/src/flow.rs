//! The main job (`rtl-gen flow`, `scripts/main.sh`): one block of every family, generated,
//! co-simulated against its golden model and synthesized with Yosys, in one table. The hashers
//! are the paper's Fermi case ([`crate::hash::flow`]: every kind fixed, every configurable kind
//! configurable); then a RAP converter (`rtl-gen rap --banks 32`), the D²MA engine
//! (`rtl-gen d2ma engine`, 8 CTAs x 4 buffers, 128-byte segments), the banked shared memory
//! the hashers feed ([`shared_memory`]), and the engine with its data path filling a shared
//! memory, co-simulated end to end ([`system`]); last the bank-conflict counter of a 16-lane half-warp
//! in front of the Fig. 5 hasher (`rtl-gen conflict`).

use crate::block::{self, Block};
use crate::d2ma::system::{System, SystemDesign, DEFAULT_VECTOR_LENGTH};
use crate::d2ma::{D2maDesign, Unit};
use crate::qor::{self, BlockSynth};
use crate::rap::RapDesign;
use crate::smem::vectors::SmemPlan;
use crate::smem::{MapSpec, SmemDesign};
use crate::Error;
use models::smem::Shape;
use serde::Serialize;
use std::path::{Path, PathBuf};
use testbenches::CosimReport;

/// Writes a block's folder under an output folder, recording a command line; returns the folder.
type WriteBlock = Box<dyn Fn(&Path, &str) -> Result<PathBuf, Error>>;

/// One block of the flow: its name, its family and how its folder is written.
pub struct FlowBlock {
    /// The block's top module (= folder) name.
    pub name: String,
    /// Its family (`hash`, `rap`, `d2ma`, `smem`).
    pub family: &'static str,
    /// Writes its folder.
    write: WriteBlock,
}

impl FlowBlock {
    /// The flow's entry for a D²MA system: its folder holds the engine (its `top`, which
    /// synthesis measures) and the shared memory it fills, with the end-to-end testbench.
    fn system(design: SystemDesign) -> Self {
        FlowBlock {
            name: design.name(),
            family: "d2ma",
            write: Box::new(move |out, command| design.write(command, out).map(|(dir, _)| dir)),
        }
    }

    /// The flow's entry for `design`, its vectors drawn by `plan`.
    fn new<B: Block + 'static>(design: B, plan: B::Plan) -> Self {
        let identity = design.identity();
        FlowBlock {
            name: identity.name,
            family: identity.family,
            write: Box::new(move |out, command| block::write(&design, &plan, command, out)),
        }
    }
}

/// The blocks of the flow, hashers first.
pub fn blocks() -> Vec<FlowBlock> {
    let mut out: Vec<FlowBlock> = crate::hash::flow::designs()
        .into_iter()
        .map(|d| FlowBlock::new(d, Default::default()))
        .collect();
    let rap = RapDesign::drawn(models::rap::LayoutKind::Rap, 32, 1, false, false, false);
    out.push(FlowBlock::new(
        rap.unwrap_or_else(|e| unreachable!("the flow's RAP converter is valid: {e}")),
        Default::default(),
    ));
    let engine = D2maDesign::new(Unit::Engine, 8, 4, 128)
        .and_then(|d| d.with_global_bits(64))
        .unwrap_or_else(|e| unreachable!("the flow's D2MA engine is valid: {e}"));
    out.push(FlowBlock::new(engine, Default::default()));
    out.push(FlowBlock::new(
        shared_memory(),
        SmemPlan {
            random: SHARED_MEMORY_RANDOM,
            ..SmemPlan::default()
        },
    ));
    out.push(FlowBlock::system(system()));
    out.push(FlowBlock::new(
        crate::conflict::ConflictDesign::main_job(),
        Default::default(),
    ));
    out
}

/// The flow's D²MA system (`rtl-gen d2ma system` at the paper's size): the engine with its data
/// path writing sgemv's vector, halo, strided and transposed tiles and SAXPY's buffers into an
/// 8-lane x 32-bank x 512-word shared memory behind the XOR paper's fixed XOR for 32 banks, so
/// every tile lands in the hashed layout the warp then reads.
fn system() -> SystemDesign {
    let s = System::PAPER;
    let shape = Shape::new(s.lanes, s.banks, s.depth, 4)
        .unwrap_or_else(|e| unreachable!("the flow's system memory shape is valid: {e}"));
    SystemDesign::new(s, fixed_xor_map(shape), DEFAULT_VECTOR_LENGTH)
        .unwrap_or_else(|e| unreachable!("the flow's D2MA system is valid: {e}"))
}

/// Random warp accesses of the shared memory's testbench in the flow, after its directed
/// phases (which write each of its 16384 words first): enough to mix conflicts, broadcasts,
/// fill beats and back-pressure, few enough to keep the main job to a few minutes.
const SHARED_MEMORY_RANDOM: usize = 100;

/// The flow's shared memory: 16 lanes x 16 banks x 1024 words (the hashers' 14 address bits)
/// behind the XOR paper's fixed XOR for 16 banks (`rtl-gen smem --map hash --hash-config` with
/// `bank = addr[3:0] ^ addr[7:4]`), its banks SRAM macros (`sram_1024x32`), so synthesis counts
/// the logic and keeps the macros as black boxes, as a user's flow with an SRAM compiler would.
/// Half the paper's 32 x 32 so the main job stays a few minutes: the generic-gate synthesis of
/// the 32 x 32 logic alone takes several CPU minutes (16 x 16: about 35 s).
fn shared_memory() -> SmemDesign {
    let shape = Shape::new(16, 16, 1024, 4)
        .unwrap_or_else(|e| unreachable!("the flow's memory shape is valid: {e}"));
    SmemDesign::new(
        shape,
        fixed_xor_map(shape),
        1,
        Some("sram_1024x32".into()),
        32,
    )
    .unwrap_or_else(|e| unreachable!("the flow's shared memory is valid: {e}"))
}

/// The XOR paper's fixed XOR for `shape`'s banks and 14 address bits, as a shared memory's map.
fn fixed_xor_map(shape: Shape) -> MapSpec {
    let geometry = models::Geometry::new(shape.addr_bits(), u64::from(shape.banks()))
        .unwrap_or_else(|e| unreachable!("the flow's memory geometry is valid: {e}"));
    let config = models::search::fixed_xor(geometry)
        .unwrap_or_else(|| unreachable!("14 address bits leave room for the fixed XOR"));
    MapSpec::Hash {
        config,
        configurable: false,
    }
}

/// One block's outcome in the flow.
#[derive(Debug, Serialize)]
pub struct FlowRow {
    /// The block's family.
    pub family: &'static str,
    /// The block's folder.
    pub dir: PathBuf,
    /// The co-simulation verdict.
    pub cosim: CosimReport,
    /// The synthesis result.
    pub synth: BlockSynth,
}

/// A step of the flow, for progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Writing the block's folder (RTL, manifest, testbench, vectors).
    Generate,
    /// Building and running its testbench.
    Cosimulate,
    /// Synthesizing it with Yosys.
    Synthesize,
}

impl Step {
    /// The step's name in progress messages.
    pub fn name(self) -> &'static str {
        match self {
            Step::Generate => "generate",
            Step::Cosimulate => "co-simulate",
            Step::Synthesize => "synthesize",
        }
    }
}

/// Runs the flow into `out_dir`; `progress` is called with each block's index, name and step
/// before the step runs.
pub fn run(
    out_dir: &Path,
    simulator: &str,
    liberty: Option<&Path>,
    command: &str,
    mut progress: impl FnMut(usize, &str, Step),
) -> Result<Vec<FlowRow>, Error> {
    // Every input is checked before the first block is written.
    testbenches::simulator_by_name(simulator)?;
    if let Some(lib) = liberty {
        synth::check_liberty(lib)?;
    }
    let blocks = blocks();
    for b in &blocks {
        crate::output::Staging::check(out_dir, &b.name)?;
    }
    let mut rows = Vec::new();
    for (index, b) in blocks.into_iter().enumerate() {
        progress(index, &b.name, Step::Generate);
        let dir = (b.write)(out_dir, command)?;
        progress(index, &b.name, Step::Cosimulate);
        let (_, cosim) = crate::cosim::run(&dir, simulator)?;
        progress(index, &b.name, Step::Synthesize);
        let synth = qor::synthesize_block(&dir, liberty, command)?;
        rows.push(FlowRow {
            family: b.family,
            dir,
            cosim,
            synth,
        });
    }
    Ok(rows)
}

/// The flow's summary table for a terminal.
pub fn render(rows: &[FlowRow]) -> String {
    let liberty = rows
        .first()
        .is_some_and(|r| r.synth.report.area_um2.is_some());
    // The block and variant columns are as wide as their longest entry.
    let width = |f: &dyn Fn(&FlowRow) -> usize, title: &str| {
        rows.iter().map(f).max().unwrap_or(0).max(title.len())
    };
    // A block's folder is named after its top module; a system's after the system.
    let folder = |r: &FlowRow| {
        r.dir
            .file_name()
            .map_or_else(|| r.synth.top.clone(), |f| f.to_string_lossy().into_owned())
    };
    let block_w = width(&|r| folder(r).len(), "block");
    let variant_w = width(&|r| r.synth.variant.len(), "variant");
    let line = |cells: [&str; 9]| {
        format!(
            "{:<6} {:<block_w$} {:<variant_w$} {:>9} {:>7} {:>6} {:>5} {:>12} {:>10}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            cells[5],
            cells[6],
            cells[7],
            cells[8]
        )
    };
    let mut out = line([
        "family",
        "block",
        "variant",
        "vectors",
        "failed",
        "cells",
        "regs",
        if liberty { "area um2" } else { "transistors" },
        if liberty { "delay ps" } else { "depth" },
    ]);
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
        out.push_str(&line([
            r.family,
            &folder(r),
            &r.synth.variant,
            &r.cosim.vectors.to_string(),
            &r.cosim.failed.to_string(),
            &s.cell_count.to_string(),
            &s.registers.to_string(),
            &size,
            &speed,
        ]));
    }
    out
}
