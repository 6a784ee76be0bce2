//! The fast engines checked against the plain reference rules.
//!
//! The engines trade clarity for speed (packed states, cards kept outside
//! the state, move ordering, dead-end pruning), so each is held to the
//! reference rules of `src/reference`, which are written straight from
//! RULES.md: only legal moves, the same positions after them, the same
//! verdicts, and solutions the reference rules accept.
//!
//! The helpers are generic over [`Game`]; a new game reuses them with one
//! instantiation next to All in a Row's.

use std::collections::HashSet;

use patience::board::{Board, Pile};
use patience::card::{Card, Rank};
use patience::deal::deal;
use patience::game::{Ask, Game};
use patience::games::GameKind;
use patience::games::alexandria::Alexandria;
use patience::games::all_in_a_row::AllInARow;
use patience::games::lanes::Lanes;
use patience::games::raglan::Raglan;
use patience::notation::Move;
use patience::reference::{Replay, Rules, plain_search, replay};
use patience::search::{DEFAULT_MEMORY, Limits, Planned, Report, Tables, Verdict, solve};
use proptest::prelude::*;
use proptest::sample::{Index, subsequence};
use proptest::strategy::ValueTree;
use proptest::test_runner::{FileFailurePersistence, TestRunner};

/// Positions the reference search may store before a test gives up on a
/// case: far above what the small positions here reach, so hitting it
/// means the generator, not the engine, is wrong.
const PLAIN_SEARCH_CAP: usize = 2_000_000;

/// The notation moves one engine move stands for.
fn notation_of<G: Game>(game: &G, state: &G::State, mv: G::Move) -> Vec<Move> {
    let mut out = Vec::new();
    game.notation(state, mv, &mut out);
    out
}

/// Asserts that an engine position and a reference board are the same
/// position. Boards are compared as text, which holds every part the rules
/// read and leaves out the line numbers a parsed board carries.
fn assert_same_position<G: Game>(game: &G, state: &G::State, rules: &dyn Rules, board: &Board) {
    let text = board.to_text();
    assert_eq!(game.to_board(state).to_text(), text, "engine vs reference");
    assert_eq!(game.is_won(state), rules.is_won(board), "is_won of\n{text}");
    assert_eq!(
        game.cards_home(state) as usize,
        rules.cards_home(board),
        "cards_home of\n{text}"
    );
}

/// Walks from `board` along the engine moves `picks` chooses, and at every
/// position on the way checks that each move the engine lists is listed
/// once, is legal under the reference rules (which refuse illegal moves),
/// and leads to the position they reach.
///
/// The engine may leave out legal moves that never lose a win (see
/// [`Game::moves`]; All in a Row leaves out moves that only repeat another
/// order of same-rank cards), so this cannot ask for all the legal moves.
/// That the omissions never lose a win is for the verdict tests to check.
fn check_random_play<G: Game>(rules: &dyn Rules, board: &Board, picks: &[Index]) {
    let game = G::new(board).expect("a valid board");
    let mut state = game.initial();
    let mut reference = board.clone();
    let mut picks = picks.iter();
    let mut moves = Vec::new();
    loop {
        assert_same_position(&game, &state, rules, &reference);
        moves.clear();
        game.moves(&state, None, Ask::FULL, &mut moves);
        let engine: Vec<Vec<Move>> = moves
            .iter()
            .map(|&mv| notation_of(&game, &state, mv))
            .collect();
        let engine_set: HashSet<&Vec<Move>> = engine.iter().collect();
        assert_eq!(engine_set.len(), engine.len(), "a move listed twice");
        let mut after = Vec::with_capacity(moves.len());
        for (&mv, notation) in moves.iter().zip(&engine) {
            let next = game.play(&state, mv);
            let mut board = reference.clone();
            for step in notation {
                rules
                    .play(&mut board, step)
                    .unwrap_or_else(|e| panic!("{step} is illegal: {e}"));
            }
            assert_same_position(&game, &next, rules, &board);
            after.push((next, board));
        }
        let Some(pick) = picks.next().filter(|_| !after.is_empty()) else {
            return;
        };
        (state, reference) = after.swap_remove(pick.index(after.len()));
    }
}

