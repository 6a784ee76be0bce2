//! Rebuilding the winning line from the positions an attempt kept.

use crate::game::Game;
use crate::notation;

/// A position an attempt kept: how it was reached, to rebuild the winning
/// line.
#[derive(Clone, Copy)]
pub(super) struct Closed<M> {
    pub(super) parent: u32,
    pub(super) mv: Option<M>,
}

/// `parent` of the start.
pub(super) const ROOT: u32 = u32::MAX;

/// The moves from the start to `closed[at]`, then `last`, then `rest`, in
/// RULES.md notation.
pub(super) fn line<G: Game>(
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

/// As [`line()`], with `step` giving each position's parent and the move
/// from it, wherever the positions are kept.
pub(super) fn line_through<G: Game>(
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
