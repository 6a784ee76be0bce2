use std::sync::Arc;

use super::best_first::{BestFirst, Frontier, SharedBestFirst};
use super::memory::MemoryShare;
use super::rounds::PARALLEL_BEAM_FROM;
use super::shared::{self, SharedTable, SharedView};
use super::workers::{Joined, Workers};
use super::*;
use crate::board::{Board, BoardError};
use crate::game::{Ask, Game};
use crate::notation;

mod relaxation;

/// A track of positions `0..=last`, won at `goal` if there is one. On
/// a line it steps either way; on a ring only forward, from `last` back
/// to 0. Narrowed searches may not step forward from `wall`.
/// With `BEST` set, the search tries best-first first, scoring a
/// position by how far along the line or ring it is. With `ROUND` set,
/// the turns' budget grows once a round.
struct Track<const BEST: bool = false, const ROUND: bool = false> {
    last: u64,
    goal: Option<u64>,
    wall: Option<u64>,
    ring: bool,
}

impl<const BEST: bool, const ROUND: bool> Track<BEST, ROUND> {
    fn line(last: u64, goal: u64, wall: u64) -> Track<BEST, ROUND> {
        Track {
            last,
            goal: Some(goal),
            wall: Some(wall),
            ring: false,
        }
    }

    /// Positions `0..=last` on a ring, with no goal and no wall.
    fn ring(last: u64) -> Track<BEST, ROUND> {
        Track {
            last,
            goal: None,
            wall: None,
            ring: true,
        }
    }
}

impl<const BEST: bool, const ROUND: bool> Planned for Track<BEST, ROUND> {
    const PLAN: Plan = Plan {
        exhaustive: match BEST {
            true => Tactic::BestFirst,
            false => Tactic::Full,
        },
        narrowings: &[1, 2],
        first_turn_nodes: 100,
        growth_by_round: ROUND,
        ..Plan::FULL_WALK
    };
}

impl<const BEST: bool, const ROUND: bool> Game for Track<BEST, ROUND> {
    const ACYCLIC: bool = false;
    type State = u64;
    type Key = u64;
    type Move = u64;

    fn new(_: &Board) -> Result<Track<BEST, ROUND>, BoardError> {
        Err(BoardError::whole("a walk is built by hand"))
    }
    fn initial(&self) -> u64 {
        0
    }
    fn key(&self, &at: &u64) -> u64 {
        at + 1
    }
    fn is_won(&self, &at: &u64) -> bool {
        self.goal == Some(at)
    }
    fn cards_home(&self, &at: &u64) -> u32 {
        at as u32
    }
    fn score(&self, &at: &u64) -> i32 {
        at as i32
    }
    fn moves(&self, &at: &u64, _: Option<u64>, ask: Ask, out: &mut Vec<u64>) {
        let forward = match (at < self.last, self.ring) {
            (true, _) => Some(at + 1),
            (false, true) => Some(0),
            (false, false) => None,
        };
        if let Some(next) = forward
            && (ask.narrowing == 0 || self.wall != Some(at))
        {
            out.push(next);
        }
        if !self.ring && at > 0 {
            out.push(at - 1);
        }
    }
    fn play(&self, _: &u64, to: u64) -> u64 {
        to
    }
    fn notation(&self, _: &u64, _: u64, _: &mut Vec<notation::Move>) {}
    fn to_board(&self, _: &u64) -> Board {
        Board::default()
    }
}

fn solve_walk(walk: Track, memory: usize) -> Report {
    solve(&walk, &Limits::default(), &mut Tables::new(memory))
}

#[test]
fn turns_take_each_attempt_up_where_it_stopped() {
    // The full walk runs out after 100 nodes; level 1 after 300 (the
    // wall is 301 positions in); level 2 ends at the wall with 301,
    // and is dropped with level 1; the full walk goes on from where it
    // stopped to the goal, 350 nodes later. Starting it afresh would
    // take 450.
    let report = solve_walk(Track::line(500, 450, 300), 1 << 20);
    assert_eq!(report.verdict, Verdict::Won);
    assert_eq!(report.turns, 4);
    assert_eq!(report.nodes, 100 + 300 + 301 + 350);
}

