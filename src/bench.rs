//! Benchmark sets: fixed deals and limits for each game, named by a
//! version, so that speed figures from different commits and machines
//! compare like with like.
//!
//! A set stops each search at a node cap, never at a time limit, and gives
//! each deal fresh tables of a fixed size, so every deal's search is the
//! same on any machine and with any number of threads. A change in a set's
//! node count is then a change in what the search does; a change in its
//! time with the same count is a change in speed alone. Changing a set
//! (its deals, its cap or its memory) makes a new [`VERSION`].

use std::ops::RangeInclusive;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

use crate::games::GameKind;
use crate::search::{Limits, Verdict};

/// The version of the sets below, printed with every figure.
pub const VERSION: &str = "v1";

/// Table memory for each deal's search, whatever the number of threads
/// (`batch` shares its cap among its threads instead): a table at its cap
/// forgets positions and searches them again, so a cap that changed with
/// the thread count would change the node counts. At v1's caps the most
/// any deal's tables took was 134 MiB (Raglan, `patience bench`).
pub const MEMORY: usize = 256 << 20;

/// A game's full set, or its quick one: a few deals with a lower cap,
/// well under a second in all, for tests and criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Full,
    Quick,
}

/// The deals of a set and the cap on each deal's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set {
    pub game: GameKind,
    pub size: Size,
    /// Numbered deals (RULES.md numbering), both ends included.
    pub deals: RangeInclusive<u64>,
    /// Positions each deal's search may expand before it stops `unknown`.
    pub max_nodes: u64,
}

impl Set {
    /// The sets of [`VERSION`]. The full ones take 8 to 13 seconds each on
    /// one core of the project's machine, under load (`patience bench
    /// --threads 1`); the quick ones a tenth to a third of a second.
    pub fn of(game: GameKind, size: Size) -> Set {
        let (deals, max_nodes) = match (game, size) {
            // No deal here reaches the cap; it is there so that a search
            // that blows up shows as unknowns, not as a run without end.
            (GameKind::AllInARow, Size::Full) => (1..=2000, 2_000_000),
            (GameKind::AllInARow, Size::Quick) => (1..=20, 2_000_000),
            (GameKind::Raglan, Size::Full) => (1..=1500, 1_000_000),
            (GameKind::Raglan, Size::Quick) => (1..=30, 1_000_000),
            // Proving a Lanes deal lost takes millions of positions, so no
            // loss is decided within the cap: the set measures wins, and
            // the search's speed on the deals it gives up on.
            (GameKind::Lanes, Size::Full) => (1..=200, 500_000),
            (GameKind::Lanes, Size::Quick) => (1..=5, 500_000),
            (GameKind::RowsOfFour, Size::Full) => (1..=500, 1_000_000),
            (GameKind::RowsOfFour, Size::Quick) => (1..=20, 1_000_000),
            // About a million positions a second, so few deals, and the
            // quick set needs a lower cap: deal 1 alone takes a second at
            // the full set's.
            (GameKind::Alexandria, Size::Full) => (1..=20, 1_000_000),
            (GameKind::Alexandria, Size::Quick) => (1..=2, 50_000),
        };
        Set {
            game,
            size,
            deals,
            max_nodes,
        }
    }

    /// The limits of each deal's search.
    pub fn limits(&self) -> Limits {
        Limits {
            max_nodes: Some(self.max_nodes),
            memory: MEMORY,
            ..Limits::default()
        }
    }

    /// Solves deal `n` with the set's limits and fresh tables, as `solve`
    /// does. Fresh, not a thread's tables reused as in `batch`: a table
    /// starts at the size its last search needed, which moves where keys
    /// land and so which ones a full probe window forgets, and the counts
    /// would depend on which deal a thread happened to solve before.
    pub fn solve(&self, n: u64) -> Result<Solved, BenchError> {
        let board = crate::deal::deal(self.game.layout(), n);
        let report = (self.game.solve(&board, &self.limits()))
            .map_err(|e| BenchError::Deal(n, e.to_string()))?;
        Ok(Solved {
            deal: n,
            verdict: report.verdict,
            nodes: report.nodes,
            table_peak: report.table_peak,
            table_bytes: report.table_bytes,
            elapsed: report.elapsed,
        })
    }

