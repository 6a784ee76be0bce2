//! The beam attempt: a search that goes down one depth at a time and keeps
//! only the best few positions of each, as judged by a rollout from each
//! (see [`super::rollout`]).
//!
//! A best-first search led by rollouts would expand the best position
//! wherever it lies, and the children of a good position inherit good
//! scores: it digs down one line and spends its nodes below the move that
//! spoiled it.
//! A beam holds `width` lines abreast and moves them down together, each
//! line going on by its best child, and a line that dies leaving its place
//! to the best other child of the rest: no early move is followed alone for
//! long. So lines branch off where a depth's children first outnumber the
//! width, within the first few moves, and where lines die: a wider beam
//! wins mostly by trying more openings (`docs/tuning.md`).
//!
//! The beam starts one position wide (a line of greedy choices, each the
//! child whose rollout got furthest) and, each time it runs dry, starts
//! over [`super::Plan::beam_growth`] times as wide (twice for most
//! games). A beam that ran dry without ever dropping a position has
//! searched everything its narrowed moves reach, so it ends there; as
//! with a narrowed walk, that proves nothing.

use std::cmp::Reverse;
use std::mem::size_of;
use std::ops::Range;

use rayon::prelude::*;

mod expansion;

use expansion::{Expansion, batch_size};

use super::rollout::{Ends, Line, Outcome, Rollout};
use super::{Closed, End, ROOT, Search, Stop, Table};
use crate::game::{Ask, Game};
use crate::notation;

/// How many of a rollout's first moves a position in the beam remembers.
const HINT_MOVES: usize = 16;

/// A position reached, the score of the rollout from it, and that
/// rollout's first moves, which the child along the first of them takes
/// with the score, without a rollout (see [`Line`]): a one-wide beam then
/// rolls out from the children of a position other than the one its last
/// rollout went through.
#[derive(Clone, Copy)]
struct Candidate<S, M> {
    score: i32,
    /// Breaks ties between equal scores.
    tie: Tie,
    state: S,
    /// Its parent's place in `closed` while a candidate (the position its
    /// last move is from, which may be a shift's, see [`Beam::expand`]);
    /// its own once in the beam.
    at: u32,
    /// The place in `closed` of the position of the beam it was reached
    /// from, while a candidate: a line of the beam goes on by one child
    /// of each.
    family: u32,
    mv: Option<M>,
    line: Line<M, HINT_MOVES>,
}

impl<S, M: Copy + PartialEq> Candidate<S, M> {
    fn root(state: S) -> Candidate<S, M> {
        Candidate {
            score: 0,
            tie: NO_TIE,
            state,
            at: 0,
            family: 0,
            mv: None,
            line: Line::NONE,
        }
    }
}

/// What breaks a tie between children of equal rollout score, the higher
/// first: where the plan asks for it ([`super::Plan::beam_ties_by_score`]),
/// the child's own [`Game::score`], then a hash of its class that changes
/// with the beam's width. Siblings share most of their rollouts, so a
/// depth holds few distinct rollout scores, and the children a beam keeps
/// among equals are its choice more than the rollouts'. Hashed afresh at
/// each start over, a wider beam keeps other equals than the narrower one
/// did, not the same lines and a few more; the hash, of the class and the
/// width alone, keeps the beam the same on any number of threads.
type Tie = (i32, u32);

/// The tie of a plan that breaks none (see [`Tie`]).
const NO_TIE: Tie = (0, 0);

/// A child to score: the place of the position it was reached from in the
/// layer, the place in `closed` of the position its last move is from (the
/// layer's, or a shift's), the move, the child, its tie-break, and whether
/// it is on its parent's rollout (see [`Candidate`]).
#[derive(Clone, Copy)]
struct Roll<S, M> {
    at: u32,
    from: u32,
    mv: M,
    child: S,
    tie: Tie,
    hinted: bool,
}

