//! Lanes: the rules as the fast engine plays them.
//!
//! One deck; the Aces start on the four foundations, which build up by
//! suit. Six tableau piles build down in alternating colour, one card at a
//! time, and an empty pile takes any card. The stock is dealt one card at
//! a time to the waste, with one redeal: the waste turned over in order.
//!
//! The waste and the stock are one sequence, the talon (see
//! [`super::talon`]): a position's talon is a mask of the cards still in
//! it, a cursor (cards before it are the waste) and the redeals left. The
//! engine's move plays any card that draws (and the redeal) can bring to
//! the waste's top, and the move list shows each `draw` and `redeal`.
//!
//! # Why the pruning loses no win
//!
//! `Lanes::moves` leaves out three kinds of move: all but a safe move
//! home (see [`super::safe_home`]; in the talon it holds for the waste's
//! top, which goes home without a draw, and for the stock's next card,
//! whose one draw buries nothing); all but one empty pile and a lone
//! card to an empty pile (the same positions up to the order of the
//! piles, which the key ignores); and, in a full search, a move of the
//! card the last move put on a pile (rule J, as in Rows of Four and
//! Raglan): moved on at once, home, onto another top or to an empty pile,
//! it reaches a position the move before could reach with one move of
//! that card straight from where it was, with the same draws (or that
//! position itself, if it goes back; a lone starting card moved on to
//! another emptied pile is a run card there, which the key tells apart
//! but the game does not). In the
//! relaxation, its move home as its twin stays (a card not yet on a pile
//! may have had none), and so does its move back (as a run card, the
//! relaxation knows less of it than as a starting card).
//! Positions where no pile can ever be the first emptied ([`dead_end`])
//! are not searched below.
//!
//! Nor is a position searched whose key another searched one covers: the
//! same tableau and talon cards with a stronger talon, a redeal left or
//! the cursor further back ([`talon::strength`]), wins in as many moves or
//! fewer. So if a search ends without a win from a winnable start, take a
//! searched winnable position `E` of least cost (the fewest moves of a
//! line that wins from it): its moves include one to a cheaper winnable
//! position (a safe move home keeps a line no longer), which was searched,
//! or is covered by a searched one no dearer; a contradiction. If rule J
//! left out the cheapest line's first move, a move of the card `X` that
//! the move into `E` put down, then the position `E` was searched from
//! offered the move of `X` straight to the same place (it offered no safe
//! move alone, as it offered `X`'s move, and `X` was no card placed by
//! its own last move, as `X` moved), and the position that move reaches
//! (or that position itself), cheaper than `E`, was searched or is
//! covered so: the same contradiction. The position a search expands is
//! expanded once, under the move that first reached it, so the argument
//! takes that move.

mod dead_end;
mod relaxed;

use relaxed::Kept;

use super::NO_CARD;
use super::alternating::{self, BASES, BASES_BITS, BUILT_ON_BITS, PileCode, StartPiles};
use super::safe_home::{Builds, SafeRule};
use super::step;
use super::talon::{self, From, Talon};
use crate::board::{Board, BoardError, Pile};
use crate::card::{Card, Suit};
use crate::deal::Layout;
use crate::game::{Ask, Game};
use crate::games::sort_best_first;
use crate::notation::{Move, Place};
use crate::reference::Rules;
use crate::reference::lanes::LanesRules;
use crate::search::{Plan, Planned, Tactic, TalonKey};

/// What the search leaves out, which no win needs (see the module's
/// argument): said with every `lost` verdict.
pub const PRUNING: &str = "all but a safe move home, all but one empty pile, a card moved on \
    at once, positions where no pile can be emptied (even in a game that never loses a place to build or a card \
    it reached, each card moved taking a place of its own), \
    and positions whose tableau and talon cards were searched with a redeal or draws to spare";

/// What the relaxation ([`relaxed`]) lets a line do that the game does
/// not: said with a loss it proves.
pub const RELAXATION: &str = "a card built into a run is known by its rank and colour alone (but \
    for ranks and colours that a line winning the relaxation swapped, kept in the walk after it), \
    and may go home as any card of its rank and colour built into a run whose foundation shows \
    the rank below";

pub const LAYOUT: Layout = Layout {
    decks: 1,
    foundations: 4,
    aces_start_home: true,
    piles: &[3, 3, 3, 3, 3, 3],
    reserve: 0,
    stock: true,
    face_down: false,
};

