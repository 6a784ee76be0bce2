//! Alexandria: face-down cards, runs, three decks.

use super::*;

/// The eight Alexandria deals unknown at the default limits in
/// `results/alexandria-60s.csv` are won: the lines found by `solve` in 10
/// seconds to 7 minutes, and 388's by a variant of the beam
/// (`tests/data/solutions`, `results/README.md`), replay to a win with
/// the reference rules.
#[test]
fn alexandria_hard_deals_are_won() {
    let solutions = [
        (3, 371),
        (95, 387),
        (37, 395),
        (48, 383),
        (195, 412),
        (388, 406),
        (616, 381),
        (704, 367),
    ];
    assert_solutions_win("alexandria", &solutions);
}

/// A late Alexandria board, one entry a line: 146 cards home, the stock
/// (line 2) JD QC, the waste (line 3) KH; t1 (line 4) a KD on a
/// face-down QS, t2 (line 5) QH and KC face up (not a run), t3 (line 6)
/// the run QD JS on a face-down KS, t4 to t13 (lines 7 to 16) empty.
fn alexandria_late_lines() -> Vec<String> {
    let mut lines: Vec<String> = [
        "Foundations: KC KC JC KD KD TD KH KH JH KS KS TS",
        "Stock: JD QC",
        "Waste: KH",
        ": QS | KD",
        ": QH KC",
        ": KS | QD JS",
    ]
    .map(String::from)
    .to_vec();
    lines.extend(std::iter::repeat_n(":".to_string(), 10));
    lines
}

#[test]
fn alexandria_deal_1_is_the_committed_layout() {
    let out = stdout_of(patience().args(["deal", "alexandria", "1"]));
    assert_eq!(
        out,
        format!(
            "# alexandria, deal 1\n{}",
            read(&data("deals/alexandria-1.txt"))
        )
    );
    assert!(out.contains(" | "), "{out}");
}

#[test]
fn alexandria_boards_with_the_wrong_places_are_refused() {
    let lines = alexandria_late_lines();
    let dir = TempDir::new().unwrap();
    patience()
        .args(["solve", "alexandria", "--max-nodes", "1", "--file"])
        .arg(board_file(&dir, &lines))
        .assert()
        .success();
    assert_game_board_error("alexandria", &lines[..15], &["12 tableau piles", "has 13"]);
    let fourteen = [&lines[..], &[":".to_string()]].concat();
    assert_game_board_error("alexandria", &fourteen, &["line 17", "14 tableau piles"]);
    let redeals = [&lines[..], &["Redeals: 1".to_string()]].concat();
    assert_game_board_error(
        "alexandria",
        &redeals,
        &["line 17", "Redeals: 1", "at most 0"],
    );
    let mut two_bars = lines.clone();
    two_bars[3] = ": QS | KD | KH".into();
    assert_game_board_error("alexandria", &two_bars, &["line 4", "only one '|'"]);
    let mut nothing_up = lines.clone();
    nothing_up[3] = ": QS KD |".into();
    assert_game_board_error(
        "alexandria",
        &nothing_up,
        &["line 4", "face-down cards and none face up"],
    );
    let mut fourth = lines.clone();
    fourth[6] = ": KH".into();
    assert_game_board_error(
        "alexandria",
        &fourth,
        &["line 7", "KH appears more than 3 times"],
    );
    let mut missing = lines.clone();
    missing[1] = "Stock: JD".into();
    assert_game_board_error("alexandria", &missing, &["QC", "missing"]);
}

#[test]
fn face_down_cards_are_refused_in_the_other_games() {
    let mut lines: Vec<String> = read(&data("deals/rows-of-four-1.txt"))
        .lines()
        .map(String::from)
        .collect();
    lines[2] = ": 9H AH | 3H 9S".into();
    assert_game_board_error("rows-of-four", &lines, &["line 3", "no face-down cards"]);
}

#[test]
fn alexandria_moves_that_break_a_rule_are_named() {
    let dir = TempDir::new().unwrap();
    let path = board_file(&dir, &alexandria_late_lines());
    for (mv, reason) in [
        ("t2 t4 QH x2", "QH KC is not a run: KC does not go on QH"),
        (
            "t3 t4 QD x2",
            "an empty pile takes only a King or a run headed by a King",
        ),
        ("t3 t4 JS", "an empty pile takes only a King"),
        ("t3 t1 KS x3", "t3 has 2 face-up cards"),
        ("t1 t3 KD", "KD does not go on JS"),
        ("redeal", "Alexandria has no redeal"),
    ] {
        assert_bad_input(
            patience()
                .args(["verify", "alexandria", "--moves", "-", "--file"])
                .arg(&path)
                .write_stdin(format!("{mv}\n")),
            &["standard input", "line 1", reason],
        );
    }
}

#[test]
fn alexandria_solutions_verify_and_turn_face_down_cards_up() {
    let dir = TempDir::new().unwrap();
    let path = board_file(&dir, &alexandria_late_lines());
    let report = stdout_of(
        patience()
            .args(["solve", "alexandria", "--file"])
            .arg(&path),
    );
    assert!(report.contains("# won"), "{report}");
    patience()
        .args(["verify", "alexandria", "--moves", "-", "--file"])
        .arg(&path)
        .write_stdin(report)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
    let json = stdout_of(
        patience()
            .args(["solve", "alexandria", "--json", "--file"])
            .arg(&path),
    );
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(verdict(&json), "won");
    patience()
        .args(["verify", "alexandria", "--moves", "-", "--file"])
        .arg(&path)
        .write_stdin(json_moves(&json))
        .assert()
        .success();
}

#[test]
fn alexandria_has_no_pysol_deals() {
    for args in [
        vec!["deal", "alexandria", "--pysol", "1"],
        vec!["solve", "alexandria", "--pysol", "1"],
    ] {
        assert_bad_input(
            patience().args(&args),
            &["PySolFC's alexandria deals", "deal number or --file"],
        );
    }
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("runs.csv");
    assert_bad_input(
        patience()
            .args(["batch", "alexandria", "--pysol", "--deals", "1..2", "--out"])
            .arg(&out),
        &["PySolFC's alexandria deals"],
    );
    assert!(!out.exists());
}

#[test]
fn help_says_face_down_cards_are_known() {
    let help = stdout_of(patience().arg("--help"));
    assert!(help.contains("face-down"), "{help}");
    let help = stdout_of(patience().args(["solve", "--help"]));
    assert!(help.contains("alexandria"), "{help}");
}

/// A whole dealt game, 156 cards, won by a beam led by rollouts (the
/// walks alone won none of the first twenty deals in seconds), and the
/// line replays under the reference rules.
#[test]
fn a_whole_alexandria_deal_is_won_by_the_beam_and_verifies() {
    let json =
        stdout_of(patience().args(["solve", "alexandria", "10", "--tactic", "beam-2", "--json"]));
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(verdict(&json), "won");
    patience()
        .args(["verify", "alexandria", "10", "--moves", "-"])
        .write_stdin(json_moves(&json))
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
}
