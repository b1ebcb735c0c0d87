//! The swizzle models against an H100: writes the warp accesses `gpu/swizzle_probe` replays
//! under Nsight Compute, then turns what `gpu/swizzle_run.sh` measured into docs/gpu/ tables.
//!
//! ```text
//! cargo run --release -p rtl-gen --example gpu_swizzle -- patterns gpu/gen
//! cargo run --release -p rtl-gen --example gpu_swizzle -- report gpu/results docs/gpu
//! ```
//!
//! Two kinds of launches: **rule** probes (one warp access of 16-byte vectors or `ldmatrix`
//! rows, designed or drawn at random from small pools so that broadcasts, merges and conflicts
//! all occur; the random ones in a *fit* half that the rule was read from and a *holdout* half
//! it was checked on), and **pairs** (every warp access of one access set over one layout of a
//! tile, in one launch).

use models::swizzle::wavefront::{set_cost, warp_wavefronts, Instruction};
use models::swizzle::{AccessKind, AccessSet, Layout, Tile, TileShape};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// Bytes of the probe's shared array.
const PROBE_BYTES: u64 = 32768;

/// One launch: `accesses` warp accesses (32 physical byte offsets each) by `op`.
struct Probe {
    id: String,
    family: &'static str,
    /// `v4`, `v8`, `v16` (ld.shared + st.shared), `ldsm` or `ldsmt` (ldmatrix.x4[.trans]).
    op: &'static str,
    /// For pairs: the tile, the layout and the access set.
    pair: Option<(String, String, String)>,
    accesses: Vec<Vec<u64>>,
    /// For pairs: the least wavefronts any layout gives the accesses (loads, stores).
    ideal: (u64, u64),
}

fn width_of(op: &str) -> u32 {
    match op {
        "v4" => 4,
        "v8" => 8,
        _ => 16,
    }
}

fn instruction(op: &str) -> Instruction {
    if op.starts_with("ldsm") {
        Instruction::Ldmatrix
    } else {
        Instruction::Load
    }
}

/// Designed single accesses in 16-byte vector indices (quad = index mod 8 in the plain layout).
fn designed() -> Vec<(&'static str, Vec<u64>)> {
    let t = |f: &dyn Fn(u64) -> u64| (0..32).map(f).collect::<Vec<u64>>();
    vec![
        ("linear", t(&|t| t)),
        ("all-one-vector", t(&|_| 5)),
        ("quarters-identical", t(&|t| t % 8)),
        ("halves-identical", t(&|t| t % 16)),
        ("quarters-0-2-and-1-3", t(&|t| (t / 8 % 2) * 8 + t % 8)),
        ("halves-share-quads", t(&|t| (t / 16) * 8 + t % 8)),
        ("four-threads-a-vector", t(&|t| t / 4)),
        ("eight-threads-a-vector", t(&|t| t / 8)),
        ("quarter-vectors-one-quad", t(&|t| (t / 8) * 8)),
        ("column", t(&|t| t * 8)),
        (
            "column-first-quarter",
            t(&|t| if t < 8 { t * 8 } else { t }),
        ),
        ("quarter-one-quad-each", t(&|t| (t % 8) * 8 + t / 8)),
        (
            "two-way-in-quarters",
            t(&|t| (t % 4) + 8 * (t % 8 / 4) + 16 * (t / 8)),
        ),
        ("pairs-share-quads", t(&|t| t % 4 + 8 * (t / 4))),
        (
            "quarter-0-and-3-identical",
            t(&|t| if t >= 24 { t - 24 } else { t }),
        ),
        ("two-quads-per-half", t(&|t| (t % 2) + 8 * (t / 2))),
    ]
}

/// Random accesses: threads draw from a pool of `k` vectors, the pool from `span` vectors.
fn random_access(seed: u64) -> (String, Vec<u64>) {
    let pools = [1u64, 2, 3, 4, 6, 8, 12, 16, 24, 32];
    let spans = [16u64, 64, 2048];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let k = pools[seed as usize % pools.len()];
    let span = spans[(seed as usize / pools.len()) % spans.len()];
    let pool: Vec<u64> = (0..k).map(|_| rng.gen_range(0..span)).collect();
    let access = (0..32)
        .map(|_| pool[rng.gen_range(0..k as usize)])
        .collect();
    (format!("seed{seed}-pool{k}-span{span}"), access)
}

