//! How the shared table grows while the threads go on using it.
//!
//! The thread whose insert fills half of the size in use makes a larger
//! size and copies the old one's keys into it while the others go on, a
//! slice of slots at a time, in the order of their homes, and gives each
//! slice's memory back once it is copied. A key's home is its hash scaled
//! to the slots, so the keys of the first slices of the old size land in
//! the first slices of the new: the new size is touched no faster than
//! the old is given back, and the two together hold no more than the
//! larger of them. A look into the table meanwhile goes by where its
//! key's slots lie (see `SharedView::look`).
//!
//! Keeping each old size to the end beside the new took a third of the
//! cap; stopping every other thread to grow made them wait while the
//! kernel cleared the new size's pages; allocating the whole cap at once
//! had every page of it touched within a few thousand positions.

use std::sync::Arc;
use std::sync::PoisonError;
use std::sync::atomic::{AtomicU64, Ordering};

use super::slots::{SPINS, Slots};
use super::{SharedTable, Store};
use crate::key::TableKey;
use crate::search::table::{PROBES, growth_load};

/// Each size has this many times the slots of the one before, up to
/// [`DOUBLING_FROM`], but the last (see [`SharedTable::next_len`]).
const GROWTH: usize = 4;

/// From a size of this many bytes, each size has twice the slots of the
/// one before. The walks' scattered inserts touch every page of a new
/// size at once, and the kernel clears each page at its first touch: a
/// fourfold size of a large table held up to eight times the positions in
/// it, and clearing it took half a mid-sized Lanes loss's time
/// (`docs/tuning.md`).
const DOUBLING_FROM: usize = 256 << 20;

/// How many bytes of the old size are copied at a time: a huge page, so
/// that each one copied can be given back.
const CHUNK_BYTES: usize = 2 << 20;

impl<K: TableKey> Slots<K> {
    /// Slots copied at a time when the table grows (see
    /// [`SharedTable::copy`]).
    pub(super) const CHUNK: usize = CHUNK_BYTES.div_ceil(Self::SLOT_BYTES);
}

impl<K: TableKey> SharedTable<K> {
    /// The slots of the size after one of `len` slots: [`GROWTH`] times
    /// as many (twice from [`DOUBLING_FROM`]), if they fit in the cap and
    /// leave room to grow again;
    /// else, as the last size, every slot that fits, if that is a quarter
    /// more than `len`; else `None`. (A larger size that fits but can
    /// grow no more would leave unused the room beside it.)
    pub(super) fn next_len(&self, len: usize) -> Option<usize> {
        let growth = match len * Slots::<K>::SLOT_BYTES < DOUBLING_FROM {
            true => GROWTH,
            false => 2,
        };
        let next = len * growth;
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
    /// behind `copied_to`), or, if less, the old one as well.
    pub(super) fn fit_beside(&self, len: usize) -> usize {
        let overlap = (len * Slots::<K>::SLOT_BYTES).min(4 * CHUNK_BYTES);
        let room = (self.cap.load(Ordering::Relaxed)).saturating_sub(overlap);
        (room / Slots::<K>::SLOT_BYTES).saturating_sub(PROBES)
    }

    /// Whether `filled` keys in a size of `len` slots call for a larger
    /// size: over half, past a gigabyte three quarters (see
    /// [`growth_load`]).
    fn full_enough(filled: usize, len: usize) -> bool {
        filled >= growth_load(len, Slots::<K>::SLOT_BYTES)
    }

    /// Whether the table should grow now: it is full enough, a larger
    /// size fits, none is being copied, and the search goes on.
    pub(super) fn grows(&self) -> bool {
        let len = self.len.load(Ordering::Relaxed);
        Self::full_enough(self.filled.load(Ordering::Relaxed), len)
            && !self.copying.load(Ordering::Relaxed)
            && !self.stopping.load(Ordering::Relaxed)
            && self.next_len(len).is_some()
    }

    /// Puts a larger size in place, if the table still needs one when
    /// this thread has it alone, and keeps the old one to copy from; says
    /// whether it did. The caller may hold no view.
    pub(super) fn start_growing(&self) -> bool {
        if self.copying.swap(true, Ordering::Relaxed) {
            return false;
        }
        let started = self.alone(|store| {
            let len = store.slots.len();
            let filled = self.filled.load(Ordering::Relaxed);
            let next = self
                .next_len(len)
                .filter(|_| Self::full_enough(filled, len));
            let Some(next) = next else {
                return false;
            };
            self.hot.copied_to.store(0, Ordering::Relaxed);
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
    /// `SharedView::look` says. Once the search has ended, the slices not
    /// yet copied are forgotten (see [`SharedTable::stop_growing`]).
    pub(super) fn copy(&self, store: &Store<K>) {
        let (old, new) = (store.old.as_ref().expect("a size to copy"), &store.slots);
        let chunk = Slots::<K>::CHUNK;
        let end = old.all().end;
        let mut placed = 0;
        let mut given = 0;
        let mut at = 0;
        while at < end {
            if self.stopping.load(Ordering::Relaxed) {
                self.forgot.store(true, Ordering::Relaxed);
                break;
            }
            self.hot.copied_to.store(at, Ordering::SeqCst);
            self.settle();
            // No look that began before `copied_to` moved goes on, and
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
        self.hot.copied_to.store(end, Ordering::SeqCst);
        self.filled.fetch_add(placed, Ordering::Relaxed);
    }

    /// Waits until every look into the old size that began before this
    /// call has ended.
    pub(super) fn settle(&self) {
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
    pub(super) fn end_growing(&self) {
        self.alone(|store| store.old = None);
        self.copying.store(false, Ordering::Relaxed);
    }
}
