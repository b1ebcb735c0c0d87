//! The RAW check's vectors (combinational): the SAXPY guards of Fig. 12, loads on every
//! guard's edges, then random guards and loads near their edges.

use super::super::cycle::{self, RawIn};
use super::super::raw_check::END_BITS;
use super::super::{D2maDesign, SHARED_BITS};
use super::{bit, num, packed, saxpy_buffer, D2maPlan};
use models::d2ma::entry::SHARED_SPACE;
use models::d2ma::Guard;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use testbenches::Vector;

fn vector(design: &D2maDesign, input: &RawIn) -> Vector {
    let e = design.entries();
    let (wait, release) = cycle::raw_check(design, input);
    Vector {
        inputs: vec![
            bit(input.load_valid),
            num(u64::from(input.load_cta), design.cta_bits()),
            num(u64::from(input.load_addr), SHARED_BITS),
            packed(input.guards.iter().map(|g| u64::from(g.in_flight)), e, 1),
            packed(
                input.guards.iter().map(|g| u64::from(g.start)),
                e,
                SHARED_BITS,
            ),
            packed(input.guards.iter().map(|g| u64::from(g.end)), e, END_BITS),
            bit(input.done.is_some()),
            num(u64::from(input.done.unwrap_or(0)), design.cta_bits()),
        ],
        expected: vec![bit(wait), num(release, design.ctas)],
    }
}

/// The RAW check's vectors: SAXPY's guards (Fig. 12), loads on their edges, then random ones.
pub fn vectors(design: &D2maDesign, plan: &D2maPlan, rng: &mut ChaCha8Rng) -> Vec<Vector> {
    let e = design.entries() as usize;
    let b = design.buffers as usize;
    let idle = Guard {
        start: 0,
        end: 0,
        in_flight: false,
    };
    // SAXPY (Fig. 12): CTAs 0 and 1 each buffer x and y, 256 floats apiece, in their own
    // quarter of shared memory.
    let mut saxpy = vec![idle; e];
    for cta in 0..design.ctas.min(2) as usize {
        for buf in 0..b.min(2) {
            let vector = saxpy_buffer(cta as u32, buf as u32);
            saxpy[cta * b + buf] = Guard::of(&vector, true);
        }
    }
    let mut out = Vec::new();
    let mut load = |guards: &[Guard], cta: u32, addr: u16, done: Option<u32>| {
        out.push(vector(
            design,
            &RawIn {
                load_valid: true,
                load_cta: cta,
                load_addr: addr,
                guards: guards.to_vec(),
                done,
            },
        ));
    };
    for cta in 0..design.ctas.min(2) {
        for addr in [
            0u16, 0x3fc, 0x400, 0x7fc, 0x800, 0xbfc, 0xc00, 0xffc, 0x1000, 0xffff,
        ] {
            load(&saxpy, cta, addr, None);
        }
    }
    // x of CTA 0 completes: its warps are released, its loads go, y's still wait.
    let mut after = saxpy.clone();
    after[0].in_flight = false;
    load(&after, 0, 0x10, Some(0));
    load(&after, 0, 0x410, None);
    // Random guards, loads on and beside their edges, and random completions.
    for _ in 0..plan.random {
        let guards: Vec<Guard> = (0..e)
            .map(|_| {
                let start = rng.gen_range(0..SHARED_SPACE as u32);
                let end = (start + rng.gen_range(0..4096)).min(SHARED_SPACE as u32);
                Guard {
                    start,
                    end,
                    in_flight: rng.gen_bool(0.6),
                }
            })
            .collect();
        let g = guards[rng.gen_range(0..e)];
        let addr = match rng.gen_range(0..5) {
            0 => g.start.wrapping_sub(1),
            1 => g.start,
            2 => g.end.wrapping_sub(1),
            3 => g.end,
            _ => rng.gen_range(0..SHARED_SPACE as u32),
        } as u16;
        let input = RawIn {
            load_valid: rng.gen_bool(0.9),
            load_cta: rng.gen_range(0..1 << design.cta_bits()),
            load_addr: addr,
            guards,
            done: rng.gen_bool(0.3).then(|| rng.gen_range(0..design.ctas)),
        };
        out.push(vector(design, &input));
    }
    out
}
