//! `batch` and `stats`: many deals into a file, and files into a win rate.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{Result, anyhow};
use serde_json::json;

use patience::batch::{Batch, Deals, HARD_SHARE, Hard, OutFile, OutFileError, Resume};
use patience::row::Row;
use patience::search::Verdict;
use patience::stats::{self, Summary, Times};

use crate::plot;
use crate::progress::DealProgress;
use crate::{bad_input, catch_ctrl_c, emit};

/// How `batch` reports besides its file.
pub struct Output {
    /// One JSON object a deal on standard output as it finishes, then one
    /// a game for the summary (JSON Lines), instead of the text summary.
    pub json: bool,
    /// How often a progress line goes to a standard error that is no
    /// terminal.
    pub report_every: Duration,
}

/// Runs a batch over `batch.deals`' range, into `out`.
pub fn run_batch(
    mut batch: Batch,
    out: &Path,
    resume: Resume,
    output: &Output,
) -> Result<ExitCode> {
    let column = batch.column();
    let range = batch.deals.range().clone();
    let opened = OutFile::open(out, &column, &range, resume).map_err(|e| match e {
        OutFileError::Io { .. } => anyhow!(e),
        e => bad_input(e.to_string()),
    })?;
    let (mut file, mut tally) = (opened.file, opened.tally);
    for note in &opened.notes {
        eprintln!("note: {note}");
    }
    let mut deals = Deals::new(range);
    if let Some(verdicts) = tally.game(&column) {
        for (deal, _) in verdicts.deals() {
            deals.leave_out(deal);
        }
    }
    batch.deals = deals;

    let cancel = catch_ctrl_c()?;
    batch.limits.cancel = Some(cancel.clone());

    // A slow deal, put aside after its share, has the rest of its limit.
    let slow_limit = (batch.limits.timeout).map(|t| t - t / HARD_SHARE);
    let progress = RefCell::new(
        DealProgress::new(batch.deals.len(), output.report_every).with_slow_limit(slow_limit),
    );
    let mut failed: Option<anyhow::Error> = None;
    let threads = batch.threads;
    // Rows and slow deals both come on this thread, one at a time.
    let won = Cell::new(0u64);
    let finished = batch.run_watched(
        |row: Row| {
            won.set(won.get() + (row.verdict == Verdict::Won) as u64);
            progress.borrow_mut().done_one(format!("{} won", won.get()));
            if failed.is_some() {
                return;
            }
            let written = (file.append(&row))
                .map_err(|e| {
                    anyhow!(
                        "writing {}: {e}; the rows before are kept: add --resume once it is fixed",
                        out.display()
                    )
                })
                .and_then(|()| match output.json {
                    true => emit(format_args!(
                        "{}\n",
                        json!({"type": "deal", "data": row_json(&row)})
                    )),
                    false => Ok(()),
                });
            match written {
                // The rows' own merge cannot clash: each deal is solved once.
                Ok(()) => drop(tally.merge(&row.game, row.deal, row.verdict)),
                Err(e) => {
                    // A full disk, or a reader gone: stop rather than
                    // solve for nothing.
                    failed = Some(e);
                    cancel.store(true, Ordering::Relaxed);
                }
            }
        },
        |hard| match hard {
            Hard::PutAside(_) => progress.borrow_mut().put_aside(),
            Hard::Started(n) => progress.borrow_mut().slow_started(format!(
                "{} won; deal {n}, slow, now on all {threads} threads",
                won.get()
            )),
        },
    )?;
    progress.borrow().finish();
    if let Some(e) = failed {
        return Err(e);
    }
    match output.json {
        true => tally.summaries().iter().try_for_each(|s| {
            emit(format_args!(
                "{}\n",
                json!({"type": "summary", "data": summary_json(s)})
            ))
        })?,
        false => print_summaries(&tally.summaries(), false)?,
    }
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
            "undecided after 1/{} of their limits, so solved again on all {threads} threads: \
             {} deal{} ({}{more})",
            HARD_SHARE,
            hard.len(),
            if hard.len() == 1 { "" } else { "s" },
            shown.join(", ")
        );
    }
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: finished rows are in {}; add --resume to do the rest",
            out.display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// A row as JSON: the columns of the file, each a number but for the game
