//! Rows of Four and Alexandria: late positions of numbered deals, and
//! the verdicts on them where the plain search can finish.

use super::*;

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

pub(super) fn late_rows_of_fours() -> impl Strategy<Value = Board> {
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

pub(super) fn late_alexandrias() -> impl Strategy<Value = Board> {
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