/// Solves `board` with the engine and default limits, and checks that a
/// win replays to a win under the reference rules.
fn solve_checked<G: Planned>(rules: &dyn Rules, board: &Board) -> Report {
    let game = G::new(board).expect("a valid board");
    let report = solve(&game, &Limits::default(), &mut Tables::new(DEFAULT_MEMORY));
    if report.verdict == Verdict::Won {
        assert_eq!(
            replay(rules, board, &report.moves),
            Replay::Won,
            "the solution of\n{}",
            board.to_text()
        );
    }
    report
}

/// Checks the engine's verdict on a small `board` against a plain
/// exhaustive search with the reference rules, and that the engine never
/// calls a winnable start a dead end.
fn check_verdict<G: Planned>(rules: &dyn Rules, board: &Board) {
    let truth = plain_search(rules, board, PLAIN_SEARCH_CAP).expect("a small position");
    let game = G::new(board).expect("a valid board");
    assert!(
        !(truth && game.is_dead_end(&game.initial())),
        "a winnable start called a dead end:\n{}",
        board.to_text()
    );
    let expected = if truth { Verdict::Won } else { Verdict::Lost };
    let report = solve_checked::<G>(rules, board);
    assert_eq!(report.verdict, expected, "verdict of\n{}", board.to_text());
}

/// The cards of numbered deal `n` of All in a Row, pile by pile, bottom
/// to top: `pile * 4 + depth` indexes them.
fn all_in_a_row_cards(n: u64) -> Vec<Card> {
    deal(GameKind::AllInARow.layout(), n)
        .piles
        .iter()
        .flat_map(Pile::cards)
        .collect()
}

/// Numbered deal `n` of All in a Row with only the cards `keep` says on the
/// tableau, each where the deal put it, and `top` on the foundation.
fn thinned_all_in_a_row(n: u64, top: Card, keep: impl Fn(usize, Card) -> bool) -> Board {
    let mut board = deal(GameKind::AllInARow.layout(), n);
    for (p, pile) in board.piles.iter_mut().enumerate() {
        let cards = pile.cards().enumerate();
        *pile = Pile::face_up(
            cards
                .filter(|&(d, c)| keep(p * 4 + d, c))
                .map(|(_, c)| c)
                .collect(),
        );
    }
    board.foundations = vec![Some(top)];
    board
}

/// Deal `n` with the cards at `kept` left and the foundation top picked by
/// `top` from the others. The ranks left almost never allow a win, so these
/// positions are lost, many of them by ranks alone: they exercise the
/// engine's dead-end test.
fn random_cards_left(n: u64, kept: &[usize], top: Index) -> Board {
    let cards = all_in_a_row_cards(n);
    let home: Vec<Card> = (0..52)
        .filter(|i| !kept.contains(i))
        .map(|i| cards[i])
        .collect();
    thinned_all_in_a_row(n, home[top.index(home.len())], |i, _| kept.contains(&i))
}

/// Deal `n` with the foundation on the card `top` picks and left on the
/// tableau the cards of a walk of rank steps from it, each step's card
/// picked by its index. The walk keeps its direction unless a step says
/// turn or the rank ahead has run out, so some walks go round the ranks
/// and past K-A. A win could play the ranks left, so the order of the
/// piles decides: these positions are won or lost in fair shares.
fn walked_cards_left(n: u64, top: Index, steps: &[(bool, Index)]) -> Board {
    let cards = all_in_a_row_cards(n);
    let top = cards[top.index(52)];
    let mut left = vec![top];
    let mut rank = top.rank().index();
    let mut up = true;
    for &(turn, pick) in steps {
        up ^= turn;
        let of_rank = |r: usize| -> Vec<Card> {
            cards
                .iter()
                .copied()
                .filter(|c| c.rank().index() == r && !left.contains(c))
                .collect()
        };
        let step = |up: bool| {
            if up {
                (rank + 1) % 13
            } else {
                (rank + 12) % 13
            }
        };
        let Some((next_up, choices)) = [up, !up]
            .into_iter()
            .map(|up| (up, of_rank(step(up))))
            .find(|(_, choices)| !choices.is_empty())
        else {
            break;
        };
        left.push(choices[pick.index(choices.len())]);
        up = next_up;
        rank = step(up);
    }
    thinned_all_in_a_row(n, top, |_, card| card != top && left.contains(&card))
}

