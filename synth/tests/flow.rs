//! End-to-end runs of both flows on circuits small enough to count by hand.
//!
//! Tests that need Yosys print a note and pass when it cannot be found; liberty tests do
//! the same when the shared PDK files are absent.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use synth::{render_table, synthesize, Error, Mode, SynthReport, SynthRequest, FORMAT_VERSION};

const NANGATE45: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/pdk/nangate45_typ.lib.gz"
);
const SKY130: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/pdk/sky130hd_tt.lib.gz"
);

const XOR2: &str = "module xor2 (input a_i, input b_i, output y_o);\n\
                    \x20 assign y_o = a_i ^ b_i;\nendmodule\n";
const MUX4: &str = "module mux4 (input [3:0] d_i, input [1:0] s_i, output y_o);\n\
                    \x20 assign y_o = d_i[s_i];\nendmodule\n";
const XOR_REG: &str =
    "module xor_reg (input clk_i, input rst_ni, input a_i, input b_i, output reg q_o);\n\
                       \x20 always @(posedge clk_i or negedge rst_ni)\n\
                       \x20   if (!rst_ni) q_o <= 1'b0;\n\
                       \x20   else q_o <= a_i ^ b_i;\nendmodule\n";

fn yosys_available() -> bool {
    let prog = std::env::var_os("YOSYS").unwrap_or_else(|| "yosys".into());
    let ok = std::process::Command::new(prog)
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("note: Yosys not found (apt-get install -y yosys, or set YOSYS); test skipped");
        eprintln!("note: Yosys not found (apt-get install -y yosys, or set YOSYS); test skipped");
    }
    ok
}

fn pdk(path: &str) -> Option<PathBuf> {
    let p = PathBuf::from(path);
    if p.is_file() {
        Some(p)
    } else {
        println!("note: {path} is absent; liberty test skipped");
        eprintln!("note: {path} is absent; liberty test skipped");
        None
    }
}

/// Writes `src` as `<name>.v` in a fresh folder and returns (folder, request).
fn request(name: &str, src: &str, liberty: Option<PathBuf>) -> (tempfile::TempDir, SynthRequest) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.v"));
    std::fs::write(&file, src).unwrap();
    let req = SynthRequest {
        files: vec![file],
        top: name.to_string(),
        liberty,
        work_dir: dir.path().join("work"),
        macros: vec![],
    };
    (dir, req)
}

/// The `area` attribute of `cell (<name>)` in a gzip-compressed liberty file, read
/// independently of the crate: the first `area : X;` after the cell's header line.
fn cell_area(lib_gz: &Path, cell: &str) -> f64 {
    let f = std::fs::File::open(lib_gz).unwrap();
    let reader = BufReader::new(flate2::read::MultiGzDecoder::new(f));
    let headers = [format!("cell ({cell})"), format!("cell (\"{cell}\")")];
    let mut in_cell = false;
    for line in reader.lines() {
        let line = line.unwrap();
        let t = line.trim();
        if headers.iter().any(|h| t.starts_with(h.as_str())) {
            in_cell = true;
        } else if in_cell && t.starts_with("area") {
            let v = t.split(':').nth(1).unwrap().trim().trim_end_matches(';');
            return v.trim().parse().unwrap();
        }
    }
    panic!("cell {cell} has no area in {}", lib_gz.display());
}

/// The sum of the liberty areas of `cells`, read independently of the crate.
fn cells_area(lib_gz: &Path, cells: &BTreeMap<String, u64>) -> f64 {
    cells
        .iter()
        .map(|(c, n)| *n as f64 * cell_area(lib_gz, c))
        .sum()
}

/// A request for `src` against the liberty file `lib` with the library's path, or `None` (with
/// a note) when the library or Yosys is missing.
fn liberty_request(
    lib: &str,
    name: &str,
    src: &str,
) -> Option<(tempfile::TempDir, SynthRequest, PathBuf)> {
    let lib = pdk(lib)?;
    if !yosys_available() {
        return None;
    }
    let (dir, req) = request(name, src, Some(lib.clone()));
    Some((dir, req, lib))
}

