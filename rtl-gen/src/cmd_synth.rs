//! `rtl-gen synth`: synthesize a generated block with Yosys and report its area and delay.

use clap::Args;
use rtl_gen::qor::{self, SYNTH_DIR, SYNTH_JSON};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen synth`.
#[derive(Args)]
#[command(after_help = "\
Without --liberty (works with Yosys alone): cells in Yosys' gate library, a CMOS transistor
estimate (`stat -tech cmos`) and the logic depth in gates (`ltp`). With --liberty FILE (.lib or
.lib.gz): area in the library's unit (um^2) and ABC's critical-path delay in ps; registered
blocks also get the register-limited delay and the fmax it implies; and the slowest path from
each input port, timed alone. A configurable hasher's cfg_i is static while the memory runs, so
its address path (from addr_i) is reported apart from its configuration path (from cfg_i).

With --target-ps PS (needs --liberty) the flow is timing-driven: ABC maps for the delay target
(map -D), buffers high fanout and up- and down-sizes gates for it; a hasher's cfg_i-only logic is
mapped for area outside the target (a false path from cfg_i, no flip-flops). With --closure as
well, ABC maps the block four times (with and without its dc2 restructuring, at the target and
10% under it; two at a time on two cores) and the smallest netlist that meets the target is
kept, or the fastest when none does; each mapping stays in <DIR>/synth/closure/<variant>/ and
synth.json lists them all.

A black-box module in the design (an SRAM macro's model marked (* blackbox *), as `rtl-gen smem
--sram-macro` writes it) is not synthesized and bounds paths like a register: its read data
starts paths (the group `macros`) and its inputs end them.

Writes <DIR>/synth.json (the report, the tool versions, the library and the command that
reproduces it); scripts, logs and the mapped netlist stay in <DIR>/synth/.

Examples:
  rtl-gen synth out/hash_bvxor_n14_b32
  rtl-gen synth out/hash_bvxor_n14_b32_cfg --liberty ../shared/pdk/nangate45_typ.lib.gz
  rtl-gen synth out/hash_bvxor_n14_b32_cfg --liberty ../shared/pdk/nangate45_typ.lib.gz \\
      --target-ps 150
  rtl-gen synth out/d2ma_engine_c8_b4_lat --liberty ../shared/pdk/nangate45_typ.lib.gz \\
      --target-ps 950 --closure
  rtl-gen synth out/smem_l32_b32_d512_bvxor_cfg_macro \\
      --liberty ../shared/pdk/nangate45_typ.lib.gz --target-ps 1000

Exit status: 0 on success, 2 on an error (no Yosys, unreadable liberty, design rejected, a
target that is not a positive number of ps or has no --liberty, --closure without a target).")]
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
    let target = args
        .target_ps
        .as_deref()
        .map(|t| rtl_gen::limits::delay_target("--target-ps", t))
        .transpose()?;
    if let (Some(t), None) = (target, &args.liberty) {
        return Err(Error::BadFlag {
            flag: "--target-ps",
            value: t.to_string(),
            message: "needs --liberty (the generic flow has no delays to target)".into(),
        });
    }
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
    let result = qor::synthesize_block_for(
        &args.dir,
        args.liberty.as_deref(),
        target,
        args.closure,
        command,
    );
    spinner.finish_and_clear();
    let result = result?;
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
