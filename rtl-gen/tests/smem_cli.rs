//! `rtl-gen smem` on the command line: refusals (one line, exit status 2, nothing written),
//! `--help`, `--json`, and kernels replayed through the RTL with cycles the RTL counts itself,
//! checked against values worked out by hand; the replay's `--json` against its schema.

mod common;

use common::{assert_schema, schema_errors};
use std::path::Path;
use std::process::{Command, Output};

fn smem(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .arg("smem")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let cfg12 = tmp.path().join("cfg12.json");
    std::fs::write(
        &cfg12,
        r#"{"kind": "bitvector-xor", "addr_bits": 12, "banks": 32, "k1": 0, "k2": 5, "mask": 31}"#,
    )
    .unwrap();
    let shape_only = tmp.path().join("shape.json");
    std::fs::write(
        &shape_only,
        r#"{"kind": "xor-matrix", "addr_bits": 14, "banks": 32}"#,
    )
    .unwrap();
    let wide = tmp.path().join("wide.trace");
    std::fs::write(&wide, "ld 0 1 16384\n").unwrap();
    let many = tmp.path().join("many.trace");
    let line: Vec<String> = (0..33).map(|a| a.to_string()).collect();
    std::fs::write(&many, format!("ld {}\n", line.join(" "))).unwrap();
    let cfg12 = cfg12.to_str().unwrap();
    let shape_only = shape_only.to_str().unwrap();
    let (wide, many) = (wide.to_str().unwrap(), many.to_str().unwrap());
    for (args, what) in [
        (
            vec!["--lanes", "24"],
            "--lanes 24: out of range: allowed a power of two from 2 to 64",
        ),
        (vec!["--banks", "256"], "--banks 256: out of range"),
        (vec!["--depth", "500"], "--depth 500: out of range"),
        (
            vec!["--word-bytes", "2"],
            "--word-bytes 2: out of range: allowed 4 or 8",
        ),
        (
            vec!["--map", "hash", "--hash-config", cfg12],
            "12 address bits",
        ),
        (
            vec!["--map", "hash", "--hash-config", shape_only],
            "no configuration fields",
        ),
        (
            vec!["--map", "hash"],
            "--map hash: needs --hash-config FILE",
        ),
        (
            vec!["--map", "rap", "--depth", "16"],
            "--depth 16: RAP maps 32 x 32 tiles",
        ),
        (vec!["--rap-seed", "3"], "apply to --map rap only"),
        (
            vec!["--configurable"],
            "--configurable given: the modulo map has nothing to configure",
        ),
        (
            vec!["--map", "rap", "--hash-config", shape_only],
            "--hash-config given: applies to --map hash only",
        ),
        (vec!["--fill-words", "0"], "--fill-words 0: out of range"),
        (
            vec!["--counter-bits", "65"],
            "--counter-bits 65: out of range",
        ),
        (vec!["--sram-macro", "2x"], "--sram-macro 2x:"),
        (
            vec!["--replay-search", "--replay", wide],
            "--replay-search given: programs a --configurable",
        ),
        (
            vec!["--replay", wide],
            "address 16384 needs 15 bits: wider than --addr-bits 14",
        ),
        (
            vec!["--replay", many],
            "33 addresses: more than the warp size 32",
        ),
        (vec!["--replay", "no-such.trace"], "no-such.trace"),
        (
            vec!["--vectors", "200001"],
            "--vectors 200001: at most 200000 (random warp accesses",
        ),
        (
            vec!["--interface", "vortex", "--fill-words", "2"],
            "--fill-words 2: the Vortex interface has no fill port",
        ),
        (
            vec!["--interface", "vortex", "--map", "rap", "--configurable"],
            "--configurable given with --map rap: the Vortex interface programs",
        ),
        (
            vec!["--interface", "vortex", "--tag-bits", "0"],
            "--tag-bits 0: out of range: allowed 1 to 64",
        ),
        (
            vec!["--interface", "vortex", "--replay", wide],
            "--replay given: replays through the native interface",
        ),
        (
            vec!["--interface", "axi"],
            "invalid value 'axi' for '--interface <INTERFACE>'",
        ),
        (
            vec![
                "--broadcast",
                "off",
                "--word-bytes",
                "8",
                "--lanes",
                "32",
                "--banks",
                "16",
            ],
            "--broadcast off: needs the lanes served as one group",
        ),
        (
            vec!["--simulator", "xsim", "--replay", wide],
            "invalid value 'xsim' for '--simulator <SIMULATOR>'",
        ),
    ] {
        let o = smem(&args, &out);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(what),
            "{args:?}: {err}"
        );
        assert!(!out.exists(), "{args:?} wrote files");
    }
}

