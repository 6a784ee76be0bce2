//! All in a Row, straight from RULES.md.

use crate::board::{Board, BoardError, Part, Tally};
use crate::card::Card;
use crate::notation::{Move, Place};

use super::{Rules, check_pile_count};

pub struct AllInARowRules;

/// "13 tableau piles of 4 cards": the reference keeps its own numbers from
/// RULES.md rather than the engine's.
const PILES: usize = 13;
const DEPTH: usize = 4;

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
    /// Checks that a board is an All in a Row position: 13 piles of at most 4
    /// face-up cards, one foundation, and no card twice. With an empty
    /// foundation every card must be on the tableau; otherwise the cards not on
    /// the tableau are home.
    fn validate(&self, board: &Board) -> Result<(), BoardError> {
        let lines = &board.lines;
        board.refuse(
            "All in a Row",
            &[Part::Reserve, Part::Stock, Part::Waste, Part::Redeals],
        )?;
        if board.foundations.len() > 1 {
            return Err(BoardError::at(
                lines.foundations,
                format!(
                    "{} foundations: All in a Row has one",
                    board.foundations.len()
                ),
            ));
        }
        check_pile_count(board, "All in a Row", PILES)?;
        let mut tally = Tally::new(1);
        let top = board.foundations.first().copied().flatten();
        if let Some(card) = top {
            tally.add(card, lines.foundations)?;
        }
        for (i, pile) in board.piles.iter().enumerate() {
            let line = board.pile_line(i);
            if !pile.down.is_empty() {
                return Err(BoardError::at(
                    line,
                    "All in a Row has no face-down cards ('|')",
                ));
            }
            if pile.len() > DEPTH {
                return Err(BoardError::at(
                    line,
                    format!(
                        "pile {} has {} cards: All in a Row deals {DEPTH} to a pile and no move adds any",
                        i + 1,
                        pile.len()
                    ),
                ));
            }
            for card in pile.cards() {
                tally.add(card, line)?;
            }
        }
        if top.is_none() {
            tally.check_complete().map_err(|e| BoardError {
                message: format!(
                    "{} (with an empty foundation all 52 must be on the tableau)",
                    e.message
                ),
                ..e
            })?;
        }
        Ok(())
    }

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

    /// Every card not on the tableau is home: the foundation shows only
    /// its top card.
    fn cards_home(&self, board: &Board) -> usize {
        52 - board.piles.iter().map(|p| p.len()).sum::<usize>()
    }
}
