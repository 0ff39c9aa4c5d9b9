//! tutti-testkit (being written).
