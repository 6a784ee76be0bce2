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

/// The orders of a list of moves, for taking the moves best first one at
/// a time (see [`Game::ranked_moves`]): a caller that mostly plays the
/// first, as a rollout does, finds the best few for less than a sort of
/// the whole list costs.
#[derive(Default)]
pub struct Ranks(Vec<u64>);

/// A move [`Ranks::take_best`] has taken.
const TAKEN: u64 = u64::MAX;

impl Ranks {
    /// Forgets the orders of the last list.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Ranks the list's next move by `order`, highest first. The order
    /// and the move's place are packed into one word that sorts lowest
    /// first, best order first and equal ones by place, so that one
    /// minimum finds the best.
    pub fn push(&mut self, order: i32) {
        let below_top = (i32::MAX as i64 - order as i64) as u64;
        self.0.push(below_top << 32 | self.0.len() as u64);
    }

    /// Bytes its orders take.
    pub fn bytes(&self) -> usize {
        self.0.capacity() * std::mem::size_of::<u64>()
    }

    /// The place in the list of the best move not taken yet, the first of
    /// equal ones, and takes it: moves come in the order a stable sort by
    /// order, highest first, gives.
    pub fn take_best(&mut self) -> Option<usize> {
        let best = *self.0.iter().min()?;
        if best == TAKEN {
            return None;
        }
        let at = best as u32 as usize;
        self.0[at] = TAKEN;
        Some(at)
    }
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

    /// The moves [`Game::moves`] gives ordered, in place of `out`'s, but
    /// in any order, and their orders in place of `ranks`': for a caller
    /// that mostly plays the first (a rollout), which takes them from
    /// `ranks` best first rather than sort them all. By default they come
    /// sorted and ranked alike, so that they are taken as they lie.
    fn ranked_moves(
        &self,
        state: &Self::State,
        last: Option<Self::Move>,
        narrowing: u32,
        out: &mut Vec<Self::Move>,
        ranks: &mut Ranks,
    ) {
        out.clear();
        ranks.clear();
        let ask = Ask {
            narrowing,
            ordered: true,
        };
        self.moves(state, last, ask, out);
        for _ in 0..out.len() {
            ranks.push(0);
        }
    }

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

    /// The key of the position's class: the positions reached from one
    /// another by moves each taken back at once, which a search that
    /// proves nothing when it ends (the beam) need not tell apart. The
    /// position's own key by default.
    fn class_key(&self, state: &Self::State) -> Self::Key {
        self.key(state)
    }

    /// Whether `mv` from `state` reaches a position of its class (see
    /// [`Game::class_key`]): a move taken back at once, which sends no
    /// card home (so wins nothing). Never, by default.
    fn keeps_class(&self, _state: &Self::State, _mv: Self::Move) -> bool {
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

#[cfg(test)]
mod tests {
    use super::Ranks;

    /// Moves taken best first come as from a stable sort by order,
    /// highest first: lists short and long, with orders often equal, and
    /// orders at both ends of `i32`.
    #[test]
    fn ranked_moves_come_as_a_stable_sort_by_order_would() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let orders = [i32::MIN, -5, 0, 1 << 16, i32::MAX];
        let mut ranks = Ranks::default();
        for len in [0, 1, 2, 3, 10, 63, 64, 65, 300] {
            for _ in 0..20 {
                let order: Vec<i32> = (0..len)
                    .map(|_| orders[(rng.next_u64() % orders.len() as u64) as usize])
                    .collect();
                ranks.clear();
                for &o in &order {
                    ranks.push(o);
                }
                let taken: Vec<usize> = std::iter::from_fn(|| ranks.take_best()).collect();
                let mut stable: Vec<usize> = (0..len).collect();
                stable.sort_by_key(|&i| std::cmp::Reverse(order[i]));
                assert_eq!(taken, stable, "{len} moves");
            }
        }
    }
}
