//! Raglan: the rules as the fast engine plays them.
//!
//! One deck; the Aces start on the four foundations, which build up by
//! suit. Nine tableau piles build down in alternating colour, one card at a
//! time, and an empty pile takes any card. Six reserve cards are all
//! available; a played reserve place is never refilled. Every card is face
//! up, so the verdict is what a player can achieve.
//!
//! A pile is the cards it started with, of which the bottom few are still
//! there, and a run built on top of them. A run card can only have got
//! there by a legal build, so each run card is fixed by the one below but
//! for which suit of its colour it is: one bit. That makes a pile a 25-bit
//! `PileCode`, and the state little more than nine of them: a child
//! position is cheap to make, copy and key.
//!
//! The moves, with the pruning and the argument that it loses no win, are
//! in [`moves`]; the best-first score in [`score`].
//!
//! There is no dead-end test. A position is lost for certain when a card
//! can never go home, and in Raglan that needs a card stuck above a lower
//! card of its suit with nowhere to go: any card can move to an empty
//! pile, so every pile must hold such a card, with none empty. The
//! cheapest sound form (a King, or a card whose two bases are home, above
//! a lower card of its suit among the starting cards of every pile) never
//! fired on the numbered deals it was tried on (`docs/tuning.md`):
//! the positions where no win is left are lost for reasons spread over
//! the whole tableau.

mod moves;
mod score;
#[cfg(test)]
mod tests;

use self::score::{CARD_HOME, EMPTY_PILE};
use super::NO_CARD;
use super::alternating::{self, MAX_START, PileCode, StartPiles};
use super::narrowed::rearranged_after;
use super::safe_home::{Builds, SafeRule};
use super::step;
use crate::board::{Board, BoardError, Pile};
use crate::card::{Card, Suit};
use crate::deal::Layout;
use crate::game::{Ask, Game};
use crate::notation::{Move, Place};
use crate::reference::Rules;
use crate::reference::raglan::RaglanRules;
use crate::search::{Plan, Planned, Tactic};

/// What the search leaves out, which no win needs (see the module's
/// argument): said with every `lost` verdict.
pub const PRUNING: &str = "all but a safe move home, all but one empty pile, and moves that \
    another order of the same line makes (rules H, S, J, R and U)";

pub const LAYOUT: Layout = Layout {
    decks: 1,
    foundations: 4,
    aces_start_home: true,
    piles: &[7, 7, 7, 6, 5, 4, 3, 2, 1],
    reserve: 6,
    stock: false,
    face_down: false,
};

const PILES: usize = 9;
const RESERVE: usize = 6;

/// Raglan's safe rule (see [`super::safe_home`]).
const SAFE: SafeRule = SafeRule {
    builds: Builds::AlternateColour,
    two_deep: true,
};

/// Sorts the pile codes for the key with a sorting network for nine
/// values (25 compare-exchanges, written out so that each is a few
/// branch-free instructions), checked on every input of 0s and 1s, which
/// is enough: see the test. The order of the codes is as unpredictable as
/// the positions, and the insertion sort it replaces mispredicted its
/// branches.
fn sort_piles(codes: &mut [PileCode; PILES]) {
    let mut exchange = |a: usize, b: usize| {
        let (x, y) = (codes[a].0, codes[b].0);
        codes[a] = PileCode(x.min(y));
        codes[b] = PileCode(x.max(y));
    };
    exchange(0, 3);
    exchange(1, 7);
    exchange(2, 5);
    exchange(4, 8);
    exchange(0, 7);
    exchange(2, 4);
    exchange(3, 8);
    exchange(5, 6);
    exchange(0, 2);
    exchange(1, 3);
    exchange(4, 5);
    exchange(7, 8);
    exchange(1, 4);
    exchange(3, 6);
    exchange(5, 7);
    exchange(0, 1);
    exchange(2, 4);
    exchange(3, 5);
    exchange(6, 8);
    exchange(2, 3);
    exchange(4, 5);
    exchange(6, 7);
    exchange(1, 2);
    exchange(3, 4);
    exchange(5, 6);
}