/// A `--replay-search` whose search would run past its limit is refused naming smem's own flag
/// (`--depth`, which sets the address bits with `--banks`), not `rtl-gen search`'s
/// `--addr-bits`: 64 lanes over 128 banks of 65536 words (23 address bits, 7 bank bits) and
/// 15000 accesses of 64 distinct words, about a million trace addresses.
#[test]
fn a_too_large_replay_search_names_the_depth() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let cfg = tmp.path().join("cfg23.json");
    std::fs::write(
        &cfg,
        r#"{"kind": "bitvector-xor", "addr_bits": 23, "banks": 128, "k1": 0, "k2": 7, "mask": 127}"#,
    )
    .unwrap();
    let trace = tmp.path().join("big.trace");
    let lines: Vec<String> = (0..15_000u64)
        .map(|k| {
            let words: Vec<String> = (0..64).map(|t| (k * 64 + t).to_string()).collect();
            format!("ld {}", words.join(" "))
        })
        .collect();
    std::fs::write(&trace, lines.join("\n") + "\n").unwrap();
    let o = smem(
        &[
            "--lanes",
            "64",
            "--banks",
            "128",
            "--depth",
            "65536",
            "--map",
            "hash",
            "--hash-config",
            cfg.to_str().unwrap(),
            "--configurable",
            "--replay-search",
            "--replay",
            trace.to_str().unwrap(),
        ],
        &out,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: --depth 65536: the search space is too large")
            && err.contains("lower --depth or --banks")
            && !err.contains("--addr-bits"),
        "{err}"
    );
    assert!(!out.exists(), "a refused replay wrote files");
}

