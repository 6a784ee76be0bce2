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

mod beam;
mod best_first;
mod plan;
mod rollout;
mod shared;
mod table;
#[cfg(test)]
mod tree;
mod walk;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

pub use crate::key::{SpareBitKey, TableKey};
pub use plan::{Plan, Planned, same_level};
pub use table::{Table, Tables};

use crate::game::Game;
use crate::notation;
use beam::Beam;
use best_first::{BestFirst, Frontier, SharedBestFirst};
use shared::{SharedTable, SharedView};
use walk::Walk;

/// A position an attempt kept: how it was reached, to rebuild the winning
/// line.
#[derive(Clone, Copy)]
struct Closed<M> {
    parent: u32,
    mv: Option<M>,
}

/// `parent` of the start.
const ROOT: u32 = u32::MAX;

/// The moves from the start to `closed[at]`, then `last`, then `rest`, in
/// RULES.md notation.
fn line<G: Game>(
    game: &G,
    closed: &[Closed<G::Move>],
    at: u32,
    last: G::Move,
    rest: &[G::Move],
) -> Vec<notation::Move> {
    let step = |at: u32| {
        let Closed { parent, mv } = closed[at as usize];
        (parent, mv)
    };
    line_through(game, step, at, last, rest)
}

/// As [`line`], with `step` giving each position's parent and the move
/// from it, wherever the positions are kept.
fn line_through<G: Game>(
    game: &G,
    step: impl Fn(u32) -> (u32, Option<G::Move>),
    mut at: u32,
    last: G::Move,
    rest: &[G::Move],
) -> Vec<notation::Move> {
    let mut steps = vec![last];
    while let (parent, Some(mv)) = step(at) {
        steps.push(mv);
        at = parent;
    }
    steps.reverse();
    steps.extend_from_slice(rest);
    let mut out = Vec::new();
    let mut state = game.initial();
    for mv in steps {
        game.notation(&state, mv, &mut out);
        state = game.play(&state, mv);
    }
    out
}

/// What may stop a search before it ends.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_nodes: Option<u64>,
    pub timeout: Option<Duration>,
    /// The table's cap in bytes; the path being searched may take as much
    /// again, or `room_floor` (see [`solve`]).
    pub memory: usize,
    /// The least room an attempt has besides its table, whatever its share
    /// of `memory`: a small table should make a search forget positions,
    /// not stop it after a few dozen moves. 64 MiB by default; tests lower
    /// it to drive a search past its room on a small deal.
    pub room_floor: usize,
    /// Set from outside (Ctrl-C) to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where the search tells how far it got, every [`CHECK_EVERY`] nodes
    /// or so, for a display on another thread.
    pub progress: Option<Arc<Progress>>,
}

/// How far a running search got: its nodes (over all threads, up to the
/// last few thousand) and the most cards it got home. Read while the
/// search runs, from another thread.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    best: AtomicU32,
}

impl Progress {
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn best(&self) -> u32 {
        self.best.load(Ordering::Relaxed)
    }
}

/// The default table cap: room for tens of millions of positions, well
/// within a 24 GiB machine even with one table per core.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// The default [`Limits::room_floor`].
pub const DEFAULT_ROOM_FLOOR: usize = 64 << 20;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nodes: None,
            timeout: None,
            memory: DEFAULT_MEMORY,
            room_floor: DEFAULT_ROOM_FLOOR,
            cancel: None,
            progress: None,
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
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
    /// A narrowed walk searched alone ([`solve_alone`]) ended without a
    /// win, which proves nothing.
    Narrowed,
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
    /// Turns taken at the search's tactics (see [`solve`]).
    pub turns: u32,
    /// Most positions the table held at once, in any attempt.
    pub table_peak: usize,
    /// Bytes the table's slots took at the end.
    pub table_bytes: usize,
    /// Most cards home at the end of a line of play the search found: on a
    /// lost deal of a game that finds its longest line (see
    /// [`crate::games::GameKind::longest_line`]), the most any line gets;
    /// otherwise the most in a position the search reached, which the
    /// pruning (dead ends, moves left out) may leave short of that.
    pub best: u32,
    /// On a lost deal, a line that gets `best` cards home, when the game
    /// finds its longest line; empty otherwise.
    pub longest_line: Vec<notation::Move>,
    pub elapsed: Duration,
    /// The tactic that won or proved the loss. A Raglan loss proven by
    /// `full` tells that best-first search outgrew its memory and walks
    /// took its place.
    pub decided_by: Option<Tactic>,
}

/// How often, in nodes, the clock and the cancel flag are read.
const CHECK_EVERY: u64 = 1024;

/// How one attempt ended, or one turn of it.
enum End<M> {
    Won(Vec<M>),
    Lost,
    Stopped(Stop),
    /// The turn used up its nodes; the attempt can go on.
    OutOfNodes,
    /// The attempt filled the memory it may take besides its table.
    OutOfRoom,
    /// A walk on a shared table that is crowded, one that may leave the
    /// crew (see [`Crew::leave`]).
    Crowded,
}

/// How much larger each turn's budget is than the one before. Turns take
/// up their attempts where they stopped, so this only sets how finely the
/// tactics share the nodes. Raglan, simulated from the nodes and time each
/// tactic takes alone (`results/schedule/README.md`), Solvitaire's 150
/// boards, numbered deals 1..2000 and 30001..31000: 1.3, 19.6 and 10.4 s
/// of solving with 2; 1.0, 19.3 and 10.8 s with 3; 1.3, 18.8 and 9.9 s
/// with 4.
const TURN_GROWTH: u64 = 3;

/// How many times the turn's budget a best-first turn gets. Best-first
/// search is the one that proves a loss, and in Raglan it finds most of
/// the hard wins. Simulated as for `TURN_GROWTH`: 1.1, 20.2 and 10.3 s
/// with 1; 1.0, 19.3 and 10.8 s with 2; 1.1, 18.8 and 11.0 s with 3.
const BEST_FIRST_WEIGHT: u64 = 2;

/// How one attempt searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactic {
    /// Best-first, with every move (see [`best_first`]).
    BestFirst,
    /// Depth-first at a level of narrowing.
    Narrowed(u32),
    /// Depth-first with every move.
    Full,
    /// Best-first at a level of narrowing, each position scored by a
    /// rollout from it (see [`rollout`]).
    Rollouts(u32),
    /// A beam search at a level of narrowing (see [`beam`]).
    Beam(u32),
}

impl std::str::FromStr for Tactic {
    type Err = String;

    fn from_str(text: &str) -> Result<Tactic, String> {
        let level_of = |level: &str| match level.parse() {
            Ok(level) if level > 0 => Ok(level),
            _ => Err(format!("`{level}` is not a narrowing level (1 or more)")),
        };
        match text {
            "best-first" => Ok(Tactic::BestFirst),
            "full" => Ok(Tactic::Full),
            _ => {
                let (kind, level) = text.rsplit_once('-').unwrap_or((text, ""));
                let tactic = match kind {
                    "narrowed" => Tactic::Narrowed,
                    "rollouts" => Tactic::Rollouts,
                    "beam" => Tactic::Beam,
                    _ => {
                        return Err(format!(
                            "`{text}` is not a tactic: best-first, full, narrowed-N, rollouts-N or beam-N"
                        ));
                    }
                };
                level_of(level).map(tactic)
            }
        }
    }
}

impl std::fmt::Display for Tactic {
    /// The name `--tactic` takes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tactic::BestFirst => write!(f, "best-first"),
            Tactic::Full => write!(f, "full"),
            Tactic::Narrowed(level) => write!(f, "narrowed-{level}"),
            Tactic::Rollouts(level) => write!(f, "rollouts-{level}"),
            Tactic::Beam(level) => write!(f, "beam-{level}"),
        }
    }
}

impl Tactic {
    /// The tactics a game's searches take turns at: the one that can prove
    /// a loss first, best-first where the game has it, then the narrowed
    /// walks, then the searches by rollouts, then the beams.
    fn all(plan: &Plan) -> Vec<Tactic> {
        let prover = if plan.best_first {
            Tactic::BestFirst
        } else {
            Tactic::Full
        };
        let narrowed = plan.narrowings.iter().map(|&level| Tactic::Narrowed(level));
        let beams = plan.beams.iter().map(|&level| Tactic::Beam(level));
        std::iter::once(prover)
            .chain(narrowed)
            .chain(beams)
            .collect()
    }

    fn weight(self, plan: &Plan) -> u64 {
        match self {
            Tactic::BestFirst => BEST_FIRST_WEIGHT,
            Tactic::Beam(_) => plan.beam_weight,
            Tactic::Narrowed(_) | Tactic::Full | Tactic::Rollouts(_) => 1,
        }
    }
}

/// One tactic's search, kept between its turns.
enum Attempt<G: Game> {
    Walk(Walk<G>),
    BestFirst(BestFirst<G>),
    SharedBestFirst(SharedBestFirst<G>),
    Beam(Beam<G>),
}

/// A tactic in the rotation: its attempt, begun at its first turn, and
/// the table it has to itself.
struct Entrant<G: Game> {
    tactic: Tactic,
    attempt: Option<Attempt<G>>,
    /// Nodes its turns took so far.
    spent: u64,
    table: usize,
    /// Whether it is the crew's prover, shared by its threads: one of the
    /// full walks on the crew's table, or a thread's part in the crew's
    /// best-first search (see [`solve_parallel`]); it then has no table
    /// of its own.
    shared: bool,
    /// Whether, shared, it stops to ask to leave the crew once the table
    /// is crowded (see [`Crew::leave`]).
    may_leave: bool,
}

