//! `rtl-gen kernels`: write the synthetic kernel suite as trace files.

use clap::Args;
use models::search::kernels::{suite, ADDR_BITS, BANKS, WARP};
use rtl_gen::output::{write_file, OutputFolder};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen kernels`.
#[derive(Args)]
#[command(after_help = "\
Writes <out>/<kernel>.trace for each kernel of the suite (docs/SEARCH.md), for
--addr-bits 14, --banks 32 and warps of 32 threads.

Example:
  rtl-gen kernels --out kernels/")]
pub struct KernelsArgs {
    /// Folder the traces are written to.
    #[arg(long, default_value = "kernels")]
    out: PathBuf,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

/// Runs `rtl-gen kernels`.
pub fn run(args: KernelsArgs) -> Result<ExitCode, Error> {
    args.output.apply();
    let kernels = suite();
    let paths: Vec<PathBuf> = kernels
        .iter()
        .map(|k| args.out.join(format!("{}.trace", k.name)))
        .collect();
    OutputFolder::check(&args.out)?;
    OutputFolder::check_files(paths.iter().map(PathBuf::as_path))?;
    // Each trace names rtl-gen in its header, so the folder needs no marker; `write_file`
    // creates it.
    for (kernel, path) in kernels.iter().zip(&paths) {
        let header = format!(
            "{}: {}\nwritten by `rtl-gen kernels`; {ADDR_BITS} address bits, {BANKS} banks, warps of {WARP}\nlabel, then the word addresses of the active threads",
            kernel.name, kernel.models
        );
        write_file(path, kernel.trace.to_text(&header).as_bytes())?;
        println!(
            "{}: {} warp accesses",
            path.display(),
            kernel.trace.accesses.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