#[test]
fn turns_grow_by_round_when_the_game_asks() {
    // Each of the three walks has 100 nodes, then 300 each: the
    // narrowed ones stop one short of their wall (301 positions in);
    // then the full walk, with 900, goes on from 300 to the goal at
    // 450. Growing at every turn, the second walk's 300 and the third's
    // 900 would have ended both at the wall (4 turns, 1051 nodes).
    let walk: Track<false, true> = Track::line(500, 450, 300);
    let report = solve(&walk, &Limits::default(), &mut Tables::new(1 << 20));
    assert_eq!(report.verdict, Verdict::Won);
    assert_eq!(report.turns, 7);
    assert_eq!(report.nodes, 3 * 100 + 3 * 200 + 150);
}

#[test]
fn a_narrowed_walk_that_ends_proves_nothing() {
    let report = solve_walk(Track::line(500, 600, 300), 1 << 20);
    assert_eq!(report.verdict, Verdict::Lost);
    assert_eq!(report.nodes, 100 + 300 + 301 + 401, "the full walk decides");
}

fn solve_guided(walk: Track<true>) -> Report {
    solve(&walk, &Limits::default(), &mut Tables::new(1 << 20))
}

#[test]
fn a_best_first_attempt_comes_first_and_makes_every_move() {
    // The wall that stops the narrowed walks does not stop it.
    let report = solve_guided(Track::line(50, 40, 20));
    assert_eq!(report.verdict, Verdict::Won);
    assert_eq!(report.turns, 1);
    assert_eq!(report.moves.len(), 0, "a walk's moves print as nothing");
}

#[test]
fn a_best_first_attempt_that_expands_everything_proves_a_loss() {
    let report = solve_guided(Track::line(50, 60, 20));
    assert_eq!(report.verdict, Verdict::Lost);
    assert_eq!(report.turns, 1);
}

#[test]
fn best_first_has_twice_the_nodes_and_takes_turns_with_narrowed_walks() {
    // Best-first runs out at 200 nodes; level 1 ends at the wall, 21
    // positions in, and level 2, with 900 nodes, after it in the same
    // round; both are dropped once the round is over, and best-first,
    // with 5400 nodes, goes on from where it stopped to expand 1500
    // positions in all, the last one's child being the goal.
    let report = solve_guided(Track::line(5000, 1500, 20));
    assert_eq!(report.verdict, Verdict::Won);
    assert_eq!(report.turns, 4);
    assert_eq!(report.nodes, 1500 + 21 + 21);
}

#[test]
fn a_best_first_attempt_past_its_memory_gives_up() {
    let walk: Track<true> = Track::line(100_000, 100_000, 0);
    let limits = Limits::default();
    let mut search = Search::new(&walk, &Plan::FULL_WALK, &limits);
    let mut table = Table::new(1 << 20);
    table.insert(walk.key(&0));
    let mut best_first = BestFirst::new(0, 4096);
    assert!(matches!(
        best_first.resume(&mut search, &mut table),
        End::OutOfRoom
    ));
    assert!(search.nodes < 100_000);
}

/// Two lines from position 0 to 5, whose move to 6 sends the one card
/// home and wins: the first move starts the long line, 0 1 2 3 4 5, the
/// second the short one, 0 10 4 5. No other move sends a card home.
struct Ladder;

impl Planned for Ladder {
    const PLAN: Plan = Plan::FULL_WALK;
}

impl Game for Ladder {
    const ACYCLIC: bool = true;
    type State = u64;
    type Key = u64;
    type Move = u64;

