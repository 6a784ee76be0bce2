//! `batch` and `stats`.

use super::*;

#[test]
fn batch_rows_agree_with_black_hole_solver_and_end_with_a_summary() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    let summary = stdout_of(&mut pysol_batch("1..30", &out));
    let rows = read_batch(&out);
    assert_eq!(deals(&rows), (1..=30).collect::<Vec<_>>());
    let bhs = bhs_verdicts();
    for row in &rows {
        assert_eq!(row.game, "pysol:all-in-a-row");
        assert_eq!(row.verdict, bhs[&row.deal], "game {}", row.deal);
        assert_eq!(row.moves, if row.verdict == "won" { 52 } else { 0 });
    }
    let won = (1..=30).filter(|n| bhs[n] == "won").count();
    let expected = format!("30 deals, {won} won, {} lost, 0 unknown", 30 - won);
    assert!(summary.contains(&expected), "{summary}");
    assert_eq!(summary, stdout_of(patience().arg("stats").arg(&out)));
}

/// A deal that takes more than a tenth of `--max-nodes` on one thread is
/// named as solved again on every thread; `--side-by-side` hands none on,
/// and the verdicts agree.
#[test]
fn a_batch_names_the_hard_deals_it_hands_to_every_thread() {
    let dir = TempDir::new().unwrap();
    // Each deal's verdict and nodes, by deal, and what the batch said.
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut cmd = patience();
        cmd.args(["batch", GAME, "--deals", "1..10", "--threads", "2"])
            .args(["--max-nodes", "500000", "--out"])
            .arg(&out)
            .args(extra);
        let output = cmd.output().unwrap();
        assert!(output.status.success());
        let mut rows: Vec<(u64, String, u64)> = (read(&out).lines().skip(1))
            .map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                let deal = fields[1].parse().unwrap();
                (deal, fields[2].to_string(), fields[4].parse().unwrap())
            })
            .collect();
        rows.sort();
        (String::from_utf8(output.stderr).unwrap(), rows)
    };
    let (alone, rows) = run("alone.csv", &["--side-by-side"]);
    assert!(!alone.contains("solved again"), "{alone}");
    let hard: Vec<String> = (rows.iter())
        .filter(|(_, _, nodes)| *nodes > 50_000)
        .map(|(deal, _, _)| deal.to_string())
        .collect();
    assert!(hard.len() >= 2, "{rows:?}");
    let (shared, shared_rows) = run("shared.csv", &[]);
    let named = format!(
        "solved again on all 2 threads: {} deals ({})",
        hard.len(),
        hard.join(", ")
    );
    assert!(shared.contains(&named), "{shared}");
    let verdicts = |rows: &[(u64, String, u64)]| -> Vec<String> {
        rows.iter().map(|(_, verdict, _)| verdict.clone()).collect()
    };
    assert_eq!(verdicts(&rows), verdicts(&shared_rows));
}

#[test]
fn batch_refuses_to_overwrite_without_resume() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("precious.csv");
    fs::write(&out, "not mine to lose\n").unwrap();
    assert_bad_input(
        &mut pysol_batch("1..2", &out),
        &[&out.display().to_string(), "--resume"],
    );
    assert_eq!(read(&out), "not mine to lose\n");
}

/// `--retry-unknown` solves again the deals of its range left `unknown`
/// (here by a node limit), once each, and keeps every other row.
#[test]
fn resume_can_retry_the_unknown_deals() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    pysol_batch("1..6", &out)
        .args(["--max-nodes", "3"])
        .assert()
        .success();
    let unknown = |rows: &[CsvRow]| -> Vec<u64> {
        (rows.iter())
            .filter(|r| r.verdict == "unknown")
            .map(|r| r.deal)
            .collect()
    };
    let before = read_batch(&out);
    assert!(unknown(&before).len() >= 5, "{before:?}");
    assert_bad_input(
        pysol_batch("1..4", &out).arg("--retry-unknown"),
        &["--retry-unknown goes with --resume"],
    );
    pysol_batch("1..4", &out)
        .args(["--resume", "--retry-unknown"])
        .assert()
        .success();
    let after = read_batch(&out);
    assert_eq!(deals(&after), (1..=6).collect::<Vec<_>>());
    let left: Vec<u64> = unknown(&before).into_iter().filter(|&d| d > 4).collect();
    assert_eq!(unknown(&after), left);
    for row in before
        .iter()
        .filter(|r| r.verdict != "unknown" || r.deal > 4)
    {
        assert!(after.contains(row), "{row:?} lost: {after:?}");
    }
}