impl<G: Game> Entrant<G> {
    fn new(tactic: Tactic, table: usize) -> Entrant<G> {
        Entrant {
            tactic,
            attempt: None,
            spent: 0,
            table,
            shared: false,
            may_leave: false,
        }
    }

    /// The crew's prover, `tactic`, on one of its threads.
    fn sharing(tactic: Tactic, may_leave: bool) -> Entrant<G> {
        Entrant {
            shared: true,
            may_leave,
            ..Entrant::new(tactic, usize::MAX)
        }
    }

    /// Takes a turn, as [`Entrant::turn`] does, at the crew's prover: a
    /// full walk on the crew's table, or this thread's part in the crew's
    /// best-first search.
    fn turn_shared(
        &mut self,
        search: &mut Search<G>,
        crew: &Crew<G>,
        thread: usize,
        allowance: u64,
        room: usize,
    ) -> End<notation::Move> {
        let path_cap = room.min(search.plan.max_path_bytes);
        let mut view = SharedView::new(&crew.table);
        let attempt = self.attempt.get_or_insert_with(|| match self.tactic {
            Tactic::BestFirst => Attempt::SharedBestFirst(SharedBestFirst::new(thread, room)),
            _ => {
                let root = search.game.initial();
                let key = search.game.key(&root);
                view.visit(key, key.table_hash());
                Attempt::Walk(Walk::sharing(root, key, path_cap))
            }
        });
        match attempt {
            Attempt::Walk(walk) => {
                walk.path_cap = path_cap;
                walk.leave_when_crowded = self.may_leave;
                budgeted(search, &mut self.spent, allowance, |search| {
                    walk.resume(search, &mut view)
                })
            }
            Attempt::SharedBestFirst(best_first) => {
                let frontier = crew.frontier.as_ref().expect("made with the frontier");
                best_first.room = room;
                budgeted(search, &mut self.spent, allowance, |search| {
                    best_first.resume(search, frontier, &mut view)
                })
            }
            _ => unreachable!("a shared attempt is a walk or a shared best-first search"),
        }
    }

    /// Leaves the crew's best-first search, if this is this thread's part
    /// in it (see [`SharedBestFirst::quit`]).
    fn quit(&mut self, crew: &Crew<G>) {
        if let (Some(Attempt::SharedBestFirst(part)), Some(frontier)) =
            (&mut self.attempt, &crew.frontier)
        {
            part.quit(frontier, &crew.table);
        }
    }

    /// Takes a turn with `allowance` nodes for all its turns so far.
    fn turn(
        &mut self,
        search: &mut Search<G>,
        table: &mut Table<G::Key>,
        allowance: u64,
        room: usize,
    ) -> End<notation::Move> {
        let path_cap = room.min(search.plan.max_path_bytes);
        let rollout_level = search.plan.rollout_level;
        let attempt = self.attempt.get_or_insert_with(|| {
            let root = search.game.initial();
            let key = search.game.key(&root);
            table.clear();
            table.insert(key);
            match self.tactic {
                Tactic::BestFirst => Attempt::BestFirst(BestFirst::new(root, room)),
                Tactic::Rollouts(level) => Attempt::BestFirst(BestFirst::with_rollouts(
                    root,
                    level,
                    rollout_level(level),
                    room,
                )),
                Tactic::Narrowed(level) => Attempt::Walk(Walk::new(root, key, level, path_cap)),
                Tactic::Full => Attempt::Walk(Walk::new(root, key, 0, path_cap)),
                Tactic::Beam(level) => {
                    Attempt::Beam(Beam::new(root, level, rollout_level(level), room))
                }
            }
        });
        // The room grows when the tactic inherits the tables of others.
        match attempt {
            Attempt::Walk(walk) => walk.path_cap = path_cap,
            Attempt::BestFirst(best_first) => best_first.room = room,
            Attempt::Beam(beam) => beam.room = room,
            Attempt::SharedBestFirst(_) => unreachable!("a shared attempt takes shared turns"),
        }
        budgeted(search, &mut self.spent, allowance, |search| match attempt {
            Attempt::Walk(walk) => walk.resume(search, table),
            Attempt::BestFirst(best_first) => best_first.resume(search, table),
            Attempt::Beam(beam) => beam.resume(search, table),
            Attempt::SharedBestFirst(_) => unreachable!("a shared attempt takes shared turns"),
        })
    }
}

/// Runs a turn with `allowance` nodes for all the turns of its tactic so
/// far, `spent` of which the turns before took.
fn budgeted<G: Game>(
    search: &mut Search<G>,
    spent: &mut u64,
    allowance: u64,
    run: impl FnOnce(&mut Search<G>) -> End<notation::Move>,
) -> End<notation::Move> {
    let before = search.nodes;
    search.turn_end = before.saturating_add(allowance.saturating_sub(*spent));
    let end = run(search);
    *spent += search.nodes - before;
    end
}

/// Searches `game` from its initial position, using `tables` (cleared
/// first), as the game's plan says (see [`Plan`]).
///
/// The search takes turns at several tactics, each keeping its own
/// attempt and table between its turns, until one of them decides: a
/// best-first one where the plan has [`Plan::best_first`], or else a
/// full depth-first walk, then one walk per level of
/// [`Plan::narrowings`], then one beam per level of [`Plan::beams`]. A
/// depth-first search free to make every move can take a wrong turn early
/// and spend millions of positions below it (in Raglan, shuffling runs
/// between twin cards); a narrowed one, which leaves out moves the engine
/// judges seldom needed, backs out sooner, and a best-first one goes back
/// to the early choice as soon as it looks better than where the search
/// got to. Which is fastest differs from deal to deal, so they share the
/// work: each turn has three times the nodes of the one before
/// (best-first twice that, a beam [`Plan::beam_weight`] times), and takes
/// its attempt up where its last turn left it, so only the tactics that
/// do not win cost extra, never a repeated attempt. With
/// [`Plan::growth_by_round`] the budget grows three times once a round
/// instead, every tactic in a round having the same.
///
/// A narrowed walk that ends without a win proves nothing, so it is
/// dropped with the narrower ones; a beam that ends is dropped alone. A
/// best-first attempt with every move that expands every reachable
/// position proves the deal lost, as the full walk does; one that runs out
/// of memory gives its place to a full walk.
///
/// Each tactic's table has an equal share of the tables' cap, and the
/// tactics left share the tables of those that end. Besides its table,
/// each attempt keeps what it must: a walk the path it is on, each
/// position with its moves and the positions they lead to (in Raglan,
/// hundreds of thousands of positions long), best-first search every
/// position it expanded and queued. Each may take as many bytes as its
/// table's share, or [`Limits::room_floor`] if that is more (a walk no
/// more than [`Plan::max_path_bytes`]); past that a walk gives up its
/// place and the others go on. Without the full walk the search can no
/// longer prove a loss: if the others end without a win, the verdict is
/// `unknown` for want of memory.
pub fn solve<G: Planned>(game: &G, limits: &Limits, tables: &mut Tables<G::Key>) -> Report {
    take_turns(
        game,
        &G::PLAN,
        limits,
        tables,
        Tactic::all(&G::PLAN),
        G::PLAN.first_turn_nodes,
        None,
    )
}

/// Searches `game` with `tactic` alone, in one turn without a budget, to
/// compare the tactics (the turns of [`solve`] can be simulated from what
/// each takes alone). A narrowed walk that ends without a win stops with
/// [`Stop::Narrowed`].
pub fn solve_alone<G: Planned>(
    game: &G,
    limits: &Limits,
    tables: &mut Tables<G::Key>,
    tactic: Tactic,
) -> Report {
    take_turns(game, &G::PLAN, limits, tables, vec![tactic], u64::MAX, None)
}

