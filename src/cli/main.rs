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

use patience::batch::{Batch, Deals, Playing, Resume};
use patience::bench::Size;
use patience::games::{DealNumber, GameKind};
use patience::play::Player;
use patience::search::{Limits, Tactic};

mod batch;
mod bench;
mod input;
mod play;
mod plot;
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
    /// Solve one deal: its verdict, with the moves that win it.
    ///
    /// The output is a move list with `#` comments, valid input for
    /// `verify --moves`. A lost All in a Row deal gets its longest line of
    /// play instead, which `verify` replays to as many cards home as any
    /// line gets.
    #[command(override_usage = "patience solve [OPTIONS] <GAME> <DEAL|--pysol <N>|--file <PATH>>")]
    Solve {
        game: GameKind,
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        limits: LimitArgs,
        /// Search with one tactic alone, in one go, instead of taking turns
        /// at the game's tactics: `best-first`, `full` (depth-first with
        /// every move), `relaxed` (depth-first with every move of a game
        /// that allows every line of this one and more, with fewer
        /// positions, made finer each time it is won by a line this game
        /// cannot play: it proves a loss, wins by a line of this game, or
        /// says `unknown`; Lanes only),
        /// `narrowed-N` (depth-first, leaving out moves the
        /// engine judges seldom needed, at level N: any in Raglan, where N
        /// counts moves; 1 to 3 in Lanes, Rows of Four and Alexandria),
        /// `horizon-N` (depth-first with every move, but no line going on
        /// more than N moves without a card home; N up to 255) or `beam-N`
        /// (level N's moves, the best few positions of each depth, each
        /// judged by how far greedy play from it gets, more each time it
        /// runs dry). For comparing them; a narrowed or horizon search that
        /// ends without a win proves nothing and says `unknown`.
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
        /// Print one JSON object instead of text: the text report's
        /// figures and the search's own (nodes, turns, table_peak,
        /// decided_by), with the deal as a number and its source.
        #[arg(long)]
        json: bool,
        /// Add the search's own figures to the text report: the tactic that
        /// decided (see --tactic), its turns, the transposition table's
        /// peak and the most cards home in a position reached.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Replay a move list with the plain reference rules, and say which
    /// move is illegal or that it wins.
    #[command(
        override_usage = "patience verify [OPTIONS] <GAME> <DEAL|--pysol <N>|--file <PATH>> --moves <PATH>"
    )]
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
        /// Print the board before the first move and after each one, in
        /// the deal text format, each under a `# move N: ...` comment: a
        /// player can follow the solution on the table.
        #[arg(long, conflicts_with = "board")]
        steps: bool,
    },
    /// Play one deal as a player who sees only what a player at the table
    /// sees: not the face-down cards (Alexandria), nor the stock's order
    /// before it is drawn.
    ///
    /// The output is the moves played, valid input for `verify --moves`,
    /// and how the game ended for the player: won, or lost with no move
    /// left (a player never plays back to a position it has been in), or
    /// given up after 100 moves in a row that put no card home and turned
    /// up no card (or 2000 in all), or resigned (the sampler, seeing every
    /// card, proves no line wins). Players: `random` (a random legal move,
    /// seeded by the deal and --seed), `greedy` (a card home, the lowest
    /// first; else the move that uncovers the most buried card; else a
    /// draw), `lookahead-N` (the move whose best line of at most N moves
    /// it can see through gets the most cards home; a line stops at a move
    /// that turns up an unseen card), `sampler-K` (the move that wins the
    /// most of K random deals of the unseen cards, each solved within
    /// 20,000 positions, the last four fifths only if one of the first
    /// fifth is won; `sampler` is sampler-10; with no card unseen, the deal itself solved
    /// within 10,000,000 positions, so it wins whatever the solver wins
    /// there). Ties go by the greedy order.
    #[command(
        override_usage = "patience play [OPTIONS] <GAME> <DEAL|--pysol <N>|--file <PATH>> --player <PLAYER>"
    )]
    Play {
        game: GameKind,
        #[command(flatten)]
        source: Source,
        /// Who plays: random, greedy, lookahead-N, sampler or sampler-K.
        #[arg(long, value_name = "PLAYER")]
        player: Player,
        /// The seed of the player's choices, mixed with the deal's number.
        #[arg(long, value_name = "N", default_value_t = 0)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
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
        /// side, one a thread; a deal still undecided after a twentieth of its
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
        /// Play each deal as this player instead of solving it (see
        /// `play --help`): the rows name the player before the game, as in
        /// `greedy:all-in-a-row`, so `stats` gives its win rate apart.
        #[arg(long, value_name = "PLAYER")]
        player: Option<Player>,
        /// With --player, the seed of its choices (and of the random
        /// player's moves); the rows of a seed other than 0 name it too.
        #[arg(long, value_name = "N", default_value_t = 0, requires = "player")]
        seed: u64,
        /// Solve every deal on one thread to its end, handing none to
        /// every thread and sharing no rollouts: more deals/s when many end
        /// `unknown`, and node counts under --max-nodes that repeat
        /// exactly.
        #[arg(long)]
        side_by_side: bool,
        #[command(flatten)]
        limits: LimitArgs,
        /// Print one JSON object a line on standard output: each deal as it
        /// finishes ({"type":"deal","data":{...}}, the file's columns),
        /// then each game's summary ({"type":"summary","data":{...}}).
        #[arg(long)]
        json: bool,
        /// How often a progress line goes to standard error when it is
        /// not a terminal (a pipe, nohup, a cluster job's log), e.g. 10s,
        /// 1m; 0 for one a deal. On a terminal a bar shows instead.
        #[arg(long, value_name = "TIME", value_parser = units::parse_duration, default_value = "10s")]
        report_every: Duration,
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
        /// Also say which deals of this range (`A..B`) the files still
        /// lack, game by game: the shards of a sweep still to run, or a
        /// stopped one's rest.
        #[arg(long, value_name = "RANGE", value_parser = patience::batch::parse_range)]
        deals: Option<std::ops::RangeInclusive<u64>>,
        /// Draw, per game, the win rate and its 95% interval as deals
        /// accumulate in deal order, and the solve times by verdict, into
        /// an SVG file (SVG only: a bitmap would need a font library);
        /// with several games or players, first their win rates side by
        /// side.
        #[arg(long, value_name = "OUT.svg")]
        plot: Option<PathBuf>,
    },
    /// Split a range of deals into shards, one `A..B` a line, for batches
    /// run apart and merged by `stats`, e.g. on several hosts with GNU
    /// parallel:
    ///
    /// parallel --sshlogin host1,host2 patience batch GAME --deals {} --out
    /// shard-{#}.csv ::: $(patience shards --deals 1..1000000 --parts 64)
    ///
    /// then `patience stats shard-*.csv`. A shard stopped on the way goes
    /// on with `--resume`; `stats --deals` says what is still missing.
    Shards {
        /// The deals to split: `A..B` or one number.
        #[arg(long, value_name = "RANGE", value_parser = patience::batch::parse_range)]
        deals: std::ops::RangeInclusive<u64>,
        /// How many shards (fewer if the range has fewer deals).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        parts: u64,
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
    /// each); past that the verdict is `unknown`. Memory a search gives
    /// back is kept for the next (a batch's next deal), up to the cap. The
    /// default is a quarter of this machine's memory, at most 4G (1G if
    /// the system does not say).
    #[arg(long, value_name = "SIZE", value_parser = |s: &str| units::parse_size(s, units::machine_memory()), default_value = units::machine_default_memory())]
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

/// The limits, once the allocator is told to keep blocks given back up
/// to their memory cap: a search's tables are the blocks, and a batch's
/// next deal (or a walk outgrowing the table of one that ended) reuses
/// them rather than touching fresh memory (see [`patience::alloc`]).
fn keeping_freed(limits: Limits) -> Limits {
    patience::alloc::keep_freed(limits.memory);
    limits
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
            verbose,
        } => solve::solve(
            game,
            &source,
            &keeping_freed(limits.for_solve()),
            tactic,
            thread_count(threads)?,
            &solve::Output { json, verbose },
        ),
        Command::Verify {
            game,
            source,
            moves,
            board,
            steps,
        } => {
            let show = match (board, steps) {
                (_, true) => verify::Show::Steps,
                (true, _) => verify::Show::Board,
                _ => verify::Show::Verdict,
            };
            verify::verify(game, &source, &moves, show)
        }
        Command::Play {
            game,
            source,
            player,
            seed,
            json,
        } => play::play(game, &source, player, seed, json),
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
            player,
            seed,
            limits,
            json,
            report_every,
        } => {
            let threads = thread_count(threads)?;
            let batch = Batch {
                game,
                pysol,
                deals: Deals::new(deals),
                limits: keeping_freed(limits.for_batch()),
                threads,
                share_hard: !side_by_side,
                longest,
                player: player.map(|player| Playing { player, seed }),
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
            batch::run_batch(batch, &out, resume, &batch::Output { json, report_every })
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
        Command::Stats {
            files,
            json,
            deals,
            plot,
        } => batch::run_stats(&files, json, deals, plot.as_deref()),
        Command::Shards { deals, parts } => {
            for shard in patience::batch::split(&deals, parts) {
                emit(format_args!("{}..{}\n", shard.start(), shard.end()))?;
            }
            Ok(ExitCode::SUCCESS)
        }
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
