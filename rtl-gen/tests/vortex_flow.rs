//! `rtl-gen vortex` end to end: Vortex's rtlsim built with a generated local memory behind the
//! XOR paper's fixed XOR and with Vortex's own, a kernel of Vortex's (`sgemm2`) and one of the
//! project's (`transpose`) run on both: every run passes its host-side check, and under the
//! hash the bank stalls (Vortex's own `lmem_perf` counter) fall below Vortex's memory's for
//! the same kernel. The trace of a real kernel is then searched and replayed through the
//! generated memory's RTL, cycles equal to the model's.
//!
//! Cost on the 2-core machine: two rtlsim builds (about 3.5 CPU-minutes each without ccache),
//! two Vortex trees (SoftFloat, the kernel library, the runtime: about 20 CPU-seconds each),
//! seconds of simulation. The builds are kept in `target/tmp/vortex` (a rerun takes seconds).

mod common;

use common::{assert_schema, rtl_gen, stderr, stdout, vortex_home};
use serde_json::Value;
use std::path::PathBuf;

/// The build folder, kept between runs of the test.
fn work() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vortex")
}

/// The kernels: Vortex's tiled product (4 x 4 tiles: lanes read local_B four words apart) and
/// the project's transpose with 4 x 4 tiles (columns read four words apart).
const KERNELS: &str = "sgemm2:-n16,transpose:-n32:-t4";

#[test]
fn hashed_local_memory_passes_and_stalls_less_than_vortex_own() {
    let tmp = tempfile::tempdir().unwrap();
    let work = work();
    let home = vortex_home();
    let o = rtl_gen(
        tmp.path(),
        &[
            "vortex",
            "run",
            "--map",
            "vortex,xor",
            "--kernels",
            KERNELS,
            "--json",
            "--jobs",
            "2",
            "--vortex",
            home.to_str().unwrap(),
            "--out",
            work.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}\n{}", stderr(&o), stdout(&o));
    let records: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_schema("vortex-run.schema.json", &records);
    let records = records.as_array().unwrap();
    assert_eq!(records.len(), 4, "{records:#?}");
    let find = |kernel: &str, map: &str| {
        records
            .iter()
            .find(|r| r["kernel"] == kernel && r["map"] == map)
            .unwrap_or_else(|| panic!("no record of {kernel} on {map}"))
    };
    for kernel in ["sgemm2 -n16", "transpose -n32 -t4"] {
        let own = find(kernel, "vortex");
        let ours = find(kernel, "xor");
        for r in [own, ours] {
            assert_eq!(r["passed"], true, "{r:#}");
            assert!(r["cycles"].as_u64().unwrap() > 0, "{r:#}");
        }
        let (own_stalls, our_stalls) = (
            own["bank_stalls"].as_u64().unwrap(),
            ours["bank_stalls"].as_u64().unwrap(),
        );
        assert!(
            our_stalls < own_stalls,
            "{kernel}: {our_stalls} bank stalls under the fixed XOR, {own_stalls} on Vortex's own"
        );
        // The generated memory's own counters came through its statistics line.
        assert!(ours["bank_cycles"].as_u64().unwrap() > 0, "{ours:#}");
        assert!(own["bank_cycles"].is_null(), "{own:#}");
    }
}

#[test]
fn a_real_trace_is_searched_and_replayed_cycle_exact() {
    let tmp = tempfile::tempdir().unwrap();
    let work = work();
    let home = vortex_home();
    let trace = tmp.path().join("transpose.trace");
    let o = rtl_gen(
        tmp.path(),
        &[
            "vortex",
            "trace",
            "--kernel",
            "transpose:-n32:-t4",
            "--map",
            "xor",
            "--out",
            trace.to_str().unwrap(),
            "--vortex",
            home.to_str().unwrap(),
            "--work",
            work.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&trace).unwrap();
    // 32 x 32 words written and read, 4 lanes an access: 256 stores and 256 loads.
    let (st, ld) = (
        text.lines().filter(|l| l.starts_with("st ")).count(),
        text.lines().filter(|l| l.starts_with("ld ")).count(),
    );
    assert_eq!((st, ld), (256, 256), "{}", &text[..text.len().min(400)]);
    // A column read of a 4 x 4 tile: four words four apart.
    let column = text
        .lines()
        .find(|l| l.starts_with("ld "))
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|a| a.parse::<u64>().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(column.len(), 4);
    assert!(column.windows(2).all(|w| w[1] == w[0] + 4), "{column:?}");

    // The search finds a hash without replays for it (modulo has them).
    let o = rtl_gen(
        tmp.path(),
        &[
            "search",
            "--trace",
            trace.to_str().unwrap(),
            "--addr-bits",
            "12",
            "--banks",
            "4",
            "--warp-size",
            "4",
            "--json",
            "--out",
            "search",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        report["before"]["replays"].as_u64().unwrap() > 0,
        "{report:#}"
    );
    let least = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["replays"].as_u64().unwrap())
        .min();
    assert_eq!(least, Some(0), "{report:#}");

    // Replayed through the generated memory's RTL: cycles equal the model's (exit status 0).
    let o = rtl_gen(
        tmp.path(),
        &[
            "smem",
            "--lanes",
            "4",
            "--banks",
            "4",
            "--depth",
            "1024",
            "--map",
            "hash",
            "--hash-config",
            "search/best.json",
            "--replay",
            trace.to_str().unwrap(),
            "--json",
            "--out",
            "replay",
        ],
    );
    assert!(o.status.success(), "{}\n{}", stderr(&o), stdout(&o));
    let replay: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let row = &replay["replay"][0];
    assert_eq!(row["accesses"], 512, "{row:#}");
    assert_eq!(row["rtl_cycles"], row["model_cycles"], "{row:#}");
    assert_eq!(row["rtl_conflict_cycles"], 0, "{row:#}");
}
