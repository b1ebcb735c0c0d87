//! A small Verilog-2005 tokenizer: enough to find mutation sites in emitted text without the
//! RTL representation. Every token keeps its byte span, so a mutant is the original text with
//! one span replaced.

use std::ops::Range;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword (`assign`, `addr_i`, `$fatal`, an escaped `\name `).
    Ident,
    /// A number: sized (`5'h1f`) or plain (`13`).
    Number,
    /// An operator or punctuation (`&`, `<=`, `(`, `+:`).
    Op,
    /// A string literal.
    Str,
    /// A comment (`// ...`, `/* ... */`).
    Comment,
}

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Its kind.
    pub kind: Kind,
    /// Its bytes in the source.
    pub span: Range<usize>,
    /// 1-based line of its first byte.
    pub line: u32,
}

/// Operators of more than one character, longest first so that the first match is the longest.
const OPERATORS: [&str; 19] = [
    "<<<", ">>>", "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "~&", "~|", "~^",
    "^~", "**", "+:", "-:",
];

/// Splits `text` into tokens (whitespace dropped, comments kept). Any other character is a
/// one-character `Op` token, so nothing is lost.
pub fn tokenize(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let kind = if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            Kind::Comment
        } else if text[i..].starts_with("/*") {
            i = text[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |n| i + 2 + n + 2);
            Kind::Comment
        } else if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            Kind::Str
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || b"_$".contains(&bytes[i]))
            {
                i += 1;
            }
            Kind::Ident
        } else if c == b'\\' {
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == b'\'' && i + 1 < bytes.len()) {
            i = number_end(bytes, i);
            Kind::Number
        } else {
            i += OPERATORS
                .iter()
                .find(|op| text[i..].starts_with(*op))
                .map_or(1, |op| op.len());
            while i < bytes.len() && !text.is_char_boundary(i) {
                i += 1;
            }
            Kind::Op
        };
        tokens.push(Token {
            kind,
            span: start..i,
            line,
        });
        line += text[start..i].matches('\n').count() as u32;
    }
    tokens
}

/// The end of the number starting at `i`: digits, then optionally `'[s]<base><digits>`.
fn number_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'\'' {
        i += 1;
        if i < bytes.len() && (bytes[i] == b's' || bytes[i] == b'S') {
            i += 1;
        }
        if i < bytes.len() && b"bBoOdDhH".contains(&bytes[i]) {
            i += 1;
        }
        while i < bytes.len() && (bytes[i].is_ascii_hexdigit() || b"xXzZ_?".contains(&bytes[i])) {
            i += 1;
        }
    }
    i
}

/// A sized literal `<width>'<base><digits>` read as bits (least significant first); `None`
/// for plain numbers, literals with `x`/`z`, and decimal literals beyond 128 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sized {
    /// Declared width.
    pub width: u32,
    /// The base letter as written (`h`, `d`, `b`, `o`).
    pub base: char,
    /// The value's bits, least significant first, `width` of them.
    pub bits: Vec<bool>,
}

impl Sized {
    /// Parses a literal such as `5'h1f`.
    pub fn parse(text: &str) -> Option<Self> {
        let (width, rest) = text.split_once('\'')?;
        let width: u32 = width
            .replace('_', "")
            .parse()
            .ok()
            .filter(|w| (1..=4096).contains(w))?;
        let rest = rest.strip_prefix(['s', 'S']).unwrap_or(rest);
        let mut chars = rest.chars();
        let base = chars.next()?.to_ascii_lowercase();
        let digits: String = chars.filter(|&c| c != '_').collect();
        let radix_bits = match base {
            'b' => 1,
            'o' => 3,
            'h' => 4,
            'd' => 0,
            _ => return None,
        };
        let mut bits = Vec::new();
        if radix_bits == 0 {
            let value: u128 = digits.parse().ok()?;
            bits.extend((0..128).map(|i| value >> i & 1 == 1));
        } else {
            for c in digits.chars().rev() {
                let v = c.to_digit(1 << radix_bits)?;
                bits.extend((0..radix_bits).map(|i| v >> i & 1 == 1));
            }
        }
        bits.resize(width as usize, false);
        Some(Self { width, base, bits })
    }

