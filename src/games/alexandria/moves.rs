//! Alexandria's moves, best first, and what they leave out.
//!
//! # Why the pruning loses no win
//!
//! Every legal move is an engine move, but for these, left out:
//! - all but one move when a free card's move home is safe (rule H; see
//!   [`super::super::safe_home`] for the argument); free means a tableau
//!   top or the waste's top, which goes home without a draw;
//! - all but the first empty pile (rule S): the positions differ only in
//!   the order of the piles, which the key ignores;
//! - a King-led pile that is the whole pile (nothing under the King) to an
//!   empty pile (rule E): it reaches the same position up to the order of
//!   the piles.
//!
//! Runs need no pruning of their own to stay few: a run's cards have
//! different ranks, so onto a given card at most one of its runs fits (the
//! one headed by the card of the rank below, if its colour is right): a
//! pile offers at most one move to each other pile, and splitting a run is
//! never a choice among several points. A split that only rearranges runs
//! is left out by the narrowed searches (see [`NARROWED`]), never by the
//! full one.
//!
//! None of the three depends on the move that reached a position, so the
//! table may merge positions freely: a full search that ends has seen
//! every position reachable by the moves offered, and from each position
//! these moves reach a win if any move does. Besides, the search expands
//! no position the dead-end test finds lost (see [`super::dead_end`]):
//! no win lies below it.

use super::{Alexandria, FOUNDATIONS, HOME, MAX_TALON, NARROWED, PILES, State, Step, TALON};
use crate::card::{Card, Rank};
use crate::game::Ask;
use crate::games::NO_CARD;
use crate::games::alternating::BUILT_ON_BITS;
use crate::games::foundations::{Foundations, slot_rank};
use crate::games::narrowed::Narrowed;
use crate::games::safe_home::{Builds, SafeRule};
use crate::games::talon::{self, Talon};

/// Alexandria's safe rule (see [`super::super::safe_home`]): the cards that
/// could be built on a card must all be home.
const SAFE: SafeRule = SafeRule {
    builds: Builds::AlternateColour,
    two_deep: false,
};

/// The cards that can go home, a bit each by [`Card::index`]: the Aces
/// while a foundation is empty, and the card above each foundation's top.
/// One mask a position, where finding each card's foundation reads every
/// one of them.
pub(super) fn homeable(home: &Foundations<FOUNDATIONS>) -> u64 {
    home.0
        .iter()
        .fold(0, |mask, &s| mask | TAKEN_BY[s as usize])
}

/// The cards a foundation takes, a bit each by [`Card::index`], by its
/// byte (see [`crate::games::foundations::slot`]): the Aces while it is
/// empty, else the card above its top, none above a King. Looked up, where
/// working it out took a branch and a multiplication a foundation.
const TAKEN_BY: [u64; 256] = {
    const ACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
    let mut table = [0; 256];
    let mut s = 0;
    while s < 256 {
        let (suit, rank) = (s >> 4, slot_rank(s as u8) as usize);
        table[s] = match rank {
            0 => ACES,
            1..13 if suit < 4 => 1 << (suit * 13 + rank),
            _ => 0,
        };
        s += 1;
    }
    table
};

/// Whether `card` is in a mask of [`homeable`].
const fn goes_home(mask: u64, card: Card) -> bool {
    mask >> card.index() & 1 != 0
}

