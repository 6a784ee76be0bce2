//! Cards, ranks, suits and ordered packs.
//!
//! A [`Card`] is one byte (`suit * 13 + rank - 1`), so piles of cards stay
//! small and cards index tables directly. Copies of a card in multi-deck
//! games are the same `Card`: RULES.md makes copies indistinguishable.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::quote::quote;

/// A rank from Ace (1) to King (13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    pub const ACE: Rank = Rank(1);
    pub const KING: Rank = Rank(13);
    const LETTERS: &'static [u8; 13] = b"A23456789TJQK";

    /// `None` unless `n` is in 1..=13.
    pub const fn new(n: u8) -> Option<Rank> {
        if n >= 1 && n <= 13 {
            Some(Rank(n))
        } else {
            None
        }
    }

    /// The rank as a number, Ace = 1 to King = 13.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The zero-based index, Ace = 0, for indexing per-rank tables.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    pub fn letter(self) -> char {
        Self::LETTERS[self.index()] as char
    }

    pub fn all() -> impl Iterator<Item = Rank> {
        (1..=13).map(Rank)
    }
}

/// A suit, in the order of the ordered pack: clubs, diamonds, hearts, spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

/// Colour decides building in the alternating-colour games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Black,
    Red,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }

    pub const fn colour(self) -> Colour {
        match self {
            Suit::Clubs | Suit::Spades => Colour::Black,
            Suit::Diamonds | Suit::Hearts => Colour::Red,
        }
    }

    pub fn letter(self) -> char {
        b"CDHS"[self.index()] as char
    }
}

/// One playing card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// Number of distinct cards in one deck.
    pub const COUNT: usize = 52;

    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank.0 - 1)
    }

    /// The card with index `i` (0..52) in the ordered pack `AC 2C .. KS`.
    pub const fn from_index(i: usize) -> Card {
        assert!(i < Card::COUNT);
        Card(i as u8)
    }

    /// Position in the ordered pack, for indexing per-card tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn rank(self) -> Rank {
        Rank(self.0 % 13 + 1)
    }

    /// Worked out without a table or a bounds check (a card's index is
    /// below 52): the search's move generators ask a card's suit and
    /// colour at every position.
    pub const fn suit(self) -> Suit {
        match self.0 / 13 {
            0 => Suit::Clubs,
            1 => Suit::Diamonds,
            2 => Suit::Hearts,
            _ => Suit::Spades,
        }
    }

    /// Red for suits 1 and 2 (diamonds, hearts), whose index plus one has
    /// bit 1 set; black for 0 and 3 (clubs, spades).
    pub const fn colour(self) -> Colour {
        match (self.0 / 13 + 1) & 2 {
            0 => Colour::Black,
            _ => Colour::Red,
        }
    }

    pub fn all() -> impl Iterator<Item = Card> {
        (0..Card::COUNT as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

/// Why a piece of text is not a card.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "{} is not a card (expected a rank A23456789TJQK or 10, then a suit CDHS, e.g. TD)",
    quote(.0)
)]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_string());
        let upper = s.to_ascii_uppercase();
        // The suit is the last character, whatever its width in bytes.
        let mut chars = upper.chars();
        let suit = match chars.next_back() {
            Some('C') => Suit::Clubs,
            Some('D') => Suit::Diamonds,
            Some('H') => Suit::Hearts,
            Some('S') => Suit::Spades,
            _ => return Err(err()),
        };
        let rank = match chars.as_str() {
            "10" | "T" => 10,
            r if r.len() == 1 => match Rank::LETTERS.iter().position(|&l| l == r.as_bytes()[0]) {
                Some(i) => i as u8 + 1,
                None => return Err(err()),
            },
            _ => return Err(err()),
        };
        Ok(Card::new(Rank(rank), suit))
    }
}

/// The ordered pack of RULES.md: for each deck, `AC 2C .. KC AD .. KS`.
pub fn ordered_pack(decks: usize) -> Vec<Card> {
    (0..decks).flat_map(|_| Card::all()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_text() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
    }

    #[test]
    fn parses_ten_and_lower_case() {
        assert_eq!("10d".parse::<Card>().unwrap().to_string(), "TD");
        assert_eq!("as".parse::<Card>().unwrap().to_string(), "AS");
        assert_eq!("kh".parse::<Card>().unwrap().rank(), Rank::KING);
    }

    #[test]
    fn rejects_non_cards() {
        for bad in ["", "A", "1C", "11C", "ZS", "AX", "ASS", "0H"] {
            assert!(bad.parse::<Card>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn ordered_pack_starts_with_clubs_and_ends_with_king_of_spades() {
        let pack = ordered_pack(2);
        assert_eq!(pack.len(), 104);
        assert_eq!(pack[0].to_string(), "AC");
        assert_eq!(pack[13].to_string(), "AD");
        assert_eq!(pack[51].to_string(), "KS");
        assert_eq!(pack[52].to_string(), "AC");
    }

    #[test]
    fn colours() {
        assert_eq!("QH".parse::<Card>().unwrap().colour(), Colour::Red);
        assert_eq!("QS".parse::<Card>().unwrap().colour(), Colour::Black);
        assert_eq!(Suit::Clubs.colour(), Colour::Black);
        assert_eq!(Suit::Diamonds.colour(), Colour::Red);
    }

    /// A card's suit and colour, worked out from its index, are those it
    /// was made with.
    #[test]
    fn every_card_knows_its_suit_and_colour() {
        for suit in Suit::ALL {
            for rank in Rank::all() {
                let card = Card::new(rank, suit);
                assert_eq!((card.suit(), card.rank()), (suit, rank));
                assert_eq!(card.colour(), suit.colour(), "{card}");
            }
        }
    }
}
