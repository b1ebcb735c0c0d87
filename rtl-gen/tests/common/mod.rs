//! Shared helpers of the integration tests: the matrix of hash designs they cover, the lint
//! checks every generated block passes, and running the `rtl-gen` binary.
#![allow(dead_code)]

pub mod cli;

use models::{HashConfig, HashConfigObject, HashKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtl_gen::hash::HashDesign;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The small system (`System::SMALL` under RAP, 64-element vectors) as `rtl-gen` arguments,
/// without `--out`'s value.
pub const SMALL_SYSTEM: [&str; 24] = [
    "d2ma",
    "system",
    "--ctas",
    "2",
    "--buffers",
    "2",
    "--segment-bytes",
    "32",
    "--global-bits",
    "24",
    "--lanes",
    "4",
    "--banks",
    "8",
    "--depth",
    "256",
    "--mshrs",
    "2",
    "--vector-length",
    "64",
    "--map",
    "rap",
    "--rap-seed",
    "1",
];

/// The XOR paper's Fig. 5 hasher (bit-vector XOR, 14 address bits, 32 banks, k1 2, k2 8, mask
/// 7) as `rtl-gen` arguments, without `--out`'s value: the block most CLI tests generate.
pub const FIG5_HASH: [&str; 14] = [
    "hash",
    "--kind",
    "bitvector-xor",
    "--addr-bits",
    "14",
    "--banks",
    "32",
    "--k1",
    "2",
    "--k2",
    "8",
    "--mask",
    "7",
    "--out",
];

/// The shapes every kind is exercised at: the paper's Fermi case (n = 14, 32 banks), n = m,
/// m = 1, n = 64, the smallest (n = 1) and a wide one (n = 64, 65536 banks).
pub const SHAPES: [(u32, u64); 6] = [(14, 32), (5, 32), (8, 2), (64, 32), (1, 2), (64, 65536)];

/// A fixed configuration of `kind` for a shape, drawn from a seeded generator and full rank.
pub fn fixed_config(kind: HashKind, n: u32, banks: u64) -> HashConfigObject {
    let g = models::Geometry::new(n, banks).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n) * 1000 + banks);
    loop {
        let c = HashConfig::random(kind, g, &mut rng);
        if c.check_full_rank().is_ok() {
            return HashConfigObject::from_config(&c);
        }
    }
}

/// The variants a kind has: (configurable, pipeline).
pub fn variants(kind: HashKind) -> Vec<(bool, bool)> {
    if kind == HashKind::Modulo {
        vec![(false, false), (false, true)]
    } else {
        vec![(false, false), (true, false), (false, true), (true, true)]
    }
}

/// The design of `kind` at a shape and variant.
pub fn design(
    kind: HashKind,
    n: u32,
    banks: u64,
    configurable: bool,
    pipeline: bool,
) -> HashDesign {
    HashDesign::new(&fixed_config(kind, n, banks), configurable, pipeline, false).unwrap()
}

/// The configurable bit-vector XOR at the Fermi case (14 address bits, 32 banks) with one-hot
/// offsets (`rtl-gen hash --offsets one-hot`), the structure that meets issue 17's 150 ps.
pub fn one_hot_bvxor() -> HashDesign {
    let object = HashConfigObject::new(HashKind::BitvectorXor, 14, 32);
    HashDesign::new(&object, true, false, false)
        .unwrap()
        .with_offsets(rtl_gen::hash::logic::OffsetSelect::OneHot)
        .unwrap()
}

/// Every design of the matrix.
pub fn all_designs() -> Vec<HashDesign> {
    let mut out = Vec::new();
    for kind in HashKind::ALL {
        for (n, banks) in SHAPES {
            for (c, p) in variants(kind) {
                out.push(design(kind, n, banks, c, p));
            }
        }
    }
    out
}

/// The acceptance checks of a generated block `top` (RTL files `rtl`) and its testbench `tb`:
/// `verilator --lint-only -Wall` with nothing suppressed on the RTL and on RTL plus testbench,
/// `iverilog -g2005` on both, and Yosys `hierarchy -check; proc; check -assert` on the RTL.
pub fn assert_lint_clean(rtl: &[PathBuf], tb: &Path, top: &str) {
    let with_tb: Vec<PathBuf> = rtl.iter().cloned().chain([tb.to_path_buf()]).collect();
    testbenches::lint::verilator_lint(rtl, top).unwrap_or_else(|e| panic!("{top}: {e}"));
    testbenches::lint::verilator_lint(&with_tb, &format!("tb_{top}"))
        .unwrap_or_else(|e| panic!("tb of {top}: {e}"));
    testbenches::lint::iverilog_compile(&with_tb, &format!("tb_{top}"))
        .unwrap_or_else(|e| panic!("{top}: {e}"));
    synth::check(rtl, top).unwrap_or_else(|e| panic!("{top}: {e}"));
}