impl Alexandria {
    /// Moves, unsorted, each given to `push` with its order (see
    /// [`order`]), worked out where the move is found: a safe move home
    /// alone (rule H); only one empty pile (rule S); no whole King-led
    /// pile to an empty one (rule E).
    #[inline]
    pub(super) fn offer(&self, state: &State, ask: Ask, mut push: impl FnMut(Step, i32)) {
        let waste_top = state.waste_top();
        let narrowed = Narrowed::at(&NARROWED, ask);
        let next_drawn = talon::next_drawn(state.talon, state.cursor);
        let talon_free =
            (waste_top.into_iter().chain(next_drawn)).map(|t| (TALON + t, self.talon.card(t)));
        let free = (0..PILES)
            .filter(|&p| state.tops[p] != NO_CARD)
            .map(|p| (p as u8, Card::from_index(state.tops[p] as usize)))
            .chain(talon_free.clone());
        let homes = homeable(&state.home);
        // Whether some free card can go home at all, from a mask of them:
        // a position with none need not look for a safe or greedy one
        // card by card.
        // An empty pile's [`NO_CARD`] sets bit 63, no card's.
        let tops = (state.tops.iter()).fold(0u64, |cards, &top| cards | 1 << (top & 63));
        let free_cards = talon_free.fold(tops, |cards, (_, card)| cards | 1 << card.index());
        let some_home = free_cards & homes != 0;
        // Checked before the piles are read for the other moves, which a
        // safe move home leaves out.
        let safe = match some_home {
            true => free_cards & homes & SAFE.cards(&state.home.lows()),
            false => 0,
        };
        // The order of a free card's move home, which draws the next
        // stock card if it is that one.
        let free_home = |from: u8| match next_drawn.is_some_and(|t| from == TALON + t) {
            true => order::drawn(1, true),
            false => order::FREE_HOME,
        };
        if safe != 0
            && let Some((from, _)) = free.clone().find(|&(_, card)| goes_home(safe, card))
        {
            let step = Step {
                from,
                count: 1,
                to: HOME,
            };
            push(step, free_home(from));
            return;
        }
        let onto = onto(state);
        let kept = match narrowed {
            Some(_) => self.kept(state, homes, &onto),
            None => 0,
        };
        let greedy = |&(from, card): &(u8, Card)| {
            let kept = from < TALON && kept >> from & 1 != 0;
            let drawn = next_drawn.is_some_and(|t| from == TALON + t);
            goes_home(homes, card) && !kept && !drawn
        };
        if some_home
            && narrowed.is_some_and(|n| n.greedy)
            && let Some((from, _)) = free.clone().find(greedy)
        {
            let step = Step {
                from,
                count: 1,
                to: HOME,
            };
            push(step, free_home(from));
            return;
        }
        let empty = state.tops.iter().position(|&top| top == NO_CARD);
        let tired = Narrowed::tired(narrowed, state.rearranged);
        for p in 0..PILES {
            let code = state.piles[p];
            if code.is_empty() {
                continue;
            }
            let top = Card::from_index(state.tops[p] as usize);
            let top_kept = kept >> p & 1 != 0;
            if goes_home(homes, top) {
                let step = Step {
                    from: p as u8,
                    count: 1,
                    to: HOME,
                };
                push(
                    step,
                    if top_kept {
                        order::LAST
                    } else {
                        order::FREE_HOME
                    },
                );
            }
            let movable = code.movable();
            // The order of a move of all the pile's movable cards.
            let uncovering = || {
                let dealt = code.dealt_left();
                order::uncovering(self.face_down(p, dealt.saturating_sub(1)), dealt)
            };
            let first = match tired {
                true => movable,
                false => 1,
            };
            // Moving `count` cards lands the run's card `count - 1` deep on
            // a top of rank `low + count` on the top's diagonal: only the
            // ranks some such top has are read, fewest cards first.
            let low = rank(top) as u32;
            let counts = (1u32 << (movable + 1)) - (1 << first);
            let diagonal = diagonal(top);
            let mut ranks = onto.ranks[diagonal] & (counts << low) as u16;
            while ranks != 0 {
                let rank = ranks.trailing_zeros();
                ranks &= ranks - 1;
                let mut targets = onto.piles[rank as usize][diagonal];
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    let count = rank - low;
                    let order = match kept >> to & 1 == 0 {
                        true if count == movable => uncovering(),
                        true if goes_home(homes, self.card_at_depth(p, code, count)) => {
                            order::UNCOVERS_HOME
                        }
                        _ => order::LAST,
                    };
                    let step = Step {
                        from: p as u8,
                        count: count as u8,
                        to,
                    };
                    push(step, order);
                }
            }
            // A King-led run to an empty pile, unless it is the whole pile.
            if let Some(to) = empty
                && code.dealt_left() > 0
                && self.base(p, code).is_some_and(|b| b.rank() == Rank::KING)
            {
                let step = Step {
                    from: p as u8,
                    count: movable as u8,
                    to: to as u8,
                };
                push(step, uncovering());
            }
        }
        let stock = talon::stock(state.talon, state.cursor);
        let reach = match waste_top {
            Some(t) => stock | 1 << t,
            None => stock,
        };
        // Narrowed, only the first few stock cards with a move are played.
        let mut playable = 0;
        // The cards a stock card's move draws: the stock's cards before it
        // and itself (none for the waste's top, which comes first).
        let mut draws = 0;
        for t in talon::places(reach) {
            let in_stock = t >= state.cursor;
            if in_stock && narrowed.is_some_and(|n| playable >= n.window) {
                break;
            }
            draws += in_stock as u32;
            let card = self.talon.card(t);
            let from = TALON + t;
            let home = goes_home(homes, card);
            if home {
                let step = Step {
                    from,
                    count: 1,
                    to: HOME,
                };
                push(step, order::drawn(draws, true));
            }
            let to_pile = order::drawn(draws, false);
            let mut targets = onto.of(card);
            let some_pile = targets != 0;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                push(Step { from, count: 1, to }, to_pile);
            }
            let king = card.rank() == Rank::KING;
            if let Some(to) = empty
                && king
            {
                let step = Step {
                    from,
                    count: 1,
                    to: to as u8,
                };
                push(step, to_pile);
            }
            let moves = home || some_pile || king && empty.is_some();
            playable += (in_stock && moves) as u32;
        }
    }
}

