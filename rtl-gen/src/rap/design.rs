//! A RAP (or RAS, or 3P) address converter to generate: `w`, the shift tables (drawn or given,
//! as the user asks them: [`TableRequest`]), and the variant.

use crate::rtl::ir::bits_for;
use crate::Error;
use models::config::parse_u64;
use models::rap::packed::{packed_words, WORD_BITS};
use models::rap::{LayoutKind, Permutation, ShiftLayout, ThreePLayout};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Largest `w` the converter generator accepts.
pub const MAX_W: u32 = 1024;

/// The configuration a converter records in its manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RapConfig {
    /// `rap`, `ras` or `3p`.
    pub kind: String,
    /// 2 (a `w x w` matrix) or 4 (a `w^4` array, 3P).
    pub dims: u32,
    /// Extent of every dimension, bank count.
    pub w: u32,
    /// The tables, baked in or the register file's reset contents: `shifts` (one per row of a
    /// matrix), or for 3P `r`, `s`, `t` (indexed by `i`, `j`, `k`).
    pub tables: BTreeMap<String, Vec<u32>>,
    /// The seed the tables were drawn from, when they were not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Whether the RAP permutation was drawn (or checked) to be conflict-free for 8-byte words
    /// too (`Permutation::check_wide`).
    pub wide: bool,
    /// Whether the tables live in a register file loaded at run time.
    pub loadable: bool,
    /// Whether that register file is written a packed 32-bit word at a time (Fig. 7).
    pub packed: bool,
    /// Whether `addr_o` and `bank_o` are registered.
    pub pipeline: bool,
}

/// The golden map a converter implements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConverterMap {
    /// A `w x w` matrix: one shift per row (RAW, RAS or RAP).
    Matrix(ShiftLayout),
    /// A `w^4` array under 3P.
    ThreeP(ThreePLayout),
}

impl ConverterMap {
    /// `w`.
    pub fn w(&self) -> u32 {
        match self {
            ConverterMap::Matrix(l) => l.w(),
            ConverterMap::ThreeP(l) => l.w(),
        }
    }

    /// The tables, in the order of the index ports that read them.
    pub fn tables(&self) -> Vec<&[u32]> {
        match self {
            ConverterMap::Matrix(l) => vec![l.shifts()],
            ConverterMap::ThreeP(l) => (0..3).map(|n| l.table(n)).collect(),
        }
    }

    /// `(address, bank)` of the element at `index` (the row coordinates, then the column).
    pub fn convert(&self, index: &[u32]) -> (u64, u32) {
        match (self, index) {
            (ConverterMap::Matrix(l), &[row, col]) => (l.address(row, col), l.bank(row, col)),
            (ConverterMap::ThreeP(l), &[i, j, k, c]) => (l.address(i, j, k, c), l.bank(i, j, k, c)),
            _ => unreachable!("index {index:?} has the wrong number of coordinates"),
        }
    }

    /// The map after entry `row` of table `table` is set to `value` (below `w`). A table being
    /// rewritten need not be a permutation, so a matrix becomes a RAS map.
    pub fn with_entry(&self, table: usize, row: u32, value: u32) -> Self {
        let mut tables: Vec<Vec<u32>> = self.tables().iter().map(|t| t.to_vec()).collect();
        tables[table][row as usize] = value;
        match self {
            ConverterMap::Matrix(_) => ConverterMap::Matrix(ShiftLayout::ras(tables.remove(0))),
            ConverterMap::ThreeP(_) => {
                let [r, s, t]: [Vec<u32>; 3] = tables
                    .try_into()
                    .unwrap_or_else(|_| unreachable!("3P has three tables"));
                ConverterMap::ThreeP(ThreePLayout::from_tables([r, s, t]))
            }
        }
    }
}

/// Where a converter holds its tables (`--configurable`, `--packed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Storage {
    /// Baked into logic.
    Baked,
    /// A register file written an entry at a time through `perm_we_i`, `perm_idx_i`,
    /// `perm_val_i` (adds `clk_i` and `rst_ni`), reset to the seeded or given tables.
    Loadable,
    /// A register file written a packed 32-bit word at a time (the paper's Fig. 7).
    Packed,
}

impl Storage {
    /// The name on the command line and in the manifest's `variant`.
    pub fn name(self) -> &'static str {
        match self {
            Storage::Baked => "baked",
            Storage::Loadable => "loadable",
            Storage::Packed => "packed",
        }
    }
}

/// The converters `rtl-gen rap --kind` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RapKind {
    /// The shifts are a permutation of 0..w-1 (rows and columns conflict-free).
    Rap,
    /// Independent random shifts.
    Ras,
    /// Three permutations over a w^4 array (section VII).
    #[value(name = "3p")]
    ThreeP,
}

