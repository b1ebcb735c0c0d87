//! The cycle-level stimulus of a memory behind the Vortex interface and the outputs
//! `models::smem::lanes` expects, one vector a cycle: every output (each lane's ready, each
//! lane's response with its word and tag, every counter) is checked before every rising edge.
//!
//! The phases are the native testbench's (`super::vectors`: every word written, back-to-back
//! reads, the RAP paper's patterns, back-pressure, read-after-write with merged bytes, partial
//! warps, random accesses, map writes), each warp access presented as Vortex's
//! `VX_stream_unpack` presents it (all its lanes at once, each lane until it is taken), with a
//! random tag per lane, `rsp_ready` drawn per lane and cycle, and a map written through the
//! DCR bus (a configurable hash's register a 32-bit word at a time, between two writes to
//! addresses outside the range). A configurable map's register has no reset: the vectors start
//! by writing the given configuration, as Vortex's host does before a launch. Then two phases
//! of the interface's own: warps whose lanes mix reads and writes (the gather takes the lowest
//! lane's kind first: partial grants), and independent lane traffic (every lane its own queue
//! of requests with its own gaps). Payloads of lanes that are not valid are random.

use super::design::{SmemDesign, DCR_ADDR_BITS, DCR_BASE, DCR_DATA_BITS};
use super::vectors::{junk, MapWrite, Phase, Scenarios, SmemPlan};
use models::smem::lanes::{Inputs, LaneModel, Outputs, Request};
use models::smem::{Access, Map};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, VecDeque};
use testbenches::{Bits, Harness, Vector};

/// A DCR write at one edge, and the map the model takes from it (the last word of a new
/// configuration, or a RAP table entry).
#[derive(Debug, Clone)]
struct DcrWrite {
    addr: u32,
    data: u64,
    map: Option<Map>,
}

/// How a phase presents its requests.
#[derive(Debug, Clone)]
enum Traffic {
    /// Warp accesses, each after its gap: all its lanes presented together, each until it is
    /// taken, the next once all are.
    Warps(Vec<(u32, Vec<Option<Request>>)>),
    /// Every lane its own queue of requests, each after its own gap.
    Lanes(Vec<Vec<(u32, Request)>>),
}

/// One phase: its traffic, the chance that a lane's `rsp_ready` is high in a cycle, and DCR
/// writes at its first edges (the traffic's first gap covers them).
#[derive(Debug, Clone)]
struct LanePhase {
    traffic: Traffic,
    ready: f64,
    dcr: Vec<DcrWrite>,
}

/// What the vectors hold, for the manifest's coverage text.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Lane requests.
    pub requests: usize,
    /// DCR writes.
    pub dcr_writes: usize,
    /// Cycles (vectors).
    pub cycles: usize,
}

impl Summary {
    /// The coverage text of the testbench.
    pub fn coverage(&self) -> String {
        format!(
            "every word written, back-to-back reads, the RAP paper's patterns, back-pressure per \
             lane, read-after-write to one word, partial warps, random accesses, map writes \
             through the DCR bus, warps mixing reads and writes (partial grants), independent \
             lane traffic, random tags: {} lane requests, {} DCR writes, {} cycles",
            self.requests, self.dcr_writes, self.cycles
        )
    }
}

/// Drives the model one cycle at a time and records each cycle as a vector.
struct Driver<'a> {
    design: &'a SmemDesign,
    model: LaneModel,
    rng: ChaCha8Rng,
    harness: Harness,
    vectors: Vec<Vector>,
}

