//! Alexandria, straight from RULES.md.
//!
//! A position is thirteen tableau piles, twelve foundations, a stock and a
//! waste, from three decks: every card three times. A pile's bottom cards
//! may lie face down (left of `|` in the board text); only its face-up
//! cards on top play, and a face-down card that becomes the top turns face
//! up at once. Tableau piles build down in alternating colour, and any
//! face-up run on top of a pile built down in alternating colour moves as
//! a group onto a card one rank above its deepest card, of the other
//! colour; an empty pile takes only a King or a run headed by a King. The
//! stock is drawn one card at a time and never turned over. The one-card
//! moves, foundations, stock and waste it shares with other games are in
//! [`super::layout`], [`super::foundations`] and [`super::stock`]; what is
//! its own is here: face-down cards and runs.

use crate::board::{Board, BoardError, Pile};
use crate::card::{Card, Rank};
use crate::notation::{Move, Place};

use super::Rules;
use super::layout::{Layout, down_in_alternating_colour};

pub struct AlexandriaRules;

/// "Three decks", "13 tableau piles", "12 foundations" and "no redeal":
/// the reference keeps its own numbers from RULES.md rather than the
/// engine's.
const ALEXANDRIA: Layout = Layout {
    name: "Alexandria",
    decks: 3,
    piles: 13,
    foundations: 12,
    reserve: 0,
    stock: true,
    redeals: 0,
    builds: goes_on,
};

/// "Build down in alternating colour", and "an empty pile takes only a
/// King, or a run headed by a King": `card` is the one that lands, the
/// deepest card of a run.
fn goes_on(_from: Place, top: Option<Card>, card: Card) -> Result<(), String> {
    match top {
        None if card.rank() == Rank::KING => Ok(()),
        None => Err(format!(
            "{card} cannot go to an empty pile: an empty pile takes only a King or a run \
             headed by a King"
        )),
        Some(top) => down_in_alternating_colour(top, card),
    }
}

/// Why `cards`, bottom to top, are not a run built down in alternating
/// colour, if they are not.
fn not_a_run(cards: &[Card]) -> Option<String> {
    let listed: Vec<String> = cards.iter().map(Card::to_string).collect();
    cards.windows(2).find_map(|pair| {
        let (below, above) = (pair[0], pair[1]);
        down_in_alternating_colour(below, above).is_err().then(|| {
            format!(
                "{} is not a run: {above} does not go on {below} (down in alternating colour)",
                listed.join(" ")
            )
        })
    })
}

/// How many cards on top of a pile form a run: its face-up cards from the
/// top down as long as each lies on one a rank higher of the other colour.
fn run_len(pile: &Pile) -> usize {
    let up = &pile.up;
    (1..=up.len())
        .take_while(|&k| not_a_run(&up[up.len() - k..]).is_none())
        .last()
        .unwrap_or(0)
}

/// "A face-down card that becomes the top of its pile turns face up at
/// once."
fn turn_up(board: &mut Board) {
    for pile in &mut board.piles {
        if pile.up.is_empty()
            && let Some(card) = pile.down.pop()
        {
            pile.up.push(card);
        }
    }
}

/// Moves the run of `count` cards headed by `card` (its deepest card) from
/// pile `i` to pile `j`, or says why it may not.
fn move_run(board: &mut Board, i: u8, j: u8, card: Card, count: u8) -> Result<(), String> {
    let (from, to) = (Place::Tableau(i), Place::Tableau(j));
    if i == j {
        return Err(format!("{card} cannot move onto its own pile {to}"));
    }
    let count = usize::from(count);
    let source = (board.piles.get(i as usize)).ok_or_else(|| format!("there is no pile {from}"))?;
    let target = (board.piles.get(j as usize)).ok_or_else(|| format!("there is no pile {to}"))?;
    let up = &source.up;
    if up.is_empty() {
        return Err(format!("{from} is empty"));
    }
    if count > up.len() {
        return Err(format!(
            "{from} has {} face-up card{}: a run of {count} cannot take face-down cards",
            up.len(),
            if up.len() == 1 { "" } else { "s" }
        ));
    }
    let run = &up[up.len() - count..];
    if run[0] != card {
        return Err(match count {
            1 => format!("the top card of {from} is {}, not {card}", run[0]),
            _ => format!(
                "the run of {count} on {from} is headed by {}, not {card}",
                run[0]
            ),
        });
    }
    if let Some(why) = not_a_run(run) {
        return Err(why);
    }
    goes_on(from, target.top(), card)?;
    let run = run.to_vec();
    let source = &mut board.piles[i as usize];
    source.up.truncate(source.up.len() - count);
    board.piles[j as usize].up.extend(run);
    Ok(())
}

