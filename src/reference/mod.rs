//! The plain reference rules: each game written straight from RULES.md on
//! plain [`Board`]s, slow and obvious, as the yardstick for the fast
//! engines. `verify` replays move lists with them, and the property tests
//! compare the engines' moves and verdicts against them.
//!
//! Where games share a mechanic, it is written once: [`layout`] holds the
//! one-card moves of the four games built by suit (Raglan, Lanes, Rows of
//! Four, Alexandria), [`foundations`] their foundations and the count of
//! their cards, and [`stock`] the stock and the waste of the three games
//! that have them. Each game's own file gives its numbers and its tableau
//! rule, and whatever else is its own.

pub mod alexandria;
pub mod all_in_a_row;
mod foundations;
pub mod lanes;
mod layout;
pub mod raglan;
pub mod rows_of_four;
mod stock;
#[cfg(test)]
mod test_support;

use std::collections::HashSet;
use std::hash::Hash;

use crate::board::{Board, BoardError, Pile};
use crate::card::Card;
use crate::notation::{Move, Place};

/// A game's rules on plain boards.
pub trait Rules: Sync {
    /// Checks that a board is a position of this game: the right places,
    /// and every card as often as the game's decks hold it. The error names
    /// the line at fault where there is one.
    fn validate(&self, board: &Board) -> Result<(), BoardError>;

    /// Every legal move, in any order.
    fn legal_moves(&self, board: &Board) -> Vec<Move>;

    /// Plays `mv`, or says why it is illegal (the board is then unchanged).
    fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String>;

    /// Won when every card is home: none is left on the tableau, in the
    /// reserve, in the stock or on the waste. (A board holds every card of
    /// the game's decks, so the cards not in play are home.)
    fn is_won(&self, board: &Board) -> bool {
        board.piles.iter().all(Pile::is_empty)
            && board.reserve.iter().flatten().all(Option::is_none)
            && board.stock.iter().all(Vec::is_empty)
            && board.waste.iter().all(Vec::is_empty)
    }

    /// The cards on the foundations: one showing 5H holds AH to 5H, five
    /// cards. (All in a Row's one foundation is built up and down, so it
    /// counts its own.)
    fn cards_home(&self, board: &Board) -> usize {
        (board.foundations.iter().flatten())
            .map(|top| usize::from(top.rank().get()))
            .sum()
    }
}

/// Takes `card` off the top of tableau pile `i`, or says why it is not
/// there to take: the one way every game's cards leave the tableau.
fn take_top(board: &mut Board, i: u8, card: Card) -> Result<(), String> {
    let from = Place::Tableau(i);
    let pile =
        (board.piles.get_mut(i as usize)).ok_or_else(|| format!("there is no pile {from}"))?;
    match pile.top() {
        None => Err(format!("{from} is empty")),
        Some(top) if top != card => Err(format!("the top card of {from} is {top}, not {card}")),
        Some(_) => {
            pile.up.pop();
            Ok(())
        }
    }
}

/// Checks that a board has the game's `piles` tableau piles. Too many are
/// blamed on the first pile too many; too few on no line.
fn check_pile_count(board: &Board, name: &str, piles: usize) -> Result<(), BoardError> {
    if board.piles.len() == piles {
        return Ok(());
    }
    Err(BoardError::at(
        board.pile_line(piles),
        format!("{} tableau piles: {name} has {piles}", board.piles.len()),
    ))
}

/// How a replayed move list ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    /// Every move was legal and the last one won.
    Won,
    /// Every move was legal, but the game is not won.
    NotWon { cards_home: usize },
    /// The move at `index` (from 0) is illegal, for `reason`.
    Illegal { index: usize, reason: String },
}

/// Replays `moves` from `board` with the reference rules.
pub fn replay(rules: &dyn Rules, board: &Board, moves: &[Move]) -> Replay {
    replay_to(rules, board, moves).0
}

/// As [`replay`], with the board reached: after the last move, or before
/// the illegal one. A player part way through a deal goes on from there.
pub fn replay_to(rules: &dyn Rules, board: &Board, moves: &[Move]) -> (Replay, Board) {
    let mut board = board.clone();
    for (index, mv) in moves.iter().enumerate() {
        let illegal = |reason| Replay::Illegal { index, reason };
        if rules.is_won(&board) {
            return (illegal("the game is already won".into()), board);
        }
        if let Err(reason) = rules.play(&mut board, mv) {
            return (illegal(reason), board);
        }
    }
    let replay = match rules.is_won(&board) {
        true => Replay::Won,
        false => Replay::NotWon {
            cards_home: rules.cards_home(&board),
        },
    };
    (replay, board)
}

/// Plain exhaustive search with the reference rules: `Some(true)` if a win
/// is reachable, `Some(false)` if not, `None` past `max_positions`. Meant
/// for small positions in tests: it keeps every position it sees.
pub fn plain_search(rules: &dyn Rules, board: &Board, max_positions: usize) -> Option<bool> {
    plain_search_by(rules, board, max_positions, Board::clone)
}

/// [`plain_search`], meeting once the positions `same` maps to one value:
/// positions a game's rules cannot tell apart (the same piles in another
/// order), where keeping them apart would blow the search up.
pub fn plain_search_by<T: Eq + Hash>(
    rules: &dyn Rules,
    board: &Board,
    max_positions: usize,
    same: impl Fn(&Board) -> T,
) -> Option<bool> {
    let mut seen = HashSet::new();
    let mut todo = vec![board.clone()];
    while let Some(board) = todo.pop() {
        if rules.is_won(&board) {
            return Some(true);
        }
        for mv in rules.legal_moves(&board) {
            let mut next = board.clone();
            rules.play(&mut next, &mv).expect("a legal move plays");
            if seen.insert(same(&next)) {
                if seen.len() > max_positions {
                    return None;
                }
                todo.push(next);
            }
        }
    }
    Some(false)
}

/// `board` with its piles and foundations sorted: the one board of all
/// those that differ only in the order of their piles and foundations,
/// for [`plain_search_by`] in a game whose rules read no pile's place
/// (nor a foundation's, but to print it), such as Alexandria, where a
/// plain search otherwise spends nearly all its positions moving Kings
/// from one empty pile to another.
pub fn in_pile_order(board: &Board) -> Board {
    let mut same = board.clone();
    (same.piles).sort_by(|a, b| (&a.down, &a.up).cmp(&(&b.down, &b.up)));
    same.foundations.sort();
    same
}
