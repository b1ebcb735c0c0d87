//! The bank hasher's golden model behind `golden_hash_open`, `golden_hash_next` and
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

/// One open model: the stream, the plan's packing, and the current configuration's `cfg_i`.
struct HashModel {
    stream: HashStimulus,
    addr_bits: usize,
    cfg_fields: Vec<[u32; 2]>,
    cfg_width: usize,
    cfg_words: Vec<u32>,
    bank_bits: usize,
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

impl HashModel {
    fn open(plan: &HashPlan) -> Result<Self, String> {
        let stream = plan.stimulus()?;
        let cfg_width = plan
            .cfg_fields
            .iter()
            .map(|[lsb, width]| (lsb + width) as usize)
            .max()
            .unwrap_or(0);
        Ok(Self {
            stream,
            addr_bits: plan.configuration.addr_bits as usize,
            cfg_fields: plan.cfg_fields.clone(),
            cfg_width,
            cfg_words: vec![0; cfg_width.div_ceil(32)],
            bank_bits: models::Geometry::new(plan.configuration.addr_bits, plan.configuration.banks)
                .map_err(|e| e.to_string())?
                .bank_bits() as usize,
        })
    }

    /// The next vector into `stimulus` (`{addr_i, cfg_i}`) and `expected` (`bank_o`).
    fn next(&mut self, stimulus: &mut [u32], expected: &mut [u32]) -> bool {
        let Some(step) = self.stream.next_step() else {
            return false;
        };
        let config: &HashConfig = self.stream.config();
        if step.new_config {
            self.cfg_words.fill(0);
            for ([lsb, width], value) in self.cfg_fields.iter().zip(config.parameters()) {
                put(&mut self.cfg_words, *lsb as usize, *width as usize, value);
            }
        }
        stimulus.fill(0);
        stimulus[..self.cfg_words.len()].copy_from_slice(&self.cfg_words);
        put(stimulus, self.cfg_width, self.addr_bits, step.addr);
        let m = config.geometry().bank_bits() as usize;
        expected.fill(0);
        put(expected, 0, m, config.bank(step.addr));
        true
    }

    fn stimulus_words(&self) -> usize {
        (self.cfg_width + self.addr_bits).div_ceil(32)
    }

    fn expected_words(&self) -> usize {
        self.bank_bits.div_ceil(32)
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

/// Writes the next vector: `stimulus` gets `{addr_i, cfg_i}`, `expected` the bank, each as
/// 32-bit words, least significant first (DPI's `svBitVecVal`). Returns 1, or 0 once the
/// stream is exhausted (then nothing is written).
///
/// # Safety
/// `model` must come from [`golden_hash_open`] and not be closed; `stimulus` and `expected`
/// must hold the words of the testbench's `IN_W` and `OUT_W` bits, which the plan's widths
/// give.
#[no_mangle]
pub unsafe extern "C" fn golden_hash_next(
    model: *mut c_void,
    stimulus: *mut u32,
    expected: *mut u32,
) -> c_int {
    // SAFETY: a live model from golden_hash_open, used by one thread (the simulation's).
    let Some(model) = (unsafe { model.cast::<HashModel>().as_mut() }) else {
        return 0;
    };
    // SAFETY: the testbench's vectors have exactly these many words.
    let (stimulus, expected) = unsafe {
        (
            std::slice::from_raw_parts_mut(stimulus, model.stimulus_words()),
            std::slice::from_raw_parts_mut(expected, model.expected_words()),
        )
    };
    c_int::from(model.next(stimulus, expected))
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
        while model.next(&mut s, &mut e) {
            banks.push((s[0], e[0]));
        }
        assert_eq!(banks.len(), 1 << 14);
        assert_eq!(banks[0x104], (0x104, 0));
        assert_eq!(banks[1 << 6], (1 << 6, 0b10000));
    }

    #[test]
    fn configurable_plan_packs_cfg_below_the_address() {
        let mut object = HashConfigObject::new(HashKind::BitvectorXor, 14, 32);
        (object.k1, object.k2, object.mask) = (Some(2), Some(8), Some(7));
        let plan = HashPlan {
            configuration: object,
            configurable: true,
            cfg_fields: vec![[0, 4], [4, 4], [8, 5]],
            stimulus: HashPlanStimulus::Vectors(VectorPlan::default()),
        };
        let mut model = HashModel::open(&plan).unwrap();
        let (mut s, mut e) = ([0u32; 1], [0u32; 1]);
        assert!(model.next(&mut s, &mut e));
        // Address 0 first, cfg 0x782 (k1 2, k2 8, mask 7) in the low 13 bits.
        assert_eq!((s[0], e[0]), (0x782, 0));
        assert!(model.next(&mut s, &mut e));
        assert_eq!(s[0], (0x3fff << 13) | 0x782);
        let bad = HashPlan {
            cfg_fields: vec![[0, 4]],
            ..plan
        };
        assert!(HashModel::open(&bad).err().unwrap().contains("cfg_fields"));
    }
}
