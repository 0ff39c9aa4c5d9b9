//! tutti-replication (being written).
