//! What Raglan and Lanes share: one deck, tableau piles built down in
//! alternating colour one card at a time, foundations up by suit.
//!
//! In both games a pile is the cards it started with, of which the bottom
//! few are still there, and a run built on top of them. A run card can
//! only have got there by a legal build, so each run card is fixed by the
//! one below but for which suit of its colour it is: one bit. That makes a
//! pile a 25-bit [`PileCode`], and a position little more than a handful
//! of them.

use super::NO_CARD;
use super::pile_code::start_cards;
use crate::board::{Board, BoardError};
use crate::card::{Card, Colour, Rank, Suit};

/// The longest run: a King and the twelve cards below it.
pub(super) const RUN: u32 = 13;
/// Which card of a colour a suit is: a run card is its colour's suit 0 or 1.
pub(super) const fn suit_bit(card: Card) -> u32 {
    matches!(card.suit(), Suit::Spades | Suit::Hearts) as u32
}

/// The card of `rank` in the colour other than `card`'s, with `bit`
/// choosing the suit: what may lie under `card` in a run (`rank` one up)
/// or on it (one down).
pub(super) const fn other_colour(card: Card, rank: u8, bit: u32) -> Card {
    let suit = match (card.colour(), bit) {
        (Colour::Red, 0) => Suit::Clubs,
        (Colour::Red, _) => Suit::Spades,
        (Colour::Black, 0) => Suit::Diamonds,
        (Colour::Black, _) => Suit::Hearts,
    };
    match Rank::new(rank) {
        Some(rank) => Card::new(rank, suit),
        None => panic!("a run card's neighbours have ranks 1 to 13"),
    }
}

/// For each card (by index), the indices of the two cards of the other
/// colour one rank up (`up`) or down, or [`NO_BASE`] where there is no
/// such rank.
const fn neighbours(up: bool) -> [[u8; 2]; Card::COUNT] {
    let mut table = [[NO_BASE; 2]; Card::COUNT];
    let mut i = 0;
    while i < Card::COUNT {
        let card = Card::from_index(i);
        let rank = card.rank().get();
        let next = if up { rank + 1 } else { rank - 1 };
        if next >= 1 && next <= 13 {
            table[i] = [
                other_colour(card, next, 0).index() as u8,
                other_colour(card, next, 1).index() as u8,
            ];
        }
        i += 1;
    }
    table
}

/// The two cards a card may be built on; none for a King.
pub(super) const BASES: [[u8; 2]; Card::COUNT] = neighbours(true);

/// The two cards that may be built on a card; none for an Ace.
pub(super) const BUILT_ON: [[u8; 2]; Card::COUNT] = neighbours(false);

/// [`BASES`] as sets of cards, a bit each by [`Card::index`]; none past
/// the cards (`NO_CARD` among them), so that any `u8` reads it unchecked.
pub(super) const BASES_BITS: [u64; 256] = bits(&BASES);

/// [`BUILT_ON`] as sets of cards, as [`BASES_BITS`] is.
pub(super) const BUILT_ON_BITS: [u64; 256] = bits(&BUILT_ON);

/// Each card's pair of cards (none for [`NO_BASE`]) as a set.
const fn bits(pairs: &[[u8; 2]; Card::COUNT]) -> [u64; 256] {
    let mut table = [0; 256];
    let mut i = 0;
    while i < Card::COUNT {
        let [a, b] = pairs[i];
        if a != NO_BASE {
            table[i] = 1 << a | 1 << b;
        }
        i += 1;
    }
    table
}

/// "No card" in [`BASES`] and [`BUILT_ON`]: one past the cards, never a
/// pile's top.
pub(super) const NO_BASE: u8 = Card::COUNT as u8;

/// One pile in 25 bits, low to high: a suit bit for each run card (13), the
/// run's length (4) and where the pile's bottom comes from (8):
/// - `64 + 20 * pile + dealt` while `dealt` of the pile's starting cards
///   are left (at least one): the run starts on the top one;
/// - the index of the run's first card when the starting cards are gone;
/// - 255 for an empty pile.
///
/// Equal piles have equal codes wherever they stand, and different piles
/// different codes: a run card is fixed by the one below and its suit bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct PileCode(pub(super) u32);

