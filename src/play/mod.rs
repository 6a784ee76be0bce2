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
//! so a game ends: `won`, or `lost` when the player has no move left,
//! gives up after [`STALL_MOVES`] moves in a row that put no card home and
//! turned up no card (or [`MOST_MOVES`] in all), or, the sampler, resigns
//! when it sees every card and its exact search proves no line wins.

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

/// The sampler's samples a choice when its name gives none (`sampler`).
pub const DEFAULT_SAMPLES: u32 = 10;

/// A player gives up, lost, after this many moves.
pub const MOST_MOVES: usize = 2000;
/// A player gives up, lost, after this many moves in a row that neither
/// put a card home nor turned up a card it had not seen: it is moving
/// cards around to no end.
pub const STALL_MOVES: usize = 100;

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
            None if text == "sampler" => Ok(Player::Sampler(DEFAULT_SAMPLES)),
            None if text == "random" => Ok(Player::Random),
            None if text == "greedy" => Ok(Player::Greedy),
            Some(("lookahead", n)) => number(n).map(Player::Lookahead),
            Some(("sampler", n)) => number(n).map(Player::Sampler),
            _ => Err(format!(
                "'{text}' is not a player: random, greedy, lookahead-N, sampler or sampler-K"
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
    /// [`STALL_MOVES`] in a row without progress, or [`MOST_MOVES`] in
    /// all, were played without a win.
    GaveUp,
    /// The sampler saw every card and its exact search proved that no
    /// line wins from there.
    Resigned,
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

/// A player between its moves: who it is, its draws, and what it keeps
/// from one choice to the next.
struct Chooser {
    player: Player,
    rng: ChaCha8Rng,
    sampler: sampler::Sampler,
}

impl Chooser {
    fn new(player: Player, seed: u64) -> Chooser {
        Chooser {
            player,
            rng: ChaCha8Rng::seed_from_u64(seed),
            sampler: sampler::Sampler::default(),
        }
    }

    /// The move among `fresh` (the moves of `board` the player may play,
    /// of its `legal` moves), or none to resign, and the positions its
    /// searches looked at. The sampler follows a winning line it found
    /// first. It reads of `board` only what `view` shows, so a board whose
    /// unseen cards lie elsewhere gets the same choice (a draw being one
    /// choice, see [`view::choice`]).
    fn choose(
        &mut self,
        game: GameKind,
        board: &Board,
        view: View,
        legal: &[Move],
        fresh: &[Move],
    ) -> (Option<Move>, u64) {
        if let Some(next) = self.sampler.follow(legal) {
            return (Some(next), 0);
        }
        match self.player {
            _ if fresh.len() <= 1 => (fresh.first().copied(), 0),
            Player::Random => (Some(fresh[self.rng.random_range(..fresh.len())]), 0),
            Player::Greedy => (greedy::pick(game.rules(), board, fresh), 0),
            Player::Lookahead(depth) => lookahead::pick(game, board, view, depth, fresh),
            Player::Sampler(samples) => {
                let step = self.rng.next_u64();
                (self.sampler).pick(game, board, view, samples, step, fresh)
            }
        }
    }
}

/// Plays `board` as `player`, with `seed` (see [`seed`]).
pub fn play(game: GameKind, board: &Board, player: Player, seed: u64) -> Played {
    play_unless(game, board, player, seed, &|| false).expect("a game never stopped ends")
}

/// [`play`], but none if `stop` says so before a move: a batch stopped by
/// Ctrl-C leaves a long game (the sampler's take minutes) unfinished and
/// writes no row for it, as for a deal whose search it stops.
pub fn play_unless(
    game: GameKind,
    board: &Board,
    player: Player,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<Played> {
    let started = Instant::now();
    let rules = game.rules();
    let mut board = board.clone();
    let mut view = View::default();
    let mut been = HashSet::from([board.clone()]);
    let mut chooser = Chooser::new(player, seed);
    let (mut moves, mut positions) = (Vec::new(), 0);
    let mut progress = (rules.cards_home(&board), view.unseen(&board).len(), 0);
    let end = loop {
        if rules.is_won(&board) {
            break End::Won;
        }
        let now = (rules.cards_home(&board), view.unseen(&board).len());
        if now.0 > progress.0 || now.1 < progress.1 {
            progress = (now.0, now.1, moves.len());
        }
        if moves.len() >= MOST_MOVES || moves.len() - progress.2 >= STALL_MOVES {
            break End::GaveUp;
        }
        if stop() {
            return None;
        }
        let legal = rules.legal_moves(&board);
        let fresh: Vec<Move> = (legal.iter().copied())
            .filter(|mv| {
                let mut next = board.clone();
                rules.play(&mut next, mv).is_ok() && !been.contains(&next)
            })
            .collect();
        let (chosen, looked) = chooser.choose(game, &board, view, &legal, &fresh);
        positions += looked;
        let Some(mv) = chosen else {
            break match fresh.is_empty() {
                true => End::NoMove,
                false => End::Resigned,
            };
        };
        rules.play(&mut board, &mv).expect("a legal move plays");
        view = view.after(&mv);
        been.insert(board.clone());
        moves.push(mv);
    };
    Some(Played {
        end,
        moves,
        cards_home: rules.cards_home(&board) as u32,
        positions,
        elapsed: started.elapsed(),
    })
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
        assert_eq!(
            "sampler".parse::<Player>(),
            Ok(Player::Sampler(DEFAULT_SAMPLES))
        );
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

    /// The player never sees a hidden card: along random play from deals
    /// of the three games that hide cards, each player chooses the same
    /// move on the real position and on positions whose unseen cards are
    /// dealt again (as [`View::sample`] deals them), with the same draws.
    #[test]
    fn a_choice_does_not_change_with_the_cards_unseen() {
        let players = [
            Player::Random,
            Player::Greedy,
            Player::Lookahead(3),
            Player::Sampler(2),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut compared = 0;
        for game in [GameKind::Alexandria, GameKind::Lanes, GameKind::RowsOfFour] {
            let rules = game.rules();
            for deal in 1..=2 {
                let mut board = game.deal(DealNumber::Numbered(deal)).unwrap();
                let mut view = View::default();
                for step in 0..60 {
                    let moves = rules.legal_moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    if step % 20 == 5 {
                        for other in 0..2 {
                            let hidden = view.sample(&board, &mut rng);
                            if hidden == board {
                                continue;
                            }
                            let theirs = rules.legal_moves(&hidden);
                            for player in players {
                                let seed = seed(deal, other);
                                let pick = |board: &Board, moves: &[Move]| {
                                    let chosen = Chooser::new(player, seed)
                                        .choose(game, board, view, moves, moves)
                                        .0;
                                    chosen.map(|mv| view::choice(&mv))
                                };
                                assert_eq!(
                                    pick(&board, &moves),
                                    pick(&hidden, &theirs),
                                    "{game} deal {deal}, {player}, after {step} moves:\n{}",
                                    board.to_text()
                                );
                                compared += 1;
                            }
                        }
                    }
                    let mv = moves[rng.random_range(..moves.len())];
                    rules.play(&mut board, &mv).unwrap();
                    view = view.after(&mv);
                }
            }
        }
        assert!(compared >= 100, "{compared}");
    }

    /// The sampler solves its samples side by side, so it plays the same
    /// game on one thread as on two.
    #[test]
    fn the_sampler_plays_alike_on_any_number_of_threads() {
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| played(GameKind::Lanes, 5, Player::Sampler(4)).1.moves)
        };
        assert_eq!(on(1), on(2));
    }
}
