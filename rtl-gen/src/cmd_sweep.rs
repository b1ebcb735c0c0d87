//! `rtl-gen sweep`: generate and synthesize many configurations in parallel.

use crate::cli::{named_or_all, JobsArg, OrAll, QuietArg};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use models::HashKind;
use rtl_gen::experiments::sweep::{self, PointResult, Settings, SweepResults, SweepSpace};
use rtl_gen::experiments::sweep_jobs::{self, JobFormat};
use rtl_gen::hash::sweep::SweepPlan;
use rtl_gen::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `rtl-gen sweep`.
#[derive(Args)]
pub struct SweepArgs {
    #[command(subcommand)]
    what: SweepWhat,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

#[derive(Subcommand)]
enum SweepWhat {
    /// Bank hashers: every kind at every bank count.
    Hash(HashSweepArgs),
    /// Shared memories: lanes x banks x maps.
    Smem(SmemSweepArgs),
    /// RAP, RAS or 3P converters over bank counts.
    Rap(RapSweepArgs),
    /// One D2MA unit over CTAs x buffers x storage styles.
    D2ma(D2maSweepArgs),
    /// Bank-conflict counters: lanes x banks x hash kinds.
    Conflict(ConflictSweepArgs),
    /// The structure experiment: each configurable hasher built every way that could decide
    /// its depth (shifter / mux tree / one-hot...), checked and synthesized.
    Structures(StructureArgs),
    /// Area against delay target (the XOR paper's Fig. 4b): each configurable hasher
    /// synthesized by the timing-driven flow at every target.
    Targets(TargetSweepArgs),
    /// Every configuration of each configurable hasher on every address, co-simulated through
    /// the DPI-C golden model (sampled where the configurations are too many).
    Configs(ConfigSweepArgs),
    /// Run one point of a sweep emitted by `sweep <family> --emit` (what each job of its job
    /// file runs) and write its record.
    Point(PointArgs),
    /// Merge the point records of a sweep emitted by `sweep <family> --emit` into results.csv,
    /// results.json and the plots, as the in-process sweep writes them.
    Collect(CollectArgs),
}

/// Arguments of `rtl-gen sweep point`.
#[derive(Args)]
#[command(after_help = "\
Generates and synthesizes one point of an emitted sweep exactly as the in-process sweep does
(into DIR/blocks/<name>/) and writes its record DIR/points/POINT.json, which `sweep collect`
reads. The job files run this command, one per point; run it by hand to redo one point.

Example:
  rtl-gen sweep point out/sweep bitvector-xor-b32

Exit status: 0 when the point's record was written (a point whose synthesis failed is recorded
as failed, and the failure printed, as the in-process sweep goes on past it), 2 on an error
(DIR is not an emitted sweep, POINT is not one of its points).")]
pub struct PointArgs {
    #[command(flatten)]
    sweep: EmittedSweepArgs,
    /// The point's name (DIR/points.txt lists them).
    point: String,
}

/// What `sweep point` and `sweep collect` share: the folder, `--json` and `--quiet`.
#[derive(Args)]
struct EmittedSweepArgs {
    /// The emitted sweep's folder (written by `sweep <family> --emit`).
    dir: PathBuf,
    /// Print one JSON document (the point's record; results.json) instead of lines and tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    quiet: QuietArg,
}

/// Arguments of `rtl-gen sweep collect`.
#[derive(Args)]
#[command(after_help = "\
Reads DIR/sweep.json and every point record DIR/points/<point>.json and writes DIR/results.csv,
DIR/results.json and the plots, the same files (same columns, same numbers) as the in-process
sweep writes for the same plan; results.json's `command` is the emitting command. Points
whose synthesis failed are in the results as failed and named on stderr. A point without a
record (its job did not run or did not finish) stops the collection: the missing points are
named and nothing is written, unless --allow-missing, which writes the rest with the missing
points' status `missing`.

Examples:
  rtl-gen sweep collect out/sweep
  rtl-gen sweep collect out/sweep --allow-missing --json

Exit status: 0 when every point succeeded, 1 when some failed or (with --allow-missing) are
missing, 2 on an error (DIR is not an emitted sweep, points missing without --allow-missing,
a corrupt record) or when no point succeeded.")]
pub struct CollectArgs {
    #[command(flatten)]
    sweep: EmittedSweepArgs,
    /// Write the results of the points that have a record; the others get status `missing`.
    #[arg(long)]
    allow_missing: bool,
}

