//! Search time per kernel of the suite and for the whole suite, and the exhaustive bit-vector
//! XOR search over all 4480 configurations of the 14-bit / 32-bank case.
//!
//! `cargo bench -p models --bench search`

use criterion::{criterion_group, criterion_main, Criterion};
use models::search::classify::classify;
use models::search::kernels::{suite, ADDR_BITS, BANKS};
use models::search::{exhaustive, plan, search, Workload};
use models::Geometry;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let g = Geometry::new(ADDR_BITS, BANKS).unwrap_or_else(|e| panic!("{e}"));
    let kernels = suite();
    let all = plan(None, None).unwrap_or_else(|e| panic!("{e}"));
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for k in &kernels {
        let workload = Workload::new(g, &k.trace);
        let strides: Vec<_> = k
            .trace
            .accesses
            .iter()
            .flat_map(|a| classify(a).strides(a.addresses.len()))
            .collect();
        group.bench_function(format!("bitvector-xor-4480/{}", k.name), |b| {
            b.iter(|| exhaustive::bitvector_xor(black_box(&workload), &strides))
        });
        group.bench_function(format!("all/{}", k.name), |b| {
            b.iter(|| search(black_box(&k.trace), g, &all))
        });
    }
    group.bench_function("all/suite", |b| {
        b.iter(|| {
            for k in &kernels {
                black_box(search(&k.trace, g, &all));
            }
        })
    });
    group.finish();
}

criterion_group!(search_benches, benches);
criterion_main!(search_benches);
