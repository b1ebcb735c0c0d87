//! `rtl-gen prove`: every hash kind (fixed and configurable, combinational and pipelined) proved
//! at the paper's size (14 address bits, 32 banks) and at 64 address bits; RAP, RAS and 3P
//! converters baked and loadable; wrong modules refuted with counterexamples that the golden
//! model confirms; the references themselves checked against the golden model; bad input.

use models::{Geometry, HashConfig, HashConfigObject, HashFunction, HashKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtl_gen::hash::reference::{HashBlock, HashForm};
use rtl_gen::prove::block::CfgField;
use rtl_gen::prove::{reference, yosys, BlockUnderProof};
mod common;

use common::cli::{generate, text};
use common::{assert_schema, rtl_gen};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A full-rank configuration of `kind`, drawn from a seeded generator, as a config file.
fn config_file(root: &Path, kind: HashKind, n: u32, banks: u64) -> PathBuf {
    let g = Geometry::new(n, banks).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n) * 7919 + banks);
    let config = loop {
        let c = HashConfig::random(kind, g, &mut rng);
        if c.check_full_rank().is_ok() {
            break c;
        }
    };
    let path = root.join(format!("{kind}_n{n}_b{banks}.json"));
    let json = serde_json::to_string(&HashConfigObject::from_config(&config)).unwrap();
    std::fs::write(&path, json).unwrap();
    path
}

/// Every kind in every variant at one shape.
fn every_hasher(root: &Path, n: u32, banks: u64) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for kind in HashKind::ALL {
        let config = config_file(root, kind, n, banks);
        let config = config.display().to_string();
        for configurable in [false, true] {
            if configurable && kind == HashKind::Modulo {
                continue;
            }
            for pipeline in [false, true] {
                let mut args = vec!["hash", "--config", &config];
                if configurable {
                    args.push("--configurable");
                }
                if pipeline {
                    args.push("--pipeline");
                }
                dirs.push(generate(root, &args.join(" ")));
            }
        }
    }
    dirs
}

/// Replaces the block's first Verilog file by `edit` of it, runs `rtl-gen prove` on the block
/// and returns its exit status and output.
fn prove_edited(
    root: &Path,
    dir: &Path,
    edit: impl FnOnce(&str) -> String,
) -> (Option<i32>, String) {
    let block = BlockUnderProof::load(dir).unwrap();
    let original = std::fs::read_to_string(&block.rtl_files[0]).unwrap();
    std::fs::write(&block.rtl_files[0], edit(&original)).unwrap();
    let o = rtl_gen(root, &["prove", &dir.display().to_string()]);
    (o.status.code(), text(&o))
}

/// Runs `rtl-gen prove` on `dirs` and requires every proof to hold; returns its lines.
fn prove_all(root: &Path, dirs: &[PathBuf]) -> Vec<String> {
    let mut args = vec!["prove".to_string()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = rtl_gen(root, &args);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), dirs.len(), "{out}");
    assert!(lines.iter().all(|l| l.contains(": PROVED ")), "{out}");
    lines
}

#[test]
fn every_hasher_is_proved_at_the_papers_size() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = every_hasher(tmp.path(), 14, 32);
    assert_eq!(dirs.len(), 22);
    let lines = prove_all(tmp.path(), &dirs);
    assert!(lines
        .iter()
        .any(|l| l.contains("PROVED matrix") && l.contains("all 2^14 addresses")));
    assert!(lines
        .iter()
        .any(|l| l.contains("PROVED family") && l.contains("k1 0..9, k2 0..13, mask 0..31")));
    assert!(lines
        .iter()
        .any(|l| l.contains("registered") && l.contains("1-induction")));
}

#[test]
fn every_hasher_is_proved_at_64_address_bits() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = every_hasher(tmp.path(), 64, 32);
    let lines = prove_all(tmp.path(), &dirs);
    assert!(
        lines.iter().all(|l| l.contains("all 2^64 addresses")),
        "{lines:?}"
    );
}

#[test]
fn converters_are_proved_baked_and_loadable() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dirs: Vec<PathBuf> = [
        "rap --perm 2,0,3,1",
        "rap --w 32 --seed 7",
        "rap --w 6 --seed 3 --pipeline",
        "rap --w 24 --ras --seed 3",
        "rap --w 5 --dims 4 --seed 3",
        "rap --perm 2,0,3,1 --loadable",
        "rap --w 6 --loadable --pipeline",
        "rap --w 8 --loadable --packed",
        "rap --w 12 --loadable --packed --pipeline",
        "rap --w 3 --dims 4 --loadable",
    ]
    .iter()
    .map(|args| generate(root, args))
    .collect();
    let lines = prove_all(root, &dirs);
    let loadable: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("loaded-tables"))
        .collect();
    assert_eq!(loadable.len(), 5, "{lines:?}");
    // Without --steps a loadable converter is proved for every input sequence from reset, of
    // any length (induction; w = 6 and 12 need the in-range lemma, 3P three tables).
    for line in loadable {
        assert!(
            line.contains("PROVED") && line.contains("every input sequence of any length"),
            "{line}"
        );
    }
}

