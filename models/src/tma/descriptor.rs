//! The tensor map: the parameters of `cuTensorMapEncodeTiled`, checked with the rules the CUDA
//! driver API documents for it (section "Tensor Map Object Management" of the driver API
//! reference) and, where that text is vague, with what the H100's driver was measured to refuse
//! (docs/TMA.md, "What the driver refuses").
//!
//! Each refusal is one [`Error::OutOfRange`] naming the JSON key (with its index), the value and
//! the rule, in the order the driver API lists its parameters, so that the first rule a
//! descriptor breaks is the one reported.

use crate::swizzle::TmaMode;
use crate::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The most dimensions a tensor map has (`tensorRank`).
pub const MAX_RANK: usize = 5;
/// The largest box dimension, in elements (`boxDim`).
pub const MAX_BOX_DIM: u32 = 256;
/// The largest element stride (`elementStrides`).
pub const MAX_ELEMENT_STRIDE: u32 = 8;
/// The largest global dimension, in elements (`globalDim`).
pub const MAX_GLOBAL_DIM: u64 = 1 << 32;
/// Global strides are below this many bytes (`globalStrides`).
pub const GLOBAL_STRIDE_LIMIT: u64 = 1 << 40;
/// Alignment of the global address and the global strides, in bytes.
pub const GLOBAL_ALIGN: u64 = 16;
/// The most bytes a box may count (228 KiB, an H100 SM's shared memory): measured, the driver
/// API does not document it (docs/TMA.md, "What the driver refuses").
pub const MAX_BOX_BYTES: u64 = 233_472;

