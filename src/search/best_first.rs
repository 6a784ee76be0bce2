//! The best-first attempt: expand the most promising position found so
//! far, by the game's [`Game::score`], wherever it lies.
//!
//! A depth-first walk commits to its early moves: if one of them was wrong
//! it must search everything below before it can take it back, and in
//! Raglan that can be tens of millions of positions above a short win.
//! Best-first search goes back to an early choice as soon as it looks
//! better than where the walk got to. It keeps every expanded position,
//! so it runs on a node budget, and a walk decides what it leaves open.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::mem::size_of;

use super::{End, Search, Table};
use crate::game::Game;
use crate::notation;

/// A position waiting to be expanded, as the move that reaches it from an
/// expanded one: a few bytes, where the position itself would be dozens.
struct Open<M> {
    score: i32,
    /// Among equal scores the oldest goes first. (Newest first, which
    /// follows a line as a depth-first walk would, took 40% more
    /// positions on numbered Raglan deals 30001..31000.)
    seq: u32,
    parent: u32,
    mv: M,
}

impl<M> PartialEq for Open<M> {
    fn eq(&self, other: &Self) -> bool {
        (self.score, self.seq) == (other.score, other.seq)
    }
}

impl<M> Eq for Open<M> {}

impl<M> PartialOrd for Open<M> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<M> Ord for Open<M> {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.score, Reverse(self.seq)).cmp(&(other.score, Reverse(other.seq)))
    }
}

/// An expanded position: how it was reached, to rebuild the winning line.
struct Closed<S, M> {
    state: S,
    parent: u32,
    mv: Option<M>,
}

/// `parent` of the start.
const ROOT: u32 = u32::MAX;

impl<G: Game> Search<'_, G> {
    /// One best-first attempt, from a fresh table, until a win, the end of
    /// the reachable positions, or the attempt's node budget.
    ///
    /// It makes every move (it is never narrowed). Every position reached
    /// is recorded in the table when first generated, so each is queued
    /// once. If the queue runs dry and the table forgot nothing, every
    /// reachable position was expanded: the deal is lost, as in the walk. The queue
    /// and the expanded positions count against the path's memory cap;
    /// past it the attempt gives up.
    pub(super) fn best_first(&mut self, table: &mut Table<G::Key>) -> End<notation::Move> {
        let root = match self.start(table) {
            Ok((root, _)) => root,
            Err(end) => return end,
        };
        let mut closed: Vec<Closed<G::State, G::Move>> = Vec::new();
        let mut open = BinaryHeap::new();
        let mut moves = Vec::new();
        let mut seq = 0u32;
        let mut next = Some((root, ROOT, None));
        loop {
            let (state, parent, mv) = match next.take() {
                Some(first) => first,
                None => match open.pop() {
                    Some(Open { parent, mv, .. }) => {
                        let from: &Closed<_, _> = &closed[parent as usize];
                        (self.game.play(&from.state, mv), parent, Some(mv))
                    }
                    None => break,
                },
            };
            if let Err(end) = self.count_node() {
                return end;
            }
            if self.nodes.is_multiple_of(super::CHECK_EVERY)
                && self.open_bytes(&closed, &open) > self.path_cap
            {
                return End::OutOfRoom;
            }
            self.best = self.best.max(self.game.cards_home(&state));
            let id = closed.len() as u32;
            closed.push(Closed { state, parent, mv });
            if self.game.is_dead_end(&state) {
                continue;
            }
            moves.clear();
            self.game.moves(&state, mv, 0, &mut moves);
            for &mv in &moves {
                let child = self.game.play(&state, mv);
                if self.game.is_won(&child) {
                    self.best = self.game.cards_home(&child);
                    return End::Won(self.line(&closed, id, mv));
                }
                if !table.insert(self.game.key(&child)) {
                    continue;
                }
                seq += 1;
                open.push(Open {
                    score: self.game.score(&child),
                    seq,
                    parent: id,
                    mv,
                });
            }
        }
        if !table.has_forgotten() {
            End::Lost
        } else {
            End::OutOfNodes
        }
    }

    fn open_bytes(
        &self,
        closed: &Vec<Closed<G::State, G::Move>>,
        open: &BinaryHeap<Open<G::Move>>,
    ) -> usize {
        closed.capacity() * size_of::<Closed<G::State, G::Move>>()
            + open.capacity() * size_of::<Open<G::Move>>()
    }

    /// The moves from the start to expanded position `id`, then `last`.
    fn line(
        &self,
        closed: &[Closed<G::State, G::Move>],
        mut id: u32,
        last: G::Move,
    ) -> Vec<notation::Move> {
        let mut steps = vec![last];
        while let Some(mv) = closed[id as usize].mv {
            steps.push(mv);
            id = closed[id as usize].parent;
        }
        steps.reverse();
        let mut out = Vec::new();
        let mut state = self.game.initial();
        for mv in steps {
            self.game.notation(&state, mv, &mut out);
            state = self.game.play(&state, mv);
        }
        out
    }
}
