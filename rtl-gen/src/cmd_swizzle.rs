//! `rtl-gen swizzle`: every swizzle as a GF(2) matrix. `show` prints a layout's matrix, exact
//! forms and banks; `check` its wavefronts on an H100 for a set of accesses; `best` searches the
//! layout with the fewest wavefronts, or proves that no XOR layout is conflict-free.

use clap::{Args, Subcommand, ValueEnum};
use models::swizzle::export::{hash_config, Family};
use models::swizzle::search::best_layout;
use models::swizzle::wavefront::set_cost;
use models::swizzle::{AccessKind, AccessSet, AddressMap, Tile, TileShape};
use models::HashConfigObject;
use rtl_gen::output::Staging;
use rtl_gen::swizzle::{self as report, header, picture};
use rtl_gen::Error;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `rtl-gen swizzle`.
#[derive(Args)]
#[command(after_help = "\
Layouts (--layout):
  none                                   the plain row-major tile
  cute:Swizzle<B,M,S>                    CuTe's swizzle on byte offsets (smem_ptr_flag layouts, GMMA atoms)
  cute-elem:Swizzle<B,M,S>               the same on element offsets (composition(Swizzle<..>{}, layout))
  tma:32B | tma:64B | tma:128B           TMA's swizzle modes (tiles wider than the span: boxes side by side)
  triton:swizzled_shared<vec=8,perPhase=1,maxPhase=8,order=1,0>
  triton:linear<offset=[[0,1],[0,2],...]>   a Triton shared linear layout (one base per element-offset bit)
  matrix:0x1,0x2,...                     the byte map's rows (physical bit i = parity of logical & row i)
  config:FILE                            a hash configuration over element offsets (what --out writes)

Examples:
  rtl-gen swizzle show  --layout 'cute:Swizzle<3,4,3>' --elem-bytes 2 --tile 64x64
  rtl-gen swizzle check --layout tma:128B --elem-bytes 2 --tile 64x64 --access rows,cols,ldmatrix
  rtl-gen swizzle check --layout 'triton:swizzled_shared<vec=8,perPhase=1,maxPhase=8,order=1,0>' --elem-bytes 2 --tile 64x64 --access cols
  rtl-gen swizzle best  --elem-bytes 2 --tile 64x64 --access rows,cols --prefer cute --out out/best
  rtl-gen hash --config out/best/best.json --out out/")]
pub struct SwizzleArgs {
    #[command(subcommand)]
    what: What,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

#[derive(Subcommand)]
enum What {
    /// A layout's matrix, every form it can be written in, and the bank of each element.
    Show(ShowArgs),
    /// The wavefronts a layout takes on an H100 for each set of accesses.
    Check(CheckArgs),
    /// The layout with the fewest wavefronts for the accesses, or why none is conflict-free.
    Best(BestArgs),
}

/// How the tile is walked.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AccessArg {
    /// Row-major chunks, 32 to a warp access (a coalesced copy).
    Rows,
    /// Column-major chunks: thread t one row below thread t - 1 (a transposed read).
    Cols,
    /// ldmatrix.x4: thread t gives row t % 16, 16-byte column t / 16 of a 16 x 32-byte block.
    Ldmatrix,
}

/// Which family to return when several layouts are equally good.
#[derive(Clone, Copy, ValueEnum)]
enum Prefer {
    /// CuTe swizzles first.
    Cute,
    /// TMA modes first.
    Tma,
    /// Triton swizzled layouts first.
    Triton,
    /// No preference: the most specific form (TMA, CuTe, Triton, then a matrix).
    Any,
}

