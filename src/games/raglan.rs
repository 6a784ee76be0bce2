//! Raglan: the rules as the fast engine plays them.
//!
//! One deck; the Aces start on the four foundations, which build up by
//! suit. Nine tableau piles build down in alternating colour, one card at a
//! time, and an empty pile takes any card. Six reserve cards are all
//! available; a played reserve place is never refilled. Every card is face
//! up, so the verdict is what a player can achieve.
//!
//! A pile is the cards it started with, of which the bottom `dealt` are
//! still there, and a run built on top of them. A run card can only have
//! got there by a legal build, so after its first card each run card is
//! fixed by the one below but for which suit of its colour it is: one bit.
//! That makes a pile a 24-bit code and a position nine sorted codes, the
//! four foundations and the reserve: see [`Raglan::key`].

use crate::board::{Board, BoardError, Pile};
use crate::card::{Card, Colour, Rank, Suit};
use crate::game::Game;
use crate::games::Layout;
use crate::notation::{Move, Place};
use crate::reference::Rules;
use crate::reference::raglan::RaglanRules;

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
/// The longest run: a King and the twelve cards below it.
const RUN: usize = 13;
/// The most cards a pile can have started with in the engine's terms: a
/// board may be typed mid-game, with up to 7 dealt cards and a run of 12.
const MAX_START: usize = 19;

/// One pile: `dealt` of its starting cards, then `run[..len]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PileState {
    dealt: u8,
    len: u8,
    run: [Card; RUN],
}

/// A Raglan position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    piles: [PileState; PILES],
    /// The rank on each suit's foundation, 0 for none.
    home: [u8; 4],
    /// The reserve places still holding their card, a bit each.
    reserve: u8,
}

/// Where a card is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum From {
    Pile(u8),
    Reserve(u8),
}

/// A card from a pile or the reserve to its foundation or onto a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    from: From,
    /// The destination pile, or `None` for the foundation.
    to: Option<u8>,
}

pub struct Raglan {
    /// Each pile's starting cards, bottom to top.
    start_cards: [[Card; MAX_START]; PILES],
    reserve_cards: [Card; RESERVE],
    /// Which foundation slot of the board showed each suit, for printing.
    slots: [Option<Suit>; 4],
    start: State,
}

fn suit_bit(card: Card) -> u32 {
    matches!(card.suit(), Suit::Spades | Suit::Hearts) as u32
}

/// Whether `card` may be built on `base` on the tableau.
fn builds_on(card: Card, base: Card) -> bool {
    card.colour() != base.colour() && card.rank().get() + 1 == base.rank().get()
}

impl Raglan {
    fn top(&self, state: &State, pile: usize) -> Option<Card> {
        let p = &state.piles[pile];
        match (p.len, p.dealt) {
            (0, 0) => None,
            (0, d) => Some(self.start_cards[pile][d as usize - 1]),
            (len, _) => Some(p.run[len as usize - 1]),
        }
    }

    fn card_at(&self, state: &State, from: From) -> Card {
        match from {
            From::Pile(p) => self
                .top(state, p as usize)
                .expect("moves take existing cards"),
            From::Reserve(r) => self.reserve_cards[r as usize],
        }
    }

    fn goes_home(state: &State, card: Card) -> bool {
        state.home[card.suit().index()] + 1 == card.rank().get()
    }

    /// A card of rank `r` is safe to send home when no card will ever need
    /// it as a base: the cards that could be built on it (the other
    /// colour, rank `r-1`) are home, or can go home as soon as they are
    /// free (the other colour home to `r-2`) and so can the cards of its
    /// own colour, rank `r-2`, that could be built on those (its colour
    /// home to `r-3`). Any win then has a twin that sends it home first:
    /// drop its other moves from the line, send home directly whatever was
    /// built on it, and every other move stays legal.
    fn safe_home(state: &State, card: Card) -> bool {
        let (same, other) = match card.colour() {
            Colour::Black => ([Suit::Clubs, Suit::Spades], [Suit::Diamonds, Suit::Hearts]),
            Colour::Red => ([Suit::Diamonds, Suit::Hearts], [Suit::Clubs, Suit::Spades]),
        };
        let rank = card.rank().get() as i32;
        let lowest = |suits: [Suit; 2]| {
            suits
                .iter()
                .map(|s| state.home[s.index()] as i32)
                .min()
                .unwrap_or(0)
        };
        let (other_home, same_home) = (lowest(other), lowest(same));
        Self::goes_home(state, card)
            && (other_home >= rank - 1 || (other_home >= rank - 2 && same_home >= rank - 3))
    }

