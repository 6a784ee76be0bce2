use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};

use super::slots::{Slots, WRITING};
use super::*;
use crate::search::SpareBitKey;

fn hash<K: TableKey>(key: K) -> u64 {
    key.table_hash()
}

/// Offers `keys` to `table` through a view of their own, marking
/// those `finished` picks as done; says whether each was fresh.
fn offer<K: TableKey>(
    table: &SharedTable<K>,
    keys: impl Iterator<Item = K>,
    finished: impl Fn(&K) -> bool,
) -> Vec<bool> {
    let mut view = SharedView::new(table);
    keys.map(|key| {
        let fresh = view.visit(key, hash(key)) == Visit::Fresh;
        if finished(&key) {
            view.finish(key, hash(key));
        }
        fresh
    })
    .collect()
}

/// What the size in use holds of `key`, without storing it.
fn find<K: TableKey>(table: &SharedTable<K>, key: K) -> Option<Visit> {
    table.read().slots.find(&key, hash(key))
}

#[test]
fn a_position_is_fresh_then_busy_then_seen() {
    let table = SharedTable::<[u64; 3]>::new(1 << 20);
    let mut view = SharedView::new(&table);
    let key = [1, 2, 3];
    assert_eq!(view.visit(key, hash(key)), Visit::Fresh);
    assert_eq!(view.visit(key, hash(key)), Visit::Busy);
    view.finish(key, hash(key));
    assert_eq!(view.visit(key, hash(key)), Visit::Seen);
    assert_eq!(view.visit([1, 2, 4], hash([1, 2, 4])), Visit::Fresh);
    assert!(!table.has_forgotten());
}

/// Grown from 4096 slots through several sizes, the table keeps every
/// key, and whether each was finished, and holds only the last size.
#[test]
fn growing_keeps_every_position_and_its_mark() {
    let table = SharedTable::<u64>::new(4 << 20);
    let fresh = offer(&table, 1..=60_000u64, |k| k % 3 == 0);
    assert!(fresh.iter().all(|&f| f));
    // 64 KiB, 256 KiB and 1 MiB fourfold; then no 4 MiB beside the
    // 1 MiB being copied: the 3 MiB left, less the slots after the
    // last home.
    assert_eq!(table.len.load(Ordering::Relaxed), (3 << 20) / 16 - PROBES);
    assert!(
        table.store.read().unwrap().old.is_none(),
        "the old size dropped"
    );
    assert!(!table.has_forgotten());
    assert_eq!(table.len(), 60_000);
    for k in 1..=60_000u64 {
        let kept = if k % 3 == 0 { Visit::Seen } else { Visit::Busy };
        assert_eq!(find(&table, k), Some(kept), "{k}");
    }
    assert!(table.bytes() <= 4 << 20);
}

/// Once the search has ended, a growth under way copies nothing more:
/// the old size's keys are forgotten, and the table says so (the walks
/// then guard their paths); the old size is dropped and the table goes
/// on answering. No growth starts after it.
#[test]
fn a_growth_once_the_search_ended_forgets_rather_than_copies() {
    let table = SharedTable::<u64>::new(4 << 20);
    offer(&table, 1..=1500u64, |_| true);
    assert_eq!(table.len.load(Ordering::Relaxed), FIRST_LEN);
    table.filled.store(FIRST_LEN, Ordering::Relaxed);
    assert!(table.start_growing());
    table.stop_growing();
    {
        let store = table.read();
        table.copy(&store);
    }
    table.end_growing();
    assert!(table.has_forgotten());
    assert!(table.len.load(Ordering::Relaxed) > FIRST_LEN);
    assert!(table.store.read().unwrap().old.is_none());
    assert_eq!(find(&table, 1), None);
    assert_eq!(offer(&table, [1].into_iter(), |_| true), [true]);
    table.filled.store(usize::MAX / 4, Ordering::Relaxed);
    assert!(!table.grows());
}

