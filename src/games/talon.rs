//! The stock and the waste as one sequence, the talon, for the games with
//! a stock (Lanes, Rows of Four, Alexandria): the waste bottom to top,
//! then the stock in the order it is drawn. A position keeps which places
//! still hold a card (a bit each) and a cursor: the places below it are
//! the waste. Drawing moves the cursor on, a redeal puts it back to 0 (the
//! waste turned over in order keeps the sequence), and playing the
//! waste's top takes its card out.
//!
//! The cursor stands just above the waste's top card, or at 0 when the
//! waste is empty, so that equal talons have equal cursors.
//!
//! Draws change neither the tableau nor the foundations, and no tableau
//! move reads the talon, so a winning line can put off every draw until
//! just before the play of the card it turns up. An engine's move therefore
//! plays any card that draws can bring to the waste's top: the top itself,
//! any card later in the stock, or, with a redeal left, any card below the
//! top (draw out the stock, redeal, draw to it). A card reachable in this
//! pass is not offered through a redeal too: that reaches the same
//! position with one redeal fewer, which can do nothing the other cannot.
//! The move list spells out each `draw` and `redeal` ([`Talon::draws`]).

use crate::board::Board;
use crate::card::Card;
use crate::notation::Move;

/// Where a card is taken from in a game with a talon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    Pile(u8),
    /// The talon card at this place, drawn to the waste's top first if it
    /// is not there.
    Talon(u8),
}

/// The talon's cards, at most `N`: the board's waste bottom to top, then
/// its stock in the order drawn.
pub(super) struct Talon<const N: usize> {
    cards: [Card; N],
    len: u8,
}

impl<const N: usize> Talon<N> {
    /// The board's talon, or `None` if it holds more than `N` cards.
    pub(super) fn new(board: &Board) -> Option<Talon<N>> {
        let waste = board.waste.as_deref().unwrap_or_default();
        let stock = board.stock.as_deref().unwrap_or_default();
        if waste.len() + stock.len() > N.min(128) {
            return None;
        }
        let mut cards = [Card::from_index(0); N];
        for (slot, &card) in cards.iter_mut().zip(waste.iter().chain(stock)) {
            *slot = card;
        }
        let len = (waste.len() + stock.len()) as u8;
        Some(Talon { cards, len })
    }

    /// How many places the talon has.
    pub(super) fn len(&self) -> u8 {
        self.len
    }

    /// The card at place `t`.
    #[inline]
    pub(super) fn card(&self, t: u8) -> Card {
        self.cards[t as usize]
    }

    /// Every place holding its card, as at the start.
    pub(super) fn full(&self) -> u128 {
        below(self.len)
    }

    /// The cards of `talon`'s places in `range`, in talon order.
    pub(super) fn cards_in(&self, talon: u128, range: std::ops::Range<u8>) -> Vec<Card> {
        (range.filter(|&t| talon & 1 << t != 0))
            .map(|t| self.card(t))
            .collect()
    }

    /// The board's stock and waste.
    pub(super) fn stock_and_waste(&self, talon: u128, cursor: u8) -> (Vec<Card>, Vec<Card>) {
        (
            self.cards_in(talon, cursor..self.len),
            self.cards_in(talon, 0..cursor),
        )
    }

    /// The draws (and redeal) that bring the card at place `t` to the
    /// waste's top, as the move list spells them.
    pub(super) fn draws(&self, talon: u128, cursor: u8, t: u8, out: &mut Vec<Move>) {
        let draw = |range: std::ops::Range<u8>| {
            (range.filter(move |&t| talon & 1 << t != 0)).map(|t| Move::Draw(self.card(t)))
        };
        if t >= cursor {
            out.extend(draw(cursor..t + 1));
        } else if Some(t) != waste_top(talon, cursor) {
            out.extend(draw(cursor..self.len));
            out.push(Move::Redeal);
            out.extend(draw(0..t + 1));
        }
    }
}

/// The talon and cursor once the card at place `t` is played, and whether
/// reaching it took a redeal (it lay below the waste's top).
#[inline]
pub(super) fn take(talon: u128, cursor: u8, t: u8) -> (u128, u8, bool) {
    let redeal = t < cursor && Some(t) != waste_top(talon, cursor);
    let talon = talon & !(1 << t);
    (talon, cursor_below(talon, t), redeal)
}

/// The places of a mask's set bits, lowest first.
pub(super) fn places(mut mask: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let t = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            t
        })
    })
}

