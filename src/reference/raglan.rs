//! Raglan, straight from RULES.md.
//!
//! A position is nine tableau piles, six reserve places and four foundations,
//! every card face up. Play moves one card at a time: a tableau top or any
//! reserve card goes home or onto a tableau pile, and a tableau top goes onto
//! another pile. Nothing ever moves onto the reserve or off a foundation, and
//! there is no stock. Its moves and foundations are those it shares with
//! other games: see [`super::layout`] and [`super::foundations`].

use crate::board::{Board, BoardError, Part};
use crate::notation::Move;

use super::Rules;
use super::check_pile_count;
use super::foundations::CardCount;
use super::layout::{Layout, alternating_or_any_to_empty};

pub struct RaglanRules;

/// "9 tableau piles", "Reserve: 6 cards", one foundation a suit and no
/// stock: the reference keeps its own numbers from RULES.md rather than
/// the engine's.
const RAGLAN: Layout = Layout {
    name: "Raglan",
    decks: 1,
    piles: 9,
    foundations: 4,
    reserve: 6,
    stock: false,
    redeals: 0,
    builds: alternating_or_any_to_empty,
};

impl Rules for RaglanRules {
    /// Checks that a board is a Raglan position: 9 piles of face-up cards
    /// (any heights), 6 reserve places, 4 foundations of different suits,
    /// and each of the 52 cards once, the cards under a foundation's top card
    /// counted as home. The `Foundations:` line is optional ("'-' empty"): a
    /// board without one, or with one that lists nothing (as
    /// [`Board::to_text`] writes such a board back), has four empty
    /// foundations, and then the Aces must be on the tableau or the reserve.
    fn validate(&self, board: &Board) -> Result<(), BoardError> {
        let (lines, places) = (&board.lines, RAGLAN.reserve);
        board.refuse("Raglan", &[Part::Stock, Part::Waste, Part::Redeals])?;
        RAGLAN.check_foundation_count(board)?;
        if let Some(crowded) = RAGLAN.crowded_suit(board) {
            return Err(BoardError::at(lines.foundations, crowded));
        }
        let Some(reserve) = &board.reserve else {
            return Err(BoardError::whole(format!(
                "Raglan needs a 'Reserve:' line of {places} places ('-' for a played one)"
            )));
        };
        if reserve.len() != places {
            return Err(BoardError::at(
                lines.reserve,
                format!(
                    "{} reserve places: Raglan has {places} (a played one written '-')",
                    reserve.len()
                ),
            ));
        }
        check_pile_count(board, "Raglan", RAGLAN.piles)?;
        let mut count = CardCount::new(board, RAGLAN.decks)?;
        for &card in reserve.iter().flatten() {
            count.add(card, lines.reserve)?;
        }
        count.add_piles("Raglan")?;
        count.finish()
    }

    /// Every tableau top and reserve card, to its foundation and to every
    /// other pile it fits.
    fn legal_moves(&self, board: &Board) -> Vec<Move> {
        RAGLAN.legal_moves(board)
    }

    /// Plays on a copy, so a refused move leaves the board as it was.
    fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        RAGLAN.play(board, mv)
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
        RULES.holds(DEAL, 4);
        RULES.holds(LATE, 12 + 9 + 9 + 11);
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
        RULES.refuses_what_no_game_allows(&deal, 9, "6S");
        RULES.refuses_each(
            &deal,
            "t5 t3 9H: 9H does not go on TD: a tableau card goes on one a rank higher
             t9 r1 7S: nothing moves onto the reserve
             t1 t2 7S x2: Raglan moves one card at a time (x2)
             t9 f 7S: 7S does not go on AS
             draw 2C: no stock
             t9 w 7S: Raglan has no waste
             r1 t6 QS: reserve place r1 holds 8S, not QS",
        );
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
        // Home: TD, TH, QS. QS onto both red Kings; both red Jacks onto QS;
        // every one of the nine available cards onto the empty t9.
        RULES.moves_are(
            LATE,
            "t8 f TD, r2 f TH, t7 f QS, t7 t4 QS, t7 t5 QS, t3 t7 JD, t6 t7 JH, t1 t9 QD, \
             t2 t9 QH, t3 t9 JD, t4 t9 KD, t5 t9 KH, t6 t9 JH, t7 t9 QS, t8 t9 TD, r2 t9 TH",
        );
    }

    #[test]
    fn exactly_the_legal_moves_play() {
        for text in [DEAL, LATE] {
            RULES.exactly_the_legal_moves_play(text, 10, 7);
        }
    }

    #[test]
    fn all_kings_home_is_won() {
        let text = format!(
            "Foundations: KC KD KH KS\nReserve: - - - - - -\n{}",
            ":\n".repeat(9)
        );
        RULES.won(&text, 52);
    }
}