fn take_turns<G: Game>(
    game: &G,
    plan: &Plan,
    limits: &Limits,
    tables: &mut Tables<G::Key>,
    tactics: Vec<Tactic>,
    mut budget: u64,
    crew: Option<&Crew<G>>,
) -> Report {
    let started = Instant::now();
    let mut search = Search::new(game, plan, limits);
    search.halt = crew.map(|crew| &crew.halt);
    search.helpers = match crew {
        Some(crew) => crew.threads,
        None if tables.pooled() => rayon::current_num_threads(),
        None => 1,
    };
    let shared = |tactic| crew.is_some_and(|crew| crew.prover == Some(tactic));
    let own = tactics.iter().filter(|&&t| !shared(t)).count();
    let purse = Purse {
        cap: tables.cap(),
        given: 0,
        each: tables.cap() / own.max(1),
    };
    let tables = tables.split(own);
    let mut local = 0..;
    // The walk of the first thread to sit down never asks to leave.
    let seat = crew.map(|crew| crew.seats.fetch_add(1, Ordering::Relaxed));
    // Best-first search shared by the crew is the first thread's first
    // tactic; the others join it once their own tactics have ended, so
    // that a narrowed walk, which wins some deals far sooner, keeps a
    // thread to itself as long as it can win.
    let mut joins =
        crew.is_some_and(|crew| crew.frontier.is_some()) && !tactics.contains(&Tactic::BestFirst);
    let mut rotation: Vec<Entrant<G>> = (tactics.into_iter())
        .map(|tactic| match shared(tactic) {
            true => Entrant::sharing(tactic, seat != Some(0)),
            false => Entrant::new(tactic, local.next().expect("unbounded")),
        })
        .collect();
    let root = game.initial();
    search.best = game.cards_home(&root);
    let mut rounds = Rounds {
        search,
        crew,
        seat,
        purse,
        turns: 0,
        table_peak: 0,
        prover_out_of_room: false,
        last: None,
        retiring: Vec::new(),
    };
    let (verdict, stop, moves) = if game.is_won(&root) {
        (Verdict::Won, None, Vec::new())
    } else {
        loop {
            if let Some(crew) = crew {
                let level = crew.narrowed_ended.load(Ordering::Relaxed);
                if level > 0 {
                    retire(
                        &mut rotation,
                        tables,
                        &mut rounds.purse,
                        Some(crew),
                        narrower(level),
                    );
                }
                // This thread's own tables are no longer used: the shared
                // one may have their share, as a table left alone does.
                if rotation.iter().all(|entrant| entrant.shared) {
                    rounds.purse.give(crew, 0, true);
                }
            }
            if rotation.is_empty() && std::mem::take(&mut joins) {
                rotation.push(Entrant::sharing(Tactic::BestFirst, seat != Some(0)));
            }
            if rotation.is_empty() {
                let stop = match rounds.prover_out_of_room {
                    true => Stop::Memory,
                    false => Stop::Narrowed,
                };
                break (Verdict::Unknown, Some(stop), Vec::new());
            }
            let (allowances, next) = round_budgets(plan, &rotation, budget);
            budget = next;
            if let Some(decided) = rounds.play(&mut rotation, tables, &allowances) {
                break decided;
            }
            let retiring = std::mem::take(&mut rounds.retiring);
            if !retiring.is_empty() {
                retire(&mut rotation, tables, &mut rounds.purse, crew, |t| {
                    retiring.contains(&t)
                });
            }
        }
    };
    let Rounds {
        search,
        turns,
        table_peak,
        last,
        ..
    } = rounds;
    if let Some(crew) = crew {
        if let Verdict::Won | Verdict::Lost = verdict {
            crew.halt.store(true, Ordering::Relaxed);
        }
        // A thread that stops still in the crew's best-first search leaves
        // it, so that walks waiting to take its place are not kept waiting.
        for entrant in &mut rotation {
            entrant.quit(crew);
        }
    }
    Report {
        verdict,
        stop,
        moves,
        turns,
        nodes: search.nodes,
        table_peak,
        table_bytes: tables.iter().map(Table::bytes).sum(),
        best: search.best,
        longest_line: Vec::new(),
        elapsed: started.elapsed(),
        decided_by: last.filter(|_| verdict != Verdict::Unknown),
    }
}

/// The least allowance of a beam's turn taken beside the walks' turns
/// (see [`Rounds::beside`]): the thread their turns take is made for the
/// round, and most deals of a batch are decided in rounds far shorter
/// than it takes to make one, while both threads have deals of their own.
/// (Rows of Four deals 1001..2000, `batch --threads 2`: 3.84 to 3.89 s
/// with no turn beside, 4.42 to 4.61 s with every round's.)
const BESIDE_FROM: u64 = 1_000_000;

/// The narrowed searches at `level` or narrower: once a walk at `level`
/// ends without a win, none of them can win either.
fn narrower(level: u32) -> impl Fn(Tactic) -> bool {
    move |kept| match kept {
        Tactic::Narrowed(other) | Tactic::Rollouts(other) => other <= level,
        _ => false,
    }
}

/// The allowance of each turn of a round of `rotation` whose first turn
/// has `budget` nodes (times its tactic's weight), and the budget of the
/// next round's first turn: each turn three times the one before, or,
/// with [`Plan::growth_by_round`], each round three times the one before.
fn round_budgets<G: Game>(plan: &Plan, rotation: &[Entrant<G>], budget: u64) -> (Vec<u64>, u64) {
    let mut next = budget;
    let allowances = (rotation.iter())
        .map(|entrant| {
            let allowance = next.saturating_mul(entrant.tactic.weight(plan));
            if !plan.growth_by_round {
                next = next.saturating_mul(TURN_GROWTH);
            }
            allowance
        })
        .collect();
    if plan.growth_by_round {
        next = next.saturating_mul(TURN_GROWTH);
    }
    (allowances, next)
}

/// How a decided search ends: its verdict, why it stopped if unknown,
/// and the winning moves.
type Decided = (Verdict, Option<Stop>, Vec<notation::Move>);

/// One thread's turns at its tactics (see [`take_turns`]), round after
/// round: each tactic in the rotation takes a turn in order, and those
/// that end take no more turns and leave the rotation once the round is
/// over. Their tables go to the walks left at once (a walk that runs out
/// of room may then go on), but to a beam only once the round is over:
/// so a beam's turn, the last of a round, hangs on nothing the turns
/// before it in the round did but for a verdict, and can be taken beside
/// them (see [`Rounds::play_beside`]) and search the same positions.
struct Rounds<'a, G: Game> {
    search: Search<'a, G>,
    crew: Option<&'a Crew<G>>,
    seat: Option<usize>,
    purse: Purse,
    turns: u32,
    table_peak: usize,
    prover_out_of_room: bool,
    /// The tactic of the last turn taken: the one that decided, if any did.
    last: Option<Tactic>,
    /// The tactics that ended this round, to leave the rotation after it.
    retiring: Vec<Tactic>,
}

impl<'a, G: Game> Rounds<'a, G> {
    /// Plays a round of `rotation`, each turn with its allowance; gives
    /// the verdict if a turn decided.
    fn play(
        &mut self,
        rotation: &mut [Entrant<G>],
        tables: &mut [Table<G::Key>],
        allowances: &[u64],
    ) -> Option<Decided> {
        match self.beside(rotation, allowances) {
            Some(beam) => self.play_beside(rotation, tables, allowances, beam),
            None => self.take_round(rotation, tables, &mut [], None, allowances),
        }
    }

    /// Takes the turns of `rotation` in order, each with its allowance, and
    /// shares out the tables of the tactics that end at once (see
    /// [`Rounds`]); gives the verdict if a turn decided. The tables are
    /// `below` and `above` the one of the beam at `beside`, whose turn is
    /// under way on another thread; with none, `below` are all of them.
    fn take_round(
        &mut self,
        rotation: &mut [Entrant<G>],
        below: &mut [Table<G::Key>],
        above: &mut [Table<G::Key>],
        beside: Option<usize>,
        allowances: &[u64],
    ) -> Option<Decided> {
        let skip = beside.unwrap_or(below.len());
        for at in 0..rotation.len() {
            if self.retiring.contains(&rotation[at].tactic) {
                continue;
            }
            let entrant = &mut rotation[at];
            let table = (!entrant.shared).then(|| match entrant.table < skip {
                true => &mut below[entrant.table],
                false => &mut above[entrant.table - skip - 1],
            });
            let end = self.turn(entrant, table, allowances[at]);
            let leaving = self.retiring.len();
            let decided = self.settle(end, rotation, at);
            if decided.is_some() {
                return decided;
            }
            if self.retiring.len() > leaving {
                let staying = |entrant: &&Entrant<G>| !self.retiring.contains(&entrant.tactic);
                let kept: Vec<&Entrant<G>> = rotation.iter().filter(staying).collect();
                let tables = (below.iter_mut().enumerate())
                    .chain((above.iter_mut().enumerate()).map(|(t, table)| (t + skip + 1, table)));
                share_tables(&kept, beside, true, tables, &mut self.purse, self.crew);
            }
        }
        None
    }

    /// The beam whose turn may be taken beside the walks' of this round,
    /// given each turn's allowance: the last of the rotation, where its
    /// rollouts may use other threads (which would wait for the walks'
    /// turns otherwise), no node limit makes a turn hang on the nodes the
    /// turns before it took (the beam shares out what is left of the limit
    /// among its rollouts), and the round is long enough to be worth a
    /// thread (see [`BESIDE_FROM`]).
    fn beside(&self, rotation: &[Entrant<G>], allowances: &[u64]) -> Option<usize> {
        let at = rotation.len().checked_sub(1).filter(|&at| at > 0)?;
        let beam = &rotation[at];
        let free = self.search.helpers > 1 && self.search.max_nodes.is_none();
        let long = allowances[at] >= BESIDE_FROM;
        (free && long && matches!(beam.tactic, Tactic::Beam(_)) && !beam.shared).then_some(at)
    }

    /// Plays a round as [`Rounds::play`] does, the turn of the beam at
    /// `beam_at`, the last, beside the walks' turns, which take a thread of
    /// their own. The beam's turn counts as taken after theirs: if one of
    /// them decides, the beam's is stopped and its nodes are not counted,
    /// and its own verdict waits for theirs. A beam's turn hangs on
    /// nothing that theirs change, as no tactic leaves the rotation or
    /// gives its table to the others before the round is over, and it
    /// stops by its own nodes, not by the total. (Rows of Four deal 235 on
    /// two threads: the walks' turns took 7.3 s of 26.7, while the pool's
    /// threads, which play the beam's rollouts, waited.)
    fn play_beside(
        &mut self,
        rotation: &mut [Entrant<G>],
        tables: &mut [Table<G::Key>],
        allowances: &[u64],
        beam_at: usize,
    ) -> Option<Decided> {
        let (walks, beams) = rotation.split_at_mut(beam_at);
        let beam = &mut beams[0];
        let tactic = beam.tactic;
        let at = beam.table;
        let (below, above) = tables.split_at_mut(at);
        let (beam_table, above) = above.split_first_mut().expect("the beam's own table");
        let stop = AtomicBool::new(false);
        let start = self.search.nodes;
        let mut beside = Search {
            halt: Some(&stop),
            ..self.search
        };
        let room = beam_table.cap().max(self.search.limits.room_floor);
        let allowance = allowances[beam_at];
        // The walks go to a thread of their own: this one may be in the
        // pool the beam's rollouts are played on (a batch's), where a
        // thread that waits for them plays them too, and one that is not
        // in the pool waits until a thread of it is free.
        let (decided, end, peak) = std::thread::scope(|scope| {
            let walks = scope.spawn(|| {
                let decided = self.take_round(walks, below, above, Some(at), allowances);
                if decided.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                decided
            });
            let end = beam.turn(&mut beside, beam_table, allowance, room);
            let decided = walks.join().expect("a walk's turn panicked");
            (decided, end, beam_table.peak())
        });
        if decided.is_some() {
            return decided;
        }
        let used = beside.nodes - start;
        self.search.nodes += used;
        self.search.told = self.search.told.map(|told| told + used);
        self.search.best = self.search.best.max(beside.best);
        self.table_peak = self.table_peak.max(peak);
        self.turns += 1;
        self.last = Some(tactic);
        self.settle(end, beams, 0)
    }

