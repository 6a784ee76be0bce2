//! Bad input: every malformed board or move list is an error naming the
//! file and line, and a file that cannot be read is named.

use super::*;

#[test]
fn the_unspoilt_board_solves() {
    // The board the error tests start from must itself be accepted, or
    // they would pass for the wrong reason.
    let dir = TempDir::new().unwrap();
    let path = board_file(&dir, &deal_1_lines());
    patience()
        .args(["solve", GAME, "--max-nodes", "1", "--file"])
        .arg(&path)
        .assert()
        .success();
}

#[test]
fn a_missing_card_is_named() {
    let mut lines = deal_1_lines();
    assert_eq!(lines[3], ": 3H AS AC KS");
    lines[3] = ": 3H AS AC".into();
    // No line is at fault for a card that is nowhere.
    assert_board_error(&lines, &["KS", "missing"]);
}

#[test]
fn a_duplicated_card_names_its_second_line() {
    let mut lines = deal_1_lines();
    assert_eq!(lines[5], ": 8C KD 2D KH");
    lines[5] = ": 8C KD 2D 6C".into();
    assert_board_error(&lines, &["line 6", "6C appears twice"]);
}

#[test]
fn an_unknown_card_names_its_line() {
    let mut lines = deal_1_lines();
    lines[6] = ": 7D JS ZZ 7C".into();
    assert_board_error(&lines, &["line 7", "'ZZ'"]);
}

#[test]
fn twelve_piles_are_too_few() {
    let mut lines = deal_1_lines();
    lines.pop();
    assert_board_error(&lines, &["12 tableau piles", "13"]);
}

#[test]
fn fourteen_piles_name_the_extra_one() {
    let mut lines = deal_1_lines();
    assert_eq!(lines[13], ": 9C 9S TS 8D");
    lines[13] = ": 9C 9S TS".into();
    lines.push(": 8D".into());
    assert_board_error(&lines, &["line 15", "14 tableau piles"]);
}

#[test]
fn a_pile_of_five_names_its_line() {
    let mut lines = deal_1_lines();
    lines[2] = ": AH 3S 2C".into();
    lines[7] = ": 9H TD QS 9D JD".into();
    assert_board_error(&lines, &["line 8", "5 cards"]);
}

#[test]
fn a_face_down_bar_names_its_line() {
    let mut lines = deal_1_lines();
    lines[8] = ": 4D | 4S 7H 8H".into();
    assert_board_error(&lines, &["line 9", "face-down"]);
}

#[test]
fn a_reserve_line_names_its_line() {
    let mut lines = deal_1_lines();
    lines.insert(1, "Reserve: 5H".into());
    assert_board_error(&lines, &["line 2", "reserve"]);
}

#[test]
fn a_stock_line_names_its_line() {
    let mut lines = deal_1_lines();
    lines.insert(1, "Stock: -".into());
    assert_board_error(&lines, &["line 2", "stock"]);
}

#[test]

fn header_line_errors_read_as_english() {
    for header in ["Reserve: 5H", "Stock: -"] {
        let mut lines = deal_1_lines();
        lines.insert(1, header.into());
        let dir = TempDir::new().unwrap();
        let path = board_file(&dir, &lines);
        patience()
            .args(["solve", GAME, "--file"])
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("has no a ").not());
    }
}

#[test]
fn an_unknown_header_names_its_line() {
    let mut lines = deal_1_lines();
    lines.insert(1, "Tableau: 5H".into());
    assert_board_error(&lines, &["line 2", "unknown line"]);
}

#[test]
fn comment_and_blank_lines_count_in_line_numbers() {
    let mut lines = deal_1_lines();
    lines[6] = ": 7D JS ZZ 7C".into();
    lines.splice(0..0, ["# typed by hand".into(), String::new()]);
    assert_board_error(&lines, &["line 9", "'ZZ'"]);
}

// Files that cannot be read.

#[test]
fn a_missing_board_file_is_named() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("no-such.board");
    assert_bad_input(
        patience().args(["solve", GAME, "--file"]).arg(&path),
        &[&path.display().to_string(), "cannot read"],
    );
}

#[test]
fn an_unreadable_board_file_is_named() {
    // A directory: unreadable as a file even for root, unlike chmod 000.
    let dir = TempDir::new().unwrap();
    assert_bad_input(
        patience().args(["solve", GAME, "--file"]).arg(dir.path()),
        &[&dir.path().display().to_string(), "cannot read"],
    );
}

#[test]
fn a_missing_moves_file_is_named() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("no-such.moves");
    assert_bad_input(
        patience()
            .args(["verify", GAME, "--pysol", WON_PYSOL, "--moves"])
            .arg(&path),
        &[&path.display().to_string(), "cannot read"],
    );
}

#[test]
fn an_unreadable_moves_file_is_named() {
    let dir = TempDir::new().unwrap();
    assert_bad_input(
        patience()
            .args(["verify", GAME, "--pysol", WON_PYSOL, "--moves"])
            .arg(dir.path()),
        &[&dir.path().display().to_string(), "cannot read"],
    );
}

// Move lists: an illegal or malformed move names the moves file's line.

/// Replays `bad_move` as line 4 of a moves file on PySolFC game 1, after
/// a comment, the legal `t1 f 6D` and a blank line, and checks the error
/// names the file, line 4 and each of `needles`. Game 1's top cards are
/// 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H AS (tests/data/pysol).
fn assert_move_error(bad_move: &str, needles: &[&str]) {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("game.moves");
    fs::write(&path, format!("# PySolFC game 1\nt1 f 6D\n\n{bad_move}\n")).unwrap();
    let name = path.display().to_string();
    assert_bad_input(
        patience()
            .args(["verify", GAME, "--pysol", LOST_PYSOL, "--moves"])
            .arg(&path),
        &[&[name.as_str(), "line 4"], needles].concat(),
    );
}

#[test]
fn a_move_naming_the_wrong_card_is_illegal() {
    assert_move_error("t5 f 7C", &["7C", "6C"]);
}

#[test]
fn a_card_that_does_not_fit_the_foundation_is_illegal() {
    assert_move_error("t2 f 8S", &["8S", "6D"]);
}

#[test]
fn a_pile_out_of_range_is_illegal() {
    assert_move_error("t14 f 7C", &["t14"]);
}

#[test]
fn a_malformed_move_line_is_named() {
    assert_move_error("t1 onto f", &["not a move"]);
}

#[test]

fn a_word_for_a_place_is_not_blamed_on_counting() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("game.moves");
    fs::write(&path, "t5 to f\n").unwrap();
    patience()
        .args(["verify", GAME, "--pysol", LOST_PYSOL, "--moves"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("count from 1").not());
}
