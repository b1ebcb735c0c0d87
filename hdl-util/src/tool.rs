//! Finding and running external programs (Verilator, Icarus Verilog, Yosys...).
//!
//! Every tool is found the same way: an environment variable override first (`VERILATOR`,
//! `IVERILOG`, `VVP`, `YOSYS`), then `PATH`; when it is missing the error says how to install
//! it. The `testbenches` crate finds its simulators and the `synth` crate Yosys with the same
//! [`ExternalTool`], and both run them through [`run_logged`].

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::error::Error;

/// An external program that was found on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalTool {
    /// The program's usual name, e.g. `verilator`.
    pub name: &'static str,
    /// Where it was found (the override's value, or the first match on `PATH`).
    pub path: PathBuf,
}

impl ExternalTool {
    /// Find `name`: the value of the environment variable `env_var` if it is set and not empty
    /// (a path, or a program name looked up on `PATH`), otherwise `name` on `PATH`. When it
    /// cannot be found the error names `env_var` and the Debian package `apt_package` to install.
    pub fn find(name: &'static str, env_var: &str, apt_package: &str) -> Result<Self, Error> {
        let missing = || Error::ToolMissing {
            name: name.to_owned(),
            env_var: env_var.to_owned(),
            apt_package: apt_package.to_owned(),
        };
        let wanted = match std::env::var_os(env_var) {
            Some(value) if !value.is_empty() => PathBuf::from(value),
            _ => PathBuf::from(name),
        };
        let path = if wanted.components().count() > 1 {
            is_executable(&wanted).then_some(wanted)
        } else {
            find_on_path(&wanted)
        };
        path.map(|path| ExternalTool { name, path })
            .ok_or_else(missing)
    }

    /// The tool's version line, e.g. `Verilator 5.006 2023-01-22 rev (Debian 5.006-3)`: the first
    /// line printed by `--version`, or by `-V` for tools that have no `--version` (Icarus).
    pub fn version(&self) -> Result<String, Error> {
        for flag in ["--version", "-V"] {
            let output = crate::children::output(self.command().arg(flag).stdin(Stdio::null()))
                .map_err(|e| Error::io(format!("running {} {flag}", self.path.display()), e))?;
            if !output.status.success() {
                continue;
            }
            let text = String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr);
            if let Some(line) = text.lines().map(str::trim).find(|l| !l.is_empty()) {
                if line.chars().any(|c| c.is_ascii_digit()) && !line.contains("invalid option") {
                    return Ok(line.to_owned());
                }
            }
        }
        Err(Error::ToolFailed {
            tool: self.name.to_owned(),
            what: "printing its version (--version, -V)".to_owned(),
            status: "no version line".to_owned(),
            output: String::new(),
        })
    }

    /// A [`Command`] that runs this tool, to which the caller adds arguments.
    pub fn command(&self) -> Command {
        Command::new(&self.path)
    }
}

