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
//! `Lanes::moves` leaves out two kinds of move: all but a safe move home
//! (see [`super::safe_home`]; in the talon it holds for the waste's top,
//! which goes home without a draw, and for the stock's next card, whose
//! one draw buries nothing), and all but one empty pile and a lone
//! card to an empty pile (the same positions up to the order of the
//! piles, which the key ignores). Positions where no pile can ever be the
//! first emptied ([`dead_end`]) are not searched below. Raglan's rule J
//! (the card just moved stays where it is for a move) saved too few
//! positions here to carry an argument that leans on the table
//! (`docs/tuning.md`).
//!
//! Nor is a position searched whose key another searched one covers: the
//! same tableau and talon cards with a stronger talon, a redeal left or
//! the cursor further back ([`talon::strength`]), wins in as many moves or
//! fewer. So if a search ends without a win from a winnable start, take a
//! searched winnable position of least cost (the fewest moves of a line
//! that wins from it): its moves include one to a cheaper winnable
//! position (a safe move home keeps a line no longer), which was searched,
//! or is covered by a searched one no dearer; a contradiction.

mod dead_end;
mod relaxed;

use super::NO_CARD;
use super::alternating::{self, BASES, PileCode, StartPiles};
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
pub const PRUNING: &str = "all but a safe move home, all but one empty pile, positions \
    where no pile can be emptied (even in a game that never loses a place to build or a card \
    it reached, each card moved taking a place of its own), \
    and positions whose tableau and talon cards were searched with a redeal or draws to spare";

/// What the relaxation ([`relaxed`]) lets a line do that the game does
/// not: said with a loss it proves.
pub const RELAXATION: &str = "a card built into a run is known by its rank and colour alone, and \
    may go home as any card of its rank and colour built into a run whose foundation shows the \
    rank below";

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
    /// Whether this is a position of the relaxation ([`relaxed`]): the
    /// cards are one member's, and the key forgets the run cards' suits.
    relaxed: bool,
}

impl State {
    /// The waste's top card's place in the talon, if the waste has cards.
    fn waste_top(&self) -> Option<u8> {
        talon::waste_top(self.talon as u128, self.cursor)
    }