/// The tables a user asks for, as `rtl-gen rap`'s flags (and the Python package's `RapLayout`)
/// give them: drawn from a seed, or a permutation or shifts given as text. Refusals name the
/// flag, its value and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRequest {
    /// `--kind`.
    pub kind: RapKind,
    /// `--banks`: `w` [default: the length of `perm` or `shifts`, else 32].
    pub banks: Option<u32>,
    /// `--rap-seed` [default: 1].
    pub rap_seed: Option<u64>,
    /// `--perm`: a RAP permutation, one number a row.
    pub perm: Option<Vec<String>>,
    /// `--shifts`: RAS's shifts, one number a row.
    pub shifts: Option<Vec<String>>,
    /// `--wide`: RAP conflict-free for 8-byte words too.
    pub wide: bool,
}

fn bad(flag: &'static str, value: String, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value,
        message: message.into(),
    }
}

/// Parses a comma-separated list of numbers, naming the first that is not one.
fn numbers(flag: &'static str, list: &[String]) -> Result<Vec<u64>, Error> {
    list.iter()
        .map(|x| parse_u64(x).map_err(|e| bad(flag, list.join(","), e)))
        .collect()
}

/// The `w` of a given list, checked against `--banks`.
fn list_w(flag: &'static str, list: &[String], w: Option<u32>) -> Result<u32, Error> {
    let len = list.len() as u32;
    match w {
        Some(w) if w != len => Err(bad(
            flag,
            list.join(","),
            format!("{len} entries but --banks is {w}: give one entry per row"),
        )),
        _ => Ok(len),
    }
}

impl TableRequest {
    /// The converter with these tables, its register file `loadable` or not, its outputs
    /// registered (`pipeline`) or not.
    pub fn design(&self, loadable: bool, pipeline: bool) -> Result<RapDesign, Error> {
        let kind = self.kind;
        if kind == RapKind::ThreeP {
            if self.wide || self.perm.is_some() || self.shifts.is_some() {
                return Err(bad(
                    "--kind",
                    "3p".into(),
                    "the 3P converter draws its three permutations from --rap-seed: --wide, \
                     --perm and --shifts are for rap and ras",
                ));
            }
            return RapDesign::three_p_from_seed(
                self.banks.unwrap_or(32),
                self.rap_seed.unwrap_or(1),
                loadable,
                pipeline,
            );
        }
        if kind == RapKind::Ras && (self.perm.is_some() || self.wide) {
            return Err(bad(
                "--kind",
                "ras".into(),
                "independent shifts: --perm and --wide are for rap (give the shifts with \
                 --shifts)",
            ));
        }
        if kind == RapKind::Rap && self.shifts.is_some() {
            return Err(bad(
                "--shifts",
                self.shifts
                    .iter()
                    .flatten()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(","),
                "the shifts of --kind ras (give a rap permutation with --perm)",
            ));
        }
        if let Some(list) = &self.perm {
            let w = list_w("--perm", list, self.banks)?;
            let values = numbers("--perm", list)?;
            let perm = Permutation::new(w, &values)
                .map_err(|e| bad("--perm", list.join(","), e.to_string()))?;
            return if self.wide {
                RapDesign::rap_wide(&perm, loadable, pipeline)
            } else {
                RapDesign::rap(&perm, loadable, pipeline)
            };
        }
        if let Some(list) = &self.shifts {
            let w = list_w("--shifts", list, self.banks)?;
            let values = numbers("--shifts", list)?;
            if let Some(v) = values.iter().find(|&&v| v >= u64::from(w)) {
                return Err(bad(
                    "--shifts",
                    list.join(","),
                    format!(
                        "{v} is out of range: each shift is 0 to {}",
                        w.saturating_sub(1)
                    ),
                ));
            }
            return RapDesign::ras(
                values.into_iter().map(|v| v as u32).collect(),
                loadable,
                pipeline,
            );
        }
        let kind = if kind == RapKind::Ras {
            LayoutKind::Ras
        } else {
            LayoutKind::Rap
        };
        RapDesign::drawn(
            kind,
            self.banks.unwrap_or(32),
            self.rap_seed.unwrap_or(1),
            self.wide,
            loadable,
            pipeline,
        )
    }
}

