//! Alexandria's dead-end test: cards that can never leave the stack they
//! lie in.
//!
//! With no redeal the waste is a stack, as each pile is: a card in either
//! leaves only once every card above it has left, and it leaves only to a
//! foundation or onto a tableau card one rank higher of the other colour
//! (a King to an empty pile). Once the foundations are high, many cards
//! have nowhere to go but home, and a card that must go home before a card
//! below it can leave, while that one (or what it needs) must go home
//! first, leaves a position lost however long the search goes on below
//! it: where the walks spent nearly all their positions.
//!
//! The test plays a *relaxed* game, in which every move of the real game
//! is allowed and more, and finds which cards can leave their stacks in it
//! (see [`Alexandria::stranded`]). A card that cannot leave its stack in
//! the relaxed game cannot in the real one, and never goes home.

use super::{Alexandria, PILES, State};
use crate::card::{Card, Rank};
use crate::games::NO_CARD;
use crate::games::alternating::{BASES, NO_BASE};
use crate::games::pile_code::MAX_START;
use crate::games::talon;

// A pile's stack (its starting cards still there) fits a `u32`, a bit a
// card, as `stranded` keeps which of its cards can leave.
const _: () = assert!(MAX_START <= 32);

/// The two cards `card` can lie on in the tableau (one rank higher, of the
/// other colour), by [`Card::index`]: `None` for a King.
fn landings(card: usize) -> Option<[usize; 2]> {
    let [a, b] = BASES[card];
    (a != NO_BASE).then_some([a as usize, b as usize])
}

