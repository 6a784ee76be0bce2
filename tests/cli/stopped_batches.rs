//! Stopping a batch: Ctrl-C and kill -9 lose no finished row.

use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use super::*;

/// Waits for a stopped batch to exit, killing it if it does not.
fn wait_for_exit(mut child: Child) -> std::process::Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > WAIT_LIMIT {
            let _ = child.kill();
            panic!("the batch did not stop");
        }
        sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Sends a running patience a Ctrl-C (SIGINT) and waits for it to exit
/// with 130, as a program stopped by Ctrl-C does.
fn ctrl_c(child: Child) -> std::process::Output {
    stop(child, "INT")
}

/// Sends a running patience `signal` and waits for it to exit with 130.
fn stop(child: Child, signal: &str) -> std::process::Output {
    let status = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let output = wait_for_exit(child);
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    output
}

/// Resumes `out` over deals 1 to a little past the last one done, and
/// checks that every one of them is then in the file exactly once.
///
/// Only newline-ended rows count as done: a kill may in principle cut
/// the last row, which `--resume` is there to repair.
fn resume_and_check(out: &Path) -> u64 {
    let text = read(out);
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let last = whole
        .lines()
        .skip(1)
        .filter_map(|row| row.split(',').nth(1)?.parse::<u64>().ok())
        .max()
        .expect("some rows")
        + 2;
    patience()
        .args(["batch", GAME, "--threads", "1", "--resume", "--out"])
        .arg(out)
        .args(["--deals", &format!("1..{last}")])
        .assert()
        .success();
    assert_eq!(deals(&read_batch(out)), (1..=last).collect::<Vec<_>>());
    last
}

#[test]
fn ctrl_c_keeps_whole_rows_and_resume_continues() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    let output = ctrl_c(start_long_batch(&out));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("--resume"), "{stderr}");
    // read_batch checks that every row is whole.
    let rows = read_batch(&out);
    let summary = text(&output.stdout);
    assert!(
        summary.contains(&format!("{} deals", rows.len())),
        "{summary}"
    );
    resume_and_check(&out);
}

/// Ctrl-C, or a TERM or HUP (a `kill`, a closed terminal), stops a
/// long search on two threads, which reports what it has as `unknown`
/// and exits 130. Alexandria's deal 21149 is undecided after 720M
/// positions, its beam no further on than at a minute's
/// (`results/README.md`), so no speed-up of the search decides it before
/// the signal.
#[test]
fn a_signal_stops_a_solve_with_its_report() {
    for signal in ["INT", "TERM", "HUP"] {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_patience"))
            .args(["solve", "alexandria", "21149", "--threads", "2", "--json"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("patience starts");
        sleep(Duration::from_millis(1500));
        let output = stop(child, signal);
        let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
        assert_eq!(verdict(&report), "unknown", "{signal}: {report}");
        assert_eq!(report["stop"], "interrupted", "{signal}: {report}");
        assert!(
            report["nodes"].as_u64() > Some(100_000),
            "{signal}: {report}"
        );
    }
}

/// A player's game stops at Ctrl-C as a search does: the sampler
/// takes minutes over an Alexandria deal, and the batch still stops
/// within seconds, with no row for the game it left.
#[test]
fn ctrl_c_stops_a_players_long_game() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_patience"))
        .args([
            "batch",
            "alexandria",
            "--player",
            "sampler",
            "--deals",
            "1..3",
        ])
        .args(["--threads", "1", "--out"])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("patience starts");
    sleep(Duration::from_millis(1500));
    ctrl_c(child);
    assert_eq!(read_batch(&out), []);
}

#[test]
fn kill_9_then_resume_counts_each_deal_once() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    let mut child = start_long_batch(&out);
    // Child::kill sends SIGKILL on Unix: no handler runs.
    child.kill().unwrap();
    let output = wait_for_exit(child);
    assert_eq!(output.status.signal(), Some(9), "{output:?}");
    let last = resume_and_check(&out);
    patience()
        .arg("stats")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "all-in-a-row: {last} deals,"
        )));
}
