//! Block folders in the flows RTL engineers run (docs/FLOWS.md), with the real tools: FuseSoC and
//! edalize (every target of a hasher, a RAP converter and the D²MA engine; a broken vector; a
//! design of two cores; the generator), PeakRDL (register blocks and C headers) and filelists.
//!
//! FuseSoC and PeakRDL come from the virtual environment `scripts/setup.sh` creates in `.venv/`:
//! without it these tests fail, naming the command that creates it.

mod common;

use serde_json::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("rtl-gen sits in the workspace")
        .to_path_buf()
}

/// `.venv/bin`, which must hold FuseSoC and PeakRDL.
fn venv_bin() -> PathBuf {
    let bin = repo().join(".venv/bin");
    for tool in ["fusesoc", "peakrdl"] {
        assert!(
            bin.join(tool).is_file(),
            "{} has no {tool}: run scripts/setup.sh, which creates the virtual environment",
            bin.display()
        );
    }
    bin
}

/// A command running `tool` from the virtual environment, with `.venv/bin` first on `PATH`
/// (FuseSoC's generators run its `python3`) and FuseSoC's configuration and caches under
/// `home`, away from the user's.
fn venv_tool(tool: &str, home: &Path) -> Command {
    let bin = venv_bin();
    let mut path = OsString::from(&bin);
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let mut command = Command::new(bin.join(tool));
    command
        .env("PATH", path)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("RTL_GEN", env!("CARGO_BIN_EXE_rtl-gen"));
    command
}

/// Everything a run printed, stdout then stderr.
fn printed(o: &Output) -> String {
    format!("{}{}", common::stdout(o), common::stderr(o))
}

/// `fusesoc run --target <target> <vlnv>` in `work` with the cores under `roots`.
fn fusesoc(work: &Path, roots: &[&Path], target: &str, vlnv: &str) -> Output {
    std::fs::create_dir_all(work).unwrap();
    let mut command = venv_tool("fusesoc", work);
    for root in roots {
        command.arg("--cores-root").arg(root);
    }
    command
        .args(["run", "--target", target, vlnv])
        .current_dir(work)
        .output()
        .expect("fusesoc runs")
}

/// Runs `rtl-gen <args> --out <out> --json` and returns the block's folder and manifest.
fn generate(out: &Path, args: &[&str]) -> (PathBuf, Value) {
    std::fs::create_dir_all(out).unwrap();
    let folders = || -> Vec<PathBuf> {
        std::fs::read_dir(out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect()
    };
    let before = folders();
    let mut all: Vec<&str> = args.to_vec();
    let out_text = out.to_str().unwrap();
    all.extend(["--out", out_text, "--json"]);
    let o = common::rtl_gen(out, &all);
    assert!(o.status.success(), "rtl-gen {args:?}: {}", printed(&o));
    let manifest: Value = serde_json::from_str(&common::stdout(&o)).expect("--json: a manifest");
    // The folder is named after the top module, or after the system for `d2ma system`.
    let new: Vec<PathBuf> = folders()
        .into_iter()
        .filter(|f| !before.contains(f))
        .collect();
    assert_eq!(new.len(), 1, "{new:?}");
    (new[0].clone(), manifest)
}

/// The D²MA engine every test here generates: 2 CTAs, 2 buffers.
const ENGINE: &[&str] = &["d2ma", "engine", "--ctas", "2", "--buffers", "2"];

/// The VLNV of a block's core.
fn vlnv(manifest: &Value) -> String {
    rtl_gen::fusesoc::vlnv(
        manifest["family"].as_str().unwrap(),
        manifest["top"].as_str().unwrap(),
    )
}

/// The targets every block's core has. `sim_verilator` is `sim` under its tool's name (the
/// snapshots pin both); [`every_target_passes`] runs it for the hasher only, to keep CI short.
const TARGETS: [&str; 6] = [
    "default",
    "lint",
    "sim",
    "sim_icarus",
    "sim_verilator",
    "synth",
];

/// Runs every target of the block `args` writes (`sim_verilator` only with `all`) and checks
/// each passes; the simulations check every vector.
fn every_target_passes(args: &[&str], all: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, manifest) = generate(&tmp.path().join("cores"), args);
    let top = manifest["top"].as_str().unwrap();
    let vectors = manifest["testbench"]["vectors"].as_u64().unwrap();
    for target in TARGETS.into_iter().filter(|&t| all || t != "sim_verilator") {
        let work = tmp.path().join("work");
        let o = fusesoc(&work, &[&dir], target, &vlnv(&manifest));
        let text = printed(&o);
        assert!(o.status.success(), "{top} {target}: {text}");
        assert!(!text.contains("deprecated"), "{top} {target}: {text}");
        if target.starts_with("sim") {
            // The testbench `tb_<name>` names its summary `<name>` (the block, or the system).
            let tb = manifest["testbench"]["top"].as_str().unwrap();
            let name = tb.strip_prefix("tb_").unwrap();
            let summary = format!("{name}: {vectors} passed, 0 failed");
            assert!(text.contains(&summary), "{top} {target}: {text}");
        }
        if target == "synth" {
            let stat = work.join(format!(
                "build/{}/synth/synth_stat.txt",
                sanitized(&manifest)
            ));
            let stat = std::fs::read_to_string(&stat).expect("synth writes its statistics");
            assert!(stat.contains("Number of cells"), "{top}: {stat}");
        }
    }
}

