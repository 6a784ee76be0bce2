//! Raglan's moves, best first, and what they leave out.
//!
//! # Why the pruning loses no win
//!
//! `Raglan::moves` leaves out five kinds of move: all but a safe move home
//! (rule H), all but one empty pile and a lone card to an empty pile
//! (rule S, the same positions up to the order of the piles), a move of
//! the card the last move put on a pile (rule J), anything but a build on
//! a reserve card just put on the tableau (rule R) and a reserve card to
//! the tableau when no free card could be built on it (rule U). Each is
//! argued where it is made, for one line of play. The table adds a twist:
//! rule J depends on the move that reached a position, which is not in
//! the key, so a position reached twice is expanded once, under whichever
//! move came first. The argument that the search still finds a win:
//!
//! Let the cost of a line be its number of moves, reserve cards put on
//! the tableau not counted, and the cost of a position the least cost of
//! a winning line from it. Every winnable position has a cheapest line
//! in which each reserve card put on the tableau is built on by the next
//! move: move the placement to just before the first move that builds on
//! the card (the moves between do not touch its pile, whose top it is),
//! or, if the card moves on first, straight from the reserve to there
//! (or home); the cost stays. Suppose a search ends without a win although
//! the start is winnable, and take, among the expanded positions that are
//! winnable and have no card waiting to be built on, one `E` of least
//! cost, with such a line `L`.
//! - If `E` has a safe move home, rule H offers it alone, and its position
//!   costs less than `E`: a win has a twin that sends that card home
//!   first and costs no more (see `super::safe_home`). It was expanded:
//!   a contradiction.
//! - If `L` starts with a reserve card `r` to a pile and a build on it,
//!   both are offered: some free card builds on `r`, so rule U allows
//!   `r`, and after it the just-moved card is `r`, not the one built on
//!   it. The position after both costs one less than `E` and was expanded.
//! - If `L` starts with a move `m` that is offered, the same; rule S
//!   offers an equal position instead of some.
//! - Rule J: `m` moves the card `X` the last move put on a pile. Keep the
//!   target `T` (the position after `m`, cost below `E`'s) and walk up the
//!   search's tree, with a move that reaches `T` or a position no dearer:
//!   from the parent, `X` straight from where it was to `m`'s destination
//!   (if that is where it was, the parent is `T` itself). At an ancestor
//!   the move is offered, or one to an equal position by rule S (a
//!   contradiction), or it is left out by rule H (as above), by rule J
//!   again (walk on up), or by rule R: the ancestor has a reserve card
//!   `r` waiting, and the move does not build on it.
//!   Then its parent, with `r` still in the reserve, makes the same move
//!   and reaches `T` with `r` unplayed, which costs no more: postpone `r`
//!   as above. (If the move was `r` itself moving on, that parent is no
//!   dearer than `T` already, and waits on no card, since only builds
//!   follow a card put down.) Each step goes to an earlier position, and
//!   the start is neither reached by a move nor waiting on a card, so the
//!   walk ends in a contradiction.
//!
//! So no such `E` exists. A table that forgets positions changes nothing
//! here: a forgotten position is expanded again. [`Raglan::with_every_move`]
//! has rules J, R and U off; a test compares its verdicts on whole deals
//! with the engine's (and `docs/tuning.md` a larger run).

use super::{From, NO_PILE, PILES, RESERVE, Raglan, SAFE, State, Step};
use crate::card::Card;
use crate::game::Ask;
use crate::games::NO_CARD;
use crate::games::alternating::{BASES, BUILT_ON_BITS};

/// The card that goes home next, a bit, by suit and the rank home: none
/// past a King.
const NEXT_HOME: [[u64; 16]; 4] = {
    let mut bits = [[0; 16]; 4];
    let mut suit = 0;
    while suit < 4 {
        let mut home = 0;
        while home < 13 {
            bits[suit][home] = 1 << (suit * 13 + home);
            home += 1;
        }
        suit += 1;
    }
    bits
};

/// The most moves a position can have: 15 cards free, each with a
/// foundation, two bases and an empty pile to go to.
const MAX_MOVES: usize = (PILES + RESERVE) * 4;