impl Rules for AlexandriaRules {
    /// Checks that a board is an Alexandria position: 13 piles (any
    /// heights) whose face-down cards, if any, lie under at least one
    /// face-up card; 12 foundations with at most three of a suit; a stock
    /// and a waste (both optional); no redeal (a `Redeals:` line may only
    /// say 0); and each of the 52 cards exactly three times, the cards
    /// under a foundation's top card counted as home: a foundation showing
    /// 5H holds AH to 5H. Without a `Foundations:` line all twelve are
    /// empty. Face-down cards are cards like the others for the count: the
    /// solver knows them.
    fn validate(&self, board: &Board) -> Result<(), BoardError> {
        for (i, pile) in board.piles.iter().enumerate() {
            if !pile.down.is_empty() && pile.up.is_empty() {
                return Err(BoardError::at(
                    board.pile_line(i),
                    format!(
                        "pile {} has face-down cards and none face up: the top card of a \
                         pile is always face up (write at least one card after '|')",
                        i + 1
                    ),
                ));
            }
        }
        // The shared check refuses face-down cards, which other games do not
        // have; here they count as any card of their pile.
        let mut open = board.clone();
        for pile in &mut open.piles {
            *pile = Pile::face_up(pile.cards().collect());
        }
        ALEXANDRIA.validate(&open)
    }

    /// Every run on top of a pile (its top card alone, and each longer run
    /// down to the deepest face-up card that still continues it) to every
    /// other pile it fits; every tableau top and the waste's top card to its
    /// foundation; the waste's top card to every pile it fits; the draw.
    fn legal_moves(&self, board: &Board) -> Vec<Move> {
        let mut moves: Vec<Move> = (ALEXANDRIA.legal_moves(board).into_iter())
            .filter(|mv| {
                !matches!(
                    mv,
                    Move::Play {
                        from: Place::Tableau(_),
                        to: Place::Tableau(_),
                        ..
                    }
                )
            })
            .collect();
        for (i, pile) in board.piles.iter().enumerate() {
            for count in 1..=run_len(pile) {
                let card = pile.up[pile.up.len() - count];
                for (j, target) in board.piles.iter().enumerate() {
                    if i != j && goes_on(Place::Tableau(i as u8), target.top(), card).is_ok() {
                        moves.push(Move::Play {
                            from: Place::Tableau(i as u8),
                            to: Place::Tableau(j as u8),
                            card,
                            count: count as u8,
                        });
                    }
                }
            }
        }
        moves
    }