/// Accesses that test the pair rule where it differs from its alternatives, drawn after the
/// rule was read from the `designed`, `fit` and `holdout` probes (their predictions are
/// committed before they ran): random vectors shared by neighbouring threads in pairs (conflicts
/// inside the merged groups), pairs shared in one half-warp only, pairs shifted by one thread,
/// and pairs all shared but one.
fn validation() -> Vec<(String, Vec<u64>)> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let spans = [8u64, 16, 64, 2048];
    for i in 0..20 {
        let span = spans[i % spans.len()];
        let pairs: Vec<u64> = (0..16).map(|_| rng.gen_range(0..span)).collect();
        out.push((
            format!("paired{i}-span{span}"),
            (0..32).map(|t| pairs[t / 2]).collect(),
        ));
    }
    for i in 0..6 {
        let span = spans[i % spans.len()];
        let pairs: Vec<u64> = (0..8).map(|_| rng.gen_range(0..span)).collect();
        let mut v: Vec<u64> = (0..16).map(|t| pairs[t / 2]).collect();
        v.extend((0..16).map(|_| rng.gen_range(0..span)));
        out.push((format!("paired-first-half{i}-span{span}"), v));
    }
    for i in 0..4 {
        let span = spans[i % spans.len()];
        let pairs: Vec<u64> = (0..17).map(|_| rng.gen_range(0..span)).collect();
        out.push((
            format!("shifted-pairs{i}-span{span}"),
            (0..32usize).map(|t| pairs[t.div_ceil(2)]).collect(),
        ));
    }
    for i in 0..4 {
        let span = spans[i % spans.len()];
        let pairs: Vec<u64> = (0..16).map(|_| rng.gen_range(0..span)).collect();
        let mut v: Vec<u64> = (0..32).map(|t| pairs[t / 2]).collect();
        let odd = rng.gen_range(0..16) * 2 + 1;
        v[odd] = (v[odd] + 1) % span;
        out.push((format!("paired-but-one{i}-span{span}"), v));
    }
    out
}

fn rule_probes() -> Vec<Probe> {
    let mut out = Vec::new();
    let mut add = |family: &'static str, name: &str, vectors: &[u64], ops: &[&'static str]| {
        for &op in ops {
            let width = u64::from(width_of(op));
            out.push(Probe {
                id: format!("{family}-{op}-{name}"),
                family,
                op,
                pair: None,
                accesses: vec![vectors.iter().map(|v| v * width).collect()],
                ideal: (0, 0),
            });
        }
    };
    for (name, v) in designed() {
        add("designed", name, &v, &["v16", "ldsm"]);
    }
    for seed in 0..30 {
        let (name, v) = random_access(seed);
        add("fit", &name, &v, &["v16", "ldsm", "v8"]);
    }
    for seed in 100..130 {
        let (name, v) = random_access(seed);
        add("holdout", &name, &v, &["v16", "ldsm", "v8"]);
    }
    for (name, v) in validation() {
        add("validation", &name, &v, &["v16", "ldsm", "v8"]);
    }
    out
}

/// The tiles and layouts whose access sets are measured as pairs.
const PAIRS: [(&str, u32, &[&str]); 4] = [
    (
        "64x64",
        2,
        &[
            "none",
            "tma:32B",
            "tma:64B",
            "tma:128B",
            "cute:Swizzle<1,4,3>",
            "cute:Swizzle<2,4,3>",
            "cute:Swizzle<3,4,4>",
            "triton:swizzled_shared<vec=8,perPhase=2,maxPhase=4,order=1,0>",
            "triton:swizzled_shared<vec=4,perPhase=1,maxPhase=8,order=1,0>",
            "triton:swizzled_shared<vec=2,perPhase=1,maxPhase=8,order=1,0>",
        ],
    ),
    (
        "32x128",
        2,
        &[
            "none",
            "cute-elem:Swizzle<3,3,4>",
            "cute-elem:Swizzle<3,3,3>",
        ],
    ),
    (
        "32x32",
        4,
        &[
            "none",
            "cute-elem:Swizzle<5,0,5>",
            "triton:swizzled_shared<vec=4,perPhase=1,maxPhase=8,order=1,0>",
        ],
    ),
    (
        "32x32",
        8,
        &[
            "none",
            "triton:swizzled_shared<vec=1,perPhase=1,maxPhase=16,order=1,0>",
            "triton:swizzled_shared<vec=2,perPhase=1,maxPhase=8,order=1,0>",
        ],
    ),
];

