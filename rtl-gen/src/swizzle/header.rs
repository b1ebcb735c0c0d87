//! The CUDA header of a layout: `<name>_offset(x)`, the physical byte offset of logical byte
//! offset `x` of the tile, and `<name>_index(row, col)`, the element index to store element
//! `(row, col)` at. A CuTe-expressible layout is written as CuTe writes it (one shift, one mask,
//! one XOR); any other as one parity term per physical bit that differs from its logical bit.

use crate::cuda::{close, open};
use models::swizzle::export::forms;
use models::swizzle::layout::CuteUnit;
use models::swizzle::{AddressMap, Layout, Tile};

/// The header of `map` on `tile`; `command` is recorded in its first line.
pub fn swizzle_header(map: &AddressMap, tile: &Tile, name: &str, command: &str) -> String {
    let all = forms(map, tile);
    let listed: Vec<String> = all
        .iter()
        .filter(|f| !matches!(f, Layout::TritonLinear(_) | Layout::Matrix(_)))
        .map(Layout::to_string)
        .collect();
    let mut about = vec![format!(
        "Layout of a {}x{} tile of {}-byte elements ({} bytes), written as:",
        tile.rows(),
        tile.cols(),
        tile.elem_bytes(),
        tile.bytes()
    )];
    if listed.is_empty() {
        about.push("  a general GF(2) matrix (no CuTe, TMA or Triton swizzle form)".into());
    }
    about.extend(listed.iter().map(|f| format!("  {f}")));
    about.push(format!(
        "{name}_offset(x): the byte offset where the byte of row-major offset x (< {}) is stored.",
        tile.bytes()
    ));
    about.push(format!(
        "{name}_index(row, col): the element index where element (row, col) is stored."
    ));
    let upper = name.to_ascii_uppercase();
    let mut s = open(name, command, &about);
    s.push_str(&format!(
        "#define {upper}_BYTES {}u\n#define {upper}_COLS {}u\n#define {upper}_ELEM_BYTES {}u\n\n",
        tile.bytes(),
        tile.cols(),
        tile.elem_bytes()
    ));
    let mask = format!("{:#x}u", tile.bytes() - 1);
    let cute = all.iter().find_map(|f| match f {
        Layout::Cute(c, CuteUnit::Bytes) => Some(*c),
        _ => None,
    });
    let body = if map.is_identity() {
        format!("    return x & {mask};")
    } else if let Some(c) = cute {
        let yyy = ((1u64 << c.b) - 1) << (c.m + c.s as u32);
        format!(
            "    x &= {mask};\n    return x ^ ((x & {yyy:#x}u) >> {}); // CuTe {c} on bytes",
            c.s
        )
    } else {
        let terms: Vec<String> = map
            .rows()
            .iter()
            .enumerate()
            .filter(|(i, r)| **r != 1 << i)
            .map(|(i, r)| {
                format!(
                    "((unsigned int)__popc(x & {:#x}u) & 1u) << {i}",
                    r ^ (1 << i)
                )
            })
            .collect();
        format!(
            "    x &= {mask};\n    return x\n        ^ {};",
            terms.join("\n        ^ ")
        )
    };
    s.push_str(&format!(
        "__device__ __forceinline__ unsigned int {name}_offset(unsigned int x)\n{{\n{body}\n}}\n\n"
    ));
    s.push_str(&format!(
        "__device__ __forceinline__ unsigned int {name}_index(unsigned int row, unsigned int col)\n{{\n    \
         return {name}_offset((row * {upper}_COLS + col) * {upper}_ELEM_BYTES)\n        / {upper}_ELEM_BYTES;\n}}\n\n"
    ));
    s.push_str(&close(name));
    s
}
