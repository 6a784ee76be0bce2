//! Raglan, straight from RULES.md.
//!
//! A position is nine tableau piles, six reserve places and four foundations,
//! every card face up. Play moves one card at a time: a tableau top or any
//! reserve card goes home or onto a tableau pile, and a tableau top goes onto
//! another pile. Nothing ever moves onto the reserve or off a foundation, and
//! there is no stock.

use crate::board::{Board, BoardError, Part, Tally};
use crate::card::{Card, Rank, Suit};
use crate::notation::{Move, Place};

use super::{Rules, take_top};

pub struct RaglanRules;

/// "9 tableau piles", "Reserve: 6 cards" and one foundation a suit: the
/// reference keeps its own numbers from RULES.md rather than the engine's.
const PILES: usize = 9;
const RESERVE: usize = 6;
const FOUNDATIONS: usize = 4;

/// The top card of `suit`'s foundation, if that foundation is started.
/// RULES.md gives the four foundations no order, so it is found by suit.
fn home_top(board: &Board, suit: Suit) -> Option<Card> {
    board
        .foundations
        .iter()
        .flatten()
        .copied()
        .find(|top| top.suit() == suit)
}

/// "Foundations: up by suit to King", and "an Ace starts an empty
/// foundation" for a board that holds Aces off the foundations.
fn goes_home(board: &Board, card: Card) -> Result<(), String> {
    match home_top(board, card.suit()) {
        Some(top) if top.rank().get() + 1 == card.rank().get() => Ok(()),
        Some(top) => Err(format!(
            "{card} does not go on {top}: a foundation takes the next rank of its suit"
        )),
        None if card.rank() == Rank::ACE => {
            if board.foundations.is_empty() || board.foundations.contains(&None) {
                Ok(())
            } else {
                Err(format!("no foundation is free for {card}"))
            }
        }
        None => Err(format!(
            "{card} cannot go home: its suit has no foundation yet (an Ace starts one)"
        )),
    }
}

/// "Build down in alternating colour", and "an empty tableau pile takes any
/// available card".
fn goes_on(top: Option<Card>, card: Card) -> Result<(), String> {
    match top {
        None => Ok(()),
        Some(top) if top.rank().get() == card.rank().get() + 1 && top.colour() != card.colour() => {
            Ok(())
        }
        Some(top) => Err(format!(
            "{card} does not go on {top}: a tableau card goes on one a rank higher of the other colour"
        )),
    }
}

/// Takes `card` from `from`, or says why it is not there to take.
fn take(board: &mut Board, from: Place, card: Card) -> Result<(), String> {
    match from {
        Place::Tableau(i) => take_top(board, i, card),
        Place::Reserve(r) => {
            let place = (board.reserve.as_mut())
                .and_then(|places| places.get_mut(r as usize))
                .ok_or_else(|| format!("there is no reserve place {from}"))?;
            match *place {
                None => Err(format!("reserve place {from} is empty")),
                Some(held) if held != card => {
                    Err(format!("reserve place {from} holds {held}, not {card}"))
                }
                // "An emptied reserve place is never refilled": it stays `None`.
                Some(_) => {
                    *place = None;
                    Ok(())
                }
            }
        }
        Place::Waste => Err("Raglan has no waste".into()),
        Place::Foundation => Err("no card ever leaves a foundation".into()),
    }
}

/// Puts `card`, taken from `from`, on `to`, or says why it does not go there.
fn put(board: &mut Board, from: Place, to: Place, card: Card) -> Result<(), String> {
    match to {
        Place::Foundation => {
            goes_home(board, card)?;
            // A board that lists no foundations has four empty ones.
            if board.foundations.is_empty() {
                board.foundations = vec![None; FOUNDATIONS];
            }
            // The suit's own foundation, or for an Ace the first empty one.
            let slot = (board.foundations.iter())
                .position(|top| top.is_some_and(|top| top.suit() == card.suit()))
                .or_else(|| board.foundations.iter().position(Option::is_none))
                .expect("goes_home found the card a foundation");
            board.foundations[slot] = Some(card);
            Ok(())
        }
        Place::Tableau(j) => {
            if to == from {
                return Err(format!("{card} cannot move onto its own pile {to}"));
            }
            let pile = (board.piles.get_mut(j as usize))
                .ok_or_else(|| format!("there is no pile {to}"))?;
            goes_on(pile.top(), card)?;
            pile.up.push(card);
            Ok(())
        }
        Place::Reserve(_) => Err("nothing moves onto the reserve".into()),
        Place::Waste => Err("Raglan has no waste".into()),
    }
}

