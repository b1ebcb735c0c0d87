//! `rtl-gen tma`: TMA's tensor maps. `check` validates a `cuTensorMapEncodeTiled` descriptor with
//! CUDA's rules, `load` prints the shared-memory image (and the 16-byte walk) of a
//! `cp.async.bulk.tensor` load, `replay` checks the model against dumps taken on an H100.

use clap::{Args, Subcommand};
use models::tma::silicon::{self, global_byte, Report, Tally};
use models::tma::{chunks, image, BoxLayout, Load, TensorMap};
use rtl_gen::Error;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `rtl-gen tma`.
#[derive(Args)]
#[command(after_help = "\
The tensor map is a JSON file with cuTensorMapEncodeTiled's parameters (docs/TMA.md):
  {\"data_type\": \"f16\", \"global_dim\": [100, 40], \"global_strides\": [256],
   \"box_dim\": [64, 8], \"element_strides\": [1, 2], \"swizzle\": \"128B\", \"oob_fill\": \"nan\"}

Examples:
  rtl-gen tma check --map map.json
  rtl-gen tma load --map map.json --coords -8,3
  rtl-gen tma load --map map.json --coords -8,3 --shared-address 0x80 --data seed:7 --json
  rtl-gen tma replay gpu/results/tma_h100.txt.gz")]
pub struct TmaArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand)]
enum What {
    /// Validate a tensor map with cuTensorMapEncodeTiled's rules; print its box.
    Check(CheckArgs),
    /// The shared-memory image of one load: every byte, swizzled, out-of-bounds elements filled.
    Load(LoadArgs),
    /// Replay dumps taken on an H100 (gpu/tma_run.sh) against the model: the silicon table.
    Replay(ReplayArgs),
}

