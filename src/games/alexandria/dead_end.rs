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

use super::pile::{Alternating, PileCode};
use super::{Alexandria, MAX_TALON, PILES, State};
use crate::card::{Card, Rank};
use crate::games::NO_CARD;
use crate::games::alternating::{BASES, BASES_BITS, NO_BASE};
use crate::games::pile_code::{MAX_START, Runs};
use crate::games::talon::{self, Talon};

// A pile's stack (its starting cards still there) fits a `u32`, a bit a
// card, as `stranded` keeps which of its cards can leave.
const _: () = assert!(MAX_START <= 32);

/// A bit for each suit's card of the lowest rank, by [`Card::index`]:
/// shifted by a rank, the cards of that rank.
const RANK: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;

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
        // Each pile's stack, its starting cards still there bottom to top,
        // and the copies of each card on the tableau, and of those above
        // the stacks. The cards above a stack (its run, and a King put on
        // an emptied pile) can always leave, each a King or lying in order
        // on the card under it: they are out of their stacks from the
        // start, which frees nothing the loop below would not.
        let mut stacks: [&[Card]; PILES] = [&[]; PILES];
        let (mut tableau, mut unstacked) = (Copies::default(), Copies::default());
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
            let king = ((dealt == 0) as u64) << base.index();
            let above = king | code.run_mask(base);
            tableau = tableau.plus(self.stacks.copies[p][dealt]).with(above);
            unstacked = unstacked.with(above);
        }
        let on_tableau = tableau.0[0];
        // Which talon cards can get onto the tableau, a rank at a time from
        // the Kings down, a bit each by card: `from_stock` if a copy in the
        // stock can, `from_waste` if one in the waste can, `everywhere` if
        // every copy can; and `partly_free`, the waste's places of the
        // copies that can of the other cards, a bit each. A talon card can
        // if it is a King, or a card it may lie on is on the tableau or can
        // get there from the stock (then every copy can), or can from the
        // waste at a place above it: so if a copy can, every copy below it
        // can.
        let waste = state.waste();
        let stocked = (self.talon_cards).stock_cards(&self.talon, state.talon, state.cursor);
        let (mut from_stock, mut from_waste, mut everywhere) = (0u64, 0u64, 0u64);
        let mut partly_free = 0u128;
        // The cards with a copy in the waste, so that only those freed
        // from above are read a card at a time.
        let in_waste = state.in_waste;
        for rank in (0..13).rev() {
            let of_rank = RANK << rank;
            let anywhere = landable(on_tableau | from_stock) & of_rank;
            let from_above = landable(from_waste) & of_rank & !anywhere;
            from_stock |= stocked & (anywhere | from_above);
            everywhere |= anywhere;
            from_waste |= anywhere & in_waste;
            // Seldom any: a copy can if it lies below the highest copy
            // that can of a card it may lie on.
            let mut cards = in_waste & from_above;
            while cards != 0 {
                let card = cards.trailing_zeros() as usize;
                cards &= cards - 1;
                let on = landings(card).expect("a King lands anywhere");
                let above = (on.iter())
                    .map(|&l| {
                        let free = match everywhere >> l & 1 != 0 {
                            true => waste,
                            false => partly_free,
                        };
                        128 - (free & self.talon_cards.places[l]).leading_zeros()
                    })
                    .max()
                    .unwrap_or(0);
                let copies = waste & self.talon_cards.places[card];
                let free = copies & talon::below(above as u8 - 1);
                if free != 0 {
                    partly_free |= free;
                    from_waste |= 1 << card;
                }
            }
        }
        let from_talon = from_stock | from_waste;
        // Whether the waste's copy at a place can get onto the tableau.
        let waste_free =
            |t: u8| everywhere >> self.talon.card(t).index() & 1 != 0 || partly_free >> t & 1 != 0;
        // Which stacked cards can leave by a landing, whatever goes home, a
        // bit each by place: in the waste, as above; in a pile, a landing
        // not under it in its pile, or carried in a run: lying in order on
        // the card under it.
        let stuck = in_waste & !everywhere;
        let mut bound = stuck != 0 && waste & self.talon_cards.places_of(stuck) & !partly_free != 0;
        let mut pile_free = [0u32; PILES];
        for (p, (stack, free)) in stacks.iter().zip(&mut pile_free).enumerate() {
            let all = (1u32 << stack.len()) - 1;
            *free = self.stacks.leave[p] & all;
            // The others need a landing: a talon card that can get onto
            // the tableau, or a copy on the tableau not under them.
            let mut rest = all & !*free;
            while rest != 0 {
                let at = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let on = BASES_BITS[stack[at].index()];
                let landing = from_talon | tableau.more_than(self.stacks.copies[p][at]);
                *free |= ((on & landing != 0) as u32) << at;
            }
            bound |= *free != all;
        }
        if !bound {
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
        // The copies of each card out of their stacks: home, above a
        // stack, or in the stock (see above).
        let in_stock = (self.talon_cards).stock_counts(&self.talon, state.talon, state.cursor);
        let mut out = home;
        for c in 0..Card::COUNT {
            out[c] += in_stock[c];
        }
        unstacked.add_to(&mut out);
        // The waste's cards still in it.
        let mut rest = waste;
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
            while let Some(top) = (rest != 0).then(|| 127 - rest.leading_zeros() as u8)
                && leaves(self.talon.card(top).index(), waste_free(top))
            {
                rest ^= 1 << top;
                out[self.talon.card(top).index()] += 1;
                moved = true;
            }
            if !moved {
                return rest != 0 || stacks.iter().any(|stack| !stack.is_empty());
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
        let (stacked, cards) = self.stacked_and_landing_cards(state);
        let bound = !landable(cards);
        stacked & bound == 0 && state.in_waste & bound == 0
    }

    /// How many waste cards have no card they may lie on in the stock or
    /// among the piles' starting cards and tops: cards that, as far as
    /// that quick look tells, leave the waste only for home, and hold up
    /// every card under them till then.
    pub(super) fn bound_in_waste(&self, state: &State) -> u32 {
        let (_, cards) = self.stacked_and_landing_cards(state);
        let bound = !landable(cards);
        (state.waste() & self.talon_cards.places_of(bound)).count_ones()
    }

    /// The piles' starting cards still there, and the cards a stacked card
    /// may still lie on, at a quick look (the stock's, those starting
    /// cards and the pile tops), a bit each by [`Card::index`].
    fn stacked_and_landing_cards(&self, state: &State) -> (u64, u64) {
        let mut stacked = 0u64;
        let mut tops = 0u64;
        for p in 0..PILES {
            stacked |= self.stacked_cards[state.piles[p].base() as usize];
            // An empty pile's top, `NO_CARD`, sets bit 63, no card's,
            // cleared below: no branch a pile.
            tops |= 1 << (state.tops[p] & 63);
        }
        let tops = tops & !(1 << (NO_CARD & 63));
        let stock = (self.talon_cards).stock_cards(&self.talon, state.talon, state.cursor);
        (stacked, stacked | tops | stock)
    }
}

