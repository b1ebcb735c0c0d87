//! The engine's vectors (one a cycle): SAXPY on two CTAs (Fig. 12), then random whole-entry
//! configurations and `dma_execute` restarts, loads, memory back-pressure and responses in
//! random order, drained until every buffer has completed.

use super::super::cycle::{self, EngineIn, EngineModel};
use super::super::{D2maDesign, CFG_DATA_BITS, CHUNK_BYTES_BITS, PART_BITS, SHARED_BITS};
use super::{bit, num, random_entry, saxpy_buffer, D2maPlan};
use models::d2ma::Part;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use testbenches::Vector;

/// One engine cycle as a vector, stepping `model`.
fn engine_vector(
    design: &D2maDesign,
    model: &mut EngineModel,
    input: &EngineIn,
) -> (Vector, cycle::EngineOut) {
    let (cb, bb) = (design.cta_bits(), design.buf_bits());
    let o = model.step(input);
    let (c, tc, tb) = o.chunk.unwrap_or_default();
    let (cc, cbuf, cpart, cdata) = input.cfg.unwrap_or((0, 0, 0, 0));
    let (lc, la) = input.load.unwrap_or((0, 0));
    let (rc, rb) = input.resp.unwrap_or((0, 0));
    let (dc, db) = o.complete.unwrap_or((0, 0));
    let seg = design.segment_bytes;
    let v = Vector {
        inputs: vec![
            bit(input.cfg.is_some()),
            num(cc.into(), cb),
            num(cbuf.into(), bb),
            num(cpart.into(), PART_BITS),
            num(cdata, CFG_DATA_BITS),
            bit(input.load.is_some()),
            num(lc.into(), cb),
            num(la.into(), SHARED_BITS),
            bit(input.req_ready),
            bit(input.resp.is_some()),
            num(rc.into(), cb),
            num(rb.into(), bb),
        ],
        expected: vec![
            bit(c.request.is_some()),
            num(
                design.wrap_global(c.request.unwrap_or(0)),
                design.global_bits,
            ),
            num(tc.into(), cb),
            num(tb.into(), bb),
            bit(o.chunk.is_some()),
            bit(c.constant),
            num(c.shared.into(), SHARED_BITS),
            num(c.global % u64::from(seg), seg.trailing_zeros()),
            num(c.bytes.into(), CHUNK_BYTES_BITS),
            num(o.constant.into(), SHARED_BITS),
            bit(o.complete.is_some()),
            num(dc.into(), cb),
            num(db.into(), bb),
            bit(o.wait),
            num(o.release, design.ctas),
        ],
    };
    (v, o)
}

/// What an engine run measured, for docs/D2MA.md: cycles from the last configuration command
/// of the first SAXPY buffer to its first request, and the SAXPY phase's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineRun {
    /// Cycles from the cycle of the first buffer's last configuration command to its first
    /// request.
    pub config_to_first_request: usize,
    /// Cycles until both CTAs' x and y buffers completed.
    pub saxpy_cycles: usize,
    /// Cycles in which a walk waited for its buffer's requests in flight to drop below the
    /// bound (an engine with [`D2maDesign::in_flight_bound`]).
    pub bound_waits: usize,
    /// Cycles in which an ignited entry waited to start because a command that completes an
    /// entry had the controller's read port.
    pub port_waits: usize,
}

