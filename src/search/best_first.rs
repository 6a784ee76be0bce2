//! The best-first attempt: expand the most promising position found so
//! far, by the game's [`Game::score`], wherever it lies.
//!
//! A depth-first walk commits to its early moves: if one of them was wrong
//! it must search everything below before it can take it back, and in
//! Raglan that can be tens of millions of positions above a short win.
//! Best-first search goes back to an early choice as soon as it looks
//! better than where the walk got to. It keeps every expanded position,
//! so it runs out of memory where a walk would not; then a full walk
//! takes its place (see [`super::solve`]).

use std::mem::size_of;

use ahash::AHashMap;

use super::rollout::{Line, Outcome, Rollout};
use super::{CHECK_EVERY, Closed, End, ROOT, Search, Table};
use crate::game::{Ask, Game};
use crate::notation;

/// A position waiting to be expanded, with the move that reached it from
/// an expanded one. The position is kept whole, though a few bytes would
/// name it by that move: working it out again from its parent, read
/// wherever that lies among the expanded positions, made Solvitaire's 20
/// slowest Raglan boards 6% slower (662 ms against 623, best of three) and
/// took 3.5% more instructions on board 26.
#[derive(Clone, Copy)]
struct Open<S, M> {
    state: S,
    parent: u32,
    mv: M,
}

/// How many of a rollout's first moves a queued position keeps.
const HINT_MOVES: usize = 8;

/// What a search led by rollouts knows of a queued position: its score,
/// and the first moves of the rollout that gave it, which the child along
/// the first of them takes with the score, without a rollout of its own
/// (see [`Line`]), when the position is expanded. A best-first search
/// goes down its best line one position at a time, each a child of the
/// last, so many expansions save a rollout:
/// Alexandria's deal 10 (`--tactic rollouts-1`) is won through the same
/// 756 positions in 93.8k nodes, against 120.6k; in 2M nodes, deal 9
/// (`rollouts-3`) reaches 16.0k positions against 15.0k. Kept beside the
/// queue, by key, so that the queue of a search without rollouts takes no
/// more room.
#[derive(Clone, Copy)]
struct Hint<M> {
    score: i32,
    line: Line<M, HINT_MOVES>,
}

/// The positions waiting to be expanded, by score: one queue per score,
/// highest first and, within a score, oldest first. (Newest first, which
/// follows a line as a depth-first walk would, took 40% more positions
/// on numbered Raglan deals 30001..31000.) Scores fall in a narrow range
/// (Raglan's within about a thousand), so a queue per score makes taking
/// and adding O(1), where a binary heap took a twentieth of the time.
///
/// The queues are chains through one store of items, whose freed places
/// are taken again first: one block that grows by doubling, which the
/// allocator backs with huge pages once it is large, where a `VecDeque`
/// per score grew hundreds of small blocks, each copied at every growth
/// and faulted in 4 KiB at a time (numbered Raglan deals 1..300: 140k
/// page faults in all, of which about 30k in those copies).
struct Queue<T> {
    /// The score of `ends[0]`.
    lowest: i32,
    /// Each score's first and last item in `items`, or [`NONE`].
    ends: Vec<(u32, u32)>,
    /// No queue above this one holds anything.
    top: usize,
    items: Vec<Linked<T>>,
    /// The first of the places taken from, chained through `next`.
    free: u32,
}

/// An item in its score's queue, or a free place.
#[derive(Clone, Copy)]
struct Linked<T> {
    item: T,
    next: u32,
}

/// The end of a chain.
const NONE: u32 = u32::MAX;

impl<T: Copy> Queue<T> {
    fn new() -> Queue<T> {
        Queue {
            lowest: 0,
            ends: Vec::new(),
            top: 0,
            items: Vec::new(),
            free: NONE,
        }
    }

