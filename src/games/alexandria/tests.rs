use std::collections::HashSet;

use super::moves::{homeable, onto};
use super::*;
use crate::card::{Rank, Suit};
use crate::games::testing::{
    Picks, bare_deal, board, card, check_against_the_reference, dealt, foundations_alike,
    key_ignores, keys_differ, keys_match_positions, narrowed_are_full, notation_of,
    ranked_are_ordered, verdicts_agree,
};
use crate::reference::{Replay, replay};
use crate::search::{Limits, Tables, Tactic, Verdict, solve_alone};

mod dead_end;

fn deal(n: u64) -> Alexandria {
    dealt(&LAYOUT, n)
}

/// The reference's legal moves of `board` that are not draws, as text:
/// what the engine's moves, their draws left out, must cover.
fn reference_plays(board: &Board) -> HashSet<String> {
    (AlexandriaRules.legal_moves(board).iter())
        .filter(|mv| !matches!(mv, Move::Draw(_)))
        .map(Move::to_string)
        .collect()
}

/// The plays of `listed` that need no draw, as text, are exactly the
/// reference's legal moves of `reference` but for those the pruning
/// leaves out (all empty piles but the first; a whole King-led pile to an
/// empty one), unless a safe move home is offered alone.
fn plays_are_the_references(listed: &[(Step, Vec<Move>)], reference: &Board) {
    if let [(step, _)] = listed
        && step.to == HOME
    {
        return;
    }
    let engine: HashSet<String> = (listed.iter())
        .filter(|(_, notation)| notation.len() == 1)
        .map(|(_, notation)| notation[0].to_string())
        .collect();
    let first_empty = reference.piles.iter().position(Pile::is_empty);
    let kept = |text: &String| {
        let Ok(Move::Play {
            from,
            to: Place::Tableau(to),
            count,
            ..
        }) = text.parse()
        else {
            return true;
        };
        let whole = matches!(from, Place::Tableau(p) if reference.piles[p as usize].len() == count as usize);
        !reference.piles[to as usize].is_empty() || (Some(to as usize) == first_empty && !whole)
    };
    let expected: HashSet<String> = reference_plays(reference)
        .into_iter()
        .filter(kept)
        .collect();
    assert_eq!(engine, expected, "in\n{}", reference.to_text());
}

/// From `board`, random play along engine moves checked against the
/// reference rules (see [`check_against_the_reference`] and
/// [`plays_are_the_references`]). Returns the positions seen, and the run
/// moves (two cards or more) and moves to an empty pile among their moves.
fn check_play(board: &Board, seed: u64, steps: usize) -> (usize, usize, usize) {
    let (mut runs, mut to_empty) = (0, 0);
    let visit = |state: &State, listed: &[(Step, Vec<Move>)], reference: &Board| {
        plays_are_the_references(listed, reference);
        runs += listed.iter().filter(|(step, _)| step.count > 1).count();
        to_empty += (listed.iter())
            .filter(|(step, _)| step.to != HOME && state.piles[step.to as usize].is_empty())
            .count();
    };
    let positions =
        check_against_the_reference::<Alexandria>(&AlexandriaRules, board, seed, steps, visit);
    (positions, runs, to_empty)
}

#[test]
fn moves_match_the_reference_along_random_play() {
    let (mut positions, mut runs, mut to_empty) = (0, 0, 0);
    for n in 1..=30 {
        let seen = check_play(&crate::deal::deal(&LAYOUT, n), n, 300);
        positions += seen.0;
        runs += seen.1;
        to_empty += seen.2;
    }
    assert!(
        positions > 5000 && runs > 10000 && to_empty > 300,
        "only {positions} positions, {runs} run moves, {to_empty} to an empty pile"
    );
    check_play(&bare_deal(&LAYOUT, 7, 0), 7, 200);
}