/// A beam attempt, kept between the turns of its tactic.
pub(super) struct Beam<G: Game> {
    root: G::State,
    width: usize,
    /// Whether the beam dropped a position since it last started over.
    dropped: bool,
    closed: Vec<Closed<G::Move>>,
    /// The positions in the beam at this depth.
    layer: Vec<Candidate<G::State, G::Move>>,
    /// The next position of `layer` to expand.
    next: usize,
    /// The children of this depth's positions expanded so far.
    children: Vec<Candidate<G::State, G::Move>>,
    /// The children of the layer's positions being expanded, worked out
    /// ahead of the table (see [`Beam::resume`]), and their buffers.
    expansions: Vec<Expansion<G>>,
    /// Children not yet scored that the table did not hold.
    rolls: Vec<Roll<G::State, G::Move>>,
    narrowing: u32,
    /// The level of narrowing of its rollouts (see
    /// [`super::Plan::rollout_level`]).
    rollout_level: u32,
    /// Where the rollouts of the depths before ended.
    ends: Ends,
    /// The rollouts of the parts of a depth (see [`Beam::roll_out`]), made
    /// at the first of them.
    parts: Vec<Rollout<G>>,
    pub(super) room: usize,
}

/// How a rollout from a child ended.
enum Rolled<M> {
    Stopped(i32, Line<M, HINT_MOVES>),
    /// Won, with the rollout's moves.
    Won(Vec<M>),
}

/// Plays `rollout` from `child`, reached by `mv`, stopping also where
/// the rollouts behind `earlier` went.
fn rolled_out<G: Game>(
    rollout: &mut Rollout<G>,
    search: &mut Search<G>,
    child: G::State,
    mv: G::Move,
    earlier: &Ends,
) -> Result<Rolled<G::Move>, Stop> {
    Ok(match rollout.play(search, child, Some(mv), earlier)? {
        Outcome::Stopped(score) => Rolled::Stopped(score, Line::of(rollout.line())),
        Outcome::Won => Rolled::Won(rollout.line().to_vec()),
    })
}

impl<G: Game> Beam<G> {
    /// A beam from `root`, already recorded in the table, making the moves
    /// of level `narrowing`, its rollouts those of `rollout_level`.
    pub(super) fn new(root: G::State, narrowing: u32, rollout_level: u32, room: usize) -> Beam<G> {
        Beam {
            root,
            width: 1,
            dropped: false,
            closed: vec![Closed {
                parent: ROOT,
                mv: None,
            }],
            layer: vec![Candidate::root(root)],
            next: 0,
            children: Vec::new(),
            expansions: Vec::new(),
            rolls: Vec::new(),
            narrowing,
            rollout_level,
            ends: Ends::new(),
            parts: Vec::new(),
            room,
        }
    }

    /// Expands on until a win, a beam that ran dry without dropping a
    /// position, or the end of the turn's nodes. The children of a depth
    /// (or of as much of it as a turn expands) roll out together, after
    /// it is expanded.
    pub(super) fn resume(
        &mut self,
        search: &mut Search<G>,
        table: &mut Table<G::Key>,
    ) -> End<notation::Move> {
        loop {
            self.rolls.clear();
            let mut paused = None;
            while paused.is_none() && self.next < self.layer.len() {
                let batch = self.next..self.layer.len().min(self.next + batch_size(search));
                self.work_out(search, batch.clone());
                for (at, i) in batch.zip(0..) {
                    if let Err(end) = search.count_node() {
                        paused = Some(end);
                        break;
                    }
                    if self.bytes() > self.room {
                        paused = Some(End::OutOfRoom);
                        break;
                    }
                    self.next += 1;
                    if let Some(won) = self.expand(search, table, at, i) {
                        return won;
                    }
                }
            }
            if let Some(End::Stopped(stop)) = paused {
                return End::Stopped(stop);
            }
            if let Err(end) = self.score_rolls(search) {
                return end;
            }
            if let Some(end) = paused {
                return end;
            }
            if self.children.is_empty() {
                if !self.dropped {
                    return End::Lost;
                }
                self.start_over(search.game, search.plan.beam_growth, table);
                continue;
            }
            self.descend();
        }
    }

