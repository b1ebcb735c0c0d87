//! The guard of every emitter and builder refactor: each committed insta snapshot of a
//! generated module (hash, RAP, D²MA, shared memory) is read into Yosys beside the module the
//! current code emits for it, and the two are proved the same circuit
//! (`synth::prove_equivalent`: a miter and a SAT proof for combinational modules, `equiv_make` /
//! `equiv_simple` / `equiv_induct` / `equiv_status -assert` for clocked ones; a multi-module
//! snapshot, the D²MA engine with its sub-modules, is flattened first; a shared memory, pinned
//! one module a file, is proved from its snapshots joined, [`joined`]). The last tests show
//! that the check fails on a changed circuit: a dropped XOR term, a changed reset value, a
//! changed constant in a sub-module.
//!
//! How a developer uses it, when a change touches emitted Verilog:
//!
//! 1. `cargo test -p rtl-gen --test equivalence` *before* `cargo insta accept`: the committed
//!    snapshots are still the previous version, so this proves the new text the same circuit
//!    as the old one (a failure names the module and the counterexample or unproven signals);
//! 2. then `cargo insta review` / `cargo insta accept` the new text, and commit both;
//! 3. a change that is meant to alter a circuit fails step 1: name it in the commit message.
//!
//! A module with latches (the D²MA controller's latch storage) is compared as text instead:
//! Yosys' equivalence passes do not prove latch circuits.
//!
//! In CI the snapshots equal the emitted text, so the proofs are quick and guard that every
//! snapshot module is still read, elaborated and compared. A new snapshot of a module must be
//! added to [`catalogue`] or [`joined`] (the test fails until it is), a testbench snapshot
//! (`tb_*`) is not a circuit and is skipped, nor is a SystemVerilog wrapper (`*_sv`: the
//! shared memory's `VX_local_mem.sv`, which needs Vortex's interfaces; `smem_vortex.rs` compiles
//! and runs it with them).

mod common;

use models::rap::{LayoutKind, Permutation};
use models::{HashConfigObject, HashKind};
use rayon::prelude::*;
use rtl_gen::block::{Block, Header};
use rtl_gen::d2ma::writeback::DataPath;
use rtl_gen::d2ma::{D2maDesign, Storage, Unit};
use rtl_gen::hash::HashDesign;
use rtl_gen::rap::RapDesign;
use rtl_gen::rtl::verilog::emit;
use rtl_gen::rtl::Module;
use rtl_gen::smem::SmemDesign;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use synth::{prove_equivalent, EquivMethod};

/// Cycles the clocked proofs unroll.
const SEQ: u32 = 2;

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// The text of a snapshot file without insta's metadata block (`---` ... `---`).
fn snapshot_body(text: &str) -> &str {
    text.strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(text, |(_, body)| body)
}

/// The committed snapshot named `name` (whatever test file wrote it: `<file>__<name>.snap`).
fn committed(name: &str) -> Option<String> {
    let suffix = format!("__{name}.snap");
    let mut found = std::fs::read_dir(snapshot_dir())
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(&suffix));
    let path = found.next()?;
    assert!(found.next().is_none(), "two snapshots named {name}");
    Some(snapshot_body(&std::fs::read_to_string(path).ok()?).to_string())
}

/// The name of the first module a Verilog text declares.
fn first_module(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|l| l.strip_prefix("module "))
        .and_then(|rest| rest.split([' ', '(', ';']).next())
}

/// Every committed snapshot that holds a generated module (not a testbench), by name.
fn module_snapshots() -> BTreeSet<String> {
    std::fs::read_dir(snapshot_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let name = file.strip_suffix(".snap")?.split_once("__")?.1.to_string();
            let text = std::fs::read_to_string(e.path()).ok()?;
            let top = first_module(snapshot_body(&text))?;
            (!top.starts_with("tb_") && !name.ends_with("_sv")).then_some(name)
        })
        .collect()
}