/// Along random play from numbered deals, each narrowed walk offers
/// only moves the full search offers: no more rearranging moves in a
/// row than its level allows, no stock card past the first few that
/// have a move, and, where it is greedy, a free card that can go home
/// alone (but for a pile top kept for the stock).
#[test]
fn narrowed_moves_are_some_of_the_full_ones() {
    let check = |game: &Alexandria, state: &State, full: &[Step], level: usize, moves: &[Step]| {
        let narrowed = &NARROWED[level];
        for step in moves {
            if let Some(p) = step.pile()
                && step.to != HOME
                && state.rearranged >= narrowed.rearranging
            {
                assert_eq!(step.count as u32, state.piles[p].movable());
            }
            if step.from >= TALON + state.cursor {
                let playable = (TALON + state.cursor..=step.from)
                    .filter(|&from| full.iter().any(|s| s.from == from))
                    .count();
                assert!(playable as u32 <= narrowed.window);
            }
        }
        let waste_top = state.waste_top().map(|t| TALON + t);
        let kept = game.kept(state, homeable(&state.home), &onto(state));
        let homeward = (full.iter()).any(|step| match step.pile() {
            Some(p) => step.to == HOME && kept >> p & 1 == 0,
            None => step.to == HOME && Some(step.from) == waste_top,
        });
        if narrowed.greedy && homeward {
            assert_eq!(moves.len(), 1);
            assert_eq!(moves[0].to, HOME);
        }
    };
    let left_out = narrowed_are_full((1..=20).map(deal), 200, 2, NARROWED.len(), check);
    assert!(left_out.iter().all(|&n| n > 1000), "left out {left_out:?}");
}

/// Along play from numbered deals, two positions have the same key
/// exactly when they are the same but for the order of the piles and of
/// the foundations.
#[test]
fn keys_tell_positions_apart_exactly() {
    let merged = keys_match_positions((1..=20).map(deal), 300, true, foundations_alike);
    assert!(merged > 100, "only {merged} positions met twice");
}

/// The board `text`, with the cards it lacks put at the stock's end
/// (Aces first, in the order of the pack).
fn completed(text: &str) -> Board {
    let mut start = board(text);
    let missing = {
        let mut count = [0u8; Card::COUNT];
        for top in start.foundations.iter().flatten() {
            for rank in 1..=top.rank().get() {
                count[Card::new(Rank::new(rank).unwrap(), top.suit()).index()] += 1;
            }
        }
        let talon = start.stock.iter().chain(&start.waste).flatten().copied();
        for card in start.piles.iter().flat_map(|p| p.cards()).chain(talon) {
            count[card.index()] += 1;
        }
        Card::all()
            .flat_map(|c| std::iter::repeat_n(c, 3 - count[c.index()] as usize))
            .collect::<Vec<Card>>()
    };
    start.stock.as_mut().unwrap().extend(missing);
    start
}

/// Narrowed, the 8S would go home at once, the only move offered; but
/// the stock's next card, the 7H, fits on it and on nothing else (no
/// pile top fits on another), so the 8S is kept for it: its move home
/// is offered, last, after the 7H's and an AH's. With a second black 8
/// for the 7H, or the 7H past the stock's first [`KEPT_FOR`] cards,
/// the 8S goes home at once again.
#[test]
fn a_narrowed_search_keeps_a_pile_top_for_the_next_stock_cards() {
    let text = |stock: &str, second: &str| {
        format!(
            "Foundations: 7S KC KC KC KD KD KD - - - - -\nStock: {stock}\n\
             : 8S\n: {second}\n: 2H\n: 4H\n: 6H\n: TH\n: QH\n: 2S\n: 4S\n: 6S\n\
             : TS\n: QS\n: 8H\n"
        )
    };
    let level_2 = Ask {
        narrowing: 2,
        ordered: true,
    };
    let plays = |board: &Board| -> Vec<String> {
        let game = Alexandria::new(board).unwrap();
        let state = game.initial();
        let mut moves = Vec::new();
        game.moves(&state, None, level_2, &mut moves);
        let play = |&mv| notation_of(&game, &state, mv).last().unwrap().to_string();
        moves.iter().map(play).collect()
    };
    let kept = plays(&completed(&text("7H", "QH")));
    assert!(kept.len() > 2, "{kept:?}");
    assert_eq!(kept[0], "w t1 7H");
    assert_eq!(kept.last().unwrap(), "t1 f 8S");
    assert_eq!(plays(&completed(&text("7H", "8S"))), ["t1 f 8S"]);
    assert_eq!(
        plays(&completed(&text(
            "JS JS JS JH JH JH KS KS KS KH KH KH TS TS TH TH 7H",
            "QH"
        ))),
        ["t1 f 8S"]
    );
}

