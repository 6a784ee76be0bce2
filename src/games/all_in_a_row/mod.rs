//! All in a Row: the rules as the fast engine plays them.
//!
//! One deck in 13 piles of 4, all face up, and one foundation. Any top card
//! may start the foundation; after that a top card goes on it if its rank is
//! one above or below the foundation's, suit ignored, K and A adjacent.
//! Nothing else moves, so every move is final and a win is 52 moves.
//!
//! The position is the height of each pile and the foundation's top card:
//! the cards themselves never move except onto the foundation, so the
//! engine keeps them once, outside the state.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::{Board, BoardError, Pile};
use crate::card::Card;
use crate::deal::Layout;
use crate::game::{Ask, Game};
use crate::notation::{Move, Place};
use crate::reference::Rules;
use crate::reference::all_in_a_row::AllInARowRules;
use crate::search::{Plan, Planned, SpareBitKey};

/// What the search leaves out, which no win needs (see `AllInARow::moves`
/// and `walk_exists`): said with every `lost` verdict.
pub const PRUNING: &str = "positions from which the ranks of the cards left cannot all be \
    played whatever their order in the piles, and the second order of two cards of one rank";

pub const LAYOUT: Layout = Layout {
    decks: 1,
    foundations: 1,
    aces_start_home: false,
    piles: &[4; PILES],
    reserve: 0,
    stock: false,
    face_down: false,
};

const PILES: usize = 13;

/// Place values of the piles' heights in base 5.
const POW5: [u32; PILES] = {
    let mut pow = [1; PILES];
    let mut i = 1;
    while i < PILES {
        pow[i] = pow[i - 1] * 5;
        i += 1;
    }
    pow
};
const DEPTH: usize = 4;
const RANKS: usize = 13;

/// Pile heights, three bits a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Heights(u64);

impl Heights {
    const BITS: u32 = 3;

    fn get(self, pile: usize) -> usize {
        (self.0 >> (pile as u32 * Self::BITS)) as usize & 7
    }

    fn with(self, pile: usize, height: usize) -> Heights {
        let shift = pile as u32 * Self::BITS;
        Heights(self.0 & !(7 << shift) | (height as u64) << shift)
    }

    fn take_one(self, pile: usize) -> Heights {
        Heights(self.0 - (1 << (pile as u32 * Self::BITS)))
    }
}

/// The rank of each pile's top card, four bits a pile, 15 for an empty
/// pile (and in the three unused lanes), so that the piles whose top card
/// fits are found a word at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TopRanks(u64);

impl TopRanks {
    /// Bit 3 of every lane.
    const HIGH: u64 = 0x8888_8888_8888_8888;
    const LOW: u64 = 0x7777_7777_7777_7777;
    const ONES: u64 = 0x1111_1111_1111_1111;

    fn with(self, pile: usize, rank: u8) -> TopRanks {
        let shift = 4 * pile;
        TopRanks(self.0 & !(15 << shift) | (rank as u64) << shift)
    }

    /// The piles whose top card has `rank`, as bit 3 of their lanes.
    fn piles_of(self, rank: usize) -> u64 {
        // Lanes equal to `rank` become 0. Adding 7 to a lane's low three
        // bits sets its bit 3 if any is set, without carrying into the
        // next lane; only a lane with all four bits clear keeps bit 3
        // clear in `set | x`.
        let x = self.0 ^ (Self::ONES * rank as u64);
        let set = (x & Self::LOW) + Self::LOW;
        !(set | x) & Self::HIGH
    }

    /// The piles with any card, as bit 3 of their lanes.
    fn piles_with_cards(self) -> u64 {
        !self.piles_of(15) & Self::HIGH
    }
}

/// Cards left on the tableau of each rank, four bits a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RankCounts(u64);

impl RankCounts {
    fn get(self, rank: usize) -> u8 {
        (self.0 >> (rank * 4)) as u8 & 15
    }

    fn take_one(self, rank: usize) -> RankCounts {
        RankCounts(self.0 - (1 << (rank * 4)))
    }

