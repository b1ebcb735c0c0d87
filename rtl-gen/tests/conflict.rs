//! The bank-conflict counter (`rtl-gen conflict`, the fifth family): lint-clean at small and
//! paper sizes, co-simulated against the golden model (`models::congestion::congestion`) under
//! Verilator and Icarus with modulo and XOR maps, a corrupted expected line fails, the module
//! is pinned by a snapshot, and bad input is refused in one line with nothing written.

mod common;

use common::{rtl_gen, stderr};
use models::HashKind;
use rtl_gen::block;
use rtl_gen::conflict::vectors::ConflictPlan;
use rtl_gen::conflict::ConflictDesign;

fn design(lanes: u32, kind: HashKind, n: u32, banks: u64) -> ConflictDesign {
    ConflictDesign::new(lanes, &common::fixed_config(kind, n, banks)).unwrap()
}

#[test]
fn counters_are_lint_clean_and_match_the_model() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = ConflictPlan {
        seed: 5,
        random: 300,
    };
    for (d, simulator) in [
        (design(8, HashKind::Modulo, 6, 4), "iverilog"),
        (design(8, HashKind::BitvectorXor, 6, 4), "verilator"),
        (design(32, HashKind::XorMatrix, 14, 32), "verilator"),
    ] {
        let dir = block::write(&d, &plan, "rtl-gen test", tmp.path()).unwrap();
        let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
        let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
        let tb = dir.join(&manifest.testbench.source);
        common::assert_lint_clean(&rtl, &tb, &manifest.top);
        common::assert_cosim_passes(&dir, simulator);
    }
}

#[test]
fn a_corrupted_expected_count_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let d = design(4, HashKind::Modulo, 4, 4);
    let dir = block::write(&d, &ConflictPlan::default(), "rtl-gen test", tmp.path()).unwrap();
    let expect = dir.join(format!("tb/{}.expect.hex", d.name()));
    let text = std::fs::read_to_string(&expect).unwrap();
    // The third access puts every lane on one address: one bank cycle; say two.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    assert_eq!(lines[2], "1", "{text}");
    lines[2] = "2".into();
    std::fs::write(&expect, lines.join("\n") + "\n").unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "iverilog").unwrap();
    assert_eq!(report.failed, 1, "{:?}", report.mismatches);
}

#[test]
fn the_main_jobs_counter_is_a_half_warp_behind_figure_5s_hasher() {
    let d = ConflictDesign::main_job();
    assert_eq!(d.name(), "conflict_l16_bvxor_n14_b32");
    assert_eq!(d.count_bits(), 5);
}

#[test]
fn the_counter_and_its_hasher_are_pinned() {
    let d = design(4, HashKind::BitwiseXor, 6, 4);
    let plan = ConflictPlan { seed: 1, random: 1 };
    let r = block::render(&d, &plan, "rtl-gen test");
    let texts: Vec<&str> = r.files.iter().map(|(_, text)| text.as_str()).collect();
    insta::assert_snapshot!(d.name(), texts.join("\n"));
}

#[test]
fn bad_input_is_refused_in_one_line_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, fragment) in [
        (
            vec!["--lanes", "3"],
            "--lanes 3: allowed a power of two from 2 to 64",
        ),
        (vec!["--lanes", "128"], "--lanes 128"),
        (vec!["--addr-bits", "65"], "--addr-bits 65"),
        (vec!["--vectors", "99999999999"], "--vectors 99999999999"),
    ] {
        let mut all = vec!["conflict", "--kind", "modulo", "--banks", "4"];
        if args[0] != "--addr-bits" {
            all.extend(["--addr-bits", "6"]);
        }
        all.extend(args.iter().copied());
        all.extend(["--out", "out"]);
        let o = rtl_gen(tmp.path(), &all);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(fragment), "{args:?}: {e}");
        assert!(!tmp.path().join("out").exists());
    }
}

