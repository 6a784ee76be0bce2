//! A game's plan: what the search runs for it. The rules are the game's
//! engine ([`Game`]); which tactics take turns at a deal, and how their
//! node budgets grow, is this one value, written beside each engine and
//! read by the scheduler (see [`super::solve`]).

use crate::game::Game;

/// What the search runs for a game, and how its budgets grow.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The exhaustive tactic (see the terms in [`super`]): the full walk;
    /// best-first search, led by [`Game::score`]; or the walk of the
    /// game's relaxation ([`Tactic::Relaxed`]), refined each time it wins
    /// the relaxation by a line that is not the game's, until the full
    /// walk takes its place ([`Plan::refinements`]).
    pub exhaustive: Tactic,
    /// How many refinements of the relaxation the relaxed walk walks
    /// before the full walk takes its place (see [`Game::refined`]): each
    /// walk of one starts again, so a won deal whose relaxation keeps
    /// being won by lines that are not the game's pays for each. Searched
    /// alone, the relaxed walk walks every refinement the game has.
    pub refinements: u32,
    /// The levels of narrowing of the walks that take turns with it,
    /// narrowest first (see [`crate::game::Ask`]).
    pub narrowings: &'static [u32],
    /// The most levels of narrowing the engine knows, if they end: a
    /// tactic asked for past them is refused. Raglan's level is a count of
    /// moves and has no end; the games whose levels are a table of choices
    /// have as many as the table.
    pub max_narrowing: Option<u32>,
    /// The horizons of the horizon walks, which take their turns after the
    /// narrowed walks: every move, but no line goes on more than a horizon
    /// of moves without a card going home (see [`Tactic::Horizon`]).
    pub horizons: &'static [u32],
    /// The levels of narrowing of the beams (see `search::beam`), which
    /// take their turns last.
    pub beams: &'static [u32],
    /// The level of narrowing of the rollouts that lead a beam at a level:
    /// a game may let the beam choose among more moves than its rollouts
    /// play.
    pub rollout_level: fn(u32) -> u32,
    /// How many times the turn's budget a beam's turn gets.
    pub beam_weight: u64,
    /// The most nodes a beam takes, all its turns together, before it
    /// leaves the schedule. A beam never ends on a lost deal (each time it
    /// runs dry it starts over wider), so in a game whose beam wins early
    /// or not at all, its later turns only slow the full walk, the one
    /// tactic that proves a loss.
    pub beam_nodes: Option<u64>,
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
    /// Whether a rollout passes over a move to a position
    /// [`Game::is_dead_end`] finds lost, as over one it has been through:
    /// worth it in a game whose greedy lines run into dead ends long before
    /// they stop, and whose test is cheap enough to run at each step.
    pub rollouts_shun_dead_ends: bool,
    /// Whether a beam breaks ties between equal rollout scores by
    /// [`Game::score`] of the children themselves, then by a hash that
    /// changes each time it starts over (see `beam::Tie`).
    pub beam_ties_by_score: bool,
    /// How many times wider a beam starts over each time it runs dry.
    pub beam_growth: usize,
}

impl Plan {
    /// The full walk alone, in turns from 100,000 nodes, each three times
    /// the one before.
    pub const FULL_WALK: Plan = Plan {
        exhaustive: Tactic::Full,
        refinements: 0,
        narrowings: &[],
        max_narrowing: None,
        horizons: &[],
        beams: &[],
        rollout_level: same_level,
        beam_weight: 1,
        beam_nodes: None,
        max_path_bytes: usize::MAX,
        first_turn_nodes: 100_000,
        growth_by_round: false,
        rollouts_shun_dead_ends: false,
        beam_ties_by_score: false,
        beam_growth: 2,
    };

    /// Whether a beam stays in the schedule to the end of a hard deal (it
    /// has no [`Plan::beam_nodes`]): its rollouts, played on every thread,
    /// are then how such a deal uses them, so one thread takes every turn
    /// (see `search::workers`) and a batch puts no deal aside (see
    /// `Batch::share_hard`). A beam with a cap is soon gone, and is dealt
    /// out like the other tactics: the full walk it would leave on one
    /// thread may need hundreds of millions of positions.
    pub fn beam_stays(&self) -> bool {
        !self.beams.is_empty() && self.beam_nodes.is_none()
    }
}

/// Rollouts at the level of the search they lead.
pub const fn same_level(level: u32) -> u32 {
    level
}

/// A game's engine with its plan.
pub trait Planned: Game {
    const PLAN: Plan;
}

/// How many times the turn's budget a best-first turn gets: best-first
/// search is the exhaustive tactic where a game has it, and in Raglan it
/// finds most of the hard wins.
const BEST_FIRST_WEIGHT: u64 = 2;

