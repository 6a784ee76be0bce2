//! What Lanes and Rows of Four share, straight from RULES.md.
//!
//! Both deal face-up tableau piles, a stock turned one card at a time onto
//! one waste and turned over in order when it runs out, and foundations
//! built up by suit from an Ace. One card moves at a time: a tableau top or
//! the waste's top card goes home or onto a tableau pile, and a tableau top
//! goes onto another pile. Nothing moves onto the waste (only a draw puts a
//! card there), off a foundation, or back into the stock. The games differ
//! only in their numbers and in the tableau's building rule, which each
//! game's own file gives as a [`Layout`].

use crate::board::{Board, BoardError, Part, Tally};
use crate::card::{Card, Rank};
use crate::notation::{Move, Place};

use super::take_top;

/// A tableau rule: whether `card`, taken from `from`, may go on a pile whose
/// top card is `top` (`None` for an empty pile), or why not. `from` matters
/// because in Rows of Four only the waste fills an empty pile.
pub(super) type Builds = fn(from: Place, top: Option<Card>, card: Card) -> Result<(), String>;

/// One game with a stock and a waste, in RULES.md's own numbers.
pub(super) struct Layout {
    /// The game's name, for messages.
    pub name: &'static str,
    /// How many copies of each card the game holds.
    pub decks: u8,
    pub piles: usize,
    pub foundations: usize,
    /// Redeals a fresh deal allows; a board's `Redeals:` line says how many
    /// are still left.
    pub redeals: u8,
    pub builds: Builds,
}

/// The stock, first card the next one drawn; `None` is an empty stock.
fn stock(board: &Board) -> &[Card] {
    board.stock.as_deref().unwrap_or_default()
}

/// The waste's top card, the only one of it that is available.
fn waste_top(board: &Board) -> Option<Card> {
    board.waste.as_deref().and_then(<[Card]>::last).copied()
}

/// The foundations showing a card of `card`'s suit, in the board's order.
fn home_tops(board: &Board, card: Card) -> impl Iterator<Item = Card> + '_ {
    (board.foundations.iter().flatten().copied()).filter(move |top| top.suit() == card.suit())
}

/// "redeal" or "redeals".
fn plural(n: u8) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "AH, 5H and 7H".
fn listed(cards: &[Card]) -> String {
    match cards {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(Card::to_string).collect();
            format!("{} and {last}", rest.join(", "))
        }
    }
}

/// "one", "two", "three": small counts in words, for messages.
fn in_words(n: usize) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        n => n.to_string(),
    }
}

impl Layout {
    /// "Redeals: N" says how many are left; without it, all the game allows.
    fn redeals_left(&self, board: &Board) -> u8 {
        board.redeals.unwrap_or(self.redeals)
    }

    /// Checks that a board is a position of this game: its number of
    /// face-up tableau piles (any heights), its number of foundations with
    /// no more of a suit than there are decks (each foundation holds one
    /// copy of each card up to its top), no more redeals than the game
    /// allows, and each card exactly `decks` times, the cards under a
    /// foundation's top card counted as home. Stock, waste and the
    /// `Foundations:` line are optional and empty when left out, so a
    /// board without foundations has the Aces in play.
    pub(super) fn validate(&self, board: &Board) -> Result<(), BoardError> {
        let name = self.name;
        let lines = &board.lines;
        board.refuse(name, &[Part::Reserve])?;
        if !board.foundations.is_empty() && board.foundations.len() != self.foundations {
            return Err(BoardError::at(
                lines.foundations,
                format!(
                    "{} foundations: {name} has {} (an empty one written '-')",
                    board.foundations.len(),
                    self.foundations
                ),
            ));
        }
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
        if board.piles.len() != self.piles {
            return Err(BoardError::at(
                board.pile_line(self.piles),
                format!(
                    "{} tableau piles: {name} has {}",
                    board.piles.len(),
                    self.piles
                ),
            ));
        }
        let decks = usize::from(self.decks);
        let mut tally = Tally::new(self.decks);
        for (i, &top) in board.foundations.iter().flatten().enumerate() {
            let mut same: Vec<Card> = (board.foundations.iter().flatten().take(i).copied())
                .filter(|c| c.suit() == top.suit())
                .collect();
            if same.len() >= decks {
                same.push(top);
                return Err(BoardError::at(
                    lines.foundations,
                    format!(
                        "{} foundations of one suit: {} ({name} has {} a suit)",
                        in_words(same.len()),
                        listed(&same),
                        in_words(decks)
                    ),
                ));
            }
            for rank in Rank::all().filter(|&rank| rank <= top.rank()) {
                tally.add(Card::new(rank, top.suit()), lines.foundations)?;
            }
        }
        // A card in play that its foundations already hold as often as the
        // decks do would be one too many; saying so is clearer than the
        // tally's "appears twice".
        let mut count = |card: Card, line: usize| {
            let holding: Vec<Card> = home_tops(board, card)
                .filter(|top| card.rank() <= top.rank())
                .collect();
            if holding.len() >= decks {
                let message = match holding.as_slice() {
                    [top] => format!("{card} is already home: its foundation shows {top}"),
                    [_, _] => format!(
                        "{card} is already home twice: its foundations show {}",
                        listed(&holding)
                    ),
                    tops => format!(
                        "{card} is already home {} times: its foundations show {}",
                        tops.len(),
                        listed(tops)
                    ),
                };
                return Err(BoardError::at(line, message));
            }
            tally.add(card, line)
        };
        for &card in stock(board) {
            count(card, lines.stock)?;
        }
        for &card in board.waste.iter().flatten() {
            count(card, lines.waste)?;
        }
        for (i, pile) in board.piles.iter().enumerate() {
            let line = board.pile_line(i);
            if !pile.down.is_empty() {
                return Err(BoardError::at(
                    line,
                    format!("{name} has no face-down cards ('|')"),
                ));
            }
            for card in pile.cards() {
                count(card, line)?;
            }
        }
        tally.check_complete()
    }

