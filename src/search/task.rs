//! A task: one tactic in a thread's schedule, with its attempt, kept
//! between its turns, and its table (see the terms in [`super`]).

use std::mem::take;

use super::beam::Beam;
use super::best_first::{BestFirst, SharedBestFirst};
use super::shared::SharedView;
use super::walk::Walk;
use super::workers::Workers;
use super::{End, Search, Table, Tactic, budgeted};
use crate::game::Game;
use crate::key::TableKey;
use crate::notation;

/// How many nodes a shared relaxed walk takes between two looks at
/// whether another worker won its relaxation.
const ASK_EVERY: u64 = 1 << 16;

/// A tactic's search of the deal, kept between its turns.
enum Attempt<G: Game> {
    Walk(Walk<G>),
    BestFirst(BestFirst<G>),
    SharedBestFirst(SharedBestFirst<G>),
    Beam(Beam<G>),
}

/// A tactic in the schedule: its attempt, begun at its first turn, and
/// the table it has to itself.
pub(super) struct Task<G: Game> {
    pub(super) tactic: Tactic,
    attempt: Option<Attempt<G>>,
    /// Nodes its turns took so far.
    spent: u64,
    /// Its table's index among the thread's tables.
    pub(super) table: usize,
    /// Whether it is this thread's part in the exhaustive tactic the
    /// workers share: one of the full walks on their table, or a part in
    /// their best-first search (see [`super::workers`]); it then has no
    /// table of its own.
    pub(super) shared: bool,
    /// Whether, shared, it stops to ask to leave unfinished once the table
    /// is crowded (see [`Workers::leave`]).
    pub(super) may_leave: bool,
    /// For a relaxed walk, the deal's position in the refinement of the
    /// relaxation it walks (see [`Game::refined`]); none for the first.
    refinement: Option<G::State>,
    /// Which refinement that is, counted from 0 (see [`Workers::refine`]).
    pub(super) generation: u32,
    /// The line its walk follows first (see [`Walk::following`]), until
    /// the walk begins.
    guide: Vec<G::Move>,
}

impl<G: Game> Task<G> {
    pub(super) fn new(tactic: Tactic, table: usize) -> Task<G> {
        Task {
            tactic,
            attempt: None,
            spent: 0,
            table,
            shared: false,
            may_leave: false,
            refinement: None,
            generation: 0,
            guide: Vec::new(),
        }
    }

    /// The task, its walk following `guide` (see [`Walk::following`]).
    pub(super) fn following(self, guide: Vec<G::Move>) -> Task<G> {
        Task { guide, ..self }
    }

    /// The relaxed walk of refinement `generation`, whose deal is `root`,
    /// with its own `table`.
    pub(super) fn refined(root: G::State, generation: u32, table: usize) -> Task<G> {
        Task {
            refinement: Some(root),
            generation,
            ..Task::new(Tactic::Relaxed, table)
        }
    }

    /// This thread's part in the workers' relaxed walk of refinement
    /// `generation`, whose deal is `root`.
    pub(super) fn sharing_refined(root: G::State, generation: u32, may_leave: bool) -> Task<G> {
        Task {
            refinement: Some(root),
            generation,
            ..Task::sharing(Tactic::Relaxed, may_leave)
        }
    }

    /// The deal's position in the next refinement of the relaxation, once
    /// this task's relaxed walk won the relaxation by `line`, which is not
    /// the game's ([`Task::relaxed_line`]; see [`Game::refined`]).
    pub(super) fn next_refinement(&self, game: &G, line: &[G::Move]) -> Option<G::State> {
        match &self.attempt {
            Some(Attempt::Walk(walk)) => walk.refined(game, line),
            _ => None,
        }
    }

    /// The line by which this task's relaxed walk won the relaxation, once
    /// it ended so: the guide of the walks after it.
    pub(super) fn relaxed_line(&self) -> Vec<G::Move> {
        match &self.attempt {
            Some(Attempt::Walk(walk)) => walk.path_moves(),
            _ => Vec::new(),
        }
    }

    /// Whether this is a shared relaxed walk of a refinement the workers
    /// have left behind: it can prove nothing.
    pub(super) fn outdated(&self, workers: &Workers<G>) -> bool {
        self.tactic == Tactic::Relaxed && workers.refined_past(self.generation)
    }

    /// This thread's part in the exhaustive tactic the workers share.
    pub(super) fn sharing(tactic: Tactic, may_leave: bool) -> Task<G> {
        Task {
            shared: true,
            may_leave,
            ..Task::new(tactic, usize::MAX)
        }
    }