/// A pile top is kept for the waste's cards to come as for the
/// stock's: the 7H second from the waste's top fits only on the 8S,
/// so the 8S is not sent home at once; with the 7H ninth from the top,
/// past the first [`KEPT_FOR_WASTE`], or not in the waste, it is. (The
/// stock starts with 16 cards that fit nowhere, so that the stock's
/// 7Hs are past the first [`KEPT_FOR`].)
#[test]
fn a_narrowed_search_keeps_a_pile_top_for_the_waste_cards_to_come() {
    let text = |waste: &str| {
        format!(
            "Foundations: 7S KC KC KC KD KD KD - - - - -\nWaste: {waste}\n\
             Stock: JS JS JS JH JH JH KS KS KS KH KH KH TS TS TH TH\n\
             : 8S\n: QH\n: 2H\n: 4H\n: 6H\n: TH\n: QH\n: 2S\n: 4S\n: 6S\n\
             : TS\n: QS\n: 8H\n"
        )
    };
    let level_2 = Ask {
        narrowing: 2,
        ordered: true,
    };
    let plays = |waste: &str| -> Vec<String> {
        let game = Alexandria::new(&completed(&text(waste))).unwrap();
        let state = game.initial();
        let mut moves = Vec::new();
        game.moves(&state, None, level_2, &mut moves);
        let play = |&mv| notation_of(&game, &state, mv).last().unwrap().to_string();
        moves.iter().map(play).collect()
    };
    let kept = plays("7H QS");
    assert!(kept.len() > 1, "{kept:?}");
    assert_eq!(kept.last().unwrap(), "t1 f 8S");
    assert_eq!(plays("QS"), ["t1 f 8S"]);
    assert_eq!(plays("7H 9H 9H 9H 5H 5H 5H 3H QS"), ["t1 f 8S"]);
    let kept = plays("7H 9H 9H 9H 5H 5H 5H QS");
    assert_eq!(kept.last().unwrap(), "t1 f 8S");
    assert!(kept.len() > 1, "{kept:?}");
}

/// The same position with its piles in another order and the
/// foundations of a suit swapped has the same key; a change to a pile,
/// the talon or the cursor changes it.
#[test]
fn the_key_ignores_the_order_of_piles_and_of_foundations() {
    let text = "\
Foundations: 5C 3C - 2D - - 7H 7H 7H AS AS AS
Stock: 4C 4C 5C 6C 6C 6C
Waste: 3D 4D
: 2C | 3C
: KD | 4D
:
: 7C 6D 5C 4D 3S
:
:
:
:
:
:
:
:
: 2S
";
    let start = completed(text);
    let game = Alexandria::new(&start).unwrap();
    let state = game.initial();
    let key = key_ignores(&game, &state, |swapped| {
        // The foundations of clubs, and of hearts, in another order.
        for (a, b) in [(0, 1), (6, 8), (2, 4)] {
            swapped.home.0.swap(a, b);
        }
        swapped.piles.swap(0, 6);
        swapped.tops.swap(0, 6);
        swapped.piles.swap(3, 12);
        swapped.tops.swap(3, 12);
    });
    // The run 6D 5C 4D 3S on the 7C: its top card moved off and back
    // gives the first code again.
    let off = game.play(
        &state,
        Step {
            from: 3,
            count: 1,
            to: 1,
        },
    );
    assert_eq!(off.tops[1], card("3S").index() as u8);
    let back = game.play(
        &off,
        Step {
            from: 1,
            count: 1,
            to: 3,
        },
    );
    assert_eq!(back.piles, state.piles);
    assert_eq!(state.piles[3].movable(), 5);
    let drawn = State { cursor: 1, ..state };
    let played = State {
        talon: state.talon & !(1 << 5),
        ..state
    };
    keys_differ(&game, key, [off, drawn, played]);
}

/// Numbered deal `n` late in a game: each suit's three foundations
/// complete or, half the time, at a rank picked at random from `lowest`
/// up; the cards left dealt again in the deal's order, one to each pile
/// (a pile whose first card is not a King, half the time two or three,
/// all but the top face down, so that piles seldom empty and Kings have
/// few empty piles to wander between), the rest to the stock, some of
/// it drawn to the waste.
fn late_position(n: u64, lowest: u8) -> Board {
    let mut picks = Picks::new(n);
    let mut board = crate::deal::deal(&LAYOUT, n);
    let mut left = [3u8; Card::COUNT];
    let mut foundations = Vec::new();
    for suit in Suit::ALL {
        for _ in 0..3 {
            let height = match picks.below(2) {
                0 => 13,
                _ => lowest + picks.below((13 - lowest) as usize) as u8,
            };
            for rank in 1..=height {
                left[Card::new(Rank::new(rank).unwrap(), suit).index()] -= 1;
            }
            foundations.push(Rank::new(height).map(|rank| Card::new(rank, suit)));
        }
    }
    let mut keep = |card: &Card| {
        let kept = left[card.index()] > 0;
        left[card.index()] -= kept as u8;
        kept
    };
    let dealt: Vec<Card> = board.piles.iter().flat_map(|p| p.cards()).collect();
    let stock = board.stock.take().unwrap();
    let mut cards = dealt
        .iter()
        .chain(&stock)
        .filter(|c| keep(c))
        .copied()
        .peekable();
    let mut piles = vec![Pile::default(); PILES];
    for pile in piles.iter_mut() {
        let height = match cards.peek().map(|c| c.rank()) {
            Some(Rank::KING) => 1,
            _ => 1 + picks.below(2) * picks.below(4),
        };
        let cards: Vec<Card> = cards.by_ref().take(height).collect();
        let down = cards.len().saturating_sub(1);
        *pile = Pile {
            down: cards[..down].to_vec(),
            up: cards[down..].to_vec(),
        };
    }
    let mut stock: Vec<Card> = cards.collect();
    // Two times in three the whole stock is drawn: with no redeal, the
    // waste's order then decides more games.
    let drawn = match picks.below(3) {
        0 | 1 => stock.len(),
        _ => picks.below(stock.len() + 1),
    };
    let waste: Vec<Card> = stock.drain(..drawn).collect();
    board.piles = piles;
    board.stock = Some(stock);
    board.waste = Some(waste);
    board.foundations = foundations;
    board
}

