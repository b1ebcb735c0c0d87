//! `rtl-gen d2ma system` and `rtl-gen cosim` on its folder, at the small size: the folder's
//! files, its manifest against the published schema, the end-to-end testbench passing under
//! Verilator and Icarus, the same testbench failing (exit status 1) once one expected word is
//! corrupted, two mutants of the writeback failing (a read outside the extent, a waiting chunk
//! dropped), the new flags' bad values refused in one line with nothing written, and a user's
//! folder in the way left alone.

mod common;

use common::{rtl_gen, stderr, stdout, SMALL_SYSTEM as SMALL};
use std::path::Path;

/// The folder the small system is written to.
const NAME: &str = "d2ma_system_c2_b2_s32_g24_m2_l4_b8_d256_rap_f4_v64";

/// The loads the small system's testbench checks (its vectors): the words of every buffer of
/// every phase, 4 at a time, counted from the model's shared images.
const LOADS: usize = 212;

/// Runs `rtl-gen` in `dir` and checks its exit status.
fn run(dir: &Path, args: &[&str], status: i32) -> String {
    let o = rtl_gen(dir, args);
    assert_eq!(
        o.status.code(),
        Some(status),
        "rtl-gen {}:\n{}{}",
        args.join(" "),
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

#[test]
fn small_system_passes_under_both_simulators_and_a_corrupted_word_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = SMALL.to_vec();
    args.extend(["--out", "out", "--json"]);
    let manifest: serde_json::Value = serde_json::from_str(&run(tmp.path(), &args, 0)).unwrap();
    common::assert_schema("manifest.schema.json", &manifest);
    assert_eq!(manifest["kind"], "system");
    assert_eq!(manifest["top"], "d2ma_engine_c2_b2_s32_g24_w4x4_a11_m2");
    assert_eq!(manifest["testbench"]["vectors"], LOADS);
    let dir = tmp.path().join("out").join(NAME);
    for file in [
        format!("{NAME}.json"),
        format!("{NAME}.f"),
        "d2ma_engine_c2_b2_s32_g24_w4x4_a11_m2.v".into(),
        "d2ma_engine_c2_b2_s32_g24_w4x4_a11_m2_writeback.v".into(),
        "smem_l4_b8_d256_rap_f4.v".into(),
        format!("tb/tb_{NAME}.v"),
        format!("tb/{NAME}.stim.hex"),
        format!("tb/{NAME}.expect.hex"),
    ] {
        assert!(dir.join(&file).is_file(), "{file}");
    }
    let dir_arg = dir.to_string_lossy().to_string();
    let pass = format!("{LOADS} passed, 0 failed");
    let out = run(tmp.path(), &["cosim", &dir_arg], 0);
    assert!(out.contains(&pass), "{out}");
    let out = run(
        tmp.path(),
        &["cosim", &dir_arg, "--simulator", "iverilog"],
        0,
    );
    assert!(out.contains(&pass), "{out}");
    // The run's cycles, waits, probes and segment requests: some loads waited, some probes ran.
    let log = std::fs::read_to_string(dir.join("build/verilator/run.log")).unwrap();
    let stats = log
        .lines()
        .find_map(|l| {
            l.strip_prefix(&format!("{NAME}: "))
                .filter(|l| l.contains(" cycles, "))
        })
        .unwrap_or_else(|| panic!("{log}"));
    let numbers: Vec<u64> = stats
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(
        numbers.len() == 4 && numbers.iter().all(|&n| n > 0),
        "{stats}"
    );

    // One byte of one word of load 100's expected data, flipped: that load fails.
    let expect = dir.join(format!("tb/{NAME}.expect.hex"));
    let text = std::fs::read_to_string(&expect).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let line = &mut lines[100];
    // The line is the byte mask (one hex digit a lane) then the words: corrupt lane 0's low
    // byte, whose mask bit must be set for the corruption to count.
    let mask0 = u8::from_str_radix(&line[3..4], 16).unwrap();
    assert!(mask0 & 1 == 1, "load 100's lane 0 holds data: {line}");
    let last = line.len() - 1;
    let flipped = u8::from_str_radix(&line[last..], 16).unwrap() ^ 1;
    line.replace_range(last.., &format!("{flipped:x}"));
    std::fs::write(&expect, lines.join("\n") + "\n").unwrap();
    let out = run(tmp.path(), &["cosim", &dir_arg], 1);
    assert!(
        out.contains(&format!("{} passed, 1 failed", LOADS - 1))
            && out.contains("MISMATCH load 100 byte 0"),
        "{out}"
    );
}

#[test]
fn bad_system_flags_are_refused_in_one_line_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("cfg.json"),
        r#"{"kind": "xor-matrix", "addr_bits": 14, "banks": 32, "rows": ["0x1", "0x2", "0x24", "0x48", "0x90"]}"#,
    )
    .unwrap();
    let cases: [(&[&str], &str); 19] = [
        (&["--mshrs", "3"], "--mshrs"),
        (&["--mshrs", "32"], "--mshrs"),
        (&["--lanes", "3"], "lanes"),
        (&["--depth", "1024"], "--depth"),
        (&["--banks", "8", "--depth", "64"], "--depth"),
        (&["--buffers", "1"], "--buffers"),
        (&["--vector-length", "0"], "--vector-length"),
        (&["--map", "hash"], "--hash-config"),
        (&["--map", "modulo", "--rap-seed", "2"], "--rap-*"),
        (
            &[
                "--map",
                "hash",
                "--hash-config",
                "cfg.json",
                "--configurable",
            ],
            "--map",
        ),
        (&["--transfer", "count=4"], "--transfer"),
        (&["--max-in-flight", "4"], "--max-in-flight"),
        (&["--tensor-slots", "9"], "--tensor-slots"),
        (&["--tensor-loads", "loads.json"], "--tensor-loads"),
        (&["--tensor-cases", "cases.txt"], "--tensor-cases"),
        // A bad tensor map, a TF32 map, two loads at once on one shared address, a box past
        // the shared memory.
        (
            &["--tensor-slots", "2", "--tensor-loads", "wide.json"],
            "--tensor-loads load 1: box_dim[0] = 72 is out of range",
        ),
        (
            &["--tensor-slots", "2", "--tensor-loads", "tf32.json"],
            "--tensor-loads load 0: data_type = tf32 is out of range",
        ),
        (
            &["--tensor-slots", "2", "--tensor-loads", "loads.json"],
            "--tensor-loads loads 0 and 1:",
        ),
        (
            &["--tensor-slots", "2", "--tensor-loads", "past.json"],
            "--tensor-loads load 1: shared_address = 0xfc80 is out of range",
        ),
    ];
    let map = r#"{"data_type": "f16", "global_dim": [100, 40], "global_strides": [256],
        "box_dim": [64, 8], "swizzle": "128B"}"#;
    let load = |map: &str, at: u32| {
        format!(r#"{{"map": {map}, "coords": [0, 0], "shared_address": {at}}}"#)
    };
    for (file, loads) in [
        ("loads.json", [load(map, 0), load(map, 256)]),
        (
            "wide.json",
            [load(map, 0), load(&map.replace("[64, 8]", "[72, 8]"), 2048)],
        ),
        (
            "tf32.json",
            [
                load(&map.replace("f16", "tf32").replace("[64, 8]", "[32, 8]"), 0),
                load(map, 2048),
            ],
        ),
        // The box's 1 024 bytes from 0xfc80 end past the 64 KB shared memory.
        ("past.json", [load(map, 0), load(map, 0xfc80)]),
    ] {
        std::fs::write(tmp.path().join(file), format!("[{}]", loads.join(", "))).unwrap();
    }
    std::fs::write(tmp.path().join("cases.txt"), "").unwrap();
    for (extra, flag) in cases {
        let mut args = vec!["d2ma", "system", "--out", "out"];
        args.extend(extra);
        let o = rtl_gen(tmp.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.lines().count() == 1 && err.contains(flag),
            "{args:?}: {err}"
        );
    }
    for args in [
        &["d2ma", "engine", "--mshrs", "4", "--out", "out"][..],
        &["d2ma", "engine", "--map", "rap", "--out", "out"][..],
    ] {
        let o = rtl_gen(tmp.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.lines().count() == 1 && err.contains("system"),
            "{args:?}: {err}"
        );
    }
    assert!(!tmp.path().join("out").exists(), "nothing written");
    // A user's folder where the system's goes is refused and left as it was.
    let mine = tmp.path().join("out").join(NAME);
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "mine").unwrap();
    let mut args = SMALL.to_vec();
    args.extend(["--out", "out"]);
    let o = rtl_gen(tmp.path(), &args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("rtl-gen did not write it"),
        "{}",
        stderr(&o)
    );
    let left: Vec<_> = std::fs::read_dir(&mine).unwrap().collect();
    assert_eq!(left.len(), 1);
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "mine"
    );
}

