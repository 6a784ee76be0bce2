//! Lanes' relaxation: run cards known by rank and colour alone.
//!
//! A card built into a run (by a move onto a pile) is, for every move but
//! one, only its rank and colour: it builds on the two cards of the other
//! colour one rank up, takes the two one rank down, and moves as any card.
//! Only going home asks its suit. So the relaxation forgets the suit of
//! every run card and lets a run card go home as any card of its rank and
//! colour that is a run card and whose foundation shows the rank below;
//! from then on that card is home. Starting cards still in their place and
//! talon cards keep their suits.
//!
//! Positions that differ only in which of two cards of a rank and colour
//! lies where in the runs are one position here: where a lost deal's
//! search shuffles runs between the two cards each could lie on, that is
//! most of its positions.
//!
//! # Why a loss here is a loss of the game
//!
//! A relaxed position stands for the game's positions that share its cards
//! but for which run card of a rank and colour lies where (its *members*).
//! Every line of the game from a member is a line here: moves onto piles
//! and off them ask only rank and colour, and a run card going home goes
//! home as itself. So a relaxed position that no line wins has no member
//! a line wins, and the deal's position, its own only member at the start
//! (no runs yet), is lost.
//!
//! The engine holds a relaxed position as one of its members, the one its
//! line reached, and its key forgets the run cards' suits: a move home of
//! a run card as its twin swaps the two in the runs first, so that the
//! position is still a member. A line that wins with no such swap is the
//! game's own ([`swaps`]); one that swaps proves nothing.
//!
//! The pruning keeps its arguments: a safe move home is one of a run card
//! only when its rank and colour has one run card (the card is that card
//! in every member), and a position is a dead end only when every member
//! is one ([`Lanes::every_member_dead`]).

use super::dead_end::{Cards, TWINS, cannot_win, cannot_win_as};
use super::{From, Lanes, PILES, SAFE, State, Step};
use crate::card::{Card, Colour, Suit};
use crate::games::NO_CARD;
use crate::games::alternating::{PileCode, dealt_top, pile_cards};
use crate::games::talon;

/// A move home of a run card as the card of suit `s` has `to` of
/// `HOME_AS + s`: one past the piles, so never a pile.
pub(super) const HOME_AS: u8 = PILES as u8;

/// The most ranks and colours with both cards in runs that the dead-end
/// test splits into members (two each): past it, the test proves nothing.
const MOST_SPLITS: usize = 4;

/// Whether `step` is a move home of a run card as its twin: a line with
/// none is the game's own, each position on it a member that the game's
/// moves reach.
pub(super) fn swaps(step: &Step) -> bool {
    step.to.is_some_and(|to| to >= HOME_AS)
}

/// The other card of `card`'s rank and colour.
fn twin(card: Card) -> Card {
    let [first, second] = twins(card);
    if card == first { second } else { first }
}

/// The two cards of `card`'s rank and colour, in suit order (as a set:
/// [`TWINS`]).
pub(super) fn twins(card: Card) -> [Card; 2] {
    let suits = match card.colour() {
        Colour::Red => [Suit::Diamonds, Suit::Hearts],
        Colour::Black => [Suit::Clubs, Suit::Spades],
    };
    suits.map(|suit| Card::new(card.rank(), suit))
}

impl Lanes {
    /// The cards of the game in runs: neither home, nor in the talon, nor
    /// starting cards still in their place.
    pub(super) fn run_cards(&self, state: &State) -> Cards {
        let mut out: Cards = ((1 << Card::COUNT) - 1) & !state.home_cards();
        for t in talon::places(state.talon as u128) {
            out &= !(1 << self.talon.card(t).index());
        }
        for p in 0..PILES {
            for card in &self.start_cards[p][..state.piles[p].dealt_left()] {
                out &= !(1 << card.index());
            }
        }
        out
    }