#[test]
fn resume_completes_a_truncated_file() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    pysol_batch("1..6", &out).assert().success();
    let full = read(&out);
    let rows: Vec<&str> = full.lines().skip(1).collect();
    assert_eq!(rows.len(), 6);
    // Keep rows 0 and 2, drop the rest, and end on half of row 3, as a
    // kill in the middle of a write would.
    let kept = format!("{CSV_HEADER}\n{}\n{}\n", rows[0], rows[2]);
    fs::write(&out, format!("{kept}{}", &rows[3][..rows[3].len() / 2])).unwrap();

    let summary = stdout_of(pysol_batch("1..6", &out).arg("--resume"));
    assert!(summary.contains("6 deals"), "{summary}");
    let after = read(&out);
    assert!(
        after.starts_with(&kept),
        "kept rows were rewritten: {after}"
    );
    let rows = read_batch(&out);
    assert_eq!(deals(&rows), (1..=6).collect::<Vec<_>>());
}

#[test]

fn a_bad_pysol_number_in_a_batch_is_bad_input() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    assert_bad_input(&mut pysol_batch("0..3", &out), &["0"]);
    assert!(!out.exists(), "a rerun would refuse the file left behind");
}

/// Checks that `batch --deals RANGE` is refused before any file is made.
fn assert_bad_range(range: &str) {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    assert_bad_input(&mut pysol_batch(range, &out), &["--deals", range]);
    assert!(!out.exists());
}

#[test]
fn a_backwards_deal_range_is_refused() {
    assert_bad_range("10..5");
}

#[test]
fn a_deal_range_that_is_not_a_number_is_refused() {
    assert_bad_range("x");
}

#[test]
fn a_deal_range_with_a_dash_is_refused() {
    assert_bad_range("1-5");
}

/// Writes a batch file with the header and `rows`.
fn write_csv(dir: &TempDir, name: &str, rows: &[&str]) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, format!("{CSV_HEADER}\n{}\n", rows.join("\n"))).unwrap();
    path
}

/// Two batch files sharing deal 2 with the same verdict: deals 1 to 3,
/// one won, two lost.
fn two_overlapping_files(dir: &TempDir) -> [PathBuf; 2] {
    [
        write_csv(
            dir,
            "a.csv",
            &[
                "all-in-a-row,1,won,52,10,5,52",
                "all-in-a-row,2,lost,0,10,5,40",
            ],
        ),
        write_csv(
            dir,
            "b.csv",
            &[
                "all-in-a-row,2,lost,0,11,6,40",
                "all-in-a-row,3,lost,0,9,9,30",
            ],
        ),
    ]
}

#[test]
fn stats_merges_files_counting_each_deal_once() {
    let dir = TempDir::new().unwrap();
    patience()
        .arg("stats")
        .args(two_overlapping_files(&dir))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "all-in-a-row: 3 deals, 1 won, 2 lost, 0 unknown",
        ));
}

#[test]
fn stats_json_parses() {
    let dir = TempDir::new().unwrap();
    let out = stdout_of(
        patience()
            .args(["stats", "--json"])
            .args(two_overlapping_files(&dir)),
    );
    let json: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let [summary] = json.as_array().expect("an array").as_slice() else {
        panic!("one game expected: {json}");
    };
    assert_eq!(summary["game"], "all-in-a-row");
    let counts = ["deals", "won", "lost", "unknown"].map(|k| summary[k].as_u64());
    assert_eq!(counts, [Some(3), Some(1), Some(2), Some(0)]);
    let rate = &summary["win_rate"];
    let [low, mid, high] = ["low", "rate", "high"].map(|k| rate[k].as_f64().unwrap());
    assert!((mid - 1.0 / 3.0).abs() < 1e-9, "{rate}");
    assert!(low < mid && mid < high, "{rate}");
}

#[test]
fn stats_refuses_conflicting_verdicts_naming_both_files() {
    let dir = TempDir::new().unwrap();
    let won = write_csv(&dir, "won.csv", &["all-in-a-row,4,won,52,10,5,52"]);
    let lost = write_csv(&dir, "lost.csv", &["all-in-a-row,4,lost,0,10,5,40"]);
    assert_bad_input(
        patience().arg("stats").arg(&won).arg(&lost),
        &[
            &won.display().to_string(),
            &lost.display().to_string(),
            "deal 4",
        ],
    );
}

#[test]
fn stats_names_the_file_and_line_of_a_malformed_row() {
    let dir = TempDir::new().unwrap();
    let bad = write_csv(
        &dir,
        "bad.csv",
        &[
            "all-in-a-row,1,won,52,10,5,52",
            "all-in-a-row,2,maybe,0,1,1,1",
        ],
    );
    assert_bad_input(
        patience().arg("stats").arg(&bad),
        &[&bad.display().to_string(), "line 3"],
    );
}
