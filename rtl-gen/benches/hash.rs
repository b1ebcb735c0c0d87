//! Benchmarks of the hasher flow: generation time of the largest configuration, and
//! co-simulation throughput (vectors per second) through Verilator and Icarus.
//!
//! Run: `cargo bench -p rtl-gen --bench hash`; `-- cosim/verilator_` runs the Verilator cases
//! alone, file-based and DPI-C side by side. Results go in docs/BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use golden_dpi::HashPlanStimulus;
use models::{HashConfigObject, HashKind};
use rtl_gen::block;
use rtl_gen::hash::vectors::{self, VectorPlan};
use rtl_gen::hash::{dpi, HashDesign};
use std::time::Duration;
use testbenches::dpi::DEFAULT_LANES;

/// The largest hasher: configurable xor-matrix, 64 address bits, 65536 banks (cfg_i 1024 bits).
fn largest() -> HashDesign {
    HashDesign::new(
        &HashConfigObject::new(HashKind::XorMatrix, 64, 65536),
        true,
        false,
        false,
    )
    .unwrap()
}

fn generation(c: &mut Criterion) {
    let design = largest();
    let plan = VectorPlan::default();
    let mut g = c.benchmark_group("generate");
    g.sample_size(10);
    g.bench_function("render_xormat_n64_b65536_cfg", |b| {
        b.iter(|| block::render(&design, &plan, "bench"))
    });
    g.bench_function("vectors_100k_xormat_n64_b65536_cfg", |b| {
        b.iter(|| vectors::vectors(&design, &plan))
    });
    let out = tempfile::tempdir().unwrap();
    g.bench_function("block_folder_xormat_n64_b65536_cfg", |b| {
        b.iter(|| block::write(&design, &plan, "bench", out.path()).unwrap())
    });
    g.finish();
}

fn cosimulation(c: &mut Criterion) {
    let out = tempfile::tempdir().unwrap();
    let designs = [
        (
            "bwxor_n14_b32_cfg",
            HashDesign::new(
                &HashConfigObject::new(HashKind::BitwiseXor, 14, 32),
                true,
                false,
                false,
            )
            .unwrap(),
        ),
        ("xormat_n64_b65536_cfg", largest()),
    ];
    let mut g = c.benchmark_group("cosim");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    for (label, design) in &designs {
        let dir = block::write(design, &VectorPlan::default(), "bench", out.path()).unwrap();
        let vectors = rtl_gen::manifest::Manifest::load(&dir)
            .unwrap()
            .0
            .testbench
            .vectors;
        g.throughput(Throughput::Elements(vectors as u64));
        for simulator in ["verilator", "iverilog"] {
            // Build (from ccache for Verilator once warm) and run, end to end.
            g.bench_function(format!("{simulator}_build_and_run_{label}"), |b| {
                b.iter(|| rtl_gen::cosim::run(&dir, simulator).unwrap())
            });
            // The simulation alone, as the simulator's own run time.
            g.bench_function(format!("{simulator}_run_{label}"), |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            Duration::from_secs_f64(
                                rtl_gen::cosim::run(&dir, simulator).unwrap().1.run_seconds,
                            )
                        })
                        .sum()
                })
            });
        }
        // The DPI-C fast path beside them (the golden model linked into the simulation, every
        // vector drawn and checked while it runs), over a run long enough to time: 10 M vectors
        // of the Fermi hasher, 1 M of the largest, the file-based testbench's own first.
        let many = if label.starts_with("bwxor") {
            10_000_000
        } else {
            1_000_000
        };
        let stimulus = HashPlanStimulus::Vectors(VectorPlan {
            vectors: many,
            ..VectorPlan::default()
        });
        let fast_vectors = stimulus_len(&dir, &stimulus);
        g.throughput(Throughput::Elements(fast_vectors));
        g.bench_function(format!("verilator_dpi_run_{label}"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        let (_, report) = dpi::run(&dir, stimulus.clone(), DEFAULT_LANES).unwrap();
                        assert_eq!(report.failed, 0);
                        Duration::from_secs_f64(report.run_seconds)
                    })
                    .sum()
            })
        });
    }
    g.finish();
}

/// The number of vectors `stimulus` holds for the block in `dir`.
fn stimulus_len(dir: &std::path::Path, stimulus: &HashPlanStimulus) -> u64 {
    let manifest = rtl_gen::manifest::Manifest::load(dir).unwrap().0;
    dpi::plan(&manifest, stimulus.clone())
        .unwrap()
        .stimulus()
        .unwrap()
        .len()
}

criterion_group!(benches, generation, cosimulation);
criterion_main!(benches);