impl PileCode {
    const LEN_SHIFT: u32 = RUN;
    const ORIGIN_SHIFT: u32 = RUN + 4;
    const DEALT_ORIGIN: u32 = 64;
    const EMPTY_ORIGIN: u32 = 255;
    pub(super) const EMPTY: PileCode = PileCode(Self::EMPTY_ORIGIN << Self::ORIGIN_SHIFT);

    /// Pile `pile` holding `dealt` of its starting cards and no run.
    pub(super) const fn dealt(pile: usize, dealt: usize) -> PileCode {
        if dealt == 0 {
            return Self::EMPTY;
        }
        PileCode((Self::DEALT_ORIGIN + 20 * pile as u32 + dealt as u32) << Self::ORIGIN_SHIFT)
    }

    pub(super) const fn origin(self) -> u32 {
        self.0 >> Self::ORIGIN_SHIFT
    }

    pub(super) const fn run_len(self) -> u32 {
        self.0 >> Self::LEN_SHIFT & 0xf
    }

    /// How many starting cards are left, by origin: read often enough
    /// that a table beats the division.
    const DEALT_LEFT: [u8; 256] = {
        let mut table = [0; 256];
        let mut origin = Self::DEALT_ORIGIN;
        while origin < Self::EMPTY_ORIGIN {
            table[origin as usize] = ((origin - Self::DEALT_ORIGIN) % 20) as u8;
            origin += 1;
        }
        table
    };

    /// How many starting cards are left.
    pub(super) const fn dealt_left(self) -> usize {
        Self::DEALT_LEFT[self.origin() as usize] as usize
    }

    pub(super) const fn is_empty(self) -> bool {
        self.origin() == Self::EMPTY_ORIGIN
    }

    pub(super) const fn cards(self) -> usize {
        self.dealt_left() + self.run_len() as usize
    }

    /// The code split for keys: the run's length (4 bits) and the origin
    /// (8 bits), a fixed 12 bits; and the run's suit bits, as many as the
    /// run is long (the bits above them are 0). A key puts the fixed parts
    /// of its piles in one place and the suit bits one after the other in
    /// another: the lengths say where each pile's suit bits start, so such
    /// a key is as exact as the codes.
    pub(super) const fn packed(self) -> (u32, u64, u32) {
        (
            self.0 >> Self::LEN_SHIFT,
            (self.0 & ((1 << RUN) - 1)) as u64,
            self.run_len(),
        )
    }

    /// Run card `i`'s suit bit, `i` counted from the run's bottom.
    pub(super) const fn bit(self, i: u32) -> u32 {
        self.0 >> i & 1
    }

    /// The pile with `card` built on it (or put on it, if empty).
    pub(super) const fn push(self, card: Card) -> PileCode {
        let len = self.run_len();
        let code = if self.is_empty() {
            (card.index() as u32) << Self::ORIGIN_SHIFT
        } else {
            self.0
        };
        PileCode(
            (code & !(0xf << Self::LEN_SHIFT))
                | (len + 1) << Self::LEN_SHIFT
                | suit_bit(card) << len,
        )
    }

    /// The code with its run cards' suits forgotten: the suit bits
    /// cleared, and an emptied pile's first card, which its origin names,
    /// made the card of its rank and colour with suit bit 0.
    pub(super) const fn unsuited(self) -> PileCode {
        let origin = Self::UNSUITED_ORIGIN[self.origin() as usize] as u32;
        PileCode(origin << Self::ORIGIN_SHIFT | self.0 & 0xf << Self::LEN_SHIFT)
    }

    /// Each origin with its card, if it names one, made the card of its
    /// rank and colour with suit bit 0 (see [`PileCode::unsuited`]): a
    /// table, as the relaxed key reads it for every pile.
    const UNSUITED_ORIGIN: [u8; 256] = {
        let mut table = [0; 256];
        let mut origin = 0;
        while origin < 256 {
            table[origin] = origin as u8;
            if origin < Card::COUNT {
                let card = Card::from_index(origin);
                let suit = match card.colour() {
                    Colour::Red => Suit::Diamonds,
                    Colour::Black => Suit::Clubs,
                };
                table[origin] = Card::new(card.rank(), suit).index() as u8;
            }
            origin += 1;
        }
        table
    };

