//! The greedy player's rule, a casual player's: a card home if one can go
//! (the lowest first), else the move that uncovers most, else a draw.
//! Every player breaks its ties by this order.

use std::cmp::Reverse;

use crate::board::Board;
use crate::notation::{Move, Place};
use crate::reference::Rules;

/// How much a casual player wants a move, most first: a sortable key.
///
/// 1. A card to a foundation, the lowest rank first (it frees its suit's
///    next card soonest), then from the place with the most cards under it.
/// 2. A tableau card or run to another pile, from the pile that keeps the
///    most cards under it (face-down ones counting first): it uncovers
///    the card most buried.
/// 3. A waste or reserve card to a pile.
/// 4. A draw, then a redeal.
/// 5. Last, a tableau card or run that could move straight back, having
///    turned up no card nor emptied a pile onto a card: it only swaps one
///    base for another (or one empty pile for another), which a player
///    does not do while anything else is left.
///
/// Equal moves go in the order of their text, so the rule is one order.
pub fn order(
    rules: &dyn Rules,
    board: &Board,
    mv: &Move,
) -> (u8, i32, Reverse<(usize, usize)>, String) {
    let under = |place: Place, count: u8| match place {
        Place::Tableau(i) => board.piles.get(i as usize).map_or((0, 0), |pile| {
            let up = pile.up.len().saturating_sub(count as usize);
            (pile.down.len(), up)
        }),
        _ => (0, 0),
    };
    let (class, rank, under) = match *mv {
        Move::Play {
            from,
            to: Place::Foundation,
            card,
            count,
        } => (0, i32::from(card.rank().get()), under(from, count)),
        Move::Play {
            from: from @ Place::Tableau(_),
            to,
            card,
            count,
        } => {
            let back = Move::Play {
                from: to,
                to: from,
                card,
                count,
            };
            let kept = under(from, count);
            let onto_empty = matches!(to, Place::Tableau(i)
                if board.piles.get(i as usize).is_some_and(|p| p.down.is_empty() && p.up.is_empty()));
            // Turns up a face-down card, or empties a pile onto a card.
            let gains = kept.1 == 0 && (kept.0 > 0 || !onto_empty);
            let mut next = board.clone();
            let swap =
                !gains && rules.play(&mut next, mv).is_ok() && rules.play(&mut next, &back).is_ok();
            (if swap { 5 } else { 1 }, 0, kept)
        }
        Move::Play { .. } => (2, 0, (0, 0)),
        Move::Draw(_) => (3, 0, (0, 0)),
        Move::Redeal => (4, 0, (0, 0)),
    };
    (class, rank, Reverse(under), mv.to_string())
}

/// The greedy player's move among `moves`.
pub fn pick(rules: &dyn Rules, board: &Board, moves: &[Move]) -> Option<Move> {
    moves
        .iter()
        .copied()
        .min_by_key(|mv| order(rules, board, mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::raglan::RaglanRules;

    #[test]
    fn home_first_lowest_rank_then_what_uncovers_most() {
        let board =
            Board::parse("Foundations: 4H 2C 3D 5S\n: 8C | 9H 3C\n: 7D 6S\n: KD 8S 7H\n: 5D\n")
                .unwrap();
        let rules = RaglanRules;
        let moves: Vec<Move> = ["t2 t1 6S", "t3 t2 7H", "t4 f 5D", "t1 f 3C", "draw 2H"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let mut sorted = moves.clone();
        sorted.sort_by_key(|mv| order(&rules, &board, mv));
        let text: Vec<String> = sorted.iter().map(Move::to_string).collect();
        assert_eq!(
            text,
            ["t1 f 3C", "t4 f 5D", "t3 t2 7H", "t2 t1 6S", "draw 2H"]
        );
        assert_eq!(pick(&rules, &board, &moves), Some(sorted[0]));
        assert_eq!(pick(&rules, &board, &[]), None);
    }
}
