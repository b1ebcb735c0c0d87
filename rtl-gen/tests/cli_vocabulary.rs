//! One command-line vocabulary across the commands: a bad enum value is refused in one line that
//! names the flag, the value and the allowed values; `--seed`, `--vectors`, `--jobs` and
//! `--quiet` mean the same everywhere; the old spellings still work; a manifest of another
//! family is no hash configuration.

mod common;

use common::{rtl_gen, stderr, stdout};
use std::path::Path;

#[test]
fn a_bad_enum_value_lists_the_allowed_ones_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str, &str); 12] = [
        (
            &[
                "hash",
                "--kind",
                "bogus",
                "--addr-bits",
                "4",
                "--banks",
                "4",
            ],
            "'bogus' for '--kind <KIND>'",
            "modulo, bitvector-perm, bitvector-xor, bitwise-perm, bitwise-xor, xor-matrix",
        ),
        (
            &["rap", "--kind", "rom"],
            "'rom' for '--kind <KIND>'",
            "rap, ras, 3p",
        ),
        (
            &["d2ma", "dma"],
            "'dma' for '<UNIT>'",
            "agen, controller, raw-check, engine",
        ),
        (
            &["congestion", "--kinds", "raw,4p"],
            "'4p' for '--kinds <KINDS>'",
            "raw, ras, rap, 1p, r1p, 3p, w2p, 1pw2r",
        ),
        (
            &["congestion", "--pattern", "zigzag"],
            "'zigzag' for '--pattern <PATTERN>'",
            "contiguous, stride, stride1, stride2, stride3, diagonal, random, malicious",
        ),
        (
            &["search", "--trace", "t", "--heuristic", "greedy"],
            "'greedy' for '--heuristic <HEURISTIC>'",
            "all, exhaustive, fixed, givargis, mih, gf2",
        ),
        (
            &["search", "--trace", "t", "--kinds", "xor"],
            "'xor' for '--kinds <KINDS>'",
            "all, modulo, bitvector-perm",
        ),
        (
            &["sweep", "hash", "--kinds", "modulo,xor"],
            "'xor' for '--kinds <KINDS>'",
            "all, modulo, bitvector-perm",
        ),
        (
            &["cosim", "out/x", "--simulator", "vcs"],
            "'vcs' for '--simulator <SIMULATOR>'",
            "verilator, iverilog",
        ),
        (
            &["flow", "--simulator", "xcelium"],
            "'xcelium' for '--simulator <SIMULATOR>'",
            "verilator, iverilog",
        ),
        (
            &["cuda", "layout", "--kind", "swizzle"],
            "'swizzle' for '--kind <KIND>'",
            "raw, ras, rap, rap-wide",
        ),
        (
            &["sweep", "structures", "--jobs", "0"],
            "'0' for '--jobs <N>'",
            "1..=1024",
        ),
    ];
    for (args, what, allowed) in cases {
        let o = rtl_gen(tmp.path(), args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: invalid value {what}")) && err.contains(allowed),
            "{args:?}: {err}"
        );
    }
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

