//! Lanes' relaxation: run cards known by rank and colour alone.
//!
//! A card built into a run (by a move onto a pile) is, for every move but
//! one, only its rank and colour: it builds on the two cards of the other
//! colour one rank up, takes the two one rank down, and moves as any card.
//! Only going home asks its suit. So the relaxation forgets the suit of
//! every run card and lets a run card go home as any card of its rank and
//! colour that is a run card and whose foundation shows the rank below;
//! from then on that card is home. Starting cards still in their place and
//! talon cards keep their suits.
//!
//! Positions that differ only in which of two cards of a rank and colour
//! lies where in the runs are one position here: where a lost deal's
//! search shuffles runs between the two cards each could lie on, that is
//! most of its positions.
//!
//! # Why a loss here is a loss of the game
//!
//! A relaxed position stands for the game's positions that share its cards
//! but for which run card of a rank and colour lies where (its *members*).
//! Every line of the game from a member is a line here: moves onto piles
//! and off them ask only rank and colour, and a run card going home goes
//! home as itself. So a relaxed position that no line wins has no member
//! a line wins, and the deal's position, its own only member at the start
//! (no runs yet), is lost.
//!
//! The engine holds a relaxed position as one of its members, the one its
//! line reached, and its key forgets the run cards' suits: a move home of
//! a run card as its twin swaps the two in the runs first, so that the
//! position is still a member. A line that wins with no such swap is the
//! game's own ([`swaps`]); one that swaps proves nothing.
//!
//! The pruning keeps its arguments: a safe move home is one of a run card
//! only when its rank and colour has one run card (the card is that card
//! in every member), and a position is a dead end only when every member
//! is one ([`Lanes::every_member_dead`]).
//!
//! # Refining it
//!
//! A win that swaps names what the relaxation forgot and the line needed:
//! the ranks and colours of the run cards that went home as their twins.
//! A *refined* relaxation keeps the suits of those ([`Kept`]): their run
//! cards are themselves in every member, so they go home only as
//! themselves (and may go home safely), and the key and the dead-end test
//! tell their two cards apart. The argument above holds as it stands, for
//! members that differ only in the ranks and colours not kept; keeping
//! every one would be the game itself. [`Lanes::refine`] gives the next
//! refinement's deal, which the search walks afresh, up to `MOST_KEPT`
//! ranks and colours kept (and as many refinements as the plan says).

use std::num::NonZeroU32;

use super::dead_end::{
    Cards, FIRST_TWINS, Piles, TWINS, cannot_win_as, lone_leaves, mirrored, no_member_wins,
};
use super::{From, Lanes, PILES, SAFE, State, Step, sort_piles};
use crate::card::{Card, Colour, Suit};
use crate::game::Game;
use crate::games::NO_CARD;
use crate::games::alternating::{PileCode, dealt_top, pile_cards};

/// A move home of a run card as the card of suit `s` has `to` of
/// `HOME_AS + s`: one past the piles, so never a pile.
pub(super) const HOME_AS: u8 = PILES as u8;

/// The most ranks and colours with both cards in runs that the dead-end
/// test splits into members (two each), where one game for all of them
/// finds a pile to empty: past it, the test proves nothing.
const MOST_SPLITS: usize = 4;

/// The most ranks and colours a refinement keeps: the key holds their run
/// cards' suit bits, two at most for each, and their count, in the 36 bits
/// it has free (see `KEPT_AT` in the engine). Past it, the relaxation
/// gives way to the full walk.
pub(super) const MOST_KEPT: u32 = 15;

/// The ranks and colours whose run cards keep their suits in a refined
/// relaxation (see the module doc): for each colour (by index), a bit a
/// rank in 16 of its own, the King's lowest, so that a run, each card a
/// rank below the one under it, reads up the bits. The top bit is always
/// set, so that a position's `Option<Kept>` takes no more room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kept(NonZeroU32);

