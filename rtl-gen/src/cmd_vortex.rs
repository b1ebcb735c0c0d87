//! `rtl-gen vortex`: Vortex runs its own kernels and the project's on its RTL simulator, with
//! its own local memory or a generated one (the work is in `rtl_gen::vortex`).

use crate::cli::{JobsArg, QuietArg};
use clap::{Args, Subcommand, ValueEnum};
use rtl_gen::output::OutputFolder;
use rtl_gen::vortex::flow::{self, Plan};
use rtl_gen::vortex::{self, KernelSpec, MapChoice, Setup, VxConfig};
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
    /// Write a kernel's local-memory accesses as a trace (docs/TRACE_FORMAT.md) for
    /// `rtl-gen search` and `rtl-gen smem --replay`.
    Trace(Box<TraceArgs>),
    /// docs/VORTEX.md's table: both configurations (or one), every kernel on every map, the
    /// checks.
    Table(TableArgs),
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
    /// The local memories, comma-separated: vortex (Vortex's own, the baseline), modulo, xor
    /// (the XOR paper's fixed XOR), hash:FILE (a hash configuration), rap, best (a configurable
    /// GF(2) matrix programmed per kernel through the DCRs with the best hash for its own
    /// trace); add /no-broadcast to a generated one to turn its broadcast off.
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
    /// The pinned Vortex copy (read only).
    #[arg(long, default_value = vortex::DEFAULT_VORTEX)]
    vortex: PathBuf,
    /// The build folder: patched Vortex trees, simulators (cached by content), runs.
    #[arg(long, default_value = "out/vx")]
    out: PathBuf,
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

/// Arguments of `rtl-gen vortex table`.
#[derive(Args)]
#[command(after_help = "\
At Vortex's default configuration (4 warps x 4 threads, 4 banks) and at 16 threads x 16 banks:
sgemm2 (-n16, -n32, -n64), conv3 -n64 -l, sgemm, vecadd and the project's transpose, strided,
histogram, stencil and reduce, each on vortex, modulo, xor, best and rap, and conv3 and reduce
on modulo/no-broadcast (--configuration picks one of the two). Prints the Markdown table, the
hashes best programmed and the issue's checks, and writes them to <out>/table/table.md (the
records to <out>/table/table.json) after each map, so that a stopped table keeps what it has. Hours on a busy
2-core machine; every build and trace is kept, so a rerun only runs the kernels.

Examples:
  rtl-gen vortex table --out out/vx
  rtl-gen vortex table --configuration 4x4 --out out/vx")]
struct TableArgs {
    /// The configurations to run, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values = ["4x4", "16x16"])]
    configuration: Vec<vortex::table::Configuration>,
    /// One run's time limit in seconds.
    #[arg(long, default_value_t = 7200, value_parser = clap::value_parser!(u64).range(1..=86400))]
    timeout: u64,
    /// The pinned Vortex copy (read only).
    #[arg(long, default_value = vortex::DEFAULT_VORTEX)]
    vortex: PathBuf,
    /// The build folder (as `rtl-gen vortex run --out`); the table goes to table/table.md in it.
    #[arg(long, default_value = "out/vx")]
    out: PathBuf,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// Arguments of `rtl-gen vortex trace`.
#[derive(Args)]
#[command(after_help = "\
Runs the kernel on Vortex's RTL simulator with a generated local memory (--map, modulo by
default) that writes every warp access it takes: `ld` or `st`, then the lanes' word addresses
(12 address bits and 4 lanes at Vortex's default configuration). The trace is kept in the
build folder and copied to --out.

Examples:
  rtl-gen vortex trace --kernel transpose --out out/vx/transpose.trace
  rtl-gen search --trace out/vx/transpose.trace --addr-bits 12 --banks 4 --warp-size 4 --out out/tsearch
  rtl-gen vortex run --map vortex,modulo,hash:out/tsearch/best.json --kernels transpose
  rtl-gen smem --lanes 4 --banks 4 --depth 1024 --replay out/vx/transpose.trace --out out/")]
struct TraceArgs {
    /// The kernel with its arguments: NAME[:ARG[:ARG...]] (`rtl-gen vortex kernels`).
    #[arg(long, required_unless_present = "kernel_dir")]
    kernel: Option<String>,
    /// A kernel of your own instead, in Vortex's regression-test layout.
    #[arg(long, conflicts_with = "kernel")]
    kernel_dir: Option<PathBuf>,
    /// The arguments of --kernel-dir's host program, space-separated.
    #[arg(long, default_value = "", requires = "kernel_dir")]
    kernel_args: String,
    /// The generated memory traced on (any but vortex; the addresses are the kernel's, the
    /// order of different warps' accesses may differ between maps).
    #[arg(long, default_value = "modulo")]
    map: String,
    /// The trace file written.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    gpu: GpuArgs,
    /// The run's time limit in seconds.
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=86400))]
    timeout: u64,
    /// The pinned Vortex copy (read only).
    #[arg(long, default_value = vortex::DEFAULT_VORTEX)]
    vortex: PathBuf,
    /// The build folder (as `rtl-gen vortex run --out`).
    #[arg(long, default_value = "out/vx")]
    work: PathBuf,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// The setup of a command: the Vortex copy checked, both folders absolute, the jobs.
