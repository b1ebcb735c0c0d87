//! `rtl_gen.Hasher`: the hash families of the XOR paper and the general GF(2) matrix, the
//! golden function behind every generated hasher, over NumPy arrays.

use crate::array::{map_u64, Warps};
use crate::error::refuse;
use models::config::RowMask;
use models::congestion::congestion;
use models::{Geometry, HashConfig, HashConfigObject, HashKind};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The most threads a warp access may have in the congestion functions.
pub const MAX_THREADS: usize = 1 << 16;

/// A bank hash: a memory of `2^addr_bits` words in `banks` banks and the function that maps
/// a word address to its bank.
///
/// ``Hasher(kind="bitvector-xor", addr_bits=14, banks=32, k1=2, k2=8, mask=7)`` is the
/// hasher ``rtl-gen hash --kind bitvector-xor --addr-bits 14 --banks 32 --k1 2 --k2 8 --mask 7``
/// generates. Kinds and their fields: ``modulo`` (none), ``bitvector-perm`` (``k``),
/// ``bitvector-xor`` (``k1``, ``k2``, ``mask``), ``bitwise-perm`` (``bits``), ``bitwise-xor``
/// (``pairs``), ``xor-matrix`` (``rows``). A value the models refuse raises
/// :class:`RtlGenError` with the message ``rtl-gen hash --config`` prints for the same
/// configuration.
#[pyclass(module = "rtl_gen", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Hasher {
    pub config: HashConfig,
}

/// A kind by name, refused as the CLI refuses it.
pub fn kind(name: &str) -> PyResult<HashKind> {
    name.parse::<HashKind>().map_err(refuse)
}

impl Hasher {
    /// The configuration object of this hasher (the JSON of `rtl-gen hash --config`).
    fn object(&self) -> HashConfigObject {
        HashConfigObject::from_config(&self.config)
    }

    /// Validates a configuration object; one without its kind's fields is refused, naming the
    /// first missing field.
    pub fn from_object(object: &HashConfigObject) -> PyResult<Self> {
        match object.validate().map_err(refuse)? {
            (_, Some(config)) => Ok(Self { config }),
            (_, None) => Err(refuse(models::Error::MissingField {
                kind: object.kind.name(),
                field: object.kind.fields()[0],
            })),
        }
    }
}

