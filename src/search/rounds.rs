//! The scheduler of one thread: its tasks take turns, round after round,
//! until one of them decides the deal (the terms are defined in
//! [`super`]).
//!
//! A turn's budget counts its task's nodes over all its turns so far (see
//! `budget::budgeted`). Each turn's budget is [`TURN_GROWTH`] times the
//! one before, times its tactic's weight ([`Tactic::weight`]), or, with
//! [`Plan::growth_by_round`], every turn of a round has the same and the
//! next round [`TURN_GROWTH`] times as much. A task whose attempt ends
//! without a verdict leaves the schedule once the round is over (a
//! narrowed walk with the narrower ones and the beams it covers, see
//! [`narrower`]), and the tasks left share its table (see
//! [`super::memory`]). An exhaustive attempt that runs out of room gives
//! its place to a full walk, or, if it is the full walk, leaves the search
//! unable to prove a loss.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::memory::{MemoryShare, share_tables};
use super::task::Task;
use super::workers::{Joined, Workers};
use super::{ALONE, End, Limits, Plan, Report, Search, Stop, Table, Tables, Tactic, Verdict};
use crate::game::Game;
use crate::notation;

/// How much larger each turn's budget is than the one before. Turns take
/// up their attempts where they stopped, so this only sets how finely the
/// tactics share the nodes.
const TURN_GROWTH: u64 = 3;

