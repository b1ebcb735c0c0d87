//! The local memories `--map` takes: Vortex's own (the baseline), or `rtl-gen smem
//! --interface vortex` with a map in front of its banks, with or without its broadcast of
//! same-word reads.
//!
//! `best` is one configurable build (a GF(2) matrix, which holds every hash family) that each
//! kernel programs through Vortex's device configuration registers with the best hash
//! `rtl-gen search` finds on that kernel's own trace.

use super::config::{VxConfig, WORD_BYTES};
use crate::rap::RapDesign;
use crate::smem::{MapSpec, SmemDesign};
use crate::Error;
use hdl_util::Bits;
use models::rap::LayoutKind;
use models::smem::Shape;
use models::{Geometry, HashConfig, HashFunction};
use std::path::PathBuf;

/// Bits of the generated memory's tag: Vortex's `LMEM_TAG_WIDTH` in a release rtlsim.
pub const TAG_BITS: u32 = 2;

/// Bits of the generated memory's counters.
pub const COUNTER_BITS: u32 = 32;

/// The suffix of a map without the broadcast.
pub const NO_BROADCAST: &str = "/no-broadcast";

/// The map in front of a generated memory's banks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Generated {
    /// The low address bits (Vortex's own bank select).
    Modulo,
    /// The XOR paper's fixed XOR: `bank = addr[0..m) ^ addr[m..2m)`.
    Xor,
    /// A hash configuration file (`rtl-gen hash --config`'s object, `rtl-gen search`'s
    /// `best.json`, a block manifest), fixed.
    Hash(PathBuf),
    /// RAP on banks x banks tiles, seed 1.
    Rap,
    /// A configurable GF(2) matrix, programmed per kernel with the best hash for its trace.
    Best,
}

/// A local memory to run on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapChoice {
    /// Vortex's own `VX_local_mem` (low-bit bank select, no broadcast): the baseline.
    Vortex,
    /// A generated memory: its map and whether it broadcasts same-word reads.
    Generated {
        /// The map.
        map: Generated,
        /// Same-word reads served by one bank read.
        broadcast: bool,
    },
}

/// The names `--map` takes (`hash:FILE` with a file; any but `vortex` may end in
/// `/no-broadcast`).
pub const MAP_NAMES: [&str; 6] = ["vortex", "modulo", "xor", "hash:FILE", "rap", "best"];

impl MapChoice {
    /// Parses one `--map` item; the error names `--map`, the value and the maps allowed.
    pub fn parse(item: &str) -> Result<Self, Error> {
        let bad = |message: String| Error::BadFlag {
            flag: "--map",
            value: item.to_string(),
            message,
        };
        let (base, broadcast) = match item.strip_suffix(NO_BROADCAST) {
            Some(base) => (base, false),
            None => (item, true),
        };
        let map = match base {
            "vortex" if broadcast => return Ok(MapChoice::Vortex),
            "vortex" => {
                return Err(bad(
                    "Vortex's own memory has no broadcast to turn off".to_string()
                ))
            }
            "modulo" => Generated::Modulo,
            "xor" => Generated::Xor,
            "rap" => Generated::Rap,
            "best" => Generated::Best,
            _ => match base.strip_prefix("hash:") {
                Some("") => return Err(bad("hash: needs a configuration file".to_string())),
                Some(file) => Generated::Hash(PathBuf::from(file)),
                None => {
                    return Err(bad(format!(
                        "unknown map; the maps are {} (vortex: Vortex's own local memory; \
                         add {NO_BROADCAST} to a generated one to turn its broadcast off)",
                        MAP_NAMES.join(", ")
                    )))
                }
            },
        };
        Ok(MapChoice::Generated { map, broadcast })
    }

    /// Its name in tables and records: the `--map` item.
    pub fn label(&self) -> String {
        match self {
            MapChoice::Vortex => "vortex".to_string(),
            MapChoice::Generated { map, broadcast } => {
                let base = match map {
                    Generated::Modulo => "modulo".to_string(),
                    Generated::Xor => "xor".to_string(),
                    Generated::Hash(file) => format!("hash:{}", file.display()),
                    Generated::Rap => "rap".to_string(),
                    Generated::Best => "best".to_string(),
                };
                if *broadcast {
                    base
                } else {
                    base + NO_BROADCAST
                }
            }
        }
    }

    /// A name for folders: the label with anything but letters, digits, `-` and `.` as `_`.
    pub fn folder(&self) -> String {
        self.label()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }

    /// Whether each kernel programs this map with its own searched hash.
    pub fn searched(&self) -> bool {
        matches!(
            self,
            MapChoice::Generated {
                map: Generated::Best,
                ..
            }
        )
    }

