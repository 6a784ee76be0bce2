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

/// The most cards a pile holds: its starting cards and a run of twelve on
/// them.
const MAX_PILE: usize = MAX_START + 12;

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
        // The piles bottom to top, and the copies of each card on the
        // tableau.
        let mut piles = [[0u8; MAX_PILE]; PILES];
        let mut heights = [0usize; PILES];
        let mut tableau = [0u8; Card::COUNT];
        for p in 0..PILES {
            let (pile, height) = (&mut piles[p], &mut heights[p]);
            state.piles[p].cards(&self.start_cards[p], |card| {
                pile[*height] = card.index() as u8;
                *height += 1;
                tableau[card.index()] += 1;
            });
        }
        // The waste bottom to top, and the copies of each card in the
        // stock, which count as out of their stacks (see below).
        let stock = talon::stock(state.talon, state.cursor);
        let mut waste = [0u8; 128];
        let mut waste_len = 0;
        let mut out = home;
        let mut in_stock = [0u8; Card::COUNT];
        for t in talon::places(stock) {
            in_stock[self.talon.card(t).index()] += 1;
        }
        for t in talon::places(state.waste()) {
            waste[waste_len] = self.talon.card(t).index() as u8;
            waste_len += 1;
        }
        for (out, &stocked) in out.iter_mut().zip(&in_stock) {
            *out += stocked;
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
        // Which stacked cards can leave by a landing, whatever goes home:
        // in the waste, as above; in a pile, a landing not under it in its
        // pile, or carried in a run: lying in order on the card under it.
        let mut waste_free = [false; 128];
        let mut bound = false;
        for (at, &card) in waste[..waste_len].iter().enumerate() {
            waste_free[at] = lands(card as usize, at + 1, &from_stock, &from_waste);
            bound |= !waste_free[at];
        }
        let mut pile_free = [[false; MAX_PILE]; PILES];
        for p in 0..PILES {
            let pile = &piles[p][..heights[p]];
            for (at, &card) in pile.iter().enumerate() {
                let on = landings(card as usize);
                let free = on.is_none_or(|on| {
                    (at > 0 && on.contains(&(pile[at - 1] as usize)))
                        || on.iter().any(|&l| {
                            from_stock[l]
                                || from_waste[l] > 0
                                || tableau[l] as usize
                                    > pile[..at].iter().filter(|&&c| c as usize == l).count()
                        })
                });
                pile_free[p][at] = free;
                bound |= !free;
            }
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
            let leaves = |card: u8, free: bool| {
                let (card, ace) = (
                    card as usize,
                    Card::from_index(card as usize).rank() == Rank::ACE,
                );
                free || ace || could[card - 1] > home[card]
            };
            let mut moved = false;
            for p in 0..PILES {
                while heights[p] > 0
                    && leaves(piles[p][heights[p] - 1], pile_free[p][heights[p] - 1])
                {
                    heights[p] -= 1;
                    out[piles[p][heights[p]] as usize] += 1;
                    moved = true;
                }
            }
            while waste_len > 0 && leaves(waste[waste_len - 1], waste_free[waste_len - 1]) {
                waste_len -= 1;
                out[waste[waste_len] as usize] += 1;
                moved = true;
            }
            if !moved {
                return waste_len > 0 || heights.iter().any(|&h| h > 0);
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
    fn none_bound(&self, state: &State) -> bool {
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
