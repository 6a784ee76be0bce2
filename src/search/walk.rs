//! The depth-first attempt: a walk that tries each position's moves in
//! turn, backing out when they are used up, narrowed or in full.

use std::mem::size_of;

use super::shared::{SharedView, Visit};
use super::{End, Search, Table, TableKey};
use crate::game::{Ask, Game};
use crate::notation;

/// The table a walk records its positions in: its own, or one it shares
/// with walks on other threads.
pub(super) trait Visited<K: TableKey> {
    /// Fetches `key`'s slot into cache; gives its hash.
    fn prefetch(&self, key: K) -> u64;
    /// Offers a position the walk is about to expand.
    fn visit(&mut self, key: K, hash: u64) -> Visit;
    /// Says the walk has tried every move from a position.
    fn finish(&mut self, key: K, hash: u64);
    /// Whether the table may have dropped a position it was given.
    fn has_forgotten(&self) -> bool;
    /// Whether the table forgets for want of room.
    fn is_crowded(&self) -> bool;
}

impl<K: TableKey> Visited<K> for Table<K> {
    #[inline]
    fn prefetch(&self, key: K) -> u64 {
        Table::prefetch(self, key)
    }
    #[inline]
    fn visit(&mut self, key: K, hash: u64) -> Visit {
        match self.insert_hashed(key, hash) {
            true => Visit::Fresh,
            false => Visit::Seen,
        }
    }
    #[inline]
    fn finish(&mut self, _: K, _: u64) {}
    fn has_forgotten(&self) -> bool {
        Table::has_forgotten(self)
    }
    fn is_crowded(&self) -> bool {
        Table::has_forgotten(self)
    }
}

impl<K: TableKey> Visited<K> for SharedView<'_, K> {
    #[inline]
    fn prefetch(&self, key: K) -> u64 {
        SharedView::prefetch(self, key)
    }
    #[inline]
    fn visit(&mut self, key: K, hash: u64) -> Visit {
        SharedView::visit(self, key, hash)
    }
    #[inline]
    fn finish(&mut self, key: K, hash: u64) {
        SharedView::finish(self, key, hash);
    }
    fn has_forgotten(&self) -> bool {
        self.table().has_forgotten()
    }
    fn is_crowded(&self) -> bool {
        self.table().is_crowded()
    }
}

/// The fewest slots of a walk's kept path (see [`Walk::path`]).
const MIN_PATH_SLOTS: usize = 1 << 10;

/// The home slot on a walk's path, of `mask + 1` slots, of a position of
/// key hash `hash`: its top bits, as the table's home is.
#[inline]
fn path_home(hash: u64, mask: usize) -> usize {
    hash.rotate_left(20) as usize & mask
}

/// The widest horizon a walk may have: a frame counts its moves since a
/// card went home in a byte.
pub(super) const MAX_HORIZON: u32 = u8::MAX as u32;

struct Frame<S, K> {
    state: S,
    key: K,
    hash: u64,
    /// This position's moves are `moves[start..end]`, the positions they
    /// lead to (with their keys) `children[start..end]`; `next` is the next
    /// one to try. Going over the moves left for last (`again`), those are
    /// copied after them, and `next..end` is the copies.
    start: u32,
    next: u32,
    end: u32,
    /// Where this position's moves left for last, their positions busy in
    /// another walk, begin in the walk's `deferred`.
    deferred_from: u32,
    /// Whether the walk is going over those moves again.
    again: bool,
    /// Under a horizon, the moves since this position's line last sent a
    /// card home.
    idle: u8,
    /// Whether the path to this position is the start of the walk's guide.
    on_guide: bool,
    /// Whether the path to this position is a line of the game (always,
    /// but in a relaxed walk: see [`Game::is_game_line`]).
    game_line: bool,
}

/// A position reached, its key and the key's hash, the move that reached
/// it, and the moves since its line last sent a card home.
type Reached<G> = (
    <G as Game>::State,
    <G as Game>::Key,
    u64,
    Option<<G as Game>::Move>,
    u8,
);

