//! tutti's gcache (being written).
