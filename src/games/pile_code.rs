//! A pile of the games with several decks (Rows of Four, Alexandria) as a
//! code: the card its run lies on (its base) and the run.
//!
//! A pile is the cards it started with, of which some are still there, and
//! a run built on the top one (or on the lone card put on a pile once it
//! was emptied). A run card lies one rank below the card under it, so it
//! is fixed by that card but for its suit, of which a game keeps what its
//! building leaves free ([`Runs::CARD_BITS`]). Copies are alike, so a run
//! card is that (rank, suit) and nothing more.
//!
//! A code, low to high:
//! - the run (`1 + 12 * CARD_BITS` bits): a 1, then each run card's bits
//!   from the bottom up, so the top card's are the lowest. At most 12
//!   cards (a King's base down to an Ace).
//! - the base ([`Runs::BASE_BITS`] bits): a card's index (0 to 51) when
//!   that card is all there is under the run (a pile's last starting card,
//!   or the card put on an emptied pile); 52 for an empty pile;
//!   `64 + STRIDE * pile + dealt - 2` while `dealt` (2 to [`MAX_START`]) of
//!   the pile's starting cards are left, the top one the base.
//!
//! Starting cards at the top of a pile that happen to lie in order on the
//! one below count as a run (see [`dealt_codes`]), so that a card moved off
//! and back gives its pile its first code again.
//!
//! Equal codes are equal piles wherever they stand, and different piles
//! have different codes but when both hold two or more starting cards of
//! different piles that happen to be alike, which only costs a key a few
//! positions it could have merged.

use std::fmt::Debug;
use std::hash::Hash;

use crate::board::{Board, BoardError};
use crate::card::Card;

/// The most cards a pile of a typed board may hold: what a [`PileCode`]
/// can count (a dealt pile holds at most 7, and a run of 12 may be built
/// on its top card).
pub(super) const MAX_START: usize = 24;

/// The word a game keeps its codes in: as narrow as they fit, since a
/// position holds one a pile.
pub(super) trait Word: Copy + Ord + Hash + Debug {
    fn widen(self) -> u64;
    fn narrow(wide: u64) -> Self;
}

impl Word for u32 {
    #[inline]
    fn widen(self) -> u64 {
        self as u64
    }

    #[inline]
    fn narrow(wide: u64) -> u32 {
        wide as u32
    }
}

impl Word for u64 {
    #[inline]
    fn widen(self) -> u64 {
        self
    }

    #[inline]
    fn narrow(wide: u64) -> u64 {
        wide
    }
}

/// How a game writes its piles' codes.
pub(super) trait Runs: Copy + Ord + Hash + Debug {
    type Word: Word;
    /// The bits that tell a run card from the others its place allows.
    const CARD_BITS: u32;
    /// The dealt bases a pile has room for.
    const STRIDE: usize;
    /// The base's bits: room for every pile's dealt bases.
    const BASE_BITS: u32;

    /// A run card's bits.
    fn card_bits(card: Card) -> u64;

    /// Run card `i` (from 0, the one on the base) on `base`, with `bits`.
    fn run_card(base: Card, i: u32, bits: u64) -> Card;
}

/// One pile: see the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct PileCode<R: Runs>(pub(super) R::Word);

impl<R: Runs> PileCode<R> {
    const RUN_BITS: u32 = 1 + 12 * R::CARD_BITS;
    const RUN_MASK: u64 = (1 << Self::RUN_BITS) - 1;
    const CARD_MASK: u64 = (1 << R::CARD_BITS) - 1;
    const EMPTY_BASE: u64 = Card::COUNT as u64;
    const DEALT_BASE: u64 = 64;
    /// The code's width, for packing keys.
    pub(super) const BITS: u32 = Self::RUN_BITS + R::BASE_BITS;

    #[inline]
    fn new(code: u64) -> Self {
        PileCode(R::Word::narrow(code))
    }

    /// The code in a `u64`.
    #[inline]
    pub(super) fn get(self) -> u64 {
        self.0.widen()
    }

    pub(super) fn empty() -> Self {
        Self::new(Self::EMPTY_BASE << Self::RUN_BITS | 1)
    }

    /// The pile holding just `card`.
    #[inline]
    pub(super) fn lone(card: Card) -> Self {
        Self::new((card.index() as u64) << Self::RUN_BITS | 1)
    }

    /// Pile `pile` holding `dealt` (at most [`MAX_START`]) of its starting
    /// cards, the first `bottom`, and no run.
    pub(super) fn dealt(pile: usize, dealt: usize, bottom: Card) -> Self {
        match dealt {
            0 => Self::empty(),
            1 => Self::lone(bottom),
            _ => {
                let base = Self::DEALT_BASE + (R::STRIDE * pile + dealt - 2) as u64;
                Self::new(base << Self::RUN_BITS | 1)
            }
        }
    }

    /// The base's bits (see the module doc): a dealt base names the pile
    /// and how many of its starting cards are left.
    #[inline]
    pub(super) fn base(self) -> u64 {
        self.get() >> Self::RUN_BITS
    }

    /// The run's bits under its leading 1.
    #[inline]
    pub(super) fn run(self) -> u64 {
        self.get() & Self::RUN_MASK
    }

    /// Cards in the run above the base.
    #[inline]
    pub(super) fn run_len(self) -> u32 {
        (63 - self.run().leading_zeros()) / R::CARD_BITS
    }

