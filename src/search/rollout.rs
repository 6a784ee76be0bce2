//! Rollouts: scoring a position by where greedy play from it ends.
//!
//! [`Game::score`] judges a position by what it holds now. In a game
//! whose lines are won or lost far below the move that decides them (in
//! Alexandria, a card passed into the waste early can block the waste's
//! last cards a hundred moves later), that says little. A rollout plays
//! on from the position, each time the move the engine orders first, to
//! where play stops, and the position is judged by how far that got. A
//! best-first search led by these scores (see [`super::best_first`])
//! goes on from the positions whose greedy lines got furthest.

use ahash::AHashSet;

use super::{Search, Stop};
use crate::game::{Ask, Game};

/// What a rollout reached.
pub(super) enum Outcome {
    /// Play stopped short of a win, at a position of this [`Game::score`].
    Stopped(i32),
    /// Play won: [`Rollout::line`] holds its moves.
    Won,
}

/// The first `N` moves of a rollout. The position the first of them
/// reaches would roll out along the rest (but for a position the first
/// rollout went through, which the second may go back to), so a search
/// can give that child the same score, and the rest of the moves, without
/// a rollout of its own.
#[derive(Clone, Copy)]
pub(super) struct Line<M, const N: usize>([Option<M>; N]);

impl<M: Copy + PartialEq, const N: usize> Line<M, N> {
    pub(super) const NONE: Line<M, N> = Line([None; N]);

    /// The first moves of `moves`.
    pub(super) fn of(moves: &[M]) -> Line<M, N> {
        let mut line = [None; N];
        for (to, &from) in line.iter_mut().zip(moves) {
            *to = Some(from);
        }
        Line(line)
    }

    /// Whether `mv` is the line's first move.
    pub(super) fn starts_with(&self, mv: M) -> bool {
        self.0[0] == Some(mv)
    }

    /// The line after its first move.
    pub(super) fn rest(&self) -> Line<M, N> {
        let mut line = [None; N];
        line[..N - 1].copy_from_slice(&self.0[1..]);
        Line(line)
    }
}

/// A rollout's buffers, kept from one rollout to the next.
pub(super) struct Rollout<G: Game> {
    /// The narrowing level of the moves played (see [`Ask::narrowing`]).
    narrowing: u32,
    /// The positions this rollout has been through, which it never goes
    /// back to: where moves can be undone, play would otherwise go round
    /// for ever.
    seen: AHashSet<G::Key>,
    moves: Vec<G::Move>,
    /// The moves of the last rollout.
    line: Vec<G::Move>,
}

impl<G: Game> Rollout<G> {
    pub(super) fn new(narrowing: u32) -> Rollout<G> {
        Rollout {
            narrowing,
            seen: AHashSet::new(),
            moves: Vec::new(),
            line: Vec::new(),
        }
    }

    /// Plays on from `state`, reached by `last`, until no move leads to a
    /// position this rollout has not been through. Each position played
    /// through counts as a node of the search.
    pub(super) fn play(
        &mut self,
        search: &mut Search<G>,
        mut state: G::State,
        mut last: Option<G::Move>,
    ) -> Result<Outcome, Stop> {
        let game = search.game;
        let ask = Ask {
            narrowing: self.narrowing,
            ordered: true,
        };
        self.seen.clear();
        self.line.clear();
        self.seen.insert(game.key(&state));
        loop {
            search.count_step()?;
            search.best = search.best.max(game.cards_home(&state));
            if game.is_won(&state) {
                return Ok(Outcome::Won);
            }
            self.moves.clear();
            game.moves(&state, last, ask, &mut self.moves);
            let next = self.moves.iter().find_map(|&mv| {
                let child = game.play(&state, mv);
                self.seen.insert(game.key(&child)).then_some((mv, child))
            });
            let Some((mv, child)) = next else {
                return Ok(Outcome::Stopped(game.score(&state)));
            };
            self.line.push(mv);
            (state, last) = (child, Some(mv));
        }
    }

    /// The moves of the last rollout, from the position it started at.
    pub(super) fn line(&self) -> &[G::Move] {
        &self.line
    }

    /// Bytes its buffers take: a rollout's length, at most.
    pub(super) fn bytes(&self) -> usize {
        self.seen.capacity() * std::mem::size_of::<G::Key>()
            + (self.moves.capacity() + self.line.capacity()) * std::mem::size_of::<G::Move>()
    }
}