#[test]
fn help_shows_examples_and_json_is_one_document() {
    let o = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(["smem", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        help.contains("Examples:") && help.contains("--replay"),
        "{help}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let o = smem(
        &[
            "--lanes",
            "4",
            "--banks",
            "4",
            "--depth",
            "8",
            "--vectors",
            "5",
            "--json",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["top"], "smem_l4_b4_d8");
    assert_eq!(v["family"], "smem");
    assert!(tmp.path().join("smem_l4_b4_d8/smem_l4_b4_d8.v").exists());
}

/// Worked by hand for 8 lanes over 8 banks (modulo): a linear access takes 1 pass, a stride of
/// 8 puts all 8 words in bank 0 (8 passes), a broadcast of one word 1, words 3 and 11 (both in
/// bank 3) 2: 12 bank cycles, 8 of them after an access's first; the grant stage holds each
/// access a cycle per pass and the last response shows 2 cycles after the cycle of the last
/// pass: from the first access presented to the last response, 12 + 3 = 15 cycles.
#[test]
fn a_replay_counts_the_cycles_worked_out_by_hand() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("k.trace");
    std::fs::write(
        &trace,
        "ld.lin 0 1 2 3 4 5 6 7\nld.col 0 8 16 24 32 40 48 56\nld.bc 9 9 9 9 9 9 9 9\nld.two 3 11\n",
    )
    .unwrap();
    let o = smem(
        &[
            "--lanes",
            "8",
            "--banks",
            "8",
            "--depth",
            "8",
            "--vectors",
            "5",
            "--json",
            "--replay",
            trace.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let row = &v["replay"][0];
    assert_eq!(row["kernel"], "k");
    for (key, value) in [
        ("accesses", 4),
        ("rtl_cycles", 15),
        ("model_cycles", 15),
        ("rtl_bank_cycles", 12),
        ("model_bank_cycles", 12),
        ("rtl_conflict_cycles", 8),
        ("model_conflict_cycles", 8),
    ] {
        assert_eq!(row[key], value, "{key}: {row}");
    }
    // The manifest with its `replay` rows validates; a row without its kernel, a key the
    // manifest does not have, or a document with no rows does not.
    assert_schema("smem-replay.schema.json", &v);
    let mut broken = v.clone();
    broken["replay"][0]
        .as_object_mut()
        .unwrap()
        .remove("kernel");
    assert!(!schema_errors("smem-replay.schema.json", &broken).is_empty());
    let mut broken = v.clone();
    broken["replays"] = serde_json::json!([]);
    assert!(!schema_errors("smem-replay.schema.json", &broken).is_empty());
    let mut broken = v.clone();
    broken.as_object_mut().unwrap().remove("replay");
    assert!(!schema_errors("smem-replay.schema.json", &broken).is_empty());
    // Without its rows the document is a plain manifest, which is valid as one.
    assert_schema("manifest.schema.json", &broken);
    assert!(!schema_errors("manifest.schema.json", &v).is_empty());
}

/// `rtl-gen synth --target-ps` on a memory whose banks are SRAM macros named without their
/// files: Yosys keeps them as black boxes and OpenSTA, without a liberty file for them, says it
/// times no path into or out of them (docs/QOR.md, "Shared memory"). Skipped when the NanGate45
/// library is absent.
#[test]
fn synth_names_sram_macros_it_cannot_time() {
    let lib = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/pdk/nangate45_typ.lib.gz"
    );
    if !Path::new(lib).is_file() {
        println!("note: {lib} is absent; liberty test skipped");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let shape = ["--lanes", "4", "--banks", "4", "--depth", "4"];
    let o = smem(
        &[&shape[..], &["--sram-macro", "sram_4x32", "--vectors", "1"]].concat(),
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let block = tmp.path().join("smem_l4_b4_d4_macro");
    let o = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(["synth", block.to_str().unwrap(), "--liberty", lib])
        .args(["--target-ps", "1000", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let r = &v["report"];
    let sta = &r["sta"];
    assert_eq!(
        sta["black_boxes"],
        serde_json::json!(["sram_4x32"]),
        "{sta:#}"
    );
    let groups = sta["groups"].as_array().unwrap();
    assert!(groups.iter().all(|g| g["from"] != "macros"), "{sta:#}");
    // The rest of the memory is timed: its registers at the 1 000 ps clock.
    assert_eq!(
        (sta["clock"].as_str(), sta["period_ps"].as_f64()),
        (Some("clk_i"), Some(1000.0))
    );
    assert!(groups.iter().any(|g| g["from"] == "flip-flops"), "{sta:#}");
    assert_eq!(r["target_ps"], 1000.0);
}

/// The ready-made OpenRAM macros (`../shared/pdk/openram/`), or `None` with a note.
fn openram_pdk() -> Option<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/pdk/openram");
    if dir.join("sram_256x32_fp45_TT_1p0V_25C.lib").is_file() {
        Some(dir)
    } else {
        println!("note: {} is absent; OpenRAM test skipped", dir.display());
        None
    }
}

/// A memory whose banks are an OpenRAM macro made before (FreePDK45, 256 x 32): its views go
/// into the block folder, the bank keeps OpenRAM's read data (valid only from the falling edge
/// after the read to the next rising edge: the model shows `x` after it), the memory
/// co-simulates under Icarus, and `rtl-gen synth` counts the macros' area and times their pins
/// with their liberty file: the read data launched by the falling edge, the macro's minimum
/// period and pulse width (1.195 ns and 0.6 ns in its `.lib`) failing a 1 GHz clock.
#[test]
fn an_openram_macro_made_before_is_timed_and_counted() {
    let Some(pdk) = openram_pdk() else { return };
    let lib = pdk.join("sram_256x32_fp45_TT_1p0V_25C.lib");
    let tmp = tempfile::tempdir().unwrap();
    let shape = [
        "--lanes",
        "4",
        "--banks",
        "4",
        "--depth",
        "256",
        "--vectors",
        "8",
    ];
    let o = smem(
        &[&shape[..], &["--sram-macro", lib.to_str().unwrap()]].concat(),
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let block = tmp.path().join("smem_l4_b4_d256_macro");
    for f in [
        "sram_256x32_fp45.lib",
        "sram_256x32_fp45.lef",
        "sram_256x32_fp45.v",
    ] {
        assert!(block.join(f).is_file(), "{f}");
    }
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(block.join("smem_l4_b4_d256_macro.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        manifest["macros"],
        serde_json::json!([{"cell": "sram_256x32_fp45", "liberty": "sram_256x32_fp45.lib",
                            "lef": "sram_256x32_fp45.lef"}])
    );
    assert_schema("manifest.schema.json", &manifest);
    common::assert_cosim_passes(&block, "iverilog");

    let nangate =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/pdk/nangate45_typ.lib.gz");
    let o = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(["synth", block.to_str().unwrap(), "--liberty"])
        .arg(&nangate)
        .args(["--target-ps", "1000", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema("synth.schema.json", &v);
    let r = &v["report"];
    // Four macros of the .lib's 17 019.25 um² (137.83 x 123.48 um).
    assert_eq!(r["cells"]["sram_256x32_fp45"], 4);
    let macros = r["macro_area_um2"].as_f64().unwrap();
    assert!((macros - 4.0 * 17_019.25).abs() < 0.1, "{macros}");
    assert!(r["area_um2"].as_f64().unwrap() > macros);
    let sta = &r["sta"];
    assert!(sta["black_boxes"].is_null(), "{sta:#}");
    let group = |name: &str| {
        sta["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["from"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no group {name}: {sta:#}"))
    };
    // The read data leaves 322 to 325 ps after the falling edge (the .lib's table).
    let m = group("macros");
    let cq = m["clock_to_q_ps"].as_f64().unwrap();
    assert!((322.0..=326.0).contains(&cq), "{m:#}");
    let arrival = m["arrival_ps"].as_f64().unwrap();
    let delay = m["delay_ps"].as_f64().unwrap();
    assert!((arrival - delay - 500.0).abs() < 0.1, "{m:#}");
    // The macro's own limits.
    let checks = sta["clock_pin_checks"].as_array().unwrap();
    let check = |kind: &str| checks.iter().find(|c| c["check"] == kind).unwrap().clone();
    assert_eq!(check("min_period")["required_ps"].as_f64(), Some(1195.0));
    assert_eq!(
        check("min_pulse_width")["min_period_ps"].as_f64(),
        Some(1195.0)
    );
    assert_eq!(sta["meets"], false);
    assert!(sta["min_period_ps"].as_f64().unwrap() >= 1195.0);
}

/// `--sram-macro openram` takes a macro OpenRAM made earlier from the cache (`$RTL_GEN_CACHE`)
/// without running OpenRAM again; a macro that does not fit the bank is refused in one line.
#[test]
fn openram_macros_come_from_the_cache_and_must_fit() {
    let Some(pdk) = openram_pdk() else { return };
    let cache = tempfile::tempdir().unwrap();
    let made = cache.path().join("openram-1.2.48/sram_256x32_freepdk45");
    std::fs::create_dir_all(made.join("out")).unwrap();
    // The ready-made macro under the cache's name, as OpenRAM would have written it.
    let text = std::fs::read_to_string(pdk.join("sram_256x32_fp45_TT_1p0V_25C.lib")).unwrap();
    std::fs::write(
        made.join("out/sram_256x32_freepdk45_TT_1p0V_25C.lib"),
        text.replace("sram_256x32_fp45", "sram_256x32_freepdk45"),
    )
    .unwrap();
    std::fs::write(made.join("done"), "").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args([
            "smem",
            "--lanes",
            "4",
            "--banks",
            "4",
            "--depth",
            "256",
            "--vectors",
            "1",
        ])
        .args(["--sram-macro", "openram", "--out"])
        .arg(tmp.path())
        .env("RTL_GEN_CACHE", cache.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let block = tmp.path().join("smem_l4_b4_d256_macro");
    assert!(block.join("sram_256x32_freepdk45.lib").is_file());
    assert!(
        !block.join("sram_256x32_freepdk45.lef").exists(),
        "none was cached"
    );

    // 512 words per bank do not fit a 256-word macro.
    let lib = pdk.join("sram_256x32_fp45_TT_1p0V_25C.lib");
    let o = smem(
        &[
            "--lanes",
            "4",
            "--banks",
            "4",
            "--depth",
            "512",
            "--sram-macro",
            lib.to_str().unwrap(),
        ],
        tmp.path(),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("is not an OpenRAM single-port macro of 512 words"),
        "{err}"
    );
    assert!(!tmp.path().join("smem_l4_b4_d512_macro").exists());
}
