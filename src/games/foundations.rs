//! The foundations of the games with several decks (Rows of Four,
//! Alexandria): any empty one takes an Ace, then up by suit.
//!
//! A position keeps them in the board's places and fills them as the
//! reference rules do (an Ace on the first empty one, any other card on
//! the first of its suit showing the rank below), so that the engine's
//! `to_board` prints the board the reference reaches. The keys leave them
//! out: the cards home follow from the rest, and which place each
//! foundation stands in changes no move.

use super::safe_home::SafeRule;
use crate::board::Board;
use crate::card::{Card, Rank, Suit};

/// `F` foundations in the board's places, a byte each (see [`slot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Foundations<const F: usize>(pub(super) [u8; F]);

/// A foundation in a byte: 0 when empty, else its suit's index times 16
/// plus the rank on it.
pub(super) const fn slot(card: Card) -> u8 {
    (card.suit().index() as u8) << 4 | card.rank().get()
}

/// The rank on a foundation, 0 for an empty one.
pub(super) const fn slot_rank(slot: u8) -> u8 {
    slot & 0xf
}

/// The top card of a foundation, `None` for an empty one.
fn slot_card(slot: u8) -> Option<Card> {
    Rank::new(slot_rank(slot)).map(|rank| Card::new(rank, Suit::from_index((slot >> 4) as usize)))
}

impl<const F: usize> Foundations<F> {
    /// The decks, one foundation of each suit a deck.
    const DECKS: u8 = (F / 4) as u8;

    /// The board's foundations, in its places.
    pub(super) fn read(board: &Board) -> Self {
        let mut home = [0; F];
        for (place, top) in home.iter_mut().zip(&board.foundations) {
            *place = top.map_or(0, slot);
        }
        Foundations(home)
    }

    /// The foundations as the board shows them: none while nothing is home
    /// on a board that had no `Foundations:` line (`bare`), as the
    /// reference rules print it.
    pub(super) fn tops(&self, bare: bool) -> Vec<Option<Card>> {
        let started = self.0.iter().any(|&s| s != 0);
        match bare && !started {
            true => Vec::new(),
            false => self.0.iter().map(|&s| slot_card(s)).collect(),
        }
    }

    /// The foundation `card` goes on, as the reference rules pick it: an
    /// Ace on the first empty one, any other card on the first of its suit
    /// showing the rank below; `None` if none takes it.
    #[inline]
    pub(super) fn place_for(&self, card: Card) -> Option<usize> {
        // For a rank above 1, `slot(card) - 1` is its suit showing the rank
        // below, never 0.
        let wanted = match card.rank() {
            Rank::ACE => 0,
            _ => slot(card) - 1,
        };
        self.0.iter().position(|&s| s == wanted)
    }

    /// `card` put home, where [`Foundations::place_for`] says.
    pub(super) fn put(&mut self, card: Card) {
        let to = self.place_for(card).expect("the move goes home");
        self.0[to] = slot(card);
    }

    /// The started foundations: each one's suit (its index) and rank.
    #[inline]
    pub(super) fn started(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        (self.0.iter())
            .filter(|&&s| s != 0)
            .map(|&s| ((s >> 4) as usize, slot_rank(s)))
    }

    /// The rank up to which every copy of each suit's cards is home (by
    /// suit index): its lowest foundation, 0 while one is not started.
    #[inline]
    pub(super) fn lows(&self) -> [u8; 4] {
        let mut started = [0u8; 4];
        let mut low = [13u8; 4];
        for (suit, rank) in self.started() {
            started[suit] += 1;
            low[suit] = low[suit].min(rank);
        }
        for suit in 0..4 {
            if started[suit] < Self::DECKS {
                low[suit] = 0;
            }
        }
        low
    }

    /// Whether `card` can go home now and is safe there by `rule`.
    #[inline]
    pub(super) fn safe(&self, rule: &SafeRule, card: Card) -> bool {
        self.place_for(card).is_some() && rule.safe(&self.lows(), card)
    }

    pub(super) fn is_won(&self) -> bool {
        self.0.iter().all(|&s| slot_rank(s) == 13)
    }

    pub(super) fn cards_home(&self) -> u32 {
        self.0.iter().map(|&s| slot_rank(s) as u32).sum()
    }
}
