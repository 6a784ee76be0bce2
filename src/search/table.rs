//! A bounded transposition table of exact keys.
//!
//! The table answers one question: has the search already expanded this
//! position? Keys are stored whole, so a hit is never a different position.
//! When the table reaches its size cap it overwrites an entry instead of
//! growing: a forgotten position is searched again (time), never pruned
//! wrongly (verdict).

use std::mem::size_of;

use rayon::prelude::*;

use crate::key::TableKey;

/// How far from its home slot a key may be placed; lookups stop there too.
/// Runs of occupied slots grow with the table: at half load the longest
/// in a table of n slots is about 5 ln n, so tables past about 100k slots
/// forget a few positions before they are half full. That costs a few
/// positions searched again and nothing else, where a wider window would
/// make every insert into a full table read further.
pub(super) const PROBES: usize = 32;

/// The smallest table, 2048 slots (64 KiB of Raglan's keys). A search
/// starts by clearing its table, and narrowed attempts clear it again, so
/// the median deal, a few hundred positions, should not pay for clearing
/// (and first touching) megabytes; a large search pays instead for a few
/// more growths, each rehashing far fewer keys than it then searches.
const MIN_SLOTS: usize = 1 << 11;

/// The least size of a table that grows twofold, not fourfold (see
/// `Table::growth_factor`).
const DOUBLING_BYTES: usize = 8 << 20;

/// The least fresh memory a pooled table has the pool touch: waking the
/// threads costs more than touching a few pages.
const POOLED_BYTES: usize = 4 << 20;

/// The least size of a table that grows once three quarters full, not
/// half (see [`growth_load`]).
const LATE_GROWTH_BYTES: usize = 1 << 30;

/// The keys at which a table of `slots` slots of `slot_bytes` bytes
/// grows, and so the keys it copies aside as it does: over half its
/// slots, but from [`LATE_GROWTH_BYTES`] over three quarters. A large
/// table's next size would be gigabytes of fresh memory, which the kernel
/// clears a page at a time, and every key placed again, which cost a
/// large search more than the longer probes of a fuller table.
pub(super) fn growth_load(slots: usize, slot_bytes: usize) -> usize {
    match slots * slot_bytes < LATE_GROWTH_BYTES {
        true => slots / 2 + 1,
        false => slots - slots.div_ceil(4) + 1,
    }
}

/// A table of positions, grown as a search needs it up to a cap.
///
/// It grows once half full: with linear probing, a lookup of a key that is
/// not there (most lookups: the search meets new positions) probes about
/// 2.5 slots at half load, and 8.5 at three quarters. Past a gigabyte it
/// grows at three quarters (see [`growth_load`]).
///
/// The memory it once took is kept for the next search of a batch and only
/// a prefix of it, `active` slots, is in use: asking the system for fresh
/// memory at every deal costs page faults.
pub struct Table<K: TableKey> {
    slots: Vec<K>,
    /// Slots a key's home may be, a power of two or `max_slots`; the slots
    /// in use are `slots[..active + PROBES - 1]`, so that a key's window
    /// of slots never wraps around.
    active: usize,
    len: usize,
    peak: usize,
    max_slots: usize,
    /// Where keys wait while the table grows, kept like `slots`.
    scratch: Vec<K>,
    /// Whether a position was dropped since the last clear.
    forgot: bool,
    /// The cap given, in bytes.
    cap: usize,
    /// Whether fresh memory is first touched on the rayon pool (see
    /// [`Tables::in_pool`]).
    pooled: bool,
    /// Whether a hit is the key itself only, not a key that covers it:
    /// for the narrowed tactics, whose moves hang on more than the rules
    /// (a stock window on the cursor), so that a position does not play
    /// all that the positions it covers play.
    exact: bool,
}