/// A Raglan position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The reserve places still holding their card, a bit each.
    reserve: u8,
    /// The pile a reserve card was just put on, which the next move must
    /// build on ([`NO_PILE`] for none): see [`moves`].
    must_build: u8,
    piles: [PileCode; PILES],
    /// Each pile's top card (its index), kept beside the codes because
    /// move generation reads nothing else.
    tops: [u8; PILES],
    /// The rank on each suit's foundation, 0 for none.
    home: [u8; 4],
    /// Moves in a row that only rearranged the tableau: at level `k` of
    /// narrowing, once `k` moves in a row have only rearranged it, the next
    /// must make progress (most wins need few rearranging moves between
    /// steps of progress). Not in the key: only narrowed searches
    /// read it.
    rearranged: u8,
    /// The best-first score (see [`Game::score`]) and the weight of each
    /// pile's cards in it, worked out from the rest of the state, so not
    /// in the key. `play` carries them from parent to child by what the
    /// move changes, so a best-first attempt reads a child's score without
    /// weighing each parent afresh, and each child after a move home (the
    /// figures are in `docs/tuning.md`).
    score: i16,
    weights: [u8; PILES],
}

/// "No pile" in `State::must_build`.
const NO_PILE: u8 = u8::MAX;

impl State {
    fn top(&self, pile: usize) -> Option<Card> {
        (self.tops[pile] != NO_CARD).then(|| Card::from_index(self.tops[pile] as usize))
    }
}

/// Where a card is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    Pile(u8),
    Reserve(u8),
}

/// A card from a pile or the reserve to its foundation or onto a pile.
pub type Step = step::Step<From>;

pub struct Raglan {
    /// Each pile's starting cards, bottom to top.
    start_cards: [[Card; MAX_START]; PILES],
    reserve_cards: [Card; RESERVE],
    /// The cards the reserve places in a `State::reserve` mask hold, a bit
    /// each.
    reserve_free: [u64; 1 << RESERVE],
    /// Each reserve card's place (by card index; 0 for the other cards).
    reserve_at: [u8; 64],
    /// Where each starting card of the piles lies: pile, and place from the
    /// bottom.
    starts_at: [Option<(u8, u8)>; Card::COUNT],
    /// `starts_at` by suit and rank index, ranks past the King included,
    /// with place 255 (never among a pile's starting cards left) for the
    /// cards that are not starting cards of a pile, for
    /// [`Raglan::waiting`].
    dealt_at: [[(u8, u8); 13 + 4]; 4],
    /// Which foundation slot of the board showed each suit, for printing.
    slots: [Option<Suit>; 4],
    start: State,
    /// Whether rules J, R and U (see the module doc) are on. Off only in
    /// [`Raglan::with_every_move`].
    pruned: bool,
}

impl Raglan {
    /// The engine with rules J, R and U off: the card just moved may move
    /// on, and a reserve card may go to any pile, with nothing asked of the
    /// next move. Those are the rules whose argument leans on the table;
    /// the tests compare its verdicts on whole deals with the engine's.
    pub fn with_every_move(board: &Board) -> Result<Raglan, BoardError> {
        Raglan::new(board).map(|game| Raglan {
            pruned: false,
            ..game
        })
    }
}

impl Raglan {
    fn card_at(&self, state: &State, from: From) -> Card {
        match from {
            From::Pile(p) => state.top(p as usize).expect("moves take existing cards"),
            From::Reserve(r) => self.reserve_cards[r as usize],
        }
    }

    /// Calls `visit` on a pile's cards, bottom to top.
    fn pile_cards(&self, state: &State, pile: usize, visit: impl FnMut(Card)) {
        alternating::pile_cards(&self.start_cards[pile], state.piles[pile], visit);
    }

    /// A pile's cards, bottom to top.
    fn pile_vec(&self, state: &State, pile: usize) -> Vec<Card> {
        let mut cards = Vec::with_capacity(state.piles[pile].cards());
        self.pile_cards(state, pile, |card| cards.push(card));
        cards
    }
}

