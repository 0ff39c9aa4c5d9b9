//! tutti-mysql (being written).
