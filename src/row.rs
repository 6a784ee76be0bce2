//! A batch file: a header line, then one row a deal,
//!
//! ```text
//! game,deal,verdict,moves,nodes,micros,best
//! all-in-a-row,7,won,52,16547,6011,52
//! ```
//!
//! as `batch` writes it and `stats` and `--resume` read it. The reader
//! streams: it holds one line at a time, however long the file, and a line
//! no row could fill is refused before it fills memory.

use std::fmt;
use std::io::{self, BufRead};
use std::str::FromStr;

use thiserror::Error;

use crate::quote::quote;
use crate::search::Verdict;

/// The first line of every batch file.
pub const HEADER: &str = "game,deal,verdict,moves,nodes,micros,best";

/// The longest line read: a row is well under a hundred bytes.
const MAX_LINE: usize = 1024;

/// One solved deal: a row of a batch file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The game's name, prefixed `pysol:` for PySolFC game numbers, whose
    /// deals differ from the numbered ones.
    pub game: String,
    pub deal: u64,
    pub verdict: Verdict,
    /// Length of the solution; 0 unless won.
    pub moves: usize,
    pub nodes: u64,
    pub micros: u64,
    /// Most cards home in a position the search reached (see
    /// [`crate::search::Report::best`]).
    pub best: u32,
}

/// The row as a line of the file, without its newline.
impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Row {
            game,
            deal,
            verdict,
            moves,
            nodes,
            micros,
            best,
        } = self;
        write!(f, "{game},{deal},{verdict},{moves},{nodes},{micros},{best}")
    }
}

/// A field as written, unquoted (a spreadsheet may have put it in double
/// quotes) and without spaces around it.
fn unquoted(field: &str) -> &str {
    let field = field.trim_ascii();
    field
        .strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .unwrap_or(field)
}

/// The first seven fields of a line, and how many it has. (A plain scan
/// for commas: `str::split` took a fifth of the time of `stats`.)
fn seven_fields(line: &str) -> ([&str; 7], usize) {
    let mut seven = [""; 7];
    let mut count = 0;
    let mut start = 0;
    for (at, _) in (line.bytes().enumerate())
        .filter(|&(_, b)| b == b',')
        .chain([(line.len(), b',')])
    {
        if let Some(slot) = seven.get_mut(count) {
            *slot = unquoted(&line[start..at]);
        }
        count += 1;
        start = at + 1;
    }
    (seven, count)
}

impl FromStr for Row {
    type Err = String;

    /// Reads a line of the file, without its newline.
    fn from_str(line: &str) -> Result<Row, String> {
        let ([game, deal, verdict, moves, nodes, micros, best], 7) = seven_fields(line) else {
            return Err(format!(
                "{} fields where a row has 7 ({HEADER})",
                seven_fields(line).1
            ));
        };
        fn number<T: FromStr>(name: &str, text: &str) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{name} {} is not a whole number", quote(text)))
        }
        if game.is_empty() {
            return Err("the game is empty".into());
        }
        let verdict = match verdict {
            "won" => Verdict::Won,
            "lost" => Verdict::Lost,
            "unknown" => Verdict::Unknown,
            other => {
                return Err(format!(
                    "verdict {} is not won, lost or unknown",
                    quote(other)
                ));
            }
        };
        Ok(Row {
            game: game.to_string(),
            deal: number("deal", deal)?,
            verdict,
            moves: number("moves", moves)?,
            nodes: number("nodes", nodes)?,
            micros: number("micros", micros)?,
            best: number("best", best)?,
        })
    }
}

/// The deal a line that is not a whole row still names, if its deal
/// field is whole: followed by the comma that ends it.
pub fn deal_of_torn(line: &str) -> Option<u64> {
    match seven_fields(line) {
        ([_, deal, ..], 3..) => deal.parse().ok(),
        _ => None,
    }
}

/// What is wrong with a batch file, and where.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{file}: line {line}: {message}")]
pub struct RowError {
    pub file: String,
    pub line: u64,
    pub message: String,
}

/// A row as read, with where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The line it was on, counted from 1 (the header is line 1).
    pub line: u64,
    /// The byte at which its line starts.
    pub offset: u64,
    pub row: Row,
    /// Whether the line ended with a newline. A last line without one was
    /// cut off by a stop, or written by hand.
    pub ended: bool,
}

/// The last line of a file, cut off where no whole row could be read
/// from it: a batch stopped in the middle of writing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Torn {
    pub line: u64,
    pub offset: u64,
    pub text: String,
}

/// One item of a batch file after its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Row(Located),
    Torn(Torn),
}

/// Reads a batch file's rows one at a time.
pub struct Rows<R> {
    reader: R,
    file: String,
    line: u64,
    offset: u64,
    buffer: Vec<u8>,
    done: bool,
}

/// How a batch file starts.
pub enum Start<R> {
    /// Nothing but perhaps the start of the header: a batch stopped before
    /// its first row, or a file just made. `bytes` is its length.
    Empty { bytes: u64 },
    /// The header, then rows.
    Rows(Rows<R>),
}

impl<R: BufRead> Rows<R> {
    /// Reads the header of a batch file; `file` names it in errors.
    pub fn start(reader: R, file: &str) -> Result<Start<R>, RowError> {
        let mut rows = Rows {
            reader,
            file: file.to_string(),
            line: 0,
            offset: 0,
            buffer: Vec::new(),
            done: false,
        };
        let ended = rows.next_line()?;
        let first = String::from_utf8_lossy(&rows.buffer);
        let header = first.trim_end_matches(['\r', '\n']);
        if !ended && HEADER.starts_with(header) {
            return Ok(Start::Empty {
                bytes: rows.buffer.len() as u64,
            });
        }
        if header != HEADER {
            return Err(rows.error(format!(
                "not a patience batch file: its first line must be {HEADER}"
            )));
        }
        Ok(Start::Rows(rows))
    }

