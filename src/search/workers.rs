//! One deal searched on several threads, the *workers*, each numbered by
//! its *worker index* in the order it started.
//!
//! Where the game's exhaustive tactic is the full walk, every worker
//! walks, and the walks share one table (see [`super::shared`]): a
//! position one walk expanded the others leave alone, and one another
//! walk is still inside each leaves for last, so they split the positions
//! between them. Where it is the relaxed walk, every worker walks the
//! relaxation so, and once one wins it by a line that is not the game's,
//! each in turn walks the next refinement, or where there is none the
//! full walk, in the same table (the keys of each are apart from those
//! before), counted apart ([`Workers::refine`]). Where it
//! is best-first search, every worker takes part
//! in one, with one queue and one table ([`Frontier`], which says why its
//! `lost` is exact); if it outgrows its room, shared walks take its
//! place, as a walk does on one thread. The other tactics are dealt out
//! among the workers, each with its table, and each worker takes turns at
//! its own as on one thread (see [`super::rounds`]). In a game whose beam
//! stays to the end ([`super::Plan::beam_stays`]), one worker takes every
//! turn, as on one thread, and the beam plays its rollouts on all of them
//! (see [`super::beam`]). The first worker to decide stops the others; a
//! verdict is never a worker's guess.
//!
//! Why `lost` stays exact: a walk that ends has tried every move from
//! every position it expanded; each such move led to a position it
//! expanded itself, or one the table held (which some walk expanded, as
//! keys are exact and a torn slot is never believed), or one on its own
//! path (expanded). Once every walk ended, the positions they expanded
//! include the start and every move from each of them, so they are every
//! position reachable, and none was won. A walk that stopped for time
//! never ends, and the deal is then not `lost`. A table that forgets
//! costs time only, and each walk's path guard keeps it off cycles.
//!
//! One walk, and only one, may *leave* unfinished: once the table is
//! crowded ([`SharedTable::is_crowded`]: two walks through a table that
//! forgets often search far more positions than one), or when its path
//! outgrows its room. A loss then needs every other walk to have ended
//! ([`Workers::leave`] says why that is enough).
//!
//! Nodes, like `--max-nodes`, are counted over all workers (each has an
//! even share of the limit), and so is memory: the shared table has the
//! exhaustive tactic's share of the cap, each worker's tables the shares
//! of its tactics, each walk's path the table's share split among the
//! walks, and the shared best-first search's queue and expanded positions
//! the table's share. As a worker's own tasks end, the shared table takes
//! their share (see [`super::memory`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::time::Instant;

use super::best_first::Frontier;
use super::rounds::take_turns;
use super::shared::{SharedTable, SharedView};
use super::{ALONE, Limits, Planned, Report, Stop, Tables, Tactic, Verdict};
use crate::game::Game;
use crate::key::TableKey;

/// What the workers searching one deal share.
pub(super) struct Workers<G: Game> {
    /// Threads a beam plays its rollouts on.
    pub(super) threads: usize,
    /// The exhaustive tactic, when every worker takes a part in it: the
    /// full walk or best-first search.
    pub(super) shared_tactic: Option<Tactic>,
    /// Workers whose full walks share `table`: every worker, where walks
    /// may take the place of a shared best-first search.
    pub(super) shared_walks: usize,
    /// The full walks' table, or the table of the positions queued by the
    /// best-first search.
    pub(super) table: SharedTable<G::Key>,
    /// The queue of the best-first search the workers share.
    pub(super) frontier: Option<Frontier<G>>,
    /// Shared full walks on it that ended, or left: the exhaustive
    /// tactic's, or those that took a best-first search's place or the
    /// relaxed walks' (which count among them only those that joined: see
    /// [`Workers::refine`]).
    walk_ends: Mutex<WalkEnds>,
    /// The relaxation the shared relaxed walks walk, and their count.
    relaxation: Mutex<Relaxation<G::State, G::Move>>,
    /// The relaxation's generation, read at each turn of a relaxed walk.
    generation: AtomicU32,
    /// Workers that started: the next one's worker index.
    pub(super) started: AtomicUsize,
    /// Set when a worker decided the deal, or the clock or Ctrl-C stopped
    /// its search: the others stop at their next position.
    pub(super) halt: AtomicBool,
    /// The widest level of narrowing whose search ended on any worker: no
    /// narrower one can win either.
    pub(super) narrowed_ended: AtomicU32,
}

/// How the shared walks stand.
#[derive(Debug, Default)]
struct WalkEnds {
    /// The walks taking part.
    walks: usize,
    ended: usize,
    /// Whether one left (only one may: see [`Workers::leave`]).
    left: bool,
}

impl WalkEnds {
    /// The count of `walks` walks, none ended yet.
    fn of(walks: usize) -> WalkEnds {
        WalkEnds {
            walks,
            ..WalkEnds::default()
        }
    }