    /// Solves every deal of the set on `threads` threads, handing each to
    /// `on_deal` on the calling thread as it finishes, and sums them up.
    pub fn run(
        &self,
        threads: usize,
        mut on_deal: impl FnMut(&Solved),
    ) -> Result<Summary, BenchError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| BenchError::Threads(threads, e.to_string()))?;
        let started = Instant::now();
        let (tx, rx) = mpsc::channel();
        let deals: Vec<u64> = self.deals.clone().collect();
        let mut solved = Vec::with_capacity(deals.len());
        let mut first_error = None;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                pool.install(|| {
                    deals.par_iter().for_each_with(tx, |tx, &n| {
                        // The receiver lives until every sender is gone.
                        let _ = tx.send(self.solve(n));
                    })
                })
            });
            for result in rx {
                match result {
                    Ok(deal) => {
                        on_deal(&deal);
                        solved.push(deal);
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
            }
        });
        match first_error {
            Some(e) => Err(e),
            None => Ok(Summary::new(self, threads, started.elapsed(), &solved)),
        }
    }
}

#[derive(Debug, Error)]
pub enum BenchError {
    #[error("could not start {0} threads: {1}")]
    Threads(usize, String),
    #[error("deal {0}: {1}")]
    Deal(u64, String),
}

/// One deal of a set, solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub deal: u64,
    pub verdict: Verdict,
    pub nodes: u64,
    pub table_peak: usize,
    pub table_bytes: usize,
    /// The search's own time, without dealing and checking the win.
    pub elapsed: Duration,
}

/// A set's run summed up: what `patience bench` prints for each game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub version: &'static str,
    pub game: &'static str,
    pub quick: bool,
    pub first_deal: u64,
    pub last_deal: u64,
    pub max_nodes: u64,
    pub memory: usize,
    pub threads: usize,
    pub deals: usize,
    /// Wall-clock time of the whole run, dealing and checking wins
    /// included; the rates below are per second of it.
    pub seconds: f64,
    pub deals_per_second: f64,
    pub nodes: u64,
    pub nodes_per_second: f64,
    /// Search time per deal, the median of an even count being the mean
    /// of the middle two.
    pub median_micros: u64,
    pub worst_micros: u64,
    pub worst_deal: u64,
    /// Most positions any deal's table held at once.
    pub table_peak: usize,
    /// Most bytes any deal's tables took.
    pub table_bytes: usize,
    pub won: usize,
    pub lost: usize,
    pub unknown: usize,
}

