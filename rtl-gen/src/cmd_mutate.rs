//! `rtl-gen mutate`: mutation testing of generated blocks against their own testbenches.

use crate::cli::{JobsArg, QuietArg};
use clap::Args;
use rayon::prelude::*;
use rtl_gen::mutate::sites::Operator;
use rtl_gen::mutate::{self, report, Options};
use rtl_gen::prove::ProveError;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// The most mutants per block `--max` allows.
const MAX_PER_BLOCK: usize = 10_000;

/// Arguments of `rtl-gen mutate`.
#[derive(Args)]
#[command(after_help = "\
Operators (--operators, comma-separated; default all):
  logic-op     & to |, | to &, ^ to |, && to ||, || to &&
  arith-op     + to -, - to +, << to >>, >> to <<
  condition    an if or ?: condition negated; == to !=, < to >=, > to <=
  constant     a sized constant one higher (one lower when all ones)
  select       a constant bit or part select moved by one bit
  swap         two neighbouring elements of a concatenation swapped
  reset-edge   an asynchronous reset made synchronous (or negedge rst_ni dropped)
  reset-value  a register's reset value one higher (one lower when all ones)

Each mutant runs the block's testbench (a failure, or a run that ends without passing, is
caught). Survivors go to Yosys: equivalent (equiv_make/equiv_induct), equivalent within the
contract (hashers and converters: `rtl-gen prove` still holds), or not equivalent with a
counterexample (a testbench gap), or undecided.

Examples:
  rtl-gen mutate out/rap_w8_load --max 30
  rtl-gen mutate out/hash_bvxor_n14_b32_cfg out/d2ma_agen_s128 --operators reset-edge,constant
  rtl-gen mutate out/d2ma_raw_check_c2_b2 --jobs 2 --quiet --json > mutants.json
  scripts/mutation.sh       # the representative blocks of docs/VERIFICATION.md, table updated

Exit status: 0 when every mutant is caught or proved harmless, 1 when some survivor is not
equivalent or undecided, 2 on bad input.")]
pub struct MutateArgs {
    /// Block folders written by `rtl-gen hash`, `rap`, `d2ma` or `conflict`.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Most mutants per block (1 to 10000); more sites are sampled, every operator in turn.
    #[arg(long, default_value_t = 40)]
    max: usize,
    /// Seed of the sampling of sites (when a block has more than --max).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Operators to apply (see below).
    #[arg(long, value_delimiter = ',')]
    operators: Vec<String>,
    /// Simulator of the testbenches.
    #[arg(long, default_value = "iverilog", value_parser = clap::builder::PossibleValuesParser::new(testbenches::simulator::SIMULATOR_NAMES))]
    simulator: String,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Cycles from reset searched for a difference when a block has no reference (D2MA).
    #[arg(long, default_value_t = 8)]
    steps: u32,
    /// Seconds each SAT problem, and each simulation, may take.
    #[arg(long, default_value_t = 300)]
    timeout: u32,
    /// Print one JSON document instead of the table (progress goes to stderr).
    #[arg(long)]
    json: bool,
    /// Also write the table and the survivors as Markdown to this file.
    #[arg(long)]
    markdown: Option<PathBuf>,
}

fn bound(flag: &'static str, value: impl ToString, allowed: &str) -> Error {
    ProveError::Bound {
        flag,
        value: value.to_string(),
        allowed: allowed.to_string(),
    }
    .into()
}

/// Runs `rtl-gen mutate`.
pub fn run(args: MutateArgs) -> Result<ExitCode, Error> {
    if !(1..=MAX_PER_BLOCK).contains(&args.max) {
        return Err(bound("--max", args.max, "1 to 10000 mutants per block"));
    }
    if !(2..=64).contains(&args.steps) {
        return Err(bound("--steps", args.steps, "2 to 64 cycles"));
    }
    if !(1..=86_400).contains(&args.timeout) {
        return Err(bound("--timeout", args.timeout, "1 to 86400 seconds"));
    }
    let operators = if args.operators.is_empty() {
        Operator::ALL.to_vec()
    } else {
        args.operators
            .iter()
            .map(|name| {
                Operator::ALL
                    .into_iter()
                    .find(|o| o.name() == name)
                    .ok_or_else(|| {
                        let names: Vec<&str> = Operator::ALL.iter().map(|o| o.name()).collect();
                        bound("--operators", name, &format!("one of {}", names.join(", ")))
                    })
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    for dir in &args.dirs {
        rtl_gen::prove::BlockUnderProof::load(dir)?;
    }
    if let Some(path) = &args.markdown {
        rtl_gen::output::OutputFolder::check_files([path.as_path()])?;
    }
    // Bounds every testbench run (set before any thread starts).
    if std::env::var_os(testbenches::simulator::TIMEOUT_ENV).is_none() {
        std::env::set_var(
            testbenches::simulator::TIMEOUT_ENV,
            args.timeout.to_string(),
        );
    }
    let work = tempfile::Builder::new()
        .prefix("rtl-gen-mutate.")
        .tempdir()
        .map_err(Error::io(std::env::temp_dir()))?;
    let options = Options {
        simulator: args.simulator,
        max_per_block: args.max,
        seed: args.seed,
        operators,
        steps: args.steps,
        timeout_s: args.timeout,
        work: work.path().to_path_buf(),
    };
    let json = args.json;
    let quiet = args.quiet.quiet;
    let progress = move |block: &str, n: usize, of: usize, m: &mutate::Mutant| {
        if quiet {
            return;
        }
        let line = format!(
            "[{n}/{of}] {block} {} {}:{}: {}",
            m.operator.name(),
            m.file,
            m.line,
            m.verdict.name()
        );
        if json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    };
    // Blocks run side by side too, so that one block's slowest mutant does not leave the pool
    // idle (the results keep the order of the arguments).
    let blocks = args.jobs.install(|| {
        args.dirs
            .par_iter()
            .map(|d| mutate::mutate_block(d, &options, &rtl_gen::families::REFEREES, &progress))
            .collect::<Result<Vec<_>, _>>()
    })??;
    if let Some(path) = &args.markdown {
        rtl_gen::output::write_file(path, report::markdown(&blocks).as_bytes())?;
    }
    if json {
        let value = serde_json::json!({ "format_version": 1, "blocks": blocks });
        println!("{value:#}");
    } else {
        print!("{}", report::text(&blocks));
    }
    let gaps = blocks
        .iter()
        .flat_map(|b| &b.mutants)
        .any(|m| m.verdict.is_gap());
    Ok(if gaps {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
