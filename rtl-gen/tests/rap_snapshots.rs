//! Insta snapshots pinning representative RAP converter files byte for byte, and the testbench
//! of a loadable one.

use models::rap::{LayoutKind, Permutation};
use rtl_gen::block::render;
use rtl_gen::rap::vectors::VectorPlan;
use rtl_gen::rap::RapDesign;

const COMMAND: &str = "rtl-gen rap (snapshot test)";

fn figure_6(loadable: bool, pipeline: bool) -> RapDesign {
    RapDesign::rap(
        &Permutation::new(4, &[2, 0, 3, 1]).unwrap(),
        loadable,
        pipeline,
    )
    .unwrap()
}

#[test]
fn baked_rap_figure_6() {
    let r = render(&figure_6(false, false), &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("rap_w4_v", r.top_verilog());
    insta::assert_snapshot!("rap_w4_json", r.manifest.to_json());
    insta::assert_snapshot!("rap_w4_core", rtl_gen::fusesoc::core(&r.manifest));
}

#[test]
fn loadable_pipelined_rap_figure_6() {
    let d = figure_6(true, true);
    let r = render(&d, &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("rap_w4_load_pipe_v", r.top_verilog());
    insta::assert_snapshot!("rap_w4_load_pipe_json", r.manifest.to_json());
    insta::assert_snapshot!("rap_w4_load_pipe_tb", r.testbench_source());
    let rdl = rtl_gen::rdl::description(&r.manifest).expect("a loadable converter has registers");
    insta::assert_snapshot!("rap_w4_load_pipe_rdl", rdl);
}

#[test]
fn non_power_of_two_and_ras() {
    let d = RapDesign::from_seed(LayoutKind::Rap, 6, 1, true, false).unwrap();
    let r = render(&d, &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("rap_w6_load_v", r.top_verilog());
    let d = RapDesign::ras(vec![1, 1, 0], false, false).unwrap();
    let r = render(&d, &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("ras_w3_v", r.top_verilog());
}

#[test]
fn packed_wide_and_3p() {
    let d = figure_6(true, false).with_packed().unwrap();
    let r = render(&d, &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("rap_w4_load_packed_v", r.top_verilog());
    insta::assert_snapshot!("rap_w4_load_packed_json", r.manifest.to_json());
    let wide =
        RapDesign::rap_wide(&Permutation::new(4, &[3, 0, 2, 1]).unwrap(), false, false).unwrap();
    let r = render(&wide, &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("rap_w4_wide_v", r.top_verilog());
    let tables =
        [[2, 0, 3, 1], [1, 3, 0, 2], [3, 2, 1, 0]].map(|t| Permutation::new(4, &t).unwrap());
    let d = RapDesign::three_p([&tables[0], &tables[1], &tables[2]], false, false).unwrap();
    let r = render(&d, &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("rap3p_w4_v", r.top_verilog());
    insta::assert_snapshot!("rap3p_w4_json", r.manifest.to_json());
    let r = Permutation::new(3, &[2, 0, 1]).unwrap();
    let d = RapDesign::three_p([&r, &r, &r], true, true).unwrap();
    let r = render(&d, &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("rap3p_w3_load_pipe_v", r.top_verilog());
}