    fn error(&self, message: String) -> RowError {
        RowError {
            file: self.file.clone(),
            line: self.line,
            message,
        }
    }

    /// Reads the next line into `buffer`, newline included; whether it
    /// ended with one. An empty buffer is the end of the file.
    fn next_line(&mut self) -> Result<bool, RowError> {
        self.offset += self.buffer.len() as u64;
        self.buffer.clear();
        self.line += 1;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.error(format!("cannot read: {e}"))),
            };
            if available.is_empty() {
                return Ok(false);
            }
            let (take, ended) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            self.buffer.extend_from_slice(&available[..take]);
            self.reader.consume(take);
            if self.buffer.len() > MAX_LINE {
                return Err(self.error(format!(
                    "longer than {MAX_LINE} bytes, which no row is: not a patience batch file"
                )));
            }
            if ended {
                return Ok(true);
            }
        }
    }
}

impl<R: BufRead> Iterator for Rows<R> {
    type Item = Result<Item, RowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let ended = match self.next_line() {
            Ok(ended) => ended,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        if self.buffer.is_empty() {
            self.done = true;
            return None;
        }
        let text = String::from_utf8_lossy(&self.buffer);
        let line = text.trim_end_matches(['\r', '\n']);
        let parsed = line.parse::<Row>();
        Some(match (parsed, ended) {
            (Ok(row), _) => Ok(Item::Row(Located {
                line: self.line,
                offset: self.offset,
                row,
                ended,
            })),
            (Err(_), false) => Ok(Item::Torn(Torn {
                line: self.line,
                offset: self.offset,
                text: line.to_string(),
            })),
            (Err(message), true) => Err(self.error(message)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(deal: u64, verdict: Verdict) -> Row {
        Row {
            game: "all-in-a-row".into(),
            deal,
            verdict,
            moves: 0,
            nodes: 10,
            micros: 5,
            best: 40,
        }
    }

    /// The rows of `text`, or the first error.
    fn items(text: &str) -> Result<Vec<Item>, RowError> {
        match Rows::start(text.as_bytes(), "t.csv")? {
            Start::Empty { .. } => Ok(Vec::new()),
            Start::Rows(rows) => rows.collect(),
        }
    }

    #[test]
    fn a_row_reads_back() {
        let row = row(7, Verdict::Lost);
        assert_eq!(row.to_string(), "all-in-a-row,7,lost,0,10,5,40");
        assert_eq!(row.to_string().parse(), Ok(row));
        let quoted = "\"all-in-a-row\",\"7\",lost,0,10,5,40".parse::<Row>();
        assert_eq!(quoted.map(|r| r.deal), Ok(7));
    }

    #[test]
    fn bad_fields_are_named_and_quoted_short() {
        let err = "x,1,maybe,0,1,1,1".parse::<Row>().unwrap_err();
        assert_eq!(err, "verdict 'maybe' is not won, lost or unknown");
        let err = format!("x,{},won,0,1,1,1", "9".repeat(500))
            .parse::<Row>()
            .unwrap_err();
        assert!(
            err.starts_with("deal '999") && err.contains("(500 bytes)"),
            "{err}"
        );
        assert!(
            "x,1,won"
                .parse::<Row>()
                .unwrap_err()
                .starts_with("3 fields")
        );
    }

    #[test]
    fn lines_are_numbered_and_their_offsets_kept() {
        let text = format!("{HEADER}\nx,1,won,52,1,1,52\r\nx,2,lost,0,1,1,3");
        let items = items(&text).unwrap();
        let Item::Row(first) = &items[0] else {
            panic!()
        };
        assert_eq!((first.line, first.offset, first.ended), (2, 42, true));
        let Item::Row(last) = &items[1] else { panic!() };
        assert_eq!((last.line, last.row.deal, last.ended), (3, 2, false));
    }

    #[test]
    fn a_cut_last_line_is_torn_and_a_bad_middle_one_an_error() {
        let text = format!("{HEADER}\nx,1,won,52,1,1,52\nx,2,lo");
        let read = items(&text).unwrap();
        assert_eq!(
            read[1],
            Item::Torn(Torn {
                line: 3,
                offset: 60,
                text: "x,2,lo".into()
            })
        );
        assert_eq!(deal_of_torn("x,2,lo"), Some(2));
        assert_eq!(deal_of_torn("x,2"), None, "the deal may go on: 23");
        let err = items(&format!("{HEADER}\nx,2,lo\nx,1,won,52,1,1,52\n")).unwrap_err();
        assert_eq!(err.line, 2);
    }

    #[test]
    fn a_file_that_is_the_start_of_a_header_is_empty() {
        for cut in 0..HEADER.len() {
            match Rows::start(&HEADER.as_bytes()[..cut], "t.csv") {
                Ok(Start::Empty { bytes }) => assert_eq!(bytes, cut as u64),
                _ => panic!("cut at {cut}"),
            }
        }
        assert_eq!(items(&format!("{HEADER}\n")), Ok(Vec::new()));
        let err = items("deal,verdict\n1,won\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.csv: line 1: not a patience batch file")
        );
    }

    #[test]
    fn a_line_too_long_for_a_row_is_refused_as_it_is_read() {
        let text = format!("{HEADER}\n{}\n", "x".repeat(10 * MAX_LINE));
        let err = items(&text).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("longer than 1024 bytes"), "{err}");
    }
}
