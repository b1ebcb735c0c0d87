//! The RAP, RAS and 3P converters co-simulate against the golden models (`ShiftLayout`,
//! `ThreePLayout`) under Verilator: baked, loadable and packed (Fig. 7) tables, combinational
//! and registered outputs, w from 2 to 1024 (powers of two and not), the wide RAP permutation.
//! Some cases also run under Icarus, and a wrong model or a wrong packing must fail.

use models::rap::{LayoutKind, Permutation};
use rtl_gen::block;
use rtl_gen::rap::vectors::VectorPlan;
use rtl_gen::rap::RapDesign;
use std::path::Path;

fn cosim(design: &RapDesign, vectors: usize, dir: &Path, simulator: &str) -> (usize, usize) {
    let plan = VectorPlan { seed: 5, vectors };
    let block = block::write(design, &plan, "rtl-gen test", dir).unwrap();
    let (manifest, report) =
        rtl_gen::cosim::run(&block, simulator).unwrap_or_else(|e| panic!("{}: {e}", design.name()));
    assert_eq!(report.vectors, manifest.testbench.vectors);
    assert!(report.mismatches.is_empty() || report.failed > 0);
    (report.passed, report.failed)
}

fn check(design: RapDesign, vectors: usize, dir: &Path) {
    let (passed, failed) = cosim(&design, vectors, dir, "verilator");
    assert_eq!(failed, 0, "{}: {failed} failed", design.name());
    assert!(passed > 0);
}

#[test]
fn baked_converters_match_the_model() {
    let tmp = tempfile::tempdir().unwrap();
    // The paper's Fig. 6 permutation, exhaustively.
    let fig6 = Permutation::new(4, &[2, 0, 3, 1]).unwrap();
    check(
        RapDesign::rap(&fig6, false, false).unwrap(),
        100,
        tmp.path(),
    );
    // Exhaustive at w = 3 (not a power of two) and 256.
    for (w, seed) in [(3, 2), (256, 4)] {
        check(
            RapDesign::from_seed(LayoutKind::Rap, w, seed, false, false).unwrap(),
            70_000,
            tmp.path(),
        );
    }
    // w = 1024: every row at both ends, then random elements.
    check(
        RapDesign::from_seed(LayoutKind::Rap, 1024, 9, false, false).unwrap(),
        6000,
        tmp.path(),
    );
    check(
        RapDesign::from_seed(LayoutKind::Rap, 32, 7, false, true).unwrap(),
        1024,
        tmp.path(),
    );
    check(
        RapDesign::from_seed(LayoutKind::Ras, 24, 5, false, false).unwrap(),
        1000,
        tmp.path(),
    );
}

#[test]
fn loadable_converters_match_the_model() {
    let tmp = tempfile::tempdir().unwrap();
    for (w, pipeline) in [(2, false), (32, false), (24, true), (1024, false)] {
        check(
            RapDesign::from_seed(LayoutKind::Rap, w, 11, true, pipeline).unwrap(),
            2000,
            tmp.path(),
        );
    }
    check(
        RapDesign::from_seed(LayoutKind::Ras, 16, 2, true, true).unwrap(),
        500,
        tmp.path(),
    );
}

#[test]
fn packed_wide_and_3p_converters_match_the_model() {
    let tmp = tempfile::tempdir().unwrap();
    let packed = |d: RapDesign| d.with_packed().unwrap();
    // Fig. 7's w = 32 (six shifts a word), one word (w = 2), not a power of two (w = 24, RAS),
    // three shifts a word (w = 1024).
    for (kind, w, pipeline) in [
        (LayoutKind::Rap, 32, false),
        (LayoutKind::Rap, 2, true),
        (LayoutKind::Ras, 24, true),
        (LayoutKind::Rap, 1024, false),
    ] {
        check(
            packed(RapDesign::from_seed(kind, w, 13, true, pipeline).unwrap()),
            2000,
            tmp.path(),
        );
    }
    // The wide RAP of docs/GPU.md, baked (exhaustively) and loadable.
    for loadable in [false, true] {
        let d = RapDesign::drawn(LayoutKind::Rap, 32, 1, true, loadable, false).unwrap();
        check(d, 1024, tmp.path());
    }
    // 3P: exhaustive at w = 8 and 5, every entry then random at w = 64; loadable, packed.
    for (w, loadable, pipeline) in [(8, false, false), (5, false, true), (64, false, false)] {
        check(
            RapDesign::three_p_from_seed(w, 3, loadable, pipeline).unwrap(),
            5000,
            tmp.path(),
        );
    }
    check(
        RapDesign::three_p_from_seed(6, 3, true, false).unwrap(),
        2000,
        tmp.path(),
    );
    check(
        packed(RapDesign::three_p_from_seed(32, 3, true, true).unwrap()),
        2000,
        tmp.path(),
    );
}

#[test]
fn a_wrong_packing_fails() {
    // Take bit 0 of entry 0's field from an unused bit of the word instead: the loaded tables
    // must then disagree with the model.
    let tmp = tempfile::tempdir().unwrap();
    let d = RapDesign::from_seed(LayoutKind::Rap, 32, 2, true, false)
        .unwrap()
        .with_packed()
        .unwrap();
    let plan = VectorPlan {
        seed: 1,
        vectors: 500,
    };
    let dir = block::write(&d, &plan, "rtl-gen test", tmp.path()).unwrap();
    let rtl = dir.join(format!("{}.v", d.name()));
    let text = std::fs::read_to_string(&rtl).unwrap();
    let data = "assign shift_data_bit0 = {";
    let at = text.find(data).unwrap() + data.len();
    let line_end = at + text[at..].find(';').unwrap();
    let last = text[..line_end].rfind("perm_val_i[0]").unwrap();
    assert!(last > at);
    let mutated = format!("{}perm_val_i[31]{}", &text[..last], &text[last + 13..]);
    std::fs::write(&rtl, mutated).unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert!(report.failed > 0, "{report:?}");
    assert_eq!(cosim(&d, 500, tmp.path(), "iverilog").1, 0);
}

#[test]
fn icarus_agrees_and_a_wrong_table_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let d = RapDesign::from_seed(LayoutKind::Rap, 12, 3, true, false).unwrap();
    assert_eq!(cosim(&d, 300, tmp.path(), "iverilog").1, 0);

    // Generate the RTL of one permutation, then check it against vectors of another: the
    // testbench must catch it.
    let right = RapDesign::rap(&Permutation::new(4, &[2, 0, 3, 1]).unwrap(), false, false).unwrap();
    let wrong = RapDesign::rap(&Permutation::new(4, &[2, 0, 1, 3]).unwrap(), false, false).unwrap();
    let plan = VectorPlan {
        seed: 1,
        vectors: 100,
    };
    let dir = block::write(&right, &plan, "rtl-gen test", tmp.path()).unwrap();
    let wrong = block::render(&wrong, &plan, "rtl-gen test");
    testbenches::write_testbench(&dir.join("tb"), &wrong.harness, &wrong.vectors).unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "iverilog").unwrap();
    // Rows 2 and 3 differ: 8 of the 16 elements.
    assert_eq!((report.passed, report.failed), (8, 8), "{report:?}");
}
