//! A bounded transposition table of exact keys that several threads share
//! without locks, for the walks of one deal searched on several threads
//! (see [`super::solve_parallel`]).
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

use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering, fence};
use std::sync::{Arc, Mutex, PoisonError, RwLock, RwLockReadGuard};

use super::table::{PROBES, home_among, prefetch_slot};
use crate::key::TableKey;

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

/// A guard with this bit set: a writer holds the slot.
const WRITING: u64 = 1;
/// A guard with this bit set: the walk that stored the key finished it.
const DONE: u64 = 2;
/// Versions count up from here; an empty slot's guard is 0.
const VERSION: u64 = 4;

/// How often a reader reads a slot again when a writer holds it, before
/// it lets other threads run between reads, and how often it does that
/// before it takes the slot for another position's. Writers hold a slot
/// for a few stores, but a writer's thread can be put to sleep while it
/// does: a reader that gave up at once then stores the same position
/// elsewhere, and both search it (in the test below, with the other tests
/// running, one key in ten, against none with the yields).
const SPINS: u32 = 64;
const YIELDS: u32 = 64;

/// One size of the table: slot `i` is `words[i * STRIDE]`, its guard,
/// then the key's words; or, packed, the key's one word with its mark.
struct Slots<K: TableKey> {
    words: Box<[AtomicU64]>,
    /// The slots a key's home may be: a power of two but for the last
    /// size, which takes what room is left (see [`SharedTable::next_len`]).
    /// `PROBES - 1` more follow, so that a key's window of slots never
    /// wraps around.
    len: usize,
    key: PhantomData<K>,
}

/// One read of a slot.
enum Read {
    Empty,
    /// The key, with the guard it was read under.
    Same(u64),
    Other,
    /// A writer held it, or it changed while it was read.
    Torn,
}

impl<K: TableKey> Slots<K> {
    /// The bit of a slot's one word that says done, where the key is one
    /// word with a bit to spare ([`TableKey::SPARE_BIT`]): the slot is then
    /// that word alone, the key and the mark, read and written whole, and
    /// needs no guard. (All in a Row's slots take half the memory so; its
    /// hard deals fault in and wait on half as many pages.)
    const PACKED: Option<u64> = match (K::WORDS, K::SPARE_BIT) {
        (1, Some(bit)) => Some(bit),
        _ => None,
    };

    /// The bit of a guard, or of a packed slot, that says done.
    const DONE_BIT: u64 = match Self::PACKED {
        Some(bit) => bit,
        None => DONE,
    };

    /// Words a slot takes: the guard and the key's, or the packed word.
    const STRIDE: usize = match Self::PACKED {
        Some(_) => 1,
        None => K::WORDS + 1,
    };

    /// Bytes a slot takes, for the cap.
    const SLOT_BYTES: usize = Self::STRIDE * size_of::<AtomicU64>();

    /// Slots copied at a time when the table grows (see
    /// [`SharedTable::copy`]).
    const CHUNK: usize = CHUNK_BYTES.div_ceil(Self::SLOT_BYTES);

    fn new(len: usize) -> Slots<K> {
        Slots {
            words: zeroed_atomics((len + PROBES - 1) * Self::STRIDE),
            len,
            key: PhantomData,
        }
    }

