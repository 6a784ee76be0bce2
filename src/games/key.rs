//! Packing positions into keys, for the games that write each pile as a
//! fixed-width code.

use super::pile_code::{PileCode, Runs};

/// ORs `value` into a key's words from bit `bit` on, low bits first,
/// carrying into the next word what runs past the end of one; what runs
/// past the last word is dropped.
#[inline]
pub(super) fn put_bits<const N: usize>(words: &mut [u64; N], bit: u32, value: u64) {
    let (word, shift) = ((bit / 64) as usize, bit % 64);
    words[word] |= value << shift;
    if shift > 0 && word + 1 < N {
        words[word + 1] |= value >> (64 - shift);
    }
}

/// A key of a game with a talon, low to high: the pile codes sorted, so
/// that positions that differ only in the order of the piles are one
/// position; the talon's mask, one bit for each of its `talon_len` places;
/// then `rest`. The top bit is always set, so no key is the table's empty
/// slot. Exact if the codes and `rest` are.
#[inline]
pub(super) fn codes_and_talon<R: Runs, const P: usize, const N: usize>(
    mut codes: [PileCode<R>; P],
    talon: u128,
    talon_len: u8,
    rest: u64,
) -> [u64; N] {
    codes.sort_unstable();
    let mut words = [0u64; N];
    let mut bit = 0;
    for code in codes {
        put_bits(&mut words, bit, code.get());
        bit += PileCode::<R>::BITS;
    }
    put_bits(&mut words, bit, talon as u64);
    put_bits(&mut words, bit + 64, (talon >> 64) as u64);
    put_bits(&mut words, bit + talon_len as u32, rest);
    put_bits(&mut words, 64 * N as u32 - 1, 1);
    words
}