    /// Works out the children of the layer's positions `batch` into
    /// `expansions`, on the pool's threads where the search has them: the
    /// moves, the positions they reach and their classes, the most work of
    /// a depth but its rollouts, none of it touching the table. What is
    /// kept of them is then taken in order ([`Beam::expand`]), so the beam
    /// searches the same positions on any number of threads.
    fn work_out(&mut self, search: &Search<G>, batch: Range<usize>) {
        let (game, plan, width) = (search.game, search.plan, self.width);
        let ask = Ask {
            narrowing: self.narrowing,
            ordered: false,
        };
        let layer = &self.layer[batch.clone()];
        // Grown, never cut: a depth's last batch is short, and the buffers
        // of the rest serve the next depth's.
        if self.expansions.len() < layer.len() {
            self.expansions.resize_with(layer.len(), Expansion::default);
        }
        let expansions = &mut self.expansions[..layer.len()];
        let work = |(expansion, parent): (&mut Expansion<G>, &Candidate<G::State, G::Move>)| {
            expansion.work_out(game, plan, width, ask, parent);
        };
        match search.threads > 1 {
            true => expansions.par_iter_mut().zip(layer).for_each(work),
            false => expansions.iter_mut().zip(layer).for_each(work),
        }
    }

    /// Expands the layer's position `at`, whose children `expansions[i]`
    /// holds: adds those whose class ([`Game::class_key`]) the table did
    /// not hold to `rolls`, or gives the win one of them is. A class's
    /// positions reach one another by moves taken back at once, so one
    /// line through it is enough for a search that proves nothing when it
    /// ends.
    ///
    /// A move that keeps the class ([`Game::keeps_class`]) reaches no new
    /// class, but a member whose moves may differ: a card it uncovers may
    /// go home. So the member's moves that send a card home are moves of
    /// the position too, two moves on, after the position's own (which so
    /// take their classes first, with the hint of its rollout). Its other
    /// children mostly share classes with the position's own, and rolling
    /// them out too left fewer depths within a node limit. A member is a
    /// position expanded, and counted so; at the limit it is left
    /// unexpanded.
    fn expand(
        &mut self,
        search: &mut Search<G>,
        table: &mut Table<G::Key>,
        at: usize,
        i: usize,
    ) -> Option<End<notation::Move>> {
        let game = search.game;
        let parent = self.layer[at];
        search.best = search.best.max(game.cards_home(&parent.state));
        let expansion = &self.expansions[i];
        if expansion.dead {
            return None;
        }
        for child in &expansion.own {
            if child.won {
                search.best = game.cards_home(&child.state);
                let line = super::line(game, &self.closed, parent.at, child.mv, &[]);
                return Some(End::Won(line));
            }
            if table.insert_hashed(child.class, child.hash) {
                self.rolls.push(Roll {
                    at: at as u32,
                    from: parent.at,
                    mv: child.mv,
                    child: child.state,
                    tie: child.tie,
                    hinted: parent.line.starts_with(child.mv),
                });
            }
        }
        for shifted in &expansion.shifted {
            if search.nodes_left() == Some(0) {
                return None;
            }
            search.nodes += 1;
            let mut from = None;
            for child in &expansion.homeward[shifted.children.clone()] {
                if child.won {
                    search.best = game.cards_home(&child.state);
                    let line = super::line(game, &self.closed, parent.at, shifted.mv, &[child.mv]);
                    return Some(End::Won(line));
                }
                if table.insert_hashed(child.class, child.hash) {
                    let from = *from.get_or_insert_with(|| {
                        self.closed.push(Closed {
                            parent: parent.at,
                            mv: Some(shifted.mv),
                        });
                        (self.closed.len() - 1) as u32
                    });
                    self.rolls.push(Roll {
                        at: at as u32,
                        from,
                        mv: child.mv,
                        child: child.state,
                        tie: child.tie,
                        hinted: false,
                    });
                }
            }
        }
        None
    }