    fn push(&mut self, score: i32, item: T) {
        if self.ends.is_empty() {
            self.lowest = score;
        }
        if score < self.lowest {
            let below = (self.lowest - score) as usize;
            self.ends
                .splice(0..0, std::iter::repeat_n((NONE, NONE), below));
            self.lowest = score;
            self.top += below;
        }
        let at = (score - self.lowest) as usize;
        if at >= self.ends.len() {
            self.ends.resize(at + 1, (NONE, NONE));
        }
        let linked = Linked { item, next: NONE };
        let place = match self.free {
            NONE => {
                self.items.push(linked);
                (self.items.len() - 1) as u32
            }
            place => {
                self.free = self.items[place as usize].next;
                self.items[place as usize] = linked;
                place
            }
        };
        let ends = &mut self.ends[at];
        match ends.1 {
            NONE => ends.0 = place,
            last => self.items[last as usize].next = place,
        }
        ends.1 = place;
        self.top = self.top.max(at);
    }

    fn pop(&mut self) -> Option<T> {
        loop {
            let ends = self.ends.get_mut(self.top)?;
            if ends.0 != NONE {
                let place = ends.0;
                let Linked { item, next } = self.items[place as usize];
                ends.0 = next;
                if next == NONE {
                    ends.1 = NONE;
                }
                self.items[place as usize].next = self.free;
                self.free = place;
                return Some(item);
            }
            self.top = self.top.checked_sub(1)?;
        }
    }

    fn bytes(&self) -> usize {
        self.ends.capacity() * size_of::<(u32, u32)>()
            + self.items.capacity() * size_of::<Linked<T>>()
    }
}

/// A best-first attempt, kept between the turns of its tactic, as a walk
/// is: a turn that runs out of nodes leaves its queue for the next.
///
/// It is led by [`Game::score`] and makes every move, or else it is
/// narrowed and led by rollouts (see [`super::rollout`]), and only ever
/// proves a win. Every position reached is
/// recorded in the table when first generated and queued then, so each is
/// queued once, unless the table forgets it and it is met again. If the
/// queue of an attempt with every move runs dry, the deal is lost, as in
/// the walk, even if the table
/// forgot positions: every child of an expanded position was either queued
/// then, or found in the table, so queued before; and all that was queued
/// was expanded. So the expanded positions hold every child of each, and
/// with the start, every position reachable. (Asking that the table forget
/// nothing as well threw away the proof of deals whose table, half full,
/// had a probe window overflow: deal 45068 went on from 4.7M positions to
/// 10.6M.) The queue and the expanded positions may take `room` bytes;
/// past that the attempt gives up.
pub(super) struct BestFirst<G: Game> {
    closed: Vec<Closed<G::Move>>,
    open: Queue<Open<G::State, G::Move>>,
    /// The position to expand next, with its parent and the move from it:
    /// kept here, not expanded, when the turn ran out of nodes first.
    pending: Option<(G::State, u32, Option<G::Move>)>,
    moves: Vec<G::Move>,
    /// Each child with its key, the key's hash and its score.
    children: Vec<(G::State, G::Key, u64, i32)>,
    /// The hints of the positions queued by a search led by rollouts.
    hints: AHashMap<G::Key, Hint<G::Move>>,
    /// The narrowing level, 0 for every move.
    narrowing: u32,
    /// Set when positions are scored by rollouts (see
    /// [`Game::rollout_level`]).
    rollout: Option<Rollout<G>>,
    pub(super) room: usize,
}

impl<G: Game> BestFirst<G> {
    /// An attempt from `root`, already recorded in the table, with every
    /// move, led by [`Game::score`].
    pub(super) fn new(root: G::State, room: usize) -> BestFirst<G> {
        BestFirst {
            closed: Vec::new(),
            open: Queue::new(),
            pending: Some((root, ROOT, None)),
            moves: Vec::new(),
            children: Vec::new(),
            hints: AHashMap::new(),
            narrowing: 0,
            rollout: None,
            room,
        }
    }