impl Alexandria {
    /// Whether some card can never leave its pile or the waste: a sound
    /// dead-end test (see the module doc).
    ///
    /// The relaxed game: a stock card is free at any time, and drawing it
    /// buries nothing; a card leaves its stack (the waste, or a pile) once
    /// every card above it has, and then
    /// - a King always can (as if an empty pile were there);
    /// - another card can if a card it may lie on (see [`landings`]) is
    ///   not home and not under it in its stack, and is on the tableau or
    ///   is a talon card that can get there in the same way (a King, or one
    ///   with such a card to lie on, not under it in the waste); the card
    ///   is taken to be free from then on, whatever it lies on;
    /// - a pile's card lying in order on the card under it can: it may be
    ///   carried off in a run, by a card under it, before the cards above
    ///   it have left;
    /// - any card can if one more of the cards below it in its suit could
    ///   be home than are now home of its own rank (a card goes home only
    ///   on a foundation of its suit at the rank below, and each
    ///   foundation holds one copy of each rank up to its top).
    ///
    /// The cards that could be home, of each suit and rank, are at most
    /// those of that rank free or home (out of their stacks), and at most
    /// those of the rank below that could be. Every real line is a line of
    /// the relaxed game, in which a card out of its stack stays so and the
    /// cards that could be home only grow; so the relaxed game, letting
    /// every card out as soon as it may, frees at least every card a real
    /// line frees, in any order. A card it never frees stays in its stack,
    /// off the foundations, in every line: the position is lost.
    pub(super) fn stranded(&self, state: &State) -> bool {
        if self.none_bound(state) {
            return false;
        }
        // Copies home of each card, by index: a foundation of its suit
        // holds one of each rank up to its top.
        let mut home = [0u8; Card::COUNT];
        for (suit, rank) in state.home.started() {
            for at in &mut home[suit * 13..suit * 13 + rank as usize] {
                *at += 1;
            }
        }
        // The copies of each card in the stock, which count as out of
        // their stacks (see below), and the waste bottom to top.
        let mut out = home;
        let mut in_stock = [0u8; Card::COUNT];
        for t in talon::places(talon::stock(state.talon, state.cursor)) {
            in_stock[self.talon.card(t).index()] += 1;
        }
        for (out, &stocked) in out.iter_mut().zip(&in_stock) {
            *out += stocked;
        }
        let mut waste = [0u8; 128];
        let mut waste_len = 0;
        for t in talon::places(state.waste()) {
            waste[waste_len] = self.talon.card(t).index() as u8;
            waste_len += 1;
        }
        // Each pile's stack, its starting cards still there bottom to top,
        // and the copies of each card on the tableau. The cards above a
        // stack (its run, and a King put on an emptied pile) can always
        // leave, each a King or lying in order on the card under it: they
        // are out of their stacks from the start, which frees nothing the
        // loop below would not.
        let mut stacks: [&[Card]; PILES] = [&[]; PILES];
        let mut tableau = [0u8; Card::COUNT];
        for (p, stack) in stacks.iter_mut().enumerate() {
            let (code, start) = (state.piles[p], &self.start_cards[p]);
            let Some(base) = code.base_in(start) else {
                continue;
            };
            // A lone card that is not the pile's first is a King: only a
            // King goes on an empty pile.
            let dealt = match code.dealt_left() {
                0 => (base == start[0]) as usize,
                dealt => dealt,
            };
            *stack = &start[..dealt];
            for card in stack.iter() {
                tableau[card.index()] += 1;
            }
            let king = (dealt == 0).then_some(base);
            for card in king.into_iter().chain(code.run_cards(base)) {
                tableau[card.index()] += 1;
                out[card.index()] += 1;
            }
        }
        // The waste places of each card's copies, lowest first.
        let mut waste_at = [[0u8; 3]; Card::COUNT];
        let mut in_waste = [0u8; Card::COUNT];
        for (at, &card) in waste[..waste_len].iter().enumerate() {
            let card = card as usize;
            waste_at[card][in_waste[card] as usize] = at as u8;
            in_waste[card] += 1;
        }
        // Which talon cards can get onto the tableau, a rank at a time from
        // the Kings down: `from_stock[c]` if a copy of card `c` in the stock
        // can, `from_waste[c]` one more than the highest waste place of a
        // copy that can, 0 if none. `lands(c, above)`: whether a card `c`
        // has a landing on the tableau, in the stock, or in the waste at
        // place `above` or higher (that can get onto the tableau).
        let mut from_stock = [false; Card::COUNT];
        let mut from_waste = [0u8; Card::COUNT];
        let lands = |card: usize, above: usize, from_stock: &[bool], from_waste: &[u8]| {
            landings(card).is_none_or(|on| {
                on.iter()
                    .any(|&l| tableau[l] > 0 || from_stock[l] || from_waste[l] as usize > above)
            })
        };
        for rank in (0..13).rev() {
            for suit in 0..4 {
                let card = suit * 13 + rank;
                if in_stock[card] > 0 {
                    from_stock[card] = lands(card, 0, &from_stock, &from_waste);
                }
                // A lower copy has more of the waste above it: the highest
                // that lands is the first found from the top.
                for &at in waste_at[card][..in_waste[card] as usize].iter().rev() {
                    if lands(card, at as usize + 1, &from_stock, &from_waste) {
                        from_waste[card] = at + 1;
                        break;
                    }
                }
            }
        }
        // Which stacked cards can leave by a landing, whatever goes home, a
        // bit each by place: in the waste, as above; in a pile, a landing
        // not under it in its pile, or carried in a run: lying in order on
        // the card under it.
        let mut waste_free = 0u128;
        for (at, &card) in waste[..waste_len].iter().enumerate() {
            waste_free |= (lands(card as usize, at + 1, &from_stock, &from_waste) as u128) << at;
        }
        let mut bound = waste_free.count_ones() as usize != waste_len;
        let mut pile_free = [0u32; PILES];
        for (stack, free) in stacks.iter().zip(&mut pile_free) {
            for (at, card) in stack.iter().enumerate() {
                let on = landings(card.index());
                let leaves = on.is_none_or(|on| {
                    (at > 0 && on.contains(&stack[at - 1].index()))
                        || on.iter().any(|&l| {
                            from_stock[l]
                                || from_waste[l] > 0
                                || tableau[l] as usize
                                    > stack[..at].iter().filter(|c| c.index() == l).count()
                        })
                });
                *free |= (leaves as u32) << at;
            }
            bound |= free.count_ones() as usize != stack.len();
        }
        if !bound {
            return false;
        }
        // Take cards off the stacks' tops while any can leave.
        loop {
            // The copies of each card that could be home: at most those
            // out of their stacks, and those of the rank below that could.
            let mut could = [0u8; Card::COUNT];
            for suit in 0..4 {
                let mut below = 3;
                for rank in 0..13 {
                    below = out[suit * 13 + rank].min(below);
                    could[suit * 13 + rank] = below;
                }
            }
            // An Ace always goes home: twelve foundations take twelve.
            let leaves = |card: usize, free: bool| {
                free || Card::from_index(card).rank() == Rank::ACE || could[card - 1] > home[card]
            };
            let mut moved = false;
            for (stack, free) in stacks.iter_mut().zip(&pile_free) {
                while let Some((card, rest)) = stack.split_last()
                    && leaves(card.index(), free >> rest.len() & 1 != 0)
                {
                    *stack = rest;
                    out[card.index()] += 1;
                    moved = true;
                }
            }
            while waste_len > 0
                && leaves(
                    waste[waste_len - 1] as usize,
                    waste_free >> (waste_len - 1) & 1 != 0,
                )
            {
                waste_len -= 1;
                out[waste[waste_len] as usize] += 1;
                moved = true;
            }
            if !moved {
                return waste_len > 0 || stacks.iter().any(|stack| !stack.is_empty());
            }
        }
    }

