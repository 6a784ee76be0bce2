//! A batch's out file: locked for one batch at a time, read back when a
//! batch resumes, and added to a row at a time.
//!
//! What a stop may leave, and what opening does with it, so that no
//! finished row is ever lost or written twice:
//!
//! - nothing, or part of the header (stopped before its first row): a
//!   fresh start;
//! - a last row without its newline that still reads as a whole row
//!   (stopped between row and newline, or a file edited by hand): kept,
//!   and its newline written at once. (A row cut inside its last field,
//!   `best`, reads as whole too; its verdict is whole.)
//! - a last row cut short (stopped mid-row): dropped, and said, when its
//!   deal is in the range being solved (so it is solved again) or when it
//!   is cut before its deal number ends (it holds no verdict then); a cut
//!   row of a deal outside the range is refused, for the user to decide.
//!
//! Rows are written by one `write` each to a file opened for appending,
//! so a kill leaves whole rows and perhaps one cut short, never two
//! rows mixed.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, BufReader, BufWriter, Seek, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::row::{self, HEADER, Item, Row, RowError, Rows, Start, Torn};
use crate::search::Verdict;
use crate::stats::Tally;

/// What a batch does with a file that holds rows already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Refuses it: a plain batch never adds to another's rows.
    No,
    /// Adds to it, skipping the deals it holds.
    Skip,
    /// As `Skip`, but the deals of the range it holds only as `unknown`
    /// are solved again, their rows dropped first.
    RetryUnknown,
}

#[derive(Debug, Error)]
pub enum OutFileError {
    #[error("cannot open {path}: {error}")]
    Open { path: String, error: io::Error },
    #[error("cannot update {path}: {error}")]
    Io { path: String, error: io::Error },
    #[error(
        "{path} is being written by another patience batch (it holds the file's lock): \
         wait for that one to end, or choose another --out"
    )]
    Busy { path: String },
    #[error("{path} exists: add --resume to continue it, or choose another file")]
    Exists { path: String },
    #[error(transparent)]
    BadRow(#[from] RowError),
    #[error(
        "{path} holds {theirs} deals (line {line}), and this batch is {ours}: \
         one file holds one game; choose another --out"
    )]
    OtherGame {
        path: String,
        line: u64,
        theirs: String,
        ours: String,
    },
    #[error(
        "{path}: line {line}, the last, is cut off ('{text}'), and its deal {deal} is not in \
         --deals {start}..{end}: resume with a range that holds it, or remove the line"
    )]
    TornOutside {
        path: String,
        line: u64,
        text: String,
        deal: u64,
        start: u64,
        end: u64,
    },
    #[error(
        "{path}: line {line} says deal {deal} is {second}, but an earlier row says {first}: \
         the file disagrees with itself"
    )]
    Conflict {
        path: String,
        line: u64,
        deal: u64,
        first: Verdict,
        second: Verdict,
    },
}

/// An out file, locked, ready for rows.
#[derive(Debug)]
pub struct OutFile {
    file: File,
    path: PathBuf,
}

/// An out file as opened, with what it held.
#[derive(Debug)]
pub struct Opened {
    pub file: OutFile,
    /// The verdicts of the rows it holds (after those dropped).
    pub tally: Tally,
    /// What opening changed, for the user: rows dropped, and why.
    pub notes: Vec<String>,
}