/// The `synth_ecp5` target (edalize's trellis flow: Yosys, nextpnr-ecp5 and ecppack, the last
/// two the YoWASP builds behind .venv/bin's scripts) makes a bitstream of a hasher.
#[test]
fn the_ecp5_target_of_a_hasher_makes_a_bitstream() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "hash",
        "--kind",
        "bitvector-xor",
        "--addr-bits",
        "6",
        "--banks",
        "4",
    ];
    let (dir, manifest) = generate(
        &tmp.path().join("cores"),
        &[&args[..], &["--configurable", "--pipeline"]].concat(),
    );
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let mut command = venv_tool("fusesoc", &work);
    // The YoWASP tools' compiled cache stays where scripts/setup.sh made it.
    let home = std::env::var_os("HOME").unwrap_or_default();
    let cache = std::env::var_os("YOWASP_CACHE_DIR")
        .unwrap_or_else(|| Path::new(&home).join(".cache/YoWASP").into_os_string());
    let o = command
        .env("YOWASP_CACHE_DIR", cache)
        .arg("--cores-root")
        .arg(&dir)
        .args(["run", "--target", "synth_ecp5", &vlnv(&manifest)])
        .current_dir(&work)
        .output()
        .expect("fusesoc runs");
    let text = printed(&o);
    assert!(o.status.success(), "{text}");
    let build = work.join(format!("build/{}/synth_ecp5", sanitized(&manifest)));
    let next = std::fs::read_to_string(build.join("next.log")).expect("nextpnr's log");
    assert!(next.contains("Program finished normally"), "{next}");
    let bit = build.join(format!("{}.bit", sanitized(&manifest)));
    assert!(
        std::fs::metadata(&bit)
            .map(|m| m.len() > 1000)
            .unwrap_or(false),
        "{text}"
    );
}

/// FuseSoC's name of a core's build folder: the VLNV with `:` as `_`.
fn sanitized(manifest: &Value) -> String {
    vlnv(manifest).replace(':', "_")
}

#[test]
fn every_fusesoc_target_of_a_hasher_passes() {
    every_target_passes(
        &[
            "hash",
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "8",
            "--banks",
            "4",
            "--k1",
            "1",
            "--k2",
            "4",
            "--mask",
            "3",
        ],
        true,
    );
}

#[test]
fn every_fusesoc_target_of_a_rap_converter_passes() {
    every_target_passes(
        &["rap", "--banks", "8", "--configurable", "--vectors", "64"],
        false,
    );
}

#[test]
fn every_fusesoc_target_of_the_d2ma_engine_passes() {
    every_target_passes(
        &[ENGINE, &["--global-bits", "24", "--vectors", "20"]].concat(),
        false,
    );
}

#[test]
fn every_fusesoc_target_of_a_d2ma_system_passes() {
    // The small system of tests/d2ma_system_cli.rs: its core lints the engine, runs the
    // end-to-end testbench (engine, shared memory, memory model, warp) and synthesizes the engine.
    every_target_passes(&common::SMALL_SYSTEM, false);
}