const PILES: usize = 6;
/// The stock windows of the narrowed walks, by level: level `k` plays only
/// the stock's next `WINDOWS[k - 1]` cards (and no card through the redeal
/// while the stock has cards) or, where none of them has a move, the first
/// card further on that has one (through the redeal if the stock has none,
/// as a player draws on to it), and sends a free card that can go home
/// there at once, the only move offered. A narrowed walk only ever proves
/// a win, so this needs measurements, not an argument (`docs/tuning.md`):
/// a full walk wanders among the many cards far down the stock it could
/// play, and among moves that only rearrange.
const WINDOWS: [u32; 3] = [5, 8, 12];
/// How much earlier a move off a pile that buries a card going home next
/// is tried, and how much later one onto it (`Lanes::order`): enough to
/// put digging before any other move to a pile (`docs/tuning.md`).
const DIG: i32 = 30;
/// The most positions the beam searches (`Plan::beam_nodes`): where it
/// was the first tactic to win a deal, it won within 0.55M positions
/// (`docs/tuning.md`), and a lost deal's full walk may need hundreds of
/// millions.
const BEAM_NODES: u64 = 1_000_000;
/// "One redeal (two passes)".
const REDEALS: u8 = 1;
/// The talon's most cards: every card but the Aces, on a typed board
/// whose tableau is empty, or all 52 if the Aces are not home.
const MAX_TALON: usize = Card::COUNT;

/// Where a relaxed key's last word holds the kept run cards' suit bits,
/// two at most for each rank and colour kept ([`relaxed::MOST_KEPT`]);
/// the foundations take the 16 bits below.
const KEPT_AT: u32 = 16;
/// Where it holds the count of ranks and colours kept (4 bits), which
/// tells the walks of the relaxation and its refinements apart. It must
/// stay below the talon's strength ([`TalonKey::STRENGTH_AT`]): the
/// strength's bits are left out of the part of a key that must be equal
/// for one position to cover another, and ordered as numbers, so a
/// count among them would make the walks' keys one and let a weaker
/// talon cover a stronger.
const REFINEMENT_AT: u32 = 48;
/// The bit that sets a relaxed key apart from the game's, whose last word
/// holds at most 52 run cards' suit bits below it.
const RELAXED_AT: u32 = 52;
const _: () = assert!(
    KEPT_AT + 2 * relaxed::MOST_KEPT <= REFINEMENT_AT
        && relaxed::MOST_KEPT < 1 << (RELAXED_AT - REFINEMENT_AT)
        && RELAXED_AT < TalonKey::<3>::STRENGTH_AT
);

/// Lanes' safe rule (see [`super::safe_home`]).
const SAFE: SafeRule = SafeRule {
    builds: Builds::AlternateColour,
    two_deep: true,
};

/// A Lanes position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    piles: [PileCode; PILES],
    /// Each pile's top card (its index), or [`NO_CARD`].
    tops: [u8; PILES],
    /// The rank on each suit's foundation, 0 for none.
    home: [u8; 4],
    /// The talon's cards still in it, a bit each by place in the talon.
    talon: u64,
    /// The talon's places below this one are the waste; the cursor stands
    /// just above the waste's top card (0 when the waste is empty), so
    /// that equal talons have equal cursors.
    cursor: u8,
    redeals: u8,
    /// For a position of the relaxation ([`relaxed`]), the ranks and
    /// colours whose suits it keeps (none but in a refinement): the cards
    /// are one member's, and the key forgets the other run cards' suits.
    relaxation: Option<Kept>,
    /// Whether the move that reached the position took a run card off the
    /// card it was built on to another pile's top: a move it can undo, so
    /// the dead-end test answers as it did for the position before (see
    /// [`dead_end`]). Not in the key.
    undoable: bool,
}

impl State {
    /// The waste's top card's place in the talon, if the waste has cards.
    fn waste_top(&self) -> Option<u8> {
        talon::waste_top(self.talon as u128, self.cursor)
    }

    /// The ranks and colours the relaxation keeps (see [`relaxed::Kept`]).
    fn kept(&self) -> Kept {
        self.relaxation.unwrap_or(Kept::NONE)
    }

