//! The cycle-level stimulus of a shared memory and the outputs the cycle model
//! (`models::smem::cycle`) expects, one vector a cycle: every output is checked before every
//! rising edge, so every response's data and cycle, every ready and every counter match.
//!
//! The phases, in order (each runs until its accesses are taken; the pipeline is not drained
//! between them):
//! 1. every word written by full-warp writes (the memory starts defined; memories of more than
//!    [`WINDOW`] words are addressed below it);
//! 2. back-to-back conflict-free reads, one a cycle;
//! 3. the RAP paper's patterns (contiguous, stride, diagonal, random) on `w x w` matrices at
//!    several `w`, reads and writes;
//! 4. back-pressure: `resp_ready_i` low most cycles;
//! 5. read-after-write to one word, back to back, lanes writing different bytes of it;
//! 6. partial warps (a few lanes, none);
//! 7. fill beats racing warp accesses to the same words;
//! 8. random accesses (random masks, broadcasts and conflicts from small address pools,
//!    strides, reads and writes with random byte enables, idle gaps, random back-pressure)
//!    with random fill beats;
//! 9. map writes (a configurable hash reprogrammed, RAP table entries rewritten) amid the
//!    accesses still in flight, then every word written again under the new map and random
//!    accesses;
//!
//! then a drain until the pipeline is empty. Payloads of ports not valid are random, so the
//! RTL is shown to ignore them.

use super::design::SmemDesign;
use models::rap::ShiftLayout;
use models::smem::cycle::{CycleModel, Inputs, Outputs};
use models::smem::{Access, Lane, Map};
use models::software::SoftwareIndex;
use models::{Geometry, HashConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use testbenches::{Bits, Harness, Vector};

/// How many random accesses to draw and from which seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmemPlan {
    /// Seed of the ChaCha8 generator.
    pub seed: u64,
    /// Random warp accesses in phase 8.
    pub random: usize,
}

impl Default for SmemPlan {
    fn default() -> Self {
        Self {
            seed: 1,
            random: 200,
        }
    }
}

/// A map written at one edge: the map the model takes, and the values of the RTL's write ports.
///
/// The Vortex interface (`super::vortex_vectors`) writes the same values through its DCR bus.
#[derive(Debug, Clone)]
pub struct MapWrite {
    /// The map after the write.
    pub map: Map,
    /// Port values (`cfg_we_i`, `cfg_i` or `perm_we_i`, `perm_idx_i`, `perm_val_i`).
    pub ports: Vec<(String, Bits)>,
}

/// One phase: warp accesses and fill beats, each after an idle gap, the chance that
/// `resp_ready_i` is high in a cycle, and map writes at the phase's first edges.
#[derive(Debug, Clone, Default)]
pub(super) struct Phase {
    pub(super) warp: Vec<(u32, Access)>,
    pub(super) fill: Vec<(u32, Access)>,
    pub(super) ready: f64,
    pub(super) map_writes: Vec<MapWrite>,
}

/// What the vectors hold, for the manifest's coverage text.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Warp accesses.
    pub accesses: usize,
    /// Fill beats.
    pub fills: usize,
    /// Map writes.
    pub map_writes: usize,
    /// Cycles (vectors).
    pub cycles: usize,
}

impl Summary {
    /// The coverage text of the testbench (the manifest and the summary line quote it).
    pub fn coverage(&self) -> String {
        format!(
            "every word written, back-to-back reads, the RAP paper's patterns at several sizes, \
             back-pressure, read-after-write to one word, partial warps, fill beats racing warp \
             accesses, random accesses, map writes: {} warp accesses, {} fill beats, {} map \
             writes, {} cycles",
            self.accesses, self.fills, self.map_writes, self.cycles
        )
    }
}

/// Drives the model one cycle at a time and records each cycle as a vector.
pub struct Driver<'a> {
    design: &'a SmemDesign,
    model: CycleModel,
    rng: ChaCha8Rng,
    harness: Harness,
    vectors: Vec<Vector>,
}