#[test]
fn a_broken_vector_fails_the_sim_target() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, manifest) = generate(
        &tmp.path().join("cores"),
        &["rap", "--banks", "8", "--vectors", "16"],
    );
    let expected = dir.join(manifest["testbench"]["expected"].as_str().unwrap());
    let text = std::fs::read_to_string(&expected).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Flip the lowest bit of the first vector's expected value.
    let last = lines[0].pop().unwrap().to_digit(16).unwrap() ^ 1;
    lines[0].push(char::from_digit(last, 16).unwrap());
    std::fs::write(&expected, lines.join("\n") + "\n").unwrap();
    let vectors = manifest["testbench"]["vectors"].as_u64().unwrap();
    let top = manifest["top"].as_str().unwrap();
    let summary = format!("{top}: {} passed, 1 failed", vectors - 1);
    // `sim` (Verilator, the target FuseSoC users type) and `sim_icarus` both fail.
    for target in ["sim", "sim_icarus"] {
        let o = fusesoc(
            &tmp.path().join(format!("work_{target}")),
            &[&dir],
            target,
            &vlnv(&manifest),
        );
        assert!(!o.status.success(), "{target}: {}", printed(&o));
        assert!(printed(&o).contains(&summary), "{target}: {}", printed(&o));
    }
}

/// A Verilog module `name` instantiating each `(block manifest, prefix)`: every port of a block
/// is a port of the module named with the prefix, except clock and reset, which all share.
fn wrapper(name: &str, blocks: &[(&Value, &str)]) -> String {
    let mut ports = vec!["input wire clk_i".to_string(), "input wire rst_ni".into()];
    let mut body = Vec::new();
    for (manifest, prefix) in blocks {
        let mut connections = Vec::new();
        for port in manifest["ports"].as_array().unwrap() {
            let port_name = port["name"].as_str().unwrap();
            if port_name == "clk_i" || port_name == "rst_ni" {
                connections.push(format!(".{port_name}({port_name})"));
                continue;
            }
            let width = port["width"].as_u64().unwrap();
            let range = if width > 1 {
                format!("[{}:0] ", width - 1)
            } else {
                String::new()
            };
            let direction = port["direction"].as_str().unwrap();
            ports.push(format!("{direction} wire {range}{prefix}{port_name}"));
            connections.push(format!(".{port_name}({prefix}{port_name})"));
        }
        body.push(format!(
            "  {} u_{prefix} ({});",
            manifest["top"].as_str().unwrap(),
            connections.join(", ")
        ));
    }
    format!(
        "{}\nmodule {name} (\n  {}\n);\n{}\nendmodule\n",
        testbenches::TIMESCALE,
        ports.join(",\n  "),
        body.join("\n")
    )
}