fn setup(vortex: &std::path::Path, work: &std::path::Path, jobs: JobsArg) -> Result<Setup, Error> {
    vortex::check_vortex(vortex)?;
    let jobs = match jobs.threads() {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    Setup::new(vortex, work, jobs)
}

fn progress(quiet: QuietArg) -> &'static dyn vortex::Progress {
    if quiet.quiet {
        &vortex::Silent
    } else {
        &Lines
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
        What::Trace(trace) => trace_kernel(*trace),
        What::Table(table) => write_table(table),
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
    let setup = setup(&args.vortex, &args.out, args.jobs)?;
    let plan = Plan {
        config,
        maps,
        kernels,
        timeout: Duration::from_secs(args.timeout),
    };
    OutputFolder::open(&setup.work)?;
    let _lock = rtl_gen::output::lock::DirLock::acquire(&setup.work)?;
    let records = flow::run(&setup, &plan, progress(args.quiet))?;
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

fn trace_kernel(args: TraceArgs) -> Result<ExitCode, Error> {
    let config = VxConfig::new(args.gpu.threads, args.gpu.banks, &args.gpu.configs)?;
    let map = MapChoice::parse(&args.map)?;
    let kernel = match (&args.kernel, &args.kernel_dir) {
        (Some(spec), _) => KernelSpec::parse(spec)?,
        (None, Some(dir)) => KernelSpec::user(dir, &args.kernel_args)?,
        (None, None) => unreachable!("clap requires --kernel or --kernel-dir"),
    };
    if map == MapChoice::Vortex {
        return Err(Error::BadFlag {
            flag: "--map",
            value: args.map.clone(),
            message: "Vortex's own memory writes no trace: trace on a generated one (modulo, \
                      xor, hash:FILE, rap)"
                .to_string(),
        });
    }
    map.design(&config)?;
    let setup = setup(&args.vortex, &args.work, args.jobs)?;
    rtl_gen::output::OutputFolder::check_files([args.out.as_path()])?;
    OutputFolder::open(&setup.work)?;
    let lock = rtl_gen::output::lock::DirLock::acquire(&setup.work)?;
    let timeout = Duration::from_secs(args.timeout);
    let mut session = flow::Session::new(&setup, &config, true, timeout, progress(args.quiet))?;
    let (path, trace) = session.trace(&kernel, &map)?;
    let shape = vortex::maps::shape(&config)?;
    let header = format!(
        "{kernel}: written by `rtl-gen vortex trace` ({config}, map {})\n{} address bits, \
         {} lanes; label ld or st, then the word address of each lane taken",
        map.label(),
        shape.addr_bits(),
        shape.lanes()
    );
    let text = std::fs::read_to_string(&path).map_err(Error::io(&path))?;
    let mut out = String::new();
    for line in header.lines() {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&text);
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(Error::io(parent))?;
    }
    // The build folder's lock is released first: write_file takes the lock of the trace's
    // folder, which may be the build folder itself.
    drop(lock);
    rtl_gen::output::write_file(&args.out, out.as_bytes())?;
    println!(
        "{}: {} warp accesses of {kernel}",
        args.out.display(),
        trace.accesses.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn write_table(args: TableArgs) -> Result<ExitCode, Error> {
    use rtl_gen::vortex::table;
    let setup = setup(&args.vortex, &args.out, args.jobs)?;
    OutputFolder::open(&setup.work)?;
    let _lock = rtl_gen::output::lock::DirLock::acquire(&setup.work)?;
    let names: Vec<String> = args
        .configuration
        .iter()
        .filter_map(|c| c.to_possible_value().map(|v| v.get_name().to_string()))
        .collect();
    let text = |records: &[flow::Record]| {
        format!(
            "<!-- Generated by rtl-gen: rtl-gen vortex table --configuration {} -->\n{}\n{}\n{}",
            names.join(","),
            table::markdown(records),
            table::programmed(records),
            table::checks(records)
        )
    };
    // The table so far after each map, the whole one at the end, in a folder of its own
    // (write_file takes the lock of the file's folder; the build folder's is held).
    let folder = OutputFolder::open(&setup.work.join("table"))?;
    let mut write = |records: &[flow::Record]| -> Result<(), Error> {
        rtl_gen::output::write_file(&folder.join("table.md"), text(records).as_bytes())?;
        let json = serde_json::to_string_pretty(records).unwrap_or_else(|e| unreachable!("{e}"));
        rtl_gen::output::write_file(&folder.join("table.json"), json.as_bytes())
    };
    let records = table::run(
        &setup,
        &args.configuration,
        Duration::from_secs(args.timeout),
        progress(args.quiet),
        &mut write,
    )?;
    print!("{}", text(&records));
    Ok(if records.iter().all(|r| r.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
