//! The hashers of the main job ([`crate::flow`]): the paper's Fermi case (14 address bits, 32
//! banks) for every hash kind, fixed and configurable.

use crate::hash::HashDesign;
use models::HashConfigObject;

/// The fixed configurations of the flow, one per kind, as configuration-object JSON: the
/// paper's Fig. 5 bit-vector XOR, the fixed XOR of its reference \[17\] (`addr[0..4] ^
/// addr[5..9]`) as bitwise XOR, and simple full-rank choices for the others.
pub const FERMI_CONFIGS: [&str; 6] = [
    r#"{"kind":"modulo","addr_bits":14,"banks":32}"#,
    r#"{"kind":"bitvector-perm","addr_bits":14,"banks":32,"k":2}"#,
    r#"{"kind":"bitvector-xor","addr_bits":14,"banks":32,"k1":2,"k2":8,"mask":7}"#,
    r#"{"kind":"bitwise-perm","addr_bits":14,"banks":32,"bits":[0,3,4,8,9]}"#,
    r#"{"kind":"bitwise-xor","addr_bits":14,"banks":32,"pairs":[[0,5],[1,6],[2,7],[3,8],[4,9]]}"#,
    r#"{"kind":"xor-matrix","addr_bits":14,"banks":32,"rows":["0x421","0x842","0x1084","0x2108","0x210"]}"#,
];

/// The designs of the flow: every kind fixed, every configurable kind configurable.
pub fn designs() -> Vec<HashDesign> {
    let mut out = Vec::new();
    for text in FERMI_CONFIGS {
        let object = HashConfigObject::from_json(text).unwrap_or_else(|e| unreachable!("{e}"));
        let fixed =
            HashDesign::new(&object, false, false, false).unwrap_or_else(|e| unreachable!("{e}"));
        out.push(fixed);
        if object.kind != models::HashKind::Modulo {
            let bare = HashConfigObject::new(object.kind, object.addr_bits, object.banks);
            out.push(
                HashDesign::new(&bare, true, false, false).unwrap_or_else(|e| unreachable!("{e}")),
            );
        }
    }
    out
}
