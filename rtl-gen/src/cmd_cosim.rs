//! `rtl-gen cosim`: build and run a block's self-checking testbench.

use clap::Args;
use golden_dpi::HashPlanStimulus;
use models::hash_stimulus::VectorPlan;
use rtl_gen::{cosim, hash, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen cosim`.
#[derive(Args)]
#[command(after_help = "\
Examples:
  rtl-gen cosim out/hash_bvxor_n14_b32
  rtl-gen cosim out/hash_bvxor_n14_b32 --simulator iverilog --json
  rtl-gen cosim out/hash_bwxor_n14_b32_cfg --fast --vectors 100000000
  rtl-gen cosim out/hash_bvxor_n14_b32_cfg --fast --sweep

--fast (hash blocks, Verilator): the golden model is linked into the simulation through DPI-C
and draws every vector while it runs (no vector files). With the default --seed, --vectors and
--configs it checks the very vectors the block's file-based testbench checks (when the block
was generated with those defaults). --sweep checks every configuration cfg_i encodes on every
address (sampled beyond --max-configs field combinations: every value of every field, then
random configurations, --samples in all).

Exit status: 0 when every vector passed, 1 when some failed, 2 on an error.")]
pub struct CosimArgs {
    /// A block folder written by `rtl-gen hash`, `rap` or `d2ma`.
    dir: PathBuf,
    /// Simulator.
    #[arg(long, default_value = "verilator", value_parser = clap::builder::PossibleValuesParser::new(testbenches::simulator::SIMULATOR_NAMES))]
    simulator: String,
    /// Check through the DPI-C golden model instead of vector files (hash blocks, Verilator).
    #[arg(long)]
    fast: bool,
    /// With --fast: the seed of the random vectors (default: the block's own).
    #[arg(long, requires = "fast")]
    seed: Option<u64>,
    /// With --fast: the vector budget (as `rtl-gen hash --vectors`).
    #[arg(long, requires = "fast", default_value_t = VectorPlan::default().vectors)]
    vectors: usize,
    /// With --fast: configurations of a configurable hasher (as `rtl-gen hash --configs`).
    #[arg(long, requires = "fast", default_value_t = VectorPlan::default().configs)]
    configs: usize,
    /// With --fast: every configuration on every address instead of --vectors.
    #[arg(long, requires = "fast")]
    sweep: bool,
    /// With --sweep: sample (every field value, then random) beyond this many field combinations.
    #[arg(long, requires = "sweep", default_value_t = 1_000_000)]
    max_configs: usize,
    /// With --sweep: configurations of a sampled kind.
    #[arg(long, requires = "sweep", default_value_t = 10_000)]
    samples: usize,
    /// With --fast: DUT instances the testbench checks side by side (`--lanes` is its old
    /// spelling).
    #[arg(long, alias = "lanes", requires = "fast", default_value_t = testbenches::dpi::DEFAULT_LANES)]
    instances: usize,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

/// Runs `rtl-gen cosim`.
pub fn run(args: CosimArgs) -> Result<ExitCode, Error> {
    // Every flag is checked before the (long) build starts.
    let fast_stimulus = if args.fast {
        if args.simulator != "verilator" {
            return Err(Error::BadFlag {
                flag: "--simulator",
                value: args.simulator,
                message: "--fast runs under verilator only (DPI-C)".into(),
            });
        }
        for (flag, value, what) in [
            (
                "--vectors",
                args.vectors,
                "at least 1 (a fixed hasher of at most 16 address bits is checked on every \
                 address whatever --vectors says)",
            ),
            ("--configs", args.configs, "at least 1 configuration"),
            ("--instances", args.instances, "at least 1 DUT instance"),
        ] {
            if value == 0 {
                return Err(Error::BadFlag {
                    flag,
                    value: "0".into(),
                    message: what.into(),
                });
            }
        }
        for (flag, value, max, what) in [
            (
                "--vectors",
                args.vectors as u64,
                rtl_gen::limits::MAX_FAST_VECTORS,
                "vectors of one DPI-C run, about half an hour",
            ),
            (
                "--configs",
                args.configs as u64,
                rtl_gen::limits::MAX_CONFIGS,
                "each adds vectors",
            ),
            (
                "--instances",
                args.instances as u64,
                testbenches::dpi::MAX_LANES as u64,
                "DUT instances in one DPI-C testbench",
            ),
        ] {
            rtl_gen::limits::check(flag, value, max, what)?;
        }
        Some(if args.sweep {
            HashPlanStimulus::Sweep {
                max_configs: args.max_configs,
                samples: args.samples,
                seed: args.seed.unwrap_or(1),
            }
        } else {
            let (manifest, _) = rtl_gen::manifest::Manifest::load(&args.dir)?;
            HashPlanStimulus::Vectors(VectorPlan {
                seed: args.seed.unwrap_or(manifest.testbench.seed),
                vectors: args.vectors,
                configs: args.configs,
            })
        })
    } else {
        None
    };
    let spinner = args.quiet.spinner();
    spinner.set_message(format!(
        "{}: building and running its testbench under {}{}",
        args.dir.display(),
        args.simulator,
        if args.fast { " (DPI-C)" } else { "" }
    ));
    let result = match fast_stimulus {
        Some(stimulus) => hash::dpi::run(&args.dir, stimulus, args.instances),
        None => cosim::run(&args.dir, &args.simulator),
    };
    spinner.finish_and_clear();
    let (manifest, report) = result?;
    if args.json {
        let value = serde_json::json!({ "top": manifest.top, "report": report });
        println!("{value}");
    } else {
        for line in &report.mismatches {
            println!("{line}");
        }
        println!(
            "{}: {} {}{}: {} passed, {} failed (build {:.1} s, run {:.2} s)",
            manifest.top,
            report.simulator,
            report.simulator_version,
            if args.fast { ", DPI-C" } else { "" },
            report.passed,
            report.failed,
            report.build_seconds,
            report.run_seconds
        );
    }
    Ok(if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
