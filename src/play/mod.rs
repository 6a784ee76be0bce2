//! Playing a deal as a player would, who does not see the cards a real
//! player does not see (see [`view`]): how often such a player wins is the
//! figure rule books quote ("All in a Row is won about 5% of the time"),
//! where the solver's verdicts are for open play, every card known.
//!
//! A **player** chooses each move from the legal moves of the plain
//! reference rules, knowing only what it has seen:
//!
//! - `random`: a uniformly random move, seeded by the deal and `--seed`;
//! - `greedy`: a casual player's fixed rule (see [`greedy::order`]);
//! - `lookahead-N`: the move whose best line of at most N moves it can see
//!   through gets the most cards home (see [`lookahead`]);
//! - `sampler-K`: the move that wins most of K deals of the unseen cards
//!   at random, each solved by the exact engine (see [`sampler`]).
//!
//! Every player remembers the positions it has been in and never plays a
//! move back to one (a person would not move a card to and fro for ever),
//! so a game ends: `won`, or `lost` when the player has no move left, or
//! gives up after [`MOST_MOVES`] moves.

mod greedy;
mod lookahead;
mod sampler;
mod view;

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::Board;
use crate::games::GameKind;
use crate::notation::Move;

pub use sampler::{OPEN_NODES, SAMPLE_NODES};
pub use view::View;

/// A player gives up, lost, after this many moves.
pub const MOST_MOVES: usize = 2000;

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Random,
    Greedy,
    /// Plans this many moves ahead.
    Lookahead(u32),
    /// Solves this many samples a choice.
    Sampler(u32),
}

impl FromStr for Player {
    type Err = String;

    fn from_str(text: &str) -> Result<Player, String> {
        let number = |n: &str| match n.parse::<u32>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("'{n}' in '{text}' is not a whole number from 1")),
        };
        match text.split_once('-') {
            None if text == "random" => Ok(Player::Random),
            None if text == "greedy" => Ok(Player::Greedy),
            Some(("lookahead", n)) => number(n).map(Player::Lookahead),
            Some(("sampler", n)) => number(n).map(Player::Sampler),
            _ => Err(format!(
                "'{text}' is not a player: random, greedy, lookahead-N or sampler-K"
            )),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Random => f.write_str("random"),
            Player::Greedy => f.write_str("greedy"),
            Player::Lookahead(n) => write!(f, "lookahead-{n}"),
            Player::Sampler(k) => write!(f, "sampler-{k}"),
        }
    }
}

/// How a game ended for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Won,
    /// No legal move was left, but back to a position already met.
    NoMove,
    /// [`MOST_MOVES`] were played without a win.
    GaveUp,
}

/// A game played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub end: End,
    pub moves: Vec<Move>,
    pub cards_home: u32,
    /// Positions the player's own searches looked at.
    pub positions: u64,
    pub elapsed: Duration,
}

/// The seed of a game: the deal's number (or its board) and `--seed`
/// mixed, so that each deal is played with its own draws, the same on
/// every run.
pub fn seed(deal: u64, seed: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(deal ^ seed.rotate_left(32));
    rng.next_u64()
}