    fn to_array(self) -> [u8; RANKS] {
        std::array::from_fn(|r| self.get(r))
    }
}

/// Top cards that may not be played yet (see [`AllInARow::moves`]), each
/// until the next card of another pile has been played.
///
/// At most [`Freezes::MAX`] at once, so that they fit in the key: a freeze
/// more is simply not made, which only leaves more lines to search. Each
/// is a byte, `1 + frozen pile * 13 + pile waited on`, kept in descending
/// order so that equal sets are equal words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Freezes {
    /// The frozen piles, a bit each.
    piles: u16,
    /// Up to three bytes.
    codes: u32,
}

impl Freezes {
    const MAX: usize = 3;

    fn is_frozen(self, pile: usize) -> bool {
        self.piles & 1 << pile != 0
    }

    /// (frozen pile, pile waited on) of each freeze.
    fn pairs(self) -> impl Iterator<Item = (usize, usize)> {
        (0..Self::MAX)
            .map(move |i| (self.codes >> (8 * i)) as usize & 255)
            .filter(|&code| code != 0)
            .map(|code| ((code - 1) / PILES, (code - 1) % PILES))
    }

    fn from_pairs(pairs: impl Iterator<Item = (usize, usize)>) -> Freezes {
        let mut codes = [0u32; Self::MAX];
        let mut piles = 0;
        for (slot, (frozen, until)) in codes.iter_mut().zip(pairs) {
            *slot = 1 + (frozen * PILES + until) as u32;
            piles |= 1 << frozen;
        }
        codes.sort_unstable_by(|a, b| b.cmp(a));
        Freezes {
            piles,
            codes: codes[0] | codes[1] << 8 | codes[2] << 16,
        }
    }

    /// The freezes left once a card of `pile` has been played.
    fn release(self, pile: usize) -> Freezes {
        if self.pairs().all(|(_, until)| until != pile) {
            return self;
        }
        Freezes::from_pairs(self.pairs().filter(|&(_, until)| until != pile))
    }

    /// These freezes and one more, if there is room.
    fn with(self, frozen: usize, until: usize) -> Freezes {
        if self.is_frozen(frozen) || self.piles.count_ones() as usize >= Self::MAX {
            return self;
        }
        Freezes::from_pairs(self.pairs().chain([(frozen, until)]))
    }
}

/// An All in a Row position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    heights: Heights,
    /// The heights again as one base-5 number (31 bits), for the key.
    heights5: u32,
    /// The foundation's top card; its suit only matters for printing.
    top: Option<Card>,
    left: RankCounts,
    /// Cards still on the tableau.
    cards_left: u8,
    frozen: Freezes,
    tops: TopRanks,
}

/// Taking the top card of a pile (counted from 0) to the foundation, and
/// the piles (a bit each) whose same-rank top cards this move freezes until
/// the card under it has been played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pile: u8,
    freeze: u16,
}

pub struct AllInARow {
    /// Each pile bottom to top; only the first `height` are still there.
    cards: [[Card; DEPTH]; PILES],
    /// The zero-based rank of each of those cards.
    ranks: [[u8; DEPTH]; PILES],
    /// [`pile_scores`] of the deal.
    pile_scores: [[u32; DEPTH + 1]; PILES],
    start: State,
    /// Answers of `walk_exists`, which depends only on the ranks left and
    /// the foundation's rank, shared by the many positions that agree on
    /// those. Direct-mapped; each slot holds the question (57 bits) with
    /// the answer in the top bit. Atomic, for threads searching one deal:
    /// a slot is one word, so a thread reads a whole question and its
    /// answer, whichever thread wrote it last.
    walks: Box<[AtomicU64]>,
}

/// Slots in the walk cache: 32 KiB, cheap to set up for a deal of a few
/// thousand positions and small enough to stay in the processor's cache.
const WALK_CACHE: usize = 1 << 12;

/// Zero-based rank of a card, the index the rank tables use.
fn rank_of(card: Card) -> usize {
    card.rank().index()
}

fn adjacent(a: usize, b: usize) -> bool {
    let d = a.abs_diff(b);
    d == 1 || d == RANKS - 1
}