impl Summary {
    /// Sums up the deals of `set` solved in `wall` on `threads` threads.
    pub fn new(set: &Set, threads: usize, wall: Duration, solved: &[Solved]) -> Summary {
        let mut micros: Vec<u64> = (solved.iter())
            .map(|s| s.elapsed.as_micros() as u64)
            .collect();
        micros.sort_unstable();
        let median_micros = match micros.len() {
            0 => 0,
            n if n % 2 == 1 => micros[n / 2],
            n => (micros[n / 2 - 1] + micros[n / 2]) / 2,
        };
        let worst = solved.iter().max_by_key(|s| s.elapsed);
        let nodes = solved.iter().map(|s| s.nodes).sum();
        let count = |v: Verdict| solved.iter().filter(|s| s.verdict == v).count();
        let seconds = wall.as_secs_f64();
        let per_second = |x: f64| if seconds > 0.0 { x / seconds } else { 0.0 };
        Summary {
            version: VERSION,
            game: set.game.name(),
            quick: set.size == Size::Quick,
            first_deal: *set.deals.start(),
            last_deal: *set.deals.end(),
            max_nodes: set.max_nodes,
            memory: MEMORY,
            threads,
            deals: solved.len(),
            seconds,
            deals_per_second: per_second(solved.len() as f64),
            nodes,
            nodes_per_second: per_second(nodes as f64),
            median_micros,
            worst_micros: worst.map_or(0, |s| s.elapsed.as_micros() as u64),
            worst_deal: worst.map_or(0, |s| s.deal),
            table_peak: solved.iter().map(|s| s.table_peak).max().unwrap_or(0),
            table_bytes: solved.iter().map(|s| s.table_bytes).max().unwrap_or(0),
            won: count(Verdict::Won),
            lost: count(Verdict::Lost),
            unknown: count(Verdict::Unknown),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved(deal: u64, verdict: Verdict, nodes: u64, millis: u64) -> Solved {
        Solved {
            deal,
            verdict,
            nodes,
            table_peak: nodes as usize / 2,
            table_bytes: nodes as usize * 16,
            elapsed: Duration::from_millis(millis),
        }
    }

    #[test]
    fn a_summary_adds_up_its_deals() {
        let set = Set::of(GameKind::Raglan, Size::Quick);
        let deals = [
            solved(1, Verdict::Won, 100, 4),
            solved(2, Verdict::Lost, 300, 9),
            solved(3, Verdict::Unknown, 200, 1),
            solved(4, Verdict::Won, 50, 2),
        ];
        let summary = Summary::new(&set, 2, Duration::from_secs(2), &deals);
        assert_eq!(summary.deals, 4);
        assert_eq!(summary.nodes, 650);
        assert_eq!(summary.deals_per_second, 2.0);
        assert_eq!(summary.nodes_per_second, 325.0);
        assert_eq!((summary.won, summary.lost, summary.unknown), (2, 1, 1));
        // 1, 2, 4 and 9 ms: the middle two's mean.
        assert_eq!(summary.median_micros, 3000);
        assert_eq!((summary.worst_micros, summary.worst_deal), (9000, 2));
        assert_eq!((summary.table_peak, summary.table_bytes), (150, 4800));
        assert!(summary.quick);

        let odd = Summary::new(&set, 2, Duration::from_secs(2), &deals[..3]);
        assert_eq!(odd.median_micros, 4000);
    }

    #[test]
    fn an_empty_run_sums_to_nothing() {
        let set = Set::of(GameKind::Lanes, Size::Full);
        let summary = Summary::new(&set, 1, Duration::ZERO, &[]);
        assert_eq!(
            (summary.deals, summary.nodes, summary.median_micros),
            (0, 0, 0)
        );
        assert_eq!(summary.deals_per_second, 0.0);
    }

    /// The most a quick set may search is a small part of its full set's
    /// most, so that tests and criterion can afford it.
    #[test]
    fn quick_sets_are_a_fraction_of_the_full_ones() {
        for game in <GameKind as clap::ValueEnum>::value_variants() {
            let (full, quick) = (Set::of(*game, Size::Full), Set::of(*game, Size::Quick));
            let most = |set: &Set| set.deals.clone().count() as u64 * set.max_nodes;
            assert!(most(&quick) * 10 < most(&full), "{game}");
        }
    }

    #[test]
    fn the_counts_do_not_depend_on_the_threads() {
        let set = Set::of(GameKind::AllInARow, Size::Quick);
        let run = |threads| {
            let mut deals = Vec::new();
            let summary = set.run(threads, |s| deals.push(s.clone())).unwrap();
            deals.sort_by_key(|s| s.deal);
            let counts: Vec<_> = (deals.iter())
                .map(|s| (s.deal, s.verdict, s.nodes, s.table_peak))
                .collect();
            (summary, counts)
        };
        let (one, counts_one) = run(1);
        let (two, counts_two) = run(2);
        assert_eq!(counts_one, counts_two);
        assert_eq!(counts_one.len(), 20);
        assert_eq!(
            counts_one.iter().map(|c| c.0).collect::<Vec<_>>(),
            (1..=20).collect::<Vec<_>>()
        );
        assert_eq!(
            (one.nodes, one.won, one.lost),
            (two.nodes, two.won, two.lost)
        );
        assert_eq!(one.threads, 1);
        assert_eq!(two.threads, 2);
    }
}
