//! `solve`: one deal searched, and its report as a move list or JSON.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, anyhow};
use serde_json::json;

use patience::games::{GameKind, SolveError};
use patience::notation::Move;
use patience::search::{self, Limits, Progress, Report, Tactic, Verdict};

use crate::input::load_board;
use crate::progress::show_progress;
use crate::units::human_bytes;
use crate::{Source, bad_input, catch_ctrl_c, emit};

/// `solve`: one deal, its verdict and moves.
pub fn solve(
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
    let mut report = solved.map_err(|e| match e {
        SolveError::Board(e) => bad_input(format!("{label}: {e}")),
        SolveError::Tactic { .. } => bad_input(e.to_string()),
        unconfirmed => anyhow!("{label}: {unconfirmed}"),
    })?;
    game.longest_line(&board, &mut report, &limits);
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
        "longest_line": report.longest_line.iter().map(Move::to_string).collect::<Vec<_>>(),
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
            out += &format!(
                "# lost: no line wins: every reachable position was searched{by}, but for \
                 what {game}'s pruning proves no win needs: {}\n",
                game.pruning()
            )
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
    if !report.longest_line.is_empty() {
        out += &format!(
            "# the longest line of play gets {} cards home:\n",
            report.best
        );
        for mv in &report.longest_line {
            out += &format!("{mv}\n");
        }
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