    /// Scores the children in `rolls`, in order, and makes them candidates
    /// for the next depth: a child on its parent's rollout by its hint, the
    /// others by a rollout each (see [`Beam::roll_out`]). Gives the win a
    /// rollout found, or else why one stopped: a win found while the limit
    /// stopped other rollouts is a win all the same.
    fn score_rolls(&mut self, search: &mut Search<G>) -> Result<(), End<notation::Move>> {
        let outcomes = self.roll_out(search);
        search.tell();
        let unhinted = self.rolls.iter().filter(|roll| !roll.hinted);
        let mut scored = Vec::with_capacity(outcomes.len());
        let mut stopped = search.check().err();
        for (roll, outcome) in unhinted.zip(outcomes) {
            match outcome {
                Ok(Rolled::Won(rest)) => {
                    let line = super::line(search.game, &self.closed, roll.from, roll.mv, &rest);
                    return Err(End::Won(line));
                }
                Ok(Rolled::Stopped(score, line)) => scored.push((score, line)),
                Err(stop) => stopped = stopped.or(Some(stop)),
            }
        }
        if let Some(stop) = stopped {
            return Err(End::Stopped(stop));
        }
        let mut scored = scored.into_iter();
        for &Roll {
            at,
            from,
            mv,
            child,
            tie,
            hinted,
        } in &self.rolls
        {
            let parent = self.layer[at as usize];
            let (score, line) = match hinted {
                true => (parent.score, parent.line.rest()),
                false => scored.next().expect("one outcome a rollout"),
            };
            self.children.push(Candidate {
                score,
                tie,
                state: child,
                at: from,
                family: parent.at,
                mv: Some(mv),
                line,
            });
        }
        Ok(())
    }

    /// Plays the rollouts of the children in `rolls` not hinted, on the
    /// pool's threads at once where the search has them (one position's
    /// children are a handful, too few to share out: waking the threads
    /// costs more than they save).
    ///
    /// They are cut into [`PARTS`] parts, each of the children of whole
    /// positions, and a part's rollouts are played one after another: each
    /// stops where the rollouts of the depths before ended, or those before
    /// it in its part (siblings share most of their rollouts), not where
    /// those of other parts did. Then the ends of the parts join the beam's
    /// in order. So the scores do not hang on which thread gets where
    /// first, and the beam searches the same positions on any number of
    /// threads.
    ///
    /// The node limit counts the rollouts as if all were played one after
    /// another in order (see [`within_limit`]): each part may take all
    /// that is left, and a rollout past the limit so counted is stopped by
    /// it, whatever it found. An even share each would stop a depth whose
    /// one long rollout needs more, with most of the limit unused.
    fn roll_out(&mut self, search: &mut Search<G>) -> Vec<Result<Rolled<G::Move>, Stop>> {
        let todo: Vec<_> = (self.rolls.iter())
            .filter(|roll| !roll.hinted)
            .map(|roll| (roll.at, roll.mv, roll.child))
            .collect();
        if todo.is_empty() {
            return Vec::new();
        }
        let left = search.nodes_left();
        let level = self.rollout_level;
        self.parts.resize_with(PARTS, || Rollout::new(level));
        let (earlier, todo) = (&self.ends, &todo);
        let fork = &*search;
        // A part's rollouts, each with at most `most` less what those before
        // it took.
        let play = |rollout: &mut Rollout<G>, part: Range<usize>, most: Option<u64>| {
            let mut played = Vec::with_capacity(part.len());
            let mut used = 0;
            for &(_, mv, child) in &todo[part] {
                let mut forked = fork.fork(most.map(|most| most.saturating_sub(used)));
                let outcome = rolled_out(rollout, &mut forked, child, mv, earlier);
                used += forked.nodes;
                played.push(Played {
                    outcome,
                    nodes: forked.nodes,
                    best: forked.best,
                });
            }
            played
        };
        let parts = parts_by_parent(todo, PARTS);
        let played: Vec<Vec<_>> = match search.threads > 1 && parts.len() > 1 {
            true => (self.parts.par_iter_mut())
                .zip(parts.into_par_iter())
                .map(|(rollout, part)| play(rollout, part, left))
                .collect(),
            // One after another, each part has only what those before it
            // left: no rollout plays on past the limit.
            false => {
                let mut used = 0;
                let parts = self.parts.iter_mut().zip(parts);
                parts
                    .map(|(rollout, part)| {
                        let played =
                            play(rollout, part, left.map(|left| left.saturating_sub(used)));
                        used += played.iter().map(|p| p.nodes).sum::<u64>();
                        played
                    })
                    .collect()
            }
        };
        for part in &mut self.parts {
            part.pass_on(&mut self.ends);
        }
        within_limit(search, played.into_iter().flatten())
    }

