//! The generic sweep (`crate::experiments::sweep`) runs for every family through its sweep
//! space: RAP converters, shared memories and D²MA units at tiny sizes (generic flow, each
//! point well under a second), in process and, for one family, emitted as jobs and collected
//! into the same results.

mod common;

use common::{rtl_gen, stderr, stdout};
use std::path::Path;

/// Runs `rtl-gen sweep <args> --out <out> --quiet` in `cwd`; asserts success; returns
/// results.json.
fn sweep(cwd: &Path, args: &[&str], out: &str) -> serde_json::Value {
    let all = [&["sweep"][..], args, &["--out", out, "--quiet"]].concat();
    let o = rtl_gen(cwd, &all);
    assert!(o.status.success(), "{all:?}: {}{}", stdout(&o), stderr(&o));
    let path = cwd.join(out).join("results.json");
    common::assert_schema_file("sweep.schema.json", &path);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The points' statuses and tops.
fn outcomes(results: &serde_json::Value) -> Vec<(String, String, String)> {
    results["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["point"].as_str().unwrap().to_string(),
                p["status"].as_str().unwrap().to_string(),
                p["top"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn rap_smem_and_d2ma_sweep_through_the_generic_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let rap = sweep(root, &["rap", "--banks", "2,4", "--kinds", "rap,3p"], "rap");
    assert_eq!(rap["family"], "rap");
    assert_eq!(
        outcomes(&rap),
        [
            ("rap-b2", "ok", "rap_w2"),
            ("rap-b4", "ok", "rap_w4"),
            ("3p-b2", "ok", "rap3p_w2"),
            ("3p-b4", "ok", "rap3p_w4"),
        ]
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    );
    let csv = std::fs::read_to_string(root.join("rap/results.csv")).unwrap();
    assert!(csv.starts_with("kind,variant,banks,top,status,"), "{csv}");
    assert!(csv.contains("\nrap,baked,4,rap_w4,ok,"), "{csv}");
    assert!(root.join("rap/transistors_vs_banks.svg").is_file());

    // A RAP map needs banks x banks-word tiles: 8 banks at depth 4 is skipped, not failed.
    let smem = sweep(
        root,
        &[
            "smem",
            "--lanes",
            "2",
            "--banks",
            "2,8",
            "--maps",
            "modulo,rap",
            "--depth",
            "4",
        ],
        "smem",
    );
    let smem = outcomes(&smem);
    assert_eq!(smem.len(), 4);
    assert_eq!(
        (smem[0].0.as_str(), smem[0].1.as_str()),
        ("modulo-l2-b2", "ok")
    );
    assert_eq!(
        (smem[3].0.as_str(), smem[3].1.as_str()),
        ("rap-l2-b8", "skipped")
    );
    assert!(smem[0].2.starts_with("smem_l2_b2_d4"), "{smem:?}");

    let d2ma = sweep(
        root,
        &[
            "d2ma",
            "--unit",
            "controller",
            "--ctas",
            "1,2",
            "--buffers",
            "1",
            "--storage",
            "flip-flop,latch",
        ],
        "d2ma",
    );
    let d2ma = outcomes(&d2ma);
    assert_eq!(d2ma.len(), 4);
    assert!(d2ma.iter().all(|(_, status, _)| status == "ok"), "{d2ma:?}");
    assert_eq!(d2ma[3].0, "controller-latch-b1-c2");
    assert!(root.join("d2ma/transistors_vs_ctas.svg").is_file());
}

#[test]
fn an_emitted_d2ma_sweep_collects_into_the_in_process_results() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let plan = [
        "d2ma",
        "--unit",
        "raw-check",
        "--ctas",
        "1,2",
        "--buffers",
        "1",
    ];
    let in_process = root.join("in");
    sweep(root, &plan, in_process.to_str().unwrap());
    let emitted = root.join("jobs");
    let o = rtl_gen(
        root,
        &[
            &["sweep"][..],
            &plan,
            &["--emit", "make", "--out", emitted.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let points = std::fs::read_to_string(emitted.join("points.txt")).unwrap();
    assert_eq!(
        points,
        "raw-check-flip-flop-b1-c1\nraw-check-flip-flop-b1-c2\n"
    );
    for point in points.lines() {
        let o = rtl_gen(
            root,
            &[
                "sweep",
                "point",
                emitted.to_str().unwrap(),
                point,
                "--quiet",
            ],
        );
        assert!(o.status.success(), "{point}: {}", stderr(&o));
    }
    let o = rtl_gen(root, &["sweep", "collect", emitted.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = |dir: &Path| {
        std::fs::read_to_string(dir.join("results.csv"))
            .unwrap()
            .replace(dir.to_str().unwrap(), "<OUT>")
    };
    assert_eq!(csv(&in_process), csv(&emitted));
}

#[test]
fn bad_lists_are_refused_in_one_line_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, fragment) in [
        (
            &["sweep", "rap", "--banks", "8,8"][..],
            "--banks 8: given twice",
        ),
        (
            &["sweep", "smem", "--maps", "modulo,xor"],
            "--maps xor: allowed: rap, modulo",
        ),
        (
            &["sweep", "d2ma", "--unit", "agen", "--storage", "latch"],
            "--storage latch: the storage style applies to the controller and engine only",
        ),
        (
            &["sweep", "d2ma", "--unit", "dma"],
            "--unit dma: allowed: agen, controller",
        ),
    ] {
        let o = rtl_gen(tmp.path(), &[args, &["--out", "o"]].concat());
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(fragment), "{args:?}: {e}");
        assert!(!tmp.path().join("o").exists());
    }
}