    /// The pile with its top card gone.
    pub(super) const fn pop(self) -> PileCode {
        let len = self.run_len();
        if len == 0 {
            return match self.dealt_left() {
                1 => Self::EMPTY,
                _ => PileCode(self.0 - (1 << Self::ORIGIN_SHIFT)),
            };
        }
        if len == 1 && self.dealt_left() == 0 {
            return Self::EMPTY;
        }
        PileCode(
            (self.0 & !(1 << (len - 1)) & !(0xf << Self::LEN_SHIFT)) | (len - 1) << Self::LEN_SHIFT,
        )
    }
}

/// The most cards a pile can have started with in the engine's terms: a
/// board may be typed mid-game, with up to 7 dealt cards and a run of 12.
pub(super) const MAX_START: usize = 19;

/// A board's tableau as the engines hold it: each pile's starting cards,
/// bottom to top (what the deal fixes), its code and its top card.
pub(super) struct StartPiles<const P: usize> {
    pub(super) cards: [[Card; MAX_START]; P],
    pub(super) codes: [PileCode; P],
    pub(super) tops: [u8; P],
    /// Where each starting card lies: pile, and place from the bottom.
    pub(super) starts_at: [Option<(u8, u8)>; Card::COUNT],
}

impl<const P: usize> StartPiles<P> {
    /// The piles of a board the game's rules have validated (so it has `P`
    /// piles), or an error for a pile too tall for a [`PileCode`].
    pub(super) fn new(board: &Board, game: &str) -> Result<StartPiles<P>, BoardError> {
        let pile = format!("a {game} pile");
        let cards = start_cards::<P, MAX_START>(board, &pile, " (7 dealt and a run of 12)")?;
        let mut piles = StartPiles {
            cards,
            codes: [PileCode::EMPTY; P],
            tops: [NO_CARD; P],
            starts_at: [None; Card::COUNT],
        };
        for (i, pile) in board.piles.iter().enumerate().take(P) {
            for (at, card) in pile.cards().enumerate() {
                piles.starts_at[card.index()] = Some((i as u8, at as u8));
                piles.tops[i] = card.index() as u8;
            }
            piles.codes[i] = PileCode::dealt(i, pile.len());
        }
        Ok(piles)
    }
}

/// The parts of sorted pile codes for a key (see [`PileCode::packed`]):
/// each code's fixed part shifted to its place, five to a 64-bit word, to
/// be or-ed into words five by five; and the runs' suit bits one after the
/// other (at most 52, one a run card).
///
/// The suit bits are gathered from the last code back, each shifting those
/// after it up by its run's length: the same bits as placing each code's at
/// the sum of the lengths before it, without keeping that sum for every
/// code, which Raglan's key did at a cost.
#[inline]
pub(super) fn split_codes<const P: usize>(codes: &[PileCode; P]) -> ([u64; P], u64) {
    let heads = code_heads(codes);
    let mut suits = 0;
    for code in codes.iter().rev() {
        let (_, bits, len) = code.packed();
        suits = suits << len | bits;
    }
    debug_assert!(codes.iter().map(|code| code.run_len()).sum::<u32>() <= 52);
    (heads, suits)
}

/// The fixed parts of [`split_codes`] alone, for a key whose codes have
/// no suit bits ([`PileCode::unsuited`]).
#[inline]
pub(super) fn code_heads<const P: usize>(codes: &[PileCode; P]) -> [u64; P] {
    let mut heads = [0; P];
    for (i, (head, code)) in heads.iter_mut().zip(codes).enumerate() {
        *head = (code.packed().0 as u64) << (12 * (i % 5));
    }
    heads
}

/// The top starting card of a pile with no run above them.
#[inline]
pub(super) fn dealt_top(start: &[Card], code: PileCode) -> u8 {
    match code.dealt_left() {
        0 => NO_CARD,
        d => start[d - 1].index() as u8,
    }
}

/// A pile after its top card `card` leaves: its code and its new top.
#[inline]
pub(super) fn popped(start: &[Card], code: PileCode, card: Card) -> (PileCode, u8) {
    let next = code.pop();
    let top = match code.run_len() {
        len @ 2.. => BASES[card.index()][code.bit(len - 2) as usize],
        _ => dealt_top(start, next),
    };
    (next, top)
}