    /// The foundation `card` goes on, counted among the game's foundations
    /// (a board that lists none has them all empty), or why it goes on none.
    /// "An Ace starts one": the first empty foundation. "Then up by suit": a
    /// foundation of its suit showing the rank below, the first of them when
    /// two do, as RULES.md gives foundations no order.
    fn home_slot(&self, board: &Board, card: Card) -> Result<usize, String> {
        if card.rank() == Rank::ACE {
            if board.foundations.is_empty() {
                return Ok(0);
            }
            return (board.foundations.iter().position(Option::is_none))
                .ok_or_else(|| format!("no foundation is free for {card}"));
        }
        let below = |top: &Option<Card>| {
            top.is_some_and(|top| {
                top.suit() == card.suit() && top.rank().get() + 1 == card.rank().get()
            })
        };
        if let Some(slot) = board.foundations.iter().position(below) {
            return Ok(slot);
        }
        let tops: Vec<Card> = home_tops(board, card).collect();
        if tops.is_empty() {
            Err(format!(
                "{card} cannot go home: its suit has no foundation yet (an Ace starts one)"
            ))
        } else {
            let tops: Vec<String> = tops.iter().map(Card::to_string).collect();
            Err(format!(
                "{card} does not go on {}: a foundation takes the next rank of its suit",
                tops.join(" or ")
            ))
        }
    }

    /// How many redeals are left if a redeal may be played now, or why not:
    /// "when the stock is empty, turn the waste over".
    fn may_redeal(&self, board: &Board) -> Result<u8, String> {
        if let Some(next) = stock(board).first() {
            return Err(format!(
                "the stock is not empty ({} cards, {next} next): a redeal comes only once \
                 it is drawn out",
                stock(board).len()
            ));
        }
        if waste_top(board).is_none() {
            return Err("the waste is empty: there is nothing to turn over".into());
        }
        match self.redeals_left(board) {
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
    fn draw(&self, board: &mut Board, card: Card) -> Result<(), String> {
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
    fn redeal(&self, board: &mut Board) -> Result<(), String> {
        let left = self.may_redeal(board)?;
        board.stock = board.waste.take();
        board.redeals = Some(left - 1);
        Ok(())
    }

    /// Takes `card` from `from`, or says why it is not there to take.
    fn take(&self, board: &mut Board, from: Place, card: Card) -> Result<(), String> {
        match from {
            Place::Tableau(i) => take_top(board, i, card),
            Place::Waste => match waste_top(board) {
                None => Err("the waste is empty".into()),
                Some(top) if top != card => {
                    Err(format!("the waste's top card is {top}, not {card}"))
                }
                Some(_) => {
                    board.waste.as_mut().expect("the waste has a card").pop();
                    Ok(())
                }
            },
            Place::Reserve(_) => Err(format!("{} has no reserve", self.name)),
            Place::Foundation => Err("no card ever leaves a foundation".into()),
        }
    }

    /// Puts `card`, taken from `from`, on `to`, or says why it does not go
    /// there.
    fn put(&self, board: &mut Board, from: Place, to: Place, card: Card) -> Result<(), String> {
        match to {
            Place::Foundation => {
                let slot = self.home_slot(board, card)?;
                // A board that lists no foundations has them all empty.
                if board.foundations.is_empty() {
                    board.foundations = vec![None; self.foundations];
                }
                board.foundations[slot] = Some(card);
                Ok(())
            }
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
            Place::Waste => {
                Err("nothing moves onto the waste: only a draw turns a card there".into())
            }
            Place::Reserve(_) => Err(format!("{} has no reserve", self.name)),
        }
    }

    /// Every tableau top and the waste's top card, to its foundation and to
    /// every other pile it fits; then the draw and the redeal when they are
    /// legal. A card that fits several piles (empty ones too) is listed once
    /// for each: the reference does not fold moves that lead to positions
    /// alike.
    pub(super) fn legal_moves(&self, board: &Board) -> Vec<Move> {
        let tops = (board.piles.iter().enumerate())
            .filter_map(|(i, pile)| Some((Place::Tableau(i as u8), pile.top()?)));
        let waste = waste_top(board).map(|card| (Place::Waste, card));
        let mut moves = Vec::new();
        for (from, card) in tops.chain(waste) {
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
        if let Some(&next) = stock(board).first() {
            moves.push(Move::Draw(next));
        }
        if self.may_redeal(board).is_ok() {
            moves.push(Move::Redeal);
        }
        moves
    }

    /// Plays on a copy and keeps it only if every check passes, so a refused
    /// move leaves the board exactly as it was.
    pub(super) fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        let mut next = board.clone();
        match *mv {
            Move::Draw(card) => self.draw(&mut next, card)?,
            Move::Redeal => self.redeal(&mut next)?,
            Move::Play {
                from,
                to,
                card,
                count,
            } => {
                if count != 1 {
                    return Err(format!("{} moves one card at a time (x{count})", self.name));
                }
                self.take(&mut next, from, card)?;
                self.put(&mut next, from, to, card)?;
            }
        }
        *board = next;
        Ok(())
    }

    /// A foundation showing 5H holds AH to 5H: five cards.
    pub(super) fn cards_home(&self, board: &Board) -> usize {
        (board.foundations.iter().flatten())
            .map(|top| usize::from(top.rank().get()))
            .sum()
    }

    /// Won when every card of every deck is home.
    pub(super) fn is_won(&self, board: &Board) -> bool {
        self.cards_home(board) == usize::from(self.decks) * Card::COUNT
    }
}