/// The starting cards left under a pile's run, a bit each by
/// [`Card::index`], by its code's base: a dealt base names the pile and how
/// many of its starting cards are left; any other base (a lone card, an
/// empty pile) has none that [`Alexandria::none_bound`] reads. Looked up
/// by the base, where counting the cards left divided it by the stride.
pub(super) fn stacked_cards(
    start_cards: &[[Card; MAX_START]; PILES],
) -> [u64; 1 << Alternating::BASE_BITS] {
    let mut masks = [0u64; 1 << Alternating::BASE_BITS];
    for (p, start) in start_cards.iter().enumerate() {
        let mut cards = 1 << start[0].index();
        for dealt in 2..=MAX_START {
            cards |= 1 << start[dealt - 1].index();
            masks[PileCode::dealt(p, dealt, start[0]).base() as usize] = cards;
        }
    }
    masks
}

/// The cards that are Kings or may lie on one of `cards` (see
/// [`landings`]), a bit each by [`Card::index`]: a whole suit at a time,
/// as a card lies on either card of the other colour a rank up.
pub(super) fn landable(cards: u64) -> u64 {
    const RANKS: u64 = (1 << 13) - 1;
    const KING: u64 = 1 << 12;
    // Clubs and Spades are black, Diamonds and Hearts red (suit order).
    let black = (cards | cards >> 39) & RANKS;
    let red = (cards >> 13 | cards >> 26) & RANKS;
    let on_black = black >> 1 | KING;
    let on_red = red >> 1 | KING;
    on_red | on_black << 13 | on_black << 26 | on_red << 39
}

/// Copies of each card as sets of cards, a bit each by [`Card::index`]:
/// set `k` holds the cards with more than `k` copies. Alexandria has each
/// card three times (a board with any other count is refused), so three
/// sets count any of a position's cards exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Copies(pub(super) [u64; 3]);

impl Copies {
    /// The copies of both together: more than `k` where one has more than
    /// `i` and the other more than `k - 1 - i`, or one alone more than `k`.
    pub(super) fn plus(self, other: Copies) -> Copies {
        let ([a1, a2, a3], [b1, b2, b3]) = (self.0, other.0);
        Copies([a1 | b1, a2 | b2 | a1 & b1, a3 | b3 | a2 & b1 | a1 & b2])
    }

    /// With one more copy of each card of `cards`.
    pub(super) fn with(self, cards: u64) -> Copies {
        self.plus(Copies([cards, 0, 0]))
    }

    /// The cards with more copies here than in `other`: more than `k` here
    /// and not there, for some `k`.
    pub(super) fn more_than(self, other: Copies) -> u64 {
        let ([a1, a2, a3], [b1, b2, b3]) = (self.0, other.0);
        a1 & !b1 | a2 & !b2 | a3 & !b3
    }

