//! Win rates from batch files: verdicts merged by deal, and a confidence
//! interval.
//!
//! Files are read a row at a time and only each deal's verdict is kept,
//! in two bits, so a summary of any number of rows takes memory for the
//! deal numbers seen and nothing for the rows (see [`Verdicts`]).

use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use serde::Serialize;
use thiserror::Error;

mod curves;
mod verdicts;

pub use curves::{Times, convergence, missing};
pub use verdicts::{Tally, Verdicts};

use crate::row::{Item, Row, RowError, Rows, Start};
use crate::search::Verdict;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum StatsError {
    #[error(transparent)]
    BadRow(#[from] RowError),
    #[error("cannot read {file}: {message}")]
    Unreadable { file: String, message: String },
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

/// Reads batch files into one tally, a row at a time, showing each row to
/// `each` too; rows of one deal merge as [`Verdicts::merge`] says. A last
/// line cut off (a batch still writing it, or stopped mid-row) is left
/// out, with a note saying so. Returns the tally and the notes.
pub fn read_files(
    paths: &[PathBuf],
    mut each: impl FnMut(&Row),
) -> Result<(Tally, Vec<String>), StatsError> {
    let mut tally = Tally::default();
    let mut notes = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        let name = path.display().to_string();
        let Some(rows) = open(path, &name)? else {
            continue;
        };
        for item in rows {
            let read = match item? {
                Item::Row(read) => read,
                Item::Torn(torn) => {
                    notes.push(format!(
                        "{name}: line {} is cut off (a batch still writing it, or stopped \
                         mid-row): left out",
                        torn.line
                    ));
                    continue;
                }
            };
            let row = &read.row;
            each(row);
            tally
                .merge(&row.game, row.deal, row.verdict)
                .map_err(|held| StatsError::Conflict {
                    game: row.game.clone(),
                    deal: row.deal,
                    first: held,
                    first_at: first_place(&paths[..=index], &row.game, row.deal, held),
                    second: row.verdict,
                    second_at: format!("{name} line {}", read.line),
                })?;
        }
    }
    Ok((tally, notes))
}

/// The rows of a batch file, or none if it is empty.
fn open(path: &Path, name: &str) -> Result<Option<Rows<BufReader<File>>>, StatsError> {
    let unreadable = |message: String| StatsError::Unreadable {
        file: name.to_string(),
        message,
    };
    let file = File::open(path).map_err(|e| unreadable(e.to_string()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(unreadable("it is a folder".into()));
    }
    match Rows::start(BufReader::with_capacity(1 << 16, file), name)? {
        Start::Empty { .. } => Ok(None),
        Start::Rows(rows) => Ok(Some(rows)),
    }
}

/// Where the first row of `game`'s `deal` with `verdict` is among
/// `paths`, to name it in an error. Only regular files are read again (a
/// pipe cannot be).
fn first_place(paths: &[PathBuf], game: &str, deal: u64, verdict: Verdict) -> String {
    for path in paths.iter().filter(|p| p.is_file()) {
        let name = path.display().to_string();
        let Ok(Some(rows)) = open(path, &name) else {
            continue;
        };
        let found = rows.map_while(Result::ok).find_map(|item| match item {
            Item::Row(read)
                if (read.row.game.as_str(), read.row.deal, read.row.verdict)
                    == (game, deal, verdict) =>
            {
                Some(read.line)
            }
            _ => None,
        });
        if let Some(line) = found {
            return format!("{name} line {line}");
        }
    }
    "an earlier row".into()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::HEADER;
    use tempfile::TempDir;

    /// Writes batch files of `rows` each (after the header) in `dir`.
    fn files(dir: &TempDir, rows: &[&str]) -> Vec<PathBuf> {
        (rows.iter().enumerate())
            .map(|(i, rows)| {
                let path = dir.path().join(format!("{}.csv", (b'a' + i as u8) as char));
                std::fs::write(&path, format!("{HEADER}\n{rows}")).unwrap();
                path
            })
            .collect()
    }

    /// The summaries of batch files holding `rows` each.
    fn summaries(rows: &[&str]) -> Result<Vec<Summary>, String> {
        let dir = TempDir::new().unwrap();
        let (tally, _) = read_files(&files(&dir, rows), |_| ()).map_err(|e| {
            let dir = format!("{}/", dir.path().display());
            e.to_string().replace(&dir, "")
        })?;
        Ok(tally.summaries())
    }

    fn counts(s: &Summary) -> (u64, u64, u64, u64) {
        (s.deals, s.won, s.lost, s.unknown)
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
        let s = summaries(&[
            "x,1,won,52,10,5,52\nx,2,lost,0,10,5,40\n",
            "x,2,lost,0,11,6,40\nx,3,unknown,0,99,9,30\ny,1,lost,0,1,1,3\n",
        ])
        .unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(counts(&s[0]), (3, 1, 1, 1));
        assert_eq!(s[0].bounds(), Some((1.0 / 3.0, 2.0 / 3.0)));
        let text = s[0].to_string();
        assert!(text.contains("win rate of decided deals 50.00%"), "{text}");
        assert!(
            text.contains("between 33.33% (none won) and 66.67%"),
            "{text}"
        );
    }

    /// A rerun with a longer limit decides deals a short one left
    /// `unknown`: the decided verdict counts, whichever file comes first.
    #[test]
    fn a_decided_verdict_supersedes_unknown() {
        let short = "x,1,unknown,0,9,9,30\nx,2,unknown,0,9,9,30\nx,3,unknown,0,9,9,9\n";
        let long = "x,1,won,52,10,5,52\nx,2,lost,0,10,5,40\n";
        for order in [[short, long], [long, short]] {
            assert_eq!(counts(&summaries(&order).unwrap()[0]), (3, 1, 1, 1));
        }
    }

    #[test]
    fn won_against_lost_is_an_error_naming_both_places() {
        let err = summaries(&[
            "x,1,unknown,0,10,5,40\nx,1,won,52,10,5,52\n",
            "x,5,lost,0,1,1,1\nx,1,lost,0,10,5,40\n",
        ])
        .unwrap_err();
        assert_eq!(
            err,
            "x deal 1 is won in a.csv line 3 but lost in b.csv line 3: the files disagree"
        );
    }

    #[test]
    fn bad_rows_name_file_and_line() {
        let err = summaries(&["x,1,won,52,10,5,52\nx,2,maybe,0,1,1,1\n"]).unwrap_err();
        assert!(err.starts_with("a.csv: line 3:"), "{err}");
    }

    #[test]
    fn a_cut_off_last_line_is_left_out_and_said() {
        let dir = TempDir::new().unwrap();
        let paths = files(&dir, &["x,1,won,52,10,5,52\nx,2,lo"]);
        let (tally, notes) = read_files(&paths, |_| ()).unwrap();
        assert_eq!(counts(&tally.summaries()[0]), (1, 1, 0, 0));
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("line 3 is cut off"), "{notes:?}");
    }
}
