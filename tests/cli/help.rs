//! `--help`, and the defaults it states.

use super::*;

#[test]
fn help_names_every_subcommand() {
    let help = stdout_of(patience().arg("--help"));
    for command in ["deal", "solve", "verify", "batch", "stats"] {
        assert!(help.contains(command), "{command} in {help}");
    }
}

#[test]
fn help_of_searching_commands_mentions_the_limits() {
    for command in ["solve", "batch"] {
        let help = stdout_of(patience().args([command, "--help"]));
        for flag in ["--max-nodes", "--timeout", "--memory"] {
            assert!(help.contains(flag), "{flag} in {command} --help");
        }
    }
}

/// `--timeout none` lifts `batch`'s default minute a deal; a time that
/// is neither is bad usage.
#[test]
fn a_batch_timeout_may_be_none() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("none.csv");
    let batch = |timeout: &str| {
        let mut cmd = patience();
        cmd.args(["batch", GAME, "--deals", "1..3", "--timeout", timeout])
            .arg("--out")
            .arg(&out);
        cmd
    };
    batch("none").assert().success();
    assert_eq!(fs::read_to_string(&out).unwrap().lines().count(), 4);
    assert_bad_input(&mut batch("never"), &["--timeout", "never"]);
}

#[test]
fn batch_help_shows_the_csv_header_as_written() {
    patience()
        .args(["batch", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains(CSV_HEADER));
}
