//! `rtl-gen rap`: generate a RAP (or RAS) address converter block.

use clap::Args;
use models::config::parse_u64;
use models::rap::{LayoutKind, Permutation};
use rtl_gen::rap::block;
use rtl_gen::rap::vectors::VectorPlan;
use rtl_gen::rap::RapDesign;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen rap`.
#[derive(Args)]
#[command(after_help = "\
The converter: addr_o = row_i * w + ((col_i + shift[row_i]) mod w), bank_o = (col_i + shift[row_i]) mod w.
RAP's shifts are a permutation of 0..w-1 (rows and columns conflict-free); RAS's (--ras) are
independent values. A power-of-two w costs one adder; any other w a compare-and-subtract and a
multiplication by the constant w.

Examples:
  rtl-gen rap --w 32 --seed 7 --out out/
  rtl-gen rap --perm 2,0,3,1
  rtl-gen rap --w 32 --loadable --pipeline --out out/
  rtl-gen rap --w 24 --ras --seed 3
  rtl-gen cosim out/rap_w32")]
pub struct RapArgs {
    /// Matrix width = bank count, 2 to 1024 [default: the length of --perm, else 32].
    #[arg(long)]
    w: Option<u32>,
    /// Seed of the permutation (RAP) or of the shifts (RAS) [default: 1].
    #[arg(long, conflicts_with_all = ["perm", "shifts"])]
    seed: Option<u64>,
    /// The permutation r_0,...,r_{w-1} itself; refused unless a permutation of 0..w-1.
    #[arg(long, value_delimiter = ',', conflicts_with = "ras")]
    perm: Option<Vec<String>>,
    /// RAS: independent shifts instead of a permutation.
    #[arg(long)]
    ras: bool,
    /// With --ras: the shifts themselves (each 0 to w-1, repeats allowed).
    #[arg(long, value_delimiter = ',', requires = "ras")]
    shifts: Option<Vec<String>>,
    /// Hold the shifts in a register file written through perm_we_i, perm_idx_i, perm_val_i
    /// (adds clk_i and rst_ni); it resets to the seeded or given table.
    #[arg(long)]
    loadable: bool,
    /// Register addr_o and bank_o (adds clk_i and rst_ni; one cycle of latency).
    #[arg(long)]
    pipeline: bool,
    /// Output folder; the block goes to <out>/<module name>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Seed of the random test vectors.
    #[arg(long, default_value_t = VectorPlan::default().seed)]
    vector_seed: u64,
    /// Test vector budget (a baked converter with w*w at most this is checked exhaustively).
    #[arg(long, default_value_t = VectorPlan::default().vectors)]
    vectors: usize,
    /// Print the manifest as JSON instead of a summary.
    #[arg(long)]
    json: bool,
}

fn bad(flag: &'static str, value: String, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value,
        message: message.into(),
    }
}

/// Parses a comma-separated list of numbers, naming the first that is not one.
fn numbers(flag: &'static str, list: &[String]) -> Result<Vec<u64>, Error> {
    list.iter()
        .map(|x| parse_u64(x).map_err(|e| bad(flag, list.join(","), e)))
        .collect()
}

/// The `w` of a given list, checked against `--w`.
fn list_w(flag: &'static str, list: &[String], w: Option<u32>) -> Result<u32, Error> {
    let len = list.len() as u32;
    match w {
        Some(w) if w != len => Err(bad(
            flag,
            list.join(","),
            format!("{len} entries but --w is {w}: give one entry per row"),
        )),
        _ => Ok(len),
    }
}

impl RapArgs {
    fn design(&self) -> Result<RapDesign, Error> {
        if let Some(list) = &self.perm {
            let w = list_w("--perm", list, self.w)?;
            let values = numbers("--perm", list)?;
            let perm = Permutation::new(w, &values)
                .map_err(|e| bad("--perm", list.join(","), e.to_string()))?;
            return RapDesign::rap(&perm, self.loadable, self.pipeline);
        }
        if let Some(list) = &self.shifts {
            let w = list_w("--shifts", list, self.w)?;
            let values = numbers("--shifts", list)?;
            if let Some(v) = values.iter().find(|&&v| v >= u64::from(w)) {
                return Err(bad(
                    "--shifts",
                    list.join(","),
                    format!(
                        "{v} is out of range: each shift is 0 to {}",
                        w.saturating_sub(1)
                    ),
                ));
            }
            return RapDesign::ras(
                values.into_iter().map(|v| v as u32).collect(),
                self.loadable,
                self.pipeline,
            );
        }
        let kind = if self.ras {
            LayoutKind::Ras
        } else {
            LayoutKind::Rap
        };
        RapDesign::from_seed(
            kind,
            self.w.unwrap_or(32),
            self.seed.unwrap_or(1),
            self.loadable,
            self.pipeline,
        )
    }
}

/// Runs `rtl-gen rap`.
pub fn run(args: RapArgs, command: &str) -> Result<ExitCode, Error> {
    let design = args.design()?;
    let plan = VectorPlan {
        seed: args.vector_seed,
        vectors: args.vectors.max(1),
    };
    let dir = block::write(&design, &plan, command, &args.out)?;
    let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir)?;
    if args.json {
        print!("{}", manifest.to_json());
    } else {
        println!(
            "{}: {} {} converter, w = {}, {}{}, {} testbench vectors ({})",
            dir.display(),
            manifest.variant,
            manifest.kind.to_uppercase(),
            design.w(),
            if design.loadable {
                "register file"
            } else {
                "shifts baked in"
            },
            if design.pipeline {
                ", registered outputs"
            } else {
                ""
            },
            manifest.testbench.vectors,
            manifest.testbench.coverage
        );
    }
    Ok(ExitCode::SUCCESS)
}