    /// Whether `card` is the next of its suit to go home.
    fn goes_home(&self, card: Card) -> bool {
        self.home[card.suit().index()] + 1 == card.rank().get()
    }

    /// The cards that go home next, the one above each suit's foundation
    /// (none above a King), as a set: one look for each card of a move
    /// list, where [`State::goes_home`] works out its suit and rank.
    fn next_home(&self) -> dead_end::Cards {
        let suits = self.home.iter().enumerate();
        suits.fold(0, |next, (suit, &rank)| {
            next | ((1 << rank) & dead_end::SUIT) << (13 * suit)
        })
    }

    /// Whether `card`, once free, has somewhere to go now but an empty
    /// pile: home, or onto a pile's top.
    fn has_place(&self, card: Card) -> bool {
        self.goes_home(card) || self.builds(card)
    }

    /// Whether `card`, once free, may be built on a pile's top: a question
    /// of its rank and colour alone.
    fn builds(&self, card: Card) -> bool {
        BASES[card.index()]
            .iter()
            .any(|base| self.tops.contains(base))
    }

    /// The cards home, a bit each by card index (see [`dead_end::Cards`]).
    fn home_cards(&self) -> dead_end::Cards {
        let suits = self.home.iter().enumerate();
        suits.fold(0, |home, (suit, &rank)| {
            home | ((1 << rank) - 1) << (13 * suit)
        })
    }
}

/// A card from a pile or the talon to its foundation or onto a pile.
pub type Step = step::Step<From>;

pub struct Lanes {
    /// Each pile's starting cards, bottom to top.
    start_cards: [[Card; alternating::MAX_START]; PILES],
    talon: Talon<MAX_TALON>,
    /// The cards of the talon's places and the piles' starting cards, as
    /// sets.
    card_sets: Box<dead_end::CardSets>,
    /// Which foundation place of the board showed each suit, for printing.
    slots: [Option<Suit>; 4],
    /// Whether the board said how many redeals are left, so that
    /// [`Lanes::to_board`] says it too, as the reference rules' board does.
    redeals_given: bool,
    start: State,
}

impl Lanes {
    fn card_at(&self, state: &State, from: From) -> Card {
        match from {
            From::Pile(p) => Card::from_index(state.tops[p as usize] as usize),
            From::Talon(t) => self.talon.card(t),
        }
    }

    /// Pile `pile`'s code in `state` with `card` put on it. In the game, a
    /// starting card put back on the one it was dealt on (or on its
    /// emptied pile, if it was the bottom one) is a starting card again,
    /// so that the position it left has the one code, and key, it had: as
    /// a run card, the same cards would have another key, and the search
    /// would walk them again. In the relaxation it stays a run card, known
    /// by its rank and colour, a coarser position than the one it left.
    fn pushed(&self, state: &State, pile: usize, card: Card) -> PileCode {
        let code = state.piles[pile];
        let dealt = code.dealt_left();
        let back = state.relaxation.is_none()
            && code.run_len() == 0
            && dealt < self.start.piles[pile].dealt_left()
            && self.start_cards[pile][dealt] == card;
        match back {
            true => PileCode::dealt(pile, dealt + 1),
            false => code.push(card),
        }
    }

    fn pile_vec(&self, state: &State, pile: usize) -> Vec<Card> {
        let mut cards = Vec::new();
        alternating::pile_cards(&self.start_cards[pile], state.piles[pile], |c| {
            cards.push(c)
        });
        cards
    }

    /// The lowest of `places` in the talon whose card has a move now
    /// (home, onto a pile's top, or to an empty pile), as a mask:
    /// `placeable` holds the cards with a place but an empty pile.
    fn first_playable(&self, places: u64, placeable: dead_end::Cards, empty: bool) -> u64 {
        talon::places(places as u128)
            .find(|&t| empty || placeable & 1 << self.talon.card(t).index() != 0)
            .map_or(0, |t| 1 << t)
    }

    /// Which piles hold, among their starting cards under the top, a card
    /// that goes home next (`next_home`, [`State::next_home`]): one look
    /// at sets a pile, where a look at each card works out its suit and
    /// rank. (Run cards too: the order cost more to work out and won fewer
    /// deals of `bench lanes`.)
    fn digs(&self, state: &State, next_home: dead_end::Cards) -> [bool; PILES] {
        std::array::from_fn(|p| {
            // A starting card on top buries nothing.
            let code = state.piles[p];
            let under = code
                .dealt_left()
                .saturating_sub((code.run_len() == 0) as usize);
            self.card_sets.first_dealt(p, under) & next_home != 0
        })
    }

