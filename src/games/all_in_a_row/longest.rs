//! The longest line of a deal: the most cards any line of play gets home,
//! which on a lost deal says how close it came.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::*;
use crate::search::{Limits, Table};

/// A longest line of play, as [`AllInARow::longest_line`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongestLine {
    /// Cards home at the end of the line.
    pub cards_home: u32,
    /// The line, from the deal.
    pub moves: Vec<Move>,
    /// Positions expanded to find it and to show that none gets further.
    pub positions: u64,
    /// Whether the search ended within its limits: only then is no line
    /// longer.
    pub complete: bool,
}

impl AllInARow {
    /// A line of play from the deal that gets the most cards home, or the
    /// first found that gets `most` home: 51 for a deal the solver has
    /// proved lost, where 52 would be a win. Stopped by `limits` (its
    /// `max_nodes` counting positions, its table within `memory`), it gives
    /// the longest line found so far.
    ///
    /// The solver's `best` is the most cards home in the positions it
    /// expanded, and it prunes for wins alone: [`Game::is_dead_end`] cuts
    /// every line that cannot win, however far it gets, so on a lost deal
    /// `best` can fall short. This search takes the moves of
    /// [`Game::moves`], freezes and all (see below), and leaves out a
    /// position only when its cards home and `longest_walk` over its
    /// ranks, a bound on any line from it, come to no more than the best
    /// line found so far. Its table of positions seen is exact: the line to
    /// beat only gets longer, so whatever a position left out the first
    /// time is still out of reach when it is met again.
    ///
    /// The freezes keep a longest line as they keep a win. Take any line
    /// and the first of its moves that `moves` would not offer: it plays a
    /// card `c1` frozen by the move of a same-rank `c2` before the card
    /// under `c2`, or a lone `c2` where a same-rank `c1` was offered before
    /// it. In the first case play `c1` in `c2`'s place and `c2` in `c1`'s,
    /// as `moves` says; in the second the same if the line plays `c1`
    /// later, and otherwise `c1` in place of `c2` (the rest of the line
    /// touches neither pile). The line is as long, unchanged before the
    /// move that now plays `c1`, and there plays a card offered before the
    /// one it played, so the changes, made over and over, end: with a line
    /// as long that `moves` offers all the way.
    pub fn longest_line(&self, most: u32, limits: &Limits) -> LongestLine {
        let mut search = LongestSearch {
            game: self,
            most,
            limits,
            started: Instant::now(),
            stopped: false,
            seen: Table::new(limits.memory),
            walks: vec![0; LONGEST_WALK_CACHE].into_boxed_slice(),
            moves: Vec::new(),
            path: Vec::new(),
            best: 0,
            best_path: Vec::new(),
            positions: 0,
        };
        search.expand(&self.start);
        let mut state = self.start;
        let mut moves = Vec::new();
        for &mv in &search.best_path {
            self.notation(&state, mv, &mut moves);
            state = self.play(&state, mv);
        }
        LongestLine {
            cards_home: search.best,
            moves,
            positions: search.positions,
            complete: !search.stopped,
        }
    }
}

/// Slots in the cache of [`longest_walk`]'s answers: 128 KiB.
const LONGEST_WALK_CACHE: usize = 1 << 14;

/// The depth-first search of [`AllInARow::longest_line`].
struct LongestSearch<'a> {
    game: &'a AllInARow,
    most: u32,
    limits: &'a Limits,
    started: Instant,
    /// A limit stopped the search.
    stopped: bool,
    seen: Table<SpareBitKey<62>>,
    /// [`longest_walk`]'s answers, direct-mapped: each slot the question
    /// (57 bits, as in `walks`) with the answer in bits 57 to 62.
    walks: Box<[u64]>,
    /// The moves of the positions on the path, each after its parent's.
    moves: Vec<Take>,
    /// The moves to the position being expanded.
    path: Vec<Take>,
    best: u32,
    /// The moves to a position with `best` cards home.
    best_path: Vec<Take>,
    positions: u64,
}

