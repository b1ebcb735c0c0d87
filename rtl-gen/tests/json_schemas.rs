//! Every JSON document the commands write validates against its published schema
//! (`docs/schemas/`): block manifests of every family and timing, `cosim --json`, `synth.json`
//! and `synth --json`, the congestion document and its JSON lines, the flow's rows,
//! `swizzle show`, `sweep structures`, `sweep configs`. Where a command already runs in another
//! test, its JSON is checked there: the sweeps' `results.json` (`hash_synth_cli.rs`), a search's
//! `search.json`, configuration files and `--json` of several traces (`hash_search_cli.rs`), the
//! swizzle report and configuration (`swizzle.rs`), `prove --json` (`prove.rs`), `mutate --json`
//! (`mutate.rs`), `smem --replay --json` (`smem_cli.rs`). A broken document must fail, so the
//! check can fail.

mod common;

use common::{assert_schema, assert_schema_file, rtl_gen, schema_errors, schemas, stderr, stdout};
use serde_json::{json, Value};
use std::path::Path;

fn run_json(dir: &Path, args: &[&str]) -> Value {
    let o = rtl_gen(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: one document: {e}"))
}

#[test]
fn every_schema_compiles_and_names_itself() {
    let all = schemas();
    assert!(
        all.len() >= 7,
        "{:?}",
        all.iter().map(|s| &s.0).collect::<Vec<_>>()
    );
    for (name, schema) in &all {
        assert!(
            schema["$id"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/{name}")),
            "{name}"
        );
        // An empty object is valid against none of them: each requires its keys.
        assert!(!schema_errors(name, &json!({})).is_empty(), "{name}");
    }
}

#[test]
fn manifests_of_every_family_and_timing() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let commands: [&[&str]; 8] = [
        &[
            "hash",
            "--kind",
            "modulo",
            "--addr-bits",
            "6",
            "--banks",
            "4",
        ],
        &[
            "hash",
            "--kind",
            "bitwise-xor",
            "--addr-bits",
            "6",
            "--banks",
            "4",
            "--configurable",
            "--pipeline",
        ],
        &[
            "hash",
            "--kind",
            "bitvector-perm",
            "--addr-bits",
            "6",
            "--banks",
            "4",
            "--configurable",
            "--offsets",
            "one-hot",
        ],
        &["rap", "--banks", "4", "--configurable"],
        &["d2ma", "controller", "--ctas", "2", "--buffers", "2"],
        &["d2ma", "agen", "--vectors", "20"],
        &[
            "d2ma",
            "engine",
            "--ctas",
            "2",
            "--buffers",
            "2",
            "--vectors",
            "5",
        ],
        &[
            "rap",
            "--banks",
            "8",
            "--kind",
            "3p",
            "--configurable",
            "--packed",
        ],
    ];
    let mut timings = Vec::new();
    for args in commands {
        let args = [args, &["--out", "o", "--json"]].concat();
        let manifest = run_json(d, &args);
        assert_schema("manifest.schema.json", &manifest);
        let top = manifest["top"].as_str().unwrap();
        assert_schema_file(
            "manifest.schema.json",
            &d.join("o").join(top).join(format!("{top}.json")),
        );
        timings.push(manifest["timing"]["kind"].as_str().unwrap().to_string());
    }
    timings.sort();
    timings.dedup();
    assert_eq!(timings, ["clocked", "combinational", "pipelined"]);

    // A manifest without its top, or with a port of width zero, is refused.
    let mut broken = run_json(d, &[commands[0], &["--out", "p", "--json"]].concat());
    broken["ports"][0]["width"] = json!(0);
    assert!(!schema_errors("manifest.schema.json", &broken).is_empty());
    broken.as_object_mut().unwrap().remove("top");
    assert!(!schema_errors("manifest.schema.json", &broken).is_empty());
}

#[test]
fn cosim_synth_and_flow_documents() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let args = [
        "hash",
        "--kind",
        "bitvector-xor",
        "--addr-bits",
        "6",
        "--banks",
        "4",
    ];
    let o = rtl_gen(
        d,
        &[
            &args[..],
            &["--k1", "0", "--k2", "2", "--mask", "1", "--out", "o"],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let block = "o/hash_bvxor_n6_b4";
    let cosim = run_json(d, &["cosim", block, "--simulator", "iverilog", "--json"]);
    assert_schema("cosim.schema.json", &cosim);
    let synth = run_json(d, &["synth", block, "--json"]);
    assert_schema("synth.schema.json", &synth);
    assert_schema_file("synth.schema.json", &d.join(block).join("synth.json"));
    // The flow prints these two per block, with the block's family and folder.
    let rows =
        json!([{ "family": "hash", "dir": block, "cosim": cosim["report"], "synth": synth }]);
    assert_schema("flow.schema.json", &rows);
    // With a liberty file, synthesis adds the paths; a fixed hasher has no static input, so no
    // split of its paths (a configurable one's: hash_synth_cli.rs).
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/pdk/nangate45_typ.lib.gz");
    if lib.is_file() {
        let lib = lib.to_str().unwrap();
        let synth = run_json(d, &["synth", block, "--liberty", lib, "--json"]);
        assert!(synth["hasher_paths"].is_null(), "{synth:#}");
        assert!(synth["report"]["sta"]["groups"].is_array(), "{synth:#}");
        assert_schema("synth.schema.json", &synth);
        let synth = run_json(
            d,
            &[
                "synth",
                block,
                "--liberty",
                lib,
                "--target-ps",
                "100",
                "--closure",
                "--json",
            ],
        );
        assert_eq!(synth["report"]["closure"].as_array().map(Vec::len), Some(4));
        assert_schema("synth.schema.json", &synth);
    }
    let mut broken = synth.clone();
    broken["report"]["mode"] = json!("asic");
    assert!(!schema_errors("synth.schema.json", &broken).is_empty());
}

#[test]
fn congestion_is_one_document_or_json_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "congestion",
        "--banks",
        "16,32",
        "--kinds",
        "raw,rap",
        "--pattern",
        "stride",
        "--trials",
        "20",
    ];
    let doc = run_json(tmp.path(), &[&args[..], &["--json"]].concat());
    assert_schema("congestion.schema.json", &doc);
    assert_eq!(doc["cells"].as_array().unwrap().len(), 4);
    let o = rtl_gen(tmp.path(), &[&args[..], &["--json-lines"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines, doc["cells"].as_array().unwrap().clone());
    let o = rtl_gen(
        tmp.path(),
        &[&args[..], &["--json", "--json-lines"]].concat(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn swizzle_show_and_structures_documents() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let show = run_json(d, &["swizzle", "show", "--layout", "none", "--json"]);
    assert_schema("swizzle.schema.json", &show);
    let mut broken = show.clone();
    broken.as_object_mut().unwrap().remove("banks");
    assert!(!schema_errors("swizzle.schema.json", &broken).is_empty());

    let o = rtl_gen(
        d,
        &[
            "sweep",
            "structures",
            "--addr-bits",
            "6",
            "--banks",
            "4",
            "--out",
            "st",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_schema_file("structures.schema.json", &d.join("st/structures.json"));
}

/// The smallest `sweep configs` there is: one configurable kind of 2 banks over 3 address bits,
/// co-simulated under Verilator (every one of its configurations on every address).
#[test]
fn sweep_configs_results_document() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let o = rtl_gen(
        d,
        &[
            "sweep",
            "configs",
            "--kinds",
            "bitvector-perm",
            "--addr-bits",
            "3",
            "--banks",
            "2",
            "--instances",
            "1",
            "--out",
            "cs",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let path = d.join("cs/results.json");
    assert_schema_file("config-sweep.schema.json", &path);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // k in 0..=2 places the one bank bit: 3 configurations, all swept, each on the 8 addresses.
    assert_eq!(doc["kinds"][0]["coverage"]["configs"], 3, "{doc:#}");
    assert_eq!(doc["kinds"][0]["report"]["passed"], 24, "{doc:#}");
    let mut broken = doc.clone();
    broken["kinds"][0]["kind"] = json!("modulo");
    assert!(!schema_errors("config-sweep.schema.json", &broken).is_empty());
    let mut broken = doc;
    broken["kinds"][0]["report"]["passed"] = json!(-1);
    assert!(!schema_errors("config-sweep.schema.json", &broken).is_empty());
}

#[test]
fn tma_check_load_and_replay_documents() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(
        d.join("map.json"),
        r#"{"data_type": "f16", "global_dim": [100, 40], "global_strides": [256],
            "box_dim": [16, 4], "element_strides": [1, 2], "swizzle": "32B", "oob_fill": "nan"}"#,
    )
    .unwrap();
    let check = run_json(d, &["tma", "check", "--map", "map.json", "--json"]);
    assert_schema("tma.schema.json", &check);
    let load = run_json(
        d,
        &[
            "tma", "load", "--map", "map.json", "--coords", "-8,3", "--json",
        ],
    );
    assert_schema("tma.schema.json", &load);
    let limits = Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu/results/tma_limits.txt.gz");
    let replay = run_json(d, &["tma", "replay", limits.to_str().unwrap(), "--json"]);
    assert_schema("tma.schema.json", &replay);
    assert!(!replay["probes"].as_array().unwrap().is_empty());
    // A broken document of each kind fails.
    let mut broken = load.clone();
    broken["image"]["bytes"][0] = json!(256);
    assert!(!schema_errors("tma.schema.json", &broken).is_empty());
    let mut broken = check;
    broken["box"].as_object_mut().unwrap().remove("pitch");
    assert!(!schema_errors("tma.schema.json", &broken).is_empty());
    let mut broken = replay;
    broken["all_match"] = json!("yes");
    assert!(!schema_errors("tma.schema.json", &broken).is_empty());
}
