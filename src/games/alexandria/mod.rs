//! Alexandria: the rules as the fast engine plays them.
//!
//! Three decks, every card three times. Thirteen tableau piles of 1, 2, 3,
//! 4, 5, 6, 7, 6, 5, 4, 3, 2, 1 cards, only the top one face up, build
//! down in alternating colour; a run on top of a pile moves as a group,
//! and an empty pile takes only a King or a run headed by one. Twelve
//! foundations, empty at the start: an Ace starts any empty one, then up
//! by suit. The other 107 cards are the stock, dealt one at a time to the
//! waste, with no redeal.
//!
//! Verdicts are for open play (RULES.md's "winnable"): the engine knows
//! the face-down cards, as it knows the stock's order.
//!
//! # Piles
//!
//! A pile is the cards it started with, of which some are still there
//! (face-down ones and face-up ones above them: the deal fixes them all, so
//! a count says which), and a run built on the top one. A run card lies on
//! one a rank higher of the other colour, so it is fixed by the card below
//! but for which suit of its colour it is: one bit. A pile emptied and
//! filled again holds a King and a run on it. See [`pile`].
//!
//! The run that moves off a pile as a group is the run's cards and the card
//! they lie on (the pile's "base": its top starting card, or the King of a
//! refilled pile): starting cards that already lie in order on the one
//! below count as run cards (see [`pile_code::dealt_codes`]), so the base
//! never continues a run below it.
//!
//! # The stock
//!
//! The waste and the stock are one sequence, the talon (see
//! [`super::talon`]), with a mask of the places still holding a card and a
//! cursor. The engine's move plays any card draws can bring to the waste's
//! top (the top itself or any card still in the stock), and the move list
//! spells out the draws. With no redeal, a card passed over stays in the
//! waste and is reachable again only as its top.
//!
//! The moves, with the pruning and the argument that it loses no win, are
//! in [`moves`]; the dead-end test, with its argument, in [`dead_end`].
//! The foundations are kept as the reference rules fill them (see
//! [`super::foundations`]); the key leaves them out (see
//! [`Alexandria::key`]).

mod classes;
mod dead_end;
mod moves;
mod pile;
#[cfg(test)]
mod tests;

use self::classes::is_shift;
use self::dead_end::{Stacks, TalonCards};
use self::pile::{Alternating, PileCode};
use super::alternating::suit_bit;
use super::foundations::Foundations;
use super::key;
use super::narrowed::{Narrowed, rearranged_after};
use super::pile_code::{self, MAX_START, Runs};
use super::talon::{self, Talon};
use super::{NO_CARD, sort_best_first};
use crate::board::{Board, BoardError, Pile};
use crate::card::Card;
use crate::deal::Layout;
use crate::game::{Ask, Game, Ranks};
use crate::notation::{Move, Place};
use crate::reference::Rules;
use crate::reference::alexandria::AlexandriaRules;
use crate::search::{Plan, Planned};

/// What the search leaves out, which no win needs (see [`moves`] and
/// [`dead_end`]): said with every `lost` verdict.
pub const PRUNING: &str = "all but a safe move home, all but the first empty pile, a whole \
    King-led pile to an empty one, and positions where some card can never leave its pile or the \
    waste (a dead-end test)";

const PILES: usize = 13;
const FOUNDATIONS: usize = 12;

pub const LAYOUT: Layout = Layout::with_stock(3, &[1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1], true);

/// The talon's most places: a `u128` mask. A dealt game has 107; a typed
/// board may hold more, up to this.
const MAX_TALON: usize = 128;
/// [`Step::to`] for a foundation.
const HOME: u8 = u8::MAX;
/// [`Step::from`] of a talon place: `TALON + place`.
const TALON: u8 = 32;