/// Declares a parameter enumeration with its spellings (the JSON and command-line value first,
/// then the CUDA enumerator), `ALL`, `Display`, `FromStr` and serde through the spelling.
macro_rules! parameter {
    ($(#[$doc:meta])* $name:ident, $what:literal,
     $($variant:ident = $text:literal, $cuda:literal;)+) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $(#[doc = concat!("`", $cuda, "`")] $variant,)+
        }

        impl $name {
            /// Every value, in the CUDA enumeration's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The spelling in JSON and on the command line.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text,)+ }
            }

            /// The CUDA enumerator.
            pub fn cuda_name(self) -> &'static str {
                match self { $($name::$variant => $cuda,)+ }
            }

            /// The spellings, for error messages.
            pub fn names() -> String {
                Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ")
            }
        }

        impl Default for $name {
            /// The first value: `none` (or `u8`).
            fn default() -> Self {
                Self::ALL[0]
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name().eq_ignore_ascii_case(s) || v.cuda_name() == s)
                    .ok_or_else(|| format!("{} `{s}` is unknown: allowed {}", $what, Self::names()))
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

parameter! {
    /// The element type (`tensorDataType`). Only its size matters to a copy, except for the
    /// out-of-bounds fill: NaN is allowed for the floating-point types only.
    DataType, "data_type",
    U8 = "u8", "CU_TENSOR_MAP_DATA_TYPE_UINT8";
    U16 = "u16", "CU_TENSOR_MAP_DATA_TYPE_UINT16";
    U32 = "u32", "CU_TENSOR_MAP_DATA_TYPE_UINT32";
    I32 = "i32", "CU_TENSOR_MAP_DATA_TYPE_INT32";
    U64 = "u64", "CU_TENSOR_MAP_DATA_TYPE_UINT64";
    I64 = "i64", "CU_TENSOR_MAP_DATA_TYPE_INT64";
    F16 = "f16", "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
    F32 = "f32", "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
    F64 = "f64", "CU_TENSOR_MAP_DATA_TYPE_FLOAT64";
    Bf16 = "bf16", "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
    F32Ftz = "f32-ftz", "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ";
    Tf32 = "tf32", "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32";
    Tf32Ftz = "tf32-ftz", "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ";
}

impl DataType {
    /// Bytes per element.
    pub fn bytes(self) -> u32 {
        match self {
            DataType::U8 => 1,
            DataType::U16 | DataType::F16 | DataType::Bf16 => 2,
            DataType::U64 | DataType::I64 | DataType::F64 => 8,
            _ => 4,
        }
    }

    /// Whether the type is floating-point (NaN fill allowed).
    pub fn is_float(self) -> bool {
        !matches!(
            self,
            DataType::U8
                | DataType::U16
                | DataType::U32
                | DataType::I32
                | DataType::U64
                | DataType::I64
        )
    }

    /// The bits an out-of-bounds element holds under `fill` (little-endian, `bytes()` of them).
    /// The NaN is the 16-bit pattern `0x7ff7` repeated over the element (measured on an H100:
    /// `0x7ff7` for halves, `0x7ff77ff7` for every 4-byte type, docs/TMA.md), a NaN in every
    /// floating-point format.
    pub fn fill_bits(self, fill: OobFill) -> u64 {
        let mask = u64::MAX >> (64 - 8 * self.bytes());
        match fill {
            OobFill::None => 0,
            OobFill::Nan => 0x7ff7_7ff7_7ff7_7ff7 & mask,
        }
    }

    /// What an in-bounds element of global bits `raw` becomes in shared memory: itself, except
    /// for the TF32 types, which the load rounds to TF32 (measured on an H100, docs/TMA.md): the
    /// low 13 mantissa bits are rounded to the nearest, ties to even, into the upper 19 (a carry
    /// may reach the exponent); every NaN becomes `0x7fffe000`. The FTZ types keep subnormals
    /// (none was flushed on load).
    pub fn load_bits(self, raw: u64) -> u64 {
        if !matches!(self, DataType::Tf32 | DataType::Tf32Ftz) {
            return raw;
        }
        let bits = raw as u32;
        let magnitude = bits & 0x7fff_ffff;
        if magnitude > 0x7f80_0000 {
            return 0x7fff_e000;
        }
        if magnitude == 0x7f80_0000 {
            return u64::from(bits);
        }
        let rounded = (magnitude + 0x0fff + ((magnitude >> 13) & 1)) & !0x1fff;
        u64::from((bits & 0x8000_0000) | rounded)
    }
}

parameter! {
    /// The interleaved layout (`interleave`). Only `none` is modelled; NC/8HWC8 (`16B`) and
    /// NC/16HWC16 (`32B`) may follow.
    Interleave, "interleave",
    None = "none", "CU_TENSOR_MAP_INTERLEAVE_NONE";
    B16 = "16B", "CU_TENSOR_MAP_INTERLEAVE_16B";
    B32 = "32B", "CU_TENSOR_MAP_INTERLEAVE_32B";
}

parameter! {
    /// The shared-memory swizzle (`swizzle`): 16-byte chunks XORed within a 32-, 64- or
    /// 128-byte span by the 128-byte row of their shared address.
    Swizzle, "swizzle",
    None = "none", "CU_TENSOR_MAP_SWIZZLE_NONE";
    B32 = "32B", "CU_TENSOR_MAP_SWIZZLE_32B";
    B64 = "64B", "CU_TENSOR_MAP_SWIZZLE_64B";
    B128 = "128B", "CU_TENSOR_MAP_SWIZZLE_128B";
}

impl Swizzle {
    /// The swizzle as the layouts of [`crate::swizzle`] know it (`None` for no swizzle).
    pub fn mode(self) -> Option<TmaMode> {
        match self {
            Swizzle::None => None,
            Swizzle::B32 => Some(TmaMode::B32),
            Swizzle::B64 => Some(TmaMode::B64),
            Swizzle::B128 => Some(TmaMode::B128),
        }
    }
}

parameter! {
    /// The L2 fetch granularity (`l2Promotion`): a cache hint, with no effect on the bytes a
    /// load writes.
    L2Promotion, "l2_promotion",
    None = "none", "CU_TENSOR_MAP_L2_PROMOTION_NONE";
    B64 = "64B", "CU_TENSOR_MAP_L2_PROMOTION_L2_64B";
    B128 = "128B", "CU_TENSOR_MAP_L2_PROMOTION_L2_128B";
    B256 = "256B", "CU_TENSOR_MAP_L2_PROMOTION_L2_256B";
}

parameter! {
    /// What out-of-bounds elements hold (`oobFill`): zeros, or a NaN that asks the tensor
    /// cores to treat the element as a zero in an FMA.
    OobFill, "oob_fill",
    None = "none", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE";
    Nan = "nan", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA";
}

/// A tiled tensor map: the parameters of `cuTensorMapEncodeTiled`, dimension 0 innermost.
///
/// JSON keys are the CUDA parameters in snake case; `global_strides` has `rank - 1` entries (in
/// bytes, for dimensions 1 and up), `element_strides` may be left out (all ones), and
/// `interleave`, `swizzle`, `l2_promotion` and `oob_fill` default to `none`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorMap {
    /// Element type (`tensorDataType`).
    pub data_type: DataType,
    /// Byte address of element 0 (`globalAddress`).
    #[serde(default)]
    pub global_address: u64,
    /// Elements in each dimension (`globalDim`); its length is the rank.
    pub global_dim: Vec<u64>,
    /// Byte strides of dimensions 1 and up (`globalStrides`).
    #[serde(default)]
    pub global_strides: Vec<u64>,
    /// The box, in elements traversed per dimension (`boxDim`).
    pub box_dim: Vec<u32>,
    /// The traversal step per dimension (`elementStrides`); empty means all ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub element_strides: Vec<u32>,
    /// `interleave`.
    #[serde(default)]
    pub interleave: Interleave,
    /// `swizzle`.
    #[serde(default)]
    pub swizzle: Swizzle,
    /// `l2Promotion`.
    #[serde(default)]
    pub l2_promotion: L2Promotion,
    /// `oobFill`.
    #[serde(default)]
    pub oob_fill: OobFill,
}

