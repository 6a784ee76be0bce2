//! Raglan: its reserve, and moves that break its rules.
//!
//! `dealt_lines("raglan")[0]` is the Foundations line (line 1), `[1]`
//! the Reserve (line 2), `[2..=10]` the nine piles (lines 3 to 11).

use super::*;

#[test]
fn the_unspoilt_raglan_board_solves() {
    let dir = TempDir::new().unwrap();
    let path = board_file(&dir, &dealt_lines("raglan"));
    patience()
        .args(["solve", "raglan", "--max-nodes", "1", "--file"])
        .arg(&path)
        .assert()
        .success();
}

#[test]
fn raglan_boards_with_the_wrong_places_are_refused() {
    let lines = dealt_lines("raglan");
    let eight = lines[..10].to_vec();
    assert_game_board_error("raglan", &eight, &["8 tableau piles"]);
    let ten = [&lines[..], &[": 2H".to_string()]].concat();
    assert_game_board_error("raglan", &ten, &["line 12", "10 tableau piles"]);
    let mut short_reserve = lines.clone();
    short_reserve[1] = "Reserve: 9D 8H JC 4H 5C".into();
    assert_game_board_error("raglan", &short_reserve, &["line 2", "5 reserve places"]);
    let mut face_down = lines.clone();
    face_down[2] = ": 6C QD | TD 8S 7H TS 5H".into();
    assert_game_board_error("raglan", &face_down, &["line 3", "face-down"]);
}

#[test]
fn raglan_boards_with_the_wrong_cards_are_refused() {
    let lines = dealt_lines("raglan");
    let mut twice = lines.clone();
    twice[10] = ": KH".into();
    assert_game_board_error("raglan", &twice, &["line 11", "KH"]);
    let mut missing = lines.clone();
    missing[10] = ":".into();
    assert_game_board_error("raglan", &missing, &["KC", "missing"]);
    let mut already_home = lines.clone();
    already_home[0] = "Foundations: AH AS 3C AD".into();
    assert_game_board_error("raglan", &already_home, &["2C", "home"]);
}

#[test]
fn raglan_moves_that_break_a_rule_are_named() {
    for (mv, reason) in [
        ("r4 t5 4H", "4H does not go on 5D"),
        ("t1 r1 5H", "nothing moves onto the reserve"),
        ("t3 t4 7C x2", "one card at a time"),
    ] {
        assert_bad_input(
            patience()
                .args(["verify", "raglan", "1", "--moves", "-"])
                .write_stdin(format!("# a comment\n{mv}\n")),
            &["standard input", "line 2", reason],
        );
    }
}

#[test]
fn raglan_solutions_verify() {
    let report = stdout_of(patience().args(["solve", "raglan", "2"]));
    assert!(report.contains("# won"), "{report}");
    patience()
        .args(["verify", "raglan", "2", "--moves", "-"])
        .write_stdin(report)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
}

/// Raglan deal 10 is lost: best-first search and the full walk each prove
/// it alone; a narrowed walk only ends, and says so.
#[test]
fn one_tactic_alone_proves_only_what_it_can() {
    let alone = |tactic: &str| -> Value {
        let out = stdout_of(
            patience()
                .args(["solve", "raglan", "10", "--json", "--threads", "1"])
                .args(["--tactic", tactic]),
        );
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
    };
    for tactic in ["best-first", "full"] {
        let report = alone(tactic);
        assert_eq!(verdict(&report), "lost", "{tactic}: {report}");
        assert_eq!(report["turns"].as_u64(), Some(1), "{tactic}: {report}");
    }
    let narrowed = alone("narrowed-8");
    assert_eq!(verdict(&narrowed), "unknown", "{narrowed}");
    assert_eq!(narrowed["stop"].as_str(), Some("narrowed"), "{narrowed}");
    let text = stdout_of(patience().args(["solve", "raglan", "10", "--tactic", "narrowed-8"]));
    assert!(
        text.contains("# unknown: a narrowed search ended without a win"),
        "{text}"
    );
    assert_bad_input(
        patience().args(["solve", "raglan", "10", "--tactic", "sideways"]),
        &["`sideways` is not a tactic"],
    );
    // Games whose levels are a table of choices refuse a level past it.
    for (game, tactic) in [
        ("alexandria", "narrowed-4"),
        ("alexandria", "beam-4"),
        ("lanes", "narrowed-4"),
        ("rows-of-four", "narrowed-4"),
    ] {
        assert_bad_input(
            patience().args(["solve", game, "1", "--tactic", tactic]),
            &["narrowing levels 1 to 3, not 4"],
        );
    }
}
