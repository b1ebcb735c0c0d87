//! Insta snapshots pinning every file of two small shared memories byte for byte: a modulo one,
//! and one with 8-byte words in two half-warp groups, a configurable hash, fill beats of two
//! words and SRAM macros; the map of a loadable RAP memory with its converter; and at each
//! shape and map `smem_cosim.rs` co-simulates in CI (32 x 32 under each map, 16 x 16, 32 x 64)
//! the manifest (ports, parameters, configuration fields) and the map with the hasher or RAP
//! converter inside. The pipeline around the map (conflict, grant, bank ports, top) is one
//! generator at every size: it is pinned whole at the small shapes, where its text is short
//! enough to review and `tests/equivalence.rs` proves it in seconds. Behind the Vortex
//! interface, two memories whole with their `VX_local_mem.sv` and manifest: modulo with the
//! broadcast, and a configurable hash without it.

mod common;

use rtl_gen::block::render;
use rtl_gen::smem::vectors::SmemPlan;

const COMMAND: &str = "rtl-gen smem (snapshot test)";

fn pin(d: &rtl_gen::smem::SmemDesign) {
    let rendered = render(d, &SmemPlan::default(), COMMAND);
    for (file, text) in rendered.files.into_iter().chain(rendered.companions) {
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

/// The files of `d` that make its map: `<top>_map.v` and the hasher or RAP converter it
/// instantiates (any file not named after the memory).
fn pin_map(d: &rtl_gen::smem::SmemDesign, manifest: bool) {
    let name = d.name();
    let rendered = render(d, &SmemPlan::default(), COMMAND);
    let mut pinned = 0;
    for (file, text) in &rendered.files {
        if file == &format!("{name}_map.v") || !file.starts_with(&name) {
            insta::assert_snapshot!(file.replace('.', "_"), text);
            pinned += 1;
        }
    }
    assert_eq!(pinned, 2, "{name}: the map and its hasher or converter");
    if manifest {
        insta::assert_snapshot!(format!("{name}_json"), rendered.manifest.to_json());
    }
}

#[test]
fn loadable_rap_map() {
    pin_map(&common::smem((4, 4, 8, 4), "rap-load", 1, None), false);
}

#[test]
fn maps_and_manifests_at_the_cosimulated_shapes() {
    for map in ["modulo", "xor", "bvxor-cfg", "rap"] {
        pin_map(&common::smem((32, 32, 32, 4), map, 1, None), true);
    }
    pin_map(&common::smem((16, 16, 16, 4), "xormat-cfg", 1, None), true);
    pin_map(&common::smem((32, 64, 64, 4), "rap", 1, None), true);
}

/// Behind the Vortex interface: every module, the wrapper and the manifest. The wrapper's
/// snapshots are named after the core (`VX_local_mem.sv` is the file of both).
#[test]
fn vortex_interface_4_lanes_4_banks() {
    for (map, broadcast) in [("modulo", true), ("bvxor-cfg", false)] {
        let d = common::smem_vortex((4, 4, 8, 4), map, broadcast);
        let rendered = render(&d, &SmemPlan::default(), COMMAND);
        let name = d.name();
        for (file, text) in &rendered.files {
            insta::assert_snapshot!(file.replace('.', "_"), text);
        }
        for (file, text) in &rendered.companions {
            insta::assert_snapshot!(format!("{name}__{}", file.replace('.', "_")), text);
        }
        insta::assert_snapshot!(format!("{name}_json"), rendered.manifest.to_json());
    }
}