#[test]
fn a_design_with_the_engine_and_a_standalone_agen_lints_without_moddup() {
    let tmp = tempfile::tempdir().unwrap();
    let cores = tmp.path().join("cores");
    let g24 = ["--global-bits", "24", "--vectors", "5"];
    let (_, engine) = generate(
        &cores,
        &[
            &["d2ma", "engine", "--ctas", "2", "--buffers", "2"],
            &g24[..],
        ]
        .concat(),
    );
    let (_, agen) = generate(&cores, &[&["d2ma", "agen"], &g24[..]].concat());
    assert!(
        engine["parts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == agen["top"]),
        "the engine's AGEN is the standalone one: {engine}"
    );
    let user = cores.join("user");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(
        user.join("two_cores.v"),
        wrapper("two_cores", &[(&engine, "e_"), (&agen, "a_")]),
    )
    .unwrap();
    std::fs::write(
        user.join("two_cores.core"),
        format!(
            "CAPI=2:\nname: \"user:demo:two_cores:0.1.0\"\n\nfilesets:\n  rtl:\n    \
             file_type: verilogSource\n    depend: [\"{}\", \"{}\"]\n    files: [two_cores.v]\n\n\
             targets:\n  lint:\n    filesets: [rtl]\n    flow: lint\n    flow_options:\n      \
             tool: verilator\n      verilator_options: [-Wall]\n    toplevel: two_cores\n",
            vlnv(&engine),
            vlnv(&agen)
        ),
    )
    .unwrap();
    let o = fusesoc(
        &tmp.path().join("work"),
        &[&cores],
        "lint",
        "user:demo:two_cores",
    );
    assert!(o.status.success(), "{}", printed(&o));
    assert!(!printed(&o).contains("MODDUP"), "{}", printed(&o));
}

/// A user's core asking rtl-gen's generator (a dependency) for a bitvector-XOR hasher with
/// `mask`.
fn generating_core(mask: u32) -> String {
    format!(
        "CAPI=2:\nname: \"user:demo:generated:0.1.0\"\n\n\
         filesets:\n  generator:\n    depend: [\"rtl-gen:rtl-gen:generator\"]\n\n\
         generate:\n  bank_hash:\n    generator: rtl-gen\n    parameters:\n      command: hash\n      \
         kind: bitvector-xor\n      addr-bits: 8\n      banks: 4\n      k1: 1\n      k2: 4\n      \
         mask: {mask}\n\n\
         targets:\n  default:\n    filesets: [generator]\n    generate: [bank_hash]\n    flow: lint\n    flow_options:\n      \
         tool: verilator\n      verilator_options: [-Wall]\n    toplevel: hash_bvxor_n8_b4\n"
    )
}

/// The generator's folder of each build under `work` that wrote the hasher, with the
/// hasher's text.
fn generated_hashers(work: &Path) -> Vec<(PathBuf, String)> {
    let cache = work.join("build/user_demo_generated_0.1.0/default/generator_cache");
    std::fs::read_dir(cache)
        .expect("the generator ran")
        .map(|entry| {
            let folder = entry.unwrap().path();
            let text = std::fs::read_to_string(folder.join("hash_bvxor_n8_b4/hash_bvxor_n8_b4.v"))
                .expect("the generator wrote the block");
            (folder, text)
        })
        .collect()
}

#[test]
fn the_generator_regenerates_a_block_on_every_build() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&user).unwrap();
    let generator = repo().join("fusesoc");
    let build = |mask: u32| {
        std::fs::write(user.join("generated.core"), generating_core(mask)).unwrap();
        let o = fusesoc(
            &work,
            &[&generator, &user],
            "default",
            "user:demo:generated",
        );
        assert!(o.status.success(), "mask {mask}: {}", printed(&o));
        assert!(printed(&o).contains("Generating"), "{}", printed(&o));
    };
    build(3);
    let first = generated_hashers(&work);
    assert_eq!(first.len(), 1);
    assert!(first[0].1.contains("--mask 3"), "{}", first[0].1);
    // The same request again: the generator runs again into a fresh folder.
    let stale = first[0].0.join("stale");
    std::fs::write(&stale, "from the first build").unwrap();
    build(3);
    assert!(
        !stale.exists(),
        "the second build reused the first one's output"
    );
    // Another parameter: a block of its own.
    build(1);
    let texts: Vec<String> = generated_hashers(&work)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert!(texts.iter().any(|t| t.contains("--mask 1")), "{texts:?}");
}

/// The assignment driving the packed input port `port` of `manifest`'s block from the register
/// block's `hwif_out`, bits without a field zero. PeakRDL names a field that is a SystemVerilog
/// keyword (`global`) with a trailing `_` in the structs of package `package`.
fn port_from_registers(manifest: &Value, port: &str, width: u64, package: &str) -> String {
    let mut fields: Vec<&Value> = manifest["fields"][port]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    fields.sort_by_key(|f| f["lsb"].as_u64().unwrap());
    let mut parts = Vec::new();
    let mut next = 0;
    for field in fields {
        let lsb = field["lsb"].as_u64().unwrap();
        if lsb > next {
            parts.push(format!("{}'b0", lsb - next));
        }
        let name = field["name"].as_str().unwrap();
        let member = if package.contains(&format!(" {name}_;")) {
            format!("{name}_")
        } else {
            name.to_string()
        };
        parts.push(format!("hwif_out.{port}.{member}.value"));
        next = lsb + field["width"].as_u64().unwrap();
    }
    if width > next {
        parts.push(format!("{}'b0", width - next));
    }
    parts.reverse();
    format!("  assign {port}_q = {{{}}};", parts.join(", "))
}

