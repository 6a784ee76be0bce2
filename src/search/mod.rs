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
mod budget;
mod limits;
mod line;
mod memory;
mod plan;
mod rollout;
mod rounds;
mod shared;
mod table;
mod task;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tree;
mod walk;
mod workers;

pub use crate::key::{SpareBitKey, TableKey};
pub use limits::{DEFAULT_MEMORY, DEFAULT_ROOM_FLOOR, Limits, Progress, Report, Stop, Verdict};
pub use plan::{Plan, Planned, Tactic, same_level};
pub use table::{Table, Tables};
pub use workers::solve_parallel;

use budget::{CHECK_EVERY, End, Search, budgeted};
use line::{Closed, ROOT, line, line_through};
use rounds::take_turns;

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
