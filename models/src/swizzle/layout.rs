//! The layouts GPU programmers write, parsed from text and turned into [`AddressMap`]s.
//!
//! | text | meaning |
//! |---|---|
//! | `none` | the plain row-major tile |
//! | `cute:Swizzle<B,M,S>` | CuTe's swizzle on **byte** offsets (its `smem_ptr_flag` layouts, the Hopper GMMA atoms) |
//! | `cute-elem:Swizzle<B,M,S>` | the same function on **element** offsets (`composition(Swizzle<..>{}, layout)`) |
//! | `tma:32B`, `tma:64B`, `tma:128B` | TMA's swizzle modes: 16-byte chunks XORed within a 32/64/128-byte span |
//! | `triton:swizzled_shared<vec=V,perPhase=P,maxPhase=M,order=1,0>` | Triton's swizzled shared layout |
//! | `triton:linear<offset=[[r,c],...]>` | a Triton shared linear layout: element-offset bit `i` holds element `(r, c)` |
//! | `matrix:0x..,0x..` | the byte map itself: row `i` selects the logical bits XORed into physical bit `i` |
//!
//! CuTe's `Swizzle<B,M,S>` is `x ^ ((x & yyy) >> S)` with `yyy = ((1 << B) - 1) << (M + S)`
//! (`S < 0` shifts left, as in CuTe); TMA's modes are documented as moving 16-byte chunks within
//! a 32-, 64- or 128-byte span by the 128-byte row index, which is `Swizzle<1|2|3,4,3>` on
//! shared-memory byte addresses (a property test checks the two formulas agree). TMA writes a
//! box's rows one span apart (measured on an H100: narrower rows leave gaps), so a tile whose
//! rows are wider than the span is loaded as boxes of span-wide columns placed one after
//! another (CuTe's `tile_to_shape` of a GMMA atom does the same) and each is swizzled. Triton's swizzled layout stores
//! element `(r, c)` of a row-major tile at column `((c / vec) ^ phase) * vec + c % vec`,
//! `phase = (r / perPhase) % maxPhase` (the XOR wraps inside the row, as Triton's linear form
//! does), per `TritonGPUAttrDefs.td`; `order=0,1` swizzles the column-major tile instead.

use super::map::{AddressMap, MapError};
use super::tile::Tile;
use crate::HashConfig;
use std::fmt;
use std::str::FromStr;

/// The span of a TMA swizzle mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TmaMode {
    /// `CU_TENSOR_MAP_SWIZZLE_32B`.
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B`.
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B`.
    B128,
}

impl TmaMode {
    /// The three modes, narrowest first.
    pub const ALL: [TmaMode; 3] = [TmaMode::B32, TmaMode::B64, TmaMode::B128];

    /// The span in bytes: 32, 64 or 128.
    pub fn span(self) -> u64 {
        match self {
            TmaMode::B32 => 32,
            TmaMode::B64 => 64,
            TmaMode::B128 => 128,
        }
    }

    /// Where TMA writes the byte it would put at shared-memory offset `x` unswizzled (from a
    /// 1024-byte aligned buffer): the 16-byte chunk index inside the span XORed with the
    /// 128-byte row index, both taken modulo the chunks in a span.
    pub fn apply(self, x: u64) -> u64 {
        let chunks = self.span() / 16 - 1;
        x ^ (((x >> 7) & chunks) << 4)
    }
}

/// The unit CuTe's swizzle acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CuteUnit {
    /// Byte offsets (`cute:`).
    Bytes,
    /// Element offsets (`cute-elem:`).
    Elements,
}

/// CuTe's `Swizzle<B, M, S>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CuteSwizzle {
    /// Bits of the mask, `B`.
    pub b: u32,
    /// Bits kept below the mask, `M`.
    pub m: u32,
    /// The shift, `S` (`|S| >= B`).
    pub s: i32,
}

impl CuteSwizzle {
    /// `x ^ ((x & yyy) >> S)`, `yyy = ((1 << B) - 1) << (M + max(0, S))`; a negative `S` shifts
    /// left.
    pub fn apply(self, x: u64) -> u64 {
        let mask = ((1u64 << self.b) - 1) << (self.m + self.s.max(0) as u32);
        let picked = x & mask;
        let moved = if self.s >= 0 {
            picked >> self.s
        } else {
            picked << -self.s
        };
        x ^ moved
    }

