//! The hashers' referee for `rtl-gen prove` and `rtl-gen mutate`: a hasher read through its
//! manifest, and its reference written from the golden model and the family's definition
//! (docs/HASH.md), never from the generator's RTL code: for a fixed hasher its configuration's
//! GF(2) matrix (`models::HashConfig::to_matrix`), for a configurable one the family's formula
//! on the manifest's `cfg_i` fields, each assumed within its legal range.

use crate::prove::block::{BlockUnderProof, CfgField};
use crate::prove::reference::{
    bits_to_hold, input, matrix_row, output, with_latency, ModuleText, Reference,
};
use crate::prove::{Plan, ProveError, Strategy};
use models::{HashConfig, HashConfigObject, HashKind};

/// The hashers' referee.
pub struct Referee;

impl crate::prove::Referee for Referee {
    fn family(&self) -> &'static str {
        "hash"
    }

    fn plan(&self, block: &BlockUnderProof) -> Result<Option<Plan>, ProveError> {
        block.check_latency(1)?;
        let h = read(block)?;
        let (name, configurable) = match h.form {
            HashForm::Fixed(_) => ("matrix", ""),
            HashForm::Configurable(_) => ("family", " configurable"),
        };
        let cfg_width = block.port("cfg_i").map_or(0, |p| p.width);
        Ok(Some(Plan {
            name,
            reference: hash(&h, cfg_width, block.latency),
            strategy: Strategy::Outputs,
            description: format!("hash {}{configurable}", h.kind),
        }))
    }
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

