//! Lanes' dead-end test: no pile can ever be the first emptied.
//!
//! A won game empties every pile, so some pile is emptied first. Until
//! then no pile is empty, so the game is played with moves home and
//! builds alone, and a relaxed game can stand in for it: one that keeps
//! what each move needs but never takes back what a move made true. A
//! card once reachable (a pile's top, the waste's top, any card of the
//! stock) stays reachable, and a card once on the tableau top stays a
//! place to build on. Everything the real game can do before a pile is
//! empty, the relaxed game can do too.
//!
//! Its states only grow, so the most it can reach is found by applying
//! its moves until nothing changes:
//!
//! - a reachable card goes home once its suit's card below is home;
//! - a reachable card leaves its place (uncovering the card under it) to
//!   a card it builds on that has been a tableau top, and is then a
//!   tableau top itself;
//! - a card is reachable once every card above it in its pile has left;
//!   every card of the stock is reachable (a draw reaches any), and so is
//!   every talon card while a redeal is left; in the last pass a waste
//!   card is reachable once the waste's cards above it have left (the
//!   cards a later draw lays on it only make that harder for the real
//!   game, so leaving them out keeps the relaxed game the stronger).
//!
//! A pile can be the first emptied only if the relaxed game takes every
//! card off it, and only if its cards that the relaxed game cannot send
//! home find room: when the pile is emptied each of them lies on the
//! tableau, put there by a build (no pile was empty), so on a card of its
//! own among the two it builds on, one that has been a tableau top. The
//! two cards of a rank and colour build on the same two cards, so a pile
//! that holds both needs both; a King builds on nothing.
//!
//! The test is worth its cost only where no pile is empty: it finds
//! positions lost in the last pass, where the waste can no longer be
//! dealt off and every pile is stuck.
//!
//! A position reached by an undoable move, a run card `c` taken off the
//! card `a` it was built on to another pile's top `b`, is dead exactly
//! when the one before is, so the search, which tested that one, skips
//! the test (`State::undoable`). No pile is empty in either, or in
//! neither. The relaxed game from each reaches the same: from the one
//! before, `c` goes onto `b` (a top); from the one after, back onto `a`
//! (now a top), uncovering `b`; either way `c` has left, `a` and `b` have
//! been tops, and the game goes on alike. A pile other than those two
//! holds the same cards; `a`'s pile holds one card fewer; `b`'s holds
//! `c` besides, which has left, and which, if it cannot go home, finds
//! room: it builds on `a` and `b`, both tops once, and at most two cards
//! of its rank and colour need them. So a pile that can be the first
//! emptied before the move can be after it too, and the converse is the
//! same argument with the roles of `a` and `b` swapped. In a relaxed
//! position each member makes the same move or its twin's (see
//! `relaxed`).

use super::{Lanes, MAX_TALON, PILES, State};
use crate::card::Card;
use crate::games::NO_CARD;
use crate::games::alternating::{BASES_BITS, BUILT_ON_BITS, MAX_START, RUN, pile_cards};
use crate::games::talon::{self, Talon};

/// A set of cards, a bit each by card index: a suit's 13 cards are 13 bits
/// in a row, the Ace lowest (see [`Card::index`]).
pub(super) type Cards = u64;

/// A suit's cards in [`Cards`].
pub(super) const SUIT: Cards = (1 << 13) - 1;

/// The cards of sets of talon places, and of each pile's first starting
/// cards, as [`Cards`]: looked up a byte of places at a time, where
/// reading each place's card in turn took a share of every relaxed
/// position's moves and dead-end test.
pub(super) struct CardSets {
    /// For each byte of a place mask, the cards of each of its values.
    talon: [[Cards; 256]; Card::COUNT.div_ceil(8)],
    /// For each pile, the cards of its first `d` starting cards (index `d`).
    dealt: [[Cards; MAX_START + 1]; PILES],
}

impl CardSets {
    pub(super) fn new(talon: &Talon<MAX_TALON>, start_cards: &[[Card; MAX_START]; PILES]) -> Self {
        let mut sets = CardSets {
            talon: [[0; 256]; Card::COUNT.div_ceil(8)],
            dealt: [[0; MAX_START + 1]; PILES],
        };
        for (byte, cards) in sets.talon.iter_mut().enumerate() {
            for (value, set) in cards.iter_mut().enumerate() {
                let places = (value as u128) << (8 * byte) & talon.full();
                *set = talon::places(places).fold(0, |set, t| set | 1 << talon.card(t).index());
            }
        }
        for (dealt, start) in sets.dealt.iter_mut().zip(start_cards) {
            for d in 1..=MAX_START {
                dealt[d] = dealt[d - 1] | 1 << start[d - 1].index();
            }
        }
        sets
    }