fn cells(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// What every successful run leaves behind, and the JSON round trip.
fn check_outputs(r: &SynthReport, req: &SynthRequest) {
    assert_eq!(r.format_version, FORMAT_VERSION);
    assert_eq!(r.top, req.top);
    assert!(r.yosys_version.starts_with("Yosys "), "{}", r.yosys_version);
    let script = std::fs::read_to_string(&r.script).unwrap();
    assert!(!script.contains("{{"), "unfilled placeholder in {script}");
    assert!(
        r.command.ends_with("yosys -q -l synth.log -s synth.ys"),
        "{}",
        r.command
    );
    let work = r.script.parent().unwrap();
    for f in ["synth.log", "netlist.v", "report.json"] {
        assert!(work.join(f).is_file(), "{f} missing");
    }
    let json = std::fs::read_to_string(work.join("report.json")).unwrap();
    let back: SynthReport = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, r);
    assert_eq!(r.cell_count, r.cells.values().sum::<u64>());
    // In liberty mode OpenSTA timed the netlist; its files stay beside Yosys'.
    assert_eq!(r.sta.is_some(), r.mode == Mode::Liberty);
    if let Some(sta) = &r.sta {
        for f in ["constraints.sdc", "sta.tcl", "sta.txt", "sta.log"] {
            assert!(work.join(f).is_file(), "{f} missing");
        }
        assert!(
            sta.command.ends_with("sta -no_splash -exit sta.tcl"),
            "{}",
            sta.command
        );
        let netlist = std::fs::read_to_string(work.join("netlist.v")).unwrap();
        assert!(!netlist.contains("assign {"), "a concatenation on the left");
    }
}

#[test]
fn generic_xor2_is_one_gate() {
    if !yosys_available() {
        return;
    }
    let (_dir, req) = request("xor2", XOR2, None);
    let r = synthesize(&req).unwrap();
    check_outputs(&r, &req);
    assert_eq!(r.mode, Mode::Generic);
    assert_eq!(r.cells, cells(&[("$_XOR_", 1)]));
    assert_eq!(r.cell_count, 1);
    assert_eq!(r.depth_gates, Some(1));
    // Yosys' CMOS cost table (kernel/cost.h, `cmos_gate_cost`) counts an XOR as 12
    // transistors: a static CMOS XOR2 with its two input inverters.
    assert_eq!(r.transistors, Some(12));
    assert!(!r.transistors_partial);
    assert_eq!(r.registers, 0);
    assert_eq!((r.area_um2, r.delay_ps, r.fmax_mhz), (None, None, None));
    assert_eq!(r.liberty, None);
}

#[test]
fn generic_mux4_is_a_tree_of_three_mux2() {
    if !yosys_available() {
        return;
    }
    let (_dir, req) = request("mux4", MUX4, None);
    let r = synthesize(&req).unwrap();
    check_outputs(&r, &req);
    // With MUX in the gate set, y = d[s] is two 2:1 muxes on s[0] feeding one on s[1]:
    // 3 cells, 2 levels. Two-input gates alone would need 3 cells per 2:1 mux (at least
    // depth 4 for the whole), so ABC keeps the mux tree.
    assert_eq!(r.cells, cells(&[("$_MUX_", 3)]));
    assert_eq!(r.depth_gates, Some(2));
    // MUX is 12 transistors in the CMOS table.
    assert_eq!(r.transistors, Some(36));
    assert_eq!(r.registers, 0);
}