fn pair_probes() -> Vec<Probe> {
    let mut out = Vec::new();
    for (shape, eb, layouts) in PAIRS {
        let tile = Tile::new(shape.parse::<TileShape>().unwrap(), eb).unwrap();
        assert!(tile.bytes() <= PROBE_BYTES);
        for text in layouts {
            let layout: Layout = text.parse().unwrap();
            let map = layout.to_map(&tile).unwrap();
            let mut sets: Vec<(AccessSet, &'static str)> = Vec::new();
            for kind in [AccessKind::Rows, AccessKind::Cols] {
                for (width, op) in [(4, "v4"), (8, "v8"), (16, "v16")] {
                    if let Ok(s) = AccessSet::generate(kind, width, &tile) {
                        sets.push((s, op));
                    }
                }
            }
            if let Ok(s) = AccessSet::generate(AccessKind::Ldmatrix, 16, &tile) {
                sets.push((s.clone(), "ldsm"));
                if shape == "32x128" {
                    sets.push((s, "ldsmt"));
                }
            }
            for (set, op) in sets {
                if map.contiguous_bytes() < u64::from(set.width) || set.width < eb {
                    continue;
                }
                let cost = set_cost(&set, &map);
                let accesses = set
                    .warps
                    .iter()
                    .map(|w| w.offsets.iter().map(|&x| map.apply(x)).collect())
                    .collect();
                let name = if op == "ldsmt" {
                    "ldmatrix.trans".to_string()
                } else {
                    set.name()
                };
                out.push(Probe {
                    id: format!("pair-{shape}x{eb}B-{text}-{name}"),
                    family: "pair",
                    op,
                    pair: Some((format!("{shape} x {eb} B"), text.to_string(), name)),
                    accesses,
                    ideal: (cost.ideal_load, cost.ideal_store),
                });
            }
        }
    }
    out
}

fn probes() -> Vec<Probe> {
    let mut all = rule_probes();
    all.extend(pair_probes());
    all
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The probe's input: `<id> <op> <warp accesses> <32 byte offsets each>`, one launch a line.
fn patterns(gen: &Path) {
    let mut text = String::from(
        "# Generated by `cargo run -p rtl-gen --example gpu_swizzle -- patterns gpu/gen`.\n\
         # <id> <op: v4|v8|v16|ldsm|ldsmt> <warp accesses K> <K x 32 physical byte offsets>\n",
    );
    for p in probes() {
        let offsets: Vec<String> = p.accesses.iter().flatten().map(u64::to_string).collect();
        assert!(p.accesses.iter().flatten().all(|&x| x < PROBE_BYTES));
        writeln!(
            text,
            "{} {} {} {}",
            p.id,
            p.op,
            p.accesses.len(),
            offsets.join(" ")
        )
        .unwrap();
    }
    write(&gen.join("swizzle_patterns.txt"), &text);
    let mut predictions = String::from("id,family,op,load_model,store_model\n");
    for p in probes() {
        let (load, store) = predict(&p);
        writeln!(
            predictions,
            "\"{}\",{},{},{load},{store}",
            p.id, p.family, p.op
        )
        .unwrap();
    }
    write(&gen.join("swizzle_predictions.csv"), &predictions);
    println!("{} launches", probes().len());
}

/// Model predictions of a launch: load (or ldmatrix) and store wavefronts.
fn predict(p: &Probe) -> (u64, u64) {
    let width = width_of(p.op);
    let load = p
        .accesses
        .iter()
        .map(|a| u64::from(warp_wavefronts(a, width, instruction(p.op))))
        .sum();
    let store = if instruction(p.op) == Instruction::Ldmatrix {
        0
    } else {
        p.accesses
            .iter()
            .map(|a| u64::from(warp_wavefronts(a, width, Instruction::Store)))
            .sum()
    };
    (load, store)
}

/// The compact ncu table `swizzle_ncu.py` writes: one row per launch, in launch order.
fn read_measured(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn report(results: &Path, docs: &Path) {
    let all = probes();
    let measured = read_measured(&results.join("swizzle_ncu.csv"));
    assert_eq!(measured.len(), all.len(), "one profiled launch per probe");
    let num = |m: &BTreeMap<String, String>, k: &str| -> u64 {
        m.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) as u64
    };
    let mut rules =
        String::from("id,family,op,load_model,load_measured,store_model,store_measured,match\n");
    let mut pairs = String::from(
        "tile,layout,access,op,warp_accesses,load_model,load_measured,store_model,store_measured,ideal_load,ideal_store,match\n",
    );
    let mut tally: BTreeMap<(&str, &str), (u32, u32)> = BTreeMap::new();
    for (p, m) in all.iter().zip(&measured) {
        let (load, store) = predict(p);
        let (ml, ms) = if instruction(p.op) == Instruction::Ldmatrix {
            (num(m, "ld_wavefronts"), 0)
        } else {
            (num(m, "ld_wavefronts"), num(m, "st_wavefronts"))
        };
        let ok = load == ml && store == ms;
        let t = tally.entry((p.family, p.op)).or_default();
        t.0 += u32::from(ok);
        t.1 += 1;
        match &p.pair {
            Some((tile, layout, access)) => writeln!(
                pairs,
                "{tile},\"{layout}\",{access},{},{},{load},{ml},{store},{ms},{},{},{}",
                p.op,
                p.accesses.len(),
                p.ideal.0,
                p.ideal.1,
                if ok { "yes" } else { "NO" }
            )
            .unwrap(),
            None => writeln!(
                rules,
                "{},{},{},{load},{ml},{store},{ms},{}",
                p.id,
                p.family,
                p.op,
                if ok { "yes" } else { "NO" }
            )
            .unwrap(),
        }
    }
    write(&docs.join("swizzle_rules_h100.csv"), &rules);
    write(&docs.join("swizzle_pairs_h100.csv"), &pairs);
    let mut summary = String::from("family,op,launches,match\n");
    for ((family, op), (ok, n)) in tally {
        writeln!(summary, "{family},{op},{n},{ok}").unwrap();
    }
    write(&docs.join("swizzle_summary_h100.csv"), &summary);
    print!("{summary}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["patterns", gen] => patterns(Path::new(gen)),
        ["report", results, docs] => report(Path::new(results), Path::new(docs)),
        _ => {
            eprintln!("usage: gpu_swizzle patterns <gen> | report <results> <docs>");
            std::process::exit(2);
        }
    }
}
