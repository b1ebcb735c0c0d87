//! The manifest adapter: what the prover and the mutation tool read from a block folder.
//!
//! The typed manifest ([`crate::manifest::Manifest`]) gives the family, the top module and its
//! files, the ports, the timing and the fields of `cfg_i`; the family's configuration object is
//! read here as plain JSON, so that a change of its layout is one edit in this file:
//!
//! | manifest key | used for |
//! |---|---|
//! | `family` | `hash`, `rap`, `d2ma` |
//! | `top`, `rtl_files`, `ports` | the module, its files, the interface the reference must match |
//! | `timing` | combinational, or pipelined with one register of latency |
//! | `variant` | `fixed` or `configurable` (hash) |
//! | `configuration` | the hash's configuration object; RAP's `dims`, `w`, `tables`, `loadable`, `packed`, `kind`, `seed`, `wide` |
//! | `fields.cfg_i` | the `cfg_i` layout of a configurable hash |
//! | `kind` | `raw-check` (d2ma: the only D²MA block with a reference); its `ctas`, `buffers` |

use super::ProveError;
use models::{HashConfig, HashConfigObject, HashKind};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One port of the block's interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// Port name.
    pub name: String,
    /// Whether it is an input.
    pub input: bool,
    /// Width in bits.
    pub width: u32,
}

/// One field of a configurable hasher's `cfg_i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CfgField {
    /// Field name (`k1`, `bit3`, `pair0a`, `row2`).
    pub name: String,
    /// Least significant bit within `cfg_i`.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
}

/// A hasher as the prover sees it.
#[derive(Debug, Clone)]
pub struct HashBlock {
    /// The family.
    pub kind: HashKind,
    /// Address bits `n`.
    pub addr_bits: u32,
    /// Bank bits `m`.
    pub bank_bits: u32,
    /// Fixed (a validated configuration) or configurable (its `cfg_i` layout).
    pub form: HashForm,
}

/// How a hasher gets its configuration.
#[derive(Debug, Clone)]
pub enum HashForm {
    /// Baked in.
    Fixed(HashConfig),
    /// On `cfg_i`, laid out as the manifest says.
    Configurable(Vec<CfgField>),
}

/// How a loadable RAP converter's tables are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritePort {
    /// One entry a write (`perm_idx_i` names the entry).
    Entry,
    /// One 32-bit word of packed shifts a write (`perm_idx_i` names the word).
    Packed,
}

/// A RAP, RAS or 3P address converter as the prover sees it.
#[derive(Debug, Clone)]
pub struct RapBlock {
    /// 2 (a `w x w` matrix) or 4 (a `w^4` array, 3P).
    pub dims: u32,
    /// The matrix side.
    pub w: u32,
    /// The tables with their names (`shift`; or `r`, `s`, `t`), each `w` entries below `w`;
    /// the baked contents, or the reset contents of a loadable converter.
    pub tables: Vec<(String, Vec<u32>)>,
    /// `None` when baked.
    pub write: Option<WritePort>,
}

/// The D²MA RAW check as the prover sees it.
#[derive(Debug, Clone, Copy)]
pub struct RawCheckBlock {
    /// CTAs.
    pub ctas: u32,
    /// Buffers per CTA.
    pub buffers: u32,
}

/// What a block folder holds, in the terms the prover needs.
#[derive(Debug, Clone)]
pub enum Family {
    /// A bank hasher.
    Hash(HashBlock),
    /// An address converter.
    Rap(RapBlock),
    /// The D²MA RAW check.
    RawCheck(RawCheckBlock),
    /// A block with no reference (the other D²MA blocks), by its family and kind.
    Other(String),
}

/// A generated block, read through its manifest.
#[derive(Debug, Clone)]
pub struct BlockUnderProof {
    /// The block folder, absolute.
    pub dir: PathBuf,
    /// The manifest file.
    pub manifest: PathBuf,
    /// Top module name.
    pub top: String,
    /// RTL files, absolute, leaves first.
    pub rtl_files: Vec<PathBuf>,
    /// The interface.
    pub ports: Vec<Port>,
    /// Output latency in cycles (0 or 1).
    pub latency: u32,
    /// The family and its specification.
    pub family: Family,
}

/// A JSON value with the path of keys that led to it, for errors that name the key.
struct Field<'a> {
    manifest: &'a Path,
    key: String,
    value: Option<&'a Value>,
}

