//! What the unit tests of each game's reference rules ask of them: boards
//! that must validate or be refused, and moves that must play or be
//! refused, each with the message expected.

use super::Rules;
use crate::board::Board;
use crate::card::Card;
use crate::notation::Move;

pub(super) fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

pub(super) fn card(text: &str) -> Card {
    text.parse().unwrap()
}

pub(super) fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(card).collect()
}

/// One game's rules under test.
pub(super) struct Checked<R: Rules>(pub R);

impl<R: Rules> Checked<R> {
    /// The board `text`, which must validate.
    pub fn board(&self, text: &str) -> Board {
        let board = Board::parse(text).unwrap();
        self.0.validate(&board).unwrap();
        board
    }

    /// `base` with `old` replaced by `new` must fail validation with a
    /// message containing `why`, on `line`.
    pub fn refuses(&self, base: &str, old: &str, new: &str, line: Option<usize>, why: &str) {
        assert!(base.contains(old), "{old}");
        let board = Board::parse(&base.replacen(old, new, 1)).unwrap();
        let err = self.0.validate(&board).unwrap_err();
        assert!(err.message.contains(why), "{new}: {err}");
        assert_eq!(err.line, line, "{new}: {err}");
    }

    /// `text` must play, changing the board.
    pub fn plays(&self, board: &mut Board, text: &str) {
        let before = board.clone();
        self.0.play(board, &mv(text)).unwrap();
        assert_ne!(*board, before, "{text}");
    }

    /// `text` must be refused for `why`, leaving the board as it was.
    pub fn refused(&self, board: &Board, text: &str, why: &str) {
        let mut after = board.clone();
        let err = self.0.play(&mut after, &mv(text)).unwrap_err();
        assert!(err.contains(why), "{text}: {err}");
        assert_eq!(after, *board, "{text}");
    }
}