    /// The cards of the talon places `places`.
    pub(super) fn talon(&self, places: u64) -> Cards {
        let bytes = places.to_le_bytes();
        (self.talon.iter().zip(bytes)).fold(0, |set, (cards, byte)| set | cards[byte as usize])
    }

    /// The first `d` starting cards of pile `p`.
    pub(super) fn first_dealt(&self, p: usize, d: usize) -> Cards {
        self.dealt[p][d]
    }

    /// The starting cards still in their places in `state`.
    pub(super) fn dealt(&self, state: &State) -> Cards {
        (self.dealt.iter().zip(&state.piles))
            .fold(0, |set, (dealt, code)| set | dealt[code.dealt_left()])
    }
}

/// Whether no line from `state` gets every card home (see the module).
pub(super) fn cannot_win(game: &Lanes, state: &State) -> bool {
    // An empty pile takes any card: the argument starts from none. The
    // lone cards are looked at before the piles are read, which they
    // often spare.
    !state.tops.contains(&NO_CARD)
        && !lone_leaves(state, |card| card)
        && no_member_wins(game, state, &Piles::of(game, state), 0)
}

/// The most cards a pile holds: its starting cards and a run on them.
const MAX_PILE: usize = MAX_START + RUN as usize;

/// A position's piles, each card's index bottom first, and each pile's
/// cards as a set: read once for the test of a relaxed position's
/// members, which differ only in the suits of some run cards.
pub(super) struct Piles {
    cards: [[u8; MAX_PILE]; PILES],
    len: [usize; PILES],
    sets: [Cards; PILES],
}

impl Piles {
    pub(super) fn of(game: &Lanes, state: &State) -> Piles {
        let mut piles = Piles {
            cards: [[0; MAX_PILE]; PILES],
            len: [0; PILES],
            sets: [0; PILES],
        };
        for p in 0..PILES {
            let (cards, len, set) = (&mut piles.cards[p], &mut piles.len[p], &mut piles.sets[p]);
            pile_cards(&game.start_cards[p], state.piles[p], |card| {
                cards[*len] = card.index() as u8;
                *len += 1;
                *set |= 1 << card.index();
            });
        }
        piles
    }

    /// The piles with each card `card` made `as_card(card)`.
    fn map(&self, as_card: impl Fn(Card) -> Card) -> Piles {
        let mut piles = Piles {
            cards: [[0; MAX_PILE]; PILES],
            len: self.len,
            sets: [0; PILES],
        };
        for p in 0..PILES {
            for (at, &card) in piles.cards[p].iter_mut().zip(&self.cards[p][..self.len[p]]) {
                let card = as_card(Card::from_index(card as usize)).index();
                *at = card as u8;
                piles.sets[p] |= 1 << card;
            }
        }
        piles
    }
}

/// Whether no line wins from `state`, no pile of it empty, with each pile
/// card `card` made `as_card(card)`: a member of a relaxed position with
/// twins in its runs swapped (see `relaxed`), tested without building its
/// piles from their codes. `piles` are `state`'s.
pub(super) fn cannot_win_as(
    game: &Lanes,
    state: &State,
    piles: &Piles,
    as_card: impl Fn(Card) -> Card,
) -> bool {
    !lone_leaves(state, &as_card) && no_member_wins(game, state, &piles.map(as_card), 0)
}

/// Whether a pile of `state` holds one card, `as_card` of its top, that
/// can leave at once, home or onto another pile's top: the relaxed game's
/// first step clears it with room, the answer without the work of setting
/// that game up.
pub(super) fn lone_leaves(state: &State, as_card: impl Fn(Card) -> Card) -> bool {
    let lone = |p: usize| state.piles[p].cards() == 1;
    let top = |p: usize| as_card(Card::from_index(state.tops[p] as usize));
    (0..PILES).any(|p| lone(p) && state.has_place(top(p)))
}

/// The most the relaxed game reaches before a pile is empty.
struct Relaxed {
    /// Each pile's cards in the position.
    piles: [Cards; PILES],
    home: Cards,
    /// The cards that have left their place, home or to a pile.
    left: Cards,
    /// The cards that have been a pile's top.
    tableau: Cards,
}

