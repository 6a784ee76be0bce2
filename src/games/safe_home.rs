//! The safe move home, one rule for every game with a tableau to build on:
//! a free card (a tableau top, the waste's top, a reserve card, or in
//! Lanes and Alexandria the stock's next card, whose one draw buries
//! nothing) that can go home now, and going there first loses no win.
//! The engines then offer that move alone (rule H in their pruning).
//!
//! With `r` the card's rank and `s` its suit, and each suit's "low" the
//! rank up to which every copy of its cards is home (the lowest of its
//! foundations; 0 while one is not started), a card is safe when:
//! - its own suit's low is at least `r - 1`: every other copy of rank
//!   `r - 1` of its suit is home (in one deck there is none: the card going
//!   home shows it);
//! - and the cards that could be built on it (rank `r - 1`, of the suits
//!   [`Builds`] says) are all home, their suits' lows at least `r - 1`; or,
//!   where the rule looks [`SafeRule::two_deep`], each of them could go home
//!   as soon as it is free: their suits' lows at least `r - 2`, and those
//!   of the suits that could be built on them at least `r - 3`.
//!
//! The argument differs with the decks and the building, so each game's is
//! below. An Ace is always safe.
//!
//! # One deck, alternating colour, one card at a time (Raglan, Lanes)
//!
//! A card of rank `r` is safe to send home when no card will ever need it
//! as a base: the cards that could be built on it (the other colour, rank
//! `r-1`) are home, or can go home as soon as they are free (the other
//! colour home to `r-2`) and so can the cards of its own colour, rank
//! `r-2`, that could be built on those (its colour home to `r-3`). Any win
//! then has a twin that sends it home first: drop its other moves from the
//! line, send home directly whatever was built on it, and every other move
//! stays legal. (With a stock, the card may be the waste's top: taking it
//! out of the waste early only uncovers the card below it sooner, and
//! every later draw, redeal and play of the line is the same. The stock's
//! next card, drawn and sent home, leaves the waste as it was, and the
//! line's later draws skip it.)
//!
//! # Two decks, any suit, one card at a time (Rows of Four)
//!
//! With `r` its rank and `s` its suit, it is safe when every foundation is
//! at least at `r - 2` (an empty one counts as 0), and the foundation of
//! `s` it does not go on is at least at `r - 1`. Each foundation holds one
//! copy of each rank up to its top, so then both copies of every card of
//! rank `r - 2` or below are home, and both copies of every card of suit
//! `s` up to rank `r - 1`. Only cards of rank `r - 1` could be built on
//! the card, nothing on them, and each of them can go home as soon as it
//! is free (both copies of its rank below are home, and it is not). Take
//! a winning line that keeps the card out; the line that sends it home
//! first and then follows that one, leaving out the card's own moves and
//! sending home at once each card it would build on the card (and leaving
//! out that card's later moves), is legal move by move and wins too:
//! every card goes home on a foundation showing the rank below, as in the
//! first line, because beside the first line's cards home it has only the
//! card and cards of rank `r - 1` home, and a card of rank `r` of suit `s`
//! the first line sends home while our card is still out finds the second
//! copy of rank `r - 1`. That is what the condition on the other
//! foundation of `s` is for: with foundations of `s` at `r - 1` and
//! `r - 2`, sending the card home on the first leaves its twin waiting for
//! the other copy of rank `r - 1`, which the twin may cover (see the test
//! `the_safe_rule_waits_for_the_other_foundation_of_its_suit` in Rows of
//! Four). The tableau and talon of the second line hold the first line's
//! cards but for those sent home early, so every other play is as legal,
//! and an empty pile of the first line is empty in the second. (If the
//! card is the waste's top, taking it out early only uncovers the card
//! below it sooner: every later draw, redeal and play is the same, but for
//! a draw of the card itself, left out, and a redeal of a waste holding
//! only the card, left out too.)
//!
//! So an Ace is always safe, a Two once both Aces of its suit are home.
//! (In the terms above: every suit's low at `r - 2`, which is the two-deep
//! test when any suit builds on any, and its own suit's low at `r - 1`.)
//!
//! # Three decks, alternating colour, runs moving as a group (Alexandria)
//!
//! With `r` its rank, it is safe when all three foundations of its own suit
//! and all six of the other colour show at least `r - 1` (for an Ace:
//! always). The rule looks one deep only: the argument is made for the
//! cards that could be built on it being home. The argument, with the
//! multi-deck traps in mind:
//! - Nothing can ever be built on the card: the cards that could (rank
//!   `r - 1`, the other colour: six of them) are all home.
//! - So the card stays the top of whatever pile it lies on, or in the
//!   waste until it is its top again. Take any winning line `L` that keeps
//!   it out for now. The line `T` that sends it home first, then plays `L`
//!   leaving out the card's own moves (a move of it alone, to a pile or
//!   home) and moving each run it heads in `L` without it (one card
//!   fewer, onto the same card: still a run, still fitting), is legal move
//!   by move and wins: its piles are `L`'s without the card, which only
//!   ever lay on top, so every other pile top, every run and every empty
//!   pile `L` uses is there in `T` (a pile holding only the card in `L` is
//!   empty in `T`, and nothing goes onto the card); cards turned up early
//!   in `T` only turn up sooner. The waste and stock of `T` are `L`'s
//!   without the card, so the waste's top is `L`'s whenever that is not
//!   the card (which may be the stock's next: one draw sends it home and
//!   leaves the waste as it was).
//! - The foundations: `T` holds the card home early, on a foundation of
//!   its suit showing `r - 1`. Read the suit's foundations as a multiset
//!   of heights: until `L` sends its own copy home, `T`'s multiset is
//!   `L`'s with one `r - 1` raised to `r`, and after that they are equal.
//!   A card `L` sends home on a foundation at height `h` finds one in `T`
//!   too: for `h` other than `r - 1` the multisets agree there; for
//!   `h = r - 1` (another copy of the card goes home while ours is still
//!   out in `L`), all three foundations were at `r - 1` or more, so each
//!   copy of the card still out has its own foundation at `r - 1`, and with
//!   two copies out in `L` (ours and the one going home) `T` still has one
//!   free for it. This is what the condition on the card's own suit is
//!   for: with a foundation of the suit lower, sending one copy home on the
//!   only foundation at `r - 1` can leave the copy `L` sends home first
//!   waiting (the trap of `the_safe_rule_waits_for_the_other_foundation_of_its_suit`
//!   in Rows of Four). For an Ace, "a foundation at 0" is an empty one,
//!   which takes an Ace of any suit, and the same count holds over the
//!   twelve foundations and twelve Aces.
//!
//! `T` has no more moves than `L`.