/// How early a move is tried, highest first: free cards home; the waste's
/// top to a pile; then moves that uncover a starting card, the more
/// face-down cards under it the earlier; cards drawn from the stock,
/// fewest draws first, home before a pile at the same count; and last the
/// moves that only rearrange runs. (With every stock card home tried
/// before any stock card to a pile, a line draws far down the stock to
/// send one card home, and leaves the cards it passed in the waste.)
///
/// The waste's top comes before the starting cards because a card left
/// there may be buried by the next draw for good, while a starting card
/// waits (the figures are in `docs/tuning.md`).
///
/// Narrowed, a pile top kept for the stock (see [`Alexandria::kept`])
/// comes last both as a card to send home and as a place to move a pile's
/// cards onto, so that the stock card it is kept for goes there.
///
/// [`Alexandria::offer`] works each move's order out where it finds the
/// move, from what it knows there (the pile, the cards drawn), where
/// ranking the list afterwards read the position again for every move.
mod order {
    /// A free card (a pile's top or the waste's top) home.
    pub(super) const FREE_HOME: i32 = 1 << 20;
    /// Cards off a pile that leave on it a card going home next: a free
    /// card home but for one move.
    pub(super) const UNCOVERS_HOME: i32 = 8 << 16;
    /// The waste's top to a pile.
    pub(super) const WASTE_TO_PILE: i32 = 4 << 16;
    /// A move that only rearranges runs (but one that uncovers a card going
    /// home), or takes a kept top away.
    pub(super) const LAST: i32 = 0;

    /// A move of all of a pile's movable cards, uncovering a starting card
    /// with `face_down` cards under it, of the `dealt` left.
    pub(super) const fn uncovering(face_down: usize, dealt: usize) -> i32 {
        (3 << 16) + 64 * face_down as i32 + dealt as i32
    }

    /// A talon card's move, home or to a pile, drawing `draws` cards (none
    /// for the waste's top).
    pub(super) const fn drawn(draws: u32, home: bool) -> i32 {
        match (draws, home) {
            (0, true) => FREE_HOME,
            (0, false) => WASTE_TO_PILE,
            _ => (1 << 16) - 2 * draws as i32 + home as i32,
        }
    }
}

/// Which of a card's two diagonals it is on: the cards that may lie on one
/// another (down in alternating colour) are all on one, as are a run's.
fn diagonal(card: Card) -> usize {
    RANK_AND_DIAGONAL[card.index() as u8 as usize][1] as usize
}

/// A card's rank (1 to 13).
fn rank(card: Card) -> usize {
    RANK_AND_DIAGONAL[card.index() as u8 as usize][0] as usize
}

/// Each card's rank and diagonal, by [`Card::index`]: read from a table
/// (indexed by a byte, so with no bounds check), where working them out
/// took a division at each of the many looks a position's moves take.
/// Past the cards, rank 0, which [`NO_CARD`] reads.
const RANK_AND_DIAGONAL: [[u8; 2]; 256] = {
    let mut table = [[0; 2]; 256];
    let mut i = 0;
    while i < Card::COUNT {
        let card = Card::from_index(i);
        let rank = card.rank().get();
        table[i] = [rank, (rank + card.colour() as u8) & 1];
        i += 1;
    }
    table
};

/// The piles by their top card, for the moves onto them.
pub(super) struct Onto {
    /// The piles whose top has rank r on diagonal d (see [`diagonal`]),
    /// a bit each: `piles[r][d]`; the empty ones in `piles[0][0]`.
    piles: [[u16; 2]; 15],
    /// The ranks of the tops on each diagonal, a bit each: a run's moves
    /// read only the ranks some top has, where a loop over its cards
    /// read one for each.
    ranks: [u16; 2],
}

