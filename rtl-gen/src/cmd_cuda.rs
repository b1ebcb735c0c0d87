//! `rtl-gen cuda`: CUDA/C headers with the software form of a bank hash or a RAW/RAS/RAP layout.

use crate::cli::hash_config::ConfigFlags;
use clap::{Args, Subcommand, ValueEnum};
use models::rap::{Permutation, ShiftLayout};
use models::swizzle::{Tile, TileShape};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtl_gen::hash::HashDesign;
use rtl_gen::{cuda, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen cuda`.
#[derive(Args)]
#[command(after_help = "\
Examples:
  rtl-gen cuda hash --kind bitvector-xor --addr-bits 14 --banks 32 --k1 2 --k2 8 --mask 7
  rtl-gen cuda hash --config out/hash_bvxor_n14_b32/hash_bvxor_n14_b32.json --out hash.h
  rtl-gen cuda layout --kind rap --banks 32 --rap-seed 1 --name rap32 --out gpu/rap32.h
  rtl-gen cuda layout --kind ras --banks 4 --shifts 2,0,2,1
  rtl-gen cuda swizzle --layout tma:128B --elem-bytes 2 --tile 64x64 --name sw128")]
pub struct CudaArgs {
    #[command(subcommand)]
    what: What,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

#[derive(Subcommand)]
enum What {
    /// A bank hash: `<name>_bank(addr)` and `<name>_index(addr)`.
    Hash(HashHeaderArgs),
    /// A RAW, RAS or RAP layout of a w x w matrix: `<name>_shift(row)`, `<name>_index(row, col)`.
    Layout(LayoutHeaderArgs),
    /// A CuTe, TMA, Triton or matrix swizzle of a tile: `<name>_offset(x)`, `<name>_index(row, col)`.
    Swizzle(SwizzleHeaderArgs),
}

/// Arguments of `rtl-gen cuda hash`.
#[derive(Args)]
struct HashHeaderArgs {
    #[command(flatten)]
    flags: ConfigFlags,
    /// Prefix of the functions [default: the hasher's module name, e.g. hash_bvxor_n14_b32].
    #[arg(long)]
    name: Option<String>,
    /// Write the header here instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Arguments of `rtl-gen cuda swizzle`.
#[derive(Args)]
struct SwizzleHeaderArgs {
    /// The layout, as `rtl-gen swizzle` takes it (see `rtl-gen swizzle --help`).
    #[arg(long)]
    layout: String,
    /// Bytes per element.
    #[arg(long, default_value = "2", value_parser = crate::cli::named::<u32>(crate::cli::ELEM_BYTES))]
    elem_bytes: u32,
    /// The tile, ROWSxCOLS elements.
    #[arg(long, default_value = "64x64")]
    tile: TileShape,
    /// Prefix of the functions.
    #[arg(long, default_value = "swizzle")]
    name: String,
    /// Write the header here instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The layouts `rtl-gen cuda layout` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Layout {
    /// Row-major, no shift.
    Raw,
    /// Independent random shifts.
    Ras,
    /// The shifts are a permutation.
    Rap,
    /// A permutation whose half-warps also see distinct bank pairs: conflict-free columns for
    /// 8-byte words too.
    RapWide,
}

/// Arguments of `rtl-gen cuda layout`.
#[derive(Args)]
struct LayoutHeaderArgs {
    /// The layout (`--layout` is its old spelling).
    #[arg(long, alias = "layout", value_enum, default_value_t = Layout::Rap)]
    kind: Layout,
    /// Banks = the matrix width w: rows and columns (2 to 4096; `--w` is its old spelling).
    #[arg(long, alias = "w", default_value_t = 32)]
    banks: u32,
    /// Seed of the random shifts (a ChaCha8 generator; rap: the permutation `rtl-gen congestion`
    /// and the models draw from it). `--seed` is its old spelling.
    #[arg(long, alias = "seed", default_value_t = 1, conflicts_with = "shifts")]
    rap_seed: u64,
    /// The shifts themselves, row 0 first (a permutation for rap).
    #[arg(long, value_delimiter = ',')]
    shifts: Option<Vec<u64>>,
    /// Prefix of the functions [default: <kind>_w<banks>, rap_wide_w32 for rap-wide].
    #[arg(long)]
    name: Option<String>,
    /// Write the header here instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
}

fn bad(flag: &'static str, value: impl Into<String>, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

fn check_name(name: &str) -> Result<(), Error> {
    let ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(Error::BadFlag {
            flag: "--name",
            value: name.into(),
            message: "a C identifier: a letter or _, then letters, digits or _".into(),
        })
    }
}

impl LayoutHeaderArgs {
    fn layout(&self) -> Result<ShiftLayout, Error> {
        if !(models::rap::perm::MIN_W..=models::rap::scheme::MAX_W_2D).contains(&self.banks) {
            return Err(Error::BadFlag {
                flag: "--banks",
                value: self.banks.to_string(),
                message: format!(
                    "a matrix width from {} to {}",
                    models::rap::perm::MIN_W,
                    models::rap::scheme::MAX_W_2D
                ),
            });
        }
        let bad_shifts = |message: String| Error::BadFlag {
            flag: "--shifts",
            value: self
                .shifts
                .iter()
                .flatten()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(","),
            message,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(self.rap_seed);
        match self.kind {
            Layout::Raw => Ok(ShiftLayout::raw(self.banks)),
            Layout::Rap => match &self.shifts {
                Some(s) => Permutation::new(self.banks, s)
                    .map(|p| ShiftLayout::rap(&p))
                    .map_err(|e| bad_shifts(e.to_string())),
                None => Ok(ShiftLayout::rap(&Permutation::from_seed(
                    self.banks,
                    self.rap_seed,
                ))),
            },
            Layout::RapWide if self.banks.is_multiple_of(2) && self.shifts.is_none() => Ok(
                ShiftLayout::rap(&Permutation::random_wide(self.banks, &mut rng)),
            ),
            Layout::RapWide => Err(Error::BadFlag {
                flag: "--kind",
                value: "rap-wide".into(),
                message: "rap-wide needs an even --banks and draws its shifts from --rap-seed"
                    .into(),
            }),
            Layout::Ras => match &self.shifts {
                Some(s)
                    if s.len() == self.banks as usize
                        && s.iter().all(|&v| v < u64::from(self.banks)) =>
                {
                    Ok(ShiftLayout::ras(s.iter().map(|&v| v as u32).collect()))
                }
                Some(_) => Err(bad_shifts(format!(
                    "{} shifts, each from 0 to {}",
                    self.banks,
                    self.banks - 1
                ))),
                None => Ok(ShiftLayout::ras_random(self.banks, &mut rng)),
            },
        }
    }
}

fn emit(text: &str, out: Option<&PathBuf>) -> Result<ExitCode, Error> {
    match out {
        Some(path) => {
            rtl_gen::output::write_file(path, text.as_bytes())?;
            println!("{}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `rtl-gen cuda`.
pub fn run(args: CudaArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    match args.what {
        What::Hash(a) => {
            let design = HashDesign::new(&a.flags.object()?, false, false, false)?;
            let name = a.name.unwrap_or_else(|| design.name());
            check_name(&name)?;
            let rtl_gen::hash::Variant::Fixed(config) = &design.variant else {
                unreachable!("a design built without --configurable is fixed")
            };
            emit(&cuda::hash_header(config, &name, command)?, a.out.as_ref())
        }
        What::Swizzle(a) => {
            check_name(&a.name)?;
            let tile = Tile::new(a.tile, a.elem_bytes)
                .map_err(|m| bad("--tile", a.tile.to_string(), m))?;
            let (_, map) = rtl_gen::swizzle::parse_layout(&a.layout, &tile)?;
            let text = rtl_gen::swizzle::header::swizzle_header(&map, &tile, &a.name, command);
            emit(&text, a.out.as_ref())
        }
        What::Layout(a) => {
            let layout = a.layout()?;
            let name = a.name.clone().unwrap_or_else(|| {
                let name = a
                    .kind
                    .to_possible_value()
                    .map_or_else(String::new, |v| v.get_name().replace('-', "_"));
                format!("{name}_w{}", layout.w())
            });
            check_name(&name)?;
            emit(
                &cuda::layout_header(&layout, &name, command),
                a.out.as_ref(),
            )
        }
    }
}
