//! The AGEN's vectors (one a cycle): the directed transfers, then random valid entries with
//! `mem_ready_i` low at random, idle gaps and starts while busy; and what each directed
//! transfer takes ([`agen_rates`]).

use super::super::cycle::{AgenIn, AgenModel};
use super::super::{D2maDesign, CHUNK_BYTES_BITS, SHARED_BITS};
use super::{bit, directed_transfers, entry_bits, num, random_entry, D2maPlan};
use models::d2ma::BufferEntry;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use testbenches::Vector;

/// One AGEN cycle of `design` as a vector, stepping `model` (global addresses wrapped to the
/// design's bits).
pub fn agen_vector(design: &D2maDesign, model: &mut AgenModel, input: &AgenIn) -> Vector {
    let g = design.global_bits;
    // The port shows the started entry in a start's cycle and zeros otherwise: the AGEN reads
    // it at the start only (in the engine, the span unit takes the read port in between).
    let shown = input.start.unwrap_or_default();
    let o = model.step(input);
    let c = o.chunk.unwrap_or(models::d2ma::Chunk {
        global: 0,
        shared: 0,
        elements: 0,
        bytes: 0,
        constant: false,
        request: None,
    });
    Vector {
        inputs: vec![
            bit(input.start.is_some()),
            entry_bits(&shown),
            bit(input.mem_ready),
        ],
        expected: vec![
            bit(o.busy),
            bit(o.chunk.is_some()),
            bit(c.constant),
            num(design.wrap_global(c.global), g),
            num(u64::from(c.shared), SHARED_BITS),
            num(u64::from(c.bytes), CHUNK_BYTES_BITS),
            bit(c.request.is_some()),
            num(design.wrap_global(c.request.unwrap_or(0)), g),
            num(u64::from(o.constant), SHARED_BITS),
            bit(o.done),
        ],
    }
}

/// The AGEN's vectors, one a cycle: the directed transfers and `plan`'s, then random ones
/// with back-pressure, idle gaps and starts while busy.
pub fn vectors(design: &D2maDesign, plan: &D2maPlan, rng: &mut ChaCha8Rng) -> Vec<Vector> {
    let mut model = AgenModel::new(design);
    let mut out = Vec::new();
    let mut queue: Vec<BufferEntry> = directed_transfers().into_iter().map(|(_, e)| e).collect();
    queue.extend_from_slice(&plan.transfers);
    queue.extend((0..plan.random).map(|_| random_entry(rng)));
    let directed = queue.len() - plan.random;
    for (n, entry) in queue.into_iter().enumerate() {
        // Directed transfers run with the memory port always free; random ones see it busy
        // a quarter of the time and start after an idle gap.
        let random = n >= directed;
        for _ in 0..if random { rng.gen_range(0..3) } else { 0 } {
            out.push(agen_vector(
                design,
                &mut model,
                &AgenIn {
                    start: None,
                    mem_ready: rng.gen_bool(0.5),
                },
            ));
        }
        out.push(agen_vector(
            design,
            &mut model,
            &AgenIn {
                start: Some(entry),
                mem_ready: true,
            },
        ));
        loop {
            let start = (random && rng.gen_bool(0.05)).then(|| random_entry(rng));
            let mem_ready = !random || rng.gen_bool(0.75);
            let v = agen_vector(design, &mut model, &AgenIn { start, mem_ready });
            let done = v.expected[9].bit(0);
            out.push(v);
            if done {
                break;
            }
        }
    }
    out
}

/// What one directed AGEN transfer takes with the memory port always free: the cycle model's
/// count, which the co-simulation checks cycle by cycle against the RTL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgenRate {
    /// The transfer's name.
    pub name: String,
    /// Elements stored to shared memory (halo included).
    pub elements: usize,
    /// Cycles from `start_i` to `done_o`, both included (one load cycle, then one per chunk).
    pub cycles: usize,
    /// Segment requests issued.
    pub requests: usize,
    /// Halo constant stores.
    pub constant_stores: usize,
}

/// The [`AgenRate`] of every directed transfer and of `extra` ones.
pub fn agen_rates(design: &D2maDesign, extra: &[BufferEntry]) -> Vec<AgenRate> {
    let named = directed_transfers()
        .into_iter()
        .chain(extra.iter().map(|e| ("--transfer".to_string(), *e)));
    named
        .map(|(name, entry)| {
            let mut model = AgenModel::new(design);
            let mut input = AgenIn {
                start: Some(entry),
                mem_ready: true,
            };
            let (mut cycles, mut requests, mut constant_stores, mut elements) = (0, 0, 0, 0);
            loop {
                let o = model.step(&input);
                input.start = None;
                cycles += 1;
                if let Some(c) = o.chunk {
                    requests += usize::from(c.request.is_some());
                    constant_stores += usize::from(c.constant);
                    elements += c.elements as usize;
                }
                if o.done {
                    break;
                }
            }
            AgenRate {
                name,
                elements,
                cycles,
                requests,
                constant_stores,
            }
        })
        .collect()
}
