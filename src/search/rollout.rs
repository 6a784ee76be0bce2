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

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use ahash::AHashSet;

use super::{Search, Stop, TableKey};
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

/// Where earlier rollouts ended, by the positions they went through: a
/// rollout that reaches one of those positions would go on as the earlier
/// one did, so it stops there and takes the earlier one's score. Greedy
/// lines from sibling positions soon run together (Alexandria deal 1,
/// `--tactic beam-2`, a million positions: 83% of rollouts reached a
/// position an earlier one went through, and 75% of their steps came
/// after it), and a beam that starts over wider rolls out from the same
/// positions again.
///
/// A slot holds a hash of a position's key and the score, and a position
/// whose hash differs in the slot's place is forgotten. Two positions
/// sharing a 64-bit hash would give one the other's score: that can only
/// misguide which position is searched first, never a verdict, since a
/// score decides no win or loss. A rollout that stops at a remembered
/// position would have played on as the earlier one did, except where
/// one of them steps around a position of its own history: on deal 117
/// (`--tactic beam-2`, 300k positions, a scratch build that also rolled
/// out afresh at each stop) 10% of the stops took another score than
/// the fresh rollout got.
struct Ends {
    /// `(hash, score)`, by the hash's low bits; a hash of 0 is an empty
    /// slot (a position hashing to 0 is not remembered).
    slots: Vec<(u64, i32)>,
    /// Positions remembered since the slots last grew.
    stored: usize,
}

/// The most slots [`Ends`] grows to: 32 MiB.
const MAX_ENDS: usize = 1 << 21;

/// [`Ends`] for rollouts played on several threads at once (see
/// [`super::beam`]): a slot is one atomic word, the high half of the hash
/// and the score, so a thread reads a whole entry whichever wrote it last.
/// Half a hash and the slot's place leave 53 bits to tell positions apart,
/// which, as for `Ends`, can only misguide the order of the search. It
/// does not grow: 16 MiB from the start, touched as rollouts end.
pub(super) struct SharedEnds {
    slots: Box<[AtomicU64]>,
}

impl SharedEnds {
    pub(super) fn new() -> SharedEnds {
        SharedEnds {
            slots: super::shared::zeroed_atomics(MAX_ENDS),
        }
    }

    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[hash as usize & (MAX_ENDS - 1)]
    }

    fn get(&self, hash: u64) -> Option<i32> {
        let entry = self.slot(hash).load(Ordering::Relaxed);
        (entry != 0 && entry >> 32 == hash >> 32).then_some(entry as u32 as i32)
    }

    fn put(&self, hash: u64, score: i32) {
        let entry = (hash >> 32) << 32 | u64::from(score as u32);
        self.slot(hash).store(entry, Ordering::Relaxed);
    }

    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<AtomicU64>()
    }
}

/// Where a rollout remembers the ends of earlier ones.
enum Memory {
    Own(Ends),
    Shared(Arc<SharedEnds>),
}

impl Memory {
    fn get(&self, hash: u64) -> Option<i32> {
        match self {
            Memory::Own(ends) => ends.get(hash),
            Memory::Shared(ends) => ends.get(hash),
        }
    }

    fn put(&mut self, hash: u64, score: i32) {
        match self {
            Memory::Own(ends) => ends.put(hash, score),
            Memory::Shared(ends) => ends.put(hash, score),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Memory::Own(ends) => ends.slots.capacity() * std::mem::size_of::<(u64, i32)>(),
            // Counted once, by the beam that holds it.
            Memory::Shared(_) => 0,
        }
    }
}

impl Ends {
    fn new() -> Ends {
        Ends {
            slots: vec![(0, 0); 1 << 12],
            stored: 0,
        }
    }

    fn get(&self, hash: u64) -> Option<i32> {
        let (at, score) = self.slots[hash as usize & (self.slots.len() - 1)];
        (at == hash && hash != 0).then_some(score)
    }

