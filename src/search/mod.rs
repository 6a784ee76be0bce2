//! The search: a depth-first walk of the positions reachable from a board,
//! remembering expanded positions in a bounded [`Table`].
//!
//! Why the verdicts are exact: the walk is graph reachability with a
//! visited set. Every position reachable from the start is either expanded
//! or was expanded before (it is in the table), so if a won position is
//! reachable, the walk reaches it; `lost` is reported only when a walk
//! that left out no legal move but those its game proves needless (not a
//! narrowed one, see [`solve`]) ran to its end. A position the table
//! forgot is expanded again: more
//! time, same verdict. Where moves can be undone, the positions on the
//! current path are kept apart from the table once it has forgotten any,
//! so forgetting can never let the walk go round a cycle for ever.

mod best_first;
mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ahash::AHashSet;
use serde::Serialize;

pub use table::{Table, TableKey};

use crate::game::{Ask, Game};
use crate::notation;

/// What may stop a search before it ends.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_nodes: Option<u64>,
    pub timeout: Option<Duration>,
    /// The table's cap in bytes; the path being searched may take as much
    /// again, or 64 MiB (see [`solve`]).
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
    /// The path being searched outgrew its cap (see [`solve`]).
    Memory,
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
    /// Positions expanded, the start included, in all attempts; at most
    /// `--max-nodes`.
    pub nodes: u64,
    /// Searches made, narrowed ones included (see [`solve`]).
    pub attempts: u32,
    /// Most positions the table held at once, in any attempt.
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

/// How one attempt of a search ended.
enum End<M> {
    Won(Vec<M>),
    Lost,
    Stopped(Stop),
    /// The attempt used up its nodes.
    OutOfNodes,
    /// A best-first attempt filled the memory it may take.
    OutOfRoom,
}

/// How much larger each attempt's budget is than the one before. An
/// attempt starts afresh, so small steps repeat work, and large ones
/// overshoot. Raglan, numbered deals 1..3000 and 30001..33000, --timeout
/// 10s, 2 threads: 2 took 20.3 s and 14.7 s, 3 took 16.9 s and 12.4 s
/// (deals 30001..33000 with 4: 14.2 s; in rounds where every kind of
/// attempt has the same budget, doubling each round: 19.3 s).
const ATTEMPT_GROWTH: u64 = 3;

/// Past this budget an attempt before the full search is not worth it:
/// the full search comes next.
const MAX_ATTEMPT_NODES: u64 = 1 << 26;

/// The path's own floor: a small table should make a search forget
/// positions, not stop it after a few dozen moves.
const MIN_PATH_BYTES: usize = 64 << 20;

/// How one attempt searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tactic {
    /// Best-first, with every move (see `Search::best_first`).
    BestFirst,
    /// Depth-first at a level of narrowing.
    Narrowed(u32),
    /// Depth-first with every move and no budget: this one decides.
    Full,
}

/// The attempts of one search, in turn, each with three times the nodes of the
/// one before.
struct Schedule {
    tactics: Vec<Tactic>,
    turn: usize,
    budget: u64,
}

impl Schedule {
    fn new<G: Game>() -> Schedule {
        let best_first = G::BEST_FIRST.then_some(Tactic::BestFirst);
        let narrowed = G::NARROWINGS.iter().map(|&level| Tactic::Narrowed(level));
        Schedule {
            tactics: best_first.into_iter().chain(narrowed).collect(),
            turn: 0,
            budget: G::ATTEMPT_NODES,
        }
    }

    /// The next attempt and its node budget (none for the full search).
    fn next(&mut self) -> (Tactic, Option<u64>) {
        if self.tactics.is_empty() || self.budget > MAX_ATTEMPT_NODES {
            return (Tactic::Full, None);
        }
        let tactic = self.tactics[self.turn % self.tactics.len()];
        self.turn += 1;
        let budget = self.budget;
        self.budget *= ATTEMPT_GROWTH;
        (tactic, Some(budget))
    }

    /// Leaves out `tactic` from now on; for a narrowing level, the
    /// narrower ones too, since they search part of what it searched.
    fn drop(&mut self, tactic: Tactic) {
        self.tactics.retain(|&kept| match (kept, tactic) {
            (Tactic::Narrowed(kept), Tactic::Narrowed(level)) => kept > level,
            _ => kept != tactic,
        });
    }
}

