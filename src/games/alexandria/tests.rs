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
            Some(p) => step.to == HOME && kept >> state.tops[p] & 1 == 0,
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

/// Along random play from late positions of numbered deals, wherever the
/// dead-end test finds a card stranded, the reference rules' plain search
/// finds no win: a test that would fail if the relaxed game left out a
/// way a card can leave its stack. Where the test passes a position by,
/// the position before a stranding move was not stranded, as
/// [`State::stranding`] assumes.
#[test]
fn stranded_positions_are_lost_by_a_plain_search() {
    use crate::games::testing::along_play;
    let (mut stranded, mut judged) = (0, 0);
    for n in 1..=60 {
        let board = late_position(n, 5);
        let game = Alexandria::new(&board).unwrap();
        let mut seen = Vec::new();
        along_play(&game, n, 60, 3, |state, _| seen.push(*state));
        for pair in seen.windows(2) {
            assert!(pair[1].stranding || !game.stranded(&pair[1]) || game.stranded(&pair[0]));
        }
        for state in seen.iter().filter(|state| game.stranded(state)) {
            stranded += 1;
            let board = game.to_board(state);
            if let Some(won) = plain_search_up_to_pile_order(&board, 20_000) {
                assert!(!won, "stranded, but won:\n{}", board.to_text());
                judged += 1;
            }
        }
    }
    assert!(
        stranded > 100 && judged > 50,
        "{stranded} stranded, {judged} judged"
    );
}

/// Every black Ten is home, so a 9D can leave the waste or a pile only
/// for home, on the one diamond foundation at the 8D; it lies above both
/// 8D that could raise another, so it is stranded, and the position lost.
/// With an 8D on it instead, that 8D goes home first and the rest
/// follow. The plain search agrees.
#[test]
fn a_card_over_what_it_needs_at_home_is_stranded() {
    let text = |waste: &str, pile: &str| {
        format!(
            "Foundations: KC KC KC KS KS KS KH KH KH 7D 7D 9D\nWaste: {waste}\nStock: KD\n\
             : {pile}\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n"
        )
    };
    let mut tables = Tables::new(1 << 24);
    for (waste, pile, lost) in [
        ("8D 8D 9D", "", true),
        ("8D 9D 8D", "", false),
        ("TD", "8D 8D | 9D", true),
        ("TD", "8D 9D | 8D", false),
    ] {
        let board = completed(&text(waste, pile));
        let game = Alexandria::new(&board).unwrap();
        assert_eq!(game.stranded(&game.initial()), lost, "{waste} / {pile}");
        let report = crate::search::solve(&game, &Limits::default(), &mut tables);
        let verdict = match lost {
            true => Verdict::Lost,
            false => Verdict::Won,
        };
        assert_eq!(report.verdict, verdict, "{waste} / {pile}");
        let plain = plain_search_up_to_pile_order(&board, 100_000);
        assert_eq!(plain, Some(!lost), "{waste} / {pile}");
    }
}

/// Random play from numbered deals soon draws most of the stock into the
/// waste, past cards it then cannot deal off. The position a move before
/// the first the dead-end test finds stranded is not stranded itself,
/// yet the full search proves it lost within a few thousand positions,
/// every line below it running into stranded positions.
#[test]
fn positions_lost_in_random_play_are_proven_lost() {
    use crate::games::testing::along_play;
    let limits = Limits {
        max_nodes: Some(100_000),
        ..Limits::default()
    };
    let mut tables = Tables::new(1 << 26);
    for n in [9, 18, 22, 40] {
        let game = deal(n);
        let mut states = Vec::new();
        along_play(&game, n, 600, 2, |state, _| states.push(*state));
        let first = states.iter().position(|state| game.stranded(state));
        let before = states[first.expect("stranded") - 1];
        assert!(!game.stranded(&before), "deal {n}");
        let board = game.to_board(&before);
        let start = Alexandria::new(&board).unwrap();
        let report = solve_alone(&start, &limits, &mut tables, Tactic::Full);
        assert_eq!(
            report.verdict,
            Verdict::Lost,
            "deal {n}:\n{}",
            board.to_text()
        );
    }
}

/// A waste card is bound when no card it may lie on is in the stock, a
/// pile's starting cards or a pile's top: with every black Ten and King
/// home, the 9D and QD are, the KD (a King) never is; with a club
/// foundation at the Nine, the TC and KC left go to the stock, and only
/// the 8D, whose black Nines are all home, is bound.
#[test]
fn waste_cards_with_nowhere_to_go_but_home_are_bound() {
    let text = |clubs: &str, waste: &str| {
        format!(
            "Foundations: KC KC {clubs} KS KS KS KH KH KH 7D 7D 9D\nWaste: {waste}\nStock:\n\
             :\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n:\n"
        )
    };
    for (clubs, waste, bound) in [
        ("KC", "9D QD KD", 2),
        ("9C", "9D QD KD", 0),
        ("9C", "9D 8D QD KD", 1),
    ] {
        let game = Alexandria::new(&completed(&text(clubs, waste))).unwrap();
        assert_eq!(
            game.bound_in_waste(&game.initial()),
            bound,
            "{clubs} / {waste}"
        );
    }
}

