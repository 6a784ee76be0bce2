//! The `patience` command line: argument parsing and printing only; the
//! work is in the library.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};

use patience::batch::{Batch, Deals, Resume};
use patience::bench::Size;
use patience::games::{DealNumber, GameKind};
use patience::search::{Limits, Tactic};

mod batch;
mod bench;
mod input;
mod progress;
mod solve;
mod units;
mod verify;

use input::dealt;
use units::{TimeLimit, parse_time_limit};

#[global_allocator]
static ALLOCATOR: patience::alloc::HugePages = patience::alloc::HugePages;

/// Exact solver for solitaire deals: proves each deal won (with a move list
/// that replays to a win) or lost (every reachable position searched, but
/// for what the game's sound pruning proves no win needs), and
/// measures how often a game can be won.
///
/// Verdicts are for open play: the solver knows every card, face-down and
/// stock cards included.
#[derive(Parser)]
#[command(name = "patience", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a deal in the deal text format.
    Deal {
        game: GameKind,
        /// Deal number (RULES.md numbering, the same in every release).
        #[arg(required_unless_present = "pysol", conflicts_with = "pysol")]
        deal: Option<u64>,
        /// Print PySolFC's game number N instead.
        #[arg(long, value_name = "N")]
        pysol: Option<u64>,
    },
    /// Solve one deal: verdict, move list, nodes, table size and time.
    ///
    /// The output is a move list with `#` comments, valid input for
    /// `verify --moves`.
    Solve {
        game: GameKind,
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        limits: LimitArgs,
        /// Search with one tactic alone, in one go, instead of taking turns
        /// at the game's tactics: `best-first`, `full` (depth-first with
        /// every move), `narrowed-N` (depth-first, leaving out moves the
        /// engine judges seldom needed, at level N: any in Raglan, where N
        /// counts moves; 1 to 3 in Lanes, Rows of Four and Alexandria) or
        /// `beam-N` (level N's moves, the best few positions of each depth,
        /// each judged by how far greedy play from it gets, more each time
        /// it runs dry). For comparing them; a narrowed search that ends
        /// without a win proves nothing and says `unknown`.
        #[arg(long, value_name = "TACTIC")]
        tactic: Option<Tactic>,
        /// Threads to search with [default: all cores; at most all cores,
        /// a larger count is cut with a warning]. The full walks
        /// share one table within `--memory`, and so does Raglan's
        /// best-first search, with one queue (a thread with tactics of its
        /// own joins it once they end); the game's other tactics are dealt
        /// out among the threads, and a beam plays its rollouts on all of
        /// them, and its long turns beside the walks' turns. Node counts
        /// then differ from run to run, but for games
        /// with a beam (Rows of Four, Alexandria), which search the same
        /// positions on any number of threads; `--threads 1` repeats
        /// exactly. Under a `--memory` too small for the deal,
        /// one thread may be faster: once the shared table forgets often,
        /// one walk leaves it to the others, and where a key takes several
        /// words the shared table holds fewer positions in the same bytes.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Replay a move list with the plain reference rules, and say which
    /// move is illegal or that it wins.
    Verify {
        game: GameKind,
        #[command(flatten)]
        source: Source,
        /// The move list, one move a line (`-` for standard input).
        #[arg(long, value_name = "PATH")]
        moves: PathBuf,
        /// Also print the board the moves reach, in the deal text format,
        /// the verdict as a `#` comment above it: to solve on from there,
        /// pipe it to `solve GAME --file -`.
        #[arg(long)]
        board: bool,
    },
    /// Solve a range of deals in parallel, one CSV row per deal.
    ///
    /// Rows are written as deals finish, with the columns
    ///
    /// game,deal,verdict,moves,nodes,micros,best
    ///
    /// where best is the most cards home in a position the search reached
    /// (with --longest, on a lost deal, the most any line gets).
    /// A batch stopped by Ctrl-C or a kill keeps every finished row; run it
    /// again with --resume to do the rest. One batch at a time writes a
    /// file: it holds the file's lock, and a second is refused.
    Batch {
        game: GameKind,
        /// Deals to solve: `A..B` (both included) or one number.
        #[arg(long, value_name = "RANGE", value_parser = patience::batch::parse_range)]
        deals: std::ops::RangeInclusive<u64>,
        /// Take the numbers as PySolFC game numbers.
        #[arg(long)]
        pysol: bool,
        /// The CSV file to write. It must not hold rows yet, unless with
        /// --resume; an empty file is a fresh start.
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        /// Add to an existing file of the same game, skipping the deals
        /// already in it. A last row cut off by a stop is dropped (and
        /// said) when its deal is in --deals, which solves it again; a
        /// whole row is never dropped.
        #[arg(long)]
        resume: bool,
        /// With --resume, solve again the deals whose row says `unknown`
        /// (with a longer --timeout, say); their old rows are dropped.
        #[arg(long)]
        retry_unknown: bool,
        /// Worker threads [default and most: all cores]. Deals are solved side by
        /// side, one a thread; a deal still undecided after a tenth of its
        /// --timeout or --max-nodes is put aside, and solved again once the
        /// others are done on every thread with what is left of its limits
        /// (see `solve --threads`). In Rows of Four and Alexandria none is
        /// put aside: a thread with no deal left plays a share of the
        /// rollouts of those still running, which end as on one thread.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// On a lost deal, also find the longest line of play, so that the
        /// row's best is the most cards any line gets home, not only the
        /// most the search reached (it leaves out lines it proves cannot
        /// win). All in a Row only, whose batches then take about half as
        /// long again; `solve` always does it.
        #[arg(long)]
        longest: bool,
        /// Solve every deal on one thread to its end, handing none to
        /// every thread and sharing no rollouts: more deals/s when many end
        /// `unknown`, and node counts under --max-nodes that repeat
        /// exactly.
        #[arg(long)]
        side_by_side: bool,
        #[command(flatten)]
        limits: LimitArgs,
        /// Print the final summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Time fixed, versioned sets of deals, one per game, to compare
    /// builds: deals/s, nodes/s, time per deal, table size, verdicts.
    ///
    /// Each set caps every deal's search at a number of positions, never
    /// at a time, and gives it a table of fixed size, so its node counts
    /// are the same on any machine and any number of threads: a change in
    /// them is a change in the search, not in the machine.
    Bench {
        /// The game to time [default: every game].
        game: Option<GameKind>,
        /// Deals solved side by side [default and most: all cores].
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Time each game's quick set instead: a few deals, well under a
        /// second.
        #[arg(long)]
        quick: bool,
        /// Print one JSON object a game, one a line.
        #[arg(long)]
        json: bool,
    },
    /// Summarise batch files: deals, verdicts and win rate with a 95%
    /// Wilson interval.
    ///
    /// Several files merge: a deal counts once, a `won` or `lost` row
    /// supersedes an `unknown` one (a rerun with a longer --timeout, say),
    /// and `won` against `lost` is an error. Files are read a row at a
    /// time, keeping two bits a deal: 100 million deals take about 30 MB.
    Stats {
        #[arg(required = true, value_name = "CSV")]
        files: Vec<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Which deal to work on: exactly one of a number, `--pysol N` or `--file`.
#[derive(Args)]
#[group(required = true, multiple = false)]
struct Source {
    /// Deal number (RULES.md numbering).
    deal: Option<u64>,
    /// PySolFC game number.
    #[arg(long, value_name = "N")]
    pysol: Option<u64>,
    /// A board in the deal text format (`-` for standard input);
    /// black-hole-solver boards are read as they are.
    #[arg(long, short, value_name = "PATH")]
    file: Option<PathBuf>,
}

#[derive(Args)]
struct LimitArgs {
    /// Stop a deal's search after N positions (verdict `unknown`).
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop a deal's search after this long, e.g. 30s, 500ms, 2m, 1m30s
    /// (verdict `unknown`), or `none`. `solve` has no limit unless given
    /// one; `batch` stops each deal at 60s unless given `none`, as a few
    /// deals of some games are never decided and would hold a batch
    /// forever.
    #[arg(long, value_name = "TIME", value_parser = parse_time_limit)]
    timeout: Option<TimeLimit>,
    /// Cap on transposition-table memory, e.g. 512M, 2G; a batch shares it
    /// among its threads. At the cap the table forgets positions: slower,
    /// never wrong. The searches' own memory (the path being searched,
    /// best-first search's positions) may take as much again (at least 64M
    /// each); past that the verdict is `unknown`.
    #[arg(long, value_name = "SIZE", value_parser = |s: &str| units::parse_size(s, units::machine_memory()), default_value = "1G")]
    memory: usize,
}

/// A batch's timeout per deal when none is given.
const BATCH_TIMEOUT: Duration = Duration::from_secs(60);

impl LimitArgs {
    /// `solve`'s limits: no time limit unless given one.
    fn for_solve(&self) -> Limits {
        self.limits(None)
    }

    /// `batch`'s limits: [`BATCH_TIMEOUT`] unless given a time or `none`.
    fn for_batch(&self) -> Limits {
        self.limits(Some(BATCH_TIMEOUT))
    }

    /// The limits, with `timeout` where `--timeout` was not given.
    fn limits(&self, timeout: Option<Duration>) -> Limits {
        Limits {
            max_nodes: self.max_nodes,
            timeout: self.timeout.map_or(timeout, |TimeLimit(given)| given),
            memory: self.memory,
            ..Limits::default()
        }
    }
}

/// An error in what the user gave: exit code 2 rather than 1.
#[derive(Debug)]
struct BadInput(String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// `--threads`, or every core when not given (see [`units::thread_count`]):
/// a count past the cores is cut with a warning, 0 is bad usage.
fn thread_count(threads: Option<usize>) -> anyhow::Result<usize> {
    let (threads, warning) = units::thread_count(threads).map_err(bad_input)?;
    if let Some(warning) = warning {
        eprintln!("warning: {warning}");
    }
    Ok(threads)
}

fn bad_input(message: impl Into<String>) -> anyhow::Error {
    BadInput(message.into()).into()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader of the output has gone (`patience ... | head`): stop
        // quietly, as other tools do on a closed pipe.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            if err.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes to standard output, with an error, not a panic, when it fails.
fn emit(text: std::fmt::Arguments) -> Result<()> {
    io::stdout()
        .lock()
        .write_fmt(text)
        .context("writing to standard output")
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Deal { game, deal, pysol } => {
            let number = match (deal, pysol) {
                (_, Some(n)) => DealNumber::Pysol(n),
                (Some(n), None) => DealNumber::Numbered(n),
                (None, None) => unreachable!("clap requires a deal number"),
            };
            let board = dealt(game, number)?;
            emit(format_args!("# {game}, {number}\n{}", board.to_text()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Solve {
            game,
            source,
            limits,
            tactic,
            threads,
            json,
        } => solve::solve(
            game,
            &source,
            &limits.for_solve(),
            tactic,
            thread_count(threads)?,
            json,
        ),
        Command::Verify {
            game,
            source,
            moves,
            board,
        } => verify::verify(game, &source, &moves, board),
        Command::Batch {
            game,
            deals,
            pysol,
            out,
            resume,
            retry_unknown,
            threads,
            side_by_side,
            longest,
            limits,
            json,
        } => {
            let threads = thread_count(threads)?;
            let batch = Batch {
                game,
                pysol,
                deals: Deals::new(deals),
                limits: limits.for_batch(),
                threads,
                share_hard: !side_by_side,
                longest,
            };
            batch.check().map_err(|e| bad_input(e.to_string()))?;
            let resume = match (resume, retry_unknown) {
                (false, true) => {
                    return Err(bad_input(
                        "--retry-unknown goes with --resume: it solves again the unknown \
                         deals of a file already there",
                    ));
                }
                (false, false) => Resume::No,
                (true, false) => Resume::Skip,
                (true, true) => Resume::RetryUnknown,
            };
            batch::run_batch(batch, &out, resume, json)
        }
        Command::Bench {
            game,
            threads,
            quick,
            json,
        } => {
            let threads = thread_count(threads)?;
            let games = match game {
                Some(game) => vec![game],
                None => GameKind::value_variants().to_vec(),
            };
            let size = if quick { Size::Quick } else { Size::Full };
            bench::run_bench(&games, size, threads, json)
        }
        Command::Stats { files, json } => batch::run_stats(&files, json),
    }
}

/// A flag the first Ctrl-C (or TERM or HUP: a `kill`, a closed terminal)
/// sets, so that a search stops and reports what it has; a second one ends
/// the program at once.
fn catch_ctrl_c() -> Result<Arc<AtomicBool>> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    })
    .context("cannot catch Ctrl-C")?;
    Ok(cancel)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `batch` stops a deal at a minute unless told otherwise; `solve`
    /// only when told.
    #[test]
    fn only_a_batch_has_a_timeout_unless_given_one() {
        let limits = |timeout: Option<&str>| LimitArgs {
            max_nodes: None,
            timeout: timeout.map(|t| parse_time_limit(t).unwrap()),
            memory: 1 << 30,
        };
        let solve = |given| limits(given).for_solve().timeout;
        let batch = |given| limits(given).for_batch().timeout;
        assert_eq!(
            (solve(None), batch(None)),
            (None, Some(Duration::from_secs(60)))
        );
        let ten = Some(Duration::from_secs(10));
        assert_eq!((solve(Some("10s")), batch(Some("10s"))), (ten, ten));
        assert_eq!((solve(Some("none")), batch(Some("none"))), (None, None));
        assert!(parse_time_limit("never").is_err());
    }
}