    /// Adds the copies of each card to `counts`, by [`Card::index`]: a
    /// card at a time of each set, as few are in them.
    pub(super) fn add_to(self, counts: &mut [u8; Card::COUNT]) {
        for mut set in self.0 {
            while set != 0 {
                counts[set.trailing_zeros() as usize] += 1;
                set &= set - 1;
            }
        }
    }
}

/// What the dead-end test reads of each pile's starting cards, worked out
/// at the deal where it read them card by card at every position.
pub(super) struct Stacks {
    /// The copies of each card among a pile's first `d` starting cards
    /// (index `d`): those of a stack, and those under a card of it.
    pub(super) copies: [[Copies; MAX_START + 1]; PILES],
    /// A pile's starting cards that can always leave their stack once the
    /// cards above have, a bit each by place: Kings, and cards lying in
    /// order on the one under them (carried off in a run).
    pub(super) leave: [u32; PILES],
}

impl Stacks {
    pub(super) fn new(start_cards: &[[Card; MAX_START]; PILES]) -> Stacks {
        let mut stacks = Stacks {
            copies: [[Copies::default(); MAX_START + 1]; PILES],
            leave: [0; PILES],
        };
        for (p, start) in start_cards.iter().enumerate() {
            for (at, card) in start.iter().enumerate() {
                let copies = &mut stacks.copies[p];
                copies[at + 1] = copies[at].with(1 << card.index());
                let on = BASES_BITS[card.index()];
                let in_order = at > 0 && on >> start[at - 1].index() & 1 != 0;
                stacks.leave[p] |= ((on == 0 || in_order) as u32) << at;
            }
        }
        stacks
    }
}

/// The talon's cards looked up a card or a run of places at a time, so
/// that the dead-end test need not read the talon a place at a time.
pub(super) struct TalonCards {
    /// The places of each card's copies, a bit each, by [`Card::index`].
    pub(super) places: [u128; Card::COUNT],
    /// The copies of each card at the talon's places from `s` on (index
    /// `s`, up to the talon's length). With no redeal the stock is always
    /// such a run of places: a play from it takes its card and leaves the
    /// cards passed over in the waste, and a play from the waste leaves
    /// the stock alone.
    from: Vec<[u8; Card::COUNT]>,
    /// The same, a bit each for the cards with a copy there.
    from_cards: Vec<u64>,
}

impl TalonCards {
    pub(super) fn new(talon: &Talon<MAX_TALON>) -> TalonCards {
        let len = talon.len() as usize;
        let mut places = [0u128; Card::COUNT];
        let mut from = vec![[0u8; Card::COUNT]; len + 1];
        let mut from_cards = vec![0u64; len + 1];
        for t in (0..len).rev() {
            let card = talon.card(t as u8).index();
            places[card] |= 1 << t;
            from[t] = from[t + 1];
            from[t][card] += 1;
            from_cards[t] = from_cards[t + 1] | 1 << card;
        }
        TalonCards {
            places,
            from,
            from_cards,
        }
    }

    /// The talon places of the copies of the cards of `cards` (a bit each
    /// by [`Card::index`]).
    pub(super) fn places_of(&self, cards: u64) -> u128 {
        let mut cards = cards & ((1 << Card::COUNT) - 1);
        let mut places = 0;
        while cards != 0 {
            places |= self.places[cards.trailing_zeros() as usize];
            cards &= cards - 1;
        }
        places
    }

    /// The stock's first place (the talon's length if it is empty), and
    /// the places from there on that no longer hold a card: none in play
    /// (see [`TalonCards::from`]).
    fn stock_run(talon: &Talon<MAX_TALON>, mask: u128, cursor: u8) -> (usize, u128) {
        let stock = talon::stock(mask, cursor);
        let first = (stock.trailing_zeros() as u8).min(talon.len());
        let gone = talon::stock(talon.full(), first) & !stock;
        (first as usize, gone)
    }

    /// The cards in the stock, a bit each by [`Card::index`].
    pub(super) fn stock_cards(&self, talon: &Talon<MAX_TALON>, mask: u128, cursor: u8) -> u64 {
        match TalonCards::stock_run(talon, mask, cursor) {
            (first, 0) => self.from_cards[first],
            _ => TalonCards::cards_at(talon, talon::stock(mask, cursor)),
        }
    }

    /// The cards at the talon's `places`, a bit each by [`Card::index`].
    pub(super) fn cards_at(talon: &Talon<MAX_TALON>, places: u128) -> u64 {
        talon::places(places).fold(0, |cards, t| cards | 1 << talon.card(t).index())
    }

    /// The copies of each card in the stock, by [`Card::index`].
    pub(super) fn stock_counts(
        &self,
        talon: &Talon<MAX_TALON>,
        mask: u128,
        cursor: u8,
    ) -> [u8; Card::COUNT] {
        let (first, gone) = TalonCards::stock_run(talon, mask, cursor);
        let mut counts = self.from[first];
        for t in talon::places(gone) {
            counts[talon.card(t).index()] -= 1;
        }
        counts
    }
}