    /// Calls `each` with each move home of the card `card` at `from` in
    /// the relaxed `state`, the card it goes home as, and whether it is
    /// that card in every member: itself, if it goes home next, and for a
    /// run card then its twin, if that is a run card too and goes home
    /// next, as a swap (`runs` is [`Lanes::run_cards`]).
    pub(super) fn homes_relaxed(
        &self,
        state: &State,
        runs: Cards,
        from: From,
        card: Card,
        mut each: impl FnMut(Step, Card, bool),
    ) {
        let in_run = matches!(from, From::Pile(p) if state.piles[p as usize].run_len() > 0);
        let forced = !in_run || (runs & TWINS[card.index()]).count_ones() == 1;
        if state.goes_home(card) {
            each(Step { from, to: None }, card, forced);
        }
        if forced {
            return;
        }
        let twin = twin(card);
        if state.goes_home(twin) {
            let to = Some(HOME_AS + twin.suit().index() as u8);
            each(Step { from, to }, twin, false);
        }
    }

    /// The safe move home of the relaxed `state`, if it has one: of a free
    /// card (`free` says which sources are) that is the same card in every
    /// member. The relaxed walk is never narrowed.
    pub(super) fn safe_home_relaxed(
        &self,
        state: &State,
        sources: &[(From, Card)],
        free: impl Fn(From) -> bool,
        runs: Cards,
    ) -> Option<Step> {
        let mut chosen = None;
        for &(from, card) in sources.iter().filter(|&&(from, _)| free(from)) {
            self.homes_relaxed(state, runs, from, card, |step, home, forced| {
                if chosen.is_none() && forced && SAFE.safe(&state.home, home) {
                    chosen = Some(step);
                }
            });
        }
        chosen
    }

    /// The relaxed position standing for `state`, which is its member.
    pub(super) fn relax(&self, state: &State) -> State {
        State {
            relaxed: true,
            ..*state
        }
    }

    /// Plays into `next` the relaxation's move home of `card` (a run card)
    /// as its twin, the other run card of its rank and colour: the two swap
    /// places in the runs first, so that `next` is still a member.
    pub(super) fn home_as_twin(&self, next: &mut State, card: Card) {
        let twin = twin(card);
        next.home[twin.suit().index()] += 1;
        self.rebuild_runs(next, |c| if c == twin { card } else { c });
    }

    /// Rebuilds the run of every pile of `state`, each card `suited(card)`.
    fn rebuild_runs(&self, state: &mut State, mut suited: impl FnMut(Card) -> Card) {
        for p in 0..PILES {
            let dealt = state.piles[p].dealt_left();
            let mut code = PileCode::dealt(p, dealt);
            let mut top = dealt_top(&self.start_cards[p], code);
            let mut at = 0;
            pile_cards(&self.start_cards[p], state.piles[p], |card| {
                if at >= dealt {
                    let card = suited(card);
                    code = code.push(card);
                    top = card.index() as u8;
                }
                at += 1;
            });
            (state.piles[p], state.tops[p]) = (code, top);
        }
    }

    /// Whether every member of the relaxed `state` is a dead end of the
    /// game (see the module doc): `state` itself, and each way of swapping
    /// the two cards of a rank and colour that are both in runs.
    pub(super) fn every_member_dead(&self, state: &State) -> bool {
        // An empty pile, or a lone card with a pile's top to go on, answers
        // the test for every member alike (see `dead_end::cannot_win`).
        let lone = |p: usize| state.piles[p].cards() == 1;
        let builds = |p: usize| state.builds(Card::from_index(state.tops[p] as usize));
        if state.tops.contains(&NO_CARD) || (0..PILES).any(|p| lone(p) && builds(p)) {
            return false;
        }
        if !cannot_win(self, state) {
            return false;
        }
        // The pairs both in runs, each named by its card of suit bit 0.
        let runs = self.run_cards(state);
        let mut pairs: Cards = 0;
        for card in Card::all().filter(|&card| card == twins(card)[0]) {
            let pair = TWINS[card.index()];
            if runs & pair == pair {
                pairs |= 1 << card.index();
            }
        }
        if pairs.count_ones() as usize > MOST_SPLITS {
            return false;
        }
        // Each nonempty set of pairs to swap, as a subset of `pairs`.
        let mut swaps: Cards = pairs;
        while swaps != 0 {
            let swapped = |card: Card| match swaps >> twins(card)[0].index() & 1 {
                1 => twin(card),
                _ => card,
            };
            if !cannot_win_as(self, state, swapped) {
                return false;
            }
            swaps = (swaps - 1) & pairs;
        }
        true
    }
}