impl LongestSearch<'_> {
    fn expand(&mut self, state: &State) {
        let game = self.game;
        self.positions += 1;
        if self.positions.is_multiple_of(1024) {
            self.stopped |= self.out_of_limits();
        }
        let home = game.cards_home(state);
        if home > self.best {
            self.best = home;
            self.best_path.clone_from(&self.path);
        }
        let start = self.moves.len();
        game.moves(state, None, Ask::FULL, &mut self.moves);
        let mut children = [(0, *state); PILES];
        let mut n = 0;
        for &mv in &self.moves[start..] {
            let child = game.play(state, mv);
            children[n] = (self.seen.prefetch(game.key(&child)), child);
            n += 1;
        }
        // The children not seen before that may beat `best`, with their
        // bounds, most promising first (the solver's order on ties).
        let mut fresh = [(0, Take { pile: 0, freeze: 0 }, *state); PILES];
        let mut m = 0;
        for (i, &(hash, child)) in children[..n].iter().enumerate() {
            if !self.seen.insert_hashed(game.key(&child), hash) {
                continue;
            }
            let top = child.top.expect("a move puts a card home");
            let bound = home + 1 + self.longest_walk(child.left, rank_of(top));
            if bound > self.best {
                fresh[m] = (bound, self.moves[start + i], child);
                m += 1;
            }
        }
        self.moves.truncate(start);
        let fresh = &mut fresh[..m];
        fresh.sort_by_key(|&(bound, _, _)| std::cmp::Reverse(bound));
        for &(bound, mv, child) in fresh.iter() {
            if self.best >= self.most || self.stopped {
                return;
            }
            if bound > self.best {
                self.path.push(mv);
                self.expand(&child);
                self.path.pop();
            }
        }
    }

    /// Whether a limit is reached: the positions, the time or a cancel.
    fn out_of_limits(&self) -> bool {
        let limits = self.limits;
        limits.max_nodes.is_some_and(|most| self.positions >= most)
            || limits.timeout.is_some_and(|t| self.started.elapsed() >= t)
            || (limits.cancel.as_ref()).is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// [`longest_walk`], remembered; a walk over all the cards left is
    /// [`AllInARow::walk_exists`]'s question, which it answers sooner.
    fn longest_walk(&mut self, left: RankCounts, at: usize) -> u32 {
        const ANSWER: u32 = 57;
        let question = left.0 | (at as u64) << 52 | 1 << 56;
        let slot = &mut self.walks[(question.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> (64 - LONGEST_WALK_CACHE.trailing_zeros()))
            as usize];
        if *slot & ((1 << ANSWER) - 1) == question {
            return (*slot >> ANSWER) as u32;
        }
        let answer = match self.game.walk_exists(left, at) {
            true => left.to_array().iter().map(|&c| c as u32).sum(),
            false => longest_walk(left.to_array(), at),
        };
        *slot = question | (answer as u64) << ANSWER;
        answer
    }
}