    /// The literal as text, in its base with the digits its width needs.
    pub fn render(&self) -> String {
        let radix_bits = match self.base {
            'b' => 1,
            'o' => 3,
            'd' => 0,
            _ => 4,
        };
        if radix_bits == 0 {
            let value: u128 = self
                .bits
                .iter()
                .take(128)
                .enumerate()
                .map(|(i, &b)| u128::from(b) << i)
                .sum();
            return format!("{}'d{value}", self.width);
        }
        let digits = (self.width as usize).div_ceil(radix_bits);
        let text: String = (0..digits)
            .rev()
            .map(|d| {
                let v = (0..radix_bits)
                    .map(|i| u32::from(*self.bits.get(d * radix_bits + i).unwrap_or(&false)) << i)
                    .sum::<u32>();
                char::from_digit(v, 1 << radix_bits).unwrap_or('0')
            })
            .collect();
        format!("{}'{}{text}", self.width, self.base)
    }

    /// The value one higher, or one lower when it is all ones (so it stays in its width).
    pub fn off_by_one(&self) -> Self {
        let all_ones = self.bits.iter().all(|&b| b);
        let mut bits = self.bits.clone();
        for b in bits.iter_mut() {
            // +1 flips ones to zeros up to the first zero; -1 flips zeros to ones up to the
            // first one.
            let stop = *b == all_ones;
            *b = !*b;
            if stop {
                break;
            }
        }
        Self {
            bits,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<&str> {
        tokenize(src).iter().map(|t| &src[t.span.clone()]).collect()
    }

    #[test]
    fn splits_emitted_verilog() {
        let src = "  assign bank_o[0] = addr_i[2] ^ ~cfg[1]; // note\n  q <= 5'h1f;\n";
        assert_eq!(
            texts(src),
            [
                "assign", "bank_o", "[", "0", "]", "=", "addr_i", "[", "2", "]", "^", "~", "cfg",
                "[", "1", "]", ";", "// note", "q", "<=", "5'h1f", ";"
            ]
        );
        let t = tokenize(src);
        assert_eq!((t[0].line, t[18].line), (1, 2));
        assert_eq!(texts("a !== b <<< 2"), ["a", "!==", "b", "<<<", "2"]);
        assert_eq!(texts("{2'd0, x}"), ["{", "2'd0", ",", "x", "}"]);
        assert_eq!(texts("/* a\nb */ c"), ["/* a\nb */", "c"]);
        assert_eq!(tokenize("/* a\nb */ c")[1].line, 2);
    }

    #[test]
    fn sized_literals_move_by_one_within_their_width() {
        let l = Sized::parse("5'h1f").unwrap();
        assert_eq!(l.off_by_one().render(), "5'h1e");
        assert_eq!(
            Sized::parse("5'h00").unwrap().off_by_one().render(),
            "5'h01"
        );
        assert_eq!(Sized::parse("1'b0").unwrap().off_by_one().render(), "1'b1");
        assert_eq!(Sized::parse("1'b1").unwrap().off_by_one().render(), "1'b0");
        assert_eq!(Sized::parse("6'd9").unwrap().off_by_one().render(), "6'd10");
        assert_eq!(Sized::parse("4'h7").unwrap().off_by_one().render(), "4'h8");
        assert_eq!(
            Sized::parse("64'h0000000000000000")
                .unwrap()
                .off_by_one()
                .render(),
            "64'h0000000000000001"
        );
        assert_eq!(Sized::parse("4'bx01z"), None);
        assert_eq!(Sized::parse("13"), None);
    }
}
