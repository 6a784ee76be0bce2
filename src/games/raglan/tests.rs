use super::*;
use crate::games::alternating::builds_on;
use crate::games::testing::{dealt, keys_match_positions, narrowed_moves, reordered_lists};

fn deal(n: u64) -> Raglan {
    dealt(&LAYOUT, n)
}

#[test]
fn a_reserve_card_put_on_a_pile_must_be_built_on_at_once() {
    for n in 1..100 {
        let game = deal(n);
        let start = game.initial();
        let mut moves = Vec::new();
        game.moves(&start, None, Ask::FULL, &mut moves);
        let Some(&step) = moves
            .iter()
            .find(|step| matches!(step.from, From::Reserve(_)) && step.to.is_some())
        else {
            continue;
        };
        let next = game.play(&start, step);
        let base = next.top(step.to.unwrap() as usize).unwrap();
        let mut after = Vec::new();
        game.moves(&next, Some(step), Ask::FULL, &mut after);
        assert!(
            !after.is_empty(),
            "deal {n}: it was offered with nothing to build"
        );
        for later in after {
            assert_eq!(later.to, step.to, "deal {n}");
            assert!(builds_on(game.card_at(&next, later.from), base), "deal {n}");
        }
        let free = State {
            must_build: NO_PILE,
            ..next
        };
        assert_ne!(game.key(&next), game.key(&free), "deal {n}");
        return;
    }
    panic!("no deal from 1 to 99 offers a reserve card a pile at the start");
}

/// Plays deals `1..deals` from the start, at most `steps` moves each,
/// taking the move `pick` chooses from the full list, and shows
/// `visit` each position with its full moves and the move that led
/// there, until `visit` says stop (`false`).
fn along_play(
    deals: u64,
    steps: usize,
    pick: fn(&[Step]) -> Option<&Step>,
    mut visit: impl FnMut(u64, &Raglan, &State, Option<Step>, &[Step]) -> bool,
) {
    for n in 1..deals {
        let game = deal(n);
        let mut state = game.initial();
        let mut last = None;
        for _ in 0..steps {
            let mut full = Vec::new();
            game.moves(&state, last, Ask::FULL, &mut full);
            if !visit(n, &game, &state, last, &full) {
                break;
            }
            let Some(&step) = pick(&full) else { break };
            state = game.play(&state, step);
            last = Some(step);
        }
    }
}

/// Unordered, the moves are the same ones, only not sorted.
#[test]
fn unordered_moves_are_the_ordered_ones() {
    let reordered = reordered_lists((1..50).map(deal), 60);
    assert!(reordered > 100, "only {reordered} lists were sorted at all");
}

/// Narrowed to level `k`, a position reached by `k` rearranging moves
/// in a row offers every move but those that rearrange again; in full,
/// or after fewer, it offers them too.
#[test]
fn a_narrowed_search_rearranges_only_so_many_times_in_a_row() {
    let mut checked = 0;
    along_play(200, 30, <[Step]>::first, |n, game, state, last, full| {
        let rearranging = |step: &Step| step.to.is_some() && Raglan::on_a_run(state, step.from);
        if !full.iter().any(rearranging) {
            return true;
        }
        let tired = State {
            rearranged: 4,
            ..*state
        };
        let at_4 = narrowed_moves(game, &tired, last, 4);
        let at_8 = narrowed_moves(game, &tired, last, 8);
        let progress: Vec<Step> = full.iter().copied().filter(|s| !rearranging(s)).collect();
        assert_eq!(at_4, progress, "deal {n}");
        assert_eq!(at_8, full, "deal {n}");
        checked += 1;
        false
    });
    assert!(checked > 20, "only {checked} positions could rearrange");
}

/// The best-first score that play carries from position to position
/// (after a move home, by finding the three next cards of its suit) is
/// the one the piles, spelled out card by card, give: runs, emptied
/// piles and moves home included, after every move met. So are the
/// weights it keeps per pile, which the next moves' scores come from.
/// (Play takes the last move, not the first, which goes home.)
#[test]
fn the_score_weighs_the_cards_the_piles_hold() {
    let mut runs_seen = 0;
    along_play(50, 60, <[Step]>::last, |n, game, state, _, full| {
        assert_eq!(game.score(state), plain_score(game, state), "deal {n}");
        assert_eq!(*state, game.weighed(*state), "deal {n}");
        for &step in full {
            let child = game.play(state, step);
            assert_eq!(game.score(&child), plain_score(game, &child), "deal {n}");
        }
        for p in 0..PILES {
            runs_seen += (state.piles[p].run_len() > 1) as u32;
        }
        true
    });
    assert!(runs_seen > 100, "few runs met: {runs_seen}");
}

/// The best-first score, from the piles spelled out.
fn plain_score(game: &Raglan, state: &State) -> i32 {
    let mut expected = CARD_HOME * game.cards_home(state) as i32;
    for p in 0..PILES {
        let cards = game.pile_vec(state, p);
        expected += EMPTY_PILE * cards.is_empty() as i32;
        for (i, card) in cards.iter().enumerate() {
            let home = state.home[card.suit().index()];
            let weight = match card.rank().get() - home {
                1 => 8,
                2 => 4,
                3 => 2,
                _ => 0,
            };
            expected -= weight * (cards.len() - 1 - i) as i32;
        }
    }
    expected
}

/// Along play from numbered deals, two positions with the same key are
/// the same but for the order of the piles: the packed codes, of
/// varying widths, read back one way only, and the foundations left
/// out of the key follow from the rest. (The converse fails now and
/// then: a starting card moved off and back onto the card it was dealt
/// on is a run card then, with another code. That costs a position
/// searched twice, never a verdict.)
#[test]
fn keys_tell_positions_apart_exactly() {
    let games = (1..=60).map(deal);
    let building = |game: &Raglan, state: &State| {
        let pile = state.must_build;
        format!(
            "{:?}",
            (pile != NO_PILE).then(|| game.pile_vec(state, pile as usize))
        )
    };
    let merged = keys_match_positions(games, 400, false, building);
    assert!(merged > 1000, "only {merged} positions met twice");
}

/// By the 0-1 principle, a network of compare-exchanges that sorts
/// every sequence of 0s and 1s sorts every sequence.
#[test]
fn the_key_network_sorts_nine_codes() {
    for bits in 0u32..1 << PILES {
        let mut codes: [PileCode; PILES] = std::array::from_fn(|i| PileCode(bits >> i & 1));
        sort_piles(&mut codes);
        assert!(codes.is_sorted(), "{bits:09b}");
    }
}