    /// Gives back to the system the memory of the slots below `below`,
    /// in whole huge pages, from byte `from` (where the last call stopped)
    /// on; says where this one stopped. The slots given back read as
    /// empty, and a write would take a page again: the caller makes sure
    /// no thread looks at them.
    fn release(&self, from: usize, below: usize) -> usize {
        const HUGE: usize = 2 << 20;
        let base = self.words.as_ptr() as usize;
        let from = from.max(base.next_multiple_of(HUGE) - base);
        let end = ((base + below * Self::SLOT_BYTES) / HUGE * HUGE).saturating_sub(base);
        if from < end {
            #[cfg(target_os = "linux")]
            // SAFETY: whole pages inside the block these slots own, which
            // stays mapped; the kernel zeroes them, as an empty slot is,
            // and no thread reads or writes them meanwhile.
            unsafe {
                libc::madvise(
                    (base + from) as *mut libc::c_void,
                    end - from,
                    libc::MADV_DONTNEED,
                );
            }
        }
        end.max(from)
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Every slot, the ones after the last home included.
    fn all(&self) -> std::ops::Range<usize> {
        0..self.len + PROBES - 1
    }

    fn home_of(&self, hash: u64) -> usize {
        home_among(hash, self.len)
    }

    fn guard(&self, slot: usize) -> &AtomicU64 {
        &self.words[slot * Self::STRIDE]
    }

    /// The words of the key in `slot` and the guard they were read under,
    /// read as a sequence lock is: the guard, the words, the guard again.
    /// `Err(true)` for an empty slot, `Err(false)` for a torn one.
    fn snapshot(&self, slot: usize) -> Result<([u64; MAX_WORDS], u64), bool> {
        let guard = self.guard(slot).load(Ordering::Acquire);
        if let Some(done) = Self::PACKED {
            let mut words = [0; MAX_WORDS];
            words[0] = guard & !done;
            return if guard == 0 {
                Err(true)
            } else {
                Ok((words, guard))
            };
        }
        if guard == 0 || guard & WRITING != 0 {
            return Err(guard == 0);
        }
        let base = slot * Self::STRIDE + 1;
        let mut words = [0; MAX_WORDS];
        for (i, word) in words.iter_mut().enumerate().take(K::WORDS) {
            *word = self.words[base + i].load(Ordering::Relaxed);
        }
        fence(Ordering::Acquire);
        match self.guard(slot).load(Ordering::Relaxed) == guard {
            true => Ok((words, guard)),
            false => Err(false),
        }
    }

    fn read(&self, slot: usize, key: &K) -> Read {
        match self.snapshot(slot) {
            Err(true) => Read::Empty,
            Err(false) => Read::Torn,
            Ok((words, guard)) if (0..K::WORDS).all(|i| words[i] == key.word(i)) => {
                Read::Same(guard)
            }
            Ok(_) => Read::Other,
        }
    }

    /// The key in `slot` and its guard, if it holds one no writer holds.
    fn entry(&self, slot: usize) -> Option<(K, u64)> {
        let (words, guard) = self.snapshot(slot).ok()?;
        Some((K::from_words(&words[..K::WORDS]), guard))
    }

    /// Writes `key` into `slot` if its guard is still `guard`; `false` if
    /// another thread got there first.
    fn write(&self, slot: usize, guard: u64, key: &K, done: bool) -> bool {
        if let Some(bit) = Self::PACKED {
            let word = key.word(0) | if done { bit } else { 0 };
            let swapped = self.guard(slot).compare_exchange(
                guard,
                word,
                Ordering::Release,
                Ordering::Relaxed,
            );
            return swapped.is_ok();
        }
        let claimed = self.guard(slot).compare_exchange(
            guard,
            guard | WRITING,
            Ordering::Acquire,
            Ordering::Relaxed,
        );
        if claimed.is_err() {
            return false;
        }
        // The key's stores may not be seen before the claim.
        fence(Ordering::Release);
        let base = slot * Self::STRIDE + 1;
        for i in 0..K::WORDS {
            self.words[base + i].store(key.word(i), Ordering::Relaxed);
        }
        let version = (guard / VERSION + 1) * VERSION;
        let done = if done { DONE } else { 0 };
        self.guard(slot).store(version | done, Ordering::Release);
        true
    }

    /// Reads `slot` until no writer holds it, or gives up.
    fn settled(&self, slot: usize, key: &K) -> Read {
        for spin in 0..SPINS + YIELDS {
            match self.read(slot, key) {
                Read::Torn if spin < SPINS => std::hint::spin_loop(),
                Read::Torn => std::thread::yield_now(),
                read => return read,
            }
        }
        Read::Torn
    }

    /// The slots `key` may be in, in the order looked at.
    fn window(&self, hash: u64) -> std::ops::Range<usize> {
        let home = self.home_of(hash);
        home..home + PROBES
    }

    /// What the table knows of `key`, without storing it.
    fn find(&self, key: &K, hash: u64) -> Option<Visit> {
        for slot in self.window(hash) {
            match self.settled(slot, key) {
                Read::Same(guard) => return Some(Self::visit_of(guard)),
                Read::Empty => return None,
                Read::Other | Read::Torn => {}
            }
        }
        None
    }

    /// Stores `key` unless it is there; says what was there, and whether
    /// it filled an empty slot. Where every slot it may take is held by
    /// others, it takes the first of them (`forgot` is then set).
    fn visit(&self, key: &K, hash: u64, done: bool, forgot: &AtomicBool) -> (Visit, bool) {
        for slot in self.window(hash) {
            loop {
                match self.settled(slot, key) {
                    Read::Empty => {
                        if self.write(slot, 0, key, done) {
                            return (Visit::Fresh, true);
                        }
                    }
                    Read::Same(guard) => return (Self::visit_of(guard), false),
                    Read::Other | Read::Torn => break,
                }
            }
        }
        forgot.store(true, Ordering::Relaxed);
        let home = self.home_of(hash);
        let guard = self.guard(home).load(Ordering::Relaxed);
        if Self::PACKED.is_some() || guard & WRITING == 0 {
            self.write(home, guard, key, done);
        }
        (Visit::Fresh, false)
    }

    fn finish(&self, key: &K, hash: u64) {
        for slot in self.window(hash) {
            match self.settled(slot, key) {
                Read::Same(guard) => {
                    // Lost to a writer, the mark only leaves the position
                    // for last a little longer; it is not worth a retry.
                    let _ = self.guard(slot).compare_exchange(
                        guard,
                        guard | Self::DONE_BIT,
                        Ordering::Release,
                        Ordering::Relaxed,
                    );
                    return;
                }
                Read::Empty => return,
                Read::Other | Read::Torn => {}
            }
        }
    }

    fn is_done(guard: u64) -> bool {
        guard & Self::DONE_BIT != 0
    }

    fn visit_of(guard: u64) -> Visit {
        match Self::is_done(guard) {
            false => Visit::Busy,
            true => Visit::Seen,
        }
    }
}

/// The first size of a table, in slots: small, so that an easy deal
/// touches little memory.
const FIRST_LEN: usize = 1 << 12;

/// Each size has this many times the slots of the one before, but the
/// last (see [`SharedTable::next_len`]).
const GROWTH: usize = 4;

/// The most words a key may take (Alexandria's take 7).
const MAX_WORDS: usize = 8;

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
    /// copied (see [`SharedTable::copy`]).
    frontier: AtomicUsize,
}

