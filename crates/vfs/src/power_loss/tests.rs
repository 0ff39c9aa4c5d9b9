use super::*;
use crate::{create_dir_all, remove_file, rename, sync_dir, write_atomic, File};
use std::fs;

fn setup() -> (tempfile::TempDir, PathBuf, PowerLoss) {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("node");
    fs::create_dir(&root).unwrap();
    let pl = PowerLoss::install(&root).unwrap();
    (base, root, pl)
}

#[test]
fn unsynced_writes_are_lost_and_synced_ones_kept() {
    let (_b, root, pl) = setup();
    let p = root.join("f");
    let f = File::create(&p).unwrap();
    sync_dir(&root).unwrap();
    f.write_all_at(b"durable", 0).unwrap();
    f.sync(SyncPoint::GcacheAppend, true).unwrap();
    f.write_all_at(b"-lost", 7).unwrap();
    f.write_all_at(b"X", 0).unwrap();
    assert_eq!(
        fs::read(&p).unwrap(),
        b"Xurable-lost",
        "writes reach the file at once"
    );
    assert_eq!(pl.pending().writes, vec![(p.clone(), 2)]);
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"durable");
    assert_eq!(pl.pending(), Pending::default());
}

#[test]
fn a_random_cut_keeps_a_prefix_of_the_writes() {
    let mut kept = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let (_b, root, pl) = setup();
        let p = root.join("log");
        fs::write(&p, b"head").unwrap();
        let f = File::open(&p).unwrap();
        let mut full = b"head".to_vec();
        for k in 0..5u8 {
            let rec = [b'a' + k; 6];
            f.write_all_at(&rec, full.len() as u64).unwrap();
            full.extend_from_slice(&rec);
        }
        pl.cut(Cut::RandomPrefix(seed)).unwrap();
        let got = fs::read(&p).unwrap();
        assert!(
            full.starts_with(&got) && got.len() >= 4,
            "seed {seed}: {got:?}"
        );
        kept.insert(got.len());
    }
    assert!(kept.len() > 3, "cuts keep different prefixes: {kept:?}");
}

#[test]
fn truncation_and_overwrite_are_taken_back() {
    let (_b, root, pl) = setup();
    let p = root.join("f");
    fs::write(&p, b"0123456789").unwrap();
    let f = File::open(&p).unwrap();
    f.set_len(4).unwrap();
    f.write_all_at(b"abcdefgh", 2).unwrap();
    f.set_len(20).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"0123456789");
}

#[test]
fn creations_renames_and_removals_need_a_directory_sync() {
    let (_b, root, pl) = setup();
    fs::write(root.join("old"), b"old").unwrap();
    fs::write(root.join("gone"), b"gone").unwrap();
    let f = File::create(&root.join("new")).unwrap();
    f.write_all_at(b"new", 0).unwrap();
    f.sync(SyncPoint::RaftState, false).unwrap();
    rename(&root.join("new"), &root.join("old")).unwrap();
    remove_file(&root.join("gone")).unwrap();
    assert!(!root.join("gone").exists());
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(fs::read(root.join("old")).unwrap(), b"old", "rename undone");
    assert_eq!(
        fs::read(root.join("gone")).unwrap(),
        b"gone",
        "removal undone"
    );
    assert!(!root.join("new").exists(), "creation undone");

    let f = File::create(&root.join("new")).unwrap();
    f.write_all_at(b"new", 0).unwrap();
    f.sync(SyncPoint::RaftState, false).unwrap();
    rename(&root.join("new"), &root.join("old")).unwrap();
    remove_file(&root.join("gone")).unwrap();
    sync_dir(&root).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(fs::read(root.join("old")).unwrap(), b"new");
    assert!(!root.join("gone").exists() && !root.join("new").exists());
}

#[test]
fn new_directories_are_durable() {
    let (_b, root, pl) = setup();
    create_dir_all(&root.join("a/b")).unwrap();
    let f = File::create(&root.join("a/b/f")).unwrap();
    f.sync(SyncPoint::GcacheAppend, true).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert!(root.join("a/b").is_dir());
    assert!(!root.join("a/b/f").exists(), "its entry was never synced");
}

#[test]
fn write_atomic_survives_a_cut_unless_one_of_its_fsyncs_is_removed() {
    let (_b, root, pl) = setup();
    let p = root.join("state");
    write_atomic(&p, b"one", SyncPoint::RaftState).unwrap();
    write_atomic(&p, b"two", SyncPoint::RaftState).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"two");

    pl.skip_sync(SyncPoint::Dir);
    write_atomic(&p, b"three", SyncPoint::RaftState).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"two", "without the directory fsync");

    let (_b, root, pl) = setup();
    let p = root.join("state");
    write_atomic(&p, b"one", SyncPoint::RaftState).unwrap();
    pl.skip_sync(SyncPoint::RaftState);
    write_atomic(&p, b"two", SyncPoint::RaftState).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(
        fs::read(&p).unwrap(),
        b"",
        "renamed into place, but never written"
    );
}

#[test]
fn handles_from_before_a_cut_are_dead() {
    let (_b, root, pl) = setup();
    let p = root.join("f");
    fs::write(&p, b"x").unwrap();
    let old = File::open(&p).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert!(old.write_all_at(b"y", 0).is_err());
    assert!(old.sync(SyncPoint::GcacheAppend, true).is_err());
    assert!(old.set_len(0).is_err());
    let new = File::open(&p).unwrap();
    new.write_all_at(b"z", 0).unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"z");
}

#[test]
fn outside_a_root_it_is_std_fs() {
    let (b, _root, pl) = setup();
    let p = b.path().join("elsewhere");
    let f = File::create(&p).unwrap();
    f.write_all_at(b"kept", 0).unwrap();
    f.sync(SyncPoint::GcacheAppend, true).unwrap();
    pl.cut(Cut::Everything).unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"kept");
    assert!(!installed(&p));
    drop(pl);
    assert!(!installed(&b.path().join("node/x")));
}