/// Level `k` narrows as `NARROWED[k - 1]` says (see [`Narrowed`]; the
/// beam's moves are level 2's, see the plan, `Alexandria::PLAN`). The
/// stock's window counts only the cards that have a move: one counting
/// every card left a walk with nothing to play once a few cards in a row
/// fit nowhere. A walk's positions lie mostly in its last stock cards,
/// below a line already lost (the waste it built cannot be dealt off), so
/// the walk needs to play better early, not to search longer late. A
/// greedy free card is not sent home if it is a pile top kept for the
/// stock (see [`Alexandria::kept`]).
///
/// Every level is greedy, so that each leaves out all the next one does:
/// a level that ends drops the narrower ones, which could win nothing it
/// did not. The figures behind the levels are in `docs/tuning.md`.
const NARROWED: [Narrowed; 3] = [
    Narrowed {
        rearranging: 1,
        window: 1,
        greedy: true,
    },
    Narrowed {
        rearranging: 1,
        window: 2,
        greedy: true,
    },
    Narrowed {
        rearranging: 3,
        window: 3,
        greedy: true,
    },
];

/// An Alexandria position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    piles: [PileCode; PILES],
    /// Each pile's top card (its index), or [`NO_CARD`].
    tops: [u8; PILES],
    home: Foundations<FOUNDATIONS>,
    /// The talon's cards still in it, a bit each by place in the talon.
    talon: u128,
    /// The talon's places below this one are the waste (see
    /// [`super::talon`]).
    cursor: u8,
    /// Moves in a row that only rearranged runs (see [`NARROWED`]). Not in
    /// the key: only narrowed searches read it.
    rearranged: u8,
    /// Whether the move that reached the position may have stranded a
    /// card (see [`dead_end`]): one that sent a card home, taking it away
    /// as a place to lie on and raising the foundations, or drew cards
    /// past into the waste. Any other move only takes cards off their
    /// stacks or puts them in order on others, which strands nothing the
    /// position before had not. True at the start. Not in the key.
    stranding: bool,
    /// The cards with a copy in the waste, a bit each by [`Card::index`]:
    /// kept up move by move for the dead-end test, where working them out
    /// read every waste place. Not in the key: the talon and the cursor
    /// fix it.
    in_waste: u64,
}

impl State {
    /// The waste's top card's place in the talon, if the waste has cards.
    fn waste_top(&self) -> Option<u8> {
        talon::waste_top(self.talon, self.cursor)
    }

    /// The waste's places in the talon, a bit each.
    fn waste(&self) -> u128 {
        talon::waste(self.talon, self.cursor)
    }
}

/// A move: `count` cards off pile `from` (or the talon card at place
/// `from - TALON`, drawn to the waste's top first if it is not there), to
/// pile `to` or home ([`HOME`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    from: u8,
    count: u8,
    to: u8,
}

impl Step {
    const fn pile(self) -> Option<usize> {
        match self.from < TALON {
            true => Some(self.from as usize),
            false => None,
        }
    }
}

pub struct Alexandria {
    /// Each pile's starting cards, bottom to top.
    start_cards: [[Card; MAX_START]; PILES],
    /// How many of each pile's starting cards were face down.
    down: [u8; PILES],
    /// The code of each pile holding `d` of its starting cards (index `d`)
    /// and nothing more: the top ones that lie in order (down in
    /// alternating colour, face up) on the one below are a run on the
    /// lowest of them (see [`pile_code::dealt_codes`]).
    dealt_codes: [[PileCode; MAX_START + 1]; PILES],
    talon: Talon<MAX_TALON>,
    /// The talon's cards by card and by run of places (see [`dead_end`]).
    talon_cards: TalonCards,
    /// The starting cards left under a pile's run, a bit each by
    /// [`Card::index`], by its code's base (see [`dead_end::stacked_cards`]).
    stacked_cards: [u64; 1 << Alternating::BASE_BITS],
    /// Each pile's starting cards counted and read for the dead-end test
    /// (see [`dead_end::Stacks`]).
    stacks: Stacks,
    /// The stock's next cards by its first place, for the tops kept for
    /// it (see [`moves::stock_ahead`]).
    stock_ahead: Vec<u64>,
    /// Whether the board had no `Foundations:` line: the reference rules
    /// then show none until the first card goes home.
    bare: bool,
    /// The board's `Redeals:` line (only 0 is valid), kept to print it.
    redeals: Option<u8>,
    start: State,
}

