//! The manifest adapter: what the prover and the mutation tool read from a block folder, for
//! any family.
//!
//! The typed manifest ([`crate::manifest::Manifest`]) gives the family, kind and variant, the
//! top module and its files, the ports, the timing and the fields of every packed port; the
//! family's configuration object is read by the family's own [`super::Referee`] as plain JSON
//! through [`Field`], so that a refusal names the manifest key at fault:
//!
//! | manifest key | used for |
//! |---|---|
//! | `family`, `kind`, `variant` | which referee reads the block, and its description |
//! | `top`, `rtl_files`, `ports` | the module, its files, the interface the reference must match |
//! | `timing` | the output latency (0 when combinational or clocked) |
//! | `fields` | the fields of each packed port (counterexamples are shown field by field) |
//! | `configuration` | read by the family's referee |

use super::ProveError;
use serde_json::Value;
use std::collections::BTreeMap;
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

/// One field of a packed port (a configurable hasher's `cfg_i`, a D²MA entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CfgField {
    /// Field name (`k1`, `bit3`, `pair0a`, `row2`).
    pub name: String,
    /// Least significant bit within the port.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
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
    /// The family (`hash`), as the manifest names it.
    pub family: String,
    /// The kind (`bitvector-xor`).
    pub kind: String,
    /// The variant label (`configurable`).
    pub variant: String,
    /// RTL files, absolute, leaves first.
    pub rtl_files: Vec<PathBuf>,
    /// The interface.
    pub ports: Vec<Port>,
    /// Output latency in cycles (0 when combinational or clocked).
    pub latency: u32,
    /// The fields of each packed port, by port.
    pub fields: BTreeMap<String, Vec<CfgField>>,
    /// The manifest as JSON, for the family's referee.
    json: Value,
}

/// A JSON value of a manifest with the path of keys that led to it, for errors that name the
/// key.
#[derive(Debug, Clone)]
pub struct Field<'a> {
    manifest: &'a Path,
    key: String,
    /// The value, `None` when the key is missing.
    pub value: Option<&'a Value>,
}

impl<'a> Field<'a> {
    /// The refusal of this value (or of its absence): the manifest, the key, the value found
    /// (shortened) and what is allowed.
    pub fn bad(&self, allowed: &str) -> ProveError {
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

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Field<'a> {
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

    /// A string.
    pub fn str(&self) -> Result<&'a str, ProveError> {
        self.value
            .and_then(Value::as_str)
            .ok_or_else(|| self.bad("a string"))
    }

    /// A boolean, `default` when missing.
    pub fn bool_or(&self, default: bool) -> Result<bool, ProveError> {
        match self.value {
            None => Ok(default),
            Some(v) => v.as_bool().ok_or_else(|| self.bad("true or false")),
        }
    }

    /// An unsigned 32-bit integer.
    pub fn u32(&self) -> Result<u32, ProveError> {
        self.value
            .and_then(Value::as_u64)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| self.bad("an unsigned 32-bit integer"))
    }

    /// The items of a list.
    pub fn items(&self) -> Result<Vec<Field<'a>>, ProveError> {
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
        let ports = manifest
            .ports
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let input = match p.direction.as_str() {
                    "input" => true,
                    "output" => false,
                    _ => {
                        let root = Field {
                            manifest: &path,
                            key: String::new(),
                            value: Some(&json),
                        };
                        let key = format!("ports[{i}].direction");
                        return Err(root.get(&key).bad("input or output"));
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
            // A clocked block's outputs follow its inputs in the same cycle (its state is
            // the family's to model).
            testbenches::Timing::Combinational | testbenches::Timing::Clocked => 0,
            testbenches::Timing::Pipelined { latency } => latency,
        };
        let fields = manifest
            .fields
            .iter()
            .map(|(port, fields)| {
                let fields = fields
                    .iter()
                    .map(|f| CfgField {
                        name: f.name.clone(),
                        lsb: f.lsb,
                        width: f.width,
                    })
                    .collect();
                (port.clone(), fields)
            })
            .collect();
        Ok(Self {
            dir: dir.clone(),
            manifest: path,
            top: manifest.top,
            family: manifest.family,
            kind: manifest.kind,
            variant: manifest.variant,
            rtl_files: manifest.rtl_files.iter().map(|f| dir.join(f)).collect(),
            ports,
            latency,
            fields,
            json,
        })
    }

    /// The port called `name`.
    pub fn port(&self, name: &str) -> Option<&Port> {
        self.ports.iter().find(|p| p.name == name)
    }

    /// The whole manifest, for a family's referee to read its keys from.
    pub fn root(&self) -> Field<'_> {
        Field {
            manifest: &self.manifest,
            key: String::new(),
            value: Some(&self.json),
        }
    }

    /// Refuses a latency above `max` (a reference that models at most one output register),
    /// naming the manifest's `timing`.
    pub fn check_latency(&self, max: u32) -> Result<(), ProveError> {
        if self.latency <= max {
            return Ok(());
        }
        Err(self.root().get("timing").bad(&format!(
            "combinational, clocked, or pipelined with latency up to {max}"
        )))
    }
}
