//! `rtl-gen synth`: synthesize a generated block with Yosys and report its area and delay.

use clap::Args;
use rtl_gen::pnr::{self, Flow, MAX_SEEDS};
use rtl_gen::qor::{self, SYNTH_DIR, SYNTH_JSON};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use synth::pnr::ecp5::Device;
use synth::WireLoad;

/// Arguments of `rtl-gen synth`.
#[derive(Args)]
#[command(after_help = "\
Without --liberty (works with Yosys alone): cells in Yosys' gate library, a CMOS transistor
estimate (`stat -tech cmos`) and the logic depth in gates (`ltp`). With --liberty FILE (.lib or
.lib.gz): area in the library's unit (um^2) and ABC's critical-path delay estimate in ps (no
clock-to-Q, setup or wires); registered blocks also get the register-limited delay and the fmax
it implies. Then OpenSTA times the mapped netlist (<DIR>/synth/constraints.sdc, written from the
manifest): the clock on the block's clock port (a virtual clock for a combinational block) at
--clock-ps, else --target-ps, else 1000 ps; inputs arrive at the clock edge and outputs are due
at the next (delays 0); a configurable hasher's cfg_i, static while the memory runs, is a false
path. It reports the worst slack, the critical path, the smallest clock period with clock-to-Q
and setup included, and the worst path from each input port, from the registers and from the
macros: a hasher's address path (from addr_i) apart from its configuration path (from cfg_i).
Wires: the library's default wire-load model unless --wire-load says none or names another.

With --target-ps PS (needs --liberty) the flow is timing-driven: ABC maps for the delay target
(map -D), buffers high fanout and up- and down-sizes gates for it; a hasher's cfg_i-only logic is
mapped for area outside the target (a false path from cfg_i, no flip-flops). With --closure as
well, ABC maps the block four times (with and without its dc2 restructuring, at the target and
10% under it; two at a time on two cores) and the smallest netlist that meets the target is
kept, or the fastest when none does; each mapping stays in <DIR>/synth/closure/<variant>/ and
synth.json lists them all.

