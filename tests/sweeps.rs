//! Sweeps too big for one run: shards run apart (here with GNU parallel,
//! as over several hosts) merge to what one run gives; `stats` says what
//! a sweep still lacks, and draws how its win rate settles.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command as Process;

use predicates::prelude::*;
use tempfile::TempDir;

mod common;

use common::*;

/// The deals and verdicts of batch files, read plainly.
fn verdicts(paths: &[&Path]) -> BTreeMap<u64, String> {
    let mut all = BTreeMap::new();
    for path in paths {
        for row in read_batch(path) {
            assert!(
                all.insert(row.deal, row.verdict).is_none(),
                "deal {} twice",
                row.deal
            );
        }
    }
    all
}

#[test]
fn shards_split_a_range_evenly() {
    let out = stdout_of(patience().args(["shards", "--deals", "1..1000000", "--parts", "64"]));
    let shards: Vec<&str> = out.lines().collect();
    assert_eq!(shards.len(), 64);
    assert_eq!((shards[0], shards[63]), ("1..15625", "984376..1000000"));
    let few = stdout_of(patience().args(["shards", "--deals", "5..7", "--parts", "10"]));
    assert_eq!(few, "5..5\n6..6\n7..7\n");
    patience()
        .args(["shards", "--deals", "1..10", "--parts", "0"])
        .assert()
        .code(2);
}

/// GNU parallel runs four shards, two at a time, as it would on several
/// hosts; their files merge to one run's summary, deal for deal. (Skipped
/// where GNU parallel is not installed, unless `PATIENCE_NEED_PARALLEL` is
/// set, as `.ci/run` does after installing it.)
#[test]
fn a_sweep_in_shards_with_gnu_parallel_equals_one_run() {
    let has_parallel = Process::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU"));
    if !has_parallel {
        assert!(
            std::env::var_os("PATIENCE_NEED_PARALLEL").is_none(),
            "GNU parallel is not installed"
        );
        eprintln!("skipped: GNU parallel is not installed");
        return;
    }
    let dir = TempDir::new().unwrap();
    let range = "1..400";
    let whole = dir.path().join("whole.csv");
    patience()
        .args(["batch", GAME, "--deals", range, "--threads", "1", "--out"])
        .arg(&whole)
        .assert()
        .success();
    let shards = stdout_of(patience().args(["shards", "--deals", range, "--parts", "4"]));
    let binary = env!("CARGO_BIN_EXE_patience");
    let status = Process::new("parallel")
        .args([
            "--will-cite",
            "-j",
            "2",
            binary,
            "batch",
            GAME,
            "--threads",
            "1",
        ])
        .args(["--deals", "{}", "--out", "shard-{#}.csv", ":::"])
        .args(shards.lines())
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let files: Vec<_> = (1..=4)
        .map(|i| dir.path().join(format!("shard-{i}.csv")))
        .collect();
    let paths: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    assert_eq!(verdicts(&paths), verdicts(&[&whole]));
    let merged = stdout_of(patience().arg("stats").args(&files));
    assert_eq!(merged, stdout_of(patience().arg("stats").arg(&whole)));
}

/// `stats --deals` names the deals of a range no file holds yet.
#[test]
fn stats_says_which_deals_a_sweep_still_lacks() {
    let dir = TempDir::new().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    for (path, range) in [(&a, "1..4"), (&b, "8..9")] {
        patience()
            .args(["batch", GAME, "--deals", range, "--threads", "1", "--out"])
            .arg(path)
            .assert()
            .success();
    }
    patience()
        .args(["stats", "--deals", "1..12"])
        .args([&a, &b])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "all-in-a-row: 6 of deals 1..12 missing: 5..7, 10..12\n",
        ));
    let json = stdout_of(
        patience()
            .args(["stats", "--json", "--deals", "1..12"])
            .args([&a, &b]),
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json[0]["missing"], serde_json::json!([[5, 7], [10, 12]]));
}

/// `stats --plot` draws an SVG with, for each game, the win rate and its
/// interval as deals accumulate, and the solve times by verdict with the
/// unknowns marked.
#[test]
fn stats_plots_the_win_rate_settling_and_the_solve_times() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("plot.svg");
    let csv = dir.path().join("two.csv");
    fs::write(
        &csv,
        format!(
            "{CSV_HEADER}\n{}",
            (1..=300)
                .map(|deal| {
                    let verdict = match deal % 10 {
                        0 => "unknown",
                        1..=3 => "lost",
                        _ => "won",
                    };
                    format!("raglan,{deal},{verdict},0,100,{},40\n", deal * 37)
                })
                .chain((1..=50).map(|deal| format!("lanes,{deal},won,90,10,{},52\n", deal * 1000)))
                .collect::<String>()
        ),
    )
    .unwrap();
    let texts = plot_texts(&csv, &svg);
    for caption in [
        "lanes: win rate of decided deals",
        "lanes: solve time of each deal",
        "raglan: win rate of decided deals",
        "raglan: solve time of each deal",
        "95% Wilson interval",
        "win rate",
        "won",
        "lost",
        "unknown: 30 stopped by a limit",
    ] {
        assert!(
            texts.iter().any(|t| t == caption),
            "{caption:?} not in {texts:?}"
        );
    }
    // Raglan's curve: 270 decided deals, a point each, its last at deal
    // 299 with the rate of 189 won of 270 decided.
    let text = read(&svg);
    let document = roxmltree::Document::parse(&text).unwrap();
    let lines: Vec<_> = (document.descendants())
        .filter(|n| n.has_tag_name("polyline"))
        .map(|n| {
            n.attribute("points")
                .unwrap_or_default()
                .split_whitespace()
                .count()
        })
        .collect();
    assert!(lines.contains(&270), "{lines:?}");
}