/// A depth-first walk, kept between the turns of its tactic: a turn that
/// runs out of nodes leaves it where it stopped, and the next goes on from
/// there, so no turn repeats another's work.
pub(super) struct Walk<G: Game> {
    /// The narrowing level, 0 for the full search.
    narrowing: u32,
    /// The most moves a line may go without sending a card home, if the
    /// walk has a horizon (see [`super::Tactic::Horizon`]).
    horizon: Option<u32>,
    moves: Vec<G::Move>,
    /// The position each of `moves` leads to, its key and the key's hash,
    /// worked out when its parent was expanded (to prefetch its table slot)
    /// and kept for the walk, so that the insert does not hash it again.
    children: Vec<(G::State, G::Key, u64)>,
    stack: Vec<Frame<G::State, G::Key>>,
    /// The moves left for last, as indices into `moves`, each frame's
    /// after those of the frames below it.
    deferred: Vec<u32>,
    /// The position to expand next, with the move that reached it: kept
    /// here, not expanded, when the turn ran out of nodes first.
    pending: Option<Reached<G>>,
    /// The positions on the current path, for games with cycles, kept
    /// once `path_kept` is set: an open-addressed set of their frames'
    /// places in `stack` (one more, 0 for an empty slot), found by the
    /// hashes the frames hold, where a set of keys hashed each key again.
    /// Until the table forgets a position, every position on the path is
    /// in it, and the table alone keeps the walk off cycles.
    path: Vec<u32>,
    path_kept: bool,
    /// The most bytes the path may take.
    pub(super) room: usize,
    /// Stop with [`End::Crowded`] once the (shared) table is crowded.
    pub(super) leave_when_crowded: bool,
    /// Whether it walks the game's relaxation: a win there is the game's
    /// only if [`Game::is_game_line`] says its line is, and else ends the
    /// walk with [`End::RelaxationWon`].
    relaxed: bool,
    /// The *guide* (see [`Walk::following`]): the line the walk tries
    /// first while its path is on it; empty for none.
    guide: Vec<G::Move>,
}

impl<G: Game> Walk<G> {
    /// A walk from `root`, already recorded in `table`.
    pub(super) fn new(root: G::State, key: G::Key, narrowing: u32, room: usize) -> Walk<G> {
        Walk {
            narrowing,
            horizon: None,
            moves: Vec::new(),
            children: Vec::new(),
            stack: Vec::new(),
            deferred: Vec::new(),
            pending: Some((root, key, key.table_hash(), None, 0)),
            path: Vec::new(),
            path_kept: false,
            room,
            leave_when_crowded: false,
            relaxed: false,
            guide: Vec::new(),
        }
    }

    /// The walk of the game's relaxation from `root`, a relaxed position.
    pub(super) fn relaxed(self) -> Walk<G> {
        Walk {
            relaxed: true,
            ..self
        }
    }

    /// The walk, trying first, while its path follows `guide` from the
    /// start, the guide's next move. A walk after a win of the relaxation
    /// by a line that is not the game's follows that line: a refinement's
    /// win, or the game's, is often a few moves off it, near where it swapped
    /// cards, and the walk backs out from there first. Only the order of
    /// the moves changes, so what the walk proves stays the same.
    pub(super) fn following(self, guide: Vec<G::Move>) -> Walk<G> {
        Walk { guide, ..self }
    }

    /// The walk, cutting every line that goes more than `moves` moves
    /// without sending a card home.
    pub(super) fn with_horizon(self, moves: u32) -> Walk<G> {
        debug_assert!(moves <= MAX_HORIZON);
        Walk {
            horizon: Some(moves),
            ..self
        }
    }

    /// A walk from `root` that shares its table with walks on other
    /// threads. It keeps its path from the start: a position busy in the
    /// table may be on its own path, and only the path tells.
    pub(super) fn sharing(root: G::State, key: G::Key, room: usize) -> Walk<G> {
        let mut walk = Walk::new(root, key, 0, room);
        if !G::ACYCLIC {
            walk.keep_path();
        }
        walk
    }