    /// The highest bit (exclusive) it reads or writes.
    pub fn top_bit(self) -> u32 {
        self.m + self.s.unsigned_abs() + self.b
    }

    /// The lowest bit it changes: `M` for `S >= 0`, `M + |S|` otherwise.
    pub fn lowest_written(self) -> u32 {
        self.m + (-self.s).max(0) as u32
    }
}

impl fmt::Display for CuteSwizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Swizzle<{},{},{}>", self.b, self.m, self.s)
    }
}

/// Triton's `swizzled_shared` parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TritonSwizzle {
    /// Elements moved together.
    pub vec: u64,
    /// Rows that share a phase.
    pub per_phase: u64,
    /// Phases before the pattern repeats.
    pub max_phase: u64,
    /// `true` for `order=1,0` (row-major), `false` for `order=0,1`.
    pub row_major: bool,
}

impl TritonSwizzle {
    /// The swizzled column of element `(r, c)` in rows of `cols` elements.
    pub fn column(self, r: u64, c: u64, cols: u64) -> u64 {
        let phase = (r / self.per_phase) % self.max_phase;
        let groups = (cols / self.vec).max(1);
        (((c / self.vec) ^ phase) % groups) * self.vec + c % self.vec
    }
}

impl fmt::Display for TritonSwizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "swizzled_shared<vec={},perPhase={},maxPhase={},order={}>",
            self.vec,
            self.per_phase,
            self.max_phase,
            if self.row_major { "1,0" } else { "0,1" }
        )
    }
}

/// A layout as a GPU programmer writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// The plain row-major tile.
    RowMajor,
    /// CuTe's swizzle on byte or element offsets.
    Cute(CuteSwizzle, CuteUnit),
    /// A TMA swizzle mode.
    Tma(TmaMode),
    /// Triton's swizzled shared layout.
    TritonSwizzled(TritonSwizzle),
    /// A Triton shared linear layout: `bases[i]` is the `(row, col)` stored at element offset
    /// `1 << i`.
    TritonLinear(Vec<[u64; 2]>),
    /// The byte map's rows.
    Matrix(Vec<u64>),
    /// One of our hash configurations over element offsets (see [`super::export::hash_config`]),
    /// completed to a bijection.
    Hash(HashConfig),
}

/// Why a layout cannot be parsed or does not fit the tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError {
    /// The layout as written.
    pub text: String,
    /// What is wrong, and what is allowed.
    pub message: String,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.text, self.message)
    }
}

/// The layout forms `--layout` accepts, for error messages.
pub const FORMS: &str = "none, cute:Swizzle<B,M,S>, cute-elem:Swizzle<B,M,S>, tma:32B|64B|128B, \
triton:swizzled_shared<vec=V,perPhase=P,maxPhase=M,order=1,0>, triton:linear<offset=[[r,c],...]>, \
matrix:ROW,ROW,... or config:FILE";

fn err(text: &impl fmt::Display, message: impl Into<String>) -> LayoutError {
    LayoutError {
        text: text.to_string(),
        message: message.into(),
    }
}

/// The text between `name<` and the final `>`.
fn angle_body<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let t = text.trim();
    let rest = t.strip_prefix(name)?.trim_start();
    rest.strip_prefix('<')?.strip_suffix('>')
}

fn parse_cute(body: &str, unit: CuteUnit, text: &str) -> Result<Layout, LayoutError> {
    let bad = || {
        err(
            &text,
            "expected Swizzle<B,M,S> with B >= 1, M >= 0 and |S| >= B, e.g. Swizzle<3,4,3>",
        )
    };
    let inner = angle_body(body, "Swizzle").ok_or_else(bad)?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let [b, m, s] = parts[..] else {
        return Err(bad());
    };
    let (b, m, s): (u32, u32, i32) = (
        b.parse().map_err(|_| bad())?,
        m.parse().map_err(|_| bad())?,
        s.parse().map_err(|_| bad())?,
    );
    if b == 0 || s.unsigned_abs() < b || b > 32 || m > 32 || s.unsigned_abs() > 32 {
        return Err(bad());
    }
    Ok(Layout::Cute(CuteSwizzle { b, m, s }, unit))
}

fn parse_pow2(key: &str, value: &str, text: &str) -> Result<u64, LayoutError> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|v| v.is_power_of_two() && *v <= 1 << 20)
        .ok_or_else(|| {
            err(
                &text,
                format!("{key}={value} must be a power of two from 1 to 2^20"),
            )
        })
}

