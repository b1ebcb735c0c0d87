//! `rtl-gen synth`: synthesize a generated block with Yosys and report its area and delay.

use clap::Args;
use rtl_gen::qor::{self, SYNTH_DIR, SYNTH_JSON};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;
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