impl Rules for RaglanRules {
    /// Checks that a board is a Raglan position: 9 piles of face-up cards
    /// (any heights), 6 reserve places, 4 foundations of different suits,
    /// and each of the 52 cards once, the cards under a foundation's top card
    /// counted as home. The `Foundations:` line is optional ("'-' empty"): a
    /// board without one, or with one that lists nothing (as
    /// [`Board::to_text`] writes such a board back), has four empty
    /// foundations, and then the Aces must be on the tableau or the reserve.
    fn validate(&self, board: &Board) -> Result<(), BoardError> {
        let lines = &board.lines;
        board.refuse("Raglan", &[Part::Stock, Part::Waste, Part::Redeals])?;
        if !board.foundations.is_empty() && board.foundations.len() != FOUNDATIONS {
            return Err(BoardError::at(
                lines.foundations,
                format!(
                    "{} foundations: Raglan has {FOUNDATIONS} (an empty one written '-')",
                    board.foundations.len()
                ),
            ));
        }
        let mut tally = Tally::new(1);
        for (i, &top) in board.foundations.iter().flatten().enumerate() {
            let earlier = board.foundations.iter().flatten().take(i);
            if let Some(other) = earlier.copied().find(|c| c.suit() == top.suit()) {
                return Err(BoardError::at(
                    lines.foundations,
                    format!("two foundations of one suit: {other} and {top}"),
                ));
            }
            for rank in Rank::all().filter(|&rank| rank <= top.rank()) {
                tally.add(Card::new(rank, top.suit()), lines.foundations)?;
            }
        }
        let Some(reserve) = &board.reserve else {
            return Err(BoardError::whole(format!(
                "Raglan needs a 'Reserve:' line of {RESERVE} places ('-' for a played one)"
            )));
        };
        if reserve.len() != RESERVE {
            return Err(BoardError::at(
                lines.reserve,
                format!(
                    "{} reserve places: Raglan has {RESERVE} (a played one written '-')",
                    reserve.len()
                ),
            ));
        }
        if board.piles.len() != PILES {
            return Err(BoardError::at(
                board.pile_line(PILES),
                format!("{} tableau piles: Raglan has {PILES}", board.piles.len()),
            ));
        }
        // A card in play that its foundation already holds would be there
        // twice; saying so is clearer than the tally's "appears twice".
        let mut count = |card: Card, line: usize| {
            if let Some(top) = home_top(board, card.suit()).filter(|top| card.rank() <= top.rank())
            {
                return Err(BoardError::at(
                    line,
                    format!("{card} is already home: its foundation shows {top}"),
                ));
            }
            tally.add(card, line)
        };
        for &card in reserve.iter().flatten() {
            count(card, lines.reserve)?;
        }
        for (i, pile) in board.piles.iter().enumerate() {
            let line = board.pile_line(i);
            if !pile.down.is_empty() {
                return Err(BoardError::at(line, "Raglan has no face-down cards ('|')"));
            }
            for card in pile.cards() {
                count(card, line)?;
            }
        }
        tally.check_complete()
    }

    /// Every tableau top and reserve card, to its foundation and to every
    /// other pile it fits. A card that fits several empty piles is listed
    /// once for each: the reference does not fold moves that lead to
    /// positions alike.
    fn legal_moves(&self, board: &Board) -> Vec<Move> {
        let tops = (board.piles.iter().enumerate())
            .filter_map(|(i, pile)| Some((Place::Tableau(i as u8), pile.top()?)));
        let reserve = (board.reserve.iter().flatten().enumerate())
            .filter_map(|(r, place)| Some((Place::Reserve(r as u8), (*place)?)));
        let mut moves = Vec::new();
        for (from, card) in tops.chain(reserve) {
            if goes_home(board, card).is_ok() {
                moves.push(Move::single(from, Place::Foundation, card));
            }
            // A card never fits on itself, so its own pile is never offered.
            for (j, pile) in board.piles.iter().enumerate() {
                if goes_on(pile.top(), card).is_ok() {
                    moves.push(Move::single(from, Place::Tableau(j as u8), card));
                }
            }
        }
        moves
    }