    /// The bits of the run's top card, if the run has any.
    #[inline]
    pub(super) fn top_bits(self) -> u64 {
        self.get() & Self::CARD_MASK
    }

    /// How many starting cards are left under the run, if two or more;
    /// else 0.
    #[inline]
    pub(super) fn dealt_left(self) -> usize {
        match self.base() {
            base if base >= Self::DEALT_BASE => (base - Self::DEALT_BASE) as usize % R::STRIDE + 2,
            _ => 0,
        }
    }

    #[inline]
    pub(super) fn is_empty(self) -> bool {
        self.base() == Self::EMPTY_BASE
    }

    /// The pile's bottom card, if it is all there is under the run.
    #[inline]
    pub(super) fn base_card(self) -> Option<Card> {
        match self.base() {
            base if base < Self::EMPTY_BASE => Some(Card::from_index(base as usize)),
            _ => None,
        }
    }

    /// How many cards the pile holds.
    pub(super) fn len(self) -> usize {
        self.dealt_left() + self.base_card().is_some() as usize + self.run_len() as usize
    }

    /// The card the run lies on, if the pile has cards, with `start` the
    /// pile's starting cards.
    #[inline]
    pub(super) fn base_in(self, start: &[Card]) -> Option<Card> {
        match self.dealt_left() {
            0 => self.base_card(),
            d => Some(start[d - 1]),
        }
    }

    /// The pile with `count` cards of `bits` (each card's, the top one
    /// lowest) built on its run.
    #[inline]
    pub(super) fn push_run(self, bits: u64, count: u32) -> Self {
        let run = self.run() << (count * R::CARD_BITS) | bits;
        Self::new(self.get() & !Self::RUN_MASK | run)
    }

    /// The pile with `card` built on it, or put on it if it is empty.
    #[inline]
    pub(super) fn push(self, card: Card) -> Self {
        match self.is_empty() {
            true => Self::lone(card),
            false => self.push_run(R::card_bits(card), 1),
        }
    }

    /// The pile with the top `count` (at most the run's length) of its
    /// run's cards gone.
    #[inline]
    pub(super) fn pop_run(self, count: u32) -> Self {
        Self::new(self.get() & !Self::RUN_MASK | self.run() >> (count * R::CARD_BITS))
    }

    /// Calls `visit` on the pile's cards, bottom to top, with `start` the
    /// pile's starting cards.
    pub(super) fn cards(self, start: &[Card], mut visit: impl FnMut(Card)) {
        let dealt = &start[..self.dealt_left()];
        dealt.iter().for_each(|&card| visit(card));
        let base = match (dealt.last(), self.base_card()) {
            (Some(&top), _) => top,
            (None, Some(card)) => {
                visit(card);
                card
            }
            (None, None) => return,
        };
        self.run_cards(base).for_each(visit);
    }

    /// The run's cards, bottom to top, with `base` the card it lies on.
    #[inline]
    pub(super) fn run_cards(self, base: Card) -> impl Iterator<Item = Card> {
        let (run, len) = (self.run(), self.run_len());
        (0..len).map(move |i| {
            let bits = run >> (R::CARD_BITS * (len - 1 - i)) & Self::CARD_MASK;
            R::run_card(base, i, bits)
        })
    }

    /// The pile's cards, bottom to top.
    pub(super) fn to_vec(self, start: &[Card]) -> Vec<Card> {
        let mut cards = Vec::with_capacity(self.len());
        self.cards(start, |card| cards.push(card));
        cards
    }
}

/// The code of pile `pile` holding each number `d` of its starting cards
/// `cards` (index `d`, up to `len`) and nothing more: the top ones that lie
/// in order on the one below (`in_order(i)` for card `i` on card `i - 1`)
/// are a run on the lowest of them, so that every pile has one code
/// however its cards got there.
pub(super) fn dealt_codes<R: Runs>(
    pile: usize,
    cards: &[Card; MAX_START],
    len: usize,
    in_order: impl Fn(usize) -> bool,
) -> [PileCode<R>; MAX_START + 1] {
    let mut codes = [PileCode::empty(); MAX_START + 1];
    for (d, code) in codes.iter_mut().enumerate().take(len + 1).skip(1) {
        let mut under = d;
        while under > 1 && in_order(under - 1) {
            under -= 1;
        }
        *code = (cards[under..d].iter())
            .fold(PileCode::dealt(pile, under, cards[0]), |code, &card| {
                code.push(card)
            });
    }
    codes
}

/// Each pile's starting cards, bottom to top, in `N` places, or an error
/// on the line of a pile taller than that: `pile` names a game's pile in
/// the message, and `note` says why.
pub(super) fn start_cards<const P: usize, const N: usize>(
    board: &Board,
    pile: &str,
    note: &str,
) -> Result<[[Card; N]; P], BoardError> {
    let mut cards = [[Card::from_index(0); N]; P];
    for (i, (start, dealt)) in cards.iter_mut().zip(&board.piles).enumerate() {
        if dealt.len() > N {
            return Err(BoardError::at(
                board.pile_line(i),
                format!(
                    "pile {} has {} cards: {pile} holds at most {N}{note}",
                    i + 1,
                    dealt.len()
                ),
            ));
        }
        for (slot, card) in start.iter_mut().zip(dealt.cards()) {
            *slot = card;
        }
    }
    Ok(cards)
}
