//! `rtl-gen prove`: prove generated blocks equal to independent references with Yosys' SAT
//! solver.

use crate::cli::{JobsArg, QuietArg};
use clap::Args;
use rayon::prelude::*;
use rtl_gen::prove::properties::{self, Options as PropertyOptions};
use rtl_gen::prove::{self, Options, Outcome};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen prove`.
#[derive(Args)]
#[command(after_help = "\
What is proved (docs/VERIFICATION.md):
  fixed hasher         bank_o equals the configuration's GF(2) matrix for every address
  configurable hasher  bank_o equals the family's formula for every in-range configuration
                       on cfg_i (the manifest's field layout) and every address
  baked RAP/RAS/3P     addr_o and bank_o equal the table formula for every element
  loadable converter   every input sequence from reset (reads, writes, resets), of any
                       length, gives the reference's outputs (induction); with --steps, or
                       where the induction does not close, every sequence of --steps
                       cycles (default: every entry loaded, plus 2)
  pipelined variants   the same one register later, reset to 0 (1-induction)
  D2MA RAW check       wait_o and release_o equal the entry-by-entry reference of
                       models::d2ma::raw for every input, one load_cta_i value at a time
The reference is written from the golden models, never from the generator's code; Yosys'
miter and SAT solver decide (scripts and logs in <DIR>/prove/).

With --properties, a shared memory's safety and liveness properties instead (a generated
property module around the block, every input free; scripts, logs and failing traces in
<DIR>/prove/properties/): no response lost or duplicated, every access answered and every
request of either port accepted within a bound, one conflict-free access a cycle (proved by
default); every read returning the bytes written before it (data-lemma, read-data: slow, proved
only when named with --property).

Examples:
  rtl-gen hash --kind bitvector-xor --addr-bits 64 --banks 32 --configurable --out out/
  rtl-gen prove out/hash_bvxor_n64_b32_cfg          # every configuration, all 2^64 addresses
  rtl-gen prove out/rap_w8_load                     # every input sequence, any length
  rtl-gen prove out/rap_w8_load --steps 12 --json   # every input sequence of 12 cycles
  rtl-gen prove out/* --jobs 2                      # proofs run two at a time
  rtl-gen d2ma raw-check --out out/ && rtl-gen prove out/d2ma_raw_check_c8_b4
  rtl-gen smem --lanes 8 --banks 8 --depth 16 --out out/
  rtl-gen prove out/smem_l8_b8_d16 --properties                 # every property
  rtl-gen prove out/smem_l8_b8_d16 --properties --property fill-wait --stall 4

Exit status: 0 when every proof holds, 1 when one fails or is undecided (the line gives the
counterexample: inputs, expected, got), 2 on bad input (nothing proved).")]
pub struct ProveArgs {
    /// Block folders written by `rtl-gen hash`, `rtl-gen rap`, `rtl-gen d2ma raw-check` or
    /// `rtl-gen conflict` (with --properties: `rtl-gen smem`).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Cycles of a loadable converter's bounded proof, instead of the induction (default, where
    /// the induction does not close: every entry loaded, plus 2).
    #[arg(long)]
    steps: Option<u32>,
    /// Seconds each SAT problem may take (1 to 86400) before the proof is undecided.
    #[arg(long, default_value_t = Options::default().timeout_s)]
    timeout: u32,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Print one JSON document instead of one line per proof (progress goes to stderr).
    #[arg(long)]
    json: bool,
    /// Prove the block's safety and liveness properties instead of its equivalence to a
    /// reference (shared memories: responses, waits, full rate, read data).
    #[arg(long, conflicts_with = "steps")]
    properties: bool,
    /// With --properties: cycles within which the consumer takes each response, the fairness
    /// assumption of every bound (1 to 64).
    #[arg(long, requires = "properties", default_value_t = PropertyOptions::default().stall)]
    stall: u32,
    /// With --properties: prove only this property (and those it assumes); repeat it for
    /// several. Default: the block's properties proved by default (shared memory: all but
    /// data-lemma and read-data).
    #[arg(long = "property", value_name = "NAME", requires = "properties")]
    only: Vec<String>,
}

/// One line about a proof: block, verdict, what holds or why not, seconds.
fn line(proof: &prove::Proof) -> String {
    let (verdict, detail) = match &proof.outcome {
        Outcome::Proved => ("PROVED", proof.claim.as_str()),
        Outcome::Disproved { reason, .. } => ("DISPROVED", reason.as_str()),
        Outcome::Undecided { reason } => ("UNDECIDED", reason.as_str()),
    };
    let cpu = proof
        .cpu_seconds
        .map_or(String::new(), |c| format!(", {c:.2} s CPU"));
    format!(
        "{}: {verdict} {}: {detail} ({:.2} s{cpu})",
        proof.block, proof.name, proof.seconds
    )
}

/// Runs `rtl-gen prove`.
pub fn run(args: ProveArgs) -> Result<ExitCode, Error> {
    if !(1..=86_400).contains(&args.timeout) {
        return Err(prove::ProveError::Bound {
            flag: "--timeout",
            value: args.timeout.to_string(),
            allowed: "1 to 86400 seconds".into(),
        }
        .into());
    }
    if args.properties {
        return run_properties(&args);
    }
    let options = Options {
        steps: args.steps,
        timeout_s: args.timeout,
    };
    let mut blocks = args
        .dirs
        .iter()
        .map(|d| prove::load(d, &options, &rtl_gen::families::REFEREES))
        .collect::<Result<Vec<_>, _>>()?;
    // A folder named twice is proved once (two proofs would share its prove/ folder).
    let mut seen = std::collections::HashSet::new();
    blocks.retain(|b| {
        let dir = &b.block.dir;
        seen.insert(std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone()))
    });
    let done = std::sync::atomic::AtomicUsize::new(0);
    // Each proof writes only into its own block's prove/ folder. Lines print as proofs end;
    // the JSON document keeps the order given.
    let proofs = args.jobs.install(|| {
        blocks
            .par_iter()
            .map(|block| {
                let proof = prove::prove(&block.block, &block.plan, &options)?;
                let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                if args.json {
                    if !args.quiet.quiet {
                        eprintln!("[{n}/{}] {}", blocks.len(), line(&proof));
                    }
                } else {
                    println!("{}", line(&proof));
                }
                Ok(proof)
            })
            .collect::<Result<Vec<_>, Error>>()
    })??;
    let proved = proofs
        .iter()
        .filter(|p| p.outcome == Outcome::Proved)
        .count();
    if args.json {
        let value = serde_json::json!({
            "format_version": 1,
            "proved": proved,
            "not_proved": proofs.len() - proved,
            "proofs": proofs,
        });
        println!("{value:#}");
    }
    Ok(if proved == proofs.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Runs `rtl-gen prove --properties`: every block's properties, one line each as it ends.
fn run_properties(args: &ProveArgs) -> Result<ExitCode, Error> {
    let options = PropertyOptions {
        stall: args.stall,
        timeout_s: args.timeout,
        only: args.only.clone(),
    };
    let blocks = args
        .dirs
        .iter()
        .map(|d| properties::load(d, &rtl_gen::families::PROPERTIES, &options))
        .collect::<Result<Vec<_>, _>>()?;
    let proofs = args.jobs.install(|| {
        blocks
            .par_iter()
            .map(|(block, harness)| {
                properties::prove(block, harness, &options, |proof| {
                    if args.json {
                        if !args.quiet.quiet {
                            eprintln!("{}", proof.line());
                        }
                    } else {
                        println!("{}", proof.line());
                    }
                })
            })
            .collect::<Result<Vec<_>, Error>>()
    })??;
    let proofs: Vec<_> = proofs.into_iter().flatten().collect();
    let summary = properties::Summary::of(&proofs);
    if args.json {
        println!(
            "{:#}",
            serde_json::json!({ "format_version": 1, "summary": summary, "properties": proofs })
        );
    }
    Ok(if summary.holds() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
