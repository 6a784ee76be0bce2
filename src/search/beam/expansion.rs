//! Working out a beam's children apart from its table, on any thread.

use std::mem::size_of;
use std::ops::Range;

use super::{Candidate, NO_TIE, Tie, salted};
use crate::game::{Ask, Game};
use crate::key::TableKey;
use crate::search::{Plan, Search};

/// A child of a layer's position as [`super::Beam::work_out`] finds it:
/// the move, the position, its class key and that key's hash, its
/// tie-break, and whether it is won.
pub(super) struct Child<G: Game> {
    pub(super) mv: G::Move,
    pub(super) state: G::State,
    pub(super) class: G::Key,
    pub(super) hash: u64,
    pub(super) tie: Tie,
    pub(super) won: bool,
}

/// A shift from a layer's position (see [`super::Beam::expand`]): the
/// move, and the place in [`Expansion::homeward`] of the member's
/// children that send a card home.
pub(super) struct Shifted<M> {
    pub(super) mv: M,
    pub(super) children: Range<usize>,
}

/// The children of a layer's position, worked out apart from the table
/// (see [`super::Beam::work_out`]), with the buffers that work takes.
pub(super) struct Expansion<G: Game> {
    /// Whether the position is a dead end, and has none.
    pub(super) dead: bool,
    /// The children by moves that leave the class, in the order of the
    /// moves.
    pub(super) own: Vec<Child<G>>,
    pub(super) shifted: Vec<Shifted<G::Move>>,
    /// The children of the shifts' members that send a card home.
    pub(super) homeward: Vec<Child<G>>,
    moves: Vec<G::Move>,
    member_moves: Vec<G::Move>,
}

impl<G: Game> Default for Expansion<G> {
    fn default() -> Self {
        Expansion {
            dead: false,
            own: Vec::new(),
            shifted: Vec::new(),
            homeward: Vec::new(),
            moves: Vec::new(),
            member_moves: Vec::new(),
        }
    }
}

impl<G: Game> Expansion<G> {
    /// Works out the children of `parent` in a beam `width` wide making
    /// the moves `ask` asks for, in place of those it held.
    pub(super) fn work_out(
        &mut self,
        game: &G,
        plan: &Plan,
        width: usize,
        ask: Ask,
        parent: &Candidate<G::State, G::Move>,
    ) {
        self.own.clear();
        self.shifted.clear();
        self.homeward.clear();
        let state = parent.state;
        self.dead = game.is_dead_end(&state);
        if self.dead {
            return;
        }
        let child = |mv, state: G::State| {
            let class = game.class_key(&state);
            let hash = class.table_hash();
            let tie = match plan.beam_ties_by_score {
                true => (game.score(&state), salted(hash, width)),
                false => NO_TIE,
            };
            Child {
                mv,
                state,
                class,
                hash,
                tie,
                won: game.is_won(&state),
            }
        };
        self.moves.clear();
        game.moves(&state, parent.mv, ask, &mut self.moves);
        for &mv in &self.moves {
            // Taken below, through the member it reaches.
            if game.keeps_class(&state, mv) {
                continue;
            }
            let child = child(mv, game.play(&state, mv));
            let won = child.won;
            self.own.push(child);
            if won {
                return;
            }
        }
        for &shift in &self.moves {
            if !game.keeps_class(&state, shift) {
                continue;
            }
            let member = game.play(&state, shift);
            let home = game.cards_home(&member);
            let start = self.homeward.len();
            self.member_moves.clear();
            game.moves(&member, Some(shift), ask, &mut self.member_moves);
            for &mv in &self.member_moves {
                if game.keeps_class(&member, mv) {
                    continue;
                }
                let next = game.play(&member, mv);
                if game.cards_home(&next) > home {
                    self.homeward.push(child(mv, next));
                }
            }
            let children = start..self.homeward.len();
            self.shifted.push(Shifted {
                mv: shift,
                children,
            });
        }
    }

    pub(super) fn bytes(&self) -> usize {
        (self.own.capacity() + self.homeward.capacity()) * size_of::<Child<G>>()
            + self.shifted.capacity() * size_of::<Shifted<G::Move>>()
            + (self.moves.capacity() + self.member_moves.capacity()) * size_of::<G::Move>()
    }
}

/// How many of a layer's positions [`super::Beam::work_out`] takes at
/// once: one on one thread, as they are taken; enough to share out on
/// more.
pub(super) fn batch_size<G: Game>(search: &Search<G>) -> usize {
    match search.threads {
        1 => 1,
        threads => 16 * threads,
    }
}