#[test]
fn generic_register_counts_one_flop() {
    if !yosys_available() {
        return;
    }
    let (_dir, req) = request("xor_reg", XOR_REG, None);
    let r = synthesize(&req).unwrap();
    check_outputs(&r, &req);
    assert_eq!(r.registers, 1);
    // $_DFF_PN0_: positive clock edge, active-low (N) reset to 0.
    assert_eq!(r.cells, cells(&[("$_DFF_PN0_", 1), ("$_XOR_", 1)]));
    // ltp -noff stops at the flop: a_i/b_i -> XOR -> D is one gate.
    assert_eq!(r.depth_gates, Some(1));
    // The reset flop has no CMOS cost in Yosys: 12 (the XOR) is a lower bound.
    assert_eq!(r.transistors, Some(12));
    assert!(r.transistors_partial);
    assert_eq!(r.fmax_mhz, None);
}

#[test]
fn liberty_xor2_nangate45_area_is_one_xor2_x1() {
    let Some((_dir, req, lib)) = liberty_request(NANGATE45, "xor2", XOR2) else {
        return;
    };
    let r = synthesize(&req).unwrap();
    check_outputs(&r, &req);
    assert_eq!(r.mode, Mode::Liberty);
    let liberty = r.liberty.as_deref().unwrap();
    assert!(liberty.starts_with("NangateOpenCellLibrary ("), "{liberty}");
    assert!(liberty.contains("nangate45_typ.lib.gz"), "{liberty}");
    assert_eq!(r.cells, cells(&[("XOR2_X1", 1)]));
    let xor = cell_area(&lib, "XOR2_X1");
    assert!(
        (r.area_um2.unwrap() - xor).abs() < 1e-6,
        "{:?} vs {xor}",
        r.area_um2
    );
    let d = r.delay_ps.unwrap();
    // One NanGate45 gate: tens of ps (the liberty is in ns, ABC reports ps).
    assert!(d > 5.0 && d < 500.0, "{d}");
    assert_eq!(r.depth_gates, Some(1));
    let p = r.critical_path.as_ref().unwrap();
    assert!(p.from == "\\a_i" || p.from == "\\b_i", "{p:?}");
    assert_eq!(p.to, "\\y_o");
    assert_eq!(r.registers, 0);
    assert_eq!(
        (r.reg_delay_ps, r.fmax_mhz, r.transistors),
        (None, None, None)
    );
}

#[test]
fn liberty_mux4_nangate45_area_within_hand_count() {
    let Some((_dir, req, lib)) = liberty_request(NANGATE45, "mux4", MUX4) else {
        return;
    };
    let r = synthesize(&req).unwrap();
    check_outputs(&r, &req);
    // NanGate45 has no MUX4. A tree of three MUX2_X1 is the hand-count upper bound;
    // ABC may find something smaller with complex gates, but not below one MUX2_X1, the
    // cheapest cell that already selects between two data inputs.
    let mux2 = cell_area(&lib, "MUX2_X1");
    let area = r.area_um2.unwrap();
    assert!(area >= mux2 - 1e-6 && area <= 3.0 * mux2 + 1e-6, "{area}");
    // The area is exactly the sum of the cells' liberty areas.
    let sum = cells_area(&lib, &r.cells);
    assert!((area - sum).abs() < 1e-6, "{area} vs {sum}");
    let d = r.delay_ps.unwrap();
    assert!(d > 0.0 && d < 1000.0, "{d}");
    assert!(r.depth_gates.unwrap() >= 1);
}

#[test]
fn liberty_register_sky130_reports_fmax() {
    let Some((_dir, req, lib)) = liberty_request(SKY130, "xor_reg", XOR_REG) else {
        return;
    };
    let r = synthesize(&req).unwrap();
    check_outputs(&r, &req);
    assert!(r
        .liberty
        .as_deref()
        .unwrap()
        .starts_with("sky130_fd_sc_hd__tt_025C_1v80 ("));
    assert_eq!(r.registers, 1);
    assert_eq!(r.cell_count, 2);
    // One flip-flop with async reset (dfrtp: D flop, reset, true output).
    let flops: Vec<&String> = r.cells.keys().filter(|c| c.contains("__dfrtp_")).collect();
    assert_eq!(flops.len(), 1, "{:?}", r.cells);
    let sum = cells_area(&lib, &r.cells);
    assert!((r.area_um2.unwrap() - sum).abs() < 1e-6);
    // The only logic is a_i/b_i -> XOR -> the flop's D input.
    let d = r.delay_ps.unwrap();
    assert!(d > 10.0 && d < 1000.0, "{d}");
    assert_eq!(r.reg_delay_ps, Some(d));
    let f = r.fmax_mhz.unwrap();
    assert!((f - 1e6 / d).abs() < 1e-9);
    let p = r.critical_path.as_ref().unwrap();
    assert!(p.to.contains('q') && p.to != "\\q_o", "{p:?}");

    let table = render_table(&[r]);
    assert!(table.contains("sky130_fd_sc_hd__tt_025C_1v80"), "{table}");
}

