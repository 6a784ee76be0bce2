//! Rows of Four: the rules as the fast engine plays them.
//!
//! Two decks, every card twice. Eight tableau piles of four, all face up,
//! build down one rank regardless of suit, one card at a time, and only
//! the waste's top card fills an empty pile. Eight foundations, empty at
//! the start: an Ace starts any empty one, then up by suit to King. The
//! stock is dealt one card at a time to the waste, with two redeals: the
//! waste turned over in order.
//!
//! The waste and the stock are one sequence, the talon (see
//! [`super::talon`]): a position's talon is a mask of the places still
//! holding a card (up to 104: a `u128`), a cursor and the redeals left.
//! The engine's move plays any card that draws (and a redeal) can bring to
//! the waste's top, and the move list shows each `draw` and `redeal`.
//!
//! The files: [`pile`] holds the piles' codes, [`moves`] the moves with
//! the pruning and the argument that it loses no win, [`dead_end`] the
//! test for Kings that can never go home. The foundations are kept as the
//! reference rules fill them (see [`super::foundations`]); the key leaves
//! them out (see [`RowsOfFour::key`]).

mod dead_end;
mod moves;
mod pile;
#[cfg(test)]
mod tests;

use self::pile::{PileCode, card_of};
use super::NO_CARD;
use super::foundations::Foundations;
use super::key;
use super::narrowed::{Narrowed, rearranged_after};
use super::pile_code::{self, MAX_START};
use super::step;
use super::talon::{self, From, Talon};
use crate::board::{Board, BoardError, Pile};
use crate::card::{Card, Rank};
use crate::deal::Layout;
use crate::game::{Ask, Game};
use crate::notation::{Move, Place};
use crate::reference::Rules;
use crate::reference::rows_of_four::RowsOfFourRules;
use crate::search::{Plan, Planned};

/// What the search leaves out, which no win needs (see [`moves`]): said
/// with every `lost` verdict.
pub const PRUNING: &str = "all but a safe move home, all but one empty pile, a card moved on \
    at once, and positions whose Kings can never go home";

const PILES: usize = 8;
const FOUNDATIONS: usize = 8;

pub const LAYOUT: Layout = Layout::with_stock(2, &[4; PILES], false);

/// "Two redeals, so three passes through the stock in all."
const REDEALS: u8 = 2;
/// The talon's most cards: all 104, on a typed board with nothing on the
/// tableau or the foundations.
const MAX_TALON: usize = 2 * Card::COUNT;

/// The narrowed walks' levels 1 to 3 (see [`Narrowed`]): the stock's next
/// 5, 8 and 8 cards, one, one and three rearranging moves in a row, and
/// greed at the first level alone.
const NARROWED: [Narrowed; 3] = [
    Narrowed {
        rearranging: 1,
        window: 5,
        greedy: true,
    },
    Narrowed {
        rearranging: 1,
        window: 8,
        greedy: false,
    },
    Narrowed {
        rearranging: 3,
        window: 8,
        greedy: false,
    },
];

/// A Rows of Four position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The talon's cards still in it, a bit each by place in the talon.
    talon: u128,
    /// The talon's places below this one are the waste (see
    /// [`super::talon`]).
    cursor: u8,
    redeals: u8,
    piles: [PileCode; PILES],
    /// Each pile's top card (its index), or [`NO_CARD`].
    tops: [u8; PILES],
    home: Foundations<FOUNDATIONS>,
    /// Moves in a row that only rearranged the tableau (see
    /// [`Narrowed`]). Not in the key: only narrowed searches read it.
    rearranged: u8,
    /// Whether the move that reached the position changed what
    /// [`RowsOfFour::kings_stuck`] reads: a card home, a starting card
    /// uncovered, a card on an empty pile (and set for the start). After
    /// any other move (most of a walk's) the answer is the parent's, and a
    /// search expands only a parent that was no dead end, so the test is
    /// skipped. A position whose parent was never tested is only tested
    /// less: skipping a sound test never makes a verdict wrong. Not in the
    /// key: it tells how the position was reached.
    kings_moved: bool,
}

impl State {
    /// The waste's top card's place in the talon, if the waste has cards.
    fn waste_top(&self) -> Option<u8> {
        talon::waste_top(self.talon, self.cursor)
    }
}

/// A card from a pile or the talon to its foundation or onto a pile.
pub type Step = step::Step<From>;

