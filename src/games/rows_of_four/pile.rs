//! Rows of Four's piles as codes (see [`super::super::pile_code`]): a run
//! builds down regardless of suit, so each run card keeps its suit, two
//! bits; with eight piles the base fits in a byte, and a code in 33 bits.

use super::{RowsOfFour, State};
use crate::card::{Card, Rank, Suit};
use crate::games::NO_CARD;
use crate::games::pile_code::{self, MAX_START, Runs};
use crate::games::talon::From;

/// Rows of Four's way of writing a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct AnySuit;

impl Runs for AnySuit {
    type Word = u64;
    const CARD_BITS: u32 = 2;
    const STRIDE: usize = MAX_START;
    const BASE_BITS: u32 = 8;

    fn card_bits(card: Card) -> u64 {
        card.suit().index() as u64
    }

    fn run_card(base: Card, i: u32, bits: u64) -> Card {
        card_of(base.rank().get() - 1 - i as u8, bits as usize)
    }
}

pub(super) type PileCode = pile_code::PileCode<AnySuit>;

/// The card of `rank` (1 to 13) and suit index `suit`.
pub(super) const fn card_of(rank: u8, suit: usize) -> Card {
    match Rank::new(rank) {
        Some(rank) => Card::new(rank, Suit::from_index(suit)),
        None => panic!("ranks run from 1 to 13"),
    }
}

impl RowsOfFour {
    /// The pile after its top card leaves.
    pub(super) fn pop(&self, pile: usize, code: PileCode) -> PileCode {
        match code.run_len() {
            0 => self.dealt_codes[pile][code.dealt_left().saturating_sub(1)],
            _ => code.pop_run(1),
        }
    }

    pub(super) fn card_at(&self, state: &State, from: From) -> Card {
        match from {
            From::Pile(p) => Card::from_index(state.tops[p as usize] as usize),
            From::Talon(t) => self.talon.card(t),
        }
    }

    /// The top card of pile `pile` with code `code` and no run: its top
    /// starting card, its lone bottom card, or none.
    pub(super) fn base_top(&self, pile: usize, code: PileCode) -> u8 {
        match code.base_in(&self.start_cards[pile]) {
            Some(card) => card.index() as u8,
            None => NO_CARD,
        }
    }
}