impl<K: TableKey> Table<K> {
    /// A table that never takes more than `max_bytes` (but for a floor of
    /// a few KiB). Growing needs room for a copy of the keys of the table
    /// before: half of it and one, which is counted in.
    pub fn new(max_bytes: usize) -> Table<K> {
        let max_slots = Self::max_slots(max_bytes);
        let active = MIN_SLOTS.min(max_slots);
        Table {
            slots: vec![K::EMPTY; active + PROBES - 1],
            active,
            len: 0,
            peak: 0,
            max_slots,
            scratch: Vec::new(),
            forgot: false,
            cap: max_bytes,
            pooled: false,
            exact: false,
        }
    }

    /// The most slots a table within `max_bytes` may have: the largest
    /// power of two that leaves room for the copy of the keys of the size
    /// before it, or, if more, what is left beside the copy of its own
    /// keys (the power of two alone takes from 40% to 80% of the room
    /// below [`LATE_GROWTH_BYTES`], less past it, whose copies are
    /// larger); a copy holds [`growth_load`] keys.
    fn max_slots(max_bytes: usize) -> usize {
        let room = (max_bytes / size_of::<K>()).saturating_sub(PROBES);
        let copy = |slots: usize| growth_load(slots, size_of::<K>());
        let mut power = 512;
        while 2 * power + copy(power) <= room {
            power *= 2;
        }
        power.max(room.saturating_sub(copy(power)))
    }

    /// Raises the table's cap to `max_bytes`, when the search it serves
    /// inherits the share of a table no longer used.
    fn raise_cap(&mut self, max_bytes: usize) {
        if max_bytes > self.cap {
            self.cap = max_bytes;
            self.max_slots = Self::max_slots(max_bytes);
            // A table at its old cap may have no empty slot left, and grows
            // only when a key lands in one.
            if self.wants_growth() {
                self.grow();
            }
        }
    }

    /// Gives the table's memory back, for a search that no longer uses it.
    fn release(&mut self) {
        *self = Table {
            pooled: self.pooled,
            ..Table::new(self.cap)
        };
    }

    /// Says whether a hit is the key itself only (see the field), for a
    /// table emptied for a new search.
    pub fn set_exact(&mut self, exact: bool) {
        debug_assert!(self.len == 0, "a table changes its hits only when empty");
        self.exact = exact;
    }

    /// Empties the table for a new search, with room for about as many
    /// positions as the last one held.
    pub fn clear(&mut self) {
        let fitting = (self.peak * 2)
            .next_power_of_two()
            .max(MIN_SLOTS)
            .min(self.max_slots);
        if self.len > 0 || fitting != self.active {
            self.set_active(fitting);
        }
        self.len = 0;
        self.peak = 0;
        self.forgot = false;
    }

    /// Uses the first `active` slots, all empty.
    ///
    /// A table that needs more slots grows its block in place: `realloc`
    /// moves the old pages into the larger block (both the system's
    /// allocator and [`crate::alloc`] remap a large block, copying
    /// nothing), and only the part past them is fresh memory, which the
    /// kernel clears as it is first touched, at many times the cost of a
    /// fill: [`crate::alloc`] hands out memory kept or touched ahead
    /// instead where it has some. On a pooled table the pool's threads
    /// fill.
    fn set_active(&mut self, active: usize) {
        let used = active + PROBES - 1;
        if self.slots.len() < used {
            self.slots.clear();
            // Exactly: a growing `Vec` may round the buffer up past the cap.
            self.slots.reserve_exact(used);
            match self.pooled && used * size_of::<K>() >= POOLED_BYTES {
                true => (self.slots).par_extend(rayon::iter::repeat_n(K::EMPTY, used)),
                false => self.slots.resize(used, K::EMPTY),
            }
        } else {
            self.slots[..used].fill(K::EMPTY);
        }
        self.active = active;
        if self.growth_factor() == 2 && active < self.max_slots {
            self.touch_ahead();
        }
    }