/// What the lock of a [`SharedTable`] holds.
struct Store<K: TableKey> {
    /// The size in use.
    slots: Slots<K>,
    /// The size before, while its keys are copied into `slots`.
    old: Option<Slots<K>>,
}

/// How many bytes of the old size are copied at a time: a huge page, so
/// that each one copied can be given back.
const CHUNK_BYTES: usize = 2 << 20;

/// The table, shared by reference among the threads of one search.
///
/// It grows as the local [`super::Table`] does, at half load, without
/// stopping the threads that use it: the thread whose insert fills half
/// of it makes a larger size and copies the old one's keys into it while
/// the others go on, a slice of slots at a time, in the order of their
/// homes, and gives each slice's memory back once it is copied. A key's
/// home is its hash scaled to the slots, so the keys of the first slices
/// of the old size land in the first slices of the new: the new size is
/// touched no faster than the old is given back, and the two together
/// hold no more than the larger of them. A look into the table meanwhile
/// goes by where its key's slots lie (see [`SharedView::look`]).
///
/// (Until the old size was given back as it was copied, the table kept
/// it to the end beside the new, and all the sizes before: a third of the
/// cap went to them. Lanes deal 785 on two threads had 16Mi slots for 24M
/// positions, every insert probing a full window, and took 45% more time
/// a position than on one thread. Growing with every other thread
/// stopped, so that one size at a time was held, made them wait while
/// the kernel cleared the new size's pages: 1.2 to 1.5 s for 27M slots.
/// Allocating the whole cap at once had each page of it touched within a
/// few thousand positions: All in a Row deal 109407 took 2.4 s of the
/// kernel's time, zeroing and compacting a GiB of huge pages, on 1.3 s of
/// search.)
///
/// A thread looks into the table through a [`SharedView`], which holds
/// the store for reading; the store is taken for writing, once every view
/// has let go of it, only to put a new size in place and to drop the old
/// one.
pub(super) struct SharedTable<K: TableKey> {
    store: RwLock<Store<K>>,
    hot: Hot,
    /// Set while a thread copies a size.
    copying: AtomicBool,
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

