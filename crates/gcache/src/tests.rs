use super::*;

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
        sync: true,
        memory_bytes: 64,
    }
}

fn fill(g: &mut Gcache, lo: u64, hi: u64, term: u64) {
    let v: Vec<LogEntry> = (lo..=hi)
        .map(|i| e(i, term, &format!("entry-{i}")))
        .collect();
    g.append(&v).unwrap();
    g.sync().unwrap();
}

#[test]
fn round_trip_across_segments_and_reopen() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = Gcache::open(d.path(), opts()).unwrap();
    assert_eq!((g.first_index(), g.last_index()), (1, 0));
    fill(&mut g, 1, 40, 1);
    assert!(g.segments().len() > 3);
    let all = g.entries(1, 41, None).unwrap();
    assert_eq!(all.len(), 40);
    assert_eq!(all[9], e(10, 1, "entry-10"));
    assert_eq!(g.entries(1, 41, Some(70)).unwrap().len(), 2);
    assert_eq!(g.entries(5, 6, Some(1)).unwrap().len(), 1);
    assert!(g.appended_at(3).is_some());
    drop(g);
    let (g, rec) = Gcache::open(d.path(), opts()).unwrap();
    assert_eq!(rec.entries, 40);
    assert_eq!(rec.truncated_bytes, 0);
    assert_eq!(g.entries(1, 41, None).unwrap(), all);
    assert!(matches!(
        g.entries(1, 42, None),
        Err(GcacheError::Unavailable { .. })
    ));
}

#[test]
fn conflicting_appends_replace_the_suffix() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = Gcache::open(d.path(), opts()).unwrap();
    fill(&mut g, 1, 30, 1);
    // Inside the last segment, then across segment boundaries.
    fill(&mut g, 29, 31, 2);
    assert_eq!(g.term(28).unwrap(), 1);
    assert_eq!(g.term(29).unwrap(), 2);
    fill(&mut g, 5, 6, 3);
    assert_eq!(g.last_index(), 6);
    assert_eq!(g.term(5).unwrap(), 3);
    fill(&mut g, 7, 20, 3);
    drop(g);
    let (g, _) = Gcache::open(d.path(), opts()).unwrap();
    assert_eq!(g.last_index(), 20);
    assert_eq!(g.entries(4, 6, None).unwrap()[1], e(5, 3, "entry-5"));
    assert!(matches!(
        Gcache::open(d.path(), opts()).map(|(mut g, _)| g.append(&[e(30, 3, "x")])),
        Ok(Err(GcacheError::Gap { .. }))
    ));
}

fn last_segment(dir: &Path) -> PathBuf {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "seg"))
        .collect();
    v.sort();
    v.pop().unwrap()
}

#[test]
fn a_torn_tail_is_cut_and_middle_damage_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = Gcache::open(d.path(), opts()).unwrap();
    fill(&mut g, 1, 30, 1);
    drop(g);
    let seg = last_segment(d.path());
    let len = fs::metadata(&seg).unwrap().len();
    let f = OpenOptions::new().write(true).open(&seg).unwrap();
    f.set_len(len - 3).unwrap();
    let (mut g, rec) = Gcache::open(d.path(), opts()).unwrap();
    assert_eq!(g.last_index(), 29);
    assert!(rec.truncated_bytes > 0);
    fill(&mut g, 30, 31, 1);
    drop(g);
    // Flip a byte in the first segment: the middle of the log is damaged.
    let first = d.path().join(format!("{:020}.seg", 1));
    let mut b = fs::read(&first).unwrap();
    b[20] ^= 0xff;
    fs::write(&first, b).unwrap();
    assert!(matches!(
        Gcache::open(d.path(), opts()),
        Err(GcacheError::Corrupt { .. })
    ));
}

#[test]
fn purge_and_reset_move_the_compaction_point() {
    let d = tempfile::tempdir().unwrap();
    let (mut g, _) = Gcache::open(d.path(), opts()).unwrap();
    fill(&mut g, 1, 40, 1);
    let segs = g.segments();
    let first = g.purge_through(segs[1].last).unwrap();
    assert_eq!(first, segs[2].first);
    assert_eq!(g.compacted(), (segs[1].last, 1));
    assert_eq!(g.term(segs[1].last).unwrap(), 1);
    assert!(matches!(
        g.entries(1, 3, None),
        Err(GcacheError::Compacted { .. })
    ));
    // The newest segment is never purged.
    g.purge_through(1000).unwrap();
    assert_eq!(g.segments().len(), 1);
    assert_eq!(g.last_index(), 40);
    drop(g);
    let (mut g, _) = Gcache::open(d.path(), opts()).unwrap();
    assert_eq!(g.last_index(), 40);
    g.reset_to(100, 7).unwrap();
    assert_eq!(
        (g.first_index(), g.last_index(), g.term(100).unwrap()),
        (101, 100, 7)
    );
    fill(&mut g, 101, 105, 8);
    drop(g);
    let (g, _) = Gcache::open(d.path(), opts()).unwrap();
    assert_eq!(g.entries(101, 106, None).unwrap().len(), 5);
}
