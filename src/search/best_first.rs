//! The best-first attempt: expand the most promising position found so
//! far, by the game's [`Game::score`], wherever it lies.
//!
//! A depth-first walk commits to its early moves: if one of them was wrong
//! it must search everything below before it can take it back, and in
//! Raglan that can be tens of millions of positions above a short win.
//! Best-first search goes back to an early choice as soon as it looks
//! better than where the walk got to. It keeps every expanded position,
//! so it runs on a node budget, and a walk decides what it leaves open.

use std::collections::VecDeque;
use std::mem::size_of;

use super::{End, Search, Table};
use crate::game::{Ask, Game};
use crate::notation;

/// A position waiting to be expanded, as the move that reaches it from an
/// expanded one: a few bytes, where the position itself would be dozens.
struct Open<M> {
    parent: u32,
    mv: M,
}

/// The positions waiting to be expanded, by score: one queue per score,
/// highest first and, within a score, oldest first. (Newest first, which
/// follows a line as a depth-first walk would, took 40% more positions
/// on numbered Raglan deals 30001..31000.) Scores fall in a narrow range
/// (Raglan's within about a thousand), so a queue per score makes taking
/// and adding O(1), where a binary heap took a twentieth of the time.
struct Queue<T> {
    /// The score of `queues[0]`.
    lowest: i32,
    queues: Vec<VecDeque<T>>,
    /// No queue above this one holds anything.
    top: usize,
}

impl<T> Queue<T> {
    fn new() -> Queue<T> {
        Queue {
            lowest: 0,
            queues: Vec::new(),
            top: 0,
        }
    }

    fn push(&mut self, score: i32, item: T) {
        if self.queues.is_empty() {
            self.lowest = score;
        }
        if score < self.lowest {
            let below = (self.lowest - score) as usize;
            self.queues
                .splice(0..0, std::iter::repeat_with(VecDeque::new).take(below));
            self.lowest = score;
            self.top += below;
        }
        let at = (score - self.lowest) as usize;
        if at >= self.queues.len() {
            self.queues.resize_with(at + 1, VecDeque::new);
        }
        self.queues[at].push_back(item);
        self.top = self.top.max(at);
    }

    fn pop(&mut self) -> Option<T> {
        loop {
            let queue = self.queues.get_mut(self.top)?;
            if let Some(item) = queue.pop_front() {
                return Some(item);
            }
            self.top = self.top.checked_sub(1)?;
        }
    }

    fn bytes(&self) -> usize {
        self.queues.capacity() * size_of::<VecDeque<T>>()
            + self
                .queues
                .iter()
                .map(|queue| queue.capacity() * size_of::<T>())
                .sum::<usize>()
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
    /// is recorded in the table when first generated and queued then, so
    /// each is queued once, unless the table forgets it and it is met again.
    /// If the queue runs dry, the deal is lost, as in the walk, even if the
    /// table forgot positions: every child of an expanded position was
    /// either queued then, or found in the table, so queued before; and
    /// all that was queued was expanded. So the expanded positions hold
    /// every child of each, and with the start, every position reachable.
    /// (Asking that the table forget nothing as well threw away the proof
    /// of deals whose table, half full, had a probe window overflow: deal
    /// 45068 went on from 4.7M positions to 10.6M.) The queue and the
    /// expanded positions count against the path's memory cap; past it
    /// the attempt gives up.
    pub(super) fn best_first(&mut self, table: &mut Table<G::Key>) -> End<notation::Move> {
        let root = match self.start(table) {
            Ok((root, _)) => root,
            Err(end) => return end,
        };
        let mut closed: Vec<Closed<G::State, G::Move>> = Vec::new();
        let mut open = Queue::new();
        let (mut moves, mut keys) = (Vec::new(), Vec::new());
        let mut next = Some((root, ROOT, None));
        loop {
            let (state, parent, mv) = match next.take() {
                Some(first) => first,
                None => match open.pop() {
                    Some(Open { parent, mv }) => {
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
            let ask = Ask {
                ordered: false,
                ..Ask::FULL
            };
            self.game.moves(&state, mv, ask, &mut moves);
            // Each child's key first, its table slot fetched meanwhile, so
            // the cache misses of the lookups overlap: waiting on them one by
            // one took a tenth of the time.
            keys.clear();
            for &mv in &moves {
                let child = self.game.play(&state, mv);
                if self.game.is_won(&child) {
                    self.best = self.game.cards_home(&child);
                    return End::Won(self.line(&closed, id, mv));
                }
                let key = self.game.key(&child);
                table.prefetch(key);
                keys.push((key, self.game.score(&child)));
            }
            for (&mv, &(key, score)) in moves.iter().zip(&keys) {
                if !table.insert(key) {
                    continue;
                }
                open.push(score, Open { parent: id, mv });
            }
        }
        End::Lost
    }

    fn open_bytes(
        &self,
        closed: &Vec<Closed<G::State, G::Move>>,
        open: &Queue<Open<G::Move>>,
    ) -> usize {
        closed.capacity() * size_of::<Closed<G::State, G::Move>>() + open.bytes()
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

#[cfg(test)]
mod tests {
    use super::Queue;

    /// Highest score first, oldest first within a score, whether a score
    /// comes in above, below or between those queued before.
    #[test]
    fn the_queue_gives_the_highest_score_first_and_the_oldest_within_it() {
        let mut queue = Queue::new();
        let pushed = [(5, 'a'), (2, 'b'), (5, 'c'), (-3, 'd'), (9, 'e'), (2, 'f')];
        for (score, item) in pushed {
            queue.push(score, item);
        }
        let mut popped = Vec::new();
        while let Some(item) = queue.pop() {
            popped.push(item);
            if item == 'a' {
                queue.push(7, 'g');
                queue.push(-10, 'h');
            }
        }
        assert_eq!(popped, ['e', 'a', 'g', 'c', 'b', 'f', 'd', 'h']);
    }
}
