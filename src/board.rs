//! The deal text format of RULES.md: reading and writing a position.
//!
//! Parsing here is only syntax: which lines exist and which cards they
//! name. Whether a board makes sense for a game (pile count, card counts)
//! is the game's to say: its reference rules validate a [`Board`]; the
//! line numbers kept in [`Lines`] let it name the line at fault.

use std::fmt::{self, Write as _};

use thiserror::Error;

use crate::card::Card;
use crate::quote::quote;

/// A position in any game, as plain lists of cards.
///
/// The reference rules play directly on this type, so it is kept as plain
/// as RULES.md's own description of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Top card of each foundation, `None` for an empty one. Empty when the
    /// board has no `Foundations:` line.
    pub foundations: Vec<Option<Card>>,
    /// Reserve places left to right, `None` for a played one.
    pub reserve: Option<Vec<Option<Card>>>,
    /// The stock, first card the next one drawn.
    pub stock: Option<Vec<Card>>,
    /// The waste, bottom to top.
    pub waste: Option<Vec<Card>>,
    /// Redeals still allowed, when the board says.
    pub redeals: Option<u8>,
    /// Tableau piles left to right.
    pub piles: Vec<Pile>,
    /// Where each part was written, for error messages.
    pub lines: Lines,
}

/// One tableau pile, bottom to top.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pile {
    /// Face-down cards, bottom to top (only Alexandria has any).
    pub down: Vec<Card>,
    /// Face-up cards, bottom to top; the last is the pile's top card.
    pub up: Vec<Card>,
}

impl Pile {
    pub fn face_up(cards: Vec<Card>) -> Pile {
        Pile {
            down: Vec::new(),
            up: cards,
        }
    }

    pub fn len(&self) -> usize {
        self.down.len() + self.up.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn top(&self) -> Option<Card> {
        self.up.last().copied()
    }

    /// Every card, bottom to top, face-down ones first.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.down.iter().chain(&self.up).copied()
    }
}

/// The parts of a board that only some games have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Reserve,
    Stock,
    Waste,
    Redeals,
}

/// The line (counted from 1) on which each part of a board was written;
/// zero for a board that was built rather than read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lines {
    pub foundations: usize,
    pub reserve: usize,
    pub stock: usize,
    pub waste: usize,
    pub redeals: usize,
    pub piles: Vec<usize>,
}

/// What is wrong with a board, and on which line when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct BoardError {
    pub line: Option<usize>,
    pub message: String,
}

impl BoardError {
    /// An error on `line`; a line of 0 (a built board) names no line.
    pub fn at(line: usize, message: impl Into<String>) -> BoardError {
        BoardError {
            line: (line > 0).then_some(line),
            message: message.into(),
        }
    }

