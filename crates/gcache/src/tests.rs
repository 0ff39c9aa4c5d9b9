//! Tests of the gcache on disk: round trips, conflicts, recovery, purge and reset.

use super::*;
use std::fs::{self, OpenOptions};
use std::path::Path;

fn e(index: u64, term: u64, data: &str) -> LogEntry {
    LogEntry {
        index,
        term,
        kind: EntryKind::Normal,
        data: data.as_bytes().to_vec(),
        context: vec![],
    }
}

fn opts() -> GcacheOptions {
    GcacheOptions {
        segment_bytes: 200,
        sync: false,
        memory_bytes: 64,
    }
}

fn open(dir: &Path) -> (Gcache, Recovery) {
    Gcache::open(dir, opts()).unwrap()
}

fn fill(g: &mut Gcache, lo: u64, hi: u64, term: u64) {
    let v: Vec<LogEntry> = (lo..=hi)
        .map(|i| e(i, term, &format!("entry-{i}")))
        .collect();
    g.append(&v).unwrap();
    g.sync().unwrap();
}

fn seg_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "seg"))
        .collect();
    v.sort();
    v
}

fn check_all(g: &Gcache, term_of: impl Fn(u64) -> u64) {
    let all = g
        .entries(g.first_index(), g.last_index() + 1, None)
        .unwrap();
    assert_eq!(all.len() as u64, g.last_index() + 1 - g.first_index());
    for x in all {
        assert_eq!(
            x,
            e(x.index, term_of(x.index), &format!("entry-{}", x.index))
        );
        assert_eq!(g.term(x.index).unwrap(), term_of(x.index));
    }
}

#[test]
fn gcache_is_send_and_sync() {
    fn assert<T: Send + Sync>() {}
    assert::<Gcache>();
}

#[test]
fn round_trip_across_segments_and_reopen() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, rec) = Gcache::open(
        d.path(),
        GcacheOptions {
            sync: true,
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(rec.segments, 0);
    assert_eq!(
        (g.first_index(), g.last_index(), g.compacted()),
        (1, 0, (0, 0))
    );
    assert_eq!(g.term(0).unwrap(), 0);
    fill(&mut g, 1, 40, 1);
    let mut conf = e(41, 2, "entry-41");
    conf.kind = EntryKind::ConfChangeV2;
    conf.context = b"ctx".to_vec();
    g.append(std::slice::from_ref(&conf)).unwrap();
    let segs = g.segments();
    assert!(segs.len() > 3);
    for w in segs.windows(2) {
        assert_eq!(w[0].last + 1, w[1].first);
    }
    assert_eq!(segs.iter().map(|s| s.bytes).sum::<u64>(), g.bytes());
    assert_eq!(
        g.bytes(),
        seg_files(d.path())
            .iter()
            .map(|p| fs::metadata(p).unwrap().len())
            .sum()
    );
    // The cache holds only the newest few; older entries come from the files.
    assert!(g.cache.len() < 10);
    let all = g.entries(1, 42, None).unwrap();
    assert_eq!(all.len(), 41);
    assert_eq!(all[9], e(10, 1, "entry-10"));
    assert_eq!(all[40], conf);
    assert!(matches!(g.term(42), Err(GcacheError::Unavailable { .. })));
    drop(g);
    let (g, rec) = open(d.path());
    assert_eq!((rec.entries, rec.truncated_bytes), (41, 0));
    assert_eq!(rec.segments, segs.len());
    assert_eq!(g.segments(), segs);
    assert_eq!(g.entries(1, 42, None).unwrap(), all);
    assert!(matches!(
        g.entries(1, 43, None),
        Err(GcacheError::Unavailable { .. })
    ));
}

#[test]
fn entries_respects_max_bytes_but_returns_at_least_one() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 20, 1);
    // "entry-N" is 7 bytes, counted as 31 with the fixed 24.
    assert_eq!(g.entries(1, 21, Some(62)).unwrap().len(), 2);
    assert_eq!(g.entries(1, 21, Some(61)).unwrap().len(), 1);
    assert_eq!(g.entries(5, 6, Some(1)).unwrap().len(), 1);
    assert_eq!(g.entries(18, 21, Some(0)).unwrap().len(), 1);
    assert!(g.entries(5, 5, None).unwrap().is_empty());
}

#[test]
fn appended_at_is_recorded_and_survives_reopen() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    let before = segment::now_ms();
    fill(&mut g, 1, 10, 1);
    let at = g.appended_at(3).unwrap();
    assert!(at >= before && at <= segment::now_ms());
    assert_eq!(g.appended_at(11), None);
    assert_eq!(g.appended_at(0), None);
    let s = &g.segments()[0];
    assert!(s.oldest_ms >= before && s.newest_ms >= s.oldest_ms);
    drop(g);
    let (g, _) = open(d.path());
    assert_eq!(g.appended_at(3), Some(at));
}