#[test]
fn missing_liberty_names_the_path() {
    let (_dir, mut req) = request("xor2", XOR2, None);
    let missing = req.work_dir.join("no_such.lib.gz");
    req.liberty = Some(missing.clone());
    let e = synthesize(&req).unwrap_err();
    assert!(
        matches!(&e, Error::Liberty { path, .. } if *path == missing),
        "{e:?}"
    );
    assert!(e.to_string().contains("no_such.lib.gz"), "{e}");
}

#[test]
fn missing_verilog_file_is_an_input_error() {
    let (_dir, mut req) = request("xor2", XOR2, None);
    req.files = vec![PathBuf::from("/nonexistent/xor2.v")];
    let e = synthesize(&req).unwrap_err();
    assert!(matches!(e, Error::Input { .. }), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/xor2.v"));
}

#[test]
fn syntax_error_carries_yosys_error_line() {
    if !yosys_available() {
        return;
    }
    let bad = "module bad (input a_i, output y_o);\n  assign y_o = a_i +;\nendmodule\n";
    let (_dir, req) = request("bad", bad, None);
    let e = synthesize(&req).unwrap_err();
    let Error::Rejected { message, log, top } = &e else {
        panic!("expected Rejected, got {e:?}");
    };
    assert_eq!(top, "bad");
    assert!(message.contains("ERROR: syntax error"), "{message}");
    assert!(message.contains("bad.v:2"), "{message}");
    assert!(log.is_file());
    assert!(e.to_string().contains("ERROR: syntax error"));
}

#[test]
fn unknown_top_is_rejected() {
    if !yosys_available() {
        return;
    }
    let (_dir, mut req) = request("xor2", XOR2, None);
    req.top = "nosuch".into();
    let e = synthesize(&req).unwrap_err();
    assert!(
        matches!(&e, Error::Rejected { message, .. } if message.contains("nosuch")),
        "{e:?}"
    );
}

#[test]
fn check_accepts_a_clean_design_and_names_the_problem_of_a_bad_one() {
    if !yosys_available() {
        return;
    }
    let (_dir, req) = request("mux4", MUX4, None);
    synth::check(&req.files, "mux4").unwrap();

    // Two drivers on one wire: `check -assert` must refuse it.
    let two_drivers = "module two_drivers (input a_i, input b_i, output y_o);\n\
                       \x20 assign y_o = a_i;\n  assign y_o = b_i;\nendmodule\n";
    let (_dir, req) = request("two_drivers", two_drivers, None);
    let e = synth::check(&req.files, "two_drivers").unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::CheckFailed { .. }), "{e:?}");
    assert!(msg.contains("check -assert"), "{msg}");
    assert!(msg.contains("multiple conflicting drivers"), "{msg}");
    assert!(!msg.contains('\n'), "one line: {msg}");

    // A top that is not in the file.
    let (_dir, req) = request("mux4", MUX4, None);
    let e = synth::check(&req.files, "no_such_top").unwrap_err();
    assert!(e.to_string().contains("no_such_top"), "{e}");
}

