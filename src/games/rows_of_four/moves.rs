//! Rows of Four's moves, best first, and what they leave out.
//!
//! # Why the pruning loses no win
//!
//! The moves leave out three kinds of move:
//! - all but one move when a free card's move home is safe (rule H; see
//!   [`super::super::safe_home`], which gives the argument); free means a
//!   tableau top or the waste's top, which goes home without a draw;
//! - all but one empty pile for the talon's cards (rule S): the positions
//!   differ only in the order of the piles, which the key ignores. (A
//!   tableau card never goes to an empty pile: only the waste fills one.)
//! - a move of the card the last move put on a pile (rule J): moving it
//!   on at once reaches a position that one move from the position before
//!   reaches too (the card straight from where it came from, the pile or
//!   the talon, with the same draws and redeal; or that position itself,
//!   if the card goes back to its pile).
//!
//! Rule J depends on the move that reached a position, which is not in
//! the key, so a position reached twice is expanded once, under whichever
//! move came first; the argument that a search that ends finds a win
//! anyway is Raglan's (see [`super::super::raglan`]). Let the cost of a
//! position be the fewest engine moves of a winning line from it. If a
//! search ends without a win from a winnable start, take the expanded
//! winnable position `E` of least cost and a cheapest winning line `L`
//! from it. If `L`'s first move is offered, the position after it is
//! cheaper and was expanded (every position the search inserts in its
//! table is expanded, or is on its path, so expanded too; a forgotten one
//! is expanded again): a contradiction. If rule S left it out, the equal
//! position offered instead is, the same. If rule H did, the safe move's
//! position is cheaper (the twin line of the safe rule has no more moves
//! than `L`) and was expanded. If rule J did, `L`'s first move takes on
//! the card `X` the move into `E` put down, and from `E`'s parent the
//! move of `X` straight from where it was reaches the same position `T`
//! (or the parent is `T`). That parent offered no safe move alone (it
//! offered the move of `X` to a pile), so the move is offered, or one to
//! an equal position by rule S, or it is left out by rule J again: `X`
//! was put where it was by the move before, and the walk goes on up the
//! search's tree to the move that first took `X` from the talon or from
//! under other cards; the start is reached by no move. Either way `T`,
//! cheaper than `E`, was expanded: a contradiction.

use super::{FOUNDATIONS, NARROWED, PILES, RowsOfFour, State, Step};
use crate::card::Card;
use crate::game::Ask;
use crate::games::foundations::Foundations;
use crate::games::narrowed::Narrowed;
use crate::games::safe_home::{Builds, SafeRule};
use crate::games::talon::{self, From};
use crate::games::{NO_CARD, sort_best_first};

/// Rows of Four's safe rule (see [`super::super::safe_home`]): any card of
/// the rank below builds on a card, and a card is safe when those could
/// go home as soon as they are free.
pub(super) const SAFE: SafeRule = SafeRule {
    builds: Builds::AnySuit,
    two_deep: true,
};

/// Whether `card`, free, can go home now and is safe there.
pub(super) fn safe_home(home: &Foundations<FOUNDATIONS>, card: Card) -> bool {
    home.safe(&SAFE, card)
}

/// A suit's weights in [`RowsOfFour::waiting`] by rank, a nibble each, for
/// foundations at ranks `low` and `high`: a card's weight is then one
/// shift, where working out its wait took branches. 8, 4, 2, 1 from the
/// rank above `high`, and from the rank above `low` up to `high`; 8 at or
/// below `low`, whose cards are both home.
pub(super) fn rank_weights(low: u8, high: u8) -> u64 {
    const NEXT: u64 = 0x1248;
    let (low, high) = (4 * (low + 1), 4 * (high + 1));
    let home = 0x8888_8888_8888_8888 & ((1 << low) - 1);
    (home | NEXT << low) & ((1 << high) - 1) | NEXT << high
}

/// See [`RowsOfFour::waiting`].
struct Waiting {
    under: [i32; PILES],
    top: [i32; PILES],
}