/// Calls `visit` on a pile's cards, bottom to top: the starting cards
/// left, then the run, each run card spelled out from the one below and
/// its suit bit. (A loop with a callback: as an iterator, Raglan's
/// best-first score that walks every pile cost much more. Inlined: Lanes'
/// dead-end test reads every pile of most positions with it.)
#[inline]
pub(super) fn pile_cards(start: &[Card], code: PileCode, mut visit: impl FnMut(Card)) {
    let dealt = &start[..code.dealt_left()];
    dealt.iter().for_each(|&card| visit(card));
    let (mut below, first) = match dealt.last() {
        Some(&top) => (top, 0),
        None if code.is_empty() => return,
        // An emptied pile's run starts with the card its origin names.
        None => {
            let origin = Card::from_index(code.origin() as usize);
            visit(origin);
            (origin, 1)
        }
    };
    for i in first..code.run_len() {
        let card = Card::from_index(BUILT_ON[below.index()][code.bit(i) as usize] as usize);
        visit(card);
        below = card;
    }
}

/// The rank home in each suit (by suit index), and which suit each
/// foundation place of the board showed, to print them back in place.
pub(super) fn read_foundations(board: &Board) -> ([u8; 4], [Option<Suit>; 4]) {
    let mut home = [0; 4];
    let mut slots = [None; 4];
    for (slot, top) in slots.iter_mut().zip(&board.foundations) {
        if let Some(card) = top {
            home[card.suit().index()] = card.rank().get();
            *slot = Some(card.suit());
        }
    }
    (home, slots)
}

/// The foundations' top cards in the board's places: each suit the board
/// showed in its place, and suits started since in the places left empty,
/// in suit order.
pub(super) fn foundation_tops(slots: &[Option<Suit>; 4], home: &[u8; 4]) -> Vec<Option<Card>> {
    let top = |suit: Suit| Rank::new(home[suit.index()]).map(|rank| Card::new(rank, suit));
    let mut unplaced: Vec<Suit> = Suit::ALL
        .into_iter()
        .filter(|s| !slots.contains(&Some(*s)))
        .collect();
    slots
        .iter()
        .map(|slot| match slot {
            Some(suit) => top(*suit),
            None => unplaced
                .iter()
                .position(|&s| home[s.index()] > 0)
                .map(|i| unplaced.remove(i))
                .and_then(top),
        })
        .collect()
}

/// Whether `card` may be built on `base` on the tableau, by the rule
/// itself, for tests of the tables above.
#[cfg(test)]
pub(super) fn builds_on(card: Card, base: Card) -> bool {
    card.colour() != base.colour() && card.rank().get() + 1 == base.rank().get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_card_is_fixed_by_the_card_below_and_its_suit_bit() {
        for card in Card::all().filter(|c| c.rank() != Rank::ACE) {
            for bit in 0..2 {
                let on = other_colour(card, card.rank().get() - 1, bit);
                assert!(builds_on(on, card));
                assert_eq!(suit_bit(on), bit);
                assert!(BASES[on.index()].contains(&(card.index() as u8)));
            }
        }
    }

    /// Every card and base the engine may meet: pushing a run and popping it
    /// again comes back through the same codes, with the counts right.
    #[test]
    fn pile_codes_push_and_pop_back() {
        let run = ["KS", "QH", "JC", "TD", "9S"].map(|c| c.parse::<Card>().unwrap());
        for start in [
            PileCode::EMPTY,
            PileCode::dealt(8, 19),
            PileCode::dealt(0, 1),
        ] {
            let mut codes = vec![start];
            for &card in &run {
                let code = codes.last().unwrap().push(card);
                assert!(!code.is_empty());
                assert_eq!(code.cards(), start.cards() + codes.len());
                assert_eq!(code.bit(code.run_len() - 1), suit_bit(card));
                codes.push(code);
            }
            while codes.len() > 1 {
                let top = codes.pop().unwrap();
                assert_eq!(top.pop(), *codes.last().unwrap());
            }
        }
        assert_eq!(PileCode::dealt(3, 1).pop(), PileCode::EMPTY);
        assert_eq!(PileCode::dealt(3, 2).pop(), PileCode::dealt(3, 1));
        assert_eq!(PileCode::dealt(8, 19).dealt_left(), 19);
    }
}