/// What the search runs for Raglan: best-first search, which proves its
/// losses, and a walk narrowed at level 8 (see `Raglan::moves`), in small
/// first turns: most deals are won within a few thousand positions by
/// one or the other, and which one is luck. The figures are in
/// `docs/tuning.md`.
impl Planned for Raglan {
    const PLAN: Plan = Plan {
        exhaustive: Tactic::BestFirst,
        narrowings: &[8],
        first_turn_nodes: 1000,
        ..Plan::FULL_WALK
    };
}

impl Game for Raglan {
    const ACYCLIC: bool = false;
    type State = State;

    fn new(board: &Board) -> Result<Raglan, BoardError> {
        RaglanRules.validate(board)?;
        let start = StartPiles::<PILES>::new(board, "Raglan")?;
        let reserve = board.reserve.as_deref().unwrap_or_default();
        let mut reserve_cards = [Card::from_index(0); RESERVE];
        let mut mask = 0;
        for (i, place) in reserve.iter().enumerate() {
            if let Some(card) = place {
                reserve_cards[i] = *card;
                mask |= 1 << i;
            }
        }
        let mut reserve_free = [0; 1 << RESERVE];
        let mut reserve_at = [0; 64];
        for (held, free) in reserve_free.iter_mut().enumerate() {
            for (r, card) in reserve_cards.iter().enumerate() {
                if held & mask as usize & 1 << r != 0 {
                    *free |= 1 << card.index();
                    reserve_at[card.index()] = r as u8;
                }
            }
        }
        let (home, slots) = alternating::read_foundations(board);
        Ok(Raglan {
            start_cards: start.cards,
            reserve_cards,
            reserve_free,
            reserve_at,
            starts_at: start.starts_at,
            dealt_at: std::array::from_fn(|suit| {
                std::array::from_fn(|rank| match rank {
                    ..13 => start.starts_at[suit * 13 + rank].unwrap_or((0, u8::MAX)),
                    _ => (0, u8::MAX),
                })
            }),
            slots,
            pruned: true,
            start: State {
                piles: start.codes,
                tops: start.tops,
                home,
                reserve: mask,
                must_build: NO_PILE,
                rearranged: 0,
                score: 0,
                weights: [0; PILES],
            },
        })
        .map(|mut game| {
            game.start = game.weighed(game.start);
            game
        })
    }

    fn initial(&self) -> State {
        self.start
    }

    type Key = [u64; 3];

    /// The nine pile codes sorted (so positions that differ only in the
    /// order of piles meet in the table), each split in two
    /// ([`PileCode::packed`]): the fixed parts (12 bits each; five in the
    /// first word, four in the second, then the reserve (6 bits) and the
    /// pile to build on (4)); and, in the last word, the suit bits of the
    /// runs one after the other (at most 52, one a run card) under a top
    /// bit that is always set, so no key is the table's empty slot. The
    /// foundations are left out: a card is home exactly when it is
    /// neither on the tableau nor in the reserve.
    /// Three words, exact, where whole codes took four: a quarter less
    /// table memory to clear and to read, and more slots within a cap
    /// (slots come in powers of two, so a smaller key can double them).
    fn key(&self, state: &State) -> [u64; 3] {
        let mut codes = state.piles;
        sort_piles(&mut codes);
        let (heads, suits) = alternating::split_codes(&codes);
        // The pile to build on, by its place among the sorted codes: a pile
        // with cards has a code no other pile has.
        let must_build = match state.must_build {
            NO_PILE => 15,
            pile => codes
                .iter()
                .position(|&code| code == state.piles[pile as usize])
                .expect("the pile is among the codes") as u64,
        };
        let rest = (state.reserve as u64 | must_build << 6) << 48;
        [
            heads[..5].iter().fold(0, |word, head| word | head),
            heads[5..].iter().fold(rest, |word, head| word | head),
            suits | 1 << 63,
        ]
    }

    /// The four foundations read as one word: it is asked of every child.
    fn is_won(&self, state: &State) -> bool {
        u32::from_le_bytes(state.home) == u32::from_le_bytes([13; 4])
    }

