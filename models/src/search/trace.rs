//! The trace format: one warp access per line (docs/TRACE_FORMAT.md).
//!
//! ```text
//! # transpose, TILE_DIM = 16: the store reads a column of the tile
//! st.tile 0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 240 1 17 33 49 ...
//! ```
//! A line holds a label (an instruction id or name, optionally ending in `:`) and then the word
//! addresses of the warp's active threads, in thread order, separated by white space; addresses
//! are decimal or `0x` hexadecimal. `#` starts a comment that runs to the end of the line; blank
//! lines are skipped. Every line is one dynamic warp access: an instruction executed ten times
//! appears on ten lines.

use crate::config::parse_u64;
use crate::geometry::low_mask;
use std::fmt;

/// One warp access: the instruction's label and the addresses of the active threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    /// The instruction id or name from the trace.
    pub label: String,
    /// Word addresses of the active threads, in thread order (repeats allowed).
    pub addresses: Vec<u64>,
}

/// A kernel's warp accesses, in trace order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// The accesses, one per trace line.
    pub accesses: Vec<Access>,
}

/// Why a trace was refused; `line` is 1-based, `None` for the whole file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", .line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct TraceError {
    /// The offending line, 1-based.
    pub line: Option<usize>,
    /// What is wrong with it.
    pub kind: TraceErrorKind,
}

/// The ways a trace can be wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceErrorKind {
    /// No warp access in the whole file.
    Empty,
    /// A label with no address after it.
    NoAddresses(String),
    /// A token that is not an unsigned integer.
    NotAnAddress(String),
    /// An address that needs more than the declared address bits.
    TooWide {
        /// The address.
        address: u64,
        /// `--addr-bits`.
        addr_bits: u32,
    },
    /// More addresses than threads in a warp.
    TooManyThreads {
        /// Addresses on the line.
        given: usize,
        /// `--warp-size`.
        warp_size: usize,
    },
}

impl fmt::Display for TraceErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceErrorKind::Empty => f.write_str("the trace holds no warp access (empty file)"),
            TraceErrorKind::NoAddresses(label) => {
                write!(f, "access `{label}` lists no address")
            }
            TraceErrorKind::NotAnAddress(token) => write!(
                f,
                "`{token}` is not an address (an unsigned decimal or 0x hexadecimal integer)"
            ),
            TraceErrorKind::TooWide { address, addr_bits } => write!(
                f,
                "address {address} needs {} bits: wider than --addr-bits {addr_bits}",
                64 - address.leading_zeros()
            ),
            TraceErrorKind::TooManyThreads { given, warp_size } => write!(
                f,
                "{given} addresses: more than the warp size {warp_size} (--warp-size)"
            ),
        }
    }
}

impl Trace {
    /// Parses trace text; every address must fit in `addr_bits` and every line in `warp_size`
    /// threads.
    pub fn parse(text: &str, addr_bits: u32, warp_size: usize) -> Result<Self, TraceError> {
        let limit = low_mask(addr_bits);
        let mut accesses = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let at = |kind| TraceError {
                line: Some(index + 1),
                kind,
            };
            let content = raw.split('#').next().unwrap_or_default();
            let mut tokens = content.split_whitespace();
            let Some(label) = tokens.next() else {
                continue;
            };
            let label = label.strip_suffix(':').unwrap_or(label).to_string();
            let addresses = tokens
                .map(|token| {
                    let address = parse_u64(token)
                        .map_err(|_| at(TraceErrorKind::NotAnAddress(token.into())))?;
                    if address & !limit != 0 {
                        return Err(at(TraceErrorKind::TooWide { address, addr_bits }));
                    }
                    Ok(address)
                })
                .collect::<Result<Vec<u64>, _>>()?;
            if addresses.is_empty() {
                return Err(at(TraceErrorKind::NoAddresses(label)));
            }
            if addresses.len() > warp_size {
                return Err(at(TraceErrorKind::TooManyThreads {
                    given: addresses.len(),
                    warp_size,
                }));
            }
            accesses.push(Access { label, addresses });
        }
        if accesses.is_empty() {
            return Err(TraceError {
                line: None,
                kind: TraceErrorKind::Empty,
            });
        }
        Ok(Self { accesses })
    }

    /// The trace as text, after a `#` comment header (each header line gets its own `# `).
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        for access in &self.accesses {
            out.push_str(&access.label);
            for a in &access.addresses {
                out.push(' ');
                out.push_str(&a.to_string());
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_labels_comments_and_both_bases() {
        let text = "# header\n\nld0: 0 1 0x2 # trailing\n  7 5 5\n";
        let t = Trace::parse(text, 14, 32).unwrap();
        assert_eq!(t.accesses.len(), 2);
        assert_eq!(t.accesses[0].label, "ld0");
        assert_eq!(t.accesses[0].addresses, vec![0, 1, 2]);
        assert_eq!(t.accesses[1].label, "7");
        assert_eq!(t.accesses[1].addresses, vec![5, 5]);
        assert_eq!(Trace::parse(&t.to_text("again"), 14, 32).unwrap(), t);
    }

    #[test]
    fn refuses_bad_lines_with_their_number() {
        let e = |text: &str| Trace::parse(text, 4, 4).unwrap_err().to_string();
        assert_eq!(
            e("# only a comment\n\n"),
            "the trace holds no warp access (empty file)"
        );
        assert_eq!(
            e("a 1\nb 1 x2\n"),
            "line 2: `x2` is not an address (an unsigned decimal or 0x hexadecimal integer)"
        );
        assert_eq!(
            e("a 1 16\n"),
            "line 1: address 16 needs 5 bits: wider than --addr-bits 4"
        );
        assert_eq!(
            e("\na 1 2 3 4 5\n"),
            "line 2: 5 addresses: more than the warp size 4 (--warp-size)"
        );
        assert_eq!(
            e("a 1\n\n\nlonely\n"),
            "line 4: access `lonely` lists no address"
        );
        assert!(e("a -1").starts_with("line 1: `-1`"));
    }
}