/// The tile every subcommand describes.
#[derive(Args)]
struct TileArgs {
    /// Bytes per element.
    #[arg(long, default_value = "2", value_parser = crate::cli::named::<u32>(crate::cli::ELEM_BYTES))]
    elem_bytes: u32,
    /// The tile, ROWSxCOLS elements stored row-major, both powers of two, 128 bytes to 256 KiB
    /// (an M-major M x K operand is a K x M tile).
    #[arg(long, default_value = "64x64")]
    tile: TileShape,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Also write a folder: the hash configuration (rtl-gen hash --config), a CUDA header, the
    /// report as JSON and SVG pictures.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The accesses `check` and `best` score.
#[derive(Args)]
struct AccessArgs {
    /// How the tile is read and written (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "rows,cols")]
    access: Vec<AccessArg>,
    /// Bytes per thread for rows, cols and traces (comma-separated; ldmatrix is always 16).
    #[arg(long, value_delimiter = ',', default_value = "16", value_parser = crate::cli::named::<u32>(["4", "8", "16"]))]
    vec_bytes: Vec<u32>,
    /// Trace files (docs/TRACE_FORMAT.md) whose addresses are logical element offsets in the
    /// tile, one warp access per line; scored at each --vec-bytes.
    #[arg(long)]
    trace: Vec<PathBuf>,
}

#[derive(Args)]
struct ShowArgs {
    /// The layout (see the list below).
    #[arg(long)]
    layout: String,
    #[command(flatten)]
    tile: TileArgs,
}

#[derive(Args)]
struct CheckArgs {
    /// The layout (see the list below).
    #[arg(long)]
    layout: String,
    #[command(flatten)]
    tile: TileArgs,
    #[command(flatten)]
    accesses: AccessArgs,
}

#[derive(Args)]
struct BestArgs {
    /// The family to return among equally good layouts (the plain tile always comes first).
    #[arg(long, value_enum, default_value = "cute")]
    prefer: Prefer,
    #[command(flatten)]
    tile: TileArgs,
    #[command(flatten)]
    accesses: AccessArgs,
}

fn bad(flag: &'static str, value: impl Into<String>, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

impl TileArgs {
    /// The tile; refuses it, or an `--out` folder rtl-gen may not replace, before any work.
    fn tile(&self) -> Result<Tile, Error> {
        let tile = Tile::new(self.tile, self.elem_bytes)
            .map_err(|m| bad("--tile", self.tile.to_string(), m))?;
        if let Some((parent, name)) = self.destination() {
            Staging::check(&parent, &name)?;
        }
        Ok(tile)
    }

    /// `--out` as the parent folder and the folder's name.
    fn destination(&self) -> Option<(PathBuf, String)> {
        self.out.as_ref().map(|out| {
            let parent = out
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            let name = out
                .file_name()
                .map_or_else(|| "swizzle".into(), |f| f.to_string_lossy().into_owned());
            (parent, name)
        })
    }
}

impl AccessArgs {
    /// The access sets, in the order asked (rows and cols at each width, ldmatrix once, each
    /// trace at each width).
    fn sets(&self, tile: &Tile) -> Result<Vec<AccessSet>, Error> {
        let kinds: Vec<AccessKind> = self
            .access
            .iter()
            .map(|kind| match kind {
                AccessArg::Rows => AccessKind::Rows,
                AccessArg::Cols => AccessKind::Cols,
                AccessArg::Ldmatrix => AccessKind::Ldmatrix,
            })
            .collect();
        let traces = self
            .trace
            .iter()
            .map(|path| {
                let trace = rtl_gen::trace::read(path, tile.element_bits(), 32)?;
                Ok((path.display().to_string(), trace))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        report::access_sets(&kinds, &self.vec_bytes, &traces, tile)
    }
}

/// A JSON value as a file: pretty, one final newline.
fn pretty(v: &impl serde::Serialize) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

/// What a subcommand reports about one layout.
struct Report<'a> {
    map: &'a AddressMap,
    tile: &'a Tile,
    /// The `--json` document.
    document: serde_json::Value,
    /// The text report.
    text: String,
    /// The hash configuration's file name in the `--out` folder.
    config_name: &'static str,
    /// The wavefront bars, for subcommands that score accesses.
    bars: Option<String>,
}

/// Writes the `--out` folder (the hash configuration, `swizzle.h`, `report.json`, `banks.svg`
/// and `wavefronts.svg` with accesses), then prints the JSON document or the text.
fn finish(r: Report, flags: &TileArgs, command: &str) -> Result<ExitCode, Error> {
    let written = match flags.destination() {
        Some((parent, name)) => {
            let staging = Staging::folder(&parent, &name)?;
            let config = HashConfigObject::from_config(&hash_config(r.map, r.tile));
            staging.write(r.config_name, &pretty(&config))?;
            staging.write(
                "swizzle.h",
                &header::swizzle_header(r.map, r.tile, "swizzle", command),
            )?;
            staging.write("report.json", &pretty(&r.document))?;
            let title = format!(
                "{} of each element: {}",
                report::bank_unit(r.tile),
                r.document["layout"]["forms"][0].as_str().unwrap_or("")
            );
            let banks = 1u64 << models::swizzle::layout::bank_groups(r.tile).1;
            staging.write(
                "banks.svg",
                &picture::bank_map(&title, &report::bank_grid(r.map, r.tile), banks),
            )?;
            if let Some(svg) = &r.bars {
                staging.write("wavefronts.svg", svg)?;
            }
            Some(staging.commit()?)
        }
        None => None,
    };
    if flags.json {
        println!("{}", r.document);
    } else {
        print!("{}", r.text);
        if let Some(dir) = written {
            println!("files: {}", dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn show(a: ShowArgs, command: &str) -> Result<ExitCode, Error> {
    let tile = a.tile.tile()?;
    let (_, map) = report::parse_layout(&a.layout, &tile)?;
    let document = json!({
        "format_version": report::FORMAT_VERSION,
        "command": "show",
        "tile": report::TileJson::new(&tile),
        "layout": report::LayoutJson::new(&map, &tile),
        "bank_unit": report::bank_unit(&tile),
        "banks": report::bank_grid(&map, &tile),
    });
    let text = format!(
        "{}{}",
        report::layout_text(&map, &tile),
        report::grid_text(&map, &tile)
    );
    let r = Report {
        map: &map,
        tile: &tile,
        document,
        text,
        config_name: "layout.json",
        bars: None,
    };
    finish(r, &a.tile, command)
}

fn check(a: CheckArgs, command: &str) -> Result<ExitCode, Error> {
    let tile = a.tile.tile()?;
    let (_, map) = report::parse_layout(&a.layout, &tile)?;
    let sets = a.accesses.sets(&tile)?;
    report::check_whole(&map, &a.layout, &sets)?;
    let costs: Vec<_> = sets.iter().map(|s| set_cost(s, &map)).collect();
    let (total, ideal) = costs.iter().fold((0, 0), |(t, i), c| {
        (t + c.load + c.store, i + c.ideal_load + c.ideal_store)
    });
    let document = json!({
        "format_version": report::FORMAT_VERSION,
        "command": "check",
        "tile": report::TileJson::new(&tile),
        "layout": report::LayoutJson::new(&map, &tile),
        "accesses": sets.iter().zip(&costs).map(|(s, c)| report::AccessJson::new(s, c)).collect::<Vec<_>>(),
        "total_wavefronts": total,
        "ideal_wavefronts": ideal,
        "conflict_free": total == ideal,
    });
    let text = format!(
        "{}{}",
        report::layout_text(&map, &tile),
        report::access_text(&sets, &costs)
    );
    let bars = picture::wavefront_bars(&format!("wavefronts: {}", a.layout), &sets, &costs);
    let r = Report {
        map: &map,
        tile: &tile,
        document,
        text,
        config_name: "layout.json",
        bars: Some(bars),
    };
    finish(r, &a.tile, command)
}

fn best(a: BestArgs, command: &str) -> Result<ExitCode, Error> {
    let tile = a.tile.tile()?;
    let sets = a.accesses.sets(&tile)?;
    let prefer = match a.prefer {
        Prefer::Cute => Family::Cute,
        Prefer::Tma => Family::Tma,
        Prefer::Triton => Family::Triton,
        Prefer::Any => Family::RowMajor,
    };
    let r = best_layout(&tile, &sets, prefer);
    let map = &r.best.map;
    let document = json!({
        "format_version": report::FORMAT_VERSION,
        "command": "best",
        "tile": report::TileJson::new(&tile),
        "layout": report::LayoutJson::new(map, &tile),
        "accesses": sets.iter().zip(&r.best.costs).map(|(s, c)| report::AccessJson::new(s, c)).collect::<Vec<_>>(),
        "total_wavefronts": r.best.total(),
        "ideal_wavefronts": r.ideal,
        "lower_bound_wavefronts": r.lower_bound,
        "optimal": r.best.total() == r.lower_bound,
        "search": {
            "layouts_scored": r.considered,
            "chunk_bytes": r.chunk_bytes,
            "exact": format!("{:?}", r.exact).to_lowercase(),
            "affine_chunk_sets": r.affine_sets.0,
            "chunk_sets": r.affine_sets.1,
        },
        "verdict": report::verdict_json(&r),
    });
    let preferred = r
        .best
        .forms
        .iter()
        .find(|f| Family::of(f) == prefer)
        .map_or_else(String::new, |f| format!("preferred form: {f}\n"));
    let text = format!(
        "best of {} layouts scored (every vector kept whole: {}-byte chunks move together)\n{}{preferred}{}{}",
        r.considered,
        r.chunk_bytes,
        report::layout_text(map, &tile),
        report::access_text(&sets, &r.best.costs),
        report::verdict_text(&r)
    );
    let bars = picture::wavefront_bars("wavefronts: best layout", &sets, &r.best.costs);
    let out = Report {
        map,
        tile: &tile,
        document,
        text,
        config_name: "best.json",
        bars: Some(bars),
    };
    finish(out, &a.tile, command)
}

/// Runs `rtl-gen swizzle`.
pub fn run(args: SwizzleArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    match args.what {
        What::Show(a) => show(a, command),
        What::Check(a) => check(a, command),
        What::Best(a) => best(a, command),
    }
}