impl AllInARow {
    /// `walk_exists`, remembered.
    fn walk_exists(&self, left: RankCounts, at: usize) -> bool {
        const ANSWER: u64 = 1 << 63;
        let question = left.0 | (at as u64) << 52 | 1 << 56;
        let slot = &self.walks[(question.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> (64 - WALK_CACHE.trailing_zeros())) as usize];
        let seen = slot.load(Ordering::Relaxed);
        if seen & !ANSWER == question {
            return seen & ANSWER != 0;
        }
        let answer = walk_exists(left.to_array(), at);
        slot.store(
            question | if answer { ANSWER } else { 0 },
            Ordering::Relaxed,
        );
        answer
    }

    fn top_card(&self, state: &State, pile: usize) -> Option<Card> {
        match state.heights.get(pile) {
            0 => None,
            h => Some(self.cards[pile][h - 1]),
        }
    }
}

/// The part of the move-ordering score fixed by a pile and its height.
///
/// Moves are tried best score first. A card whose removal uncovers a card
/// adjacent in rank keeps a chain going inside one pile, and taller piles
/// hold more cards hostage; [`AllInARow::moves`] adds twice the cards left
/// of the card's rank, since a rank with cards to spare is safer to play
/// than one about to run out (a rank with none left can never be crossed
/// again).
fn pile_scores(ranks: &[[u8; DEPTH]; PILES]) -> [[u32; DEPTH + 1]; PILES] {
    std::array::from_fn(|pile| {
        std::array::from_fn(|h| {
            let chains =
                h >= 2 && adjacent(ranks[pile][h - 1] as usize, ranks[pile][h - 2] as usize);
            chains as u32 * 8 + h as u32
        })
    })
}

/// What the search runs for All in a Row: the full walk alone, in which
/// the dead-end test and the freezes do the work.
impl Planned for AllInARow {
    const PLAN: Plan = Plan::FULL_WALK;
}

impl Game for AllInARow {
    const ACYCLIC: bool = true;
    type State = State;
    type Key = SpareBitKey<62>;
    type Move = Take;

    fn new(board: &Board) -> Result<AllInARow, BoardError> {
        AllInARowRules.validate(board)?;
        let mut cards = [[Card::from_index(0); DEPTH]; PILES];
        let mut heights = Heights(0);
        let mut left = RankCounts(0);
        for (p, pile) in board.piles.iter().enumerate() {
            for (i, card) in pile.cards().enumerate() {
                cards[p][i] = card;
                left = RankCounts(left.0 + (1 << (rank_of(card) * 4)));
            }
            heights = heights.with(p, pile.len());
        }
        let cards_left = board.piles.iter().map(Pile::len).sum::<usize>() as u8;
        let heights5 = (0..PILES).map(|p| heights.get(p) as u32 * POW5[p]).sum();
        let top = board.foundations.first().copied().flatten();
        let ranks = cards.map(|pile| pile.map(|card| rank_of(card) as u8));
        let tops = (0..PILES).fold(TopRanks(u64::MAX), |tops, p| match heights.get(p) {
            0 => tops,
            h => tops.with(p, ranks[p][h - 1]),
        });
        Ok(AllInARow {
            cards,
            ranks,
            pile_scores: pile_scores(&ranks),
            walks: (0..WALK_CACHE).map(|_| AtomicU64::new(0)).collect(),
            start: State {
                heights,
                heights5,
                top,
                left,
                cards_left,
                frozen: Freezes::default(),
                tops,
            },
        })
    }

    fn initial(&self) -> State {
        self.start
    }

    /// The heights (31 bits in base 5), the foundation's rank (4 bits, 0
    /// for empty) and the freezes (24 bits): exact, since the cards left
    /// and the future moves follow from them. A freeze needs no height: the
    /// pile it waits on is one card above its release until it moves. The
    /// top bit is always set, so no key is the table's empty slot; bits 59
    /// to 62 never are, and the shared table keeps its mark in bit 62.
    fn key(&self, state: &State) -> SpareBitKey<62> {
        let rank = state.top.map_or(0, |c| c.rank().get() as u64);
        SpareBitKey::new(
            1 << 63 | state.heights5 as u64 | rank << 31 | (state.frozen.codes as u64) << 35,
        )
    }

