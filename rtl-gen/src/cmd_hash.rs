//! `rtl-gen hash`: generate a bank hasher block.

use clap::{Args, ValueEnum};
use rtl_gen::hash::logic::OffsetSelect;
use rtl_gen::hash::vectors::VectorPlan;
use rtl_gen::hash::HashDesign;
use rtl_gen::limits;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen hash`.
#[derive(Args)]
#[command(after_help = "\
Kinds and their fields:
  modulo          (none)                       bank = addr mod banks
  bitvector-perm  --k K                        bank = addr[K +: m]
  bitvector-xor   --k1 K1 --k2 K2 --mask M     bank = (addr >> K1) ^ ((addr >> K2) & M)
  bitwise-perm    --bits 0,3,4                 bank bit i = addr[bits[i]]
  bitwise-xor     --pairs 0:5,1:6,2:2          bank bit i = addr[a] ^ addr[b]  (a:a is bit a)
  xor-matrix      --rows 0x21,0x42,...         bank bit i = parity(addr & rows[i])

Examples:
  rtl-gen hash --kind bitvector-xor --addr-bits 14 --banks 32 --k1 2 --k2 8 --mask 7 --out out/
  rtl-gen hash --kind bitwise-perm --addr-bits 5 --banks 8 --bits 0,3,4
  rtl-gen hash --kind xor-matrix --addr-bits 14 --banks 32 --configurable --pipeline
  rtl-gen hash --kind bitvector-xor --addr-bits 14 --banks 32 --configurable --offsets one-hot
  rtl-gen hash --config out/hash_bvxor_n14_b32/hash_bvxor_n14_b32.json --pipeline")]
pub struct HashArgs {
    #[command(flatten)]
    flags: crate::cli::hash_config::ConfigFlags,
    /// Take the configuration at run time on cfg_i instead of baking it in.
    #[arg(long)]
    configurable: bool,
    /// Configurable bit-vector kinds: how the offsets are selected (one-hot: decoded once, then
    /// an AND-OR per bank bit; the block's name gets `_onehot`).
    #[arg(long, value_enum, default_value_t = Offsets::MuxTree)]
    offsets: Offsets,
    /// Register the output (adds clk_i and rst_ni; one cycle of latency).
    #[arg(long)]
    pipeline: bool,
    /// Generate even if the hash's GF(2) rank is below log2(banks) (some banks unreachable).
    #[arg(long)]
    allow_rank_deficient: bool,
    /// Output folder; the block goes to <out>/<module name>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Seed of the random test vectors (addresses and configurations).
    #[arg(long, default_value_t = VectorPlan::default().seed)]
    seed: u64,
    /// Test vector budget: random ones when not exhaustive.
    #[arg(long, default_value_t = VectorPlan::default().vectors)]
    vectors: usize,
    /// Random configurations a configurable hasher is tested over.
    #[arg(long, default_value_t = VectorPlan::default().configs)]
    configs: usize,
    /// Print the manifest as JSON instead of a summary.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

/// `--offsets`: the offset structures a configurable bit-vector hasher can be generated with.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Offsets {
    /// A 2:1 mux tree over the legal offsets (the default).
    MuxTree,
    /// The offset decoded into one-hot lines, then an AND-OR per bank bit.
    OneHot,
}

impl From<Offsets> for OffsetSelect {
    fn from(offsets: Offsets) -> Self {
        match offsets {
            Offsets::MuxTree => OffsetSelect::MuxTree,
            Offsets::OneHot => OffsetSelect::OneHot,
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

/// Runs `rtl-gen hash`.
pub fn run(args: HashArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    limits::check_vectors(args.vectors)?;
    limits::check(
        "--configs",
        args.configs as u64,
        limits::MAX_CONFIGS,
        "each adds vectors",
    )?;
    let object = args.flags.object()?;
    let offsets = OffsetSelect::from(args.offsets);
    let design = HashDesign::new(
        &object,
        args.configurable,
        args.pipeline,
        args.allow_rank_deficient,
    )?
    .with_offsets(offsets)
    .ok_or_else(|| {
        bad(
            "--offsets",
            offsets.name(),
            "applies to configurable bitvector-perm and bitvector-xor hashers only \
             (add --configurable, or leave --offsets at mux-tree)",
        )
    })?;
    let plan = VectorPlan {
        seed: args.seed,
        vectors: args.vectors.max(1),
        configs: args.configs.max(1),
    };
    let written = rtl_gen::block::generate(&design, &plan, command, &args.out)?;
    crate::cli::print_written(&written, args.json);
    Ok(ExitCode::SUCCESS)
}
