//! The interface between a game's fast engine and the search.
//!
//! The search is generic over [`Game`] and monomorphised per game, so the
//! hot loop calls each game's code directly.

use crate::board::{Board, BoardError};
use crate::key::TableKey;
use crate::notation;

/// What a search asks of [`Game::moves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    /// 0 in a full search. Otherwise it is a level of the game's plan
    /// (see [`crate::search::Plan`]), and the engine may leave out any moves it likes, more of them at
    /// lower levels, and may decide from parts of the state the key leaves
    /// out: a narrowed search only ever proves a win.
    pub narrowing: u32,
    /// Whether the moves should come best first. A best-first attempt
    /// orders positions by [`Game::score`] instead, and an engine
    /// may skip the work of ordering them.
    pub ordered: bool,
}

impl Ask {
    /// Every move, best first: what the full search asks.
    pub const FULL: Ask = Ask {
        narrowing: 0,
        ordered: true,
    };
}

/// A game's fast engine, built for one board.
///
/// The engine holds whatever the deal fixes for good (the layout's cards),
/// so that a [`Game::State`] holds only what moves change and stays small.
///
/// Engines, states and moves are shared between threads when one deal is
/// searched on several (see [`crate::search::solve_parallel`]).
pub trait Game: Sized + Sync {
    /// Whether every move is irreversible. Then the search cannot meet a
    /// position on its own path, and it skips the cycle guard.
    const ACYCLIC: bool;

    /// A position, as compact as the engine can make it.
    type State: Copy + Send + Sync;
    /// The exact transposition-table key of a position. Two positions with
    /// the same key must have the same future: same moves, same outcome (in
    /// a full search; see [`Game::moves`] on narrowed ones).
    type Key: TableKey + Send + Sync;
    /// A move as the engine plays it.
    type Move: Copy + PartialEq + Send + Sync;

    /// The engine for a board, or why the board is not one of this game's.
    fn new(board: &Board) -> Result<Self, BoardError>;

    fn initial(&self) -> Self::State;

    fn key(&self, state: &Self::State) -> Self::Key;

    fn is_won(&self, state: &Self::State) -> bool;

    /// Cards on the foundations: how far a search got.
    fn cards_home(&self, state: &Self::State) -> u32;

    /// Appends the legal moves, the most promising first if `ask` wants
    /// them ordered. A game may leave out moves that never lose a win (each
    /// omission argued where it is made).
    ///
    /// `last` is the move that led here, if any: a game may leave out a
    /// move that only finishes, in two steps, what one move from the
    /// position before could do (that position offers it itself).
    fn moves(
        &self,
        state: &Self::State,
        last: Option<Self::Move>,
        ask: Ask,
        out: &mut Vec<Self::Move>,
    );

    fn play(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// How promising a position looks to a best-first attempt, higher
    /// first. Read for every position a best-first search generates, and
    /// where each rollout ends; it steers, it never prunes, so it needs no
    /// proof, only measurements.
    fn score(&self, _state: &Self::State) -> i32 {
        0
    }

    /// A sound dead-end test: `true` only if no win can be reached from the
    /// position. The default never prunes.
    fn is_dead_end(&self, _state: &Self::State) -> bool {
        false
    }

    /// The position in the game's *relaxation*, if it has one: a game with
    /// fewer positions that allows every line of this one, and more, so
    /// that a position it loses is lost here (its wins prove nothing; see
    /// [`crate::search::Tactic::Relaxed`]). `moves`, `play`, `key` and the
    /// tests then play the relaxation from the position returned. None by
    /// default.
    fn relaxed(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }

    /// Whether `line`, a line of the relaxation from the deal's position
    /// there, is a line of the game: each move the game's from the
    /// position before, so that the positions on it, and its notation,
    /// are the game's. A walk asks it of each move as its path grows, so
    /// a line must be the game's exactly when each of its moves alone is.
    /// False by default.
    fn is_game_line(&self, _line: &[Self::Move]) -> bool {
        false
    }

    /// The deal's position in a finer relaxation, after `line` won the
    /// relaxation from `root` (the deal's position there) by moves that
    /// are not the game's: one that no longer allows what the line needed,
    /// and still allows every line of the game. None when there is none
    /// (the default), or refining is not worth it: the full walk then
    /// takes the relaxed walk's place.
    fn refined(&self, _root: &Self::State, _line: &[Self::Move]) -> Option<Self::State> {
        None
    }

    /// The move in RULES.md notation, played from `state`. One engine move
    /// may be several notation moves (a stock skipped through is a series
    /// of draws).
    fn notation(&self, state: &Self::State, mv: Self::Move, out: &mut Vec<notation::Move>);

    /// The position as a plain board, for printing and for comparing with
    /// the reference rules.
    fn to_board(&self, state: &Self::State) -> Board;
}
