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

/// Decides what to purge.
pub fn decide(i: &RetentionInputs) -> RetentionDecision {
    let total: u64 = i.segments.iter().map(|s| s.bytes).sum();
    // Oldest segments that must go to fit the size limit (never the newest).
    let mut over = 0;
    let mut size = total;
    while size > i.size_limit && over + 1 < i.segments.len() {
        size -= i.segments[over].bytes;
        over += 1;
    }
    let mut decision = RetentionDecision {
        purge_through: None,
        reason: RetentionReason::WithinSize,
        kept_for_absent: Vec::new(),
        dropped_absent: Vec::new(),
    };
    if over == 0 {
        return decision;
    }
    decision.reason = RetentionReason::OverSize;
    let mut limit = over;
    // Hard floors: the operator's freeze and what live members need.
    let floor = |limit: &mut usize, from: u64| {
        while *limit > 0 && i.segments[*limit - 1].last >= from {
            *limit -= 1;
        }
    };
    if let Some(f) = i.freeze_at {
        let before = limit;
        floor(&mut limit, f);
        if limit < before {
            decision.reason = RetentionReason::Frozen;
        }
    }
    let before = limit;
    floor(&mut limit, i.protected_from);
    if limit < before && decision.reason == RetentionReason::OverSize {
        decision.reason = RetentionReason::Protected;
    }
    // Away members, oldest need first, within the extra budget and their time.
    let budget = i.size_limit.saturating_add(i.keep_for_absent_size);
    let mut absent = i.absent.clone();
    absent.sort_by_key(|a| a.needs_from);
    for a in absent {
        let expired = i.now_ms.saturating_sub(a.since_ms) > i.keep_for_absent_time_ms;
        let mut l = limit;
        floor(&mut l, a.needs_from);
        let kept: u64 = i.segments[l..].iter().map(|s| s.bytes).sum();
        if expired || kept > budget {
            decision.dropped_absent.push(a.node);
            continue;
        }
        if l < limit {
            limit = l;
            if decision.reason == RetentionReason::OverSize {
                decision.reason = RetentionReason::KeptForAbsent;
            }
        }
        decision.kept_for_absent.push(a.node);
    }
    if limit > 0 {
        decision.purge_through = Some(i.segments[limit - 1].last);
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

    #[test]
    fn within_size_purges_nothing_and_never_the_newest() {
        assert_eq!(decide(&inputs(3, 300)).purge_through, None);
        let d = decide(&inputs(3, 0));
        assert_eq!(d.purge_through, Some(20), "the newest segment stays");
        assert_eq!(d.reason, RetentionReason::OverSize);
    }

    #[test]
    fn oversize_purges_the_fewest_oldest_segments() {
        let d = decide(&inputs(5, 300));
        assert_eq!(d.purge_through, Some(20));
    }

    #[test]
    fn freeze_and_protection_win_over_size() {
        let mut i = inputs(5, 100);
        i.freeze_at = Some(15);
        let d = decide(&i);
        assert_eq!(d.purge_through, Some(10), "entries from 15 on stay");
        assert_eq!(d.reason, RetentionReason::Frozen);
        let mut i = inputs(5, 100);
        i.protected_from = 25;
        let d = decide(&i);
        assert_eq!(d.purge_through, Some(20));
        assert_eq!(d.reason, RetentionReason::Protected);
    }

    #[test]
    fn absent_members_are_kept_within_budget_and_time() {
        let mut i = inputs(5, 300);
        i.keep_for_absent_size = 200;
        i.absent = vec![Absent {
            node: 7,
            needs_from: 5,
            since_ms: 0,
        }];
        let d = decide(&i);
        assert_eq!(d.purge_through, None);
        assert_eq!(d.kept_for_absent, vec![7]);
        assert_eq!(d.reason, RetentionReason::KeptForAbsent);
        // Over the extra budget: given up on.
        i.keep_for_absent_size = 100;
        let d = decide(&i);
        assert_eq!(d.dropped_absent, vec![7]);
        assert_eq!(d.purge_through, Some(20));
        // Away too long: given up on.
        i.keep_for_absent_size = 1000;
        i.now_ms = 5000;
        let d = decide(&i);
        assert_eq!(d.dropped_absent, vec![7]);
    }
}