/// Plays `board` as `player`, with `seed` (see [`seed`]).
pub fn play(game: GameKind, board: &Board, player: Player, seed: u64) -> Played {
    let started = Instant::now();
    let rules = game.rules();
    let mut board = board.clone();
    let mut view = View::default();
    let mut been = HashSet::from([board.clone()]);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut sampler = sampler::Sampler::default();
    let (mut moves, mut positions) = (Vec::new(), 0);
    let end = loop {
        if rules.is_won(&board) {
            break End::Won;
        }
        if moves.len() >= MOST_MOVES {
            break End::GaveUp;
        }
        let fresh: Vec<Move> = (rules.legal_moves(&board).into_iter())
            .filter(|mv| {
                let mut next = board.clone();
                rules.play(&mut next, mv).is_ok() && !been.contains(&next)
            })
            .collect();
        let (chosen, looked) = match player {
            _ if fresh.len() <= 1 => (fresh.first().copied(), 0),
            Player::Random => (Some(fresh[rng.random_range(..fresh.len())]), 0),
            Player::Greedy => (greedy::pick(&board, &fresh), 0),
            Player::Lookahead(depth) => lookahead::pick(game, &board, view, depth, &fresh),
            Player::Sampler(samples) => {
                let step = rng.next_u64();
                sampler.pick(game, &board, view, samples, step, &fresh)
            }
        };
        positions += looked;
        let Some(mv) = chosen else {
            break End::NoMove;
        };
        rules.play(&mut board, &mv).expect("a legal move plays");
        view = view.after(&mv);
        been.insert(board.clone());
        moves.push(mv);
    };
    Played {
        end,
        moves,
        cards_home: rules.cards_home(&board) as u32,
        positions,
        elapsed: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::DealNumber;
    use crate::reference::{Replay, replay};

    fn played(game: GameKind, deal: u64, player: Player) -> (Board, Played) {
        let board = game.deal(DealNumber::Numbered(deal)).unwrap();
        let played = play(game, &board, player, seed(deal, 0));
        (board, played)
    }

    #[test]
    fn players_read_and_write_their_names() {
        for name in ["random", "greedy", "lookahead-8", "sampler-20"] {
            assert_eq!(name.parse::<Player>().unwrap().to_string(), name);
        }
        for bad in ["lookahead", "lookahead-0", "sampler-x", "clever"] {
            assert!(bad.parse::<Player>().is_err(), "{bad}");
        }
    }

    /// Every game a player plays is legal move by move, ends as it says,
    /// and is the same when played again.
    #[test]
    fn every_player_plays_legal_games_that_repeat() {
        let players = [
            Player::Random,
            Player::Greedy,
            Player::Lookahead(2),
            Player::Sampler(3),
        ];
        for game in [GameKind::AllInARow, GameKind::Raglan, GameKind::Lanes] {
            for player in players {
                let (board, first) = played(game, 3, player);
                let replayed = replay(game.rules(), &board, &first.moves);
                match first.end {
                    End::Won => assert_eq!(replayed, Replay::Won, "{game} {player}"),
                    _ => assert_eq!(
                        replayed,
                        Replay::NotWon {
                            cards_home: first.cards_home as usize
                        },
                        "{game} {player}"
                    ),
                }
                assert_eq!(
                    played(game, 3, player).1.moves,
                    first.moves,
                    "{game} {player}"
                );
            }
        }
    }

    /// With every card face up, the sampler is the exact solver: it wins
    /// every deal the solver wins (All in a Row 1..12: 9 won, 3 lost).
    #[test]
    fn with_no_card_hidden_the_sampler_wins_whatever_can_be_won() {
        let game = GameKind::AllInARow;
        for deal in 1..=12 {
            let board = game.deal(DealNumber::Numbered(deal)).unwrap();
            let open = game
                .solve(&board, &crate::search::Limits::default())
                .unwrap();
            let (_, played) = played(game, deal, Player::Sampler(1));
            assert_eq!(
                played.end == End::Won,
                open.verdict == crate::search::Verdict::Won,
                "deal {deal}"
            );
        }
    }

    /// A player never plays back to a position it has been in, so even
    /// random play in Raglan, where moves can be undone, ends.
    #[test]
    fn a_game_ends_without_going_round_in_circles() {
        let (board, played) = played(GameKind::Raglan, 5, Player::Random);
        assert!(played.moves.len() <= MOST_MOVES);
        let rules = GameKind::Raglan.rules();
        let mut seen = HashSet::from([board.clone()]);
        let mut now = board;
        for mv in &played.moves {
            rules.play(&mut now, mv).unwrap();
            assert!(seen.insert(now.clone()), "back to a position at {mv}");
        }
    }
}