/// Reads a hasher's block through its manifest: the configuration object, fixed or
/// configurable (`variant`) and the fields of `cfg_i`.
pub fn read(block: &BlockUnderProof) -> Result<HashBlock, ProveError> {
    let root = block.root();
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
        let fields = block
            .fields
            .get("cfg_i")
            .ok_or_else(|| root.get("fields").get("cfg_i").bad("the fields of cfg_i"))?;
        HashForm::Configurable(fields.clone())
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

/// The reference of a hasher: for a fixed one its GF(2) matrix, one XOR of selected address
/// bits per bank bit; for a configurable one the family's formula on the manifest's `cfg_i`
/// fields, each assumed within its legal range. Latency 1 adds an output register reset to 0.
///
/// Errors name a field the family needs that the layout lacks or cannot hold.
pub fn hash(h: &HashBlock, cfg_width: u32, latency: u32) -> Result<Reference, String> {
    let (n, m) = (h.addr_bits, h.bank_bits);
    let mut ports = vec![input("addr_i", n)];
    if matches!(h.form, HashForm::Configurable(_)) {
        ports.push(input("cfg_i", cfg_width));
    }
    ports.push(output("bank_o", m));
    let mut t = ModuleText::new(ports, latency > 0);
    t.line(format!("wire [{}:0] bank_o_d;", m - 1));
    let claim = match &h.form {
        HashForm::Fixed(config) => {
            let matrix = config.to_matrix();
            for (i, &row) in matrix.rows().iter().enumerate() {
                let expr = matrix_row(row, n, "addr_i");
                t.line(format!("assign bank_o_d[{i}] = {expr};"));
            }
            format!(
                "bank_o = the configuration's GF(2) matrix times addr_i, for all 2^{n} addresses"
            )
        }
        HashForm::Configurable(fields) => {
            let space = configurable_hash(&mut t, h, fields, cfg_width)?;
            format!(
                "bank_o = the {} formula for all 2^{n} addresses and every cfg_i whose fields \
                 are in range ({space})",
                h.kind
            )
        }
    };
    Ok(Reference {
        ports: t.ports.clone(),
        verilog: t.finish(latency > 0),
        claim: with_latency(claim, "bank_o", latency),
        stateful: false,
    })
}

/// The body of a configurable hasher's reference; returns the configuration space in words.
fn configurable_hash(
    t: &mut ModuleText,
    h: &HashBlock,
    fields: &[CfgField],
    cfg_width: u32,
) -> Result<String, String> {
    let (n, m) = (h.addr_bits, h.bank_bits);
    // Every field of the family with its largest legal value (docs/HASH.md).
    let wanted: Vec<(String, u64)> = match h.kind {
        HashKind::Modulo => return Err("modulo has nothing to configure".into()),
        HashKind::BitvectorPerm => vec![("k".into(), u64::from(n - m))],
        HashKind::BitvectorXor => vec![
            ("k1".into(), u64::from(n - m)),
            ("k2".into(), u64::from(n - 1)),
            ("mask".into(), (1u64 << m) - 1),
        ],
        HashKind::BitwisePerm => (0..m)
            .map(|i| (format!("bit{i}"), u64::from(n - 1)))
            .collect(),
        HashKind::BitwiseXor => (0..m)
            .flat_map(|i| [format!("pair{i}a"), format!("pair{i}b")])
            .map(|name| (name, u64::from(n - 1)))
            .collect(),
        HashKind::XorMatrix => (0..m)
            .map(|i| (format!("row{i}"), models::geometry::low_mask(n)))
            .collect(),
    };
    for (i, a) in fields.iter().enumerate() {
        if let Some(b) = fields[..i]
            .iter()
            .find(|b| a.lsb < b.lsb + b.width && b.lsb < a.lsb + a.width)
        {
            return Err(format!(
                "fields `{}` and `{}` of cfg_i overlap",
                b.name, a.name
            ));
        }
    }
    let mut legal = 0f64;
    for (name, max) in &wanted {
        let f = fields
            .iter()
            .find(|f| &f.name == name)
            .ok_or_else(|| format!("the cfg_i layout has no field `{name}`"))?;
        if f.width == 0 || f.lsb + f.width > cfg_width {
            return Err(format!(
                "field `{name}` (lsb {}, width {}) does not fit cfg_i's {cfg_width} bits",
                f.lsb, f.width
            ));
        }
        if bits_to_hold(*max) > f.width {
            return Err(format!(
                "field `{name}` is {} bits wide and cannot hold {max}",
                f.width
            ));
        }
        t.line(format!(
            "wire [{}:0] f_{name} = cfg_i[{}:{}];",
            f.width - 1,
            f.lsb + f.width - 1,
            f.lsb
        ));
        if f.width < 64 && *max < (1u64 << f.width) - 1 {
            t.assume(format!("f_{name} <= {}'d{max}", f.width));
        }
        legal += ((*max as f64) + 1.0).log2();
    }
    let field = |name: &str| format!("f_{name}");
    match h.kind {
        HashKind::Modulo => unreachable!("refused above"),
        HashKind::BitvectorPerm | HashKind::BitvectorXor => {
            // Address bits at or above n read as zero: index a zero-extended copy.
            t.line(format!("wire [{}:0] ext = {{{m}'d0, addr_i}};", n + m - 1));
            for i in 0..m {
                let expr = if h.kind == HashKind::BitvectorPerm {
                    format!("ext[f_k + {i}]")
                } else {
                    format!("ext[f_k1 + {i}] ^ (ext[f_k2 + {i}] & f_mask[{i}])")
                };
                t.line(format!("assign bank_o_d[{i}] = {expr};"));
            }
        }
        HashKind::BitwisePerm | HashKind::BitwiseXor => {
            // Each bank bit's row of the matrix, one or two one-hot address bits; a pair
            // (a, a) is the single bit a.
            for i in 0..m {
                let row = if h.kind == HashKind::BitwisePerm {
                    format!("({n}'d1 << {})", field(&format!("bit{i}")))
                } else {
                    format!(
                        "(({n}'d1 << {}) | ({n}'d1 << {}))",
                        field(&format!("pair{i}a")),
                        field(&format!("pair{i}b"))
                    )
                };
                t.line(format!("assign bank_o_d[{i}] = ^(addr_i & {row});"));
            }
        }
        HashKind::XorMatrix => {
            for i in 0..m {
                t.line(format!(
                    "assign bank_o_d[{i}] = ^(addr_i & {}[{}:0]);",
                    field(&format!("row{i}")),
                    n - 1
                ));
            }
        }
    }
    // Ranges in words, runs of fields with one range written once (`bit0..bit4 0..63`).
    let mut ranges: Vec<(String, String, u64)> = Vec::new();
    for (name, max) in &wanted {
        match ranges.last_mut() {
            Some((_, last, m)) if m == max => *last = name.clone(),
            _ => ranges.push((name.clone(), name.clone(), *max)),
        }
    }
    let ranges: Vec<String> = ranges
        .iter()
        .map(|(first, last, max)| {
            let names = if first == last {
                first.clone()
            } else {
                format!("{first}..{last}")
            };
            format!("{names} 0..{max}")
        })
        .collect();
    let free = f64::from(cfg_width - fields.iter().map(|f| f.width).sum::<u32>());
    Ok(format!(
        "{}: 2^{:.1} of the 2^{cfg_width} values",
        ranges.join(", "),
        legal + free
    ))
}
