//! Cycle-accurate models of the D²MA blocks' interfaces, built on the golden models of
//! `models::d2ma`: what each output must be in every cycle, given the inputs of that cycle and
//! the state the previous rising edges left (the testbench checks outputs before each edge).

use super::controller::SPAN_LATENCY;
use super::engine::in_flight_bits;
use super::fields::{narrowing, Narrowing, TILE_DIM_BITS};
use super::D2maDesign;
use models::d2ma::entry::Part;
use models::d2ma::{BufferEntry, Chunk, Guard, Transfer};
use std::collections::VecDeque;

/// The RAW check's inputs in one cycle (entry `e = cta * buffers + buf`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawIn {
    /// A load is at the issue stage.
    pub load_valid: bool,
    /// Its CTA.
    pub load_cta: u32,
    /// Its shared address.
    pub load_addr: u16,
    /// Each entry's guard.
    pub guards: Vec<Guard>,
    /// A buffer completed, and the CTA it belongs to.
    pub done: Option<u32>,
}

/// The RAW check's outputs: `wait_o` and the `release_o` bits.
pub fn raw_check(design: &D2maDesign, input: &RawIn) -> (bool, u64) {
    let b = design.buffers as usize;
    let first = (input.load_cta as usize * b).min(input.guards.len());
    let mine = &input.guards[first..(first + b).min(input.guards.len())];
    let wait = input.load_valid && models::d2ma::must_wait(mine, input.load_addr);
    (wait, input.done.map_or(0, |c| 1 << c))
}

/// The log2 of a power of two as the controller's hardware takes it for any value: the OR of
/// the set bits' indices.
fn or_log2(x: u16) -> u32 {
    (0..16)
        .filter(|i| x >> i & 1 == 1)
        .fold(0, |acc, i| acc | i)
}

/// The entry as the controller array of `design` stores it
/// ([`narrowing`](super::fields::narrowing)): the global base wrapped to the design's global
/// address bits (as the AGEN wraps addresses); the halo rows and the region keep only their
/// low bits; a halo column count or bank run above 255 becomes the power of two of its log2
/// (the OR of its set bits' indices). A valid entry in halo or bank mode is unchanged but for
/// the wrapped global base; in the other modes the walk reads none of the other fields.
pub fn stored(design: &D2maDesign, e: &BufferEntry) -> BufferEntry {
    let low = |name: &str, x: u16| match narrowing(name, design.global_bits) {
        Some(Narrowing::Low(bits)) => x & ((1 << bits) - 1),
        other => unreachable!("{name} is kept low, not {other:?}"),
    };
    let run = if e.halo_cols >> TILE_DIM_BITS == 0 {
        e.halo_cols
    } else {
        1 << or_log2(e.halo_cols)
    };
    BufferEntry {
        global: design.wrap_global(e.global),
        halo_rows: low("halo_rows", e.halo_rows),
        halo_cols: run,
        region: low("region", e.region.into()) as u8,
        ..*e
    }
}

/// The RAW guard end the controller's span unit computes for any field values of a stored
/// entry ([`stored`]): `min(shared + span, 0x10000)` with the span's arithmetic at the
/// hardware's widths. A 2-D walk's rows and columns are the tile's plus twice the halo's low
/// byte (halo mode), 10 bits each; a 1-D walk is `count` elements; the element count less one
/// wraps on 20 bits (a count of zero gives all ones); a count above `2^16`, or a 2-D halo with
/// columns above the low byte, gives the end of the shared space; the bank pads are the count
/// less one shifted right by the bank run's log2, taken as the OR of its set bits' indices.
/// For valid entries it equals [`Guard::of`]'s end; for others it is what the RTL does.
pub fn hw_guard_end(e: &BufferEntry) -> u32 {
    let (halo, bank) = (e.mode == 1, e.mode == 2);
    let in_halo = |x: u16| if halo { u64::from(x) } else { 0 };
    let (last, wide) = if e.two_d {
        let rows = u64::from(e.count >> 8) + 2 * in_halo(e.halo_rows & 0xff);
        let cols = u64::from(e.count & 0xff) + 2 * in_halo(e.halo_cols & 0xff);
        (
            (rows * cols).wrapping_sub(1),
            in_halo(e.halo_cols >> 8) != 0,
        )
    } else {
        (u64::from(e.count).wrapping_sub(1), false)
    };
    let last = last & ((1 << 20) - 1);
    let slots = if wide || last >= 1 << 16 {
        1 << 16
    } else {
        let lg = or_log2(e.halo_cols);
        last + if bank { last >> lg } else { 0 } + 1
    };
    let end = u64::from(e.shared) + (slots << e.size);
    end.min(1 << 16) as u32
}

