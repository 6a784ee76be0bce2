//! The fast engines checked against the plain reference rules.
//!
//! The engines trade clarity for speed (packed states, cards kept outside
//! the state, move ordering, dead-end pruning), so each is held to the
//! reference rules of `src/reference`, which are written straight from
//! RULES.md. For each of the five games:
//!
//! - along random play from numbered deals and from small positions, the
//!   engine lists only legal moves, each once, reaching the positions the
//!   reference rules reach, and every play the reference lists, but for
//!   those its sound pruning leaves out (see [`Pruning`]);
//! - on small positions its verdicts are the reference's plain search's;
//! - its wins replay to wins under the reference rules.
//!
//! The helpers are generic over [`Game`]; `patience::with_game!` picks
//! each game's engine.

use std::collections::HashSet;

use patience::board::{Board, Pile};
use patience::card::{Card, Rank, Suit};
use patience::deal::deal;
use patience::game::{Ask, Game};
use patience::games::GameKind;
use patience::games::alexandria::Alexandria;
use patience::games::all_in_a_row::AllInARow;
use patience::games::lanes::Lanes;
use patience::games::raglan::Raglan;
use patience::games::rows_of_four::RowsOfFour;
use patience::notation::{Move, Place};
use patience::reference::{Replay, Rules, in_pile_order, plain_search, plain_search_by, replay};
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

/// Whether an engine that lists `engine` (each move as its notation) in
/// `board` may leave out `play`, a legal play of the reference's that
/// needs no draw, by one of its sound prunings.
type LeftOut = fn(board: &Board, play: &Move, engine: &[Vec<Move>]) -> bool;

/// Which of the reference's plays an engine must list too, and where.
/// Each engine may leave out legal moves that never lose a win (see
/// [`Game::moves`]); a game's [`LeftOut`] says which, as its `PRUNING`
/// does. That the omissions never lose a win is for the verdict tests.
#[derive(Clone, Copy)]
enum Pruning {
    /// Every play but those `LeftOut` allows, at every position.
    Everywhere(LeftOut),
    /// The same at the walk's first position only: later, All in a Row's
    /// freezes, which hang on the moves that led there, leave out more.
    AtStart(LeftOut),
    /// Nothing is asked: Raglan's rules J, R and U hang on the moves that
    /// led to a position. [`Raglan::with_every_move`] has them off.
    Unchecked,
}

/// Whether the engine lists a single move and it goes home: a safe move
/// home, which the games built by suit offer alone (their rule H).
fn safe_home_alone(engine: &[Vec<Move>]) -> bool {
    let goes_home = |notation: &Vec<Move>| {
        matches!(
            notation.last(),
            Some(Move::Play {
                to: Place::Foundation,
                ..
            })
        )
    };
    matches!(engine, [only] if goes_home(only))
}

/// Whether `play` goes to an empty pile other than the first: the engines
/// offer one empty pile, the others reaching the same positions with the
/// piles in another order (their rule S).
fn to_a_later_empty_pile(board: &Board, play: &Move) -> bool {
    let Move::Play {
        to: Place::Tableau(to),
        ..
    } = *play
    else {
        return false;
    };
    let first = board.piles.iter().position(Pile::is_empty);
    board.piles[to as usize].is_empty() && first != Some(to as usize)
}

/// Whether `play` moves the whole of a pile to an empty one: the same
/// position with the piles in another order (rule S too).
fn a_whole_pile_to_an_empty_one(board: &Board, play: &Move) -> bool {
    let Move::Play {
        from: Place::Tableau(from),
        to: Place::Tableau(to),
        count,
        ..
    } = *play
    else {
        return false;
    };
    board.piles[to as usize].is_empty() && board.piles[from as usize].len() == usize::from(count)
}

/// Raglan (with every move), Lanes and Alexandria: rules H and S.
fn by_suit_left_out(board: &Board, play: &Move, engine: &[Vec<Move>]) -> bool {
    safe_home_alone(engine)
        || to_a_later_empty_pile(board, play)
        || a_whole_pile_to_an_empty_one(board, play)
}

