//! The cycle model of the shared memory `rtl-gen smem` generates: what each output is in every
//! cycle, given that cycle's inputs and the state the earlier rising edges left (outputs are
//! read before the edge, as the testbench checks them).
//!
//! The model knows the pipeline's timing and nothing of how the RTL picks the lanes of a pass:
//! an access occupies the grant stage for [`passes`] cycles (at least one), which the
//! congestion model decides, and its effect on the memory is [`Memory::apply`].
//!
//! **Pipeline.** A request handshake (`req_valid_i && req_ready_o` at a rising edge) maps the
//! access and puts it in the grant stage. Each following cycle the grant stage issues one
//! *slot* to the banks (one pass; an access with no active lane issues one slot that uses no
//! bank), the slot reaches the pass register at the next edge and the return crossbar at the
//! edge after, where the last slot of a read or write completes its response: a conflict-free
//! access presented in cycle `t` (accepted at the edge that ends it) shows `resp_valid_o` in
//! cycle `t + 3`. The grant stage takes a
//! new access at the edge that issues the last slot of the current one, so conflict-free
//! accesses are accepted every cycle.
//!
//! **Back-pressure.** While a response is shown and `resp_ready_i` is low, the pipeline stalls:
//! no slot is issued, the pass register and the response hold; the grant stage still takes an
//! access when it is empty. `req_ready_o` and `fill_ready_o` are high when the grant stage is
//! empty, or issues its last slot at this edge without a stall.
//!
//! **Fill port.** A fill beat is a write of up to `fill words` lanes that enters the same
//! pipeline through the same map and produces no response. When both ports are valid, the one
//! not granted last is granted (round robin; the warp port first after reset): the ready of a
//! port depends on the other port's valid, never on its own. Accesses of both ports act on the
//! memory in the order they are accepted: a warp access accepted after a fill beat reads its
//! data, one accepted before does not.
//!
//! **Map writes.** A configuration written at an edge (the hash's `cfg` register, a RAP table
//! entry) maps the accesses accepted after that edge; the words already stored stay where the
//! old map put them.
//!
//! **Counters** count slots as they leave the pass register: `accesses` and `fills` the first
//! slot of each warp access and fill beat, `bank_cycles` every slot that uses the banks (their
//! sum over accesses is the sum of [`passes`]), `conflict_cycles` every slot after an access's
//! first (its `passes - 1`).

use super::{passes, serial_passes, Access, Map, Memory, Shape};

/// One cycle of inputs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Inputs {
    /// `req_valid_i` and the access it presents.
    pub request: Option<Access>,
    /// `fill_valid_i` and the beat it presents (a write).
    pub fill: Option<Access>,
    /// `resp_ready_i`.
    pub resp_ready: bool,
    /// A map written at this cycle's edge (the configuration register or a RAP table entry).
    pub new_map: Option<Map>,
}

/// A response: a write's acknowledgement, or a read's data per lane (0 for inactive lanes and
/// for writes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The access was a write.
    pub write: bool,
    /// One word per lane.
    pub data: Vec<u64>,
}

/// The performance counters (they wrap at the RTL's counter width).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    /// Warp accesses served.
    pub accesses: u64,
    /// Fill beats served.
    pub fills: u64,
    /// Slots that used the banks.
    pub bank_cycles: u64,
    /// Slots after the first of their access: the cycles bank conflicts cost.
    pub conflict_cycles: u64,
}

/// One cycle of outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outputs {
    /// `req_ready_o`.
    pub req_ready: bool,
    /// `fill_ready_o`.
    pub fill_ready: bool,
    /// `resp_valid_o` and the response it shows.
    pub response: Option<Response>,
    /// The counters.
    pub counters: Counters,
}

/// The access in the grant stage.
#[derive(Debug, Clone)]
struct Granting {
    passes: u32,
    issued: u32,
    fill: bool,
    response: Response,
}

impl Granting {
    fn slots(&self) -> u32 {
        self.passes.max(1)
    }

    fn issuing_last(&self) -> bool {
        self.issued + 1 == self.slots()
    }
}

/// A slot in the pass register.
#[derive(Debug, Clone)]
struct Slot {
    first: bool,
    uses_banks: bool,
    fill: bool,
    /// The response it completes (the last slot of a warp access).
    completes: Option<Response>,
}

