//! Every generated RAP/RAS/3P converter (baked, loadable, packed, wide) and its testbench pass
//! `verilator --lint-only -Wall` with nothing suppressed, `iverilog -g2005`, and Yosys
//! `hierarchy -check; proc; check -assert`.

mod common;

use models::rap::LayoutKind;
use rtl_gen::block;
use rtl_gen::rap::vectors::VectorPlan;
use rtl_gen::rap::RapDesign;

/// The designs linted: both kinds, every variant, powers of two and not, the extremes.
fn designs() -> Vec<RapDesign> {
    let mut out = Vec::new();
    for w in [3, 32] {
        for (loadable, pipeline) in [(false, false), (true, false), (false, true), (true, true)] {
            out.push(RapDesign::from_seed(LayoutKind::Rap, w, 1, loadable, pipeline).unwrap());
        }
    }
    for (loadable, pipeline) in [(false, false), (true, true)] {
        out.push(RapDesign::from_seed(LayoutKind::Rap, 2, 1, loadable, pipeline).unwrap());
        out.push(RapDesign::from_seed(LayoutKind::Ras, 24, 1, loadable, pipeline).unwrap());
    }
    out.push(RapDesign::from_seed(LayoutKind::Rap, 1024, 1, false, false).unwrap());
    out.push(RapDesign::from_seed(LayoutKind::Rap, 1024, 1, true, false).unwrap());
    // Packed register files: one word, not a power of two, Fig. 7's w = 32, w = 1024.
    for (w, pipeline) in [(2, false), (24, true), (32, false), (1024, false)] {
        let d = RapDesign::from_seed(LayoutKind::Rap, w, 1, true, pipeline).unwrap();
        out.push(d.with_packed().unwrap());
    }
    out.push(RapDesign::drawn(LayoutKind::Rap, 32, 1, true, false, false).unwrap());
    // 3P, every variant, powers of two and not, the extremes.
    for (w, loadable, pipeline) in [
        (2, false, false),
        (5, true, true),
        (32, false, true),
        (32, true, false),
    ] {
        out.push(RapDesign::three_p_from_seed(w, 1, loadable, pipeline).unwrap());
    }
    out.push(
        RapDesign::three_p_from_seed(12, 1, true, false)
            .unwrap()
            .with_packed()
            .unwrap(),
    );
    out.push(RapDesign::three_p_from_seed(1024, 1, false, false).unwrap());
    out
}

#[test]
fn every_converter_and_testbench_is_lint_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = VectorPlan {
        seed: 1,
        vectors: 64,
    };
    for design in designs() {
        let dir = block::write(&design, &plan, "rtl-gen test", tmp.path()).unwrap();
        let name = design.name();
        let rtl = dir.join(format!("{name}.v"));
        let tb = dir.join(format!("tb/tb_{name}.v"));
        common::assert_lint_clean(std::slice::from_ref(&rtl), &tb, &name);
        let text = std::fs::read_to_string(&rtl).unwrap();
        assert!(!text.contains("lint_off"), "{name}");
    }
}
