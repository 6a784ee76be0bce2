//! `solve`: one deal searched, and its report as a move list or JSON.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, anyhow};
use indicatif::HumanCount;
use serde_json::json;

use patience::games::{GameKind, SolveError};
use patience::notation::Move;
use patience::search::{self, Limits, Progress, Report, Tactic, Verdict};

use crate::input::load_board;
use crate::progress::show_progress;
use crate::units::human_bytes;
use crate::{Source, bad_input, catch_ctrl_c, emit};

/// How `solve` reports.
pub struct Output {
    pub json: bool,
    /// Adds the search's own figures to the text report: the tactic that
    /// decided, its turns, the table's peak, the most cards home.
    pub verbose: bool,
}

/// `solve`: one deal, its verdict and moves.
pub fn solve(
    game: GameKind,
    source: &Source,
    limits: &Limits,
    tactic: Option<Tactic>,
    threads: usize,
    output: &Output,
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
        SolveError::Tactic { .. } | SolveError::NoRelaxation { .. } => bad_input(e.to_string()),
        unconfirmed => anyhow!("{label}: {unconfirmed}"),
    })?;
    game.longest_line(&board, &mut report, &limits);
    match output.json {
        true => emit(format_args!(
            "{}\n",
            report_json(game, source, &label, &report)
        ))?,
        false => emit(format_args!(
            "{}",
            report_text(game, &label, &report, &limits, output.verbose)
        ))?,
    }
    if cancel.load(Ordering::Relaxed) {
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// Where a deal came from, as JSON fields: its number and kind, or the
/// file it was read from.
pub fn deal_json(source: &Source, label: &str) -> serde_json::Value {
    match (source.deal, source.pysol) {
        (Some(n), _) => json!({"deal": n, "source": "numbered"}),
        (_, Some(n)) => json!({"deal": n, "source": "pysol"}),
        _ => json!({"deal": null, "source": "file", "file": label}),
    }
}

fn report_json(game: GameKind, source: &Source, label: &str, report: &Report) -> serde_json::Value {
    let moves = |moves: &[Move]| moves.iter().map(Move::to_string).collect::<Vec<_>>();
    let mut json = json!({
        "game": game.name(),
        "verdict": report.verdict,
        "stop": report.stop,
        "moves": moves(&report.moves),
        "nodes": report.nodes,
        "turns": report.turns,
        "table_peak": report.table_peak,
        "table_bytes": report.table_bytes,
        "best": report.best,
        "longest_line": moves(&report.longest_line),
        "micros": report.elapsed.as_micros() as u64,
        "decided_by": report.decided_by.map(|tactic| tactic.to_string()),
    });
    if let (Some(fields), serde_json::Value::Object(deal)) =
        (json.as_object_mut(), deal_json(source, label))
    {
        fields.extend(deal);
    }
    json
}

/// The text report: the moves, one a line, with everything else as `#`
/// comments so the whole output is a valid move list.
fn report_text(
    game: GameKind,
    label: &str,
    report: &Report,
    limits: &Limits,
    verbose: bool,
) -> String {
    let mut out = format!("# {game}, {label}\n");
    match report.verdict {
        Verdict::Won => out += &format!("# won in {} moves\n", report.moves.len()),
        Verdict::Lost => {
            out += &format!(
                "# lost: no line of play wins. Every reachable position was searched, but \
                 for those {game}'s pruning proves no win needs: {}\n",
                game.pruning()
            );
            if let (Some(search::Tactic::Relaxed), Some(relaxation)) =
                (report.decided_by, game.relaxation())
            {
                out += &format!(
                    "# The search played {game}'s relaxation, which allows every line of \
                     the game and more: {relaxation}\n"
                );
            }
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
                Some(search::Stop::Relaxed) => {
                    "the search won the relaxation, which proves nothing".into()
                }
                _ => "interrupted".into(),
            };
            let before = match report.stop {
                Some(search::Stop::Narrowed | search::Stop::Relaxed) => "",
                _ => ", before the search ended",
            };
            out += &format!(
                "# unknown: {why}{before}; {} cards home at best\n",
                report.best
            );
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
    if verbose {
        let by = match report.decided_by {
            Some(tactic) => format!("decided by tactic {tactic}, "),
            None => String::new(),
        };
        out += &format!(
            "# {by}{} turns; table peak {} positions ({}); best {} cards home\n",
            report.turns,
            HumanCount(report.table_peak as u64),
            human_bytes(report.table_bytes),
            report.best,
        );
    }
    out += &format!(
        "# {} positions searched in {:.3} s\n",
        HumanCount(report.nodes),
        report.elapsed.as_secs_f64()
    );
    out
}