    /// Plays on a copy and keeps it only if every check passes, so a refused
    /// move leaves the board exactly as it was.
    fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        let Move::Play {
            from,
            to,
            card,
            count,
        } = *mv
        else {
            return Err("Raglan has no stock: no draw or redeal".into());
        };
        if count != 1 {
            return Err(format!("Raglan moves one card at a time (x{count})"));
        }
        let mut next = board.clone();
        take(&mut next, from, card)?;
        put(&mut next, from, to, card)?;
        *board = next;
        Ok(())
    }

    fn is_won(&self, board: &Board) -> bool {
        Suit::ALL
            .iter()
            .all(|&suit| home_top(board, suit).is_some_and(|top| top.rank() == Rank::KING))
    }

    /// A foundation showing 5H holds AH to 5H: five cards.
    fn cards_home(&self, board: &Board) -> usize {
        (board.foundations.iter().flatten())
            .map(|top| top.rank().get() as usize)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::test_support::{Checked, card};

    const RULES: Checked<RaglanRules> = Checked(RaglanRules);

    /// A deal laid out as RULES.md deals one: Aces home, piles of 7, 7, 7,
    /// 6, 5, 4, 3, 2, 1 and a reserve of 6 (here from the ordered pack).
    /// Line 1 is the foundations, line 2 the reserve, lines 3 to 11 the piles.
    const DEAL: &str = "\
Foundations: AC AD AH AS
Reserve: 8S 9S TS JS QS KS
: 2C 3C 4C 5C 6C 7C 8C
: 9C TC JC QC KC 2D 3D
: 4D 5D 6D 7D 8D 9D TD
: JD QD KD 2H 3H 4H
: 5H 6H 7H 8H 9H
: TH JH QH KH
: 2S 3S 4S
: 5S 6S
: 7S
";

    /// Late in a game: 41 cards home, one reserve card left, t9 empty.
    const LATE: &str = "\
Foundations: QC 9D 9H JS
Reserve: - TH - - - -
: KC QD
: KS QH
: JD
: KD
: KH
: JH
: QS
: TD
:
";

    #[test]
    fn a_dealt_board_and_a_late_one_validate() {
        let deal = RULES.board(DEAL);
        assert_eq!(RaglanRules.cards_home(&deal), 4);
        let late = RULES.board(LATE);
        assert_eq!(RaglanRules.cards_home(&late), 12 + 9 + 9 + 11);
        assert!(!RaglanRules.is_won(&late));
    }

    #[test]
    fn bad_boards_name_the_line() {
        RULES.refuses(DEAL, ": 7S\n", "", None, "8 tableau piles: Raglan has 9");
        RULES.refuses(DEAL, ": 7S\n", ": 7S\n:\n", Some(12), "10 tableau piles");
        RULES.refuses(
            DEAL,
            " KS\n",
            "\n",
            Some(2),
            "5 reserve places: Raglan has 6",
        );
        RULES.refuses(DEAL, " KS\n", " KS -\n", Some(2), "7 reserve places");
        RULES.refuses(
            DEAL,
            "Reserve: 8S 9S TS JS QS KS",
            "",
            None,
            "needs a 'Reserve:'",
        );
        RULES.refuses(DEAL, ": 5S 6S", ": 5S | 6S", Some(10), "no face-down cards");
        RULES.refuses(DEAL, ": 7S\n", ": 7S 2C\n", Some(11), "2C appears twice");
        RULES.refuses(DEAL, ": 7S\n", ":\n", None, "card 7S is missing");
        RULES.refuses(DEAL, " AH ", " 5H ", Some(6), "2H is already home");
        RULES.refuses(DEAL, " AH AS", " AH 2H", Some(1), "two foundations");
        RULES.refuses(
            DEAL,
            " AH AS",
            " AH",
            Some(1),
            "3 foundations: Raglan has 4",
        );
        for extra in ["Stock: -", "Waste: 2C", "Redeals: 0"] {
            RULES.refuses(
                DEAL,
                ": 7S\n",
                &format!(": 7S\n{extra}\n"),
                Some(12),
                "Raglan has no",
            );
        }
    }

    #[test]
    fn without_a_foundations_line_the_aces_start_in_play() {
        let no_line = DEAL.replace("Foundations: AC AD AH AS\n", "");
        RULES.refuses(DEAL, "Foundations: AC AD AH AS\n", "", None, "AC AD AH AS");
        let mut aces = RULES.board(&no_line.replace(": 7S\n", ": 7S AC AD AH AS\n"));
        assert_eq!(RaglanRules.cards_home(&aces), 0);
        // Written back, it says "Foundations:" with nothing, and reads back.
        assert_eq!(RULES.board(&aces.to_text()).foundations, vec![]);
        RULES.plays(&mut aces, "t9 f AS");
        RULES.plays(&mut aces, "t9 f AH");
        assert_eq!(
            aces.foundations,
            vec![Some(card("AS")), Some(card("AH")), None, None]
        );
    }

    #[test]
    fn building_down_in_alternating_colour() {
        let mut deal = RULES.board(DEAL);
        RULES.plays(&mut deal, "t2 t7 3D");
        assert_eq!(deal.piles[6].top(), Some(card("3D")));
        RULES.plays(&mut deal, "t2 f 2D");
        RULES.refused(
            &deal,
            "t5 t3 9H",
            "9H does not go on TD: a tableau card goes on one a rank higher of the other colour",
        );
        RULES.refused(&deal, "t9 r1 7S", "nothing moves onto the reserve");
        RULES.refused(&deal, "t1 t2 7S x2", "Raglan moves one card at a time (x2)");
        RULES.refused(&deal, "t9 t9 7S", "its own pile");
        RULES.refused(&deal, "t9 f 6S", "the top card of t9 is 7S, not 6S");
        RULES.refused(&deal, "t10 f 7S", "there is no pile t10");
        RULES.refused(&deal, "t9 t10 7S", "there is no pile t10");
        RULES.refused(&deal, "t9 f 7S", "7S does not go on AS");
        RULES.refused(&deal, "f t1 2D", "no card ever leaves a foundation");
        RULES.refused(&deal, "draw 2C", "no stock");
        RULES.refused(&deal, "r1 t6 QS", "reserve place r1 holds 8S, not QS");
        RULES.plays(&mut deal, "r5 t6 QS");
        RULES.refused(&deal, "r5 t6 QS", "reserve place r5 is empty");
        RULES.refused(&deal, "r7 t6 QS", "there is no reserve place r7");
    }

    #[test]
    fn any_card_to_an_empty_pile_and_the_reserve_home() {
        let late = RULES.board(LATE);
        for text in ["t8 t9 TD", "t4 t9 KD", "r2 t9 TH"] {
            RULES.plays(&mut late.clone(), text);
        }
        let mut home = late.clone();
        RULES.plays(&mut home, "r2 f TH");
        assert_eq!(home.reserve, Some(vec![None; 6]));
        assert_eq!(home.foundations[2], Some(card("TH")));
        RULES.refused(&home, "r2 f TH", "reserve place r2 is empty");
    }

    #[test]
    fn an_ace_starts_an_empty_foundation() {
        let text = DEAL
            .replace(" AH AS", " AH -")
            .replace(": 7S\n", ": 7S AS\n");
        let mut deal = RULES.board(&text);
        RULES.refused(&deal, "t9 t1 AS", "AS does not go on 8C");
        RULES.plays(&mut deal, "t9 f AS");
        assert_eq!(deal.foundations[3], Some(card("AS")));
        let unstarted = DEAL
            .replace(" AH AS", " AH -")
            .replace(": 5S 6S", ": AS 5S 6S");
        RULES.refused(
            &RULES.board(&unstarted),
            "t9 f 7S",
            "its suit has no foundation yet",
        );
    }

    #[test]
    fn legal_moves_of_a_late_position_by_hand() {
        let mut moves: Vec<String> = (RaglanRules.legal_moves(&RULES.board(LATE)).iter())
            .map(Move::to_string)
            .collect();
        moves.sort();
        // Home: TD, TH, QS. QS onto both red Kings; both red Jacks onto QS;
        // every one of the nine available cards onto the empty t9.
        let mut expected: Vec<&str> = "t8 f TD, r2 f TH, t7 f QS, t7 t4 QS, t7 t5 QS, \
            t3 t7 JD, t6 t7 JH, t1 t9 QD, t2 t9 QH, t3 t9 JD, t4 t9 KD, t5 t9 KH, t6 t9 JH, \
            t7 t9 QS, t8 t9 TD, r2 t9 TH"
            .split(", ")
            .collect();
        expected.sort();
        assert_eq!(moves, expected);
    }

    #[test]
    fn exactly_the_legal_moves_play() {
        for text in [DEAL, LATE] {
            let board = RULES.board(text);
            let legal = RaglanRules.legal_moves(&board);
            assert!(
                legal
                    .iter()
                    .all(|m| legal.iter().filter(|&n| n == m).count() == 1)
            );
            let places = || {
                (0..10)
                    .map(Place::Tableau)
                    .chain((0..7).map(Place::Reserve))
                    .chain([Place::Foundation, Place::Waste])
            };
            for from in places() {
                for to in places() {
                    for card in Card::all() {
                        let mv = Move::single(from, to, card);
                        let mut after = board.clone();
                        let played = RaglanRules.play(&mut after, &mv);
                        assert_eq!(played.is_ok(), legal.contains(&mv), "{mv}: {played:?}");
                        match played {
                            Ok(()) => RaglanRules.validate(&after).unwrap(),
                            Err(_) => assert_eq!(after, board, "{mv}"),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn all_kings_home_is_won() {
        let text = format!(
            "Foundations: KC KD KH KS\nReserve: - - - - - -\n{}",
            ":\n".repeat(9)
        );
        let won = RULES.board(&text);
        assert!(RaglanRules.is_won(&won));
        assert_eq!(RaglanRules.cards_home(&won), 52);
        assert!(RaglanRules.legal_moves(&won).is_empty());
    }
}