fn parse_triton_swizzled(body: &str, text: &str) -> Result<Layout, LayoutError> {
    // Split on commas that separate keys: `order=1,0` holds a comma of its own.
    let mut fields: Vec<(String, String)> = Vec::new();
    for piece in body.split(',') {
        match piece.split_once('=') {
            Some((k, v)) => fields.push((k.trim().to_string(), v.trim().to_string())),
            None => match fields.last_mut() {
                Some((_, v)) => {
                    v.push(',');
                    v.push_str(piece.trim());
                }
                None => return Err(err(&text, format!("`{piece}` is not KEY=VALUE"))),
            },
        }
    }
    let mut vec = None;
    let mut per_phase = None;
    let mut max_phase = None;
    let mut row_major = None;
    for (k, v) in &fields {
        match k.as_str() {
            "vec" => vec = Some(parse_pow2(k, v, text)?),
            "perPhase" | "per_phase" => per_phase = Some(parse_pow2(k, v, text)?),
            "maxPhase" | "max_phase" => max_phase = Some(parse_pow2(k, v, text)?),
            "order" => {
                let order: String = v
                    .chars()
                    .filter(|c| !c.is_whitespace() && *c != '[' && *c != ']')
                    .collect();
                row_major = Some(match order.as_str() {
                    "1,0" | "0" => true,
                    "0,1" => false,
                    _ => {
                        return Err(err(&text, format!(
                            "order={v}: allowed 1,0 (row-major), 0,1 (column-major) or 0 (one dimension)"
                        )))
                    }
                })
            }
            _ => {
                return Err(err(
                    &text,
                    format!("unknown key `{k}`: allowed vec, perPhase, maxPhase, order"),
                ))
            }
        }
    }
    match (vec, per_phase, max_phase) {
        (Some(vec), Some(per_phase), Some(max_phase)) => {
            Ok(Layout::TritonSwizzled(TritonSwizzle {
                vec,
                per_phase,
                max_phase,
                row_major: row_major.unwrap_or(true),
            }))
        }
        _ => Err(err(
            &text,
            "swizzled_shared needs vec, perPhase and maxPhase (order defaults to 1,0)",
        )),
    }
}

fn parse_triton_linear(body: &str, text: &str) -> Result<Layout, LayoutError> {
    let bad = || {
        err(
            &text,
            "expected linear<offset=[[row,col],[row,col],...]>, one pair per element-offset bit",
        )
    };
    let list = body
        .trim()
        .strip_prefix("offset")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('='))
        .ok_or_else(bad)?;
    let numbers: Vec<u64> = list
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let opens = list.matches('[').count();
    if !numbers.len().is_multiple_of(2) || opens != numbers.len() / 2 + 1 {
        return Err(bad());
    }
    Ok(Layout::TritonLinear(
        numbers.chunks(2).map(|p| [p[0], p[1]]).collect(),
    ))
}

impl FromStr for Layout {
    type Err = LayoutError;

    /// Parses every form but `config:FILE`, which needs a file read (the command line does it).
    fn from_str(text: &str) -> Result<Self, LayoutError> {
        let t = text.trim();
        let (family, body) = t.split_once(':').unwrap_or((t, ""));
        match family.trim() {
            "none" | "row-major" if body.is_empty() => Ok(Layout::RowMajor),
            "cute" => parse_cute(body, CuteUnit::Bytes, text),
            "cute-elem" => parse_cute(body, CuteUnit::Elements, text),
            "tma" => match body.trim().to_ascii_lowercase().trim_end_matches('b') {
                "32" => Ok(Layout::Tma(TmaMode::B32)),
                "64" => Ok(Layout::Tma(TmaMode::B64)),
                "128" => Ok(Layout::Tma(TmaMode::B128)),
                _ => Err(err(
                    &text,
                    "TMA swizzle modes are tma:32B, tma:64B and tma:128B",
                )),
            },
            "triton" => {
                if let Some(b) = angle_body(body, "swizzled_shared") {
                    parse_triton_swizzled(b, text)
                } else if let Some(b) = angle_body(body, "linear") {
                    parse_triton_linear(b, text)
                } else {
                    Err(err(
                        &text,
                        "Triton layouts are triton:swizzled_shared<...> and triton:linear<...>",
                    ))
                }
            }
            "matrix" => body
                .split(',')
                .map(|r| crate::config::parse_u64(r).map_err(|m| err(&text, m)))
                .collect::<Result<Vec<u64>, _>>()
                .map(Layout::Matrix),
            _ => Err(err(&text, format!("not a layout: allowed {FORMS}"))),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Layout::RowMajor => f.write_str("none"),
            Layout::Cute(s, CuteUnit::Bytes) => write!(f, "cute:{s}"),
            Layout::Cute(s, CuteUnit::Elements) => write!(f, "cute-elem:{s}"),
            Layout::Tma(m) => write!(f, "tma:{}B", m.span()),
            Layout::TritonSwizzled(t) => write!(f, "triton:{t}"),
            Layout::TritonLinear(bases) => {
                let list: Vec<String> = bases.iter().map(|[r, c]| format!("[{r},{c}]")).collect();
                write!(f, "triton:linear<offset=[{}]>", list.join(","))
            }
            Layout::Matrix(rows) => {
                let list: Vec<String> = rows.iter().map(|r| format!("{r:#x}")).collect();
                write!(f, "matrix:{}", list.join(","))
            }
            Layout::Hash(c) => write!(
                f,
                "config:{}",
                serde_json::to_string(&crate::HashConfigObject::from_config(c)).unwrap_or_default()
            ),
        }
    }
}