/// A validated converter: `addr_o = row_i * w + ((col_i + shift[row_i]) mod w)`,
/// `bank_o = (col_i + shift[row_i]) mod w`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RapDesign {
    map: ConverterMap,
    kind: LayoutKind,
    seed: Option<u64>,
    wide: bool,
    /// Shifts held in a register file written through `perm_we_i`, `perm_idx_i`, `perm_val_i`
    /// (reset to the layout's shifts) instead of baked into logic.
    pub loadable: bool,
    /// The register file written a packed 32-bit word at a time (set by
    /// [`RapDesign::with_packed`]).
    packed: bool,
    /// One output register on `addr_o` and `bank_o`.
    pub pipeline: bool,
}

fn check_w(w: u32) -> Result<(), Error> {
    if (2..=MAX_W).contains(&w) {
        Ok(())
    } else {
        Err(Error::Model(models::Error::OutOfRange {
            name: "w".into(),
            value: w.to_string(),
            allowed: format!("2 to {MAX_W}"),
        }))
    }
}

impl RapDesign {
    /// A RAP converter with the permutation `perm`.
    pub fn rap(perm: &Permutation, loadable: bool, pipeline: bool) -> Result<Self, Error> {
        check_w(perm.w())?;
        Ok(Self::of(
            ConverterMap::Matrix(ShiftLayout::rap(perm)),
            LayoutKind::Rap,
            loadable,
            pipeline,
        ))
    }

    fn of(map: ConverterMap, kind: LayoutKind, loadable: bool, pipeline: bool) -> Self {
        Self {
            map,
            kind,
            seed: None,
            wide: false,
            loadable,
            packed: false,
            pipeline,
        }
    }

    /// A RAP converter whose permutation must also keep 8-byte words conflict-free
    /// ([`Permutation::check_wide`]; the error says which residue a half repeats).
    pub fn rap_wide(perm: &Permutation, loadable: bool, pipeline: bool) -> Result<Self, Error> {
        perm.check_wide().map_err(|message| Error::BadFlag {
            flag: "--perm",
            value: perm
                .as_slice()
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
            message: format!("not wide: {message}"),
        })?;
        let mut design = Self::rap(perm, loadable, pipeline)?;
        design.wide = true;
        Ok(design)
    }

    /// A 3P converter for a `w^4` array with the permutations `r`, `s`, `t` (one `w`).
    pub fn three_p(
        perms: [&Permutation; 3],
        loadable: bool,
        pipeline: bool,
    ) -> Result<Self, Error> {
        let w = perms[0].w();
        check_w(w)?;
        if let Some(p) = perms.iter().find(|p| p.w() != w) {
            return Err(Error::Model(models::Error::OutOfRange {
                name: "3P permutation length".into(),
                value: p.w().to_string(),
                allowed: format!("{w}, the length of r"),
            }));
        }
        Ok(Self::of(
            ConverterMap::ThreeP(ThreePLayout::new(perms[0], perms[1], perms[2])),
            LayoutKind::Rap,
            loadable,
            pipeline,
        ))
    }

    /// A 3P converter whose `r`, `s`, `t` are drawn one after the other from one ChaCha8
    /// generator seeded with `seed`.
    pub fn three_p_from_seed(
        w: u32,
        seed: u64,
        loadable: bool,
        pipeline: bool,
    ) -> Result<Self, Error> {
        check_w(w)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let [r, s, t] = [(); 3].map(|_| Permutation::random(w, &mut rng));
        let mut design = Self::three_p([&r, &s, &t], loadable, pipeline)?;
        design.seed = Some(seed);
        Ok(design)
    }

    /// The same converter with its register file written a packed word at a time: word `q` of
    /// table `n` holds entries `per * q ..` as the paper's Fig. 7 packs them
    /// (`models::rap::packed`). Refused for a baked table, whose ROM packing would not change.
    pub fn with_packed(mut self) -> Result<Self, Error> {
        if !self.loadable {
            return Err(Error::BadFlag {
                flag: "--packed",
                value: "given for a baked converter".into(),
                message: "packing applies to a register file; a baked table is a ROM either way"
                    .into(),
            });
        }
        self.packed = true;
        Ok(self)
    }

    /// A RAS converter with the shifts `shifts` (each below `w = shifts.len()`, repeats
    /// allowed); the error names the first shift out of range.
    pub fn ras(shifts: Vec<u32>, loadable: bool, pipeline: bool) -> Result<Self, Error> {
        let w = shifts.len() as u32;
        check_w(w)?;
        if let Some(bad) = shifts.iter().find(|&&s| s >= w) {
            return Err(Error::Model(models::Error::OutOfRange {
                name: "shift".into(),
                value: bad.to_string(),
                allowed: format!("0 to {} for w = {w}", w - 1),
            }));
        }
        Ok(Self::of(
            ConverterMap::Matrix(ShiftLayout::ras(shifts)),
            LayoutKind::Ras,
            loadable,
            pipeline,
        ))
    }