#[pymethods]
impl Hasher {
    #[new]
    #[pyo3(signature = (kind, addr_bits, banks, *, k=None, k1=None, k2=None, mask=None, bits=None, pairs=None, rows=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: &str,
        addr_bits: u32,
        banks: u64,
        k: Option<u32>,
        k1: Option<u32>,
        k2: Option<u32>,
        mask: Option<u64>,
        bits: Option<Vec<u32>>,
        pairs: Option<Vec<[u32; 2]>>,
        rows: Option<Vec<u64>>,
    ) -> PyResult<Self> {
        let mut object = HashConfigObject::new(self::kind(kind)?, addr_bits, banks);
        object.k = k;
        object.k1 = k1;
        object.k2 = k2;
        object.mask = mask;
        object.bits = bits;
        object.pairs = pairs;
        object.rows = rows.map(|r| r.into_iter().map(RowMask).collect());
        Self::from_object(&object)
    }

    /// The hasher of a configuration object or a hash block's manifest, as JSON text (what
    /// ``rtl-gen hash --config`` reads, ``rtl-gen search`` writes as ``best.json``).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        let value = rtl_gen::json_input::parse_value(text).map_err(refuse)?;
        let key = value.get("configuration").map(|_| "configuration");
        let object: HashConfigObject = rtl_gen::json_input::parse(text, key).map_err(refuse)?;
        Self::from_object(&object)
    }

    /// The hasher of ``kind`` whose :attr:`parameters` are ``parameters`` (the fields a
    /// configurable hasher's ``cfg_i`` packs, in that order).
    #[staticmethod]
    fn from_parameters(
        kind: &str,
        addr_bits: u32,
        banks: u64,
        parameters: Vec<u64>,
    ) -> PyResult<Self> {
        let geometry = Geometry::new(addr_bits, banks).map_err(refuse)?;
        let config = HashConfig::from_parameters(self::kind(kind)?, geometry, &parameters)
            .map_err(refuse)?;
        Ok(Self { config })
    }

    /// A uniformly random configuration of ``kind`` drawn from ``seed`` (ChaCha8, as the
    /// testbenches draw theirs); random ``xor-matrix`` rows may be rank-deficient.
    #[staticmethod]
    #[pyo3(signature = (kind, addr_bits, banks, seed=1))]
    fn random(kind: &str, addr_bits: u32, banks: u64, seed: u64) -> PyResult<Self> {
        let geometry = Geometry::new(addr_bits, banks).map_err(refuse)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Ok(Self {
            config: HashConfig::random(self::kind(kind)?, geometry, &mut rng),
        })
    }

    /// The family: ``modulo``, ``bitvector-perm``, ``bitvector-xor``, ``bitwise-perm``,
    /// ``bitwise-xor`` or ``xor-matrix``.
    #[getter]
    fn kind(&self) -> &'static str {
        self.config.kind().name()
    }

    /// Word-address bits ``n``.
    #[getter]
    fn addr_bits(&self) -> u32 {
        self.config.geometry().addr_bits()
    }

    /// Banks, ``2^m``.
    #[getter]
    fn banks(&self) -> u64 {
        self.config.geometry().banks()
    }

    /// Bank bits ``m``.
    #[getter]
    fn bank_bits(&self) -> u32 {
        self.config.geometry().bank_bits()
    }

    /// The configuration's values in the order a configurable hasher's ``cfg_i`` packs them:
    /// ``k``; ``k1, k2, mask``; ``bits``; ``pairs`` flattened; ``rows``.
    #[getter]
    fn parameters(&self) -> Vec<u64> {
        self.config.parameters()
    }

    /// The same hash as a GF(2) matrix: row ``i`` is the mask of address bits XORed into bank
    /// bit ``i`` (every family is one).
    #[getter]
    fn matrix(&self) -> Vec<u64> {
        self.config.to_matrix().rows().to_vec()
    }

    /// The matrix's rank over GF(2): ``2^rank`` banks are reachable.
    #[getter]
    fn rank(&self) -> u32 {
        self.config.to_matrix().rank()
    }

    /// The bank of each address (bits above ``addr_bits`` are ignored): one int for an int,
    /// else a ``uint64`` array of the same shape, computed in parallel with the GIL released.
    fn bank<'py>(&self, addresses: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let config = &self.config;
        map_u64(addresses, "addresses", |a| config.bank(a))
    }

    /// The DMM congestion of each warp access under this hash: the most distinct addresses
    /// any bank receives (identical addresses merge). ``accesses`` is one access (1-D: an int
    /// back) or one a row (2-D: a ``uint32`` array back); ``active`` masks threads off.
    #[pyo3(signature = (accesses, active=None))]
    fn congestion<'py>(
        &self,
        accesses: &Bound<'py, PyAny>,
        active: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let warps = Warps::read(accesses, active, "accesses", MAX_THREADS)?;
        let config = &self.config;
        warps.map_threads(accesses.py(), |t| {
            let addresses: Vec<u64> = t.iter().flatten().copied().collect();
            congestion(&addresses, |a| config.bank(a))
        })
    }

    /// The configuration object as JSON text (``rtl-gen hash --config`` reads it).
    fn to_json(&self) -> String {
        serde_json::to_string(&self.object()).unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// The configuration object as a dict (the JSON of :meth:`to_json`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let json = py.import("json")?;
        Ok(json
            .call_method1("loads", (self.to_json(),))?
            .cast_into::<PyDict>()?)
    }

    fn __repr__(&self) -> String {
        let o = self.object();
        let mut fields = vec![
            format!("kind='{}'", o.kind.name()),
            format!("addr_bits={}", o.addr_bits),
            format!("banks={}", o.banks),
        ];
        let list = |v: &[u64]| {
            format!(
                "[{}]",
                v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
            )
        };
        if let Some(k) = o.k {
            fields.push(format!("k={k}"));
        }
        if let (Some(k1), Some(k2), Some(mask)) = (o.k1, o.k2, o.mask) {
            fields.push(format!("k1={k1}, k2={k2}, mask={mask}"));
        }
        if let Some(bits) = &o.bits {
            fields.push(format!(
                "bits={}",
                list(&bits.iter().map(|&b| u64::from(b)).collect::<Vec<_>>())
            ));
        }
        if let Some(pairs) = &o.pairs {
            let p: Vec<String> = pairs.iter().map(|[a, b]| format!("({a}, {b})")).collect();
            fields.push(format!("pairs=[{}]", p.join(", ")));
        }
        if let Some(rows) = &o.rows {
            let r: Vec<String> = rows.iter().map(|r| format!("{:#x}", r.0)).collect();
            fields.push(format!("rows=[{}]", r.join(", ")));
        }
        format!("Hasher({})", fields.join(", "))
    }
}
