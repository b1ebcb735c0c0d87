//! The tensor maps checked on an H100: the case lines `gpu/tma_tensor.cu` reads, the result
//! lines it writes, and the model's prediction of each result.
//!
//! A **load case** encodes a tensor map with `cuTensorMapEncodeTiled`, fills the tensor's bytes
//! with the reference SplitMix64 stream of the case's seed ([`global_byte`]), fills a 1024-byte
//! aligned shared buffer with [`PREFILL`], issues one `cp.async.bulk.tensor` into it at the case's
//! offset and dumps the buffer's first `dump_bytes`. An **encode probe** only calls
//! `cuTensorMapEncodeTiled` and records what the driver returns.
//!
//! Case lines (whitespace-separated, decimal; names as in [`TensorMap`]'s JSON):
//!
//! ```text
//! load <id> <data_type> <swizzle> <l2_promotion> <oob_fill> <seed> <global_address> <shared_offset> <rank>
//!      <global_dim x rank> <global_strides x rank-1> <box_dim x rank> <element_strides x rank> <coords x rank>
//!      <transaction bytes> <dump bytes>
//! encode <id> <data_type> <swizzle> <l2_promotion> <oob_fill> <global_address> <rank>
//!      <global_dim x rank> <global_strides x rank-1> <box_dim x rank> <element_strides x rank>
//! ```
//!
//! (`global_address` is the tensor's offset from a 256-byte aligned allocation.) A result line is
//! its case line, ` : `, then for a load `<CUresult of the encode> <1 if the mbarrier completed>
//! <bytes past the dump that are not PREFILL> <shared address of the buffer> <dump in hex>`, for
//! a probe `<CUresult>`, or `crash` where the program died on the case.

use super::descriptor::{DataType, Interleave, L2Promotion, OobFill, Swizzle, TensorMap};
use super::load::{check, image, BoxLayout, Load};
use crate::rap::rng::splitmix64;
use crate::Error;
use std::fmt::Write as _;

/// The byte the shared buffer holds before the load.
pub const PREFILL: u8 = 0xa5;

/// Byte `offset` of a case's tensor: byte `offset % 8` (little-endian) of output `offset / 8`
/// of the reference SplitMix64 seeded with `seed`.
pub fn global_byte(seed: u64, offset: u64) -> u8 {
    (splitmix64(seed, offset / 8) >> (8 * (offset % 8))) as u8
}

/// One load run on silicon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadCase {
    /// Case number.
    pub id: u32,
    /// The tensor map (its `global_address` is the offset from an aligned allocation).
    pub map: TensorMap,
    /// The load (its `shared_address` is the offset in the 1024-byte aligned buffer).
    pub load: Load,
    /// The seed of the tensor's bytes.
    pub seed: u64,
    /// Bytes of the buffer dumped.
    pub dump_bytes: u32,
}

/// What silicon did with a load case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadOutcome {
    /// The descriptor was encoded and the load ran.
    Loaded {
        /// The mbarrier saw the transaction bytes the model expects within the time limit.
        completed: bool,
        /// Bytes of the buffer past the dump that the load changed.
        strays: u64,
        /// The buffer's shared address.
        buffer: u32,
        /// The buffer's first `dump_bytes` bytes.
        dump: Vec<u8>,
    },
    /// `cuTensorMapEncodeTiled` returned this `CUresult`.
    Refused(i32),
    /// The program died on the case.
    Crashed,
}

/// One record of a results file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// A load case and its outcome (`None`: not run yet, a case line alone).
    Load(LoadCase, Option<LoadOutcome>),
    /// An encode probe and the `CUresult` the driver returned (`None`: not run yet; `Some(-1)`:
    /// the program died on it).
    Encode(u32, TensorMap, Option<i32>),
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
}

/// The fields every case line shares after the map's parameters: dims, strides, box, strides.
fn shape_fields(map: &TensorMap) -> String {
    let es: Vec<u32> = (0..map.rank()).map(|i| map.element_stride(i)).collect();
    let mut s = format!("{}", map.rank());
    for part in [
        join(&map.global_dim),
        join(&map.global_strides),
        join(&map.box_dim),
        join(&es),
    ] {
        if !part.is_empty() {
            s.push(' ');
            s.push_str(&part);
        }
    }
    s
}

