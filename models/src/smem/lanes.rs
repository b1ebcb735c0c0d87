//! The per-lane front end of the shared memory (`rtl-gen smem --interface vortex`): the ports of
//! Vortex's `VX_local_mem`, one request and one response channel per lane, around the memory of
//! [`super::cycle`].
//!
//! **Requests.** Each lane presents a request (valid/ready): a write flag, a word address, data,
//! byte enables and a tag. In a cycle where the memory takes an access (its grant stage is free:
//! [`super::cycle`]'s `req_ready`), the *gather stage* takes every valid lane whose write flag is
//! the lowest valid lane's, as one warp access; those lanes see `req_ready`, the others wait
//! (a partial grant). Lanes taken at later edges are later accesses: a read sees every write taken
//! at an earlier edge.
//!
//! **Responses.** A read answers on each of its lanes with the word and the lane's tag; a write
//! answers nothing. The memory shows an access's response on all its reading lanes at once;
//! each lane's response is taken by its own `rsp_ready`, and the memory moves on to the next
//! response once every reading lane has taken its own (so a lane that is not ready stalls the
//! memory, as a response not taken stalls [`super::cycle`]).
//!
//! **Counters.** Vortex's `lmem_perf`, counted as `VX_local_mem` counts them: `reads` and
//! `writes` count lanes taken, from a register of the lanes taken (they count at the edge after
//! the one that takes them); `bank_stalls` counts, per cycle, the valid lanes `i` with a higher
//! valid lane `j` in the same bank (under the memory's map) where `i` or `j` is taken
//! (`VX_stream_xbar`'s `collisions`, also one register late); `crsp_stalls` counts, per cycle,
//! the lanes whose response shows and is not taken. Ours: `accesses`, `bank_cycles` and
//! `conflict_cycles` are [`super::cycle`]'s counters; `broadcast_reads` counts, at the edge that
//! takes a read, its lanes that the broadcast serves without a bank read of their own
//! ([`super::repeated_words`]; 0 without the broadcast).

use super::cycle::{self, CycleModel};
use super::{repeated_words, Access, Lane, Map, Shape};
use std::collections::VecDeque;

/// One lane's request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Request {
    /// A write (else a read).
    pub write: bool,
    /// Word address.
    pub addr: u64,
    /// Data written (ignored by reads).
    pub data: u64,
    /// Byte enables, bit `k` for byte `k` (ignored by reads).
    pub be: u8,
    /// The tag its response carries back.
    pub tag: u64,
}

/// One cycle of inputs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Inputs {
    /// Each lane's request, `None` where its valid is low.
    pub requests: Vec<Option<Request>>,
    /// Each lane's `rsp_ready`.
    pub rsp_ready: Vec<bool>,
    /// A map written at this cycle's edge.
    pub new_map: Option<Map>,
}

/// One lane's response: the word read and the request's tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reply {
    /// The word read.
    pub data: u64,
    /// The tag of the read.
    pub tag: u64,
}

/// The counters (they wrap at the RTL's counter width).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    /// Lanes of reads taken (Vortex's `reads`).
    pub reads: u64,
    /// Lanes of writes taken (Vortex's `writes`).
    pub writes: u64,
    /// Vortex's `bank_stalls`: the crossbar's collisions.
    pub bank_stalls: u64,
    /// Vortex's `crsp_stalls`: lane responses shown and not taken, per cycle.
    pub crsp_stalls: u64,
    /// Warp accesses served.
    pub accesses: u64,
    /// Passes that used the banks.
    pub bank_cycles: u64,
    /// Passes after the first of an access.
    pub conflict_cycles: u64,
    /// Read lanes served by another lane's bank read.
    pub broadcast_reads: u64,
}

/// One cycle of outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outputs {
    /// Each lane's `req_ready`.
    pub req_ready: Vec<bool>,
    /// Each lane's response, `None` where its `rsp_valid` is low.
    pub responses: Vec<Option<Reply>>,
    /// The counters.
    pub counters: Counters,
}

/// What the front end keeps of an access in flight: its reading lanes and their tags.
#[derive(Debug, Clone)]
struct InFlight {
    reading: Vec<bool>,
    tags: Vec<u64>,
}

