//! JSON a user gives rtl-gen (a `--config` file, a manifest read back): parsed strictly, and
//! every refusal names the key, its line and column.
//!
//! serde_json accepts a repeated key (the last one wins) and reports a type error with its
//! position but not the key it belongs to. [`parse`] refuses repeated keys, and names the key
//! path of every error (`configuration.pairs[1]`) by walking the text up to the error's position.

use serde::de::{DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// A JSON document that cannot be read as what was asked, located in its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// The key path at the error (`addr_bits`, `configuration.pairs[1]`), or empty at the top.
    pub key: String,
    /// 1-based line of the error.
    pub line: usize,
    /// 1-based column of the error.
    pub column: usize,
    /// What is wrong, and what is allowed (serde's words without its position).
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} column {}", self.line, self.column)?;
        if !self.key.is_empty() {
            write!(f, ", key `{}`", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// The text of an input file, gunzipped when its name ends in `.gz` (the H100's result files).
pub fn read_text(path: &std::path::Path) -> Result<String, crate::Error> {
    let raw = std::fs::read(path).map_err(crate::Error::io(path))?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&raw[..]), &mut text)
            .map_err(crate::Error::io(path))?;
        Ok(text)
    } else {
        String::from_utf8(raw).map_err(|e| crate::Error::ConfigFile {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }
}

/// Parses `text` as a `T`, refusing repeated keys; `T` sees the document's value at `key` (a
/// top-level key, such as a manifest's `configuration`) when given, or the whole document.
pub fn parse<T: DeserializeOwned>(text: &str, key: Option<&str>) -> Result<T, JsonError> {
    let locate = |e: serde_json::Error| locate(text, &e);
    // Repeated keys first: serde_json alone would let the last one win.
    let mut de = serde_json::Deserializer::from_str(text);
    UniqueKeys.deserialize(&mut de).map_err(locate)?;
    de.end().map_err(locate)?;
    match key {
        None => serde_json::from_str(text).map_err(locate),
        Some(key) => {
            let mut de = serde_json::Deserializer::from_str(text);
            let value = AtKey::<T> {
                key,
                found: std::marker::PhantomData,
            }
            .deserialize(&mut de)
            .map_err(locate)?;
            value.ok_or_else(|| JsonError {
                key: String::new(),
                line: 1,
                column: 1,
                message: format!("no `{key}` key"),
            })
        }
    }
}

/// Parses `text` as a JSON value, refusing repeated keys.
pub fn parse_value(text: &str) -> Result<Value, JsonError> {
    parse(text, None)
}

/// serde_json's error, with the key path at its position.
fn locate(text: &str, e: &serde_json::Error) -> JsonError {
    let (line, column) = (e.line(), e.column());
    let full = e.to_string();
    let message = full
        .strip_suffix(&format!(" at line {line} column {column}"))
        .unwrap_or(&full)
        .to_string();
    JsonError {
        key: key_path_at(text, line, column),
        line,
        column,
        message,
    }
}

/// One open container while walking a document.
enum Open {
    /// An object, with the last key read in it.
    Object(Option<String>),
    /// An array, with the index of the element being read.
    Array(usize),
}

/// The key path (`a.b[2]`) of the value being read at 1-based `line` and `column` of `text`,
/// which is well-formed JSON up to there (serde_json read it so far).
fn key_path_at(text: &str, line: usize, column: usize) -> String {
    let mut stack: Vec<Open> = Vec::new();
    let (mut l, mut c) = (1, 0);
    let mut chars = text.chars().peekable();
    // The last string closed, until a `:` makes it a key.
    let mut last_string: Option<String> = None;
    while let Some(ch) = chars.next() {
        if ch == '\n' {
            l += 1;
            c = 0;
        } else {
            c += ch.len_utf8();
        }
        if l > line || (l == line && c >= column) {
            break;
        }
        match ch {
            '"' => {
                let mut s = String::new();
                while let Some(ch) = chars.next() {
                    c += ch.len_utf8();
                    match ch {
                        '\\' => {
                            if let Some(escaped) = chars.next() {
                                c += escaped.len_utf8();
                                s.push(escaped);
                            }
                        }
                        '"' => break,
                        _ => s.push(ch),
                    }
                }
                last_string = Some(s);
            }
            ':' => {
                if let Some(Open::Object(key)) = stack.last_mut() {
                    *key = last_string.take();
                }
            }
            ',' => match (last_string.take(), stack.last_mut()) {
                (_, Some(Open::Array(i))) => *i += 1,
                (_, Some(Open::Object(key))) => *key = None,
                (_, None) => {}
            },
            '{' => stack.push(Open::Object(None)),
            '[' => stack.push(Open::Array(0)),
            '}' | ']' => {
                last_string = None;
                stack.pop();
            }
            _ => {}
        }
    }
    // A key just read with no `:` yet (an unknown field is reported there).
    if let (Some(Open::Object(key @ None)), Some(s)) = (stack.last_mut(), last_string) {
        *key = Some(s);
    }
    let mut path = String::new();
    for open in &stack {
        match open {
            Open::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Open::Object(None) => {}
            Open::Array(i) => path.push_str(&format!("[{i}]")),
        }
    }
    path
}

/// Reads any JSON value, refusing an object that repeats a key.
struct UniqueKeys;

impl<'de> DeserializeSeed<'de> for UniqueKeys {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueKeys {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(UniqueKeys)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.insert(key.clone(), Value::Null).is_some() {
                return Err(serde::de::Error::custom(format_args!(
                    "appears twice; give each key once"
                )));
            }
            map.next_value_seed(UniqueKeys)?;
        }
        Ok(())
    }
}