/// One cycle of the controller array's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ControllerIn {
    /// A configuration command: (cta, buf, part code 0..=3, data).
    pub cfg: Option<(u32, u32, u32, u64)>,
    /// Ignite (cta, buf).
    pub ignite: Option<(u32, u32)>,
    /// Done (cta, buf).
    pub done: Option<(u32, u32)>,
    /// The entry shown on `rd_entry_o`: (cta, buf).
    pub read: (u32, u32),
}

/// One entry of the controller array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EntryState {
    /// The table entry.
    pub entry: BufferEntry,
    /// Parts written, bit `p` for part code `p`.
    pub mask: u8,
    /// Fully configured and not complete.
    pub busy: bool,
    /// Taken by the AGEN.
    pub started: bool,
    /// The RAW guard's end, computed when a part is written.
    pub end: u32,
    /// Edges until a fully written entry turns busy (its guard end is in the span unit's
    /// pipeline); 0 when none.
    pub arming: u32,
}

impl EntryState {
    /// All three parts are written: the entry is busy, or turning busy in the span unit.
    pub fn holds_transfer(&self) -> bool {
        self.mask == 0b111
    }

    /// The RAW guard the array shows for this entry: none when it holds no transfer; while it
    /// turns busy (its end still in the span unit), from its shared base to the end of the
    /// shared space, so that a load issued right after the configuration waits; once busy,
    /// the exact guard.
    pub fn guard(&self) -> Guard {
        let holds = self.holds_transfer();
        Guard {
            start: if holds {
                u32::from(self.entry.shared)
            } else {
                0
            },
            end: match (self.busy, holds) {
                (true, _) => self.end,
                (false, true) => 1 << 16,
                (false, false) => 0,
            },
            in_flight: holds,
        }
    }
}

/// The controller array's outputs in one cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerOut {
    /// Per entry: ready for ignition.
    pub ready: Vec<bool>,
    /// Per entry: holds a transfer (busy, or turning busy).
    pub busy: Vec<bool>,
    /// Per entry: shared base.
    pub start: Vec<u16>,
    /// Per entry: guard end.
    pub end: Vec<u32>,
    /// The entry selected for reading (zeros if not busy), when [`ControllerOut::read_valid`].
    pub read: BufferEntry,
    /// The read port shows the selected entry: no command completes an entry this cycle (the
    /// span unit would take the port).
    pub read_valid: bool,
}

/// The controller array's state, stepped one cycle at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerModel {
    design: D2maDesign,
    /// The entries, `cta * buffers + buf`.
    pub entries: Vec<EntryState>,
}

impl ControllerModel {
    /// All entries empty, as after reset.
    pub fn new(design: &D2maDesign) -> Self {
        Self {
            design: *design,
            entries: vec![EntryState::default(); design.entries() as usize],
        }
    }

    fn index(&self, (cta, buf): (u32, u32)) -> Option<usize> {
        (cta < self.design.ctas && buf < self.design.buffers)
            .then(|| (cta * self.design.buffers + buf) as usize)
    }

    /// Whether the configuration command `cfg` writes the last part of an entry: the span unit
    /// then takes the read port.
    pub fn completes(&self, cfg: Option<(u32, u32, u32, u64)>) -> bool {
        cfg.is_some_and(|(cta, buf, part, _)| {
            let part = Part::ALL.get(part as usize);
            self.index((cta, buf)).zip(part).is_some_and(|(i, &part)| {
                let mask = self.entries[i].mask;
                mask != 0b111 && mask | 1 << part as u8 == 0b111
            })
        })
    }

