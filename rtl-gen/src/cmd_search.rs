//! `rtl-gen search`: from a kernel's trace of warp accesses to the best configuration of each
//! hash family.

use crate::cli::{named_or_all, OrAll};
use clap::Args;
use models::search::{Heuristic, Report, Trace};
use models::{Geometry, HashKind};
use rtl_gen::hash::{search, search_report};
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
  rtl-gen search --trace kernels/fwt.trace --addr-bits 14 --banks 32 --kinds all --heuristic all --out out/fwt
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
    /// Hash families to configure: `all`, or a comma-separated list (`--kind` is its old
    /// spelling).
    #[arg(long, alias = "kind", default_value = "all", value_delimiter = ',', value_parser = named_or_all::<HashKind>(HashKind::ALL.map(HashKind::name)))]
    kinds: Vec<OrAll<HashKind>>,
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

/// Runs `rtl-gen search`.
pub fn run(args: SearchArgs) -> Result<ExitCode, Error> {
    args.output.apply();
    let geometry = Geometry::new(args.addr_bits, args.banks)?;
    if args.warp_size == 0 {
        return Err(bad("--warp-size", "0", "at least one thread"));
    }
    let plan = search::plan_for(
        &OrAll::expand(&args.kinds, &HashKind::ALL),
        args.heuristic.one(),
    )?;
    let traces: Vec<(String, Trace)> = args
        .trace
        .iter()
        .map(|p| {
            rtl_gen::trace::read(p, args.addr_bits, args.warp_size)
                .map(|t| (rtl_gen::trace::name(p), t))
        })
        .collect::<Result<_, _>>()?;
    search::check_space(
        &traces,
        geometry,
        &plan,
        &search::SearchSizeFlag::addr_bits(args.addr_bits),
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
        let report = models::search::search(trace, geometry, &plan);
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
