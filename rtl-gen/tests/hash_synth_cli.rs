//! `rtl-gen synth` and `rtl-gen sweep hash` end to end, through the binary: what they write,
//! and how they fail. A handful of Yosys runs, each well under a second.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const NANGATE45: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/pdk/nangate45_typ.lib.gz"
);

fn rtl_gen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(args)
        .output()
        .expect("rtl-gen runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Generates the paper's configurable bit-vector XOR hasher into `out` and returns its folder.
fn bvxor_block(out: &Path) -> PathBuf {
    let o = rtl_gen(&[
        "hash",
        "--kind",
        "bitvector-xor",
        "--addr-bits",
        "14",
        "--banks",
        "32",
        "--configurable",
        "--vectors",
        "16",
        "--configs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    out.join("hash_bvxor_n14_b32_cfg")
}

fn synth_json(dir: &Path) -> serde_json::Value {
    let s = std::fs::read_to_string(dir.join("synth.json")).expect("synth.json written");
    serde_json::from_str(&s).expect("synth.json is JSON")
}

#[test]
fn synth_writes_a_generic_report_that_names_its_tools_and_command() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = bvxor_block(tmp.path());
    let o = rtl_gen(&["synth", dir.to_str().unwrap()]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{}{}", stdout, text(&o.stderr));
    assert!(
        stdout.contains("hash_bvxor_n14_b32_cfg  generic"),
        "{stdout}"
    );
    assert!(stdout.contains("reproduce: rtl-gen synth "), "{stdout}");

    let j = synth_json(&dir);
    assert_eq!(j["format_version"], 3);
    assert_eq!(j["top"], "hash_bvxor_n14_b32_cfg");
    assert_eq!(j["family"], "hash");
    assert_eq!(j["timing"]["kind"], "combinational");
    assert_eq!(j["kind"], "bitvector-xor");
    assert_eq!(j["variant"], "configurable");
    assert_eq!(j["parameters"]["BANKS"], 32);
    let cmd = j["command"].as_str().unwrap();
    assert!(
        cmd.starts_with("rtl-gen synth ") && cmd.ends_with("hash_bvxor_n14_b32_cfg"),
        "{cmd}"
    );
    let r = &j["report"];
    assert_eq!(r["mode"], "generic");
    assert!(r["yosys_version"].as_str().unwrap().starts_with("Yosys "));
    assert!(r["liberty"].is_null());
    assert_eq!(r["registers"], 0);
    // Two shifted 5-bit vectors, a mask and an XOR: tens of gates, a handful of levels.
    let cells = r["cell_count"].as_u64().unwrap();
    assert!((30..=400).contains(&cells), "cells {cells}");
    let depth = r["depth_gates"].as_u64().unwrap();
    assert!((3..=12).contains(&depth), "depth {depth}");
    assert!(r["transistors"].as_u64().unwrap() > 4 * cells);
    assert!(r["area_um2"].is_null() && r["delay_ps"].is_null() && r["sta"].is_null());
    // The Yosys command reruns the flow in the block's work folder.
    let yosys_cmd = r["command"].as_str().unwrap();
    assert!(yosys_cmd.contains("/synth &&"), "{yosys_cmd}");
    assert!(dir.join("synth/synth.ys").is_file());
}

#[test]
fn synth_with_a_liberty_reports_area_and_delay() {
    if !Path::new(NANGATE45).is_file() {
        eprintln!("note: {NANGATE45} absent; test skipped");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = bvxor_block(tmp.path());
    let o = rtl_gen(&[
        "synth",
        dir.to_str().unwrap(),
        "--liberty",
        NANGATE45,
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let j = synth_json(&dir);
    assert_eq!(printed, j);
    let r = &j["report"];
    assert_eq!(r["mode"], "liberty");
    assert!(r["liberty"]
        .as_str()
        .unwrap()
        .starts_with("NangateOpenCellLibrary ("));
    assert!(j["command"].as_str().unwrap().contains("--liberty"));
    // A few dozen NanGate45 cells of ~1 um² each, a few gate delays of tens of ps.
    let area = r["area_um2"].as_f64().unwrap();
    assert!((20.0..2000.0).contains(&area), "area {area}");
    let delay = r["delay_ps"].as_f64().unwrap();
    assert!((50.0..2000.0).contains(&delay), "delay {delay}");
    assert!(r["fmax_mhz"].is_null(), "combinational: no fmax");
}

#[test]
fn synth_failures_are_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = bvxor_block(tmp.path());
    let bad_lib = tmp.path().join("no_such.lib.gz");
    let o = rtl_gen(&[
        "synth",
        dir.to_str().unwrap(),
        "--liberty",
        bad_lib.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: liberty file "), "{err}");
    assert!(err.contains("no_such.lib.gz"), "{err}");
    assert!(!dir.join("synth.json").exists());

    let o = rtl_gen(&["synth", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("manifest"), "{err}");

    // A design Yosys rejects: break the block's Verilog.
    let rtl = dir.join("hash_bvxor_n14_b32_cfg.v");
    std::fs::write(
        &rtl,
        "module hash_bvxor_n14_b32_cfg (input a_i;\nendmodule\n",
    )
    .unwrap();
    let o = rtl_gen(&["synth", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Yosys rejected design"), "{err}");
}

#[test]
fn sweep_tabulates_plots_and_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sweep");
    let o = rtl_gen(&[
        "sweep",
        "hash",
        "--kinds",
        "modulo,bitvector-xor",
        "--banks",
        "4,8",
        "--addr-bits",
        "6",
        "--configurable",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{}{stderr}", text(&o.stdout));
    // Modulo has nothing to configure: reported, skipped, the rest goes on.
    assert!(
        stderr.contains("skipped: modulo-n6-b4: kind modulo has nothing to configure"),
        "{stderr}"
    );

    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(lines[0].starts_with("kind,variant,pipeline,addr_bits,banks,top,status,"));
    assert!(
        lines[1].starts_with("modulo,configurable,false,6,4,,skipped,"),
        "{csv}"
    );
    assert!(
        lines[3].starts_with("bitvector-xor,configurable,false,6,4,hash_bvxor_n6_b4_cfg,ok,"),
        "{csv}"
    );

    common::assert_schema_file("sweep.schema.json", &out.join("results.json"));
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert!(j["command"]
        .as_str()
        .unwrap()
        .starts_with("rtl-gen sweep hash"));
    let p = &j["points"][3];
    assert_eq!(p["status"], "ok");
    assert_eq!(p["block"], "blocks/hash_bvxor_n6_b8_cfg");
    assert!(p["synth"]["report"]["transistors"].as_u64().unwrap() > 0);
    assert!(out.join("blocks/hash_bvxor_n6_b8_cfg/synth.json").is_file());
    for svg in ["transistors_vs_banks.svg", "depth_gates_vs_banks.svg"] {
        let s = std::fs::read_to_string(out.join(svg)).unwrap();
        assert!(s.contains("<svg") && s.contains("bitvector-xor"), "{svg}");
    }
}

fn nangate45() -> Option<&'static str> {
    if Path::new(NANGATE45).is_file() {
        Some(NANGATE45)
    } else {
        println!("note: {NANGATE45} is absent; liberty test skipped");
        None
    }
}

#[test]
fn synth_target_bad_values_are_one_line_exit_2_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = bvxor_block(tmp.path());
    let lib = NANGATE45;
    for (args, fragment) in [
        (
            vec!["--liberty", lib, "--target-ps", "abc"],
            "--target-ps abc: not a delay target",
        ),
        (
            vec!["--liberty", lib, "--target-ps", "0"],
            "--target-ps 0: not a delay target",
        ),
        (
            vec!["--liberty", lib, "--target-ps", "-5"],
            "--target-ps -5: not a delay target",
        ),
        (
            vec!["--liberty", lib, "--target-ps", "inf"],
            "--target-ps inf: not a delay target",
        ),
        (
            vec!["--liberty", lib, "--target-ps", "1e30"],
            "--target-ps 1e30: not a delay target (a positive number of ps up to 1e9",
        ),
        (
            vec!["--target-ps", "150"],
            "--target-ps 150: needs --liberty",
        ),
        (vec!["--liberty", lib, "--closure"], "--target-ps"),
        (
            vec!["--liberty", lib, "--clock-ps", "0"],
            "--clock-ps 0: not a delay target",
        ),
        (vec!["--clock-ps", "900"], "--clock-ps 900: needs --liberty"),
        (
            vec!["--wire-load", "none"],
            "--wire-load none: needs --liberty",
        ),
        (
            vec!["--liberty", lib, "--wire-load", "huge"],
            "--wire-load huge: not a wire-load model of the library (library, none, 1K_hvratio_1_4",
        ),
    ] {
        let mut all = vec!["synth", dir.to_str().unwrap()];
        all.extend(args.iter().copied());
        let o = rtl_gen(&all);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(fragment),
            "{args:?}: {err}"
        );
        assert!(!dir.join("synth.json").exists(), "{args:?}");
        assert!(!dir.join("synth").exists(), "{args:?}");
    }
}

#[test]
fn synth_reports_the_address_path_apart_from_the_config_path() {
    let Some(lib) = nangate45() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = bvxor_block(tmp.path());
    let d = dir.to_str().unwrap();

    // Default flow, OpenSTA without wires: ABC's delay (every path, cfg_i's included) is the
    // slower of the two paths, as OpenSTA times them.
    let o = rtl_gen(&["synth", d, "--liberty", lib, "--wire-load", "none"]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    assert!(stdout.contains("paths from addr_i: "), "{stdout}");
    assert!(stdout.contains("configuration path from cfg_i (static: false path, 0 flip-flops): "));
    assert!(
        stdout.contains("OpenSTA: clock virtual_clk at 1000 ps, no wire load"),
        "{stdout}"
    );
    let j = synth_json(&dir);
    let h = &j["hasher_paths"];
    let (addr, cfg) = (
        h["address_to_bank_ps"].as_f64().unwrap(),
        h["config_to_bank_ps"].as_f64().unwrap(),
    );
    let abc = j["report"]["delay_ps"].as_f64().unwrap();
    assert!((addr.max(cfg) - abc).abs() < 0.1, "{addr} {cfg} {abc}");
    // cfg_i is a false path: the worst slack is the address path's.
    let sta = &j["report"]["sta"];
    let slack = sta["worst_slack_ps"].as_f64().unwrap();
    assert!((slack - (1000.0 - addr)).abs() < 0.1, "{sta:#}");
    let sdc = std::fs::read_to_string(dir.join("synth/constraints.sdc")).unwrap();
    assert!(
        sdc.contains("set_false_path -from [get_ports {cfg_i}]"),
        "{sdc}"
    );
    // The library's wire-load model (the default) makes every path slower.
    let o = rtl_gen(&["synth", d, "--liberty", lib]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let wired = synth_json(&dir)["hasher_paths"]["address_to_bank_ps"]
        .as_f64()
        .unwrap();
    assert!(wired > addr, "{wired} vs {addr}");
    assert_eq!(h["config_flops"], 0);
    assert!(h["config_exception"]
        .as_str()
        .unwrap()
        .contains("false path"));
    assert!(j["report"]["target_ps"].is_null());
    assert_eq!(j["report"]["static_inputs"][0], "cfg_i");

    // Timing-driven: the target is recorded and reproduced by the recorded command.
    let o = rtl_gen(&["synth", d, "--liberty", lib, "--target-ps", "200"]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    assert!(
        stdout.contains("flow: timing-driven, target 200 ps"),
        "{stdout}"
    );
    let j = synth_json(&dir);
    assert_eq!(j["report"]["target_ps"], 200.0);
    assert!(j["command"].as_str().unwrap().ends_with("--target-ps 200"));
    let paths = j["report"]["sta"]["groups"].as_array().unwrap();
    let addr_path = paths.iter().find(|p| p["from"] == "addr_i").unwrap();
    assert_eq!(
        j["report"]["sta"]["period_ps"], 200.0,
        "the clock is the target"
    );
    assert_eq!(
        j["hasher_paths"]["address_to_bank_ps"],
        addr_path["delay_ps"]
    );
    assert!(addr_path["end"].as_str().unwrap().starts_with("bank_o["));
}

#[test]
fn sweep_targets_writes_the_figure_and_refuses_bad_targets() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("fig");
    let refused = |targets: &str, needle: &str| {
        let o = rtl_gen(&[
            "sweep",
            "targets",
            "--liberty",
            NANGATE45,
            "--targets",
            targets,
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
        assert!(!out.exists());
    };
    refused("150,x", "--targets x: not a delay target");
    // A target past 10^9 ps (ABC fails from about 10^15 ps on) is refused before any work.
    refused("150,1e30", "--targets 1e30: not a delay target");
    // One past the limit of distinct targets is refused before any work.
    let many: Vec<String> = (1..=1001).map(|t| t.to_string()).collect();
    refused(&many.join(","), "--targets 1001: at most 1000");

    let Some(lib) = nangate45() else { return };
    let o = rtl_gen(&[
        "sweep",
        "targets",
        "--kinds",
        "bitvector-perm",
        "--addr-bits",
        "6",
        "--banks",
        "4",
        "--liberty",
        lib,
        "--targets",
        "150",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].starts_with("bitvector-perm,default,"), "{csv}");
    assert!(lines[2].starts_with("bitvector-perm,150,"), "{csv}");
    assert!(lines[2].contains("--target-ps 150"), "{csv}");
    common::assert_schema_file("target-sweep.schema.json", &out.join("results.json"));
    assert!(out
        .join("blocks/t150/hash_bvperm_n6_b4_cfg/synth.json")
        .is_file());
    for svg in ["area_vs_target.svg", "address_delay_vs_target.svg"] {
        let s = std::fs::read_to_string(out.join(svg)).unwrap();
        assert!(s.contains("<svg") && s.contains("bitvector-perm"), "{svg}");
    }
}
