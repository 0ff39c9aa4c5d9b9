//! Retention policy: which old segments of the gcache may go. Pure data, no I/O.
//!
//! The gcache keeps whole segments, oldest first, within `gcache.size`; purging stops at
//! `gcache.freeze_purge_at_seqno` and at what live members still need (`protected_from`).
//! Members known to be away (left cleanly, or unreachable) are waited for: history they
//! will need is kept beyond the size limit, within an extra disk budget and for a limited
//! time; an away member that exceeds either is given up on (it will need a snapshot
//! transfer) and listed so the operator can see why. The newest segment is never purged.

use crate::SegmentInfo;

/// A member known to be away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Absent {
    /// Its node id.
    pub node: u64,
    /// The first seqno it will need when it returns.
    pub needs_from: u64,
    /// Since when it is away (unix ms).
    pub since_ms: u64,
}

/// Everything the decision depends on.
#[derive(Clone, Debug, Default)]
pub struct RetentionInputs {
    /// The segments, oldest first.
    pub segments: Vec<SegmentInfo>,
    /// `gcache.size`.
    pub size_limit: u64,
    /// `gcache.freeze_purge_at_seqno`: keep everything from this seqno on.
    pub freeze_at: Option<u64>,
    /// Members known to be away.
    pub absent: Vec<Absent>,
    /// Extra bytes beyond `size_limit` allowed for away members.
    pub keep_for_absent_size: u64,
    /// How long an away member is waited for.
    pub keep_for_absent_time_ms: u64,
    /// Never purge entries at or above this (what live members still need).
    pub protected_from: u64,
    /// Now (unix ms).
    pub now_ms: u64,
}

/// Why the decision is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetentionReason {
    /// Everything fits in the size limit.
    WithinSize,
    /// Old segments go to stay within the size limit.
    OverSize,
    /// The operator froze purging.
    Frozen,
    /// History is kept beyond the size limit for away members.
    KeptForAbsent,
    /// Live members still need the history.
    Protected,
}

/// The decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetentionDecision {
    /// Purge whole segments up to and including this index.
    pub purge_through: Option<u64>,
    /// Why.
    pub reason: RetentionReason,
    /// Away members whose history is kept.
    pub kept_for_absent: Vec<u64>,
    /// Away members given up on (time or disk budget exceeded): they will need SST.
    pub dropped_absent: Vec<u64>,
}

/// The number of oldest segments that may go while keeping every entry `>= from`
/// (segments are whole: one holding any such entry stays).
fn floor(segments: &[SegmentInfo], limit: usize, from: u64) -> usize {
    segments[..limit]
        .iter()
        .position(|s| s.last >= from)
        .unwrap_or(limit)
}

