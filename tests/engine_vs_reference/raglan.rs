//! Raglan: late and crowded positions, the verdicts on them, and the
//! rules that lean on the table checked on whole deals.

use super::*;

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

pub(super) fn crowded_raglans() -> impl Strategy<Value = Board> {
    (
        any::<u64>(),
        prop::array::uniform4(9u8..=11),
        prop::collection::vec(any::<Index>(), 16),
    )
        .prop_map(|(n, home, picks)| crowded_raglan(n, home, &picks))
}

proptest! {
    // The case count is left to proptest (256, or PROPTEST_CASES for a
    // longer hunt).
    #![proptest_config(config(ProptestConfig::default().cases))]

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