/// Searches `game` from its initial position, using `table` (cleared
/// first).
///
/// Before the full search come attempts that look for a win only, each
/// with a fresh table and three times the nodes of the one before, taken in turn:
/// best-first ones where the game has [`Game::BEST_FIRST`], then one per
/// level of [`Game::NARROWINGS`]. A depth-first search free to make every
/// move can take a wrong turn early and spend millions of positions below
/// it (in Raglan, shuffling runs between twin cards); a narrowed one, which
/// leaves out moves the engine judges seldom needed, backs out sooner, and
/// a best-first one goes back to the early choice as soon as it looks
/// better than where the search got to. Together they find most wins far
/// faster. A narrowed attempt that ends without a win proves nothing, so
/// its level and the narrower ones are dropped; a best-first one that runs
/// out of memory is dropped; when none is left or the budget outgrows
/// `MAX_ATTEMPT_NODES`, the full search decides. A best-first attempt
/// that expands every reachable position proves the deal lost as the full
/// search would; otherwise a lost deal pays for the attempts on top of the
/// full search.
///
/// Besides the table, the search keeps the path it is on: each position
/// with its moves and the positions they lead to. Where moves can be
/// undone that path can grow long (hundreds of thousands of positions in
/// Raglan), so it may take at most as many bytes as the table's cap, or
/// `MIN_PATH_BYTES` if that is more; past that the search stops,
/// `unknown`.
pub fn solve<G: Game>(game: &G, limits: &Limits, table: &mut Table<G::Key>) -> Report {
    let started = Instant::now();
    let mut search = Search::new(game, limits, table.cap().max(MIN_PATH_BYTES));
    let mut schedule = Schedule::new::<G>();
    let (mut attempts, mut table_peak) = (0, 0);
    let (verdict, stop, moves) = loop {
        let (tactic, budget) = schedule.next();
        search.narrowing = match tactic {
            Tactic::Narrowed(level) => level,
            Tactic::BestFirst | Tactic::Full => 0,
        };
        search.attempt_end = budget.map_or(u64::MAX, |b| search.nodes.saturating_add(b));
        attempts += 1;
        let end = match tactic {
            Tactic::BestFirst => search.best_first(table),
            Tactic::Narrowed(_) | Tactic::Full => search.run(table),
        };
        table_peak = table_peak.max(table.peak());
        match end {
            End::Won(moves) => break (Verdict::Won, None, moves),
            End::Lost if matches!(tactic, Tactic::Narrowed(_)) => schedule.drop(tactic),
            End::Lost => break (Verdict::Lost, None, Vec::new()),
            End::Stopped(stop) => break (Verdict::Unknown, Some(stop), Vec::new()),
            End::OutOfNodes => {}
            End::OutOfRoom => schedule.drop(tactic),
        }
    };
    Report {
        verdict,
        stop,
        moves,
        attempts,
        nodes: search.nodes,
        table_peak,
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
    /// This attempt's narrowing level, 0 for the full search.
    narrowing: u32,
    /// The node count at which this attempt gives up.
    attempt_end: u64,
    /// The most bytes the path may take.
    path_cap: usize,
}

impl<'a, G: Game> Search<'a, G> {
    fn new(game: &'a G, limits: &'a Limits, path_cap: usize) -> Search<'a, G> {
        Search {
            game,
            limits,
            deadline: limits.timeout.map(|t| Instant::now() + t),
            nodes: 0,
            best: 0,
            moves: Vec::new(),
            children: Vec::new(),
            stack: Vec::new(),
            path: AHashSet::new(),
            path_kept: false,
            narrowing: 0,
            attempt_end: u64::MAX,
            path_cap,
        }
    }

    /// One attempt, from a fresh table.
    fn run(&mut self, table: &mut Table<G::Key>) -> End<notation::Move> {
        self.stack.clear();
        self.moves.clear();
        self.children.clear();
        self.path.clear();
        self.path_kept = false;
        let (root, key) = match self.start(table) {
            Ok(start) => start,
            Err(end) => return end,
        };
        if let Err(end) = self.count_node() {
            return end;
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
                return End::Won(self.solution());
            }
            if !table.insert(key) || self.on_path(key, table) {
                continue;
            }
            if let Err(end) = self.count_node() {
                return end;
            }
            self.expand(child, key, Some(mv), table);
        }
        End::Lost
    }

    /// Begins an attempt: clears the table and records the start in it,
    /// with its key, or ends the attempt at once if the start is won.
    fn start(
        &mut self,
        table: &mut Table<G::Key>,
    ) -> Result<(G::State, G::Key), End<notation::Move>> {
        table.clear();
        let root = self.game.initial();
        self.best = self.best.max(self.game.cards_home(&root));
        if self.game.is_won(&root) {
            return Err(End::Won(Vec::new()));
        }
        let key = self.game.key(&root);
        table.insert(key);
        Ok((root, key))
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
        let ask = Ask {
            narrowing: self.narrowing,
            ..Ask::FULL
        };
        self.game.moves(&state, last, ask, &mut self.moves);
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

    /// Counts a position about to be expanded, or says why the attempt
    /// ends first.
    fn count_node(&mut self) -> Result<(), End<notation::Move>> {
        if self.limits.max_nodes.is_some_and(|max| self.nodes >= max) {
            return Err(End::Stopped(Stop::MaxNodes));
        }
        if self.nodes >= self.attempt_end {
            return Err(End::OutOfNodes);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(End::Stopped(Stop::Timeout));
            }
            if self.path_bytes() > self.path_cap {
                return Err(End::Stopped(Stop::Memory));
            }
            if let Some(cancel) = &self.limits.cancel
                && cancel.load(Ordering::Relaxed)
            {
                return Err(End::Stopped(Stop::Interrupted));
            }
        }
        Ok(())
    }

    /// Bytes the path takes: what its vectors hold, room to grow included.
    fn path_bytes(&self) -> usize {
        self.stack.capacity() * size_of::<Frame<G::State, G::Key>>()
            + self.moves.capacity() * size_of::<G::Move>()
            + self.children.capacity() * size_of::<(G::State, G::Key)>()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, BoardError};

    /// A walk over positions `0..=last`, won at `goal` if there is one. On
    /// a line it steps either way; on a ring only forward, from `last` back
    /// to 0. Narrowed searches may not step forward from `wall`.
    /// With `BEST` set, the search tries best-first first, scoring a
    /// position by how far along the line or ring it is.
    struct Walk<const BEST: bool = false> {
        last: u64,
        goal: Option<u64>,
        wall: Option<u64>,
        ring: bool,
    }

    impl<const BEST: bool> Walk<BEST> {
        fn line(last: u64, goal: u64, wall: u64) -> Walk<BEST> {
            Walk {
                last,
                goal: Some(goal),
                wall: Some(wall),
                ring: false,
            }
        }
    }

    impl<const BEST: bool> Game for Walk<BEST> {
        const ACYCLIC: bool = false;
        const NARROWINGS: &'static [u32] = &[1, 2];
        const BEST_FIRST: bool = BEST;
        const ATTEMPT_NODES: u64 = 100;
        type State = u64;
        type Key = u64;
        type Move = u64;

        fn new(_: &Board) -> Result<Walk<BEST>, BoardError> {
            Err(BoardError::whole("a walk is built by hand"))
        }
        fn initial(&self) -> u64 {
            0
        }
        fn key(&self, &at: &u64) -> u64 {
            at + 1
        }
        fn is_won(&self, &at: &u64) -> bool {
            self.goal == Some(at)
        }
        fn cards_home(&self, &at: &u64) -> u32 {
            at as u32
        }
        fn score(&self, &at: &u64) -> i32 {
            at as i32
        }
        fn moves(&self, &at: &u64, _: Option<u64>, ask: Ask, out: &mut Vec<u64>) {
            let forward = match (at < self.last, self.ring) {
                (true, _) => Some(at + 1),
                (false, true) => Some(0),
                (false, false) => None,
            };
            if let Some(next) = forward
                && (ask.narrowing == 0 || self.wall != Some(at))
            {
                out.push(next);
            }
            if !self.ring && at > 0 {
                out.push(at - 1);
            }
        }
        fn play(&self, _: &u64, to: u64) -> u64 {
            to
        }
        fn notation(&self, _: &u64, _: u64, _: &mut Vec<notation::Move>) {}
        fn to_board(&self, _: &u64) -> Board {
            Board::default()
        }
    }

    fn solve_walk(walk: Walk, memory: usize) -> Report {
        solve(&walk, &Limits::default(), &mut Table::new(memory))
    }

    #[test]
    fn narrowed_attempts_that_find_no_win_give_way_to_the_full_search() {
        let report = solve_walk(Walk::line(50, 40, 20), 1 << 20);
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.attempts, 3, "levels 1 and 2, then in full");
    }

    #[test]
    fn only_the_full_search_proves_a_loss() {
        let report = solve_walk(Walk::line(50, 60, 20), 1 << 20);
        assert_eq!(report.verdict, Verdict::Lost);
        assert_eq!(report.attempts, 3);
    }

    #[test]
    fn a_narrowed_attempt_out_of_nodes_is_followed_by_a_larger_one() {
        // 300 positions before the wall: levels 1 and 2 run out at 100 and
        // 200 nodes, level 1 ends at 400 (the wall), then level 2, then in
        // full.
        let report = solve_walk(Walk::line(500, 450, 300), 1 << 20);
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.attempts, 5);
        assert!(report.nodes > 100 + 200 + 300 + 300 + 450);
    }

    fn solve_guided(walk: Walk<true>) -> Report {
        solve(&walk, &Limits::default(), &mut Table::new(1 << 20))
    }

    #[test]
    fn a_best_first_attempt_comes_first_and_makes_every_move() {
        // The wall that stops the narrowed attempts does not stop it.
        let report = solve_guided(Walk::line(50, 40, 20));
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.attempts, 1);
        assert_eq!(report.moves.len(), 0, "a walk's moves print as nothing");
    }

    #[test]
    fn a_best_first_attempt_that_expands_everything_proves_a_loss() {
        let report = solve_guided(Walk::line(50, 60, 20));
        assert_eq!(report.verdict, Verdict::Lost);
        assert_eq!(report.attempts, 1);
    }

    #[test]
    fn best_first_and_narrowed_attempts_take_turns() {
        // 150 positions to the goal: best-first runs out at 100 nodes,
        // level 1 ends at the wall and is dropped, and the turn passes
        // over level 2 to best-first again, with 900 nodes: enough.
        let report = solve_guided(Walk::line(500, 150, 20));
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.attempts, 3);
        assert!(report.nodes > 100 + 20 + 150);
    }

    #[test]
    fn a_best_first_attempt_past_its_memory_gives_up() {
        let walk: Walk<true> = Walk::line(100_000, 100_000, 0);
        let limits = Limits::default();
        let mut search = Search::new(&walk, &limits, 4096);
        let end = search.best_first(&mut Table::new(1 << 20));
        assert!(matches!(end, End::OutOfRoom));
        assert!(search.nodes < 100_000);
    }

    #[test]
    fn the_schedule_drops_a_level_with_the_narrower_ones() {
        let mut schedule = Schedule::new::<Walk<true>>();
        let tactics = [Tactic::BestFirst, Tactic::Narrowed(1), Tactic::Narrowed(2)];
        for (turn, tactic) in tactics.iter().cycle().take(4).enumerate() {
            let budget = 100 * ATTEMPT_GROWTH.pow(turn as u32);
            assert_eq!(schedule.next(), (*tactic, Some(budget)));
        }
        schedule.drop(Tactic::Narrowed(1));
        assert_eq!(schedule.tactics, [Tactic::BestFirst, Tactic::Narrowed(2)]);
        schedule.drop(Tactic::Narrowed(2));
        schedule.drop(Tactic::BestFirst);
        assert_eq!(schedule.next(), (Tactic::Full, None));
    }

    #[test]
    fn a_path_longer_than_the_cap_stops_the_search() {
        // A path of a million positions takes over 64 MiB: more than a
        // 1 MiB table allows, less than a 256 MiB one.
        let long = || Walk::line(1_000_000, 1_000_000, 1_000_000);
        let cramped = solve_walk(long(), 1 << 20);
        assert_eq!(cramped.verdict, Verdict::Unknown);
        assert_eq!(cramped.stop, Some(Stop::Memory));
        assert_eq!(solve_walk(long(), 256 << 20).verdict, Verdict::Won);
    }

    /// A table of a few thousand positions has long forgotten the start
    /// when the walk comes round the ring to it; only the path guard then
    /// knows the start is on the path. Without it the walk would go round
    /// again and again, until the path outgrew its cap.
    #[test]
    fn the_path_guard_ends_a_cycle_the_table_forgot() {
        let ring = Walk {
            last: 199_999,
            goal: None,
            wall: None,
            ring: true,
        };
        let report = solve_walk(ring, 64 << 10);
        assert_eq!(report.verdict, Verdict::Lost, "{:?}", report.stop);
    }
}
