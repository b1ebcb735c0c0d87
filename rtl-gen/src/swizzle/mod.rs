//! What `rtl-gen swizzle show | check | best` print and write: a layout's matrix and exact forms,
//! the bank of every element, the wavefronts of each access set, the search's verdict; as text,
//! as one JSON document, as files (the hash configuration, a CUDA header, pictures).
//!
//! - [`picture`]: the bank map and the wavefront bars, SVG drawn with plotters;
//! - [`header`]: the CUDA header of a layout (`<name>_offset`, `<name>_index`);
//! - [`layout_arg`]: `--layout` read into a layout and its address map, the access sets of
//!   `--access`, `--vec-bytes` and `--trace`, and the check that a layout keeps their vectors whole.

pub mod header;
pub mod layout_arg;
pub mod picture;

pub use layout_arg::{access_sets, check_whole, parse_layout};

use models::swizzle::export::{bank_of_element, forms, hash_config, Family};
use models::swizzle::layout::bank_groups;
use models::swizzle::search::{SearchResult, Verdict};
use models::swizzle::{AccessSet, AddressMap, Layout, SetCost, Tile};
use models::HashConfigObject;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

/// Version of the JSON document.
pub const FORMAT_VERSION: u32 = 1;
/// Rows and columns of the bank grid the text shows (the JSON has them all).
const TEXT_GRID: (u64, u64) = (8, 32);

/// The tile, as the JSON document gives it.
#[derive(Debug, Serialize)]
pub struct TileJson {
    /// Rows.
    pub rows: u64,
    /// Elements per row.
    pub cols: u64,
    /// Bytes per element.
    pub elem_bytes: u32,
    /// Bytes in the tile.
    pub bytes: u64,
    /// Byte-offset bits.
    pub offset_bits: u32,
}

impl TileJson {
    /// The JSON of `tile`.
    pub fn new(tile: &Tile) -> Self {
        Self {
            rows: tile.rows(),
            cols: tile.cols(),
            elem_bytes: tile.elem_bytes(),
            bytes: tile.bytes(),
            offset_bits: tile.offset_bits(),
        }
    }
}

/// A layout, as the JSON document gives it.
#[derive(Debug, Serialize)]
pub struct LayoutJson {
    /// Every exact form, most specific first.
    pub forms: Vec<String>,
    /// The most specific family: `row-major`, `tma`, `cute`, `triton` or `matrix`.
    pub family: &'static str,
    /// Bytes the layout keeps together (the widest vector it serves whole).
    pub keeps_bytes: u64,
    /// Row `i`: the logical byte-offset bits XORed into physical bit `i`, bit 0 first.
    pub matrix_rows: Vec<String>,
    /// The same banks as a hash configuration over element offsets (`rtl-gen hash --config`).
    pub hash_config: HashConfigObject,
}

/// The name of a family in JSON and text.
pub fn family_name(f: Family) -> &'static str {
    match f {
        Family::RowMajor => "row-major",
        Family::Tma => "tma",
        Family::Cute => "cute",
        Family::Triton => "triton",
        Family::Matrix => "matrix",
    }
}

impl LayoutJson {
    /// The JSON of `map` on `tile`.
    pub fn new(map: &AddressMap, tile: &Tile) -> Self {
        let all = forms(map, tile);
        Self {
            family: family_name(all.iter().map(Family::of).min().unwrap_or(Family::Matrix)),
            forms: all.iter().map(Layout::to_string).collect(),
            keeps_bytes: map.contiguous_bytes(),
            matrix_rows: map.rows().iter().map(|r| format!("{r:#x}")).collect(),
            hash_config: HashConfigObject::from_config(&hash_config(map, tile)),
        }
    }
}

/// One access set's wavefronts, as the JSON document gives them.
#[derive(Debug, Serialize)]
pub struct AccessJson {
    /// `rows@16`, `ldmatrix`, `trace@8`.
    pub name: String,
    /// Bytes per thread.
    pub width: u32,
    /// Warp accesses.
    pub warp_accesses: u64,
    /// Wavefronts of the loads (or `ldmatrix`).
    pub load_wavefronts: u64,
    /// Wavefronts of the stores (0 for `ldmatrix`).
    pub store_wavefronts: u64,
    /// The least the loads could take.
    pub ideal_load: u64,
    /// The least the stores could take.
    pub ideal_store: u64,
    /// The most one warp access's load takes.
    pub worst_load: u32,
    /// Whether every warp access takes its ideal.
    pub conflict_free: bool,
}