    /// The outputs for `input` from the current state, then the rising edge.
    pub fn step(&mut self, input: &ControllerIn) -> ControllerOut {
        let read_valid = !self.completes(input.cfg);
        // The table's fields are shown for busy entries only (idle ones show zeros): they are
        // not reset, so an idle entry may hold fields never written.
        let shown = |e: &EntryState| if e.busy { *e } else { EntryState::default() };
        let out = ControllerOut {
            ready: self.entries.iter().map(|e| e.busy && !e.started).collect(),
            busy: self
                .entries
                .iter()
                .map(EntryState::holds_transfer)
                .collect(),
            start: self
                .entries
                .iter()
                .map(|e| e.guard().start as u16)
                .collect(),
            end: self.entries.iter().map(|e| e.guard().end).collect(),
            read: self
                .index(input.read)
                .filter(|_| read_valid)
                .map_or_else(BufferEntry::default, |i| shown(&self.entries[i]).entry),
            read_valid,
        };
        let before = self.entries.clone();
        for e in &mut self.entries {
            if e.arming > 0 {
                e.arming -= 1;
                e.busy = e.arming == 0;
            }
        }
        // Ignition first: a completion of the same entry in the same cycle wins.
        if let Some(i) = input.ignite.and_then(|d| self.index(d)) {
            if before[i].busy && !before[i].started {
                self.entries[i].started = true;
            }
        }
        if let Some(i) = input.done.and_then(|d| self.index(d)) {
            if before[i].busy {
                let e = &mut self.entries[i];
                e.busy = false;
                e.started = false;
                e.mask &= 0b110;
            }
        }
        if let Some((cta, buf, part, data)) = input.cfg {
            if let (Some(i), Some(&part)) = (self.index((cta, buf)), Part::ALL.get(part as usize)) {
                // A fully written entry (busy, or arming) takes no command.
                if before[i].mask != 0b111 {
                    let e = &mut self.entries[i];
                    e.entry = stored(&self.design, &e.entry.with_part(part, data));
                    e.mask |= 1 << part as u8;
                    e.end = hw_guard_end(&e.entry);
                    if e.mask == 0b111 {
                        e.arming = SPAN_LATENCY;
                    }
                }
            }
        }
        out
    }
}

/// The AGEN's inputs in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AgenIn {
    /// `start_i` and `entry_i` (an entry is given only with `start_i`; the port is zero else).
    pub start: Option<BufferEntry>,
    /// `mem_ready_i`.
    pub mem_ready: bool,
}

/// The AGEN's outputs in one cycle (zero fields when not valid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AgenOut {
    /// `busy_o`.
    pub busy: bool,
    /// The chunk produced this cycle, if any.
    pub chunk: Option<Chunk>,
    /// `const_o`: the halo constant with a constant chunk.
    pub constant: u16,
    /// `done_o`.
    pub done: bool,
}

/// The AGEN's state: the chunks of the transfer in progress still to produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgenModel {
    segment_bytes: u32,
    pending: VecDeque<Chunk>,
    /// Steps back (halo columns, then halo rows) still to take before the first chunk.
    rewind: u32,
    /// The entry being walked, which `entry_i` must show until the last chunk.
    walked: Option<BufferEntry>,
}

impl AgenModel {
    /// Idle, as after reset.
    pub fn new(design: &D2maDesign) -> Self {
        Self {
            segment_bytes: design.segment_bytes,
            pending: VecDeque::new(),
            rewind: 0,
            walked: None,
        }
    }

    /// Whether a transfer is being walked (`busy_o`).
    pub fn busy(&self) -> bool {
        self.walked.is_some()
    }

    /// The outputs for `input` from the current state, then the rising edge.
    ///
    /// # Panics
    /// If a transfer is started with an entry the model refuses (vectors use valid ones).
    pub fn step(&mut self, input: &AgenIn) -> AgenOut {
        let mut out = AgenOut {
            busy: self.busy(),
            ..AgenOut::default()
        };
        if let Some(walked) = self.walked {
            if self.rewind > 0 {
                // One halo row stepped back, no chunk.
                self.rewind -= 1;
            } else if let Some(&chunk) = self.pending.front() {
                if input.mem_ready {
                    self.pending.pop_front();
                    out.chunk = Some(chunk);
                    out.done = self.pending.is_empty();
                    if chunk.constant {
                        out.constant = walked.halo_const;
                    }
                    if out.done {
                        self.walked = None;
                    }
                }
            }
        } else if let Some(entry) = input.start {
            let t = Transfer::new(&entry, self.segment_bytes)
                .unwrap_or_else(|e| panic!("AGEN vectors use valid entries: {e}"));
            self.pending = t.chunks.into();
            // A halo tile's walk steps back left once (when it has halo columns), then one
            // row a cycle, before its first chunk.
            self.rewind = if entry.mode == 1 {
                u32::from(entry.halo_rows) + u32::from(entry.halo_cols != 0)
            } else {
                0
            };
            self.walked = Some(entry);
        }
        out
    }
}

