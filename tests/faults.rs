//! The faults and hostile inputs a batch user meets: no panic, no hang, no
//! lost or doubled row. Each test here is one way patience once went
//! wrong; the contract it checks is the one `tests/cli/main.rs` states (exit 2
//! and one line naming the file and the fault for bad input).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use predicates::prelude::*;
use tempfile::TempDir;

mod common;

use common::*;

// ---------------------------------------------------------------------
// Threads: no count panics or hangs.

/// More threads than cores are cut to the cores with a warning; the run
/// goes on and gives what it gives on the cores.
#[test]
fn too_many_threads_are_cut_with_a_warning() {
    let warned = predicate::str::contains("warning: --threads 99999 is more than the");
    patience()
        .args(["solve", GAME, "--pysol", WON_PYSOL, "--threads", "99999"])
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stdout(predicate::str::contains("# won in 52 moves"))
        .stderr(warned.clone());
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    patience()
        .args([
            "batch",
            GAME,
            "--deals",
            "1..4",
            "--threads",
            "99999",
            "--out",
        ])
        .arg(&out)
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stderr(warned.clone());
    assert_eq!(deals(&read_batch(&out)), [1, 2, 3, 4]);
    patience()
        .args(["bench", GAME, "--quick", "--threads", "5000", "--json"])
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: --threads 5000 is more than the",
        ));
}

// ---------------------------------------------------------------------
// Input that never ends, or is huge, is refused, and quoted short.

#[test]
fn an_endless_board_file_is_refused() {
    patience()
        .args(["solve", GAME, "--file", "/dev/zero"])
        .timeout(Duration::from_secs(30))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/dev/zero is longer than 1 MiB"));
    patience()
        .args(["verify", GAME, "1", "--moves", "/dev/zero"])
        .timeout(Duration::from_secs(30))
        .assert()
        .code(2);
}

#[test]
fn a_huge_bad_token_is_quoted_short() {
    let dir = TempDir::new().unwrap();
    let board = dir.path().join("board.txt");
    fs::write(&board, format!(": {}\n", "Q".repeat(900_000))).unwrap();
    let output = patience()
        .args(["solve", GAME, "--file"])
        .arg(&board)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = text(&output.stderr);
    assert!(stderr.len() < 300, "{} bytes of error", stderr.len());
    assert!(stderr.contains("line 1: 'QQQ") && stderr.contains("(900000 bytes)"));
    let moves = dir.path().join("moves.txt");
    fs::write(&moves, format!("t1 f {}\n", "9".repeat(500_000))).unwrap();
    let output = patience()
        .args(["verify", GAME, "1", "--moves"])
        .arg(&moves)
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(output.stderr.len() < 300, "{} bytes", output.stderr.len());
}

/// A board and its moves cannot both come from standard input: the board
/// would eat it all.
#[test]
fn board_and_moves_cannot_both_read_standard_input() {
    let board = stdout_of(patience().args(["deal", GAME, "7"]));
    assert_bad_input(
        patience()
            .args(["verify", GAME, "--file", "-", "--moves", "-"])
            .write_stdin(board),
        &["--file - and --moves - both read standard input"],
    );
}

// ---------------------------------------------------------------------
// Limits: sizes that overflow, and compound times.

#[test]
fn a_memory_cap_past_the_machine_is_refused() {
    for size in ["99999999999999999999G", "1000000T"] {
        assert_bad_input(
            patience().args(["solve", GAME, "1", "--memory", size]),
            &[size, "more than this machine's memory"],
        );
    }
}

#[test]
fn timeouts_take_compound_times_and_say_the_forms_they_take() {
    patience()
        .args(["solve", GAME, "--pysol", WON_PYSOL, "--timeout", "1m30s"])
        .assert()
        .success();
    assert_bad_input(
        patience().args(["solve", GAME, "1", "--timeout", "90 seconds"]),
        &["'90 seconds' is not a time", "1m30s", "none"],
    );
}

// ---------------------------------------------------------------------
// How close a lost deal came, and what its proof left out.

