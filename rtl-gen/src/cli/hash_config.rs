//! The flags that name a hash configuration (`--kind`, `--addr-bits`, `--banks`, the kind's
//! fields, or `--config FILE`), shared by `rtl-gen hash` and `rtl-gen cuda hash`.

use clap::Args;
use models::config::{parse_u64, RowMask};
use models::{HashConfigObject, HashKind};
use rtl_gen::Error;
use std::path::PathBuf;

/// The flags that name a hash configuration, shared by `rtl-gen hash` and `rtl-gen cuda hash`.
#[derive(Args)]
pub struct ConfigFlags {
    /// Hash family.
    #[arg(long, required_unless_present = "config", value_parser = super::named::<HashKind>(HashKind::ALL.map(HashKind::name)))]
    kind: Option<HashKind>,
    /// Word-address bits n (1 to 64).
    #[arg(long, required_unless_present = "config")]
    addr_bits: Option<u32>,
    /// Number of banks: a power of two from 2 to 65536, at most 2^n.
    #[arg(long, required_unless_present = "config")]
    banks: Option<u64>,
    /// bitvector-perm: offset of the bit-vector (0 to n - m).
    #[arg(long)]
    k: Option<u32>,
    /// bitvector-xor: offset of the first bit-vector (0 to n - m).
    #[arg(long)]
    k1: Option<u32>,
    /// bitvector-xor: offset of the masked second bit-vector (0 to n - 1).
    #[arg(long)]
    k2: Option<u32>,
    /// bitvector-xor: mask of the second vector (m bits; decimal, 0x or 0b).
    #[arg(long)]
    mask: Option<String>,
    /// bitwise-perm: the address bit of each bank bit, bank bit 0 first.
    #[arg(long, value_delimiter = ',')]
    bits: Option<Vec<u32>>,
    /// bitwise-xor: a:b address-bit pairs, bank bit 0 first (a:a is the single bit a).
    #[arg(long, value_delimiter = ',')]
    pairs: Option<Vec<String>>,
    /// xor-matrix: one n-bit mask per bank bit, bank bit 0 first (decimal, 0x or 0b).
    #[arg(long, value_delimiter = ',')]
    rows: Option<Vec<String>>,
    /// A JSON configuration object, or a block manifest (its "configuration" is used), instead of the flags.
    #[arg(long, conflicts_with_all = ["kind", "addr_bits", "banks", "k", "k1", "k2", "mask", "bits", "pairs", "rows"])]
    config: Option<PathBuf>,
}

fn bad(flag: &'static str, value: &str, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

impl ConfigFlags {
    /// The configuration object the flags or the `--config` file describe.
    pub fn object(&self) -> Result<HashConfigObject, Error> {
        if let Some(path) = &self.config {
            return rtl_gen::hash::config_file::read(path);
        }
        let (Some(kind), Some(addr_bits), Some(banks)) = (self.kind, self.addr_bits, self.banks)
        else {
            unreachable!("clap requires --kind, --addr-bits and --banks without --config")
        };
        let mut object = HashConfigObject::new(kind, addr_bits, banks);
        object.k = self.k;
        object.k1 = self.k1;
        object.k2 = self.k2;
        object.mask = self
            .mask
            .as_deref()
            .map(|m| parse_u64(m).map_err(|e| bad("--mask", m, e)))
            .transpose()?;
        object.bits = self.bits.clone();
        object.pairs = self
            .pairs
            .as_ref()
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|p| {
                        let parsed = p.split_once(':').and_then(|(a, b)| {
                            Some([a.trim().parse().ok()?, b.trim().parse().ok()?])
                        });
                        parsed.ok_or_else(|| {
                            bad(
                                "--pairs",
                                p,
                                "expected a:b with two address-bit numbers, e.g. 0:5",
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        object.rows = self
            .rows
            .as_ref()
            .map(|rows| {
                rows.iter()
                    .map(|r| parse_u64(r).map(RowMask).map_err(|e| bad("--rows", r, e)))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        Ok(object)
    }
}