/// Arguments of `rtl-gen sweep configs`.
#[derive(Args)]
#[command(after_help = "\
Per kind, every legal configuration cfg_i encodes is checked on every address under Verilator
through the DPI-C golden model (`rtl-gen cosim --fast --sweep`). A kind whose fields encode more
than --max-configs combinations is sampled: every value of every field (the other fields
random), then random configurations, --samples in all; the table says which. Each kind's block
is written to <OUT>/blocks/<name>/; writes <OUT>/results.json and <OUT>/results.md.

Example (the figures in docs/BENCHMARKS.md):
  rtl-gen sweep configs --addr-bits 14 --banks 32 --out out/config_sweep

Exit status: 0 when every vector passed, 1 when some failed or a kind could not be checked,
2 on an error.")]
pub struct ConfigSweepArgs {
    /// Configurable kinds: `all` (the paper's four: bitvector-perm, bitvector-xor,
    /// bitwise-perm, bitwise-xor), or a comma-separated list of them and xor-matrix.
    #[arg(long, default_value = "all", value_delimiter = ',', value_parser = named_or_all::<HashKind>(HashKind::ALL.map(HashKind::name)))]
    kinds: Vec<OrAll<HashKind>>,
    /// Word-address bits n.
    #[arg(long, default_value_t = 14)]
    addr_bits: u32,
    /// Bank count.
    #[arg(long, default_value_t = 32)]
    banks: u64,
    /// Sample a kind whose fields encode more than this many combinations.
    #[arg(long, default_value_t = 1_000_000)]
    max_configs: usize,
    /// Configurations of a sampled kind.
    #[arg(long, default_value_t = 10_000)]
    samples: usize,
    /// DUT instances side by side in the testbench (`--lanes` is its old spelling).
    #[arg(long, alias = "lanes", default_value_t = testbenches::dpi::DEFAULT_LANES)]
    instances: usize,
    /// Output folder.
    #[arg(long, default_value = "out/config_sweep")]
    out: PathBuf,
    #[command(flatten)]
    quiet: QuietArg,
}

/// Arguments of `rtl-gen sweep targets`.
#[derive(Args)]
#[command(after_help = "\
Each point (a kind at a target, plus the default flow per kind) is generated into
<OUT>/blocks/<default|tPS>/<name>/ and synthesized there as `rtl-gen synth --target-ps` would
(its synth.json names the command). Writes <OUT>/results.csv, <OUT>/results.json,
<OUT>/area_vs_target.svg and <OUT>/address_delay_vs_target.svg. A failed point is reported and
the sweep goes on.

Example (the figures in docs/QOR.md):
  rtl-gen sweep targets --liberty ../shared/pdk/nangate45_typ.lib.gz \\
      --targets 100,120,140,160,180,200,220,240,260,280,300 --out out/fig4b

Exit status: 0 when every point succeeded, 1 when some failed, 2 on an error or when every
point failed.")]
pub struct TargetSweepArgs {
    /// Configurable kinds: `all` (the paper's four: bitvector-perm, bitvector-xor,
    /// bitwise-perm, bitwise-xor), or a comma-separated list of them and xor-matrix.
    #[arg(long, default_value = "all", value_delimiter = ',', value_parser = named_or_all::<HashKind>(HashKind::ALL.map(HashKind::name)))]
    kinds: Vec<OrAll<HashKind>>,
    /// Delay targets in ps (positive numbers).
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        allow_hyphen_values = true
    )]
    targets: Vec<String>,
    /// Bank count.
    #[arg(long, default_value_t = 32)]
    banks: u64,
    /// Word-address bits n.
    #[arg(long, default_value_t = 14)]
    addr_bits: u32,
    /// The liberty file (plain or gzipped).
    #[arg(long)]
    liberty: PathBuf,
    /// Output folder.
    #[arg(long, default_value = "out/targets")]
    out: PathBuf,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// Arguments of `rtl-gen sweep structures`.
#[derive(Args)]
#[command(after_help = "\
Writes <OUT>/structures.json and <OUT>/structures.md (a Markdown table, default marked) and one
block folder per alternative. With --cosim every alternative is also co-simulated under
Verilator against the golden model (50 random configurations, 5000 vectors).

Example:
  rtl-gen sweep structures --liberty ../shared/pdk/sky130hd_tt.lib.gz \\
      --liberty ../shared/pdk/nangate45_typ.lib.gz --cosim --out out/structures")]
