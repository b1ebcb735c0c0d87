//! The golden models against an H100: writes the warp access patterns the `gpu/probe` benchmark
//! replays (with the models' predicted congestion) and the hash headers `gpu/hash_check` compiles,
//! then turns what `gpu/run.sh` measured into the CSV tables of docs/gpu/.
//!
//! ```text
//! cargo run --release -p rtl-gen --example gpu_silicon -- patterns gpu/gen
//! cargo run --release -p rtl-gen --example gpu_silicon -- report gpu/gen <results> docs/gpu
//! ```

use models::congestion::{congestion, wide_congestion, WideModel};
use models::patterns::AccessPattern;
use models::rap::{Permutation, ShiftLayout};
use models::search::trace::Trace;
use models::software::SoftwareIndex;
use models::{Geometry, HashConfig, HashKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// Word-address bits of the probe's shared array (4096 words).
const ADDR_BITS: u32 = 12;
/// Hash configurations drawn per family.
const CONFIGS_PER_KIND: u64 = 4;

/// One warp access: where it comes from and the 32 shared-array word indices it touches.
struct Probe {
    id: String,
    family: String,
    layout: String,
    pattern: String,
    indices: Vec<u64>,
}

fn access(p: AccessPattern) -> Vec<u64> {
    p.addresses(32, ADDR_BITS)
}

/// The pattern classes of the XOR paper's section 3 in the plain layout, and the congestion
/// ladder of the measurement report.
fn class_probes(rng: &mut ChaCha8Rng) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut add = |family: &str, pattern: String, indices: Vec<u64>| {
        out.push(Probe {
            id: format!("{family}-{pattern}"),
            family: family.into(),
            layout: "raw".into(),
            pattern,
            indices,
        })
    };
    for offset in [0u64, 1, 7, 31, 100] {
        add(
            "linear",
            format!("o{offset}"),
            access(AccessPattern::Linear { offset }),
        );
    }
    for stride in (1..=40).chain([48, 64, 96, 128]) {
        let offset = rng.gen_range(0..4096);
        add(
            "stride",
            format!("s{stride}-o{offset}"),
            access(AccessPattern::Stride { offset, stride }),
        );
    }
    for width in [2u64, 4, 8, 16] {
        for stride_x in [1u64, 2, 3] {
            for stride_y in [16u64, 32, 33, 64] {
                add(
                    "block",
                    format!("w{width}-x{stride_x}-y{stride_y}"),
                    access(AccessPattern::Block {
                        offset: 0,
                        width,
                        stride_x,
                        stride_y,
                    }),
                );
            }
        }
    }
    for seed in 0..30 {
        add(
            "random",
            format!("seed{seed}"),
            access(AccessPattern::Random { seed }),
        );
    }
    for share in [1u64, 2, 4, 8, 32] {
        // Groups of `share` threads read one word: broadcast within a group.
        add(
            "broadcast",
            format!("share{share}"),
            (0..32).map(|t| (t / share) * 33).collect(),
        );
    }
    for c in 1..=32u64 {
        // The measurement report's ladder: c threads in bank 0, one each in the other banks.
        add(
            "ladder",
            format!("c{c}"),
            (0..32)
                .map(|t| if t < c { t * 32 } else { t * 33 })
                .collect(),
        );
    }
    out
}