fn hash(kind: HashKind, n: u32, banks: u64, configurable: bool, pipeline: bool) -> Vec<Module> {
    let design = if configurable {
        HashDesign::new(
            &HashConfigObject::new(kind, n, banks),
            true,
            pipeline,
            false,
        )
        .unwrap()
    } else {
        common::design(kind, n, banks, false, pipeline)
    };
    of(&design)
}

/// The modules a block emits, top first (their header comments do not matter here).
fn of<B: Block>(block: &B) -> Vec<Module> {
    block.modules(&Header::new("rtl-gen test"))
}

/// The XOR paper's Figure 5 configuration (the snapshots' bit-vector XOR).
fn figure_5(configurable: bool, pipeline: bool) -> Vec<Module> {
    let object = HashConfigObject::from_json(
        r#"{"kind":"bitvector-xor","addr_bits":14,"banks":32,"k1":2,"k2":8,"mask":7}"#,
    )
    .unwrap();
    of(&HashDesign::new(&object, configurable, pipeline, false).unwrap())
}

fn rap(design: RapDesign) -> Vec<Module> {
    of(&design)
}

/// The RAP paper's Figure 6 permutation.
fn figure_6(loadable: bool, pipeline: bool) -> RapDesign {
    let perm = Permutation::new(4, &[2, 0, 3, 1]).unwrap();
    RapDesign::rap(&perm, loadable, pipeline).unwrap()
}

fn d2ma(unit: Unit, (ctas, buffers, segment): (u32, u32, u32), global: u32) -> Vec<Module> {
    let design = D2maDesign::new(unit, ctas, buffers, segment).unwrap();
    let design = if global == 64 {
        design
    } else {
        design.with_global_bits(global).unwrap()
    };
    of(&design)
}

