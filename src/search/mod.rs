//! The search: the tactics of a game's plan take turns at a deal until one
//! of them decides it, on one thread or on several.
//!
//! # Terms
//!
//! Each is defined here, once; the files below use them so.
//!
//! - A *node* is a position expanded (its moves generated) or played
//!   through by a rollout: `--max-nodes` and the budgets count nodes.
//! - A *tactic* ([`Tactic`]) is a way of searching: a depth-first *walk*
//!   ([`walk`]), *full* (every move), *narrowed* (leaving out moves the
//!   engine judges seldom needed, more of them at lower levels: see
//!   [`crate::game::Ask`]) or with a *horizon* (every move, but no line
//!   going more than so many moves without a card home: see
//!   [`Tactic::Horizon`]); *best-first* search ([`best_first`]); or a
//!   *beam* ([`beam`]), led by *rollouts* ([`rollout`]); or the walk of
//!   the game's *relaxation* ([`Tactic::Relaxed`]: a game that allows
//!   every line of this one and more, see [`crate::game::Game::relaxed`]).
//!   The game's [`Plan`] says which tactics it takes turns at.
//! - The *exhaustive tactic* ([`Plan::exhaustive`]) is the one tactic of
//!   a plan that makes every move (but those the engine proves needless)
//!   and runs until every reachable position is searched: the full walk,
//!   best-first search, or the relaxed walk. Once the relaxed walk wins
//!   the relaxation by a line that is not the game's, it walks a
//!   *refinement* of it, a finer relaxation that no longer allows what the
//!   line needed ([`crate::game::Game::refined`]), from the start; where
//!   there is none, or past the plan's [`Plan::refinements`], the full
//!   walk takes its place. Each walk after such a win follows its line
//!   first, its *guide* ([`walk::Walk::following`]).
//!   It alone of a plan's tactics can prove a loss, and takes the first
//!   turn.
//! - An *attempt* is one tactic's search of the deal, kept between its
//!   turns, so that each turn takes up where the last stopped.
//! - A *task* is a tactic in a thread's schedule: its attempt, its table,
//!   and the nodes its turns took (see [`task`]).
//! - A *turn* is one run of a task, until its *budget* runs out: the nodes
//!   its task may have taken in all its turns so far. The first turn's
//!   budget is [`Plan::first_turn_nodes`], and each grows from the last
//!   (see [`rounds`]), times its tactic's *weight* ([`Tactic::weight`]).
//! - A *round* is one turn of each task, in order.
//! - A *table* ([`Table`]) holds the positions an attempt has met, by
//!   exact key, within a cap in bytes: the tasks of a thread split the
//!   thread's part of `--memory` among their tables. A position is met
//!   already when its key is there, or a key that *covers* it
//!   ([`TableKey::covers`]): one whose position wins in as many moves.
//! - *Room* is what an attempt may take besides its table (a walk's path,
//!   best-first search's queue and expanded positions, a beam's depth):
//!   its table's share of the memory, or [`Limits::room_floor`] if that is
//!   more, and for a walk no more than [`Plan::max_path_bytes`].
//! - The *workers* are the threads that search one deal together (see
//!   [`workers`]).
//!
//! # Where each part is
//!
//! [`limits`]: what a caller gives a search and gets back. [`plan`]: a
//! game's plan and its tactics. [`budget`]: the count of nodes and the
//! checks that stop a search. [`mod@line`]: the winning line, rebuilt.
//! [`task`] and [`rounds`]: one thread's tasks and their turns.
//! [`workers`] and [`memory`]: several threads, and how each shares its
//! memory. [`walk`], [`best_first`], [`beam`] and [`rollout`]: the
//! algorithms. [`table`] and [`shared`]: the table of one attempt, and
//! the table the workers share; the key both store is in [`crate::key`].
//!
//! # Why each verdict is exact
//!
//! - `won`: an attempt reached a won position, and the report holds the
//!   moves to it from the start, each one the engine made. The caller
//!   replays them with the reference rules before it says `won` (see
//!   [`crate::games::GameKind::confirm`]).
//! - `lost`: only from an exhaustive attempt that ended. The positions it
//!   searched are closed under moves: every move from every position it
//!   expanded leads to one it expanded, or one the table holds (one it met
//!   before, as keys are exact, and so expanded by the time it ended), or
//!   one on its own path. With the
//!   start, they are every reachable position, and none was won. A
//!   narrowed walk or a beam that ends proves nothing, having left out
//!   moves or positions. Why best-first search may prove a loss with a
//!   table that forgot positions is in [`best_first`]; why the workers'
//!   shared search may, in [`workers`].
//! - The relaxed walk's `lost` is the relaxation's, by the same closure
//!   over its moves, and the game's argues why a loss there is one of the
//!   game ([`crate::game::Game::relaxed`]). Its `won` is only a line the
//!   game plays ([`crate::game::Game::is_game_line`]), replayed like any.
//! - Of the walks the workers share, one may leave unfinished, and the
//!   others ending still proves the loss (see [`workers::Workers::leave`]
//!   for why, and why no more than one).
//! - A table that forgets a position costs time only: the position is
//!   searched again when met. Where moves can be undone, a walk keeps the
//!   positions of its path apart from the table once the table has
//!   forgotten any, so forgetting never lets it go round a cycle for ever.
//! - A limit (nodes, time, memory, Ctrl-C) ends the search `unknown`,
//!   never with a guess.

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

pub use crate::key::{SpareBitKey, TableKey, TalonKey};
pub use limits::{DEFAULT_MEMORY, DEFAULT_ROOM_FLOOR, Limits, Progress, Report, Stop, Verdict};
pub use plan::{Plan, Planned, Tactic, same_level};
pub use table::{Table, Tables};
pub use workers::solve_parallel;

use budget::{CHECK_EVERY, End, Search, budgeted};
use line::{Closed, ROOT, line, line_through};
use rounds::take_turns;

/// Searches `game` from its initial position, using `tables` (cleared
/// first), as the game's plan says (see [`Plan`]), on this thread.
///
/// The tasks take turns, the exhaustive tactic first, then one narrowed
/// walk per level of [`Plan::narrowings`], then one beam per level of
/// [`Plan::beams`], until one of them decides. A depth-first search free
/// to make every move can take a wrong turn early and spend millions of
/// positions below it (in Raglan, shuffling runs between twin cards); a
/// narrowed one backs out sooner, and a best-first one goes back to the
/// early choice as soon as it looks better than where the search got to.
/// Which is fastest differs from deal to deal, so they share the work,
/// and as each turn takes up its attempt where the last left it, only the
/// tactics that do not win cost extra, never a repeated attempt.
///
/// A narrowed walk that ends without a win is dropped with the narrower
/// ones; a beam that ends is dropped alone. A best-first attempt that
/// runs out of room gives its place to a full walk; a walk that does
/// gives up its place and the others go on. Without the full walk the
/// search can no longer prove a loss: if the others end without a win,
/// the verdict is `unknown` for want of memory ([`Stop::Memory`]). Each
/// task's table has an equal share of the tables' cap, and the tasks left
/// share the tables of those that end.
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
    take_turns(game, &G::PLAN, limits, tables, vec![tactic], ALONE, None)
}

/// The first budget of a tactic searched alone: one turn without a
/// budget, as [`solve_alone`] takes, and `solve_parallel` with a tactic.
const ALONE: u64 = u64::MAX;