/// The place of the waste's top card, if the waste has cards: the highest
/// place below the cursor still holding one.
pub(super) fn waste_top(talon: u128, cursor: u8) -> Option<u8> {
    let waste = waste(talon, cursor);
    (waste != 0).then(|| 127 - waste.leading_zeros() as u8)
}

/// The places below `place`, a bit each: every place at 128, where a
/// talon of 128 cards all drawn puts the cursor (a shift by 128 would
/// overflow).
pub(super) fn below(place: u8) -> u128 {
    u128::MAX.checked_shr(128 - place as u32).unwrap_or(0)
}

/// The waste: the places below the cursor that still hold a card.
pub(super) fn waste(talon: u128, cursor: u8) -> u128 {
    talon & below(cursor)
}

/// The cursor once the card at `place` has left the talon as the waste's
/// top: just above the card below it.
pub(super) fn cursor_below(talon: u128, place: u8) -> u8 {
    match talon & below(place) {
        0 => 0,
        below => 128 - below.leading_zeros() as u8,
    }
}

/// The stock: the places from the cursor on that still hold a card.
pub(super) fn stock(talon: u128, cursor: u8) -> u128 {
    talon & !below(cursor)
}

/// The place of the stock's next card, if the stock has cards. Drawn and
/// played, it leaves the waste as it was, so it is as free as the waste's
/// top (the safe moves home count it so).
pub(super) fn next_drawn(talon: u128, cursor: u8) -> Option<u8> {
    let stock = stock(talon, cursor);
    (stock != 0).then(|| stock.trailing_zeros() as u8)
}

/// How much a talon can still reach, for keys that let a position stand
/// for the positions it covers ([`crate::key::TalonKey`]): a redeal left
/// counts first, then a cursor further back. Of two talons with the same
/// cards, the stronger can play every card the weaker can play, leaving
/// the same cards and cursor (which hang on the card played alone) and
/// as many redeals or more: the weaker's waste top and stock lie at or
/// past the stronger's cursor, and a card the weaker reaches through its
/// redeal the stronger reaches too, with a redeal to spare or through its
/// own. So a win from the weaker is a win from the stronger, in as many
/// moves.
pub(super) fn strength(cursor: u8, redeals: u8) -> u64 {
    debug_assert!(cursor <= 128 && redeals < 4);
    (redeals as u64) << 8 | (255 - cursor as u64)
}

/// The stock's next `n` cards (all of them if it has fewer): those a play
/// can reach by drawing past at most `n - 1` others.
pub(super) fn stock_window(talon: u128, cursor: u8, n: u32) -> u128 {
    let stock = stock(talon, cursor);
    let mut rest = stock;
    for _ in 0..n {
        rest &= rest.wrapping_sub(1);
    }
    stock & !rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_waste_top_is_the_last_card_below_the_cursor() {
        let talon = 0b1011_0110;
        assert_eq!(waste_top(talon, 0), None);
        assert_eq!(waste_top(talon, 1), None);
        assert_eq!(waste_top(talon, 4), Some(2));
        assert_eq!(waste_top(talon, 8), Some(7));
        assert_eq!(waste_top(1 << 103, 104), Some(103));
        assert_eq!(cursor_below(talon, 7), 6);
        assert_eq!(cursor_below(talon, 4), 3);
        assert_eq!(cursor_below(talon, 1), 0);
        assert_eq!(cursor_below(talon, 0), 0);
    }

    /// A talon of 128 places drawn to the end has its cursor at 128: all
    /// of it waste, none stock.
    #[test]
    fn a_cursor_past_the_last_place_leaves_it_all_waste() {
        let talon = u128::MAX ^ 1 << 5;
        assert_eq!(below(0), 0);
        assert_eq!(below(3), 0b111);
        assert_eq!(below(128), u128::MAX);
        assert_eq!(waste(talon, 128), talon);
        assert_eq!(stock(talon, 128), 0);
        assert_eq!(waste_top(talon, 128), Some(127));
        assert_eq!(next_drawn(talon, 128), None);
    }

    #[test]
    fn the_window_holds_the_next_cards_of_the_stock() {
        let talon = 0b1011_0110;
        assert_eq!(stock(talon, 3), 0b1011_0000);
        assert_eq!(stock_window(talon, 3, 0), 0);
        assert_eq!(stock_window(talon, 3, 2), 0b0011_0000);
        assert_eq!(stock_window(talon, 3, 3), 0b1011_0000);
        assert_eq!(stock_window(talon, 3, 9), 0b1011_0000);
        assert_eq!(stock_window(talon, 8, 5), 0);
        assert_eq!(stock_window(1 << 103 | 1, 1, 1), 1 << 103);
    }
}
