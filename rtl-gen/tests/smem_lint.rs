//! Every shared memory the tests generate is lint-clean (Verilator `-Wall` with nothing
//! suppressed, `iverilog -g2005`, Yosys `check -assert`), testbench included; no line of the
//! family's own files is over 120 characters (the hasher or RAP converter inside is `rtl-gen
//! hash`'s or `rtl-gen rap`'s module: a configurable hasher's mux expressions and a 64-wide
//! RAP table's read are longer, which the block-contract issue rewrites); the same design gives
//! the same files.

mod common;

use rtl_gen::block;
use rtl_gen::smem::vectors::SmemPlan;

#[test]
fn every_map_and_shape_is_lint_clean() {
    let tmp = tempfile::tempdir().unwrap();
    // Every map at 8 x 8 (smem_cosim.rs checks the 32 x 32, 16 x 16 and 32 x 64 memories it
    // co-simulates: Icarus, Yosys, and Verilator -Wall, which refuses any warning, as their
    // build); 8-byte words at the largest shape CI does not co-simulate, and with a loadable
    // RAP table and macros.
    let mut designs: Vec<_> = [
        "modulo",
        "xor",
        "bvxor-cfg",
        "xormat-cfg",
        "rap",
        "rap-load",
    ]
    .into_iter()
    .map(|map| common::smem((8, 8, 8, 4), map, 1, None))
    .collect();
    designs.push(common::smem(
        (32, 16, 32, 8),
        "bvxor-cfg",
        4,
        Some("sram_32x64"),
    ));
    designs.push(common::smem((4, 2, 8, 8), "rap-load", 4, Some("sram_x")));
    for d in designs {
        let plan = SmemPlan { seed: 3, random: 5 };
        let dir = block::write(&d, &plan, "rtl-gen test", tmp.path()).unwrap();
        let name = d.name();
        let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
        let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
        common::assert_smem_lines_short(&d, &rtl);
        common::assert_lint_clean(&rtl, &dir.join(format!("tb/tb_{name}.v")), &name);
    }
}

#[test]
fn the_same_design_gives_identical_files() {
    let plan = SmemPlan::default();
    for d in [
        common::smem((8, 8, 8, 4), "bvxor-cfg", 2, None),
        common::smem_vortex((8, 8, 8, 4), "bvxor-cfg", false),
    ] {
        let a = block::render(&d, &plan, "x");
        let b = block::render(&d, &plan, "x");
        assert_eq!(a, b);
    }
}