/// Decides which old segments to purge.
///
/// Size first (the fewest oldest segments that bring the total within `size_limit`, never
/// the newest), then the hard floors (freeze, protection) that may keep more, then away
/// members, oldest need first: one is kept if what it needs fits in `size_limit +
/// keep_for_absent_size` (or is kept anyway by the floors) and it has not been away
/// longer than `keep_for_absent_time_ms`; otherwise it is dropped.
pub fn decide(i: &RetentionInputs) -> RetentionDecision {
    let segs = &i.segments;
    let total: u64 = segs.iter().map(|s| s.bytes).sum();
    let mut over = 0;
    let mut size = total;
    while size > i.size_limit && over + 1 < segs.len() {
        size -= segs[over].bytes;
        over += 1;
    }
    let frozen = i.freeze_at.map_or(over, |f| floor(segs, over, f));
    let protected = floor(segs, frozen, i.protected_from);
    let mut limit = protected;
    let mut decision = RetentionDecision {
        purge_through: None,
        reason: RetentionReason::WithinSize,
        kept_for_absent: Vec::new(),
        dropped_absent: Vec::new(),
    };
    let budget = i.size_limit.saturating_add(i.keep_for_absent_size);
    let oldest = segs.first().map_or(0, |s| s.first);
    let mut absent = i.absent.clone();
    absent.sort_by_key(|a| (a.needs_from, a.node));
    for a in absent {
        let expired = i.now_ms.saturating_sub(a.since_ms) > i.keep_for_absent_time_ms;
        let l = floor(segs, limit, a.needs_from);
        let kept: u64 = segs[l..].iter().map(|s| s.bytes).sum();
        // What it needs is already gone, or costs more than the budget: give up.
        let gone = a.needs_from < oldest;
        if expired || gone || (l < limit && kept > budget) {
            decision.dropped_absent.push(a.node);
            continue;
        }
        limit = l;
        decision.kept_for_absent.push(a.node);
    }
    decision.reason = if over == 0 {
        RetentionReason::WithinSize
    } else if limit == over {
        RetentionReason::OverSize
    } else if limit == frozen {
        RetentionReason::Frozen
    } else if limit == protected {
        RetentionReason::Protected
    } else {
        RetentionReason::KeptForAbsent
    };
    if limit > 0 {
        decision.purge_through = Some(segs[limit - 1].last);
    }
    decision
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(n: u64) -> Vec<SegmentInfo> {
        (0..n)
            .map(|k| SegmentInfo {
                first: k * 10 + 1,
                last: k * 10 + 10,
                bytes: 100,
                oldest_ms: k,
                newest_ms: k,
            })
            .collect()
    }

    fn inputs(n: u64, limit: u64) -> RetentionInputs {
        RetentionInputs {
            segments: segs(n),
            size_limit: limit,
            protected_from: u64::MAX,
            keep_for_absent_time_ms: 1000,
            now_ms: 10,
            ..Default::default()
        }
    }

    fn away(node: u64, needs_from: u64, since_ms: u64) -> Absent {
        Absent {
            node,
            needs_from,
            since_ms,
        }
    }

    #[test]
    fn within_size_purges_nothing() {
        let d = decide(&inputs(3, 300));
        assert_eq!(d.purge_through, None);
        assert_eq!(d.reason, RetentionReason::WithinSize);
        assert_eq!(decide(&inputs(0, 0)).purge_through, None);
    }

    #[test]
    fn the_newest_segment_is_never_purged() {
        let d = decide(&inputs(3, 0));
        assert_eq!(d.purge_through, Some(20));
        assert_eq!(d.reason, RetentionReason::OverSize);
        assert_eq!(decide(&inputs(1, 0)).purge_through, None);
    }

    #[test]
    fn oversize_purges_the_fewest_oldest_segments() {
        let d = decide(&inputs(5, 300));
        assert_eq!(d.purge_through, Some(20));
        assert_eq!(d.reason, RetentionReason::OverSize);
        // 450 bytes allowed: one segment of 100 must still go.
        assert_eq!(decide(&inputs(5, 450)).purge_through, Some(10));
    }

    #[test]
    fn freeze_wins_over_size() {
        let mut i = inputs(5, 100);
        i.freeze_at = Some(15);
        let d = decide(&i);
        assert_eq!(d.purge_through, Some(10), "entries from 15 on stay");
        assert_eq!(d.reason, RetentionReason::Frozen);
        i.freeze_at = Some(1);
        let d = decide(&i);
        assert_eq!(d.purge_through, None);
        assert_eq!(d.reason, RetentionReason::Frozen);
        // A freeze above what size removes anyway changes nothing.
        i.freeze_at = Some(45);
        assert_eq!(decide(&i).reason, RetentionReason::OverSize);
    }

    #[test]
    fn protection_wins_over_size() {
        let mut i = inputs(5, 100);
        i.protected_from = 25;
        let d = decide(&i);
        assert_eq!(d.purge_through, Some(20));
        assert_eq!(d.reason, RetentionReason::Protected);
        // Protection exactly at a segment's first entry keeps that segment.
        i.protected_from = 21;
        assert_eq!(decide(&i).purge_through, Some(20));
        i.protected_from = 20;
        assert_eq!(decide(&i).purge_through, Some(10));
    }

    #[test]
    fn an_absent_member_is_kept_within_the_extra_budget() {
        let mut i = inputs(5, 300);
        i.keep_for_absent_size = 200;
        i.absent = vec![away(7, 5, 0)];
        let d = decide(&i);
        assert_eq!(d.purge_through, None);
        assert_eq!(d.kept_for_absent, vec![7]);
        assert!(d.dropped_absent.is_empty());
        assert_eq!(d.reason, RetentionReason::KeptForAbsent);
        // Needing less history, it costs less: only the first segment goes.
        i.keep_for_absent_size = 100;
        i.absent = vec![away(7, 15, 0)];
        let d = decide(&i);
        assert_eq!(d.purge_through, Some(10));
        assert_eq!(d.kept_for_absent, vec![7]);
    }

    #[test]
    fn an_absent_member_over_budget_is_dropped_and_size_rules() {
        let mut i = inputs(5, 300);
        i.keep_for_absent_size = 100;
        i.absent = vec![away(7, 5, 0)];
        let d = decide(&i);
        assert_eq!(d.dropped_absent, vec![7]);
        assert!(d.kept_for_absent.is_empty());
        assert_eq!(d.purge_through, Some(20));
        assert_eq!(d.reason, RetentionReason::OverSize);
    }

    #[test]
    fn an_absent_member_away_too_long_is_dropped() {
        let mut i = inputs(5, 300);
        i.keep_for_absent_size = 10_000;
        i.absent = vec![away(7, 5, 0)];
        i.now_ms = 5000;
        let d = decide(&i);
        assert_eq!(d.dropped_absent, vec![7]);
        assert_eq!(d.purge_through, Some(20));
        // Even when nothing needs purging, the wait is over.
        let mut i = inputs(3, 1000);
        i.absent = vec![away(7, 5, 0)];
        i.now_ms = 5000;
        assert_eq!(decide(&i).dropped_absent, vec![7]);
    }

    #[test]
    fn an_absent_member_whose_history_is_gone_is_dropped() {
        let mut i = inputs(5, 1000);
        i.segments.remove(0);
        i.absent = vec![away(7, 5, 0), away(8, 15, 0)];
        let d = decide(&i);
        assert_eq!(d.dropped_absent, vec![7]);
        assert_eq!(d.kept_for_absent, vec![8]);
    }

    #[test]
    fn absent_members_oldest_need_first_within_one_budget() {
        let mut i = inputs(5, 200);
        i.keep_for_absent_size = 200;
        // Node 1 needs all 500 bytes (over 400); node 2 needs from segment 2 (400).
        i.absent = vec![away(2, 15, 0), away(1, 3, 0)];
        let d = decide(&i);
        assert_eq!(d.dropped_absent, vec![1]);
        assert_eq!(d.kept_for_absent, vec![2]);
        assert_eq!(d.purge_through, Some(10));
        assert_eq!(d.reason, RetentionReason::KeptForAbsent);
    }

    #[test]
    fn history_kept_by_a_floor_costs_absent_members_nothing() {
        let mut i = inputs(5, 100);
        i.freeze_at = Some(5);
        i.keep_for_absent_size = 0;
        i.absent = vec![away(7, 5, 0)];
        let d = decide(&i);
        assert_eq!(d.kept_for_absent, vec![7]);
        assert_eq!(d.purge_through, None);
        assert_eq!(d.reason, RetentionReason::Frozen);
    }
}
