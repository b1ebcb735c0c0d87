//! The shared memory behind the Vortex interface (`rtl-gen smem --interface vortex`): its
//! Verilog-2005 core co-simulated cycle by cycle against `models::smem::lanes` (every lane's
//! ready, response word and tag, every counter, every cycle), a broken core caught, and the
//! SystemVerilog wrapper `VX_local_mem.sv` compiled with Vortex's own package and interfaces
//! and driven through them by the core's vectors (docs/SMEM.md, Vortex interface).

mod common;

use common::smem_vortex;
use rtl_gen::block;
use rtl_gen::smem::vectors::SmemPlan;
use rtl_gen::smem::{vortex, SmemDesign};
use std::path::{Path, PathBuf};
use testbenches::simulator::{Simulator, Verilator};
use testbenches::Bits;

/// Random warp accesses after the directed phases.
const RANDOM: usize = 20;

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
    cosim(&smem_vortex((4, 4, 16, 4), "modulo", true), "verilator");
}

/// 16 lanes x 16 banks (Vortex at 16 threads and 16 banks) with a configurable GF(2) matrix
/// reprogrammed through the DCR bus: a 44-bit register, two DCR words.
#[test]
fn configurable_matrix_through_the_dcr_at_16_lanes_by_16_banks() {
    let d = smem_vortex((16, 16, 16, 4), "xormat-cfg", true);
    assert_eq!(d.dcr_words(), 2);
    cosim(&d, "verilator");
}

/// RAP (baked) at 8 lanes x 8 banks.
#[test]
fn rap_at_8_lanes_by_8_banks() {
    cosim(&smem_vortex((8, 8, 8, 4), "rap", true), "verilator");
}

/// Icarus (four-state: the configuration register has no reset and is X until the vectors
/// write it): a configurable bit-vector XOR without the broadcast.
#[test]
fn icarus_runs_a_configurable_memory_without_broadcast() {
    let d = smem_vortex((8, 8, 8, 4), "bvxor-cfg", false);
    assert_eq!(d.name(), "smem_l8_b8_d8_bvxor_cfg_nobc_vx");
    cosim(&d, "iverilog");
}

/// The checks can fail: a core that drops lane 0's responses, and one that gives each lane
/// another lane's tag, each fail many vectors.
#[test]
fn a_dropped_response_and_a_lost_tag_are_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let d = smem_vortex((4, 4, 16, 4), "xor", true);
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

/// The value of output `port` in the last vector of `rendered` (the counters once drained).
fn last_output(rendered: &block::Rendered, port: &str) -> u64 {
    let index = rendered
        .harness
        .outputs
        .iter()
        .position(|p| p.name == port)
        .unwrap_or_else(|| panic!("no output {port}"));
    rendered.vectors.last().unwrap().expected[index].field(0, 32)
}

/// A field of an input or output bus: lane `lane` of `width` bits.
fn lane(bits: &Bits, lane: usize, width: usize) -> u64 {
    bits.field(lane * width, width)
}

/// The trace lines the wrapper must write for `rendered`'s vectors: every cycle whose expected
/// `req_ready_o` takes lanes, `st` when they write, then each taken lane's address.
fn expected_trace(d: &SmemDesign, rendered: &block::Rendered) -> Vec<String> {
    let s = d.shape();
    let input = |name: &str| rendered.harness.inputs.iter().position(|p| p.name == name);
    let output = |name: &str| rendered.harness.outputs.iter().position(|p| p.name == name);
    let (rw, addr) = (input("req_rw_i").unwrap(), input("req_addr_i").unwrap());
    let ready = output("req_ready_o").unwrap();
    let mut lines = Vec::new();
    for v in &rendered.vectors {
        let taken: Vec<usize> = (0..s.lanes() as usize)
            .filter(|&i| v.expected[ready].bit(i))
            .collect();
        if taken.is_empty() {
            continue;
        }
        let write = taken.iter().any(|&i| v.inputs[rw].bit(i));
        let mut line = String::from(if write { "st" } else { "ld" });
        for &i in &taken {
            let a = lane(&v.inputs[addr], i, s.addr_bits() as usize);
            line.push_str(&format!(" {a}"));
        }
        lines.push(line);
    }
    lines
}