    fn is_won(&self, state: &State) -> bool {
        state.cards_left == 0
    }

    fn cards_home(&self, state: &State) -> u32 {
        52 - state.cards_left as u32
    }

    /// Same-rank top cards are where the search would repeat itself: a
    /// line that plays `c2` now and another top card `c1` of the same rank
    /// before the card under `c2` is still legal with `c1` and `c2`
    /// swapped (same ranks, and each card is uncovered no later than its
    /// swapped line plays it). So once `c1`'s move has been offered, `c2`'s
    /// move freezes `c1` until the card under `c2` has gone; if nothing is
    /// under `c2`, that move can never lead to a win and is left out.
    /// Frozen cards stay unplayable until released; freezes are part of the
    /// key, so the table stays exact. Only unfrozen cards are swapped, and
    /// a card freezes only cards offered before it, so the swaps of a
    /// winning line always end (Gent et al., "Search in the patience game
    /// Black Hole", 2007, use the same conditional symmetry).
    fn moves(&self, state: &State, _last: Option<Take>, _ask: Ask, out: &mut Vec<Take>) {
        // Each candidate is one sortable word: score, then the pile (lower
        // first on ties), then the rank.
        let mut candidates = [0u32; PILES];
        let mut n = 0;
        let mut fitting = match state.top {
            Some(top) => {
                let at = rank_of(top);
                state.tops.piles_of((at + 1) % RANKS)
                    | state.tops.piles_of((at + RANKS - 1) % RANKS)
            }
            None => state.tops.piles_with_cards(),
        };
        while fitting != 0 {
            let pile = fitting.trailing_zeros() as usize / 4;
            fitting &= fitting - 1;
            if state.frozen.is_frozen(pile) {
                continue;
            }
            let height = state.heights.get(pile);
            let rank = self.ranks[pile][height - 1] as u32;
            let score = self.pile_scores[pile][height] + 2 * state.left.get(rank as usize) as u32;
            candidates[n] = score << 8 | (15 - pile as u32) << 4 | rank;
            n += 1;
        }
        let candidates = &mut candidates[..n];
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        let pile_of = |word: u32| 15 - (word >> 4 & 15) as u8;
        for (j, &word) in candidates.iter().enumerate() {
            let (pile, rank) = (pile_of(word), word & 15);
            let freeze = candidates[..j]
                .iter()
                .filter(|&&earlier| earlier & 15 == rank)
                .fold(0u16, |mask, &earlier| mask | 1 << pile_of(earlier));
            if freeze != 0 && state.heights.get(pile as usize) == 1 {
                continue;
            }
            out.push(Take { pile, freeze });
        }
    }

    fn play(&self, state: &State, mv: Take) -> State {
        let pile = mv.pile as usize;
        let height = state.heights.get(pile);
        let card = self.cards[pile][height - 1];
        let mut frozen = state.frozen;
        if frozen.piles != 0 {
            frozen = frozen.release(pile);
        }
        if mv.freeze != 0 {
            for p in (0..PILES).filter(|&p| mv.freeze & 1 << p != 0) {
                frozen = frozen.with(p, pile);
            }
        }
        State {
            heights: state.heights.take_one(pile),
            heights5: state.heights5 - POW5[pile],
            top: Some(card),
            left: state.left.take_one(rank_of(card)),
            cards_left: state.cards_left - 1,
            frozen,
            tops: state.tops.with(
                pile,
                if height > 1 {
                    self.ranks[pile][height - 2]
                } else {
                    15
                },
            ),
        }
    }

    /// See `walk_exists`: the ranks left must still be coverable by a
    /// walk of single rank steps from the foundation's rank.
    fn is_dead_end(&self, state: &State) -> bool {
        match state.top {
            Some(top) => !self.walk_exists(state.left, rank_of(top)),
            None => false,
        }
    }

