//! `batch` and `stats`: many deals into a file, and files into a win rate.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::{Result, anyhow};
use serde_json::json;

use patience::batch::{self, Batch, Deals, OutFile, OutFileError, Resume};
use patience::row::Row;
use patience::search::Verdict;
use patience::stats::{self, Summary};

use crate::progress::progress_bar;
use crate::{bad_input, catch_ctrl_c, emit};

/// Runs a batch over `batch.deals`' range, into `out`.
pub fn run_batch(mut batch: Batch, out: &Path, resume: Resume, json: bool) -> Result<ExitCode> {
    let column = batch::game_column(batch.game, batch.pysol);
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

    let progress = progress_bar(batch.deals.len());
    let mut write_error = None;
    let threads = batch.threads;
    // Rows and hard deals both come on this thread, one at a time.
    let won = std::cell::Cell::new(0u64);
    let finished = batch.run_watched(
        |row: Row| {
            won.set(won.get() + (row.verdict == Verdict::Won) as u64);
            progress.inc(1);
            progress.set_message(format!("{} won", won.get()));
            if write_error.is_some() {
                return;
            }
            match file.append(&row) {
                Ok(()) => {
                    // The rows' own merge cannot clash: each deal is solved once.
                    let _ = tally.merge(&row.game, row.deal, row.verdict);
                }
                Err(e) => {
                    // A full disk, say: stop rather than solve for nothing.
                    write_error = Some(e);
                    cancel.store(true, Ordering::Relaxed);
                }
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
        return Err(anyhow!(
            "writing {}: {e}; the rows before are kept: add --resume once it is fixed",
            out.display()
        ));
    }
    print_summaries(&tally.summaries(), json)?;
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
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: finished rows are in {}; add --resume to do the rest",
            out.display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// `stats`: the files' rows merged, a summary a game.
pub fn run_stats(files: &[PathBuf], json: bool) -> Result<ExitCode> {
    let (tally, notes) = stats::read_files(files).map_err(|e| bad_input(e.to_string()))?;
    for note in &notes {
        eprintln!("note: {note}");
    }
    print_summaries(&tally.summaries(), json)?;
    Ok(ExitCode::SUCCESS)
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
