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
    /// The key `word`, which must leave bit `SPARE` clear: a key with it
    /// set would read back as another key, once the table stripped its
    /// mark.
    #[inline]
    pub const fn new(word: u64) -> SpareBitKey<SPARE> {
        debug_assert!(word & 1 << SPARE == 0, "a key sets its spare bit");
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

#[cfg(test)]
mod tests {
    /// A key that sets its spare bit is refused where it is made (in
    /// builds with debug checks: the key is made at every position).
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "spare bit")]
    fn a_key_may_not_set_its_spare_bit() {
        let _ = super::SpareBitKey::<62>::new(1 << 62 | 1);
    }
}
