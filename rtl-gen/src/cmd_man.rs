//! `rtl-gen man`: the manual page (roff) of `rtl-gen` or of one of its commands.

use clap::Args;
use rtl_gen::Error;
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `rtl-gen man`.
#[derive(Args)]
#[command(after_help = "\
Prints the page on stdout. Examples:
  rtl-gen man | man -l -
  rtl-gen man cosim > rtl-gen-cosim.1
  for c in '' hash rap d2ma cosim synth flow; do rtl-gen man $c > rtl-gen${c:+-$c}.1; done")]
pub struct ManArgs {
    /// A command (`hash`, `cosim`, ...); without it, the page of `rtl-gen` itself.
    command: Option<String>,
}

/// Runs `rtl-gen man` for the command line `cli`.
pub fn run(args: ManArgs, cli: clap::Command) -> Result<ExitCode, Error> {
    let cli = cli.version(env!("CARGO_PKG_VERSION"));
    let page = match &args.command {
        None => cli,
        Some(name) => {
            let names: Vec<String> = cli
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            let Some(sub) = cli.find_subcommand(name) else {
                return Err(Error::BadFlag {
                    flag: "COMMAND",
                    value: name.clone(),
                    message: format!("not a command; one of {}", names.join(", ")),
                });
            };
            sub.clone()
                .display_name(format!("rtl-gen-{name}"))
                .bin_name(format!("rtl-gen {name}"))
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .map_err(Error::io("stdout"))?;
    std::io::stdout()
        .write_all(&roff)
        .map_err(Error::io("stdout"))?;
    Ok(ExitCode::SUCCESS)
}