impl OutFile {
    /// Opens (or makes) the out file of a batch of `column` (the rows'
    /// `game`) over `deals`, and takes its lock for as long as the value
    /// lives. With a resume, reads the rows it holds: each must be of
    /// `column`, and a row cut off at the end is dealt with as the module
    /// says. An empty file, or one holding part of a header, is a fresh
    /// start.
    pub fn open(
        path: &Path,
        column: &str,
        deals: &RangeInclusive<u64>,
        resume: Resume,
    ) -> Result<Opened, OutFileError> {
        let name = path.display().to_string();
        let io_error = |error| OutFileError::Io {
            path: name.clone(),
            error,
        };
        let mut notes = Vec::new();
        let file = lock(path, &mut notes)?;
        let mut found = scan(&file, &name, column, resume)?;
        if let Some(torn) = &found.torn {
            notes.push(drop_torn(&file, &name, torn, deals)?);
        }
        let mut out = OutFile {
            file,
            path: path.to_path_buf(),
        };
        match found.empty {
            Some(bytes) => {
                if bytes > 0 {
                    out.file.set_len(0).map_err(io_error)?;
                }
                writeln!(out.file, "{HEADER}").map_err(io_error)?;
            }
            // A whole last row without its newline gets it now, so that
            // the file is whole even if this batch adds nothing.
            None if found.needs_newline => out.file.write_all(b"\n").map_err(io_error)?,
            None => {}
        }
        if resume == Resume::RetryUnknown {
            out.drop_unknown(column, deals, &mut found.tally, &mut notes)?;
        }
        Ok(Opened {
            file: out,
            tally: found.tally,
            notes,
        })
    }

    /// Adds a row, in one write.
    pub fn append(&mut self, row: &Row) -> io::Result<()> {
        self.file.write_all(format!("{row}\n").as_bytes())
    }

    /// Drops the rows of the deals of `deals` that the file holds only as
    /// `unknown`, and takes them out of `tally`. The rows kept are written
    /// to a new file beside it, which is locked and then renamed over the
    /// old one: a stop leaves the old file or the new one, whole.
    fn drop_unknown(
        &mut self,
        column: &str,
        deals: &RangeInclusive<u64>,
        tally: &mut Tally,
        notes: &mut Vec<String>,
    ) -> Result<(), OutFileError> {
        let name = self.path.display().to_string();
        let io_error = |error| OutFileError::Io {
            path: name.clone(),
            error,
        };
        let verdicts = tally.game_mut(column);
        let again: Vec<u64> = (verdicts.deals())
            .filter(|&(deal, verdict)| verdict == Verdict::Unknown && deals.contains(&deal))
            .map(|(deal, _)| deal)
            .collect();
        if again.is_empty() {
            return Ok(());
        }
        for &deal in &again {
            verdicts.set(deal, None);
        }
        let verdicts = tally.game(column).expect("the game was made above");
        let mut beside = self.path.clone().into_os_string();
        beside.push(".retry");
        let beside = PathBuf::from(beside);
        let new = File::create(&beside).map_err(io_error)?;
        new.try_lock().map_err(|e| io_error(e.into()))?;
        self.file.rewind().map_err(io_error)?;
        let mut writer = BufWriter::new(&new);
        writeln!(writer, "{HEADER}").map_err(io_error)?;
        if let Start::Rows(rows) = Rows::start(BufReader::new(&self.file), &name)? {
            for item in rows {
                let Item::Row(read) = item? else {
                    continue;
                };
                let dropped =
                    read.row.verdict == Verdict::Unknown && verdicts.get(read.row.deal).is_none();
                if !dropped {
                    writeln!(writer, "{}", read.row).map_err(io_error)?;
                }
            }
        }
        writer.flush().map_err(io_error)?;
        drop(writer);
        new.sync_all().map_err(io_error)?;
        fs::rename(&beside, &self.path).map_err(io_error)?;
        // The file now at the path is `new`, locked before it got there;
        // the old one's lock goes with it. Rows follow what was written.
        self.file = new;
        notes.push(format!(
            "{name}: dropped {} unknown row{} of --deals {}..{} to solve them again",
            again.len(),
            if again.len() == 1 { "" } else { "s" },
            deals.start(),
            deals.end()
        ));
        Ok(())
    }
}

/// What an out file holds.
struct Found {
    /// The verdicts of its whole rows.
    tally: Tally,
    /// Its length when it holds no row: nothing, or part of a header.
    empty: Option<u64>,
    /// Its last whole row has no newline.
    needs_newline: bool,
    /// Its last line, cut off.
    torn: Option<Torn>,
}

