//! `rtl-gen rap` and `rtl-gen congestion` from the command line: what a user sees, bad input
//! refused with one line and exit status 2.

use std::process::{Command, Output};

fn rtl_gen(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("rtl-gen runs")
}

fn refused(args: &[&str], expected: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let out = rtl_gen(args, tmp.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
}

#[test]
fn bad_permutations_are_refused_naming_the_culprit() {
    refused(
        &["rap", "--perm", "2,0,2,1"],
        "error: --perm 2,0,2,1: not a permutation of 0..3: 2 appears twice, 3 is missing",
    );
    refused(
        &["rap", "--perm", "2,0,4,1"],
        "4 is out of range, 3 is missing",
    );
    refused(
        &["rap", "--perm", "1,0", "--banks", "4"],
        "2 entries but --banks is 4",
    );
    refused(
        &["rap", "--perm", "1,x"],
        "`x` is not an unsigned 64-bit integer",
    );
    refused(
        &["rap", "--banks", "1"],
        "--banks 1: out of range: allowed 2 to 1024",
    );
    refused(&["rap", "--banks", "2048"], "--banks 2048: out of range");
    refused(&["rap", "--w", "2048"], "--w 2048: out of range");
    refused(
        &["rap", "--kind", "ras", "--shifts", "0,5,1"],
        "5 is out of range: each shift is 0 to 2",
    );
    refused(
        &["rap", "--perm", "0,2,1,3", "--wide"],
        "--perm 0,2,1,3: not wide: rows 0 and 1 of the first half both have a shift = 0 mod 2",
    );
    refused(
        &["rap", "--banks", "7", "--wide"],
        "--banks 7: out of range: allowed an even number",
    );
    refused(
        &["rap", "--storage", "packed", "--configurable"],
        "'--storage <STORAGE>' cannot be used with '--configurable'",
    );
    refused(
        &["rap", "--kind", "3p", "--perm", "1,0"],
        "--kind 3p: the 3P converter draws its three permutations from --rap-seed",
    );
    refused(
        &["rap", "--dims", "3"],
        "invalid value '3' for '--dims <DIMS>' [possible values: 2, 4]",
    );
    refused(
        &["rap", "--kind", "3p", "--banks", "2048"],
        "--banks 2048: out of range",
    );
    refused(
        &["congestion", "--kinds", "xyz"],
        "invalid value 'xyz' for '--kinds <KINDS>' [possible values: raw, ras, rap, 1p",
    );
    refused(
        &["congestion", "--dims", "4", "--pattern", "diagonal"],
        "--pattern diagonal: out of range",
    );
    refused(
        &["congestion", "--dims", "3"],
        "invalid value '3' for '--dims <DIMS>'",
    );
    // A pattern spelled for the other shape is refused, not run as its namesake (issue 35).
    refused(
        &[
            "congestion",
            "--dims",
            "4",
            "--pattern",
            "stride",
            "--trials",
            "1",
        ],
        "--pattern stride: out of range: allowed contiguous, stride1, stride2, stride3, random, \
         malicious for --dims 4",
    );
    refused(
        &[
            "congestion",
            "--dims",
            "2",
            "--pattern",
            "stride1",
            "--trials",
            "1",
        ],
        "--pattern stride1: out of range: allowed contiguous, stride, diagonal, random, \
         malicious for --dims 2",
    );
}

#[test]
fn rap_writes_a_block_and_congestion_prints_records() {
    let tmp = tempfile::tempdir().unwrap();
    let out = rtl_gen(
        &["rap", "--banks", "8", "--rap-seed", "7", "--out", "out"],
        tmp.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tmp.path().join("out/rap_w8");
    for f in [
        "rap_w8.v",
        "rap_w8.json",
        "rap_w8.f",
        "rap_w8.core",
        "tb/tb_rap_w8.v",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("rap_w8.json")).unwrap()).unwrap();
    assert_eq!(manifest["family"], "rap");
    assert_eq!(manifest["configuration"]["seed"], 7);
    let first = std::fs::read(dir.join("rap_w8.v")).unwrap();
    let again = rtl_gen(
        &["rap", "--banks", "8", "--rap-seed", "7", "--out", "out"],
        tmp.path(),
    );
    assert!(again.status.success());
    assert_eq!(
        first,
        std::fs::read(dir.join("rap_w8.v")).unwrap(),
        "deterministic output"
    );

    // `--json` is one document; `--json-lines` one record per cell.
    let congestion = |format: &str| {
        let out = rtl_gen(
            &[
                "congestion",
                "--banks",
                "16",
                "--kinds",
                "rap",
                "--trials",
                "300",
                format,
            ],
            tmp.path(),
        );
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let document: serde_json::Value = serde_json::from_str(&congestion("--json")).unwrap();
    let cells = document["cells"].as_array().unwrap();
    let lines: Vec<serde_json::Value> = congestion("--json-lines")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&lines, cells);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["pattern"], "stride");
    assert_eq!(lines[1]["mean"], 1.0);
    assert_eq!(lines[1]["trials"], 300);
}