    /// Walks on until a win, the end of the positions it can reach, or the
    /// end of the turn's nodes.
    ///
    /// Where the table is shared, a move to a position another walk is
    /// still inside is left for last: the walks split the work, and the
    /// positions below it are mostly settled by the time this walk comes
    /// back to it. It then goes in all the same, so that each walk that
    /// ends has tried every move of every position it expanded, and a loss
    /// needs no more than that every walk ended, or all but one that left
    /// (see [`super::solve_parallel`]). Only those moves are tried again:
    /// the others were, and going over them all again, in a table that
    /// forgets, searched anew the positions it had dropped.
    pub(super) fn resume(
        &mut self,
        search: &mut Search<G>,
        table: &mut impl Visited<G::Key>,
    ) -> End<notation::Move> {
        loop {
            if let Some((state, key, hash, last, idle)) = self.pending {
                // Asked before the position is taken, so that a walk told
                // to stay goes on from it.
                if self.leave_when_crowded && search.at_check() && table.is_crowded() {
                    return End::Crowded;
                }
                if let Err(end) = search.count_node() {
                    return end;
                }
                self.pending = None;
                if search.at_check() && self.path_bytes() > self.room {
                    return End::OutOfRoom;
                }
                self.expand(search, state, (key, hash), (last, idle), table);
            }
            let Some(frame) = self.stack.last_mut() else {
                return End::Lost;
            };
            if frame.next == frame.end {
                if !frame.again && self.deferred.len() > frame.deferred_from as usize {
                    frame.again = true;
                    for &at in &self.deferred[frame.deferred_from as usize..] {
                        self.moves.push(self.moves[at as usize]);
                        self.children.push(self.children[at as usize]);
                    }
                    frame.end = self.moves.len() as u32;
                    continue;
                }
                if self.path_kept {
                    self.path_remove();
                }
                let frame = self.stack.pop().expect("the loop saw a frame");
                self.moves.truncate(frame.start as usize);
                self.children.truncate(frame.start as usize);
                self.deferred.truncate(frame.deferred_from as usize);
                table.finish(frame.key, frame.hash);
                continue;
            }
            let ((child, key, hash), mv) = (
                self.children[frame.next as usize],
                self.moves[frame.next as usize],
            );
            frame.next += 1;
            let (at, again) = (frame.next - 1, frame.again);
            if search.game.is_won(&child) {
                if !Self::game_line_after(search.game, self.relaxed, frame.game_line, mv) {
                    return End::RelaxationWon;
                }
                search.best = search.game.cards_home(&child);
                return End::Won(self.solution(search.game));
            }
            // Past the horizon the child is not entered, nor put in the
            // table: a shorter line may still reach it.
            let idle = match self.horizon {
                None => 0,
                Some(horizon) => {
                    let game = search.game;
                    if game.cards_home(&child) > game.cards_home(&frame.state) {
                        0
                    } else if u32::from(frame.idle) < horizon {
                        frame.idle.saturating_add(1)
                    } else {
                        continue;
                    }
                }
            };
            let enter = match table.visit(key, hash) {
                Visit::Fresh => !self.on_path(key, hash, table),
                Visit::Seen => false,
                // Busy on this walk's own path: a move back, never taken
                // (and no reason to go over the moves again).
                Visit::Busy if self.path_kept && self.path_holds(key, hash) => false,
                Visit::Busy if !again => {
                    self.deferred.push(at);
                    false
                }
                Visit::Busy => true,
            };
            if enter {
                self.pending = Some((child, key, hash, Some(mv), idle));
            }
        }
    }