/// Whether `card` is a King (an empty pile takes it) or may lie on one of
/// `cards` (a bit each by [`Card::index`]).
fn lands_plainly(cards: u64, card: usize) -> bool {
    use crate::games::alternating::{BASES, NO_BASE};
    let [a, b] = BASES[card];
    a == NO_BASE || cards >> a & 1 != 0 || cards >> b & 1 != 0
}

/// The cards a stacked card may lie on at a quick look (the stock's, the
/// piles' starting cards still there and the pile tops), a place and a
/// card at a time.
fn landing_cards_plainly(game: &Alexandria, state: &State) -> u64 {
    let mut cards = 0u64;
    for t in talon::places(talon::stock(state.talon, state.cursor)) {
        cards |= 1 << game.talon.card(t).index();
    }
    for p in 0..PILES {
        let dealt = state.piles[p].dealt_left();
        for card in &game.start_cards[p][..dealt] {
            cards |= 1 << card.index();
        }
        if state.tops[p] != NO_CARD {
            cards |= 1 << state.tops[p];
        }
    }
    cards
}

/// The waste cards with no landing in [`landing_cards_plainly`], counted
/// a place at a time.
fn bound_in_waste_plainly(game: &Alexandria, state: &State) -> u32 {
    let cards = landing_cards_plainly(game, state);
    talon::places(state.waste())
        .filter(|&t| !lands_plainly(cards, game.talon.card(t).index()))
        .count() as u32
}

/// [`Alexandria::none_bound`] a card at a time.
fn none_bound_plainly(game: &Alexandria, state: &State) -> bool {
    let cards = landing_cards_plainly(game, state);
    bound_in_waste_plainly(game, state) == 0
        && (0..PILES).all(|p| {
            let dealt = state.piles[p].dealt_left();
            (game.start_cards[p][..dealt].iter()).all(|card| lands_plainly(cards, card.index()))
        })
}

/// The cards that land on a mask, found a suit at a time, are those
/// found a card at a time, over random masks.
#[test]
fn landable_cards_are_those_that_land_one_by_one() {
    let mut picks = Picks::new(7);
    for _ in 0..2000 {
        // Sparse and dense masks alike.
        let cards = (0..Card::COUNT)
            .fold(0u64, |mask, c| mask | ((picks.below(4) == 0) as u64) << c)
            ^ (picks.below(2) as u64).wrapping_neg() >> 12;
        let landable = dead_end::landable(cards);
        for card in 0..Card::COUNT {
            let lands = landable >> card & 1 != 0;
            assert_eq!(lands, lands_plainly(cards, card), "{cards:x} {card}");
        }
    }
}

/// The talon's cards read by card and by run of places are those read a
/// place at a time, along random play, and in talons with random places
/// taken out (which play never leaves in the stock).
#[test]
fn talon_cards_are_those_read_place_by_place() {
    let plain = |game: &Alexandria, mask: u128, cursor: u8| {
        let mut counts = [0u8; Card::COUNT];
        for t in talon::places(talon::stock(mask, cursor)) {
            counts[game.talon.card(t).index()] += 1;
        }
        let cards = (0..Card::COUNT).fold(0u64, |c, i| c | ((counts[i] > 0) as u64) << i);
        (counts, cards)
    };
    let check = |game: &Alexandria, mask: u128, cursor: u8| {
        let cards = &game.talon_cards;
        let fast = (
            cards.stock_counts(&game.talon, mask, cursor),
            cards.stock_cards(&game.talon, mask, cursor),
        );
        assert_eq!(fast, plain(game, mask, cursor), "{mask:x} {cursor}");
    };
    let mut picks = Picks::new(11);
    for n in 1..=10 {
        let game = deal(n);
        let mut positions = 0;
        crate::games::testing::along_play(&game, n, 300, 3, |state, _| {
            check(&game, state.talon, state.cursor);
            positions += 1;
        });
        assert!(positions > 100, "deal {n}: {positions}");
        for _ in 0..200 {
            let mask = (0..game.talon.len()).fold(game.talon.full(), |mask, t| {
                mask & !(((picks.below(3) == 0) as u128) << t)
            });
            check(
                &game,
                mask,
                picks.below(game.talon.len() as usize + 1) as u8,
            );
        }
        for card in 0..Card::COUNT as u64 {
            let places = talon::places(game.talon_cards.places_of(1 << card | 1 << 60));
            assert!(
                places
                    .into_iter()
                    .all(|t| game.talon.card(t).index() == card as usize)
            );
        }
    }
}

