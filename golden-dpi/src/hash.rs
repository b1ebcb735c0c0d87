//! The bank hasher's golden model behind `golden_hash_open`, `golden_hash_round` and
//! `golden_hash_close`.

use models::hash_space::sweep_configs;
use models::hash_stimulus::{HashStimulus, VectorPlan};
use models::{HashConfig, HashConfigObject};
use serde::{Deserialize, Serialize};
use std::ffi::{c_char, c_int, c_void, CStr};

/// What the model checks: the hasher, how its `cfg_i` is packed, and the stimulus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashPlan {
    /// Kind and shape; the parameters of a fixed hasher (or the program of a configurable
    /// one, applied first).
    pub configuration: HashConfigObject,
    /// Configurable (`cfg_i` present) or fixed.
    pub configurable: bool,
    /// `cfg_i`'s fields as `[lsb, width]`, in [`HashConfig::parameters`] order (empty for a
    /// fixed hasher).
    pub cfg_fields: Vec<[u32; 2]>,
    /// Which vectors.
    pub stimulus: HashPlanStimulus,
}

/// Which vectors a [`HashPlan`] checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum HashPlanStimulus {
    /// The vectors the file-based testbench checks for this plan
    /// ([`HashStimulus::fixed`] or [`HashStimulus::configurable`]).
    Vectors(VectorPlan),
    /// A configuration sweep: every configuration [`sweep_configs`] lists, each on every
    /// address.
    Sweep {
        /// All configurations are listed when the fields encode at most this many.
        max_configs: usize,
        /// Otherwise this many are sampled.
        samples: usize,
        /// Seed of the sample where the configurations are sampled.
        seed: u64,
    },
}

impl HashPlan {
    /// The stream this plan checks; errors name what is wrong with the plan.
    pub fn stimulus(&self) -> Result<HashStimulus, String> {
        let object = &self.configuration;
        let (geometry, config) = object.validate().map_err(|e| e.to_string())?;
        if self.configurable {
            let fields = config.as_ref().map_or(
                models::hash_space::field_ranges(object.kind, geometry).len(),
                |c| c.parameters().len(),
            );
            if fields != self.cfg_fields.len() || fields == 0 {
                return Err(format!(
                    "cfg_fields has {} fields; a configurable {} has {fields}",
                    self.cfg_fields.len(),
                    object.kind
                ));
            }
        }
        Ok(match (&self.stimulus, self.configurable) {
            (HashPlanStimulus::Vectors(plan), false) => HashStimulus::fixed(
                config.ok_or_else(|| format!("a fixed {} needs its parameters", object.kind))?,
                plan,
            ),
            (HashPlanStimulus::Vectors(plan), true) => {
                HashStimulus::configurable(object.kind, geometry, config, plan)
            }
            (
                HashPlanStimulus::Sweep {
                    max_configs,
                    samples,
                    seed,
                },
                true,
            ) => {
                let (configs, _) =
                    sweep_configs(object.kind, geometry, *max_configs, *samples, *seed);
                if configs.is_empty() {
                    return Err(format!("no configuration of {} to sweep", object.kind));
                }
                HashStimulus::sweep(configs)
            }
            (HashPlanStimulus::Sweep { .. }, false) => {
                return Err("a configuration sweep needs a configurable hasher".into())
            }
        })
    }
}

/// One open model: the stream, the plan's packing, the current configuration's `cfg_i` and
/// its banks as lookup tables.
struct HashModel {
    stream: HashStimulus,
    addr_bits: usize,
    cfg_fields: Vec<[u32; 2]>,
    cfg_width: usize,
    cfg_words: Vec<u32>,
    bank_bits: usize,
    banks: NibbleBanks,
}

/// Writes the low `width` bits of `value` at bit `lsb` of `words` (which start zeroed there).
fn put(words: &mut [u32], lsb: usize, width: usize, value: u64) {
    let mut done = 0;
    while done < width {
        let bit = lsb + done;
        let take = (32 - bit % 32).min(width - done);
        let chunk = (value >> done) & ((1u64 << take) - 1);
        words[bit / 32] |= (chunk as u32) << (bit % 32);
        done += take;
    }
}

/// A configuration's bank function as one table per 4-bit piece of the address: every hasher
/// kind is linear over GF(2) (each bank bit is the XOR of some address bits; modulo and the
/// permutations select bits), so the bank of an address is the XOR of the banks of its pieces.
/// Building the tables takes 16 entries a piece (at most 256 for 64-bit addresses), cheap
/// even when a configuration covers a single vector; a lookup takes one load a piece, against
/// a loop over the configuration's fields for [`HashConfig::bank`].
struct NibbleBanks {
    tables: Vec<[u64; 16]>,
}