    /// Every walk has ended, or left with the others ended.
    fn all_done(&self) -> bool {
        self.ended > 0 && self.ended + usize::from(self.left) == self.walks
    }
}

/// The relaxation the workers' relaxed walks walk: its refinement, and
/// how its walks stand.
struct Relaxation<S, M> {
    /// The refinements so far; one more once the full walk took over.
    generation: u32,
    /// The deal's position in the refinement; none for the first.
    root: Option<S>,
    /// The line of the last win of the relaxation, which the walks after
    /// it follow first (see [`super::walk::Walk::following`]).
    guide: Vec<M>,
    /// Whether the full walk took the relaxed walks' place.
    handed_over: bool,
    ends: WalkEnds,
}

/// What a worker walks once its relaxed walk won the relaxation, and the
/// line of the win its walk follows first.
pub(super) enum Joined<S, M> {
    /// The relaxed walk of a refinement: its deal and generation.
    Relaxed(S, u32, Vec<M>),
    /// The full walk, the relaxation given up.
    Full(Vec<M>),
}

impl<G: Game> Workers<G> {
    /// The workers of `threads` threads, `walks` of whose walks take part
    /// in the exhaustive tactic if they share it (`shared_tactic`), in
    /// `table` (and `frontier`, for best-first search).
    pub(super) fn new(
        threads: usize,
        shared_tactic: Option<Tactic>,
        walks: usize,
        table: SharedTable<G::Key>,
        frontier: Option<Frontier<G>>,
    ) -> Workers<G> {
        let relaxing = shared_tactic == Some(Tactic::Relaxed);
        Workers {
            threads,
            shared_tactic,
            shared_walks: walks,
            table,
            frontier,
            // The full walks after a relaxed walk's count from when they join.
            walk_ends: Mutex::new(WalkEnds::of(if relaxing { 0 } else { walks })),
            relaxation: Mutex::new(Relaxation {
                generation: 0,
                root: None,
                guide: Vec::new(),
                handed_over: false,
                ends: WalkEnds::of(if relaxing { walks } else { 0 }),
            }),
            generation: AtomicU32::new(0),
            started: AtomicUsize::new(0),
            halt: AtomicBool::new(false),
            narrowed_ended: AtomicU32::new(0),
        }
    }

    /// Runs `count` on the count of the shared walks of `tactic`, if they
    /// are still walked: a relaxed walk of a generation left behind counts
    /// for nothing.
    fn count<T>(
        &self,
        tactic: Tactic,
        generation: u32,
        count: impl FnOnce(&mut WalkEnds) -> T,
    ) -> Option<T> {
        match tactic {
            Tactic::Relaxed => {
                let mut relaxation = self.relaxation.lock().expect("no thread panics holding it");
                (relaxation.generation == generation && !relaxation.handed_over)
                    .then(|| count(&mut relaxation.ends))
            }
            _ => Some(count(
                &mut self.walk_ends.lock().expect("no thread panics holding it"),
            )),
        }
    }

    /// Counts a shared walk of `tactic` (and `generation`, if relaxed)
    /// that ended; says whether the deal is proven lost.
    pub(super) fn walk_ended(&self, tactic: Tactic, generation: u32) -> bool {
        let ended = self.count(tactic, generation, |walks| {
            walks.ended += 1;
            walks.all_done()
        });
        ended == Some(true)
    }

