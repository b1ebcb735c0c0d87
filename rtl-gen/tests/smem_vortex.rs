//! The shared memory behind the Vortex interface (`rtl-gen smem --interface vortex`): its
//! Verilog-2005 core co-simulated cycle by cycle against `models::smem::lanes` (every lane's
//! ready, response word and tag, every counter, every cycle), and a broken core caught.

mod common;

use rtl_gen::block;
use rtl_gen::smem::vectors::SmemPlan;
use rtl_gen::smem::SmemDesign;
use std::path::{Path, PathBuf};

/// Random warp accesses after the directed phases.
const RANDOM: usize = 20;

/// Vortex's release rtlsim's TAG_WIDTH (`-DNDEBUG`: a 1-bit UUID and one tag-id bit).
const TAG_BITS: u32 = 2;

/// The memory of `common::smem` behind the Vortex interface.
fn vortex(shape: (u32, u32, u32, u32), map: &str, broadcast: bool) -> SmemDesign {
    common::smem(shape, map, 1, None)
        .with_broadcast(broadcast)
        .unwrap()
        .with_vortex(TAG_BITS)
        .unwrap()
}

fn write(d: &SmemDesign, out: &Path) -> PathBuf {
    block::write(
        d,
        &SmemPlan {
            seed: 5,
            random: RANDOM,
        },
        "rtl-gen test",
        out,
    )
    .unwrap()
}

/// Writes `d`, lints its RTL and testbench (Verilator `-Wall`, Icarus, Yosys) and co-simulates
/// it under `simulator`: every vector passes.
fn cosim(d: &SmemDesign, simulator: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write(d, tmp.path());
    let name = d.name();
    let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
    let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
    common::assert_lint_clean(&rtl, &dir.join(format!("tb/tb_{name}.v")), &name);
    common::assert_cosim_passes(&dir, simulator);
}

#[test]
fn modulo_at_4_lanes_by_4_banks() {
    cosim(&vortex((4, 4, 16, 4), "modulo", true), "verilator");
}

/// 16 lanes x 16 banks (Vortex at 16 threads and 16 banks) with a configurable GF(2) matrix
/// reprogrammed through the DCR bus: a 44-bit register, two DCR words.
#[test]
fn configurable_matrix_through_the_dcr_at_16_lanes_by_16_banks() {
    let d = vortex((16, 16, 16, 4), "xormat-cfg", true);
    assert_eq!(d.dcr_words(), 2);
    cosim(&d, "verilator");
}

/// Icarus: a loadable RAP table written an entry a DCR word, without the broadcast.
#[test]
fn icarus_runs_a_loadable_rap_memory_without_broadcast() {
    let d = vortex((8, 8, 8, 4), "rap-load", false);
    assert_eq!(d.name(), "smem_l8_b8_d8_rap_load_nobc_vx");
    cosim(&d, "iverilog");
}

/// The checks can fail: a core that drops lane 0's responses, and one that gives each lane
/// another lane's tag, each fail many vectors.
#[test]
fn a_dropped_response_and_a_lost_tag_are_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let d = vortex((4, 4, 16, 4), "xor", true);
    let name = d.name();
    let mutants = [
        (
            "assign rsp_valid_o = owed;",
            "assign rsp_valid_o = owed & 4'he;",
        ),
        (
            "assign rsp_tag_o = resp_meta[11:4];",
            "assign rsp_tag_o = {resp_meta[9:4], resp_meta[11:10]};",
        ),
    ];
    for (k, (honest, broken)) in mutants.into_iter().enumerate() {
        let dir = write(&d, &tmp.path().join(k.to_string()));
        let top = dir.join(format!("{name}.v"));
        let text = std::fs::read_to_string(&top).unwrap();
        assert!(text.contains(honest), "{text}");
        std::fs::write(&top, text.replace(honest, broken)).unwrap();
        let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
        assert!(report.failed > 10, "{broken}: {report:?}");
    }
}