    /// The slots of the size after one of `len` slots: [`GROWTH`] times
    /// as many, if they fit in the cap and leave room to grow again;
    /// else, as the last size, every slot that fits, if that is a quarter
    /// more than `len`; else `None`. (A fourfold size that fits but can
    /// grow no more would leave unused the room beside it: All in a Row
    /// deal 109407 at `--memory 16M` would stop at 1Mi slots, not 1.8Mi.)
    fn next_len(&self, len: usize) -> Option<usize> {
        let next = len * GROWTH;
        let last = self.fit_beside(len);
        match self.fit_beside(next) >= next + next / 4 && last >= next {
            true => Some(next),
            false => (last >= len + len / 4).then_some(last),
        }
    }

    /// The most slots a size may have that is copied from one of `len`
    /// slots. While a size is copied, the slices of the old one not yet
    /// given back and those of the new one touched take no more than the
    /// new one and four slices (the copy gives back whole pages, a slice
    /// behind the frontier), or, if less, the old one as well.
    fn fit_beside(&self, len: usize) -> usize {
        let overlap = (len * Slots::<K>::SLOT_BYTES).min(4 * CHUNK_BYTES);
        let room = (self.cap.load(Ordering::Relaxed)).saturating_sub(overlap);
        (room / Slots::<K>::SLOT_BYTES).saturating_sub(PROBES)
    }