    /// The relaxation's generation: the refinements so far.
    pub(super) fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Whether the relaxation was refined (or handed over to the full
    /// walk) since a walk of `generation` began: such a walk proves
    /// nothing.
    pub(super) fn refined_past(&self, generation: u32) -> bool {
        self.generation() != generation
    }

    /// Says that a relaxed walk of `generation` won the relaxation by
    /// `line`, which is not the game's, `refined` the deal's position in
    /// the next refinement if the game has one (see [`Game::refined`]): the
    /// workers then walk that refinement, or the full walk if there is
    /// none. Counts this worker's walk among those of what they walk now,
    /// and says which it is. (The walk of a generation left behind only
    /// joins: another won it first.)
    ///
    /// The walks of a refinement, or the full walks, share the table with
    /// those before them, whose keys are apart, and prove a loss among
    /// themselves, as the workers' walks do (see [`super::workers`]): each
    /// counts from when it joins, so a loss needs every walk that joined
    /// to have ended. One that joins after the others ended finds the deal
    /// decided already: they covered every position without it. A worker
    /// whose relaxed walk ended before the relaxation was won has none to
    /// hand over, and does not join.
    pub(super) fn refine(
        &self,
        generation: u32,
        refined: Option<G::State>,
        line: Vec<G::Move>,
    ) -> Joined<G::State, G::Move> {
        let mut relaxation = self.relaxation.lock().expect("no thread panics holding it");
        if relaxation.generation == generation && !relaxation.handed_over {
            relaxation.generation += 1;
            relaxation.guide = line;
            match refined {
                Some(root) => {
                    relaxation.root = Some(root);
                    relaxation.ends = WalkEnds::default();
                }
                None => relaxation.handed_over = true,
            }
            self.generation
                .store(relaxation.generation, Ordering::Relaxed);
        }
        let guide = relaxation.guide.clone();
        match (relaxation.handed_over, relaxation.root) {
            (false, Some(root)) => {
                relaxation.ends.walks += 1;
                Joined::Relaxed(root, relaxation.generation, guide)
            }
            _ => {
                drop(relaxation);
                self.count(Tactic::Full, 0, |walks| walks.walks += 1);
                Joined::Full(guide)
            }
        }
    }

    /// Lets a shared walk leave unfinished, if no other did: says whether
    /// it may, and then whether the deal is proven lost. At a tight
    /// `--memory` two walks through a forgetting table search several
    /// times the positions of one, so all but one may ask to leave once it
    /// is crowded.
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
    /// A relaxed walk of a generation left behind leaves as it asks, and
    /// proves nothing.
    pub(super) fn leave(&self, tactic: Tactic, generation: u32) -> Option<bool> {
        let left = self.count(tactic, generation, |walks| {
            if walks.left {
                return None;
            }
            walks.left = true;
            Some(walks.all_done())
        });
        left.unwrap_or(Some(false))
    }
}

/// Searches `game` as [`solve`](super::solve) does, on `threads` threads
/// (or with one tactic alone, as [`solve_alone`](super::solve_alone)
/// does), within `limits.memory` in all; how the threads share the work,
/// and why the verdicts stay exact, is in [`super::workers`].
pub fn solve_parallel<G: Planned>(
    game: &G,
    limits: &Limits,
    threads: usize,
    tactic: Option<Tactic>,
) -> Report {
    let started = Instant::now();
    let threads = threads.max(1);
    let (tactics, budget) = match tactic {
        Some(tactic) => (vec![tactic], ALONE),
        None => (Tactic::all(&G::PLAN), G::PLAN.first_turn_nodes),
    };
    let share = limits.memory / tactics.len();
    let (exhaustive, others) = tactics.split_first().expect("at least one tactic");
    let walking = matches!(exhaustive, Tactic::Full | Tactic::Relaxed);
    let beaming = G::PLAN.beam_stays() && tactics.iter().any(|t| matches!(t, Tactic::Beam(_)));
    let pooling = *exhaustive == Tactic::BestFirst && !beaming;
    // With a beam one thread takes every turn, so its full walk has the
    // table to itself: a thread's own, grown as it fills, not the shared
    // one, whose pages the walk's scattered writes fault in a huge page
    // at a time.
    let sharing = (walking && !beaming) || pooling;
    let mut dealt: Vec<Vec<Tactic>> = match beaming {
        // A beam plays its rollouts on every thread itself; a second
        // thread's walk would only take turns from it.
        true => vec![tactics.clone()],
        false => (0..threads)
            .map(|thread| {
                let first = (walking || thread == 0).then_some(*exhaustive);
                let offset = usize::from(!walking);
                let theirs = (others.iter().enumerate())
                    .filter(|(i, _)| (i + offset) % threads == thread)
                    .map(|(_, &tactic)| tactic);
                first.into_iter().chain(theirs).collect()
            })
            .collect(),
    };
    // A worker with no tactic of its own joins the shared best-first
    // search at once (see `take_turns`).
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
    let shared_tactic = sharing.then_some(*exhaustive);
    let shared_walks = if sharing { dealt.len() } else { 0 };
    let workers = Workers::new(threads, shared_tactic, shared_walks, table, frontier);
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let workers = &workers;
        let handles: Vec<_> = (dealt.into_iter().enumerate())
            .map(|(thread, tactics)| {
                let locals = tactics.iter().filter(|&&t| !(sharing && t == *exhaustive));
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
                        Some(workers),
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
            // Each worker stopped on its own: say the weightiest reason.
            let rank = |stop: Option<Stop>| match stop {
                Some(Stop::Timeout) => 5,
                Some(Stop::MaxNodes) => 4,
                Some(Stop::Interrupted) => 3,
                Some(Stop::Memory) => 2,
                Some(Stop::Narrowed | Stop::Relaxed) => 1,
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
            .max(workers.table.len()),
        table_bytes: reports.iter().map(|r| r.table_bytes).sum::<usize>() + workers.table.bytes(),
        best: reports.iter().map(|r| r.best).max().unwrap_or(0),
        longest_line: Vec::new(),
        elapsed: started.elapsed(),
        decided_by,
    }
}
