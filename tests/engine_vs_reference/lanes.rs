//! Lanes: small crowded positions and the verdicts on them.

use super::*;

/// A small Lanes position, crowded as Raglan's `crowded_raglan` is: each suit
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

pub(super) fn small_laneses() -> impl Strategy<Value = Board> {
    (
        any::<u64>(),
        prop::array::uniform4(9u8..=11),
        prop::collection::vec(any::<Index>(), 16),
        any::<bool>(),
    )
        .prop_map(|(n, home, picks, redeal)| small_lanes(n, home, &picks, redeal))
}

proptest! {
    // The case count is left to proptest (256, or PROPTEST_CASES for a
    // longer hunt).
    #![proptest_config(config(ProptestConfig::default().cases))]

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