impl NibbleBanks {
    fn new(addr_bits: usize) -> Self {
        Self {
            tables: vec![[0; 16]; addr_bits.div_ceil(4)],
        }
    }

    /// Fills the tables with `config`'s banks.
    fn build(&mut self, config: &HashConfig) {
        for (piece, table) in self.tables.iter_mut().enumerate() {
            let unit: [u64; 4] = std::array::from_fn(|b| {
                let bit = 4 * piece + b;
                if bit < 64 {
                    config.bank(1 << bit)
                } else {
                    0
                }
            });
            for (x, entry) in table.iter_mut().enumerate() {
                *entry = (0..4)
                    .filter(|b| x >> b & 1 == 1)
                    .fold(0, |bank, b| bank ^ unit[b]);
            }
        }
    }

    /// The bank of `addr`.
    #[inline]
    fn bank(&self, addr: u64) -> u64 {
        self.tables
            .iter()
            .enumerate()
            .fold(0, |bank, (piece, table)| {
                bank ^ table[(addr >> (4 * piece)) as usize & 15]
            })
    }
}

impl HashModel {
    fn open(plan: &HashPlan) -> Result<Self, String> {
        let stream = plan.stimulus()?;
        let cfg_width = plan
            .cfg_fields
            .iter()
            .map(|[lsb, width]| (lsb + width) as usize)
            .max()
            .unwrap_or(0);
        let addr_bits = plan.configuration.addr_bits as usize;
        Ok(Self {
            stream,
            addr_bits,
            cfg_fields: plan.cfg_fields.clone(),
            cfg_width,
            cfg_words: vec![0; cfg_width.div_ceil(32)],
            bank_bits: models::Geometry::new(plan.configuration.addr_bits, plan.configuration.banks)
                .map_err(|e| e.to_string())?
                .bank_bits() as usize,
            banks: NibbleBanks::new(addr_bits),
        })
    }

    /// The width of one vector's stimulus, `{addr_i, cfg_i}`.
    fn stimulus_width(&self) -> usize {
        self.cfg_width + self.addr_bits
    }

    /// Up to `lanes` next vectors, vector `k` into bits `k * IN_W..` of `stimulus`
    /// (`{addr_i, cfg_i}`, `IN_W` bits) and bits `k * OUT_W..` of `expected` (`bank_o`,
    /// `OUT_W` bits); zeros after the last. Returns how many it wrote: `lanes` unless the
    /// stream ended.
    fn round(&mut self, lanes: usize, stimulus: &mut [u32], expected: &mut [u32]) -> usize {
        let (in_w, out_w) = (self.stimulus_width(), self.bank_bits);
        stimulus.fill(0);
        expected.fill(0);
        for lane in 0..lanes {
            let Some(step) = self.stream.next_step() else {
                return lane;
            };
            if step.new_config {
                let config: &HashConfig = self.stream.config();
                self.cfg_words.fill(0);
                for ([lsb, width], value) in self.cfg_fields.iter().zip(config.parameters()) {
                    put(&mut self.cfg_words, *lsb as usize, *width as usize, value);
                }
                self.banks.build(config);
            }
            let base = lane * in_w;
            if in_w <= 64 {
                // The whole vector in one piece (cfg_width < 64: the address has a bit).
                let cfg = self
                    .cfg_words
                    .iter()
                    .rev()
                    .fold(0, |v, &word| v << 32 | u64::from(word));
                put(stimulus, base, in_w, cfg | step.addr << self.cfg_width);
            } else {
                for (i, &word) in self.cfg_words.iter().enumerate() {
                    let width = (self.cfg_width - 32 * i).min(32);
                    put(stimulus, base + 32 * i, width, u64::from(word));
                }
                put(stimulus, base + self.cfg_width, self.addr_bits, step.addr);
            }
            put(expected, lane * out_w, out_w, self.banks.bank(step.addr));
        }
        lanes
    }
}

/// Reads the plan at `path` and opens its model.
fn open_path(path: &str) -> Result<HashModel, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))?;
    let plan: HashPlan =
        serde_json::from_str(&text).map_err(|e| format!("{path} is not a hash plan: {e}"))?;
    HashModel::open(&plan)
}

/// Opens the model of the plan file `plan` (a NUL-terminated path); NULL, with a message on
/// stderr, when the file cannot be read or the plan is invalid.
///
/// # Safety
/// `plan` must be NULL or point to a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn golden_hash_open(plan: *const c_char) -> *mut c_void {
    if plan.is_null() {
        eprintln!("golden_hash_open: no plan");
        return std::ptr::null_mut();
    }
    // SAFETY: the caller passes a NUL-terminated string.
    let path = unsafe { CStr::from_ptr(plan) }.to_string_lossy();
    match open_path(&path) {
        Ok(model) => Box::into_raw(Box::new(model)).cast(),
        Err(e) => {
            eprintln!("golden_hash_open: {e}");
            std::ptr::null_mut()
        }
    }
}