    /// An attempt from `root`, already recorded in the table, narrowed at
    /// `level` and led by rollouts at [`Game::rollout_level`] of it.
    pub(super) fn with_rollouts(root: G::State, level: u32, room: usize) -> BestFirst<G> {
        BestFirst {
            narrowing: level,
            rollout: Some(Rollout::new(G::rollout_level(level))),
            ..BestFirst::new(root, room)
        }
    }

    /// Expands on until a win, the end of the reachable positions, or the
    /// end of the turn's nodes.
    pub(super) fn resume(
        &mut self,
        search: &mut Search<G>,
        table: &mut Table<G::Key>,
    ) -> End<notation::Move> {
        let game = search.game;
        loop {
            let (state, parent, mv) = match self.pending {
                Some(next) => next,
                None => match self.open.pop() {
                    Some(Open { state, parent, mv }) => (state, parent, Some(mv)),
                    None => return End::Lost,
                },
            };
            if let Err(end) = search.count_node() {
                self.pending = Some((state, parent, mv));
                return end;
            }
            self.pending = None;
            // Every so many expansions, not nodes: a rollout's nodes between
            // two expansions would make a node count land on the check
            // only by chance.
            let expanded = self.closed.len() as u64;
            if expanded.is_multiple_of(CHECK_EVERY) && self.bytes() > self.room {
                return End::OutOfRoom;
            }
            search.best = search.best.max(game.cards_home(&state));
            let id = self.closed.len() as u32;
            self.closed.push(Closed { parent, mv });
            if game.is_dead_end(&state) {
                continue;
            }
            self.moves.clear();
            let ask = Ask {
                narrowing: self.narrowing,
                ordered: false,
            };
            game.moves(&state, mv, ask, &mut self.moves);
            // Each child's key first, its table slot fetched meanwhile, so
            // the cache misses of the lookups overlap: waiting on them one by
            // one took a tenth of the time.
            self.children.clear();
            for &mv in &self.moves {
                let child = game.play(&state, mv);
                if game.is_won(&child) {
                    search.best = game.cards_home(&child);
                    return End::Won(super::line(game, &self.closed, id, mv, &[]));
                }
                let key = game.key(&child);
                let hash = table.prefetch(key);
                let score = match self.rollout {
                    Some(_) => 0,
                    None => game.score(&child),
                };
                self.children.push((child, key, hash, score));
            }
            let known = match self.rollout {
                Some(_) => self.hints.remove(&game.key(&state)),
                None => None,
            };
            for i in 0..self.moves.len() {
                let (mv, (state, key, hash, score)) = (self.moves[i], self.children[i]);
                if !table.insert_hashed(key, hash) {
                    continue;
                }
                let score = match &mut self.rollout {
                    None => score,
                    Some(_) if known.is_some_and(|k| k.line.starts_with(mv)) => {
                        let known = known.expect("the hint was read");
                        let (score, line) = (known.score, known.line.rest());
                        self.hints.insert(key, Hint { score, line });
                        score
                    }
                    Some(rollout) => match rollout.play(search, state, Some(mv)) {
                        Err(stop) => return End::Stopped(stop),
                        Ok(Outcome::Stopped(score)) => {
                            let line = Line::of(rollout.line());
                            self.hints.insert(key, Hint { score, line });
                            score
                        }
                        Ok(Outcome::Won) => {
                            let rest = rollout.line().to_vec();
                            return End::Won(super::line(game, &self.closed, id, mv, &rest));
                        }
                    },
                };
                let parent = id;
                self.open.push(score, Open { state, parent, mv });
            }
        }
    }

    /// Bytes the expanded and queued positions take, room to grow included.
    fn bytes(&self) -> usize {
        self.closed.capacity() * size_of::<Closed<G::Move>>()
            + self.hints.capacity() * size_of::<(G::Key, Hint<G::Move>)>()
            + self.open.bytes()
            + self.rollout.as_ref().map_or(0, Rollout::bytes)
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