impl LoadCase {
    /// The bytes the model expects the load to write (after validating the map; the load itself
    /// may be one the model refuses, to see what silicon does with it).
    pub fn transaction_bytes(&self) -> Result<u64, Error> {
        self.map.validate()?;
        Ok(BoxLayout::of(&self.map).transaction_bytes())
    }

    /// The case line.
    pub fn line(&self) -> Result<String, Error> {
        let m = &self.map;
        Ok(format!(
            "load {} {} {} {} {} {} {} {} {} {} {} {}",
            self.id,
            m.data_type,
            m.swizzle,
            m.l2_promotion,
            m.oob_fill,
            self.seed,
            m.global_address,
            self.load.shared_address,
            shape_fields(m),
            join(&self.load.coords),
            self.transaction_bytes()?,
            self.dump_bytes
        ))
    }

    /// What the model says the dump holds, for a buffer at shared address `buffer`: the
    /// prefill, with the load's image written over it.
    pub fn predict(&self, buffer: u32) -> Result<Vec<u8>, Error> {
        let load = Load {
            coords: self.load.coords.clone(),
            shared_address: buffer + self.load.shared_address,
        };
        let base = self.map.global_address;
        let seed = self.seed;
        let img = image(&self.map, &load, &|a: u64| {
            global_byte(seed, a.wrapping_sub(base))
        })?;
        let end = (buffer + self.dump_bytes) as usize;
        let mut shared = vec![PREFILL; end.max(img.start as usize + img.bytes.len())];
        img.apply(&mut shared);
        shared.truncate(end);
        Ok(shared.split_off(buffer as usize))
    }
}

/// An encode probe's line.
pub fn encode_line(id: u32, map: &TensorMap) -> String {
    format!(
        "encode {id} {} {} {} {} {} {}",
        map.data_type,
        map.swizzle,
        map.l2_promotion,
        map.oob_fill,
        map.global_address,
        shape_fields(map)
    )
}

/// Reads the fields of one line.
struct Fields<'a> {
    words: std::str::SplitWhitespace<'a>,
}

impl Fields<'_> {
    fn next<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, String> {
        let w = self.words.next().ok_or_else(|| format!("missing {what}"))?;
        w.parse().map_err(|_| format!("bad {what} `{w}`"))
    }

    fn list<T: std::str::FromStr>(&mut self, n: usize, what: &str) -> Result<Vec<T>, String> {
        (0..n).map(|_| self.next(what)).collect()
    }

    fn parameter<T: std::str::FromStr<Err = String>>(&mut self, what: &str) -> Result<T, String> {
        let w = self.words.next().ok_or_else(|| format!("missing {what}"))?;
        w.parse()
    }

    /// The map's shape fields after its parameters.
    fn shape(&mut self, map: &mut TensorMap) -> Result<(), String> {
        let rank: usize = self.next("rank")?;
        if rank > 8 {
            return Err(format!("rank {rank} above 8"));
        }
        map.global_dim = self.list(rank, "global_dim")?;
        map.global_strides = self.list(rank.saturating_sub(1), "global_strides")?;
        map.box_dim = self.list(rank, "box_dim")?;
        map.element_strides = self.list(rank, "element_strides")?;
        Ok(())
    }
}

fn hex(text: &str) -> Result<Vec<u8>, String> {
    if !text.len().is_multiple_of(2) {
        return Err("odd hex length".into());
    }
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| "bad hex".to_string()))
        .collect()
}