    /// How early a move is tried, highest first: home first, then moves
    /// that uncover a starting card, the waste's top, other builds, cards
    /// drawn from the talon, and last a move to an empty pile; a move off
    /// a pile that buries a card going home next comes earlier (`digs`),
    /// and one onto such a pile later.
    fn order(state: &State, step: Step, waste_top: Option<u8>, digs: &[bool; PILES]) -> i32 {
        let to = match step.to {
            None => return 100,
            // A relaxed move home that swaps run cards, last: a line without
            // one is the game's (see `relaxed`).
            Some(to) if to >= relaxed::HOME_AS => return -100,
            Some(to) => to,
        };
        let onto_empty = state.piles[to as usize].is_empty();
        let rank = match step.from {
            From::Pile(p) if state.piles[p as usize].run_len() == 0 => 50,
            From::Talon(t) if Some(t) == waste_top => 40,
            From::Pile(_) => 30,
            From::Talon(t) if t >= state.cursor => 20,
            From::Talon(_) => 10,
        };
        let digging = matches!(step.from, From::Pile(p) if digs[p as usize]);
        rank - 25 * onto_empty as i32 + DIG * (digging as i32 - digs[to as usize] as i32)
    }
}

/// Sorts a value for each pile, lowest first, as a fixed network of
/// twelve compare-exchanges, each a minimum and a maximum with no branch:
/// the library's sort of so few values took a share of every key.
fn sort_piles<T: Ord + Copy>(values: &mut [T; PILES]) {
    const NETWORK: [(usize, usize); 12] = [
        (0, 5),
        (1, 3),
        (2, 4),
        (1, 2),
        (3, 4),
        (0, 3),
        (2, 5),
        (0, 1),
        (2, 3),
        (4, 5),
        (1, 2),
        (3, 4),
    ];
    for (i, j) in NETWORK {
        let (a, b) = (values[i], values[j]);
        (values[i], values[j]) = (a.min(b), a.max(b));
    }
}

/// What the search runs for Lanes: the relaxed walk (see [`relaxed`]),
/// refined once if it wins the relaxation by a line that is not the
/// game's, and given way to the full walk if it wins the refinement so
/// too, each walk following the last such line first; a walk narrowed at
/// level 1 (see `WINDOWS`), walks with horizons of 3 and 5 moves without a card home, and a beam
/// at level 3 for its first million positions (`BEAM_NODES`), taking
/// turns with it; a tactic that ends without a win is dropped, so on a
/// lost deal the exhaustive walk is soon alone, on every thread.
/// The first turn is small because most deals are won by a narrowed walk's
/// first few thousand positions. The walks of a round have the same
/// budget, and the beam, whose rollouts shun dead ends, twice that: the
/// hard wins come from any of them, a horizon walk's in one deal, the
/// beam's in another, where the others wander for millions of positions.
/// The figures are in `docs/tuning.md`.
impl Planned for Lanes {
    const PLAN: Plan = Plan {
        exhaustive: Tactic::Relaxed,
        refinements: 1,
        narrowings: &[1],
        max_narrowing: Some(WINDOWS.len() as u32),
        horizons: &[3, 5],
        first_turn_nodes: 1000,
        beams: &[3],
        beam_nodes: Some(BEAM_NODES),
        growth_by_round: true,
        rollouts_shun_dead_ends: true,
        beam_weight: 2,
        ..Plan::FULL_WALK
    };
}

impl Game for Lanes {
    const ACYCLIC: bool = false;
    type State = State;
    type Key = TalonKey<3>;
    type Move = Step;

