//! Errors of the shared vocabulary: only decoding can fail here.

/// What can go wrong when reading tutti's binary formats.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WsrepError {
    /// The bytes end before the structure they describe.
    #[error("truncated {0}")]
    Truncated(&'static str),
    /// A tag, version or length field holds a value this build does not know.
    #[error("invalid {what}: {value}")]
    Invalid {
        /// Which field was wrong.
        what: &'static str,
        /// The offending value.
        value: u64,
    },
    /// A checksum did not match: the bytes were damaged.
    #[error("checksum mismatch in {0}")]
    Checksum(&'static str),
    /// A string was not UTF-8.
    #[error("invalid UTF-8 in {0}")]
    Utf8(&'static str),
}
