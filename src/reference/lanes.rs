//! Lanes, straight from RULES.md.
//!
//! A position is six tableau piles of face-up cards, four foundations, a
//! stock and a waste. Play moves one card at a time: a tableau top or the
//! waste's top card goes home or onto a tableau pile, built down in
//! alternating colour, and a tableau top goes onto another pile; any
//! available card fills an empty pile. The stock is drawn one card at a time
//! and turned over in order once (two passes). The stock, waste and
//! foundation rules it shares with Rows of Four are in [`super::stock`].

use crate::board::{Board, BoardError};
use crate::card::Card;
use crate::notation::{Move, Place};

use super::Rules;
use super::stock::Layout;

pub struct LanesRules;

/// "One deck", "6 tableau piles", four foundations and "one redeal (two
/// passes)": the reference keeps its own numbers from RULES.md rather than
/// the engine's.
const LANES: Layout = Layout {
    name: "Lanes",
    decks: 1,
    piles: 6,
    foundations: 4,
    redeals: 1,
    builds: goes_on,
};

/// "Build down in alternating colour", and "an empty tableau pile takes any
/// available card", whether from the tableau or the waste.
fn goes_on(_from: Place, top: Option<Card>, card: Card) -> Result<(), String> {
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

impl Rules for LanesRules {
    /// Checks that a board is a Lanes position: 6 piles of face-up cards (any
    /// heights), 4 foundations of different suits, a stock and a waste (both
    /// optional), at most 1 redeal left, and each of the 52 cards once, the
    /// cards under a foundation's top card counted as home. A fresh deal has
    /// the Aces home, but a board may hold them in play, even with no
    /// `Foundations:` line at all: an Ace starts an empty foundation.
    fn validate(&self, board: &Board) -> Result<(), BoardError> {
        LANES.validate(board)
    }

    /// Every tableau top and the waste's top card to its foundation and to
    /// every pile it fits (an empty pile takes any of them), the draw and the
    /// redeal when legal.
    fn legal_moves(&self, board: &Board) -> Vec<Move> {
        LANES.legal_moves(board)
    }

    /// Plays on a copy, so a refused move leaves the board as it was.
    fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        LANES.play(board, mv)
    }

    fn is_won(&self, board: &Board) -> bool {
        LANES.is_won(board)
    }

    /// A foundation showing 5H holds AH to 5H: five cards.
    fn cards_home(&self, board: &Board) -> usize {
        LANES.cards_home(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::test_support::{Checked, card, cards, mv};

    const RULES: Checked<LanesRules> = Checked(LanesRules);

    /// A deal laid out as RULES.md deals one, from the ordered pack: the
    /// Aces home, 6 piles of 3 dealt row by row, the other 30 cards the stock.
    /// Line 1 is the foundations, line 2 the stock, lines 3 to 8 the piles.
    const DEAL: &str = "\
Foundations: AC AD AH AS
Stock: 8D 9D TD JD QD KD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS
: 2C 8C 2D
: 3C 9C 3D
: 4C TC 4D
: 5C JC 5D
: 6C QC 6D
: 7C KC 7D
";

    /// Late in a game: 41 cards home, two in the stock, two in the waste, t6
    /// empty, the redeal still to come. Lines 5 to 10 are the piles.
    const LATE: &str = "\
Foundations: QC 9D 9H JS
Stock: TD TH
Waste: JH KH
Redeals: 1
: KC QD
: KS QH
: JD
: KD
: QS
:
";

    #[test]
    fn a_dealt_board_and_a_late_one_validate() {
        let deal = RULES.board(DEAL);
        assert_eq!(LanesRules.cards_home(&deal), 4);
        assert_eq!(deal.stock.as_ref().map(Vec::len), Some(30));
        assert!(!LanesRules.is_won(&deal));
        let late = RULES.board(LATE);
        assert_eq!(LanesRules.cards_home(&late), 12 + 9 + 9 + 11);
        assert!(!LanesRules.is_won(&late));
        // Written back and read again, a board is the same position.
        assert_eq!(RULES.board(&late.to_text()).to_text(), late.to_text());
    }

    #[test]
    fn bad_boards_name_the_line() {
        RULES.refuses(
            DEAL,
            ": 7C KC 7D\n",
            "",
            None,
            "5 tableau piles: Lanes has 6",
        );
        RULES.refuses(
            DEAL,
            ": 7C KC 7D\n",
            ": 7C KC 7D\n:\n",
            Some(9),
            "7 tableau piles",
        );
        RULES.refuses(
            DEAL,
            ": 7C KC 7D\n",
            ": 7C KC 7D\nReserve: -\n",
            Some(9),
            "Lanes has no reserve",
        );
        RULES.refuses(
            DEAL,
            ": 6C QC 6D",
            ": 6C | QC 6D",
            Some(7),
            "no face-down cards",
        );
        RULES.refuses(
            DEAL,
            ": 7C KC 7D\n",
            ": 7C KC 7D 2C\n",
            Some(8),
            "2C appears twice",
        );
        RULES.refuses(DEAL, " QS KS\n", " QS KS 8D\n", Some(2), "8D appears twice");
        RULES.refuses(
            DEAL,
            ": 7C KC 7D\n",
            ": 7C KC\n",
            None,
            "card 7D is missing",
        );
        RULES.refuses(
            DEAL,
            " AH ",
            " 5H ",
            Some(2),
            "2H is already home: its foundation shows 5H",
        );
        RULES.refuses(
            DEAL,
            " AH AS",
            " AH 2H",
            Some(1),
            "two foundations of one suit: AH and 2H (Lanes has one a suit)",
        );
        RULES.refuses(DEAL, " AH AS", " AH", Some(1), "3 foundations: Lanes has 4");
        RULES.refuses(
            DEAL,
            ": 7C KC 7D\n",
            ": 7C KC 7D\nRedeals: 2\n",
            Some(9),
            "Redeals: 2, but Lanes allows at most 1 redeal",
        );
        // The redeal left and none left are both positions of Lanes.
        for redeals in ["Redeals: 1", "Redeals: 0"] {
            RULES.board(&format!("{DEAL}{redeals}\n"));
        }
    }

    #[test]
    fn without_a_foundations_line_the_aces_start_in_play() {
        let no_line = DEAL.replace("Foundations: AC AD AH AS\n", "");
        RULES.refuses(
            DEAL,
            "Foundations: AC AD AH AS\n",
            "",
            None,
            "4 cards are missing: AC AD AH AS",
        );
        let mut aces = RULES.board(&no_line.replace(": 7C KC 7D\n", ": 7C KC 7D AC AD AH AS\n"));
        assert_eq!(LanesRules.cards_home(&aces), 0);
        // Written back, it says "Foundations:" with nothing, and reads back.
        assert_eq!(RULES.board(&aces.to_text()).foundations, vec![]);
        RULES.plays(&mut aces, "t6 f AS");
        RULES.plays(&mut aces, "t6 f AH");
        assert_eq!(
            aces.foundations,
            vec![Some(card("AS")), Some(card("AH")), None, None]
        );
        assert_eq!(LanesRules.cards_home(&aces), 2);
    }

    #[test]
    fn building_down_in_alternating_colour() {
        let mut deal = RULES.board(DEAL);
        RULES.refused(&deal, "t6 t1 7D", "7D does not go on 2D");
        RULES.plays(&mut deal, "t1 f 2D");
        assert_eq!(deal.foundations[1], Some(card("2D")));
        RULES.plays(&mut deal, "t6 t1 7D");
        assert_eq!(deal.piles[0].up, cards("2C 8C 7D"));
        RULES.refused(
            &deal,
            "t2 t1 3D",
            "3D does not go on 7D: a tableau card goes on one a rank higher of the other colour",
        );
        RULES.plays(&mut deal, "t2 f 3D");
        RULES.refused(
            &deal,
            "t5 f 6D",
            "6D does not go on 3D: a foundation takes the next rank",
        );
        RULES.refused(&deal, "t6 t2 KC", "KC does not go on 9C");
        RULES.refused(&deal, "w t2 8D", "the waste is empty");
        RULES.plays(&mut deal, "draw 8D");
        RULES.refused(&deal, "w t2 9D", "the waste's top card is 8D, not 9D");
        RULES.refused(&deal, "w t1 8D", "8D does not go on 7D");
        RULES.plays(&mut deal.clone(), "w t2 8D");
        RULES.refused(&deal, "t1 w 7D", "nothing moves onto the waste");
        RULES.refused(&deal, "t1 t6 7D x2", "Lanes moves one card at a time (x2)");
        RULES.refused(&deal, "t1 t1 7D", "its own pile");
        RULES.refused(&deal, "t1 f 6D", "the top card of t1 is 7D, not 6D");
        RULES.refused(&deal, "t7 f 7D", "there is no pile t7");
        RULES.refused(&deal, "t1 t7 7D", "there is no pile t7");
        RULES.refused(&deal, "f t1 3D", "no card ever leaves a foundation");
        RULES.refused(&deal, "t1 r1 7D", "Lanes has no reserve");
        RULES.refused(&deal, "r1 t1 7D", "Lanes has no reserve");
    }

    #[test]
    fn draw_and_redeal_turn_the_waste_over_in_order() {
        let deal = RULES.board(DEAL);
        RULES.refused(&deal, "redeal", "the stock is not empty");
        RULES.refused(&deal, "draw 9D", "the stock's top card is 8D, not 9D");
        let stock = deal.stock.clone().unwrap();
        let mut drawn = deal.clone();
        for &next in &stock {
            RULES.plays(&mut drawn, &format!("draw {next}"));
        }
        // The waste holds the cards in the order drawn, the last on top.
        assert_eq!(drawn.waste.as_ref(), Some(&stock));
        RULES.refused(&drawn, "draw 8D", "the stock is empty");
        RULES.plays(&mut drawn, "redeal");
        assert_eq!(drawn.stock.as_ref(), Some(&stock));
        assert!(drawn.waste.as_ref().is_none_or(Vec::is_empty));
        assert_eq!(drawn.redeals, Some(0));
        RULES.refused(&drawn, "redeal", "the stock is not empty");
        for &next in &stock {
            RULES.plays(&mut drawn, &format!("draw {next}"));
        }
        RULES.refused(&drawn, "redeal", "no redeal left: Lanes allows 1 redeal");

        // A late position: the second pass draws in the order of the first.
        let mut late = RULES.board(LATE);
        RULES.plays(&mut late, "draw TD");
        RULES.plays(&mut late, "draw TH");
        assert_eq!(late.waste, Some(cards("JH KH TD TH")));
        RULES.plays(&mut late, "redeal");
        assert_eq!(late.stock, Some(cards("JH KH TD TH")));
        RULES.refused(&late, "draw TD", "the stock's top card is JH, not TD");
        RULES.refused(&late, "w t6 TH", "the waste is empty");
        RULES.plays(&mut late, "draw JH");
        assert_eq!(late.waste, Some(cards("JH")));

        // With stock and waste both empty there is nothing to turn over.
        let empty = RULES.board(
            &LATE
                .replace("Stock: TD TH\nWaste: JH KH\n", "")
                .replace(": QS\n:\n", ": QS\n: TD TH JH KH\n"),
        );
        RULES.refused(&empty, "redeal", "the waste is empty");
        RULES.refused(&empty, "draw TD", "the stock is empty");
        // The board says no redeal is left.
        let spent = DEAL.replace("Stock:", "Waste:") + "Redeals: 0\n";
        RULES.refused(
            &RULES.board(&spent),
            "redeal",
            "no redeal left: Lanes allows 1 redeal",
        );
    }

    #[test]
    fn any_available_card_to_an_empty_pile() {
        let late = RULES.board(LATE);
        for text in ["w t6 KH", "t1 t6 QD", "t3 t6 JD", "t5 t6 QS"] {
            let mut after = late.clone();
            RULES.plays(&mut after, text);
            assert_eq!(
                after.piles[5].top(),
                text.split_whitespace().last().map(card),
                "{text}"
            );
        }
    }

    #[test]
    fn an_ace_starts_an_empty_foundation() {
        let text = DEAL
            .replace(" AH AS", " AH -")
            .replace(": 7C KC 7D\n", ": 7C KC 7D AS\n");
        let mut deal = RULES.board(&text);
        // An Ace in play builds like any card: the black Ace on the red 2.
        RULES.plays(&mut deal.clone(), "t6 t1 AS");
        RULES.refused(&deal, "t6 t2 AS", "AS does not go on 3D");
        RULES.plays(&mut deal, "t6 f AS");
        assert_eq!(deal.foundations[3], Some(card("AS")));
        let unstarted = DEAL
            .replace(" AH AS", " AH -")
            .replace("KH 2S", "KH")
            .replace(": 2C 8C 2D", ": AS 2C 8C 2D")
            .replace(": 7C KC 7D\n", ": 7C KC 7D 2S\n");
        RULES.refused(
            &RULES.board(&unstarted),
            "t6 f 2S",
            "2S cannot go home: its suit has no foundation yet",
        );
    }

    #[test]
    fn legal_moves_of_a_late_position_by_hand() {
        let mut moves: Vec<String> = (LanesRules.legal_moves(&RULES.board(LATE)).iter())
            .map(Move::to_string)
            .collect();
        moves.sort();
        // Home: QS. QS onto KD and JD onto QS; every one of the six available
        // cards (the waste's KH too) onto the empty t6; the stock's TD drawn.
        // No redeal while the stock holds cards.
        let mut expected: Vec<&str> = "t5 f QS, t5 t4 QS, t3 t5 JD, t1 t6 QD, t2 t6 QH, \
            t3 t6 JD, t4 t6 KD, t5 t6 QS, w t6 KH, draw TD"
            .split(", ")
            .collect();
        expected.sort();
        assert_eq!(moves, expected);
        // Once the stock is drawn out, the redeal is legal and the draw not.
        let drawn = RULES.board(&DEAL.replace("Stock:", "Waste:"));
        let legal = LanesRules.legal_moves(&drawn);
        assert!(legal.contains(&Move::Redeal));
        assert!(!legal.iter().any(|m| matches!(m, Move::Draw(_))));
        assert!(legal.contains(&mv("t1 f 2D")));
    }

    #[test]
    fn exactly_the_legal_moves_play() {
        let aces = DEAL
            .replace("Foundations: AC AD AH AS\n", "")
            .replace(": 7C KC 7D\n", ": 7C KC 7D AC AD AH AS\n");
        let drawn = DEAL.replace("Stock:", "Waste:");
        for text in [DEAL, LATE, &aces, &drawn] {
            let board = RULES.board(text);
            let legal = LanesRules.legal_moves(&board);
            assert!(
                legal
                    .iter()
                    .all(|m| legal.iter().filter(|&n| n == m).count() == 1)
            );
            let places = || {
                (0..8)
                    .map(Place::Tableau)
                    .chain((0..2).map(Place::Reserve))
                    .chain([Place::Foundation, Place::Waste])
            };
            let mut moves = vec![Move::Redeal];
            for card in Card::all() {
                moves.push(Move::Draw(card));
                for from in places() {
                    for to in places() {
                        moves.push(Move::single(from, to, card));
                    }
                }
            }
            let mut played = 0;
            for mv in moves {
                let mut after = board.clone();
                let result = LanesRules.play(&mut after, &mv);
                assert_eq!(result.is_ok(), legal.contains(&mv), "{mv}: {result:?}");
                match result {
                    Ok(()) => {
                        LanesRules.validate(&after).unwrap();
                        played += 1;
                    }
                    Err(_) => assert_eq!(after, board, "{mv}"),
                }
            }
            assert_eq!(played, legal.len());
        }
    }

    #[test]
    fn all_kings_home_is_won() {
        let text = format!("Foundations: KC KD KH KS\n{}", ":\n".repeat(6));
        let won = RULES.board(&text);
        assert!(LanesRules.is_won(&won));
        assert_eq!(LanesRules.cards_home(&won), 52);
        assert!(LanesRules.legal_moves(&won).is_empty());
    }
}