/// What the search runs for Alexandria: the full walk on a short path
/// (free to rearrange runs without end, it never ends on a whole deal),
/// and one beam at level 2 with 64 times its turns, which wins most
/// deals. The walk's turns start small: on a whole deal it wins nothing
/// the beam does not, and every node it takes is one the beam lacks. The
/// figures behind each choice are in `docs/tuning.md`.
impl Planned for Alexandria {
    const PLAN: Plan = Plan {
        max_path_bytes: 64 << 20,
        beams: &[2],
        beam_weight: 64,
        rollout_level,
        max_narrowing: Some(NARROWED.len() as u32),
        first_turn_nodes: 1_000,
        rollouts_shun_dead_ends: true,
        beam_ties_by_score: true,
        beam_growth: 3,
        ..Plan::FULL_WALK
    };
}

/// The level of the rollouts that lead a beam at `level`: levels 1 and 2
/// play their own moves, level 3 plays level 2's.
const fn rollout_level(level: u32) -> u32 {
    if level < 2 { level } else { 2 }
}

impl Game for Alexandria {
    const ACYCLIC: bool = false;
    type State = State;

    fn new(board: &Board) -> Result<Alexandria, BoardError> {
        AlexandriaRules.validate(board)?;
        let down: [u8; PILES] = std::array::from_fn(|p| board.piles[p].down.len() as u8);
        let start_cards =
            pile_code::start_cards::<PILES, MAX_START>(board, "an Alexandria pile", " here")?;
        let Some(talon) = Talon::new(board) else {
            let held =
                board.waste.as_ref().map_or(0, Vec::len) + board.stock.as_ref().map_or(0, Vec::len);
            return Err(BoardError::at(
                board.lines.stock,
                format!(
                    "the stock and the waste hold {held} cards: at most {MAX_TALON} here (a \
                     deal has 107)"
                ),
            ));
        };
        let dealt_codes: [_; PILES] = std::array::from_fn(|p| {
            // The top starting cards in order on the one below, both face
            // up, are a run on the lowest of them.
            let (cards, face_down) = (&start_cards[p], down[p] as usize);
            pile_code::dealt_codes(p, cards, board.piles[p].len(), |i| {
                i > face_down
                    && cards[i].rank().get() + 1 == cards[i - 1].rank().get()
                    && cards[i].colour() != cards[i - 1].colour()
            })
        });
        let cursor = board.waste.as_ref().map_or(0, Vec::len) as u8;
        let mut game = Alexandria {
            talon_cards: TalonCards::new(&talon),
            stacked_cards: dead_end::stacked_cards(&start_cards),
            stacks: Stacks::new(&start_cards),
            stock_ahead: moves::stock_ahead(&talon),
            start_cards,
            down,
            dealt_codes,
            bare: board.foundations.is_empty(),
            redeals: board.redeals,
            start: State {
                talon: talon.full(),
                piles: [PileCode::empty(); PILES],
                tops: [NO_CARD; PILES],
                home: Foundations::read(board),
                cursor,
                rearranged: 0,
                stranding: true,
                in_waste: TalonCards::cards_at(&talon, talon::waste(talon.full(), cursor)),
            },
            talon,
        };
        for p in 0..PILES {
            let code = game.dealt_codes[p][board.piles[p].len()];
            game.start.piles[p] = code;
            game.start.tops[p] = game.top_of(p, code);
        }
        Ok(game)
    }

    fn initial(&self) -> State {
        self.start
    }

    type Key = [u64; 7];

