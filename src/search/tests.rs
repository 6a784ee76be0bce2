use super::best_first::BestFirst;
use super::rounds::PARALLEL_BEAM_FROM;
use super::*;
use crate::board::{Board, BoardError};
use crate::game::{Ask, Game};
use crate::notation;

mod relaxation;
mod threads;

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

/// The full walk alone on `walk`, on `threads` threads sharing `memory`.
fn solve_walk_on(walk: Track, threads: usize, memory: usize) -> Report {
    let limits = Limits {
        memory,
        ..Limits::default()
    };
    solve_parallel(&walk, &limits, threads, Some(Tactic::Full))
}
