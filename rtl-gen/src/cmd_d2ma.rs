//! `rtl-gen d2ma`: generate a block of the D²MA engine.

use clap::{Args, ValueEnum};
use models::config::parse_u64;
use models::d2ma::BufferEntry;
use models::smem::Shape;
use rtl_gen::d2ma::system::{System, SystemDesign, TensorLoadSpec, DEFAULT_VECTOR_LENGTH};
use rtl_gen::d2ma::vectors::D2maPlan;
use rtl_gen::d2ma::{D2maDesign, Storage, Unit};
use rtl_gen::limits;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen d2ma`.
#[derive(Args)]
#[command(after_help = "\
A --transfer is a comma-separated list of key=value (numbers in decimal, 0x or 0b):
  global=ADDR shared=ADDR size=1|2|4|8        bases and element size in bytes (default 4)
  count=N stride=S                            1-D: elements and element stride (default 1)
  rows=R cols=C ld=L                          2-D: tile rows and columns, leading dimension
  halo=RxC region=1..9 const=V                halo mode: halo rows x columns, region, constant
  bank=N                                      bank-conflict mode: a blank slot every N elements

A system is the engine with its data path writing into a banked shared memory (`rtl-gen smem`,
--map modulo|hash|rap in front of its banks), a global-memory model answering out of order and
a warp reading every tile through the RAW check: one folder with both blocks' modules and a
self-checking testbench that `rtl-gen cosim` runs (its defaults are the paper's sizes).

Examples:
  rtl-gen d2ma system --out out/
  rtl-gen cosim out/d2ma_system_c8_b4_g32_m4_l8_b32_d512_f8
  rtl-gen d2ma system --ctas 2 --buffers 2 --segment-bytes 32 --global-bits 24 --lanes 4 --banks 8 \\
      --depth 256 --mshrs 2 --vector-length 64 --map rap --out out/
  rtl-gen d2ma system --map hash --hash-config tma128.json --storage latch --out out/
  rtl-gen d2ma system --tensor-slots 4 --out out/     # tensor maps too: d2ma_system_c8_b4_g32_t4_...
  rtl-gen d2ma system --tensor-slots 4 --tensor-loads loads.json --out out/
  rtl-gen d2ma system --tensor-slots 4 --tensor-cases gpu/results/tma_h100c.txt.gz --out out/
  rtl-gen d2ma engine --ctas 8 --buffers 4 --segment-bytes 128 --out out/
  rtl-gen cosim out/d2ma_engine_c8_b4
  rtl-gen d2ma controller --ctas 8 --buffers 4 --out out/
  rtl-gen d2ma agen --segment-bytes 128 --transfer global=0x8000,count=256
  rtl-gen d2ma agen --transfer global=0x10000,rows=16,cols=16,ld=1024,halo=1x1,region=3
  rtl-gen d2ma raw-check --ctas 16 --buffers 2
  rtl-gen d2ma engine --storage latch --out out/     # latch table: d2ma_engine_c8_b4_lat
  rtl-gen d2ma engine --global-bits 40 --out out/      # 40-bit global addresses: d2ma_engine_c8_b4_g40
  rtl-gen d2ma engine --max-in-flight 32 --out out/    # 6-bit counts, walk waits at 32: d2ma_engine_c8_b4_out32")]
pub struct D2maArgs {
    /// The unit to generate, or the system.
    #[arg(value_enum, value_name = "UNIT")]
    block: Target,
    /// Resident CTAs per shader, one controller each (1 to 32; the paper has 8).
    #[arg(long, default_value_t = 8)]
    ctas: u32,
    /// Buffers per CTA (1 to 8; the paper has 4).
    #[arg(long, default_value_t = 4)]
    buffers: u32,
    /// Global memory segment size in bytes: 32, 64 or 128.
    #[arg(long, default_value_t = 128)]
    segment_bytes: u32,
    /// Global address bits of the AGEN, the engine's request port and the controller array's
    /// stored global base (24 to 64; the paper's entry holds 64): addresses wrap modulo
    /// 2^bits, an entry's higher bits are ignored and read back as zeros [default: 64; system:
    /// 32].
    #[arg(long)]
    global_bits: Option<u32>,
    /// How the controller array (controller, engine) holds its table: flip-flops with write
    /// enables, flip-flops on gated clocks, or latches; only the valid bits are reset
    /// [default: flip-flop].
    #[arg(long, value_enum)]
    storage: Option<Storage>,
    /// Engine: the most requests one buffer may have in flight (1 to 65535); the walk waits
    /// while its buffer has this many. Default: 65535, the most a valid entry issues (no wait,
    /// 16-bit counts); 32 matches the paper's 32 MSHRs per shader (6-bit counts).
    #[arg(long, value_name = "N")]
    max_in_flight: Option<u32>,
    /// System: request records, MSHRs: segment requests in flight and chunks waiting to be
    /// written (2, 4, 8 or 16) [default: 4].
    #[arg(long, value_name = "N")]
    mshrs: Option<u32>,
    /// System: tensor slots (0 to 8, at most CTAs x buffers): the engine also takes tensor
    /// maps (docs/TMA.md), each slot a map and one load's coordinates, and the testbench adds
    /// the directed tensor loads [default: 0].
    #[arg(long, value_name = "N")]
    tensor_slots: Option<u32>,
    /// System: tensor loads to add after the directed phases, a JSON array of
    /// {"map": TENSOR MAP, "coords": [...], "shared_address": N} (needs --tensor-slots).
    #[arg(long, value_name = "FILE")]
    tensor_loads: Option<PathBuf>,
    /// System: the H100 load cases of these files (gpu/results/tma_*.txt.gz, gpu/gen/
    /// tma_cases_*.txt) that fit the engine, after the directed phases (needs --tensor-slots).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    tensor_cases: Vec<PathBuf>,
    /// System: the shared memory's lanes, also the words of a fill beat (a power of two from 2
    /// to 64) [default: 8].
    #[arg(long, alias = "fill-words", value_name = "N")]
    lanes: Option<u32>,
    /// System: the shared memory's banks (a power of two from 2 to 128) [default: 32].
    #[arg(long, value_name = "N")]
    banks: Option<u32>,
    /// System: words per bank (a power of two; banks x depth x 4 bytes at most 64 KB, the
    /// entry's shared space) [default: 512].
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// System: elements of sgemv's vector and of SAXPY's x and y in the testbench's phases (1
    /// to 1024) [default: 256].
    #[arg(long, value_name = "N")]
    vector_length: Option<u32>,
    #[command(flatten)]
    map: rtl_gen::smem::MapRequest,
    /// An extra directed transfer for the AGEN's testbench (see below); repeatable.
    #[arg(long)]
    transfer: Vec<String>,
    /// Output folder; the block goes to <out>/<module name>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Seed of the random test vectors (of the units; the system's testbench is directed).
    #[arg(long, default_value_t = D2maPlan::default().seed)]
    seed: u64,
    /// Random test vectors after the directed ones (the units): cycles (controller, engine),
    /// guard sets (raw-check) or transfers (agen).
    #[arg(long, alias = "random", default_value_t = D2maPlan::default().random)]
    vectors: usize,
    /// Print the manifest as JSON instead of a summary.
    #[arg(long)]
    json: bool,
    /// Also print what the directed cases take, cycle by cycle as the testbench checks them
    /// (agen: cycles and requests per transfer; engine: configuration-to-request latency).
    #[arg(long)]
    report: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

/// What `rtl-gen d2ma` generates: a unit of the engine, or the system.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Target {
    /// Address generation (one chunk a cycle).
    Agen,
    /// The controller array of buffer-management-table entries.
    Controller,
    /// The read-after-write check.
    RawCheck,
    /// The engine: the three units above, arbitration, memory ports and completion.
    Engine,
    /// The engine with its data path, a shared memory, a global-memory model and a warp: both
    /// blocks and their end-to-end testbench.
    System,
}

impl Target {
    /// The unit, or `None` for the system.
    fn unit(self) -> Option<Unit> {
        match self {
            Target::Agen => Some(Unit::Agen),
            Target::Controller => Some(Unit::Controller),
            Target::RawCheck => Some(Unit::RawCheck),
            Target::Engine => Some(Unit::Engine),
            Target::System => None,
        }
    }
}

/// Parses a `--transfer` specification into a validated entry.
fn parse_transfer(spec: &str) -> Result<BufferEntry, Error> {
    let bad = |message: String| Error::BadFlag {
        flag: "--transfer",
        value: spec.into(),
        message,
    };
    let mut e = BufferEntry {
        size: 2,
        stride: 1,
        ..BufferEntry::default()
    };
    let (mut rows, mut cols, mut ld) = (None, None, None);
    for item in spec.split(',').filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| bad(format!("`{item}` is not key=value")))?;
        let number = |v: &str, max: u64| {
            parse_u64(v)
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| bad(format!("{key}={v}: expected a number up to {max}")))
        };
        match key {
            "global" => e.global = number(value, u64::MAX)?,
            "shared" => e.shared = number(value, 0xffff)? as u16,
            "count" => e.count = number(value, 0xffff)? as u16,
            "stride" => e.stride = number(value, 0xffff)? as u16,
            "size" => {
                e.size = match number(value, 8)? {
                    1 => 0,
                    2 => 1,
                    4 => 2,
                    8 => 3,
                    _ => return Err(bad(format!("size={value}: expected 1, 2, 4 or 8 bytes"))),
                }
            }
            "rows" => rows = Some(number(value, 255)? as u16),
            "cols" => cols = Some(number(value, 255)? as u16),
            "ld" => ld = Some(number(value, 0xffff)? as u16),
            "halo" => {
                let (r, c) = value
                    .split_once('x')
                    .ok_or_else(|| bad(format!("halo={value}: expected ROWSxCOLS")))?;
                e.mode = 1;
                e.halo_rows = number(r, 0xffff)? as u16;
                e.halo_cols = number(c, 0xffff)? as u16;
            }
            "region" => e.region = number(value, 0xff)? as u8,
            "const" => e.halo_const = number(value, 0xffff)? as u16,
            "bank" => {
                e.mode = 2;
                e.halo_cols = number(value, 0xffff)? as u16;
            }
            _ => return Err(bad(format!("unknown key `{key}`"))),
        }
    }
    if rows.is_some() || cols.is_some() || ld.is_some() {
        let (Some(r), Some(c), Some(l)) = (rows, cols, ld) else {
            return Err(bad("a 2-D transfer needs rows, cols and ld".into()));
        };
        e.two_d = true;
        e.count = r << 8 | c;
        e.stride = l;
    }
    e.validate().map_err(|err| bad(err.to_string()))?;
    Ok(e)
}

/// Runs `rtl-gen d2ma`.
pub fn run(args: D2maArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    limits::check(
        "--vectors",
        args.vectors as u64,
        limits::MAX_D2MA_RANDOM,
        "vectors held in memory",
    )?;
    let Some(block) = args.block.unit() else {
        return system(&args, command);
    };
    let system_flags: Vec<&str> = [
        ("--mshrs", args.mshrs.is_some()),
        ("--tensor-slots", args.tensor_slots.is_some()),
        ("--tensor-loads", args.tensor_loads.is_some()),
        ("--tensor-cases", !args.tensor_cases.is_empty()),
        ("--lanes", args.lanes.is_some()),
        ("--banks", args.banks.is_some()),
        ("--depth", args.depth.is_some()),
        ("--vector-length", args.vector_length.is_some()),
    ]
    .into_iter()
    .filter_map(|(flag, given)| given.then_some(flag))
    .chain(args.map.given())
    .collect();
    if let Some(flag) = system_flags.first() {
        return Err(Error::BadFlag {
            flag,
            value: "given".into(),
            message: format!(
                "applies to `rtl-gen d2ma system` only, not to {}",
                block.name()
            ),
        });
    }
    let design = D2maDesign::new(block, args.ctas, args.buffers, args.segment_bytes)?
        .with_global_bits(args.global_bits.unwrap_or(64))?
        .with_storage(args.storage.unwrap_or_default());
    if let Some(s) = args
        .storage
        .filter(|_| matches!(block, Unit::Agen | Unit::RawCheck))
    {
        return Err(Error::BadFlag {
            flag: "--storage",
            value: s.name().into(),
            message: "the storage style applies to the controller and engine blocks only".into(),
        });
    }
    let design = match args.max_in_flight {
        None => design,
        Some(n) if block != Unit::Engine => {
            return Err(Error::BadFlag {
                flag: "--max-in-flight",
                value: n.to_string(),
                message: "the bound on requests in flight applies to the engine only".into(),
            })
        }
        Some(n) => design.with_max_in_flight(n).map_err(|_| Error::BadFlag {
            flag: "--max-in-flight",
            value: n.to_string(),
            message: format!("allowed 1 to {}", rtl_gen::d2ma::engine::MAX_IN_FLIGHT),
        })?,
    };
    let transfers = args
        .transfer
        .iter()
        .map(|t| parse_transfer(t))
        .collect::<Result<Vec<_>, _>>()?;
    if !transfers.is_empty() && block != Unit::Agen {
        return Err(Error::BadFlag {
            flag: "--transfer",
            value: args.transfer.join(" "),
            message: "directed transfers apply to the agen block only".into(),
        });
    }
    let plan = D2maPlan {
        seed: args.seed,
        random: args.vectors,
        transfers,
    };
    let written = rtl_gen::block::generate(&design, &plan, command, &args.out)?;
    crate::cli::print_written(&written, args.json);
    if args.report {
        report(&design, &plan);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `rtl-gen d2ma system`: validates every flag, then writes the system's folder.
fn system(args: &D2maArgs, command: &str) -> Result<ExitCode, Error> {
    let unit_flags = [
        ("--max-in-flight", args.max_in_flight.is_some()),
        ("--transfer", !args.transfer.is_empty()),
        ("--report", args.report),
    ];
    if let Some((flag, _)) = unit_flags.iter().find(|(_, given)| *given) {
        return Err(Error::BadFlag {
            flag,
            value: "given".into(),
            message: "applies to the engine's units, not to the system".into(),
        });
    }
    let paper = System::PAPER;
    let s = System {
        ctas: args.ctas,
        buffers: args.buffers,
        segment: args.segment_bytes,
        global_bits: args.global_bits.unwrap_or(paper.global_bits),
        lanes: args.lanes.unwrap_or(paper.lanes),
        banks: args.banks.unwrap_or(paper.banks),
        depth: args.depth.unwrap_or(paper.depth),
        mshrs: args.mshrs.unwrap_or(paper.mshrs),
        tensor_slots: args.tensor_slots.unwrap_or(0),
        storage: args.storage.unwrap_or_default(),
    };
    let shape = Shape::new(s.lanes, s.banks, s.depth, 4)?;
    let map = args.map.spec(shape)?;
    let mut design =
        SystemDesign::new(s, map, args.vector_length.unwrap_or(DEFAULT_VECTOR_LENGTH))?;
    if let Some(path) = &args.tensor_loads {
        let text = rtl_gen::json_input::read_text(path)?;
        let loads: Vec<TensorLoadSpec> =
            rtl_gen::json_input::parse(&text, None).map_err(|e| Error::ConfigFile {
                path: path.clone(),
                message: e.to_string(),
            })?;
        design = design.with_tensor_loads(&loads, "--tensor-loads")?;
    }
    if !args.tensor_cases.is_empty() {
        if s.tensor_slots == 0 {
            return Err(Error::BadFlag {
                flag: "--tensor-cases",
                value: "given".into(),
                message: "needs --tensor-slots 1 or more".into(),
            });
        }
        let mut records = Vec::new();
        for path in &args.tensor_cases {
            let text = rtl_gen::json_input::read_text(path)?;
            records.extend(models::tma::silicon::parse(&text).map_err(|message| {
                Error::ConfigFile {
                    path: path.clone(),
                    message,
                }
            })?);
        }
        let (with_cases, taken) = design.with_silicon_cases(&records);
        design = with_cases;
        if !args.json {
            println!("{taken} H100 load cases fit the engine and run after the directed phases");
        }
    }
    let (dir, manifest) = design.write(command, &args.out)?;
    crate::cli::print_written(&rtl_gen::block::Written { dir, manifest }, args.json);
    Ok(ExitCode::SUCCESS)
}

/// Prints the directed cases' cycle counts (`--report`).
fn report(design: &D2maDesign, plan: &D2maPlan) {
    use rtl_gen::d2ma::vectors;
    match design.block {
        Unit::Agen => {
            println!("| transfer | elements | cycles | requests | requests per walk cycle | constant stores |");
            println!("|---|---|---|---|---|---|");
            for r in vectors::agen_rates(design, &plan.transfers) {
                println!(
                    "| {} | {} | {} | {} | {:.2} | {} |",
                    r.name,
                    r.elements,
                    r.cycles,
                    r.requests,
                    r.requests as f64 / (r.cycles - 1) as f64,
                    r.constant_stores
                );
            }
        }
        Unit::Engine => {
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(plan.seed);
            let (_, run) = vectors::engine_vectors(design, plan, &mut rng);
            println!(
                "configuration to first request: {} cycles; SAXPY (2 CTAs x 2 buffers of 256 floats) done after {} cycles",
                run.config_to_first_request, run.saxpy_cycles
            );
            println!(
                "starts delayed a cycle by a command completing an entry (the span unit has the read port): {}",
                run.port_waits
            );
            if let Some(bound) = design.in_flight_bound() {
                println!(
                    "walk cycles held by the bound of {bound} requests in flight per buffer: {}",
                    run.bound_waits
                );
            }
        }
        Unit::Controller | Unit::RawCheck => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfers_parse_and_bad_ones_are_refused() {
        let e = parse_transfer("global=0x8000,count=256").unwrap();
        assert_eq!((e.global, e.count, e.size, e.stride), (0x8000, 256, 2, 1));
        let e = parse_transfer("rows=16,cols=16,ld=1024,halo=1x1,region=3").unwrap();
        assert!(e.two_d && e.mode == 1 && e.count == 0x1010);
        for (spec, what) in [
            ("count=256,shared=0xff00", "tile"),
            ("count=0", "count"),
            ("rows=4,cols=4,ld=64,halo=1x1,region=12", "region"),
            ("rows=4,cols=4,ld=64,halo=5x1,region=9", "halo"),
            ("count=4,size=3", "size=3"),
            ("count=4,colour=red", "unknown key"),
            ("rows=4,cols=4", "needs rows, cols and ld"),
        ] {
            let msg = parse_transfer(spec).unwrap_err().to_string();
            assert!(msg.contains(what) && !msg.contains('\n'), "{spec}: {msg}");
        }
    }
}