/// The memory's state between edges.
#[derive(Debug, Clone)]
pub struct CycleModel {
    shape: Shape,
    map: Map,
    memory: Memory,
    granting: Option<Granting>,
    pass: Option<Slot>,
    response: Option<Response>,
    last_was_warp: bool,
    counters: Counters,
    broadcast: bool,
}

impl CycleModel {
    /// The memory after reset: empty pipeline, every word 0, `map` in front of the banks, with
    /// the broadcast.
    pub fn new(shape: Shape, map: Map) -> Self {
        Self {
            shape,
            map,
            memory: Memory::default(),
            granting: None,
            pass: None,
            response: None,
            last_was_warp: false,
            counters: Counters::default(),
            broadcast: true,
        }
    }

    /// The same memory with the broadcast on or off: without it an access takes
    /// [`serial_passes`] bank cycles (every active lane one bank access).
    ///
    /// # Panics
    /// Without the broadcast, if the shape serves its lanes in several groups.
    pub fn with_broadcast(self, broadcast: bool) -> Self {
        assert!(
            broadcast || self.shape.group_lanes() == self.shape.lanes(),
            "a memory without the broadcast serves its lanes as one group"
        );
        Self { broadcast, ..self }
    }

    /// The memory's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The response shown in this cycle (before the edge), if any.
    pub fn response(&self) -> Option<&Response> {
        self.response.as_ref()
    }

    /// The map the next accepted access goes through.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The memory contents.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Whether nothing is in flight: no access granting, no slot, no response shown.
    pub fn idle(&self) -> bool {
        self.granting.is_none() && self.pass.is_none() && self.response.is_none()
    }

    /// The outputs for `input` from the current state, then the rising edge.
    pub fn step(&mut self, input: &Inputs) -> Outputs {
        let stall = self.response.is_some() && !input.resp_ready;
        let free = self
            .granting
            .as_ref()
            .is_none_or(|g| g.issuing_last() && !stall);
        let prefer_fill = self.last_was_warp;
        // A port is ready unless the other one is valid and has the turn.
        let req_ready = free && (input.fill.is_none() || !prefer_fill);
        let fill_ready = free && (input.request.is_none() || prefer_fill);
        let out = Outputs {
            req_ready,
            fill_ready,
            response: self.response.clone(),
            counters: self.counters,
        };
        if !stall {
            self.response = self.pass.take().and_then(|slot| self.retire(slot));
            self.pass = self.issue();
        }
        let accepted = match (&input.request, &input.fill) {
            (Some(access), _) if req_ready => Some((access, false)),
            (_, Some(beat)) if fill_ready => Some((beat, true)),
            _ => None,
        };
        if let Some((access, fill)) = accepted {
            self.last_was_warp = !fill;
            self.granting = Some(self.accept(access, fill));
        }
        if let Some(map) = &input.new_map {
            self.map = map.clone();
        }
        out
    }

    /// A slot leaves the pass register: the counters count it, and the last slot of a warp
    /// access completes its response.
    fn retire(&mut self, slot: Slot) -> Option<Response> {
        let c = &mut self.counters;
        c.accesses += u64::from(slot.first && !slot.fill);
        c.fills += u64::from(slot.first && slot.fill);
        c.bank_cycles += u64::from(slot.uses_banks);
        c.conflict_cycles += u64::from(!slot.first);
        slot.completes
    }

    /// The grant stage issues its next slot, if it holds an access.
    fn issue(&mut self) -> Option<Slot> {
        let g = self.granting.as_mut()?;
        let last = g.issuing_last();
        let slot = Slot {
            first: g.issued == 0,
            uses_banks: g.issued < g.passes,
            fill: g.fill,
            completes: (last && !g.fill).then(|| g.response.clone()),
        };
        g.issued += 1;
        if last {
            self.granting = None;
        }
        Some(slot)
    }