/// Co-simulates the system in `dir` under Verilator with its writeback edited by `mutate`;
/// returns the run's log, asserting that the testbench failed.
fn log_of_mutant(dir: &Path, mutate: impl Fn(&str) -> String) -> String {
    let rtl = dir.join("d2ma_engine_c2_b2_s32_g24_w4x4_a11_m2_writeback.v");
    let text = std::fs::read_to_string(&rtl).unwrap();
    let mutated = mutate(&text);
    assert_ne!(mutated, text, "the mutation changed nothing");
    std::fs::write(&rtl, &mutated).unwrap();
    let (_, report) = rtl_gen::cosim::run(dir, "verilator").unwrap();
    std::fs::write(&rtl, &text).unwrap();
    assert!(report.failed > 0, "the mutant passed");
    std::fs::read_to_string(dir.join("build/verilator/run.log")).unwrap()
}

/// The memory model refuses a read outside the extent, and the port's busy cycles reach the
/// writeback's held copy: a writeback that requests every segment whatever the extent fails on
/// its first request outside, and one that ignores the copy of a chunk waiting for the port
/// loses that chunk.
#[test]
fn mutants_reading_outside_the_extent_or_dropping_a_waiting_chunk_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = SMALL.to_vec();
    args.extend(["--out", "out"]);
    run(tmp.path(), &args, 0);
    let dir = tmp.path().join("out").join(NAME);
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert_eq!((report.passed, report.failed), (LOADS, 0));
    let log = log_of_mutant(&dir, |t| {
        t.replace("(stage_held_keep_now == 8'h00)", "1'b0")
    });
    assert!(log.contains("outside the extent of phase"), "{log}");
    log_of_mutant(&dir, |t| {
        t.replace(
            "assign stage_held_valid_d = staged & ~stage_fire;",
            "assign stage_held_valid_d = 1'b0 & staged & ~stage_fire;",
        )
    });
}