    /// How early a move is tried: home first, then a move that uncovers a
    /// starting card, then other moves onto a card, then moves to an empty
    /// pile.
    fn order(&self, state: &State, step: Step) -> u8 {
        match (step.from, step.to.map(|to| self.top(state, to as usize))) {
            (_, None) => 3,
            (_, Some(None)) => 0,
            (From::Pile(p), Some(Some(_))) if state.piles[p as usize].len == 0 => 2,
            _ => 1,
        }
    }

    fn pile_len(state: &State, pile: usize) -> usize {
        let p = &state.piles[pile];
        p.dealt as usize + p.len as usize
    }

    /// A pile's 24-bit code: where its bottom comes from (8 bits), the
    /// run's length (4) and the suit bit of each run card fixed by the one
    /// below (12). Equal piles have equal codes wherever they stand.
    fn pile_code(&self, state: &State, pile: usize) -> u32 {
        let p = &state.piles[pile];
        let run = &p.run[..p.len as usize];
        let (origin, fixed) = match (p.dealt, run.first()) {
            // Starting cards are tied to their pile: 64 + pile * 20 + dealt.
            (d @ 1.., _) => (64 + pile as u32 * 20 + d as u32, run),
            (0, Some(base)) => (base.index() as u32, &run[1..]),
            (0, None) => (255, run),
        };
        let bits = fixed
            .iter()
            .enumerate()
            .fold(0, |bits, (i, &card)| bits | suit_bit(card) << i);
        origin << 16 | (p.len as u32) << 12 | bits
    }
}

impl Game for Raglan {
    const ACYCLIC: bool = false;
    type State = State;
    type Key = [u64; 4];
    type Move = Step;

    fn new(board: &Board) -> Result<Raglan, BoardError> {
        RaglanRules.validate(board)?;
        let mut start_cards = [[Card::from_index(0); MAX_START]; PILES];
        let empty = PileState {
            dealt: 0,
            len: 0,
            run: [Card::from_index(0); RUN],
        };
        let mut piles = [empty; PILES];
        for (i, pile) in board.piles.iter().enumerate() {
            if pile.len() > MAX_START {
                return Err(BoardError::at(
                    board.pile_line(i),
                    format!(
                        "pile {} has {} cards: a Raglan pile holds at most {MAX_START} \
                         (7 dealt and a run of 12)",
                        i + 1,
                        pile.len()
                    ),
                ));
            }
            for (slot, card) in start_cards[i].iter_mut().zip(pile.cards()) {
                *slot = card;
            }
            piles[i].dealt = pile.len() as u8;
        }
        let reserve = board.reserve.as_deref().unwrap_or_default();
        let mut reserve_cards = [Card::from_index(0); RESERVE];
        let mut mask = 0;
        for (i, place) in reserve.iter().enumerate() {
            if let Some(card) = place {
                reserve_cards[i] = *card;
                mask |= 1 << i;
            }
        }
        let mut home = [0; 4];
        let mut slots = [None; 4];
        for (slot, top) in slots.iter_mut().zip(&board.foundations) {
            if let Some(card) = top {
                home[card.suit().index()] = card.rank().get();
                *slot = Some(card.suit());
            }
        }
        Ok(Raglan {
            start_cards,
            reserve_cards,
            slots,
            start: State {
                piles,
                home,
                reserve: mask,
            },
        })
    }

    fn initial(&self) -> State {
        self.start
    }

    /// The nine pile codes sorted (so positions that differ only in the
    /// order of piles meet in the table), then the foundations (4 bits a
    /// suit) and the reserve (6 bits): 238 bits, exact. The top bit is
    /// always set, so no key is the table's empty slot.
    fn key(&self, state: &State) -> [u64; 4] {
        let mut codes: [u32; PILES] = std::array::from_fn(|p| self.pile_code(state, p));
        codes.sort_unstable();
        let mut words = [0u64; 4];
        for (i, code) in codes.iter().enumerate() {
            let bit = i * 24;
            words[bit / 64] |= (*code as u64) << (bit % 64);
            if bit % 64 > 40 {
                words[bit / 64 + 1] |= (*code as u64) >> (64 - bit % 64);
            }
        }
        let home = state
            .home
            .iter()
            .enumerate()
            .fold(0u64, |h, (s, &r)| h | (r as u64) << (4 * s));
        words[3] |= home << 24 | (state.reserve as u64) << 40 | 1 << 63;
        words
    }

    fn is_won(&self, state: &State) -> bool {
        state.home.iter().all(|&r| r == 13)
    }

    fn cards_home(&self, state: &State) -> u32 {
        state.home.iter().map(|&r| r as u32).sum()
    }

