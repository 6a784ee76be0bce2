//! `deal`, `solve` and `verify` working together.

use super::*;

#[test]
fn deal_pysol_matches_pysolfc_layouts() {
    // Each All in a Row block of the file: a `# All in a Row ... game
    // number N, ...` line, then `row[i]: cards` bottom to top.
    let layouts = read(&data("pysol/pysolfc_layouts.txt"));
    let mut checked = 0;
    for block in layouts.split("\n\n") {
        let Some(header) = block.lines().next() else {
            continue;
        };
        if !header.starts_with("# All in a Row") {
            continue;
        }
        let number = header
            .split("game number ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .expect("a game number");
        let expected: Vec<&str> = block
            .lines()
            .filter_map(|line| line.strip_prefix("row["))
            .map(|line| line.split_once(": ").expect("row[i]: cards").1)
            .collect();
        let dealt = stdout_of(patience().args(["deal", GAME, "--pysol", number]));
        let piles: Vec<&str> = dealt.lines().filter_map(|l| l.strip_prefix(": ")).collect();
        assert_eq!(piles, expected, "PySolFC game {number}");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} layouts found");
}

#[test]
fn deal_prints_the_pinned_numbered_layouts() {
    for n in ["1", "2", "3"] {
        let dealt = stdout_of(patience().args(["deal", GAME, n]));
        let board: Vec<&str> = dealt.lines().filter(|l| !l.starts_with('#')).collect();
        let pinned = read(&data(&format!("deals/all-in-a-row-{n}.txt")));
        assert_eq!(board, pinned.lines().collect::<Vec<_>>(), "deal {n}");
    }
}

#[test]
fn a_dealt_board_solves_from_standard_input() {
    let board = stdout_of(patience().args(["deal", GAME, "7"]));
    let piped = stdout_of(
        patience()
            .args(["solve", GAME, "--threads", "1", "--file", "-"])
            .write_stdin(board),
    );
    assert!(piped.contains("standard input"), "{piped}");
    // One thread: on more, the walks race, and the line found may differ.
    let direct = stdout_of(patience().args(["solve", GAME, "7", "--threads", "1"]));
    assert!(direct.contains("# won in 52 moves\n"), "{direct}");
    assert_eq!(move_lines(&piped), move_lines(&direct));
}

/// On two threads the walks share one table; a win still replays, and
/// `--threads 0` is bad usage.
#[test]
fn solve_on_two_threads_wins_with_moves_that_verify() {
    let report = solve_json(&["--pysol", WON_PYSOL], &["--threads", "2"]);
    assert_eq!(verdict(&report), "won", "{report}");
    assert_eq!(report["decided_by"], "full", "{report}");
    verify_pysol(WON_PYSOL, &json_moves(&report))
        .success()
        .stdout(predicate::str::starts_with("won"));
    assert_bad_input(
        patience().args(["solve", GAME, "7", "--threads", "0"]),
        &["--threads"],
    );
}

#[test]
fn black_hole_solver_boards_are_read_as_they_are() {
    let expected = bhs_verdicts();
    for n in 1..=6 {
        let path = data(&format!("bhs/samples/deal_{n}.board"));
        let report = solve_json(&["--file", path.to_str().unwrap()], &[]);
        assert_eq!(verdict(&report), expected[&n], "sample {n}");
    }
}

#[test]
fn a_solution_written_to_a_file_verifies() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("solution.txt");
    let solution = stdout_of(patience().args(["solve", GAME, "--pysol", WON_PYSOL]));
    assert!(solution.contains("# won in 52 moves"), "{solution}");
    assert_eq!(move_lines(&solution).len(), 52);
    fs::write(&path, solution).unwrap();
    patience()
        .args(["verify", GAME, "--pysol", WON_PYSOL, "--moves"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
}

#[test]
fn solve_json_has_every_field_and_its_moves_win() {
    let report = solve_json(&["--pysol", WON_PYSOL], &[]);
    assert_eq!(verdict(&report), "won");
    assert_eq!(report["moves"].as_array().map(Vec::len), Some(52));
    assert_eq!(report["best"].as_u64(), Some(52));
    for field in ["nodes", "turns", "table_peak", "micros"] {
        assert!(report[field].is_u64(), "{field} in {report}");
    }
    assert!(report["nodes"].as_u64() > Some(0));
    verify_pysol(WON_PYSOL, &json_moves(&report))
        .success()
        .stdout(predicate::str::starts_with("won"));
}

#[test]
fn a_lost_deal_is_lost() {
    let out = stdout_of(patience().args(["solve", GAME, "--pysol", LOST_PYSOL]));
    assert!(out.contains("# lost"), "{out}");
    let report = solve_json(&["--pysol", LOST_PYSOL], &[]);
    assert_eq!(verdict(&report), "lost");
    assert_eq!(
        report["moves"].as_array().map(Vec::len),
        Some(0),
        "{report}"
    );
    // The moves printed are the longest line of play, as many as the
    // cards it gets home.
    let best = report["best"].as_u64().unwrap();
    assert!(best < 52, "{report}");
    assert_eq!(move_lines(&out).len() as u64, best, "{out}");
    assert_eq!(
        report["longest_line"].as_array().map(Vec::len),
        Some(best as usize)
    );
}

#[test]
fn a_node_limit_gives_unknown_on_a_won_deal() {
    let out = stdout_of(patience().args(["solve", GAME, "--pysol", WON_PYSOL, "--max-nodes", "5"]));
    assert!(out.contains("# unknown"), "{out}");
    assert!(move_lines(&out).is_empty(), "{out}");
    let report = solve_json(&["--pysol", WON_PYSOL], &["--max-nodes", "5"]);
    assert_eq!(verdict(&report), "unknown");
}

#[test]

fn a_node_limit_is_not_exceeded() {
    let report = solve_json(&["--pysol", WON_PYSOL], &["--max-nodes", "5"]);
    assert!(report["nodes"].as_u64() <= Some(5), "{report}");
}

#[test]
fn a_zero_timeout_never_gives_a_wrong_verdict() {
    // The clock may be read only now and then, so a small search can still
    // end; whatever the verdict, it must not be the wrong one.
    for (pysol, truth) in [(WON_PYSOL, "won"), (LOST_PYSOL, "lost")] {
        let report = solve_json(&["--pysol", pysol], &["--timeout", "0s"]);
        assert!(
            ["unknown", truth].contains(&verdict(&report)),
            "game {pysol}: {report}"
        );
        if verdict(&report) == "won" {
            verify_pysol(pysol, &json_moves(&report)).success();
        }
    }
    // Game 7 needs over half a million positions (black-hole-solver: 1.16
    // million): no search that heeds the timeout ends it in no time.
    let report = solve_json(&["--pysol", "7"], &["--timeout", "0s"]);
    assert_eq!(verdict(&report), "unknown", "{report}");
}

#[test]
fn a_small_memory_cap_keeps_the_verdicts() {
    // Game 20 (lost) needs about 20,000 positions, more than a 64 KiB
    // table holds, so the table must forget some and still prove it lost.
    let bhs = bhs_verdicts();
    for pysol in [3, 20] {
        let report = solve_json(&["--pysol", &pysol.to_string()], &["--memory", "64K"]);
        assert_eq!(verdict(&report), bhs[&pysol], "game {pysol}: {report}");
        assert!(report["table_bytes"].as_u64() <= Some(64 << 10), "{report}");
        if bhs[&pysol] == "won" {
            verify_pysol(&pysol.to_string(), &json_moves(&report)).success();
        }
    }
}

#[test]
fn legal_but_incomplete_moves_are_not_won() {
    let solution = stdout_of(patience().args(["solve", GAME, "--pysol", WON_PYSOL]));
    let first_20: String = move_lines(&solution)[..20]
        .iter()
        .map(|m| format!("{m}\n"))
        .collect();
    verify_pysol(WON_PYSOL, &first_20)
        .code(1)
        .stdout(predicate::str::starts_with("not won"));
}

/// A reader that goes away before the output is written (`patience ... |
/// head`) ends the program quietly: no panic, and success.
#[test]
fn a_closed_output_pipe_is_no_panic() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(["solve", "raglan", "10", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("patience starts");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("patience ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
}

/// `verify --board` prints the board part of a line reaches, which
/// `solve --file -` takes up: a player stuck part way goes on from there.
#[test]
fn verify_prints_the_board_reached_to_solve_on_from() {
    let moves = fs::read_to_string(data("solutions/rows-of-four-235.moves")).unwrap();
    let part: String = moves
        .lines()
        .filter(|line| !line.starts_with('#'))
        .take(320)
        .map(|line| format!("{line}\n"))
        .collect();
    let verify = patience()
        .args(["verify", "rows-of-four", "235", "--board", "--moves", "-"])
        .write_stdin(part)
        .assert()
        .code(1);
    let board = text(&verify.get_output().stdout);
    assert!(
        board.starts_with(
            "# not won: all 320 moves are legal, but only 83 cards are home\nFoundations: "
        ),
        "{board}"
    );
    let report = stdout_of(
        patience()
            .args(["solve", "rows-of-four", "--file", "-"])
            .write_stdin(board.clone()),
    );
    assert!(report.contains("# won in "), "{report}");
}

/// `--pysol` deals PySolFC's layout, one card already on the waste, and
/// the solution verifies from that same deal.
#[test]
fn pysol_deals_of_the_stock_games_solve_and_verify() {
    for (game, number) in [("lanes", "1000000"), ("rows-of-four", "1")] {
        let board = stdout_of(patience().args(["deal", game, "--pysol", number]));
        assert!(board.contains("\nWaste: "), "{game}: {board}");
        let report = stdout_of(patience().args(["solve", game, "--pysol", number]));
        assert!(report.contains("# won"), "{game}: {report}");
        patience()
            .args(["verify", game, "--pysol", number, "--moves", "-"])
            .write_stdin(report)
            .assert()
            .success()
            .stdout(predicate::str::starts_with("won"));
    }
}
