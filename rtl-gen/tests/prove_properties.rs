//! `rtl-gen prove --properties`: the shared memory's safety and liveness properties proved on
//! the intact block at 8 x 8 (the data lemma at 4 x 4), and each one failing on a block with a
//! seeded bug (a dropped response, a duplicated one, a starved port, a conflict-free access
//! taking two passes, a lost fill beat), with its trace; bad input refused.

mod common;

use common::cli::{generate, text};
use common::{assert_schema, rtl_gen};
use rtl_gen::prove::BlockUnderProof;
use serde_json::Value;
use std::path::Path;

/// The properties proved by default, in their order.
const DEFAULT: [&str; 5] = [
    "response-count",
    "response-bound",
    "request-wait",
    "fill-wait",
    "full-rate",
];

/// `rtl-gen prove --properties --json` on `dir` with `extra` flags: exit status and document.
fn prove_json(root: &Path, dir: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let dir = dir.display().to_string();
    let mut args = vec!["prove", "--properties", "--json", "--quiet", &dir];
    args.extend(extra);
    let o = rtl_gen(root, &args);
    let out = text(&o);
    let json = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_schema("prove-properties.schema.json", &json);
    (o.status.code(), json, out)
}

/// The verdict of each property in a `--json` document, by name.
fn verdicts(json: &Value) -> Vec<(String, String)> {
    json["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["property"].as_str().unwrap().to_string(),
                p["verdict"]["result"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Replaces `right` by `wrong` in the block's file `file` (the top module's when `None`).
fn seed(dir: &Path, file: Option<&str>, right: &str, wrong: &str) {
    let top = BlockUnderProof::load(dir).unwrap().top;
    let path = dir.join(file.map_or(format!("{top}.v"), |f| format!("{top}_{f}.v")));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(right), "{}: no `{right}`", path.display());
    std::fs::write(&path, text.replace(right, wrong)).unwrap();
}

#[test]
fn the_shared_memorys_properties_hold_at_8x8_and_the_data_lemma_at_4x4() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = generate(root, "smem --lanes 8 --banks 8 --depth 16");
    let (code, json, out) = prove_json(root, &dir, &[]);
    assert_eq!(code, Some(0), "{out}");
    let expected: Vec<(String, String)> = DEFAULT
        .iter()
        .map(|p| (p.to_string(), "proved".to_string()))
        .collect();
    assert_eq!(verdicts(&json), expected, "{out}");
    // The bounds follow the lanes and the consumer's stall: 8 + 1 - 1 + 2 = 10 cycles of wait,
    // 8 + 1 + 3 = 12 to an answer.
    let claims: Vec<&str> = json["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["claim"].as_str().unwrap())
        .collect();
    assert!(claims[1].contains("within 12 cycles"), "{claims:?}");
    assert!(claims[2].contains("within 10 cycles"), "{claims:?}");
    assert!(dir.join("prove/properties/fill-wait.ys").is_file());

    let small = generate(root, "smem --lanes 4 --banks 4 --depth 4 --fill-words 2");
    let (code, json, out) = prove_json(root, &small, &["--property", "data-lemma"]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(
        verdicts(&json),
        [("data-lemma".to_string(), "proved".to_string())],
        "{out}"
    );
}

/// A seeded bug: the file, the right text, the wrong one, the properties run and those that
/// must fail.
struct Bug {
    what: &'static str,
    file: Option<&'static str>,
    right: &'static str,
    wrong: &'static str,
    run: &'static [&'static str],
    fail: &'static [&'static str],
}