    fn new(_: &Board) -> Result<Ladder, BoardError> {
        Err(BoardError::whole("a ladder is built by hand"))
    }
    fn initial(&self) -> u64 {
        0
    }
    fn key(&self, &at: &u64) -> u64 {
        at + 1
    }
    fn is_won(&self, &at: &u64) -> bool {
        at == 6
    }
    fn cards_home(&self, &at: &u64) -> u32 {
        u32::from(at == 6)
    }
    fn score(&self, _: &u64) -> i32 {
        0
    }
    fn moves(&self, &at: &u64, _: Option<u64>, _: Ask, out: &mut Vec<u64>) {
        let to: &[u64] = match at {
            0 => &[1, 10],
            1..=4 => &[at + 1],
            10 => &[4],
            5 => &[6],
            _ => &[],
        };
        out.extend(to);
    }
    fn play(&self, _: &u64, to: u64) -> u64 {
        to
    }
    fn notation(&self, _: &u64, to: u64, out: &mut Vec<notation::Move>) {
        out.push(tree::Tree::step(to));
    }
    fn to_board(&self, _: &u64) -> Board {
        Board::default()
    }
}

fn solve_ladder(horizon: u32) -> Report {
    let mut tables = Tables::new(1 << 20);
    solve_alone(
        &Ladder,
        &Limits::default(),
        &mut tables,
        Tactic::Horizon(horizon),
    )
}

/// The long line reaches 4 four moves past the start; past a horizon of
/// three the walk leaves 4 out of its table too, and takes the short line
/// through it. Were 4 tabled there, the walk would end without the win.
#[test]
fn a_horizon_walk_cuts_long_lines_and_takes_the_short_ones() {
    let report = solve_ladder(3);
    assert_eq!(report.verdict, Verdict::Won);
    assert_eq!(report.moves, [10, 4, 5, 6].map(tree::Tree::step));
    // Both lines run three moves without a card home before 5: a horizon
    // of two ends without the win, and proves nothing.
    let report = solve_ladder(2);
    assert_eq!(report.verdict, Verdict::Unknown);
    assert_eq!(report.stop, Some(Stop::Narrowed));
}

#[test]
fn a_tactic_is_named_as_tactic_takes_it() {
    let all = [
        Tactic::BestFirst,
        Tactic::Full,
        Tactic::Narrowed(3),
        Tactic::Horizon(5),
        Tactic::Beam(2),
        Tactic::Relaxed,
    ];
    for tactic in all {
        assert_eq!(tactic.to_string().parse::<Tactic>(), Ok(tactic));
    }
    // A walk counts a line's moves since a card went home in a byte.
    assert_eq!("horizon-255".parse(), Ok(Tactic::Horizon(255)));
    for wrong in ["horizon-0", "horizon-256"] {
        let error = wrong.parse::<Tactic>().unwrap_err();
        assert!(error.contains("1 to 255 moves"), "{error}");
    }
}

#[test]
fn the_tactics_share_the_tables_cap() {
    let mut tables = Tables::<u64>::new(1 << 20);
    let walk: Track = Track::line(500, 450, 300);
    let report = solve(&walk, &Limits::default(), &mut tables);
    assert_eq!(tables.split(3).len(), 3, "one table a tactic");
    assert!(report.table_bytes <= 1 << 20);
    let kept: usize = tables.split(3).iter().map(Table::cap).sum();
    assert_eq!(kept, 3 * ((1 << 20) / 3));
}

#[test]
fn a_path_longer_than_the_cap_stops_each_walk_in_turn() {
    // A path of a million positions takes over 64 MiB: more than a
    // 1 MiB table allows, less than a 1 GiB one. The full walk gives
    // up first, and the narrowed ones, free of their wall here, go on
    // until they give up too.
    let long = || Track::line(1_000_000, 1_000_000, 1_000_000);
    let cramped = solve_walk(long(), 1 << 20);
    assert_eq!(cramped.verdict, Verdict::Unknown);
    assert_eq!(cramped.stop, Some(Stop::Memory));
    let full = solve_alone(
        &long(),
        &Limits::default(),
        &mut Tables::new(1 << 20),
        Tactic::Full,
    );
    assert_eq!(full.stop, Some(Stop::Memory));
    assert!(
        cramped.nodes > 2 * full.nodes,
        "{} {}",
        cramped.nodes,
        full.nodes
    );
    assert_eq!(solve_walk(long(), 1 << 30).verdict, Verdict::Won);
}

