//! Rows of Four, straight from RULES.md.
//!
//! A position is eight tableau piles of face-up cards, eight foundations, a
//! stock and a waste, from two decks: every card twice. Play moves one card
//! at a time: a tableau top or the waste's top card goes home or onto a
//! tableau pile whose top is one rank higher, of any suit, and a tableau top
//! goes onto another pile; only the waste fills an empty pile. The stock is
//! drawn one card at a time and turned over in order twice (three passes).
//! Its moves, foundations, stock and waste are those it shares with other
//! games: see [`super::layout`], [`super::foundations`] and
//! [`super::stock`].

use crate::card::Card;
use crate::notation::Place;

use super::layout::Layout;
use super::stock::StockGame;

/// Rows of Four: every rule is its layout's (see [`super::layout`] and
/// [`super::stock`]). A card goes home on the first foundation that takes
/// it: the first one of its suit showing the rank below, or for an Ace the
/// first empty one. Foundations showing 5H and 3H hold two copies of AH to
/// 3H and one of 4H and 5H.
pub struct RowsOfFourRules;

impl StockGame for RowsOfFourRules {
    /// "Two decks", "8 tableau piles", "8 foundations" and "two redeals":
    /// the reference keeps its own numbers from RULES.md rather than the
    /// engine's.
    const LAYOUT: Layout = Layout {
        name: "Rows of Four",
        decks: 2,
        piles: 8,
        foundations: 8,
        reserve: 0,
        stock: true,
        redeals: 2,
        builds: goes_on,
    };
}

