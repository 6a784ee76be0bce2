//! A bounded transposition table of exact keys that several threads share
//! without locks, for the walks of one deal searched on several threads
//! (see [`super::workers`]).
//!
//! Each slot is a guard word and the key's words, all atomics. The guard
//! is a sequence lock, as chess engines' tables and crossbeam's `SeqLock`
//! use: a writer claims the slot by setting its low bit, writes the key,
//! then releases it with a new version number; a reader reads the guard,
//! the words, and the guard again, and believes the words only if the
//! guard was even and unchanged. So a key half overwritten by another
//! thread (a torn entry) is never taken for a position the search has
//! seen: it is read again, or taken for another position. Keys are stored
//! whole, so a hit is the same position; a key the table drops to make
//! room, or never stores because its slot was busy, is searched again,
//! which costs time and never a verdict.
//!
//! Beside "seen", a slot says whether the walk that stored it has finished
//! with it (every move from it tried), so that the walks can split the
//! work: one that meets a position another is still inside leaves it for
//! last (see [`Visit::Busy`]).

mod growth;
mod slots;
#[cfg(test)]
mod tests;
mod view;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock, RwLockReadGuard};

use super::table::PROBES;
use crate::key::TableKey;
use slots::{MAX_WORDS, Slots};
pub(super) use view::SharedView;

/// What a walk learns when it offers a position to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Visit {
    /// Not seen before; the table now holds it (or dropped another to try).
    Fresh,
    /// Seen, and the walk that stored it has tried every move from it.
    Seen,
    /// Seen, and some walk may still be trying its moves.
    Busy,
}

/// The first size of a table, in slots: small, so that an easy deal
/// touches little memory.
const FIRST_LEN: usize = 1 << 12;

/// What every look into the table reads, alone in a cache line: the
/// counts the walks write would take the line away from the others.
#[repr(align(64))]
#[derive(Default)]
struct Hot {
    /// Threads waiting to take the store for writing, or holding it. A
    /// count, not a flag: of two threads that wait at once, the first to
    /// be done would clear a flag while the other still waits, and the
    /// views would hold on.
    waiting: AtomicUsize,
    /// While a size is copied, the first slot of the old size not yet
    /// copied: how far the copy got (see [`SharedTable::copy`]).
    copied_to: AtomicUsize,
}

/// What the lock of a [`SharedTable`] holds.
struct Store<K: TableKey> {
    /// The size in use.
    slots: Slots<K>,
    /// The size before, while its keys are copied into `slots`.
    old: Option<Slots<K>>,
}

/// The table, shared by reference among the threads of one search.
///
/// It grows as the local [`super::Table`] does, at half load (three
/// quarters past a gigabyte), without stopping the threads that use it
/// (see [`growth`]). A thread looks into the table through a
/// [`SharedView`], which holds the store for reading; the store is taken
/// for writing, once every view has let go of it, only to put a new size
/// in place and to drop the old one.
pub(super) struct SharedTable<K: TableKey> {
    store: RwLock<Store<K>>,
    hot: Hot,
    /// Set while a thread copies a size.
    copying: AtomicBool,
    /// Set once the search has ended (see [`SharedTable::stop_growing`]).
    stopping: AtomicBool,
    /// Each view's count of its looks into an old size: odd while it
    /// looks (see [`SharedTable::settle`]).
    looks: Mutex<Vec<Arc<AtomicU64>>>,
    /// Slots of the size in use, read without the lock.
    len: AtomicUsize,
    /// Slots of the size in use filled, as the walks report them (see
    /// [`SharedView`]).
    filled: AtomicUsize,
    forgot: AtomicBool,
    /// Positions dropped to make room, as the walks report them.
    forgotten: AtomicUsize,
    /// The most bytes the table may take; raised as other searches give
    /// back their share (see [`SharedTable::raise_cap`]).
    cap: AtomicUsize,
}

impl<K: TableKey> SharedTable<K> {
    /// A table within `max_bytes` (but for a first size of at least 1024
    /// slots).
    pub(super) fn new(max_bytes: usize) -> SharedTable<K> {
        const {
            assert!(
                K::WORDS <= MAX_WORDS,
                "a key longer than the shared table takes"
            )
        };
        let fit = (max_bytes / Slots::<K>::SLOT_BYTES).max(1024);
        let first = FIRST_LEN.min(1 << fit.ilog2());
        let store = Store {
            slots: Slots::new(first),
            old: None,
        };
        SharedTable {
            store: RwLock::new(store),
            hot: Hot::default(),
            copying: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
            looks: Mutex::new(Vec::new()),
            len: AtomicUsize::new(first),
            filled: AtomicUsize::new(0),
            forgot: AtomicBool::new(false),
            forgotten: AtomicUsize::new(0),
            cap: AtomicUsize::new(max_bytes),
        }
    }

    /// Lets the table take `bytes` more.
    pub(super) fn raise_cap(&self, bytes: usize) {
        self.cap.fetch_add(bytes, Ordering::Relaxed);
    }

    fn read(&self) -> RwLockReadGuard<'_, Store<K>> {
        self.store.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `change` on the store once every view has let go of it (each
    /// does at its next look). The caller may hold no view: it would wait
    /// for itself.
    fn alone<R>(&self, change: impl FnOnce(&mut Store<K>) -> R) -> R {
        self.hot.waiting.fetch_add(1, Ordering::Relaxed);
        let mut store = self.store.write().unwrap_or_else(PoisonError::into_inner);
        let changed = change(&mut store);
        self.hot.waiting.fetch_sub(1, Ordering::Relaxed);
        changed
    }

    /// Whether a position was dropped for want of room.
    pub(super) fn has_forgotten(&self) -> bool {
        self.forgot.load(Ordering::Relaxed)
    }

    /// Forgets every position, keeping the size in use, for another search
    /// on the same memory. The caller may hold no view.
    pub(super) fn forget_all(&self) {
        self.alone(|store| {
            for slot in store.slots.all() {
                store.slots.guard(slot).store(0, Ordering::Relaxed);
            }
        });
        self.filled.store(0, Ordering::Relaxed);
        self.forgot.store(false, Ordering::Relaxed);
        self.forgotten.store(0, Ordering::Relaxed);
    }

    /// Says that the search has ended (decided, or stopped by the clock or
    /// Ctrl-C): a size being copied is left part copied, the rest of the
    /// old one forgotten, so that the copying thread, which reads no
    /// clock, does not hold the search's end back while the kernel hands
    /// it the new size's pages. Forgetting costs time, never a verdict.
    pub(super) fn stop_growing(&self) {
        self.stopping.store(true, Ordering::Relaxed);
    }

    /// Whether the table forgets for want of room, and often: no larger
    /// size fits in the cap, and it has dropped more positions than half
    /// its slots. (Its windows of slots fill up now and then while it
    /// still grows, and a search near its end may forget a few: neither is
    /// crowding, and two walks still gain.)
    pub(super) fn is_crowded(&self) -> bool {
        let len = self.len.load(Ordering::Relaxed);
        self.forgotten.load(Ordering::Relaxed) > len / 2 && self.next_len(len).is_none()
    }

    /// Bytes the size in use takes.
    pub(super) fn bytes(&self) -> usize {
        (self.len.load(Ordering::Relaxed) + PROBES - 1) * Slots::<K>::SLOT_BYTES
    }

    /// The most bytes the table may take now.
    pub(super) fn cap(&self) -> usize {
        self.cap.load(Ordering::Relaxed)
    }

    /// Positions the table holds, as far as the walks have told it.
    pub(super) fn len(&self) -> usize {
        self.filled.load(Ordering::Relaxed)
    }
}