#[derive(Args)]
struct CheckArgs {
    /// The tensor map (JSON).
    #[arg(long)]
    map: PathBuf,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct LoadArgs {
    /// The tensor map (JSON).
    #[arg(long)]
    map: PathBuf,
    /// The box's first coordinate in each dimension, dimension 0 first (signed, comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        allow_hyphen_values = true,
        required = true
    )]
    coords: Vec<i32>,
    /// The shared address the box starts at (a multiple of 128; decimal or 0x hex).
    #[arg(long, default_value = "0", value_parser = parse_address)]
    shared_address: u32,
    /// What global memory holds: `index` (the element at byte offset o from global_address
    /// holds o / element bytes, little-endian) or `seed:N` (the SplitMix64 bytes of seed N, as
    /// the H100 check fills its tensors).
    #[arg(long, default_value = "index", value_parser = parse_data)]
    data: Data,
    /// Also print the walk: every 16-byte chunk's row, shared and global address and which of
    /// its elements are in bounds.
    #[arg(long)]
    chunks: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ReplayArgs {
    /// Result files of gpu/tma_run.sh (`.txt`, or `.txt.gz`).
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// What global memory holds in `load`.
#[derive(Clone, Copy)]
enum Data {
    Index,
    Seed(u64),
}

fn parse_address(s: &str) -> Result<u32, String> {
    let parsed = match s.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    parsed.map_err(|_| "allowed: a byte address, decimal or 0x hex".into())
}

fn parse_data(s: &str) -> Result<Data, String> {
    match s.strip_prefix("seed:") {
        Some(n) => n
            .parse()
            .map(Data::Seed)
            .map_err(|_| "allowed: index or seed:N (N a 64-bit number)".into()),
        None if s == "index" => Ok(Data::Index),
        None => Err("allowed: index or seed:N".into()),
    }
}

fn read_map(path: &Path) -> Result<TensorMap, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::io(path))?;
    rtl_gen::json_input::parse(&text, None).map_err(|e| Error::ConfigFile {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

fn layout_json(l: &BoxLayout) -> serde_json::Value {
    json!({
        "elements": &l.counts[..l.rank],
        "row_bytes": l.row_bytes,
        "pitch": l.pitch,
        "rows": l.rows,
        "transaction_bytes": l.transaction_bytes(),
        "footprint": l.footprint(),
    })
}

fn layout_line(map: &TensorMap, l: &BoxLayout) -> String {
    let dims = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" x ");
    format!(
        "{}, rank {}, box {} ({} elements loaded), swizzle {}, fill {}: {} rows of {} bytes, \
         {} apart, {} transaction bytes",
        map.data_type,
        map.rank(),
        dims(&map.box_dim),
        dims(&l.counts[..l.rank]),
        map.swizzle,
        map.oob_fill,
        l.rows,
        l.row_bytes,
        l.pitch,
        l.transaction_bytes()
    )
}

fn check(a: CheckArgs) -> Result<ExitCode, Error> {
    let map = read_map(&a.map)?;
    map.validate()?;
    let layout = BoxLayout::of(&map);
    if a.json {
        let doc =
            json!({"format_version": 1, "valid": true, "map": map, "box": layout_json(&layout)});
        println!("{doc:#}");
    } else {
        println!("valid: {}", layout_line(&map, &layout));
    }
    Ok(ExitCode::SUCCESS)
}

fn load(a: LoadArgs) -> Result<ExitCode, Error> {
    let map = read_map(&a.map)?;
    let load = Load {
        coords: a.coords,
        shared_address: a.shared_address,
    };
    let bytes = u64::from(map.data_type.bytes());
    let base = map.global_address;
    let global = move |addr: u64| {
        let offset = addr.wrapping_sub(base);
        match a.data {
            Data::Index => ((offset / bytes) >> (8 * (offset % bytes))) as u8,
            Data::Seed(seed) => global_byte(seed, offset),
        }
    };
    let img = image(&map, &load, &global)?;
    let walk: Vec<_> = if a.chunks || a.json {
        chunks(&map, &load)?.collect()
    } else {
        Vec::new()
    };
    if a.json {
        let chunks: Vec<_> = walk
            .iter()
            .map(|c| {
                json!({"row": c.row, "index": &c.index[..map.rank()], "coords": &c.coords[..map.rank()],
                       "shared": c.shared, "global": c.global, "in_bounds": c.in_bounds})
            })
            .collect();
        let doc = json!({
            "format_version": 1,
            "map": map,
            "load": load,
            "box": layout_json(&img.layout),
            "image": {"start": img.start, "bytes": img.bytes},
            "chunks": chunks,
        });
        println!("{doc:#}");
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}", layout_line(&map, &img.layout));
    println!(
        "image at shared {:#x}..{:#x} (`..`: a byte the load leaves untouched):",
        img.start,
        u64::from(img.start) + img.bytes.len() as u64
    );
    for (k, line) in img.bytes.chunks(16).enumerate() {
        let hex: Vec<String> = line
            .iter()
            .map(|b| b.map_or("..".into(), |b| format!("{b:02x}")))
            .collect();
        println!("{:#07x}  {}", img.start as usize + 16 * k, hex.join(" "));
    }
    if a.chunks {
        println!("walk: chunk row shared global in-bounds(element 0 first)");
        for (n, c) in walk.iter().enumerate() {
            let mask: String = (0..c.elements)
                .map(|e| if c.in_bounds >> e & 1 == 1 { '1' } else { '0' })
                .collect();
            println!("{n} {} {:#x} {:#x} {mask}", c.row, c.shared, c.global);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_report(files: &[(PathBuf, Tally)], r: &Report) {
    for (path, t) in files {
        println!(
            "{}: {} / {} loads match",
            path.display(),
            t.matched,
            t.total
        );
    }
    println!("| group | value | matched / total |\n|---|---|---:|");
    for (group, value, t) in &r.rows {
        println!("| {group} | {value} | {} / {} |", t.matched, t.total);
    }
    let accepted = r.probes.iter().filter(|p| p.2 == 0).count();
    println!(
        "encode probes: the driver and the model agree on {} / {} (the driver accepted {accepted}, \
         refused {})",
        r.probes.len() - r.probes_disagreeing(),
        r.probes.len(),
        r.probes.len() - accepted
    );
    for (id, map, rc, model) in &r.probes {
        if (*rc == 0) != model.is_none() {
            let verdict = model.as_deref().unwrap_or("accepted");
            println!(
                "  DISAGREE probe {id}: driver result {rc}; model {verdict}; {}",
                silicon::encode_line(*id, map)
            );
        }
    }
    for (id, v) in &r.failures {
        println!("  MISMATCH case {id}: {v:?}");
    }
}

fn replay(a: ReplayArgs) -> Result<ExitCode, Error> {
    let mut all = Vec::new();
    let mut files = Vec::new();
    for path in &a.results {
        let text = rtl_gen::json_input::read_text(path)?;
        let records = silicon::parse(&text).map_err(|message| Error::ConfigFile {
            path: path.clone(),
            message,
        })?;
        files.push((path.clone(), silicon::replay(&records).total()));
        all.extend(records);
    }
    let report = silicon::replay(&all);
    if a.json {
        let rows: Vec<_> = report
            .rows
            .iter()
            .map(
                |(g, v, t)| json!({"group": g, "value": v, "matched": t.matched, "total": t.total}),
            )
            .collect();
        let probes: Vec<_> = report
            .probes
            .iter()
            .map(|(id, map, rc, model)| {
                json!({"id": id, "map": map, "driver_result": rc, "model_refusal": model})
            })
            .collect();
        let failures: Vec<_> = report
            .failures
            .iter()
            .map(|(id, v)| json!({"id": id, "verdict": format!("{v:?}")}))
            .collect();
        let files: Vec<_> = files
            .iter()
            .map(|(p, t)| json!({"file": p, "matched": t.matched, "total": t.total}))
            .collect();
        let doc = json!({"format_version": 1, "all_match": report.all_match(), "files": files,
                         "rows": rows, "probes": probes, "failures": failures});
        println!("{doc:#}");
    } else {
        print_report(&files, &report);
    }
    Ok(if report.all_match() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Runs `rtl-gen tma`.
pub fn run(args: TmaArgs) -> Result<ExitCode, Error> {
    match args.what {
        What::Check(a) => check(a),
        What::Load(a) => load(a),
        What::Replay(a) => replay(a),
    }
}