/// Along random play, the quick look of the dead-end test, and the count
/// of bound waste cards in the rollouts' score, answer as they do a card
/// at a time.
#[test]
fn bound_cards_are_found_as_one_by_one() {
    let (mut positions, mut some_bound) = (0, 0);
    for n in 1..=20 {
        let game = deal(n);
        crate::games::testing::along_play(&game, n, 400, 2, |state, _| {
            let bound = bound_in_waste_plainly(&game, state);
            assert_eq!(game.bound_in_waste(state), bound, "deal {n}");
            assert_eq!(game.none_bound(state), none_bound_plainly(&game, state));
            positions += 1;
            some_bound += (bound > 0) as u32;
        });
    }
    assert!(
        positions > 2000 && some_bound > 200,
        "{positions}, {some_bound}"
    );
}

/// The dead-end test's relaxed game as its doc tells it, played plainly
/// on whole piles: whether some card never leaves its stack (the test
/// leaves out what [`Alexandria::none_bound`] passes).
fn stranded_plainly(game: &Alexandria, state: &State) -> bool {
    if none_bound_plainly(game, state) {
        return false;
    }
    use crate::games::alternating::{BASES, NO_BASE};
    let landings = |card: usize| {
        BASES[card]
            .iter()
            .filter(|&&l| l != NO_BASE)
            .map(|&l| l as usize)
    };
    let mut home = [0u8; Card::COUNT];
    for (suit, rank) in state.home.started() {
        (0..rank as usize).for_each(|r| home[suit * 13 + r] += 1);
    }
    let piles: Vec<Vec<usize>> = (0..PILES)
        .map(|p| {
            state.piles[p]
                .to_vec(&game.start_cards[p])
                .iter()
                .map(|c| c.index())
                .collect()
        })
        .collect();
    let index = |mask| {
        talon::places(mask)
            .map(|t| game.talon.card(t).index())
            .collect::<Vec<_>>()
    };
    let (stock, waste) = (
        index(talon::stock(state.talon, state.cursor)),
        index(state.waste()),
    );
    let on_tableau = |card| piles.iter().flatten().filter(|&&c| c == card).count();
    // Talon cards that can get onto the tableau, stock first, then the
    // waste by place, found from the Kings down: a waste card only by one
    // in the stock or above it in the waste.
    let talon: Vec<(usize, Option<usize>)> = (stock.iter().map(|&c| (c, None)))
        .chain(waste.iter().enumerate().map(|(at, &c)| (c, Some(at))))
        .collect();
    let mut talon_free = vec![false; talon.len()];
    for rank in (0..13).rev() {
        for i in 0..talon.len() {
            let (card, place) = talon[i];
            if card % 13 == rank {
                talon_free[i] = rank == 12
                    || landings(card).any(|l| {
                        on_tableau(l) > 0
                            || (0..talon.len()).any(|j| {
                                talon[j].0 == l
                                    && talon_free[j]
                                    && talon[j].1.is_none_or(|b| place.is_none_or(|a| b > a))
                            })
                    });
            }
        }
    }
    let lands_from_talon = |l| (0..talon.len()).any(|j| talon[j].0 == l && talon_free[j]);
    let mut stacks: Vec<Vec<(usize, bool)>> = (piles.iter())
        .map(|pile| {
            (0..pile.len())
                .map(|at| {
                    let card = pile[at];
                    let under = |l| pile[..at].iter().filter(|&&c| c == l).count();
                    let free = card % 13 == 12
                        || landings(card).any(|l| {
                            (at > 0 && pile[at - 1] == l)
                                || lands_from_talon(l)
                                || on_tableau(l) > under(l)
                        });
                    (card, free)
                })
                .collect()
        })
        .collect();
    stacks.push(
        (stock.len()..talon.len())
            .map(|i| (talon[i].0, talon_free[i]))
            .collect(),
    );
    let mut out = home;
    stock.iter().for_each(|&c| out[c] += 1);
    loop {
        let mut could = [0u8; Card::COUNT];
        for suit in 0..4 {
            for rank in 0..13 {
                let below = if rank == 0 {
                    3
                } else {
                    could[suit * 13 + rank - 1]
                };
                could[suit * 13 + rank] = out[suit * 13 + rank].min(below);
            }
        }
        let mut moved = false;
        for stack in &mut stacks {
            while let Some(&(card, free)) = stack.last()
                && (free || card % 13 == 0 || could[card - 1] > home[card])
            {
                stack.pop();
                out[card] += 1;
                moved = true;
            }
        }
        if !moved {
            return stacks.iter().any(|stack| !stack.is_empty());
        }
    }
}

/// Along random play, the dead-end test answers as its relaxed game
/// played plainly, finding cards stranded often enough to tell.
#[test]
fn stranded_answers_as_the_relaxed_game_played_plainly() {
    use crate::games::testing::along_play;
    let (mut positions, mut stranded) = (0, 0);
    for n in 1..=20 {
        let game = deal(n);
        along_play(&game, n, 400, 2, |state, _| {
            let plain = stranded_plainly(&game, state);
            assert_eq!(
                game.stranded(state),
                plain,
                "deal {n}:\n{}",
                game.to_board(state).to_text()
            );
            positions += 1;
            stranded += plain as u32;
        });
    }
    assert!(
        positions > 2000 && stranded > 200,
        "{positions} positions, {stranded} stranded"
    );
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