/// "A card goes on a card one rank higher, regardless of suit", and "an
/// empty tableau pile can be filled only from the waste".
fn goes_on(from: Place, top: Option<Card>, card: Card) -> Result<(), String> {
    match top {
        None if from == Place::Waste => Ok(()),
        None => Err(format!(
            "{card} cannot go from {from} to an empty pile: an empty pile takes only the \
             waste's top card in Rows of Four"
        )),
        Some(top) if top.rank().get() == card.rank().get() + 1 => Ok(()),
        Some(top) => Err(format!(
            "{card} does not go on {top}: a tableau card goes on one a rank higher, of any suit"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Rules;
    use crate::reference::test_support::{Checked, card, cards};

    const RULES: Checked<RowsOfFourRules> = Checked(RowsOfFourRules);

    /// A deal laid out as RULES.md deals one, from the ordered pack of two
    /// decks: 8 piles of 4 dealt row by row, the other 72 cards the stock,
    /// the foundations empty. Line 1 is the foundations, line 2 the stock
    /// (one line: each `\` joins the next), lines 3 to 10 the piles.
    const DEAL: &str = "\
Foundations: - - - - - - - -
Stock: 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS \
       AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD \
       AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS
: AC 9C 4D QD
: 2C TC 5D KD
: 3C JC 6D AH
: 4C QC 7D 2H
: 5C KC 8D 3H
: 6C AD 9D 4H
: 7C 2D TD 5H
: 8C 3D JD 6H
";

    /// Late in a game: 91 cards home, two in the stock, two in the waste, t6
    /// empty, one redeal left. Lines 5 to 12 are the piles.
    const LATE: &str = "\
Foundations: KC QC KD JD 9H 8H KS QS
Stock: KH TH
Waste: QH 9H
Redeals: 1
: KC QD
: KD
: JH
: QH JH
: KS
:
: TH
: KH
";

    #[test]
    fn a_dealt_board_and_a_late_one_validate() {
        let deal = RULES.holds(DEAL, 0);
        assert_eq!(deal.lines.piles, (3..=10).collect::<Vec<_>>());
        assert_eq!(deal.stock.as_ref().map(Vec::len), Some(72));
        RULES.holds(LATE, 13 + 12 + 13 + 11 + 9 + 8 + 13 + 12);
        // Without a Foundations line, or with all eight empty, or the two
        // redeals a fresh deal allows.
        RULES.board(&DEAL.replace("Foundations: - - - - - - - -\n", ""));
        RULES.board(&format!("{DEAL}Redeals: 2\n"));
    }

    #[test]
    fn bad_boards_name_the_line() {
        let last = ": 8C 3D JD 6H\n";
        RULES.refuses(DEAL, last, "", None, "7 tableau piles: Rows of Four has 8");
        RULES.refuses(
            DEAL,
            last,
            &format!("{last}:\n"),
            Some(11),
            "9 tableau piles",
        );
        RULES.refuses(
            DEAL,
            last,
            &format!("{last}Reserve: 5H\n"),
            Some(11),
            "Rows of Four has no reserve",
        );
        RULES.refuses(DEAL, ": 5C KC", ": 5C | KC", Some(7), "no face-down cards");
        RULES.refuses(
            DEAL,
            last,
            ": 8C 3D JD 6H AC\n",
            Some(10),
            "AC appears more than 2 times",
        );
        RULES.refuses(DEAL, "Stock: 7H ", "Stock: ", None, "card 7H is missing");
        RULES.refuses(
            DEAL,
            ": 8C 3D JD 6H",
            ": 8C 3D JD",
            None,
            "card 6H is missing",
        );
        RULES.refuses(
            DEAL,
            "Foundations: - - - - - - - -",
            "Foundations: 5H 5H - - - - - -",
            Some(2),
            "AH is already home twice: its foundations show 5H and 5H",
        );
        // One foundation showing 5H holds one copy of AH: the pile's AH is
        // the third.
        RULES.refuses(
            DEAL,
            "Foundations: - - - - - - - -",
            "Foundations: 5H - - - - - - -",
            Some(5),
            "AH appears more than 2 times",
        );
        RULES.refuses(
            DEAL,
            "Foundations: - - - - - - - -",
            "Foundations: 2H 3H 4H - - - - -",
            Some(1),
            "three foundations of one suit: 2H, 3H and 4H (Rows of Four has two a suit)",
        );
        RULES.refuses(
            DEAL,
            "Foundations: - - - - - - - -",
            "Foundations: - - - - - - -",
            Some(1),
            "7 foundations: Rows of Four has 8",
        );
        RULES.refuses(
            DEAL,
            last,
            &format!("{last}Redeals: 3\n"),
            Some(11),
            "Redeals: 3, but Rows of Four allows at most 2 redeals",
        );
        // Two foundations of a suit showing 9H and 8H hold two 8Hs: the
        // waste's 9H is the second, a 9H on the tableau would be the third.
        RULES.refuses(
            LATE,
            ": QH JH\n",
            ": QH JH 9H\n",
            Some(8),
            "9H appears more than 2",
        );
        RULES.refuses(
            LATE,
            ": KH\n",
            ": KH 8H\n",
            Some(12),
            "8H is already home twice",
        );
        RULES.refuses(
            LATE,
            "Waste: QH 9H",
            "Waste: QH",
            None,
            "card 9H is missing",
        );
    }

    #[test]
    fn building_on_one_rank_higher_of_any_suit() {
        let mut deal = RULES.board(DEAL);
        RULES.refused(
            &deal,
            "t2 t1 KD",
            "KD does not go on QD: a tableau card goes on one a rank higher, of any suit",
        );
        RULES.plays(&mut deal, "t1 t2 QD");
        assert_eq!(deal.piles[1].up, cards("2C TC 5D KD QD"));
        // Suit and colour do not matter: a red 4 on a red 5, an Ace on a 2.
        RULES.plays(&mut deal, "t1 t7 4D");
        RULES.plays(&mut deal, "t3 t4 AH");
        RULES.refuses_each(
            &deal,
            "t8 t5 6H: 6H does not go on 3H
             t4 t3 AH: AH does not go on 6D
             t2 t1 QD x2: Rows of Four moves one card at a time (x2)",
        );
        RULES.refuses_what_no_game_allows(&deal, 2, "KD");
        RULES.refuses_what_the_waste_does_not_allow(&deal, 4, "Rows of Four");
        RULES.plays(&mut deal, "draw 7H");
        RULES.refused(&deal, "w t5 7H", "7H does not go on 3H");
        RULES.plays(&mut deal, "draw 8H");
        RULES.plays(&mut deal, "w t1 8H");
    }

    #[test]
    fn draw_and_redeal_make_three_passes() {
        RULES.passes(DEAL, 2, "no redeal left: Rows of Four allows 2 redeals");
        let deal = RULES.board(DEAL);
        RULES.refused(
            &deal,
            "redeal",
            "the stock is not empty (72 cards, 7H next)",
        );
        RULES.refused(&deal, "draw 8H", "the stock's top card is 7H, not 8H");

        let mut late = RULES.board(LATE);
        RULES.plays(&mut late, "draw KH");
        RULES.plays(&mut late, "draw TH");
        assert_eq!(late.waste, Some(cards("QH 9H KH TH")));
        RULES.plays(&mut late, "redeal");
        assert_eq!(late.redeals, Some(0));
        assert_eq!(late.stock, Some(cards("QH 9H KH TH")));
        RULES.refused(&late, "draw KH", "the stock's top card is QH, not KH");
    }

    #[test]
    fn only_the_waste_fills_an_empty_pile() {
        let late = RULES.board(LATE);
        let mut filled = late.clone();
        RULES.plays(&mut filled, "w t6 9H");
        assert_eq!(filled.piles[5].up, cards("9H"));
        assert_eq!(filled.waste, Some(cards("QH")));
        for text in ["t7 t6 TH", "t5 t6 KS", "t1 t6 QD"] {
            RULES.refused(
                &late,
                text,
                "an empty pile takes only the waste's top card in Rows of Four",
            );
        }
    }

    #[test]
    fn aces_start_foundations_and_cards_go_on_the_first_that_fits() {
        let mut deal = RULES.board(DEAL);
        RULES.refused(&deal, "t4 f 2H", "2H cannot go home");
        RULES.plays(&mut deal, "t3 f AH");
        RULES.plays(&mut deal, "t4 f 2H");
        for text in ["t5 f 3H", "t6 f 4H", "t7 f 5H", "t6 t7 9D", "t6 f AD"] {
            RULES.plays(&mut deal, text);
        }
        let mut expected = vec![Some(card("5H")), Some(card("AD"))];
        expected.resize(8, None);
        assert_eq!(deal.foundations, expected);
        RULES.refused(&deal, "t7 f 9D", "9D does not go on AD");

        // Without a Foundations line, the first move home makes all eight.
        let mut bare = RULES.board(&DEAL.replace("Foundations: - - - - - - - -\n", ""));
        assert_eq!(bare.foundations, vec![]);
        RULES.plays(&mut bare, "t3 f AH");
        let mut expected = vec![Some(card("AH"))];
        expected.resize(8, None);
        assert_eq!(bare.foundations, expected);

        // Two hearts foundations both showing 8H: a 9H goes on the first.
        let mut twins = RULES.board(&LATE.replace("9H 8H", "8H 8H").replace("\n:\n", "\n: 9H\n"));
        RULES.refused(&twins, "t7 f TH", "TH does not go on 8H or 8H");
        RULES.plays(&mut twins, "t6 f 9H");
        assert_eq!(
            twins.foundations[4..6],
            [Some(card("9H")), Some(card("8H"))]
        );
        RULES.plays(&mut twins, "w f 9H");
        assert_eq!(
            twins.foundations[4..6],
            [Some(card("9H")), Some(card("9H"))]
        );
        // In the late position the 9H fits only the foundation showing 8H.
        let mut late = RULES.board(LATE);
        RULES.plays(&mut late, "w f 9H");
        assert_eq!(late.foundations[4..6], [Some(card("9H")), Some(card("9H"))]);
        RULES.plays(&mut late, "t7 f TH");
        assert_eq!(late.foundations[4..6], [Some(card("TH")), Some(card("9H"))]);
    }

    #[test]
    fn legal_moves_of_a_late_position_by_hand() {
        // Home: QD on JD, TH on 9H, KS on QS, the waste's 9H on 8H. Any suit
        // builds: the Jacks on QD, QD on both Kings and on KD, TH on both
        // Jacks, the waste's 9H on TH. Only the waste fills the empty t6.
        RULES.moves_are(
            LATE,
            "t1 f QD, t7 f TH, t5 f KS, w f 9H, t3 t1 JH, t4 t1 JH, t1 t2 QD, t1 t5 QD, \
             t1 t8 QD, t7 t3 TH, t7 t4 TH, w t7 9H, w t6 9H, draw KH",
        );
        let drawn = RULES.moves(&RULES.board(&DEAL.replace("Stock:", "Waste:")));
        assert!(drawn.contains(&"redeal".into()));
        assert!(!drawn.iter().any(|m| m.starts_with("draw")));
    }

    #[test]
    fn exactly_the_legal_moves_play() {
        let drawn = DEAL.replace("Stock:", "Waste:");
        let twins = LATE.replace("9H 8H", "8H 8H").replace("\n:\n", "\n: 9H\n");
        for text in [DEAL, LATE, &drawn, &twins] {
            RULES.exactly_the_legal_moves_play(text, 10, 2);
        }
    }

    #[test]
    fn all_kings_home_is_won() {
        let text = format!("Foundations: KC KC KD KD KH KH KS KS\n{}", ":\n".repeat(8));
        RULES.won(&text, 104);
        // One King short is not won.
        let short = RULES.board(
            &text
                .replace("KS KS\n", "KS QS\n")
                .replacen(":\n", ": KS\n", 1),
        );
        assert!(!RowsOfFourRules.is_won(&short));
        assert_eq!(RowsOfFourRules.cards_home(&short), 103);
    }
}