    fn notation(&self, state: &State, mv: Take, out: &mut Vec<Move>) {
        let card = self
            .top_card(state, mv.pile as usize)
            .expect("a move takes a top card");
        out.push(Move::single(
            Place::Tableau(mv.pile),
            Place::Foundation,
            card,
        ));
    }

    fn to_board(&self, state: &State) -> Board {
        Board {
            foundations: vec![state.top],
            piles: (0..PILES)
                .map(|p| Pile::face_up(self.cards[p][..state.heights.get(p)].to_vec()))
                .collect(),
            ..Board::default()
        }
    }
}

/// Whether the remaining cards could all be played if only their ranks
/// mattered: a necessary condition for a win, so `false` proves a dead end.
///
/// Playing the rest is a walk on the 13-cycle of ranks, one step a card,
/// from the foundation's rank `at`, that lands on rank `r` exactly
/// `counts[r]` times and ends on some rank `end`. Such a walk is an Euler
/// trail from `at` to `end` in the multigraph where the edge between ranks
/// `r` and `r+1` is crossed `t[r]` times: each landing on `r` arrives over
/// an edge and (but at the end) leaves over one, so
///
/// `t[r-1] + t[r] = 2 counts[r] + [r = at] - [r = end]`.
///
/// Around an odd cycle these 13 equations fix every `t` once `end` is
/// chosen. A trail exists exactly when, for some `end`, every `t`
/// is a whole number at least 0 and the edges crossed connect `at` to
/// every rank with cards left: then the degrees are those of an Euler
/// trail from `at` to `end`. So the test is exact for the ranks alone; it
/// ignores only the order of cards within piles.
fn walk_exists(counts: [u8; RANKS], at: usize) -> bool {
    let needed: u16 = (0..RANKS)
        .filter(|&r| counts[r] > 0)
        .fold(1 << at, |mask, r| mask | 1 << r);
    // No cards left is the only walk of no steps: cards of the
    // foundation's own rank alone can never be played.
    if counts.iter().all(|&c| c == 0) {
        return true;
    }
    // Crossings with the end term left out: `free[r]` is the alternating
    // sum of `d[0..=r]`, and `alternating` that of all 13.
    let mut free = [0i32; RANKS];
    let mut previous = 0;
    for (r, slot) in free.iter_mut().enumerate() {
        *slot = 2 * counts[r] as i32 + (r == at) as i32 - previous;
        previous = *slot;
    }
    let alternating = previous;
    [0, 1].into_iter().any(|parity| {
        // For an end of this parity, going round the cycle gives
        // `t[12] = x` with `x = (alternating - (-1)^end) / 2` (always whole:
        // only `d[at]` is odd), and then
        //   t[r] = base[r]                    for r < end,
        //   t[r] = base[r] - (-1)^(r - end)   for r >= end,
        // where `base[r] = free[r] + (-1)^(r+1) x`. From `end` on, the sign
        // depends only on the parity of `r`, not on `end` itself.
        let x = (alternating - if parity == 0 { 1 } else { -1 }) / 2;
        let mut base = [0i32; RANKS];
        let mut after = [0i32; RANKS];
        for r in 0..RANKS {
            base[r] = free[r] + if r % 2 == 0 { -x } else { x };
            after[r] = base[r] - if r % 2 == parity { 1 } else { -1 };
        }
        // Below `end` every `t` is a `base`; none may be negative.
        let last_end = base.iter().position(|&t| t < 0).unwrap_or(RANKS - 1);
        // `suffix_ok`: every `t[r]` for `r >= end` is at least 0.
        let mut suffix_ok = true;
        (0..RANKS).rev().any(|end| {
            suffix_ok &= after[end] >= 0;
            end % 2 == parity && end <= last_end && counts[end] > 0 && suffix_ok && {
                let crossed = |r: usize| if r < end { base[r] } else { after[r] } > 0;
                reaches(crossed, at, needed)
            }
        })
    })
}

