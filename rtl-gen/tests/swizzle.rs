//! `rtl-gen swizzle` and `rtl-gen cuda swizzle`: the reports, their errors, the files `--out`
//! writes, and the hardware: the hasher generated from a TMA mode or an imported layout gives,
//! in co-simulation, the bank the layout's own formula gives for every offset of a 64 x 64 tile.

mod common;

use common::{assert_schema, assert_schema_file, rtl_gen, stderr};
use models::swizzle::export::hash_config;
use models::swizzle::{Layout, Tile, TileShape};
use models::{HashConfig, HashConfigObject};
use rtl_gen::block;
use rtl_gen::hash::vectors::VectorPlan;
use rtl_gen::hash::HashDesign;
use std::path::Path;
use std::process::{Command, Output};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The one JSON document `rtl-gen swizzle ... --json` prints.
fn document(dir: &Path, args: &[&str]) -> serde_json::Value {
    let o = rtl_gen(dir, &[args, &["--json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).unwrap()
}

fn tile64(eb: u32) -> Tile {
    Tile::new(TileShape { rows: 64, cols: 64 }, eb).unwrap()
}

#[test]
fn show_check_and_best_answer_in_text_and_one_json_document() {
    let tmp = tempfile::tempdir().unwrap();
    let show = rtl_gen(
        tmp.path(),
        &[
            "swizzle",
            "show",
            "--layout",
            "cute:Swizzle<3,4,3>",
            "--elem-bytes",
            "2",
            "--tile",
            "64x64",
        ],
    );
    assert!(show.status.success());
    let text = stdout(&show);
    assert!(text.contains("layout: tma:128B"), "{text}");
    assert!(text.contains("cute-elem:Swizzle<3,3,3>"), "{text}");
    assert!(text.contains("   4 <- 7 ^ 4   bank bit 2"), "{text}");
    // Row 1 (bytes 128..255) starts in the second 16-byte chunk: banks 4..7.
    assert!(
        text.contains("  row  1:  4  4  5  5  6  6  7  7  0  0"),
        "{text}"
    );

    let doc = document(
        tmp.path(),
        &[
            "swizzle",
            "check",
            "--layout",
            "none",
            "--elem-bytes",
            "2",
            "--tile",
            "64x64",
            "--access",
            "rows,cols,ldmatrix",
        ],
    );
    assert_eq!(doc["format_version"], 1);
    let accesses = doc["accesses"].as_array().unwrap();
    assert_eq!(accesses.len(), 3);
    // A column of 128-byte rows, 16-byte vectors: every quarter-warp in one bank quad, 8 passes.
    assert_eq!(accesses[1]["name"], "cols@16");
    assert_eq!(accesses[1]["load_wavefronts"], 16 * 32);
    assert_eq!(accesses[0]["conflict_free"], true);
    assert_eq!(doc["conflict_free"], false);

    let doc = document(
        tmp.path(),
        &[
            "swizzle",
            "best",
            "--elem-bytes",
            "2",
            "--tile",
            "64x64",
            "--access",
            "rows,cols",
        ],
    );
    assert_eq!(doc["verdict"]["kind"], "conflict-free");
    assert_eq!(doc["total_wavefronts"], doc["ideal_wavefronts"]);
    assert_eq!(doc["layout"]["forms"][0], "tma:128B");
}

#[test]
fn bad_values_exit_2_with_one_line_naming_them() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["show", "--layout", "cute:Swizzle<3,4,2>"],
            "--layout cute:Swizzle<3,4,2>: expected Swizzle<B,M,S>",
        ),
        (
            &["show", "--layout", "tma:64B", "--tile", "64x16"],
            "rows of 32 bytes leave gaps",
        ),
        (
            &["show", "--layout", "spiral"],
            "not a layout: allowed none, cute:",
        ),
        (
            &["show", "--layout", "none", "--tile", "4x4"],
            "--tile 4x4: a 4x4 tile of 2-byte elements holds 32 bytes",
        ),
        (
            &[
                "check",
                "--layout",
                "triton:swizzled_shared<vec=2,perPhase=1,maxPhase=8,order=1,0>",
                "--access",
                "rows",
            ],
            "keeps only 4 bytes together, so rows@16 would split",
        ),
        (&["show", "--layout", "config:missing.json"], "missing.json"),
        (
            &["best", "--access", "ldmatrix", "--tile", "8x64"],
            "--access ldmatrix: ldmatrix reads 16-row x 32-byte blocks",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["swizzle"];
        all.extend_from_slice(args);
        let o = rtl_gen(tmp.path(), &all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    }
    // clap refuses values outside the enumerations, naming the flag and the value.
    let o = rtl_gen(
        tmp.path(),
        &["swizzle", "check", "--layout", "none", "--vec-bytes", "12"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid value '12' for '--vec-bytes"));
    assert!(
        std::fs::read_dir(tmp.path()).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn out_folder_feeds_rtl_gen_hash_and_a_cuda_header() {
    let tmp = tempfile::tempdir().unwrap();
    let o = rtl_gen(
        tmp.path(),
        &[
            "swizzle",
            "best",
            "--elem-bytes",
            "2",
            "--tile",
            "32x128",
            "--access",
            "ldmatrix",
            "--out",
            "out/best",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = tmp.path().join("out/best");
    // A folder rtl-gen did not write is not replaced.
    std::fs::create_dir(tmp.path().join("mine")).unwrap();
    std::fs::write(tmp.path().join("mine/notes.txt"), "keep").unwrap();
    let refused = rtl_gen(
        tmp.path(),
        &["swizzle", "show", "--layout", "none", "--out", "mine"],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("mine/notes.txt")).unwrap(),
        "keep"
    );
    assert_eq!(
        std::fs::read_dir(tmp.path().join("mine")).unwrap().count(),
        1
    );
    for f in [
        "best.json",
        "swizzle.h",
        "report.json",
        "banks.svg",
        "wavefronts.svg",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    assert_schema_file("swizzle.schema.json", &dir.join("report.json"));
    assert_schema_file("hash-config.schema.json", &dir.join("best.json"));
    let h = rtl_gen(
        tmp.path(),
        &["hash", "--config", "out/best/best.json", "--out", "out/hw"],
    );
    assert!(h.status.success(), "{}", stderr(&h));
    // The imported layout round-trips through its configuration file.
    let doc = document(
        tmp.path(),
        &[
            "swizzle",
            "check",
            "--layout",
            "config:out/best/best.json",
            "--tile",
            "32x128",
            "--access",
            "ldmatrix",
        ],
    );
    assert_eq!(doc["conflict_free"], true);
    assert_schema("swizzle.schema.json", &doc);
    let header = rtl_gen(
        tmp.path(),
        &[
            "cuda",
            "swizzle",
            "--layout",
            "triton:swizzled_shared<vec=2,perPhase=1,maxPhase=8,order=0,1>",
            "--name",
            "t",
        ],
    );
    let text = stdout(&header);
    assert!(
        text.contains("__device__ __forceinline__ unsigned int t_offset(unsigned int x)"),
        "{text}"
    );
    assert!(
        text.contains("__popc"),
        "a general matrix is written as parities: {text}"
    );
}

/// A layout's bank of each element, from somewhere other than the models' map.
type Oracle = Box<dyn Fn(u64) -> u64>;

/// The banks of a layout computed from its own published formula, not through the models' map.
fn formula_bank(layout: &str, e: u64) -> u64 {
    let (r, c) = (e / 64, e % 64); // 64 x 64 halves: rows of 128 bytes
    let byte = match layout {
        "tma:32B" | "tma:64B" | "tma:128B" => {
            let span: u64 = layout[4..layout.len() - 1].parse().unwrap();
            let b = c * 2;
            // Boxes of `span`-byte columns one after another, rows `span` bytes apart.
            let pre = (b / span) * (64 * span) + r * span + b % span;
            pre ^ (((pre >> 7) & (span / 16 - 1)) << 4)
        }
        // Triton: column ((c / vec) ^ ((r / perPhase) % maxPhase)) * vec + c % vec.
        "triton" => (r * 64 + ((c / 8) ^ ((r / 2) % 4)) * 8 + c % 8) * 2,
        // CuTe Swizzle<2,3,3> on element offsets: e ^ ((e & 0b11 << 6) >> 3).
        "cute" => (e ^ ((e & (0b11 << 6)) >> 3)) * 2,
        _ => unreachable!(),
    };
    (byte >> 2) & 31
}

/// TMA's three modes and imported CuTe and Triton layouts are `xor-matrix` configurations whose
/// generated hashers, co-simulated under Icarus Verilog on every address, give each element of
/// a 64 x 64 tile of halves the bank of the layout's formula; so does a configuration imported
/// with `config:`.
#[test]
fn generated_hashers_give_the_layouts_banks_for_every_offset() {
    let tmp = tempfile::tempdir().unwrap();
    let tile = tile64(2);
    let layouts = [
        ("tma:32B", "tma:32B"),
        ("tma:64B", "tma:64B"),
        ("tma:128B", "tma:128B"),
        (
            "triton",
            "triton:swizzled_shared<vec=8,perPhase=2,maxPhase=4,order=1,0>",
        ),
        ("cute", "cute-elem:Swizzle<2,3,3>"),
    ];
    let mut configs: Vec<(String, HashConfig, Oracle)> = Vec::new();
    for (formula, text) in layouts {
        let map = text.parse::<Layout>().unwrap().to_map(&tile).unwrap();
        configs.push((
            text.to_string(),
            hash_config(&map, &tile),
            Box::new(move |e| formula_bank(formula, e)),
        ));
    }
    // A configuration from elsewhere (a search's best.json, say), imported as a layout.
    let object = HashConfigObject::from_json(
        r#"{"kind":"xor-matrix","addr_bits":12,"banks":32,"rows":["0x83","0x106","0x20c","0x418","0x830"]}"#,
    )
    .unwrap();
    let imported = object.validate().unwrap().1.unwrap();
    let map = Layout::Hash(imported.clone()).to_map(&tile).unwrap();
    let oracle = imported.clone();
    configs.push((
        "config".into(),
        hash_config(&map, &tile),
        Box::new(move |e| oracle.bank(e)),
    ));
    for (name, config, formula) in &configs {
        for e in 0..tile.elements() {
            assert_eq!(config.bank(e), formula(e), "{name}: element {e}");
        }
        let design =
            HashDesign::new(&HashConfigObject::from_config(config), false, false, false).unwrap();
        let dir =
            block::write(&design, &VectorPlan::default(), "rtl-gen test", tmp.path()).unwrap();
        let (manifest, report) = rtl_gen::cosim::run(&dir, "iverilog").unwrap();
        assert_eq!(report.failed, 0, "{name}: {:?}", report.mismatches);
        assert_eq!(report.passed, 4096, "{name}: every offset of the tile");
        assert_eq!(manifest.configuration["kind"], "xor-matrix");
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// The header's `_offset`, compiled by the host compiler, is the layout's map at every offset.
#[test]
fn swizzle_headers_compute_the_map() {
    if Command::new("c++").arg("--version").output().is_err() {
        println!("note: no host C++ compiler (c++) on the PATH: header semantics not checked");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let tile = tile64(2);
    let mut main = String::from("#include <cstdio>\n");
    let mut body = String::new();
    let mut expected = String::new();
    for (i, text) in ["tma:64B", "cute:Swizzle<3,4,3>", "none"]
        .iter()
        .enumerate()
    {
        let map = text.parse::<Layout>().unwrap().to_map(&tile).unwrap();
        let name = format!("s{i}");
        let h = rtl_gen::swizzle::header::swizzle_header(&map, &tile, &name, "test");
        std::fs::write(tmp.path().join(format!("{name}.h")), h).unwrap();
        main.push_str(&format!("#include \"{name}.h\"\n"));
        body.push_str(&format!(
            "    for (unsigned x = 0; x < 8192u; ++x) std::printf(\"%u\\n\", {name}_offset(x));\n"
        ));
        expected.extend((0..8192).map(|x| format!("{}\n", map.apply(x))));
    }
    main.push_str(&format!("int main()\n{{\n{body}    return 0;\n}}\n"));
    std::fs::write(tmp.path().join("main.cpp"), main).unwrap();
    let built = Command::new("c++")
        .args([
            "-std=c++11",
            "-Wall",
            "-Werror",
            "-D__device__=",
            "-D__forceinline__=inline",
        ])
        .args(["-D__popc=__builtin_popcount", "-o", "main", "main.cpp"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = Command::new(tmp.path().join("main")).output().unwrap();
    assert!(
        stdout(&run) == expected,
        "host-compiled headers disagree with the maps"
    );
}

/// The headers' text: a CuTe-expressible layout in CuTe's own form, any other as parities.
#[test]
fn swizzle_headers_match_their_snapshots() {
    let tile = tile64(2);
    for (name, text) in [
        ("swizzle_tma128", "tma:128B"),
        (
            "swizzle_triton_cm",
            "triton:swizzled_shared<vec=8,perPhase=1,maxPhase=8,order=0,1>",
        ),
    ] {
        let map = text.parse::<Layout>().unwrap().to_map(&tile).unwrap();
        let h = rtl_gen::swizzle::header::swizzle_header(
            &map,
            &tile,
            name,
            "rtl-gen cuda swizzle (test)",
        );
        insta::assert_snapshot!(name, h);
    }
}