/// Shared walks that all run out of room say so, on one thread as on
/// two: the one walk that may leave unfinished leaves no walk that can
/// prove a loss when it is alone.
#[test]
fn shared_walks_out_of_room_stop_for_memory() {
    for threads in [1, 2] {
        let long = Track::line(1_000_000, 1_000_000, 1_000_000);
        let report = solve_walk_on(long, threads, 1 << 20);
        assert_eq!(report.verdict, Verdict::Unknown);
        assert_eq!(report.stop, Some(Stop::Memory), "{threads} threads");
    }
}

/// A beam's turn taken in parallel with the full walk's, in a round long
/// enough for it (on a machine of two cores or more), gives what the
/// turns one after the other give: the walk's win, found in its turn,
/// with the beam's turn stopped and its nodes not counted (a leaf on the
/// left of a tree 22 deep, which the beam finds too); the beam's win,
/// once the walk's turn is over (the start's right child, which the walk
/// reaches only after the left half of the tree).
#[test]
fn a_parallel_beam_decides_as_after_the_walk() {
    for goal in [(1 << 22) + 3, 3] {
        let tree = tree::Tree {
            depth: 22,
            goal: Some(goal),
        };
        let turns = |pooled: bool| {
            let mut tables = Tables::new(1 << 26);
            if pooled {
                tables = tables.in_pool();
            }
            let tactics = vec![Tactic::Full, Tactic::Beam(1)];
            take_turns(
                &tree,
                &Plan::FULL_WALK,
                &Limits::default(),
                &mut tables,
                tactics,
                PARALLEL_BEAM_FROM,
                None,
            )
        };
        let (after, parallel) = (turns(false), turns(true));
        assert_eq!(after.verdict, Verdict::Won);
        let summary = |r: &Report| (r.nodes, r.turns, r.decided_by, r.moves.clone());
        assert_eq!(summary(&parallel), summary(&after), "goal {goal}");
    }
}

#[test]
fn a_narrowed_walk_goes_on_to_win_when_the_full_walk_is_out_of_room() {
    // With 100 MiB of room a walk's path gives out about 1.05M
    // positions deep (its vectors double there), short of the goal.
    // The first walk to get that deep gives up, and the two left,
    // free of their wall here, get 150 MiB each and go on to win.
    let report = solve_walk(Track::line(9_000_000, 1_500_000, 9_000_000), 300 << 20);
    assert_eq!(report.verdict, Verdict::Won, "{:?}", report.stop);
}

/// A table of a few thousand positions has long forgotten the start
/// when the walk comes round the ring to it; only the path guard then
/// knows the start is on the path. Without it the walk would go round
/// again and again, until the path outgrew its cap.
#[test]
fn the_path_guard_ends_a_cycle_the_table_forgot() {
    let ring = Track::ring(199_999);
    let report = solve_walk(ring, 64 << 10);
    assert_eq!(report.verdict, Verdict::Lost, "{:?}", report.stop);
}
fn solve_walk_on(walk: Track, threads: usize, memory: usize) -> Report {
    let limits = Limits {
        memory,
        ..Limits::default()
    };
    solve_parallel(&walk, &limits, threads, Some(Tactic::Full))
}

/// A search tells its progress as it goes: on one thread and on two,
/// the nodes told fall short of the report's by less than a check's
/// worth a thread, and the most cards home is the report's, or close.
#[test]
fn a_search_tells_how_far_it_got() {
    for threads in [1, 2] {
        let progress = Arc::new(Progress::default());
        let limits = Limits {
            progress: Some(progress.clone()),
            ..Limits::default()
        };
        let line = Track::<true>::line(50_000, 60_000, 50_000);
        let report = match threads {
            1 => solve(&line, &limits, &mut Tables::new(limits.memory)),
            _ => solve_parallel(&line, &limits, threads, None),
        };
        assert_eq!(report.verdict, Verdict::Lost);
        let told = progress.nodes();
        assert!(told <= report.nodes, "{told} of {}", report.nodes);
        assert!(told + threads as u64 * CHECK_EVERY > report.nodes, "{told}");
        assert!(progress.best() <= report.best);
        assert!(progress.best() + CHECK_EVERY as u32 >= report.best);
    }
}

