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

use crate::board::{Board, BoardError, Pile, Tally};
use crate::card::Card;
use crate::game::Game;
use crate::games::Layout;
use crate::notation::{Move, Place};

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
const DEPTH: usize = 4;
const RANKS: usize = 13;

/// Checks that a board is an All in a Row position: 13 piles of at most 4
/// face-up cards, one foundation, and no card twice. With an empty
/// foundation every card must be on the tableau; otherwise the cards not on
/// the tableau are home.
pub fn validate(board: &Board) -> Result<(), BoardError> {
    let lines = &board.lines;
    for (present, line, what) in [
        (board.reserve.is_some(), lines.reserve, "a reserve"),
        (board.stock.is_some(), lines.stock, "a stock"),
        (board.waste.is_some(), lines.waste, "a waste"),
        (board.redeals.is_some(), lines.redeals, "redeals"),
    ] {
        if present {
            return Err(BoardError::at(line, format!("All in a Row has no {what}")));
        }
    }
    if board.foundations.len() > 1 {
        return Err(BoardError::at(
            lines.foundations,
            format!(
                "{} foundations: All in a Row has one",
                board.foundations.len()
            ),
        ));
    }
    if board.piles.len() != PILES {
        let line = board.pile_line(PILES);
        return Err(BoardError::at(
            line,
            format!(
                "{} tableau piles: All in a Row has {PILES}",
                board.piles.len()
            ),
        ));
    }
    let mut tally = Tally::new(1);
    let top = board.foundations.first().copied().flatten();
    if let Some(card) = top {
        tally.add(card, lines.foundations)?;
    }
    for (i, pile) in board.piles.iter().enumerate() {
        let line = board.pile_line(i);
        if !pile.down.is_empty() {
            return Err(BoardError::at(
                line,
                "All in a Row has no face-down cards ('|')",
            ));
        }
        if pile.len() > DEPTH {
            return Err(BoardError::at(
                line,
                format!(
                    "pile {} has {} cards: All in a Row deals {DEPTH} to a pile and no move adds any",
                    i + 1,
                    pile.len()
                ),
            ));
        }
        for card in pile.cards() {
            tally.add(card, line)?;
        }
    }
    if top.is_none() {
        tally.check_complete().map_err(|e| BoardError {
            message: format!(
                "{} (with an empty foundation all 52 must be on the tableau)",
                e.message
            ),
            ..e
        })?;
    }
    Ok(())
}

/// Pile heights, three bits a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Heights(u64);

impl Heights {
    const BITS: u32 = 3;
    /// Bits the heights take in a key.
    const KEY_BITS: u32 = Self::BITS * PILES as u32;

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

/// An All in a Row position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    heights: Heights,
    /// The foundation's top card; its suit only matters for printing.
    top: Option<Card>,
    left: RankCounts,
    /// Cards still on the tableau.
    cards_left: u8,
}

/// Taking the top card of a pile (counted from 0) to the foundation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take(u8);

pub struct AllInARow {
    /// Each pile bottom to top; only the first `height` are still there.
    cards: [[Card; DEPTH]; PILES],
    start: State,
}

/// Zero-based rank of a card, the index the rank tables use.
fn rank_of(card: Card) -> usize {
    card.rank().index()
}

fn adjacent(a: usize, b: usize) -> bool {
    let d = a.abs_diff(b);
    d == 1 || d == RANKS - 1
}

impl AllInARow {
    fn top_card(&self, state: &State, pile: usize) -> Option<Card> {
        match state.heights.get(pile) {
            0 => None,
            h => Some(self.cards[pile][h - 1]),
        }
    }

    /// Move-ordering score: higher is tried first.
    ///
    /// A card whose removal uncovers a card adjacent in rank keeps a chain
    /// going inside one pile; taller piles hold more cards hostage.
    fn score(&self, state: &State, pile: usize) -> u32 {
        let h = state.heights.get(pile);
        let card = self.cards[pile][h - 1];
        let chains = h >= 2 && adjacent(rank_of(card), rank_of(self.cards[pile][h - 2]));
        chains as u32 * 8 + h as u32
    }
}

impl Game for AllInARow {
    const ACYCLIC: bool = true;
    type State = State;
    type Key = u64;
    type Move = Take;

    fn new(board: &Board) -> Result<AllInARow, BoardError> {
        validate(board)?;
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
        let top = board.foundations.first().copied().flatten();
        Ok(AllInARow {
            cards,
            start: State {
                heights,
                top,
                left,
                cards_left,
            },
        })
    }

    fn initial(&self) -> State {
        self.start
    }

    /// The heights and the foundation's rank (0 for empty): 43 bits, exact,
    /// since the cards left and the future moves follow from them.
    fn key(&self, state: &State) -> u64 {
        let rank = state.top.map_or(0, |c| c.rank().get() as u64);
        state.heights.0 | rank << Heights::KEY_BITS
    }

    fn is_won(&self, state: &State) -> bool {
        state.cards_left == 0
    }

    fn cards_home(&self, state: &State) -> u32 {
        52 - state.cards_left as u32
    }

    fn moves(&self, state: &State, out: &mut Vec<Take>) {
        let start = out.len();
        for pile in 0..PILES {
            let Some(card) = self.top_card(state, pile) else {
                continue;
            };
            if state
                .top
                .is_none_or(|top| adjacent(rank_of(top), rank_of(card)))
            {
                out.push(Take(pile as u8));
            }
        }
        out[start..].sort_by_key(|&Take(p)| std::cmp::Reverse(self.score(state, p as usize)));
    }

