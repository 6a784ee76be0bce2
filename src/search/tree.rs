//! A hand-built game for the search's tests: a complete binary tree.

use crate::board::{Board, BoardError};
use crate::card::Card;
use crate::game::{Ask, Game};
use crate::notation;
use crate::search::{Plan, Planned};

/// A complete binary tree `depth` moves deep, its positions numbered as
/// in a heap (the start 1, the children of `n` are `2n` and `2n + 1`),
/// won at `goal` if there is one. The lower a position the higher its
/// score, so rollouts and beams lead down the left. A move is written as
/// the draw of the card numbered as the position it reaches (mod 52).
pub(super) struct Tree {
    pub(super) depth: u32,
    pub(super) goal: Option<u64>,
}

impl Tree {
    /// How many positions it has.
    pub(super) fn size(&self) -> u64 {
        (1 << (self.depth + 1)) - 1
    }

    /// The move to `to`, as [`Game::notation`] writes it.
    pub(super) fn step(to: u64) -> notation::Move {
        notation::Move::Draw(Card::from_index(to as usize % 52))
    }
}

impl Planned for Tree {
    const PLAN: Plan = Plan::FULL_WALK;
}

impl Game for Tree {
    const ACYCLIC: bool = true;
    type State = u64;
    type Key = u64;
    type Move = u64;

    fn new(_: &Board) -> Result<Tree, BoardError> {
        Err(BoardError::whole("a tree is built by hand"))
    }
    fn initial(&self) -> u64 {
        1
    }
    fn key(&self, &at: &u64) -> u64 {
        at
    }
    fn is_won(&self, &at: &u64) -> bool {
        self.goal == Some(at)
    }
    fn cards_home(&self, &at: &u64) -> u32 {
        at as u32
    }
    fn score(&self, &at: &u64) -> i32 {
        -(at as i32)
    }
    fn moves(&self, &at: &u64, _: Option<u64>, _: Ask, out: &mut Vec<u64>) {
        if at < 1 << self.depth {
            out.extend([2 * at, 2 * at + 1]);
        }
    }
    fn play(&self, _: &u64, to: u64) -> u64 {
        to
    }
    fn notation(&self, _: &u64, to: u64, out: &mut Vec<notation::Move>) {
        out.push(Tree::step(to));
    }
    fn to_board(&self, _: &u64) -> Board {
        Board::default()
    }
}