/// Parses one case or result line (blank lines and `#` comments give `None`).
pub fn parse_line(line: &str) -> Result<Option<Record>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (case, result) = match line.split_once(" : ") {
        Some((c, r)) => (c, Some(r.trim())),
        None => (line, None),
    };
    let mut f = Fields {
        words: case.split_whitespace(),
    };
    let kind: String = f.next("kind")?;
    let id: u32 = f.next("id")?;
    let mut map = TensorMap {
        data_type: f.parameter::<DataType>("data_type")?,
        global_address: 0,
        global_dim: vec![],
        global_strides: vec![],
        box_dim: vec![],
        element_strides: vec![],
        interleave: Interleave::None,
        swizzle: f.parameter::<Swizzle>("swizzle")?,
        l2_promotion: f.parameter::<L2Promotion>("l2_promotion")?,
        oob_fill: f.parameter::<OobFill>("oob_fill")?,
    };
    let record = match kind.as_str() {
        "load" => {
            let seed = f.next("seed")?;
            map.global_address = f.next("global_address")?;
            let shared_address = f.next("shared_offset")?;
            f.shape(&mut map)?;
            let coords = f.list(map.rank(), "coords")?;
            let _transaction: u64 = f.next("transaction bytes")?;
            let dump_bytes = f.next("dump bytes")?;
            let case = LoadCase {
                id,
                map,
                load: Load {
                    coords,
                    shared_address,
                },
                seed,
                dump_bytes,
            };
            let outcome = match result {
                None => None,
                Some("crash") => Some(LoadOutcome::Crashed),
                Some(r) => {
                    let mut g = Fields {
                        words: r.split_whitespace(),
                    };
                    let rc: i32 = g.next("CUresult")?;
                    if rc != 0 {
                        Some(LoadOutcome::Refused(rc))
                    } else {
                        let completed = g.next::<u8>("completed")? == 1;
                        let strays = g.next("strays")?;
                        let buffer = g.next("buffer")?;
                        let dump = hex(g.words.next().unwrap_or(""))?;
                        if dump.len() != case.dump_bytes as usize {
                            return Err(format!("case {id}: dump of {} bytes", dump.len()));
                        }
                        Some(LoadOutcome::Loaded {
                            completed,
                            strays,
                            buffer,
                            dump,
                        })
                    }
                }
            };
            Record::Load(case, outcome)
        }
        "encode" => {
            map.global_address = f.next("global_address")?;
            f.shape(&mut map)?;
            let rc = match result {
                None => None,
                Some("crash") => Some(-1),
                Some(r) => Some(r.parse().map_err(|_| format!("bad CUresult `{r}`"))?),
            };
            Record::Encode(id, map, rc)
        }
        other => return Err(format!("unknown record kind `{other}`")),
    };
    Ok(Some(record))
}

/// Parses a whole file of case or result lines; errors name the line.
pub fn parse(text: &str) -> Result<Vec<Record>, String> {
    text.lines()
        .enumerate()
        .filter_map(|(n, l)| {
            parse_line(l)
                .map_err(|e| format!("line {}: {e}", n + 1))
                .transpose()
        })
        .collect()
}

/// The dump in hex, as the result line writes it.
pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Where a load's box lies against the tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OobShape {
    /// Every element inside the tensor.
    Inside,
    /// One dimension crosses an end of the tensor, the others are inside.
    Edge,
    /// Two or more dimensions cross an end, none lies wholly outside.
    Corner,
    /// Some dimension lies wholly outside: every element is fill.
    Outside,
}

impl OobShape {
    /// Its name in tables.
    pub fn name(self) -> &'static str {
        match self {
            OobShape::Inside => "inside",
            OobShape::Edge => "edge",
            OobShape::Corner => "corner",
            OobShape::Outside => "outside",
        }
    }
}

/// The coordinates a load's box covers in dimension `i`: first and last.
fn covered(map: &TensorMap, load: &Load, i: usize) -> (i64, i64) {
    let layout = BoxLayout::of(map);
    let first = i64::from(load.coords[i]);
    let step = if i == 0 {
        1
    } else {
        i64::from(map.element_stride(i))
    };
    (first, first + (i64::from(layout.counts[i]) - 1) * step)
}

/// Where `load`'s box lies, and which sides it crosses or lies beyond: `sides[i]` is
/// `(low, high)` for dimension `i`.
pub fn oob_shape(map: &TensorMap, load: &Load) -> (OobShape, Vec<(bool, bool)>) {
    let mut crossing = 0;
    let mut outside = false;
    let mut sides = Vec::new();
    for i in 0..map.rank() {
        let (first, last) = covered(map, load, i);
        let dim = map.global_dim[i] as i64;
        let (low, high) = (first < 0, last >= dim);
        sides.push((low, high));
        if last < 0 || first >= dim {
            outside = true;
        } else if low || high {
            crossing += 1;
        }
    }
    let shape = match (outside, crossing) {
        (true, _) => OobShape::Outside,
        (false, 0) => OobShape::Inside,
        (false, 1) => OobShape::Edge,
        _ => OobShape::Corner,
    };
    (shape, sides)
}