/// `rtl-gen prove` proves a counter equal to its reference (written from the congestion's
/// definition and the map's matrix), refutes one that sends a lane to the wrong bank, and
/// `rtl-gen mutate` finds every mutant caught by the testbench or proved harmless.
#[test]
fn counters_are_proved_and_their_mutants_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let mut dirs = Vec::new();
    for (kind, extra) in [("modulo", ""), ("bitwise-xor", "--pairs 3:5,4:2")] {
        let mut args = vec!["conflict", "--lanes", "4", "--kind", kind];
        args.extend(["--addr-bits", "6", "--banks", "4", "--vectors", "200"]);
        args.extend(extra.split_whitespace());
        args.extend(["--out", "out", "--json"]);
        let o = rtl_gen(root, &args);
        assert!(o.status.success(), "{}", stderr(&o));
        let manifest: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        dirs.push(root.join("out").join(manifest["top"].as_str().unwrap()));
    }
    let paths: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let mut args = vec!["prove"];
    args.extend(paths.iter().map(String::as_str));
    let o = rtl_gen(root, &args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert_eq!(out.matches(": PROVED congestion").count(), 2, "{out}");

    let mut args = vec!["mutate", "--json", "--jobs", "2", "--max", "16"];
    args.extend(paths.iter().map(String::as_str));
    let o = rtl_gen(root, &args);
    let report: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    let mut mutants = 0;
    for block in report["blocks"].as_array().unwrap() {
        let family = block["family"].as_str().unwrap();
        assert!(family.starts_with("conflict "), "{block}");
        for m in block["mutants"].as_array().unwrap() {
            mutants += 1;
            let verdict = m["verdict"]["verdict"].as_str().unwrap();
            assert!(
                !["stillborn", "not-equivalent", "undecided"].contains(&verdict),
                "{m}"
            );
        }
    }
    assert!(mutants >= 20, "{mutants} mutants");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // Lane 3 sent to bank 1 where its bank is 0: refuted.
    let top = dirs[0].join(format!(
        "{}.v",
        dirs[0].file_name().unwrap().to_string_lossy()
    ));
    let text = std::fs::read_to_string(&top).unwrap();
    let right = "counting[3] & (lane3_bank == 2'h0)";
    assert!(text.contains(right), "{text}");
    std::fs::write(
        &top,
        text.replace(right, "counting[3] & (lane3_bank == 2'h1)"),
    )
    .unwrap();
    let o = rtl_gen(root, &["prove", &paths[0]]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.contains("DISPROVED"), "{out}");
}

/// `rtl-gen sweep conflict` runs through the generic engine in process and, emitted as jobs,
/// each point alone and collected, gives the same results.
#[test]
fn counters_sweep_in_process_and_as_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let plan = [
        "sweep",
        "conflict",
        "--lanes",
        "2,4",
        "--banks",
        "4",
        "--kinds",
        "modulo,bitwise-xor",
        "--addr-bits",
        "6",
        "--quiet",
    ];
    let o = rtl_gen(root, &[&plan[..], &["--out", "in"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let results = root.join("in/results.json");
    common::assert_schema_file("sweep.schema.json", &results);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(json["family"], "conflict");
    let tops: Vec<&str> = json["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert_eq!(p["status"], "ok", "{p}");
            p["top"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        tops,
        [
            "conflict_l2_mod_n6_b4",
            "conflict_l4_mod_n6_b4",
            "conflict_l2_bwxor_n6_b4",
            "conflict_l4_bwxor_n6_b4"
        ]
    );
    let o = rtl_gen(
        root,
        &[&plan[..], &["--emit", "make", "--out", "jobs"]].concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let points = std::fs::read_to_string(root.join("jobs/points.txt")).unwrap();
    for point in points.lines() {
        let o = rtl_gen(root, &["sweep", "point", "jobs", point, "--quiet"]);
        assert!(o.status.success(), "{point}: {}", stderr(&o));
    }
    let o = rtl_gen(root, &["sweep", "collect", "jobs"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = |dir: &str| {
        std::fs::read_to_string(root.join(dir).join("results.csv"))
            .unwrap()
            .replace(&format!(" {dir}/"), " <OUT>/")
    };
    assert_eq!(csv("in"), csv("jobs"));
}
