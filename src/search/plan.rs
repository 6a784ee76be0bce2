//! A game's plan: what the search runs for it. The rules are the game's
//! engine ([`Game`]); which tactics take turns at a deal, and how their
//! node budgets grow, is this one value, written beside each engine and
//! read by the scheduler (see [`super::solve`]).

use crate::game::Game;

/// What the search runs for a game, and how its budgets grow.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Whether best-first search, led by [`Game::score`], stands in for
    /// the full walk as the tactic that proves losses.
    pub best_first: bool,
    /// The levels of narrowing of the walks that take turns with it,
    /// narrowest first (see [`crate::game::Ask`]).
    pub narrowings: &'static [u32],
    /// The most levels of narrowing the engine knows, if they end: a
    /// tactic asked for past them is refused. Raglan's level is a count of
    /// moves and has no end; the games whose levels are a table of choices
    /// have as many as the table.
    pub max_narrowing: Option<u32>,
    /// The levels of narrowing of the beams (see `search::beam`), which
    /// take their turns last.
    pub beams: &'static [u32],
    /// The level of narrowing of the rollouts that lead a beam at a level:
    /// a game may let the beam choose among more moves than its rollouts
    /// play.
    pub rollout_level: fn(u32) -> u32,
    /// How many times the turn's budget a beam's turn gets.
    pub beam_weight: u64,
    /// The most bytes a walk's path may take, whatever its table's share:
    /// a game whose full walk cannot hope to end on a whole deal may have
    /// it give up early and leave the time to the others.
    pub max_path_bytes: usize,
    /// The node budget of the first turn.
    pub first_turn_nodes: u64,
    /// Whether the budget grows once a round, when every tactic has had
    /// its turn, rather than at every turn. Growing at every turn, the
    /// last of `n` tactics gets `3^(n-1)` times the nodes of the first in
    /// each round, and one that needs just more than its turn waits while
    /// the others take turns far larger: a game whose wins come from any
    /// of many tactics may share the nodes evenly instead.
    pub growth_by_round: bool,
}

impl Plan {
    /// The full walk alone, in turns from 100,000 nodes, each three times
    /// the one before.
    pub const FULL_WALK: Plan = Plan {
        best_first: false,
        narrowings: &[],
        max_narrowing: None,
        beams: &[],
        rollout_level: same_level,
        beam_weight: 1,
        max_path_bytes: usize::MAX,
        first_turn_nodes: 100_000,
        growth_by_round: false,
    };
}

/// Rollouts at the level of the search they lead.
pub const fn same_level(level: u32) -> u32 {
    level
}

/// A game's engine with its plan.
pub trait Planned: Game {
    const PLAN: Plan;
}