    /// Exact, 448 bits, low to high: the thirteen pile codes sorted
    /// (positions that differ only in the order of the piles are one
    /// position), 13 × 22 = 286 bits; the talon's mask, one bit for each
    /// of its places (at most 128; 107 in a dealt game); the cursor (8
    /// bits): at most 422 bits. Bit 447 is always set, so no key is the
    /// table's empty slot.
    ///
    /// The foundations are left out: they follow from the rest. Every card
    /// not on the tableau or in the talon is home, and a suit's cards home
    /// give its three foundations: each holds one copy of each rank up to
    /// its top, so the highest shows the highest rank home at all, the
    /// next the highest rank home twice, the lowest the highest rank home
    /// three times; the foundations not started are empty. Which place
    /// each stands in changes no move, so copies of a card and the
    /// foundations of a suit are alike.
    fn key(&self, state: &State) -> [u64; 7] {
        key::codes_and_talon(
            state.piles,
            state.talon,
            self.talon.len(),
            state.cursor as u64,
        )
    }

    /// The key of the member placed by rule (see [`classes`]).
    fn class_key(&self, state: &State) -> [u64; 7] {
        self.key(&self.class_form(state))
    }

    /// A shift (see [`classes`]).
    fn keeps_class(&self, state: &State, step: Step) -> bool {
        is_shift(state, step)
    }

    /// Where a rollout ends (see `Alexandria::PLAN`): ten for each card
    /// home, three for each card gone from the talon, less five for each
    /// card face down, two for each in the waste, twelve more for each
    /// there with nowhere to go but home ([`Alexandria::bound_in_waste`]),
    /// and five halves of how soon the waste's cards are wanted home
    /// ([`Alexandria::wanted_in_waste`]). Rollouts stop early when the
    /// waste cannot be dealt off, so the weights reward what keeps it
    /// short, free, and clear of the cards the foundations wait for (the
    /// figures are in `docs/tuning.md`).
    fn score(&self, state: &State) -> i32 {
        let down: usize = (0..PILES)
            .map(|p| self.face_down(p, state.piles[p].dealt_left()))
            .sum();
        let waste = state.waste().count_ones();
        let gone = self.talon.len() as u32 - state.talon.count_ones();
        let bound = self.bound_in_waste(state);
        let wanted = self.wanted_in_waste(state);
        10 * self.cards_home(state) as i32 - 5 * down as i32 + 3 * gone as i32
            - 2 * waste as i32
            - 12 * bound as i32
            - 5 * wanted as i32 / 2
    }

    /// See [`dead_end`], and [`State::stranding`] for when it is skipped.
    fn is_dead_end(&self, state: &State) -> bool {
        state.stranding && self.stranded(state)
    }

    fn is_won(&self, state: &State) -> bool {
        state.home.is_won()
    }

    fn cards_home(&self, state: &State) -> u32 {
        state.home.cards_home()
    }

    type Move = Step;

    /// See [`moves`] for what is left out and why no win is lost, and
    /// [`NARROWED`] for what narrowed searches leave out besides.
    fn moves(&self, state: &State, _last: Option<Step>, ask: Ask, out: &mut Vec<Step>) {
        if !ask.ordered {
            self.offer(state, ask, |step, _| out.push(step));
            return;
        }
        let mut ranked = Vec::new();
        self.offer(state, ask, |step, order| ranked.push((step, order)));
        sort_best_first(&mut ranked, |(_, order)| order);
        out.extend(ranked.iter().map(|&(step, _)| step));
    }

    fn ranked_moves(
        &self,
        state: &State,
        _last: Option<Step>,
        narrowing: u32,
        out: &mut Vec<Step>,
        ranks: &mut Ranks,
    ) {
        out.clear();
        ranks.clear();
        let ask = Ask {
            narrowing,
            ordered: false,
        };
        self.offer(state, ask, |step, order| {
            out.push(step);
            ranks.push(order);
        });
    }