/// Co-simulates the block folder `dir` under `simulator`, prints its vectors and times, and
/// panics unless every vector passes.
pub fn assert_cosim_passes(dir: &Path, simulator: &str) {
    let (manifest, report) = rtl_gen::cosim::run(dir, simulator).unwrap();
    eprintln!(
        "{}: {} vectors under {simulator}, build {:.1} s, run {:.1} s",
        manifest.top, report.vectors, report.build_seconds, report.run_seconds
    );
    assert_eq!(
        report.failed, 0,
        "{}: {:?}",
        manifest.top, report.mismatches
    );
    assert_eq!(report.passed, manifest.testbench.vectors);
}

/// The pinned Vortex (`../shared/third_party/vortex`, read-only).
pub fn vortex_home() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/third_party/vortex")
}

/// What `VX_local_mem.sv` needs of Vortex to compile, copied into `dir`: its package and the
/// two interfaces (returned, in compile order). In the copies each `` `include `` is replaced
/// by the header's text (no include path needed) and the `lint_off GENUNNAMED` pragmas are
/// gone (Verilator 5.006 does not know the code and stops: ../shared/third_party/README.md).
pub fn vortex_sources(dir: &Path) -> Vec<PathBuf> {
    let rtl = vortex_home().join("hw/rtl");
    let read = |file: &str| {
        std::fs::read_to_string(rtl.join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .replace("/* verilator lint_off GENUNNAMED */", "")
            .replace("/* verilator lint_on GENUNNAMED */", "")
    };
    fn inline(text: &str, read: &dyn Fn(&str) -> String) -> String {
        text.lines()
            .map(|line| match line.trim().strip_prefix("`include \"") {
                Some(rest) => {
                    let header = rest.trim_end().trim_end_matches('"');
                    if header == "util_dpi.vh" {
                        return String::new(); // only under SV_DPI
                    }
                    inline(&read(header), read)
                }
                None => format!("{line}\n"),
            })
            .collect()
    }
    std::fs::create_dir_all(dir).unwrap();
    [
        "VX_gpu_pkg.sv",
        "mem/VX_mem_bus_if.sv",
        "interfaces/VX_dcr_bus_if.sv",
    ]
    .map(|file| {
        let path = dir.join(Path::new(file).file_name().unwrap());
        std::fs::write(&path, inline(&read(file), &read)).unwrap();
        path
    })
    .to_vec()
}

/// Runs the `rtl-gen` binary in `dir` with `args` and returns what it did.
pub fn rtl_gen<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("rtl-gen runs")
}

/// [`rtl_gen`], killed and failed (a hang) when it runs longer than `limit`.
pub fn rtl_gen_within<S: AsRef<std::ffi::OsStr>>(
    dir: &Path,
    args: &[S],
    limit: std::time::Duration,
) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("rtl-gen runs");
    let start = std::time::Instant::now();
    while child.try_wait().expect("rtl-gen is waited for").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("rtl-gen still ran after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("rtl-gen's output")
}

/// What a run printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The published JSON Schemas (`docs/schemas/*.schema.json`), by file name.
pub fn schemas() -> Vec<(String, serde_json::Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/schemas");
    let mut out: Vec<(String, serde_json::Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, value)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The errors of `value` against the published schema `name` (`manifest.schema.json`, ...), the
/// other schemas available to its `$ref`s; empty when it is valid.
pub fn schema_errors(name: &str, value: &serde_json::Value) -> Vec<String> {
    let all = schemas();
    let schema = &all
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no schema {name}"))
        .1;
    let mut options = jsonschema::options();
    for (_, s) in &all {
        let id = s["$id"].as_str().expect("every schema has an $id");
        let resource = jsonschema::Resource::from_contents(s.clone()).unwrap();
        options = options.with_resource(id, resource);
    }
    let validator = options
        .build(schema)
        .unwrap_or_else(|e| panic!("{name} compiles: {e}"));
    validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect()
}

/// Panics, listing the errors, unless `value` is valid against the published schema `name`.
pub fn assert_schema(name: &str, value: &serde_json::Value) {
    let errors = schema_errors(name, value);
    assert!(errors.is_empty(), "{name}: {errors:#?}\n{value:#}");
}

/// [`assert_schema`] on the JSON in file `path`.
pub fn assert_schema_file(name: &str, path: &Path) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_schema(name, &value);
}

