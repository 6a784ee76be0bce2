//! Lanes' relaxation: run cards known by rank and colour alone.
//!
//! A card built into a run (by a move onto a pile) is, for every move but
//! one, only its rank and colour: it builds on the two cards of the other
//! colour one rank up, takes the two one rank down, and moves as any card.
//! Only going home asks its suit. So the relaxation forgets the suit of
//! every run card (it is a *placeholder* of its rank and colour) and lets
//! a placeholder go home as any card of its rank and colour that is a run
//! card and whose foundation shows the rank below; from then on that card
//! is home. Starting cards still in their place and talon cards keep their
//! suits.
//!
//! Positions that differ only in which of two cards of a rank and colour
//! lies where in the runs are one position here: where a lost deal's
//! search shuffles runs between the two cards each could lie on, that is
//! most of its positions.
//!
//! # Why a loss here is a loss of the game
//!
//! A relaxed position stands for the game's positions that give its
//! placeholders suits, each run card of the game to one placeholder of
//! its rank and colour (its *members*). Every line of the game from a
//! member is a line here: moves onto piles and off them ask only rank and
//! colour, and a run card going home is its placeholder going home as it.
//! So a relaxed position that no line wins has no member a line wins, and
//! the deal's position, its own only member at the start (no runs yet),
//! is lost. A line that wins here may bind placeholders as no member's
//! cards lie, so a win proves nothing.
//!
//! The pruning keeps its arguments: a safe move home is one of a
//! placeholder only when its rank and colour has one run card (the
//! placeholder is that card in every member), and a position is a dead
//! end only when every member is one ([`Lanes::every_member_dead`]).

use super::dead_end::{Cards, TWINS};
use super::{From, Lanes, PILES, SAFE, State, Step};
use crate::card::{Card, Colour, Suit};
use crate::games::NO_CARD;
use crate::games::alternating::{PileCode, dealt_top, pile_cards};
use crate::games::talon;

/// A move home of a placeholder as the card of suit `s` has `to` of
/// `HOME_AS + s`: one past the piles, so never a pile.
pub(super) const HOME_AS: u8 = PILES as u8;

/// The most ranks and colours with both cards in runs that the dead-end
/// test splits into members (two each): past it, the test proves nothing.
const MOST_SPLITS: usize = 4;

/// The placeholder of `card`: its rank in the suit of its colour whose
/// suit bit is 0, so that a run of placeholders has no suit bits.
pub(super) const fn placeholder(card: Card) -> Card {
    let suit = match card.colour() {
        Colour::Red => Suit::Diamonds,
        Colour::Black => Suit::Clubs,
    };
    Card::new(card.rank(), suit)
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
    /// that card in every member: itself, if it goes home next, or for a
    /// placeholder each run card of its rank and colour that goes home next
    /// (`runs` is [`Lanes::run_cards`]).
    pub(super) fn homes_relaxed(
        &self,
        state: &State,
        runs: Cards,
        from: From,
        card: Card,
        mut each: impl FnMut(Step, Card, bool),
    ) {
        let placeholder = matches!(from, From::Pile(p) if state.piles[p as usize].run_len() > 0);
        if !placeholder {
            if state.goes_home(card) {
                each(Step { from, to: None }, card, true);
            }
            return;
        }
        let forced = (runs & TWINS[card.index()]).count_ones() == 1;
        for home in twins(card) {
            if runs >> home.index() & 1 != 0 && state.goes_home(home) {
                let to = Some(HOME_AS + home.suit().index() as u8);
                each(Step { from, to }, home, forced);
            }
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

    /// The relaxed position standing for `state`: its run cards made
    /// placeholders.
    pub(super) fn relax(&self, state: &State) -> State {
        let mut relaxed = State {
            relaxed: true,
            ..*state
        };
        self.rebuild_runs(&mut relaxed, placeholder);
        relaxed
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
    /// game (see the module doc): each rank and colour with one run card
    /// gives it to its placeholder, each with two gives them to its two
    /// placeholders either way round, and each such member is tested.
    pub(super) fn every_member_dead(&self, state: &State) -> bool {
        // An empty pile, or a lone card with a pile's top to go on, answers
        // the test for every member alike (see `dead_end::cannot_win`).
        let lone = |p: usize| state.piles[p].cards() == 1;
        let builds = |p: usize| state.builds(Card::from_index(state.tops[p] as usize));
        if state.tops.contains(&NO_CARD) || (0..PILES).any(|p| lone(p) && builds(p)) {
            return false;
        }
        // What each placeholder is in the members, by its index: the one
        // run card of its rank and colour, or (`SPLIT` and a place among
        // the splits) either of two.
        const SPLIT: u8 = 0x80;
        let runs = self.run_cards(state);
        let mut identity = [0u8; Card::COUNT];
        let mut splits = 0;
        let mut rest = runs;
        while rest != 0 {
            let card = Card::from_index(rest.trailing_zeros() as usize);
            rest &= rest - 1;
            let at = placeholder(card).index();
            let pair = TWINS[card.index()];
            match runs & pair == pair {
                false => identity[at] = card.index() as u8,
                true if card == twins(card)[0] => {
                    if splits == MOST_SPLITS {
                        return false;
                    }
                    identity[at] = SPLIT | splits as u8;
                    splits += 1;
                }
                true => {}
            }
        }
        (0..1u32 << splits).all(|swaps| {
            let mut member = State {
                relaxed: false,
                ..*state
            };
            let mut second = [false; Card::COUNT];
            self.rebuild_runs(&mut member, |card| match identity[card.index()] {
                split if split & SPLIT != 0 => {
                    let turned = std::mem::replace(&mut second[card.index()], true);
                    twins(card)[(swaps >> (split & !SPLIT) & 1) as usize ^ turned as usize]
                }
                one => Card::from_index(one as usize),
            });
            super::dead_end::cannot_win(self, &member)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A placeholder keeps the rank and colour and has no suit bit.
    #[test]
    fn placeholders_keep_rank_and_colour() {
        for card in Card::all() {
            let p = placeholder(card);
            assert_eq!((p.rank(), p.colour()), (card.rank(), card.colour()));
            assert_eq!(crate::games::alternating::suit_bit(p), 0);
            assert!(twins(card).contains(&card));
        }
    }
}