/// Deal 4 is lost; its search reaches 49 cards home, but a line of play
/// gets 51 there. `solve` finds that line, prints it as moves `verify`
/// replays to 51 cards home, and names what the search left out.
#[test]
fn a_lost_deal_shows_its_longest_line_and_what_was_pruned() {
    let report = stdout_of(patience().args(["solve", GAME, "4", "--verbose"]));
    assert!(report.contains("# lost: no line of play wins"), "{report}");
    assert!(
        report.contains("second order of two cards of one rank"),
        "{report}"
    );
    assert!(
        report.contains("# the longest line of play gets 51 cards home:\n"),
        "{report}"
    );
    assert!(report.contains("best 51 cards home"), "{report}");
    patience()
        .args(["verify", GAME, "4", "--moves", "-"])
        .write_stdin(report)
        .assert()
        .code(1)
        .stdout("not won: all 51 moves are legal, but only 51 cards are home\n");
}

/// A batch row's `best` is the search's unless `--longest` asks for the
/// longest line.
#[test]
fn batch_longest_makes_best_the_longest_line() {
    let dir = TempDir::new().unwrap();
    let best = |name: &str, extra: &[&str]| -> u64 {
        let out = dir.path().join(name);
        patience()
            .args(["batch", GAME, "--deals", "4", "--out"])
            .arg(&out)
            .args(extra)
            .assert()
            .success();
        let text = read(&out);
        let row = text.lines().nth(1).expect("a row");
        row.rsplit(',').next().unwrap().parse().unwrap()
    };
    assert_eq!(best("longest.csv", &["--longest"]), 51);
    assert!(best("plain.csv", &[]) <= 51);
}

// ---------------------------------------------------------------------
// A move list names its deal: replayed on another, it is refused.

#[test]
fn a_move_list_for_another_deal_or_game_is_refused() {
    let moves = stdout_of(patience().args(["solve", GAME, "7"]));
    assert!(moves.starts_with("# all-in-a-row, deal 7\n"), "{moves}");
    assert_bad_input(
        patience()
            .args(["verify", GAME, "--pysol", "7", "--moves", "-"])
            .write_stdin(moves.clone()),
        &[
            "standard input: line 1",
            "all-in-a-row deal 7",
            "not PySolFC game 7",
        ],
    );
    assert_bad_input(
        patience()
            .args(["verify", GAME, "8", "--moves", "-"])
            .write_stdin(moves.clone()),
        &["deal 7, not deal 8"],
    );
    assert_bad_input(
        patience()
            .args(["verify", "raglan", "7", "--moves", "-"])
            .write_stdin(moves.clone()),
        &["for all-in-a-row (deal 7), not raglan"],
    );
    patience()
        .args(["verify", GAME, "7", "--moves", "-"])
        .write_stdin(moves)
        .assert()
        .success();
}

// ---------------------------------------------------------------------
// Resuming a batch file: nothing finished is lost or written twice.

/// A finished batch of numbered deals 1..=`last` on one thread: the file's
/// text.
fn finished_batch(dir: &TempDir, last: u64) -> String {
    let out = dir.path().join("full.csv");
    patience()
        .args(["batch", GAME, "--threads", "1", "--deals"])
        .arg(format!("1..{last}"))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    read(&out)
}

/// A batch file's text with each row's time (`micros`) blanked, the one
/// field that differs from run to run on one thread.
fn untimed(text: &str) -> String {
    (text.lines())
        .map(|line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            if fields.len() == 7 && fields[5] != "micros" {
                fields[5] = "-";
            }
            fields.join(",") + "\n"
        })
        .collect()
}

/// `batch --resume` of numbered deals `range` into `out`.
fn resume(out: &Path, range: &str) -> assert_cmd::assert::Assert {
    patience()
        .args([
            "batch",
            GAME,
            "--threads",
            "1",
            "--resume",
            "--deals",
            range,
        ])
        .arg("--out")
        .arg(out)
        .assert()
}

/// Writes `text` as `name` in `dir`.
fn file(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    path
}

/// A last row that lacks only its newline is a whole row: a resume keeps
/// it, even when its deal lies outside the range resumed.
#[test]
fn a_whole_last_row_without_its_newline_is_kept() {
    let dir = TempDir::new().unwrap();
    let full = finished_batch(&dir, 6);
    let out = file(&dir, "cut.csv", full.trim_end());
    resume(&out, "1..3").success();
    assert_eq!(read(&out), full);
    resume(&out, "1..8").success();
    assert!(read(&out).starts_with(&full));
    assert_eq!(deals(&read_batch(&out)), (1..=8).collect::<Vec<_>>());
}

