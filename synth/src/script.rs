//! The Yosys and ABC scripts, kept as files under `synth/scripts/` and filled in here.
//!
//! Placeholders: `{{READ}}` (one `read_verilog` line per source), `{{TOP}}` (the top
//! module), `{{LIBERTY}}` (the plain liberty file), `{{ABC_SCRIPT}}` (the ABC script
//! written next to `synth.ys`), and in the timing-driven flow `{{STATIC_CONE}}` (the commands
//! that set the static inputs' logic apart, see [`static_cone`]) and `{{TARGET_PS}}` (the
//! delay target in `timing.abc`).

use std::path::{Path, PathBuf};

/// `scripts/generic.ys`: synthesis to Yosys' built-in gates.
pub const GENERIC_YS: &str = include_str!("../scripts/generic.ys");
/// `scripts/liberty.ys`: synthesis to a liberty library, timed by ABC.
pub const LIBERTY_YS: &str = include_str!("../scripts/liberty.ys");
/// `scripts/liberty.abc`: the ABC script `liberty.ys` runs: Yosys 0.23's default liberty
/// mapping script followed by `topo; stime -p`, which prints the critical path.
pub const LIBERTY_ABC: &str = include_str!("../scripts/liberty.abc");

/// `scripts/timing.ys`: timing-driven synthesis to a liberty library.
pub const TIMING_YS: &str = include_str!("../scripts/timing.ys");
/// `scripts/timing.abc`: the ABC script of the timing-driven flow: the same logic
/// optimisation as `liberty.abc`, then `map -D`, `topo`, `buffer`, `upsize -D`, `dnsize -D` for
/// the target, then `topo; stime -p`. The `topo` after the mapper rebuilds the network in
/// topological order, which drops any gate the mapper left without fanout: ABC's `buffer`
/// refuses such a network ("node N has no fanout", then no netlist), which the D²MA engine with
/// its data path hit. On a network without such gates it changes nothing.
pub const TIMING_ABC: &str = include_str!("../scripts/timing.abc");

/// File name of the filled-in Yosys script in the work folder.
pub const SCRIPT_FILE: &str = "synth.ys";
/// File name of the ABC script in the work folder (liberty mode).
pub const ABC_FILE: &str = "liberty.abc";
/// File name of the timing-driven flow's ABC script in the work folder.
pub const TIMING_ABC_FILE: &str = "timing.abc";

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