    /// Makes `width` children this depth's beam: the best child of each
    /// position, then the best of the others while there is room.
    ///
    /// Siblings share most of their rollouts and score alike, so a beam
    /// that took the best children of all its positions alike filled up
    /// with the children of one or two of them and followed few lines
    /// abreast.
    fn descend(&mut self) {
        if self.children.len() > self.width {
            // By parent, each one's best first; then those bests to the
            // front.
            (self.children)
                .sort_unstable_by_key(|child| (child.family, Reverse((child.score, child.tie))));
            let (mut firsts, mut parent) = (0, None);
            for i in 0..self.children.len() {
                let family = self.children[i].family;
                if parent != Some(family) {
                    parent = Some(family);
                    self.children.swap(firsts, i);
                    firsts += 1;
                }
            }
            // At most `width` firsts: a parent is a position of the layer.
            let room = self.width - firsts;
            let others = &mut self.children[firsts..];
            others.select_nth_unstable_by_key(room, |child| Reverse((child.score, child.tie)));
            self.children.truncate(self.width);
            // Expanded best first, the best take first the children that
            // two share.
            (self.children).sort_unstable_by_key(|child| Reverse((child.score, child.tie)));
            self.dropped = true;
        }
        self.layer.clear();
        self.next = 0;
        for mut child in self.children.drain(..) {
            self.closed.push(Closed {
                parent: child.at,
                mv: child.mv,
            });
            child.at = (self.closed.len() - 1) as u32;
            self.layer.push(child);
        }
    }

    /// Starts over from the root, `growth` times as wide (see
    /// [`super::Plan::beam_growth`]), forgetting every position (a
    /// position dropped before may be kept now).
    fn start_over(&mut self, game: &G, growth: usize, table: &mut Table<G::Key>) {
        self.width *= growth;
        self.dropped = false;
        table.clear();
        table.insert(game.class_key(&self.root));
        self.closed.truncate(1);
        self.layer.clear();
        self.layer.push(Candidate::root(self.root));
        self.next = 0;
    }

    /// Bytes the beam takes, room to grow included.
    fn bytes(&self) -> usize {
        self.closed.capacity() * size_of::<Closed<G::Move>>()
            + (self.layer.capacity() + self.children.capacity())
                * size_of::<Candidate<G::State, G::Move>>()
            + self.rolls.capacity() * size_of::<Roll<G::State, G::Move>>()
            + self.expansions.iter().map(Expansion::bytes).sum::<usize>()
            + self.ends.bytes()
            + self.parts.iter().map(Rollout::bytes).sum::<usize>()
    }
}