/// Takes turns at `tactics`, the first turn with `first` nodes, in
/// `tables`, until one decides or none is left; with `workers`, as one of
/// the threads searching the deal together (see [`super::workers`]).
pub(super) fn take_turns<G: Game>(
    game: &G,
    plan: &Plan,
    limits: &Limits,
    tables: &mut Tables<G::Key>,
    tactics: Vec<Tactic>,
    mut first: u64,
    workers: Option<&Workers<G>>,
) -> Report {
    let started = Instant::now();
    let mut search = Search::new(game, plan, limits);
    search.halt = workers.map(|workers| &workers.halt);
    search.threads = match workers {
        Some(workers) => workers.threads,
        None if tables.pooled() => rayon::current_num_threads(),
        None => 1,
    };
    let shared = |tactic| workers.is_some_and(|workers| workers.shared_tactic == Some(tactic));
    let own = tactics.iter().filter(|&&t| !shared(t)).count();
    let memory = MemoryShare::new(tables.cap(), own);
    let tables = tables.split(own);
    let mut local = 0..;
    // The walk of the first worker to start never asks to leave.
    let worker = workers.map(|workers| workers.started.fetch_add(1, Ordering::Relaxed));
    // Best-first search shared by the workers is the first worker's first
    // tactic; the others join it once their own tactics have ended, so
    // that a narrowed walk, which wins some deals far sooner, keeps a
    // thread to itself as long as it can win.
    let mut joins = workers.is_some_and(|workers| workers.frontier.is_some())
        && !tactics.contains(&Tactic::BestFirst);
    let mut tasks: Vec<Task<G>> = (tactics.into_iter())
        .map(|tactic| match shared(tactic) {
            true => Task::sharing(tactic, worker != Some(0)),
            false => Task::new(tactic, local.next().expect("unbounded")),
        })
        .collect();
    let root = game.initial();
    search.best = game.cards_home(&root);
    let mut scheduler = Scheduler {
        search,
        workers,
        worker,
        memory,
        turns: 0,
        table_peak: 0,
        exhaustive_out_of_room: false,
        last: None,
        ended: Vec::new(),
        relaxation_won: false,
        alone: first == ALONE,
    };
    let (verdict, stop, moves) = if game.is_won(&root) {
        (Verdict::Won, None, Vec::new())
    } else {
        loop {
            if let Some(workers) = workers {
                let level = workers.narrowed_ended.load(Ordering::Relaxed);
                if level > 0 {
                    remove_tasks(
                        &mut tasks,
                        tables,
                        &mut scheduler.memory,
                        Some(workers),
                        narrower(plan, level),
                    );
                }
                // This thread's own tables are no longer used: the shared
                // one may have their share, as a table left alone does.
                if tasks.iter().all(|task| task.shared) {
                    scheduler.memory.give(workers, 0, true);
                }
            }
            if tasks.is_empty() && std::mem::take(&mut joins) {
                tasks.push(Task::sharing(Tactic::BestFirst, worker != Some(0)));
            }
            if tasks.is_empty() {
                let stop = match (scheduler.exhaustive_out_of_room, scheduler.relaxation_won) {
                    (true, _) => Stop::Memory,
                    (false, true) => Stop::Relaxed,
                    (false, false) => Stop::Narrowed,
                };
                break (Verdict::Unknown, Some(stop), Vec::new());
            }
            let (budgets, next) = round_budgets(plan, &tasks, first);
            first = next;
            if let Some(decided) = scheduler.play(&mut tasks, tables, &budgets) {
                break decided;
            }
            let ended = std::mem::take(&mut scheduler.ended);
            if !ended.is_empty() {
                remove_tasks(&mut tasks, tables, &mut scheduler.memory, workers, |t| {
                    ended.contains(&t)
                });
            }
        }
    };
    let Scheduler {
        search,
        turns,
        table_peak,
        last,
        ..
    } = scheduler;
    if let Some(workers) = workers {
        // A verdict, the clock and Ctrl-C end every worker's search: the
        // others stop at their next position, not at their next clock
        // reading, which a worker faulting in a grown table's fresh pages
        // may not make for a second or more.
        if verdict != Verdict::Unknown || matches!(stop, Some(Stop::Timeout | Stop::Interrupted)) {
            workers.halt.store(true, Ordering::Relaxed);
            workers.table.stop_growing();
        }
        // A thread that stops still in the workers' best-first search
        // leaves it, so that walks waiting to take its place are not kept
        // waiting.
        for task in &mut tasks {
            task.quit(workers);
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

/// The least budget of a beam's turn taken in parallel with the walks'
/// turns (see [`Scheduler::parallel_beam`]): the thread their turns take
/// is made for the round, and most deals of a batch are decided in rounds
/// far shorter than it takes to make one, while both threads have deals
/// of their own.
pub(super) const PARALLEL_BEAM_FROM: u64 = 1_000_000;

/// The tactics a narrowed walk at `level` that ended without a win shows
/// cannot win (see [`Tactic::covered_by_narrowed`]).
fn narrower(plan: &Plan, level: u32) -> impl Fn(Tactic) -> bool + '_ {
    move |kept| kept.covered_by_narrowed(plan, level)
}

/// The budget of each turn of a round of `tasks` whose first turn has
/// `first` nodes (times its tactic's weight), and the budget of the next
/// round's first turn: each turn [`TURN_GROWTH`] times the one before,
/// or, with [`Plan::growth_by_round`], each round.
fn round_budgets<G: Game>(plan: &Plan, tasks: &[Task<G>], first: u64) -> (Vec<u64>, u64) {
    let mut next = first;
    let budgets = (tasks.iter())
        .map(|task| {
            let budget = next.saturating_mul(task.tactic.weight(plan));
            if !plan.growth_by_round {
                next = next.saturating_mul(TURN_GROWTH);
            }
            budget
        })
        .collect();
    if plan.growth_by_round {
        next = next.saturating_mul(TURN_GROWTH);
    }
    (budgets, next)
}

/// How a decided search ends: its verdict, why it stopped if unknown,
/// and the winning moves.
type Decided = (Verdict, Option<Stop>, Vec<notation::Move>);

/// One thread's schedule (see [`take_turns`]), round after round: each
/// task takes a turn in order, and those that end take no more turns and
/// leave the schedule once the round is over. Their tables go to the
/// walks left at once (a walk that runs out of room may then go on), but
/// to a beam only once the round is over: so a beam's turn, the last of a
/// round, hangs on nothing the turns before it in the round did but for a
/// verdict, and can be taken in parallel with them (see
/// [`Scheduler::play_with_parallel_beam`]) and search the same positions.
struct Scheduler<'a, G: Game> {
    search: Search<'a, G>,
    workers: Option<&'a Workers<G>>,
    /// This thread's index among the workers.
    worker: Option<usize>,
    memory: MemoryShare,
    turns: u32,
    table_peak: usize,
    exhaustive_out_of_room: bool,
    /// The tactic of the last turn taken: the one that decided, if any did.
    last: Option<Tactic>,
    /// The tactics that ended this round, to leave the schedule after it.
    ended: Vec<Tactic>,
    /// Whether the relaxed walk ended by winning the relaxation, with no
    /// finer one to walk.
    relaxation_won: bool,
    /// Whether the schedule is one tactic searched alone ([`ALONE`]): a
    /// relaxed walk that wins the relaxation, with no finer one to walk,
    /// then stops the search, where in a plan the full walk takes its
    /// place.
    alone: bool,
}

impl<'a, G: Game> Scheduler<'a, G> {
    /// Plays a round of `tasks`, each turn with its budget; gives the
    /// verdict if a turn decided.
    fn play(
        &mut self,
        tasks: &mut [Task<G>],
        tables: &mut [Table<G::Key>],
        budgets: &[u64],
    ) -> Option<Decided> {
        match self.parallel_beam(tasks, budgets) {
            Some(beam) => self.play_with_parallel_beam(tasks, tables, budgets, beam),
            None => self.take_round(tasks, tables, &mut [], None, budgets),
        }
    }

    /// Takes the turns of `tasks` in order, each with its budget, and
    /// shares out the tables of the tasks that end at once (see
    /// [`Scheduler`]); gives the verdict if a turn decided. The tables are
    /// `below` and `above` the one of the beam at `parallel_beam`, whose
    /// turn is under way on another thread; with none, `below` are all of
    /// them.
    fn take_round(
        &mut self,
        tasks: &mut [Task<G>],
        below: &mut [Table<G::Key>],
        above: &mut [Table<G::Key>],
        parallel_beam: Option<usize>,
        budgets: &[u64],
    ) -> Option<Decided> {
        let skip = parallel_beam.unwrap_or(below.len());
        for at in 0..tasks.len() {
            if self.ended.contains(&tasks[at].tactic) {
                continue;
            }
            let task = &mut tasks[at];
            let table = (!task.shared).then(|| match task.table < skip {
                true => &mut below[task.table],
                false => &mut above[task.table - skip - 1],
            });
            let end = self.turn(task, table, budgets[at]);
            let ending = self.ended.len();
            let decided = self.settle(end, tasks, at);
            if decided.is_some() {
                return decided;
            }
            if self.ended.len() > ending {
                let staying = |task: &&Task<G>| !self.ended.contains(&task.tactic);
                let kept: Vec<&Task<G>> = tasks.iter().filter(staying).collect();
                let tables = (below.iter_mut().enumerate())
                    .chain((above.iter_mut().enumerate()).map(|(t, table)| (t + skip + 1, table)));
                let (memory, workers) = (&mut self.memory, self.workers);
                share_tables(&kept, parallel_beam, true, tables, memory, workers);
            }
        }
        None
    }

    /// The beam whose turn may be taken in parallel with the walks' turns
    /// of this round, given each turn's budget: the last task, where its
    /// rollouts may use other threads (which would wait for the walks'
    /// turns otherwise), no node limit makes a turn hang on the nodes the
    /// turns before it took (the beam shares out what is left of the limit
    /// among its rollouts), and the round is long enough to be worth a
    /// thread (see [`PARALLEL_BEAM_FROM`]).
    fn parallel_beam(&self, tasks: &[Task<G>], budgets: &[u64]) -> Option<usize> {
        let at = tasks.len().checked_sub(1).filter(|&at| at > 0)?;
        let beam = &tasks[at];
        let free = self.search.threads > 1 && self.search.max_nodes.is_none();
        let long = budgets[at] >= PARALLEL_BEAM_FROM;
        (free && long && matches!(beam.tactic, Tactic::Beam(_)) && !beam.shared).then_some(at)
    }

    /// Plays a round as [`Scheduler::play`] does, the turn of the beam at
    /// `beam_at`, the last, in parallel with the walks' turns, which take a
    /// thread of their own, so that the pool's threads, which play the
    /// beam's rollouts, do not wait for them. The beam's turn counts as
    /// taken after theirs: if one of them decides, the beam's is stopped
    /// and its nodes are not counted, and its own verdict waits for
    /// theirs. A beam's turn hangs on nothing that theirs change, as no
    /// task leaves the schedule or gives its table to the others before
    /// the round is over, and it stops by its own nodes, not by the total.
    fn play_with_parallel_beam(
        &mut self,
        tasks: &mut [Task<G>],
        tables: &mut [Table<G::Key>],
        budgets: &[u64],
        beam_at: usize,
    ) -> Option<Decided> {
        let (walks, beams) = tasks.split_at_mut(beam_at);
        let beam = &mut beams[0];
        let tactic = beam.tactic;
        let at = beam.table;
        let (below, above) = tables.split_at_mut(at);
        let (beam_table, above) = above.split_first_mut().expect("the beam's own table");
        let stop = AtomicBool::new(false);
        let start = self.search.nodes;
        let mut beam_search = Search {
            halt: Some(&stop),
            ..self.search
        };
        let room = beam_table.cap().max(self.search.limits.room_floor);
        let budget = budgets[beam_at];
        // The walks go to a thread of their own: this one may be in the
        // pool the beam's rollouts are played on (a batch's), where a
        // thread that waits for them plays them too, and one that is not
        // in the pool waits until a thread of it is free.
        let (decided, end, peak) = std::thread::scope(|scope| {
            let walks = scope.spawn(|| {
                let decided = self.take_round(walks, below, above, Some(at), budgets);
                if decided.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                decided
            });
            let end = beam.turn(&mut beam_search, beam_table, budget, room);
            let decided = walks.join().expect("a walk's turn panicked");
            (decided, end, beam_table.peak())
        });
        if decided.is_some() {
            return decided;
        }
        let used = beam_search.nodes - start;
        self.search.nodes += used;
        self.search.told = self.search.told.map(|told| told + used);
        self.search.best = self.search.best.max(beam_search.best);
        self.table_peak = self.table_peak.max(peak);
        self.turns += 1;
        self.last = Some(tactic);
        self.settle(end, beams, 0)
    }

    /// Takes a turn of `task` with `budget` nodes for all its turns so
    /// far, in `table`, its own, or in the workers' if it has none.
    fn turn(
        &mut self,
        task: &mut Task<G>,
        table: Option<&mut Table<G::Key>>,
        budget: u64,
    ) -> End<notation::Move> {
        self.last = Some(task.tactic);
        self.turns += 1;
        let search = &mut self.search;
        match (table, self.workers) {
            (Some(table), _) => {
                let room = table.cap().max(search.limits.room_floor);
                let end = task.turn(search, table, budget, room);
                self.table_peak = self.table_peak.max(table.peak());
                end
            }
            (None, Some(workers)) => {
                let room = match task.tactic {
                    Tactic::BestFirst => workers.table.cap(),
                    _ => workers.table.cap() / workers.shared_walks,
                };
                let room = room.max(search.limits.room_floor);
                let worker = self.worker.expect("a worker has an index");
                task.turn_shared(search, workers, worker, budget, room)
            }
            (None, None) => unreachable!("a task with no table of its own is the workers'"),
        }
    }

    /// What the end of the turn of `tasks[at]` means: the verdict, if it
    /// decided; else the task may leave the schedule after the round, or
    /// give its place to another tactic.
    fn settle(
        &mut self,
        end: End<notation::Move>,
        tasks: &mut [Task<G>],
        at: usize,
    ) -> Option<Decided> {
        let workers = self.workers;
        let task = &mut tasks[at];
        let tactic = task.tactic;
        let may_leave = self.worker != Some(0);
        // A shared relaxed walk of a refinement another worker's walk won
        // proves nothing: it walks what the workers walk now.
        let outdated = workers.is_some_and(|workers| task.shared && task.outdated(workers));
        let end = match end {
            End::Lost | End::Crowded | End::OutOfRoom if outdated => End::RelaxationWon,
            end => end,
        };
        let leaving = match end {
            // The relaxed walk can no longer prove the loss: it walks a
            // finer relaxation, or the full walk takes its place (searched
            // alone, it stops).
            End::RelaxationWon => {
                let last = !self.alone && task.generation >= self.search.plan.refinements;
                let line = task.relaxed_line();
                let refined = match outdated || last {
                    true => None,
                    false => task.next_refinement(self.search.game, &line),
                };
                let next = match workers.filter(|_| task.shared) {
                    Some(workers) => match workers.refine(task.generation, refined, line) {
                        Joined::Relaxed(root, generation, guide) => Some(
                            Task::sharing_refined(root, generation, may_leave).following(guide),
                        ),
                        Joined::Full(guide) => (!self.alone)
                            .then(|| Task::sharing(Tactic::Full, may_leave).following(guide)),
                    },
                    None => match refined {
                        Some(root) => Some(Task::refined(root, task.generation + 1, task.table)),
                        None => (!self.alone).then(|| Task::new(Tactic::Full, task.table)),
                    }
                    .map(|next| next.following(line)),
                };
                match next {
                    Some(next) => {
                        *task = next;
                        return None;
                    }
                    None => {
                        self.relaxation_won = true;
                        vec![tactic]
                    }
                }
            }
            End::Won(moves) => return Some((Verdict::Won, None, moves)),
            End::Stopped(stop) => return Some((Verdict::Unknown, Some(stop), Vec::new())),
            End::OutOfNodes => return None,
            End::Spent => vec![tactic],
            End::Lost => match tactic {
                Tactic::Narrowed(level) => {
                    if let Some(workers) = workers {
                        workers.narrowed_ended.fetch_max(level, Ordering::Relaxed);
                    }
                    let ended = tasks.iter().map(|task| task.tactic);
                    ended
                        .filter(|&t| narrower(self.search.plan, level)(t))
                        .collect()
                }
                Tactic::Full | Tactic::Relaxed if task.shared => {
                    if workers
                        .expect("a shared walk has workers")
                        .walk_ended(tactic, task.generation)
                    {
                        return Some((Verdict::Lost, None, Vec::new()));
                    }
                    vec![tactic]
                }
                Tactic::BestFirst | Tactic::Full | Tactic::Relaxed => {
                    return Some((Verdict::Lost, None, Vec::new()));
                }
                other @ (Tactic::Horizon(_) | Tactic::Beam(_)) => vec![other],
            },
            End::Crowded => {
                match (workers.expect("a shared walk has workers")).leave(tactic, task.generation) {
                    Some(true) => return Some((Verdict::Lost, None, Vec::new())),
                    Some(false) => vec![tactic],
                    // Another walk left first: this one stays to the end.
                    None => {
                        task.may_leave = false;
                        return None;
                    }
                }
            }
            End::OutOfRoom => match tactic {
                // The workers' best-first search stops on every thread,
                // and walks sharing its table take its place.
                Tactic::BestFirst if task.shared => {
                    let workers = workers.expect("a shared search has workers");
                    let frontier = workers.frontier.as_ref().expect("the search's frontier");
                    task.quit(workers);
                    *task = Task::sharing(Tactic::Full, self.worker != Some(0));
                    if let Err(stop) = frontier.wait_emptied(&self.search) {
                        return Some((Verdict::Unknown, Some(stop), Vec::new()));
                    }
                    return None;
                }
                Tactic::BestFirst => {
                    *task = Task::new(Tactic::Full, task.table);
                    return None;
                }
                Tactic::Full | Tactic::Relaxed if task.shared => {
                    // Whether or not it may leave unfinished, this walk
                    // ends for want of room: if no other proves the loss,
                    // that is why the search stops.
                    let workers = workers.expect("a shared walk has workers");
                    if let Some(true) = workers.leave(tactic, task.generation) {
                        return Some((Verdict::Lost, None, Vec::new()));
                    }
                    self.exhaustive_out_of_room = true;
                    vec![tactic]
                }
                tactic => {
                    // The others go on: a narrowed walk may still win.
                    // Without the exhaustive walk no loss can be proven.
                    self.exhaustive_out_of_room |= matches!(tactic, Tactic::Full | Tactic::Relaxed);
                    vec![tactic]
                }
            },
        };
        for tactic in leaving {
            if !self.ended.contains(&tactic) {
                self.ended.push(tactic);
            }
        }
        None
    }
}

/// Takes the tasks whose tactic `ended` picks out of the schedule, and
/// shares their tables among those left (see [`MemoryShare`]).
fn remove_tasks<G: Game>(
    tasks: &mut Vec<Task<G>>,
    tables: &mut [Table<G::Key>],
    memory: &mut MemoryShare,
    workers: Option<&Workers<G>>,
    ended: impl Fn(Tactic) -> bool,
) {
    tasks.retain(|task| !ended(task.tactic));
    let kept: Vec<&Task<G>> = tasks.iter().collect();
    let tables = tables.iter_mut().enumerate();
    share_tables(&kept, None, false, tables, memory, workers);
}
