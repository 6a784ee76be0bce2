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
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering, fence};

use super::table::{PROBES, TableKey, home_among, prefetch_slot};

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
    /// Slots filled, as the walks report them (see [`SharedTable::filled`]).
    filled: AtomicUsize,
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

    fn new(len: usize) -> Slots<K> {
        Slots {
            words: zeroed_atomics((len + PROBES - 1) * Self::STRIDE),
            len,
            filled: AtomicUsize::new(0),
            key: PhantomData,
        }
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

    fn bytes(&self) -> usize {
        self.words.len() * size_of::<AtomicU64>()
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

/// The largest last size (see [`SharedTable::next_len`]) that is not put
/// off while a fourfold one fits. A hash table's keys land all over it,
/// so each of its pages is touched, and cleared by the kernel, long before
/// it is full. (Raglan deal 24623 on two threads, lost in 5.7M positions:
/// a last size of 854 MB took 3.0 to 3.4 s, 1.9 to 3.0 s of it the
/// kernel's, against 1.8 to 2.1 s for one of 512 MB. Lanes deal 42 at
/// `--memory 64M` needs what room there is: held to a fourfold size, its
/// table had half as many slots and the search took 2.2 times as long.)
const BIG_LAST_SIZE: usize = 256 << 20;

/// The table, shared by reference among the threads of one search.
///
/// It grows as the local [`super::Table`] does, at half load, but without
/// stopping the threads that use it: the thread whose insert fills half
/// of it makes a larger one (see [`SharedTable::next_len`]), which every
/// thread uses from then on, and copies the old one's keys into it while
/// the others go on, looking in the old one too until the copy is done.
/// A key stored in the old one by a thread that had not yet seen the new
/// one may miss the copy: a forgotten position, like any other.
/// (Allocating the whole cap at once instead had each page of it touched
/// within a few thousand positions: All in a Row deal 109407 took 2.4 s
/// of the kernel's time, zeroing and compacting a GiB of huge pages, on
/// 1.3 s of search.) The old sizes are kept to the end of the search, and
/// counted in the cap.
pub(super) struct SharedTable<K: TableKey> {
    /// The sizes, each made when the one before is half full.
    sizes: Box<[OnceLock<Slots<K>>]>,
    /// Index in `sizes` of the size in use.
    current: AtomicUsize,
    /// Set while the keys of the size before `current` are being copied.
    copying: AtomicBool,
    /// Set while a thread makes a new size.
    growing: AtomicBool,
    forgot: AtomicBool,
    /// Positions dropped to make room, as the walks report them.
    forgotten: AtomicUsize,
    /// The most bytes the sizes may take together; raised as other
    /// searches give back their share (see [`SharedTable::raise_cap`]).
    cap: AtomicUsize,
}

/// More sizes than a table within any address space can have.
const MAX_SIZES: usize = 64;

/// The most words a key may take (Alexandria's take 7).
const MAX_WORDS: usize = 8;

impl<K: TableKey> SharedTable<K> {
    /// A table whose sizes together stay within `max_bytes` (but for a
    /// first size of at least 1024 slots).
    pub(super) fn new(max_bytes: usize) -> SharedTable<K> {
        const {
            assert!(
                K::WORDS <= MAX_WORDS,
                "a key longer than the shared table takes"
            )
        };
        let fit = (max_bytes / Slots::<K>::SLOT_BYTES).max(1024);
        let first = FIRST_LEN.min(1 << fit.ilog2());
        let sizes: Box<[OnceLock<Slots<K>>]> = (0..MAX_SIZES).map(|_| OnceLock::new()).collect();
        let _ = sizes[0].set(Slots::new(first));
        SharedTable {
            sizes,
            current: AtomicUsize::new(0),
            copying: AtomicBool::new(false),
            growing: AtomicBool::new(false),
            forgot: AtomicBool::new(false),
            forgotten: AtomicUsize::new(0),
            cap: AtomicUsize::new(max_bytes),
        }
    }

    /// Lets the table take `bytes` more.
    pub(super) fn raise_cap(&self, bytes: usize) {
        self.cap.fetch_add(bytes, Ordering::Relaxed);
    }

    /// The slots of the size after `at`: four times as many, if the size
    /// after that could still double within the cap, or if a last size
    /// would take more than [`BIG_LAST_SIZE`]; else, as the last
    /// size, every slot the cap has room for besides the sizes made, if
    /// that is at least twice as many; else `None`. (Powers of two alone,
    /// with the old sizes kept, left a walk alone in the table half the
    /// slots of a table of its own: Lanes deal 42 at `--memory 64M`, 1Mi
    /// slots against 2Mi.)
    fn next_len(&self, at: usize) -> Option<usize> {
        let len = self.size(at).len();
        let room = self
            .cap
            .load(Ordering::Relaxed)
            .saturating_sub(self.bytes());
        let fit = (room / Slots::<K>::SLOT_BYTES).saturating_sub(PROBES);
        if at + 1 >= MAX_SIZES {
            return None;
        }
        let big = fit.saturating_mul(Slots::<K>::SLOT_BYTES) > BIG_LAST_SIZE;
        if fit >= len.saturating_mul(3 * GROWTH) || (big && fit >= len.saturating_mul(GROWTH)) {
            Some(len * GROWTH)
        } else {
            (fit >= 2 * len).then_some(fit)
        }
    }

    fn size(&self, at: usize) -> &Slots<K> {
        self.sizes[at]
            .get()
            .expect("a size is made before it is used")
    }

    /// Offers a position (`hash` its key's [`TableKey::table_hash`]): what
    /// the table knew of it, and whether it filled an empty slot.
    pub(super) fn visit(&self, key: K, hash: u64) -> (Visit, bool) {
        let at = self.current.load(Ordering::Acquire);
        if at > 0
            && self.copying.load(Ordering::Acquire)
            && let Some(visit) = self.size(at - 1).find(&key, hash)
        {
            return (visit, false);
        }
        self.size(at).visit(&key, hash, false, &self.forgot)
    }

    /// Marks a position every move of which its walk has tried, if the
    /// table still holds it.
    pub(super) fn finish(&self, key: K, hash: u64) {
        self.size(self.current.load(Ordering::Acquire))
            .finish(&key, hash);
    }

    /// Counts slots a walk filled, and makes the next size once the one
    /// in use is half full. Walks report their fills a few dozen at a time
    /// (see [`super::walk::SharedView`]): one count written by every
    /// thread at every new position would pass between their caches.
    pub(super) fn filled(&self, count: usize) {
        let at = self.current.load(Ordering::Acquire);
        let size = self.size(at);
        let filled = size.filled.fetch_add(count, Ordering::Relaxed) + count;
        if filled * 2 > size.len() && !self.growing.swap(true, Ordering::Acquire) {
            if self.current.load(Ordering::Acquire) == at
                && let Some(len) = self.next_len(at)
            {
                self.grow(at, len);
            }
            self.growing.store(false, Ordering::Release);
        }
    }

    /// Makes the size after `at`, of `len` slots, puts it in use, and
    /// copies `at`'s keys into it.
    fn grow(&self, at: usize, len: usize) {
        let _ = self.sizes[at + 1].set(Slots::new(len));
        self.copying.store(true, Ordering::Release);
        self.current.store(at + 1, Ordering::Release);
        let (old, new) = (self.size(at), self.size(at + 1));
        let mut copied = 0;
        for slot in old.all() {
            if let Some((key, guard)) = old.entry(slot) {
                let done = Slots::<K>::is_done(guard);
                copied += new.visit(&key, key.table_hash(), done, &self.forgot).1 as usize;
            }
        }
        new.filled.fetch_add(copied, Ordering::Relaxed);
        self.copying.store(false, Ordering::Release);
    }

    /// Asks the processor to fetch `key`'s home slot into cache (see
    /// [`super::Table::prefetch`]); gives the key's hash.
    #[inline]
    pub(super) fn prefetch(&self, key: K) -> u64 {
        let hash = key.table_hash();
        let size = self.size(self.current.load(Ordering::Relaxed));
        prefetch_slot(size.guard(size.home_of(hash)));
        hash
    }

    /// Whether a position was dropped for want of room. (One stored in an
    /// old size as it was being copied may be lost without this: the walks
    /// on a shared table keep their paths from the start, and do not rely
    /// on it to stay off cycles.)
    pub(super) fn has_forgotten(&self) -> bool {
        self.forgot.load(Ordering::Relaxed)
    }

    /// Forgets every position, keeping the sizes made, for another search
    /// on the same memory. No thread may use the table meanwhile; the
    /// caller publishes the emptied table to the others.
    pub(super) fn forget_all(&self) {
        for size in self.sizes.iter().filter_map(OnceLock::get) {
            for slot in size.all() {
                size.guard(slot).store(0, Ordering::Relaxed);
            }
            size.filled.store(0, Ordering::Relaxed);
        }
        self.copying.store(false, Ordering::Relaxed);
        self.forgot.store(false, Ordering::Relaxed);
        self.forgotten.store(0, Ordering::Relaxed);
    }

    /// Counts positions a walk stored in the place of others, and makes
    /// the next size if the one in use is half full. A size can fill past
    /// half with no thread able to grow it: while one thread copies the
    /// size before into it, the others fill it (on more threads than
    /// cores, the copying thread may be put to sleep for milliseconds).
    /// Once full, a visit fills no empty slot, so [`SharedTable::filled`]
    /// alone would never grow it again: Raglan deal 24623 on 4 threads
    /// (`--tactic best-first`) once kept a table of 16384 slots to the end
    /// of its best-first search, dropped 66M positions, and expanded 15M
    /// positions a thread where 1.4M do.
    pub(super) fn forgot(&self, count: usize) {
        self.forgotten.fetch_add(count, Ordering::Relaxed);
        self.filled(0);
    }

    /// Whether the table forgets for want of room, and often: no larger
    /// size fits in the cap, and it has dropped more positions than half
    /// the slots of the size in use. (Its windows of slots fill up now and
    /// then while it still grows, and a search near its end may forget a
    /// few: neither is crowding. Lanes deal 42 at the default cap forgets
    /// a little and still gains from two walks.)
    pub(super) fn is_crowded(&self) -> bool {
        let at = self.current.load(Ordering::Acquire);
        self.forgotten.load(Ordering::Relaxed) > self.size(at).len() / 2
            && self.next_len(at).is_none()
    }

    /// Bytes the size in use takes.
    pub(super) fn size_bytes(&self) -> usize {
        self.size(self.current.load(Ordering::Acquire)).len() * Slots::<K>::SLOT_BYTES
    }

    /// The most bytes the table may take now.
    pub(super) fn cap(&self) -> usize {
        self.cap.load(Ordering::Relaxed)
    }

    /// Positions the size in use holds, as far as the walks have told it.
    pub(super) fn len(&self) -> usize {
        self.size(self.current.load(Ordering::Acquire))
            .filled
            .load(Ordering::Relaxed)
    }

    /// Bytes the sizes made so far take.
    pub(super) fn bytes(&self) -> usize {
        self.sizes
            .iter()
            .filter_map(OnceLock::get)
            .map(Slots::bytes)
            .sum()
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

    #[test]
    fn a_position_is_fresh_then_busy_then_seen() {
        let table = SharedTable::<[u64; 3]>::new(1 << 20);
        let key = [1, 2, 3];
        assert_eq!(table.visit(key, hash(key)), (Visit::Fresh, true));
        assert_eq!(table.visit(key, hash(key)).0, Visit::Busy);
        table.finish(key, hash(key));
        assert_eq!(table.visit(key, hash(key)).0, Visit::Seen);
        assert_eq!(table.visit([1, 2, 4], hash([1, 2, 4])).0, Visit::Fresh);
        assert!(!table.has_forgotten());
    }

    /// Grown from 4096 slots to 64Ki in three steps, the table keeps every
    /// key, and whether each was finished.
    #[test]
    fn growing_keeps_every_position_and_its_mark() {
        let table = SharedTable::<u64>::new(1 << 20);
        for k in 1..=20_000u64 {
            let (visit, filled) = table.visit(k, hash(k));
            assert_eq!(visit, Visit::Fresh);
            table.filled(filled as usize);
            if k % 3 == 0 {
                table.finish(k, hash(k));
            }
        }
        // 64 KiB, then 256 KiB, then, as 1 MiB and 512 KiB would not fit,
        // the 704 KiB left (but for the slots after the last home of each).
        let lens: Vec<usize> = (0..3).map(|at| table.size(at).len()).collect();
        assert_eq!(lens, [4096, 16384, 45056 - 3 * (PROBES - 1) - 1]);
        assert_eq!(table.current.load(Ordering::Relaxed), 2);
        assert!(!table.has_forgotten());
        for k in 1..=20_000u64 {
            let kept = if k % 3 == 0 { Visit::Seen } else { Visit::Busy };
            assert_eq!(table.visit(k, hash(k)), (kept, false), "{k}");
        }
        assert!(table.bytes() <= 1 << 20);
    }

    /// A size that leaves no room to double again is followed by one that
    /// takes all the room left, unless that is more than `BIG_LAST_SIZE`
    /// and a fourfold size fits: then by the fourfold one.
    #[test]
    fn a_big_last_size_waits_while_a_fourfold_one_fits() {
        const MI: usize = 1 << 20;
        let next_after = |room: usize| {
            let table = SharedTable::<[u64; 3]>::new(0);
            table.grow(0, MI);
            table.raise_cap(table.bytes() + room);
            table.next_len(1)
        };
        let fit = |room: usize| room / 32 - PROBES;
        assert_eq!(next_after(200 * MI), Some(fit(200 * MI)));
        assert_eq!(next_after(300 * MI), Some(4 * MI));
        assert_eq!(next_after(100 * MI), Some(fit(100 * MI)));
        assert_eq!(next_after(MI), None);
        assert_eq!(next_after(400 * MI), Some(4 * MI));
    }

    /// A key with a spare bit takes one word a slot, which holds its mark
    /// too: the cap holds twice the slots, keys and marks survive growing,
    /// and a key read back never has the mark in it.
    #[test]
    fn a_packed_slot_keeps_its_key_and_mark_in_one_word() {
        let key = |k: u64| SpareBitKey::<62>::new(k | 1 << 63);
        let table = SharedTable::new(1 << 20);
        assert_eq!(
            table.size(0).bytes(),
            (4096 + PROBES - 1) * 8,
            "one word a slot"
        );
        for k in 1..=20_000u64 {
            let (visit, filled) = table.visit(key(k), hash(key(k)));
            assert_eq!(visit, Visit::Fresh);
            table.filled(filled as usize);
            if k % 3 == 0 {
                table.finish(key(k), hash(key(k)));
            }
        }
        // Half the bytes a slot of `growing_keeps_every_position_and_its_mark`,
        // so within the same cap its last size has twice the slots.
        let lens: Vec<usize> = (0..3).map(|at| table.size(at).len()).collect();
        assert_eq!(lens, [4096, 16384, 110592 - 3 * (PROBES - 1) - 1]);
        assert!(table.bytes() <= 1 << 20);
        for k in 1..=20_000u64 {
            let kept = if k % 3 == 0 { Visit::Seen } else { Visit::Busy };
            assert_eq!(table.visit(key(k), hash(key(k))), (kept, false), "{k}");
        }
        let size = table.size(table.current.load(Ordering::Relaxed));
        let marked = size.all().filter_map(|slot| size.entry(slot));
        assert!(marked.clone().count() == 20_000);
        assert!(
            marked
                .clone()
                .all(|(k, _)| k.word(0) & 1 << 62 == 0 && k.word(0) >> 63 == 1)
        );
        assert_eq!(
            marked
                .filter(|&(_, guard)| Slots::<SpareBitKey<62>>::is_done(guard))
                .count(),
            6_666
        );
    }

    /// A table of 1024 slots given 50,000 keys forgets most, and says so,
    /// but never takes a key it was not given for one it was.
    #[test]
    fn a_full_table_forgets_and_never_lies() {
        let table = SharedTable::<u64>::new(0);
        assert_eq!(table.size(0).len(), 1024);
        for k in 1..=50_000u64 {
            let filled = table.visit(k * 2, hash(k * 2)).1;
            table.filled(filled as usize);
        }
        assert!(table.has_forgotten());
        let size = table.size(0);
        let mut kept = 0;
        for k in 1..=50_000u64 {
            let odd = k * 2 + 1;
            assert_eq!(size.find(&odd, hash(odd)), None);
            kept += size.find(&(k * 2), hash(k * 2)).is_some() as usize;
        }
        assert!(kept > 0 && kept <= size.all().len(), "{kept}");
    }

    /// A size filled while another thread held the right to grow it (as
    /// when the thread copying into it is put to sleep) still grows once
    /// that thread is done, as the walks tell it of the positions they
    /// drop.
    #[test]
    fn a_size_filled_while_another_thread_grows_still_grows() {
        use super::super::walk::{SharedView, Visited};
        let table = SharedTable::<u64>::new(1 << 26);
        let offer = |keys: std::ops::RangeInclusive<u64>| {
            let mut view = SharedView::new(&table);
            for k in keys {
                view.visit(k, hash(k));
            }
        };
        table.growing.store(true, Ordering::Relaxed);
        offer(1..=40_000);
        let first = table.size(0);
        assert!(first.all().all(|slot| first.entry(slot).is_some()), "full");
        assert_eq!(table.current.load(Ordering::Relaxed), 0, "held");
        table.growing.store(false, Ordering::Relaxed);
        // One walk goes on, in a turn that does not end (a view told the
        // table at its end, too).
        let mut view = SharedView::new(&table);
        for k in 40_001..=50_000 {
            view.visit(k, hash(k));
        }
        assert!(table.current.load(Ordering::Relaxed) >= 1, "grown");
    }

    /// A table is crowded once it can grow no more and has dropped more
    /// positions than half its slots: not at its first drops, and never
    /// while a larger size fits.
    #[test]
    fn a_table_is_crowded_once_it_forgets_often() {
        use super::super::walk::{SharedView, Visited};
        let offer = |table: &SharedTable<u64>, keys: std::ops::Range<u64>| {
            let mut view = SharedView::new(table);
            for k in keys {
                view.visit(k, hash(k));
            }
        };
        let small = SharedTable::<u64>::new(1 << 16);
        let mut k = 1;
        while !small.has_forgotten() {
            offer(&small, k..k + 1);
            k += 1;
        }
        assert!(!small.is_crowded(), "dropped one position at {k}");
        offer(&small, k..k + 50_000);
        assert!(small.is_crowded());

        let roomy = SharedTable::<u64>::new(1 << 30);
        offer(&roomy, 1..200_000);
        assert!(!roomy.is_crowded());
    }

    /// Two threads offering the same keys at once, the table growing
    /// under them: each key is fresh to one of them, or to both when one
    /// stored it in a size being copied, or gave up waiting on a writer
    /// put to sleep (or the table dropped it), never to neither.
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
                        (1..=100_000u64)
                            .map(|k| {
                                let key = key_of(k);
                                let (visit, filled) = table.visit(key, hash(key));
                                table.filled(filled as usize);
                                visit == Visit::Fresh
                            })
                            .collect()
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert!(table.current.load(Ordering::Relaxed) >= 3);
        let neither = (0..100_000).filter(|&k| !fresh[0][k] && !fresh[1][k]);
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