    /// A converter of `kind` (RAP or RAS) whose shifts are drawn from `seed`: RAP takes
    /// [`Permutation::from_seed`], RAS `w` uniform values from a ChaCha8 generator seeded with
    /// `seed`. With `wide`, RAP draws [`Permutation::random_wide`] from that generator instead
    /// (an even `w` only).
    pub fn from_seed(
        kind: LayoutKind,
        w: u32,
        seed: u64,
        loadable: bool,
        pipeline: bool,
    ) -> Result<Self, Error> {
        Self::drawn(kind, w, seed, false, loadable, pipeline)
    }

    /// [`RapDesign::from_seed`], with `wide` choosing [`Permutation::random_wide`] for RAP.
    pub fn drawn(
        kind: LayoutKind,
        w: u32,
        seed: u64,
        wide: bool,
        loadable: bool,
        pipeline: bool,
    ) -> Result<Self, Error> {
        check_w(w)?;
        let mut design = match kind {
            LayoutKind::Ras => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                Self::ras(
                    (0..w).map(|_| rng.gen_range(0..w)).collect(),
                    loadable,
                    pipeline,
                )?
            }
            _ if wide => {
                if !w.is_multiple_of(2) {
                    return Err(Error::Model(models::Error::OutOfRange {
                        name: "w".into(),
                        value: w.to_string(),
                        allowed: "an even number for --wide (two 4-byte banks a word)".into(),
                    }));
                }
                let perm = Permutation::random_wide(w, &mut ChaCha8Rng::seed_from_u64(seed));
                Self::rap_wide(&perm, loadable, pipeline)?
            }
            _ => Self::rap(&Permutation::from_seed(w, seed), loadable, pipeline)?,
        };
        design.seed = Some(seed);
        Ok(design)
    }

    /// RAP or RAS (3P is RAP).
    pub fn kind(&self) -> LayoutKind {
        self.kind
    }

    /// 2 for a matrix converter, 4 for 3P.
    pub fn dims(&self) -> u32 {
        match self.map {
            ConverterMap::Matrix(_) => 2,
            ConverterMap::ThreeP(_) => 4,
        }
    }

    /// `rap`, `ras` or `3p`: the manifest's kind.
    pub fn kind_name(&self) -> &'static str {
        match self.map {
            ConverterMap::Matrix(_) => self.kind.name(),
            ConverterMap::ThreeP(_) => "3p",
        }
    }

    /// The matrix width `w` (and bank count).
    pub fn w(&self) -> u32 {
        self.map.w()
    }

    /// The golden model: the map with the baked (or reset) tables.
    pub fn map(&self) -> &ConverterMap {
        &self.map
    }

    /// The tables' names, in the order of the index ports that read them: `shift`, or `r`,
    /// `s`, `t`.
    pub fn table_names(&self) -> &'static [&'static str] {
        match self.map {
            ConverterMap::Matrix(_) => &["shift"],
            ConverterMap::ThreeP(_) => &["r", "s", "t"],
        }
    }

    /// The index ports (the row coordinates, each reading one table, then the column):
    /// `row_i`, `col_i`, or `i_i`, `j_i`, `k_i`, `l_i`.
    pub fn index_ports(&self) -> &'static [&'static str] {
        match self.map {
            ConverterMap::Matrix(_) => &["row_i", "col_i"],
            ConverterMap::ThreeP(_) => &["i_i", "j_i", "k_i", "l_i"],
        }
    }

    /// Whether the permutation was drawn or checked to be conflict-free for 8-byte words.
    pub fn wide(&self) -> bool {
        self.wide
    }

    /// Whether the register file is written a packed word at a time.
    pub fn packed(&self) -> bool {
        self.packed
    }

    /// Bits of every index port and of `bank_o`: `ceil(log2 w)`.
    pub fn index_bits(&self) -> u32 {
        bits_for(u64::from(self.w()))
    }

    /// Bits of `addr_o`: `ceil(log2 w^dims)`.
    pub fn addr_bits(&self) -> u32 {
        bits_for(u64::from(self.w()).pow(self.dims()))
    }

    /// Rows of the register file a write addresses: `w` entries, or the packed words.
    pub fn write_rows(&self) -> u32 {
        if self.packed {
            packed_words(self.w())
        } else {
            self.w()
        }
    }

    /// Bits of `perm_idx_i`: enough for [`RapDesign::write_rows`].
    pub fn write_index_bits(&self) -> u32 {
        bits_for(u64::from(self.write_rows()))
    }

    /// Bits of `perm_val_i`: a shift, or a packed 32-bit word.
    pub fn write_value_bits(&self) -> u32 {
        if self.packed {
            WORD_BITS
        } else {
            self.index_bits()
        }
    }

    /// Bits of `perm_sel_i`, which picks the table written: 0 for one table, 2 for 3P.
    pub fn table_select_bits(&self) -> u32 {
        match self.map {
            ConverterMap::Matrix(_) => 0,
            ConverterMap::ThreeP(_) => 2,
        }
    }

    /// Output latency in clock cycles.
    pub fn latency(&self) -> u32 {
        u32::from(self.pipeline)
    }

    /// Whether the module has `clk_i` and `rst_ni`.
    pub fn clocked(&self) -> bool {
        self.loadable || self.pipeline
    }

    /// `rap_w32` (`ras_w32`, `rap3p_w32`), then `_load` for a loadable, `_packed` for a
    /// packed and `_pipe` for a pipelined converter (`ras_w32_load_packed_pipe`).
    pub fn name(&self) -> String {
        let kind = match self.map {
            ConverterMap::Matrix(_) => self.kind.name(),
            ConverterMap::ThreeP(_) => "rap3p",
        };
        let mut name = format!("{kind}_w{}", self.w());
        if self.loadable {
            name.push_str("_load");
        }
        if self.packed {
            name.push_str("_packed");
        }
        if self.pipeline {
            name.push_str("_pipe");
        }
        name
    }

    /// What the manifest records.
    pub fn config(&self) -> RapConfig {
        RapConfig {
            kind: self.kind_name().into(),
            dims: self.dims(),
            w: self.w(),
            tables: self
                .table_names()
                .iter()
                .zip(self.map.tables())
                .map(|(name, t)| (name.to_string(), t.to_vec()))
                .collect(),
            seed: self.seed,
            wide: self.wide,
            loadable: self.loadable,
            packed: self.packed,
            pipeline: self.pipeline,
        }
    }

    /// Where the tables are held: baked in, a register file, or one written packed words.
    pub fn storage(&self) -> Storage {
        match (self.loadable, self.packed) {
            (false, _) => Storage::Baked,
            (true, false) => Storage::Loadable,
            (true, true) => Storage::Packed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_widths_and_ranges() {
        let d = RapDesign::from_seed(LayoutKind::Rap, 32, 7, false, false).unwrap();
        assert_eq!(d.name(), "rap_w32");
        assert_eq!((d.index_bits(), d.addr_bits()), (5, 10));
        assert_eq!(
            d.map().tables(),
            vec![Permutation::from_seed(32, 7).as_slice()]
        );
        let d = RapDesign::from_seed(LayoutKind::Ras, 24, 7, true, true).unwrap();
        assert_eq!(d.name(), "ras_w24_load_pipe");
        assert_eq!((d.index_bits(), d.addr_bits()), (5, 10));
        assert!(d.clocked());
        let err = RapDesign::from_seed(LayoutKind::Rap, 2048, 1, false, false)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "w = 2048 is out of range: allowed 2 to 1024");
        let d = RapDesign::three_p_from_seed(32, 7, true, false)
            .unwrap()
            .with_packed()
            .unwrap();
        assert_eq!(d.name(), "rap3p_w32_load_packed");
        assert_eq!((d.index_bits(), d.addr_bits(), d.dims()), (5, 20, 4));
        // Fig. 7: six 5-bit shifts a word, six words a table.
        assert_eq!(
            (d.write_rows(), d.write_index_bits(), d.write_value_bits()),
            (6, 3, 32)
        );
        let err = RapDesign::from_seed(LayoutKind::Rap, 32, 7, false, false)
            .unwrap()
            .with_packed()
            .unwrap_err()
            .to_string();
        assert!(err.contains("--packed"), "{err}");
        let wide = RapDesign::drawn(LayoutKind::Rap, 32, 7, true, false, false).unwrap();
        assert!(wide.wide() && wide.config().wide);
        let err = RapDesign::drawn(LayoutKind::Rap, 7, 7, true, false, false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("w = 7") && err.contains("even"), "{err}");
        assert!(RapDesign::rap_wide(&Permutation::identity(4), false, false).is_ok());
        let err = RapDesign::rap_wide(&Permutation::new(4, &[0, 2, 1, 3]).unwrap(), false, false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not wide: rows 0 and 1"), "{err}");
        let err = RapDesign::ras(vec![0, 4, 1, 2], false, false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("shift = 4") && err.contains("0 to 3"), "{err}");
    }
}
