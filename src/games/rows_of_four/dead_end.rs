//! Rows of Four's dead-end test: Kings that can never go home.
//!
//! The test finds Kings that can never go home because what their
//! foundations need lies under them or under other such Kings; the second
//! King of a suit to go home needs both copies of every lower card of its
//! suit home.

use super::{FOUNDATIONS, PILES, RowsOfFour, State};
use crate::card::Rank;
use crate::games::foundations::Foundations;
use crate::games::pile_code::MAX_START;

/// The rank on each suit's lower and higher foundation (by suit index), 0
/// for one not started.
pub(super) fn suit_tops(home: &Foundations<FOUNDATIONS>) -> ([u8; 4], [u8; 4]) {
    let mut low = [0u8; 4];
    let mut high = [0u8; 4];
    for (suit, rank) in home.started() {
        if rank > high[suit] {
            low[suit] = high[suit];
            high[suit] = rank;
        } else {
            low[suit] = low[suit].max(rank);
        }
    }
    (low, high)
}

/// Two bits a rank from the Ace to the Queen, as in `RowsOfFour::counts`:
/// the low bit of each.
const LOW_BITS: u32 = 0x0155_5554;

/// Both bits of each rank from the Ace to the Queen.
const BELOW_KING: u32 = 3 * LOW_BITS;

/// A King on the tableau named by its pile and its place among the pile's
/// starting cards, or [`BASE_KING`] for one alone at the bottom of an
/// emptied pile.
const fn king_place(pile: usize, at: u8) -> u8 {
    (pile as u8) << 5 | at
}

/// See [`king_place`]: past every starting card's place.
const BASE_KING: u8 = MAX_START as u8;

/// The low bits (see [`LOW_BITS`]) of the ranks up to `top`.
const fn up_to(top: u8) -> u32 {
    LOW_BITS & ((4u32 << (2 * top as u32)) - 1)
}

/// Whether one of a suit's foundations, at `low` and `high`, could be
/// built up to the Queen from the copies not home, when `under` (two bits
/// a rank, as in `RowsOfFour::counts`) are out of reach: for each rank it
/// needs, the copies not home must outnumber those out of reach. Worked
/// out on all twelve ranks at once, in two-bit fields of 0 to 2, since
/// rank by rank this took most of the dead-end test's time.
pub(super) fn builds_to_queen(low: u8, high: u8, under: u32) -> bool {
    let out = 2 * LOW_BITS - up_to(high) - up_to(low);
    let (out_two, under_two) = (out >> 1, under >> 1);
    let free = (out_two & !under_two | out & !out_two & !under_two & !under) & LOW_BITS;
    let builds = |top: u8| {
        let needed = LOW_BITS & !up_to(top);
        top < 13 && free & needed == needed
    };
    builds(high) || builds(low)
}

