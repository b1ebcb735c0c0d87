//! The `rtl-gen` command line: the quick start, bad input (one line, exit status 2, nothing
//! written), determinism and feeding a manifest's configuration back.

mod common;

use common::{rtl_gen, stderr, stdout};
use std::path::Path;

/// Every file under `dir` with its contents, sorted by path.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The Fig. 5 hasher into `out/`.
fn fig5() -> Vec<&'static str> {
    [&common::FIG5_HASH[..], &["out/"]].concat()
}

#[test]
fn quick_start_generates_and_cosimulates() {
    let tmp = tempfile::tempdir().unwrap();
    let o = rtl_gen(tmp.path(), &fig5());
    assert!(o.status.success(), "{}", stderr(&o));
    let block = tmp.path().join("out/hash_bvxor_n14_b32");
    for f in [
        "hash_bvxor_n14_b32.v",
        "hash_bvxor_n14_b32.json",
        "hash_bvxor_n14_b32.f",
        "hash_bvxor_n14_b32.core",
    ] {
        assert!(block.join(f).is_file(), "{f} missing");
    }
    let o = rtl_gen(tmp.path(), &["cosim", "out/hash_bvxor_n14_b32"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("16384 passed, 0 failed"),
        "{}",
        stdout(&o)
    );
    // From inside the block folder, `.` names the block.
    let o = rtl_gen(&block, &["cosim", ".", "--simulator", "iverilog", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["report"]["passed"], 16384);
    assert_eq!(report["report"]["simulator"], "iverilog");
}

#[test]
fn same_command_gives_byte_identical_files() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let args = [
        "hash",
        "--kind",
        "bitwise-xor",
        "--addr-bits",
        "20",
        "--banks",
        "16",
        "--configurable",
        "--pipeline",
    ];
    assert!(rtl_gen(a.path(), &args).status.success());
    assert!(rtl_gen(b.path(), &args).status.success());
    let (ta, tb) = (tree(a.path()), tree(b.path()));
    assert!(ta.len() >= 7);
    assert_eq!(ta, tb);
}

#[test]
fn manifest_configuration_feeds_back() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(rtl_gen(tmp.path(), &fig5()).status.success());
    let manifest = "out/hash_bvxor_n14_b32/hash_bvxor_n14_b32.json";
    let o = rtl_gen(
        tmp.path(),
        &["hash", "--config", manifest, "--out", "again"],
    );
    assert!(o.status.success(), "a manifest is accepted: {}", stderr(&o));
    // So is the bare configuration object.
    let text = std::fs::read_to_string(tmp.path().join(manifest)).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    std::fs::write(
        tmp.path().join("cfg.json"),
        value["configuration"].to_string(),
    )
    .unwrap();
    let o = rtl_gen(
        tmp.path(),
        &["hash", "--config", "cfg.json", "--out", "again", "--json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let again: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(again["configuration"], value["configuration"]);
    let vectors = |root: &str| {
        std::fs::read(
            tmp.path()
                .join(root)
                .join("hash_bvxor_n14_b32/tb/hash_bvxor_n14_b32.expect.hex"),
        )
        .unwrap()
    };
    assert_eq!(vectors("out"), vectors("again"));
}

/// Each bad input: the arguments and a fragment the one-line error must contain.
const BAD: &[(&[&str], &str)] = &[
    (
        &["--kind", "modulo", "--addr-bits", "14", "--banks", "24"],
        "--banks 24: out of range",
    ),
    (
        &["--kind", "modulo", "--addr-bits", "4", "--banks", "32"],
        "--banks 32: out of range",
    ),
    (
        &["--kind", "modulo", "--addr-bits", "65", "--banks", "32"],
        "--addr-bits 65: out of range",
    ),
    (
        &["--kind", "bitvector", "--addr-bits", "14", "--banks", "32"],
        "invalid value 'bitvector' for '--kind <KIND>' [possible values: modulo, bitvector-perm",
    ),
    (
        &[
            "--kind",
            "bitvector-perm",
            "--addr-bits",
            "14",
            "--banks",
            "32",
            "--k",
            "10",
        ],
        "--k 10: out of range",
    ),
    (
        &[
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "14",
            "--banks",
            "32",
            "--k1",
            "10",
            "--k2",
            "1",
            "--mask",
            "1",
        ],
        "--k1 10: out of range",
    ),
    (
        &[
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "14",
            "--banks",
            "32",
            "--k1",
            "1",
            "--k2",
            "14",
            "--mask",
            "1",
        ],
        "--k2 14: out of range",
    ),
    (
        &[
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "14",
            "--banks",
            "32",
            "--k1",
            "1",
            "--k2",
            "8",
            "--mask",
            "0x20",
        ],
        "--mask 0x20: out of range",
    ),
    (
        &[
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "14",
            "--banks",
            "32",
            "--k1",
            "1",
            "--k2",
            "8",
            "--mask",
            "seven",
        ],
        "--mask seven",
    ),
    (
        &[
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "14",
            "--banks",
            "32",
            "--k1",
            "1",
        ],
        "needs `k2`",
    ),
    (
        &[
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "14",
            "--banks",
            "32",
            "--k",
            "1",
        ],
        "`k` does not apply",
    ),
    (
        &[
            "--kind",
            "bitwise-perm",
            "--addr-bits",
            "14",
            "--banks",
            "8",
            "--bits",
            "0,3,3",
        ],
        "bits repeats 3",
    ),
    (
        &[
            "--kind",
            "bitwise-perm",
            "--addr-bits",
            "14",
            "--banks",
            "8",
            "--bits",
            "0,3,14",
        ],
        "bits[2] = 14",
    ),
    (
        &[
            "--kind",
            "bitwise-perm",
            "--addr-bits",
            "14",
            "--banks",
            "8",
            "--bits",
            "0,3",
        ],
        "bits has 2 entries",
    ),
    (
        &[
            "--kind",
            "bitwise-xor",
            "--addr-bits",
            "14",
            "--banks",
            "4",
            "--pairs",
            "0:5,5:0",
        ],
        "pairs repeats 5:0",
    ),
    (
        &[
            "--kind",
            "bitwise-xor",
            "--addr-bits",
            "14",
            "--banks",
            "4",
            "--pairs",
            "0-5,1:2",
        ],
        "--pairs 0-5",
    ),
    (
        &[
            "--kind",
            "xor-matrix",
            "--addr-bits",
            "8",
            "--banks",
            "8",
            "--rows",
            "0x3,0x6,0x5",
        ],
        "rank 2",
    ),
    (
        &[
            "--kind",
            "xor-matrix",
            "--addr-bits",
            "8",
            "--banks",
            "4",
            "--rows",
            "0x3,0x100",
        ],
        "rows[1] = 0x100",
    ),
    (
        &[
            "--kind",
            "modulo",
            "--addr-bits",
            "8",
            "--banks",
            "4",
            "--configurable",
        ],
        "nothing to configure",
    ),
    (
        &["--kind", "bitwise-perm", "--addr-bits", "8", "--banks", "4"],
        "needs its configuration (bits)",
    ),
    (
        &[
            "--kind",
            "bitwise-perm",
            "--addr-bits",
            "8",
            "--banks",
            "4",
            "--configurable",
            "--offsets",
            "one-hot",
        ],
        "--offsets one-hot: applies to configurable bitvector-perm and bitvector-xor hashers only",
    ),
    (
        &[
            "--kind",
            "bitvector-perm",
            "--addr-bits",
            "8",
            "--k",
            "2",
            "--banks",
            "4",
            "--offsets",
            "one-hot",
        ],
        "--offsets one-hot: applies to configurable bitvector-perm and bitvector-xor hashers only",
    ),
];

#[test]
fn bad_input_gets_one_line_exit_2_and_no_files() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, fragment) in BAD {
        let mut all = vec!["hash"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--out", "out"]);
        let o = rtl_gen(tmp.path(), &all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(fragment),
            "{args:?}: {err}"
        );
        assert!(!tmp.path().join("out").exists(), "{args:?} wrote files");
    }
}

#[test]
fn rank_deficient_matrix_is_generated_when_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "hash",
        "--kind",
        "xor-matrix",
        "--addr-bits",
        "8",
        "--banks",
        "8",
        "--rows",
        "0x3,0x6,0x5",
        "--allow-rank-deficient",
    ];
    let o = rtl_gen(tmp.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn bad_config_files_and_output_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "malformed.json",
            "{\"kind\": \"modulo\", addr_bits: 8}",
            "malformed.json: line 1 column 20: key must be a string",
        ),
        (
            "truncated.json",
            "{\"kind\": \"modulo\", \"addr_bits\": 8",
            "truncated.json: line 1 column 33, key `addr_bits`: EOF",
        ),
        (
            "unknown.json",
            "{\"kind\": \"modulo\", \"addr_bits\": 8, \"banks\": 4, \"bank\": 2}",
            "line 1 column 53, key `bank`: unknown field `bank`",
        ),
        // A type error names its key, line and column (serde alone gives neither key nor place).
        (
            "type.json",
            "{\"kind\": \"modulo\",\n \"addr_bits\": \"8\", \"banks\": 4}",
            "type.json: line 2 column 17, key `addr_bits`: invalid type: string \"8\", expected u32",
        ),
        // A repeated key is refused, not \"the last one wins\".
        (
            "twice.json",
            "{\"kind\": \"modulo\", \"addr_bits\": 8,\n \"banks\": 4,\n \"banks\": 8}",
            "twice.json: line 3 column 8, key `banks`: appears twice",
        ),
        // In a manifest, the key path runs through its configuration.
        (
            "manifest.json",
            concat!(
                "{\"generator\": \"rtl-gen 0.1.0\", \"family\": \"hash\", \"configuration\":\n",
                " {\"kind\": \"modulo\", \"addr_bits\": 8, \"banks\": -4}}"
            ),
            "line 2 column 47, key `configuration.banks`: invalid value: integer `-4`",
        ),
    ];
    for (file, text, fragment) in cases {
        std::fs::write(tmp.path().join(file), text).unwrap();
        let o = rtl_gen(tmp.path(), &["hash", "--config", file, "--out", "out"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(fragment), "{file}: {err}");
    }
    let o = rtl_gen(tmp.path(), &["hash", "--config", "missing.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.json"), "{}", stderr(&o));
    assert!(!tmp.path().join("out").exists());

    // An output folder that is a file.
    std::fs::write(tmp.path().join("afile"), "x").unwrap();
    let o = rtl_gen(
        tmp.path(),
        &[
            "hash",
            "--kind",
            "modulo",
            "--addr-bits",
            "8",
            "--banks",
            "4",
            "--out",
            "afile/sub",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("error: afile/sub"), "{}", stderr(&o));

    // cosim of a folder that is not a block.
    let o = rtl_gen(tmp.path(), &["cosim", "nowhere"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nowhere"), "{}", stderr(&o));
}
