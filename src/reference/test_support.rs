//! What the unit tests of each game's reference rules ask of them: boards
//! that must validate or be refused, and moves that must play or be
//! refused, each with the message expected.

use super::Rules;
use crate::board::Board;
use crate::card::Card;
use crate::notation::{Move, Place};

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

    /// The board `text`, which must validate, hold `cards` home without
    /// being won, and read back as the same position once written.
    pub fn holds(&self, text: &str, cards: usize) -> Board {
        let board = self.board(text);
        assert_eq!(self.0.cards_home(&board), cards);
        assert!(!self.0.is_won(&board));
        assert_eq!(self.board(&board.to_text()).to_text(), board.to_text());
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

    /// The legal moves of `board` as text, sorted.
    pub fn moves(&self, board: &Board) -> Vec<String> {
        let mut moves: Vec<String> = (self.0.legal_moves(board).iter())
            .map(Move::to_string)
            .collect();
        moves.sort();
        moves
    }

    /// The legal moves of the board `text` must be `expected`, a list such
    /// as "t1 f AH, draw 2C" in any order.
    pub fn moves_are(&self, text: &str, expected: &str) {
        let mut expected: Vec<&str> = expected.split(", ").collect();
        expected.sort();
        assert_eq!(self.moves(&self.board(text)), expected);
    }

    /// Of every move naming up to `piles` tableau piles and `reserve`
    /// reserve places (a few more than the game has), any card, and every
    /// draw and the redeal, exactly those the board `text` lists as legal
    /// play, each listed once; a played move leaves a valid board, and a
    /// refused one the board as it was.
    pub fn exactly_the_legal_moves_play(&self, text: &str, piles: u8, reserve: u8) {
        let board = self.board(text);
        let legal = self.0.legal_moves(&board);
        for mv in &legal {
            assert_eq!(legal.iter().filter(|&m| m == mv).count(), 1, "{mv}");
        }
        let places = || {
            (0..piles)
                .map(Place::Tableau)
                .chain((0..reserve).map(Place::Reserve))
                .chain([Place::Foundation, Place::Waste])
        };
        let mut moves = vec![Move::Redeal];
        for card in Card::all() {
            moves.push(Move::Draw(card));
            for from in places() {
                moves.extend(places().map(|to| Move::single(from, to, card)));
            }
        }
        let mut played = 0;
        for mv in moves {
            let mut after = board.clone();
            let result = self.0.play(&mut after, &mv);
            assert_eq!(result.is_ok(), legal.contains(&mv), "{mv}: {result:?}");
            match result {
                Ok(()) => {
                    self.0.validate(&after).unwrap();
                    played += 1;
                }
                Err(_) => assert_eq!(after, board, "{mv}"),
            }
        }
        assert_eq!(played, legal.len());
    }

    /// The board `text` must be won, with `cards` home and no move left.
    pub fn won(&self, text: &str, cards: usize) {
        let won = self.board(text);
        assert!(self.0.is_won(&won));
        assert_eq!(self.0.cards_home(&won), cards);
        assert!(self.0.legal_moves(&won).is_empty());
    }

    /// Each move of `table` must be refused on `board`: one a line, as
    /// "move: why", the move in RULES.md's notation and `why` what the
    /// message must contain.
    pub fn refuses_each(&self, board: &Board, table: &str) {
        for line in table.lines().map(str::trim).filter(|line| !line.is_empty()) {
            let (text, why) = line.split_once(": ").expect("a line 'move: why'");
            self.refused(board, text, why);
        }
    }

    /// Moves that every game refuses alike, tried on `board` with the top
    /// card of pile `t` (counted from 1, as written) and `other`, a card
    /// not on top of it: onto its own pile, from and to a pile one past the
    /// last, a card that is not the top, and off a foundation.
    pub fn refuses_what_no_game_allows(&self, board: &Board, t: usize, other: &str) {
        let card = board.piles[t - 1].top().expect("a card on the pile");
        let past = board.piles.len() + 1;
        let no_pile = format!("there is no pile t{past}");
        self.refused(board, &format!("t{t} t{t} {card}"), "its own pile");
        self.refused(board, &format!("t{past} f {card}"), &no_pile);
        self.refused(board, &format!("t{t} t{past} {card}"), &no_pile);
        let not_top = format!("the top card of t{t} is {card}, not {other}");
        self.refused(board, &format!("t{t} f {other}"), &not_top);
        let leaves = "no card ever leaves a foundation";
        self.refused(board, &format!("f t{t} {card}"), leaves);
    }

    /// Moves that the games with a stock and no reserve refuse alike, tried
    /// on `board`, whose waste is empty, with the top card of pile `t`: from
    /// the empty waste, onto the waste, to and from a reserve; and once the
    /// stock's next card is drawn, from the waste a card not on top.
    pub fn refuses_what_the_waste_does_not_allow(&self, board: &Board, t: usize, name: &str) {
        let card = board.piles[t - 1].top().expect("a card on the pile");
        let no_reserve = format!("{name} has no reserve");
        self.refused(board, &format!("w t{t} {card}"), "the waste is empty");
        self.refused(
            board,
            &format!("t{t} w {card}"),
            "nothing moves onto the waste",
        );
        self.refused(board, &format!("t{t} r1 {card}"), &no_reserve);
        self.refused(board, &format!("r1 t{t} {card}"), &no_reserve);
        let mut drawn = board.clone();
        let next = drawn
            .stock
            .as_ref()
            .and_then(|stock| stock.first().copied());
        let next = next.expect("a card in the stock");
        assert_ne!(next, card);
        self.plays(&mut drawn, &format!("draw {next}"));
        let not_top = format!("the waste's top card is {next}, not {card}");
        self.refused(&drawn, &format!("w t{t} {card}"), &not_top);
    }

    /// From the board `text`, its stock drawn out and the waste turned
    /// over `redeals` times, then drawn out once more: every pass draws the
    /// cards in the first pass's order, no redeal comes while the stock
    /// has cards, no draw once it has none, and then `no_redeal_left`.
    pub fn passes(&self, text: &str, redeals: u8, no_redeal_left: &str) {
        let mut board = self.board(text);
        let stock = board.stock.clone().expect("a stock");
        let draw_out = |board: &mut Board| {
            self.refused(board, "redeal", "the stock is not empty");
            for next in &stock {
                self.plays(board, &format!("draw {next}"));
            }
            // The waste holds the cards in the order drawn, the last on top.
            assert_eq!(board.waste.as_ref(), Some(&stock));
            self.refused(board, &format!("draw {}", stock[0]), "the stock is empty");
        };
        for left in (0..redeals).rev() {
            draw_out(&mut board);
            self.plays(&mut board, "redeal");
            // Turned over in order: the first card drawn is drawn first again.
            assert_eq!(board.stock.as_ref(), Some(&stock));
            assert!(board.waste.as_ref().is_none_or(Vec::is_empty));
            assert_eq!(board.redeals, Some(left));
        }
        draw_out(&mut board);
        self.refused(&board, "redeal", no_redeal_left);
    }
}