A black-box module in the design (an SRAM macro's model marked (* blackbox *), as `rtl-gen smem
--sram-macro` writes it) is not synthesized.

With --flow qflow or --flow ecp5 the block is placed and routed instead, inside flip-flops on
every input and output (the clock, the reset and a hasher's static cfg_i pass straight through,
untimed), so that the tools' register-to-register timing crosses its logic: qflow on its OSU
0.18 um cells (Debian's qflow: cell area, wirelength from the routed DEF, routing success, the
post-route critical path and maximum clock from vesta, the slack at --clock-ps when given;
latches mapped and counted), or nextpnr on a Lattice ECP5 part (--device, out of context, one run
per seed 1 to --pnr-seeds: the routed Fmax of each clock, LUTs, flip-flops and DP16KD block RAMs).
They write <DIR>/pnr_qflow.json or <DIR>/pnr_ecp5.json (docs/schemas/pnr-*.schema.json), with
work files in <DIR>/pnr/<flow>/. qflow places on one thread (minutes for thousands of cells);
the ECP5 tools come from PyPI into .venv/ (scripts/setup.sh) and compile on their first run.

Writes <DIR>/synth.json (the report, the tool versions, the library and the command that
reproduces it); scripts, logs and the mapped netlist stay in <DIR>/synth/.

Examples:
  rtl-gen synth out/hash_bvxor_n14_b32
  rtl-gen synth out/hash_bvxor_n14_b32_cfg --liberty ../shared/pdk/nangate45_typ.lib.gz
  rtl-gen synth out/hash_bvxor_n14_b32_cfg --liberty ../shared/pdk/nangate45_typ.lib.gz \\
      --target-ps 150
  rtl-gen synth out/d2ma_engine_c8_b4_lat --liberty ../shared/pdk/nangate45_typ.lib.gz \\
      --target-ps 800 --clock-ps 1000 --closure
  rtl-gen synth out/hash_bvxor_n14_b32_cfg --liberty ../shared/pdk/nangate45_typ.lib.gz \\
      --wire-load none
  rtl-gen synth out/smem_l32_b32_d512_bvxor_cfg_macro \\
      --liberty ../shared/pdk/nangate45_typ.lib.gz --target-ps 1000
  rtl-gen synth out/hash_bvxor_n14_b32_cfg_pipe --flow qflow
  rtl-gen synth out/hash_bvxor_n14_b32_cfg_pipe --flow ecp5 --pnr-seeds 5
  rtl-gen synth out/smem_l16_b16_d512 --flow ecp5 --device 85k --pnr-seeds 3

Exit status: 0 on success, 2 on an error (no Yosys or OpenSTA, unreadable liberty, design
rejected, a target or clock that is not a positive number of ps or has no --liberty, a wire-load
model the library lacks, --closure without a target). A clock that is not met is not an error:
synth.json says so.")]
pub struct SynthArgs {
    /// A block folder written by `rtl-gen hash`, `rap`, `d2ma` or `smem`.
    dir: PathBuf,
    /// A liberty file (plain or gzipped) to map to; without it, Yosys' generic gates.
    #[arg(long)]
    liberty: Option<PathBuf>,
    /// Delay target in ps for a timing-driven flow (a positive number; needs --liberty).
    #[arg(long, value_name = "PS", allow_hyphen_values = true)]
    target_ps: Option<String>,
    /// Timing closure: map for --target-ps four ways and keep the best netlist (see below).
    #[arg(long, requires = "target_ps")]
    closure: bool,
    /// The clock period in ps OpenSTA times against (default: --target-ps, else 1000).
    #[arg(long, value_name = "PS", allow_hyphen_values = true)]
    clock_ps: Option<String>,
    /// OpenSTA's wires: `library` (its default wire-load model), `none`, or a model's name.
    #[arg(long, value_name = "MODEL")]
    wire_load: Option<String>,
    /// Place and route with qflow (OSU 0.18 um) or nextpnr (ECP5) instead (see below).
    #[arg(long, value_enum, conflicts_with_all = ["liberty", "target_ps", "closure", "wire_load"])]
    flow: Option<Flow>,
    /// --flow ecp5: the part, LFE5U-25F, -45F or -85F [default: 25k].
    #[arg(long, value_name = "PART", value_parser = crate::cli::named::<Device>(["25k", "45k", "85k"]))]
    device: Option<Device>,
    /// --flow ecp5: place and route with nextpnr's seeds 1 to N, 1 to 100 [default: 5].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_SEEDS))]
    pnr_seeds: Option<u64>,
    #[command(flatten)]
    jobs: crate::cli::JobsArg,
    /// Print synth.json instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

/// Runs `rtl-gen synth`.
pub fn run(args: SynthArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    let ps = |flag, text: &Option<String>| {
        text.as_deref()
            .map(|t| rtl_gen::limits::delay_target(flag, t))
            .transpose()
    };
    let target = ps("--target-ps", &args.target_ps)?;
    let clock = ps("--clock-ps", &args.clock_ps)?;
    if let Some(flow) = args.flow {
        return run_pnr(&args, flow, clock, command);
    }
    let needs_liberty = [
        ("--target-ps", target.map(|t| t.to_string())),
        ("--clock-ps", clock.map(|t| t.to_string())),
        ("--wire-load", args.wire_load.clone()),
    ];
    for (flag, value) in needs_liberty {
        if let (Some(value), None) = (value, &args.liberty) {
            return Err(Error::BadFlag {
                flag,
                value,
                message: "needs --liberty (the generic flow has no delays to time)".into(),
            });
        }
    }
    let options = qor::SynthOptions {
        target_ps: target,
        closure: args.closure,
        clock_ps: clock,
        wire_load: args
            .wire_load
            .as_deref()
            .map(WireLoad::parse)
            .unwrap_or_default(),
    };
    let spinner = args.quiet.spinner();
    let mappings = if args.closure {
        format!(
            " ({} mappings for --closure, as many at once as there are cores)",
            synth::closure::VARIANTS.len()
        )
    } else {
        String::new()
    };
    spinner.set_message(format!(
        "{}: synthesizing with Yosys{mappings}",
        args.dir.display()
    ));
    let result = qor::synthesize_block_with(&args.dir, args.liberty.as_deref(), &options, command);
    spinner.finish_and_clear();
    let result = result.map_err(|e| match e {
        Error::Synth(synth::Error::WireLoad { model, models, .. }) => Error::BadFlag {
            flag: "--wire-load",
            value: model,
            message: format!(
                "not a wire-load model of the library (library, none{})",
                models.iter().map(|m| format!(", {m}")).collect::<String>()
            ),
        },
        other => other,
    })?;
    if args.json {
        print!("{}", result.to_json());
        return Ok(ExitCode::SUCCESS);
    }
    let parameters: Vec<String> = result
        .parameters
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    println!(
        "{}: {} ({}); {}",
        result.top,
        result.summary,
        result.timing.describe(),
        parameters.join(" "),
    );
    print!(
        "{}",
        synth::render_table(std::slice::from_ref(&result.report))
    );
    for line in result.provenance() {
        println!("{line}");
    }
    println!(
        "wrote {} (work files in {})",
        args.dir.join(SYNTH_JSON).display(),
        args.dir.join(SYNTH_DIR).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `rtl-gen synth --flow`: places and routes the block and prints or writes the report.
fn run_pnr(
    args: &SynthArgs,
    flow: Flow,
    clock_ps: Option<f64>,
    command: &str,
) -> Result<ExitCode, Error> {
    if flow != Flow::Ecp5 {
        let ecp5_only = [
            ("--device", args.device.map(|d| d.part().to_string())),
            ("--pnr-seeds", args.pnr_seeds.map(|n| n.to_string())),
        ];
        if let Some((flag, Some(value))) = ecp5_only.into_iter().find(|(_, v)| v.is_some()) {
            return Err(Error::BadFlag {
                flag,
                value,
                message: format!("is for --flow ecp5, not --flow {}", flow.name()),
            });
        }
    }
    let options = pnr::PnrOptions {
        flow,
        device: args.device.unwrap_or(Device::Lfe5u25),
        seeds: args.pnr_seeds.unwrap_or(5),
        jobs: args.jobs.threads(),
        clock_ps,
    };
    let spinner = args.quiet.spinner();
    let dir = args.dir.display().to_string();
    let progress = |message: &str| spinner.set_message(format!("{dir}: {message}"));
    let result = pnr::place_and_route(&args.dir, &options, command, &progress);
    spinner.finish_and_clear();
    let result = result?;
    if args.json {
        print!("{}", result.to_json());
        return Ok(ExitCode::SUCCESS);
    }
    for line in result.describe() {
        println!("{line}");
    }
    println!(
        "wrote {} (work files in {})",
        args.dir.join(flow.report_file()).display(),
        pnr::work_dir(&args.dir, flow).display()
    );
    Ok(ExitCode::SUCCESS)
}
