//! Checks the engines' tests share: random play, the reference rules
//! beside the engine, keys against positions, narrowed moves against the
//! full ones, and verdicts against a plain search.

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;

use super::talon;

use crate::board::Board;
use crate::card::Card;
use crate::deal::Layout;
use crate::game::{Ask, Game, Ranks};
use crate::notation::Move;
use crate::reference::{Replay, Rules, replay};
use crate::search::{Limits, Planned, Tables, Tactic, Verdict, solve, solve_alone};

pub(crate) fn card(text: &str) -> Card {
    text.parse().unwrap()
}

pub(crate) fn board(text: &str) -> Board {
    Board::parse(text).unwrap()
}

/// The engine of numbered deal `n` of `layout`.
pub(crate) fn dealt<G: Game>(layout: &Layout, n: u64) -> G {
    G::new(&crate::deal::deal(layout, n)).unwrap()
}

/// Numbered deal `n` of `layout` as a board typed with no `Foundations:`
/// line and `redeals` left.
pub(crate) fn bare_deal(layout: &Layout, n: u64, redeals: u8) -> Board {
    let mut bare = crate::deal::deal(layout, n);
    bare.foundations.clear();
    bare.redeals = Some(redeals);
    bare
}

/// A small deterministic generator (xorshift64*), for random play.
pub(crate) struct Picks(u64);