#[test]
fn a_conflict_inside_a_segment_replaces_the_suffix() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 30, 1);
    // The middle of the newest segment holding at least three entries.
    let seg = g
        .segments()
        .into_iter()
        .rev()
        .find(|s| s.last >= s.first + 2)
        .unwrap();
    let c = seg.first + 1;
    let files = seg_files(d.path()).len();
    fill(&mut g, c, c + 1, 2);
    let t = |i| if i >= c { 2 } else { 1 };
    check_all(&g, t);
    assert_eq!(g.last_index(), c + 1);
    assert_eq!(g.segments().last().unwrap().first, seg.first);
    assert!(seg_files(d.path()).len() <= files);
    drop(g);
    let (g, _) = open(d.path());
    check_all(&g, t);
}

#[test]
fn a_conflict_across_segment_boundaries_removes_later_segments() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 40, 1);
    let segs = g.segments();
    // Exactly at the first index of the second segment: that file goes too.
    let b = segs[1].first;
    fill(&mut g, b, b, 3);
    assert_eq!(g.last_index(), b);
    assert_eq!(g.segments().len(), 2);
    assert_eq!(seg_files(d.path()).len(), 2);
    fill(&mut g, b + 1, 35, 3);
    let t = |i| if i >= b { 3 } else { 1 };
    check_all(&g, t);
    // In the middle of the first segment.
    fill(&mut g, 3, 4, 4);
    assert_eq!(g.last_index(), 4);
    assert_eq!(seg_files(d.path()).len(), 1);
    let t = |i| if i >= 3 { 4 } else { 1 };
    check_all(&g, t);
    drop(g);
    let (mut g, _) = open(d.path());
    check_all(&g, t);
    assert!(matches!(
        g.append(&[e(30, 4, "x")]),
        Err(GcacheError::Gap { .. })
    ));
    assert!(matches!(
        g.append(&[e(5, 4, "x"), e(7, 4, "y")]),
        Err(GcacheError::NotConsecutive { .. })
    ));
    assert_eq!(g.last_index(), 4);
}

#[test]
fn a_torn_tail_is_cut_on_open() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 30, 1);
    drop(g);
    let seg = seg_files(d.path()).pop().unwrap();
    let len = fs::metadata(&seg).unwrap().len();
    OpenOptions::new()
        .write(true)
        .open(&seg)
        .unwrap()
        .set_len(len - 3)
        .unwrap();
    let (mut g, rec) = open(d.path());
    assert_eq!(g.last_index(), 29);
    assert!(rec.truncated_bytes > 0);
    assert_eq!(
        fs::metadata(&seg).unwrap().len(),
        len - rec.truncated_bytes - 3
    );
    fill(&mut g, 30, 31, 1);
    drop(g);
    let (g, rec) = open(d.path());
    assert_eq!((g.last_index(), rec.truncated_bytes), (31, 0));
    check_all(&g, |_| 1);
}

#[test]
fn a_flipped_byte_in_the_last_record_is_cut_on_open() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 30, 1);
    drop(g);
    let seg = seg_files(d.path()).pop().unwrap();
    let mut b = fs::read(&seg).unwrap();
    let n = b.len();
    b[n - 2] ^= 0x55;
    fs::write(&seg, b).unwrap();
    let (g, rec) = open(d.path());
    assert_eq!(g.last_index(), 29);
    assert!(rec.truncated_bytes > 0);
    check_all(&g, |_| 1);
}

#[test]
fn a_torn_header_of_a_new_last_segment_is_removed() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 10, 1);
    drop(g);
    let stray = segment::segment_path(d.path(), 11);
    fs::write(&stray, b"TG").unwrap();
    let (mut g, rec) = open(d.path());
    assert_eq!((g.last_index(), rec.truncated_bytes), (10, 2));
    assert!(!stray.exists());
    fill(&mut g, 11, 12, 1);
    // An empty (header only) trailing segment is fine.
    drop(g);
    fs::write(segment::segment_path(d.path(), 13), record::HEADER).unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 13, 14, 1);
    drop(g);
    check_all(&open(d.path()).0, |_| 1);
}

