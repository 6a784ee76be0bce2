//! `verify`: a move list replayed with the plain reference rules.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Result, anyhow};

use patience::games::GameKind;
use patience::notation::{self, Move};
use patience::reference::{self, Replay};

use crate::input::{self, display_name, load_board, read_input};
use crate::{Source, bad_input, emit};

/// What `verify` prints besides its verdict.
pub enum Show {
    Verdict,
    /// The board the moves reach, after the verdict.
    Board,
    /// The board at the start and after each move, then the verdict.
    Steps,
}

/// `verify`: a move list replayed with the reference rules.
pub fn verify(game: GameKind, source: &Source, moves_path: &Path, show: Show) -> Result<ExitCode> {
    let stdin = Path::new("-");
    if source.file.as_deref() == Some(stdin) && moves_path == stdin {
        return Err(bad_input(
            "--file - and --moves - both read standard input: give one of them as a file",
        ));
    }
    let (board, _) = load_board(game, source)?;
    let name = display_name(moves_path);
    let text = read_input(moves_path)?;
    input::check_heading(game, source, &name, &text)?;
    let moves = notation::parse_moves(&text)
        .map_err(|(line, e)| bad_input(format!("{name}: line {line}: {e}")))?;
    let plain: Vec<Move> = moves.iter().map(|&(_, m)| m).collect();
    let (replay, reached) = reference::replay_to(game.rules(), &board, &plain);
    let (verdict, code) = match replay {
        Replay::Won => (
            format!("won: all {} moves are legal and win the game", plain.len()),
            ExitCode::SUCCESS,
        ),
        Replay::NotWon { cards_home } => (
            format!(
                "not won: all {} moves are legal, but only {cards_home} cards are home",
                plain.len()
            ),
            ExitCode::FAILURE,
        ),
        Replay::Illegal { index, reason } => {
            let (line, mv) = moves[index];
            return Err(bad_input(format!(
                "{name}: line {line}: move {} '{mv}' is illegal: {reason}",
                index + 1
            )));
        }
    };
    match show {
        Show::Verdict => emit(format_args!("{verdict}\n"))?,
        Show::Board => emit(format_args!("# {verdict}\n{}", reached.to_text()))?,
        Show::Steps => {
            // Every move is legal: the replay above said so.
            let mut board = board;
            emit(format_args!("# the start\n{}", board.to_text()))?;
            for (index, (_, mv)) in moves.iter().enumerate() {
                game.rules()
                    .play(&mut board, mv)
                    .map_err(|reason| anyhow!("move {} '{mv}': {reason}", index + 1))?;
                emit(format_args!(
                    "\n# move {}: {mv}\n{}",
                    index + 1,
                    board.to_text()
                ))?;
            }
            emit(format_args!("\n# {verdict}\n"))?;
        }
    }
    Ok(code)
}