/// The engine's vectors and what they measured.
pub fn engine_vectors(
    design: &D2maDesign,
    plan: &D2maPlan,
    rng: &mut ChaCha8Rng,
) -> (Vec<Vector>, EngineRun) {
    let mut model = EngineModel::new(design);
    let mut out = Vec::new();
    let mut run = EngineRun::default();
    let mut outstanding: Vec<(u32, u32)> = Vec::new();
    let mut script: VecDeque<(u32, u32, u32, u64)> = VecDeque::new();
    let b = design.buffers;
    // SAXPY: x and y of CTAs 0 and 1, 256 floats each, configured back to back.
    let mut saxpy = Vec::new();
    for cta in 0..design.ctas.min(2) {
        for buf in 0..b.min(2) {
            let e = saxpy_buffer(cta, buf);
            for part in [Part::Shape, Part::Halo, Part::Global] {
                script.push_back((cta, buf, part as u32, e.part_value(part)));
            }
            saxpy.push((cta, buf));
        }
    }
    let first_config = 2;
    let mut cycle = 0usize;
    let mut first_request = None;
    loop {
        assert!(cycle < 1_000_000, "the engine model did not drain");
        let saxpy_phase = run.saxpy_cycles == 0;
        let random_phase = !saxpy_phase && cycle < run.saxpy_cycles + plan.random;
        let idle = model.ctrl.entries.iter().all(|s| !s.holds_transfer()) && script.is_empty();
        if !saxpy_phase && !random_phase && idle && outstanding.is_empty() {
            break;
        }
        if random_phase && script.is_empty() && rng.gen_bool(0.1) {
            let cta = rng.gen_range(0..design.ctas);
            let buf = rng.gen_range(0..b);
            let s = model.ctrl.entries[(cta * b + buf) as usize];
            if !s.holds_transfer() {
                if s.mask == 0b110 && rng.gen_bool(0.4) {
                    // dma_execute: a new global base restarts the same shape.
                    script.push_back((cta, buf, 0, s.entry.global.wrapping_add(0x1000)));
                } else {
                    // Shape and halo in either order, the global base last: an entry that
                    // completed keeps its shape, so the global base alone would restart it.
                    let e = random_entry(rng);
                    let mut parts = vec![Part::Shape, Part::Halo];
                    if rng.gen_bool(0.5) {
                        parts.reverse();
                    }
                    parts.push(Part::Global);
                    for p in parts {
                        script.push_back((cta, buf, p as u32, e.part_value(p)));
                    }
                }
            }
        }
        let resp = (!outstanding.is_empty() && rng.gen_bool(0.5))
            .then(|| outstanding.swap_remove(rng.gen_range(0..outstanding.len())));
        let guards: Vec<(u32, u16, u32)> = model
            .ctrl
            .entries
            .iter()
            .enumerate()
            .filter(|(_, s)| s.busy)
            .map(|(i, s)| (i as u32 / b, s.entry.shared, s.end))
            .collect();
        let load =
            rng.gen_bool(0.5)
                .then(|| match guards.get(rng.gen_range(0..guards.len().max(1))) {
                    Some(&(cta, start, end)) if rng.gen_bool(0.8) => {
                        let addr = match rng.gen_range(0..4) {
                            0 => u32::from(start).wrapping_sub(1),
                            1 => u32::from(start),
                            2 => end.wrapping_sub(1),
                            _ => end,
                        };
                        (cta, addr as u16)
                    }
                    _ => (rng.gen_range(0..design.ctas), rng.gen()),
                });
        let input = EngineIn {
            cfg: if cycle >= first_config {
                script.pop_front()
            } else {
                None
            },
            load,
            req_ready: saxpy_phase || rng.gen_bool(0.8),
            resp,
        };
        let (v, o) = engine_vector(design, &mut model, &input);
        out.push(v);
        if let Some((c, tc, tb)) = o.chunk {
            if c.request.is_some() {
                outstanding.push((tc, tb));
                if first_request.is_none() {
                    first_request = Some(cycle);
                }
            }
        }
        cycle += 1;
        if saxpy_phase
            && cycle > first_config
            && script.is_empty()
            && outstanding.is_empty()
            && model.ctrl.entries.iter().all(|s| !s.holds_transfer())
        {
            run.saxpy_cycles = cycle;
        }
    }
    // The first buffer's last command went in at cycle first_config + 2.
    run.config_to_first_request = first_request.map_or(0, |r| r - (first_config + 2));
    run.bound_waits = model.bound_waits;
    run.port_waits = model.port_waits;
    (out, run)
}