impl<'a> Field<'a> {
    fn bad(&self, allowed: &str) -> ProveError {
        let value = match self.value {
            None => "missing".to_string(),
            Some(v) => {
                let text = v.to_string();
                if text.chars().count() > 60 {
                    format!("{}...", text.chars().take(60).collect::<String>())
                } else {
                    text
                }
            }
        };
        ProveError::Manifest {
            path: self.manifest.to_path_buf(),
            key: self.key.clone(),
            value,
            allowed: allowed.to_string(),
        }
    }

    fn get(&self, key: &str) -> Field<'a> {
        Field {
            manifest: self.manifest,
            key: if self.key.is_empty() {
                key.to_string()
            } else {
                format!("{}.{key}", self.key)
            },
            value: self.value.and_then(|v| v.get(key)),
        }
    }

    fn str(&self) -> Result<&'a str, ProveError> {
        self.value
            .and_then(Value::as_str)
            .ok_or_else(|| self.bad("a string"))
    }

    fn bool_or(&self, default: bool) -> Result<bool, ProveError> {
        match self.value {
            None => Ok(default),
            Some(v) => v.as_bool().ok_or_else(|| self.bad("true or false")),
        }
    }

    fn u32(&self) -> Result<u32, ProveError> {
        self.value
            .and_then(Value::as_u64)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| self.bad("an unsigned 32-bit integer"))
    }

    fn items(&self) -> Result<Vec<Field<'a>>, ProveError> {
        let list = self
            .value
            .and_then(Value::as_array)
            .ok_or_else(|| self.bad("a list"))?;
        Ok(list
            .iter()
            .enumerate()
            .map(|(i, v)| Field {
                manifest: self.manifest,
                key: format!("{}[{i}]", self.key),
                value: Some(v),
            })
            .collect())
    }
}

impl BlockUnderProof {
    /// Reads the block in `dir` through its manifest `<dir>/<dir name>.json`.
    pub fn load(dir: &Path) -> Result<Self, crate::Error> {
        let (manifest, path) = crate::manifest::Manifest::load(dir)?;
        let dir = std::path::absolute(dir).map_err(crate::Error::io(dir))?;
        let json = serde_json::to_value(&manifest).map_err(|e| crate::Error::ConfigFile {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let root = Field {
            manifest: &path,
            key: String::new(),
            value: Some(&json),
        };
        let ports = manifest
            .ports
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let input = match p.direction.as_str() {
                    "input" => true,
                    "output" => false,
                    _ => {
                        return Err(root
                            .get(&format!("ports[{i}].direction"))
                            .bad("input or output"))
                    }
                };
                Ok(Port {
                    name: p.name.clone(),
                    input,
                    width: p.width,
                })
            })
            .collect::<Result<Vec<_>, ProveError>>()?;
        let latency = match manifest.timing.timing {
            // A loadable converter is clocked: its table is state, its outputs follow the
            // read inputs in the same cycle.
            testbenches::Timing::Combinational | testbenches::Timing::Clocked => 0,
            testbenches::Timing::Pipelined { latency: 1 } => 1,
            // Only the hash and rap references use the latency.
            _ if !matches!(manifest.family.as_str(), "hash" | "rap") => 0,
            _ => {
                return Err(root
                    .get("timing")
                    .bad("combinational, clocked, or pipelined with latency 1")
                    .into())
            }
        };
        let family = match manifest.family.as_str() {
            "hash" => Family::Hash(read_hash(&root, &manifest)?),
            "rap" => Family::Rap(read_rap(&root)?),
            "d2ma" if manifest.kind == "raw-check" => Family::RawCheck(read_raw_check(&root)?),
            other => Family::Other(format!("{other} {}", manifest.kind)),
        };
        Ok(Self {
            dir: dir.clone(),
            manifest: path,
            top: manifest.top,
            rtl_files: manifest.rtl_files.iter().map(|f| dir.join(f)).collect(),
            ports,
            latency,
            family,
        })
    }

    /// The port called `name`.
    pub fn port(&self, name: &str) -> Option<&Port> {
        self.ports.iter().find(|p| p.name == name)
    }
}