/// Rows of Four: rules H and S, where only the waste fills an empty pile.
/// (Its rule J, the card just moved staying, needs the last move, which
/// random play does not pass.)
fn rows_of_four_left_out(board: &Board, play: &Move, engine: &[Vec<Move>]) -> bool {
    safe_home_alone(engine) || to_a_later_empty_pile(board, play)
}

/// All in a Row: of two cards of one rank, the second order of the pair
/// is left out where the second card is the last of its pile (the line
/// that plays them swapped is offered), so a left-out card is alone on
/// its pile and a card of its rank is offered.
fn all_in_a_row_left_out(board: &Board, play: &Move, engine: &[Vec<Move>]) -> bool {
    let Move::Play {
        from: Place::Tableau(from),
        card,
        ..
    } = *play
    else {
        return false;
    };
    let rank_offered = (engine.iter().flatten())
        .any(|mv| matches!(mv, Move::Play { card: other, .. } if other.rank() == card.rank()));
    board.piles[from as usize].len() == 1 && rank_offered
}

/// Checks that every legal play of the reference in `board` that needs no
/// draw is an engine move (`engine`, each move as its notation), unless
/// `left_out` says the engine may leave it out.
fn assert_plays_listed(rules: &dyn Rules, board: &Board, engine: &[Vec<Move>], left_out: LeftOut) {
    let listed: HashSet<&Move> = (engine.iter())
        .filter_map(|notation| match notation.as_slice() {
            [play] => Some(play),
            _ => None,
        })
        .collect();
    for play in rules.legal_moves(board) {
        if matches!(play, Move::Draw(_) | Move::Redeal) || listed.contains(&play) {
            continue;
        }
        assert!(
            left_out(board, &play, engine),
            "the engine leaves out {play} in\n{}",
            board.to_text()
        );
    }
}

/// Walks from `board` along the engine moves `picks` chooses, and at every
/// position on the way checks that each move the engine lists is listed
/// once, is legal under the reference rules (which refuse illegal moves),
/// and leads to the position they reach; and that the engine lists every
/// legal play that `pruning` asks of it.
fn check_random_play<G: Game>(
    game: &G,
    rules: &dyn Rules,
    board: &Board,
    picks: &[Index],
    pruning: Pruning,
) {
    let mut state = game.initial();
    let mut reference = board.clone();
    let mut picks = picks.iter();
    let mut moves = Vec::new();
    for step in 0.. {
        assert_same_position(game, &state, rules, &reference);
        moves.clear();
        game.moves(&state, None, Ask::FULL, &mut moves);
        let engine: Vec<Vec<Move>> = moves
            .iter()
            .map(|&mv| notation_of(game, &state, mv))
            .collect();
        let engine_set: HashSet<&Vec<Move>> = engine.iter().collect();
        assert_eq!(engine_set.len(), engine.len(), "a move listed twice");
        match pruning {
            Pruning::Everywhere(left_out) => {
                assert_plays_listed(rules, &reference, &engine, left_out);
            }
            Pruning::AtStart(left_out) if step == 0 => {
                assert_plays_listed(rules, &reference, &engine, left_out);
            }
            _ => {}
        }
        let mut after = Vec::with_capacity(moves.len());
        for (&mv, notation) in moves.iter().zip(&engine) {
            let next = game.play(&state, mv);
            let mut board = reference.clone();
            for step in notation {
                rules
                    .play(&mut board, step)
                    .unwrap_or_else(|e| panic!("{step} is illegal: {e}"));
            }
            assert_same_position(game, &next, rules, &board);
            after.push((next, board));
        }
        let Some(pick) = picks.next().filter(|_| !after.is_empty()) else {
            return;
        };
        (state, reference) = after.swap_remove(pick.index(after.len()));
    }
}

/// [`check_random_play`] with the engine `G` makes for `board`.
fn check_play_of<G: Game>(kind: GameKind, board: &Board, picks: &[Index], pruning: Pruning) {
    let game = G::new(board).expect("a valid board");
    check_random_play(&game, kind.rules(), board, picks, pruning);
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
    check_verdict_is::<G>(rules, board, truth);
}