/// `VX_local_mem.sv`, compiled with Vortex's own package and interfaces, lint-clean with every
/// define off and on; and driven through Vortex's interfaces by the core's own vectors (a shim
/// with the core's ports instantiates `VX_mem_bus_if`, `VX_dcr_bus_if` and `VX_local_mem`):
/// every lane's ready, response and tag, the DCR writes of the configurable map and Vortex's
/// `lmem_perf` counters pass every cycle; the statistics line gives the drained counters and
/// the trace every warp access, in a format `rtl-gen search` reads.
#[test]
fn the_wrapper_runs_the_core_vectors_through_vortex_interfaces() {
    let tmp = tempfile::tempdir().unwrap();
    let d = smem_vortex((4, 4, 16, 4), "bvxor-cfg", true);
    let plan = SmemPlan {
        seed: 5,
        random: RANDOM,
    };
    let rendered = block::render(&d, &plan, "rtl-gen test");
    let dir = rendered.write(tmp.path()).unwrap();
    let wrapper = dir.join(vortex::WRAPPER_FILE);
    let text = std::fs::read_to_string(&wrapper).unwrap();
    let long = text
        .lines()
        .find(|l| l.len() > 100 && !l.starts_with("// Command:"));
    assert!(long.is_none(), "{long:?}");
    let vx = tmp.path().join("vx");
    let mut sources = common::vortex_sources(&vx.join("vortex"));
    let shim_name = format!("{}_shim", d.name());
    let shim = vx.join(format!("{shim_name}.sv"));
    std::fs::write(&shim, vortex::shim(&d, &shim_name)).unwrap();
    sources.push(wrapper);
    sources.extend(rendered.manifest.rtl_files.iter().map(|f| dir.join(f)));
    sources.push(shim);
    // Release rtlsim's definitions: a 1-bit UUID (TAG_WIDTH 2), simulation.
    let base = vx.join("release.vh");
    std::fs::write(&base, "`define NDEBUG\n`define SIMULATION\n").unwrap();
    let with_base: Vec<PathBuf> = [base.clone()].into_iter().chain(sources.clone()).collect();
    testbenches::lint::verilator_lint(&with_base, &shim_name).unwrap();
    let defines = vx.join("defines.vh");
    std::fs::write(
        &defines,
        "`define NDEBUG\n`define SIMULATION\n`define PERF_ENABLE\n\
         `define RTLGEN_LMEM_STATS\n`define RTLGEN_LMEM_TRACE\n",
    )
    .unwrap();
    let rtl: Vec<PathBuf> = [defines].into_iter().chain(sources).collect();
    let mut harness = rendered.harness.clone();
    harness.dut = shim_name.clone();
    let tb = testbenches::write_testbench(&vx, &harness, &rendered.vectors).unwrap();
    let work = vx.join("build");
    let report = Verilator.run(&rtl, &tb, &work).unwrap();
    assert_eq!(report.failed, 0, "{:?}", report.mismatches);
    assert_eq!(report.passed, rendered.vectors.len());

    let log = std::fs::read_to_string(work.join("verilator/run.log")).unwrap();
    let stats = log
        .lines()
        .find(|l| l.starts_with("rtl-gen lmem: "))
        .unwrap_or_else(|| panic!("no statistics line in {log}"));
    let keys = [
        "reads",
        "writes",
        "bank_stalls",
        "bank_cycles",
        "conflict_cycles",
        "broadcast_reads",
        "crsp_stalls",
        "accesses",
    ];
    let mut want: Vec<String> = keys
        .iter()
        .map(|k| format!("{k}={}", last_output(&rendered, &format!("cnt_{k}_o"))))
        .collect();
    want.push(format!(
        "instance={}",
        rtl_gen::rtl::vortex_wrapper::SHIM_INSTANCE
    ));
    assert_eq!(stats, format!("rtl-gen lmem: {}", want.join(" ")));
    assert!(last_output(&rendered, "cnt_bank_stalls_o") > 0, "{stats}");

    let trace = vx.join("lmem.trace");
    let binary = work.join(format!("verilator/V{}", tb.top));
    let run = std::process::Command::new(binary)
        .arg(format!("+rtlgen_lmem_trace={}", trace.display()))
        .current_dir(&vx)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&trace).unwrap();
    // A comment line after each reset the wrapper sees at a clock edge: the testbench's first
    // and third (its second has no edge while rst_ni is low).
    let marker = format!("# reset {}", rtl_gen::rtl::vortex_wrapper::SHIM_INSTANCE);
    let markers: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with('#'))
        .map(|(k, l)| {
            assert_eq!(l, marker);
            k
        })
        .collect();
    assert_eq!(markers.len(), 2, "{text}");
    let got: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let once = expected_trace(&d, &rendered);
    let last: Vec<&str> = text.lines().skip(markers[1] + 1).collect();
    assert_eq!(last, once);
    // After each of its three resets the testbench runs its vectors from the first: part of
    // them after the first, all of them after the others.
    assert!(rendered.vectors.len() < 4096 && got.len() > 2 * once.len());
    let (first, rest) = got.split_at(got.len() - 2 * once.len());
    assert_eq!(first, &once[..first.len()]);
    assert_eq!(rest[..once.len()], once[..]);
    assert_eq!(rest[once.len()..], once[..]);
    let s = d.shape();
    let parsed = rtl_gen::trace::read(&trace, s.addr_bits(), s.lanes() as usize).unwrap();
    assert_eq!(parsed.accesses.len(), got.len());
}

/// The example, `--banks 4 --depth 4096`, is 64 KiB: under Vortex's 16 KiB
/// `VX_local_mem` the wrapper stops the elaboration, naming SIZE and the depth that fits.
#[test]
fn a_size_vortex_does_not_pass_stops_the_elaboration() {
    let tmp = tempfile::tempdir().unwrap();
    let ours = smem_vortex((4, 4, 4096, 4), "modulo", true);
    let dir = write(&ours, tmp.path());
    let vortex_default = smem_vortex((4, 4, 1024, 4), "modulo", true);
    let shim_name = "vortex_default_shim";
    let shim = tmp.path().join(format!("{shim_name}.sv"));
    std::fs::write(&shim, vortex::shim(&vortex_default, shim_name)).unwrap();
    let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
    let mut files = common::vortex_sources(&tmp.path().join("vortex"));
    files.push(dir.join(vortex::WRAPPER_FILE));
    files.extend(manifest.rtl_files.iter().map(|f| dir.join(f)));
    files.push(shim);
    let err = testbenches::lint::verilator_lint(&files, shim_name)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "VX_local_mem: SIZE = 16384, but rtl-gen generated 65536 (bytes: --banks 4 x \
             --depth 4096 x --word-bytes 4): generate it with --depth 1024"
        ) && err.contains("Replication value of 0"),
        "{err}"
    );
}
