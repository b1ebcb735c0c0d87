//! A shared memory to generate: its shape, its map, its ports, validated.

use crate::hash::{CfgField, CfgLayout, HashDesign};
use crate::rap::RapDesign;
use crate::rtl::ir::bits_for;
use crate::sram::{OpenRamMacro, SramMacro};
use crate::Error;
use models::smem::{Map, Shape};
use models::software::SoftwareIndex;
use models::{HashConfig, HashConfigObject, HashKind};
use serde::Serialize;
use testbenches::Bits;

/// Largest counter width.
pub const MAX_COUNTER_BITS: u32 = 64;

/// The map in front of the banks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapSpec {
    /// A bank hash (modulo included): fixed, or held in a configuration register the user
    /// writes (`config` is then the register's reset value). The row keeps the address bits the
    /// software index keeps (`models::software`); a configurable map holds them in the register
    /// too, as offsets.
    Hash {
        /// The hash (with the reset configuration when configurable).
        config: HashConfig,
        /// Held in a register written through `cfg_we_i` / `cfg_i`.
        configurable: bool,
    },
    /// RAP (or RAS) on `banks x banks` tiles, baked or loadable (`perm_we_i`).
    Rap(RapDesign),
}

/// The ports of a memory's top module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interface {
    /// One warp access a cycle (a mask, a write flag, per lane an address, data and byte
    /// enables), one response per access, the fill port, the counters.
    Native,
    /// Vortex's `VX_local_mem`: a request and a response channel per lane with tags of
    /// `tag_bits` bits, the map's configuration written through Vortex's DCR bus
    /// (`super::vortex`).
    Vortex {
        /// Bits of a request's tag (Vortex's `TAG_WIDTH`).
        tag_bits: u32,
    },
}

/// The first Vortex DCR address of the map's configuration: the DCR write to address
/// `DCR_BASE + i` loads bits `[32 i +: 32]` of the configuration register. Vortex's own DCRs end
/// below it (`VX_DCR_BASE_STATE_END`, 0x006).
pub const DCR_BASE: u32 = 0x010;

/// Bits of a Vortex DCR address and data word (`VX_DCR_ADDR_WIDTH`, `VX_DCR_DATA_WIDTH`).
pub const DCR_ADDR_BITS: u32 = 12;
/// Bits of a Vortex DCR data word.
pub const DCR_DATA_BITS: u32 = 32;

/// Largest tag of the Vortex interface, in bits.
pub const MAX_TAG_BITS: u32 = 64;

fn is_true(value: &bool) -> bool {
    *value
}

/// The configuration a shared memory records in its manifest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SmemConfig {
    /// Lanes (addresses per warp access).
    pub lanes: u32,
    /// Banks.
    pub banks: u32,
    /// Rows per bank.
    pub depth: u32,
    /// Bytes per word.
    pub word_bytes: u32,
    /// `hash` or `rap`.
    pub map: String,
    /// The hash configuration object (for `hash`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<HashConfigObject>,
    /// The address bits the row keeps, ascending (for `hash`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row_bits: Option<Vec<u32>>,
    /// Whether the hash is held in a configuration register.
    pub configurable: bool,
    /// The RAP converter's configuration (for `rap`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rap: Option<crate::rap::RapConfig>,
    /// Words per fill beat.
    pub fill_words: u32,
    /// The SRAM macro every bank instantiates, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sram_macro: Option<String>,
    /// Bits of each counter.
    pub counter_bits: u32,
    /// Whether lanes that read one word share one bank read (absent: on).
    #[serde(skip_serializing_if = "is_true")]
    pub broadcast: bool,
    /// The Vortex interface, if the top has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vortex: Option<VortexConfig>,
}

