//! The `patience` command line: argument parsing and printing only; the
//! work is in the library.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use patience::batch::{self, Batch, Row};
use patience::bench::{self, Set, Size};
use patience::board::Board;
use patience::games::{DealNumber, GameKind, SolveError};
use patience::notation::{self, Move};
use patience::reference::{self, Replay};
use patience::search::{self, Limits, Progress, Report, Tactic, Verdict};
use patience::stats::{self, Summary};

#[global_allocator]
static ALLOCATOR: patience::alloc::HugePages = patience::alloc::HugePages;

/// Exact solver for solitaire deals: proves each deal won (with a move list
/// that replays to a win) or lost (every reachable position searched), and
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
        /// `rollouts-N` (best-first at level N, each position judged by how
        /// far greedy play from it gets) or `beam-N` (level N's moves, the
        /// best few positions of each depth by their rollouts, more each
        /// time it runs dry). For comparing them; a narrowed search that
        /// ends without a win proves nothing and says `unknown`.
        #[arg(long, value_name = "TACTIC")]
        tactic: Option<Tactic>,
        /// Threads to search with [default: all cores]. The full walks
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
    /// where best is the most cards the search got home. A batch stopped by
    /// Ctrl-C or a kill keeps every finished row; run it again with
    /// --resume to do the rest.
    Batch {
        game: GameKind,
        /// Deals to solve: `A..B` (both included) or one number.
        #[arg(long, value_name = "RANGE", value_parser = batch::parse_range)]
        deals: std::ops::RangeInclusive<u64>,
        /// Take the numbers as PySolFC game numbers.
        #[arg(long)]
        pysol: bool,
        /// The CSV file to write.
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        /// Add to an existing file, skipping the deals already in it.
        #[arg(long)]
        resume: bool,
        /// With --resume, solve again the deals whose row says `unknown`
        /// (with a longer --timeout, say); their old rows are dropped.
        #[arg(long)]
        retry_unknown: bool,
        /// Worker threads [default: all cores]. Deals are solved side by
        /// side, one a thread; a deal still undecided after a tenth of its
        /// --timeout or --max-nodes is put aside, and solved again once the
        /// others are done on every thread with what is left of its limits
        /// (see `solve --threads`). In Rows of Four and Alexandria none is
        /// put aside: a thread with no deal left plays a share of the
        /// rollouts of those still running, which end as on one thread.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
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
        /// Deals solved side by side [default: all cores].
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
    /// Wilson interval. Several files merge; a deal with different
    /// verdicts in two files is an error.
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
    /// Stop a deal's search after this long, e.g. 30s, 500ms, 2m
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
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "1G")]
    memory: usize,
}

/// A `--timeout`: a time, or `none`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeLimit(Option<Duration>);

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