impl Driver<'_> {
    fn lanes(&self) -> usize {
        self.design.shape().lanes() as usize
    }

    /// One cycle: presents the inputs, records the vector, returns the model's outputs.
    fn cycle(
        &mut self,
        requests: &[Option<Request>],
        ready: f64,
        dcr: Option<&DcrWrite>,
    ) -> Outputs {
        let s = self.design.shape();
        let (n, w, bytes) = (s.addr_bits(), s.word_bits(), s.word_bytes());
        let t = self.design.vortex_tag_bits().unwrap_or(1);
        let rsp_ready: Vec<bool> = (0..self.lanes())
            .map(|_| self.rng.gen_bool(ready))
            .collect();
        let out = self.model.step(&Inputs {
            requests: requests.to_vec(),
            rsp_ready: rsp_ready.clone(),
            new_map: dcr.and_then(|d| d.map.clone()),
        });
        let lanes = self.lanes() as u32;
        let mut valid = Bits::zero(lanes as usize);
        let mut rw = junk(&mut self.rng, lanes);
        let mut addr = junk(&mut self.rng, lanes * n);
        let mut data = junk(&mut self.rng, lanes * w);
        let mut be = junk(&mut self.rng, lanes * bytes);
        let mut tag = junk(&mut self.rng, lanes * t);
        for (i, r) in requests.iter().enumerate() {
            let Some(r) = r else { continue };
            let i32 = i as u32;
            valid.set_bit(i, true);
            rw.set_bit(i, r.write);
            addr.set_field((i32 * n) as usize, n as usize, r.addr);
            tag.set_field((i32 * t) as usize, t as usize, r.tag);
            if r.write {
                data.set_field((i32 * w) as usize, w as usize, r.data);
                be.set_field((i32 * bytes) as usize, bytes as usize, u64::from(r.be));
            }
        }
        let bools = |flags: &[bool]| {
            let mut b = Bits::zero(flags.len());
            for (i, &f) in flags.iter().enumerate() {
                b.set_bit(i, f);
            }
            b
        };
        let mut values: BTreeMap<&str, Bits> = BTreeMap::from([
            ("req_valid_i", valid),
            ("req_rw_i", rw),
            ("req_addr_i", addr),
            ("req_data_i", data),
            ("req_byteen_i", be),
            ("req_tag_i", tag),
            ("rsp_ready_i", bools(&rsp_ready)),
            ("dcr_valid_i", Bits::from_u64(u64::from(dcr.is_some()), 1)),
        ]);
        if let Some(d) = dcr {
            let addr = Bits::from_u64(u64::from(d.addr), DCR_ADDR_BITS as usize);
            values.insert("dcr_addr_i", addr);
            values.insert("dcr_data_i", Bits::from_u64(d.data, DCR_DATA_BITS as usize));
        }
        let inputs: Vec<Bits> = self
            .harness
            .inputs
            .clone()
            .iter()
            .map(|p| {
                values
                    .remove(p.name.as_str())
                    .unwrap_or_else(|| junk(&mut self.rng, p.width as u32))
            })
            .collect();
        let expected = self.expected(&out, &bools);
        self.vectors.push(Vector { inputs, expected });
        out
    }

    /// The checked outputs of one cycle, in the harness's order.
    fn expected(&self, out: &Outputs, bools: &dyn Fn(&[bool]) -> Bits) -> Vec<Bits> {
        let s = self.design.shape();
        let (lanes, w) = (s.lanes(), s.word_bits());
        let t = self.design.vortex_tag_bits().unwrap_or(1);
        let cb = self.design.counter_bits();
        let count = |v: u64| Bits::from_u64(v & models::geometry::low_mask(cb), cb as usize);
        let mut data = Bits::zero((lanes * w) as usize);
        let mut tags = Bits::zero((lanes * t) as usize);
        let shown: Vec<bool> = out.responses.iter().map(Option::is_some).collect();
        for (i, r) in out.responses.iter().enumerate() {
            if let Some(r) = r {
                data.set_field(i * w as usize, w as usize, r.data);
                tags.set_field(i * t as usize, t as usize, r.tag);
            }
        }
        let c = out.counters;
        self.harness
            .outputs
            .iter()
            .map(|p| match p.name.as_str() {
                "req_ready_o" => bools(&out.req_ready),
                "rsp_valid_o" => bools(&shown),
                "rsp_data_o" => data.clone(),
                "rsp_tag_o" => tags.clone(),
                "cnt_reads_o" => count(c.reads),
                "cnt_writes_o" => count(c.writes),
                "cnt_bank_stalls_o" => count(c.bank_stalls),
                "cnt_crsp_stalls_o" => count(c.crsp_stalls),
                "cnt_accesses_o" => count(c.accesses),
                "cnt_bank_cycles_o" => count(c.bank_cycles),
                "cnt_conflict_cycles_o" => count(c.conflict_cycles),
                "cnt_broadcast_reads_o" => count(c.broadcast_reads),
                other => unreachable!("no expected value for output {other}"),
            })
            .collect()
    }

    /// Runs a phase until all its requests are taken and its DCR writes made.
    fn run(&mut self, phase: LanePhase) {
        let mut dcr = phase.dcr.into_iter();
        let mut write = dcr.next();
        let idle = vec![None; self.lanes()];
        match phase.traffic {
            Traffic::Warps(warps) => {
                let mut warps = warps.into_iter();
                let mut current = warps.next();
                while current.is_some() || write.is_some() {
                    let shown = match &current {
                        Some((0, lanes)) => lanes.clone(),
                        _ => idle.clone(),
                    };
                    let out = self.cycle(&shown, phase.ready, write.as_ref());
                    write = dcr.next();
                    match &mut current {
                        Some((gap, _)) if *gap > 0 => *gap -= 1,
                        Some((_, lanes)) => {
                            for (lane, &taken) in lanes.iter_mut().zip(&out.req_ready) {
                                if taken {
                                    *lane = None;
                                }
                            }
                            if lanes.iter().all(Option::is_none) {
                                current = warps.next();
                            }
                        }
                        None => {}
                    }
                }
            }
            Traffic::Lanes(queues) => {
                let mut queues: Vec<VecDeque<(u32, Request)>> =
                    queues.into_iter().map(VecDeque::from).collect();
                while queues.iter().any(|q| !q.is_empty()) || write.is_some() {
                    let shown: Vec<Option<Request>> = queues
                        .iter()
                        .map(|q| q.front().filter(|(gap, _)| *gap == 0).map(|(_, r)| *r))
                        .collect();
                    let out = self.cycle(&shown, phase.ready, write.as_ref());
                    write = dcr.next();
                    for (q, &taken) in queues.iter_mut().zip(&out.req_ready) {
                        match q.front_mut() {
                            Some((gap, _)) if *gap > 0 => *gap -= 1,
                            Some(_) if taken => {
                                q.pop_front();
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }

    /// Cycles with every `rsp_ready` high and nothing presented until the memory is empty,
    /// then two more (the counters' registered counts add).
    fn drain(&mut self) {
        let idle = vec![None; self.lanes()];
        while !self.model.idle() {
            self.cycle(&idle, 1.0, None);
        }
        self.cycle(&idle, 1.0, None);
        self.cycle(&idle, 1.0, None);
    }
}

/// Draws the phases: the native testbench's, converted, and the interface's own.
struct LaneScenarios<'a> {
    design: &'a SmemDesign,
    scenarios: Scenarios<'a>,
}

impl LaneScenarios<'_> {
    fn tag(&mut self) -> u64 {
        let t = self.design.vortex_tag_bits().unwrap_or(1);
        self.scenarios.rng.gen::<u64>() & models::geometry::low_mask(t)
    }

    fn request(&mut self, write: bool, lane: models::smem::Lane) -> Request {
        Request {
            write,
            addr: lane.addr,
            data: lane.data,
            be: lane.be,
            tag: self.tag(),
        }
    }

    /// `access` as a warp of lane requests, each with a random tag.
    fn warp(&mut self, access: &Access) -> Vec<Option<Request>> {
        let lanes = self.design.shape().lanes() as usize;
        let mut out: Vec<Option<Request>> = access
            .lanes
            .iter()
            .map(|l| l.map(|l| self.request(access.write, l)))
            .collect();
        out.resize(lanes, None);
        out
    }

    /// The DCR writes of a configuration register value `value` (the model takes `map` at the
    /// last word), between two writes to addresses outside the range (Vortex's first DCR and
    /// the word after the range).
    fn dcr_writes(&mut self, value: &Bits, map: Option<Map>) -> Vec<DcrWrite> {
        let words = self.design.dcr_words();
        let outside = |k: u32, rng: &mut ChaCha8Rng| DcrWrite {
            addr: k,
            data: rng.gen::<u32>().into(),
            map: None,
        };
        let mut out = vec![outside(1, &mut self.scenarios.rng)];
        for k in 0..words {
            let lsb = (k * DCR_DATA_BITS) as usize;
            let width = (value.width() - lsb).min(DCR_DATA_BITS as usize);
            out.push(DcrWrite {
                addr: DCR_BASE + k,
                data: value.field(lsb, width),
                map: if k + 1 == words { map.clone() } else { None },
            });
        }
        out.push(outside(DCR_BASE + words, &mut self.scenarios.rng));
        out
    }

    /// The writes of a native map write through the DCR bus.
    fn map_write(&mut self, write: &MapWrite) -> Vec<DcrWrite> {
        let (_, value) = write
            .ports
            .iter()
            .find(|(p, _)| p == "cfg_i")
            .unwrap_or_else(|| unreachable!("a configurable hash's write"));
        self.dcr_writes(&value.clone(), Some(write.map.clone()))
    }

    /// The phase that programs the given configuration (the register has no reset), for a
    /// configurable map.
    fn program(&mut self) -> Option<LanePhase> {
        let index = self
            .design
            .software_index()
            .filter(|_| self.design.configurable())?;
        let value = self.design.cfg_value(&index);
        Some(LanePhase {
            traffic: Traffic::Warps(Vec::new()),
            ready: 1.0,
            dcr: self.dcr_writes(&value, None),
        })
    }

    /// A native phase as warps of lane requests, with its map writes through the DCR bus
    /// (its fill beats have no port here).
    fn convert(&mut self, phase: Phase) -> LanePhase {
        let dcr: Vec<DcrWrite> = phase
            .map_writes
            .iter()
            .flat_map(|w| self.map_write(w))
            .collect();
        let mut warps: Vec<(u32, Vec<Option<Request>>)> = phase
            .warp
            .iter()
            .map(|(gap, access)| (*gap, self.warp(access)))
            .collect();
        if let Some(first) = warps.first_mut().filter(|_| !dcr.is_empty()) {
            first.0 = dcr.len() as u32;
        }
        LanePhase {
            traffic: Traffic::Warps(warps),
            ready: phase.ready,
            dcr,
        }
    }

    /// Warps whose lanes each read or write one of a few words: the gather takes the lowest
    /// valid lane's kind first, the other lanes at a later edge.
    fn mixed_kinds(&mut self, count: usize) -> LanePhase {
        let lanes = self.design.shape().lanes();
        let words = self.scenarios.words();
        let warps = (0..count)
            .map(|_| {
                let pool: Vec<u64> = (0..3)
                    .map(|_| self.scenarios.rng.gen_range(0..words))
                    .collect();
                let warp = (0..lanes)
                    .map(|_| {
                        if self.scenarios.rng.gen_bool(0.2) {
                            return None;
                        }
                        let write = self.scenarios.rng.gen_bool(0.5);
                        let addr = pool[self.scenarios.rng.gen_range(0..pool.len())];
                        let lane = models::smem::Lane {
                            addr,
                            data: self.scenarios.data(),
                            be: self.scenarios.be(),
                        };
                        Some(self.request(write, lane))
                    })
                    .collect();
                (0, warp)
            })
            .collect();
        LanePhase {
            traffic: Traffic::Warps(warps),
            ready: 0.8,
            dcr: Vec::new(),
        }
    }

    /// Every lane its own queue of `count` random requests (reads and writes, uniform words
    /// or a small pool), each after a random gap.
    fn independent(&mut self, count: usize) -> LanePhase {
        let lanes = self.design.shape().lanes();
        let words = self.scenarios.words();
        let pool: Vec<u64> = (0..4)
            .map(|_| self.scenarios.rng.gen_range(0..words))
            .collect();
        let queues = (0..lanes)
            .map(|_| {
                (0..count)
                    .map(|_| {
                        let rng = &mut self.scenarios.rng;
                        let gap = if rng.gen_bool(0.6) {
                            0
                        } else {
                            rng.gen_range(1..=4)
                        };
                        let addr = if rng.gen_bool(0.5) {
                            pool[rng.gen_range(0..pool.len())]
                        } else {
                            rng.gen_range(0..words)
                        };
                        let write = rng.gen_bool(0.4);
                        let lane = models::smem::Lane {
                            addr,
                            data: self.scenarios.data(),
                            be: self.scenarios.be(),
                        };
                        (gap, self.request(write, lane))
                    })
                    .collect()
            })
            .collect();
        LanePhase {
            traffic: Traffic::Lanes(queues),
            ready: 0.6,
            dcr: Vec::new(),
        }
    }
}

/// The vectors of `design` (behind the Vortex interface) under `plan` for the ports of
/// `harness`, and what they hold.
pub fn vectors(design: &SmemDesign, harness: &Harness, plan: &SmemPlan) -> (Vec<Vector>, Summary) {
    let mut scenarios = Scenarios::new(design, plan.seed);
    let native = scenarios.phases(plan.random);
    let mut lane_scenarios = LaneScenarios { design, scenarios };
    let mut phases: Vec<LanePhase> = lane_scenarios.program().into_iter().collect();
    phases.extend(native.into_iter().map(|p| lane_scenarios.convert(p)));
    phases.push(lane_scenarios.mixed_kinds(12));
    phases.push(lane_scenarios.independent(6));
    let mut summary = Summary::default();
    for phase in &phases {
        summary.dcr_writes += phase.dcr.len();
        summary.requests += match &phase.traffic {
            Traffic::Warps(warps) => warps.iter().flat_map(|(_, w)| w.iter().flatten()).count(),
            Traffic::Lanes(queues) => queues.iter().map(Vec::len).sum(),
        };
    }
    let mut driver = Driver {
        design,
        model: LaneModel::new(design.shape(), design.reset_map(), design.broadcast()),
        rng: rand::SeedableRng::seed_from_u64(plan.seed ^ 0x5eed),
        harness: harness.clone(),
        vectors: Vec::new(),
    };
    for phase in phases {
        driver.run(phase);
    }
    driver.drain();
    summary.cycles = driver.vectors.len();
    (driver.vectors, summary)
}
