//! Lanes' relaxation (see `relaxed`): its walk's verdicts, its moves
//! against the game's, its keys and its dead-end test for every member.

use super::*;

/// The relaxed walk as the plan's exhaustive tactic, alone and on two
/// threads: it proves deal 374 lost itself; deal 703's relaxation is won
/// by lines that swap run cards twice: alone, the relaxed walk of the
/// second refinement proves the deal lost, and in the plan, which walks
/// one refinement, the full walk that takes its place; deals 5 and 580
/// are won by a line of the game's (580's in a refinement, alone), which
/// replays.
#[test]
fn the_relaxed_walk_refined_proves_losses_and_wins_deals() {
    let limits = Limits {
        memory: 1 << 28,
        ..Limits::default()
    };
    for (n, verdict, by) in [
        (374, Verdict::Lost, Tactic::Relaxed),
        (703, Verdict::Lost, Tactic::Full),
        (5, Verdict::Won, Tactic::Relaxed),
        (580, Verdict::Won, Tactic::Relaxed),
    ] {
        let board = crate::deal::deal(&LAYOUT, n);
        let game = Lanes::new(&board).unwrap();
        let alone = solve_alone(&game, &limits, &mut Tables::new(1 << 26), Tactic::Relaxed);
        assert_eq!(alone.verdict, verdict, "deal {n} alone");
        let report = solve_parallel(&game, &limits, 2, None);
        assert_eq!(report.verdict, verdict, "deal {n}");
        match verdict {
            Verdict::Won => {
                for moves in [&alone.moves, &report.moves] {
                    let replay = crate::reference::replay(&LanesRules, &board, moves);
                    assert_eq!(replay, crate::reference::Replay::Won, "deal {n}");
                }
            }
            _ => {
                assert_eq!(alone.decided_by, Some(Tactic::Relaxed), "deal {n}");
                assert_eq!(report.decided_by, Some(by), "deal {n}");
            }
        }
    }
}

/// Late positions of numbered deals with runs built by a few moves of
/// play: wherever the relaxed search proves a loss, the plain search
/// with the reference rules finds no win (a relaxation that lost a
/// line of the game fails here), and it proves most of the
/// losses the plain search finds, many with both cards of a rank and
/// colour in runs. Where the relaxation's dead-end test fires on such
/// a position, every member (each pair either way round) is lost to
/// the plain search too.
#[test]
fn relaxed_losses_are_losses_of_the_game() {
    let mut tables = Tables::new(1 << 26);
    let limits = Limits {
        max_nodes: Some(300_000),
        ..Limits::default()
    };
    let mut picks = Picks::new(36);
    let (mut won, mut lost, mut proven, mut split, mut members) = (0, 0, 0, 0, 0);
    let (mut realized, mut refined) = (0, 0);
    for n in 1..=1500 {
        let (board, game, mut state) = played_on(n, 24, &mut picks);
        let runs = game.run_cards(&state);
        if runs == 0 {
            continue;
        }
        // Half the positions in a refinement: some run cards' ranks and
        // colours kept.
        if n % 2 == 0 {
            state.relaxation = Some(random_kept(runs, &mut picks));
        }
        let position = game.to_board(&state);
        let truth = plain_search_by(&LanesRules, &position, 100_000, in_pile_order);
        let Some(winnable) = truth else {
            continue;
        };
        let from_here = Lanes {
            start: state,
            ..Lanes::new(&board).unwrap()
        };
        let report = solve_alone(&from_here, &limits, &mut tables, Tactic::Relaxed);
        let is_lost = report.verdict == Verdict::Lost;
        assert!(
            !(winnable && is_lost),
            "a win the relaxation lost:\n{}",
            position.to_text()
        );
        if report.verdict == Verdict::Won {
            let replay = crate::reference::replay(&LanesRules, &position, &report.moves);
            assert_eq!(replay, Replay::Won, "{}", position.to_text());
            realized += 1;
        }
        let both = |card: Card| {
            let pair = dead_end::TWINS[card.index()];
            runs & pair == pair && state.kept().cards() & pair == 0
        };
        won += winnable as u32;
        lost += !winnable as u32;
        proven += is_lost as u32;
        split += (is_lost && Card::all().any(both)) as u32;
        refined += (is_lost && !state.kept().is_empty()) as u32;
        // A dead end of the relaxation: every member, each way round
        // of the pairs of a rank and colour in runs, is lost.
        let pairs: Vec<[Card; 2]> = (Card::all().filter(|&c| both(c)))
            .map(relaxed::twins)
            .filter(|pair| pair[0].suit() < pair[1].suit())
            .collect();
        if pairs.is_empty() || pairs.len() > 4 || !game.is_dead_end(&game.relax(&state)) {
            continue;
        }
        for swaps in 0..1u32 << pairs.len() {
            let mut member = position.clone();
            let swapped = (pairs.iter().enumerate()).filter(|(i, _)| swaps >> i & 1 != 0);
            for (_, [a, b]) in swapped {
                for card in member.piles.iter_mut().flat_map(|pile| pile.up.iter_mut()) {
                    *card = match *card {
                        c if c == *a => *b,
                        c if c == *b => *a,
                        c => c,
                    };
                }
            }
            let truth = plain_search_by(&LanesRules, &member, 100_000, in_pile_order);
            assert_ne!(truth, Some(true), "a member won:\n{}", member.to_text());
            members += truth.is_some() as u32;
        }
    }
    assert!(won >= 200 && lost >= 200, "{won} won, {lost} lost");
    assert!(2 * proven >= lost, "{proven} of {lost} losses proven");
    assert!(
        split >= 50,
        "{split} proven with both cards of a rank and colour in runs"
    );
    assert!(members >= 200, "{members} members of dead ends decided");
    assert!(realized >= 100, "{realized} wins of the game's found");
    assert!(refined >= 100, "{refined} proven in a refinement");
}

