//! `rtl-gen smem`: generate a banked shared memory with a hasher or RAP in front of its banks,
//! and replay kernels through it.

use clap::{Args, ValueEnum};
use models::rap::LayoutKind;
use models::search::{best, best_per_kind, plan, search};
use models::smem::{Map, Shape};
use models::software::SoftwareIndex;
use models::{Geometry, HashConfig, HashFunction, HashKind};
use rtl_gen::rap::RapDesign;
use rtl_gen::smem::replay::{self, Kernel, Row};
use rtl_gen::smem::vectors::SmemPlan;
use rtl_gen::smem::{MapSpec, SmemDesign};
use rtl_gen::{limits, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// The maps in front of the banks.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MapArg {
    /// Bank = the low address bits.
    Modulo,
    /// A hasher (--hash-config), fixed or --configurable.
    Hash,
    /// RAP on banks x banks tiles (--rap-seed, --rap-wide, --rap-loadable).
    Rap,
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
  rtl-gen synth out/smem_l32_b32_d512_bvxor_cfg_macro --liberty ../shared/pdk/nangate45_typ.lib.gz
  rtl-gen smem --map modulo --replay kernels/fwt.trace kernels/lud.trace --out out/

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
    map: MapArgs,
    /// Words per fill-port beat, 1 to --lanes.
    #[arg(long, default_value_t = 1)]
    fill_words: u32,
    /// Instantiate this single-port SRAM macro per bank (its port list is in docs/SMEM.md; a
    /// behavioural model NAME.v is written for simulation).
    #[arg(long, value_name = "NAME")]
    sram_macro: Option<String>,
    /// Bits of each performance counter (1 to 64).
    #[arg(long, default_value_t = 32)]
    counter_bits: u32,
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

/// The map in front of a shared memory's banks and its options (`rtl-gen smem`, and the shared
/// memory of `rtl-gen d2ma system`).
#[derive(Args)]
pub struct MapArgs {
    /// The map in front of the banks [default: modulo].
    #[arg(long, value_enum)]
    pub map: Option<MapArg>,
    /// --map hash: a configuration object or block manifest (`rtl-gen hash --config`'s file,
    /// `rtl-gen search`'s best.json) with log2(banks x depth) address bits and --banks banks.
    #[arg(long)]
    pub hash_config: Option<PathBuf>,
    /// --map hash: hold the hash in a configuration register written through cfg_we_i/cfg_i
    /// (the file's configuration is its reset value).
    #[arg(long)]
    pub configurable: bool,
    /// --map rap: seed of the permutation [default: 1].
    #[arg(long)]
    pub rap_seed: Option<u64>,
    /// --map rap: a permutation conflict-free for 8-byte words too (Permutation::random_wide).
    #[arg(long)]
    pub rap_wide: bool,
    /// --map rap: the table in registers written through perm_we_i (else baked in).
    #[arg(long)]
    pub rap_loadable: bool,
}

impl MapArgs {
    /// The flags given, by name (for a command that takes them only in some modes).
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--map", self.map.is_some()),
            ("--hash-config", self.hash_config.is_some()),
            ("--configurable", self.configurable),
            ("--rap-seed", self.rap_seed.is_some()),
            ("--rap-wide", self.rap_wide),
            ("--rap-loadable", self.rap_loadable),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }

    /// The map the flags ask for, validated against the shape.
    pub fn spec(&self, shape: Shape) -> Result<MapSpec, Error> {
        let map = self.map.unwrap_or(MapArg::Modulo);
        let rap_flags = self.rap_seed.is_some() || self.rap_wide || self.rap_loadable;
        if map != MapArg::Rap && rap_flags {
            return Err(bad("--rap-*", "given", "apply to --map rap only"));
        }
        if map != MapArg::Hash && (self.hash_config.is_some() || self.configurable) {
            return Err(bad(
                "--hash-config/--configurable",
                "given",
                "apply to --map hash only",
            ));
        }
        let geometry = Geometry::new(shape.addr_bits(), u64::from(shape.banks()))?;
        match map {
            MapArg::Modulo => Ok(MapSpec::Hash {
                config: HashConfig::new(geometry, HashFunction::Modulo)?,
                configurable: false,
            }),
            MapArg::Hash => {
                let path = self
                    .hash_config
                    .as_ref()
                    .ok_or_else(|| bad("--map", "hash", "needs --hash-config FILE"))?;
                let object = crate::cmd_hash::read_config_file(path)?;
                let (_, config) = object.validate()?;
                let config = config.ok_or_else(|| {
                    bad(
                        "--hash-config",
                        &path.display().to_string(),
                        "gives no configuration fields: the memory needs a whole configuration \
                         (a configurable map's reset value)",
                    )
                })?;
                if self.configurable && config.kind() == HashKind::Modulo {
                    return Err(Error::NothingToConfigure(HashKind::Modulo));
                }
                Ok(MapSpec::Hash {
                    config,
                    configurable: self.configurable,
                })
            }
            MapArg::Rap => {
                let seed = self.rap_seed.unwrap_or(1);
                let rap = RapDesign::drawn(
                    LayoutKind::Rap,
                    shape.banks(),
                    seed,
                    self.rap_wide,
                    self.rap_loadable,
                    false,
                )?;
                Ok(MapSpec::Rap(rap))
            }
        }
    }
}

