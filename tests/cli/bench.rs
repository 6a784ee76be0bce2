//! `bench`: fixed sets of deals, whose node counts are the same everywhere.

use super::*;

/// The games in the order `bench` runs them.
const GAMES: [&str; 5] = [
    "all-in-a-row",
    "raglan",
    "lanes",
    "rows-of-four",
    "alexandria",
];

/// The number after `label` in `text`, up to the next space.
fn number_after(text: &str, label: &str) -> u64 {
    let rest = &text[text
        .find(label)
        .unwrap_or_else(|| panic!("no {label:?} in {text}"))
        + label.len()..];
    let number = rest.split(|c: char| !c.is_ascii_digit()).next().unwrap();
    number
        .parse()
        .unwrap_or_else(|_| panic!("no number after {label:?} in {text}"))
}

#[test]
fn bench_prints_the_version_and_every_figure_of_its_game() {
    let out = stdout_of(patience().args(["bench", "all-in-a-row", "--quick", "--threads", "1"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "bench v1, quick sets, 1 thread", "{out}");
    assert!(
        lines[1].starts_with("all-in-a-row: numbered deals 1..20, each at most "),
        "{out}"
    );
    for label in [
        "20 deals in ",
        " deals/s; ",
        " positions: ",
        " a second",
        "per deal: median ",
        ", worst ",
        "table peak: ",
    ] {
        assert!(out.contains(label), "{label:?} not in {out}");
    }
    let verdicts = number_after(&out, "deals/s; ")
        + number_after(&out, " won, ")
        + number_after(&out, " lost, ");
    assert_eq!(verdicts, 20, "won, lost and unknown add up: {out}");
    assert_eq!(lines.len(), 6, "one game only: {out}");
}

/// Every game's quick set on one thread and on two: the same deals give
/// the same node counts, verdicts and tables whichever thread solves them.
#[test]
#[cfg_attr(debug_assertions, ignore = "solves 77 deals twice: run with --release")]
fn bench_counts_are_the_same_on_one_thread_and_two() {
    let run = |threads: &str| -> Vec<Value> {
        let out = stdout_of(patience().args(["bench", "--quick", "--json", "--threads", threads]));
        out.lines()
            .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
            .collect()
    };
    let (one, two) = (run("1"), run("2"));
    let games: Vec<&str> = one.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(games, GAMES);
    for (a, b) in one.iter().zip(&two) {
        let number = |g: &Value, field: &str| {
            g[field]
                .as_u64()
                .unwrap_or_else(|| panic!("no {field} in {g}"))
        };
        assert_eq!(a["version"], "v1");
        assert_eq!(a["quick"], true);
        assert_eq!((number(a, "threads"), number(b, "threads")), (1, 2));
        let deals = number(a, "deals");
        assert_eq!(deals, number(a, "last_deal") - number(a, "first_deal") + 1);
        assert_eq!(
            number(a, "won") + number(a, "lost") + number(a, "unknown"),
            deals
        );
        assert!(number(a, "nodes") <= deals * number(a, "max_nodes"), "{a}");
        assert!(
            number(a, "median_micros") <= number(a, "worst_micros"),
            "{a}"
        );
        for rate in ["deals_per_second", "nodes_per_second", "seconds"] {
            assert!(a[rate].as_f64().is_some_and(|x| x > 0.0), "{rate} in {a}");
        }
        for field in [
            "deals",
            "nodes",
            "won",
            "lost",
            "unknown",
            "table_peak",
            "table_bytes",
        ] {
            assert_eq!(number(a, field), number(b, field), "{field}: {a} {b}");
        }
    }
}

#[test]
fn bench_refuses_an_unknown_game_and_no_threads() {
    let output = patience()
        .args(["bench", "klondike"])
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .clone();
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("error: invalid value 'klondike'") && stderr.contains("raglan"),
        "{stderr}"
    );
    assert_bad_input(
        patience().args(["bench", "raglan", "--threads", "0"]),
        &["--threads"],
    );
}
