//! Classes: the positions that shifts reach from one another.
//!
//! A pile's *run* is its *foot* (the card the run lies on: its top
//! starting card, or the King an emptied pile took) and the cards *built*
//! on it, each a rank below and the other colour of the one under it. A
//! *level* is a rank and colour: each of its built cards lies on one of its
//! *bases*, the run cards (feet or built) of the rank above in the other
//! colour.
//!
//! A *shift* moves a built card, with the cards on it, onto another base of
//! its level that is a pile's top: a move taken back at once, as the base
//! it left is then a top of the same level. A position's *class* is what
//! shifts reach from it. A shift changes no foot, no card's level, and
//! nothing but which base of its level the moved card lies on: the cards
//! on it keep theirs. So where a level has more bases than built cards,
//! some base is free in every member and every placement of its cards is
//! reached, one shift to a free base at a time; where it has as many, none
//! of its cards can move.
//!
//! [`Alexandria::class_form`] is the member with each free level's cards
//! placed by rule, worked out from the Kings' level down, so that a
//! level's bases have their places before its cards are placed. Members
//! that differ only in which of two copies of a card lies where may still
//! get two forms, so fewer members merge; two classes never share one, as
//! a form is a member of its class.
//!
//! The beam keeps one position of a class
//! ([`crate::game::Game::class_key`]): its lines that differ only by
//! shifts would go on alike and fill its width. It goes on through a shift
//! ([`crate::game::Game::keeps_class`]) only to send a card home from the
//! member it reaches.

use super::pile::other;
use super::{Alexandria, HOME, PILES, State, Step};
use crate::card::{Card, Colour};
use crate::games::NO_CARD;

/// The most run cards a position holds: a run a pile, thirteen cards at
/// most, one of each rank. A level has at most six cards (two suits, three
/// decks), bases or built.
const MOST: usize = PILES * 13;

/// A run card of a position: the card, the run card under it (its place
/// in the list), and its place by rule (its pile's foot's pile, and its
/// height above the foot).
#[derive(Clone, Copy)]
struct RunCard {
    card: Card,
    under: Option<u8>,
    place: (u8, u8),
}

/// A card's level as an index: twice its rank, and one more if red.
fn level_of(card: Card) -> usize {
    2 * card.rank().get() as usize + card.colour() as usize
}

/// Whether `step` from `state` is a shift: cards off a pile that leave a
/// run card under them (the lowest moved is built), onto another pile's
/// top.
pub(super) fn is_shift(state: &State, step: Step) -> bool {
    step.pile().is_some_and(|p| {
        step.to != HOME
            && state.tops[step.to as usize] != NO_CARD
            && u32::from(step.count) <= state.piles[p].run_len()
    })
}

