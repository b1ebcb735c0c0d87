//! `rtl-gen conflict`: generate a bank-conflict counter.

use clap::Args;
use rtl_gen::conflict::vectors::ConflictPlan;
use rtl_gen::conflict::ConflictDesign;
use rtl_gen::{limits, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen conflict`.
#[derive(Args)]
#[command(after_help = "\
The counter takes one warp access (valid_i and addr_i, lane i in bits [i*n +: n]) and gives
cycles_o, the bank cycles it takes under the map: the distinct addresses of its fullest bank
(lanes with one address are one broadcast), as the RAP paper's DMM congestion counts them. The
map is a fixed hasher, named by the flags of `rtl-gen hash` or a configuration file.

Examples:
  rtl-gen conflict --lanes 32 --kind modulo --addr-bits 14 --banks 32 --out out/
  rtl-gen cosim out/conflict_l32_mod_n14_b32
  rtl-gen conflict --lanes 32 --kind bitvector-xor --addr-bits 14 --banks 32 --k1 2 --k2 8 --mask 7
  rtl-gen conflict --lanes 16 --config out/fwt/best.json --out out/")]
pub struct ConflictArgs {
    /// Addresses per warp access: a power of two from 2 to 64.
    #[arg(long, default_value_t = 32)]
    lanes: u32,
    #[command(flatten)]
    map: crate::cli::hash_config::ConfigFlags,
    /// Output folder; the block goes to <out>/<module name>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Seed of the random accesses.
    #[arg(long, default_value_t = ConflictPlan::default().seed)]
    seed: u64,
    /// Random accesses after the directed ones.
    #[arg(long, default_value_t = ConflictPlan::default().random)]
    vectors: usize,
    /// Print the manifest as JSON instead of a summary.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

/// Runs `rtl-gen conflict`.
pub fn run(args: ConflictArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    limits::check_vectors(args.vectors)?;
    let design = ConflictDesign::new(args.lanes, &args.map.object()?)?;
    let plan = ConflictPlan {
        seed: args.seed,
        random: args.vectors,
    };
    let written = rtl_gen::block::generate(&design, &plan, command, &args.out)?;
    crate::cli::print_written(&written, args.json);
    Ok(ExitCode::SUCCESS)
}