/// and the verdict.
fn row_json(row: &Row) -> serde_json::Value {
    json!({
        "game": row.game, "deal": row.deal, "verdict": row.verdict, "moves": row.moves,
        "nodes": row.nodes, "micros": row.micros, "best": row.best,
    })
}

fn summary_json(s: &Summary) -> serde_json::Value {
    json!({
        "game": s.game, "deals": s.deals, "won": s.won, "lost": s.lost,
        "unknown": s.unknown, "win_rate": s.win_rate(), "bounds": s.bounds(),
    })
}

/// `stats`: the files' rows merged, a summary a game; with `deals`, the
/// deals of that range each game still lacks; with `plot`, the charts.
pub fn run_stats(
    files: &[PathBuf],
    json: bool,
    deals: Option<RangeInclusive<u64>>,
    plot: Option<&Path>,
) -> Result<ExitCode> {
    let mut times: BTreeMap<String, Times> = BTreeMap::new();
    let (tally, notes) = stats::read_files(files, |row| {
        if plot.is_some() {
            times.entry(row.game.clone()).or_default().add(row);
        }
    })
    .map_err(|e| bad_input(e.to_string()))?;
    for note in &notes {
        eprintln!("note: {note}");
    }
    let summaries = tally.summaries();
    let missing: Vec<Vec<RangeInclusive<u64>>> = match &deals {
        Some(range) => (summaries.iter())
            .map(|s| stats::missing(tally.game(&s.game), range.clone()))
            .collect(),
        None => Vec::new(),
    };
    if json {
        let list: Vec<_> = (summaries.iter().enumerate())
            .map(|(i, s)| {
                let mut json = summary_json(s);
                if let Some(runs) = missing.get(i) {
                    let runs: Vec<[u64; 2]> = runs.iter().map(|r| [*r.start(), *r.end()]).collect();
                    json["missing"] = json!(runs);
                }
                json
            })
            .collect();
        emit(format_args!("{}\n", serde_json::Value::Array(list)))?;
    } else {
        print_summaries(&summaries, false)?;
        if let Some(range) = &deals {
            for (s, runs) in summaries.iter().zip(&missing) {
                emit(format_args!("{}\n", missing_text(&s.game, range, runs)))?;
            }
        }
    }
    if let Some(path) = plot {
        let empty = Times::default();
        let games: Vec<plot::Game> = (summaries.iter())
            .map(|s| plot::Game {
                name: &s.game,
                verdicts: tally.game(&s.game).expect("a summary's game has verdicts"),
                times: times.get(&s.game).unwrap_or(&empty),
            })
            .collect();
        plot::plot(path, &games)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `raglan: 3 of deals 1..1000 missing: 17, 200..201`, the runs cut at
/// twenty.
fn missing_text(game: &str, range: &RangeInclusive<u64>, runs: &[RangeInclusive<u64>]) -> String {
    /// Runs named at most.
    const SHOWN: usize = 20;
    let count: u64 = runs.iter().map(|r| r.end() - r.start() + 1).sum();
    let (start, end) = (range.start(), range.end());
    if runs.is_empty() {
        return format!("{game}: none of deals {start}..{end} missing");
    }
    let mut shown: Vec<String> = (runs.iter().take(SHOWN))
        .map(|r| match r.start() == r.end() {
            true => r.start().to_string(),
            false => format!("{}..{}", r.start(), r.end()),
        })
        .collect();
    if runs.len() > SHOWN {
        shown.push(format!("and {} more runs", runs.len() - SHOWN));
    }
    format!(
        "{game}: {count} of deals {start}..{end} missing: {}",
        shown.join(", ")
    )
}

fn print_summaries(summaries: &[Summary], json: bool) -> Result<()> {
    if json {
        let list: Vec<_> = summaries.iter().map(summary_json).collect();
        emit(format_args!("{}\n", serde_json::Value::Array(list)))
    } else if summaries.is_empty() {
        emit(format_args!("no deals\n"))
    } else {
        summaries.iter().try_for_each(|s| emit(format_args!("{s}")))
    }
}