/// `y = d & (s0 ^ s1)`: the XOR reads only the select `s_i`, which the timing-driven flow may
/// treat as static; the AND is the only cell on the data path.
const GATED: &str = "module gated (input d_i, input [1:0] s_i, output y_o);\n\
                     \x20 assign y_o = d_i & (s_i[0] ^ s_i[1]);\nendmodule\n";

/// `src` synthesized with NanGate45 in the default liberty flow, or `None` (with a note) when
/// the library or Yosys is missing.
fn nangate45_report(name: &str, src: &str) -> Option<(tempfile::TempDir, SynthReport)> {
    let (dir, req, _) = liberty_request(NANGATE45, name, src)?;
    let r = synthesize(&req).unwrap();
    check_outputs(&r, &req);
    Some((dir, r))
}

/// Two tools that read the liberty tables apart (ABC's `sclLiberty.c`, OpenSTA) time the same
/// netlist alike: with no wire load, ideal inputs and unloaded outputs, OpenSTA's worst
/// input-to-output path is ABC's `stime` delay, over as many cells.
#[test]
fn opensta_without_wires_agrees_with_abc_stime() {
    for (name, src) in [("xor2", XOR2), ("mux4", MUX4), ("gated", GATED)] {
        let Some((_dir, req, _)) = liberty_request(NANGATE45, name, src) else {
            return;
        };
        let timing = synth::Timing {
            wire_load: synth::WireLoad::None,
            ..Default::default()
        };
        let r = synth::synthesize_with(&req, &timing).unwrap();
        check_outputs(&r, &req);
        let sta = r.sta.as_ref().unwrap();
        let worst = sta.critical_path.as_ref().unwrap();
        let abc = r.delay_ps.unwrap();
        assert!(
            (worst.delay_ps - abc).abs() < 0.1,
            "{name}: {worst:?} vs ABC {abc}"
        );
        assert_eq!(
            worst.cells,
            r.critical_path.as_ref().unwrap().cells,
            "{name}"
        );
        // A combinational block: a virtual clock at the default 1 GHz, no clock-to-Q.
        assert_eq!((sta.clock.as_str(), sta.period_ps), ("virtual_clk", 1000.0));
        assert!((sta.worst_slack_ps.unwrap() - (1000.0 - worst.delay_ps)).abs() < 0.1);
        assert!(
            (sta.min_period_ps.unwrap() - worst.delay_ps).abs() < 0.1,
            "{sta:?}"
        );
        assert!(worst.clock_to_q_ps.is_none() && sta.meets);
        // With the library's wire-load model every net costs more.
        let (_d, req) = request(name, src, Some(PathBuf::from(NANGATE45)));
        let wired = synthesize(&req).unwrap();
        let w = wired.sta.unwrap().critical_path.unwrap();
        assert!(w.delay_ps > worst.delay_ps, "{name}: {w:?}");
    }
}

#[test]
fn per_input_groups_by_hand() {
    let Some((_dir, r)) = nangate45_report("mux4", MUX4) else {
        return;
    };
    // Two groups: the data bits and the select bits, each reaching y_o.
    let groups = &r.sta.as_ref().unwrap().groups;
    let names: Vec<&str> = groups.iter().map(|p| p.from.as_str()).collect();
    assert_eq!(names, ["d_i", "s_i"]);
    for p in groups {
        assert_eq!(p.end, "y_o");
        assert!(p.start.starts_with(&format!("{}[", p.from)), "{p:?}");
        assert!(p.cells >= 1 && p.delay_ps > 0.0 && !p.false_path, "{p:?}");
    }
}