/// A row cut short is dropped, and said, when its deal is in the range
/// (it is solved again); outside the range the resume is refused and the
/// file left as it was.
#[test]
fn a_cut_row_is_dropped_only_when_its_deal_is_solved_again() {
    let dir = TempDir::new().unwrap();
    let full = finished_batch(&dir, 6);
    let cut = &full[..full.len() - 6];
    let out = file(&dir, "cut.csv", cut);
    assert_bad_input(
        patience()
            .args(["batch", GAME, "--resume", "--deals", "1..3", "--out"])
            .arg(&out),
        &[
            "line 7, the last, is cut off",
            "deal 6 is not in --deals 1..3",
        ],
    );
    assert_eq!(read(&out), cut);
    resume(&out, "1..6")
        .success()
        .stderr(predicate::str::contains(
            "dropped line 7, the last, cut off",
        ))
        .stderr(predicate::str::contains("deal 6 is solved again"));
    assert_eq!(untimed(&read(&out)), untimed(&full));
}

/// A file killed before its first row (empty, or part of a header) is a
/// fresh start, with or without `--resume`.
#[test]
fn an_empty_file_is_a_fresh_start() {
    let dir = TempDir::new().unwrap();
    let full = finished_batch(&dir, 3);
    for (i, text) in ["", "game,de", "game,deal,verdict,moves,nodes,micros,best\n"]
        .into_iter()
        .enumerate()
    {
        for resume in [false, true] {
            let out = file(&dir, &format!("{i}-{resume}.csv"), text);
            let mut cmd = patience();
            cmd.args(["batch", GAME, "--threads", "1", "--deals", "1..3", "--out"])
                .arg(&out);
            if resume {
                cmd.arg("--resume");
            }
            cmd.assert().success();
            assert_eq!(
                untimed(&read(&out)),
                untimed(&full),
                "{text:?}, --resume {resume}"
            );
        }
    }
}

/// Rows may go nowhere, for the summary alone; a folder is no file.
#[cfg(unix)]
#[test]
fn a_batch_may_write_to_a_device_but_not_a_folder() {
    patience()
        .args(["batch", GAME, "--deals", "1..3", "--out", "/dev/null"])
        .assert()
        .success()
        .stdout(predicate::str::contains("all-in-a-row: 3 deals, 3 won"));
    let dir = TempDir::new().unwrap();
    assert_bad_input(
        patience()
            .args(["batch", GAME, "--deals", "1..3", "--out"])
            .arg(dir.path()),
        &["cannot open", "Is a directory"],
    );
    assert_bad_input(
        patience().arg("stats").arg(dir.path()),
        &["cannot read", "it is a folder"],
    );
}

#[test]
fn another_games_file_is_refused_naming_both() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    pysol_batch("1..2", &out).assert().success();
    let before = read(&out);
    for game in ["raglan", GAME] {
        assert_bad_input(
            patience()
                .args(["batch", game, "--deals", "1..2", "--resume", "--out"])
                .arg(&out),
            &[
                "holds pysol:all-in-a-row deals",
                &format!("this batch is {game}"),
            ],
        );
    }
    assert_eq!(read(&out), before);
}

/// Cuts a finished batch file at every byte of its last two rows, and at
/// some in the middle, as a kill or a full disk might; resumes each; and
/// checks that every whole row survives and every deal of the range is
/// there exactly once, with the verdict of the run that was not cut.
#[test]
fn a_resume_after_any_cut_keeps_every_row_and_doubles_none() {
    let dir = TempDir::new().unwrap();
    let full = finished_batch(&dir, 12);
    let verdict = |text: &str| -> Vec<(u64, String)> {
        let mut rows: Vec<(u64, String)> = (text.lines().skip(1))
            .map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                (fields[1].parse().unwrap(), fields[2].to_string())
            })
            .collect();
        rows.sort();
        rows
    };
    let expected = verdict(&full);
    let lines: Vec<usize> = (full.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let last_two = lines[lines.len() - 3];
    let middle = [
        0,
        10,
        lines[0],
        lines[0] + 7,
        lines[5] - 1,
        lines[5],
        lines[5] + 30,
    ];
    let cuts = (last_two..=full.len()).chain(middle);
    let mut tried = 0;
    for cut in cuts {
        let text = &full[..cut];
        let out = file(&dir, "cut.csv", text);
        resume(&out, "1..12").success();
        let after = read(&out);
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        assert!(after.starts_with(whole), "cut at {cut}: a whole row went");
        assert_eq!(verdict(&after), expected, "cut at {cut}");
        assert_eq!(deals(&read_batch(&out)), (1..=12).collect::<Vec<_>>());
        tried += 1;
    }
    assert!(tried > 60, "{tried} cuts");
}

