//! Lanes: its stock, its redeal, and boards typed in mid-game.
//!
//! `dealt_lines("lanes")[0]` is the Foundations line (line 1), `[1]` the
//! Stock (line 2), `[2..=7]` the six piles (lines 3 to 8).

use super::*;

/// Lanes deals 4257, 4710, 6040 and 8443, unknown at the default limits
/// in the record before the horizon walks, are won: the lines found in
/// long runs and by a horizon walk (`results/README.md`) replay to a win
/// with the reference rules.
#[test]
fn lanes_hard_deals_are_won() {
    let deals = [(4257, 150), (4710, 187), (6040, 135), (8443, 156)];
    assert_solutions_win("lanes", &deals);
}

#[test]
fn the_unspoilt_lanes_board_solves() {
    let dir = TempDir::new().unwrap();
    let path = board_file(&dir, &dealt_lines("lanes"));
    patience()
        .args(["solve", "lanes", "--max-nodes", "1", "--file"])
        .arg(&path)
        .assert()
        .success();
}

#[test]
fn lanes_boards_with_the_wrong_places_are_refused() {
    let lines = dealt_lines("lanes");
    let five = lines[..7].to_vec();
    assert_game_board_error("lanes", &five, &["5 tableau piles"]);
    let seven = [&lines[..], &[":".to_string()]].concat();
    assert_game_board_error("lanes", &seven, &["line 9", "7 tableau piles"]);
    let redeals = [&lines[..], &["Redeals: 2".to_string()]].concat();
    assert_game_board_error("lanes", &redeals, &["line 9", "Redeals: 2", "at most 1"]);
    let reserve = [&lines[..], &["Reserve: -".to_string()]].concat();
    assert_game_board_error("lanes", &reserve, &["line 9", "Lanes has no reserve"]);
    let mut face_down = lines.clone();
    face_down[2] = ": 6C | 4D 2H".into();
    assert_game_board_error("lanes", &face_down, &["line 3", "face-down"]);
}

#[test]
fn lanes_boards_a_copy_off_are_refused() {
    let lines = dealt_lines("lanes");
    let mut twice = lines.clone();
    twice[7] = ": 9H 9C TD 4S".into();
    assert_game_board_error("lanes", &twice, &["line 8", "4S appears twice"]);
    let mut missing = lines.clone();
    missing[7] = ": 9H 9C".into();
    assert_game_board_error("lanes", &missing, &["TD", "missing"]);
}

#[test]
fn lanes_moves_that_break_a_rule_are_named() {
    // Deal 1's stock starts 4S 7S; its t1 is 6C 4D 2H.
    for (moves, line, reason) in [
        ("draw 4S\nw t1 4S\n", 3, "4S does not go on 2H"),
        ("draw 7S\n", 2, "not 7S"),
        ("redeal\n", 2, "the stock"),
        ("t1 t2 2H x2\n", 2, "one card at a time"),
    ] {
        assert_bad_input(
            patience()
                .args(["verify", "lanes", "1", "--moves", "-"])
                .write_stdin(format!("# a comment\n{moves}")),
            &["standard input", &format!("line {line}"), reason],
        );
    }
    // The whole stock drawn, turned over once, drawn again: a second
    // redeal is one too many, and a draw from the empty stock fails.
    let stock: Vec<String> = dealt_lines("lanes")[1]
        .trim_start_matches("Stock: ")
        .split(' ')
        .map(|card| format!("draw {card}"))
        .collect();
    let pass = stock.join("\n");
    for (last, reason) in [("redeal", "no redeal left"), ("draw 4S", "stock is empty")] {
        let moves = format!("{pass}\nredeal\n{pass}\n{last}\n");
        assert_bad_input(
            patience()
                .args(["verify", "lanes", "1", "--moves", "-"])
                .write_stdin(moves),
            &["standard input", "line 62", reason],
        );
    }
}

#[test]
fn lanes_solutions_verify_with_their_draws_and_redeals() {
    let report = stdout_of(patience().args(["solve", "lanes", "7"]));
    assert!(report.contains("# won"), "{report}");
    assert!(report.contains("\ndraw "), "{report}");
    patience()
        .args(["verify", "lanes", "7", "--moves", "-"])
        .write_stdin(report)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
}

/// A board typed in the middle of a game, its waste turned and its redeal
/// used, solves like a fresh deal (deal 1 with ten cards drawn is won),
/// and its solution, with no redeal, verifies from it.
#[test]
fn a_lanes_board_in_mid_game_solves() {
    let lines = dealt_lines("lanes");
    let stock: Vec<&str> = lines[1].trim_start_matches("Stock: ").split(' ').collect();
    let mid = [
        vec![
            lines[0].clone(),
            format!("Stock: {}", stock[10..].join(" ")),
            format!("Waste: {}", stock[..10].join(" ")),
            "Redeals: 0".to_string(),
        ],
        lines[2..].to_vec(),
    ]
    .concat();
    let dir = TempDir::new().unwrap();
    let path = board_file(&dir, &mid);
    let report = stdout_of(patience().args(["solve", "lanes", "--file"]).arg(&path));
    assert!(report.contains("# won"), "{report}");
    assert!(!report.contains("\nredeal"), "{report}");
    patience()
        .args(["verify", "lanes", "--moves", "-", "--file"])
        .arg(&path)
        .write_stdin(report)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
}

/// `--tactic relaxed` proves a lost Lanes deal lost (deal 374, in about
/// 1.4M positions), saying what the relaxation allowed; it wins deal 5 by
/// a line of the game's, which replays; on deal 676 its walk first wins
/// the relaxation by lines that swap run cards, and then, refined, wins
/// the deal by a line of the game's. One thread, as which win comes first
/// on two hangs on timing. A game with no relaxation refuses the tactic.
#[test]
fn the_relaxed_walk_proves_losses_and_wins_by_the_games_lines() {
    let json_of = |deal: &str| -> Value {
        let args = [
            "solve",
            "lanes",
            deal,
            "--tactic",
            "relaxed",
            "--threads",
            "1",
            "--json",
        ];
        let out = stdout_of(patience().args(args));
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
    };
    let lost = json_of("374");
    assert_eq!(verdict(&lost), "lost", "{lost}");
    assert_eq!(lost["decided_by"].as_str(), Some("relaxed"), "{lost}");
    let text = stdout_of(patience().args(["solve", "lanes", "374", "--tactic", "relaxed"]));
    assert!(
        text.contains("# The search played lanes's relaxation"),
        "{text}"
    );
    let won = json_of("5");
    assert_eq!(verdict(&won), "won", "{won}");
    assert_eq!(won["decided_by"].as_str(), Some("relaxed"), "{won}");
    assert_eq!(won["best"].as_u64(), Some(52), "{won}");
    let args = [
        "solve",
        "lanes",
        "5",
        "--tactic",
        "relaxed",
        "--threads",
        "1",
    ];
    let text = stdout_of(patience().args(args));
    patience()
        .args(["verify", "lanes", "5", "--moves", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
    let refined = json_of("676");
    assert_eq!(verdict(&refined), "won", "{refined}");
    let moves = refined["moves"].as_array().expect("a won line").iter();
    let moves: Vec<&str> = moves.map(|mv| mv.as_str().expect("a move")).collect();
    patience()
        .args(["verify", "lanes", "676", "--moves", "-"])
        .write_stdin(moves.join("\n"))
        .assert()
        .success()
        .stdout(predicate::str::starts_with("won"));
    assert_bad_input(
        patience().args(["solve", "raglan", "1", "--tactic", "relaxed"]),
        &["raglan has no relaxation"],
    );
}