#[test]
fn each_property_fails_on_a_seeded_bug() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let answered = "assign r_valid_d = stall | (p_valid_q & p_last_q & ~p_fill_q);";
    let bugs = [
        Bug {
            what: "a dropped response (writes never answered)",
            file: None,
            right: answered,
            wrong: "assign r_valid_d = stall | (p_valid_q & p_last_q & ~p_fill_q & ~p_write_q);",
            run: &["response-count", "response-bound"],
            fail: &["response-count", "response-bound"],
        },
        Bug {
            what: "a duplicated response (one per pass)",
            file: None,
            right: answered,
            wrong: "assign r_valid_d = stall | (p_valid_q & ~p_fill_q);",
            run: &["response-count"],
            fail: &["response-count"],
        },
        Bug {
            what: "a starved fill port (warp accesses always first)",
            file: None,
            right: "assign fill_ready_o = grant_free & ~(req_valid_i & ~last_warp_q);",
            wrong: "assign fill_ready_o = grant_free & ~req_valid_i;",
            run: &["fill-wait"],
            fail: &["fill-wait"],
        },
        Bug {
            what: "a starved warp port (fill beats always first)",
            file: None,
            right: "assign req_ready_o = grant_free & ~(fill_valid_i & last_warp_q);",
            wrong: "assign req_ready_o = grant_free & ~fill_valid_i;",
            run: &["request-wait"],
            fail: &["request-wait"],
        },
        Bug {
            what: "a conflict-free access taking two passes",
            file: None,
            right: "assign c_last_d = accept ? conflict_one_pass :",
            wrong: "assign c_last_d = accept ? 1'b0 :",
            run: &["full-rate"],
            fail: &["full-rate"],
        },
    ];
    for bug in &bugs {
        let dir = generate(root, "smem --lanes 8 --banks 8 --depth 16");
        seed(&dir, bug.file, bug.right, bug.wrong);
        let mut flags = Vec::new();
        for p in bug.run {
            flags.extend(["--property", p]);
        }
        let (code, json, out) = prove_json(root, &dir, &flags);
        assert_eq!(code, Some(1), "{}: {out}", bug.what);
        for (name, verdict) in verdicts(&json) {
            let expected = if bug.fail.contains(&name.as_str()) {
                "failed"
            } else {
                "proved"
            };
            assert_eq!(verdict, expected, "{}: {name}: {out}", bug.what);
        }
        for p in json["properties"].as_array().unwrap() {
            if let Some(trace) = p["verdict"]["trace"].as_str() {
                assert!(Path::new(trace).is_file(), "{}: {trace}", bug.what);
            }
        }
    }
    // A fill beat that writes nothing: the data lemma fails (4 x 4).
    let dir = generate(root, "smem --lanes 4 --banks 4 --depth 4 --fill-words 2");
    seed(
        &dir,
        None,
        "assign in_write = sel_fill | req_write_i;",
        "assign in_write = req_write_i;",
    );
    let (code, json, out) = prove_json(root, &dir, &["--property", "data-lemma"]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        verdicts(&json),
        [("data-lemma".to_string(), "failed".to_string())],
        "{out}"
    );
}

#[test]
fn bad_input_is_refused_before_anything_is_proved() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = generate(root, "smem --lanes 4 --banks 4 --depth 4");
    let d = dir.display().to_string();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--property", "deadlock"],
            "--property deadlock: one of response-count, response-bound, request-wait",
        ),
        (&["--stall", "0"], "--stall 0: 1 to 64 cycles"),
        (&["--stall", "65"], "--stall 65: 1 to 64 cycles"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["prove", "--properties", &d];
        args.extend(extra);
        let o = rtl_gen(root, &args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {out}");
        assert!(out.contains(message), "{extra:?}: {out}");
        assert_eq!(out.lines().count(), 1, "{extra:?}: {out}");
        assert!(!dir.join("prove").exists(), "{extra:?}");
    }
    // A block with no properties: refused, naming what has them.
    let hash = generate(root, "hash --kind modulo --addr-bits 6 --banks 4");
    let o = rtl_gen(
        root,
        &["prove", "--properties", &hash.display().to_string()],
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("the smem blocks"), "{out}");
    // --stall and --property belong to --properties.
    let o = rtl_gen(root, &["prove", &d, "--stall", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