impl<'a> Driver<'a> {
    /// The memory after reset, with the ports of `harness`.
    pub fn new(design: &'a SmemDesign, harness: Harness, seed: u64) -> Self {
        Self {
            design,
            model: design.cycle_model(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            harness,
            vectors: Vec::new(),
        }
    }

    /// The vectors recorded so far.
    pub fn into_vectors(self) -> Vec<Vector> {
        self.vectors
    }

    fn junk(&mut self, width: u32) -> Bits {
        junk(&mut self.rng, width)
    }

    /// The RTL values of one port's lanes (`mask`, `addr`, `wdata`, `be`) for `access`
    /// (random payload for inactive lanes, everything random without an access).
    fn lanes(&mut self, access: Option<&Access>, lanes: u32) -> [Bits; 4] {
        let s = self.design.shape();
        let (n, w, bytes) = (s.addr_bits(), s.word_bits(), s.word_bytes());
        let mut mask = self.junk(lanes);
        let mut addr = self.junk(lanes * n);
        let mut data = self.junk(lanes * w);
        let mut be = self.junk(lanes * bytes);
        if let Some(access) = access {
            for i in 0..lanes {
                let lane = access.lanes.get(i as usize).copied().flatten();
                mask.set_bit(i as usize, lane.is_some());
                if let Some(l) = lane {
                    addr.set_field((i * n) as usize, n as usize, l.addr);
                    if access.write {
                        data.set_field((i * w) as usize, w as usize, l.data);
                        be.set_field((i * bytes) as usize, bytes as usize, u64::from(l.be));
                    }
                }
            }
        }
        [mask, addr, data, be]
    }

    /// One cycle: presents the inputs, records the vector, returns the model's outputs.
    pub fn cycle(
        &mut self,
        warp: Option<&Access>,
        fill: Option<&Access>,
        resp_ready: bool,
        write: Option<&MapWrite>,
    ) -> Outputs {
        let s = self.design.shape();
        let out = self.model.step(&Inputs {
            request: warp.cloned(),
            fill: fill.cloned(),
            resp_ready,
            new_map: write.map(|w| w.map.clone()),
        });
        let mut values: BTreeMap<String, Bits> = BTreeMap::new();
        let bit = |v: bool| Bits::from_u64(u64::from(v), 1);
        values.insert("req_valid_i".into(), bit(warp.is_some()));
        let write_flag = warp.map_or_else(|| self.rng.gen(), |a| a.write);
        values.insert("req_write_i".into(), bit(write_flag));
        let [mask, addr, data, be] = self.lanes(warp, s.lanes());
        values.insert("req_mask_i".into(), mask);
        values.insert("req_addr_i".into(), addr);
        values.insert("req_wdata_i".into(), data);
        values.insert("req_be_i".into(), be);
        values.insert("fill_valid_i".into(), bit(fill.is_some()));
        let [mask, addr, data, be] = self.lanes(fill, self.design.fill_words());
        values.insert("fill_mask_i".into(), mask);
        values.insert("fill_addr_i".into(), addr);
        values.insert("fill_data_i".into(), data);
        values.insert("fill_be_i".into(), be);
        values.insert("resp_ready_i".into(), bit(resp_ready));
        for port in ["cfg_we_i", "perm_we_i"] {
            values.insert(port.into(), bit(write.is_some()));
        }
        if let Some(w) = write {
            values.extend(w.ports.iter().cloned());
        }
        let inputs: Vec<Bits> = self
            .harness
            .inputs
            .clone()
            .iter()
            .map(|p| {
                values
                    .remove(&p.name)
                    .unwrap_or_else(|| self.junk(p.width as u32))
            })
            .collect();
        let expected = self.expected(&out);
        self.vectors.push(Vector { inputs, expected });
        out
    }

    /// The checked outputs of one cycle, in the harness's order.
    fn expected(&self, out: &Outputs) -> Vec<Bits> {
        let s = self.design.shape();
        let w = s.word_bits();
        let cb = self.design.counter_bits();
        let count = |v: u64| Bits::from_u64(v & models::geometry::low_mask(cb), cb as usize);
        let bit = |v: bool| Bits::from_u64(u64::from(v), 1);
        let mut rdata = Bits::zero((s.lanes() * w) as usize);
        if let Some(r) = &out.response {
            for (i, &word) in r.data.iter().enumerate() {
                rdata.set_field(i * w as usize, w as usize, word);
            }
        }
        let c = out.counters;
        self.harness
            .outputs
            .iter()
            .map(|p| match p.name.as_str() {
                "req_ready_o" => bit(out.req_ready),
                "fill_ready_o" => bit(out.fill_ready),
                "resp_valid_o" => bit(out.response.is_some()),
                "resp_write_o" => bit(out.response.as_ref().is_some_and(|r| r.write)),
                "resp_rdata_o" => rdata.clone(),
                "cnt_accesses_o" => count(c.accesses),
                "cnt_fills_o" => count(c.fills),
                "cnt_bank_cycles_o" => count(c.bank_cycles),
                "cnt_conflict_cycles_o" => count(c.conflict_cycles),
                other => unreachable!("no expected value for output {other}"),
            })
            .collect()
    }

    /// Runs a phase until all its accesses and beats are taken.
    fn run(&mut self, phase: Phase) {
        let mut warp = phase.warp.into_iter();
        let mut fill = phase.fill.into_iter();
        let mut writes = phase.map_writes.into_iter();
        let mut cur_w = warp.next();
        let mut cur_f = fill.next();
        let mut write = writes.next();
        while cur_w.is_some() || cur_f.is_some() || write.is_some() {
            let show_w = cur_w
                .as_ref()
                .filter(|(gap, _)| *gap == 0)
                .map(|(_, a)| a.clone());
            let show_f = cur_f
                .as_ref()
                .filter(|(gap, _)| *gap == 0)
                .map(|(_, a)| a.clone());
            let ready = self.rng.gen_bool(phase.ready);
            let out = self.cycle(show_w.as_ref(), show_f.as_ref(), ready, write.as_ref());
            write = writes.next();
            match &mut cur_w {
                Some((gap, _)) if *gap > 0 => *gap -= 1,
                Some(_) if out.req_ready => cur_w = warp.next(),
                _ => {}
            }
            match &mut cur_f {
                Some((gap, _)) if *gap > 0 => *gap -= 1,
                Some(_) if out.fill_ready => cur_f = fill.next(),
                _ => {}
            }
        }
    }

    /// Cycles with `resp_ready_i` high and nothing presented until the pipeline is empty, then
    /// two more.
    pub fn drain(&mut self) {
        while !self.model.idle() {
            self.cycle(None, None, true, None);
        }
        self.cycle(None, None, true, None);
        self.cycle(None, None, true, None);
    }
}

/// `width` random bits: the payload of a port that is not valid.
pub(super) fn junk(rng: &mut ChaCha8Rng, width: u32) -> Bits {
    let mut b = Bits::zero(width as usize);
    for lsb in (0..width).step_by(64) {
        let w = (width - lsb).min(64);
        let v = rng.gen::<u64>() & models::geometry::low_mask(w);
        b.set_field(lsb as usize, w as usize, v);
    }
    b
}

/// Random accesses and phases, drawn from one generator.
pub(super) struct Scenarios<'a> {
    design: &'a SmemDesign,
    pub(super) rng: ChaCha8Rng,
}