/// The walks on several threads share the line: each is won where the
/// goal is, and lost without one.
#[test]
fn walks_on_several_threads_find_the_goal_or_prove_there_is_none() {
    for threads in [2, 3, 4] {
        let won = solve_walk_on(Track::line(5000, 4000, 5000), threads, 1 << 20);
        assert_eq!(won.verdict, Verdict::Won);
        let lost = solve_walk_on(Track::line(5000, 6000, 5000), threads, 1 << 20);
        assert_eq!(lost.verdict, Verdict::Lost);
        assert!(lost.nodes >= 5001, "every position expanded");
    }
}

/// As [`the_path_guard_ends_a_cycle_the_table_forgot`], with the walks
/// on two threads sharing the small table.
#[test]
fn the_path_guard_ends_a_cycle_the_shared_table_forgot() {
    let ring = Track::ring(199_999);
    let report = solve_walk_on(ring, 2, 64 << 10);
    assert_eq!(report.verdict, Verdict::Lost, "{:?}", report.stop);
}

/// A node limit holds over all the threads together.
#[test]
fn the_node_limit_counts_every_thread() {
    let limits = Limits {
        max_nodes: Some(3001),
        ..Limits::default()
    };
    let line: Track = Track::line(1_000_000, 900_000, 1_000_000);
    let report = solve_parallel(&line, &limits, 2, None);
    assert_eq!(report.stop, Some(Stop::MaxNodes));
    assert!(report.nodes <= 3001, "{}", report.nodes);
}

/// The workers of `walks` shared walks of the test game, their table
/// capped at 64 KiB.
fn workers(walks: usize) -> Workers<Track> {
    let table = SharedTable::new(1 << 16);
    Workers::new(walks, Some(Tactic::Full), walks, table, None)
}

/// A thread's own tables and the workers' table never hold more than its
/// share: the workers' table takes the share of each table that ends, up
/// to as much as each left has, and the whole once none is; but not a
/// part too small for its table to grow into, until the last.
#[test]
fn a_thread_gives_the_workers_the_share_of_its_tables_that_end() {
    const MIB: usize = 1 << 20;
    // Gives, then says what the workers' table was given and each table
    // keeps.
    let give = |workers: &Workers<Track>, memory: &mut MemoryShare, own, sharing| {
        memory.give(workers, own, sharing);
        ((workers.table.cap() - (1 << 16)) / MIB, memory.each / MIB)
    };
    let (two, mut four) = (workers(2), MemoryShare::new(300 * MIB, 4));
    assert_eq!(give(&two, &mut four, 4, true), (0, 75), "nothing ended");
    assert_eq!(give(&two, &mut four, 3, true), (75, 75));
    assert_eq!(
        give(&two, &mut four, 1, true),
        (150, 150),
        "as much as the one left"
    );
    assert_eq!(give(&two, &mut four, 1, true), (150, 150), "given once");
    assert_eq!(give(&two, &mut four, 0, true), (300, 0));

    let (two, mut left) = (workers(2), MemoryShare::new(300 * MIB, 3));
    assert_eq!(
        give(&two, &mut left, 2, false),
        (0, 150),
        "a thread whose walk left keeps it"
    );
    assert_eq!(give(&two, &mut left, 0, false), (300, 0));

    let two = workers(2);
    let mut small = MemoryShare::new(300, 3);
    small.give(&two, 2, true);
    assert_eq!(
        (two.table.cap(), small.each),
        (1 << 16, 100),
        "too small to grow into"
    );
    small.give(&two, 0, true);
    assert_eq!(two.table.cap(), (1 << 16) + 300, "the last part");
}

