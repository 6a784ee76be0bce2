//! The search on several threads: walks sharing a table, the workers'
//! memory shares, and walks that leave or join.

use std::sync::Arc;

use super::super::best_first::{Frontier, SharedBestFirst};
use super::super::memory::MemoryShare;
use super::super::shared::{self, SharedTable, SharedView};
use super::super::workers::{Joined, Workers};
use super::super::*;
use super::{Track, solve_walk_on};
use crate::game::Game;

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
