//! The controller array's vectors (one a cycle): random configuration commands, mostly parts
//! of valid entries, sometimes any bits (parts in any order, writes to busy entries, part code
//! 3), ignitions, completions and reads.

use super::super::cycle::{ControllerIn, ControllerModel};
use super::super::raw_check::END_BITS;
use super::super::{D2maDesign, CFG_DATA_BITS, PART_BITS, SHARED_BITS};
use super::{bit, entry_bits, num, packed, random_entry, D2maPlan};
use models::d2ma::{BufferEntry, Part};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use testbenches::Vector;

/// The controller array's vectors, one a cycle: random configuration commands, ignitions,
/// completions and reads.
pub fn vectors(design: &D2maDesign, plan: &D2maPlan, rng: &mut ChaCha8Rng) -> Vec<Vector> {
    let (cb, bb, e) = (design.cta_bits(), design.buf_bits(), design.entries());
    let mut model = ControllerModel::new(design);
    let pool: Vec<BufferEntry> = (0..16).map(|_| random_entry(rng)).collect();
    let mut out = Vec::with_capacity(plan.random);
    for _ in 0..plan.random {
        let pick = |rng: &mut ChaCha8Rng| {
            (
                rng.gen_range(0..design.ctas),
                rng.gen_range(0..design.buffers),
            )
        };
        let cfg = rng.gen_bool(0.6).then(|| {
            let (c, b) = pick(rng);
            let part = if rng.gen_bool(0.05) {
                3
            } else {
                rng.gen_range(0..3)
            };
            // Now and then any bits (fields out of range, invalid entries): the array stores
            // and guards them as `cycle::stored` and `cycle::hw_guard_end` say.
            let data = match Part::ALL.get(part as usize) {
                Some(&p) if rng.gen_bool(0.9) => pool[rng.gen_range(0..pool.len())].part_value(p),
                _ => rng.gen(),
            };
            (c, b, part, data)
        });
        let ignite = rng.gen_bool(0.3).then(|| pick(rng));
        let done = rng.gen_bool(0.2).then(|| pick(rng));
        let input = ControllerIn {
            cfg,
            ignite,
            done,
            read: pick(rng),
        };
        let o = model.step(&input);
        let (cc, cbuf, cpart, cdata) = cfg.unwrap_or((0, 0, 0, 0));
        let (ic, ib) = ignite.unwrap_or((0, 0));
        let (dc, db) = done.unwrap_or((0, 0));
        out.push(Vector {
            inputs: vec![
                bit(cfg.is_some()),
                num(cc.into(), cb),
                num(cbuf.into(), bb),
                num(cpart.into(), PART_BITS),
                num(cdata, CFG_DATA_BITS),
                bit(ignite.is_some()),
                num(ic.into(), cb),
                num(ib.into(), bb),
                bit(done.is_some()),
                num(dc.into(), cb),
                num(db.into(), bb),
                num(input.read.0.into(), cb),
                num(input.read.1.into(), bb),
            ],
            expected: vec![
                packed(o.ready.iter().map(|&v| u64::from(v)), e, 1),
                packed(o.busy.iter().map(|&v| u64::from(v)), e, 1),
                packed(o.start.iter().map(|&v| u64::from(v)), e, SHARED_BITS),
                packed(o.end.iter().map(|&v| u64::from(v)), e, END_BITS),
                entry_bits(&o.read),
                bit(o.read_valid),
            ],
        });
    }
    out
}
