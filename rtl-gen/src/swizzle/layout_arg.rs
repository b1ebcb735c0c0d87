//! `--layout` as `rtl-gen swizzle` and `rtl-gen cuda swizzle` take it: a layout's name
//! (`tma:128B`, `cute:Swizzle<3,4,3>`...) or `config:FILE`, a hash configuration over element
//! offsets.

use crate::Error;
use models::search::Trace;
use models::swizzle::{AccessKind, AccessSet, AddressMap, Layout, Tile};
use models::HashConfigObject;
use std::path::Path;

fn bad(flag: &'static str, value: impl Into<String>, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.into(),
        message: message.into(),
    }
}

/// Parses `--layout`, reading the file of `config:FILE`.
pub fn parse_layout(text: &str, tile: &Tile) -> Result<(Layout, AddressMap), Error> {
    let layout = match text.strip_prefix("config:") {
        Some(file) => {
            let path = Path::new(file);
            let json = std::fs::read_to_string(path).map_err(Error::io(path))?;
            let config_error = |e: crate::json_input::JsonError| Error::ConfigFile {
                path: path.into(),
                message: format!("{e} (a hash configuration object: see docs/HASH.md)"),
            };
            let value = crate::json_input::parse_value(&json).map_err(config_error)?;
            let key = value.get("configuration").map(|_| "configuration");
            let object: HashConfigObject =
                crate::json_input::parse(&json, key).map_err(config_error)?;
            match object.validate()? {
                (_, Some(config)) => Layout::Hash(config),
                (_, None) => {
                    return Err(Error::ConfigFile {
                        path: path.into(),
                        message: "the configuration has no fields: a layout needs them".into(),
                    })
                }
            }
        }
        None => text
            .parse::<Layout>()
            .map_err(|e| bad("--layout", e.text, e.message))?,
    };
    let map = layout
        .to_map(tile)
        .map_err(|e| bad("--layout", text, e.message))?;
    Ok((layout, map))
}

/// The access sets `--access`, `--vec-bytes` and `--trace` ask for, in order: each kind at each
/// width (`ldmatrix` once, at 16 bytes; repeats next to each other counted once), then each
/// trace (named as given) at each width. Refuses a set the tile cannot hold, naming `--access`
/// or `--trace`, and an empty list.
pub fn access_sets(
    kinds: &[AccessKind],
    widths: &[u32],
    traces: &[(String, Trace)],
    tile: &Tile,
) -> Result<Vec<AccessSet>, Error> {
    let mut widths = widths.to_vec();
    widths.dedup();
    let mut kinds = kinds.to_vec();
    kinds.dedup();
    let mut out = Vec::new();
    for kind in kinds {
        let list = match kind {
            AccessKind::Ldmatrix => vec![16],
            _ => widths.clone(),
        };
        for w in list {
            out.push(
                AccessSet::generate(kind, w, tile).map_err(|m| bad("--access", kind.name(), m))?,
            );
        }
    }
    for (name, trace) in traces {
        for &w in &widths {
            out.push(
                AccessSet::from_trace(trace, w, tile)
                    .map_err(|m| bad("--trace", name.clone(), m))?,
            );
        }
    }
    if out.is_empty() {
        return Err(bad(
            "--access",
            "",
            "at least one of rows, cols, ldmatrix or a --trace",
        ));
    }
    Ok(out)
}

/// Refuses sets whose vectors the layout `layout` (as given to `--layout`) would split.
pub fn check_whole(map: &AddressMap, layout: &str, sets: &[AccessSet]) -> Result<(), Error> {
    match sets
        .iter()
        .find(|s| u64::from(s.width) > map.contiguous_bytes())
    {
        Some(s) => Err(bad(
            "--layout",
            layout,
            format!(
                "keeps only {} bytes together, so {} would split its {}-byte vectors; allowed \
                 vectors: at most {} bytes",
                map.contiguous_bytes(),
                s.name(),
                s.width,
                map.contiguous_bytes()
            ),
        )),
        None => Ok(()),
    }
}
