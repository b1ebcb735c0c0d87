//! Every count a user gives, at its limit and one past it (docs/LIMITS.md): past it the run is
//! refused in one line naming the flag, the value and the limit, before any work; at it the run
//! gets past the check (shown cheaply: it then stops at a later refusal, a user's file in the
//! way of its output). Values near 2^64 and negative values are refused the same way.

use rtl_gen::limits::{MAX_CONFIGS, MAX_D2MA_RANDOM, MAX_TRIALS, MAX_VECTORS};
use std::process::Output;

mod common;
use common::{rtl_gen, rtl_gen_within};

fn line(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

/// (command up to the count flag, the flag, its limit, the rest, where the output goes)
fn cases() -> Vec<(Vec<&'static str>, &'static str, u64, Vec<&'static str>)> {
    vec![
        (
            vec![
                "hash",
                "--kind",
                "modulo",
                "--addr-bits",
                "20",
                "--banks",
                "32",
            ],
            "--vectors",
            MAX_VECTORS,
            vec!["--out", "o"],
        ),
        (
            vec![
                "hash",
                "--kind",
                "bitwise-xor",
                "--addr-bits",
                "20",
                "--banks",
                "32",
                "--configurable",
            ],
            "--configs",
            MAX_CONFIGS,
            vec!["--out", "o"],
        ),
        (
            vec!["rap", "--w", "32"],
            "--vectors",
            MAX_VECTORS,
            vec!["--out", "o"],
        ),
        (
            vec!["d2ma", "agen"],
            "--vectors",
            MAX_D2MA_RANDOM,
            vec!["--out", "o"],
        ),
        (
            vec![
                "congestion",
                "--w",
                "2",
                "--scheme",
                "raw",
                "--pattern",
                "contiguous",
                "--quiet",
            ],
            "--trials",
            MAX_TRIALS,
            vec!["--plot", "o"],
        ),
    ]
}

#[test]
fn every_count_at_its_limit_and_one_past() {
    let tmp = tempfile::tempdir().unwrap();
    // A user's file where every command would write: a run that passed its checks stops here.
    std::fs::write(tmp.path().join("o"), "a user's file").unwrap();
    for (head, flag, max, tail) in cases() {
        let run = |value: String| {
            let args: Vec<String> = head
                .iter()
                .map(|s| s.to_string())
                .chain([flag.to_string(), value])
                .chain(tail.iter().map(|s| s.to_string()))
                .collect();
            rtl_gen(tmp.path(), &args)
        };
        let at = line(&run(max.to_string()));
        assert!(
            at.contains("rtl-gen did not write"),
            "{flag} at {max}: {at}"
        );
        for past in [max + 1, u64::MAX] {
            let err = line(&run(past.to_string()));
            assert!(
                err.contains(flag)
                    && err.contains(&past.to_string())
                    && err.contains(&format!("at most {max}")),
                "{flag} {past}: {err}"
            );
        }
        let err = line(&run("-1".into()));
        assert!(err.contains(flag) && err.contains("-1"), "{flag} -1: {err}");
    }
    assert_eq!(
        std::fs::read(tmp.path().join("o")).unwrap(),
        b"a user's file"
    );
}

#[test]
fn congestion_work_and_search_spaces_are_bounded_up_front() {
    let tmp = tempfile::tempdir().unwrap();
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // 10^9 trials of every default cell: far more than ten minutes.
    let err = line(&rtl_gen(
        tmp.path(),
        &args(&["congestion", "--trials", "1000000000", "--quiet"]),
    ));
    assert!(
        err.contains("--trials 1000000000") && err.contains("units of work"),
        "{err}"
    );
    let err = line(&rtl_gen(
        tmp.path(),
        &args(&[
            "congestion",
            "--dims",
            "4",
            "--w",
            "64",
            "--trials",
            "100000000",
            "--quiet",
        ]),
    ));
    assert!(err.contains("fewer --trials"), "{err}");

    // A 64-bit, 65 536-bank exhaustive space is refused before the search, saying what to
    // restrict; the paper's 14-bit, 32-bank space runs.
    std::fs::write(tmp.path().join("t.trace"), "ld 0 32 64 96 128\n").unwrap();
    let search = |n: &str, banks: &str, more: &[&str]| {
        let mut all = vec![
            "search",
            "--trace",
            "t.trace",
            "--addr-bits",
            n,
            "--banks",
            banks,
            "--out",
            "s",
        ];
        all.extend(more);
        rtl_gen_within(tmp.path(), &all, std::time::Duration::from_secs(60))
    };
    let err = line(&search("64", "65536", &[]));
    assert!(
        err.contains("too large") && err.contains("restrict --kinds or --heuristic"),
        "{err}"
    );
    assert!(!tmp.path().join("s").exists());
    // The GF(2) search alone runs every paper family's search for its seeds (the exhaustive
    // one too): the same space is refused at once, not searched for over ten minutes.
    let o = search("64", "65536", &["--heuristic", "gf2"]);
    let err = line(&o);
    assert!(
        err.contains("--addr-bits 64") && err.contains("xor-matrix gf2"),
        "{err}"
    );
    assert!(!tmp.path().join("s").exists());
    assert!(search("14", "32", &[]).status.success());
}

#[test]
fn the_dpi_c_vector_budget_is_bounded() {
    use rtl_gen::limits::MAX_FAST_VECTORS;
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("o"), "a user's file").unwrap();
    let run = |flag: &str, value: u64| {
        rtl_gen(
            tmp.path(),
            &["cosim", "o", "--fast", flag, &value.to_string()],
        )
    };
    // 0 is no budget: refused, not replaced by every address (issue 35).
    for flag in ["--vectors", "--configs", "--instances"] {
        let err = line(&run(flag, 0));
        assert!(err.contains(&format!("{flag} 0: at least 1")), "{err}");
    }
    for (flag, max) in [("--vectors", MAX_FAST_VECTORS), ("--configs", MAX_CONFIGS)] {
        // At the limit the run gets past the check and stops at the next one: `o` is no block.
        let at = line(&run(flag, max));
        assert!(!at.contains("at most"), "{flag} at {max}: {at}");
        for past in [max + 1, u64::MAX] {
            let err = line(&run(flag, past));
            assert!(
                err.contains(flag)
                    && err.contains(&past.to_string())
                    && err.contains(&format!("at most {max}")),
                "{flag} {past}: {err}"
            );
        }
    }
}

#[test]
fn sweep_points_are_bounded_up_front() {
    use rtl_gen::limits::MAX_SWEEP_POINTS;
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("o"), "a user's file").unwrap();
    // One kind x widths x bank counts: 100 x 100 is the limit (then refused for its repeats,
    // not its size), 73 x 137 one past it.
    let sweep = |widths: usize, banks: usize| {
        let widths = vec!["8"; widths].join(",");
        let banks = vec!["4"; banks].join(",");
        let args = [
            "sweep",
            "hash",
            "--kinds",
            "modulo",
            "--addr-bits",
            &widths,
            "--banks",
            &banks,
            "--out",
            "o",
        ];
        line(&rtl_gen(tmp.path(), &args))
    };
    assert_eq!(MAX_SWEEP_POINTS, 100 * 100);
    let at = sweep(100, 100);
    assert!(
        at.contains("given twice") && !at.contains("at most 10000"),
        "{at}"
    );
    let past = sweep(73, 137);
    assert!(
        past.contains("--kinds x --addr-bits x --banks")
            && past.contains("10001")
            && past.contains("at most 10000"),
        "{past}"
    );
}