/// Sizes grow fourfold, and double from 256 MiB, while the size after
/// can grow again; else the last takes the room left, if that is a
/// quarter more, and none follows a size with less room than that. A
/// small size takes its own bytes out of the room while it is copied, a
/// large one four slices.
#[test]
fn sizes_grow_fourfold_then_double_then_take_the_room_left() {
    const MI: usize = 1 << 20;
    let table = SharedTable::<[u64; 3]>::new(MI);
    let next = |cap: usize, len: usize| {
        table.cap.store(cap, Ordering::Relaxed);
        table.next_len(len)
    };
    let fit = |room: usize| room / 32 - PROBES;
    assert_eq!(next(64 * MI, 4096), Some(16384));
    assert_eq!(next(64 * MI, MI / 4), Some(MI), "8 MiB to 32 MiB");
    assert_eq!(
        next(128 * MI, MI),
        Some(fit(120 * MI)),
        "no room after 128 MiB"
    );
    assert_eq!(next(200 * MI, MI), Some(4 * MI));
    assert_eq!(next(50 * MI, MI), Some(fit(42 * MI)));
    assert_eq!(next(48 * MI, MI), None, "not a quarter more");
    assert_eq!(next(2 * MI, 16384), Some(fit(2 * MI - MI / 2)));
    assert_eq!(next(MI, 16384), None);
    assert_eq!(next(4096 * MI, 4 * MI), Some(16 * MI), "128 MiB to 512 MiB");
    assert_eq!(next(4096 * MI, 8 * MI), Some(16 * MI), "256 MiB to 512 MiB");
    assert_eq!(next(4096 * MI, 16 * MI), Some(32 * MI), "512 MiB to 1 GiB");
}

/// A key with a spare bit takes one word a slot, which holds its mark
/// too: keys and marks survive growing, and a key read back never has
/// the mark in it.
#[test]
fn a_packed_slot_keeps_its_key_and_mark_in_one_word() {
    assert_eq!(Slots::<SpareBitKey<62>>::SLOT_BYTES, 8, "one word a slot");
    let key = |k: u64| SpareBitKey::<62>::new(k | 1 << 63);
    let table = SharedTable::new(4 << 20);
    let keys = 150_000u64;
    let fresh = offer(&table, (1..=keys).map(key), |k| k.word(0) % 3 == 0);
    assert!(fresh.iter().all(|&f| f));
    // 32 KiB, 128 KiB and 512 KiB; then, as 2 MiB could not grow
    // again, the 3.5 MiB left beside 512 KiB being copied: within the
    // cap of `growing_keeps_every_position_and_its_mark`, 2.3 times
    // the slots.
    let len = (7 << 19) / 8 - PROBES;
    assert_eq!(table.len.load(Ordering::Relaxed), len);
    assert_eq!(table.bytes(), (len + PROBES - 1) * 8);
    for k in 1..=keys {
        let kept = match key(k).word(0) % 3 {
            0 => Visit::Seen,
            _ => Visit::Busy,
        };
        assert_eq!(find(&table, key(k)), Some(kept), "{k}");
    }
    let store = table.read();
    let entries = store.slots.all().filter_map(|slot| store.slots.entry(slot));
    assert!(
        entries
            .clone()
            .all(|(k, _)| k.word(0) & 1 << 62 == 0 && k.word(0) >> 63 == 1)
    );
    let done = |&(_, guard): &(SpareBitKey<62>, u64)| Slots::<SpareBitKey<62>>::is_done(guard);
    assert_eq!(entries.filter(done).count(), keys as usize / 3);
}

/// A table of 1024 slots given 50,000 keys forgets most, and says so,
/// but never takes a key it was not given for one it was.
#[test]
fn a_full_table_forgets_and_never_lies() {
    let table = SharedTable::<u64>::new(0);
    assert_eq!(table.len.load(Ordering::Relaxed), 1024);
    offer(&table, (1..=50_000u64).map(|k| k * 2), |_| false);
    assert!(table.has_forgotten());
    let mut kept = 0;
    for k in 1..=50_000u64 {
        assert_eq!(find(&table, k * 2 + 1), None);
        kept += find(&table, k * 2).is_some() as usize;
    }
    assert!(kept > 0 && kept < 1024 + PROBES, "{kept}");
}

