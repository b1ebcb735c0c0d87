//! `--layout` as `rtl-gen swizzle` and `rtl-gen cuda swizzle` take it: a layout's name
//! (`tma:128B`, `cute:Swizzle<3,4,3>`...) or `config:FILE`, a hash configuration over element
//! offsets.

use crate::Error;
use models::swizzle::{AddressMap, Layout, Tile};
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
