//! Named fields packed into one word, least significant first: how the data path's stage and
//! records, and the tensor slots, hold several fields in one signal.

use crate::rtl::{Expr, Signal};

/// Fields of a packed word, least significant first, with their widths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    fields: Vec<(String, u32)>,
}

impl Packed {
    /// The layout of `fields` (name, width), least significant first; widths of 0 are left out.
    pub fn new<S: Into<String>>(fields: impl IntoIterator<Item = (S, u32)>) -> Self {
        Self {
            fields: fields
                .into_iter()
                .map(|(n, w)| (n.into(), w))
                .filter(|f| f.1 > 0)
                .collect(),
        }
    }

    /// The same layout with the fields `keep` selects.
    pub fn only(&self, keep: impl Fn(&str) -> bool) -> Self {
        Self {
            fields: self.fields.iter().filter(|f| keep(&f.0)).cloned().collect(),
        }
    }

    /// Bits of the packed word.
    pub fn width(&self) -> u32 {
        self.fields.iter().map(|f| f.1).sum()
    }

    /// Whether the layout has a field `name`.
    pub fn has(&self, name: &str) -> bool {
        self.fields.iter().any(|f| f.0 == name)
    }

    /// The fields' values `value(name)` packed into one word.
    pub fn pack(&self, value: impl Fn(&str) -> Expr) -> Expr {
        Expr::concat(
            self.fields
                .iter()
                .rev()
                .map(|(name, width)| {
                    let v = value(name);
                    assert_eq!(v.width(), *width, "packed field {name}");
                    v
                })
                .collect(),
        )
    }

    /// Field `name` of the packed word `word`.
    pub fn field(&self, word: &Signal, name: &str) -> Expr {
        let (msb, lsb) = self.range(name);
        word.slice(msb, lsb)
    }

    /// `(msb, lsb)` of field `name`.
    pub fn range(&self, name: &str) -> (u32, u32) {
        let mut lsb = 0;
        for (n, w) in &self.fields {
            if n == name {
                return (lsb + w - 1, lsb);
            }
            lsb += w;
        }
        unreachable!("no packed field {name}")
    }
}
