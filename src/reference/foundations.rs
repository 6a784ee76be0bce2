//! Foundations built up by suit, straight from RULES.md, and the count of a
//! board's cards they take part in: Raglan, Lanes, Rows of Four and
//! Alexandria.
//!
//! "Foundations: an Ace starts one; then up by suit to King." A game of one
//! deck has one foundation a suit, of two decks two, of three three. A
//! foundation showing 5H holds AH to 5H, and a board must hold every card
//! exactly as often as the decks do, those cards counted as home.

use crate::board::{Board, BoardError, Tally};
use crate::card::{Card, Rank, Suit};

use super::layout::Layout;

/// The foundations showing a card of `suit`, in the board's order.
fn tops_of(board: &Board, suit: Suit) -> impl Iterator<Item = Card> + '_ {
    (board.foundations.iter().flatten().copied()).filter(move |top| top.suit() == suit)
}

/// "AH, 5H and 7H".
pub(super) fn listed(cards: &[Card]) -> String {
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
pub(super) fn in_words(n: usize) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        n => n.to_string(),
    }
}

impl Layout {
    /// Checks the number of foundations: a `Foundations:` line lists all of
    /// the game's, an empty one written '-', or none at all (a board that
    /// lists none has them all empty).
    pub(super) fn check_foundation_count(&self, board: &Board) -> Result<(), BoardError> {
        let listed = board.foundations.len();
        if listed == 0 || listed == self.foundations {
            return Ok(());
        }
        Err(BoardError::at(
            board.lines.foundations,
            format!(
                "{listed} foundations: {} has {} (an empty one written '-')",
                self.name, self.foundations
            ),
        ))
    }

    /// The first suit shown on more foundations than the game has decks,
    /// as "two foundations of one suit: AH and 2H", if there is one.
    pub(super) fn crowded_suit(&self, board: &Board) -> Option<String> {
        let tops: Vec<Card> = board.foundations.iter().flatten().copied().collect();
        (0..tops.len()).find_map(|i| {
            let same: Vec<Card> = (tops[..=i].iter().copied())
                .filter(|c| c.suit() == tops[i].suit())
                .collect();
            (same.len() > usize::from(self.decks)).then(|| {
                format!(
                    "{} foundations of one suit: {}",
                    in_words(same.len()),
                    listed(&same)
                )
            })
        })
    }

    /// The foundation `card` goes on, counted among the game's foundations
    /// (a board that lists none has them all empty), or why it goes on none.
    /// "An Ace starts one": the first empty foundation. "Then up by suit": a
    /// foundation of its suit showing the rank below, the first of them when
    /// two do, as RULES.md gives foundations no order.
    pub(super) fn home_slot(&self, board: &Board, card: Card) -> Result<usize, String> {
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
        let tops: Vec<String> = tops_of(board, card.suit()).map(|c| c.to_string()).collect();
        if tops.is_empty() {
            return Err(format!(
                "{card} cannot go home: its suit has no foundation yet (an Ace starts one)"
            ));
        }
        Err(format!(
            "{card} does not go on {}: a foundation takes the next rank of its suit",
            tops.join(" or ")
        ))
    }

    /// Puts `card` on the foundation [`Layout::home_slot`] finds for it.
    pub(super) fn put_home(&self, board: &mut Board, card: Card) -> Result<(), String> {
        let slot = self.home_slot(board, card)?;
        // A board that lists no foundations has them all empty.
        if board.foundations.is_empty() {
            board.foundations = vec![None; self.foundations];
        }
        board.foundations[slot] = Some(card);
        Ok(())
    }
}

/// The count of a board's cards: each exactly as often as the game's decks
/// hold it, the cards under each foundation's top card counted as home.
pub(super) struct CardCount<'a> {
    board: &'a Board,
    decks: usize,
    tally: Tally,
}

impl<'a> CardCount<'a> {
    /// A count that starts with the cards the foundations hold. Call it
    /// once no suit has more foundations than there are decks (see
    /// [`Layout::crowded_suit`]), so that they hold no card too often.
    pub(super) fn new(board: &'a Board, decks: u8) -> Result<CardCount<'a>, BoardError> {
        let mut tally = Tally::new(decks);
        for top in board.foundations.iter().flatten() {
            for rank in Rank::all().filter(|&rank| rank <= top.rank()) {
                tally.add(Card::new(rank, top.suit()), board.lines.foundations)?;
            }
        }
        Ok(CardCount {
            board,
            decks: usize::from(decks),
            tally,
        })
    }

    /// Counts `card`, found in play on `line`. A card its foundations
    /// already hold as often as the decks do would be one too many; saying
    /// so is clearer than the tally's "appears twice".
    pub(super) fn add(&mut self, card: Card, line: usize) -> Result<(), BoardError> {
        let holding: Vec<Card> = tops_of(self.board, card.suit())
            .filter(|top| card.rank() <= top.rank())
            .collect();
        if holding.len() >= self.decks {
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
        self.tally.add(card, line)
    }

    /// Counts every tableau card, pile by pile. Only Alexandria has
    /// face-down cards, and it counts them as cards of their pile (see its
    /// file), so here they are refused.
    pub(super) fn add_piles(&mut self, name: &str) -> Result<(), BoardError> {
        let board = self.board;
        for (i, pile) in board.piles.iter().enumerate() {
            let line = board.pile_line(i);
            if !pile.down.is_empty() {
                return Err(BoardError::at(
                    line,
                    format!("{name} has no face-down cards ('|')"),
                ));
            }
            for card in pile.cards() {
                self.add(card, line)?;
            }
        }
        Ok(())
    }

    /// Checks that no card is missing, once every place is counted.
    pub(super) fn finish(self) -> Result<(), BoardError> {
        self.tally.check_complete()
    }
}
