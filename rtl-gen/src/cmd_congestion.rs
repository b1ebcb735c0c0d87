//! `rtl-gen congestion`: the Monte Carlo congestion simulator of the RAP paper's Tables II and IV.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use models::rap::{simulate, Cell, Pattern, Scheme};
use rtl_gen::limits;
use rtl_gen::rap::congestion;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `rtl-gen congestion`.
#[derive(Args)]
#[command(after_help = "\
Kinds (layout schemes): raw, ras, rap (--dims 2); raw, ras, 1p, r1p, 3p, w2p, 1pw2r (--dims 4).
Patterns: contiguous, stride, diagonal, random, malicious (--dims 2);
          contiguous, stride1, stride2, stride3, random, malicious (--dims 4).
A trial draws the layout's random numbers and one warp of the pattern (the indices the pattern
holds fixed are drawn too) and counts the DMM congestion. Trial t has its own generator,
derived from (--seed, t): results do not depend on the thread count (--jobs).

Examples:
  rtl-gen congestion --banks 16,32,64,128,256 --kinds raw,ras,rap --pattern contiguous,stride,diagonal,random --trials 100000 --seed 1
  rtl-gen congestion --dims 4 --banks 32 --kinds 1p,r1p,3p,w2p,1pw2r --pattern contiguous,stride1,stride2,stride3,random,malicious
  rtl-gen congestion --compare-paper --plot out/table2.svg
  rtl-gen congestion --banks 32 --kinds rap --pattern diagonal --json")]
pub struct CongestionArgs {
    /// 2 for a w x w matrix (Table II), 4 for a w^4 array (section VII, Table IV).
    #[arg(long, default_value = "2", value_parser = crate::cli::named::<u32>(["2", "4"]))]
    dims: u32,
    /// Bank counts = matrix widths w = warp size, comma separated [default: 16,32,64,128,256
    /// for --dims 2, 32 for --dims 4] (`--w` is its old spelling).
    #[arg(long, alias = "w", value_delimiter = ',')]
    banks: Option<Vec<u32>>,
    /// Layout schemes [default: raw,ras,rap for --dims 2, raw,ras,1p,r1p,3p,w2p,1pw2r for
    /// --dims 4] (`--scheme` is its old spelling).
    #[arg(long, alias = "scheme", value_delimiter = ',', value_parser = crate::cli::named::<Scheme>(Scheme::ALL.map(Scheme::name)))]
    kinds: Option<Vec<Scheme>>,
    /// Warp accesses [default: the paper's table for --dims].
    #[arg(long, value_delimiter = ',', value_parser = crate::cli::named::<String>(Pattern::NAMES))]
    pattern: Option<Vec<String>>,
    /// Trials per cell.
    #[arg(long, default_value_t = 100_000)]
    trials: u64,
    /// Seed of the trials' generators.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON document: `format_version` and `cells`, one object per cell (dims, w,
    /// scheme, pattern, trials, seed, mean, max, min).
    #[arg(long)]
    json: bool,
    /// Print one JSON object per cell, one per line (JSON lines), instead of the document.
    #[arg(long, conflicts_with = "json")]
    json_lines: bool,
    /// Show the paper's Table II value beside each cell and the largest difference.
    #[arg(long)]
    compare_paper: bool,
    /// Write an SVG plot of the mean congestion against w to this file.
    #[arg(long)]
    plot: Option<PathBuf>,
    #[command(flatten)]
    jobs: crate::cli::JobsArg,
    #[command(flatten)]
    quiet: crate::cli::QuietArg,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

impl CongestionArgs {
    fn cells(&self) -> Result<Vec<Cell>, Error> {
        congestion::cells(
            self.dims,
            self.banks.as_deref(),
            self.kinds.as_deref(),
            self.pattern.as_deref(),
        )
    }
}

/// Runs `rtl-gen congestion`.
pub fn run(args: CongestionArgs) -> Result<ExitCode, Error> {
    args.output.apply();
    let cells = args.cells()?;
    limits::check_congestion_run(args.trials, args.dims, &cells)?;
    if let Some(path) = &args.plot {
        rtl_gen::output::OutputFolder::check_files([path.as_path()])?;
    }
    let total = args.trials.saturating_mul(cells.len() as u64);
    let bar = if args.quiet.quiet || total < 1_000_000 {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {percent:>3}% {human_pos}/{human_len} trials, ETA {eta}",
            )
            .unwrap_or_else(|e| unreachable!("a valid template: {e}"))
            .progress_chars("=> "),
        );
        bar
    };
    let start = Instant::now();
    let (results, threads) = args.jobs.install(|| {
        let results = simulate(&cells, args.trials, args.seed, &|n| bar.inc(n));
        (results, rayon::current_num_threads())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let warps = total as f64;
    let summary = format!(
        "{} cells, {total} warp accesses in {seconds:.2} s: {:.3} M warp accesses/s on {} threads",
        cells.len(),
        warps / seconds.max(1e-9) / 1e6,
        threads
    );
    if args.json || args.json_lines {
        if args.json {
            print!("{}", congestion::json_document(&results));
        } else {
            print!("{}", congestion::json_lines(&results));
        }
        eprintln!("{summary}");
    } else {
        print!("{}", congestion::table(&results, args.compare_paper));
        if args.compare_paper {
            let (compared, within, worst, at) = congestion::paper_agreement(&results, 0.03);
            if compared > 0 {
                println!(
                    "{within} of {compared} cells within 0.03 of the paper's Table II; largest difference {worst:.4} ({at})"
                );
            }
        }
        println!("{summary}");
    }
    if let Some(path) = &args.plot {
        let svg = rtl_gen::output::ownership::sign_svg(&congestion::plot(&results));
        rtl_gen::output::write_file(path, svg.as_bytes())?;
        if !args.json && !args.json_lines {
            println!("plot: {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
