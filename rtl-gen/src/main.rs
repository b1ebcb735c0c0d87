//! The `rtl-gen` command line.

mod cli;
mod cli_error;
mod cmd_completions;
mod cmd_conflict;
mod cmd_congestion;
mod cmd_cosim;
mod cmd_cuda;
mod cmd_d2ma;
mod cmd_flow;
mod cmd_hash;
mod cmd_kernels;
mod cmd_man;
mod cmd_mutate;
mod cmd_prove;
mod cmd_rap;
mod cmd_search;
mod cmd_smem;
mod cmd_sweep;
mod cmd_swizzle;
mod cmd_synth;
mod cmd_tma;
mod cmd_vortex;
mod output_args;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// Generates synthesizable Verilog for GPU shared-memory hardware (bank hashers, the RAP address
/// converter, the D2MA engine), co-simulates it against golden Rust models under Verilator or
/// Icarus Verilog, and measures it with Yosys.
#[derive(Parser)]
#[command(name = "rtl-gen", version, about, long_about = None, after_help = "\
Examples:
  rtl-gen hash --kind bitvector-xor --addr-bits 14 --banks 32 --k1 2 --k2 8 --mask 7 --out out/
  rtl-gen cosim out/hash_bvxor_n14_b32
  rtl-gen hash --kind bitwise-xor --addr-bits 14 --banks 32 --configurable --pipeline
  rtl-gen hash --config out/hash_bvxor_n14_b32/hash_bvxor_n14_b32.json --out out/
  rtl-gen cuda layout --kind rap --banks 32 --rap-seed 1 --out rap_w32.h
  rtl-gen swizzle best --elem-bytes 2 --tile 64x64 --access rows,cols --out out/best
  rtl-gen tma load --map map.json --coords -8,3 --shared-address 0x80 --chunks
  rtl-gen completions bash > ~/.local/share/bash-completion/completions/rtl-gen
  rtl-gen man | man -l -")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a bank hasher: Verilog, manifest, filelist, FuseSoC core and testbench.
    Hash(cmd_hash::HashArgs),
    /// Build and run a generated block's self-checking testbench.
    Cosim(cmd_cosim::CosimArgs),
    /// The main job: hashers, a RAP converter, the D2MA engine, a shared memory and the D2MA
    /// system generated, co-simulated, synthesized.
    Flow(cmd_flow::FlowArgs),
    /// Generate a block of the D2MA engine (agen, controller, raw-check, engine), or the engine
    /// with its data path, a shared memory and an end-to-end testbench (system).
    D2ma(cmd_d2ma::D2maArgs),
    /// Generate a bank-conflict counter: the bank cycles of one warp access under a map.
    Conflict(cmd_conflict::ConflictArgs),
    /// Simulate the warp congestion of RAW, RAS and RAP layouts (the RAP paper's Tables II, IV).
    Congestion(cmd_congestion::CongestionArgs),
    /// Generate a RAP, RAS or 3P address converter: Verilog, manifest, filelist, core, testbench.
    Rap(cmd_rap::RapArgs),
    /// Synthesize a generated block with Yosys: area, delay, cells, depth.
    Synth(cmd_synth::SynthArgs),
    /// Generate and synthesize many configurations in parallel; CSV, JSON and SVG plots.
    Sweep(cmd_sweep::SweepArgs),
    /// Write a CUDA/C header with the software form of a bank hash or a RAW/RAS/RAP layout.
    Cuda(cmd_cuda::CudaArgs),
    /// Search the best configuration of each hash family for a kernel's trace.
    Search(cmd_search::SearchArgs),
    /// Write the synthetic kernel suite as trace files.
    Kernels(cmd_kernels::KernelsArgs),
    /// CuTe, TMA and Triton swizzles as GF(2) matrices: show, check on an H100's rules, best.
    Swizzle(cmd_swizzle::SwizzleArgs),
    /// TMA tensor maps: validate a cuTensorMapEncodeTiled descriptor, the shared-memory image
    /// of a load, replay H100 dumps.
    Tma(cmd_tma::TmaArgs),
    /// Generate a banked shared memory (lanes, banks, any hasher or RAP in front), or replay
    /// kernels through it.
    Smem(cmd_smem::SmemArgs),
    /// Print the shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(cmd_completions::CompletionsArgs),
    /// Print the manual page (roff) of rtl-gen or of one command.
    Man(cmd_man::ManArgs),
    /// Prove a generated hasher, RAP converter or D2MA RAW check equal to an independent reference (Yosys SAT).
    Prove(cmd_prove::ProveArgs),
    /// Mutation testing: single-point mutants of a block against its own testbench and Yosys.
    Mutate(cmd_mutate::MutateArgs),
    /// Run Vortex's kernels and the project's on Vortex's RTL simulator with its own or a
    /// generated local memory.
    Vortex(cmd_vortex::VortexArgs),
}

/// The command line as the generated files record it: `rtl-gen` and the arguments, quoted
/// where needed.
fn command_line() -> String {
    std::iter::once("rtl-gen".to_string())
        .chain(std::env::args().skip(1).map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
                format!("'{}'", a.replace('\'', r"'\''"))
            } else {
                a
            }
        }))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Restores SIGPIPE's default action, so that rtl-gen piped into a reader that stops early
/// (`rtl-gen ... | head`) ends quietly, as other command-line tools do, instead of panicking on
/// the failed print (Rust's runtime ignores SIGPIPE, which turns the closed pipe into an error
/// at every `println!`). The staging files such an ending leaves are named after the process and
/// removed by the next rtl-gen that writes there.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread starts; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(err) => match cli_error::clap_line(&err, &args) {
            Some(line) => {
                eprintln!("{line}");
                return ExitCode::from(2);
            }
            None => {
                let _ = err.print();
                return ExitCode::SUCCESS;
            }
        },
    };
    if let Err(e) = rtl_gen::output::cleanup::install_signal_handlers() {
        eprintln!("error: cannot install the signal handlers that clean up on an interrupt: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Hash(args) => cmd_hash::run(args, &command_line()),
        Command::Cosim(args) => cmd_cosim::run(args),
        Command::Flow(args) => cmd_flow::run(args, &command_line()),
        Command::D2ma(args) => cmd_d2ma::run(args, &command_line()),
        Command::Conflict(args) => cmd_conflict::run(args, &command_line()),
        Command::Congestion(args) => cmd_congestion::run(args),
        Command::Rap(args) => cmd_rap::run(args, &command_line()),
        Command::Synth(args) => cmd_synth::run(args, &command_line()),
        Command::Sweep(args) => cmd_sweep::run(args, &command_line()),
        Command::Cuda(args) => cmd_cuda::run(args, &command_line()),
        Command::Search(args) => cmd_search::run(args),
        Command::Kernels(args) => cmd_kernels::run(args),
        Command::Swizzle(args) => cmd_swizzle::run(args, &command_line()),
        Command::Smem(args) => cmd_smem::run(args, &command_line()),
        Command::Tma(args) => cmd_tma::run(args),
        Command::Completions(args) => cmd_completions::run(args, Cli::command()),
        Command::Man(args) => cmd_man::run(args, Cli::command()),
        Command::Prove(args) => cmd_prove::run(args),
        Command::Mutate(args) => cmd_mutate::run(args),
        Command::Vortex(args) => cmd_vortex::run(args),
    };
    rtl_gen::output::cleanup::await_signal_exit();
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!(
                "error: {}",
                cli_error::error_line(&cli_error::message(&e, &args))
            );
            ExitCode::from(2)
        }
    }
}