/// One shared walk may leave unfinished, never a second; the deal is
/// lost once every walk ended, or all but the one that left, and never on
/// a leaving alone.
#[test]
fn one_shared_walk_may_leave() {
    let three = workers(3);
    assert_eq!(three.leave(Tactic::Full, 0), Some(false));
    assert_eq!(three.leave(Tactic::Full, 0), None, "a second walk stays");
    assert!(!three.walk_ended(Tactic::Full, 0));
    assert!(three.walk_ended(Tactic::Full, 0));

    let two = workers(2);
    assert!(!two.walk_ended(Tactic::Full, 0));
    assert_eq!(
        two.leave(Tactic::Full, 0),
        Some(true),
        "the other walk had ended"
    );

    let lone = workers(1);
    assert_eq!(
        lone.leave(Tactic::Full, 0),
        Some(false),
        "no walk ended: not lost"
    );
    let lone = workers(1);
    assert!(lone.walk_ended(Tactic::Full, 0));
}

/// The relaxed walks of a refinement, and the full walks that take the
/// relaxed walks' place, count among themselves, each from when it joins:
/// the one that joined and ended proves the loss alone, where two must
/// both end (or one leave); a walk of a refinement left behind counts for
/// nothing, and joins the workers' walk of now.
#[test]
fn walks_after_the_relaxation_is_won_count_from_when_they_join() {
    let relaxing = || {
        let table = SharedTable::new(1 << 16);
        Workers::<Track>::new(2, Some(Tactic::Relaxed), 2, table, None)
    };
    let two = relaxing();
    assert!(
        !two.walk_ended(Tactic::Relaxed, 0),
        "one relaxed walk of two"
    );
    assert!(matches!(
        two.refine(0, Some(7), vec![1, 7]),
        Joined::Relaxed(7, 1, _)
    ));
    assert_eq!(two.generation(), 1);
    assert!(!two.walk_ended(Tactic::Relaxed, 0), "left behind");
    assert!(two.walk_ended(Tactic::Relaxed, 1), "the one that joined");

    let two = relaxing();
    assert!(matches!(
        two.refine(0, Some(7), vec![1, 7]),
        Joined::Relaxed(7, 1, _)
    ));
    assert!(
        matches!(two.refine(0, Some(8), vec![2, 8]), Joined::Relaxed(7, 1, guide) if guide == [1, 7]),
        "refined by the other walk first, which it follows"
    );
    assert!(
        !two.walk_ended(Tactic::Relaxed, 1),
        "one of the two that joined"
    );
    assert!(matches!(two.refine(1, None, vec![3]), Joined::Full(guide) if guide == [3]));
    assert_eq!(two.generation(), 2);
    assert!(
        two.walk_ended(Tactic::Full, 0),
        "the one full walk that joined"
    );

    let two = relaxing();
    assert!(matches!(two.refine(0, None, vec![4]), Joined::Full(_)));
    assert!(
        matches!(two.refine(0, Some(7), vec![1, 7]), Joined::Full(guide) if guide == [4]),
        "no way back"
    );
    assert!(!two.walk_ended(Tactic::Full, 0));
    assert_eq!(two.leave(Tactic::Relaxed, 0), Some(false), "left behind");
    assert_eq!(
        two.leave(Tactic::Full, 0),
        Some(true),
        "the other full walk ended"
    );
}

/// Walks on several threads in a table that forgets at once: all but
/// one ask to leave, one does, and the verdicts stay those of the line
/// and the ring, time after time (the threads interleave differently
/// each run).
#[test]
fn a_walk_that_leaves_a_forgetting_table_keeps_the_verdicts() {
    let ring = || Track::ring(49_999);
    for run in 0..10 {
        let threads = 2 + run % 3;
        let won = solve_walk_on(Track::line(50_000, 40_000, 50_000), threads, 16 << 10);
        assert_eq!(won.verdict, Verdict::Won, "{threads} threads");
        let lost = solve_walk_on(Track::line(50_000, 60_000, 50_000), threads, 16 << 10);
        assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
        let lost = solve_walk_on(ring(), threads, 16 << 10);
        assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
    }
}