impl Onto {
    /// The piles a card goes on: those whose top is a rank higher, of the
    /// other colour.
    pub(super) fn of(&self, card: Card) -> u16 {
        self.piles[rank(card) + 1][diagonal(card)]
    }

    /// The piles whose top is of the rank and colour of `card`.
    fn alike(&self, card: Card) -> u16 {
        self.piles[rank(card)][diagonal(card)]
    }
}

/// The piles of `state` by their top card.
pub(super) fn onto(state: &State) -> Onto {
    let mut onto = Onto {
        piles: [[0; 2]; 15],
        ranks: [0; 2],
    };
    for (p, &top) in state.tops.iter().enumerate() {
        // An empty pile's [`NO_CARD`] reads rank 0, a row no move reads:
        // no branch a pile.
        let [rank, diagonal] = RANK_AND_DIAGONAL[top as usize].map(usize::from);
        onto.piles[rank][diagonal] |= 1 << p;
        onto.ranks[diagonal] |= 1 << rank;
    }
    onto
}

/// The stock's next [`KEPT_FOR`] cards, for [`Alexandria::kept`], by the
/// stock's first place (up to the talon's length; fewer near its end), a
/// bit each by [`Card::index`]: they lie at the places from there on
/// whenever none of those is gone, as in play always (a card played from
/// the stock takes the places before it to the waste), and are then one
/// look-up, where they took a loop over the places. (The waste's top
/// cards seldom lie in such a run: its top cards played leave gaps.)
pub(super) fn stock_ahead(talon: &Talon<MAX_TALON>) -> Vec<u64> {
    let len = talon.len() as usize;
    (0..=len)
        .map(|t| t..(t + KEPT_FOR).min(len))
        .map(|places| places.fold(0u64, |cards, t| cards | 1 << talon.card(t as u8).index()))
        .collect()
}

/// How many of the stock's next cards a narrowed search keeps pile tops
/// for (see [`Alexandria::kept`]).
const KEPT_FOR: usize = 16;

/// How many of the waste's top cards a narrowed search keeps pile tops
/// for (see [`Alexandria::kept`]).
const KEPT_FOR_WASTE: u32 = 8;