/// The modules the current code emits for each snapshot (top first), by snapshot name: the
/// designs of `hash_snapshots.rs`, `rap_snapshots.rs` and `d2ma.rs`.
fn catalogue() -> Vec<(String, Vec<Module>)> {
    let mut all: Vec<(String, Vec<Module>)> = vec![
        ("fixed_bvxor_n14_b32_v".into(), figure_5(false, false)),
        ("cfg_pipe_bvxor_n14_b32_v".into(), figure_5(true, true)),
        (
            "cfg_bvxor_n14_b32_onehot_v".into(),
            of(&common::one_hot_bvxor()),
        ),
    ];
    for kind in [
        HashKind::BitvectorPerm,
        HashKind::BitwisePerm,
        HashKind::BitwiseXor,
        HashKind::XorMatrix,
    ] {
        let name = format!("cfg_{}_n14_b32_v", kind.tag());
        all.push((name, hash(kind, 14, 32, true, false)));
    }
    for kind in HashKind::ALL {
        let name = format!("fixed_{}_n6_b8_v", kind.tag());
        all.push((name, hash(kind, 6, 8, false, false)));
    }
    let tables =
        [[2, 0, 3, 1], [1, 3, 0, 2], [3, 2, 1, 0]].map(|t| Permutation::new(4, &t).unwrap());
    let r3 = Permutation::new(3, &[2, 0, 1]).unwrap();
    let wide = Permutation::new(4, &[3, 0, 2, 1]).unwrap();
    all.extend([
        ("rap_w4_v".into(), rap(figure_6(false, false))),
        ("rap_w4_load_pipe_v".into(), rap(figure_6(true, true))),
        (
            "rap_w6_load_v".into(),
            rap(RapDesign::from_seed(LayoutKind::Rap, 6, 1, true, false).unwrap()),
        ),
        (
            "ras_w3_v".into(),
            rap(RapDesign::ras(vec![1, 1, 0], false, false).unwrap()),
        ),
        (
            "rap_w4_load_packed_v".into(),
            rap(figure_6(true, false).with_packed().unwrap()),
        ),
        (
            "rap_w4_wide_v".into(),
            rap(RapDesign::rap_wide(&wide, false, false).unwrap()),
        ),
        (
            "rap3p_w4_v".into(),
            rap(RapDesign::three_p([&tables[0], &tables[1], &tables[2]], false, false).unwrap()),
        ),
        (
            "rap3p_w3_load_pipe_v".into(),
            rap(RapDesign::three_p([&r3, &r3, &r3], true, true).unwrap()),
        ),
        (
            "d2ma_raw_check_c2_b2".into(),
            d2ma(Unit::RawCheck, (2, 2, 128), 64),
        ),
        (
            "d2ma_controller_c1_b1".into(),
            d2ma(Unit::Controller, (1, 1, 128), 64),
        ),
        ("d2ma_agen_s32".into(), d2ma(Unit::Agen, (1, 1, 32), 64)),
        ("d2ma_agen_s32_g24".into(), d2ma(Unit::Agen, (1, 1, 32), 24)),
        (
            "d2ma_engine_c1_b1_s32".into(),
            d2ma(Unit::Engine, (1, 1, 32), 64),
        ),
        (
            "conflict_l4_bwxor_n6_b4".into(),
            of(&rtl_gen::conflict::ConflictDesign::new(
                4,
                &common::fixed_config(HashKind::BitwiseXor, 6, 4),
            )
            .unwrap()),
        ),
        (
            "d2ma_engine_c1_b1_s32_out2".into(),
            of(&D2maDesign::new(Unit::Engine, 1, 1, 32)
                .and_then(|d| d.with_max_in_flight(2))
                .unwrap()),
        ),
        (
            "d2ma_controller_c1_b1_cg".into(),
            of(&D2maDesign::new(Unit::Controller, 1, 1, 128)
                .unwrap()
                .with_storage(Storage::ClockGated)),
        ),
        (
            "d2ma_controller_c1_b1_lat".into(),
            of(&D2maDesign::new(Unit::Controller, 1, 1, 128)
                .unwrap()
                .with_storage(Storage::Latch)),
        ),
        (
            "d2ma_controller_c1_b1_g48_lat".into(),
            of(&D2maDesign::new(Unit::Controller, 1, 1, 128)
                .and_then(|d| d.with_global_bits(48))
                .unwrap()
                .with_storage(Storage::Latch)),
        ),
    ]);
    // The engine with its data path (`d2ma_system.rs`): 2 x 2, 32 B segments, 24-bit addresses.
    let design = D2maDesign::new(Unit::Engine, 2, 2, 32)
        .and_then(|d| d.with_global_bits(24))
        .unwrap();
    let data = DataPath {
        fill_words: 4,
        word_bytes: 4,
        addr_bits: 11,
        mshrs: 2,
    };
    // And with two tensor slots, latch storage (`d2ma_system.rs`'s `SMALL_LATCH`).
    let tensor = design
        .with_storage(Storage::Latch)
        .with_tensor_slots(2)
        .unwrap();
    for design in [design, tensor] {
        let (top, subs) =
            rtl_gen::d2ma::engine::build_with(&design, Some(&data), vec![], &|_| vec![]);
        let name = rtl_gen::d2ma::engine::data_name(&design, &data);
        all.push((
            name,
            std::iter::once(top).chain(subs.into_iter().rev()).collect(),
        ));
    }
    all
}

/// A design pinned one module a file (the shared memory: its top, its sub-modules, its
/// behavioural bank, the hasher or RAP converter inside): the snapshots whose texts, joined,
/// are its gold version, and the Verilog the code emits now for the same files.
struct Joined {
    /// The snapshot names, one a file.
    snapshots: Vec<String>,
    /// The module proved.
    top: String,
    /// Whether it has a clock (a clocked proof) or not (a miter).
    clocked: bool,
    /// Every file's text as the code emits it now, joined.
    gate: String,
}