/// A register between two inverters, clocked: OpenSTA's clock-to-Q and setup come from the
/// library's tables (NanGate45's DFF_X1: tens of ps each), and the smallest period is the
/// worst path's arrival plus its setup.
#[test]
fn a_register_path_counts_clock_to_q_and_setup() {
    let src = "module regpath (input clk_i, input a_i, output y_o);\n\
               \x20 reg q;\n  always @(posedge clk_i) q <= ~a_i;\n  assign y_o = ~q;\nendmodule\n";
    let Some((_dir, req, _)) = liberty_request(NANGATE45, "regpath", src) else {
        return;
    };
    let timing = synth::Timing {
        clock: Some("clk_i".into()),
        clock_ps: Some(500.0),
        ..Default::default()
    };
    let r = synth::synthesize_with(&req, &timing).unwrap();
    check_outputs(&r, &req);
    let sta = r.sta.as_ref().unwrap();
    assert_eq!((sta.clock.as_str(), sta.period_ps), ("clk_i", 500.0));
    let into = sta.group("a_i").unwrap();
    assert_eq!(into.end, "q", "the register is named after its net");
    assert!((5.0..100.0).contains(&into.setup_ps), "{into:?}");
    assert!(
        (into.required_ps - (500.0 - into.setup_ps)).abs() < 0.1,
        "{into:?}"
    );
    let out = sta.group("flip-flops").unwrap();
    let cq = out.clock_to_q_ps.unwrap();
    assert!((20.0..200.0).contains(&cq), "{out:?}");
    assert_eq!((out.start.as_str(), out.end.as_str()), ("q", "y_o"));
    let needs = (into.delay_ps + into.setup_ps).max(out.delay_ps);
    assert!((sta.min_period_ps.unwrap() - needs).abs() < 0.1, "{sta:?}");
    let slack = sta.worst_slack_ps.unwrap();
    assert!((slack - (500.0 - needs)).abs() < 0.1, "{sta:?}");
}

#[test]
fn timing_driven_flow_maps_static_logic_apart() {
    let Some((_dir, req, lib)) = liberty_request(NANGATE45, "gated", GATED) else {
        return;
    };
    let timing = synth::Timing {
        target_ps: Some(100.0),
        static_inputs: vec!["s_i".into()],
        ..Default::default()
    };
    let r = synth::synthesize_with(&req, &timing).unwrap();
    check_outputs(&r, &req);
    assert_eq!(r.target_ps, Some(100.0));
    assert_eq!(r.static_inputs, ["s_i"]);
    let work = r.script.parent().unwrap();
    let ys = std::fs::read_to_string(work.join("synth.ys")).unwrap();
    assert!(
        ys.contains("submod -name static_cone @static_logic"),
        "{ys}"
    );
    // ABC sizes with the wire-load model OpenSTA times with (the library's), and its
    // boundary constraints: the library's smallest buffer drives and loads.
    let abc = std::fs::read_to_string(work.join("timing.abc")).unwrap();
    assert!(
        abc.contains("map -D 100\n") && abc.contains("upsize -c -D 100\n"),
        "{abc}"
    );
    let constr = std::fs::read_to_string(work.join("abc.constr")).unwrap();
    assert!(
        constr.starts_with("set_driving_cell BUF_X1\nset_load "),
        "{constr}"
    );
    // ABC mapped the select's XOR on its own (the static cone: one two-input XOR or XNOR)...
    let cone = std::fs::read_to_string(work.join("abc_static.txt")).unwrap();
    assert!(
        cone.contains("XOR2_X") || cone.contains("XNOR2_X"),
        "{cone}"
    );
    // ...and the data path is the AND after it: one gate, or (NanGate45 has no AND with an
    // inverted input, and the cone may come out as XNOR) an inverter and a NOR2.
    let d = r.path_from("d_i").unwrap();
    let s = r.path_from("s_i").unwrap();
    assert!((1..=2).contains(&d.cells), "{d:?}");
    assert_eq!(s.cells, 2, "{s:?}");
    // s_i is a false path in OpenSTA's constraints: reported, not counted; the clock is the
    // target (100 ps) on a virtual clock.
    assert!(s.false_path && !d.false_path);
    let sta = r.sta.as_ref().unwrap();
    assert_eq!(sta.period_ps, 100.0);
    assert_eq!(sta.critical_path.as_ref().unwrap().from, "d_i");
    let sdc = std::fs::read_to_string(&sta.sdc).unwrap();
    assert!(
        sdc.contains("set_false_path -from [get_ports {s_i}]"),
        "{sdc}"
    );
    // The area is the sum of the cells' liberty areas.
    let sum = cells_area(&lib, &r.cells);
    assert!((r.area_um2.unwrap() - sum).abs() < 1e-6);
}

