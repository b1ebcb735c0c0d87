//! `rtl-gen synth --flow qflow|ecp5`: one real qflow run and one real nextpnr run on small
//! blocks (CI's place-and-route check), their documents against docs/schemas/pnr-*.schema.json,
//! and the refusals of bad flags. qflow comes from Debian, the YoWASP tools from PyPI into
//! `.venv/` (scripts/setup.sh installs both).

mod common;

use common::{assert_schema, assert_schema_file, rtl_gen, schema_errors, stderr, stdout};
use serde_json::{json, Value};
use std::path::Path;

fn generate(dir: &Path, args: &[&str]) {
    let o = rtl_gen(dir, &[args, &["--vectors", "1", "--out", "o"]].concat());
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

fn run_json(dir: &Path, args: &[&str]) -> Value {
    let o = rtl_gen(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: one document: {e}"))
}

/// The pipelined configurable bit-vector XOR of 6 address bits and 4 banks: 6 address bits
/// and 2 bank bits go through the wrapper's flip-flops (8), `cfg_i` straight through; the
/// block's own output register is its 2 bank bits.
const HASHER: [&str; 9] = [
    "hash",
    "--kind",
    "bitvector-xor",
    "--addr-bits",
    "6",
    "--banks",
    "4",
    "--configurable",
    "--pipeline",
];
const HASHER_DIR: &str = "o/hash_bvxor_n6_b4_cfg_pipe";

fn check_wrapper(report: &Value) {
    assert_eq!(report["wrapper"]["registered"], json!(["addr_i", "bank_o"]));
    assert_eq!(
        report["wrapper"]["passed"],
        json!(["clk_i", "rst_ni", "cfg_i"])
    );
    assert_eq!(report["wrapper"]["flops"], 8);
    assert_eq!(report["block_flops"], 2, "{report:#}");
}

#[test]
fn ecp5_places_and_routes_a_hasher_over_two_seeds() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    generate(d, &HASHER);
    let doc = run_json(
        d,
        &[
            "synth",
            HASHER_DIR,
            "--flow",
            "ecp5",
            "--pnr-seeds",
            "2",
            "--json",
        ],
    );
    assert_schema("pnr-ecp5.schema.json", &doc);
    assert_schema_file(
        "pnr-ecp5.schema.json",
        &d.join(HASHER_DIR).join("pnr_ecp5.json"),
    );
    let r = &doc["report"];
    check_wrapper(r);
    assert_eq!(r["device"], "LFE5U-25F");
    let seeds: Vec<u64> = r["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [1, 2]);
    // A routed Fmax per seed on the block's clock, between 10 MHz and the fabric's 400 MHz.
    let spread = &r["fmax_mhz"]["clk_i"];
    let (min, max) = (
        spread["min"].as_f64().unwrap(),
        spread["max"].as_f64().unwrap(),
    );
    assert!(10.0 < min && min <= max && max < 400.0, "{spread}");
    assert!(
        r["luts"].as_u64().unwrap() > 0 && r["block_rams"] == 0,
        "{r:#}"
    );
    // The rerun command is real: nextpnr's log of seed 1 is there.
    let log = d.join(HASHER_DIR).join("pnr/ecp5/seeds/seed1.log");
    assert!(std::fs::read_to_string(log)
        .unwrap()
        .contains("Max frequency"));

    // The printed summary names the part and the seeds.
    let o = rtl_gen(
        d,
        &["synth", HASHER_DIR, "--flow", "ecp5", "--pnr-seeds", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("LFE5U-25F speed 6"), "{}", stdout(&o));
    assert!(stdout(&o).contains("over 1 seeds"), "{}", stdout(&o));

    let mut broken = doc.clone();
    broken["report"]["fmax_mhz"] = json!({});
    assert!(!schema_errors("pnr-ecp5.schema.json", &broken).is_empty());
}

#[test]
fn qflow_places_and_routes_a_hasher() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    generate(d, &HASHER);
    let doc = run_json(d, &["synth", HASHER_DIR, "--flow", "qflow", "--json"]);
    assert_schema("pnr-qflow.schema.json", &doc);
    assert_schema_file(
        "pnr-qflow.schema.json",
        &d.join(HASHER_DIR).join("pnr_qflow.json"),
    );
    let r = &doc["report"];
    check_wrapper(r);
    assert_eq!(r["routed"], true, "{r:#}");
    assert_eq!(r["timing_error"], Value::Null, "{r:#}");
    assert_eq!(
        (&r["latches"], &r["latches_expected"]),
        (&json!(0), &json!(0))
    );
    // The wrapper's 8 DFFPOSX1 (9.6 x 10 um each in the OSU LEF) are part of the area.
    assert_eq!(r["wrapper_area_um2"], 768.0);
    assert!(r["cell_area_um2"].as_f64().unwrap() > 768.0, "{r:#}");
    assert!(r["wirelength_um"].as_f64().unwrap() > 0.0, "{r:#}");
    let (ps, mhz) = (
        r["critical_path_ps"].as_f64().unwrap(),
        r["max_clock_mhz"].as_f64().unwrap(),
    );
    assert!((1e6 / ps - mhz).abs() / mhz < 0.01, "{ps} ps, {mhz} MHz");

    let mut broken = doc.clone();
    broken["report"]["technology"] = json!("sky130");
    assert!(!schema_errors("pnr-qflow.schema.json", &broken).is_empty());
}

#[test]
fn bad_flags_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    generate(d, &HASHER);
    let cases: [(&[&str], &str); 5] = [
        (
            &["--flow", "ecp5", "--device", "12k"],
            "'12k' for '--device <PART>'",
        ),
        (
            &["--flow", "ecp5", "--pnr-seeds", "0"],
            "'0' for '--pnr-seeds <N>'",
        ),
        (
            &["--flow", "ecp5", "--pnr-seeds", "101"],
            "'101' for '--pnr-seeds <N>'",
        ),
        (
            &["--flow", "qflow", "--device", "85k"],
            "--device LFE5U-85F: is for --flow ecp5",
        ),
        (&["--flow", "asic"], "'asic' for '--flow <FLOW>'"),
    ];
    for (args, message) in cases {
        let o = rtl_gen(d, &[&["synth", HASHER_DIR][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    let o = rtl_gen(
        d,
        &["synth", HASHER_DIR, "--flow", "qflow", "--liberty", "x.lib"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    assert!(!d.join(HASHER_DIR).join("pnr").exists());
}