/// Some of the ranks and colours of the cards `runs`, at random.
fn random_kept(runs: dead_end::Cards, picks: &mut Picks) -> Kept {
    let in_runs = Card::all().filter(|card| runs >> card.index() & 1 == 1);
    in_runs.fold(Kept::NONE, |kept, card| match picks.below(2) {
        0 => kept.with(card),
        _ => kept,
    })
}

/// The cards of the kept ranks and colours are the two of each: for each
/// card kept alone, and for random sets of them (a colour's ranks read
/// the wrong way round, or the colours or suits mixed up, fail here).
#[test]
fn kept_cards_are_both_cards_of_each_kept_rank_and_colour() {
    for card in Card::all() {
        assert_eq!(Kept::NONE.with(card).cards(), dead_end::TWINS[card.index()]);
    }
    assert_eq!(Kept::NONE.cards(), 0);
    let mut picks = Picks::new(41);
    for _ in 0..200 {
        let kept = random_kept((1 << Card::COUNT) - 1, &mut picks);
        let cards = Card::all().filter(|&card| kept.with(card) == kept);
        let pairs = cards.fold(0, |set, card| set | dead_end::TWINS[card.index()]);
        assert_eq!(kept.cards(), pairs);
    }
}

/// A relaxed position's moves home, each card's worked out from the sets
/// of [`relaxed::Homes`], are those its rules give card by card: home as
/// itself if it goes home next, forced where it is no run card, is kept
/// or has no twin in the runs; and if not forced, home as its twin, if
/// that goes home next. Along random relaxed play, with ranks and colours
/// kept at random in every other position.
#[test]
fn a_relaxed_cards_moves_home_are_its_own_and_its_twins() {
    let mut picks = Picks::new(42);
    let (mut forced, mut swaps) = (0, 0);
    for n in 1..=1500 {
        let board = with_waste(late_position(n), &mut picks);
        let game = Lanes::new(&board).unwrap();
        let mut state = game.relax(&game.initial());
        for i in 0..40 {
            let runs = game.run_cards(&state);
            let kept = match i % 2 {
                0 => Kept::NONE,
                _ => random_kept(runs, &mut picks),
            };
            let position = State {
                relaxation: Some(kept),
                ..state
            };
            let kept = |card: Card| position.kept().with(card) == position.kept();
            let homes = relaxed::Homes::of(&game, &position, position.next_home());
            let tops = (0..PILES as u8).filter(|&p| position.tops[p as usize] != NO_CARD);
            let talon = talon::places(position.talon as u128);
            for from in tops.map(From::Pile).chain(talon.map(From::Talon)) {
                let card = game.card_at(&position, from);
                let in_run =
                    matches!(from, From::Pile(p) if position.piles[p as usize].run_len() > 0);
                let alone = (runs & dead_end::TWINS[card.index()]).count_ones() == 1;
                let is_forced = !in_run || kept(card) || alone;
                let mut expected = Vec::new();
                if position.goes_home(card) {
                    expected.push((Step { from, to: None }, card, is_forced));
                }
                let twin = relaxed::twin(card);
                if !is_forced && position.goes_home(twin) {
                    let to = Some(relaxed::HOME_AS + twin.suit().index() as u8);
                    expected.push((Step { from, to }, twin, false));
                }
                let mut got = Vec::new();
                homes.each(from, card, |step, home, forced| {
                    got.push((step, home, forced))
                });
                let text = || game.to_board(&position).to_text();
                assert_eq!(got, expected, "{from:?} in\n{}", text());
                forced += expected.iter().filter(|(_, _, forced)| *forced).count();
                swaps += expected
                    .iter()
                    .filter(|(step, ..)| relaxed::swaps(step))
                    .count();
            }
            let moves = full_moves(&game, &state);
            if moves.is_empty() {
                break;
            }
            state = game.play(&state, moves[picks.early(moves.len(), 2)]);
        }
    }
    assert!(
        forced >= 500 && swaps >= 100,
        "{forced} forced, {swaps} swaps"
    );
}