    /// Plays on a copy, so a refused move leaves the board as it was, and
    /// turns up a face-down card the move leaves on top.
    fn play(&self, board: &mut Board, mv: &Move) -> Result<(), String> {
        let mut next = board.clone();
        match *mv {
            Move::Redeal => {
                return Err(
                    "Alexandria has no redeal: once the stock is empty, the waste is only \
                     played off its top"
                        .into(),
                );
            }
            Move::Play {
                from: Place::Tableau(i),
                to: Place::Tableau(j),
                card,
                count,
            } => move_run(&mut next, i, j, card, count)?,
            Move::Play { count, .. } if count > 1 => {
                return Err(format!(
                    "only a run from one tableau pile to another moves more than one card \
                     (x{count})"
                ));
            }
            _ => ALEXANDRIA.play(&mut next, mv)?,
        }
        turn_up(&mut next);
        *board = next;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::test_support::{Checked, cards};

    const RULES: Checked<AlexandriaRules> = Checked(AlexandriaRules);

    /// Late in a game: 150 cards home, one in the stock, one in the waste,
    /// two piles with a face-down card. Lines 1 to 3 are the foundations,
    /// stock and waste; lines 4 to 16 the piles.
    const LATE: &str = "\
Foundations: KC KC KC KD KD QD KH KH JH KS KS TS
Stock: QH
Waste: KD
: JS | KS
: QS | KH
:
:
:
:
:
:
:
:
:
:
:
";

    /// A hand-made tableau (the stock is filled up with every card it
    /// leaves out, see [`filled`]): t1 holds the run 9C 8H 7S on a
    /// face-down 2D, t4 the run QS JD on JH on a face-down QC; t5 and t10
    /// to t13 are empty. Line 3 is t1.
    const RUNS: &str = "\
Waste: KD
Stock: KC
: 2D | 9C 8H 7S
: QD | TD
: 8D
: QC | JH QS JD
:
: KH
: KS
: KS 8S
: 9S
:
:
:
:
";

    /// `text` with every card it lacks (three copies of each card, those
    /// under a foundation's top counted) added at the end of the stock, in
    /// the ordered pack's order, and validated.
    fn filled(text: &str) -> Board {
        let mut board = Board::parse(text).unwrap();
        let mut count = [0u8; Card::COUNT];
        for top in board.foundations.iter().flatten() {
            for rank in 1..=top.rank().get() {
                count[Card::new(Rank::new(rank).unwrap(), top.suit()).index()] += 1;
            }
        }
        let pile_cards = board.piles.iter().flat_map(|p| p.cards());
        let talon = board.stock.iter().chain(&board.waste).flatten().copied();
        for card in pile_cards.chain(talon) {
            count[card.index()] += 1;
        }
        let stock = board.stock.get_or_insert_default();
        for card in Card::all() {
            for _ in count[card.index()]..3 {
                stock.push(card);
            }
        }
        AlexandriaRules.validate(&board).unwrap();
        board
    }

    #[test]
    fn a_dealt_board_and_a_late_one_validate() {
        let deal = crate::deal::deal(&crate::games::alexandria::LAYOUT, 1);
        AlexandriaRules.validate(&deal).unwrap();
        assert_eq!(deal.piles.len(), 13);
        assert_eq!(deal.stock.as_ref().map(Vec::len), Some(107));
        assert!(deal.piles.iter().all(|p| p.up.len() == 1));
        assert_eq!(deal.piles[6].down.len(), 6);
        assert_eq!(AlexandriaRules.cards_home(&deal), 0);
        RULES.holds(LATE, 150);
        RULES.board(&format!("{LATE}Redeals: 0\n"));
        // Without a Foundations line every card is in play.
        filled(&LATE.replace("Foundations: KC KC KC KD KD QD KH KH JH KS KS TS\n", ""));
    }

    #[test]
    fn bad_boards_name_the_line() {
        RULES.refuses(LATE, ":\n", "", None, "12 tableau piles: Alexandria has 13");
        RULES.refuses(
            LATE,
            ": QS | KH\n",
            ": QS | KH\n:\n",
            Some(17),
            "14 tableau piles: Alexandria has 13",
        );
        RULES.refuses(
            LATE,
            ": QS | KH",
            ": QS KH |",
            Some(5),
            "pile 2 has face-down cards and none face up",
        );
        RULES.refuses(
            LATE,
            ": QS | KH",
            ": QS | KH KH",
            Some(5),
            "KH appears more than 3 times",
        );
        RULES.refuses(
            LATE,
            ": QS | KH",
            ": QS | KH JH",
            Some(5),
            "JH is already home 3 times: its foundations show KH, KH and JH",
        );
        RULES.refuses(
            LATE,
            "Foundations: KC KC KC KD KD QD KH KH JH KS KS TS",
            "Foundations: KC KC KC KD KD QD KH KH JH KS KS TS KC",
            Some(1),
            "13 foundations: Alexandria has 12",
        );
        RULES.refuses(
            LATE,
            "Foundations: KC KC KC KD KD QD KH KH JH KS KS TS",
            "Foundations: KC KC KC KD KD QD KH KH JH KS KS KC",
            Some(1),
            "foundations of one suit",
        );
        RULES.refuses(
            LATE,
            "Waste: KD\n",
            "Waste: KD\nRedeals: 1\n",
            Some(4),
            "Redeals: 1, but Alexandria allows at most 0 redeals",
        );
        RULES.refuses(LATE, "Waste: KD", "Waste: -", None, "card KD is missing");
        RULES.refuses(
            LATE,
            "Waste: KD",
            "Waste: KD KD",
            Some(3),
            "KD appears more than 3 times",
        );
        RULES.refuses(
            LATE,
            "Waste: KD\n",
            "Waste: KD\nReserve: 5H\n",
            Some(4),
            "Alexandria has no reserve",
        );
    }

    #[test]
    fn a_face_down_card_turns_up_when_it_becomes_the_top() {
        let mut late = RULES.board(LATE);
        RULES.plays(&mut late, "t1 t3 KS");
        assert_eq!(late.piles[0], Pile::face_up(cards("JS")));
        assert_eq!(late.piles[2], Pile::face_up(cards("KS")));
        RULES.refused(&late, "t2 t1 KH", "KH does not go on JS");
        RULES.plays(&mut late, "t2 t4 KH");
        assert_eq!(late.piles[1], Pile::face_up(cards("QS")));
        RULES.plays(&mut late, "t2 t4 QS");
        assert!(late.piles[1].is_empty());
        RULES.plays(&mut late, "draw QH");
        RULES.plays(&mut late, "w t3 QH");
        RULES.plays(&mut late, "t1 t3 JS");
        assert_eq!(late.piles[2].up, cards("KS QH JS"));
        // Home: the KD from the waste, then nothing more until the JS
        // leaves the QH.
        RULES.plays(&mut late, "w f KD");
        RULES.refused(&late, "t3 f QH", "the top card of t3 is JS, not QH");
        for text in ["t3 f JS", "t3 f QH", "t4 f QS", "t3 f KS", "t4 f KH"] {
            RULES.plays(&mut late, text);
        }
        assert!(AlexandriaRules.is_won(&late));
    }

    #[test]
    fn runs_move_whole_or_split_and_only_as_runs() {
        let start = filled(RUNS);
        let mut whole = start.clone();
        RULES.plays(&mut whole, "t1 t2 9C x3");
        assert_eq!(whole.piles[1].up, cards("TD 9C 8H 7S"));
        assert_eq!(whole.piles[0], Pile::face_up(cards("2D")));
        let mut split = start.clone();
        RULES.plays(&mut split, "t1 t9 8H x2");
        assert_eq!(split.piles[8].up, cards("9S 8H 7S"));
        assert_eq!(split.piles[0].up, cards("9C"));
        RULES.plays(&mut split, "t4 t6 QS x2");
        assert_eq!(split.piles[5].up, cards("KH QS JD"));
        assert_eq!(split.piles[3].up, cards("JH"));
        RULES.refuses_each(
            &start,
            "t1 t2 9C x2: the run of 2 on t1 is headed by 8H, not 9C
             t1 t2 9C x4: t1 has 3 face-up cards
             t4 t2 JH x3: JH QS JD is not a run: QS does not go on JH
             t1 t5 9C x3: an empty pile takes only a King or a run headed by a King
             t3 t5 8D: an empty pile takes only a King
             t1 t4 8H x2: 8H does not go on JD
             t14 t1 7S: there is no pile t14
             t5 t1 7S: t5 is empty
             w t5 KD x2: only a run from one tableau pile to another
             redeal: Alexandria has no redeal
             t1 f 7S: 7S cannot go home",
        );
        RULES.refuses_what_no_game_allows(&start, 1, "8H");
        RULES.plays(&mut start.clone(), "w t5 KD");
        RULES.plays(&mut start.clone(), "t6 t5 KH");
        let mut drawn = start.clone();
        RULES.plays(&mut drawn, "draw KC");
        assert_eq!(drawn.waste, Some(cards("KD KC")));
        RULES.refused(&drawn, "draw KC", "the stock's top card is AC, not KC");
    }

    #[test]
    fn legal_moves_list_every_run_and_play() {
        let start = filled(RUNS);
        let mut moves: Vec<String> = AlexandriaRules
            .legal_moves(&start)
            .iter()
            .map(Move::to_string)
            .collect();
        moves.sort();
        let mut expected: Vec<String> = [
            "draw KC",
            "t1 t3 7S",
            "t1 t9 8H x2",
            "t1 t2 9C x3",
            "t3 t9 8D",
            "t4 t6 QS x2",
            "t9 t2 9S",
        ]
        .map(String::from)
        .to_vec();
        for from in ["t6 KH", "t7 KS", "w KD"] {
            let (from, card) = from.split_once(' ').unwrap();
            for to in [5, 10, 11, 12, 13] {
                expected.push(format!("{from} t{to} {card}"));
            }
        }
        expected.sort();
        assert_eq!(moves, expected);
        for text in &moves {
            RULES.plays(&mut start.clone(), text);
        }
    }
}