/// Reads an out file's rows: with no resume there must be none, and each
/// must be of `column` and agree with the others.
fn scan(file: &File, name: &str, column: &str, resume: Resume) -> Result<Found, OutFileError> {
    let mut found = Found {
        tally: Tally::default(),
        empty: None,
        needs_newline: false,
        torn: None,
    };
    let start = Rows::start(BufReader::new(file), name);
    if resume == Resume::No && start.is_err() {
        return Err(OutFileError::Exists { path: name.into() });
    }
    let rows = match start? {
        Start::Empty { bytes } => {
            found.empty = Some(bytes);
            return Ok(found);
        }
        Start::Rows(rows) => rows,
    };
    for item in rows {
        let item = item?;
        if resume == Resume::No {
            return Err(OutFileError::Exists { path: name.into() });
        }
        let read = match item {
            Item::Row(read) => read,
            Item::Torn(torn) => {
                found.torn = Some(torn);
                continue;
            }
        };
        let row = read.row;
        if row.game != column {
            return Err(OutFileError::OtherGame {
                path: name.into(),
                line: read.line,
                theirs: row.game,
                ours: column.into(),
            });
        }
        (found.tally.merge(column, row.deal, row.verdict)).map_err(|held| {
            OutFileError::Conflict {
                path: name.into(),
                line: read.line,
                deal: row.deal,
                first: held,
                second: row.verdict,
            }
        })?;
        found.needs_newline = !read.ended;
    }
    Ok(found)
}

/// Cuts a torn last line off the file, when its deal is in `deals` or
/// cannot be read; says what was dropped.
fn drop_torn(
    file: &File,
    name: &str,
    torn: &Torn,
    deals: &RangeInclusive<u64>,
) -> Result<String, OutFileError> {
    let text = torn.text.escape_debug().to_string();
    let deal = row::deal_of_torn(&torn.text);
    if let Some(deal) = deal.filter(|deal| !deals.contains(deal)) {
        return Err(OutFileError::TornOutside {
            path: name.into(),
            line: torn.line,
            text,
            deal,
            start: *deals.start(),
            end: *deals.end(),
        });
    }
    file.set_len(torn.offset)
        .map_err(|error| OutFileError::Io {
            path: name.into(),
            error,
        })?;
    let line = torn.line;
    Ok(match deal {
        Some(deal) => {
            format!(
                "{name}: dropped line {line}, the last, cut off ('{text}'): deal {deal} is solved again"
            )
        }
        None => format!(
            "{name}: dropped line {line}, the last, cut off before its deal number ended ('{text}')"
        ),
    })
}

/// Opens (or makes) `path` for reading and appending, and takes its lock.
/// A lock the file system cannot take is noted and gone without: the
/// batch runs, unguarded against a second one.
fn lock(path: &Path, notes: &mut Vec<String>) -> Result<File, OutFileError> {
    let name = path.display().to_string();
    // Another batch's --retry-unknown may rename a new file over the path
    // between our opening it and locking it; then the new one is locked.
    for _ in 0..3 {
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|error| OutFileError::Open {
                path: name.clone(),
                error,
            })?;
        // Rows written to a device or a pipe (`--out /dev/null`) are never
        // resumed, and two batches may share one.
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Ok(file);
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(OutFileError::Busy { path: name }),
            Err(TryLockError::Error(e)) => {
                notes.push(format!(
                    "{name}: cannot lock it ({e}): do not run a second batch on it at once"
                ));
                return Ok(file);
            }
        }
        if is_at(&file, path) {
            return Ok(file);
        }
    }
    Err(OutFileError::Busy { path: name })
}

/// Whether `file` is the file now at `path`.
#[cfg(unix)]
fn is_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_at(_: &File, _: &Path) -> bool {
    true
}