/// `hash` salted by `width` and mixed again, 32 bits of it: another order
/// of the same positions for each width.
fn salted(hash: u64, width: usize) -> u32 {
    let salted = hash ^ (width as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (salted.wrapping_mul(0xd6e8_feb8_6659_fd93) >> 32) as u32
}

/// A rollout played: how it ended, the nodes it took and the most cards
/// home it saw.
struct Played<M> {
    outcome: Result<Rolled<M>, Stop>,
    nodes: u64,
    best: u32,
}

/// The outcomes of `played`, a depth's rollouts in order, counted into
/// `search` as if played one after another: the first that the limit stops
/// so counted, and all after it, are stopped by it, and count only what
/// was left. A rollout that ends within what those before it left ends
/// alike under any larger limit, so the outcomes and the count hang
/// neither on the number of threads nor on the limits the parts had.
fn within_limit<G: Game>(
    search: &mut Search<G>,
    played: impl Iterator<Item = Played<G::Move>>,
) -> Vec<Result<Rolled<G::Move>, Stop>> {
    let mut room = search.nodes_left().unwrap_or(u64::MAX);
    let mut cut = false;
    let mut outcomes = Vec::new();
    for rollout in played {
        cut = cut || rollout.nodes > room || matches!(rollout.outcome, Err(Stop::MaxNodes));
        if cut {
            search.nodes += room;
            room = 0;
            outcomes.push(Err(Stop::MaxNodes));
            continue;
        }
        search.nodes += rollout.nodes;
        room -= rollout.nodes;
        search.best = search.best.max(rollout.best);
        outcomes.push(rollout.outcome);
    }
    outcomes
}

/// How many parts [`Beam::roll_out`] cuts a depth's rollouts into: a few
/// a thread, so that a thread whose parts end early takes another's. The
/// count changes which rollouts stop early, and so the positions searched,
/// but not by much.
const PARTS: usize = 8;

/// Cuts `rolls`, in order of their parents' places, into at most `parts`
/// runs of about equal length, each cut where the parent changes.
fn parts_by_parent<M, S>(rolls: &[(u32, M, S)], parts: usize) -> Vec<Range<usize>> {
    let length = rolls.len().div_ceil(parts.max(1));
    let mut cuts = Vec::with_capacity(parts);
    let mut start = 0;
    while start < rolls.len() {
        let mut end = (start + length).min(rolls.len());
        while end < rolls.len() && rolls[end].0 == rolls[end - 1].0 {
            end += 1;
        }
        cuts.push(start..end);
        start = end;
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::{Beam, Candidate, Closed, Line, NO_TIE, parts_by_parent};
    use crate::board::{Board, BoardError};
    use crate::game::{Ask, Game};
    use crate::notation;
    use crate::search::tree::Tree;
    use crate::search::{Limits, Plan, Planned, Stop, Tables, Tactic, Verdict, solve_alone};

    /// The positions 4 and 5 (children of 2) score above 6 and 7 (children
    /// of 3): two wide, the beam goes on from 4 and 6, one line each; three
    /// wide, from 5 too, best first.
    #[test]
    fn each_line_goes_on_by_its_best_child_before_any_takes_two() {
        let next = |width| {
            let mut beam = Beam::<Tree>::new(1, 1, 1, usize::MAX);
            beam.width = width;
            for mv in [2, 3] {
                beam.closed.push(Closed {
                    parent: 0,
                    mv: Some(mv),
                });
            }
            let child = |state: u64, parent| Candidate {
                score: -(state as i32),
                tie: NO_TIE,
                state,
                at: parent,
                family: parent,
                mv: Some(state),
                line: Line::NONE,
            };
            beam.children = vec![child(7, 2), child(6, 2), child(5, 1), child(4, 1)];
            beam.descend();
            (beam.layer.iter())
                .map(|c| (c.state, beam.closed[c.at as usize].parent))
                .collect::<Vec<_>>()
        };
        assert_eq!(next(2), [(4, 1), (6, 2)]);
        assert_eq!(next(3), [(4, 1), (5, 1), (6, 2)]);
    }

    /// Children whose rollouts scored alike go by their tie-break (see
    /// [`Tie`]): of four children of one rollout score, two wide, the beam
    /// keeps the two that break the tie highest, best first, whatever
    /// their order, 4 over 6 by the hash (a sort by rollout score alone
    /// keeps 7 and 6, by their own score alone 5 and 6 or 4).
    #[test]
    fn equal_rollout_scores_go_by_the_tie_break() {
        let mut beam = Beam::<Tree>::new(1, 1, 1, usize::MAX);
        beam.width = 2;
        let child = |state: u64, tie| Candidate {
            score: 0,
            tie,
            state,
            at: 0,
            family: 0,
            mv: Some(state),
            line: Line::NONE,
        };
        beam.children = vec![
            child(7, (1, 9)),
            child(6, (2, 0)),
            child(5, (4, 0)),
            child(4, (2, 1)),
        ];
        beam.descend();
        let kept: Vec<u64> = beam.layer.iter().map(|c| c.state).collect();
        assert_eq!(kept, [5, 4]);
    }

    /// The tree of [`crate::search::tree`], three moves deep: a rollout
    /// takes the first child each time, and the lower a leaf the higher
    /// its score, so the rollouts lead the beam down the left.
    fn tree(goal: Option<u64>) -> Tree {
        Tree { depth: 3, goal }
    }

    fn beam(tree: &Tree) -> crate::search::Report {
        solve_alone(
            tree,
            &Limits::default(),
            &mut Tables::new(1 << 20),
            Tactic::Beam(1),
        )
    }

    /// The rightmost leaf, 15, is the child of 7, which the rollouts rank
    /// last of the four positions two moves deep: beams one and two wide
    /// drop it and run dry, one four wide keeps it and wins. Counted: a
    /// rollout from a position runs to its leftmost leaf, one node a
    /// position, or stops at the first position an earlier rollout went
    /// through (counted), and a child on its parent's rollout takes its
    /// score without one.
    #[test]
    fn a_beam_that_drops_the_way_to_the_win_starts_over_wider() {
        let report = beam(&tree(Some(15)));
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.best, 15);
        // One wide: expands 1, 2, 4, 8; rolls out from 2 and 3 (3 nodes
        // each: 2 4 8, 3 6 12), 5 (2: 5 10) and 9 (1).
        // Two wide: expands 1, 2, 3, 4, 5, 8, 9; the rollouts from 2 to
        // 11 but 7 stop at once (1 node each; the line of 2 is then
        // empty, so 4 rolls out too), 7's goes on to 14 (2).
        // Four wide: expands 1 to 7, and finds the win among 7's
        // children before the children of that depth roll out; rolls out
        // from 2 to 7, each stopping at once (6).
        let one = 4 + 3 + 3 + 2 + 1;
        let two = 7 + 9 + 2;
        let four = 7 + 6;
        assert_eq!(report.nodes, one + two + four);
    }

    /// Five nodes: the root's expansion, three for the rollout from 2,
    /// which reaches the goal 8, and the one left for the rollout from 3,
    /// which stops at the limit: the win is kept. Even shares of the four
    /// nodes left would have stopped the first rollout short of the goal.
    #[test]
    fn a_win_found_as_another_rollout_hits_the_limit_is_kept() {
        let limits = Limits {
            max_nodes: Some(5),
            ..Limits::default()
        };
        let report = solve_alone(
            &tree(Some(8)),
            &limits,
            &mut Tables::new(1 << 20),
            Tactic::Beam(1),
        );
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(report.nodes, 5);
    }

    /// Under every node limit, the beam on two threads, its rollouts in
    /// parts played at once, ends as on one: the limit counts the
    /// rollouts in order, whatever each part was let take. The tree is
    /// deep enough that a depth's rollouts come in several parts.
    #[test]
    fn a_beam_under_a_node_limit_ends_alike_on_any_number_of_threads() {
        let tree = Tree {
            depth: 6,
            goal: Some(127),
        };
        let all = solve_alone(
            &tree,
            &Limits::default(),
            &mut Tables::new(1 << 20),
            Tactic::Beam(1),
        );
        assert_eq!(all.verdict, Verdict::Won);
        let (mut won, mut stopped) = (0, 0);
        for max_nodes in 1..=all.nodes + 20 {
            let limits = Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            };
            let one = solve_alone(&tree, &limits, &mut Tables::new(1 << 20), Tactic::Beam(1));
            let two = crate::search::solve_parallel(&tree, &limits, 2, Some(Tactic::Beam(1)));
            let ended = |r: &crate::search::Report| (r.verdict, r.stop, r.nodes, r.best);
            assert_eq!(ended(&one), ended(&two), "at most {max_nodes} nodes");
            assert!(one.nodes <= max_nodes);
            match one.verdict {
                Verdict::Won => won += 1,
                _ => stopped += (one.stop == Some(Stop::MaxNodes)) as u32,
            }
        }
        assert!(won >= 20 && stopped > 20, "{won} won, {stopped} stopped");
    }

    /// On two threads the rollouts of a depth are played at once: the
    /// beam still widens to the win, through the same positions, and runs
    /// dry without one.
    #[test]
    fn a_beam_on_two_threads_finds_what_it_finds_on_one() {
        let beam_on_two = |goal| {
            let tree = tree(goal);
            crate::search::solve_parallel(&tree, &Limits::default(), 2, Some(Tactic::Beam(1)))
        };
        let won = beam_on_two(Some(15));
        assert_eq!((won.verdict, won.best), (Verdict::Won, 15));
        assert_eq!(won.nodes, beam(&tree(Some(15))).nodes);
        let dry = beam_on_two(None);
        assert_eq!(
            (dry.verdict, dry.stop),
            (Verdict::Unknown, Some(Stop::Narrowed))
        );
    }

    /// Parts end where the parent changes, past an even share of the
    /// rollouts, and no part is empty.
    #[test]
    fn parts_are_whole_families_of_about_even_length() {
        let rolls = |parents: &[u32]| parents.iter().map(|&at| (at, (), ())).collect::<Vec<_>>();
        let four = rolls(&[0, 0, 0, 1, 1, 2, 3, 3, 3, 3]);
        assert_eq!(parts_by_parent(&four, 4), [0..3, 3..6, 6..10]);
        assert_eq!(parts_by_parent(&four, 2), [0..5, 5..10]);
        assert_eq!(parts_by_parent(&four, 1), vec![0..10]);
        assert_eq!(parts_by_parent(&four, 20), [0..3, 3..5, 5..6, 6..10]);
        assert_eq!(parts_by_parent(&rolls(&[5; 6]), 3), vec![0..6]);
        assert!(parts_by_parent(&rolls(&[]), 8).is_empty());
    }

    /// A ladder of classes of two positions each, `2k` and `2k + 1` the
    /// class `k`: the one move from `2k` goes to `2k + 1` and keeps the
    /// class, the one from `2k + 1` goes on to the next class. A position
    /// has as many cards home as its number, so each move sends one home.
    /// Won at the top class's second position.
    struct Rungs {
        top: u64,
    }

    impl Planned for Rungs {
        const PLAN: Plan = Plan::FULL_WALK;
    }

    impl Game for Rungs {
        const ACYCLIC: bool = true;
        type State = u64;
        type Key = u64;
        type Move = u64;

        fn new(_: &Board) -> Result<Rungs, BoardError> {
            Err(BoardError::whole("a ladder is built by hand"))
        }
        fn initial(&self) -> u64 {
            0
        }
        fn key(&self, &at: &u64) -> u64 {
            at + 1
        }
        fn class_key(&self, &at: &u64) -> u64 {
            at / 2 + 1
        }
        fn keeps_class(&self, &at: &u64, _: u64) -> bool {
            at % 2 == 0
        }
        fn is_won(&self, &at: &u64) -> bool {
            at == 2 * self.top + 1
        }
        fn cards_home(&self, &at: &u64) -> u32 {
            at as u32
        }
        fn moves(&self, &at: &u64, _: Option<u64>, _: Ask, out: &mut Vec<u64>) {
            if !self.is_won(&at) {
                out.push(at + 1);
            }
        }
        fn play(&self, _: &u64, to: u64) -> u64 {
            to
        }
        fn notation(&self, _: &u64, to: u64, out: &mut Vec<notation::Move>) {
            out.push(Tree::step(to));
        }
        fn to_board(&self, _: &u64) -> Board {
            Board::default()
        }
    }

    /// Every class of the ladder is left by its second position alone, so
    /// a beam that passed over moves within a class (their child's class
    /// is held) would run dry at once: it goes on through them, two moves
    /// a child, and wins by every move in order.
    #[test]
    fn a_beam_goes_on_through_moves_that_keep_the_class() {
        let report = solve_alone(
            &Rungs { top: 5 },
            &Limits::default(),
            &mut Tables::new(1 << 20),
            Tactic::Beam(1),
        );
        assert_eq!(report.verdict, Verdict::Won);
        let steps: Vec<_> = (1..=11).map(Tree::step).collect();
        assert_eq!(report.moves, steps);
    }

    /// Eight wide, the beam keeps every position: run dry, it has searched
    /// them all, and ends, proving nothing.
    #[test]
    fn a_beam_that_dropped_nothing_ends_without_a_verdict() {
        let report = beam(&tree(None));
        assert_eq!(report.verdict, Verdict::Unknown);
        assert_eq!(report.stop, Some(Stop::Narrowed));
    }
}