impl AccessJson {
    /// The JSON of one set's cost.
    pub fn new(set: &AccessSet, cost: &SetCost) -> Self {
        Self {
            name: set.name(),
            width: set.width,
            warp_accesses: cost.warps,
            load_wavefronts: cost.load,
            store_wavefronts: cost.store,
            ideal_load: cost.ideal_load,
            ideal_store: cost.ideal_store,
            worst_load: cost.worst_load,
            conflict_free: cost.excess() == 0,
        }
    }
}

/// The bank (group) of every element: `rows x cols`.
pub fn bank_grid(map: &AddressMap, tile: &Tile) -> Vec<Vec<u64>> {
    (0..tile.rows())
        .map(|r| {
            (0..tile.cols())
                .map(|c| bank_of_element(map, tile, r * tile.cols() + c))
                .collect()
        })
        .collect()
}

/// What a bank number means on `tile`: 32 banks of 4 bytes, or groups of 8 or 16 bytes.
pub fn bank_unit(tile: &Tile) -> String {
    let (start, bits) = bank_groups(tile);
    if start == 2 {
        "bank (of 32 4-byte banks)".into()
    } else {
        format!(
            "bank group (of {} groups of {} 4-byte banks)",
            1 << bits,
            1 << (start - 2)
        )
    }
}

/// The layout's description: forms, what it keeps together, the matrix, the configuration.
pub fn layout_text(map: &AddressMap, tile: &Tile) -> String {
    let j = LayoutJson::new(map, tile);
    let mut s = String::new();
    writeln!(
        s,
        "tile: {}x{} elements of {} bytes ({} bytes, {} offset bits)",
        tile.rows(),
        tile.cols(),
        tile.elem_bytes(),
        tile.bytes(),
        tile.offset_bits()
    )
    .unwrap();
    let shown: Vec<&String> = j
        .forms
        .iter()
        .filter(|f| !f.starts_with("triton:linear") && !f.starts_with("matrix:"))
        .collect();
    writeln!(s, "layout: {}", j.forms[0]).unwrap();
    if shown.len() > 1 {
        let others: Vec<&str> = shown[1..].iter().map(|f| f.as_str()).collect();
        writeln!(s, "also written: {}", others.join(", ")).unwrap();
    }
    if let Some(linear) = j.forms.iter().find(|f| f.starts_with("triton:linear")) {
        writeln!(s, "as Triton linear bases: {linear}").unwrap();
    }
    writeln!(
        s,
        "keeps {} bytes together (the widest vector it serves whole)",
        j.keeps_bytes
    )
    .unwrap();
    let (start, bits) = bank_groups(tile);
    writeln!(
        s,
        "matrix over GF(2): physical byte-offset bit <- XOR of logical bits"
    )
    .unwrap();
    for (i, row) in map.rows().iter().enumerate().rev() {
        let from: Vec<String> = (0..tile.offset_bits())
            .rev()
            .filter(|j| row >> j & 1 == 1)
            .map(|j| j.to_string())
            .collect();
        let note = if (start..start + bits).contains(&(i as u32)) {
            format!("   bank bit {}", i as u32 - start)
        } else {
            String::new()
        };
        writeln!(s, "  {i:>2} <- {}{note}", from.join(" ^ ")).unwrap();
    }
    writeln!(
        s,
        "hash configuration (rtl-gen hash --config): {}",
        serde_json::to_string(&j.hash_config).unwrap_or_default()
    )
    .unwrap();
    s
}

/// The bank grid's first rows and columns as text.
pub fn grid_text(map: &AddressMap, tile: &Tile) -> String {
    let (rows, cols) = (TEXT_GRID.0.min(tile.rows()), TEXT_GRID.1.min(tile.cols()));
    let mut s = format!(
        "{} of each element, rows 0..{} x columns 0..{}{}:\n",
        bank_unit(tile),
        rows - 1,
        cols - 1,
        if rows < tile.rows() || cols < tile.cols() {
            " (all of them in --json)"
        } else {
            ""
        }
    );
    let grid = bank_grid(map, tile);
    for (r, row) in grid.iter().take(rows as usize).enumerate() {
        let cells: Vec<String> = row
            .iter()
            .take(cols as usize)
            .map(|b| format!("{b:>2}"))
            .collect();
        writeln!(s, "  row {r:>2}: {}", cells.join(" ")).unwrap();
    }
    s
}