    /// An accepted access: its passes under the current map, and its effect on the memory
    /// (accesses act in acceptance order, so applying it now is exact).
    fn accept(&mut self, access: &Access, fill: bool) -> Granting {
        let passes = if self.broadcast {
            passes(self.shape, &self.map, access)
        } else {
            serial_passes(self.shape, &self.map, access)
        };
        let data = self.memory.apply(self.shape, &self.map, access);
        let mut data = data;
        data.resize(self.shape.lanes() as usize, 0);
        Granting {
            passes,
            issued: 0,
            fill,
            response: Response {
                write: access.write,
                data,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smem::Lane;
    use crate::software::SoftwareIndex;
    use crate::{Geometry, HashConfig, HashFunction};

    fn model() -> CycleModel {
        let shape = Shape::new(4, 4, 4, 4).unwrap();
        let g = Geometry::new(4, 4).unwrap();
        let map = Map::Hash(
            SoftwareIndex::new(&HashConfig::new(g, HashFunction::Modulo).unwrap()).unwrap(),
        );
        CycleModel::new(shape, map)
    }

    fn access(write: bool, addrs: &[u64]) -> Access {
        Access {
            write,
            lanes: addrs
                .iter()
                .map(|&addr| {
                    Some(Lane {
                        addr,
                        data: addr + 100,
                        be: 0xf,
                    })
                })
                .collect(),
        }
    }

    fn cycle(m: &mut CycleModel, request: Option<Access>, ready: bool) -> Outputs {
        m.step(&Inputs {
            request,
            resp_ready: ready,
            ..Inputs::default()
        })
    }

    /// By hand: a conflict-free write presented in cycle 0 answers in cycle 3; a read of two
    /// words in one bank (2 passes) accepted at edge 1 waits a cycle for the grant stage,
    /// and reads what the write stored.
    #[test]
    fn latency_three_and_one_slot_per_pass() {
        let mut m = model();
        let o = cycle(&mut m, Some(access(true, &[0, 1, 2, 3])), true);
        assert!(o.req_ready && o.response.is_none());
        let o = cycle(&mut m, Some(access(false, &[0, 4, 1, 2])), true);
        assert!(o.req_ready);
        // The read occupies the grant stage for two cycles: not ready at the first.
        let o = cycle(&mut m, Some(access(false, &[3])), true);
        assert!(!o.req_ready && o.response.is_none());
        let o = cycle(&mut m, Some(access(false, &[3])), true);
        assert!(o.req_ready);
        let r = o.response.unwrap();
        assert!(r.write && r.data == vec![0; 4]);
        assert_eq!(o.counters.accesses, 1);
        let o = cycle(&mut m, None, true);
        assert!(o.response.is_none());
        let o = cycle(&mut m, None, true);
        assert_eq!(o.response.unwrap().data, vec![100, 0, 101, 102]);
        let o = cycle(&mut m, None, true);
        assert_eq!(o.response.unwrap().data, vec![103, 0, 0, 0]);
        assert_eq!(
            o.counters,
            Counters {
                accesses: 3,
                fills: 0,
                bank_cycles: 4,
                conflict_cycles: 1
            }
        );
        cycle(&mut m, None, true);
        assert!(m.idle());
    }

    /// A response not taken stalls the pipeline; the empty grant stage still takes one access.
    #[test]
    fn back_pressure_holds_the_response() {
        let mut m = model();
        cycle(&mut m, Some(access(false, &[1])), true);
        cycle(&mut m, Some(access(false, &[2])), true);
        cycle(&mut m, Some(access(false, &[3])), true);
        let o = cycle(&mut m, Some(access(false, &[0])), false);
        assert!(o.response.is_some());
        // Stalled with an access in the grant stage: not ready.
        let o = cycle(&mut m, Some(access(false, &[0])), false);
        assert!(!o.req_ready && o.response.is_some());
        let o = cycle(&mut m, Some(access(false, &[0])), true);
        assert!(o.req_ready);
    }

    /// Round robin between the ports when both are valid; a beat writes what a later read sees.
    #[test]
    fn fill_and_warp_alternate() {
        let mut m = model();
        let fill = Some(access(true, &[2]));
        let both = |m: &mut CycleModel| {
            m.step(&Inputs {
                request: Some(access(false, &[2])),
                fill: fill.clone(),
                resp_ready: true,
                new_map: None,
            })
        };
        let o = both(&mut m);
        assert!(o.req_ready && !o.fill_ready);
        let o = both(&mut m);
        assert!(!o.req_ready && o.fill_ready);
        let o = both(&mut m);
        assert!(o.req_ready && !o.fill_ready);
        // The first read preceded the fill (reads 0); the second follows it.
        let o = cycle(&mut m, None, true);
        assert_eq!(o.response.unwrap().data[0], 0);
        cycle(&mut m, None, true);
        let o = cycle(&mut m, None, true);
        assert_eq!(o.response.unwrap().data[0], 102);
        assert_eq!(o.counters.fills, 1);
    }
}
