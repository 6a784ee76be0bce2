//! The relaxed walk's refinements, on a test game whose relaxation has
//! shortcuts to a win.

use super::super::*;
use crate::board::{Board, BoardError};
use crate::game::{Ask, Game};
use crate::notation;

/// Positions `0..=last` on a line, stepping either way, never won. Its
/// relaxation (positions with `RELAXED` set) also jumps to a win from
/// position `50 + 100 j`, for each shortcut `j` not yet taken away (a
/// bit each above `GONE`): a win by a line that is not the game's. A
/// refinement takes away the shortcut its winning line took, while at
/// most `most` are gone.
struct Shortcuts {
    last: u64,
    most: u32,
}

const RELAXED: u64 = 1 << 62;
const WON: u64 = 1 << 61;
const GONE: u32 = 32;
const AT: u64 = (1 << GONE) - 1;

impl Planned for Shortcuts {
    const PLAN: Plan = Plan {
        exhaustive: Tactic::Relaxed,
        refinements: 5,
        first_turn_nodes: 100,
        ..Plan::FULL_WALK
    };
}

impl Game for Shortcuts {
    const ACYCLIC: bool = false;
    type State = u64;
    type Key = u64;
    type Move = u64;

    fn new(_: &Board) -> Result<Shortcuts, BoardError> {
        Err(BoardError::whole("built by hand"))
    }
    fn initial(&self) -> u64 {
        0
    }
    fn key(&self, &state: &u64) -> u64 {
        state + 1
    }
    fn is_won(&self, &state: &u64) -> bool {
        state & WON != 0
    }
    fn cards_home(&self, &state: &u64) -> u32 {
        (state & AT) as u32
    }
    fn moves(&self, &state: &u64, _: Option<u64>, _: Ask, out: &mut Vec<u64>) {
        let at = state & AT;
        if at < self.last {
            out.push(state + 1);
        }
        if at > 0 {
            out.push(state - 1);
        }
        let gone = state >> GONE & 0xffff;
        if state & RELAXED != 0 && at % 100 == 50 && gone >> (at / 100) & 1 == 0 {
            out.push(state | WON);
        }
    }
    fn play(&self, _: &u64, to: u64) -> u64 {
        to
    }
    fn relaxed(&self, &state: &u64) -> Option<u64> {
        Some(state | RELAXED)
    }
    fn is_game_line(&self, line: &[u64]) -> bool {
        !line.iter().any(|&to| to & WON != 0)
    }
    fn refined(&self, &root: &u64, line: &[u64]) -> Option<u64> {
        let shortcut = line.iter().find(|&&to| to & WON != 0)?;
        let refined = root | 1 << (GONE as u64 + (shortcut & AT) / 100);
        ((refined >> GONE & 0xffff).count_ones() <= self.most).then_some(refined)
    }
    fn notation(&self, _: &u64, _: u64, _: &mut Vec<notation::Move>) {}
    fn to_board(&self, _: &u64) -> Board {
        Board::default()
    }
}

/// The verdict, the tactic that decided and the stop of `game` searched
/// by its plan on `threads` threads, or by the relaxed walk alone.
fn verdicts(
    game: &Shortcuts,
    threads: usize,
    alone: bool,
) -> (Verdict, Option<Tactic>, Option<Stop>) {
    let limits = Limits::default();
    let tactic = alone.then_some(Tactic::Relaxed);
    let report = match threads {
        1 => match tactic {
            Some(tactic) => solve_alone(game, &limits, &mut Tables::new(1 << 20), tactic),
            None => solve(game, &limits, &mut Tables::new(1 << 20)),
        },
        _ => solve_parallel(game, &limits, threads, tactic),
    };
    (report.verdict, report.decided_by, report.stop)
}

/// Each refinement takes away the shortcut the last relaxed walk won by,
/// the deepest left (a walk goes forward first): after all four of a
/// line to 400, the relaxed walk proves the loss itself, on one thread or
/// several, in its plan or alone.
#[test]
fn the_relaxed_walk_refined_until_it_proves_the_loss() {
    let game = Shortcuts {
        last: 400,
        most: 10,
    };
    for threads in [1, 2, 3] {
        for alone in [false, true] {
            let lost = (Verdict::Lost, Some(Tactic::Relaxed), None);
            assert_eq!(verdicts(&game, threads, alone), lost, "{threads} threads");
        }
    }
}

