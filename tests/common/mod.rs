//! Helpers shared by the tests of the `patience` binary.

#![allow(dead_code)] // each test file uses some of them

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub const GAME: &str = "all-in-a-row";
pub const CSV_HEADER: &str = "game,deal,verdict,moves,nodes,micros,best";
/// What clap prints after its own one-line usage errors.
pub const CLAP_TRAILER: &str = "For more information, try '--help'.";

/// PySolFC game numbers whose verdicts black-hole-solver gives: 1 is lost
/// in 77 positions, 3 won in 34244 (tests/data/bhs).
pub const LOST_PYSOL: &str = "1";
pub const WON_PYSOL: &str = "3";

pub fn patience() -> Command {
    Command::cargo_bin("patience").expect("cargo builds the patience binary")
}

pub fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

pub fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("patience prints UTF-8")
}

/// Runs a command that must succeed and returns its standard output.
pub fn stdout_of(cmd: &mut Command) -> String {
    text(&cmd.assert().success().get_output().stdout)
}

/// Runs a command on bad input and checks the contract every such error
/// keeps: exit code 2, nothing on standard output, no panic, and one line
/// `error: ...` holding each of `needles` (clap may add its pointer to
/// `--help` after its own messages).
pub fn assert_bad_input(cmd: &mut Command, needles: &[&str]) {
    let output = cmd.assert().code(2).stdout("").get_output().clone();
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "a panic: {stderr}");
    let mut lines = stderr.lines();
    let message = lines.next().unwrap_or_default();
    assert!(message.starts_with("error: "), "no error line: {stderr:?}");
    for needle in needles {
        assert!(message.contains(needle), "{needle:?} not in {message:?}");
    }
    assert!(
        lines.all(|line| line.is_empty() || line == CLAP_TRAILER),
        "the message is not one line: {stderr:?}"
    );
}

/// One row of a batch file, read without the library's reader so that the
/// file format itself is checked.
#[derive(Debug, PartialEq)]
pub struct CsvRow {
    pub game: String,
    pub deal: u64,
    pub verdict: String,
    pub moves: u64,
}

/// Reads a batch file and checks that it is whole: the header once, then
/// complete rows of seven fields, the last one ended by a newline.
pub fn read_batch(path: &Path) -> Vec<CsvRow> {
    let text = read(path);
    assert!(text.ends_with('\n'), "a cut-off last row: {text:?}");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(CSV_HEADER));
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 7, "row {line:?}");
            let number = |i: usize| -> u64 {
                fields[i]
                    .parse()
                    .unwrap_or_else(|_| panic!("field {i} of {line:?}"))
            };
            // nodes, micros and best: numbers, whatever their values.
            for i in 4..7 {
                number(i);
            }
            let verdict = fields[2].to_string();
            assert!(
                ["won", "lost", "unknown"].contains(&verdict.as_str()),
                "{line:?}"
            );
            CsvRow {
                game: fields[0].to_string(),
                deal: number(1),
                verdict,
                moves: number(3),
            }
        })
        .collect()
}

/// The deal numbers of `rows`, sorted, repeats kept so that they show.
pub fn deals(rows: &[CsvRow]) -> Vec<u64> {
    let mut deals: Vec<u64> = rows.iter().map(|r| r.deal).collect();
    deals.sort_unstable();
    deals
}

/// `patience batch` of PySolFC deals `range` into `out`, on two threads.
pub fn pysol_batch(range: &str, out: &Path) -> Command {
    let mut cmd = patience();
    cmd.args([
        "batch",
        GAME,
        "--pysol",
        "--threads",
        "2",
        "--deals",
        range,
        "--out",
    ])
    .arg(out);
    cmd
}

/// Draws `csv` with `stats --plot` into `svg` and returns the texts of the
/// picture, which must be well-formed SVG.
pub fn plot_texts(csv: &Path, svg: &Path) -> Vec<String> {
    patience()
        .args(["stats", "--plot"])
        .arg(svg)
        .arg(csv)
        .assert()
        .success();
    let text = read(svg);
    let document = roxmltree::Document::parse(&text).expect("the plot is well-formed XML");
    assert_eq!(document.root_element().tag_name().name(), "svg");
    (document.descendants())
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

/// How long a batch may take to write its first rows or to stop.
pub const WAIT_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Starts a batch far too long to finish (numbered deals, one thread)
/// and returns it once `out` holds a few finished rows, so that it is
/// stopped, or met by another batch, in mid-run.
pub fn start_long_batch(out: &Path) -> std::process::Child {
    use std::process::Stdio;
    use std::time::Instant;

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_patience"))
        .args([
            "batch",
            GAME,
            "--deals",
            "1..100000",
            "--threads",
            "1",
            "--out",
        ])
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("patience starts");
    let start = Instant::now();
    let newlines = || fs::read(out).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    while newlines() < 4 {
        if start.elapsed() > WAIT_LIMIT || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("the batch wrote no rows: {:?}", child.wait_with_output());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child
}
