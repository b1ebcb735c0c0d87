//! `rtl-gen hash`: generate a bank hasher block.

use clap::{Args, ValueEnum};
use models::config::{parse_u64, RowMask};
use models::{HashConfigObject, HashKind};
use rtl_gen::hash::logic::OffsetSelect;
use rtl_gen::hash::vectors::VectorPlan;
use rtl_gen::hash::HashDesign;
use rtl_gen::limits;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen hash`.
#[derive(Args)]
#[command(after_help = "\
Kinds and their fields:
  modulo          (none)                       bank = addr mod banks
  bitvector-perm  --k K                        bank = addr[K +: m]
  bitvector-xor   --k1 K1 --k2 K2 --mask M     bank = (addr >> K1) ^ ((addr >> K2) & M)
  bitwise-perm    --bits 0,3,4                 bank bit i = addr[bits[i]]
  bitwise-xor     --pairs 0:5,1:6,2:2          bank bit i = addr[a] ^ addr[b]  (a:a is bit a)
  xor-matrix      --rows 0x21,0x42,...         bank bit i = parity(addr & rows[i])

Examples:
  rtl-gen hash --kind bitvector-xor --addr-bits 14 --banks 32 --k1 2 --k2 8 --mask 7 --out out/
  rtl-gen hash --kind bitwise-perm --addr-bits 5 --banks 8 --bits 0,3,4
  rtl-gen hash --kind xor-matrix --addr-bits 14 --banks 32 --configurable --pipeline
  rtl-gen hash --kind bitvector-xor --addr-bits 14 --banks 32 --configurable --offsets one-hot
  rtl-gen hash --config out/hash_bvxor_n14_b32/hash_bvxor_n14_b32.json --pipeline")]
pub struct HashArgs {
    #[command(flatten)]
    flags: ConfigFlags,
    /// Take the configuration at run time on cfg_i instead of baking it in.
    #[arg(long)]
    configurable: bool,
    /// Configurable bit-vector kinds: how the offsets are selected (one-hot: decoded once, then
    /// an AND-OR per bank bit; the block's name gets `_onehot`).
    #[arg(long, value_enum, default_value_t = Offsets::MuxTree)]
    offsets: Offsets,
    /// Register the output (adds clk_i and rst_ni; one cycle of latency).
    #[arg(long)]
    pipeline: bool,
    /// Generate even if the hash's GF(2) rank is below log2(banks) (some banks unreachable).
    #[arg(long)]
    allow_rank_deficient: bool,
    /// Output folder; the block goes to <out>/<module name>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Seed of the random test vectors (addresses and configurations).
    #[arg(long, default_value_t = VectorPlan::default().seed)]
    seed: u64,
    /// Test vector budget: random ones when not exhaustive.
    #[arg(long, default_value_t = VectorPlan::default().vectors)]
    vectors: usize,
    /// Random configurations a configurable hasher is tested over.
    #[arg(long, default_value_t = VectorPlan::default().configs)]
    configs: usize,
    /// Print the manifest as JSON instead of a summary.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

/// `--offsets`: the offset structures a configurable bit-vector hasher can be generated with.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Offsets {
    /// A 2:1 mux tree over the legal offsets (the default).
    MuxTree,
    /// The offset decoded into one-hot lines, then an AND-OR per bank bit.
    OneHot,
}

impl From<Offsets> for OffsetSelect {
    fn from(offsets: Offsets) -> Self {
        match offsets {
            Offsets::MuxTree => OffsetSelect::MuxTree,
            Offsets::OneHot => OffsetSelect::OneHot,
        }
    }
}

/// The flags that name a hash configuration, shared by `rtl-gen hash` and `rtl-gen cuda hash`.
#[derive(Args)]
pub struct ConfigFlags {
    /// Hash family.
    #[arg(long, required_unless_present = "config", value_parser = crate::cli::named::<HashKind>(HashKind::ALL.map(HashKind::name)))]
    kind: Option<HashKind>,
    /// Word-address bits n (1 to 64).
    #[arg(long, required_unless_present = "config")]
    addr_bits: Option<u32>,
    /// Number of banks: a power of two from 2 to 65536, at most 2^n.
    #[arg(long, required_unless_present = "config")]
    banks: Option<u64>,
    /// bitvector-perm: offset of the bit-vector (0 to n - m).
    #[arg(long)]
    k: Option<u32>,
    /// bitvector-xor: offset of the first bit-vector (0 to n - m).
    #[arg(long)]
    k1: Option<u32>,
    /// bitvector-xor: offset of the masked second bit-vector (0 to n - 1).
    #[arg(long)]
    k2: Option<u32>,
    /// bitvector-xor: mask of the second vector (m bits; decimal, 0x or 0b).
    #[arg(long)]
    mask: Option<String>,
    /// bitwise-perm: the address bit of each bank bit, bank bit 0 first.
    #[arg(long, value_delimiter = ',')]
    bits: Option<Vec<u32>>,
    /// bitwise-xor: a:b address-bit pairs, bank bit 0 first (a:a is the single bit a).
    #[arg(long, value_delimiter = ',')]
    pairs: Option<Vec<String>>,
    /// xor-matrix: one n-bit mask per bank bit, bank bit 0 first (decimal, 0x or 0b).
    #[arg(long, value_delimiter = ',')]
    rows: Option<Vec<String>>,
    /// A JSON configuration object, or a block manifest (its "configuration" is used), instead of the flags.
    #[arg(long, conflicts_with_all = ["kind", "addr_bits", "banks", "k", "k1", "k2", "mask", "bits", "pairs", "rows"])]
    config: Option<PathBuf>,
}

fn bad(flag: &'static str, value: &str, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

/// The configuration object in `path`: the object itself, or a block manifest (its
/// `configuration`).
pub fn read_config_file(path: &std::path::Path) -> Result<HashConfigObject, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::io(path))?;
    let config_error = |e: rtl_gen::json_input::JsonError| Error::ConfigFile {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let value = rtl_gen::json_input::parse_value(&text).map_err(config_error)?;
    // A block's manifest carries the configuration object under "configuration".
    let mut key = None;
    if value.get("generator").is_some() {
        match value.get("family").and_then(serde_json::Value::as_str) {
            Some("hash") | None => {}
            Some(family) => {
                return Err(Error::ConfigFile {
                    path: path.to_path_buf(),
                    message: format!(
                        "the manifest of a {family} block: --config takes a hash \
                         configuration object or a hash block's manifest"
                    ),
                })
            }
        }
        if value.get("configuration").is_some() {
            key = Some("configuration");
        }
    }
    rtl_gen::json_input::parse(&text, key).map_err(config_error)
}

impl ConfigFlags {
    /// The configuration object the flags or the `--config` file describe.
    pub fn object(&self) -> Result<HashConfigObject, Error> {
        if let Some(path) = &self.config {
            return read_config_file(path);
        }
        let (Some(kind), Some(addr_bits), Some(banks)) = (self.kind, self.addr_bits, self.banks)
        else {
            unreachable!("clap requires --kind, --addr-bits and --banks without --config")
        };
        let mut object = HashConfigObject::new(kind, addr_bits, banks);
        object.k = self.k;
        object.k1 = self.k1;
        object.k2 = self.k2;
        object.mask = self
            .mask
            .as_deref()
            .map(|m| parse_u64(m).map_err(|e| bad("--mask", m, e)))
            .transpose()?;
        object.bits = self.bits.clone();
        object.pairs = self
            .pairs
            .as_ref()
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|p| {
                        let parsed = p.split_once(':').and_then(|(a, b)| {
                            Some([a.trim().parse().ok()?, b.trim().parse().ok()?])
                        });
                        parsed.ok_or_else(|| {
                            bad(
                                "--pairs",
                                p,
                                "expected a:b with two address-bit numbers, e.g. 0:5",
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        object.rows = self
            .rows
            .as_ref()
            .map(|rows| {
                rows.iter()
                    .map(|r| parse_u64(r).map(RowMask).map_err(|e| bad("--rows", r, e)))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        Ok(object)
    }
}

/// Runs `rtl-gen hash`.
pub fn run(args: HashArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    limits::check_vectors(args.vectors)?;
    limits::check(
        "--configs",
        args.configs as u64,
        limits::MAX_CONFIGS,
        "each adds vectors",
    )?;
    let object = args.flags.object()?;
    let offsets = OffsetSelect::from(args.offsets);
    let design = HashDesign::new(
        &object,
        args.configurable,
        args.pipeline,
        args.allow_rank_deficient,
    )?
    .with_offsets(offsets)
    .ok_or_else(|| {
        bad(
            "--offsets",
            offsets.name(),
            "applies to configurable bitvector-perm and bitvector-xor hashers only \
             (add --configurable, or leave --offsets at mux-tree)",
        )
    })?;
    let plan = VectorPlan {
        seed: args.seed,
        vectors: args.vectors.max(1),
        configs: args.configs.max(1),
    };
    crate::write_block(&design, &plan, command, &args.out, args.json)?;
    Ok(ExitCode::SUCCESS)
}