/// The most words the testbench addresses (all of smaller memories): the words below this
/// address, written first, so that every read finds a defined word, and the vectors stay
/// bounded whatever the depth.
pub const WINDOW: u64 = 16384;

impl<'a> Scenarios<'a> {
    /// The phases' generator for `design`, seeded.
    pub(super) fn new(design: &'a SmemDesign, seed: u64) -> Self {
        Self {
            design,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Phases 1 to 9 (phase 9 for maps written at run time), `random` accesses in phase 8.
    pub(super) fn phases(&mut self, random: usize) -> Vec<Phase> {
        let mut phases = vec![
            self.prologue(),
            self.back_to_back(),
            self.paper_patterns(),
            self.back_pressure(),
            self.read_after_write(),
            self.partial(),
            self.fill_race(),
            self.random(random),
        ];
        phases.extend(self.map_change(24));
        phases
    }

    /// The addresses the testbench uses: `0..words`.
    pub(super) fn words(&self) -> u64 {
        self.design.shape().words().min(WINDOW)
    }

    pub(super) fn data(&mut self) -> u64 {
        self.rng.gen::<u64>() & self.design.shape().word_mask()
    }

    fn full_be(&self) -> u8 {
        (models::geometry::low_mask(self.design.shape().word_bytes()) & 0xff) as u8
    }

    pub(super) fn be(&mut self) -> u8 {
        if self.rng.gen_bool(0.6) {
            self.full_be()
        } else {
            self.rng.gen::<u8>() & self.full_be()
        }
    }

    /// An access of `addrs` (lane `i` at `addrs[i]`, `None` inactive), random data and byte
    /// enables for a write.
    fn access(&mut self, write: bool, addrs: &[Option<u64>]) -> Access {
        let lanes = addrs
            .iter()
            .map(|a| {
                a.map(|addr| {
                    if write {
                        Lane {
                            addr,
                            data: self.data(),
                            be: self.be(),
                        }
                    } else {
                        Lane {
                            addr,
                            ..Lane::default()
                        }
                    }
                })
            })
            .collect();
        Access { write, lanes }
    }

    fn all(addrs: impl IntoIterator<Item = u64>) -> Vec<Option<u64>> {
        addrs.into_iter().map(Some).collect()
    }

    /// Phase 1 (and after a map write): every word of the window written, full warps of
    /// consecutive words, all bytes.
    pub(super) fn prologue(&mut self) -> Phase {
        let lanes = self.design.shape().lanes() as usize;
        let be = self.full_be();
        let words: Vec<u64> = (0..self.words()).collect();
        let warp = words
            .chunks(lanes)
            .map(|chunk| {
                let mut a = self.access(true, &Self::all(chunk.iter().copied()));
                a.lanes.iter_mut().flatten().for_each(|l| l.be = be);
                (0, a)
            })
            .collect();
        Phase {
            warp,
            ready: 1.0,
            ..Phase::default()
        }
    }

    /// `lanes` consecutive words from `base`, wrapping at the window's end.
    fn run_of(&self, base: u64) -> Vec<Option<u64>> {
        let lanes = u64::from(self.design.shape().lanes());
        Self::all((base..base + lanes).map(|a| a % self.words()))
    }

    /// Phase 2: 16 full-warp reads of consecutive words, back to back.
    fn back_to_back(&mut self) -> Phase {
        let lanes = u64::from(self.design.shape().lanes());
        let warp = (0..16u64)
            .map(|k| (0, self.access(false, &self.run_of(k * 7 * lanes))))
            .collect();
        Phase {
            warp,
            ready: 1.0,
            ..Phase::default()
        }
    }

    /// Phase 3: the RAP paper's patterns on `w x w` matrices stored row-major from word 0, for
    /// `w` = lanes / 2, lanes and 2 lanes where the memory holds the matrix; the warp's threads
    /// take the first `min(w, lanes)` elements of the pattern.
    fn paper_patterns(&mut self) -> Phase {
        let lanes = u64::from(self.design.shape().lanes());
        let mut warp = Vec::new();
        for w in [lanes / 2, lanes, 2 * lanes] {
            if w < 2 || w * w > self.words() {
                continue;
            }
            let threads = w.min(lanes);
            for pattern in 0..4 {
                for rep in 0..3 {
                    let fixed = self.rng.gen_range(0..w);
                    let addrs: Vec<u64> = (0..threads)
                        .map(|t| match pattern {
                            0 => fixed * w + t,
                            1 => t * w + fixed,
                            2 => t * w + (fixed + t) % w,
                            _ => self.rng.gen_range(0..w * w),
                        })
                        .collect();
                    let write = rep == 2;
                    warp.push((0, self.access(write, &Self::all(addrs))));
                }
            }
        }
        Phase {
            warp,
            ready: 1.0,
            ..Phase::default()
        }
    }

    /// Phase 4: 16 accesses (a quarter of them writes) of random consecutive words with
    /// `resp_ready_i` high 30% of cycles.
    fn back_pressure(&mut self) -> Phase {
        let warp = (0..16)
            .map(|_| {
                let base = self.rng.gen_range(0..self.words());
                let write = self.rng.gen_bool(0.25);
                (0, self.access(write, &self.run_of(base)))
            })
            .collect();
        Phase {
            warp,
            ready: 0.3,
            ..Phase::default()
        }
    }

    /// Phase 5: four times, every lane writes one word (random bytes each: the highest lane
    /// wins each byte) and the next access reads it back, with a second word in half the lanes.
    fn read_after_write(&mut self) -> Phase {
        let lanes = self.design.shape().lanes() as usize;
        let mut warp = Vec::new();
        for _ in 0..4 {
            let word = self.rng.gen_range(0..self.words());
            let other = self.rng.gen_range(0..self.words());
            let write = self.access(true, &vec![Some(word); lanes]);
            let reads: Vec<Option<u64>> = (0..lanes)
                .map(|i| Some(if i % 2 == 0 { word } else { other }))
                .collect();
            warp.push((0, write));
            warp.push((0, self.access(false, &reads)));
        }
        Phase {
            warp,
            ready: 1.0,
            ..Phase::default()
        }
    }

    /// Random lanes of a warp active, each with probability `p`.
    fn mask(&mut self, p: f64) -> Vec<bool> {
        let lanes = self.design.shape().lanes();
        (0..lanes).map(|_| self.rng.gen_bool(p)).collect()
    }

    /// Phase 6: partial warps: a few lanes, single lanes, no lane.
    fn partial(&mut self) -> Phase {
        let mut warp = Vec::new();
        for k in 0..12 {
            let p = [0.1, 0.25, 0.0, 0.05][k % 4];
            let mask = self.mask(p);
            let addrs: Vec<Option<u64>> = mask
                .iter()
                .map(|&on| on.then(|| self.rng.gen_range(0..self.words())))
                .collect();
            let write = k % 3 == 1;
            warp.push((0, self.access(write, &addrs)));
        }
        Phase {
            warp,
            ready: 1.0,
            ..Phase::default()
        }
    }

    /// A random fill beat within words `base..base + span`.
    fn beat(&mut self, base: u64, span: u64) -> Access {
        let f = self.design.fill_words();
        let addrs: Vec<Option<u64>> = (0..f)
            .map(|_| {
                self.rng
                    .gen_bool(0.8)
                    .then(|| base + self.rng.gen_range(0..span))
            })
            .collect();
        self.access(true, &addrs)
    }

    /// Phase 7: fill beats and warp reads of the same 2 x lanes words, both presented every
    /// cycle (the ports alternate), `resp_ready_i` high 80% of cycles.
    fn fill_race(&mut self) -> Phase {
        let lanes = u64::from(self.design.shape().lanes());
        let span = (2 * lanes).min(self.words());
        let base = self.rng.gen_range(0..=self.words() - span);
        let fill = (0..12).map(|_| (0, self.beat(base, span))).collect();
        let warp = (0..12)
            .map(|_| {
                let addrs: Vec<u64> = (0..lanes)
                    .map(|_| base + self.rng.gen_range(0..span))
                    .collect();
                (0, self.access(false, &Self::all(addrs)))
            })
            .collect();
        Phase {
            warp,
            fill,
            ready: 0.8,
            ..Phase::default()
        }
    }

    /// One random access: a full, partial, sparse or empty mask; uniform addresses, a small
    /// pool (broadcasts and conflicts) or a stride; read or write.
    pub(super) fn random_access(&mut self) -> Access {
        let s = self.design.shape();
        let words = self.words();
        let p = [1.0, 1.0, 0.6, 0.2, 0.0][self.rng.gen_range(0..5)];
        let mask = self.mask(p);
        let pool: Vec<u64> = (0..self.rng.gen_range(1..=6))
            .map(|_| self.rng.gen_range(0..words))
            .collect();
        let strides = [
            1,
            2,
            3,
            s.banks() / 2,
            s.banks(),
            s.banks() + 1,
            2 * s.banks(),
        ];
        let stride = u64::from(strides[self.rng.gen_range(0..strides.len())]);
        let base = self.rng.gen_range(0..words);
        let kind = self.rng.gen_range(0..3);
        let addrs: Vec<Option<u64>> = mask
            .iter()
            .enumerate()
            .map(|(t, &on)| {
                on.then(|| match kind {
                    0 => self.rng.gen_range(0..words),
                    1 => pool[self.rng.gen_range(0..pool.len())],
                    _ => (base + stride * t as u64) % words,
                })
            })
            .collect();
        let write = self.rng.gen_bool(0.4);
        self.access(write, &addrs)
    }

    /// Phase 8: `count` random accesses with idle gaps, random fill beats, `resp_ready_i` high
    /// 70% of cycles.
    fn random(&mut self, count: usize) -> Phase {
        let gap = |rng: &mut ChaCha8Rng| {
            if rng.gen_bool(0.7) {
                0
            } else {
                rng.gen_range(1..=3)
            }
        };
        let warp = (0..count)
            .map(|_| (gap(&mut self.rng), self.random_access()))
            .collect();
        let fill = (0..count / 4)
            .map(|_| {
                let base = self.rng.gen_range(0..self.words());
                let span = self.words() - base;
                (gap(&mut self.rng), self.beat(base, span))
            })
            .collect();
        Phase {
            warp,
            fill,
            ready: 0.7,
            ..Phase::default()
        }
    }

    /// Phase 9: map writes, then, once they are done, the window written again under the new
    /// map and random accesses (for maps with a register).
    fn map_change(&mut self, count: usize) -> Option<Phase> {
        let map_writes = self.map_writes();
        if map_writes.is_empty() {
            return None;
        }
        let mut warp = self.prologue().warp;
        warp[0].0 = map_writes.len() as u32;
        warp.extend((0..count).map(|_| (0, self.random_access())));
        Some(Phase {
            warp,
            ready: 0.9,
            map_writes,
            ..Phase::default()
        })
    }

    /// The writes of a map change: a random full-rank configuration of a configurable hash's
    /// kind; three random entries of a loadable RAP table (the map becomes RAS).
    fn map_writes(&mut self) -> Vec<MapWrite> {
        let s = self.design.shape();
        let bits = |v: u64, w: u32| Bits::from_u64(v, w as usize);
        if self.design.configurable() {
            let index = self
                .design
                .software_index()
                .unwrap_or_else(|| unreachable!("a configurable map is a hash"));
            let g = Geometry::new(s.addr_bits(), u64::from(s.banks()))
                .unwrap_or_else(|e| unreachable!("{e}"));
            let config = loop {
                let c = HashConfig::random(index.config().kind(), g, &mut self.rng);
                if c.check_full_rank().is_ok() {
                    break c;
                }
            };
            let index = SoftwareIndex::new(&config).unwrap_or_else(|e| unreachable!("{e}"));
            let value = self.design.cfg_value(&index);
            return vec![MapWrite {
                map: Map::Hash(index),
                ports: vec![("cfg_i".into(), value)],
            }];
        }
        if !self.design.loadable() {
            return Vec::new();
        }
        let Map::Shift(layout) = self.design.reset_map() else {
            unreachable!("a loadable map is RAP")
        };
        let w = s.banks();
        let m = s.bank_bits();
        let mut shifts = layout.shifts().to_vec();
        (0..3)
            .map(|_| {
                let row = self.rng.gen_range(0..w);
                let value = self.rng.gen_range(0..w);
                shifts[row as usize] = value;
                MapWrite {
                    map: Map::Shift(ShiftLayout::ras(shifts.clone())),
                    ports: vec![
                        ("perm_idx_i".into(), bits(u64::from(row), m)),
                        ("perm_val_i".into(), bits(u64::from(value), m)),
                    ],
                }
            })
            .collect()
    }
}

/// The vectors of `design` under `plan` for the ports of `harness`, and what they hold.
pub fn vectors(design: &SmemDesign, harness: &Harness, plan: &SmemPlan) -> (Vec<Vector>, Summary) {
    let phases = Scenarios::new(design, plan.seed).phases(plan.random);
    let summary = Summary {
        accesses: phases.iter().map(|p| p.warp.len()).sum(),
        fills: phases.iter().map(|p| p.fill.len()).sum(),
        map_writes: phases.iter().map(|p| p.map_writes.len()).sum(),
        cycles: 0,
    };
    let mut driver = Driver::new(design, harness.clone(), plan.seed ^ 0x5eed);
    for phase in phases {
        driver.run(phase);
    }
    driver.drain();
    let vectors = driver.into_vectors();
    let cycles = vectors.len();
    (vectors, Summary { cycles, ..summary })
}
