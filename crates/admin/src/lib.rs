//! tutti-admin (being written).
