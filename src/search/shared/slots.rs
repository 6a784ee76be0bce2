//! One size of the shared table: its slots, each read and written as a
//! sequence lock.

use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering, fence};

use super::Visit;
use crate::key::TableKey;
use crate::search::table::{PROBES, home_among};

/// A guard with this bit set: a writer holds the slot.
pub(super) const WRITING: u64 = 1;

/// A guard with this bit set: the walk that stored the key finished it.
const DONE: u64 = 2;

/// Versions count up from here; an empty slot's guard is 0.
const VERSION: u64 = 4;

/// How often a reader reads a slot again when a writer holds it, before
/// it lets other threads run between reads, and how often it does that
/// before it takes the slot for another position's. Writers hold a slot
/// for a few stores, but a writer's thread can be put to sleep while it
/// does: a reader that gave up at once then stores the same position
/// elsewhere, and both search it.
pub(super) const SPINS: u32 = 64;

const YIELDS: u32 = 64;

/// The most words a key may take (Alexandria's take 7).
pub(super) const MAX_WORDS: usize = 8;

/// One size of the table: slot `i` is `words[i * STRIDE]`, its guard,
/// then the key's words; or, packed, the key's one word with its mark.
pub(super) struct Slots<K: TableKey> {
    pub(super) words: Box<[AtomicU64]>,
    /// The slots a key's home may be: a power of two but for the last
    /// size, which takes what room is left (see [`super::SharedTable::next_len`]).
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
    /// Another key that covers it ([`TableKey::covers`]), with its guard.
    Covered(u64),
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
    pub(super) const SLOT_BYTES: usize = Self::STRIDE * size_of::<AtomicU64>();

    pub(super) fn new(len: usize) -> Slots<K> {
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
    pub(super) fn release(&self, from: usize, below: usize) -> usize {
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

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Every slot, the ones after the last home included.
    pub(super) fn all(&self) -> std::ops::Range<usize> {
        0..self.len + PROBES - 1
    }

    pub(super) fn home_of(&self, hash: u64) -> usize {
        home_among(hash, self.len)
    }

    pub(super) fn guard(&self, slot: usize) -> &AtomicU64 {
        &self.words[slot * Self::STRIDE]
    }

    /// The words of the key in `slot` and the guard they were read under,
    /// read as a sequence lock is: the guard, the words, the guard again.
    /// `Err(true)` for an empty slot, `Err(false)` for a torn one.
    pub(super) fn snapshot(&self, slot: usize) -> Result<([u64; MAX_WORDS], u64), bool> {
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
            // Covering first: most reads meet another position, which one
            // comparison tells (for keys that cover only themselves).
            Ok((words, guard)) => {
                let there = K::from_words(&words[..K::WORDS]);
                match there.covers(key) {
                    false => Read::Other,
                    true if there.same(key) => Read::Same(guard),
                    true => Read::Covered(guard),
                }
            }
        }
    }

    /// The key in `slot` and its guard, if it holds one no writer holds.
    pub(super) fn entry(&self, slot: usize) -> Option<(K, u64)> {
        let (words, guard) = self.snapshot(slot).ok()?;
        Some((K::from_words(&words[..K::WORDS]), guard))
    }

    /// Writes `key` into `slot` if its guard is still `guard`; `false` if
    /// another thread got there first.
    pub(super) fn write(&self, slot: usize, guard: u64, key: &K, done: bool) -> bool {
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

    /// What the table knows of `key`, or of a key that covers it, without
    /// storing it.
    pub(super) fn find(&self, key: &K, hash: u64) -> Option<Visit> {
        for slot in self.window(hash) {
            match self.settled(slot, key) {
                Read::Same(guard) | Read::Covered(guard) => return Some(Self::visit_of(guard)),
                Read::Empty => return None,
                Read::Other | Read::Torn => {}
            }
        }
        None
    }

    /// Stores `key` unless it, or a key that covers it, is there; says
    /// what was there, and whether it filled an empty slot. Where every
    /// slot it may take is held by others, it takes the first of them
    /// (`forgot` is then set).
    pub(super) fn visit(
        &self,
        key: &K,
        hash: u64,
        done: bool,
        forgot: &AtomicBool,
    ) -> (Visit, bool) {
        for slot in self.window(hash) {
            loop {
                match self.settled(slot, key) {
                    Read::Empty => {
                        if self.write(slot, 0, key, done) {
                            return (Visit::Fresh, true);
                        }
                    }
                    Read::Same(guard) | Read::Covered(guard) => {
                        return (Self::visit_of(guard), false);
                    }
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

    pub(super) fn finish(&self, key: &K, hash: u64) {
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
                // Finished is said of the key's own slot: a stronger key
                // may be another walk's, still being searched.
                Read::Covered(_) | Read::Other | Read::Torn => {}
            }
        }
    }

    pub(super) fn is_done(guard: u64) -> bool {
        guard & Self::DONE_BIT != 0
    }

    fn visit_of(guard: u64) -> Visit {
        match Self::is_done(guard) {
            false => Visit::Busy,
            true => Visit::Seen,
        }
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