/// A relaxed position's piles as the key should see them, sorted: each
/// its starting cards left and its run, each run card not kept made the
/// card of its rank and colour with suit bit 0.
fn relaxed_piles(game: &Lanes, state: &State) -> Vec<(Vec<Card>, Vec<Card>)> {
    let mut piles: Vec<(Vec<Card>, Vec<Card>)> = (0..PILES)
        .map(|p| {
            let mut cards = game.pile_vec(state, p);
            let run = cards.split_off(state.piles[p].dealt_left());
            let kept = state.kept().cards();
            let run = run
                .into_iter()
                .map(|card| match kept >> card.index() & 1 == 1 {
                    true => card,
                    false => relaxed::twins(card)[0],
                });
            (cards, run.collect())
        })
        .collect();
    piles.sort();
    piles
}

/// Two members of a relaxed position, one with a pair of twins in runs
/// swapped, and some ranks and colours kept: their keys are one exactly
/// when their piles are the same but for the suits of run cards not kept
/// (so each refinement tells apart its kept twins, and only those), and
/// positions of different refinements have different keys.
#[test]
fn a_refinement_keys_apart_the_kept_twins_alone() {
    let mut picks = Picks::new(5);
    let (mut same, mut apart) = (0, 0);
    for n in 1..=4000 {
        let board = with_waste(late_position(n), &mut picks);
        let game = Lanes::new(&board).unwrap();
        let mut state = game.relax(&game.initial());
        for _ in 0..20 + picks.below(40) {
            let moves = full_moves(&game, &state);
            if moves.is_empty() {
                break;
            }
            state = game.play(&state, moves[picks.early(moves.len(), 2)]);
        }
        let runs = game.run_cards(&state);
        for card in Card::all().filter(|&card| card == relaxed::twins(card)[0]) {
            let pair = dead_end::TWINS[card.index()];
            if runs & pair != pair {
                continue;
            }
            let twin = relaxed::twins(card)[1];
            let mut swapped = state;
            game.rebuild_runs(&mut swapped, |c| match c {
                c if c == card => twin,
                c if c == twin => card,
                c => c,
            });
            let kept = random_kept(runs, &mut picks);
            let [a, b] = [state, swapped].map(|state| State {
                relaxation: Some(kept),
                ..state
            });
            let one = game.key(&a) == game.key(&b);
            assert_eq!(
                one,
                relaxed_piles(&game, &a) == relaxed_piles(&game, &b),
                "{}",
                game.to_board(&a).to_text()
            );
            same += one as u32;
            apart += !one as u32;
            let finer = State {
                relaxation: Some(kept.with(card)),
                ..a
            };
            if finer.kept() != kept {
                let (key, finer) = (game.key(&a), game.key(&finer));
                assert!(
                    !key.covers(&finer) && !finer.covers(&key),
                    "refinements apart"
                );
            }
        }
    }
    assert!(same >= 200 && apart >= 500, "{same} one, {apart} apart");
}

