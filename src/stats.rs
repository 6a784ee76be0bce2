//! Win rates from batch files: merging runs and a confidence interval.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::fmt;
use std::io::Read;

use serde::Serialize;
use thiserror::Error;

use crate::batch::Row;
use crate::search::Verdict;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum StatsError {
    #[error("{file}: line {line}: {message}")]
    BadRow {
        file: String,
        line: u64,
        message: String,
    },
    #[error(
        "{game} deal {deal} is {first} in {first_at} but {second} in {second_at}: \
         the files disagree"
    )]
    Conflict {
        game: String,
        deal: u64,
        first: Verdict,
        first_at: String,
        second: Verdict,
        second_at: String,
    },
}

/// The columns of a batch file, in order.
pub const HEADER: [&str; 7] = [
    "game", "deal", "verdict", "moves", "nodes", "micros", "best",
];

/// Reads a batch CSV file's rows, each with its line number. `file` names
/// the source in errors.
pub fn read_rows(reader: impl Read, file: &str) -> Result<Vec<(u64, Row)>, StatsError> {
    let bad = |line: u64, message: String| StatsError::BadRow {
        file: file.to_string(),
        line,
        message,
    };
    let line_of = |pos: Option<&csv::Position>| pos.map_or(0, |p| p.line());
    let mut csv = csv::Reader::from_reader(reader);
    let headers = csv.headers().map_err(|e| bad(1, e.to_string()))?.clone();
    if headers.iter().ne(HEADER) {
        let expected = HEADER.join(",");
        return Err(bad(
            1,
            format!("not a patience batch file: the header must be {expected}"),
        ));
    }
    let mut rows = Vec::new();
    for record in csv.records() {
        let record = record.map_err(|e| bad(line_of(e.position()), e.to_string()))?;
        let line = line_of(record.position());
        let row = record
            .deserialize(Some(&headers))
            .map_err(|e| bad(line, e.to_string()))?;
        rows.push((line, row));
    }
    Ok(rows)
}

/// Verdict counts for one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub game: String,
    pub deals: u64,
    pub won: u64,
    pub lost: u64,
    pub unknown: u64,
}

/// A rate with its 95% interval, as fractions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// The Wilson score interval for `k` successes in `n` trials at 95%: it
/// stays inside [0, 1] and behaves near 0% and 100%, where the plain
/// normal interval does not.
pub fn wilson(k: u64, n: u64) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval {
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

impl Summary {
    /// The win rate among decided deals, with its Wilson interval.
    pub fn win_rate(&self) -> Option<Interval> {
        wilson(self.won, self.won + self.lost)
    }

    /// Bounds on the win rate over all deals, whatever the unknowns turn
    /// out to be: (won/n, (won+unknown)/n).
    pub fn bounds(&self) -> Option<(f64, f64)> {
        (self.deals > 0).then(|| {
            let n = self.deals as f64;
            (self.won as f64 / n, (self.won + self.unknown) as f64 / n)
        })
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} deals, {} won, {} lost, {} unknown",
            self.game, self.deals, self.won, self.lost, self.unknown
        )?;
        let pct = |x: f64| format!("{:.2}%", 100.0 * x);
        match self.win_rate() {
            Some(i) => {
                let decided = if self.unknown > 0 {
                    " of decided deals"
                } else {
                    ""
                };
                writeln!(
                    f,
                    "  win rate{decided} {} (95% Wilson interval {} to {})",
                    pct(i.rate),
                    pct(i.low),
                    pct(i.high)
                )?;
            }
            None => writeln!(f, "  win rate: no decided deals")?,
        }
        if self.unknown > 0
            && let Some((low, high)) = self.bounds()
        {
            writeln!(
                f,
                "  with the unknowns, between {} (none won) and {} (all won)",
                pct(low),
                pct(high)
            )?;
        }
        Ok(())
    }
}