/// Past the refinements the plan allows (5 of the 10 of a line to 1000),
/// or those the game has (3), the full walk takes the relaxed walk's place
/// and proves the loss. Alone, the relaxed walk walks every refinement
/// the game has: it proves the loss after ten, and stops after three.
#[test]
fn the_full_walk_takes_over_past_the_last_refinement() {
    for most in [10, 3] {
        let game = Shortcuts { last: 1000, most };
        for threads in [1, 2, 3] {
            let lost = (Verdict::Lost, Some(Tactic::Full), None);
            assert_eq!(verdicts(&game, threads, false), lost, "{threads} threads");
            let alone = match most {
                10 => (Verdict::Lost, Some(Tactic::Relaxed), None),
                _ => (Verdict::Unknown, None, Some(Stop::Relaxed)),
            };
            assert_eq!(verdicts(&game, threads, true), alone, "{threads} threads");
        }
    }
}

/// Positions `0..=last` on a line, starting at `start`, stepping back
/// first, won at `last`. Its relaxation also jumps to a win from
/// `start + 10`, tried first there; its one refinement has no jump. The
/// walks after the relaxation's win follow its line forward to the jump
/// and go on to `last`, not back to 0 first. With `REFINEMENTS` 0 the full
/// walk takes over at once.
struct Detour<const REFINEMENTS: u32> {
    start: u64,
    last: u64,
}

const JUMPED: u64 = 1 << 60;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Back,
    Forward,
    Jump,
}

impl<const REFINEMENTS: u32> Planned for Detour<REFINEMENTS> {
    const PLAN: Plan = Plan {
        exhaustive: Tactic::Relaxed,
        refinements: REFINEMENTS,
        first_turn_nodes: 100,
        ..Plan::FULL_WALK
    };
}

impl<const REFINEMENTS: u32> Game for Detour<REFINEMENTS> {
    const ACYCLIC: bool = false;
    type State = u64;
    type Key = u64;
    /// Back, forward, or the jump: the same moves in each relaxation.
    type Move = Step;

    fn new(_: &Board) -> Result<Detour<REFINEMENTS>, BoardError> {
        Err(BoardError::whole("built by hand"))
    }
    fn initial(&self) -> u64 {
        self.start
    }
    fn key(&self, &state: &u64) -> u64 {
        state
    }
    fn is_won(&self, &state: &u64) -> bool {
        state & JUMPED != 0 || state & AT == self.last
    }
    fn cards_home(&self, &state: &u64) -> u32 {
        (state & AT) as u32
    }
    fn moves(&self, &state: &u64, _: Option<Step>, _: Ask, out: &mut Vec<Step>) {
        let at = state & AT;
        if state & RELAXED != 0 && state & WON == 0 && at == self.start + 10 {
            out.push(Step::Jump);
        }
        if at > 0 {
            out.push(Step::Back);
        }
        if at < self.last {
            out.push(Step::Forward);
        }
    }
    fn play(&self, &state: &u64, step: Step) -> u64 {
        match step {
            Step::Back => state - 1,
            Step::Forward => state + 1,
            Step::Jump => state | JUMPED,
        }
    }
    fn relaxed(&self, &state: &u64) -> Option<u64> {
        Some(state | RELAXED)
    }
    fn is_game_line(&self, line: &[Step]) -> bool {
        !line.contains(&Step::Jump)
    }
    // `WON` marks the refinement: the relaxation without its jump.
    fn refined(&self, &root: &u64, _: &[Step]) -> Option<u64> {
        (root & WON == 0).then_some(root | WON)
    }
    fn notation(&self, _: &u64, _: Step, _: &mut Vec<notation::Move>) {}
    fn to_board(&self, _: &u64) -> Board {
        Board::default()
    }
}