/// The slots of whole pages given back read as empty; the others keep
/// their keys, and a second call with the same bound gives nothing.
#[cfg(target_os = "linux")]
#[test]
fn slots_given_back_read_as_empty() {
    let slots = Slots::<u64>::new(1 << 20);
    let forgot = AtomicBool::new(false);
    for k in 1..=(1u64 << 20) {
        slots.visit(&k, hash(k), false, &forgot);
    }
    let full =
        |range: std::ops::Range<usize>| range.filter(|&slot| slots.entry(slot).is_some()).count();
    let base = slots.words.as_ptr() as usize;
    let from = (base.next_multiple_of(2 << 20) - base) / 16;
    let below = 600_000;
    let (before, after) = (full(0..from), full(below..slots.all().end));
    let given = slots.release(0, below);
    let to = given / 16;
    assert!(to > from + (4 << 20) / 16, "two whole pages at least");
    assert!(to <= below);
    assert_eq!(full(from..to), 0);
    assert_eq!(
        (full(0..from), full(below..slots.all().end)),
        (before, after)
    );
    assert_eq!(slots.release(given, below), given, "nothing more to give");
}

/// A size filled while another thread held the right to grow it (as
/// when the thread copying into it is put to sleep) still grows once
/// that thread is done, as the walks tell it of the positions they
/// drop.
#[test]
fn a_size_filled_while_another_thread_grows_still_grows() {
    let table = SharedTable::<u64>::new(1 << 26);
    table.copying.store(true, Ordering::Relaxed);
    offer(&table, 1..=40_000, |_| false);
    let full = |table: &SharedTable<u64>| {
        let store = table.read();
        store
            .slots
            .all()
            .all(|slot| store.slots.entry(slot).is_some())
    };
    assert!(full(&table), "full");
    assert_eq!(table.len.load(Ordering::Relaxed), FIRST_LEN, "held");
    table.copying.store(false, Ordering::Relaxed);
    // One walk goes on, in a turn that does not end (a view told the
    // table at its end, too).
    let mut view = SharedView::new(&table);
    for k in 40_001..=50_000 {
        view.visit(k, hash(k));
    }
    assert!(table.len.load(Ordering::Relaxed) > FIRST_LEN, "grown");
}

/// A thread that holds a view while it waits on another, as one
/// waiting for the other's children in a shared best-first search,
/// lets the other grow the table, if it waits in `SharedView::wait`.
#[test]
fn a_view_that_waits_lets_the_table_grow() {
    let table: &'static SharedTable<u64> = Box::leak(Box::new(SharedTable::new(1 << 26)));
    let grown = Arc::new(AtomicBool::new(false));
    let waiter = std::thread::spawn({
        let grown = Arc::clone(&grown);
        move || {
            let mut view = SharedView::new(table);
            let start = std::time::Instant::now();
            while !grown.load(Ordering::Relaxed) && start.elapsed().as_secs() < 60 {
                view.wait();
                std::thread::yield_now();
            }
        }
    });
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        offer(table, 1..=100_000, |_| false);
        let _ = sender.send(table.len.load(Ordering::Relaxed));
    });
    let len = receiver.recv_timeout(std::time::Duration::from_secs(30));
    grown.store(true, Ordering::Relaxed);
    waiter.join().unwrap();
    assert!(len.is_ok_and(|len| len >= 1 << 18), "{len:?}");
}

