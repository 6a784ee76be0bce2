//! What Raglan, Lanes, Rows of Four and Alexandria share, straight from
//! RULES.md: play one card at a time, foundations built up by suit from an
//! Ace (see [`super::foundations`]).
//!
//! A free card (a tableau top, any reserve card, the waste's top card) goes
//! home or onto a tableau pile its game's building rule allows. Nothing
//! moves onto the reserve or the waste, off a foundation, or back into the
//! stock; only a draw puts a card on the waste (see [`super::stock`]). The
//! games differ in their numbers, in their places (a reserve, or a stock
//! and a waste) and in the tableau's building rule, which each game's own
//! file gives as a [`Layout`]. Alexandria's runs and face-down cards are
//! its own, in its file.

use crate::board::Board;
use crate::card::Card;
use crate::notation::{Move, Place};

use super::take_top;

/// A tableau rule: whether `card`, taken from `from`, may go on a pile whose
/// top card is `top` (`None` for an empty pile), or why not. `from` matters
/// because in Rows of Four only the waste fills an empty pile.
pub(super) type Builds = fn(from: Place, top: Option<Card>, card: Card) -> Result<(), String>;

/// One game built by suit, in RULES.md's own numbers.
pub(super) struct Layout {
    /// The game's name, for messages.
    pub name: &'static str,
    /// How many copies of each card the game holds.
    pub decks: u8,
    pub piles: usize,
    pub foundations: usize,
    /// Reserve places, every card in them available; 0 for a game without
    /// a reserve.
    pub reserve: usize,
    /// Whether the game has a stock and a waste.
    pub stock: bool,
    /// Redeals a fresh deal allows; a board's `Redeals:` line says how many
    /// are still left.
    pub redeals: u8,
    pub builds: Builds,
}

/// "Build down in alternating colour": `card` goes on `top` if it is one
/// rank lower and of the other colour.
pub(super) fn down_in_alternating_colour(top: Card, card: Card) -> Result<(), String> {
    if top.rank().get() == card.rank().get() + 1 && top.colour() != card.colour() {
        return Ok(());
    }
    Err(format!(
        "{card} does not go on {top}: a tableau card goes on one a rank higher of the other colour"
    ))
}

/// "Build down in alternating colour", and "an empty tableau pile takes any
/// available card": the tableau of Raglan and of Lanes.
pub(super) fn alternating_or_any_to_empty(
    _from: Place,
    top: Option<Card>,
    card: Card,
) -> Result<(), String> {
    match top {
        None => Ok(()),
        Some(top) => down_in_alternating_colour(top, card),
    }
}

/// Takes `card` from reserve place `r`, or says why it is not there.
/// "An emptied reserve place is never refilled": it stays `None`.
fn take_reserve(board: &mut Board, r: u8, card: Card) -> Result<(), String> {
    let from = Place::Reserve(r);
    let place = (board.reserve.as_mut())
        .and_then(|places| places.get_mut(r as usize))
        .ok_or_else(|| format!("there is no reserve place {from}"))?;
    match *place {
        None => Err(format!("reserve place {from} is empty")),
        Some(held) if held != card => Err(format!("reserve place {from} holds {held}, not {card}")),
        Some(_) => {
            *place = None;
            Ok(())
        }
    }
}

impl Layout {
    /// Takes `card` from `from`, or says why it is not there to take.
    fn take(&self, board: &mut Board, from: Place, card: Card) -> Result<(), String> {
        match from {
            Place::Tableau(i) => take_top(board, i, card),
            Place::Reserve(r) if self.reserve > 0 => take_reserve(board, r, card),
            Place::Waste if self.stock => self.take_waste(board, card),
            Place::Reserve(_) => Err(format!("{} has no reserve", self.name)),
            Place::Waste => Err(format!("{} has no waste", self.name)),
            Place::Foundation => Err("no card ever leaves a foundation".into()),
        }
    }

    /// Puts `card`, taken from `from`, on `to`, or says why it does not go
    /// there.
    fn put(&self, board: &mut Board, from: Place, to: Place, card: Card) -> Result<(), String> {
        match to {
            Place::Foundation => self.put_home(board, card),
            Place::Tableau(j) => {
                if to == from {
                    return Err(format!("{card} cannot move onto its own pile {to}"));
                }
                let pile = (board.piles.get_mut(j as usize))
                    .ok_or_else(|| format!("there is no pile {to}"))?;
                (self.builds)(from, pile.top(), card)?;
                pile.up.push(card);
                Ok(())
            }
            Place::Reserve(_) if self.reserve > 0 => Err("nothing moves onto the reserve".into()),
            Place::Waste if self.stock => {
                Err("nothing moves onto the waste: only a draw turns a card there".into())
            }
            Place::Reserve(_) => Err(format!("{} has no reserve", self.name)),
            Place::Waste => Err(format!("{} has no waste", self.name)),
        }
    }

    /// The free cards, each with its place: the tableau tops, then every
    /// reserve card, then the waste's top card.
    fn free_cards(&self, board: &Board) -> Vec<(Place, Card)> {
        let mut free: Vec<(Place, Card)> = (board.piles.iter().enumerate())
            .filter_map(|(i, pile)| Some((Place::Tableau(i as u8), pile.top()?)))
            .collect();
        if self.reserve > 0 {
            free.extend(
                (board.reserve.iter().flatten().enumerate())
                    .filter_map(|(r, place)| Some((Place::Reserve(r as u8), (*place)?))),
            );
        }
        if self.stock {
            free.extend(self.waste_top(board).map(|card| (Place::Waste, card)));
        }
        free
    }

    /// Every free card to its foundation and to every other pile it fits;
    /// then the draw and the redeal when they are legal. A card that fits
    /// several piles (empty ones too) is listed once for each: the
    /// reference does not fold moves that lead to positions alike.
    pub(super) fn legal_moves(&self, board: &Board) -> Vec<Move> {
        let mut moves = Vec::new();
        for (from, card) in self.free_cards(board) {
            if self.home_slot(board, card).is_ok() {
                moves.push(Move::single(from, Place::Foundation, card));
            }
            // No card fits on itself, so `to != from` only says plainly
            // that a card is never offered to its own pile.
            for (j, pile) in board.piles.iter().enumerate() {
                let to = Place::Tableau(j as u8);
                if to != from && (self.builds)(from, pile.top(), card).is_ok() {
                    moves.push(Move::single(from, to, card));
                }
            }
        }
        if self.stock {
            moves.extend(self.next_draw(board));
            if self.may_redeal(board).is_ok() {
                moves.push(Move::Redeal);
            }
        }
        moves
    }

    /// Plays on a copy and keeps it only if every check passes, so a refused
    /// move leaves the board exactly as it was.
    pub(super) fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        let mut next = board.clone();
        match *mv {
            Move::Draw(card) if self.stock => self.draw(&mut next, card)?,
            Move::Redeal if self.stock => self.redeal(&mut next)?,
            Move::Draw(_) | Move::Redeal => {
                return Err(format!("{} has no stock: no draw or redeal", self.name));
            }
            Move::Play { count, .. } if count != 1 => {
                return Err(format!("{} moves one card at a time (x{count})", self.name));
            }
            Move::Play { from, to, card, .. } => {
                self.take(&mut next, from, card)?;
                self.put(&mut next, from, to, card)?;
            }
        }
        *board = next;
        Ok(())
    }
}
