//! Verdicts against Solvitaire (Blake and Gent's solver). Raglan it was
//! given with the same rules: Aces start home, single-card moves, any card
//! to an empty pile, the reserve never refilled. Lanes it cannot give with
//! exactly one redeal, so it solved Lanes with none and with no limit
//! (`tests/data/solvitaire/README.md`). Each board is in the deal text
//! format, so patience solves exactly the position Solvitaire did.

use rayon::prelude::*;
use serde::Deserialize;

use patience::board::Board;
use patience::games::GameKind;
use patience::search::{Limits, Verdict};

#[derive(Deserialize)]
struct Record {
    deal: u64,
    result: String,
    text: String,
}

fn records(file: &str) -> Vec<Record> {
    let path = format!(
        "{}/tests/data/solvitaire/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// Solves each of `file`'s boards that `expect` gives a verdict for (from
/// Solvitaire's result), with `edit` applied to the board's text, and
/// lists every board where patience says otherwise. A `won` is confirmed
/// by the reference rules inside `GameKind::solve`. Returns how many
/// boards were checked.
fn agree(
    game: GameKind,
    file: &str,
    edit: impl Fn(&str) -> String + Sync,
    expect: impl Fn(&str) -> Option<Verdict> + Sync,
) -> usize {
    let records = records(file);
    assert_eq!(records.len(), 150, "the copied data is whole");
    let checked: Vec<Option<String>> = records
        .par_iter()
        .filter_map(|record| {
            let expected = expect(&record.result)?;
            let board = Board::parse(&edit(&record.text)).expect("a Solvitaire board parses");
            let got = game
                .solve(&board, &Limits::default())
                .map(|report| report.verdict);
            Some((got != Ok(expected)).then(|| {
                format!(
                    "board {}: patience {got:?}, Solvitaire {expected}",
                    record.deal
                )
            }))
        })
        .collect();
    let disagreements: Vec<String> = checked.iter().flatten().cloned().collect();
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    checked.len()
}

/// Solvitaire's verdict as it stands.
fn exactly(result: &str) -> Option<Verdict> {
    match result {
        "solved" => Some(Verdict::Won),
        "unsolvable" => Some(Verdict::Lost),
        _ => None,
    }
}

/// Every board Solvitaire decided gets the same verdict.
#[test]
#[cfg_attr(debug_assertions, ignore = "solves 150 boards: run with --release")]
fn raglan_verdicts_agree_with_solvitaire() {
    let checked = agree(GameKind::Raglan, "raglan.jsonl", str::to_string, exactly);
    assert_eq!(checked, 150);
}

/// Lanes with no redeal is Lanes from a board that says `Redeals: 0`, so
/// there patience must give Solvitaire's verdict exactly.
#[test]
#[cfg_attr(debug_assertions, ignore = "solves 113 boards: run with --release")]
fn lanes_without_a_redeal_agrees_with_solvitaire() {
    let no_redeal = |text: &str| format!("Redeals: 0\n{text}");
    let checked = agree(GameKind::Lanes, "lanes_lower.jsonl", no_redeal, exactly);
    assert_eq!(checked, 113);
}

/// With its one redeal, Lanes wins every board Solvitaire won with none
/// (a redeal only adds options), and loses every board Solvitaire lost
/// with as many redeals as it liked. (Solvitaire proved none of its
/// boards lost that way, so the second half checks nothing yet.)
#[test]
#[cfg_attr(debug_assertions, ignore = "solves 59 boards: run with --release")]
fn lanes_lies_between_solvitaire_bounds() {
    let won_below = |result: &str| (result == "solved").then_some(Verdict::Won);
    let lower = agree(
        GameKind::Lanes,
        "lanes_lower.jsonl",
        str::to_string,
        won_below,
    );
    assert_eq!(lower, 59);
    let lost_above = |result: &str| (result == "unsolvable").then_some(Verdict::Lost);
    let upper = agree(
        GameKind::Lanes,
        "lanes_upper.jsonl",
        str::to_string,
        lost_above,
    );
    assert_eq!(upper, 0);
}

/// A table far too small for the search forgets positions: the search
/// expands some again, so it takes longer, but it still ends with the same
/// verdict. Boards 11 and 82 are proven lost by a best-first attempt whose
/// table forgot positions (its queue ran dry), and board 90 is won though
/// the attempts before the win had their tables forget (353k positions
/// against 13k). (That the path
/// guard alone ends a cycle the table forgot is a unit test in `search`, on
/// a toy ring.)
#[test]
#[cfg_attr(debug_assertions, ignore = "millions of positions: run with --release")]
fn a_table_that_forgets_keeps_the_verdicts() {
    let records = records("raglan.jsonl");
    for (deal, expected) in [(11, Verdict::Lost), (82, Verdict::Lost), (90, Verdict::Won)] {
        let record = records.iter().find(|r| r.deal == deal).expect("the board");
        let board = Board::parse(&record.text).expect("a Solvitaire board parses");
        let solve = |memory| {
            // A search that went round a cycle for ever would hit this cap
            // and fail rather than hang.
            let limits = Limits {
                memory,
                max_nodes: Some(40_000_000),
                ..Limits::default()
            };
            GameKind::Raglan
                .solve(&board, &limits)
                .expect("a Raglan board")
        };
        let (roomy, cramped) = (solve(Limits::default().memory), solve(64 << 10));
        assert_eq!(roomy.verdict, expected, "board {deal}");
        assert_eq!(cramped.verdict, expected, "board {deal}, 64 KiB table");
        assert!(cramped.table_bytes <= 64 << 10, "board {deal}");
        assert!(
            cramped.nodes > roomy.nodes,
            "board {deal}: the small table never forgot ({} positions)",
            cramped.nodes
        );
    }
}
