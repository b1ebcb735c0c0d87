//! A hash configuration file: the configuration object itself (`rtl-gen search`'s
//! `best.json`), or a hash block's manifest (its `configuration`); what `rtl-gen hash --config`,
//! `rtl-gen cuda hash --config` and `rtl-gen smem --hash-config` read.

use crate::json_input::{self, JsonError};
use crate::Error;
use models::HashConfigObject;
use std::path::Path;

/// The configuration object in `path`; a manifest of another family is refused by name.
pub fn read(path: &Path) -> Result<HashConfigObject, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::io(path))?;
    let config_error = |e: JsonError| Error::ConfigFile {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let value = json_input::parse_value(&text).map_err(config_error)?;
    // A block's manifest carries the configuration object under "configuration".
    let mut key = None;
    if value.get("generator").is_some() {
        match value.get("family").and_then(serde_json::Value::as_str) {
            Some("hash") | None => {}
            Some(family) => {
                return Err(Error::ConfigFile {
                    path: path.to_path_buf(),
                    message: format!(
                        "the manifest of a {family} block: --config takes a hash \
                         configuration object or a hash block's manifest"
                    ),
                })
            }
        }
        if value.get("configuration").is_some() {
            key = Some("configuration");
        }
    }
    json_input::parse(&text, key).map_err(config_error)
}