    /// Records `key`; `false` if it, or (unless the table is exact) a key
    /// that covers it ([`TableKey::covers`]), was already there.
    #[inline]
    pub fn insert(&mut self, key: K) -> bool {
        self.insert_hashed(key, key.table_hash())
    }

    /// [`Table::insert`] with the key's hash as [`Table::prefetch`] gave
    /// it, not worked out a second time. (Only the hash is kept between
    /// the two: the table may grow, and its slots move, in between.)
    #[inline]
    pub fn insert_hashed(&mut self, key: K, hash: u64) -> bool {
        debug_assert!(key != K::EMPTY && hash == key.table_hash());
        let home = self.home_of(hash);
        for probe in 0..PROBES {
            let slot = self.slots[home + probe];
            if self.hits(&slot, &key) {
                return false;
            }
            if slot.same(&K::EMPTY) {
                self.slots[home + probe] = key;
                self.len += 1;
                self.peak = self.peak.max(self.len);
                if self.wants_growth() {
                    self.grow();
                }
                return true;
            }
        }
        // A full window: forget the home slot's position. Meeting it again
        // costs a second search of it, which is only time. (Growing here
        // instead would grow the table to its cap long before it is full.)
        self.slots[home] = key;
        self.forgot = true;
        true
    }

    /// Asks the processor to fetch `key`'s home slot into cache, so that
    /// the misses of several keys looked up soon after overlap. Gives the
    /// key's hash, for [`Table::insert_hashed`].
    #[inline]
    pub fn prefetch(&self, key: K) -> u64 {
        let hash = key.table_hash();
        prefetch_slot(&self.slots[self.home_of(hash)]);
        hash
    }

    /// Whether `key` is in the table, or (unless it is exact) a key that
    /// covers it.
    pub fn contains(&self, key: K) -> bool {
        let home = self.home(key);
        (0..PROBES)
            .map(|probe| self.slots[home + probe])
            .take_while(|slot| !slot.same(&K::EMPTY))
            .any(|slot| self.hits(&slot, &key))
    }

    #[inline]
    fn hits(&self, slot: &K, key: &K) -> bool {
        match self.exact {
            true => slot.same(key),
            false => slot.covers(key),
        }
    }

    #[inline]
    fn home(&self, key: K) -> usize {
        self.home_of(key.table_hash())
    }

    #[inline]
    fn home_of(&self, hash: u64) -> usize {
        home_among(hash, self.active)
    }

    fn grow(&mut self) {
        if self.active >= self.max_slots {
            return;
        }
        let mut keys = std::mem::take(&mut self.scratch);
        keys.clear();
        // Exactly: letting `extend` double the buffer could take as much
        // again as the table. The buffer holds nothing, so growing it in
        // place copies nothing (see `set_active`).
        keys.reserve_exact(self.len);
        keys.extend(
            self.slots[..self.active + PROBES - 1]
                .iter()
                .filter(|k| !k.same(&K::EMPTY)),
        );
        self.set_active(self.next_active());
        self.len = 0;
        for &key in &keys {
            self.place(key);
        }
        self.scratch = keys;
    }

    /// Has the next growth's fresh memory, the slots' and the copy's,
    /// first touched on another thread while the table fills (see
    /// [`crate::alloc::touch_ahead`]), so that the growth does not wait on
    /// the kernel: asked at once, as the touching can take as long as the
    /// filling.
    fn touch_ahead(&self) {
        let fresh = self.next_active() - self.active;
        let copy = growth_load(self.active, size_of::<K>());
        crate::alloc::touch_ahead((fresh + copy) * size_of::<K>());
    }

    /// See [`growth_load`].
    fn wants_growth(&self) -> bool {
        self.len >= growth_load(self.active, size_of::<K>())
    }

    /// The slots in use after the next growth.
    fn next_active(&self) -> usize {
        (self.active * self.growth_factor()).min(self.max_slots)
    }