    /// Takes a turn of `entrant` with `allowance` nodes for all its turns
    /// so far, in `table`, its own, or in the crew's if it has none.
    fn turn(
        &mut self,
        entrant: &mut Entrant<G>,
        table: Option<&mut Table<G::Key>>,
        allowance: u64,
    ) -> End<notation::Move> {
        self.last = Some(entrant.tactic);
        self.turns += 1;
        let search = &mut self.search;
        match (table, self.crew) {
            (Some(table), _) => {
                let room = table.cap().max(search.limits.room_floor);
                let end = entrant.turn(search, table, allowance, room);
                self.table_peak = self.table_peak.max(table.peak());
                end
            }
            (None, Some(crew)) => {
                let room = match entrant.tactic {
                    Tactic::BestFirst => crew.table.cap(),
                    _ => crew.table.cap() / crew.walkers,
                };
                let room = room.max(search.limits.room_floor);
                let thread = self.seat.expect("a crew's thread has a seat");
                entrant.turn_shared(search, crew, thread, allowance, room)
            }
            (None, None) => unreachable!("a tactic with no table of its own is a crew's"),
        }
    }

    /// What the end of the turn of `rotation[at]` means: the verdict, if
    /// it decided; else it may leave the rotation after the round, or
    /// give its place to another tactic.
    fn settle(
        &mut self,
        end: End<notation::Move>,
        rotation: &mut [Entrant<G>],
        at: usize,
    ) -> Option<Decided> {
        let crew = self.crew;
        let entrant = &mut rotation[at];
        let tactic = entrant.tactic;
        let leaving = match end {
            End::Won(moves) => return Some((Verdict::Won, None, moves)),
            End::Stopped(stop) => return Some((Verdict::Unknown, Some(stop), Vec::new())),
            End::OutOfNodes => return None,
            End::Lost => match tactic {
                Tactic::Narrowed(level) | Tactic::Rollouts(level) => {
                    if let Some(crew) = crew {
                        crew.narrowed_ended.fetch_max(level, Ordering::Relaxed);
                    }
                    let ended = rotation.iter().map(|e| e.tactic);
                    ended.filter(|&t| narrower(level)(t)).collect()
                }
                Tactic::Full if entrant.shared => {
                    if crew.expect("a shared walk has a crew").walk_ended() {
                        return Some((Verdict::Lost, None, Vec::new()));
                    }
                    vec![Tactic::Full]
                }
                Tactic::BestFirst | Tactic::Full => {
                    return Some((Verdict::Lost, None, Vec::new()));
                }
                beam @ Tactic::Beam(_) => vec![beam],
            },
            End::Crowded => match crew.expect("a shared walk has a crew").leave() {
                Some(true) => return Some((Verdict::Lost, None, Vec::new())),
                Some(false) => vec![Tactic::Full],
                // Another walk left first: this one stays to the end.
                None => {
                    entrant.may_leave = false;
                    return None;
                }
            },
            End::OutOfRoom => match tactic {
                // The crew's best-first search stops on every thread, and
                // walks sharing its table take its place.
                Tactic::BestFirst if entrant.shared => {
                    let crew = crew.expect("a shared search has a crew");
                    let frontier = crew.frontier.as_ref().expect("the search's frontier");
                    entrant.quit(crew);
                    *entrant = Entrant::sharing(Tactic::Full, self.seat != Some(0));
                    if let Err(stop) = frontier.wait_emptied(&self.search) {
                        return Some((Verdict::Unknown, Some(stop), Vec::new()));
                    }
                    return None;
                }
                Tactic::BestFirst => {
                    *entrant = Entrant::new(Tactic::Full, entrant.table);
                    return None;
                }
                Tactic::Full if entrant.shared => {
                    // Whether or not it may leave unfinished, this walk
                    // ends for want of room: if no other proves the loss,
                    // that is why the search stops.
                    if let Some(true) = crew.expect("a shared walk has a crew").leave() {
                        return Some((Verdict::Lost, None, Vec::new()));
                    }
                    self.prover_out_of_room = true;
                    vec![Tactic::Full]
                }
                tactic => {
                    // The others go on: a narrowed walk may still win.
                    // Without the full walk no loss can be proven.
                    self.prover_out_of_room |= tactic == Tactic::Full;
                    vec![tactic]
                }
            },
        };
        for tactic in leaving {
            if !self.retiring.contains(&tactic) {
                self.retiring.push(tactic);
            }
        }
        None
    }
}

/// What the threads searching one deal share (see [`solve_parallel`]).
struct Crew<G: Game> {
    /// Threads a beam plays its rollouts on.
    threads: usize,
    /// The tactic every thread takes a share in, if any: the full walk or
    /// best-first search.
    prover: Option<Tactic>,
    /// Threads whose full walks share `table`: every thread, where walks
    /// may take the place of a shared best-first search.
    walkers: usize,
    /// The full walks' table, or the table of the positions queued by the
    /// best-first search.
    table: SharedTable<G::Key>,
    /// The queue of the best-first search the threads share.
    frontier: Option<Frontier<G>>,
    /// Full walks on it that ended, or left.
    walks: Mutex<Walks>,
    /// Threads that started, in turn (see [`take_turns`]).
    seats: AtomicUsize,
    /// Set when a thread decided the deal: the others stop.
    halt: AtomicBool,
    /// The widest level of narrowing whose search ended on any thread: no
    /// narrower one can win either.
    narrowed_ended: AtomicU32,
}

/// How the crew's shared walks stand.
#[derive(Debug, Default)]
struct Walks {
    ended: usize,
    /// Whether one left (only one may: see [`Crew::leave`]).
    left: bool,
}

impl<G: Game> Crew<G> {
    /// Counts a shared walk that ended; says whether the deal is proven
    /// lost.
    fn walk_ended(&self) -> bool {
        let mut walks = self.walks.lock().expect("no thread panics holding it");
        walks.ended += 1;
        self.all_done(&walks)
    }

    /// Lets a shared walk leave unfinished, if no other did: says whether
    /// it may, and then whether the deal is proven lost. At a tight
    /// `--memory` two walks through a forgetting table searched several
    /// times the positions of one (All in a Row deal 109407 at 16M: 20.6M
    /// against 7.7M), so all but one may ask to leave once it is crowded.
    ///
    /// Why one may leave: a walk marks a position done when it has tried
    /// every move from it, but a move back onto its own path is only
    /// skipped, so the mark holds once that walk also finishes the
    /// positions on its path. A walk that leaves never does, and a position
    /// on its path may then be reached only through positions marked done
    /// in its name. Still, its path is a line from the start of positions
    /// it never finished, and any other walk that ends enters each of them
    /// that is not done (a busy position is entered on the second pass):
    /// one finished by a walk that ends is finished for good, and one
    /// finished by the walk that left cannot lie on its own path. So the
    /// first position of that path still unfinished would follow one that
    /// a walk which ended finished, and that walk entered it: there is
    /// none. With more than one leaving, the marks of each may lean on
    /// the paths of the others, and a win can be missed (three leaving
    /// walks can be scheduled so that the one left ends without it): only
    /// one may.
    fn leave(&self) -> Option<bool> {
        let mut walks = self.walks.lock().expect("no thread panics holding it");
        if walks.left {
            return None;
        }
        walks.left = true;
        Some(self.all_done(&walks))
    }

    /// Every walk has ended, or left with the others ended (see
    /// [`solve_parallel`]).
    fn all_done(&self, walks: &Walks) -> bool {
        walks.ended > 0 && walks.ended + usize::from(walks.left) == self.walkers
    }
}