    /// The generated memory for `config` (`None` for Vortex's own); a map that does not fit
    /// the memory's banks or size is refused naming `--map`.
    pub fn design(&self, config: &VxConfig) -> Result<Option<SmemDesign>, Error> {
        let MapChoice::Generated { map, broadcast } = self else {
            return Ok(None);
        };
        let label = self.label();
        let refuse = |e: Error| {
            let message = match e {
                Error::BadFlag {
                    flag,
                    value,
                    message,
                } => format!("{flag} {value}: {message}"),
                other => other.to_string(),
            };
            Error::BadFlag {
                flag: "--map",
                value: label.clone(),
                message: format!("does not fit {config}: {message}"),
            }
        };
        let shape = shape(config).map_err(refuse)?;
        let geometry = Geometry::new(shape.addr_bits(), u64::from(shape.banks()))
            .map_err(|e| refuse(e.into()))?;
        let spec = match map {
            Generated::Modulo => MapSpec::Hash {
                config: HashConfig::new(geometry, HashFunction::Modulo)
                    .map_err(|e| refuse(e.into()))?,
                configurable: false,
            },
            Generated::Xor => MapSpec::Hash {
                config: models::search::fixed_xor(geometry).ok_or_else(|| {
                    refuse(Error::BadFlag {
                        flag: "--banks",
                        value: config.banks.to_string(),
                        message: "leaves no address bits for the fixed XOR's second operand"
                            .to_string(),
                    })
                })?,
                configurable: false,
            },
            Generated::Hash(file) => {
                let object = crate::hash::config_file::read(file).map_err(refuse)?;
                let (_, hash) = object.validate().map_err(|e| refuse(e.into()))?;
                let hash = hash.ok_or_else(|| {
                    refuse(Error::BadFlag {
                        flag: "hash:",
                        value: file.display().to_string(),
                        message: "gives no configuration fields".to_string(),
                    })
                })?;
                if hash.geometry() != geometry {
                    return Err(refuse(Error::BadFlag {
                        flag: "hash:",
                        value: file.display().to_string(),
                        message: format!(
                            "is a hash of {} address bits onto {} banks; the memory needs {} \
                             bits onto {} banks",
                            hash.geometry().addr_bits(),
                            hash.geometry().banks(),
                            geometry.addr_bits(),
                            geometry.banks()
                        ),
                    }));
                }
                MapSpec::Hash {
                    config: hash,
                    configurable: false,
                }
            }
            Generated::Rap => MapSpec::Rap(
                RapDesign::drawn(LayoutKind::Rap, shape.banks(), 1, false, false, false)
                    .map_err(refuse)?,
            ),
            Generated::Best => MapSpec::Hash {
                config: HashConfig::new(
                    geometry,
                    HashFunction::XorMatrix {
                        rows: HashConfig::new(geometry, HashFunction::Modulo)
                            .map_err(|e| refuse(e.into()))?
                            .to_matrix()
                            .rows()
                            .to_vec(),
                    },
                )
                .map_err(|e| refuse(e.into()))?,
                configurable: true,
            },
        };
        let design = SmemDesign::new(shape, spec, 1, None, COUNTER_BITS)
            .and_then(|d| d.with_broadcast(*broadcast))
            .and_then(|d| d.with_vortex(TAG_BITS))
            .map_err(refuse)?;
        Ok(Some(design))
    }
}

/// The generated memory's shape at `config`: a lane per thread, the banks, 4-byte words.
pub fn shape(config: &VxConfig) -> Result<Shape, Error> {
    Ok(Shape::new(
        config.threads,
        config.banks,
        config.words() / config.banks,
        WORD_BYTES,
    )?)
}

/// The DCR writes that load `cfg` into a memory whose configuration starts at `base`: word
/// `i` (bits `[32 i +: 32]`) at address `base + i`.
pub fn dcr_writes(base: u32, cfg: &Bits) -> Vec<(u32, u32)> {
    let width = cfg.width();
    (0..width.div_ceil(32))
        .map(|i| {
            let lsb = 32 * i;
            let value = cfg.field(lsb, (width - lsb).min(32));
            (base + i as u32, value as u32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name parses and prints back; `/no-broadcast` turns the broadcast off; Vortex's own
    /// has none to turn off; an unknown name lists the maps.
    #[test]
    fn maps_parse_and_print_back() {
        for item in [
            "vortex",
            "modulo",
            "xor",
            "hash:out/best.json",
            "rap",
            "best",
            "modulo/no-broadcast",
        ] {
            assert_eq!(MapChoice::parse(item).unwrap().label(), item);
        }
        assert_eq!(
            MapChoice::parse("hash:a/b.json/no-broadcast").unwrap(),
            MapChoice::Generated {
                map: Generated::Hash("a/b.json".into()),
                broadcast: false
            }
        );
        let e = MapChoice::parse("vortex/no-broadcast")
            .unwrap_err()
            .to_string();
        assert!(e.contains("has no broadcast"), "{e}");
        let e = MapChoice::parse("xor9").unwrap_err().to_string();
        assert!(
            e.starts_with("--map xor9: unknown map; the maps are vortex, modulo"),
            "{e}"
        );
        assert_eq!(
            MapChoice::parse("hash:a/b.json").unwrap().folder(),
            "hash_a_b.json"
        );
    }

    /// The memory of Vortex's default configuration: 4 lanes, 4 banks of 1024 words; at 16 x
    /// 16, 16 banks of 256. A configuration word is loaded 32 bits per DCR, the last one short.
    #[test]
    fn shapes_and_dcr_words() {
        let d = shape(&VxConfig::default()).unwrap();
        assert_eq!(
            (d.lanes(), d.banks(), d.depth(), d.addr_bits()),
            (4, 4, 1024, 12)
        );
        let big = shape(&VxConfig::new(Some(16), Some(16), "").unwrap()).unwrap();
        assert_eq!((big.lanes(), big.banks(), big.depth()), (16, 16, 256));
        let mut cfg = Bits::zero(40);
        cfg.set_field(0, 32, 0x1234_5678);
        cfg.set_field(32, 8, 0xab);
        assert_eq!(dcr_writes(0x10, &cfg), [(0x10, 0x1234_5678), (0x11, 0xab)]);
    }
}