/// A generated file without the header line that records the command.
fn without_command(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with("// Command:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The manifest of the block in `dir`.
fn manifest(dir: &Path) -> serde_json::Value {
    let name = dir.file_name().unwrap().to_str().unwrap();
    serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap())
        .unwrap()
}

#[test]
fn seed_means_the_vector_seed_and_old_spellings_still_work() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |out: &str, args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--vectors", "40", "--out", out]);
        let o = rtl_gen(tmp.path(), &all);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    };
    // RAP: --rap-seed draws the table, --seed the vectors (old spelling --vector-seed).
    run(
        "new",
        &["rap", "--w", "64", "--rap-seed", "3", "--seed", "5"],
    );
    run(
        "old",
        &["rap", "--w", "64", "--rap-seed", "3", "--vector-seed", "5"],
    );
    let (new, old) = (
        tmp.path().join("new/rap_w64"),
        tmp.path().join("old/rap_w64"),
    );
    assert_eq!(manifest(&new)["configuration"]["seed"], 3);
    assert_eq!(manifest(&new)["testbench"]["seed"], 5);
    for file in ["rap_w64.v", "tb/rap_w64.stim.hex", "tb/rap_w64.expect.hex"] {
        assert_eq!(
            without_command(&new.join(file)),
            without_command(&old.join(file)),
            "{file}"
        );
    }
    // --storage packed and the old --loadable --packed give the same block.
    run("new", &["rap", "--w", "8", "--storage", "packed"]);
    run("old", &["rap", "--w", "8", "--loadable", "--packed"]);
    let (new, old) = (
        tmp.path().join("new/rap_w8_load_packed"),
        tmp.path().join("old/rap_w8_load_packed"),
    );
    assert_eq!(manifest(&new)["variant"], "packed");
    assert_eq!(
        without_command(&new.join("rap_w8_load_packed.v")),
        without_command(&old.join("rap_w8_load_packed.v"))
    );
    // D2MA: --vectors, and the old --random.
    let d2ma = |out: &str, flag: &str| {
        let o = rtl_gen(
            tmp.path(),
            &[
                "d2ma",
                "raw-check",
                "--ctas",
                "2",
                "--buffers",
                "1",
                flag,
                "7",
                "--seed",
                "9",
                "--out",
                out,
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        manifest(&tmp.path().join(out).join("d2ma_raw_check_c2_b1"))["testbench"].clone()
    };
    let new = d2ma("new", "--vectors");
    assert_eq!(new["seed"], 9);
    assert!(new["coverage"]
        .as_str()
        .unwrap()
        .contains("then 7 random guard sets"));
    assert_eq!(new, d2ma("old", "--random"));
    // cuda layout: --rap-seed, and the old --seed.
    let header = |flag: &str| {
        let o = rtl_gen(tmp.path(), &["cuda", "layout", "--w", "8", flag, "4"]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(header("--rap-seed"), header("--seed"));
}

#[test]
fn jobs_and_quiet_are_one_flag_each_wherever_they_apply() {
    let tmp = tempfile::tempdir().unwrap();
    for command in [
        &["congestion"][..],
        &["sweep", "hash"],
        &["sweep", "structures"],
    ] {
        let mut args = command.to_vec();
        args.push("--help");
        let help = stdout(&rtl_gen(tmp.path(), &args));
        assert!(
            help.contains("--jobs <N>") && help.contains("-q, --quiet"),
            "{command:?}: {help}"
        );
    }
    for command in ["flow", "cosim", "synth", "search"] {
        let help = stdout(&rtl_gen(tmp.path(), &[command, "--help"]));
        assert!(help.contains("-q, --quiet"), "{command}: {help}");
    }
    // The thread count changes nothing but the summary line.
    let congestion = |jobs: &str| {
        let o = rtl_gen(
            tmp.path(),
            &[
                "congestion",
                "--w",
                "16",
                "--trials",
                "2000",
                "--json",
                "--quiet",
                "--jobs",
                jobs,
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("on {jobs} threads")),
            "{}",
            stderr(&o)
        );
        stdout(&o)
    };
    assert_eq!(congestion("1"), congestion("2"));
}

#[test]
fn hash_config_takes_no_manifest_of_another_family() {
    let tmp = tempfile::tempdir().unwrap();
    let o = rtl_gen(tmp.path(), &["rap", "--w", "4", "--out", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = rtl_gen(
        tmp.path(),
        &[
            "hash",
            "--config",
            "out/rap_w4/rap_w4.json",
            "--out",
            "again",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("rap_w4.json") && err.contains("the manifest of a rap block"),
        "{err}"
    );
    assert!(!tmp.path().join("again").exists());
}

/// Every file below `dir` (relative path, text), without the lines that record the command.
fn folder_without_command(dir: &Path) -> Vec<(String, String)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
                continue;
            }
            // The command line, and its continuation lines where the emitter wraps it at 100
            // columns (`//   <rest>` right after it), name the spelling: they are left out.
            let mut in_command = false;
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap())
                .lines()
                .filter(|l| {
                    let command = l.contains("rtl-gen rap ") || l.contains("rtl-gen smem ");
                    in_command = command || (in_command && l.starts_with("//   "));
                    !in_command
                })
                .collect::<Vec<_>>()
                .join("\n");
            let name = path.strip_prefix(root).unwrap().display().to_string();
            out.push((name, text));
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// One word, one meaning (issue 34): `--banks` is the bank count (`--w` before), `--kind` one
/// kind and `--kinds` several (`--ras`, `--dims 4`, `--layout`, `--scheme`, search's `--kind`
/// before), `--configurable` run-time programmability (`--storage loadable|packed`,
/// `--loadable`, `--rap-loadable` before), `--lanes` addresses per warp access only (DUT
/// instances are `--instances`, `--lanes` before); each old spelling gives what the new one
/// gives.
#[test]
fn the_new_words_and_their_old_spellings_give_the_same_result() {
    let tmp = tempfile::tempdir().unwrap();
    let generate = |out: &str, args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--vectors", "20", "--out", out]);
        let o = rtl_gen(tmp.path(), &all);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let dir = tmp.path().join(out);
        let blocks: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(blocks.len(), 1, "{args:?}");
        let block = blocks.into_iter().next().unwrap().unwrap().path();
        let name = block.file_name().unwrap().to_string_lossy().into_owned();
        (name, folder_without_command(&block))
    };
    let smem = [
        "smem", "--lanes", "4", "--banks", "4", "--depth", "8", "--map", "rap",
    ];
    let smem_new = [&smem[..], &["--configurable"]].concat();
    let smem_old = [&smem[..], &["--rap-loadable"]].concat();
    let cases: [&[&[&str]]; 6] = [
        &[&["rap", "--banks", "8"], &["rap", "--w", "8"]],
        &[
            &["rap", "--banks", "6", "--kind", "ras", "--rap-seed", "3"],
            &["rap", "--w", "6", "--ras", "--rap-seed", "3"],
        ],
        &[
            &["rap", "--banks", "4", "--kind", "3p"],
            &["rap", "--w", "4", "--dims", "4"],
        ],
        &[
            &["rap", "--banks", "4", "--configurable"],
            &["rap", "--w", "4", "--storage", "loadable"],
            &["rap", "--w", "4", "--loadable"],
        ],
        &[
            &["rap", "--banks", "8", "--configurable", "--packed"],
            &["rap", "--w", "8", "--storage", "packed"],
            &["rap", "--w", "8", "--loadable", "--packed"],
        ],
        &[&smem_new, &smem_old],
    ];
    for (i, spellings) in cases.iter().enumerate() {
        let (name, files) = generate(&format!("c{i}new"), spellings[0]);
        for (j, old) in spellings.iter().enumerate().skip(1) {
            let (old_name, old_files) = generate(&format!("c{i}old{j}"), old);
            assert_eq!(name, old_name, "{old:?}");
            assert_eq!(files, old_files, "{old:?} against {:?}", spellings[0]);
        }
    }
    // The same printed output.
    let printed = |args: &[&str]| {
        let o = rtl_gen(tmp.path(), args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o).lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(
        printed(&["cuda", "layout", "--kind", "ras", "--banks", "8"]),
        printed(&["cuda", "layout", "--layout", "ras", "--w", "8"])
    );
    let congestion = ["--pattern", "stride", "--trials", "50", "--json", "--quiet"];
    assert_eq!(
        printed(
            &[
                &["congestion", "--banks", "16", "--kinds", "rap"][..],
                &congestion
            ]
            .concat()
        ),
        printed(
            &[
                &["congestion", "--w", "16", "--scheme", "rap"][..],
                &congestion
            ]
            .concat()
        )
    );
    std::fs::write(tmp.path().join("k.trace"), "0 1 2 3\n0 4 8 12\n").unwrap();
    for (flag, out) in [("--kinds", "s_new"), ("--kind", "s_old")] {
        let args = [
            "search",
            "--trace",
            "k.trace",
            "--addr-bits",
            "4",
            "--banks",
            "4",
            flag,
            "bitvector-xor",
            "--out",
            out,
        ];
        printed(&args);
    }
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("s_new/best.json")).unwrap(),
        std::fs::read_to_string(tmp.path().join("s_old/best.json")).unwrap()
    );
    // DUT instances: one flag under both spellings, refused past its limit by its new name.
    for (command, flag) in [
        (&["cosim", "x", "--fast"][..], "--instances"),
        (&["cosim", "x", "--fast"], "--lanes"),
        (&["sweep", "configs"], "--instances"),
        (&["sweep", "configs"], "--lanes"),
    ] {
        let o = rtl_gen(tmp.path(), &[command, &[flag, "100000"]].concat());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{command:?} {flag}: {err}");
        assert!(err.starts_with("error: --instances 100000:"), "{err}");
    }
}