/// Searches `game` as [`solve`] does, on `threads` threads (or with one
/// tactic alone, as [`solve_alone`] does), within `limits.memory` in all.
///
/// Where the game's search that can prove a loss is the full walk, every
/// thread walks, and the walks share one table ([`shared`]): a position
/// one walk expanded the others leave alone, and one another walk is still
/// inside each leaves for last, so they split the positions between them.
/// Where it is best-first search, every thread takes part in one, with one
/// queue and one table ([`Frontier`], which says why its `lost` is exact);
/// if it outgrows its room, shared walks take its place, as a walk does
/// on one thread. The other tactics are dealt out among the threads, each
/// with its table, and each thread takes turns at its own as [`solve`]
/// does. In a game with a beam, one thread takes every turn, as on one
/// thread, and the beam plays its rollouts on all of them (see [`beam`]).
/// The first thread to decide stops the others; a verdict is never a
/// thread's guess.
///
/// Why `lost` stays exact: a walk that ends has tried every move from
/// every position it expanded; each such move led to a position it
/// expanded itself, or one the table held (which some walk expanded, as
/// keys are exact and a torn slot is never believed), or one on its own
/// path (expanded). Once every walk ended, the positions they expanded
/// include the start and every move from each of them, so they are every
/// position reachable, and none was won. A walk that stopped for time
/// never ends, and the deal is then not `lost`. A table that forgets
/// costs time only, and each walk's path guard keeps it off cycles.
///
/// One walk, and only one, may leave unfinished: once the table is
/// crowded ([`SharedTable::is_crowded`]: two walks through a table that
/// forgets often search far more positions than one), or when its path
/// outgrows its room. A loss then needs every other walk to have ended
/// ([`Crew::leave`] says why that is enough).
///
/// Nodes, like `--max-nodes`, are counted over all threads (each has an
/// even share of the limit), and so is memory: the shared table has the
/// prover's share of the cap, each thread's tables the shares of its
/// tactics, each walk's path the table's share split among the walks, and
/// the shared best-first search's queue and expanded positions the
/// table's share.
pub fn solve_parallel<G: Planned>(
    game: &G,
    limits: &Limits,
    threads: usize,
    tactic: Option<Tactic>,
) -> Report {
    let started = Instant::now();
    let threads = threads.max(1);
    let (tactics, budget) = match tactic {
        Some(tactic) => (vec![tactic], u64::MAX),
        None => (Tactic::all(&G::PLAN), G::PLAN.first_turn_nodes),
    };
    let share = limits.memory / tactics.len();
    let (prover, others) = tactics.split_first().expect("at least one tactic");
    let walking = *prover == Tactic::Full;
    let beaming = tactics.iter().any(|t| matches!(t, Tactic::Beam(_)));
    let pooling = *prover == Tactic::BestFirst && !beaming;
    // With a beam one thread takes every turn, so its full walk has the
    // table to itself: a thread's own, grown as it fills, not the shared
    // one, whose pages the walk's scattered writes fault in a huge page
    // at a time. (Rows of Four deal 235 on two threads, 10M positions:
    // 7.4 to 7.6 s and 480 MB against 8.1 to 8.5 s and 774 MB, the same
    // positions; the kernel clearing the shared table's pages had been a
    // ninth of the samples.)
    let sharing = (walking && !beaming) || pooling;
    let mut dealt: Vec<Vec<Tactic>> = match beaming {
        // A beam plays its rollouts on every thread itself; a second
        // thread's walk would only take turns from it.
        true => vec![tactics.clone()],
        false => (0..threads)
            .map(|thread| {
                let first = (walking || thread == 0).then_some(*prover);
                let offset = usize::from(!walking);
                let theirs = (others.iter().enumerate())
                    .filter(|(i, _)| (i + offset) % threads == thread)
                    .map(|(_, &tactic)| tactic);
                first.into_iter().chain(theirs).collect()
            })
            .collect(),
    };
    // A thread with no tactic of its own joins the shared best-first
    // search at once (see [`take_turns`]).
    if !pooling {
        dealt.retain(|tactics| !tactics.is_empty());
    }
    let spawned = dealt.len() as u64;
    let table = SharedTable::new(if sharing { share } else { 0 });
    let frontier = pooling.then(|| {
        let root = game.initial();
        let key = game.key(&root);
        SharedView::new(&table).visit(key, key.table_hash());
        Frontier::new(game, root, dealt.len())
    });
    let crew = Crew {
        threads,
        prover: sharing.then_some(*prover),
        walkers: match sharing {
            true => dealt.len(),
            false => 0,
        },
        table,
        frontier,
        walks: Mutex::new(Walks::default()),
        seats: AtomicUsize::new(0),
        halt: AtomicBool::new(false),
        narrowed_ended: AtomicU32::new(0),
    };
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let crew = &crew;
        let handles: Vec<_> = (dealt.into_iter().enumerate())
            .map(|(thread, tactics)| {
                let locals = tactics.iter().filter(|&&t| !(sharing && t == *prover));
                let mut limits = Limits {
                    memory: share * locals.count(),
                    ..limits.clone()
                };
                if let Some(max) = limits.max_nodes {
                    let extra = (thread as u64) < max % spawned;
                    limits.max_nodes = Some(max / spawned + u64::from(extra));
                }
                scope.spawn(move || {
                    let mut tables = Tables::new(limits.memory);
                    if beaming && threads > 1 {
                        tables = tables.in_pool();
                    }
                    take_turns(
                        game,
                        &G::PLAN,
                        &limits,
                        &mut tables,
                        tactics,
                        budget,
                        Some(crew),
                    )
                })
            })
            .collect();
        (handles.into_iter())
            .map(|handle| handle.join().expect("a search thread panicked"))
            .collect()
    });
    let decided = (reports.iter())
        .find(|r| r.verdict == Verdict::Won)
        .or_else(|| reports.iter().find(|r| r.verdict == Verdict::Lost));
    let (verdict, stop, moves, decided_by) = match decided {
        Some(report) => (
            report.verdict,
            None,
            report.moves.clone(),
            report.decided_by,
        ),
        None => {
            // Each thread stopped on its own: say the weightiest reason.
            let rank = |stop: Option<Stop>| match stop {
                Some(Stop::Timeout) => 5,
                Some(Stop::MaxNodes) => 4,
                Some(Stop::Interrupted) => 3,
                Some(Stop::Memory) => 2,
                Some(Stop::Narrowed) => 1,
                None => 0,
            };
            let stop = reports.iter().map(|r| r.stop).max_by_key(|&s| rank(s));
            (Verdict::Unknown, stop.flatten(), Vec::new(), None)
        }
    };
    Report {
        verdict,
        stop,
        moves,
        nodes: reports.iter().map(|r| r.nodes).sum(),
        turns: reports.iter().map(|r| r.turns).sum(),
        table_peak: reports
            .iter()
            .map(|r| r.table_peak)
            .max()
            .unwrap_or(0)
            .max(crew.table.len()),
        table_bytes: reports.iter().map(|r| r.table_bytes).sum::<usize>() + crew.table.bytes(),
        best: reports.iter().map(|r| r.best).max().unwrap_or(0),
        longest_line: Vec::new(),
        elapsed: started.elapsed(),
        decided_by,
    }
}

/// Takes the tactics `ended` picks out of the rotation, and shares their
/// tables among those left (see [`Purse`]).
fn retire<G: Game>(
    rotation: &mut Vec<Entrant<G>>,
    tables: &mut [Table<G::Key>],
    purse: &mut Purse,
    crew: Option<&Crew<G>>,
    ended: impl Fn(Tactic) -> bool,
) {
    rotation.retain(|entrant| !ended(entrant.tactic));
    let kept: Vec<&Entrant<G>> = rotation.iter().collect();
    share_tables(
        &kept,
        None,
        false,
        tables.iter_mut().enumerate(),
        purse,
        crew,
    );
}

/// Shares the tables' cap among the tactics `kept`, which take turns on,
/// and `beside`, the table of a beam whose turn is under way on another
/// thread: the crew's table takes its due (see [`Purse`]), the tables of
/// the others give their memory back, and those left may grow into it,
/// but for a beam's, when `beams_wait`, until its round is over (see
/// [`Rounds`]).
fn share_tables<'t, G: Game>(
    kept: &[&Entrant<G>],
    beside: Option<usize>,
    beams_wait: bool,
    tables: impl Iterator<Item = (usize, &'t mut Table<G::Key>)>,
    purse: &mut Purse,
    crew: Option<&Crew<G>>,
) where
    G::Key: 't,
{
    let own = kept.iter().filter(|entrant| !entrant.shared).count() + beside.iter().count();
    match crew {
        Some(crew) => {
            let sharing = kept.iter().any(|entrant| entrant.shared);
            purse.give(crew, own, sharing);
        }
        None => purse.each = purse.cap / own.max(1),
    }
    let used = |t: usize| kept.iter().any(|e| !e.shared && e.table == t);
    let waits = |t: usize| {
        beams_wait
            && (beside == Some(t)
                || (kept.iter()).any(|e| e.table == t && matches!(e.tactic, Tactic::Beam(_))))
    };
    Tables::share(tables, purse.each, used, waits);
}

/// One thread's share of the tables' cap in a crew, and what of it went to
/// the crew's table. Its own tables have it at first; as its tactics end,
/// the crew's search takes a part as large as each of its tables still in
/// use (or what they leave, if more), and all of it once none is left.
/// (Lanes deal 826 on two threads: the crew's walk, at a quarter of the
/// default cap, crowded its table, and one walk left at 5 s, the other
/// won at 19.8 s; given the share of the narrowed walk of level 1, which
/// ended at once, the crew's table held both walks to a win at 5.5 to
/// 9.4 s.)
///
/// A part is given only when it is at least twice the bytes of the
/// table's size in use, or is the last: the table keeps the sizes it grew
/// through, and makes a new one only twice as large, so parts given a
/// little at a time could stay unused. (Lanes deal 42 at `--memory 64M`
/// on two threads, every part given at once: the table stopped at 1.05M
/// slots, not 1.6M, and the search took 199M positions, not 128M.)
struct Purse {
    cap: usize,
    /// Bytes given to the crew's table.
    given: usize,
    /// The cap of each of the thread's own tables in use.
    each: usize,
}

