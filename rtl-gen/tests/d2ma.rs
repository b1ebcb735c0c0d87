//! The D²MA blocks: lint-clean at three sizes, co-simulated cycle by cycle against the models
//! under Verilator at the paper's size (8 CTAs x 4 buffers, 128 B segments) and two others,
//! a corrupted expectation caught, Verilog pinned by snapshots, and the CLI's bad input.

mod common;

use rtl_gen::block;
use rtl_gen::d2ma::vectors::D2maPlan;
use rtl_gen::d2ma::{D2maDesign, Storage, Unit};
use std::path::Path;
use std::process::Command;

/// (CTAs, buffers, segment bytes): the paper's size first.
const SIZES: [(u32, u32, u32); 3] = [(8, 4, 128), (2, 1, 32), (16, 2, 64)];

const UNITS: [Unit; 4] = [Unit::Agen, Unit::Controller, Unit::RawCheck, Unit::Engine];

fn design(unit: Unit, (ctas, buffers, segment): (u32, u32, u32)) -> D2maDesign {
    D2maDesign::new(unit, ctas, buffers, segment).unwrap()
}

fn generate(d: &D2maDesign, random: usize, out: &Path) -> std::path::PathBuf {
    let plan = D2maPlan {
        seed: 7,
        random,
        transfers: Vec::new(),
    };
    block::write(d, &plan, "rtl-gen test", out).unwrap()
}

#[test]
fn every_block_and_testbench_is_lint_clean() {
    let tmp = tempfile::tempdir().unwrap();
    for size in SIZES {
        for b in UNITS {
            let d = design(b, size);
            let dir = generate(&d, 20, tmp.path());
            let name = d.name();
            let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
            let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
            let tb = dir.join(format!("tb/tb_{name}.v"));
            common::assert_lint_clean(&rtl, &tb, &name);
        }
    }
}