impl Raglan {
    /// Moves best first: a safe move home alone (see
    /// `super::safe_home`); otherwise in `Raglan::order`. Only one
    /// empty pile is offered (the piles are alike), and a card alone in its
    /// pile never moves to an empty one (the same position).
    ///
    /// A reserve card goes to the tableau only to be built on at once: the
    /// position after it, marked by `State::must_build` (which is in the
    /// key), offers only the cards that build on it. Why no win is lost:
    /// putting a reserve card `r` on a pile uncovers nothing and only
    /// covers that pile's top, so all it can be for is to have a card
    /// built on it. In any winning line, take the moves between `r`'s and
    /// the first that builds on `r`: none touches `r`'s pile (its top is
    /// `r`), so they play the same with `r` still in the reserve, and `r`
    /// can follow them, just before the card built on it. If `r` moves on
    /// before anything is built on it, it goes from the reserve straight
    /// to where it goes next. A reserve card that nothing free could build
    /// on is offered only its foundation.
    #[inline]
    pub(super) fn offer(&self, state: &State, last: Option<Step>, ask: Ask, out: &mut Vec<Step>) {
        // The card the last move put on a pile stays there for now: moving
        // it on at once reaches a position that one move from the position
        // before reaches too (or that position itself), and that position
        // offers that move.
        let just_moved = match last.and_then(|step| step.to) {
            Some(to) if self.pruned => 1 << to,
            _ => 0,
        };
        // The cards topping the piles, and which piles they top. An empty
        // pile's `NO_CARD` lands on bit and place 63, which no card has;
        // the piles are read last first, so that place ends with the first
        // empty pile, the one offered.
        let mut pile_of_top = [NO_CARD; 64];
        let mut tops = 0u64;
        // The cards that some pile's top would take.
        let mut wanted = 0u64;
        for p in (0..PILES).rev() {
            let top = state.tops[p];
            pile_of_top[(top & 63) as usize] = p as u8;
            tops |= 1 << (top & 63);
            wanted |= BUILT_ON_BITS[top as usize];
        }
        tops &= (1 << Card::COUNT) - 1;
        let empty = Some(pile_of_top[63]).filter(|&p| p != NO_CARD);
        let reserve = self.reserve_free[(state.reserve & 63) as usize];
        let free = tops | reserve;
        // The cards that go home next, one bit each.
        let mut next_home = 0u64;
        for (suit, &home) in state.home.iter().enumerate() {
            next_home |= NEXT_HOME[suit][home as usize & 15];
        }
        // A card that can go neither home nor onto a pile has no move, and
        // most free cards are such: one bit test leaves each out.
        if state.must_build != NO_PILE {
            wanted = BUILT_ON_BITS[state.tops[state.must_build as usize] as usize];
        } else if empty.is_some() {
            wanted = !0;
        } else {
            wanted |= next_home;
        }
        // The places of the cards that may have a move, a bit each: the
        // piles, then the reserve places. Found from the few wanted cards,
        // and read in place order, which is the order the moves come in.
        let mut sources = 0u32;
        let mut cards = tops & wanted;
        while cards != 0 {
            sources |= 1 << pile_of_top[(cards.trailing_zeros() & 63) as usize];
            cards &= cards - 1;
        }
        sources &= !just_moved;
        let mut cards = reserve & wanted;
        while cards != 0 {
            sources |= 1 << (PILES as u8 + self.reserve_at[(cards.trailing_zeros() & 63) as usize]);
            cards &= cards - 1;
        }
        let source = |s: u32| match s as usize {
            p @ ..PILES => (From::Pile(p as u8), state.tops[p]),
            r => (
                From::Reserve((r - PILES) as u8),
                self.reserve_cards[r - PILES].index() as u8,
            ),
        };
        // Moves go straight into `out` and are sorted there. (Gathered in a
        // local array first, filling the array cost more than the rest.)
        let start = out.len();
        out.reserve(MAX_MOVES);
        // In a narrowed search, whether a card may move onto a pile.
        let tired = ask.narrowing != 0 && state.rearranged as u32 >= ask.narrowing;
        let may_build = |from| !(tired && Self::on_a_run(state, from));
        if state.must_build != NO_PILE {
            let to = state.must_build;
            while sources != 0 {
                let (from, _) = source(sources.trailing_zeros());
                sources &= sources - 1;
                if from != From::Pile(to) && may_build(from) {
                    out.push(Step { from, to: Some(to) });
                }
            }
        } else {
            while sources != 0 {
                let (from, card) = source(sources.trailing_zeros());
                sources &= sources - 1;
                if next_home & 1 << card != 0 {
                    if SAFE.safe(&state.home, Card::from_index(card as usize)) {
                        out.truncate(start);
                        out.push(Step { from, to: None });
                        return;
                    }
                    out.push(Step { from, to: None });
                }
                // A reserve card nothing free could build on goes only home.
                let unbuilt = self.pruned
                    & matches!(from, From::Reserve(_))
                    & (BUILT_ON_BITS[card as usize] & free == 0);
                if unbuilt || !may_build(from) {
                    continue;
                }
                for base in BASES[card as usize] {
                    let to = pile_of_top[(base & 63) as usize];
                    if to != NO_CARD {
                        out.push(Step { from, to: Some(to) });
                    }
                }
                let alone =
                    || matches!(from, From::Pile(p) if state.piles[p as usize].cards() == 1);
                if let Some(to) = empty
                    && !alone()
                {
                    out.push(Step { from, to: Some(to) });
                }
            }
        }
        if ask.ordered {
            self.sort(state, &mut out[start..]);
        }
    }