fn bad(flag: &'static str, value: &str, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

/// The best configuration `rtl-gen search` finds for `trace`, as a map of `design`'s kind.
fn searched(
    design: &SmemDesign,
    kernel: &str,
    trace: &models::search::Trace,
) -> (Map, testbenches::Bits) {
    let s = design.shape();
    let geometry =
        Geometry::new(s.addr_bits(), u64::from(s.banks())).unwrap_or_else(|e| unreachable!("{e}"));
    let MapSpec::Hash { config, .. } = design.map() else {
        unreachable!("--replay-search needs a configurable hash")
    };
    let report = search(
        trace,
        geometry,
        &plan(None, None).unwrap_or_else(|e| unreachable!("{e}")),
    );
    let kind = config.kind();
    let found = if kind == HashKind::XorMatrix {
        best(&report.found)
    } else {
        best_per_kind(&report.found)
            .into_iter()
            .find(|f| f.kind() == kind)
    };
    let found = found.unwrap_or_else(|| unreachable!("{kernel}: every family is searched"));
    let config = if kind == HashKind::XorMatrix {
        let rows = found.candidate.config.to_matrix().rows().to_vec();
        HashConfig::new(geometry, HashFunction::XorMatrix { rows })
            .unwrap_or_else(|e| unreachable!("{e}"))
    } else {
        found.candidate.config.clone()
    };
    let index = SoftwareIndex::new(&config).unwrap_or_else(|e| unreachable!("searched: {e}"));
    let bits = design.cfg_value(&index);
    (Map::Hash(index), bits)
}

/// Prints the replay's rows as a Markdown table.
fn print_rows(rows: &[Row]) {
    println!("| kernel | accesses | RTL cycles | model cycles | RTL bank cycles | model bank cycles | RTL conflict cycles | model conflict cycles | equal |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.kernel,
            r.accesses,
            r.rtl_cycles,
            r.model_cycles,
            r.rtl_bank_cycles,
            r.model_bank_cycles,
            r.rtl_conflict_cycles,
            r.model_conflict_cycles,
            if r.matches() { "yes" } else { "NO" }
        );
    }
}

/// Reads the `--replay` traces as kernels, refusing more accesses in all than
/// [`limits::MAX_REPLAY_ACCESSES`] and, with `--replay-search`, a search past its limit; then
/// searches each kernel's best map when asked.
fn kernels(args: &SmemArgs, design: &SmemDesign) -> Result<Vec<Kernel>, Error> {
    let shape = design.shape();
    let mut traces = Vec::new();
    for path in &args.replay {
        let trace = crate::cmd_search::read_trace(path, shape.addr_bits(), shape.lanes() as usize)?;
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        traces.push((name, trace));
    }
    let accesses = traces
        .iter()
        .map(|(_, t)| t.accesses.len() as u64)
        .fold(0, u64::saturating_add);
    limits::check(
        "--replay",
        accesses,
        limits::MAX_REPLAY_ACCESSES,
        "warp accesses replayed in all",
    )?;
    if args.replay_search {
        let geometry = Geometry::new(shape.addr_bits(), u64::from(shape.banks()))?;
        crate::cmd_search::check_search_space(
            &traces,
            geometry,
            &plan(None, None).unwrap_or_else(|e| unreachable!("{e}")),
            &crate::cmd_search::SearchSizeFlag {
                flag: "--depth",
                value: shape.depth().to_string(),
                remedy: "lower --depth or --banks (the address bits), or replay fewer or shorter \
                         traces",
            },
        )?;
    }
    Ok(traces
        .into_iter()
        .map(|(name, trace)| {
            let program = args.replay_search.then(|| searched(design, &name, &trace));
            Kernel {
                name,
                trace,
                program,
            }
        })
        .collect())
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
    let design = SmemDesign::new(
        shape,
        map,
        args.fill_words,
        args.sram_macro.clone(),
        args.counter_bits,
    )?;
    if args.replay_search && !design.configurable() {
        return Err(bad(
            "--replay-search",
            "given",
            "programs a --configurable hash map: add --map hash --configurable",
        ));
    }
    if args.replay_search && args.replay.is_empty() {
        return Err(bad("--replay-search", "given", "needs --replay TRACE"));
    }
    rtl_gen::output::Staging::check(&args.out, &design.name())?;
    let kernels = kernels(&args, &design)?;
    let plan = SmemPlan {
        seed: args.seed,
        random: args.vectors,
    };
    if kernels.is_empty() {
        crate::write_block(&design, &plan, command, &args.out, args.json)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (dir, manifest) = crate::render_block(&design, &plan, command, &args.out)?;
    let rows = replay::run(&design, &kernels, &dir, &args.simulator)?;
    if args.json {
        let mut value = serde_json::to_value(&manifest).unwrap_or_else(|e| unreachable!("{e}"));
        value["replay"] = serde_json::to_value(&rows).unwrap_or_else(|e| unreachable!("{e}"));
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_else(|e| unreachable!("{e}"))
        );
    } else {
        println!("{}", crate::written_line(&dir, &manifest));
        print_rows(&rows);
    }
    Ok(if rows.iter().all(Row::matches) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