/// A way to search a deal (see the terms in [`super`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactic {
    /// Best-first, with every move (see [`super::best_first`]).
    BestFirst,
    /// Depth-first at a level of narrowing (see [`super::walk`]).
    Narrowed(u32),
    /// Depth-first with every move.
    Full,
    /// Depth-first with every move, leaving out those that take a line
    /// more than this many moves past the last card sent home: most of a
    /// lost line's positions are shuffles that never send another card
    /// home, and a won line seldom needs many moves between two cards home.
    /// Like a narrowed walk, it only ever proves a win.
    Horizon(u32),
    /// A beam search at a level of narrowing (see [`super::beam`]).
    Beam(u32),
    /// Depth-first with every move of the game's relaxation (see
    /// [`Game::relaxed`]), from the deal's position there: it proves the
    /// loss, or wins the deal where the relaxation's win is a line of the
    /// game ([`Game::is_game_line`]); after a win that is not, it walks the
    /// game's refinement of the relaxation from the start
    /// ([`Game::refined`]). Where there is none (or in the plan, past its
    /// [`Plan::refinements`]), it can do neither, and ends: in the plan the
    /// full walk then takes its place; searched alone, the search stops.
    Relaxed,
}

impl Tactic {
    /// The tactics a game's searches take turns at: the exhaustive one
    /// first, then the narrowed walks, the horizon walks, then the beams.
    pub(super) fn all(plan: &Plan) -> Vec<Tactic> {
        let exhaustive = plan.exhaustive;
        let narrowed = plan.narrowings.iter().map(|&level| Tactic::Narrowed(level));
        let horizons = plan.horizons.iter().map(|&moves| Tactic::Horizon(moves));
        let beams = plan.beams.iter().map(|&level| Tactic::Beam(level));
        std::iter::once(exhaustive)
            .chain(narrowed)
            .chain(horizons)
            .chain(beams)
            .collect()
    }

    /// Whether a narrowed walk at `level` that ended without a win shows
    /// this tactic cannot win either. The walk went through every position
    /// that moves of its level reach (its table keeps each key exactly),
    /// and the engine's moves at a level are some of those of any level
    /// above: so a narrowed walk at `level` or below cannot win, nor a
    /// beam whose moves and rollouts are of such a level, as all its lines
    /// are lines of the walk.
    pub(super) fn covered_by_narrowed(self, plan: &Plan, level: u32) -> bool {
        match self {
            Tactic::Narrowed(other) => other <= level,
            Tactic::Beam(beam) => beam <= level && (plan.rollout_level)(beam) <= level,
            Tactic::BestFirst | Tactic::Full | Tactic::Horizon(_) | Tactic::Relaxed => false,
        }
    }

    /// The most nodes this tactic takes, all its turns together.
    pub(super) fn most_nodes(self, plan: &Plan) -> u64 {
        match self {
            Tactic::Beam(_) => plan.beam_nodes.unwrap_or(u64::MAX),
            Tactic::BestFirst
            | Tactic::Narrowed(_)
            | Tactic::Full
            | Tactic::Horizon(_)
            | Tactic::Relaxed => u64::MAX,
        }
    }

    /// How many times the turn's budget this tactic's turns get.
    pub(super) fn weight(self, plan: &Plan) -> u64 {
        match self {
            Tactic::BestFirst => BEST_FIRST_WEIGHT,
            Tactic::Beam(_) => plan.beam_weight,
            Tactic::Narrowed(_) | Tactic::Full | Tactic::Horizon(_) | Tactic::Relaxed => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A beam is covered once a narrowed walk at its level and its
    /// rollouts' level has ended, and not before; the full walk and the
    /// horizon walks never (a horizon walk makes moves no narrowed walk
    /// does).
    #[test]
    fn a_narrowed_walk_covers_the_lower_levels_and_their_beams() {
        const fn one_up(level: u32) -> u32 {
            level + 1
        }
        let plan = Plan {
            rollout_level: one_up,
            ..Plan::FULL_WALK
        };
        assert!(Tactic::Narrowed(2).covered_by_narrowed(&plan, 2));
        assert!(!Tactic::Narrowed(3).covered_by_narrowed(&plan, 2));
        assert!(!Tactic::Beam(2).covered_by_narrowed(&plan, 2));
        assert!(Tactic::Beam(2).covered_by_narrowed(&plan, 3));
        assert!(Tactic::Beam(2).covered_by_narrowed(&Plan::FULL_WALK, 2));
        assert!(!Tactic::Full.covered_by_narrowed(&plan, 9));
        assert!(!Tactic::BestFirst.covered_by_narrowed(&plan, 9));
        assert!(!Tactic::Horizon(2).covered_by_narrowed(&plan, 9));
    }

    /// A beam stays to the end of a deal unless its plan caps it; a plan
    /// with no beam has none to stay.
    #[test]
    fn a_beam_stays_unless_capped() {
        let beam = Plan {
            beams: &[2],
            ..Plan::FULL_WALK
        };
        assert!(beam.beam_stays());
        let capped = Plan {
            beam_nodes: Some(1000),
            ..beam
        };
        assert!(!capped.beam_stays());
        assert!(!Plan::FULL_WALK.beam_stays());
    }

    /// The exhaustive tactic first, then the narrowed walks, the horizon
    /// walks and the beams, each in the plan's order.
    #[test]
    fn the_tactics_take_turns_in_the_plans_order() {
        let plan = Plan {
            narrowings: &[2, 1],
            horizons: &[6, 4],
            beams: &[3],
            ..Plan::FULL_WALK
        };
        let all = [
            Tactic::Full,
            Tactic::Narrowed(2),
            Tactic::Narrowed(1),
            Tactic::Horizon(6),
            Tactic::Horizon(4),
            Tactic::Beam(3),
        ];
        assert_eq!(Tactic::all(&plan), all);
    }
}
