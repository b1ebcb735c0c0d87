//! `rtl-gen flow`: the default end-to-end run (generate, co-simulate, synthesize, tabulate).

use clap::Args;
use rtl_gen::flow;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen flow`.
#[derive(Args)]
#[command(after_help = "\
Generates a block of every family: the paper's 32-bank hashers (14 address bits: every kind
fixed, every configurable kind configurable), a RAP address converter (w = 32), the D2MA engine
(8 CTAs x 4 buffers), a banked shared memory (16 lanes x 16 banks x 1024 words, SRAM macros),
and the D2MA system (the engine with its data path filling an 8 x 32 x 512 shared memory behind
the fixed 32-bank XOR, tested end to end); co-simulates each against its golden model,
synthesizes each with Yosys (the system: its engine) and prints one table.

Examples:
  rtl-gen flow
  rtl-gen flow --liberty ../shared/pdk/nangate45_typ.lib.gz --simulator iverilog --json

Exit status: 0 when every vector passed, 1 when some failed, 2 on an error.")]
pub struct FlowArgs {
    /// Output folder for the blocks.
    #[arg(long, default_value = "out/flow")]
    out: PathBuf,
    /// Simulator.
    #[arg(long, default_value = "verilator", value_parser = clap::builder::PossibleValuesParser::new(testbenches::simulator::SIMULATOR_NAMES))]
    simulator: String,
    /// A liberty file (plain or gzipped); without it, Yosys' generic gates.
    #[arg(long)]
    liberty: Option<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

/// Runs `rtl-gen flow`.
pub fn run(args: FlowArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    let total = flow::blocks().len();
    // On a terminal a spinner names the step under way; in a log, one line per block.
    let spinner = args.quiet.spinner();
    let log_lines = !args.quiet.quiet && spinner.is_hidden();
    let rows = flow::run(
        &args.out,
        &args.simulator,
        args.liberty.as_deref(),
        command,
        |index, name, step| {
            let at = format!("[{}/{total}] {name}", index + 1);
            spinner.set_message(format!("{at}: {}", step.name()));
            if log_lines && step == flow::Step::Generate {
                eprintln!("{at}: generate, co-simulate, synthesize");
            }
        },
    );
    spinner.finish_and_clear();
    let rows = rows?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_else(|e| unreachable!("{e}"))
        );
    } else {
        print!("{}", flow::render(&rows));
        if let Some(first) = rows.first() {
            for line in first.synth.provenance() {
                println!("{line}");
            }
        }
    }
    let failed: usize = rows.iter().map(|r| r.cosim.failed).sum();
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