/// Writes the next `lanes` vectors (fewer once the stream is exhausted), vector `k` at bit
/// `k * IN_W` of `stimulus` (`{addr_i, cfg_i}`) and at bit `k * OUT_W` of `expected` (the
/// bank), as 32-bit words, least significant first (DPI's `svBitVecVal`), zeros after the last
/// vector. Returns how many it wrote (0 once the stream is exhausted). One call a round of
/// the testbench, not one a vector: a DPI-C call and the copies around it cost about as much
/// as drawing a vector.
///
/// # Safety
/// `model` must come from [`golden_hash_open`] and not be closed; `stimulus` and `expected`
/// must hold `lanes` times the testbench's `IN_W` and `OUT_W` bits, which the plan's widths
/// give, rounded up to whole words.
#[no_mangle]
pub unsafe extern "C" fn golden_hash_round(
    model: *mut c_void,
    lanes: c_int,
    stimulus: *mut u32,
    expected: *mut u32,
) -> c_int {
    // SAFETY: a live model from golden_hash_open, used by one thread (the simulation's).
    let Some(model) = (unsafe { model.cast::<HashModel>().as_mut() }) else {
        return 0;
    };
    let Ok(lanes) = usize::try_from(lanes) else {
        return 0;
    };
    let words = |width: usize| (lanes * width).div_ceil(32);
    // SAFETY: the testbench's round has exactly these many words.
    let (stimulus, expected) = unsafe {
        (
            std::slice::from_raw_parts_mut(stimulus, words(model.stimulus_width())),
            std::slice::from_raw_parts_mut(expected, words(model.bank_bits)),
        )
    };
    let drawn = model.round(lanes, stimulus, expected);
    c_int::try_from(drawn).unwrap_or_else(|_| unreachable!("at most `lanes`, a c_int"))
}