    /// Pushes a newly reached position with its moves, unless it is a
    /// proven dead end.
    fn expand(
        &mut self,
        search: &mut Search<G>,
        state: G::State,
        (key, hash): (G::Key, u64),
        (last, idle): (Option<G::Move>, u8),
        table: &mut impl Visited<G::Key>,
    ) {
        let game = search.game;
        // A relaxed walk's position is the game's only on a line of the
        // game; one reached by a swap is no line's, and its cards home
        // are no measure of how far the game gets.
        let game_line = match (self.stack.last(), last) {
            (Some(parent), Some(mv)) => {
                Self::game_line_after(game, self.relaxed, parent.game_line, mv)
            }
            _ => true,
        };
        if game_line {
            search.best = search.best.max(game.cards_home(&state));
        }
        if game.is_dead_end(&state) {
            table.finish(key, hash);
            return;
        }
        let start = self.moves.len() as u32;
        let ask = Ask {
            narrowing: self.narrowing,
            ..Ask::FULL
        };
        game.moves(&state, last, ask, &mut self.moves);
        let end = self.moves.len() as u32;
        let depth = self.stack.len();
        let on_guide = match self.stack.last() {
            None => !self.guide.is_empty(),
            Some(parent) => parent.on_guide && last == self.guide.get(depth - 1).copied(),
        };
        if on_guide
            && let Some(&next) = self.guide.get(depth)
            && let Some(at) = self.moves[start as usize..]
                .iter()
                .position(|&mv| mv == next)
        {
            self.moves[start as usize..=start as usize + at].rotate_right(1);
        }
        if start == end {
            table.finish(key, hash);
            return;
        }
        for &mv in &self.moves[start as usize..] {
            let child = game.play(&state, mv);
            let child_key = game.key(&child);
            let hash = table.prefetch(child_key);
            self.children.push((child, child_key, hash));
        }
        if self.path_kept {
            self.path_insert(hash);
        }
        self.stack.push(Frame {
            state,
            key,
            hash,
            start,
            next: start,
            end,
            deferred_from: self.deferred.len() as u32,
            again: false,
            idle,
            on_guide,
            game_line,
        });
    }

    /// Whether a position the table did not hold is on the current path:
    /// possible only once the table has forgotten positions, and then the
    /// path is kept from here on.
    fn on_path(&mut self, key: G::Key, hash: u64, table: &impl Visited<G::Key>) -> bool {
        if G::ACYCLIC || !table.has_forgotten() {
            return false;
        }
        if !self.path_kept {
            self.keep_path();
        }
        self.path_holds(key, hash)
    }

    /// Starts keeping the path, from the frames on it.
    fn keep_path(&mut self) {
        self.path_kept = true;
        self.path_rebuild(MIN_PATH_SLOTS.max(4 * self.stack.len()).next_power_of_two());
    }

    /// Sets the path's slots anew, `slots` of them, from the frames.
    fn path_rebuild(&mut self, slots: usize) {
        self.path = vec![0; slots];
        for at in 0..self.stack.len() {
            self.path_place(self.stack[at].hash, at);
        }
    }

