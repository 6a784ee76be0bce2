//! Batches: many deals solved side by side, one CSV row each.
//!
//! Each worker thread keeps its own table and reuses it from deal to deal.
//! A deal that turns out hard is handed to every thread once the others
//! are done, or, in a game with a beam, has the threads with no deal left
//! play a share of its rollouts (see [`Batch::share_hard`]). Rows go to a
//! single writer (the caller's closure) as deals finish, so a caller that
//! writes and flushes each row loses nothing when stopped.

mod deals;
mod out_file;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};

use thiserror::Error;

pub use deals::{Deals, MAX_DEALS, parse_range, split};
pub use out_file::{Opened, OutFile, OutFileError, Resume};

use crate::board::Board;
use crate::game::Game;
use crate::games::{DealNumber, GameKind};
use crate::play::{self, Player};
use crate::row::Row;
use crate::search::{self, Limits, Planned, Report, Stop, Tables, Verdict};
use crate::with_game;

/// The `game` column for a game and a kind of deal number.
pub fn game_column(game: GameKind, pysol: bool) -> String {
    if pysol {
        format!("pysol:{game}")
    } else {
        game.to_string()
    }
}

/// What a batch solves.
#[derive(Clone, Debug)]
pub struct Batch {
    pub game: GameKind,
    pub pysol: bool,
    pub deals: Deals,
    /// Per-deal limits; `memory` is shared out among the threads.
    pub limits: Limits,
    pub threads: usize,
    /// Hand a deal still undecided after a share of its `--timeout` or
    /// `--max-nodes` ([`HARD_SHARE`]) to every thread: it is put aside, and once the other
    /// deals are done it is solved again with the threads sharing one
    /// table ([`search::solve_parallel`]), with what is left of its limits.
    /// Hard deals then end sooner (1.2x to 6x on two threads), at the cost
    /// of the share searched twice; batches whose deals all end within the
    /// share are unchanged. In a game whose beam stays to the end of a
    /// deal ([`crate::search::Plan::beam_stays`]) no deal is put aside:
    /// a thread with no deal left plays a share of the rollouts of a deal
    /// still running (see [`crate::search::Tables::in_pool`]), which is
    /// how such a deal uses every thread in `solve_parallel` too, without
    /// the share searched again. Off, every deal is solved on one thread to
    /// its end, and node counts under `--max-nodes` repeat exactly.
    pub share_hard: bool,
    /// Find each lost deal's longest line, where the game can (see
    /// [`GameKind::longest_line`]), so that its row's `best` is the most
    /// cards any line gets home rather than the most the search reached.
    /// All in a Row's batches take about half as long again.
    pub longest: bool,
    /// Play each deal as this player instead of solving it (see
    /// [`crate::play`]); the rows name the player in their `game` column.
    pub player: Option<Playing>,
}

/// A player and the seed of its games (see [`crate::play::seed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playing {
    pub player: Player,
    pub seed: u64,
}

impl Playing {
    /// The `game` column of its rows: the player (and the seed, if not 0)
    /// before the game's, as in `greedy:all-in-a-row` or
    /// `random+3:pysol:all-in-a-row`, so that each player's rows form a
    /// game of their own in `stats`.
    pub fn column(self, game: &str) -> String {
        match self.seed {
            0 => format!("{}:{game}", self.player),
            seed => format!("{}+{seed}:{game}", self.player),
        }
    }
}

/// A deal is hard once it has taken this share (one part in so many) of
/// its limits on one thread: the share is searched twice, so that a hard
/// deal has that much less of its limits on every thread.
pub const HARD_SHARE: u32 = 20;

/// What the threads of a batch tell the caller's thread.
enum News {
    Row(Result<Row, BatchError>),
    Hard(Hard),
}

/// What becomes of a hard deal (see [`Batch::share_hard`]), told as it
/// happens so that a progress display can say what is left and why no
/// row comes for a while.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hard {
    /// The deal is put aside, to be solved again once the others are done.
    PutAside(u64),
    /// The deal starts again on every thread.
    Started(u64),
}

impl Hard {
    /// The deal's number.
    pub fn deal(self) -> u64 {
        match self {
            Hard::PutAside(n) | Hard::Started(n) => n,
        }
    }
}

/// What a batch did besides its rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    /// The deals handed to every thread, in the order solved.
    pub hard: Vec<u64>,
}

#[derive(Debug, Error)]
pub enum BatchError {
    #[error("{0}")]
    Deal(String),
    #[error("could not start {0} threads: {1}")]
    Threads(usize, String),
    #[error("deal {0}: {1}")]
    Unconfirmed(u64, String),
}