impl Alexandria {
    /// The member of `state`'s class with each free level's built cards
    /// placed by rule (see the module doc): on the level's bases in order
    /// of their places, the cards in order of suit.
    pub(super) fn class_form(&self, state: &State) -> State {
        let mut cards = [RunCard {
            card: Card::from_index(0),
            under: None,
            place: (0, 0),
        }; MOST];
        // Each level's run cards, by rank and colour, and each pile's foot.
        let mut levels = [[0u8; 6]; 28];
        let mut counts = [0usize; 28];
        let mut feet = [None; PILES];
        let mut n = 0;
        for (p, foot_at) in feet.iter_mut().enumerate() {
            let code = state.piles[p];
            let Some(foot) = code.base_in(&self.start_cards[p]) else {
                continue;
            };
            *foot_at = Some(n as u8);
            let mut under = None;
            for (height, card) in std::iter::once(foot)
                .chain(code.run_cards(foot))
                .enumerate()
            {
                cards[n] = RunCard {
                    card,
                    under,
                    place: (p as u8, height as u8),
                };
                let level = level_of(card);
                levels[level][counts[level]] = n as u8;
                counts[level] += 1;
                under = Some(n as u8);
                n += 1;
            }
        }
        let mut on = [None; MOST];
        for rank in (1..13).rev() {
            for colour in [Colour::Black, Colour::Red] {
                let level = 2 * rank + colour as usize;
                let above = 2 * (rank + 1) + other(colour) as usize;
                let mut built = [0u8; 6];
                let mut nc = 0;
                for &i in &levels[level][..counts[level]] {
                    if cards[i as usize].under.is_some() {
                        built[nc] = i;
                        nc += 1;
                    }
                }
                let built = &mut built[..nc];
                let mut bases = levels[above];
                let bases = &mut bases[..counts[above]];
                if bases.len() > built.len() {
                    bases.sort_unstable_by_key(|&i| cards[i as usize].place);
                    built.sort_unstable_by_key(|&i| cards[i as usize].card.index());
                    for (&card, &base) in built.iter().zip(bases.iter()) {
                        cards[card as usize].under = Some(base);
                    }
                }
                for &card in built.iter() {
                    let under = cards[card as usize]
                        .under
                        .expect("a built card lies on one");
                    let (pile, height) = cards[under as usize].place;
                    cards[card as usize].place = (pile, height + 1);
                    on[under as usize] = Some(card);
                }
            }
        }
        // Each pile's run rebuilt from its foot up.
        let mut form = *state;
        for (p, foot) in feet.iter().enumerate() {
            let Some(mut at) = *foot else { continue };
            let code = state.piles[p];
            let mut code = code.pop_run(code.run_len());
            while let Some(card) = on[at as usize] {
                code = code.push(cards[card as usize].card);
                at = card;
            }
            form.piles[p] = code;
            form.tops[p] = self.top_of(p, code);
        }
        form
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::testing::{along_play, dealt};

    /// The tableau's cards of `state`, pile by pile, as counts by card.
    fn tableau(game: &Alexandria, state: &State) -> [u8; Card::COUNT] {
        let mut counts = [0; Card::COUNT];
        for p in 0..PILES {
            for card in game.pile_cards(p, state.piles[p]).0 {
                counts[card.index()] += 1;
            }
        }
        counts
    }

    /// Whether some level with a free base has two built copies of one
    /// card: there the form may tell members apart (see the module doc).
    fn copies_free(game: &Alexandria, state: &State) -> bool {
        let mut built = [0u8; Card::COUNT];
        let mut levels = [(0usize, 0usize); 28];
        for p in 0..PILES {
            let code = state.piles[p];
            let Some(foot) = code.base_in(&game.start_cards[p]) else {
                continue;
            };
            levels[level_of(foot)].0 += 1;
            for card in code.run_cards(foot) {
                levels[level_of(card)].0 += 1;
                levels[level_of(card)].1 += 1;
                built[card.index()] += 1;
            }
        }
        (0..Card::COUNT).any(|c| {
            let card = Card::from_index(c);
            let (rank, colour) = (card.rank().get() as usize, card.colour());
            let above = 2 * (rank + 1) + other(colour) as usize;
            built[c] > 1 && rank < 13 && levels[above].0 > levels[level_of(card)].1
        })
    }

    /// Along random play from numbered deals, every shift (a built card's
    /// run moved onto another pile's top, leaving a card in its place)
    /// keeps the position's class key, but where copies of a card at a
    /// free level tell members apart; and each form holds the position's
    /// cards, each pile's starting cards and foot where they were, and is
    /// its own form.
    #[test]
    fn a_shift_keeps_the_class() {
        let (mut shifts, mut apart, mut moved) = (0, 0, 0);
        for n in 1..=20 {
            let game: Alexandria = dealt(&super::super::LAYOUT, n);
            along_play(&game, n, 400, 4, |state, moves| {
                let form = game.class_form(state);
                assert_eq!(tableau(&game, &form), tableau(&game, state), "deal {n}");
                for p in 0..PILES {
                    let (code, start) = (state.piles[p], &game.start_cards[p]);
                    assert_eq!(form.piles[p].dealt_left(), code.dealt_left());
                    assert_eq!(form.piles[p].base_in(start), code.base_in(start));
                }
                assert_eq!(game.class_form(&form), form, "deal {n}");
                moved += (form != *state) as u32;
                for &mv in moves {
                    if !is_shift(state, mv) {
                        continue;
                    }
                    let child = game.play(state, mv);
                    match game.class_key(&child) == game.class_key(state) {
                        true => shifts += 1,
                        false => {
                            assert!(copies_free(&game, state), "deal {n}: {mv:?}");
                            apart += 1;
                        }
                    }
                }
            });
        }
        assert!(
            shifts > 1000 && moved > 100,
            "{shifts} shifts, {moved} forms moved"
        );
        assert!(apart * 10 < shifts, "{apart} shifts apart of {shifts}");
    }
}