pub struct RowsOfFour {
    /// Each pile's starting cards, bottom to top.
    start_cards: [[Card; MAX_START]; PILES],
    talon: Talon<MAX_TALON>,
    /// The code of each pile holding `d` of its starting cards (index `d`)
    /// and nothing more (see [`pile_code::dealt_codes`]).
    dealt_codes: [[PileCode; MAX_START + 1]; PILES],
    /// For each pile, its first `i` starting cards (index `i`) of each
    /// suit, counted by rank, two bits a rank (rank `r` at bits `2r`).
    /// See [`RowsOfFour::kings_stuck`].
    counts: [[[u32; 4]; MAX_START + 1]; PILES],
    /// For each pile, the Kings among its starting cards: each one's place
    /// from the bottom and suit, bottom first.
    kings: [Vec<(u8, u8)>; PILES],
    /// Whether the board had no `Foundations:` line: the reference rules
    /// then show none until the first card goes home.
    bare: bool,
    /// Whether the board had a `Redeals:` line: the reference keeps it
    /// until the first redeal.
    redeals_given: bool,
    start: State,
}

/// What the search runs for Rows of Four: the full walk, walks narrowed
/// at levels 1 to 3 (see [`NARROWED`]; each wins deals the others do not,
/// and each level's moves are some of the next one's, so a level that
/// ends without a win is rightly dropped with the narrower ones), and a
/// beam at level 2 led by level 1's rollouts, with sixteen times their
/// turns. With five tactics the budget grows once a round, so that the
/// last does not get 81 times the first's nodes; most deals are won in a
/// walk's first few hundred positions, so the turns start small. The
/// figures behind each choice are in `docs/tuning.md`.
impl Planned for RowsOfFour {
    const PLAN: Plan = Plan {
        narrowings: &[1, 2, 3],
        max_narrowing: Some(NARROWED.len() as u32),
        growth_by_round: true,
        beams: &[2],
        rollout_level,
        beam_weight: 16,
        first_turn_nodes: 10_000,
        ..Plan::FULL_WALK
    };
}

/// The level of the rollouts that lead a beam at `level`: level 2 plays
/// level 1's moves (a card that can go home goes there, only the stock's
/// next 5 cards, one rearranging move in a row), the others their own.
/// Greedy play gets far in few moves, and the wider search around it
/// picks which lines to play it from.
const fn rollout_level(level: u32) -> u32 {
    if level == 2 { 1 } else { level }
}

impl Game for RowsOfFour {
    const ACYCLIC: bool = false;
    type State = State;

    fn new(board: &Board) -> Result<RowsOfFour, BoardError> {
        RowsOfFourRules.validate(board)?;
        let start_cards =
            pile_code::start_cards::<PILES, MAX_START>(board, "a Rows of Four pile", " here")?;
        let heights: [usize; PILES] = std::array::from_fn(|p| board.piles[p].len());
        let dealt_codes: [_; PILES] = std::array::from_fn(|p| {
            let cards = &start_cards[p];
            pile_code::dealt_codes(p, cards, heights[p], |i| {
                cards[i].rank().get() + 1 == cards[i - 1].rank().get()
            })
        });
        let talon = Talon::new(board).expect("the rules allow at most 104 cards in the talon");
        let mut counts = [[[0u32; 4]; MAX_START + 1]; PILES];
        let mut kings: [Vec<(u8, u8)>; PILES] = Default::default();
        for p in 0..PILES {
            for (i, card) in start_cards[p][..heights[p]].iter().enumerate() {
                counts[p][i + 1] = counts[p][i];
                counts[p][i + 1][card.suit().index()] += 1 << (2 * card.rank().get());
                if card.rank() == Rank::KING {
                    kings[p].push((i as u8, card.suit().index() as u8));
                }
            }
        }
        let start = State {
            talon: talon.full(),
            piles: std::array::from_fn(|p| dealt_codes[p][heights[p]]),
            tops: std::array::from_fn(|p| match heights[p] {
                0 => NO_CARD,
                d => start_cards[p][d - 1].index() as u8,
            }),
            home: Foundations::read(board),
            cursor: board.waste.as_ref().map_or(0, Vec::len) as u8,
            redeals: board.redeals.unwrap_or(REDEALS),
            rearranged: 0,
            kings_moved: true,
        };
        Ok(RowsOfFour {
            start_cards,
            talon,
            dealt_codes,
            counts,
            kings,
            bare: board.foundations.is_empty(),
            redeals_given: board.redeals.is_some(),
            start,
        })
    }

    fn initial(&self) -> State {
        self.start
    }

    type Key = [u64; 6];

