//! The count of nodes, the end of a turn by its budget, and the checks of
//! the limits, the clock, Ctrl-C and the other threads that stop a search.
//!
//! Every attempt counts each position it expands through [`Search`], and
//! a rollout each position it plays through, so `--max-nodes` and a
//! turn's budget hold whatever the tactic.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Limits, Plan, Stop};
use crate::game::Game;
use crate::notation;

/// How often, in nodes, the clock and the cancel flag are read.
pub(super) const CHECK_EVERY: u64 = 1024;

/// How one attempt ended, or one turn of it.
pub(super) enum End<M> {
    Won(Vec<M>),
    Lost,
    Stopped(Stop),
    /// The turn used up its nodes; the attempt can go on.
    OutOfNodes,
    /// The attempt took the most nodes its tactic may
    /// ([`Plan::beam_nodes`](super::Plan::beam_nodes)), with no verdict.
    Spent,
    /// The attempt filled the memory it may take besides its table.
    OutOfRoom,
    /// The relaxed walk won the relaxation by a line that is not the
    /// game's (or another worker's walk did): it can prove nothing, as the
    /// relaxation is won.
    RelaxationWon,
    /// A shared walk that may leave unfinished met a crowded table (see
    /// [`Workers::leave`](super::workers::Workers::leave)).
    Crowded,
}

/// Runs a turn with `budget` nodes for all the turns of its task so far,
/// `spent` of which the turns before took.
pub(super) fn budgeted<G: Game>(
    search: &mut Search<G>,
    spent: &mut u64,
    budget: u64,
    run: impl FnOnce(&mut Search<G>) -> End<notation::Move>,
) -> End<notation::Move> {
    let before = search.nodes;
    search.turn_end = before.saturating_add(budget.saturating_sub(*spent));
    let end = run(search);
    *spent += search.nodes - before;
    end
}

/// What the attempts of one search share: the game, the limits, and the
/// count of nodes.
pub(super) struct Search<'a, G: Game> {
    pub(super) game: &'a G,
    pub(super) plan: &'a Plan,
    pub(super) limits: &'a Limits,
    pub(super) deadline: Option<Instant>,
    pub(super) nodes: u64,
    pub(super) best: u32,
    /// The node count at which this turn ends.
    pub(super) turn_end: u64,
    /// Set once another worker's search ended the deal's: it decided, or
    /// the clock or Ctrl-C stopped it (see
    /// [`solve_parallel`](super::solve_parallel)).
    pub(super) halt: Option<&'a AtomicBool>,
    /// Threads a beam may play its rollouts on (see [`super::beam`]).
    pub(super) threads: usize,
    /// `limits.max_nodes`, or the most a rollout may take of what is left
    /// of it (see [`Search::fork`]).
    pub(super) max_nodes: Option<u64>,
    /// `nodes` as last told to `limits.progress`; `None` in a rollout on
    /// another thread, whose nodes the search that forked it tells.
    pub(super) told: Option<u64>,
}

impl<'a, G: Game> Search<'a, G> {
    pub(super) fn new(game: &'a G, plan: &'a Plan, limits: &'a Limits) -> Search<'a, G> {
        Search {
            game,
            plan,
            limits,
            deadline: limits.timeout.map(|t| Instant::now() + t),
            nodes: 0,
            best: 0,
            turn_end: u64::MAX,
            halt: None,
            threads: 1,
            max_nodes: limits.max_nodes,
            told: Some(0),
        }
    }

    /// A search for one rollout, perhaps on another thread, counting its
    /// own nodes, at most `most` of them: the beam then counts the
    /// rollouts of a depth against what is left of the limit (see
    /// `beam::within_limit`).
    pub(super) fn fork(&self, most: Option<u64>) -> Search<'a, G> {
        Search {
            nodes: 0,
            best: 0,
            threads: 1,
            max_nodes: most,
            told: None,
            ..*self
        }
    }

    /// What is left of the node limit.
    pub(super) fn nodes_left(&self) -> Option<u64> {
        self.max_nodes.map(|max| max.saturating_sub(self.nodes))
    }

    /// Counts a position about to be expanded, or says why the turn ends
    /// first.
    pub(super) fn count_node(&mut self) -> Result<(), End<notation::Move>> {
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
    pub(super) fn count_step(&mut self) -> Result<(), Stop> {
        if self.at_max_nodes() {
            return Err(Stop::MaxNodes);
        }
        self.nodes += 1;
        if self.halted() {
            return Err(Stop::Interrupted);
        }
        match self.at_check() {
            true => {
                self.tell();
                self.check()
            }
            false => Ok(()),
        }
    }

    /// Adds the nodes counted since last time to `limits.progress`.
    pub(super) fn tell(&mut self) {
        if let (Some(progress), Some(told)) = (&self.limits.progress, self.told) {
            progress.add(self.nodes - told, self.best);
            self.told = Some(self.nodes);
        }
    }

    /// Says whether the clock, Ctrl-C or another thread's verdict stops
    /// the search. [`Search::count_step`] asks every [`CHECK_EVERY`]
    /// nodes; a beam that adds the nodes of its rollouts on other threads
    /// in one go asks after each lot (see [`super::beam`]), as its count
    /// may jump over the multiples it would stop at.
    pub(super) fn check(&self) -> Result<(), Stop> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Timeout);
        }
        if let Some(cancel) = &self.limits.cancel
            && cancel.load(Ordering::Relaxed)
        {
            return Err(Stop::Interrupted);
        }
        if self.halted() {
            return Err(Stop::Interrupted);
        }
        Ok(())
    }

    /// Whether another worker's search has ended the deal's (see
    /// [`Search::halt`]): read at every position, as it costs a load.
    fn halted(&self) -> bool {
        self.halt.is_some_and(|halt| halt.load(Ordering::Relaxed))
    }

    fn at_max_nodes(&self) -> bool {
        self.max_nodes.is_some_and(|max| self.nodes >= max)
    }

    /// Whether the node just counted is one at which a walk checks its
    /// memory, as [`Search::count_node`] checks the clock.
    pub(super) fn at_check(&self) -> bool {
        self.nodes.is_multiple_of(CHECK_EVERY)
    }
}
