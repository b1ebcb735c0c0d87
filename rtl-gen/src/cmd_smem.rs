//! `rtl-gen smem`: generate a banked shared memory with a hasher or RAP in front of its banks,
//! and replay kernels through it.

use clap::{Args, ValueEnum};
use models::smem::Shape;
use rtl_gen::smem::replay::{self, Row};
use rtl_gen::smem::vectors::SmemPlan;
use rtl_gen::smem::{MapRequest, SmemDesign};
use rtl_gen::{limits, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// The ports of the memory's top module.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InterfaceArg {
    /// One warp access a cycle with a mask, one response per access, the fill port.
    Native,
    /// Vortex's VX_local_mem (a request and a response per lane, tags, the DCR bus).
    Vortex,
}

/// On or off.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

/// Arguments of `rtl-gen smem`.
#[derive(Args)]
#[command(after_help = "\
Every address maps to one bank and one row (a bijection): modulo keeps the high bits as the row,
a hash the bits its software index keeps (docs/SMEM.md), RAP the tile and row above the column.

Examples:
  rtl-gen smem --lanes 32 --banks 32 --depth 512 --map modulo --out out/
  rtl-gen cosim out/smem_l32_b32_d512
  rtl-gen search --trace kernels/fwt.trace --out out/fwt
  rtl-gen smem --lanes 32 --banks 32 --depth 512 --map hash --hash-config out/fwt/best.json --out out/
  rtl-gen smem --lanes 32 --banks 32 --depth 1024 --map rap --rap-seed 1 --out out/
  rtl-gen smem --lanes 32 --banks 16 --depth 1024 --word-bytes 8 --map rap --rap-wide --out out/
  rtl-gen smem --map hash --hash-config cfg.json --configurable --sram-macro sram_512x32 --out out/
  rtl-gen smem --sram-macro ../shared/pdk/openram/sram_512x32_fp45_TT_1p0V_25C.lib --out out/
  rtl-gen smem --lanes 4 --banks 4 --depth 64 --sram-macro openram:freepdk45 --out out/
  rtl-gen synth out/smem_l32_b32_d512_bvxor_cfg_macro --liberty ../shared/pdk/nangate45_typ.lib.gz
  rtl-gen smem --map modulo --replay kernels/fwt.trace kernels/lud.trace --out out/
  rtl-gen smem --lanes 4 --banks 4 --depth 1024 --interface vortex --out out/
  rtl-gen smem --lanes 4 --banks 4 --depth 1024 --interface vortex --broadcast off --map hash \
      --configurable --hash-config out/hash_bvxor_n12_b4/hash_bvxor_n12_b4.json --out out/