    /// Whether `card` is the next of its suit to go home.
    fn goes_home(&self, card: Card) -> bool {
        self.home[card.suit().index()] + 1 == card.rank().get()
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

    fn pile_vec(&self, state: &State, pile: usize) -> Vec<Card> {
        let mut cards = Vec::new();
        alternating::pile_cards(&self.start_cards[pile], state.piles[pile], |c| {
            cards.push(c)
        });
        cards
    }

    /// The lowest of `places` in the talon whose card has a move now
    /// (home, onto a pile's top, or to an empty pile), as a mask.
    fn first_playable(&self, state: &State, places: u64, empty: bool) -> u64 {
        talon::places(places as u128)
            .find(|&t| empty || state.has_place(self.talon.card(t)))
            .map_or(0, |t| 1 << t)
    }

    /// Which piles hold, among their starting cards under the top, a card
    /// that goes home next. (Run cards too: the order cost more to work
    /// out and won fewer deals of `bench lanes`.)
    fn digs(&self, state: &State) -> [bool; PILES] {
        std::array::from_fn(|p| {
            let dealt = &self.start_cards[p][..state.piles[p].dealt_left()];
            dealt
                .iter()
                .any(|card| card.index() as u8 != state.tops[p] && state.goes_home(*card))
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

/// What the search runs for Lanes: the relaxed walk (see [`relaxed`]),
/// whose place the full walk takes if it wins the relaxation by a line
/// that is not the game's, a walk narrowed at level 1 (see `WINDOWS`),
/// walks with horizons of 3 and 5 moves without a card home, and a beam
/// at level 3 for its first million positions (`BEAM_NODES`), taking
/// turns with it; a tactic that ends without a win is dropped, so on a
/// lost deal the exhaustive walk is soon alone, on every thread.
/// The first turn is small because most deals are won by a narrowed walk's
/// first few thousand positions. Every tactic of a round has the same
/// budget: the hard wins come from any of them, a horizon walk's in one
/// deal, the beam's in another, where the others wander for millions of
/// positions. The figures are in `docs/tuning.md`.
impl Planned for Lanes {
    const PLAN: Plan = Plan {
        exhaustive: Tactic::Relaxed,
        narrowings: &[1],
        max_narrowing: Some(WINDOWS.len() as u32),
        horizons: &[3, 5],
        first_turn_nodes: 1000,
        beams: &[3],
        beam_nodes: Some(BEAM_NODES),
        growth_by_round: true,
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
                relaxed: false,
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
    fn key(&self, state: &State) -> TalonKey<3> {
        let mut codes = state.piles;
        if state.relaxed {
            codes = codes.map(PileCode::unsuited);
        }
        codes.sort_unstable();
        let (heads, suits) = alternating::split_codes(&codes);
        debug_assert!(state.talon < 1 << 52 && state.redeals < 2);
        // A relaxed position's key has no run suit bits, and its foundations
        // are not told by the cards elsewhere: they take their place.
        let last = match state.relaxed {
            false => suits,
            true => {
                let home = state.home.iter().enumerate();
                home.fold(1 << 52, |word, (suit, &rank)| {
                    word | (rank as u64) << (4 * suit)
                })
            }
        };
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
    /// members is ([`relaxed`]).
    fn is_dead_end(&self, state: &State) -> bool {
        match state.relaxed {
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

    fn cards_home(&self, state: &State) -> u32 {
        state.home.iter().map(|&r| r as u32).sum()
    }

    /// Moves best first (see `Lanes::order`): a safe move home alone;
    /// only one empty pile, and no lone card to it. See [`WINDOWS`] for
    /// what narrowed walks leave out besides.
    fn moves(&self, state: &State, _last: Option<Step>, ask: Ask, out: &mut Vec<Step>) {
        let waste_top = state.waste_top();
        let mut sources = [(From::Pile(0), Card::from_index(0)); PILES + MAX_TALON];
        let mut k = 0;
        let mut empty = None;
        for p in 0..PILES {
            match state.tops[p] {
                NO_CARD => empty = empty.or(Some(p as u8)),
                top => {
                    sources[k] = (From::Pile(p as u8), Card::from_index(top as usize));
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
                match self.first_playable(state, near, empty) {
                    0 => match self.first_playable(state, stock as u64, empty) {
                        0 if state.redeals > 0 => {
                            self.first_playable(state, state.talon & !(stock as u64), empty)
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
        while reach != 0 {
            let t = reach.trailing_zeros() as u8;
            reach &= reach - 1;
            sources[k] = (From::Talon(t), self.talon.card(t));
            k += 1;
        }
        let sources = &sources[..k];
        // The free cards that can go home: tableau tops, the waste's top,
        // and the stock's next card, whose one draw leaves the waste as it
        // was once the card has gone home.
        let next_drawn = talon::next_drawn(talon, state.cursor);
        let free = |from: From| match from {
            From::Pile(_) => true,
            From::Talon(t) => Some(t) == waste_top || Some(t) == next_drawn,
        };
        let runs = match state.relaxed {
            true => self.run_cards(state),
            false => 0,
        };
        let chosen = match state.relaxed {
            true => self.safe_home_relaxed(state, sources, free, runs),
            false => {
                let mut homeward = (sources.iter())
                    .filter(|&&(from, card)| state.goes_home(card) && free(from))
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
            out.push(step);
            return;
        }
        let start = out.len();
        for &(from, card) in sources {
            if state.relaxed {
                self.homes_relaxed(state, runs, from, card, |step, _, _| out.push(step));
            } else if state.goes_home(card) {
                out.push(Step { from, to: None });
            }
            for base in BASES[card.index()] {
                if let Some(to) = state.tops.iter().position(|&top| top == base) {
                    out.push(Step {
                        from,
                        to: Some(to as u8),
                    });
                }
            }
            let alone = matches!(from, From::Pile(p) if state.piles[p as usize].cards() == 1);
            if let Some(to) = empty
                && !alone
            {
                out.push(Step { from, to: Some(to) });
            }
        }
        if ask.ordered {
            let digs = self.digs(state);
            sort_best_first(&mut out[start..], |step| {
                Self::order(state, step, waste_top, &digs)
            });
        }
    }

    fn play(&self, state: &State, step: Step) -> State {
        let card = self.card_at(state, step.from);
        let mut next = *state;
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
                next.piles[to] = next.piles[to].push(card);
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
mod tests {
    use super::*;
    use crate::card::Rank;
    use crate::games::testing::{
        Picks, assert_won_within, full_moves, keys_match_positions, narrowed_moves, verdicts_agree,
        within_window,
    };
    use crate::key::TableKey;
    use crate::reference::{Replay, in_pile_order, plain_search_by};
    use crate::search::{Limits, Tables, Tactic, Verdict, solve_alone, solve_parallel};

    /// A late position of deal `n`: each suit home to a rank from 4 to 9,
    /// the cards left in the deal's order four to a pile, the rest the
    /// stock, in the last pass (where losses are common). Low foundations
    /// make safe moves home common, from the tableau, the waste and the
    /// stock.
    fn late_position(n: u64) -> Board {
        let mut picks = Picks::new(n);
        let mut board = crate::deal::deal(&LAYOUT, n);
        let home: [u8; 4] = std::array::from_fn(|_| 4 + picks.below(6) as u8);
        let stock = board.stock.take().expect("Lanes has a stock");
        let dealt: Vec<Card> = board
            .piles
            .iter()
            .flat_map(|pile| pile.up.clone())
            .collect();
        let mut left = dealt
            .into_iter()
            .chain(stock)
            .filter(|card| card.rank().get() > home[card.suit().index()]);
        board.piles = (0..PILES)
            .map(|_| Pile::face_up(left.by_ref().take(4).collect()))
            .collect();
        board.stock = Some(left.collect());
        board.waste = Some(Vec::new());
        board.redeals = Some(0);
        for top in board.foundations.iter_mut().flatten() {
            *top = Card::new(
                Rank::new(home[top.suit().index()]).expect("4 to 9"),
                top.suit(),
            );
        }
        board
    }

    /// `board`, a late position, with the first cards of its stock, as
    /// many as `picks` says, dealt to the waste, and a redeal left or not.
    fn with_waste(mut board: Board, picks: &mut Picks) -> Board {
        let stock = board.stock.as_mut().expect("a late position has a stock");
        let waste = stock.drain(..picks.below(stock.len() + 1)).collect();
        board.waste = Some(waste);
        board.redeals = Some(picks.below(2) as u8);
        board
    }

    /// Three of the slowest wins of deals 1..1000 at commit 695269e (4.6,
    /// 4.0 and 2.4 s on two threads), which the beams won first (the walks
    /// alone took over 6M positions), and 775, which the full walk won in
    /// 28 s on one thread before the horizon walks, are won within two
    /// million positions each, and the wins replay.
    #[test]
    fn hard_deals_are_won_fast() {
        let deals = [383, 522, 963, 775];
        assert_won_within::<Lanes>(&LAYOUT, &LanesRules, &deals, 2_000_000, 1 << 26);
    }

    /// Deal 4257, unknown after 2.6G positions of the search before the
    /// horizon walks (the full walk alone won it in 1.0G), is won within
    /// eight million: most of those positions were shuffles that never send
    /// another card home, which the horizon walks leave out.
    #[test]
    fn the_horizon_walks_win_what_the_others_wander_from() {
        assert_won_within::<Lanes>(&LAYOUT, &LanesRules, &[4257], 8_000_000, 1 << 28);
    }

    /// The relaxed walk as the plan's exhaustive tactic, on two threads: it
    /// proves deal 374 lost itself; deal 703's relaxation is won by a line
    /// that swaps run cards, and the full walks that take its place on
    /// both threads prove the deal lost; deal 5's relaxed walk wins the
    /// deal by a line of the game's, which replays.
    #[test]
    fn the_full_walk_takes_the_relaxed_walks_place_on_every_thread() {
        let limits = Limits {
            memory: 1 << 28,
            ..Limits::default()
        };
        for (n, verdict, by) in [
            (374, Verdict::Lost, Tactic::Relaxed),
            (703, Verdict::Lost, Tactic::Full),
            (5, Verdict::Won, Tactic::Relaxed),
        ] {
            let board = crate::deal::deal(&LAYOUT, n);
            let game = Lanes::new(&board).unwrap();
            let alone = solve_alone(&game, &limits, &mut Tables::new(1 << 26), Tactic::Relaxed);
            let relaxed = match by {
                Tactic::Full => Verdict::Unknown,
                _ => verdict,
            };
            assert_eq!(alone.verdict, relaxed, "deal {n} alone");
            let report = solve_parallel(&game, &limits, 2, None);
            assert_eq!(report.verdict, verdict, "deal {n}");
            match verdict {
                Verdict::Won => {
                    for moves in [&alone.moves, &report.moves] {
                        let replay = crate::reference::replay(&LanesRules, &board, moves);
                        assert_eq!(replay, crate::reference::Replay::Won, "deal {n}");
                    }
                }
                _ => assert_eq!(report.decided_by, Some(by), "deal {n}"),
            }
        }
    }

    /// Late positions of numbered deals with runs built by a few moves of
    /// play: wherever the relaxed search proves a loss, the plain search
    /// with the reference rules finds no win (a relaxation that lost a
    /// line of the game fails here), and it proves most of the
    /// losses the plain search finds, many with both cards of a rank and
    /// colour in runs. Where the relaxation's dead-end test fires on such
    /// a position, every member (each pair either way round) is lost to
    /// the plain search too.
    #[test]
    fn relaxed_losses_are_losses_of_the_game() {
        let mut tables = Tables::new(1 << 26);
        let limits = Limits {
            max_nodes: Some(300_000),
            ..Limits::default()
        };
        let mut picks = Picks::new(36);
        let (mut won, mut lost, mut proven, mut split, mut members) = (0, 0, 0, 0, 0);
        let mut realized = 0;
        for n in 1..=1500 {
            let board = with_waste(late_position(n), &mut picks);
            let game = Lanes::new(&board).unwrap();
            let mut state = game.initial();
            for _ in 0..picks.below(24) {
                let moves = full_moves(&game, &state);
                if moves.is_empty() {
                    break;
                }
                state = game.play(&state, moves[picks.early(moves.len(), 2)]);
            }
            let runs = game.run_cards(&state);
            if runs == 0 {
                continue;
            }
            let position = game.to_board(&state);
            let truth = plain_search_by(&LanesRules, &position, 100_000, in_pile_order);
            let Some(winnable) = truth else {
                continue;
            };
            let from_here = Lanes {
                start: state,
                ..Lanes::new(&board).unwrap()
            };
            let report = solve_alone(&from_here, &limits, &mut tables, Tactic::Relaxed);
            let is_lost = report.verdict == Verdict::Lost;
            assert!(
                !(winnable && is_lost),
                "a win the relaxation lost:\n{}",
                position.to_text()
            );
            if report.verdict == Verdict::Won {
                let replay = crate::reference::replay(&LanesRules, &position, &report.moves);
                assert_eq!(replay, Replay::Won, "{}", position.to_text());
                realized += 1;
            }
            let both = |card: Card| {
                let pair = dead_end::TWINS[card.index()];
                runs & pair == pair
            };
            won += winnable as u32;
            lost += !winnable as u32;
            proven += is_lost as u32;
            split += (is_lost && Card::all().any(both)) as u32;
            // A dead end of the relaxation: every member, each way round
            // of the pairs of a rank and colour in runs, is lost.
            let pairs: Vec<[Card; 2]> = (Card::all().filter(|&c| both(c)))
                .map(relaxed::twins)
                .filter(|pair| pair[0].suit() < pair[1].suit())
                .collect();
            if pairs.is_empty() || pairs.len() > 4 || !game.is_dead_end(&game.relax(&state)) {
                continue;
            }
            for swaps in 0..1u32 << pairs.len() {
                let mut member = position.clone();
                let swapped = (pairs.iter().enumerate()).filter(|(i, _)| swaps >> i & 1 != 0);
                for (_, [a, b]) in swapped {
                    for card in member.piles.iter_mut().flat_map(|pile| pile.up.iter_mut()) {
                        *card = match *card {
                            c if c == *a => *b,
                            c if c == *b => *a,
                            c => c,
                        };
                    }
                }
                let truth = plain_search_by(&LanesRules, &member, 100_000, in_pile_order);
                assert_ne!(truth, Some(true), "a member won:\n{}", member.to_text());
                members += truth.is_some() as u32;
            }
        }
        assert!(won >= 200 && lost >= 200, "{won} won, {lost} lost");
        assert!(2 * proven >= lost, "{proven} of {lost} losses proven");
        assert!(
            split >= 50,
            "{split} proven with both cards of a rank and colour in runs"
        );
        assert!(members >= 200, "{members} members of dead ends decided");
        assert!(realized >= 100, "{realized} wins of the game's found");
    }

    /// Every move of the game onto a pile, from a position the relaxed
    /// walk holds, is a move of the relaxation there too (but where the
    /// relaxation takes a safe move home alone): two piles whose tops have
    /// the same rank and colour each take the card that builds on them.
    #[test]
    fn the_relaxation_builds_wherever_the_game_does() {
        let mut picks = Picks::new(11);
        let (mut checked, mut twin_tops) = (0, 0);
        for n in 1..=600 {
            let board = with_waste(late_position(n), &mut picks);
            let game = Lanes::new(&board).unwrap();
            let mut state = game.relax(&game.initial());
            for _ in 0..30 {
                let relaxed = full_moves(&game, &state);
                let member = State {
                    relaxed: false,
                    ..state
                };
                let is_home = |step: &Step| step.to.is_none_or(|to| to >= relaxed::HOME_AS);
                if relaxed.is_empty() || relaxed.len() == 1 && is_home(&relaxed[0]) {
                    break;
                }
                for step in full_moves(&game, &member).iter().filter(|s| !is_home(s)) {
                    assert!(
                        relaxed.contains(step),
                        "{step:?}:\n{}",
                        game.to_board(&state).to_text()
                    );
                    checked += 1;
                }
                let tops = (state.tops).map(|top| {
                    (top != NO_CARD).then(|| relaxed::twins(Card::from_index(top.into())))
                });
                twin_tops += (0..PILES)
                    .any(|p| tops[p].is_some() && tops[p + 1..].contains(&tops[p]))
                    as u32;
                state = game.play(&state, relaxed[picks.early(relaxed.len(), 2)]);
            }
        }
        assert!(
            checked >= 5000 && twin_tops >= 100,
            "{checked} moves, {twin_tops} twin tops"
        );
    }

    /// A run card going home as its twin in the relaxation swaps the two
    /// in the runs first: after it, the twin is home, the card lies where
    /// the twin lay (the run cards are those of a member), and every pile
    /// is, but for suits, what the card's own move home would leave. Such
    /// a move is no line of the game's.
    #[test]
    fn a_move_home_as_the_twin_swaps_the_two() {
        let mut picks = Picks::new(7);
        let mut swaps = 0;
        for n in 1..=1500 {
            let board = with_waste(late_position(n), &mut picks);
            let game = Lanes::new(&board).unwrap();
            let mut state = game.relax(&game.initial());
            for _ in 0..40 {
                let moves = full_moves(&game, &state);
                let swap = |step: &&Step| step.to.is_some_and(|to| to >= relaxed::HOME_AS);
                let Some(&step) = moves.iter().find(swap) else {
                    if moves.is_empty() {
                        break;
                    }
                    state = game.play(&state, moves[picks.early(moves.len(), 2)]);
                    continue;
                };
                let From::Pile(p) = step.from else {
                    panic!("only a run card goes home as its twin")
                };
                let card = game.card_at(&state, step.from);
                let suit = Suit::from_index(usize::from(step.to.unwrap() - relaxed::HOME_AS));
                let twin = Card::new(card.rank(), suit);
                assert_ne!(twin, card);
                let after = game.play(&state, step);
                assert_eq!(after.home[suit.index()], state.home[suit.index()] + 1);
                let runs = game.run_cards(&state) & !(1 << twin.index());
                assert_eq!(game.run_cards(&after), runs);
                let cards: Vec<Card> = (0..PILES).flat_map(|q| game.pile_vec(&after, q)).collect();
                assert!(cards.contains(&card) && !cards.contains(&twin));
                let (popped, _) = alternating::popped(
                    &game.start_cards[p as usize],
                    state.piles[p as usize],
                    card,
                );
                for q in 0..PILES {
                    let before = if q == p as usize {
                        popped
                    } else {
                        state.piles[q]
                    };
                    assert_eq!(after.piles[q].unsuited(), before.unsuited());
                }
                assert!(!game.is_game_line(&[step]));
                swaps += 1;
                break;
            }
        }
        assert!(swaps >= 50, "{swaps} moves home as the twin");
    }

    /// Late positions of numbered deals: the engine's verdict, with all
    /// its pruning (safe moves home, the stock's next card among them; one
    /// empty pile; the dead-end test), is the plain search's with the
    /// reference rules, won and lost alike, and its wins replay.
    #[test]
    fn verdicts_of_late_positions_agree_with_a_plain_search() {
        let (won, lost) = agree_with_a_plain_search((1..=200).map(late_position));
        assert!(won > 100 && lost > 40, "won {won}, lost {lost}");
    }

    /// The same with a waste and, half of them, a redeal left, so that the
    /// talon's strength, which keys compare, varies too.
    #[test]
    fn verdicts_with_a_waste_and_a_redeal_agree_with_a_plain_search() {
        let boards = (1..=150).map(|n| with_waste(late_position(n), &mut Picks::new(n + 1000)));
        let (won, lost) = agree_with_a_plain_search(boards);
        assert!(won > 60 && lost > 20, "won {won}, lost {lost}");
    }

    /// [`verdicts_agree`] with the reference rules' plain search of up to
    /// 30,000 positions as the judge: the boards won and lost.
    fn agree_with_a_plain_search(boards: impl Iterator<Item = Board>) -> (u32, u32) {
        let rules = &LanesRules;
        verdicts_agree::<Lanes>(rules, boards, 1 << 24, |board| {
            plain_search_by(rules, board, 30_000, in_pile_order)
        })
    }

    /// Of two late positions with the same cards in the same places, the
    /// one whose key covers the other's (a redeal left, or the same
    /// redeals and a shorter waste) is won whenever the other is, by the
    /// reference rules' plain search; and some covered ones are lost where
    /// the covering one is won, so covering goes one way only.
    #[test]
    fn a_covering_talon_wins_whenever_the_covered_one_does() {
        let rules = &LanesRules;
        let (mut pairs, mut one_way) = (0, 0);
        for n in 1..=400 {
            let board = late_position(n);
            let mut picks = Picks::new(n);
            let (a, b) = (
                with_waste(board.clone(), &mut picks),
                with_waste(board, &mut picks),
            );
            let key = |board: &Board| {
                let game = Lanes::new(board).unwrap();
                game.key(&game.initial())
            };
            let (strong, weak) = match (key(&a).covers(&key(&b)), key(&b).covers(&key(&a))) {
                (true, false) => (a, b),
                (false, true) => (b, a),
                _ => continue,
            };
            let won = |board: &Board| plain_search_by(rules, board, 30_000, in_pile_order);
            let (Some(strong_won), Some(weak_won)) = (won(&strong), won(&weak)) else {
                continue;
            };
            assert!(
                strong_won || !weak_won,
                "{}\n{}",
                strong.to_text(),
                weak.to_text()
            );
            pairs += 1;
            one_way += (strong_won && !weak_won) as u32;
        }
        assert!(
            pairs > 200 && one_way > 5,
            "{pairs} pairs, {one_way} one way"
        );
    }

    /// Along play from numbered deals, two positions with the same key are
    /// the same but for the order of the piles: the packed pile codes read
    /// back one way only, and the foundations left out of the key follow
    /// from the rest.
    #[test]
    fn keys_tell_positions_apart_exactly() {
        let games = (1..=60).map(|n| Lanes::new(&crate::deal::deal(&LAYOUT, n)).unwrap());
        let none = |_: &Lanes, _: &State| String::new();
        let merged = keys_match_positions(games, 300, false, none);
        assert!(merged > 1000, "only {merged} positions met twice");
    }

    /// Each narrowed walk offers only moves the full search offers, and
    /// the next level up offers them too (a narrowed walk that ends
    /// without a win stands for the levels below it): no stock card past
    /// its window, none through the redeal while the stock has cards,
    /// unless no card of the window has a move (then the first further on
    /// that has one, and some are met), and a free card that can go home
    /// alone. Along play that follows the full search's first moves, with
    /// a deal's number picking now and then another.
    #[test]
    fn narrowed_moves_are_some_of_the_full_ones() {
        let mut left_out = [0; WINDOWS.len()];
        let mut beyond_window = 0;
        for n in 1..=30u64 {
            let game = Lanes::new(&crate::deal::deal(&LAYOUT, n)).unwrap();
            let mut state = game.initial();
            for step in 0..120u64 {
                let mut full = Vec::new();
                game.moves(&state, None, Ask::FULL, &mut full);
                if full.is_empty() {
                    break;
                }
                let talon = state.talon as u128;
                let next_drawn = talon::next_drawn(talon, state.cursor);
                let free_home = full.iter().any(|s| {
                    s.to.is_none()
                        && match s.from {
                            From::Pile(_) => true,
                            From::Talon(t) => Some(t) == state.waste_top() || Some(t) == next_drawn,
                        }
                });
                let played: Vec<u8> = full
                    .iter()
                    .filter_map(|s| match s.from {
                        From::Talon(t) => Some(t),
                        From::Pile(_) => None,
                    })
                    .collect();
                let mut below = Vec::new();
                for (level, &window) in WINDOWS.iter().enumerate() {
                    let moves = narrowed_moves(&game, &state, None, level as u32 + 1);
                    assert!(moves.iter().all(|s| full.contains(s)), "deal {n}");
                    assert!(below.iter().all(|s| moves.contains(s)), "deal {n}");
                    left_out[level] += full.len() - moves.len();
                    // With no card of the window played, the first one further on.
                    let near = played.iter().any(|&t| {
                        t >= state.cursor && within_window(talon, state.cursor, window, t)
                    });
                    let first = |stock: bool| {
                        played
                            .iter()
                            .filter(|&&t| (t >= state.cursor) == stock)
                            .min()
                    };
                    let beyond = match near {
                        true => None,
                        false => first(true).or(first(false)).copied(),
                    };
                    for s in &moves {
                        if let From::Talon(t) = s.from {
                            let allowed = within_window(talon, state.cursor, window, t);
                            assert!(allowed || Some(t) == beyond, "deal {n}");
                            beyond_window += !allowed as u32;
                        }
                    }
                    if free_home {
                        assert_eq!(moves.len(), 1, "deal {n}");
                        assert_eq!(moves[0].to, None, "deal {n}");
                    }
                    below = moves;
                }
                let pick = (n * 7 + step * 13) % 5;
                let pick = if pick == 0 {
                    (n + step) as usize % full.len()
                } else {
                    0
                };
                state = game.play(&state, full[pick]);
            }
        }
        assert!(left_out.iter().all(|&n| n > 500), "left out {left_out:?}");
        assert!(beyond_window > 20, "{beyond_window} cards past the window");
    }
}