/// The files of the shared memory `d` that `keep` selects (by file name): the whole memory,
/// or its map. The proof's top is the first file kept.
fn smem(d: &SmemDesign, keep: impl Fn(&str) -> bool) -> Joined {
    let header = Header::new("rtl-gen test");
    let modules = d.modules(&header);
    let files: Vec<(String, String, bool)> = modules
        .iter()
        .map(|m| (format!("{}.v", m.name()), emit(m), m.is_clocked()))
        .chain(
            d.verbatim_modules(&header)
                .into_iter()
                .map(|(file, text)| (file, text, true)),
        )
        .filter(|(file, _, _)| keep(file))
        .collect();
    let (first, _, clocked) = &files[0];
    Joined {
        snapshots: files.iter().map(|(f, _, _)| f.replace('.', "_")).collect(),
        top: first.trim_end_matches(".v").to_string(),
        clocked: *clocked,
        gate: files
            .iter()
            .map(|(_, t, _)| t.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The shared memories of `smem_snapshots.rs`: the two pinned whole (proved from their top,
/// every sub-module, the bank and the hasher inside), and the maps pinned with their hasher or
/// RAP converter (the loadable RAP map, and each shape and map CI co-simulates).
fn joined() -> Vec<Joined> {
    let whole = |d: SmemDesign| smem(&d, |_| true);
    let map = |d: SmemDesign| {
        let name = d.name();
        let own_map = format!("{name}_map.v");
        smem(&d, move |file| file == own_map || !file.starts_with(&name))
    };
    let mut all = vec![
        whole(common::smem((4, 4, 8, 4), "modulo", 1, None)),
        whole(common::smem(
            (4, 2, 8, 8),
            "bvxor-cfg",
            2,
            Some("sram_8x64"),
        )),
        map(common::smem((4, 4, 8, 4), "rap-load", 1, None)),
    ];
    for m in ["modulo", "xor", "bvxor-cfg", "rap"] {
        all.push(map(common::smem((32, 32, 32, 4), m, 1, None)));
    }
    all.push(map(common::smem((16, 16, 16, 4), "xormat-cfg", 1, None)));
    all.push(map(common::smem((32, 64, 64, 4), "rap", 1, None)));
    for (m, broadcast) in [("modulo", true), ("bvxor-cfg", false)] {
        all.push(whole(common::smem_vortex((4, 4, 8, 4), m, broadcast)));
    }
    all
}

/// Writes `text` to `dir/name` and returns the path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Proves the Verilog `gate` (all its modules in one text) the same circuit as `gold`.
fn prove(gold: &str, gate: &str, top: &str, clocked: bool) -> Result<(), synth::Error> {
    let dir = tempfile::tempdir().unwrap();
    let method = if clocked {
        EquivMethod::Induction { seq: SEQ }
    } else {
        EquivMethod::Miter
    };
    prove_equivalent(
        &[write(dir.path(), "gold.v", gold)],
        &[write(dir.path(), "gate.v", gate)],
        top,
        method,
    )
}

#[test]
fn every_snapshot_module_is_the_circuit_the_code_emits() {
    let catalogue = catalogue();
    let joined = joined();
    let covered: BTreeSet<String> = catalogue
        .iter()
        .map(|(n, _)| n.clone())
        .chain(joined.iter().flat_map(|j| j.snapshots.iter().cloned()))
        .collect();
    let missing: Vec<_> = module_snapshots().difference(&covered).cloned().collect();
    assert!(
        missing.is_empty(),
        "snapshots of modules with no entry in catalogue(): {missing:?}"
    );
    let failures: Vec<String> = catalogue
        .par_iter()
        .filter_map(|(name, modules)| {
            let Some(gold) = committed(name) else {
                return Some(format!("{name}: no committed snapshot to compare against"));
            };
            let top = &modules[0];
            let gate: Vec<String> = modules.iter().map(emit).collect();
            if modules.iter().any(|m| !m.latches().is_empty()) {
                // Yosys' equiv passes prove flip-flop circuits, not latches: a module with
                // latches must keep its committed text exactly (any change is a circuit
                // change to name in the commit message). The snapshot is the written file: the
                // `timescale directive the block adds after the header is not the module's, and
                // blank lines between modules depend on how a test joined its files.
                let text_lines = |text: &str| -> Vec<String> {
                    text.lines()
                        .filter(|l| !l.starts_with("`timescale") && !l.trim().is_empty())
                        .map(str::to_string)
                        .collect()
                };
                let same = text_lines(snapshot_body(&gold)) == text_lines(&gate.join("\n"));
                return (!same).then(|| format!("{name}: latch module text changed"));
            }
            prove(&gold, &gate.join("\n"), top.name(), top.is_clocked())
                .err()
                .map(|e| format!("{name}: {e}"))
        })
        .collect();
    let joined_failures: Vec<String> = joined
        .par_iter()
        .filter_map(|j| {
            let gold: Option<Vec<String>> = j.snapshots.iter().map(|n| committed(n)).collect();
            let Some(gold) = gold else {
                return Some(format!("{}: a snapshot is not committed", j.top));
            };
            prove(&gold.join("\n"), &j.gate, &j.top, j.clocked)
                .err()
                .map(|e| format!("{}: {e}", j.top))
        })
        .collect();
    let failures: Vec<String> = failures.into_iter().chain(joined_failures).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The committed snapshot `name` and its top module.
fn gold(name: &str) -> (String, String) {
    let text = committed(name).unwrap_or_else(|| panic!("no snapshot {name}"));
    let top = first_module(&text).unwrap().to_string();
    (text, top)
}

/// `text` with `from` replaced by `to` exactly once.
fn changed(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} is not unique");
    text.replacen(from, to, 1)
}

#[test]
fn a_rewritten_but_equal_circuit_is_proved() {
    // Operands swapped and an internal wire renamed: different text, the same circuit.
    let (text, top) = gold("fixed_bvxor_n14_b32_v");
    let swapped = changed(
        &text,
        "assign bank_o[0] = addr_i[2] ^ addr_i[8];",
        "assign bank_o[0] = addr_i[8] ^ addr_i[2];",
    );
    prove(&text, &swapped, &top, false).unwrap();
    let (text, top) = gold("cfg_pipe_bvxor_n14_b32_v");
    let renamed = text.replace("vec_k2", "second_vector");
    prove(&text, &renamed, &top, true).unwrap();
}

#[test]
fn a_dropped_xor_term_is_caught() {
    let (text, top) = gold("fixed_bvxor_n14_b32_v");
    let dropped = changed(
        &text,
        "assign bank_o[0] = addr_i[2] ^ addr_i[8];",
        "assign bank_o[0] = addr_i[2];",
    );
    let e = prove(&text, &dropped, &top, false).unwrap_err().to_string();
    assert!(e.contains("not proved equivalent"), "{e}");
    assert!(
        e.contains("in_addr_i"),
        "the counterexample names the input: {e}"
    );
}

#[test]
fn a_changed_reset_value_is_caught() {
    let (text, top) = gold("cfg_pipe_bvxor_n14_b32_v");
    let reset = changed(&text, "bank_q <= 5'h00;", "bank_q <= 5'h01;");
    let e = prove(&text, &reset, &top, true).unwrap_err().to_string();
    assert!(e.contains("Unproven $equiv"), "{e}");
    assert!(e.contains("bank_q"), "the unproven register is named: {e}");
}

#[test]
fn a_changed_sub_module_of_the_engine_is_caught() {
    // The guard end's saturation value in the controller, a sub-module of the engine.
    let (text, top) = gold("d2ma_engine_c1_b1_s32");
    assert_ne!(first_module(&text), Some("d2ma_controller_c1_b1"));
    let saturated = changed(
        &text,
        "span_end_full) ? 17'h10000 :",
        "span_end_full) ? 17'h0ffff :",
    );
    let e = prove(&text, &saturated, &top, true)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Unproven $equiv"), "{e}");
}

#[test]
fn a_changed_grant_inside_a_shared_memory_is_caught() {
    // The 4 x 4 memory proved from its joined snapshots, its grant stage without broadcast (no
    // lane follows a leader): a sub-module's change shows at the memory's outputs.
    let whole = joined()
        .into_iter()
        .find(|j| j.top == "smem_l4_b4_d8")
        .unwrap();
    let gold: Vec<String> = whole
        .snapshots
        .iter()
        .map(|n| committed(n).unwrap())
        .collect();
    let broken = changed(
        &whole.gate,
        "assign served_o = pending_i & (leader | follows);",
        "assign served_o = pending_i & leader;",
    );
    let e = prove(&gold.join("\n"), &broken, &whole.top, true)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Unproven $equiv"), "{e}");
}
