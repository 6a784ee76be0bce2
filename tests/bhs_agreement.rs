//! Agreement with black-hole-solver on PySolFC All in a Row deals.
//!
//! black-hole-solver is the independent, public exact solver for All in a
//! Row, with the rules of RULES.md. Its verdicts on PySolFC game numbers
//! 1–3000 (`tests/data/bhs/`, see the README there) are an outside check of
//! both the search and the PySolFC deals: a deal dealt wrongly, a pruning
//! rule that loses wins or a move the engine invents would each show up
//! as a disagreement here sooner or later.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use patience::board::Board;
use patience::game::Game;
use patience::games::GameKind;
use patience::games::all_in_a_row::AllInARow;
use patience::reference::{Replay, replay};
use patience::search::{Limits, Tables, Verdict, solve};
use rayon::prelude::*;
use serde::Deserialize;

/// The deals the committed slice of black-hole-solver's results covers.
const DEALS: RangeInclusive<u64> = 1..=3000;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bhs")
}

/// black-hole-solver's verdict, as its CSV writes it.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum BhsVerdict {
    Solved,
    Unsolvable,
}

impl BhsVerdict {
    /// The verdict patience must give. black-hole-solver searched every
    /// deal to the end, so `unknown` is never the expected answer and is
    /// always a disagreement.
    fn expected(self) -> Verdict {
        match self {
            BhsVerdict::Solved => Verdict::Won,
            BhsVerdict::Unsolvable => Verdict::Lost,
        }
    }
}

/// One CSV row; the `states` column (black-hole-solver's effort) is not
/// compared, since the two searches expand positions differently.
#[derive(Deserialize)]
struct Row {
    deal: u64,
    verdict: BhsVerdict,
}

fn bhs_rows() -> Vec<Row> {
    let path = data_dir().join("all_in_a_row_pysol_1-3000.csv");
    let mut reader = csv::Reader::from_path(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    reader
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Solves PySolFC deal `n` and checks the verdict against `bhs`, and a win
/// against the reference rules; the error says how they disagree.
fn check_deal(
    n: u64,
    bhs: BhsVerdict,
    table: &mut Tables<<AllInARow as Game>::Key>,
) -> Result<(), String> {
    let board = GameKind::AllInARow
        .pysol_deal(n)
        .map_err(|e| format!("deal {n}: no PySolFC deal: {e}"))?;
    let game = AllInARow::new(&board).map_err(|e| format!("deal {n}: bad board: {e}"))?;
    let report = solve(&game, &Limits::default(), table);
    if report.verdict != bhs.expected() {
        return Err(format!(
            "deal {n}: patience says {}, black-hole-solver says {}",
            report.verdict,
            bhs.expected()
        ));
    }
    if report.verdict == Verdict::Won {
        let replayed = replay(GameKind::AllInARow.rules(), &board, &report.moves);
        if replayed != Replay::Won {
            return Err(format!(
                "deal {n}: the solution does not replay to a win: {replayed:?}"
            ));
        }
    }
    Ok(())
}

/// Every deal, both cores. Each rayon job reuses one table across its
/// deals (the search clears it), so tables are made a few times per
/// thread, not once per deal. All disagreements are gathered before
/// failing, so one run shows the whole picture.
///
/// Unoptimised, the search is about eight times slower and this test
/// would take many minutes, so a debug build skips it; CI runs it with
/// `cargo test --release` (or `-- --include-ignored` forces it).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "minutes unoptimised: run with cargo test --release"
)]
fn verdicts_agree_with_black_hole_solver() {
    let rows = bhs_rows();
    let deals: Vec<u64> = rows.iter().map(|row| row.deal).collect();
    assert_eq!(
        deals,
        DEALS.collect::<Vec<_>>(),
        "the CSV must hold each deal of {DEALS:?} once, in order"
    );
    let memory = Limits::default().memory;
    let failures: Vec<String> = rows
        .par_iter()
        .map_init(
            || Tables::new(memory),
            |table, row| check_deal(row.deal, row.verdict, table).err(),
        )
        .flatten()
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} deals disagree with black-hole-solver:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// The boards black-hole-solver was given for deals 1–10, in its own
/// format (tableau lines without ':'), read as they are and found to be
/// the same positions as the PySolFC deals.
#[test]
fn black_hole_solver_boards_are_the_pysol_deals() {
    for n in 1..=10 {
        let path = data_dir().join(format!("samples/deal_{n}.board"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let board = Board::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        GameKind::AllInARow
            .validate(&board)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let pysol = GameKind::AllInARow
            .pysol_deal(n)
            .unwrap_or_else(|e| panic!("deal {n}: {e}"));
        assert_eq!(board.to_text(), pysol.to_text(), "deal {n}");
    }
}
