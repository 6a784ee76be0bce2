//! A tactic taking turns: its attempt, kept between turns, and its table.

use super::beam::Beam;
use super::best_first::{BestFirst, SharedBestFirst};
use super::shared::SharedView;
use super::walk::Walk;
use super::workers::Crew;
use super::{End, Search, Table, Tactic, budgeted};
use crate::game::Game;
use crate::key::TableKey;
use crate::notation;

/// One tactic's search, kept between its turns.
pub(super) enum Attempt<G: Game> {
    Walk(Walk<G>),
    BestFirst(BestFirst<G>),
    SharedBestFirst(SharedBestFirst<G>),
    Beam(Beam<G>),
}

/// A tactic in the rotation: its attempt, begun at its first turn, and
/// the table it has to itself.
pub(super) struct Entrant<G: Game> {
    pub(super) tactic: Tactic,
    pub(super) attempt: Option<Attempt<G>>,
    /// Nodes its turns took so far.
    pub(super) spent: u64,
    pub(super) table: usize,
    /// Whether it is the crew's prover, shared by its threads: one of the
    /// full walks on the crew's table, or a thread's part in the crew's
    /// best-first search (see [`solve_parallel`]); it then has no table
    /// of its own.
    pub(super) shared: bool,
    /// Whether, shared, it stops to ask to leave the crew once the table
    /// is crowded (see [`Crew::leave`]).
    pub(super) may_leave: bool,
}

impl<G: Game> Entrant<G> {
    pub(super) fn new(tactic: Tactic, table: usize) -> Entrant<G> {
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
    pub(super) fn sharing(tactic: Tactic, may_leave: bool) -> Entrant<G> {
        Entrant {
            shared: true,
            may_leave,
            ..Entrant::new(tactic, usize::MAX)
        }
    }

    /// Takes a turn, as [`Entrant::turn`] does, at the crew's prover: a
    /// full walk on the crew's table, or this thread's part in the crew's
    /// best-first search.
    pub(super) fn turn_shared(
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
    pub(super) fn quit(&mut self, crew: &Crew<G>) {
        if let (Some(Attempt::SharedBestFirst(part)), Some(frontier)) =
            (&mut self.attempt, &crew.frontier)
        {
            part.quit(frontier, &crew.table);
        }
    }

    /// Takes a turn with `allowance` nodes for all its turns so far.
    pub(super) fn turn(
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