/// The most steps of a walk on the 13-cycle of ranks from rank `at` that
/// lands on each rank `r` at most `counts[r]` times: the most cards a line
/// from a position with those ranks left can get home, were the order of
/// the cards in the piles no hindrance.
///
/// As in [`walk_exists`], a walk ending on `end` is an Euler trail from
/// `at` to `end` over the edges it crosses, edge `r` (between ranks `r`
/// and `r+1`) `t[r]` times. Any crossings are a walk when the degrees
/// `t[r-1] + t[r]` are even but at `at` and `end` (odd there, or all even
/// if they are one rank) and the edges crossed are linked to `at`; rank
/// `r` is then landed on `(t[r-1] + t[r] - [r = at] + [r = end]) / 2`
/// times. On a cycle, edges crossed are linked when they are one run of
/// edges round it (or all 13), and the run reaches `at` when `at`'s
/// degree is more than 0. So the longest walk is the best choice of the
/// `t` one edge at a time round the cycle, remembering only the last `t`,
/// how far the run has got and whether the end has been placed. The cycle
/// is cut at the edge that may be crossed least, whose crossings are tried
/// in turn: mostly an edge next to a rank with no cards left, crossed
/// never.
fn longest_walk(counts: [u8; RANKS], at: usize) -> u32 {
    // The most degree of each rank, with the end elsewhere: each landing
    // comes in over an edge and leaves over one, but the start only leaves
    // (and the end, one less, only comes in).
    let most: [i32; RANKS] = std::array::from_fn(|r| 2 * counts[r] as i32 + (r == at) as i32);
    let most_t: [i32; RANKS] = std::array::from_fn(|r| most[r].min(most[(r + 1) % RANKS]));
    let cut = (0..RANKS).min_by_key(|&r| most_t[r]).expect("13 edges");
    const NONE: i32 = i32::MIN;
    // Crossings of one edge: at most 2 * 4 + 1, next to `at`.
    const T: usize = 10;
    let mut longest = 0;
    for last in 0..=most_t[cut] {
        // Going round from the cut, the edges crossed are, with the cut
        // edge crossed, a run, edges never crossed, and a run back to the
        // cut; without, edges never crossed, a run, edges never crossed.
        // Each part may be empty; `stage` is the part reached.
        let crossed_in = |stage: usize| stage.is_multiple_of(2) == (last > 0);
        // steps[stage][end placed][t of the edge before]: the most steps.
        let mut steps = [[[NONE; T]; 2]; 3];
        steps[0][0][last as usize] = 0;
        for i in 0..RANKS {
            let rank = (cut + 1 + i) % RANKS;
            let mut next = [[[NONE; T]; 2]; 3];
            for (stage, by_placed) in steps.iter().enumerate() {
                for (placed, by_before) in by_placed.iter().enumerate() {
                    for (before, &so_far) in by_before.iter().enumerate() {
                        if so_far == NONE {
                            continue;
                        }
                        for end in 0..2 - placed {
                            // What the degree leaves for this rank's next
                            // edge, used whole but for pairs, so that the
                            // degree keeps its parity.
                            let room = most[rank] - end as i32 - before as i32;
                            if room < 0 {
                                continue;
                            }
                            let (low, high) = match i {
                                12 => (last, last),
                                _ => (0, most_t[rank]),
                            };
                            // A walk that ends where it began must leave.
                            let low = match rank == at && end == 1 {
                                true => low.max(2 - before as i32),
                                false => low,
                            };
                            let high = high.min(room);
                            if low > high {
                                continue;
                            }
                            let mut t = low + (room - low) % 2;
                            while t <= high {
                                let to = match (crossed_in(stage) == (t > 0), stage) {
                                    (true, _) => Some(stage),
                                    (false, 0 | 1) => Some(stage + 1),
                                    (false, _) => None,
                                };
                                if let Some(to) = to {
                                    let slot = &mut next[to][placed + end][t as usize];
                                    *slot = (*slot).max(so_far + t);
                                }
                                t += 2;
                            }
                        }
                    }
                }
            }
            steps = next;
        }
        for by_placed in steps {
            longest = longest.max(by_placed[1][last as usize]);
        }
    }
    longest as u32
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;
    use crate::deal::deal;
    use crate::games::all_in_a_row::tests::small_counts;
    use crate::reference::{Replay, replay};
    use proptest::prelude::*;

    /// Up to four cards of a rank, on a few ranks: edges crossed up to 9
    /// times.
    fn few_ranks() -> impl Strategy<Value = [u8; RANKS]> {
        prop::array::uniform13(prop_oneof![5 => Just(0u8), 1 => 1..=4u8])
    }

    /// A card or two of every rank: no rank the walk must stay off.
    fn every_rank() -> impl Strategy<Value = [u8; RANKS]> {
        prop::array::uniform13(prop_oneof![5 => Just(1u8), 1 => Just(2u8)])
    }

    /// Plain search for the longest rank walk: try every step.
    fn longest_walk_by_search(
        counts: [u8; RANKS],
        at: usize,
        memo: &mut HashMap<([u8; RANKS], usize), u32>,
    ) -> u32 {
        if let Some(&steps) = memo.get(&(counts, at)) {
            return steps;
        }
        let mut longest = 0;
        for next in [(at + 1) % RANKS, (at + RANKS - 1) % RANKS] {
            if counts[next] > 0 {
                let mut rest = counts;
                rest[next] -= 1;
                longest = longest.max(1 + longest_walk_by_search(rest, next, memo));
            }
        }
        memo.insert((counts, at), longest);
        longest
    }

    /// The most cards home over every line, by a search of every position
    /// (heights and the foundation's rank) with every legal move: no
    /// freezes, no bound.
    fn most_home_by_plain_search(game: &AllInARow) -> u32 {
        let key = |state: &State| (state.heights, state.top.map(rank_of));
        let mut seen = HashSet::from([key(&game.start)]);
        let mut todo = vec![game.start];
        let mut most = 0;
        while let Some(state) = todo.pop() {
            most = most.max(game.cards_home(&state));
            for pile in 0..PILES {
                let Some(card) = game.top_card(&state, pile) else {
                    continue;
                };
                if state
                    .top
                    .is_some_and(|top| !adjacent(rank_of(top), rank_of(card)))
                {
                    continue;
                }
                let next = game.play(
                    &state,
                    Take {
                        pile: pile as u8,
                        freeze: 0,
                    },
                );
                if seen.insert(key(&next)) {
                    todo.push(next);
                }
            }
        }
        most
    }

    /// On lost deals whose positions are few, the longest line gets as
    /// many cards home as any, and its moves get them there by the
    /// reference rules.
    #[test]
    fn longest_line_gets_the_most_cards_home() {
        // (deal, most cards home): the solver's best is 31, 41, 38, 37 and
        // 40.
        for (n, most) in [(5, 31), (36, 49), (47, 48), (54, 51), (63, 47)] {
            let board = deal(&LAYOUT, n);
            let game = AllInARow::new(&board).unwrap();
            let line = game.longest_line(52, &Limits::default());
            assert_eq!(line.cards_home, most, "deal {n}");
            assert_eq!(most_home_by_plain_search(&game), most, "deal {n}");
            assert_eq!(
                replay(&AllInARowRules, &board, &line.moves),
                Replay::NotWon {
                    cards_home: most as usize
                },
                "deal {n}"
            );
        }
    }

    /// Deal 4 is lost, and the solver's best is 49; a line gets 51 home,
    /// and the search stops there.
    #[test]
    fn a_lost_deal_gets_51_home() {
        let board = deal(&LAYOUT, 4);
        let game = AllInARow::new(&board).unwrap();
        let line = game.longest_line(51, &Limits::default());
        assert_eq!(line.cards_home, 51);
        assert_eq!(line.moves.len(), 51);
        assert_eq!(
            replay(&AllInARowRules, &board, &line.moves),
            Replay::NotWon { cards_home: 51 }
        );
    }

    /// The King is out of reach from the start, so the solver stops there,
    /// with 46 home; four moves get 50 home. The lone 5S is left out of
    /// the moves (the 5H was offered before it), but the 5H goes as far.
    #[test]
    fn a_dead_end_still_plays_on() {
        let mut text = String::from("Foundations: 4C\n: KD 5H\n: 5S\n: 6D\n: 7C\n: 8H\n");
        text.push_str(&":\n".repeat(PILES - 5));
        let board = Board::parse(&text).unwrap();
        let game = AllInARow::new(&board).unwrap();
        assert!(game.is_dead_end(&game.initial()));
        let line = game.longest_line(52, &Limits::default());
        assert_eq!(line.cards_home, 50);
        assert_eq!(most_home_by_plain_search(&game), 50);
        assert_eq!(
            replay(&AllInARowRules, &board, &line.moves),
            Replay::NotWon { cards_home: 50 }
        );
    }

    /// Stopped by a limit, the search says so, and its line is the
    /// longest found so far (deal 652 takes 691,543 positions to show that
    /// 50 is the most).
    #[test]
    fn a_limit_stops_it_with_the_line_found_so_far() {
        let board = deal(&LAYOUT, 652);
        let game = AllInARow::new(&board).unwrap();
        let limits = Limits {
            max_nodes: Some(5000),
            ..Limits::default()
        };
        let line = game.longest_line(51, &limits);
        assert!(!line.complete);
        assert!(line.positions <= 5000 + 1024, "{}", line.positions);
        assert!(
            line.cards_home <= 50 && line.cards_home >= 40,
            "{}",
            line.cards_home
        );
        assert_eq!(
            replay(&AllInARowRules, &board, &line.moves),
            Replay::NotWon {
                cards_home: line.cards_home as usize
            }
        );
    }

    /// A won deal's longest line is a win.
    #[test]
    fn a_won_deal_gets_all_52_home() {
        let board = deal(&LAYOUT, 1);
        let game = AllInARow::new(&board).unwrap();
        let line = game.longest_line(52, &Limits::default());
        assert_eq!(line.cards_home, 52);
        assert_eq!(replay(&AllInARowRules, &board, &line.moves), Replay::Won);
    }

    proptest! {
        /// The longest walk is the longest a search of every walk finds,
        /// for a few cards of many ranks and for many of a few ranks.
        #[test]
        fn longest_walk_agrees_with_search(
            counts in prop_oneof![small_counts(), few_ranks(), every_rank()],
            at in 0..RANKS,
        ) {
            let claim = longest_walk(counts, at);
            let truth = longest_walk_by_search(counts, at, &mut HashMap::new());
            prop_assert_eq!(claim, truth);
        }
    }
}