/// Small All in a Row positions from numbered deals, 8 to 20 cards left,
/// some piles empty: small enough for [`plain_search`], and both won and
/// lost (see `small_all_in_a_row_positions_are_both_won_and_lost`). Walks
/// that seldom turn go round the ranks, where the engine's dead-end test
/// must reason about the whole cycle; walks that often turn heap cards on
/// a few ranks.
fn small_all_in_a_row() -> impl Strategy<Value = Board> {
    let walked = |turn: f64| {
        let steps = prop::collection::vec((prop::bool::weighted(turn), any::<Index>()), 8..=20);
        (any::<u64>(), any::<Index>(), steps)
            .prop_map(|(n, top, steps)| walked_cards_left(n, top, &steps))
    };
    let kept = subsequence((0..52).collect::<Vec<usize>>(), 8..=20);
    prop_oneof![
        2 => walked(0.1),
        2 => walked(0.5),
        1 => (any::<u64>(), kept, any::<Index>())
            .prop_map(|(n, kept, top)| random_cards_left(n, &kept, top)),
    ]
}

proptest! {
    // Failing cases are kept next to this file: proptest's default place
    // is beside the crate root, which an integration test cannot find.
    // The case count is left to proptest (256, or PROPTEST_CASES for a
    // longer hunt).
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    /// The engine plays only legal moves, to the positions the reference
    /// rules reach, along random play from numbered deals.
    #[test]
    fn all_in_a_row_moves_are_legal(n in any::<u64>(), picks in prop::collection::vec(any::<Index>(), 0..=52)) {
        let kind = GameKind::AllInARow;
        check_random_play::<AllInARow>(kind.rules(), &deal(kind.layout(), n), &picks);
    }

    /// The engine's verdict is the plain search's on small positions.
    #[test]
    fn all_in_a_row_verdicts_agree(board in small_all_in_a_row()) {
        check_verdict::<AllInARow>(GameKind::AllInARow.rules(), &board);
    }

    /// Raglan: legal moves to the reference's positions along random play.
    #[test]
    fn raglan_moves_are_legal(n in any::<u64>(), picks in prop::collection::vec(any::<Index>(), 0..=80)) {
        let kind = GameKind::Raglan;
        check_random_play::<Raglan>(kind.rules(), &deal(kind.layout(), n), &picks);
    }

    /// Raglan: the engine's verdict is the plain search's on late positions.
    /// With most cards home and empty piles about, these are nearly always
    /// won, so this checks wins (and their replay); lost verdicts are
    /// checked against Solvitaire's lost boards in solvitaire_agreement.rs.
    #[test]
    fn raglan_verdicts_agree(board in small_raglan()) {
        check_verdict::<Raglan>(GameKind::Raglan.rules(), &board);
    }

    /// Raglan: the same on crowded positions, where cards must be parked
    /// on reserve cards and empty piles before they can go home.
    #[test]
    fn raglan_crowded_verdicts_agree(board in crowded_raglans()) {
        check_verdict::<Raglan>(GameKind::Raglan.rules(), &board);
    }

    /// Lanes: legal moves to the reference's positions along random play,
    /// each engine move spelled out as its draws, redeal and play. Half the
    /// deals say `Redeals: 1`, as a typed board may, and keep saying it.
    #[test]
    fn lanes_moves_are_legal(n in any::<u64>(), picks in prop::collection::vec(any::<Index>(), 0..=80)) {
        let kind = GameKind::Lanes;
        let mut board = deal(kind.layout(), n);
        board.redeals = (n % 2 == 1).then_some(1);
        check_random_play::<Lanes>(kind.rules(), &board, &picks);
    }

    /// Lanes: the engine's verdict is the plain search's on small
    /// positions, with and without the redeal. Any card may go to an
    /// empty pile, so these are all but always won (200 of 200 sampled):
    /// this checks that pruning never loses a win, and the wins' replay;
    /// lost verdicts are checked against Solvitaire's boards lost without
    /// a redeal in solvitaire_agreement.rs.
    #[test]
    fn lanes_verdicts_agree(board in small_laneses()) {
        check_verdict::<Lanes>(GameKind::Lanes.rules(), &board);
    }

    /// Alexandria: legal moves to the reference's positions along random
    /// play from numbered deals (runs moved whole and split, face-down
    /// cards turned up, each engine move spelled out as its draws and
    /// play). Its verdicts are checked against a plain search in the
    /// engine's own tests (`src/games/alexandria.rs`): with thirteen piles
    /// a plain search that tells apart positions differing only in the
    /// order of the piles outgrows any cap on all but the smallest.
    #[test]
    fn alexandria_moves_are_legal(n in any::<u64>(), picks in prop::collection::vec(any::<Index>(), 0..=120)) {
        let kind = GameKind::Alexandria;
        check_random_play::<Alexandria>(kind.rules(), &deal(kind.layout(), n), &picks);
    }
}

