//! End-to-end tests of the `patience` binary: the contract a user sees.
//!
//! The library's tests check the rules and the search; these check the
//! command line around them: the exit codes (0 done, 1 a negative answer
//! from `verify`, 2 bad input, 130 interrupted), that every bad input gets
//! a one-line message naming the file and line at fault and never a panic,
//! and that the commands feed each other: `deal` into `solve`, `solve` into
//! `verify`, `batch` into `stats`, a stopped batch into `--resume`.
//!
//! Expected verdicts come from outside patience wherever possible:
//! black-hole-solver's results (`tests/data/bhs`) and PySolFC's own
//! layouts (`tests/data/pysol`).
//!
//! One module a concern: bad input (`inputs`), `solve` and `verify`,
//! `batch` and `stats`, stopped batches, `--help`, `bench`, and each game's
//! own boards and moves beyond All in a Row's.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;
use serde_json::Value;
use tempfile::TempDir;

#[path = "../common/mod.rs"]
mod common;

mod alexandria;
mod batch;
mod bench;
mod help;
mod inputs;
mod lanes;
mod raglan;
mod rows_of_four;
mod solve;
#[cfg(unix)]
mod stopped_batches;

use common::*;

/// Each `(deal, moves)` of `game` has its line in
/// `tests/data/solutions/GAME-DEAL.moves`, which `verify` replays to a win
/// in that many moves.
fn assert_solutions_win(game: &str, solutions: &[(u64, usize)]) {
    for &(deal, moves) in solutions {
        let path = data(&format!("solutions/{game}-{deal}.moves"));
        let mut cmd = patience();
        cmd.args(["verify", game, &deal.to_string(), "--moves", "-"])
            .write_stdin(fs::read_to_string(path).unwrap());
        cmd.assert()
            .success()
            .stdout(predicate::str::starts_with(format!(
                "won: all {moves} moves"
            )));
    }
}

/// The move lines of a `solve` text report: everything but `#` comments.
fn move_lines(report: &str) -> Vec<&str> {
    report.lines().filter(|l| !l.starts_with('#')).collect()
}

/// `solve --json` on a deal, parsed.
fn solve_json(deal: &[&str], limits: &[&str]) -> Value {
    let out = stdout_of(
        patience()
            .args(["solve", GAME, "--json"])
            .args(deal)
            .args(limits),
    );
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

fn verdict(report: &Value) -> &str {
    report["verdict"].as_str().expect("a verdict string")
}

/// The moves of a JSON report, one a line, as `verify` reads them.
fn json_moves(report: &Value) -> String {
    let moves = report["moves"].as_array().expect("a moves array");
    moves
        .iter()
        .map(|m| format!("{}\n", m.as_str().expect("a move string")))
        .collect()
}

/// Replays `moves` (given on standard input) on PySolFC game `pysol`.
fn verify_pysol(pysol: &str, moves: &str) -> assert_cmd::assert::Assert {
    patience()
        .args(["verify", GAME, "--pysol", pysol, "--moves", "-"])
        .write_stdin(moves)
        .assert()
}

/// black-hole-solver's verdicts on PySolFC game numbers, as patience
/// words them.
fn bhs_verdicts() -> BTreeMap<u64, &'static str> {
    read(&data("bhs/all_in_a_row_pysol_1-3000.csv"))
        .lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let verdict = match fields[1] {
                "solved" => "won",
                "unsolvable" => "lost",
                other => panic!("black-hole-solver verdict {other:?}"),
            };
            (fields[0].parse().expect("a deal number"), verdict)
        })
        .collect()
}

/// The pinned layout of deal 1 (RULES.md numbering), one entry a line:
/// `lines[0]` is `Foundations: -` (line 1), `lines[1..=13]` the piles
/// (lines 2 to 14). Tests spoil one line and expect it to be named.
fn deal_1_lines() -> Vec<String> {
    read(&data("deals/all-in-a-row-1.txt"))
        .lines()
        .map(String::from)
        .collect()
}

/// Writes `lines` as `board.txt` in `dir`.
fn board_file(dir: &TempDir, lines: &[String]) -> PathBuf {
    let path = dir.path().join("board.txt");
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Writes `lines` as a board file and checks that `solve` rejects it with
/// a message naming the file and holding each of `needles`.
fn assert_board_error(lines: &[String], needles: &[&str]) {
    assert_game_board_error(GAME, lines, needles);
}

/// [`assert_board_error`] for any game.
fn assert_game_board_error(game: &str, lines: &[String], needles: &[&str]) {
    let dir = TempDir::new().unwrap();
    let path = board_file(&dir, lines);
    let name = path.display().to_string();
    assert_bad_input(
        patience().args(["solve", game, "--file"]).arg(&path),
        &[&[name.as_str()], needles].concat(),
    );
}

/// Numbered deal 1 of `game` as `deal` prints it, one entry a line, its
/// `#` comments left out: tests spoil one line and expect it to be named.
fn dealt_lines(game: &str) -> Vec<String> {
    stdout_of(patience().args(["deal", game, "1"]))
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(String::from)
        .collect()
}
