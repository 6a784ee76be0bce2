//! Rollouts: scoring a position by where greedy play from it ends.
//!
//! [`Game::score`] judges a position by what it holds now. In a game
//! whose lines are won or lost far below the move that decides them (in
//! Alexandria, a card passed into the waste early can block the waste's
//! last cards a hundred moves later), that says little. A rollout plays
//! on from the position, each time the move the engine orders first, to
//! where play stops, and the position is judged by how far that got. A
//! beam led by these scores (see [`super::beam`]) goes on from the
//! positions whose greedy lines got furthest.

use ahash::AHashSet;

use super::table::prefetch_slot;
use super::{Search, Stop, TableKey};
use crate::game::{Game, Ranks};

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

/// Where earlier rollouts ended, by the positions they went through: a
/// rollout that reaches one of those positions would go on as the earlier
/// one did, so it stops there and takes the earlier one's score. Greedy
/// lines from sibling positions soon run together, and a beam that starts
/// over wider rolls out from the same positions again.
///
/// A slot holds a hash of a position's key and the score, and a position
/// whose hash differs in the slot's place is forgotten. Two positions
/// sharing a 64-bit hash would give one the other's score: that can only
/// misguide which position is searched first, never a verdict, since a
/// score decides no win or loss. A rollout that stops at a remembered
/// position would have played on as the earlier one did, except where
/// one of them steps around a position of its own history.
pub(super) struct Ends {
    /// `(hash, score)`, by the hash's low bits; a hash of 0 is an empty
    /// slot (a position hashing to 0 is not remembered).
    slots: Vec<(u64, i32)>,
    /// Positions remembered since the slots last grew.
    stored: usize,
    /// The hashes put since [`Ends::absorb`] last took them, kept by ends
    /// that pass theirs on: a depth of a beam puts few, and taking them by
    /// the slots would go over them all.
    puts: Option<Vec<u64>>,
}

/// The most slots [`Ends`] grows to: 32 MiB.
const MAX_ENDS: usize = 1 << 21;

impl Ends {
    pub(super) fn new() -> Ends {
        Ends {
            slots: vec![(0, 0); 1 << 12],
            stored: 0,
            puts: None,
        }
    }

    /// Ends that keep what they are given until another [`Ends::absorb`]s
    /// it.
    fn passing_on() -> Ends {
        Ends {
            puts: Some(Vec::new()),
            ..Ends::new()
        }
    }

    /// Asks the processor to fetch the slot of `hash` into cache, ahead of
    /// [`Ends::get`]: the slots run to megabytes, and a rollout's looks at
    /// them missed the cache at nearly every step.
    fn prefetch(&self, hash: u64) {
        prefetch_slot(&self.slots[hash as usize & (self.slots.len() - 1)]);
    }

    fn get(&self, hash: u64) -> Option<i32> {
        let (at, score) = self.slots[hash as usize & (self.slots.len() - 1)];
        (at == hash && hash != 0).then_some(score)
    }

    /// Remembers a position's score, doubling the slots (and moving the
    /// positions already held) once they are outnumbered, so that a short
    /// search touches little memory.
    ///
    /// The slots grow in place: a position in slot `i` of `n` goes to slot
    /// `i` or `i + n` of the doubled slots, by the next bit of its hash,
    /// so the old slots keep their pages (the allocator moves a large
    /// block's pages rather than copy them), and only the new half is
    /// fresh memory, which the kernel clears as it is first touched: a new
    /// block for each size had the beam's thread clear pages while the
    /// others waited.
    fn put(&mut self, hash: u64, score: i32) {
        if let Some(puts) = &mut self.puts {
            puts.push(hash);
        }
        self.stored += 1;
        if self.stored > self.slots.len() && self.slots.len() < MAX_ENDS {
            let len = self.slots.len();
            self.slots.reserve_exact(len);
            self.slots.resize(2 * len, (0, 0));
            let (low, high) = self.slots.split_at_mut(len);
            for (slot, above) in low.iter_mut().zip(high) {
                if slot.0 as usize & len != 0 {
                    *above = std::mem::take(slot);
                }
            }
            self.stored = 0;
        }
        let mask = self.slots.len() - 1;
        self.slots[hash as usize & mask] = (hash, score);
    }

    /// Remembers what `other`, which passes its ends on, holds, in the
    /// order it was given them, as if its rollouts had ended here; and
    /// leaves it empty.
    fn absorb(&mut self, other: &mut Ends) {
        let mask = other.slots.len() - 1;
        for hash in other.puts.iter_mut().flat_map(|puts| puts.drain(..)) {
            let slot = &mut other.slots[hash as usize & mask];
            if slot.0 == hash {
                self.put(hash, slot.1);
                *slot = (0, 0);
            }
        }
        other.stored = 0;
    }

    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<(u64, i32)>()
            + self.puts.as_ref().map_or(0, Vec::capacity) * std::mem::size_of::<u64>()
    }
}

/// A rollout's buffers, kept from one rollout to the next.
pub(super) struct Rollout<G: Game> {
    /// The narrowing level of the moves played (see [`crate::game::Ask::narrowing`]).
    narrowing: u32,
    /// The positions this rollout has been through, which it never goes
    /// back to: where moves can be undone, play would otherwise go round
    /// for ever.
    seen: AHashSet<G::Key>,
    moves: Vec<G::Move>,
    /// The orders of `moves`, by which they are tried best first.
    ranks: Ranks,
    /// The moves of the last rollout.
    line: Vec<G::Move>,
    /// The hashes of the positions the rollout went through, for `ends`.
    path: Vec<u64>,
    /// Where its rollouts ended, until [`Rollout::pass_on`].
    ends: Ends,
}

