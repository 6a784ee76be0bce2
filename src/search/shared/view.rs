//! One thread's look into the shared table.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::slots::Slots;
use super::{SharedTable, Store, Visit};
use crate::key::TableKey;
use crate::search::table::{PROBES, prefetch_slot};
use std::sync::{PoisonError, RwLockReadGuard};

/// One thread's look into a [`SharedTable`]: it holds the store, lets go
/// of it for a thread that waits to change it, and counts the slots it
/// filled and the positions it dropped for the table a few dozen at a
/// time (one count written by every thread at every new position would
/// pass between their caches).
///
/// A thread may hold one view at a time, and must not wait on another
/// thread while it holds one but in [`SharedView::wait`]: the other may
/// be waiting for the view to let go.
pub(in crate::search) struct SharedView<'a, K: TableKey> {
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
    pub(in crate::search) fn new(table: &'a SharedTable<K>) -> SharedView<'a, K> {
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

    pub(in crate::search) fn table(&self) -> &'a SharedTable<K> {
        self.table
    }

    fn store(&self) -> &Store<K> {
        let store = self.store.as_deref();
        store.expect("a view holds the store but while it lets go")
    }

    /// Lets go of the store for the thread that waits for it, if one
    /// does, and takes it again once that thread is done.
    #[inline]
    pub(in crate::search) fn wait(&mut self) {
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
    /// [`crate::search::Table::prefetch`]); gives the key's hash.
    #[inline]
    pub(in crate::search) fn prefetch(&self, key: K) -> u64 {
        let hash = key.table_hash();
        let slots = &self.store().slots;
        prefetch_slot(slots.guard(slots.home_of(hash)));
        hash
    }

    /// Offers a position (`hash` its key's [`TableKey::table_hash`]): what
    /// the table knew of it.
    #[inline]
    pub(in crate::search) fn visit(&mut self, key: K, hash: u64) -> Visit {
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
    pub(in crate::search) fn finish(&mut self, key: K, hash: u64) {
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
    /// lies in the old size: below `copied_to`, they are copied, and the
    /// key goes to the new size; past the slice being copied, to the old
    /// size, which the copy reaches later; near `copied_to`, it is looked
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
        let copied_to = self.table.hot.copied_to.load(Ordering::SeqCst);
        let home = old.home_of(hash);
        let place = if home + PROBES <= copied_to {
            Place::New(&store.slots)
        } else if home >= copied_to + Slots::<K>::CHUNK {
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