/// The width of `manifest`'s port `name`.
fn port_width(manifest: &Value, name: &str) -> u64 {
    manifest["ports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .and_then(|p| p["width"].as_u64())
        .unwrap_or_else(|| panic!("no port {name}"))
}

/// The declarations and assignments driving the ports of write port `port` (a manifest
/// `write_ports` entry) from the register block's memory `hwif_out.<name>`: a write to word `a`
/// is one strobe pulse with address `a` and the bus word as data, acknowledged at once; the
/// memory's byte-address bits below a word, its byte enables and its read request are sunk
/// into `unused_*` (a word is written whole, the memory is write-only). Returns the lines and
/// the ports driven.
fn write_port_from_registers(
    manifest: &Value,
    port: &Value,
    bus_bits: u64,
) -> (Vec<String>, Vec<String>) {
    let name = port["name"].as_str().unwrap();
    let strobe = port["strobe"].as_str().unwrap();
    let data = port["data"].as_str().unwrap();
    let address: Vec<&str> = port["address"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let address_bits: u64 = address.iter().map(|a| port_width(manifest, a)).sum();
    let data_bits = port_width(manifest, data);
    let byte_bits = (bus_bits / 8).trailing_zeros() as u64;
    let mem = format!("hwif_out.{name}");
    let mut lines = vec![format!("  logic {strobe}_q;")];
    for a in &address {
        lines.push(format!(
            "  logic [{}:0] {a}_q;",
            port_width(manifest, a) - 1
        ));
    }
    lines.push(format!("  logic [{}:0] {data}_q;", data_bits - 1));
    lines.push(format!(
        "  assign {strobe}_q = {mem}.req & {mem}.req_is_wr;"
    ));
    let targets: Vec<String> = address.iter().map(|a| format!("{a}_q")).collect();
    lines.push(format!(
        "  assign {{{}}} = {mem}.addr[{}:{byte_bits}];",
        targets.join(", "),
        address_bits + byte_bits - 1
    ));
    lines.push(format!(
        "  assign {data}_q = {mem}.wr_data[{}:0];",
        data_bits - 1
    ));
    lines.push(format!("  assign hwif_in.{name}.wr_ack = {strobe}_q;"));
    lines.push(format!("  assign hwif_in.{name}.rd_ack = 1'b0;"));
    lines.push(format!("  assign hwif_in.{name}.rd_data = '0;"));
    let mut unused = vec![
        format!("{mem}.wr_biten"),
        format!("{mem}.req & ~{mem}.req_is_wr"),
    ];
    if byte_bits > 0 {
        unused.push(format!("{mem}.addr[{}:0]", byte_bits - 1));
    }
    if bus_bits > data_bits {
        unused.push(format!("{mem}.wr_data[{}:{data_bits}]", bus_bits - 1));
    }
    lines.push(format!("  logic unused_{name};"));
    lines.push(format!(
        "  assign unused_{name} = ^{{{}}};",
        unused.join(", ")
    ));
    let mut driven: Vec<String> = address.iter().map(|a| a.to_string()).collect();
    driven.extend([strobe.to_string(), data.to_string()]);
    (lines, driven)
}

/// A SystemVerilog module holding the register block (source `regs_source`, package
/// `package`; its ports are the module's) and the block, whose packed input ports and write
/// ports it drives.
fn block_with_registers(manifest: &Value, regs_source: &str, package: &str) -> String {
    let top = manifest["top"].as_str().unwrap();
    let regs = rtl_gen::rdl::addrmap_name(top);
    let header = regs_source
        .split(&format!("module {regs}"))
        .nth(1)
        .and_then(|rest| rest.split(");").next())
        .expect("the register block's port list");
    let mut ports: Vec<String> = header
        .lines()
        .map(|l| l.trim().trim_end_matches(',').to_string())
        .filter(|l| (l.starts_with("input") || l.starts_with("output")) && !l.contains("hwif"))
        .collect();
    let bus_bits = package
        .split(&format!("{}_DATA_WIDTH = ", regs.to_uppercase()))
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.parse().ok())
        .expect("the register block's data width");
    let mut body = vec![format!("  {regs}_pkg::{regs}__out_t hwif_out;")];
    if package.contains(&format!("}} {regs}__in_t;")) {
        body.push(format!("  {regs}_pkg::{regs}__in_t hwif_in;"));
    }
    body.push(format!("  {regs} u_regs (.*);"));
    let mut driven = Vec::new();
    for port in manifest["write_ports"].as_array().into_iter().flatten() {
        let (lines, ports) = write_port_from_registers(manifest, port, bus_bits);
        body.extend(lines);
        driven.extend(ports);
    }
    let mut connections = Vec::new();
    for port in manifest["ports"].as_array().unwrap() {
        let name = port["name"].as_str().unwrap();
        let width = port["width"].as_u64().unwrap();
        let direction = port["direction"].as_str().unwrap();
        if direction == "input" && manifest["fields"].get(name).is_some() {
            body.push(format!("  logic [{}:0] {name}_q;", width - 1));
            body.push(port_from_registers(manifest, name, width, package));
            connections.push(format!(".{name}({name}_q)"));
        } else if driven.iter().any(|d| d == name) {
            connections.push(format!(".{name}({name}_q)"));
        } else {
            ports.push(format!("{direction} wire [{}:0] {name}", width - 1));
            connections.push(format!(".{name}({name})"));
        }
    }
    body.push(format!("  {top} u_block ({});", connections.join(", ")));
    format!(
        "{}\nmodule {top}_with_regs (\n  {}\n);\n{}\nendmodule\n",
        testbenches::TIMESCALE,
        ports.join(",\n  "),
        body.join("\n")
    )
}

/// Compiles the block's RDL with PeakRDL into an APB register block and a C header; the
/// header compiles, and the register block lints with the block under `verilator -Wall`, with
/// nothing waived but the warnings `<name>_regs.vlt` names in PeakRDL's files.
fn registers_compile_and_lint(args: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, manifest) = generate(&tmp.path().join("blocks"), args);
    let top = manifest["top"].as_str().unwrap();
    let rdl = dir.join(format!("{top}.rdl"));
    let out = tmp.path().join("regs");
    let o = venv_tool("peakrdl", tmp.path())
        .arg("regblock")
        .arg(&rdl)
        .arg("-o")
        .arg(&out)
        .args(rtl_gen::rdl::REGBLOCK_OPTIONS)
        .output()
        .unwrap();
    assert!(o.status.success(), "{top} regblock: {}", printed(&o));
    let header = out.join(format!("{top}.h"));
    let o = venv_tool("peakrdl", tmp.path())
        .arg("c-header")
        .arg(&rdl)
        .arg("-o")
        .arg(&header)
        .output()
        .unwrap();
    assert!(o.status.success(), "{top} c-header: {}", printed(&o));
    let o = Command::new("gcc")
        .args([
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-std=c11",
            "-x",
            "c",
        ])
        .arg(&header)
        .output()
        .expect("gcc runs");
    assert!(o.status.success(), "{top}.h: {}", printed(&o));
    let regs = rtl_gen::rdl::addrmap_name(top);
    let regs_file = out.join(format!("{regs}.sv"));
    let wrapper = out.join(format!("{top}_with_regs.sv"));
    let source = std::fs::read_to_string(&regs_file).unwrap();
    let package_file = out.join(format!("{regs}_pkg.sv"));
    let package = std::fs::read_to_string(&package_file).unwrap();
    std::fs::write(&wrapper, block_with_registers(&manifest, &source, &package)).unwrap();
    let mut files = vec![dir.join(format!("{regs}.vlt")), package_file, regs_file];
    for file in manifest["rtl_files"].as_array().unwrap() {
        files.push(dir.join(file.as_str().unwrap()));
    }
    files.push(wrapper);
    // PeakRDL's register block has no `timescale (--timescale gives it the block's).
    let o = Command::new("verilator")
        .args(["--lint-only", "-Wall", "--timescale", "1ns/1ps"])
        .args(["--top-module", &format!("{top}_with_regs")])
        .args(&files)
        .output()
        .expect("verilator runs");
    assert!(o.status.success(), "{top} with registers: {}", printed(&o));
}