    /// Remembers a position's score, doubling the slots (and moving the
    /// positions already held) once they are outnumbered, so that a short
    /// search touches little memory.
    fn put(&mut self, hash: u64, score: i32) {
        self.stored += 1;
        if self.stored > self.slots.len() && self.slots.len() < MAX_ENDS {
            let grown = vec![(0, 0); 2 * self.slots.len()];
            let old = std::mem::replace(&mut self.slots, grown);
            let mask = self.slots.len() - 1;
            for (at, score) in old.into_iter().filter(|&(at, _)| at != 0) {
                self.slots[at as usize & mask] = (at, score);
            }
            self.stored = 0;
        }
        let mask = self.slots.len() - 1;
        self.slots[hash as usize & mask] = (hash, score);
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
    /// The hashes of the positions the rollout went through, for `ends`.
    path: Vec<u64>,
    /// Kept only for a beam (see [`Rollout::remembering`]).
    ends: Option<Memory>,
}

impl<G: Game> Rollout<G> {
    pub(super) fn new(narrowing: u32) -> Rollout<G> {
        Rollout {
            narrowing,
            seen: AHashSet::new(),
            moves: Vec::new(),
            line: Vec::new(),
            path: Vec::new(),
            ends: None,
        }
    }

    /// Rollouts that stop where an earlier one went (see [`Ends`]), for a
    /// beam. In Alexandria, numbered deals that the search of 5 s left
    /// unknown (the first 40 unknowns of the record of commit 53239d1),
    /// with 5 s each again, two at a time on a loaded machine: 9 won
    /// (most cards home 108.4 on average) against 0 (91.5). Best-first
    /// searches do not remember: in a game where moves can be undone a
    /// rollout steps around the positions it went through, so one from a
    /// position another went through may go elsewhere, and the best-first
    /// searches of Rows of Four, misled, no longer won deal 326 within
    /// 20M positions (184k without).
    pub(super) fn remembering(narrowing: u32) -> Rollout<G> {
        Rollout {
            ends: Some(Memory::Own(Ends::new())),
            ..Rollout::new(narrowing)
        }
    }

    /// As [`Rollout::remembering`], in ends shared with rollouts on other
    /// threads.
    pub(super) fn sharing(narrowing: u32, ends: Arc<SharedEnds>) -> Rollout<G> {
        Rollout {
            ends: Some(Memory::Shared(ends)),
            ..Rollout::new(narrowing)
        }
    }

    /// Plays on from `state`, reached by `last`, until no move leads to a
    /// position this rollout has not been through, or to one an earlier
    /// rollout went through (see [`Ends`]). Each position played through
    /// counts as a node of the search.
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
        self.path.clear();
        let mut key = game.key(&state);
        self.seen.insert(key);
        loop {
            search.count_step()?;
            search.best = search.best.max(game.cards_home(&state));
            if game.is_won(&state) {
                return Ok(Outcome::Won);
            }
            if let Some(ends) = &self.ends {
                let hash = key.table_hash();
                if let Some(score) = ends.get(hash) {
                    return Ok(self.stop(score));
                }
                self.path.push(hash);
            }
            self.moves.clear();
            game.moves(&state, last, ask, &mut self.moves);
            let next = self.moves.iter().find_map(|&mv| {
                let child = game.play(&state, mv);
                let key = game.key(&child);
                self.seen.insert(key).then_some((mv, child, key))
            });
            let Some((mv, child, child_key)) = next else {
                return Ok(self.stop(game.score(&state)));
            };
            self.line.push(mv);
            (state, last, key) = (child, Some(mv), child_key);
        }
    }

    /// Ends a rollout that got `score`, remembering it for the positions
    /// the rollout went through.
    fn stop(&mut self, score: i32) -> Outcome {
        if let Some(ends) = &mut self.ends {
            for &hash in &self.path {
                ends.put(hash, score);
            }
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
            + self.ends.as_ref().map_or(0, Memory::bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::{Ends, SharedEnds};

    /// A shared slot holds the last score put in it, and answers only the
    /// hash whose high half it keeps.
    #[test]
    fn shared_ends_keep_the_last_score_of_their_hash() {
        let ends = SharedEnds::new();
        let hash = 0x1234_5678_0000_0042u64;
        assert_eq!(ends.get(hash), None);
        ends.put(hash, -7);
        assert_eq!(ends.get(hash), Some(-7));
        let twin = hash ^ 1 << 40;
        assert_eq!(ends.get(twin), None, "same slot, another position");
        ends.put(twin, 3);
        assert_eq!((ends.get(hash), ends.get(twin)), (None, Some(3)));
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