/// Raglan's rules J, R and U (the card just moved stays; a reserve card
/// goes to the tableau only to be built on at once; not when no free card
/// could be) are the ones whose argument leans on the table, and small
/// positions, nearly always won, hardly test them. So whole numbered
/// deals, lost ones among them, are solved with and without them, and
/// must get the same verdict wherever both searches end.
#[test]
fn raglan_rules_that_lean_on_the_table_keep_the_verdicts_of_whole_deals() {
    let limits = Limits {
        max_nodes: Some(300_000),
        ..Limits::default()
    };
    let mut table = Tables::new(DEFAULT_MEMORY);
    let (mut won, mut lost) = (0, 0);
    for n in 1..=200 {
        let board = deal(GameKind::Raglan.layout(), n);
        let pruned = solve(&Raglan::new(&board).unwrap(), &limits, &mut table);
        let every = solve(
            &Raglan::with_every_move(&board).unwrap(),
            &limits,
            &mut table,
        );
        if pruned.verdict == Verdict::Unknown || every.verdict == Verdict::Unknown {
            continue;
        }
        assert_eq!(pruned.verdict, every.verdict, "numbered deal {n}");
        match pruned.verdict {
            Verdict::Won => won += 1,
            _ => lost += 1,
        }
    }
    assert!(
        won > 100 && lost > 30,
        "only {won} won and {lost} lost compared"
    );
}

/// A late Raglan position: numbered deal `n` with each suit home up to
/// rank 10 to 13 (`home`), the other cards where the deal put them. At
/// most 12 cards are left, few enough for the plain search.
fn late_raglan(n: u64, home: [u8; 4]) -> Board {
    let kind = GameKind::Raglan;
    let mut board = deal(kind.layout(), n);
    let is_home = |card: Card| card.rank().get() <= home[card.suit().index()];
    for pile in &mut board.piles {
        pile.up.retain(|&card| !is_home(card));
    }
    for place in board.reserve.iter_mut().flatten() {
        if place.is_some_and(is_home) {
            *place = None;
        }
    }
    for top in board.foundations.iter_mut().flatten() {
        let rank = Rank::new(home[top.suit().index()]).expect("a rank");
        *top = Card::new(rank, top.suit());
    }
    board
}

fn small_raglan() -> impl Strategy<Value = Board> {
    (any::<u64>(), prop::array::uniform4(10u8..=13)).prop_map(|(n, home)| late_raglan(n, home))
}

/// A crowded Raglan position: each suit home up to rank 9 to 11 (`home`),
/// and the 8 to 16 cards left, in the order numbered deal `n` dealt them,
/// each put where its pick says among the nine piles and six reserve
/// places (a taken reserve place sends it to a pile); a pile whose first
/// pick is even is then sorted with its highest cards on top, so cards lie
/// on lower cards of their suit and must be parked on the tableau first.
/// Raglan this small is nearly always won, so these test the direction
/// where pruning can go wrong: a win it prunes away shows as `lost`.
fn crowded_raglan(n: u64, home: [u8; 4], picks: &[Index]) -> Board {
    let kind = GameKind::Raglan;
    let dealt = deal(kind.layout(), n);
    let left = dealt
        .piles
        .iter()
        .flat_map(|pile| pile.up.iter().copied())
        .chain(dealt.reserve.iter().flatten().flatten().copied())
        .filter(|card| card.rank().get() > home[card.suit().index()]);
    let mut piles = vec![Vec::new(); 9];
    let mut reserve = vec![None; 6];
    for (card, pick) in left.zip(picks.iter().cycle()) {
        let place = pick.index(15);
        match reserve.get_mut(place.wrapping_sub(9)) {
            Some(slot @ None) => *slot = Some(card),
            _ => piles[place % 9].push(card),
        }
    }
    for (pile, pick) in piles.iter_mut().zip(picks) {
        if pick.index(2) == 0 {
            pile.sort_by_key(|card| card.rank());
        }
    }
    let mut board = dealt;
    board.piles = piles.into_iter().map(Pile::face_up).collect();
    board.reserve = Some(reserve);
    for top in board.foundations.iter_mut().flatten() {
        let rank = Rank::new(home[top.suit().index()]).expect("a rank");
        *top = Card::new(rank, top.suit());
    }
    board
}