    /// How many times its slots the table takes when it grows. Small
    /// tables grow fourfold, since each growth rehashes every key; past
    /// 8 MiB they double: the kernel clears each fresh page as it is first
    /// touched, and a large table grown fourfold may hold an eighth of its
    /// slots.
    fn growth_factor(&self) -> usize {
        match self.active * size_of::<K>() < DOUBLING_BYTES {
            true => 4,
            false => 2,
        }
    }

    /// Re-places a key while growing; one that finds no slot is dropped,
    /// which is only a forgotten position.
    fn place(&mut self, key: K) {
        let home = self.home(key);
        if let Some(probe) = (0..PROBES).find(|&p| self.slots[home + p].same(&K::EMPTY)) {
            self.slots[home + probe] = key;
            self.len += 1;
        } else {
            self.forgot = true;
        }
    }

    /// Whether the table dropped a position since the last clear: until it
    /// does, every position it was given is still there.
    pub fn has_forgotten(&self) -> bool {
        self.forgot
    }

    /// The cap in bytes the table was made with.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Most positions held at once since the last clear.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// Bytes the table holds, kept memory included.
    pub fn bytes(&self) -> usize {
        (self.slots.capacity() + self.scratch.capacity()) * size_of::<K>()
    }
}

/// The home slot of a key of hash `hash` among `slots`: the hash's high
/// bits scaled to them by a multiply rather than a division (Lemire's
/// "fastrange"); for a power of two, the high bits themselves.
#[inline]
pub(super) fn home_among(hash: u64, slots: usize) -> usize {
    ((u128::from(hash) * slots as u128) >> 64) as usize
}