fn refuse(name: impl Into<String>, value: impl fmt::Display, allowed: impl Into<String>) -> Error {
    Error::OutOfRange {
        name: name.into(),
        value: value.to_string(),
        allowed: allowed.into(),
    }
}

impl TensorMap {
    /// The number of dimensions.
    pub fn rank(&self) -> usize {
        self.global_dim.len()
    }

    /// Bytes per element.
    pub fn elem_bytes(&self) -> u32 {
        self.data_type.bytes()
    }

    /// The element stride of dimension `i` (1 where `element_strides` is empty).
    pub fn element_stride(&self, i: usize) -> u32 {
        self.element_strides.get(i).copied().unwrap_or(1)
    }

    /// The byte stride of dimension `i` (the element size for dimension 0).
    pub fn global_stride(&self, i: usize) -> u64 {
        if i == 0 {
            u64::from(self.elem_bytes())
        } else {
            self.global_strides[i - 1]
        }
    }

    /// Checks every rule of `cuTensorMapEncodeTiled`; the first broken one is refused in one
    /// line naming the key, the value and the rule.
    pub fn validate(&self) -> Result<(), Error> {
        let rank = self.rank();
        if !(1..=MAX_RANK).contains(&rank) {
            return Err(refuse(
                "global_dim",
                format!("{rank} dimensions"),
                "1 to 5 dimensions (tensorRank)",
            ));
        }
        if self.interleave != Interleave::None {
            return Err(refuse(
                "interleave",
                self.interleave,
                "none (16B and 32B interleave are not modelled yet)",
            ));
        }
        if !self.global_address.is_multiple_of(GLOBAL_ALIGN) {
            return Err(refuse(
                "global_address",
                format!("{:#x}", self.global_address),
                "a multiple of 16 (globalAddress is 16-byte aligned)",
            ));
        }
        for (i, &d) in self.global_dim.iter().enumerate() {
            if !(1..=MAX_GLOBAL_DIM).contains(&d) {
                return Err(refuse(
                    format!("global_dim[{i}]"),
                    d,
                    "1 to 2^32 elements (globalDim)",
                ));
            }
        }
        self.validate_strides()?;
        self.validate_box()
    }

    /// `global_strides`: one per dimension above the first, multiples of 16 below 2^40.
    fn validate_strides(&self) -> Result<(), Error> {
        let rank = self.rank();
        if self.global_strides.len() != rank - 1 {
            return Err(refuse(
                "global_strides",
                format!("{} entries", self.global_strides.len()),
                format!(
                    "{} (rank - 1: the byte strides of dimensions 1 and up)",
                    rank - 1
                ),
            ));
        }
        for (i, &s) in self.global_strides.iter().enumerate() {
            if !s.is_multiple_of(GLOBAL_ALIGN) || s >= GLOBAL_STRIDE_LIMIT {
                return Err(refuse(
                    format!("global_strides[{i}]"),
                    s,
                    "a multiple of 16 bytes below 2^40 (globalStrides)",
                ));
            }
        }
        Ok(())
    }

