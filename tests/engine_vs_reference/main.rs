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

//!
//! The checks and the random play shared by the games are here; each
//! game's small positions, and its verdict tests on them, are in its own
//! module.

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

mod all_in_a_row;
mod lanes;
mod late;
mod raglan;

use all_in_a_row::small_all_in_a_row;
use lanes::small_laneses;
use late::{late_alexandrias, late_rows_of_fours};
use raglan::crowded_raglans;

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

/// Proptest's settings with `cases` cases. Failing cases of every module
/// are kept in one file beside them (cargo runs the tests from the
/// package's root): proptest's default place is beside the crate root,
/// which an integration test cannot find.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/engine_vs_reference/regressions",
        ))),
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