fn crowded_raglans() -> impl Strategy<Value = Board> {
    (
        any::<u64>(),
        prop::array::uniform4(9u8..=11),
        prop::collection::vec(any::<Index>(), 16),
    )
        .prop_map(|(n, home, picks)| crowded_raglan(n, home, &picks))
}

/// A small Lanes position, crowded as [`crowded_raglan`] is: each suit
/// home up to rank 9 to 11 (`home`), and the 8 to 16 cards left, in the
/// order numbered deal `n` dealt them, each put where its pick says among
/// the six piles and the stock; a pile whose first pick is even is then
/// sorted with its highest cards on top, and the stock too if the first
/// pick is, highest drawn first; and the redeal left or already used.
fn small_lanes(n: u64, home: [u8; 4], picks: &[Index], redeal: bool) -> Board {
    let dealt = deal(GameKind::Lanes.layout(), n);
    let left = dealt
        .piles
        .iter()
        .flat_map(|pile| pile.up.iter().copied())
        .chain(dealt.stock.iter().flatten().copied())
        .filter(|card| card.rank().get() > home[card.suit().index()]);
    let mut places = vec![Vec::new(); 7];
    for (card, pick) in left.zip(picks.iter().cycle()) {
        places[pick.index(7)].push(card);
    }
    for (place, pick) in places.iter_mut().zip(picks) {
        if pick.index(2) == 0 {
            place.sort_by_key(|card| card.rank());
        }
    }
    let mut stock = places.pop().expect("the stock's place");
    stock.reverse();
    let mut board = dealt;
    board.piles = places.into_iter().map(Pile::face_up).collect();
    board.stock = Some(stock);
    for top in board.foundations.iter_mut().flatten() {
        let rank = Rank::new(home[top.suit().index()]).expect("a rank");
        *top = Card::new(rank, top.suit());
    }
    board.redeals = (!redeal).then_some(0);
    board
}

fn small_laneses() -> impl Strategy<Value = Board> {
    (
        any::<u64>(),
        prop::array::uniform4(9u8..=11),
        prop::collection::vec(any::<Index>(), 16),
        any::<bool>(),
    )
        .prop_map(|(n, home, picks, redeal)| small_lanes(n, home, &picks, redeal))
}

/// The small positions are neither nearly all won nor nearly all lost, so
/// that `all_in_a_row_verdicts_agree` tests both verdicts.
#[test]
fn small_all_in_a_row_positions_are_both_won_and_lost() {
    const SAMPLES: usize = 300;
    let strategy = small_all_in_a_row();
    let mut runner = TestRunner::deterministic();
    let rules = GameKind::AllInARow.rules();
    let won = (0..SAMPLES)
        .filter(|_| {
            let board = strategy.new_tree(&mut runner).expect("a board").current();
            plain_search(rules, &board, PLAIN_SEARCH_CAP).expect("a small position")
        })
        .count();
    println!("small positions: {won} of {SAMPLES} won");
    assert!(
        (SAMPLES / 5..=SAMPLES * 4 / 5).contains(&won),
        "{won} of {SAMPLES} won: the generator is lopsided"
    );
}

/// Every won numbered deal replays to a win in exactly 52 moves, one card
/// each (RULES.md), and no deal is left unknown with no limits set.
#[test]
fn all_in_a_row_numbered_deals_replay() {
    let kind = GameKind::AllInARow;
    let mut won = 0;
    for n in 1..=200 {
        let report = solve_checked::<AllInARow>(kind.rules(), &deal(kind.layout(), n));
        match report.verdict {
            Verdict::Won => {
                assert_eq!(report.moves.len(), 52, "deal {n}");
                won += 1;
            }
            Verdict::Lost => {}
            Verdict::Unknown => panic!("deal {n} unknown without limits"),
        }
    }
    println!("numbered deals 1..=200: {won} won");
    assert!(won > 0, "no numbered deal won: the replay check never ran");
}