impl Kept {
    const MARK: u32 = 1 << 31;
    /// No rank and colour kept: the relaxation before any refinement.
    pub(super) const NONE: Kept = Kept(NonZeroU32::new(Self::MARK).unwrap());

    /// `card`'s bit.
    const fn bit(card: Card) -> u32 {
        1 << (16 * card.colour() as u32 + 13 - card.rank().get() as u32)
    }

    pub(super) fn is_empty(self) -> bool {
        self == Self::NONE
    }

    /// The ranks and colours kept, and `card`'s.
    pub(super) fn with(self, card: Card) -> Kept {
        Kept(self.0 | Self::bit(card))
    }

    /// The cards of the ranks and colours kept, as a set.
    pub(super) fn cards(self) -> Cards {
        // A colour's bits reversed, 13 of them: its ranks with the Ace
        // lowest, as a suit's cards are.
        let ranks = |colour: u32| {
            Cards::from((self.0.get() >> (16 * colour) & 0x1fff).reverse_bits() >> 19)
        };
        let (black, red) = (ranks(Colour::Black as u32), ranks(Colour::Red as u32));
        black | red << 13 | red << 26 | black << 39
    }

    /// How many ranks and colours are kept.
    pub(super) fn count(self) -> u32 {
        (self.0.get() & !Self::MARK).count_ones()
    }

    /// The places of the kept cards in a run of `len` cards whose first
    /// card is of `first`'s rank and colour: bit `i` for run card `i`, as
    /// in a [`PileCode`].
    #[inline]
    pub(super) fn in_run(self, first: Card, len: u32) -> u32 {
        self.places(first.rank().get(), first.colour() as u32, len)
    }

    /// The places of the kept cards in a run of `len` cards built on
    /// `base`.
    #[inline]
    pub(super) fn in_run_on(self, base: Card, len: u32) -> u32 {
        self.places(base.rank().get() - 1, 1 - base.colour() as u32, len)
    }

    /// The places of the kept cards in a run of `len` cards whose first
    /// has `rank` and the colour of index `colour`: the run's even places
    /// have that colour, its odd places the other.
    #[inline]
    fn places(self, rank: u8, colour: u32, len: u32) -> u32 {
        const EVEN: u32 = 0x1555;
        let shift = 13 - u32::from(rank);
        let ranks = |colour: u32| self.0.get() >> (16 * colour) & 0x1fff;
        let same = ranks(colour) >> shift & EVEN;
        let other = ranks(1 - colour) >> shift & EVEN << 1;
        (same | other) & ((1 << len) - 1)
    }
}

/// Whether `step` is a move home of a run card as its twin: a line with
/// none is the game's own, each position on it a member that the game's
/// moves reach.
pub(super) fn swaps(step: &Step) -> bool {
    step.to.is_some_and(|to| to >= HOME_AS)
}

/// The other card of `card`'s rank and colour.
pub(super) fn twin(card: Card) -> Card {
    let [first, second] = twins(card);
    if card == first { second } else { first }
}

/// The two cards of `card`'s rank and colour, in suit order (as a set:
/// [`TWINS`]).
pub(super) fn twins(card: Card) -> [Card; 2] {
    let suits = match card.colour() {
        Colour::Red => [Suit::Diamonds, Suit::Hearts],
        Colour::Black => [Suit::Clubs, Suit::Spades],
    };
    suits.map(|suit| Card::new(card.rank(), suit))
}

/// What a relaxed position's moves home ask of it, worked out once for
/// its move list: each card's then takes a look or two at sets.
#[derive(Clone, Copy)]
pub(super) struct Homes {
    /// The cards that go home next ([`State::next_home`]).
    next: Cards,
    /// The run cards of the ranks and colours not kept.
    unkept: Cards,
}

impl Homes {
    /// The moves home of the relaxed `state`, whose cards that go home
    /// next are `next`.
    pub(super) fn of(game: &Lanes, state: &State, next: Cards) -> Homes {
        let unkept = game.run_cards(state) & !state.kept().cards();
        Homes { next, unkept }
    }