impl Purse {
    /// Gives the crew's table its due, with `own` tables left and while
    /// the thread takes part in the crew's search (`sharing`). Neither
    /// part ever shrinks: a table gives no memory back while in use.
    fn give<G: Game>(&mut self, crew: &Crew<G>, own: usize, sharing: bool) {
        let each = match (own, sharing) {
            (0, _) => 0,
            (own, true) => self.each.max(self.cap / (own + 1)),
            (own, false) => (self.cap - self.given) / own,
        };
        let due = self.cap - own * each;
        if due > self.given && own > 0 && due - self.given < 2 * crew.table.bytes() {
            return;
        }
        self.each = each;
        if due > self.given {
            crew.table.raise_cap(due - self.given);
            self.given = due;
        }
    }
}

/// What the attempts of one search share: the game, the limits, and the
/// count of nodes.
struct Search<'a, G: Game> {
    game: &'a G,
    plan: &'a Plan,
    limits: &'a Limits,
    deadline: Option<Instant>,
    nodes: u64,
    best: u32,
    /// The node count at which this turn ends.
    turn_end: u64,
    /// Set when another thread decided the deal (see [`solve_parallel`]).
    halt: Option<&'a AtomicBool>,
    /// Threads a beam may play its rollouts on (see [`beam`]).
    helpers: usize,
    /// `limits.max_nodes`, or a rollout's share of what is left of it on
    /// a helper thread (see [`Search::fork`]).
    max_nodes: Option<u64>,
    /// `nodes` as last told to `limits.progress`; `None` on a helper
    /// thread, whose nodes its parent search tells.
    told: Option<u64>,
}

impl<'a, G: Game> Search<'a, G> {
    fn new(game: &'a G, plan: &'a Plan, limits: &'a Limits) -> Search<'a, G> {
        Search {
            game,
            plan,
            limits,
            deadline: limits.timeout.map(|t| Instant::now() + t),
            nodes: 0,
            best: 0,
            turn_end: u64::MAX,
            halt: None,
            helpers: 1,
            max_nodes: limits.max_nodes,
            told: Some(0),
        }
    }

    /// A search for one rollout on a helper thread, counting its own
    /// nodes, at most `share` of them: the shares of the rollouts played
    /// at once add up to no more than what is left of the limit.
    fn fork(&self, share: Option<u64>) -> Search<'a, G> {
        Search {
            nodes: 0,
            best: 0,
            helpers: 1,
            max_nodes: share,
            told: None,
            ..*self
        }
    }

    /// What is left of the node limit.
    fn nodes_left(&self) -> Option<u64> {
        self.max_nodes.map(|max| max.saturating_sub(self.nodes))
    }

    /// Counts a position about to be expanded, or says why the turn ends
    /// first.
    fn count_node(&mut self) -> Result<(), End<notation::Move>> {
        if self.at_max_nodes() {
            return Err(End::Stopped(Stop::MaxNodes));
        }
        if self.nodes >= self.turn_end {
            return Err(End::OutOfNodes);
        }
        self.count_step().map_err(End::Stopped)
    }

    /// Counts a position a rollout plays through, or says why the search
    /// stops first. A rollout runs to its end past its turn's budget (a
    /// turn overruns by one rollout at most), so that a turn never leaves
    /// a position half scored.
    fn count_step(&mut self) -> Result<(), Stop> {
        if self.at_max_nodes() {
            return Err(Stop::MaxNodes);
        }
        self.nodes += 1;
        match self.at_check() {
            true => {
                self.tell();
                self.check()
            }
            false => Ok(()),
        }
    }

    /// Adds the nodes counted since last time to `limits.progress`.
    fn tell(&mut self) {
        if let (Some(progress), Some(told)) = (&self.limits.progress, self.told) {
            progress
                .nodes
                .fetch_add(self.nodes - told, Ordering::Relaxed);
            progress.best.fetch_max(self.best, Ordering::Relaxed);
            self.told = Some(self.nodes);
        }
    }

