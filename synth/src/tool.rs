//! Finding the Yosys binary through the workspace's one tool finder,
//! [`hdl_util::ExternalTool`]: `$YOSYS` when set (a path, or a name looked up on
//! `PATH`), else `yosys` on `PATH`; then `yosys -V` must answer with a Yosys banner.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use hdl_util::ExternalTool;

use crate::error::Error;
use crate::parse::parse_yosys_version;

/// The environment variable that overrides where Yosys is found.
pub(crate) const YOSYS_ENV: &str = "YOSYS";

/// A Yosys binary that answered `-V`.
#[derive(Debug, Clone)]
pub(crate) struct Yosys {
    /// What to execute (a path found on `PATH`, or `$YOSYS` as given).
    pub program: PathBuf,
    /// Its version banner, e.g. `Yosys 0.23 (git sha1 7ce5011c24b)`.
    pub version: String,
}

/// Finds Yosys and reads its version.
pub(crate) fn find_yosys() -> Result<Yosys, Error> {
    find_yosys_as(YOSYS_ENV)
}

/// [`find_yosys`] with the override read from `env_var` (tests use their own variable).
fn find_yosys_as(env_var: &str) -> Result<Yosys, Error> {
    let tool = ExternalTool::find("yosys", env_var, "yosys").map_err(|e| match e {
        hdl_util::Error::ToolMissing { .. } => {
            let detail = match std::env::var_os(env_var).filter(|v| !v.is_empty()) {
                Some(v) => format!(
                    "${env_var}={} is not an executable file or a program on PATH",
                    v.to_string_lossy()
                ),
                None => format!("no `yosys` on PATH and ${env_var} is not set"),
            };
            Error::YosysMissing { detail }
        }
        other => Error::YosysMissing {
            detail: other.to_string(),
        },
    })?;
    let out =
        hdl_util::children::output(tool.command().arg("-V").stdin(Stdio::null())).map_err(|e| {
            Error::YosysMissing {
                detail: format!("{} does not run: {e}", tool.path.display()),
            }
        })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    match parse_yosys_version(&stdout) {
        Some(version) if out.status.success() => Ok(Yosys {
            program: tool.path,
            version,
        }),
        _ => Err(Error::YosysMissing {
            detail: format!(
                "{} did not answer `-V` with a Yosys version ({})",
                tool.path.display(),
                out.status
            ),
        }),
    }
}

impl Yosys {
    /// A [`Command`] running this Yosys.
    pub(crate) fn command(&self) -> Command {
        Command::new(&self.program)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each test sets its own variable, so tests running in parallel never race on one.

    #[test]
    fn missing_yosys_says_how_to_install() {
        std::env::set_var("SYNTH_TEST_YOSYS_MISSING", "/nonexistent/yosys");
        let e = find_yosys_as("SYNTH_TEST_YOSYS_MISSING").unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, Error::YosysMissing { .. }));
        assert!(msg.contains("apt-get install -y yosys"), "{msg}");
        assert!(msg.contains("/nonexistent/yosys"), "{msg}");
        assert!(msg.contains("SYNTH_TEST_YOSYS_MISSING"), "{msg}");
    }

    #[test]
    fn a_program_that_is_not_yosys_is_refused() {
        // `true` runs but prints no version banner.
        std::env::set_var("SYNTH_TEST_YOSYS_TRUE", "true");
        let e = find_yosys_as("SYNTH_TEST_YOSYS_TRUE").unwrap_err();
        assert!(e.to_string().contains("did not answer"), "{e}");
    }
}
