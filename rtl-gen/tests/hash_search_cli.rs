//! `rtl-gen search` and `rtl-gen kernels`: bad traces (one line naming the line, exit status
//! 2), the files a search writes, and its configurations fed to `rtl-gen hash --config`.

mod common;

use common::{assert_schema, assert_schema_file, rtl_gen, schema_errors, stderr};
use std::path::Path;

/// The paper's section 3.2.4 Fast Walsh warp (stride 8) and a stride-64 warp.
const TRACE: &str = "# two accesses\nld.fwt 0 1 2 3 4 5 6 7 32 33 34 35 36 37 38 39 64 65 66 67 68 69 70 71 96 97 98 99 100 101 102 103\nld.s64: 0 64 128 192 256 320 384 448\n";

#[test]
fn bad_traces_exit_2_with_one_line_naming_the_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "empty.trace",
            "# nothing\n\n",
            &["empty.trace: the trace holds no warp access"],
        ),
        (
            "word.trace",
            "a 1 2\nb 3 four\n",
            &["word.trace: line 2:", "`four` is not an address"],
        ),
        (
            "wide.trace",
            "a 1\n\nb 16384\n",
            &["wide.trace: line 3:", "wider than --addr-bits 14"],
        ),
        (
            "warp.trace",
            &format!(
                "a {}\n",
                (0..33).map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
            ),
            &["warp.trace: line 1:", "more than the warp size 32"],
        ),
    ];
    for (name, text, wanted) in cases {
        std::fs::write(tmp.path().join(name), text).unwrap();
        let o = rtl_gen(tmp.path(), &["search", "--trace", name, "--out", "out"]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        for w in *wanted {
            assert!(e.contains(w), "{name}: {e}");
        }
    }
    let o = rtl_gen(tmp.path(), &["search", "--trace", "missing.trace"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: missing.trace: No such file"),
        "{}",
        stderr(&o)
    );
    // A line of 8 addresses is fine with --warp-size 8, 9 is not.
    std::fs::write(tmp.path().join("nine.trace"), "a 0 1 2 3 4 5 6 7 8\n").unwrap();
    let o = rtl_gen(
        tmp.path(),
        &["search", "--trace", "nine.trace", "--warp-size", "8"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1: 9 addresses: more than the warp size 8"));
    let o = rtl_gen(
        tmp.path(),
        &[
            "search",
            "--trace",
            "nine.trace",
            "--kind",
            "bitvector-xor",
            "--heuristic",
            "mih",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--heuristic mih: out of range"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn search_output_feeds_rtl_gen_hash() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("k.trace"), TRACE).unwrap();
    let o = rtl_gen(
        tmp.path(),
        &[
            "search",
            "--trace",
            "k.trace",
            "--kind",
            "all",
            "--heuristic",
            "all",
            "--out",
            "out/k",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    // Modulo: the stride-8 warp is 4-way (3 replays), the stride-64 warp 8-way (7 replays).
    assert!(
        text.contains("before (modulo): 10 replays, mean congestion 6.000"),
        "{text}"
    );
    let out = tmp.path().join("out/k");
    for f in [
        "bitvector-perm-exhaustive.json",
        "bitvector-xor-exhaustive.json",
        "bitvector-xor-fixed.json",
        "bitwise-perm-givargis.json",
        "bitwise-perm-mih.json",
        "bitwise-xor-givargis.json",
        "bitwise-xor-mih.json",
        "xor-matrix-gf2.json",
        "best-bitvector-xor.json",
        "best-bitwise-xor.json",
        "best-xor-matrix.json",
        "best.json",
        "heatmap.svg",
        "search.json",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
        if f == "search.json" {
            assert_schema_file("search.schema.json", &out.join(f));
        } else if f.ends_with(".json") {
            assert_schema_file("hash-config.schema.json", &out.join(f));
        }
    }
    let o = rtl_gen(
        tmp.path(),
        &["hash", "--config", "out/k/best.json", "--out", "blocks"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = rtl_gen(
        tmp.path(),
        &[
            "hash",
            "--config",
            "out/k/best-xor-matrix.json",
            "--out",
            "blocks",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // --json: one object, every result conflict-free here (bits 0-2, 5-6 and 6-8 fit 32 banks).
    let o = rtl_gen(
        tmp.path(),
        &[
            "search",
            "--trace",
            "k.trace",
            "--json",
            "--kind",
            "xor-matrix",
            "--out",
            "out/j",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["before"]["replays"], 10);
    assert_eq!(v["results"][0]["replays"], 0);
    assert_eq!(v["results"][0]["gf2"]["optimal"], true);
}

#[test]
fn committed_kernels_are_what_the_generator_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let o = rtl_gen(tmp.path(), &["kernels", "--out", "k"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let mut names: Vec<_> = std::fs::read_dir(tmp.path().join("k"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), 14);
    for name in names {
        let fresh = std::fs::read_to_string(tmp.path().join("k").join(&name)).unwrap();
        let kept = std::fs::read_to_string(committed.join(&name)).unwrap_or_default();
        assert!(
            fresh == kept,
            "kernels/{} differs from `rtl-gen kernels`",
            name.to_string_lossy()
        );
    }
}

#[test]
fn several_traces_give_one_json_document_or_json_lines() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a.trace"), TRACE).unwrap();
    std::fs::write(tmp.path().join("b.trace"), TRACE).unwrap();
    let args = [
        "search",
        "--trace",
        "a.trace",
        "--trace",
        "b.trace",
        "--kind",
        "xor-matrix",
    ];
    let o = rtl_gen(tmp.path(), &[&args[..], &["--json", "--out", "j"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema("search.schema.json", &doc);
    let mut broken = doc["reports"][0].clone();
    broken["before"]["replays"] = serde_json::json!(-1);
    assert!(!schema_errors("search.schema.json", &broken).is_empty());
    let reports = doc["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2);
    assert_eq!(
        (reports[0]["trace"].as_str(), reports[1]["trace"].as_str()),
        (Some("a"), Some("b"))
    );
    let o = rtl_gen(
        tmp.path(),
        &[&args[..], &["--json-lines", "--out", "l"]].concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&lines[..], &reports[..]);
}
