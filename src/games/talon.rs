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

/// The place of the waste's top card, if the waste has cards: the highest
/// place below the cursor still holding one.
pub(super) fn waste_top(talon: u128, cursor: u8) -> Option<u8> {
    let below = talon & ((1u128 << cursor) - 1);
    (below != 0).then(|| 127 - below.leading_zeros() as u8)
}

/// The cursor once the card at `place` has left the talon as the waste's
/// top: just above the card below it.
pub(super) fn cursor_below(talon: u128, place: u8) -> u8 {
    let below = talon & ((1u128 << place) - 1);
    match below {
        0 => 0,
        _ => 128 - below.leading_zeros() as u8,
    }
}

/// The stock: the places from the cursor on that still hold a card.
pub(super) fn stock(talon: u128, cursor: u8) -> u128 {
    talon >> cursor << cursor
}

/// The waste's top `n` cards (all of them if it has fewer): those that
/// will come off it next, in turn.
pub(super) fn waste_tops(talon: u128, cursor: u8, n: u32) -> u128 {
    let mut rest = talon & ((1u128 << cursor) - 1);
    let mut tops = 0;
    for _ in 0..n {
        if rest == 0 {
            break;
        }
        let top = 1u128 << (127 - rest.leading_zeros());
        tops |= top;
        rest ^= top;
    }
    tops
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

    #[test]
    fn the_waste_tops_are_its_last_cards_below_the_cursor() {
        let talon = 0b1011_0110;
        assert_eq!(waste_tops(talon, 0, 3), 0);
        assert_eq!(waste_tops(talon, 6, 0), 0);
        assert_eq!(waste_tops(talon, 6, 2), 0b0011_0000);
        assert_eq!(waste_tops(talon, 6, 9), 0b0011_0110);
        assert_eq!(waste_tops(talon, 8, 1), 0b1000_0000);
        assert_eq!(waste_tops(1 << 103 | 1, 104, 2), 1 << 103 | 1);
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
