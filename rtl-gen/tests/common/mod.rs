//! Shared helpers of the integration tests: the matrix of hash designs they cover, the lint
//! checks every generated block passes, and running the `rtl-gen` binary.
#![allow(dead_code)]

use models::{HashConfig, HashConfigObject, HashKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtl_gen::hash::HashDesign;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The shapes every kind is exercised at: the paper's Fermi case (n = 14, 32 banks), n = m,
/// m = 1, n = 64, the smallest (n = 1) and a wide one (n = 64, 65536 banks).
pub const SHAPES: [(u32, u64); 6] = [(14, 32), (5, 32), (8, 2), (64, 32), (1, 2), (64, 65536)];

/// A fixed configuration of `kind` for a shape, drawn from a seeded generator and full rank.
pub fn fixed_config(kind: HashKind, n: u32, banks: u64) -> HashConfigObject {
    let g = models::Geometry::new(n, banks).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n) * 1000 + banks);
    loop {
        let c = HashConfig::random(kind, g, &mut rng);
        if c.check_full_rank().is_ok() {
            return HashConfigObject::from_config(&c);
        }
    }
}

/// The variants a kind has: (configurable, pipeline).
pub fn variants(kind: HashKind) -> Vec<(bool, bool)> {
    if kind == HashKind::Modulo {
        vec![(false, false), (false, true)]
    } else {
        vec![(false, false), (true, false), (false, true), (true, true)]
    }
}

/// The design of `kind` at a shape and variant.
pub fn design(
    kind: HashKind,
    n: u32,
    banks: u64,
    configurable: bool,
    pipeline: bool,
) -> HashDesign {
    HashDesign::new(&fixed_config(kind, n, banks), configurable, pipeline, false).unwrap()
}

/// Every design of the matrix.
pub fn all_designs() -> Vec<HashDesign> {
    let mut out = Vec::new();
    for kind in HashKind::ALL {
        for (n, banks) in SHAPES {
            for (c, p) in variants(kind) {
                out.push(design(kind, n, banks, c, p));
            }
        }
    }
    out
}

/// The acceptance checks of a generated block `top` (RTL files `rtl`) and its testbench `tb`:
/// `verilator --lint-only -Wall` with nothing suppressed on the RTL and on RTL plus testbench,
/// `iverilog -g2005` on both, and Yosys `hierarchy -check; proc; check -assert` on the RTL.
pub fn assert_lint_clean(rtl: &[PathBuf], tb: &Path, top: &str) {
    let with_tb: Vec<PathBuf> = rtl.iter().cloned().chain([tb.to_path_buf()]).collect();
    testbenches::lint::verilator_lint(rtl, top).unwrap_or_else(|e| panic!("{top}: {e}"));
    testbenches::lint::verilator_lint(&with_tb, &format!("tb_{top}"))
        .unwrap_or_else(|e| panic!("tb of {top}: {e}"));
    testbenches::lint::iverilog_compile(&with_tb, &format!("tb_{top}"))
        .unwrap_or_else(|e| panic!("{top}: {e}"));
    synth::check(rtl, top).unwrap_or_else(|e| panic!("{top}: {e}"));
}

/// Runs the `rtl-gen` binary in `dir` with `args` and returns what it did.
pub fn rtl_gen<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("rtl-gen runs")
}

/// What a run printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