/// In the relaxation and in each refinement, one position's key covers
/// another's with the same cards exactly when its talon is the stronger
/// (a redeal left, or the cursor further back), and no key covers one of
/// another walk: the count of ranks and colours kept takes none of the
/// strength's bits.
#[test]
fn a_relaxed_key_covers_by_its_talon_alone() {
    let game = Lanes::new(&crate::deal::deal(&LAYOUT, 58)).unwrap();
    let firsts = Card::all().filter(|&card| card == relaxed::twins(card)[0]);
    let walks = firsts
        .take(relaxed::MOST_KEPT as usize)
        .scan(Kept::NONE, |kept, card| {
            *kept = kept.with(card);
            Some(*kept)
        });
    let walks: Vec<Kept> = std::iter::once(Kept::NONE).chain(walks).collect();
    assert_eq!(walks.last().unwrap().count(), relaxed::MOST_KEPT);
    // Every place holds its card, so the cursor may stand anywhere.
    let talons = (0..=1).flat_map(|redeals| (0..=game.talon.len()).map(move |c| (redeals, c)));
    let keys: Vec<Vec<((u8, u8), TalonKey<3>)>> = (walks.iter())
        .map(|&kept| {
            let talons = talons.clone().map(|(redeals, cursor)| {
                let state = State {
                    cursor,
                    redeals,
                    relaxation: Some(kept),
                    ..game.initial()
                };
                ((redeals, cursor), game.key(&state))
            });
            talons.collect()
        })
        .collect();
    for (i, walk) in keys.iter().enumerate() {
        for &(a, key_a) in walk {
            for &(b, key_b) in walk {
                let stronger = talon::strength(a.1, a.0) >= talon::strength(b.1, b.0);
                assert_eq!(key_a.covers(&key_b), stronger, "walk {i}: {a:?} over {b:?}");
            }
            for (b, key_b) in keys.iter().skip(i + 1).flatten() {
                let apart = !key_a.covers(key_b) && !key_b.covers(&key_a);
                assert!(apart, "walk {i} {a:?} and a later walk's {b:?}");
            }
        }
    }
}

/// Every move of the game onto a pile, from a position the relaxed
/// walk holds, is a move of the relaxation there too (but where the
/// relaxation takes a safe move home alone): two piles whose tops have
/// the same rank and colour each take the card that builds on them.
#[test]
fn the_relaxation_builds_wherever_the_game_does() {
    let mut picks = Picks::new(11);
    let (mut checked, mut twin_tops) = (0, 0);
    for n in 1..=600 {
        let board = with_waste(late_position(n), &mut picks);
        let game = Lanes::new(&board).unwrap();
        let mut state = game.relax(&game.initial());
        for _ in 0..30 {
            let relaxed = full_moves(&game, &state);
            let member = State {
                relaxation: None,
                ..state
            };
            let is_home = |step: &Step| step.to.is_none_or(|to| to >= relaxed::HOME_AS);
            if relaxed.is_empty() || relaxed.len() == 1 && is_home(&relaxed[0]) {
                break;
            }
            for step in full_moves(&game, &member).iter().filter(|s| !is_home(s)) {
                assert!(
                    relaxed.contains(step),
                    "{step:?}:\n{}",
                    game.to_board(&state).to_text()
                );
                checked += 1;
            }
            let tops = (state.tops)
                .map(|top| (top != NO_CARD).then(|| relaxed::twins(Card::from_index(top.into()))));
            twin_tops +=
                (0..PILES).any(|p| tops[p].is_some() && tops[p + 1..].contains(&tops[p])) as u32;
            state = game.play(&state, relaxed[picks.early(relaxed.len(), 2)]);
        }
    }
    assert!(
        checked >= 5000 && twin_tops >= 100,
        "{checked} moves, {twin_tops} twin tops"
    );
}