    /// Whether every card in a stack has a card it may lie on in the stock
    /// or among the piles' starting cards and tops (or is a King, or in a
    /// run on the card under it): then [`Alexandria::stranded`] could only
    /// hold if a card's only such cards lay under it, or could not get out
    /// of the stock; it is left out as a dead end the test would seldom
    /// find, and the check, which needs no pile's run written out, takes a
    /// fraction of the test's time.
    pub(super) fn none_bound(&self, state: &State) -> bool {
        let cards = self.landing_cards(state);
        talon::places(state.waste()).all(|t| lands(cards, self.talon.card(t)))
            && (0..PILES).all(|p| {
                let dealt = state.piles[p].dealt_left();
                self.start_cards[p][..dealt]
                    .iter()
                    .all(|&card| lands(cards, card))
            })
    }

    /// How many waste cards have no card they may lie on in the stock or
    /// among the piles' starting cards and tops: cards that, as far as
    /// that quick look tells, leave the waste only for home, and hold up
    /// every card under them till then.
    pub(super) fn bound_in_waste(&self, state: &State) -> u32 {
        let cards = self.landing_cards(state);
        talon::places(state.waste())
            .filter(|&t| !lands(cards, self.talon.card(t)))
            .count() as u32
    }

    /// The cards a stacked card may still lie on, at a quick look, a bit
    /// each by [`Card::index`]: the stock's, the piles' starting cards
    /// still there and the pile tops.
    fn landing_cards(&self, state: &State) -> u64 {
        let stock = talon::stock(state.talon, state.cursor);
        let mut cards = 0u64;
        for t in talon::places(stock) {
            cards |= 1 << self.talon.card(t).index();
        }
        for p in 0..PILES {
            let dealt = state.piles[p].dealt_left();
            for card in &self.start_cards[p][..dealt] {
                cards |= 1 << card.index();
            }
            if state.tops[p] != NO_CARD {
                cards |= 1 << state.tops[p];
            }
        }
        cards
    }
}

/// Whether `card` is a King (an empty pile takes it) or may lie on one of
/// `cards` (a mask of [`Alexandria::landing_cards`]).
fn lands(cards: u64, card: Card) -> bool {
    landings(card.index()).is_none_or(|[a, b]| cards >> a & 1 != 0 || cards >> b & 1 != 0)
}