/// The `stat` arguments that give the area of every cell: the standard cells' liberty file,
/// then each macro's.
fn stat_liberties(liberty: &Path, macros: &[PathBuf]) -> String {
    std::iter::once(liberty)
        .chain(macros.iter().map(PathBuf::as_path))
        .map(|l| format!("-liberty {}", quote(l)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Fills the liberty script; `abc_script` is the ABC script's path as Yosys should see
/// it (relative to the work folder is fine, Yosys makes it absolute); `macros` are the
/// liberty files of black-box macros, whose areas `stat` counts.
pub fn liberty(
    files: &[PathBuf],
    top: &str,
    liberty: &Path,
    macros: &[PathBuf],
    abc_script: &str,
) -> String {
    LIBERTY_YS
        .replace("{{READ}}", &read_lines(files))
        .replace("{{TOP}}", top)
        .replace("{{LIBERTY}}", &quote(liberty))
        .replace("{{STAT_LIBERTY}}", &stat_liberties(liberty, macros))
        .replace("{{ABC_SCRIPT}}", abc_script)
}

/// The Yosys commands that move the logic only `static_inputs` reach (no other input port, no
/// flip-flop) into a module `static_cone` and map it for area with `liberty.abc`, so that the
/// delay target applies to the rest alone: the timing exception of an input held constant while
/// the design runs (a hasher's configuration). Empty when there are no static inputs.
pub fn static_cone(static_inputs: &[String], liberty: &Path) -> String {
    if static_inputs.is_empty() {
        return String::new();
    }
    let minus: String = static_inputs.iter().map(|p| format!(" w:{p} %d")).collect();
    format!(
        "# Logic that only the static inputs ({}) reach: mapped for area, outside the\n\
         # delay target (their paths are false paths while the design runs).\n\
         select -set dynamic i:*{minus} %co*\n\
         select -set static_logic t:* @dynamic %d\n\
         submod -name static_cone @static_logic\n\
         tee -o abc_static.txt abc -liberty {} -script {ABC_FILE} static_cone\n",
        static_inputs.join(", "),
        quote(liberty)
    )
}

/// Fills the timing-driven script (`static_cone` from [`static_cone`]).
pub fn timing(
    files: &[PathBuf],
    top: &str,
    liberty: &Path,
    macros: &[PathBuf],
    abc_script: &str,
    static_cone: &str,
) -> String {
    TIMING_YS
        .replace("{{READ}}", &read_lines(files))
        .replace("{{TOP}}", top)
        .replace("{{LIBERTY}}", &quote(liberty))
        .replace("{{STAT_LIBERTY}}", &stat_liberties(liberty, macros))
        .replace("{{ABC_SCRIPT}}", abc_script)
        .replace("{{STATIC_CONE}}", static_cone)
}

/// Fills the timing-driven ABC script with the target in ps; without `dc2` its `dc2` line is
/// left out (a variant of timing closure, see [`crate::closure`]), the rest unchanged. With
/// `constr` (the boundary constraints of [`crate::abc_constr`], for a flow that OpenSTA times
/// with a wire-load model) ABC reads them first, and buffers, sizes and times with the
/// library's wire-load model (`-c`).
pub fn timing_abc(target_ps: f64, dc2: bool, constr: Option<&Path>) -> String {
    let mut out = String::new();
    if let Some(c) = constr {
        out.push_str(&format!("read_constr -v {}\n", c.display()));
    }
    for line in TIMING_ABC.lines() {
        if !dc2 && line.trim() == "dc2" {
            continue;
        }
        let line = line.replace("{{TARGET_PS}}", &format!("{target_ps}"));
        let line = match (constr.is_some(), line.split_once(' ')) {
            (true, Some((cmd @ ("upsize" | "dnsize" | "stime"), rest))) => {
                format!("{cmd} -c {rest}")
            }
            (true, None) if line == "buffer" => "buffer -c".to_string(),
            _ => line,
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_filled() {
        let files = vec![PathBuf::from("/a/x.v"), PathBuf::from("/a b/y.sv")];
        let g = generic(&files, "top_mod");
        let l = liberty(&files, "top_mod", Path::new("/p/lib.lib"), &[], ABC_FILE);
        for s in [&g, &l] {
            assert!(!s.contains("{{"), "{s}");
            assert!(s.contains("read_verilog \"/a/x.v\"\nread_verilog -sv \"/a b/y.sv\""));
            assert!(s.contains("synth -top top_mod -flatten"));
        }
        assert!(l.contains("dfflibmap -liberty \"/p/lib.lib\""));
        assert!(l.contains("abc -liberty \"/p/lib.lib\" -script liberty.abc"));
        assert!(l.contains("stat -liberty \"/p/lib.lib\""));
        assert!(g.contains("abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX"));
        assert!(g.contains("stat -json -tech cmos") && g.contains("ltp -noff"));
    }

    #[test]
    fn abc_script_ends_with_timing() {
        let last: Vec<&str> = LIBERTY_ABC.lines().rev().take(2).collect();
        assert_eq!(last, ["stime -p", "topo"]);
        let last: Vec<&str> = TIMING_ABC.lines().rev().take(2).collect();
        assert_eq!(last, ["stime -p", "topo"]);
    }

    #[test]
    fn timing_script_targets_the_dynamic_logic_only() {
        let files = vec![PathBuf::from("/a/x.v")];
        let lib = Path::new("/p/lib.lib");
        let cone = static_cone(&["cfg_i".into(), "mode_i".into()], lib);
        let t = timing(&files, "top_mod", lib, &[], TIMING_ABC_FILE, &cone);
        assert!(!t.contains("{{"), "{t}");
        assert!(t.contains("select -set dynamic i:* w:cfg_i %d w:mode_i %d %co*\n"));
        assert!(t.contains("select -set static_logic t:* @dynamic %d\n"));
        assert!(t.contains("abc -liberty \"/p/lib.lib\" -script liberty.abc static_cone\n"));
        assert!(t.contains("abc -liberty \"/p/lib.lib\" -script timing.abc top_mod\n"));
        assert!(t.contains("write_verilog -noattr -noexpr -simple-lhs netlist.v"));
        // The static cone is mapped before the rest, and the design is flattened again.
        let order = [
            "submod",
            "-script timing.abc",
            "\nflatten\n",
            "stat -liberty",
        ];
        let at: Vec<usize> = order.iter().map(|s| t.find(s).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
        assert_eq!(static_cone(&[], lib), "");
        let abc = timing_abc(150.0, true, None);
        assert!(abc.contains("map -D 150\ntopo\nbuffer\n") && abc.contains("upsize -D 150\n"));
        assert!(abc.contains("dnsize -D 150\n") && abc.contains("\nbuffer\n"));
        assert!(abc.contains("\nscorr\ndc2\ndretime\n"));
        assert_eq!(timing_abc(137.5, true, None).matches("137.5").count(), 3);
        // Without dc2: only that line goes.
        assert_eq!(
            timing_abc(150.0, false, None),
            abc.replace("\ndc2\n", "\n"),
            "{abc}"
        );
        // With the wire-load model: the constraints first, then -c on buffering, sizing, timing.
        let wired = timing_abc(150.0, true, Some(Path::new("/w/abc.constr")));
        assert!(
            wired.starts_with("read_constr -v /w/abc.constr\n"),
            "{wired}"
        );
        for line in [
            "buffer -c\n",
            "upsize -c -D 150\n",
            "dnsize -c -D 150\n",
            "stime -c -p\n",
        ] {
            assert!(wired.contains(line), "{line}: {wired}");
        }
    }
}