impl Batch {
    /// The `game` column of the batch's rows: the game's, or its player's
    /// (see [`Playing::column`]).
    pub fn column(&self) -> String {
        let game = game_column(self.game, self.pysol);
        match self.player {
            Some(playing) => playing.column(&game),
            None => game,
        }
    }

    /// Solves every deal, handing each row to `on_row` on the calling
    /// thread as it finishes. Deals cut short by the `cancel` flag give no
    /// row: rerun them later. Every win is confirmed by the reference rules
    /// before its row is handed on; a deal that fails that check gives no
    /// row, and the batch ends with the error once the others are done.
    pub fn run(&self, on_row: impl FnMut(Row)) -> Result<Finished, BatchError> {
        self.run_watched(on_row, |_| {})
    }

    /// As [`Batch::run`], calling `on_hard` as each hard deal is put
    /// aside and as it starts on every thread (see [`Batch::share_hard`]).
    pub fn run_watched(
        &self,
        mut on_row: impl FnMut(Row),
        mut on_hard: impl FnMut(Hard),
    ) -> Result<Finished, BatchError> {
        self.check()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| BatchError::Threads(self.threads, e.to_string()))?;
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|scope| {
            let worker = scope.spawn(move || {
                pool.install(|| match self.player {
                    Some(playing) => self.play_all(playing, tx),
                    None => with_game!(self.game, G => self.solve_all::<G>(tx)),
                })
            });
            let mut first_error = None;
            for news in rx {
                match news {
                    News::Row(Ok(row)) => on_row(row),
                    News::Row(Err(e)) => {
                        first_error.get_or_insert(e);
                    }
                    News::Hard(n) => on_hard(n),
                }
            }
            let finished = worker.join().expect("the batch's worker panicked");
            first_error.map_or(Ok(finished), Err)
        })
    }

    /// Checks the deal numbers, so a caller can refuse a batch before
    /// creating any file for it.
    pub fn check(&self) -> Result<(), BatchError> {
        // A game whose PySolFC deals patience does not reproduce refuses
        // them all; game 1 stands for every number.
        if self.pysol
            && let Err(e) = self.game.pysol_deal(1)
        {
            return Err(BatchError::Deal(e.to_string()));
        }
        match self.pysol && self.deals.contains(0) {
            true => Err(BatchError::Deal(
                "0 is not a PySolFC game number (they start at 1)".into(),
            )),
            false => Ok(()),
        }
    }

    fn solve_all<G: Planned>(&self, tx: mpsc::Sender<News>) -> Finished {
        let memory = self.limits.memory / self.threads.max(1);
        let sliced = self.share_hard
            && self.threads > 1
            && !G::PLAN.beam_stays()
            && (self.limits.timeout.is_some() || self.limits.max_nodes.is_some());
        let first = match sliced {
            true => Limits {
                timeout: self.limits.timeout.map(|t| t / HARD_SHARE),
                max_nodes: (self.limits.max_nodes).map(|n| (n / u64::from(HARD_SHARE)).max(1)),
                ..self.limits.clone()
            },
            false => self.limits.clone(),
        };
        let hard = Mutex::new(Vec::new());
        let lending = self.share_hard && self.threads > 1;
        // Deals are handed out by a counter, not as the pool's jobs: a
        // thread waiting for a rollout another took steals whatever job it
        // finds, and when deals were jobs, it could take whole deals while
        // its own waited. So the only jobs are rollouts, which a thread
        // with no deal left takes.
        let next = AtomicU64::new(0);
        rayon::broadcast(|_| {
            let mut tables = match lending {
                true => Tables::<G::Key>::new(memory).in_pool(),
                false => Tables::new(memory),
            };
            while let Some(deal) = self.deals.at(next.fetch_add(1, Ordering::Relaxed)) {
                if self.cancelled() {
                    return;
                }
                let Some(n) = deal else {
                    continue;
                };
                let (board, game) = self.dealt::<G>(n);
                let report = search::solve(&game, &first, &mut tables);
                match report.stop {
                    Some(Stop::Interrupted) => {}
                    Some(Stop::Timeout | Stop::MaxNodes) if sliced => {
                        hard.lock()
                            .expect("no thread panics holding it")
                            .push((n, report));
                        drop(tx.send(News::Hard(Hard::PutAside(n))));
                    }
                    // The receiver lives until every sender is gone.
                    _ => drop(tx.send(News::Row(self.row(n, &board, report)))),
                }
            }
        });
        let mut hard = hard.into_inner().expect("no thread panics holding it");
        hard.sort_by_key(|&(n, _)| n);
        let mut finished = Finished::default();
        for (n, first) in hard {
            if self.cancelled() {
                break;
            }
            let limits = Limits {
                timeout: (self.limits.timeout).map(|t| t.saturating_sub(first.elapsed)),
                max_nodes: (self.limits.max_nodes).map(|m| m.saturating_sub(first.nodes)),
                ..self.limits.clone()
            };
            let (board, game) = self.dealt::<G>(n);
            let _ = tx.send(News::Hard(Hard::Started(n)));
            let mut report = search::solve_parallel(&game, &limits, self.threads, None);
            if report.stop == Some(Stop::Interrupted) {
                break;
            }
            report.nodes += first.nodes;
            report.elapsed += first.elapsed;
            report.best = report.best.max(first.best);
            finished.hard.push(n);
            let _ = tx.send(News::Row(self.row(n, &board, report)));
        }
        finished
    }

    /// Plays every deal as `playing` says, a deal a thread at a time.
    fn play_all(&self, playing: Playing, tx: mpsc::Sender<News>) -> Finished {
        let column = self.column();
        let next = AtomicU64::new(0);
        rayon::broadcast(|_| {
            while let Some(deal) = self.deals.at(next.fetch_add(1, Ordering::Relaxed)) {
                if self.cancelled() {
                    return;
                }
                let Some(n) = deal else {
                    continue;
                };
                let board = self.board(n);
                let seed = play::seed(n, playing.seed);
                let stop = || self.cancelled();
                let Some(played) =
                    play::play_unless(self.game, &board, playing.player, seed, &stop)
                else {
                    return;
                };
                let row = Row {
                    game: column.clone(),
                    deal: n,
                    verdict: match played.end {
                        play::End::Won => Verdict::Won,
                        _ => Verdict::Lost,
                    },
                    moves: played.moves.len(),
                    nodes: played.positions,
                    micros: played.elapsed.as_micros() as u64,
                    best: played.cards_home,
                };
                drop(tx.send(News::Row(Ok(row))));
            }
        });
        Finished::default()
    }

    fn cancelled(&self) -> bool {
        (self.limits.cancel.as_ref()).is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// The board of deal `n`: numbered or PySolFC's.
    fn board(&self, n: u64) -> Board {
        let number = match self.pysol {
            true => DealNumber::Pysol(n),
            false => DealNumber::Numbered(n),
        };
        (self.game.deal(number)).expect("game numbers were checked before the batch started")
    }

    fn dealt<G: Game>(&self, n: u64) -> (Board, G) {
        let board = self.board(n);
        let game = G::new(&board).expect("every dealt board is a valid position");
        (board, game)
    }

    /// The row of a finished deal, once the reference rules confirmed it,
    /// with its longest line if asked (see [`Batch::longest`]).
    fn row(&self, n: u64, board: &Board, mut report: Report) -> Result<Row, BatchError> {
        if self.longest {
            self.game.longest_line(board, &mut report, &self.limits);
        }
        match self.game.confirm(board, &report) {
            Ok(()) => Ok(Row {
                game: game_column(self.game, self.pysol),
                deal: n,
                verdict: report.verdict,
                moves: report.moves.len(),
                nodes: report.nodes,
                micros: report.elapsed.as_micros() as u64,
                best: report.best,
            }),
            Err(e) => Err(BatchError::Unconfirmed(n, e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_gives_one_row_per_deal() {
        let batch = Batch {
            game: GameKind::AllInARow,
            pysol: true,
            deals: Deals::new(1..=20),
            limits: Limits::default(),
            threads: 2,
            share_hard: true,
            longest: false,
            player: None,
        };
        let mut rows = Vec::new();
        batch.run(|row| rows.push(row)).unwrap();
        rows.sort_by_key(|r| r.deal);
        assert_eq!(
            rows.iter().map(|r| r.deal).collect::<Vec<_>>(),
            (1..=20).collect::<Vec<_>>()
        );
        for row in &rows {
            assert_eq!(row.game, "pysol:all-in-a-row");
            assert_eq!(row.verdict == Verdict::Won, row.moves == 52);
            assert_eq!(row.verdict == Verdict::Won, row.best == 52);
        }
    }

    /// With `longest`, a lost deal's `best` is its longest line's: at
    /// least the search's, and more on most lost deals (deal 4: 49 and 51).
    #[test]
    fn a_lost_deals_best_is_its_longest_line_if_asked() {
        use crate::games::all_in_a_row::AllInARow;
        let batch = |longest| Batch {
            game: GameKind::AllInARow,
            pysol: false,
            deals: Deals::new(1..=12),
            limits: Limits::default(),
            threads: 2,
            share_hard: true,
            longest,
            player: None,
        };
        let rows = |batch: Batch| {
            let mut rows = Vec::new();
            batch.run(|row| rows.push(row)).unwrap();
            rows.sort_by_key(|r| r.deal);
            rows
        };
        let (plain, longest) = (rows(batch(false)), rows(batch(true)));
        let mut longer = 0;
        for (plain, row) in plain.iter().zip(&longest) {
            assert_eq!((row.deal, row.verdict), (plain.deal, plain.verdict));
            if row.verdict != Verdict::Lost {
                assert_eq!(row.best, plain.best);
                continue;
            }
            let (_, game) = batch(true).dealt::<AllInARow>(row.deal);
            let line = game.longest_line(51, &Limits::default());
            assert_eq!(row.best, line.cards_home, "deal {}", row.deal);
            assert!(row.best >= plain.best);
            longer += (row.best > plain.best) as u32;
        }
        assert!(longer >= 1, "{plain:?}");
    }

    /// Deals that take more than a share of the node limit on one thread are
    /// solved last, on both threads, within the limit in all, to the verdict
    /// one thread gives them.
    #[test]
    fn hard_deals_go_to_every_thread() {
        use crate::games::all_in_a_row::AllInARow;
        let max_nodes = 500_000;
        let batch = Batch {
            game: GameKind::AllInARow,
            pysol: false,
            deals: Deals::new(1..=20),
            limits: Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            },
            threads: 2,
            share_hard: true,
            longest: false,
            player: None,
        };
        let alone = |n, max_nodes| {
            let (_, game) = batch.dealt::<AllInARow>(n);
            let limits = Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            };
            search::solve(&game, &limits, &mut Tables::new(limits.memory))
        };
        let hard: Vec<u64> = (1..=20)
            .filter(|&n| alone(n, max_nodes / u64::from(HARD_SHARE)).verdict == Verdict::Unknown)
            .collect();
        assert!(hard.len() >= 3, "deals 1-20 have hard ones: {hard:?}");
        let (mut rows, mut news) = (Vec::new(), Vec::new());
        let finished = (batch.run_watched(|row| rows.push(row), |h| news.push(h))).unwrap();
        assert_eq!(finished.hard, hard);
        let (put_aside, started) = news.split_at(hard.len());
        let mut put_aside: Vec<u64> = put_aside.iter().map(|h| h.deal()).collect();
        put_aside.sort_unstable();
        assert_eq!(
            put_aside, hard,
            "each is told as it is put aside, before any starts"
        );
        assert!(
            news[..hard.len()]
                .iter()
                .all(|h| matches!(h, Hard::PutAside(_)))
        );
        assert_eq!(
            started,
            hard.iter().map(|&n| Hard::Started(n)).collect::<Vec<_>>()
        );
        assert_eq!(rows.len(), 20);
        let last: Vec<u64> = rows[20 - hard.len()..].iter().map(|r| r.deal).collect();
        assert_eq!(last, hard);
        for row in &rows[20 - hard.len()..] {
            assert!(row.nodes > max_nodes / u64::from(HARD_SHARE) && row.nodes <= max_nodes);
            assert_eq!(row.verdict, alone(row.deal, max_nodes).verdict);
        }

        let side_by_side = Batch {
            share_hard: false,
            ..batch
        };
        assert_eq!(side_by_side.run(|_| ()).unwrap().hard, Vec::<u64>::new());
    }

    /// A game with a beam hands no deal to every thread: its beams share
    /// their rollouts with threads that have no deal left, and each deal
    /// ends as on one thread alone, through the same positions.
    #[test]
    fn a_beam_game_lends_its_rollouts_and_repeats() {
        use crate::games::rows_of_four::RowsOfFour;
        let limits = Limits {
            max_nodes: Some(30_000),
            ..Limits::default()
        };
        let batch = Batch {
            game: GameKind::RowsOfFour,
            pysol: false,
            deals: Deals::new(1..=12),
            limits: limits.clone(),
            threads: 2,
            share_hard: true,
            longest: false,
            player: None,
        };
        let mut rows = Vec::new();
        assert_eq!(
            batch.run(|row| rows.push(row)).unwrap().hard,
            Vec::<u64>::new()
        );
        rows.sort_by_key(|r| r.deal);
        assert!(rows.iter().any(|r| r.verdict == Verdict::Unknown));
        for row in rows {
            let (_, game) = batch.dealt::<RowsOfFour>(row.deal);
            let alone = search::solve(&game, &limits, &mut Tables::new(limits.memory / 2));
            assert_eq!(
                (row.verdict, row.nodes, row.best),
                (alone.verdict, alone.nodes, alone.best),
                "deal {}",
                row.deal
            );
        }
    }
}