impl RowsOfFour {
    /// Moves best first (see [`RowsOfFour::order`]): a safe move home
    /// alone (rule H); only one empty pile (rule S); the card the last
    /// move put on pile `stays` stays (rule J).
    #[inline]
    pub(super) fn offer(&self, state: &State, stays: Option<u8>, ask: Ask, out: &mut Vec<Step>) {
        let waste_top = state.waste_top();
        let narrowed = Narrowed::at(&NARROWED, ask);
        let free = (0..PILES as u8)
            .filter(|&p| state.tops[p as usize] != NO_CARD)
            .map(From::Pile)
            .chain(waste_top.map(From::Talon));
        let mut greedy = None;
        for from in free {
            let card = self.card_at(state, from);
            if safe_home(&state.home, card) {
                out.push(Step { from, to: None });
                return;
            }
            if narrowed.is_some_and(|n| n.greedy) && state.home.place_for(card).is_some() {
                greedy = greedy.or(Some(from));
            }
        }
        if let Some(from) = greedy {
            out.push(Step { from, to: None });
            return;
        }
        let start = out.len();
        let empty = state.tops.iter().position(|&top| top == NO_CARD);
        // The piles by the rank of their top card.
        let mut by_rank = [0u8; 15];
        for (p, &top) in state.tops.iter().enumerate() {
            if top != NO_CARD {
                by_rank[Card::from_index(top as usize).rank().get() as usize] |= 1 << p;
            }
        }
        let home = |from: From, card: Card, out: &mut Vec<Step>| {
            if state.home.place_for(card).is_some() {
                out.push(Step { from, to: None });
            }
        };
        let builds = |from: From, card: Card, out: &mut Vec<Step>| {
            home(from, card, out);
            let mut onto = by_rank[card.rank().get() as usize + 1];
            while onto != 0 {
                let to = onto.trailing_zeros() as u8;
                onto &= onto - 1;
                out.push(Step { from, to: Some(to) });
            }
        };
        let tired = Narrowed::tired(narrowed, state.rearranged);
        for p in 0..PILES as u8 {
            if state.tops[p as usize] == NO_CARD || stays == Some(p) {
                continue;
            }
            let from = From::Pile(p);
            match tired && state.piles[p as usize].run_len() > 0 {
                true => home(from, self.card_at(state, from), out),
                false => builds(from, self.card_at(state, from), out),
            }
        }
        let stock = talon::stock(state.talon, state.cursor);
        let reach = match narrowed {
            None => self.reachable(state, false),
            Some(_) if stock == 0 => self.reachable(state, false),
            Some(n) => {
                let window = talon::stock_window(state.talon, state.cursor, n.window);
                self.reachable(state, true) & !stock | window
            }
        };
        for t in talon::places(reach) {
            let from = From::Talon(t);
            builds(from, self.talon.card(t), out);
            if let Some(to) = empty {
                out.push(Step {
                    from,
                    to: Some(to as u8),
                });
            }
        }
        if ask.ordered && out.len() - start > 1 {
            let waiting = self.waiting(state);
            sort_best_first(&mut out[start..], |step| {
                Self::order(state, step, waste_top, &waiting)
            });
        }
    }

    /// The talon's places whose card draws (and a redeal) can bring to the
    /// waste's top: with a redeal left, every one; else, or if asked for
    /// `this_pass` only, the top and the stock.
    fn reachable(&self, state: &State, this_pass: bool) -> u128 {
        if state.redeals > 0 && !this_pass {
            return state.talon;
        }
        let stock = talon::stock(state.talon, state.cursor);
        match state.waste_top() {
            Some(top) => stock | 1 << top,
            None => stock,
        }
    }

    /// How much the foundations wait on the cards of each pile: under its
    /// top card, and the top card itself. A card counts 8 if a foundation
    /// of its suit takes it next, then 4, 2 and 1 for the ranks after.
    fn waiting(&self, state: &State) -> Waiting {
        let (low, high) = super::dead_end::suit_tops(&state.home);
        let weights: [u64; 4] = std::array::from_fn(|suit| rank_weights(low[suit], high[suit]));
        let weight =
            |card: Card| (weights[card.suit().index()] >> (4 * card.rank().get()) & 15) as i32;
        let mut waiting = Waiting {
            under: [0; PILES],
            top: [0; PILES],
        };
        for p in 0..PILES {
            let mut all = 0;
            state.piles[p].cards(&self.start_cards[p], |card| all += weight(card));
            let top = match state.tops[p] {
                NO_CARD => 0,
                top => weight(Card::from_index(top as usize)),
            };
            (waiting.under[p], waiting.top[p]) = (all - top, top);
        }
        waiting
    }

    /// How early a move is tried, highest first. Moves home come first,
    /// those of the free cards before those that draw. Then a move scores
    /// by how much the foundations wait on the cards it uncovers, less
    /// those it covers (see [`RowsOfFour::waiting`]); ties go to a move
    /// that uncovers a starting card, then the waste's top, other moves
    /// off the tableau, and cards drawn from the talon, fewest draws
    /// first. Cards reached through a redeal come last.
    fn order(state: &State, step: Step, waste_top: Option<u8>, waiting: &Waiting) -> i32 {
        let cost = match step.from {
            From::Pile(_) => 0,
            From::Talon(t) if t >= state.cursor => {
                (state.talon & ((1u128 << t) - 1) & !((1u128 << state.cursor) - 1)).count_ones()
                    as i32
            }
            From::Talon(t) if Some(t) == waste_top => 0,
            From::Talon(_) => return i32::MIN + 1 - (step.to.is_some() as i32),
        };
        let Some(to) = step.to else {
            return i32::MAX - cost;
        };
        let to = to as usize;
        let (gain, tier) = match step.from {
            From::Pile(p) if state.piles[p as usize].run_len() == 0 => {
                (waiting.under[p as usize], 3)
            }
            From::Pile(p) => (waiting.under[p as usize], 2),
            From::Talon(t) if Some(t) == waste_top => (0, 1),
            From::Talon(_) => (0, 0),
        };
        let loss = waiting.under[to] + waiting.top[to];
        ((gain - loss) * 8 + tier) * 128 - cost
    }
}