    /// Calls `each` with each move home of the card `card` at `from`, the
    /// card it goes home as, and whether it is that card in every member:
    /// itself, if it goes home next, and for a run card not kept whose
    /// twin is one too, then its twin, if that goes home next, as a swap
    /// (a talon card or a starting card is no run card: it is forced).
    #[inline]
    pub(super) fn each(self, from: From, card: Card, mut each: impl FnMut(Step, Card, bool)) {
        let (own, pair) = (1 << card.index(), TWINS[card.index()]);
        let forced = self.unkept & pair != pair;
        if self.next & own != 0 {
            each(Step { from, to: None }, card, forced);
        }
        if !forced && self.next & pair & !own != 0 {
            let twin = twin(card);
            let to = Some(HOME_AS + twin.suit().index() as u8);
            each(Step { from, to }, twin, false);
        }
    }
}

impl Lanes {
    /// The cards of the game in runs: neither home, nor in the talon, nor
    /// starting cards still in their place.
    pub(super) fn run_cards(&self, state: &State) -> Cards {
        let elsewhere =
            state.home_cards() | self.card_sets.talon(state.talon) | self.card_sets.dealt(state);
        ((1 << Card::COUNT) - 1) & !elsewhere
    }

    /// The safe move home of the relaxed `state`, if it has one: of a free
    /// card (`free` says which sources are) that is the same card in every
    /// member. The relaxed walk is never narrowed.
    pub(super) fn safe_home_relaxed(
        &self,
        state: &State,
        sources: &[(From, Card)],
        free: impl Fn(From) -> bool,
        homes: Homes,
    ) -> Option<Step> {
        let mut chosen = None;
        for &(from, card) in sources.iter().filter(|&&(from, _)| free(from)) {
            homes.each(from, card, |step, home, forced| {
                if chosen.is_none() && forced && SAFE.safe(&state.home, home) {
                    chosen = Some(step);
                }
            });
        }
        chosen
    }

    /// The relaxed position standing for `state`, which is its member.
    pub(super) fn relax(&self, state: &State) -> State {
        State {
            relaxation: Some(state.kept()),
            ..*state
        }
    }

    /// The deal's position in the next refinement of the relaxation, after
    /// `line` won the one `root` (the deal's position there) is in by
    /// swapping: the ranks and colours it swapped kept too. None past
    /// [`MOST_KEPT`].
    pub(super) fn refine(&self, root: &State, line: &[Step]) -> Option<State> {
        let mut state = *root;
        let mut kept = root.kept();
        for &step in line {
            if swaps(&step) {
                kept = kept.with(self.card_at(&state, step.from));
            }
            state = self.play(&state, step);
        }
        debug_assert!(kept != root.kept(), "a line that wins by a swap");
        (kept.count() <= MOST_KEPT).then_some(State {
            relaxation: Some(kept),
            ..*root
        })
    }

    /// The suit bits of the kept run cards of pile `p`, whose code is
    /// `code`, gathered low to high, and how many there are.
    #[inline]
    fn kept_bits(&self, kept: Kept, p: usize, code: PileCode) -> (u64, u32) {
        let len = code.run_len();
        let mut places = match code.dealt_left() {
            _ if len == 0 => return (0, 0),
            0 => kept.in_run(Card::from_index(code.origin() as usize), len),
            dealt => kept.in_run_on(self.start_cards[p][dealt - 1], len),
        };
        let (mut bits, mut count) = (0, 0);
        while places != 0 {
            bits |= u64::from(code.bit(places.trailing_zeros())) << count;
            count += 1;
            places &= places - 1;
        }
        (bits, count)
    }