/// One cycle of the engine's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineIn {
    /// A configuration command: (cta, buf, part code, data).
    pub cfg: Option<(u32, u32, u32, u64)>,
    /// A shared load: (cta, address).
    pub load: Option<(u32, u16)>,
    /// `mem_req_ready_i`.
    pub req_ready: bool,
    /// A response: (cta, buf).
    pub resp: Option<(u32, u32)>,
}

/// The engine's outputs in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineOut {
    /// The AGEN's chunk this cycle and its tag (cta, buf).
    pub chunk: Option<(Chunk, u32, u32)>,
    /// The halo constant with a constant chunk.
    pub constant: u16,
    /// A completion: (cta, buf).
    pub complete: Option<(u32, u32)>,
    /// `wait_o`.
    pub wait: bool,
    /// `release_o`.
    pub release: u64,
}

/// The engine's state: its controller array, its AGEN, the entry being walked and each
/// entry's requests in flight and end of walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineModel {
    design: D2maDesign,
    /// The controller array.
    pub ctrl: ControllerModel,
    agen: AgenModel,
    current: (u32, u32),
    /// The entry ignited, which the AGEN starts in the first cycle after its ignition without
    /// a command that completes an entry (the span unit takes the controller's read port).
    starting: Option<usize>,
    inflight: Vec<u32>,
    walked: Vec<bool>,
    /// Cycles in which the walk waited because its buffer had the bound's requests in flight
    /// (with [`D2maDesign::in_flight_bound`]; the AGEN busy, the memory port ready).
    pub bound_waits: usize,
    /// Cycles in which an ignited entry waited to start in the AGEN because a command that
    /// completes an entry had the controller's read port.
    pub port_waits: usize,
}

impl EngineModel {
    /// As after reset.
    pub fn new(design: &D2maDesign) -> Self {
        let e = design.entries() as usize;
        Self {
            design: *design,
            ctrl: ControllerModel::new(design),
            agen: AgenModel::new(design),
            current: (0, 0),
            starting: None,
            inflight: vec![0; e],
            walked: vec![false; e],
            bound_waits: 0,
            port_waits: 0,
        }
    }

    fn tag(&self, i: usize) -> (u32, u32) {
        let b = self.design.buffers as usize;
        ((i / b) as u32, (i % b) as u32)
    }