impl RowsOfFour {
    /// Whether some King on the tableau can never go home: a sound
    /// dead-end test. A King leaves the tableau only to go home (no card
    /// takes it, and only the waste fills an empty pile), so the cards
    /// under it stay until it does, and it goes home on a foundation of its
    /// suit at the Queen. The first King of a suit to go home needs one of
    /// the suit's two foundations built to the Queen; the second needs the
    /// other too, so both copies of every lower card of its suit home
    /// first, and none of them may lie under it.
    ///
    /// The test takes the Kings of each suit as going home one after the
    /// other, and finds which could, over and over: the first of a suit
    /// when one of its foundations could be built to the Queen from copies
    /// not home and not under a King still on the tableau; the second when
    /// no lower card of its suit not home lies under a King still there.
    /// Of a suit's two Kings, one with a lower card of its suit under it
    /// must go first; if neither has, either may, and each order is tried
    /// (at most 16 for four suits). If both have, neither can go second.
    /// Each King found to go frees the cards under it; if in the end some
    /// King is left whichever order is tried, the position is lost: take a
    /// winning line's order, and the first King left to go home in it
    /// would, at that moment, meet its condition with fewer cards free
    /// than the test allowed, so the test would have found it. (Two Kings
    /// in one pile: the lower can go first in no line, and trying it only
    /// frees nothing, since the upper covers all it does.)
    ///
    /// (A King on the tableau lies among its pile's starting cards still
    /// there, or alone at the bottom of an emptied pile: no run card is a
    /// King.) Numbered deal 101: both 8H under the KH of pile 7. Deal 179:
    /// one KC over 5C and 9C, the other over 2C, so neither goes second.
    /// Deal 188: the KS over 4S must go before the other KS, which needs the
    /// QS and 9S under the two KH home; the second KH needs the 5H under
    /// that KS. Taking each suit's Kings one by one, not as one, finds many
    /// more deals lost at the start (`docs/tuning.md`).
    pub(super) fn kings_stuck(&self, state: &State) -> bool {
        // Each suit's Kings on the tableau, by place (see `king_place`),
        // and whether each has no lower card of its suit under it.
        let mut count = [0u8; 4];
        let mut places = [[0u8; 2]; 4];
        let mut clear = [[true; 2]; 4];
        for p in 0..PILES {
            let code = state.piles[p];
            let dealt = code.dealt_left();
            for &(at, suit) in self.kings[p]
                .iter()
                .take_while(|&&(at, _)| (at as usize) < dealt)
            {
                let (suit, n) = (suit as usize, count[suit as usize] as usize);
                places[suit][n] = king_place(p, at);
                clear[suit][n] = self.counts[p][at as usize][suit] & BELOW_KING == 0;
                count[suit] += 1;
            }
            if let Some(card) = code.base_card()
                && card.rank() == Rank::KING
            {
                let (suit, n) = (card.suit().index(), count[card.suit().index()] as usize);
                places[suit][n] = king_place(p, BASE_KING);
                count[suit] += 1;
            }
        }
        if count == [0; 4] {
            return false;
        }
        // The first of each pair to go home: the one over a lower card of
        // its suit, or either (`choices`) if neither is.
        // (A suit with one King or none never reads its entry.)
        let mut first = [0; 4];
        let mut choices = 0u8;
        for suit in (0..4).filter(|&suit| count[suit] == 2) {
            first[suit] = match clear[suit] {
                [false, false] => return true,
                [false, true] => places[suit][0],
                [true, false] => places[suit][1],
                [true, true] => {
                    choices |= 1 << suit;
                    places[suit][0]
                }
            };
        }
        let mut chosen = choices;
        loop {
            for suit in (0..4).filter(|&suit| choices >> suit & 1 != 0) {
                first[suit] = places[suit][(chosen >> suit & 1) as usize];
            }
            if self.kings_go_home(state, &count, &first) {
                return false;
            }
            if chosen == 0 {
                return true;
            }
            chosen = (chosen - 1) & choices;
        }
    }

    /// Whether every King on the tableau could go home, `count` of each
    /// suit, the King at `first` (a place, see `king_place`) first of a
    /// suit with two (see [`RowsOfFour::kings_stuck`]).
    fn kings_go_home(&self, state: &State, count: &[u8; 4], first: &[u8; 4]) -> bool {
        let (low, high) = suit_tops(&state.home);
        // Each suit's Kings found to go home.
        let mut gone = [0u8; 4];
        loop {
            let there = |suit: usize, place: u8| match gone[suit] {
                0 => true,
                1 => count[suit] == 2 && place != first[suit],
                _ => false,
            };
            // The cards under the Kings still on the tableau.
            let mut under = [0u32; 4];
            for p in 0..PILES {
                let dealt = state.piles[p].dealt_left();
                let cover = (self.kings[p].iter().rev()).find(|&&(at, suit)| {
                    (at as usize) < dealt && there(suit as usize, king_place(p, at))
                });
                if let Some(&(at, _)) = cover {
                    for (total, count) in under.iter_mut().zip(self.counts[p][at as usize]) {
                        *total += count;
                    }
                }
            }
            let mut found = false;
            for suit in 0..4 {
                let goes = match gone[suit] {
                    done if done == count[suit] => false,
                    0 => builds_to_queen(low[suit], high[suit], under[suit]),
                    _ => under[suit] & BELOW_KING == 0,
                };
                gone[suit] += goes as u8;
                found |= goes;
            }
            if gone == *count {
                return true;
            }
            if !found {
                return false;
            }
        }
    }
}