    /// Exact, 384 bits, low to high: the eight pile codes sorted
    /// (positions that differ only in the order of the piles are one
    /// position), 8 × 33 = 264 bits; the talon's mask, one bit for each of
    /// its places (at most 104; 72 in a dealt game); the cursor (7 bits)
    /// and the redeals left (2 bits): at most 377 bits. Bit 383 is always
    /// set, so no key is the table's empty slot.
    ///
    /// The foundations are left out: they follow from the rest. Every card
    /// not on the tableau or in the talon is home, and the cards home of a
    /// suit give its two foundations: with each foundation holding one copy
    /// of each rank up to its top, the higher shows the highest rank home
    /// at all, the lower the highest rank home twice. Which place each
    /// stands in changes no move.
    fn key(&self, state: &State) -> [u64; 6] {
        let rest = state.cursor as u64 | (state.redeals as u64) << 7;
        key::codes_and_talon(state.piles, state.talon, self.talon.len(), rest)
    }

    /// See [`RowsOfFour::kings_stuck`], and `State::kings_moved` for when
    /// it is skipped.
    fn is_dead_end(&self, state: &State) -> bool {
        state.kings_moved && self.kings_stuck(state)
    }

    fn is_won(&self, state: &State) -> bool {
        state.home.is_won()
    }

    fn cards_home(&self, state: &State) -> u32 {
        state.home.cards_home()
    }

    /// Where a rollout ends (see `RowsOfFour::PLAN`): the cards home. A
    /// term for the redeals left gained too little to keep
    /// (`docs/tuning.md`).
    fn score(&self, state: &State) -> i32 {
        self.cards_home(state) as i32
    }

    type Move = Step;

    /// See [`moves`] for what is left out and why no win is lost, and
    /// [`NARROWED`] for what narrowed searches leave out besides.
    fn moves(&self, state: &State, last: Option<Step>, ask: Ask, out: &mut Vec<Step>) {
        self.offer(state, last.and_then(|step| step.to), ask, out);
    }

    fn play(&self, state: &State, step: Step) -> State {
        let card = self.card_at(state, step.from);
        let mut next = *state;
        let rearranges = step.to.is_some()
            && matches!(step.from, From::Pile(p) if state.piles[p as usize].run_len() > 0);
        next.rearranged = rearranged_after(state.rearranged, rearranges);
        match step.from {
            From::Pile(p) => {
                let p = p as usize;
                let old = state.piles[p];
                let code = self.pop(p, old);
                next.piles[p] = code;
                next.tops[p] = match (old.run_len(), old.dealt_left()) {
                    (2.., _) => {
                        card_of(card.rank().get() + 1, code.top_bits() as usize).index() as u8
                    }
                    (1, _) => self.base_top(p, code),
                    // The card under a starting card: the one dealt below.
                    (0, 0) => NO_CARD,
                    (0, dealt) => self.start_cards[p][dealt - 2].index() as u8,
                };
            }
            From::Talon(t) => {
                let redealt;
                (next.talon, next.cursor, redealt) = talon::take(state.talon, state.cursor, t);
                next.redeals -= redealt as u8;
            }
        }
        match step.to {
            None => next.home.put(card),
            Some(to) => {
                let to = to as usize;
                next.piles[to] = state.piles[to].push(card);
                next.tops[to] = card.index() as u8;
            }
        }
        next.kings_moved = match (step.from, step.to) {
            (_, None) => true,
            (From::Pile(p), _) if state.piles[p as usize].run_len() == 0 => true,
            (_, Some(to)) => state.piles[to as usize].is_empty(),
        };
        next
    }

    fn notation(&self, state: &State, step: Step, out: &mut Vec<Move>) {
        let card = self.card_at(state, step.from);
        let from = match step.from {
            From::Pile(p) => Place::Tableau(p),
            From::Talon(t) => {
                self.talon.draws(state.talon, state.cursor, t, out);
                Place::Waste
            }
        };
        let to = step.to.map_or(Place::Foundation, Place::Tableau);
        out.push(Move::single(from, to, card));
    }

    fn to_board(&self, state: &State) -> Board {
        let (stock, waste) = self.talon.stock_and_waste(state.talon, state.cursor);
        let redeals_kept = state.redeals == REDEALS && !self.redeals_given;
        Board {
            foundations: state.home.tops(self.bare),
            stock: Some(stock),
            waste: Some(waste),
            redeals: (!redeals_kept).then_some(state.redeals),
            piles: (0..PILES)
                .map(|p| Pile::face_up(state.piles[p].to_vec(&self.start_cards[p])))
                .collect(),
            ..Board::default()
        }
    }
}