/// How one load case compares with the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every byte of the dump is the model's, the mbarrier completed on the model's transaction
    /// bytes and nothing past the dump changed.
    Match,
    /// The model refuses the load and the H100 trapped on it (the CUDA context was lost).
    RefusedAndTrapped(String),
    /// The model refuses the load and the H100 did something else with it.
    ModelRefused(String),
    /// Not run yet.
    NotRun,
    /// The driver refused the descriptor with this `CUresult`.
    DriverRefused(i32),
    /// The program died on the case.
    Crashed,
    /// The load ran and differs from the model.
    Differs {
        /// Bytes of the dump that differ.
        bytes: usize,
        /// The first differing offset in the buffer, the model's byte and silicon's.
        first: Option<(usize, u8, u8)>,
        /// The mbarrier did not complete on the model's transaction bytes.
        incomplete: bool,
        /// Bytes past the dump that changed.
        strays: u64,
    },
}

/// Compares one load case's outcome with the model.
pub fn verdict(case: &LoadCase, outcome: Option<&LoadOutcome>) -> Verdict {
    let Some(outcome) = outcome else {
        return Verdict::NotRun;
    };
    if let Err(e) = check(&case.map, &case.load) {
        return match outcome {
            LoadOutcome::Crashed => Verdict::RefusedAndTrapped(e.to_string()),
            _ => Verdict::ModelRefused(e.to_string()),
        };
    }
    let (completed, strays, buffer, dump) = match outcome {
        LoadOutcome::Refused(rc) => return Verdict::DriverRefused(*rc),
        LoadOutcome::Crashed => return Verdict::Crashed,
        LoadOutcome::Loaded {
            completed,
            strays,
            buffer,
            dump,
        } => (*completed, *strays, *buffer, dump),
    };
    let expected = match case.predict(buffer) {
        Ok(e) => e,
        Err(e) => return Verdict::ModelRefused(e.to_string()),
    };
    let diffs: Vec<usize> = (0..dump.len())
        .filter(|&k| dump[k] != expected[k])
        .collect();
    if diffs.is_empty() && completed && strays == 0 {
        Verdict::Match
    } else {
        Verdict::Differs {
            bytes: diffs.len(),
            first: diffs.first().map(|&k| (k, expected[k], dump[k])),
            incomplete: !completed,
            strays,
        }
    }
}

/// Matched and total cases of one row of the silicon table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Cases whose every byte the model reproduces.
    pub matched: usize,
    /// Cases run.
    pub total: usize,
}

/// The silicon table: load cases by swizzle, element type and size, rank, fill, element
/// strides, OOB shape and side; the encode probes; every case that did not match.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// `(group, value, tally)`, groups in table order.
    pub rows: Vec<(String, String, Tally)>,
    /// Load cases that did not match: id and verdict.
    pub failures: Vec<(u32, Verdict)>,
    /// Encode probes: id, map, the driver's `CUresult`, the model's refusal (`None`: accepted).
    pub probes: Vec<(u32, TensorMap, i32, Option<String>)>,
}

impl Report {
    /// Every load case and probe matched.
    pub fn all_match(&self) -> bool {
        self.failures.is_empty() && self.probes_disagreeing() == 0
    }

    /// Probes where the driver's verdict differs from the model's.
    pub fn probes_disagreeing(&self) -> usize {
        self.probes
            .iter()
            .filter(|(_, _, rc, model)| (*rc == 0) != model.is_none())
            .count()
    }

    /// The load cases' total.
    pub fn total(&self) -> Tally {
        self.rows
            .iter()
            .find(|(g, _, _)| g == "all")
            .map(|r| r.2)
            .unwrap_or_default()
    }
}