/// What the manifest records of the Vortex interface (docs/SMEM.md, Vortex interface).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VortexConfig {
    /// The SystemVerilog wrapper, relative to the block folder: `VX_local_mem.sv`.
    pub wrapper: String,
    /// Bits of a request's tag (`TAG_WIDTH`).
    pub tag_bits: u32,
    /// The local memory's size in bytes (`SIZE`).
    pub size_bytes: u64,
    /// Bits of a lane's word address (`ADDR_WIDTH`).
    pub addr_bits: u32,
    /// The first DCR address of the configuration.
    pub dcr_base: u32,
    /// DCR words the configuration register takes (0 for a fixed map): word `i` is bits
    /// `[32 i +: 32]`.
    pub dcr_words: u32,
    /// The configuration register's reset value, hex (`SmemDesign::cfg_value` of the given
    /// hash), for a configurable hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cfg_value: Option<String>,
    /// The configuration register's fields, for a configurable hash.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cfg_fields: Vec<crate::manifest::ManifestField>,
}

/// A validated shared memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmemDesign {
    shape: Shape,
    map: MapSpec,
    fill_words: u32,
    sram_macro: Option<SramMacro>,
    counter_bits: u32,
    broadcast: bool,
    interface: Interface,
}

/// Verilog keywords a macro name must not take.
const RESERVED: &[&str] = &[
    "module",
    "endmodule",
    "input",
    "output",
    "wire",
    "reg",
    "assign",
    "always",
    "begin",
    "end",
    "if",
    "else",
    "case",
    "for",
    "initial",
    "integer",
    "logic",
    "and",
    "or",
    "not",
    "xor",
];

impl SmemDesign {
    /// Validates a request: the hash's shape must be the memory's (`log2(banks * depth)`
    /// address bits, `banks` banks) and full rank, RAP's `w` must be `banks` with at least one
    /// `banks x banks` tile, a fill beat 1 to `lanes` words, counters 1 to 64 bits, and a macro
    /// name a plain Verilog identifier.
    pub fn new(
        shape: Shape,
        map: MapSpec,
        fill_words: u32,
        sram_macro: Option<String>,
        counter_bits: u32,
    ) -> Result<Self, Error> {
        let range = |name: &str, value: u32, allowed: String| {
            Error::Model(models::Error::OutOfRange {
                name: name.into(),
                value: value.to_string(),
                allowed,
            })
        };
        match &map {
            MapSpec::Hash { config, .. } => {
                let g = config.geometry();
                if g.addr_bits() != shape.addr_bits() || g.banks() != u64::from(shape.banks()) {
                    return Err(Error::BadFlag {
                        flag: "--hash-config",
                        value: format!(
                            "{} with {} address bits and {} banks",
                            config.kind(),
                            g.addr_bits(),
                            g.banks()
                        ),
                        message: format!(
                            "does not fit: the memory has {} banks and {} address bits \
                             (log2 of --banks {} x --depth {})",
                            shape.banks(),
                            shape.addr_bits(),
                            shape.banks(),
                            shape.depth()
                        ),
                    });
                }
                SoftwareIndex::new(config).map_err(|e| Error::BadFlag {
                    flag: "--hash-config",
                    value: config.kind().to_string(),
                    message: format!("{e}: no bijection to (bank, row) exists"),
                })?;
            }
            MapSpec::Rap(rap) => {
                if rap.w() != shape.banks() || rap.dims() != 2 || rap.pipeline {
                    unreachable!(
                        "the caller builds RAP with w = banks, two dimensions, unpipelined"
                    );
                }
                if shape.depth() < shape.banks() {
                    return Err(Error::BadFlag {
                        flag: "--depth",
                        value: shape.depth().to_string(),
                        message: format!(
                            "RAP maps {b} x {b} tiles: the depth must be at least --banks ({b})",
                            b = shape.banks()
                        ),
                    });
                }
            }
        }
        if !(1..=shape.lanes()).contains(&fill_words) {
            return Err(range(
                "fill_words",
                fill_words,
                format!("1 to {} (--lanes)", shape.lanes()),
            ));
        }
        if !(1..=MAX_COUNTER_BITS).contains(&counter_bits) {
            return Err(range(
                "counter_bits",
                counter_bits,
                format!("1 to {MAX_COUNTER_BITS}"),
            ));
        }
        let design = Self {
            shape,
            map,
            fill_words,
            sram_macro: None,
            counter_bits,
            broadcast: true,
            interface: Interface::Native,
        };
        match sram_macro {
            Some(name) => design.with_sram(SramMacro::Named(name)),
            None => Ok(design),
        }
    }

