//! `rtl-gen rap`: generate a RAP (or RAS) address converter block.

use clap::Args;
use rtl_gen::limits;
use rtl_gen::rap::design::{RapKind, TableRequest};
use rtl_gen::rap::vectors::VectorPlan;
use rtl_gen::rap::{RapDesign, Storage};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen rap`.
#[derive(Args)]
#[command(after_help = "\
The converter: addr_o = row_i * w + ((col_i + shift[row_i]) mod w), bank_o = (col_i + shift[row_i]) mod w.
RAP's shifts are a permutation of 0..w-1 (rows and columns conflict-free); RAS's (--kind ras)
are independent values. A power-of-two w costs one adder; any other w a compare-and-subtract and
a multiplication by the constant w.

--wide draws (or, with --perm, checks) a RAP permutation whose halves each hold every residue
mod w/2 once: columns of 8-byte words (two 4-byte banks each) are then conflict-free as well
(docs/GPU.md). --kind 3p builds the 3P converter of section VII for a w^4 array: inputs i_i,
j_i, k_i, l_i, bank (l + r[i] + s[j] + t[k]) mod w, three permutations drawn from --rap-seed.
--configurable --packed loads the register file a 32-bit word at a time in the paper's Fig. 7
format (w = 32: six 5-bit shifts a word, six words a table), the words `rtl-gen cuda layout`
emits.

--rap-seed draws the tables; --seed draws the test vectors, as in every command. Old spellings
still accepted for this release: --w (--banks), --ras (--kind ras), --dims 4 (--kind 3p),
--storage loadable|packed and --loadable (--configurable [--packed]), --vector-seed (--seed).

Examples:
  rtl-gen rap --banks 32 --rap-seed 7 --out out/
  rtl-gen rap --perm 2,0,3,1
  rtl-gen rap --banks 32 --configurable --pipeline --out out/
  rtl-gen rap --banks 32 --configurable --packed --out out/
  rtl-gen rap --banks 32 --wide --rap-seed 1 --out out/
  rtl-gen rap --banks 16 --kind 3p --rap-seed 3 --out out/
  rtl-gen rap --banks 24 --kind ras --rap-seed 3
  rtl-gen cosim out/rap_w32")]
pub struct RapArgs {
    /// The converter: rap (the shifts are a permutation), ras (independent shifts) or 3p (a
    /// w^4 array, three permutations, section VII).
    #[arg(long, value_enum, conflicts_with_all = ["ras", "dims"])]
    kind: Option<RapKind>,
    /// Banks = the matrix width w, 2 to 1024 [default: the length of --perm, else 32].
    #[arg(long, alias = "w")]
    banks: Option<u32>,
    /// Seed of the tables: the permutation (RAP), the shifts (RAS) or the three permutations
    /// (3P) [default: 1].
    #[arg(long, conflicts_with_all = ["perm", "shifts"])]
    rap_seed: Option<u64>,
    /// The permutation r_0,...,r_{w-1} itself; refused unless a permutation of 0..w-1.
    #[arg(long, value_delimiter = ',')]
    perm: Option<Vec<String>>,
    /// The old spelling of --kind ras.
    #[arg(long, hide = true)]
    ras: bool,
    /// RAP conflict-free for 8-byte words too: drawn so, or --perm checked (even w only).
    #[arg(long)]
    wide: bool,
    /// The old spelling of --kind 3p (--dims 4); --dims 2 is the default kind.
    #[arg(long, hide = true, value_parser = crate::cli::named::<u32>(["2", "4"]))]
    dims: Option<u32>,
    /// With --kind ras: the shifts themselves (each 0 to w-1, repeats allowed).
    #[arg(long, value_delimiter = ',')]
    shifts: Option<Vec<String>>,
    /// Take the shifts at run time: a register file (adds clk_i and rst_ni, reset to the seeded
    /// or given table) written an entry at a time through perm_we_i, perm_idx_i, perm_val_i.
    #[arg(long, alias = "loadable")]
    configurable: bool,
    /// Take the shifts at run time written a packed 32-bit word at a time (the paper's Fig. 7)
    /// instead of an entry at a time (implies --configurable).
    #[arg(long)]
    packed: bool,
    /// The old spelling of --configurable (loadable) and --configurable --packed (packed).
    #[arg(long, value_enum, hide = true, conflicts_with_all = ["configurable", "packed"])]
    storage: Option<Storage>,
    /// Register addr_o and bank_o (adds clk_i and rst_ni; one cycle of latency).
    #[arg(long)]
    pipeline: bool,
    /// Output folder; the block goes to <out>/<module name>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Seed of the random test vectors.
    #[arg(long, alias = "vector-seed", default_value_t = VectorPlan::default().seed)]
    seed: u64,
    /// Test vector budget (a baked converter with w^dims elements at most this is checked
    /// exhaustively).
    #[arg(long, default_value_t = VectorPlan::default().vectors)]
    vectors: usize,
    /// Print the manifest as JSON instead of a summary.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

impl RapArgs {
    /// `--kind`, or what the old `--ras` and `--dims 4` said.
    fn kind(&self) -> RapKind {
        match (self.kind, self.ras, self.dims) {
            (Some(kind), _, _) => kind,
            (None, true, _) => RapKind::Ras,
            (None, false, Some(4)) => RapKind::ThreeP,
            (None, false, _) => RapKind::Rap,
        }
    }

    /// How the tables are held: `--configurable` and `--packed`, or the old `--storage`.
    fn storage(&self) -> Storage {
        self.storage
            .unwrap_or(match (self.configurable, self.packed) {
                (_, true) => Storage::Packed,
                (true, false) => Storage::Loadable,
                (false, false) => Storage::Baked,
            })
    }

    fn design(&self) -> Result<RapDesign, Error> {
        let design = self.tables(self.storage() != Storage::Baked)?;
        if self.storage() == Storage::Packed {
            design.with_packed()
        } else {
            Ok(design)
        }
    }

    /// The tables these flags ask for.
    fn tables(&self, loadable: bool) -> Result<RapDesign, Error> {
        TableRequest {
            kind: self.kind(),
            banks: self.banks,
            rap_seed: self.rap_seed,
            perm: self.perm.clone(),
            shifts: self.shifts.clone(),
            wide: self.wide,
        }
        .design(loadable, self.pipeline)
    }
}

/// Runs `rtl-gen rap`.
pub fn run(args: RapArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    limits::check_vectors(args.vectors)?;
    let design = args.design()?;
    let plan = VectorPlan {
        seed: args.seed,
        vectors: args.vectors.max(1),
    };
    let written = rtl_gen::block::generate(&design, &plan, command, &args.out)?;
    crate::cli::print_written(&written, args.json);
    Ok(ExitCode::SUCCESS)
}
