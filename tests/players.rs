//! `play` and `batch --player`: how often a player wins who cannot see
//! the hidden cards.

mod common;

use std::collections::BTreeMap;
use std::fs;

use tempfile::TempDir;

use common::*;

/// A player's game prints as moves `verify` replays: to a win when the
/// player won, to its last position when it lost.
#[test]
fn a_players_moves_replay_with_verify() {
    let dir = TempDir::new().unwrap();
    let moves = dir.path().join("moves.txt");
    for (player, won) in [("sampler", true), ("greedy", false)] {
        let report = stdout_of(patience().args(["play", GAME, "1", "--player", player]));
        assert_eq!(
            report.contains("\n# won in 52 moves\n"),
            won,
            "{player}: {report}"
        );
        fs::write(&moves, &report).unwrap();
        let verify = patience()
            .args(["verify", GAME, "1", "--moves"])
            .arg(&moves)
            .assert();
        match won {
            true => verify
                .success()
                .stdout("won: all 52 moves are legal and win the game\n"),
            false => verify.code(1),
        };
    }
}

#[test]
fn an_unknown_player_is_refused() {
    assert_bad_input(
        patience().args(["play", GAME, "1", "--player", "clever"]),
        &["'clever' is not a player", "lookahead-N"],
    );
}

/// `batch --player` names the player in the game column, resumes as a
/// batch does, and `stats` gives the player's win rate beside open play's.
#[test]
fn a_players_batch_is_summarised_beside_open_play() {
    let dir = TempDir::new().unwrap();
    let played = dir.path().join("greedy.csv");
    let open = dir.path().join("open.csv");
    let batch = |extra: &[&str], out: &std::path::Path| {
        patience()
            .args(["batch", "lanes", "--threads", "1", "--out"])
            .arg(out)
            .args(extra)
            .assert()
            .success();
    };
    batch(&["--player", "greedy", "--deals", "1..10"], &played);
    batch(
        &["--player", "greedy", "--deals", "1..20", "--resume"],
        &played,
    );
    let rows = read_batch(&played);
    assert_eq!(deals(&rows), (1..=20).collect::<Vec<_>>());
    assert!(
        rows.iter().all(|row| row.game == "greedy:lanes"),
        "{rows:?}"
    );
    batch(&["--deals", "1..20", "--max-nodes", "2000000"], &open);
    let summary = stdout_of(patience().arg("stats").arg(&played).arg(&open));
    let won = rows.iter().filter(|row| row.verdict == "won").count();
    assert!(
        summary.contains(&format!(
            "greedy:lanes: 20 deals, {won} won, {} lost, 0 unknown",
            20 - won
        )),
        "{summary}"
    );
    assert!(summary.contains("\nlanes: 20 deals, "), "{summary}");
}

/// A deal a player wins is winnable in open play: lookahead-24 against
/// the solver on All in a Row's numbered deals 1..300.
#[test]
fn a_deal_a_player_wins_is_won_in_open_play() {
    let dir = TempDir::new().unwrap();
    let verdicts = |extra: &[&str]| -> BTreeMap<u64, String> {
        let out = dir.path().join(format!("{}.csv", extra.len()));
        patience()
            .args([
                "batch",
                GAME,
                "--deals",
                "1..300",
                "--threads",
                "2",
                "--out",
            ])
            .arg(&out)
            .args(extra)
            .assert()
            .success();
        (read_batch(&out).into_iter())
            .map(|row| (row.deal, row.verdict))
            .collect()
    };
    let played = verdicts(&["--player", "lookahead-24"]);
    let open = verdicts(&[]);
    let won: Vec<u64> = (played.iter())
        .filter(|(_, verdict)| *verdict == "won")
        .map(|(deal, _)| *deal)
        .collect();
    assert!(won.len() >= 5, "the player won only {won:?}");
    for deal in won {
        assert_eq!(open[&deal], "won", "deal {deal}");
    }
}

/// With two players in the files, the plot sets their win rates side by
/// side, each named.
#[test]
fn the_plot_compares_players() {
    let dir = TempDir::new().unwrap();
    let csv = dir.path().join("players.csv");
    let svg = dir.path().join("players.svg");
    let rows: String = (1..=100)
        .map(|deal| {
            let greedy = if deal % 10 == 0 { "won" } else { "lost" };
            let ahead = if deal % 2 == 0 { "won" } else { "lost" };
            format!(
                "greedy:lanes,{deal},{greedy},1,0,1,5\nlookahead-4:lanes,{deal},{ahead},1,0,1,5\n"
            )
        })
        .collect();
    fs::write(&csv, format!("{CSV_HEADER}\n{rows}")).unwrap();
    let texts = plot_texts(&csv, &svg);
    for caption in [
        "win rate of decided deals, with its 95% Wilson interval",
        "greedy:lanes",
        "lookahead-4:lanes",
        "greedy:lanes: win rate of decided deals",
    ] {
        assert!(
            texts.iter().any(|t| t == caption),
            "{caption:?} not in {texts:?}"
        );
    }
}