    /// The relaxed key's codes, sorted, and the kept run cards' suit bits
    /// in their order ([`MOST_KEPT`] bounds them to 30 bits): each code
    /// forgets its suits, and the kept ones are told apart by their bits.
    pub(super) fn relaxed_codes(&self, state: &State) -> ([PileCode; PILES], u64) {
        // Built in place: the array's `map` was a call for every key.
        let mut codes: [PileCode; PILES] = std::array::from_fn(|p| state.piles[p].unsuited());
        let kept = state.kept();
        if kept.is_empty() {
            sort_piles(&mut codes);
            return (codes, 0);
        }
        // Each pile as its code, then its kept bits' count and bits (13 at
        // most, and 4 bits the count), sorted as one.
        let mut piles: [u64; PILES] = std::array::from_fn(|p| {
            let (bits, count) = self.kept_bits(kept, p, state.piles[p]);
            u64::from(codes[p].0) << 17 | u64::from(count) << 13 | bits
        });
        sort_piles(&mut piles);
        let mut kept = 0;
        for (code, &pile) in codes.iter_mut().zip(&piles).rev() {
            *code = PileCode((pile >> 17) as u32);
            kept = kept << (pile >> 13 & 0xf) | pile & 0x1fff;
        }
        (codes, kept)
    }

    /// Plays into `next` the relaxation's move home of `card` (a run card)
    /// as its twin, the other run card of its rank and colour: the two swap
    /// places in the runs first, so that `next` is still a member.
    pub(super) fn home_as_twin(&self, next: &mut State, card: Card) {
        let twin = twin(card);
        next.home[twin.suit().index()] += 1;
        self.rebuild_runs(next, |c| if c == twin { card } else { c });
    }

    /// Rebuilds the run of every pile of `state`, each card `suited(card)`.
    pub(super) fn rebuild_runs(&self, state: &mut State, mut suited: impl FnMut(Card) -> Card) {
        for p in 0..PILES {
            let dealt = state.piles[p].dealt_left();
            let mut code = PileCode::dealt(p, dealt);
            let mut top = dealt_top(&self.start_cards[p], code);
            let mut at = 0;
            pile_cards(&self.start_cards[p], state.piles[p], |card| {
                if at >= dealt {
                    let card = suited(card);
                    code = code.push(card);
                    top = card.index() as u8;
                }
                at += 1;
            });
            (state.piles[p], state.tops[p]) = (code, top);
        }
    }

    /// Whether every member of the relaxed `state` is a dead end of the
    /// game (see the module doc): `state` itself, and each way of swapping
    /// the two cards of a rank and colour that are both in runs.
    pub(super) fn every_member_dead(&self, state: &State) -> bool {
        // The member `state` is first: an empty pile, or a lone card that
        // can leave at once, spares reading the piles (see
        // `dead_end::cannot_win`).
        if state.tops.contains(&NO_CARD) || lone_leaves(state, |card| card) {
            return false;
        }
        let piles = Piles::of(self, state);
        // The pairs both in runs and not kept, each named by its card of
        // suit bit 0 (`pairs`), and their cards (`either`).
        let unkept = self.run_cards(state) & !state.kept().cards();
        let either = unkept & mirrored(unkept);
        // One relaxed game in which each card of a pair stands for either
        // card of it plays every member's moves and more: where it finds
        // no pile to empty, no member does, and the members need no test
        // of their own. Played first, as most positions tested are dead
        // and it nearly always says so; with no pair it is `state`'s own.
        if no_member_wins(self, state, &piles, either) {
            return true;
        }
        if either == 0 || !no_member_wins(self, state, &piles, 0) {
            return false;
        }
        let pairs = either & FIRST_TWINS;
        if pairs.count_ones() as usize > MOST_SPLITS {
            return false;
        }
        // Each nonempty set of pairs to swap, as a subset of `pairs`.
        let mut swaps: Cards = pairs;
        while swaps != 0 {
            let swapped_cards = swaps | mirrored(swaps);
            let swapped = |card: Card| match swapped_cards & 1 << card.index() {
                0 => card,
                _ => twin(card),
            };
            if !cannot_win_as(self, state, &piles, swapped) {
                return false;
            }
            swaps = (swaps - 1) & pairs;
        }
        true
    }
}
