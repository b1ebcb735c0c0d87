//! The RAP paper's published numbers: Table II (mean congestion by simulation) and the claims of
//! Table IV, so that tests and documentation compare against one copy.

use super::access::Pattern;
use super::scheme::Scheme;

/// The `w` columns of Table II.
pub const TABLE_II_W: [u32; 5] = [16, 32, 64, 128, 256];

/// Table II: (scheme, pattern, mean congestion at w = 16, 32, 64, 128, 256).
pub const TABLE_II: &[(Scheme, Pattern, [f64; 5])] = &[
    (Scheme::Raw, Pattern::Contiguous, [1.0; 5]),
    (
        Scheme::Raw,
        Pattern::Stride(1),
        [16.0, 32.0, 64.0, 128.0, 256.0],
    ),
    (Scheme::Raw, Pattern::Diagonal, [1.0; 5]),
    (Scheme::Raw, Pattern::Random, [2.92, 3.44, 3.90, 4.34, 4.75]),
    (Scheme::Ras, Pattern::Contiguous, [1.0; 5]),
    (
        Scheme::Ras,
        Pattern::Stride(1),
        [3.08, 3.53, 3.96, 4.38, 4.77],
    ),
    (
        Scheme::Ras,
        Pattern::Diagonal,
        [3.08, 3.53, 3.96, 4.38, 4.77],
    ),
    (Scheme::Ras, Pattern::Random, [2.92, 3.44, 3.90, 4.34, 4.75]),
    (Scheme::Rap, Pattern::Contiguous, [1.0; 5]),
    (Scheme::Rap, Pattern::Stride(1), [1.0; 5]),
    (
        Scheme::Rap,
        Pattern::Diagonal,
        [3.20, 3.61, 4.00, 4.41, 4.78],
    ),
    (Scheme::Rap, Pattern::Random, [2.92, 3.44, 3.90, 4.34, 4.75]),
];

/// The Table II entry for a cell, if the table has it.
pub fn table_ii(scheme: Scheme, pattern: Pattern, w: u32) -> Option<f64> {
    let col = TABLE_II_W.iter().position(|&x| x == w)?;
    TABLE_II
        .iter()
        .find(|&&(s, p, _)| s == scheme && p == pattern)
        .map(|(_, _, v)| v[col])
}

/// A Table IV entry for a `w^4` array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Exactly 1: conflict-free whatever the random draw.
    One,
    /// Exactly `w`: every access in one bank.
    W,
    /// `Õ(log w / log log w)`: small, random.
    Log,
    /// `6 · Õ(log(w/6) / log log(w/6))`: R1P's malicious access, at least 6 always.
    SixTimesLog,
}

/// Table IV's entry for a scheme (RAW, RAS or a section VII RAP) and a pattern.
pub fn table_iv(scheme: Scheme, pattern: Pattern) -> Claim {
    use Claim::*;
    use Pattern::*;
    match (scheme, pattern) {
        (_, Contiguous) => One,
        (_, Random) => Log,
        (Scheme::Raw, _) => W,
        (Scheme::Ras, _) => Log,
        (Scheme::OneP, Stride(1)) => One,
        (Scheme::OneP, _) => W,
        (Scheme::R1p, Malicious) => SixTimesLog,
        (Scheme::R1p | Scheme::ThreeP, Stride(_)) => One,
        (Scheme::W2p | Scheme::OnePW2r, Stride(1)) => One,
        _ => Log,
    }
}