/// Best-first search shared by several threads, as Raglan's is: the
/// line is won where the goal is and lost without one, and the ring
/// lost, on two to four threads, time after time; with the game's
/// tactics, the narrowed walks taking turns on some threads.
#[test]
fn a_best_first_search_shared_by_several_threads_keeps_the_verdicts() {
    let ring = Track::<true>::ring(9_999);
    for run in 0..6 {
        let threads = 2 + run % 3;
        let limits = Limits::default();
        for tactic in [Some(Tactic::BestFirst), None] {
            let solve = |walk: &Track<true>| solve_parallel(walk, &limits, threads, tactic);
            let won = solve(&Track::line(10_000, 9_000, 20));
            assert_eq!(won.verdict, Verdict::Won, "{threads} threads");
            let lost = solve(&Track::line(10_000, 20_000, 20));
            assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
            assert!(lost.nodes >= 10_001, "every position expanded");
            let lost = solve(&ring);
            assert_eq!(lost.verdict, Verdict::Lost, "{threads} threads");
        }
    }
}

/// A shared best-first search past its room stops on every thread, and
/// the last member to leave empties the table, none before.
#[test]
fn a_full_shared_best_first_search_empties_its_table_for_the_walks() {
    let walk: Track<true> = Track::line(100_000, 100_000, 0);
    let limits = Limits::default();
    let table = SharedTable::<u64>::new(1 << 20);
    let visit = |key: u64| SharedView::new(&table).visit(key, key.table_hash());
    visit(walk.key(&0));
    let frontier = Frontier::new(&walk, 0, 2);
    let mut search = Search::new(&walk, &Plan::FULL_WALK, &limits);
    let mut second = SharedBestFirst::new(1, 1 << 30);
    search.turn_end = 10;
    let end = second.resume(&mut search, &frontier, &mut SharedView::new(&table));
    assert!(matches!(end, End::OutOfNodes), "a member now");
    search.turn_end = u64::MAX;
    let mut first = SharedBestFirst::new(0, 4096);
    let end = first.resume(&mut search, &frontier, &mut SharedView::new(&table));
    assert!(matches!(end, End::OutOfRoom));
    assert!(search.nodes < 100_000);
    first.quit(&frontier, &table);
    assert_ne!(
        visit(walk.key(&1)),
        shared::Visit::Fresh,
        "kept while a member is in"
    );
    let end = second.resume(&mut search, &frontier, &mut SharedView::new(&table));
    assert!(matches!(end, End::OutOfRoom), "the search is full for all");
    second.quit(&frontier, &table);
    assert!(frontier.wait_emptied(&search).is_ok());
    assert_eq!(
        visit(walk.key(&1)),
        shared::Visit::Fresh,
        "the table forgot the search's positions"
    );
}

/// A beam with the most nodes it may take (`Plan::beam_nodes`) leaves the
/// schedule once it has taken them, and the full walk goes on alone to
/// prove the loss; without the cap the beam keeps its share of every
/// round to the end. On a tree with no goal, the walk takes every
/// position, and what is over is the beam's.
#[test]
fn a_beam_leaves_once_it_has_taken_its_most_nodes() {
    let tree = tree::Tree {
        depth: 14,
        goal: None,
    };
    let beam_nodes = |most: Option<u64>| {
        let plan = Plan {
            beam_nodes: most,
            growth_by_round: true,
            ..Plan::FULL_WALK
        };
        let tactics = vec![Tactic::Full, Tactic::Beam(1)];
        let mut tables = Tables::new(1 << 26);
        let report = take_turns(
            &tree,
            &plan,
            &Limits::default(),
            &mut tables,
            tactics,
            100,
            None,
        );
        assert_eq!(report.verdict, Verdict::Lost);
        report.nodes - tree.size()
    };
    let (capped, uncapped) = (beam_nodes(Some(1000)), beam_nodes(None));
    assert!((1000..1100).contains(&capped), "{capped}");
    assert!(uncapped > 10_000, "{uncapped}");
}
