//! `rtl-gen vortex`: Vortex runs its own kernels and the project's on its RTL simulator, with
//! its own local memory or a generated one (the work is in `rtl_gen::vortex`).

use crate::cli::{JobsArg, QuietArg};
use clap::{Args, Subcommand};
use rtl_gen::output::OutputFolder;
use rtl_gen::vortex::flow::{self, MapChoice, Plan};
use rtl_gen::vortex::{self, KernelSpec, Setup, VxConfig};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `rtl-gen vortex`.
#[derive(Args)]
#[command(after_help = "\
Builds the pinned Vortex (../shared/third_party/vortex, Apache-2.0) with the project's patches
(vortex/patches/), Debian's RISC-V GCC and picolibc and a fixed-latency memory in place of
ramulator, and runs kernels on its RTL simulator (docs/VORTEX.md).

Examples:
  rtl-gen vortex run --kernels sgemm2:-n16 --out out/vx
  rtl-gen vortex run --map vortex --kernels sgemm2:-n32,conv3:-n64:-l,vecadd --json
  rtl-gen vortex run --threads 16 --banks 16 --kernels sgemm2:-n32:-t8
  rtl-gen vortex run --kernel-dir my_kernel/ --kernel-args \"-n32\" --out out/vx
  rtl-gen vortex kernels")]
pub struct VortexArgs {
    #[command(subcommand)]
    what: What,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

#[derive(Subcommand)]
enum What {
    /// Run kernels on every map, check each result, print one table (or --json records).
    Run(Box<RunArgs>),
    /// List the kernels --kernels takes.
    Kernels,
}

/// Arguments of `rtl-gen vortex run`.
#[derive(Args)]
#[command(after_help = "\
Prints one row per run: kernel, map, PASSED, cycles, bank stalls (Vortex's lmem_perf), bank
cycles and conflict cycles (a generated memory's own counters), and the speed-up over Vortex's
own local memory for the same kernel (when --map lists vortex). Exit status: 0 when every run
passed, 1 when one failed its check, 2 on bad input or a failed build.

Examples:
  rtl-gen vortex run --kernels sgemm2:-n16 --out out/vx
  rtl-gen vortex run --kernels sgemm2:-n32,conv3:-n64:-l,sgemm,vecadd --json
  rtl-gen vortex run --threads 16 --banks 16 --kernels sgemm2:-n32:-t8
  rtl-gen vortex run --kernel-dir my_kernel/ --kernel-args \"-n32\"")]
struct RunArgs {
    /// The local memories, comma-separated: vortex (Vortex's own, the baseline).
    #[arg(long, default_value = "vortex", value_delimiter = ',')]
    map: Vec<String>,
    /// Kernels with their arguments, comma-separated: NAME[:ARG[:ARG...]], e.g.
    /// sgemm2:-n32,conv3:-n64:-l (`rtl-gen vortex kernels` lists them) [default: sgemm2:-n16,
    /// unless --kernel-dir is given].
    #[arg(long, value_delimiter = ',')]
    kernels: Vec<String>,
    /// A kernel of your own, in Vortex's regression-test layout (Makefile with PROJECT,
    /// main.cpp, kernel.cpp, common.h), run after --kernels.
    #[arg(long)]
    kernel_dir: Option<PathBuf>,
    /// The arguments of --kernel-dir's host program, space-separated.
    #[arg(long, default_value = "", requires = "kernel_dir")]
    kernel_args: String,
    #[command(flatten)]
    gpu: GpuArgs,
    /// One run's time limit in seconds.
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=86400))]
    timeout: u64,
    #[command(flatten)]
    place: PlaceArgs,
    /// Print the records as one JSON array (one record per run) instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// The GPU's configuration flags.
#[derive(Args)]
struct GpuArgs {
    /// Threads per warp (NUM_THREADS), a power of two from 1 to 32 [default: 4].
    #[arg(long)]
    threads: Option<u32>,
    /// Local-memory banks (LMEM_NUM_BANKS), a power of two from 1 to 64 [default: --threads].
    #[arg(long)]
    banks: Option<u32>,
    /// Further Vortex defines, space-separated (-DNAME[=VALUE], names from hw/rtl/VX_config.vh).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    configs: String,
}

/// Where Vortex is and where builds go.
#[derive(Args)]
struct PlaceArgs {
    /// The pinned Vortex copy (read only).
    #[arg(long, default_value = vortex::DEFAULT_VORTEX)]
    vortex: PathBuf,
    /// The build folder: patched Vortex trees, simulators (cached by content), runs.
    #[arg(long, default_value = "out/vx")]
    out: PathBuf,
}

impl PlaceArgs {
    fn setup(&self, jobs: JobsArg) -> Result<Setup, Error> {
        let jobs = match jobs.threads() {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        Setup::new(&self.vortex, &self.out, jobs)
    }
}

/// Progress lines on standard error (`--quiet`: none).
struct Lines;

impl vortex::Progress for Lines {
    fn step(&self, message: &str) {
        eprintln!("vortex: {message}");
    }
}

/// Runs `rtl-gen vortex`.
pub fn run(args: VortexArgs) -> Result<ExitCode, Error> {
    args.output.apply();
    match args.what {
        What::Run(run) => run_kernels(*run),
        What::Kernels => {
            for k in vortex::kernels::catalogue() {
                println!("{:<10} {}", k.name, k.about);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn run_kernels(args: RunArgs) -> Result<ExitCode, Error> {
    let config = VxConfig::new(args.gpu.threads, args.gpu.banks, &args.gpu.configs)?;
    let maps = args
        .map
        .iter()
        .map(|m| MapChoice::parse(m))
        .collect::<Result<Vec<_>, _>>()?;
    let mut specs: Vec<&str> = args.kernels.iter().map(String::as_str).collect();
    if specs.is_empty() && args.kernel_dir.is_none() {
        specs.push("sgemm2:-n16");
    }
    let mut kernels = specs
        .into_iter()
        .map(KernelSpec::parse)
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &args.kernel_dir {
        kernels.push(KernelSpec::user(dir, &args.kernel_args)?);
    }
    vortex::check_vortex(&args.place.vortex)?;
    let setup = args.place.setup(args.jobs)?;
    let plan = Plan {
        config,
        maps,
        kernels,
        timeout: Duration::from_secs(args.timeout),
    };
    OutputFolder::open(&setup.work)?;
    let _lock = rtl_gen::output::lock::DirLock::acquire(&setup.work)?;
    let progress: &dyn vortex::Progress = if args.quiet.quiet {
        &vortex::Silent
    } else {
        &Lines
    };
    let records = flow::run(&setup, &plan, progress)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&records).unwrap_or_else(|e| unreachable!("{e}"))
        );
    } else {
        print!("{}", flow::table(&records));
    }
    Ok(if records.iter().all(|r| r.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