use crate::card::{Card, Colour};

/// Which cards may be built on a card of the tableau.
#[derive(Clone, Copy)]
pub(super) enum Builds {
    /// A card of the other colour, one rank down.
    AlternateColour,
    /// Any card one rank down.
    AnySuit,
}

/// A game's safe rule: see the module doc.
pub(super) struct SafeRule {
    pub(super) builds: Builds,
    /// Whether the cards that could be built on the card may be out, so
    /// long as each could go home as soon as it is free.
    pub(super) two_deep: bool,
}

/// The suits of each colour, by suit index, a bit each.
const fn colour_suits(colour: Colour) -> u8 {
    match colour {
        Colour::Black => 0b1001,
        Colour::Red => 0b0110,
    }
}

impl SafeRule {
    /// Whether `card`, free and able to go home now, is safe to send there,
    /// given each suit's low (by suit index; see the module doc).
    #[inline]
    pub(super) fn safe(&self, lows: &[u8; 4], card: Card) -> bool {
        let rank = card.rank().get() as i32;
        let lowest = |suits: u8| {
            (0..4)
                .filter(|s| suits >> s & 1 != 0)
                .map(|s| lows[s] as i32)
                .min()
                .unwrap_or(0)
        };
        let own = colour_suits(card.colour());
        let (builders, theirs) = match self.builds {
            Builds::AlternateColour => (lowest(0b1111 ^ own), lowest(own)),
            Builds::AnySuit => (lowest(0b1111), lowest(0b1111)),
        };
        lows[card.suit().index()] as i32 >= rank - 1
            && (builders >= rank - 1
                || (self.two_deep && builders >= rank - 2 && theirs >= rank - 3))
    }

    /// The cards [`SafeRule::safe`] finds safe, a bit each by
    /// [`Card::index`], worked out for a position once rather than for
    /// each free card. Each condition of the rule bounds the rank from
    /// above, so a suit's safe cards are its ranks from the Ace up to the
    /// lowest bound.
    #[inline]
    pub(super) fn cards(&self, lows: &[u8; 4]) -> u64 {
        let black = i32::from(lows[0].min(lows[3]));
        let red = i32::from(lows[1].min(lows[2]));
        (0..4).fold(0, |mask, s| {
            let (own, other) = match colour_suits(Colour::Black) >> s & 1 != 0 {
                true => (black, red),
                false => (red, black),
            };
            let (builders, theirs) = match self.builds {
                Builds::AlternateColour => (other, own),
                Builds::AnySuit => (black.min(red), black.min(red)),
            };
            let mut top = builders + 1;
            if self.two_deep {
                top = top.max((builders + 2).min(theirs + 3));
            }
            let top = top.min(i32::from(lows[s]) + 1).min(13);
            mask | ((1u64 << top) - 1) << (13 * s)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE_DECK: SafeRule = SafeRule {
        builds: Builds::AlternateColour,
        two_deep: true,
    };

    /// Rank 5 red is safe once the black fours are home, or once they are
    /// at three and the red twos too. (Suit order C, D, H, S.)
    #[test]
    fn safe_home_asks_for_the_cards_that_could_build_on_it() {
        let five: Card = "5H".parse().unwrap();
        assert!(ONE_DECK.safe(&[4, 1, 4, 4], five));
        assert!(!ONE_DECK.safe(&[4, 1, 4, 3], five));
        assert!(ONE_DECK.safe(&[3, 2, 4, 3], five));
        assert!(!ONE_DECK.safe(&[3, 1, 4, 3], five));
        assert!(!ONE_DECK.safe(&[13, 13, 3, 13], five));
        let one_deep = SafeRule {
            two_deep: false,
            ..ONE_DECK
        };
        assert!(one_deep.safe(&[4, 1, 4, 4], five));
        assert!(!one_deep.safe(&[3, 2, 4, 3], five));
    }

    /// For every rule and every set of the suits' lows, the safe cards
    /// are those the rule finds safe one card at a time.
    #[test]
    fn safe_cards_are_those_the_rule_finds_safe_one_by_one() {
        for builds in [Builds::AlternateColour, Builds::AnySuit] {
            for two_deep in [false, true] {
                let rule = SafeRule { builds, two_deep };
                for n in 0..14u32.pow(4) {
                    let lows: [u8; 4] =
                        std::array::from_fn(|s| (n / 14u32.pow(s as u32) % 14) as u8);
                    let plain = (0..Card::COUNT)
                        .filter(|&c| rule.safe(&lows, Card::from_index(c)))
                        .fold(0u64, |mask, c| mask | 1 << c);
                    assert_eq!(rule.cards(&lows), plain, "{lows:?} {two_deep}");
                }
            }
        }
    }
}
