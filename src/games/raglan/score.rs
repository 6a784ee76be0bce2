//! Raglan's best-first score.

use super::{PILES, Raglan, State};
use crate::card::{Card, Colour};
use crate::game::Game;
use crate::games::alternating::suit_bit;

/// A card's rank, suit, colour and suit bit, read from [`FACES`].
#[derive(Clone, Copy)]
struct Face {
    rank: u8,
    suit: u8,
    colour: u8,
    suit_bit: u8,
}

/// Each card's [`Face`] (by index; the indices past the cards are all
/// zero), from a table: `Raglan::tableau_place` reads them for every pile
/// it looks through, and `Raglan::weight` at every move, and working them
/// out divides by 13.
const FACES: [Face; 64] = {
    let mut faces = [Face {
        rank: 0,
        suit: 0,
        colour: 0,
        suit_bit: 0,
    }; 64];
    let mut index = 0;
    while index < Card::COUNT {
        let card = Card::from_index(index);
        faces[index] = Face {
            rank: card.rank().get(),
            suit: card.suit().index() as u8,
            colour: matches!(card.colour(), Colour::Red) as u8,
            suit_bit: suit_bit(card) as u8,
        };
        index += 1;
    }
    faces
};

/// What a card home adds to the best-first score (see [`Game::score`]).
pub(super) const CARD_HOME: i32 = 5;

/// What an empty pile adds to the best-first score.
pub(super) const EMPTY_PILE: i32 = 16;

impl Raglan {
    /// What a card (by index) on the tableau weighs in the best-first
    /// score, by how far it is from its suit's foundation: 8 the next
    /// card, then 4 and 2.
    pub(super) fn weight(state: &State, card: usize) -> i32 {
        const NEXT: [i32; 16] = [8, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let face = FACES[card & 63];
        // A card on the tableau is above its foundation, so the index (its
        // rank less one, less the rank home) is at most 12.
        let above = face
            .rank
            .wrapping_sub(1 + state.home[face.suit as usize & 3]);
        NEXT[(above & 15) as usize]
    }

    /// Where a card lies on the tableau: its pile and how many cards lie
    /// on it; `None` if it is in the reserve, which the reserve's cards
    /// tell without reading every pile. A starting card still among
    /// its pile's starting cards is where it was dealt. Otherwise it is in
    /// a run, and a run's ranks rise by one a card from its top down and
    /// its colours alternate, so each pile's top tells at what depth a
    /// card of its rank would lie in the run, and the suit bit there
    /// whether it is this card.
    pub(super) fn tableau_place(&self, state: &State, card: Card) -> Option<(usize, u32)> {
        match self.starts_at[card.index()] {
            Some((pile, at)) => {
                let code = state.piles[pile as usize];
                if (at as usize) < code.dealt_left() {
                    return Some((pile as usize, (code.cards() - 1 - at as usize) as u32));
                }
            }
            None if self.reserve_free[(state.reserve & 63) as usize] & 1 << card.index() != 0 => {
                return None;
            }
            None => {}
        }
        let face = FACES[card.index()];
        (0..PILES).find_map(|pile| {
            let code = state.piles[pile];
            let len = code.run_len();
            if len == 0 {
                return None;
            }
            let top = FACES[(state.tops[pile] & 63) as usize];
            let depth = face.rank.wrapping_sub(top.rank) as u32;
            let here = depth < len
                && (face.colour ^ top.colour) as u32 == depth & 1
                && code.bit(len - 1 - depth) == face.suit_bit as u32;
            here.then_some((pile, depth))
        })
    }

    /// `state` with its best-first score (see [`Game::score`]) and pile
    /// weights worked out afresh: only for the start, since `play` carries
    /// them on.
    pub(super) fn weighed(&self, state: State) -> State {
        let mut score = CARD_HOME * self.cards_home(&state) as i32;
        score += EMPTY_PILE * state.piles.iter().filter(|code| code.is_empty()).count() as i32;
        let mut weights = [0; PILES];
        for (suit, &home) in state.home.iter().enumerate() {
            for card in suit * 13 + home as usize..suit * 13 + 13.min(home as usize + 3) {
                if let Some((pile, depth)) = self.tableau_place(&state, Card::from_index(card)) {
                    let weight = Self::weight(&state, card);
                    weights[pile] += weight as u8;
                    score -= weight * depth as i32;
                }
            }
        }
        State {
            score: score as i16,
            weights,
            ..state
        }
    }
}
