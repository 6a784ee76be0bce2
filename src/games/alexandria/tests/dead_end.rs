//! The dead-end test ([`super::super::dead_end`]): its findings against
//! the reference rules' plain search, and its fast parts against plain
//! versions of each.

use super::*;
use crate::games::alexandria::dead_end::{self, Copies};

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

/// The talon's cards read by card and by run of places, and the waste's
/// cards (and those a position keeps, [`State::in_waste`]), are those read
/// a place at a time (or a card at a time), along
/// random play, and in talons with random places taken out (which play
/// never leaves in the stock).
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
        let waste = talon::waste(mask, cursor);
        let in_waste = (0..Card::COUNT)
            .filter(|&c| cards.places[c] & waste != 0)
            .fold(0u64, |cards, c| cards | 1 << c);
        assert_eq!(TalonCards::cards_at(&game.talon, waste), in_waste);
    };
    let mut picks = Picks::new(11);
    for n in 1..=10 {
        let game = deal(n);
        let mut positions = 0;
        crate::games::testing::along_play(&game, n, 300, 3, |state, _| {
            check(&game, state.talon, state.cursor);
            let waste = talon::waste(state.talon, state.cursor);
            assert_eq!(state.in_waste, TalonCards::cards_at(&game.talon, waste));
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

/// Along random play, the starting cards read by a pile's base are the
/// starting cards left under its run, read one by one, where two or more
/// are left (a lone card under the run counts none).
#[test]
fn stacked_cards_are_those_left_in_each_pile() {
    let mut stacked = 0;
    for n in 1..=10 {
        let game = deal(n);
        crate::games::testing::along_play(&game, n, 300, 3, |state, _| {
            for p in 0..PILES {
                let code = state.piles[p];
                let cards = match code.dealt_left() {
                    0 => 0,
                    dealt => (game.start_cards[p][..dealt].iter())
                        .fold(0u64, |cards, card| cards | 1 << card.index()),
                };
                assert_eq!(game.stacked_cards[code.base() as usize], cards, "deal {n}");
                stacked += (cards != 0) as u32;
            }
        });
    }
    assert!(stacked > 1000, "only {stacked} piles with cards left");
}

/// Each pile's counted starting cards are those among its first ones
/// counted one by one, and the cards that always leave are the Kings and
/// those a rank below the card under them, of the other colour.
#[test]
fn stack_tables_are_the_starting_cards_read_one_by_one() {
    for n in 1..=10 {
        let game = deal(n);
        for p in 0..PILES {
            let start = &game.start_cards[p];
            let len = game.start.piles[p].len();
            for dealt in 0..=len {
                let mut counts = [0u8; Card::COUNT];
                game.stacks.copies[p][dealt].add_to(&mut counts);
                for (c, &count) in counts.iter().enumerate() {
                    let plain = start[..dealt].iter().filter(|card| card.index() == c);
                    assert_eq!(count as usize, plain.count(), "deal {n} {p} {dealt}");
                }
            }
            for at in 0..len {
                let (card, rank) = (start[at], start[at].rank().get());
                let in_order = at > 0
                    && start[at - 1].rank().get() == rank + 1
                    && start[at - 1].colour() != card.colour();
                let leaves = rank == 13 || in_order;
                assert_eq!(
                    game.stacks.leave[p] >> at & 1 != 0,
                    leaves,
                    "deal {n} {p} {at}"
                );
            }
        }
    }
}

/// Copies as sets add up, and compare, as counts of each card do, over
/// every pair of counts up to three.
#[test]
fn copies_add_and_compare_as_counts() {
    let of = |counts: &[u8]| {
        (counts.iter().enumerate()).fold(Copies::default(), |copies, (c, &k)| {
            (0..k).fold(copies, |copies, _| copies.with(1 << c))
        })
    };
    let (a, b): (Vec<u8>, Vec<u8>) = (0..16).map(|i| (i / 4, i % 4)).unzip();
    let (ca, cb) = (of(&a), of(&b));
    let counts = |copies: Copies| {
        let mut counts = [0u8; Card::COUNT];
        copies.add_to(&mut counts);
        counts
    };
    // Added to counts already there.
    let mut onto = [1u8; Card::COUNT];
    ca.add_to(&mut onto);
    for c in 0..16 {
        assert_eq!(counts(ca)[c], a[c]);
        assert_eq!(onto[c], a[c] + 1);
        assert_eq!(
            counts(ca.plus(cb))[c],
            (a[c] + b[c]).min(3),
            "{} {}",
            a[c],
            b[c]
        );
        assert_eq!(
            ca.more_than(cb) >> c & 1 != 0,
            a[c] > b[c],
            "{} {}",
            a[c],
            b[c]
        );
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
