//! Finding the Yosys binary: `$YOSYS` when set, else `yosys` on `PATH`.
//!
//! A private stand-in until the workspace shares one external-tool finder.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// True for an existing file that (on Unix) has an execute bit.
fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// Looks `name` up in the folders of `path` (a `PATH`-style list).
fn search_path(name: &str, path: Option<OsString>) -> Option<PathBuf> {
    std::env::split_paths(&path?)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

/// Finds Yosys and reads its version. A `$YOSYS` containing a path separator is used as
/// a path, otherwise as a command name looked up on `PATH`.
pub(crate) fn find_yosys() -> Result<Yosys, Error> {
    find_yosys_in(std::env::var_os(YOSYS_ENV), std::env::var_os("PATH"))
}

/// [`find_yosys`] with the values of `$YOSYS` and `$PATH` passed in.
fn find_yosys_in(yosys_env: Option<OsString>, path: Option<OsString>) -> Result<Yosys, Error> {
    let (program, origin) = match yosys_env.filter(|v| !v.is_empty()) {
        Some(v) => {
            let p = PathBuf::from(&v);
            let found = if p.components().count() > 1 {
                Some(p)
            } else {
                search_path(&v.to_string_lossy(), path)
            };
            let found = found.ok_or_else(|| Error::YosysMissing {
                detail: format!("${YOSYS_ENV}={} is not on PATH", v.to_string_lossy()),
            })?;
            (found, format!("${YOSYS_ENV}"))
        }
        None => {
            let found = search_path("yosys", path).ok_or_else(|| Error::YosysMissing {
                detail: format!("no `yosys` on PATH and ${YOSYS_ENV} is not set"),
            })?;
            (found, "PATH".to_string())
        }
    };
    let out = Command::new(&program)
        .arg("-V")
        .output()
        .map_err(|e| Error::YosysMissing {
            detail: format!("{} (from {origin}) does not run: {e}", program.display()),
        })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    match parse_yosys_version(&stdout) {
        Some(version) if out.status.success() => Ok(Yosys { program, version }),
        _ => Err(Error::YosysMissing {
            detail: format!(
                "{} (from {origin}) did not answer `-V` with a Yosys version ({})",
                program.display(),
                out.status
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_search_finds_only_executables() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("faketool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        let list = std::env::join_paths([dir.path()]).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(search_path("faketool", Some(list.clone())), None);
            std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        assert_eq!(search_path("faketool", Some(list)), Some(tool));
        assert_eq!(search_path("faketool", None), None);
    }

    #[test]
    fn missing_yosys_says_how_to_install() {
        let empty = tempfile::tempdir().unwrap();
        let path = Some(std::env::join_paths([empty.path()]).unwrap());
        let e = find_yosys_in(None, path.clone()).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, Error::YosysMissing { .. }));
        assert!(msg.contains("apt-get install -y yosys"), "{msg}");
        assert!(msg.contains("YOSYS"), "{msg}");

        let e = find_yosys_in(Some("/nonexistent/yosys".into()), path).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/yosys"), "{e}");
    }

    #[test]
    fn a_program_that_is_not_yosys_is_refused() {
        // `true` runs but prints no version banner.
        let Some(t) = search_path("true", std::env::var_os("PATH")) else {
            return;
        };
        let e = find_yosys_in(Some(t.into_os_string()), None).unwrap_err();
        assert!(e.to_string().contains("did not answer"), "{e}");
    }
}