/// `--threads`, or every core when not given; 0 is bad usage.
fn thread_count(threads: Option<usize>) -> anyhow::Result<usize> {
    match threads.unwrap_or_else(rayon::current_num_threads) {
        0 => Err(bad_input("--threads must be at least 1")),
        threads => Ok(threads),
    }
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
        } => solve(
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
        } => verify(game, &source, &moves, board),
        Command::Batch {
            game,
            deals,
            pysol,
            out,
            resume,
            retry_unknown,
            threads,
            side_by_side,
            limits,
            json,
        } => {
            let threads = thread_count(threads)?;
            let batch = Batch {
                game,
                pysol,
                deals: deals.collect(),
                limits: limits.for_batch(),
                threads,
                share_hard: !side_by_side,
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
            run_batch(batch, &out, resume, json)
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
            run_bench(&games, size, threads, json)
        }
        Command::Stats { files, json } => {
            let summaries = summarize(&files)?;
            print_summaries(&summaries, json)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Reads a file, or standard input for `-`.
fn read_input(path: &Path) -> Result<String> {
    let mut text = String::new();
    if path == Path::new("-") {
        io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| bad_input(format!("cannot read standard input: {e}")))?;
    } else {
        text = std::fs::read_to_string(path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
    }
    Ok(text)
}

fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// The board of a deal; a PySolFC number PySolFC has no game for is bad
/// input.
fn dealt(game: GameKind, number: DealNumber) -> Result<Board> {
    game.deal(number).map_err(|e| bad_input(e.to_string()))
}

/// The board a command works on, checked for the game, and a label for it.
fn load_board(game: GameKind, source: &Source) -> Result<(Board, String)> {
    let number = match (source.deal, source.pysol) {
        (Some(n), _) => Some(DealNumber::Numbered(n)),
        (_, Some(n)) => Some(DealNumber::Pysol(n)),
        _ => None,
    };
    let (board, label) = match (number, &source.file) {
        (Some(number), _) => (dealt(game, number)?, number.to_string()),
        (None, Some(path)) => {
            let name = display_name(path);
            let board =
                Board::parse(&read_input(path)?).map_err(|e| bad_input(format!("{name}: {e}")))?;
            (board, name)
        }
        _ => unreachable!("clap requires one source"),
    };
    game.validate(&board)
        .map_err(|e| bad_input(format!("{label}: {e}")))?;
    Ok((board, label))
}

fn solve(
    game: GameKind,
    source: &Source,
    limits: &Limits,
    tactic: Option<Tactic>,
    threads: usize,
    json: bool,
) -> Result<ExitCode> {
    let (board, label) = load_board(game, source)?;
    let cancel = catch_ctrl_c()?;
    let progress = Arc::new(Progress::default());
    let limits = Limits {
        cancel: Some(cancel.clone()),
        progress: Some(progress.clone()),
        ..limits.clone()
    };
    let done = AtomicBool::new(false);
    let solved = std::thread::scope(|scope| {
        let shown = scope.spawn(|| show_progress(&progress, &done));
        let solved = game.solve_with(&board, &limits, tactic, threads);
        done.store(true, Ordering::Relaxed);
        shown.thread().unpark();
        solved
    });
    let report = solved.map_err(|e| match e {
        SolveError::Board(e) => bad_input(format!("{label}: {e}")),
        SolveError::Tactic { .. } => bad_input(e.to_string()),
        unconfirmed => anyhow!("{label}: {unconfirmed}"),
    })?;
    if json {
        emit(format_args!("{}\n", report_json(game, &label, &report)))?;
    } else {
        emit(format_args!(
            "{}",
            report_text(game, &label, &report, &limits)
        ))?;
    }
    if cancel.load(Ordering::Relaxed) {
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

fn report_json(game: GameKind, label: &str, report: &Report) -> serde_json::Value {
    json!({
        "game": game.name(),
        "deal": label,
        "verdict": report.verdict,
        "stop": report.stop,
        "moves": report.moves.iter().map(Move::to_string).collect::<Vec<_>>(),
        "nodes": report.nodes,
        "turns": report.turns,
        "table_peak": report.table_peak,
        "table_bytes": report.table_bytes,
        "best": report.best,
        "micros": report.elapsed.as_micros() as u64,
        "decided_by": report.decided_by.map(|tactic| tactic.to_string()),
    })
}

/// The text report: the moves, one a line, with everything else as `#`
/// comments so the whole output is a valid move list.
fn report_text(game: GameKind, label: &str, report: &Report, limits: &Limits) -> String {
    let mut out = format!("# {game}, {label}\n");
    let by = match report.decided_by {
        Some(tactic) => format!(", by {tactic}"),
        None => String::new(),
    };
    match report.verdict {
        Verdict::Won => out += &format!("# won in {} moves{by}\n", report.moves.len()),
        Verdict::Lost => {
            out += &format!("# lost: every reachable position was searched, none wins{by}\n")
        }
        Verdict::Unknown => {
            let why = match report.stop {
                Some(search::Stop::MaxNodes) => format!(
                    "stopped at --max-nodes {}",
                    limits.max_nodes.unwrap_or_default()
                ),
                Some(search::Stop::Memory) => "the path being searched outgrew --memory".into(),
                Some(search::Stop::Timeout) => format!(
                    "stopped at --timeout {}s",
                    limits.timeout.unwrap_or_default().as_secs_f64()
                ),
                Some(search::Stop::Narrowed) => {
                    "a narrowed search ended without a win, which proves nothing".into()
                }
                _ => "interrupted".into(),
            };
            let before = match report.stop {
                Some(search::Stop::Narrowed) => "",
                _ => ", before the search ended",
            };
            out += &format!("# unknown: {why}{before}\n");
        }
    }
    for mv in &report.moves {
        out += &format!("{mv}\n");
    }
    let turns = match report.turns {
        1 => String::new(),
        n => format!(" in {n} turns"),
    };
    out += &format!(
        "# {} nodes{turns}, table peak {} positions ({}), best {} cards home, {:.3} s\n",
        report.nodes,
        report.table_peak,
        human_bytes(report.table_bytes),
        report.best,
        report.elapsed.as_secs_f64()
    );
    out
}

fn verify(game: GameKind, source: &Source, moves_path: &Path, show: bool) -> Result<ExitCode> {
    let (board, _) = load_board(game, source)?;
    let name = display_name(moves_path);
    let text = read_input(moves_path)?;
    let moves = notation::parse_moves(&text)
        .map_err(|(line, e)| bad_input(format!("{name}: line {line}: {e}")))?;
    let plain: Vec<Move> = moves.iter().map(|&(_, m)| m).collect();
    let (replay, reached) = reference::replay_to(game.rules(), &board, &plain);
    let (verdict, code) = match replay {
        Replay::Won => (
            format!("won: all {} moves are legal and win the game", plain.len()),
            ExitCode::SUCCESS,
        ),
        Replay::NotWon { cards_home } => (
            format!(
                "not won: all {} moves are legal, but only {cards_home} cards are home",
                plain.len()
            ),
            ExitCode::FAILURE,
        ),
        Replay::Illegal { index, reason } => {
            let (line, mv) = moves[index];
            return Err(bad_input(format!(
                "{name}: line {line}: move {} '{mv}' is illegal: {reason}",
                index + 1
            )));
        }
    };
    match show {
        true => emit(format_args!("# {verdict}\n{}", reached.to_text()))?,
        false => emit(format_args!("{verdict}\n"))?,
    }
    Ok(code)
}

/// What `batch` does with the deals already in its file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Resume {
    /// Nothing: the file must not exist.
    No,
    /// Skips them.
    Skip,
    /// Skips them but for those `unknown`, solved again.
    RetryUnknown,
}

fn run_batch(mut batch: Batch, out: &Path, resume: Resume, json: bool) -> Result<ExitCode> {
    let column = batch::game_column(batch.game, batch.pysol);
    let exists = out.exists();
    if exists && resume == Resume::No {
        return Err(bad_input(format!(
            "{} exists: add --resume to continue it, or choose another file",
            out.display()
        )));
    }
    if exists && resume != Resume::No {
        let asked: HashSet<u64> = batch.deals.iter().copied().collect();
        let retry = (resume == Resume::RetryUnknown).then_some(&asked);
        let done = batch::finished_deals(out, &column, retry).map_err(bad_input)?;
        batch.deals.retain(|n| !done.contains(n));
    }
    let file = File::options()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| bad_input(format!("cannot write {}: {e}", out.display())))?;
    let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
    let mut writer = csv::WriterBuilder::new()
        .has_headers(empty)
        .from_writer(file);

    let cancel = catch_ctrl_c()?;
    batch.limits.cancel = Some(cancel.clone());

    let progress = progress_bar(batch.deals.len() as u64);
    let mut write_error = None;
    let threads = batch.threads;
    // Rows and hard deals both come on this thread, one at a time.
    let won = std::cell::Cell::new(0u64);
    let finished = batch.run_watched(
        |row: Row| {
            won.set(won.get() + (row.verdict == Verdict::Won) as u64);
            progress.inc(1);
            progress.set_message(format!("{} won", won.get()));
            if write_error.is_none() {
                write_error = writer
                    .serialize(&row)
                    .and_then(|_| Ok(writer.flush()?))
                    .err();
            }
        },
        |n| {
            progress.set_message(format!(
                "{} won, hard deal {n} on {threads} threads",
                won.get()
            ))
        },
    )?;
    progress.finish_and_clear();
    if let Some(e) = write_error {
        return Err(anyhow!("writing {}: {e}", out.display()));
    }
    let interrupted = cancel.load(Ordering::Relaxed);
    let summaries = summarize(&[out.to_path_buf()])?;
    print_summaries(&summaries, json)?;
    if !finished.hard.is_empty() {
        /// A batch of 100,000 deals may hand on thousands.
        const SHOWN: usize = 20;
        let hard = &finished.hard;
        let shown: Vec<String> = hard.iter().take(SHOWN).map(u64::to_string).collect();
        let more = match hard.len().saturating_sub(SHOWN) {
            0 => String::new(),
            more => format!(" and {more} more"),
        };
        eprintln!(
            "solved again on {threads} threads, being hard: {} deal{} ({}{more})",
            hard.len(),
            if hard.len() == 1 { "" } else { "s" },
            shown.join(", ")
        );
    }
    if interrupted {
        eprintln!(
            "interrupted: finished rows are in {}; add --resume to do the rest",
            out.display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
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

fn run_bench(games: &[GameKind], size: Size, threads: usize, json: bool) -> Result<ExitCode> {
    if !json {
        let sets = match size {
            Size::Full => "",
            Size::Quick => ", quick sets",
        };
        let plural = if threads == 1 { "" } else { "s" };
        emit(format_args!(
            "bench {}{sets}, {threads} thread{plural}\n",
            bench::VERSION
        ))?;
    }
    for &game in games {
        let set = Set::of(game, size);
        let progress = progress_bar(set.deals.clone().count() as u64);
        progress.set_message(format!("{game}, 0 won"));
        let mut won = 0;
        let summary = set.run(threads, |deal| {
            won += (deal.verdict == Verdict::Won) as u64;
            progress.inc(1);
            progress.set_message(format!("{game}, {won} won"));
        })?;
        progress.finish_and_clear();
        if json {
            emit(format_args!("{}\n", serde_json::to_string(&summary)?))?;
        } else {
            emit(format_args!("{}", bench_text(&summary)))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_text(s: &bench::Summary) -> String {
    let millis = |micros: u64| micros as f64 / 1000.0;
    format!(
        "{}: numbered deals {}..{}, at most {} nodes and {} of table each\n  \
         {} deals in {:.2} s: {:.1} deals/s; {} won, {} lost, {} unknown\n  \
         {} nodes: {:.0} nodes/s\n  \
         per deal: median {:.1} ms, worst {:.1} ms (deal {})\n  \
         table peak: {} positions, {}\n",
        s.game,
        s.first_deal,
        s.last_deal,
        s.max_nodes,
        human_bytes(s.memory),
        s.deals,
        s.seconds,
        s.deals_per_second,
        s.won,
        s.lost,
        s.unknown,
        s.nodes,
        s.nodes_per_second,
        millis(s.median_micros),
        millis(s.worst_micros),
        s.worst_deal,
        s.table_peak,
        human_bytes(s.table_bytes),
    )
}

/// A spinner on stderr, when it is a terminal, while a search runs past
/// half a second: time, positions searched, most cards home. It ends when
/// `done` is set and the thread unparked.
fn show_progress(progress: &Progress, done: &AtomicBool) {
    /// Quick solves end before the spinner would show, and draw nothing.
    const QUIET: Duration = Duration::from_millis(500);
    const TICK: Duration = Duration::from_millis(100);
    if !io::stderr().is_terminal() {
        return;
    }
    let started = std::time::Instant::now();
    let spinner = ProgressBar::hidden();
    while !done.load(Ordering::Relaxed) {
        std::thread::park_timeout(TICK);
        if spinner.is_hidden() && started.elapsed() >= QUIET {
            spinner.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            spinner.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("the template is valid"),
            );
        }
        spinner.set_message(format!(
            "{} positions, {} cards home at best",
            indicatif::HumanCount(progress.nodes()),
            progress.best()
        ));
        spinner.tick();
    }
    spinner.finish_and_clear();
}

fn progress_bar(len: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} deals, {per_sec}, {msg}, ETA {eta}",
        )
        .expect("the template is valid"),
    );
    bar.set_message("0 won");
    bar
}

fn summarize(files: &[PathBuf]) -> Result<Vec<Summary>> {
    let mut all = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
        let rows = stats::read_rows(io::BufReader::new(file), &name)
            .map_err(|e| bad_input(e.to_string()))?;
        all.push((name, rows));
    }
    stats::summarize(&all).map_err(|e| bad_input(e.to_string()))
}

fn print_summaries(summaries: &[Summary], json: bool) -> Result<()> {
    if json {
        let list: Vec<_> = summaries
            .iter()
            .map(|s| {
                json!({
                    "game": s.game, "deals": s.deals, "won": s.won, "lost": s.lost,
                    "unknown": s.unknown, "win_rate": s.win_rate(), "bounds": s.bounds(),
                })
            })
            .collect();
        emit(format_args!("{}\n", serde_json::Value::Array(list)))
    } else if summaries.is_empty() {
        emit(format_args!("no deals\n"))
    } else {
        summaries.iter().try_for_each(|s| emit(format_args!("{s}")))
    }
}

fn human_bytes(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.0} KiB", b as f64 / 1024.0),
    }
}

/// Splits `2.5G` into 2.5 and `G`: a number at least 0, then a unit.
fn number_and_unit(text: &str) -> Option<(f64, &str)> {
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some((value, unit))
}

/// Parses a `--timeout`: a time as [`parse_duration`] reads it, or `none`.
fn parse_time_limit(text: &str) -> Result<TimeLimit, String> {
    match text.trim() {
        "none" => Ok(TimeLimit(None)),
        time => parse_duration(time).map(|time| TimeLimit(Some(time))),
    }
}

/// Parses `30s`, `500ms`, `2m`, `1h` or a plain number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let (value, unit) = number_and_unit(text.trim())
        .ok_or_else(|| format!("'{text}' is not a time like 30s, 500ms or 2m"))?;
    let seconds = match unit {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => {
            return Err(format!(
                "'{text}': unknown unit '{unit}' (use ms, s, m or h)"
            ));
        }
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("'{text}' is too long a time"))
}

/// Parses `512M`, `2G`, `64K` (powers of 1024; `MB`, `MiB` also) or bytes.
fn parse_size(text: &str) -> Result<usize, String> {
    let upper = text.trim().to_ascii_uppercase();
    let (value, unit) =
        number_and_unit(&upper).ok_or_else(|| format!("'{text}' is not a size like 512M or 2G"))?;
    let scale = match unit.trim_end_matches('B').trim_end_matches('I') {
        "" => 1u64,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("'{text}': unknown unit '{unit}' (use K, M or G)")),
    };
    Ok((value * scale as f64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("3 weeks").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(
            parse_duration("99999999999999999999999h")
                .unwrap_err()
                .contains("too long")
        );
    }

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

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("64kib"), Ok(64 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("3Q").is_err());
    }
}
