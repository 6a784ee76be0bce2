//! Alexandria's piles as codes (see [`super::super::pile_code`]): a run
//! builds down in alternating colour, so each run card keeps which suit of
//! its colour it is, one bit; with thirteen piles the base takes nine bits,
//! and a code 22.

use super::{Alexandria, State, Step, TALON};
use crate::card::{Card, Colour, Rank, Suit};
use crate::games::NO_CARD;
use crate::games::alternating::suit_bit;
use crate::games::pile_code::{self, MAX_START, Runs};

/// Alexandria's way of writing a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Alternating;

impl Runs for Alternating {
    type Word = u32;
    const CARD_BITS: u32 = 1;
    const STRIDE: usize = MAX_START - 1;
    const BASE_BITS: u32 = 9;

    fn card_bits(card: Card) -> u64 {
        suit_bit(card) as u64
    }

    /// A rank `i + 1` below the base, in the base's colour for odd `i`.
    fn run_card(base: Card, i: u32, bits: u64) -> Card {
        let colour = match i % 2 {
            0 => other(base.colour()),
            _ => base.colour(),
        };
        match Rank::new(base.rank().get() - 1 - i as u8) {
            Some(rank) => Card::new(rank, suit_of(colour, bits as u32)),
            None => panic!("a run ends at an Ace"),
        }
    }
}

pub(super) type PileCode = pile_code::PileCode<Alternating>;

impl PileCode {
    /// The cards that move off the pile as one run: the run and its base.
    pub(super) fn movable(self) -> u32 {
        match self.is_empty() {
            true => 0,
            false => self.run_len() + 1,
        }
    }
}

/// The suit of `colour` a suit bit (see [`suit_bit`]) names: read from a
/// table, where a match on both cost branches at every run card spelled
/// out.
const fn suit_of(colour: Colour, bit: u32) -> Suit {
    const SUITS: [[Suit; 2]; 2] = [[Suit::Clubs, Suit::Spades], [Suit::Diamonds, Suit::Hearts]];
    SUITS[colour as usize][(bit != 0) as usize]
}

pub(super) const fn other(colour: Colour) -> Colour {
    match colour {
        Colour::Black => Colour::Red,
        Colour::Red => Colour::Black,
    }
}

impl Alexandria {
    /// The card the run of pile `pile` lies on, if the pile has cards.
    pub(super) fn base(&self, pile: usize, code: PileCode) -> Option<Card> {
        code.base_in(&self.start_cards[pile])
    }

    /// The card `depth` cards down from the top of the pile's movable run
    /// (0 the top, `movable - 1` the base).
    pub(super) fn card_at_depth(&self, pile: usize, code: PileCode, depth: u32) -> Card {
        let base = self.base(pile, code).expect("the pile has cards");
        match code.run_len() - depth {
            0 => base,
            i => Alternating::run_card(base, i - 1, code.run() >> depth & 1),
        }
    }

    /// The pile's top card's index, or [`NO_CARD`].
    pub(super) fn top_of(&self, pile: usize, code: PileCode) -> u8 {
        match code.is_empty() {
            true => NO_CARD,
            false => self.card_at_depth(pile, code, 0).index() as u8,
        }
    }

    /// How many of the pile's starting cards lie face down while `dealt`
    /// of them are left: those face down on the board, but for the top
    /// one, which has been the pile's top (or was face up on the board).
    pub(super) fn face_down(&self, pile: usize, dealt: usize) -> usize {
        (self.down[pile] as usize).min(dealt.saturating_sub(1))
    }

    /// A pile's cards, bottom to top, and how many of them lie face down.
    pub(super) fn pile_cards(&self, pile: usize, code: PileCode) -> (Vec<Card>, usize) {
        let cards = code.to_vec(&self.start_cards[pile]);
        (cards, self.face_down(pile, code.dealt_left()))
    }

    pub(super) fn card_of_step(&self, state: &State, step: Step) -> Card {
        match step.pile() {
            Some(p) => self.card_at_depth(p, state.piles[p], step.count as u32 - 1),
            None => self.talon.card(step.from - TALON),
        }
    }
}