impl Relaxed {
    /// The relaxed game played to its end, or `None` as soon as some pile
    /// could be the first emptied: a pile that has room keeps it as the
    /// game goes on, since cards only go home and bases only appear.
    ///
    /// Each card of `twins`, pairs of a rank and colour in runs, stands for
    /// either card of its pair: whatever one of them reaches, the other
    /// does, and one whose twin is home needs no room (a member's card in
    /// its place may be that twin). So the game reaches all that each way
    /// of swapping the pairs in the piles reaches, and more (see
    /// `relaxed`).
    fn play(game: &Lanes, state: &State, piles: &Piles, twins: Cards) -> Option<Relaxed> {
        // Of each pile, the cards that have not left are its first `len`.
        let mut len = piles.len;
        let mut home = state.home_cards();
        // The cards that have left their place, home or to a pile, and
        // those that have been a pile's top.
        let (mut left, mut tableau): (Cards, Cards) = (home, 0);
        let talon = state.talon as u128;
        let open = match state.redeals {
            0 => talon::stock(talon, state.cursor),
            _ => talon,
        };
        let mut reachable = game.card_sets.talon(open as u64);
        // In the last pass, the waste's places whose cards have not left:
        // the top one is reachable.
        let mut waste = talon & !open;
        // The cards the relaxed game has moved to a pile.
        let mut moved: Cards = 0;
        // The cards that may be built on a card of `tableau`, and the part of
        // `tableau` they were worked out from.
        let (mut builds, mut counted): (Cards, Cards) = (0, 0);
        loop {
            let before = (reachable, left);
            for (stack, len) in piles.cards.iter().zip(&mut len) {
                while *len > 0 && left & 1 << stack[*len - 1] != 0 {
                    *len -= 1;
                }
                if let n @ 1.. = *len {
                    let top = 1 << stack[n - 1];
                    reachable |= top;
                    tableau |= top;
                }
            }
            while let Some(t) = talon::waste_top(waste, state.cursor) {
                let card = 1 << game.talon.card(t).index();
                if left & card == 0 {
                    reachable |= card;
                    break;
                }
                waste &= !(1 << t);
            }
            reachable = with_twins(reachable, twins);
            tableau = with_twins(tableau, twins);
            // Each suit home as far as its cards have been reachable in a row.
            home |= low_runs(reachable | home);
            left = with_twins(left | home, twins);
            // A card home may have been built on the tableau first, so each
            // reachable card not yet moved there is tried, home or not.
            loop {
                let mut fresh = tableau & !counted;
                counted = tableau;
                while fresh != 0 {
                    builds |= BUILT_ON_BITS[fresh.trailing_zeros() as usize];
                    fresh &= fresh - 1;
                }
                let moving = reachable & !moved & builds;
                if moving == 0 {
                    break;
                }
                moved = with_twins(moved | moving, twins);
                left = with_twins(left | moving, twins);
                tableau = with_twins(tableau | moving, twins);
            }
            let relaxed = Relaxed {
                piles: piles.sets,
                home: with_twins(home, twins),
                left,
                tableau,
            };
            if (0..PILES).any(|p| relaxed.clears(p) && relaxed.has_room(p)) {
                return None;
            }
            if (reachable, left) == before {
                return Some(relaxed);
            }
        }
    }

    /// Whether the relaxed game takes every card off pile `p`.
    fn clears(&self, p: usize) -> bool {
        self.piles[p] & !self.left == 0
    }

    /// Whether each card of pile `p` that the relaxed game cannot send
    /// home could lie on a card of its own that has been a tableau top.
    fn has_room(&self, p: usize) -> bool {
        let homeless = self.piles[p] & !self.home;
        let mut rest = homeless;
        while rest != 0 {
            let card = rest.trailing_zeros() as usize;
            rest &= !TWINS[card];
            let bases = (self.tableau & BASES_BITS[card]).count_ones();
            if (homeless & TWINS[card]).count_ones() > bases {
                return false;
            }
        }
        true
    }
}

/// Each suit's cards of `set` that lie in a row from its Ace up, the four
/// suits at once: below the King, adding 1 to a suit's Ace to Queen turns
/// the row into zeros and the first card past it into a one, carrying into
/// the King's place (and never further) only when the row holds them all.
fn low_runs(set: Cards) -> Cards {
    const ACES: Cards = 1 | 1 << 13 | 1 << 26 | 1 << 39;
    const KINGS: Cards = ACES << 12;
    let below_kings = set & !KINGS;
    let added = below_kings + ACES;
    below_kings & !added | added & set & KINGS
}