/// `timing` on a request without a liberty file is refused with an error that says `says`,
/// before anything is written.
fn refused_before_writing(timing: synth::Timing, says: &str) {
    let (_dir, req) = request("xor2", XOR2, None);
    let e = synth::synthesize_with(&req, &timing).unwrap_err();
    assert!(e.to_string().contains(says), "{e}");
    assert!(!req.work_dir.exists(), "nothing written");
}

#[test]
fn a_target_needs_a_liberty() {
    let timing = synth::Timing {
        target_ps: Some(100.0),
        ..Default::default()
    };
    refused_before_writing(timing, "needs a liberty file");
}

/// A 44-bit up/down counter: ABC's `dc2` turns its increment into a ripple chain that the
/// delay-driven mapper cannot shorten (docs/QOR.md), so the mappings of a closure run differ.
const COUNT44: &str = "module count44 (input clk_i, input down_i, output reg [43:0] q_o);\n\
                       \x20 always @(posedge clk_i) q_o <= down_i ? q_o - 44'd1 : q_o + 44'd1;\n\
                       endmodule\n";

#[test]
fn closure_maps_four_ways_and_keeps_the_fastest_when_none_meets_the_target() {
    let Some((_dir, req, lib)) = liberty_request(NANGATE45, "count44", COUNT44) else {
        return;
    };
    let timing = synth::Timing {
        target_ps: Some(300.0),
        clock: Some("clk_i".into()),
        closure: true,
        ..Default::default()
    };
    let r = synth::synthesize_with(&req, &timing).unwrap();
    assert_eq!(r.target_ps, Some(300.0));
    let names: Vec<&str> = r.closure.iter().map(|t| t.variant.as_str()).collect();
    assert_eq!(names, ["dc2", "dc2_tight", "no_dc2", "no_dc2_tight"]);
    let kept: Vec<_> = r.closure.iter().filter(|t| t.kept).collect();
    assert_eq!(kept.len(), 1, "{:?}", r.closure);
    let kept = kept[0];
    for t in &r.closure {
        // Each mapping's own folder holds its script and report, for its own ABC target.
        let abc = std::fs::read_to_string(t.work_dir.join("timing.abc")).unwrap();
        assert_eq!(abc.lines().any(|l| l == "dc2"), t.dc2, "{abc}");
        assert!(
            abc.contains(&format!("map -D {}\n", t.abc_target_ps)),
            "{abc}"
        );
        let own: SynthReport =
            serde_json::from_str(&std::fs::read_to_string(t.work_dir.join("report.json")).unwrap())
                .unwrap();
        assert_eq!(own.target_ps, Some(t.abc_target_ps));
        assert_eq!(
            (own.area_um2, own.delay_ps),
            (Some(t.area_um2), Some(t.delay_ps))
        );
        assert!(own.closure.is_empty());
        // Every mapping is timed by OpenSTA at the clock (the target here).
        let sta = own.sta.as_ref().unwrap();
        assert_eq!(
            (sta.period_ps, sta.min_period_ps),
            (300.0, Some(t.min_period_ps))
        );
        // Nothing meets 300 ps, clock-to-Q and setup included, so the fastest is kept.
        assert!(t.min_period_ps > 300.0, "{t:?}");
        assert!(kept.min_period_ps <= t.min_period_ps, "{:?}", r.closure);
    }
    let tight: Vec<f64> = r.closure.iter().map(|t| t.abc_target_ps).collect();
    assert_eq!(tight, [300.0, 270.0, 300.0, 270.0]);
    // Without dc2 the increment maps far faster: the reason closure exists.
    let fastest = |dc2: bool| {
        r.closure
            .iter()
            .filter(|t| t.dc2 == dc2)
            .map(|t| t.delay_ps)
            .fold(f64::INFINITY, f64::min)
    };
    assert!(fastest(false) * 1.3 < fastest(true), "{:?}", r.closure);
    // The report is the kept mapping's, and its netlist is copied up to the work folder.
    assert_eq!(
        (r.area_um2, r.delay_ps),
        (Some(kept.area_um2), Some(kept.delay_ps))
    );
    assert_eq!(r.script, kept.work_dir.join("synth.ys"));
    assert_eq!(
        std::fs::read(req.work_dir.join("netlist.v")).unwrap(),
        std::fs::read(kept.work_dir.join("netlist.v")).unwrap()
    );
    let top: SynthReport =
        serde_json::from_str(&std::fs::read_to_string(req.work_dir.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(top, r);
    let sum = cells_area(&lib, &r.cells);
    assert!((r.area_um2.unwrap() - sum).abs() < 1e-6);
}

#[test]
fn closure_needs_a_target() {
    let timing = synth::Timing {
        closure: true,
        ..Default::default()
    };
    refused_before_writing(timing, "closure needs a delay target");
}

/// A write-data register fanning out to a 32-entry latch table: 4 bits, each wired straight
/// to 32 latches (ABC never sees those nets), read back through a 32:1 multiplexer.
const LATCH_TABLE: &str = "module latch_table (input clk_i, input [3:0] d_i, input [31:0] we_i,
  input [4:0] sel_i, output [3:0] q_o);
  reg [3:0] wd_q;
  always @(posedge clk_i) wd_q <= d_i;
  reg [3:0] mem [0:31];
  genvar i;
  generate for (i = 0; i < 32; i = i + 1) begin : g_entry
    always @* if (clk_i & we_i[i]) mem[i] = wd_q;
  end endgenerate
  assign q_o = mem[sel_i];
endmodule
";

#[test]
fn timing_driven_flow_gives_a_register_with_a_large_fanout_a_stronger_cell() {
    let Some((_dir, req, lib)) = liberty_request(NANGATE45, "latch_table", LATCH_TABLE) else {
        return;
    };
    // The default flow keeps dfflibmap's smallest flip-flop.
    let plain = synth::synthesize(&req).unwrap();
    assert_eq!(plain.cells.get("DFF_X1"), Some(&4), "{:?}", plain.cells);
    assert!(plain.sta.as_ref().unwrap().resized.is_empty());
    let timing = synth::Timing {
        target_ps: Some(300.0),
        clock: Some("clk_i".into()),
        ..Default::default()
    };
    let r = synth::synthesize_with(&req, &timing).unwrap();
    check_outputs(&r, &req);
    // Each of the 4 write-data flip-flops drives 32 latches (more than 16 pins): DFF_X2.
    let sta = r.sta.as_ref().unwrap();
    assert_eq!(sta.resized.len(), 4, "{:?}", sta.resized);
    assert!(sta
        .resized
        .iter()
        .all(|s| s.from == "DFF_X1" && s.to == "DFF_X2"));
    assert_eq!(r.cells.get("DFF_X2"), Some(&4), "{:?}", r.cells);
    assert_eq!(r.cells.get("DFF_X1"), None, "{:?}", r.cells);
    assert_eq!(r.cells.get("DLH_X1"), Some(&128), "{:?}", r.cells);
    // The area counts the stronger cells, and OpenSTA wrote the netlist it timed.
    let sum = cells_area(&lib, &r.cells);
    assert!(
        (r.area_um2.unwrap() - sum).abs() < 1e-6,
        "{} {sum}",
        r.area_um2.unwrap()
    );
    let work = r.script.parent().unwrap();
    let sized = std::fs::read_to_string(work.join("netlist_sized.v")).unwrap();
    assert_eq!(sized.matches("DFF_X2 ").count(), 4, "{sized}");
}