/// Reads the value at one top-level key of an object as a `T`, skipping the other keys.
struct AtKey<'k, T> {
    key: &'k str,
    found: std::marker::PhantomData<T>,
}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for AtKey<'_, T> {
    type Value = Option<T>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for AtKey<'_, T> {
    type Value = Option<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with a `{}` key", self.key)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<T>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == self.key {
                found = Some(map.next_value::<T>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Config {
        addr_bits: u32,
        pairs: Option<Vec<[u32; 2]>>,
    }

    #[test]
    fn type_errors_name_the_key_line_and_column() {
        let text = "{\n  \"addr_bits\": \"14\"\n}";
        let e = parse::<Config>(text, None).unwrap_err();
        assert_eq!(
            (e.key.as_str(), e.line, e.column),
            ("addr_bits", 2, 19),
            "{e}"
        );
        assert_eq!(e.message, "invalid type: string \"14\", expected u32");
        let text = "{\"addr_bits\": 4, \"pairs\": [[1, 2], [3, \"x\"]]}";
        let e = parse::<Config>(text, None).unwrap_err();
        assert_eq!(e.key, "pairs[1][1]", "{e}");
        let text = "{\"addr_bits\": 4, \"bnaks\": 3}";
        let e = parse::<Config>(text, None).unwrap_err();
        assert_eq!(e.key, "bnaks", "{e}");
        assert!(e.message.starts_with("unknown field `bnaks`"), "{e}");
    }

    #[test]
    fn repeated_keys_are_refused_at_any_depth() {
        let text = "{\"addr_bits\": 4,\n \"addr_bits\": 5}";
        let e = parse::<Config>(text, None).unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (2, "addr_bits"), "{e}");
        assert!(e.message.contains("appears twice"), "{e}");
        let e = parse_value("{\"a\": [{\"b\": 1, \"b\": 2}]}").unwrap_err();
        assert_eq!(e.key, "a[0].b", "{e}");
        assert!(parse_value("{\"a\": 1, \"b\": {\"a\": 2}}").is_ok());
    }

    #[test]
    fn a_key_of_the_document_is_read_alone() {
        let text = "{\"generator\": \"x\", \"configuration\": {\"addr_bits\": true}}";
        let e = parse::<Config>(text, Some("configuration")).unwrap_err();
        assert_eq!(e.key, "configuration.addr_bits", "{e}");
        let ok = parse::<Config>(
            "{\"configuration\": {\"addr_bits\": 3}}",
            Some("configuration"),
        );
        assert_eq!(ok.unwrap().addr_bits, 3);
        assert!(parse::<Config>("{}", Some("configuration")).is_err());
    }
}