/// Asks the processor to fetch `slot` into cache (see [`Table::prefetch`]).
#[inline]
pub(super) fn prefetch_slot<T>(slot: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch only hints at an address; this one is of a
        // live slot, and nothing is read or written through it.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((slot as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

/// The tables of one search's tactics (see [`crate::search::solve`]),
/// sharing one cap, and kept, like a table's memory, for the next search
/// of a batch.
pub struct Tables<K: TableKey> {
    cap: usize,
    tables: Vec<Table<K>>,
    pooled: bool,
}

impl<K: TableKey> Tables<K> {
    /// Tables that together never take more than `cap` bytes (but for a
    /// floor of a few KiB each).
    pub fn new(cap: usize) -> Tables<K> {
        Tables {
            cap,
            tables: Vec::new(),
            pooled: false,
        }
    }

    /// The tables of a thread whose searches may hand work to the threads
    /// of the rayon pool they run in, when those have none of their own: a
    /// beam's rollouts (see [`super::beam`]), and the fresh memory of a
    /// table's growth, which the kernel clears as it is first touched, and
    /// which the pool would otherwise wait on.
    pub fn in_pool(self) -> Tables<K> {
        Tables {
            pooled: true,
            ..self
        }
    }

    /// Whether these tables' searches may hand work to their pool.
    pub(super) fn pooled(&self) -> bool {
        self.pooled
    }

    /// `count` tables, each with an equal share of the cap. A table that
    /// grew past its share in the last search (see [`Tables::share`])
    /// starts afresh; the others keep their memory.
    pub(super) fn split(&mut self, count: usize) -> &mut [Table<K>] {
        let share = self.cap / count.max(1);
        let new = || Table {
            pooled: self.pooled,
            ..Table::new(share)
        };
        if self.tables.len() != count {
            self.tables = (0..count).map(|_| new()).collect();
        }
        for table in &mut self.tables {
            if table.cap != share {
                *table = new();
            }
        }
        &mut self.tables
    }

    /// Gives each of `tables` (with their indices) that `used` says is
    /// still in use a cap of `each`: the others give their memory back, and
    /// the rest may grow into it; those `waits` picks are left as they are.
    /// (A depth-first walk left alone to prove a deal lost would otherwise
    /// forget positions at its share of the cap, and search them again.)
    pub(super) fn share<'t>(
        tables: impl Iterator<Item = (usize, &'t mut Table<K>)>,
        each: usize,
        used: impl Fn(usize) -> bool,
        waits: impl Fn(usize) -> bool,
    ) where
        K: 't,
    {
        for (i, table) in tables {
            match (used(i), waits(i)) {
                (_, true) => {}
                (true, false) => table.raise_cap(each),
                (false, false) => table.release(),
            }
        }
    }

    /// The cap the tables share.
    pub(super) fn cap(&self) -> usize {
        self.cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_what_it_was_given() {
        let mut table = Table::<u64>::new(1 << 20);
        for k in 1..=10_000u64 {
            assert!(table.insert(k * 7919));
        }
        for k in 1..=10_000u64 {
            assert!(table.contains(k * 7919));
            assert!(!table.insert(k * 7919));
            assert!(!table.contains(k * 7919 + 1));
        }
        assert_eq!(table.peak(), 10_000);
    }

    #[test]
    fn stays_within_its_cap_and_forgets_rather_than_lies() {
        let cap = 64 * 1024;
        let mut table = Table::<u64>::new(cap);
        for k in 1..1_000_000u64 {
            table.insert(k);
        }
        assert!(table.bytes() <= cap, "{} bytes", table.bytes());
        // Whatever it forgot, it never claims a key it was not given.
        for k in 1_000_000..1_100_000u64 {
            assert!(!table.contains(k));
        }
        // Recent keys are mostly still there.
        let kept = (990_000..1_000_000u64)
            .filter(|&k| table.contains(k))
            .count();
        assert!(
            kept > table.active / 2,
            "kept only {kept} of {}",
            table.active
        );
    }

    #[test]
    fn growing_to_the_cap_stays_within_it() {
        // Room for 2M slots of 32-byte keys: the last growth doubles a 1M
        // table and copies half of it aside.
        let cap = 84 << 20;
        let mut table = Table::<[u64; 4]>::new(cap);
        for k in 1..1_100_000u64 {
            table.insert([k, 0, 0, 0]);
            assert!(
                table.bytes() <= cap,
                "{} bytes after {k} keys",
                table.bytes()
            );
        }
        assert_eq!(table.active, 1 << 21, "the last growth doubled the table");
    }

    /// A table grows at the first key over half its slots, and past
    /// [`LATE_GROWTH_BYTES`] over three quarters.
    #[test]
    fn growth_load_is_the_first_key_over_the_share() {
        for slots in [2048, 2049, 2050, 2051, 1 << 20, (1 << 20) + 3] {
            let half = growth_load(slots, 8);
            assert!(half * 2 > slots && (half - 1) * 2 <= slots, "{slots}");
            // Slots of a MiB put a few thousand past the mark.
            let late = growth_load(slots, 1 << 20);
            assert!(
                late * 4 > slots * 3 && (late - 1) * 4 <= slots * 3,
                "{slots}"
            );
        }
    }

    /// Past [`LATE_GROWTH_BYTES`] a table grows three quarters full, and
    /// so copies more keys aside: each size a table of three-word keys
    /// grows through, with the keys the size before it held at its growth
    /// beside it, stays within caps of one to sixteen GiB, and the sizes
    /// past the mark are reached.
    #[test]
    fn late_growth_stays_within_the_cap() {
        const KEY: usize = size_of::<[u64; 3]>();
        let mut late = 0;
        for cap in [1usize << 30, 3 << 30, 4 << 30, 6 << 30, 16 << 30] {
            let mut table = Table::<[u64; 3]>::new(cap);
            while table.active < table.max_slots {
                let active = table.active;
                let next = table.next_active();
                let bytes = (next + PROBES - 1 + growth_load(active, KEY)) * KEY;
                assert!(bytes <= cap, "{bytes} bytes growing {active} -> {next}");
                late += (active * KEY >= LATE_GROWTH_BYTES) as u32;
                table.active = next;
            }
        }
        assert!(late >= 5, "only {late} growths past the mark");
    }

    /// Room for 2Mi one-word keys: 1Mi slots and the copy of 512Ki keys
    /// aside when growing to them, and then, rather than stop there, a last
    /// size of the 1.5Mi slots left beside a copy of the 1Mi table's keys.
    #[test]
    fn the_last_size_takes_the_room_a_power_of_two_leaves() {
        let cap = 16 << 20;
        let mut table = Table::<u64>::new(cap);
        for k in 1..700_000u64 {
            table.insert(k);
            assert!(
                table.bytes() <= cap,
                "{} bytes after {k} keys",
                table.bytes()
            );
        }
        assert_eq!(table.active, (3 << 19) - 1 - PROBES);
        assert!(!table.has_forgotten());
        assert!((1..700_000u64).all(|k| table.contains(k)));
    }

    /// A table whose fresh memory the pool touches grows through the same
    /// sizes as any other, past the size the pool takes on, and holds the
    /// same keys (a big table at half load forgets the odd one: see
    /// [`PROBES`]).
    #[test]
    fn a_pooled_table_grows_as_any_other() {
        let mut tables = Tables::<[u64; 4]>::new(1 << 30).in_pool();
        let pooled = &mut tables.split(1)[0];
        let mut plain = Table::<[u64; 4]>::new(1 << 30);
        let key = |k: u64| [k, 1, 2, 3];
        for k in 1..300_000u64 {
            assert_eq!(pooled.insert(key(k)), plain.insert(key(k)));
        }
        assert!(pooled.pooled && pooled.slots.len() * 32 > 4 * POOLED_BYTES);
        assert_eq!((pooled.bytes(), pooled.len), (plain.bytes(), plain.len));
        assert!(pooled.len > 299_900);
        assert!((1..300_000u64).all(|k| pooled.contains(key(k)) == plain.contains(key(k))));
    }

    #[test]
    fn a_table_left_alone_grows_into_the_shares_of_the_others() {
        let cap = 3 << 20;
        let mut tables = Tables::<[u64; 2]>::new(cap);
        let fill = |table: &mut Table<[u64; 2]>| {
            for k in 1..200_000u64 {
                table.insert([k, 0]);
            }
        };
        let split = tables.split(3);
        split.iter_mut().for_each(fill);
        let shared = split[0].active;
        assert!(
            split.iter().all(|t| t.has_forgotten()),
            "a third of the cap is too small"
        );
        Tables::share(split.iter_mut().enumerate(), cap, |i| i == 0, |_| false);
        assert!(
            split[1].bytes() + split[2].bytes() < 100 << 10,
            "the others let go"
        );
        fill(&mut split[0]);
        assert!(split[0].active > shared, "{} slots", split[0].active);
        let total: usize = split.iter().map(Table::bytes).sum();
        assert!(total <= cap, "{total} bytes");
        // The next search starts from equal shares again.
        let split = tables.split(3);
        assert!(
            split
                .iter()
                .all(|t| t.cap() == cap / 3 && t.bytes() <= cap / 3)
        );
    }

    #[test]
    fn clear_forgets_everything() {
        let mut table = Table::<u64>::new(1 << 24);
        for k in 1..100_000u64 {
            table.insert(k);
        }
        let grown = table.bytes();
        table.clear();
        assert!(!table.contains(5));
        assert_eq!(table.peak(), 0);
        assert_eq!(table.bytes(), grown, "memory is kept for the next search");
        for k in 1..100u64 {
            table.insert(k);
        }
        assert!(table.contains(99));
        table.clear();
        assert_eq!(table.active, MIN_SLOTS, "a small search uses a small part");
        let tiny = Table::<[u64; 2]>::new(16 * 1024);
        assert!(
            tiny.bytes() <= 16 * 1024,
            "the cap holds below the usual start"
        );
        assert!(!table.contains(99));
    }
}