    /// The same memory with `sram` as every bank (its module name checked).
    pub fn with_sram(self, sram: SramMacro) -> Result<Self, Error> {
        self.check_macro_name(sram.name())?;
        Ok(Self {
            sram_macro: Some(sram),
            ..self
        })
    }

    /// The same memory with the broadcast of same-word reads on (the default) or off (every
    /// active lane one bank access, as Vortex's own local memory). Refused off where lanes are
    /// served in groups (8-byte words over fewer banks than lanes: the half-warp rule).
    pub fn with_broadcast(self, broadcast: bool) -> Result<Self, Error> {
        if !broadcast && self.groups() > 1 {
            return Err(Error::BadFlag {
                flag: "--broadcast",
                value: "off".into(),
                message: format!(
                    "needs the lanes served as one group: with 8-byte words --lanes ({}) at most \
                     --banks ({})",
                    self.shape.lanes(),
                    self.shape.banks()
                ),
            });
        }
        Ok(Self { broadcast, ..self })
    }

    /// The same memory behind the Vortex interface (`VX_local_mem`'s ports, tags of `tag_bits`
    /// bits). Refused with fill beats of several words (the interface has no fill port), with a
    /// loadable RAP table (its registers are reset by Vortex's reset, which Vortex asserts after
    /// the host's DCR writes and before every launch) and with tags outside 1 to
    /// [`MAX_TAG_BITS`] bits.
    pub fn with_vortex(self, tag_bits: u32) -> Result<Self, Error> {
        if self.loadable() {
            return Err(Error::BadFlag {
                flag: "--configurable",
                value: "given with --map rap".into(),
                message: "the Vortex interface programs a --configurable hash only (a RAP \
                          table's registers are cleared by the reset Vortex asserts before \
                          every launch): use a baked --map rap, or --map hash --configurable"
                    .into(),
            });
        }
        if self.fill_words != 1 {
            return Err(Error::BadFlag {
                flag: "--fill-words",
                value: self.fill_words.to_string(),
                message: "the Vortex interface has no fill port: leave --fill-words at 1".into(),
            });
        }
        if !(1..=MAX_TAG_BITS).contains(&tag_bits) {
            return Err(Error::Model(models::Error::OutOfRange {
                name: "tag_bits".into(),
                value: tag_bits.to_string(),
                allowed: format!("1 to {MAX_TAG_BITS}"),
            }));
        }
        Ok(Self {
            interface: Interface::Vortex { tag_bits },
            ..self
        })
    }

    /// Whether lanes that read one word share one bank read.
    pub fn broadcast(&self) -> bool {
        self.broadcast
    }

    /// The top module's interface.
    pub fn interface(&self) -> Interface {
        self.interface
    }

    /// The tag bits of the Vortex interface, if the top has it.
    pub fn vortex_tag_bits(&self) -> Option<u32> {
        match self.interface {
            Interface::Native => None,
            Interface::Vortex { tag_bits } => Some(tag_bits),
        }
    }

    /// The pipeline's module: the top itself, or `<name>_pipe` behind the Vortex interface.
    pub fn pipeline_name(&self) -> String {
        match self.interface {
            Interface::Native => self.name(),
            Interface::Vortex { .. } => format!("{}_pipe", self.name()),
        }
    }

    /// Bits carried with an access to its response through the pipeline (`req_meta_i` to
    /// `resp_meta_o`): behind the Vortex interface the reading lanes and each lane's tag; 0
    /// otherwise.
    pub fn meta_bits(&self) -> u32 {
        self.vortex_tag_bits()
            .map_or(0, |t| self.shape.lanes() * (t + 1))
    }

    /// The DCR words the map's configuration takes behind the Vortex interface: the register
    /// of a configurable hash in 32-bit words, none for a fixed map.
    pub fn dcr_words(&self) -> u32 {
        if self.configurable() {
            self.cfg_width().div_ceil(DCR_DATA_BITS)
        } else {
            0
        }
    }

    /// The model of the memory cycle by cycle, after reset.
    pub fn cycle_model(&self) -> models::smem::cycle::CycleModel {
        models::smem::cycle::CycleModel::new(self.shape, self.reset_map())
            .with_broadcast(self.broadcast)
    }