    fn new(board: &Board) -> Result<Lanes, BoardError> {
        LanesRules.validate(board)?;
        let piles = StartPiles::<PILES>::new(board, "Lanes")?;
        let talon = Talon::new(board).expect("the rules allow at most 52 cards in the talon");
        let (home, slots) = alternating::read_foundations(board);
        Ok(Lanes {
            card_sets: Box::new(dead_end::CardSets::new(&talon, &piles.cards)),
            start_cards: piles.cards,
            slots,
            redeals_given: board.redeals.is_some(),
            start: State {
                piles: piles.codes,
                tops: piles.tops,
                home,
                talon: talon.full() as u64,
                cursor: board.waste.as_ref().map_or(0, Vec::len) as u8,
                redeals: board.redeals.unwrap_or(REDEALS),
                relaxation: None,
                undoable: false,
            },
            talon,
        })
    }

    fn initial(&self) -> State {
        self.start
    }

    /// The six pile codes sorted (positions that differ only in the order
    /// of the piles are one position), each split as Raglan's are
    /// ([`PileCode::packed`]): the fixed parts (12 bits each), then the
    /// talon's mask (52); then the runs' suit bits one after the other
    /// (at most 52, one a run card), the talon's strength (10 bits: the
    /// cursor and the redeals left, see [`talon::strength`]) and a top bit
    /// that is always set, so no key is the table's empty slot. The
    /// foundations are left out: every card not on the tableau or in the
    /// talon is home. Three words, exact, where whole codes took four; a
    /// key covers the same position with a weaker talon.
    ///
    /// A relaxed position's key has its codes without suits, and in the
    /// last word the foundations (16 bits: the cards elsewhere no longer
    /// tell them), the kept run cards' suit bits (see
    /// [`Lanes::relaxed_codes`]), the count of ranks and colours kept,
    /// which grows with each refinement, and bit 52: keys of a walk before
    /// it are apart, and the talon's strength keeps its own bits, above
    /// them all ([`REFINEMENT_AT`]).
    fn key(&self, state: &State) -> TalonKey<3> {
        let (heads, last) = match state.relaxation {
            None => {
                let mut codes = state.piles;
                sort_piles(&mut codes);
                alternating::split_codes(&codes)
            }
            Some(kept) => {
                let (codes, kept_bits) = self.relaxed_codes(state);
                let home = state.home.iter().enumerate();
                let home = home.fold(0, |word, (suit, &rank)| word | (rank as u64) << (4 * suit));
                let refinement = u64::from(kept.count()) << REFINEMENT_AT;
                let heads = alternating::code_heads(&codes);
                (
                    heads,
                    home | kept_bits << KEPT_AT | 1 << RELAXED_AT | refinement,
                )
            }
        };
        debug_assert!(state.talon < 1 << 52 && state.redeals < 2);
        let words = [
            heads[..5].iter().fold(0, |word, head| word | head),
            heads[5] | state.talon << 12,
            last | 1 << 63,
        ];
        TalonKey::new(words, talon::strength(state.cursor, state.redeals))
    }

    fn is_won(&self, state: &State) -> bool {
        state.home.iter().all(|&r| r == 13)
    }

    /// See [`dead_end`]; a relaxed position is a dead end when each of its
    /// members is ([`relaxed`]). One reached by an undoable move is not
    /// tested: the position before it was, and the answer is the same.
    fn is_dead_end(&self, state: &State) -> bool {
        if state.undoable {
            return false;
        }
        match state.relaxation.is_some() {
            false => dead_end::cannot_win(self, state),
            true => self.every_member_dead(state),
        }
    }

    /// See [`relaxed`].
    fn relaxed(&self, state: &State) -> Option<State> {
        Some(self.relax(state))
    }

    /// See [`relaxed`].
    fn is_game_line(&self, line: &[Step]) -> bool {
        !line.iter().any(relaxed::swaps)
    }

    /// See [`relaxed`]: the ranks and colours the line swapped are kept.
    fn refined(&self, root: &State, line: &[Step]) -> Option<State> {
        self.refine(root, line)
    }

    fn cards_home(&self, state: &State) -> u32 {
        state.home.iter().map(|&r| r as u32).sum()
    }

    /// Where a rollout ends: the cards home. Without a score the beam
    /// kept its lines blind, led only by rollouts that won; terms for the
    /// talon's cards or the empty piles won no more (`docs/tuning.md`).
    fn score(&self, state: &State) -> i32 {
        self.cards_home(state) as i32
    }