    /// `box_dim`, `element_strides`, the swizzle span and the fill.
    fn validate_box(&self) -> Result<(), Error> {
        let rank = self.rank();
        let bytes = self.elem_bytes();
        if self.box_dim.len() != rank {
            return Err(refuse(
                "box_dim",
                format!("{} entries", self.box_dim.len()),
                format!("{rank} (one per dimension)"),
            ));
        }
        for (i, &b) in self.box_dim.iter().enumerate() {
            if !(1..=MAX_BOX_DIM).contains(&b) {
                return Err(refuse(format!("box_dim[{i}]"), b, "1 to 256 (boxDim)"));
            }
        }
        let inner = self.box_dim[0] * bytes;
        if !inner.is_multiple_of(16) {
            return Err(refuse(
                "box_dim[0]",
                self.box_dim[0],
                format!(
                    "a multiple of {} elements: box_dim[0] x {bytes} bytes ({inner}) must be a \
                     multiple of 16 bytes (boxDim, interleave none)",
                    16 / bytes
                ),
            ));
        }
        if !self.element_strides.is_empty() && self.element_strides.len() != rank {
            return Err(refuse(
                "element_strides",
                format!("{} entries", self.element_strides.len()),
                format!("{rank} (one per dimension), or none for all ones"),
            ));
        }
        for (i, &e) in self.element_strides.iter().enumerate() {
            if !(1..=MAX_ELEMENT_STRIDE).contains(&e) {
                return Err(refuse(
                    format!("element_strides[{i}]"),
                    e,
                    "1 to 8 (elementStrides)",
                ));
            }
        }
        // The driver counts ceil(box / stride) elements in every dimension, dimension 0 too
        // (whose stride the load itself ignores), and no swizzle padding.
        let counted: u64 = (0..rank)
            .map(|i| u64::from(self.box_dim[i].div_ceil(self.element_stride(i))))
            .product::<u64>()
            * u64::from(bytes);
        if counted > MAX_BOX_BYTES {
            return Err(refuse(
                "box_dim",
                format!("{:?}", self.box_dim),
                format!(
                    "a box of at most {MAX_BOX_BYTES} bytes (228 KiB): its {counted} bytes \
                     (the product of ceil(box_dim / element_strides) x {bytes}) are more than \
                     the driver takes (measured)"
                ),
            ));
        }
        if let Some(mode) = self.swizzle.mode() {
            if u64::from(inner) > mode.span() {
                return Err(refuse(
                    "box_dim[0]",
                    self.box_dim[0],
                    format!(
                        "at most {} elements under swizzle {}: the box's inner dimension \
                         ({inner} bytes) must fit the {}-byte swizzle span",
                        mode.span() / u64::from(bytes),
                        self.swizzle,
                        mode.span()
                    ),
                ));
            }
        }
        if self.oob_fill == OobFill::Nan && !self.data_type.is_float() {
            return Err(refuse(
                "oob_fill",
                self.oob_fill,
                format!(
                    "none for the integer type {} (NaN fill needs a floating-point data_type)",
                    self.data_type
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A valid 2-D map of halves: 100 x 40 elements, rows 256 bytes apart, a 64 x 8 box,
    /// 128-byte swizzle.
    pub(crate) fn halves() -> TensorMap {
        TensorMap {
            data_type: DataType::F16,
            global_address: 0x1000,
            global_dim: vec![100, 40],
            global_strides: vec![256],
            box_dim: vec![64, 8],
            element_strides: vec![],
            interleave: Interleave::None,
            swizzle: Swizzle::B128,
            l2_promotion: L2Promotion::B128,
            oob_fill: OobFill::None,
        }
    }

    fn refusal(m: TensorMap) -> String {
        m.validate().unwrap_err().to_string()
    }

    #[test]
    fn a_valid_map_passes_and_reads_from_json() {
        halves().validate().unwrap();
        let json = r#"{"data_type": "f16", "global_address": 4096, "global_dim": [100, 40],
            "global_strides": [256], "box_dim": [64, 8], "swizzle": "128B",
            "l2_promotion": "128B"}"#;
        let m: TensorMap = serde_json::from_str(json).unwrap();
        assert_eq!(m, halves());
        let back: TensorMap = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
        // CUDA's own enumerator names are accepted too.
        let m: TensorMap =
            serde_json::from_str(&json.replace("\"128B\",\n", "\"CU_TENSOR_MAP_SWIZZLE_128B\",\n"))
                .unwrap();
        assert_eq!(m.swizzle, Swizzle::B128);
    }

    #[test]
    fn unknown_values_and_keys_are_refused_by_name() {
        let e = serde_json::from_str::<TensorMap>(
            r#"{"data_type": "f8", "global_dim": [16], "box_dim": [16]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("data_type `f8` is unknown: allowed u8, u16"),
            "{e}"
        );
        let e = serde_json::from_str::<TensorMap>(
            r#"{"data_type": "u8", "global_dim": [16], "box_dim": [16], "swizle": "32B"}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("unknown field `swizle`"), "{e}");
    }

    /// Every documented rule, each broken once: the message names the key, the value and the
    /// rule.
    #[test]
    fn every_rule_is_refused_naming_key_value_and_rule() {
        let cases: Vec<(TensorMap, &str)> = vec![
            (
                TensorMap {
                    global_dim: vec![],
                    ..halves()
                },
                "global_dim = 0 dimensions is out of range: allowed 1 to 5 dimensions",
            ),
            (
                TensorMap {
                    global_dim: vec![2; 6],
                    ..halves()
                },
                "global_dim = 6 dimensions",
            ),
            (
                TensorMap {
                    interleave: Interleave::B16,
                    ..halves()
                },
                "interleave = 16B is out of range: allowed none (16B and 32B",
            ),
            (
                TensorMap {
                    global_address: 0x1008,
                    ..halves()
                },
                "global_address = 0x1008 is out of range: allowed a multiple of 16",
            ),
            (
                TensorMap {
                    global_dim: vec![100, 0],
                    ..halves()
                },
                "global_dim[1] = 0 is out of range: allowed 1 to 2^32",
            ),
            (
                TensorMap {
                    global_dim: vec![(1 << 32) + 1, 4],
                    ..halves()
                },
                "global_dim[0] = 4294967297",
            ),
            (
                TensorMap {
                    global_strides: vec![],
                    ..halves()
                },
                "global_strides = 0 entries is out of range: allowed 1 (rank - 1",
            ),
            (
                TensorMap {
                    global_strides: vec![200],
                    ..halves()
                },
                "global_strides[0] = 200 is out of range: allowed a multiple of 16 bytes below 2^40",
            ),
            (
                TensorMap {
                    global_strides: vec![1 << 40],
                    ..halves()
                },
                "global_strides[0] = 1099511627776",
            ),
            (
                TensorMap {
                    box_dim: vec![64],
                    ..halves()
                },
                "box_dim = 1 entries is out of range: allowed 2 (one per dimension)",
            ),
            (
                TensorMap {
                    box_dim: vec![64, 0],
                    ..halves()
                },
                "box_dim[1] = 0 is out of range: allowed 1 to 256",
            ),
            (
                TensorMap {
                    box_dim: vec![64, 257],
                    ..halves()
                },
                "box_dim[1] = 257",
            ),
            (
                TensorMap {
                    box_dim: vec![12, 8],
                    ..halves()
                },
                "box_dim[0] = 12 is out of range: allowed a multiple of 8 elements: box_dim[0] x 2 bytes (24)",
            ),
            (
                TensorMap {
                    data_type: DataType::U8,
                    global_dim: vec![256, 4, 4],
                    global_strides: vec![256, 1024],
                    box_dim: vec![256, 240, 4],
                    swizzle: Swizzle::None,
                    ..halves()
                },
                "box_dim = [256, 240, 4] is out of range: allowed a box of at most 233472 bytes \
                 (228 KiB): its 245760 bytes",
            ),
            (
                TensorMap {
                    element_strides: vec![1],
                    ..halves()
                },
                "element_strides = 1 entries",
            ),
            (
                TensorMap {
                    element_strides: vec![1, 0],
                    ..halves()
                },
                "element_strides[1] = 0 is out of range: allowed 1 to 8",
            ),
            (
                TensorMap {
                    element_strides: vec![9, 1],
                    ..halves()
                },
                "element_strides[0] = 9",
            ),
            (
                TensorMap {
                    box_dim: vec![72, 8],
                    ..halves()
                },
                "box_dim[0] = 72 is out of range: allowed at most 64 elements under swizzle 128B",
            ),
            (
                TensorMap {
                    box_dim: vec![24, 8],
                    swizzle: Swizzle::B32,
                    ..halves()
                },
                "at most 16 elements under swizzle 32B: the box's inner dimension (48 bytes)",
            ),
            (
                TensorMap {
                    data_type: DataType::I32,
                    box_dim: vec![32, 8],
                    oob_fill: OobFill::Nan,
                    ..halves()
                },
                "oob_fill = nan is out of range: allowed none for the integer type i32",
            ),
        ];
        for (m, expected) in cases {
            let e = refusal(m.clone());
            assert!(e.contains(expected), "{m:?}: {e}");
            assert!(!e.contains('\n'));
        }
    }

    /// The limits themselves are allowed: rank 1 and 5, 2^32 elements, a stride just below
    /// 2^40, a 256-element box, element stride 8, a box exactly one span wide, NaN for every
    /// floating-point type, no swizzle with a wide box.
    #[test]
    fn the_limits_themselves_are_allowed() {
        let ok = |m: TensorMap| m.validate().unwrap_or_else(|e| panic!("{m:?}: {e}"));
        ok(TensorMap {
            global_dim: vec![1 << 32],
            global_strides: vec![],
            box_dim: vec![64],
            ..halves()
        });
        ok(TensorMap {
            global_dim: vec![8; 5],
            global_strides: vec![16, (1 << 40) - 16, 16, 16],
            box_dim: vec![8, 256, 1, 2, 3],
            element_strides: vec![1, 8, 1, 2, 3],
            ..halves()
        });
        ok(TensorMap {
            data_type: DataType::U8,
            box_dim: vec![256, 8],
            swizzle: Swizzle::None,
            ..halves()
        });
        // The largest box the driver took: 228 KiB; and one it took only because element
        // strides, dimension 0's included, divide what it counts.
        let big = |box_dim: Vec<u32>, element_strides: Vec<u32>| TensorMap {
            data_type: DataType::U8,
            global_dim: vec![256, 4, 4],
            global_strides: vec![256, 1024],
            box_dim,
            element_strides,
            swizzle: Swizzle::None,
            ..halves()
        };
        ok(big(vec![256, 228, 4], vec![]));
        ok(big(vec![256, 256, 8], vec![4, 1, 1]));
        assert!(big(vec![256, 256, 8], vec![2, 1, 1]).validate().is_err());
        for &t in DataType::ALL {
            let bytes = t.bytes();
            ok(TensorMap {
                data_type: t,
                box_dim: vec![128 / bytes, 8],
                oob_fill: if t.is_float() {
                    OobFill::Nan
                } else {
                    OobFill::None
                },
                ..halves()
            });
        }
    }

    /// The H100's conversions, from the dumps of docs/TMA.md (global bits -> shared bits).
    #[test]
    fn tf32_loads_round_and_fills_are_0x7ff7_repeated() {
        for (raw, stored) in [
            (0x4d10_3542, 0x4d10_4000), // low 13 bits 0x1542: up
            (0x963b_0caf, 0x963b_0000), // 0x0caf: down
            (0xcfcd_f72a, 0xcfce_0000), // up, with a carry out of the mantissa's top bits
            (0x8005_5820, 0x8005_6000), // a subnormal rounds like any other number
            (0x8041_c83b, 0x8041_c000),
            (0xe1e0_d000, 0xe1e0_c000), // a tie (0x1000) to the even neighbour: down
            (0xe1e0_f000, 0xe1e1_0000), // a tie from odd: up
            (0xffec_01f0, 0x7fff_e000), // NaN: canonical
            (0xffed_7d7c, 0x7fff_e000),
        ] {
            assert_eq!(DataType::Tf32.load_bits(raw), stored, "{raw:#x}");
            assert_eq!(DataType::Tf32Ftz.load_bits(raw), stored, "{raw:#x}");
            assert_eq!(DataType::F32.load_bits(raw), raw);
            assert_eq!(DataType::F32Ftz.load_bits(raw), raw);
        }
        assert_eq!(DataType::Bf16.fill_bits(OobFill::Nan), 0x7ff7);
        assert_eq!(DataType::F32.fill_bits(OobFill::Nan), 0x7ff7_7ff7);
        assert_eq!(DataType::F64.fill_bits(OobFill::Nan), 0x7ff7_7ff7_7ff7_7ff7);
        assert_eq!(DataType::F64.fill_bits(OobFill::None), 0);
    }

    #[test]
    fn data_types_have_cudas_sizes() {
        let sizes: Vec<u32> = DataType::ALL.iter().map(|t| t.bytes()).collect();
        // In the order of CUtensorMapDataType's comments: 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4.
        assert_eq!(sizes, [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4]);
        let floats = DataType::ALL.iter().filter(|t| t.is_float()).count();
        assert_eq!(floats, 7);
    }
}