/// A run card going home as its twin in the relaxation swaps the two
/// in the runs first: after it, the twin is home, the card lies where
/// the twin lay (the run cards are those of a member), and every pile
/// is, but for suits, what the card's own move home would leave. Such
/// a move is no line of the game's.
#[test]
fn a_move_home_as_the_twin_swaps_the_two() {
    let mut picks = Picks::new(7);
    let mut swaps = 0;
    for n in 1..=1500 {
        let board = with_waste(late_position(n), &mut picks);
        let game = Lanes::new(&board).unwrap();
        let mut state = game.relax(&game.initial());
        for _ in 0..40 {
            let moves = full_moves(&game, &state);
            let swap = |step: &&Step| step.to.is_some_and(|to| to >= relaxed::HOME_AS);
            let Some(&step) = moves.iter().find(swap) else {
                if moves.is_empty() {
                    break;
                }
                state = game.play(&state, moves[picks.early(moves.len(), 2)]);
                continue;
            };
            let From::Pile(p) = step.from else {
                panic!("only a run card goes home as its twin")
            };
            let card = game.card_at(&state, step.from);
            let suit = Suit::from_index(usize::from(step.to.unwrap() - relaxed::HOME_AS));
            let twin = Card::new(card.rank(), suit);
            assert_ne!(twin, card);
            let after = game.play(&state, step);
            assert_eq!(after.home[suit.index()], state.home[suit.index()] + 1);
            let runs = game.run_cards(&state) & !(1 << twin.index());
            assert_eq!(game.run_cards(&after), runs);
            let cards: Vec<Card> = (0..PILES).flat_map(|q| game.pile_vec(&after, q)).collect();
            assert!(cards.contains(&card) && !cards.contains(&twin));
            let (popped, _) =
                alternating::popped(&game.start_cards[p as usize], state.piles[p as usize], card);
            for q in 0..PILES {
                let before = if q == p as usize {
                    popped
                } else {
                    state.piles[q]
                };
                assert_eq!(after.piles[q].unsuited(), before.unsuited());
            }
            assert!(!game.is_game_line(&[step]));
            swaps += 1;
            break;
        }
    }
    assert!(swaps >= 50, "{swaps} moves home as the twin");
}

/// Where one relaxed game, each card of some pairs of a rank and colour in
/// runs standing for either card of its pair, finds no pile to empty, the
/// game of each way of swapping those pairs finds none either: the test of
/// a relaxed position asks that game first, for all its members at once.
#[test]
fn one_game_for_every_member_is_dead_only_where_each_is() {
    let mut picks = Picks::new(37);
    let (mut dead, mut undecided) = (0, 0);
    for n in 1..=5000 {
        let (_, game, state) = played_on(n, 80, &mut picks);
        let runs = game.run_cards(&state);
        let in_runs = |card: &Card| {
            let pair = dead_end::TWINS[card.index()];
            *card == relaxed::twins(*card)[0] && runs & pair == pair
        };
        let pairs: Vec<Card> = Card::all().filter(in_runs).collect();
        if pairs.is_empty() || pairs.len() > 4 || state.tops.contains(&NO_CARD) {
            continue;
        }
        let either = (pairs.iter()).fold(0, |either, card| either | dead_end::TWINS[card.index()]);
        let piles = dead_end::Piles::of(&game, &state);
        let all = dead_end::no_member_wins(&game, &state, &piles, either);
        let each = (0..1u32 << pairs.len()).all(|swaps| {
            let swapped =
                |card: Card| match pairs.iter().position(|&p| relaxed::twins(card)[0] == p) {
                    Some(i) if swaps >> i & 1 != 0 => relaxed::twin(card),
                    _ => card,
                };
            dead_end::cannot_win_as(&game, &state, &piles, swapped)
        });
        assert!(
            !all || each,
            "dead for all, not each:\n{}",
            game.to_board(&state).to_text()
        );
        dead += all as u32;
        undecided += (!all && each) as u32;
    }
    assert!(
        dead >= 300,
        "{dead} dead for every member, {undecided} only member by member"
    );
}