    pub fn whole(message: impl Into<String>) -> BoardError {
        BoardError {
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl Board {
    /// Reads a board in the deal text format.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let mut board = Board::default();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            board.parse_line(line, content)?;
        }
        if board.piles.is_empty() {
            return Err(BoardError::whole("the board has no tableau piles"));
        }
        Ok(board)
    }

    fn parse_line(&mut self, line: usize, content: &str) -> Result<(), BoardError> {
        if let Some(rest) = content.strip_prefix(':') {
            return self.parse_pile(line, rest);
        }
        let Some((header, rest)) = content.split_once(':') else {
            return self.parse_pile(line, content);
        };
        let header_line = |slot: &mut usize, name: &str| {
            if *slot != 0 {
                return Err(BoardError::at(
                    line,
                    format!("a second '{name}:' line (the first is line {slot})"),
                ));
            }
            *slot = line;
            Ok(())
        };
        match header.trim().to_ascii_lowercase().as_str() {
            "foundations" => {
                header_line(&mut self.lines.foundations, "Foundations")?;
                self.foundations = parse_places(line, rest)?;
            }
            "reserve" => {
                header_line(&mut self.lines.reserve, "Reserve")?;
                self.reserve = Some(parse_places(line, rest)?);
            }
            "stock" => {
                header_line(&mut self.lines.stock, "Stock")?;
                self.stock = Some(parse_cards(line, rest)?);
            }
            "waste" => {
                header_line(&mut self.lines.waste, "Waste")?;
                self.waste = Some(parse_cards(line, rest)?);
            }
            "redeals" => {
                header_line(&mut self.lines.redeals, "Redeals")?;
                let n = rest.trim().parse().map_err(|_| {
                    BoardError::at(
                        line,
                        format!("{} is not a number of redeals", quote(rest.trim())),
                    )
                })?;
                self.redeals = Some(n);
            }
            _ => {
                return Err(BoardError::at(
                    line,
                    format!(
                        "unknown line {} (expected Foundations:, Reserve:, Stock:, \
                         Waste:, Redeals:, or a tableau pile starting with ':')",
                        quote(&format!("{}:", header.trim()))
                    ),
                ));
            }
        }
        Ok(())
    }

    fn parse_pile(&mut self, line: usize, text: &str) -> Result<(), BoardError> {
        let mut parts = text.split('|');
        let first = parts.next().unwrap_or_default();
        let pile = match (parts.next(), parts.next()) {
            (None, _) => Pile::face_up(parse_cards(line, first)?),
            (Some(up), None) => Pile {
                down: parse_cards(line, first)?,
                up: parse_cards(line, up)?,
            },
            (Some(_), Some(_)) => {
                return Err(BoardError::at(line, "a pile may have only one '|'"));
            }
        };
        self.piles.push(pile);
        self.lines.piles.push(line);
        Ok(())
    }

    /// An error naming the first of `parts` the board has, for a game that
    /// has none of them: "lines that do not apply to a game are errors".
    pub fn refuse(&self, game: &str, parts: &[Part]) -> Result<(), BoardError> {
        for part in parts {
            let (present, line, name) = match part {
                Part::Reserve => (self.reserve.is_some(), self.lines.reserve, "reserve"),
                Part::Stock => (self.stock.is_some(), self.lines.stock, "stock"),
                Part::Waste => (self.waste.is_some(), self.lines.waste, "waste"),
                Part::Redeals => (self.redeals.is_some(), self.lines.redeals, "redeals"),
            };
            if present {
                return Err(BoardError::at(line, format!("{game} has no {name}")));
            }
        }
        Ok(())
    }

    /// The line pile `i` was written on, 0 for a built board.
    pub fn pile_line(&self, i: usize) -> usize {
        self.lines.piles.get(i).copied().unwrap_or(0)
    }

    /// Writes the board in the deal text format; `parse` reads it back.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let places = |places: &[Option<Card>]| -> String {
            places
                .iter()
                .map(|p| p.map_or("-".to_string(), |c| c.to_string()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let cards = |cards: &[Card]| -> String {
            cards
                .iter()
                .map(Card::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(out, "Foundations: {}", places(&self.foundations));
        if let Some(reserve) = &self.reserve {
            let _ = writeln!(out, "Reserve: {}", places(reserve));
        }
        // An empty stock or waste is written as no line at all, which
        // reads back as empty: one text for each position.
        if let Some(stock) = self.stock.as_ref().filter(|s| !s.is_empty()) {
            let _ = writeln!(out, "Stock: {}", cards(stock));
        }
        if let Some(waste) = self.waste.as_ref().filter(|w| !w.is_empty()) {
            let _ = writeln!(out, "Waste: {}", cards(waste));
        }
        if let Some(redeals) = self.redeals {
            let _ = writeln!(out, "Redeals: {redeals}");
        }
        for pile in &self.piles {
            let line = if pile.down.is_empty() {
                format!(": {}", cards(&pile.up))
            } else {
                format!(": {} | {}", cards(&pile.down), cards(&pile.up))
            };
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }
}

fn parse_cards(line: usize, text: &str) -> Result<Vec<Card>, BoardError> {
    let text = text.trim();
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|token| {
            token
                .parse()
                .map_err(|e| BoardError::at(line, format!("{e}")))
        })
        .collect()
}

fn parse_places(line: usize, text: &str) -> Result<Vec<Option<Card>>, BoardError> {
    text.split_whitespace()
        .map(|token| match token {
            "-" => Ok(None),
            _ => token
                .parse()
                .map(Some)
                .map_err(|e| BoardError::at(line, format!("{e}"))),
        })
        .collect()
}

/// Counts the cards a board holds, to find missing and extra copies.
///
/// Games call [`Tally::add`] for every card they consider present, with the
/// line it was written on, and the first card over `copies` is reported on
/// its own line.
pub struct Tally {
    counts: [u8; Card::COUNT],
    copies: u8,
}

impl Tally {
    pub fn new(copies: u8) -> Tally {
        Tally {
            counts: [0; Card::COUNT],
            copies,
        }
    }

    pub fn add(&mut self, card: Card, line: usize) -> Result<(), BoardError> {
        let count = &mut self.counts[card.index()];
        *count += 1;
        if *count > self.copies {
            let what = match self.copies {
                1 => format!("{card} appears twice"),
                n => format!("{card} appears more than {n} times"),
            };
            return Err(BoardError::at(line, what));
        }
        Ok(())
    }

    pub fn count(&self, card: Card) -> u8 {
        self.counts[card.index()]
    }

    /// An error naming the cards not yet counted as often as the decks hold
    /// them, if any.
    pub fn check_complete(&self) -> Result<(), BoardError> {
        let missing: Vec<String> = Card::all()
            .filter(|&c| self.count(c) < self.copies)
            .map(|c| c.to_string())
            .collect();
        match missing.len() {
            0 => Ok(()),
            1 => Err(BoardError::whole(format!("card {} is missing", missing[0]))),
            _ => Err(BoardError::whole(format!(
                "{} cards are missing: {}",
                missing.len(),
                missing.join(" ")
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BHS_BOARD: &str = "Foundations: -\nJD QC QH 6D\n2D KH 4H 8S\n";

    #[test]
    fn reads_black_hole_solver_boards() {
        let board = Board::parse(BHS_BOARD).unwrap();
        assert_eq!(board.foundations, vec![None]);
        assert_eq!(board.piles.len(), 2);
        assert_eq!(board.piles[0].top().unwrap().to_string(), "6D");
        assert_eq!(board.lines.piles, vec![2, 3]);
    }

    #[test]
    fn round_trips_every_kind_of_line() {
        let text = "Foundations: AC - 3H -\nReserve: 5H - 9C\nStock: 4D 8C\nWaste: 2H\n\
                    Redeals: 1\n: 3D 9S\n: 7C | 6H QD\n:\n";
        let board = Board::parse(text).unwrap();
        assert_eq!(board.piles[1].down.len(), 1);
        assert!(board.piles[2].is_empty());
        assert_eq!(board.redeals, Some(1));
        assert_eq!(
            Board::parse(&board.to_text()).unwrap().to_text(),
            board.to_text()
        );
        let emptied = Board::parse("Stock: -\nWaste:\n: AS\n").unwrap();
        assert_eq!(emptied.stock, Some(vec![]));
        assert_eq!(emptied.to_text(), "Foundations: \n: AS\n");
    }

    #[test]
    fn errors_name_the_line() {
        let err = Board::parse("# c\nFoundations: -\n: AS XX\n").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.to_string().contains("'XX' is not a card"));
        let err = Board::parse(": AS | 2S | 3S\n").unwrap_err();
        assert_eq!(err.to_string(), "line 1: a pile may have only one '|'");
        let err = Board::parse("Foundations: -\nFoundations: -\n: AS\n").unwrap_err();
        assert!(err.to_string().starts_with("line 2: a second"));
        let err = Board::parse("Tableau: AS\n").unwrap_err();
        assert!(err.to_string().contains("unknown line"));
        let err = Board::parse("Redeals: x\n: AS\n").unwrap_err();
        assert_eq!(err.line, Some(1));
        assert!(Board::parse("# nothing\n").is_err());
    }

    #[test]
    fn tally_finds_duplicates_and_missing_cards() {
        let mut tally = Tally::new(1);
        let ace: Card = "AS".parse().unwrap();
        tally.add(ace, 3).unwrap();
        let err = tally.add(ace, 7).unwrap_err();
        assert_eq!(err.to_string(), "line 7: AS appears twice");
        assert!(
            tally
                .check_complete()
                .unwrap_err()
                .message
                .contains("51 cards are missing")
        );
    }
}
