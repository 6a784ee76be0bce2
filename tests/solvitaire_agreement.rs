//! Raglan verdicts against Solvitaire (Blake and Gent's solver), given the
//! same rules: Aces start home, single-card moves, any card to an empty
//! pile, the reserve never refilled. Each board is in the deal text format
//! (`tests/data/solvitaire/README.md`), so patience solves exactly the
//! position Solvitaire did.

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

/// Every board Solvitaire decided gets the same verdict; a `won` is
/// confirmed by the reference rules inside `GameKind::solve`. All
/// disagreements are listed at once.
#[test]
#[cfg_attr(debug_assertions, ignore = "solves 150 boards: run with --release")]
fn raglan_verdicts_agree_with_solvitaire() {
    let records = records("raglan.jsonl");
    assert_eq!(records.len(), 150, "the copied data is whole");
    let disagreements: Vec<String> = records
        .par_iter()
        .filter_map(|record| {
            let expected = match record.result.as_str() {
                "solved" => Verdict::Won,
                "unsolvable" => Verdict::Lost,
                _ => return None,
            };
            let board = Board::parse(&record.text).expect("a Solvitaire board parses");
            let got = GameKind::Raglan
                .solve(&board, &Limits::default())
                .map(|report| report.verdict);
            (got != Ok(expected)).then(|| {
                format!(
                    "board {}: patience {got:?}, Solvitaire {expected}",
                    record.deal
                )
            })
        })
        .collect();
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// A table far too small for the search forgets positions: the search
/// expands some again, so it takes longer, but it still ends with the same
/// verdict. Boards 11 and 82 are proven lost by a best-first attempt whose
/// table forgot positions (its queue ran dry), and board 109 is won though
/// the attempts before the win had their tables forget. (That the path
/// guard alone ends a cycle the table forgot is a unit test in `search`, on
/// a toy ring.)
#[test]
#[cfg_attr(debug_assertions, ignore = "millions of positions: run with --release")]
fn a_table_that_forgets_keeps_the_verdicts() {
    let records = records("raglan.jsonl");
    for (deal, expected) in [
        (11, Verdict::Lost),
        (82, Verdict::Lost),
        (109, Verdict::Won),
    ] {
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