pub struct StructureArgs {
    /// Word-address bits n.
    #[arg(long, default_value_t = 14)]
    addr_bits: u32,
    /// Bank count.
    #[arg(long, default_value_t = 32)]
    banks: u64,
    /// Liberty files to measure with, besides the generic flow (repeat the flag).
    #[arg(long)]
    liberty: Vec<PathBuf>,
    /// Also co-simulate every alternative under Verilator.
    #[arg(long)]
    cosim: bool,
    /// Output folder.
    #[arg(long, default_value = "out/structures")]
    out: PathBuf,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// Arguments of `rtl-gen sweep hash`.
#[derive(Args)]
#[command(after_help = "\
A point is one kind at one address width and one bank count: every combination of --kinds,
--addr-bits and --banks (at most 10000). A bank count above 2^n at width n is a skipped point.
Each point is generated into <OUT>/blocks/<name>/ and synthesized there (its synth.json names
the `rtl-gen synth` command that reproduces it alone). Fixed hashers get a deterministic
full-rank configuration: bitvector-perm k=0; bitvector-xor k1=0, k2=m, mask all ones;
bitwise-perm bits 0..m; bitwise-xor pairs (i, i+m); xor-matrix row i = bit i plus every bit from
m up. Writes <OUT>/results.csv, <OUT>/results.json and SVG plots against the bank count (area and
delay with --liberty, transistors and depth without). A failed point is reported and the sweep
goes on.

With --emit make|ninja|slurm nothing runs: <OUT> gets the sweep's plan (sweep.json), its point
list (points.txt) and a job file (Makefile, build.ninja or the Slurm job-array script
sweep.sbatch) in which each point is one `rtl-gen sweep point <OUT> <POINT>`, with absolute
paths, so that it runs from any folder; `rtl-gen sweep collect <OUT>` then writes the same
results as the in-process sweep.

Examples:
  rtl-gen sweep hash --kinds all --banks 4,8,16,32,64,128,256 --addr-bits 14 --out out/sweep
  rtl-gen sweep hash --configurable --liberty ../shared/pdk/nangate45_typ.lib.gz --out out/sweep
  rtl-gen sweep hash --kinds all --addr-bits 8,12,16 --banks 2,4,8,16 --out out/sweep
  rtl-gen sweep hash --kinds all --banks 4,8,16,32 --emit make --out out/sweep
  make -f \"$PWD\"/out/sweep/Makefile -j 8 && rtl-gen sweep collect out/sweep

Exit status: 0 when every point succeeded (with --emit: when the files were written), 1 when
some failed, 2 on an error or when every point failed.")]
pub struct HashSweepArgs {
    /// Kinds: `all`, or a comma-separated list.
    #[arg(long, default_value = "all", value_delimiter = ',', value_parser = named_or_all::<HashKind>(HashKind::ALL.map(HashKind::name)))]
    kinds: Vec<OrAll<HashKind>>,
    /// Bank counts (powers of two).
    #[arg(long, value_delimiter = ',', default_value = "4,8,16,32,64,128,256")]
    banks: Vec<u64>,
    /// Word-address widths n, a comma-separated list; every kind runs at every width and bank
    /// count (a bank count above 2^n is skipped at that width).
    #[arg(long, value_delimiter = ',', default_value = "14")]
    addr_bits: Vec<u32>,
    /// Configurable hashers (configuration on cfg_i); modulo is skipped.
    #[arg(long)]
    configurable: bool,
    /// Register the output.
    #[arg(long)]
    pipeline: bool,
    #[command(flatten)]
    common: SweepCommon,
}

/// What every family's sweep takes: the library, the folder, the job files, `--json`,
/// `--jobs` and `--quiet`.
#[derive(Args)]
struct SweepCommon {
    /// A liberty file (plain or gzipped); without it, Yosys' generic gates.
    #[arg(long)]
    liberty: Option<PathBuf>,
    /// Output folder.
    #[arg(long, default_value = "out/sweep")]
    out: PathBuf,
    /// Write a job file for this engine into --out instead of running the sweep; each point is
    /// one job (`rtl-gen sweep point`), merged by `rtl-gen sweep collect`. The engine decides
    /// how many run at once (`make -j N`); --jobs is not used.
    #[arg(long, value_name = "ENGINE")]
    emit: Option<JobFormat>,
    /// Print one JSON document: results.json, or with --emit what was emitted.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// Arguments of `rtl-gen sweep smem`.
#[derive(Args)]
#[command(after_help = "\
A point is one map at one lane count and bank count, at --depth rows per bank: every
combination (at most 10000). A map is modulo, rap (seed 1, baked) or a hash kind with the
configuration `sweep hash` gives a fixed hasher of that kind. A combination the memory refuses
(a RAP map needs banks x banks-word tiles) is a skipped point. Writes <OUT>/results.csv,
<OUT>/results.json and plots against the bank count; --emit writes job files as `sweep hash`.

Examples:
  rtl-gen sweep smem --lanes 8,32 --banks 8,16,32 --maps modulo,rap,bitvector-xor --depth 1024 --out out/smem-sweep
  rtl-gen sweep smem --lanes 4 --banks 4,8 --depth 64 --emit make --out out/smem-jobs")]
pub struct SmemSweepArgs {
    #[command(flatten)]
    plan: rtl_gen::smem::sweep::SmemSweep,
    #[command(flatten)]
    common: SweepCommon,
}

/// Arguments of `rtl-gen sweep rap`.
#[derive(Args)]
#[command(after_help = "\
A point is one kind at one bank count w: every combination. Writes <OUT>/results.csv,
<OUT>/results.json and plots against the bank count; --emit writes job files as `sweep hash`.

Examples:
  rtl-gen sweep rap --banks 8,16,32,64 --kinds rap,ras,3p --out out/rap-sweep
  rtl-gen sweep rap --banks 8,16,32 --configurable --packed --liberty ../shared/pdk/nangate45_typ.lib.gz")]
pub struct RapSweepArgs {
    #[command(flatten)]
    plan: rtl_gen::rap::sweep::RapSweep,
    #[command(flatten)]
    common: SweepCommon,
}

/// Arguments of `rtl-gen sweep d2ma`.
#[derive(Args)]
#[command(after_help = "\
A point is one storage style at one buffer count and CTA count: every combination. Writes
<OUT>/results.csv, <OUT>/results.json and plots against the CTA count; --emit writes job files
as `sweep hash`.

Examples:
  rtl-gen sweep d2ma --unit controller --ctas 2,4,8 --buffers 2,4 --storage flip-flop,latch --out out/d2ma-sweep
  rtl-gen sweep d2ma --unit engine --ctas 8 --buffers 4 --storage flip-flop,clock-gated,latch --liberty ../shared/pdk/nangate45_typ.lib.gz")]
pub struct D2maSweepArgs {
    #[command(flatten)]
    plan: rtl_gen::d2ma::sweep::D2maSweep,
    #[command(flatten)]
    common: SweepCommon,
}

/// Arguments of `rtl-gen sweep conflict`.
#[derive(Args)]
#[command(after_help = "\
A point is one hash kind at one lane count and one bank count: every combination, each map the
hashers' sweep configuration of its kind. Writes <OUT>/results.csv, <OUT>/results.json and plots
against the bank count; --emit writes job files as `sweep hash`.

Examples:
  rtl-gen sweep conflict --lanes 4,8 --banks 4,8,16 --kinds modulo,bitvector-xor --out out/conflict-sweep")]
pub struct ConflictSweepArgs {
    #[command(flatten)]
    plan: rtl_gen::conflict::sweep::ConflictSweep,
    #[command(flatten)]
    common: SweepCommon,
}

/// Runs `rtl-gen sweep`.
pub fn run(args: SweepArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    match args.what {
        SweepWhat::Hash(a) => run_hash(a, command),
        SweepWhat::Smem(a) => run_space(&a.plan.checked()?, &a.common, command),
        SweepWhat::Rap(a) => run_space(&a.plan.checked()?, &a.common, command),
        SweepWhat::D2ma(a) => run_space(&a.plan.checked()?, &a.common, command),
        SweepWhat::Conflict(a) => run_space(&a.plan.checked()?, &a.common, command),
        SweepWhat::Structures(a) => run_structures(a, command),
        SweepWhat::Targets(a) => run_targets(a, command),
        SweepWhat::Configs(a) => run_configs(a, command),
        SweepWhat::Point(a) => run_point(a),
        SweepWhat::Collect(a) => run_collect(a),
    }
}

/// The paper's four configurable kinds, what `--kinds all` means where only configurable
/// hashers make sense.
const CONFIGURABLE_KINDS: [HashKind; 4] = [
    HashKind::BitvectorPerm,
    HashKind::BitvectorXor,
    HashKind::BitwisePerm,
    HashKind::BitwiseXor,
];

fn run_configs(args: ConfigSweepArgs, command: &str) -> Result<ExitCode, Error> {
    use rtl_gen::hash::config_sweep::{self, ConfigSweepPlan, KindResult};
    let kinds = OrAll::expand(&args.kinds, &CONFIGURABLE_KINDS);
    if let Some(k) = kinds.iter().find(|k| **k == HashKind::Modulo) {
        return Err(Error::NothingToConfigure(*k));
    }
    rtl_gen::limits::check(
        "--instances",
        args.instances as u64,
        testbenches::dpi::MAX_LANES as u64,
        "DUT instances in one DPI-C testbench",
    )?;
    models::Geometry::new(args.addr_bits, args.banks)?;
    let plan = ConfigSweepPlan {
        kinds,
        addr_bits: args.addr_bits,
        banks: args.banks,
        max_configs: args.max_configs,
        samples: args.samples,
        instances: args.instances,
        out: args.out,
    };
    rtl_gen::output::OutputFolder::check(&plan.out)?;
    rtl_gen::output::OutputFolder::check_files(
        ["results.json", "results.md"]
            .map(|f| plan.out.join(f))
            .iter()
            .map(PathBuf::as_path),
    )?;
    let quiet = args.quiet.quiet;
    let done = |k: &KindResult| {
        if !quiet || k.error.is_some() {
            match (&k.report, &k.error) {
                (Some(r), _) => eprintln!(
                    "{}: {} configurations, {} passed, {} failed in {:.1} s",
                    k.kind, k.coverage.configs, r.passed, r.failed, r.run_seconds
                ),
                (None, e) => eprintln!("{}: failed: {}", k.kind, e.as_deref().unwrap_or("?")),
            }
        }
    };
    let results = config_sweep::run(&plan, command, &done)?;
    let written = config_sweep::write_outputs(&results, &plan.out)?;
    print!("{}", config_sweep::to_markdown(&results));
    for f in written {
        println!("wrote {}", f.display());
    }
    let bad = results
        .kinds
        .iter()
        .any(|k| k.error.is_some() || k.report.as_ref().is_some_and(|r| r.failed > 0));
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads `--targets`: positive numbers of ps, at most `limits::MAX_TARGETS`, repeats dropped.
fn targets(list: &[String]) -> Result<Vec<f64>, Error> {
    let mut out: Vec<f64> = Vec::new();
    for t in list {
        let v = rtl_gen::limits::delay_target("--targets", t)?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    rtl_gen::limits::check(
        "--targets",
        out.len() as u64,
        rtl_gen::limits::MAX_TARGETS,
        "delay targets in one sweep, each one synthesis per kind",
    )?;
    Ok(out)
}

fn run_targets(args: TargetSweepArgs, command: &str) -> Result<ExitCode, Error> {
    use rtl_gen::hash::target_sweep::{self, TargetPlan, TargetPoint};
    let kinds = OrAll::expand(&args.kinds, &CONFIGURABLE_KINDS);
    if let Some(k) = kinds.iter().find(|k| **k == HashKind::Modulo) {
        return Err(Error::NothingToConfigure(*k));
    }
    let plan = TargetPlan {
        kinds,
        addr_bits: args.addr_bits,
        banks: args.banks,
        targets: targets(&args.targets)?,
        liberty: args.liberty,
        out: args.out,
    };
    // Every input is checked before anything is written.
    synth::check_liberty(&plan.liberty)?;
    models::Geometry::new(plan.addr_bits, plan.banks)?;
    rtl_gen::output::OutputFolder::check(&plan.out)?;
    rtl_gen::output::OutputFolder::check_files(
        target_sweep::output_files(&plan.out)
            .iter()
            .map(PathBuf::as_path),
    )?;
    let bar = if args.quiet.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(plan.points().len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} points, {elapsed} ({eta} left) {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let done = |p: &TargetPoint| {
        if let Some(e) = &p.error {
            let line = format!("failed: {} at {:?} ps: {e}", p.kind, p.target_ps);
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.println(line);
            }
        }
        bar.inc(1);
    };
    let results = target_sweep::run(&plan, command, args.jobs.threads(), &done)?;
    bar.finish_and_clear();
    let written = target_sweep::write_outputs(&results, &plan.out)?;
    print!("{}", target_sweep::to_csv(&results));
    let failed = results.points.iter().filter(|p| p.error.is_some()).count();
    for f in written {
        println!("wrote {}", f.display());
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else if failed == results.points.len() {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    })
}

fn run_structures(args: StructureArgs, command: &str) -> Result<ExitCode, Error> {
    for lib in &args.liberty {
        synth::check_liberty(lib)?;
    }
    models::Geometry::new(args.addr_bits, args.banks)?;
    rtl_gen::output::OutputFolder::check(&args.out)?;
    rtl_gen::output::OutputFolder::check_files(
        ["structures.json", "structures.md"]
            .map(|f| args.out.join(f))
            .iter()
            .map(PathBuf::as_path),
    )?;
    let quiet = args.quiet.quiet;
    let done = |a: &rtl_gen::hash::structures::Alternative| {
        let status = match (&a.error, a.cosim) {
            (Some(e), _) => format!("FAILED: {e}"),
            (None, Some((p, f))) => format!("lint clean, cosim {p} passed, {f} failed"),
            (None, None) => "lint clean".into(),
        };
        if !quiet || a.error.is_some() {
            eprintln!("{} {}: {status}", a.kind, a.label);
        }
    };
    let results = rtl_gen::hash::structures::run(
        args.addr_bits,
        args.banks,
        &args.liberty,
        &args.out,
        args.cosim,
        args.jobs.threads(),
        command,
        &done,
    )?;
    let written = rtl_gen::hash::structures::write_outputs(&results, &args.out)?;
    print!("{}", rtl_gen::hash::structures::to_markdown(&results));
    for f in written {
        println!("wrote {}", f.display());
    }
    let bad = results
        .alternatives
        .iter()
        .any(|a| a.error.is_some() || a.cosim.is_some_and(|(_, failed)| failed > 0));
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_hash(args: HashSweepArgs, command: &str) -> Result<ExitCode, Error> {
    // Every address width and bank count alone is checked before anything is written (a pair
    // that does not fit is a skipped point).
    for &banks in &args.banks {
        models::Geometry::new(models::geometry::MAX_ADDR_BITS, banks)?;
    }
    for &n in &args.addr_bits {
        models::Geometry::new(n, 2)?;
    }
    let plan = SweepPlan::new(
        OrAll::expand(&args.kinds, &HashKind::ALL),
        args.banks,
        args.addr_bits,
        args.configurable,
        args.pipeline,
    )?;
    run_space(&plan, &args.common, command)
}

/// Runs (or with `--emit` writes the jobs of) the sweep of `space`: every input is checked
/// before anything is written (a bad liberty file once, not at every point; the point count;
/// the output files the sweep will replace).
fn run_space(
    space: &dyn SweepSpace,
    common: &SweepCommon,
    command: &str,
) -> Result<ExitCode, Error> {
    if let Some(lib) = &common.liberty {
        synth::check_liberty(lib)?;
    }
    let points = space.point_count();
    let settings = Settings {
        liberty: common.liberty.clone(),
        out: common.out.clone(),
    };
    rtl_gen::output::OutputFolder::check(&settings.out)?;
    rtl_gen::output::OutputFolder::check_files(
        sweep::output_files(space, &settings)
            .iter()
            .map(PathBuf::as_path),
    )?;
    if let Some(format) = common.emit {
        return emit(space, &settings, format, command, common.json);
    }
    let bar = if common.quiet.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(points)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} points, {elapsed} ({eta} left) {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let done = |r: &PointResult| {
        match problem(r) {
            // A hidden bar (stderr not a terminal, or --quiet) drops its println: say it on
            // stderr then (failures and skips are not progress).
            Some(line) if bar.is_hidden() => eprintln!("{line}"),
            Some(line) => bar.println(line),
            None => bar.set_message(r.top.clone().unwrap_or_else(|| r.point.clone())),
        }
        bar.inc(1);
    };
    let start = std::time::Instant::now();
    let results = sweep::run(space, &settings, command, common.jobs.threads(), &done)?;
    bar.finish_and_clear();
    report(
        &results,
        space,
        &settings.out,
        common.json,
        Some(start.elapsed()),
    )
}

/// The line that reports a point which did not succeed (failed, skipped, missing from an
/// emitted sweep); `None` for a point with numbers.
fn problem(r: &PointResult) -> Option<String> {
    let why = r.error.as_deref().unwrap_or("?");
    match (r.status.as_str(), &r.top) {
        ("ok", _) => None,
        (status, Some(top)) => Some(format!("{status}: {} ({top}): {why}", r.point)),
        (status, None) => Some(format!("{status}: {}: {why}", r.point)),
    }
}

/// Writes a sweep's results into `out` and prints them (the table and a summary, or with
/// `json` results.json); the exit status says whether every point succeeded. `elapsed` is the
/// in-process sweep's wall time (none for a collected one).
fn report(
    results: &SweepResults,
    space: &dyn SweepSpace,
    out: &Path,
    json: bool,
    elapsed: Option<std::time::Duration>,
) -> Result<ExitCode, Error> {
    let written = sweep::write_outputs(results, space, out)?;
    let reports: Vec<synth::SynthReport> = results
        .points
        .iter()
        .filter_map(|p| p.synth.as_ref().map(|s| s.report.clone()))
        .collect();
    let ok = reports.len();
    let failed = results
        .points
        .iter()
        .filter(|p| p.status == "failed")
        .count();
    let missing = results
        .points
        .iter()
        .filter(|p| p.status == "missing")
        .count();
    if json {
        let text = std::fs::read_to_string(out.join("results.json"))
            .map_err(Error::io(out.join("results.json")))?;
        print!("{text}");
    } else {
        print!("{}", synth::render_table(&reports));
        println!(
            "{ok} points synthesized, {failed} failed, {} skipped{}{}; {}",
            results.points.len() - ok - failed - missing,
            if missing > 0 {
                format!(", {missing} missing")
            } else {
                String::new()
            },
            elapsed.map_or(String::new(), |t| format!(" in {:.1} s", t.as_secs_f64())),
            results.yosys_version.as_deref().unwrap_or("no Yosys run"),
        );
        if let Some(lib) = &results.liberty {
            println!("library: {lib}");
        }
        for f in written {
            println!("wrote {}", f.display());
        }
    }
    Ok(if failed + missing == 0 {
        ExitCode::SUCCESS
    } else if ok == 0 {
        // Nothing measured at all (no Yosys, say): an error, not a partial result.
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    })
}

/// `sweep <family> --emit`: writes the plan and the job file instead of running the sweep.
fn emit(
    space: &dyn SweepSpace,
    settings: &Settings,
    format: JobFormat,
    command: &str,
    json: bool,
) -> Result<ExitCode, Error> {
    let exe = std::env::current_exe()
        .and_then(|e| e.canonicalize())
        .map_err(Error::io("the rtl-gen binary"))?;
    let emitted = sweep_jobs::emit(space, settings, format, command, &exe)?;
    if json {
        let mut text =
            serde_json::to_string_pretty(&emitted).unwrap_or_else(|e| unreachable!("{e}"));
        text.push('\n');
        print!("{text}");
    } else {
        println!(
            "{} points, one {} job each, in {}",
            emitted.points,
            format.name(),
            emitted.job_file.display()
        );
        println!("run:   {}", emitted.run);
        println!("then:  {}", emitted.collect);
    }
    Ok(ExitCode::SUCCESS)
}

fn run_point(args: PointArgs) -> Result<ExitCode, Error> {
    let record = sweep_jobs::run_point(
        &args.sweep.dir,
        &args.point,
        &rtl_gen::families::sweep_space,
    )?;
    if args.sweep.json {
        let mut text =
            serde_json::to_string_pretty(&record).unwrap_or_else(|e| unreachable!("{e}"));
        text.push('\n');
        print!("{text}");
    } else if let Some(line) = problem(&record.result) {
        eprintln!("{}: {line}", record.point);
    } else if !args.sweep.quiet.quiet {
        eprintln!(
            "{}: {} synthesized",
            record.point,
            record.result.top.as_deref().unwrap_or("?")
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn run_collect(args: CollectArgs) -> Result<ExitCode, Error> {
    let collected = sweep_jobs::collect(
        &args.sweep.dir,
        args.allow_missing,
        &rtl_gen::families::sweep_space,
    )?;
    let space = collected.space.as_ref();
    rtl_gen::output::OutputFolder::check_files(
        sweep::output_files(space, &collected.settings)
            .iter()
            .map(PathBuf::as_path),
    )?;
    for line in collected.results.points.iter().filter_map(problem) {
        eprintln!("{line}");
    }
    report(
        &collected.results,
        space,
        &args.sweep.dir,
        args.sweep.json,
        None,
    )
}