/// A table is crowded once it can grow no more and has dropped more
/// positions than half its slots: not at its first drops, and never
/// while a larger size fits.
#[test]
fn a_table_is_crowded_once_it_forgets_often() {
    let small = SharedTable::<u64>::new(1 << 16);
    let mut k = 1;
    while !small.has_forgotten() {
        offer(&small, k..k + 1, |_| false);
        k += 1;
    }
    assert!(!small.is_crowded(), "dropped one position at {k}");
    offer(&small, k..k + 50_000, |_| false);
    assert!(small.is_crowded());

    let roomy = SharedTable::<u64>::new(1 << 30);
    offer(&roomy, 1..200_000, |_| false);
    assert!(!roomy.is_crowded());
}

/// Two threads offering the same keys at once, the table growing
/// under them: each key is fresh to one of them, or to both when one
/// stored it in the old size as the copy passed, or gave up waiting on
/// a writer put to sleep (or the table dropped it), never to neither.
#[test]
fn no_position_is_stale_to_both_threads() {
    stale_to_neither(|k| [k, k.wrapping_mul(31)]);
    stale_to_neither(|k| SpareBitKey::<62>::new(k.wrapping_mul(31) & !(1 << 62) | 1 << 63));
}

fn stale_to_neither<K: TableKey + Send + Sync>(key_of: impl Fn(u64) -> K + Sync) {
    let table = SharedTable::<K>::new(64 << 20);
    let start = Barrier::new(2);
    let fresh: Vec<Vec<bool>> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    offer(&table, (1..=300_000u64).map(&key_of), |_| false)
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert!(table.len.load(Ordering::Relaxed) >= FIRST_LEN << 6, "grown");
    let neither = (0..300_000).filter(|&k| !fresh[0][k] && !fresh[1][k]);
    assert_eq!(neither.count(), 0);
}

/// Two threads claim one empty slot at once, again and again: each
/// time exactly one of them writes it.
#[test]
fn one_thread_claims_a_slot() {
    let slots = Slots::<u64>::new(10);
    let (start, end) = (Barrier::new(2), Barrier::new(2));
    let claims: Vec<Vec<bool>> = std::thread::scope(|s| {
        let threads: Vec<_> = (1..=2u64)
            .map(|me| {
                let (slots, start, end) = (&slots, &start, &end);
                s.spawn(move || {
                    (0..20_000)
                        .map(|_| {
                            start.wait();
                            let claimed = slots.write(0, 0, &me, false);
                            end.wait();
                            if me == 1 {
                                slots.guard(0).store(0, Ordering::Relaxed);
                            }
                            claimed
                        })
                        .collect()
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let rounds = claims[0].iter().zip(&claims[1]);
    assert!(rounds.map(|(&a, &b)| a as u32 + b as u32).all(|n| n == 1));
}

/// A writer keeps overwriting one slot with keys whose seven words are
/// alike, while a reader reads it: every key it believes must have
/// seven equal words, as no other was ever stored. Without the check
/// of the guard, a read half-way through a write mixes two keys.
#[test]
fn a_torn_entry_is_never_taken_for_a_position() {
    let slots = Slots::<[u64; 7]>::new(10);
    let (stop, writes) = (AtomicBool::new(false), AtomicUsize::new(0));
    let torn = std::thread::scope(|s| {
        s.spawn(|| {
            let mut k = 1u64;
            while !stop.load(Ordering::Relaxed) {
                let guard = slots.guard(0).load(Ordering::Relaxed);
                if guard & WRITING == 0 {
                    slots.write(0, guard, &[k % 4 + 1; 7], false);
                }
                k += 1;
                writes.fetch_add(1, Ordering::Relaxed);
            }
        });
        let mut reads = 0;
        let torn = loop {
            if let Ok((words, _)) = slots.snapshot(0)
                && words[..7].iter().any(|&w| w != words[0])
            {
                break Some(words);
            }
            reads += 1;
            if reads >= 5_000_000 && writes.load(Ordering::Relaxed) >= 5_000_000 {
                break None;
            }
        };
        stop.store(true, Ordering::Relaxed);
        torn
    });
    assert_eq!(torn, None, "a torn slot was believed");
}