    /// Moves best first: a safe move home alone (see
    /// [`Raglan::safe_home`]); otherwise moves home, then moves that
    /// uncover a starting card, then the rest, then moves to an empty pile
    /// (see [`Raglan::order`]). Only one empty pile is offered (the piles
    /// are alike), and a card alone in its pile never moves to an empty one
    /// (the same position).
    fn moves(&self, state: &State, last: Option<Step>, out: &mut Vec<Step>) {
        // The card the last move put on a pile stays there for now: moving
        // it on at once reaches a position that one move from the position
        // before reaches too (or that position itself), and that position
        // offers that move.
        let just_moved = last.and_then(|step| step.to);
        let sources = (0..PILES as u8)
            .filter(|&p| Some(p) != just_moved)
            .filter_map(|p| self.top(state, p as usize).map(|c| (From::Pile(p), c)))
            .chain(
                (0..RESERVE as u8)
                    .filter(|r| state.reserve & 1 << r != 0)
                    .map(|r| (From::Reserve(r), self.reserve_cards[r as usize])),
            );
        let empty = (0..PILES).find(|&p| Self::pile_len(state, p) == 0);
        let start = out.len();
        for (from, card) in sources {
            if Raglan::goes_home(state, card) {
                let step = Step { from, to: None };
                if Raglan::safe_home(state, card) {
                    out.truncate(start);
                    out.push(step);
                    return;
                }
                out.push(step);
            }
            let alone = matches!(from, From::Pile(p) if Self::pile_len(state, p as usize) == 1);
            for to in 0..PILES {
                if from == From::Pile(to as u8) {
                    continue;
                }
                let fits = match self.top(state, to) {
                    Some(base) => builds_on(card, base),
                    None => Some(to) == empty && !alone,
                };
                if fits {
                    out.push(Step {
                        from,
                        to: Some(to as u8),
                    });
                }
            }
        }
        out[start..].sort_by_key(|&step| std::cmp::Reverse(self.order(state, step)));
    }

    fn play(&self, state: &State, step: Step) -> State {
        let card = self.card_at(state, step.from);
        let mut next = *state;
        match step.from {
            From::Pile(p) => {
                let pile = &mut next.piles[p as usize];
                if pile.len > 0 {
                    pile.len -= 1;
                } else {
                    pile.dealt -= 1;
                }
            }
            From::Reserve(r) => next.reserve &= !(1 << r),
        }
        match step.to {
            None => next.home[card.suit().index()] += 1,
            Some(to) => {
                let pile = &mut next.piles[to as usize];
                pile.run[pile.len as usize] = card;
                pile.len += 1;
            }
        }
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
        let top =
            |suit: Suit| Rank::new(state.home[suit.index()]).map(|rank| Card::new(rank, suit));
        let mut unplaced: Vec<Suit> = Suit::ALL
            .into_iter()
            .filter(|s| !self.slots.contains(&Some(*s)))
            .collect();
        let foundations = self
            .slots
            .iter()
            .map(|slot| match slot {
                Some(suit) => top(*suit),
                None => unplaced
                    .iter()
                    .position(|&s| state.home[s.index()] > 0)
                    .map(|i| unplaced.remove(i))
                    .and_then(top),
            })
            .collect();
        Board {
            foundations,
            reserve: Some(
                (0..RESERVE)
                    .map(|r| (state.reserve & 1 << r != 0).then_some(self.reserve_cards[r]))
                    .collect(),
            ),
            piles: (0..PILES)
                .map(|p| {
                    let pile = &state.piles[p];
                    let mut cards = self.start_cards[p][..pile.dealt as usize].to_vec();
                    cards.extend_from_slice(&pile.run[..pile.len as usize]);
                    Pile::face_up(cards)
                })
                .collect(),
            ..Board::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The card one rank below `card` in the other colour, with `bit` choosing
    /// the suit: the only cards a run can hold above `card`.
    fn card_below(card: Card, bit: u32) -> Option<Card> {
        let rank = Rank::new(card.rank().get() - 1)?;
        let suit = match (card.colour(), bit) {
            (Colour::Red, 0) => Suit::Clubs,
            (Colour::Red, _) => Suit::Spades,
            (Colour::Black, 0) => Suit::Diamonds,
            (Colour::Black, _) => Suit::Hearts,
        };
        Some(Card::new(rank, suit))
    }

    #[test]
    fn a_run_card_is_fixed_by_the_card_below_and_its_suit_bit() {
        for card in Card::all() {
            for bit in 0..2 {
                if let Some(below) = card_below(card, bit) {
                    assert!(builds_on(below, card));
                    assert_eq!(suit_bit(below), bit);
                }
            }
        }
    }
}