/// Replays every record against the model.
pub fn replay(records: &[Record]) -> Report {
    use std::collections::BTreeMap;
    let mut rows: BTreeMap<(usize, String), BTreeMap<String, Tally>> = BTreeMap::new();
    let mut report = Report::default();
    let mut add = |order: usize, group: &str, value: String, ok: bool| {
        let t = rows
            .entry((order, group.to_string()))
            .or_default()
            .entry(value)
            .or_default();
        t.total += 1;
        t.matched += usize::from(ok);
    };
    for record in records {
        match record {
            Record::Load(case, outcome) => {
                let v = verdict(case, outcome.as_ref());
                if v == Verdict::NotRun {
                    continue;
                }
                if let Verdict::RefusedAndTrapped(why) = &v {
                    let rule = why.split(" = ").next().unwrap_or_default();
                    add(
                        10,
                        "refused by the model, trapped on the H100",
                        rule.to_string(),
                        true,
                    );
                    continue;
                }
                let ok = v == Verdict::Match;
                if !ok {
                    report.failures.push((case.id, v));
                }
                let m = &case.map;
                let (shape, sides) = oob_shape(m, &case.load);
                add(0, "all", "all".into(), ok);
                add(1, "swizzle", m.swizzle.to_string(), ok);
                add(2, "element bytes", m.elem_bytes().to_string(), ok);
                add(3, "data type", m.data_type.to_string(), ok);
                add(4, "rank", m.rank().to_string(), ok);
                add(5, "oob fill", m.oob_fill.to_string(), ok);
                add(6, "oob shape", shape.name().to_string(), ok);
                for (i, (low, high)) in sides.iter().enumerate() {
                    if *low {
                        add(
                            7,
                            "box crosses or lies past",
                            format!("dim {i} low end"),
                            ok,
                        );
                    }
                    if *high {
                        add(
                            7,
                            "box crosses or lies past",
                            format!("dim {i} high end"),
                            ok,
                        );
                    }
                }
                let strided: Vec<usize> =
                    (0..m.rank()).filter(|&i| m.element_stride(i) > 1).collect();
                if strided.contains(&0) {
                    add(8, "element stride > 1", "dim 0 (ignored)".into(), ok);
                }
                if strided.iter().any(|&i| i > 0) {
                    add(8, "element stride > 1", "dims 1-4".into(), ok);
                }
                let offset = case.load.shared_address;
                add(
                    9,
                    "shared offset",
                    if offset % 1024 == 0 {
                        "0 mod 1024"
                    } else {
                        "128 x k, not 0 mod 1024"
                    }
                    .into(),
                    ok,
                );
            }
            Record::Encode(id, map, Some(rc)) => {
                report.probes.push((
                    *id,
                    map.clone(),
                    *rc,
                    map.validate().err().map(|e| e.to_string()),
                ));
            }
            Record::Encode(_, _, None) => {}
        }
    }
    report.rows = rows
        .into_iter()
        .flat_map(|((_, group), values)| {
            values.into_iter().map(move |(v, t)| (group.clone(), v, t))
        })
        .collect();
    report
}

#[cfg(test)]
mod tests {
    use super::super::descriptor::tests::halves;
    use super::*;

    #[test]
    fn global_bytes_are_splitmix64_little_endian() {
        // Vigna's splitmix64.c seeded with 1234567: first output 6457827717110365317.
        let first = 6_457_827_717_110_365_317u64.to_le_bytes();
        let got: Vec<u8> = (0..8).map(|o| global_byte(1_234_567, o)).collect();
        assert_eq!(got, first);
    }

    #[test]
    fn case_and_result_lines_round_trip() {
        let case = LoadCase {
            id: 7,
            map: TensorMap {
                element_strides: vec![1, 2],
                ..halves()
            },
            load: Load {
                coords: vec![-8, 30],
                shared_address: 256,
            },
            seed: 99,
            dump_bytes: 1024,
        };
        let line = case.line().unwrap();
        assert_eq!(
            line,
            "load 7 f16 128B 128B none 99 4096 256 2 100 40 256 64 8 1 2 -8 30 512 1024"
        );
        let dump = case.predict(0).unwrap();
        assert_eq!(dump.len(), 1024);
        assert_eq!(dump[..256], [PREFILL; 256]);
        let result = format!("{line} : 0 1 0 0 {}", to_hex(&dump));
        match parse_line(&result).unwrap() {
            Some(Record::Load(c, Some(LoadOutcome::Loaded { dump: d, .. }))) => {
                assert_eq!(c, case);
                assert_eq!(d, dump);
            }
            other => panic!("{other:?}"),
        }
        let probe = encode_line(3, &halves());
        assert_eq!(
            probe,
            "encode 3 f16 128B 128B none 4096 2 100 40 256 64 8 1 1"
        );
        assert_eq!(
            parse_line(&format!("{probe} : 1")).unwrap(),
            Some(Record::Encode(
                3,
                TensorMap {
                    element_strides: vec![1, 1],
                    ..halves()
                },
                Some(1)
            ))
        );
        assert!(parse("load 1 f16")
            .unwrap_err()
            .starts_with("line 1: missing"));
    }
}