impl Alexandria {
    /// The pile tops a narrowed search keeps for the talon, a bit each by
    /// pile: the only top on which one of the stock's next [`KEPT_FOR`]
    /// cards, or of the waste's top [`KEPT_FOR_WASTE`], fits, a card that
    /// cannot go home. Such a top is not sent home at once, as
    /// `Narrowed::greedy` would, and a move home from it, or of a pile's
    /// cards onto it, comes last (see [`order`]): either would leave the
    /// stock card nowhere to go but the waste, where with no redeal it may
    /// stay for good, while a pile's cards that wait can move later,
    /// whenever a place opens. (With `onto` as in
    /// [`crate::game::Game::moves`].)
    ///
    /// The beam (see `Alexandria::PLAN`) gains from looking well down the
    /// stock, but not through all of it. Tops are kept for the waste's top
    /// [`KEPT_FOR_WASTE`] cards as well, which come off it in turn: the
    /// lines that die do so with the stock played out and the waste stuck
    /// under a card that fits nowhere. The figures behind both counts are
    /// in `docs/tuning.md`.
    pub(super) fn kept(&self, state: &State, homes: u64, onto: &Onto) -> u16 {
        // The cards kept for, a bit each: which copy of a card it is
        // changes nothing. The waste's mask is read a word at a time,
        // top down, where a bit of a `u128` took a shift across both.
        let mut cards = 0u64;
        let (waste, mut left) = (state.waste(), KEPT_FOR_WASTE);
        for (at, mut word) in [(64, (waste >> 64) as u64), (0, waste as u64)] {
            while word != 0 && left > 0 {
                let high = 63 - word.leading_zeros() as u8;
                cards |= 1 << self.talon.card(at + high).index();
                word ^= 1 << high;
                left -= 1;
            }
        }
        // The stock's, where no place is gone among them, from a table.
        let stock = talon::stock(state.talon, state.cursor);
        let first = (stock.trailing_zeros() as u8).min(self.talon.len());
        let last = (first as usize + KEPT_FOR).min(self.talon.len() as usize) as u8;
        let window = talon::below(last) & !talon::below(first);
        match stock & window == window {
            true => cards |= self.stock_ahead[first as usize],
            false => {
                for t in talon::places(stock).take(KEPT_FOR) {
                    cards |= 1 << self.talon.card(t).index();
                }
            }
        }
        cards &= !homes;
        // A top is the only one a card fits on when no other pile's top
        // is of its rank and colour.
        let mut kept = 0;
        for (p, &top) in state.tops.iter().enumerate() {
            if top != NO_CARD
                && cards & BUILT_ON_BITS[top as usize] != 0
                && onto.alike(Card::from_index(top as usize)).count_ones() == 1
            {
                kept |= 1 << p;
            }
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::alexandria::LAYOUT;
    use crate::games::testing::{along_play, dealt};

    /// The table of ranks and diagonals holds each card's rank, and its
    /// rank and colour's parity.
    #[test]
    fn each_card_has_its_rank_and_diagonal() {
        for card in (0..Card::COUNT).map(Card::from_index) {
            assert_eq!(rank(card), card.rank().get() as usize, "{card}");
            let parity = (card.rank().get() as usize + card.colour() as usize) & 1;
            assert_eq!(diagonal(card), parity, "{card}");
        }
    }

    /// Along play from numbered deals, `onto` finds for each card the
    /// piles whose top is a rank higher of the other colour, and for each
    /// pile's run the same piles for each of its cards by the top's
    /// diagonal and the rank above the card, with the rank's bit set
    /// exactly when some pile is there.
    #[test]
    fn onto_finds_the_piles_each_card_goes_on() {
        let mut runs = 0;
        for n in 1..=10 {
            let game: Alexandria = dealt(&LAYOUT, n);
            along_play(&game, n, 200, 3, |state, _| {
                let onto = onto(state);
                for card in (0..Card::COUNT).map(Card::from_index) {
                    let piles = (0..PILES)
                        .filter(|&p| state.tops[p] != NO_CARD)
                        .filter(|&p| {
                            let top = Card::from_index(state.tops[p] as usize);
                            top.rank().get() == card.rank().get() + 1
                                && top.colour() != card.colour()
                        })
                        .fold(0, |mask, p| mask | 1 << p);
                    assert_eq!(onto.of(card), piles, "{card}");
                }
                for d in 0..2 {
                    for rank in 0..15 {
                        let some = onto.piles[rank][d] != 0;
                        assert_eq!(onto.ranks[d] >> rank & 1 != 0, some);
                    }
                }
                for p in (0..PILES).filter(|&p| state.tops[p] != NO_CARD) {
                    let (code, top) = (state.piles[p], Card::from_index(state.tops[p] as usize));
                    for count in 1..=code.movable() {
                        let card = game.card_at_depth(p, code, count - 1);
                        let rank = (top.rank().get() as u32 + count) as usize;
                        assert_eq!(onto.of(card), onto.piles[rank][diagonal(top)]);
                        runs += (count > 1) as u32;
                    }
                }
            });
        }
        assert!(runs > 1000, "only {runs} run cards");
    }

    /// Along play from numbered deals, the cards [`homeable`] finds are
    /// those a foundation takes (see [`Foundations::place_for`]).
    #[test]
    fn homeable_cards_are_those_a_foundation_takes() {
        let mut positions = 0;
        for n in 1..=10 {
            let game: Alexandria = dealt(&LAYOUT, n);
            along_play(&game, n, 300, 3, |state, _| {
                let plain = (0..Card::COUNT)
                    .filter(|&c| state.home.place_for(Card::from_index(c)).is_some())
                    .fold(0u64, |mask, c| mask | 1 << c);
                assert_eq!(homeable(&state.home), plain, "deal {n}");
                positions += 1;
            });
        }
        assert!(positions > 1000, "only {positions} positions");
    }

    /// The pile tops kept for the talon, a talon card at a time: those
    /// its waste's top [`KEPT_FOR_WASTE`] cards or its stock's next
    /// [`KEPT_FOR`] fit on alone.
    fn kept_plainly(game: &Alexandria, state: &State, homes: u64, onto: &Onto) -> u16 {
        let waste: Vec<u8> = talon::places(state.waste()).collect();
        let stock = talon::stock(state.talon, state.cursor);
        let tops = waste.iter().rev().take(KEPT_FOR_WASTE as usize).copied();
        let mut kept = 0;
        for t in tops.chain(talon::places(stock).take(KEPT_FOR)) {
            let card = game.talon.card(t);
            let piles = onto.of(card);
            if !goes_home(homes, card) && piles.count_ones() == 1 {
                kept |= 1 << piles.trailing_zeros();
            }
        }
        kept
    }

    /// The stock's next cards from each place are those of the talon at
    /// that place and the places after it, read one by one up to
    /// [`KEPT_FOR`] of them or the talon's end.
    #[test]
    fn stock_ahead_is_the_next_cards_read_one_by_one() {
        for n in 1..=5 {
            let game: Alexandria = dealt(&LAYOUT, n);
            let len = game.talon.len();
            for first in 0..=len {
                let mut cards = 0u64;
                for t in first..len {
                    if t - first < KEPT_FOR as u8 {
                        cards |= 1 << game.talon.card(t).index();
                    }
                }
                assert_eq!(game.stock_ahead[first as usize], cards, "deal {n} {first}");
            }
        }
    }

    /// Along play from numbered deals, the tops kept for the talon are
    /// those found a talon card at a time, and some are kept.
    #[test]
    fn kept_tops_are_those_found_card_by_card() {
        let mut some = 0;
        for n in 1..=20 {
            let game: Alexandria = dealt(&LAYOUT, n);
            along_play(&game, n, 300, 3, |state, _| {
                let (homes, onto) = (homeable(&state.home), onto(state));
                let kept = game.kept(state, homes, &onto);
                assert_eq!(kept, kept_plainly(&game, state, homes, &onto), "deal {n}");
                some += (kept != 0) as u32;
            });
        }
        assert!(some > 1000, "tops kept in only {some} positions");
    }

    /// A move's order (see [`order`]) worked out from the position and
    /// the move alone, with `kept` as [`Alexandria::kept`] gives it.
    fn order_plainly(game: &Alexandria, state: &State, step: Step, kept: u16) -> i32 {
        let draws = match step.pile() {
            Some(_) => 0,
            None => {
                let t = step.from - TALON;
                let between = (state.cursor..t).filter(|&u| state.talon >> u & 1 != 0);
                match t >= state.cursor {
                    true => between.count() as u32 + 1,
                    false => 0,
                }
            }
        };
        let onto_kept = step.to != HOME && kept >> step.to & 1 != 0;
        match step.pile() {
            Some(p) if step.to == HOME && kept >> p & 1 != 0 => order::LAST,
            None if step.to == HOME => order::drawn(draws, true),
            Some(_) if step.to == HOME => order::FREE_HOME,
            Some(_) if onto_kept => order::LAST,
            Some(p) => {
                let code = state.piles[p];
                let dealt = code.dealt_left();
                let under = || game.card_at_depth(p, code, step.count as u32);
                match step.count as u32 == code.movable() {
                    true => order::uncovering(game.face_down(p, dealt.saturating_sub(1)), dealt),
                    false if goes_home(homeable(&state.home), under()) => order::UNCOVERS_HOME,
                    false => order::LAST,
                }
            }
            None => order::drawn(draws, false),
        }
    }

    /// Along play from numbered deals, at every narrowing, each move
    /// [`Alexandria::offer`] gives has the order worked out from the
    /// position and the move alone, and the orders differ; some moves
    /// uncover a card going home.
    #[test]
    fn offered_orders_are_worked_out_from_the_position() {
        let (mut mixed, mut uncovers_home) = (0, 0);
        for n in 1..=10 {
            let game: Alexandria = dealt(&LAYOUT, n);
            along_play(&game, n, 300, 3, |state, _| {
                for narrowing in 0..=NARROWED.len() as u32 {
                    let ask = Ask {
                        narrowing,
                        ordered: false,
                    };
                    let kept = match narrowing {
                        0 => 0,
                        _ => game.kept(state, homeable(&state.home), &onto(state)),
                    };
                    let mut orders = Vec::new();
                    game.offer(state, ask, |step, order| {
                        assert_eq!(order, order_plainly(&game, state, step, kept), "{step:?}");
                        orders.push(order);
                        uncovers_home += (order == order::UNCOVERS_HOME) as u32;
                    });
                    mixed += orders.iter().any(|&order| order != orders[0]) as u32;
                }
            });
        }
        assert!(mixed > 1000, "orders mixed in only {mixed} lists");
        assert!(
            uncovers_home > 50,
            "{uncovers_home} moves uncover a card going home"
        );
    }
}