/// [`crate::reference::plain_search`] with the reference rules, meeting
/// once the positions alike up to the order of their piles (see
/// [`crate::reference::in_pile_order`]).
fn plain_search_up_to_pile_order(board: &Board, max_positions: usize) -> Option<bool> {
    use crate::reference::{in_pile_order, plain_search_by};
    plain_search_by(&AlexandriaRules, board, max_positions, in_pile_order)
}

/// Late positions of numbered deals: the engine's verdict (with its
/// pruning: safe moves home, one empty pile, no whole King-led pile to
/// an empty one, the dead-end test) is the plain search's with the reference rules, won
/// and lost alike, and its wins replay.
#[test]
fn verdicts_of_late_positions_agree_with_a_plain_search() {
    let boards = (1..=300).map(|n| late_position(n, 7));
    let (won, lost) = verdicts_agree::<Alexandria>(&AlexandriaRules, boards, 1 << 24, |board| {
        plain_search_up_to_pile_order(board, 30_000)
    });
    // 281 and 11 of 1..=300 when written.
    assert!(won > 250 && lost > 8, "won {won}, lost {lost}");
}

/// A beam led by level 2's rollouts wins deals 2 and 5 in half a
/// million positions, and its lines, partly played by the rollout that
/// won, replay to a win.
#[test]
fn a_beam_led_by_rollouts_wins_and_its_lines_replay() {
    let limits = Limits {
        max_nodes: Some(500_000),
        ..Limits::default()
    };
    let mut tables = Tables::new(1 << 28);
    for n in [2, 5] {
        let deal = crate::deal::deal(&LAYOUT, n);
        let game = Alexandria::new(&deal).unwrap();
        let report = solve_alone(&game, &limits, &mut tables, Tactic::Beam(2));
        assert_eq!(report.verdict, Verdict::Won, "deal {n}");
        assert_eq!(
            replay(&AlexandriaRules, &deal, &report.moves),
            Replay::Won,
            "deal {n}"
        );
    }
}

/// Ranked, at every level, the moves taken best first are the ordered
/// ones, in their order: a rollout plays what it would from a sorted list.
#[test]
fn ranked_moves_come_in_the_order_sorted() {
    let reordered = ranked_are_ordered((1..=20).map(deal), 200, NARROWED.len() as u32);
    assert!(
        reordered > 1000,
        "only {reordered} lists were ranked out of order"
    );
}

/// How soon the waste's cards are wanted home, by the suit's lowest
/// foundation: the 2S over an AS and the 4C over a 3C are wanted next
/// (12 each), as is the 6H over a 5H; the 9S eight ranks over the AS
/// (5); the QD one rank under a King over a diamond foundation not
/// started (1), and the KD there not soon at all (0).
#[test]
fn waste_cards_are_wanted_by_their_suits_lowest_foundation() {
    let text = "Foundations: KC KC 3C KS 9S AS KH KH 5H KD JD -\n\
                Waste: 2S 4C 6H QD 9S KD\nStock:\n\
                :\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n";
    let game = Alexandria::new(&completed(text)).unwrap();
    assert_eq!(game.wanted_in_waste(&game.initial()), 12 + 12 + 12 + 1 + 5);
    let later = "Foundations: KC KC 3C KS 9S AS KH KH 5H KD JD -\n\
                 Waste: 2S KD\nStock:\n\
                 :\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n";
    let game = Alexandria::new(&completed(later)).unwrap();
    assert_eq!(game.wanted_in_waste(&game.initial()), 12);
}