#[test]
fn converters_at_the_papers_size_are_proved_within_a_bound() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // w = 32 (32 banks): baked RAP and 3P for every element (3P: all 2^20); loadable RAP, one
    // entry and one packed word a write, for every input sequence of 5 cycles from reset (any
    // four writes of any entries or words, reads at any index in every cycle). Loading all 32
    // entries takes 34 cycles: a 460 000-variable problem, minutes of SAT (docs/VERIFICATION.md).
    let baked = ["rap --w 32 --seed 1", "rap --w 32 --dims 4 --seed 1"].map(|a| generate(root, a));
    prove_all(root, &baked);
    let loadable =
        ["rap --w 32 --loadable", "rap --w 32 --loadable --packed"].map(|a| generate(root, a));
    let mut args = vec!["prove".to_string(), "--steps".into(), "5".into()];
    args.extend(loadable.iter().map(|d| d.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = rtl_gen(root, &args);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert_eq!(out.matches("PROVED loaded-tables").count(), 2, "{out}");
    assert!(out.contains("every input sequence of 5 cycles"), "{out}");

    // Without --steps, the same converters, 3P and RAS (w = 24, not a power of two) are proved
    // for every input sequence from reset of any length: the induction closes in about a
    // second of CPU where the 34-cycle bounded proof had not finished after 110 s.
    let mut unbounded = loadable.to_vec();
    unbounded.extend(
        [
            "rap --w 16 --dims 4 --loadable",
            "rap --w 24 --ras --loadable",
        ]
        .map(|a| generate(root, a)),
    );
    let lines = prove_all(root, &unbounded);
    assert!(
        lines
            .iter()
            .all(|l| l.contains("every input sequence of any length")),
        "{lines:?}"
    );
}

/// A loadable converter that writes the wrong entry: the induction does not close (its lemma
/// fails), and the bounded proof that follows refutes it with the write and the read.
#[test]
fn a_loadable_converter_writing_the_wrong_entry_is_refuted() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = generate(root, "rap --w 8 --loadable");
    let (code, out) = prove_edited(root, &dir, |original| {
        let right = "{7'h00, perm_we_i} << perm_idx_i;";
        assert!(original.contains(right), "{original}");
        original.replace(right, "{7'h00, perm_we_i} << (perm_idx_i ^ 3'h1);")
    });
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("DISPROVED loaded-tables: counterexample"),
        "{out}"
    );
    assert!(dir.join("prove/induction.log").exists());
}

