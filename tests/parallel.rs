//! One deal searched on several threads (`search::solve_parallel`) against
//! the same deal on one: where both decide, they agree, and every win the
//! threads find replays to a win with the reference rules (which
//! `GameKind::solve_with` checks before it returns one).

use patience::games::{DealNumber, GameKind};
use patience::search::{Limits, Tactic, Verdict};

const MIB_256: usize = 256 << 20;

fn limits(max_nodes: u64, memory: usize) -> Limits {
    Limits {
        max_nodes: Some(max_nodes),
        memory,
        ..Limits::default()
    }
}

/// Solves deals `deals` of `game` on 1 and on `threads` threads, asserts
/// their verdicts agree where both decided, and counts the verdicts of
/// the threads: (won, lost).
fn agree(
    game: GameKind,
    deals: std::ops::RangeInclusive<u64>,
    threads: usize,
    tactic: Option<Tactic>,
    (max_nodes, memory): (u64, usize),
) -> (usize, usize) {
    let (mut won, mut lost) = (0, 0);
    for n in deals {
        let board = game.deal(DealNumber::Numbered(n)).unwrap();
        let solve = |threads| {
            game.solve_with(&board, &limits(max_nodes, memory), tactic, threads)
                .unwrap_or_else(|e| panic!("{game} deal {n} on {threads} threads: {e}"))
        };
        let (one, many) = (solve(1), solve(threads));
        if one.verdict != Verdict::Unknown && many.verdict != Verdict::Unknown {
            assert_eq!(one.verdict, many.verdict, "{game} deal {n}");
        }
        won += (many.verdict == Verdict::Won) as usize;
        lost += (many.verdict == Verdict::Lost) as usize;
    }
    (won, lost)
}

/// All in a Row is searched by the full walk alone: on two threads the
/// walks share one table, and a loss needs both to end.
#[test]
fn all_in_a_row_walks_agree_on_two_and_three_threads() {
    let (won, lost) = agree(GameKind::AllInARow, 1..=200, 2, None, (2_000_000, MIB_256));
    assert!(won >= 100 && lost >= 50, "{won} won, {lost} lost");
    let (won, lost) = agree(
        GameKind::AllInARow,
        201..=260,
        3,
        None,
        (2_000_000, MIB_256),
    );
    assert!(won >= 20 && lost >= 10, "{won} won, {lost} lost");
}

/// The games with several tactics deal them out among the threads.
#[test]
fn the_other_games_agree_on_two_threads() {
    for (game, deals, max_nodes) in [
        (GameKind::Raglan, 1..=60, 300_000),
        (GameKind::Lanes, 1..=20, 500_000),
        (GameKind::RowsOfFour, 1..=40, 300_000),
        (GameKind::Alexandria, 1..=6, 400_000),
    ] {
        let (won, lost) = agree(game, deals, 2, None, (max_nodes, MIB_256));
        assert!(won > 0, "{game}: none won");
        if game != GameKind::Alexandria {
            assert!(won + lost > 0, "{game}: none decided");
        }
    }
}

/// Lanes' and Raglan's moves can be undone: the full walks alone, sharing
/// a table too small for the deal (so it forgets), still agree, their
/// paths keeping them off cycles.
#[test]
fn full_walks_with_cycles_agree_in_a_forgetful_table() {
    for (game, deals) in [(GameKind::Lanes, 1..=6), (GameKind::Raglan, 1..=20)] {
        let (won, _) = agree(game, deals, 2, Some(Tactic::Full), (300_000, 1 << 20));
        assert!(won > 0, "{game}: none won");
    }
}

/// Raglan's best-first search alone, shared by two and three threads (one
/// queue, one table): the same verdicts as on one thread, and its wins,
/// rebuilt from the positions each thread expanded, replay.
#[test]
fn a_best_first_search_shared_by_the_threads_agrees() {
    for threads in [2, 3] {
        let (won, lost) = agree(
            GameKind::Raglan,
            1..=60,
            threads,
            Some(Tactic::BestFirst),
            (300_000, MIB_256),
        );
        assert!(won >= 20 && lost >= 10, "{won} won, {lost} lost");
    }
}

/// Raglan's best-first search given too little room (a floor far below
/// the CLI's) stops, and full walks take its place in its table: on one
/// thread, and, shared, on two and three, where each thread must first
/// leave the shared search and the last one empty the table before any
/// walk starts (were it never emptied, every thread would wait to the
/// timeout: checked). No deal changes its verdict (one may end `unknown`,
/// a walk's path past the room), and on each number of threads the walks
/// decide some (`decided_by`). Which ones depends on how the room falls
/// between best-first search and the walks' paths, so no deal is held to
/// it.
#[test]
fn a_best_first_search_out_of_room_hands_its_deals_to_walks() {
    let limits = Limits {
        memory: 512 << 10,
        room_floor: 640 << 10,
        timeout: Some(std::time::Duration::from_secs(10)),
        ..Limits::default()
    };
    let lost = [411, 873, 1474, 1670].map(|n| (n, Verdict::Lost));
    let won = [137, 172, 199].map(|n| (n, Verdict::Won));
    for threads in [1, 2, 3] {
        let mut by_walks = 0;
        for (n, verdict) in lost.into_iter().chain(won) {
            let board = GameKind::Raglan.deal(DealNumber::Numbered(n)).unwrap();
            let report = (GameKind::Raglan)
                .solve_with(&board, &limits, Some(Tactic::BestFirst), threads)
                .unwrap();
            // A walk's path may outgrow the small room too: `unknown`.
            let kept = [verdict, Verdict::Unknown].contains(&report.verdict);
            assert!(kept, "deal {n}, {threads} threads: {:?}", report.verdict);
            by_walks += usize::from(report.decided_by == Some(Tactic::Full));
        }
        assert!(
            by_walks >= 1,
            "{by_walks} deals decided by walks on {threads} threads"
        );
    }
}