impl<G: Game> Rollout<G> {
    /// Rollouts at level `narrowing` that stop where an earlier one went
    /// (see [`Ends`]), as a beam's do: it wins far more deals so. A
    /// rollout keeps where it ended only until [`Rollout::pass_on`] gives
    /// that to the beam's [`Ends`], which the rollouts of later depths
    /// read.
    pub(super) fn new(narrowing: u32) -> Rollout<G> {
        Rollout {
            narrowing,
            seen: AHashSet::new(),
            moves: Vec::new(),
            ranks: Ranks::default(),
            line: Vec::new(),
            path: Vec::new(),
            ends: Ends::passing_on(),
        }
    }

    /// Plays on from `state`, reached by `last`, until no move leads to a
    /// position this rollout has not been through (and, where the plan
    /// says so, not a dead end: see [`super::Plan::rollouts_shun_dead_ends`]),
    /// or to one an earlier rollout went through (see [`Ends`]), its own
    /// or one of `earlier`'s. Each position played through counts as a
    /// node of the search.
    pub(super) fn play(
        &mut self,
        search: &mut Search<G>,
        mut state: G::State,
        mut last: Option<G::Move>,
        earlier: &Ends,
    ) -> Result<Outcome, Stop> {
        let game = search.game;
        let shun = search.plan.rollouts_shun_dead_ends;
        self.seen.clear();
        self.line.clear();
        self.path.clear();
        let key = game.key(&state);
        self.seen.insert(key);
        let mut hash = key.table_hash();
        loop {
            search.count_step()?;
            search.best = search.best.max(game.cards_home(&state));
            if game.is_won(&state) {
                return Ok(Outcome::Won);
            }
            if let Some(score) = self.ends.get(hash).or_else(|| earlier.get(hash)) {
                return Ok(self.stop(score));
            }
            self.path.push(hash);
            game.ranked_moves(
                &state,
                last,
                self.narrowing,
                &mut self.moves,
                &mut self.ranks,
            );
            // Most rollouts play the best move: the rest are ranked only
            // when it is turned down.
            let best_first = std::iter::from_fn(|| self.ranks.take_best());
            let next = best_first.map(|at| self.moves[at]).find_map(|mv| {
                let child = game.play(&state, mv);
                let key = game.key(&child);
                // Looked up at the next step, the child's ends come into
                // cache while the dead-end test runs.
                let hash = key.table_hash();
                self.ends.prefetch(hash);
                earlier.prefetch(hash);
                let dead = shun && game.is_dead_end(&child);
                (!dead && self.seen.insert(key)).then_some((mv, child, hash))
            });
            let Some((mv, child, child_hash)) = next else {
                return Ok(self.stop(game.score(&state)));
            };
            self.line.push(mv);
            (state, last, hash) = (child, Some(mv), child_hash);
        }
    }

    /// Ends a rollout that got `score`, remembering it for the positions
    /// the rollout went through.
    fn stop(&mut self, score: i32) -> Outcome {
        for &hash in &self.path {
            self.ends.put(hash, score);
        }
        Outcome::Stopped(score)
    }

    /// The moves of the last rollout, from the position it started at.
    pub(super) fn line(&self) -> &[G::Move] {
        &self.line
    }

    /// Bytes its buffers take: a rollout's length, at most.
    pub(super) fn bytes(&self) -> usize {
        self.seen.capacity() * std::mem::size_of::<G::Key>()
            + (self.moves.capacity() + self.line.capacity()) * std::mem::size_of::<G::Move>()
            + self.path.capacity() * std::mem::size_of::<u64>()
            + self.ranks.bytes()
            + self.ends.bytes()
    }

    /// Passes the ends this rollout remembers on to `to` (see
    /// [`Ends::absorb`]).
    pub(super) fn pass_on(&mut self, to: &mut Ends) {
        to.absorb(&mut self.ends);
    }
}

#[cfg(test)]
mod tests {
    use super::Ends;

    /// Absorbing keeps what both held, the absorbed one's score where
    /// they share a position, and leaves the absorbed ends empty.
    #[test]
    fn absorbed_ends_keep_both_and_the_later_score() {
        let (mut ends, mut later) = (Ends::new(), Ends::passing_on());
        let hash = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ends.put(hash(0), 1);
        ends.put(hash(1), 2);
        later.put(hash(1), -2);
        later.put(hash(2), 3);
        ends.absorb(&mut later);
        let got = |ends: &Ends| (0..4).map(|i| ends.get(hash(i))).collect::<Vec<_>>();
        assert_eq!(got(&ends), [Some(1), Some(-2), Some(3), None]);
        assert_eq!(got(&later), [None; 4]);
        later.put(hash(3), 4);
        ends.absorb(&mut later);
        assert_eq!(got(&ends), [Some(1), Some(-2), Some(3), Some(4)]);
    }

    /// Growing moves what the slots held: a score put before is found
    /// after, and a hash never put, or put in the same slot since, is not.
    #[test]
    fn ends_keep_their_scores_as_they_grow() {
        let mut ends = Ends::new();
        let start = ends.slots.len();
        let hash = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // Twice as many as the slots at the start, each in a slot of its
        // own once they have grown once.
        for i in 0..2 * start as u64 {
            ends.put(hash(i), i as i32);
        }
        assert_eq!(ends.slots.len(), 2 * start);
        for i in 0..2 * start as u64 {
            assert_eq!(ends.get(hash(i)), Some(i as i32), "hash {i}");
        }
        assert_eq!(ends.get(hash(2 * start as u64)), None);
        let len = ends.slots.len() as u64;
        ends.put(hash(0) ^ len, -1);
        assert_eq!(ends.get(hash(0)), None);
        assert_eq!(ends.get(hash(0) ^ len), Some(-1));
    }
}
