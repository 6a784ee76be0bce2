//! The search: a depth-first walk of the positions reachable from a board,
//! remembering expanded positions in a bounded [`Table`].
//!
//! Why the verdicts are exact: the walk is graph reachability with a
//! visited set. Every position reachable from the start is either expanded
//! or was expanded before (it is in the table), so if a won position is
//! reachable, the walk reaches it; `lost` is reported only when the walk
//! ran to its end. A position the table forgot is expanded again: more
//! time, same verdict. Where moves can be undone, the positions on the
//! current path are kept apart from the table once it has forgotten any,
//! so forgetting can never let the walk go round a cycle for ever.

mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ahash::AHashSet;
use serde::Serialize;

pub use table::{Table, TableKey};

use crate::game::Game;
use crate::notation;

/// What may stop a search before it ends.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_nodes: Option<u64>,
    pub timeout: Option<Duration>,
    /// The table's cap in bytes.
    pub memory: usize,
    /// Set from outside (Ctrl-C) to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// The default table cap: room for tens of millions of positions, well
/// within a 24 GiB machine even with one table per core.
pub const DEFAULT_MEMORY: usize = 1 << 30;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nodes: None,
            timeout: None,
            memory: DEFAULT_MEMORY,
            cancel: None,
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// A win was found; the report holds its moves.
    Won,
    /// Every reachable position was searched: no win exists.
    Lost,
    /// A limit stopped the search first.
    Unknown,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
            Verdict::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which limit made a verdict `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    MaxNodes,
    Timeout,
    Interrupted,
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct Report {
    pub verdict: Verdict,
    /// Set when the verdict is `unknown`.
    pub stop: Option<Stop>,
    /// The winning moves, when won.
    pub moves: Vec<notation::Move>,
    /// Positions expanded, the start included; at most `--max-nodes`.
    pub nodes: u64,
    /// Most positions the table held at once.
    pub table_peak: usize,
    /// Bytes the table's slots took at the end.
    pub table_bytes: usize,
    /// Most cards the search got onto the foundations.
    pub best: u32,
    pub elapsed: Duration,
}

/// How often, in nodes, the clock and the cancel flag are read.
const CHECK_EVERY: u64 = 1024;

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

/// Searches `game` from its initial position, using `table` (cleared
/// first).
pub fn solve<G: Game>(game: &G, limits: &Limits, table: &mut Table<G::Key>) -> Report {
    let started = Instant::now();
    table.clear();
    let mut search = Search {
        game,
        limits,
        deadline: limits.timeout.map(|t| started + t),
        nodes: 0,
        best: 0,
        moves: Vec::new(),
        children: Vec::new(),
        stack: Vec::new(),
        path: AHashSet::new(),
        path_kept: false,
    };
    let (verdict, stop, moves) = search.run(table);
    Report {
        verdict,
        stop,
        moves,
        nodes: search.nodes,
        table_peak: table.peak(),
        table_bytes: table.bytes(),
        best: search.best,
        elapsed: started.elapsed(),
    }
}

struct Search<'a, G: Game> {
    game: &'a G,
    limits: &'a Limits,
    deadline: Option<Instant>,
    nodes: u64,
    best: u32,
    moves: Vec<G::Move>,
    /// The position each of `moves` leads to and its key, worked out when
    /// its parent was expanded (to prefetch its table slot) and kept for
    /// the walk.
    children: Vec<(G::State, G::Key)>,
    stack: Vec<Frame<G::State, G::Key>>,
    /// Keys of the positions on the current path, for games with cycles,
    /// kept once `path_kept` is set. Until the table forgets a position,
    /// every position on the path is in it, and the table alone keeps the
    /// walk off cycles.
    path: AHashSet<G::Key>,
    path_kept: bool,
}

impl<G: Game> Search<'_, G> {
    fn run(&mut self, table: &mut Table<G::Key>) -> (Verdict, Option<Stop>, Vec<notation::Move>) {
        let root = self.game.initial();
        self.best = self.game.cards_home(&root);
        if self.game.is_won(&root) {
            return (Verdict::Won, None, Vec::new());
        }
        let key = self.game.key(&root);
        table.insert(key);
        if let Some(stop) = self.count_node() {
            return (Verdict::Unknown, Some(stop), Vec::new());
        }
        self.expand(root, key, None, table);
        while let Some(frame) = self.stack.last_mut() {
            if frame.next == frame.end {
                let frame = self.stack.pop().expect("the loop saw a frame");
                self.moves.truncate(frame.start as usize);
                self.children.truncate(frame.start as usize);
                if self.path_kept {
                    self.path.remove(&frame.key);
                }
                continue;
            }
            let ((child, key), mv) = (
                self.children[frame.next as usize],
                self.moves[frame.next as usize],
            );
            frame.next += 1;
            if self.game.is_won(&child) {
                self.best = self.game.cards_home(&child);
                return (Verdict::Won, None, self.solution());
            }
            if !table.insert(key) || self.on_path(key, table) {
                continue;
            }
            if let Some(stop) = self.count_node() {
                return (Verdict::Unknown, Some(stop), Vec::new());
            }
            self.expand(child, key, Some(mv), table);
        }
        (Verdict::Lost, None, Vec::new())
    }

    /// Pushes a newly reached position with its moves, unless it is a
    /// proven dead end.
    fn expand(
        &mut self,
        state: G::State,
        key: G::Key,
        last: Option<G::Move>,
        table: &Table<G::Key>,
    ) {
        self.best = self.best.max(self.game.cards_home(&state));
        if self.game.is_dead_end(&state) {
            return;
        }
        let start = self.moves.len() as u32;
        self.game.moves(&state, last, &mut self.moves);
        let end = self.moves.len() as u32;
        if start == end {
            return;
        }
        for &mv in &self.moves[start as usize..] {
            let child = self.game.play(&state, mv);
            let child_key = self.game.key(&child);
            table.prefetch(child_key);
            self.children.push((child, child_key));
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

    /// Counts a position about to be expanded, or says which limit stops
    /// the search first.
    fn count_node(&mut self) -> Option<Stop> {
        if self.limits.max_nodes.is_some_and(|max| self.nodes >= max) {
            return Some(Stop::MaxNodes);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Some(Stop::Timeout);
            }
            if let Some(cancel) = &self.limits.cancel
                && cancel.load(Ordering::Relaxed)
            {
                return Some(Stop::Interrupted);
            }
        }
        None
    }

    /// The moves from the start to the win: the move last tried in each
    /// frame of the path.
    fn solution(&self) -> Vec<notation::Move> {
        let mut out = Vec::new();
        for frame in &self.stack {
            let mv = self.moves[frame.next as usize - 1];
            self.game.notation(&frame.state, mv, &mut out);
        }
        out
    }
}