    fn play(&self, state: &State, step: Step) -> State {
        let mut next = State {
            stranding: false,
            ..*state
        };
        let count = step.count as u32;
        // The moved cards' suit bits, the top one lowest, and the deepest
        // card, which lands.
        let (bits, card) = match step.pile() {
            Some(p) => {
                let code = state.piles[p];
                let card = self.card_at_depth(p, code, count - 1);
                let len = code.run_len();
                let rest = match (count <= len, code.dealt_left()) {
                    (true, _) => code.pop_run(count),
                    (false, 0) => PileCode::empty(),
                    (false, d) => self.dealt_codes[p][d - 1],
                };
                next.piles[p] = rest;
                next.tops[p] = self.top_of(p, rest);
                let base = match count > len {
                    true => (suit_bit(card) as u64) << len,
                    false => 0,
                };
                let bits = code.run() & ((1 << count.min(len)) - 1) | base;
                let rearranges = step.to != HOME && count <= len;
                next.rearranged = rearranged_after(state.rearranged, rearranges);
                (bits, card)
            }
            None => {
                let t = step.from - TALON;
                (next.talon, next.cursor, _) = talon::take(state.talon, state.cursor, t);
                next.rearranged = 0;
                let card = self.talon.card(t);
                // The cards drawn past join the waste; the waste's top
                // leaves it, its card with it unless a copy is left there.
                let passed = match t > state.cursor {
                    true => state.talon >> state.cursor & ((1u128 << (t - state.cursor)) - 1),
                    false => 0,
                };
                next.stranding = passed != 0;
                next.in_waste = match t < state.cursor {
                    true if next.waste() & self.talon_cards.places[card.index()] == 0 => {
                        state.in_waste & !(1 << card.index())
                    }
                    true => state.in_waste,
                    false => {
                        let passed = TalonCards::cards_at(&self.talon, passed << state.cursor);
                        state.in_waste | passed
                    }
                };
                (suit_bit(card) as u64, card)
            }
        };
        if step.to == HOME {
            next.home.put(card);
            next.stranding = true;
            return next;
        }
        let to = step.to as usize;
        let dest = state.piles[to];
        let code = match dest.is_empty() {
            // A King-led run: the King is the base, the rest its run.
            true => PileCode::lone(card).push_run(bits & ((1 << (count - 1)) - 1), count - 1),
            false => dest.push_run(bits, count),
        };
        next.piles[to] = code;
        next.tops[to] = self.top_of(to, code);
        next
    }

    fn notation(&self, state: &State, step: Step, out: &mut Vec<Move>) {
        let card = self.card_of_step(state, step);
        let to = match step.to {
            HOME => Place::Foundation,
            to => Place::Tableau(to),
        };
        let from = match step.pile() {
            Some(p) => Place::Tableau(p as u8),
            None => {
                let t = step.from - TALON;
                self.talon.draws(state.talon, state.cursor, t, out);
                Place::Waste
            }
        };
        out.push(Move::Play {
            from,
            to,
            card,
            count: step.count,
        });
    }

    fn to_board(&self, state: &State) -> Board {
        let (stock, waste) = self.talon.stock_and_waste(state.talon, state.cursor);
        Board {
            foundations: state.home.tops(self.bare),
            stock: Some(stock),
            waste: Some(waste),
            redeals: self.redeals,
            piles: (0..PILES)
                .map(|p| {
                    let (mut cards, down) = self.pile_cards(p, state.piles[p]);
                    let up = cards.split_off(down);
                    Pile { down: cards, up }
                })
                .collect(),
            ..Board::default()
        }
    }
}

impl Alexandria {
    /// How soon the foundations want the waste's cards: for each, 13 less
    /// the ranks between it and its suit's lowest foundation, so 12 for
    /// the card that foundation takes next and 0 for a King over an empty
    /// one. A card drawn past leaves the waste only after every card above
    /// it, and until then its suit's lowest foundation, and every later
    /// copy of the suit, waits: the lines a beam cannot win end with a
    /// low card at the waste's bottom, drawn past in the opening.
    fn wanted_in_waste(&self, state: &State) -> u32 {
        let lows = state.home.lows();
        talon::places(state.waste())
            .map(|t| {
                let card = self.talon.card(t);
                // A card not home lies above its suit's lowest foundation.
                13 - (card.rank().get() - lows[card.suit().index()]) as u32
            })
            .sum()
    }
}