    /// How much the foundations wait on the starting cards still in each
    /// pile: under its top card, and the top card itself. A card counts 8
    /// if it is the next of its suit, then 4, 2 and 1 for the three after
    /// it. Run cards are left out: a run is in order, so it holds up
    /// little, and finding them would cost more than the ordering gains.
    fn waiting(&self, state: &State) -> Waiting {
        // Under each pile's top card, and on it. Each of the next four cards
        // of a suit adds to one of them, nothing if it is not among its
        // pile's starting cards left (or is past the King): the loop is the
        // same for every card, with no branch.
        let mut waiting = [[0; PILES]; 2];
        for suit in 0..4 {
            let next = state.home[suit] as usize;
            for wait in 0..4 {
                let (pile, at) = self.dealt_at[suit][next + wait];
                let code = state.piles[pile as usize];
                let dealt = code.dealt_left() as u32;
                let on_top = (at as u32 + 1 == dealt) & (code.run_len() == 0);
                let there = (at as u32) < dealt;
                waiting[on_top as usize][pile as usize] += (8 >> wait) * there as i32;
            }
        }
        let [under, top] = waiting;
        Waiting { under, top }
    }

    /// How early a move is tried, highest first. Moves home come first.
    /// Then a move scores by how much the foundations wait on the cards it
    /// uncovers, less those it buries (see [`Raglan::waiting`]): a search
    /// that digs out the next cards of each suit finds wins sooner, while
    /// one that shuffles runs about can wander through millions of
    /// positions. Ties go to a move that uncovers a starting card, then
    /// other moves onto a card, then reserve cards, then moves to an empty
    /// pile.
    fn order(state: &State, step: Step, waiting: &Waiting) -> i32 {
        let Some(to) = step.to else {
            return i32::MAX;
        };
        let to = to as usize;
        let (gain, tier) = match step.from {
            From::Reserve(_) => (0, 1),
            From::Pile(p) if state.piles[p as usize].run_len() == 0 => {
                (waiting.under[p as usize], 3)
            }
            From::Pile(p) => (waiting.under[p as usize], 2),
        };
        if state.piles[to].is_empty() {
            return gain * 16;
        }
        (gain - waiting.under[to] - waiting.top[to]) * 16 + tier
    }

    /// Whether the card at `from` lies on a run, so that moving it onto a
    /// pile only rearranges the tableau (see `State::rearranged`).
    pub(super) fn on_a_run(state: &State, from: From) -> bool {
        matches!(from, From::Pile(p) if state.piles[p as usize].run_len() > 0)
    }

    /// Puts `moves` in `Raglan::order`, best first.
    fn sort(&self, state: &State, moves: &mut [Step]) {
        if moves.len() < 2 {
            return;
        }
        let waiting = self.waiting(state);
        let mut scores = [0; MAX_MOVES];
        for (score, &step) in scores.iter_mut().zip(moves.iter()) {
            *score = Self::order(state, step, &waiting);
        }
        // An insertion sort, stable: the lists are short.
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && scores[j - 1] < scores[j] {
                scores.swap(j - 1, j);
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

/// See [`Raglan::waiting`].
struct Waiting {
    under: [i32; PILES],
    top: [i32; PILES],
}