// ---------------------------------------------------------------------
// One batch at a time on a file.

#[cfg(unix)]
#[test]
fn a_second_batch_on_a_file_in_use_is_refused() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("batch.csv");
    let mut first = start_long_batch(&out);
    for resume in [&["--resume"][..], &["--resume", "--retry-unknown"], &[]] {
        assert_bad_input(
            patience()
                .args(["batch", GAME, "--deals", "1..10", "--out"])
                .arg(&out)
                .args(resume),
            &["is being written by another patience batch"],
        );
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let rows = deals(&read_batch_whole(&out));
    let mut unique = rows.clone();
    unique.dedup();
    assert_eq!(rows, unique, "a deal written twice");
    resume(&out, "1..10").success();
}

/// The whole rows of a batch file, a last one cut off left out.
fn read_batch_whole(path: &Path) -> Vec<CsvRow> {
    let text = read(path);
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let copy = path.with_extension("whole");
    fs::write(&copy, whole).unwrap();
    read_batch(&copy)
}

// ---------------------------------------------------------------------
// stats: runs merged as a user reruns them, in bounded memory.

/// A short run's `unknown` and a longer rerun's verdict merge: the decided
/// verdict counts. `won` against `lost` stays an error.
#[test]
fn stats_lets_a_decided_verdict_supersede_unknown() {
    let dir = TempDir::new().unwrap();
    let short = file(
        &dir,
        "short.csv",
        &format!(
            "{CSV_HEADER}\nall-in-a-row,1,unknown,0,9,9,40\nall-in-a-row,2,unknown,0,9,9,40\n"
        ),
    );
    let long = file(
        &dir,
        "long.csv",
        &format!("{CSV_HEADER}\nall-in-a-row,1,won,52,10,5,52\n"),
    );
    for files in [[&short, &long], [&long, &short]] {
        patience()
            .arg("stats")
            .args(files)
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "all-in-a-row: 2 deals, 1 won, 0 lost, 1 unknown",
            ));
    }
    let lost = file(
        &dir,
        "lost.csv",
        &format!("{CSV_HEADER}\nall-in-a-row,1,lost,0,10,5,50\n"),
    );
    assert_bad_input(
        patience().arg("stats").args([&short, &long, &lost]),
        &[
            "deal 1 is won in",
            "long.csv line 2",
            "but lost in",
            "lost.csv line 2",
        ],
    );
}

/// `stats` keeps two bits a deal, not its rows: ten million rows, fed
/// through a named pipe so that no disk holds them, are summarised in a
/// few megabytes (the rows themselves are 450 MB; before, `stats` held
/// about 300 bytes a row).
#[cfg(target_os = "linux")]
#[test]
fn stats_summarises_ten_million_rows_in_bounded_memory() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    const ROWS: u64 = 10_000_000;
    let dir = TempDir::new().unwrap();
    let fifo = dir.path().join("rows.csv");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-ended path and a mode.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let child = Command::new(env!("CARGO_BIN_EXE_patience"))
        .arg("stats")
        .arg(&fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = std::io::BufWriter::with_capacity(1 << 20, fs::File::create(&fifo).unwrap());
    writeln!(pipe, "{CSV_HEADER}").unwrap();
    for deal in 1..=ROWS {
        let verdict = ["won", "lost", "unknown"][(deal % 3) as usize];
        writeln!(pipe, "all-in-a-row,{deal},{verdict},52,123456,7890,52").unwrap();
    }
    pipe.flush().unwrap();
    // Every row but what the pipe holds (64 KiB) has been read and
    // tallied: the peak so far is the peak of the reading.
    let peak_kib = peak_memory_kib(child.id());
    drop(pipe);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let summary = text(&output.stdout);
    let third = ROWS / 3;
    assert!(
        summary.contains(&format!(
            "all-in-a-row: {ROWS} deals, {third} won, {} lost, {third} unknown",
            third + 1
        )),
        "{summary}"
    );
    // Two bits a deal are 2.5 MB; the program itself takes about 4 MB.
    assert!(peak_kib < 16 << 10, "peak {peak_kib} KiB");
}

/// The peak resident memory of a running process, in KiB (`VmHWM`).
#[cfg(target_os = "linux")]
fn peak_memory_kib(pid: u32) -> u64 {
    let status = read(Path::new(&format!("/proc/{pid}/status")));
    let line = (status.lines())
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .expect("a VmHWM line");
    line.trim().trim_end_matches("kB").trim().parse().unwrap()
}
