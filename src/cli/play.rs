//! `play`: one deal played as a player who does not see the hidden cards.

use std::process::ExitCode;

use anyhow::Result;
use indicatif::HumanCount;
use serde_json::json;

use patience::games::GameKind;
use patience::notation::Move;
use patience::play::{self, End, Player};

use crate::input::load_board;
use crate::solve::deal_json;
use crate::{Source, emit};

/// `play`: the moves a player plays, and how the game ends for it.
pub fn play(
    game: GameKind,
    source: &Source,
    player: Player,
    seed: u64,
    json: bool,
) -> Result<ExitCode> {
    let (board, label) = load_board(game, source)?;
    // A deal's number seeds its game; a board read from a file, its text.
    let deal = source.deal.or(source.pysol).unwrap_or_else(|| {
        let text = board.to_text();
        text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
        })
    });
    let played = play::play(game, &board, player, play::seed(deal, seed));
    let end = match played.end {
        End::Won => "won",
        End::NoMove => "lost",
        End::GaveUp | End::Resigned => "lost",
    };
    if json {
        let mut report = json!({
            "game": game.name(),
            "player": player.to_string(),
            "seed": seed,
            "verdict": end,
            "gave_up": played.end == End::GaveUp,
            "resigned": played.end == End::Resigned,
            "moves": played.moves.iter().map(Move::to_string).collect::<Vec<_>>(),
            "cards_home": played.cards_home,
            "positions": played.positions,
            "micros": played.elapsed.as_micros() as u64,
        });
        if let (Some(fields), serde_json::Value::Object(deal)) =
            (report.as_object_mut(), deal_json(source, &label))
        {
            fields.extend(deal);
        }
        emit(format_args!("{report}\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let how = match played.end {
        End::Won => format!("won in {} moves", played.moves.len()),
        End::NoMove => format!(
            "lost: no move left (or none but back to where it has been), {} cards home",
            played.cards_home
        ),
        End::GaveUp => format!(
            "lost: gave up after {} moves, {} cards home",
            played.moves.len(),
            played.cards_home
        ),
        End::Resigned => format!(
            "lost: resigned, seeing every card, its search proves no line wins; {} cards home",
            played.cards_home
        ),
    };
    let mut out = format!("# {game}, {label}, played by {player}\n# {how}\n");
    for mv in &played.moves {
        out += &format!("{mv}\n");
    }
    out += &format!(
        "# {} positions looked at in {:.3} s\n",
        HumanCount(played.positions),
        played.elapsed.as_secs_f64()
    );
    emit(format_args!("{out}"))?;
    Ok(ExitCode::SUCCESS)
}
