//! Lanes, straight from RULES.md.
//!
//! A position is six tableau piles of face-up cards, four foundations, a
//! stock and a waste. Play moves one card at a time: a tableau top or the
//! waste's top card goes home or onto a tableau pile, built down in
//! alternating colour, and a tableau top goes onto another pile; any
//! available card fills an empty pile. The stock is drawn one card at a time
//! and turned over in order once (two passes). Its moves, foundations,
//! stock and waste are those it shares with other games: see
//! [`super::layout`], [`super::foundations`] and [`super::stock`].

use super::layout::{Layout, alternating_or_any_to_empty};
use super::stock::StockGame;

/// Lanes: every rule is its layout's (see [`super::layout`] and
/// [`super::stock`]). A board may hold the Aces in play, even with no
/// `Foundations:` line at all: an Ace starts an empty foundation.
pub struct LanesRules;

impl StockGame for LanesRules {
    /// "One deck", "6 tableau piles", four foundations and "one redeal
    /// (two passes)": the reference keeps its own numbers from RULES.md
    /// rather than the engine's.
    const LAYOUT: Layout = Layout {
        name: "Lanes",
        decks: 1,
        piles: 6,
        foundations: 4,
        reserve: 0,
        stock: true,
        redeals: 1,
        builds: alternating_or_any_to_empty,
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Rules;
    use crate::reference::test_support::{Checked, card, cards};

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
        assert_eq!(RULES.holds(DEAL, 4).stock.map(|s| s.len()), Some(30));
        RULES.holds(LATE, 12 + 9 + 9 + 11);
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
        // An Ace in play builds like any card: the black Ace on the red 2.
        RULES.plays(&mut aces.clone(), "t6 t1 AS");
        RULES.refused(&aces, "t6 t2 AS", "AS does not go on 3D");
        RULES.refused(&aces, "t1 f 2D", "2D cannot go home");
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
        RULES.refuses_what_the_waste_does_not_allow(&deal, 1, "Lanes");
        RULES.refuses_what_no_game_allows(&deal, 1, "6D");
        RULES.refused(&deal, "t1 t6 7D x2", "Lanes moves one card at a time (x2)");
        RULES.plays(&mut deal, "draw 8D");
        RULES.refused(&deal, "w t1 8D", "8D does not go on 7D");
        RULES.plays(&mut deal, "w t2 8D");
    }

    #[test]
    fn draw_and_redeal_turn_the_waste_over_in_order() {
        RULES.passes(DEAL, 1, "no redeal left: Lanes allows 1 redeal");
        RULES.refused(
            &RULES.board(DEAL),
            "draw 9D",
            "the stock's top card is 8D, not 9D",
        );

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
    fn legal_moves_of_a_late_position_by_hand() {
        // Home: QS. QS onto KD and JD onto QS; every one of the six available
        // cards (the waste's KH too) onto the empty t6; the stock's TD drawn.
        // No redeal while the stock holds cards.
        RULES.moves_are(
            LATE,
            "t5 f QS, t5 t4 QS, t3 t5 JD, t1 t6 QD, t2 t6 QH, t3 t6 JD, t4 t6 KD, \
             t5 t6 QS, w t6 KH, draw TD",
        );
        // Once the stock is drawn out, the redeal is legal and the draw not.
        let drawn = RULES.moves(&RULES.board(&DEAL.replace("Stock:", "Waste:")));
        assert!(drawn.contains(&"redeal".into()));
        assert!(!drawn.iter().any(|m| m.starts_with("draw")));
        assert!(drawn.contains(&"t1 f 2D".into()));
    }

    #[test]
    fn exactly_the_legal_moves_play() {
        let aces = DEAL
            .replace("Foundations: AC AD AH AS\n", "")
            .replace(": 7C KC 7D\n", ": 7C KC 7D AC AD AH AS\n");
        let drawn = DEAL.replace("Stock:", "Waste:");
        for text in [DEAL, LATE, &aces, &drawn] {
            RULES.exactly_the_legal_moves_play(text, 8, 2);
        }
    }

    #[test]
    fn all_kings_home_is_won() {
        RULES.won(
            &format!("Foundations: KC KD KH KS\n{}", ":\n".repeat(6)),
            52,
        );
    }
}
