//! `rtl-gen search`: from a kernel's trace of warp accesses to the best configuration of each
//! hash family.

use crate::cli::{named_or_all, OrAll};
use clap::Args;
use models::search::{plan, search, Heuristic, Report, Trace};
use models::{Geometry, HashKind};
use rtl_gen::hash::search_report;
use rtl_gen::limits;
use rtl_gen::output::Staging;
use rtl_gen::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `rtl-gen search`.
#[derive(Args)]
#[command(after_help = "\
Heuristics and the families they configure:
  exhaustive  bitvector-perm, bitvector-xor (every configuration; also reports the paper's pruning)
  fixed       bitvector-xor: the fixed addr[0..m) ^ addr[m..2m) of the paper's [17], for reference
  givargis    bitwise-perm, bitwise-xor (Givargis heuristic, qualities summed over accesses)
  mih         bitwise-perm, bitwise-xor (Minimum Imbalance Heuristic, Eq. 15)
  gf2         xor-matrix (exact on affine-subspace accesses, never worse than the families)
The trace format is described in docs/TRACE_FORMAT.md.

Examples:
  rtl-gen search --trace kernels/fwt.trace --addr-bits 14 --banks 32 --kind all --heuristic all --out out/fwt
  rtl-gen hash --config out/fwt/best-bitwise-xor.json --out out/
  rtl-gen search --trace kernels/*.trace --summary --out out/suite

On a terminal, a spinner shows the trace being searched and the time spent (--quiet: none).
A search space too large for about a minute is refused before it starts (docs/LIMITS.md).")]
pub struct SearchArgs {
    /// Trace files, one warp access per line (several: one output folder per trace).
    #[arg(long, required = true, num_args = 1..)]
    trace: Vec<PathBuf>,
    /// Word-address bits n (1 to 64).
    #[arg(long, default_value_t = 14)]
    addr_bits: u32,
    /// Number of banks: a power of two, at most 2^n.
    #[arg(long, default_value_t = 32)]
    banks: u64,
    /// Threads per warp: the most addresses a trace line may hold.
    #[arg(long, default_value_t = 32)]
    warp_size: usize,
    /// Hash family to configure, or `all`.
    #[arg(long, default_value = "all", value_parser = named_or_all::<HashKind>(HashKind::ALL.map(HashKind::name)))]
    kind: OrAll<HashKind>,
    /// Heuristic to run, or `all`.
    #[arg(long, default_value = "all", value_parser = named_or_all::<Heuristic>(Heuristic::ALL.map(Heuristic::name)))]
    heuristic: OrAll<Heuristic>,
    /// Output folder for the configuration files, `best.json` and the heat map (with several
    /// traces, one subfolder per trace, named after its file).
    #[arg(long, default_value = "out/search")]
    out: PathBuf,
    /// Print the report as one JSON document (with several traces, `{"format_version", "reports":
    /// [...]}`, one report per trace).
    #[arg(long)]
    json: bool,
    /// Print one JSON report per trace, one per line (JSON lines), instead of the document.
    #[arg(long, conflicts_with = "json")]
    json_lines: bool,
    /// After the reports, print the percentage of conflicts removed per trace as a Markdown table.
    #[arg(long, conflicts_with_all = ["json", "json_lines"])]
    summary: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

fn bad(flag: &'static str, value: &str, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

/// Reads and parses one trace; every refusal names the file and, where there is one, the line.
pub fn read_trace(path: &Path, addr_bits: u32, warp_size: usize) -> Result<Trace, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::io(path))?;
    Trace::parse(&text, addr_bits, warp_size).map_err(|source| Error::Trace {
        path: path.to_path_buf(),
        source,
    })
}

/// The command-line flag a too-large search is blamed on, with its value, and what the user
/// can change: `rtl-gen search` sets the address bits itself (`--addr-bits`), `rtl-gen smem`
/// through `--depth` and `--banks`.
pub struct SearchSizeFlag<'a> {
    /// The flag named in the refusal.
    pub flag: &'static str,
    /// Its value.
    pub value: String,
    /// What to restrict or lower, ending the refusal.
    pub remedy: &'a str,
}

/// Refuses, before any search runs, a search whose estimated work
/// ([`limits::search_work`]) is above [`limits::MAX_SEARCH_WORK`], naming `blame`'s flag, the
/// costliest family and heuristic and what to change.
pub fn check_search_space(
    traces: &[(String, Trace)],
    geometry: Geometry,
    plan: &[(HashKind, Heuristic)],
    blame: &SearchSizeFlag<'_>,
) -> Result<(), Error> {
    let (n, m) = (geometry.addr_bits(), geometry.bank_bits());
    let addresses: u64 = traces
        .iter()
        .map(|(_, t)| {
            models::search::Workload::new(geometry, t)
                .sets()
                .iter()
                .map(|s| s.addresses.len() as u64)
                .sum::<u64>()
        })
        .fold(0, u64::saturating_add);
    let work = |&(k, h): &(HashKind, Heuristic)| limits::search_work(k, h, n, m, addresses);
    let total = plan.iter().map(work).fold(0, u64::saturating_add);
    if total <= limits::MAX_SEARCH_WORK {
        return Ok(());
    }
    let costliest = plan.iter().max_by_key(|p| work(p)).copied();
    let (kind, heuristic) = costliest.unwrap_or_else(|| unreachable!("a plan is never empty"));
    Err(bad(
        blame.flag,
        &blame.value,
        format!(
            "the search space is too large: about {total} address evaluations at {n} address bits \
             and {} banks over {addresses} trace addresses, at most {} (about a minute); the \
             costliest is {kind} {heuristic}: {} (docs/LIMITS.md)",
            geometry.banks(),
            limits::MAX_SEARCH_WORK,
            blame.remedy
        ),
    ))
}

/// Runs `rtl-gen search`.
pub fn run(args: SearchArgs) -> Result<ExitCode, Error> {
    args.output.apply();
    let geometry = Geometry::new(args.addr_bits, args.banks)?;
    if args.warp_size == 0 {
        return Err(bad("--warp-size", "0", "at least one thread"));
    }
    let (kind, heuristic) = (args.kind.one(), args.heuristic.one());
    let plan = plan(kind, heuristic)?;
    let traces: Vec<(String, Trace)> = args
        .trace
        .iter()
        .map(|p| {
            let name = p.file_stem().map_or_else(
                || p.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            read_trace(p, args.addr_bits, args.warp_size).map(|t| (name, t))
        })
        .collect::<Result<_, _>>()?;
    check_search_space(
        &traces,
        geometry,
        &plan,
        &SearchSizeFlag {
            flag: "--addr-bits",
            value: args.addr_bits.to_string(),
            remedy: "restrict --kind or --heuristic, or lower --addr-bits or --banks",
        },
    )?;
    let several = traces.len() > 1;
    let destinations: Vec<(PathBuf, String)> = traces
        .iter()
        .map(|(name, _)| {
            if several {
                (args.out.clone(), name.clone())
            } else {
                let parent = args
                    .out
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
                let folder = args
                    .out
                    .file_name()
                    .map_or_else(|| "search".into(), |f| f.to_string_lossy().into_owned());
                (parent, folder)
            }
        })
        .collect();
    // Every destination is checked before any search runs or anything is written.
    for (parent, folder) in &destinations {
        Staging::check(parent, folder)?;
    }
    let mut reports: Vec<(String, Report)> = Vec::new();
    let mut documents = Vec::new();
    for ((name, trace), (parent, folder)) in traces.iter().zip(&destinations) {
        let spinner = args.quiet.spinner();
        spinner.set_message(format!(
            "{name}: searching ({} families x heuristics)",
            plan.len()
        ));
        let report = search(trace, geometry, &plan);
        spinner.finish_and_clear();
        let staging = Staging::folder(parent, folder)?;
        for (file, contents) in search_report::files(name, trace, &report) {
            staging.write(&file, &contents)?;
        }
        let written = staging.commit()?;
        if args.json {
            documents.push(search_report::json(name, &report));
        } else if args.json_lines {
            println!("{}", search_report::json(name, &report));
        } else {
            print!("{}", search_report::text(name, &report));
            println!("files: {}", written.display());
            if several {
                println!();
            }
        }
        reports.push((name.clone(), report));
    }
    if args.json {
        let document = match documents.len() {
            1 => documents.remove(0),
            _ => serde_json::json!({
                "format_version": search_report::FORMAT_VERSION,
                "reports": documents,
            }),
        };
        let text = serde_json::to_string_pretty(&document);
        println!("{}", text.unwrap_or_else(|e| unreachable!("{e}")));
    }
    if args.summary {
        print!("{}", search_report::summary(&reports));
    }
    Ok(ExitCode::SUCCESS)
}
