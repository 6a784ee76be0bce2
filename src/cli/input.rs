//! What the commands read: a deal by number, a board file and a moves
//! file, each bounded in size and checked before any search starts.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use anyhow::Result;
use clap::ValueEnum;

use patience::board::Board;
use patience::games::{DealNumber, GameKind};
use patience::notation;

use crate::{Source, bad_input};

/// The most bytes read from a board or a moves file. A board is a few
/// hundred bytes and the longest solution a few thousand moves of about a
/// dozen bytes, so a larger input is the wrong file (or `/dev/zero`),
/// refused before it fills memory.
const MAX_INPUT: u64 = 1 << 20;

/// Reads a board or a moves file, or standard input for `-`, as text.
pub fn read_input(path: &Path) -> Result<String> {
    let name = display_name(path);
    let reader: Box<dyn Read> = match path == Path::new("-") {
        true => Box::new(io::stdin().lock()),
        false => {
            Box::new(File::open(path).map_err(|e| bad_input(format!("cannot read {name}: {e}")))?)
        }
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(bad_input(format!(
            "{name} is longer than {} MiB: a board or a move list is a few KB",
            MAX_INPUT >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        bad_input(format!(
            "{name}: not text: byte {} is not UTF-8",
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

/// How a path is named in messages.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// The board of a deal; a PySolFC number PySolFC has no game for is bad
/// input.
pub fn dealt(game: GameKind, number: DealNumber) -> Result<Board> {
    game.deal(number).map_err(|e| bad_input(e.to_string()))
}

/// The deal number a source names, if it names one.
fn deal_number(source: &Source) -> Option<DealNumber> {
    match (source.deal, source.pysol) {
        (Some(n), _) => Some(DealNumber::Numbered(n)),
        (_, Some(n)) => Some(DealNumber::Pysol(n)),
        _ => None,
    }
}

/// The board a command works on, checked for the game, and a label for it.
pub fn load_board(game: GameKind, source: &Source) -> Result<(Board, String)> {
    let (board, label) = match (deal_number(source), &source.file) {
        (Some(number), _) => (dealt(game, number)?, number.to_string()),
        (None, Some(path)) => {
            let name = display_name(path);
            let board =
                Board::parse(&read_input(path)?).map_err(|e| bad_input(format!("{name}: {e}")))?;
            (board, name)
        }
        _ => unreachable!("clap requires one source"),
    };
    game.validate(&board)
        .map_err(|e| bad_input(format!("{label}: {e}")))?;
    Ok((board, label))
}

/// Checks a move list's heading (`# GAME, DEAL`, as `solve` writes it)
/// against the game and deal it is replayed on: a list made for another
/// game, or for another numbered deal, is refused with the one it names.
/// A heading naming a board file, or none, is not checked.
pub fn check_heading(game: GameKind, source: &Source, name: &str, text: &str) -> Result<()> {
    let Some((their_game, their_deal)) = notation::heading(text) else {
        return Ok(());
    };
    let Ok(their_game) = GameKind::from_str(their_game, false) else {
        return Ok(());
    };
    if their_game != game {
        return Err(bad_input(format!(
            "{name}: line 1 says these moves are for {their_game} ({their_deal}), not {game}"
        )));
    }
    if let (Ok(theirs), Some(ours)) = (their_deal.parse::<DealNumber>(), deal_number(source))
        && theirs != ours
    {
        return Err(bad_input(format!(
            "{name}: line 1 says these moves are for {game} {theirs}, not {ours}: \
             replay them on that deal, or remove the line"
        )));
    }
    Ok(())
}