    /// Moves best first (see `Lanes::order`): a safe move home alone;
    /// only one empty pile, and no lone card to it; in a full search, no
    /// move of the card `last` put on a pile but one home as its twin. See
    /// [`WINDOWS`] for what narrowed walks leave out besides.
    fn moves(&self, state: &State, last: Option<Step>, ask: Ask, out: &mut Vec<Step>) {
        // The card the last move put on a pile, which stays there (see the
        // module's argument), and in the relaxation the pile it left, to
        // which it may go back: a starting card back on its pile as a run
        // card is one the relaxation knows less of.
        let (placed, back) = match last {
            Some(Step { from, to: Some(to) }) if ask.narrowing == 0 && to < relaxed::HOME_AS => {
                let back = match (from, state.relaxation) {
                    (From::Pile(from), Some(_)) => Some(from),
                    _ => None,
                };
                (Some(From::Pile(to)), back)
            }
            _ => (None, None),
        };
        let waste_top = state.waste_top();
        let mut sources = [(From::Pile(0), Card::from_index(0)); PILES + MAX_TALON];
        let mut k = 0;
        let mut empty = None;
        // The pile each card tops, if any (and none for a King's
        // `NO_BASE`), so that each source finds the piles of its bases in
        // one look: a list with a redeal left has some thirty talon cards.
        let mut pile_of = [None; Card::COUNT + 1];
        // The tops as a set, which most sources' bases miss: one look
        // spares the two in `pile_of`.
        let mut top_cards: dead_end::Cards = 0;
        // The cards that go home now, and those with a place now but an
        // empty pile: home, or onto a top (see `State::has_place`).
        let next_home = state.next_home();
        let mut placeable = next_home;
        for p in 0..PILES {
            match state.tops[p] {
                NO_CARD => empty = empty.or(Some(p as u8)),
                top => {
                    sources[k] = (From::Pile(p as u8), Card::from_index(top as usize));
                    pile_of[top as usize] = Some(p as u8);
                    top_cards |= 1 << top;
                    placeable |= BUILT_ON_BITS[top as usize];
                    k += 1;
                }
            }
        }
        // The talon cards draws can reach: with a redeal left, all of them;
        // otherwise the waste's top and the stock. Narrowed, the stock's
        // next few cards while it has any.
        let talon = state.talon as u128;
        let stock = talon::stock(talon, state.cursor);
        let mut reach = match (state.redeals, ask.narrowing) {
            (_, 1..) if stock != 0 => {
                let window = WINDOWS[ask.narrowing as usize - 1];
                let near = talon::stock_window(talon, state.cursor, window) as u64;
                let empty = empty.is_some();
                match self.first_playable(near, placeable, empty) {
                    0 => match self.first_playable(stock as u64, placeable, empty) {
                        0 if state.redeals > 0 => {
                            self.first_playable(state.talon & !(stock as u64), placeable, empty)
                        }
                        next => next,
                    },
                    _ => near,
                }
            }
            (0, _) => stock as u64,
            _ => state.talon,
        };
        if let Some(top) = waste_top {
            reach |= 1 << top;
        }
        // The free cards that can go home: tableau tops, the waste's top,
        // and the stock's next card, whose one draw leaves the waste as it
        // was once the card has gone home.
        let next_drawn = talon::next_drawn(talon, state.cursor);
        let free = |from: From| match from {
            From::Pile(_) => true,
            From::Talon(t) => Some(t) == waste_top || Some(t) == next_drawn,
        };
        // Whether any does, asked of sets first: most positions have none,
        // and the look for a safe one below is then spared.
        let goes_home = |card: Card| next_home & 1 << card.index() != 0;
        let free_home = top_cards & next_home != 0
            || [waste_top, next_drawn]
                .into_iter()
                .flatten()
                .any(|t| reach & 1 << t != 0 && goes_home(self.talon.card(t)));
        while reach != 0 {
            let t = reach.trailing_zeros() as u8;
            reach &= reach - 1;
            // With no pile empty, a talon card with no place has no move,
            // home (as itself: it is in no run) or to a pile: left out
            // here, where most of a long talon goes.
            let card = self.talon.card(t);
            if empty.is_some() || placeable & 1 << card.index() != 0 {
                sources[k] = (From::Talon(t), card);
                k += 1;
            }
        }
        let sources = &sources[..k];
        // In the relaxation, the run cards go home as their twins too.
        let homes = state
            .relaxation
            .map(|_| relaxed::Homes::of(self, state, next_home));
        let chosen = match homes {
            _ if !free_home => None,
            Some(homes) => self.safe_home_relaxed(state, sources, free, homes),
            None => {
                let mut homeward = (sources.iter())
                    .filter(|&&(from, card)| goes_home(card) && free(from))
                    .map(|&(from, card)| (Step { from, to: None }, card));
                let first = homeward.clone().next();
                match homeward.find(|&(_, card)| SAFE.safe(&state.home, card)) {
                    Some(safe) => Some(safe.0),
                    None if ask.narrowing > 0 => first.map(|(step, _)| step),
                    None => None,
                }
            }
        };
        if let Some(step) = chosen {
            // The placed card's safe move home is its own from the
            // position before, which offers it: nothing is left here.
            if !(Some(step.from) == placed && step.to.is_none()) {
                out.push(step);
            }
            return;
        }
        let start = out.len();
        for &(from, card) in sources {
            // The placed card keeps only its moves home as its twin and back.
            let stays = Some(from) == placed;
            let mut push = |step: Step| {
                if !stays || relaxed::swaps(&step) || (step.to.is_some() && step.to == back) {
                    out.push(step);
                }
            };
            if let Some(homes) = homes {
                homes.each(from, card, |step, _, _| push(step));
            } else if goes_home(card) {
                push(Step { from, to: None });
            }
            if BASES_BITS[card.index()] & top_cards != 0 {
                for base in BASES[card.index()] {
                    if let Some(to) = pile_of[base as usize] {
                        push(Step { from, to: Some(to) });
                    }
                }
            }
            // Asked only with a pile empty: most positions have none.
            let alone = || matches!(from, From::Pile(p) if state.piles[p as usize].cards() == 1);
            if let Some(to) = empty
                && !alone()
            {
                push(Step { from, to: Some(to) });
            }
        }
        if ask.ordered {
            let digs = self.digs(state, next_home);
            sort_best_first(&mut out[start..], |step| {
                Self::order(state, step, waste_top, &digs)
            });
        }
    }

