//! The stock and the waste, straight from RULES.md: Lanes, Rows of Four and
//! Alexandria.
//!
//! The stock is turned one card at a time onto one waste, whose top card
//! alone is available. When the stock is empty, the waste may be turned
//! over in order to form a new stock, as often as the game allows: Lanes
//! once, Rows of Four twice, Alexandria never. Lanes and Rows of Four have
//! no rule that is not their [`Layout`]'s, so each is a [`StockGame`].

use crate::board::{Board, BoardError, Part};
use crate::card::Card;
use crate::notation::Move;

use super::Rules;
use super::check_pile_count;
use super::foundations::{CardCount, in_words};
use super::layout::Layout;

/// A game whose every rule is its layout's, with a stock and a waste:
/// Lanes and Rows of Four. (Alexandria adds runs and face-down cards, and
/// Raglan has a reserve, so each writes out its own [`Rules`].)
pub(super) trait StockGame {
    const LAYOUT: Layout;
}

impl<G: StockGame + Sync> Rules for G {
    fn validate(&self, board: &Board) -> Result<(), BoardError> {
        G::LAYOUT.validate(board)
    }

    fn legal_moves(&self, board: &Board) -> Vec<Move> {
        G::LAYOUT.legal_moves(board)
    }

    fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        G::LAYOUT.play(board, mv)
    }
}

/// The stock, first card the next one drawn; `None` is an empty stock.
fn stock(board: &Board) -> &[Card] {
    board.stock.as_deref().unwrap_or_default()
}

/// "redeal" or "redeals".
fn plural(n: u8) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl Layout {
    /// Checks that a board is a position of a game with a stock: its number
    /// of face-up tableau piles (any heights), its number of foundations
    /// with no more of a suit than there are decks, no more redeals than
    /// the game allows, and each card exactly `decks` times, the cards
    /// under a foundation's top card counted as home. Stock, waste and the
    /// `Foundations:` line are optional and empty when left out, so a
    /// board without foundations has the Aces in play.
    pub(super) fn validate(&self, board: &Board) -> Result<(), BoardError> {
        let (name, lines) = (self.name, &board.lines);
        board.refuse(name, &[Part::Reserve])?;
        self.check_foundation_count(board)?;
        if let Some(redeals) = board.redeals.filter(|&n| n > self.redeals) {
            return Err(BoardError::at(
                lines.redeals,
                format!(
                    "Redeals: {redeals}, but {name} allows at most {} redeal{}",
                    self.redeals,
                    plural(self.redeals)
                ),
            ));
        }
        check_pile_count(board, name, self.piles)?;
        if let Some(crowded) = self.crowded_suit(board) {
            let decks = in_words(usize::from(self.decks));
            return Err(BoardError::at(
                lines.foundations,
                format!("{crowded} ({name} has {decks} a suit)"),
            ));
        }
        let mut count = CardCount::new(board, self.decks)?;
        for &card in stock(board) {
            count.add(card, lines.stock)?;
        }
        for &card in board.waste.iter().flatten() {
            count.add(card, lines.waste)?;
        }
        count.add_piles(name)?;
        count.finish()
    }

    /// The waste's top card, the only one of it that is available.
    pub(super) fn waste_top(&self, board: &Board) -> Option<Card> {
        board.waste.as_deref().and_then(<[Card]>::last).copied()
    }

    /// Takes the waste's top card, which must be `card`.
    pub(super) fn take_waste(&self, board: &mut Board, card: Card) -> Result<(), String> {
        match self.waste_top(board) {
            None => Err("the waste is empty".into()),
            Some(top) if top != card => Err(format!("the waste's top card is {top}, not {card}")),
            Some(_) => {
                board.waste.as_mut().expect("the waste has a card").pop();
                Ok(())
            }
        }
    }

    /// The draw, if the stock has a card to turn.
    pub(super) fn next_draw(&self, board: &Board) -> Option<Move> {
        stock(board).first().map(|&next| Move::Draw(next))
    }

    /// How many redeals are left if a redeal may be played now, or why not:
    /// "when the stock is empty, turn the waste over". "Redeals: N" says
    /// how many are left; without it, all the game allows.
    pub(super) fn may_redeal(&self, board: &Board) -> Result<u8, String> {
        if let Some(next) = stock(board).first() {
            return Err(format!(
                "the stock is not empty ({} cards, {next} next): a redeal comes only once \
                 it is drawn out",
                stock(board).len()
            ));
        }
        if self.waste_top(board).is_none() {
            return Err("the waste is empty: there is nothing to turn over".into());
        }
        match board.redeals.unwrap_or(self.redeals) {
            0 => Err(format!(
                "no redeal left: {} allows {} redeal{}",
                self.name,
                self.redeals,
                plural(self.redeals)
            )),
            left => Ok(left),
        }
    }

    /// "Turn the stock's top card onto the waste."
    pub(super) fn draw(&self, board: &mut Board, card: Card) -> Result<(), String> {
        match stock(board).first() {
            None => return Err(format!("the stock is empty: no card to draw ({card})")),
            Some(&next) if next != card => {
                return Err(format!("the stock's top card is {next}, not {card}"));
            }
            Some(_) => {}
        }
        board
            .stock
            .as_mut()
            .expect("the stock has a card")
            .remove(0);
        board.waste.get_or_insert_default().push(card);
        Ok(())
    }

    /// The waste "turned over in order": the bottom card of the waste, drawn
    /// first in the last pass, becomes the stock's first card, so the next
    /// pass draws the cards in the same order as the last one.
    pub(super) fn redeal(&self, board: &mut Board) -> Result<(), String> {
        let left = self.may_redeal(board)?;
        board.stock = board.waste.take();
        board.redeals = Some(left - 1);
        Ok(())
    }
}
