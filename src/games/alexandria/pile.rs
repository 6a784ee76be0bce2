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

    /// A rank `i + 1` below the base, in the base's colour for odd `i`:
    /// read from [`RUN_CARDS`].
    #[inline]
    fn run_card(base: Card, i: u32, bits: u64) -> Card {
        match RUN_CARDS[base.index()][i as usize][bits as usize & 1] {
            NO_CARD => panic!("a run ends at an Ace"),
            card => Card::from_index(card as usize),
        }
    }
}

/// The longest run below a base: a King's twelve.
const MAX_RUN: usize = 12;

/// Each run card's index by its base (by [`Card::index`]), its place in
/// the run (0 the one on the base) and its suit bit, or [`NO_CARD`] below
/// an Ace: looked up, where spelling it out took a check of the rank and a
/// match of the colour at every run card of every pile the dead-end test
/// reads.
const RUN_CARDS: [[[u8; 2]; MAX_RUN]; Card::COUNT] = {
    let mut table = [[[NO_CARD; 2]; MAX_RUN]; Card::COUNT];
    let mut c = 0;
    while c < Card::COUNT {
        let base = Card::from_index(c);
        let mut i = 0;
        while i < MAX_RUN {
            let colour = match i % 2 {
                0 => other(base.colour()),
                _ => base.colour(),
            };
            if let Some(rank) = Rank::new(base.rank().get().wrapping_sub(1 + i as u8)) {
                table[c][i] = [
                    Card::new(rank, suit_of(colour, 0)).index() as u8,
                    Card::new(rank, suit_of(colour, 1)).index() as u8,
                ];
            }
            i += 1;
        }
        c += 1;
    }
    table
};

pub(super) type PileCode = pile_code::PileCode<Alternating>;

impl PileCode {
    /// The run's cards, a bit each by [`Card::index`], with `base` the card
    /// it lies on: one of each rank below the base's, down the run's
    /// length, alternating in colour from the other one on the base. The
    /// run's bits, the top card lowest, rank up from the top card's, so
    /// each suit's cards are the bits of its colour's ranks, set for
    /// Spades and Hearts and clear for Clubs and Diamonds (see
    /// [`suit_bit`]), shifted to its place: no card read one at a time.
    pub(super) fn run_mask(self, base: Card) -> u64 {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let len = self.run_len();
        let all = (1u64 << len) - 1;
        let bits = self.run() & all;
        // The run's card on the base, at bit `len - 1`, is of the other
        // colour, and so every other one down from it.
        let other = all & if len % 2 == 1 { EVEN } else { EVEN << 1 };
        let (black, red) = match base.colour() {
            Colour::Black => (all & !other, other),
            Colour::Red => (other, all & !other),
        };
        let lowest = base.rank().index() as u32 - len;
        let lane = |cards: u64, suit: Suit| cards << lowest << (13 * suit.index() as u32);
        lane(black & !bits, Suit::Clubs)
            | lane(black & bits, Suit::Spades)
            | lane(red & !bits, Suit::Diamonds)
            | lane(red & bits, Suit::Hearts)
    }

    /// The cards that move off the pile as one run: the run and its base.
    pub(super) fn movable(self) -> u32 {
        match self.is_empty() {
            true => 0,
            false => self.run_len() + 1,
        }
    }
}

/// The suit of `colour` a suit bit (see [`suit_bit`]) names.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's cards as a set are those built on its base one by one, each
    /// a rank below the last of the other colour, in the suit a choice of
    /// two names, over every base and every choice of suits down to the
    /// Ace.
    #[test]
    fn run_masks_are_the_cards_built_one_by_one() {
        for base in (0..Card::COUNT).map(Card::from_index) {
            let below = base.rank().get() as u32 - 1;
            for choices in 0..1u32 << below {
                let (mut code, mut cards, mut last) = (PileCode::lone(base), 0u64, base);
                for i in 0..below {
                    let colour = other(last.colour());
                    let suit = match (colour, choices >> i & 1) {
                        (Colour::Black, 0) => Suit::Clubs,
                        (Colour::Black, _) => Suit::Spades,
                        (Colour::Red, 0) => Suit::Diamonds,
                        (Colour::Red, _) => Suit::Hearts,
                    };
                    let rank = Rank::new(last.rank().get() - 1).expect("above an Ace");
                    last = Card::new(rank, suit);
                    code = code.push(last);
                    cards |= 1 << last.index();
                    assert_eq!(code.run_mask(base), cards, "{base} {choices:b} {i}");
                }
            }
        }
    }

    /// Each run card in the table lies on the card above it in the run
    /// (a rank lower, of the other colour), so on the base a rank `i + 1`
    /// lower in the base's colour for odd `i`, with the suit its bit
    /// names; and there is none below an Ace.
    #[test]
    fn run_cards_are_a_rank_down_in_alternating_colour() {
        for base in (0..Card::COUNT).map(Card::from_index) {
            for i in 0..MAX_RUN as u32 {
                for bit in 0..2 {
                    let below = base.rank().get() as i32 - 1 - i as i32;
                    let entry = RUN_CARDS[base.index()][i as usize][bit as usize];
                    if below < 1 {
                        assert_eq!(entry, NO_CARD, "{base} {i} {bit}");
                        continue;
                    }
                    let card = Alternating::run_card(base, i, bit);
                    assert_eq!(card.rank().get() as i32, below, "{base} {i} {bit}");
                    assert_eq!(card.colour() == base.colour(), i % 2 == 1, "{base} {i}");
                    assert_eq!(suit_bit(card) as u64, bit, "{base} {i} {bit}");
                }
            }
        }
    }
}