    fn check_macro_name(&self, name: &str) -> Result<(), Error> {
        let bad = |message: String| Error::BadFlag {
            flag: "--sram-macro",
            value: name.into(),
            message,
        };
        let plain = name.len() <= 64
            && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain || RESERVED.contains(&name) {
            return Err(bad(
                "expected a Verilog module name: a letter or _, then letters, digits or _ \
                 (at most 64 characters, not a keyword)"
                    .into(),
            ));
        }
        if name == self.name() || name.starts_with(&format!("{}_", self.name())) {
            return Err(bad(format!(
                "collides with the generated modules {}*",
                self.name()
            )));
        }
        Ok(())
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The map.
    pub fn map(&self) -> &MapSpec {
        &self.map
    }

    /// Words per fill beat.
    pub fn fill_words(&self) -> u32 {
        self.fill_words
    }

    /// The SRAM macro's module name, if banks instantiate one.
    pub fn sram_macro(&self) -> Option<&str> {
        self.sram_macro.as_ref().map(SramMacro::name)
    }

    /// The OpenRAM macro every bank instantiates, if it is one.
    pub fn openram_macro(&self) -> Option<&OpenRamMacro> {
        match &self.sram_macro {
            Some(SramMacro::OpenRam(m)) => Some(m),
            _ => None,
        }
    }

    /// Bits of each counter.
    pub fn counter_bits(&self) -> u32 {
        self.counter_bits
    }

    /// The module name: `smem_l<lanes>_b<banks>_d<depth>`, then `_w8` for 8-byte words, the
    /// map's tag (none for modulo; the hash kind's tag, `_cfg` when configurable; `rap`/`ras`,
    /// `_load` when loadable), `_nobc` without the broadcast, `_f<words>` for fill beats of
    /// several words, `_macro` when the banks are SRAM macros and `_vx` behind the Vortex
    /// interface.
    pub fn name(&self) -> String {
        let s = self.shape;
        let mut name = format!("smem_l{}_b{}_d{}", s.lanes(), s.banks(), s.depth());
        if s.word_bytes() == 8 {
            name.push_str("_w8");
        }
        match &self.map {
            MapSpec::Hash {
                config,
                configurable,
            } => {
                if config.kind() != HashKind::Modulo {
                    name.push('_');
                    name.push_str(config.kind().tag());
                }
                if *configurable {
                    name.push_str("_cfg");
                }
            }
            MapSpec::Rap(rap) => {
                name.push('_');
                name.push_str(rap.kind_name());
                if rap.loadable {
                    name.push_str("_load");
                }
            }
        }
        if !self.broadcast {
            name.push_str("_nobc");
        }
        if self.fill_words > 1 {
            name.push_str(&format!("_f{}", self.fill_words));
        }
        if self.sram_macro.is_some() {
            name.push_str("_macro");
        }
        if self.vortex_tag_bits().is_some() {
            name.push_str("_vx");
        }
        name
    }

    /// Whether a configurable hash is held in the configuration register.
    pub fn configurable(&self) -> bool {
        matches!(
            self.map,
            MapSpec::Hash {
                configurable: true,
                ..
            }
        )
    }

    /// Whether a loadable RAP table is written through `perm_we_i`.
    pub fn loadable(&self) -> bool {
        matches!(&self.map, MapSpec::Rap(rap) if rap.loadable)
    }

    /// The hasher instantiated per lane, for a hash map.
    pub fn hash_design(&self) -> Option<HashDesign> {
        let MapSpec::Hash {
            config,
            configurable,
        } = &self.map
        else {
            return None;
        };
        let design = HashDesign::new(
            &HashConfigObject::from_config(config),
            *configurable,
            false,
            false,
        );
        Some(design.unwrap_or_else(|e| unreachable!("validated hash refused: {e}")))
    }

    /// The software index of the reset map's hash: which address bits its row keeps.
    pub fn software_index(&self) -> Option<SoftwareIndex> {
        match &self.map {
            MapSpec::Hash { config, .. } => {
                Some(SoftwareIndex::new(config).unwrap_or_else(|e| unreachable!("validated: {e}")))
            }
            MapSpec::Rap(_) => None,
        }
    }

    /// Bits of a row offset field of a configurable map: `ceil(log2(m + 1))`, offsets 0 to `m`.
    pub fn row_offset_bits(&self) -> u32 {
        bits_for(u64::from(self.shape.bank_bits()) + 1)
    }

    /// The fields of `cfg_i` for a configurable map: the hasher's fields (its `cfg_i` layout,
    /// from bit 0), then one offset per row bit: row bit `j` is address bit `j + row<j>`.
    pub fn cfg_fields(&self) -> Vec<CfgField> {
        let Some(hash) = self.hash_design().filter(|_| self.configurable()) else {
            return Vec::new();
        };
        let layout: &CfgLayout = hash
            .cfg_layout()
            .unwrap_or_else(|| unreachable!("a configurable hasher has a layout"));
        let mut fields = layout.fields.clone();
        let mut lsb = layout.width();
        let w = self.row_offset_bits();
        let m = self.shape.bank_bits();
        for j in 0..self.shape.row_bits() {
            fields.push(CfgField {
                name: format!("row{j}"),
                lsb,
                width: w,
                description: format!("row bit {j} is address bit {j} + this offset (0 to {m})"),
            });
            lsb += w;
        }
        fields
    }

    /// Width of `cfg_i` (0 when the map has no configuration register).
    pub fn cfg_width(&self) -> u32 {
        self.cfg_fields().iter().map(|f| f.width).sum()
    }

    /// The `cfg_i` value that programs `index` (a hash of this memory's kind and shape, and the
    /// address bits its row keeps).
    pub fn cfg_value(&self, index: &SoftwareIndex) -> Bits {
        let hash = self
            .hash_design()
            .unwrap_or_else(|| unreachable!("cfg_value of a RAP map"));
        let layout = hash
            .cfg_layout()
            .unwrap_or_else(|| unreachable!("cfg_value of a fixed map"));
        let mut bits = Bits::zero(self.cfg_width() as usize);
        let hash_bits = layout.encode(index.config());
        for i in 0..hash_bits.width() {
            bits.set_bit(i, hash_bits.bit(i));
        }
        let w = self.row_offset_bits() as usize;
        for (j, &bit) in index.kept_bits().iter().enumerate() {
            let offset = u64::from(bit) - j as u64;
            bits.set_field(layout.width() as usize + j * w, w, offset);
        }
        bits
    }

    /// The map after reset, as the golden model takes it.
    pub fn reset_map(&self) -> Map {
        match &self.map {
            MapSpec::Hash { .. } => Map::Hash(
                self.software_index()
                    .unwrap_or_else(|| unreachable!("a hash map")),
            ),
            MapSpec::Rap(rap) => match rap.map() {
                crate::rap::ConverterMap::Matrix(layout) => Map::Shift(layout.clone()),
                crate::rap::ConverterMap::ThreeP(_) => unreachable!("validated: two dimensions"),
            },
        }
    }

    /// Groups of lanes served apart under the half-warp rule (1 unless 8-byte words and more
    /// lanes than banks).
    pub fn groups(&self) -> u32 {
        self.shape.lanes() / self.shape.group_lanes()
    }

    /// Lane pairs `(i, j)`, `i < j`: `lanes (lanes - 1) / 2`. Pair vectors list them column by
    /// column: `(0,1)`, `(0,2)`, `(1,2)`, `(0,3)`, ...
    pub fn pairs(&self) -> u32 {
        let l = self.shape.lanes();
        l * (l - 1) / 2
    }

    /// The bit of pair `(i, j)`, `i < j`, in a pair vector.
    pub fn pair(i: u32, j: u32) -> u32 {
        debug_assert!(i < j);
        j * (j - 1) / 2 + i
    }

    /// What the manifest records.
    pub fn config(&self) -> SmemConfig {
        let s = self.shape;
        let (map, hash, row_bits, rap) = match &self.map {
            MapSpec::Hash { config, .. } => (
                "hash",
                Some(HashConfigObject::from_config(config)),
                self.software_index().map(|i| i.kept_bits().to_vec()),
                None,
            ),
            MapSpec::Rap(rap) => ("rap", None, None, Some(rap.config())),
        };
        SmemConfig {
            lanes: s.lanes(),
            banks: s.banks(),
            depth: s.depth(),
            word_bytes: s.word_bytes(),
            map: map.into(),
            hash,
            row_bits,
            configurable: self.configurable(),
            rap,
            fill_words: self.fill_words,
            sram_macro: self.sram_macro().map(String::from),
            counter_bits: self.counter_bits,
            broadcast: self.broadcast,
            vortex: self
                .vortex_tag_bits()
                .map(|tag_bits| self.vortex_config(tag_bits)),
        }
    }

    /// What the manifest records of the Vortex interface.
    fn vortex_config(&self, tag_bits: u32) -> VortexConfig {
        let s = self.shape;
        let program = self
            .software_index()
            .filter(|_| self.configurable())
            .map(|index| self.cfg_value(&index));
        VortexConfig {
            wrapper: crate::rtl::vortex_wrapper::FILE.into(),
            tag_bits,
            size_bytes: s.words() * u64::from(s.word_bytes()),
            addr_bits: s.addr_bits(),
            dcr_base: DCR_BASE,
            dcr_words: self.dcr_words(),
            cfg_value: program.map(|v| format!("0x{}", v.to_hex())),
            cfg_fields: self.cfg_manifest_fields(),
        }
    }

    /// [`SmemDesign::cfg_fields`] as the manifest lists them.
    pub fn cfg_manifest_fields(&self) -> Vec<crate::manifest::ManifestField> {
        self.cfg_fields()
            .into_iter()
            .map(|f| crate::manifest::ManifestField {
                name: f.name,
                lsb: f.lsb,
                width: f.width,
                description: f.description,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use models::rap::LayoutKind;
    use models::{Geometry, HashFunction};

    fn hash(kind: HashFunction, n: u32, banks: u64) -> HashConfig {
        HashConfig::new(Geometry::new(n, banks).unwrap(), kind).unwrap()
    }

    #[test]
    fn names_and_the_configuration_register() {
        let shape = Shape::new(32, 32, 512, 4).unwrap();
        let modulo = MapSpec::Hash {
            config: hash(HashFunction::Modulo, 14, 32),
            configurable: false,
        };
        let d = SmemDesign::new(shape, modulo, 1, None, 32).unwrap();
        assert_eq!(d.name(), "smem_l32_b32_d512");
        assert_eq!((d.pairs(), d.groups(), d.cfg_width()), (496, 1, 0));
        let bvxor = hash(
            HashFunction::BitvectorXor {
                k1: 2,
                k2: 8,
                mask: 7,
            },
            14,
            32,
        );
        let cfg = MapSpec::Hash {
            config: bvxor,
            configurable: true,
        };
        let d = SmemDesign::new(shape, cfg, 4, Some("sram_512x32".into()), 32).unwrap();
        assert_eq!(d.name(), "smem_l32_b32_d512_bvxor_cfg_f4_macro");
        // 13 bits of the hasher, then 9 row offsets of 3 bits.
        assert_eq!(d.cfg_width(), 13 + 27);
        let index = d.software_index().unwrap();
        // Bits 2..6 feed the bank; the row keeps 0, 1 and 7..13.
        assert_eq!(index.kept_bits(), &[0, 1, 7, 8, 9, 10, 11, 12, 13]);
        let v = d.cfg_value(&index);
        assert_eq!(v.field(0, 13), 0x0782);
        assert_eq!(v.field(13, 3), 0);
        assert_eq!(v.field(13 + 3 * 2, 3), 5);
        let rap = RapDesign::from_seed(LayoutKind::Rap, 32, 1, true, false).unwrap();
        let d = SmemDesign::new(
            Shape::new(32, 32, 1024, 8).unwrap(),
            MapSpec::Rap(rap),
            1,
            None,
            32,
        )
        .unwrap();
        assert_eq!(d.name(), "smem_l32_b32_d1024_w8_rap_load");
        assert_eq!(SmemDesign::pair(0, 1), 0);
        assert_eq!(SmemDesign::pair(1, 2), 2);
        assert_eq!(SmemDesign::pair(30, 31), 495);
    }

    /// Behind the Vortex interface: the name ends `_vx`, the pipeline is `<name>_pipe`, the
    /// 40-bit register of the Fig. 5 hasher takes two DCR words; a loadable RAP table, fill beats
    /// of several words and the broadcast off under the half-warp rule are refused.
    #[test]
    fn the_vortex_interface_and_the_broadcast_switch() {
        let shape = Shape::new(32, 32, 512, 4).unwrap();
        let bvxor = hash(
            HashFunction::BitvectorXor {
                k1: 2,
                k2: 8,
                mask: 7,
            },
            14,
            32,
        );
        let cfg = MapSpec::Hash {
            config: bvxor,
            configurable: true,
        };
        let d = SmemDesign::new(shape, cfg.clone(), 1, None, 32)
            .unwrap()
            .with_broadcast(false)
            .unwrap()
            .with_vortex(2)
            .unwrap();
        assert_eq!(d.name(), "smem_l32_b32_d512_bvxor_cfg_nobc_vx");
        assert_eq!(
            d.pipeline_name(),
            "smem_l32_b32_d512_bvxor_cfg_nobc_vx_pipe"
        );
        assert_eq!((d.dcr_words(), d.meta_bits()), (2, 32 * 3));
        let rap = RapDesign::from_seed(LayoutKind::Rap, 8, 1, true, false).unwrap();
        let small = Shape::new(8, 8, 8, 4).unwrap();
        let d = SmemDesign::new(small, MapSpec::Rap(rap), 1, None, 32).unwrap();
        let err = d.with_vortex(1).unwrap_err().to_string();
        assert!(
            err.starts_with("--configurable given with --map rap: "),
            "{err}"
        );
        let err = SmemDesign::new(small, cfg_of(small), 2, None, 32)
            .unwrap()
            .with_vortex(2)
            .unwrap_err();
        assert!(err.to_string().starts_with("--fill-words 2: "), "{err}");
        let wide = Shape::new(32, 16, 32, 8).unwrap();
        let err = SmemDesign::new(wide, cfg_of(wide), 1, None, 32)
            .unwrap()
            .with_broadcast(false)
            .unwrap_err();
        assert!(err.to_string().starts_with("--broadcast off: "), "{err}");
    }

    fn cfg_of(shape: Shape) -> MapSpec {
        MapSpec::Hash {
            config: hash(
                HashFunction::Modulo,
                shape.addr_bits(),
                u64::from(shape.banks()),
            ),
            configurable: false,
        }
    }

    #[test]
    fn refusals_name_the_value() {
        let shape = Shape::new(32, 32, 512, 4).unwrap();
        let small = MapSpec::Hash {
            config: hash(HashFunction::Modulo, 12, 32),
            configurable: false,
        };
        let err = SmemDesign::new(shape, small, 1, None, 32)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("12 address bits") && err.contains("14 address bits"),
            "{err}"
        );
        let rap = RapDesign::from_seed(LayoutKind::Rap, 32, 1, false, false).unwrap();
        let err = SmemDesign::new(
            Shape::new(32, 32, 16, 4).unwrap(),
            MapSpec::Rap(rap),
            1,
            None,
            32,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("--depth 16: RAP maps 32 x 32 tiles"),
            "{err}"
        );
        let modulo = || MapSpec::Hash {
            config: hash(HashFunction::Modulo, 14, 32),
            configurable: false,
        };
        let err = SmemDesign::new(shape, modulo(), 33, None, 32)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "fill_words = 33 is out of range: allowed 1 to 32 (--lanes)"
        );
        for bad in ["9sram", "module", "a-b", "smem_l32_b32_d512_bank"] {
            let err = SmemDesign::new(shape, modulo(), 1, Some(bad.into()), 32)
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(&format!("--sram-macro {bad}: ")), "{err}");
        }
        let deficient = hash(
            HashFunction::BitvectorXor {
                k1: 3,
                k2: 3,
                mask: 1,
            },
            14,
            32,
        );
        let err = SmemDesign::new(
            shape,
            MapSpec::Hash {
                config: deficient,
                configurable: false,
            },
            1,
            None,
            32,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("rank") && err.contains("no bijection"),
            "{err}"
        );
    }
}