/// The wavefront table of `sets` under one layout.
pub fn access_text(sets: &[AccessSet], costs: &[SetCost]) -> String {
    let mut s = String::from(
        "access         warps  loads (ideal)  stores (ideal)  worst load  conflict-free\n",
    );
    for (set, c) in sets.iter().zip(costs) {
        let stores = if set.is_ldmatrix() {
            "-".to_string()
        } else {
            format!("{} ({})", c.store, c.ideal_store)
        };
        writeln!(
            s,
            "{:<14} {:>5}  {:>13}  {:>14}  {:>10}  {}",
            set.name(),
            c.warps,
            format!("{} ({})", c.load, c.ideal_load),
            stores,
            c.worst_load,
            if c.excess() == 0 { "yes" } else { "no" }
        )
        .unwrap();
    }
    let (total, ideal): (u64, u64) = costs.iter().fold((0, 0), |(t, i), c| {
        (t + c.load + c.store, i + c.ideal_load + c.ideal_store)
    });
    writeln!(s, "total: {total} wavefronts, ideal {ideal}").unwrap();
    s
}

/// The search's verdict in words, and whether the layout found is optimal.
pub fn verdict_text(r: &SearchResult) -> String {
    let total = r.best.total();
    let bound = if total == r.lower_bound {
        format!("the layout found takes {total} wavefronts: the fewest any layout keeping {}-byte chunks whole can (optimal)\n", r.chunk_bytes)
    } else {
        format!("the layout found takes {total} wavefronts; no layout keeping {}-byte chunks whole takes fewer than {}\n", r.chunk_bytes, r.lower_bound)
    };
    let verdict = match &r.verdict {
        Verdict::ConflictFree => "verdict: conflict-free: every warp access takes its ideal number of wavefronts\n".into(),
        Verdict::Counting(c) => format!(
            "verdict: no layout is conflict-free: a thread group of {} ({}) touches {} distinct {}-byte chunks at one word position, \
             and only {} bank groups exist, so it needs at least {} passes under any layout keeping those chunks whole\n",
            c.set,
            c.warp,
            c.chunks,
            r.chunk_bytes,
            c.groups,
            (c.chunks as u64).div_ceil(c.groups)
        ),
        Verdict::Rank { spaces, minimal } => {
            let mut s = format!(
                "verdict: no XOR layout is conflict-free (the rank argument): the bank map H of {}-byte chunks would have to be \
                 injective on each of these {} direction spaces (each meets ker H only in 0), and the exact search over every \
                 row space of H found none that is{}:\n",
                r.chunk_bytes,
                spaces.len(),
                if *minimal { "; drop any one of them and one exists" } else { "" }
            );
            for sp in spaces {
                let basis: Vec<String> = sp.basis.iter().map(|(row, col)| format!("(row ^ {row}, col ^ {col})")).collect();
                writeln!(s, "  {} {}: span {{{}}}", sp.set, sp.warp, basis.join(", ")).unwrap();
            }
            s
        }
        Verdict::Unproven => "verdict: not conflict-free; no proof that no XOR layout is (accesses that are not affine subspaces, or the search's node limit)\n".into(),
    };
    verdict + &bound
}

/// The verdict as JSON.
pub fn verdict_json(r: &SearchResult) -> Value {
    match &r.verdict {
        Verdict::ConflictFree => serde_json::json!({"kind": "conflict-free"}),
        Verdict::Counting(c) => serde_json::json!({
            "kind": "impossible-counting", "set": c.set, "warp": c.warp, "chunks": c.chunks,
            "bank_groups": c.groups, "chunk_bytes": r.chunk_bytes,
        }),
        Verdict::Rank { spaces, minimal } => serde_json::json!({
            "kind": "impossible-rank",
            "minimal": minimal,
            "spaces": spaces.iter().map(|s| serde_json::json!({
                "set": s.set, "warp": s.warp,
                "basis": s.basis.iter().map(|(r, c)| [r, c]).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }),
        Verdict::Unproven => serde_json::json!({"kind": "unproven"}),
    }
}