/// Frees a model (NULL is ignored).
///
/// # Safety
/// `model` must be NULL or come from [`golden_hash_open`], and not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn golden_hash_close(model: *mut c_void) {
    if !model.is_null() {
        // SAFETY: the pointer came from Box::into_raw in golden_hash_open.
        drop(unsafe { Box::from_raw(model.cast::<HashModel>()) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use models::HashKind;

    #[test]
    fn put_spans_words() {
        let mut w = vec![0u32; 3];
        put(&mut w, 30, 40, 0xff_ffff_ffff);
        assert_eq!(w, vec![0xc000_0000, 0xffff_ffff, 0x3f]);
    }

    /// The Fig. 5 configuration as a fixed 14-bit hasher: vector 0x104 (a2 and a8) is bank 0,
    /// 1 << 6 is bank 0b10000 (hand-computed in models' figure_5 test).
    #[test]
    fn fixed_plan_streams_every_address_with_its_bank() {
        let mut object = HashConfigObject::new(HashKind::BitvectorXor, 14, 32);
        (object.k1, object.k2, object.mask) = (Some(2), Some(8), Some(7));
        let plan = HashPlan {
            configuration: object,
            configurable: false,
            cfg_fields: vec![],
            stimulus: HashPlanStimulus::Vectors(VectorPlan::default()),
        };
        let mut model = HashModel::open(&plan).unwrap();
        let (mut s, mut e) = ([0u32; 1], [0u32; 1]);
        let mut banks = Vec::new();
        while model.round(1, &mut s, &mut e) == 1 {
            banks.push((s[0], e[0]));
        }
        assert_eq!(banks.len(), 1 << 14);
        assert_eq!(banks[0x104], (0x104, 0));
        assert_eq!(banks[1 << 6], (1 << 6, 0b10000));
    }

    /// The configurable Fig. 5 bit-vector XOR (k1 2, k2 8, mask 7) at 14 bits and 32 banks,
    /// its `cfg_i` packed as its manifest packs it (13 bits).
    fn configurable_fig5(plan: VectorPlan) -> HashPlan {
        let mut object = HashConfigObject::new(HashKind::BitvectorXor, 14, 32);
        (object.k1, object.k2, object.mask) = (Some(2), Some(8), Some(7));
        HashPlan {
            configuration: object,
            configurable: true,
            cfg_fields: vec![[0, 4], [4, 4], [8, 5]],
            stimulus: HashPlanStimulus::Vectors(plan),
        }
    }

    #[test]
    fn configurable_plan_packs_cfg_below_the_address() {
        let plan = configurable_fig5(VectorPlan::default());
        let mut model = HashModel::open(&plan).unwrap();
        let (mut s, mut e) = ([0u32; 1], [0u32; 1]);
        assert_eq!(model.round(1, &mut s, &mut e), 1);
        // Address 0 first, cfg 0x782 (k1 2, k2 8, mask 7) in the low 13 bits.
        assert_eq!((s[0], e[0]), (0x782, 0));
        assert_eq!(model.round(1, &mut s, &mut e), 1);
        assert_eq!(s[0], (0x3fff << 13) | 0x782);
        let bad = HashPlan {
            cfg_fields: vec![[0, 4]],
            ..plan
        };
        assert!(HashModel::open(&bad).err().unwrap().contains("cfg_fields"));
    }

    /// A round of three lanes packs vector `k` at bit `27 k` (13 bits of `cfg_i`, 14 of
    /// `addr_i`) and its bank at bit `5 k`, as three rounds of one lane do; the last round of
    /// a stream writes fewer lanes and zeros after them.
    #[test]
    fn a_round_packs_its_lanes_side_by_side_in_stream_order() {
        let plan = configurable_fig5(VectorPlan {
            seed: 1,
            vectors: 4,
            configs: 1,
        });
        let mut one = HashModel::open(&plan).unwrap();
        let singles: Vec<(u64, u64)> = std::iter::from_fn(|| {
            let (mut s, mut e) = ([0u32; 1], [0u32; 1]);
            (one.round(1, &mut s, &mut e) == 1).then_some((u64::from(s[0]), u64::from(e[0])))
        })
        .collect();
        assert_eq!(singles.len(), 4);
        let mut three = HashModel::open(&plan).unwrap();
        let (mut s, mut e) = ([0u32; 3], [0u32; 1]);
        let field = |words: &[u32], lsb: usize, width: usize| {
            let wide = words
                .iter()
                .rev()
                .fold(0u128, |v, &w| v << 32 | u128::from(w));
            ((wide >> lsb) & ((1 << width) - 1)) as u64
        };
        assert_eq!(three.round(3, &mut s, &mut e), 3);
        for (k, &(stim, bank)) in singles[..3].iter().enumerate() {
            assert_eq!((field(&s, 27 * k, 27), field(&e, 5 * k, 5)), (stim, bank));
        }
        assert_eq!(three.round(3, &mut s, &mut e), 1);
        assert_eq!((field(&s, 0, 27), field(&e, 0, 5)), singles[3]);
        assert_eq!((field(&s, 27, 54), field(&e, 5, 10)), (0, 0));
        assert_eq!(three.round(3, &mut s, &mut e), 0);
    }

    /// A vector wider than 64 bits (`cfg_i` 50 bits, `addr_i` 20) is packed field by field:
    /// the configuration's parameters 5 bits each, the address above them, the bank in `e`.
    #[test]
    fn a_vector_wider_than_64_bits_is_packed_field_by_field() {
        let plan = HashPlan {
            configuration: HashConfigObject::new(HashKind::BitwiseXor, 20, 32),
            configurable: true,
            cfg_fields: (0..10).map(|i| [5 * i, 5]).collect(),
            stimulus: HashPlanStimulus::Vectors(VectorPlan {
                seed: 3,
                vectors: 2,
                configs: 1,
            }),
        };
        let mut reference = HashModel::open(&plan).unwrap();
        let mut model = HashModel::open(&plan).unwrap();
        let (mut s, mut e) = ([0u32; 3], [0u32; 1]);
        for _ in 0..2 {
            let step = reference.stream.next_step().unwrap();
            let config = reference.stream.config();
            let cfg = config
                .parameters()
                .iter()
                .enumerate()
                .fold(0u128, |v, (i, &p)| v | u128::from(p) << (5 * i));
            let want = cfg | u128::from(step.addr) << 50;
            assert_eq!(model.round(1, &mut s, &mut e), 1);
            let got = s.iter().rev().fold(0u128, |v, &w| v << 32 | u128::from(w));
            assert_eq!(got, want);
            assert_eq!(u64::from(e[0]), config.bank(step.addr));
        }
    }

    /// The tables give every kind's banks, [`HashConfig::bank`]'s, on random configurations
    /// and addresses, at 14 address bits (a partial last piece) and 64.
    #[test]
    fn nibble_tables_give_every_kinds_banks() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for (n, banks) in [(14, 32), (64, 65536)] {
            let geometry = models::Geometry::new(n, banks).unwrap();
            for kind in HashKind::ALL {
                let config = HashConfig::random(kind, geometry, &mut rng);
                let mut tables = NibbleBanks::new(n as usize);
                tables.build(&config);
                for _ in 0..1000 {
                    let addr = rng.gen::<u64>() & geometry.addr_mask();
                    assert_eq!(tables.bank(addr), config.bank(addr), "{kind} {addr:#x}");
                }
            }
        }
    }
}
