//! The interface between a game's fast engine and the search.
//!
//! The search is generic over [`Game`] and monomorphised per game, so the
//! hot loop calls each game's code directly.

use crate::board::{Board, BoardError};
use crate::notation;
use crate::search::TableKey;

/// What a search asks of [`Game::moves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    /// 0 in a full search. Otherwise it is one of [`Game::NARROWINGS`],
    /// and the engine may leave out any moves it likes, more of them at
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

    /// The levels of narrowing of the walks that take turns with the full
    /// search (see [`crate::search::solve`]), narrowest first; none for a
    /// game searched in full alone.
    const NARROWINGS: &'static [u32] = &[];

    /// The most levels of narrowing the engine knows (see [`Ask`]), if
    /// they end: a tactic asked for past them is refused. Raglan's level is
    /// a count of moves and has no end; the games whose levels are a table
    /// of choices have as many as the table.
    const MAX_NARROWING: Option<u32> = None;

    /// Whether a best-first search, led by [`Game::score`], stands in for
    /// the full walk (see [`crate::search::solve`]).
    const BEST_FIRST: bool = false;

    /// The levels of narrowing of the best-first searches led by rollouts
    /// (see `search::rollout`) that take turns with the walks; none
    /// for a game without them.
    const ROLLOUTS: &'static [u32] = &[];

    /// The levels of narrowing of the beam searches led by rollouts (see
    /// `search::beam`) that take turns with the others, last; none for a
    /// game without them.
    const BEAMS: &'static [u32] = &[];

    /// The level of narrowing of the rollouts that lead a search narrowed
    /// at `level` (see [`Game::ROLLOUTS`]): by default `level` itself. A
    /// game may let the search choose among more moves than its rollouts
    /// play.
    fn rollout_level(level: u32) -> u32 {
        level
    }

    /// How many times the turn's budget a beam's turn gets (see
    /// [`Game::BEAMS`]).
    const BEAM_WEIGHT: u64 = 1;

    /// The most bytes a walk's path may take, whatever its table's share
    /// (see [`crate::search::solve`]): a game whose full walk cannot hope
    /// to end on a whole deal may have it give up early and leave the time
    /// to the others.
    const MAX_PATH_BYTES: usize = usize::MAX;

    /// The node budget of the search's first turn; each next one has three
    /// times the one before, or, with [`Game::GROWTH_BY_ROUND`], each
    /// next round of turns.
    const FIRST_TURN_NODES: u64 = 100_000;

    /// Whether the turns' budget grows once a round, when every tactic in
    /// the rotation has had its turn, rather than at every turn (see
    /// [`crate::search::solve`]). Growing at every turn, the last of `n`
    /// tactics gets `3^(n-1)` times the nodes of the first in each round,
    /// and a tactic that needs just more than its turn waits while the
    /// others take turns far larger: with many tactics, a game whose wins
    /// come from any of them may share the nodes evenly instead.
    const GROWTH_BY_ROUND: bool = false;

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
    /// first. Read for every position generated when [`Game::BEST_FIRST`]
    /// is set, and where each rollout ends when [`Game::ROLLOUTS`] has
    /// levels; it steers, it never prunes, so it needs no proof, only
    /// measurements.
    fn score(&self, _state: &Self::State) -> i32 {
        0
    }

    /// A sound dead-end test: `true` only if no win can be reached from the
    /// position. The default never prunes.
    fn is_dead_end(&self, _state: &Self::State) -> bool {
        false
    }

    /// The move in RULES.md notation, played from `state`. One engine move
    /// may be several notation moves (a stock skipped through is a series
    /// of draws).
    fn notation(&self, state: &Self::State, mv: Self::Move, out: &mut Vec<notation::Move>);

    /// The position as a plain board, for printing and for comparing with
    /// the reference rules.
    fn to_board(&self, state: &Self::State) -> Board;
}
