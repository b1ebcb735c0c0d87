//! Generating blocks with the `rtl-gen` binary from the integration tests.

use super::rtl_gen;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Standard output then standard error, as text.
pub fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Runs a generating command (`hash --kind modulo ...`, split at spaces) into a fresh folder
/// under `root` and returns the block folder it wrote (the only folder there), so that a test
/// does not depend on module names.
pub fn generate(root: &Path, command: &str) -> PathBuf {
    let out = tempfile::tempdir_in(root).unwrap().keep();
    let out_text = out.display().to_string();
    let mut all: Vec<&str> = command.split_whitespace().collect();
    all.extend(["--out", &out_text]);
    let o = rtl_gen(root, &all);
    assert!(o.status.success(), "{command}: {}", text(&o));
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(dirs.len(), 1, "{command}");
    dirs.pop().unwrap()
}