/// An All in a Row board with foundation top `top` and the given piles
/// (bottom to top), the other piles empty, read from board text.
fn all_in_a_row_board(top: &str, piles: &[&str]) -> Board {
    let mut text = format!("Foundations: {top}\n");
    for i in 0..13 {
        text += &format!(": {}\n", piles.get(i).copied().unwrap_or_default());
    }
    Board::parse(&text).expect("a well-formed board")
}

fn solve_all_in_a_row(board: &Board) -> Report {
    solve_checked::<AllInARow>(GameKind::AllInARow.rules(), board)
}

fn moves_text(report: &Report) -> Vec<String> {
    report.moves.iter().map(Move::to_string).collect()
}

#[test]
fn all_in_a_row_everything_home_is_won() {
    let report = solve_all_in_a_row(&all_in_a_row_board("5H", &[]));
    assert_eq!(report.verdict, Verdict::Won);
    assert!(report.moves.is_empty());
}

#[test]
fn all_in_a_row_one_move_from_winning() {
    let report = solve_all_in_a_row(&all_in_a_row_board("5H", &["", "", "4C"]));
    assert_eq!(moves_text(&report), ["t3 f 4C"]);
}

/// K and A are adjacent both ways.
#[test]
fn all_in_a_row_ranks_wrap() {
    let report = solve_all_in_a_row(&all_in_a_row_board("KS", &["2C AC"]));
    assert_eq!(moves_text(&report), ["t1 f AC", "t1 f 2C"]);
    let report = solve_all_in_a_row(&all_in_a_row_board("AH", &["QD KD"]));
    assert_eq!(moves_text(&report), ["t1 f KD", "t1 f QD"]);
}

/// Only one first move wins: 4C leads to 3D or 5D, and either strands a
/// card; 6H leads to 5D, 4C, 3D.
#[test]
fn all_in_a_row_needs_the_right_first_move() {
    let report = solve_all_in_a_row(&all_in_a_row_board("5S", &["3D 4C", "6H", "5D"]));
    assert_eq!(
        moves_text(&report),
        ["t2 f 6H", "t3 f 5D", "t1 f 4C", "t1 f 3D"]
    );
}

#[test]
fn all_in_a_row_no_card_fits() {
    let report = solve_all_in_a_row(&all_in_a_row_board("5H", &["9C", "9D"]));
    assert_eq!(report.verdict, Verdict::Lost);
}

/// From 9, the single 8 leads to the 7s, and a walk of single rank steps
/// cannot land on 7 three times with no 6 or other 8 between.
#[test]
fn all_in_a_row_rank_walk_dead_end() {
    let board = all_in_a_row_board("9S", &["7C", "7D 8H", "7H"]);
    assert_eq!(solve_all_in_a_row(&board).verdict, Verdict::Lost);
}

/// The ranks left could all be played (6, 5, 4, 3), so no rank count
/// rules a win out, but 6H lies under 4C: every order strands a card.
#[test]
fn all_in_a_row_lost_by_pile_order() {
    let board = all_in_a_row_board("5S", &["6H 4C", "5D", "3D"]);
    assert_eq!(solve_all_in_a_row(&board).verdict, Verdict::Lost);
}

/// A full deck with each pile one rank: won by going round the ranks four
/// times, 52 moves.
#[test]
fn all_in_a_row_full_deck_of_rank_piles() {
    let piles: Vec<String> = "A23456789TJQK"
        .chars()
        .map(|r| format!("{r}C {r}D {r}H {r}S"))
        .collect();
    let piles: Vec<&str> = piles.iter().map(String::as_str).collect();
    let report = solve_all_in_a_row(&all_in_a_row_board("-", &piles));
    assert_eq!(report.verdict, Verdict::Won);
    assert_eq!(report.moves.len(), 52);
}

proptest! {
    /// Whatever text a user types, reading and checking it as a board or a
    /// move list gives an answer or an error, never a panic.
    #[test]
    fn any_text_is_read_without_panic(
        text in "(([:#|-]|Foundations:|Reserve:|Stock:|Waste:|Redeals:|[AKQJT2-9]|10|[CDHS]|t[0-9]{1,4}|f|w|draw|redeal|x[0-9]| |\n)){0,200}"
    ) {
        if let Ok(board) = Board::parse(&text) {
            let _ = GameKind::AllInARow.validate(&board);
        }
        let _ = patience::notation::parse_moves(&text);
    }
}