fn cosim(b: Unit, random: usize) {
    let tmp = tempfile::tempdir().unwrap();
    for size in SIZES {
        let d = design(b, size);
        let dir = generate(&d, random, tmp.path());
        let (manifest, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
        assert_eq!(
            report.failed, 0,
            "{}: {:?}",
            manifest.top, report.mismatches
        );
        assert_eq!(report.passed, manifest.testbench.vectors);
    }
}

#[test]
fn raw_check_cosimulates() {
    cosim(Unit::RawCheck, 2000);
}

#[test]
fn controller_cosimulates() {
    cosim(Unit::Controller, 2000);
}

#[test]
fn agen_cosimulates() {
    cosim(Unit::Agen, 300);
}

#[test]
fn engine_cosimulates() {
    cosim(Unit::Engine, 3000);
}

/// Narrower global addresses (`--global-bits`): random entries carry 64-bit bases whose high
/// bits must be ignored (the controller array stores only the low bits and reads them back
/// wrapped) and whose walks may wrap; lint-clean and co-simulated, the controller and the
/// engine in every storage style.
#[test]
fn narrow_global_addresses_lint_and_cosimulate() {
    let tmp = tempfile::tempdir().unwrap();
    for (b, size, bits, storage) in [
        (Unit::Agen, SIZES[0], 32, Storage::FlipFlop),
        (Unit::Agen, SIZES[1], 24, Storage::FlipFlop),
        (Unit::Controller, SIZES[1], 40, Storage::FlipFlop),
        (Unit::Controller, SIZES[1], 24, Storage::ClockGated),
        (Unit::Controller, SIZES[1], 57, Storage::Latch),
        (Unit::Engine, SIZES[1], 24, Storage::Latch),
        (Unit::Engine, SIZES[0], 40, Storage::FlipFlop),
    ] {
        let d = design(b, size)
            .with_global_bits(bits)
            .unwrap()
            .with_storage(storage);
        let dir = generate(&d, 300, tmp.path());
        let name = d.name();
        assert!(name.contains(&format!("_g{bits}")), "{name}");
        let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
        let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
        testbenches::lint::verilator_lint(&rtl, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
        assert_eq!(report.failed, 0, "{name}: {:?}", report.mismatches);
        assert_eq!(report.passed, manifest.testbench.vectors);
    }
}

/// Every storage style of the controller's table (flip-flops with enables, gated clocks,
/// latches): lint-clean (Verilator -Wall, Yosys, Icarus) and co-simulated under both Verilator
/// and Icarus at a small size (two CTAs of one buffer: a Verilator build of the paper's size
/// takes a minute a style; docs/D2MA.md gives the command that runs it).
#[test]
fn storage_styles_lint_and_cosimulate_in_both_simulators() {
    let tmp = tempfile::tempdir().unwrap();
    for storage in [Storage::FlipFlop, Storage::ClockGated, Storage::Latch] {
        for (b, size, random) in [
            (Unit::Controller, SIZES[1], 1000),
            (Unit::Engine, SIZES[1], 600),
        ] {
            let d = design(b, size).with_storage(storage);
            let dir = generate(&d, random, tmp.path());
            let name = d.name();
            let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
            let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
            common::assert_lint_clean(&rtl, &dir.join(format!("tb/tb_{name}.v")), &name);
            for simulator in ["verilator", "iverilog"] {
                let (_, report) = rtl_gen::cosim::run(&dir, simulator).unwrap();
                assert_eq!(
                    report.failed, 0,
                    "{name} under {simulator}: {:?}",
                    report.mismatches
                );
                assert_eq!(report.passed, manifest.testbench.vectors, "{name}");
            }
        }
    }
}

/// A corrupted expected value fails the testbench: the check can fail.
#[test]
fn a_wrong_expectation_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let d = design(Unit::Agen, SIZES[1]);
    let dir = generate(&d, 5, tmp.path());
    let path = dir.join(format!("tb/{}.expect.hex", d.name()));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Flip the lowest bit (done_o) of the third cycle's expectation.
    let last = lines[2].pop().unwrap();
    let flipped = u8::from_str_radix(&last.to_string(), 16).unwrap() ^ 1;
    lines[2].push_str(&format!("{flipped:x}"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert_eq!(report.failed, 1);
}

/// The controller's guards of entries that hold no transfer are don't-cares (the array does
/// not zero them: `controller::DONT_CARES`), but a busy entry's guard is checked: a shared
/// base off by one bit in one entry fails in both simulators, while the unmutated array, whose
/// idle entries show stale or undefined guards, passes (`storage_styles_...`).
#[test]
fn a_busy_entrys_guard_is_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let d = design(Unit::Controller, SIZES[1]).with_storage(Storage::Latch);
    let dir = generate(&d, 400, tmp.path());
    let name = d.name();
    let top = dir.join(format!("{name}.v"));
    let text = std::fs::read_to_string(&top).unwrap();
    let shown = "assign start_o[31:16] = entry1[79:64];";
    assert!(text.contains(shown), "no `{shown}` in {name}.v");
    std::fs::write(
        &top,
        text.replace(shown, "assign start_o[31:16] = entry1[79:64] ^ 16'h0001;"),
    )
    .unwrap();
    for simulator in ["verilator", "iverilog"] {
        let (_, report) = rtl_gen::cosim::run(&dir, simulator).unwrap();
        assert!(report.failed > 0, "{simulator}: the mutant guard passed");
    }
}

#[test]
fn verilog_is_pinned() {
    for (b, size) in [
        (Unit::RawCheck, (2, 2, 128)),
        (Unit::Controller, (1, 1, 128)),
        (Unit::Agen, (1, 1, 32)),
        (Unit::Engine, (1, 1, 32)),
    ] {
        let d = design(b, size);
        let r = block::render(&d, &D2maPlan::default(), "rtl-gen test");
        insta::assert_snapshot!(d.name(), every_module(&r.files));
    }
    let d = design(Unit::Agen, (1, 1, 32)).with_global_bits(24).unwrap();
    let r = block::render(&d, &D2maPlan::default(), "rtl-gen test");
    insta::assert_snapshot!(d.name(), every_module(&r.files));
    for storage in [Storage::ClockGated, Storage::Latch] {
        let d = design(Unit::Controller, (1, 1, 128)).with_storage(storage);
        let r = block::render(&d, &D2maPlan::default(), "rtl-gen test");
        insta::assert_snapshot!(d.name(), every_module(&r.files));
    }
    // A bound on requests in flight: the engine's top changes, its blocks do not.
    let d = design(Unit::Engine, (1, 1, 32))
        .with_max_in_flight(2)
        .unwrap();
    let r = block::render(&d, &D2maPlan::default(), "rtl-gen test");
    insta::assert_snapshot!(d.name(), every_module(&r.files));
    // The table's global field at 48 bits: narrower than the halo part, so the command's top
    // data bits are unread.
    let d = design(Unit::Controller, (1, 1, 128))
        .with_global_bits(48)
        .unwrap()
        .with_storage(Storage::Latch);
    let r = block::render(&d, &D2maPlan::default(), "rtl-gen test");
    insta::assert_snapshot!(d.name(), every_module(&r.files));
}

/// A bound on a buffer's requests in flight (`--max-in-flight`): the walk waits while its
/// buffer is at the bound (the model says how often: SAXPY's 8 requests a buffer with responses
/// at one in two cycles reach a bound of 3), the counts are 2 bits wide, and the engine is
/// lint-clean and co-simulates cycle by cycle; without its wait (the bound never reached) the
/// 2-bit counts wrap and the testbench fails.
#[test]
fn in_flight_bound_holds_the_walk() {
    let tmp = tempfile::tempdir().unwrap();
    let d = design(Unit::Engine, (2, 2, 32))
        .with_max_in_flight(3)
        .unwrap();
    assert_eq!(d.name(), "d2ma_engine_c2_b2_s32_out3");
    let plan = D2maPlan {
        seed: 7,
        random: 600,
        transfers: Vec::new(),
    };
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(plan.seed);
    let (_, run) = rtl_gen::d2ma::vectors::engine_vectors(&d, &plan, &mut rng);
    assert!(run.bound_waits > 0, "the walk never waited on the bound");
    let dir = generate(&d, plan.random, tmp.path());
    let name = d.name();
    let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
    assert_eq!(manifest.parameters.get("MAX_IN_FLIGHT"), Some(&3));
    let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
    common::assert_lint_clean(&rtl, &dir.join(format!("tb/tb_{name}.v")), &name);
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert_eq!(report.failed, 0, "{name}: {:?}", report.mismatches);
    assert_eq!(report.passed, manifest.testbench.vectors);
    // The mutant: the walk never held.
    let top = dir.join(format!("{name}.v"));
    let text = std::fs::read_to_string(&top).unwrap();
    let held = "assign walk_full = walk_count_q == 2'h3;";
    assert!(text.contains(held), "no `{held}` in {name}.v");
    std::fs::write(&top, text.replace(held, "assign walk_full = 1'b0;")).unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert!(report.failed > 0, "the mutant without the wait passed");
}

/// One read port serves the span unit and the AGEN: an ignited entry starts in the AGEN only
/// in a cycle without a command that completes an entry (the model says how often one
/// waited), and a mutant that starts it regardless reads the completed entry and fails.
#[test]
fn a_start_waits_for_the_read_port() {
    let tmp = tempfile::tempdir().unwrap();
    let d = design(Unit::Engine, SIZES[1]);
    let plan = D2maPlan {
        seed: 7,
        random: 600,
        transfers: Vec::new(),
    };
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(plan.seed);
    let (_, run) = rtl_gen::d2ma::vectors::engine_vectors(&d, &plan, &mut rng);
    assert!(run.port_waits > 0, "no start ever waited for the port");
    let dir = generate(&d, plan.random, tmp.path());
    let name = d.name();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert_eq!(report.failed, 0, "{name}: {:?}", report.mismatches);
    let top = dir.join(format!("{name}.v"));
    let text = std::fs::read_to_string(&top).unwrap();
    let gated = "assign agen_start = agen_pending_q & ctrl_rd_valid;";
    assert!(text.contains(gated), "no `{gated}` in {name}.v");
    std::fs::write(
        &top,
        text.replace(gated, "assign agen_start = agen_pending_q;"),
    )
    .unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert!(report.failed > 0, "the mutant that ignores the port passed");
}

/// A word layout as the test compares it: name, select value, fields `(name, lsb, width)`.
type WordLayout<'a> = (&'a str, Option<u64>, Vec<(&'a str, u32, u32)>);

/// The configuration commands' register description: one memory word per (part, CTA, buffer),
/// each part's fields where the entry layout (`models::d2ma::entry`, the paper's Fig. 4) puts
/// them, less the part's first bit (worked out by hand from the layout table).
#[test]
fn configuration_commands_are_described() {
    let d = design(Unit::Engine, (2, 2, 128));
    let r = block::render(&d, &D2maPlan::default(), "rtl-gen test");
    let [port] = &r.manifest.write_ports[..] else {
        panic!("{:?}", r.manifest.write_ports)
    };
    assert_eq!(
        (
            port.strobe.as_str(),
            port.data.as_str(),
            port.address.clone()
        ),
        (
            "cfg_valid_i",
            "cfg_data_i",
            vec![
                "cfg_part_i".to_string(),
                "cfg_cta_i".into(),
                "cfg_buf_i".into()
            ]
        )
    );
    let layout: Vec<WordLayout> = port
        .words
        .iter()
        .map(|w| {
            let fields = w
                .fields
                .iter()
                .map(|f| (f.name.as_str(), f.lsb, f.width))
                .collect();
            (w.name.as_str(), w.select, fields)
        })
        .collect();
    assert_eq!(
        layout,
        [
            ("global", Some(0), vec![("global", 0, 64)]),
            (
                "shape",
                Some(1),
                vec![
                    ("shared", 0, 16),
                    ("count", 16, 16),
                    ("size", 32, 2),
                    ("stride", 34, 16),
                    ("two_d", 50, 1),
                    ("mode", 51, 2)
                ]
            ),
            (
                "halo",
                Some(2),
                vec![
                    ("halo_rows", 0, 16),
                    ("halo_cols", 16, 16),
                    ("region", 32, 8),
                    ("halo_const", 40, 16)
                ]
            ),
        ]
    );
    // 2 part bits + 1 CTA bit + 1 buffer bit: 16 words of 8 bytes; each part a quarter.
    let rdl = rtl_gen::rdl::description(&r.manifest).expect("the engine has a write port");
    for line in [
        "mementries = 16;",
        "} global[4] @ 0x0 += 0x8;",
        "} shape[4] @ 0x20 += 0x8;",
        "} halo[4] @ 0x40 += 0x8;",
        "} external cfg @ 0x80;",
    ] {
        assert!(rdl.contains(line), "{line}\n{rdl}");
    }
    insta::assert_snapshot!("d2ma_engine_c2_b2_rdl", rdl);
}

/// The text of every Verilog file of a block, top first: the engine's snapshot holds its
/// sub-modules too, so the equivalence test can elaborate it from the snapshot alone.
fn every_module(files: &[(String, String)]) -> String {
    let texts: Vec<&str> = files.iter().map(|(_, text)| text.as_str()).collect();
    texts.join("\n")
}

#[test]
fn same_design_gives_identical_files() {
    let d = design(Unit::Controller, SIZES[0]);
    let plan = D2maPlan::default();
    assert_eq!(block::render(&d, &plan, "x"), block::render(&d, &plan, "x"));
}

/// Bad sizes and bad transfers: one line on stderr, exit status 2, nothing written.
#[test]
fn bad_input_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for args in [
        vec!["agen", "--segment-bytes", "96"],
        vec!["controller", "--ctas", "0"],
        vec!["raw-check", "--buffers", "9"],
        vec!["agen", "--transfer", "count=256,shared=0xff04"],
        vec!["agen", "--transfer", "count=0"],
        vec![
            "agen",
            "--transfer",
            "rows=4,cols=4,ld=64,halo=1x1,region=10",
        ],
        vec![
            "agen",
            "--transfer",
            "rows=4,cols=4,ld=64,halo=1x5,region=9",
        ],
        vec!["controller", "--transfer", "count=16"],
        vec!["engine", "--global-bits", "16"],
        vec!["engine", "--max-in-flight", "0"],
        vec!["engine", "--max-in-flight", "65536"],
        vec!["agen", "--max-in-flight", "32"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
            .arg("d2ma")
            .args(&args)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote files");
    }
}