/// `set` with the other card of each rank and colour in `twins` too: the
/// set itself, with no look at the suits, where it has none of them (as
/// always in a test of one member).
fn with_twins(set: Cards, twins: Cards) -> Cards {
    match set & twins {
        0 => set,
        both => set | mirrored(both),
    }
}

/// The other card of each rank and colour in `set`: the suits of a colour
/// change places, Clubs with Spades and Diamonds with Hearts.
pub(super) fn mirrored(set: Cards) -> Cards {
    (set >> 39) & SUIT | (set >> 26 & SUIT) << 13 | (set >> 13 & SUIT) << 26 | (set & SUIT) << 39
}

/// Whether no member of a relaxed position wins: its cards `piles`, each
/// card of `twins` standing for itself or the other of its rank and colour.
pub(super) fn no_member_wins(game: &Lanes, state: &State, piles: &Piles, twins: Cards) -> bool {
    Relaxed::play(game, state, piles, twins).is_some()
}

/// The cards of suit bit 0, Clubs and Diamonds: one of each rank and
/// colour, naming its pair.
pub(super) const FIRST_TWINS: Cards = (1 << 26) - 1;

/// Each card with the other card of its rank and colour.
pub(super) const TWINS: [Cards; Card::COUNT] = {
    let mut table = [0; Card::COUNT];
    let mut i = 0;
    while i < Card::COUNT {
        let (suit, rank) = (i / 13, i % 13);
        table[i] = 1 << i | 1 << ((3 - suit) * 13 + rank);
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::board::{Board, Pile};
    use crate::card::Rank;
    use crate::game::Game;
    use crate::games::GameKind;
    use crate::games::lanes::Step;
    use crate::reference::{in_pile_order, plain_search_by};

    /// The four suits' rows from the Ace, worked out at once, are each
    /// suit's row worked out alone: every value of each suit's cards,
    /// among random cards of the others.
    #[test]
    fn low_runs_are_each_suits_row_from_its_ace() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let row = |set: Cards, suit: u32| {
            let field = set >> (13 * suit) & SUIT;
            ((1 << (!field).trailing_zeros().min(13)) - 1) << (13 * suit)
        };
        for field in 0..=SUIT {
            let others = rng.random::<u64>() & ((1 << Card::COUNT) - 1);
            for suit in 0..4 {
                let set = others & !(SUIT << (13 * suit)) | field << (13 * suit);
                let rows = (0..4).fold(0, |rows, suit| rows | row(set, suit));
                assert_eq!(low_runs(set), rows, "{set:#x}");
            }
        }
    }

    /// Each card's mirror is the other card of its rank and colour, and a
    /// set's is its cards' (a suit sent to the wrong place fails here).
    #[test]
    fn mirrored_cards_are_the_twins() {
        for card in Card::all() {
            let own = 1 << card.index();
            assert_eq!(mirrored(own), TWINS[card.index()] & !own, "{card}");
        }
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for _ in 0..100 {
            let set = rng.random::<u64>() & ((1 << Card::COUNT) - 1);
            let twins = (0..Card::COUNT).filter(|&i| set >> i & 1 == 1);
            let twins = twins.fold(0, |twins, i| twins | TWINS[i] & !(1 << i));
            assert_eq!(mirrored(set), twins);
        }
    }

    /// A crowded late position of the last pass, where losses are common:
    /// each suit home to a random rank from 5 to 9, the other cards shuffled
    /// into the six piles (two at least each) and the rest into the waste
    /// and a short stock, with no redeal left.
    fn crowded(rng: &mut ChaCha8Rng) -> Board {
        let mut board = crate::deal::deal(&super::super::LAYOUT, rng.random_range(1..1000));
        let home: [u8; 4] = std::array::from_fn(|_| rng.random_range(5..=9));
        let mut left: Vec<Card> = Card::all()
            .filter(|card| card.rank().get() > home[card.suit().index()])
            .collect();
        left.shuffle(rng);
        let mut piles = vec![Vec::new(); PILES];
        for (i, card) in left.drain(..2 * PILES).enumerate() {
            piles[i % PILES].push(card);
        }
        let stock = left.split_off(left.len() - left.len().min(rng.random_range(0..=2)));
        for card in left.drain(..left.len() * 2 / 3) {
            piles[rng.random_range(0..PILES)].push(card);
        }
        board.piles = piles.into_iter().map(Pile::face_up).collect();
        board.waste = Some(left);
        board.stock = Some(stock);
        board.redeals = Some(0);
        for top in board.foundations.iter_mut().flatten() {
            let rank = Rank::new(home[top.suit().index()]).expect("5 to 9");
            *top = Card::new(rank, top.suit());
        }
        board
    }

    /// `board` with a pile cut to two cards (the rest laid on the waste),
    /// and those two of one rank and colour where the other card of the
    /// rank and colour is not home: a pile that needs both of their bases
    /// to be emptied. The other card changes places with a card of the
    /// pile.
    fn twinned(mut board: Board, rng: &mut ChaCha8Rng) -> Board {
        let p = rng.random_range(0..PILES);
        let extra = board.piles[p].up.split_off(2);
        board.waste.as_mut().expect("a waste").extend(extra);
        let cards = &board.piles[p].up;
        let i = rng.random_range(0..cards.len());
        let card = cards[i];
        let other = cards[(i + 1) % cards.len()];
        let twin = Card::from_index(
            (TWINS[card.index()] & !(1 << card.index())).trailing_zeros() as usize,
        );
        let piles = board.piles.iter_mut().map(|pile| &mut pile.up);
        let talon = [&mut board.waste, &mut board.stock].into_iter().flatten();
        let places: Vec<&mut Card> = piles.chain(talon).flatten().collect();
        if !places.iter().any(|c| **c == twin) {
            return board;
        }
        for c in places {
            *c = match *c {
                c if c == twin => other,
                c if c == other => twin,
                c => c,
            };
        }
        board
    }

    /// Plays up to `steps` random moves of `game` from its start, calling
    /// `visit` at each position with its moves before the picked one is
    /// played; gives the position reached.
    fn random_line(
        game: &Lanes,
        rng: &mut ChaCha8Rng,
        steps: usize,
        mut visit: impl FnMut(&State, &[Step]),
    ) -> State {
        let mut state = game.initial();
        for _ in 0..steps {
            let moves = crate::games::testing::full_moves(game, &state);
            let Some(&next) = moves.get(rng.random_range(0..moves.len().max(1))) else {
                break;
            };
            visit(&state, &moves);
            state = game.play(&state, next);
        }
        state
    }

    /// On crowded positions, half of them with a short pile of two cards
    /// of a rank and colour, that the plain search with the reference rules
    /// decides, every position the test calls a dead end is lost, and the
    /// test finds a good part of the lost ones, some only by the room
    /// their cards need: a test that pruned a win, or that never fired,
    /// would fail here (with a pile's two cards of a rank and colour given
    /// room on one base, it does).
    #[test]
    fn dead_ends_are_lost_and_many_losses_are_dead_ends() {
        let rules = GameKind::Lanes.rules();
        let mut rng = ChaCha8Rng::seed_from_u64(35);
        let (mut won, mut lost, mut dead, mut roomless) = (0, 0, 0, 0);
        let mut tried = 0;
        while won + lost < 200 {
            tried += 1;
            let board = match tried % 2 {
                0 => crowded(&mut rng),
                _ => twinned(crowded(&mut rng), &mut rng),
            };
            rules.validate(&board).expect("a Lanes position");
            let Some(winnable) = plain_search_by(rules, &board, 50_000, in_pile_order) else {
                continue;
            };
            let game = Lanes::new(&board).unwrap();
            let start = game.initial();
            let piles = Piles::of(&game, &start);
            let relaxed = Relaxed::play(&game, &start, &piles, 0);
            let is_dead = cannot_win(&game, &game.initial());
            roomless += relaxed.is_some_and(|r| (0..PILES).any(|p| r.clears(p))) as u32;
            assert!(
                !(winnable && is_dead),
                "a winnable dead end:\n{}",
                board.to_text()
            );
            (won, lost, dead) = (
                won + winnable as u32,
                lost + !winnable as u32,
                dead + is_dead as u32,
            );
        }
        assert!(won >= 20 && lost >= 15, "{won} won, {lost} lost of {tried}");
        assert!(3 * dead >= lost, "{dead} dead ends of {lost} lost");
        assert!(
            roomless >= 3,
            "{roomless} found by the room their cards need"
        );
    }

    /// On crowded positions and a few random moves on, a move that can be
    /// undone leaves the test's answer as it was, dead or not, for the
    /// game's position and for its relaxation: the search skips the test
    /// after such a move (`State::undoable`), which needs that.
    #[test]
    fn an_undoable_move_leaves_the_answer_as_it_was() {
        let mut rng = ChaCha8Rng::seed_from_u64(36);
        let (mut alive, mut dead, mut relaxed_dead) = (0, 0, 0);
        for _ in 0..300 {
            let game = Lanes::new(&twinned(crowded(&mut rng), &mut rng)).unwrap();
            random_line(&game, &mut rng, 12, |&state, moves| {
                for &step in moves {
                    let after = game.play(&state, step);
                    if !after.undoable {
                        continue;
                    }
                    let before = cannot_win(&game, &state);
                    assert_eq!(
                        cannot_win(&game, &after),
                        before,
                        "{step:?} from\n{state:?}"
                    );
                    let [relaxed_before, relaxed_after] =
                        [state, after].map(|s| game.every_member_dead(&game.relax(&s)));
                    assert_eq!(relaxed_after, relaxed_before, "relaxed {step:?}");
                    (alive, dead) = (alive + !before as u32, dead + before as u32);
                    relaxed_dead += relaxed_before as u32;
                }
            });
        }
        assert!(
            alive >= 100 && dead >= 100 && relaxed_dead >= 50,
            "{alive} alive, {dead} dead, {relaxed_dead} dead in the relaxation"
        );
    }

    /// A member's piles mapped from its relaxed position's are those read
    /// from the member itself, its runs rebuilt with the pairs in them
    /// swapped: the same cards in the same places, and the same sets.
    #[test]
    fn mapped_piles_are_the_members_own() {
        let mut rng = ChaCha8Rng::seed_from_u64(38);
        let mut swapped = 0;
        for _ in 0..300 {
            let game = Lanes::new(&twinned(crowded(&mut rng), &mut rng)).unwrap();
            let state = random_line(&game, &mut rng, 12, |_, _| {});
            let runs = game.run_cards(&state);
            let pairs = runs & mirrored(runs);
            let swap = |card: Card| match pairs >> card.index() & 1 {
                1 => super::super::relaxed::twin(card),
                _ => card,
            };
            let mut member = state;
            game.rebuild_runs(&mut member, swap);
            let mapped = Piles::of(&game, &state).map(swap);
            let read = Piles::of(&game, &member);
            for p in 0..PILES {
                assert_eq!(
                    mapped.cards[p][..mapped.len[p]],
                    read.cards[p][..read.len[p]]
                );
            }
            assert_eq!(mapped.sets, read.sets);
            swapped += (pairs != 0) as u32;
        }
        assert!(swapped >= 50, "{swapped} with pairs to swap");
    }

    /// Where the game with every pair of twins in runs standing for
    /// either card finds no pile to empty, the member itself finds none:
    /// the relaxed dead-end test plays that game first and then trusts it
    /// for every member, `state` among them.
    #[test]
    fn a_dead_game_of_twins_is_a_dead_member() {
        let mut rng = ChaCha8Rng::seed_from_u64(39);
        let (mut either_dead, mut member_only) = (0, 0);
        for _ in 0..300 {
            let game = Lanes::new(&twinned(crowded(&mut rng), &mut rng)).unwrap();
            let state = random_line(&game, &mut rng, 12, |_, _| {});
            let runs = game.run_cards(&state);
            let either = runs & mirrored(runs);
            let piles = Piles::of(&game, &state);
            let member = no_member_wins(&game, &state, &piles, 0);
            if no_member_wins(&game, &state, &piles, either) {
                assert!(member, "{state:?}");
                either_dead += 1;
            } else {
                member_only += member as u32;
            }
        }
        assert!(
            either_dead >= 50,
            "{either_dead} dead with twins, {member_only} only as itself"
        );
    }

    /// The sets looked up agree with the cards read one by one, on crowded
    /// positions' talons and piles (a table built a byte off, or a pile's
    /// starting cards counted from the top, would fail here).
    #[test]
    fn card_sets_are_the_cards_read_one_by_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(52);
        for _ in 0..50 {
            let game = Lanes::new(&crowded(&mut rng)).unwrap();
            let state = game.initial();
            for _ in 0..20 {
                let places = rng.random::<u64>() & game.talon.full() as u64;
                let read = talon::places(places as u128)
                    .fold(0, |set: Cards, t| set | 1 << game.talon.card(t).index());
                assert_eq!(game.card_sets.talon(places), read);
            }
            let dealt = (0..PILES).fold(0, |set: Cards, p| {
                let cards = &game.start_cards[p][..state.piles[p].dealt_left()];
                cards.iter().fold(set, |set, card| set | 1 << card.index())
            });
            assert_eq!(game.card_sets.dealt(&state), dealt);
            assert_ne!(dealt, 0);
        }
    }
}
