//! `rtl-gen completions`: the shell completion script, for bash, zsh, fish, elvish or PowerShell.

use clap::Args;
use clap_complete::Shell;
use rtl_gen::Error;
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `rtl-gen completions`.
#[derive(Args)]
#[command(after_help = "\
Prints the script on stdout. Examples:
  rtl-gen completions bash > ~/.local/share/bash-completion/completions/rtl-gen
  rtl-gen completions zsh > ~/.zfunc/_rtl-gen        # with fpath+=~/.zfunc in ~/.zshrc
  rtl-gen completions fish > ~/.config/fish/completions/rtl-gen.fish")]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

/// Runs `rtl-gen completions` for the command line `cli`.
pub fn run(args: CompletionsArgs, mut cli: clap::Command) -> Result<ExitCode, Error> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cli, "rtl-gen", &mut script);
    std::io::stdout()
        .write_all(&script)
        .map_err(Error::io("stdout"))?;
    Ok(ExitCode::SUCCESS)
}