/// Merges rows from several files into one summary per game. A deal seen
/// twice with the same verdict counts once; with different verdicts it is
/// an error. `rows` holds, for each file, its name and rows.
pub fn summarize(files: &[(String, Vec<(u64, Row)>)]) -> Result<Vec<Summary>, StatsError> {
    let mut seen: BTreeMap<(String, u64), (Verdict, String)> = BTreeMap::new();
    for (file, rows) in files {
        for (line, row) in rows {
            let at = format!("{file} line {line}");
            match seen.entry((row.game.clone(), row.deal)) {
                Entry::Vacant(slot) => {
                    slot.insert((row.verdict, at));
                }
                Entry::Occupied(slot) if slot.get().0 != row.verdict => {
                    let (first, first_at) = slot.get().clone();
                    return Err(StatsError::Conflict {
                        game: row.game.clone(),
                        deal: row.deal,
                        first,
                        first_at,
                        second: row.verdict,
                        second_at: at,
                    });
                }
                Entry::Occupied(_) => {}
            }
        }
    }
    let mut summaries: BTreeMap<String, Summary> = BTreeMap::new();
    for ((game, _), (verdict, _)) in seen {
        let summary = summaries.entry(game.clone()).or_insert_with(|| Summary {
            game,
            ..Summary::default()
        });
        summary.deals += 1;
        match verdict {
            Verdict::Won => summary.won += 1,
            Verdict::Lost => summary.lost += 1,
            Verdict::Unknown => summary.unknown += 1,
        }
    }
    Ok(summaries.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER_LINE: &str = "game,deal,verdict,moves,nodes,micros,best\n";

    fn rows(text: &str) -> Vec<(u64, Row)> {
        read_rows(format!("{HEADER_LINE}{text}").as_bytes(), "t.csv").unwrap()
    }

    #[test]
    fn wilson_matches_a_worked_example() {
        // 67.31% of 25000, the interval black-hole-solver's README quotes
        // as +-0.58 points.
        let i = wilson(16_828, 25_000).unwrap();
        assert!((i.rate - 0.67312).abs() < 1e-5);
        assert!((i.high - i.rate - 0.0058).abs() < 0.0002, "{i:?}");
        let edge = wilson(0, 10).unwrap();
        assert_eq!(edge.low, 0.0);
        assert!(edge.high > 0.25 && edge.high < 0.35);
        assert!(wilson(0, 0).is_none());
    }

    #[test]
    fn merges_files_and_counts_each_deal_once() {
        let a = rows("x,1,won,52,10,5,52\nx,2,lost,0,10,5,40\n");
        let b = rows("x,2,lost,0,11,6,40\nx,3,unknown,0,99,9,30\ny,1,lost,0,1,1,3\n");
        let s = summarize(&[("a".into(), a), ("b".into(), b)]).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[0].deals, s[0].won, s[0].lost, s[0].unknown),
            (3, 1, 1, 1)
        );
        assert_eq!(s[0].bounds(), Some((1.0 / 3.0, 2.0 / 3.0)));
        let text = s[0].to_string();
        assert!(text.contains("win rate of decided deals 50.00%"), "{text}");
        assert!(
            text.contains("between 33.33% (none won) and 66.67%"),
            "{text}"
        );
    }

    #[test]
    fn conflicting_verdicts_are_an_error_naming_both_places() {
        let a = rows("x,1,won,52,10,5,52\n");
        let b = rows("x,5,lost,0,1,1,1\nx,1,lost,0,10,5,40\n");
        let err = summarize(&[("a.csv".into(), a), ("b.csv".into(), b)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x deal 1 is won in a.csv line 2 but lost in b.csv line 3: the files disagree"
        );
    }

    #[test]
    fn bad_rows_name_file_and_line() {
        let text = format!("{HEADER_LINE}x,1,won,52,10,5,52\nx,2,maybe,0,1,1,1\n");
        let err = read_rows(text.as_bytes(), "r.csv").unwrap_err().to_string();
        assert!(err.starts_with("r.csv: line 3:"), "{err}");
        let err = read_rows("deal,verdict\n1,won\n".as_bytes(), "o.csv").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("o.csv: line 1: not a patience batch file")
        );
    }
}
