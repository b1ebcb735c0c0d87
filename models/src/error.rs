//! The error type of the golden models: every message is one line that names the bad value and
//! what is allowed.

/// A configuration the models refuse, with the offending value and the allowed range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A numeric parameter outside its allowed range.
    #[error("{name} = {value} is out of range: allowed {allowed}")]
    OutOfRange {
        /// The parameter's name as the user spells it (`addr_bits`, `k1`, ...).
        name: String,
        /// The value given.
        value: String,
        /// The allowed values, in words.
        allowed: String,
    },
    /// A parameter that must be given for the chosen kind is missing.
    #[error("kind {kind} needs `{field}`")]
    MissingField {
        /// The hash kind.
        kind: &'static str,
        /// The missing field.
        field: &'static str,
    },
    /// A field that the chosen kind does not have.
    #[error("`{field}` does not apply to kind {kind} (its fields: {allowed})")]
    FieldNotAllowed {
        /// The hash kind.
        kind: &'static str,
        /// The field given.
        field: &'static str,
        /// The kind's own fields.
        allowed: String,
    },
    /// A list that must not repeat an entry repeats one.
    #[error("{name} repeats {value}: every entry must be distinct")]
    Repeated {
        /// The list's name.
        name: String,
        /// The repeated entry.
        value: String,
    },
    /// A list of the wrong length.
    #[error("{name} has {given} entries: expected {expected} (one per bank bit)")]
    WrongLength {
        /// The list's name.
        name: String,
        /// Its length.
        given: usize,
        /// The length required.
        expected: usize,
    },
    /// A hash whose matrix has rank below the bank bits, so some banks are never used.
    #[error("the hash has GF(2) rank {rank} below the {bank_bits} bank bits: only {reachable} of {banks} banks can ever be reached")]
    RankDeficient {
        /// Rank of the hash matrix.
        rank: u32,
        /// Bank bits `m`.
        bank_bits: u32,
        /// `2^rank`.
        reachable: u64,
        /// `2^m`.
        banks: u64,
    },
}