#[test]
fn a_configurable_hashers_registers_compile_and_lint_with_it() {
    registers_compile_and_lint(&[
        "hash",
        "--kind",
        "bitwise-xor",
        "--addr-bits",
        "8",
        "--banks",
        "4",
        "--configurable",
        "--configs",
        "1",
        "--vectors",
        "16",
    ]);
}

#[test]
fn the_d2ma_agens_entry_registers_compile_and_lint_with_it() {
    registers_compile_and_lint(&["d2ma", "agen", "--vectors", "5"]);
}

#[test]
fn a_loadable_rap_converters_table_registers_compile_and_lint_with_it() {
    registers_compile_and_lint(&[
        "rap",
        "--banks",
        "8",
        "--kind",
        "3p",
        "--configurable",
        "--vectors",
        "16",
    ]);
}

#[test]
fn the_d2ma_engines_configuration_registers_compile_and_lint_with_it() {
    registers_compile_and_lint(&[ENGINE, &["--vectors", "5"]].concat());
}

#[test]
fn a_filelist_works_from_any_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, manifest) = generate(
        &tmp.path().join("blocks"),
        &[ENGINE, &["--vectors", "5"]].concat(),
    );
    let top = manifest["top"].as_str().unwrap();
    let filelist = dir.join(format!("{top}.f"));
    let o = Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", top, "-F"])
        .arg(&filelist)
        .current_dir(tmp.path())
        .output()
        .expect("verilator runs");
    assert!(
        o.status.success(),
        "verilator -F {}: {}",
        filelist.display(),
        printed(&o)
    );
}
