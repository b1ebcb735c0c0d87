//! Insta snapshots pinning representative generated files byte for byte.

mod common;

use models::{HashConfigObject, HashKind};
use rtl_gen::block::render;
use rtl_gen::hash::vectors::VectorPlan;
use rtl_gen::hash::HashDesign;

const COMMAND: &str = "rtl-gen hash (snapshot test)";

fn figure_5(configurable: bool, pipeline: bool) -> HashDesign {
    let object = HashConfigObject::from_json(
        r#"{"kind":"bitvector-xor","addr_bits":14,"banks":32,"k1":2,"k2":8,"mask":7}"#,
    )
    .unwrap();
    HashDesign::new(&object, configurable, pipeline, false).unwrap()
}

#[test]
fn fixed_bitvector_xor_figure_5() {
    let r = render(&figure_5(false, false), &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("fixed_bvxor_n14_b32_v", r.top_verilog());
    insta::assert_snapshot!("fixed_bvxor_n14_b32_json", r.manifest.to_json());
    insta::assert_snapshot!(
        "fixed_bvxor_n14_b32_core",
        rtl_gen::fusesoc::core(&r.manifest)
    );
    insta::assert_snapshot!("fixed_bvxor_n14_b32_f", r.manifest.filelist());
}

#[test]
fn configurable_pipelined_bitvector_xor_with_program() {
    let r = render(&figure_5(true, true), &VectorPlan::default(), COMMAND);
    insta::assert_snapshot!("cfg_pipe_bvxor_n14_b32_v", r.top_verilog());
    insta::assert_snapshot!("cfg_pipe_bvxor_n14_b32_json", r.manifest.to_json());
    let rdl = rtl_gen::rdl::description(&r.manifest).expect("a configurable hasher has registers");
    insta::assert_snapshot!("cfg_pipe_bvxor_n14_b32_rdl", rdl);
}

/// The configurable bit-vector XOR with one-hot offsets (`--offsets one-hot`): a block of its
/// own name beside the default structure's, its structure recorded in the manifest.
#[test]
fn configurable_bitvector_xor_with_one_hot_offsets() {
    let design = common::one_hot_bvxor();
    assert_eq!(design.name(), "hash_bvxor_n14_b32_cfg_onehot");
    let r = render(&design, &VectorPlan::default(), COMMAND);
    assert_eq!(r.manifest.structure["offsets"], "one-hot");
    insta::assert_snapshot!("cfg_bvxor_n14_b32_onehot_v", r.top_verilog());
}

#[test]
fn configurable_kinds_at_the_fermi_case() {
    for kind in [
        HashKind::BitvectorPerm,
        HashKind::BitwisePerm,
        HashKind::BitwiseXor,
        HashKind::XorMatrix,
    ] {
        let design =
            HashDesign::new(&HashConfigObject::new(kind, 14, 32), true, false, false).unwrap();
        let r = render(&design, &VectorPlan::default(), COMMAND);
        insta::assert_snapshot!(format!("cfg_{}_n14_b32_v", kind.tag()), r.top_verilog());
    }
}

#[test]
fn fixed_kinds_at_small_shapes() {
    for kind in HashKind::ALL {
        let design = common::design(kind, 6, 8, false, false);
        let r = render(&design, &VectorPlan::default(), COMMAND);
        insta::assert_snapshot!(format!("fixed_{}_n6_b8_v", kind.tag()), r.top_verilog());
    }
}

#[test]
fn testbenches_combinational_and_pipelined() {
    for (configurable, pipeline) in [(false, false), (true, true)] {
        let design = figure_5(configurable, pipeline);
        let r = render(&design, &VectorPlan::default(), COMMAND);
        let text = testbenches::testbench_source(&r.harness, 1234);
        insta::assert_snapshot!(format!("tb_{}", design.name()), text);
    }
}