/// After the relaxation's win by its jump, the refined walk, or the full
/// walk taking over, follows that line and wins on the way past it: the
/// positions from `start` to `last` and the relaxed walk's own, not the
/// way back to 0 as well.
#[test]
fn the_walks_after_a_relaxed_win_follow_its_line() {
    fn report<const REFINEMENTS: u32>() -> Report {
        let game = Detour::<REFINEMENTS> {
            start: 5000,
            last: 6000,
        };
        solve(&game, &Limits::default(), &mut Tables::new(1 << 24))
    }
    let refined = report::<1>();
    assert_eq!(refined.verdict, Verdict::Won);
    assert_eq!(refined.decided_by, Some(Tactic::Relaxed));
    let full = report::<0>();
    assert_eq!(full.verdict, Verdict::Won);
    assert_eq!(full.decided_by, Some(Tactic::Full));
    for report in [refined, full] {
        // The relaxed walk goes back to 0 before it comes to the jump.
        assert!(
            (6000..7200).contains(&report.nodes),
            "{} positions",
            report.nodes
        );
    }
}

/// Positions `0..=last` on a line, never won, starting at 0. Its
/// relaxation also warps from 3 to positions `1000..=1010` (`WARPED`),
/// where the line goes on but no line of the game goes: their cards home
/// are no measure of how far the game gets.
struct Warp {
    last: u64,
}

const WARPED: u64 = 1 << 59;

impl Planned for Warp {
    const PLAN: Plan = Plan {
        exhaustive: Tactic::Relaxed,
        first_turn_nodes: 10,
        ..Plan::FULL_WALK
    };
}

impl Game for Warp {
    const ACYCLIC: bool = false;
    type State = u64;
    type Key = u64;
    type Move = u64;

    fn new(_: &Board) -> Result<Warp, BoardError> {
        Err(BoardError::whole("built by hand"))
    }
    fn initial(&self) -> u64 {
        0
    }
    fn key(&self, &state: &u64) -> u64 {
        state + 1
    }
    fn is_won(&self, _: &u64) -> bool {
        false
    }
    fn cards_home(&self, &state: &u64) -> u32 {
        (state & AT) as u32
    }
    fn moves(&self, &state: &u64, _: Option<u64>, _: Ask, out: &mut Vec<u64>) {
        let at = state & AT;
        let (first, last) = match state & WARPED {
            0 => (0, self.last),
            _ => (1000, 1010),
        };
        if state & RELAXED != 0 && state & WARPED == 0 && at == 3 {
            out.push(state & !AT | WARPED | 1000);
        }
        if at < last {
            out.push(state + 1);
        }
        if at > first {
            out.push(state - 1);
        }
    }
    fn play(&self, _: &u64, to: u64) -> u64 {
        to
    }
    fn relaxed(&self, &state: &u64) -> Option<u64> {
        Some(state | RELAXED)
    }
    fn is_game_line(&self, line: &[u64]) -> bool {
        !line.iter().any(|&to| to & WARPED != 0)
    }
    fn notation(&self, _: &u64, _: u64, _: &mut Vec<notation::Move>) {}
    fn to_board(&self, _: &u64) -> Board {
        Board::default()
    }
}

/// The relaxed walk proves the loss, and the report's most cards home is
/// the farthest position of the game's lines, not the deal's start (as if
/// the relaxation had been nowhere) nor one past the warp.
#[test]
fn a_relaxed_walk_counts_cards_home_on_lines_of_the_game_alone() {
    let game = Warp { last: 20 };
    let limits = Limits::default();
    for threads in [1, 2] {
        for tactic in [None, Some(Tactic::Relaxed)] {
            let report = match (threads, tactic) {
                (1, Some(tactic)) => solve_alone(&game, &limits, &mut Tables::new(1 << 20), tactic),
                (1, None) => solve(&game, &limits, &mut Tables::new(1 << 20)),
                _ => solve_parallel(&game, &limits, threads, tactic),
            };
            let decided = (report.verdict, report.decided_by);
            assert_eq!(decided, (Verdict::Lost, Some(Tactic::Relaxed)));
            assert_eq!(report.best, 20, "{threads} threads, {tactic:?}");
        }
    }
}