/// The counts Vortex registers before it adds them (`BUFFER` in `VX_local_mem` and
/// `VX_stream_xbar`).
#[derive(Debug, Clone, Copy, Default)]
struct Buffered {
    reads: u64,
    writes: u64,
    collisions: u64,
}

/// The front end and the memory between edges.
#[derive(Debug, Clone)]
pub struct LaneModel {
    core: CycleModel,
    broadcast: bool,
    in_flight: VecDeque<InFlight>,
    taken: Vec<bool>,
    buffered: Buffered,
    counters: Counters,
}

fn count(flags: impl IntoIterator<Item = bool>) -> u64 {
    flags.into_iter().filter(|&f| f).count() as u64
}

impl LaneModel {
    /// The memory after reset, `map` in front of its banks, with or without the broadcast.
    ///
    /// # Panics
    /// Without the broadcast, if the shape serves its lanes in several groups.
    pub fn new(shape: Shape, map: Map, broadcast: bool) -> Self {
        Self {
            core: CycleModel::new(shape, map).with_broadcast(broadcast),
            broadcast,
            in_flight: VecDeque::new(),
            taken: vec![false; shape.lanes() as usize],
            buffered: Buffered::default(),
            counters: Counters::default(),
        }
    }

    /// Whether nothing is in flight (the buffered counts may still add once).
    pub fn idle(&self) -> bool {
        self.core.idle()
    }

    /// The outputs for `input` from the current state, then the rising edge.
    pub fn step(&mut self, input: &Inputs) -> Outputs {
        let lanes = self.taken.len();
        assert_eq!(input.requests.len(), lanes, "one request slot per lane");
        assert_eq!(input.rsp_ready.len(), lanes, "one rsp_ready per lane");
        let shape = self.core.shape();
        // The gather stage: the valid lanes that share the lowest valid lane's write flag.
        let write = input.requests.iter().flatten().next().map(|r| r.write);
        let take: Vec<bool> = input
            .requests
            .iter()
            .map(|r| r.is_some_and(|r| Some(r.write) == write))
            .collect();
        let access = write.map(|write| Access {
            write,
            lanes: input
                .requests
                .iter()
                .zip(&take)
                .map(|(r, &t)| {
                    r.filter(|_| t).map(|r| Lane {
                        addr: r.addr,
                        data: r.data,
                        be: r.be,
                    })
                })
                .collect(),
        });
        // The response shown and the lanes that still owe theirs.
        let shown = self.core.response().map(|r| r.data.clone());
        let front = self.in_flight.front();
        let owed: Vec<bool> = (0..lanes)
            .map(|i| shown.is_some() && front.is_some_and(|f| f.reading[i]) && !self.taken[i])
            .collect();
        let resp_ready = (0..lanes).all(|i| !owed[i] || input.rsp_ready[i]);
        let responses = (0..lanes)
            .map(|i| {
                owed[i].then(|| Reply {
                    data: shown.as_ref().map_or(0, |d| d[i]),
                    tag: front.map_or(0, |f| f.tags[i]),
                })
            })
            .collect();
        let map = self.core.map().clone();
        let core = self.core.step(&cycle::Inputs {
            request: access.clone(),
            fill: None,
            resp_ready,
            new_map: input.new_map.clone(),
        });
        let req_ready: Vec<bool> = take.iter().map(|&t| t && core.req_ready).collect();
        let out = Outputs {
            req_ready: req_ready.clone(),
            responses,
            counters: Counters {
                accesses: core.counters.accesses,
                bank_cycles: core.counters.bank_cycles,
                conflict_cycles: core.counters.conflict_cycles,
                ..self.counters
            },
        };
        // The edge.
        if shown.is_some() {
            if resp_ready {
                self.in_flight.pop_front();
                self.taken.iter_mut().for_each(|t| *t = false);
            } else {
                let now = owed.iter().zip(&input.rsp_ready).map(|(&o, &r)| o && r);
                for (taken, now) in self.taken.iter_mut().zip(now) {
                    *taken |= now;
                }
            }
        }
        let c = &mut self.counters;
        if let (Some(access), true) = (&access, core.req_ready) {
            self.in_flight.push_back(InFlight {
                reading: take.iter().map(|&t| t && !access.write).collect(),
                tags: input
                    .requests
                    .iter()
                    .map(|r| r.map_or(0, |r| r.tag))
                    .collect(),
            });
            if !access.write && self.broadcast {
                let repeated = repeated_words(shape, &map, access);
                c.broadcast_reads = c.broadcast_reads.wrapping_add(u64::from(repeated));
            }
        }
        c.reads = c.reads.wrapping_add(self.buffered.reads);
        c.writes = c.writes.wrapping_add(self.buffered.writes);
        c.bank_stalls = c.bank_stalls.wrapping_add(self.buffered.collisions);
        let stalled = (0..lanes).map(|i| owed[i] && !input.rsp_ready[i]);
        c.crsp_stalls = c.crsp_stalls.wrapping_add(count(stalled));
        let taken_with = |w: bool| {
            count(
                (0..lanes).map(|i| req_ready[i] && input.requests[i].is_some_and(|r| r.write == w)),
            )
        };
        self.buffered = Buffered {
            reads: taken_with(false),
            writes: taken_with(true),
            collisions: collisions(shape, &map, &input.requests, &req_ready),
        };
        out
    }
}