    /// Says whether the clock, Ctrl-C or another thread's verdict stops
    /// the search. [`Search::count_step`] asks every so many nodes; a beam
    /// that adds the nodes of its helpers' rollouts in one go asks after
    /// each lot (see [`beam`]), as its count may jump over the multiples
    /// it would stop at.
    fn check(&self) -> Result<(), Stop> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Timeout);
        }
        if let Some(cancel) = &self.limits.cancel
            && cancel.load(Ordering::Relaxed)
        {
            return Err(Stop::Interrupted);
        }
        if self.halt.is_some_and(|halt| halt.load(Ordering::Relaxed)) {
            return Err(Stop::Interrupted);
        }
        Ok(())
    }

    fn at_max_nodes(&self) -> bool {
        self.max_nodes.is_some_and(|max| self.nodes >= max)
    }

    /// Whether the node just counted is one at which a walk checks its
    /// memory, as [`Search::count_node`] checks the clock.
    fn at_check(&self) -> bool {
        self.nodes.is_multiple_of(CHECK_EVERY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, BoardError};
    use crate::game::Ask;

    /// A walk over positions `0..=last`, won at `goal` if there is one. On
    /// a line it steps either way; on a ring only forward, from `last` back
    /// to 0. Narrowed searches may not step forward from `wall`.
    /// With `BEST` set, the search tries best-first first, scoring a
    /// position by how far along the line or ring it is. With `FREE` set,
    /// rollouts make every move (see [`Plan::rollout_level`]). With
    /// `ROUND` set, the turns' budget grows once a round.
    struct Walk<const BEST: bool = false, const FREE: bool = false, const ROUND: bool = false> {
        last: u64,
        goal: Option<u64>,
        wall: Option<u64>,
        ring: bool,
    }

    impl<const BEST: bool, const FREE: bool, const ROUND: bool> Walk<BEST, FREE, ROUND> {
        fn line(last: u64, goal: u64, wall: u64) -> Walk<BEST, FREE, ROUND> {
            Walk {
                last,
                goal: Some(goal),
                wall: Some(wall),
                ring: false,
            }
        }

        /// Positions `0..=last` on a ring, with no goal and no wall.
        fn ring(last: u64) -> Walk<BEST, FREE, ROUND> {
            Walk {
                last,
                goal: None,
                wall: None,
                ring: true,
            }
        }
    }

    /// Every move at any level.
    const fn free_level(_: u32) -> u32 {
        0
    }

    impl<const BEST: bool, const FREE: bool, const ROUND: bool> Planned for Walk<BEST, FREE, ROUND> {
        const PLAN: Plan = Plan {
            best_first: BEST,
            narrowings: &[1, 2],
            rollout_level: if FREE { free_level } else { same_level },
            first_turn_nodes: 100,
            growth_by_round: ROUND,
            ..Plan::FULL_WALK
        };
    }

    impl<const BEST: bool, const FREE: bool, const ROUND: bool> Game for Walk<BEST, FREE, ROUND> {
        const ACYCLIC: bool = false;
        type State = u64;
        type Key = u64;
        type Move = u64;

        fn new(_: &Board) -> Result<Walk<BEST, FREE, ROUND>, BoardError> {
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
        solve(&walk, &Limits::default(), &mut Tables::new(memory))
    }

    #[test]
    fn turns_take_each_attempt_up_where_it_stopped() {
        // The full walk runs out after 100 nodes; level 1 after 300 (the
        // wall is 301 positions in); level 2 ends at the wall with 301,
        // and is dropped with level 1; the full walk goes on from where it
        // stopped to the goal, 350 nodes later. Starting it afresh would
        // take 450.
        let report = solve_walk(Walk::line(500, 450, 300), 1 << 20);
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.turns, 4);
        assert_eq!(report.nodes, 100 + 300 + 301 + 350);
    }

    #[test]
    fn turns_grow_by_round_when_the_game_asks() {
        // Each of the three walks has 100 nodes, then 300 each: the
        // narrowed ones stop one short of their wall (301 positions in);
        // then the full walk, with 900, goes on from 300 to the goal at
        // 450. Growing at every turn, the second walk's 300 and the third's
        // 900 would have ended both at the wall (4 turns, 1051 nodes).
        let walk: Walk<false, false, true> = Walk::line(500, 450, 300);
        let report = solve(&walk, &Limits::default(), &mut Tables::new(1 << 20));
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.turns, 7);
        assert_eq!(report.nodes, 3 * 100 + 3 * 200 + 150);
    }

    #[test]
    fn a_narrowed_walk_that_ends_proves_nothing() {
        let report = solve_walk(Walk::line(500, 600, 300), 1 << 20);
        assert_eq!(report.verdict, Verdict::Lost);
        assert_eq!(report.nodes, 100 + 300 + 301 + 401, "the full walk decides");
    }

    fn solve_guided(walk: Walk<true>) -> Report {
        solve(&walk, &Limits::default(), &mut Tables::new(1 << 20))
    }

    #[test]
    fn a_best_first_attempt_comes_first_and_makes_every_move() {
        // The wall that stops the narrowed walks does not stop it.
        let report = solve_guided(Walk::line(50, 40, 20));
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.turns, 1);
        assert_eq!(report.moves.len(), 0, "a walk's moves print as nothing");
    }

    #[test]
    fn a_best_first_attempt_that_expands_everything_proves_a_loss() {
        let report = solve_guided(Walk::line(50, 60, 20));
        assert_eq!(report.verdict, Verdict::Lost);
        assert_eq!(report.turns, 1);
    }

    #[test]
    fn best_first_has_twice_the_nodes_and_takes_turns_with_narrowed_walks() {
        // Best-first runs out at 200 nodes; level 1 ends at the wall, 21
        // positions in, and level 2, with 900 nodes, after it in the same
        // round; both are dropped once the round is over, and best-first,
        // with 5400 nodes, goes on from where it stopped to expand 1500
        // positions in all, the last one's child being the goal.
        let report = solve_guided(Walk::line(5000, 1500, 20));
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.turns, 4);
        assert_eq!(report.nodes, 1500 + 21 + 21);
    }

    #[test]
    fn a_best_first_attempt_past_its_memory_gives_up() {
        let walk: Walk<true> = Walk::line(100_000, 100_000, 0);
        let limits = Limits::default();
        let mut search = Search::new(&walk, &Plan::FULL_WALK, &limits);
        let mut table = Table::new(1 << 20);
        table.insert(walk.key(&0));
        let mut best_first = BestFirst::new(0, 4096);
        assert!(matches!(
            best_first.resume(&mut search, &mut table),
            End::OutOfRoom
        ));
        assert!(search.nodes < 100_000);
    }

    #[test]
    fn a_tactic_is_named_as_tactic_takes_it() {
        let all = [Tactic::BestFirst, Tactic::Full, Tactic::Narrowed(3)];
        let all = all
            .into_iter()
            .chain([Tactic::Rollouts(12), Tactic::Beam(2)]);
        for tactic in all {
            assert_eq!(tactic.to_string().parse::<Tactic>(), Ok(tactic));
        }
    }

    #[test]
    fn the_tactics_share_the_tables_cap() {
        let mut tables = Tables::<u64>::new(1 << 20);
        let walk: Walk = Walk::line(500, 450, 300);
        let report = solve(&walk, &Limits::default(), &mut tables);
        assert_eq!(tables.split(3).len(), 3, "one table a tactic");
        assert!(report.table_bytes <= 1 << 20);
        let kept: usize = tables.split(3).iter().map(Table::cap).sum();
        assert_eq!(kept, 3 * ((1 << 20) / 3));
    }

    #[test]
    fn a_path_longer_than_the_cap_stops_each_walk_in_turn() {
        // A path of a million positions takes over 64 MiB: more than a
        // 1 MiB table allows, less than a 1 GiB one. The full walk gives
        // up first, and the narrowed ones, free of their wall here, go on
        // until they give up too.
        let long = || Walk::line(1_000_000, 1_000_000, 1_000_000);
        let cramped = solve_walk(long(), 1 << 20);
        assert_eq!(cramped.verdict, Verdict::Unknown);
        assert_eq!(cramped.stop, Some(Stop::Memory));
        let full = solve_alone(
            &long(),
            &Limits::default(),
            &mut Tables::new(1 << 20),
            Tactic::Full,
        );
        assert_eq!(full.stop, Some(Stop::Memory));
        assert!(
            cramped.nodes > 2 * full.nodes,
            "{} {}",
            cramped.nodes,
            full.nodes
        );
        assert_eq!(solve_walk(long(), 1 << 30).verdict, Verdict::Won);
    }

    /// A crew's walks that all run out of room say so, on one thread as on
    /// two: the one walk that may leave unfinished leaves no walk that can
    /// prove a loss when it is alone.
    #[test]
    fn shared_walks_out_of_room_stop_for_memory() {
        for threads in [1, 2] {
            let long = Walk::line(1_000_000, 1_000_000, 1_000_000);
            let report = solve_walk_on(long, threads, 1 << 20);
            assert_eq!(report.verdict, Verdict::Unknown);
            assert_eq!(report.stop, Some(Stop::Memory), "{threads} threads");
        }
    }

    /// A beam's turn taken beside the full walk's, in a round long enough
    /// for it (on a machine of two cores or more), gives what the turns
    /// one after the other give: the walk's win, found in its turn, with
    /// the beam's turn stopped and its nodes not counted (a leaf on the
    /// left of a tree 22 deep, which the beam finds too); the beam's win,
    /// once the walk's turn is over (the start's right child, which the
    /// walk reaches only after the left half of the tree).
    #[test]
    fn a_beam_beside_a_walk_decides_as_after_it() {
        for goal in [(1 << 22) + 3, 3] {
            let tree = tree::Tree {
                depth: 22,
                goal: Some(goal),
            };
            let turns = |pooled: bool| {
                let mut tables = Tables::new(1 << 26);
                if pooled {
                    tables = tables.in_pool();
                }
                let tactics = vec![Tactic::Full, Tactic::Beam(1)];
                take_turns(
                    &tree,
                    &Plan::FULL_WALK,
                    &Limits::default(),
                    &mut tables,
                    tactics,
                    BESIDE_FROM,
                    None,
                )
            };
            let (after, beside) = (turns(false), turns(true));
            assert_eq!(after.verdict, Verdict::Won);
            let summary = |r: &Report| (r.nodes, r.turns, r.decided_by, r.moves.clone());
            assert_eq!(summary(&beside), summary(&after), "goal {goal}");
        }
    }

    #[test]
    fn a_narrowed_walk_goes_on_to_win_when_the_full_walk_is_out_of_room() {
        // With 100 MiB of room a walk's path gives out about 1.05M
        // positions deep (its vectors double there), short of the goal.
        // The first walk to get that deep gives up, and the two left,
        // free of their wall here, get 150 MiB each and go on to win.
        let report = solve_walk(Walk::line(9_000_000, 1_500_000, 9_000_000), 300 << 20);
        assert_eq!(report.verdict, Verdict::Won, "{:?}", report.stop);
    }

    /// Rollouts count nodes between expansions, so the check of memory
    /// goes by expansions. On a ring of 2047 positions every rollout plays
    /// through all of them, so each expansion comes 2048 nodes after the
    /// last: a check at every 1024th node count would never fall on one,
    /// and the attempt would run on to the ring's end past its 4 KiB.
    #[test]
    fn a_search_led_by_rollouts_past_its_memory_gives_up() {
        let ring: Walk = Walk::ring(2046);
        let limits = Limits::default();
        let mut search = Search::new(&ring, &Plan::FULL_WALK, &limits);
        let mut table = Table::new(1 << 20);
        table.insert(ring.key(&0));
        let mut best_first = BestFirst::with_rollouts(0, 1, 1, 4096);
        assert!(matches!(
            best_first.resume(&mut search, &mut table),
            End::OutOfRoom
        ));
    }

    fn solve_by_rollouts(walk: Walk, max_nodes: Option<u64>) -> Report {
        let limits = Limits {
            max_nodes,
            ..Limits::default()
        };
        solve_alone(
            &walk,
            &limits,
            &mut Tables::new(1 << 20),
            Tactic::Rollouts(1),
        )
    }

    #[test]
    fn a_rollout_that_wins_ends_the_search_with_its_line() {
        // The start is expanded (1 node); the rollout from its one child
        // plays forward through positions 1 to 15 (15 nodes), the goal.
        let report = solve_by_rollouts(Walk::line(50, 15, 20), None);
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.nodes, 16);
        assert_eq!(report.best, 15);
    }

    #[test]
    fn rollouts_that_run_dry_prove_nothing() {
        // Narrowed, the rollouts and the search stop at the wall.
        let report = solve_by_rollouts(Walk::line(50, 40, 20), None);
        assert_eq!(report.verdict, Verdict::Unknown);
        assert_eq!(report.stop, Some(Stop::Narrowed));
        assert_eq!(report.best, 20);
    }

    /// The rollout from position 1 plays on to the wall at 20 (20 nodes).
    /// Each position expanded after it passes its rollout's first move on
    /// to the child it leads to, with its score: positions 2 to 9 take the
    /// first rollout's next eight moves, and only 10 and 19 roll out again
    /// (11 and 2 nodes). With the 21 positions expanded, 54 nodes, where a
    /// rollout from every child takes 251 (21 + 20 + 19 + ... + 2, and 21
    /// from 20, which walks back to 0 where the rollout from 19 went no
    /// further: the hint's score is not always the child's own).
    #[test]
    fn a_child_on_its_parents_rollout_takes_its_score_without_one() {
        let report = solve_by_rollouts(Walk::line(50, 40, 20), None);
        assert_eq!(report.stop, Some(Stop::Narrowed));
        assert_eq!(report.nodes, 21 + 20 + 11 + 2);
    }

    /// The search is narrowed, and stops at the wall, but its rollouts
    /// play at the level the game asks for: every move, past the wall.
    #[test]
    fn rollouts_play_at_the_games_rollout_level() {
        let walk: Walk<false, true> = Walk::line(50, 40, 20);
        let mut tables = Tables::new(1 << 20);
        let report = solve_alone(&walk, &Limits::default(), &mut tables, Tactic::Rollouts(1));
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.best, 40);
    }

    #[test]
    fn a_rollout_stops_at_the_node_limit() {
        let report = solve_by_rollouts(Walk::line(50, 15, 20), Some(10));
        assert_eq!(report.verdict, Verdict::Unknown);
        assert_eq!(report.stop, Some(Stop::MaxNodes));
        assert_eq!(report.nodes, 10);
    }

    /// A table of a few thousand positions has long forgotten the start
    /// when the walk comes round the ring to it; only the path guard then
    /// knows the start is on the path. Without it the walk would go round
    /// again and again, until the path outgrew its cap.
    #[test]
    fn the_path_guard_ends_a_cycle_the_table_forgot() {
        let ring = Walk::ring(199_999);
        let report = solve_walk(ring, 64 << 10);
        assert_eq!(report.verdict, Verdict::Lost, "{:?}", report.stop);
    }
    fn solve_walk_on(walk: Walk, threads: usize, memory: usize) -> Report {
        let limits = Limits {
            memory,
            ..Limits::default()
        };
        solve_parallel(&walk, &limits, threads, Some(Tactic::Full))
    }

    /// A search tells its progress as it goes: on one thread and on two,
    /// the nodes told fall short of the report's by less than a check's
    /// worth a thread, and the most cards home is the report's, or close.
    #[test]
    fn a_search_tells_how_far_it_got() {
        for threads in [1, 2] {
            let progress = Arc::new(Progress::default());
            let limits = Limits {
                progress: Some(progress.clone()),
                ..Limits::default()
            };
            let line = Walk::<true>::line(50_000, 60_000, 50_000);
            let report = match threads {
                1 => solve(&line, &limits, &mut Tables::new(limits.memory)),
                _ => solve_parallel(&line, &limits, threads, None),
            };
            assert_eq!(report.verdict, Verdict::Lost);
            let told = progress.nodes();
            assert!(told <= report.nodes, "{told} of {}", report.nodes);
            assert!(told + threads as u64 * CHECK_EVERY > report.nodes, "{told}");
            assert!(progress.best() <= report.best);
            assert!(progress.best() + CHECK_EVERY as u32 >= report.best);
        }
    }

    /// The walks on several threads share the line: each is won where the
    /// goal is, and lost without one.
    #[test]
    fn walks_on_several_threads_find_the_goal_or_prove_there_is_none() {
        for threads in [2, 3, 4] {
            let won = solve_walk_on(Walk::line(5000, 4000, 5000), threads, 1 << 20);
            assert_eq!(won.verdict, Verdict::Won);
            let lost = solve_walk_on(Walk::line(5000, 6000, 5000), threads, 1 << 20);
            assert_eq!(lost.verdict, Verdict::Lost);
            assert!(lost.nodes >= 5001, "every position expanded");
        }
    }

    /// As [`the_path_guard_ends_a_cycle_the_table_forgot`], with the walks
    /// on two threads sharing the small table.
    #[test]
    fn the_path_guard_ends_a_cycle_the_shared_table_forgot() {
        let ring = Walk::ring(199_999);
        let report = solve_walk_on(ring, 2, 64 << 10);
        assert_eq!(report.verdict, Verdict::Lost, "{:?}", report.stop);
    }

    /// A node limit holds over all the threads together.
    #[test]
    fn the_node_limit_counts_every_thread() {
        let limits = Limits {
            max_nodes: Some(3001),
            ..Limits::default()
        };
        let line: Walk = Walk::line(1_000_000, 900_000, 1_000_000);
        let report = solve_parallel(&line, &limits, 2, None);
        assert_eq!(report.stop, Some(Stop::MaxNodes));
        assert!(report.nodes <= 3001, "{}", report.nodes);
    }

    /// A crew of `walkers` walks of the test game, its table capped at
    /// 64 KiB.
    fn crew(walkers: usize) -> Crew<Walk> {
        Crew {
            threads: walkers,
            prover: Some(Tactic::Full),
            walkers,
            table: SharedTable::new(1 << 16),
            frontier: None,
            walks: Mutex::new(Walks::default()),
            seats: AtomicUsize::new(0),
            halt: AtomicBool::new(false),
            narrowed_ended: AtomicU32::new(0),
        }
    }

    /// A thread's own tables and the crew's never hold more than its
    /// share: the crew takes the share of each table that ends, up to as
    /// much as each left has, and the whole once none is; but not a part
    /// too small for its table to grow into, until the last.
    #[test]
    fn a_thread_gives_the_crew_the_share_of_its_tables_that_end() {
        const MIB: usize = 1 << 20;
        let purse = |cap: usize, each: usize| Purse {
            cap: cap * MIB,
            given: 0,
            each: each * MIB,
        };
        // Gives, then says what the crew was given and each table keeps.
        let give = |crew: &Crew<Walk>, purse: &mut Purse, own, sharing| {
            purse.give(crew, own, sharing);
            ((crew.table.cap() - (1 << 16)) / MIB, purse.each / MIB)
        };
        let (crew, mut four) = (crew(2), purse(300, 75));
        assert_eq!(give(&crew, &mut four, 4, true), (0, 75), "nothing ended");
        assert_eq!(give(&crew, &mut four, 3, true), (75, 75));
        assert_eq!(
            give(&crew, &mut four, 1, true),
            (150, 150),
            "as much as the one left"
        );
        assert_eq!(give(&crew, &mut four, 1, true), (150, 150), "given once");
        assert_eq!(give(&crew, &mut four, 0, true), (300, 0));

        let (crew, mut left) = (self::crew(2), purse(300, 100));
        assert_eq!(
            give(&crew, &mut left, 2, false),
            (0, 150),
            "a thread whose walk left keeps it"
        );
        assert_eq!(give(&crew, &mut left, 0, false), (300, 0));

        let crew = self::crew(2);
        let mut small = Purse {
            cap: 300,
            given: 0,
            each: 100,
        };
        small.give(&crew, 2, true);
        assert_eq!(
            (crew.table.cap(), small.each),
            (1 << 16, 100),
            "too small to grow into"
        );
        small.give(&crew, 0, true);
        assert_eq!(crew.table.cap(), (1 << 16) + 300, "the last part");
    }

    /// One walk of a crew may leave unfinished, never a second; the deal
    /// is lost once every walk ended, or all but the one that left, and
    /// never on a leaving alone.
    #[test]
    fn one_walk_may_leave_the_crew() {
        let three = crew(3);
        assert_eq!(three.leave(), Some(false));
        assert_eq!(three.leave(), None, "a second walk stays");
        assert!(!three.walk_ended());
        assert!(three.walk_ended());

        let two = crew(2);
        assert!(!two.walk_ended());
        assert_eq!(two.leave(), Some(true), "the other walk had ended");

        let lone = crew(1);
        assert_eq!(lone.leave(), Some(false), "no walk ended: not lost");
        let lone = crew(1);
        assert!(lone.walk_ended());
    }

    /// Walks on several threads in a table that forgets at once: all but
    /// one ask to leave, one does, and the verdicts stay those of the line
    /// and the ring, time after time (the threads interleave differently
    /// each run).
    #[test]
    fn a_walk_that_leaves_a_forgetting_table_keeps_the_verdicts() {
        let ring = || Walk::ring(49_999);
        for run in 0..10 {
            let threads = 2 + run % 3;
            let won = solve_walk_on(Walk::line(50_000, 40_000, 50_000), threads, 16 << 10);
            assert_eq!(won.verdict, Verdict::Won, "{threads} threads");
            let lost = solve_walk_on(Walk::line(50_000, 60_000, 50_000), threads, 16 << 10);
            assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
            let lost = solve_walk_on(ring(), threads, 16 << 10);
            assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
        }
    }

    /// Best-first search shared by several threads, as Raglan's is: the
    /// line is won where the goal is and lost without one, and the ring
    /// lost, on two to four threads, time after time; with the game's
    /// tactics, the narrowed walks taking turns on some threads.
    #[test]
    fn a_best_first_search_shared_by_several_threads_keeps_the_verdicts() {
        let ring = Walk::<true>::ring(9_999);
        for run in 0..6 {
            let threads = 2 + run % 3;
            let limits = Limits::default();
            for tactic in [Some(Tactic::BestFirst), None] {
                let solve = |walk: &Walk<true>| solve_parallel(walk, &limits, threads, tactic);
                let won = solve(&Walk::line(10_000, 9_000, 20));
                assert_eq!(won.verdict, Verdict::Won, "{threads} threads");
                let lost = solve(&Walk::line(10_000, 20_000, 20));
                assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
                assert!(lost.nodes >= 10_001, "every position expanded");
                let lost = solve(&ring);
                assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
            }
        }
    }

    /// A shared best-first search past its room stops on every thread, and
    /// the last member to leave empties the table, none before.
    #[test]
    fn a_full_shared_best_first_search_empties_its_table_for_the_walks() {
        let walk: Walk<true> = Walk::line(100_000, 100_000, 0);
        let limits = Limits::default();
        let table = SharedTable::<u64>::new(1 << 20);
        let visit = |key: u64| SharedView::new(&table).visit(key, key.table_hash());
        visit(walk.key(&0));
        let frontier = Frontier::new(&walk, 0, 2);
        let mut search = Search::new(&walk, &Plan::FULL_WALK, &limits);
        let mut second = SharedBestFirst::new(1, 1 << 30);
        search.turn_end = 10;
        let end = second.resume(&mut search, &frontier, &mut SharedView::new(&table));
        assert!(matches!(end, End::OutOfNodes), "a member now");
        search.turn_end = u64::MAX;
        let mut first = SharedBestFirst::new(0, 4096);
        let end = first.resume(&mut search, &frontier, &mut SharedView::new(&table));
        assert!(matches!(end, End::OutOfRoom));
        assert!(search.nodes < 100_000);
        first.quit(&frontier, &table);
        assert_ne!(
            visit(walk.key(&1)),
            shared::Visit::Fresh,
            "kept while a member is in"
        );
        let end = second.resume(&mut search, &frontier, &mut SharedView::new(&table));
        assert!(matches!(end, End::OutOfRoom), "the search is full for all");
        second.quit(&frontier, &table);
        assert!(frontier.wait_emptied(&search).is_ok());
        assert_eq!(
            visit(walk.key(&1)),
            shared::Visit::Fresh,
            "the table forgot the search's positions"
        );
    }
}