#[test]
fn damage_in_the_middle_of_the_log_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 30, 1);
    drop(g);
    let files = seg_files(d.path());
    // A flipped byte in the first segment.
    let mut b = fs::read(&files[0]).unwrap();
    b[20] ^= 0xff;
    fs::write(&files[0], &b).unwrap();
    assert!(matches!(
        Gcache::open(d.path(), opts()),
        Err(GcacheError::Corrupt { .. })
    ));
    b[20] ^= 0xff;
    // A bad header.
    let mut h = b.clone();
    h[0] = b'X';
    fs::write(&files[0], &h).unwrap();
    assert!(matches!(
        Gcache::open(d.path(), opts()),
        Err(GcacheError::Corrupt { offset: 0, .. })
    ));
    // A torn record at the end of a segment that is not the last.
    fs::write(&files[0], &b[..b.len() - 1]).unwrap();
    assert!(matches!(
        Gcache::open(d.path(), opts()),
        Err(GcacheError::Corrupt { .. })
    ));
    fs::write(&files[0], &b).unwrap();
    assert!(Gcache::open(d.path(), opts()).is_ok());
    // A missing middle segment (a gap).
    fs::remove_file(&files[1]).unwrap();
    let err = Gcache::open(d.path(), opts()).err().unwrap();
    assert!(err.to_string().contains("gap"), "{err}");
}

#[test]
fn purge_removes_only_whole_old_segments() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 40, 1);
    fill(&mut g, 41, 45, 2);
    let segs = g.segments();
    // Inside the second segment: only the first goes.
    assert_eq!(g.purge_through(segs[1].last - 1).unwrap(), segs[1].first);
    let first = g.purge_through(segs[1].last).unwrap();
    assert_eq!(first, segs[2].first);
    assert_eq!(g.first_index(), first);
    assert_eq!(g.compacted(), (segs[1].last, 1));
    assert_eq!(g.term(segs[1].last).unwrap(), 1);
    assert_eq!(seg_files(d.path()).len(), segs.len() - 2);
    assert_eq!(g.segments(), segs[2..].to_vec());
    assert!(matches!(
        g.entries(1, 3, None),
        Err(GcacheError::Compacted { .. })
    ));
    assert!(matches!(
        g.term(segs[1].last - 1),
        Err(GcacheError::Compacted { .. })
    ));
    check_all(&g, |i| if i > 40 { 2 } else { 1 });
    // The newest segment is never purged.
    g.purge_through(1000).unwrap();
    assert_eq!(g.segments().len(), 1);
    assert_eq!(g.last_index(), 45);
    assert_eq!(g.term(g.compacted().0).unwrap(), g.compacted().1);
    fill(&mut g, 46, 50, 2);
    drop(g);
    let (g, rec) = open(d.path());
    assert_eq!(rec.entries, 50 - g.compacted().0);
    check_all(&g, |i| if i > 40 { 2 } else { 1 });
}

#[test]
fn a_purge_interrupted_after_its_meta_write_is_finished_on_open() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 40, 1);
    let segs = g.segments();
    drop(g);
    segment::write_meta(d.path(), (segs[1].last, 1)).unwrap();
    let (g, rec) = open(d.path());
    assert_eq!(rec.segments, segs.len() - 2);
    assert_eq!(g.first_index(), segs[2].first);
    assert_eq!(seg_files(d.path()).len(), segs.len() - 2);
    check_all(&g, |_| 1);
}

#[test]
fn reset_to_drops_everything_and_the_log_continues_after_it() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    fill(&mut g, 1, 40, 1);
    g.reset_to(100, 7).unwrap();
    assert_eq!(
        (g.first_index(), g.last_index(), g.term(100).unwrap()),
        (101, 100, 7)
    );
    assert!(seg_files(d.path()).is_empty());
    assert_eq!(g.bytes(), 0);
    assert!(matches!(
        g.append(&[e(102, 8, "x")]),
        Err(GcacheError::Gap { .. })
    ));
    assert!(matches!(
        g.append(&[e(100, 8, "x")]),
        Err(GcacheError::Gap { .. })
    ));
    fill(&mut g, 101, 130, 8);
    assert_eq!(seg_files(d.path())[0], segment::segment_path(d.path(), 101));
    drop(g);
    let (mut g, _) = open(d.path());
    assert_eq!(g.compacted(), (100, 7));
    check_all(&g, |_| 8);
    // A conflict right at the first entry after the compaction point.
    fill(&mut g, 101, 101, 9);
    assert_eq!(g.last_index(), 101);
    drop(g);
    let (g, _) = open(d.path());
    check_all(&g, |_| 9);
}

#[test]
fn a_damaged_meta_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = open(d.path());
    g.reset_to(5, 1).unwrap();
    drop(g);
    let meta = d.path().join("meta");
    let mut b = fs::read(&meta).unwrap();
    b[0] ^= 1;
    fs::write(&meta, b).unwrap();
    assert!(matches!(
        Gcache::open(d.path(), opts()),
        Err(GcacheError::Corrupt { .. })
    ));
}