    /// The outputs for `input` from the current state, then the rising edge.
    pub fn step(&mut self, input: &EngineIn) -> EngineOut {
        let entries = &self.ctrl.entries;
        let grant = entries.iter().position(|s| s.busy && !s.started);
        let launch = grant.filter(|_| !self.agen.busy() && self.starting.is_none());
        let can = |i: usize| entries[i].busy && self.walked[i] && self.inflight[i] == 0;
        let complete = (0..entries.len()).find(|&i| can(i));
        let guards: Vec<Guard> = entries.iter().map(EntryState::guard).collect();
        let (wait, release) = raw_check(
            &self.design,
            &RawIn {
                load_valid: input.load.is_some(),
                load_cta: input.load.map_or(0, |l| l.0),
                load_addr: input.load.map_or(0, |l| l.1),
                guards,
                done: complete.map(|i| self.tag(i).0),
            },
        );
        let ctrl_in = ControllerIn {
            cfg: input.cfg,
            ignite: launch.map(|i| self.tag(i)),
            done: complete.map(|i| self.tag(i)),
            read: self.current,
        };
        let b = self.design.buffers;
        let cur = (self.current.0 * b + self.current.1) as usize;
        // The walked buffer at the bound holds the walk (an ignited buffer has none in flight).
        let full = self
            .design
            .in_flight_bound()
            .is_some_and(|n| self.inflight[cur] == n);
        if full && input.req_ready && self.agen.busy() {
            self.bound_waits += 1;
        }
        let start = self.starting.filter(|_| !self.ctrl.completes(input.cfg));
        if self.starting.is_some() && start.is_none() {
            self.port_waits += 1;
        }
        let agen_in = AgenIn {
            start: start.map(|i| entries[i].entry),
            mem_ready: input.req_ready && !full,
        };
        let agen = self.agen.step(&agen_in);
        self.ctrl.step(&ctrl_in);
        if agen.chunk.is_some_and(|c| c.request.is_some()) {
            self.inflight[cur] = self.inflight[cur].wrapping_add(1);
        }
        if let Some((c, buf)) = input.resp {
            if c < self.design.ctas && buf < b {
                let i = (c * b + buf) as usize;
                let mask = (1 << in_flight_bits(&self.design)) - 1;
                self.inflight[i] = self.inflight[i].wrapping_sub(1) & mask;
            }
        }
        if let Some(i) = complete {
            self.walked[i] = false;
        }
        if agen.done {
            self.walked[cur] = true;
        }
        let out = EngineOut {
            chunk: agen.chunk.map(|c| (c, self.current.0, self.current.1)),
            constant: agen.constant,
            complete: complete.map(|i| self.tag(i)),
            wait,
            release,
        };
        if let Some(i) = launch {
            self.current = self.tag(i);
        }
        self.starting = launch.or(self.starting.filter(|_| start.is_none()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::vectors::random_entry;
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The span unit's arithmetic agrees with the golden RAW guard on valid entries.
    #[test]
    fn hardware_guard_end_matches_the_model_on_valid_entries() {
        let base = BufferEntry {
            global: 0x4000,
            shared: 0x200,
            count: 6 << 8 | 10,
            size: 2,
            stride: 64,
            two_d: true,
            ..Default::default()
        };
        let cases = [
            base,
            BufferEntry {
                mode: 1,
                halo_rows: 2,
                halo_cols: 3,
                region: 4,
                ..base
            },
            BufferEntry {
                mode: 2,
                halo_cols: 8,
                ..base
            },
            BufferEntry {
                two_d: false,
                count: 300,
                stride: 3,
                size: 1,
                ..base
            },
            BufferEntry {
                shared: 0xff00,
                count: 64,
                two_d: false,
                stride: 1,
                ..base
            },
        ];
        // The widest walks the entry allows: a 255 x 255 tile, a halo as large as its tile,
        // 65535 elements with a bank run of 2^15.
        let extremes = [
            BufferEntry {
                shared: 0,
                count: 0xffff,
                size: 0,
                stride: 255,
                ..base
            },
            BufferEntry {
                shared: 0,
                count: 100 << 8 | 70,
                size: 0,
                stride: 210,
                mode: 1,
                halo_rows: 100,
                halo_cols: 70,
                region: 9,
                ..base
            },
            BufferEntry {
                shared: 0,
                count: 0xffff,
                size: 0,
                stride: 1,
                two_d: false,
                mode: 2,
                halo_cols: 1 << 15,
                ..base
            },
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let random = (0..2000).map(|_| random_entry(&mut rng));
        let design = D2maDesign::new(super::super::Unit::Controller, 8, 4, 128).unwrap();
        for e in cases.into_iter().chain(extremes).chain(random) {
            e.validate().unwrap();
            stored(&design, &e).validate().unwrap();
            assert_eq!(
                hw_guard_end(&stored(&design, &e)),
                Guard::of(&e, true).end,
                "{e:?}"
            );
        }
    }

    /// A narrower design stores the global base's low bits only: the read port shows it
    /// wrapped, the other fields unchanged.
    #[test]
    fn a_narrower_design_stores_the_global_base_wrapped() {
        let e = BufferEntry {
            global: 0xfedc_ba98_7654_3210,
            shared: 0x100,
            count: 64,
            size: 2,
            stride: 1,
            ..Default::default()
        };
        let wide = D2maDesign::new(super::super::Unit::Controller, 2, 1, 32).unwrap();
        let narrow = wide.with_global_bits(40).unwrap();
        assert_eq!(stored(&wide, &e), e);
        assert_eq!(
            stored(&narrow, &e),
            BufferEntry {
                global: 0x98_7654_3210,
                ..e
            }
        );
    }
}