/// Rows, columns, diagonals and random elements of a 32 x 32 matrix under RAW, RAS, RAP and
/// RAP-wide layouts.
fn layout_probes() -> Vec<Probe> {
    let mut out = Vec::new();
    for seed in 1..=3u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let layouts = [
            ShiftLayout::raw(32),
            ShiftLayout::ras_random(32, &mut rng),
            ShiftLayout::rap(&Permutation::from_seed(32, seed)),
            ShiftLayout::rap(&Permutation::random_wide(32, &mut rng)),
        ];
        let names = ["raw", "ras", "rap", "rap-wide"];
        let (row, col, diag) = (
            rng.gen_range(0..32u32),
            rng.gen_range(0..32u32),
            rng.gen_range(0..32u32),
        );
        let cells: Vec<u32> = (0..64).map(|_| rng.gen_range(0..32)).collect();
        for (layout, name) in layouts.iter().zip(names) {
            let pick = |f: &dyn Fn(u32) -> (u32, u32)| -> Vec<u64> {
                (0..32)
                    .map(|t| {
                        let (r, c) = f(t);
                        layout.address(r, c)
                    })
                    .collect()
            };
            let patterns = [
                (format!("row{row}"), pick(&|t| (row, t))),
                (format!("column{col}"), pick(&|t| (t, col))),
                (format!("diagonal{diag}"), pick(&|t| (t, (t + diag) % 32))),
                (
                    "random".to_string(),
                    pick(&|t| (cells[t as usize], cells[t as usize + 32])),
                ),
            ];
            for (pattern, indices) in patterns {
                out.push(Probe {
                    id: format!("matrix-{name}-seed{seed}-{pattern}"),
                    family: "matrix".into(),
                    layout: format!("{name}-seed{seed}"),
                    pattern,
                    indices,
                });
            }
        }
    }
    out
}

/// The full-rank hash configurations of every family the probes and `hash_check` use.
fn hash_configs() -> Vec<(String, HashConfig)> {
    let g = Geometry::new(ADDR_BITS, 32).expect("12 bits, 32 banks");
    let mut out = Vec::new();
    for (k, kind) in HashKind::ALL.into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + k as u64);
        let mut drawn = 0;
        while drawn < CONFIGS_PER_KIND {
            let c = HashConfig::random(kind, g, &mut rng);
            if c.check_full_rank().is_ok() {
                out.push((format!("{}_{drawn}", kind.tag()), c));
                drawn += 1;
            }
        }
    }
    out
}

/// Four patterns through each hash's software index.
fn hash_probes(configs: &[(String, HashConfig)]) -> Vec<Probe> {
    let mut out = Vec::new();
    for (i, (name, config)) in configs.iter().enumerate() {
        let index = SoftwareIndex::new(config).expect("full rank");
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + i as u64);
        let stride = rng.gen_range(2..64u64);
        let patterns = [
            ("linear".to_string(), AccessPattern::Linear { offset: 0 }),
            (
                format!("stride{stride}"),
                AccessPattern::Stride { offset: 0, stride },
            ),
            (
                "block-w8-y32".to_string(),
                AccessPattern::Block {
                    offset: 0,
                    width: 8,
                    stride_x: 1,
                    stride_y: 32,
                },
            ),
            (
                "random".to_string(),
                AccessPattern::Random {
                    seed: rng.gen::<u64>(),
                },
            ),
        ];
        for (pattern, p) in patterns {
            out.push(Probe {
                id: format!("hash-{name}-{pattern}"),
                family: format!("hash-{}", config.kind().name()),
                layout: name.clone(),
                pattern,
                indices: access(p).into_iter().map(|a| index.index(a)).collect(),
            });
        }
    }
    out
}