    fn play(&self, state: &State, step: Step) -> State {
        let card = self.card_at(state, step.from);
        let mut next = *state;
        next.undoable = matches!(step.from, From::Pile(p) if state.piles[p as usize].run_len() > 0)
            && step
                .to
                .is_some_and(|to| to < relaxed::HOME_AS && state.tops[to as usize] != NO_CARD);
        match step.from {
            From::Pile(p) => {
                let p = p as usize;
                (next.piles[p], next.tops[p]) =
                    alternating::popped(&self.start_cards[p], state.piles[p], card);
            }
            From::Talon(t) => {
                let (talon, cursor, redealt) = talon::take(state.talon as u128, state.cursor, t);
                (next.talon, next.cursor) = (talon as u64, cursor);
                next.redeals -= redealt as u8;
            }
        }
        match step.to {
            None => next.home[card.suit().index()] += 1,
            Some(to) if to >= relaxed::HOME_AS => self.home_as_twin(&mut next, card),
            Some(to) => {
                let to = to as usize;
                next.piles[to] = self.pushed(&next, to, card);
                next.tops[to] = card.index() as u8;
            }
        }
        next
    }

    fn notation(&self, state: &State, step: Step, out: &mut Vec<Move>) {
        let card = self.card_at(state, step.from);
        let to = match step.to {
            Some(to) if to < relaxed::HOME_AS => Place::Tableau(to),
            _ => Place::Foundation,
        };
        let from = match step.from {
            From::Pile(p) => Place::Tableau(p),
            From::Talon(t) => {
                self.talon.draws(state.talon as u128, state.cursor, t, out);
                Place::Waste
            }
        };
        out.push(Move::single(from, to, card));
    }

    fn to_board(&self, state: &State) -> Board {
        let (stock, waste) = self
            .talon
            .stock_and_waste(state.talon as u128, state.cursor);
        Board {
            foundations: alternating::foundation_tops(&self.slots, &state.home),
            stock: Some(stock),
            waste: Some(waste),
            redeals: (state.redeals < REDEALS || self.redeals_given).then_some(state.redeals),
            piles: (0..PILES)
                .map(|p| Pile::face_up(self.pile_vec(state, p)))
                .collect(),
            ..Board::default()
        }
    }
}

#[cfg(test)]
mod tests;