/// The counterexample of a failed proof, from `rtl-gen prove --json`.
fn counterexample(root: &Path, dir: &Path) -> Value {
    let o = rtl_gen(root, &["prove", "--json", &dir.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let json: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema("prove.schema.json", &json);
    assert_eq!(json["not_proved"], 1);
    let outcome = &json["proofs"][0]["outcome"];
    assert_eq!(outcome["result"], "disproved", "{outcome}");
    outcome["counterexample"].clone()
}

fn hex(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// The first cycle of `cex` expects what `model` says for its address and got something else.
fn model_confirms(cex: &Value, model: &HashConfig) {
    let cycle = &cex["cycles"][0];
    let addr = hex(&cycle["inputs"]["addr_i"]);
    assert_eq!(hex(&cycle["expected"]["bank_o"]), model.bank(addr), "{cex}");
    assert_ne!(hex(&cycle["got"]["bank_o"]), model.bank(addr), "{cex}");
}

/// Replaces the block's module with `body` under the same ports.
fn replace_module(dir: &Path, ports: &str, body: &str) {
    let block = BlockUnderProof::load(dir).unwrap();
    let text = format!("module {} (\n{ports}\n);\n{body}\nendmodule\n", block.top);
    std::fs::write(&block.rtl_files[0], text).unwrap();
}

#[test]
fn a_wrong_configurable_hasher_is_refuted_and_the_model_confirms_the_counterexample() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = generate(
        root,
        "hash --kind bitvector-xor --addr-bits 14 --banks 32 --configurable",
    );
    // The family's formula, except that the masked vector never sees address bit 13.
    replace_module(
        &dir,
        "  input wire [13:0] addr_i,\n  input wire [12:0] cfg_i,\n  output wire [4:0] bank_o",
        "  wire [13:0] low = {1'b0, addr_i[12:0]};\n  \
         assign bank_o = (addr_i >> cfg_i[3:0]) ^ ((low >> cfg_i[7:4]) & cfg_i[12:8]);",
    );
    let o = rtl_gen(root, &["prove", &dir.display().to_string()]);
    let line = text(&o);
    assert_eq!(o.status.code(), Some(1), "{line}");
    assert!(
        line.contains("DISPROVED family: counterexample: addr_i=0x"),
        "{line}"
    );
    assert!(
        line.contains("(k1=") && line.contains("expected bank_o=") && line.contains("got bank_o=")
    );
    let cex = counterexample(root, &dir);
    let cfg = hex(&cex["cycles"][0]["inputs"]["cfg_i"]);
    let (k1, k2, mask) = (cfg as u32 & 0xf, (cfg >> 4) as u32 & 0xf, cfg >> 8 & 0x1f);
    let function = HashFunction::BitvectorXor { k1, k2, mask };
    let model = HashConfig::new(Geometry::new(14, 32).unwrap(), function).expect("legal");
    model_confirms(&cex, &model);
}

#[test]
fn a_wrong_64_bit_hasher_is_refuted_and_the_model_confirms_the_counterexample() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = generate(
        root,
        "hash --kind xor-matrix --addr-bits 64 --banks 4 --rows 0x8000000000000001,0x00000000ffff0000",
    );
    // Row 0 loses bit 63: only addresses with bit 63 set tell the difference.
    replace_module(
        &dir,
        "  input wire [63:0] addr_i,\n  output wire [1:0] bank_o",
        "  assign bank_o = {^addr_i[31:16], addr_i[0]};",
    );
    let cex = counterexample(root, &dir);
    assert_eq!(hex(&cex["cycles"][0]["inputs"]["addr_i"]) >> 63, 1, "{cex}");
    let rows = vec![0x8000_0000_0000_0001, 0xffff_0000];
    let function = HashFunction::XorMatrix { rows };
    let model = HashConfig::new(Geometry::new(64, 4).unwrap(), function).unwrap();
    model_confirms(&cex, &model);
}

#[test]
fn wrong_latency_and_wrong_resets_are_refuted() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let ports = "  input wire clk_i,\n  input wire rst_ni,\n  input wire [4:0] addr_i,\n  \
                 output wire [4:0] bank_o";
    let command = "hash --kind modulo --addr-bits 5 --banks 32 --pipeline";
    let registered = |reset: &str| {
        format!(
            "  reg [4:0] q;\n  always @(posedge clk_i{reset}) if (!rst_ni) q <= 5'd0; \
             else q <= addr_i;\n  assign bank_o = q;"
        )
    };
    // Right: proved. No register, two registers, a synchronous reset: refuted.
    let wrong = [
        ("  assign bank_o = addr_i & {5{rst_ni}};".to_string(), false),
        (
            "  reg [4:0] a;\n  reg [4:0] b;\n  always @(posedge clk_i or negedge rst_ni) \
             if (!rst_ni) begin a <= 5'd0; b <= 5'd0; end else begin a <= addr_i; b <= a; end\n  \
             assign bank_o = b;"
                .to_string(),
            false,
        ),
        (registered(""), false),
        (registered(" or negedge rst_ni"), true),
    ];
    for (body, holds) in wrong {
        let dir = generate(root, command);
        replace_module(&dir, ports, &body);
        let o = rtl_gen(root, &["prove", &dir.display().to_string()]);
        assert_eq!(o.status.success(), holds, "{body}: {}", text(&o));
    }
    // A loadable converter whose reset is synchronous: its outputs show the old table during
    // the reset cycle.
    let dir = generate(root, "rap --perm 2,0,3,1 --loadable");
    let (code, out) = prove_edited(root, &dir, |original| {
        rtl_gen::mutate::sites::sites(original)
            .into_iter()
            .find(|s| s.operator == rtl_gen::mutate::sites::Operator::ResetEdge)
            .expect("a reset edge")
            .apply(original)
    });
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("DISPROVED loaded-tables: counterexample: cycle 1 of"),
        "{out}"
    );
}