/// FNV-1a over the index and bank of every address: what `hash_check` recomputes on the GPU.
fn checksum(config: &HashConfig) -> u32 {
    let index = SoftwareIndex::new(config).expect("full rank");
    let mut h: u32 = 0x811c_9dc5;
    for a in 0..(1u64 << ADDR_BITS) {
        for v in [index.index(a) as u32, config.bank(a) as u32] {
            h = (h ^ v).wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// The predictions of one probe: the loads' and stores' model (the 4-byte model; for 8-byte
/// words [`WideModel::LoadGroups`] and [`WideModel::Groups`]), the old model (a word in one
/// bank), and the whole-warp and half-warp models.
fn predictions(indices: &[u64], bytes: u64) -> [u32; 5] {
    if bytes == 4 {
        [congestion(indices, |x| x % 32); 5]
    } else {
        let wide = |m| wide_congestion(indices, 8, 32, m);
        [
            wide(WideModel::LoadGroups),
            wide(WideModel::Groups),
            congestion(indices, |x| x % 32),
            wide(WideModel::Warp),
            wide(WideModel::Groups),
        ]
    }
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("create folder");
    }
    fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The words of a warp access renumbered within their 4-byte bank (`bank + 32 * k`, `k` the
/// word's rank among the bank's distinct words in thread order): the same banks, the same
/// repeats, so the same congestion for 4- and 8-byte words, inside the probe's 4096 words.
fn renumber(words: &[u64]) -> Vec<u64> {
    let mut per_bank: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    words
        .iter()
        .map(|&x| {
            let bank = x % 32;
            let list = per_bank.entry(bank).or_default();
            let k = list.iter().position(|&y| y == x).unwrap_or_else(|| {
                list.push(x);
                list.len() - 1
            });
            bank + 32 * k as u64
        })
        .collect()
}

/// Warp accesses of the search issue's kernel suite (`kernels/*.trace`, written by `rtl-gen
/// kernels`): per kernel, the first full-warp access of each distinct 4-byte congestion, up to
/// four, renumbered to fit the probe.
fn kernel_probes() -> Vec<Probe> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trace"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let trace =
            Trace::parse(&text, 14, 32).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut seen = Vec::new();
        for a in trace.accesses.iter().filter(|a| a.addresses.len() == 32) {
            let c = congestion(&a.addresses, |x| x % 32);
            if seen.contains(&c) {
                continue;
            }
            seen.push(c);
            out.push(Probe {
                id: format!("kernel-{name}-c{c}"),
                family: "kernel".into(),
                layout: "raw".into(),
                pattern: format!("{name} {} c{c}", a.label),
                indices: renumber(&a.addresses),
            });
            if seen.len() == 4 {
                break;
            }
        }
    }
    out
}

fn patterns(gen: &Path) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let configs = hash_configs();
    let mut probes = class_probes(&mut rng);
    probes.extend(layout_probes());
    probes.extend(hash_probes(&configs));
    probes.extend(kernel_probes());
    let mut txt = String::from("# id word_bytes 32 word indices (gpu/probe input)\n");
    let mut csv =
        String::from("id,word_bytes,family,layout,pattern,model_ld,model_st,naive,warp,groups\n");
    for bytes in [4u64, 8] {
        for p in &probes {
            let idx: Vec<String> = p.indices.iter().map(u64::to_string).collect();
            let id = format!("b{bytes}-{}", p.id);
            writeln!(txt, "{id} {bytes} {}", idx.join(" ")).unwrap();
            let [ld, st, naive, warp, groups] = predictions(&p.indices, bytes);
            writeln!(
                csv,
                "{id},{bytes},{},{},{},{ld},{st},{naive},{warp},{groups}",
                p.family, p.layout, p.pattern
            )
            .unwrap();
        }
    }
    write(&gen.join("patterns.txt"), &txt);
    write(&gen.join("patterns.csv"), &csv);

    let mut cu = String::from(
        "// Generated by `cargo run -p rtl-gen --example gpu_silicon -- patterns gpu/gen`: every\n\
         // header's index and bank for all 4096 addresses, checked against the models' FNV-1a sums.\n\
         // Usage: hash_check <csv out>\n#include \"../common.cuh\"\n",
    );
    for (name, _) in &configs {
        writeln!(cu, "#include \"{name}.h\"").unwrap();
    }
    cu.push_str("\n__global__ void hash_check(unsigned int *out)\n{\n    const unsigned int a = blockIdx.x * blockDim.x + threadIdx.x;\n    if (a >= 4096u) return;\n");
    for (k, (name, config)) in configs.iter().enumerate() {
        let command = "cargo run -p rtl-gen --example gpu_silicon -- patterns gpu/gen";
        let header = rtl_gen::cuda::hash_header(config, name, command).expect("full rank");
        write(&gen.join(format!("{name}.h")), &header);
        writeln!(
            cu,
            "    out[{}u * 4096u + 2u * a] = {name}_index(a);\n    out[{}u * 4096u + 2u * a + 1u] = {name}_bank(a);",
            2 * k,
            2 * k
        )
        .unwrap();
    }
    let n = configs.len();
    cu.push_str("}\n\nint main(int argc, char **argv)\n{\n    if (argc != 2) return 2;\n");
    writeln!(
        cu,
        "    const char *names[{n}] = {{{}}};",
        configs
            .iter()
            .map(|(n, _)| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    )
    .unwrap();
    writeln!(
        cu,
        "    const unsigned int want[{n}] = {{{}}};",
        configs
            .iter()
            .map(|(_, c)| format!("{:#010x}u", checksum(c)))
            .collect::<Vec<_>>()
            .join(", ")
    )
    .unwrap();
    writeln!(
        cu,
        "    unsigned int *d_out;\n    static unsigned int h_out[{n} * 8192];\n    CHECK(cudaMalloc(&d_out, sizeof h_out));\n    hash_check<<<16, 256>>>(d_out);\n    CHECK_LAUNCH();\n    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));\n    FILE *csv = std::fopen(argv[1], \"w\");\n    if (!csv) return 1;\n    std::fprintf(csv, \"name,checksum,expected,check\\n\");\n    int bad = 0;\n    for (int k = 0; k < {n}; ++k) {{\n        unsigned int h = 0x811c9dc5u;\n        for (int v = 0; v < 8192; ++v) h = (h ^ h_out[k * 8192 + v]) * 0x01000193u;\n        bad += h != want[k];\n        std::fprintf(csv, \"%s,%#010x,%#010x,%s\\n\", names[k], h, want[k], h == want[k] ? \"pass\" : \"FAIL\");\n    }}\n    std::fclose(csv);\n    std::printf(\"hash_check: %d of {n} headers match the models\\n\", {n} - bad);\n    CHECK(cudaFree(d_out));\n    return bad != 0;\n}}"
    )
    .unwrap();
    write(&gen.join("hash_check.cu"), &cu);
    println!(
        "{}: {} probes ({} per word size), {} hash headers",
        gen.display(),
        2 * probes.len(),
        probes.len(),
        configs.len()
    );
}

/// A minimal CSV reader: quoted fields with doubled quotes, commas.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match (ch, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(ch),
        }
    }
    fields.push(field);
    fields
}

