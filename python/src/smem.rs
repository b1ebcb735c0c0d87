//! `rtl_gen.SharedMemory`: the cycle model of the banked shared memory `rtl-gen smem`
//! generates (models::smem::cycle), built by rtl-gen's own `SmemDesign` so that its map is
//! the generated block's: what every output is in each cycle, for a cocotb scoreboard.

use crate::error::refuse;
use crate::hash::Hasher;
use models::rap::LayoutKind;
use models::smem::cycle::{CycleModel, Inputs};
use models::smem::{Access as ModelAccess, Lane, Shape};
use models::{Geometry, HashConfig, HashFunction};
use pyo3::prelude::*;
use rtl_gen::rap::RapDesign;
use rtl_gen::smem::{MapSpec, SmemDesign};

/// A warp access (or a fill beat): one word address per lane, the lanes that are active, and
/// for a write each lane's data and byte enables.
#[pyclass(module = "rtl_gen", frozen, get_all)]
#[derive(Clone)]
pub struct Access {
    /// Word address of each lane.
    addresses: Vec<u64>,
    /// A write (else a read).
    write: bool,
    /// Data of each lane (writes).
    data: Vec<u64>,
    /// Byte enables of each lane, bit ``k`` for byte ``k`` (writes).
    byte_enables: Vec<u8>,
    /// Which lanes are active.
    active: Vec<bool>,
}

#[pymethods]
impl Access {
    #[new]
    #[pyo3(signature = (addresses, *, write=false, data=None, byte_enables=None, active=None))]
    fn new(
        addresses: Vec<u64>,
        write: bool,
        data: Option<Vec<u64>>,
        byte_enables: Option<Vec<u8>>,
        active: Option<Vec<bool>>,
    ) -> PyResult<Self> {
        let n = addresses.len();
        let data = data.unwrap_or_else(|| vec![0; n]);
        let byte_enables = byte_enables.unwrap_or_else(|| vec![0xff; n]);
        let active = active.unwrap_or_else(|| vec![true; n]);
        for (name, len) in [
            ("data", data.len()),
            ("byte_enables", byte_enables.len()),
            ("active", active.len()),
        ] {
            if len != n {
                return Err(refuse(format!(
                    "{name} has {len} entries: expected {n} (one per lane)"
                )));
            }
        }
        Ok(Self {
            addresses,
            write,
            data,
            byte_enables,
            active,
        })
    }
}

impl Access {
    fn model(&self) -> ModelAccess {
        ModelAccess {
            write: self.write,
            lanes: (0..self.addresses.len())
                .map(|i| {
                    self.active[i].then_some(Lane {
                        addr: self.addresses[i],
                        data: self.data[i],
                        be: self.byte_enables[i],
                    })
                })
                .collect(),
        }
    }
}

/// One cycle's outputs of :meth:`SharedMemory.step`.
#[pyclass(module = "rtl_gen", frozen, get_all)]
pub struct Outputs {
    /// ``req_ready_o``.
    req_ready: bool,
    /// ``fill_ready_o``.
    fill_ready: bool,
    /// ``resp_valid_o``.
    resp_valid: bool,
    /// ``resp_write_o`` (``False`` while no response shows).
    resp_write: bool,
    /// ``resp_rdata_o``, one word per lane (zeros for writes and while no response shows).
    resp_data: Vec<u64>,
    /// ``cnt_accesses_o``, ``cnt_fills_o``, ``cnt_bank_cycles_o``, ``cnt_conflict_cycles_o``.
    counters: (u64, u64, u64, u64),
}

/// The shared memory ``rtl-gen smem`` generates, cycle by cycle: ``SharedMemory(lanes=32,
/// banks=32, depth=512, word_bytes=4, map="modulo")``; ``map`` is ``"modulo"``, a
/// :class:`Hasher` (``--map hash --hash-config``, ``log2(banks * depth)`` address bits) or
/// ``"rap"`` (``--map rap --rap-seed rap_seed``). Each :meth:`step` gives the outputs of one
/// cycle for that cycle's inputs, then takes the rising edge, as the RTL's testbench checks it.
#[pyclass(module = "rtl_gen")]
pub struct SharedMemory {
    model: CycleModel,
    lanes: usize,
    fill_words: usize,
}