    /// Puts the frame at `at` in `stack`, of hash `hash`, in the path's
    /// first empty slot from its home.
    fn path_place(&mut self, hash: u64, at: usize) {
        let mask = self.path.len() - 1;
        let mut slot = path_home(hash, mask);
        while self.path[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        self.path[slot] = at as u32 + 1;
    }

    /// Adds the frame about to be pushed, of hash `hash`, to the path,
    /// which stays at most half full.
    fn path_insert(&mut self, hash: u64) {
        if 2 * (self.stack.len() + 1) > self.path.len() {
            self.path_rebuild(2 * self.path.len());
        }
        self.path_place(hash, self.stack.len());
    }

    /// Takes the last frame off the path. Frames leave in the reverse of
    /// the order they came, so no frame still on the path was placed past
    /// it, and emptying its slot leaves every other one found.
    fn path_remove(&mut self) {
        let at = self.stack.len();
        let mask = self.path.len() - 1;
        let mut slot = path_home(self.stack[at - 1].hash, mask);
        while self.path[slot] != at as u32 {
            slot = (slot + 1) & mask;
        }
        self.path[slot] = 0;
    }

    /// Whether the position of `key`, whose hash is `hash`, is on the
    /// kept path.
    fn path_holds(&self, key: G::Key, hash: u64) -> bool {
        let mask = self.path.len() - 1;
        let mut slot = path_home(hash, mask);
        while let at @ 1.. = self.path[slot] {
            let frame = &self.stack[at as usize - 1];
            if frame.hash == hash && frame.key == key {
                return true;
            }
            slot = (slot + 1) & mask;
        }
        false
    }

    /// Whether a path that is a line of the game (`on_line`) still is one
    /// after `mv`: in a relaxed walk, if the game has the move (see
    /// [`Game::is_game_line`]); in any other, always.
    fn game_line_after(game: &G, relaxed: bool, on_line: bool, mv: G::Move) -> bool {
        on_line && (!relaxed || game.is_game_line(&[mv]))
    }

    /// The deal's position in a finer relaxation, once this relaxed walk
    /// ended in [`End::RelaxationWon`] by `line`, its [`Walk::path_moves`]:
    /// see [`Game::refined`].
    pub(super) fn refined(&self, game: &G, line: &[G::Move]) -> Option<G::State> {
        let root = &self.stack.first()?.state;
        game.refined(root, line)
    }

    /// The moves from the start to the position the path ends in: the
    /// move last tried in each frame.
    pub(super) fn path_moves(&self) -> Vec<G::Move> {
        (self.stack.iter())
            .map(|frame| self.moves[frame.next as usize - 1])
            .collect()
    }

    /// Bytes the path takes: what its vectors hold, room to grow included.
    fn path_bytes(&self) -> usize {
        self.stack.capacity() * size_of::<Frame<G::State, G::Key>>()
            + self.moves.capacity() * size_of::<G::Move>()
            + self.children.capacity() * size_of::<(G::State, G::Key, u64)>()
            + self.deferred.capacity() * size_of::<u32>()
    }

    /// The moves from the start to the win: the move last tried in each
    /// frame of the path.
    fn solution(&self, game: &G) -> Vec<notation::Move> {
        let mut out = Vec::new();
        for frame in &self.stack {
            let mv = self.moves[frame.next as usize - 1];
            game.notation(&frame.state, mv, &mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;
    use crate::search::Limits;
    use crate::search::tree::Tree;

    /// A shared table as a walk sees it once it forgets at once every
    /// position no walk is inside; `busy` some other walk is inside to the
    /// end. It counts the visits of each position.
    struct Forgetful {
        inside: HashSet<u64>,
        busy: u64,
        visits: HashMap<u64, u32>,
    }

    impl Visited<u64> for Forgetful {
        fn prefetch(&self, key: u64) -> u64 {
            key.table_hash()
        }
        fn visit(&mut self, key: u64, _: u64) -> Visit {
            *self.visits.entry(key).or_default() += 1;
            match key == self.busy || !self.inside.insert(key) {
                true => Visit::Busy,
                false => Visit::Fresh,
            }
        }
        fn finish(&mut self, key: u64, _: u64) {
            self.inside.remove(&key);
        }
        fn has_forgotten(&self) -> bool {
            true
        }
        fn is_crowded(&self) -> bool {
            false
        }
    }

    /// The kept path holds exactly the positions of the frames on the
    /// stack, as a look through the frames finds them, while frames come
    /// and go in stack order and the path outgrows its slots.
    #[test]
    fn the_kept_path_holds_the_frames_on_the_stack() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let tree = Tree {
            depth: 4,
            goal: None,
        };
        let mut walk = Walk::<Tree>::new(1, tree.key(&1), 0, usize::MAX);
        walk.keep_path();
        for round in 0..20_000u64 {
            let grow = round % 4000 < 3000;
            if (rng.random_range(0..3) > 0) == grow || walk.stack.is_empty() {
                let key = loop {
                    let key = rng.random_range(1..10_000u64);
                    if !walk.stack.iter().any(|frame| frame.key == key) {
                        break key;
                    }
                };
                walk.path_insert(key.table_hash());
                walk.stack.push(Frame {
                    state: key,
                    key,
                    hash: key.table_hash(),
                    start: 0,
                    next: 0,
                    end: 0,
                    deferred_from: 0,
                    again: false,
                    idle: 0,
                    on_guide: false,
                    game_line: true,
                });
            } else {
                walk.path_remove();
                walk.stack.pop();
            }
            let key = rng.random_range(1..10_000u64);
            let on_stack = walk.stack.iter().any(|frame| frame.key == key);
            assert_eq!(walk.path_holds(key, key.table_hash()), on_stack);
        }
        assert!(
            walk.path.len() > MIN_PATH_SLOTS,
            "{} slots",
            walk.path.len()
        );
    }

    fn walk_sharing(tree: &Tree, busy: u64) -> (End<notation::Move>, u64, Forgetful) {
        let limits = Limits::default();
        let mut search = Search::new(tree, &crate::search::Plan::FULL_WALK, &limits);
        let mut table = Forgetful {
            inside: HashSet::from([tree.key(&1)]),
            busy: tree.key(&busy),
            visits: HashMap::new(),
        };
        let mut walk = Walk::sharing(1, tree.key(&1), usize::MAX);
        let end = walk.resume(&mut search, &mut table);
        (end, search.nodes, table)
    }

    /// A move to a position another walk is inside is left for last and
    /// then taken, and only it: the walk's sibling subtree, which the
    /// table has forgotten by then, is not searched a second time.
    #[test]
    fn only_the_moves_left_for_last_are_tried_again() {
        let tree = Tree {
            depth: 6,
            goal: None,
        };
        let (end, nodes, table) = walk_sharing(&tree, 2);
        assert!(matches!(end, End::Lost));
        assert_eq!(nodes, tree.size(), "each position once");
        assert_eq!(table.visits[&tree.key(&2)], 2, "left for last, then taken");
        assert_eq!(table.visits[&tree.key(&3)], 1);
        assert!(table.visits.values().all(|&n| n <= 2));
    }

    /// A walk tries its guide's moves first while its path is on the
    /// guide, backs out from where the guide ends or strays, and still goes
    /// through every position when there is no win.
    #[test]
    fn a_walk_follows_its_guide_first_and_still_covers_every_position() {
        let walk = |goal: Option<u64>, guide: &[u64]| {
            let tree = Tree { depth: 10, goal };
            let limits = Limits::default();
            let mut search = Search::new(&tree, &crate::search::Plan::FULL_WALK, &limits);
            let mut table = Table::new(1 << 20);
            table.insert(tree.key(&1));
            let mut walk = Walk::new(1, tree.key(&1), 0, usize::MAX).following(guide.to_vec());
            let end = walk.resume(&mut search, &mut table);
            (end, search.nodes)
        };
        // Down the right edge to the last leaf.
        let right: Vec<u64> = (1..=10).map(|depth| (2 << depth) - 1).collect();
        let (end, nodes) = walk(Some(2047), &right);
        assert!(matches!(end, End::Won(_)));
        assert_eq!(nodes, 10, "the guide's positions alone");
        let (_, unguided) = walk(Some(2047), &[]);
        assert!(unguided > 2000, "left first without a guide: {unguided}");
        // The guide ends at the goal's sibling, a leaf: the walk backs out
        // one move.
        let (end, nodes) = walk(Some(2047), &[&right[..9], &[2046]].concat());
        assert!(matches!(end, End::Won(_)));
        assert_eq!(nodes, 11);
        // A guide that strays (a move the position has not) is left there:
        // below position 7, left first, every position but the goal.
        let (end, nodes) = walk(Some(2047), &[3, 7, 4, 9]);
        let End::Won(line) = end else {
            panic!("the goal is reachable")
        };
        assert_eq!(
            line,
            right.iter().map(|&to| Tree::step(to)).collect::<Vec<_>>()
        );
        assert_eq!(nodes, 2 + 510);
        let (end, nodes) = walk(None, &right);
        assert!(matches!(end, End::Lost));
        assert_eq!(nodes, 2047, "every position once");
    }

    /// A win below a move left for last comes with the line through it.
    #[test]
    fn a_win_below_a_move_left_for_last_gives_its_line() {
        let tree = Tree {
            depth: 4,
            goal: Some(10),
        };
        let (end, _, _) = walk_sharing(&tree, 2);
        let End::Won(line) = end else {
            panic!("the goal is reachable")
        };
        assert_eq!(line, [2, 5, 10].map(Tree::step));
    }
}
