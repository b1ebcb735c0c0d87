//! The Yosys and ABC scripts, kept as files under `synth/scripts/` and filled in here.
//!
//! Placeholders: `{{READ}}` (one `read_verilog` line per source), `{{TOP}}` (the top
//! module), `{{LIBERTY}}` (the plain liberty file) and `{{ABC_SCRIPT}}` (the ABC script
//! written next to `synth.ys`).

use std::path::{Path, PathBuf};

/// `scripts/generic.ys`: synthesis to Yosys' built-in gates.
pub const GENERIC_YS: &str = include_str!("../scripts/generic.ys");
/// `scripts/liberty.ys`: synthesis to a liberty library, timed by ABC.
pub const LIBERTY_YS: &str = include_str!("../scripts/liberty.ys");
/// `scripts/liberty.abc`: the ABC script `liberty.ys` runs: Yosys 0.23's default liberty
/// mapping script followed by `topo; stime -p`, which prints the critical path.
pub const LIBERTY_ABC: &str = include_str!("../scripts/liberty.abc");

/// File name of the filled-in Yosys script in the work folder.
pub const SCRIPT_FILE: &str = "synth.ys";
/// File name of the ABC script in the work folder (liberty mode).
pub const ABC_FILE: &str = "liberty.abc";

/// Quotes a path for a Yosys script: Yosys' command parser keeps a double-quoted token
/// whole, so paths with spaces survive.
fn quote(path: &Path) -> String {
    format!("\"{}\"", path.display())
}

/// The `read_verilog` lines for `files` (absolute paths expected); `.sv` files get `-sv`.
pub fn read_lines(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| {
            let sv = f.extension().is_some_and(|e| e == "sv");
            let flag = if sv { "-sv " } else { "" };
            format!("read_verilog {flag}{}", quote(f))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Fills the generic script.
pub fn generic(files: &[PathBuf], top: &str) -> String {
    GENERIC_YS
        .replace("{{READ}}", &read_lines(files))
        .replace("{{TOP}}", top)
}

/// Fills the liberty script; `abc_script` is the ABC script's path as Yosys should see
/// it (relative to the work folder is fine, Yosys makes it absolute).
pub fn liberty(files: &[PathBuf], top: &str, liberty: &Path, abc_script: &str) -> String {
    LIBERTY_YS
        .replace("{{READ}}", &read_lines(files))
        .replace("{{TOP}}", top)
        .replace("{{LIBERTY}}", &quote(liberty))
        .replace("{{ABC_SCRIPT}}", abc_script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_filled() {
        let files = vec![PathBuf::from("/a/x.v"), PathBuf::from("/a b/y.sv")];
        let g = generic(&files, "top_mod");
        let l = liberty(&files, "top_mod", Path::new("/p/lib.lib"), ABC_FILE);
        for s in [&g, &l] {
            assert!(!s.contains("{{"), "{s}");
            assert!(s.contains("read_verilog \"/a/x.v\"\nread_verilog -sv \"/a b/y.sv\""));
            assert!(s.contains("synth -top top_mod -flatten"));
        }
        assert!(l.contains("dfflibmap -liberty \"/p/lib.lib\""));
        assert!(l.contains("abc -liberty \"/p/lib.lib\" -script liberty.abc"));
        assert!(l.contains("stat -liberty \"/p/lib.lib\""));
        assert!(g.contains("abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX"));
        assert!(g.contains("stat -tech cmos") && g.contains("ltp -noff"));
    }

    #[test]
    fn abc_script_ends_with_timing() {
        let last: Vec<&str> = LIBERTY_ABC.lines().rev().take(2).collect();
        assert_eq!(last, ["stime -p", "topo"]);
    }
}