    /// Whether the table should grow now: it is over half full, a larger
    /// size fits, and none is being copied.
    fn grows(&self) -> bool {
        let len = self.len.load(Ordering::Relaxed);
        self.filled.load(Ordering::Relaxed) * 2 > len
            && !self.copying.load(Ordering::Relaxed)
            && self.next_len(len).is_some()
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

    /// Puts a larger size in place, if the table still needs one when
    /// this thread has it alone, and keeps the old one to copy from; says
    /// whether it did. The caller may hold no view.
    fn start_growing(&self) -> bool {
        if self.copying.swap(true, Ordering::Relaxed) {
            return false;
        }
        let started = self.alone(|store| {
            let len = store.slots.len();
            let filled = self.filled.load(Ordering::Relaxed);
            let next = self.next_len(len).filter(|_| filled * 2 > len);
            let Some(next) = next else {
                return false;
            };
            self.hot.frontier.store(0, Ordering::Relaxed);
            store.old = Some(std::mem::replace(&mut store.slots, Slots::new(next)));
            self.len.store(next, Ordering::Relaxed);
            self.filled.store(0, Ordering::Relaxed);
            true
        });
        if !started {
            self.copying.store(false, Ordering::Relaxed);
        }
        started
    }

    /// Copies the old size's keys into the size in use, a slice at a time
    /// in the order of their homes (see [`SharedTable`]), and gives each
    /// slice back once no look can reach it; `store` is the copying
    /// thread's hold on the store. The views look meanwhile as
    /// [`SharedView::look`] says.
    fn copy(&self, store: &Store<K>) {
        let (old, new) = (store.old.as_ref().expect("a size to copy"), &store.slots);
        let chunk = Slots::<K>::CHUNK;
        let end = old.all().end;
        let mut placed = 0;
        let mut given = 0;
        let mut at = 0;
        while at < end {
            self.hot.frontier.store(at, Ordering::SeqCst);
            self.settle();
            // No look that began before the frontier moved goes on, and
            // those after it read no slot of the old size below
            // `at - PROBES`.
            given = old.release(given, at.saturating_sub(PROBES));
            for slot in at..(at + chunk).min(end) {
                if let Some((key, guard)) = old.entry(slot) {
                    let done = Slots::<K>::is_done(guard);
                    placed += new.visit(&key, key.table_hash(), done, &self.forgot).1 as usize;
                }
            }
            at += chunk;
        }
        self.hot.frontier.store(end, Ordering::SeqCst);
        self.filled.fetch_add(placed, Ordering::Relaxed);
    }

    /// Waits until every look into the old size that began before this
    /// call has ended.
    fn settle(&self) {
        let looks: Vec<(Arc<AtomicU64>, u64)> = (self.looks.lock())
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .map(|look| (Arc::clone(look), look.load(Ordering::SeqCst)))
            .filter(|(_, count)| count % 2 == 1)
            .collect();
        for (look, count) in looks {
            // A look takes a few probes, unless its thread is put to sleep.
            for spin in 0.. {
                if look.load(Ordering::Acquire) != count {
                    break;
                }
                match spin < SPINS {
                    true => std::hint::spin_loop(),
                    false => std::thread::yield_now(),
                }
            }
        }
    }

    /// Drops the old size, once copied.
    fn end_growing(&self) {
        self.alone(|store| store.old = None);
        self.copying.store(false, Ordering::Relaxed);
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

    /// Whether the table forgets for want of room, and often: no larger
    /// size fits in the cap, and it has dropped more positions than half
    /// its slots. (Its windows of slots fill up now and then while it
    /// still grows, and a search near its end may forget a few: neither is
    /// crowding. Lanes deal 42 at the default cap forgets a little and
    /// still gains from two walks.)
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

/// One thread's look into a [`SharedTable`]: it holds the store, lets go
/// of it for a thread that waits to change it, and counts the slots it
/// filled and the positions it dropped for the table a few dozen at a
/// time (one count written by every thread at every new position would
/// pass between their caches).
///
/// A thread may hold one view at a time, and must not wait on another
/// thread while it holds one but in [`SharedView::wait`]: the other may
/// be waiting for the view to let go.
pub(super) struct SharedView<'a, K: TableKey> {
    table: &'a SharedTable<K>,
    /// `None` only while it lets go.
    store: Option<RwLockReadGuard<'a, Store<K>>>,
    /// This view's count of its looks into an old size.
    looks: Arc<AtomicU64>,
    /// Filled slots not yet told to the table.
    untold: usize,
    /// Positions dropped for this walk's, not yet told to the table.
    forgot_untold: usize,
}

/// How many filled slots or dropped positions a view tells the table of
/// at once.
const TELL_EVERY: usize = 64;

impl<'a, K: TableKey> SharedView<'a, K> {
    pub(super) fn new(table: &'a SharedTable<K>) -> SharedView<'a, K> {
        let looks = Arc::new(AtomicU64::new(0));
        (table.looks.lock())
            .unwrap_or_else(PoisonError::into_inner)
            .push(Arc::clone(&looks));
        SharedView {
            table,
            store: Some(table.read()),
            looks,
            untold: 0,
            forgot_untold: 0,
        }
    }

    pub(super) fn table(&self) -> &'a SharedTable<K> {
        self.table
    }

    fn store(&self) -> &Store<K> {
        let store = self.store.as_deref();
        store.expect("a view holds the store but while it lets go")
    }

    /// Lets go of the store for the thread that waits for it, if one
    /// does, and takes it again once that thread is done.
    #[inline]
    pub(super) fn wait(&mut self) {
        if self.table.hot.waiting.load(Ordering::Relaxed) > 0 {
            self.store = None;
            self.store = Some(self.table.read());
        }
    }

    /// Tells the table what this view filled and dropped, and grows it if
    /// that is due: this thread then copies the old size's keys.
    fn tell(&mut self) {
        let table = self.table;
        table
            .filled
            .fetch_add(std::mem::take(&mut self.untold), Ordering::Relaxed);
        let forgot = std::mem::take(&mut self.forgot_untold);
        table.forgotten.fetch_add(forgot, Ordering::Relaxed);
        if table.grows() {
            self.store = None;
            if table.start_growing() {
                self.store = Some(table.read());
                table.copy(self.store());
                self.store = None;
                table.end_growing();
            }
            self.store = Some(table.read());
        }
    }

    /// Asks the processor to fetch `key`'s home slot into cache (see
    /// [`super::Table::prefetch`]); gives the key's hash.
    #[inline]
    pub(super) fn prefetch(&self, key: K) -> u64 {
        let hash = key.table_hash();
        let slots = &self.store().slots;
        prefetch_slot(slots.guard(slots.home_of(hash)));
        hash
    }

    /// Offers a position (`hash` its key's [`TableKey::table_hash`]): what
    /// the table knew of it.
    #[inline]
    pub(super) fn visit(&mut self, key: K, hash: u64) -> Visit {
        self.wait();
        let forgot = &self.table.forgot;
        let (visit, filled) = self.look(hash, |place| match place {
            Place::New(new) => new.visit(&key, hash, false, forgot),
            // Counted when it is copied.
            Place::Old(old) => (old.visit(&key, hash, false, forgot).0, false),
            Place::Near { old, new } => match old.find(&key, hash) {
                Some(visit) => (visit, false),
                None => new.visit(&key, hash, false, forgot),
            },
        });
        if filled {
            self.untold += 1;
        } else if visit == Visit::Fresh {
            // Stored in the place of another position.
            self.forgot_untold += 1;
        }
        if self.untold == TELL_EVERY || self.forgot_untold == TELL_EVERY {
            self.tell();
        }
        visit
    }

    /// Marks a position every move of which its walk has tried, if the
    /// table still holds it.
    #[inline]
    pub(super) fn finish(&mut self, key: K, hash: u64) {
        self.wait();
        self.look(hash, |place| match place {
            Place::New(slots) | Place::Old(slots) => slots.finish(&key, hash),
            Place::Near { old, new } => {
                old.finish(&key, hash);
                new.finish(&key, hash);
            }
        });
    }

    /// Does `act` in the size where a key of hash `hash` belongs.
    ///
    /// While a size is copied, that is by where the key's window of slots
    /// lies in the old size: below the frontier, they are copied, and the
    /// key goes to the new size; past the slice being copied, to the old
    /// size, which the copy reaches later; near the frontier, it is looked
    /// for in the old size and, not there, stored in the new one, where
    /// the copy now touches it. A look that meets the old size is counted
    /// (see [`SharedTable::settle`]), so that the copy neither passes nor
    /// gives back slots it may write or read. A key offered on two threads
    /// at once as the copy passes it may be fresh to both (one stores it
    /// in the old size as the other looks for it there): both search it,
    /// which costs time only.
    #[inline]
    fn look<R>(&self, hash: u64, act: impl FnOnce(Place<'_, K>) -> R) -> R {
        let store = self.store();
        let Some(old) = &store.old else {
            return act(Place::New(&store.slots));
        };
        self.looks.fetch_add(1, Ordering::SeqCst);
        let frontier = self.table.hot.frontier.load(Ordering::SeqCst);
        let home = old.home_of(hash);
        let place = if home + PROBES <= frontier {
            Place::New(&store.slots)
        } else if home >= frontier + Slots::<K>::CHUNK {
            Place::Old(old)
        } else {
            Place::Near {
                old,
                new: &store.slots,
            }
        };
        let done = act(place);
        self.looks.fetch_add(1, Ordering::Release);
        done
    }
}

/// Where a look into a table goes while a size is copied (see
/// [`SharedView::look`]).
enum Place<'a, K: TableKey> {
    New(&'a Slots<K>),
    Old(&'a Slots<K>),
    Near {
        old: &'a Slots<K>,
        new: &'a Slots<K>,
    },
}

impl<K: TableKey> Drop for SharedView<'_, K> {
    fn drop(&mut self) {
        self.tell();
        self.store = None;
        let mut looks = (self.table.looks.lock()).unwrap_or_else(PoisonError::into_inner);
        looks.retain(|look| !Arc::ptr_eq(look, &self.looks));
    }
}

/// `len` atomics, zero, in memory the system hands out untouched.
fn zeroed_atomics(len: usize) -> Box<[AtomicU64]> {
    let layout = Layout::array::<AtomicU64>(len).expect("a table within the address space");
    // SAFETY: the layout has a nonzero size (len is at least 1024 slots),
    // an all-zero AtomicU64 is a valid 0, and a Box<[AtomicU64]> of `len`
    // frees with this same layout.
    unsafe {
        let ptr = alloc_zeroed(layout).cast::<AtomicU64>();
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SpareBitKey;
    use std::sync::Barrier;

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

    /// Sizes grow fourfold while the size after can grow again; else the
    /// last takes the room left, if that is a quarter more, and none
    /// follows a size with less room than that. A small size takes its
    /// own bytes out of the room while it is copied, a large one four
    /// slices.
    #[test]
    fn sizes_grow_fourfold_then_take_the_room_left() {
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
        let full = |range: std::ops::Range<usize>| {
            range.filter(|&slot| slots.entry(slot).is_some()).count()
        };
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
}
