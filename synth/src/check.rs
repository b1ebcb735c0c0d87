//! The acceptance check every emitted Verilog file must pass: Yosys reads it, elaborates it
//! under its top module and finds no structural problem.

use std::path::PathBuf;
use std::process::Stdio;

use crate::error::Error;
use crate::script;
use crate::tool;

/// The Yosys commands of [`check`], after the `read_verilog` lines; `{{TOP}}` is the top.
pub const CHECK_COMMANDS: &str = "hierarchy -check -top {{TOP}}; proc; check -assert";

/// Runs `yosys -q -p "read_verilog <files>; hierarchy -check -top <top>; proc; check -assert"`.
///
/// `Ok(())` when Yosys accepts the design: every module it instantiates exists, and `check`
/// finds no multiple drivers, undriven wires or combinational loops. Otherwise
/// [`Error::CheckFailed`] with Yosys' `ERROR:` line and the warnings that explain it;
/// [`Error::Input`] for a file that cannot be read, [`Error::YosysMissing`] without Yosys.
pub fn check(files: &[PathBuf], top: &str) -> Result<(), Error> {
    crate::runner::check_top(top)?;
    if files.is_empty() {
        return Err(Error::InvalidRequest("no Verilog files given".into()));
    }
    let files = files
        .iter()
        .map(|f| {
            std::fs::canonicalize(f).map_err(|source| Error::Input {
                path: f.clone(),
                source,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let yosys = tool::find_yosys()?;
    let commands = format!(
        "{}; {}",
        script::read_lines(&files).replace('\n', "; "),
        CHECK_COMMANDS.replace("{{TOP}}", top)
    );
    let out = yosys
        .command()
        .args(["-q", "-p", &commands])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Error::YosysMissing {
            detail: format!("{} does not run: {e}", yosys.program.display()),
        })?;
    if out.status.success() {
        return Ok(());
    }
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let error = crate::parse::parse_yosys_error(&text)
        .unwrap_or_else(|| format!("Yosys exited with {}", out.status));
    let warnings: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("Warning:"))
        .take(5)
        .collect();
    Err(Error::CheckFailed {
        top: top.to_string(),
        message: if warnings.is_empty() {
            error
        } else {
            format!("{error} [{}]", warnings.join("; "))
        },
    })
}