/// The byte map of an element-index map `p` (a bijection of the element offsets, linear).
fn element_map(tile: &Tile, p: impl Fn(u64) -> u64) -> Result<AddressMap, MapError> {
    let shift = tile.elem_shift();
    let low = tile.elem_bytes() as u64 - 1;
    AddressMap::from_fn(tile.offset_bits(), |x| (p(x >> shift) << shift) | (x & low))
}

/// Bank-group geometry of a tile: the byte bit where the bank index starts (`log2` of the
/// bank-group width, at least 4 bytes) and its bits (5 for 32 banks of 4 bytes, 4 for 16 groups
/// of 8 bytes, 3 for 8 groups of 16 bytes).
pub fn bank_groups(tile: &Tile) -> (u32, u32) {
    let start = tile.elem_shift().max(2);
    (start, 7 - start)
}

impl Layout {
    /// The byte map of this layout on `tile`.
    pub fn to_map(&self, tile: &Tile) -> Result<AddressMap, LayoutError> {
        let n = tile.offset_bits();
        let singular = |e: MapError| err(self, format!("on a {tile} tile: {e}"));
        let map = match self {
            Layout::RowMajor => AddressMap::identity(n),
            Layout::Cute(s, unit) => {
                let shift = match unit {
                    CuteUnit::Bytes => 0,
                    CuteUnit::Elements => tile.elem_shift(),
                };
                let lowest = s.lowest_written() + shift;
                let writes_top = lowest + s.b;
                if writes_top > n {
                    return Err(err(
                        self,
                        format!(
                        "moves byte-offset bits {lowest}..{} but a {tile} tile has {n} offset bits",
                        writes_top - 1
                    ),
                    ));
                }
                let byte_swizzle = CuteSwizzle {
                    m: s.m + shift,
                    ..*s
                };
                AddressMap::from_fn(n, |x| byte_swizzle.apply(x)).map_err(singular)?
            }
            Layout::Tma(mode) => {
                let (span, row) = (mode.span(), tile.row_bytes());
                if row < span {
                    return Err(err(self, format!(
                        "TMA puts box rows {span} bytes apart in shared memory (measured on an H100), \
                         so rows of {row} bytes leave gaps: use rows of at least {span} bytes"
                    )));
                }
                // Boxes of `span`-byte columns one after another, rows `span` bytes apart in a
                // box, then the swizzle on the shared-memory byte address.
                let box_bytes = tile.rows() * span;
                AddressMap::from_fn(n, |x| {
                    let (r, b) = (x / row, x % row);
                    mode.apply((b / span) * box_bytes + r * span + b % span)
                })
                .map_err(singular)?
            }
            Layout::TritonSwizzled(t) => {
                let (rows, cols) = if t.row_major {
                    (tile.rows(), tile.cols())
                } else {
                    (tile.cols(), tile.rows())
                };
                let e_bits = tile.col_bits();
                element_map(tile, |e| {
                    let (r, c) = (e >> e_bits, e & (tile.cols() - 1));
                    let (outer, inner) = if t.row_major { (r, c) } else { (c, r) };
                    debug_assert!(outer < rows);
                    outer * cols + t.column(outer, inner, cols)
                })
                .map_err(singular)?
            }
            Layout::TritonLinear(bases) => {
                let bits = tile.element_bits();
                if bases.len() != bits as usize {
                    return Err(err(
                        self,
                        format!(
                        "{} bases for a {tile} tile: expected {bits}, one per element-offset bit",
                        bases.len()
                    ),
                    ));
                }
                if let Some([r, c]) = bases
                    .iter()
                    .find(|[r, c]| *r >= tile.rows() || *c >= tile.cols())
                {
                    return Err(err(
                        self,
                        format!(
                            "base [{r},{c}] lies outside the {}x{} tile",
                            tile.rows(),
                            tile.cols()
                        ),
                    ));
                }
                let stored = AddressMap::from_columns(
                    bits,
                    bases
                        .iter()
                        .map(|[r, c]| (r << tile.col_bits()) | c)
                        .collect(),
                )
                .map_err(singular)?;
                let place = stored.inverse();
                element_map(tile, |e| place.apply(e)).map_err(singular)?
            }
            Layout::Matrix(rows) => AddressMap::from_rows(n, rows).map_err(singular)?,
            Layout::Hash(config) => {
                let (start, bits) = bank_groups(tile);
                let g = config.geometry();
                if g.addr_bits() != tile.element_bits() || g.bank_bits() != bits {
                    return Err(err(self, format!(
                        "the configuration has addr_bits {} and {} banks: a {tile} tile needs addr_bits {} (element offsets) and {} banks",
                        g.addr_bits(),
                        g.banks(),
                        tile.element_bits(),
                        1u64 << bits
                    )));
                }
                let position = start - tile.elem_shift();
                let fixed: Vec<(u32, u64)> = config
                    .to_matrix()
                    .rows()
                    .iter()
                    .enumerate()
                    .map(|(i, &r)| (position + i as u32, r))
                    .collect();
                let place = AddressMap::complete(tile.element_bits(), &fixed).ok_or_else(|| {
                    err(
                        self,
                        "the hash is rank-deficient, so no layout gives its banks",
                    )
                })?;
                element_map(tile, |e| place.apply(e)).map_err(singular)?
            }
        };
        if map.contiguous_bytes() < u64::from(tile.elem_bytes()) {
            return Err(err(
                self,
                format!(
                    "splits {}-byte elements (it keeps only {} bytes together)",
                    tile.elem_bytes(),
                    map.contiguous_bytes()
                ),
            ));
        }
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swizzle::tile::TileShape;

    fn tile(shape: &str, eb: u32) -> Tile {
        Tile::new(shape.parse::<TileShape>().unwrap(), eb).unwrap()
    }

    /// The stored tile, as Triton's docs print it: entry `(r, p)` is the logical element stored
    /// at row `r`, position `p` (the input tensor is `[0, 1, ..., n-1]`).
    fn stored(layout: &str, rows: u64, cols: u64) -> Vec<Vec<u64>> {
        let t = tile(&format!("{rows}x{cols}"), 16);
        let place = layout.parse::<Layout>().unwrap().to_map(&t).unwrap();
        let mut out = vec![vec![0; cols as usize]; rows as usize];
        for e in 0..rows * cols {
            let p = place.apply(e * 16) / 16;
            out[(p / cols) as usize][(p % cols) as usize] = e;
        }
        out
    }

    /// The five examples of `SwizzledSharedEncodingAttr` in Triton's `TritonGPUAttrDefs.td`.
    #[test]
    fn triton_reproduces_its_documented_examples() {
        assert_eq!(
            stored(
                "triton:swizzled_shared<vec=1,perPhase=1,maxPhase=4,order=1,0>",
                4,
                4
            ),
            [[0, 1, 2, 3], [5, 4, 7, 6], [10, 11, 8, 9], [15, 14, 13, 12]]
        );
        assert_eq!(
            stored(
                "triton:swizzled_shared<vec=1,perPhase=2,maxPhase=4,order=1,0>",
                4,
                4
            ),
            [[0, 1, 2, 3], [4, 5, 6, 7], [9, 8, 11, 10], [13, 12, 15, 14]]
        );
        assert_eq!(
            stored(
                "triton:swizzled_shared<vec=1,perPhase=1,maxPhase=2,order=1,0>",
                8,
                4
            ),
            [
                [0, 1, 2, 3],
                [5, 4, 7, 6],
                [8, 9, 10, 11],
                [13, 12, 15, 14],
                [16, 17, 18, 19],
                [21, 20, 23, 22],
                [24, 25, 26, 27],
                [29, 28, 31, 30]
            ]
        );
        assert_eq!(
            stored(
                "triton:swizzled_shared<vec=1,perPhase=2,maxPhase=2,order=1,0>",
                8,
                4
            ),
            [
                [0, 1, 2, 3],
                [4, 5, 6, 7],
                [9, 8, 11, 10],
                [13, 12, 15, 14],
                [16, 17, 18, 19],
                [20, 21, 22, 23],
                [25, 24, 27, 26],
                [29, 28, 31, 30]
            ]
        );
        assert_eq!(
            stored(
                "triton:swizzled_shared<vec=2,perPhase=1,maxPhase=4,order=1,0>",
                4,
                8
            ),
            [
                [0, 1, 2, 3, 4, 5, 6, 7],
                [10, 11, 8, 9, 14, 15, 12, 13],
                [20, 21, 22, 23, 16, 17, 18, 19],
                [30, 31, 28, 29, 26, 27, 24, 25]
            ]
        );
    }

    /// Triton's linear form of example 1 (bases of the offset bits: two column bits, then the
    /// rows, each row XORed with its index) is the same layout.
    #[test]
    fn triton_linear_bases_give_the_same_layout() {
        let a = "triton:swizzled_shared<vec=1,perPhase=1,maxPhase=4,order=1,0>";
        let b = "triton:linear<offset=[[0,1],[0,2],[1,1],[2,2]]>";
        assert_eq!(stored(a, 4, 4), stored(b, 4, 4));
    }

    #[test]
    fn parses_and_prints_every_form() {
        for text in [
            "none",
            "cute:Swizzle<3,4,3>",
            "cute-elem:Swizzle<3,3,4>",
            "cute:Swizzle<2,4,-3>",
            "tma:128B",
            "triton:swizzled_shared<vec=8,perPhase=1,maxPhase=8,order=1,0>",
            "triton:swizzled_shared<vec=8,perPhase=1,maxPhase=8,order=0,1>",
            "triton:linear<offset=[[0,1],[1,0]]>",
            "matrix:0x1,0x2",
        ] {
            assert_eq!(text.parse::<Layout>().unwrap().to_string(), text);
        }
        assert_eq!(
            "triton:swizzled_shared<vec=2,per_phase=1,max_phase=4,order=[1,0]>"
                .parse::<Layout>()
                .unwrap(),
            "triton:swizzled_shared<vec=2,perPhase=1,maxPhase=4,order=1,0>"
                .parse::<Layout>()
                .unwrap()
        );
        for bad in [
            "cute:Swizzle<3,4,2>",
            "cute:Swizzle<0,4,3>",
            "tma:256B",
            "triton:swizzled_shared<vec=3,perPhase=1,maxPhase=8>",
            "triton:swizzled_shared<vec=2,perPhase=1>",
            "triton:linear<offset=[[0,1],[1]]>",
            "swizzle",
        ] {
            let e = bad.parse::<Layout>().unwrap_err();
            assert!(e.text == bad, "{bad}: {e}");
        }
    }

    #[test]
    fn refuses_layouts_that_leave_the_tile_or_split_elements() {
        let t = tile("8x8", 2); // 128 bytes: 7 offset bits
        let e = "cute:Swizzle<3,4,3>".parse::<Layout>().unwrap().to_map(&t);
        assert!(e.is_ok(), "reads above the tile see zeros: {e:?}");
        let e = "cute:Swizzle<2,6,2>".parse::<Layout>().unwrap().to_map(&t);
        assert!(e
            .unwrap_err()
            .message
            .contains("moves byte-offset bits 6..7"));
        let e = "cute:Swizzle<2,4,-2>".parse::<Layout>().unwrap().to_map(&t);
        assert!(e
            .unwrap_err()
            .message
            .contains("moves byte-offset bits 6..7"));
        let e = "cute:Swizzle<1,4,-2>"
            .parse::<Layout>()
            .unwrap()
            .to_map(&t)
            .unwrap();
        assert_eq!(e.apply(16), 16 | 64);
        let e = "cute:Swizzle<1,0,3>".parse::<Layout>().unwrap().to_map(&t);
        assert!(e.unwrap_err().message.contains("splits 2-byte elements"));
    }
}
