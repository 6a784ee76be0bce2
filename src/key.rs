//! The key of a position, as the search's tables store it (see
//! [`crate::search::Table`]): exact, so that a position found in a table
//! is the position looked for, never another one with the same hash.
//!
//! It lies outside the search so that a game ([`crate::game::Game::Key`])
//! and the search both use it without either importing the other.

/// A key the table can store.
pub trait TableKey: Copy + Eq + std::hash::Hash + Send + Sync {
    /// The value marking an empty slot: zero, so that a new table is
    /// zeroed memory the system hands out lazily. No game may produce it as
    /// a key.
    const EMPTY: Self;

    /// How many 64-bit words the key takes, and each of them: what the
    /// search's table shared between threads stores.
    const WORDS: usize;
    fn word(&self, i: usize) -> u64;
    fn from_words(words: &[u64]) -> Self;

    /// A well-mixed hash; the table indexes with its high bits.
    fn table_hash(&self) -> u64;

    /// A bit no key ever sets, if the key is one word and has one: the
    /// table shared between threads then keeps a slot in that one word.
    const SPARE_BIT: Option<u64> = None;

    /// Whether two keys are equal: `==`, which for arrays of words calls
    /// `memcmp`, and each probe of the table compares keys.
    fn same(&self, other: &Self) -> bool {
        self == other
    }

    /// Whether the position of this key can do all that `other`'s can: a
    /// win from `other` is a win from it, in as many moves. A table that
    /// holds this key then need not search `other` (see [`TalonKey`]).
    /// Keys that cover one another hash alike.
    #[inline]
    fn covers(&self, other: &Self) -> bool {
        self.same(other)
    }
}

impl TableKey for u64 {
    const EMPTY: u64 = 0;
    const WORDS: usize = 1;

    fn word(&self, _: usize) -> u64 {
        *self
    }

    fn from_words(words: &[u64]) -> u64 {
        words[0]
    }