    /// Five points a card home and sixteen an empty pile, less the cards
    /// lying on the next three cards each suit needs, weighted 8, 4 and
    /// 2: a position scores well when the cards the foundations wait for
    /// are near the surface. Cards home weigh little beside that: weighed
    /// more, the best-first attempts chase easy cards home. An empty pile
    /// weighs much more: any card may go there, so it frees whatever lies
    /// under a card. The weights' figures are in `docs/tuning.md`.
    /// It is kept in the state (see `State::score`).
    fn score(&self, state: &State) -> i32 {
        state.score as i32
    }

    /// The four ranks summed in the top byte of one multiplication (at most
    /// 52, so no byte carries into the next).
    fn cards_home(&self, state: &State) -> u32 {
        u32::from_le_bytes(state.home).wrapping_mul(0x0101_0101) >> 24
    }

    type Move = Step;

    /// See [`moves`] for what is left out and why no win is lost.
    fn moves(&self, state: &State, last: Option<Step>, ask: Ask, out: &mut Vec<Step>) {
        self.offer(state, last, ask, out);
    }

    fn play(&self, state: &State, step: Step) -> State {
        let card = self.card_at(state, step.from);
        let mut next = *state;
        let rearranges = step.to.is_some() && Self::on_a_run(state, step.from);
        next.rearranged = rearranged_after(state.rearranged, rearranges);
        next.must_build = match (step.from, step.to) {
            (From::Reserve(_), Some(to)) if self.pruned => to,
            _ => NO_PILE,
        };
        match step.from {
            From::Pile(p) => {
                let p = p as usize;
                (next.piles[p], next.tops[p]) =
                    alternating::popped(&self.start_cards[p], state.piles[p], card);
            }
            From::Reserve(r) => next.reserve &= !(1 << r),
        }
        // The best-first score (see `State::score`): each card left on the
        // pile the card leaves lies one card shallower...
        let mut score = state.score as i32;
        let weight = Self::weight(state, card.index()) as u8;
        if let From::Pile(p) = step.from {
            let p = p as usize;
            next.weights[p] -= weight;
            score += next.weights[p] as i32 + EMPTY_PILE * next.piles[p].is_empty() as i32;
        }
        match step.to {
            None => {
                // ...and a card home makes the next three cards of its suit
                // weigh more: 4 and 2 become 8 and 4, and the third comes
                // in at 2.
                let suit = card.suit().index();
                score += CARD_HOME;
                next.home[suit] += 1;
                let next_cards = suit * 13 + next.home[suit] as usize..suit * 13 + 13;
                for (more, index) in [4, 2, 2].into_iter().zip(next_cards) {
                    if let Some((pile, depth)) = self.tableau_place(&next, Card::from_index(index))
                    {
                        next.weights[pile] += more as u8;
                        score -= more * depth as i32;
                    }
                }
            }
            Some(to) => {
                // ...or each on the pile it goes to lies one deeper.
                let to = to as usize;
                next.piles[to] = next.piles[to].push(card);
                next.tops[to] = card.index() as u8;
                score -= state.weights[to] as i32 + EMPTY_PILE * state.piles[to].is_empty() as i32;
                next.weights[to] += weight;
            }
        }
        next.score = score as i16;
        next
    }

    fn notation(&self, state: &State, step: Step, out: &mut Vec<Move>) {
        let card = self.card_at(state, step.from);
        let from = match step.from {
            From::Pile(p) => Place::Tableau(p),
            From::Reserve(r) => Place::Reserve(r),
        };
        let to = step.to.map_or(Place::Foundation, Place::Tableau);
        out.push(Move::single(from, to, card));
    }

    fn to_board(&self, state: &State) -> Board {
        let foundations = alternating::foundation_tops(&self.slots, &state.home);
        Board {
            foundations,
            reserve: Some(
                (0..RESERVE)
                    .map(|r| (state.reserve & 1 << r != 0).then_some(self.reserve_cards[r]))
                    .collect(),
            ),
            piles: (0..PILES)
                .map(|p| Pile::face_up(self.pile_vec(state, p)))
                .collect(),
            ..Board::default()
        }
    }
}