/// Whether the edges crossed (edge `r` joins ranks `r` and `r+1`) link `at`
/// to every rank in `needed`.
fn reaches(crossed: impl Fn(usize) -> bool, at: usize, needed: u16) -> bool {
    let mut reached: u16 = 1 << at;
    let mut r = at;
    while crossed(r) && reached & 1 << ((r + 1) % RANKS) == 0 {
        r = (r + 1) % RANKS;
        reached |= 1 << r;
    }
    let mut r = at;
    while crossed((r + RANKS - 1) % RANKS) && reached & 1 << ((r + RANKS - 1) % RANKS) == 0 {
        r = (r + RANKS - 1) % RANKS;
        reached |= 1 << r;
    }
    reached & needed == needed
}

mod longest;

pub use longest::LongestLine;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Plain search for a rank walk: try every step.
    fn walk_by_search(counts: &mut [u8; RANKS], at: usize) -> bool {
        if counts.iter().all(|&c| c == 0) {
            return true;
        }
        for next in [(at + 1) % RANKS, (at + RANKS - 1) % RANKS] {
            if counts[next] > 0 {
                counts[next] -= 1;
                let found = walk_by_search(counts, next);
                counts[next] += 1;
                if found {
                    return true;
                }
            }
        }
        false
    }

    pub(super) fn small_counts() -> impl Strategy<Value = [u8; RANKS]> {
        prop::array::uniform13(prop_oneof![3 => Just(0u8), 2 => Just(1u8), 1 => Just(2u8)])
    }

    proptest! {
        /// The word-at-a-time search finds exactly the piles whose lane
        /// holds the rank, empty piles and unused lanes never.
        #[test]
        fn top_ranks_find_exactly_their_piles(
            lanes in prop::array::uniform13(prop_oneof![Just(15u8), 0..13u8]),
            rank in 0..RANKS,
        ) {
            let tops = lanes
                .iter()
                .enumerate()
                .fold(TopRanks(u64::MAX), |tops, (p, &r)| tops.with(p, r));
            let lane_bits = |pred: &dyn Fn(u8) -> bool| {
                (0..PILES)
                    .filter(|&p| pred(lanes[p]))
                    .fold(0u64, |mask, p| mask | 8 << (4 * p))
            };
            prop_assert_eq!(tops.piles_of(rank), lane_bits(&|r| r as usize == rank));
            prop_assert_eq!(tops.piles_with_cards(), lane_bits(&|r| r != 15));
        }

        /// The dead-end test is exact for ranks alone: it calls a position
        /// dead exactly when no walk covers its ranks.
        #[test]
        fn walk_test_agrees_with_search(mut counts in small_counts(), at in 0..RANKS) {
            let claim = walk_exists(counts, at);
            let truth = walk_by_search(&mut counts, at);
            prop_assert_eq!(claim, truth);
        }
    }

    fn counts(pairs: &[(usize, u8)]) -> [u8; RANKS] {
        let mut counts = [0; RANKS];
        for &(rank, n) in pairs {
            counts[rank] = n;
        }
        counts
    }

    #[test]
    fn rank_walks() {
        // 2 3 4 from the Ace: a straight walk.
        assert!(walk_exists(counts(&[(1, 1), (2, 1), (3, 1)]), 0));
        // Three 3s whose only open neighbour, 2, has one card.
        assert!(!walk_exists(counts(&[(1, 1), (2, 3)]), 0));
        // From a 2 with no 2s left, the walk cannot take both the Ace and the 3.
        assert!(!walk_exists(counts(&[(0, 1), (2, 1)]), 1));
        // Round the wrap: K then A.
        assert!(walk_exists(counts(&[(12, 1), (0, 1)]), 11));
        // 5 6 7 6 5 6 7 6 from a 4 with no 4s left.
        assert!(walk_exists(counts(&[(4, 2), (5, 4), (6, 2)]), 3));
        // Four each of 5 6 7: a walk alternates {5, 7} with {6}, 8 to 4.
        assert!(!walk_exists(counts(&[(4, 4), (5, 4), (6, 4)]), 3));
        // Four 6s flanked by single 5 and 7: needs eight crossings, has four.
        assert!(!walk_exists(counts(&[(4, 1), (5, 4), (6, 1)]), 3));
    }
}
