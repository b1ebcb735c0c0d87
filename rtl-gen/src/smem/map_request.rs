//! The map in front of a shared memory's banks as a user asks for it: `--map` and its
//! options, the one flag group of `rtl-gen smem` and of the shared memory of `rtl-gen d2ma
//! system`, turned into a validated [`MapSpec`].

use super::design::MapSpec;
use crate::rap::RapDesign;
use crate::Error;
use clap::{Args, ValueEnum};
use models::rap::LayoutKind;
use models::smem::Shape;
use models::{Geometry, HashConfig, HashFunction, HashKind};
use std::path::PathBuf;

/// The maps in front of the banks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MapKind {
    /// Bank = the low address bits.
    Modulo,
    /// A hasher (--hash-config), fixed or --configurable.
    Hash,
    /// RAP on banks x banks tiles (--rap-seed, --rap-wide), baked or --configurable.
    Rap,
}

/// The map in front of a shared memory's banks and its options.
#[derive(Debug, Clone, Default, Args)]
pub struct MapRequest {
    /// The map in front of the banks [default: modulo].
    #[arg(long, value_enum)]
    pub map: Option<MapKind>,
    /// --map hash: a configuration object or block manifest (`rtl-gen hash --config`'s file,
    /// `rtl-gen search`'s best.json) with log2(banks x depth) address bits and --banks banks.
    #[arg(long)]
    pub hash_config: Option<PathBuf>,
    /// Take the map at run time: --map hash holds the hash in a configuration register
    /// written through cfg_we_i/cfg_i (the file's configuration is its reset value); --map rap
    /// its table in registers written through perm_we_i (reset to the seeded permutation).
    /// `--rap-loadable` is its old spelling for --map rap.
    #[arg(long, alias = "rap-loadable")]
    pub configurable: bool,
    /// --map rap: seed of the permutation [default: 1].
    #[arg(long)]
    pub rap_seed: Option<u64>,
    /// --map rap: a permutation conflict-free for 8-byte words too (Permutation::random_wide).
    #[arg(long)]
    pub rap_wide: bool,
}

fn bad(flag: &'static str, value: &str, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

impl MapRequest {
    /// The flags given, by name (for a command that takes them only in some modes).
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--map", self.map.is_some()),
            ("--hash-config", self.hash_config.is_some()),
            ("--configurable", self.configurable),
            ("--rap-seed", self.rap_seed.is_some()),
            ("--rap-wide", self.rap_wide),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }

    /// The map asked for, validated against the shape: a map's specification.
    pub fn spec(&self, shape: Shape) -> Result<MapSpec, Error> {
        let map = self.map.unwrap_or(MapKind::Modulo);
        let rap_flags = self.rap_seed.is_some() || self.rap_wide;
        if map != MapKind::Rap && rap_flags {
            return Err(bad("--rap-*", "given", "apply to --map rap only"));
        }
        if map != MapKind::Hash && self.hash_config.is_some() {
            return Err(bad("--hash-config", "given", "applies to --map hash only"));
        }
        if map == MapKind::Modulo && self.configurable {
            return Err(bad(
                "--configurable",
                "given",
                "the modulo map has nothing to configure: --configurable applies to --map hash \
                 or --map rap",
            ));
        }
        let geometry = Geometry::new(shape.addr_bits(), u64::from(shape.banks()))?;
        match map {
            MapKind::Modulo => Ok(MapSpec::Hash {
                config: HashConfig::new(geometry, HashFunction::Modulo)?,
                configurable: false,
            }),
            MapKind::Hash => {
                let path = self
                    .hash_config
                    .as_ref()
                    .ok_or_else(|| bad("--map", "hash", "needs --hash-config FILE"))?;
                let object = crate::hash::config_file::read(path)?;
                let (_, config) = object.validate()?;
                let config = config.ok_or_else(|| {
                    bad(
                        "--hash-config",
                        &path.display().to_string(),
                        "gives no configuration fields: the memory needs a whole configuration \
                         (a configurable map's reset value)",
                    )
                })?;
                if self.configurable && config.kind() == HashKind::Modulo {
                    return Err(Error::NothingToConfigure(HashKind::Modulo));
                }
                Ok(MapSpec::Hash {
                    config,
                    configurable: self.configurable,
                })
            }
            MapKind::Rap => {
                let seed = self.rap_seed.unwrap_or(1);
                let rap = RapDesign::drawn(
                    LayoutKind::Rap,
                    shape.banks(),
                    seed,
                    self.rap_wide,
                    self.configurable,
                    false,
                )?;
                Ok(MapSpec::Rap(rap))
            }
        }
    }
}