    fn table_hash(&self) -> u64 {
        let k = *self ^ (*self >> 32);
        k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// A one-word key in which bit `SPARE` is never set, as a game promises
/// (All in a Row's): the shared table keeps its slots in one word, with
/// its mark in that bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SpareBitKey<const SPARE: u32>(u64);

impl<const SPARE: u32> SpareBitKey<SPARE> {
    /// The key `word`, which must leave bit `SPARE` clear (it panics
    /// otherwise): a key with it set would read back as another key, once
    /// the table stripped its mark.
    #[inline]
    pub const fn new(word: u64) -> SpareBitKey<SPARE> {
        assert!(word & 1 << SPARE == 0, "a key sets its spare bit");
        SpareBitKey(word)
    }
}

impl<const SPARE: u32> TableKey for SpareBitKey<SPARE> {
    const EMPTY: SpareBitKey<SPARE> = SpareBitKey(0);
    const WORDS: usize = 1;
    const SPARE_BIT: Option<u64> = Some(1 << SPARE);

    fn word(&self, _: usize) -> u64 {
        self.0
    }

    fn from_words(words: &[u64]) -> SpareBitKey<SPARE> {
        SpareBitKey(words[0])
    }

    fn table_hash(&self) -> u64 {
        self.0.table_hash()
    }
}

impl<const N: usize> TableKey for [u64; N] {
    const EMPTY: [u64; N] = [0; N];
    const WORDS: usize = N;

    fn word(&self, i: usize) -> u64 {
        self[i]
    }

    fn from_words(words: &[u64]) -> [u64; N] {
        std::array::from_fn(|i| words[i])
    }

    fn table_hash(&self) -> u64 {
        self.iter()
            .fold(0u64, |h, &w| {
                (h.rotate_left(23) ^ w).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            })
            .table_hash()
    }

    /// Every word compared, with no branch and no call: a probe mostly
    /// meets a different key or an empty slot, which `memcmp` is slow to
    /// tell.
    #[inline]
    fn same(&self, other: &Self) -> bool {
        self.iter()
            .zip(other)
            .fold(0, |diff, (a, b)| diff | (a ^ b))
            == 0
    }
}

/// A key whose last word holds, in bits [`TalonKey::STRENGTH_AT`] to 62,
/// how much the position's talon can still reach, a strength that only
/// the game's argument orders (see `games::talon::strength`): of two keys
/// that differ only there, the stronger covers the other. Lanes keys so: a
/// talon with more redeals left, or the same cards with the cursor further
/// back, plays every card the other can, to the same position. (Rows of
/// Four and Alexandria measured no better so: `docs/tuning.md`.) The hash
/// leaves the strength out, so that a position's covers lie in its window
/// of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TalonKey<const N: usize>([u64; N]);

impl<const N: usize> TalonKey<N> {
    /// The strength's first bit in the last word; it takes 10 bits, up to
    /// the key's top bit.
    pub const STRENGTH_AT: u32 = 53;
    const STRENGTH: u64 = ((1 << 10) - 1) << Self::STRENGTH_AT;

    /// The key `words`, which leave the strength's bits clear, with
    /// `strength` (less than 1024) put in them. Panics otherwise: a key
    /// that is not exact could give a wrong verdict, and the check costs
    /// next to nothing beside the key's making.
    #[inline]
    pub fn new(mut words: [u64; N], strength: u64) -> TalonKey<N> {
        assert!(
            words[N - 1] & Self::STRENGTH == 0 && strength < 1 << 10,
            "a key's words reach into the talon's strength"
        );
        words[N - 1] |= strength << Self::STRENGTH_AT;
        TalonKey(words)
    }

    /// The words but the strength's bits.
    #[inline]
    fn rest(&self) -> [u64; N] {
        let mut words = self.0;
        words[N - 1] &= !Self::STRENGTH;
        words
    }
}

impl<const N: usize> TableKey for TalonKey<N> {
    const EMPTY: TalonKey<N> = TalonKey([0; N]);
    const WORDS: usize = N;

    fn word(&self, i: usize) -> u64 {
        self.0[i]
    }

    fn from_words(words: &[u64]) -> TalonKey<N> {
        TalonKey(<[u64; N]>::from_words(words))
    }

    fn table_hash(&self) -> u64 {
        self.rest().table_hash()
    }

    #[inline]
    fn same(&self, other: &Self) -> bool {
        self.0.same(&other.0)
    }

    #[inline]
    fn covers(&self, other: &Self) -> bool {
        self.rest().same(&other.rest())
            && self.0[N - 1] & Self::STRENGTH >= other.0[N - 1] & Self::STRENGTH
    }
}

#[cfg(test)]
mod tests {
    /// A key that sets its spare bit is refused where it is made.
    #[test]
    #[should_panic(expected = "spare bit")]
    fn a_key_may_not_set_its_spare_bit() {
        let _ = super::SpareBitKey::<62>::new(1 << 62 | 1);
    }

    /// A talon key whose words reach into the strength's bits is refused
    /// where it is made: the strength is left out of the part that must
    /// match, so such bits would make keys of different positions cover
    /// one another.
    #[test]
    #[should_panic(expected = "strength")]
    fn a_talon_key_may_not_reach_into_its_strength() {
        let _ = super::TalonKey::new([7, 1 << 53 | 1 << 63], 3);
    }

    /// A talon key covers the keys that differ from it only in a lower
    /// strength, and hashes as they do; any other difference is a
    /// different position.
    #[test]
    fn a_talon_key_covers_the_same_position_with_a_weaker_talon() {
        use super::{TableKey, TalonKey};
        let key = |rest: u64, strength: u64| TalonKey::new([7, rest | 1 << 63], strength);
        assert!(key(5, 9).covers(&key(5, 9)));
        assert!(key(5, 9).covers(&key(5, 3)));
        assert!(!key(5, 3).covers(&key(5, 9)));
        assert!(!key(5, 9).covers(&key(6, 3)));
        assert!(!TalonKey::new([8, 5 | 1 << 63], 9).covers(&key(5, 0)));
        assert_eq!(key(5, 9).table_hash(), key(5, 3).table_hash());
        assert_ne!(key(5, 9).table_hash(), key(6, 9).table_hash());
    }
}