#[test]
fn bad_input_is_refused_before_anything_is_proved() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let hasher = generate(root, "hash --kind modulo --addr-bits 8 --banks 4");
    let big = generate(root, "rap --w 1024 --loadable --vectors 1");
    let d2ma = generate(root, "d2ma agen");
    let h = hasher.display().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![h.clone(), d2ma.display().to_string()],
            "nothing to prove for a `d2ma agen` block",
        ),
        (
            vec![h.clone(), root.join("nowhere").display().to_string()],
            "nowhere",
        ),
        (
            vec![h.clone(), big.display().to_string()],
            "--steps (default",
        ),
        (
            vec![h.clone(), "--timeout".into(), "0".into()],
            "--timeout 0: 1 to 86400 seconds",
        ),
        (
            vec![
                h.clone(),
                big.display().to_string(),
                "--steps".into(),
                "1".into(),
            ],
            "--steps 1: 2 to",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["prove"];
        all.extend(args.iter().map(String::as_str));
        let o = rtl_gen(root, &all);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(o.stdout.is_empty());
        assert!(
            !hasher.join(rtl_gen::prove::PROVE_DIR).exists(),
            "wrote before refusing"
        );
    }
}

/// A `cfg_i` layout of the family's fields, each as narrow as its range allows, and the value
/// that programs `config` in it.
fn layout_and_value(config: &HashConfig) -> (Vec<CfgField>, Vec<bool>) {
    let (n, m) = (config.geometry().addr_bits(), config.geometry().bank_bits());
    let index = reference::bits_to_hold(u64::from(n - 1));
    let fields: Vec<(String, u32, u64)> = match config.function() {
        HashFunction::BitvectorPerm { k } => vec![("k".into(), index, u64::from(*k))],
        HashFunction::BitvectorXor { k1, k2, mask } => vec![
            ("k1".into(), index, u64::from(*k1)),
            ("k2".into(), index, u64::from(*k2)),
            ("mask".into(), m, *mask),
        ],
        HashFunction::BitwisePerm { bits } => bits
            .iter()
            .enumerate()
            .map(|(i, &b)| (format!("bit{i}"), index, u64::from(b)))
            .collect(),
        HashFunction::BitwiseXor { pairs } => pairs
            .iter()
            .enumerate()
            .flat_map(|(i, &(a, b))| {
                [
                    (format!("pair{i}a"), index, u64::from(a)),
                    (format!("pair{i}b"), index, u64::from(b)),
                ]
            })
            .collect(),
        HashFunction::XorMatrix { rows } => rows
            .iter()
            .enumerate()
            .map(|(i, &r)| (format!("row{i}"), n, r))
            .collect(),
        HashFunction::Modulo => unreachable!("nothing to configure"),
    };
    let mut layout = Vec::new();
    let mut bits = Vec::new();
    for (name, width, value) in fields {
        layout.push(CfgField {
            name,
            lsb: bits.len() as u32,
            width,
        });
        bits.extend((0..width).map(|i| value >> i & 1 == 1));
    }
    (layout, bits)
}