/// Whether `path` is a file this process could execute.
fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The first executable called `name` in a folder of `PATH`.
pub fn find_on_path(name: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

/// How a logged run ended.
#[derive(Debug)]
pub struct Logged {
    /// The exit status, or `None` when the run was killed for taking longer than its timeout.
    pub status: Option<ExitStatus>,
    /// Everything the program printed (stdout and stderr interleaved as written).
    pub output: String,
    /// Wall-clock time of the run.
    pub seconds: f64,
}

/// Run `cmd` with stdout and stderr both going to `log` (so nothing can block on a full pipe),
/// killing it after `timeout`, and return what it printed.
pub fn run_logged(mut cmd: Command, log: &Path, timeout: Duration) -> Result<Logged, Error> {
    let describe = format!("{:?}", cmd.get_program());
    let file =
        fs::File::create(log).map_err(|e| Error::io(format!("creating {}", log.display()), e))?;
    let file2 = file
        .try_clone()
        .map_err(|e| Error::io(format!("opening {}", log.display()), e))?;
    cmd.stdin(Stdio::null()).stdout(file).stderr(file2);
    let start = Instant::now();
    let mut running = crate::children::spawn(&mut cmd)
        .map_err(|e| Error::io(format!("starting {describe}"), e))?;
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match running
            .child()
            .try_wait()
            .map_err(|e| Error::io(format!("waiting for {describe}"), e))?
        {
            Some(status) => break Some(status),
            None if start.elapsed() >= timeout => {
                running.kill();
                break None;
            }
            None => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let output = fs::read(log).map_err(|e| Error::io(format!("reading {}", log.display()), e))?;
    Ok(Logged {
        status,
        output: String::from_utf8_lossy(&output).into_owned(),
        seconds,
    })
}

impl Logged {
    /// This run if it exited 0; otherwise [`Error::ToolFailed`] naming `tool` and `what` it was
    /// asked to do, with the first `lines` error lines of its output ([`first_error_lines`]).
    pub fn require_success(self, tool: &str, what: String, lines: usize) -> Result<Self, Error> {
        match self.status {
            Some(status) if status.success() => Ok(self),
            status => Err(Error::ToolFailed {
                tool: tool.to_owned(),
                what,
                status: status.map_or_else(|| "timed out".to_owned(), |s| s.to_string()),
                output: first_error_lines(&self.output, lines),
            }),
        }
    }
}

/// The lines of a tool's output worth showing in an error: up to `n` lines starting at the
/// first that looks like an error or warning, or the last `n` lines when none does.
pub fn first_error_lines(output: &str, n: usize) -> String {
    let lines: Vec<&str> = output.lines().collect();
    let looks_bad = |l: &&str| {
        let lower = l.to_ascii_lowercase();
        lower.contains("error") || lower.contains("%warning") || lower.contains("warning:")
    };
    let start = match lines.iter().position(looks_bad) {
        Some(i) => i,
        None => lines.len().saturating_sub(n),
    };
    lines[start..]
        .iter()
        .take(n)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

/// The last `n` lines of `output`.
pub fn last_lines(output: &str, n: usize) -> String {
    let lines: Vec<&str> = output.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tool_says_how_to_install() {
        let err = ExternalTool::find(
            "surely-not-a-real-program-xyz",
            "HDL_UTIL_TEST_NO_SUCH_VAR",
            "xyz-tools",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("surely-not-a-real-program-xyz"), "{err}");
        assert!(err.contains("HDL_UTIL_TEST_NO_SUCH_VAR"), "{err}");
        assert!(err.contains("apt-get install -y xyz-tools"), "{err}");
    }

    #[test]
    fn finds_a_program_on_path_and_its_version() {
        // `sh` exists wherever these tests can run.
        let sh = ExternalTool::find("sh", "HDL_UTIL_TEST_NO_SUCH_VAR", "dash").unwrap();
        assert!(sh.path.is_absolute());
        assert!(sh
            .command()
            .arg("-c")
            .arg("exit 0")
            .status()
            .unwrap()
            .success());
    }

    #[test]
    fn env_override_wins_and_must_exist() {
        // Variables unique to this test, so no other test reads them concurrently.
        std::env::set_var("HDL_UTIL_TEST_SH_OVERRIDE", "/bin/sh");
        let tool = ExternalTool::find("no-such-shell-xyz", "HDL_UTIL_TEST_SH_OVERRIDE", "dash");
        assert_eq!(tool.unwrap().path, PathBuf::from("/bin/sh"));
        std::env::set_var("HDL_UTIL_TEST_BAD_OVERRIDE", "/nonexistent/sh");
        assert!(ExternalTool::find("sh", "HDL_UTIL_TEST_BAD_OVERRIDE", "dash").is_err());
    }

    #[test]
    fn a_failed_run_is_a_tool_failure_with_its_first_error_lines() {
        let dir = std::env::temp_dir().join(format!("hdl-util-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let log = dir.join("run.log");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo fine; echo 'x.v:1: error: no'; exit 3"]);
        let run = run_logged(cmd, &log, Duration::from_secs(60)).unwrap();
        let err = run.require_success("sh", "a test".into(), 5).unwrap_err();
        assert_eq!(
            err.to_string(),
            "sh failed (exit status: 3) for a test:\nx.v:1: error: no"
        );
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo ok"]);
        let run = run_logged(cmd, &log, Duration::from_secs(60)).unwrap();
        assert_eq!(
            run.require_success("sh", "ok".into(), 5).unwrap().output,
            "ok\n"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn error_lines_start_at_the_first_error() {
        let out = "make: entering\nfoo.v:3: error: bad\nnext\nmore";
        assert_eq!(first_error_lines(out, 2), "foo.v:3: error: bad\nnext");
        assert_eq!(first_error_lines("a\nb\nc", 2), "b\nc");
        assert_eq!(last_lines("a\nb\nc", 5), "a\nb\nc");
    }
}