    /// Takes a turn, as [`Task::turn`] does, at this thread's part in the
    /// exhaustive tactic of the workers: a full walk on their table, or a
    /// part in their best-first search.
    pub(super) fn turn_shared(
        &mut self,
        search: &mut Search<G>,
        workers: &Workers<G>,
        worker: usize,
        budget: u64,
        room: usize,
    ) -> End<notation::Move> {
        // Another worker won this relaxation: this relaxed walk can prove
        // nothing either.
        if self.outdated(workers) {
            return End::RelaxationWon;
        }
        let walk_room = room.min(search.plan.max_path_bytes);
        let mut view = SharedView::new(&workers.table);
        let attempt = self.attempt.get_or_insert_with(|| match self.tactic {
            Tactic::BestFirst => Attempt::SharedBestFirst(SharedBestFirst::new(worker, room)),
            tactic => {
                let root = self.refinement.unwrap_or_else(|| root(search.game, tactic));
                let key = search.game.key(&root);
                view.visit(key, key.table_hash());
                let walk = Walk::sharing(root, key, walk_room).following(take(&mut self.guide));
                Attempt::Walk(match tactic {
                    Tactic::Relaxed => walk.relaxed(),
                    _ => walk,
                })
            }
        });
        match attempt {
            Attempt::Walk(walk) => {
                walk.room = walk_room;
                walk.leave_when_crowded = self.may_leave;
                // A relaxed walk asks now and then whether another worker
                // won its relaxation, and then stops: its turns are long.
                let relaxed = self.tactic == Tactic::Relaxed;
                loop {
                    let part = match relaxed {
                        true => budget.min(self.spent + ASK_EVERY),
                        false => budget,
                    };
                    let end = budgeted(search, &mut self.spent, part, |search| {
                        walk.resume(search, &mut view)
                    });
                    match end {
                        // `Task::outdated`, which the attempt's borrow of
                        // `self` keeps from being called here.
                        End::OutOfNodes if part < budget => {
                            if workers.refined_past(self.generation) {
                                return End::RelaxationWon;
                            }
                        }
                        end => return end,
                    }
                }
            }
            Attempt::SharedBestFirst(best_first) => {
                let frontier = workers.frontier.as_ref().expect("made with the frontier");
                best_first.room = room;
                budgeted(search, &mut self.spent, budget, |search| {
                    best_first.resume(search, frontier, &mut view)
                })
            }
            _ => unreachable!("a shared attempt is a walk or a shared best-first search"),
        }
    }

    /// Leaves the workers' best-first search, if this is this thread's part
    /// in it (see [`SharedBestFirst::quit`]).
    pub(super) fn quit(&mut self, workers: &Workers<G>) {
        if let (Some(Attempt::SharedBestFirst(part)), Some(frontier)) =
            (&mut self.attempt, &workers.frontier)
        {
            part.quit(frontier, &workers.table);
        }
    }

    /// Takes a turn with `budget` nodes for all its turns so far, in its
    /// own `table`, the attempt taking at most `room` bytes besides.
    pub(super) fn turn(
        &mut self,
        search: &mut Search<G>,
        table: &mut Table<G::Key>,
        budget: u64,
        room: usize,
    ) -> End<notation::Move> {
        let walk_room = room.min(search.plan.max_path_bytes);
        let attempt = self.attempt.get_or_insert_with(|| {
            let root = (self.refinement).unwrap_or_else(|| root(search.game, self.tactic));
            let key = search.game.key(&root);
            let mut walk =
                |level| Walk::new(root, key, level, walk_room).following(take(&mut self.guide));
            table.clear();
            table.set_exact(matches!(
                self.tactic,
                Tactic::Narrowed(_) | Tactic::Horizon(_) | Tactic::Beam(_)
            ));
            // A beam's table holds classes (see `Game::class_key`).
            table.insert(match self.tactic {
                Tactic::Beam(_) => search.game.class_key(&root),
                _ => key,
            });
            match self.tactic {
                Tactic::BestFirst => Attempt::BestFirst(BestFirst::new(root, room)),
                Tactic::Narrowed(level) => Attempt::Walk(walk(level)),
                Tactic::Full => Attempt::Walk(walk(0)),
                Tactic::Relaxed => Attempt::Walk(walk(0).relaxed()),
                Tactic::Horizon(moves) => Attempt::Walk(walk(0).with_horizon(moves)),
                Tactic::Beam(level) => {
                    let rollout_level = (search.plan.rollout_level)(level);
                    Attempt::Beam(Beam::new(root, level, rollout_level, room))
                }
            }
        });
        // The room grows when the task inherits the tables of others.
        match attempt {
            Attempt::Walk(walk) => walk.room = walk_room,
            Attempt::BestFirst(best_first) => best_first.room = room,
            Attempt::Beam(beam) => beam.room = room,
            Attempt::SharedBestFirst(_) => unreachable!("a shared attempt takes shared turns"),
        }
        let most = self.tactic.most_nodes(search.plan);
        let resume = |search: &mut Search<G>| match attempt {
            Attempt::Walk(walk) => walk.resume(search, table),
            Attempt::BestFirst(best_first) => best_first.resume(search, table),
            Attempt::Beam(beam) => beam.resume(search, table),
            Attempt::SharedBestFirst(_) => unreachable!("a shared attempt takes shared turns"),
        };
        let end = budgeted(search, &mut self.spent, budget.min(most), resume);
        match end {
            End::OutOfNodes if self.spent >= most => End::Spent,
            end => end,
        }
    }
}

/// The position `tactic` starts from: the deal's, or for the relaxed
/// walk the deal's position in the relaxation.
fn root<G: Game>(game: &G, tactic: Tactic) -> G::State {
    let root = game.initial();
    match tactic {
        Tactic::Relaxed => {
            (game.relaxed(&root)).expect("a game with a relaxation (`SolveError::NoRelaxation`)")
        }
        _ => root,
    }
}