/// Rows of a CSV file as maps from header to value.
fn read_csv(path: &Path, header_starts: &str) -> Vec<BTreeMap<String, String>> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines().skip_while(|l| !l.starts_with(header_starts));
    let header = csv_fields(
        lines
            .next()
            .unwrap_or_else(|| panic!("{}: no header", path.display())),
    );
    lines
        .map(csv_fields)
        .filter(|f| f.len() == header.len())
        .map(|f| header.iter().cloned().zip(f).collect())
        .collect()
}

fn number(row: &BTreeMap<String, String>, key: &str) -> f64 {
    row.get(key)
        .and_then(|v| v.replace(',', "").parse().ok())
        .unwrap_or(f64::NAN)
}

/// Model against silicon: ncu's wavefronts per instruction beside the predictions.
fn report_probes(gen: &Path, results: &Path, docs: &Path) {
    let patterns = read_csv(&gen.join("patterns.csv"), "id,");
    let ncu: Vec<_> = read_csv(&results.join("probe_ncu.csv"), "\"ID\"")
        .into_iter()
        .filter(|r| r.get("ID").is_some_and(|id| id.parse::<u64>().is_ok()))
        .collect();
    assert_eq!(ncu.len(), patterns.len(), "one profiled launch per pattern");
    let mut csv = String::from(
        "id,word_bytes,family,layout,pattern,ld_wavefronts,st_wavefronts,model_ld,model_st,naive,warp,groups,match\n",
    );
    let mut tally: BTreeMap<(String, String), [u32; 4]> = BTreeMap::new();
    let mut rows = Vec::new();
    for (p, m) in patterns.iter().zip(&ncu) {
        let ld = number(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
        let st = number(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
        let [model_ld, model_st, naive, warp, groups] =
            ["model_ld", "model_st", "naive", "warp", "groups"].map(|k| number(p, k));
        let ok = ld == model_ld && st == model_st;
        let key = (p["word_bytes"].clone(), p["family"].clone());
        let t = tally.entry(key).or_default();
        t[0] += 1;
        t[1] += u32::from(ok);
        t[2] += u32::from(ld == naive && st == naive);
        t[3] += u32::from(ld == groups && st == groups);
        writeln!(
            csv,
            "{},{},{},{},{},{ld},{st},{model_ld},{model_st},{naive},{warp},{groups},{}",
            p["id"],
            p["word_bytes"],
            p["family"],
            p["layout"],
            p["pattern"],
            if ok { "yes" } else { "no" }
        )
        .unwrap();
        rows.push((p["id"].clone(), ld, st, model_ld, model_st));
    }
    write(&docs.join("model_vs_silicon.csv"), &csv);
    let mut summary = String::from(
        "word_bytes,family,patterns,match_model,match_naive_one_bank,match_half_warps\n",
    );
    for ((bytes, family), [n, ok, naive, warp]) in &tally {
        writeln!(summary, "{bytes},{family},{n},{ok},{naive},{warp}").unwrap();
    }
    write(&docs.join("model_vs_silicon_summary.csv"), &summary);
    print!("{summary}");
    for (id, ld, st, model_ld, model_st) in rows {
        if ld != model_ld || st != model_st {
            println!("mismatch {id}: ld {ld} st {st}, model {model_ld} {model_st}");
        }
    }
}

/// Table III on this GPU beside the paper's GTX TITAN numbers (double, RAW/RAS/RAP).
fn report_transpose(results: &Path, docs: &Path) {
    let paper: BTreeMap<(&str, &str), f64> = [
        (("CRSW", "raw"), 1595.0),
        (("CRSW", "ras"), 303.6),
        (("CRSW", "rap"), 154.5),
        (("SRCW", "raw"), 1596.0),
        (("SRCW", "ras"), 297.1),
        (("SRCW", "rap"), 159.1),
        (("DRDW", "raw"), 158.4),
        (("DRDW", "ras"), 427.4),
        (("DRDW", "rap"), 433.3),
    ]
    .into_iter()
    .collect();
    let rows = read_csv(&results.join("transpose.csv"), "algorithm,");
    let mut csv = String::from(
        "algorithm,type,layout,ns_per_transpose,spread_ns,check,speedup_over_raw,paper_gtx_titan_ns\n",
    );
    for r in &rows {
        let raw = rows
            .iter()
            .find(|x| {
                x["algorithm"] == r["algorithm"] && x["type"] == r["type"] && x["layout"] == "raw"
            })
            .map(|x| number(x, "ns_per_transpose"))
            .unwrap_or(f64::NAN);
        let ns = number(r, "ns_per_transpose");
        let paper_ns = paper
            .get(&(r["algorithm"].as_str(), r["layout"].as_str()))
            .filter(|_| r["type"] == "double")
            .map(|v| v.to_string())
            .unwrap_or_default();
        writeln!(
            csv,
            "{},{},{},{ns:.1},{:.1},{},{:.2},{paper_ns}",
            r["algorithm"],
            r["type"],
            r["layout"],
            number(r, "spread_ns"),
            r["check"],
            raw / ns
        )
        .unwrap();
    }
    write(&docs.join("table3_h100.csv"), &csv);
    print!("{csv}");
}

/// The congestion the model gives the latency kernel's access (gpu/latency.cu) with `c`
/// threads on the first bank, in `bytes`-byte words: `c` itself for 4-byte words, and for 8-byte
/// words what [`WideModel::LoadGroups`] says of the half-warps.
fn latency_congestion(bytes: u64, c: u64) -> u64 {
    let (crowded, spread) = if bytes == 8 { (16, 17) } else { (32, 33) };
    let words: Vec<u64> = (0..32)
        .map(|lane| lane * if lane < c { crowded } else { spread })
        .collect();
    u64::from(wide_congestion(&words, bytes, 32, WideModel::LoadGroups))
}

/// The least-squares fit of `y = c1 * x + c2` and its coefficient of determination.
fn fit(pts: &[(f64, f64)]) -> (f64, f64, f64) {
    let n = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let c1 = sxy / sxx;
    let c2 = my - c1 * mx;
    let ss_res: f64 = pts.iter().map(|(x, y)| (y - c1 * x - c2).powi(2)).sum();
    let ss_tot: f64 = pts.iter().map(|(_, y)| (y - my).powi(2)).sum();
    (c1, c2, 1.0 - ss_res / ss_tot)
}

/// The fits of T = C1 * i * w * c + C2 for 4-byte and 8-byte words (`c` the model's congestion
/// of the access), and for 8-byte words also against the nominal `c` (the report's x axis).
fn report_latency(results: &Path, docs: &Path) {
    let rows = read_csv(&results.join("latency.csv"), "bytes,");
    let mut csv = String::from("bytes,i,w,c,model_congestion,iwc,cycles,fit\n");
    let mut fits = String::from("gpu,words,x,c1_cycles,c2_cycles,r2,points\n");
    for bytes in [4u64, 8] {
        let sel: Vec<&BTreeMap<String, String>> = rows
            .iter()
            .filter(|r| number(r, "bytes") as u64 == bytes)
            .collect();
        let point = |r: &BTreeMap<String, String>, model: bool| {
            let c = number(r, "c") as u64;
            let c = if model {
                latency_congestion(bytes, c)
            } else {
                c
            };
            (
                number(r, "i") * number(r, "w") * c as f64,
                number(r, "cycles"),
            )
        };
        let pts: Vec<(f64, f64)> = sel.iter().map(|r| point(r, true)).collect();
        let (c1, c2, r2) = fit(&pts);
        writeln!(
            fits,
            "H100,{bytes}-byte,i*w*model congestion,{c1:.4},{c2:.2},{r2:.5},{}",
            pts.len()
        )
        .unwrap();
        if bytes == 8 {
            let nominal: Vec<(f64, f64)> = sel.iter().map(|r| point(r, false)).collect();
            let (n1, n2, nr2) = fit(&nominal);
            writeln!(
                fits,
                "H100,{bytes}-byte,i*w*c (threads on one bank),{n1:.4},{n2:.2},{nr2:.5},{}",
                nominal.len()
            )
            .unwrap();
        }
        for (r, (x, y)) in sel.iter().zip(&pts) {
            let c = number(r, "c") as u64;
            writeln!(
                csv,
                "{bytes},{},{},{c},{},{x},{y},{:.1}",
                r["i"],
                r["w"],
                latency_congestion(bytes, c),
                c1 * x + c2
            )
            .unwrap();
        }
    }
    fits.push_str("GTX 780 Ti (report),8-byte,i*w*c,1.047,337.698,,\n");
    write(&docs.join("latency_h100.csv"), &csv);
    write(&docs.join("latency_fit.csv"), &fits);
    print!("{fits}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["patterns", gen] => patterns(Path::new(gen)),
        ["report", gen, results, docs] => {
            let (gen, results, docs) = (Path::new(gen), Path::new(results), Path::new(docs));
            report_transpose(results, docs);
            report_latency(results, docs);
            report_probes(gen, results, docs);
        }
        _ => {
            eprintln!(
                "usage: gpu_silicon patterns <gen dir> | report <gen dir> <results dir> <docs dir>"
            );
            std::process::exit(2);
        }
    }
}