Exit status: 0 on success; 1 when a replay's RTL cycles differ from the model's; 2 on bad input
(nothing is written) or a failed simulation.")]
pub struct SmemArgs {
    /// Addresses per warp access: a power of two from 2 to 64.
    #[arg(long, default_value_t = 32)]
    lanes: u32,
    /// Banks: a power of two from 2 to 128.
    #[arg(long, default_value_t = 32)]
    banks: u32,
    /// Rows (words) per bank: a power of two from 2 to 65536.
    #[arg(long, default_value_t = 512)]
    depth: u32,
    /// Bytes per word and bank row: 4, or 8 (served by the half-warp rule of docs/GPU.md).
    #[arg(long, default_value_t = 4)]
    word_bytes: u32,
    #[command(flatten)]
    map: MapRequest,
    /// Words per fill-port beat, 1 to --lanes.
    #[arg(long, default_value_t = 1)]
    fill_words: u32,
    /// Every bank an SRAM macro: NAME (the port list of docs/SMEM.md, a black box; a model
    /// NAME.v is written for simulation), `openram[:TECH]` (OpenRAM makes one of the bank's size,
    /// cached: minutes; TECH freepdk45 or scn4m_subm), or an OpenRAM macro's .lib (its .lef
    /// beside it). An OpenRAM macro's views go into the block folder for `rtl-gen synth`.
    #[arg(long, value_name = "MACRO")]
    sram_macro: Option<String>,
    /// Bits of each performance counter (1 to 64).
    #[arg(long, default_value_t = 32)]
    counter_bits: u32,
    /// Serve lanes that read one word with one bank read (off: every lane its own bank access,
    /// as Vortex's own local memory).
    #[arg(long, value_enum, default_value_t = Switch::On)]
    broadcast: Switch,
    /// The top's ports: native, or Vortex's VX_local_mem (docs/SMEM.md, Vortex interface;
    /// Vortex's 16 KiB default is --lanes 4 --banks 4 --depth 1024).
    #[arg(long, value_enum, default_value_t = InterfaceArg::Native)]
    interface: InterfaceArg,
    /// --interface vortex: bits of a request's tag, Vortex's TAG_WIDTH (2 in a release
    /// rtlsim, 45 with DEBUG: a 44-bit UUID).
    #[arg(long, default_value_t = 2)]
    tag_bits: u32,
    /// Output folder; the block goes to <out>/<module name>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Seed of the testbench's random vectors.
    #[arg(long, default_value_t = SmemPlan::default().seed)]
    seed: u64,
    /// Random warp accesses in the testbench (after its directed phases).
    #[arg(long, default_value_t = SmemPlan::default().random)]
    vectors: usize,
    /// Kernel traces (docs/TRACE_FORMAT.md) to run through the RTL under Verilator, their
    /// cycles printed beside the model's; the replay runs in <block>/replay/.
    #[arg(long, num_args = 1..)]
    replay: Vec<PathBuf>,
    /// With --replay and a --configurable map: before each trace, program the best
    /// configuration `rtl-gen search` finds for it (of the map's kind; xor-matrix takes the best
    /// of every family).
    #[arg(long)]
    replay_search: bool,
    /// Simulator of the replay.
    #[arg(long, default_value = "verilator", value_parser = clap::builder::PossibleValuesParser::new(testbenches::simulator::SIMULATOR_NAMES))]
    simulator: String,
    /// Print the manifest (with the replay's rows under "replay") as one JSON document.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

/// Runs `rtl-gen smem`.
pub fn run(args: SmemArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    limits::check(
        "--vectors",
        args.vectors as u64,
        limits::MAX_SMEM_RANDOM,
        "random warp accesses of the testbench",
    )?;
    let shape = Shape::new(args.lanes, args.banks, args.depth, args.word_bytes)?;
    let map = args.map.spec(shape)?;
    let mut design = SmemDesign::new(shape, map, args.fill_words, None, args.counter_bits)?
        .with_broadcast(args.broadcast == Switch::On)?;
    if let Some(value) = &args.sram_macro {
        let progress = |what: &str| eprintln!("rtl-gen smem: {what}");
        let sram = rtl_gen::sram::resolve(value, args.depth, args.word_bytes, &progress)?;
        design = design.with_sram(sram)?;
    }
    if args.interface == InterfaceArg::Vortex {
        design = design.with_vortex(args.tag_bits)?;
    }
    let plan = SmemPlan {
        seed: args.seed,
        random: args.vectors,
    };
    let request = replay::Request {
        traces: &args.replay,
        search: args.replay_search,
        simulator: &args.simulator,
    };
    let (written, rows) = replay::generate(&design, &plan, command, &args.out, &request)?;
    if args.replay.is_empty() {
        crate::cli::print_written(&written, args.json);
    } else if args.json {
        let mut value =
            serde_json::to_value(&written.manifest).unwrap_or_else(|e| unreachable!("{e}"));
        value["replay"] = serde_json::to_value(&rows).unwrap_or_else(|e| unreachable!("{e}"));
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_else(|e| unreachable!("{e}"))
        );
    } else {
        println!("{}", written.line());
        print!("{}", replay::markdown(&rows));
    }
    Ok(if rows.iter().all(Row::matches) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