/// The configurable reference programmed with `config` equals the fixed reference built from
/// its GF(2) matrix (models::HashConfig::to_matrix), for every address: the formula the proofs
/// use is the golden model's.
#[test]
fn the_family_formulas_agree_with_the_golden_models_matrices() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for kind in HashKind::ALL.into_iter().filter(|&k| k != HashKind::Modulo) {
        for (n, banks) in [(14, 32), (64, 32)] {
            let g = Geometry::new(n, banks).unwrap();
            for trial in 0..2 {
                let config = HashConfig::random(kind, g, &mut rng);
                // Another configuration: the programmed reference must differ from its matrix
                // (so the assumptions cannot make the agreement vacuous).
                let other = loop {
                    let c = HashConfig::random(kind, g, &mut rng);
                    if c.to_matrix() != config.to_matrix() {
                        break c;
                    }
                };
                let (fields, bits) = layout_and_value(&config);
                let block = |form| HashBlock {
                    kind,
                    addr_bits: n,
                    bank_bits: g.bank_bits(),
                    form,
                };
                let cfg_width = bits.len() as u32;
                let fixed =
                    rtl_gen::hash::reference::hash(&block(HashForm::Fixed(config.clone())), 0, 0)
                        .unwrap();
                let wrong =
                    rtl_gen::hash::reference::hash(&block(HashForm::Fixed(other)), 0, 0).unwrap();
                let configurable = rtl_gen::hash::reference::hash(
                    &block(HashForm::Configurable(fields)),
                    cfg_width,
                    0,
                )
                .unwrap();
                let dir = tmp.path().join(format!("{kind}_{n}_{trial}"));
                std::fs::create_dir_all(&dir).unwrap();
                let value: String = bits
                    .iter()
                    .rev()
                    .map(|&b| if b { '1' } else { '0' })
                    .collect();
                let files = [
                    ("fixed.v", fixed.verilog),
                    ("wrong.v", wrong.verilog),
                    ("configurable.v", configurable.verilog),
                    (
                        "programmed.v",
                        format!(
                            "module programmed (input wire [{}:0] addr_i, output wire [{}:0] bank_o);\n  \
                             {} r (.addr_i(addr_i), .cfg_i({cfg_width}'b{value}), .bank_o(bank_o));\nendmodule\n",
                            n - 1,
                            g.bank_bits() - 1,
                            reference::MODULE
                        ),
                    ),
                ];
                for (name, text) in &files {
                    std::fs::write(dir.join(name), text).unwrap();
                }
                let gate = yosys::Design {
                    files: vec![dir.join("configurable.v"), dir.join("programmed.v")],
                    top: "programmed".into(),
                };
                for (file, holds) in [("fixed.v", true), ("wrong.v", false)] {
                    let gold = yosys::Design {
                        files: vec![dir.join(file)],
                        top: reference::MODULE.into(),
                    };
                    let run = yosys::miter(
                        &dir,
                        "agree",
                        &gold,
                        &gate,
                        yosys::Check::Combinational,
                        300,
                    )
                    .unwrap();
                    assert_eq!(
                        run.answer == yosys::Answer::Holds,
                        holds,
                        "{kind} n={n} against {file}: {config:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_adapter_reads_what_the_generators_write() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = generate(
        tmp.path(),
        "hash --kind bitwise-xor --addr-bits 14 --banks 32 --configurable",
    );
    let block = BlockUnderProof::load(&dir).unwrap();
    let h = rtl_gen::hash::reference::read(&block).unwrap();
    let HashForm::Configurable(fields) = &h.form else {
        panic!("not configurable")
    };
    assert_eq!((h.addr_bits, h.bank_bits, fields.len()), (14, 5, 10));
    assert_eq!(
        (fields[1].name.as_str(), fields[1].lsb, fields[1].width),
        ("pair0b", 4, 4)
    );
    let dir = generate(tmp.path(), "rap --w 6 --seed 3 --loadable --packed");
    let block = BlockUnderProof::load(&dir).unwrap();
    let r = rtl_gen::rap::reference::read(&block).unwrap();
    assert_eq!((r.w, r.dims, r.tables.len()), (6, 2, 1));
    assert_eq!(r.write, Some(rtl_gen::rap::reference::WritePort::Packed));
}

#[test]
fn the_d2ma_raw_check_is_proved_at_the_papers_size_and_a_wrong_one_is_refuted() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // The paper's engine: 8 CTAs x 4 buffers.
    let paper = generate(root, "d2ma raw-check --ctas 8 --buffers 4");
    let lines = prove_all(root, &[paper]);
    assert!(lines[0].contains("PROVED raw-check"), "{lines:?}");
    // Buffer 0's guard (entry 0 for CTA 0) taken as closed at its end: a load at `end` waits.
    let dir = generate(root, "d2ma raw-check --ctas 2 --buffers 2");
    let block = BlockUnderProof::load(&dir).unwrap();
    let original = std::fs::read_to_string(&block.rtl_files[0]).unwrap();
    let right = "({1'b0, load_addr_i} < sel_end0)";
    assert!(original.contains(right), "{original}");
    let wrong = original.replace(right, "({1'b0, load_addr_i} <= sel_end0)");
    std::fs::write(&block.rtl_files[0], wrong).unwrap();
    let cex = counterexample(root, &dir);
    let cycle = &cex["cycles"][0];
    // Ports up to 128 bits wide (end_i is 68), as hex.
    let value = |name: &str| {
        let text = cycle["inputs"][name].as_str().unwrap();
        u128::from_str_radix(text.trim_start_matches("0x"), 16).unwrap() as u64
    };
    let (start, end, addr) = (
        value("start_i") & 0xffff,
        value("end_i") & 0x1ffff,
        value("load_addr_i"),
    );
    let guard = models::d2ma::Guard {
        start: start as u32,
        end: end as u32,
        in_flight: value("busy_i") & 1 == 1,
    };
    // Only entry 0 differs: the model's answer for it is the expected one, and the load is at
    // its end.
    assert_eq!(addr, end, "{cex}");
    assert_eq!(value("load_cta_i"), 0, "{cex}");
    assert!(!models::d2ma::must_wait(&[guard], addr as u16), "{cex}");
    assert_eq!(hex(&cycle["got"]["wait_o"]), 1, "{cex}");
}
