//! Win rates from batch files: verdicts merged by deal, and a confidence
//! interval.
//!
//! Files are read a row at a time and only each deal's verdict is kept,
//! in two bits, so a summary of any number of rows takes memory for the
//! deal numbers seen and nothing for the rows (see [`Verdicts`]).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use serde::Serialize;
use thiserror::Error;

use crate::row::{Item, RowError, Rows, Start};
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

/// Deal numbers a block of [`Verdicts`] covers.
const BLOCK: u64 = 1024;
/// Words of two bits a deal in a block.
const WORDS: usize = (BLOCK * 2 / 64) as usize;

/// One game's verdicts by deal number, two bits a deal.
///
/// Deal numbers are kept in blocks of 1024 consecutive numbers (256 bytes
/// each), made as a deal of the block first comes: a range of `n` deals
/// takes about `n / 4` bytes and a little more for the blocks' map (100M
/// deals about 29 MB); scattered deals take a block each.
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    blocks: ahash::AHashMap<u64, Box<[u64; WORDS]>>,
    /// Deals won, lost and unknown.
    counts: [u64; 3],
}

/// A verdict's two bits; 0 is no verdict.
fn code(verdict: Verdict) -> u64 {
    match verdict {
        Verdict::Won => 1,
        Verdict::Lost => 2,
        Verdict::Unknown => 3,
    }
}

fn from_code(code: u64) -> Option<Verdict> {
    match code {
        1 => Some(Verdict::Won),
        2 => Some(Verdict::Lost),
        3 => Some(Verdict::Unknown),
        _ => None,
    }
}

impl Verdicts {
    /// Where a deal's two bits are: its block, word and shift.
    fn place(deal: u64) -> (u64, usize, u32) {
        let at = deal % BLOCK;
        (deal / BLOCK, (at / 32) as usize, (at % 32 * 2) as u32)
    }

    pub fn get(&self, deal: u64) -> Option<Verdict> {
        let (block, word, shift) = Verdicts::place(deal);
        let words = self.blocks.get(&block)?;
        from_code(words[word] >> shift & 3)
    }

    /// Sets or clears a deal's verdict.
    pub fn set(&mut self, deal: u64, verdict: Option<Verdict>) {
        let (block, word, shift) = Verdicts::place(deal);
        let new = verdict.map_or(0, code);
        let words = match (self.blocks.get_mut(&block), new) {
            (Some(words), _) => words,
            (None, 0) => return,
            (None, _) => self.blocks.entry(block).or_insert(Box::new([0; WORDS])),
        };
        let old = words[word] >> shift & 3;
        words[word] = words[word] & !(3 << shift) | new << shift;
        if old != 0 {
            self.counts[old as usize - 1] -= 1;
        }
        if new != 0 {
            self.counts[new as usize - 1] += 1;
        }
    }

    /// Records a deal's verdict from another row. A decided verdict
    /// supersedes `unknown` (a longer run decided what a shorter one did
    /// not); `unknown` adds nothing to a decided one; `won` against `lost`
    /// is an error, holding the verdict already recorded.
    pub fn merge(&mut self, deal: u64, verdict: Verdict) -> Result<(), Verdict> {
        match self.get(deal) {
            None | Some(Verdict::Unknown) => self.set(deal, Some(verdict)),
            Some(held) if held == verdict || verdict == Verdict::Unknown => {}
            Some(held) => return Err(held),
        }
        Ok(())
    }

    /// The counts as a summary of `game`.
    pub fn summary(&self, game: &str) -> Summary {
        let [won, lost, unknown] = self.counts;
        Summary {
            game: game.to_string(),
            deals: won + lost + unknown,
            won,
            lost,
            unknown,
        }
    }

    /// The deals with a verdict, in no order.
    pub fn deals(&self) -> impl Iterator<Item = (u64, Verdict)> + '_ {
        self.blocks.iter().flat_map(|(&block, words)| {
            (0..BLOCK).filter_map(move |at| {
                let code = words[(at / 32) as usize] >> (at % 32 * 2) & 3;
                from_code(code).map(|verdict| (block * BLOCK + at, verdict))
            })
        })
    }

    /// The bytes it holds on the heap, near enough: its blocks and the
    /// map's slots (a key, a pointer and a control byte each).
    pub fn heap_bytes(&self) -> usize {
        self.blocks.len() * std::mem::size_of::<[u64; WORDS]>()
            + self.blocks.capacity() * (2 * std::mem::size_of::<u64>() + 1)
    }
}

/// Verdicts by game (the `game` column) and deal.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    games: BTreeMap<String, Verdicts>,
}

impl Tally {
    /// See [`Verdicts::merge`].
    pub fn merge(&mut self, game: &str, deal: u64, verdict: Verdict) -> Result<(), Verdict> {
        match self.games.get_mut(game) {
            Some(verdicts) => verdicts.merge(deal, verdict),
            None => self
                .games
                .entry(game.to_string())
                .or_default()
                .merge(deal, verdict),
        }
    }

    /// The verdicts of a game, if it has any rows.
    pub fn game(&self, game: &str) -> Option<&Verdicts> {
        self.games.get(game)
    }

    /// The verdicts of a game, made empty if it has none.
    pub fn game_mut(&mut self, game: &str) -> &mut Verdicts {
        self.games.entry(game.to_string()).or_default()
    }

    /// The games, by name.
    pub fn games(&self) -> impl Iterator<Item = &str> {
        self.games.keys().map(String::as_str)
    }

    /// One summary a game with deals, by name.
    pub fn summaries(&self) -> Vec<Summary> {
        (self.games.iter())
            .map(|(game, verdicts)| verdicts.summary(game))
            .filter(|summary| summary.deals > 0)
            .collect()
    }

    pub fn heap_bytes(&self) -> usize {
        self.games.values().map(Verdicts::heap_bytes).sum()
    }
}

/// Reads batch files into one tally, a row at a time; rows of one deal
/// merge as [`Verdicts::merge`] says. A last line cut off (a batch still
/// writing it, or stopped mid-row) is left out, with a note saying so.
/// Returns the tally and the notes.
pub fn read_files(paths: &[PathBuf]) -> Result<(Tally, Vec<String>), StatsError> {
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
        let (tally, _) = read_files(&files(&dir, rows)).map_err(|e| {
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
        let (tally, notes) = read_files(&paths).unwrap();
        assert_eq!(counts(&tally.summaries()[0]), (1, 1, 0, 0));
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("line 3 is cut off"), "{notes:?}");
    }

    #[test]
    fn verdicts_keep_two_bits_a_deal() {
        let mut verdicts = Verdicts::default();
        let all = [Verdict::Won, Verdict::Lost, Verdict::Unknown];
        for deal in 0..1_000_000u64 {
            verdicts.set(deal * 3 % 1_000_000 + 5, Some(all[deal as usize % 3]));
        }
        assert_eq!((verdicts.get(4), verdicts.get(1_000_005)), (None, None));
        // Deal 1_000_004 is set when 3d % 1_000_000 = 999_999: d = 333_333.
        assert_eq!(verdicts.get(1_000_004), Some(Verdict::Won));
        assert_eq!(
            counts(&verdicts.summary("x")),
            (1_000_000, 333_334, 333_333, 333_333)
        );
        verdicts.set(5, None);
        assert_eq!(verdicts.summary("x").deals, 999_999);
        assert_eq!(verdicts.deals().count(), 999_999);
        let bytes = verdicts.heap_bytes();
        assert!(bytes < 300_000, "{bytes} bytes for 1M deals");
    }
}
