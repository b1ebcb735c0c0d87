//! The tensor-map model against an H100 (gpu/tma_run.sh, docs/TMA.md): every stored dump and
//! every encode probe of gpu/results/tma_*.txt.gz replayed through `models::tma`, without a GPU.

use flate2::read::GzDecoder;
use models::tma::silicon::{parse, replay, Record, Report, Tally};
use std::io::Read;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn records(name: &str) -> Vec<Record> {
    let path = root().join("gpu/results").join(format!("{name}.txt.gz"));
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    GzDecoder::new(&raw[..]).read_to_string(&mut text).unwrap();
    parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn rows<'a>(r: &'a Report, group: &str) -> Vec<(&'a str, Tally)> {
    r.rows
        .iter()
        .filter(|(g, _, _)| g == group)
        .map(|(_, v, t)| (v.as_str(), *t))
        .collect()
}

fn trapped(r: &Report) -> usize {
    r.rows
        .iter()
        .filter(|(g, _, _)| g.starts_with("refused by the model"))
        .map(|(_, _, t)| t.total)
        .sum()
}

/// The three random sets: every load's every byte is the model's, and each set's loads the
/// model refuses (shared offsets off 128 bytes, a first coordinate off 16 bytes) trapped.
#[test]
fn every_stored_h100_load_is_the_models() {
    let mut all = 0;
    let mut seen: Vec<(String, String)> = Vec::new();
    for (name, loads) in [("tma_h100", 640), ("tma_h100b", 640), ("tma_h100c", 646)] {
        let r = replay(&records(name));
        assert_eq!(r.failures, vec![], "{name}");
        assert_eq!(
            r.total(),
            Tally {
                matched: loads,
                total: loads
            },
            "{name}"
        );
        assert_eq!(trapped(&r), 12, "{name}");
        all += loads;
        seen.extend(r.rows.iter().map(|(g, v, _)| (g.clone(), v.clone())));
    }
    assert!(all >= 500);
    // What the issue asks the cases to cover, each at least once.
    let covers = |group: &str, value: &str| {
        assert!(
            seen.contains(&(group.to_string(), value.to_string())),
            "no case with {group} {value}"
        )
    };
    for s in ["none", "32B", "64B", "128B"] {
        covers("swizzle", s);
    }
    for b in ["1", "2", "4", "8"] {
        covers("element bytes", b);
    }
    for k in 1..=5 {
        covers("rank", &k.to_string());
    }
    for f in ["none", "nan"] {
        covers("oob fill", f);
    }
    for s in ["inside", "edge", "corner", "outside"] {
        covers("oob shape", s);
    }
    for d in 0..5 {
        covers("box crosses or lies past", &format!("dim {d} low end"));
        covers("box crosses or lies past", &format!("dim {d} high end"));
    }
    covers("element stride > 1", "dim 0 (ignored)");
    covers("element stride > 1", "dims 1-4");
}

/// The first run, before the model knew that a box must start on a 16-byte boundary of
/// dimension 0: the 26 loads that did all match; the 82 that did not all trapped.
#[test]
fn the_first_runs_loads_match_and_its_unaligned_starts_trapped() {
    let r = replay(&records("tma_h100_first"));
    assert_eq!(r.failures, vec![]);
    assert_eq!(r.total().matched, 26);
    assert_eq!(
        rows(&r, "refused by the model, trapped on the H100"),
        [(
            "coords[0]",
            Tally {
                matched: 82,
                total: 82
            }
        )]
    );
}

/// Every encode probe (each documented rule's limit, just inside and just outside, the cases
/// the documentation leaves open, and the box sizes around the driver's limit): the driver
/// accepts exactly the descriptors the model accepts.
#[test]
fn the_driver_refuses_exactly_what_the_model_refuses() {
    let mut probes = 0;
    for name in ["tma_h100", "tma_h100b", "tma_h100c", "tma_limits"] {
        let r = replay(&records(name));
        let disagree: Vec<String> = r
            .probes
            .iter()
            .filter(|(_, _, rc, model)| (*rc == 0) != model.is_none())
            .map(|(id, _, rc, model)| format!("{name} probe {id}: driver {rc}, model {model:?}"))
            .collect();
        assert_eq!(disagree, Vec::<String>::new());
        probes += r.probes.len();
    }
    assert_eq!(probes, 54 + 54 + 139 + 56);
}

/// The case files in gpu/gen are the ones the stored results ran.
#[test]
fn the_case_files_are_the_ones_run() {
    for name in ["h100", "h100b", "h100c", "limits"] {
        let cases =
            std::fs::read_to_string(root().join(format!("gpu/gen/tma_cases_{name}.txt"))).unwrap();
        let cases: Vec<&str> = cases.lines().filter(|l| !l.starts_with('#')).collect();
        let path = root().join(format!("gpu/results/tma_{name}.txt.gz"));
        let mut text = String::new();
        GzDecoder::new(&std::fs::read(&path).unwrap()[..])
            .read_to_string(&mut text)
            .unwrap();
        let run: Vec<&str> = text
            .lines()
            .map(|l| l.split(" : ").next().unwrap())
            .collect();
        assert_eq!(cases, run, "{name}");
    }
}