fn read_hash(root: &Field, manifest: &crate::manifest::Manifest) -> Result<HashBlock, ProveError> {
    let configuration = root.get("configuration");
    let object: HashConfigObject = configuration
        .value
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .ok_or_else(|| configuration.bad("a hash configuration object (docs/HASH.md)"))?;
    let kind = object.kind;
    let variant = root.get("variant");
    let configurable = match variant.str()? {
        "fixed" => false,
        "configurable" => true,
        _ => return Err(variant.bad("fixed or configurable")),
    };
    let shape = configuration.get("addr_bits");
    let geometry = models::Geometry::new(object.addr_bits, object.banks)
        .map_err(|e| shape.bad(&e.to_string()))?;
    let form = if configurable {
        let fields = manifest
            .fields
            .get("cfg_i")
            .ok_or_else(|| root.get("fields").get("cfg_i").bad("the fields of cfg_i"))?
            .iter()
            .map(|f| CfgField {
                name: f.name.clone(),
                lsb: f.lsb,
                width: f.width,
            })
            .collect();
        HashForm::Configurable(fields)
    } else {
        let (_, config) = object
            .validate()
            .map_err(|e| configuration.bad(&e.to_string()))?;
        HashForm::Fixed(config.ok_or_else(|| {
            configuration.bad(&format!(
                "a fixed {kind} hasher's fields ({})",
                kind.fields().join(", ")
            ))
        })?)
    };
    Ok(HashBlock {
        kind,
        addr_bits: geometry.addr_bits(),
        bank_bits: geometry.bank_bits(),
        form,
    })
}

/// The most CTAs and buffers a RAW check is read with (`rtl-gen d2ma --ctas`, `--buffers`).
const MAX_ENTRIES: u32 = 1024;

fn read_raw_check(root: &Field) -> Result<RawCheckBlock, ProveError> {
    let c = root.get("configuration");
    let count = |key: &str| {
        let field = c.get(key);
        field
            .u32()
            .ok()
            .filter(|v| (1..=MAX_ENTRIES).contains(v))
            .ok_or_else(|| field.bad(&format!("1 to {MAX_ENTRIES}")))
    };
    let (ctas, buffers) = (count("ctas")?, count("buffers")?);
    if ctas * buffers > MAX_ENTRIES {
        return Err(c
            .get("buffers")
            .bad(&format!("ctas x buffers at most {MAX_ENTRIES}")));
    }
    Ok(RawCheckBlock { ctas, buffers })
}

/// The largest `w` a converter has (`rtl-gen rap --banks`).
const MAX_W: u32 = 1024;

fn read_rap(root: &Field) -> Result<RapBlock, ProveError> {
    let c = root.get("configuration");
    let dims_field = c.get("dims");
    let dims = dims_field.u32()?;
    if dims != 2 && dims != 4 {
        return Err(dims_field.bad("2 (a w x w matrix) or 4 (3P, a w^4 array)"));
    }
    let w_field = c.get("w");
    let w = w_field.u32()?;
    if !(2..=MAX_W).contains(&w) {
        return Err(w_field.bad(&format!("2 to {MAX_W}")));
    }
    let names: &[&str] = if dims == 2 {
        &["shift"]
    } else {
        &["r", "s", "t"]
    };
    let tables = names
        .iter()
        .map(|&name| {
            let table = c.get("tables").get(name);
            let entries = table
                .items()?
                .iter()
                .map(|e| e.u32().ok().filter(|&v| v < w))
                .collect::<Option<Vec<u32>>>()
                .filter(|t| t.len() == w as usize)
                .ok_or_else(|| table.bad(&format!("{w} entries, each 0 to {}", w - 1)))?;
            Ok((name.to_string(), entries))
        })
        .collect::<Result<Vec<_>, ProveError>>()?;
    let kind = c.get("kind");
    if kind.str()? == "rap" && !c.get("wide").bool_or(false)? {
        check_against_model(&c, w, &tables[0].1)?;
    }
    let write = match (
        c.get("loadable").bool_or(false)?,
        c.get("packed").bool_or(false)?,
    ) {
        (false, _) => None,
        (true, false) => Some(WritePort::Entry),
        (true, true) => Some(WritePort::Packed),
    };
    Ok(RapBlock {
        dims,
        w,
        tables,
        write,
    })
}

/// A RAP table must be a permutation, and one drawn from a seed must be the golden model's
/// `Permutation::from_seed` draw.
fn check_against_model(c: &Field, w: u32, table: &[u32]) -> Result<(), ProveError> {
    let values: Vec<u64> = table.iter().map(|&v| u64::from(v)).collect();
    let field = c.get("tables").get("shift");
    models::rap::Permutation::new(w, &values).map_err(|e| field.bad(&e.to_string()))?;
    let seed = c.get("seed");
    if let Some(seed) = seed.value.and_then(Value::as_u64) {
        let model = models::rap::Permutation::from_seed(w, seed);
        if model.as_slice() != table {
            return Err(field.bad(&format!(
                "the golden model's permutation for seed {seed} (models::rap::Permutation::from_seed)"
            )));
        }
    }
    Ok(())
}
