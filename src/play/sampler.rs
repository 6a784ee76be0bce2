//! The sampling player ("hindsight optimisation", Bjarnason, Fern and
//! Tadepalli, ICAPS 2009): at each choice it deals the cards it has not
//! seen at random, `K` times, in ways it cannot tell from the real deal,
//! solves each sample with the exact engine within a small node budget,
//! and plays the first move of the most sample wins; it solves the rest
//! of the K only where one of the first few is won (see [`probes`]).
//! With no card unseen
//! (All in a Row, Raglan, or once a stock has been passed through) the one
//! sample is the deal itself, solved within a far larger budget: the
//! player then plays a win whenever the search finds one there (every
//! win of All in a Row and Raglan's numbered deals so far).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::board::Board;
use crate::games::GameKind;
use crate::notation::Move;
use crate::search::{Limits, Verdict};

use super::greedy;
use super::view::{View, choice};

/// Positions each sample's search may expand.
pub const SAMPLE_NODES: u64 = 20_000;
/// Each sample's table.
const SAMPLE_MEMORY: usize = 16 << 20;
/// Positions the search of a deal with no card unseen may expand.
pub const OPEN_NODES: u64 = 10_000_000;

/// The sampling player's state between its choices: the winning line of
/// a deal it saw whole, to follow, and whether a search of the deal seen
/// whole has already run out of positions (then it plays the greedy move
/// rather than search again at every move).
#[derive(Default)]
pub struct Sampler {
    plan: Vec<Move>,
    open_undecided: bool,
}

/// The samples a choice solves first: a fifth of `samples`, rounded up.
/// Only if one of them is won are the others solved; else the choice is
/// the greedy move. Late in a game going badly no sample wins within the
/// budget, choice after choice, and solving them all there took most of
/// Alexandria's time; a win among the first few says the rest are worth
/// solving.
pub fn probes(samples: u32) -> u32 {
    samples.div_ceil(5)
}

impl Sampler {
    /// [`Sampler::pick`] with no card unseen: the deal itself solved, its
    /// winning line followed, the position resigned when proven lost, and
    /// the greedy move once a search of it has run out of positions.
    fn pick_open(&mut self, game: GameKind, board: &Board, moves: &[Move]) -> (Option<Move>, u64) {
        if self.open_undecided {
            return (greedy::pick(game.rules(), board, moves), 0);
        }
        let limits = Limits {
            max_nodes: Some(OPEN_NODES),
            ..Limits::default()
        };
        let report = game.solve(board, &limits);
        let nodes = report.as_ref().map_or(0, |r| r.nodes);
        match report.map(|r| (r.verdict, r.moves)) {
            Ok((Verdict::Won, line)) => {
                self.plan = line;
                let first = self.plan.remove(0);
                return (Some(first), nodes);
            }
            Ok((Verdict::Lost, _)) => return (None, nodes),
            _ => self.open_undecided = true,
        }
        (greedy::pick(game.rules(), board, moves), nodes)
    }

    /// The next move of the winning line found, if it is among `legal`
    /// (every legal move of the position: a line that wins ends, so it may
    /// pass where the player has been); otherwise the line is dropped.
    pub fn follow(&mut self, legal: &[Move]) -> Option<Move> {
        match self.plan.first() {
            Some(next) if legal.contains(next) => Some(self.plan.remove(0)),
            _ => {
                self.plan.clear();
                None
            }
        }
    }

    /// The move among `moves` (the legal moves of `board`), and the
    /// positions its searches expanded. `seed` makes the samples; the
    /// samples are solved side by side, each on one thread, so the choice
    /// is the same on any number of threads. Ties go by the greedy order;
    /// with no sample won, the greedy move. The first [`probes`] samples
    /// are solved first, and the rest only if one of those is won. With no
    /// card unseen, none when
    /// the exact search proves the position lost: the player resigns.
    pub fn pick(
        &mut self,
        game: GameKind,
        board: &Board,
        view: View,
        samples: u32,
        seed: u64,
        moves: &[Move],
    ) -> (Option<Move>, u64) {
        if view.unseen(board).is_empty() {
            return self.pick_open(game, board, moves);
        }
        let samples = samples.max(1);
        let first = probes(samples);
        let mut solved = solve_samples(game, board, view, seed, 0..first);
        if solved.iter().any(|(won, _)| won.is_some()) {
            solved.extend(solve_samples(game, board, view, seed, first..samples));
        }
        let nodes = solved.iter().map(|(_, n)| n).sum();
        let wins = |mv: &Move| {
            solved
                .iter()
                .filter(|(won, _)| *won == Some(choice(mv)))
                .count()
        };
        let best = (moves.iter().copied()).min_by_key(|mv| {
            (
                std::cmp::Reverse(wins(mv)),
                greedy::order(game.rules(), board, mv),
            )
        });
        (best, nodes)
    }
}

/// Samples `range` of a choice, each solved within [`SAMPLE_NODES`]: the
/// first move of each won sample's line (as a choice, see [`choice`]),
/// and the positions each search expanded. Sample `i` is dealt from
/// `seed` and `i` alone, so it is the same whichever samples are solved
/// with it, and on any thread.
fn solve_samples(
    game: GameKind,
    board: &Board,
    view: View,
    seed: u64,
    range: std::ops::Range<u32>,
) -> Vec<(Option<Move>, u64)> {
    let limits = Limits {
        max_nodes: Some(SAMPLE_NODES),
        memory: SAMPLE_MEMORY,
        ..Limits::default()
    };
    range
        .into_par_iter()
        .map(|i| {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let sample = view.sample(board, &mut rng);
            match game.solve(&sample, &limits) {
                Ok(report) if report.verdict == Verdict::Won => {
                    (report.moves.first().map(choice), report.nodes)
                }
                Ok(report) => (None, report.nodes),
                Err(_) => (None, 0),
            }
        })
        .collect()
}
