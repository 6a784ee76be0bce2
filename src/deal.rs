//! Numbered deals: RULES.md's public promise that deal `N` of a game is
//! the same layout in every release.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, Pile};
use crate::card::{Card, Rank, ordered_pack};

/// How a game is dealt: what the numbered deals and board checks need.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub decks: u8,
    pub foundations: u8,
    /// The Aces are taken out first and start the foundations.
    pub aces_start_home: bool,
    /// Cards dealt to each tableau pile, left to right.
    pub piles: &'static [u8],
    pub reserve: u8,
    /// Whether the cards left over form a stock.
    pub stock: bool,
    /// Whether all but the top card of each pile are dealt face down.
    pub face_down: bool,
}

impl Layout {
    /// `decks` decks dealt to `piles`, all face up or all but each pile's
    /// top face down (`face_down`), the rest to a stock; empty foundations,
    /// one of each suit a deck, and no reserve.
    pub const fn with_stock(decks: u8, piles: &'static [u8], face_down: bool) -> Layout {
        Layout {
            decks,
            foundations: 4 * decks,
            aces_start_home: false,
            piles,
            reserve: 0,
            stock: true,
            face_down,
        }
    }
}

/// The ordered pack for `decks` decks, shuffled for deal `n`.
///
/// The Fisher–Yates pass is written out (RULES.md gives it) rather than
/// taken from a crate, so that no crate update can change a deal.
pub fn shuffled_pack(n: u64, decks: u8) -> Vec<Card> {
    let mut pack = ordered_pack(decks as usize);
    let mut rng = ChaCha8Rng::seed_from_u64(n);
    for i in (1..pack.len()).rev() {
        let j = ((rng.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
        pack.swap(i, j);
    }
    pack
}

/// Numbered deal `n` of a game with this layout.
pub fn deal(layout: &Layout, n: u64) -> Board {
    let mut cards = shuffled_pack(n, layout.decks);
    let mut board = Board {
        foundations: vec![None; layout.foundations as usize],
        ..Board::default()
    };
    if layout.aces_start_home {
        let (aces, rest): (Vec<Card>, Vec<Card>) =
            cards.into_iter().partition(|c| c.rank() == Rank::ACE);
        for (slot, ace) in board.foundations.iter_mut().zip(aces) {
            *slot = Some(ace);
        }
        cards = rest;
    }
    let mut next = cards.into_iter();
    let mut piles: Vec<Vec<Card>> = layout
        .piles
        .iter()
        .map(|&h| Vec::with_capacity(h as usize))
        .collect();
    let tallest = layout.piles.iter().copied().max().unwrap_or(0);
    for row in 0..tallest {
        for (pile, &height) in piles.iter_mut().zip(layout.piles) {
            if row < height {
                pile.extend(next.next());
            }
        }
    }
    board.piles = piles
        .into_iter()
        .map(|mut cards| {
            if layout.face_down {
                let up = cards.split_off(cards.len().saturating_sub(1));
                Pile { down: cards, up }
            } else {
                Pile::face_up(cards)
            }
        })
        .collect();
    if layout.reserve > 0 {
        board.reserve = Some(
            next.by_ref()
                .take(layout.reserve as usize)
                .map(Some)
                .collect(),
        );
    }
    if layout.stock {
        board.stock = Some(next.collect());
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_a_permutation() {
        let mut pack = shuffled_pack(12345, 3);
        pack.sort();
        let mut ordered = ordered_pack(3);
        ordered.sort();
        assert_eq!(pack, ordered);
    }

    #[test]
    fn different_numbers_give_different_deals() {
        assert_ne!(shuffled_pack(1, 1), shuffled_pack(2, 1));
        assert_eq!(shuffled_pack(7, 1), shuffled_pack(7, 1));
    }
}