#[pymethods]
impl SharedMemory {
    #[new]
    #[pyo3(signature = (lanes=32, banks=32, depth=512, *, word_bytes=4, map=None, rap_seed=1, rap_wide=false, fill_words=1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        lanes: u32,
        banks: u32,
        depth: u32,
        word_bytes: u32,
        map: Option<&Bound<'_, PyAny>>,
        rap_seed: u64,
        rap_wide: bool,
        fill_words: u32,
    ) -> PyResult<Self> {
        let shape = Shape::new(lanes, banks, depth, word_bytes).map_err(refuse)?;
        let spec = match map {
            Some(m) if m.cast::<Hasher>().is_ok() => MapSpec::Hash {
                config: m.cast::<Hasher>()?.get().config.clone(),
                configurable: false,
            },
            Some(m) if m.extract::<String>().is_ok_and(|s| s == "rap") => MapSpec::Rap(
                RapDesign::drawn(LayoutKind::Rap, banks, rap_seed, rap_wide, false, false)
                    .map_err(refuse)?,
            ),
            Some(m) if !m.extract::<String>().is_ok_and(|s| s == "modulo") => {
                return Err(refuse(format!(
                    "map = {m} is out of range: allowed \"modulo\", \"rap\" or a Hasher"
                )))
            }
            _ => {
                let g = Geometry::new(shape.addr_bits(), u64::from(banks)).map_err(refuse)?;
                MapSpec::Hash {
                    config: HashConfig::new(g, HashFunction::Modulo).map_err(refuse)?,
                    configurable: false,
                }
            }
        };
        let design = SmemDesign::new(shape, spec, fill_words, None, 32).map_err(refuse)?;
        Ok(Self {
            model: design.cycle_model(),
            lanes: lanes as usize,
            fill_words: fill_words as usize,
        })
    }

    /// The outputs of this cycle for its inputs, then the rising edge: ``request`` and ``fill``
    /// are what ``req_valid_i`` and ``fill_valid_i`` present (``None``: not valid).
    #[pyo3(signature = (request=None, fill=None, resp_ready=true))]
    fn step(
        &mut self,
        request: Option<Bound<'_, Access>>,
        fill: Option<Bound<'_, Access>>,
        resp_ready: bool,
    ) -> PyResult<Outputs> {
        for (name, access, lanes) in [
            ("request", &request, self.lanes),
            ("fill", &fill, self.fill_words),
        ] {
            if let Some(a) = access {
                let a = a.get();
                if a.addresses.len() != lanes {
                    return Err(refuse(format!(
                        "{name}: {} lanes: the memory takes {lanes}",
                        a.addresses.len()
                    )));
                }
            }
        }
        let input = Inputs {
            request: request.map(|a| a.get().model()),
            fill: fill.map(|a| a.get().model()),
            resp_ready,
            new_map: None,
        };
        let out = self.model.step(&input);
        let c = out.counters;
        Ok(Outputs {
            req_ready: out.req_ready,
            fill_ready: out.fill_ready,
            resp_valid: out.response.is_some(),
            resp_write: out.response.as_ref().is_some_and(|r| r.write),
            resp_data: out.response.map_or_else(|| vec![0; self.lanes], |r| r.data),
            counters: (c.accesses, c.fills, c.bank_cycles, c.conflict_cycles),
        })
    }

    /// Whether nothing is in flight.
    #[getter]
    fn idle(&self) -> bool {
        self.model.idle()
    }

    /// The word at word address ``address`` now.
    fn read(&self, address: u64) -> u64 {
        let banks = self.model.shape().banks();
        self.model
            .memory()
            .read(self.model.map().index(address, banks))
    }
}