/// `VX_stream_xbar`'s collisions in one cycle: the valid lanes `i` with a higher valid lane `j`
/// in the same bank, `i` or `j` taken.
fn collisions(shape: Shape, map: &Map, requests: &[Option<Request>], ready: &[bool]) -> u64 {
    let bank = |r: &Request| map.index(r.addr, shape.banks()) % u64::from(shape.banks());
    let collides = |i: usize| {
        let Some(a) = &requests[i] else { return false };
        requests.iter().enumerate().skip(i + 1).any(|(j, b)| {
            b.as_ref()
                .is_some_and(|b| bank(a) == bank(b) && (ready[i] || ready[j]))
        })
    };
    count((0..requests.len()).map(collides))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::software::SoftwareIndex;
    use crate::{Geometry, HashConfig, HashFunction};

    /// 4 lanes, 4 banks of 4 words, modulo: word `a` is in bank `a % 4`.
    fn model(broadcast: bool) -> LaneModel {
        let shape = Shape::new(4, 4, 4, 4).unwrap();
        let g = Geometry::new(4, 4).unwrap();
        let map = Map::Hash(
            SoftwareIndex::new(&HashConfig::new(g, HashFunction::Modulo).unwrap()).unwrap(),
        );
        LaneModel::new(shape, map, broadcast)
    }

    fn read(addr: u64, tag: u64) -> Option<Request> {
        Some(Request {
            addr,
            tag,
            ..Request::default()
        })
    }

    fn write(addr: u64, data: u64) -> Option<Request> {
        Some(Request {
            write: true,
            addr,
            data,
            be: 0xf,
            tag: 0,
        })
    }

    fn cycle(m: &mut LaneModel, requests: [Option<Request>; 4], ready: [bool; 4]) -> Outputs {
        m.step(&Inputs {
            requests: requests.to_vec(),
            rsp_ready: ready.to_vec(),
            new_map: None,
        })
    }

    const IDLE: [Option<Request>; 4] = [None; 4];
    const READY: [bool; 4] = [true; 4];

    fn replies(o: &Outputs) -> Vec<Option<(u64, u64)>> {
        o.responses
            .iter()
            .map(|r| r.map(|r| (r.data, r.tag)))
            .collect()
    }

    /// By hand: lanes 0 and 2 write, lane 1 reads in the same cycle: the writes are taken first
    /// (lane 0 is the lowest valid lane), the read at the next edge sees them; it answers on
    /// lane 1 alone three cycles later with its tag; writes answer nothing.
    #[test]
    fn a_cycle_takes_the_lanes_of_the_lowest_lanes_kind() {
        let mut m = model(true);
        let o = cycle(
            &mut m,
            [write(5, 50), read(5, 7), write(6, 60), None],
            READY,
        );
        assert_eq!(o.req_ready, [true, false, true, false]);
        let o = cycle(&mut m, [None, read(5, 7), None, None], READY);
        assert_eq!(o.req_ready, [false, true, false, false]);
        for _ in 0..2 {
            let o = cycle(&mut m, IDLE, READY);
            assert_eq!(replies(&o), [None; 4]);
        }
        let o = cycle(&mut m, IDLE, READY);
        assert_eq!(replies(&o), [None, Some((50, 7)), None, None]);
        // reads and writes count one edge after they are taken: 2 writes, then 1 read.
        assert_eq!((o.counters.writes, o.counters.reads), (2, 1));
        assert_eq!(o.counters.accesses, 2);
        let o = cycle(&mut m, IDLE, READY);
        assert_eq!(replies(&o), [None; 4]);
        assert!(m.idle());
    }

    /// Each lane takes its response with its own ready; the memory moves on when all have, and
    /// every cycle a shown response waits counts in crsp_stalls.
    #[test]
    fn lanes_take_their_responses_one_by_one() {
        let mut m = model(true);
        cycle(
            &mut m,
            [write(0, 10), write(1, 11), write(2, 12), write(3, 13)],
            READY,
        );
        cycle(
            &mut m,
            [read(0, 1), read(1, 1), read(2, 1), read(3, 1)],
            READY,
        );
        cycle(&mut m, [read(3, 2), None, None, None], READY);
        cycle(&mut m, IDLE, READY);
        let all = |t| [Some((10, t)), Some((11, t)), Some((12, t)), Some((13, t))];
        let o = cycle(&mut m, IDLE, [false, true, false, true]);
        assert_eq!(replies(&o), all(1));
        let o = cycle(&mut m, IDLE, [true, false, false, false]);
        assert_eq!(replies(&o), [Some((10, 1)), None, Some((12, 1)), None]);
        assert_eq!(o.counters.crsp_stalls, 2);
        let o = cycle(&mut m, IDLE, READY);
        assert_eq!(replies(&o), [None, None, Some((12, 1)), None]);
        assert_eq!(o.counters.crsp_stalls, 3);
        let o = cycle(&mut m, IDLE, READY);
        assert_eq!(replies(&o), [Some((13, 2)), None, None, None]);
    }

    /// Vortex's bank stalls: four lanes in bank 1, three of them taken, count 3 (lanes 0, 1 and
    /// 2 each have a higher lane of their bank, one of the two taken; the waiting write of lane
    /// 2 collides with the taken lane 3); a cycle whose lanes wait for the grant stage counts
    /// none. Without the broadcast a broadcast of one word takes one pass per lane and counts
    /// no broadcast reads.
    #[test]
    fn bank_stalls_count_as_vortex_counts_them() {
        let mut m = model(true);
        // Lanes 0, 1, 3 read bank 1 (words 1, 5, 1): two passes; lane 2 writes bank 1 too.
        let o = cycle(
            &mut m,
            [read(1, 0), read(5, 0), write(9, 9), read(1, 0)],
            READY,
        );
        assert_eq!(o.req_ready, [true, true, false, true]);
        // The grant stage is busy (second pass): nothing taken, no collision.
        let o = cycle(&mut m, [None, None, write(9, 9), None], READY);
        assert_eq!(o.req_ready, [false; 4]);
        let o = cycle(&mut m, [None, None, write(9, 9), None], READY);
        assert!(o.req_ready[2]);
        // Collisions of the first cycle (lanes 0, 1, 2) counted one edge later.
        assert_eq!(o.counters.bank_stalls, 3);
        assert_eq!(o.counters.broadcast_reads, 1);
        let mut serial = model(false);
        cycle(
            &mut serial,
            [read(2, 0), read(2, 0), read(2, 0), read(2, 0)],
            READY,
        );
        for ready in [false, false, false, true] {
            let o = cycle(&mut serial, [read(3, 0), None, None, None], READY);
            assert_eq!(o.req_ready[0], ready);
        }
        cycle(&mut serial, IDLE, READY);
        let o = cycle(&mut serial, IDLE, READY);
        assert_eq!(o.counters.broadcast_reads, 0);
        assert_eq!(o.counters.conflict_cycles, 3);
    }
}