impl Picks {
    pub(crate) fn new(seed: u64) -> Picks {
        Picks(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    /// One of `len` moves: mostly one of the `first` few, so that play
    /// gets on, and one time in `first + 1` any.
    pub(crate) fn early(&mut self, len: usize, first: usize) -> usize {
        match self.below(first + 1) {
            0 => self.below(len),
            _ => self.below(len.min(first)),
        }
    }
}

/// Every move of a position, ordered: what a full search is offered.
pub(crate) fn full_moves<G: Game>(game: &G, state: &G::State) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.moves(state, None, Ask::FULL, &mut moves);
    moves
}

/// The moves a search narrowed to `level` is offered, at `state` reached
/// by `last`.
pub(crate) fn narrowed_moves<G: Game>(
    game: &G,
    state: &G::State,
    last: Option<G::Move>,
    level: u32,
) -> Vec<G::Move> {
    let ask = Ask {
        narrowing: level,
        ..Ask::FULL
    };
    let mut moves = Vec::new();
    game.moves(state, last, ask, &mut moves);
    moves
}

/// Along play from each of `games` (see [`along_play`]), each of the
/// narrowed levels `1..=levels` offers only moves the full search offers,
/// and the next level up offers them too (a narrowed walk that ends
/// without a win stands for the levels below it); `check` sees each
/// level's moves beside the full ones, with the level's index (from 0).
/// Returns how many moves each level left out in all, which the caller
/// checks is not zero.
pub(crate) fn narrowed_are_full<G: Game>(
    games: impl IntoIterator<Item = G>,
    steps: usize,
    first: usize,
    levels: usize,
    mut check: impl FnMut(&G, &G::State, &[G::Move], usize, &[G::Move]),
) -> Vec<usize> {
    let mut left_out = vec![0; levels];
    for (n, game) in games.into_iter().enumerate() {
        along_play(&game, n as u64 + 1, steps, first, |state, full| {
            let mut below = Vec::new();
            for (level, left) in left_out.iter_mut().enumerate() {
                let moves = narrowed_moves(&game, state, None, level as u32 + 1);
                assert!(moves.iter().all(|mv| full.contains(mv)), "game {n}");
                assert!(below.iter().all(|mv| moves.contains(mv)), "game {n}");
                *left += full.len() - moves.len();
                check(&game, state, full, level, &moves);
                below = moves;
            }
        });
    }
    left_out
}

/// Whether a walk narrowed to a stock `window` may play the talon card at
/// place `t`: one of the stock's next `window` cards, or the waste's top,
/// or any other through the redeal once the stock is empty.
pub(crate) fn within_window(talon: u128, cursor: u8, window: u32, t: u8) -> bool {
    let stock = talon::stock(talon, cursor);
    match t >= cursor {
        true => (stock & ((1u128 << t) - 1)).count_ones() < window,
        false => stock == 0 || Some(t) == talon::waste_top(talon, cursor),
    }
}

/// `swap` puts `state`'s piles or foundations in another order: the key
/// stays, the board does not. Returns the key.
pub(crate) fn key_ignores<G: Game>(
    game: &G,
    state: &G::State,
    swap: impl Fn(&mut G::State),
) -> G::Key
where
    G::Key: Debug,
{
    let mut swapped = *state;
    swap(&mut swapped);
    let key = game.key(state);
    assert_eq!(game.key(&swapped), key);
    let text = |state| game.to_board(state).to_text();
    assert_ne!(text(&swapped), text(state));
    key
}

/// Each of `changed`, a position that differs from the one of `key`, has
/// another key.
pub(crate) fn keys_differ<G: Game>(
    game: &G,
    key: G::Key,
    changed: impl IntoIterator<Item = G::State>,
) where
    G::State: Debug,
{
    for other in changed {
        assert!(game.key(&other) != key, "{other:?}");
    }
}

/// Plays up to `steps` moves of `game` from its start, each picked by
/// [`Picks::early`] among the `first` few, calling `visit` at each
/// position with its full moves.
pub(crate) fn along_play<G: Game>(
    game: &G,
    seed: u64,
    steps: usize,
    first: usize,
    mut visit: impl FnMut(&G::State, &[G::Move]),
) {
    let mut picks = Picks::new(seed);
    let mut state = game.initial();
    for _ in 0..steps {
        let moves = full_moves(game, &state);
        visit(&state, &moves);
        if moves.is_empty() {
            return;
        }
        state = game.play(&state, moves[picks.early(moves.len(), first)]);
    }
}

/// The notation of an engine move.
pub(crate) fn notation_of<G: Game>(game: &G, state: &G::State, mv: G::Move) -> Vec<Move> {
    let mut out = Vec::new();
    game.notation(state, mv, &mut out);
    out
}

/// The engine's position is the reference's board: the same text, won and
/// cards home alike.
fn same_position<G: Game>(game: &G, state: &G::State, rules: &dyn Rules, board: &Board) {
    let text = board.to_text();
    assert_eq!(game.to_board(state).to_text(), text);
    assert_eq!(game.is_won(state), rules.is_won(board), "{text}");
    assert_eq!(
        game.cards_home(state) as usize,
        rules.cards_home(board),
        "{text}"
    );
}

/// From `board`, random play along engine moves (three first moves, see
/// [`Picks::early`]): at every position each engine move is listed once,
/// its notation is legal under `rules` and reaches the position the engine
/// reaches. `visit` sees each position, its moves with their notations,
/// and the reference's board. Returns the positions seen.
pub(crate) fn check_against_the_reference<G: Game>(
    rules: &dyn Rules,
    board: &Board,
    seed: u64,
    steps: usize,
    mut visit: impl FnMut(&G::State, &[(G::Move, Vec<Move>)], &Board),
) -> usize {
    let game = G::new(board).unwrap();
    let mut picks = Picks::new(seed);
    let mut at = (game.initial(), board.clone());
    for seen in 1..=steps {
        let (state, reference) = &at;
        same_position(&game, state, rules, reference);
        let text = reference.to_text();
        let listed: Vec<(G::Move, Vec<Move>)> = (full_moves(&game, state).into_iter())
            .map(|mv| (mv, notation_of(&game, state, mv)))
            .collect();
        let distinct: HashSet<&Vec<Move>> = listed.iter().map(|(_, n)| n).collect();
        assert_eq!(distinct.len(), listed.len(), "a move twice in\n{text}");
        visit(state, &listed, reference);
        let mut after: Vec<(G::State, Board)> = Vec::new();
        for (mv, notation) in &listed {
            let mut played = reference.clone();
            for step in notation {
                (rules.play(&mut played, step))
                    .unwrap_or_else(|e| panic!("{step} is illegal: {e}\nin\n{text}"));
            }
            let next = game.play(state, *mv);
            same_position(&game, &next, rules, &played);
            after.push((next, played));
        }
        if after.is_empty() {
            return seen;
        }
        let pick = picks.early(after.len(), 3);
        at = after.swap_remove(pick);
    }
    steps
}

/// The board with its piles sorted, and the redeals left: what a key
/// must tell apart in a game whose piles are alike, but for what the
/// game adds (`extra`). The foundations are left out: the cards home
/// follow from the rest.
fn canonical(board: &Board, extra: String) -> String {
    let mut piles: Vec<String> = (board.piles.iter())
        .map(|p| format!("{:?} {:?}", p.down, p.up))
        .collect();
    piles.sort();
    let Board {
        foundations: _,
        reserve,
        stock,
        waste,
        redeals,
        ..
    } = board;
    format!("{piles:?} {reserve:?} {stock:?} {waste:?} {redeals:?} {extra}")
}

/// The foundations' tops, sorted: the key leaves them out, so equal keys
/// must give them alike.
pub(crate) fn foundations_alike<G: Game>(game: &G, state: &G::State) -> String {
    let mut home: Vec<Option<Card>> = game.to_board(state).foundations;
    home.retain(Option::is_some);
    home.sort();
    format!("{home:?}")
}

/// Along play from `games` (a move chosen from the first five by the
/// step), two positions with the same key are the same but for the
/// order of the piles and for `extra`, which the game gives for what
/// its boards leave out; and, if `both_ways`, two such positions have
/// the same key. Returns how many positions were met again, which the
/// caller checks is not zero.
pub(crate) fn keys_match_positions<G: Game>(
    games: impl IntoIterator<Item = G>,
    steps: usize,
    both_ways: bool,
    extra: impl Fn(&G, &G::State) -> String,
) -> usize {
    let mut merged = 0;
    for (n, game) in games.into_iter().enumerate() {
        let mut keys: HashMap<G::Key, String> = HashMap::new();
        let mut texts: HashMap<String, G::Key> = HashMap::new();
        let (mut state, mut last) = (game.initial(), None);
        for step in 0..steps {
            let mut moves = Vec::new();
            game.moves(&state, last, Ask::FULL, &mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let next = game.play(&state, mv);
                let text = canonical(&game.to_board(&next), extra(&game, &next));
                let key = game.key(&next);
                merged += keys.contains_key(&key) as usize;
                let known = keys.entry(key).or_insert_with(|| text.clone());
                assert_eq!(*known, text, "game {n}, step {step}");
                if both_ways {
                    assert!(
                        *texts.entry(text).or_insert(key) == key,
                        "game {n}, step {step}"
                    );
                }
            }
            let pick = (n * 7 + step * 13) % 5 % moves.len();
            (state, last) = (game.play(&state, moves[pick]), Some(moves[pick]));
        }
    }
    merged
}

/// Along play from each of `games` (see [`along_play`]), the moves
/// unordered are the ordered ones. Returns how many lists came in another
/// order, which the caller checks is not zero.
pub(crate) fn reordered_lists<G: Game>(games: impl IntoIterator<Item = G>, steps: usize) -> u32 {
    let mut reordered = 0;
    for (n, game) in games.into_iter().enumerate() {
        along_play(&game, n as u64 + 1, steps, 3, |state, _| {
            reordered += unordered_are_ordered(&game, state, None) as u32;
        });
    }
    reordered
}

/// At `state`, reached by `last`, the moves unordered are the ordered
/// ones; returns whether they come in another order.
fn unordered_are_ordered<G: Game>(game: &G, state: &G::State, last: Option<G::Move>) -> bool {
    let ask = |ordered| Ask {
        ordered,
        ..Ask::FULL
    };
    let (mut sorted, mut unsorted) = (Vec::new(), Vec::new());
    game.moves(state, last, ask(true), &mut sorted);
    game.moves(state, last, ask(false), &mut unsorted);
    assert_eq!(unsorted.len(), sorted.len());
    assert!(unsorted.iter().all(|mv| sorted.contains(mv)));
    unsorted != sorted
}

/// Along play from each of `games` (see [`along_play`]), at each
/// narrowing level up to `levels`, the ranked moves taken best first are
/// the ordered ones, in their order. Returns how many lists were ranked in
/// another order than they came, which the caller checks is not zero.
pub(crate) fn ranked_are_ordered<G: Game>(
    games: impl IntoIterator<Item = G>,
    steps: usize,
    levels: u32,
) -> u32 {
    let mut reordered = 0;
    let (mut ranked, mut ranks, mut sorted) = (Vec::new(), Ranks::default(), Vec::new());
    for (n, game) in games.into_iter().enumerate() {
        along_play(&game, n as u64 + 1, steps, 3, |state, _| {
            for narrowing in 0..=levels {
                game.ranked_moves(state, None, narrowing, &mut ranked, &mut ranks);
                let taken: Vec<usize> = std::iter::from_fn(|| ranks.take_best()).collect();
                reordered += taken.iter().enumerate().any(|(i, &at)| i != at) as u32;
                let best_first: Vec<G::Move> = taken.iter().map(|&at| ranked[at]).collect();
                sorted.clear();
                let ask = Ask {
                    narrowing,
                    ordered: true,
                };
                game.moves(state, None, ask, &mut sorted);
                assert!(best_first == sorted, "deal {}, level {narrowing}", n + 1);
            }
        });
    }
    reordered
}

/// The engine's verdict on each of `boards` (with its pruning) is the one
/// `truth` gives, from a plain search with the reference rules, won and
/// lost alike, and its wins replay: with the game's plan, and with the
/// full walk alone, whose pruning alone must not lose a win the narrowed
/// walks would find. Boards `truth` cannot decide are skipped. Returns
/// the boards won and lost.
pub(crate) fn verdicts_agree<G: Planned>(
    rules: &dyn Rules,
    boards: impl IntoIterator<Item = Board>,
    memory: usize,
    truth: impl Fn(&Board) -> Option<bool>,
) -> (u32, u32) {
    let mut tables = Tables::new(memory);
    let mut counts = (0, 0);
    for board in boards {
        rules.validate(&board).unwrap();
        let Some(won) = truth(&board) else {
            continue;
        };
        let game = G::new(&board).unwrap();
        let limits = Limits::default();
        let reports = [
            solve(&game, &limits, &mut tables),
            solve_alone(&game, &limits, &mut tables, Tactic::Full),
        ];
        let text = board.to_text();
        for report in reports {
            match won {
                true => {
                    assert_eq!(report.verdict, Verdict::Won, "{text}");
                    assert_eq!(replay(rules, &board, &report.moves), Replay::Won, "{text}");
                }
                false => assert_eq!(report.verdict, Verdict::Lost, "{text}"),
            }
        }
        match won {
            true => counts.0 += 1,
            false => counts.1 += 1,
        }
    }
    counts
}

/// Solves each of the numbered `deals` of `layout` on one thread within
/// `max_nodes` positions and a table of `memory` bytes, and checks that
/// it is won and that the win replays under the reference rules.
pub(crate) fn assert_won_within<G: Planned>(
    layout: &Layout,
    rules: &dyn Rules,
    deals: &[u64],
    max_nodes: u64,
    memory: usize,
) {
    let limits = Limits {
        max_nodes: Some(max_nodes),
        ..Limits::default()
    };
    let mut tables = Tables::new(memory);
    for &n in deals {
        let deal = crate::deal::deal(layout, n);
        let game = G::new(&deal).unwrap();
        let report = solve(&game, &limits, &mut tables);
        assert_eq!(report.verdict, Verdict::Won, "deal {n}");
        assert_eq!(replay(rules, &deal, &report.moves), Replay::Won, "deal {n}");
    }
}
