//! Lanes' dead-end test: a relaxed game that cannot be won.
//!
//! The relaxed game keeps what each move needs but never takes back what
//! a move made true: a card once reachable (a pile's top, the waste's top,
//! any card of the stock) stays reachable, a card once on the tableau top
//! stays a place to build on, and a pile once emptied stays a place for
//! any card. Everything the real game can do from a position, the relaxed
//! game can do too, so when even the relaxed game cannot get every card
//! home, no line from the position wins, and the search need not look
//! below it.
//!
//! Its states only grow, so the most it can reach is found by applying
//! its moves until nothing changes:
//!
//! - a reachable card goes home once its suit's card below is home;
//! - a reachable card leaves its place (uncovering the card under it) to
//!   a card it builds on that has been a tableau top, or to a pile that
//!   has been empty, and is then a tableau top itself;
//! - a card is reachable once every card above it in its pile has left;
//!   every card of the stock is reachable (a draw reaches any), and so is
//!   every talon card while a redeal is left; in the last pass a waste
//!   card is reachable once the waste's cards above it have left (the
//!   cards a later draw lays on it only make that harder for the real
//!   game, so leaving them out keeps the relaxed game the stronger).
//!
//! The test is worth its cost only where no pile can be emptied, since an
//! empty pile takes any card: it finds deals lost in the last pass, where
//! the waste can no longer be dealt off and every pile is stuck.

use super::{Lanes, PILES, State};
use crate::card::{Card, Rank, Suit};
use crate::games::NO_CARD;
use crate::games::alternating::{BASES, pile_cards};
use crate::games::talon;

/// A set of cards, a bit each by card index.
type Cards = u64;

const fn bit(card: Card) -> Cards {
    1 << card.index()
}

/// Whether no line from `state` gets every card home (see the module).
pub(super) fn cannot_win(game: &Lanes, state: &State) -> bool {
    // An empty pile takes every card that becomes reachable, which uncovers
    // every card: the relaxed game then wins.
    if state.tops.contains(&NO_CARD) {
        return false;
    }
    // The piles and, in the last pass, the waste: each a stack, bottom
    // first, of which `len` cards have not left.
    let mut stacks = [[0u8; Card::COUNT]; PILES + 1];
    let mut len = [0usize; PILES + 1];
    for p in 0..PILES {
        pile_cards(&game.start_cards[p], state.piles[p], |card| {
            stacks[p][len[p]] = card.index() as u8;
            len[p] += 1;
        });
    }
    let mut reachable: Cards = 0;
    let mut home: Cards = 0;
    for suit in Suit::ALL {
        for rank in 1..=state.home[suit.index()] {
            home |= bit(Card::new(Rank::new(rank).expect("1 to 13"), suit));
        }
    }
    let talon = state.talon as u128;
    let open = match state.redeals {
        0 => talon::stock(talon, state.cursor),
        _ => talon,
    };
    for t in talon::places(open) {
        reachable |= bit(game.talon.card(t));
    }
    for t in talon::places(talon & !open) {
        stacks[PILES][len[PILES]] = game.talon.card(t).index() as u8;
        len[PILES] += 1;
    }
    let mut left: Cards = home;
    let mut tableau: Cards = 0;
    // The cards the relaxed game has moved to a pile from their place.
    let mut moved: Cards = 0;
    let mut emptied = false;
    loop {
        let before = (reachable, left, tableau, emptied);
        for (s, stack) in stacks.iter().enumerate() {
            while len[s] > 0 && left & 1 << stack[len[s] - 1] != 0 {
                len[s] -= 1;
            }
            match len[s] {
                0 => emptied |= s < PILES,
                n => {
                    let top = 1 << stack[n - 1];
                    reachable |= top;
                    if s < PILES {
                        tableau |= top;
                    }
                }
            }
        }
        for suit in Suit::ALL {
            for rank in state.home[suit.index()] + 1..=13 {
                let card = bit(Card::new(Rank::new(rank).expect("1 to 13"), suit));
                if reachable & card == 0 {
                    break;
                }
                home |= card;
            }
        }
        left |= home;
        // A card home may have been built on the tableau first, so each
        // reachable card not yet moved there is tried, home or not.
        let mut waiting = reachable & !moved;
        while waiting != 0 {
            let i = waiting.trailing_zeros() as usize;
            waiting &= waiting - 1;
            let [a, b] = BASES[i];
            let base_met = |base: u8| (base as usize) < Card::COUNT && tableau & 1 << base != 0;
            if emptied || base_met(a) || base_met(b) {
                moved |= 1 << i;
                left |= 1 << i;
                tableau |= 1 << i;
            }
        }
        if (reachable, left, tableau, emptied) == before {
            break;
        }
    }
    home.count_ones() < Card::COUNT as u32
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::board::{Board, Pile};
    use crate::game::Game;
    use crate::games::GameKind;
    use crate::reference::{in_pile_order, plain_search_by};

    /// A crowded late position of the last pass, where losses are common:
    /// each suit home to a random rank from 5 to 9, the other cards shuffled
    /// into the six piles (two at least each) and the rest into the waste
    /// and a short stock, with no redeal left.
    fn crowded(rng: &mut ChaCha8Rng) -> Board {
        let mut board = crate::deal::deal(&super::super::LAYOUT, rng.random_range(1..1000));
        let home: [u8; 4] = std::array::from_fn(|_| rng.random_range(5..=9));
        let mut left: Vec<Card> = Card::all()
            .filter(|card| card.rank().get() > home[card.suit().index()])
            .collect();
        left.shuffle(rng);
        let mut piles = vec![Vec::new(); PILES];
        for (i, card) in left.drain(..2 * PILES).enumerate() {
            piles[i % PILES].push(card);
        }
        let stock = left.split_off(left.len() - left.len().min(rng.random_range(0..=2)));
        for card in left.drain(..left.len() * 2 / 3) {
            piles[rng.random_range(0..PILES)].push(card);
        }
        board.piles = piles.into_iter().map(Pile::face_up).collect();
        board.waste = Some(left);
        board.stock = Some(stock);
        board.redeals = Some(0);
        for top in board.foundations.iter_mut().flatten() {
            let rank = Rank::new(home[top.suit().index()]).expect("5 to 9");
            *top = Card::new(rank, top.suit());
        }
        board
    }

    /// On crowded positions the plain search with the reference rules
    /// decides, every position the test calls a dead end is lost, and the
    /// test finds a good part of the lost ones: a test that pruned a win, or that
    /// never fired, would fail here.
    #[test]
    fn dead_ends_are_lost_and_many_losses_are_dead_ends() {
        let rules = GameKind::Lanes.rules();
        let mut rng = ChaCha8Rng::seed_from_u64(35);
        let (mut won, mut lost, mut dead) = (0, 0, 0);
        let mut tried = 0;
        while won + lost < 200 {
            tried += 1;
            let board = crowded(&mut rng);
            rules.validate(&board).expect("a Lanes position");
            let Some(winnable) = plain_search_by(rules, &board, 50_000, in_pile_order) else {
                continue;
            };
            let game = Lanes::new(&board).unwrap();
            let is_dead = cannot_win(&game, &game.initial());
            assert!(
                !(winnable && is_dead),
                "a winnable dead end:\n{}",
                board.to_text()
            );
            (won, lost, dead) = (
                won + winnable as u32,
                lost + !winnable as u32,
                dead + is_dead as u32,
            );
        }
        assert!(won >= 20 && lost >= 15, "{won} won, {lost} lost of {tried}");
        assert!(3 * dead >= lost, "{dead} dead ends of {lost} lost");
    }
}
