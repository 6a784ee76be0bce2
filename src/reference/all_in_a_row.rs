//! All in a Row, straight from RULES.md.

use crate::board::Board;
use crate::card::Card;
use crate::notation::{Move, Place};

use super::Rules;

pub struct AllInARowRules;

/// "One rank above or below the foundation's top card, regardless of suit,
/// wrapping: K goes on A and A on K." Any card starts an empty foundation.
fn fits(top: Option<Card>, card: Card) -> bool {
    match top {
        None => true,
        Some(top) => {
            let gap = top.rank().get().abs_diff(card.rank().get());
            gap == 1 || gap == 12
        }
    }
}

fn foundation_top(board: &Board) -> Option<Card> {
    board.foundations.first().copied().flatten()
}

impl Rules for AllInARowRules {
    fn legal_moves(&self, board: &Board) -> Vec<Move> {
        let top = foundation_top(board);
        board
            .piles
            .iter()
            .enumerate()
            .filter_map(|(i, pile)| pile.top().map(|card| (i, card)))
            .filter(|&(_, card)| fits(top, card))
            .map(|(i, card)| Move::single(Place::Tableau(i as u8), Place::Foundation, card))
            .collect()
    }

    fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        let Move::Play {
            from,
            to,
            card,
            count,
        } = *mv
        else {
            return Err("All in a Row has no stock: no draw or redeal".into());
        };
        let Place::Tableau(i) = from else {
            return Err(format!(
                "All in a Row plays only from the tableau, not from {from}"
            ));
        };
        if to != Place::Foundation {
            return Err(format!(
                "All in a Row plays only to the foundation, not to {to}"
            ));
        }
        if count != 1 {
            return Err("All in a Row moves one card at a time".into());
        }
        let Some(pile) = board.piles.get_mut(i as usize) else {
            return Err(format!("there is no pile {from}"));
        };
        match pile.top() {
            None => return Err(format!("pile {from} is empty")),
            Some(top) if top != card => {
                return Err(format!("the top card of {from} is {top}, not {card}"));
            }
            Some(_) => {}
        }
        let top = foundation_top(board);
        if !fits(top, card) {
            let top = top.expect("an empty foundation takes any card");
            return Err(format!(
                "{card} does not go on {top}: the foundation takes a card one rank above or below"
            ));
        }
        board.piles[i as usize].up.pop();
        board.foundations = vec![Some(card)];
        Ok(())
    }

    fn is_won(&self, board: &Board) -> bool {
        board.piles.iter().all(|p| p.is_empty())
    }

    fn cards_home(&self, board: &Board) -> usize {
        52 - board.piles.iter().map(|p| p.len()).sum::<usize>()
    }
}
