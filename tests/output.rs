//! What a user reads: the usage in the order it parses, reports in a
//! user's words (the search's own under `--verbose`), JSON a program can
//! read, progress where no terminal shows a bar, and a solution that can
//! be followed on the table.

use predicates::prelude::*;
use serde_json::Value;
use tempfile::TempDir;

mod common;

use common::*;

#[test]
fn usage_puts_the_game_before_the_deal() {
    for (command, usage) in [
        (
            "solve",
            "Usage: patience solve [OPTIONS] <GAME> <DEAL|--pysol <N>|--file <PATH>>",
        ),
        (
            "verify",
            "Usage: patience verify [OPTIONS] <GAME> <DEAL|--pysol <N>|--file <PATH>> --moves <PATH>",
        ),
    ] {
        let help = stdout_of(patience().args([command, "--help"]));
        assert!(help.contains(usage), "{help}");
    }
    // The other order is refused, naming what it expected.
    patience()
        .args(["solve", "5", GAME])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value '5' for '<GAME>'"));
}

/// The text report speaks of moves, positions and cards; the tactic, the
/// turns and the table come with `--verbose`.
#[test]
fn the_search_words_wait_for_verbose() {
    let plain = stdout_of(patience().args(["solve", GAME, "7", "--threads", "1"]));
    for inner in ["by full", "turns", "table peak", "tactic"] {
        assert!(!plain.contains(inner), "{inner} in {plain}");
    }
    assert!(plain.contains("positions searched in"), "{plain}");
    let verbose = stdout_of(patience().args(["solve", GAME, "7", "--threads", "1", "-v"]));
    for inner in ["decided by tactic full", "turns", "table peak"] {
        assert!(verbose.contains(inner), "{inner} not in {verbose}");
    }
    assert_eq!(move_lines(&plain), move_lines(&verbose));
}

fn move_lines(report: &str) -> Vec<&str> {
    report.lines().filter(|l| !l.starts_with('#')).collect()
}

/// `--json` gives the deal as a number, and where it came from beside it.
#[test]
fn json_gives_the_deal_as_a_number_and_its_source() {
    let json = |args: &[&str]| -> Value {
        let out = stdout_of(
            patience()
                .args(["solve", GAME, "--json", "--threads", "1"])
                .args(args),
        );
        serde_json::from_str(&out).unwrap()
    };
    let numbered = json(&["2"]);
    assert_eq!(
        (&numbered["deal"], &numbered["source"]),
        (&Value::from(2), &Value::from("numbered"))
    );
    let pysol = json(&["--pysol", "3"]);
    assert_eq!(
        (&pysol["deal"], &pysol["source"]),
        (&Value::from(3), &Value::from("pysol"))
    );
    let dir = TempDir::new().unwrap();
    let board = dir.path().join("board.txt");
    std::fs::write(&board, stdout_of(patience().args(["deal", GAME, "2"]))).unwrap();
    let file = json(&["--file", board.to_str().unwrap()]);
    assert_eq!(
        (&file["deal"], &file["source"]),
        (&Value::Null, &Value::from("file"))
    );
    assert_eq!(file["file"], board.to_str().unwrap());
    assert_eq!(file["moves"], numbered["moves"].clone());
}

/// `batch --json` writes a line a deal as it finishes, the file's row in
/// JSON, then a line a game with the summary.
#[test]
fn batch_json_is_a_line_a_deal_then_the_summary() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    let text = stdout_of(
        patience()
            .args(["batch", GAME, "--deals", "1..6", "--json", "--out"])
            .arg(&out),
    );
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7, "{text}");
    let rows = read_batch(&out);
    for line in &lines[..6] {
        assert_eq!(line["type"], "deal");
        let data = &line["data"];
        let row = rows
            .iter()
            .find(|r| Some(r.deal) == data["deal"].as_u64())
            .unwrap();
        assert_eq!(data["verdict"], row.verdict.as_str());
        assert_eq!(data["moves"].as_u64(), Some(row.moves));
        assert!(data["nodes"].is_u64() && data["micros"].is_u64() && data["best"].is_u64());
    }
    let summary = &lines[6];
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["data"]["deals"], 6);
    assert_eq!(summary["data"]["game"], GAME);
}

/// With no terminal to draw a bar on, a batch says how far it got every so
/// often, its rate in whole deals a second.
#[test]
fn a_batch_off_a_terminal_reports_progress_lines() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    let output = patience()
        .args([
            "batch",
            GAME,
            "--deals",
            "1..4",
            "--threads",
            "1",
            "--report-every",
            "0",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = text(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    let last = lines[3];
    assert!(last.starts_with("4 of 4 deals (100%), 3 won, "), "{last}");
    let rate = last.split(", ").nth(2).unwrap();
    let (number, unit) = rate.split_once(' ').unwrap();
    assert!(number.parse::<u64>().is_ok() && unit == "deals/s", "{rate}");
}

/// `verify --steps` prints the board at the start and after each move; the
/// last board is the one `--board` prints.
#[test]
fn verify_steps_shows_the_board_after_each_move() {
    let moves = stdout_of(patience().args(["solve", "lanes", "3", "--threads", "1"]));
    let count = move_lines(&moves).len();
    let steps = stdout_of(
        patience()
            .args(["verify", "lanes", "3", "--steps", "--moves", "-"])
            .write_stdin(moves.clone()),
    );
    assert!(steps.starts_with("# the start\n"), "{steps}");
    assert_eq!(steps.matches("\n# move ").count(), count);
    assert!(steps.contains("# move 1: "));
    let verdict = format!("\n# won: all {count} moves are legal and win the game\n");
    assert!(steps.ends_with(&verdict), "{steps}");
    let last_board = steps.rsplit("\n# move ").next().unwrap();
    let board = stdout_of(
        patience()
            .args(["verify", "lanes", "3", "--board", "--moves", "-"])
            .write_stdin(moves),
    );
    let board = board.split_once('\n').unwrap().1;
    assert!(last_board.contains(board), "{last_board}\n---\n{board}");
}