/// A shared memory of `lanes` x `banks` x `depth` words of `word_bytes` bytes under `map`:
/// `modulo`, `xor` (the fixed XOR of the XOR paper's [17]), `bvxor-cfg` (a configurable
/// bit-vector XOR reset to k1 = 2, k2 = m + 3, mask 7), `xormat-cfg` (a configurable GF(2)
/// matrix reset to a seeded full-rank one), `rap` (baked, seed 1) or `rap-load` (loadable,
/// seed 2); `fill_words` words per fill beat, an SRAM macro when `sram` is given.
pub fn smem(
    (lanes, banks, depth, word_bytes): (u32, u32, u32, u32),
    map: &str,
    fill_words: u32,
    sram: Option<&str>,
) -> rtl_gen::smem::SmemDesign {
    use models::smem::Shape;
    use models::{Geometry, HashFunction};
    use rtl_gen::smem::{MapSpec, SmemDesign};
    let shape = Shape::new(lanes, banks, depth, word_bytes).unwrap();
    let g = Geometry::new(shape.addr_bits(), u64::from(banks)).unwrap();
    let m = shape.bank_bits();
    let hash = |function, configurable| MapSpec::Hash {
        config: HashConfig::new(g, function).unwrap(),
        configurable,
    };
    let spec = match map {
        "modulo" => hash(HashFunction::Modulo, false),
        "xor" => MapSpec::Hash {
            config: models::search::fixed_xor(g).unwrap(),
            configurable: false,
        },
        "bvxor-cfg" => hash(
            HashFunction::BitvectorXor {
                k1: 2.min(g.addr_bits() - m),
                k2: (m + 3).min(g.addr_bits() - 1),
                mask: 7 & g.bank_mask(),
            },
            true,
        ),
        "xormat-cfg" => MapSpec::Hash {
            config: fixed_config(HashKind::XorMatrix, g.addr_bits(), g.banks())
                .validate()
                .unwrap()
                .1
                .unwrap(),
            configurable: true,
        },
        "rap" | "rap-load" => MapSpec::Rap(
            rtl_gen::rap::RapDesign::from_seed(
                models::rap::LayoutKind::Rap,
                banks,
                if map == "rap" { 1 } else { 2 },
                map == "rap-load",
                false,
            )
            .unwrap(),
        ),
        other => panic!("no map {other}"),
    };
    SmemDesign::new(shape, spec, fill_words, sram.map(String::from), 32).unwrap()
}

/// [`smem`] (one word a fill beat, no macro) with or without the broadcast, behind the Vortex
/// interface with the tags of Vortex's release rtlsim (`TAG_WIDTH` 2: a 1-bit UUID, one tag-id
/// bit).
pub fn smem_vortex(
    shape: (u32, u32, u32, u32),
    map: &str,
    broadcast: bool,
) -> rtl_gen::smem::SmemDesign {
    smem(shape, map, 1, None)
        .with_broadcast(broadcast)
        .unwrap()
        .with_vortex(2)
        .unwrap()
}

/// Panics unless every line of the shared memory `d`'s own files among `rtl` (its modules and
/// its SRAM macro's model; not the hasher or RAP converter inside, which are `rtl-gen hash`'s
/// and `rtl-gen rap`'s modules) is at most 120 characters.
pub fn assert_smem_lines_short(d: &rtl_gen::smem::SmemDesign, rtl: &[PathBuf]) {
    let name = d.name();
    let own = |f: &&PathBuf| {
        let file = f.file_name().unwrap().to_string_lossy();
        file.starts_with(&name) || d.sram_macro().is_some_and(|m| file == format!("{m}.v"))
    };
    for file in rtl.iter().filter(own) {
        let text = std::fs::read_to_string(file).unwrap();
        let long = text.lines().find(|l| l.len() > 120);
        assert!(long.is_none(), "{}: {long:?}", file.display());
    }
}
