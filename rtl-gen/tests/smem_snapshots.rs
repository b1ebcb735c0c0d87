//! Insta snapshots pinning every file of two small shared memories byte for byte: a modulo one,
//! and one with 8-byte words in two half-warp groups, a configurable hash, fill beats of two
//! words and SRAM macros; and the map of a loadable RAP memory.

mod common;

use rtl_gen::block::render;
use rtl_gen::smem::vectors::SmemPlan;

const COMMAND: &str = "rtl-gen smem (snapshot test)";

fn pin(d: &rtl_gen::smem::SmemDesign) {
    for (file, text) in render(d, &SmemPlan::default(), COMMAND).files {
        insta::assert_snapshot!(file.replace('.', "_"), text);
    }
}

#[test]
fn modulo_4_lanes_4_banks() {
    let d = common::smem((4, 4, 8, 4), "modulo", 1, None);
    pin(&d);
    let manifest = render(&d, &SmemPlan::default(), COMMAND).manifest;
    insta::assert_snapshot!("smem_l4_b4_d8_json", manifest.to_json());
}

#[test]
fn eight_byte_configurable_with_macros() {
    pin(&common::smem(
        (4, 2, 8, 8),
        "bvxor-cfg",
        2,
        Some("sram_8x64"),
    ));
}

#[test]
fn loadable_rap_map() {
    let d = common::smem((4, 4, 8, 4), "rap-load", 1, None);
    let files = render(&d, &SmemPlan::default(), COMMAND).files;
    let (file, text) = files.iter().find(|(f, _)| f.ends_with("_map.v")).unwrap();
    insta::assert_snapshot!(file.replace('.', "_"), text);
}
