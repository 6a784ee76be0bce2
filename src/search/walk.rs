//! The depth-first attempt: a walk that tries each position's moves in
//! turn, backing out when they are used up, narrowed or in full.

use std::mem::size_of;

use ahash::AHashSet;

use super::{End, Search, Table};
use crate::game::{Ask, Game};
use crate::notation;

struct Frame<S, K> {
    state: S,
    key: K,
    /// This position's moves are `moves[start..end]`, the positions they
    /// lead to (with their keys) `children[start..end]`; `next` is the next
    /// one to try.
    start: u32,
    next: u32,
    end: u32,
}

/// A position reached, its key, and the move that reached it.
type Reached<G> = (
    <G as Game>::State,
    <G as Game>::Key,
    Option<<G as Game>::Move>,
);

/// A depth-first walk, kept between the turns of its tactic: a turn that
/// runs out of nodes leaves it where it stopped, and the next goes on from
/// there, so no turn repeats another's work.
pub(super) struct Walk<G: Game> {
    /// The narrowing level, 0 for the full search.
    narrowing: u32,
    moves: Vec<G::Move>,
    /// The position each of `moves` leads to, its key and the key's hash,
    /// worked out when its parent was expanded (to prefetch its table slot)
    /// and kept for the walk, so that the insert does not hash it again.
    children: Vec<(G::State, G::Key, u64)>,
    stack: Vec<Frame<G::State, G::Key>>,
    /// The position to expand next, with the move that reached it: kept
    /// here, not expanded, when the turn ran out of nodes first.
    pending: Option<Reached<G>>,
    /// Keys of the positions on the current path, for games with cycles,
    /// kept once `path_kept` is set. Until the table forgets a position,
    /// every position on the path is in it, and the table alone keeps the
    /// walk off cycles.
    path: AHashSet<G::Key>,
    path_kept: bool,
    /// The most bytes the path may take.
    pub(super) path_cap: usize,
}

impl<G: Game> Walk<G> {
    /// A walk from `root`, already recorded in `table`.
    pub(super) fn new(root: G::State, key: G::Key, narrowing: u32, path_cap: usize) -> Walk<G> {
        Walk {
            narrowing,
            moves: Vec::new(),
            children: Vec::new(),
            stack: Vec::new(),
            pending: Some((root, key, None)),
            path: AHashSet::new(),
            path_kept: false,
            path_cap,
        }
    }

    /// Walks on until a win, the end of the positions it can reach, or the
    /// end of the turn's nodes.
    pub(super) fn resume(
        &mut self,
        search: &mut Search<G>,
        table: &mut Table<G::Key>,
    ) -> End<notation::Move> {
        loop {
            if let Some((state, key, last)) = self.pending {
                if let Err(end) = search.count_node() {
                    return end;
                }
                self.pending = None;
                if search.at_check() && self.path_bytes() > self.path_cap {
                    return End::OutOfRoom;
                }
                self.expand(search, state, key, last, table);
            }
            let Some(frame) = self.stack.last_mut() else {
                return End::Lost;
            };
            if frame.next == frame.end {
                let frame = self.stack.pop().expect("the loop saw a frame");
                self.moves.truncate(frame.start as usize);
                self.children.truncate(frame.start as usize);
                if self.path_kept {
                    self.path.remove(&frame.key);
                }
                continue;
            }
            let ((child, key, hash), mv) = (
                self.children[frame.next as usize],
                self.moves[frame.next as usize],
            );
            frame.next += 1;
            if search.game.is_won(&child) {
                search.best = search.game.cards_home(&child);
                return End::Won(self.solution(search.game));
            }
            if !table.insert_hashed(key, hash) || self.on_path(key, table) {
                continue;
            }
            self.pending = Some((child, key, Some(mv)));
        }
    }

    /// Pushes a newly reached position with its moves, unless it is a
    /// proven dead end.
    fn expand(
        &mut self,
        search: &mut Search<G>,
        state: G::State,
        key: G::Key,
        last: Option<G::Move>,
        table: &Table<G::Key>,
    ) {
        let game = search.game;
        search.best = search.best.max(game.cards_home(&state));
        if game.is_dead_end(&state) {
            return;
        }
        let start = self.moves.len() as u32;
        let ask = Ask {
            narrowing: self.narrowing,
            ..Ask::FULL
        };
        game.moves(&state, last, ask, &mut self.moves);
        let end = self.moves.len() as u32;
        if start == end {
            return;
        }
        for &mv in &self.moves[start as usize..] {
            let child = game.play(&state, mv);
            let child_key = game.key(&child);
            let hash = table.prefetch(child_key);
            self.children.push((child, child_key, hash));
        }
        if self.path_kept {
            self.path.insert(key);
        }
        self.stack.push(Frame {
            state,
            key,
            start,
            next: start,
            end,
        });
    }

    /// Whether a position the table did not hold is on the current path:
    /// possible only once the table has forgotten positions, and then the
    /// path is kept from here on.
    fn on_path(&mut self, key: G::Key, table: &Table<G::Key>) -> bool {
        if G::ACYCLIC || !table.has_forgotten() {
            return false;
        }
        if !self.path_kept {
            self.path.extend(self.stack.iter().map(|frame| frame.key));
            self.path_kept = true;
        }
        self.path.contains(&key)
    }

    /// Bytes the path takes: what its vectors hold, room to grow included.
    fn path_bytes(&self) -> usize {
        self.stack.capacity() * size_of::<Frame<G::State, G::Key>>()
            + self.moves.capacity() * size_of::<G::Move>()
            + self.children.capacity() * size_of::<(G::State, G::Key, u64)>()
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