/// Checks that the engine's verdict on `board` is `truth` (won or lost),
/// and that it never calls a winnable start a dead end.
fn check_verdict_is<G: Planned>(rules: &dyn Rules, board: &Board, truth: bool) {
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

/// [`check_verdict_is`] on a late position if the plain search could say
/// (`truth`); one it cannot finish within [`LATE_SEARCH_CAP`] is skipped.
fn check_late_verdict<G: Planned>(kind: GameKind, board: &Board, truth: Option<bool>) {
    if let Some(truth) = truth {
        check_verdict_is::<G>(kind.rules(), board, truth);
    }
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

/// Proptest's settings with `cases` cases. Failing cases are kept next to
/// this file: proptest's default place is beside the crate root, which an
/// integration test cannot find.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

/// The boards random play starts from, with their game: of each game,
/// numbered deals, some changed as a player may type them, and small
/// positions. Alexandria's walks are the longest and slowest, so it gets
/// half the share of the others.
fn start_boards() -> impl Strategy<Value = (GameKind, Board)> {
    let numbered = |kind: GameKind, typed: fn(u64, &mut Board)| {
        any::<u64>().prop_map(move |n| {
            let mut board = deal(kind.layout(), n);
            typed(n, &mut board);
            (kind, board)
        })
    };
    let small = |kind: GameKind, boards: BoxedStrategy<Board>| boards.prop_map(move |b| (kind, b));
    prop_oneof![
        2 => numbered(GameKind::AllInARow, |_, _| {}),
        2 => small(GameKind::AllInARow, small_all_in_a_row().boxed()),
        2 => numbered(GameKind::Raglan, |_, _| {}),
        2 => small(GameKind::Raglan, crowded_raglans().boxed()),
        // Half say `Redeals: 1`, and keep saying it.
        2 => numbered(GameKind::Lanes, |n, board| board.redeals = (n % 2 == 1).then_some(1)),
        2 => small(GameKind::Lanes, small_laneses().boxed()),
        // A third without a `Foundations:` line, half with `Redeals: 2`.
        2 => numbered(GameKind::RowsOfFour, |n, board| {
            if n % 3 == 1 {
                board.foundations.clear();
            }
            board.redeals = (n % 2 == 1).then_some(2);
        }),
        2 => small(GameKind::RowsOfFour, late_rows_of_fours().boxed()),
        // Half without a `Foundations:` line and with `Redeals: 0`.
        1 => numbered(GameKind::Alexandria, |n, board| {
            if n % 2 == 1 {
                board.foundations.clear();
                board.redeals = Some(0);
            }
        }),
        1 => small(GameKind::Alexandria, late_alexandrias().boxed()),
    ]
}

/// Which plays the random play of `kind` asks its engine to list.
fn pruning(kind: GameKind) -> Pruning {
    match kind {
        GameKind::AllInARow => Pruning::AtStart(all_in_a_row_left_out),
        GameKind::Raglan => Pruning::Unchecked,
        GameKind::Lanes | GameKind::Alexandria => Pruning::Everywhere(by_suit_left_out),
        GameKind::RowsOfFour => Pruning::Everywhere(rows_of_four_left_out),
    }
}

proptest! {
    // The case count is left to proptest (256, or PROPTEST_CASES for a
    // longer hunt).
    #![proptest_config(config(ProptestConfig::default().cases))]

    /// The engine's verdict is the plain search's on small positions.
    #[test]
    fn all_in_a_row_verdicts_agree(board in small_all_in_a_row()) {
        check_verdict::<AllInARow>(GameKind::AllInARow.rules(), &board);
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
}

proptest! {
    // Five games share these cases, five times proptest's count (1280,
    // or PROPTEST_CASES times five): some 280 a game, and half that for
    // Alexandria (see `start_boards`).
    #![proptest_config(config(ProptestConfig::default().cases * 5))]

    /// Every game: along random play from numbered deals and from small
    /// positions, the engine lists only legal moves, each once, to the
    /// positions the reference reaches (each engine move spelled out as
    /// its draws, redeal and play: runs moved whole and split, face-down
    /// cards turned up); and it lists every legal play that needs no draw
    /// but those its pruning leaves out (see [`pruning`]). Raglan's engine
    /// is checked so with its rules J, R and U off.
    #[test]
    fn moves_match_the_reference(
        (kind, board) in start_boards(),
        picks in prop::collection::vec(any::<Index>(), 0..=120),
    ) {
        patience::with_game!(kind, G => check_play_of::<G>(kind, &board, &picks, pruning(kind)));
        if kind == GameKind::Raglan {
            let every = Raglan::with_every_move(&board).expect("a valid board");
            let pruning = Pruning::Everywhere(by_suit_left_out);
            check_random_play(&every, kind.rules(), &board, &picks, pruning);
        }
    }
}

proptest! {
    // Each case is a plain search of up to [`LATE_SEARCH_CAP`] positions,
    // so these run an eighth of proptest's case count (32, or
    // PROPTEST_CASES / 8).
    #![proptest_config(config(ProptestConfig::default().cases / 8))]

    /// Rows of Four: the engine's verdict (with its pruning: safe moves
    /// home, one empty pile, the card just moved staying, and its dead-end
    /// test) is the plain search's on late positions, won and lost alike,
    /// and its wins replay.
    #[test]
    fn rows_of_four_verdicts_agree(board in late_rows_of_fours()) {
        let truth = plain_search(GameKind::RowsOfFour.rules(), &board, LATE_SEARCH_CAP);
        check_late_verdict::<RowsOfFour>(GameKind::RowsOfFour, &board, truth);
    }

    /// Alexandria: the engine's verdict (with its pruning: safe moves
    /// home, one empty pile, no whole King-led pile to an empty one, the
    /// dead-end test of stranded cards) is
    /// the plain search's on late positions, won and lost alike, and its
    /// wins replay. The plain search meets positions that differ only in
    /// the order of their piles and foundations once (see
    /// [`alexandria_plain_search`]).
    #[test]
    fn alexandria_verdicts_agree(board in late_alexandrias()) {
        let truth = alexandria_plain_search(&board);
        check_late_verdict::<Alexandria>(GameKind::Alexandria, &board, truth);
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

/// The positions the plain search may store on a late Rows of Four or
/// Alexandria position before the case is skipped: most finish well
/// within it, and the rest would take seconds each.
const LATE_SEARCH_CAP: usize = 10_000;

/// The cards numbered deal `dealt` holds in play, in the order it dealt
/// them (piles bottom to top, pile by pile, then the stock), but for the
/// first copies of each that `home` (a foundation's top card each) holds.
fn cards_left(dealt: &Board, decks: u8, home: &[Card]) -> Vec<Card> {
    let mut left = [decks; Card::COUNT];
    for top in home {
        for rank in Rank::all().filter(|&rank| rank <= top.rank()) {
            left[Card::new(rank, top.suit()).index()] -= 1;
        }
    }
    let dealt =
        (dealt.piles.iter().flat_map(Pile::cards)).chain(dealt.stock.iter().flatten().copied());
    let mut cards = Vec::new();
    for card in dealt {
        if left[card.index()] > 0 {
            left[card.index()] -= 1;
            cards.push(card);
        }
    }
    cards
}

/// The first `drawn` cards of `stock` (all of them if `all`) moved onto
/// a waste, which is returned.
fn draw_some(stock: &mut Vec<Card>, drawn: Index, all: bool) -> Vec<Card> {
    let drawn = if all {
        stock.len()
    } else {
        drawn.index(stock.len() + 1)
    };
    stock.drain(..drawn).collect()
}

/// A late Rows of Four position: numbered deal `n` with each suit's two
/// foundations at the ranks `home` gives, the cards left dealt again in
/// the deal's order to piles `height` high, row by row, and the rest to
/// the stock, of which some is turned onto the waste (`drawn`, or all of
/// it if `all_drawn`); and `redeals` left. With no redeal left and the
/// whole stock on the waste, the waste's order decides more games.
fn late_rows_of_four(
    n: u64,
    home: [(u8, u8); 4],
    height: usize,
    (drawn, all_drawn): (Index, bool),
    redeals: u8,
) -> Board {
    let mut board = deal(GameKind::RowsOfFour.layout(), n);
    board.foundations = (Suit::ALL.into_iter().zip(home))
        .flat_map(|(suit, (a, b))| [a, b].map(|rank| Rank::new(rank).map(|r| Card::new(r, suit))))
        .collect();
    let tops: Vec<Card> = board.foundations.iter().flatten().copied().collect();
    let mut cards = cards_left(&board, 2, &tops).into_iter();
    let mut piles = vec![Vec::new(); board.piles.len()];
    for _ in 0..height {
        for pile in &mut piles {
            pile.extend(cards.next());
        }
    }
    let mut stock: Vec<Card> = cards.collect();
    board.waste = Some(draw_some(&mut stock, drawn, all_drawn));
    board.stock = Some(stock);
    board.piles = piles.into_iter().map(Pile::face_up).collect();
    board.redeals = Some(redeals);
    board
}

fn late_rows_of_fours() -> impl Strategy<Value = Board> {
    (
        any::<u64>(),
        prop::array::uniform4((9u8..=13, 9u8..=13)),
        2usize..=4,
        (any::<Index>(), any::<bool>()),
        prop_oneof![1 => Just(0u8), 2 => 1u8..=2],
    )
        .prop_map(|(n, home, height, drawn, redeals)| {
            late_rows_of_four(n, home, height, drawn, redeals)
        })
}

/// A late Alexandria position: numbered deal `n` with each suit's three
/// foundations at the ranks `home` gives, the cards left dealt again in
/// the deal's order, one pile at a time, all but a pile's top face down:
/// a King alone, another card with as many below it as its pick of
/// `heights` says (none in more than half the piles, up to three), so
/// that piles seldom empty and Kings have few empty piles to wander
/// between; the rest to the stock, of which some is turned onto the
/// waste (`drawn`, or all of it if `all_drawn`).
fn late_alexandria(
    n: u64,
    home: [u8; 12],
    heights: [Index; 13],
    (drawn, all_drawn): (Index, bool),
) -> Board {
    let mut board = deal(GameKind::Alexandria.layout(), n);
    board.foundations = (Suit::ALL.into_iter().flat_map(|suit| [suit; 3]).zip(home))
        .map(|(suit, rank)| Rank::new(rank).map(|rank| Card::new(rank, suit)))
        .collect();
    let tops: Vec<Card> = board.foundations.iter().flatten().copied().collect();
    let mut cards = cards_left(&board, 3, &tops).into_iter().peekable();
    for (pile, pick) in board.piles.iter_mut().zip(heights) {
        let height = match cards.peek().map(|card| card.rank()) {
            Some(Rank::KING) => 1,
            _ => 1 + pick.index(8).saturating_sub(4),
        };
        let mut down: Vec<Card> = cards.by_ref().take(height).collect();
        let up = down.pop().into_iter().collect();
        *pile = Pile { down, up };
    }
    let mut stock: Vec<Card> = cards.collect();
    board.waste = Some(draw_some(&mut stock, drawn, all_drawn));
    board.stock = Some(stock);
    board
}

fn late_alexandrias() -> impl Strategy<Value = Board> {
    (
        any::<u64>(),
        prop::array::uniform12(prop_oneof![Just(13u8), 7u8..=13]),
        prop::array::uniform13(any::<Index>()),
        (any::<Index>(), prop::bool::weighted(2.0 / 3.0)),
    )
        .prop_map(|(n, home, heights, drawn)| late_alexandria(n, home, heights, drawn))
}

/// [`plain_search`] with Alexandria's reference rules, meeting once the
/// positions alike up to the order of their piles (see `in_pile_order`).
fn alexandria_plain_search(board: &Board) -> Option<bool> {
    let rules = GameKind::Alexandria.rules();
    plain_search_by(rules, board, LATE_SEARCH_CAP, in_pile_order)
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