    fn play(&self, state: &State, Take(pile): Take) -> State {
        let pile = pile as usize;
        let card = self.cards[pile][state.heights.get(pile) - 1];
        State {
            heights: state.heights.take_one(pile),
            top: Some(card),
            left: state.left.take_one(rank_of(card)),
            cards_left: state.cards_left - 1,
        }
    }

    /// See [`walk_exists`]: the ranks left must still be coverable by a
    /// walk of single rank steps from the foundation's rank.
    fn is_dead_end(&self, state: &State) -> bool {
        match state.top {
            Some(top) => !walk_exists(state.left.to_array(), rank_of(top)),
            None => false,
        }
    }

    fn notation(&self, state: &State, Take(pile): Take, out: &mut Vec<Move>) {
        let card = self
            .top_card(state, pile as usize)
            .expect("a move takes a top card");
        out.push(Move::single(Place::Tableau(pile), Place::Foundation, card));
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
/// `counts[r]` times. A rank with no cards left can never be stepped on
/// again, so once some rank other than `at` is empty (or `at` itself is
/// empty and left for good) the walk lives on a path, and on a path the
/// question is exact: see [`path_walk_exists`]. While every rank is open
/// and `at` still has cards, the cycle admits no such cheap test and we
/// claim nothing.
fn walk_exists(counts: [u8; RANKS], at: usize) -> bool {
    let total: u32 = counts.iter().map(|&c| c as u32).sum();
    if total == 0 {
        return true;
    }
    let step = |r: usize, up: bool| {
        if up {
            (r + 1) % RANKS
        } else {
            (r + RANKS - 1) % RANKS
        }
    };
    let line = |up: bool| -> Vec<u8> {
        std::iter::successors(Some(at), |&r| Some(step(r, up)))
            .take(RANKS)
            .map(|r| counts[r])
            .collect()
    };
    let blocked = (0..RANKS).filter(|&r| r != at && counts[r] == 0).count();
    if blocked == 0 {
        // With cards left on `at` the walk may go round the odd cycle: no
        // claim. Without, leaving `at` it can never come back, so it runs
        // along the cycle cut open at `at`, one way or the other.
        return counts[at] > 0
            || path_walk_exists(&line(true), 0)
            || path_walk_exists(&line(false), 0);
    }
    let open = |up: bool| line(up)[1..].iter().take_while(|&&c| c > 0).count();
    let (down, up) = (open(false), open(true));
    let arc: Vec<u8> = (0..=down + up)
        .map(|i| counts[(at + RANKS * 2 - down + i) % RANKS])
        .collect();
    arc.iter().map(|&c| c as u32).sum::<u32>() == total && path_walk_exists(&arc, down)
}

/// Whether a walk on a path of ranks `0..counts.len()`, starting at `start`,
/// can land on each rank `i` exactly `counts[i]` times.
///
/// Such a walk is an Euler trail from `start` to some end `e` in the
/// multigraph where the edge between `i` and `i+1` is crossed `t[i]` times.
/// Each visit to `i` arrives over an edge and (but at the end) leaves over
/// one, so `t[i-1] + t[i] = 2 counts[i] + [i = start] - [i = e]`, which fixes
/// every `t` from the left. A trail exists exactly when, for some `e`, each
/// `t[i]` is at least 1 (the walk must cross every edge to reach both ends)
/// and the last one comes out at 0: then the degrees are those of an Euler
/// trail from `start` to `e` in a connected multigraph.
fn path_walk_exists(counts: &[u8], start: usize) -> bool {
    let last = counts.len() - 1;
    (0..=last).any(|end| {
        let mut crossings = 0i32;
        for (i, &c) in counts.iter().enumerate() {
            crossings = 2 * c as i32 + (i == start) as i32 - (i == end) as i32 - crossings;
            if i < last && crossings < 1 {
                return false;
            }
        }
        crossings == 0
    })
}

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

    fn small_counts() -> impl Strategy<Value = [u8; RANKS]> {
        prop::array::uniform13(prop_oneof![3 => Just(0u8), 2 => Just(1u8), 1 => Just(2u8)])
    }

    proptest! {
        /// The dead-end test never calls a walkable position dead, and it
        /// is exact wherever it makes a claim.
        #[test]
        fn walk_test_agrees_with_search(mut counts in small_counts(), at in 0..RANKS) {
            let claim = walk_exists(counts, at);
            let truth = walk_by_search(&mut counts, at);
            prop_assert!(claim || !truth, "called a walkable position dead");
            let all_open = (0..RANKS).all(|r| r == at || counts[r] > 0);
            if !(all_open && counts[at] > 0) {
                prop_assert_eq!(claim, truth);
            }
        }
    }

    #[test]
    fn walks_on_paths() {
        assert!(path_walk_exists(&[0, 1, 1, 1], 0));
        // Three cards of a rank whose only open neighbour has one card.
        assert!(!path_walk_exists(&[0, 1, 3], 0));
        // A walk cannot go both ways from a start it cannot come back to.
        assert!(!path_walk_exists(&[1, 0, 1], 1));
        assert!(!path_walk_exists(&[2], 0));
    }
}
