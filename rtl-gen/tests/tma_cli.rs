//! `rtl-gen tma` on the command line: a bad tensor map or load refused in one line naming the
//! key (exit status 2), a load's image checked against bytes worked out by hand, `--json`, and
//! the replay of the stored H100 dumps, which fails when one byte of a dump is changed.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output};

fn tma(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .arg("tma")
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// 100 x 40 halves, rows 256 bytes apart, a 64 x 8 box with element stride 2 in dimension 1,
/// the 128-byte swizzle and NaN fill.
const MAP: &str = r#"{"data_type": "f16", "global_dim": [100, 40], "global_strides": [256],
 "box_dim": [64, 8], "element_strides": [1, 2], "swizzle": "128B", "oob_fill": "nan"}"#;

#[test]
fn bad_maps_and_loads_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            MAP.replace("[64, 8]", "[72, 8]"),
            "box_dim[0] = 72 is out of range: allowed at most 64 elements under swizzle 128B",
        ),
        (
            MAP.replace("[256]", "[200]"),
            "global_strides[0] = 200 is out of range: allowed a multiple of 16 bytes",
        ),
        (
            MAP.replace("f16", "u16"),
            "oob_fill = nan is out of range: allowed none for the integer type u16",
        ),
        (MAP.replace("f16", "f8"), "data_type `f8` is unknown"),
        (
            MAP.replace("\"swizzle\"", "\"swizle\""),
            "unknown field `swizle`",
        ),
    ];
    for (k, (json, expected)) in cases.iter().enumerate() {
        let path = tmp.path().join(format!("map{k}.json"));
        std::fs::write(&path, json).unwrap();
        let o = tma(&["check", "--map", path.to_str().unwrap()]);
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(expected), "{e}");
    }
    let map = tmp.path().join("map.json");
    std::fs::write(&map, MAP).unwrap();
    let map = map.to_str().unwrap();
    for (args, expected) in [
        (
            &["--coords", "-3,0"][..],
            "coords[0] = -3 is out of range: allowed a multiple of 8",
        ),
        (
            &["--coords", "0"],
            "--coords 1 entries: out of range: allowed 2",
        ),
        (
            &["--coords", "0,0", "--shared-address", "0x40"],
            "0x40: out of range: allowed a multiple of 128",
        ),
        (&["--coords", "0,0", "--data", "seed:x"], "seed:x"),
    ] {
        let o = tma(&[&["load", "--map", map], args].concat());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(expected), "{e}");
    }
}

/// At (-8, 3): row 0 is tensor row 3 from x = -8, so its chunk 0 is NaN fill (0x7ff7) and
/// chunk 1 holds elements 3 x 128 + 0..7 (the `index` data: element n holds n); row 1 is tensor
/// row 5 (element stride 2) and the 128-byte swizzle swaps its chunks 0 and 1.
#[test]
fn a_load_prints_the_image_worked_out_by_hand() {
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("map.json");
    std::fs::write(&map, MAP).unwrap();
    let map = map.to_str().unwrap();
    let o = tma(&["load", "--map", map, "--coords", "-8,3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("f16, rank 2, box 64 x 8 (64 x 4 elements loaded)"),
        "{out}"
    );
    let line = |addr: &str| {
        out.lines()
            .find(|l| l.starts_with(addr))
            .unwrap_or_else(|| panic!("{addr}: {out}"))
            .to_string()
    };
    assert_eq!(
        line("0x00000"),
        format!("0x00000  {}", ["f7 7f"; 8].join(" "))
    );
    assert_eq!(
        line("0x00010"),
        "0x00010  80 01 81 01 82 01 83 01 84 01 85 01 86 01 87 01"
    );
    assert_eq!(
        line("0x00080"),
        "0x00080  80 02 81 02 82 02 83 02 84 02 85 02 86 02 87 02"
    );
    assert_eq!(
        line("0x00090"),
        format!("0x00090  {}", ["f7 7f"; 8].join(" "))
    );
    // --json: the same bytes, the box and the walk.
    let o = tma(&["load", "--map", map, "--coords", "-8,3", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["box"]["transaction_bytes"], 512);
    assert_eq!(doc["image"]["bytes"][16], 0x80);
    assert_eq!(doc["chunks"].as_array().unwrap().len(), 32);
    assert_eq!(doc["chunks"][8]["shared"], 0x90);
    assert_eq!(doc["chunks"][8]["in_bounds"], 0);
}

fn gunzip(path: &Path) -> String {
    let mut s = String::new();
    flate2::read::GzDecoder::new(&std::fs::read(path).unwrap()[..])
        .read_to_string(&mut s)
        .unwrap();
    s
}

/// The stored dumps replay with exit status 0; the same file with one dump byte changed fails
/// with exit status 1 and names the case.
#[test]
fn replay_passes_on_the_stored_dumps_and_fails_on_a_changed_byte() {
    let stored = root().join("gpu/results/tma_h100c.txt.gz");
    let o = tma(&["replay", stored.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("646 / 646 loads match"), "{out}");
    assert!(
        out.contains("the driver and the model agree on 139 / 139"),
        "{out}"
    );
    // Case 5's dump, its 40th hex digit flipped.
    let mut lines: Vec<String> = gunzip(&stored).lines().map(str::to_string).collect();
    let line = lines.iter_mut().find(|l| l.starts_with("load 5 ")).unwrap();
    let at = line.rfind(' ').unwrap() + 40;
    let digit = if &line[at..=at] == "0" { "1" } else { "0" };
    line.replace_range(at..=at, digit);
    let tmp = tempfile::tempdir().unwrap();
    let changed = tmp.path().join("changed.txt");
    let mut f = std::fs::File::create(&changed).unwrap();
    writeln!(f, "{}", lines.join("\n")).unwrap();
    let o = tma(&["replay", changed.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["all_match"], false);
    assert_eq!(doc["failures"][0]["id"], 5);
    assert_eq!(doc["files"][0]["matched"], 645);
}
